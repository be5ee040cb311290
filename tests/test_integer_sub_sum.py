"""Integer-key problems with many heads in moderate dimension: a block past a complete
vertex list gets the exact vertices of a sub-sum (output-sensitive, one summand at a
time), a certified lower bound with the counted product upper bound, never exit 3."""

from __future__ import annotations

import json
import os
import random
import sys

import pytest

import attnproof.bounds.lower as lower_mod
from attnproof.certificate import build_certificate
from attnproof.checker import check_text
from attnproof.families import random_multihead
from attnproof.geometry.minkowski import minkowski_prefix_vertices, minkowski_vertices
from attnproof.io import dump_problem

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
from _independent import vertices_by_lp  # noqa: E402


def _points(seed: int, r: int, n: int, d: int, top: int = 3):
    rng = random.Random(seed)
    heads = []
    for _ in range(r):
        pts = set()
        while len(pts) < n:
            pts.add(tuple(rng.randint(-top, top) for _ in range(d)))
        heads.append(sorted(pts))
    return heads


def _independent(heads) -> int:
    sums = {tuple(0 for _ in heads[0][0])}
    for pts in heads:
        sums = {tuple(a + b for a, b in zip(s, p)) for s in sums for p in pts}
    return len(vertices_by_lp(sums))


@pytest.mark.parametrize("seed", range(6))
def test_prefix_vertices_are_the_vertices_of_the_prefix_sum(seed):
    """Differential: the prefix count equals the candidate-tuple count and an independent
    LP count (z3, Fractions) of the same sum; a smaller budget gives a shorter prefix."""
    heads = _points(seed, 3, 3 + seed % 2, 3)
    k, mv = minkowski_prefix_vertices(heads, 10 ** 6)
    assert k == 3 and mv.complete
    assert mv.count == minkowski_vertices(heads).count == _independent(heads)
    k2, mv2 = minkowski_prefix_vertices(heads, mv.candidates - 1)
    assert k2 < 3 and mv2.count == _independent(heads[:k2])


def test_prefix_vertices_stop_at_what_a_list_may_hold():
    heads = _points(7, 4, 4, 4)
    full = minkowski_prefix_vertices(heads, 10 ** 6)[1]
    k, mv = minkowski_prefix_vertices(heads, 10 ** 6, listable=lambda k: 20)
    assert mv.count == 20 and not mv.complete and k <= 4
    # every listed functional selects its tuple on every head of the prefix
    for t, c in mv.vertices:
        for h, i in enumerate(t):
            vals = [sum(a * b for a, b in zip(c, p)) for p in heads[h]]
            assert vals.index(max(vals)) == i and vals.count(max(vals)) == 1
    assert full.count > 20


def _many_heads(monkeypatch):
    """11 heads of 4 atoms in 6-D: 4^11 tuples, past the 2^20 of a complete list; the
    budgets are lowered so that the test stays quick."""
    monkeypatch.setitem(lower_mod.sub_sum_vertices.__globals__, "MINKOWSKI_SUB_SUM_WORK", 40_000)
    monkeypatch.setattr(lower_mod, "SUB_SUM_CANDIDATES", 5_000)
    return random_multihead(11, 4, 6, seed=5, max_key=3)


