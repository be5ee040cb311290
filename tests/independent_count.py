"""An independent exact vertex count for Minkowski sums (tests only).

Shares no code with ``attnproof.bounds`` or ``attnproof.geometry``: it forms
every sum point and decides with exact integers / fractions whether each lies
in the convex hull of the others -- Andrew's monotone chain in the plane,
Carathéodory's theorem in space (a point of a 3-dimensional hull lies in the
hull of at most 4 affinely independent points).

It also lists every set partition of a list (:func:`partitions`), the brute force the
merge plan's optimum is compared with.
"""

from __future__ import annotations

from fractions import Fraction
from collections.abc import Iterator
from itertools import combinations, product

F = Fraction

__all__ = ["count_minkowski_vertices", "brute_force_vertices"]


def _solve(rows, rhs):
    """Unique exact solution of a square-or-tall linear system, or None."""
    m = [[F(x) for x in r] + [F(b)] for r, b in zip(rows, rhs)]
    n = len(rows[0])
    r = 0
    piv_cols = []
    for col in range(n):
        piv = next((i for i in range(r, len(m)) if m[i][col] != 0), None)
        if piv is None:
            return None
        m[r], m[piv] = m[piv], m[r]
        for i in range(len(m)):
            if i != r and m[i][col] != 0:
                f = m[i][col] / m[r][col]
                m[i] = [a - f * b for a, b in zip(m[i], m[r])]
        piv_cols.append(col)
        r += 1
    if any(row[-1] != 0 for row in m[r:]):
        return None
    return [m[i][-1] / m[i][i] for i in range(n)]


def _in_hull(p, others) -> bool:
    d = len(p)
    for k in range(1, d + 2):
        for sub in combinations(others, k):
            # λ ≥ 0, Σλ = 1, Σ λ_i q_i = p: (d + 1) equations, k unknowns
            rows = [[q[j] for q in sub] for j in range(d)] + [[1] * k]
            lam = _solve(rows, list(p) + [1])
            if lam is not None and all(x >= 0 for x in lam):
                return True
    return False


def _hull_2d(pts) -> int:
    """Strict vertices of a planar point set (Andrew's monotone chain, exact integers)."""
    pts = sorted(set(pts))
    if len(pts) <= 2:
        return len(pts)

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    def chain(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and cross(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out

    hull = chain(pts)[:-1] + chain(pts[::-1])[:-1]
    return len(hull)


def brute_force_vertices(heads) -> int:
    """Vertices of ``Σ conv(K_h)``: sum points not in the hull of the other sum points."""
    sums = {tuple(sum(c) for c in zip(*t)) for t in product(*heads)}
    sums = sorted(sums)
    if len(sums[0]) == 2:
        return _hull_2d(sums)
    assert len(sums) <= 16, "the 3-D brute force is for small sums only"
    return sum(1 for s in sums if not _in_hull(s, [q for q in sums if q != s]))



count_minkowski_vertices = brute_force_vertices


def partitions(items: list) -> Iterator[list]:
    """Every set partition of ``items``, independently of the merge plan's search.

    >>> [sum(1 for _ in partitions(list(range(n)))) for n in range(1, 6)]
    [1, 2, 5, 15, 52]
    """
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for p in partitions(rest):
        yield [[first]] + p
        for i in range(len(p)):
            yield p[:i] + [[first] + p[i]] + p[i + 1:]
