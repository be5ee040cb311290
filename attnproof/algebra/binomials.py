"""Binomial head denominators with exponents of any size: factors without FLINT.

A two-key head has denominator ``D = c_0 X^a + c_1 X^{a + k·g}`` (``g`` primitive,
``c_0, c_1 > 0``), that is ``c_0 (1 + c·u^k)`` with ``u = X^g`` and ``c = c_1/c_0``.

* **Cyclotomic / Capelli factor.** Let ``m`` be the largest odd divisor of ``k`` with
  ``c = γ^m`` for a rational ``γ > 0`` (for ``c = 1``: the odd part of ``k``).  Then
  ``1 + γ·u^{k/m}`` divides ``D`` (``m`` odd: ``1 + y | 1 + y^m``), and by Capelli's
  theorem it is irreducible unless ``4 | k/m`` and ``γ = 4b^4`` (Sophie Germain's
  ``1 + 4y^4``): an odd prime ``p | k/m`` with ``γ`` a ``p``-th power would contradict
  the maximality of ``m``, and ``−γ < 0`` is no square.  For ``c = 1`` this is
  ``Φ_{2^{j+1}}(u) = 1 + u^{2^j}``, ``2^j`` the largest power of 2 dividing ``k``
  (``1 + u^k = Π_{d | 2k, d ∤ k} Φ_d(u)``).
* **Divisibility** between binomials in the same direction is closed-form (no
  quotient of ``k`` terms is built), and a binomial is squarefree.

Only primes up to the bit length of ``c``'s numerator and denominator can make
``c`` a ``p``-th power, so ``k`` is never factored: exponents of any size cost the
same.  The checker verifies the witness ``capelli`` with its own integer
arithmetic (docs/certificates.md §6.1).

>>> capelli_factor({(): 1, ((0, 12345678),): 1})      # 1 + x^12345678 = (1 + x^2)(...)
{((0, 2),): 1, (): 1}
>>> capelli_factor({(): 8, ((0, 12),): 1})            # 8 + x^12 = (2 + x^4)(...)
{((0, 4),): 1, (): 2}
>>> valuation({(): 1, ((0, 2),): 1}, {(): 1, ((0, 6),): 1}), valuation({(): 1, ((0, 2),): 1}, {(): 1, ((0, 4),): 1})
(1, 0)
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, isqrt

from .sparse import normal_form

__all__ = ["capelli_factor", "direction", "irreducible", "valuation"]


def _primes(n: int) -> list:
    if n < 2:
        return []
    sieve = bytearray([1]) * (n + 1)
    sieve[0] = sieve[1] = 0
    for i in range(2, isqrt(n) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytearray(len(sieve[i * i::i]))
    return [i for i, b in enumerate(sieve) if b]


def _root(n: int, p: int) -> int | None:
    """The integer ``p``-th root of ``n >= 0`` when ``n`` is a ``p``-th power, else None."""
    if n < 2:
        return n
    lo, hi = 1, 1 << (n.bit_length() // p + 1)
    while lo < hi:                     # bisection: the largest r with r^p <= n
        mid = (lo + hi + 1) // 2
        if mid ** p <= n:
            lo = mid
        else:
            hi = mid - 1
    return lo if lo ** p == n else None


def _rational_root(c: Fraction, p: int) -> Fraction | None:
    """The positive rational ``p``-th root of ``c > 0``, or None."""
    a, b = _root(c.numerator, p), _root(c.denominator, p)
    return None if a is None or b is None else Fraction(a, b)


def _difference(m0: tuple, m1: tuple) -> tuple[tuple, int]:
    """``(Δ, k)``: the exponent difference ``Δ = m_1 − m_0`` of two sparse monomials and
    its content ``k`` (0 when they are equal)."""
    d = dict(m1)
    for v, e in m0:
        d[v] = d.get(v, 0) - e
    delta = tuple(sorted((v, e) for v, e in d.items() if e))
    return delta, gcd(*(e for _, e in delta))


def direction(m0: tuple, m1: tuple) -> tuple:
    """The primitive direction ``g = ±(m_1 − m_0)/k`` of two sparse monomials with its
    first entry positive, so that both orders give the same ``g``; ``()`` when they are equal.
    For the two terms of a binomial ``c_0 X^a + c_1 X^{a + k·g}``, that ``g``.

    >>> direction(((0, 3),), ((0, 1), (2, 4))), direction(((0, 1), (2, 4)), ((0, 3),))
    (((0, 1), (2, -2)), ((0, 1), (2, -2)))
    """
    delta, k = _difference(m0, m1)
    if delta and delta[0][1] < 0:
        k = -k
    return tuple((v, e // k) for v, e in delta)


def _parts(D: dict):
    """``(m_0, m_1, c_0, c_1, Δ, k)`` of a binomial: terms in lex order (sparse monomials),
    ``Δ = m_1 − m_0`` and its content ``k``."""
    (ma, ca), (mb, cb) = D.items()
    ka = tuple((-v, e) for v, e in ma)
    kb = tuple((-v, e) for v, e in mb)
    if ka > kb:
        ma, ca, mb, cb = mb, cb, ma, ca
    delta, k = _difference(ma, mb)
    return ma, mb, Fraction(ca), Fraction(cb), delta, k


def irreducible(f: dict) -> bool:
    """Capelli's test for a binomial with positive coefficients (the roots of ``u^k = −c_0/c_1``)."""
    _, _, c0, c1, _, k = _parts(f)
    c = c1 / c0
    if c == 1:
        return k & (k - 1) == 0            # 1 + u^k: irreducible iff k is a power of 2
    bound = max(c.numerator.bit_length(), c.denominator.bit_length())
    for p in _primes(bound):
        if p > 2 and k % p == 0 and _rational_root(c, p) is not None:
            return False
    if k % 4 == 0:
        q = c / 4
        if _rational_root(q, 4) is not None:
            return False                   # 1 + 4 b^4 y^4 = (1 + 2by + 2b²y²)(1 − 2by + 2b²y²)
    return True


