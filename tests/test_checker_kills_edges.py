"""Kill tests for the ``edge_roots`` rule (``attnproof/checker/rules/edges.py``).

The rule reads each bound factor's face under a functional, the lattice step of the
edge, each face polynomial (one z-term per coefficient, z-exponents affine along the
edge) and counts negative roots by Sturm sequences with multiplicities.  Each test
below is a small rule call or certificate where one of these checks decides, and a
differential test compares the Sturm count with FLINT's root isolation, NumPy's and
mpmath's roots, and with polynomials built from known roots.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from attnproof.checker import check_text
from attnproof.checker.problem import parse_problem
from attnproof.checker.rules.edges import negative_roots, rule_edge_roots, sturm_count
from attnproof.checker.rules.state import State
from attnproof.checker.syntax import Budget, Reject, Unsupported
from attnproof.heads import Atom, Head, MultiHead


def _state(dim: int, heads: list, lower: int, mults: list | None = None) -> State:
    """A state whose bound factors are the heads' denominators (multiplicities ``mults``)
    after a vertex count ``lower``: what ``edge_roots`` reads."""
    pb = parse_problem({"format": "attnproof-problem", "version": 1, "dim": dim,
                        "heads": heads})
    st = State(pb)
    st.factors = [(D, m) for D, m in zip(pb.den, mults or [1] * len(pb.den))]
    st.lower = lower
    return st


def _head(*atoms):
    """Atoms ``(key, weight, bias)``; values 0, 1, 2, ..."""
    def num(x):
        x = Fraction(x)
        return x.numerator if x.denominator == 1 else str(x)

    out = []
    for v, (k, w, b) in enumerate(atoms):
        a = {"key": list(k), "value": v}
        if Fraction(w) != 1:
            a["weight"] = num(w)
        if Fraction(b) != 0:
            a["bias"] = num(b)
        out.append(a)
    return {"atoms": out}


fractions_ = st_.fractions(min_value=Fraction(1, 9), max_value=9, max_denominator=9)


def _step(functional, roots, lower):
    return {"rule": "edge_roots", "edges": [{"functional": functional, "roots": roots}],
            "lower_bound": lower}


def test_a_cube_of_a_binomial_counts_three_roots():
    st = _state(1, [_head(((0,), 1, 0), ((1,), 3, 0), ((2,), 3, 0), ((3,), 1, 0))], 2)
    rule_edge_roots(st, _step([0], 3, 4), "s")
    assert st.lower == 4 and st.edge_roots


def test_the_step_is_primitive_in_the_difference_lattice():
    # (1 + x^2)^2: in the lattice 2Z the face is (1 + t)^2, two negative roots
    st = _state(1, [_head(((0,), 1, 0), ((2,), 1, 0))], 2, mults=[2])
    rule_edge_roots(st, _step([0], 2, 3), "s")
    assert st.lower == 3
    # with 1 + x among the factors the lattice is Z: 1 + t^2 has no real root, r_e = 1
    st = _state(1, [_head(((0,), 1, 0), ((2,), 1, 0)), _head(((0,), 1, 0), ((1,), 1, 0))], 2)
    with pytest.raises(Reject, match="1 negative roots, not 2"):
        rule_edge_roots(st, _step([0], 2, 3), "s")


def test_positive_roots_are_not_counted():
    # 2 - 3x + x^2 = (1 - x)(2 - x): both roots positive (a factor with signed coefficients)
    pb = parse_problem({"format": "attnproof-problem", "version": 1, "dim": 1,
                        "heads": [_head(((0,), 1, 0), ((1,), 1, 0))]})
    st = State(pb)
    st.factors = [({(): 2, ((0, 1),): -3, ((0, 2),): 1}, 1)]
    st.lower = 2
    with pytest.raises(Reject, match="0 negative roots"):
        rule_edge_roots(st, _step([0], 2, 3), "s")


def test_biases_affine_along_the_edge_are_read_and_others_are_inconclusive():
    affine = _head(((0,), 1, 0), ((1,), 2, "1/2"), ((2,), 1, 1))      # e^{k/2}: (1 + e^{1/2}t)^2
    st = _state(1, [affine], 2)
    rule_edge_roots(st, _step([0], 2, 3), "s")
    bent = _head(((0,), 1, 0), ((1,), 2, "1/3"), ((2,), 1, 1))
    with pytest.raises(Unsupported, match="not affine"):
        rule_edge_roots(_state(1, [bent], 2), _step([0], 2, 3), "s")


def test_order_and_repetition():
    h = _head(((0,), 1, 0), ((1,), 2, 0), ((2,), 1, 0))
    st = _state(1, [h], 2)
    st.lower = None
    with pytest.raises(Reject, match="follows a vertex count"):
        rule_edge_roots(st, _step([0], 2, 3), "s")
    st = _state(1, [h], 2)
    rule_edge_roots(st, _step([0], 2, 3), "s")
    with pytest.raises(Reject, match="second edge_roots"):
        rule_edge_roots(st, _step([0], 2, 4), "s")
    st = _state(1, [h], 2)
    st.indecomposable = {0}
    with pytest.raises(Reject, match="only indecomposable"):
        rule_edge_roots(st, _step([0], 2, 3), "s")
    with pytest.raises(Reject, match="roots"):
        rule_edge_roots(_state(1, [h], 2), _step([0], 1, 2), "s")
    with pytest.raises(Reject, match="non-empty"):
        rule_edge_roots(_state(1, [h], 2), {"rule": "edge_roots", "edges": [],
                                            "lower_bound": 2}, "s")


def test_faces_with_several_z_terms_are_inconclusive():
    # two atoms on one key with different biases: the coefficient 1 + e^{1/2} at x
    h = {"atoms": [{"key": [0], "value": 0}, {"key": [1], "value": 1},
                   {"key": [1], "value": 1, "bias": "1/2"}, {"key": [2], "value": 2}]}
    with pytest.raises(Unsupported, match="several z-terms"):
        rule_edge_roots(_state(1, [h], 2), _step([0], 2, 3), "s")


def test_the_work_is_charged_and_grows_with_the_degree():
    def used(n):
        from math import comb
        h = _head(*[((k,), comb(n, k), 0) for k in range(n + 1)])     # (1 + x)^n
        st = _state(1, [h], 2)
        st.budget = Budget(10 ** 9)
        rule_edge_roots(st, _step([0], n, n + 1), "s")
        return st.budget.used

    assert 0 < used(3) < used(12) < used(40)
    h = _head(*[((k,), 1, 0) for k in range(30)])
    st = _state(1, [h], 2)
    st.budget = Budget(50)
    with pytest.raises(Unsupported):
        rule_edge_roots(st, _step([0], 2, 3), "s")


def test_the_degree_limit_is_inconclusive():
    from attnproof.checker.rules.edges import MAX_EDGE_DEGREE

    h = _head(((0,), 1, 0), ((MAX_EDGE_DEGREE + 1,), 1, 0))
    st = _state(1, [h, _head(((0,), 1, 0), ((1,), 1, 0))], 2)
    with pytest.raises(Unsupported, match="degree"):
        rule_edge_roots(st, _step([0], 2, 3), "s")


def test_a_certificate_with_coinciding_keys_is_accepted_and_its_bound_is_a_bound():
    """Two heads sharing two keys: the Newton count 5 raised to 6 by the shared edge,
    accepted by the checker; without the step the same certificate proves 5."""
    import attnproof

    h = Head((Atom((0, 0), (1,)), Atom((1, 0), (2,)), Atom((0, 1), (0,))))
    g = Head((Atom((0, 0), (0,)), Atom((1, 0), (5,)), Atom((1, 1), (1,))))
    c = attnproof.prove(MultiHead((h, g)))
    assert c.lower_bound == 6 and c.upper_bound >= 6
    v = check_text(c.text)
    assert v.code == 0 and v.lower_bound == 6
    doc = json.loads(c.text)
    assert [s["rule"] for s in doc["steps"]].count("edge_roots") == 1
    doc["steps"] = [s for s in doc["steps"] if s["rule"] != "edge_roots"]
    doc["claims"].update(lower_bound=5, minimum=None)
    assert check_text(json.dumps(doc)).lower_bound == 5


@settings(max_examples=200, deadline=None)
@given(st_.lists(fractions_, min_size=2, max_size=4),
       st_.lists(st_.integers(-3, 3), min_size=1, max_size=5).filter(any))
def test_multiples_with_positive_coefficients_keep_the_edge_points(roots, G):
    """The core of Theorem 10.1 on one edge: ``q(t) = Π (t + a_i)`` times any ``G`` whose
    product has no negative coefficient has at least ``deg q + 1`` terms."""
    D = _expand([[a, 1] for a in roots] + [[Fraction(c) for c in G]])
    if all(c >= 0 for c in D):
        assert sum(1 for c in D if c) >= len(roots) + 1


# -- the Sturm count against independent root finders ---------------------------------------

def _expand(factors) -> list:
    p = [Fraction(1)]
    for f in factors:
        out = [Fraction(0)] * (len(p) + len(f) - 1)
        for i, a in enumerate(p):
            for j, b in enumerate(f):
                out[i + j] += a * b
        p = out
    return p




@settings(max_examples=150, deadline=None)
@given(neg=st_.lists(st_.tuples(fractions_, st_.integers(1, 3)), max_size=3),
       pos=st_.lists(fractions_, max_size=2),
       quad=st_.lists(st_.tuples(st_.integers(-3, 3), st_.integers(1, 4)), max_size=2),
       lead=fractions_)
def test_sturm_counts_known_negative_roots(neg, pos, quad, lead):
    """Polynomials built from their roots: ``(t + a)^m`` (root ``−a``), ``(t − b)``
    (positive), ``t² + βt + γ`` with ``β² < 4γ`` (no real root)."""
    factors = [[a, 1] for a, m in neg for _ in range(m)] + [[-b, 1] for b in pos]
    factors += [[Fraction(b * b, 4) + c, b, 1] for b, c in quad]       # (t + b/2)^2 + c
    p = [lead * x for x in _expand(factors)]
    assert negative_roots(p) == sum(m for _, m in neg)


@settings(max_examples=200, deadline=None)
@given(st_.lists(st_.integers(-12, 12), min_size=2, max_size=9).filter(
    lambda c: c[0] != 0 and c[-1] != 0))
def test_sturm_agrees_with_flint_numpy_and_mpmath(coeffs):
    import flint
    import mpmath

    got = negative_roots(coeffs)
    f = flint.fmpz_poly(coeffs)
    assert got == sum(m for r, m in f.complex_roots() if r.imag.is_zero() and r.real < 0)
    # the floating root finders only where the roots are simple and well apart
    sqf = flint.fmpz_poly.gcd(f, f.derivative()).degree() == 0
    roots = np.roots(coeffs[::-1])
    apart = len(roots) < 2 or min(abs(a - b) for i, a in enumerate(roots)
                                  for b in roots[i + 1:]) > 1e-2
    if sqf and apart:
        assert got == sum(1 for r in roots if abs(r.imag) < 1e-9 and r.real < 0)
        with mpmath.workdps(60):
            mr = mpmath.polyroots(coeffs[::-1], maxsteps=200, extraprec=200)
            assert got == sum(1 for r in mr if abs(mpmath.im(r)) < mpmath.mpf(10) ** -30
                              and mpmath.re(r) < 0)


def test_sturm_count_reports_distinct_roots_and_the_gcd():
    n, g = sturm_count([1, -3, 3, -1])                   # (1 − s)^3: one root, gcd (s − 1)^2
    assert n == 1 and len(g) == 3
    with pytest.raises(ValueError):
        sturm_count([0, 1])
