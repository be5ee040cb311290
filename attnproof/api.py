"""The Python API in four verbs: :func:`bound`, :func:`prove`, :func:`check`, :func:`search`.

Each takes a problem as a :class:`~attnproof.heads.MultiHead`, a problem file
path or a problem document (dict), and returns the library's own objects,
which print briefly and render in notebooks (``_repr_latex_``).  The command
line (``attnproof bound|prove|check|search``) is a thin layer over the same
functions.

>>> from attnproof import bound, prove, check, sigmoid_sum
>>> bound(sigmoid_sum(4))
LowerBound(16, trust='exact', path='c1', complete=True)
>>> cert = prove(sigmoid_sum(4))
>>> cert
Certificate(lower_bound=16, upper_bound=16, minimum=16, trust='exact')
>>> check(cert).status
'valid'
"""

from __future__ import annotations

import os
from typing import Any, Sequence

from .errors import CertificateError, InputError
from .io import as_problem
from .heads import MultiHead  # noqa: F401  (the type every verb accepts)
from .parallel.tasks import Progress

__all__ = ["bound", "prove", "check", "search", "as_problem"]

DEFAULT_MAX_ATOMS = 1 << 20


def bound(problem: Any, *, explicit: bool = False, max_atoms: int | None = DEFAULT_MAX_ATOMS,
          progress: Progress = None):
    """The proven lower bound on the atoms of every exact single-head fusion (THEORY §4).

    Returns a :class:`~attnproof.bounds.LowerBound` (``.value``, ``.trust``, ``.tight``).
    """
    from .bounds import lower_bound

    return lower_bound(as_problem(problem), explicit=explicit, max_atoms=max_atoms,
                       progress=progress)


def prove(problem: Any, *, explicit: bool = False, max_atoms: int | None = DEFAULT_MAX_ATOMS,
          explicit_fusion_limit: int | None = None, output: str | os.PathLike | None = None,
          progress: Progress = None, lines: bool | None = None, lines_timeout: float = 120.0):
    """Lower and upper bounds in a certificate that the independent checker accepts.

    The certificate is checked before it is returned (and written to ``output``,
    atomically, when given); a certificate the checker refuses raises
    :class:`~attnproof.errors.CertificateError`.  A certificate that needs more than
    the checker's default work budget is checked with one that fits, and ``cert.check_note``
    names the ``--max-work`` that re-checks it.

    ``lines``: the line query of THEORY §12, as ``attnproof prove`` asks it: by default
    (None) when the exact steps leave a gap and it applies (a factor ``1 + c·x^g``, no
    biases, z3 and cvc5 installed, a lower bound of at most 64 points), within
    ``lines_timeout`` seconds in all; True asks it whatever the size (an
    :class:`~attnproof.errors.InputError` when it cannot apply); False never.  A bound it
    raises has trust ``line-refuted``: ``attnproof check CERT --replay`` re-proves it.
    """
    from .certificate import EXPLICIT_FUSION_LIMIT, build_certificate, check_own, waits_for_replay

    if not (lines_timeout > 0) or lines_timeout > 86400:
        raise InputError(f"lines_timeout {lines_timeout!r}: give seconds between 0 and 86400")
    M = as_problem(problem)
    cert = build_certificate(M, explicit=explicit, max_atoms=max_atoms,
                             explicit_fusion_limit=(EXPLICIT_FUSION_LIMIT if explicit_fusion_limit
                                                    is None else explicit_fusion_limit),
                             progress=progress)
    if lines is not False and cert.lower.value != cert.upper:
        cert = _with_lines(M, cert, bool(lines), lines_timeout, max_atoms)
    v, budget_note = check_own(cert.text)
    cert.check_note = budget_note
    if v.code == 2 and not waits_for_replay(v):
        from .errors import LimitError

        raise LimitError(f"the checker cannot decide this certificate within its limits "
                         f"({v.message})")
    if v.code not in (0, 2):
        raise CertificateError(f"the checker does not accept the certificate: {v.message}")
    if output is not None:
        from .io import atomic_write_text

        atomic_write_text(output, cert.text)
    return cert


