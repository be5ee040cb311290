"""Factor witnesses that the reduced denominator is divisible by ``Π f^e`` (THEORY §5, C1/C2).

Each head denominator is factored by FLINT (in a context over its own
variables); every distinct irreducible factor ``f`` gets

* an irreducibility witness (:func:`irreducibility_witness`): linear in a
  variable with a single-term coefficient, a primitive binomial, or Gao's
  simplex criterion;
* its multiplicity ``e = max_h v_f(D_h)`` and a survival test: with
  ``C_h = D_h / f^e`` for the heads where the maximum is reached,
  ``f ∤ X_c = Σ_{top h} N_{h,c} Π_{top g≠h} C_g`` for some value component ``c``.

Then ``f^e`` divides the reduced denominator exactly.  C2 (all head
denominators irreducible) is the special case where every head has one factor.

>>> from attnproof.families import sigmoid_sum
>>> fs = surviving_factors(sigmoid_sum(2))
>>> [(f.poly, f.multiplicity, f.witness, f.residue_component) for f in fs.factors]
[({((0, 1),): 1, (): 1}, 1, Witness(kind='linear', var=0), 0), ({((1, 1),): 1, (): 1}, 1, Witness(kind='linear', var=1), 0)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import gcd

import flint

from .budget import factor_obstacle
from ..heads import MultiHead
from .sparse import (HeadPolys, all_variables, context, from_flint, head_polys, normal_form,
                     poly_text, to_flint, x_support)
from ..parallel.tasks import Progress

__all__ = ["Factor", "FactorSet", "Witness", "irreducibility_witness", "surviving_factors"]



@dataclass
class Factor:
    """An irreducible factor of some head denominator, in normal form."""

    poly: dict
    multiplicity: int = 0
    witness: Witness | None = None
    residue_component: int | None = None
    heads: dict = field(default_factory=dict)      # head -> v_f(D_h)

    @property
    def survives(self) -> bool:
        """True when ``f^e`` is shown to divide the reduced denominator."""
        return self.residue_component is not None

    def sort_key(self) -> str:
        """The order of factors in a certificate: canonical JSON text of the poly.

        >>> Factor({((0, 1),): 1, (): 1}).sort_key()
        '[[1,[]],[1,[[0,1]]]]\\n'
        """
        return poly_text(self.poly) + "\n"


@dataclass
class FactorSet:
    """All factors of the head denominators and which ones are certified."""

    factors: list                 # the certified factors, in certificate order
    rejected: list                # x-involving factors without witness or not surviving
    dim: int

    @property
    def complete(self) -> bool:
        """True when every factor that involves x is certified (then ``R = Q`` up to z-units)."""
        return not self.rejected


def _rank(rows: list) -> int:
    if not rows:
        return 0
    return flint.fmpz_mat(rows).rank()


@dataclass(frozen=True)
class Witness:
    """Why a factor is irreducible (THEORY §5, C1; docs/certificates.md §6.1): ``kind``
    ``"linear"`` (degree 1 in the variable ``var``), ``"binomial"`` (two terms, primitive
    difference), ``"simplex"`` (Newton polytope an integral simplex) or ``"capelli"`` (a
    binomial in one variable, by Capelli's theorem)."""

    kind: str
    var: int | None = None


def irreducibility_witness(p: dict) -> Witness | None:
    """A C1 witness that the normal-form polynomial ``p`` is irreducible, or None.

    >>> irreducibility_witness({((0, 1),): 1, (): 1})
    Witness(kind='linear', var=0)
    >>> irreducibility_witness({((0, 2),): 1, (): -1}) is None      # x^2 - 1
    True
    >>> irreducibility_witness({((0, 3), (1, 7)): 2, ((0, 11),): 3, (): 1})
    Witness(kind='simplex', var=None)
    """
    n = len(p)
    ones: dict = {}
    other: set = set()
    for m in p:                       # sparse: linear in the terms' sizes
        for v, k in m:
            if k == 1:
                ones[v] = ones.get(v, 0) + 1
            else:
                other.add(v)
    for v in sorted(ones):
        if v in other:
            continue
        b = ones[v]
        a = n - b
        if a >= 1 and (a == 1 or b == 1):
            return Witness("linear", v)
    if n == 2:
        (m0, _), (m1, _) = p.items()
        d = dict(m0)
        for v, k in m1:
            d[v] = d.get(v, 0) - k
        g = 0
        for x in d.values():
            g = gcd(g, x)
        return Witness("binomial") if g == 1 else None
    if n >= 3:
        vs = all_variables(p)
        pts = sorted(tuple(dict(m).get(v, 0) for v in vs) for m in p)
        diffs = [[a - b for a, b in zip(q, pts[0])] for q in pts[1:]]
        g = 0
        for r in diffs:
            for x in r:
                g = gcd(g, x)
        if g == 1 and _rank(diffs) == len(diffs):
            return Witness("simplex")
    return None


def _key(p: dict) -> tuple:
    """A hashable key of a polynomial in normal form (whose terms come in a fixed order).

    >>> _key(normal_form({((0, 1),): 2, (): 2})) == _key(normal_form({(): 1, ((0, 1),): 1}))
    True
    """
    return tuple(p.items())


def surviving_factors(M: MultiHead, progress: Progress = None,
                      hp: list[HeadPolys] | None = None) -> FactorSet:
    """Factor every head denominator and certify which factors survive in ``Q``."""
    hp = hp if hp is not None else head_polys(M)
    dim = M.dim
    found: dict = {}
    assoc: dict = {}                  # head -> the factor its denominator is an associate of
    witnesses: dict = {}              # id(factor) -> its witness, when already found
    unfactored: list = []             # heads FLINT was not asked to factor
    nh = len(hp)
    every = max(1, nh // 1000)        # progress at most ~1000 times per phase
    for h, H in enumerate(hp):
        if progress is not None and h % every == 0 and h:
            progress(h, 2 * nh)
        den = H.den
        if len(den) < 2:
            continue
        # D_h has no monomial factor and non-negative exponents (head_polys shifts it)
        f0 = normal_form(den, monomial_free=True)
        w0 = irreducibility_witness(f0)
        if w0 is not None:
            # D_h is irreducible as it stands: it is its own only factor (no FLINT, no
            # dense exponent vectors: sparse and linear in the size of D_h)
            k = _key(f0)
            F = found.get(k)
            if F is None:
                F = found[k] = Factor(f0, heads={h: 1})
                witnesses[id(F)] = w0          # the witness depends on the terms only
            else:
                F.heads[h] = F.heads.get(h, 0) + 1
            assoc[h] = F
        else:
            vs = all_variables(den)
            ctx = context(vs)
            fden = to_flint(ctx, vs, den)
            if factor_obstacle(fden) is not None:
                # FLINT would factor for minutes: D_h stays one uncertified factor, and the
                # bound honestly leaves it out (sound: it only loses what it would certify)
                F = found.setdefault(_key(f0), Factor(f0))
                F.heads[h] = F.heads.get(h, 0) + 1
                unfactored.append(h)
                continue
            _, facs = fden.factor()
            for q, mult in facs:
                f = normal_form(from_flint(vs, q))
                if len(f) < 2:
                    continue
                F = found.setdefault(_key(f), Factor(f))
                F.heads[h] = F.heads.get(h, 0) + int(mult)
    if progress is not None and nh:
        progress(nh, 2 * nh)
    if unfactored:
        _valuations_in(unfactored, found, hp)
    certified: list[Factor] = []
    rejected: list[Factor] = []
    value_dim = M.value_dim
    nf = max(len(found), 1)
    for i, F in enumerate(sorted(found.values(), key=Factor.sort_key)):
        if progress is not None and (i % every == 0 or i + 1 == len(found)):
            progress(nh + (i + 1) * nh // nf, 2 * nh)
        poly = F.poly
        if len(poly) == 2 and all(not m or m[-1][0] < dim for m in poly):
            pass                                  # two x points: not a unit
        elif len(x_support(poly, dim)) < 2:
            continue                              # a unit once z = e^{1/L} is substituted
        w = witnesses.get(id(F))
        F.witness = w if w is not None else irreducibility_witness(poly)
        F.multiplicity = max(F.heads.values())
        if F.witness is None:
            rejected.append(F)
            continue
        F.residue_component = _residue_component(F, hp, value_dim, assoc)
        (certified if F.survives else rejected).append(F)
    return FactorSet(certified, rejected, dim)


def _valuations_in(heads: list, found: dict, hp: list[HeadPolys]) -> None:
    """Add to each factor's ``heads`` its valuation in the denominators of ``heads``, left
    unfactored (a certificate lists every head a factor divides, docs/certificates.md §6.1)."""
    for h in heads:
        den = hp[h].den
        own = found[_key(normal_form(den, monomial_free=True))]
        hv = set(all_variables(den))
        for F in found.values():
            if F is own or not set(all_variables(F.poly)) <= hv:
                continue
            vs = all_variables(den)
            ctx = context(vs)
            f, D, a = to_flint(ctx, vs, F.poly), to_flint(ctx, vs, den), 0
            while True:
                q, r = divmod(D, f)
                if not r.is_zero():
                    break
                D, a = q, a + 1
            if a:
                F.heads[h] = a


def _proportional(N: dict, D: dict) -> bool:
    """True when ``N = c·D`` for a rational ``c`` (0 included).

    >>> _proportional({(): 2, ((0, 1),): 4}, {(): 1, ((0, 1),): 2}), _proportional({(): 1}, {(): 1, ((0, 1),): 1})
    (True, False)
    """
    if not N:
        return True
    if len(N) != len(D):
        return False
    m0 = next(iter(D))
    if m0 not in N:
        return False
    a, b = N[m0], D[m0]
    return all(m in D and c * b == D[m] * a for m, c in N.items())


def _residue_component(F: Factor, hp: list[HeadPolys], m: int,
                       assoc: dict | None = None) -> int | None:
    """Smallest ``c`` with ``f ∤ X_c`` (see the module docstring), or None.

    ``assoc`` maps a head to the factor its denominator is an associate of."""
    e = F.multiplicity
    top = list(F.heads) if len(F.heads) == 1 else sorted(h for h, a in F.heads.items() if a == e)
    if len(top) == 1 and e == 1 and assoc and assoc.get(top[0]) is F:
        # D_h = unit·f.  supp N_{h,c} ⊆ supp D_h, so N = D·g forces Newt(g) to be a
        # point: f | N_{h,c} iff N_{h,c} is a rational multiple of D_h.  Linear, no FLINT.
        H = hp[top[0]]
        for c in range(m):
            if not _proportional(H.num[c], H.den):
                return c
        return None
    vs = all_variables(F.poly, *(hp[h].den for h in top))
    ctx = context(vs)
    f = to_flint(ctx, vs, F.poly)
    fe = f ** e
    C = {}
    for h in top:
        q, r = divmod(to_flint(ctx, vs, hp[h].den), fe)
        if not r.is_zero():
            raise AssertionError("factor multiplicity inconsistent with FLINT's factorization")
        C[h] = q
    for c in range(m):
        X = ctx.from_dict({})
        for h in top:
            t = to_flint(ctx, vs, hp[h].num[c])
            for g in top:
                if g != h:
                    t = t * C[g]
            X = X + t
        if X.is_zero():
            continue
        _, r = divmod(X, f)
        if not r.is_zero():
            return c
    return None
