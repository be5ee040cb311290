"""Kill tests for the survivors of the third seeded sample of the rule modules.

Each test pins a behaviour that a surviving mutant changed: a helper's documented
result, a refusal, or the lower bound a rule proves.
"""

from __future__ import annotations

import json
from itertools import permutations
from pathlib import Path
from types import SimpleNamespace

import pytest

from attnproof.checker import check_text

from attnproof.checker.problem import parse_problem
from attnproof.checker.rules.edges import _face_polynomial, _prem, edge, sturm_count
from attnproof.checker.rules.floors import MAX_WITNESS_VARS, _sparse
from attnproof.checker.rules.graph_sums import MAX_DEPTH
from attnproof.checker.rules.graph_sums import bound as graph_bound
from attnproof.checker.rules.graph_sums import factor_graph
from attnproof.checker.rules.graphs import acyclic_orientations
from attnproof.checker.rules.planar import planar_block
from attnproof.checker.rules.state import State, x_points
from attnproof.checker.rules.windows import _direction, binomial_factor
from attnproof.checker.syntax import Budget, Reject

GOLDEN = Path(__file__).resolve().parent.parent / "certificates" / "valid"


def _state(*supports, dim: int = 2) -> State:
    doc = {"format": "attnproof-problem", "version": 1, "dim": dim,
           "heads": [{"atoms": [{"key": list(k), "value": 0} for k in keys]} for keys in supports]}
    return State(pb=parse_problem(doc), budget=Budget(None))


# --- rules/state.py


def _refusal(golden: str, rule: str, change) -> str:
    """The message with which the golden ``golden`` is refused once ``change`` edits
    the first step of ``rule`` in place."""
    doc = json.loads((GOLDEN / golden).read_text())
    change(next(s for s in doc["steps"] if s["rule"] == rule))
    v = check_text(json.dumps(doc))
    assert v.status == "invalid", v
    return v.message


def test_x_points_are_in_lex_order_of_the_dense_vectors():
    # dense (0, 1) < (1, 0): y before x, which a plain tuple sort turns around
    assert x_points({((0, 1),): 1, ((1, 1),): 1}, 2) == [((1, 1),), ((0, 1),)]


def test_heads_with_a_variable_in_no_head_is_empty():
    st = _state([(0, 0), (1, 0)])               # only x varies
    assert st.heads_with({1}) == []
    assert st.heads_with({0, 1}) == []


# --- rules/graph_sums.py

TRIANGLE = {(0, 1): 1, (1, 2): 1, (0, 2): 1}
NEWTON_TRIANGLE_WORK = 13 + 6     # the term (1 + 4 per edge), the block (3 edges, 3 nodes)


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


# --- rules/edges.py


def test_a_face_polynomial_with_a_gap_has_a_zero_coefficient():
    # 1 + t^2 along the edge: the missing middle point is the coefficient 0, not 1
    coef = {(0,): {0: 1}, (2,): {0: 1}}
    assert _face_polynomial([(0,), (2,)], (0,), (1,), coef, "w") == [1, 0, 1]


def test_sturm_count_returns_the_primitive_gcd():
    # (s - 1)^2: the derivative -2 + 2s is divided by its content 2
    assert sturm_count([1, -2, 1]) == (1, [-1, 1])


def test_sturm_count_of_a_constant_has_no_roots():
    assert sturm_count([3]) == (0, [1])


def test_the_work_of_a_sturm_remainder():
    # a = 1 - 2s + s^2 by b = -1 + s: two steps, three coefficients of one word each
    b = Budget(None)
    assert _prem([1, -2, 1], [-1, 1], b) == []
    assert b.used == 9


def test_an_edge_roots_step_with_an_unknown_field_is_refused():
    assert "unknown field" in _refusal("edge-roots.json", "edge_roots",
                                       lambda s: s.update(zz=1))


def test_an_edge_functional_selecting_two_crossing_segments_is_refused():
    # in three variables both factors' faces are segments (x and y) under c = (0, 0, 1):
    # their sum is a square, not an edge
    pts = [[(0, 0, 0), (1, 0, 0)], [(0, 0, 0), (0, 1, 0)]]
    coef = {p: {0: 1} for fp in pts for p in fp}
    ed = SimpleNamespace(pts=pts, d=3, mult=[1, 1], coefs=[coef, coef], box=[1, 1, 0], wp=1)
    with pytest.raises(Reject, match="not collinear"):
        edge(ed, [0, 0, 1], "w", Budget(None))


def test_graph_minors_newton_charges_its_count():
    t = {"by": "newton", "graph_blocks": [{"edges": [[0, 1], [1, 2], [0, 2]], "order": [0, 1, 2]}]}
    b = Budget(None)
    graph_bound(TRIANGLE, t, b, "t")
    assert b.used == NEWTON_TRIANGLE_WORK


def test_graph_minors_odd_with_a_double_first_edge_is_refused():
    # m'(H) of a double edge then a single one: odd needs both of multiplicity 1
    t = {"by": "odd", "edges": [[0, 1], [1, 2]], "first": {"by": "parallel"}, "second": {"by": "parallel"}}
    with pytest.raises(Reject, match="odd needs two distinct edges"):
        graph_bound({(0, 1): 2, (1, 2): 1}, t, Budget(None), "t")


def test_the_factor_graph_skips_a_binomial_that_is_not_an_edge():
    # 1 + x^2 is a bound binomial with c = 1 but no edge x_u + x_v or 1 + x_u
    st = _state([(0, 0), (2, 0)])
    st.factors = [({(): 1, ((0, 2),): 1}, 1)]
    with pytest.raises(Reject, match="no bound factor"):
        factor_graph(st, "w")


