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


LINES = GOLDEN.parent / "k3-lines.json"


def _line_doc(edit) -> dict:
    doc = json.loads(LINES.read_text())
    step = next(s for s in doc["steps"] if s["rule"] == "line_refutation")
    edit(step)
    return doc


def _check(tmp_path, run_cli, doc, *args):
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(doc))
    return run_cli("check", str(path), *args)


def test_the_golden_line_refutation_records_its_options_and_replays(run_cli):
    step = next(s for s in json.loads(LINES.read_text())["steps"] if s["rule"] == "line_refutation")
    assert "contraction" in step["options"] and step["contraction_bounds"] == [3, 3, 3]
    rc, out, _ = run_cli("check", str(LINES), "--replay")
    assert rc == 0 and "re-encoded from the problem" in out


def test_a_tampered_contraction_bound_fails_replay(tmp_path, run_cli):
    # the recorded number alone: the form is fine, so only the replay can tell
    doc = _line_doc(lambda s: s["contraction_bounds"].__setitem__(0, 4))
    rc, _, _ = _check(tmp_path, run_cli, doc)
    assert rc == 2                       # line-refuted: waits for --replay
    rc, out, _ = _check(tmp_path, run_cli, doc, "--replay")
    assert rc == 1 and "contraction_bounds [4, 3, 3] are not those of the problem" in out


def test_a_text_with_a_weaker_contraction_bound_fails_replay(tmp_path, run_cli):
    # the number in the query and the record changed together, the hash recomputed: the
    # replay derives 3 from the problem and refuses both
    def edit(step):
        text = step["smtlib"].replace("; contraction bounds (THEORY Lemma 13.2): 3 3 3",
                                      "; contraction bounds (THEORY Lemma 13.2): 2 3 3")
        head, tail = text.split("; contraction bounds", 1)
        assert " 0) 3))" in tail.split("\n")[1]       # the first direction's count
        tail = tail.replace(" 0) 3))", " 0) 2))", 1)
        text = head + "; contraction bounds" + tail
        step["smtlib"] = text
        step["smtlib_sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
        step["contraction_bounds"][0] = 2
    doc = _line_doc(edit)
    rc, out, _ = _check(tmp_path, run_cli, doc, "--replay")
    assert rc == 1 and "contraction_bounds [2, 3, 3] are not those of the problem" in out
    # the record left at 3, only the query weakened: not the problem's encoding
    step = next(s for s in doc["steps"] if s["rule"] == "line_refutation")
    step["contraction_bounds"] = [3, 3, 3]
    rc, out, _ = _check(tmp_path, run_cli, doc, "--replay")
    assert rc == 1 and "not the line query of the certificate's problem" in out


def test_a_line_refutation_without_its_options_is_matched_against_the_older_encodings(tmp_path,
                                                                                      run_cli):
    from attnproof.families import graph_sum, named_graph
    from attnproof.smt.replay import line_options_of

    M = graph_sum(named_graph("complete", 3))
    doc = _line_doc(lambda s: (s.pop("options"), s.pop("contraction_bounds")))
    step = next(s for s in doc["steps"] if s["rule"] == "line_refutation")
    assert line_options_of(step, M) is None    # its text has the contraction counts
    rc, out, _ = _check(tmp_path, run_cli, doc, "--replay")
    assert rc == 1 and "not the line query" in out
