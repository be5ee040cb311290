"""The determinism lint (attnproof.certificate.lint): the producer writes one form of each
certificate, and the forms the checker accepts but the producer never writes are found here."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from attnproof.certificate.lint import lint
from attnproof.checker import check_text
from attnproof.checker.syntax import canonical_text

GOLDEN = sorted((Path(__file__).resolve().parent.parent / "certificates" / "valid").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_the_golden_certificates_are_in_the_one_form(path):
    assert lint(path.read_text()) == []


def _rebound(doc: dict) -> str:
    doc["problem_sha256"] = hashlib.sha256(canonical_text(doc["problem"]).encode()).hexdigest()
    return canonical_text(doc)


@pytest.mark.parametrize("change", ["weight 1", "bias 0", "value list", "dense key"])
def test_a_non_canonical_problem_is_the_lints_finding_not_the_checkers(change):
    """The checker binds what is embedded, in any form (soundness); the lint wants the one form."""
    path = next(p for p in GOLDEN if p.stem == ("decimal" if change == "dense key" else "w1"))
    doc = json.loads(path.read_text())
    atom = doc["problem"]["heads"][0]["atoms"][0]
    if change == "weight 1":
        atom["weight"] = 1
    elif change == "bias 0":
        atom["bias"] = 0
    elif change == "value list":
        atom["value"] = [atom["value"]]
    else:                       # a sparse key where the dimension asks for a dense list
        atom["key"] = {str(j): c for j, c in enumerate(atom["key"]) if c != 0}
    text = _rebound(doc)
    v, w = check_text(text), check_text(path.read_text())
    assert (v.status, v.lower_bound, v.upper_bound) == (w.status, w.lower_bound, w.upper_bound)
    assert v.problem_sha256 != w.problem_sha256
    assert [m for m in lint(text) if m.startswith("problem: not in canonical form")], lint(text)


def test_text_that_is_not_canonical_json_is_found():
    path = GOLDEN[0]
    assert lint(json.dumps(json.loads(path.read_text()), indent=1)) == [
        "the text is not canonical JSON (sorted keys, no spaces, one trailing newline)"]
