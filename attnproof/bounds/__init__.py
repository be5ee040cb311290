"""Lower bounds on the atoms of every exact single-head fusion (THEORY §4-5).

* :func:`lower_bound` — the Newton vertex bound with its evidence (factor
  witnesses, blocks, zonotope counts or verified vertex lists).
* :mod:`.factors` — C1/C2 factor witnesses; :mod:`.newton` — vertices with
  exact functionals; :mod:`.zonotope` — Lemma 7 counts.
* :mod:`.graph_sums` — graph sums (THEORY §13): acyclic orientations, forests, and the
  minor bounds of the ``graph_minors`` rule.

>>> from attnproof.families import sigmoid_sum
>>> lower_bound(sigmoid_sum(5)).value
32
"""

from ..algebra.factors import irreducibility_witness, surviving_factors
from .lower import Block, LowerBound, lower_bound
from .graph_sums import (graph_of_heads, graph_of_lower_bound, graph_report, minor_bound,
                         minor_bound_within)
from .newton import newton_vertices

__all__ = ["lower_bound", "LowerBound", "Block", "surviving_factors", "irreducibility_witness",
           "newton_vertices", "graph_of_heads", "graph_of_lower_bound", "graph_report",
           "minor_bound", "minor_bound_within"]
