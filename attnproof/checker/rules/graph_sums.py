"""The ``graph_minors`` rule (docs/certificates.md §6.15; THEORY §13, docs/theory.md §13).

The bound factors ``x_u + x_v`` (and ``1 + x_u``: the ground node ``dim``) of ``Q``
form a multigraph ``G`` (multiplicities from their steps), and ``Q_G | Q | D`` for the
denominator ``D`` of every fusion.  A proof term bounds ``m'(H)``, the fewest points
of a positive multiple of ``Q_H``, for ``H = G`` and the minors it names:

* ``newton``: the acyclic orientations of ``H``'s simple graph (Theorem 3, Lemma 7);
* ``parallel``: every edge joins the same two nodes, ``m`` of them: ``m + 1`` (Descartes);
* ``cycle``: ``H`` is one simple cycle on ``n ≥ 3`` nodes: ``2^n − 1`` (Theorem 13.5);
* ``fiber`` over pairs ``A``: ``m'(H|A)·m'(H/A)`` (Lemma 13.3);
* ``odd`` over two single edges ``e ≠ f``: with ``B = min(m'(H/e), m'(H/f))``,
  ``2B + 1`` when ``B`` is odd, else ``2B`` (Lemma 13.4).

Contraction names a merged node by its least label.  The checker builds every minor
itself; the term only says which lemma to apply where.  No search.

>>> bound({(0, 1): 1, (1, 2): 1, (0, 2): 1}, {"by": "cycle"}, UNLIMITED, "t")
7
>>> bound({(0, 1): 2, (1, 2): 1}, {"by": "fiber", "edges": [[0, 1]],
...        "restriction": {"by": "parallel"}, "contraction": {"by": "parallel"}}, UNLIMITED, "t")
6
"""

from __future__ import annotations

from ..syntax import UNLIMITED, Budget, Reject, Unsupported, fields, integer  # noqa: F401  (the doctests)
from .graphs import GraphTooLarge, acyclic_orientations, adjacency, find, node_pairs, one_cycle, read_hint
from .state import State
from .windows import binomial_factor

__all__ = ["bound", "contract", "RULES"]

MAX_DEPTH = 64


def contract(H: dict, A: list) -> dict:
    """``H/A``: the nodes joined by ``A`` merged (named by the least), loops dropped.

    >>> contract({(0, 1): 1, (1, 2): 1, (0, 2): 1}, [(0, 1)])
    {(0, 2): 2}
    """
    parent: dict = {}
    for u, v in A:
        ru, rv = sorted((find(parent, u), find(parent, v)))
        parent[rv] = ru             # (ru itself when joined already)
    out: dict = {}
    for (u, v), m in H.items():
        p = tuple(sorted((find(parent, u), find(parent, v))))
        if p[0] != p[1]:
            out[p] = out.get(p, 0) + m
    return out


def _pairs(H: dict, xs, where: str) -> list:
    out = node_pairs(xs, integer, where)
    for i, p in enumerate(out):
        if p not in H or (i and out[i - 1] >= p):
            raise Reject(f"{where}: {list(p)} is not an edge of the graph here, or edges not strictly increasing")
    return out


LEMMAS = {"newton": {"graph_blocks"}, "parallel": set(), "cycle": set(),      # their fields
          "fiber": {"edges", "restriction", "contraction"}, "odd": {"edges", "first", "second"}}


def bound(H: dict, t, budget: Budget, where: str, depth: int = 0) -> int:
    """The lower bound for ``m'(H)`` that the term ``t`` proves."""
    if not isinstance(t, dict) or depth > MAX_DEPTH:
        raise Reject(f"{where}: a proof term is an object, nested at most {MAX_DEPTH} deep")
    budget.charge(1 + 4 * len(H), "graph minors")
    by = t.get("by")
    if not isinstance(by, str) or by not in LEMMAS:
        raise Reject(f"{where}: unknown lemma {str(by)[:40]!r}")
    fields(t, {"by"} | LEMMAS[by], set(), where)

    def sub(G: dict, key: str) -> int:
        return bound(G, t[key], budget, f"{where} {key}", depth + 1)
    if by == "newton":
        node = {v: v for p in H for v in p}     # the nodes keep their names: parts are named above them
        try:
            return acyclic_orientations(1 + max(node, default=0), list(H), read_hint(t["graph_blocks"], node, where),
                                        budget=budget)
        except GraphTooLarge as e:
            raise Unsupported(f"{where}: {e}") from None
    if by == "parallel":
        if len(H) != 1:
            raise Reject(f"{where}: parallel needs all edges between two nodes")
        return 1 + next(iter(H.values()))
    if by == "cycle":            # simple, and one cycle (on at least 3 nodes, as it is simple)
        if set(H.values()) != {1} or not one_cycle(adjacency(H)):
            raise Reject(f"{where}: cycle needs one simple cycle on at least 3 nodes")
        return (1 << len(H)) - 1
    A = _pairs(H, t["edges"], where)
    if by == "fiber":
        return sub({p: H[p] for p in A}, "restriction") * sub(contract(H, A), "contraction")
    if len(A) != 2 or H[A[0]] != 1 or H[A[1]] != 1:
        raise Reject(f"{where}: odd needs two distinct edges of multiplicity 1")
    b = min(sub(contract(H, A[:1]), "first"), sub(contract(H, A[1:]), "second"))
    return 2 * b + (b & 1)


def factor_graph(st: State, where: str) -> dict:
    """The multigraph of the bound factors ``α·x^a(1 + x^g)``, ``g = ±(e_u − e_v)`` or
    ``±e_u`` (node ``dim``); other bound factors are not used."""
    H: dict = {}
    for f, m in st.factors:
        st.budget.charge(1 + len(f), "graph minors")
        g, c = binomial_factor(f, st.pb.dim) or ((), 0)
        if c == 1 and [x for _, x in g] in ([1], [1, -1]):        # x_u + x_v, or 1 + x_u
            p = (g[0][0], g[1][0] if len(g) == 2 else st.pb.dim)
            H[p] = H.get(p, 0) + m
    if not H:
        raise Reject(f"{where}: no bound factor x_u + x_v (or 1 + x_u) to build a graph from")
    return H


def rule_graph_minors(st: State, step: dict, where: str) -> None:
    """``{"rule": "graph_minors", "proof": TERM}``: raises the lower bound to what the term
    proves for the graph of the bound factors (after the upper bound, before refutations)."""
    fields(step, {"rule", "proof"}, set(), where)
    if st.pb.has_z:             # (phase 2.5: the lower bound is set, the upper-bound step
        raise Reject(f"{where}: graph minors need a problem without biases")  # is required)
    proven = bound(factor_graph(st, where), step["proof"], st.budget, where)
    st.lower = proven if st.lower is None else max(st.lower, proven)


# rule name -> (function, phase): after the upper bound, before the refutations
RULES = {"graph_minors": (rule_graph_minors, 2.5)}
