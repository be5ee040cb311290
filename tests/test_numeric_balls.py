"""Ball comparison: refutations are rigorous, correct fusions are consistent, ties are never guessed."""

from __future__ import annotations

from fractions import Fraction as F

import flint
import mpmath
import networkx as nx
import pytest

from attnproof.errors import InputError, NumericError
from attnproof.families import biased_sigmoid_sum, graph_sum, random_multihead, sigmoid_sum
from attnproof.fusion import fuse
from attnproof.heads import Atom, Head, MultiHead
from attnproof.numeric import (mpf_to_fraction, arb_precision, ball_compare, ball_sign, evaluate_balls,
                               evaluate_mpmath, quick_ball_check, random_queries)
from attnproof.numeric.balls import HeadTable, arb_of


def perturb(head: Head, index: int, delta: F) -> Head:
    """The head with value component 0 of atom ``index`` moved by ``delta``."""
    atoms = list(head.atoms)
    a = atoms[index]
    atoms[index] = Atom(a.key, (a.value[0] + delta,) + a.value[1:], a.bias, a.weight)
    return Head(tuple(atoms), head.name)


# ---- refutation ------------------------------------------------------------------------

@pytest.mark.parametrize("d,index", [(2, 0), (3, 5), (4, 9)])
def test_value_perturbed_by_1e30_is_refuted_with_its_query(d, index):
    M = sigmoid_sum(d)
    bad = perturb(fuse(M).to_head(), index, F(1, 10**30))
    res = ball_compare(M, bad, digits=50, samples=8, seed=3)
    assert res.verdict == "refuted"
    r = res.refutation
    # M - H = -(softmax weight of the atom) * 1e-30 < 0
    assert r.sign == -1
    assert r.query == random_queries(d, 8, seed=3)[r.index]
    # the reported query reproduces the refutation independently of the search loop
    with arb_precision(r.bits):
        diff = evaluate_balls(M, [r.query], bits=r.bits)[0][0] - evaluate_balls(bad, [r.query], bits=r.bits)[0][0]
        assert diff < 0
        assert diff > arb_of(-F(1, 10**30))  # at most the perturbation
    # the exact query is reported as rational strings
    doc = res.to_dict()
    assert doc["rigorous"] is True
    assert [F(s) for s in doc["refutation"]["query"]] == list(r.query)


def test_raising_precision_to_the_cap_finds_a_difference_below_the_start():
    M = sigmoid_sum(2)
    bad = perturb(fuse(M).to_head(), 3, F(1, 10**70))
    found = ball_compare(M, bad, digits=50, samples=2)            # cap 100 digits
    assert found.verdict == "refuted" and found.refutation.bits > 200
    capped = ball_compare(M, bad, digits=50, max_digits=50, samples=2)
    assert capped.verdict == "consistent"                          # agreement to 50 digits only
    assert "not a proof" in capped.summary()


def test_perturbed_key_and_bias_are_refuted():
    M = biased_sigmoid_sum([F(1, 2), F(-1, 3)])
    h = fuse(M).to_head()
    a = h.atoms[1]
    atoms = list(h.atoms)
    atoms[1] = Atom(a.key, a.value, a.bias + F(1, 10**40), a.weight)
    assert ball_compare(M, Head(tuple(atoms)), samples=4).verdict == "refuted"
    atoms[1] = Atom((a.key[0] + F(1, 10**35),) + a.key[1:], a.value, a.bias, a.weight)
    assert ball_compare(M, Head(tuple(atoms)), samples=4).verdict == "refuted"


# ---- consistency of correct fusions -----------------------------------------------------

@pytest.mark.parametrize("d", [1, 2, 3, 5, 8, 10])
def test_sigmoid_sum_fusion_consistent_at_50_digits(d):
    M = sigmoid_sum(d)
    res = ball_compare(M, fuse(M).to_head(), digits=50, samples=6)
    assert res.verdict == "consistent", res.summary()
    assert res.checked == 6 and res.refutation is None
    assert float(res.max_difference) <= 1e-50


@pytest.mark.slow
@pytest.mark.parametrize("d", [11, 12])
def test_sigmoid_sum_fusion_consistent_large(d):
    M = sigmoid_sum(d)
    assert ball_compare(M, fuse(M).to_head(), digits=50, samples=4).verdict == "consistent"


