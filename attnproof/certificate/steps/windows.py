"""The SMT refutation steps: ``window_refutation`` (docs/certificates.md §6.6, THEORY §6; trust
``window-refuted``) and ``line_refutation`` (§6.11, THEORY Cor 12.2; trust ``line-refuted``).

An SMT query that z3 and cvc5 both answered ``unsat``: no fusion with at most
``atoms`` atoms has its exponents in the window.  The step carries the query's
SMT-LIB2 text and SHA-256 (the checker re-encodes nothing without ``--replay``),
and the claim repeats its atoms and window.

>>> step = window_refutation_step(3, {"kind": "box", "radius": 0, "coordinates": [0]},
...                               {"z3": "4.13", "cvc5": "1.2"}, "(check-sat)", "0" * 64)
>>> window_refutation_claim(step)
{'atoms': 3, 'window': {'kind': 'box', 'radius': 0, 'coordinates': [0]}}
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["window_refutation_step", "window_refutation_claim", "line_refutation_step"]


def window_refutation_step(atoms: int, window: dict, solvers: dict[str, str], smtlib: str,
                           smtlib_sha256: str) -> dict[str, Any]:
    """The step of one refuted window (``solvers``: name -> version)."""
    return {"rule": "window_refutation", "atoms": atoms, "window": window,
            "solvers": dict(solvers), "smtlib_sha256": smtlib_sha256, "smtlib": smtlib}


def window_refutation_claim(step: dict) -> dict[str, Any]:
    """The ``claims.window_refutations`` entry of a ``window_refutation`` step."""
    return {"atoms": step["atoms"], "window": step["window"]}


def line_refutation_step(atoms: int, directions: Sequence[Sequence[int]], problem_sha256: str,
                         solvers: dict[str, str], smtlib: str, smtlib_sha256: str) -> dict[str, Any]:
    """The step of one line refutation: every fusion has more than ``atoms`` atoms.

    >>> line_refutation_step(6, [(1, -1)], "0" * 64, {"z3": "4", "cvc5": "1"}, "", "1" * 64)["directions"]
    [[1, -1]]
    """
    return {"rule": "line_refutation", "atoms": atoms, "directions": [list(g) for g in directions],
            "problem_sha256": problem_sha256, "solvers": dict(solvers),
            "smtlib_sha256": smtlib_sha256, "smtlib": smtlib}
