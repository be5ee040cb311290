"""Direct sums of heads (THEORY Lemma 9.5): linearly independent difference spaces.

``U_h = span{p - p_0 : p ∈ K_h}``.  The certificate names, per head, basis
points ``B_h`` (the differences ``p_i - p_0``, ``i ∈ B_h``, base point 0), an
integer relation ``δ (p_j - p_0) = Σ_{i∈B_h} λ_i (p_i - p_0)``, ``δ > 0``, for
every other point ``j``, and a prime ``p`` modulo which the union of all basis
differences has full rank (so it has full rank over Q: a non-zero minor modulo
``p`` is a non-zero integer).  Then ``dim Σ U_h = Σ |B_h| = Σ dim U_h``.
Checking is one modular elimination plus the relations, no rational elimination.

>>> ds = direct_sum_certificate([[(0, 0, 0), (1, 0, 0)], [(0, 0, 0), (0, 1, 0), (0, 0, 1), (0, 1, 1)]])
>>> ds.bases, ds.relations, ds.dims
([[1], [1, 2]], [[], [(3, 1, (1, 1))]], [1, 2])
>>> direct_sum_certificate([[(0, 0), (1, 0)], [(0, 0), (1, 1)], [(0, 0), (0, 1)]]) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import gcd, log
from typing import Sequence

from .modular import PRIMES, EchelonModP, rank_mod_p
from .vertices import check_distinct
import flint

__all__ = ["DirectSum", "direct_sum_certificate", "direct_sub_sum"]


@dataclass
class DirectSum:
    """``bases[h]``: basis point indices of head ``h`` (base point 0);
    ``relations[h]``: ``[(j, δ, (λ_i for i in bases[h]))]`` for the other points;
    ``prime``: the modular rank witness; ``dims``: ``dim U_h``."""

    bases: list = field(default_factory=list)
    relations: list = field(default_factory=list)
    prime: int = 0

    @property
    def dims(self) -> list[int]:
        return [len(b) for b in self.bases]


def _relation(basis_vecs, g):
    """``(δ, λ)`` with ``δ g = Σ λ_i b_i``, ``δ > 0`` (FLINT integer kernel), or None."""

    d = len(g)
    cols = list(basis_vecs) + [g]
    M = flint.fmpz_mat([[v[j] for v in cols] for j in range(d)])
    X, nullity = M.nullspace()
    if nullity != 1:
        return None
    v = [int(X[k, 0]) for k in range(len(cols))]
    delta = -v[-1]
    if delta == 0:
        return None
    if delta < 0:
        v = [-x for x in v]
        delta = -delta
    lam = v[:-1]
    q = delta
    for x in lam:
        q = gcd(q, x)
    return delta // q, tuple(x // q for x in lam)


def _affinely_independent(heads) -> DirectSum | None:
    """The common case in one modular rank: every head's points affinely independent
    and all differences together independent (then every basis is all of ``1..n-1``,
    no relation is needed, and no exact rank is computed).  None when the first
    prime modulo which all differences are independent is not found this way."""
    diffs = [tuple(x - y for x, y in zip(p, pts[0])) for pts in heads for p in pts[1:]]
    if not diffs:
        return None
    if len(diffs) > len(diffs[0]):
        return None
    for prime in PRIMES:
        if rank_mod_p(diffs, prime) == len(diffs):
            return DirectSum([list(range(1, len(pts))) for pts in heads],
                             [[] for _ in heads], prime)
    return None


def _too_many_dimensions(heads) -> bool:
    """True when the heads' difference spaces cannot be independent: their ranks modulo a
    prime (each at most the rank over Q) already add up to more than the dimension.
    Decided in a few modular eliminations, before any exact rank (e.g. a layer of
    12 heads of 128 keys in 767 dimensions).

    >>> _too_many_dimensions([[(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 1)]])
    True
    """
    if not heads or not heads[0]:
        return False
    d = len(heads[0][0])
    total = 0
    for pts in heads:
        diffs = [tuple(x - y for x, y in zip(p, pts[0])) for p in pts[1:]]
        if diffs:
            total += rank_mod_p(diffs, PRIMES[0])
        if total > d:
            return True
    return False


def direct_sum_certificate(heads_points: Sequence[Sequence[Sequence[int]]]) -> DirectSum | None:
    """A :class:`DirectSum` when the heads' difference spaces are linearly independent, else None."""

    heads = [check_distinct(pts) for pts in heads_points]
    fast = _affinely_independent(heads)
    if fast is not None:
        return fast
    if _too_many_dimensions(heads):
        return None
    for prime in PRIMES:
        bases: list[list[int]] = []
        rels: list[list[tuple]] = []
        allrows: list[tuple] = []
        union = EchelonModP(prime)
        ok = True
        for pts in heads:
            diffs = [tuple(x - y for x, y in zip(p, pts[0])) for p in pts[1:]]
            if not diffs:
                bases.append([])
                rels.append([])
                continue
            r_q = flint.fmpz_mat([list(v) for v in diffs]).rank()
            basis, bvecs = [], []
            own = EchelonModP(prime)
            for i, v in enumerate(diffs, start=1):
                if own.add(v):
                    basis.append(i)
                    bvecs.append(v)
                    if len(bvecs) == r_q:
                        break
            if len(bvecs) != r_q:
                ok = False
                break
            hr = []
            for j, v in enumerate(diffs, start=1):
                if j in basis:
                    continue
                rel = _relation(bvecs, v)
                if rel is None:
                    ok = False
                    break
                hr.append((j, rel[0], rel[1]))
            if not ok:
                break
            bases.append(basis)
            rels.append(hr)
            allrows.extend(bvecs)
            if not all(union.add(v) for v in bvecs):
                break
        if not ok:
            continue
        if not allrows:
            return DirectSum(bases, rels, prime)
        if len(bases) == len(heads) and union.rank == len(allrows):
            return DirectSum(bases, rels, prime)
        if flint.fmpz_mat([list(v) for v in allrows]).rank() < len(allrows):
            return None
    return None


