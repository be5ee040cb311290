"""Absolute irreducibility of a head denominator from its Newton polytope (THEORY 9.1, 9.2, §5 C1(iii)).

* **Simplex** (Gao): the points are affinely independent (a modular rank
  witness: the differences ``p_i - p_0`` have full rank modulo a prime) and
  the gcd of all coordinates of the differences is 1.
* **Chain** (Lemma 9.1 + Cor 9.2): triangular 2-faces ``{a, b, c}``, each with an
  integer functional whose maximum over the points is attained at exactly
  ``a, b, c`` (non-collinear); the triangles are connected through shared
  edges; every point not on a triangle is a non-vertex (Gordan ``μ``); the gcd
  of the contents ``gcd(b - a)`` over the triangles' edges is 1.

Either proves ``Newt(D_h)`` integrally indecomposable, so ``D_h`` is absolutely
irreducible over ``K = Q(z)`` (biases only change coefficients).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

__all__ = ["Chain", "indecomposable_chain"]


@dataclass
class Chain:
    """Certificate that ``conv(points)`` is integrally indecomposable.

    ``kind``: ``"simplex"`` (then ``prime`` witnesses full rank of the
    differences ``p_i - p_0`` modulo ``prime``) or ``"chain"`` (then
    ``triangles``: sorted ``[((a, b, c), functional)]`` with ``a < b < c``
    point indices, and ``non_vertices``: ``[(i, {j: μ_j})]`` for every point on
    no triangle).  ``content``: the gcd of the edge contents (always 1 here).
    """

    kind: str
    triangles: list = field(default_factory=list)
    non_vertices: list = field(default_factory=list)
    prime: int | None = None
    content: int = 1


def indecomposable_chain(points: Sequence[Sequence[int]], *, max_lp: int = 20000) -> Chain | None:
    """A :class:`Chain` certificate for ``conv(points)``, or None when none is found.

    ``points``: distinct integer points (the x-exponents of one head).
    None means "not certified" (e.g. a polygon with four vertices, a content
    above 1, or no triangular faces found within ``max_lp`` linear programs),
    never "reducible".
    """
    raise NotImplementedError
