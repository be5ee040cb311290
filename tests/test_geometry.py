"""Exact geometry of THEORY §9: vertex counts against an independent brute force, certificates.

The independent count shares no code with ``attnproof.bounds`` or
``attnproof.geometry``: it forms every sum point of the Minkowski sum and
decides, with exact fractions and Carathéodory's theorem (a point of a
3-dimensional hull lies in the hull of at most 4 affinely independent points),
whether each sum point lies in the convex hull of the others.
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attnproof.certificate.geometry_steps import geometry_certificate, geometry_proof
from attnproof.checker import check_document
from attnproof.geometry import (classify_points, direct_sum_certificate, indecomposable_chain,
                                minkowski_vertices, separate)
from attnproof.geometry.exact_lp import gordan_alternative
from attnproof.geometry.separation import Functional, verify_functional, verify_gordan
from attnproof.heads import Atom, Head, MultiHead

sys.path.insert(0, str(Path(__file__).resolve().parent))
from independent_count import brute_force_vertices  # noqa: E402

F = Fraction


# -- helpers ---------------------------------------------------------------

def float_head(rng, n, d, bias=False, m=1, decimal=False):
    atoms = []
    for _ in range(n):
        k = rng.standard_normal(d).astype(np.float32)
        key = tuple(F(repr(float(x))) if decimal else F(float(x)) for x in k)
        b = F(float(np.float32(rng.standard_normal()))) if bias else F(0)
        v = tuple(F(float(np.float32(x))) for x in rng.standard_normal(m))
        atoms.append(Atom(key, v, b))
    return Head(tuple(atoms))


def _mh(*point_lists):
    return MultiHead(tuple(Head(tuple(Atom(k, (i,)) for i, k in enumerate(pts)))
                           for pts in point_lists))


TRIANGLES = (
    [(F(3, 5), F(-17, 50), F(9, 10)), (F(-2, 25), F(77, 100), F(9, 10)),
     (F(67, 100), F(9, 25), F(-23, 25))],
    [(F(1, 5), F(99, 100), F(-9, 25)), (F(67, 100), F(-43, 50), F(-59, 100)),
     (F(-71, 100), F(-1, 25), F(21, 100))],
)


# -- the oracle ----------------------------------------------------------------

def test_separate_agrees_with_the_exact_simplex():
    rng = random.Random(3)
    for _ in range(60):
        d = rng.randint(1, 4)
        rows = [tuple(rng.randint(-4, 4) for _ in range(d)) for _ in range(rng.randint(1, 6))]
        a = separate(rows, dim=d)
        kind, val = gordan_alternative(rows) if any(any(r) for r in rows) or True else None
        assert (kind == "functional") == isinstance(a, Functional)
        if isinstance(a, Functional):
            assert verify_functional(rows, a.c) and verify_functional(rows, val)
        else:
            assert verify_gordan(rows, a.mu) and verify_gordan(rows, val)


def test_separate_huge_exponents():
    big = 2 ** 600
    rows = [(big + 1, -big), (-big, big + 3), (1, 1)]
    r = separate(rows)
    assert isinstance(r, Functional) and verify_functional(rows, r.c)
    rows2 = [(big, 1), (-2 * big, -2)]
    assert verify_gordan(rows2, separate(rows2).mu)


def test_classify_points_decides_every_point():
    pts = [(0, 0), (4, 0), (0, 4), (1, 1), (4, 4), (2, 2)]
    hv = classify_points(pts)
    assert sorted(hv.vertex_indices + [i for i, _ in hv.non_vertices]) == list(range(6))
    assert hv.vertex_indices == [0, 1, 2, 4]
    for i, mu in hv.non_vertices:
        assert all(sum(m * (pts[i][c] - pts[j][c]) for j, m in mu.items()) == 0 for c in range(2))


# -- Lemma 9.4 against the independent count --------------------------------------

def test_two_decimal_triangles_have_eight_vertices():
    heads = [[tuple(x * 100 for x in p) for p in T] for T in TRIANGLES]
    heads = [[tuple(int(x) for x in p) for p in T] for T in heads]
    mv = minkowski_vertices(heads)
    assert mv.complete and mv.count == brute_force_vertices(heads) == 8
    cert = geometry_certificate(_mh(*TRIANGLES))
    v = check_document(cert.doc)
    assert v.code == 0 and v.lower_bound == 8 and v.upper_bound == 9


@pytest.mark.parametrize("seed", range(12))
def test_minkowski_matches_brute_force(seed):
    rng = random.Random(seed)
    d = rng.choice([2, 3])
    r = rng.choice([2, 3])
    heads = []
    for h in range(r):
        n = rng.randint(2, 4) if d == 2 else (rng.randint(2, 3) if h == 0 else 2)
        pts = set()
        while len(pts) < n:
            pts.add(tuple(rng.randint(-6, 6) for _ in range(d)))
        heads.append(sorted(pts))
    mv = minkowski_vertices(heads)
    assert mv.complete
    assert mv.count == brute_force_vertices(heads)
    # every refutation is an exact Gordan certificate
    for t, mu in mv.non_vertices:
        for c in range(d):
            assert sum(m * (heads[h][t[h]][c] - heads[h][j][c]) for (h, j), m in mu.items()) == 0


def test_partial_count_is_a_lower_bound():
    heads = [[(0, 0, 0), (5, 1, 0), (0, 5, 2), (1, 1, 7)], [(0, 0, 0), (3, 4, 1), (2, -3, 5)]]
    full = minkowski_vertices(heads)
    part = minkowski_vertices(heads, max_candidates=5)
    assert not part.complete and part.count <= full.count


# -- Lemma 9.1 / Cor 9.2, Lemma 9.5 ----------------------------------------------------

def test_chain_and_simplex():
    assert indecomposable_chain([(0, 0), (1, 0), (0, 1)]).kind == "simplex"
    oct_ = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
    ch = indecomposable_chain(oct_, box=(1, 1, 1))
    assert ch is not None and ch.kind == "chain"
    assert {i for t, _ in ch.triangles for i in t} == set(range(6))
    # a square is decomposable (a sum of two segments): no chain
    assert indecomposable_chain([(0, 0), (1, 0), (0, 1), (1, 1)]) is None


def test_direct_sum_detects_dependence():
    a = [(0, 0, 0, 0), (1, 2, 0, 0), (3, 1, 0, 0)]
    b = [(0, 0, 0, 0), (0, 0, 1, 5), (0, 0, 2, 1)]
    ds = direct_sum_certificate([a, b])
    assert ds is not None and ds.dims == [2, 2]
    c = [(0, 0, 0, 0), (1, 1, 1, 1)]
    assert direct_sum_certificate([a, b, c]) is None


def test_direct_sum_certificate_gives_the_minimum():
    # two heads in independent subspaces of R^4, every key a vertex: minimum n1·n2
    h1 = [(F(1, 3), F(2, 7), 0, 0), (F(-1, 2), F(1, 5), 0, 0), (0, F(-3, 4), 0, 0)]
    h2 = [(0, 0, F(1, 9), F(2, 3)), (0, 0, F(-5, 6), F(1, 11)), (0, 0, 0, 0)]
    cert = geometry_certificate(_mh(h1, h2))
    assert cert.proof.method == "direct_sum"
    v = check_document(cert.doc)
    assert v.code == 0 and v.minimum == 9


@pytest.mark.parametrize("shape", [(2, 8, 4, False, 1), (2, 12, 5, True, 2), (2, 16, 8, False, 1)])
def test_float_heads_certified(shape):
    r, n, d, bias, m = shape
    rng = np.random.default_rng(r * 100 + n)
    M = MultiHead(tuple(float_head(rng, n, d, bias=bias, m=m) for _ in range(r)))
    cert = geometry_certificate(M)
    assert cert is not None and cert.proof.complete
    v = check_document(cert.doc)
    assert v.code == 0, v.message
    assert v.lower_bound == cert.proof.lower <= v.upper_bound


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6), st.sampled_from([2, 3]), st.integers(3, 6))
def test_hypothesis_float_heads(seed, d, n):
    """Random float heads: the bound never exceeds the product fusion's atoms and equals
    the independent count (binary float keys, 2 heads)."""
    rng = np.random.default_rng(seed)
    if d == 3:
        n = min(n, 4)
    M = MultiHead(tuple(float_head(rng, n if h == 0 else min(n, 4 if d == 2 else 3), d)
                        for h in range(2)))
    gp = geometry_proof(M)
    if gp is None:        # a head whose edge contents share a factor: not certified
        return
    from attnproof.geometry import head_points
    pts = [head_points(M)[h] for h in gp.factors]
    assert gp.lower <= len(head_points(M)[0]) * len(head_points(M)[1])
    if gp.complete:
        assert gp.lower == brute_force_vertices(pts)
    cert = geometry_certificate(M)
    assert check_document(cert.doc).code == 0


# -- the checker rejects forged data ---------------------------------------------

def _cert():
    return geometry_certificate(_mh(*TRIANGLES)).doc


def _step(doc, rule):
    return next(s for s in doc["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("forge", [
    lambda d: _step(d, "minkowski_vertices")["vertices"][0].__setitem__(2, [0, 0, 0]),
    lambda d: _step(d, "minkowski_vertices")["vertices"][0][1].__setitem__(0, 1),
    lambda d: _step(d, "minkowski_vertices")["non_vertices"].pop(),
    lambda d: _step(d, "minkowski_vertices")["non_vertices"][0][1][0].__setitem__(2, 7),
    lambda d: _step(d, "minkowski_vertices").__setitem__("complete", False),
    lambda d: _step(d, "generic_heads").__setitem__("classes", [[0, 1]]),
    lambda d: _step(d, "indecomposable_chain").__setitem__("prime", 2 ** 61 + 1),
    lambda d: d["steps"].pop(0),
])
def test_checker_rejects_forgeries(forge):
    doc = _cert()
    assert check_document(doc).code == 0
    forge(doc)
    assert check_document(doc).code == 1


def test_thin_cone_uses_the_exact_fallback():
    """Margin 1e-20 of the row norms: the float LP cannot see it, the exact simplex decides
    (a third row makes the rows dependent, so the Gram solution does not apply)."""
    from attnproof.geometry.separation import stats

    rows = [(10 ** 20, 10 ** 20 + 1), (-10 ** 20, -10 ** 20 + 1), (0, 2)]
    before = stats["exact"]
    r = separate(rows)
    assert isinstance(r, Functional) and verify_functional(rows, r.c)
    assert stats["exact"] == before + 1


def test_thin_cone_of_independent_rows_is_decided_by_the_gram_matrix():
    """The same two rows alone are independent: ``<c, g>`` equal for both, no LP."""
    from attnproof.geometry.separation import stats, tight_functional

    rows = [(10 ** 20, 10 ** 20 + 1), (-10 ** 20, -10 ** 20 + 1)]
    before = dict(stats)
    r = separate(rows)
    assert isinstance(r, Functional) and verify_functional(rows, r.c)
    assert r.c == tight_functional(rows) and len({sum(a * b for a, b in zip(r.c, g)) for g in rows}) == 1
    assert stats["tight"] == before["tight"] + 1 and stats["lp"] == before["lp"]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5).flatmap(lambda d: st.lists(
    st.lists(st.integers(-6, 6), min_size=d, max_size=d).map(tuple), min_size=1, max_size=d + 1)))
def test_tight_functional_exactly_when_the_rows_are_independent(rows):
    """A functional with all ``<c, g>`` equal and positive for independent rows, None for
    dependent ones; :func:`separate` agrees with the exact simplex on the kind of answer."""
    import flint

    from attnproof.geometry.exact_lp import gordan_alternative
    from attnproof.geometry.separation import tight_functional

    c = tight_functional(rows)
    independent = len(rows) <= len(rows[0]) and flint.fmpz_mat([list(g) for g in rows]).rank() == len(rows)
    assert (c is not None) == independent
    if c is not None:
        vals = {sum(a * b for a, b in zip(c, g)) for g in rows}
        assert len(vals) == 1 and min(vals) >= 1
    kind, _ = gordan_alternative(rows)
    r = separate(rows)
    assert isinstance(r, Functional) == (kind == "functional")
    assert verify_functional(rows, r.c) if isinstance(r, Functional) else verify_gordan(rows, r.mu)


# -- modular ranks on packed rows (producer and checker) -------------------------

def _naive_rank_mod(rows, p):
    m = [[x % p for x in r] for r in rows]
    rank = 0
    for col in range(len(m[0]) if m else 0):
        piv = next((i for i in range(rank, len(m)) if m[i][col]), None)
        if piv is None:
            continue
        m[rank], m[piv] = m[piv], m[rank]
        inv = pow(m[rank][col], -1, p)
        m[rank] = [x * inv % p for x in m[rank]]
        for i in range(len(m)):
            if i != rank and m[i][col]:
                f = m[i][col]
                m[i] = [(a - f * b) % p for a, b in zip(m[i], m[rank])]
        rank += 1
    return rank


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10 ** 9), st.integers(1, 9), st.integers(1, 9),
       st.sampled_from([2, 3, 7, 1000000007, 2 ** 61 - 1, 9223372036854775783]))
def test_packed_rank_matches_plain_elimination(seed, n, d, p):
    """Rows of known low rank, entries from tiny to hundreds of bits and multiples of p."""
    from attnproof.checker.linalg import rank_mod
    from attnproof.geometry.modular import rank_mod_p

    rng = random.Random(seed)
    base = [[rng.randint(-3, 3) * rng.choice([1, 1, p, 2 ** 200 + 1]) for _ in range(d)]
            for _ in range(rng.randint(1, n))]
    rows = [[sum(rng.randint(-2, 2) * b[j] for b in base) for j in range(d)] for _ in range(n)]
    want = _naive_rank_mod(rows, p)
    assert rank_mod_p(rows, p) == want
    assert rank_mod(rows, p) == want


def test_direct_sum_fast_path_agrees_with_the_general_one():
    """Affinely independent heads in independent subspaces: one modular rank, the same
    certificate as the head-by-head construction (bases 1..n-1, no relations)."""
    from attnproof.geometry import direct_sum as ds_mod

    rng = random.Random(5)
    heads = []
    for h in range(3):
        heads.append([tuple(rng.randint(-10 ** 30, 10 ** 30) if 4 * h <= j < 4 * h + 4 else 0
                            for j in range(13)) for _ in range(5)])
    fast = ds_mod._affinely_independent([ds_mod.check_distinct(p) for p in heads])
    assert fast is not None and fast.bases == [[1, 2, 3, 4]] * 3 and fast.relations == [[]] * 3
    general = direct_sum_certificate(heads)
    assert (general.bases, general.relations, general.prime) == (fast.bases, fast.relations,
                                                                 fast.prime)
    # a head with a dependent point: the fast path declines, the general one gives relations
    heads[0].append(tuple(2 * a - b for a, b in zip(heads[0][1], heads[0][2])))
    assert ds_mod._affinely_independent([ds_mod.check_distinct(p) for p in heads]) is None
    ds = direct_sum_certificate(heads)
    assert ds is not None and ds.dims == [4, 4, 4] and len(ds.relations[0]) == 1


def test_checker_rejects_a_wrong_direct_sum_prime():
    h1 = [(F(1, 3), F(2, 7), 0, 0), (F(-1, 2), F(1, 5), 0, 0), (0, F(-3, 4), 0, 0)]
    h2 = [(0, 0, F(1, 9), F(2, 3)), (0, 0, F(-5, 6), F(1, 11)), (0, 0, 0, 0)]
    doc = geometry_certificate(_mh(h1, h2)).doc
    assert check_document(doc).code == 0
    _step(doc, "direct_sum")["prime"] = 2 ** 61 + 1          # not a prime
    assert check_document(doc).code == 1


def test_checker_rejects_a_direct_sum_of_dependent_heads():
    """A forged direct_sum step on two heads whose difference spaces meet: the checker's
    packed modular rank finds the dependence."""
    h1 = [(F(1, 3), F(2, 7), 0), (F(-1, 2), F(1, 5), 0), (0, F(-3, 4), 0)]
    h2 = [(F(1, 9), F(2, 3), 1), (F(-5, 6), F(1, 11), 0), (0, 0, F(1, 2))]
    doc = geometry_certificate(_mh(h1, h2)).doc
    assert check_document(doc).code == 0
    assert not any(s["rule"] == "direct_sum" for s in doc["steps"])
    i = next(k for k, s in enumerate(doc["steps"]) if s["rule"] == "minkowski_vertices")
    doc["steps"][i] = {"rule": "direct_sum", "prime": 2 ** 61 - 1, "factors": [
        {"basis": [1, 2], "relations": [], "vertices": [], "non_vertices": []}] * 2}
    v = check_document(doc)
    assert v.code == 1 and "not independent" in v.message
