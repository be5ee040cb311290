"""The Newton vertex lower bound of a multi-head, with everything a certificate needs.

Path C1 (structural): certified irreducible factors ``f^e`` of the reduced
denominator (:mod:`.factors`), grouped into blocks in disjoint variables
(Lemma 5, networkx components), each block counted as a zonotope (Lemma 7) or
by a verified vertex list (Lemma 6).  Path ``geometry`` (THEORY §9): every
head denominator proven absolutely irreducible from its Newton polytope,
classes of associates, then a direct sum (Lemma 9.5) or exact Minkowski
vertices (Lemma 9.4); no polynomial is expanded, factored or divided.  Path
C3: the reduced denominator ``Q`` from FLINT (trust ``exact-modulo-flint``),
counted by a vertex list.

Order: C1 when it certifies every factor; else the geometry; else C3.  Keys
whose lattice exponents are too long for polynomial algebra
(:func:`attnproof.algebra.budget.flint_obstacle`: binary floats, long
decimals) go to the geometry directly; when it cannot certify some head the
answer is the trivial bound 1, marked incomplete (never a crash).

>>> from attnproof.families import sigmoid_sum
>>> lb = lower_bound(sigmoid_sum(3))
>>> lb.value, lb.path, [b.method for b in lb.blocks], lb.tight
(8, 'c1', ['zonotope_independent', 'zonotope_independent', 'zonotope_independent'], True)
>>> lower_bound(sigmoid_sum(3), explicit=True).blocks[0].count
8
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..algebra.binomials import direction
from ..algebra.budget import flint_obstacle, head_flint_obstacle
from ..algebra.lattice import Lattice
from ..algebra.sizes import exact_product, fusion_size_bound
from ..errors import AlgebraError, LimitError
from ..fusion import DEFAULT_MAX_ATOMS, reduced_form
from ..geometry.proof import MAX_CANDIDATES, GeometryProof, geometry_proof
from ..heads import MultiHead
from ..parallel.tasks import MapTasks, Progress
from ..algebra.factors import FactorSet, surviving_factors
from .newton import independent_zonotope_functionals, minkowski_vertex, newton_vertices
from ..algebra.sparse import from_flint, head_polys, normal_form, variables, x_support
from .zonotope import (acyclic_orientations_tutte, acyclic_orientations_within, classify,
                       generator_classes,
                       graphic_edges, graphic_functionals, regions_general_position)
import flint
from ..geometry.planar import planar_vertex_count
from ..geometry import minkowski_vertices
from ..geometry.minkowski import minkowski_prefix_vertices
from ..geometry.proof import MINKOWSKI_SUB_SUM_WORK
from .floor import non_constant_witnesses
from .binomial_heads import binomial_factors

__all__ = ["Block", "LowerBound", "lower_bound", "MAX_EXPLICIT_VERTICES"]

MAX_EXPLICIT_VERTICES = 1 << 16
MAX_EXPLICIT_CANDIDATES = 1 << 20
MAX_DENSE_CELLS = 1 << 22     # factors × variables of a block handled with dense exponent vectors
# a block in at most two variables is listed vertex by vertex while it has at most this
# many candidate tuples (small and readable); beyond, it is counted as a planar sum
PLANAR_LIST_LIMIT = 1 << 10
# candidate tuples a block past MAX_EXPLICIT_CANDIDATES decides for the exact count of a sub-sum
SUB_SUM_CANDIDATES = 20_000


@dataclass
class Block:
    """Factors in a set of x variables disjoint from every other block's."""

    factors: list
    variables: list
    method: str
    count: int
    vertices: list | None = None      # [(u, c)] dense over ``variables``
    complete: bool = True             # the count is the block's full vertex count
    dropped: list = field(default_factory=list)   # factors left out: the count is a sub-sum's
    notes: list = field(default_factory=list)
    bind_dropped: bool = True         # False: a certificate does not bind the dropped factors
    graph: list | None = None         # zonotope_graphic: the counted edges (variables; ground: dim)


