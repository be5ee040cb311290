"""Zonotope counts for products of binomials (THEORY §4, Lemma 7).

When every factor of a block has two points in its x-support, ``Newt_x`` of
the block is the zonotope ``Σ m_j [0, g_j]`` and its vertices are the
regions of the central arrangement ``{g_j^⊥}`` (parallel generators merged).

>>> gens = generator_classes([[(0, 0), (1, 0)], [(0, 0), (0, 1)], [(1, 0), (0, 1)]])
>>> gens, classify(gens)
([(0, 1), (1, -1), (1, 0)], 'graphic')
>>> graphic_edges(gens, 2)
[(1, 2), (0, 1), (0, 2)]
>>> acyclic_orientations_tutte(3, [(1, 2), (0, 1), (0, 2)])
6
"""

from __future__ import annotations

from itertools import combinations, product
from math import comb, factorial, gcd
from typing import Sequence

import flint

from ..errors import LimitError

__all__ = ["elimination_order", "graph_hint", "primitive", "generator_classes", "classify", "graphic_edges", "count_acyclic_orientations",
           "acyclic_orientations_within", "chordal_spanning_subgraph", "checker_general_steps",
           "acyclic_orientations_tutte", "acyclic_orientations_brute", "graphic_functionals",
           "regions_general_position"]


