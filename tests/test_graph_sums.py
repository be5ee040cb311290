"""Graph sums (THEORY §13, docs/theory.md §9): the Tutte evaluations, the minor bounds, and
the checker's ``graph_minors`` rule (docs/certificates.md §6.15).

* the two counts against brute force over edge subsets and orientations;
* the checker's value of every producer term equals the producer's (differential);
* soundness: no bound exceeds the support of ``Q_H`` itself (the forests) or of any
  positive multiple ``Q_H·M`` (hypothesis), and no support smaller than the bound
  passes the exact line conditions inside a window (exhaustive, exact LP on tiny graphs);
* kill tests: each lemma where it does not apply, each arithmetic step pinned.
"""

from __future__ import annotations

import copy
import itertools
import json
from fractions import Fraction

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attnproof import graph_sum
from attnproof.bounds.graph_sums import (acyclic_orientations, contract, forests, graph_of_heads,
                                         minor_bound, minor_bound_within)
from attnproof.bounds.zonotope import acyclic_orientations_brute
from attnproof.certificate import build_certificate
from attnproof.checker import check_text
from attnproof.checker.rules import graph_sums as rule
from attnproof.checker.syntax import UNLIMITED, Reject, Unsupported
from attnproof.families import named_graph, sigmoid_sum
from attnproof.io import canonical_json

ATLAS = [g for g in nx.graph_atlas_g() if 3 <= len(g) <= 5 and nx.is_connected(g)]
SMALL = [g for g in nx.graph_atlas_g() if 2 <= len(g) <= 6 and nx.is_connected(g)]


def _mg(g) -> dict:
    return {tuple(sorted(e)): 1 for e in g.edges()}


def _forests_brute(G: dict) -> int:
    edges = [p for p, m in G.items() for _ in range(m)]
    count = 0
    for r in range(len(edges) + 1):
        for sub in itertools.combinations(edges, r):
            parent: dict = {}

            def find(x):
                while parent.get(x, x) != x:
                    x = parent[x]
                return x
            ok = True
            for u, v in sub:
                ru, rv = find(u), find(v)
                if ru == rv:
                    ok = False
                    break
                parent[ru] = rv
            count += ok
    return count


def _ao_brute(G: dict) -> int:
    nodes = sorted({v for p in G for v in p})
    ix = {v: i for i, v in enumerate(nodes)}
    return acyclic_orientations_brute(len(nodes), [(ix[u], ix[v]) for u, v in G])


multigraphs = st.dictionaries(
    st.tuples(st.integers(0, 4), st.integers(0, 4)).filter(lambda p: p[0] < p[1]),
    st.integers(1, 3), min_size=1, max_size=7)


def test_the_29_graphs_and_their_counts():
    assert len(ATLAS) == 29
    for g in ATLAS:
        G = _mg(g)
        assert forests(G) == _forests_brute(G)
        assert acyclic_orientations(G) == _ao_brute(G)


@settings(max_examples=60, deadline=None)
@given(multigraphs)
def test_counts_of_multigraphs_match_brute_force(G):
    assert forests(G) == _forests_brute(G)
    assert acyclic_orientations(G) == _ao_brute({p: 1 for p in G})


def test_named_values():
    # THEORY §13: cycles 2^n - 1 and the cacti; K_4 above the Newton bound; K_5
    for n in range(3, 9):
        C = _mg(nx.cycle_graph(n))
        assert minor_bound(C)[0] == forests(C) == 2 ** n - 1
    assert minor_bound(_mg(nx.complete_graph(4)))[0] == 28
    assert minor_bound(_mg(nx.complete_graph(5)))[0] == 140
    bowtie = {(0, 1): 1, (0, 2): 1, (1, 2): 1, (0, 3): 1, (0, 4): 1, (3, 4): 1}
    assert minor_bound(bowtie)[0] == forests(bowtie) == 49
    assert minor_bound({(0, 1): 3})[0] == 4           # Descartes


def _is_cactus(g) -> bool:
    for blk in nx.biconnected_component_edges(g):
        B = nx.Graph(list(blk))
        if B.number_of_edges() > 1 and not (B.number_of_edges() == B.number_of_nodes()
                                            and all(d == 2 for _, d in B.degree())):
            return False
    return True


