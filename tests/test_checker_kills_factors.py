"""Kill tests for the factor rules (``attnproof/checker/rules/factors.py``).

``irreducible_factor`` binds an irreducible factor of the reduced denominator: its
polynomial is read term by term, its irreducibility witness is checked, its ``heads`` hint
(every ``a_h = v_f(D_h) >= 1``) verified and never searched, its residue expanded within
``MAX_EXPANSION`` terms.  ``reduced_by_flint`` reads a numerator per value
component.  Each test below is a small certificate or rule call where one of these checks
decides: a forged witness (the true factorization known), a malformed polynomial or
numerator, a residue at exactly the expansion limit, a numerator component that is zero, a
hint that lists a head too many, one too few or a wrong exponent.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from attnproof.checker import check_text
from attnproof.checker.limits import MAX_EXPANSION
from attnproof.checker.problem import parse_problem
from attnproof.checker.rules.factors import (_irreducible, read_poly,
                                             rule_irreducible_factor)
from attnproof.checker.rules.state import State
from attnproof.checker.syntax import Budget, Reject, Unsupported
from attnproof.io import canonical_json

def _problem(dim, *heads):
    return {"format": "attnproof-problem", "version": 1, "dim": dim, "heads": list(heads)}


def _points(*keys):
    """A head with one atom per key, values 0, 1, 2, ... (all keys vertices)."""
    return {"atoms": [{"key": list(k), "value": v} for v, k in enumerate(keys)]}


def _certificate(pb: dict, steps: list, lower: int, upper: int) -> dict:
    return {"format": "attnproof-certificate", "version": 1, "trust": "exact", "problem": pb,
            "problem_sha256": hashlib.sha256(canonical_json(pb).encode()).hexdigest(),
            "claims": {"lower_bound": lower, "upper_bound": upper,
                       "minimum": lower if lower == upper else None, "window_refutations": []},
            "steps": steps}


def _check(doc: dict):
    return check_text(canonical_json(doc))


def _factor(poly, witness, heads=((0, 1),)) -> dict:
    return {"rule": "irreducible_factor", "poly": poly, "witness": witness,
            "heads": [list(h) for h in heads], "residue_component": 0}


# 1 + x0 + x0·x1^2 = 1 + x0·(1 + x1^2): linear in x0, whose coefficient 1 + x1^2 has two
# terms while the part free of x0 is the single term 1 (a unit); x1 only appears squared
LINEAR_IN_X0 = [[1, []], [1, [[0, 1]]], [1, [[0, 1], [1, 2]]]]
ONE_TERM_FREE = _problem(2, _points((0, 0), (1, 0), (1, 2)))


def _one_term_free(witness) -> dict:
    steps = [_factor(LINEAR_IN_X0, witness),
             {"rule": "newton_blocks", "blocks": [{"factors": [0], "method": "vertices",
                                                   "vertices": [[[0, 0], [-2, 0]],
                                                                [[1, 0], [2, -1]],
                                                                [[1, 2], [0, 1]]]}]},
             {"rule": "explicit_fusion", "head": {"atoms": [
                 {"key": [0, 0], "value": 0}, {"key": [1, 0], "value": 1},
                 {"key": [1, 2], "value": 2}]}}]
    return _certificate(ONE_TERM_FREE, steps, 3, 3)


def _linear(f: dict, v: int) -> bool:
    try:
        _irreducible(f, {"kind": "linear", "var": v}, "w", Budget(None))
    except Reject as e:
        assert "not linear in variable" in str(e), str(e)
        return False
    return True


def test_a_polynomial_is_linear_where_one_term_is_free_of_the_variable():
    """``f = a + b·x_i`` is a linear witness when ``a`` or ``b`` is a single term: here ``b``
    has two terms (x0 and x0·x1^2) and ``a = 1`` one."""
    f = {(): 1, ((0, 1),): 1, ((0, 1), (1, 2)): 1}
    assert _linear(f, 0) and not _linear(f, 1)                           # x1 only squared
    assert not _linear({(): 1, ((0, 2),): 1, ((0, 2), (1, 2)): 1}, 0)     # no exponent 1
    assert _linear({(): 1, ((0, 1),): 1, ((1, 1),): 1}, 0)                # b = 1
    assert _linear({(): 1, ((0, 1),): 1, ((1, 1),): 1}, 1)                # any variable that holds
    assert not _linear({(): 1, ((0, 1),): 1, ((1, 1),): 1, ((0, 1), (1, 1)): 1}, 0)   # 2 and 2
    assert not _linear({(): 1, ((0, 1),): 1}, 3)                          # not a variable of f


def test_the_linear_witness_by_the_single_term_free_of_the_variable_is_accepted():
    doc = _one_term_free({"kind": "linear", "var": 0})
    v = _check(doc)
    assert v.status == "valid" and v.minimum == 3, v.message
    # any witness that holds proves irreducibility, the simplex one too: that the producer
    # writes the canonical one is a lint of its own tests (tests/test_certificate.py)
    doc = _one_term_free({"kind": "simplex"})
    v = _check(doc)
    assert v.status == "valid" and v.minimum == 3, v.message
    doc = _one_term_free({"kind": "linear", "var": 1})
    v = _check(doc)
    assert v.status == "invalid" and "not linear in variable 1" in v.message, v.message


# 1 + x^3 = (1 + x)(1 - x + x^2): a binomial whose exponent difference has content 3
CUBE = _problem(1, _points((0,), (3,)))


def _cube(witness) -> dict:
    steps = [_factor([[1, []], [1, [[0, 3]]]], witness),
             {"rule": "newton_blocks", "blocks": [{"factors": [0], "method": "vertices",
                                                   "vertices": [[[0], [-1]], [[3], [1]]]}]},
             {"rule": "explicit_fusion", "head": {"atoms": [{"key": [0], "value": 0},
                                                            {"key": [3], "value": 1}]}}]
    return _certificate(CUBE, steps, 2, 2)


def test_a_reducible_binomial_is_not_irreducible_by_any_witness():
    """1 + x^3 is divisible by 1 + x: its 'binomial' witness fails on the gcd 3 of the edge
    vector, its 'capelli' witness on Capelli's theorem (-1 is a cube)."""
    v = _check(_cube({"kind": "binomial"}))
    assert v.status == "invalid" and "gcd 3" in v.message, v.message
    v = _check(_cube({"kind": "capelli"}))
    assert v.status == "invalid" and "reducible by Capelli" in v.message, v.message


