"""Exact geometry of Newton polytopes for real-valued keys (THEORY §9), no polynomial expanded.

Points are exact integer vectors: the lattice exponents of the keys (the keys
scaled onto the problem's lattice, hundreds of bits long for float keys).
Floating-point linear programs (HiGHS through SciPy) only *guess*; every claim
returned here carries an exact integer certificate that has been verified:

* a **functional** ``c`` (integers) with ``<c, p - q> >= 1`` for the claimed
  unique maximizer ``p`` against every other point ``q``;
* a **Gordan certificate** ``μ`` (positive integers) with ``Σ μ_i g_i = 0``
  for the differences ``g_i`` that a functional would have to separate, which
  proves that no such functional exists (Gordan's theorem).

API (what the certificate producers and the bounds build on):

* :func:`head_points` -- the distinct x-exponents of every head of a multi-head.
* :func:`head_vertices` / :func:`classify_points` -- vertices of ``conv(points)``
  with functionals; non-vertices with Gordan (convex-combination) certificates.
* :func:`minkowski_vertices` -- Lemma 9.4: vertices of ``Σ_h conv(K_h)`` as
  index tuples, complete (every candidate decided) or partial.
* :func:`indecomposable_chain` -- Lemma 9.1 + Cor 9.2 (and Gao's simplex case):
  a certificate that a head denominator is absolutely irreducible.
* :func:`direct_sum_certificate` -- Lemma 9.5: the difference spaces are
  linearly independent, with a modular rank witness.
* :func:`separate` -- the one oracle underneath: a functional or a Gordan
  certificate for a list of integer difference vectors.

>>> from attnproof.geometry import minkowski_vertices
>>> T1 = [(-2, 9, -6), (1, -9, -9), (-9, 8, -9)]        # two triangles in R^3
>>> T2 = [(3, -3, 4), (-9, 7, -2), (5, 6, 8)]
>>> mv = minkowski_vertices([T1, T2])
>>> mv.count, mv.complete, len(mv.non_vertices)
(8, True, 1)
"""

from __future__ import annotations

from .separation import Functional, Gordan, separate
from .vertices import HeadVertices, classify_points, head_vertices
from .minkowski import MinkowskiVertices, minkowski_vertices
from .chain import Chain, indecomposable_chain
from .direct_sum import DirectSum, direct_sum_certificate
from .points import head_points
from .proof import FactorClasses, GeometryProof, factor_classes, geometry_proof

__all__ = ["Functional", "Gordan", "separate", "HeadVertices", "classify_points",
           "head_vertices", "MinkowskiVertices", "minkowski_vertices", "Chain",
           "indecomposable_chain", "DirectSum", "direct_sum_certificate", "head_points",
           "FactorClasses", "factor_classes", "GeometryProof", "geometry_proof"]
