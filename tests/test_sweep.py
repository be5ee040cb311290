"""``search --sweep``: independent queries through the executor, identical on every executor."""

from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest

from attnproof.families import graph_sum, named_graph, sigmoid_sum
from attnproof.fusion import verify_head
from attnproof.io import dump_problem
from attnproof.smt import sweep as sweep_mod
from attnproof.smt.sweep import parse_targets, parse_windows, sweep

C4 = graph_sum(named_graph("cycle", 4))
P3 = graph_sum(named_graph("path", 3))
C3 = graph_sum(named_graph("cycle", 3))


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, M in (("c4", C4), ("p3", P3), ("c3", C3), ("w2", sigmoid_sum(2))):
        p = tmp_path / f"{name}.json"
        dump_problem(M, p)
        paths[name] = str(p)
    return paths


def test_sweep_rows_and_summaries_in_process():
    sw = sweep([("c4", C4), ("c3", C3)], windows=[1], targets=[14, 15], timeout=120)
    got = [(r.problem, r.target, r.result) for r in sw.rows]
    assert got == [("c4", 14, "unsat"), ("c4", 15, "sat"), ("c3", 14, "sat"), ("c3", 15, "sat")]
    c4 = sw.summaries[0]
    assert (c4.best.atoms, c4.refutation.target, c4.window_minimum) == (15, 14, 15)
    assert sw.complete
    for r in sw.rows:
        if r.result == "sat":  # witnesses were rebuilt and verified here; check independently
            verify_head(dict(sw.problems)[r.problem], r.fusion.to_head(), 4, 1)
            assert r.atoms <= r.target


def test_default_targets_run_from_the_bound_to_below_the_cheap_fusion():
    sw = sweep([("c3", C3), ("p3", P3)], windows=[0])
    assert [(r.problem, r.target) for r in sw.rows] == [("c3", 6)]   # P_3: the bound is met
    assert sw.summaries[1].to_dict()["minimum"] == 4


def test_a_refutation_contradicted_by_a_verified_witness_is_withdrawn(monkeypatch):
    real = sweep_mod.sweep_query

    def lying(M, k, window, timeout, options, max_atoms):
        res = real(M, k, window, timeout, options, max_atoms)
        return replace(res, result="unsat") if k == 16 else res  # a wrong refutation
    monkeypatch.setattr(sweep_mod, "sweep_query", lying)
    sw = sweep([("c4", C4)], windows=[1], targets=[15, 16], timeout=120)
    assert [r.result for r in sw.rows] == ["sat", "unknown"]
    assert "withdrawn" in sw.rows[1].reason and sw.summaries[0].withdrawn == [16]
    assert sw.summaries[0].refutation is None and not sw.complete


def test_a_model_that_does_not_verify_is_unknown(monkeypatch):
    real = sweep_mod.sweep_query

    def corrupt(M, k, window, timeout, options, max_atoms):
        res = real(M, k, window, timeout, options, max_atoms)
        # every G gives an exact fraction P*G/Q*G; a full G has far more than k atoms
        bad = {name: str(i + 1) for i, name in enumerate(res.encoding.gvars)}
        return replace(res, solvers={n: replace(r, model=bad) for n, r in res.solvers.items()})
    monkeypatch.setattr(sweep_mod, "sweep_query", corrupt)
    sw = sweep([("c4", C4)], windows=[1], targets=[15], timeout=120)
    assert sw.rows[0].result == "unknown" and sw.rows[0].fusion is None
    assert sw.summaries[0].best is None


UNSAT = "(set-logic QF_LRA)(declare-fun a () Real)(assert (> a 1))(assert (< a 0))(check-sat)"
SAT = "(set-logic QF_LRA)(declare-fun a () Real)(assert (> a 1))(check-sat)"