@pytest.mark.parametrize("var, why", [(-1, "witness: var: must be at least 0"),
                                      ("0", "witness: var: expected an integer")])
def test_a_linear_witness_names_a_variable_index(var, why):
    doc = _one_term_free({"kind": "linear", "var": var})
    v = _check(doc)
    assert v.status == "invalid" and why in v.message, v.message


# -- reading polynomials: every term's pairs ------------------------------------------------

@pytest.mark.parametrize("term", [
    [[0, 1], [1, 0]],          # a zero exponent after a good pair
    [[1, 0]],                  # a zero exponent alone
    [[1, 1], [0, 1]],          # variables decreasing
    [[0, 1], [0, 2]],          # a variable repeated
])
def test_a_monomial_has_nonzero_exponents_and_increasing_variables(term):
    with pytest.raises(Reject) as e:
        read_poly([[1, []], [1, term]], "p", 2)
    assert str(e.value) == ("p, term 1: pairs must have non-zero exponents and increasing "
                            "variables"), str(e.value)


def test_a_factor_with_a_zero_exponent_is_rejected():
    """[[0, 1], [1, 0]] is x0 written with a pair x1^0: not the canonical monomial."""
    doc = _one_term_free({"kind": "linear", "var": 0})
    doc["steps"][0]["poly"] = [[1, []], [1, [[0, 1], [1, 0]]], [1, [[0, 1], [1, 2]]]]
    v = _check(doc)
    assert v.status == "invalid" and "poly, term 1: pairs must have non-zero" in v.message, \
        v.message


# -- the residue's expansion limit ------------------------------------------------------------

