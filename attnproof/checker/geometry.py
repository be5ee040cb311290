"""Exact linear algebra and counting helpers of the checker (standard library only).

>>> rank([[1, 0, 1], [0, 1, 1], [1, 1, 2]])
2
>>> acyclic_orientations(3, [(0, 1), (1, 2), (0, 2)])     # triangle: 2^3 - 2
6
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd

from .syntax import UNLIMITED, Budget


_P = (1 << 61) - 1


def _eliminate(rows, budget: Budget, modular: bool) -> int:
    pivots: dict = {}
    unit = 1 if modular else 4          # a rational entry operation costs about 4 units
    for row in rows:
        items = row.items() if isinstance(row, dict) else enumerate(row)
        if modular:
            r = {c: x % _P for c, x in items if x % _P}
        else:
            r = {c: Fraction(x) for c, x in items if x}
        budget.charge(1 + len(r), "an exact rank")
        while r:
            c = min(r)
            p = pivots.get(c)
            if p is None:
                inv = pow(r[c], -1, _P) if modular else 1 / r[c]
                pivots[c] = {k: (v * inv % _P if modular else v * inv) for k, v in r.items()}
                break
            f = r[c]
            budget.charge(unit * len(p), "an exact rank")
            for k, v in p.items():
                t = (r.get(k, 0) - f * v) % _P if modular else r.get(k, 0) - f * v
                if t:
                    r[k] = t
                else:
                    r.pop(k, None)
    return len(pivots)


def rank(rows, budget: Budget = UNLIMITED) -> int:
    """Rank over Q of integer rows, dense lists or sparse ``{column: value}`` dicts.

    Sparse Gaussian elimination: each row is reduced by the pivots of its
    smallest columns, first modulo a prime ``p`` (integers, fast); the rank
    over Q is at least the rank mod ``p``, so a full rank mod ``p`` is the rank.
    Otherwise the elimination is redone with exact rationals.  Every entry
    touched charges ``budget``: a sparse matrix (unit vectors, graph
    incidences) costs about its number of non-zero entries, a dense ``n x n``
    one about ``n^3``.

    >>> rank([{0: 1, 5: 2}, {5: 1}, {0: 2, 5: 4}])
    2
    """
    rows = list(rows)
    r = _eliminate(rows, budget, True)
    if r == len(rows):
        return r
    return _eliminate(rows, budget, False)


def primitive_direction(g) -> tuple:
    """The primitive integer vector with first non-zero entry positive, parallel to ``g``.

    >>> primitive_direction((0, -2, 4))
    (0, 1, -2)
    """
    k = 0
    for x in g:
        k = gcd(k, x)
    if k == 0:
        raise ValueError("zero vector")
    first = next(x for x in g if x)
    s = 1 if first > 0 else -1
    return tuple(s * x // k for x in g)


def acyclic_orientations(n: int, edges) -> int:
    """Number of acyclic orientations of a simple graph on nodes ``0..n-1``.

    Recurrence over vertex sets (inclusion-exclusion on the set ``I`` of sinks):
    ``a(S) = Σ_{∅≠I⊆S independent} (-1)^{|I|+1} a(S \\ I)``, ``a(∅) = 1``.
    Cost ``3^n``; the checker calls it only for ``n <= 12``.

    >>> acyclic_orientations(4, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
    24
    """
    adj = [0] * n
    for a, b in edges:
        adj[a] |= 1 << b
        adj[b] |= 1 << a
    full = (1 << n) - 1
    indep = {}

    def is_indep(mask: int) -> bool:
        r = indep.get(mask)
        if r is None:
            r = True
            m = mask
            while m:
                low = m & -m
                v = low.bit_length() - 1
                if adj[v] & mask:
                    r = False
                    break
                m ^= low
            indep[mask] = r
        return r

    a = {0: 1}
    for S in range(1, full + 1):
        total = 0
        sub = S
        while sub:
            if is_indep(sub):
                sign = 1 if bin(sub).count("1") % 2 else -1
                total += sign * a[S ^ sub]
            sub = (sub - 1) & S
        a[S] = total
    return a[full]
