"""Minkowski sums of lattice polygons in the plane, exactly, in ``O(n log n)``.

For convex polygons the sum is built by merging the edges of the summands in
angular order (each summand walked counter-clockwise from its lowest point);
parallel edges of the same direction merge into one edge of the sum.  Its
vertices are then the partial sums of the merged edge vectors, starting at the
sum of the summands' lowest points.  A segment contributes its two opposite
edges, a point none.  Multiplicities scale the edges (``e·P`` has the normals of
``P``), so the vertex count never depends on them.

This is the producer's own construction (THEORY Lemma 6 in the plane); the
checker counts independently, from the set of edge directions of each hull.

>>> square = [(0, 0), (1, 0), (0, 1), (1, 1)]
>>> minkowski_polygon([(square, 1), ([(0, 0), (1, 1)], 2)])
[(0, 0), (1, 0), (3, 2), (3, 3), (2, 3), (0, 1)]
>>> len(minkowski_polygon([([(0, 0), (1, k)], 1) for k in range(1, 101)]))
200
"""

from __future__ import annotations

from functools import cmp_to_key
from math import gcd

__all__ = ["convex_hull", "minkowski_polygon", "planar_vertex_count"]


def _turn(o: tuple, a: tuple, b: tuple) -> int:
    """Twice the signed area of ``(o, a, b)``: positive for a left turn."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull(points) -> list[tuple]:
    """Vertices of ``conv(points)`` counter-clockwise from the lowest (then leftmost) one;
    collinear boundary points are not vertices.

    >>> convex_hull([(0, 0), (2, 0), (1, 0), (1, 1), (2, 2), (0, 2)])
    [(0, 0), (2, 0), (2, 2), (0, 2)]
    >>> convex_hull([(3, 1), (1, 1), (2, 1)]), convex_hull([(5, 5)])
    ([(1, 1), (3, 1)], [(5, 5)])
    """
    pts = sorted(set(points), key=lambda p: (p[1], p[0]))
    if len(pts) <= 2:
        return pts
    # lower and upper chains over the (y, x) order, glued at both ends
    right: list = []
    for p in pts:
        while len(right) >= 2 and _turn(right[-2], right[-1], p) <= 0:
            right.pop()
        right.append(p)
    left: list = []
    for p in reversed(pts):
        while len(left) >= 2 and _turn(left[-2], left[-1], p) <= 0:
            left.pop()
        left.append(p)
    return right[:-1] + left[:-1]


def _half(v: tuple) -> int:
    """0 for directions of angle in ``[0, π)``, 1 for ``[π, 2π)``."""
    return 0 if v[1] > 0 or (v[1] == 0 and v[0] > 0) else 1


def _angle_cmp(u: tuple, v: tuple) -> int:
    hu, hv = _half(u), _half(v)
    if hu != hv:
        return hu - hv
    c = u[0] * v[1] - u[1] * v[0]
    return -1 if c > 0 else (1 if c < 0 else 0)


def minkowski_polygon(summands) -> list[tuple]:
    """Vertices of ``Σ e·conv(points)`` over ``(points, e)``, counter-clockwise from the
    lowest (then leftmost) vertex.  ``O(n log n)`` in the total number of points."""
    start = [0, 0]
    edges: dict = {}                    # primitive direction -> summed edge vector
    for pts, e in summands:
        hull = convex_hull(pts)
        if not hull:
            continue
        start[0] += e * hull[0][0]
        start[1] += e * hull[0][1]
        if len(hull) == 1:
            continue
        for i, a in enumerate(hull):
            b = hull[(i + 1) % len(hull)]
            dx, dy = e * (b[0] - a[0]), e * (b[1] - a[1])
            g = gcd(dx, dy)
            k = (dx // g, dy // g)
            s = edges.get(k)
            edges[k] = (dx, dy) if s is None else (s[0] + dx, s[1] + dy)
    out = [tuple(start)]
    x, y = start
    order = sorted(edges, key=cmp_to_key(_angle_cmp))
    for k in order[:-1]:
        dx, dy = edges[k]
        x, y = x + dx, y + dy
        out.append((x, y))
    return out


def planar_vertex_count(point_sets) -> int:
    """Vertices of ``Σ conv(P)`` over point sets ``P`` in ``Z^2`` (multiplicities do not matter).

    >>> planar_vertex_count([[(0, 0), (1, 0)], [(0, 0), (2, 0)]])
    2
    """
    return len(minkowski_polygon((p, 1) for p in point_sets))
