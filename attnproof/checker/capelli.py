"""Binomials with long exponents: Capelli's irreducibility test and closed-form divisibility.

Standard library only (docs/certificates.md §6.1, witness ``capelli``).

A binomial ``f = c_0 X^a + c_1 X^{a + k·g}`` (``g`` primitive, ``k >= 2``) is, after
a unimodular change of variables with ``u = X^g`` and up to a monomial,
``c_1 (u^k − α)`` with ``α = −c_0/c_1``.  **Capelli's theorem**: ``u^k − α`` is
irreducible over Q iff ``α`` is not a ``p``-th power in Q for any prime ``p | k``,
and ``α ∉ −4·Q^4`` when ``4 | k``.  Irreducible in ``Q[u]`` means irreducible in the
Laurent ring (the other variables do not occur; Gauss).  Only primes ``p`` up to
the bit length of ``α``'s numerator and denominator can matter (a ``p``-th power
other than ``±1`` is at least ``2^p``), so ``k`` is never factored: integer
arithmetic on the coefficients and ``k mod p`` for the small primes ``p``.

Divisibility of binomials in the same direction is also closed-form (no quotient
of ``k`` terms is ever built): ``c_0 + c_1 u^k`` divides ``d_0 + d_1 u^K`` iff
``k | K`` and ``d_0 c_1^q + d_1 (−c_0)^q = 0`` for ``q = K/k`` (every root ``ζ`` of the
first, and ``ζ`` times every ``k``-th root of unity, is a root of the second), and
a binomial with two non-zero terms is squarefree.

>>> capelli_irreducible({(): 1, ((0, 12345678),): 1})      # 1 + x^12345678: 3 | k
False
>>> capelli_irreducible({(): 1, ((0, 2 ** 40),): 1}), capelli_irreducible({(): 3, ((0, 6),): 1})
(True, True)
>>> binomial_valuation({(): 1, ((0, 2),): 1}, {(): 1, ((0, 12345678),): 1})
1
>>> binomial_valuation({(): 1, ((0, 2),): 1}, {(): 1, ((0, 12345676),): 1})
0
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any
from math import gcd, isqrt

from . import poly as P

__all__ = ["capelli_irreducible", "binomial_valuation", "content", "primes_up_to", "is_power"]


def primes_up_to(n: int) -> list:
    """The primes ``<= n`` (sieve of Eratosthenes).

    >>> primes_up_to(20)
    [2, 3, 5, 7, 11, 13, 17, 19]
    """
    if n < 2:
        return []
    sieve = bytearray([1]) * (n + 1)
    sieve[0] = sieve[1] = 0
    for i in range(2, isqrt(n) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytearray(len(sieve[i * i::i]))
    return [i for i, b in enumerate(sieve) if b]


def _iroot(n: int, p: int) -> int:
    """``floor(n^(1/p))`` for ``n >= 0`` (Newton's method on integers)."""
    if n < 2:
        return n
    x = 1 << -(-n.bit_length() // p)          # an upper bound
    while True:
        y = ((p - 1) * x + n // x ** (p - 1)) // p
        if y >= x:
            return x
        x = y


def is_power(a: Fraction, p: int) -> bool:
    """``a`` is a ``p``-th power in Q.

    >>> is_power(Fraction(-8, 27), 3), is_power(Fraction(-4), 2), is_power(Fraction(9, 4), 2)
    (True, False, True)
    """
    if a < 0 and p % 2 == 0:
        return False
    n, d = abs(a.numerator), a.denominator
    return all(_iroot(x, p) ** p == x for x in (n, d))


def _terms(f: dict) -> tuple[Any, Any, tuple] | None:
    """``(c_0, c_1, Δ)`` of a binomial: coefficients at the lexicographically smaller and
    larger exponent (integers in a factor, rationals in a head denominator) and the
    difference ``Δ`` of the exponents (sparse), or None."""
    if len(f) != 2:
        return None
    m0, m1 = f
    if P.lex_key(m1) < P.lex_key(m0):
        m0, m1 = m1, m0
    return f[m0], f[m1], P.mono_div(m1, m0)


def content(f: dict) -> int:
    """The content ``k`` of a binomial's exponent difference (gcd of its coordinates)."""
    t = _terms(f)
    if t is None:
        raise ValueError("not a binomial")
    return _content(t[2])


def _content(delta: tuple) -> int:
    k = 0
    for _, x in delta:
        k = gcd(k, x)
    return k


def capelli_irreducible(f: dict) -> bool:
    """Capelli's test for the binomial ``f`` (any content ``k``; ``k = 1`` is irreducible)."""
    t = _terms(f)
    if t is None:
        raise ValueError("not a binomial")
    c0, c1, delta = t
    k = _content(delta)
    alpha = Fraction(-Fraction(c0), Fraction(c1))
    n, d = abs(alpha.numerator), alpha.denominator
    if n == 1 and d == 1:
        # α = ±1: 1 is a p-th power for every p; -1 for every odd p, and never a square
        # (and -1 = -4 b^4 has no rational b): irreducible iff α = -1 and k a power of 2
        return k == 1 or (alpha < 0 and k & (k - 1) == 0)
    bound = max(n.bit_length(), d.bit_length())
    for p in primes_up_to(bound):
        if k % p == 0 and is_power(alpha, p):
            return False
    if k % 4 == 0 and alpha < 0:
        # α = -4 b^4 in lowest terms: n = 4 β^4, d = δ^4 (δ odd) or n = β^4, 4 d = δ^4
        if (n % 4 == 0 and is_power(Fraction(n // 4), 4) and is_power(Fraction(d), 4)) or (
                is_power(Fraction(n), 4) and is_power(Fraction(4 * d), 4)):
            return False
    return True


def binomial_valuation(f: dict, D: dict) -> int | None:
    """``v_f(D)`` for binomials ``f`` and ``D`` (0 or 1: a binomial is squarefree), or None
    when one of them is not a binomial.  Never builds a power larger than the
    coefficients of ``D`` allow."""
    if len(f) != 2 or len(D) != 2:
        return None
    if f == D:
        return 1                       # f | f, and f^2 has three terms or more: not f
    tf, tD = _terms(f), _terms(D)
    if tf is None or tD is None:
        return None
    c0, c1, df = tf
    d0, d1, dD = tD
    vs = [v for v, _ in df]
    if [v for v, _ in dD] != vs:
        return 0
    k, K = _content(df), _content(dD)
    if K % k:
        return 0
    q = K // k
    gf = [x // k for _, x in df]
    gD = [x // K for _, x in dD]
    if gf != gD:
        return 0                       # not parallel (both are lexicographically positive)
    # d0·c1^q + d1·(-c0)^q = 0 with coprime integers c0, c1 (f in normal form): |c1|^q
    # divides the numerator of d1 times the denominator of d0 and |c0|^q the other
    # cross product, so when |c0| or |c1| is at least 2, q is at most the bits of D
    # n0·m1·c1^q = -n1·m0·(-c0)^q: c1^q divides B = n1·m0 and c0^q divides A = n0·m1, so
    # a power with more bits than its cofactor decides "no" before it is built (bounding
    # q alone let c^q with a 2000-digit c reach 10^8 bits: minutes for a 13 kB file)
    if type(d0) is not int or type(d1) is not int:
        d0, d1 = Fraction(d0), Fraction(d1)
        A, B = d0.numerator * d1.denominator, d1.numerator * d0.denominator
    else:
        A, B = d0, d1
    for c, X in ((c1, B), (c0, A)):
        if abs(c) >= 2 and (abs(int(c)).bit_length() - 1) * q > abs(X).bit_length():
            return 0

    def power(c, e: int):
        return c ** e if abs(c) != 1 else (1 if c > 0 or e % 2 == 0 else -1)

    return 1 if d0 * power(c1, q) + d1 * power(-c0, q) == 0 else 0
