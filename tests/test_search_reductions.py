"""Soundness of the level-parity clauses (THEORY Lemma 11.1), the two-solver runner and the bisection."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from attnproof.algebra.expfrac import poly_context, poly_to_dict
from attnproof.families import graph_sum, named_graph, sigmoid_sum
from attnproof.fusion import reduced_form
from attnproof.heads import Atom, Head, MultiHead
from attnproof.smt import SearchOptions, build_query, search_fusion
from attnproof.smt import query as query_module
from attnproof.smt.encoding import _parity
from attnproof.smt.query import binomial_directions, minimize, next_target
from attnproof.smt.solvers import run_solvers

PLAIN = SearchOptions.straightforward()


def head(*keys, values=None, weights=None):
    values = values or list(range(len(keys)))
    weights = weights or [1] * len(keys)
    return Head(tuple(Atom(k, (v,), weight=Fraction(w)) for k, v, w in zip(keys, values, weights)))


def oriented_graph_sum(n: int, edges: list[tuple[int, int]], order: list[int]) -> MultiHead:
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    return graph_sum(G, nodes=order)


# ---------------------------------------------------------------- which factors count

def test_binomial_directions_of_known_families():
    assert binomial_directions(reduced_form(sigmoid_sum(3))) == ((0, 0, 1), (0, 1, 0), (1, 0, 0))
    k4 = binomial_directions(reduced_form(graph_sum(named_graph("complete", 4))))
    assert len(k4) == 6 and all(sorted(g) == [-1, 0, 0, 1] for g in k4)


@pytest.mark.parametrize("H, expected", [
    (head((0, 0), (1, 1), weights=[1, 3]), ((1, 1),)),          # 1 + 3xy: direction (1, 1)
    (head((0, 0), (2, 0), (0, 1)), ()),                          # an irreducible trinomial
    (head((0, 0), (2, 0)), ()),                                  # 1 + x^2: not primitive
])
def test_binomial_directions_only_primitive_binomials(H, expected):
    r = reduced_form(MultiHead((H,)))
    assert len(poly_to_dict(r.Q)) == len(H.atoms)               # Q is this head's denominator
    assert binomial_directions(r) == expected


# ---------------------------------------------------------------- Lemma 11.1 on true supports

_ASSERT = re.compile(r"^\(assert (.*)\)$")


def _value(term: str, support: set[str]) -> bool:
    if term.startswith("(or "):
        return any(v in support for v in term[4:-1].split())
    return term in support


def _holds(clause: str, support: set[str]) -> bool:
    body = _ASSERT.match(clause).group(1)
    if body.startswith("(not "):
        return body[5:-1] not in support
    assert body.startswith("(= ")
    inner = body[3:-1]
    if inner.startswith("(or "):
        depth, cut = 0, None
        for i, ch in enumerate(inner):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0:
                cut = i + 1
                break
        a, b = inner[:cut], inner[cut + 1:]
    else:
        a, b = inner.split(" ", 1)
    return _value(a, support) == _value(b, support)


def _check_parity(M: MultiHead, G_terms: dict, pad: int = 1) -> int:
    r = reduced_form(M)
    dirs = binomial_directions(r)
    ctx = poly_context(r.lattice)
    low = [min(e[i] for e in G_terms) for i in range(r.lattice.nvars)]
    G = ctx.from_dict({tuple(a - b for a, b in zip(e, low)): c for e, c in G_terms.items()})
    D = poly_to_dict(r.Q * G)
    assert all(c > 0 for c in D.values())
    # targets: every point within `pad` of supp D's bounding box (a superset of supp Q + W)
    import itertools
    box = [range(min(t[i] for t in D) - pad, max(t[i] for t in D) + pad + 1) for i in range(len(low))]
    targets = list(itertools.product(*box))
    names = [f"s_{j}" for j in range(len(targets))]
    support = {n for t, n in zip(targets, names) if t in D}
    _, clauses = _parity(targets, names, dirs)
    assert all(_holds(c, support) for c in clauses)
    return len(clauses)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 3), data=st.data())
def test_parity_clauses_hold_on_every_positive_multiple(n, data):
    """Lemma 11.1: for D = Q·G with positive coefficients, every generated clause is true
    on supp D.  G is random positive, times (1 - y + y^2) for a factor 1 + y of Q (so G
    itself has a negative coefficient while D stays positive)."""
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = data.draw(st.lists(st.sampled_from(pairs), min_size=1, unique=True))
    order = data.draw(st.permutations(list(range(n))))
    M = oriented_graph_sum(n, edges, order)
    r = reduced_form(M)
    d = r.lattice.nvars
    pts = data.draw(st.lists(st.tuples(*[st.integers(0, 1)] * d), min_size=1, max_size=3, unique=True))
    G = {p: data.draw(st.integers(1, 3)) for p in pts}
    dirs = binomial_directions(r)
    if dirs and data.draw(st.booleans()):
        g = data.draw(st.sampled_from(dirs))
        base = [0 if x >= 0 else -x for x in g]        # keep exponents non-negative
        fac = {tuple(base): 1, tuple(b + x for b, x in zip(base, g)): -1,
               tuple(b + 2 * x for b, x in zip(base, g)): 1}
        prod: dict = {}
        for e1, c1 in G.items():
            for e2, c2 in fac.items():
                e = tuple(a + b for a, b in zip(e1, e2))
                prod[e] = prod.get(e, 0) + c1 * c2
        G = {e: c for e, c in prod.items() if c}
        # D = (Q / (1 + y)) · (1 + y^3) · Gpos up to a monomial: positive
    assert _check_parity(M, G) >= 0


def test_parity_clauses_hold_for_weighted_binomials():
    # 1 + 3xy and 1 + 2x: c != 1, direction (1, 1)
    M = MultiHead((head((0, 0), (1, 1), weights=[1, 3]), head((0, 0), (1, 0), weights=[1, 2])))
    assert _check_parity(M, {(0, 0): 1, (1, 0): 2, (0, 1): 1}) > 0


def test_parity_forbids_lonely_points():
    # a line with a single target: that target cannot be in supp D
    _, cl = _parity([(0, 0), (0, 1)], ["a", "b"], [(1, 0)])
    assert cl == ["(assert (not a))", "(assert (not b))"]


# ---------------------------------------------------------------- differential against plain

def _z3(M, k, radius, options):
    res = search_fusion(M, k, radius, timeout=120, options=replace(options, cross_check=False))
    return res.solvers["z3"].result


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 3), data=st.data())
def test_parity_agrees_with_the_plain_encoding(n, data):
    """Random oriented graph sums, radius 1: plain, plain + parity and the default agree
    at the Newton bound minus one, the bound, and the cheap fusion's count."""
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = data.draw(st.lists(st.sampled_from(pairs), min_size=1, unique=True))
    order = data.draw(st.permutations(list(range(n))))
    M = oriented_graph_sum(n, edges, order)
    from attnproof.fusion import fuse
    low, _ = query_module.newton_lower_bound(M)
    k = data.draw(st.sampled_from(sorted({max(low - 1, 1), low, fuse(M).atoms - 1} - {0})))
    answers = {_z3(M, k, 1, o) for o in (PLAIN, replace(PLAIN, parity=True), SearchOptions())}
    assert len(answers) == 1 and answers != {"unknown"}, (edges, order, k, answers)


