"""``attnproof family``: write a problem file of a named family."""

from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from .common import EXIT_OK, add_common, nonneg_int, positive_int, print_json

NAME = "family"
HELP = "write the problem file of a family (sigmoid-sum, biased-sigmoid, graph, random)"
DESCRIPTION = """\
Write the problem file of a named family of multi-heads.

  sigmoid-sum     W_d(q) = sum_j sigma(q_j): d two-atom heads      (--d)
  biased-sigmoid  sum_j sigma(q_j + b_j), one head per bias        (--biases)
  graph           W_G(q) = sum over edges ij of sigma(q_i - q_j)   (--graph and --n, or --edges)
  random          random heads with small integer keys             (--heads --atoms --dim --seed)

examples:
  attnproof family sigmoid-sum --d 4 -o w4.json
  attnproof family graph --graph cycle --n 4 -o c4.json
  attnproof family graph --edges 0-1,1-2,2-0 -o k3.json
  attnproof family biased-sigmoid --biases 1/2,0,-1 -o b3.json
  attnproof family random --heads 2 --atoms 3 --dim 3 --seed 7 -o r.json
"""

FAMILIES = ("sigmoid-sum", "biased-sigmoid", "graph", "random")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", choices=FAMILIES, metavar="NAME", help="one of: " + ", ".join(FAMILIES))
    p.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output; with --json, inside the JSON document)")
    p.add_argument("--d", type=positive_int, metavar="D", help="sigmoid-sum: number of heads/dimensions")
    p.add_argument("--biases", metavar="B1,B2,...",
                   help="biased-sigmoid: exact biases, e.g. 1/2,0,-0.25")
    p.add_argument("--graph", metavar="G", help="graph: path, cycle, complete, star or petersen")
    p.add_argument("--n", type=positive_int, metavar="N", help="graph: number of nodes")
    p.add_argument("--edges", metavar="EDGES", help="graph: an edge list such as 0-1,1-2,2-0")
    p.add_argument("--heads", type=positive_int, default=2, help="random: number of heads (default 2)")
    p.add_argument("--atoms", type=positive_int, default=3, help="random: atoms per head (default 3)")
    p.add_argument("--dim", type=nonneg_int, default=2, help="random: key dimension (default 2)")
    p.add_argument("--value-dim", type=positive_int, default=1, help="random: value dimension (default 1)")
    p.add_argument("--max-key", type=nonneg_int, default=2,
                   help="random: keys are integers in [-K, K] (default 2)")
    p.add_argument("--with-biases", action="store_true", help="random: give atoms random biases")
    p.add_argument("--seed", type=int, default=0, help="random: seed (default 0)")
    add_common(p)


def build(args: argparse.Namespace):
    """The multi-head the arguments describe."""
    from .. import families
    from ..io import parse_number

    if args.name == "sigmoid-sum":
        if args.d is None:
            raise InputError("sigmoid-sum needs --d")
        return families.sigmoid_sum(args.d)
    if args.name == "biased-sigmoid":
        if not args.biases:
            raise InputError("biased-sigmoid needs --biases, e.g. --biases 1/2,0,-1")
        return families.biased_sigmoid_sum(
            [parse_number(b.strip(), f"bias {i}") for i, b in enumerate(args.biases.split(","))])
    if args.name == "graph":
        if args.edges and args.graph:
            raise InputError("give either --graph or --edges, not both")
        if args.edges:
            G = families.parse_edges(args.edges)
        elif args.graph:
            G = families.named_graph(args.graph, args.n)
        else:
            raise InputError("graph needs --graph NAME (with --n) or --edges 0-1,1-2,...")
        return families.graph_sum(G)
    return families.random_multihead(args.heads, args.atoms, args.dim, args.seed,
                                     max_key=args.max_key, value_dim=args.value_dim,
                                     biases=args.with_biases)


# head-atom terms a family may have before it is built (W_100000 has 200,000)
MAX_FAMILY_TERMS = 4_000_000


def _check_size(args: argparse.Namespace) -> None:
    """Refuse (exit 3) a family whose dimension or size is over the limits before building it."""
    from ..checker.limits import MAX_DIM

    dim, terms = 0, 0
    if args.name == "sigmoid-sum" and args.d:
        dim, terms = args.d, 2 * args.d
    elif args.name == "graph" and args.n:
        dim = args.n
        terms = args.n * (args.n - 1) if args.graph == "complete" else 2 * args.n
    elif args.name == "random":
        dim, terms = args.dim, args.heads * args.atoms * args.value_dim
    if dim > MAX_DIM:
        raise InputError(f"dimension {dim} is over the limit {MAX_DIM} of problem files")
    if terms > MAX_FAMILY_TERMS:
        raise InputError(f"about {terms} head-atom terms, over the limit {MAX_FAMILY_TERMS}")


def run(args: argparse.Namespace) -> int:
    from ..io import atomic_write_text, canonical_json, problem_to_dict

    _check_size(args)
    M = build(args)
    doc = problem_to_dict(M)
    text = canonical_json(doc)
    if args.output:
        atomic_write_text(args.output, text)
    if args.json:
        print_json({"verdict": "written", "family": args.name, "heads": len(M), "dim": M.dim,
                    "head_atom_terms": M.head_atom_terms, "output": args.output,
                    "problem": None if args.output else doc})
    elif not args.output:
        sys.stdout.write(text)
    else:
        print(f"{args.name}: {len(M)} head{'s' if len(M) != 1 else ''} in dimension {M.dim}, "
              f"{M.head_atom_terms} head-atom terms, written to {args.output}")
    return EXIT_OK
