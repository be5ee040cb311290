"""Float64 kernels: Numba against the NumPy reference, both against balls; a differential test."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attnproof.errors import InputError, NumericError
from attnproof.families import random_multihead
from attnproof.heads import Atom, Head
from attnproof.numeric import (mpf_to_fraction, arb_precision, evaluate_balls, evaluate_kernel, evaluate_mpmath,
                               evaluate_reference, head_arrays, softmax_kernel, softmax_reference)
from attnproof.numeric.balls import arb_of
from attnproof.numeric.kernels import fast_exp, warm_up


@pytest.fixture(scope="module", autouse=True)
def compiled():
    warm_up()   # one small call: JIT (or the on-disk cache) once per test session


def exact_head(K, lb, V) -> Head:
    """The head whose exact data are the binary values of the float arrays (weights 1)."""
    return Head(tuple(Atom(tuple(F(float(x)) for x in k), tuple(F(float(x)) for x in v), bias=F(float(b)))
                      for k, b, v in zip(K, lb, V)))


def ball_values(head: Head, Q: np.ndarray, digits: int = 30) -> np.ndarray:
    qs = [tuple(F(float(x)) for x in row) for row in Q]
    return np.array([[float(b.mid()) for b in row] for row in evaluate_balls(head, qs, digits)])


def random_arrays(rng, n, m, d, mv, kscale=0.5, positive=False):
    K = rng.standard_normal((n, d)) * kscale
    lb = rng.standard_normal(n) * 0.3
    V = rng.uniform(0.5, 1.5, (n, mv)) if positive else rng.uniform(-1, 1, (n, mv))
    Q = rng.standard_normal((m, d))
    return K, lb, V, Q


@pytest.mark.parametrize("n,m,d,mv", [(1, 1, 1, 1), (63, 65, 3, 1), (200, 130, 5, 2), (3001, 77, 4, 3)])
def test_kernel_matches_reference(n, m, d, mv):
    rng = np.random.default_rng(n + m)
    K, lb, V, Q = random_arrays(rng, n, m, d, mv)
    a = softmax_kernel(K, lb, V, Q)
    b = softmax_reference(K, lb, V, Q, block=50)      # several blocks: the online rescaling runs
    c = softmax_reference(K, lb, V, Q, block=10**6)   # one block
    assert a.shape == (m, mv)
    assert np.max(np.abs(a - b)) <= 1e-13
    assert np.max(np.abs(b - c)) <= 1e-13


def test_threads_give_identical_results_and_bad_arrays_are_refused():
    rng = np.random.default_rng(3)
    K, lb, V, Q = random_arrays(rng, 500, 300, 3, 2)
    one = softmax_kernel(K, lb, V, Q, threads=1)
    assert np.array_equal(one, softmax_kernel(K, lb, V, Q, threads=2))
    assert np.array_equal(one, softmax_kernel(K, lb, V, Q, threads=7))
    K[3, 1] = np.inf
    for fn in (softmax_kernel, softmax_reference):
        with pytest.raises(InputError, match="K contains"):
            fn(K, lb, V, Q)
    with pytest.raises(InputError, match="shape"):
        softmax_kernel(K[:, :2], lb, V, Q)


def test_kernel_against_balls_relative_error():
    rng = np.random.default_rng(7)
    K, lb, V, Q = random_arrays(rng, 2000, 70, 6, 1, positive=True)
    exact = ball_values(exact_head(K, lb, V), Q[:6])
    for fn in (softmax_kernel, softmax_reference):
        got = fn(K, lb, V, Q)[:6]
        rel = np.max(np.abs(got - exact) / np.abs(exact))
        assert rel <= 1e-13, (fn.__name__, rel)


def test_large_logits_do_not_overflow_and_ties_are_exact():
    # keys of size 1e4 against unit queries: logits near +-1e4
    K = np.array([[1e4], [-1e4], [1e4]])
    lb = np.zeros(3)
    V = np.array([[1.0], [5.0], [3.0]])
    Q = np.array([[1.0], [-1.0], [0.0]])
    for fn in (softmax_kernel, softmax_reference):
        out = fn(K, lb, V, Q)
        assert np.all(np.isfinite(out))
        assert out[:, 0].tolist() == [2.0, 5.0, 3.0]


def test_online_rescaling_when_the_maximum_grows_late():
    # increasing logits: every block raises the running maximum
    n = 1000
    K = np.arange(n, dtype=float).reshape(n, 1) / 10
    V = np.ones((n, 1)) * 2
    V[-1] = 7
    Q = np.array([[100.0]])
    out = softmax_kernel(K, np.zeros(n), V, Q)[0, 0]
    ref = ball_values(exact_head(K, np.zeros(n), V), Q)[0, 0]
    assert abs(out - ref) <= 1e-13 * ref


def test_fast_exp_accuracy_and_floor():
    x = np.linspace(-700.0, 0.0, 200001)
    got = fast_exp(x)
    rel = np.abs(got / np.exp(x) - 1)
    assert rel.max() <= 1e-15
    assert fast_exp(np.array([-800.0]))[0] == fast_exp(np.array([-700.0]))[0] > 0
    with pytest.raises(NumericError):
        fast_exp(np.array([0.5]))


def test_evaluate_kernel_sums_heads_and_checks_input():
    M = random_multihead(3, 4, 2, seed=3, value_dim=2, biases=True)
    Q = np.random.default_rng(1).uniform(-2, 2, (9, 2))
    a = evaluate_kernel(M, Q)
    b = evaluate_reference(M, Q)
    exact = ball_values(M, Q)
    assert np.max(np.abs(a - exact)) <= 1e-13 and np.max(np.abs(b - exact)) <= 1e-13
    parts = sum(evaluate_kernel(h, Q) for h in M.heads)
    assert np.max(np.abs(parts - a)) <= 1e-14
    with pytest.raises(InputError, match="shape"):
        evaluate_kernel(M, np.zeros((3, 3)))
    with pytest.raises(InputError, match="NaN"):
        evaluate_kernel(M, np.array([[np.nan, 0.0]]))
    with pytest.raises(InputError, match="kernel"):
        evaluate_kernel(M, Q, method="gpu")


def test_head_arrays_of_weights_and_biases():
    h = Head((Atom((F(1, 2),), (3,), bias=F(1, 4), weight=F(2, 3)),))
    K, lb, V = head_arrays(h)
    assert K.tolist() == [[0.5]] and V.tolist() == [[3.0]]
    assert abs(lb[0] - (0.25 + np.log(2 / 3))) <= 1e-16
    huge = Head((Atom((F(10) ** 400,), (1,)),))
    with pytest.raises(NumericError, match="float64"):
        head_arrays(huge)


# ---- differential: balls vs mpmath vs float kernels at the same exact queries --------------

small_rat = st.fractions(min_value=-3, max_value=3, max_denominator=7)
pos_rat = st.fractions(min_value=F(1, 7), max_value=5, max_denominator=7)


@st.composite
def heads_and_queries(draw):
    d = draw(st.integers(1, 3))
    mv = draw(st.integers(1, 2))
    n = draw(st.integers(1, 6))
    atoms = tuple(Atom(tuple(draw(small_rat) for _ in range(d)), tuple(draw(small_rat) for _ in range(mv)),
                       bias=draw(small_rat), weight=draw(pos_rat)) for _ in range(n))
    qs = draw(st.lists(st.lists(st.floats(-4, 4, allow_nan=False), min_size=d, max_size=d),
                       min_size=1, max_size=4))
    return Head(atoms), np.array(qs, dtype=np.float64)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(heads_and_queries())
def test_differential_balls_mpmath_kernels(case):
    head, Q = case
    qs = [tuple(F(float(x)) for x in row) for row in Q]
    balls = evaluate_balls(head, qs, 40)
    mps = evaluate_mpmath(head, qs, 50)
    scale = 1 + max(abs(v) for a in head.atoms for v in a.value)
    numba_vals = evaluate_kernel(head, Q)
    numpy_vals = evaluate_reference(head, Q)
    with arb_precision(300):
        tol = arb_of(F(1, 10**38)) * arb_of(scale)
        for i, (brow, mrow) in enumerate(zip(balls, mps)):
            for c, (b, m) in enumerate(zip(brow, mrow)):
                assert b.rad() < tol
                x = arb_of(mpf_to_fraction(m))
                assert abs(b - x) < tol                       # mpmath agrees with the ball
                mid = float(b.mid())
                # float kernels: screening accuracy (inputs rounded to float64)
                assert abs(numba_vals[i, c] - mid) <= 1e-12 * scale
                assert abs(numpy_vals[i, c] - mid) <= 1e-12 * scale
