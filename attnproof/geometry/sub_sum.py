"""The exact vertices of a sub-sum of many summands, one summand at a time (§6.14).

A sum of many factors past a complete vertex list still has a certified partial answer:
the vertices of ``Σ_{i∈S} conv(K_i)`` for a set ``S`` of its factors bound every fusion
from below (docs/certificates.md §6.14).  The integer-key blocks
(:func:`attnproof.bounds.lower._sub_sum_block`) and the float heads
(:func:`attnproof.geometry.proof.geometry_proof`) choose ``S`` and cut its vertex list
here, in one place:

* the factors go in by their number of points (most first, then by index) for as long
  as the output-sensitive enumeration of the partial sum
  (:func:`attnproof.geometry.minkowski.minkowski_prefix_vertices`: level ``k`` decides the
  vertices found so far times the vertices of factor ``k``, never the product of the point
  counts) stays within the budget of decided tuples;
* the list stops where the checker's work on it would pass ``work``: the checker pays
  every listed vertex against every point of the kept factors, each of the points'
  width (a verified part of the sub-sum's vertices, still a bound).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..parallel.tasks import MapTasks, Progress
from .minkowski import MinkowskiVertices, minkowski_prefix_vertices

__all__ = ["SubSum", "sub_sum_vertices", "MINKOWSKI_SUB_SUM_WORK"]

# the checker's work a sub-sum's vertex list may take (the default budget of a
# certificate of a few megabytes, which grows with the file: docs/certificates.md §8)
MINKOWSKI_SUB_SUM_WORK = 1_500_000


@dataclass
class SubSum:
    """The vertices found of the sum of the factors ``kept`` (increasing indices).

    ``vertices.vertices``: ``[(tuple, c)]`` sorted, ``tuple[s]`` a point index of factor
    ``kept[s]`` and ``c`` a functional over the input coordinates whose unique maximizer
    on factor ``kept[s]`` is that point; ``vertices.complete``: every candidate tuple of
    the kept factors was decided (the count is that sub-sum's exact count, though without
    Gordan certificates: ``certified`` False); ``listable``: the most vertices the
    checker's work allows for the kept factors (a list that long was cut there).
    """

    kept: list
    vertices: MinkowskiVertices
    listable: int

    @property
    def count(self) -> int:
        """Vertices listed (a lower bound of the kept factors' sum, and of the whole sum)."""
        return self.vertices.count


def sub_sum_vertices(points: Sequence[Sequence[Sequence[int]]], max_candidates: int,
                     work: int | None = None, *, read: Callable[[int, int], int] | None = None,
                     progress: Progress = None, mapper: MapTasks | None = None) -> SubSum:
    """The vertices of the sum of the factors with the most points, grown one factor at
    a time within ``max_candidates`` decided tuples, the list cut at the checker's
    ``work`` (None: :data:`MINKOWSKI_SUB_SUM_WORK`).  ``points``: each factor's points,
    all of one width.  ``read(k, width)``: the checker's work per listed vertex of ``k``
    factors besides the dot products (default ``2 * width``: the vertex and its
    functional, as an integer-key ``vertices`` block is read).

    >>> T = [[(0, 0, 0), (0, 0, 1)], [(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 0, 0), (1, 1, 1)]]
    >>> s = sub_sum_vertices(T, 30)
    >>> s.kept, s.count, s.vertices.complete
    ([0, 1, 2], 11, True)
    >>> s = sub_sum_vertices(T, 20)          # the triangle first, then the first segment
    >>> s.kept, s.count, s.vertices.vertices[0][0]
    ([0, 1], 6, (0, 0))
    >>> s = sub_sum_vertices(T, 30, work=4 * (5 * 3 + 6))   # 4 vertices of 5 points' sum
    >>> s.kept, s.count, s.listable, s.vertices.complete
    ([0, 1], 4, 4, False)
    """
    budget = MINKOWSKI_SUB_SUM_WORK if work is None else work
    order = sorted(range(len(points)), key=lambda i: (-len(points[i]), i))
    width = len(points[0][0]) if points and points[0] else 0

    def listable(k: int) -> int:
        per = (sum(len(points[i]) for i in order[:k]) * max(width, 1)
               + (2 * width if read is None else read(k, width)))
        return max(budget // per, 1)

    k, mv = minkowski_prefix_vertices([points[i] for i in order], max_candidates,
                                      listable=listable, progress=progress, mapper=mapper)
    kept = sorted(order[:k])
    at = [order.index(i) for i in kept]     # prefix position of each kept factor
    mv.vertices = sorted((tuple(t[p] for p in at), c) for t, c in mv.vertices)
    mv.head_non_vertices = [[] for _ in kept]
    return SubSum(kept, mv, listable(k))
