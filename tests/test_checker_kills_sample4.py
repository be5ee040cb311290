"""Kill tests for the survivors of the fourth seeded sample of the rule modules.

Each test pins a behaviour that a surviving mutant changed: a helper's documented
result, a refusal, the work a check charges, or the lower bound a rule proves.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest

from attnproof.checker import check_text
from attnproof.checker.limits import MAX_DIGITS
from attnproof.checker.linalg import rank
from attnproof.checker.problem import parse_problem
from attnproof.checker.rules.edges import EdgeData, edge
from attnproof.checker.rules.factors import (_irreducible, read_poly, rule_irreducible_factor,
                                             rule_reduced_by_flint)
from attnproof.checker.rules.floors import rule_non_constant, slope_value
from attnproof.checker.rules.graph_sums import rule_graph_minors
from attnproof.checker.rules.newton import _block_count, rule_newton_blocks
from attnproof.checker.rules.state import State
from attnproof.checker.syntax import Budget, Reject, Unsupported

GOLDEN = Path(__file__).resolve().parent.parent / "certificates" / "valid"


def _st(dim: int, factors: list, has_z: bool = False, **pb) -> State:
    return State(pb=SimpleNamespace(dim=dim, has_z=has_z, **pb), budget=Budget(None), factors=factors)


def _problem(dim: int, *heads) -> object:
    return parse_problem({"format": "attnproof-problem", "version": 1, "dim": dim,
                          "heads": [{"atoms": [{"key": k, "value": v} for k, v in atoms]} for atoms in heads]})


# --- rules/newton.py

def _binomial(*exps) -> tuple:
    """``1 + x^exps`` as a bound factor of multiplicity 1."""
    return ({(): 1, tuple((v, e) for v, e in enumerate(exps) if e): 1}, 1)


def test_a_block_sharing_variables_with_any_earlier_block_is_refused():
    # x0, then x1, then x0 again: the third block meets the first, not the one just before
    st = _st(2, [_binomial(1, 0), _binomial(0, 1), _binomial(2, 0)])
    blocks = [{"factors": [j], "method": "zonotope_independent"} for j in range(3)]
    with pytest.raises(Reject, match="shares x variables with an earlier block"):
        rule_newton_blocks(st, {"rule": "newton_blocks", "blocks": blocks}, "s")
    assert st.lower is None


def test_one_generator_in_general_position_is_sent_to_zonotope_independent():
    st = _st(1, [_binomial(1)])
    with pytest.raises(Reject, match="use zonotope_independent"):
        _block_count(st, {"factors": [0], "method": "zonotope_general_position"}, [0], {0}, "b")


def test_general_position_in_rank_three_with_too_many_triples_is_inconclusive():
    # 50 directions (1, i, 0) and (0, 0, 1): rank 3, C(51, 3) triples, above the limit
    factors = [_binomial(1, i, 0) for i in range(50)] + [_binomial(0, 0, 1)]
    st = _st(3, factors)
    fs = list(range(len(factors)))
    with pytest.raises(Unsupported, match="general position of 51 generators"):
        _block_count(st, {"factors": fs, "method": "zonotope_general_position"}, fs, {0, 1, 2}, "b")


# --- rules/factors.py

def test_a_simplex_witness_of_two_terms_is_refused():
    with pytest.raises(Reject, match="at least 3 terms"):
        _irreducible({(): 1, ((0, 1),): 1}, {"kind": "simplex"}, "w", Budget(None))


def test_a_simplex_witness_measures_its_support_from_the_lex_least_point():
    # x0 + x1 + x0·x1: the lex-least point is x1 (dense (0, 1)); its differences are
    # x0/x1 and x0, whose exact rank is the work charged
    b = Budget(None)
    _irreducible({((0, 1),): 1, ((0, 1), (1, 1)): 1, ((1, 1),): 1}, {"kind": "simplex"}, "w", b)
    ref = Budget(None)
    assert rank([{0: 1, 1: -1}, {0: 1}], ref) == 2
    assert b.used == ref.used


def test_an_exponent_of_more_digits_than_allowed_is_refused_also_when_negative():
    with pytest.raises(Reject, match=f"more than {MAX_DIGITS} digits"):
        read_poly([[1, []], [1, [[0, -10 ** MAX_DIGITS]]]], "p", 1)
    assert read_poly([[1, []], [1, [[0, 1 - 10 ** MAX_DIGITS]]]], "p", 1)[((0, 1 - 10 ** MAX_DIGITS),)] == 1


F_TRIANGLE = {(): 1, ((0, 1),): 1, ((1, 1),): 1}          # 1 + x0 + x1
F_STEP = {"rule": "irreducible_factor", "poly": [[1, []], [1, [[0, 1]]], [1, [[1, 1]]]],
          "witness": {"kind": "simplex"}, "heads": [[0, 1], [1, 1]], "residue_component": 0}


def _residue_work(c: int) -> int:
    """The work of binding 1 + x0 + x1 for two heads with that denominator, the first
    with numerator c·(1 + x0² + x1²), the second 0."""
    N = {(): c, ((0, 2),): c, ((1, 2),): c}
    st = _st(2, [], den=[dict(F_TRIANGLE), dict(F_TRIANGLE)], num=[[N], [{}]], value_dim=1)
    rule_irreducible_factor(st, json.loads(json.dumps(F_STEP)), "s")
    assert st.factors == [(F_TRIANGLE, 1)]
    return st.budget.used


def test_the_residue_of_two_heads_costs_coefficients_of_one_word_like_small_ones():
    # 2^62 fits a word; the residue numerator is the sum of N_h times the other C_g
    # exactly (the products start from 1), so nothing crosses to two words
    assert _residue_work(2 ** 62) == _residue_work(1)


def test_a_factor_naming_a_variable_beyond_the_bias_is_refused_as_it_is_read():
    st = _st(1, [], has_z=True, den=[{(): 1, ((0, 1),): 1}], num=[[{(): 1}]], value_dim=1)
    step = {"rule": "irreducible_factor", "poly": [[1, []], [1, [[2, 1]]]],
            "witness": {"kind": "linear", "var": 2}, "heads": [[0, 1]], "residue_component": 0}
    with pytest.raises(Reject, match="variable 2 does not exist"):
        rule_irreducible_factor(st, step, "s")


def test_a_flint_denominator_without_biases_has_no_bias_variable():
    st = _st(1, [], den=[{(): 1, ((0, 1),): 1}], num=[[{(): 1}]], value_dim=1)
    step = {"rule": "reduced_by_flint", "numerator": [[[1, []]]], "denominator": [[1, []], [1, [[1, 1]]]]}
    with pytest.raises(Reject, match="variable 1 does not exist"):
        rule_reduced_by_flint(st, step, "s")


def test_no_irreducible_factor_follows_reduced_by_flint():
    doc = json.loads((GOLDEN / "flint.json").read_text())
    # 1 + x divides both denominators (1 + x^3 and 1 + x) once
    doc["steps"].insert(1, {"rule": "irreducible_factor", "poly": [[1, []], [1, [[0, 1]]]],
                            "witness": {"kind": "linear", "var": 0}, "heads": [[0, 1], [1, 1]],
                            "residue_component": 0})
    v = check_text(json.dumps(doc))
    assert v.status == "invalid" and "cannot follow reduced_by_flint" in v.message, v.message


# --- rules/floors.py

def test_the_slope_of_a_logistic_head_is_a_quarter():
    # M(x) = x / (1 + x): d/dt M(e^t) at t = 0 is 1/4, positive
    pb = _problem(1, [([0], 0), ([1], 1)])
    assert slope_value(pb, {0: 1}) == (Fraction(1, 4),)
    assert slope_value(pb, {0: -1}) == (Fraction(-1, 4),)


def test_a_point_that_misses_every_variable_of_a_head_still_evaluates_exactly():
    # M = 1 / (1 + x1 + x1²) does not involve x0: its limit along x0 and its value at
    # x0 = 2 are both exactly 1/3, so they prove nothing
    pb = _problem(2, [([0, 0], 1), ([0, 1], 0), ([0, 2], 0)])
    st = State(pb=pb, budget=Budget(None), lower=1)
    step = {"rule": "non_constant", "witnesses": [{"limit": [[0, 1]]}, {"point": [[0, 2]]}]}
    with pytest.raises(Reject, match="same value at both witnesses"):
        rule_non_constant(st, step, "s")
    assert st.lower == 1


# --- rules/edges.py

def test_the_difference_lattice_is_measured_from_a_factor_point():
    # x0 + x0^5 (a head kept whole, as generic_heads binds it): differences 4Z, so the
    # edge polynomial is 1 + t, one negative root
    st = _st(1, [({((0, 1),): 1, ((0, 5),): 1}, 1)])
    ed = EdgeData(st, "e")
    assert ed.box == [4]
    assert edge(ed, [0], "e", Budget(None)) == (((1,), (5,)), 1)


def test_a_factor_constant_in_x_adds_nothing_to_the_difference_lattice():
    # 1 + z has a single x-point beside 1 + x0
    st = _st(1, [({(): 1, ((0, 1),): 1}, 1), ({(): 1, ((1, 1),): 1}, 1)], has_z=True)
    ed = EdgeData(st, "e")
    assert ed.box == [1]
    assert edge(ed, [0], "e", Budget(None)) == (((0,), (1,)), 1)


# --- rules/graph_sums.py

ONE_EDGE = {"by": "newton", "graph_blocks": [{"edges": [[0, 1]], "order": [0, 1]}]}


def test_graph_minors_never_lowers_the_bound():
    st = _st(1, [({(): 1, ((0, 1),): 1}, 1)])            # 1 + x0: the edge {0, ground}
    st.lower = 5
    rule_graph_minors(st, {"rule": "graph_minors", "proof": ONE_EDGE}, "s")
    assert st.lower == 5
    st.lower = 1
    rule_graph_minors(st, {"rule": "graph_minors", "proof": ONE_EDGE}, "s")
    assert st.lower == 2
