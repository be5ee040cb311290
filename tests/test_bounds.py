"""Must-show lower and upper bounds, each certified and re-checked (issue 3)."""

from __future__ import annotations

from fractions import Fraction

import networkx as nx
import pytest
from hypothesis import given, settings, strategies as st

from attnproof.bounds import lower_bound
from attnproof.bounds.newton import newton_vertices
from attnproof.certificate import build_certificate
from attnproof.checker import check_text
from attnproof.families import biased_sigmoid_sum, graph_sum, named_graph, random_multihead, sigmoid_sum
from attnproof.fusion import fuse, reduced_form
from attnproof.heads import Atom, Head, MultiHead


def proved(M, **kw):
    """Build a certificate, check it independently, return (lower, upper, minimum, trust, cert)."""
    c = build_certificate(M, **kw)
    v = check_text(c.text)
    assert v.code == 0, v.message
    return v.lower_bound, v.upper_bound, v.minimum, v.trust, c


@pytest.mark.parametrize("d", range(1, 11))
def test_sigmoid_sum_explicit_vertex_lists(d):
    lo, up, mn, trust, c = proved(sigmoid_sum(d), explicit=True)
    assert (lo, up, mn, trust) == (2 ** d, 2 ** d, 2 ** d, "exact")
    nb = [s for s in c.doc["steps"] if s["rule"] == "newton_blocks"][0]
    assert len(nb["blocks"]) == 1 and len(nb["blocks"][0]["vertices"]) == 2 ** d


@pytest.mark.slow
@pytest.mark.parametrize("d", [11, 12])
def test_sigmoid_sum_explicit_vertex_lists_large(d):
    lo, up, mn, trust, _ = proved(sigmoid_sum(d), explicit=True)
    assert (lo, up, mn, trust) == (2 ** d, 2 ** d, 2 ** d, "exact")


@pytest.mark.parametrize("d", [13, 30, 200])
def test_sigmoid_sum_structural(d):
    lo, up, mn, trust, c = proved(sigmoid_sum(d))
    assert (lo, up, mn, trust) == (2 ** d, 2 ** d, 2 ** d, "exact")
    assert [s["rule"] for s in c.doc["steps"]][-1] == "product_fusion"
    assert c.doc["claims"]["lower_bound"] == (2 ** d if d < 53 else str(2 ** d))


@pytest.mark.slow
def test_sigmoid_sum_1000_structural():
    lo, up, mn, trust, c = proved(sigmoid_sum(1000))
    assert lo == up == mn == 2 ** 1000 and trust == "exact"
    steps_bytes = len(c.text) - len(str(c.doc["problem"]))
    assert steps_bytes < 200_000


@pytest.mark.parametrize("graph, n, lower, upper", [
    ("path", 4, 8, 8), ("star", 5, 16, 16),          # trees: tight, 2^|E|
    ("cycle", 4, 14, 15), ("cycle", 5, 30, 31), ("cycle", 6, 62, 63),
    ("complete", 3, 6, 7), ("complete", 4, 24, 38),
])
def test_graph_sums(graph, n, lower, upper):
    G = named_graph(graph, n)
    lo, up, mn, trust, _ = proved(graph_sum(G))
    assert (lo, up) == (lower, upper) and trust == "exact"
    assert mn == (lower if lower == upper else None)
    # lower bound = acyclic orientations = |chi_G(-1)|
    import sympy
    chi = nx.chromatic_polynomial(G)
    assert lo == abs(int(chi.subs(sympy.Symbol("x"), -1)))


def test_graph_sum_explicit_agrees_with_count():
    G = named_graph("complete", 4)
    assert lower_bound(graph_sum(G), explicit=True).value == lower_bound(graph_sum(G)).value == 24


