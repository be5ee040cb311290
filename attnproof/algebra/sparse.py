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

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, partial
from typing import Callable, Collection
from math import gcd, lcm

import flint

from .lattice import Lattice
from ..heads import MultiHead

Mono = tuple
Sparse = dict


@dataclass(frozen=True)
class HeadPolys:
    """``D_h`` and ``N_{h,c}`` with integer coefficients, shifted so that ``D_h`` has no monomial factor.

    ``num`` is built when first read: the size estimates, the FLINT obstacle and
    the geometry of long keys read ``den`` only, and a head has ``value_dim``
    numerators (768 for a GPT-2 head).
    """

    den: Sparse
    numerators: Callable[[], tuple] = field(repr=False, compare=False)

    @cached_property
    def num(self) -> tuple:
        """``(N_{h,0}, N_{h,1}, ...)``, one sparse polynomial per value component."""
        return self.numerators()


def _numerators(atoms, monos: list, weights: list, scale: int) -> tuple:
    """The numerators ``N_{h,c}`` of one head: ``Σ_i w_i·v_{i,c}·x^{mono_i}``, scaled as ``D_h``."""
    nums: list[dict] = [dict() for _ in range(len(atoms[0].value))]
    for a, mono, w in zip(atoms, monos, weights):
        for c, val in enumerate(a.value):
            # scale makes w·val integral: the division is exact
            t = w * val.numerator if val.denominator == 1 else w * val.numerator // val.denominator
            nums[c][mono] = nums[c].get(mono, 0) + t
    return tuple({m: c for m, c in n.items() if c} for n in nums)


