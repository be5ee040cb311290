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

from .switch import FAST
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
    if len(a) == 1 and len(b) == 1:
        (v, e), (w, f) = a[0], b[0]
        if v == w:
            return ((v, e + f),) if e + f else ()
        return (a[0], b[0]) if v < w else (b[0], a[0])
    out = []
    i = j = 0
    na, nb = len(a), len(b)
    while i < na and j < nb:
        v, e = a[i]
        w, f = b[j]
        if v == w:
            if e + f:
                out.append((v, e + f))
            i += 1
            j += 1
        elif v < w:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    out.extend(a[i:])
    out.extend(b[j:])
    return tuple(out)


def mono_div(a: Mono, b: Mono) -> Mono:
    """``a / b`` of two sparse monomials (``mono_mul(a, mono_inv(b))`` in one merge).

    >>> mono_div(((0, 1), (2, 1)), ((0, 1), (1, 3)))
    ((1, -3), (2, 1))
    """
    return mono_mul(a, tuple([(v, -e) for v, e in b])) if b else a


def mono_inv(m: Mono) -> Mono:
    """The inverse monomial.

    >>> mono_inv(((0, 2), (3, -1)))
    ((0, -2), (3, 1))
    """
    return tuple((v, -e) for v, e in m)


def size(p: Poly | set) -> int:
    """Terms plus pairs: the memory a polynomial takes, in the budget's units.

    >>> size({(): 1, ((0, 1), (1, 1)): 1})
    4
    """
    return len(p) + sum(map(len, p))


