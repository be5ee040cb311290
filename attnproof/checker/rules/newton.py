"""The ``newton_blocks`` rule (§6.3 of docs/certificates.md; THEORY §4: Theorem 3, Lemmas 5-7).

Every exact fusion has denominator ``D = Q·G = R·(Q/R)·G``, so ``Newt_x(D)`` has at
least as many vertices as ``Newt_x(R)`` for the bound factors ``R = Π f_i^{e_i}``,
and every vertex needs its own atom.  The count is a product over blocks in
disjoint variables (Lemma 5), each block by a verified vertex list (Lemma 6), a
simplex, or a zonotope count (Lemma 7; graphic zonotopes in :mod:`.graphs`).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

from .. import poly as P
from ..limits import MAX_GRAPH_NODES, MAX_SUBSETS
from ..linalg import product, rank
from ..syntax import Reject, Unsupported, fields, integer
from .graphs import GraphTooLarge, acyclic_orientations, read_hint
from .planar import planar_block
from .state import State, primitive, x_points


_EXTRA = {"vertices": {"vertices"}, "zonotope_graphic": {"graph_blocks"}}


def _block_count(st: State, blk: dict, fs: list, bv: set, where: str) -> int:
    dim, bud, method = st.pb.dim, st.budget, blk.get("method")
    kind = method if isinstance(method, str) else ""        # a JSON list or object: unhashable
    fields(blk, {"factors", "method"} | _EXTRA.get(kind, set()), set(), where)
    count = _COUNTS.get(kind)
    if count is not None:
        return count(st, blk, fs, sorted(bv), where)
    if method not in ("zonotope_independent", "zonotope_graphic", "zonotope_general_position"):
        raise Reject(f"{where}: unknown block method {method!r}")
    classes = set()
    for j in fs:
        fp = {tuple(pr for pr in m if pr[0] < dim) for m in st.factors[j][0]}
        if len(fp) != 2:
            raise Reject(f"{where}: factor {j} is not a binomial in the x variables")
        bud.charge(P.size(fp), "zonotope generators")
        if len(fs) == 1 and method == "zonotope_independent":
            bud.charge(1 + len(bv), "an exact rank")
            return 2                  # one generator, non-zero: the points differ
        classes.add(primitive(P.mono_div(*fp)))     # primitive: either order
    pos = {v: i for i, v in enumerate(sorted(bv))}
    rows = [{pos[v]: x for v, x in g} for g in sorted(classes)]
    n = len(rows)
    if method == "zonotope_independent":
        if rank(rows, bud) != n:
            raise Reject(f"{where}: the zonotope generators are not linearly independent")
        return 2 ** n
    if method == "zonotope_general_position":
        # n central hyperplanes in general position in rank r (every r of the
        # normals independent) cut space into 2·Σ_{i<r} C(n-1, i) regions
        r = rank(rows, bud)
        if r == n:
            raise Reject(f"{where}: independent generators: use zonotope_independent")
        # rank <= 2 needs nothing more: the classes are distinct primitive directions
        # up to sign, any two independent
        if r > 2 and comb(n, r) > MAX_SUBSETS:
            raise Unsupported(f"{where}: general position of {n} generators: {comb(n, r)} ranks (limit {MAX_SUBSETS})")
        if r > 2 and any(rank(list(sub), bud) != r for sub in combinations(rows, r)):
            raise Reject(f"{where}: the generators are not in general position")
        return 2 * sum(comb(n - 1, i) for i in range(r))
    # graphic: the acyclic orientations of the generators' graph, from the producer's
    # graph_blocks (verified by graphs.acyclic_orientations); generator e_a - e_b is
    # the edge {a, b}, e_a alone is {a, ground}, ground = len(pos)
    if any(sorted(g.values()) not in ([1], [-1], [-1, 1]) for g in rows):
        raise Reject(f"{where}: a generator is not graphic (not one +1 and one -1, nor a single ±1)")
    edges = [tuple([*sorted(g), len(pos)][:2]) for g in rows]
    # general blocks: at most MAX_GRAPH_NODES nodes, every step of the recurrence charged
    try:
        bud.charge(n + len(pos) + 1, "counting acyclic orientations")
        blocks = read_hint(blk["graph_blocks"], {**pos, dim: len(pos)}, where)
        return acyclic_orientations(len(pos) + 1, edges, blocks, max_general=MAX_GRAPH_NODES, budget=bud)
    except GraphTooLarge as e:
        raise Unsupported(f"{where}: {e}") from None


def _vertices_count(st: State, blk: dict, fs: list, bvars: list, where: str) -> int:
    """A ``vertices`` block: each listed vertex verified by its functional (Lemma 6)."""
    dim, bud, n, prev = st.pb.dim, st.budget, len(bvars), None
    pos = {v: i for i, v in enumerate(bvars)}
    ents = blk["vertices"]
    if not isinstance(ents, list) or not ents:
        raise Reject(f"{where}: 'vertices' must be a non-empty list of [u, c]")
    pts = [(x_points(st.factors[j][0], dim), st.factors[j][1]) for j in fs]
    per_vertex = sum(P.size(dict.fromkeys(fp)) for fp, _ in pts) + 2 * len(bvars)
    for k, ent in enumerate(ents):
        w = f"{where}, vertex {k}"
        bud.charge(per_vertex, "checking vertices")
        if not isinstance(ent, list) or len(ent) != 2 or not all(
                isinstance(v, list) and len(v) == n for v in ent):
            raise Reject(f"{w}: expected [u, c], two lists of {n} integers")
        u, c = ([integer(x, f"{w}, {name}") for x in xs] for name, xs in zip("uc", ent))
        if prev is not None and not u > prev:
            raise Reject(f"{w}: vertices must be strictly increasing")
        prev = u
        # Lemma 6: c must have a unique maximizer u_j on every factor; then
        # Σ e_j·u_j is the unique maximizer of c on Newt_x(R_block), a vertex.
        tot: Counter = Counter()
        for fp, e in pts:
            # a variable outside the block is constant on supp f (a monomial factor,
            # as generic_heads binds D_h): it shifts every value alike
            vals = [sum(c[pos[v]] * x for v, x in p if v in pos) for p in fp]
            if vals.count(max(vals)) != 1:
                raise Reject(f"{w}: the functional has several maximizers on a factor")
            tot.update({v: e * x for v, x in fp[vals.index(max(vals))]})
        if any(tot.get(v, 0) != u[i] for i, v in enumerate(bvars)):
            raise Reject(f"{w}: the functional selects another point than the listed vertex")
    return len(ents)


def _simplex_count(st: State, blk: dict, fs: list, bvars: list, where: str) -> int:
    """A block of one factor whose x-support is affinely independent: every point is
    a vertex of its (multiple of a) simplex.  Affine independence by private
    variables: with base ``p_0`` the point with fewest non-zeros (the first such in
    sorted order), each other ``p_i - p_0`` has a non-zero coordinate that no other
    difference has, so the difference rows are independent.  Sparse, linear.

    >>> st = State(None); st.factors = [({(): 1, ((0, 1),): 1, ((4, 2),): 1}, 1)]
    >>> st.pb = type("Pb", (), {"dim": 5})()
    >>> _simplex_count(st, {"factors": [0], "method": "simplex"}, [0], [0, 4], "b")
    3
    """
    if len(fs) != 1:
        raise Reject(f"{where}: a simplex block has exactly one factor")
    pts = sorted({tuple((v, e) for v, e in m if v < st.pb.dim) for m in st.factors[fs[0]][0]})
    if len(pts) < 3:
        raise Reject(f"{where}: a simplex block needs at least 3 points (a binomial is a zonotope)")
    base = min(range(len(pts)), key=lambda i: len(pts[i]))
    b = dict(pts[base])
    diffs = [[v for v, x in ({v: -x for v, x in b.items()} | {v: x - b.get(v, 0) for v, x in p}).items() if x]
             for i, p in enumerate(pts) if i != base]
    seen = Counter(v for nz in diffs for v in nz)
    for k, nz in enumerate(diffs):
        if not any(seen[v] == 1 for v in nz):
            raise Reject(f"{where}: point {k + 1} of the support has no private variable "
                         "(affine independence not shown)")
    return len(pts)


def rule_newton_blocks(st: State, step: dict, where: str) -> None:
    """Lower bound: the vertices of ``Newt_x(R)``, a product over blocks (Lemma 5)."""
    fields(step, {"rule", "blocks"}, set(), where)
    if st.lower is not None:
        raise Reject(f"{where}: a second newton_blocks step")
    if not isinstance(step["blocks"], list):
        raise Reject(f"{where}: blocks must be a list")
    seen, used_vars, counts, prev_first = [], set(), [], -1  # type: list, set, list, int
    for b_i, blk in enumerate(step["blocks"]):
        w = f"{where}, block {b_i}"
        if not isinstance(blk, dict) or not isinstance(blk.get("factors"), list) or not blk["factors"]:
            raise Reject(f"{w}: a block has a non-empty 'factors' list")
        fs = [integer(j, f"{w}, factors", 0) for j in blk["factors"]]
        if any(b <= a for a, b in zip(fs, fs[1:])):
            raise Reject(f"{w}: factor indices must be strictly increasing")
        if fs[0] <= prev_first:
            raise Reject(f"{w}: blocks must be ordered by their first factor")
        prev_first = fs[0]
        if fs[-1] >= len(st.factors):
            raise Reject(f"{w}: factor {fs[-1]} does not exist")
        st.budget.charge(len(fs), "newton blocks")
        bv = set().union(*(st.factor_xvars(j) for j in fs))
        if bv & used_vars:
            raise Reject(f"{w}: shares x variables with an earlier block")
        used_vars |= bv
        seen.extend(fs)
        counts.append(_block_count(st, blk, fs, bv, w))
    if sorted(seen) != list(range(len(st.factors))):
        raise Reject(f"{where}: the blocks must partition the factors exactly once")
    st.lower = product(counts)

_COUNTS = {"vertices": _vertices_count, "simplex": _simplex_count, "planar": planar_block}

# rule name -> (function, phase)
RULES = {
    "newton_blocks": (rule_newton_blocks, 1),
}