@pytest.mark.slow
@pytest.mark.parametrize("graph, n, k, radius", [
    ("cycle", 4, 14, 1), ("cycle", 4, 15, 1), ("complete", 3, 6, 2), ("complete", 3, 7, 2),
    ("path", 4, 7, 1), ("path", 4, 8, 1), ("star", 4, 8, 1)])
def test_parity_agrees_with_the_plain_encoding_slow(graph, n, k, radius):
    M = graph_sum(named_graph(graph, n))
    answers = {_z3(M, k, radius, o) for o in (PLAIN, replace(PLAIN, parity=True), SearchOptions())}
    assert len(answers) == 1 and answers != {"unknown"}


def test_parity_is_in_the_default_text_only():
    M = graph_sum(named_graph("cycle", 4))
    plain = build_query(M, 14, 1, PLAIN)[2]
    default = build_query(M, 14, 1)[2]
    assert "parity_clauses" not in plain.stats and default.stats["parity_clauses"] > 0


# ---------------------------------------------------------------- two solvers at once

def test_run_solvers_stops_the_others_after_sat():
    text = "(set-logic QF_LRA)(declare-fun a () Real)(assert (> a 1))(check-sat)"
    runs = run_solvers(["z3", "cvc5"], text, 30, ("a",))
    assert list(runs) == ["z3", "cvc5"]
    results = {r.result for r in runs.values()}
    assert "sat" in results and "unsat" not in results
    for r in runs.values():
        assert r.result == "sat" or "stopped" in r.reason


