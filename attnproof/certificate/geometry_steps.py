"""A whole certificate from the exact geometry of THEORY §9 (the untrusted producer side).

The proof is :func:`attnproof.geometry.proof.geometry_proof`; its steps
(docs/certificates.md §6.7-6.10) are written by
:mod:`attnproof.certificate.steps.geometry` and the document by
:func:`attnproof.certificate.document.certificate_document`; the upper bound is ``product_fusion``.
Nothing here expands a polynomial.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.checker import check_document
>>> check_document(geometry_certificate(sigmoid_sum(3)).doc).message
'valid: lower bound 8, upper bound 8, trust exact'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..geometry.points import head_points
from ..geometry.proof import MAX_CANDIDATES, GeometryProof, geometry_proof
from ..heads import MultiHead
from .document import certificate_document

__all__ = ["GeometryProof", "geometry_proof", "MAX_CANDIDATES", "geometry_certificate",
           "GeometryCertificate"]


@dataclass
class GeometryCertificate:
    doc: dict
    proof: GeometryProof


def geometry_certificate(M: MultiHead, **kw: Any) -> GeometryCertificate | None:
    """A whole certificate: the geometry steps and the ``product_fusion`` upper bound."""
    gp = geometry_proof(M, **kw)
    if gp is None:
        return None
    upper = 1
    for p in head_points(M):
        upper *= len(p)
    return GeometryCertificate(certificate_document(M, gp, None, upper), gp)