def test_solvers_in_turn_ask_cvc5_only_while_the_answer_needs_it():
    from attnproof.smt.solvers import run_solvers

    runs = run_solvers(["z3", "cvc5"], UNSAT, 30, at_once=False)
    assert [(r.solver, r.result) for r in runs.values()] == [("z3", "unsat"), ("cvc5", "unsat")]
    runs = run_solvers(["z3", "cvc5"], SAT, 30, ("a",), at_once=False)
    assert runs["z3"].result == "sat" and runs["z3"].model["a"]
    assert runs["cvc5"].result == "unknown" and runs["cvc5"].reason == "not run after z3 answered sat"
    raced = run_solvers(["z3", "cvc5"], SAT, 30, ("a",))
    assert raced["z3"].model == runs["z3"].model     # the witness is z3's either way


def test_a_later_solver_is_skipped_when_the_query_time_is_used_up(monkeypatch):
    from attnproof.smt import solvers

    monkeypatch.setattr(solvers, "MIN_TURN_S", 1e6)
    runs = solvers.run_solvers_in_turn(["z3", "cvc5"], UNSAT, 30)
    assert runs["z3"].result == "unsat" and runs["cvc5"].result == "unknown"
    assert "used up" in runs["cvc5"].reason


def test_a_sweep_runs_solvers_in_turn_with_the_answers_of_racing_solvers():
    def answers(sw):
        return [(r.target, r.result, r.atoms, r.search.encoding.sha256,
                 r.fusion.to_problem_dict() if r.fusion else None) for r in sw.rows]

    turn = sweep([("c4", C4)], windows=[1], targets=[14, 15], timeout=120)
    race = sweep([("c4", C4)], windows=[1], targets=[14, 15], timeout=120, solvers_at_once=True)
    assert answers(turn) == answers(race) and [r.result for r in turn.rows] == ["unsat", "sat"]
    assert turn.rows[1].search.solvers["cvc5"].reason == "not run after z3 answered sat"
    raced = race.rows[1].search.solvers["cvc5"]     # stopped by z3's sat, unless it won the race
    assert raced.reason.startswith("stopped") or raced.result == "sat", raced
    assert turn.rows[0].search.solvers["cvc5"].result == "unsat"    # the cross-check of unsat


@pytest.mark.parametrize("text, expected", [("3", [3]), ("2-4,9", [2, 3, 4, 9]), ("5,5", [5])])
def test_parse_targets(text, expected):
    assert parse_targets(text) == expected


@pytest.mark.parametrize("text, expected", [("1", [1]), ("0-2", [0, 1, 2]), ("2,0", [2, 0]),
                                            ("[[0,0]]", [[[0, 0]]])])
def test_parse_windows(text, expected):
    assert parse_windows(text) == expected


@pytest.mark.parametrize("argv, message", [
    (["--atoms", "3", "--window", "1", "--targets", "3"], "--targets applies to --sweep only"),
    (["--atoms", "3", "--window", "1", "--workers", "2"], "apply to --sweep only"),
    (["--sweep", "--window", "1", "--targets", "x"], "--targets 'x'"),
    (["--sweep", "--window", "1", "--targets", "0"], "positive"),
    (["--sweep", "--window", "2-1"], "A <= B"),
    (["--sweep", "--window", "1", "--scheduler", "nowhere"], "expected tcp://HOST:PORT"),
    (["--sweep", "--window", "1", "--smtlib", "x.smt2"], "one query only"),
    (["--sweep", "--window", "1", "-o", "no/such/folder"], "existing folder"),
])
def test_sweep_usage_errors_are_one_line(run_cli, files, argv, message):
    rc, out, err = run_cli("search", files["c4"], *argv)
    assert rc == 3 and message in err and len(err.strip().splitlines()) == 1 and out == ""


def test_workers_and_scheduler_are_exclusive(run_cli, files):
    rc, _, err = run_cli("search", files["c4"], "--sweep", "--window", "1", "--workers", "2",
                         "--scheduler", "tcp://127.0.0.1:1")
    assert rc == 3 and "not allowed with" in err