def add_into(acc: Poly, p: Poly, scale=1) -> None:
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
    fast = FAST.variables
    if fast is not None and len(p) == 2:
        return fast(p)
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
    [((), 1), (((0, 1),), -1)]
    >>> divexact({(): 1, ((0, 10 ** 100 + 1),): 1}, {(): 1, ((0, 1),): 1}, Budget(1000))
    Traceback (most recent call last):
    ...
    attnproof.checker.syntax.Unsupported: an exact division: the check needs more than 1000 operations (the work budget of this certificate)
    """
    if not b:
        raise ZeroDivisionError("division by the zero polynomial")
    if not a:
        return {}
    budget.charge(size(a) + size(b), "an exact division")
    fast = FAST.divexact_small
    if fast is not None and len(b) >= 2 and len(a) <= 2:
        q = fast(a, b)
        if q is not UNDECIDED:
            if q is not None:
                budget.charge(3 + size(b), "an exact division")
            return q
    return _divexact(a, b, budget)


UNDECIDED = object()          # a fast path's "ask the general procedure"


def _divexact(a: Poly, b: Poly, budget: Budget) -> Poly | None:
    # the general division of :func:`divexact` (its first charge already made)
    lo_a, hi_a = _box(a)
    lo_b, hi_b = _box(b)
    lo, hi = {}, {}
    for v in set(lo_a) | set(lo_b):
        lo[v] = lo_a.get(v, 0) - lo_b.get(v, 0)
        hi[v] = hi_a.get(v, 0) - hi_b.get(v, 0)
        if lo[v] > hi[v]:
            return None
    # Mixed-radix integer codes over the box of a: every term of a remainder
    # (a minus products of admissible quotient terms with b) stays in that box,
    # and the dense lex order is the order of the codes.  Steps are then integer
    # additions and a heap of integers.
    vs = sorted(set(lo_a) | set(lo_b))
    strides: dict = {}
    span: dict = {}
    sz = 1
    for v in reversed(vs):
        strides[v] = sz
        span[v] = hi_a.get(v, 0) - lo_a.get(v, 0) + 1
        sz *= span[v]
    base = sum(lo_a.get(v, 0) * strides[v] for v in vs)

    def code(m):
        return sum(e * strides[v] for v, e in m) - base

    lb = max(b, key=lex_key)
    lcb = _num(b[lb])
    lbd = dict(lb)
    lcode = code(lb)
    rest = [(code(m) - lcode, _num(c)) for m, c in b.items() if m != lb]
    step_cost = 2 + size(b) + len(vs) + sum(x.bit_length() for x in strides.values()) // 64
    R = {code(m): _num(c) for m, c in a.items()}
    heap = [-k for k in R]
    heapq.heapify(heap)
    Q: Poly = {}
    # a quotient longer than a is rare (1 + x^n over 1 + x): past that many steps
    # a homomorphic image decides non-divisibility before the division goes on
    probe = 2 * len(a) + 16 if len(b) > 1 else -1
    while heap:
        k = -heapq.heappop(heap)
        c = R.pop(k, None)
        if not c:
            continue
        budget.charge(step_cost, "an exact division")
        if len(Q) == probe and not_divisible(a, b, budget):
            return None
        qe = []
        for v in vs:
            x = lo_a.get(v, 0) + (k // strides[v]) % span[v] - lbd.get(v, 0)
            if x < lo[v] or x > hi[v]:
                return None
            if x:
                qe.append((v, x))
        if type(c) is int and type(lcb) is int and c % lcb == 0:
            qc = c // lcb                   # integer arithmetic while it stays exact
        else:
            qc = Fraction(c) / lcb
        Q[tuple(qe)] = qc
        for d, cb in rest:
            t = k + d
            s = R.get(t, 0) - qc * cb
            if s:
                if t not in R:
                    heapq.heappush(heap, -t)
                R[t] = s
            else:
                R.pop(t, None)
    return Q


def _num(c):
    """An integral Fraction as an int (much faster arithmetic), anything else unchanged."""
    return c.numerator if type(c) is Fraction and c.denominator == 1 else c


_P = (1 << 61) - 1            # a prime: images in F_p[t] decide non-divisibility fast
_MAX_IMAGE_DEGREE = 64


def _value(v: int) -> int:
    """A fixed non-zero residue for variable ``v`` (deterministic verdicts)."""
    return (v * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (_P - 1) + 1


def _polymulmod(x: list, y: list, g: list) -> list:
    # product of two residues modulo the monic g (lists of coefficients, low degree first)
    d = len(g) - 1
    out = [0] * (2 * d)
    for i, xi in enumerate(x):
        if xi:
            for j, yj in enumerate(y):
                out[i + j] = (out[i + j] + xi * yj) % _P
    for k in range(len(out) - 1, d - 1, -1):
        c = out[k]
        if c:
            for j in range(d):
                out[k - d + j] = (out[k - d + j] - c * g[j]) % _P
    return out[:d]


def not_divisible(a: Poly, b: Poly, budget: Budget = UNLIMITED) -> bool:
    """True only when ``b ∤ a`` is proven by a homomorphic image (False: undecided).

    Clear denominators (``a`` by any integer, ``b`` to its primitive part: by
    Gauss's lemma ``b | a`` then holds in ``Z[x^±]``), substitute fixed non-zero
    residues mod a prime ``p`` for every variable but one, ``t``, in which ``b``
    has degree ``1..64``, and reduce ``a`` modulo the image of ``b`` in
    ``F_p[t^±]``: each term costs ``O(deg² · log e)``, whatever the exponent
    ``e``.  A non-zero remainder proves ``b ∤ a``.

    >>> one, x = (), ((0, 1),)
    >>> not_divisible({one: 1, ((0, 10 ** 100),): 1}, {one: 1, x: 1})    # 1 + x^even
    True
    >>> not_divisible({one: 1, ((0, 10 ** 100 + 1),): 1}, {one: 1, x: 1})  # x = -1 is a root
    False
    """
    lo, hi = _box(b)
    cand = [(hi[v] - lo[v], v) for v in lo if 0 < hi[v] - lo[v] <= _MAX_IMAGE_DEGREE]
    if not cand:
        return False
    d, t = min(cand)
    budget.charge(4 * (len(a) + len(b)) * (1 + d * d), "an exact division")
    den = 1
    for c in b.values():
        q = 1 if type(c) is int else c.denominator
        if q != 1:
            den = den * q // gcd(den, q)
    ints = {m: (c * den if type(c) is int else c.numerator * (den // c.denominator))
            for m, c in b.items()}
    cont = 0
    for c in ints.values():
        cont = gcd(cont, c)
    g = [0] * (d + 1)
    for m, c in ints.items():
        e, val = 0, c // cont
        for v, x in m:
            if v == t:
                e = x
            else:
                val = val * pow(_value(v), x, _P) % _P
        g[e - lo[t]] = (g[e - lo[t]] + val) % _P
    if g[0] == 0 or g[d] == 0:
        return False                          # degenerate image: undecided
    inv = pow(g[d], -1, _P)
    g = [c * inv % _P for c in g]             # monic
    tpow: dict = {}

    def t_to(e: int) -> list:
        # t^e mod g, e of any size and sign (t is invertible: g(0) != 0)
        if e in tpow:
            return tpow[e]
        if d == 1:                            # g = t + g0: t is -g0 in F_p
            r1 = [pow(-g[0] % _P, e, _P)]
            tpow[e] = r1
            return r1
        if e < 0:
            base = [(-g[j + 1]) * pow(g[0], -1, _P) % _P for j in range(d)]   # t^-1
            e2 = -e
        else:
            base = [0] * d
            if d == 1:
                base[0] = -g[0] % _P
            else:
                base[1] = 1
            e2 = e
        r = [1] + [0] * (d - 1)
        while e2:
            if e2 & 1:
                r = _polymulmod(r, base, g)
            base = _polymulmod(base, base, g)
            e2 >>= 1
        tpow[e] = r
        return r

    acc = [0] * d
    powc: dict = {}
    for m, c in a.items():
        if type(c) is int:
            val = c % _P
        else:
            if c.denominator % _P == 0:
                return False
            val = c.numerator * pow(c.denominator, -1, _P) % _P
        e = 0
        for v, x in m:
            if v == t:
                e = x
            else:
                pv = powc.get((v, x))
                if pv is None:
                    pv = powc[(v, x)] = pow(_value(v), x, _P)
                val = val * pv % _P
        budget.charge(1 + e.bit_length() * d * d // 8, "an exact division")
        for j, r in enumerate(t_to(e)):
            acc[j] = (acc[j] + val * r) % _P
    return any(acc)


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


def is_normal_form(p: Poly) -> bool:
    """``p == normal_form(p)``, decided in linear time without building the normal form.

    >>> is_normal_form({(): 1, ((0, 1),): 2}), is_normal_form({((0, -1),): 1, (): 1})
    (True, False)
    """
    fast = FAST.is_normal_form
    if fast is not None and len(p) == 2:
        return fast(p)
    lo, _ = _box(p)
    if any(lo.values()):
        return False                  # a negative exponent, or a common monomial factor
    g = 0
    for c in p.values():
        if type(c) is not int:
            if Fraction(c).denominator != 1:
                return False
            c = int(c)
        g = gcd(g, c)
    return g == 1 and p[max(p, key=lex_key)] > 0


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
