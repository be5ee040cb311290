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

from itertools import product
from math import gcd
from typing import Sequence

import flint

__all__ = ["primitive", "generator_classes", "classify", "graphic_edges", "count_acyclic_orientations",
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
    from itertools import combinations
    from math import comb
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


GENERAL_STEPS = 400_000     # operations of the independence-polynomial count (2^m·(m+1)^2)
_PRIMES = (2_147_483_647, 2_147_483_629)     # two primes below 2^31: int64 products, CRT


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
    pos = {v: i for i, v in enumerate(nodes)}
    nbr = [0] * n
    for v in nodes:
        for w in adj[v]:
            nbr[pos[v]] |= 1 << pos[w]
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


def count_acyclic_orientations(n: int, edges, max_steps: int | None = GENERAL_STEPS
                               ) -> tuple[int, list[str]]:
    """Acyclic orientations of a graph on nodes ``0..n-1``, with how each block was counted.

    The producer's own count (the checker re-derives it with its own code,
    ``attnproof.checker.rules.graphs``): a product over biconnected blocks
    (networkx) of ``m!`` (complete), ``2^m - 2`` (cycle), ``Π_C |C|! / Π_S |S|!`` over
    the maximal cliques and the separators of a clique tree (chordal: ``χ(k)`` is the
    same quotient of falling factorials), else
    :func:`acyclic_orientations_independence` for blocks of at most
    ``MAX_GENERAL_NODES`` nodes that it finishes in ``max_steps`` operations (the
    checker's own recurrence then fits in its smallest work budget).  Other general
    blocks raise :class:`~attnproof.errors.LimitError` naming the limit.

    >>> count_acyclic_orientations(16, [(i, j) for i in range(16) for j in range(i)])[0]
    20922789888000
    >>> count_acyclic_orientations(5, [(0, 1), (1, 2), (2, 3), (3, 0), (3, 4)])
    (28, ['complete', 'cycle'])
    """
    import networkx as nx
    from math import factorial

    from ..checker.limits import MAX_GRAPH_NODES as MAX_GENERAL_NODES
    from ..errors import LimitError

    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    total, how = 1, []
    for block in nx.biconnected_component_edges(G):
        B = nx.Graph(block)
        m, e = B.number_of_nodes(), B.number_of_edges()
        if e == m * (m - 1) // 2:
            total *= factorial(m)
            how.append("complete")
        elif e == m and all(d == 2 for _, d in B.degree()):
            total *= 2 ** m - 2
            how.append("cycle")
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
            total *= num
            how.append("chordal")
        elif m <= MAX_GENERAL_NODES:
            nodes = sorted(B.nodes())
            if max_steps is not None and (1 << m) * (m + 1) ** 2 > max_steps:
                raise LimitError(f"the graph of a graphic zonotope has a biconnected block with {m} "
                                 f"nodes that is neither chordal nor a cycle, and counting its "
                                 f"acyclic orientations exactly takes more than {max_steps} steps "
                                 f"(so that the checker's count fits in its smallest work budget; "
                                 f"such blocks are counted up to {MAX_GENERAL_NODES} nodes)")
            total *= acyclic_orientations_independence(nodes, {v: set(B[v]) for v in nodes})
            how.append("general")
        else:
            raise LimitError(f"the graph of a graphic zonotope has a biconnected block with {m} "
                             f"nodes that is neither chordal nor a cycle; such blocks are counted "
                             f"exactly up to {MAX_GENERAL_NODES} nodes")
    return total, sorted(how)


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
    from math import comb
    return 2 * sum(comb(n - 1, i) for i in range(r))