def _rank_p(rows: list, p: int) -> int:
    """Rank over ``GF(p)`` (FLINT's word-size matrices: the producer's fast path)."""

    if not rows:
        return 0
    return flint.nmod_mat([[x % p for x in r] for r in rows], p).rank()


def direct_sub_sum(heads_points: Sequence[Sequence[Sequence[int]]],
                   value=len) -> tuple[list[int], DirectSum] | None:
    """Heads in direct-sum position (a subset, in increasing order) and their certificate.

    The vertex count of a Minkowski sum is at least that of any sub-sum (THEORY §4,
    Lemma 9.5; docs/certificates.md §6.14), so when the whole sum is not direct the
    best sub-sum that is gives a lower bound ``Π_{h∈S} n_h``.  Greedy, twice: heads
    by ``log value(h) / dim U_h`` and by ``value(h)`` alone (``value``: the head's
    count, by default its number of points), each added when the union of the
    difference spaces stays independent (a modular rank); the larger product wins.
    In general position every set whose dimensions fit in the ambient space is
    direct, and then the choice is the best product up to the knapsack of
    dimensions.  None when no head has two points.

    >>> S, ds = direct_sub_sum([[(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 0, 0), (1, 1, 0)],
    ...                         [(0, 0, 0), (0, 0, 1)]])
    >>> S, ds.bases
    ([0, 2], [[1, 2], [1]])
    """
    heads = [check_distinct(pts) for pts in heads_points]
    if not heads or not heads[0]:
        return None
    d = len(heads[0][0])
    p = PRIMES[0]
    rows, ranks = [], []
    for pts in heads:
        diffs = [tuple(x - y for x, y in zip(q, pts[0])) for q in pts[1:]]
        r = _rank_p(diffs, p)
        if r < len(diffs):
            own = EchelonModP(p)
            diffs = [v for v in diffs if own.add(v)]
        rows.append(diffs)
        ranks.append(r)
    live = [h for h in range(len(heads)) if ranks[h] > 0]
    vals = {h: max(value(heads[h]), 1) for h in live}
    best = None
    for key in (lambda h: (-log(vals[h]) / ranks[h], h), lambda h: (-vals[h], ranks[h], h)):
        chosen: list = []
        acc: list = []
        for h in sorted(live, key=key):
            if len(acc) + ranks[h] <= d and _rank_p(acc + rows[h], p) == len(acc) + ranks[h]:
                chosen.append(h)
                acc += rows[h]
        score = 1
        for h in chosen:
            score *= vals[h]
        if chosen and (best is None or score > best[0]):
            best = (score, chosen)
    chosen = best[1] if best else []
    while chosen:
        S = sorted(chosen)
        ds = direct_sum_certificate([heads[h] for h in S])
        if ds is not None:
            return S, ds
        chosen.pop()
    return None
