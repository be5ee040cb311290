"""Rank modulo a prime: a cheap exact witness of linear independence over Q.

If integer vectors are linearly independent modulo a prime ``p`` (some maximal
minor is non-zero mod ``p``), that minor is a non-zero integer, so they are
independent over Q.  Checking needs one elimination with numbers below ``p``.

>>> rank_mod_p([(1, 2), (2, 4)], PRIMES[0]), rank_mod_p([(1, 2), (3, 4)], PRIMES[0])
(1, 2)
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["PRIMES", "rank_mod_p", "independent_prime", "EchelonModP", "pack_fields",
           "unpack_fields"]

# 2^61 - 1 and other well-known primes (the checker tests primality itself)
PRIMES = (2305843009213693951, 4611686018427387847, 9223372036854775783, 1000000007)


def rank_mod_p(rows: Sequence[Sequence[int]], p: int) -> int:
    """Rank of the integer rows over ``GF(p)`` (Gaussian elimination on packed rows).

    Each row is one Python integer holding its residues in fixed-width fields
    (:func:`pack_fields`); a row operation ``r_i ← r_i - f·r_piv`` is the single
    big-integer multiply-add ``r_i + f·(p - r_piv)``, carry-free because every
    field stays below ``p + rank·p²`` (fields are reduced only when read).  Much
    faster than one Python operation per entry for wide rows (``d`` in the hundreds).

    >>> rank_mod_p([(1, 2, 3), (2, 4, 6), (0, 1, 5)], 7)
    2
    """
    rows = [list(r) for r in rows]
    if not rows or not rows[0]:
        return 0
    d = len(rows[0])
    n = len(rows)
    nbytes = (2 * p.bit_length() + n.bit_length() + 8) // 8
    width = 8 * nbytes
    mask = (1 << width) - 1
    active = [pack_fields([x % p for x in r], nbytes) for r in rows]
    rank = 0
    for col in range(d):
        # field 0 of every active row is column ``col`` (processed columns are shifted out)
        piv = next((i for i, x in enumerate(active) if (x & mask) % p), None)
        if piv is not None:
            prow = [x % p for x in unpack_fields(active.pop(piv), d - col, nbytes)]
            inv = pow(prow[0], -1, p)
            neg = pack_fields([(p - x * inv % p) % p for x in prow], nbytes)
            for i, x in enumerate(active):
                f = (x & mask) % p
                if f:
                    active[i] = x + f * neg
            rank += 1
            if not active:
                break
        active = [x >> width for x in active]
    return rank


def pack_fields(values: Sequence[int], nbytes: int) -> int:
    """Non-negative integers below ``2^(8·nbytes)`` as the fields of one integer (field 0 lowest).

    >>> pack_fields([1, 2], 1), unpack_fields(pack_fields([1, 2], 1), 2, 1)
    (513, [1, 2])
    """
    return int.from_bytes(b"".join(v.to_bytes(nbytes, "little") for v in values), "little")


def unpack_fields(x: int, d: int, nbytes: int) -> list:
    """The ``d`` fields of :func:`pack_fields`."""
    bs = x.to_bytes(d * nbytes, "little")
    return [int.from_bytes(bs[i:i + nbytes], "little") for i in range(0, d * nbytes, nbytes)]


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
