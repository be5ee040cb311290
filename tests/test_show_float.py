"""`show` on imported float heads: a summary by default, formulas only on request (--max-terms)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from attnproof.transformer.capture import random_capture, save_capture


@pytest.fixture(scope="module")
def float_problem(tmp_path_factory):
    """Three imported heads of a random layer (12 tokens, d_model 32); head 2 has zero query
    weights (constant)."""
    from attnproof.cli import main

    d = tmp_path_factory.mktemp("show")
    cap = random_capture(12, 32, 3, 8, seed=5)
    WQ, bQ = cap.W_Q.copy(), cap.b_Q.copy()
    WQ[2], bQ[2] = 0, 0
    save_capture(replace(cap, W_Q=WQ, b_Q=bQ, head_out=None), d / "c.npz")
    assert main(["import", str(d / "c.npz"), "-o", str(d / "p.json"), "-q"]) == 0
    return d / "p.json"


def test_show_summarizes_float_heads_under_5_kB(float_problem, run_cli):
    rc, out, err = run_cli("show", str(float_problem))
    assert rc == 0, err
    assert len(out.encode()) < 5000, len(out)
    assert max(len(line) for line in out.splitlines()) < 400
    assert out.startswith("3 heads: 0 (L0H0) 12 atoms, 1 (L0H1) 12 atoms, 2 (L0H2) 12 atoms "
                          "(1 distinct key)")
    assert "query dimension 31, values of dimension 32, with logit biases" in out
    assert "bits" in out and "--formulas" in out
    assert "structures: head 2: constant (one distinct key)" in out
    assert "**" not in out                       # no formula, no exponent


def test_show_prints_formulas_on_request_within_max_terms(float_problem, run_cli):
    rc, out, err = run_cli("show", str(float_problem), "--formulas", "--max-terms", "4")
    assert rc == 0, err
    # heads 0 and 1 have 12 terms, over --max-terms: counted, not printed
    assert out.count("[12-term polynomial]") >= 2 and "**" not in out
    rc, full, _ = run_cli("show", str(float_problem), "--formulas")
    assert rc == 0 and "**" in full and len(full) > 10 * len(out)


def test_show_json_summary_follows_the_schema(float_problem, run_cli):
    jsonschema = pytest.importorskip("jsonschema")
    rc, out, err = run_cli("show", str(float_problem), "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["formulas"] == [] and doc["summary"]["exponent_bits"] > 17
    assert [h["distinct_keys"] for h in doc["summary"]["heads"]] == [12, 12, 1]
    schema = json.loads((Path(__file__).resolve().parents[1] / "schemas" /
                         "cli-show.schema.json").read_text())
    jsonschema.validators.validator_for(schema)(schema).validate(doc)


def test_show_of_small_integer_keys_still_prints_formulas(tmp_path, run_cli):
    from attnproof import dump_problem, sigmoid_sum

    dump_problem(sigmoid_sum(2), tmp_path / "w2.json")
    rc, out, _ = run_cli("show", str(tmp_path / "w2.json"))
    assert rc == 0 and out.startswith("variables:") and "P/Q" in out and "summary" not in out
