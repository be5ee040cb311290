"""Vertices of a Minkowski sum in the plane (docs/certificates.md §6.3 ``planar``, §6.12).

The face of ``A + B`` maximizing a direction is the sum of the faces of ``A`` and
``B``; it is an edge exactly when one of them is.  So the outer edge normals of a
sum of polygons are the union of the summands' (THEORY Lemma 6 in the plane).
Walking each hull counter-clockwise an edge is known by its primitive direction:
the sum has as many vertices as distinct directions, or 1 when there is none (all
points).  A segment has the two directions ``±(b - a)``; multiplicities change
nothing.  The checker builds every hull itself (monotone chain, integer cross
products), charged before sorting: ``O(Σ n_i log n_i)``, no data in the certificate.

>>> planar_count([[(0, 0), (1, 0)], [(0, 0), (0, 1)], [(0, 0), (1, 1)]])
6
>>> planar_count([[(0, 0), (2, 0), (1, 0)], [(0, 0), (5, 0)]]), planar_count([[(3, 4)]])
(2, 1)
"""

from __future__ import annotations

from math import gcd

from ..syntax import UNLIMITED, Budget, Reject, fields
from .state import State

__all__ = ["planar_count", "planar_block", "RULES"]


def _chain(ps: list) -> list:
    out: list = []
    for p in ps:
        while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                 - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
            out.pop()
        out.append(p)
    return out[:-1]


def planar_count(point_sets: list, budget: Budget = UNLIMITED) -> int:
    """Vertices of ``Σ_i conv(point_sets[i])`` for finite point sets in ``Z^2``, each hull
    charged to ``budget`` before its points are sorted."""
    dirs: set = set()
    for pts in point_sets:
        budget.charge(len(pts) * (len(pts).bit_length() + 1), "planar hulls")
        ps = sorted(set(pts))
        ring = _chain(ps) + _chain(ps[::-1])        # empty for a single point
        for a, b in zip(ring, ring[1:] + ring[:1]):
            g = gcd(b[0] - a[0], b[1] - a[1])
            dirs.add(((b[0] - a[0]) // g, (b[1] - a[1]) // g))
    return max(1, len(dirs))


def planar_block(st: State, blk: dict, fs: list, bvars: list, where: str) -> int:
    """A ``planar`` block: at most two x variables; count of ``Σ_i e_i·Newt_x(f_i)``."""
    fields(blk, {"factors", "method"}, set(), where)
    if len(bvars) > 2:
        raise Reject(f"{where}: a planar block has at most 2 x variables, not {len(bvars)}")
    fps = [st.factors[j][0] for j in fs]
    st.budget.charge(sum(len(f) + sum(map(len, f)) for f in fps), "planar points")
    # the block's x variables, padded to two; one that varies in no factor of the block
    # (a monomial factor, as generic_heads binds D_h) is a translation, dropped
    pad = (0,) * (2 - len(bvars))
    return planar_count([{tuple(dict(m).get(v, 0) for v in bvars) + pad for m in f} for f in fps], st.budget)


def rule_planar_vertices(st: State, step: dict, where: str) -> None:
    """``{"rule": "planar_vertices"}``: ``Σ_i Newt_x(f_i)`` over every bound factor,
    whose varying x variables are at most two; always complete."""
    fields(step, {"rule"}, set(), where)
    if st.lower is not None:
        raise Reject(f"{where}: a second lower-bound step")
    if not st.factors:
        raise Reject(f"{where}: no bound factors (use newton_blocks with no blocks)")
    fs = list(range(len(st.factors)))
    bvars = sorted(set().union(*(st.factor_xvars(j) for j in fs)))
    st.lower = planar_block(st, {"factors": fs, "method": "planar"}, fs, bvars, where)
    st.complete = True


# rule name -> (function, phase): a lower-bound count, after generic_heads
RULES = {"planar_vertices": (rule_planar_vertices, 1)}