@pytest.mark.parametrize("graph", [nx.path_graph(4), nx.cycle_graph(4), nx.complete_graph(4), nx.star_graph(3),
                                   nx.complete_graph(5)])
def test_graph_sum_fusion_consistent(graph):
    M = graph_sum(graph)
    assert ball_compare(M, fuse(M).to_head(), digits=50, samples=6).verdict == "consistent"


@pytest.mark.slow
def test_petersen_graph_sum_fusion_consistent():
    M = graph_sum(nx.petersen_graph())
    h = fuse(M).to_head()
    assert len(h) > 20000
    assert ball_compare(M, h, digits=50, samples=2).verdict == "consistent"


def test_biased_and_vector_valued_fusions_consistent():
    M = biased_sigmoid_sum([F(1, 2), F(-1, 3), 2])
    assert ball_compare(M, fuse(M).to_head(), digits=50, samples=6).verdict == "consistent"
    V = random_multihead(3, 3, 2, seed=5, value_dim=3, biases=True)
    h = fuse(V).to_head()
    assert h.value_dim == 3
    assert ball_compare(V, h, digits=50, samples=6).verdict == "consistent"
    # a change in the last value component alone is caught
    atoms = list(h.atoms)
    a = atoms[0]
    atoms[0] = Atom(a.key, a.value[:2] + (a.value[2] + F(1, 10**30),), a.bias, a.weight)
    r = ball_compare(V, Head(tuple(atoms)), digits=50, samples=6)
    assert r.verdict == "refuted" and r.refutation.component == 2


def test_quick_check_agrees_and_is_fast_and_refutes():
    M = sigmoid_sum(4)
    h = fuse(M).to_head()
    r = quick_ball_check(M, h)
    assert r.verdict == "consistent" and r.digits == 30 and r.checked == 4
    assert quick_ball_check(M, perturb(h, 3, F(1, 10**20))).verdict == "refuted"


def test_a_multihead_may_be_compared_with_a_multihead():
    M = sigmoid_sum(2)
    assert ball_compare(M, MultiHead(tuple(reversed(M.heads))), samples=3).verdict == "consistent"


# ---- near ties and undecided -----------------------------------------------------------

def _near_tie(eps: F) -> Head:
    """Two atoms at magnitude 1e4 whose logits differ by ``eps`` at q = 1: value tanh(-eps/2)."""
    return Head((Atom((F(10000),), (1,)), Atom((F(10000) + eps,), (-1,))))


ZERO = Head((Atom((F(0),), (0,)),))


def test_near_tie_in_logits_is_decided_with_the_right_sign():
    q = [(F(1),)]
    res = ball_compare(_near_tie(F(1, 10**30)), ZERO, queries=q, digits=50)
    assert res.verdict == "refuted" and res.refutation.sign == -1
    res = ball_compare(_near_tie(F(-1, 10**30)), ZERO, queries=q, digits=50)
    assert res.verdict == "refuted" and res.refutation.sign == 1


def test_near_tie_sign_is_reported_undecided_below_its_precision():
    t = HeadTable.of(_near_tie(F(1, 10**30)))

    def value():
        return t.balls((F(1),))[0]

    assert ball_sign(value, digits=50) == -1
    assert ball_sign(value, digits=10, max_digits=20) is None   # undecided, not guessed


def test_cancelling_values_give_undecided_until_precision_suffices():
    big = 10**60
    M = MultiHead((Head((Atom((1,), (big,)), Atom((0,), (0,)))),
                   Head((Atom((1,), (-big,)), Atom((0,), (0,))))))
    low = ball_compare(M, ZERO, digits=20, max_digits=20, samples=3)
    assert low.verdict == "undecided" and low.undecided == (0, 1, 2)
    assert "undecided" in low.summary()
    high = ball_compare(M, ZERO, digits=20, max_digits=120, samples=3)
    assert high.verdict == "consistent" and high.max_bits > low.max_bits


