"""Forged claims built from genuine problems: none may be accepted (issue: constant heads).

Each forgery states a false bound whose true value is known independently (here: the
sum of heads is constant, so one atom suffices and the true minimum is 1).
"""

from __future__ import annotations

import hashlib

import pytest

from attnproof.checker import check_text
from attnproof.io import canonical_json


def _key(vec: list[int], dim: int):
    if dim <= 16:
        return vec
    return {str(j): x for j, x in enumerate(vec) if x}


def _rehash(doc: dict) -> dict:
    doc["problem_sha256"] = hashlib.sha256(canonical_json(doc["problem"]).encode("ascii")).hexdigest()
    return doc


def constant_pairs(pairs: int) -> dict:
    """``Σ_i x_{2i+1}/(x_{2i}+x_{2i+1}) + x_{2i}²/(x_{2i}²+x_{2i}x_{2i+1}) = pairs``: a constant.

    The first head of each pair (keys ``e_{2i+1}``, ``e_{2i}``) is claimed to be a unit, its
    associate a factor of ``Q``: a forged lower bound ``2^pairs`` (true minimum: 1 atom).
    """
    dim = 2 * pairs
    heads, steps = [], []

    def e(*idx):
        v = [0] * dim
        for j in idx:
            v[j] += 1
        return _key(v, dim)

    for i in range(pairs):
        a, b = 2 * i, 2 * i + 1
        heads.append({"atoms": [{"key": e(b), "value": 1}, {"key": e(a), "value": 0}]})
        heads.append({"atoms": [{"key": e(a, a), "value": 1}, {"key": e(a, b), "value": 0}]})
        steps.append({"rule": "indecomposable_chain", "head": 2 * i + 1, "kind": "simplex",
                      "prime": 2 ** 61 - 1})
    steps.append({"rule": "generic_heads", "classes": [[2 * i + 1] for i in range(pairs)]})
    steps.append({"rule": "newton_blocks", "blocks": [
        {"factors": [i], "method": "zonotope_independent"} for i in range(pairs)]})
    steps.append({"rule": "product_fusion"})
    prob = {"dim": dim, "format": "attnproof-problem", "version": 1, "heads": heads}
    return _rehash({"format": "attnproof-certificate", "version": 1, "problem": prob,
                    "claims": {"lower_bound": 2 ** pairs, "upper_bound": 4 ** pairs,
                               "minimum": None, "window_refutations": []},
                    "steps": steps, "trust": "exact"})


@pytest.mark.parametrize("pairs", [1, 3, 10])
def test_constant_head_passed_off_as_unit(pairs):
    # 10 pairs: dimension 20, sparse keys; the forged bound would be 1024 for a constant
    v = check_text(canonical_json(constant_pairs(pairs)), strict=True)
    assert v.code == 1, v.message
    assert v.rule == "generic_heads"
