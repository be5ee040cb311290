"""The certificate rules, one module per family of docs/certificates.md §6.

===================  ==============================================  =========
module               rules (docs/certificates.md)                    THEORY
===================  ==============================================  =========
``state``            the typed :class:`State` the steps share (§5)   §8
``factors``          ``irreducible_factor`` (§6.1), ``reduced_by_flint`` (§6.2)  §5
``newton``           ``newton_blocks`` (§6.3)                        §4
``graphs``           the ``zonotope_graphic`` count of §6.3          Lemma 7
``fusion``           ``product_fusion`` (§6.4), ``explicit_fusion`` (§6.5)  §3
``windows``          ``window_refutation`` (§6.6),                   §6, §12
                     ``line_refutation`` (§6.11)
``geometry``         ``indecomposable_chain``, ``generic_heads``,     §9
                     ``minkowski_vertices``, ``direct_sum`` (§6.7-6.10)
``planar``           ``planar_vertices`` (§6.12), the ``planar``      Lemma 6
                     block of ``newton_blocks`` (§6.3)
``floors``           ``non_constant`` (§6.13), ``sub_sum`` (§6.14)    §1-2, §4, §9
``graph_sums``       ``graph_minors`` (§6.15)                        §13
``edges``            ``edge_roots`` (§6.16)                          docs/theory.md 10.1
===================  ==============================================  =========

Each family module exports ``RULES``: rule name -> ``(function, phase)``; a new
family adds its module here with one line.  Rule modules import the state and
lower helpers, never each other in a cycle (``factors`` uses ``fusion``'s
identity check, ``newton`` the ``graphs`` count).
"""

from __future__ import annotations

from . import edges, factors, floors, fusion, geometry, graph_sums, newton, planar, windows
from .factors import poly_text, read_poly
from .state import TRUST_ORDER, State
from ..syntax import Reject, Unsupported

FAMILIES = (factors, newton, fusion, windows, geometry, planar, floors, graph_sums, edges)

# rule name -> (function, phase).  Steps come in non-decreasing phase order:
# 0 factors, 0.5 generic heads, 0.75 sub-sums, 1 lower bound, 1.25 edge roots,
# 1.5 the non-constant floor,
# 2 upper bound, 2.5 graph minors, 3 windowed refutations.
RULES: dict = {}
for _family in FAMILIES:
    RULES.update(_family.RULES)

__all__ = ["RULES", "FAMILIES", "State", "TRUST_ORDER", "Reject", "Unsupported", "read_poly",
           "poly_text"]