def _with_lines(M, cert, forced: bool, timeout: float, max_atoms: int | None):
    """``cert`` with the line refutations of THEORY §12 added, when the query applies."""
    from dataclasses import replace

    from .certificate import Certificate
    from .smt import add_line_refutations, line_obstacle

    if line_obstacle(M, cert, forced=forced) is not None:
        return cert
    doc, mr = add_line_refutations(M, cert, timeout, max_atoms)
    if doc is None:
        return cert
    claims = doc["claims"]
    fusion = mr.best if mr.best.atoms < cert.upper else cert.fusion
    return Certificate(doc, replace(cert.lower, value=int(claims["lower_bound"]),
                                    trust=doc["trust"]),
                       fusion, int(claims["upper_bound"]), upper_note=cert.upper_note)


def check(certificate: Any, *, problem: Any = None, strict: bool = False):
    """Verify a certificate with the trusted checker; returns its :class:`~attnproof.checker.Verdict`.

    ``certificate``: a :class:`~attnproof.certificate.Certificate`, a document
    (dict), certificate JSON text, or a file path.  ``problem``: when given,
    the certificate must be about this problem.  Text that is not JSON at all
    (empty, truncated) raises :class:`~attnproof.errors.InputError` ("not a
    certificate: ..."), as an unreadable file does.
    """
    from .checker import check_text

    if hasattr(certificate, "text") and hasattr(certificate, "doc"):
        text = certificate.text
    elif isinstance(certificate, dict):
        from .io import canonical_json

        text = canonical_json(certificate)
    elif isinstance(certificate, str) and certificate.lstrip().startswith("{"):
        text = certificate
    elif isinstance(certificate, (str, os.PathLike)):
        from .checker import too_large
        from .checker.limits import byte_limit, file_size
        from .io import read_text_file

        # as the command line: a file past the size the checker reads is answered unread
        # (reading up to the 512 MiB file limit took a gigabyte of memory)
        big = too_large(file_size(certificate), None)
        if big is not None:
            return big
        text = read_text_file(certificate, byte_limit(None))
    else:
        raise InputError(f"expected a certificate, its text or a file path, got "
                         f"{type(certificate).__name__}")
    expected = None
    if problem is not None:
        from .io import problem_sha256

        expected = problem_sha256(as_problem(problem))
    v = check_text(text, expected_sha256=expected, strict=strict)
    if v.status == "error":         # not JSON at all (empty, truncated): not a forgery
        raise InputError(v.message)
    return v


def search(problem: Any, atoms: int | None = None, *, window: int | Sequence | Any = 1,
           minimize: bool = False, timeout: float = 600, options: Any = None,
           max_atoms: int | None = DEFAULT_MAX_ATOMS, progress: Progress = None):
    """Search a window for a fusion with at most ``atoms`` atoms (z3; unsat re-checked by cvc5).

    With ``minimize=True`` walk the atom count down from the best cheap fusion
    (:func:`attnproof.smt.minimize`); otherwise one query
    (:func:`attnproof.smt.search_fusion`).  ``window``: a box radius or a
    list of exponent vectors of the multiplier ``G`` (THEORY §6).
    """
    from .smt import SearchOptions, minimize as _minimize, search_fusion

    M = as_problem(problem)
    opts = options if options is not None else SearchOptions()
    if minimize:
        if atoms is not None:
            raise InputError("give either atoms or minimize=True, not both")
        return _minimize(M, window, timeout, opts, progress=progress, max_atoms=max_atoms)
    if atoms is None:
        raise InputError("search needs atoms=K (or minimize=True)")
    from .fusion import reduced_form

    return search_fusion(M, atoms, window, timeout, opts, r=reduced_form(M, max_atoms))