# --- rules/graphs.py


def test_a_general_block_of_exactly_max_general_nodes_is_counted():
    k4 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert acyclic_orientations(4, k4, [(k4, None)], max_general=4) == 24


def test_a_graph_block_naming_a_node_outside_the_graph_is_refused():
    with pytest.raises(Reject, match="is not an edge of the graph"):
        acyclic_orientations(3, [(0, 1)], [([(2, 5)], None)])


def test_graph_minors_newton_with_two_blocks_of_a_path():
    # the parts of the block tree are numbered above the nodes: a path in two blocks is 2 · 2
    # (block 1 names node 0, which part 1 would be if the parts started at 1 - max)
    t = {"by": "newton", "graph_blocks": [{"edges": [[1, 2]]}, {"edges": [[0, 1]]}]}
    assert graph_bound({(0, 1): 1, (1, 2): 1}, t, Budget(None), "t") == 4


# D_0 = 1 + x + x^2 (x only), D_1 = 1 + y (y only), D_2 = 1 + x + y (both)
HEADS = ([(0, 0), (1, 0), (2, 0)], [(0, 0), (0, 1)], [(0, 0), (1, 0), (0, 1)])


def _poly(*keys) -> dict:
    return {tuple((v, e) for v, e in enumerate(k) if e): 1 for k in keys}


def test_divisor_candidates_of_a_collinear_trinomial_in_every_order():
    for terms in permutations([(0, 0), (1, 0), (2, 0)]):
        assert _state(*HEADS).divisor_candidates(_poly(*terms)) == [0, 2], terms


def test_divisor_candidates_of_a_triangle_trinomial_in_every_order():
    for terms in permutations([(0, 0), (1, 0), (0, 1)]):
        assert _state(*HEADS).divisor_candidates(_poly(*terms)) == [2], terms


def test_divisor_candidates_of_four_terms_are_the_heads_with_its_variables():
    assert _state(*HEADS).divisor_candidates(_poly((0, 0), (1, 0), (0, 1), (1, 1))) == [2]
    assert _state(*HEADS).divisor_candidates(_poly((0, 0), (1, 0), (2, 0), (3, 0))) == [0, 2]


# D_0 = x + y: both variables, the one direction (1, -1)
XY = ([(1, 0), (0, 1)],)


def test_a_collinear_factor_is_matched_by_variables_not_by_direction():
    # 1 + x + x^2 and 1 + x + x^2 + x^3: [1, x] need not be an edge of a multiple
    assert _state(*XY).divisor_candidates(_poly((0, 0), (1, 0), (2, 0))) == [0]
    assert _state(*XY).divisor_candidates(_poly((0, 0), (1, 0), (2, 0), (3, 0))) == [0]


def test_a_triangle_factor_is_matched_by_the_direction_of_its_first_side():
    # 1 + x + y: the side [1, x] is an edge of every multiple; x + y has no such direction
    assert _state(*XY).divisor_candidates(_poly((0, 0), (1, 0), (0, 1))) == []


# --- rules/windows.py and rules/planar.py


def test_a_line_direction_longer_than_dim_is_refused():
    with pytest.raises(Reject, match="a direction is a list of 2 integers"):
        _direction([1, 0, 0], 2, "w")


def test_a_zero_line_direction_is_refused():
    with pytest.raises(Reject, match="non-zero"):
        _direction([0, 0], 2, "w")


def test_line_coefficients_one_more_than_the_directions_are_refused():
    assert "one entry per direction" in _refusal(
        "k3-lines.json", "line_refutation",
        lambda s: s.update(coefficients=[1] * (len(s["directions"]) + 1)))


def test_a_planar_block_with_an_unknown_field_is_refused():
    with pytest.raises(Reject, match="unknown field"):
        planar_block(_state([(0, 0), (1, 0)]), {"factors": [], "method": "planar", "zz": 1}, [], [], "w")


# --- rules/floors.py


def test_a_floor_witness_that_is_not_a_list_is_refused():
    with pytest.raises(Reject, match="list of \\[variable, value\\] pairs"):
        _sparse(5, "w", 2, True)


def test_a_point_coordinate_zero_is_refused():
    with pytest.raises(Reject, match="positive rationals"):
        _sparse([[0, 0]], "w", 2, True)


def test_a_witness_of_exactly_max_witness_vars_entries_is_read():
    x = [[i, 1] for i in range(MAX_WITNESS_VARS)]
    assert len(_sparse(x, "w", MAX_WITNESS_VARS, False)) == MAX_WITNESS_VARS


def test_non_constant_witnesses_that_are_not_a_list_are_refused():
    assert "one slope or two values" in _refusal("non-constant.json", "non_constant",
                                                 lambda s: s.update(witnesses=5))


def test_a_binomial_factor_of_opposite_signs_is_no_bound_binomial():
    assert binomial_factor({(): 1, ((0, 1),): -1}, 1) is None


def test_a_binomial_factor_in_the_bias_variable_is_no_bound_binomial():
    # 1 + z (index dim = 1): not an x binomial
    assert binomial_factor({(): 1, ((1, 1),): 1}, 1) is None


# --- rules/newton.py


def test_a_vertices_block_that_is_not_a_list_is_refused():
    assert "'vertices' must be a non-empty list" in _refusal(
        "edge-roots.json", "newton_blocks", lambda s: s["blocks"][0].update(vertices=5))
