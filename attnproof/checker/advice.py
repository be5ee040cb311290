"""The command lines' advice on a verdict (``attnproof check`` and ``python -m
attnproof.checker``): the checker core states the verdict only, and both command lines
add the same advice, so that their answers agree (docs/certificates.md §1).

>>> from attnproof.checker import Verdict
>>> advised(Verdict("inconclusive", 2, "inconclusive: x: the check needs more than 5 "
...                 "operations (the work budget of this certificate)")).message
'inconclusive: x: the check needs more than 5 operations (the work budget of this certificate; --max-work raises it)'
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from dataclasses import replace

from .limits import BYTES_PER_WORK, MAX_FILE_BYTES
from .syntax import BUDGET_TEXT


def advised(v, nbytes: int = 0):
    """The verdict ``v`` with the command lines' advice (``attnproof check`` and this one; the
    checker core states the verdict only): a certificate of ``nbytes`` bytes past what its
    budget reads names the ``--max-work`` that reads it, a check past its work budget
    ``--max-work``, one that waits for refutations ``--replay``."""
    m, n = v.message, len(v.window_steps) + len(v.line_steps)
    if v.code != 2:
        return v
    if v.work == 0 and nbytes and m.startswith("inconclusive: the certificate has "):
        m += (f": '--max-work {-(-nbytes // BYTES_PER_WORK)}' reads it" if nbytes <= MAX_FILE_BYTES
              else f": no --max-work reads more than {MAX_FILE_BYTES:,}")
    elif m.endswith(f"({BUDGET_TEXT})"):
        m = m[:-1] + "; --max-work raises it)"
    elif v.bounds_verified and n and not v.replay:
        m += f" ('attnproof check --replay' re-proves {'it' if n == 1 else 'them'} with z3 and cvc5)"
    return replace(v, message=m)


def not_a_certificate(path: str, text: str) -> str | None:
    """Why the file ``path`` of ``text`` is no certificate but a file of another kind (a
    YAML file, a problem file), for a usage error; None when it may be a certificate.

    >>> not_a_certificate("w4.json", '{"format": "attnproof-problem", "version": 1}')
    "w4.json: is a problem file, not a certificate (make one with 'attnproof prove w4.json -o CERT')"
    """
    if os.path.splitext(path)[1].lower() in (".yaml", ".yml"):
        return f"{path}: certificates are JSON, this is a YAML file"
    head = text.lstrip()[:4096]
    if head.startswith("{") and '"attnproof-problem"' in head:
        with suppress(ValueError, RecursionError):      # not JSON: the checker itself says why
            if isinstance(doc := json.loads(text), dict) and doc.get("format") == "attnproof-problem":
                return f"{path}: is a problem file, not a certificate (make one with 'attnproof prove {path} -o CERT')"
    return None
