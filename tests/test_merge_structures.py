"""The merge report on layers with structure: duplicated patterns, constant heads, heads whose
values vanish, generic heads, at several context lengths (NumPy captures, no torch).

Each layer is built here from random weights and then given its structure through the
weights themselves (a head copying another's W_Q, W_K, b_Q, b_K; a head with zero query
weights; a head with zero value weights), as a researcher's layer would have it.  The
expected answers are the mathematics' (THEORY Lemma 9.5 for generic heads; one softmax
for one pattern; a constant shifts values), and the merge plan is compared with a
brute-force optimum over every partition of the heads, each group proven on its own.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from attnproof.checker import check_text
from attnproof.transformer.capture import random_capture, save_capture
from attnproof.transformer.problem import capture_to_problem, head_from_capture

sys.path.insert(0, str(Path(__file__).resolve().parent))
from independent_count import partitions  # noqa: E402


def structured_capture(n_ctx: int, seed: int, zero_values: bool = False):
    """Heads 0 and 1 generic, head 2 with head 0's pattern, head 3 constant (zero query
    weights) or, with ``zero_values``, a generic pattern whose values vanish."""
    cap = random_capture(n_ctx, 8, 4, 4, seed=seed)
    WQ, WK, bQ, bK = cap.W_Q.copy(), cap.W_K.copy(), cap.b_Q.copy(), cap.b_K.copy()
    WV, bV = cap.W_V.copy(), cap.b_V.copy()
    WQ[2], WK[2], bQ[2], bK[2] = WQ[0], WK[0], bQ[0], bK[0]
    if zero_values:
        WV[3], bV[3] = 0, 0
    else:
        WQ[3], bQ[3] = 0, 0
    return replace(cap, W_Q=WQ, W_K=WK, b_Q=bQ, b_K=bK, W_V=WV, b_V=bV, head_out=None)


LAYERS = [(3, 11, False), (5, 12, False), (7, 13, True)]


def test_partitions_are_bell_many():
    assert [sum(1 for _ in partitions(list(range(n)))) for n in range(1, 6)] == [1, 2, 5, 15, 52]


@pytest.fixture(scope="module", params=LAYERS, ids=lambda p: f"n{p[0]}")
def layer_report(request, tmp_path_factory):
    from attnproof.merging import merge_report

    n, seed, zero_values = request.param
    cap = structured_capture(n, seed, zero_values)
    out = tmp_path_factory.mktemp(f"r{n}")
    return cap, merge_report(cap, out), out, zero_values


def test_every_pair_has_an_exact_minimum(layer_report):
    cap, rep, out, zero_values = layer_report
    n = {h: head_from_capture(cap, h).distinct_keys for h in cap.heads}
    by = {tuple(q["heads"]): q for q in rep.pairs}
    assert all(q["minimum"] is not None for q in rep.pairs), [q.get("open_reason") for q in rep.pairs]
    assert rep.complete and rep.layer["minimum"] is not None
    # one attention pattern: one head's atoms
    assert by[(0, 2)]["minimum"] == n[0] == n[2]
    assert "heads 0 and 2: same attention pattern" in by[(0, 2)]["structures"]
    # generic heads: the product n_h · n_g (THEORY Lemma 9.5)
    for p in ((0, 1), (1, 2)):
        assert by[p]["minimum"] == by[p]["product"] == n[p[0]] * n[p[1]]
        assert by[p]["merge"] == "costs"
    # a constant head, or one whose values vanish, merges into the other head's atoms
    if not zero_values:
        assert n[3] == 1
        assert all(by[(h, 3)]["minimum"] == n[h] and by[(h, 3)]["saves_atoms"] == 1
                   for h in (0, 1, 2))
    else:
        assert rep.head_notes[3] == ["values vanish (the head adds nothing)"]
        assert all(by[(h, 3)]["minimum"] == n[h] and by[(h, 3)]["saves_atoms"] == n[3]
                   for h in (0, 1, 2))


def test_every_certificate_is_checked_and_agrees(layer_report):
    cap, rep, out, _ = layer_report
    for q in rep.pairs + [rep.layer] + rep.groups:
        v = check_text((out / "certificates" / (
            "heads_" + "_".join(map(str, q["heads"])) + ".cert.json")).read_text())
        assert v.code == 0, v.message
        assert (v.lower_bound, v.upper_bound, v.minimum) == (
            q["lower_bound"], q["upper_bound"], q["minimum"])


def test_report_md_names_the_merges_that_save(layer_report):
    from attnproof.transformer.report import write_report

    cap, rep, out, _ = layer_report
    write_report(rep, out)
    md = (out / "report.md").read_text()
    first = md.split("\n\n")[1]                    # the answer, right under the title
    n0 = head_from_capture(cap, 0).distinct_keys
    assert first.startswith(f"Heads 0 and 2 merge exactly into {n0} atoms, saving {n0} of the "
                            f"{2 * n0} kept separately")
    assert "kept separately" in first and "Best merge plan" in first
    assert "heads 0 and 1" not in first            # a generic pair saves nothing
    assert "costs" in md and "saves" in md
    doc = json.loads((out / "report.json").read_text())
    assert doc["answer"] == first and doc["complete"] is True


def test_merge_plan_equals_brute_force_over_partitions(layer_report):
    """Every group proven on its own (as prove would), every partition enumerated."""
    from attnproof.certificate import build_certificate

    cap, rep, out, _ = layer_report
    hs = list(cap.heads)
    cost = {}
    import itertools

    for k in range(1, len(hs) + 1):
        for g in itertools.combinations(hs, k):
            M = capture_to_problem(cap, heads=list(g))
            if k == 1:
                cost[g] = M.heads[0].distinct_keys
                continue
            c = build_certificate(M)
            assert c.minimum is not None, g
            cost[g] = c.minimum
    best = min(sum(cost[tuple(sorted(part))] for part in p) for p in partitions(hs))
    plan = rep.plan
    assert plan["optimal"] and plan["exhaustive"]
    assert plan["total"] == best
    assert sum(cost[tuple(g["heads"])] for g in plan["groups"]) == best
    assert sorted(h for g in plan["groups"] for h in g["heads"]) == hs
    assert plan["separate"] == sum(cost[(h,)] for h in hs)
    for g in plan["groups"]:
        if len(g["heads"]) > 1:
            v = check_text((out / "certificates" / Path(g["certificate"]).name).read_text())
            assert v.code == 0 and v.upper_bound == g["upper_bound"]


def test_merge_report_cli_exit_code_agrees_with_complete(tmp_path, run_cli):
    jsonschema = pytest.importorskip("jsonschema")
    save_capture(structured_capture(4, 21), tmp_path / "c.npz")
    rc, out, err = run_cli("merge-report", str(tmp_path / "c.npz"), "-o", str(tmp_path / "r"),
                           "--json")
    doc = json.loads(out)
    assert rc == 0, err
    assert doc["complete"] is True and doc["verdict"] == "answered"
    assert all(q["minimum"] is not None and q["complete"] for q in doc["pairs"])
    schema = json.loads((Path(__file__).resolve().parents[1] / "schemas" /
                         "cli-merge-report.schema.json").read_text())
    jsonschema.validators.validator_for(schema)(schema).validate(doc)


def test_an_open_question_says_why_and_what_closes_it(tmp_path, run_cli):
    """--explicit-fusion-limit 0 leaves the duplicated pair open: its row says so, and the
    option that closes it; complete, minimum and the exit code agree."""
    save_capture(structured_capture(4, 22), tmp_path / "c.npz")
    rc, out, err = run_cli("merge-report", str(tmp_path / "c.npz"), "-o", str(tmp_path / "r"),
                           "--json", "--explicit-fusion-limit", "0", "--heads", "0,2")
    doc = json.loads(out)
    (q,) = doc["pairs"]
    assert rc == 2 and doc["complete"] is False and q["minimum"] is None and not q["complete"]
    assert "explicit fusion" in q["open_reason"] and "--explicit-fusion-limit" in q["closes_with"]
    md = (tmp_path / "r" / "report.md").read_text()
    assert "Open questions" in md and "closed by --explicit-fusion-limit" in md


def test_question_time_budget_leaves_an_open_row(tmp_path, monkeypatch):
    """A question whose explicit fusion runs past its budget is open, with the option."""
    import time as _time

    from attnproof import merging

    def slow_build(*a, **kw):
        if kw.get("explicit_fusion_limit", 0) > 0:
            _time.sleep(8)
        return real_build(*a, **kw)

    real_build = merging.build_certificate
    monkeypatch.setattr(merging, "build_certificate", slow_build)
    rep = merging.merge_report(structured_capture(4, 23), tmp_path / "r", heads=[0, 2],
                               timeout=2.0, plan=False)
    (q,) = rep.pairs
    assert q["minimum"] is None and "time budget of 2 s" in q["open_reason"]
    assert "--question-timeout" in q["closes_with"]


def test_structures_from_exact_heads():
    from attnproof.transformer.structure import (constant_head, group_structures, same_pattern,
                                                 shared_positions, vanishing_values)

    cap = structured_capture(5, 3)
    H = {h: head_from_capture(cap, h) for h in cap.heads}
    assert same_pattern(H[0], H[2]) and not same_pattern(H[0], H[1])
    assert constant_head(H[3]) and not constant_head(H[0]) and not vanishing_values(H[0])
    assert shared_positions(H[0], H[1]) == []
    # keys of head 1 made equal to head 0's on positions 0 and 1 only
    from attnproof.heads import Head

    mixed = Head(H[0].atoms[:2] + H[1].atoms[2:], name="L0H9")
    assert shared_positions(H[0], mixed) == [0, 1]
    assert group_structures([H[0], mixed], ["0", "9"]) == [
        "heads 0 and 9: keys coincide on 2 of 5 positions"]


def test_a_shift_by_b_K_is_one_pattern_in_exact_arithmetic(tmp_path):
    """Head 1 has head 0's W_Q, W_K, b_Q and another b_K: every key is shifted by one vector
    (the softmax ignores it).  Exact arithmetic keeps the shift and the pair merges into one
    head's atoms; float64 rounds each head's keys apart (a true answer about the rounded
    problem), and the report says that the weights have one pattern and how to keep it."""
    from attnproof.merging import merge_report
    from attnproof.transformer.report import write_report

    cap = random_capture(5, 8, 3, 4, seed=1)
    WQ, WK, bQ = cap.W_Q.copy(), cap.W_K.copy(), cap.b_Q.copy()
    WQ[1], WK[1], bQ[1] = WQ[0], WK[0], bQ[0]
    cap = replace(cap, W_Q=WQ, W_K=WK, b_Q=bQ, head_out=None)
    exact = merge_report(cap, tmp_path / "e", arithmetic="exact", layer=False, plan=False)
    (q,) = [q for q in exact.pairs if q["heads"] == [0, 1]]
    assert q["minimum"] == 5 and "heads 0 and 1: same attention pattern" in q["structures"]
    rounded = merge_report(cap, tmp_path / "f", layer=False, plan=False)
    (q,) = [q for q in rounded.pairs if q["heads"] == [0, 1]]
    assert q["minimum"] == 25 and "--arithmetic exact" in q["hint"]
    write_report(rounded, tmp_path / "f")
    assert "--arithmetic exact" in (tmp_path / "f" / "report.md").read_text()


@pytest.mark.parametrize("seed", [1, 3])
def test_no_question_is_left_open_that_prove_closes(tmp_path, seed):
    """Differential: every question of the report against ``attnproof.prove`` on the same
    heads (integer keys: the factorization path, explicit fusions and line queries)."""
    import attnproof
    from attnproof.errors import AttnproofError
    from attnproof.transformer.capture import Capture
    from attnproof.merging import merge_report

    rng = np.random.default_rng(seed)      # small integer weights, b_Q = 0 (as tests/test_models.py)

    def r(*shape):
        return rng.integers(-2, 3, size=shape).astype(float)

    cap = Capture(x=r(4, 3), query=r(3), W_Q=r(3, 3, 2), b_Q=np.zeros((3, 2)), W_K=r(3, 3, 2),
                  b_K=r(3, 2), W_V=r(3, 3, 2), b_V=r(3, 2), W_O=r(3, 2, 3), scale=1.0,
                  heads=(0, 1, 2), meta={"model": "integer-toy", "layer": 0, "position": 3})
    rep = merge_report(cap, tmp_path / "r", plan=False)
    for q in rep.pairs + [rep.layer]:
        M = capture_to_problem(cap, heads=q["heads"])
        try:
            c = attnproof.prove(M)
        except AttnproofError:
            assert q.get("error"), q
            continue
        assert (q["lower_bound"], q["upper_bound"], q["minimum"]) == (
            c.lower_bound, c.upper_bound, c.minimum)
        assert q["complete"] == (c.minimum is not None)
        if c.minimum is None:
            assert q["open_reason"] and q["closes_with"]


def test_keys_shared_on_some_positions_close_by_their_edge_roots(tmp_path):
    """Two heads whose keys coincide on 2 of 5 positions: the product fusion repeats one sum
    (24 atoms, not 25) and the midpoint of the shared edge is no vertex (Newton count 23);
    the shared edge's polynomial (α_i + α_j t)(β_i + β_j t) has two negative roots, so every
    fusion keeps a point inside the edge (docs/theory.md Theorem 10.1, Corollary 10.2): the
    certified lower bound is 24 and the question closes, the checker re-deriving the step."""
    from attnproof.heads import Head
    from attnproof.transformer.problem import domain_dim
    from attnproof.merging import ExactHead, prove_heads

    cap = structured_capture(5, 3)
    H0, H1 = head_from_capture(cap, 0), head_from_capture(cap, 1)
    mixed = Head(H0.atoms[:2] + H1.atoms[2:], name="L0H9")
    dim = domain_dim(cap, "layernorm")
    r = prove_heads((ExactHead.of(H0, dim), ExactHead.of(mixed, dim)), dim, "x", None, 65536)
    assert r["structures"] == ["heads 0 and 9: keys coincide on 2 of 5 positions"]
    assert (r["lower_bound"], r["upper_bound"], r["minimum"]) == (24, 24, 24)
    assert r["complete"] and not r.get("open_reason")
    doc = json.loads(r["_certificate_text"])
    (step,) = [s for s in doc["steps"] if s["rule"] == "edge_roots"]
    assert [e["roots"] for e in step["edges"]] == [2] and step["lower_bound"] == 24
    assert check_text(r["_certificate_text"]).code == 0
    # without the step the same certificate proves only the Newton count
    doc["steps"].remove(step)
    doc["claims"].update(lower_bound=23, minimum=None)
    v = check_text(json.dumps(doc))
    assert v.code == 0 and v.lower_bound == 23


def test_the_plan_asks_every_group_without_the_layer_question(tmp_path):
    """--no-layer: the group of all heads is still one of the plan's groups (asked for the
    plan), so the plan's optimum is still over every partition."""
    from attnproof.merging import merge_report

    rep = merge_report(structured_capture(3, 11), tmp_path / "r", layer=False)
    assert rep.layer is None
    assert sorted(tuple(q["heads"]) for q in rep.groups) == [
        (0, 1, 2), (0, 1, 2, 3), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    assert rep.plan["exhaustive"] and rep.plan["optimal"]
    assert rep.questions == 6 and rep.complete          # the groups are the plan's, not questions


def test_bounds_past_the_time_budget_leave_an_open_row(tmp_path, monkeypatch):
    """The budget covers the bounds too: a question whose bounds run past it is open, with
    no certificate, and says which option gives it more time; the others are answered."""
    import time as _time

    from attnproof import merging

    real_build = merging.build_certificate
    slow = {"n": 0}

    def slow_build(M, *a, **kw):
        if len(M.heads) == 2 and [h.name for h in M.heads] == ["L0H0", "L0H1"]:
            slow["n"] += 1
            _time.sleep(8)
        return real_build(M, *a, **kw)

    monkeypatch.setattr(merging, "build_certificate", slow_build)
    rep = merging.merge_report(structured_capture(3, 24), tmp_path / "r", heads=[0, 1, 2],
                               timeout=2.0, layer=False, plan=False)
    by = {tuple(q["heads"]): q for q in rep.pairs}
    assert slow["n"] == 1
    q = by[(0, 1)]
    assert q["minimum"] is None and not q["complete"] and "certificate" not in q
    assert "bounds and their check ran past the question's time budget of 2 s" in q["open_reason"]
    assert q["closes_with"].startswith("--question-timeout")
    assert not rep.complete and by[(0, 2)]["minimum"] is not None


def test_time_budget_restores_the_signal_state():
    import signal
    import time as _time

    from attnproof.merging import _OutOfTime, time_budget

    before = signal.getsignal(signal.SIGALRM)
    with time_budget(30) as on:
        assert on and signal.getitimer(signal.ITIMER_REAL)[0] > 0
    assert signal.getsignal(signal.SIGALRM) is before and signal.getitimer(signal.ITIMER_REAL)[0] == 0
    with pytest.raises(_OutOfTime):
        with time_budget(0.2):
            _time.sleep(5)
    assert signal.getsignal(signal.SIGALRM) is before
    signal.setitimer(signal.ITIMER_REAL, 60)          # another timer: left alone
    try:
        with time_budget(0.1) as on:
            assert not on
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
