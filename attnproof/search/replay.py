"""Re-run both solvers on the SMT-LIB2 text of a ``window_refutation`` step.

Called by ``attnproof check CERT --replay``.  The text is checked against its
SHA-256 first; then z3 and cvc5 run on exactly that text, each in its own
killable process, and the step is confirmed only when both answer ``unsat``.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.search.query import search_fusion
>>> from attnproof.search.certify import refutation_step
>>> step = refutation_step(search_fusion(sigmoid_sum(2), 3, 0, timeout=60))
>>> replay_step(step)[0]
True
>>> replay_step(dict(step, smtlib=step["smtlib"].replace("(>= ", "(<= ")))
(False, 'the SMT-LIB2 text does not match smtlib_sha256')
"""

from __future__ import annotations

import hashlib

from .solvers import run_solver, solver_available

__all__ = ["replay_step", "DEFAULT_REPLAY_TIMEOUT"]

DEFAULT_REPLAY_TIMEOUT = 600.0


def replay_step(step: dict, timeout: float = DEFAULT_REPLAY_TIMEOUT) -> tuple[bool, str]:
    """``(True, message)`` when z3 and cvc5 both find the step's SMT-LIB2 query unsat.

    >>> replay_step({"rule": "window_refutation", "smtlib": "x", "smtlib_sha256": "0" * 64})
    (False, 'the SMT-LIB2 text does not match smtlib_sha256')
    """
    if not isinstance(step, dict) or step.get("rule") != "window_refutation":
        return False, "not a window_refutation step"
    text, digest = step.get("smtlib"), step.get("smtlib_sha256")
    if not isinstance(text, str) or not isinstance(digest, str):
        return False, "the step has no SMT-LIB2 text or hash"
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != digest:
        return False, "the SMT-LIB2 text does not match smtlib_sha256"
    parts = []
    for name in ("z3", "cvc5"):
        if not solver_available(name):
            return False, f"{name} is not available: cannot replay"
        run = run_solver(name, text, timeout)
        if run.result != "unsat":
            why = f" ({run.reason})" if run.reason else ""
            return False, f"{name} {run.version} answered {run.result}{why}, not unsat"
        parts.append(f"{name} {run.version} unsat in {run.seconds:.2f} s")
    return True, "replayed: " + ", ".join(parts)
