"""Sparse Laurent polynomials over Q for the checker: ``{monomial: Fraction}``.

A monomial is a tuple of ``(variable, exponent)`` pairs sorted by variable,
with non-zero exponents (negative exponents allowed: Laurent).  Every function
is sparse: its work depends on the numbers of terms and of pairs, never on
the size of an exponent or on the number of variables of the problem.
Functions that can take long charge a :class:`~attnproof.checker.syntax.Budget`
(one unit per term product or division step, plus the pairs touched) and stop
with *inconclusive* past it.  Only the standard library is used.

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

from .syntax import UNLIMITED, Budget

Mono = tuple
Poly = dict

_END = (0,)


def lex_key(m: Mono) -> tuple:
    """A sort key of a sparse monomial equal to the lexicographic order of its dense
    exponent vector (over all variables, increasing index), whatever the variables.

    >>> ms = [(), ((0, 1),), ((1, 1),), ((0, -1), (2, 5)), ((1, -2),)]
    >>> sorted(ms, key=lex_key)
    [((0, -1), (2, 5)), ((1, -2),), (), ((1, 1),), ((0, 1),)]
    """
    return tuple((1, -v, e) if e > 0 else (-1, v, e) for v, e in m) + (_END,)


def _neg_key(m: Mono) -> tuple:
    # componentwise negation of lex_key: reverses the order (for a min-heap)
    return tuple((-1, v, -e) if e > 0 else (1, -v, -e) for v, e in m) + (_END,)


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


def mono_inv(m: Mono) -> Mono:
    """The inverse monomial.

    >>> mono_inv(((0, 2), (3, -1)))
    ((0, -2), (3, 1))
    """
    return tuple((v, -e) for v, e in m)


def size(p: Poly) -> int:
    """Terms plus pairs: the memory a polynomial takes, in the budget's units.

    >>> size({(): 1, ((0, 1), (1, 1)): 1})
    4
    """
    return len(p) + sum(len(m) for m in p)


def add_into(acc: Poly, p: Poly, scale: Fraction = Fraction(1)) -> None:
    """``acc += scale * p`` in place, dropping zero coefficients."""
    for m, c in p.items():
        s = acc.get(m, 0) + scale * c
        if s:
            acc[m] = s
        else:
            acc.pop(m, None)


def mul(p: Poly, q: Poly, budget: Budget = UNLIMITED) -> Poly:
    """Product of two polynomials (charged ``|p|·|q|`` plus the pairs merged).

    >>> mul({(): Fraction(2)}, {((1, 1),): Fraction(1, 2)})
    {((1, 1),): Fraction(1, 1)}
    """
    budget.charge(len(p) * len(q) + len(p) * (size(q) - len(q)) + len(q) * (size(p) - len(p)),
                  "a polynomial product")
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


def _box(p: Poly) -> tuple[dict, dict]:
    """Per-variable minimum and maximum exponent over ``supp p`` (0 where a term lacks it)."""
    lo: dict = {}
    hi: dict = {}
    seen: dict = {}
    for m in p:
        for v, e in m:
            if v in lo:
                if e < lo[v]:
                    lo[v] = e
                if e > hi[v]:
                    hi[v] = e
                seen[v] += 1
            else:
                lo[v] = hi[v] = e
                seen[v] = 1
    n = len(p)
    for v, k in seen.items():
        if k < n:
            lo[v] = min(lo[v], 0)
            hi[v] = max(hi[v], 0)
    return lo, hi


def variables(p: Poly) -> set:
    """Variables whose exponent is not constant over the terms of ``p``.

    A common monomial factor does not count (it is a unit of the Laurent ring).

    >>> sorted(variables({((0, 1), (1, 1)): 1, ((1, 1),): 1}))
    [0]
    """
    lo, hi = _box(p)
    return {v for v in lo if lo[v] != hi[v]}


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


def divexact(a: Poly, b: Poly, budget: Budget = UNLIMITED) -> Poly | None:
    """``a / b`` when ``b`` divides ``a`` in the Laurent ring, else None.

    Division by lex leading terms: when ``b | a`` every step is forced (the
    leading term of a product is the product of leading terms), so the
    algorithm finds the quotient; it stops with None as soon as a quotient
    term would leave the box ``[min_v(a) - min_v(b), max_v(a) - max_v(b)]``
    that the degrees of an exact quotient must respect in each variable.
    Each step charges ``budget`` (the number of steps can grow with the
    exponents: ``(1 + x^n) / (1 + x)`` takes ``n`` steps).

    >>> sorted(divexact({(): Fraction(1), ((0, 2),): Fraction(-1)},
    ...                 {(): Fraction(1), ((0, 1),): Fraction(1)}).items())
    [((), Fraction(1, 1)), (((0, 1),), Fraction(-1, 1))]
    >>> divexact({(): 1, ((0, 10 ** 100),): 1}, {(): 1, ((0, 1),): 1}, Budget(1000))
    Traceback (most recent call last):
    ...
    attnproof.checker.syntax.Unsupported: an exact division: the check needs more than 1000 operations (the work budget of this certificate)
    """
    if not b:
        raise ZeroDivisionError("division by the zero polynomial")
    if not a:
        return {}
    budget.charge(size(a) + size(b), "an exact division")
    lo_a, hi_a = _box(a)
    lo_b, hi_b = _box(b)
    lo, hi = {}, {}
    for v in set(lo_a) | set(lo_b):
        lo[v] = lo_a.get(v, 0) - lo_b.get(v, 0)
        hi[v] = hi_a.get(v, 0) - hi_b.get(v, 0)
        if lo[v] > hi[v]:
            return None
    required = {v for v in lo if lo[v] > 0 or hi[v] < 0}
    lb = max(b, key=lex_key)
    lcb = b[lb]
    inv_lb = mono_inv(lb)
    rest = [(m, c) for m, c in b.items() if m != lb]
    step_cost = 1 + size(b)
    R = dict(a)
    heap = [(_neg_key(m), m) for m in R]
    heapq.heapify(heap)
    Q: Poly = {}
    while heap:
        _, e = heapq.heappop(heap)
        c = R.pop(e, None)
        if not c:
            continue
        budget.charge(step_cost + len(e), "an exact division")
        qe = mono_mul(e, inv_lb)
        present = 0
        for v, x in qe:
            if v not in lo or x < lo[v] or x > hi[v]:
                return None
            if v in required:
                present += 1
        if present < len(required):
            return None
        qc = Fraction(c) / lcb
        Q[qe] = qc
        for eb, cb in rest:
            t = mono_mul(qe, eb)
            s = R.get(t, 0) - qc * cb
            if s:
                if t not in R:
                    heapq.heappush(heap, (_neg_key(t), t))
                R[t] = s
            else:
                R.pop(t, None)
    return Q


def valuation(f: Poly, p: Poly, budget: Budget = UNLIMITED) -> tuple[int, Poly]:
    """``(k, p / f^k)`` with ``k`` the largest power of ``f`` dividing ``p`` (``p != 0``,
    ``f`` not a monomial).

    >>> f = {(): Fraction(1), ((0, 1),): Fraction(1)}
    >>> valuation(f, mul(f, f))[0]
    2
    """
    k = 0
    while True:
        q = divexact(p, f, budget)
        if q is None:
            return k, p
        k += 1
        p = q


def normal_form(p: Poly, budget: Budget = UNLIMITED) -> Poly:
    """The associate of ``p`` with no monomial factor, coprime integer coefficients
    and a positive coefficient on its lex-largest monomial.

    >>> normal_form({((0, 2),): Fraction(-2), ((0, 1),): Fraction(4, 3)})
    {((0, 1),): Fraction(3, 1), (): Fraction(-2, 1)}
    """
    lo, _ = _box(p)
    shift = tuple(sorted((v, -x) for v, x in lo.items() if x))
    budget.charge(size(p) + len(p) * len(shift), "a normal form")
    den = 1
    for c in p.values():
        c = Fraction(c)
        den = den * c.denominator // gcd(den, c.denominator)
    g = 0
    for c in p.values():
        g = gcd(g, int(Fraction(c) * den))
    lead = max(p, key=lex_key)
    sign = 1 if p[lead] > 0 else -1
    return {mono_mul(m, shift): Fraction(sign * int(Fraction(c) * den) // g) for m, c in p.items()}
