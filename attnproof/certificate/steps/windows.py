"""The SMT refutation steps: ``window_refutation`` (docs/certificates.md §6.6, THEORY §6; trust
``window-refuted``) and ``line_refutation`` (§6.11, THEORY Cor 12.2; trust ``line-refuted``).

An SMT query that z3 and cvc5 both answered ``unsat``: no fusion with at most
``atoms`` atoms has its exponents in the window (or, for a line query, in the
whole lattice).  The step carries the query's SMT-LIB2 text and SHA-256 (the
checker re-encodes nothing without ``--replay``); a window refutation's claim
repeats its atoms and window.  The refutations are typed objects
(:class:`WindowRefutation`, :class:`LineRefutation`) that :mod:`attnproof.smt.certify`
makes from a solver's answer.

>>> r = WindowRefutation(3, {"kind": "box", "radius": 0, "coordinates": [0]},
...                      {"z3": "4.13", "cvc5": "1.2"}, "(check-sat)", "0" * 64)
>>> window_refutation_step(r)["rule"], window_refutation_claim(r)
('window_refutation', {'atoms': 3, 'window': {'kind': 'box', 'radius': 0, 'coordinates': [0]}})
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from typing import Any, Mapping, Sequence

from ...errors import CertificateError

__all__ = ["WindowRefutation", "LineRefutation", "window_refutation_step",
           "window_refutation_claim", "line_refutation_step"]

Monomial = tuple[tuple[int, int], ...]      # sparse: (variable, exponent) pairs, exponents > 0


@dataclass(frozen=True)
class WindowRefutation:
    """A windowed query both solvers refuted: no fusion with at most ``atoms`` atoms whose
    multiplier has its exponents in ``window`` (its document, docs/certificates.md §6.6)."""

    atoms: int
    window: dict
    solvers: Mapping[str, str]        # name -> version
    smtlib: str
    smtlib_sha256: str


@dataclass(frozen=True)
class LineRefutation:
    """A line query both solvers refuted: every fusion has more than ``atoms`` atoms.

    ``coefficients`` and ``multiplicities``: the ``c`` and ``m`` of the factors
    ``(1 + c·x^g)^m`` along ``directions``; ``newton_factors``: the other factors the
    query keeps as Newton constraints, as (sparse polynomial, multiplicity);
    ``options``: the encoding's options (:data:`attnproof.smt.lines.LINE_OPTIONS`);
    ``contraction_bounds``: with option ``contraction``, per direction the number of its
    lines the query demands (None: no demand), which a replay derives again.
    """

    atoms: int
    directions: tuple[tuple[int, ...], ...]
    solvers: Mapping[str, str]
    smtlib: str
    smtlib_sha256: str
    coefficients: tuple[Fraction, ...] = ()
    multiplicities: tuple[int, ...] = ()
    newton_factors: tuple[tuple[Mapping[Monomial, int], int], ...] = ()
    options: tuple[str, ...] = ()
    contraction_bounds: tuple[int | None, ...] = ()


def window_refutation_step(r: WindowRefutation) -> dict[str, Any]:
    """The step of one refuted window."""
    return {"rule": "window_refutation", "atoms": r.atoms, "window": r.window,
            "solvers": dict(r.solvers), "smtlib_sha256": r.smtlib_sha256, "smtlib": r.smtlib}


def window_refutation_claim(r: WindowRefutation) -> dict[str, Any]:
    """The ``claims.window_refutations`` entry of a refuted window."""
    return {"atoms": r.atoms, "window": r.window}


def _rational_json(c: Fraction) -> int | str:
    """A canonical rational: an integer, or ``"p/q"``.

    >>> _rational_json(Fraction(3)), _rational_json(Fraction(1, 2))
    (3, '1/2')
    """
    return int(c) if c.denominator == 1 else f"{c.numerator}/{c.denominator}"


def _normal_terms(terms: Mapping[Monomial, int]) -> dict[Monomial, int]:
    """Exponents shifted to non-negative minima, coefficients divided by their gcd, the
    coefficient of the largest exponent positive: one representative of ``f``'s associates.

    >>> _normal_terms({((0, 2),): -2, ((0, 1), (1, 1)): 4}) == {((0, 1),): 1, ((1, 1),): -2}
    True
    """
    dense = [dict(m) for m in terms]
    variables = sorted({v for m in dense for v in m})
    low = {v: min(m.get(v, 0) for m in dense) for v in variables}
    g = 0
    for c in terms.values():
        g = gcd(g, c)
    top = max(terms, key=lambda m: tuple(dict(m).get(v, 0) for v in variables))
    sign = 1 if terms[top] > 0 else -1
    return {tuple((v, e - low[v]) for v, e in sorted(m.items()) if e != low[v]):
            sign * c // g for m, c in zip(dense, terms.values())}


def _bound_index(terms: Mapping[Monomial, int], bound_factors: Sequence[Mapping]) -> int:
    """The position of a Newton factor among the factors the certificate binds."""
    want = _normal_terms(terms)
    for i, f in enumerate(bound_factors):
        if _normal_terms(f) == want:
            return i
    raise CertificateError("a Newton factor of the line refutation is not a factor the "
                           "certificate binds")


def line_refutation_step(r: LineRefutation, problem_sha256: str,
                         bound_factors: Sequence[Mapping[Monomial, int]] = ()) -> dict[str, Any]:
    """The step of one line refutation.

    ``bound_factors``: the polynomials of the certificate's ``irreducible_factor``
    steps, in order (a Newton factor is written as its index there).  ``coefficients``,
    ``multiplicities`` and ``newton_factors`` are written only when some ``c ≠ 1``,
    some ``m > 1`` or some factor is kept as a Newton constraint (docs/certificates.md §6.11);
    ``options`` when the refutation names them, ``contraction_bounds`` with option
    ``contraction``.

    >>> r = LineRefutation(6, ((1, -1),), {"z3": "4", "cvc5": "1"}, "", "1" * 64)
    >>> line_refutation_step(r, "0" * 64)["directions"]
    [[1, -1]]
    >>> r = LineRefutation(6, ((1,), (2,)), {}, "", "1" * 64, (Fraction(1), Fraction(3, 2)))
    >>> line_refutation_step(r, "0" * 64)["coefficients"]
    [1, '3/2']
    >>> r = LineRefutation(6, ((1, 0), (0, 1)), {}, "", "1" * 64, options=("parity", "contraction"),
    ...                    contraction_bounds=(2, None))
    >>> {k: v for k, v in line_refutation_step(r, "0" * 64).items() if k.startswith("contr") or k == "options"}
    {'options': ['parity', 'contraction'], 'contraction_bounds': [2, None]}
    """
    step: dict[str, Any] = {"rule": "line_refutation", "atoms": r.atoms,
                            "directions": [list(g) for g in r.directions],
                            "problem_sha256": problem_sha256, "solvers": dict(r.solvers),
                            "smtlib_sha256": r.smtlib_sha256, "smtlib": r.smtlib}
    if any(c != 1 for c in r.coefficients):
        step["coefficients"] = [_rational_json(c) for c in r.coefficients]
    if any(m != 1 for m in r.multiplicities):
        step["multiplicities"] = list(r.multiplicities)
    if r.options:
        step["options"] = list(r.options)
    if "contraction" in r.options:
        step["contraction_bounds"] = list(r.contraction_bounds)
    if r.newton_factors:
        if not bound_factors:
            raise CertificateError("a line refutation with Newton factors needs the "
                                   "certificate's bound factors")
        step["newton_factors"] = sorted([_bound_index(t, bound_factors), m]
                                        for t, m in r.newton_factors)
    return step