def test_cacti_are_exact_and_nothing_exceeds_the_forests():
    """Sound on every connected graph up to 6 nodes (no bound above the fusion Q); exact
    on all trees, cycles and graphs whose blocks are cycles or edges."""
    for g in SMALL:
        G = _mg(g)
        v, term = minor_bound(G)
        F = forests(G)
        assert acyclic_orientations(G) <= v <= F, (sorted(G), v, F)
        if _is_cactus(g):
            assert v == F, sorted(G)
        assert rule.bound(G, json.loads(json.dumps(term)), UNLIMITED, "t") == v


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(multigraphs)
def test_checker_agrees_with_the_producer_and_bounds_stay_below_the_forests(G):
    v, term = minor_bound(G)
    assert rule.bound(G, term, UNLIMITED, "t") == v
    assert acyclic_orientations(G) <= v <= forests(G)


# ---- soundness against positive multiples: |supp(Q_H · M)| >= the bound

def _mul(a: dict, b: dict) -> dict:
    out: dict = {}
    for s, x in a.items():
        for t, y in b.items():
            k = tuple(i + j for i, j in zip(s, t))
            out[k] = out.get(k, 0) + x * y
    return {k: v for k, v in out.items() if v}


def _q(G: dict, n: int) -> dict:
    Q = {(0,) * n: 1}
    for (u, v), m in G.items():
        g = [0] * n
        g[u] += 1
        g[v] -= 1
        for _ in range(m):
            Q = _mul(Q, {(0,) * n: 1, tuple(g): 1})
    return Q


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(multigraphs.filter(lambda G: sum(G.values()) <= 6),
       st.dictionaries(st.tuples(*[st.integers(-2, 2)] * 5), st.integers(1, 5),
                       min_size=1, max_size=4))
def test_no_positive_multiple_is_smaller_than_the_bound(G, M):
    D = _mul(_q(G, 5), M)
    assert all(c > 0 for c in D.values())
    assert len(D) >= minor_bound(G)[0]


# ---- soundness in a window: no smaller support passes the exact line conditions

def _line_feasible(S: list, G: dict) -> bool:
    """Positive weights on the points ``S`` with ``(1 + x^g)^m | D`` for every class:
    ``Σ_t t^j (−1)^t d_{s+tg} = 0`` on every line, ``j < m`` (exact, Lemma 12.3); an LP."""
    from scipy.optimize import linprog

    rows = []
    for (u, v), m in G.items():
        g = [0] * len(S[0])
        g[u] += 1
        if v < len(g):
            g[v] -= 1
        lines: dict = {}
        for i, s in enumerate(S):
            t = s[u]                                 # g has entry 1 at u: offset along g
            base = tuple(a - t * b for a, b in zip(s, g))
            lines.setdefault(base, []).append((i, t))
        for pts in lines.values():
            for j in range(m):
                row = [0.0] * len(S)
                for i, t in pts:
                    row[i] = float(t ** j * (-1) ** t)
                rows.append(row)
    res = linprog([0.0] * len(S), A_eq=rows or None, b_eq=[0.0] * len(rows) or None,
                  bounds=[(1, None)] * len(S), method="highs")
    return res.status == 0


@pytest.mark.parametrize("G,box", [
    ({(0, 1): 1, (0, 2): 1, (1, 2): 1}, 3),        # K_3 (ground 2): 7
    ({(0, 1): 2, (0, 2): 1}, 3),                   # a double edge and an edge: 3 · 2
    ({(0, 1): 2, (0, 2): 1, (1, 2): 1}, 3),        # a triangle with a doubled side
])
def test_no_smaller_support_in_a_window(G, box):
    """Every set of fewer points than the bound in the box ``{0..box-1}^2`` fails the exact
    conditions (the ground is node 2: the lattice is ``Z^2``)."""
    v = minor_bound(G)[0]
    pts = list(itertools.product(range(box), repeat=2))
    for k in range(1, v):
        for S in itertools.combinations(pts, k):
            assert not _line_feasible(list(S), G), (G, S)
    assert v <= forests(G)


# ---- the rule in certificates

def _cert(M, **kw) -> dict:
    return copy.deepcopy(build_certificate(M, minors=True, **kw).doc)


def _check(doc) -> object:
    return check_text(canonical_json(doc))


def _proof(doc) -> dict:
    return next(s for s in doc["steps"] if s["rule"] == "graph_minors")


