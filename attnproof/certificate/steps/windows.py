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
                         solvers: dict[str, str], smtlib: str, smtlib_sha256: str,
                         coefficients: Sequence | None = None,
                         multiplicities: Sequence[int] | None = None,
                         newton_factors: Sequence[Sequence[int]] | None = None) -> dict[str, Any]:
    """The step of one line refutation: every fusion has more than ``atoms`` atoms.

    ``coefficients`` (canonical rationals ``c`` of the factors ``1 + c·x^g``),
    ``multiplicities`` and ``newton_factors`` (``[index of a bound factor,
    multiplicity]``) are written only when some ``c ≠ 1``, some ``m > 1`` or some
    factor is kept as a Newton constraint (docs/certificates.md §6.11).

    >>> line_refutation_step(6, [(1, -1)], "0" * 64, {"z3": "4", "cvc5": "1"}, "", "1" * 64)["directions"]
    [[1, -1]]
    >>> sorted(line_refutation_step(6, [(1,), (2,)], "0" * 64, {}, "", "1" * 64, ["1", "3/2"])) == sorted(
    ...     ["rule", "atoms", "directions", "coefficients", "problem_sha256", "solvers", "smtlib_sha256", "smtlib"])
    True
    """
    step = {"rule": "line_refutation", "atoms": atoms, "directions": [list(g) for g in directions],
            "problem_sha256": problem_sha256, "solvers": dict(solvers),
            "smtlib_sha256": smtlib_sha256, "smtlib": smtlib}
    if coefficients is not None and any(c not in (1, "1") for c in coefficients):
        step["coefficients"] = list(coefficients)
    if multiplicities is not None and any(m != 1 for m in multiplicities):
        step["multiplicities"] = list(multiplicities)
    if newton_factors:
        step["newton_factors"] = [list(x) for x in newton_factors]
    return step
