"""The Newton vertex bound proved by exact geometry (THEORY §9), as a typed proof.

Per class of associate heads (Cor 9.3) a representative gets an indecomposable
chain (Lemma 9.1, Cor 9.2); representatives only indecomposable (content above 1)
get certificates of non-homothety (docs/theory.md 9.3'); the vertices of the sum
are counted by a direct sum (Lemma 9.5) when the difference spaces are
independent, else in the plane by merging edges (:mod:`.planar`), else by an
enumeration of Minkowski vertices (Lemma 9.4).

The result is a :class:`GeometryProof` of typed parts; the certificate steps
are written from it by :mod:`attnproof.certificate.geometry_steps`.  Nothing
here expands a polynomial or knows the certificate's JSON.

>>> from attnproof.families import sigmoid_sum
>>> gp = geometry_proof(sigmoid_sum(3))
>>> gp.lower, gp.complete, gp.method, len(gp.chains), gp.direct_sum is not None
(8, True, 'direct_sum', 3, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..algebra.lattice import Lattice
from ..heads import MultiHead
from ..parallel.tasks import MapTasks, Progress
from .associates import associate_classes
from .chain import Chain, difference_box, indecomposable_chain, width_functionals
from .direct_sum import DirectSum, direct_sub_sum, direct_sum_certificate
from .minkowski import MinkowskiVertices, minkowski_vertices
from .points import head_points, project, varying_coordinates
from .vertices import HeadVertices, classify_points
from .planar import convex_hull, minkowski_polygon

__all__ = ["FactorClasses", "factor_classes", "GeometryProof", "geometry_proof", "MAX_CANDIDATES"]

# candidate vertex tuples decided before a Minkowski count becomes partial (a lower bound)
MAX_CANDIDATES = 100_000
# from this many factor heads on, a count past the budget is the exact count of a sub-sum
MINKOWSKI_SUB_SUM_HEADS = 4
# the checker's work such a sub-sum's vertex list may take (the default budget of a
# certificate of a few megabytes, which grows with the file: docs/certificates.md §8)
MINKOWSKI_SUB_SUM_WORK = 1_500_000


@dataclass
class GeometryProof:
    """A proof of ``lower`` (exact when ``complete``) without factorization.

    ``chains``: ``(head, Chain)`` per class representative, by head;
    ``width_functionals``: the functionals that certify non-homothety (empty: none needed);
    ``points``: the factors' points, projected on their varying coordinates;
    then either ``direct_sum`` (with ``factor_vertices``: the decided points of
    each factor that is no simplex, else None) or ``minkowski``.  ``method`` is
    ``"newton_blocks"`` when no head is a factor (``Q = 1``).
    """

    lower: int
    complete: bool
    method: str          # "direct_sum" | "minkowski_vertices" | "planar_vertices" | "sub_sum" | "newton_blocks"
    classes: list = field(default_factory=list)
    factors: list = field(default_factory=list)     # class representatives that are factors of Q
    all_vertices: bool = False       # every key of every factor head is a vertex of its head
    indecomposable: list = field(default_factory=list)   # representatives with content > 1
    chains: list[tuple[int, Chain]] = field(default_factory=list)
    width_functionals: list = field(default_factory=list)
    points: list = field(default_factory=list)
    direct_sum: DirectSum | None = None
    factor_vertices: list[HeadVertices | None] = field(default_factory=list)
    minkowski: MinkowskiVertices | None = None
    sub_sum: list | None = None      # method "sub_sum": the factor indices kept (a direct sub-sum)


@dataclass
class FactorClasses:
    """The reduced denominator ``Q`` as a product of classes of heads (THEORY Cor 9.3, 9.3').

    ``classes``: the classes of associate heads (first head: the representative);
    ``constant``: per class, whether its denominator is constant (no factor of ``Q``);
    ``chains``: ``(head, Chain)`` per representative, by head; ``indecomposable``: the
    representatives whose chain has content above 1, each certified non-homothetic to
    the other non-constant classes by its widths along ``width_functionals``.  When
    ``obstacle`` is set (a sentence), no such product is certified and the rest is
    what was found before it.
    """

    classes: list = field(default_factory=list)
    constant: list = field(default_factory=list)
    chains: list[tuple[int, Chain]] = field(default_factory=list)
    indecomposable: set = field(default_factory=set)
    width_functionals: list = field(default_factory=list)
    obstacle: str | None = None

    @property
    def factors(self) -> list[int]:
        """The representatives of the non-constant classes: one factor of ``Q`` each."""
        return [cl[0] for cl, const in zip(self.classes, self.constant) if not const]


def factor_classes(M: MultiHead, lattice: Lattice | None = None,
                   points: list | None = None) -> FactorClasses:
    """Certify ``Q`` as the product of the denominators of classes of associate heads:
    a chain per representative (Lemma 9.1, Cor 9.2), non-homothety for those only
    indecomposable (docs/theory.md 9.3').  ``points``: :func:`head_points`, when built.

    >>> from attnproof.families import sigmoid_sum
    >>> fc = factor_classes(sigmoid_sum(3))
    >>> fc.classes, fc.factors, fc.obstacle
    ([[0], [1], [2]], [0, 1, 2], None)
    """
    lat = lattice if lattice is not None else Lattice.of(M)
    pts_all = points if points is not None else head_points(M, lat)
    try:
        classes, constant = associate_classes(M, lat)
    except ValueError as e:
        return FactorClasses(obstacle=str(e))
    fc = FactorClasses(classes, constant)
    box = difference_box(pts_all)
    for cl in classes:
        h = cl[0]
        pts = pts_all[h]
        vc = varying_coordinates(pts)
        ch = indecomposable_chain(project(pts, vc), box=[box[j] for j in vc],
                                  require_content=False)
        if ch is None:
            fc.obstacle = (f"the denominator of head {h} has no certificate of irreducibility "
                           f"from its Newton polytope (THEORY 9.1, 9.2)")
            return fc
        if ch.content != 1:
            fc.indecomposable.add(h)
        fc.chains.append((h, ch))
    fc.chains.sort(key=lambda t: t[0])
    reps = fc.factors
    if fc.indecomposable and len(reps) > 1:
        # docs/theory.md 9.3': width functionals that separate every only-indecomposable
        # representative from the other non-constant classes, found in one refinement
        needs = {i for i, h in enumerate(reps) if h in fc.indecomposable}
        cs, clash = width_functionals([pts_all[h] for h in reps], needs)
        if clash is not None:
            h, g = reps[clash[0]], reps[clash[1]]
            fc.obstacle = (f"the denominators of heads {h} and {g} are not certified "
                           f"non-homothetic (docs/theory.md 9.3')")
            return fc
        fc.width_functionals = cs
    return fc


def geometry_proof(M: MultiHead, *, complete: bool = True, progress: Progress = None,
                   mapper: MapTasks | None = None, max_candidates: int | None = MAX_CANDIDATES) -> GeometryProof | None:
    """Prove the Newton vertex bound of ``M`` by THEORY §9, or None when some head
    denominator has no indecomposable Newton polytope (no chain found), two heads are
    associates through a non-monomial unit, or a head only indecomposable (content
    above 1) has no certificate of non-homothety with another class (docs/theory.md 9.3').  ``max_candidates`` (None: no cap): above
    this many tuples of per-head vertices the count is partial (THEORY 9.4).  ``mapper``
    runs the vertex enumeration's tasks (default: in this process)."""
    lat = Lattice.of(M)
    pts_all = head_points(M, lat)
    fc = factor_classes(M, lat, pts_all)
    if fc.obstacle is not None:
        return None
    classes, chains, widths, indec = fc.classes, fc.chains, fc.width_functionals, fc.indecomposable
    reps = fc.factors
    if not reps:
        # Q = 1: the trivial bound needs no factor at all
        return GeometryProof(1, True, "newton_blocks", classes, reps, chains=chains,
                             width_functionals=widths)
    coords = varying_coordinates(*[pts_all[h] for h in reps])
    fpts = [project(pts_all[h], coords) for h in reps]
    ds = direct_sum_certificate(fpts)
    if ds is not None:
        fv, total = _factor_vertices(ds, fpts)
        allv = total == _prod(len(p) for p in fpts)
        return GeometryProof(total, True, "direct_sum", classes, reps, allv, sorted(indec),
                             direct_sum=ds, factor_vertices=fv,
                             chains=chains, width_functionals=widths, points=fpts)
    if len(coords) <= 2:
        # in the plane: the summands' edges merged in angular order, O(n log n); the
        # checker counts from the hulls alone (docs/certificates.md §6.12)

        pad = [[tuple(q) + (0,) * (2 - len(coords)) for q in p] for p in fpts]
        count = len(minkowski_polygon((p, 1) for p in pad))
        allv = all(len(convex_hull(p)) == len(set(p)) for p in pad)
        return GeometryProof(count, True, "planar_vertices", classes, reps, allv, sorted(indec),
                             chains=chains, width_functionals=widths, points=fpts)
    sub = None
    if max_candidates is not None and _prod(len(p) for p in fpts) > max_candidates:
        # too many candidate tuples for a complete count: the best direct sub-sum
        # (docs/certificates.md §6.14) may prove more than a partial enumeration
        sub = _sub_sum(fpts, pts_all, reps)
        if sub is not None and sub[3] >= max_candidates:
            return _sub_sum_proof(sub, classes, reps, indec, chains, widths)
        if len(fpts) >= MINKOWSKI_SUB_SUM_HEADS:
            # many heads: a random sample of full tuples finds almost no vertex; the
            # exact count of a sub-sum whose tuples fit the budget is a better floor
            msub = _minkowski_sub_sum(fpts, pts_all, reps, max_candidates, progress, mapper)
            best = max((x for x in (msub, sub) if x is not None), key=lambda x: x[3],
                       default=None)
            if best is not None:
                return _sub_sum_proof(best, classes, reps, indec, chains, widths)
    mv = minkowski_vertices(fpts, complete=complete, progress=progress, mapper=mapper,
                            max_candidates=max_candidates)
    if sub is not None and sub[3] > mv.count:
        return _sub_sum_proof(sub, classes, reps, indec, chains, widths)
    exact = mv.complete and mv.certified
    allv = exact and not any(mv.head_non_vertices)
    return GeometryProof(mv.count, exact, "minkowski_vertices", classes, reps, allv,
                         sorted(indec), minkowski=mv,
                         chains=chains, width_functionals=widths, points=fpts)


def _factor_vertices(ds: DirectSum, fpts: list) -> tuple[list, int]:
    """Per factor of a direct sum, its decided points (None: a simplex) and the count."""
    fv: list[HeadVertices | None] = []
    total = 1
    for basis, pts in zip(ds.bases, fpts):
        if len(basis) == len(pts) - 1:
            fv.append(None)                       # a simplex: every point is a vertex
            total *= len(pts)
        else:
            hv = classify_points(pts)
            fv.append(hv)
            total *= len(hv.vertices)
    return fv, total


def _sub_sum(fpts: list, pts_all: list, reps: list):
    """``(kept factor indices, DirectSum, points, count, vertices)`` of the best direct
    sub-sum found (:func:`attnproof.geometry.direct_sum.direct_sub_sum`), or None.

    The checker restricts the bound factors to the kept ones and re-derives their
    points on the x-variables that vary over them: the proof is on that projection
    (dropping coordinates constant on every kept head keeps each head's point order,
    bases and relations)."""
    found = direct_sub_sum(fpts)
    if found is None or len(found[0]) == len(fpts):
        return None
    S, ds = found
    coords = varying_coordinates(*[pts_all[reps[i]] for i in S])
    pts = [project(pts_all[reps[i]], coords) for i in S]
    fv, total = _factor_vertices(ds, pts)
    return S, ds, pts, total, fv


def _minkowski_sub_sum(fpts: list, pts_all: list, reps: list, max_candidates: int,
                       progress: Progress, mapper: MapTasks | None):
    """``(kept factor indices, MinkowskiVertices, points, count, None)``: the exact vertex
    count (Lemma 9.4, with Gordan certificates) of the sum of the factors with the most
    points, as many as keep the product of their point counts within ``max_candidates``
    (at least two), or None.  A sub-sum's count bounds every fusion (§6.14).  When the
    checker's work on its vertex list would pass :data:`MINKOWSKI_SUB_SUM_WORK`, the list
    is cut there (a partial count: verified vertices of the sub-sum, still a bound)."""
    order = sorted(range(len(fpts)), key=lambda i: (-len(fpts[i]), i))
    S, prod = [], 1
    for i in order:
        if prod * len(fpts[i]) > max_candidates:
            break
        S.append(i)
        prod *= len(fpts[i])
    if len(S) < 2:
        return None
    S.sort()
    coords = varying_coordinates(*[pts_all[reps[i]] for i in S])
    pts = [project(pts_all[reps[i]], coords) for i in S]
    mv = minkowski_vertices(pts, complete=True, progress=progress, mapper=mapper)
    if not (mv.complete and mv.certified):
        return None
    # the checker pays every listed vertex against every point of the kept heads: past
    # its share of the work budget the list is cut, a verified part of the sub-sum's count
    per = sum(len(p) for p in pts) * max(len(pts[0][0]), 1)
    keep = MINKOWSKI_SUB_SUM_WORK // per
    if keep < 1:
        return None
    if mv.count > keep:
        mv.vertices = mv.vertices[:keep]
        mv.complete = mv.certified = False
        mv.non_vertices = []
        mv.head_non_vertices = [[] for _ in pts]
    return S, mv, pts, mv.count, None


def _sub_sum_proof(sub, classes, reps, indec, chains, widths) -> GeometryProof:
    S, ds, pts, total, fv = sub
    if isinstance(ds, MinkowskiVertices):
        return GeometryProof(total, False, "sub_sum", classes, reps, False, sorted(indec),
                             chains=chains, width_functionals=widths, points=pts, minkowski=ds,
                             sub_sum=list(S))
    return GeometryProof(total, False, "sub_sum", classes, reps, False, sorted(indec),
                         chains=chains, width_functionals=widths, points=pts, direct_sum=ds,
                         factor_vertices=fv, sub_sum=list(S))


def _prod(xs) -> int:
    out = 1
    for x in xs:
        out *= x
    return out