@dataclass
class LowerBound:
    """The proven lower bound and its evidence."""

    value: int
    path: str                          # "c1" (factor witnesses) or "c3" (FLINT gcd)
    trust: str
    factors: list = field(default_factory=list)       # (poly, multiplicity, witness, component)
    blocks: list = field(default_factory=list)
    reduced: tuple | None = None       # c3: (numerators, denominator) as sparse dicts
    tight: bool = True                 # True when the count is V(Q) itself
    notes: list = field(default_factory=list)
    geometry: GeometryProof | None = None     # path "geometry": the GeometryProof
    floor: list | None = None          # witnesses that M is not constant: the bound 1 raised to 2
    sub_sum: list | None = None        # c1: the factors the blocks count, when some are left out
    minors: dict | None = None         # c1 graph sums: the graph_minors proof term that raised
                                       # ``value`` above the count (THEORY §13)
    edges: dict | None = None          # the edge_roots step that raised ``value`` above the
                                       # count (docs/theory.md Theorem 10.1)

    @property
    def complete(self) -> bool:
        """True when every candidate was decided: the count is ``V(Q)`` itself, not a part of it."""
        return self.tight

    def __repr__(self) -> str:
        """Short: ``LowerBound(16, trust='exact', path='c1', complete=True)``."""
        return (f"LowerBound({self.value}, trust={self.trust!r}, path={self.path!r}, "
                f"complete={self.tight})")

    def _repr_latex_(self) -> str:
        """Notebooks: the bound as a formula."""
        rel = "=" if self.tight else r"\ge"
        return (rf"$\text{{atoms}} \ge V(Q) {rel} {self.value}"
                rf"\quad\text{{(trust {self.trust}, path {self.path})}}$")


def product_entries(hp: list) -> int:
    """``Π_h |supp D_h|``: the (key, bias) entries bound of the product fusion.

    >>> from attnproof.families import sigmoid_sum
    >>> product_entries(head_polys(sigmoid_sum(30)))
    1073741824
    """
    return exact_product(len(H.den) for H in hp)


def _dense(p_sparse_monos, vs: list) -> list[tuple]:
    return sorted({tuple(dict(m).get(v, 0) for v in vs) for m in p_sparse_monos})


def _x_vars(poly: dict, dim: int) -> set:
    return variables(x_support(poly, dim))


class _UnionFind:
    """Disjoint sets over hashable items (path halving, union by size)."""

    def __init__(self) -> None:
        self.parent: dict = {}
        self.size: dict = {}

    def find(self, a):
        p = self.parent
        if a not in p:
            p[a] = a
            self.size[a] = 1
            return a
        while p[a] != a:
            p[a] = p[p[a]]
            a = p[a]
        return a

    def union(self, a, b) -> bool:
        """Merge the sets of ``a`` and ``b``; False when they were already one set."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if self.size[ra] < self.size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.size[ra] += self.size[rb]
        return True


def _components(polys: list, dim: int, xvars: list | None = None) -> list[list[int]]:
    """Lemma 5: factors connected through shared x variables (union-find, linear).

    ``xvars``: the x variables of each polynomial, when already known.

    >>> _components([{((0, 1),): 1, (): 1}, {((1, 1),): 1, (): 1}, {((0, 1), (1, 1)): 1, (): 1}], 2)
    [[0, 1, 2]]
    """
    if xvars is None:
        xvars = [_x_vars(p, dim) for p in polys]
    n = len(polys)
    parent = list(range(n))             # factors 0..n-1; variable v is found through owner[v]
    owner: dict = {}

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for j, vs in enumerate(xvars):
        for v in vs:
            o = owner.get(v)
            if o is None:
                owner[v] = j
                continue
            ra, rb = find(o), find(j)
            if ra != rb:
                if ra < rb:
                    ra, rb = rb, ra
                parent[ra] = rb
    comps: dict = {}
    for j in range(n):
        comps.setdefault(find(j), []).append(j)
    return sorted(comps.values())


def _sparse_generators(polys: list, fs: list, dim: int, xs: list | None = None) -> list | None:
    """Distinct primitive zonotope generators of a block of x-binomials, as sparse
    ``((v, g_v), ...)`` tuples with the first entry positive; None unless every
    factor has exactly two x points.  Linear in the factors' sizes.

    >>> _sparse_generators([{((0, 1),): 1, ((3, 2),): 1}], [0], 5)
    [((0, 1), (3, -2))]
    """
    gens = set()
    for j in fs:
        g = _sparse_generator(xs[j] if xs is not None else x_support(polys[j], dim))
        if g is None:
            return None
        gens.add(g)
    return sorted(gens)


def _sparse_generator(support) -> tuple | None:
    """The primitive generator of one x-binomial's support, or None for another size."""
    sup = list(support)
    return direction(*sup) if len(sup) == 2 else None


