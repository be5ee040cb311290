"""Kill tests for the fusion rules (docs/certificates.md §6.4, §6.5; THEORY §3).

An explicit fusion is verified by the identity ``N*/D* = Σ_h N_h/D_h``; the heads whose
denominators neither divide ``D*`` nor their own numerators are cleared by the product
of their denominators.  The certificates below reach that product on purpose: each
head is a reducible fraction ``N/D`` with ``D = (1 + x)·G`` and ``N`` a multiple of
``G``, so that the sum is small while every denominator stays in the product.  Their
exact work is pinned, so that every charge of the identity is seen to be made.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path

import pytest

from attnproof.checker import check_text
from attnproof.checker.limits import MAX_EXPANSION
from attnproof.io import canonical_json

GOLDEN = Path(__file__).resolve().parent.parent / "certificates" / "valid"
def _num(q: Fraction):
    return q.numerator if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _reducible_head(G: list, N: list) -> dict:
    """The head of ``N/D`` with ``D = (1 + x)·G`` (coefficient lists, lowest degree first):
    an atom on each key ``i`` of weight ``D_i`` and value ``N_i/D_i``."""
    D = [0] * (len(G) + 1)
    for i, g in enumerate(G):
        D[i] += g
        D[i + 1] += g
    N = list(N) + [0] * (len(D) - len(N))
    atoms = []
    for i, d in enumerate(D):
        a = {"key": [i], "value": _num(Fraction(N[i]) / d)}
        if d != 1:
            a["weight"] = d
        atoms.append(a)
    return {"atoms": atoms}


def _ones(k: int, first: int = 1) -> list:
    return [first] + [1] * (k - 1)


def _constant_sum(k: int, extra: bool) -> dict:
    """Three heads x/(1+x), 1/(2(1+x)), 1/(2(1+x)) of ``k + 1`` atoms each, all
    denominators distinct (sum 1), and with ``extra`` the one-atom head 1 (sum 2)."""
    GA, GB, GC = _ones(k), _ones(k, 2), _ones(k, 3)
    heads = [_reducible_head(GA, [0] + GA),
             _reducible_head(GB, [Fraction(g, 2) for g in GB]),
             _reducible_head(GC, [Fraction(g, 2) for g in GC])]
    if extra:
        heads.append({"atoms": [{"key": [0], "value": 1}]})
    return {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": heads}


def _certificate(problem: dict, head: dict, upper: int) -> str:
    doc = {"format": "attnproof-certificate", "version": 1, "trust": "exact",
           "problem": problem,
           "problem_sha256": hashlib.sha256(canonical_json(problem).encode()).hexdigest(),
           "claims": {"lower_bound": 1, "upper_bound": upper,
                      "minimum": 1 if upper == 1 else None, "window_refutations": []},
           "steps": [{"rule": "newton_blocks", "blocks": []},
                     {"rule": "explicit_fusion", "head": head}]}
    return canonical_json(doc)


def _constant(k: int, extra: bool) -> str:
    value = 2 if extra else 1
    return _certificate(_constant_sum(k, extra), {"atoms": [{"key": [0], "value": value}]}, 1)


# 2x/(1+x) + x^2/(1+x^2) = (2x + x^2 + 3x^3)/((1+x)(1+x^2)): one head divides the fused
# denominator, two are reducible fractions that neither divide it nor are polynomials.
MIXED = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
    _reducible_head([1, 1], [0, 1, 1]),
    {"atoms": [{"key": [0], "value": 0}, {"key": [1], "value": 1}]},
    {"atoms": [{"key": [0], "value": 0}, {"key": [2], "value": "1/2", "weight": 2},
               {"key": [4], "value": 1}]}]}
MIXED_FUSION = {"atoms": [{"key": [0], "value": 0}, {"key": [1], "value": 2},
                          {"key": [2], "value": 1}, {"key": [3], "value": 3}]}

# A head with a long rational weight: its atoms are charged the arithmetic of their
# word lengths, in the problem's heads and in the fused head alike.
LONG = Fraction(3 ** 3900, 2 ** 6000 + 1)
LONG_HEAD = {"atoms": [{"key": [0], "value": _num(LONG), "weight": _num(LONG)},
                       {"key": [1], "value": 1}]}
LONG_PROBLEM = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [LONG_HEAD]}

CASES = {
    "constant": lambda: _constant(3, False),
    "constant+1": lambda: _constant(3, True),
    "mixed": lambda: _certificate(MIXED, MIXED_FUSION, 4),
    "long-weight": lambda: _certificate(LONG_PROBLEM, LONG_HEAD, 2),
}

FUSION_WORK = {
    'constant': 1311,
    'constant+1': 1365,
    'long-weight': 9727,
    'mixed': 934,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_fusions_are_valid(name):
    v = check_text(CASES[name]())
    assert v.status == "valid", (name, v.message)


def test_the_work_of_explicit_fusions_is_pinned():
    """Every product of the identity and every atom of the fused head is charged."""
    got = {}
    for name in sorted(CASES):
        text = CASES[name]()
        v = check_text(text)
        assert v.status == "valid", (name, v.message)
        got[name] = v.work
    assert got == FUSION_WORK, "the work changed; if on purpose, FUSION_WORK = " + repr(got)


def test_an_expansion_of_exactly_the_limit_is_made():
    """Three cleared heads of 100 terms under a one-atom fusion: the bound on the
    expansion is (1 + 1)·100³ = MAX_EXPANSION exactly, which the limit allows (it refuses
    only more); the true products are univariate and small, so the check is quick."""
    text = _constant(99, False)
    assert 2 * 100 ** 3 == MAX_EXPANSION
    v = check_text(text, work=10 ** 9)
    assert v.status == "valid", v.message


# -- the fused head's own atoms ---------------------------------------------------------------

STEP = {"format": "attnproof-problem", "version": 1, "dim": 1,
        "heads": [{"atoms": [{"key": [0], "value": 0}, {"key": [1], "value": 1}]}]}


def test_a_fused_head_with_a_repeated_key_is_rejected():
    """Two atoms on one key (weights 1/2 + 1/2) add up to the problem's own head, so
    the identity holds; the head's atoms must still be strictly increasing."""
    head = {"atoms": [{"key": [0], "value": 0},
                      {"key": [1], "value": 1, "weight": "1/2"},
                      {"key": [1], "value": 1, "weight": "1/2"}]}
    v = check_text(_certificate(STEP, head, 2))
    assert v.status == "invalid" and "strictly increasing" in v.message, v.message


