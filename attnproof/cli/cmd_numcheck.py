"""``attnproof numcheck``: rigorous ball comparison of a multi-head with a claimed fusion."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import InputError
from .common import (EXIT_INCONCLUSIVE, EXIT_NEGATIVE, EXIT_OK, ProgressBar, add_common, ball_digits,
                     nonneg_int, positive_int, print_json)

NAME = "numcheck"
HELP = "compare a problem with a claimed fusion (or a certificate) using Arb balls"
DESCRIPTION = """\
Compare the multi-head of PROBLEM with the claimed single-head fusion FUSED (a
problem file with one head) at random queries, with Arb ball arithmetic.  At
each query the precision starts at --digits and is doubled up to --max-digits,
unless a difference ball excludes 0 first.

  refuted     a difference ball excludes 0: a rigorous proof that FUSED is not
              an exact fusion; the query is printed exactly      (exit 1)
  consistent  at the cap every ball contains 0 and the values agree to D
              digits: numerical evidence, never a proof           (exit 0)
  undecided   some balls contain 0 but are wider than 10^-D at the cap
                                                                  (exit 2)

With a single argument CERT (a file whose "format" is "attnproof-certificate"),
the problem embedded in the certificate is compared with the certificate's
explicit fusion head when it has one; otherwise the checks that numerics can
do are run and listed.

examples:
  attnproof numcheck w4.json fused.json
  attnproof numcheck w4.json fused.json --samples 64 --digits 60 --json
  attnproof numcheck w4.cert.json
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("problem", metavar="PROBLEM|CERT",
                   help="problem file, or a certificate (detected by its \"format\" field)")
    p.add_argument("fused", metavar="FUSED", nargs="?",
                   help="the claimed fusion: a problem file with one head")
    p.add_argument("--samples", type=positive_int, default=16, metavar="N",
                   help="number of random queries in [-2, 2]^d (default 16)")
    p.add_argument("--digits", type=ball_digits, default=50, metavar="D",
                   help="agreement required, in decimal digits; also the starting precision (default 50)")
    p.add_argument("--max-digits", type=ball_digits, metavar="D2",
                   help="precision cap in digits (default 2 x --digits)")
    p.add_argument("--seed", type=nonneg_int, default=0, help="seed of the random queries (default 0)")
    add_common(p)


def _vector_text(xs: list[str]) -> str:
    """A query for the terminal: the list, or ``{j: x}`` for its non-zero coordinates when
    most are 0 (sparse keys in a large dimension: 100000 zeros printed 600 kB).

    >>> _vector_text(["1/2", "0"]), _vector_text(["0"] * 9 + ["3"])
    ('[1/2, 0]', '{9: 3} (the other 9 coordinates 0)')
    """
    nz = [(j, x) for j, x in enumerate(xs) if x.strip("-0.") != ""]
    if len(xs) <= 8 or 2 * len(nz) > len(xs):
        return f"[{', '.join(xs)}]"
    inner = ", ".join(f"{j}: {x}" for j, x in nz)
    return f"{{{inner}}} (the other {len(xs) - len(nz)} coordinates 0)"


def _load(path: str):
    """``(kind, document)``: ``"certificate"`` or ``"problem"``, from the file's "format" field."""
    from ..io import load_problem, read_json_file

    doc = read_json_file(path)
    if isinstance(doc, dict) and doc.get("format") == "attnproof-certificate":
        return "certificate", doc
    return "problem", load_problem(path)


def check_certificate(doc: dict, args: argparse.Namespace) -> int:
    """``numcheck CERT [FUSED]``: the numerical checks a certificate admits; returns the exit code."""
    from ..numeric import numcheck_certificate

    fused = None
    if args.fused is not None:
        kind2, problem = _load(args.fused)
        if kind2 != "problem" or len(problem.heads) != 1:
            raise InputError(f"{args.fused}: FUSED must be a problem file with exactly one head")
        fused = problem.heads[0]
    with ProgressBar("ball check") as bar:
        report, res = numcheck_certificate(doc, fused, args.fused, digits=args.digits,
                                           seed=args.seed, samples=args.samples,
                                           max_digits=args.max_digits, progress=bar)
    checks, verdict = report["checks"], report["verdict"]
    doc_out: dict[str, Any] = {"certificate": args.problem, **report}
    if res is not None:
        doc_out["ball_check"] = _numbers(res.to_dict())
    if args.json:
        print_json(doc_out)
    else:
        failed = report["failed_checks"]
        print(f"numcheck certificate: {verdict}"
              + (" (rigorous refutation)" if verdict == "refuted" else " (numerical evidence, not a proof)")
              + (f"; {failed} check(s) failed" if failed else ""))
        for c in checks:
            mark = {True: "ok ", False: "BAD", None: "-- "}[c["ok"]]
            print(f"  [{mark}] {c['check']}")
        if res is not None:
            _print_check(res, "  balls")
        print(f"  {doc_out['note']}")
    sys.stdout.flush()
    if verdict == "consistent" and any(c["ok"] is False for c in checks):
        return EXIT_NEGATIVE
    return EXIT_OF[verdict]


def _numbers(d: dict) -> dict:
    """``max_difference`` as a JSON number (its exact decimal text kept as ``max_difference_text``)."""
    t = d.get("max_difference")
    if isinstance(t, str):
        d["max_difference_text"] = t
        try:
            d["max_difference"] = float(t.strip("[]").split()[0])
        except (ValueError, IndexError):
            d["max_difference"] = None
    return d


EXIT_OF = {"consistent": EXIT_OK, "refuted": EXIT_NEGATIVE, "undecided": EXIT_INCONCLUSIVE}


def _print_check(res, label: str) -> None:
    print(f"{label}: {res.summary()}")
    r = res.refutation
    if r is not None:
        rd = r.to_dict()
        print(f"  query (exact):     {_vector_text(rd['query'])}")
        print(f"  query (25 digits): {_vector_text(rd['query_decimal'])}")
        print(f"  multi-head value:  {r.multihead_value}")
        print(f"  fused value:       {r.fused_value}")
        print(f"  precision:         {r.bits} bits")
    if res.undecided:
        print(f"  undecided at queries {list(res.undecided)} (raise --max-digits)")


def run(args: argparse.Namespace) -> int:
    from ..numeric import ball_compare

    kind, first = _load(args.problem)
    if kind == "certificate":
        return check_certificate(first, args)
    if args.fused is None:
        raise InputError("numcheck needs PROBLEM and FUSED, or a single certificate file")
    kind2, fused = _load(args.fused)
    if kind2 != "problem":
        raise InputError(f"{args.fused}: FUSED must be a problem file, not a certificate")
    if len(fused.heads) != 1:
        raise InputError(f"{args.fused}: FUSED must have exactly one head, it has {len(fused.heads)}")
    with ProgressBar("ball check") as bar:
        res = ball_compare(first, fused.heads[0], digits=args.digits, seed=args.seed,
                           samples=args.samples, max_digits=args.max_digits, progress=bar)
    if args.json:
        doc: dict[str, Any] = {"problem": args.problem, "fused": args.fused,
                               "atoms": fused.heads[0].distinct_keys, **_numbers(res.to_dict())}
        print_json(doc)
    else:
        _print_check(res, "numcheck")
    sys.stdout.flush()
    return EXIT_OF[res.verdict]
