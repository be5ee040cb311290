"""Exact linear algebra of the checker: one sparse elimination, over Q or modulo a prime,
and a packed one modulo a prime.

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

from .syntax import UNLIMITED, Budget

P61 = (1 << 61) - 1
RATIONAL_UNITS = 12      # one update of a rational entry: a Fraction product and difference


def _words(c) -> int:
    """64-bit words of an exact number (numerator plus denominator), beyond the first."""
    return (c.bit_length() if type(c) is int else c.numerator.bit_length() + c.denominator.bit_length()) >> 6


def eliminate(rows, budget: Budget, p: int | None) -> int:
    """Rank of integer rows (dense lists or sparse ``{column: value}`` dicts) by sparse
    Gaussian elimination over ``GF(p)``, ``p`` prime, or over Q when ``p`` is None.

    Each row is reduced by the pivots of its smallest columns; every entry touched
    charges ``budget`` (a rational entry ``RATIONAL_UNITS`` and its words).

    >>> eliminate([{0: 1, 5: 2}, {5: 1}, {0: 2, 5: 4}], UNLIMITED, None)
    2
    >>> eliminate([[1, 1], [1, 3]], UNLIMITED, 2)
    1
    """
    pivots: dict = {}
    weight: dict = {}          # over Q: the 64-bit words of a pivot row's longest entry
    for row in rows:
        items = row.items() if isinstance(row, dict) else enumerate(row)
        r: dict = {c: Fraction(x) for c, x in items if x} if p is None else {c: x % p for c, x in items if x % p}
        budget.charge(1 + len(r) * (1 if p is not None else RATIONAL_UNITS // 2), "an exact rank")
        while r:
            c = min(r)
            piv = pivots.get(c)
            if piv is None:
                inv = 1 / r[c] if p is None else pow(r[c], -1, p)
                pivots[c] = {k: v * inv if p is None else v * inv % p for k, v in r.items()}
                weight[c] = 1 + max(map(_words, pivots[c].values()))
                break
            f = r[c]
            # a product and a difference per entry: over GF(p) one unit; over Q the gcds
            # of two Fractions, in the words of their terms (entries grow)
            budget.charge(len(piv) if p is not None else
                          len(piv) * (RATIONAL_UNITS + (1 + _words(f)) * weight[c] // 8),
                          "an exact rank")
            for k, v in piv.items():
                t = r.get(k, 0) - f * v if p is None else (r.get(k, 0) - f * v) % p
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
    ints = all(type(x) is int for row in rows for x in (row.values() if isinstance(row, dict) else row))
    return len(rows) if ints and eliminate(rows, budget, P61) == len(rows) else eliminate(rows, budget, None)


def rank_mod(rows, p: int, budget: Budget = UNLIMITED) -> int:
    """Rank of dense integer rows (lists of one length) over ``GF(p)``, ``p`` prime.

    The caller charges the work (``budget`` is not used): rows are packed into one integer
    each, fixed-width fields that stay below ``p + rank·p²`` (no carry crosses a field), a
    row operation one multiply-add with ``p - pivot row``, a field reduced only when read.

    >>> rank_mod([[1, 2, 3], [2, 4, 6], [0, 0, 7]], 7), rank_mod([], 7)
    (1, 0)
    """
    d, n = (len(rows[0]), len(rows)) if rows else (0, 0)
    nb = (2 * p.bit_length() + n.bit_length() + 8) // 8
    mask = (1 << 8 * nb) - 1

    def pack(vals) -> int:
        return int.from_bytes(b"".join((v % p).to_bytes(nb, "little") for v in vals), "little")

    active = [pack(row) for row in rows]
    for col in range(d):         # field 0 of every active row is column col
        piv = next((i for i, x in enumerate(active) if (x & mask) % p), None)
        if piv is not None:
            bs = active.pop(piv).to_bytes((d - col) * nb, "little")
            prow = [int.from_bytes(bs[i:i + nb], "little") % p for i in range(0, len(bs), nb)]
            inv = pow(prow[0], -1, p)
            neg = pack([-x * inv for x in prow])
            active = [x + (x & mask) % p * neg for x in active]
        active = [x >> 8 * nb for x in active]
    return n - len(active)          # one row left per pivot


@lru_cache(maxsize=64)                  # one prime serves every step of a certificate
def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for ``n < 3.3·10^24`` (bases: the primes up to 41)."""
    small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
    if n < 2 or any(n % q == 0 for q in small):
        return n in small
    s = ((n - 1) & (1 - n)).bit_length() - 1          # n - 1 = d·2^s, d odd
    d = (n - 1) >> s
    return all((x := pow(a, d, n)) == 1 or any(pow(x, 1 << i, n) == n - 1 for i in range(s)) for a in small)


def product(xs) -> int:
    """The product of integers, multiplied in balanced pairs.

    A running product of ``n`` small factors would be quadratic in the size of
    the result (``2^100000`` as 100,000 doublings); pairs keep it near linear.

    >>> product([2] * 100) == 2 ** 100, product([]), product([3, 5, 7])
    (True, 1, 105)
    """
    xs = list(xs) or [1]
    while len(xs) > 1:
        xs = [xs[i] * xs[i + 1] for i in range(0, len(xs) - 1, 2)] + xs[len(xs) & ~1:]
    return xs[0]
