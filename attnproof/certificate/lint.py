"""Determinism lint of a certificate text: the checks that serve one certificate per
problem, not soundness, run by the producer's tests and not by the trusted checker.

The checker (:mod:`attnproof.checker`) accepts a problem in any form its one reader
reads (:func:`attnproof.checker.problem.read_heads`: an explicit weight 1 or bias 0,
a dense key above dimension 16, a one-component value list) and binds it by the
SHA-256 of what is embedded.  The producer writes one form only: canonical JSON text
(:func:`attnproof.io.canonical_json`) with the problem in its canonical
form (:func:`attnproof.checker.problem.canonical_problem`), so that equal problems give
byte-identical certificates and the hash that ``--problem FILE`` computes.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.certificate import build_certificate
>>> lint(build_certificate(sigmoid_sum(2)).text)
[]
>>> lint('{"problem": {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": '
...      '[{"atoms": [{"key": [0], "value": [1], "weight": 1}]}]}}')
['the text is not canonical JSON (sorted keys, no spaces, one trailing newline)', 'problem: not in canonical form: an explicit weight 1 or bias 0, a dense key above dimension 16 or a sparse one up to it, a one-component value list, or a name that is not a string']
"""

from __future__ import annotations

import json

from ..checker import canonical_problem
from ..io import canonical_json

__all__ = ["lint"]


def lint(text: str) -> list[str]:
    """What keeps ``text`` from being the producer's one form of its certificate ([] if nothing)."""
    doc = json.loads(text)
    out = []
    if canonical_json(doc) != text:
        out.append("the text is not canonical JSON (sorted keys, no spaces, one trailing newline)")
    # a problem that the format does not read raises the checker's Reject (no lint: invalid)
    if canonical_json(canonical_problem(doc["problem"])) != canonical_json(doc["problem"]):
        out.append("problem: not in canonical form: an explicit weight 1 or bias 0, a dense key above "
                   "dimension 16 or a sparse one up to it, a one-component value list, or a name that "
                   "is not a string")
    return out