def _expansion_state(numerator_terms: int) -> tuple:
    """Two heads with the factor ``f = 1 + x0`` once: ``D_1 = f·C_1``, ``D_2 = f·C_2`` with
    ``C_1 = Σ_{k<125} x1^k``, ``C_2 = Σ_{k<125} x2^k``.  The value is ``i + 1`` on the first
    ``numerator_terms`` atoms of head 1 (so ``f`` does not divide it, nor ``X = N_1·C_2``)
    and 0 elsewhere: the residue bound is ``numerator_terms·125·125``."""
    def head(var, big):
        atoms = []
        for k in range(125):
            for x0 in (0, 1):
                key = [x0, 0, 0]
                key[var] = k
                i = len(atoms)
                atoms.append({"key": key, "value": i + 1 if big and i < numerator_terms else 0})
        return {"atoms": atoms}
    pb = parse_problem(_problem(3, head(1, True), head(2, False)))
    return State(pb=pb, budget=Budget(None))


def test_a_residue_of_exactly_the_expansion_limit_is_expanded():
    """``MAX_EXPANSION`` terms are allowed, one more is not (``2·10^6 = 128·125·125``)."""
    step = _factor([[1, []], [1, [[0, 1]]]], {"kind": "linear", "var": 0}, [[0, 1], [1, 1]])
    assert 128 * 125 * 125 == MAX_EXPANSION
    st = _expansion_state(128)
    rule_irreducible_factor(st, step, "s")
    assert st.factors == [({(): 1, ((0, 1),): 1}, 1)]
    st = _expansion_state(129)
    with pytest.raises(Unsupported, match=f"more than {MAX_EXPANSION} terms"):
        rule_irreducible_factor(st, step, "s")


# -- reduced_by_flint: one numerator per value component -------------------------------------

def _flint(values_dim: int, numerator: list) -> dict:
    """σ(3q) + σ(q)/3 (the golden ``flint`` certificate), its values padded with zero
    components up to ``values_dim``."""
    def val(x):
        return [x] + [0] * (values_dim - 1) if values_dim > 1 else x
    pb = _problem(1, {"atoms": [{"key": [3], "value": val(1)}, {"key": [0], "value": val(0)}]},
                  {"atoms": [{"key": [1], "value": val("1/3")}, {"key": [0], "value": val(0)}]})
    steps = [{"rule": "reduced_by_flint", "numerator": numerator,
              "denominator": [[1, []], [1, [[0, 3]]]]},
             {"rule": "newton_blocks", "blocks": [{"factors": [0], "method": "vertices",
                                                   "vertices": [[[0], [-1]], [[3], [1]]]}]},
             {"rule": "explicit_fusion", "head": {"atoms": [
                 {"key": [k], "value": val(x), "weight": 3}
                 for k, x in ((0, 0), (1, "1/3"), (3, 1), (4, "4/3"))]}}]
    doc = _certificate(pb, steps, 2, 4)
    doc["trust"] = "exact-modulo-flint"
    return doc


P0 = [["1/3", [[0, 1]]], ["-1/3", [[0, 2]]], ["4/3", [[0, 3]]]]


def _flint_or_missing(v) -> bool:
    """Valid, or inconclusive only because python-flint is not importable here."""
    return v.status == "valid" or (v.status == "inconclusive" and "python-flint" in v.message)


def test_a_zero_numerator_component_is_written_as_an_empty_list():
    v = _check(_flint(1, [P0]))
    assert _flint_or_missing(v), v.message
    v = _check(_flint(2, [P0, []]))
    assert _flint_or_missing(v), v.message
    v = _check(_flint(3, [P0, [], []]))
    assert _flint_or_missing(v), v.message


@pytest.mark.parametrize("numerator", [[P0, []], [P0, P0], [], {"0": P0}, P0[0]])
def test_a_numerator_lists_one_polynomial_per_value_component(numerator):
    v = _check(_flint(1, numerator))
    assert v.status == "invalid" and "numerator must list 1 polynomials" in v.message, v.message


# -- residues that are binomials: divisibility in closed form --------------------------------

HUGE = 10 ** 12 + 1          # odd: 1 + x^HUGE is divisible by 1 + x


