"""Vertices of Newton polytopes with exact separating functionals (THEORY §4, Theorem 3, Lemma 6).

Candidates come from exact constructions (2-D hulls, zonotope sign vectors)
or from the exact vertex enumeration of :mod:`attnproof.geometry` (LP guesses
verified with integers, Gordan certificates for the rest); every functional is
then verified with integers: ``c`` must have a unique maximizer on every
factor's support.  A vertex list is sound even if incomplete, since each
verified vertex is a real vertex.

>>> vs, complete = newton_vertices([(0, 0), (1, 0), (0, 1), (1, 1), (1, 2)])
>>> [u for u, c in vs], complete
([(0, 0), (0, 1), (1, 0), (1, 2)], True)
"""

from __future__ import annotations

from itertools import product
from math import gcd, lcm
from typing import Sequence

from ..geometry.hull import hull_2d as ccw_hull
import flint
from ..geometry import classify_points

Point = tuple

__all__ = ["unique_maximizer", "minkowski_vertex", "newton_vertices", "hull_2d",
           "independent_zonotope_functionals"]


def unique_maximizer(c: Sequence[int], pts: Sequence[Point]) -> Point | None:
    """The point of ``pts`` maximizing ``<c, ·>`` when unique, else None.

    >>> unique_maximizer((1, -1), [(0, 0), (1, 0), (1, 1)])
    (1, 0)
    """
    best, arg, tie = None, None, False
    for p in pts:
        v = sum(a * b for a, b in zip(c, p))
        if best is None or v > best:
            best, arg, tie = v, p, False
        elif v == best:
            tie = True
    return None if tie else arg


def minkowski_vertex(c: Sequence[int], factors: Sequence[tuple[Sequence[Point], int]]) -> Point | None:
    """Lemma 6: the vertex ``Σ e_j u_j`` of ``Σ e_j Newt(f_j)`` selected by ``c``, or None.

    >>> minkowski_vertex((1, 1), [([(0, 0), (1, 0)], 2), ([(0, 0), (0, 1)], 1)])
    (2, 1)
    """
    n = len(c)
    tot = [0] * n
    for pts, e in factors:
        u = unique_maximizer(c, pts)
        if u is None:
            return None
        tot = [t + e * x for t, x in zip(tot, u)]
    return tuple(tot)


def hull_2d(pts: Sequence[Point]) -> list[tuple[Point, Point]]:
    """Vertices of a planar point set with integer functionals.

    The vertices come from the one exact hull of the toolkit
    (:func:`attnproof.geometry.hull.hull_2d`, monotone chain); each gets the sum of the
    outward normals of its two edges.

    >>> hull_2d([(0, 0), (1, 0), (3, 0)])
    [((0, 0), (-3, 0)), ((3, 0), (3, 0))]
    >>> hull_2d([(0, 0), (2, 0), (1, 1), (0, 2)])
    [((0, 0), (-2, -2)), ((0, 2), (0, 2)), ((2, 0), (2, 0))]
    """
    hull = ccw_hull(pts)                     # counter-clockwise, strict turns
    if len(hull) == 1:
        return [(hull[0], (0, 0))]
    if len(hull) == 2:                       # collinear points: a segment
        a, b = hull
        d = (b[0] - a[0], b[1] - a[1])
        return sorted([(a, (-d[0], -d[1])), (b, d)])
    k = len(hull)
    out = []
    for i, v in enumerate(hull):
        a, b = hull[i - 1], hull[(i + 1) % k]
        # outward normals of the edges (a, v) and (v, b) for a ccw polygon
        n1 = (v[1] - a[1], a[0] - v[0])
        n2 = (b[1] - v[1], v[0] - b[0])
        out.append((v, (n1[0] + n2[0], n1[1] + n2[1])))
    return sorted(out)


def independent_zonotope_functionals(gens: Sequence[Point]) -> list[tuple[int, ...]]:
    """One integer functional per sign vector of linearly independent generators.

    Solves ``<c, g_i> = σ_i`` with the least-norm rational solution
    ``c = Gᵀ (G Gᵀ)^{-1} σ``, scaled to integers.

    >>> independent_zonotope_functionals([(1, 0), (0, 2)])
    [(-2, -1), (-2, 1), (2, -1), (2, 1)]
    """

    k = len(gens)
    n = len(gens[0]) if gens else 0
    G = flint.fmpq_mat(k, n, [x for g in gens for x in g])
    A = G.transpose() * (G * G.transpose()).inv()          # n x k, rational
    den = 1
    for i in range(n):
        for j in range(k):
            den = lcm(den, int(A[i, j].q))
    Ai = [[int(A[i, j].p) * (den // int(A[i, j].q)) for j in range(k)] for i in range(n)]
    out = []
    for sigma in product((-1, 1), repeat=k):
        ci = [sum(a * s for a, s in zip(row, sigma)) for row in Ai]
        g = 0
        for x in ci:
            g = gcd(g, x)
        out.append(tuple(x // g for x in ci) if g else tuple(ci))
    return sorted(out)


def newton_vertices(pts: Sequence[Point]) -> tuple[list[tuple[Point, tuple]], bool]:
    """Vertices of ``conv(pts)`` with verified integer functionals, and whether the list is complete.

    Dimension <= 2 (after dropping constant coordinates) by the exact planar
    hull; above, every point is decided by the exact separation oracle of
    :mod:`attnproof.geometry` (an LP guess, verified with integers, with a
    Gordan certificate for every non-vertex), so the list is always complete.

    >>> vs, complete = newton_vertices([(0, 0, 0), (2, 0, 0), (0, 2, 0), (0, 0, 2), (1, 0, 0)])
    >>> [u for u, c in vs], complete                    # (1, 0, 0) lies on an edge
    ([(0, 0, 0), (0, 0, 2), (0, 2, 0), (2, 0, 0)], True)
    """
    P = sorted(set(tuple(p) for p in pts))
    n = len(P[0])
    live = [i for i in range(n) if len({p[i] for p in P}) > 1]
    if len(live) <= 2:
        sub = [tuple(p[i] for i in live) + (0,) * (2 - len(live)) for p in P]
        res = []
        for _v, c in hull_2d(sub):
            full = [0] * n
            for j, i in enumerate(live):
                full[i] = c[j]
            u = unique_maximizer(full, P)
            if u is not None:
                res.append((u, tuple(full)))
        return sorted(set(res)), True

    sub = [tuple(p[i] for i in live) for p in P]
    res = []
    for i, c in classify_points(sub, certificates=False).vertices:
        full = [0] * n
        for j, k in enumerate(live):
            full[k] = c[j]
        res.append((P[i], tuple(full)))
    return sorted(res), True
