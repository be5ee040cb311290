"""Graph sums ``W_G``: the two Tutte evaluations and the minor bounds of THEORY §13.

A *multigraph* here is a dict ``{(u, v): m}`` with ``u < v`` (integer node labels,
``m ≥ 1`` parallel edges); it stands for ``Q_G = Π (1 + x^{e_u − e_v})^m``.  Nodes
are the coordinates of the problem plus one *ground* node (label ``dim``) for the
factors ``1 + x_u`` (THEORY §4, dehomogenized).

* :func:`acyclic_orientations` is ``T_G(2,0)``, the vertices of ``Newt(Q_G)`` (the
  Newton bound); :func:`forests` is ``T_G(2,1) = |supp Q_G|``, the atoms of the
  fusion ``Q_G`` itself.  Both by deletion-contraction over parallel classes with
  memoization, multiplied over connected components.
* :func:`minor_bound` proves a lower bound for ``m'(G)`` (THEORY §13: the fewest
  points of a positive multiple of ``Q_G``) from the minor lemmas of docs/theory.md
  §13 (fibers, odd contraction, cycles, Descartes), and returns the proof term that
  the checker's ``graph_minors`` rule (docs/certificates.md §6.15) re-verifies.

>>> K4 = {(0, 1): 1, (0, 2): 1, (0, 3): 1, (1, 2): 1, (1, 3): 1, (2, 3): 1}
>>> acyclic_orientations(K4), forests(K4), minor_bound(K4)[0]
(24, 38, 28)
>>> C5 = {(0, 1): 1, (1, 2): 1, (2, 3): 1, (3, 4): 1, (0, 4): 1}
>>> acyclic_orientations(C5), forests(C5), minor_bound(C5)[0]
(30, 31, 31)
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

__all__ = ["Multigraph", "graph_of_factors", "graph_of_heads", "graph_of_lower_bound",
           "graph_report", "contract", "restrict", "acyclic_orientations",
           "forests", "minor_bound", "tutte_counts", "MAX_SEARCH_NODES"]

Multigraph = dict          # {(u, v): multiplicity}, u < v
MAX_SEARCH_NODES = 6       # above this, the fiber lemma is tried on the blocks only
MAX_MINOR_EDGES = 64       # minor_bound_within gives up on larger graphs


def _pair(u: int, v: int) -> tuple:
    return (u, v) if u < v else (v, u)


def graph_of_factors(polys: list, mults: list, dim: int) -> Multigraph | None:
    """The multigraph of the factors ``x_u + x_v`` (and ``1 + x_u``: node ``dim``), or None
    when no factor has that form; other factors are skipped.

    >>> graph_of_factors([{((0, 1),): 1, ((1, 1),): 1}, {(): 1, ((1, 1),): 1}], [1, 2], 2)
    {(0, 1): 1, (1, 2): 2}
    """
    G: dict = {}
    for f, m in zip(polys, mults):
        if len(f) != 2:
            continue
        (a, ca), (b, cb) = f.items()
        if ca != 1 or cb != 1:
            continue
        diff = dict(b)                    # the exponent difference b - a (its sign is free)
        for v, e in a:
            x = diff.get(v, 0) - e
            if x:
                diff[v] = x
            else:
                del diff[v]
        if len(diff) == 2:
            (u, xu), (v, xv) = sorted(diff.items())
            if xu + xv or abs(xu) != 1 or v >= dim:
                continue
        elif len(diff) == 1:
            ((u, xu),) = diff.items()
            if abs(xu) != 1 or u >= dim:
                continue
            v = dim
        else:
            continue
        p = _pair(u, v)
        G[p] = G.get(p, 0) + m
    return dict(sorted(G.items())) if G else None


def contract(G: Multigraph, A) -> Multigraph:
    """``G/A``: the nodes joined by the pairs ``A`` merged (each component is named by its
    least node), loops dropped, parallel edges added up.

    >>> contract({(0, 1): 1, (1, 2): 1, (0, 2): 1}, [(0, 1)])
    {(0, 2): 2}
    """
    parent: dict = {}

    def find(x: int) -> int:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for u, v in A:
        ru, rv = find(u), find(v)
        if ru != rv:
            parent[max(ru, rv)] = min(ru, rv)
    out: dict = {}
    for (u, v), m in G.items():
        ru, rv = find(u), find(v)
        if ru != rv:
            p = _pair(ru, rv)
            out[p] = out.get(p, 0) + m
    return dict(sorted(out.items()))


def restrict(G: Multigraph, A) -> Multigraph:
    """``G|A``: the parallel classes of the pairs ``A`` only.

    >>> restrict({(0, 1): 2, (1, 2): 1}, [(0, 1)])
    {(0, 1): 2}
    """
    keep = set(A)
    return {p: m for p, m in G.items() if p in keep}


def _canon(G: Multigraph) -> tuple:
    nodes = sorted({v for p in G for v in p})
    ix = {v: i for i, v in enumerate(nodes)}
    return tuple(sorted(((ix[u], ix[v]), m) for (u, v), m in G.items()))


def _components(G: Multigraph) -> list:
    parent: dict = {}

    def find(x):
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for u, v in G:
        parent.setdefault(u, u)
        parent.setdefault(v, v)
        ru, rv = find(u), find(v)
        if ru != rv:
            parent[ru] = rv
    comps: dict = {}
    for p, m in G.items():
        comps.setdefault(find(p[0]), {})[p] = m
    return list(comps.values())


@lru_cache(maxsize=1 << 16)
def _dc(key: tuple, x: int) -> int:
    """``T_G(2, x)`` for ``x ∈ {0, 1}`` by deletion-contraction on the last parallel class:
    forests (``x = 1``) take none or one of its ``m`` edges, ``F = F(G∖c) + m·F(G/c)``;
    acyclic orientations (``x = 0``) see only the simple graph, ``A = A(G∖c) + A(G/c)``."""
    G = dict(key)
    if not G:
        return 1
    comps = _components(G)
    if len(comps) > 1:
        out = 1
        for c in comps:
            out *= _dc(_canon(c), x)
        return out
    (p, m) = max(G.items(), key=lambda t: (t[0][1], t[0][0]))
    rest = {q: k for q, k in G.items() if q != p}
    if not rest:                         # one parallel class: T(2, x) of m parallel edges
        return 1 + m if x else 2
    return _dc(_canon(rest), x) + (m if x else 1) * _dc(_canon(contract(G, [p])), x)


MAX_DC_EDGES = 40          # deletion-contraction on a block with more edges is refused


def _is_forest(G: Multigraph) -> bool:
    """One edge per class and no cycle (union-find): then both counts are ``2^|E|``."""
    parent: dict = {}

    def find(x):
        while parent.get(x, x) != x:
            parent[x] = x = parent.get(parent[x], parent[x])
        return x

    for (u, v), m in G.items():
        ru, rv = find(u), find(v)
        if m != 1 or ru == rv:
            return False
        parent[ru] = rv
    return True


def _by_blocks(G: Multigraph, xs: tuple) -> tuple:
    """``T_G(2, x)`` for each ``x`` in ``xs`` as a product over blocks: a lone class of
    ``m`` edges is ``1 + m`` or 2, a cycle ``2^n − 1`` or ``2^n − 2``, another block by
    deletion-contraction; a forest is ``2^|E|`` at once."""
    if _is_forest(G):
        return tuple(1 << len(G) for _ in xs)
    import networkx as nx

    out = [1] * len(xs)
    for blk in nx.biconnected_component_edges(nx.Graph(list(G))):
        B = {p: G[p] for p in {_pair(a, b) for a, b in blk}}
        n = _is_cycle(B)
        if len(B) > MAX_DC_EDGES and not n:
            from ..errors import LimitError

            raise LimitError(f"a block of the graph has {len(B)} edge classes, over the "
                             f"{MAX_DC_EDGES} that deletion-contraction counts")
        for i, x in enumerate(xs):
            if n:
                out[i] *= (1 << n) - (1 if x else 2)
            elif len(B) == 1:
                out[i] *= (1 + next(iter(B.values()))) if x else 2
            else:
                out[i] *= _dc(_canon(B), x)
    return tuple(out)


def acyclic_orientations(G: Multigraph) -> int:
    """``T_G(2,0)``: acyclic orientations of the underlying simple graph, the vertices of
    the graphic zonotope ``Newt(Q_G)`` (THEORY Lemma 7; multiplicities do not matter).

    >>> acyclic_orientations({(0, 1): 3, (1, 2): 1, (0, 2): 1})
    6
    """
    return _by_blocks(G, (0,))[0] if G else 1


def forests(G: Multigraph) -> int:
    """``T_G(2,1)``: forests of the multigraph (parallel copies distinct), ``|supp Q_G|``.

    >>> forests({(0, 1): 1, (1, 2): 1, (0, 2): 1}), forests({(0, 1): 2})
    (7, 3)
    """
    return _by_blocks(G, (1,))[0] if G else 1


def tutte_counts(G: Multigraph) -> dict:
    """The two evaluations the commands report: ``{"acyclic_orientations", "forests"}``.

    >>> tutte_counts({(0, 1): 1, (1, 2): 1})
    {'acyclic_orientations': 4, 'forests': 4}
    """
    if not G:
        return {"acyclic_orientations": 1, "forests": 1}
    a, f = _by_blocks(G, (0, 1))
    return {"acyclic_orientations": a, "forests": f}


def _is_cycle(G: Multigraph) -> int:
    """The length of ``G`` when it is one simple cycle on at least 3 nodes, else 0."""
    if any(m != 1 for m in G.values()) or len(G) < 3:
        return 0
    deg: dict = {}
    for u, v in G:
        deg[u] = deg.get(u, 0) + 1
        deg[v] = deg.get(v, 0) + 1
    if set(deg.values()) != {2} or len(_components(G)) != 1:
        return 0
    return len(G)


def _flats(G: Multigraph) -> list:
    """Candidate pair sets ``A`` for the fiber lemma: single classes, and the pairs inside
    each connected proper node subset (the blocks among them).  Above
    ``MAX_SEARCH_NODES`` nodes only the block of the least edge, when there are two or
    more blocks (the product over blocks, one block at a time)."""
    nodes = sorted({v for p in G for v in p})
    if len(nodes) > MAX_SEARCH_NODES:
        import networkx as nx

        first = min(G)
        for blk in nx.biconnected_component_edges(nx.Graph(list(G))):
            A = sorted({_pair(a, b) for a, b in blk})
            if first in A:
                return [A] if len(A) < len(G) else []
        return []
    out = [[p] for p in G]
    for r in range(3, len(nodes)):
        for U in combinations(nodes, r):
            Us = set(U)
            A = [p for p in G if p[0] in Us and p[1] in Us]
            if len(A) >= 2 and len(_components({p: 1 for p in A})) == 1 and len(
                    {v for p in A for v in p}) == r:
                out.append(A)
    return out


LEMMAS = frozenset({"newton", "parallel", "cycle", "fiber", "odd"})


def _options(G: Multigraph, value, lemmas: frozenset = LEMMAS) -> list:
    """Every way the lemmas bound ``G``: ``(value, term, sub-graphs)`` with the term's
    children to fill in; ``value`` gives the bound of a smaller graph."""
    if not G:
        return [(1, {"by": "newton"}, [])]
    opts: list[tuple[int, dict[str, object], list[tuple[str, Multigraph]]]] = [
        (acyclic_orientations(G), {"by": "newton"}, [])]
    if len(G) == 1:
        opts.append((1 + next(iter(G.values())), {"by": "parallel"}, []))
    n = _is_cycle(G)
    if n and "cycle" in lemmas:
        opts.append(((1 << n) - 1, {"by": "cycle"}, []))
    for A in (_flats(G) if "fiber" in lemmas else []):
        R, C = restrict(G, A), contract(G, A)
        if not C or R == G:
            continue
        opts.append((value(R) * value(C), {"by": "fiber", "edges": [list(p) for p in sorted(A)]},
                     [("restriction", R), ("contraction", C)]))
    singles = [p for p, m in G.items() if m == 1]
    if len({v for p in G for v in p}) > MAX_SEARCH_NODES or "odd" not in lemmas:
        singles = []
    for e, f in combinations(singles, 2):
        Ce, Cf = contract(G, [e]), contract(G, [f])
        B = min(value(Ce), value(Cf))
        opts.append((2 * B + (B & 1), {"by": "odd", "edges": [list(e), list(f)]},
                     [("first", Ce), ("second", Cf)]))
    return opts


@lru_cache(maxsize=1 << 14)
def _value(key: tuple, lemmas: frozenset = LEMMAS) -> int:
    G = {p: m for p, m in key}
    return max(v for v, _, _ in _options(G, lambda H: _value(_canon(H), lemmas), lemmas))


def minor_bound(G: Multigraph, lemmas: frozenset = LEMMAS) -> tuple[int, dict]:
    """A lower bound for ``m'(G)`` and its proof term (docs/certificates.md §6.15).

    The term names, at each node, the lemma used and the sub-terms of the graphs it
    refers to; pairs are written in the labels of the graph at that node (contraction
    names a merged node by its least label).

    >>> minor_bound({(0, 1): 1, (1, 2): 1, (0, 2): 1})
    (7, {'by': 'cycle'})
    >>> minor_bound({(0, 1): 2})
    (3, {'by': 'parallel'})

    ``lemmas``: the lemmas allowed (``newton`` and ``parallel`` always are); without
    ``cycle``, cycles are proven by odd contraction all the way down.

    >>> minor_bound({(0, 1): 1, (1, 2): 1, (0, 2): 1}, frozenset({"odd"}))[0]
    7
    """
    def value(H):
        return _value(_canon(H), lemmas)

    best = None
    for v, term, subs in _options(G, value, lemmas):
        if best is None or v > best[0]:
            best = (v, term, subs)
    assert best is not None
    v, term, subs = best
    term = dict(term)
    if term["by"] == "newton":          # the checker verifies the blocks, finds none
        from .zonotope import graph_hint
        term["graph_blocks"] = graph_hint(sorted(G))
    for name, H in subs:
        term[name] = minor_bound(H, lemmas)[1]
    return v, term


def minor_bound_within(G: Multigraph) -> tuple[int, dict] | None:
    """:func:`minor_bound`, or None above ``MAX_MINOR_EDGES`` edge classes or when a block
    is too large to count.

    >>> minor_bound_within({(i, i + 1): 1 for i in range(100)}) is None
    True
    """
    from ..errors import LimitError

    if len(G) > MAX_MINOR_EDGES:
        return None
    try:
        return minor_bound(G)
    except LimitError:
        return None


def graph_report(G: Multigraph | None) -> dict | None:
    """What ``bound``, ``prove`` and ``show`` report for a graph sum: nodes, edges (with
    multiplicity), the two Tutte evaluations and the minor bound; None without a graph.

    >>> graph_report({(0, 1): 1, (1, 2): 1, (0, 2): 1})
    {'nodes': 3, 'edges': 3, 'acyclic_orientations': 6, 'forests': 7, 'minor_bound': 7}
    """
    if not G:
        return None
    from ..errors import LimitError

    mb = minor_bound_within(G)
    try:
        counts = tutte_counts(G)
    except LimitError:
        counts = {"acyclic_orientations": None, "forests": None}
    return {"nodes": len({v for p in G for v in p}), "edges": sum(G.values()), **counts,
            "minor_bound": None if mb is None else mb[0]}


def graph_of_lower_bound(lb, dim: int) -> Multigraph | None:
    """The multigraph of a lower bound's certified factors ``x_u + x_v`` (path ``c1``)."""
    if getattr(lb, "path", None) != "c1" or not lb.factors:
        return None
    return graph_of_factors([f[0] for f in lb.factors], [f[1] for f in lb.factors], dim)


def graph_of_heads(M) -> Multigraph | None:
    """The multigraph of a multi-head whose heads all have two atoms with equal weights, no
    biases, and keys differing by ``±(e_u − e_v)`` or ``±e_u`` (node ``dim``): the graph of
    the heads' denominators ``x^a + x^b``, before any cancellation; else None.

    >>> from attnproof.families import graph_sum, named_graph
    >>> graph_of_heads(graph_sum(named_graph("path", 3)))
    {(0, 1): 1, (1, 2): 1}
    """
    G: dict = {}
    for h in M.heads:
        if len(h.atoms) != 2:
            return None
        a, b = h.atoms
        if a.bias or b.bias or a.weight != b.weight:
            return None
        diff = dict(a.sparse_key)
        for i, y in b.sparse_key:
            diff[i] = diff.get(i, 0) - y
        diff = {i: x for i, x in diff.items() if x}
        vals = sorted(diff.values())
        if vals == [-1, 1]:
            p = tuple(sorted(diff))
        elif len(vals) == 1 and abs(vals[0]) == 1:
            p = (next(iter(diff)), M.dim)
        else:
            return None
        G[p] = G.get(p, 0) + 1
    return dict(sorted(G.items())) if G else None
