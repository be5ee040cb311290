"""Steps of the exact geometry (docs/certificates.md §6.7-6.10, THEORY §9).

``indecomposable_chain`` per class representative, ``generic_heads``, then
``direct_sum`` (Lemma 9.5) or ``minkowski_vertices`` (Lemma 9.4), written from a
:class:`attnproof.geometry.proof.GeometryProof`.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.geometry.proof import geometry_proof
>>> [s["rule"] for s in geometry_steps(geometry_proof(sigmoid_sum(3)))][-2:]
['generic_heads', 'direct_sum']
"""

from __future__ import annotations

from typing import Any

from ...geometry.chain import Chain
from ...geometry.direct_sum import DirectSum
from ...geometry.minkowski import MinkowskiVertices
from ...geometry.proof import GeometryProof
from ...geometry.vertices import HeadVertices
from .floors import sub_sum_step
from .planar import planar_vertices_step

__all__ = ["geometry_steps", "indecomposable_chain_step", "generic_heads_step",
           "minkowski_vertices_step", "direct_sum_step"]


def _mu(m: dict) -> list:
    return [[j, v] for j, v in sorted(m.items())]


def indecomposable_chain_step(head: int, ch: Chain) -> dict:
    """The ``indecomposable_chain`` step of one head."""
    if ch.kind == "simplex":
        return {"rule": "indecomposable_chain", "head": head, "kind": "simplex", "prime": ch.prime}
    return {"rule": "indecomposable_chain", "head": head, "kind": "chain",
            "triangles": [[list(t), list(c)] for t, c in ch.triangles],
            "non_vertices": [[i, _mu(m)] for i, m in ch.non_vertices]}


def generic_heads_step(classes: list, width_functionals: list | None = None) -> dict:
    """The ``generic_heads`` step (classes of associate heads, sorted);
    ``width_functionals``: ``[C_1, ...]`` when some representative is only indecomposable."""
    step: dict[str, Any] = {"rule": "generic_heads", "classes": [list(c) for c in sorted(classes)]}
    if width_functionals:
        step["width_functionals"] = [list(c) for c in width_functionals]
    return step


def minkowski_vertices_step(mv: MinkowskiVertices, points: list) -> dict:
    """The ``minkowski_vertices`` step of an enumeration (partial ones carry no refutations).

    ``points``: the factors' points (projected as the checker projects them); each
    vertex is listed as ``[tuple, Σ_h points[h][tuple[h]], functional]``.
    """
    def vert(t: tuple, c: tuple) -> list:
        u = [sum(points[h][i][j] for h, i in enumerate(t)) for j in range(len(c))]
        return [list(t), u, list(c)]

    if not (mv.complete and mv.certified):
        return {"rule": "minkowski_vertices", "complete": False,
                "vertices": [vert(t, c) for t, c in mv.vertices],
                "non_vertices": [], "point_non_vertices": [[] for _ in mv.head_non_vertices]}
    return {"rule": "minkowski_vertices", "complete": True,
            "vertices": [vert(t, c) for t, c in mv.vertices],
            "non_vertices": [[list(t), [[h, j, v] for (h, j), v in sorted(m.items())]]
                             for t, m in mv.non_vertices],
            "point_non_vertices": [[[i, _mu(m)] for i, m in hn] for hn in mv.head_non_vertices]}


def direct_sum_step(ds: DirectSum, factor_vertices: list[HeadVertices | None]) -> dict:
    """The ``direct_sum`` step; per-factor vertices when a factor is no simplex (None: simplex)."""
    facs = []
    for basis, rels, hv in zip(ds.bases, ds.relations, factor_vertices):
        ent: dict[str, Any] = {"basis": list(basis),
                               "relations": [[j, dl, list(lam)] for j, dl, lam in rels],
                               "vertices": [], "non_vertices": []}
        if hv is not None:
            ent["vertices"] = [[i, list(c)] for i, c in hv.vertices]
            ent["non_vertices"] = [[i, _mu(m)] for i, m in hv.non_vertices]
        facs.append(ent)
    return {"rule": "direct_sum", "prime": ds.prime, "factors": facs}


def geometry_steps(gp: GeometryProof) -> list[dict]:
    """The steps that prove ``gp.lower``, in the order the checker reads them."""
    if gp.method == "newton_blocks":
        return [{"rule": "newton_blocks", "blocks": []}]
    steps = [indecomposable_chain_step(h, ch) for h, ch in gp.chains]
    steps.append(generic_heads_step(gp.classes, gp.width_functionals))
    if gp.sub_sum is not None:             # docs/certificates.md §6.14
        steps.append(sub_sum_step(gp.sub_sum))
    if gp.direct_sum is not None:
        steps.append(direct_sum_step(gp.direct_sum, gp.factor_vertices))
    elif gp.method == "planar_vertices":
        steps.append(planar_vertices_step())
    else:
        assert gp.minkowski is not None
        steps.append(minkowski_vertices_step(gp.minkowski, gp.points))
    return steps
