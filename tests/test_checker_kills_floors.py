"""Kill tests for the floor rule ``non_constant`` (docs/certificates.md §6.13).

A sum of heads that is constant must never get the floor 2, whatever the witnesses
say: the checker's point values, limits and slopes must be the true ones.  Each
forgery below is paired with a control on a non-constant sum, so the forgery is
rejected for the reason under test and not for the shape of the certificate.
"""

from __future__ import annotations

import hashlib

import pytest

from attnproof.checker import check_text
from attnproof.io import canonical_json

def _atom(key, value, weight=1):
    a = {"key": list(key), "value": value}
    if weight != 1:
        a["weight"] = weight
    return a


def _problem(*heads):
    return {"format": "attnproof-problem", "version": 1, "dim": 2,
            "heads": [{"atoms": list(h)} for h in heads]}


# x1/(2x0 + x1) + 2x0^2/(2x0^2 + x0 x1) = x1/(2x0 + x1) + 2x0/(2x0 + x1) = 1:
# a constant sum whose heads have weights other than 1 and exponents above 1.
CONSTANT = _problem([_atom((1, 0), 0, 2), _atom((0, 1), 1)],
                    [_atom((2, 0), 1, 2), _atom((1, 1), 0)])
# The same keys and weights with the second head's values swapped: not constant.
MOVING = _problem([_atom((1, 0), 0, 2), _atom((0, 1), 1)],
                  [_atom((2, 0), 0, 2), _atom((1, 1), 1)])


def _certificate(problem: dict, witnesses: list, upper: int) -> str:
    doc = {"format": "attnproof-certificate", "version": 1, "trust": "exact",
           "problem": problem,
           "problem_sha256": hashlib.sha256(canonical_json(problem).encode()).hexdigest(),
           "claims": {"lower_bound": 2, "upper_bound": upper,
                      "minimum": 2 if upper == 2 else None,
                      "window_refutations": []},
           "steps": [{"rule": "newton_blocks", "blocks": []},
                     {"rule": "non_constant", "witnesses": witnesses},
                     {"rule": "product_fusion"}]}
    return canonical_json(doc)


def _product_count(problem: dict) -> int:
    """The product fusion's atom count as the rule counts it: one per tuple of atoms."""
    n = 1
    for h in problem["heads"]:
        n *= len(h["atoms"])
    return n


WITNESSES = {
    "points": [{"point": [[0, 3]]}, {"point": []}],
    "two-points": [{"point": [[0, "1/2"], [1, 5]]}, {"point": [[0, 3], [1, 2]]}],
    "limits": [{"limit": [[0, 1]]}, {"limit": [[1, 1]]}],
    "slope": [{"slope": [[0, 1]]}],
}


@pytest.mark.parametrize("kind", sorted(WITNESSES))
def test_a_moving_sum_gets_the_floor(kind):
    v = check_text(_certificate(MOVING, WITNESSES[kind], _product_count(MOVING)))
    assert v.status == "valid", v.message
    assert v.lower_bound == 2


@pytest.mark.parametrize("kind", sorted(WITNESSES))
def test_a_constant_sum_never_gets_the_floor(kind):
    v = check_text(_certificate(CONSTANT, WITNESSES[kind], _product_count(CONSTANT)))
    assert v.status == "invalid", v.message
    assert "non_constant" in v.message


def test_the_constant_sum_is_constant():
    """The forgery's premise, evaluated independently of the checker."""
    from fractions import Fraction as F

    def value(problem, x0, x1):
        total = F(0)
        for h in problem["heads"]:
            num = den = F(0)
            for a in h["atoms"]:
                t = F(a.get("weight", 1)) * x0 ** a["key"][0] * x1 ** a["key"][1]
                num += t * a["value"]
                den += t
            total += num / den
        return total

    pts = [(F(1), F(1)), (F(3), F(1)), (F(1, 2), F(5)), (F(7), F(2, 3))]
    assert {value(CONSTANT, *p) for p in pts} == {1}
    assert len({value(MOVING, *p) for p in pts}) > 1


# -- values the checker must compute exactly ---------------------------------------------------

def _value(problem, x0, x1):
    """``M(x)`` at a point of the positive orthant, by exact rational arithmetic."""
    from fractions import Fraction as F
    total = F(0)
    for h in problem["heads"]:
        num = den = F(0)
        for a in h["atoms"]:
            t = F(a.get("weight", 1)) * F(x0) ** a["key"][0] * F(x1) ** a["key"][1]
            num += t * a["value"]
            den += t
        total += num / den
    return total


# 2x0/(1 + 2x0)·3 + 2·x1/(1 + x1): not constant, and not symmetric under x -> 1/x
SKEW = _problem([_atom((1, 0), 3, 2), _atom((0, 0), 0)], [_atom((0, 1), 2), _atom((0, 0), 0)])
# one head with a two-variable key: x0 x1 (value 0) against x0^2 (value 1)
CROSS = _problem([_atom((1, 1), 0), _atom((2, 0), 1)])


