"""Sparse keys end to end: the model, parser, lattice, head polynomials, bounds,
fusion and certificate work on the non-zero key coordinates, never on ``dim``."""

from __future__ import annotations

import json
import pickle
import random
import sys
import tracemalloc
from fractions import Fraction as F

import pytest

from attnproof.algebra.expfrac import head_fraction, poly_to_dict
from attnproof.algebra.lattice import Lattice
from attnproof.bounds import lower_bound
from attnproof.bounds.lower import simplex_pivots
from attnproof.algebra.sparse import head_polys
from attnproof.certificate import build_certificate
from attnproof.checker import check_text
from attnproof.errors import ValidationError
from attnproof.families import graph_sum, one_hot_head, random_multihead, sigmoid_sum
from attnproof.fusion import ExplicitFusion, compress, fuse, reduced_form, sparse_fusion
from attnproof.io import (canonical_json, decimal_string, loads_problem, problem_sha256,
                          problem_to_dict)
from attnproof.heads import Atom, Head, MultiHead


# -- the model ---------------------------------------------------------------

def test_dense_and_sparse_atoms_are_the_same_atom():
    a = Atom(key=(0, F(1, 2), 0, -3), value=(1,), bias=1, weight=F(2, 3))
    b = Atom.sparse(4, {3: -3, 1: F(1, 2)}, (1,), bias=1, weight=F(2, 3))
    c = Atom.sparse(4, [(1, F(1, 2)), (3, -3), (0, 0)], (1,), bias=1, weight=F(2, 3))
    assert a == b == c and hash(a) == hash(b) == hash(c)
    assert a.sparse_key == ((1, F(1, 2)), (3, F(-3)))
    assert b.key == (0, F(1, 2), 0, -3) and b.dim == 4 and b.nnz == 2
    assert pickle.loads(pickle.dumps(b)) == a
    assert Atom((1, 0), (1,)) != Atom((0, 1), (1,))


def test_atoms_are_immutable_and_validated():
    a = Atom.sparse(3, {0: 1}, (1,))
    with pytest.raises(AttributeError):
        a.bias = F(1)                                   # type: ignore[misc]
    with pytest.raises(ValidationError):
        Atom.sparse(3, {3: 1}, (1,))                    # out of range
    with pytest.raises(ValidationError):
        Atom.sparse(3, [(1, 1), (1, 2)], (1,))          # repeated coordinate
    with pytest.raises(ValidationError):
        Atom.sparse(3, {0: 0.5}, (1,))                  # float
    with pytest.raises(ValidationError):
        Atom.sparse(3, {0: 1}, (1,), weight=0)
    with pytest.raises(ValidationError):
        Head((Atom.sparse(3, {}, (1,)), Atom.sparse(4, {}, (1,))))


def test_large_atoms_never_build_their_dense_key():
    M = sigmoid_sum(50_000)
    assert all(a._dense is None for h in M.heads[:10] for a in h.atoms)
    assert M.heads[7].atoms[0].sparse_key == ((7, F(1)),)
    assert M.heads[7].atoms[0].key[7] == 1              # on demand, not cached
    assert M.heads[7].atoms[0]._dense is None


# -- parsing, canonical output, hashing ----------------------------------------

def _doc(dim: int, keys: list, values: list) -> dict:
    return {"format": "attnproof-problem", "version": 1, "dim": dim,
            "heads": [{"atoms": [{"key": k, "value": v} for k, v in zip(keys, values)]}]}


def test_sparse_and_dense_spellings_parse_to_the_same_problem():
    dense = loads_problem(json.dumps(_doc(3, [[0, "1/2", 0], [0, 0, 0]], [1, 0])))
    sparse = loads_problem(json.dumps(_doc(3, [{"1": "0.5"}, {"2": 0}], [1, 0])))
    assert dense == sparse and problem_sha256(dense) == problem_sha256(sparse)


def test_canonical_output_round_trips_above_dim_16():
    M = one_hot_head(1000, 40, seed=3)
    doc = problem_to_dict(M)
    assert all(len(a["key"]) == 1 for a in doc["heads"][0]["atoms"])
    assert loads_problem(canonical_json(doc)) == M


def test_parsed_large_problem_stays_sparse():
    M = one_hot_head(100_000, 300, seed=1)
    back = loads_problem(canonical_json(problem_to_dict(M)))
    assert back == M
    assert all(a._dense is None and a.nnz == 1 for a in back.heads[0].atoms)


