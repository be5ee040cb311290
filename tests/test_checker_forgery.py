"""Forged claims built from genuine problems: none may be accepted (issue: constant heads).

Each forgery states a false bound whose true value is known independently (here: the
sum of heads is constant, so one atom suffices and the true minimum is 1).
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

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

    from attnproof.heads import Atom, Head, MultiHead

    rng = random.Random(seed)
    dim = rng.choice([2, 3, 20, 40])
    nz = rng.randint(1, min(3, dim))

    def key():
        return {j: F(rng.choice([-3, -2, -1, 1, 2, 3]), rng.choice([1, 1, 2, 5]))
                for j in rng.sample(range(dim), nz)}

    heads: list = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["generic", "unit", "associate", "constant", "complement", "axes"])
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
        elif kind == "axes":
            # keys e_j for distinct j: equal exponents on different variables
            js = rng.sample(range(dim), min(dim, max(2, n)))
            atoms = [Atom.sparse(dim, {j: F(1)}, (F(rng.randint(-2, 2)),)) for j in js]
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

    from attnproof.heads import Atom, Head, MultiHead

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


# -- a forgery generator per rule ------------------------------------------------------------
#
# From genuine certificates (the golden corpus, written by the producer, and the producer's
# certificates for random head layouts), each mutation below makes a false claim: it changes
# the problem under the steps (a head made constant, variables permuted or projected) or
# the steps under the problem (a head left out of its class, classes merged, a factor
# dropped, a functional tied).  The claims are then set to whatever the mutated steps
# derive.  A verdict "valid" is allowed only when those claims are true of the (mutated)
# problem, whose bounds are computed independently by the producer from scratch.

import copy  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

GOLDEN = Path(__file__).resolve().parent.parent / "certificates" / "valid"
BASES = ["w1", "w3", "w3-explicit", "path3", "k3", "k3-explicit", "c4", "decimal", "cancel",
         "zonotope-2d", "biased", "geom-triangles", "geom-direct", "geom-chain",
         "geom-partial", "geom-indecomposable"]


def _keys(doc):
    for h in doc["problem"]["heads"]:
        for a in h["atoms"]:
            yield a


def _permute(doc, rng):
    d = doc["problem"]["dim"]
    if d < 2:
        return None
    perm = list(range(d))
    while perm == list(range(d)):
        rng.shuffle(perm)
    for a in _keys(doc):
        k = a["key"]
        if isinstance(k, list):
            a["key"] = [k[perm[j]] for j in range(d)]
        else:
            inv = {perm[j]: j for j in range(d)}
            a["key"] = {str(inv[int(j)]): v for j, v in sorted(k.items(), key=lambda t: inv[int(t[0])])}
    return doc


def _project(doc, rng):
    d = doc["problem"]["dim"]
    j = rng.randrange(d) if d else None
    if j is None:
        return None
    for a in _keys(doc):
        if isinstance(a["key"], list):
            a["key"][j] = 0
        else:
            a["key"].pop(str(j), None)
    return doc


def _constant_head(doc, rng):
    heads = doc["problem"]["heads"]
    h = heads[rng.randrange(len(heads))]
    for a in h["atoms"]:
        a["value"] = copy.deepcopy(h["atoms"][0]["value"])
    return doc


def _steps(doc, rule):
    return [s for s in doc["steps"] if s["rule"] == rule]


def _omit_from_class(doc, rng):
    gh = _steps(doc, "generic_heads")
    if not gh:
        return None
    cls = gh[0]["classes"]
    c = rng.randrange(len(cls))
    if len(cls[c]) > 1:
        cls[c].pop(rng.randrange(1, len(cls[c])))
    else:
        cls.pop(c)
    return doc


def _merge_classes(doc, rng):
    gh = _steps(doc, "generic_heads")
    if not gh or len(gh[0]["classes"]) < 2:
        return None
    cls = gh[0]["classes"]
    i, j = sorted(rng.sample(range(len(cls)), 2))
    cls[i] = sorted(cls[i] + cls.pop(j))
    doc["steps"] = [s for s in doc["steps"] if not (s["rule"] == "indecomposable_chain"
                                                    and s["head"] not in [c[0] for c in cls])]
    return doc


def _drop_factor(doc, rng):
    fs = _steps(doc, "irreducible_factor")
    if not fs:
        return None
    k = rng.randrange(len(fs))
    doc["steps"].remove(fs[k])
    for nb in _steps(doc, "newton_blocks"):
        blocks = []
        for b in nb["blocks"]:
            f = [i - (i > k) for i in b["factors"] if i != k]
            if f:
                blocks.append(dict(b, factors=f))
        nb["blocks"] = blocks
    return doc


def _tie_functional(doc, rng):
    spots = []
    for s in doc["steps"]:
        if s["rule"] == "newton_blocks":
            spots += [e for b in s["blocks"] for e in b.get("vertices", [])]
        if s["rule"] == "minkowski_vertices":
            spots += s["vertices"]
        if s["rule"] == "indecomposable_chain" and s["kind"] == "chain":
            spots += s["triangles"]
        if s["rule"] == "direct_sum":
            spots += [e for f in s["factors"] for e in f["vertices"]]
    if not spots:
        return None
    e = rng.choice(spots)
    c = e[-1]
    if c:
        c[rng.randrange(len(c))] = 0
        c[rng.randrange(len(c))] = 0
    return doc


MUTATIONS = {"constant_head": (_constant_head, True), "permute": (_permute, True),
             "project": (_project, True), "omit_from_class": (_omit_from_class, False),
             "merge_classes": (_merge_classes, False), "drop_factor": (_drop_factor, False),
             "tie_functional": (_tie_functional, False)}


def _rehash(doc):
    doc["problem_sha256"] = hashlib.sha256(canonical_json(doc["problem"]).encode("ascii")).hexdigest()
    return doc


def _count(text):
    if text.startswith("2^"):
        return 2 ** int(text[2:])
    return int(text) if text.isdigit() else None


def _settle_claims(doc):
    """Set the claims to what the steps derive (read off the checker's answer), then check."""
    for _ in range(4):
        v = check_text(canonical_json(doc))
        m = re.match(r"invalid: claims: (\w+) is \S+, the steps prove (\S+)$", v.message)
        if not m:
            return v
        name, got = m.group(1), m.group(2)
        doc["claims"][name] = None if got == "none" else _count(got)
        if doc["claims"][name] is None and got != "none":
            return v
        lo, up = doc["claims"]["lower_bound"], doc["claims"]["upper_bound"]
        doc["claims"]["minimum"] = lo if lo == up else None
    return v


def _true_bounds(problem: dict):
    """The problem's bounds, from scratch, by the producer (not by the checker)."""
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_from_dict

    cert = build_certificate(problem_from_dict(problem), max_atoms=20000)
    c = cert.doc["claims"]
    return int(c["lower_bound"]), int(c["upper_bound"])


def _forge_and_check(doc, name, seed):
    fn, touches_problem = MUTATIONS[name]
    doc = copy.deepcopy(doc)
    genuine = (doc["claims"]["lower_bound"], doc["claims"]["upper_bound"])
    if fn(doc, random.Random(seed)) is None:
        return None
    _rehash(doc)
    v = _settle_claims(doc)
    if v.code != 0:
        return v.code
    lo, up = _true_bounds(doc["problem"]) if touches_problem else genuine
    # accepted: the claims must hold for the problem as it now is
    assert v.lower_bound <= up and v.upper_bound >= lo, (name, seed, v.message, (lo, up))
    return 0


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_no_forgery_of_the_golden_corpus_is_accepted(name):
    tried = rejected = 0
    for base in BASES:
        doc = json.loads((GOLDEN / f"{base}.json").read_text())
        for seed in range(3):
            code = _forge_and_check(doc, name, seed)
            if code is not None:
                tried += 1
                rejected += code != 0
    assert tried >= 3 and rejected >= 1, (tried, rejected)


def _layout_docs(seeds):
    from attnproof.certificate import build_certificate
    from attnproof.certificate.geometry_steps import geometry_certificate

    for seed in seeds:
        M = _layout_problem(seed)
        yield build_certificate(M, max_atoms=20000).doc
        g = geometry_certificate(M)
        if g is not None:
            yield g.doc


def test_no_forgery_of_producer_layouts_is_accepted():
    for doc in _layout_docs(range(4)):
        for name in sorted(MUTATIONS):
            _forge_and_check(doc, name, 0)


@pytest.mark.slow
def test_no_forgery_is_accepted_long_run():
    for doc in _layout_docs(range(4, 80)):
        for name in sorted(MUTATIONS):
            for seed in range(4):
                _forge_and_check(doc, name, seed)


def test_a_constant_sum_of_many_associate_pairs_is_proven(tmp_path):
    """Ten pairs x_b/(x_a+x_b) + x_a/(x_a+x_b) sum to 10: the one-atom fusion is verified by
    adding the heads of one denominator first (it expanded 2^20 terms and was inconclusive)."""
    from attnproof.api import prove

    heads = []
    for i in range(10):
        a, b = {str(2 * i): 1}, {str(2 * i + 1): 1}
        heads.append({"atoms": [{"key": b, "value": 1}, {"key": a, "value": 0}]})
        heads.append({"atoms": [{"key": b, "value": 0}, {"key": a, "value": 1}]})
    problem = {"format": "attnproof-problem", "version": 1, "dim": 20, "heads": heads}
    cert = prove(problem)
    v = check_text(cert.text)
    assert v.code == 0 and v.minimum == 1, v.message


@pytest.mark.parametrize("scale,shift", [(3, [1, -2, 5]), (1, [4, 0, 0]), (2, [0, 0, 0])])
def test_a_homothetic_copy_cannot_pass_for_another_class(scale, shift):
    """geom-indecomposable plus a third head whose keys are ``scale·K_1 + shift`` (other
    weights and values, so no associate of head 1): the two polytopes are homothetic, so whatever
    width functionals the certificate lists, the widths are proportional and the claim
    that the copy is a separate factor (a larger count) must be rejected."""
    doc = json.loads((GOLDEN / "geom-indecomposable.json").read_text())
    heads = doc["problem"]["heads"]
    # weights 2, 3, 4, 5: not a monomial multiple of head 1's denominator (no associate)
    copy_ = {"atoms": [{"key": [scale * x + t for x, t in zip(a["key"], shift)], "value": 7 - i,
                        "weight": 2 + i} for i, a in enumerate(heads[1]["atoms"])], "name": "copy"}
    heads.append(copy_)
    gh = _steps(doc, "generic_heads")[0]
    gh["classes"].append([2])
    doc["steps"].insert(2, {"rule": "indecomposable_chain", "head": 2, "kind": "simplex",
                            "prime": 2 ** 61 - 1})
    for functionals in (gh["width_functionals"], [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0],
                                                   [1, 0, 1], [3, -2, 7]]):
        gh["width_functionals"] = functionals
        _rehash(doc)
        v = _settle_claims(copy.deepcopy(doc))
        assert v.code == 1 and "homothetic" in v.message, v.message