@pytest.mark.parametrize("problem, witnesses, moves", [
    # equal values at (1/2, 3) and (1, 1) (both 3), not at the inverse points (29/10 and 3):
    # the checker must evaluate x, not 1/x
    (SKEW, [{"point": [[0, "1/2"], [1, 3]]}, {"point": []}], None),
    # equal limits along x0 and x1 (both 4), but not along -x0 and -x1 (1 and 2): a limit
    # takes the atoms that maximize <c, e>, not those that minimize it
    (SKEW, [{"limit": [[0, 1]]}, {"limit": [[1, 1]]}], None),
    # a limit (4, along x0) against a point with the same value (4 at (5/2, 3)): both kinds
    # of value are the true ones, not shifted or negated
    (SKEW, [{"limit": [[0, 1]]}, {"point": [[0, "5/2"], [1, 3]]}], None),
    (SKEW, [{"point": [[0, "5/2"], [1, 3]]}, {"limit": [[0, 1]]}], None),
    # along (1, 1) the two atoms tie (<c, e> = 2 for both: the mean 1/2); along x0 alone x0^2
    # wins (1): every variable of a key counts in <c, e>
    (CROSS, [{"limit": [[0, 1], [1, 1]]}, {"limit": [[0, 1]]}], True),
    # along (1, 1) both atoms score 2: the slope at x = 1 is zero, no floor
    (CROSS, [{"slope": [[0, 1], [1, 1]]}], False),
    # a witness that is a list, not an object
    (SKEW, [[5], {"point": []}], False),
])
def test_witness_values_are_the_true_values(problem, witnesses, moves):
    """A witness pair proves the floor exactly when the multi-head's values there differ."""
    if moves is None:        # the values, computed here: points, or limits as large powers
        def at(w):
            if "point" in w:
                x = {v: c for v, c in w["point"]}
                return _value(problem, *(__import__("fractions").Fraction(x.get(i, 1))
                                         for i in range(2)))
            c = dict(w["limit"])
            return _value(problem, *(10 ** (40 * c.get(i, 0)) for i in range(2)))
        a, b = at(witnesses[0]), at(witnesses[1])
        moves = abs(a - b) > __import__("fractions").Fraction(1, 10 ** 6)
    v = check_text(_certificate(problem, witnesses, _product_count(problem)))
    assert v.status == ("valid" if moves else "invalid"), v.message


def test_the_skewed_witnesses_are_as_described():
    from fractions import Fraction as F
    assert _value(SKEW, F(1, 2), 3) == _value(SKEW, 1, 1) == 3
    assert _value(SKEW, 2, F(1, 3)) == F(29, 10)
    assert _value(SKEW, F(5, 2), 3) == 4


# -- the work of the floor witnesses ------------------------------------------------------------

BIG = 2 ** 1100 + 1
# MOVING with a weight of 1500 bits: the running size of the sums grows past 16 words
HEAVY = _problem([_atom((1, 0), 0, 2 ** 1500 + 1), _atom((0, 1), 1)],
                 [_atom((2, 0), 0, 2), _atom((1, 1), 1)],
                 [_atom((2, 0), 1, 3), _atom((0, 2), 0)])
WORK_WITNESSES = dict(WITNESSES, **{
    "big-point": [{"point": [[0, f"{BIG}/3"], [1, 5]]}, {"point": [[0, 3]]}],
    "big-points": [{"point": [[0, f"3/{BIG}"], [1, f"{BIG}/7"]]}, {"point": []}],
})
# (problem, witnesses) -> work: one unit per term and per word of the sums of fractions
# (docs/certificates.md §8)
FLOOR_WORK = {
    'moving big-point': 519,
    'moving big-points': 617,
    'moving limits': 305,
    'moving points': 324,
    'moving slope': 286,
    'moving two-points': 333,
    'heavy big-point': 979,
    'heavy big-points': 1110,
    'heavy limits': 624,
    'heavy points': 667,
    'heavy slope': 585,
    'heavy two-points': 678,
}


def test_work_of_the_floor_witnesses():
    got = {}
    for pname, pb in (("moving", MOVING), ("heavy", HEAVY)):
        for kind, ws in sorted(WORK_WITNESSES.items()):
            text = _certificate(pb, ws, _product_count(pb))
            v = check_text(text)
            assert v.status == "valid", (pname, kind, v.message)
            got[f"{pname} {kind}"] = v.work
    assert got == FLOOR_WORK, "the work changed; if on purpose, FLOOR_WORK = " + repr(got)


# -- sub_sum: which factors are kept -----------------------------------------------------------

def _sub_sum(factors) -> str:
    import json
    from pathlib import Path
    doc = json.loads((Path(__file__).resolve().parent.parent / "certificates" / "valid"
                      / "sub-sum.json").read_text())
    next(s for s in doc["steps"] if s["rule"] == "sub_sum")["factors"] = factors
    return canonical_json(doc)


def test_the_sub_sum_is_reported_as_partial():
    v = check_text(_sub_sum([0, 1]))
    assert v.status == "valid" and v.complete is False and "sub-sum" in v.message, v.message


