"""``attnproof numcheck`` and ``attnproof eval`` from the command line."""

from __future__ import annotations

import json
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

from attnproof.families import biased_sigmoid_sum, sigmoid_sum
from attnproof.fusion import fuse
from attnproof.io import canonical_json, problem_to_dict
from attnproof.heads import Atom, Head, MultiHead


def write(path, M: MultiHead) -> str:
    path.write_text(canonical_json(problem_to_dict(M)))
    return str(path)


@pytest.fixture
def w3(tmp_path):
    M = sigmoid_sum(3)
    h = fuse(M).to_head()
    atoms = list(h.atoms)
    a = atoms[5]
    atoms[5] = Atom(a.key, (a.value[0] + F(1, 10**30),), a.bias, a.weight)
    return {"problem": write(tmp_path / "w3.json", M),
            "fused": write(tmp_path / "f3.json", MultiHead((h,))),
            "bad": write(tmp_path / "bad.json", MultiHead((Head(tuple(atoms)),))),
            "dir": tmp_path}


def test_numcheck_consistent_exit_0(run_cli, w3):
    rc, out, err = run_cli("numcheck", w3["problem"], w3["fused"], "--samples", "4")
    assert rc == 0, err
    assert "consistent at 4 queries" in out and "up to 100 digits" in out and "not a proof" in out


def test_numcheck_refuted_exit_1_reports_the_query(run_cli, w3):
    rc, out, _ = run_cli("numcheck", w3["problem"], w3["bad"], "--json", "--seed", "2")
    assert rc == 1
    doc = json.loads(out)
    assert doc["verdict"] == "refuted" and doc["rigorous"] is True
    q = [F(s) for s in doc["refutation"]["query"]]
    assert len(q) == 3 and all(-2 <= x <= 2 for x in q)
    rc, text, _ = run_cli("numcheck", w3["problem"], w3["bad"], "--seed", "2")
    assert rc == 1 and "refuted (rigorous)" in text
    assert ", ".join(doc["refutation"]["query"]) in text


def test_numcheck_undecided_exit_2(run_cli, tmp_path):
    big = 10**60
    M = MultiHead((Head((Atom((1,), (big,)), Atom((0,), (0,)))),
                   Head((Atom((1,), (-big,)), Atom((0,), (0,))))))
    zero = MultiHead((Head((Atom((0,), (0,)),)),))
    p, f = write(tmp_path / "p.json", M), write(tmp_path / "z.json", zero)
    rc, out, _ = run_cli("numcheck", p, f, "--digits", "20", "--max-digits", "20", "--samples", "2")
    assert rc == 2 and "undecided" in out
    rc, out, _ = run_cli("numcheck", p, f, "--digits", "20", "--max-digits", "150", "--samples", "2")
    assert rc == 0


def test_numcheck_output_ignores_global_mpmath_precision(run_cli, w3):
    old = mpmath.mp.dps
    try:
        mpmath.mp.dps = 5
        a = run_cli("numcheck", w3["problem"], w3["bad"], "--json")
        mpmath.mp.dps = 400
        b = run_cli("numcheck", w3["problem"], w3["bad"], "--json")
    finally:
        mpmath.mp.dps = old

    def same(r):           # everything but the wall-clock time
        return r[0], {k: v for k, v in json.loads(r[1]).items() if k != "elapsed_s"}, r[2]
    assert same(a) == same(b) and a[0] == 1


def test_numcheck_usage_errors_exit_3(run_cli, w3, tmp_path):
    rc, _, err = run_cli("numcheck", w3["problem"])
    assert rc == 3 and "FUSED" in err
    rc, _, err = run_cli("numcheck", w3["problem"], w3["problem"])
    assert rc == 3 and "exactly one head" in err
    other = write(tmp_path / "w2.json", MultiHead((fuse(sigmoid_sum(2)).to_head(),)))
    rc, _, err = run_cli("numcheck", w3["problem"], other)
    assert rc == 3 and "dimension" in err
    rc, _, err = run_cli("numcheck", w3["problem"], str(tmp_path / "missing.json"))
    assert rc == 3 and "no such file" in err
    rc, _, _ = run_cli("numcheck", w3["problem"], w3["fused"], "--digits", "0")
    assert rc == 3
    assert len(err.strip().splitlines()) == 1


def test_eval_random_float_and_balls_agree(run_cli, w3):
    rc, out, _ = run_cli("eval", w3["problem"], "--random", "5", "--seed", "4", "--json")
    assert rc == 0
    doc = json.loads(out)
    assert doc["rigorous"] is False and "screening" in doc["note"]
    rc, out, _ = run_cli("eval", w3["problem"], "--random", "5", "--seed", "4", "--digits", "30", "--json")
    balls = json.loads(out)
    assert balls["rigorous"] is True and len(balls["values"]) == 5
    for f, b in zip(doc["values"], balls["values"]):
        mid = float(b[0].strip("[").split(" ")[0])
        assert abs(f[0] - mid) <= 1e-13


