"""Kill tests for the checker's graph counts (``attnproof/checker/rules/graphs.py``).

A ``zonotope_graphic`` block (and a ``graph_minors`` term ``newton``) counts the acyclic
orientations of its graph (THEORY Lemma 7) as a product over the blocks that the producer
writes (``graph_blocks``), each chordal one with a perfect elimination order; the checker
verifies the hint and searches for nothing.  Each verification is pinned by a false hint
that it alone refuses, and the counts of true hints by the producer's brute force over all
orientations, independently of the checker.
"""

from __future__ import annotations

import json
import random

import pytest

from attnproof.bounds.zonotope import acyclic_orientations_brute, elimination_order, graph_hint
from attnproof.checker import check_text
from attnproof.checker.rules.graphs import GraphTooLarge, acyclic_orientations, read_hint
from attnproof.checker.syntax import Budget, Reject, canonical_text

# A diamond (K_4 less the edge 2-3: χ = k (k-1) (k-2)^2, 18 orientations) with the pendant
# edge 0-4.
DIAMOND_PENDANT = (5, [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3)])
# Two diamonds sharing node 0: 18 · 18.
TWO_DIAMONDS = (7, [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3),
                    (0, 4), (0, 5), (4, 5), (4, 6), (5, 6)])
# A hub 0 joined to the triangle 1-3-4 and to the path 1-5-2 hanging off it: chordal and
# biconnected, χ = k (k-1) (k-2)^3 (k-3), 216 orientations.  Maximum cardinality search
# from 0 orders 1, 3, 4 (weights 1, 2, 3), and then the top bucket is empty: 5 and 2 wait
# in the buckets of weights 2 and 1.
CONE = (6, [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 3), (1, 4), (1, 5), (2, 5), (3, 4)])
C4 = [(0, 1), (1, 2), (2, 3), (0, 3)]
TRIANGLE = [(0, 1), (1, 2), (0, 2)]


def _count(n: int, edges: list, hint: list, budget: Budget | None = None) -> int:
    return acyclic_orientations(n, edges, read_hint(hint, {v: v for v in range(n)}, "g"),
                                budget=budget or Budget(None))


def _block(edges, order=None) -> dict:
    return {"edges": [list(e) for e in edges], **({} if order is None else {"order": order})}


def _graph(n: int, edges: list) -> dict:
    """The graph sum ``Σ_{ab} σ(q_a - q_b)``: one head ``x_a / (x_a + x_b)`` per edge."""
    heads = [{"atoms": [{"key": [1 if j == a else -1 if j == b else 0 for j in range(n)],
                         "value": 1},
                        {"key": [0] * n, "value": 0}]} for a, b in edges]
    return {"format": "attnproof-problem", "version": 1, "dim": n, "heads": heads}


@pytest.mark.parametrize("graph", [DIAMOND_PENDANT, TWO_DIAMONDS, CONE,
                                   (5, [(0, 1), (2, 3), (3, 4), (2, 4)]),
                                   (6, [(0, 2), (1, 3), (1, 4), (3, 4), (2, 5)]),
                                   (6, [(i, (i + 1) % 6) for i in range(6)])],
                         ids=["diamond-pendant", "two-diamonds", "cone", "apart", "apart-2", "c6"])
def test_the_producers_hint_gives_the_true_count(graph):
    n, edges = graph
    assert _count(n, edges, graph_hint(edges)) == acyclic_orientations_brute(n, edges)


