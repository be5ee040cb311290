"""Sparse integer Laurent polynomials for structural bounds, with FLINT in local contexts.

Problems such as ``W_1000`` have a thousand variables but every head involves
only a few; building ``fmpz_mpoly`` values over all variables would be slow,
so each computation runs in a FLINT context over just the variables it
touches.  A sparse polynomial is ``{monomial: int}`` with a monomial a tuple
of ``(variable, exponent)`` pairs sorted by variable (exponents non-zero).

>>> from attnproof.families import sigmoid_sum
>>> hs = head_polys(sigmoid_sum(2))
>>> sorted(hs[1].den.items())
[((), 1), (((1, 1),), 1)]
>>> normal_form({((0, 3),): -2, ((0, 1),): 4})
{((0, 2),): 1, (): -2}
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm

import flint

from ..algebra.lattice import Lattice
from ..model import MultiHead

Mono = tuple
Sparse = dict


@dataclass(frozen=True)
class HeadPolys:
    """``D_h`` and ``N_{h,c}`` with integer coefficients, shifted so that ``D_h`` has no monomial factor."""

    den: Sparse
    num: tuple


def head_polys(M: MultiHead, lattice: Lattice | None = None) -> list[HeadPolys]:
    """Every head's shifted integer ``N_h/D_h`` as sparse polynomials (lattice of ``M``)."""
    lat = lattice if lattice is not None else Lattice.of(M)
    out = []
    for h in M.heads:
        exps = [_exponent(a, lat) for a in h.atoms]
        shift = [min(col) for col in zip(*exps)] if lat.nvars else []
        scale = 1
        for a in h.atoms:
            scale = lcm(scale, a.weight.denominator)
            for v in a.value:
                scale = lcm(scale, (a.weight * v).denominator)
        den: dict = {}
        nums = [dict() for _ in range(h.value_dim)]
        for a, e in zip(h.atoms, exps):
            mono = tuple((v, x - s) for v, (x, s) in enumerate(zip(e, shift)) if x != s)
            w = a.weight * scale
            den[mono] = den.get(mono, 0) + int(w)
            for c, val in enumerate(a.value):
                nums[c][mono] = nums[c].get(mono, 0) + int(w * val)
        nums = [{m: c for m, c in n.items() if c} for n in nums]
        out.append(HeadPolys(den, tuple(nums)))
    return out


def _exponent(a, lat: Lattice) -> list:
    """Lattice exponent of an atom with integer arithmetic only (fast for long keys)."""
    e = [c.numerator * (s // c.denominator) if c else 0 for c, s in zip(a.key, lat.scales)]
    if lat.has_z:
        b = a.bias
        e.append(b.numerator * (lat.bias_scale // b.denominator) if b else 0)
    return e


def variables(p: Sparse) -> set:
    """Variables whose exponent varies over the terms of ``p``.

    >>> sorted(variables({((0, 1), (1, 1)): 1, ((1, 1),): 1}))
    [0]
    """
    allv = {v for m in p for v, _ in m}
    return {v for v in allv if len({dict(m).get(v, 0) for m in p}) > 1}


def all_variables(*ps: Sparse) -> list:
    """Sorted list of every variable that occurs in the polynomials.

    >>> all_variables({((4, 1),): 1}, {((2, -1),): 3})
    [2, 4]
    """
    return sorted({v for p in ps for m in p for v, _ in m})


def context(vs: list) -> "flint.fmpz_mpoly_ctx":
    """A FLINT context over the variables ``vs`` (at least one variable)."""
    names = tuple(f"v{v}" for v in vs) or ("v_",)
    return flint.fmpz_mpoly_ctx.get(names, "lex")


def to_flint(ctx, vs: list, p: Sparse) -> "flint.fmpz_mpoly":
    """A sparse polynomial with non-negative exponents in the context over ``vs``."""
    idx = {v: i for i, v in enumerate(vs)}
    n = max(len(vs), 1)
    d = {}
    for m, c in p.items():
        e = [0] * n
        for v, k in m:
            if k < 0:
                raise ValueError("negative exponent: shift the polynomial first")
            e[idx[v]] = k
        d[tuple(e)] = c
    return ctx.from_dict(d)


def from_flint(vs: list, q: "flint.fmpz_mpoly") -> Sparse:
    """Inverse of :func:`to_flint`.

    >>> vs = [3, 7]
    >>> p = {((3, 2),): 1, ((7, 1),): -4}
    >>> from_flint(vs, to_flint(context(vs), vs, p)) == p
    True
    """
    out = {}
    for e, c in q.to_dict().items():
        out[tuple((v, int(k)) for v, k in zip(vs, e) if int(k))] = int(c)
    return out


def normal_form(p: Sparse) -> Sparse:
    """Associate with no monomial factor, content 1, positive coefficient on the
    lex-largest exponent (dense over sorted variables); terms in descending lex order."""
    vs = all_variables(p)
    dense = {}
    for m, c in p.items():
        d = dict(m)
        dense[tuple(d.get(v, 0) for v in vs)] = Fraction(c)
    mins = [min(e[i] for e in dense) for i in range(len(vs))]
    den = 1
    for c in dense.values():
        den = lcm(den, c.denominator)
    ints = {tuple(a - b for a, b in zip(e, mins)): int(c * den) for e, c in dense.items()}
    g = 0
    for c in ints.values():
        g = gcd(g, c)
    s = 1 if ints[max(ints)] > 0 else -1
    return {tuple((v, k) for v, k in zip(vs, e) if k): s * c // g
            for e, c in sorted(ints.items(), reverse=True)}


def x_support(p: Sparse, dim: int) -> set:
    """Monomials of ``p`` projected on the x variables (index < dim), as sparse tuples.

    >>> sorted(x_support({((0, 1), (2, 1)): 1, ((0, 1),): 2}, 2))
    [((0, 1),)]
    """
    return {tuple((v, k) for v, k in m if v < dim) for m in p}


def to_json_poly(p: Sparse) -> list:
    """Certificate form ``[[coef, [[var, exp], ...]], ...]`` sorted by monomial pair lists.

    >>> to_json_poly({((0, 1),): 1, (): 1})
    [[1, []], [1, [[0, 1]]]]
    """
    terms = sorted(([list(pr) for pr in m], c) for m, c in p.items())
    return [[c, m] for m, c in terms]