def test_c5_c6_exact_and_k4_above_newton():
    for n, want in ((5, 31), (6, 63)):
        v = _check(_cert(graph_sum(named_graph("cycle", n))))
        assert (v.code, v.minimum, v.trust) == (0, want, "exact")
    v = _check(_cert(graph_sum(named_graph("complete", 4))))
    assert (v.code, v.lower_bound, v.upper_bound) == (0, 28, 38)


def test_cycles_by_odd_contraction_alone():
    for n in (3, 4, 5, 6):
        doc = _cert(graph_sum(named_graph("cycle", n)))
        G = graph_of_heads(graph_sum(named_graph("cycle", n)))
        _proof(doc)["proof"] = minor_bound(G, frozenset({"odd"}))[1]
        assert "cycle" not in json.dumps(_proof(doc))
        v = _check(doc)
        assert (v.code, v.minimum) == (0, 2 ** n - 1)


def test_ground_edges_of_a_sigmoid_sum():
    # W_2: factors 1 + x_0, 1 + x_1, a path through the ground node 2
    doc = _cert(sigmoid_sum(2))
    assert not any(s["rule"] == "graph_minors" for s in doc["steps"])     # nothing to raise
    doc["steps"].append({"rule": "graph_minors", "proof": {
        "by": "odd", "edges": [[0, 2], [1, 2]], "first": {"by": "parallel"},
        "second": {"by": "parallel"}}})
    v = _check(doc)
    assert (v.code, v.lower_bound) == (0, 4)            # b = 2 is even: 2b, not 2b + 1


B = UNLIMITED
K4 = _mg(nx.complete_graph(4))
TRI = {(0, 1): 1, (0, 2): 1, (1, 2): 1}
P = {"by": "parallel"}
N = {"by": "newton"}


def NH(H: dict) -> dict:
    """The ``newton`` term of ``H`` with the producer's hint, its blocks and elimination orders."""
    from attnproof.bounds.zonotope import graph_hint
    return {"by": "newton", "graph_blocks": graph_hint(sorted(H))}


def test_lemma_values_are_pinned():
    assert rule.bound(TRI, {"by": "odd", "edges": [[0, 1], [0, 2]], "first": P, "second": P},
                      B, "t") == 7
    # min, not max: one side proven weaker (newton 2 instead of 3) gives 2·2, not 2·3 + 1
    assert rule.bound(TRI, {"by": "odd", "edges": [[0, 1], [0, 2]],
                            "first": NH(rule.contract(TRI, [(0, 1)])), "second": P}, B, "t") == 4
    assert rule.bound(TRI, {"by": "odd", "edges": [[0, 1], [0, 2]],
                            "first": P, "second": NH(rule.contract(TRI, [(0, 2)]))}, B, "t") == 4
    assert rule.bound(K4, {"by": "fiber", "edges": [[0, 1], [0, 2], [1, 2]],
                           "restriction": {"by": "cycle"}, "contraction": P}, B, "t") == 28
    assert rule.bound({(0, 1): 3}, P, B, "t") == 4
    assert rule.bound({(0, 1): 2, (2, 3): 1}, NH({(0, 1): 2, (2, 3): 1}), B, "t") == 4
    assert rule.bound(_mg(nx.cycle_graph(7)), {"by": "cycle"}, B, "t") == 127
    assert rule.contract(K4, [(2, 3)]) == {(0, 1): 1, (0, 2): 2, (1, 2): 2}