def _binomial_residue_state(work: int) -> State:
    """One head ``(x^HUGE·[1, 1] + [1, 0]) / (1 + x^HUGE)``: its value component 0 is the
    binomial ``1 + x^HUGE`` (divisible by ``f = 1 + x``), component 1 the single term
    ``x^HUGE`` (not divisible)."""
    pb = parse_problem(_problem(1, {"atoms": [{"key": [0], "value": [1, 0]},
                                              {"key": [HUGE], "value": [1, 1]}]}))
    return State(pb=pb, budget=Budget(work))


def test_a_binomial_residue_is_divided_in_closed_form():
    """Binomial valuations cost the sizes of the two binomials, whatever the exponents; an
    exact division of ``1 + x^HUGE`` by ``1 + x`` would take ``HUGE`` steps (past any
    budget: inconclusive)."""
    step = dict(_factor([[1, []], [1, [[0, 1]]]], {"kind": "linear", "var": 0}),
                residue_component=1)
    st = _binomial_residue_state(1000)
    rule_irreducible_factor(st, step, "s")
    assert st.factors == [({(): 1, ((0, 1),): 1}, 1)]
    assert st.budget.used < 100, st.budget.used
    # component 0 is divisible, so it is not the residue component
    st = _binomial_residue_state(1000)
    with pytest.raises(Reject, match="the factor divides the residue numerator of component 0"):
        rule_irreducible_factor(st, dict(step, residue_component=0), "s")


@pytest.mark.parametrize("witness", ["linear", ["linear", 0], None, 0])
def test_a_witness_is_an_object(witness):
    doc = _one_term_free({"kind": "linear", "var": 0})
    doc["steps"][0]["witness"] = witness
    v = _check(doc)
    assert v.status == "invalid" and "unknown irreducibility witness None" in v.message, \
        v.message


@pytest.mark.parametrize("biased", [False, True], ids=["no-z", "z"])
def test_the_variable_z_exists_only_with_biases(biased):
    """Variable ``dim`` is ``z`` (THEORY §2), in the lattice only when some atom has a bias: a
    factor in it is then read (and divides no head here), else it is no variable at all."""
    doc = _one_term_free({"kind": "linear", "var": 0})
    if biased:
        doc["problem"] = json.loads(json.dumps(ONE_TERM_FREE))
        doc["problem"]["heads"].append({"atoms": [{"key": [0, 0], "value": 1, "bias": 1},
                                                  {"key": [0, 0], "value": 0}]})
        doc["problem_sha256"] = hashlib.sha256(canonical_json(doc["problem"]).encode()).hexdigest()
    doc["steps"][0]["poly"] = [[1, []], [1, [[0, 1]]], [1, [[0, 1], [2, 2]]]]
    v = _check(doc)
    why = ("head 0: the factor divides its denominator 0 times, not 1" if biased else
           "poly, term 2: variable 2 does not exist (the lattice has 2)")
    assert v.status == "invalid" and why in v.message, v.message


def _forge_factor_step(change) -> dict:
    doc = _one_term_free({"kind": "linear", "var": 0})
    change(doc["steps"])
    return doc


@pytest.mark.parametrize("change, why", [
    (lambda s: s[0].update(residue_component=-1), "residue_component: must be at least 0"),
    (lambda s: s[0].update(residue_component=1), "residue_component 1 out of range"),
    (lambda s: s.insert(1, json.loads(json.dumps(s[0]))), "strictly increasing by their "
                                                           "canonical JSON text"),
    (lambda s: s[0].update(poly=[[1, []], [1, [[-1, 1]]]]), "variable: must be at least 0"),
], ids=["component-negative", "component-past-the-values", "factor-twice", "variable-negative"])
def test_a_factor_step_is_refused_for_its_own_reason(change, why):
    v = _check(_forge_factor_step(change))
    assert v.status == "invalid" and why in v.message, v.message


def test_reduced_by_flint_reads_the_variable_z_when_some_atom_is_biased():
    """With a biased head the lattice has ``dim + 1`` variables: the fraction is read, and
    then found unequal to the sum of the heads (the added head is not in it)."""
    doc = _flint(1, [P0])
    doc["problem"]["heads"].append({"atoms": [{"key": [0], "value": 1, "bias": 1},
                                              {"key": [0], "value": 0}]})
    doc["problem_sha256"] = hashlib.sha256(canonical_json(doc["problem"]).encode()).hexdigest()
    v = _check(doc)
    assert v.status == "invalid" and "not equal to the sum of the heads" in v.message, v.message


