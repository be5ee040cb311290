"""The line query's ``contraction`` option (THEORY Lemma 13.2): every support of a positive
multiple of ``Q_G`` meets at least ``m'(G/e)`` lines of each edge direction ``g_e``.

Soundness is the property under test: the support of ``Q_G`` itself (a fusion with ``F(G)``
atoms) must stay satisfiable with the constraint, and the constraint must be live (one
more line demanded than ``Q_G`` has, on K_3, refutes it).
"""

from __future__ import annotations

import networkx as nx
import pytest

from attnproof.algebra.expfrac import poly_to_dict
from attnproof.bounds.graph_sums import contract, forests, graph_of_heads, minor_bound
from attnproof.families import graph_sum
from attnproof.fusion import reduced_form
from attnproof.smt import lines as L

z3 = pytest.importorskip("z3")

GRAPHS = {
    "K_3": nx.complete_graph(3),
    "C_4": nx.cycle_graph(4),
    "paw": nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]),
}


def _q_support(g):
    """The encoding of ``k = F(G)`` points and ``Q_G``'s support in its slots: basis
    coordinates relative to the least point, in lexicographic order, with ``Q_G``'s
    coefficients as weights."""
    M = graph_sum(g)
    r = reduced_form(M)
    lf = L.line_factors(r)
    q = poly_to_dict(r.Q)
    frame = L.line_frame(lf.directions)
    base = min(q)
    coords = sorted((frame.coordinates(tuple(a - b for a, b in zip(e, base))), c)
                    for e, c in q.items())
    least = coords[0][0]
    coords = [(tuple(a - b for a, b in zip(p, least)), c) for p, c in coords]
    return M, lf, frame, coords


def _pinned(enc, coords) -> str:
    """The encoding's text with every slot and weight fixed to ``coords``."""
    pins = []
    for i, (p, c) in enumerate(coords):
        pins += [f"(assert (= {v} {x}))" for v, x in zip(enc.cvars[i], p) if v != "0"]
        pins.append(f"(assert (= {enc.dvars[i]} {c}))")
        assert i or not any(p)                       # slot 0 is the least point, the origin
    return enc.smtlib.replace("(check-sat)\n", "\n".join(pins) + "\n(check-sat)\n")


def _z3(text: str) -> str:
    s = z3.Solver()
    s.set("timeout", 60000)
    s.from_string(text)
    return str(s.check())


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_the_support_of_q_g_meets_the_contraction_bounds(name):
    M, lf, frame, coords = _q_support(GRAPHS[name])
    G = graph_of_heads(M)
    assert len(coords) == forests(G)
    bounds = L.contraction_bounds(lf.factors)
    assert all(b is not None for b in bounds)
    for m, (b, U) in enumerate(zip(bounds, frame.unimodular)):
        lines = {tuple(sum(a * x for a, x in zip(row, p)) for row in U[1:]) for p, _ in coords}
        assert len(lines) >= b, (m, len(lines), b)
    # the bound of each edge is the minor bound of that contraction, in this graph's labels
    edges = [L._edge_of(g) for g in lf.directions]
    assert list(bounds) == [minor_bound(contract(G, [e]))[0] for e in edges]


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_the_query_with_contraction_keeps_q_g_satisfiable(name):
    _, lf, _, coords = _q_support(GRAPHS[name])
    enc = L.encode_lines(lf.factors, len(coords), L.LINE_OPTIONS)
    assert "contraction" in enc.options and enc.stats["contraction_bounds"] == len(lf.factors)
    assert "; contraction bounds (THEORY Lemma 13.2)" in enc.smtlib
    assert _z3(_pinned(enc, coords)) == "sat"


def test_the_constraint_is_live_on_k3(monkeypatch):
    # Q_{K_3} meets exactly 3 = m'(K_3/e) lines of each direction: demanding 4 refutes it
    _, lf, _, coords = _q_support(GRAPHS["K_3"])
    assert L.contraction_bounds(lf.factors) == (3, 3, 3)
    plain = L.encode_lines(lf.factors, len(coords), L.LEGACY_LINE_OPTIONS)
    assert _z3(_pinned(plain, coords)) == "sat"
    monkeypatch.setattr(L, "contraction_bounds", lambda facs: (4, None, None))
    enc = L.encode_lines(lf.factors, len(coords), L.LINE_OPTIONS)
    assert _z3(_pinned(enc, coords)) == "unsat"


def test_bounds_need_an_edge_and_a_contraction_larger_than_a_point():
    from fractions import Fraction

    # a single edge: G/e is a point (bound 1, no demand); 1 + 2·x^g and 1 + x_0 x_1: no edge
    assert L.contraction_bounds([(1, -1)]) == (None,)
    assert L.contraction_bounds([L.LineFactor((1, -1), Fraction(2)), (1, 1)]) == (None, None)
    # a doubled edge next to a single one: contracting the single one leaves the double (3)
    assert L.contraction_bounds([L.LineFactor((1, -1, 0), multiplicity=2), (0, 1, -1)]) == (2, 3)


def test_contraction_alone_decides_k3():
    from attnproof.smt.line_query import line_query

    M = graph_sum(GRAPHS["K_3"])
    assert line_query(M, 6, timeout=120, options=("order", "contraction")).result == "unsat"
    res = line_query(M, 7, timeout=120, options=("order", "contraction"), complete=False)
    assert res.result == "sat"