@pytest.mark.parametrize("H,term,needle", [
    (K4, {"by": "cycle"}, "simple cycle"),
    ({(0, 1): 1, (1, 2): 1, (0, 2): 1, (3, 4): 1, (4, 5): 1, (3, 5): 1}, {"by": "cycle"},
     "simple cycle"),                                                    # two triangles
    ({(0, 1): 2, (1, 2): 1, (0, 2): 1}, {"by": "cycle"}, "simple cycle"),
    ({(0, 1): 1, (1, 2): 1}, {"by": "cycle"}, "simple cycle"),          # a path
    ({(0, 1): 1, (1, 2): 1, (2, 3): 1, (0, 3): 1, (0, 2): 1}, {"by": "cycle"}, "simple cycle"),
    (TRI, P, "two nodes"),
    ({(0, 1): 1, (1, 2): 1}, P, "two nodes"),
    ({(0, 1): 2, (1, 2): 1}, {"by": "odd", "edges": [[0, 1], [1, 2]], "first": P, "second": P},
     "multiplicity 1"),
    (TRI, {"by": "odd", "edges": [[0, 1]], "first": P, "second": P}, "two distinct"),
    (TRI, {"by": "odd", "edges": [[0, 2], [0, 1]], "first": P, "second": P}, "increasing"),
    (TRI, {"by": "odd", "edges": [[0, 1], [0, 1]], "first": P, "second": P}, "increasing"),
    (TRI, {"by": "fiber", "edges": [[0, 3]], "restriction": P, "contraction": P}, "not an edge"),
    (TRI, {"by": "fiber", "edges": [], "restriction": P, "contraction": P}, "non-empty"),
    (TRI, {"by": "fiber", "edges": [[0, 1]], "restriction": P}, "missing"),
    (TRI, {"by": "newton", "x": 1}, "unknown field"),
    (TRI, {"by": "newton"}, "missing field 'graph_blocks'"),
    (TRI, {"by": "newton", "graph_blocks": [{"edges": [e], "order": e} for e in ([0, 1], [0, 2], [1, 2])]},
     "in a cycle"),                      # three edges meeting pairwise, around a cycle: 8, not 6
    (TRI, {"by": "newton", "graph_blocks": [{"edges": [[0, 1], [0, 2]], "order": [1, 2, 0]}]},
     "in no block"),
    (TRI, {"by": "lemma"}, "unknown lemma"),
    (TRI, [], "object"),
    (TRI, {"by": "fiber", "edges": [[0, True]], "restriction": P, "contraction": P}, "integer"),
])
def test_each_lemma_where_it_does_not_apply(H, term, needle):
    with pytest.raises(Reject, match=needle):
        rule.bound(H, term, B, "t")


def test_nesting_is_bounded():
    t: dict = NH({(0, 1): 1})
    for _ in range(70):
        t = {"by": "fiber", "edges": [[0, 1]], "restriction": t, "contraction": NH({})}
    with pytest.raises(Reject, match="deep"):
        rule.bound({(0, 1): 1}, t, B, "t")


def test_newton_beyond_the_count_is_inconclusive():
    grid = nx.convert_node_labels_to_integers(nx.grid_2d_graph(4, 5))
    with pytest.raises(Unsupported):
        rule.bound(_mg(grid), NH(_mg(grid)), B, "t")


def test_step_preconditions():
    doc = _cert(graph_sum(named_graph("cycle", 4)))
    step = _proof(doc)
    bad = copy.deepcopy(doc)
    _proof(bad)["extra"] = 1
    assert _check(bad).code == 1
    bad = copy.deepcopy(doc)                      # before the upper bound
    bad["steps"].remove(step)
    bad["steps"].insert(len(bad["steps"]) - 1, step)
    assert _check(bad).code == 1
    # a problem without factors x_u + x_v: a sigmoid of 2q (1 + x^2), no graph
    from attnproof.heads import Atom, Head, MultiHead
    M = MultiHead((Head((Atom((2,), (1,)), Atom((0,), (0,)))),))
    d2 = _cert(M)
    d2["steps"].append({"rule": "graph_minors", "proof": N})
    v = _check(d2)
    assert v.code == 1 and "no bound factor" in v.message


def test_biased_problems_are_refused():
    from attnproof.families import biased_sigmoid_sum
    doc = _cert(biased_sigmoid_sum([Fraction(1, 2), 0]))
    doc["steps"].append({"rule": "graph_minors", "proof": N})
    v = _check(doc)
    assert v.code == 1 and "biases" in v.message


