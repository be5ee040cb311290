"""``attnproof prove``: lower and upper bounds with a machine-checkable certificate."""

from __future__ import annotations

import argparse
import sys

from .common import (EXIT_OK, EXPLICIT_FUSION_LIMIT, ProgressBar, add_common, add_executor_options,
                     add_max_atoms, executor_spec,
                     positive_int, print_json)

NAME = "prove"
DEFAULT_LINES_TIMEOUT = 120.0    # attnproof.smt.DEFAULT_LINES_TIMEOUT (not imported: --help stays light)
MAX_AUTO_LINE_POINTS = 64        # attnproof.smt.MAX_AUTO_LINE_POINTS
HELP = "prove lower and upper atom bounds and write a certificate"
DESCRIPTION = """\
Prove the lower bound (as 'attnproof bound') and an upper bound (the best
verified fusion of 'attnproof fuse', embedded in the certificate, or the
product fusion counted without building it), and write a
certificate that 'attnproof check' re-verifies with a small independent
checker.  The certificate is checked before it is written; identical inputs
give byte-identical certificates.  Format: docs/certificates.md.

minimum is the proven minimum atom count when the bounds meet, else null.

line refutations (THEORY §12): when a gap remains and the reduced denominator
has binomial factors 1 + c·x^g, prove asks the windowless line query with z3 and
cvc5 (every 'unsat' is a lower bound for every fusion), within --lines-timeout
seconds in all (default %(default_lines)s).  A lower bound raised this way has trust
line-refuted: 'attnproof check CERT --replay' re-solves it, and only then is the
certificate valid.  It is not asked when the exact steps close the gap, for
problems with biases, when the lower bound exceeds %(auto)s points (then
'--lines' asks it anyway) or when z3 or cvc5 is not installed; '--no-lines'
turns it off.

limits: the fusion is built only when its size, estimated before allocation,
is within --max-atoms, and embedded when it has at most
--explicit-fusion-limit atoms (a large embedded fusion makes a large
certificate that takes longer to check).

examples:
  attnproof prove w10.json                     # the bounds only
  attnproof prove w10.json -o w10.cert.json
  attnproof prove w10.json -o - | attnproof check /dev/stdin
  attnproof prove w1000.json -o w1000.cert.json --json
  attnproof prove k3.json -o k3.cert.json      # minimum 7 by a line refutation
  attnproof check k3.cert.json --replay        # re-solves it: valid
  attnproof prove c5.json --lines-timeout 600  # more time for the line queries
  attnproof prove c4.json --no-lines           # exact steps only (lower bound 14)
""".replace("%(default_lines)s", f"{DEFAULT_LINES_TIMEOUT:g}").replace("%(auto)s",
                                                                        str(MAX_AUTO_LINE_POINTS))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("problem", metavar="PROBLEM", help="problem file (JSON, or YAML by extension)")
    p.add_argument("-o", "--output", metavar="CERT",
                   help="certificate file to write ('-': the certificate on standard output; "
                        "without -o the bounds are printed and no certificate is kept)")
    p.add_argument("--explicit", action="store_true",
                   help="list every vertex of the Newton polytope (one block) instead of counting "
                        "blocks structurally")
    p.add_argument("--explicit-fusion-limit", type=positive_int, default=EXPLICIT_FUSION_LIMIT,
                   metavar="N",
                   help=f"embed the best verified fusion when it has at most N atoms (default "
                        f"{EXPLICIT_FUSION_LIMIT}); above, the upper bound is the product fusion, "
                        f"which the checker counts without building it")
    lines = p.add_mutually_exclusive_group()
    lines.add_argument("--lines", action="store_true",
                       help="ask the line query (THEORY §12) even above "
                            f"{MAX_AUTO_LINE_POINTS} points, and fail (exit 3) when it does not "
                            "apply; by default it is asked when a gap remains and it applies")
    lines.add_argument("--no-lines", action="store_true",
                       help="do not ask the line query: exact steps only")
    p.add_argument("--lines-timeout", type=float, default=DEFAULT_LINES_TIMEOUT, metavar="S",
                   help=f"seconds for the line queries in all (default {DEFAULT_LINES_TIMEOUT:g})")
    add_max_atoms(p)
    add_common(p)
    add_executor_options(p)


