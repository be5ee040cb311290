"""Kill tests for the geometry rules (``attnproof/checker/rules/geometry.py``): the
fourth sample of their survivors.

Each test pins a behaviour of a rule or of one of its helpers: a refusal, a lower
bound, or the work a step charges (part of the verdict: ``check_text(text).work``).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from attnproof.checker import poly as P
from attnproof.checker.problem import parse_problem
from attnproof.checker.rules.geometry import (_dots, _gordan_non_vertices, _list, _non_homothetic,
                                              _point_non_vertices, _proportional, _translate,
                                              _width_class, _zmul, _zweight, rule_generic_heads,
                                              rule_indecomposable_chain, rule_minkowski_vertices)
from attnproof.checker.rules.state import State
from attnproof.checker.syntax import Budget, Reject

SEGMENT = {(): 1, ((0, 1),): 1}                 # 1 + x: the points 0 and 1


def _state(*supports, dim: int = 2) -> State:
    doc = {"format": "attnproof-problem", "version": 1, "dim": dim,
           "heads": [{"atoms": [{"key": list(k), "value": i} for i, k in enumerate(keys)]} for keys in supports]}
    return State(pb=parse_problem(doc), budget=Budget(None))


def _segments(k: int) -> State:
    st = _state([(0,), (1,)], dim=1)
    st.factors = [(dict(SEGMENT), 1) for _ in range(k)]
    return st


def _count(vertices, non_vertices=(), complete=True, factors=1) -> dict:
    return {"rule": "minkowski_vertices", "complete": complete, "vertices": vertices,
            "non_vertices": list(non_vertices), "point_non_vertices": [[] for _ in range(factors)]}


# --- small helpers: their documented values


def test_dot_products_of_long_words_cost_their_word_products():
    assert _dots(1, 64, 1, 1) == 9
    assert _dots(1, 1, 104, 104) == 85


def test_a_product_of_two_z_polynomials_keeps_its_terms():
    assert _zmul({0: 1, 1: 1}, {0: 1, 1: -1}) == {0: 1, 2: -1}


def test_a_long_coefficient_weighs_one_unit_per_extra_word():
    assert _zweight({0: 1 << 200}) == 4                 # one term, three words beyond the first
    assert _zweight({0: Fraction(1, 3), 1: 1}) == 6     # two terms, one Fraction


def test_an_empty_list_is_refused_where_one_entry_is_needed():
    with pytest.raises(Reject, match="non-empty list of things"):
        _list([], "w", "things", 1)
    with pytest.raises(Reject, match="list of things"):
        _list(5, "w", "things", 1)


def test_supports_of_one_size_and_different_shapes_are_no_translates():
    # {0, e_x} and {0, e_y}: two points each, not translates of each other
    assert _translate({(): {0: 1}, ((0, 1),): {0: 1}}, {(): {0: 1}, ((1, 1),): {0: 1}}) is None


def test_widths_ignore_the_z_exponents():
    f = {((0, 1),): 1, ((1, 2), (2, 5)): 1}       # points (1, 0) and (0, 2); z (index 2) dropped
    assert _width_class(f, [[1, 0], [0, 1], [1, 1]], 2) == (1, 2, 1)


def test_widths_beyond_float_precision_stay_exact():
    f = {(): 1, ((0, 1),): 1}                     # the points 0 and 1
    assert _width_class(f, [[2 ** 60 + 1], [1]], 1) == (2 ** 60 + 1, 1)


# --- coefficients compared exactly when their images say nothing


def test_coefficients_without_an_image_are_compared_exactly():
    # 1/IMAGE_PRIME has no image: the exact products decide, and 1/P : 1 is not 1 : 1
    st = _state([(0, 0), (1, 0)])
    A = {(): {0: Fraction(1, P.IMAGE_PRIME)}, ((0, 1),): {0: 1}}
    B = {(): {0: 1}, ((0, 1),): {0: 1}}
    assert _proportional(A, B, (), st, "w") is False


# --- point non-vertices


def test_a_non_vertex_needs_positive_multipliers():
    # with a multiplier 0 every point would be a "convex combination" of the others
    st = _state([(0, 0), (1, 0)])
    with pytest.raises(Reject, match="at least 1"):
        _point_non_vertices([[0, [[1, 0]]]], [(0,), (1,), (2,)], "w", st)


# --- Gordan certificates of the vertex enumeration


def test_a_gordan_multiplier_on_a_missing_point_is_refused():
    st = _segments(2)
    pts = [[(0,), (1,)], [(0,), (1,)]]
    with pytest.raises(Reject, match="increasing"):
        _gordan_non_vertices(st, [[[0, 0], [[0, 2, 1]]]], pts, [2, 2], 1, 1, [{}, {}], "w")


def test_long_gordan_multipliers_are_charged_by_their_words():
    pts = [[(0,), (1,)], [(0,), (1,)]]
    big = 2 ** 4100                                # 65 words: 1 + 65 // 64 = 2 units a product
    st = _segments(2)
    _gordan_non_vertices(st, [[[0, 1], [[0, 1, big], [1, 0, big]]]], pts, [2, 2], 1, 1, [{}, {}], "w")
    assert st.budget.used == 2 * 1 * 2            # two multipliers, one coordinate
    st = _segments(2)
    _gordan_non_vertices(st, [[[0, 1], [[0, 1, 1], [1, 0, 1]]]], pts, [2, 2], 1, 1, [{}, {}], "w")
    assert st.budget.used == 2


# --- minkowski_vertices


def test_three_segments_have_two_vertices_and_refuted_prefixes():
    st = _segments(3)
    rule_minkowski_vertices(st, _count([[[0, 0, 0], [0], [-1]], [[1, 1, 1], [3], [1]]],
                                       [[[0, 0, 1], [[0, 1, 1], [2, 0, 1]]],
                                        [[0, 1], [[0, 1, 1], [1, 0, 1]]],
                                        [[1, 0], [[0, 0, 1], [1, 1, 1]]],
                                        [[1, 1, 0], [[0, 0, 1], [2, 1, 1]]]], factors=3), "w")
    assert (st.lower, st.complete) == (2, True)


def test_a_refuted_prefix_below_a_refuted_prefix_is_no_candidate():
    # (0, 1, 0) is never reached: its prefix (0, 1) is refuted already
    st = _segments(3)
    with pytest.raises(Reject, match="not a candidate of the enumeration"):
        rule_minkowski_vertices(st, _count([[[0, 0, 0], [0], [-1]], [[1, 1, 1], [3], [1]]],
                                           [[[0, 0, 1], [[0, 1, 1], [2, 0, 1]]],
                                            [[0, 1], [[0, 1, 1], [1, 0, 1]]],
                                            [[0, 1, 0], [[0, 1, 1], [1, 0, 1]]],
                                            [[1, 0], [[0, 0, 1], [1, 1, 1]]],
                                            [[1, 1, 0], [[0, 0, 1], [2, 1, 1]]]], factors=3), "w")


def test_a_partial_count_cannot_list_every_candidate():
    both = [[[0], [0], [-1]], [[1], [1], [1]]]
    st = _segments(1)
    rule_minkowski_vertices(st, _count(both), "w")
    assert (st.lower, st.complete) == (2, True)
    with pytest.raises(Reject, match="not every candidate tuple"):
        rule_minkowski_vertices(_segments(1), _count(both, complete=False), "w")


def test_a_second_vertex_count_is_refused():
    st = _segments(1)
    st.lower = 2
    with pytest.raises(Reject, match="a second lower-bound step"):
        rule_minkowski_vertices(st, _count([[[0], [0], [-1]], [[1], [1], [1]]]), "w")


# --- indecomposable_chain


TRIANGLE = [(0, 0), (1, 0), (0, 1)]       # points, sorted: 0 = (0, 0), 1 = (0, 1), 2 = (1, 0)


def _chain(*triangles) -> dict:
    return {"rule": "indecomposable_chain", "head": 0, "kind": "chain",
            "triangles": list(triangles), "non_vertices": []}


def test_a_triangle_with_a_repeated_vertex_is_refused():
    # [0, 0, 2] with a functional exposing the edge {0, 2}: two points, no triangle
    with pytest.raises(Reject, match="a < b < c"):
        rule_indecomposable_chain(_state(TRIANGLE), _chain([[0, 0, 2], [0, -1]]), "w")


def test_a_triangle_vertex_past_the_points_is_refused_before_its_functional_is_read():
    used = []
    for c in (3, 5):
        st = _state(TRIANGLE)
        with pytest.raises(Reject, match="a < b < c"):
            rule_indecomposable_chain(st, _chain([[0, 1, c], [1, 1]]), "w")
        used.append(st.budget.used)
    assert used[0] == used[1]


# --- generic_heads


def test_an_empty_class_of_heads_is_refused():
    st = _state(TRIANGLE)
    st.chains[0] = "chain"
    with pytest.raises(Reject, match="non-empty list of head indices"):
        rule_generic_heads(st, {"rule": "generic_heads", "classes": [[], [0]]}, "w")


def test_one_class_needs_no_width_functionals():
    st = _state(TRIANGLE)
    _non_homothetic(st, {}, [0], {0}, "w")       # one non-constant class: nothing to separate


def test_width_functionals_are_charged_by_their_words():
    st = _state([(0, 0), (1, 0)], [(0, 0), (0, 1)])
    big = 2 ** 4100                               # 65 words; exponents: 1 word
    _non_homothetic(st, {"width_functionals": [[big, 0], [0, 1]]}, [0, 1], {0}, "w")
    sizes = sum(P.size(D) + 1 for D in st.pb.den)
    # reading: 2 functionals × (dim + 1); widths: 2 × sizes × (1 + 65 // 64)
    # and 3 × 2 functionals × 2 heads × (1 + 66·66 // 64)
    assert st.budget.used == 2 * 3 + 2 * sizes * 2 + 3 * 2 * 2 * 69


# --- survivors of the full set (5 December 2026)


def _simplex(prime: int = 101) -> dict:
    return {"rule": "indecomposable_chain", "head": 0, "kind": "simplex", "prime": prime}


def test_a_simplex_of_the_right_size_still_needs_independent_differences():
    # three collinear points in the plane: 2 differences in dimension 2, but dependent; the
    # denominator 1 + xy + (xy)^2 splits over C, so it is no absolutely irreducible simplex
    with pytest.raises(Reject, match="not independent modulo 101"):
        rule_indecomposable_chain(_state([(0, 0), (1, 1), (2, 2)]), _simplex(), "w")
    # independent over Q, dependent modulo 3: (1, 0) and (0, 3)
    with pytest.raises(Reject, match="not independent modulo 3"):
        rule_indecomposable_chain(_state([(0, 0), (1, 0), (0, 3)]), _simplex(3), "w")
    st = _state([(0, 0), (1, 0), (0, 3)])
    rule_indecomposable_chain(st, _simplex(), "w")
    assert st.chains == {0: "simplex"}


def test_a_class_member_with_other_multiplicities_is_no_monomial_multiple():
    # keys {0, 1} and {0, 1, 1}: 1 + x and 1 + 2x, one shape, not associates
    st = _state([(0,), (1,)], [(0,), (1,), (1,)], dim=1)
    st.chains[0] = "chain"
    with pytest.raises(Reject, match="head 1 is not D_0 times a monomial unit"):
        rule_generic_heads(st, {"rule": "generic_heads", "classes": [[0, 1]]}, "w")


def test_two_classes_whose_denominators_differ_by_a_constant_are_associates():
    # keys {0, 0, 1, 1} and {0, 1}: 2 + 2x = 2 (1 + x), so one class, not two
    st = _state([(0,), (0,), (1,), (1,)], [(0,), (1,)], dim=1)
    st.chains.update({0: "chain", 1: "chain"})
    with pytest.raises(Reject, match="heads 0 and 1 are associates"):
        rule_generic_heads(st, {"rule": "generic_heads", "classes": [[0], [1]]}, "w")
