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


def test_a_bogus_step_is_refused_from_its_text_alone():
    """The header and declarations of an encoding are read before any encoding or symmetry
    group is built: a short bogus text is refused without re-encoding anything."""
    from attnproof.smt import replay as R

    doc = json.loads(GOLDEN.read_text())
    step = next(s for s in doc["steps"] if s["rule"] == "window_refutation")
    assert R.header_mismatch(step) is None
    text = step["smtlib"]
    first, rest = text.split("\n", 1)
    for bad, why in ((dict(step, smtlib="(assert false)(check-sat)\n"), "does not start"),
                     (dict(step, atoms=5), "encodes at most 6 atoms"),
                     (dict(step, smtlib=first.replace("9 window", "10 window") + "\n" + rest),
                      "window points, the window at most 9"),
                     (dict(step, smtlib=first + "\n(check-sat)\n"), "does not declare")):
        assert why in R.header_mismatch(bad), why
        assert R.encoding_options_of(bad, object()) is None      # nothing was re-encoded


def test_one_problem_is_reduced_once_per_replay(monkeypatch):
    from attnproof.families import graph_sum, named_graph
    from attnproof.smt import replay as R

    calls = []
    import attnproof.fusion as F
    real = F.reduced_form
    monkeypatch.setattr(F, "reduced_form", lambda M: calls.append(M) or real(M))
    M = graph_sum(named_graph("complete", 3))
    step = next(s for s in json.loads(GOLDEN.read_text())["steps"]
                if s["rule"] == "window_refutation")
    assert R.encoding_options_of(step, M) is not None
    assert R.encoding_options_of(dict(step), M) is not None
    assert len(calls) <= 1
