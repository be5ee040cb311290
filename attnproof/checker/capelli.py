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
from math import gcd, isqrt

from . import poly as P

__all__ = ["capelli_irreducible", "binomial_valuation", "content", "primes_up_to", "is_power"]


def primes_up_to(n: int) -> list:
    """The primes ``<= n`` (sieve of Eratosthenes).

    >>> primes_up_to(20), primes_up_to(1)
    ([2, 3, 5, 7, 11, 13, 17, 19], [])
    """
    sieve = bytearray([0, 0]) + bytearray([1]) * (n - 1)      # just [0, 0] when n < 2
    for i in range(2, isqrt(max(n, 0)) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytearray(len(sieve[i * i::i]))
    return [i for i, b in enumerate(sieve) if b]


def _iroot(n: int, p: int) -> int:
    """``floor(n^(1/p))`` for ``n >= 0`` (Newton's method on integers)."""
    if n < 2:
        return n
    x = 1 << -(-n.bit_length() // p)          # an upper bound
    while (y := ((p - 1) * x + n // x ** (p - 1)) // p) < x:
        x = y
    return x


def is_power(a: Fraction, p: int) -> bool:
    """``a`` is a ``p``-th power in Q.

    >>> is_power(Fraction(-8, 27), 3), is_power(Fraction(-4), 2), is_power(Fraction(9, 4), 2)
    (True, False, True)
    """
    return (a >= 0 or p % 2 == 1) and all(_iroot(x, p) ** p == x for x in (abs(a.numerator), a.denominator))


def _terms(f: dict) -> tuple:
    """``(c_0, c_1, Δ, k)`` of a binomial: coefficients at the lexicographically smaller and
    larger exponent (integers in a factor, rationals in a head denominator), the
    difference ``Δ`` of the exponents (sparse) and its content ``k`` (the gcd of its
    coordinates); ValueError for another polynomial."""
    if len(f) != 2:
        raise ValueError("not a binomial")
    m0, m1 = sorted(f, key=P.lex_key)
    delta = P.mono_div(m1, m0)
    return f[m0], f[m1], delta, gcd(*(x for _, x in delta))


def content(f: dict) -> int:
    """The content ``k`` of a binomial's exponent difference (gcd of its coordinates)."""
    return _terms(f)[3]


def capelli_irreducible(f: dict) -> bool:
    """Capelli's test for the binomial ``f`` (any content ``k``; ``k = 1`` is irreducible)."""
    c0, c1, _, k = _terms(f)
    alpha = Fraction(-c0, c1)
    n, d = abs(alpha.numerator), alpha.denominator
    if n == d == 1:
        # α = ±1: 1 is a p-th power for every p; -1 for every odd p, and never a square
        # (and -1 = -4 b^4 has no rational b): irreducible iff α = -1 and k a power of 2
        return k == 1 or (alpha < 0 and k & (k - 1) == 0)
    # then α = -4 b^4 iff -α/4 is a fourth power (a negative -α/4 is none)
    return (not any(k % p == 0 and is_power(alpha, p) for p in primes_up_to(max(n.bit_length(), d.bit_length())))
            and (k % 4 != 0 or not is_power(-alpha / 4, 4)))


def binomial_valuation(f: dict, D: dict) -> int | None:
    """``v_f(D)`` for binomials ``f`` and ``D`` (0 or 1: a binomial is squarefree), or None
    when one of them is not a binomial.  Never builds a power larger than the
    coefficients of ``D`` allow."""
    if len(f) != 2 or len(D) != 2:
        return None
    (c0, c1, df, k), (d0, d1, dD, K) = _terms(f), _terms(D)
    q = K // k
    # f | D needs D's exponent difference to be q times f's, q = K/k for the contents, and
    # d0·c1^q + d1·(-c0)^q = 0 with coprime integers c0, c1 (f in normal form): |c1|^q
    # divides the numerator of d1 times the denominator of d0 and |c0|^q the other
    # cross product, so when |c0| or |c1| is at least 2, q is at most the bits of D
    # n0·m1·c1^q = -n1·m0·(-c0)^q: c1^q divides B = n1·m0 and c0^q divides A = n0·m1, so
    # a power with more bits than its cofactor decides "no" before it is built (bounding
    # q alone let c^q with a 2000-digit c reach 10^8 bits: minutes for a 13 kB file)
    A, B = d0.numerator * d1.denominator, d1.numerator * d0.denominator
    if K % k or dD != tuple((v, x * q) for v, x in df) or any(
            abs(c) >= 2 and (abs(int(c)).bit_length() - 1) * q > abs(X).bit_length() for c, X in ((c1, B), (c0, A))):
        return 0
    # (±1)^q takes one squaring per bit of q, never a large number
    return int(d0 * c1 ** q + d1 * (-c0) ** q == 0)
