"""``attnproof check``: verify a certificate with the independent checker."""

from __future__ import annotations

import argparse
import contextlib
import sys

from ..errors import InputError
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
                   help="kept for old scripts: the checker has one path (every rule one "
                        "implementation), so this changes nothing")
    p.add_argument("--max-work", metavar="OPS", type=int, default=None,
                   help="the work budget in units of at most 0.5 microseconds (default: "
                        "2,000,000 plus 1.5 per byte of the certificate); past it the verdict is "
                        "inconclusive; with OPS a certificate is read up to 16 MiB or 4 bytes per OPS")
    add_common(p)


def run(args: argparse.Namespace) -> int:
    from ..checking import after_replay, check_certificate, read_certificate, replay_certificate
    from ..io import load_problem, problem_sha256

    work = getattr(args, "max_work", None)
    if work is not None and work < 1:
        raise InputError("--max-work must be a positive number of operations")
    budget_s = getattr(args, "replay_timeout", None)
    if budget_s is not None and not 0 < budget_s <= 86400:
        # nan, inf, 1e308 and negative budgets made the replay fail inside (or never start)
        raise InputError(f"--replay-timeout {budget_s:g}: give seconds between 0 and 86400")
    # a certificate beyond the size its work budget reads is answered unread, not replayed
    text = read_certificate(args.certificate, work)
    if not isinstance(text, str):
        return _answer(text, args)
    expected = problem_sha256(load_problem(args.problem)) if args.problem else None
    with ProgressBar("checking the certificate", heartbeat=True):
        v = check_certificate(text, expected_sha256=expected, strict=args.strict, work=work)
    if v.status == "error":     # empty, truncated, not JSON: a broken download, not a forgery
        raise InputError(f"not a certificate: {args.certificate}: "
                         f"{v.message.removeprefix('not a certificate: ')}")
    if args.replay and v.bounds_verified and (v.window_steps or v.line_steps):
        n = len(v.window_steps) + len(v.line_steps)
        # the solvers take tens of seconds: a bar on a terminal, a line every few seconds
        # under --progress (the check above took well under one)
        with ProgressBar(f"replaying {n} SMT refutation{'' if n == 1 else 's'} with z3 and cvc5",
                         heartbeat=True) as bar:
            v = after_replay(v, replay_certificate(text, budget_s, progress=bar))
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
