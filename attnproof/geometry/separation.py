"""The separation oracle: a functional or a Gordan certificate for integer difference vectors.

Every vertex question of THEORY §9 reduces to one: given integer vectors
``g_1..g_m`` (differences ``p - q`` between a candidate maximizer and the
points it must beat), find integers ``c`` with ``<c, g_i> >= 1`` for all
``i``, or positive integers ``μ_i`` on some rows with ``Σ μ_i g_i = 0``
(Gordan's theorem: exactly one exists).  A floating-point LP (HiGHS) guesses;
the answer is then made exact and verified:

* functional: the LP optimum ``c'`` (columns scaled by powers of two) is
  scaled up and rounded to integers at rising precision until every
  inequality holds exactly;
* Gordan: the support of the LP's multipliers, and the exact integer kernel
  (FLINT ``fmpz_mat``, linear algebra only) of those rows, positive.

When either step fails the exact simplex of :mod:`.exact_lp` decides.

Linearly independent rows (at most ``d`` of them, the common case of a vertex
question on a few heads) need no LP: ``c = Σ λ_i g_i`` with ``G λ = 1`` for the Gram
matrix ``G`` of the rows (non-singular) makes every ``<c, g_i>`` equal, and
clearing the denominators of ``λ`` makes them equal positive integers; such rows
have no Gordan certificate.  Exact (FLINT), verified like the others, and it spares
a process the import of SciPy's LP (a second on a loaded machine, more than the
proof of a small problem).

>>> separate([(1, 0), (0, 1), (1, 1)])
Functional(c=(1, 1))
>>> separate([(1, 0), (-3, 0), (0, 1)])
Gordan(mu={0: 3, 1: 1})
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Sequence

from .exact_lp import gordan_alternative
from math import lcm
import flint

__all__ = ["Functional", "Gordan", "separate", "refute", "verify_functional", "verify_gordan", "stats"]

stats = {"lp": 0, "rounded": 0, "kernel": 0, "exact": 0, "tight": 0}


@dataclass(frozen=True)
class Functional:
    """Integer functional ``c`` with ``<c, g> >= 1`` for every row ``g``."""

    c: tuple


@dataclass(frozen=True)
class Gordan:
    """Positive integer multipliers ``{row: μ}`` with ``Σ μ_row g_row = 0``."""

    mu: dict


def dot(a: Sequence[int], b: Sequence[int]) -> int:
    """Exact integer inner product.

    >>> dot((2, -3), (10 ** 40, 1))
    19999999999999999999999999999999999999997
    """
    return sum(x * y for x, y in zip(a, b))


def verify_functional(rows: Sequence[Sequence[int]], c: Sequence[int]) -> bool:
    """``<c, g> >= 1`` for every row, exactly."""
    return all(dot(c, g) >= 1 for g in rows)


def verify_gordan(rows: Sequence[Sequence[int]], mu: dict) -> bool:
    """``μ > 0`` integers on existing rows, not empty, and ``Σ μ_i g_i = 0`` exactly."""
    if not mu or any(type(v) is not int or v <= 0 for v in mu.values()):
        return False
    if any(i < 0 or i >= len(rows) for i in mu):
        return False
    d = len(rows[0])
    return all(sum(v * rows[i][j] for i, v in mu.items()) == 0 for j in range(d))


def _scaled(rows: Sequence[Sequence[int]]):
    """Float matrix with column ``j`` divided by ``2^B_j`` (``B_j`` its largest bit length)."""
    import numpy as np

    d = len(rows[0])
    B = [max((abs(g[j]).bit_length() for g in rows), default=0) for j in range(d)]
    A = np.empty((len(rows), d))
    for j in range(d):
        sh = B[j] - 60
        for i, g in enumerate(rows):
            x = g[j]
            A[i, j] = float(x >> sh if sh > 0 else x << -sh) if x else 0.0
    A *= 2.0 ** -60
    return A, B


def tight_functional(rows: Sequence[Sequence[int]]) -> tuple | None:
    """A primitive integer ``c`` with ``<c, g>`` the same positive integer for every row
    when the rows are linearly independent (``c`` in their span, through the Gram
    matrix); None when they are dependent (or more rows than coordinates).

    >>> tight_functional([(1, 0, 0), (1, 1, 0)])
    (1, 0, 0)
    >>> tight_functional([(2, 1), (-1, 3)])          # <c, g> = 7 for both rows
    (2, 3)
    >>> tight_functional([(1, 2), (2, 4)]) is None
    True
    """

    m, d = len(rows), len(rows[0])
    if m > d:
        return None
    G = flint.fmpz_mat([[dot(a, b) for b in rows] for a in rows])
    if G.det() == 0:
        return None
    X = G.solve(flint.fmpz_mat([[1]] * m))
    lam = [X[i, 0] for i in range(m)]
    q = lcm(*(int(x.denom()) for x in lam))
    lam = [int(x.numer()) * (q // int(x.denom())) for x in lam]
    c = _primitive(tuple(sum(l * g[j] for l, g in zip(lam, rows)) for j in range(d)))
    return c if verify_functional(rows, c) else None


def _lp_functional(A):
    """Float ``(c', t)`` maximizing the margin ``t`` of the row-normalized system ``A c' >= t``."""
    import numpy as np
    from scipy.optimize import linprog

    m, d = A.shape
    norms = np.linalg.norm(A, axis=1)
    norms[norms == 0] = 1.0
    An = A / norms[:, None]
    obj = np.zeros(d + 1)
    obj[-1] = -1.0
    Aub = np.hstack([-An, np.ones((m, 1))])
    res = linprog(obj, A_ub=Aub, b_ub=np.zeros(m), bounds=[(-1, 1)] * d + [(None, 1)],
                  method="highs")
    if res.status != 0:
        return None, 0.0
    return res.x[:d], float(res.x[-1])


def _lp_gordan(A):
    """Float multipliers ``μ >= 0``, ``Σ μ = 1``, ``Σ μ_i a_i = 0`` (a basic solution), or None."""
    import numpy as np
    from scipy.optimize import linprog

    m, d = A.shape
    norms = np.linalg.norm(A, axis=1)
    norms[norms == 0] = 1.0
    An = A / norms[:, None]
    Aeq = np.vstack([An.T, np.ones((1, m))])
    beq = np.zeros(d + 1)
    beq[-1] = 1.0
    res = linprog(np.zeros(m), A_eq=Aeq, b_eq=beq, bounds=[(0, None)] * m, method="highs-ds")
    if res.status != 0:
        return None
    return res.x


def _round_functional(rows, cf, B):
    top = max(B) if B else 0
    for prec in (8, 14, 20, 32, 44, 56):
        c = tuple(int(round(x * 2.0 ** min(prec + top - b, 1000))) if abs(x) > 0 else 0
                  for x, b in zip(cf, B))
        if any(c) and verify_functional(rows, c):
            return _primitive(c)
    # exact scaling for huge exponent spreads: c_j = round(c'_j 2^prec) << (top - b_j)
    for prec in (30, 50):
        c = tuple((int(round(x * 2.0 ** prec)) << (top - b)) for x, b in zip(cf, B))
        if any(c) and verify_functional(rows, c):
            return c
    return None


def _primitive(c: tuple) -> tuple:
    """Divide by the gcd: ``<c, g>`` stays a positive integer, so still ``>= 1``."""
    g = 0
    for x in c:
        g = gcd(g, x)
    return tuple(x // g for x in c) if g > 1 else c


def _kernel_gordan(rows, support):
    """Exact positive integer kernel vector of the rows in ``support`` (FLINT), or None."""

    S = sorted(support)
    d = len(rows[0])
    M = flint.fmpz_mat([[rows[i][j] for i in S] for j in range(d)])
    X, nullity = M.nullspace()
    if nullity != 1:
        return None
    v = [int(X[k, 0]) for k in range(len(S))]
    if all(x < 0 for x in v):
        v = [-x for x in v]
    if not all(x > 0 for x in v):
        return None
    g = 0
    for x in v:
        g = gcd(g, x)
    mu = {i: x // g for i, x in zip(S, v)}
    return mu if verify_gordan(rows, mu) else None


def refute(rows: Sequence[Sequence[int]], approx=None) -> Gordan | None:
    """A verified :class:`Gordan` certificate when the float LP finds one, else None
    (for rows already believed inseparable; :func:`separate` decides otherwise).

    >>> refute([(1, 0), (-2, 0), (0, 1)])
    Gordan(mu={0: 2, 1: 1})
    """
    if not rows:
        return None
    for i, g in enumerate(rows):
        if not any(g):
            return Gordan({i: 1})
    if tight_functional(rows) is not None:      # independent rows: no Gordan certificate
        return None
    try:
        A, _ = approx if approx is not None else _scaled(rows)
        return _lp_refutation(rows, A)
    except (ImportError, ValueError, OverflowError):
        return None


def _lp_refutation(rows: Sequence[Sequence[int]], A) -> Gordan | None:
    """The float LP's Gordan multipliers, made exact on their support and verified; or None."""
    mu_f = _lp_gordan(A)
    if mu_f is None:
        return None
    top = float(mu_f.max())
    support = [i for i, x in enumerate(mu_f) if x > 1e-9 * top]
    mu = _kernel_gordan(rows, support) if support else None
    if mu is None:
        return None
    stats["kernel"] += 1
    return Gordan(mu)


def separate(rows: Sequence[Sequence[int]], dim: int | None = None,
             approx=None) -> Functional | Gordan:
    """A verified :class:`Functional` for the integer ``rows``, or a verified :class:`Gordan`.

    ``dim`` is needed only when ``rows`` is empty (then ``c = 0`` separates trivially).
    ``approx``: optional ``(A, B)``, a float matrix close to ``rows`` with column ``j``
    divided by ``2^B[j]`` (saves the conversion when the caller has it).

    >>> separate([], dim=2)
    Functional(c=(0, 0))
    >>> separate([(0, 0)])
    Gordan(mu={0: 1})
    """
    if not rows:
        if dim is None:
            raise ValueError("separate: empty rows need dim")
        return Functional((0,) * dim)
    for i, g in enumerate(rows):
        if not any(g):
            return Gordan({i: 1})
    c = tight_functional(rows)
    if c is not None:
        stats["tight"] += 1
        return Functional(c)
    try:
        A, B = approx if approx is not None else _scaled(rows)
        stats["lp"] += 1
        cf, t = _lp_functional(A)
        if cf is not None and t > 1e-9:
            c = _round_functional(rows, cf, B)
            if c is not None:
                stats["rounded"] += 1
                return Functional(c)
        elif cf is not None:
            refutation = _lp_refutation(rows, A)
            if refutation is not None:
                return refutation
    except (ImportError, ValueError, OverflowError):
        pass
    stats["exact"] += 1
    _, val = gordan_alternative(rows)     # a functional c (a tuple) or multipliers {i: μ_i}
    if isinstance(val, tuple):
        return Functional(val)
    return Gordan(val)
