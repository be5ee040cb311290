"""The choice of a fusion: :func:`fuse` returns the first cheap fusion that is a head.
"""

from __future__ import annotations



from ..heads import MultiHead
from ..parallel.tasks import Progress
from ..io import as_problem
from ..algebra.budget import flint_obstacle
from .base import Fusion
from .class_product import class_product_fusion
from .explicit import ExplicitFusion, lcm_fusion, product_fusion
from .reduced import DEFAULT_MAX_ATOMS, compress, reduced_form
from .sparse import sparse_fusion

__all__ = ["fuse"]


def fuse(M: MultiHead, max_atoms: int | None = DEFAULT_MAX_ATOMS,
         progress: Progress = None) -> Fusion:
    """The first cheap fusion that is a head: reduced ``Q``, then lcm, then product.

    >>> from attnproof.families import graph_sum
    >>> import networkx as nx
    >>> f = fuse(graph_sum(nx.cycle_graph(3)))
    >>> (f.atoms, f.method)
    (7, 'reduced')

    Keys whose lattice exponents are too long for polynomial algebra (binary
    floats, long decimals: :func:`attnproof.algebra.budget.flint_obstacle`) get
    :func:`class_product_fusion`, counted without expansion.  ``M`` may also be a
    problem file path or a problem document (:func:`attnproof.io.as_problem`).
    """
    M = as_problem(M)
    sf = sparse_fusion(M)
    if sf is not None:
        return sf
    if flint_obstacle(M) is not None:
        return class_product_fusion(M, max_atoms, progress)
    comp = compress(M)
    if comp is not None:
        # the polynomial algebra runs over the coordinates some key uses, not all of R^dim;
        # dropping unused coordinates changes neither the sparse nor the FLINT test above
        Mc, coords = comp
        f = _polynomial_fusion(Mc, max_atoms, progress)
        return ExplicitFusion(M, f.frac, f.method, coords, Mc)
    return _polynomial_fusion(M, max_atoms, progress)


def _polynomial_fusion(M: MultiHead, max_atoms: int | None, progress: Progress) -> ExplicitFusion:
    """The reduced ``Q`` when it is a head, then the lcm, then the product (FLINT algebra)."""
    r = reduced_form(M, max_atoms, progress)
    if r.frac.is_head():
        return ExplicitFusion(M, r.frac, "reduced")
    f = lcm_fusion(r)
    if f is not None:
        return f
    return product_fusion(M, max_atoms)
