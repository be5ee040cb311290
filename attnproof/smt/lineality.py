"""Lineality of a reduced form and the sublattice a search window may live in.

If every exponent of ``Q`` and of the numerators ``P`` has the same value of
``<c, ·>`` (``Q``, ``P`` homogeneous for the grading by ``c``), the multi-head is
invariant under ``q ↦ q + t·c``; graph sums are, for ``c = 1`` on each connected
component.  Splitting a fusion's ``G`` into graded pieces, each piece is again a
fusion with no more atoms (the graded pieces of ``D = Q·G`` and ``N = P·G`` are
sub-sums), and a monomial translation moves it onto the sublattice
``Λ = {t : <c, t> = 0 for every such c}``.  So a search loses nothing by
restricting ``G`` to ``Λ``: the window is a box in the *free* coordinates, and
the *dependent* coordinates are solved from ``<c, t> = 0``.

>>> from attnproof.families import graph_sum, named_graph
>>> from attnproof.fusion import reduced_form
>>> f = lineality_frame(reduced_form(graph_sum(named_graph("cycle", 4))))
>>> f.free, f.dependent, f.directions
((0, 1, 2), (3,), ((1, 1, 1, 1),))
>>> f.lift((1, -1, 1))
(1, -1, 1, -1)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm
from typing import Iterable, Sequence

from ..display import fields_repr

__all__ = ["Frame", "lineality_frame", "full_frame", "nullspace", "rref"]


def rref(rows: Sequence[Sequence[int | Fraction]]) -> tuple[list[list[Fraction]], list[int]]:
    """Reduced row echelon form over the rationals, with its pivot columns.

    >>> rref([[2, 4], [1, 3]])[1]
    [0, 1]
    """
    m = [[Fraction(x) for x in r] for r in rows]
    pivots: list[int] = []
    ncols = len(m[0]) if m else 0
    r = 0
    for c in range(ncols):
        p = next((i for i in range(r, len(m)) if m[i][c] != 0), None)
        if p is None:
            continue
        m[r], m[p] = m[p], m[r]
        piv = m[r][c]
        m[r] = [x / piv for x in m[r]]
        for i in range(len(m)):
            if i != r and m[i][c] != 0:
                f = m[i][c]
                m[i] = [a - f * b for a, b in zip(m[i], m[r])]
        pivots.append(c)
        r += 1
        if r == len(m):
            break
    return m[:r], pivots


def nullspace(rows: Sequence[Sequence[int]], ncols: int) -> list[tuple[int, ...]]:
    """A basis of the rational null space of ``rows``, as primitive integer vectors.

    >>> nullspace([[1, -1, 0], [0, 1, -1]], 3)
    [(1, 1, 1)]
    """
    if not rows:
        return [tuple(1 if i == j else 0 for i in range(ncols)) for j in range(ncols)]
    red, piv = rref(rows)
    free = [c for c in range(ncols) if c not in piv]
    basis = []
    for f in free:
        v = [Fraction(0)] * ncols
        v[f] = Fraction(1)
        for row, p in zip(red, piv):
            v[p] = -row[f]
        den = lcm(*(x.denominator for x in v))
        iv = [int(x * den) for x in v]
        g = 0
        for x in iv:
            g = gcd(g, x)
        basis.append(tuple(x // g for x in iv))
    return basis


@dataclass(frozen=True, repr=False)
class Frame:
    """The sublattice ``Λ`` of ``Z^d`` where ``G`` is searched, parametrized by free coordinates.

    ``directions`` are primitive integer vectors ``c`` of the lineality (empty
    when there is none); ``rows`` express each dependent coordinate through the
    free ones: ``t[dependent[i]] = Σ_j rows[i][j]·t[free[j]]``.
    """

    dim: int
    free: tuple[int, ...]
    dependent: tuple[int, ...]
    directions: tuple[tuple[int, ...], ...]
    rows: tuple[tuple[Fraction, ...], ...]

    def __repr__(self) -> str:
        """Short: the free and dependent coordinates and the lineality directions."""
        return fields_repr("Frame", dim=self.dim, free=self.free, dependent=self.dependent,
                           directions=self.directions)

    @property
    def homogeneous(self) -> bool:
        """True when a lineality was found and removed.

        >>> full_frame(2).homogeneous
        False
        """
        return bool(self.directions)

    @property
    def unimodular(self) -> bool:
        """True when every integer choice of the free coordinates lifts to ``Λ``.

        >>> full_frame(2).unimodular
        True
        """
        return all(x.denominator == 1 for r in self.rows for x in r)

    def lift(self, a: Sequence[int]) -> tuple[int, ...] | None:
        """The point of ``Λ`` with free coordinates ``a``, or None if it is not integral.

        >>> full_frame(2).lift((3, -1))
        (3, -1)
        """
        t = [0] * self.dim
        for j, x in zip(self.free, a):
            t[j] = int(x)
        for p, row in zip(self.dependent, self.rows):
            v = sum((c * x for c, x in zip(row, a)), Fraction(0))
            if v.denominator != 1:
                return None
            t[p] = int(v)
        return tuple(t)

    def to_dict(self) -> dict:
        """JSON description: free and dependent coordinates and lineality directions.

        >>> full_frame(2).to_dict()
        {'free': [0, 1], 'dependent': [], 'lineality': []}
        """
        return {"free": list(self.free), "dependent": list(self.dependent),
                "lineality": [list(c) for c in self.directions]}


def full_frame(dim: int) -> Frame:
    """The frame without lineality removal: all coordinates free.

    >>> full_frame(3).free
    (0, 1, 2)
    """
    return Frame(dim, tuple(range(dim)), (), (), ())


def _differences(points: Iterable[tuple[int, ...]]) -> list[list[int]]:
    pts = sorted(set(points))
    if not pts:
        return []
    p0 = pts[0]
    return [[a - b for a, b in zip(p, p0)] for p in pts[1:]]


def lineality_frame(r) -> Frame:
    """The frame of a reduced form: the lineality of ``supp Q ∪ supp P`` removed.

    Dependent coordinates are chosen from the last coordinate backwards (the
    last node of each component of a graph sum).

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.fusion import reduced_form
    >>> lineality_frame(reduced_form(sigmoid_sum(2))).homogeneous
    False
    """
    d = r.lattice.dim
    pts = {tuple(int(c) for c in e[:d]) for e in r.Q.monoms()}
    for p in r.P:
        pts |= {tuple(int(c) for c in e[:d]) for e in p.monoms()}
    diffs = [row for row in _differences(pts) if any(row)]
    dirs = nullspace(diffs, d) if diffs else [tuple(1 if i == j else 0 for i in range(d)) for j in range(d)]
    if not dirs:
        return full_frame(d)
    # pivots from the right: reverse the columns, reduce, map back
    red, piv = rref([list(reversed(c)) for c in dirs])
    dependent = tuple(sorted(d - 1 - p for p in piv))
    free = tuple(j for j in range(d) if j not in dependent)
    rows = []
    for p in dependent:
        row_idx = piv.index(d - 1 - p)
        row = list(reversed(red[row_idx]))           # back to original column order
        # row · t = 0 with row[p] = 1  ⇒  t[p] = -Σ_{free j} row[j] t[j]
        # (other dependent columns are 0 in a reduced row)
        rows.append(tuple(-row[j] for j in free))
    dirs_sorted = tuple(sorted(tuple(c) if next(x for x in c if x) > 0 else tuple(-x for x in c)
                               for c in dirs))
    return Frame(d, free, dependent, dirs_sorted, tuple(rows))
