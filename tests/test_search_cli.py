"""``attnproof search`` on the command line, certificates of window refutations, replay."""

from __future__ import annotations

import json
import os

import pytest

from attnproof.families import graph_sum, named_graph, sigmoid_sum, biased_sigmoid_sum
from attnproof.io import dump_problem, load_problem
from attnproof.smt import search_fusion
from attnproof.certificate.steps.windows import window_refutation_claim, window_refutation_step
from attnproof.smt.certify import search_certificate, window_refutation
from attnproof.smt.replay import replay_step
from attnproof.errors import CertificateError


@pytest.fixture
def problems(tmp_path):
    paths = {}
    for name, M in (("k3", graph_sum(named_graph("complete", 3))), ("w2", sigmoid_sum(2)),
                    ("k4", graph_sum(named_graph("complete", 4))),
                    ("b2", biased_sigmoid_sum([1, 0]))):
        p = tmp_path / f"{name}.json"
        dump_problem(M, p)
        paths[name] = str(p)
    return paths


def test_sat_writes_a_verified_witness(run_cli, problems, tmp_path):
    out = tmp_path / "fused.json"
    rc, stdout, err = run_cli("search", problems["w2"], "--atoms", "4", "--window", "1",
                              "-o", str(out), "--json")
    assert rc == 0, err
    doc = json.loads(stdout)
    assert doc["verdict"] == "sat" and doc["atoms"] == 4 and doc["verified"]
    assert "sat" in {v["result"] for v in doc["solvers"].values()}
    H = load_problem(out)
    assert len(H) == 1 and H.heads[0].distinct_keys == 4
    from attnproof.fusion import verify_head
    verify_head(sigmoid_sum(2), H.heads[0], 4, 0)


def test_unsat_names_window_and_both_solvers(run_cli, problems, tmp_path):
    out = tmp_path / "none.json"
    rc, stdout, _ = run_cli("search", problems["k3"], "--atoms", "6", "--window", "1",
                            "-o", str(out), "--json")
    assert rc == 1
    doc = json.loads(stdout)
    assert doc["verdict"] == "unsat" and doc["atoms"] is None
    assert doc["window"] == {"kind": "box", "radius": 1, "coordinates": [0, 1]}
    assert doc["frame"]["lineality"] == [[1, 1, 1]] and doc["frame"]["dependent"] == [2]
    assert {k: v["result"] for k, v in doc["solvers"].items()} == {"z3": "unsat", "cvc5": "unsat"}
    assert len(doc["smtlib_sha256"]) == 64
    assert not out.exists()


def test_text_output_says_window_and_not_a_lower_bound(run_cli, problems):
    rc, stdout, _ = run_cli("search", problems["w2"], "--atoms", "3", "--window", "0")
    assert rc == 1 and "not a lower bound" in stdout and "sha256" in stdout


def test_timeout_is_unknown_and_leaves_no_files(run_cli, problems, tmp_path):
    out = tmp_path / "out.json"
    cert = tmp_path / "out.cert"
    rc, stdout, err = run_cli("search", problems["k4"], "--atoms", "37", "--window", "2",
                              "--plain", "--timeout", "1", "-o", str(out), "--json")
    assert rc == 2, err
    assert json.loads(stdout)["verdict"] == "unknown"
    assert sorted(os.listdir(tmp_path)) == ["b2.json", "k3.json", "k4.json", "w2.json"]
    assert not cert.exists()


@pytest.mark.parametrize("argv, needle", [
    (["--atoms", "3", "--window", "x"], "--window"),
    (["--atoms", "3", "--window", "[[0]]"], "coordinates"),
    (["--atoms", "0", "--window", "1"], "positive"),
    (["--atoms", "3", "--window", "1", "--timeout", "-1"], "--timeout"),
    (["--atoms", "3", "--window", "1", "-o", "/nonexistent-folder/x.json"], "does not exist"),
    (["--window", "1"], "required"),
])
def test_bad_arguments_exit_3_with_one_line(run_cli, problems, argv, needle):
    rc, _, err = run_cli("search", problems["w2"], *argv)
    assert rc == 3 and needle in err and "Traceback" not in err


def test_biases_are_refused_clearly(run_cli, problems):
    rc, _, err = run_cli("search", problems["b2"], "--atoms", "3", "--window", "1")
    assert rc == 3 and "biases" in err and len(err.strip().splitlines()) == 1


def test_explicit_points_window(run_cli, problems):
    rc, stdout, _ = run_cli("search", problems["w2"], "--atoms", "4", "--window", "[[0,0],[1,0]]", "--json")
    doc = json.loads(stdout)
    assert rc == 0 and doc["window"] == {"kind": "points", "points": [[0, 0], [1, 0]]}


