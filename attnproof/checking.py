"""Checking a certificate: read it, run the trusted checker, replay its SMT refutations.

The trusted checker (:mod:`attnproof.checker`) decides every claim it can from the
problem embedded in the certificate; what it cannot decide alone, a window or line
refutation (trust ``window-refuted``, ``line-refuted``), is re-proven here by
re-encoding the query from the problem and running z3 and cvc5 again
(:func:`replay_certificate`).  ``attnproof check`` and :func:`attnproof.check` both
call :func:`check_certificate`; the command line adds its advice and prints.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.certificate import build_certificate
>>> check_certificate(build_certificate(sigmoid_sum(2)).text).message
'valid: lower bound 4, upper bound 4, trust exact'
"""

from __future__ import annotations

import json
import signal
import time
from dataclasses import replace
from typing import Any, Callable

from .checker import Verdict, check_text, not_a_certificate, too_large
from .checker.limits import REPLAY_SECONDS, byte_limit, file_size
from .errors import AttnproofError, InputError
from .io import problem_from_dict, read_text_file

__all__ = ["read_certificate", "check_certificate", "replay_certificate", "after_replay"]

# replay messages that say the step could not be decided (not that it is wrong)
_NOT_A_REFUTATION = ("not available", "unavailable", "answered unknown")


def read_certificate(path: str, work: int | None = None) -> str | Verdict:
    """The text of the certificate file ``path``, or the checker's verdict on a file past
    the size that the work budget ``work`` reads (answered unread: reading up to the
    512 MiB file limit took a gigabyte of memory).

    A file that cannot be a certificate is an :class:`InputError` ("not a certificate:
    ..."): missing, a folder, not UTF-8; a YAML file; a problem file (with the command
    that makes a certificate of it).
    """
    big = too_large(file_size(path), work)
    if big is not None:
        return big
    try:
        text = read_text_file(path, byte_limit(work))
    except InputError as e:     # missing, a folder, not UTF-8: exit 3, as for text that is not JSON
        raise InputError(f"not a certificate: {e}") from None
    why = not_a_certificate(path, text)
    if why is not None:
        raise InputError(why)
    return text


def check_certificate(text: str, *, expected_sha256: str | None = None, strict: bool = False,
                      work: int | None = None, reference: bool = False, replay: bool = False,
                      replay_timeout: float | None = None,
                      progress: Callable[[int, int], Any] | None = None) -> Verdict:
    """The checker's verdict on the certificate ``text`` and, with ``replay``, after its
    window and line refutations are re-proven (when every bound step was verified).

    ``work``: the checker's work budget (None: the default, linear in the text's length);
    ``reference``: ignored (kept for old callers: the checker has one path); ``replay_timeout``: seconds for
    the whole replay (default ``REPLAY_SECONDS``); ``progress(done, steps)`` as each
    replayed step ends.  Text that is not JSON at all gives the status ``error``.
    """
    v = check_text(text, expected_sha256=expected_sha256, strict=strict, work=work)
    if replay and v.bounds_verified and (v.window_steps or v.line_steps):
        v = after_replay(v, replay_certificate(text, replay_timeout, progress=progress))
    return v


def after_replay(self: Verdict, results: list) -> Verdict:
    """The verdict ``self`` once the window refutations were replayed (a replay runs the solvers
    outside the trusted checker; the checker itself never calls valid what waits for one).

    ``results``: ``[(step index, ok, message)]`` with ``ok`` True (re-proven),
    False (refuted: the certificate is invalid) or None (could not be
    replayed: the verdict stays inconclusive).

    >>> v = Verdict("inconclusive", 2, "inconclusive: ...", lower_bound=6, upper_bound=7,
    ...             trust="window-refuted", bounds_verified=True, window_steps=[5],
    ...             window_refutations=[{"atoms": 6, "window": {}}])
    >>> after_replay(v, [(5, True, "unsat")]).message
    'valid: lower bound 6, upper bound 7, trust window-refuted; 1 window refutation re-proven by replay'
    >>> w = after_replay(v, [(5, False, "z3 answered sat")])
    >>> w.status, w.code, w.message
    ('invalid', 1, 'invalid: step 5 (window_refutation): replay failed: z3 answered sat')
    """
    rep = [{"step": i, "ok": ok, "message": m} for i, ok, m in results]
    needed = list(self.window_steps) + list(self.line_steps)
    if not self.bounds_verified or not needed:
        return replace(self, replay=rep)
    bad = [(i, m) for i, ok, m in results if ok is False]
    if bad:
        i, m = bad[0]
        rule = "line_refutation" if i in self.line_steps else "window_refutation"
        return replace(self, status="invalid", code=1, replay=rep, step=i,
                       rule=rule, bounds_verified=False,
                       message=f"invalid: step {i} ({rule}): replay failed: {m}")
    done = {i for i, ok, _ in results if ok is True}
    if not set(needed) <= done:
        why = next((m for _, ok, m in results if ok is None), "not replayed")
        what = "window refutations" if not self.line_steps else "SMT refutations"
        return replace(self, replay=rep, message=f"inconclusive: {self._exact_text()}, but "
                       f"the {what} are not re-proven ({why})")
    out = replace(self, replay=rep, windows_verified=True)
    if self.strict and self.trust != "exact":
        return out
    out.status, out.code = "valid", 0
    out.message = f"valid: {self._bounds_text()}; {self._refutations()} re-proven by replay"
    return out


