"""Fusions are exact: W_d, graph sums, vectors, biases, decimal keys, cancellation."""

from __future__ import annotations

import random
from fractions import Fraction

import networkx as nx
import pytest

from attnproof import (Atom, Head, LimitError, MultiHead, fuse, product_fusion, reduced_form)
from attnproof.algebra import evaluate_multihead, random_point
from attnproof.families import biased_sigmoid_sum, graph_sum, named_graph, random_multihead, sigmoid_sum
from attnproof.fusion import lcm_fusion


@pytest.mark.parametrize("d", range(1, 11))
def test_sigmoid_sum_fuses_to_2_to_the_d(d, exact_check):
    f = fuse(sigmoid_sum(d))
    assert f.atoms == 2 ** d and f.method == "reduced"
    exact_check(sigmoid_sum(d), f.to_head(), points=2)


@pytest.mark.parametrize("d", range(11, 17))
def test_sigmoid_sum_large_d_counts_and_identity(d):
    M = sigmoid_sum(d)
    f = fuse(M)
    assert f.atoms == 2 ** d
    rng = random.Random(d)
    pt = random_point(f.lattice, rng)
    assert f.frac.evaluate(pt) == evaluate_multihead(M, f.lattice, pt)


def _forests(G) -> int:
    """Number of forests (acyclic edge subsets) of a small graph, by brute force."""
    from itertools import combinations
    E = list(G.edges())
    count = 0
    for r in range(len(E) + 1):
        for S in combinations(E, r):
            H = nx.Graph(list(S))
            if nx.is_forest(H) if len(S) else True:
                count += 1
    return count


@pytest.mark.parametrize("name,n,expected", [
    ("complete", 3, 7), ("cycle", 4, 15), ("complete", 4, 38), ("path", 5, 16), ("star", 5, 16),
    ("cycle", 5, 31),
])
def test_graph_sums_fuse_to_the_support_of_q(name, n, expected, exact_check):
    G = named_graph(name, n)
    M = graph_sum(G)
    f = fuse(M)
    r = reduced_form(M)
    assert f.atoms == len(r.support_x()) == expected == _forests(G)
    exact_check(M, f.to_head(), points=2)


def test_trees_fuse_to_2_to_the_edges():
    for n in range(2, 7):
        G = nx.path_graph(n)
        assert fuse(graph_sum(G)).atoms == 2 ** (n - 1)


def test_constant_sum_is_one_atom(exact_check):
    s = Head((Atom((1, 0), (1,)), Atom((0, 1), (0,))))
    t = Head((Atom((1, 0), (0,)), Atom((0, 1), (1,))))
    M = MultiHead((s, t, Head((Atom((3, 3), (Fraction(5, 2),)),))))
    r = reduced_form(M)
    assert r.is_constant()
    f = fuse(M)
    assert f.atoms == 1
    exact_check(M, f.to_head())
    assert f.to_head().atoms[0].value == (Fraction(7, 2),)


def test_zero_sum():
    s = Head((Atom((1,), (1,)), Atom((0,), (-1,))))
    t = Head((Atom((1,), (-1,)), Atom((0,), (1,))))
    f = fuse(MultiHead((s, t)))
    assert f.atoms == 1 and f.to_head().atoms[0].value == (0,)


def negative_q_problem() -> MultiHead:
    """3/(1+x^3) + x/(1+x) = (x^2 - 2x + 3)/(x^2 - x + 1): Q has a negative coefficient."""
    h1 = Head((Atom((0,), (3,)), Atom((3,), (0,))), name="cubic")
    h2 = Head((Atom((1,), (1,)), Atom((0,), (0,))), name="sigma")
    return MultiHead((h1, h2))


def test_negative_reduced_denominator_is_not_used_as_a_head(exact_check):
    M = negative_q_problem()
    r = reduced_form(M)
    assert sorted(int(c) for c in r.Q.coeffs()) == [-1, 1, 1]
    assert not r.frac.is_head()
    assert lcm_fusion(r) is None           # lcm = 1 + x^3 lacks the support of P·G
    f = fuse(M)
    assert f.method == "product" and f.atoms == 4
    assert all(a.weight > 0 for a in f.to_head().atoms)
    exact_check(M, f.to_head())