def test_large_magnitudes_do_not_overflow():
    # logits +-1e4 at q = +-1: the small output e^{-20000}/(1 + e^{-20000}) keeps full relative accuracy
    h = Head((Atom((F(10000),), (0,)), Atom((F(-10000),), (1,))))
    (v,), = evaluate_balls(h, [(F(1),)], digits=30)
    (w,), = evaluate_balls(h, [(F(-1),)], digits=30)
    with arb_precision(200):
        tiny = flint.arb(-20000).exp()
        expected = tiny / (1 + tiny)
        assert v.overlaps(expected) and v > 0
        assert v.rad() < expected * arb_of(F(1, 10**29))
        assert w.overlaps(1 / (1 + tiny)) and w.rad() < arb_of(F(1, 10**29))


# ---- precision isolation --------------------------------------------------------------

def test_global_mpmath_precision_changes_no_output():
    M = biased_sigmoid_sum([F(1, 3), -1])
    h = fuse(M).to_head()
    qs = random_queries(2, 3, seed=9)
    old = mpmath.mp.dps
    outs = []
    try:
        for dps in (5, 15, 300):
            mpmath.mp.dps = dps
            outs.append((ball_compare(M, h, samples=3).to_dict(),
                         [str(v) for row in evaluate_mpmath(M, qs, 40) for v in row],
                         [v.str(40) for row in evaluate_balls(M, qs, 40) for v in row]))
            assert mpmath.mp.dps == dps
    finally:
        mpmath.mp.dps = old
    assert outs[0] == outs[1] == outs[2]


def test_global_arb_precision_changes_no_output():
    M = biased_sigmoid_sum([F(1, 3), -1])
    bad = perturb(fuse(M).to_head(), 1, F(1, 10**40))
    qs = random_queries(2, 2, seed=4)
    before = flint.ctx.prec
    outs = []
    try:
        for prec in (10, 53, 3000):
            flint.ctx.prec = prec
            outs.append((ball_compare(M, bad, samples=3).to_dict(),
                         [v.str(40) for row in evaluate_balls(M, qs, 40) for v in row]))
            assert flint.ctx.prec == prec
    finally:
        flint.ctx.prec = before
    assert outs[0] == outs[1] == outs[2]


def test_arb_precision_is_restored_even_after_errors():
    before = flint.ctx.prec
    with pytest.raises(InputError):
        ball_compare(sigmoid_sum(2), sigmoid_sum(3).heads[0])
    with pytest.raises(NumericError):
        with arb_precision(100):
            raise NumericError("boom")
    ball_compare(sigmoid_sum(2), fuse(sigmoid_sum(2)).to_head(), samples=2)
    assert flint.ctx.prec == before


# ---- input errors -----------------------------------------------------------------------

def test_shape_and_option_errors_are_input_errors():
    M = sigmoid_sum(2)
    with pytest.raises(InputError, match="dimension"):
        ball_compare(M, sigmoid_sum(3).heads[0])
    vec = Head((Atom((0, 0), (1, 2)),))
    with pytest.raises(InputError, match="value components"):
        ball_compare(M, vec)
    with pytest.raises(InputError, match="query #0"):
        ball_compare(M, fuse(M).to_head(), queries=[(F(1),)])
    with pytest.raises(InputError, match="max-digits"):
        ball_compare(M, fuse(M).to_head(), digits=30, max_digits=10)


# ---- mpmath agrees with the balls ------------------------------------------------------

def test_mpmath_values_lie_in_the_balls():
    M = random_multihead(2, 4, 3, seed=11, value_dim=2, biases=True)
    qs = random_queries(3, 4, seed=2)
    for brow, mrow in zip(evaluate_balls(M, qs, 60), evaluate_mpmath(M, qs, 80)):
        for b, m in zip(brow, mrow):
            with arb_precision(400):
                x = arb_of(mpf_to_fraction(m))             # mpmath's value, exactly
                assert abs(b - x) < arb_of(F(1, 10**55))


def test_cross_check_catches_a_disagreement(monkeypatch):
    from attnproof.numeric import compare, cross_check

    M = random_multihead(2, 3, 2, seed=1, value_dim=2, biases=True)
    qs = random_queries(2, 3, seed=0)
    assert cross_check(M, qs, digits=40) == 3
    real = compare.evaluate_mpmath

    def skewed(obj, queries, digits):
        rows = real(obj, queries, digits)
        return [tuple(v + v / 10**20 for v in row) for row in rows]     # 20 digits only

    monkeypatch.setattr(compare, "evaluate_mpmath", skewed)
    with pytest.raises(NumericError, match="disagree"):
        cross_check(M, qs, digits=40)
