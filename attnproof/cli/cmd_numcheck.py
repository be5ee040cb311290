"""``attnproof numcheck``: rigorous ball comparison of a multi-head with a claimed fusion."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import (EXIT_INCONCLUSIVE, EXIT_NEGATIVE, EXIT_OK, Progress, nonneg_int, positive_int,
                     print_json)

NAME = "numcheck"
HELP = "compare a problem with a claimed fusion (or a certificate) using Arb balls"
DESCRIPTION = """\
Compare the multi-head of PROBLEM with the claimed single-head fusion FUSED (a
problem file with one head) at random queries, with Arb ball arithmetic.  At
each query the precision starts at --digits and is doubled up to --max-digits
until the difference ball either excludes 0 or is narrower than 10^-D.

  refuted     a difference ball excludes 0: a rigorous proof that FUSED is not
              an exact fusion; the query is printed exactly      (exit 1)
  consistent  the values agree to D digits at every query: numerical evidence,
              never a proof                                       (exit 0)
  undecided   some balls contain 0 but stay too wide at the cap   (exit 2)

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
    p.add_argument("--digits", type=positive_int, default=50, metavar="D",
                   help="agreement required, in decimal digits; also the starting precision (default 50)")
    p.add_argument("--max-digits", type=positive_int, metavar="D2",
                   help="precision cap in digits (default 4 x --digits)")
    p.add_argument("--seed", type=nonneg_int, default=0, help="seed of the random queries (default 0)")
    p.add_argument("--json", action="store_true", help="print a JSON report")


def _load(path: str):
    """``(kind, document)``: ``"certificate"`` or ``"problem"``, from the file's "format" field."""
    from ..io import load_problem, read_json_file

    doc = read_json_file(path)
    if isinstance(doc, dict) and doc.get("format") == "attnproof-certificate":
        return "certificate", doc
    return "problem", load_problem(path)


EXIT_OF = {"consistent": EXIT_OK, "refuted": EXIT_NEGATIVE, "undecided": EXIT_INCONCLUSIVE}


def _print_check(res, label: str) -> None:
    print(f"{label}: {res.summary()}")
    r = res.refutation
    if r is not None:
        print(f"  query (exact):     [{', '.join(r.to_dict()['query'])}]")
        print(f"  query (25 digits): [{', '.join(r.to_dict()['query_decimal'])}]")
        print(f"  multi-head value:  {r.multihead_value}")
        print(f"  fused value:       {r.fused_value}")
        print(f"  precision:         {r.bits} bits")
    if res.undecided:
        print(f"  undecided at queries {list(res.undecided)} (raise --max-digits)")


def run(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..numeric import ball_compare

    kind, first = _load(args.problem)
    if kind == "certificate":
        from .numcheck_cert import check_certificate

        return check_certificate(first, args)
    if args.fused is None:
        raise InputError("numcheck needs PROBLEM and FUSED, or a single certificate file")
    kind2, fused = _load(args.fused)
    if kind2 != "problem":
        raise InputError(f"{args.fused}: FUSED must be a problem file, not a certificate")
    if len(fused.heads) != 1:
        raise InputError(f"{args.fused}: FUSED must have exactly one head, it has {len(fused.heads)}")
    with Progress("ball check") as bar:
        res = ball_compare(first, fused.heads[0], digits=args.digits, seed=args.seed,
                           samples=args.samples, max_digits=args.max_digits, progress=bar)
    if args.json:
        doc: dict[str, Any] = {"problem": args.problem, "fused": args.fused,
                               "fused_atoms": len(fused.heads[0]), **res.to_dict()}
        print_json(doc)
    else:
        _print_check(res, "numcheck")
    sys.stdout.flush()
    return EXIT_OF[res.verdict]