@pytest.mark.parametrize("value", [[0, 1], 0], ids=["vector-head", "scalar-head"])
def test_a_fused_head_of_another_value_dimension_is_rejected(value):
    """The fused head's values have the problem's number of components."""
    if isinstance(value, list):
        problem, head = STEP, {"atoms": [{"key": [0], "value": value}, {"key": [1], "value": [1, 1]}]}
    else:
        problem = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
            {"atoms": [{"key": [0], "value": [0, 1]}, {"key": [1], "value": [1, 1]}]}]}
        head = {"atoms": [{"key": [0], "value": 0}, {"key": [1], "value": 1}]}
    v = check_text(_certificate(problem, head, 2))
    assert v.status == "invalid" and "components" in v.message, v.message


# -- a denominator that vanishes at the checker's point ---------------------------------------

def _vanishing() -> str:
    """The head 1 + w·x with ``w ≡ -1/t (mod p)``, ``t`` the image of ``x`` at the
    checker's point: its denominator is 0 there, so the point test must leave the
    question to the exact check, which finds the (true) identity of the head with itself."""
    from attnproof.checker import poly as P
    from attnproof.checker.problem import parse_problem

    (D,) = parse_problem(STEP).den
    (x,) = [m for m in D if m != ()]
    t = P.images([{x: 1}])[0]
    w = -pow(t, -1, P._P) % P._P
    problem = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
        {"atoms": [{"key": [0], "value": 0}, {"key": [1], "value": 1, "weight": w}]}]}
    assert P.images(parse_problem(problem).den) == [0]
    return _certificate(problem, problem["heads"][0], 2)


def test_a_denominator_vanishing_at_the_point_leaves_a_true_fusion_valid():
    v = check_text(_vanishing())
    assert v.status == "valid" and v.upper_bound == 2, v.message


# -- a sub-sum followed by Newton blocks (docs/certificates.md §6.14) -------------------------

@pytest.mark.parametrize("keep", [0, 1])
def test_newton_blocks_after_a_sub_sum_read_the_kept_factors(keep):
    """The biased golden certificate with one of its two linear factors dropped by a
    sub-sum: the remaining block counts the kept factor, renumbered 0, by its variables."""
    doc = json.loads((GOLDEN / "biased.json").read_text())
    steps = doc["steps"]
    assert [s["rule"] for s in steps][:3] == ["irreducible_factor", "irreducible_factor",
                                              "newton_blocks"]
    steps[2]["blocks"] = [dict(steps[2]["blocks"][keep], factors=[0])]
    steps.insert(2, {"rule": "sub_sum", "factors": [keep]})
    doc["claims"].update(lower_bound=2, minimum=None)
    v = check_text(canonical_json(doc))
    assert v.status == "valid" and v.lower_bound == 2 and v.complete is False, v.message
