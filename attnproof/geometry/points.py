"""Integer points of the heads: distinct x-exponents on the problem's lattice (THEORY §2, S2).

The lattice is the checker's (:class:`attnproof.algebra.lattice.Lattice`):
coordinate ``j`` of a key is multiplied by ``s_j``, the lcm of the
denominators in that coordinate, so points are exact integers (hundreds of
bits for float keys).  Biases only change coefficients (over ``K = Q(z)``),
so two atoms with the same key give one point.

>>> from attnproof.families import sigmoid_sum
>>> head_points(sigmoid_sum(2))
[[(0, 0), (1, 0)], [(0, 0), (0, 1)]]
"""

from __future__ import annotations

from ..algebra.lattice import Lattice
from ..heads import MultiHead

__all__ = ["head_points", "varying_coordinates", "project"]


def head_points(M: MultiHead, lattice: Lattice | None = None) -> list[list[tuple[int, ...]]]:
    """Per head, the sorted distinct x-exponent vectors (dense, length ``M.dim``)."""
    lat = lattice if lattice is not None else Lattice.of(M)
    out = []
    for h in M.heads:
        pts = set()
        for a in h.atoms:
            pts.add(tuple(c.numerator * (s // c.denominator) if c else 0
                          for c, s in zip(a.key, lat.scales)))
        out.append(sorted(pts))
    return out


def varying_coordinates(*point_sets) -> list[int]:
    """Coordinates that are not constant over at least one of the point sets.

    >>> varying_coordinates([(0, 5, 1), (1, 5, 1)], [(2, 5, 0), (2, 5, 3)])
    [0, 2]
    """
    out = set()
    for pts in point_sets:
        if pts:
            for j in range(len(pts[0])):
                if len({p[j] for p in pts}) > 1:
                    out.add(j)
    return sorted(out)


def project(points, coords) -> list[tuple[int, ...]]:
    """Points restricted to ``coords`` (order kept).

    >>> project([(0, 5, 1), (1, 5, 2)], [0, 2])
    [(0, 1), (1, 2)]
    """
    return [tuple(p[j] for j in coords) for p in points]
