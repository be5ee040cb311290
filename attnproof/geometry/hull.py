"""Exact planar hulls of integer points: the one hull of the toolkit (THEORY §9).

The Newton vertices of a two-dimensional problem (:func:`attnproof.bounds.newton.hull_2d`)
and the pictures (:mod:`attnproof.plot`) both read the vertices from here.
"""

from __future__ import annotations

from typing import Iterable, Sequence

__all__ = ["hull_2d"]

Point = tuple[int, ...]


def _cross(o: Point, a: Point, b: Point) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def hull_2d(points: Sequence[Point]) -> list[Point]:
    """Vertices of the convex hull of planar integer points, counter-clockwise (exact).

    Points on an edge are not vertices (monotone chain, strict turns only).

    >>> hull_2d([(0, 0), (2, 0), (1, 0), (2, 2), (0, 2), (1, 1)])
    [(0, 0), (2, 0), (2, 2), (0, 2)]
    >>> hull_2d([(0, 0), (3, 0), (1, 0)])
    [(0, 0), (3, 0)]
    """
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def chain(seq: Iterable[Point]) -> list[Point]:
        out: list[Point] = []
        for p in seq:
            while len(out) >= 2 and _cross(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = chain(pts), chain(reversed(pts))
    return lower[:-1] + upper[:-1]