def capelli_factor(D: dict) -> dict | None:
    """An irreducible binomial factor of a binomial ``D`` with positive coefficients, in
    normal form, or None (the Sophie Germain case, or ``D`` not such a binomial)."""
    if len(D) != 2 or any(c <= 0 for c in D.values()):
        return None
    _, _, c0, c1, delta, k = _parts(D)
    if k == 0:
        return None
    c = c1 / c0
    m = 1
    if c == 1:
        m = k
        while m % 2 == 0:
            m //= 2
        gamma = Fraction(1)
    else:
        gamma = c
        bound = max(c.numerator.bit_length(), c.denominator.bit_length())
        for p in _primes(bound):
            if p == 2:
                continue
            while (k // m) % p == 0:
                r = _rational_root(gamma, p)
                if r is None:
                    break
                gamma, m = r, m * p
    step = tuple((v, e // m) for v, e in delta)
    f = normal_form({(): gamma.denominator, step: gamma.numerator})
    return f if irreducible(f) else None


def valuation(f: dict, D: dict) -> int | None:
    """``v_f(D)`` (0 or 1) for binomials in any variables; None when one is no binomial."""
    if len(f) != 2 or len(D) != 2:
        return None
    _, _, c0, c1, df, k = _parts(f)
    _, _, d0, d1, dD, K = _parts(D)
    if [v for v, _ in df] != [v for v, _ in dD] or K % k:
        return 0
    q = K // k
    if [e // k for _, e in df] != [e // K for _, e in dD]:
        return 0
    bits = sum(x.bit_length() for x in (d0.numerator, d0.denominator, d1.numerator,
                                         d1.denominator))
    if (abs(c0) != 1 or abs(c1) != 1) and q > bits:
        return 0

    def power(c: Fraction, e: int) -> Fraction:
        return c ** e if abs(c) != 1 else Fraction(1 if c > 0 or e % 2 == 0 else -1)

    return 1 if d0 * power(c1, q) + d1 * power(-c0, q) == 0 else 0
