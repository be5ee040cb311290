"""The Newton bound of two-key heads whose exponents are too long for FLINT.

Each binomial head denominator gets one irreducible factor
(:func:`attnproof.algebra.binomials.capelli_factor`: cyclotomic for weight ratio 1,
Capelli in general); its valuation in every binomial head is closed-form, and it
survives in the reduced denominator when it divides a single head ``h`` and no
numerator ``N_{h,c}`` of some component (a monomial or a binomial: closed form too).
The certified factors are binomials, so the count is a zonotope (Lemma 7); no
polynomial is expanded or factored, whatever the size of the exponents.

Complete (the count is ``V(Q)``) when every head is a binomial or a unit and every
direction of a non-unit head has a certified factor: every factor of ``Q`` is then
a factor of a binomial in one of those directions, and the zonotope of ``Q`` has
exactly these generator directions.

>>> from attnproof.heads import Atom, Head, MultiHead
>>> def sig(k): return Head((Atom(k, (1,)), Atom((0, 0), (0,))))
>>> fs, complete = binomial_factors(MultiHead((sig((12345678, 0)), sig((3, 0)), sig((0, 1)))))
>>> [F.witness.kind for F in fs], complete
(['linear', 'capelli', 'linear'], True)
"""

from __future__ import annotations

from ..algebra.binomials import capelli_factor, direction, valuation
from ..algebra.factors import Factor, Witness, irreducibility_witness
from ..algebra.sparse import head_polys, variables, x_support
from ..heads import MultiHead

__all__ = ["binomial_factors"]


def binomial_factors(M: MultiHead, hp: list | None = None) -> tuple[list, bool]:
    """``(factors, complete)``: the certified :class:`~attnproof.algebra.factors.Factor`
    of the binomial heads in certificate order, and whether they make the whole count."""
    hp = hp if hp is not None else head_polys(M)
    dim = M.dim
    dens = [H.den for H in hp]
    other_vars: set = set()            # variables of heads that are no binomial
    heads2 = []
    for h, D in enumerate(dens):
        if len(x_support(D, dim)) < 2:
            continue                   # a unit once z = e^{1/L}: a constant head
        if len(D) == 2:
            heads2.append(h)
        else:
            other_vars |= variables(D)
    found: dict = {}
    for h in heads2:
        f = capelli_factor(dens[h])
        if f is None or variables(f) & other_vars:
            continue                   # a head of 3+ terms might also be divisible: not decided here
        key = tuple(sorted(f.items()))
        if key in found:
            continue
        tops = [g for g in heads2 if valuation(f, dens[g])]
        if len(tops) != 1:
            continue                   # several heads: their residues would need the quotients
        top = tops[0]
        comp = None
        for c, N in enumerate(hp[top].num):
            if not N:
                continue
            v = valuation(f, N) if len(N) == 2 else 0
            if v == 0:
                comp = c
                break
        if comp is None:
            continue
        w = irreducibility_witness(f) or Witness("capelli")
        found[key] = Factor(f, 1, w, comp, {top: 1})
    factors = sorted(found.values(), key=Factor.sort_key)
    # the primitive x-direction of each binomial (z = e^{1/L} projected away)
    covered = {direction(*x_support(F.poly, dim)) for F in factors}
    complete = not other_vars and all(direction(*x_support(dens[h], dim)) in covered
                                      for h in heads2)
    return factors, complete
