"""Sparse Laurent polynomials over Q for the checker: ``{monomial: Fraction}``.

A monomial is a tuple of ``(variable, exponent)`` pairs sorted by variable,
with non-zero exponents (negative exponents allowed: Laurent).  Only the
standard library is used.

>>> x, one = ((0, 1),), ()
>>> p = {one: Fraction(1), x: Fraction(1)}          # 1 + x0
>>> sorted(mul(p, p).items())
[((), Fraction(1, 1)), (((0, 1),), Fraction(2, 1)), (((0, 2),), Fraction(1, 1))]
>>> divexact(mul(p, p), p) == p, divexact(p, {x: Fraction(1)}) is None
(True, False)
"""

from __future__ import annotations

import heapq
from fractions import Fraction
from math import gcd

Mono = tuple
Poly = dict


def mono_mul(a: Mono, b: Mono) -> Mono:
    """Product of two sparse monomials (merge of sorted pairs).

    >>> mono_mul(((0, 1), (2, 1)), ((0, -1), (1, 3)))
    ((1, 3), (2, 1))
    """
    if not a:
        return b
    if not b:
        return a
    d = dict(a)
    for v, e in b:
        s = d.get(v, 0) + e
        if s:
            d[v] = s
        else:
            del d[v]
    return tuple(sorted(d.items()))


def add_into(acc: Poly, p: Poly, scale: Fraction = Fraction(1)) -> None:
    """``acc += scale * p`` in place, dropping zero coefficients."""
    for m, c in p.items():
        s = acc.get(m, 0) + scale * c
        if s:
            acc[m] = s
        else:
            acc.pop(m, None)


def mul(p: Poly, q: Poly) -> Poly:
    """Product of two polynomials.

    >>> mul({(): Fraction(2)}, {((1, 1),): Fraction(1, 2)})
    {((1, 1),): Fraction(1, 1)}
    """
    out: Poly = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            m = mono_mul(m1, m2)
            s = out.get(m, 0) + c1 * c2
            if s:
                out[m] = s
            else:
                out.pop(m, None)
    return out


def variables(p: Poly) -> set:
    """Variables whose exponent is not constant over the terms of ``p``.

    A common monomial factor does not count (it is a unit of the Laurent ring).

    >>> sorted(variables({((0, 1), (1, 1)): 1, ((1, 1),): 1}))
    [0]
    """
    allv = {v for m in p for v, _ in m}
    out = set()
    for v in allv:
        exps = {dict(m).get(v, 0) for m in p}
        if len(exps) > 1:
            out.add(v)
    return out


def to_dense(p: Poly, vs: list) -> dict:
    """Dense exponent tuples over the variable list ``vs`` (other variables must be absent)."""
    idx = {v: i for i, v in enumerate(vs)}
    out = {}
    n = len(vs)
    for m, c in p.items():
        e = [0] * n
        for v, k in m:
            e[idx[v]] = k
        out[tuple(e)] = c
    return out


def from_dense(p: dict, vs: list) -> Poly:
    """Inverse of :func:`to_dense`."""
    return {tuple((v, k) for v, k in zip(vs, e) if k): c for e, c in p.items()}


def divexact(a: Poly, b: Poly) -> Poly | None:
    """``a / b`` when ``b`` divides ``a`` in the Laurent ring, else None.

    Division by lex leading terms: when ``b | a`` every step is forced (the
    leading term of a product is the product of leading terms), so the
    algorithm finds the quotient; it stops with None as soon as a quotient
    term would leave the box ``[min_v(a) - min_v(b), max_v(a) - max_v(b)]``
    that the degrees of an exact quotient must respect in each variable.

    >>> sorted(divexact({(): Fraction(1), ((0, 2),): Fraction(-1)},
    ...                 {(): Fraction(1), ((0, 1),): Fraction(1)}).items())
    [((), Fraction(1, 1)), (((0, 1),), Fraction(-1, 1))]
    """
    if not b:
        raise ZeroDivisionError("division by the zero polynomial")
    if not a:
        return {}
    vs = sorted({v for m in a for v, _ in m} | {v for m in b for v, _ in m})
    A, B = to_dense(a, vs), to_dense(b, vs)
    n = len(vs)
    lo = [min(e[i] for e in A) - min(e[i] for e in B) for i in range(n)]
    hi = [max(e[i] for e in A) - max(e[i] for e in B) for i in range(n)]
    if any(l > h for l, h in zip(lo, hi)):
        return None
    lb = max(B)
    lcb = B[lb]
    rest = [(e, c) for e, c in B.items() if e != lb]
    R = dict(A)
    heap = [tuple(-x for x in e) for e in R]
    heapq.heapify(heap)
    Qd: dict = {}
    while heap:
        key = heapq.heappop(heap)
        e = tuple(-x for x in key)
        c = R.pop(e, None)
        if not c:
            continue
        qe = tuple(x - y for x, y in zip(e, lb))
        if any(q < l or q > h for q, l, h in zip(qe, lo, hi)):
            return None
        qc = Fraction(c) / lcb
        Qd[qe] = qc
        for eb, cb in rest:
            t = tuple(x + y for x, y in zip(qe, eb))
            s = R.get(t, 0) - qc * cb
            if s:
                if t not in R:
                    heapq.heappush(heap, tuple(-x for x in t))
                R[t] = s
            else:
                R.pop(t, None)
    return from_dense(Qd, vs)


def valuation(f: Poly, p: Poly) -> tuple[int, Poly]:
    """``(k, p / f^k)`` with ``k`` the largest power of ``f`` dividing ``p`` (``p != 0``).

    >>> f = {(): Fraction(1), ((0, 1),): Fraction(1)}
    >>> valuation(f, mul(f, f))[0]
    2
    """
    k = 0
    while True:
        q = divexact(p, f)
        if q is None:
            return k, p
        k += 1
        p = q


def normal_form(p: Poly) -> Poly:
    """The associate of ``p`` with no monomial factor, coprime integer coefficients
    and a positive coefficient on its lex-largest monomial.

    >>> normal_form({((0, 2),): Fraction(-2), ((0, 1),): Fraction(4, 3)})
    {((0, 1),): Fraction(3, 1), (): Fraction(-2, 1)}
    """
    vs = sorted({v for m in p for v, _ in m})
    D = to_dense(p, vs)
    mins = [min(e[i] for e in D) for i in range(len(vs))]
    den = 1
    for c in D.values():
        den = den * c.denominator // gcd(den, c.denominator)
    ints = {tuple(x - m for x, m in zip(e, mins)): int(c * den) for e, c in D.items()}
    g = 0
    for c in ints.values():
        g = gcd(g, c)
    sign = 1 if ints[max(ints)] > 0 else -1
    return from_dense({e: Fraction(sign * c // g) for e, c in ints.items()}, vs)