def test_run_solvers_waits_for_every_unsat():
    text = "(set-logic QF_LRA)(declare-fun a () Real)(assert (> a 1))(assert (< a 0))(check-sat)"
    runs = run_solvers(["z3", "cvc5"], text, 30)
    assert {n: r.result for n, r in runs.items()} == {"z3": "unsat", "cvc5": "unsat"}


def test_a_timeout_in_one_solver_is_never_a_refutation(monkeypatch):
    from attnproof.smt.solvers import SolverRun

    def fake(names, text, timeout, model_vars=(), **kw):
        return {"z3": SolverRun("z3", "unsat", "x", 0.1),
                "cvc5": SolverRun("cvc5", "unknown", "y", 1.0, "timeout after 1 s")}
    monkeypatch.setattr(query_module, "run_solvers", fake)
    res = search_fusion(sigmoid_sum(2), 3, 0, timeout=1)
    assert res.result == "unknown" and "cvc5 unknown" in res.reason


# ---------------------------------------------------------------- the bisection

class _Fake:
    def __init__(self, k, result, atoms=None):
        self.target, self.result, self.seconds, self.reason = k, result, 0.0, ""
        self.fusion = type("F", (), {"atoms": atoms, "method": "search"})() if atoms else None

    @property
    def atoms(self):
        return self.fusion.atoms if self.fusion else None


@pytest.mark.parametrize("smallest, start, bound", [(30, 38, 24), (38, 38, 24), (24, 38, 24),
                                                     (7, 7, 6), (25, 40, 3), (33, 34, 33)])
def test_bisection_finds_the_smallest_in_few_queries(monkeypatch, smallest, start, bound):
    """A fake search: sat (with a witness of max(smallest, k - 1) atoms when k > smallest)
    for k >= smallest, unsat below.  The bisection must end at `smallest` in about
    log2(start - bound) queries, and every unsat it reports is below `smallest`."""
    asked = []

    def fake_search(M, k, window, timeout, options, r, cache=None, on_solvers=None):
        asked.append(k)
        if k >= smallest:
            return _Fake(k, "sat", max(smallest, k - 1))
        return _Fake(k, "unsat")

    monkeypatch.setattr(query_module, "search_fusion", fake_search)
    monkeypatch.setattr(query_module, "fuse", lambda M, m=None: type("F", (), {"atoms": start,
                                                                                "method": "reduced"})())
    monkeypatch.setattr(query_module, "newton_lower_bound", lambda M, r=None: (bound, "newton"))
    monkeypatch.setattr(query_module, "reduced_form", lambda M, m=None: None)
    seen = []
    mr = minimize(None, 1, on_step=seen.append)
    assert mr.best.atoms == smallest and len(seen) == len(asked)
    assert mr.stopped == ("bound" if smallest == bound else "refuted")
    assert all(k < smallest for k, s in zip(asked, mr.steps) if s.result == "unsat")
    if mr.stopped == "refuted":
        assert mr.refutation.target == smallest - 1
    assert len(asked) <= (start - bound).bit_length() + 1


def test_next_target_stays_inside():
    for low in range(1, 12):
        for high in range(low + 1, 14):
            assert low <= next_target(low, high) < high