_SEGMENT = (Fraction("0.1234567"), Fraction("-0.7654321"))


def _same_segment_heads(rows):
    from attnproof.heads import Atom, Head, MultiHead

    return MultiHead(tuple(Head(tuple(Atom(key, (Fraction(v),), bias=Fraction(b))
                                      for key, v, b in atoms)) for atoms in rows))


@pytest.mark.parametrize("kind", ["equal", "translated", "longer"])
def test_associates_passed_off_as_two_classes_are_rejected(kind):
    """Many heads on one segment (equal supports: one shape), told apart by their biases
    (hashed one-term forms).  Head 5 is then made an associate of head 2 -- the same head,
    a translate, or (1 + e)·D_2 through two-term coefficients -- while the certificate
    still lists it as a class of its own: the count of 12 classes is a forgery."""
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_to_dict

    zero, k = (Fraction(0), Fraction(0)), _SEGMENT
    rows = [[(k, 1, Fraction(i + 1, 7)), (zero, 0, 0)] for i in range(12)]
    M = _same_segment_heads(rows)
    doc = build_certificate(M).doc
    assert check_text(canonical_json(doc)).code == 0
    b2 = Fraction(3, 7)
    if kind == "equal":
        rows[5] = [(k, 2, b2), (zero, 5, 0)]
    elif kind == "translated":
        t = (Fraction(1, 3), Fraction(2))
        rows[5] = [(tuple(a + b for a, b in zip(k, t)), 2, b2 + 1), (t, 5, 1)]
    else:
        rows[5] = [(k, 2, b2), (k, 2, b2 + 1), (zero, 5, 0), (zero, 5, 1)]
    M2 = _same_segment_heads(rows)
    doc["problem"] = problem_to_dict(M2)
    _rehash(doc)
    v = check_text(canonical_json(doc))
    assert v.code == 1 and "heads 2 and 5 are associates" in v.message, v.message
