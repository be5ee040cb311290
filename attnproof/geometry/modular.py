"""Rank modulo a prime: a cheap exact witness of linear independence over Q.

If integer vectors are linearly independent modulo a prime ``p`` (some maximal
minor is non-zero mod ``p``), that minor is a non-zero integer, so they are
independent over Q.  Checking needs one elimination with numbers below ``p``.

>>> rank_mod_p([(1, 2), (2, 4)], PRIMES[0]), rank_mod_p([(1, 2), (3, 4)], PRIMES[0])
(1, 2)
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["PRIMES", "rank_mod_p", "independent_prime", "EchelonModP"]

# 2^61 - 1 and other well-known primes (the checker tests primality itself)
PRIMES = (2305843009213693951, 4611686018427387847, 9223372036854775783, 1000000007)


def rank_mod_p(rows: Sequence[Sequence[int]], p: int) -> int:
    """Rank of the integer rows over ``GF(p)`` (Gaussian elimination)."""
    m = [[x % p for x in r] for r in rows]
    rank = 0
    ncols = len(m[0]) if m else 0
    for col in range(ncols):
        piv = next((i for i in range(rank, len(m)) if m[i][col]), None)
        if piv is None:
            continue
        m[rank], m[piv] = m[piv], m[rank]
        inv = pow(m[rank][col], -1, p)
        prow = [x * inv % p for x in m[rank]]
        m[rank] = prow
        for i in range(len(m)):
            if i != rank and m[i][col]:
                f = m[i][col]
                m[i] = [(a - f * b) % p for a, b in zip(m[i], prow)]
        rank += 1
        if rank == len(m):
            break
    return rank


def independent_prime(rows: Sequence[Sequence[int]]) -> int | None:
    """A prime of :data:`PRIMES` modulo which the rows are independent, or None.

    None means dependent over Q when FLINT confirms it (the caller decides).

    >>> independent_prime([(1, 0, 0), (0, 1, 0)])
    2305843009213693951
    """
    if not rows:
        return PRIMES[0]
    if len(rows) > len(rows[0]):
        return None
    for p in PRIMES:
        if rank_mod_p(rows, p) == len(rows):
            return p
    return None


class EchelonModP:
    """Incremental row echelon form over ``GF(p)``: :meth:`add` keeps a vector iff it is
    independent of those kept so far (``O(rank · d)`` per vector).

    >>> E = EchelonModP(7)
    >>> E.add((1, 2, 3)), E.add((2, 4, 6)), E.add((0, 1, 0)), E.rank
    (True, False, True, 2)
    """

    def __init__(self, p: int) -> None:
        self.p = p
        self.rows: list = []          # (pivot column, normalized row)

    @property
    def rank(self) -> int:
        return len(self.rows)

    def reduce(self, v) -> list:
        p = self.p
        w = [x % p for x in v]
        for col, row in self.rows:
            f = w[col]
            if f:
                w = [(a - f * b) % p for a, b in zip(w, row)]
        return w

    def independent(self, v) -> bool:
        """True when ``v`` is independent of the kept rows (nothing is added)."""
        return any(self.reduce(v))

    def add(self, v) -> bool:
        w = self.reduce(v)
        col = next((j for j, x in enumerate(w) if x), None)
        if col is None:
            return False
        inv = pow(w[col], -1, self.p)
        self.rows.append((col, [x * inv % self.p for x in w]))
        return True
