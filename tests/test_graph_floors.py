"""Graph sums past the checker's count of general blocks: the count of a spanning subgraph
(a sub-sum, docs/theory.md Lemma F2), exit 0 with ``complete: false``, checked valid."""

from __future__ import annotations

import json
import random

import networkx as nx
import pytest

from attnproof import graph_sum
from attnproof.bounds.zonotope import (GENERAL_STEPS, acyclic_orientations_independence,
                                       acyclic_orientations_within, checker_general_steps,
                                       chordal_spanning_subgraph, count_acyclic_orientations)
from attnproof.checker import check_text
from attnproof.bounds.zonotope import graph_hint
from attnproof.checker.rules.graphs import _count_general, read_hint
from attnproof.checker.rules.graphs import acyclic_orientations as _checker_orientations
from attnproof.checker.syntax import Budget
from attnproof.errors import LimitError
from attnproof.io import dump_problem


def acyclic_orientations(n: int, edges, **kw) -> int:
    """The checker's count of the acyclic orientations, given the producer's hint."""
    return _checker_orientations(n, edges, read_hint(graph_hint(edges), {v: v for v in range(n)}, "g"), **kw)


def _random_graph(n, seed):
    G = nx.gnp_random_graph(n, 0.5, seed=seed)
    G.add_edges_from((i, i + 1) for i in range(n - 1))
    return G


def _write(tmp_path, name, G):
    p = str(tmp_path / f"{name}.json")
    dump_problem(graph_sum(G), p)
    return p


@pytest.mark.parametrize("n,seed", [(6, 1), (9, 2), (11, 3), (12, 0)])
def test_the_step_count_is_the_checkers_own(n, seed):
    G = _random_graph(n, seed)
    nodes = list(range(n))
    adj = {v: set(G[v]) for v in nodes}
    b = Budget(None)
    _count_general(nodes, adj, b)
    assert checker_general_steps(nodes, adj) == b.used


def test_chordal_subgraphs_count_what_the_checker_counts():
    rng = random.Random(5)
    for _ in range(30):
        n = rng.randint(3, 11)
        G = nx.gnp_random_graph(n, rng.random(), seed=rng.randrange(10 ** 6))
        if not nx.is_connected(G):
            continue
        nodes = list(range(n))
        adj = {v: set(G[v]) for v in nodes}
        E, a = chordal_spanning_subgraph(nodes, adj)
        H = nx.Graph(E)
        assert nx.is_chordal(H) and nx.is_connected(H) and H.number_of_nodes() == n
        assert set(map(frozenset, E)) <= set(map(frozenset, G.edges()))
        assert a == acyclic_orientations(n, E) <= acyclic_orientations(n, list(G.edges()))


def test_a_partial_count_is_a_subgraphs_and_below_the_whole():
    for n, seed in ((14, 0), (13, 1)):
        G = _random_graph(n, seed)
        E = list(G.edges())
        count, how, kept, notes = acyclic_orientations_within(n, E)
        assert kept is not None and len(kept) < len(E) and notes
        assert f"{n} nodes" in notes[0] and str(GENERAL_STEPS) in notes[0]
        whole = acyclic_orientations_independence(list(range(n)), {v: set(G[v]) for v in G})
        assert count == acyclic_orientations(n, [E[i] for i in kept]) < whole
        assert count_acyclic_orientations(n, E, max_steps=None)[0] == whole
        with pytest.raises(LimitError, match=f"{n} nodes"):
            count_acyclic_orientations(n, E)


def test_a_random_graph_on_12_nodes_is_counted_exactly(tmp_path, run_cli):
    G = _random_graph(12, 0)
    p = _write(tmp_path, "rg12", G)
    rc, out, err = run_cli("prove", p, "-o", str(tmp_path / "c.json"), "--json")
    assert rc == 0, err
    doc = json.loads(out)
    want = acyclic_orientations_independence(list(range(12)), {v: set(G[v]) for v in G})
    assert int(doc["lower_bound"]) == want and doc["complete"] is True
    rc, out, _ = run_cli("check", str(tmp_path / "c.json"), "--json")
    assert rc == 0 and int(json.loads(out)["lower_bound"]) == want


@pytest.mark.parametrize("name,G", [
    ("grid4x4", nx.convert_node_labels_to_integers(nx.grid_2d_graph(4, 4))),
    ("grid4x5", nx.convert_node_labels_to_integers(nx.grid_2d_graph(4, 5))),
    ("random14", _random_graph(14, 0)),
])
def test_past_the_count_a_sub_sum_is_proven_and_checked(tmp_path, run_cli, name, G):
    p = _write(tmp_path, name, G)
    cert = tmp_path / "c.json"
    for argv in (["bound", p, "--json"], ["prove", p, "-o", str(cert), "--json"]):
        rc, out, err = run_cli(*argv)
        assert rc == 0, err
        doc = json.loads(out)
        assert doc["complete"] is False
        assert any("spanning subgraph" in n for n in doc["notes"])
    lower = int(doc["lower_bound"])
    assert 2 ** (G.number_of_nodes() - 1) < lower < int(doc["upper_bound"])
    if G.number_of_nodes() <= 16:
        assert lower < acyclic_orientations_independence(list(G), {v: set(G[v]) for v in G})
    rc, out, _ = run_cli("check", str(cert), "--json")
    v = json.loads(out)
    assert rc == 0 and int(v["lower_bound"]) == lower and v["complete"] is False
    assert "sub-sum" in v["message"]


def test_forged_sub_sums_of_a_graph_are_refused(tmp_path, run_cli):
    G = _random_graph(14, 0)
    p = _write(tmp_path, "g", G)
    cert = tmp_path / "c.json"
    assert run_cli("prove", p, "-o", str(cert))[0] == 0
    good = json.loads(cert.read_text())
    whole = acyclic_orientations_independence(list(G), {v: set(G[v]) for v in G})

    def verdict(edit):
        doc = json.loads(json.dumps(good))
        edit(doc)
        return check_text(json.dumps(doc))

    steps = [s["rule"] for s in good["steps"]]
    i = steps.index("sub_sum")

    def claim_whole(d):               # the sub-sum's count claimed as the whole graph's
        d["claims"]["lower_bound"] = str(whole)

    def drop_step(d):                 # the blocks of the kept factors without the sub_sum step
        del d["steps"][i]

    def keep_more(d):                 # a factor kept that the counted block does not list
        kept = d["steps"][i]["factors"]
        extra = next(j for j in range(len(kept) + 1) if j not in kept)
        d["steps"][i]["factors"] = sorted(kept + [extra])

    def block_all(d):                 # the count over every factor, after the sub_sum
        d["steps"][i + 1]["blocks"][0]["factors"] = list(range(len(G.edges())))

    for edit in (claim_whole, block_all):
        v = verdict(edit)
        assert v.code == 1, (edit.__name__, v.message)
    # renumbered factors read as the first ones of the whole graph: another graph, whose
    # count is refused or runs out of the work budget, never valid
    assert verdict(drop_step).code in (1, 2) and verdict(keep_more).code in (1, 2)
    assert verdict(lambda d: None).code == 0