def _sweep_cli(run_cli, files, tmp_path, tag, *extra):
    out = tmp_path / f"out-{tag}"
    certs = tmp_path / f"certs-{tag}"
    out.mkdir()
    certs.mkdir()
    rc, stdout, err = run_cli("search", files["c4"], files["w2"], "--sweep",
                              "--window", "1", "--targets", "3,14,15", "-o", str(out),
                              "--certificate", str(certs), "--json", *extra)
    assert rc == 0, err
    doc = json.loads(stdout)
    written = {os.path.basename(p): open(p, "rb").read() for p in doc["written"]}
    # the whole table but its timings: answers, atoms, query hashes, what each solver said
    for r in doc["rows"]:
        r.pop("seconds")
        for run in r["solvers"].values():
            run.pop("seconds")
    assert doc.pop("executor") == ("in process" if "--workers" not in extra else
                                   "Dask LocalCluster with 2 worker(s), 150 s per task")
    doc.pop("elapsed_s")
    doc.pop("written")
    rows = [(r["problem"], r["window"], r["target"], r["result"], r["smtlib_sha256"])
            for r in doc["rows"]]
    # witnesses (.fused.json) and certificates, byte for byte
    return rows, [s["refuted_below"] for s in doc["summaries"]], written, doc


@pytest.mark.slow
def test_sweep_cli_results_and_certificate_bytes_do_not_depend_on_the_executor(run_cli, files, tmp_path):
    local = _sweep_cli(run_cli, files, tmp_path, "here", "--timeout", "120")
    dask2 = _sweep_cli(run_cli, files, tmp_path, "dask", "--timeout", "120", "--workers", "2")
    assert local == dask2
    rows, refuted, written, doc = local
    assert sorted(written) == ["c4.cert.json", "c4.fused.json", "w2.cert.json", "w2.fused.json"]
    # one solver at a time in a sweep, on every executor: cvc5 only after z3's unsat
    for r in doc["rows"]:
        z3, cvc5 = r["solvers"]["z3"], r["solvers"]["cvc5"]
        if r["result"] == "sat":
            assert z3["result"] == "sat" and cvc5["reason"] == "not run after z3 answered sat"
        else:
            assert z3["result"] == cvc5["result"] == "unsat"
    assert {(r[0].rsplit("/", 1)[-1], r[1], r[2]): r[3] for r in rows}[("c4.json", 1, 14)] == "unsat"
    from attnproof.checker import check_text
    for name, data in written.items():
        if name.endswith(".cert.json"):
            v = check_text(data.decode())   # window claims stay inconclusive until replayed
            assert v.code in (0, 2) and v.bounds_verified, name


def test_certificate_bytes_do_not_depend_on_the_executor():
    from attnproof.parallel.executor import ExecutorSpec
    from attnproof.smt.certify import search_certificate

    W2 = sigmoid_sum(2)

    def certificate(spec):
        sw = sweep([("w2", W2)], windows=[1], targets=[3, 4], timeout=120, spec=spec)
        assert [r.result for r in sw.rows] == ["unsat", "sat"]
        return search_certificate(W2, sw.best_fusion("w2"), sw.refutations("w2")).text

    assert certificate(None) == certificate(ExecutorSpec(workers=2))


@pytest.mark.slow
def test_tasks_past_the_deadline_are_unknown_never_refuted(files):
    from attnproof.parallel.executor import ExecutorSpec

    # C_5's queries at k 30 and 31 are refutations that take z3 seconds (far past 0.2 s)
    C5 = graph_sum(named_graph("cycle", 5))
    spec = ExecutorSpec(workers=2, timeout=0.2)
    sw = sweep([("c5", C5)], windows=[1], targets=[30, 31], timeout=120, spec=spec)
    assert [r.result for r in sw.rows] == ["unknown", "unknown"]
    assert all("task failed: ran past 0.2 s" in r.reason for r in sw.rows)
    assert not sw.complete and sw.summaries[0].refutation is None
