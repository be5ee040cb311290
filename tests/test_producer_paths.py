"""The producer's quick paths agree with the general ones they stand in for (issue 15).

Each quick path (parsing well-formed atoms, binomial normal forms, the factor
order text, degree spreads and product counts from the head polynomials, the
certificate text with the problem encoded once) is compared with the general
computation on random inputs.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction as F

import pytest

from attnproof.io import problem as io
from attnproof.algebra.budget import degree_spreads, flint_obstacle
from attnproof.algebra.lattice import Lattice
from attnproof.algebra.sizes import exact_product
from attnproof.bounds.lower import _components, _x_vars
from attnproof.algebra.sparse import _shift, head_polys, normal_form, poly_text
from attnproof.certificate.steps.factors import to_json_poly
from attnproof.certificate import build_certificate
from attnproof.certificate.build import distinct_key_product
from attnproof.errors import InputError
from attnproof.families import biased_sigmoid_sum, sigmoid_sum
from attnproof.io import canonical_json, problem_from_dict, problem_to_dict
from attnproof.heads import Atom, Head, MultiHead

VALS = [0, 1, -1, 2, 3, F(1, 2), F(-3, 4), F(5, 3), 7, -2, 10 ** 20, F(1, 10 ** 19)]


def _random_problem(rng: random.Random) -> MultiHead:
    d = rng.choice([1, 2, 3, 17, 40])
    m = rng.choice([1, 1, 2])
    heads = []
    for h in range(rng.randint(1, 3)):
        atoms = []
        for _ in range(rng.randint(1, 4)):
            key = {rng.randrange(d): rng.choice(VALS) for _ in range(rng.randint(0, 3))}
            atoms.append(Atom.sparse(d, key, [rng.choice(VALS) for _ in range(m)],
                                     bias=rng.choice([0, 0, 1, F(1, 2), -3]),
                                     weight=rng.choice([1, 1, 2, F(1, 3)])))
        heads.append(Head(tuple(atoms), name=rng.choice([None, f"h{h}"])))
    return MultiHead(tuple(heads), dim=d)


def _json_number(x: F, rng: random.Random):
    if x.denominator == 1 and abs(x) < 10 ** 18 and rng.random() < 0.7:
        return int(x)
    return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)


def _random_doc(rng: random.Random) -> dict:
    M = _random_problem(rng)
    doc = problem_to_dict(M)
    for h in doc["heads"]:
        for a in h["atoms"]:
            if isinstance(a["key"], dict):        # shuffle the sparse coordinates' order
                items = list(a["key"].items())
                rng.shuffle(items)
                a["key"] = dict(items)
            if rng.random() < 0.3:
                a["weight"] = _json_number(F(a.get("weight", 1)) if not isinstance(
                    a.get("weight", 1), str) else F(a["weight"]), rng)
    return doc


def _checked_only(doc):
    """problem_from_dict with the quick atom path switched off."""
    orig = io._fast_atom
    io._fast_atom = lambda a, d: None
    try:
        return problem_from_dict(doc)
    finally:
        io._fast_atom = orig


def _outcome(f, doc):
    try:
        return ("ok", f(doc))
    except InputError as e:
        return ("error", type(e).__name__, str(e))


def test_quick_atom_parsing_agrees_with_the_checked_path():
    assert io._fast_atom({"key": {"3": 1, "1": "1/2"}, "value": [1, 0], "weight": 2}, 5) == (
        ((1, F(1, 2)), (3, F(1))), (F(1), F(0)), F(0), F(2))
    rng = random.Random(15)
    for _ in range(300):
        doc = _random_doc(rng)
        assert _outcome(problem_from_dict, doc) == _outcome(_checked_only, doc)


@pytest.mark.parametrize("atom", [
    {"key": {"1": 1}, "value": 1, "weight": 0},
    {"key": {"1": 1}, "value": 1, "weight": "-1/2"},
    {"key": {"01": 1}, "value": 1},
    {"key": {"9": 1}, "value": 1},
    {"key": {"1": 1.5}, "value": 1},
    {"key": {"1": True}, "value": 1},
    {"key": {"1": 1}, "value": []},
    {"key": {"1": 1}, "value": None},
    {"key": {"1": 1}, "value": 1, "bias": None},
    {"key": {"1": 1}, "value": 1, "extra": 0},
    {"key": [1, 2], "value": 1},
    {"key": {"1": "1/0"}, "value": 1},
    {"key": {"1": 10 ** 2001}, "value": 1},
    {"key": {"2": 1, "1": "2/4"}, "value": [1, "1/3"], "bias": "0.5", "weight": 3},
])
def test_quick_atom_parsing_refuses_or_agrees_on_edge_cases(atom):
    doc = {"format": "attnproof-problem", "version": 1, "dim": 9,
           "heads": [{"atoms": [{"key": {"3": 1}, "value": [1] if isinstance(atom.get("value"), list)
                                 and len(atom["value"]) == 2 else 1}, atom]}]}
    if isinstance(atom.get("value"), list) and len(atom["value"]) == 2:
        doc["heads"][0]["atoms"][0]["value"] = [1, 0]
    assert _outcome(problem_from_dict, doc) == _outcome(_checked_only, doc)


def test_duplicate_keys_are_still_named():
    with pytest.raises(InputError, match="duplicate key 'b'"):
        io.loads_json('{"a": 1, "b": 2, "c": {"b": 1}, "b": 3}')


def test_poly_text_is_the_canonical_json_of_the_certificate_form():
    rng = random.Random(3)
    for _ in range(2000):
        p = {}
        for _ in range(rng.randint(1, 5)):
            vs = sorted(rng.sample(range(15), rng.randint(0, 3)))
            p[tuple((v, rng.choice([1, 2, 11, -3])) for v in vs)] = rng.choice([1, -1, 12, -10 ** 30])
        assert poly_text(p) == json.dumps(to_json_poly(p), separators=(",", ":"))


def test_binomial_normal_form_without_shift_agrees():
    rng = random.Random(4)
    seen = 0
    for _ in range(5000):
        ms = set()
        while len(ms) < 2:
            vs = sorted(rng.sample(range(6), rng.randint(0, 3)))
            ms.add(tuple((v, rng.randint(1, 3)) for v in vs))
        p = {m: rng.choice([-6, -4, -1, 1, 2, 3, 6, 9]) for m in ms}
        if _shift(p, 2):
            continue                       # has a monomial factor: not the quick path's input
        seen += 1
        assert list(normal_form(p, monomial_free=True).items()) == list(normal_form(p).items())
    assert seen > 1000


def test_spreads_components_and_counts_from_the_head_polynomials():
    rng = random.Random(5)
    for _ in range(200):
        M = _random_problem(rng)
        lat = Lattice.of(M)
        hp = head_polys(M, lat)
        assert flint_obstacle(M, lat, hp) == flint_obstacle(M, lat)
        from attnproof.algebra.budget import _spreads
        assert _spreads([H.den for H in hp], lat.nvars) == degree_spreads(M, lat)
        assert distinct_key_product(M, hp, lat) == distinct_key_product(M)
        polys = [H.den for H in hp]
        comps = _components(polys, M.dim)
        # factors in different components share no x variable; each component is connected
        owner = {}
        for c, fs in enumerate(comps):
            for j in fs:
                for v in _x_vars(polys[j], M.dim):
                    assert owner.setdefault(v, c) == c
        assert sorted(j for fs in comps for j in fs) == list(range(len(polys)))


def test_exact_product_is_the_product():
    rng = random.Random(6)
    for _ in range(200):
        ns = [rng.choice([0, 1, 2, 3, 7, 2 ** 70]) for _ in range(rng.randint(0, 40))]
        p = 1
        for n in ns:
            p *= n
        assert exact_product(ns) == p


def test_certificate_text_with_the_problem_encoded_once():
    for M in (sigmoid_sum(3), biased_sigmoid_sum([F(1, 2), 3]), sigmoid_sum(20)):
        cert = build_certificate(M)
        assert cert.text == canonical_json(cert.doc)
        # a replaced problem is encoded anew
        doc2 = json.loads(cert.text)
        cert.doc["problem"] = doc2["problem"]
        doc2["problem"]["heads"][0]["name"] = "changed"
        assert '"name":"changed"' in cert.text and cert.text == canonical_json(cert.doc)