def ball_check(M, head) -> None:
    """A quick rigorous ball comparison of the explicit fusion, when the numeric module is present."""
    try:
        from ..numeric import quick_ball_check
    except ImportError:
        return
    from ..errors import AlgebraError

    res = quick_ball_check(M, head)
    if getattr(res, "verdict", None) == "refuted":
        raise AlgebraError("the explicit fusion is refuted by ball arithmetic (internal error)")


def run(args: argparse.Namespace) -> int:
    from ..io import paused_gc

    # the command's large structures (problem, bound, certificate text, the checker's
    # copy) are acyclic: reference counting frees them, and the cyclic collector would
    # only rescan millions of live objects (a third of the time on W_100000)
    with paused_gc():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from ..certificate import build_certificate
    from ..parallel import mapper
    from ..certificate import check_own, waits_for_replay
    from ..checker import check_text, too_large
    from ..errors import CertificateError, InputError, LimitError, SolverError
    from ..io import atomic_write_text, load_problem

    t = args.lines_timeout
    if not (t > 0) or t > 86400:
        raise InputError(f"--lines-timeout {t:g}: give seconds between 0 and 86400")
    M = load_problem(args.problem)
    with ProgressBar("proving: factors and bounds", heartbeat=True) as bar:
        cert = build_certificate(M, explicit=args.explicit, max_atoms=args.max_atoms,
                                 explicit_fusion_limit=args.explicit_fusion_limit, progress=bar,
                                 mapper=mapper(executor_spec(args)))
    if cert.fusion is not None:
        with ProgressBar("ball check of the fusion", heartbeat=True):
            ball_check(M, cert.fusion.to_head())
    for attempt in range(2):
        text = cert.text
        lines = None
        skipped = None            # why the line query was not asked (a note), when it was not
        if cert.lower.value != cert.upper and not args.no_lines:
            from ..smt import line_obstacle

            skipped = line_obstacle(M, cert, forced=args.lines, max_points=MAX_AUTO_LINE_POINTS)
            if skipped is None:
                try:
                    text, lines = _with_lines(M, cert, args)
                except (LimitError, InputError, SolverError) as e:
                    if args.lines:          # asked for: its limit is the answer
                        raise
                    skipped = f"{e} (a limit of the line query; the bounds stand without it)"
        with ProgressBar("checking the certificate", heartbeat=True):
            verdict = check_text(text)
        waits = waits_for_replay(verdict)   # only the line refutations wait for --replay
        # past the size the default budget reads, the fusion stays and check_own names the
        # --max-work (without it the certificate may well be as large)
        if attempt or verdict.code != 2 or waits or cert.fusion is None or too_large(len(text), None):
            break
        # the embedded fusion is more than the checker's work budget for this certificate
        # takes: the upper bound becomes the counted product fusion, and the answer says so
        atoms = cert.fusion.atoms
        with ProgressBar("proving: factors and bounds", heartbeat=True) as bar:
            cert = build_certificate(M, explicit=args.explicit, max_atoms=args.max_atoms,
                                     explicit_fusion_limit=0, progress=bar,
                                     mapper=mapper(executor_spec(args)))
        cert.upper_note = (f"the upper bound is the product fusion, counted without building "
                           f"it: the best fusion found has {atoms} atoms, but the checker "
                           f"cannot verify it embedded within its work budget "
                           f"({verdict.message.removeprefix('inconclusive: ')})")
    budget_note = None
    if verdict.code == 2 and not waits:
        # only the capped default work budget may be short (a large genuine certificate):
        # checked again with a budget that fits, and the note names the --max-work it needs
        with ProgressBar("checking the certificate with a larger work budget", heartbeat=True):
            verdict, budget_note = check_own(text, verdict)
        waits = waits_for_replay(verdict)
        cert.check_note = budget_note
    if verdict.code == 2 and not waits:  # a limit of the checker (work budget, sizes): not a bug
        raise LimitError(f"the checker cannot decide this certificate within its limits "
                         f"({verdict.message}); nothing was written")
    if verdict.code != 0 and not waits:
        raise CertificateError(f"the checker does not accept the certificate: {verdict.message}")
    to_stdout = args.output == "-"
    if args.output and not to_stdout:
        atomic_write_text(args.output, text)
    s = {"verdict": "proven", **cert.summary(),
         "certificate": args.output if args.output and not to_stdout else None,
         "lower_bound": verdict.lower_bound, "upper_bound": verdict.upper_bound,
         "minimum": verdict.minimum, "trust": verdict.trust}
    if lines is not None:
        s["lines"] = lines.to_dict()
    # the gap between the bounds the checker verified (a line step may have raised the lower)
    s["notes"] = [n for n in s["notes"] if not n.startswith("gap:")]
    if verdict.minimum is None:
        from ..certificate import gap_note

        if verdict.lower_bound is not None and verdict.upper_bound is not None:  # verified: set
            s["notes"].append(gap_note(verdict.lower_bound, verdict.upper_bound))
        if skipped:
            s["notes"].append(f"line query not asked: {skipped}")
        elif lines is not None and lines.stopped == "gap":
            s["notes"].append(f"line queries stopped: a support of {lines.lower_bound} points "
                              f"passes every line condition but was not completed to a fusion, "
                              f"so no line query can raise the lower bound further")
        elif lines is not None:
            s["notes"].append(f"line queries stopped after {lines.seconds:.1f} s without an "
                              f"answer: a larger --lines-timeout may raise the lower bound")
    if to_stdout:
        if args.json:
            from ..errors import InputError
            raise InputError("-o - prints the certificate itself; leave out --json")
        sys.stdout.write(text)
        sys.stdout.flush()
        return EXIT_OK
    if args.json:
        print_json(s)
        return EXIT_OK
    from ..checker import show_count

    mn = verdict.minimum
    print(f"lower bound {show_count(verdict.lower_bound)}, upper bound "
          f"{show_count(verdict.upper_bound)}, minimum "
          f"{show_count(mn) if mn is not None else 'unknown (the bounds differ)'}, trust {s['trust']}")
    if cert.upper_note and verdict.minimum is None:
        print(f"  {cert.upper_note}")
    if lines is not None:
        for q in lines.steps:
            print(f"  line query k = {q.target}: {q.result} [{q.seconds:.1f} s]"
                  + (f" ({q.reason})" if q.reason else ""))
        if verdict.line_steps:
            where = args.output if args.output and args.output != "-" else "CERT"
            print(f"  the lower bound {show_count(verdict.lower_bound)} rests on a line refutation "
                  f"(z3 and cvc5; the exact steps prove {show_count(verdict.exact_lower_bound)}): "
                  f"'attnproof check {where} --replay' re-proves it")
    if mn is None:
        for n in s["notes"]:
            print(f"  note: {n}")
    elif budget_note:
        print(f"  note: {budget_note}")
    if args.output:
        print(f"  certificate written to {args.output} ({len(text)} bytes, checked)")
    else:
        print(f"  certificate checked ({len(text)} bytes), not kept: give -o CERT to write it")
    from .glossary import words_line

    print(words_line([f"trust {s['trust']}"] + (["line query"] if lines is not None else [])))
    return EXIT_OK


def _with_lines(M, cert, args):
    """The certificate text with line refutations (:func:`attnproof.smt.add_line_refutations`),
    with a progress line and a note per query; the text is kept when nothing changed."""
    from ..smt import add_line_refutations

    t = args.lines_timeout
    stage = {"k": cert.lower.value, "solvers": "z3 and cvc5 running"}

    def label() -> str:
        return (f"proving: line query k = {stage['k']} ({stage['solvers']}; "
                f"{t:g} s for the line queries)")

    with ProgressBar(label(), heartbeat=True) as bar:
        def step(res) -> None:      # the result lists each query once: the progress line names it
            if res.result == "unsat":                 # ascending: the next query asks k + 1
                stage["k"], stage["solvers"] = res.target + 1, "z3 and cvc5 running"
                bar.describe(label())

        def solvers(text: str) -> None:
            stage["solvers"] = text
            bar.describe(label())

        doc, mr = add_line_refutations(M, cert, t, args.max_atoms, on_step=step,
                                       on_solvers=solvers)
    if doc is None:
        return cert.text, mr
    from ..io import canonical_json

    return canonical_json(doc), mr