def _graphic_block(fs: list, vs: list, edges: list, gen_of: dict, gens: list, dim: int) -> Block:
    """A graphic zonotope block: the acyclic orientations of its graph (Lemma 7), or of a
    chordal spanning subgraph when a block of the graph is beyond the checker's count
    (then the factors of the other edges are left out: a sub-sum, docs/theory.md F2).
    ``gen_of``: each factor's generator; ``gens[i]``: the generator of ``edges[i]``; the
    counted edges are kept for the checker's hint (nodes named by variable, the ground ``dim``)."""
    count, _, kept, notes = acyclic_orientations_within(len(vs) + 1, edges)
    if kept is None and len(edges) <= 10:
        # small graphs: cross-checked against networkx's Tutte polynomial T(2, 0)
        t = acyclic_orientations_tutte(len(vs) + 1, edges)
        if t != count:
            raise AlgebraError(f"acyclic orientation counts disagree: Tutte {t}, blocks {count}")
    names, counted = [*vs, dim], range(len(edges)) if kept is None else kept
    graph = [(names[edges[i][0]], names[edges[i][1]]) for i in counted]
    if kept is None:
        return Block(fs, vs, "zonotope_graphic", count, graph=graph)
    keep = {gens[i] for i in kept}
    return Block([j for j in fs if gen_of[j] in keep], vs, "zonotope_graphic", count,
                 complete=False, dropped=[j for j in fs if gen_of[j] not in keep], notes=notes,
                 graph=graph)


def _sparse_kind(gens: list) -> str | None:
    """``'independent'`` or ``'graphic'`` when decidable without dense vectors, else None.

    Graphic generators (``e_a``, ``e_a - e_b``) are independent iff their graph,
    with a ground node for ``e_a``, is a forest; generators with pairwise
    disjoint supports are independent.

    >>> _sparse_kind([((0, 1), (1, -1)), ((1, 1), (2, -1))]), _sparse_kind([((0, 1),), ((0, 1), (1, -1)), ((1, 1),)])
    ('independent', 'graphic')
    """
    if all(len(g) == 1 and g[0][1] == 1 or len(g) == 2 and g[0][1] == 1 and g[1][1] == -1
           for g in gens):
        uf = _UnionFind()
        for g in gens:
            b = g[1][0] if len(g) == 2 else "ground"
            if not uf.union(g[0][0], b):
                return "graphic"
        return "independent"
    seen: set = set()
    for g in gens:
        for v, _ in g:
            if v in seen:
                return None
            seen.add(v)
    return "independent"


def simplex_pivots(pts: list) -> list | None:
    """A proof that distinct sparse points are affinely independent, or None.

    With base ``p_0`` the point with fewest non-zeros (first in ``pts`` order among
    those), every other ``p_i`` must have a *private* variable: one in which
    ``p_i - p_0`` is non-zero and no other ``p_k - p_0`` is.  The difference matrix
    then has a non-zero entry alone in its column for each row, so its rows are
    independent and ``conv(pts)`` is a simplex whose vertices are all the points.
    Returns the private variable of each ``p_i`` (``i >= 1``, in ``pts`` order
    after the base is removed).  Linear in the points' sizes plus ``|pts|·|p_0|``.

    >>> simplex_pivots([(), ((0, 1),), ((5, 2),)]), simplex_pivots([((0, 1),), ((1, 1),), ((0, 1), (1, 1))])
    ([0, 5], None)
    """
    base = min(range(len(pts)), key=lambda i: len(pts[i]))
    b = dict(pts[base])
    rest = [p for i, p in enumerate(pts) if i != base]
    diffs = []
    count: dict = {}
    for p in rest:
        d = {v: -x for v, x in b.items()}
        for v, x in p:
            d[v] = x - b.get(v, 0)
        nz = [v for v, x in d.items() if x]
        diffs.append(nz)
        for v in nz:
            count[v] = count.get(v, 0) + 1
    out = []
    for nz in diffs:
        piv = [v for v in nz if count[v] == 1]
        if not piv:
            return None
        out.append(min(piv))
    return out