def test_random_graphs_with_their_hints_agree_with_brute_force():
    rng = random.Random(29)
    for _ in range(40):
        n = rng.randint(2, 7)
        edges = [(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.5]
        assert _count(n, edges, graph_hint(edges)) == acyclic_orientations_brute(n, edges), edges


@pytest.mark.parametrize("hint, why", [
    ([_block(C4[:3], [3, 2, 1, 0])], "in no block"),                          # an edge left out
    ([_block(C4[:2], [0, 2, 1]), _block(C4[1:], [1, 3, 2, 0])], "in two blocks"),
    ([_block(C4 + [(0, 2)])], "not an edge of the graph"),
    # two paths that meet in two nodes (0 and 2): 4 · 4 = 16, not 14
    ([_block(C4[:2], [0, 2, 1]), _block(C4[2:], [0, 2, 3])], "meet in two nodes"),
    ([_block(C4, [0, 1, 2, 3])], "not a perfect elimination ordering"),       # a cycle is not chordal
    ([_block(C4, [0, 1, 2])], "not of the block's nodes"),
    ([_block(C4, [0, 1, 2, 2])], "not of the block's nodes"),
    ([_block(C4, [0, 1, 2, 3, 4])], "4 is not a node of the graph"),
])
def test_a_false_hint_of_the_4_cycle_is_refused(hint, why):
    with pytest.raises(Reject, match=why):
        _count(4, C4, hint)
    assert _count(4, C4, graph_hint(C4)) == 14


def test_blocks_in_a_cycle_of_blocks_are_refused():
    """Three single edges of a triangle meet pairwise in one node each, but around a cycle:
    2 · 2 · 2 = 8 is not 6.  Only the forest of the node-block incidences refuses them."""
    with pytest.raises(Reject, match="in a cycle"):
        _count(3, TRIANGLE, [_block([e], list(e)) for e in TRIANGLE])
    assert _count(3, TRIANGLE, graph_hint(TRIANGLE)) == 6


def test_a_block_of_two_cycles_is_not_counted_as_one():
    """Two disjoint triangles written as one block without an order: every node has degree 2
    but they are not one cycle (2^6 - 2 = 62): the general count gives 6 · 6."""
    two = TRIANGLE + [(3, 4), (4, 5), (3, 5)]
    assert _count(6, two, [_block(two)]) == 36 == acyclic_orientations_brute(6, two)
    six = [(i, (i + 1) % 6) for i in range(6)]
    assert _count(6, six, [_block(six)]) == 62


def test_a_large_block_without_structure_is_too_large_and_a_large_cycle_is_not():
    import networkx as nx
    grid = list(nx.convert_node_labels_to_integers(nx.grid_2d_graph(4, 5)).edges())
    with pytest.raises(GraphTooLarge):
        _count(20, grid, graph_hint(grid))
    cycle = [(i, (i + 1) % 20) for i in range(20)]
    assert _count(20, cycle, graph_hint(cycle)) == 2 ** 20 - 2


@pytest.mark.parametrize("hint, why", [
    ({"edges": []}, "must be a list"),
    ([{"edges": []}], "non-empty list of node pairs"),
    ([{"edges": [[0, 1, 2]]}], "non-empty list of node pairs"),
    ([{"edges": [[0, 9]]}], "9 is not a node"),
    ([{"edges": [[0, True]]}], "true is not a node"),
    ([{"edges": [[0, 1]], "order": 1}], "'order' must be a list"),
    ([{"edges": [[0, 1]], "cut": [0]}], "unknown field"),
])
def test_a_malformed_hint_is_refused(hint, why):
    with pytest.raises(Reject, match=why):
        read_hint(hint, {0: 0, 1: 1}, "g")


def test_a_chordal_block_is_counted_from_its_order_without_the_recurrence():
    """The cone is counted by its elimination order: the budget pays for reading the hint
    (its edges and order), never for the subset recurrence (4096 units a charge)."""
    n, edges = CONE
    budget = Budget(None)
    assert _count(n, edges, graph_hint(edges), budget) == 216 == acyclic_orientations_brute(n, edges)
    assert budget.used == len(edges) + n


def test_the_producers_search_goes_down_when_its_top_bucket_empties():
    """On the cone, maximum cardinality search must step down from an empty bucket to the
    next non-empty one and take each vertex once: its order is accepted by the checker."""
    n, edges = CONE
    adj: dict = {v: set() for v in range(n)}
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    order = elimination_order(adj)
    assert order is not None and sorted(order) == list(range(n))
    assert _count(n, edges, [_block(sorted(edges), order)]) == 216


@pytest.fixture(scope="module")
def certificates() -> dict:
    """The producer's certificates of the diamond with its pendant edge and of the cone,
    made once in the setup (a mutation run limits the CPU time of each test's call)."""
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_from_dict
    return {name: build_certificate(problem_from_dict(_graph(*graph)), explicit_fusion_limit=0,
                                    max_atoms=1).text
            for name, graph in (("diamond-pendant", DIAMOND_PENDANT), ("cone", CONE))}


def test_the_certificates_with_hints_are_valid_and_a_false_hint_is_invalid(certificates):
    assert acyclic_orientations_brute(*DIAMOND_PENDANT) == 18 * 2
    for name, truth in (("diamond-pendant", 36), ("cone", 216)):
        v = check_text(certificates[name])
        assert v.status == "valid" and v.lower_bound == truth, v.message
        doc = json.loads(certificates[name])
        step = next(s for s in doc["steps"] if s["rule"] == "newton_blocks")
        blk = next(b for b in step["blocks"] if b["method"] == "zonotope_graphic")
        blk["graph_blocks"][0]["order"] = blk["graph_blocks"][0]["order"][::-1]
        v = check_text(canonical_text(doc))
        assert v.status == "invalid" and "perfect elimination" in v.message, v.message