def test_minimize_on_the_triangle_lists_its_queries():
    mr = minimize(graph_sum(named_graph("complete", 3)), 2, timeout=120)
    q = mr.queries()
    assert [(x["k"], x["answer"]) for x in q] == [(6, "unsat")]
    assert q[0]["window"] == {"kind": "box", "radius": 2, "coordinates": [0, 1]}
    assert mr.to_dict()["queries"] == q


@pytest.mark.slow
def test_minimize_k4_radius_1_in_at_most_six_queries():
    mr = minimize(graph_sum(named_graph("complete", 4)), 1, timeout=600)
    assert mr.stopped in ("refuted", "bound") and len(mr.steps) <= 6
    assert all(s.result in ("sat", "unsat") for s in mr.steps)


# ---------------------------------------------------------------- the denominator-only query

def test_relaxed_unsat_is_reported_with_its_own_text():
    res = search_fusion(graph_sum(named_graph("complete", 3)), 6, 1, timeout=120)
    assert res.result == "unsat" and res.encoding.stats["numerators"] is False
    assert res.symmetry_group >= 2
    full = build_query(graph_sum(named_graph("complete", 3)), 6, 1)[2]
    assert "numerators" not in full.stats and full.sha256 != res.encoding.sha256


def test_relaxed_model_that_is_not_a_fusion_sends_the_full_query(monkeypatch):
    """σ(q), window radius 1.  The relaxed answer is faked to be the model G = 1 - x,
    which is not a fusion (D = 1 - x^2); the search must then ask the full query
    and answer from it."""
    from attnproof.smt.solvers import SolverRun
    real = query_module.run_solvers
    calls = []

    def fake(names, text, timeout, model_vars=(), **kw):
        calls.append(text)
        if len(calls) == 1:
            model = {v: "0" for v in model_vars}
            # window of radius 1: points (-1,), (0,), (1,) -> g_0, g_1, g_2
            model.update({"g_1": "1", "g_2": "-1"})
            return {"z3": SolverRun("z3", "sat", "x", 0.1, "", model)}
        return real(names, text, timeout, model_vars, **kw)

    monkeypatch.setattr(query_module, "run_solvers", fake)
    M = sigmoid_sum(1)
    res = search_fusion(M, 2, 1, timeout=60)
    assert len(calls) == 2 and "numerators" not in res.encoding.stats
    assert res.result == "sat" and res.atoms == 2


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), heads=st.integers(1, 2), atoms=st.integers(2, 3),
       dim=st.integers(1, 2))
def test_denominator_only_unsat_implies_plain_unsat(seed, heads, atoms, dim):
    """A relaxation: when the denominator-only query (with the symmetries of Q alone, parity,
    centering) is unsat, the plain query on the same window is unsat too."""
    from attnproof.families import random_multihead
    from attnproof.fusion import fuse
    M = random_multihead(heads, atoms, dim, seed=seed, max_key=2)
    relaxed = replace(SearchOptions(), numerators=False, relax_first=False)
    for k in sorted({max(fuse(M).atoms - 1, 1), max(fuse(M).atoms - 2, 1)}):
        a = _z3(M, k, 1, relaxed)
        assert a != "unknown"
        if a == "unsat":
            assert _z3(M, k, 1, replace(PLAIN, lineality=True)) == "unsat"


def test_denominator_only_query_alone_is_unknown_when_its_model_is_no_fusion():
    """Found by hypothesis (seed 428): asked on its own, the relaxation may be sat with a G
    whose N = P·G is not supported on D; that is 'unknown', never an error or a fusion."""
    from attnproof.families import random_multihead
    from attnproof.smt.query import search_fusion

    M = random_multihead(2, 3, 2, seed=428, max_key=2)
    opts = replace(SearchOptions(), numerators=False, relax_first=False, cross_check=False)
    res = search_fusion(M, 7, 1, timeout=120, options=opts)
    assert res.result == "unknown" and res.fusion is None
    assert res.solvers["z3"].result == "sat" and "not a fusion" in res.reason
