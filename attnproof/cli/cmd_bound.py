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


def graph_line(g: dict) -> str:
    """One line for a graph sum's counts (THEORY §13).

    >>> graph_line({"nodes": 3, "edges": 3, "acyclic_orientations": 6, "forests": 7,
    ...             "minor_bound": 7})
    'graph: 3 nodes, 3 edges; acyclic orientations T(2,0) = 6 (Newton), forests T(2,1) = 7 (the fusion Q), minors prove 7'
    """
    from ..checker import show_count

    def c(x):
        return "?" if x is None else show_count(x)
    return (f"graph: {g['nodes']} nodes, {g['edges']} edges; acyclic orientations T(2,0) = "
            f"{c(g['acyclic_orientations'])} (Newton), forests T(2,1) = {c(g['forests'])} "
            f"(the fusion Q), minors prove {c(g['minor_bound'])}")


def run(args: argparse.Namespace) -> int:
    from ..api import bound
    from ..bounds import graph_of_lower_bound, graph_report
    from ..io import load_problem
    from ..parallel import mapper

    M = load_problem(args.problem)
    with ProgressBar("bound: factors, then vertices", heartbeat=True) as bar:
        lb = bound(M, explicit=args.explicit, max_atoms=args.max_atoms, progress=bar,
                   mapper=mapper(executor_spec(args)))
    s = summarize(lb)
    graph = graph_report(graph_of_lower_bound(lb, M.dim))
    if graph is not None:
        s["graph"] = graph
        if graph["minor_bound"] is not None and graph["minor_bound"] > lb.value and not M.has_bias:
            s["lower_bound"] = graph["minor_bound"]
            s["notes"] = s["notes"] + [f"graph minors (THEORY §13): at least "
                                       f"{graph['minor_bound']} atoms, over the count "
                                       f"{lb.value} of Newt(Q)"]
    if args.json:
        print_json(s)
        return EXIT_OK
    from ..checker import show_count

    low = s["lower_bound"]
    print(f"every exact single-head fusion needs at least {show_count(low)} "
          f"atom{'' if low == 1 else 's'} "
          f"(trust {lb.trust}, path {lb.path}{'' if lb.tight else ', not known to be V(Q)'})")
    methods: dict = {}
    for b in lb.blocks:
        methods[b.method] = methods.get(b.method, 0) + 1
    if lb.blocks:
        print("  blocks: " + ", ".join(f"{n} {m}" for m, n in sorted(methods.items())))
    if graph is not None:
        print("  " + graph_line(graph))
    for n in s["notes"]:
        print(f"  note: {n}")
    from .glossary import words_line

    words = [f"trust {lb.trust}", f"path {lb.path}", *sorted(methods)]
    if any("non-homothetic" in n for n in lb.notes):
        words += ["indecomposable", "non-homothetic"]
    print(words_line(words))
    return EXIT_OK