def test_lcm_fusion_when_heads_repeat(exact_check):
    h = Head((Atom((1,), (1,)), Atom((0,), (0,)), Atom((2,), (5,))))
    g = Head((Atom((1,), (2,)), Atom((0,), (7,)), Atom((2,), (1,))))
    M = MultiHead((h, g))
    f = fuse(M)
    assert f.atoms == 3 and f.method in ("reduced", "lcm")
    assert product_fusion(M).atoms == 5
    exact_check(M, f.to_head())


def test_vector_values_and_output_projection(exact_check):
    W = [[Fraction(1), Fraction(2)], [Fraction(-1, 3), Fraction(1)]]
    heads = []
    for j in range(2):
        atoms = (Atom((1 if j == 0 else 0, 1 if j == 1 else 0), tuple(W[j])),
                 Atom((0, 0), (Fraction(0), Fraction(1, 2))))
        heads.append(Head(atoms))
    M = MultiHead(tuple(heads))
    f = fuse(M)
    assert f.atoms == 4 and M.value_dim == 2
    exact_check(M, f.to_head())


def test_biases_use_the_z_variable(exact_check):
    M = biased_sigmoid_sum([Fraction(1, 2), Fraction(-1, 3), 0])
    f = fuse(M)
    assert f.lattice.has_z and f.lattice.bias_scale == 6
    assert f.atoms == 8
    exact_check(M, f.to_head(), points=3)


def test_biases_sharing_a_key_count_once(exact_check):
    h1 = Head((Atom((1,), (1,), bias=Fraction(1)), Atom((0,), (0,))))
    h2 = Head((Atom((1,), (2,), bias=Fraction(-1)), Atom((0,), (0,))))
    M = MultiHead((h1, h2))
    f = fuse(M)
    assert f.atoms == 3 and f.entries >= f.atoms
    exact_check(M, f.to_head(), points=3)


def test_decimal_keys(exact_check):
    h1 = Head((Atom((Fraction(1, 10), Fraction(3, 4)), (1,)), Atom((0, 0), (0,)),
               Atom((Fraction(-2, 5), 1), (Fraction(1, 3),))))
    h2 = Head((Atom((Fraction(1, 2), 0), (2,)), Atom((0, Fraction(1, 4)), (0,))))
    M = MultiHead((h1, h2))
    f = fuse(M)
    assert f.lattice.scales == (10, 4)
    sums = {tuple(x + y for x, y in zip(a.key, b.key)) for a in h1.atoms for b in h2.atoms}
    assert f.atoms == len(sums) == 5           # (1/10, 3/4)+(0, 1/4) = (-2/5, 1)+(1/2, 0)
    exact_check(M, f.to_head(), points=3)


def test_max_atoms_refuses_before_allocating():
    with pytest.raises(LimitError, match=r"up to 1073741824 atoms.*--max-atoms 1048576"):
        fuse(sigmoid_sum(30))
    with pytest.raises(LimitError, match="--max-atoms 10"):
        product_fusion(sigmoid_sum(4), max_atoms=10)
    assert fuse(sigmoid_sum(4), max_atoms=16).atoms == 16


def test_problem_dict_matches_head():
    from attnproof.io import problem_to_dict
    for M in (sigmoid_sum(3), biased_sigmoid_sum([1, Fraction(1, 2)]),
              random_multihead(2, 3, 2, seed=3, value_dim=2)):
        f = fuse(M)
        assert f.to_problem_dict() == problem_to_dict(f.to_multihead())


def test_fusions_of_random_heads_are_exact(exact_check):
    for seed in range(12):
        M = random_multihead(3, 3, 2, seed=seed, value_dim=1 + seed % 2, biases=seed % 3 == 0)
        for f in (fuse(M), product_fusion(M)):
            exact_check(M, f.to_head(), points=2, seed=seed)
            assert f.atoms <= product_fusion(M).atoms


