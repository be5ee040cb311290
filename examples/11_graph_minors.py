"""Graph minors close the gap for cycles: C_n needs 2^n − 1 atoms (docs/theory.md §9).

Example 04 showed the gap of one for cycles: the Newton bound counts the
2^n − 2 acyclic orientations, the fusion Q has 2^n − 1 atoms (the forests).
The minor lemmas of THEORY §13 prove that Q is optimal, with no solver:

* fibers: cutting the support of any fusion's denominator D into the lines
  s + Z·(e_i − e_j) of one edge, every line holds at least 2 points (1 + x^g
  divides it, weights positive), and the lines themselves carry the contracted
  graph: |supp D| ≥ 2·m'(G/e);
* odd contraction: if that were tight for two edges e, f with m'(G/e) odd, every
  e-line and f-line would hold exactly 2 points at odd distance; inside each plane
  spanned by e and f they then pair up in cycles with an even number of e-steps,
  so the number of e-lines would be even. It is odd, so one more point is needed.

C_n contracts to C_{n−1}, with 2^{n−1} − 1 (odd) by induction from the double edge
(3 points, Descartes): 2·(2^{n−1} − 1) + 1 = 2^n − 1.  The script prints the three
counts (the two Tutte evaluations checked against networkx's Tutte polynomial), a
proof term by odd contraction alone, and the checker's verdict on C_6.

Run:  python examples/11_graph_minors.py
"""

import json

import networkx as nx

from attnproof import graph_sum
from attnproof.bounds.graph_sums import acyclic_orientations, forests, minor_bound
from attnproof.certificate import build_certificate
from attnproof.checker import check_text
from attnproof.families import named_graph


def edges_of(g) -> dict:
    return {tuple(sorted(e)): 1 for e in g.edges()}


def main() -> None:
    print("graph      Newton T(2,0)   minors   forests T(2,1)")
    for name, g in [("C3", nx.cycle_graph(3)), ("C4", nx.cycle_graph(4)),
                    ("C5", nx.cycle_graph(5)), ("C6", nx.cycle_graph(6)),
                    ("paw", nx.Graph([(0, 1), (0, 2), (1, 2), (2, 3)])),
                    ("K4", nx.complete_graph(4))]:
        G = edges_of(g)
        # networkx's Tutte polynomial as an independent count
        T = nx.tutte_polynomial(g)
        x, y = sorted(T.free_symbols, key=str)
        assert acyclic_orientations(G) == T.subs({x: 2, y: 0})
        assert forests(G) == T.subs({x: 2, y: 1})
        print(f"{name:<10} {acyclic_orientations(G):>13} {minor_bound(G)[0]:>8} "
              f"{forests(G):>16}")
    G = edges_of(nx.cycle_graph(4))
    value, term = minor_bound(G, frozenset({"odd"}))     # no cycle lemma: odd all the way
    print(f"C4 by odd contraction alone: {value}; the term: {json.dumps(term)[:72]}...")
    cert = build_certificate(graph_sum(named_graph("cycle", 6)), minors=True)
    v = check_text(cert.text)
    print(f"C6 certificate: {v.message}")


if __name__ == "__main__":
    main()
