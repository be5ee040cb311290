"""``attnproof prove``: lower and upper bounds with a machine-checkable certificate.

The pipeline is :func:`attnproof.proving.prove_problem` (the Python API's too); this
module parses the arguments and prints (help and report text: :mod:`.prove_text`).
"""

from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from .common import (EXIT_OK, EXPLICIT_FUSION_LIMIT, ProgressBar, add_common, add_executor_options,
                     add_max_atoms, executor_spec, positive_int, print_json)
from .prove_text import DEFAULT_LINES_TIMEOUT, DESCRIPTION, MAX_AUTO_LINE_POINTS, print_report

NAME = "prove"
HELP = "prove lower and upper atom bounds and write a certificate"
__all__ = ["NAME", "HELP", "DESCRIPTION", "add_arguments", "run"]


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


def run(args: argparse.Namespace) -> int:
    # the library is imported here, not at the top: building the parser must stay light
    from ..io import load_problem
    from ..parallel import mapper
    from ..proving import prove_problem

    to_stdout = args.output == "-"
    if to_stdout and args.json:
        raise InputError("-o - prints the certificate itself; leave out --json")
    proved = prove_problem(load_problem(args.problem), explicit=args.explicit,
                           max_atoms=args.max_atoms, explicit_fusion_limit=args.explicit_fusion_limit,
                           lines=True if args.lines else False if args.no_lines else None,
                           lines_timeout=args.lines_timeout, mapper=mapper(executor_spec(args)),
                           output=None if to_stdout else args.output,
                           stages=lambda label: ProgressBar(label, heartbeat=True))
    if to_stdout:
        sys.stdout.write(proved.text)
        sys.stdout.flush()
    elif args.json:
        print_json({**proved.summary(), "certificate": args.output})
    else:
        print_report(proved, args.output)
    return EXIT_OK
