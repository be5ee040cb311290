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

MODES = pytest.mark.parametrize("reference", [False, True], ids=["fast", "reference"])


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
           "claims": {"lower_bound": 2, "upper_bound": upper, "minimum": None,
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


@MODES
@pytest.mark.parametrize("kind", sorted(WITNESSES))
def test_a_moving_sum_gets_the_floor(kind, reference):
    v = check_text(_certificate(MOVING, WITNESSES[kind], _product_count(MOVING)), reference=reference)
    assert v.status == "valid", v.message
    assert v.lower_bound == 2


@MODES
@pytest.mark.parametrize("kind", sorted(WITNESSES))
def test_a_constant_sum_never_gets_the_floor(kind, reference):
    v = check_text(_certificate(CONSTANT, WITNESSES[kind], _product_count(CONSTANT)),
                   reference=reference)
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