def replay_certificate(text: str, budget_s: float | None = None,
                       progress: Callable[[int, int], Any] | None = None
                       ) -> list[tuple[int, bool | None, str]]:
    """Replay every window_refutation and line_refutation step: ``[(step index, ok, message)]``.

    ``ok`` is None when a step could not be replayed (no solvers, time budget
    spent).  Identical steps are replayed once; the whole replay, re-encoding
    and symmetry search included, stops at ``budget_s`` seconds.  ``progress``
    is told ``(steps done, steps)`` as each step ends.
    """
    doc = json.loads(text)
    steps = [(i, s) for i, s in enumerate(doc.get("steps", []))
             if isinstance(s, dict) and s.get("rule") in ("window_refutation", "line_refutation")]
    try:
        from .smt import replay_step    # z3 and cvc5: absent from a bare install
    except ImportError:
        return [(i, None, "replay unavailable (attnproof.smt.replay is not installed)")
                for i, _ in steps]
    try:
        problem = problem_from_dict(doc["problem"])
    except AttnproofError as e:
        return [(i, None, f"replay cannot read the problem: {e}") for i, _ in steps]
    budget_s = REPLAY_SECONDS if budget_s is None else budget_s
    deadline = time.monotonic() + budget_s

    class _Spent(Exception):
        pass

    def _alarm(signum, frame):
        raise _Spent()

    use_alarm = hasattr(signal, "setitimer")
    try:
        old = signal.signal(signal.SIGALRM, _alarm) if use_alarm else None
    except ValueError:                      # not the main thread: solver timeouts only
        use_alarm, old = False, None
    done: dict = {}
    out = []
    try:
        for i, step in steps:
            key = json.dumps([step.get("rule"), step.get("smtlib_sha256"), step.get("atoms"),
                              step.get("window"), step.get("directions")], sort_keys=True)
            if key not in done:
                done[key] = _replay_one(replay_step, step, problem, deadline, budget_s,
                                        use_alarm, _Spent)
            ok, msg = done[key]
            out.append((i, ok, msg))
            if progress is not None:
                progress(len(out), len(steps))
    finally:
        if use_alarm:
            signal.signal(signal.SIGALRM, old)
    return out


def _replay_one(replay_step: Callable, step: dict, problem, deadline: float, budget_s: float,
                use_alarm: bool, spent: type[Exception]) -> tuple[bool | None, str]:
    """One step's replay within what is left of the budget: ``(ok, message)``, ``ok``
    None when nothing was refuted (no solver, a timeout, the replay failed to run)."""
    left = deadline - time.monotonic()
    if left <= 0:
        return None, f"replay time budget of {budget_s:g} s spent"
    try:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, left)
        ok, msg = replay_step(step, timeout=left, problem=problem)
    except spent:
        return None, f"replay time budget of {budget_s:g} s spent"
    except AttnproofError as e:
        return None, f"replay failed to run: {e}"
    except MemoryError:
        return None, "replay ran out of memory"
    except Exception as e:  # the replay is outside the trusted checker
        return None, f"replay failed to run ({type(e).__name__})"
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
    if ok is False and any(t in msg for t in _NOT_A_REFUTATION):
        return None, msg     # no solver, or a timeout: nothing was refuted
    return ok, msg
