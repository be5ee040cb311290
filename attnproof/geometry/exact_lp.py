"""Exact Gordan alternative by a small rational simplex method (the fallback of :func:`separate`).

For integer vectors ``g_1..g_m`` exactly one holds (Gordan's theorem):
a functional ``c`` with ``<c, g_i> > 0`` for every ``i``, or multipliers
``μ >= 0``, not all zero, with ``Σ μ_i g_i = 0``.  Phase one of the simplex
method on ``Σ μ_i g_i = 0, Σ μ_i = 1, μ >= 0`` decides it with exact
rationals (Bland's rule, so it terminates): a feasible basis gives ``μ``,
an infeasible one gives the Farkas dual, which is ``c``.

>>> gordan_alternative([(1, 0), (0, 1)])
('functional', (1, 1))
>>> gordan_alternative([(1, 1), (-2, -2), (0, 1)])
('gordan', {0: 2, 1: 1})
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, lcm
from typing import Sequence

__all__ = ["gordan_alternative"]


def _integral(xs) -> list[int]:
    """Scale non-negative... rationals to coprime integers (same direction)."""
    den = 1
    for x in xs:
        den = lcm(den, Fraction(x).denominator)
    ints = [int(Fraction(x) * den) for x in xs]
    g = 0
    for v in ints:
        g = gcd(g, v)
    return [v // g for v in ints] if g > 1 else ints


def gordan_alternative(rows: Sequence[Sequence[int]]) -> tuple[str, tuple[int, ...] | dict[int, int]]:
    """``('functional', c)`` with ``<c, g> >= 1`` for all rows, or ``('gordan', {i: μ_i})``.

    Exact rational arithmetic throughout; cost grows with the number of pivots
    (fine for the fallback sizes: tens of dimensions, hundreds of rows).
    """
    m = len(rows)
    if m == 0:
        raise ValueError("no rows")
    d = len(rows[0])
    # equality system A μ = b: d rows Σ μ_i g_i = 0, one row Σ μ_i = 1
    nr = d + 1
    ncol = m + nr                         # μ columns, then one artificial per row
    T = []
    for r in range(nr):
        row = [Fraction(rows[i][r]) if r < d else Fraction(1) for i in range(m)]
        row += [Fraction(1 if k == r else 0) for k in range(nr)]
        row.append(Fraction(1 if r == d else 0))      # right-hand side
        T.append(row)
    basis = [m + r for r in range(nr)]
    # objective row: reduced costs of min Σ artificials, z = -Σ rhs
    cost = [Fraction(0)] * m + [Fraction(1)] * nr
    obj = [cost[j] - sum(T[r][j] for r in range(nr)) for j in range(ncol)]
    obj.append(-sum((T[r][ncol] for r in range(nr)), Fraction(0)))
    while True:
        enter = next((j for j in range(ncol) if obj[j] < 0), None)   # Bland
        if enter is None:
            break
        best, leave = Fraction(0), None    # the least ratio, at row leave (None: none yet)
        for r in range(nr):
            a = T[r][enter]
            if a > 0:
                ratio = T[r][ncol] / a
                if leave is None or ratio < best or (ratio == best and basis[r] < basis[leave]):
                    best, leave = ratio, r
        if leave is None:                 # cannot happen: phase one is bounded below by 0
            raise ArithmeticError("unbounded phase one")
        piv = T[leave][enter]
        prow = [x / piv for x in T[leave]]
        T[leave] = prow
        for r in range(nr):
            if r != leave and T[r][enter] != 0:
                f = T[r][enter]
                T[r] = [x - f * y for x, y in zip(T[r], prow)]
        if obj[enter] != 0:
            f = obj[enter]
            obj = [x - f * y for x, y in zip(obj, prow)]
        basis[leave] = enter
    if obj[ncol] == 0:                    # feasible: Σ artificials = 0
        mu: dict[int, Fraction] = {}
        for r, b in enumerate(basis):
            if b < m and T[r][ncol] != 0:
                mu[b] = T[r][ncol]
        keys = sorted(mu)
        ints = _integral([mu[k] for k in keys])
        return "gordan", dict(zip(keys, ints))
    # infeasible: dual y_r = cost_r - reduced cost of artificial r
    y = [Fraction(1) - obj[m + r] for r in range(nr)]
    w, w0 = y[:d], y[d]
    # y^T A_j <= 0 for every μ column: <w, g_j> + w0 <= 0, and y^T b = w0 > 0
    c = [-x / w0 for x in w]
    den = 1
    for x in c:
        den = lcm(den, x.denominator)
    ci = tuple(int(x * den) for x in c)
    if any(sum(a * b for a, b in zip(ci, g)) < 1 for g in rows):
        raise ArithmeticError("exact simplex produced a functional that does not separate")
    return "functional", ci
