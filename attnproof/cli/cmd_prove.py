"""``attnproof prove``: lower and upper bounds with a machine-checkable certificate."""

from __future__ import annotations

import argparse
import sys

from .common import (EXIT_OK, EXPLICIT_FUSION_LIMIT, ProgressBar, add_common, add_executor_options, note,
                     add_max_atoms, executor_spec,
                     positive_int, print_json)

NAME = "prove"
HELP = "prove lower and upper atom bounds and write a certificate"
DESCRIPTION = """\
Prove the lower bound (as 'attnproof bound') and an upper bound (the best
verified fusion of 'attnproof fuse', embedded in the certificate, or the
product fusion counted without building it), and write a
certificate that 'attnproof check' re-verifies with a small independent
checker.  The certificate is checked before it is written; identical inputs
give byte-identical certificates.  Format: docs/certificates.md.

minimum is the proven minimum atom count when the bounds meet, else null.

limits: the fusion is built only when its size, estimated before allocation,
is within --max-atoms, and embedded when it has at most
--explicit-fusion-limit atoms (a large embedded fusion makes a large
certificate that takes longer to check).

examples:
  attnproof prove w10.json                     # the bounds only
  attnproof prove w10.json -o w10.cert.json
  attnproof prove w10.json -o - | attnproof check /dev/stdin
  attnproof prove w1000.json -o w1000.cert.json --json
"""


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
    p.add_argument("--lines", action="store_true",
                   help="raise the lower bound by line refutations (THEORY §12: z3 and cvc5 on "
                        "the factors 1 + x^g of Q, no window); the certificate then has trust "
                        "line-refuted and 'check --replay' re-proves it")
    p.add_argument("--lines-timeout", type=float, default=300.0, metavar="S",
                   help="seconds for each line query (default 300)")
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
    from ..executor import mapper
    from ..checker import check_text
    from ..errors import CertificateError, LimitError
    from ..io import atomic_write_text, load_problem

    M = load_problem(args.problem)
    with ProgressBar("proving: factors and bounds", heartbeat=True) as bar:
        cert = build_certificate(M, explicit=args.explicit, max_atoms=args.max_atoms,
                                 explicit_fusion_limit=args.explicit_fusion_limit, progress=bar,
                                 mapper=mapper(executor_spec(args)))
    if cert.fusion is not None:
        with ProgressBar("ball check of the fusion", heartbeat=True):
            ball_check(M, cert.fusion.to_head())
    text = cert.text
    lines = None
    if getattr(args, "lines", False) and cert.lower.value != cert.upper:
        text, lines = _with_lines(M, cert, args)
    with ProgressBar("checking the certificate", heartbeat=True):
        verdict = check_text(text)
    waits = (verdict.code == 2 and bool(verdict.line_steps) and verdict.bounds_verified
             and not verdict.window_steps)   # only the line refutations wait for --replay
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

        s["notes"].append(gap_note(verdict.lower_bound, verdict.upper_bound))
        if not getattr(args, "lines", False) and not verdict.line_steps:
            s["notes"].append("next: when the reduced denominator is a product of binomials "
                              "1 + x^g, 'prove --lines' asks the windowless line query "
                              "(THEORY §12; z3 and cvc5, trust line-refuted), which may close "
                              "the gap")
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
    if args.output:
        print(f"  certificate written to {args.output} ({len(text)} bytes, checked)")
    else:
        print(f"  certificate checked ({len(text)} bytes), not kept: give -o CERT to write it")
    return EXIT_OK


def _with_lines(M, cert, args):
    """The certificate text with the line refutations of THEORY §12 added (and the result)."""

    from ..errors import InputError
    from ..io import canonical_json
    from ..smt import line_certificate, line_minimize

    t = args.lines_timeout
    if not (t > 0) or t > 86400:
        raise InputError(f"--lines-timeout {t}: give seconds between 0 and 86400")

    def step(res) -> None:
        note(f"line query k = {res.target}: {res.result} [{res.seconds:.1f} s]")

    with ProgressBar("proving: line refutations (z3 and cvc5)", heartbeat=True):
        mr = line_minimize(M, timeout=t, max_atoms=args.max_atoms, on_step=step,
                           lower=cert.lower.value)
    fusion = mr.best if mr.best.atoms < cert.upper else None
    doc = line_certificate(M, fusion, mr.refutation, cert=cert)
    return canonical_json(doc), mr
