"""Acyclic orientations of a graph: the count of a ``zonotope_graphic`` block (docs/certificates.md §6.3).

THEORY Lemma 7: the vertices of a graphical zonotope are the acyclic orientations
of its graph, ``|χ_G(-1)|``, a product over biconnected blocks.

>>> acyclic_orientations(3, [(0, 1), (1, 2), (0, 2)])     # triangle: 2^3 - 2
6
>>> acyclic_orientations(16, [(i, j) for i in range(16) for j in range(i)]) == factorial(16)
True
"""

from __future__ import annotations

from math import factorial

from ..linalg import product
from ..syntax import UNLIMITED, Budget


MAX_GENERAL_NODES = 16      # biconnected blocks that are neither chordal nor cycles


class GraphTooLarge(ValueError):
    """A block of the graph is beyond :data:`MAX_GENERAL_NODES` and has no counted structure."""


def biconnected_blocks(n: int, adj: list) -> list[list[tuple[int, int]]]:
    """The biconnected components of a simple graph, as edge lists (iterative Hopcroft-Tarjan).

    >>> adj = [{1, 2}, {0, 2}, {0, 1, 3}, {2}]             # a triangle with a pendant edge
    >>> sorted(sorted(map(sorted, b)) for b in biconnected_blocks(4, adj))
    [[[0, 1], [0, 2], [1, 2]], [[2, 3]]]
    """
    index = [-1] * n
    low = [0] * n
    counter = 0
    blocks = []
    for root in range(n):
        if index[root] != -1:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack = [(root, -1, iter(sorted(adj[root])))]
        estack: list = []
        while stack:
            v, parent, it = stack[-1]
            descended = False
            for w in it:
                if w == parent:
                    continue
                if index[w] == -1:
                    estack.append((v, w))
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append((w, v, iter(sorted(adj[w]))))
                    descended = True
                    break
                if index[w] < index[v]:
                    estack.append((v, w))
                    low[v] = min(low[v], index[w])
            if descended:
                continue
            stack.pop()
            if stack:
                u = stack[-1][0]
                low[u] = min(low[u], low[v])
                if low[v] >= index[u]:
                    block = []
                    while True:
                        e = estack.pop()
                        block.append(e)
                        if e == (u, v):
                            break
                    blocks.append(block)
    return blocks


def perfect_elimination_order(nodes: list, adj: dict) -> list | None:
    """A perfect elimination ordering (maximum cardinality search, verified), or None.

    In the returned order every vertex's later neighbours form a clique; such an
    order exists iff the graph is chordal (Tarjan and Yannakakis 1984).

    >>> perfect_elimination_order([0, 1, 2, 3], {0: {1, 3}, 1: {0, 2}, 2: {1, 3}, 3: {0, 2}}) is None
    True
    >>> perfect_elimination_order([0, 1, 2], {0: {1, 2}, 1: {0, 2}, 2: {0, 1}})
    [2, 1, 0]
    """
    weight = {v: 0 for v in nodes}
    buckets: list = [set(nodes)]
    visit = []
    done: set = set()
    top = 0
    for _ in nodes:
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


def _count_general(nodes: list, adj: dict, budget: Budget = UNLIMITED) -> int:
    """Acyclic orientations by inclusion-exclusion on the set of sinks, over vertex subsets.

    ``a(S) = Σ_{∅≠I⊆S independent} (-1)^{|I|+1} a(S \\ I)``, ``a(∅) = 1``; disconnected
    ``S`` split into components.  At most ``3^n`` terms; every enumeration step is
    charged to ``budget``.
    """
    idx = {v: i for i, v in enumerate(nodes)}
    nbr = [0] * len(nodes)
    for v in nodes:
        for w in adj[v]:
            nbr[idx[v]] |= 1 << idx[w]
    memo = {0: 1}

    def component(S: int) -> int:
        low = S & -S
        comp, frontier = low, low
        while frontier:
            b = frontier & -frontier
            frontier ^= b
            new = nbr[b.bit_length() - 1] & S & ~comp
            comp |= new
            frontier |= new
        return comp

    def a(S: int) -> int:
        r = memo.get(S)
        if r is not None:
            return r
        c = component(S)
        if c != S:
            r = a(c) * a(S ^ c)
        else:
            r = 0
            verts = [i for i in range(len(nodes)) if S >> i & 1]
            todo = [(0, 0, 0, 0)]         # (next position, I, forbidden, |I|)
            steps = 0
            while todo:
                steps += 1
                if steps & 4095 == 0:
                    budget.charge(4096, "counting acyclic orientations")
                pos, I, forb, k = todo.pop()
                if pos == len(verts):
                    if I:
                        r += a(S ^ I) if k % 2 else -a(S ^ I)
                    continue
                todo.append((pos + 1, I, forb, k))
                v = verts[pos]
                if not forb >> v & 1:
                    todo.append((pos + 1, I | 1 << v, forb | nbr[v], k + 1))
            budget.charge(steps & 4095, "counting acyclic orientations")
        memo[S] = r
        return r

    return a((1 << len(nodes)) - 1)


def acyclic_orientations(n: int, edges, max_general: int = MAX_GENERAL_NODES,
                         budget: Budget = UNLIMITED) -> int:
    """Number of acyclic orientations of a simple graph on nodes ``0..n-1`` (``|χ_G(-1)|``).

    The count is the product over biconnected blocks (a one-vertex union
    multiplies chromatic polynomials, divided by ``k``).  A block on ``m`` nodes
    is counted as ``m!`` (complete), ``2^m - 2`` (a cycle), ``Π (1 + d_i)`` over
    a verified perfect elimination ordering (chordal: ``χ(k) = Π (k - d_i)``,
    ``d_i`` the later neighbours of the ``i``-th vertex), else by the subset
    recurrence when ``m <= max_general`` (its steps charged to ``budget``);
    otherwise :class:`GraphTooLarge`.

    >>> acyclic_orientations(4, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
    24
    >>> acyclic_orientations(20, [(i, (i + 1) % 20) for i in range(20)]) == 2 ** 20 - 2
    True
    """
    adj: list = [set() for _ in range(n)]
    for a, b in edges:
        if a == b or b in adj[a]:
            raise ValueError("not a simple graph")
        adj[a].add(b)
        adj[b].add(a)
    counts = []
    for block in biconnected_blocks(n, adj):
        nodes = sorted({v for e in block for v in e})
        m, e = len(nodes), len(block)
        nset = set(nodes)                  # once: per node it made a cycle quadratic
        if e == m * (m - 1) // 2:
            counts.append(factorial(m))
            continue
        if e == m and all(len(adj[v] & nset) == 2 for v in nodes):
            counts.append(2 ** m - 2)
            continue
        badj = {v: adj[v] & nset for v in nodes}
        order = perfect_elimination_order(nodes, badj)
        if order is not None:
            pos = {v: i for i, v in enumerate(order)}
            for v in order:
                counts.append(1 + sum(1 for w in badj[v] if pos[w] > pos[v]))
            continue
        if m > max_general:
            raise GraphTooLarge(f"a biconnected block with {m} nodes that is neither chordal "
                                f"nor a cycle (general blocks are counted up to {max_general} nodes)")
        counts.append(_count_general(nodes, badj, budget))
    return product(counts)
