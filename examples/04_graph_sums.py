"""Graph sums W_G(q) = Σ_{edges ij} σ(q_i − q_j): acyclic orientations against forests.

For a graph G the reduced denominator is Q = Π_{ij ∈ E} (x_i + x_j).  Its Newton
polytope is the graphical zonotope of G, whose vertices are the acyclic
orientations of G (THEORY, Lemma 7): that many atoms are necessary.  Its
lattice points are counted by the forests of G (Stanley), and the reduced
fusion uses all of them: that many atoms suffice.

* a tree: every orientation is acyclic and every edge set is a forest, so both
  counts are 2^|E| and the bound is tight;
* a cycle C_n: one edge set (the whole cycle) is not a forest and two
  orientations are cyclic: 2^n − 2 necessary, 2^n − 1 suffice, a gap of one;
* the complete graph K_n: the zonotope is the permutohedron with n! vertices,
  while the forests of K_n grow faster (K_4: 24 against 38).

Each number is computed by the toolkit and checked against networkx's Tutte
polynomial (T(2,0) = acyclic orientations, T(2,1) = forests), the chromatic
polynomial (|χ_G(−1)|), a brute-force count of acyclic orientations and, for
the small cases, one exact LP per lattice point.

Run:  python examples/04_graph_sums.py
"""

import math

import networkx as nx
import sympy

from attnproof import fuse, graph_sum, reduced_form
from attnproof.bounds import lower_bound

from _independent import acyclic_orientations_brute_force, tutte_values, vertices_by_lp


def chromatic_at_minus_one(G) -> int:
    """|χ_G(−1)| from networkx's chromatic polynomial."""
    chi = nx.chromatic_polynomial(G)
    return abs(int(chi.subs(sympy.Symbol("x"), -1)))


def graph_row(name: str, G) -> dict:
    """Bound and fusion size of W_G, each with its independent counterpart."""
    M = graph_sum(G)
    r = reduced_form(M)
    support = r.support_x()
    proven = lower_bound(M)
    assert proven.trust == "exact"
    if len(support) <= 16:                   # one exact LP per lattice point, small cases only
        assert len(vertices_by_lp(support)) == proven.value
    fused = fuse(M)
    edges = sorted(tuple(sorted(e)) for e in G.edges())
    acyclic = acyclic_orientations_brute_force(edges)
    t20, t21 = tutte_values(G, [(2, 0), (2, 1)])
    assert proven.value == acyclic == t20 == chromatic_at_minus_one(G)
    assert fused.atoms == len(support) == t21
    return {"name": name, "edges": len(edges), "lower": proven.value, "upper": fused.atoms}


def main() -> None:
    graphs = [("path P4 (tree)", nx.path_graph(4)), ("star S4 (tree)", nx.star_graph(3)),
              ("cycle C4", nx.cycle_graph(4)), ("cycle C5", nx.cycle_graph(5)),
              ("K3", nx.complete_graph(3)), ("K4", nx.complete_graph(4)), ("K5", nx.complete_graph(5))]
    print(f"{'graph':16s} {'|E|':>3s}  {'acyclic orientations (lower)':>28s}  {'forests (upper)':>15s}")
    for name, G in graphs:
        row = graph_row(name, G)
        m = row["edges"]
        if nx.is_tree(G):
            assert row["lower"] == row["upper"] == 2 ** m
        if name.startswith("cycle"):
            assert (row["lower"], row["upper"]) == (2 ** m - 2, 2 ** m - 1)
        if name.startswith("K"):
            assert row["lower"] == math.factorial(G.number_of_nodes())
        print(f"{name:16s} {m:3d}  {row['lower']:28d}  {row['upper']:15d}")
    print("trees are tight; a cycle leaves a gap of one; K_n: n! permutohedron vertices vs forests")


if __name__ == "__main__":
    main()
