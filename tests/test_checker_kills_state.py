"""Kill tests for the checker's :class:`State` indexes (``attnproof/checker/rules/state.py``).

``State.heads_with`` and ``State.divisor_candidates`` narrow the heads that a bound factor is
matched against.  A candidate list that misses a head would lose a factor's multiplicity;
one that is too long, or found through the wrong index, costs work that the budget counts.
These tests pin the lists and the charges on small problems where each choice shows.
"""

from __future__ import annotations

from itertools import permutations

from attnproof.checker.problem import parse_problem
from attnproof.checker.rules.state import SMALL_HEAD, State
from attnproof.checker.syntax import Budget


def _atom(key):
    return {"key": list(key), "value": 0}


def _state(*supports, dim: int = 2) -> State:
    """A state over heads whose denominators have the given supports (weights 1)."""
    doc = {"format": "attnproof-problem", "version": 1, "dim": dim,
           "heads": [{"atoms": [_atom(k) for k in keys]} for keys in supports]}
    return State(pb=parse_problem(doc), budget=Budget(None))


def _poly(*keys) -> dict:
    """The polynomial with coefficient 1 on each sparse monomial of the dense ``keys``."""
    return {tuple((v, e) for v, e in enumerate(k) if e): 1 for k in keys}


# D_0 = 1 + x + x^2 (x only), D_1 = 1 + y (y only), D_2 = 1 + x + y (both)
HEADS = ([(0, 0), (1, 0), (2, 0)], [(0, 0), (0, 1)], [(0, 0), (1, 0), (0, 1)])


def test_heads_with_lists_exactly_the_heads_that_involve_every_variable():
    st = _state(*HEADS)
    assert st.heads_with({0}) == [0, 2]
    assert st.heads_with({1}) == [1, 2]
    assert st.heads_with({0, 1}) == [2]
    assert st.heads_with(set()) == [0, 1, 2]


def test_a_collinear_trinomial_is_matched_by_its_variables_not_by_a_side():
    # 1 + x + x^2: its three support points lie on one line, so [1, x] need not be an edge
    # of a multiple's polytope; every head involving x stays a candidate, none other.
    # Whichever term comes first (the sides are taken from it).
    for terms in permutations([(0, 0), (1, 0), (2, 0)]):
        st = _state(*HEADS)
        assert st.divisor_candidates(_poly(*terms)) == [0, 2], terms


def test_a_triangle_trinomial_is_matched_by_its_first_side():
    # 1 + x + y: every side is an edge, and D_2 has all three directions; D_1 and D_0
    # lack the variable x or y
    for terms in permutations([(0, 0), (1, 0), (0, 1)]):
        st = _state(*HEADS)
        assert st.divisor_candidates(_poly(*terms)) == [2], terms


def test_matching_walks_the_rarest_variable_of_the_factor():
    # x_0 is in ten heads, x_1 in one: matching {x_0, x_1} looks at one candidate, not ten
    heads = [[(0, 0), (1, 0)] for _ in range(10)] + [[(0, 0), (1, 1)]]
    st = _state(*heads)
    st.heads_with({0})                      # builds the index (charged on its own)
    before = st.budget.used
    assert st.heads_with({0, 1}) == [10]
    assert st.budget.used - before == 1


def test_heads_above_the_index_size_are_always_candidates_and_those_at_it_are_indexed():
    # SMALL_HEAD terms or fewer: indexed by the directions of their support differences, so
    # a binomial whose direction a head lacks skips it; more terms: always a candidate
    big = [(i, 0) for i in range(SMALL_HEAD)] + [(0, 1)]          # SMALL_HEAD + 1 terms
    at_limit = [(i, 0) for i in range(SMALL_HEAD - 1)] + [(0, 1)]  # SMALL_HEAD terms
    diagonal = [(0, 0), (1, 1)]
    # neither head of x-powers and one y has the direction (1, 1) of 1 + x y
    st = _state(big, diagonal, at_limit)
    assert st.divisor_candidates(_poly((0, 0), (1, 1))) == [0, 1]
    # and each head of x-powers is matched by the direction (1, 0) it has
    st = _state(big, diagonal, at_limit)
    assert st.divisor_candidates(_poly((0, 0), (1, 0))) == [0, 2]