def head_polys(M: MultiHead, lattice: Lattice | None = None) -> list[HeadPolys]:
    """Every head's shifted integer ``N_h/D_h`` as sparse polynomials (lattice of ``M``).

    Linear in the non-zero key coordinates: exponents come from
    :meth:`Lattice.sparse_exponent` and the shift (the per-variable minimum
    exponent, 0 for a variable some atom lacks) touches only variables that occur.
    """
    lat = lattice if lattice is not None else Lattice.of(M)
    sexp = lat.sparse_exponent
    plain = not lat.scale_map and not lat.has_z     # exponents are the key numerators
    out = []
    for h in M.heads:
        atoms = h.atoms
        if plain:
            exps = [tuple([(j, c.numerator) for j, c in a.sparse_key]) for a in atoms]
        else:
            exps = [sexp(a) for a in atoms]
        shift = _shift(exps, len(exps))
        scale = 1
        for a in atoms:
            wq = a.weight.denominator
            if scale % wq:
                scale = lcm(scale, wq)
            for v in a.value:
                if wq == 1 and v.denominator == 1:
                    continue                   # w·v is an integer
                q = (a.weight * v).denominator
                if scale % q:
                    scale = lcm(scale, q)
        den: dict = {}
        monos = [_shifted(e, shift) for e in exps] if shift else exps
        weights = [a.weight.numerator * (scale // a.weight.denominator) for a in atoms]  # integers
        for mono, w in zip(monos, weights):
            den[mono] = den.get(mono, 0) + w
        out.append(HeadPolys(den, partial(_numerators, atoms, monos, weights, scale)))
    return out


def _shift(exps: Collection[tuple], n: int) -> dict:
    """``{v: min exponent}`` over ``n`` sparse exponents, for the variables whose minimum is not 0.

    >>> _shift([((0, 2), (3, -1)), ((0, 1),)], 2)
    {0: 1, 3: -1}
    """
    if () in exps:               # some term is constant: only negative minima shift
        neg: dict = {}
        for e in exps:
            for v, x in e:
                if x < 0 and x < neg.get(v, 0):
                    neg[v] = x
        return neg
    mins: dict = {}
    count: dict = {}
    for e in exps:
        for v, x in e:
            m = mins.get(v)
            if m is None or x < m:
                mins[v] = x
            count[v] = count.get(v, 0) + 1
    return {v: m for v, m in mins.items() if m and (m < 0 or count[v] == n)}


def _shifted(e: tuple, shift: dict) -> tuple:
    """The sparse exponent ``e - shift`` (zero entries dropped, sorted by variable).

    >>> _shifted(((0, 2), (3, -1)), {0: 1, 3: -1, 5: -2})
    ((0, 1), (5, 2))
    """
    d = dict(e)
    for v, s in shift.items():
        d[v] = d.get(v, 0) - s
    return tuple(sorted((v, x) for v, x in d.items() if x))


def variables(p: Collection[tuple]) -> set:
    """Variables whose exponent varies over the terms of ``p`` (a polynomial or a set of its
    monomials; linear in the terms' sizes).

    >>> sorted(variables({((0, 1), (1, 1)): 1, ((1, 1),): 1}))
    [0]
    """
    n = len(p)
    seen: dict = {}
    count: dict = {}
    varies = set()
    for m in p:
        for v, x in m:
            count[v] = count.get(v, 0) + 1
            y = seen.setdefault(v, x)
            if y != x:
                varies.add(v)
    varies.update(v for v, k in count.items() if k < n)
    return varies


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


def normal_form(p: Sparse, monomial_free: bool = False) -> Sparse:
    """Associate with no monomial factor, content 1, positive coefficient on the
    lex-largest exponent (dense over sorted variables); terms in descending lex order.

    Sparse throughout: cost ``O(Σ |m| log)`` over the monomials ``m`` of ``p``.
    ``monomial_free``: the caller knows that ``p`` has non-negative exponents and
    no monomial factor (as the denominators of :func:`head_polys`): no shift.

    >>> normal_form({((3, 2), (9, 1)): -4, ((3, 1),): 6})
    {((3, 1), (9, 1)): 2, (): -3}
    """
    n = len(p)
    if monomial_free and n == 2:                 # a binomial: order two terms, divide by the gcd
        (m1, c1), (m2, c2) = p.items()
        if type(c1) is int and type(c2) is int:
            if _lex_key((m1,)) < _lex_key((m2,)):
                m1, c1, m2, c2 = m2, c2, m1, c1
            g = gcd(c1, c2)
            if c1 < 0:
                g = -g
            return {m1: c1 // g, m2: c2 // g}
    den = 1
    for c in p.values():
        if type(c) is not int:
            q = Fraction(c).denominator
            if den % q:
                den = lcm(den, q)
    shift = None if monomial_free else _shift(p, n)
    terms = []
    g = 0
    for m, c in p.items():
        ci = c * den if type(c) is int else int(Fraction(c) * den)
        g = gcd(g, ci)
        terms.append((_shifted(m, shift) if shift else m, ci))
    # dense lex order of non-negative exponents over sorted variables = tuple order of (-v, e)
    terms.sort(key=_lex_key, reverse=True)
    s = 1 if terms[0][1] > 0 else -1
    return {m: s * c // g for m, c in terms}


def _lex_key(t: tuple) -> tuple:
    return tuple([(-v, x) for v, x in t[0]])


def x_support(p: Sparse, dim: int) -> set:
    """Monomials of ``p`` projected on the x variables (index < dim), as sparse tuples.

    >>> sorted(x_support({((0, 1), (2, 1)): 1, ((0, 1),): 2}, 2))
    [((0, 1),)]
    """
    # monomials are sorted by variable: only the last pair can be z (index dim)
    return {m if not m or m[-1][0] < dim else tuple((v, k) for v, k in m if v < dim) for m in p}


def poly_text(p: Sparse) -> str:
    """The compact JSON text of ``p`` in the certificate form ``[[coef, [[var, exp], ...]], ...]``
    (:func:`attnproof.certificate.steps.factors.to_json_poly`), without building the lists:
    the canonical JSON text by which a certificate orders its factors.

    >>> poly_text({((0, 1), (3, -2)): -1, (): 4})
    '[[4,[]],[-1,[[0,1],[3,-2]]]]'
    """
    return "[" + ",".join([f"[{int.__repr__(c)},[" + ",".join([f"[{v},{e}]" for v, e in m]) + "]]"
                           for m, c in sorted(p.items())]) + "]"