def test_eval_queries_file_output_and_kernels(run_cli, tmp_path):
    M = biased_sigmoid_sum([F(1, 2), -1])
    p = write(tmp_path / "b.json", M)
    Q = np.array([[0.0, 0.0], [1.5, -2.0], [1e4, -1e4]])
    qf = tmp_path / "q.npy"
    np.save(qf, Q)
    outs = []
    for kernel in ("numba", "numpy"):
        o = tmp_path / f"out_{kernel}.npy"
        rc, text, _ = run_cli("eval", p, "--queries", str(qf), "--kernel", kernel, "-o", str(o))
        assert rc == 0 and "written to" in text
        outs.append(np.load(o))
    assert outs[0].shape == (3, 1)
    assert np.max(np.abs(outs[0] - outs[1])) <= 1e-14
    expected0 = 1 / (1 + np.exp(-0.5)) + 1 / (1 + np.exp(1.0))
    assert abs(outs[0][0, 0] - expected0) <= 1e-15
    assert abs(outs[0][2, 0] - 1.0) <= 1e-15          # sigma(1e4 + 1/2) + sigma(-1e4 - 1)
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_eval_input_errors_exit_3(run_cli, w3, tmp_path):
    p = w3["problem"]
    bad = tmp_path / "bad.npy"
    np.save(bad, np.zeros((2, 2)))
    rc, _, err = run_cli("eval", p, "--queries", str(bad))
    assert rc == 3 and "shape" in err
    np.save(bad, np.array([[np.inf, 0, 0]]))
    rc, _, err = run_cli("eval", p, "--queries", str(bad))
    assert rc == 3 and "infinite" in err
    obj = tmp_path / "obj.npy"
    np.save(obj, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    rc, _, err = run_cli("eval", p, "--queries", str(obj))
    assert rc == 3 and "npy" in err
    junk = tmp_path / "junk.npy"
    junk.write_text("not numpy")
    rc, _, err = run_cli("eval", p, "--queries", str(junk))
    assert rc == 3
    rc, _, _ = run_cli("eval", p)
    assert rc == 3
    rc, _, err = run_cli("eval", p, "--random", "2", "-o", str(tmp_path))
    assert rc == 3 and "directory" in err


# ---- numcheck CERT -----------------------------------------------------------------------

def _cert(tmp_path, M, name="c.json", edit=None):
    from attnproof.certificate import build_certificate

    doc = json.loads(build_certificate(M).text)
    if edit is not None:
        edit(doc)
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_numcheck_certificate_with_explicit_fusion(run_cli, tmp_path):
    p = _cert(tmp_path, sigmoid_sum(3))
    rc, out, _ = run_cli("numcheck", p, "--samples", "3", "--json")
    assert rc == 0
    doc = json.loads(out)
    assert doc["verdict"] == "consistent" and doc["failed_checks"] == 0
    assert any("explicit_fusion" in c["check"] and c["ok"] for c in doc["checks"])
    assert doc["ball_check"]["checked"] == 3


def test_numcheck_certificate_with_a_wrong_fusion_value_is_refuted(run_cli, tmp_path):
    def edit(doc):
        step = [s for s in doc["steps"] if s["rule"] == "explicit_fusion"][0]
        step["head"]["atoms"][2]["value"] = "1000000000000000000000000000001/1000000000000000000000000000000"

    p = _cert(tmp_path, sigmoid_sum(3), edit=edit)
    rc, out, _ = run_cli("numcheck", p, "--samples", "4")
    assert rc == 1 and "refuted (rigorous" in out and "query (exact)" in out


def test_numcheck_certificate_binding_and_upper_claim(run_cli, tmp_path):
    def bad_hash(doc):
        doc["problem_sha256"] = ("0" if doc["problem_sha256"][0] != "0" else "1") + doc["problem_sha256"][1:]

    rc, out, _ = run_cli("numcheck", _cert(tmp_path, sigmoid_sum(2), "h.json", bad_hash), "--samples", "2")
    assert rc == 1 and "[BAD] problem_sha256" in out

    def bad_claim(doc):
        doc["claims"]["upper_bound"] = 3

    rc, out, _ = run_cli("numcheck", _cert(tmp_path, sigmoid_sum(2), "u.json", bad_claim), "--samples", "2")
    assert rc == 1 and "claimed upper bound 3" in out


def test_numcheck_certificate_without_explicit_fusion(run_cli, tmp_path):
    rc, out, _ = run_cli("numcheck", _cert(tmp_path, sigmoid_sum(17)), "--samples", "2", "--digits", "30")
    assert rc == 0
    assert "two independent evaluators" in out and "product_fusion" in out and "not built" in out

    def to_product(doc):
        doc["steps"] = [s for s in doc["steps"] if s["rule"] != "explicit_fusion"] + [{"rule": "product_fusion"}]

    rc, out, _ = run_cli("numcheck", _cert(tmp_path, sigmoid_sum(3), "p.json", to_product), "--samples", "2",
                         "--json")
    doc = json.loads(out)
    assert rc == 0 and any("product_fusion rule (instantiated)" in c["check"] for c in doc["checks"])


def test_numcheck_certificate_against_a_given_fused_file(run_cli, tmp_path, w3):
    cert = _cert(tmp_path, sigmoid_sum(3))
    rc, _, _ = run_cli("numcheck", cert, w3["bad"], "--samples", "4")
    assert rc == 1
    rc, _, _ = run_cli("numcheck", cert, w3["fused"], "--samples", "2")
    assert rc == 0
    rc, _, err = run_cli("numcheck", w3["problem"], cert)
    assert rc == 3 and "not a certificate" in err


def test_numcheck_certificate_input_errors(run_cli, tmp_path):
    def broken(doc):
        doc["problem"]["heads"][0]["atoms"][0]["value"] = "NaN"

    rc, _, err = run_cli("numcheck", _cert(tmp_path, sigmoid_sum(2), "n.json", broken))
    assert rc == 3 and "embedded problem" in err
