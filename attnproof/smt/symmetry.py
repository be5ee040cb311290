"""Symmetries of a query, for sound lex-leader symmetry breaking.

A symmetry is an affine map ``g(s) = A·s + b`` of the exponent lattice, ``A`` a
coordinate permutation or minus one (``q ↦ -q`` composed with a permutation),
such that ``g·Q = c·Q`` (``c ≠ 0``) and every ``g·P_i`` lies in the rational
span of ``P_1..P_m, Q``, and ``A`` maps the window onto itself (and its free
coordinates onto themselves).  Then ``G ↦ c·A·G`` maps fusions to fusions with
the same atom count and ``supp D ↦ g(supp D)``: the set of solutions of the
query is invariant, so requiring the support vector to be lexicographically
no larger than its image under each symmetry keeps every satisfiable query
satisfiable.  Candidate permutations come from a backtracking search over
coordinates pruned by projected supports.

For a graph sum ``W_G`` the edge orientations matter: a graph automorphism
that reverses some but not all edges changes ``P`` by terms outside the span,
and is rejected; reversing every edge together with ``q ↦ -q`` is kept.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.fusion import reduced_form
>>> from attnproof.smt.lineality import full_frame
>>> from attnproof.smt.window import box_window
>>> r = reduced_form(sigmoid_sum(2))
>>> perms, order = window_symmetries(r, box_window(full_frame(2), 1))
>>> order           # swap x1, x2; and q ↦ -q (σ(-t) = 1 - σ(t)), alone and with the swap
4
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Sequence

from ..algebra.expfrac import poly_to_dict
from .lineality import rref
from .window import Window

__all__ = ["window_symmetries", "coordinate_automorphisms", "MAX_SUPPORT"]

MAX_SUPPORT = 5000
MAX_CANDIDATES = 5000

Exponent = tuple[int, ...]


def coordinate_automorphisms(support: Sequence[Exponent], d: int, target: Sequence[Exponent] | None = None,
                             limit: int = MAX_CANDIDATES) -> list[tuple[int, ...]]:
    """Coordinate permutations ``π`` (``π[j]`` = image of ``j``) mapping one support onto another.

    Backtracking over coordinates: coordinate ``j`` may go to ``π[j]`` only if
    the projections of both supports on the coordinates assigned so far agree
    as multisets; a complete assignment is checked as a set equality.

    >>> coordinate_automorphisms([(1, 0), (0, 1)], 2)
    [(0, 1), (1, 0)]
    >>> len(coordinate_automorphisms([(1, 1, 0), (0, 1, 1), (1, 0, 1)], 3))
    6
    """
    if target is None:
        target = support
    if len(support) != len(target):
        return []
    tset = set(map(tuple, target))
    out: list[tuple[int, ...]] = []
    perm = [-1] * d
    used = [False] * d

    def grow(j: int) -> None:
        if len(out) >= limit:
            return
        if j == d:
            if {tuple(s[perm.index(i)] for i in range(d)) for s in support} == tset:
                out.append(tuple(perm))
            return
        for i in range(d):
            if used[i]:
                continue
            perm[j] = i
            left = Counter(tuple(s[c] for c in range(j + 1)) for s in support)
            right = Counter(tuple(t[perm[c]] for c in range(j + 1)) for t in target)
            if left == right:
                used[i] = True
                grow(j + 1)
                used[i] = False
            perm[j] = -1

    grow(0)
    return sorted(out)


def _apply(perm: Sequence[int], sign: int, s: Exponent) -> list[int]:
    out = [0] * len(s)
    for j, x in enumerate(s):
        out[perm[j]] = sign * x
    return out


def _in_span(basis: list[dict[Exponent, int]], v: dict[Exponent, int]) -> bool:
    mons = sorted(set(v).union(*[set(b) for b in basis]))
    cols = [[Fraction(b.get(m, 0)) for m in mons] for b in basis]
    if not mons:
        return True
    mat = [[c[i] for c in cols] for i in range(len(mons))]
    aug = [row + [Fraction(v.get(m, 0))] for row, m in zip(mat, mons)]
    return len(rref(mat)[1]) == len(rref(aug)[1])


def window_symmetries(r, window: Window, numerators: bool = True) -> tuple[list[list[int]], int]:
    """Permutations of the query's targets (``supp Q + W``, sorted) induced by the symmetries.

    Returns the non-identity permutations and the order of the group found
    (identity included).  With ``numerators=False`` condition 2 (the ``P_i``)
    is dropped: the symmetries of the denominator-only query, which has no
    numerator constraints.

    >>> from attnproof.families import graph_sum, named_graph
    >>> from attnproof.fusion import reduced_form
    >>> from attnproof.smt.lineality import lineality_frame
    >>> from attnproof.smt.window import box_window
    >>> r = reduced_form(graph_sum(named_graph("complete", 4)))
    >>> w = box_window(lineality_frame(r), 1)
    >>> window_symmetries(r, w)[1], window_symmetries(r, w, numerators=False)[1]
    (2, 12)
    """
    qd = poly_to_dict(r.Q)
    pds = [poly_to_dict(p) for p in r.P] if numerators else []
    d = r.lattice.nvars
    support = sorted(qd)
    if len(support) > MAX_SUPPORT or d == 0:
        return [], 1
    wset = set(window.points)
    free = set(window.coordinates) if window.kind == "box" else set(range(d))
    targets = sorted({tuple(a + b for a, b in zip(s, w)) for s in support for w in window.points})
    index = {t: i for i, t in enumerate(targets)}
    basis = pds + [qd]
    qmin = [min(s[j] for s in support) for j in range(d)]
    perms: list[list[int]] = []
    order = 0
    for sign in (1, -1):
        flipped = [tuple(sign * x for x in s) for s in support]
        lo = [min(s[j] for s in flipped) for j in range(d)]
        normal = sorted(tuple(a - b for a, b in zip(s, lo)) for s in flipped)
        for perm in coordinate_automorphisms(support, d, normal):
            if {perm[j] for j in free} != free:
                continue
            img = [_apply(perm, sign, s) for s in support]
            b = [qmin[j] - min(s[j] for s in img) for j in range(d)]
            gmap = {s: tuple(x + y for x, y in zip(im, b)) for s, im in zip(support, img)}
            if set(gmap.values()) != set(support):
                continue
            ratios = {Fraction(qd[gmap[s]], qd[s]) for s in support}
            if len(ratios) != 1:
                continue
            if {tuple(_apply(perm, sign, w)) for w in window.points} != wset:
                continue

            def act(p: dict[Exponent, int]) -> dict[Exponent, int]:
                return {tuple(x + y for x, y in zip(_apply(perm, sign, s), b)): c for s, c in p.items()}

            if not all(_in_span(basis, act(p)) for p in pds):
                continue
            order += 1
            if sign == 1 and list(perm) == list(range(d)):
                continue
            tp = []
            for t in targets:
                u = tuple(x + y for x, y in zip(_apply(perm, sign, t), b))
                if u not in index:
                    break
                tp.append(index[u])
            else:
                perms.append(tp)
    return perms, max(order, 1)
