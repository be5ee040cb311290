"""``gcd(P, Q) = 1`` recomputed by FLINT during the check (``reduced_by_flint``, THEORY §5 C3).

The only place where the checker uses anything outside the standard library,
and only when python-flint is importable (a guarded import: without it the
step is *inconclusive*, never taken on the certificate's word).  Results are
checked: FLINT's ``fmpz_mpoly.gcd`` silently returns 0 on exponents beyond 64
bits, so exponents and dense sizes are bounded before any call
(``MAX_FLINT_EXPONENT_BITS``, ``MAX_FLINT_DENSE``) and a zero or non-dividing
gcd is a FLINT failure (inconclusive), not an answer.

>>> from fractions import Fraction as F
>>> x, one = ((0, 1),), ()
>>> coprime([{one: F(1)}], {one: F(1), x: F(1)})                  # 1 / (1 + x)
True
>>> coprime([{one: F(1), x: F(1)}], {one: F(1), ((0, 2),): F(-1)})  # (1+x)/(1-x^2)
False
"""

from __future__ import annotations

import importlib
from fractions import Fraction
from math import lcm

from .limits import MAX_FLINT_COEFFICIENT_BITS, MAX_FLINT_DENSE, MAX_FLINT_EXPONENT_BITS
from .poly import _box
from .syntax import UNLIMITED, Budget, Unsupported

__all__ = ["coprime", "flint_module"]


def flint_module():
    """python-flint, or None when it is not importable."""
    try:
        return importlib.import_module("flint")
    except ImportError:
        return None


def _to_flint(ctx, p: dict, vs: list, shift: dict):
    # p times the lcm of its denominators, shifted to non-negative exponents, in FLINT
    den = lcm(*(Fraction(c).denominator for c in p.values()))
    return ctx.from_dict({tuple(shift[v] + dm.get(v, 0) for v in vs): int(Fraction(c) * den)
                          for m, c in p.items() for dm in (dict(m),)})


def coprime(P: list, Q: dict, budget: Budget = UNLIMITED) -> bool:
    """True when ``gcd(P_0, ..., P_{m-1}, Q)`` is a unit of the Laurent ring (a monomial).

    Raises :class:`Unsupported` when FLINT is missing, the polynomials are
    beyond the bounds FLINT is trusted with, or FLINT's answer fails a check.
    The gcd is charged to ``budget`` as its dense size times the coefficient words.
    """
    flint = flint_module()
    if flint is None:
        raise Unsupported("gcd(P, Q) = 1 must be recomputed by FLINT, and python-flint "
                          "is not importable")
    polys = [Q] + [p for p in P if p]
    shift: dict = {}            # per variable: minus its least exponent (0 at most)
    total = 0
    for p in polys:
        plo, phi = _box(p)
        dense = 1
        for v in plo:
            span = phi[v] - plo[v]
            if span.bit_length() > MAX_FLINT_EXPONENT_BITS:
                raise Unsupported(f"an exponent span of {span.bit_length()} bits is beyond what the "
                                  f"checker gives FLINT (at most {MAX_FLINT_EXPONENT_BITS} bits)")
            dense *= span + 1
            if dense > MAX_FLINT_DENSE:
                raise Unsupported(f"the gcd would run on a polynomial of dense size above "
                                  f"{MAX_FLINT_DENSE} (the checker's bound for FLINT)")
            shift[v] = max(shift.get(v, 0), -plo[v])
        total += dense
    if not shift:
        return True
    vs = sorted(shift)
    ctx = flint.fmpz_mpoly_ctx.get(tuple(f"x{i}" for i in range(len(vs))), "lex")
    fq = [_to_flint(ctx, p, vs, shift) for p in polys]
    bits = max(int(c).bit_length() for p in fq for c in p.coeffs())
    if bits > MAX_FLINT_COEFFICIENT_BITS:
        raise Unsupported(f"a coefficient above {MAX_FLINT_COEFFICIENT_BITS} bits is beyond "
                          "what the checker gives FLINT")
    budget.charge(total * (1 + bits // 64), "a FLINT gcd")
    g = fq[0]
    for h in fq[1:]:
        prev, g = g, g.gcd(h)
        if g.is_zero() or not (prev % g).is_zero() or not (h % g).is_zero():
            raise Unsupported("FLINT's gcd failed its check (zero or not a common divisor)")
        if len(g) <= 1:
            break
    return len(g) <= 1