@pytest.mark.parametrize("factors", [1, "01", [], [-1], [1, 0], [0, 0], [0, 3], [0, 1, 3],
                                     [0, 1, 2]])
def test_sub_sum_factors_are_increasing_indices_of_a_proper_subset(factors):
    v = check_text(_sub_sum(factors))
    assert v.status == "invalid" and "sub_sum" in v.message, v.message
    reason = ("drops at least one" if factors == [0, 1, 2] else
              "non-empty list" if not isinstance(factors, list) or not factors else
              "factors" if factors == [-1] else "strictly increasing and below")
    assert reason in v.message, v.message


@pytest.mark.parametrize("witnesses", [
    [{"point": [[2, 3]]}, {"point": []}],                      # variable dim: not an x variable
    [{"point": [[0, 3], [0, "1/2"]]}, {"point": []}],          # a variable twice
    [{"point": [[1, 3], [0, "1/2"]]}, {"point": []}],          # variables decreasing
    [{"limit": [[0, 1], [0, -1]]}, {"limit": [[1, 1]]}],       # a direction's variable twice
    [{"slope": [[3, 1]]}],                                     # past dim
], ids=["point-dim", "point-repeated", "point-decreasing", "limit-repeated", "slope-past-dim"])
def test_witness_variables_are_strictly_increasing_x_variables(witnesses):
    # on the moving sum, where well-formed witnesses of every kind prove the floor
    v = check_text(_certificate(MOVING, witnesses, _product_count(MOVING)))
    assert v.status == "invalid", v.message
    assert "x variables: must be strictly increasing" in v.message, v.message


@pytest.mark.parametrize("witnesses", [
    [{"slope": [[0, 1]]}, {"point": []}],      # a slope is a witness on its own, not a value
    [{"point": []}, {"slope": [[0, 1]]}],
    [{"point": [[0, 3, 5]]}, {"point": []}],    # a pair of three entries
    [{"point": [[0]]}, {"point": []}],          # a pair of one entry
    [{"slope": [[0]]}],
], ids=["slope-and-point", "point-and-slope", "triple", "single", "slope-single"])
def test_malformed_witnesses_are_invalid_on_a_moving_sum(witnesses):
    v = check_text(_certificate(MOVING, witnesses, _product_count(MOVING)))
    assert v.status == "invalid", v.message


# The sums of fractions are charged (1 + w^2 // 256) per operation, w the words of a head's
# coefficients (1 + bits // 64).  Weights tuned so that each head sits where a rounding shows:
# head 0 has 959 coefficient bits (w = 15, one bit below the next word, where w^2 // 256 goes
# from 0 to 1), head 1 has 961 (w = 16, where w^2 // 256 = 1 but w^2 // 257 = 0), and a
# third, small head (w = 1) brings the running total of words to 32 (32^2 // 256 = 4, // 257 = 3).
TUNED = _problem([_atom((1, 0), 1, 2 ** 478 + 1), _atom((0, 0), 0)],
                 [_atom((0, 1), 1, 2 ** 479 + 1), _atom((0, 0), 0)],
                 [_atom((1, 1), 1), _atom((0, 0), 0)])
TUNED_WORK = {
    'limits': 531,
    'points': 556,
    'slope': 494,
    'two-points': 565,
}


def test_work_of_the_floor_witnesses_at_the_word_boundaries():
    from attnproof.checker.problem import parse_problem
    from attnproof.checker.rules.floors import _coefficient_words

    pb = parse_problem(TUNED)
    assert [_coefficient_words(D, Ns) for D, Ns in zip(pb.den, pb.num)] == [15, 16, 1]
    got = {}
    for kind, ws in sorted(WITNESSES.items()):
        text = _certificate(TUNED, ws, _product_count(TUNED))
        v = check_text(text)
        assert v.status == "valid", (kind, v.message)
        got[kind] = v.work
    assert got == TUNED_WORK, "the work changed; if on purpose, TUNED_WORK = " + repr(got)


# x0^-1/(x0^-1 + x0) + x0/(x0^-1 + x0) = 1, a constant sum with a negative exponent.  At the
# integer coordinate 3, the power 3^-1 must be the Fraction 1/3: as a float (0.333...) the sum
# came out 0.9999999999999999, "different" from the value 1 at x = 1, and got the floor 2.
NEGATIVE = _problem([_atom((-1, 0), 1), _atom((1, 0), 0)], [_atom((-1, 0), 0), _atom((1, 0), 1)])


@pytest.mark.parametrize("x", [3, 7, "1/3"])
def test_an_integer_coordinate_with_a_negative_exponent_is_exact(x):
    from attnproof.checker.problem import parse_problem
    from attnproof.checker.rules.floors import point_value

    assert point_value(parse_problem(NEGATIVE), {0: 3}) == (1,)
    text = _certificate(NEGATIVE, [{"point": [[0, x]]}, {"point": []}], _product_count(NEGATIVE))
    v = check_text(text)
    assert v.status == "invalid" and "same value" in v.message, v.message