def primitive(g: Sequence[int]) -> tuple:
    """Primitive integer direction of ``g`` with first non-zero entry positive.

    >>> primitive((0, -3, 6))
    (0, 1, -2)
    """
    k = 0
    for x in g:
        k = gcd(k, x)
    first = next(x for x in g if x)
    s = 1 if first > 0 else -1
    return tuple(s * x // k for x in g)


def generator_classes(two_point_sets: Sequence[Sequence[tuple]]) -> list[tuple]:
    """Distinct primitive directions ``g_j`` of two-point supports, sorted."""
    return sorted({primitive([a - b for a, b in zip(max(s), min(s))]) for s in two_point_sets})


def classify(gens: Sequence[tuple], max_subsets: int = 20000) -> str | None:
    """``'independent'``, ``'graphic'`` (``±e_a`` or ``±(e_a - e_b)``),
    ``'general_position'`` (every ``rank`` of them independent) or None.

    >>> classify([(1, 0), (0, 1), (1, -1)]), classify([(1, 0), (0, 1), (1, 2)])
    ('graphic', 'general_position')
    """
    if not gens:
        return "independent"
    r = flint.fmpz_mat([list(g) for g in gens]).rank()
    if r == len(gens):
        return "independent"
    if all(sorted(x for x in g if x) in ([1], [-1], [-1, 1]) for g in gens):
        return "graphic"
    if r <= 2:
        # distinct primitive directions (first non-zero entry positive) are pairwise
        # independent: in rank <= 2 they are always in general position
        return "general_position"
    if comb(len(gens), r) <= max_subsets and all(
            flint.fmpz_mat([list(g) for g in sub]).rank() == r for sub in combinations(gens, r)):
        return "general_position"
    return None


def graphic_edges(gens: Sequence[tuple], nvars: int) -> list[tuple[int, int]]:
    """Edges of the graph of a graphic arrangement; node ``nvars`` is the ground."""
    edges = []
    for g in gens:
        nz = [i for i, x in enumerate(g) if x]
        edges.append((nz[0], nvars) if len(nz) == 1 else (nz[0], nz[1]))
    return edges


def acyclic_orientations_tutte(n: int, edges) -> int:
    """Acyclic orientations as ``T_G(2, 0)`` from networkx's Tutte polynomial."""
    import networkx as nx
    import sympy

    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    T = nx.tutte_polynomial(G)
    return int(sympy.sympify(T).subs({sympy.Symbol("x"): 2, sympy.Symbol("y"): 0}))


GENERAL_STEPS = 400_000     # operations of the checker's count of general blocks, in all
_PRIMES = (2_147_483_647, 2_147_483_629)     # two primes below 2^31: int64 products, CRT


def _neighbour_masks(nodes, adj) -> list[int]:
    """Per node (in the order of ``nodes``), the bitmask of its neighbours' positions.

    >>> _neighbour_masks([0, 1, 2], {0: {1}, 1: {0, 2}, 2: {1}})
    [2, 5, 2]
    """
    pos = {v: i for i, v in enumerate(nodes)}
    nbr = [0] * len(nodes)
    for v in nodes:
        for w in adj[v]:
            nbr[pos[v]] |= 1 << pos[w]
    return nbr


def acyclic_orientations_independence(nodes: list, adj: dict) -> int:
    """Acyclic orientations of a graph from its independence polynomials (numpy).

    ``χ_G(k) = Σ_{X⊆V} (-1)^{|V∖X|} [z^n] I_X(z)^k`` (ranked inclusion-exclusion over
    ordered partitions into ``k`` independent sets; ``I_X`` is the independence
    polynomial of ``G[X]``, ``I_X(0) = 1``), so by Stanley's ``a(G) = (-1)^n χ_G(-1)``:
    ``a(G) = Σ_X (-1)^{|X|} [z^n] 1 / I_X(z)``.  All ``2^n`` polynomials at once, modulo
    two primes (the count is below ``n! < 2^62``), joined by the Chinese remainder
    theorem: ``2^n·(n+1)^2`` operations.  A different formula from the checker's
    recurrence on sinks, so that the two sides do not share a bug.

    >>> acyclic_orientations_independence([0, 1, 2], {0: {1, 2}, 1: {0, 2}, 2: {0, 1}})
    6
    >>> acyclic_orientations_independence([0, 1, 2, 3], {0: {1, 3}, 1: {0, 2}, 2: {1, 3}, 3: {0, 2}})
    14
    """
    import numpy as np

    n = len(nodes)
    nbr = _neighbour_masks(nodes, adj)
    size = 1 << n
    parity = np.zeros(size, dtype=np.int64)
    for v in range(n):
        parity[1 << v:2 << v] = parity[:1 << v] ^ 1
    out = []
    for p in _PRIMES:
        ind = np.zeros((size, n + 1), dtype=np.int64)   # coefficients of I_X, X by bitmask
        ind[0, 0] = 1
        for v in range(n):       # X with top vertex v: I_X = I_{X-v} + z·I_{(X-v) minus N(v)}
            low = np.arange(1 << v, dtype=np.int64)
            ind[(1 << v) + low] = ind[low]
            ind[(1 << v) + low, 1:] = (ind[(1 << v) + low, 1:] + ind[low & ~nbr[v], :-1]) % p
        inv = np.zeros((size, n + 1), dtype=np.int64)   # 1 / I_X as a power series
        inv[:, 0] = 1
        for k in range(1, n + 1):
            acc = np.zeros(size, dtype=np.int64)
            for j in range(1, k + 1):
                acc = (acc + ind[:, j] * inv[:, k - j]) % p
            inv[:, k] = (-acc) % p
        top = inv[:, n]
        out.append(int((top[parity == 0].sum() - top[parity == 1].sum()) % p))
    (r1, p1), (r2, p2) = zip(out, _PRIMES)
    return r1 + p1 * ((r2 - r1) * pow(p1, -1, p2) % p2)


def checker_general_steps(nodes: list, adj: dict) -> int:
    """Operations the checker's recurrence on sinks takes on one general block (numpy).

    ``attnproof.checker.rules.graphs`` counts a block that is neither complete, a
    cycle nor chordal by ``a(S) = Σ_{∅≠I⊆S independent} ± a(S∖I)`` over the connected
    sets ``S`` it reaches, charging one operation per node of its enumeration of the
    independent subsets of ``S``: ``Σ_{pos=0}^{|S|} i(S_pos)``, with ``S_pos`` the
    ``pos`` smallest nodes of ``S`` and ``i`` the number of independent subsets
    (the empty one included).  Removing a non-empty independent set from a connected
    set and splitting into components reaches every connected subset, so the sum runs
    over all of them: ``2^m·m`` array operations, whatever the checker's cost.

    >>> checker_general_steps([0, 1, 2, 3], {0: {1, 3}, 1: {0, 2}, 2: {1, 3}, 3: {0, 2}})
    99
    """
    import numpy as np

    n = len(nodes)
    nbr = _neighbour_masks(nodes, adj)
    size = 1 << n
    S = np.arange(size, dtype=np.int64)
    ind = np.zeros(size, dtype=np.int64)         # independent subsets of X, X by bitmask
    ind[0] = 1
    reach_of = np.zeros(size, dtype=np.int64)    # the neighbours of X
    for v in range(n):
        low = np.arange(1 << v, dtype=np.int64)
        ind[(1 << v) + low] = ind[low] + ind[low & ~nbr[v]]
        reach_of[(1 << v) + low] = reach_of[low] | nbr[v]
    comp = S & -S                                # grows to the component of the lowest node
    for _ in range(n):
        comp = (reach_of[comp] | comp) & S
    connected = (comp == S) & (S != 0)
    cost = np.ones(size, dtype=np.int64)         # the root of the enumeration
    for v in range(n):
        has = (S >> v) & 1 == 1
        cost[has] += ind[S[has] & ((2 << v) - 1)]
    return int(cost[connected].sum())


def chordal_spanning_subgraph(nodes: list, adj: dict, core: list | None = None
                              ) -> tuple[list, int]:
    """A spanning subgraph of a connected graph, chordal outside ``core``, and the factor
    its chordal part multiplies the acyclic orientations by.

    Built by adding one vertex at a time adjacent to a clique of what is built (a
    simplicial vertex, so the reverse order is a perfect elimination ordering): each
    step adds the vertex with the largest such clique among its neighbours.  A
    vertex added next to a clique ``K`` multiplies ``χ`` by ``k − |K|``, so the factor
    is ``Π (1 + |K_v|)``.  With a ``core``, its vertices come first, each a clique of
    its own (its edges are not returned): every other vertex then hangs in a tree
    of cliques from one core vertex, so ``core`` stays a block of its own and the
    count is ``a(core) · Π (1 + |K_v|)``.  Deleting an edge never adds acyclic
    orientations (``a(G) = a(G − e) + a(G / e)``), and the subgraph's factors are a
    sub-sum (docs/theory.md Lemma F2): its count bounds the whole graph's from below.

    >>> E, a = chordal_spanning_subgraph([0, 1, 2, 3], {0: {1, 3}, 1: {0, 2}, 2: {1, 3}, 3: {0, 2}})
    >>> sorted(E), a                       # a path of the 4-cycle: 2^3 (the cycle has 14)
    ([(0, 1), (1, 2), (2, 3)], 8)
    >>> chordal_spanning_subgraph([0, 1, 2], {0: {1, 2}, 1: {0, 2}, 2: {0, 1}})[1]
    6
    """
    if core:
        added = set(core)
        cliques = [frozenset([v]) for v in sorted(core)]
    else:
        start = min(nodes, key=lambda v: (-len(adj[v]), v))
        added = {start}
        cliques = [frozenset([start])]
    kept: list = []
    count = 1
    todo = set(nodes) - added
    while todo:
        best = None
        for v in sorted(todo):
            X = adj[v] & added
            if not X:
                continue
            K = max((c & X for c in cliques), key=lambda k: (len(k), sorted(k)))
            if best is None or len(K) > len(best[1]):
                best = (v, K)
        if best is None:
            raise ValueError("the graph is not connected")
        v, K = best
        added.add(v)
        todo.discard(v)
        cliques.append(K | {v})
        kept.extend((min(u, v), max(u, v)) for u in sorted(K))
        count *= 1 + len(K)
    return kept, count


def countable_core(nodes: list, adj: dict, max_steps: int | None) -> list:
    """Nodes of a dense part of a graph whose general count the checker can take: drop a
    node of least degree until at most ``MAX_GENERAL_NODES`` remain, connected, and
    :func:`checker_general_steps` is within ``max_steps``.

    >>> countable_core(list(range(5)), {0: {1, 2, 3}, 1: {0, 2, 3}, 2: {0, 1, 3, 4}, 3: {0, 1, 2}, 4: {2}}, 200)
    [0, 1, 2, 3]
    """
    from ..checker.limits import MAX_GRAPH_NODES

    W = set(nodes)
    while W:
        sub = {v: adj[v] & W for v in W}
        order = sorted(W)
        if len(W) <= MAX_GRAPH_NODES and _connected(order, sub) and (
                max_steps is None or checker_general_steps(order, sub) <= max_steps):
            return order
        W.discard(min(W, key=lambda v: (len(sub[v]), -v)))
    return []


def _connected(nodes: list, adj: dict) -> bool:
    seen = {nodes[0]}
    stack = [nodes[0]]
    while stack:
        for w in adj[stack.pop()]:
            if w not in seen:
                seen.add(w)
                stack.append(w)
    return len(seen) == len(nodes)


def _blocks_of(n: int, edges) -> list:
    """``(edge indices, nodes, kind, count)`` per biconnected block; ``kind`` is
    ``complete``, ``cycle``, ``chordal`` (each counted) or ``general`` (count None)."""
    import networkx as nx

    G = nx.Graph()
    G.add_nodes_from(range(n))
    index: dict[tuple[int, int], list[int]] = {}
    for i, (a, b) in enumerate(edges):
        G.add_edge(a, b)
        index.setdefault((min(a, b), max(a, b)), []).append(i)
    out: list[tuple] = []
    for block in nx.biconnected_component_edges(G):
        B = nx.Graph(block)
        ids = sorted(i for a, b in B.edges() for i in index[(min(a, b), max(a, b))])
        nodes = sorted(B.nodes())
        m, e = B.number_of_nodes(), B.number_of_edges()
        if e == m * (m - 1) // 2:
            out.append((ids, nodes, "complete", factorial(m), B))
        elif e == m and all(d == 2 for _, d in B.degree()):
            out.append((ids, nodes, "cycle", 2 ** m - 2, B))
        elif nx.is_chordal(B):
            cliques = [frozenset(c) for c in nx.chordal_graph_cliques(B)]
            CT = nx.Graph()
            CT.add_nodes_from(range(len(cliques)))
            for i in range(len(cliques)):
                for j in range(i):
                    k = len(cliques[i] & cliques[j])
                    if k:
                        CT.add_edge(i, j, weight=k)
            num = 1
            for c in cliques:
                num *= factorial(len(c))
            for _, _, k in nx.maximum_spanning_tree(CT).edges(data="weight"):
                num //= factorial(k)
            out.append((ids, nodes, "chordal", num, B))
        else:
            out.append((ids, nodes, "general", None, B))
    return out


def elimination_order(adj: dict) -> list | None:
    """A perfect elimination ordering of a graph ``{node: set of neighbours}``, or None when
    it is not chordal: maximum cardinality search (buckets by the number of visited
    neighbours), the visit order reversed, then checked (Tarjan and Yannakakis 1984).

    >>> elimination_order({0: {1, 3}, 1: {0, 2}, 2: {1, 3}, 3: {0, 2}}) is None
    True
    >>> elimination_order({0: {1, 2}, 1: {0, 2}, 2: {0, 1}})
    [2, 1, 0]
    """
    weight = dict.fromkeys(adj, 0)
    buckets: list = [set(adj)]
    visit: list = []
    done: set = set()
    top = 0
    for _ in adj:
        while not buckets[top]:
            top -= 1
        v = min(buckets[top])
        buckets[top].discard(v)
        visit.append(v)
        done.add(v)
        for w in adj[v]:
            if w not in done:
                buckets[weight[w]].discard(w)
                weight[w] += 1
                if weight[w] == len(buckets):
                    buckets.append(set())
                buckets[weight[w]].add(w)
                top = max(top, weight[w])
    order = visit[::-1]
    pos = {v: i for i, v in enumerate(order)}
    for v in order:
        later = [w for w in adj[v] if pos[w] > pos[v]]
        if later:
            u = min(later, key=pos.__getitem__)
            if any(w != u and w not in adj[u] for w in later):
                return None
    return order


def graph_hint(edges) -> list[dict]:
    """The blocks a certificate gives the checker with a graph whose acyclic orientations it
    counts (docs/certificates.md §6.3, ``graph_blocks``): the biconnected blocks of the simple
    graph ``edges`` (pairs of node names), each with a perfect elimination ordering when it is
    chordal; sorted, so that equal graphs give equal hints.

    >>> graph_hint([(0, 1), (1, 2), (2, 0), (2, 5)])
    [{'edges': [[0, 1], [0, 2], [1, 2]], 'order': [2, 1, 0]}, {'edges': [[2, 5]], 'order': [5, 2]}]
    >>> graph_hint([(0, 1), (1, 2), (2, 3), (3, 0)])          # a cycle: no order
    [{'edges': [[0, 1], [0, 3], [1, 2], [2, 3]]}]
    """
    import networkx as nx

    G = nx.Graph()
    G.add_edges_from(edges)
    out = []
    for block in nx.biconnected_component_edges(G):
        es = sorted(sorted(e) for e in block)
        adj: dict = {}
        for a, b in es:
            adj.setdefault(a, set()).add(b)
            adj.setdefault(b, set()).add(a)
        hint: dict = {"edges": [list(e) for e in es]}
        order = elimination_order(adj)
        if order is not None:
            hint["order"] = order
        out.append(hint)
    return sorted(out, key=lambda h: h["edges"])


def acyclic_orientations_within(n: int, edges, max_steps: int | None = GENERAL_STEPS
                                ) -> tuple[int, list[str], list | None, list[str]]:
    """Acyclic orientations of a graph on nodes ``0..n-1``, or of a spanning subgraph
    when a block is beyond the checker's count: ``(count, how, kept, notes)``.

    ``kept`` is None when the count is the graph's own; else the indices of the
    edges of the subgraph counted (every block that is complete, a cycle or chordal,
    and the general blocks whose count fits, kept whole; each other general block
    replaced by :func:`chordal_spanning_subgraph`), a lower bound by monotonicity
    in sub-sums (docs/theory.md Lemma F2), with one note per replaced block naming
    it and what its exact count would need.  General blocks are counted exactly
    while they have at most ``MAX_GENERAL_NODES`` nodes and the checker's
    operations on all of them (:func:`checker_general_steps`) stay within
    ``max_steps`` (None: no limit on the operations).

    >>> C = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (1, 3)]          # K4 by its edges
    >>> acyclic_orientations_within(4, C)[:3]
    (24, ['complete'], None)
    >>> grid = [(i, i + 1) for i in range(3)] + [(i + 4, i + 5) for i in range(3)] + [(i, i + 4) for i in range(4)]
    >>> acyclic_orientations_within(8, grid, max_steps=10)[:3]         # the 2 x 4 grid: 726 exact
    (128, ['chordal'], [0, 1, 2, 3, 4, 5, 6])
    """
    from ..checker.limits import MAX_GRAPH_NODES as MAX_GENERAL_NODES

    total, how, notes = 1, [], []
    kept: list = []
    whole = True
    used = 0
    blocks = _blocks_of(n, edges)
    general = []
    for ids, nodes, kind, count, B in blocks:
        if count is not None:
            total *= count
            how.append(kind)
            kept.extend(ids)
        else:
            adj = {v: set(B[v]) for v in nodes}
            steps = checker_general_steps(nodes, adj) if len(nodes) <= MAX_GENERAL_NODES else None
            general.append((steps, ids, nodes, adj))
    # the cheapest first; None (a block over MAX_GENERAL_NODES) last
    for steps, ids, nodes, adj in sorted(general, key=lambda g: float("inf") if g[0] is None else g[0]):
        m = len(nodes)
        if steps is not None and (max_steps is None or used + steps <= max_steps):
            used += steps
            total *= acyclic_orientations_independence(nodes, adj)
            how.append("general")
            kept.extend(ids)
            continue
        whole = False
        before = used
        # the better of a chordal spanning subgraph and a countable dense core with
        # chordal trees hung from it
        left = None if max_steps is None else max_steps - used
        choices: list[tuple[tuple[list, int], int, list]] = [(chordal_spanning_subgraph(nodes, adj), 1, [])]
        core = countable_core(nodes, adj, left) if left is None or left > 0 else []
        if len(core) > 3:
            cadj = {v: adj[v] & set(core) for v in core}
            cedges = [(v, w) for v in core for w in cadj[v] if v < w]
            choices.append((chordal_spanning_subgraph(nodes, adj, core),
                            acyclic_orientations_independence(core, cadj), cedges))
        (sub, factor), inner, cedges = max(choices, key=lambda c: c[0][1] * c[1])
        if cedges:
            used += checker_general_steps(core, cadj)
        count = factor * inner
        keep = set(sub) | set(cedges)
        sub = sorted(keep)
        kept.extend(i for i in ids if (min(edges[i]), max(edges[i])) in keep)
        total *= count
        how.append("chordal" if not cedges else "general+chordal")
        need = ("more nodes than the checker counts in a general block (up to "
                f"{MAX_GENERAL_NODES})" if m > MAX_GENERAL_NODES else
                f"{steps} operations of the checker's count, over the {max_steps} a certificate "
                "can take within the checker's smallest work budget"
                + (f" ({before} already taken by other blocks)" if before else ""))
        notes.append(f"a biconnected block of the graph with {m} nodes ({nodes[0]}..{nodes[-1]}) and "
                     f"{len(ids)} edges is neither complete, a cycle nor chordal, and its exact "
                     f"count needs {need}: the bound counts a spanning subgraph of it, "
                     + (f"the block on {len(core)} of its nodes with chordal trees hung from it"
                        if cedges else "chordal") +
                     f" ({len(sub)} of its {len(ids)} edges, {count} acyclic orientations; a "
                     "sub-sum, docs/theory.md Lemma F2)")
    return total, sorted(how), (None if whole else sorted(kept)), notes


def count_acyclic_orientations(n: int, edges, max_steps: int | None = GENERAL_STEPS
                               ) -> tuple[int, list[str]]:
    """Acyclic orientations of a graph on nodes ``0..n-1``, with how each block was counted.

    The producer's own count (the checker re-derives it with its own code,
    ``attnproof.checker.rules.graphs``): a product over biconnected blocks
    (networkx) of ``m!`` (complete), ``2^m - 2`` (cycle), ``Π_C |C|! / Π_S |S|!`` over
    the maximal cliques and the separators of a clique tree (chordal: ``χ(k)`` is the
    same quotient of falling factorials), else
    :func:`acyclic_orientations_independence` for blocks of at most
    ``MAX_GENERAL_NODES`` nodes whose count by the checker's recurrence takes at most
    ``max_steps`` operations in all (:func:`checker_general_steps`: it then fits in
    the checker's smallest work budget).  Other general blocks raise
    :class:`~attnproof.errors.LimitError` naming the block and the limit;
    :func:`acyclic_orientations_within` counts a spanning subgraph instead.

    >>> count_acyclic_orientations(16, [(i, j) for i in range(16) for j in range(i)])[0]
    20922789888000
    >>> count_acyclic_orientations(5, [(0, 1), (1, 2), (2, 3), (3, 0), (3, 4)])
    (28, ['complete', 'cycle'])
    """
    total, how, kept, notes = acyclic_orientations_within(n, edges, max_steps)
    if kept is not None:
        raise LimitError(notes[0].split(": the bound counts")[0])
    return total, how


def acyclic_orientations_brute(n: int, edges) -> int:
    """Acyclic orientations by enumerating all ``2^|E|`` orientations (tests only)."""
    import networkx as nx

    total = 0
    for signs in product((0, 1), repeat=len(edges)):
        D = nx.DiGraph()
        D.add_nodes_from(range(n))
        D.add_edges_from((a, b) if s else (b, a) for (a, b), s in zip(edges, signs))
        total += nx.is_directed_acyclic_graph(D)
    return total


def graphic_functionals(nvars: int, edges) -> list[tuple[int, ...]]:
    """One integer functional per acyclic orientation: topological ranks, ground at 0."""
    import networkx as nx

    out = set()
    ground = nvars
    for signs in product((0, 1), repeat=len(edges)):
        D = nx.DiGraph()
        D.add_nodes_from(range(nvars + 1))
        D.add_edges_from((a, b) if s else (b, a) for (a, b), s in zip(edges, signs))
        if not nx.is_directed_acyclic_graph(D):
            continue
        order = list(nx.lexicographical_topological_sort(D))
        rank = {v: len(order) - i for i, v in enumerate(order)}      # sources get high values
        out.add(tuple(rank[v] - rank[ground] for v in range(nvars)))
    return sorted(out)


def regions_general_position(n: int, r: int) -> int:
    """Regions of ``n`` central hyperplanes in general position in rank ``r``: ``2 Σ_{i<r} C(n-1, i)``.

    >>> regions_general_position(3, 2), regions_general_position(3, 3)
    (6, 8)
    """
    return 2 * sum(comb(n - 1, i) for i in range(r))