def _count_block(polys: list, mults: list, fs: list, dim: int, explicit: bool,
                 xs: list | None = None, xvars: list | None = None) -> Block:
    if xs is None:
        xs = [x_support(p, dim) for p in polys]
    if xvars is None:
        xvars = [variables(x) for x in xs]
    vs = sorted(xvars[fs[0]]) if len(fs) == 1 else sorted(set().union(*(xvars[j] for j in fs)))
    if not explicit:
        if len(fs) == 1 and len(xs[fs[0]]) == 2:
            # one binomial factor alone in its variables: one generator, a segment
            return Block(fs, vs, "zonotope_independent", 2)
        sgens = _sparse_generators(polys, fs, dim, xs)
        skind = _sparse_kind(sgens) if sgens is not None else None
        if sgens is not None and skind == "independent":
            return Block(fs, vs, "zonotope_independent", 2 ** len(sgens))
        if len(fs) == 1 and len(xs[fs[0]]) > 2:
            pts = sorted(xs[fs[0]])
            if simplex_pivots(pts) is not None:
                return Block(fs, vs, "simplex", len(pts))
        if sgens is not None and skind == "graphic":
            # acyclic orientations straight from the sparse generators (no dense vectors):
            # e_a - e_b is the edge {a, b}, e_a alone the edge {a, ground}
            idx = {v: i for i, v in enumerate(vs)}
            edges = [(idx[g[0][0]], idx[g[1][0]]) if len(g) == 2 else (idx[g[0][0]], len(vs))
                     for g in sgens]
            return _graphic_block(fs, vs, edges, {j: _sparse_generator(xs[j]) for j in fs}, sgens, dim)
    if len(vs) * len(fs) > MAX_DENSE_CELLS:
        raise AlgebraError(f"block with {len(fs)} factors in {len(vs)} variables is too large "
                           "for an explicit vertex list")
    pts = [(_dense(xs[j], vs), mults[j]) for j in fs]
    two = all(len(p) == 2 for p, _ in pts)
    kind = classify(generator_classes([p for p, _ in pts])) if two else None
    if kind == "independent" and not explicit:
        return Block(fs, vs, "zonotope_independent", 2 ** len(generator_classes([p for p, _ in pts])))
    if kind == "general_position" and not explicit:
        gens = generator_classes([p for p, _ in pts])
        r = flint.fmpz_mat([list(g) for g in gens]).rank()
        return Block(fs, vs, "zonotope_general_position", regions_general_position(len(gens), r),
                     complete=True)
    edges = []                         # the graph's edges when kind is "graphic"
    if kind == "graphic":
        gens = generator_classes([p for p, _ in pts])
        edges = graphic_edges(gens, len(vs))
        if not explicit:
            return _graphic_block(fs, vs, edges, {j: generator_classes([p])[0]
                                                  for j, (p, _) in zip(fs, pts)}, gens, dim)
    if not explicit and len(vs) <= 2:
        total = exact_product(len(p) for p, _ in pts)
        if total > PLANAR_LIST_LIMIT:
            # in the plane: the edges of the summands merged in angular order, O(n log n)

            return Block(fs, vs, "planar", planar_vertex_count(
                [[tuple(q) + (0,) * (2 - len(vs)) for q in p] for p, _ in pts]))
    # explicit vertex list
    if kind == "independent":
        cands = independent_zonotope_functionals(generator_classes([p for p, _ in pts]))
        complete = True
    elif kind == "graphic" and len(edges) <= 16:
        cands = graphic_functionals(len(vs), edges)
        complete = True
    else:
        # Lemma 6 / 9.4: vertex tuples of Σ e_j Newt(f_j), decided exactly (e_j P has P's normal fan)
        total = 1
        for p, _ in pts:
            total *= len(p)
        if total > MAX_EXPLICIT_CANDIDATES and not explicit and len(vs) > 2:
            return _sub_sum_block(fs, pts, xs, xvars)
        if total > MAX_EXPLICIT_CANDIDATES:
            how = ("drop --explicit" if explicit else
                   "a fixed limit of this path, no option raises it")
            raise LimitError(f"a block of {len(fs)} factors in {len(vs)} variables has {total} "
                             f"candidate vertex tuples, over the {MAX_EXPLICIT_CANDIDATES} an "
                             f"explicit vertex list decides ({how})")
        if len(vs) <= 2:
            summ = {tuple([0] * len(vs))}
            for p, e in pts:
                summ = {tuple(a + e * b for a, b in zip(s, q)) for s in summ for q in p}
            found, complete = newton_vertices(sorted(summ))
            cands = [c for _, c in found]
        else:
            mv = minkowski_vertices([p for p, _ in pts], complete=False)
            cands = [c for _, c in mv.vertices]
            complete = mv.complete
    verts: dict[tuple, tuple] = {}         # vertex -> the functional that selects it
    for c in cands:
        u = minkowski_vertex(c, pts)
        if u is None:
            raise AlgebraError("a vertex functional is not generic (internal error)")
        verts.setdefault(u, tuple(c))
    if len(verts) > MAX_EXPLICIT_VERTICES:
        how = "drop --explicit" if explicit else "a fixed limit of this path, no option raises it"
        raise LimitError(f"a block of {len(fs)} factors in {len(vs)} variables has {len(verts)} "
                         f"vertices, too many for an explicit list (limit "
                         f"{MAX_EXPLICIT_VERTICES}; {how})")
    vl = sorted(verts.items())
    return Block(fs, vs, "vertices", len(vl), vertices=vl, complete=complete)


