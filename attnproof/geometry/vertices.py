"""Vertices of ``conv(points)`` with exact functionals; non-vertices with Gordan certificates.

Point ``i`` is a vertex iff some ``c`` has ``<c, p_i - p_j> >= 1`` for every
``j != i`` (then ``c`` has the unique maximizer ``p_i``); otherwise Gordan's
theorem gives positive integers ``μ_j`` with ``Σ_j μ_j (p_i - p_j) = 0``,
i.e. ``p_i`` is the convex combination ``Σ μ_j p_j / Σ μ_j`` of the others.

>>> hv = classify_points([(0, 0), (2, 0), (0, 2), (1, 1), (2, 2)])
>>> [i for i, _ in hv.vertices], hv.non_vertices
([0, 1, 2, 4], [(3, {1: 1, 2: 1})])
>>> head_vertices([(0,), (5,)])
[(0, (-1,)), (1, (1,))]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from .separation import Functional, separate

__all__ = ["HeadVertices", "classify_points", "classify_chunk", "collect_points", "head_vertices",
           "check_distinct"]


@dataclass
class HeadVertices:
    """``vertices``: ``[(i, c)]``; ``non_vertices``: ``[(i, {j: μ_j})]`` (both by index)."""

    vertices: list = field(default_factory=list)
    non_vertices: list = field(default_factory=list)

    @property
    def vertex_indices(self) -> list[int]:
        return [i for i, _ in self.vertices]


def check_distinct(points: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """The points as integer tuples; ValueError when two coincide or dimensions differ."""
    pts = [tuple(int(x) for x in p) for p in points]
    if len(set(pts)) != len(pts):
        raise ValueError("points must be distinct")
    if pts and len({len(p) for p in pts}) != 1:
        raise ValueError("points must have the same dimension")
    return pts


def classify_points(points: Sequence[Sequence[int]], *, certificates: bool = True) -> HeadVertices:
    """Every point decided: a vertex with its functional, or a non-vertex with ``μ``.

    ``certificates=False`` still decides every point but drops the ``μ`` dicts
    (non-vertices are then listed with ``None``).
    """
    pts = check_distinct(points)
    return collect_points(classify_chunk(tuple(pts), tuple(range(len(pts))), certificates))


def classify_chunk(points: tuple, indices: tuple, certificates: bool = True) -> list:
    """Decide the points ``indices`` of ``points``: ``[(i, 'v', c) | (i, 'n', μ or None)]``.

    A module-level pure function of picklable arguments (one executor task):
    the per-head vertex tests of a Minkowski sum run as such tasks.  Each
    point is decided on its own, so the answers do not depend on how the
    indices are split into tasks.

    >>> classify_chunk(((0,), (1,), (2,)), (1, 2))
    [(1, 'n', {0: 1, 2: 1}), (2, 'v', (1,))]
    """
    d = len(points[0]) if points else 0
    out: list[tuple[int, str, tuple | dict | None]] = []
    for i in indices:
        p = points[i]
        others = [j for j in range(len(points)) if j != i]
        rows = [tuple(a - b for a, b in zip(p, points[j])) for j in others]
        r = separate(rows, dim=d)
        if isinstance(r, Functional):
            out.append((i, "v", r.c))
        else:
            out.append((i, "n", {others[k]: v for k, v in sorted(r.mu.items())}
                        if certificates else None))
    return out


def collect_points(decided) -> HeadVertices:
    """The :class:`HeadVertices` of the answers of :func:`classify_chunk` (in index order).

    >>> collect_points([(0, 'v', (-1,)), (1, 'n', None)])
    HeadVertices(vertices=[(0, (-1,))], non_vertices=[(1, None)])
    """
    out = HeadVertices()
    for i, kind, data in sorted(decided, key=lambda x: x[0]):
        (out.vertices if kind == "v" else out.non_vertices).append((i, data))
    return out


def head_vertices(points: Sequence[Sequence[int]]) -> list[tuple[int, tuple[int, ...]]]:
    """Indices of the vertices of ``conv(points)``, each with an integer functional
    whose unique maximizer over the points is that vertex (verified exactly)."""
    return classify_points(points).vertices