def test_prove_default_and_no_minors(tmp_path, capsys):
    from attnproof.cli import main
    p = tmp_path / "c5.json"
    assert main(["family", "graph", "--graph", "cycle", "--n", "5", "-o", str(p)]) == 0
    capsys.readouterr()
    assert main(["prove", str(p), "--json", "--no-lines"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["minimum"], out["trust"]) == (31, "exact")
    assert out["graph"] == {"nodes": 5, "edges": 5, "acyclic_orientations": 30, "forests": 31,
                            "minor_bound": 31}
    assert main(["prove", str(p), "--json", "--no-lines", "--no-minors"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["lower_bound"], out["upper_bound"]) == (30, 31)
    assert main(["bound", str(p), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lower_bound"] == 31 and out["graph"]["forests"] == 31
    assert main(["show", str(p), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["graph"]["acyclic_orientations"] == 30


def test_large_graphs_are_left_to_the_count():
    path = {(i, i + 1): 1 for i in range(100)}
    assert minor_bound_within(path) is None
    assert forests(path) == acyclic_orientations(path) == 2 ** 100
    assert contract({(0, 1): 1}, [(0, 1)]) == {}


class _St:
    """What factor_graph reads of the checker's state."""

    def __init__(self, factors, dim):
        from types import SimpleNamespace
        self.factors, self.pb, self.budget = factors, SimpleNamespace(dim=dim), UNLIMITED


def test_the_graph_is_read_off_the_factors_x_u_plus_x_v_only():
    x0, x1 = ((0, 1),), ((1, 1),)
    assert rule.factor_graph(_St([({x0: 1, x1: 1}, 2), ({(): 1, x1: 1}, 1)], 2), "t") == {
        (0, 1): 2, (1, 2): 1}                    # multiplicity kept; 1 + x_1: the ground 2
    for f in ({x0: 1, x1: 2},                    # c = 2: not a graph edge
              {(): 1, ((0, 1), (1, 1)): 1},      # 1 + x_0 x_1: e_0 + e_1, no edge
              {(): 1, ((0, 2),): 1},             # 1 + x_0^2
              {(): 1, ((0, 1), (1, -2)): 1}):    # e_0 - 2 e_1
        with pytest.raises(Reject, match="no bound factor"):
            rule.factor_graph(_St([(f, 1)], 2), "t")


def test_a_weaker_term_keeps_the_count():
    doc = copy.deepcopy(build_certificate(graph_sum(named_graph("cycle", 4))).doc)
    assert doc["claims"]["lower_bound"] == 14
    doc["steps"].append({"rule": "graph_minors", "proof": {     # 2 · 6 = 12 < 14
        "by": "fiber", "edges": [[0, 1]], "restriction": P,
        "contraction": NH({(0, 2): 1, (0, 3): 1, (2, 3): 1})}})
    v = _check(doc)
    assert (v.code, v.lower_bound) == (0, 14)


# ---- docs/theory.md §9, Instances 9.1 and 9.2: D/(1 + x^{g_e}) need not be positive

@pytest.mark.parametrize("G, e, size", [
    ({(1, 0): 1, (2, 0): 1}, (1, 0), 4),             # the path 1 - 0 - 2: a minimum D
    ({(0, 1): 1, (1, 2): 1, (0, 2): 1}, (0, 1), 8),  # K_3 (m' = 7)
])
def test_the_deletion_quotient_of_a_positive_multiple_need_not_be_positive(G, e, size):
    y = [0, 0, 0]
    y[e[0]] += 1
    y[e[1]] -= 1
    y2 = tuple(2 * c for c in y)
    M = {(0, 0, 0): 1, tuple(y): -1, y2: 1}           # 1 - y + y^2: (1 + y)·M = 1 + y^3
    D = _mul(_q(G, 3), M)
    assert all(c > 0 for c in D.values()) and len(D) == size
    assert len(D) >= minor_bound(G)[0]
    if size == 4:
        assert len(D) == forests(G) == minor_bound(G)[0]   # D attains the minimum
    rest = {k: m for k, m in G.items() if k != e}
    quotient = _mul(_q(rest, 3), M)                    # D/(1 + y) = Q_{G-e}·M, exactly
    assert _mul(quotient, {(0, 0, 0): 1, tuple(y): 1}) == D
    assert min(quotient.values()) < 0


# ---- held out: random connected graphs, the whole certificate checked

@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 5).flatmap(lambda n: st.tuples(
    st.just(n), st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
                        .filter(lambda p: p[0] < p[1]), min_size=n - 1))))
def test_held_out_graphs_certificates_are_accepted_and_below_the_forests(ne):
    n, edges = ne
    g = nx.Graph(sorted(edges))
    if len(g) != n or not nx.is_connected(g):
        return
    M = graph_sum(g)
    v = _check(_cert(M))
    F = forests(graph_of_heads(M))
    assert v.code == 0, v
    assert acyclic_orientations(graph_of_heads(M)) <= v.lower_bound <= v.upper_bound <= F
