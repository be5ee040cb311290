"""attnproof: exact fusion of softmax attention heads, with checkable proofs.

The public API (the command line is a thin layer over it):

>>> from attnproof import sigmoid_sum, fuse, bound, prove, check
>>> fuse(sigmoid_sum(3)).atoms
8
>>> bound(sigmoid_sum(3)).value
8
>>> cert = prove(sigmoid_sum(3))
>>> cert.minimum, check(cert).status
(8, 'valid')

Imports are lazy (PEP 562): ``import attnproof`` loads nothing heavy, and
``python -m attnproof.checker CERT`` runs on a bare Python (the checker uses the
standard library only).  ``attnproof.search`` is the API function
:func:`attnproof.api.search`; the SMT search itself is the subpackage ``attnproof.smt``.
"""

from __future__ import annotations

import importlib as _importlib

__version__ = "0.1.0"

# public name -> module that defines it (imported on first use)
_EXPORTS = {
    **dict.fromkeys(("AttnproofError", "InputError", "NumberError", "ValidationError", "LimitError",
                     "AlgebraError", "CertificateError", "SolverError", "NumericError"), "errors"),
    **dict.fromkeys(("Atom", "Head", "MultiHead"), "heads"),
    **dict.fromkeys(("load_problem", "loads_problem", "dump_problem", "problem_from_dict", "as_problem",
                     "problem_to_dict", "problem_sha256", "canonical_json", "parse_number"), "io"),
    **dict.fromkeys(("Fusion", "ReducedForm", "fuse", "product_fusion", "reduced_form"), "fusion"),
    **dict.fromkeys(("sigmoid_sum", "biased_sigmoid_sum", "graph_sum", "random_multihead"),
                    "families"),
    **dict.fromkeys(("bound", "prove", "check", "search"), "api"),
    "LowerBound": "bounds", "Certificate": "certificate", "Verdict": "checker",
}
# subpackages reachable as attributes
_SUBMODULES = ("algebra", "api", "bounds", "certificate", "checker", "cli", "display", "errors", "parallel",
               "families", "fusion", "io", "heads", "merging", "numeric", "plot", "proving",
               "searching", "smt")

__all__ = sorted(_EXPORTS) + ["__version__"]  # noqa: PLE0605  (the lazy names, built from _EXPORTS)


def __getattr__(name: str):
    """Import a public name (or a subpackage) on first use."""
    mod = _EXPORTS.get(name)
    if mod is not None:
        value = getattr(_importlib.import_module(f"{__name__}.{mod}"), name)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names (and the module's dunder attributes), nothing imported for its own use."""
    dunders = {n for n in globals() if n.startswith("__") and n != "__getattr__"}
    return sorted(dunders | set(_EXPORTS) | set(_SUBMODULES) | {"search"})
