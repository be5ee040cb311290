"""Exact single-head fusions of a multi-head (THEORY §3).

* :func:`reduced_form` computes ``M = P/Q`` in lowest terms (gcds by FLINT).
* :func:`product_fusion` is the always-valid fusion ``D* = Π D_h``.
* :func:`fuse` returns the first of the cheap fusions that is a head: ``Q`` itself
  (``G = 1``) when its coefficients are positive and ``supp P ⊆ supp Q``; the lcm
  of the head denominators when it qualifies; else the product fusion.

Atom counts are numbers of distinct keys (exponents projected on ``x``).

The package by part: :mod:`.reduced` (the reduced form, size checks), :mod:`.base`
(the :class:`Fusion` protocol, :func:`verify_head`), the fusion kinds with their
constructors (:mod:`.explicit`: :class:`ExplicitFusion`, :func:`product_fusion`,
:func:`lcm_fusion`; :mod:`.class_product`; :mod:`.sparse`), and :mod:`.choice`
(:func:`fuse`, the first cheap one that is a head).

>>> from attnproof.families import sigmoid_sum
>>> f = fuse(sigmoid_sum(3))
>>> (f.atoms, f.method)
(8, 'reduced')
>>> str(reduced_form(sigmoid_sum(2)).Q)
'x1*x2 + x1 + x2 + 1'
"""

from __future__ import annotations

from .base import Fusion, verify_head
from .choice import fuse
from .class_product import ClassProductFusion, class_product_fusion, distinct_sums
from .explicit import ExplicitFusion, lcm_fusion, product_fusion
from .reduced import DEFAULT_MAX_ATOMS, ReducedForm, check_size, compress, product_size_bound, reduced_form
from .sparse import SPARSE_FUSION_CELLS, SparseFusion, sparse_fusion
from .writer import write_fused

__all__ = ["DEFAULT_MAX_ATOMS", "ReducedForm", "Fusion", "ExplicitFusion", "ClassProductFusion",
           "SparseFusion", "reduced_form",
           "product_fusion", "class_product_fusion", "lcm_fusion", "fuse", "compress",
           "product_size_bound", "check_size", "verify_head", "sparse_fusion", "distinct_sums",
           "SPARSE_FUSION_CELLS", "write_fused"]
