"""Kill tests for the survivors of the third seeded sample of the rule modules.

Each test pins a behaviour that a surviving mutant changed: a helper's documented
result, a refusal, or the lower bound a rule proves.
"""

from __future__ import annotations

import pytest

from attnproof.checker.problem import parse_problem
from attnproof.checker.rules.graph_sums import MAX_DEPTH
from attnproof.checker.rules.graph_sums import bound as graph_bound
from attnproof.checker.rules.state import State, x_points
from attnproof.checker.syntax import Budget, Reject


def _state(*supports, dim: int = 2) -> State:
    doc = {"format": "attnproof-problem", "version": 1, "dim": dim,
           "heads": [{"atoms": [{"key": list(k), "value": 0} for k in keys]} for keys in supports]}
    return State(pb=parse_problem(doc), budget=Budget(None))


# --- rules/state.py


def test_x_points_are_in_lex_order_of_the_dense_vectors():
    # dense (0, 1) < (1, 0): y before x, which a plain tuple sort turns around
    assert x_points({((0, 1),): 1, ((1, 1),): 1}, 2) == [((1, 1),), ((0, 1),)]


def test_heads_with_a_variable_in_no_head_is_empty():
    st = _state([(0, 0), (1, 0)])               # only x varies
    assert st.heads_with({1}) == []
    assert st.heads_with({0, 1}) == []


# --- rules/graph_sums.py

TRIANGLE = {(0, 1): 1, (1, 2): 1, (0, 2): 1}


def _nested(k: int) -> dict:
    """``parallel`` on one edge, under ``k`` fibers (each contraction a point: ``newton``)."""
    t = {"by": "parallel"}
    for _ in range(k):
        t = {"by": "fiber", "edges": [[0, 1]], "restriction": t,
             "contraction": {"by": "newton", "graph_blocks": []}}
    return t


def test_graph_minors_newton_counts_the_acyclic_orientations():
    t = {"by": "newton", "graph_blocks": [{"edges": [[0, 1], [1, 2], [0, 2]], "order": [0, 1, 2]}]}
    assert graph_bound(TRIANGLE, t, Budget(None), "t") == 6


def test_graph_minors_term_nested_max_depth_is_accepted():
    assert graph_bound({(0, 1): 1}, _nested(MAX_DEPTH), Budget(None), "t") == 2


def test_graph_minors_term_nested_deeper_than_max_depth_is_refused():
    with pytest.raises(Reject, match="nested at most"):
        graph_bound({(0, 1): 1}, _nested(MAX_DEPTH + 1), Budget(None), "t")


def test_graph_minors_unknown_lemma_is_refused():
    with pytest.raises(Reject, match="unknown lemma"):
        graph_bound(TRIANGLE, {"by": "nope"}, Budget(None), "t")
