"""Acyclic orientations of a graph: the count of a ``zonotope_graphic`` block (docs/certificates.md §6.3).

THEORY Lemma 7: the vertices of a graphical zonotope are the acyclic orientations
of its graph, ``|χ_G(-1)|``, a product over the blocks of the graph.  The producer
writes the blocks and the elimination orders (:func:`read_hint`); the checker
verifies them and searches for nothing.

>>> T = [(0, 1), (1, 2), (0, 2)]
>>> acyclic_orientations(3, T, [(T, None)]), acyclic_orientations(3, T, [(T, [0, 1, 2])])  # 2^3 - 2
(6, 6)
"""

from __future__ import annotations

from ..linalg import product
from ..syntax import UNLIMITED, Budget, Reject, _show, fields


MAX_GENERAL_NODES = 16      # biconnected blocks that are neither chordal nor cycles


class GraphTooLarge(ValueError):
    """A block of the graph is beyond :data:`MAX_GENERAL_NODES` and has no counted structure."""


def read_hint(x, node: dict, where: str) -> list:
    """The producer's blocks of a graph, ``[{"edges": [[u, v], ...], "order": [v, ...]}, ...]``
    (``order`` optional), nodes named as in the certificate and numbered by ``node``:
    ``[(edges, order or None)]``.  :func:`acyclic_orientations` verifies them.

    >>> read_hint([{"edges": [[7, 5]], "order": [5, 7]}], {5: 0, 7: 1}, "g")
    [([(0, 1)], [0, 1])]
    """
    if not isinstance(x, list):
        raise Reject(f"{where}: 'graph_blocks' must be a list of blocks")

    def num(v, where: str) -> int:
        if type(v) is not int or v not in node:
            raise Reject(f"{where}: {_show(v)} is not a node of the graph")
        return node[v]
    out = []
    for i, b in enumerate(x):
        w = f"{where}, graph block {i}"
        edges = [tuple(sorted(e)) for e in node_pairs(fields(b, {"edges"}, {"order"}, w)["edges"], num, w)]
        order = b.get("order")
        if order is not None and not isinstance(order, list):
            raise Reject(f"{w}: 'order' must be a list of nodes")
        out.append((edges, None if order is None else [num(v, w) for v in order]))
    return out


def node_pairs(xs, num, where: str) -> list:
    """``[[u, v], ...]``, not empty, as ``[(num(u, where), num(v, where)), ...]``."""
    if not isinstance(xs, list) or not xs or not all(isinstance(e, list) and len(e) == 2 for e in xs):
        raise Reject(f"{where}: edges must be a non-empty list of node pairs")
    return [(num(e[0], where), num(e[1], where)) for e in xs]


def adjacency(edges) -> dict:
    """``{node: its neighbours}`` of the pairs ``edges``."""
    adj: dict = {}
    for a, b in edges:
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    return adj


def find(root: dict, v):
    """The representative of ``v`` in the union-find forest ``root`` (path halving)."""
    while root.get(v, v) != v:
        root[v] = v = root.get(root[v], root[v])
    return v


def one_cycle(adj: dict) -> bool:
    """Some nodes, every one of degree 2, all joined: one cycle."""
    root: dict = {}
    for v in adj:
        for u in adj[v]:
            root[find(root, u)] = find(root, v)
    return bool(adj) and all(len(s) == 2 for s in adj.values()) and len({find(root, v) for v in adj}) == 1


def _count_general(nodes: list, adj: dict, budget: Budget = UNLIMITED) -> int:
    """Acyclic orientations by inclusion-exclusion on the set of sinks, over vertex subsets.

    ``a(S) = Σ_{∅≠I⊆S independent} (-1)^{|I|+1} a(S \\ I)``, ``a(∅) = 1``; disconnected
    ``S`` split into components.  At most ``3^n`` terms; every enumeration step (an
    independent subset of the first ``i`` vertices of ``S``, for every ``i``) is charged
    to ``budget`` before it is taken.
    """
    nbr = [sum(1 << nodes.index(w) for w in adj[v]) for v in nodes]     # at most max_general nodes
    memo = {0: 1}

    def component(S: int) -> int:
        comp = frontier = S & -S
        while frontier:
            b = frontier & -frontier
            new = nbr[b.bit_length() - 1] & S & ~comp
            comp, frontier = comp | new, frontier ^ b | new
        return comp

    def a(S: int) -> int:
        if S not in memo:
            c = component(S)
            if c != S:
                memo[S] = a(c) * a(S ^ c)
            else:
                level = [(0, 0)]            # (I, its neighbours): the independent subsets so far
                for v in (i for i in range(len(nodes)) if S >> i & 1):
                    budget.charge(len(level), "counting acyclic orientations")
                    level += [(I | 1 << v, nb | nbr[v]) for I, nb in level if not nb >> v & 1]
                budget.charge(len(level), "counting acyclic orientations")
                memo[S] = sum(a(S ^ I) if I.bit_count() % 2 else -a(S ^ I) for I, _ in level[1:])
        return memo[S]

    return a((1 << len(nodes)) - 1)