def _sub_sum_block(fs: list, pts: list, xs: list, xvars: list) -> Block:
    """A block past the candidate budget of a complete vertex list: the exact vertices of
    a sub-sum of its factors (docs/certificates.md §6.14, the same partial answer as the
    float heads' ``_minkowski_sub_sum``).

    The factors go in by their number of points (most first, then by index) for as
    long as the output-sensitive enumeration of the partial sum
    (:func:`attnproof.geometry.minkowski.minkowski_prefix_vertices`: each level decides
    the vertices found so far times the next factor's) stays within
    :data:`SUB_SUM_CANDIDATES` decided tuples; the factors left out are ``dropped``.  The
    vertex list is cut where the checker's work on it would pass
    :data:`attnproof.geometry.proof.MINKOWSKI_SUB_SUM_WORK` (a verified part of the
    sub-sum's vertices: still a bound).  ``pts``: each factor's dense points over the
    block's variables and its multiplicity.

    A certificate binds only the kept factors (``bind_dropped`` False): the count needs
    nothing of the others, and the checker's divisibility test of each factor against
    every head (hundreds of factors times hundreds of heads) would pass its budget.
    """

    order = sorted(range(len(fs)), key=lambda i: (-len(pts[i][0]), i))
    width = len(pts[0][0][0]) if pts and pts[0][0] else 0

    def listable(k: int) -> int:
        # the checker charges every listed vertex against every point of the kept
        # factors (at most the block's variables each)
        per = sum(len(pts[i][0]) for i in order[:k]) * max(width, 1) + 2 * width
        return max(MINKOWSKI_SUB_SUM_WORK // per, 1)

    k, mv = minkowski_prefix_vertices([pts[i][0] for i in order], SUB_SUM_CANDIDATES,
                                      listable=listable)
    kept = sorted(order[:k])
    kept_fs = [fs[i] for i in kept]
    vs = sorted(set().union(*(xvars[j] for j in kept_fs)))
    block_vs = sorted(set().union(*(xvars[j] for j in fs)))
    col = [block_vs.index(v) for v in vs]
    kpts = [(_dense(xs[j], vs), pts[i][1]) for i, j in zip(kept, kept_fs)]
    verts: dict = {}
    for _, c in mv.vertices:
        ck = tuple(c[i] for i in col)      # the kept factors do not vary off their variables
        u = minkowski_vertex(ck, kpts)
        if u is None:
            raise AlgebraError("a vertex functional is not generic (internal error)")
        verts.setdefault(u, ck)
    vl = sorted(verts.items())
    dropped = [fs[i] for i in range(len(fs)) if i not in set(kept)]
    how = ("an exact sub-sum count" if mv.complete else
           "as many as the checker budget lists" if len(vl) >= listable(k) else
           "verified vertices; tuples the float LP set aside are not refuted")
    note = (f"a block of {len(fs)} factors in {len(block_vs)} variables is past a complete "
            f"vertex list: {len(vl)} vertices of the sum of {len(kept_fs)} of its factors "
            f"({how}; "
            f"{mv.candidates} candidate tuples decided)")
    if not dropped and mv.complete:     # every factor fitted: the block's own exact count
        note = (f"a block of {len(fs)} factors in {len(block_vs)} variables: {len(vl)} vertices, "
                f"counted one factor at a time ({mv.candidates} candidate tuples decided)")
    return Block(kept_fs, vs, "vertices", len(vl), vertices=vl,
                 complete=not dropped and mv.complete, dropped=dropped, notes=[note],
                 bind_dropped=False)


def _blocks(polys: list, mults: list, dim: int, explicit: bool) -> list[Block]:
    if not polys:
        return []
    xs = [x_support(p, dim) for p in polys]
    xvars = [variables(x) for x in xs]
    comps = [list(range(len(polys)))] if explicit else _components(polys, dim, xvars)
    return [_count_block(polys, mults, fs, dim, explicit, xs, xvars) for fs in comps]


def lower_bound(M: MultiHead, explicit: bool = False, max_atoms: int | None = DEFAULT_MAX_ATOMS,
                progress: Progress = None, hp: list | None = None,
                mapper: MapTasks | None = None,
                lattice: Lattice | None = None) -> LowerBound:
    """Prove ``V(Q)`` (or a verified part of it) for the multi-head ``M``.

    ``explicit`` lists every vertex in one block instead of counting blocks
    structurally.  The C3 fallback (FLINT) is used when some factor has no C1
    witness or does not survive, and the product fusion fits in ``max_atoms``.
    ``mapper`` (:class:`attnproof.parallel.tasks.MapTasks`) runs the vertex enumeration of
    the geometric path (THEORY Lemma 9.4), e.g. on Dask (:func:`attnproof.parallel.executor.mapper`).  ``lattice`` and
    ``hp`` (the lattice of ``M`` and its :func:`head_polys`), when already built.
    When the count proves only 1 and ``M`` is not constant, the non-constant
    floor (:mod:`.floor`) raises it to 2.

    >>> from attnproof.io import problem_from_dict
    >>> lb = lower_bound(problem_from_dict({"format": "attnproof-problem", "version": 1, "dim": 1,
    ...     "heads": [{"atoms": [{"key": [12345678], "value": 1}, {"key": [0], "value": 0}]},
    ...               {"atoms": [{"key": [6], "value": 1}, {"key": [0], "value": 0}]}]}))
    >>> lb.value, lb.tight, lb.floor       # 1 + x^2 divides both heads: no factor
    (2, True, [('point', {}), ('limit', {0: 1})])
    """
    lat = lattice if lattice is not None else Lattice.of(M)
    lb = _lower_bound(M, explicit, max_atoms, progress, hp, mapper, lat)
    if lb.path == "c1" and any(b.dropped for b in lb.blocks):
        # docs/certificates.md §6.14: the blocks count the factors they keep, a sub-sum
        lb.sub_sum = sorted(j for b in lb.blocks for j in b.factors)
        lb.tight = False
        lb.notes.extend(n for b in lb.blocks for n in b.notes)
        lb.notes.append(f"the lower bound counts a sub-sum ({len(lb.sub_sum)} of "
                        f"{len(lb.factors)} factors of Q): a lower bound of V(Q), not V(Q) itself")
    if lb.value == 1 and not lb.tight:
        wit = non_constant_witnesses(M, lat)
        if wit is not None:
            lb.value = 2
            lb.floor = wit
            # in one dimension Newt(Q) is a segment: V(Q) = 2 exactly when Q is no unit
            lb.tight = M.dim == 1
            lb.notes = [n.replace(": only the trivial bound 1 is proven", "")
                        for n in lb.notes if "could not be certified" not in n]
            lb.notes.append("the sum is not constant (two exact values differ): at least 2 "
                            "atoms" + ("" if lb.tight else "; the factors that would count "
                                       "more could not be certified"))
    return lb


def _lower_bound(M: MultiHead, explicit: bool, max_atoms: int | None, progress: Progress,
                 hp: list | None, mapper: MapTasks | None, lat: Lattice) -> LowerBound:
    hp = hp if hp is not None else head_polys(M, lat)       # linear in the input
    obstacle = flint_obstacle(M, lat, hp)
    if obstacle is not None and head_flint_obstacle(hp, lat) is None:
        # only the product of the heads is too long: every head denominator is within
        # reach of FLINT, and C1 certifies factor by factor without forming the product
        fs0: FactorSet = surviving_factors(M, progress, hp)
        if fs0.complete:
            polys = [f.poly for f in fs0.factors]
            blocks = _blocks(polys, [f.multiplicity for f in fs0.factors], M.dim, explicit)
            return LowerBound(exact_product(b.count for b in blocks), "c1", "exact",
                              [(f.poly, f.multiplicity, f.witness, f.residue_component)
                               for f in fs0.factors], blocks,
                              tight=all(b.complete for b in blocks))
    if obstacle is not None:
        lb = _geometric(M, progress, max_atoms, mapper)
        if lb is not None:
            lb.notes.insert(0, f"{obstacle}: exact geometry, no polynomial algebra (THEORY §9)")
            return lb
        lb = _binomial(M, hp, obstacle)      # two-key heads: Capelli and cyclotomic factors
        if lb is not None:
            return lb
        return LowerBound(1, "none", "exact", tight=False, notes=[
            f"{obstacle}, and some head denominator has no certificate of irreducibility "
            "from its Newton polytope (THEORY 9.1-9.3; an indecomposable one needs to be "
            "non-homothetic to the other classes): only the trivial bound 1 is proven"])
    fs: FactorSet = surviving_factors(M, progress, hp)
    dim = M.dim
    if not fs.complete and dim >= 3:       # in the plane an indecomposable polygon is a triangle (C1)
        lb = _geometric(M, progress, max_atoms, mapper)
        if lb is not None:
            return lb
    use_c3 = not fs.complete and (max_atoms is None or fusion_size_bound(M) <= max_atoms)
    if use_c3:
        r = reduced_form(M, max_atoms)
        if not r.is_constant():
            return _c3(M, r, explicit)
        # Q = 1: the sum is constant, one atom suffices and V(Q) = 1 is the whole count
        return LowerBound(1, "c1", "exact", tight=True, notes=[
            "the sum is constant (its reduced denominator is 1): one atom suffices"])
    polys = [f.poly for f in fs.factors]
    mults = [f.multiplicity for f in fs.factors]
    blocks = _blocks(polys, mults, dim, explicit)
    value = exact_product(b.count for b in blocks)
    tight = fs.complete and all(b.complete for b in blocks)
    notes = []
    if not fs.complete:
        notes.append(f"{len(fs.rejected)} factor(s) of the head denominators could not be "
                     "certified; the bound uses the certified ones only")
    return LowerBound(value, "c1", "exact",
                      [(f.poly, f.multiplicity, f.witness, f.residue_component) for f in fs.factors],
                      blocks, tight=tight, notes=notes)


def _binomial(M: MultiHead, hp: list, obstacle: str) -> LowerBound | None:
    """The count of the binomial heads' Capelli factors (:mod:`.binomial_heads`), or None."""

    factors, complete = binomial_factors(M, hp)
    if not factors:
        return None
    blocks = _blocks([F.poly for F in factors], [1] * len(factors), M.dim, False)
    return LowerBound(exact_product(b.count for b in blocks), "c1", "exact",
                      [(F.poly, F.multiplicity, F.witness, F.residue_component) for F in factors],
                      blocks, tight=complete, notes=[
                          obstacle, f"{len(factors)} binomial factor(s) of two-key heads "
                          "certified by Capelli's theorem and cyclotomic factorization, no FLINT"
                          + ("" if complete else "; other factors could not be certified")])


def _geometric(M: MultiHead, progress: Progress = None,
               max_atoms: int | None = DEFAULT_MAX_ATOMS,
               mapper: MapTasks | None = None) -> LowerBound | None:
    """THEORY §9: the bound from exact geometry, or None when some head is not certified.

    At most ``geometry.proof.MAX_CANDIDATES`` (and ``max_atoms``) candidate vertex
    tuples are decided; beyond, the count is a verified part of ``V(Q)``.
    """
    cap = MAX_CANDIDATES if max_atoms is None else min(max_atoms, MAX_CANDIDATES)
    gp = geometry_proof(M, progress=progress, max_candidates=cap, mapper=mapper)
    if gp is None:
        return None
    k = len(set(gp.indecomposable) & set(gp.factors))
    notes = [f"{len(gp.factors) - k} head class(es) certified irreducible"
             + (f", {k} indecomposable and pairwise non-homothetic" if k else "")
             + f"; counted by {gp.method.replace('_', ' ')}"]
    if gp.sub_sum is not None and gp.minkowski is not None:   # a sub-sum by Minkowski vertices
        notes.append(f"the Minkowski sum of the {len(gp.factors)} head classes has more "
                     f"candidate vertex tuples than the {cap} an enumeration decides (a fixed "
                     f"budget, lowered by --max-atoms): "
                     f"the bound counts "
                     + ("exactly the vertices" if gp.minkowski.complete else
                        "the vertices that the checker's work budget lets a certificate list")
                     + f" of a sub-sum of {len(gp.sub_sum)} of them (THEORY Lemma 9.4; "
                     "monotone in sub-sums: a lower bound of V(Q), not V(Q) itself)")
    elif gp.sub_sum is not None:
        notes.append(f"the heads are not in direct-sum position (THEORY Lemma 9.5): the bound "
                     f"counts the vertices of a sub-sum of {len(gp.sub_sum)} of {len(gp.factors)} "
                     "head classes that are (monotone in sub-sums: a lower bound of V(Q), not "
                     "V(Q) itself)")
    elif not gp.complete:
        notes.append("the vertex enumeration is partial (over the candidate budget, at most "
                     "--max-atoms): the bound is a verified part of V(Q)")
    return LowerBound(gp.lower, "geometry", "exact", tight=gp.complete, notes=notes, geometry=gp)


def _c3(M: MultiHead, r, explicit: bool) -> LowerBound:
    lat = r.lattice
    vs = list(range(lat.nvars))
    Q = from_flint(vs, r.Q)
    P = [from_flint(vs, p) for p in r.P]
    nQ = normal_form(Q)
    # normal_form may change the sign, the content and a monomial factor: apply the same to P

    # find the scalar s and monomial x^t with nQ = s·x^t·Q by matching the leading terms
    lead_q = max(Q, key=lambda m: tuple(dict(m).get(v, 0) for v in vs))
    lead_n = max(nQ, key=lambda m: tuple(dict(m).get(v, 0) for v in vs))
    s = Fraction(nQ[lead_n], Q[lead_q])
    t = {v: dict(lead_n).get(v, 0) - dict(lead_q).get(v, 0) for v in vs}

    def tr(p: dict) -> dict:
        out = {}
        for m, c in p.items():
            d = dict(m)
            mono = tuple((v, d.get(v, 0) + t[v]) for v in vs if d.get(v, 0) + t[v])
            out[mono] = s * c
        return out

    if tr(Q) != {m: Fraction(c) for m, c in nQ.items()}:
        raise AlgebraError("normalizing the reduced denominator failed (internal error)")
    Pn = [tr(p) for p in P]
    blocks = _blocks([nQ], [1], M.dim, True)
    value = blocks[0].count if blocks else 1
    return LowerBound(value, "c3", "exact-modulo-flint", [], blocks, reduced=(Pn, nQ),
                      tight=all(b.complete for b in blocks),
                      notes=["reduced denominator from FLINT's gcd (C3)"])
