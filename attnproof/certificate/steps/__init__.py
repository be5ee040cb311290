"""Certificate steps written from typed proof objects: one module per rule family.

Each module writes the steps of one family of docs/certificates.md §6 and is the
only place that knows their JSON; the checker reads them back in its rule module
of the same family:

* §6.1-6.2 ``irreducible_factor``, ``reduced_by_flint``: :mod:`.factors` (``checker/rules/factors``);
* §6.3 ``newton_blocks``: :mod:`.newton` (``checker/rules/newton``);
* §6.4-6.5 ``product_fusion``, ``explicit_fusion``: :mod:`.fusion` (``checker/rules/fusion``);
* §6.6 ``window_refutation``: :mod:`.windows` (``checker/rules/windows``);
* §6.7-6.10 ``indecomposable_chain``, ``generic_heads``, ``minkowski_vertices``,
  ``direct_sum``: :mod:`.geometry` (``checker/rules/geometry``);
* §6.11 ``line_refutation``: :mod:`.windows` (``checker/rules/windows``);
* §6.12 ``planar_vertices``: :mod:`.planar` (``checker/rules/planar``);
* §6.13-6.14 ``non_constant``, ``sub_sum``: :mod:`.floors` (``checker/rules/floors``);
* §6.15 ``graph_minors``: :mod:`.graph_sums` (``checker/rules/graph_sums``);
* §6.16 ``edge_roots``: :mod:`attnproof.bounds.edges` (``checker/rules/edges``), kept
  whole on the :class:`~attnproof.bounds.LowerBound`.

Each writer is named after its rule (``<rule>_step``) and takes the typed object
the producer holds: a :class:`~attnproof.bounds.LowerBound`'s parts, a
:class:`~attnproof.geometry.proof.GeometryProof`'s, a :class:`~attnproof.fusion.Fusion`,
a :class:`.windows.WindowRefutation` or :class:`.windows.LineRefutation`.  The
document around them (claims, trust) is :mod:`attnproof.certificate.document`'s.

>>> from attnproof.bounds import lower_bound
>>> from attnproof.families import sigmoid_sum
>>> [s["rule"] for s in lower_bound_steps(lower_bound(sigmoid_sum(2)))]
['irreducible_factor', 'irreducible_factor', 'newton_blocks']
"""

from __future__ import annotations

from ...bounds.edges import edge_roots_step
from ...bounds.lower import Block, LowerBound
from .factors import irreducible_factor_step, reduced_by_flint_step
from .floors import non_constant_step, sub_sum_step
from .fusion import explicit_fusion_step, product_fusion_step
from .graph_sums import graph_minors_step
from .geometry import (direct_sum_step, generic_heads_step, geometry_steps,
                       indecomposable_chain_step, minkowski_vertices_step)
from .newton import newton_blocks_step
from .planar import planar_vertices_step
from .windows import line_refutation_step, window_refutation_step

__all__ = ["lower_bound_steps", "graph_minors_step", "irreducible_factor_step", "reduced_by_flint_step",
           "newton_blocks_step", "product_fusion_step", "explicit_fusion_step",
           "window_refutation_step", "indecomposable_chain_step", "generic_heads_step",
           "minkowski_vertices_step", "direct_sum_step", "line_refutation_step",
           "planar_vertices_step", "non_constant_step", "sub_sum_step", "geometry_steps",
           "edge_roots_step"]


def lower_bound_steps(lb: LowerBound) -> list[dict]:
    """The steps that prove a lower bound, by its path: the geometry of THEORY §9, or the
    certified factors (C1/C2) or the reduced form (C3) followed by the counted blocks."""
    if lb.path == "geometry":
        assert lb.geometry is not None
        steps = geometry_steps(lb.geometry)
    elif lb.path == "c3":
        assert lb.reduced is not None
        P, Q = lb.reduced
        steps = [reduced_by_flint_step(P, Q), newton_blocks_step(lb.blocks)]
    else:
        # a block may leave its dropped factors unbound (Block.bind_dropped): the count of
        # the kept ones needs only that each kept factor divides Q
        unbound = {j for b in lb.blocks if not b.bind_dropped for j in b.dropped}
        bound = [j for j in range(len(lb.factors)) if j not in unbound]
        steps = []
        for j in bound:
            poly, _mult, wit, comp, heads = lb.factors[j]
            steps.append(irreducible_factor_step(poly, wit, heads, comp))
        blocks = lb.blocks
        if lb.sub_sum is not None:       # §6.14: the blocks count the kept factors, renumbered
            at = {j: i for i, j in enumerate(bound)}
            if list(lb.sub_sum) != bound:
                steps.append(sub_sum_step([at[j] for j in lb.sub_sum]))
            new = {j: i for i, j in enumerate(lb.sub_sum)}
            blocks = sorted((Block([new[j] for j in b.factors], b.variables, b.method, b.count,
                                   b.vertices, b.complete, graph=b.graph) for b in blocks),
                            key=lambda b: b.factors[0])
        steps.append(newton_blocks_step(blocks))
    if lb.edges is not None:       # §6.16 edge_roots: the edges follow the count
        steps.append(lb.edges)
    if lb.floor is not None:       # §6.13 non_constant: the floor 2 follows the count
        steps.append(non_constant_step(lb.floor))
    return steps