# x^3/(1 + x^3) + 1/(1 + x) = (x^3 + 1 - x + x^2) / (1 + x^3): both denominators are binomials
# that 1 + x divides once (valuations in closed form), and it survives the sum because the
# numerator is 2 at x = -1; the residue must use D_h / (1 + x) = 1 - x + x^2 for the first
# head (with 1 in its place the residue x^3 + 1 would be divisible)
TWO_BINOMIAL_HEADS = _problem(1, {"atoms": [{"key": [0], "value": 0}, {"key": [3], "value": 1}]},
                              {"atoms": [{"key": [0], "value": 1}, {"key": [1], "value": 0}]})


def test_the_residue_of_two_binomial_heads_uses_their_quotients():
    x = -1
    assert x ** 3 + (1 - x + x ** 2) == 2          # the numerator at the root of 1 + x
    steps = [_factor([[1, []], [1, [[0, 1]]]], {"kind": "linear", "var": 0}, [[0, 1], [1, 1]]),
             {"rule": "newton_blocks", "blocks": [{"factors": [0],
                                                   "method": "zonotope_independent"}]},
             {"rule": "product_fusion"}]
    v = _check(_certificate(TWO_BINOMIAL_HEADS, steps, 2, 4))
    assert v.status == "valid" and v.lower_bound == 2, v.message
    # the hint lists both heads: without one of them the residue is that of the other alone,
    # and the head left out is found when the factors end
    steps[0]["heads"] = [[1, 1]]
    v = _check(_certificate(TWO_BINOMIAL_HEADS, steps, 2, 4))
    assert v.status == "invalid" and ("step 0 (irreducible_factor): heads: the factor divides "
                                      "the denominator of head 0, which is not listed"
                                      ) in v.message, v.message
    steps[0]["heads"] = [[0, 1]]
    v = _check(_certificate(TWO_BINOMIAL_HEADS, steps, 2, 4))
    assert v.status == "invalid" and "denominator of head 1, which is not listed" in v.message, \
        v.message


# -- the heads hint: every a_h verified, nothing searched ------------------------------------

# x0/(1 + x0)^2 + x1/(1 + x1) + x0·x1/((1 + x0)(1 + x1)): 1 + x0 divides head 0 twice (a
# trinomial: repeated exact division) and head 2 once (1 + x1 is left over: no associate);
# 1 + x1 divides head 1 (an associate) and head 2
SQUARE = _problem(2, {"atoms": [{"key": [0, 0], "value": 0},
                                {"key": [1, 0], "value": 1, "weight": 2},
                                {"key": [2, 0], "value": 0}]},
                  {"atoms": [{"key": [0, 0], "value": 0}, {"key": [0, 1], "value": 1}]},
                  {"atoms": [{"key": [0, 0], "value": 0}, {"key": [1, 0], "value": 0},
                             {"key": [0, 1], "value": 0}, {"key": [1, 1], "value": 1}]})
X0, X1 = [[1, []], [1, [[0, 1]]]], [[1, []], [1, [[1, 1]]]]


def _square(heads0, heads1) -> dict:
    steps = [_factor(X0, {"kind": "linear", "var": 0}, heads0),
             _factor(X1, {"kind": "linear", "var": 1}, heads1),
             {"rule": "newton_blocks", "blocks": [
                 {"factors": [0], "method": "zonotope_independent"},
                 {"factors": [1], "method": "zonotope_independent"}]},
             {"rule": "product_fusion"}]
    return _certificate(SQUARE, steps, 4, 24)


