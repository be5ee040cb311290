"""Exact linear algebra and counting helpers of the checker (standard library only).

>>> rank([[1, 0, 1], [0, 1, 1], [1, 1, 2]])
2
>>> acyclic_orientations(3, [(0, 1), (1, 2), (0, 2)])     # triangle: 2^3 - 2
6
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd


def rank(rows) -> int:
    """Rank of an integer matrix by exact Gaussian elimination over Q."""
    m = [[Fraction(x) for x in r] for r in rows]
    r = 0
    ncols = len(m[0]) if m else 0
    for col in range(ncols):
        piv = next((i for i in range(r, len(m)) if m[i][col] != 0), None)
        if piv is None:
            continue
        m[r], m[piv] = m[piv], m[r]
        for i in range(len(m)):
            if i != r and m[i][col] != 0:
                f = m[i][col] / m[r][col]
                m[i] = [a - f * b for a, b in zip(m[i], m[r])]
        r += 1
        if r == len(m):
            break
    return r


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
