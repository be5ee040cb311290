"""Certificate steps from the exact geometry of THEORY §9 (the untrusted producer side).

Turns :mod:`attnproof.geometry` results into the steps of
docs/certificates.md §6.7-6.10: ``indecomposable_chain`` per class
representative, ``generic_heads``, then ``direct_sum`` (Lemma 9.5) when the
difference spaces are independent, else ``minkowski_vertices`` (Lemma 9.4).
Nothing here expands a polynomial.

>>> from attnproof.families import sigmoid_sum
>>> gp = geometry_proof(sigmoid_sum(3))
>>> gp.lower, gp.complete, gp.method, [s["rule"] for s in gp.steps][-2:]
(8, True, 'direct_sum', ['generic_heads', 'direct_sum'])
>>> from attnproof.checker import check_document
>>> check_document(geometry_certificate(sigmoid_sum(3)).doc).message
'valid: lower bound 8, upper bound 8, trust exact'
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..algebra.lattice import Lattice
from ..geometry.associates import associate_classes
from ..geometry.chain import Chain, difference_box, indecomposable_chain, non_homothety
from ..geometry.direct_sum import DirectSum, direct_sub_sum, direct_sum_certificate
from ..geometry.minkowski import MinkowskiVertices, minkowski_vertices
from ..geometry.points import head_points, project, varying_coordinates
from ..geometry.vertices import classify_points
from ..model import MultiHead

__all__ = ["GeometryProof", "geometry_proof", "MAX_CANDIDATES", "geometry_certificate", "chain_step",
           "generic_heads_step", "minkowski_step", "direct_sum_step"]

Progress = Optional[Callable[[int, int], None]]
# candidate vertex tuples decided before a Minkowski count becomes partial (a lower bound)
MAX_CANDIDATES = 100_000


def _mu(m: dict) -> list:
    return [[j, v] for j, v in sorted(m.items())]


def chain_step(head: int, ch: Chain) -> dict:
    """The ``indecomposable_chain`` step of one head."""
    if ch.kind == "simplex":
        return {"rule": "indecomposable_chain", "head": head, "kind": "simplex", "prime": ch.prime}
    return {"rule": "indecomposable_chain", "head": head, "kind": "chain",
            "triangles": [[list(t), list(c)] for t, c in ch.triangles],
            "non_vertices": [[i, _mu(m)] for i, m in ch.non_vertices]}


def generic_heads_step(classes: list, non_homothetic: list | None = None) -> dict:
    """The ``generic_heads`` step (classes of associate heads, sorted); ``non_homothetic``:
    ``[[h, g, c1, c2], ...]`` when some representative is only indecomposable."""
    step = {"rule": "generic_heads", "classes": [list(c) for c in sorted(classes)]}
    if non_homothetic:
        step["non_homothetic"] = [[h, g, list(c1), list(c2)] for h, g, c1, c2 in non_homothetic]
    return step


def minkowski_step(mv: MinkowskiVertices, points: list) -> dict:
    """The ``minkowski_vertices`` step of an enumeration (partial ones carry no refutations).

    ``points``: the factors' points (projected as the checker projects them); each
    vertex is listed as ``[tuple, Σ_h points[h][tuple[h]], functional]``.
    """
    def vert(t, c):
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


def direct_sum_step(ds: DirectSum, points: list) -> tuple[dict, int]:
    """The ``direct_sum`` step and its count; per-factor vertices when a factor is no simplex."""
    facs = []
    total = 1
    for basis, rels, pts in zip(ds.bases, ds.relations, points):
        ent: dict[str, Any] = {"basis": list(basis),
                               "relations": [[j, dl, list(lam)] for j, dl, lam in rels],
                               "vertices": [], "non_vertices": []}
        if len(basis) == len(pts) - 1:
            total *= len(pts)
        else:
            hv = classify_points(pts)
            ent["vertices"] = [[i, list(c)] for i, c in hv.vertices]
            ent["non_vertices"] = [[i, _mu(m)] for i, m in hv.non_vertices]
            total *= len(hv.vertices)
        facs.append(ent)
    return {"rule": "direct_sum", "prime": ds.prime, "factors": facs}, total


@dataclass
class GeometryProof:
    """Steps proving ``lower`` (exact when ``complete``) without factorization."""

    steps: list
    lower: int
    complete: bool
    method: str                      # "direct_sum" | "minkowski_vertices" | "sub_sum"
    classes: list = field(default_factory=list)
    factors: list = field(default_factory=list)     # class representatives that are factors of Q
    all_vertices: bool = False       # every key of every factor head is a vertex of its head
    indecomposable: list = field(default_factory=list)   # representatives with content > 1
    sub_sum: list | None = None      # the factors (class representatives) a sub-sum kept


def geometry_proof(M: MultiHead, *, complete: bool = True, progress: Progress = None,
                   spec=None, max_candidates: int | None = MAX_CANDIDATES) -> GeometryProof | None:
    """Prove the Newton vertex bound of ``M`` by THEORY §9, or None when some head
    denominator has no indecomposable Newton polytope (no chain found), two heads are
    associates through a non-monomial unit, or a head only indecomposable (content
    above 1) has no certificate of non-homothety with another class (docs/theory.md 9.3').  ``max_candidates`` (None: no cap): above
    this many tuples of per-head vertices the count is partial (THEORY 9.4)."""
    lat = Lattice.of(M)
    pts_all = head_points(M, lat)
    try:
        classes, constant = associate_classes(M, lat)
    except ValueError:
        return None
    steps: list = []
    box = difference_box(pts_all)
    indec: set = set()          # representatives only indecomposable (content above 1)
    for cl in classes:
        h = cl[0]
        pts = pts_all[h]
        vc = varying_coordinates(pts)
        ch = indecomposable_chain(project(pts, vc), box=[box[j] for j in vc],
                                  require_content=False)
        if ch is None:
            return None
        if ch.content != 1:
            indec.add(h)
        steps.append((h, chain_step(h, ch)))
    steps = [s for _, s in sorted(steps, key=lambda t: t[0])]
    reps = [cl[0] for cl, const in zip(classes, constant) if not const]
    pairs = []
    if indec:
        # docs/theory.md 9.3': pairwise non-homothetic non-constant classes
        for i, h in enumerate(reps):
            for g in reps[i + 1:]:
                if h not in indec and g not in indec:
                    continue
                vc = varying_coordinates(pts_all[h], pts_all[g])
                nh = non_homothety(project(pts_all[h], vc), project(pts_all[g], vc))
                if nh is None:
                    return None
                pairs.append((h, g, nh[0], nh[1]))
    steps.append(generic_heads_step(classes, pairs))
    if not reps:
        # Q = 1: the trivial bound needs no factor at all
        return GeometryProof([{"rule": "newton_blocks", "blocks": []}], 1, True,
                             "newton_blocks", classes, reps)
    coords = varying_coordinates(*[pts_all[h] for h in reps])
    fpts = [project(pts_all[h], coords) for h in reps]
    ds = direct_sum_certificate(fpts)
    if ds is not None:
        step, total = direct_sum_step(ds, fpts)
        steps.append(step)
        allv = total == _prod(len(p) for p in fpts)
        return GeometryProof(steps, total, True, "direct_sum", classes, reps, allv,
                             sorted(indec))
    sub = None
    if max_candidates is not None and _prod(len(p) for p in fpts) > max_candidates:
        # too many candidate tuples for a complete count: the best direct sub-sum
        # (docs/certificates.md §6.12) may prove more than a partial enumeration
        sub = _sub_sum_proof(fpts, pts_all, reps)
        if sub is not None and sub[1] >= max_candidates:
            return GeometryProof(steps + sub[0], sub[1], False, "sub_sum", classes, reps, False,
                                 sorted(indec), sub[2])
    mv = minkowski_vertices(fpts, complete=complete, progress=progress, spec=spec,
                            max_candidates=max_candidates)
    if sub is not None and sub[1] > mv.count:
        return GeometryProof(steps + sub[0], sub[1], False, "sub_sum", classes, reps, False,
                             sorted(indec), sub[2])
    steps.append(minkowski_step(mv, fpts))
    exact = mv.complete and mv.certified
    allv = exact and not any(mv.head_non_vertices)
    return GeometryProof(steps, mv.count, exact, "minkowski_vertices", classes, reps, allv,
                         sorted(indec))


def _sub_sum_proof(fpts: list, pts_all: list, reps: list) -> tuple[list, int, list] | None:
    """``([sub_sum step, direct_sum step], count, kept representatives)`` for the best
    direct sub-sum found (:func:`attnproof.geometry.direct_sum.direct_sub_sum`), or None.

    The checker restricts the bound factors to the kept ones and re-derives their
    points on the x-variables that vary over them: the step is built on that projection
    (dropping coordinates constant on every kept head keeps each head's point order,
    bases and relations)."""
    found = direct_sub_sum(fpts)
    if found is None or len(found[0]) == len(fpts):
        return None
    S, ds = found
    coords = varying_coordinates(*[pts_all[reps[i]] for i in S])
    step, total = direct_sum_step(ds, [project(pts_all[reps[i]], coords) for i in S])
    return [{"rule": "sub_sum", "factors": list(S)}, step], total, [reps[i] for i in S]


def _prod(xs) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


@dataclass
class GeometryCertificate:
    doc: dict
    proof: GeometryProof


def geometry_certificate(M: MultiHead, **kw) -> GeometryCertificate | None:
    """A whole certificate: the geometry steps and the ``product_fusion`` upper bound."""
    from ..io import canonical_json, problem_to_dict
    from .build import FORMAT, VERSION, encode_count

    gp = geometry_proof(M, **kw)
    if gp is None:
        return None
    upper = _prod(len(p) for p in head_points(M))
    pdoc = problem_to_dict(M)
    doc = {"format": FORMAT, "version": VERSION, "problem": pdoc,
           "problem_sha256": hashlib.sha256(canonical_json(pdoc).encode("ascii")).hexdigest(),
           "claims": {"lower_bound": encode_count(gp.lower), "upper_bound": encode_count(upper),
                      "minimum": encode_count(upper) if gp.lower == upper else None,
                      "window_refutations": []},
           "steps": gp.steps + [{"rule": "product_fusion"}], "trust": "exact"}
    return GeometryCertificate(doc, gp)