def test_many_integer_heads_get_a_certified_sub_sum(monkeypatch):
    M = _many_heads(monkeypatch)
    cert = build_certificate(M)
    doc = json.loads(cert.text)
    lb = cert.lower_bound
    assert lb > max(len(h.atoms) for h in M.heads)        # above any head's vertex count
    factor_steps = [s for s in doc["steps"] if s["rule"] == "irreducible_factor"]
    blocks = next(s for s in doc["steps"] if s["rule"] == "newton_blocks")["blocks"]
    assert [b["method"] for b in blocks] == ["vertices"] and len(blocks[0]["vertices"]) == lb
    assert len(factor_steps) == len(blocks[0]["factors"]) < len(M.heads)  # only the kept bound
    assert not any(s["rule"] == "sub_sum" for s in doc["steps"])
    v = check_text(cert.text)
    assert v.code == 0 and v.lower_bound == lb and v.upper_bound == 4 ** 11

    def verdict(edit):
        d = json.loads(cert.text)
        edit(d)
        return check_text(json.dumps(d)).code

    nb = next(i for i, s in enumerate(doc["steps"]) if s["rule"] == "newton_blocks")

    def claim_more(d):
        d["claims"]["lower_bound"] = type(d["claims"]["lower_bound"])(lb + 1)

    def move_vertex(d):
        d["steps"][nb]["blocks"][0]["vertices"][0][0][0] += 1

    def flat_functional(d):
        u, c = d["steps"][nb]["blocks"][0]["vertices"][0]
        d["steps"][nb]["blocks"][0]["vertices"][0] = [u, [0] * len(c)]

    def drop_a_factor(d):
        i = next(i for i, s in enumerate(d["steps"]) if s["rule"] == "irreducible_factor")
        del d["steps"][i]

    for edit in (claim_more, move_vertex, flat_functional, drop_a_factor):
        assert verdict(edit) == 1, edit.__name__


def test_many_integer_heads_prove_exit_0_with_the_gap(tmp_path, run_cli, monkeypatch):
    M = _many_heads(monkeypatch)
    p = str(tmp_path / "m.json")
    dump_problem(M, p)
    cert = tmp_path / "c.json"
    rc, out, err = run_cli("prove", p, "--no-lines", "-o", str(cert), "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["complete"] is False and int(doc["lower_bound"]) > 4
    assert int(doc["upper_bound"]) == 4 ** 11
    assert any("sub-sum" in n for n in doc["notes"]) and any("gap" in n for n in doc["notes"])
    rc, out, _ = run_cli("check", str(cert))
    assert rc == 0 and out.startswith("valid")


@pytest.mark.slow
def test_the_300_head_problem_of_issue_30(tmp_path, run_cli):
    """``family random --heads 300 --atoms 4 --dim 12 --max-key 3 --seed 5`` ended in exit 3
    (4·10^181 candidate tuples); now a certified lower bound above any head's 4 vertices
    and the counted upper bound 4^300, checked with the default budget."""
    p, cert = tmp_path / "r.json", tmp_path / "c.json"
    assert run_cli("family", "random", "--heads", "300", "--atoms", "4", "--dim", "12",
                   "--max-key", "3", "--seed", "5", "-o", str(p))[0] == 0
    rc, out, err = run_cli("prove", str(p), "--no-lines", "-o", str(cert), "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert int(doc["lower_bound"]) > 4 and int(doc["upper_bound"]) == 4 ** 300
    rc, out, _ = run_cli("check", str(cert))
    assert rc == 0 and out.startswith("valid")


@pytest.mark.parametrize("seed", range(4))
def test_pruned_candidates_are_non_vertices_here(seed, monkeypatch):
    """``decide_chunk(prune=True)`` sets aside what the float LP finds infeasible; on these
    sums every tuple set aside is one the exact decision refutes, and the vertices agree."""
    import attnproof.geometry.minkowski as mk

    monkeypatch.setattr(mk, "EXACT_CHUNK", 0)          # the float LP path, not the simplex
    heads = tuple(tuple(p) for p in _points(seed, 3, 4, 3))
    cands = tuple((i, j, k) for i in range(4) for j in range(4) for k in range(4))
    exact = {t: kind for t, kind, _ in mk.decide_chunk(heads, cands, False, True)}
    pruned = {t: kind for t, kind, _ in mk.decide_chunk(heads, cands, False, True, True)}
    assert {t for t, k in pruned.items() if k == "v"} == {t for t, k in exact.items() if k == "v"}
    assert all(exact[t] == "n" for t, k in pruned.items() if k == "p")


def test_many_heads_in_three_dimensions(monkeypatch):
    """Most tuples of a 3-D sum are not vertices: they are set aside by the float LP, the
    listed vertices are all proven, the certificate is valid."""
    monkeypatch.setattr(lower_mod, "SUB_SUM_CANDIDATES", 2_000)
    M = random_multihead(40, 4, 3, seed=1, max_key=3)
    cert = build_certificate(M)
    v = check_text(cert.text)
    assert v.code == 0 and v.lower_bound == cert.lower_bound > 4
