"""Forged certificates that the checker must reject, checked in-process.

These tests kill mutants of the trusted checker (``python bench/mutation.py``,
``docs/checker-audit.md``): each starts from a genuine certificate or problem
and makes one false claim that a weakened rule would let through.  They use
only the checker's public entry points, so they do not depend on how the rules
are split into modules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from attnproof.checker import check_text
from attnproof.io import canonical_json

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "certificates" / "valid"
ADV = ROOT / "certificates" / "adversarial"
INDEX = json.loads((ADV / "index.json").read_text())
# The forged and malformed files of the adversarial corpus that the checker alone answers
# (no --replay, nothing optional needed); the bombs stay in the resource-limited child of
# test_checker_adversarial.py.
PLAIN = sorted(n for n, e in INDEX.items()
               if not n.startswith("bomb") and not e["args"] and not e["needs"] and e["exit"] != 3)


def _golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text())


@pytest.mark.parametrize("name", PLAIN)
def test_forged_and_malformed_files_in_process(name):
    v = check_text((ADV / name).read_text(encoding="utf-8"))
    assert v.code == INDEX[name]["exit"], v.message
    assert v.message.startswith(v.status) and v.status == {0: "valid", 1: "invalid",
                                                          2: "inconclusive"}[v.code]
