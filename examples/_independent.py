"""Independent cross-checks shared by the example scripts.

Nothing here uses attnproof: these are second computations, by other means,
of numbers the toolkit computes, so that each example can assert that the two
agree.

>>> vertices_by_lp([(0, 0), (1, 0), (0, 1), (1, 1), (1, 2), (0, 2)]) == {(0, 0), (1, 0), (0, 2), (1, 2)}
True
>>> acyclic_orientations_brute_force([(0, 1), (1, 2), (0, 2)])
6
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Iterable, Sequence

Point = tuple[int, ...]


def is_vertex_by_lp(u: Sequence[int], others: Iterable[Sequence[int]]) -> list[Fraction] | None:
    """A functional ``c`` with ``<c,u> > <c,w>`` for every other point ``w``, or None.

    Solved exactly by z3 (linear real arithmetic), then re-verified in Fractions.
    """
    import z3

    others = [tuple(w) for w in others if tuple(w) != tuple(u)]
    d = len(u)
    c = [z3.Real(f"c{j}") for j in range(d)]
    s = z3.Solver()
    for w in others:
        s.add(z3.Sum([c[j] * (u[j] - w[j]) for j in range(d)]) >= 1)
    if s.check() != z3.sat:
        return None
    m = s.model()

    def val(t):
        r = m.eval(t, model_completion=True).as_fraction()
        return Fraction(r.numerator, r.denominator)

    cs = [val(cj) for cj in c]
    for w in others:  # trust the solver only after an exact re-check
        assert sum(cj * (a - b) for cj, a, b in zip(cs, u, w)) > 0
    return cs


def vertices_by_lp(points: Iterable[Sequence[int]]) -> set[Point]:
    """Vertices of ``conv(points)``: the points some functional maximizes uniquely."""
    pts = sorted({tuple(p) for p in points})
    return {u for u in pts if is_vertex_by_lp(u, pts) is not None}


def acyclic_orientations_brute_force(edges: Sequence[tuple[int, int]]) -> int:
    """Count the acyclic orientations of a graph by trying all ``2^|E|`` of them."""
    import networkx as nx

    count = 0
    for flips in product((False, True), repeat=len(edges)):
        D = nx.DiGraph()
        D.add_edges_from((v, u) if f else (u, v) for (u, v), f in zip(edges, flips))
        count += nx.is_directed_acyclic_graph(D)
    return count


def tutte_values(G, points: Sequence[tuple[int, int]]) -> list[int]:
    """The Tutte polynomial of a networkx graph at several points: ``T(2,0)`` counts
    acyclic orientations, ``T(2,1)`` forests.

    >>> import networkx as nx
    >>> tutte_values(nx.cycle_graph(4), [(2, 0), (2, 1)])
    [14, 15]
    """
    import networkx as nx
    import sympy

    T = nx.tutte_polynomial(G)
    x, y = sympy.Symbol("x"), sympy.Symbol("y")
    return [int(T.subs({x: a, y: b})) for a, b in points]
