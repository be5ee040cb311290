"""Property-based tests: random small multi-heads, fusions exact, reduced form = SymPy cancel."""

from __future__ import annotations

from fractions import Fraction

import sympy
from hypothesis import HealthCheck, given, settings, strategies as st

from attnproof import Atom, Head, MultiHead, fuse, product_fusion, reduced_form
from attnproof.fusion import verify_head
from attnproof.algebra import Lattice, head_fraction
from attnproof.display.formulas import poly_expr

small_rat = st.fractions(min_value=-4, max_value=4, max_denominator=4)
pos_rat = st.fractions(min_value=Fraction(1, 4), max_value=4, max_denominator=4)


@st.composite
def multiheads(draw, max_dim=2, max_heads=3, max_atoms=3, biases=True):
    d = draw(st.integers(1, max_dim))
    m = draw(st.integers(1, 2))
    use_bias = biases and draw(st.booleans())
    heads = []
    for _ in range(draw(st.integers(1, max_heads))):
        atoms = []
        for _ in range(draw(st.integers(1, max_atoms))):
            key = tuple(draw(st.lists(st.sampled_from([-1, 0, 1, 2, Fraction(1, 2)]),
                                      min_size=d, max_size=d)))
            value = tuple(draw(st.lists(small_rat, min_size=m, max_size=m)))
            bias = draw(st.sampled_from([0, 1, Fraction(-1, 2)])) if use_bias else 0
            atoms.append(Atom(key, value, bias=bias, weight=draw(pos_rat)))
        heads.append(Head(tuple(atoms)))
    return MultiHead(tuple(heads), dim=d)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(multiheads())
def test_product_and_reduced_fusions_are_exact(M):
    pf = product_fusion(M)
    f = fuse(M)
    verify_head(M, pf.to_head(), points=2)
    verify_head(M, f.to_head(), points=2)
    assert f.atoms <= pf.atoms
    assert all(a.weight > 0 for a in f.to_head().atoms)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(multiheads(max_heads=3, max_atoms=3))
def test_reduced_form_agrees_with_sympy_cancel(M):
    lat = Lattice.of(M)
    total = 0
    for h in M.heads:
        f = head_fraction(h, lat)
        total += poly_expr(f.num[0], lat) / poly_expr(f.den, lat)
    num_s, den_s = sympy.fraction(sympy.cancel(sympy.together(total)))
    r = reduced_form(M)
    P, Q = poly_expr(r.P[0], lat), poly_expr(r.Q, lat)
    gens = sympy.symbols(lat.names, positive=True)
    # same function
    assert sympy.expand(P * den_s - num_s * Q) == 0
    # same lowest terms: the denominators differ by a constant (all of P's components
    # share Q, so for vector values SymPy's denominator of component 0 divides Q)
    if M.value_dim == 1:
        ratio = sympy.cancel(den_s / Q)
        assert ratio.free_symbols.isdisjoint(gens), ratio
    else:
        assert sympy.rem(sympy.Poly(Q, *gens), sympy.Poly(den_s, *gens)).is_zero
