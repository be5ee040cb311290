"""``check --replay`` ties a window refutation's SMT-LIB2 text to the certificate's problem."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

pytest.importorskip("z3")
pytest.importorskip("cvc5")

GOLDEN = Path(__file__).resolve().parents[1] / "certificates" / "valid" / "k3-window.json"


def _with_text(doc: dict, text: str) -> dict:
    doc = json.loads(json.dumps(doc))
    for step in doc["steps"]:
        if step["rule"] == "window_refutation":
            step["smtlib"] = text
            step["smtlib_sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return doc


def test_golden_refutation_replays_against_its_problem(run_cli):
    rc, out, _ = run_cli("check", str(GOLDEN), "--replay")
    assert rc == 0 and "re-encoded from the problem" in out


def test_a_text_that_is_not_the_problems_encoding_fails_replay(tmp_path, run_cli):
    doc = json.loads(GOLDEN.read_text())
    step = next(s for s in doc["steps"] if s["rule"] == "window_refutation")
    # still unsat for both solvers and still hash-consistent, but not this problem's query
    tampered = _with_text(doc, step["smtlib"] + "(assert false)\n")
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered))
    rc, out, _ = run_cli("check", str(path))
    assert rc == 2                       # without --replay a window claim is not verified
    rc, out, _ = run_cli("check", str(path), "--replay")
    assert rc == 1 and "not an encoding of the certificate's problem" in out
