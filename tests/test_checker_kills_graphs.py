"""Kill tests for the checker's graph counts (``attnproof/checker/rules/graphs.py``).

A ``zonotope_graphic`` block counts the acyclic orientations of its graph (THEORY Lemma 7)
as a product over biconnected blocks; a chordal block is counted from a perfect
elimination order found by maximum cardinality search, without charge, and only a block
that is neither complete, a cycle nor chordal pays for the subset recurrence.  These tests
pin the product when a chordal block is not the last one, and the search when its
highest bucket runs empty before every vertex is ordered.  The true counts come from the
producer's brute force over all orientations, independently of the checker.
"""

from __future__ import annotations

import pytest

from attnproof.bounds.zonotope import acyclic_orientations_brute
from attnproof.checker import check_text
from attnproof.checker.rules.graphs import acyclic_orientations, perfect_elimination_order
from attnproof.checker.syntax import Budget

MODES = pytest.mark.parametrize("reference", [False, True], ids=["fast", "reference"])

# A diamond (K_4 less the edge 2-3: χ = k (k-1) (k-2)^2, 18 orientations) with the pendant
# edge 0-4.  The depth-first search from node 0 closes the diamond's block first, the edge's last.
DIAMOND_PENDANT = (5, [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3)])
# Two diamonds sharing node 0: 18 · 18.
TWO_DIAMONDS = (7, [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3),
                    (0, 4), (0, 5), (4, 5), (4, 6), (5, 6)])
# A hub 0 joined to the triangle 1-3-4 and to the path 1-5-2 hanging off it: chordal and
# biconnected, χ = k (k-1) (k-2)^3 (k-3), 216 orientations.  Maximum cardinality search
# from 0 orders 1, 3, 4 (weights 1, 2, 3), and then the top bucket is empty: 5 and 2 wait
# in the buckets of weights 2 and 1.
CONE = (6, [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 3), (1, 4), (1, 5), (2, 5), (3, 4)])


def _graph(n: int, edges: list) -> dict:
    """The graph sum ``Σ_{ab} σ(q_a - q_b)``: one head ``x_a / (x_a + x_b)`` per edge."""
    heads = [{"atoms": [{"key": [1 if j == a else -1 if j == b else 0 for j in range(n)],
                         "value": 1},
                        {"key": [0] * n, "value": 0}]} for a, b in edges]
    return {"format": "attnproof-problem", "version": 1, "dim": n, "heads": heads}


def _adjacency(n: int, edges: list) -> dict:
    adj: dict = {v: set() for v in range(n)}
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    return adj


@pytest.mark.parametrize("graph", [DIAMOND_PENDANT, TWO_DIAMONDS, CONE],
                         ids=["diamond-pendant", "two-diamonds", "cone"])
def test_every_block_counts_after_a_chordal_one(graph):
    """The count is the product over all blocks: a chordal block that is not the last
    one leaves the others in the product."""
    n, edges = graph
    assert acyclic_orientations(n, edges) == acyclic_orientations_brute(n, edges)


@pytest.fixture(scope="module")
def certificates() -> dict:
    """The producer's certificates of the diamond with its pendant edge and of the cone,
    made once in the setup (a mutation run limits the CPU time of each test's call)."""
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_from_dict
    return {name: build_certificate(problem_from_dict(_graph(*graph)), explicit_fusion_limit=0,
                                    max_atoms=1).text
            for name, graph in (("diamond-pendant", DIAMOND_PENDANT), ("cone", CONE))}


@MODES
def test_a_certificate_with_a_chordal_block_before_an_edge_is_valid(certificates, reference):
    truth = acyclic_orientations_brute(*DIAMOND_PENDANT)
    assert truth == 18 * 2
    v = check_text(certificates["diamond-pendant"], reference=reference)
    assert v.status == "valid" and v.lower_bound == truth, v.message


def test_maximum_cardinality_search_goes_down_when_its_top_bucket_empties():
    """On the cone the search must step down from an empty bucket to the next non-empty
    one, and take each vertex once: the order is a perfect elimination order of all six
    nodes (every vertex's later neighbours pairwise adjacent)."""
    n, edges = CONE
    adj = _adjacency(n, edges)
    order = perfect_elimination_order(list(range(n)), {v: set(s) for v, s in adj.items()})
    assert order is not None and sorted(order) == list(range(n))
    pos = {v: i for i, v in enumerate(order)}
    for v in order:
        later = [w for w in adj[v] if pos[w] > pos[v]]
        assert all(b in adj[a] for a in later for b in later if a != b), (v, order)


def test_a_chordal_block_is_counted_without_charge():
    """A chordal block is counted by its elimination order, which costs nothing: a search
    that misses the order would fall back to the subset recurrence and charge its steps."""
    n, edges = CONE
    budget = Budget(None)
    assert acyclic_orientations(n, edges, budget=budget) == 216
    assert budget.used == 0
    assert acyclic_orientations_brute(n, edges) == 216


@MODES
def test_a_certificate_of_the_cone_is_valid(certificates, reference):
    v = check_text(certificates["cone"], reference=reference)
    assert v.status == "valid" and v.lower_bound == 216, v.message


def test_every_component_is_counted():
    # an edge and a triangle, apart, then a triangle whose first node comes after a visited
    # one: the search starts again at each node not yet seen, and the counts multiply
    for n, edges, count in ((5, [(0, 1), (2, 3), (3, 4), (2, 4)], 2 * 6),
                            (6, [(0, 2), (1, 3), (1, 4), (3, 4), (2, 5)], 4 * 6)):
        assert acyclic_orientations(n, edges) == acyclic_orientations_brute(n, edges) == count