def test_generic_decimal_keys():
    F = Fraction
    h1 = Head((Atom((F("0.3"), F("0.7")), (1,)), Atom((F("1.1"), F("-0.2")), (2,)), Atom((0, 0), (0,))))
    h2 = Head((Atom((F("0.5"), F("0.2")), (1,)), Atom((F("-1.3"), F("0.9")), (F(1, 3),)),
               Atom((0, 0), (0,))))
    lo, up, _, trust, c = proved(MultiHead((h1, h2)))
    assert trust == "exact" and lo == 6 and up == 9
    assert {s["witness"]["kind"] for s in c.doc["steps"] if s["rule"] == "irreducible_factor"} == {"simplex"}


def test_biased_heads_bound_over_x_only():
    M = biased_sigmoid_sum([Fraction(1, 2), 0, Fraction(-1, 3)])
    lo, up, mn, trust, _ = proved(M)
    assert lo == up == mn == 8 and trust == "exact"
    # two biased atoms sharing a key count as one atom
    h = Head((Atom((1,), (1,), bias=Fraction(1, 2)), Atom((1,), (2,)), Atom((0,), (0,))))
    lo, up, _, _, _ = proved(MultiHead((h,)))
    assert lo <= up == 2


def test_sum_that_cancels():
    s = Head((Atom((1,), (1,)), Atom((0,), (0,))))
    t = Head((Atom((1,), (0,)), Atom((0,), (1,))))
    lo, up, mn, trust, _ = proved(MultiHead((s, t)))
    assert (lo, up, mn, trust) == (1, 1, 1, "exact")


def test_reduced_denominator_with_negative_coefficients():
    # sigma(3q) + (1 - sigma(q))/3: the factor 1 + x of 1 + x^3 cancels, Q ~ 1 - x + x^2
    h1 = Head((Atom((3,), (1,)), Atom((0,), (0,))))
    h2 = Head((Atom((1,), (0,)), Atom((0,), (Fraction(1, 3),))))
    M = MultiHead((h1, h2))
    r = reduced_form(M)
    assert min(int(c) for c in r.Q.coeffs()) < 0
    lo, up, mn, trust, c = proved(M)
    assert lo == len(newton_vertices(sorted(r.support_x()))[0]) == 2
    assert up == fuse(M).atoms == 4 and mn is None      # honest: the bounds differ
    assert trust == "exact-modulo-flint" and c.lower.path == "c3"


def test_flint_path_lowers_trust():
    a = Head((Atom((3,), (1,)), Atom((0,), (0,))))
    b = Head((Atom((1,), (Fraction(1, 3),)), Atom((0,), (0,))))
    lo, up, _, trust, c = proved(MultiHead((a, b)))
    assert (lo, up, trust) == (2, 4, "exact-modulo-flint")
    assert check_text(c.text, strict=True).code == 2


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.integers(0, 10 ** 6),
       st.booleans(), st.sampled_from([1, 2]))
def test_lower_bound_never_exceeds_an_exact_fusion(heads, atoms, dim, seed, biases, m):
    M = random_multihead(heads, atoms, dim, seed=seed, biases=biases, value_dim=m)
    c = build_certificate(M)
    v = check_text(c.text)
    assert v.code == 0, v.message
    f = fuse(M)                                 # an exact fusion, verified exactly by the checker
    one = build_certificate(M).doc
    assert v.lower_bound <= f.atoms and v.lower_bound <= v.upper_bound
    assert (v.lower_bound, v.upper_bound) == (c.lower.value, c.upper)   # producer and checker agree
    assert one == c.doc


@pytest.mark.slow
def test_petersen_acyclic_orientations_against_chromatic_polynomial():
    import sympy
    G = nx.petersen_graph()
    lo, up, _, trust, _ = proved(graph_sum(G))
    assert lo == abs(int(nx.chromatic_polynomial(G).subs(sympy.Symbol("x"), -1))) == 16680
    assert up >= lo and trust == "exact"


def test_k5_lower_bound():
    lo, up, mn, trust, _ = proved(graph_sum(named_graph("complete", 5)))
    assert (lo, up, mn, trust) == (120, 291, None, "exact")
