"""``attnproof check``: verify a certificate with the independent checker."""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import time
from pathlib import Path

from ..errors import AttnproofError, InputError
from .common import (EXIT_INCONCLUSIVE, EXIT_NEGATIVE, EXIT_OK, EXIT_USAGE, ProgressBar, add_common,
                     print_json)

NAME = "check"
HELP = "verify a certificate with the small independent checker"
DESCRIPTION = """\
Verify CERT with attnproof's trusted checker: standard library only, it
re-derives every claim from the problem embedded in the certificate.

exit codes: 0 valid, 1 invalid (the failing step and rule are named),
            2 inconclusive (a step beyond the checker's limits, FLINT missing for
              reduced_by_flint, window refutations not re-proven without --replay,
              or --strict and a step that trusts FLINT or SMT),
            3 usage or input error: "not a certificate: ..." for a file that is
              missing, a folder, not UTF-8, empty, truncated or not JSON (a
              broken download, never the exit 1 of a forgery); a problem file
              or a YAML file instead of a certificate; a bad --problem
The first line (and "verdict" under --json) always agrees with the exit code.

The same checker runs without attnproof: 'python -m attnproof.checker CERT',
or a folder written by 'attnproof export-checker DIR'.

examples:
  attnproof check w10.cert.json
  attnproof check w10.cert.json --problem w10.json --strict
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("certificate", metavar="CERT", help="certificate file (JSON)")
    p.add_argument("--problem", metavar="PROBLEM",
                   help="reject the certificate unless it is about this problem file")
    p.add_argument("--strict", action="store_true",
                   help="accept only fully exact certificates (trust 'exact'); others are inconclusive")
    p.add_argument("--replay", action="store_true",
                   help="re-prove each windowed refutation: re-encode it from the problem and "
                        "re-run z3 and cvc5 (needs attnproof.smt)")
    p.add_argument("--replay-timeout", metavar="SECONDS", type=float, default=None,
                   help="time budget for the whole replay (default 600); past it the verdict "
                        "is inconclusive")
    p.add_argument("--reference", action="store_true",
                   help="run the checker's reference path alone, without its fast paths "
                        "(same verdicts; also ATTNPROOF_CHECKER_REFERENCE=1)")
    p.add_argument("--max-work", metavar="OPS", type=int, default=None,
                   help="the work budget in units of at most 0.5 microseconds (default: "
                        "2,000,000 plus 1.5 per byte of the certificate); past it the verdict is "
                        "inconclusive; with OPS a certificate is read up to 16 MiB or 4 bytes per OPS")
    add_common(p)


# replay messages that say the step could not be decided (not that it is wrong)
_NOT_A_REFUTATION = ("not available", "unavailable", "answered unknown")


def replay(text: str, budget_s: float | None = None,
           progress=None) -> list[tuple[int, bool | None, str]]:
    """Replay every window_refutation and line_refutation step: ``[(step index, ok, message)]``.

    ``ok`` is None when a step could not be replayed (no solvers, time budget
    spent).  Identical steps are replayed once; the whole replay, re-encoding
    and symmetry search included, stops at ``budget_s`` seconds.  ``progress``
    (a :class:`ProgressBar`) is told ``(steps done, steps)`` as each step ends.
    """
    from ..checker.limits import REPLAY_SECONDS

    doc = json.loads(text)
    steps = [(i, s) for i, s in enumerate(doc.get("steps", []))
             if isinstance(s, dict) and s.get("rule") in ("window_refutation", "line_refutation")]
    try:
        from ..smt import replay_step
    except ImportError:
        return [(i, None, "replay unavailable (attnproof.smt.replay is not installed)")
                for i, _ in steps]
    from ..io import problem_from_dict

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
                left = deadline - time.monotonic()
                if left <= 0:
                    done[key] = (None, f"replay time budget of {budget_s:g} s spent")
                else:
                    try:
                        if use_alarm:
                            signal.setitimer(signal.ITIMER_REAL, left)
                        done[key] = replay_step(step, timeout=left, problem=problem)
                    except _Spent:
                        done[key] = (None, f"replay time budget of {budget_s:g} s spent")
                    except AttnproofError as e:
                        done[key] = (None, f"replay failed to run: {e}")
                    except MemoryError:
                        done[key] = (None, "replay ran out of memory")
                    except Exception as e:  # the replay is outside the trusted checker
                        done[key] = (None, f"replay failed to run ({type(e).__name__})")
                    finally:
                        if use_alarm:
                            signal.setitimer(signal.ITIMER_REAL, 0)
                ok, msg = done[key]
                if ok is False and any(t in msg for t in _NOT_A_REFUTATION):
                    done[key] = (None, msg)     # no solver, or a timeout: nothing was refuted
            ok, msg = done[key]
            out.append((i, ok, msg))
            if progress is not None:
                progress(len(out), len(steps))
    finally:
        if use_alarm:
            signal.signal(signal.SIGALRM, old)
    return out


def _not_a_certificate(path: str, text: str) -> None:
    """Refuse (exit 3) a YAML file or a problem file given where a certificate belongs."""
    if Path(path).suffix.lower() in (".yaml", ".yml"):
        raise InputError(f"{path}: certificates are JSON, this is a YAML file")
    head = text.lstrip()[:4096]
    if head.startswith("{") and '"attnproof-problem"' in head:
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError):     # the checker itself says why
            return
        if isinstance(doc, dict) and doc.get("format") == "attnproof-problem":
            raise InputError(f"{path}: is a problem file, not a certificate (make one with "
                             f"'attnproof prove {path} -o CERT')")


def run(args: argparse.Namespace) -> int:
    from ..checker import check_text, too_large
    from ..checker.limits import byte_limit, file_size
    from ..io import read_text_file

    work = getattr(args, "max_work", None)
    if work is not None and work < 1:
        raise InputError("--max-work must be a positive number of operations")
    budget_s = getattr(args, "replay_timeout", None)
    if budget_s is not None and not 0 < budget_s <= 86400:
        # nan, inf, 1e308 and negative budgets made the replay fail inside (or never start)
        raise InputError(f"--replay-timeout {budget_s:g}: give seconds between 0 and 86400")
    # a certificate beyond the size its work budget reads is answered unread, not replayed
    v = too_large(file_size(args.certificate), work)
    if v is not None:
        return _answer(v, args)
    try:
        text = read_text_file(args.certificate, byte_limit(work))
    except InputError as e:     # missing, a folder, not UTF-8: exit 3, as for text that is not JSON
        raise InputError(f"not a certificate: {e}") from None
    _not_a_certificate(args.certificate, text)
    expected = None
    if args.problem:
        from ..io import load_problem, problem_sha256
        expected = problem_sha256(load_problem(args.problem))
    with ProgressBar("checking the certificate", heartbeat=True):
        v = check_text(text, expected_sha256=expected, strict=args.strict, work=work,
                       reference=getattr(args, "reference", False))
    if v.status == "error":     # empty, truncated, not JSON: a broken download, not a forgery
        raise InputError(f"not a certificate: {args.certificate}: "
                         f"{v.message.removeprefix('not a certificate: ')}")
    if args.replay and v.bounds_verified and (v.window_steps or v.line_steps):
        n = len(v.window_steps) + len(v.line_steps)
        # the solvers take tens of seconds: a bar on a terminal, a line every few seconds
        # under --progress (the check above took well under one)
        with ProgressBar(f"replaying {n} SMT refutation{'' if n == 1 else 's'} with z3 and cvc5",
                         heartbeat=True) as bar:
            v = v.after_replay(replay(text, budget_s, progress=bar))
    return _answer(v, args)


def _answer(v, args: argparse.Namespace) -> int:
    """Print the verdict ``v`` (``--json``: as JSON) and return its exit code.

    A reader that stops early (``| head -c1``) cuts the text, never the exit code: a
    broken pipe made an invalid certificate exit 0."""
    code = v.code
    from ..checker import advised      # the advice the standalone checker gives too
    from ..checker.limits import file_size
    v = advised(v, file_size(args.certificate))
    with contextlib.suppress(OSError):
        if args.json:
            print_json(v.to_dict())
        else:
            print(v.message)
            for r in v.replay:
                state = {True: "ok", False: "FAILED", None: "not replayed"}[r["ok"]]
                print(f"  replay step {r['step']}: {state}: {r['message']}")
            sys.stdout.flush()
    return code if code in (EXIT_OK, EXIT_NEGATIVE, EXIT_INCONCLUSIVE) else EXIT_USAGE
