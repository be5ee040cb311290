"""``attnproof bound``: the proven lower bound on the atoms of every exact fusion."""

from __future__ import annotations

import argparse

from .common import (EXIT_OK, ProgressBar, add_common, add_executor_options, add_max_atoms,
                     executor_spec, print_json)

NAME = "bound"
HELP = "prove a lower bound on the atoms of every exact single-head fusion"
DESCRIPTION = """\
Prove how many atoms every exact single-head fusion of PROBLEM needs: the
number of vertices of the Newton polytope of the reduced denominator Q
(THEORY §4), or of a certified factor of it.

Path c1 factors the head denominators and certifies each factor (irreducible,
and surviving in Q); blocks of factors in disjoint variables multiply, and
products of binomials are counted as zonotopes (regions of a hyperplane
arrangement; acyclic orientations for graph sums).  Path c3 takes Q from
FLINT's gcd (trust exact-modulo-flint).  Path geometry (keys with long
decimals or binary floats, and heads that C1 cannot factor) proves every head
denominator irreducible from its Newton polytope and counts exact vertices of
the Minkowski sum, with no polynomial algebra (THEORY §9).  'complete' says
whether every candidate vertex was decided, so that the count is V(Q) itself,
or whether it is only a verified part of it.

Graphic blocks (graph sums) are counted as acyclic orientations: a product over
biconnected blocks of n! (complete), 2^n - 2 (cycle), prod (1 + d_i) over a
perfect elimination ordering (chordal), or an exact subset recurrence for
other blocks of at most 16 nodes whose count by the checker takes at most
400000 operations in all (a random graph of 12 nodes takes about 200000, one of
14 about 1.3 million).  Past that, the bound counts a spanning subgraph (a
countable part of the block with chordal trees hung from it): a sub-sum, so a
lower bound of V(Q), marked not complete, and the note names the block and
what its exact count would need.  --max-atoms limits the reduced form that the
FLINT path (c3) builds, estimated before it is built.  To get a certificate that a
small independent checker verifies, use 'attnproof prove'.

examples:
  attnproof bound w10.json
  attnproof bound k4.json --json
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("problem", metavar="PROBLEM", help="problem file (JSON, or YAML by extension)")
    p.add_argument("--explicit", action="store_true",
                   help="count by an explicit list of vertices (one block) instead of structurally")
    add_max_atoms(p)
    add_common(p)
    add_executor_options(p)


def summarize(lb) -> dict:
    """JSON-ready summary of a :class:`~attnproof.bounds.LowerBound`."""
    return {"verdict": "proven", "lower_bound": lb.value, "trust": lb.trust, "path": lb.path,
            "complete": lb.tight, "factors": len(lb.factors) if lb.path == "c1" else None,
            "blocks": [{"factors": len(b.factors), "variables": len(b.variables),
                        "method": b.method, "count": b.count} for b in lb.blocks],
            "notes": lb.notes}


def run(args: argparse.Namespace) -> int:
    from ..api import bound
    from ..io import load_problem
    from ..parallel import mapper

    M = load_problem(args.problem)
    with ProgressBar("bound: factors, then vertices", heartbeat=True) as bar:
        lb = bound(M, explicit=args.explicit, max_atoms=args.max_atoms, progress=bar,
                   mapper=mapper(executor_spec(args)))
    s = summarize(lb)
    if args.json:
        print_json(s)
        return EXIT_OK
    from ..checker import show_count

    print(f"every exact single-head fusion needs at least {show_count(lb.value)} "
          f"atom{'' if lb.value == 1 else 's'} "
          f"(trust {lb.trust}, path {lb.path}{'' if lb.tight else ', not known to be V(Q)'})")
    methods: dict = {}
    for b in lb.blocks:
        methods[b.method] = methods.get(b.method, 0) + 1
    if lb.blocks:
        print("  blocks: " + ", ".join(f"{n} {m}" for m, n in sorted(methods.items())))
    for n in lb.notes:
        print(f"  note: {n}")
    from .glossary import words_line

    words = [f"trust {lb.trust}", f"path {lb.path}", *sorted(methods)]
    if any("non-homothetic" in n for n in lb.notes):
        words += ["indecomposable", "non-homothetic"]
    print(words_line(words))
    return EXIT_OK
