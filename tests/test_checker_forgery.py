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


# -- the producer's certificates for every head layout are accepted ----------------------

def _layout_problem(seed: int):
    """A random multi-head mixing generic heads, units (one key, several biases),
    associates (translated keys, scaled weights) and constant heads; dense or sparse keys."""
    import random
    from fractions import Fraction as F

    from attnproof.model import Atom, Head, MultiHead

    rng = random.Random(seed)
    dim = rng.choice([2, 3, 20, 40])
    nz = rng.randint(1, min(3, dim))

    def key():
        return {j: F(rng.choice([-3, -2, -1, 1, 2, 3]), rng.choice([1, 1, 2, 5]))
                for j in rng.sample(range(dim), nz)}

    heads: list = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["generic", "unit", "associate", "constant", "complement"])
        n = rng.randint(1, 4)
        base = rng.choice(heads) if heads else None
        if kind == "unit":
            k = key()
            atoms = [Atom.sparse(dim, k, (F(rng.randint(-2, 2)),), bias=F(i)) for i in range(n)]
        elif kind == "associate" and base is not None:
            t, s = key(), F(rng.randint(1, 3), rng.randint(1, 3))
            atoms = []
            for a in base.atoms:
                k = dict(a.sparse_key)
                for j, v in t.items():
                    k[j] = k.get(j, 0) + v
                atoms.append(Atom.sparse(dim, {j: v for j, v in k.items() if v},
                                         (F(rng.randint(-2, 2)),), bias=a.bias, weight=a.weight * s))
        elif kind == "complement" and base is not None:
            atoms = [Atom.sparse(dim, dict(a.sparse_key), (1 - a.value[0],), bias=a.bias,
                                 weight=a.weight) for a in base.atoms]
        else:
            keys = sorted({tuple(sorted(key().items())) for _ in range(n)})
            c = F(rng.randint(-2, 2))
            atoms = [Atom.sparse(dim, dict(k), (c if kind == "constant" else F(rng.randint(-2, 2)),))
                     for k in keys]
        heads.append(Head(tuple(atoms)))
    return MultiHead(tuple(heads))


def _pair_plus_head(dim: int):
    from fractions import Fraction as F

    from attnproof.model import Atom, Head, MultiHead

    def a(k, v):
        return Atom.sparse(dim, {j: F(x) for j, x in k.items()}, (F(v),))
    return MultiHead((Head((a({1: 1}, 1), a({0: 1}, 0))), Head((a({1: 1}, 0), a({0: 1}, 1))),
                      Head((a({0: 1, 1: 3}, 1), a({}, 0), a({0: 5, 1: 1}, 2)))))


@pytest.mark.parametrize("dim", [2, 20])
def test_constant_pair_of_associates_is_accepted(dim):
    # x1/(x0+x1) + x0/(x0+x1) = 1 plus a generic head: the producer puts the pair in one
    # constant class; the checker used to see keys e_0, e_1 as one point and reject it
    from attnproof.certificate.geometry_steps import geometry_certificate

    g = geometry_certificate(_pair_plus_head(dim))
    assert g.doc["steps"][2] == {"rule": "generic_heads", "classes": [[0, 1], [2]]}
    v = check_text(canonical_json(g.doc))
    assert v.code == 0, v.message
    assert v.lower_bound == 3


@pytest.mark.parametrize("seed", range(12))
def test_producer_layouts_are_accepted(seed):
    from attnproof.certificate import build_certificate
    from attnproof.certificate.geometry_steps import geometry_certificate

    M = _layout_problem(seed)
    docs = [build_certificate(M, max_atoms=20000).doc]
    g = geometry_certificate(M)
    if g is not None:
        docs.append(g.doc)
    for doc in docs:
        v = check_text(canonical_json(doc))
        assert v.code == 0, v.message