def acyclic_orientations(n: int, edges, blocks: list, max_general: int = MAX_GENERAL_NODES,
                         budget: Budget = UNLIMITED) -> int:
    """Number of acyclic orientations of a simple graph on nodes ``0..n-1`` (``|χ_G(-1)|``).

    ``blocks``, the producer's hint (:func:`read_hint`), must partition the edges into
    parts whose node-part incidence graph is a forest (parts meet in at most one node,
    and never in a cycle); then the chromatic polynomial is the product of the parts'
    divided by ``k`` per shared node, and the count the product of the parts' counts.
    A part is counted as ``Π (1 + d_i)`` over its ``order``, verified to be a perfect
    elimination ordering (chordal: ``χ(k) = Π (k - d_i)``, ``d_i`` the later neighbours
    of the ``i``-th vertex), as ``2^m - 2`` when it is one cycle on ``m`` nodes, else by
    the subset recurrence when ``m <= max_general`` (its steps charged to ``budget``);
    otherwise :class:`GraphTooLarge`.  A false hint is a :class:`Reject`.

    >>> diamond = [(0, 1), (1, 2), (2, 3), (0, 3), (0, 2)]
    >>> acyclic_orientations(4, diamond, [(diamond, [1, 3, 0, 2])])      # χ = k(k-1)(k-2)^2
    18
    >>> acyclic_orientations(4, diamond, [(diamond, [0, 1, 2, 3])])
    Traceback (most recent call last):
    ...
    attnproof.checker.syntax.Reject: graph blocks: block 0: the order is not a perfect elimination ordering
    >>> C = [(i, (i + 1) % 20) for i in range(20)]
    >>> acyclic_orientations(20, C, [(C, None)]) == 2 ** 20 - 2
    True
    """
    adj = adjacency(edges)
    if sum(map(len, adj.values())) != 2 * len(edges):     # a loop or an edge twice
        raise ValueError("not a simple graph")
    budget.charge(sum(len(e) + len(o or ()) for e, o in blocks), "checking graph blocks")
    root: dict = {}                 # union-find over nodes and parts (part i is n + i)
    seen: set = set()
    counts = []
    for i, (bedges, order) in enumerate(blocks):
        w = f"graph blocks: block {i}"
        for a, b in bedges:
            if b not in adj.get(a, ()) or (a, b) in seen:
                raise Reject(f"{w}: {[a, b]} is not an edge of the graph, or is in two blocks")
            seen.add((a, b))
        badj = adjacency(bedges)
        for v in badj:              # part n + i stays a root until block i is read
            r = find(root, v)
            if r == n + i:
                raise Reject(f"{w}: the blocks meet in two nodes or in a cycle (not a tree of blocks)")
            root[r] = n + i
        counts.append(_count_block(sorted(badj), badj, order, max_general, budget, w))
    if len(seen) != len(edges):
        raise Reject("graph blocks: an edge of the graph is in no block")
    return product(counts)


def _count_block(nodes: list, badj: dict, order, max_general: int, budget: Budget, w: str) -> int:
    if order is not None:
        if sorted(order) != nodes:
            raise Reject(f"{w}: the order is not of the block's nodes, each once")
        pos = {v: i for i, v in enumerate(order)}
        for v in order:        # later neighbours a clique: those of the first of them (Rose-Tarjan-Lueker)
            later = [u for u in badj[v] if pos[u] > pos[v]]
            u = min(later, key=pos.__getitem__, default=None)
            if any(x != u and x not in badj[u] for x in later):
                raise Reject(f"{w}: the order is not a perfect elimination ordering")
        return product(1 + sum(pos[u] > pos[v] for u in badj[v]) for v in order)
    if one_cycle(badj):
        return 2 ** len(nodes) - 2
    if len(nodes) > max_general:
        raise GraphTooLarge(f"a block of {len(nodes)} nodes, no cycle and no order (general ones: up to {max_general})")
    return _count_general(nodes, badj, budget)
