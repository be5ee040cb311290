"""``attnproof fuse``: the exact single-head fusion of a problem."""

from __future__ import annotations

import argparse
import sys

from .common import EXIT_OK, ProgressBar, add_common, add_max_atoms, nonneg_int, plural, print_json

NAME = "fuse"
HELP = "fuse a multi-head into one exact head (reduced form, lcm or product fusion)"
DESCRIPTION = """\
Fuse the heads of PROBLEM into one head that computes exactly the same function.

The fusion is the first of these that is a valid head (THEORY §3): the reduced
denominator Q itself (positive coefficients and supp P within supp Q), the lcm
of the head denominators, or the product fusion.  The result is exact; before
it is reported the polynomial identity N/D = sum of the N_h/D_h is checked
exactly in integer polynomials (FLINT; exponents of any length, no sample
points).  Atoms are counted as distinct keys.

--max-atoms limits the fusion that is built: its size is estimated from the
head supports (the product of the head sizes, the box and the degree slice
that every intermediate polynomial fits in) before anything is allocated.

examples:
  attnproof fuse w4.json
  attnproof fuse w4.json -o fused.json --json
"""


MAX_VERIFY_POINTS = 100


def _verify_points(text: str) -> int:
    k = nonneg_int(text)
    if k > MAX_VERIFY_POINTS:
        raise argparse.ArgumentTypeError(f"{text!r} is over {MAX_VERIFY_POINTS} points")
    return k


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("problem", metavar="PROBLEM", help="problem file (JSON, or YAML by extension)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the fused head as a one-head problem file")
    p.add_argument("--verify", type=_verify_points, default=2, metavar="K",
                   help=f"0 skips the exact identity check of the fused head against the "
                        f"multi-head; any other K (default 2, at most {MAX_VERIFY_POINTS}) "
                        f"runs it once (a count of points in earlier versions)")
    p.add_argument("--seed", type=int, default=0,
                   help="unused: the identity check draws no points (default 0)")
    add_max_atoms(p)
    add_common(p)


def run(args: argparse.Namespace) -> int:
    from ..fusion import fuse, write_fused
    from ..io import load_problem

    M = load_problem(args.problem)
    with ProgressBar("fusing heads") as bar:
        f = fuse(M, max_atoms=args.max_atoms, progress=bar)
    f.verify(args.verify, args.seed)
    if args.output:
        write_fused(args.output, f, M.dim)      # refuses what would not read back
    summary = {"verdict": "fused", "atoms": f.atoms, "entries": f.entries, "heads": len(M),
               "head_atom_terms": M.head_atom_terms, "method": f.method,
               "verified_points": args.verify, "output": args.output}
    if args.json:
        print_json(summary)
    else:
        print(f"{plural(len(M), 'head')} with {M.head_atom_terms} head-atom terms "
              f"{'fuses' if len(M) == 1 else 'fuse'} exactly into one head "
              f"with {plural(f.atoms, 'atom')} ({f.method} fusion)")
        if f.entries != f.atoms:
            print(f"  {f.entries} (key, bias) entries: atoms sharing a key differ in bias")
        if args.output:
            print(f"  written to {args.output}")
        if f.method != "reduced":           # 'reduced' is explained where it is printed first
            from .glossary import words_line

            print(words_line([f.method]))
    sys.stdout.flush()
    return EXIT_OK
