"""Exact linear algebra of the checker: one sparse elimination, over Q or modulo a prime.

>>> rank([[1, 0, 1], [0, 1, 1], [1, 1, 2]])
2
>>> rank_mod([[1, 2], [2, 4]], 7), rank_mod([[1, 2], [3, 4]], 7)
(1, 2)
>>> is_prime(2 ** 61 - 1), is_prime(2 ** 61 + 1)
(True, False)
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from .switch import FAST
from .syntax import UNLIMITED, Budget

P61 = (1 << 61) - 1
RATIONAL_UNITS = 12      # one update of a rational entry: a Fraction product and difference


def _words(xs) -> int:
    """64-bit words of the longest numerator plus denominator among the Fractions ``xs``."""
    return 1 + (max((x.numerator.bit_length() + x.denominator.bit_length() for x in xs),
                    default=0) >> 6)


def eliminate(rows, budget: Budget, modulus: int | None) -> int:
    """Rank of integer rows (dense lists or sparse ``{column: value}`` dicts) by sparse
    Gaussian elimination over ``GF(modulus)``, or over Q when ``modulus`` is None.

    Each row is reduced by the pivots of its smallest columns; every entry touched
    charges ``budget`` (a rational entry ``RATIONAL_UNITS`` and its words).

    >>> eliminate([{0: 1, 5: 2}, {5: 1}, {0: 2, 5: 4}], UNLIMITED, None)
    2
    >>> eliminate([[1, 1], [1, 3]], UNLIMITED, 2)
    1
    """
    p = modulus
    pivots: dict = {}
    weight: dict = {}          # over Q: the 64-bit words of a pivot row's longest entry
    for row in rows:
        items = row.items() if isinstance(row, dict) else enumerate(row)
        if p is None:
            r: dict = {c: Fraction(x) for c, x in items if x}
        else:
            r = {c: x % p for c, x in items if x % p}
        budget.charge(1 + len(r) * (1 if p is not None else RATIONAL_UNITS // 2), "an exact rank")
        while r:
            c = min(r)
            piv = pivots.get(c)
            if piv is None:
                if p is None:
                    inv = 1 / r[c]
                    pivots[c] = {k: v * inv for k, v in r.items()}
                    weight[c] = _words(pivots[c].values())
                else:
                    inv = pow(r[c], -1, p)
                    pivots[c] = {k: v * inv % p for k, v in r.items()}
                break
            f = r[c]
            # a product and a difference per entry: over GF(p) one unit; over Q the gcds
            # of two Fractions, in the words of their terms (entries grow)
            budget.charge(len(piv) if p is not None else
                          len(piv) * (RATIONAL_UNITS + _words((f,)) * weight[c] // 8),
                          "an exact rank")
            for k, v in piv.items():
                t = r.get(k, 0) - f * v
                if p is not None:
                    t %= p
                if t:
                    r[k] = t
                else:
                    r.pop(k, None)
    return len(pivots)


def rank(rows, budget: Budget = UNLIMITED) -> int:
    """Rank over Q of integer rows, dense lists or sparse ``{column: value}`` dicts.

    First modulo the prime ``2^61 - 1`` (integers, fast): the rank over Q is at least
    the rank mod ``p``, so a full rank mod ``p`` is the rank; otherwise the
    elimination is redone over Q.  A sparse matrix (unit vectors, graph incidences)
    costs about its number of non-zero entries, a dense ``n x n`` one about ``n^3``.

    >>> rank([{0: 1, 5: 2}, {5: 1}, {0: 2, 5: 4}])
    2
    """
    rows = list(rows)
    if not all(type(x) is int for row in rows for x in (row.values() if isinstance(row, dict) else row)):
        return eliminate(rows, budget, None)
    r = eliminate(rows, budget, P61)
    if r == len(rows):
        return r
    return eliminate(rows, budget, None)


def rank_mod(rows, p: int, budget: Budget = UNLIMITED) -> int:
    """Rank of integer rows over ``GF(p)`` (``p`` prime)."""
    fast = FAST.rank_mod
    if fast is not None:
        return fast(rows, p)
    return eliminate(rows, budget, p)


@lru_cache(maxsize=64)                  # one prime serves every step of a certificate
def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for ``n < 3.3·10^24`` (bases: the primes up to 41)."""
    if n < 2:
        return False
    small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
    for q in small:
        if n % q == 0:
            return n == q
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in small:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def product(xs) -> int:
    """The product of integers, multiplied in balanced pairs.

    A running product of ``n`` small factors would be quadratic in the size of
    the result (``2^100000`` as 100,000 doublings); pairs keep it near linear.

    >>> product([2] * 100) == 2 ** 100, product([]), product([3, 5, 7])
    (True, 1, 105)
    """
    xs = list(xs)
    if not xs:
        return 1
    while len(xs) > 1:
        nxt = [xs[i] * xs[i + 1] for i in range(0, len(xs) - 1, 2)]
        if len(xs) % 2:
            nxt.append(xs[-1])
        xs = nxt
    return xs[0]
