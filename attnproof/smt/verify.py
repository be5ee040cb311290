"""Rebuild a solver model as an exact head and verify it (THEORY §3, Theorem 2).

A model is never trusted: its ``g`` values (rationals) give ``G``; ``D = Q·G``
and ``N = P·G`` are recomputed with FLINT; the witness must have every ``D``
coefficient positive, ``supp N ⊆ supp D``, ``N·Q = P·D``, at most ``k``
atoms, and agree exactly with the multi-head at random rational points.

>>> from fractions import Fraction
>>> from attnproof.families import sigmoid_sum
>>> from attnproof.fusion import reduced_form
>>> r = reduced_form(sigmoid_sum(2))
>>> f = fusion_from_g(r, {(0, 0): Fraction(1)})
>>> verify_fusion(f, 4), f.atoms
(True, 4)
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import Mapping

from ..algebra.expfrac import ExpFraction, poly_context
from ..errors import AlgebraError, SolverError
from ..fusion import ExplicitFusion, verify_head

__all__ = ["fusion_from_g", "verify_fusion", "parse_model_value"]


def parse_model_value(text: str) -> Fraction:
    """A solver value ``"p/q"`` or ``"p"`` as an exact Fraction (never a float).

    >>> parse_model_value("-3/4")
    Fraction(-3, 4)
    """
    s = str(text).strip()
    num, _, den = s.partition("/")
    try:
        return Fraction(int(num), int(den) if den else 1)
    except (ValueError, ZeroDivisionError):
        raise SolverError(f"solver returned a value that is not a rational: {s[:80]!r}") from None


def fusion_from_g(r, g: Mapping[tuple[int, ...], Fraction]) -> ExplicitFusion:
    """The fraction ``P·G / Q·G`` for a rational Laurent polynomial ``G`` (exponent ↦ coefficient).

    ``G`` is cleared of denominators and shifted to non-negative exponents; the
    shift is added to the fraction's, so the keys are the true ones.

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.fusion import reduced_form
    >>> f = fusion_from_g(reduced_form(sigmoid_sum(1)), {(-1,): Fraction(1, 2), (0,): Fraction(1, 3)})
    >>> sorted(a.key for a in f.to_head().atoms)
    [(Fraction(-1, 1),), (Fraction(0, 1),), (Fraction(1, 1),)]
    """
    terms = {e: Fraction(c) for e, c in g.items() if c != 0}
    if not terms:
        raise SolverError("the solver model has G = 0")
    den = lcm(*(c.denominator for c in terms.values()))
    nv = r.lattice.nvars
    low = tuple(min(e[i] for e in terms) for i in range(nv))
    ctx = poly_context(r.lattice)
    G = ctx.from_dict({tuple(a - b for a, b in zip(e, low)): int(c * den) for e, c in terms.items()})
    shift = tuple(a + b for a, b in zip(r.frac.shift, low))
    frac = ExpFraction(r.lattice, tuple(p * G for p in r.P), r.Q * G, shift)
    return ExplicitFusion(r.multihead, frac, "search")


def verify_fusion(f: ExplicitFusion, max_atoms: int, points: int = 4, seed: int = 0) -> bool:
    """True when ``f`` is an exact fusion of its multi-head with at most ``max_atoms`` atoms.

    Checks the head conditions (positive ``D``, ``supp N ⊆ supp D``), the
    identity ``N·Q = P·D`` against the reduced form, and exact equality of the
    head and the multi-head at ``points`` random rational points.

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.fusion import reduced_form
    >>> verify_fusion(fusion_from_g(reduced_form(sigmoid_sum(1)), {(0,): 1, (1,): -1}), 10)
    False
    """
    from ..fusion import reduced_form

    frac = f.frac
    if not frac.is_head() or f.atoms > max_atoms:
        return False
    r = reduced_form(f.multihead)
    if any(n * r.Q != p * frac.den for n, p in zip(frac.num, r.P)):
        return False
    try:
        verify_head(f.multihead, f.to_head(), points=points, seed=seed)
    except AlgebraError:
        return False
    return True