@pytest.mark.parametrize("heads0, heads1, why", [
    ([[0, 2], [2, 1]], [[1, 1], [2, 1]], None),
    ([[0, 1], [2, 1]], [[1, 1], [2, 1]], "step 0 (irreducible_factor): head 0: the factor "
                                         "divides its denominator more than 1 times, not 1"),
    ([[0, 3], [2, 1]], [[1, 1], [2, 1]], "head 0: the factor divides its denominator 2 times, "
                                         "not 3"),
    ([[0, 2], [2, 2]], [[1, 1], [2, 1]], "head 2: the factor divides its denominator 1 times, "
                                         "not 2"),
    ([[0, 2], [1, 1], [2, 1]], [[1, 1], [2, 1]], "head 1: the factor divides its denominator "
                                                 "0 times, not 1"),
    ([[0, 2], [2, 1]], [[1, 2], [2, 1]], "step 1 (irreducible_factor): head 1: the factor "
                                         "divides its denominator 1 times, not 2"),
    # head 2 is no associate of a factor: leaving it out of either hint is found at the end
    ([[0, 2]], [[1, 1], [2, 1]], "step 0 (irreducible_factor): heads: the factor divides the "
                                 "denominator of head 2, which is not listed"),
    ([[0, 2], [2, 1]], [[1, 1]], "step 1 (irreducible_factor): heads: the factor divides the "
                                 "denominator of head 2, which is not listed"),
], ids=["true", "exponent-low", "exponent-high", "exponent-of-a-simple-factor",
        "a-head-it-does-not-divide", "an-associate-twice", "left-out-0", "left-out-1"])
def test_the_heads_hint_is_verified_exactly(heads0, heads1, why):
    v = _check(_square(heads0, heads1))
    if why is None:
        assert v.status == "valid" and v.lower_bound == 4, v.message
    else:
        assert v.status == "invalid" and why in v.message, v.message


@pytest.mark.parametrize("heads, why", [
    ([], "heads must be a non-empty list of [head, exponent] pairs"),
    ({"0": 2}, "heads must be a non-empty list"),
    ([[0]], "heads must be a non-empty list"),
    ([[0, 2, 0]], "heads must be a non-empty list"),
    ([[2, 1], [0, 2]], "heads must be strictly increasing, below 3"),
    ([[0, 2], [0, 2]], "heads must be strictly increasing, below 3"),
    ([[0, 2], [3, 1]], "heads must be strictly increasing, below 3"),
    ([[0, 0], [2, 1]], "heads: exponent: must be at least 1, got 0"),
    ([[-1, 1], [0, 2]], "heads: head: must be at least 0, got -1"),
    ([[0, True]], "heads: exponent: expected an integer, got true"),
], ids=["empty", "object", "short", "long", "decreasing", "repeated", "past-the-heads",
        "exponent-0", "head-negative", "exponent-bool"])
def test_the_heads_hint_is_a_list_of_pairs(heads, why):
    v = _check(_square(heads, [[1, 1], [2, 1]]))
    assert v.status == "invalid" and why in v.message, v.message


def test_an_associate_with_another_normalization_covers_its_head():
    """``D_0 = 2 + 2·x0`` (weights 2) is an associate of ``1 + x0`` once normalized: its
    exponent is 1 and nothing else can divide it."""
    pb = _problem(1, {"atoms": [{"key": [0], "value": 0, "weight": 2},
                                {"key": [1], "value": 1, "weight": 2}]})
    steps = [_factor(X0, {"kind": "linear", "var": 0}),
             {"rule": "newton_blocks", "blocks": [{"factors": [0],
                                                   "method": "zonotope_independent"}]},
             {"rule": "product_fusion"}]
    v = _check(_certificate(pb, steps, 2, 2))
    assert v.status == "valid", v.message
    steps[0]["heads"] = [[0, 2]]
    v = _check(_certificate(pb, steps, 2, 2))
    assert v.status == "invalid" and "divides its denominator 1 times, not 2" in v.message, \
        v.message


@pytest.mark.parametrize("component", [0, 1])
def test_the_residue_component_is_any_that_survives(component):
    """The checker verifies the component it is given (the smallest is the producer's
    choice): with values ``[1, 1]`` on ``x0`` both components survive."""
    pb = _problem(1, {"atoms": [{"key": [0], "value": [0, 0]}, {"key": [1], "value": [1, 1]}]})
    steps = [dict(_factor(X0, {"kind": "linear", "var": 0}), residue_component=component),
             {"rule": "newton_blocks", "blocks": [{"factors": [0],
                                                   "method": "zonotope_independent"}]},
             {"rule": "product_fusion"}]
    v = _check(_certificate(pb, steps, 2, 2))
    assert v.status == "valid", v.message