def test_checked_gcd_refuses_flints_silent_zero():
    """python-flint answers gcd 0 past 64-bit exponents; the producer must not use it."""
    import flint

    from attnproof.errors import AlgebraError
    from attnproof.algebra.identity import checked_gcd

    ctx = flint.fmpz_mpoly_ctx.get(("x",), "lex")
    (x,) = ctx.gens()
    assert checked_gcd((1 + x) * (2 + x), 1 + x) == 1 + x
    with pytest.raises(AlgebraError, match="gcd 0"):
        checked_gcd(1 + x, 1 + x ** (10 ** 19))


def _with_fusion(M, frac, f):
    """A certificate of ``M`` whose upper bound is the explicit head ``frac`` (on ``f``'s
    coordinates), claims adjusted: what the checker is asked about a fusion."""
    import copy

    from attnproof.certificate import build_certificate
    from attnproof.certificate.steps.fusion import explicit_fusion_step
    from attnproof.fusion import ExplicitFusion

    g = ExplicitFusion(M, frac, f.method, f.coords, f.inner)
    doc = copy.deepcopy(build_certificate(M).doc)
    doc["steps"][-1] = explicit_fusion_step(g)
    lower = doc["claims"]["lower_bound"]
    doc["claims"]["upper_bound"] = g.atoms
    doc["claims"]["minimum"] = g.atoms if g.atoms == lower else None
    return doc


def _differential_cases():
    yield "sigmoid", sigmoid_sum(3)
    yield "k3", graph_sum(named_graph("complete", 3))
    yield "cancel", MultiHead((Head((Atom((1, 0), (1,)), Atom((0, 0), (0,)))),
                               Head((Atom((1, 0), (0,)), Atom((0, 0), (1,)))),
                               Head((Atom((0, 1), (2,)), Atom((0, 0), (0,))))))
    yield "biased", biased_sigmoid_sum([1, Fraction(1, 2)])
    for seed in range(4):
        yield f"random {seed}", random_multihead(2, 3, 2, seed=seed, value_dim=1 + seed % 2)


@pytest.mark.parametrize("name,M", list(_differential_cases()), ids=lambda x: x if isinstance(x, str) else "")
def test_fusion_identity_agrees_with_the_checker(name, M):
    """The producer's exact identity (N/D = Σ N_h/D_h in FLINT polynomials) and the checker
    give the same verdict on the genuine fusion, on wrong ones (a numerator or a denominator
    coefficient changed, a numerator term added) and on a valid larger one (N·G / D·G)."""
    from attnproof.algebra.expfrac import ExpFraction
    from attnproof.algebra.identity import fusion_identity
    from attnproof.checker import check_document
    from attnproof.errors import AlgebraError

    f = fuse(M)
    fr = f.frac
    inner = f.inner if f.inner is not None else f.multihead
    ctx = fr.den.context()
    e0 = fr.den.monoms()[-1]
    bump = ctx.from_dict({e0: 1})
    G = ctx.from_dict({tuple(int(i == 0) for i in range(ctx.nvars())): 2, (0,) * ctx.nvars(): 1})
    cases = {
        "genuine": (fr, True),
        "numerator": (ExpFraction(fr.lattice, (fr.num[0] + bump,) + fr.num[1:], fr.den, fr.shift), False),
        "denominator": (ExpFraction(fr.lattice, fr.num, fr.den + bump, fr.shift), False),
        "times G": (ExpFraction(fr.lattice, tuple(n * G for n in fr.num), fr.den * G, fr.shift), True),
    }
    if len(fr.den) > 1:
        # a numerator term moved to another atom of the fusion
        e1 = fr.den.monoms()[0]
        move = ctx.from_dict({e1: 1}) - bump
        cases["moved"] = (ExpFraction(fr.lattice, (fr.num[0] + move,) + fr.num[1:], fr.den,
                                      fr.shift), False)
    for what, (frac, genuine) in cases.items():
        try:
            fusion_identity(frac, inner)
            producer = True
        except AlgebraError:
            producer = False
        v = check_document(_with_fusion(M, frac, f))
        assert producer == genuine == (v.code == 0), (name, what, v.message)
        if not genuine:
            assert "not equal to the sum of the heads" in v.message, v.message