def test_minimize_reports_smallest_and_refuted_window(run_cli, problems, tmp_path):
    p = problems["k3"]
    out = tmp_path / "best.json"
    rc, stdout, err = run_cli("search", p, "--minimize", "--window", "1", "--json", "-o", str(out))
    doc = json.loads(stdout)
    assert rc == 0 and doc["atoms"] == 7 and doc["stopped"] == "refuted"
    assert [(q["k"], q["answer"]) for q in doc["queries"]] == [(6, "unsat")]
    assert doc["queries"][0]["window"]["radius"] == 1 and doc["queries"][0]["seconds"] >= 0
    assert "k = 6: unsat" not in err            # the result lists each query, once
    assert load_problem(out).heads[0].distinct_keys == 7
    assert doc["refuted_below"]["atoms"] == 6
    assert doc["refuted_below"]["window"]["radius"] == 1


# ---------------------------------------------------------------- certificates and replay

def _check(doc):
    from attnproof.checker import check_document
    return check_document(doc)


def test_refutation_certificate_is_accepted_and_replays(tmp_path, run_cli, problems):
    cert = tmp_path / "k3.cert"
    rc, _, err = run_cli("search", problems["k3"], "--atoms", "6", "--window", "1",
                         "--certificate", str(cert))
    assert rc == 1, err
    doc = json.loads(cert.read_text())
    v = _check(doc)
    # the bounds are verified; the window claim is not re-proven by the checker alone
    assert v.status == "inconclusive" and v.bounds_verified and v.trust == "window-refuted"
    assert (v.lower_bound, v.upper_bound) == (6, 7)
    assert v.window_refutations == [{"atoms": 6, "window": {"kind": "box", "radius": 1,
                                                             "coordinates": [0, 1]}}]
    step = [s for s in doc["steps"] if s["rule"] == "window_refutation"][0]
    assert set(step["solvers"]) == {"z3", "cvc5"}
    ok, msg = replay_step(step, timeout=60)
    assert ok and "z3" in msg and "cvc5" in msg
    assert replay_step(dict(step, smtlib=step["smtlib"].replace("(>= ", "(> ")))[0] is False


def test_upper_bound_certificate_from_a_witness(tmp_path, run_cli, problems):
    cert = tmp_path / "w2.cert"
    rc, _, _ = run_cli("search", problems["w2"], "--atoms", "4", "--window", "1",
                       "--certificate", str(cert))
    assert rc == 0
    v = _check(json.loads(cert.read_text()))
    assert v.status == "valid" and v.upper_bound == 4


def test_witness_with_more_atoms_keeps_the_certificate_upper_bound():
    from attnproof.fusion import reduced_form
    from attnproof.smt import fusion_from_g
    from fractions import Fraction
    M = sigmoid_sum(2)
    bigger = fusion_from_g(reduced_form(M), {(0, 0): Fraction(1), (1, 0): Fraction(1)})
    assert bigger.atoms == 6
    doc = search_certificate(M, bigger).doc
    v = _check(doc)
    assert v.status == "valid" and v.upper_bound == 4 and v.minimum == 4


def test_tampered_steps_fail_replay_or_check():
    res = search_fusion(sigmoid_sum(2), 3, 1, timeout=60)
    step = window_refutation_step(window_refutation(res))
    ok, msg = replay_step(dict(step, smtlib=step["smtlib"] + " "))
    assert not ok and "sha256" in msg
    # a query that is satisfiable, with its true hash: replay must refuse it
    sat = search_fusion(sigmoid_sum(2), 4, 1, timeout=60)
    fake = dict(step, smtlib=sat.encoding.smtlib, smtlib_sha256=sat.encoding.sha256)
    ok, msg = replay_step(fake, timeout=60)
    assert not ok and "sat" in msg
    assert replay_step({"rule": "explicit_fusion"})[0] is False


def test_only_refutations_can_be_certified():
    sat = search_fusion(sigmoid_sum(2), 4, 1, timeout=60)
    with pytest.raises(CertificateError):
        window_refutation(sat)
    unsat = search_fusion(sigmoid_sum(2), 3, 0, timeout=60)
    assert window_refutation_claim(window_refutation(unsat))["atoms"] == 3


def test_smtlib_export_matches_the_printed_hash(run_cli, problems, tmp_path):
    import hashlib
    text_file = tmp_path / "q.smt2"
    rc, stdout, _ = run_cli("search", problems["w2"], "--atoms", "4", "--window", "0",
                            "--smtlib", str(text_file), "--json")
    doc = json.loads(stdout)
    text = text_file.read_text()
    assert rc == 0 and hashlib.sha256(text.encode()).hexdigest() == doc["smtlib_sha256"]
    assert text.startswith("(set-info") and "(check-sat)" in text and "QF_LRA" in text