def test_decimal_string_matches_str_beyond_the_default_limit():
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        rng = random.Random(5)
        for bits in (10, 12_999, 13_000, 40_000, 200_000):
            n = rng.getrandbits(bits) | (1 << bits)
            assert decimal_string(n) == str(n)
            assert decimal_string(10 ** (bits // 4)) == str(10 ** (bits // 4))
    finally:
        sys.set_int_max_str_digits(old)


# -- lattice and head polynomials agree with the dense route -------------------

@pytest.mark.parametrize("seed", range(12))
def test_lattice_and_head_polys_agree_with_the_dense_route(seed):
    rng = random.Random(seed)
    M = random_multihead(2, 4, 3, seed, biases=seed % 2 == 0, value_dim=1 + seed % 2)
    # rational keys, so the lattice has scales other than 1
    heads = [Head(tuple(Atom(tuple(F(k, rng.choice([1, 2, 3])) for k in a.key), a.value,
                             a.bias, a.weight) for a in h.atoms)) for h in M.heads]
    M = MultiHead(tuple(heads))
    lat = Lattice.of(M)
    dense_scales = [1] * M.dim
    from math import lcm
    for h in M.heads:
        for a in h.atoms:
            for j, c in enumerate(a.key):
                dense_scales[j] = lcm(dense_scales[j], c.denominator)
    assert lat.scales == tuple(dense_scales)
    for h in M.heads:
        for a in h.atoms:
            e = lat.exponent(a)
            assert lat.sparse_exponent(a) == tuple((v, x) for v, x in enumerate(e) if x)
    for h, H in zip(M.heads, head_polys(M, lat)):
        f = head_fraction(h, lat)
        as_sparse = {tuple((v, x) for v, x in enumerate(e) if x): c
                     for e, c in poly_to_dict(f.den).items()}
        assert H.den == as_sparse


# -- bounds, fusion and certificates on sparse problems ------------------------

def test_one_hot_head_is_a_checked_simplex_with_a_sparse_fusion():
    M = one_hot_head(5000, 60, seed=2)
    lb = lower_bound(M)
    assert lb.value == 60 and [b.method for b in lb.blocks] == ["simplex"]
    f = fuse(M)
    assert f.atoms == 60 and f.method == "reduced"
    f.verify(2)
    cert = build_certificate(M)
    v = check_text(cert.text)
    assert v.code == 0 and v.lower_bound == v.upper_bound == 60
    # the exact identity (N_h, D_h) = g·(N, D) catches a wrong weight, value or lost atom
    from attnproof.errors import AlgebraError
    from attnproof.fusion import sparse_fusion

    f = sparse_fusion(M, cells=0)
    rows = f._rows
    for bad in ([(m, e, c + 1, ns) if i == 3 else (m, e, c, ns) for i, (m, e, c, ns) in enumerate(rows)],
                [(m, e, c, tuple(n + 1 for n in ns)) if i == 7 else (m, e, c, ns)
                 for i, (m, e, c, ns) in enumerate(rows)],
                rows[1:]):
        f._rows = bad
        with pytest.raises(AlgebraError):
            f.verify(2)
    f._rows = rows
    f.verify(1)


def test_sparse_fusion_equals_the_dense_route():
    checked = 0
    for seed in range(60):
        M = (one_hot_head(30, 12, seed) if seed % 3 == 0 else
             random_multihead(1, 3 + seed % 4, 3, seed, biases=seed % 2 == 0, value_dim=1 + seed % 2))
        sf = sparse_fusion(M, cells=0)
        if sf is None:
            continue
        comp = compress(M)
        if comp is not None:
            df = ExplicitFusion(M, reduced_form(comp[0]).frac, "reduced", comp[1], comp[0])
        else:
            df = ExplicitFusion(M, reduced_form(M).frac, "reduced")
        assert sf.to_problem_dict() == df.to_problem_dict()
        assert (sf.atoms, sf.entries) == (df.atoms, df.entries)
        checked += 1
    assert checked >= 30


def test_simplex_pivots():
    assert simplex_pivots([(), ((3, 1),), ((9, 2),), ((1, 1), (4, 1))]) == [3, 9, 1]
    # four points of a square are not affinely independent
    assert simplex_pivots([(), ((0, 1),), ((1, 1),), ((0, 1), (1, 1))]) is None


def test_checker_rejects_a_simplex_block_that_is_not_one():
    from attnproof.checker.rules.newton import Reject, State, _simplex_count
    st = State(None)
    st.pb = type("Pb", (), {"dim": 4})()
    st.factors = [({(): 1, ((0, 1),): 1, ((1, 1),): 1, ((0, 1), (1, 1)): 1}, 1)]
    with pytest.raises(Reject):
        _simplex_count(st, {"factors": [0], "method": "simplex"}, [0], [], "b")


def test_path_graph_is_an_independent_zonotope_without_dense_vectors():
    M = graph_sum(__import__("networkx").path_graph(3000))
    lb = lower_bound(M)
    assert lb.value == 2 ** 2999
    assert [b.method for b in lb.blocks] == ["zonotope_independent"]


# -- linear memory, by counting allocations (not time) -------------------------

def _peak_bytes(fn) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_100k_dim_problem_is_handled_in_memory_linear_in_its_size():
    """dim 100,000 and 3,001 one-coordinate keys: a dense key array alone would be
    3001 × 100000 references (2.4 GB); everything here stays far below that."""
    text = canonical_json(problem_to_dict(one_hot_head(100_000, 3001, seed=0)))

    def run() -> None:
        M = loads_problem(text)
        problem_sha256(M)
        assert lower_bound(M).value == 3001
        f = fuse(M)
        assert f.atoms == 3001
        f.to_problem_dict()
        doc = build_certificate(M).doc
        assert doc["steps"][-1]["rule"] == "product_fusion"

    assert _peak_bytes(run) < 120 * 2 ** 20


def test_certificate_memory_grows_linearly_in_d():
    def cert(d: int):
        return lambda: build_certificate(sigmoid_sum(d), max_atoms=None).text

    small, large = _peak_bytes(cert(500)), _peak_bytes(cert(2000))
    assert large < 5.5 * small          # linear: ~4x; a dense d×d walk: ~16x
