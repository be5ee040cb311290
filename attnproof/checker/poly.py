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
from collections import Counter
from fractions import Fraction
from itertools import accumulate, chain
from math import gcd, lcm
from operator import itemgetter, neg

from .limits import MAX_EXPANSION
from .syntax import UNLIMITED, Budget, Unsupported

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


def size(p: Poly | set | list) -> int:
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


FRACTION_COST = 4             # a Fraction product and sum (gcds) against an int's, in units


def _load(p: Poly) -> tuple[int, int, int]:
    """``(F, S, S2)``: the Fraction coefficients of ``p``, and the sums of ``w`` and ``w²``
    over its coefficients, ``w`` their 64-bit words beyond the first (numerator plus
    denominator).  Linear in ``|p|``; a C-speed pass when every coefficient is a word.

    >>> _load({(): 3, ((0, 1),): Fraction(1, 2)}), _load({(): 1 << 200})
    ((1, 0, 0), (0, 3, 9))
    """
    vals = p.values()
    if set(map(type, vals)) <= {int} and max(map(int.bit_length, vals), default=0) < 64:
        return 0, 0, 0
    ws = [(c.bit_length() if type(c) is int else c.numerator.bit_length() + c.denominator.bit_length()) >> 6
          for c in vals]
    return sum(type(c) is not int for c in vals), sum(ws), sum(w * w for w in ws)


def product_cost(p: Poly, q: Poly) -> int:
    """The work of ``mul(p, q)``, estimated from sizes alone before anything is built:
    one unit per term product, plus the variable pairs merged, plus the coefficient
    arithmetic (a Fraction's gcds cost more than an int product; long coefficients
    cost the product of their lengths in words, quadratically in a Fraction's sum).

    >>> product_cost({(): 1, ((0, 1),): 1}, {(): 1, ((1, 1),): 1})     # 4 products, 4 pairs
    8
    """
    np_, nq = len(p), len(q)
    work = np_ * nq + np_ * (size(q) - nq) + nq * (size(p) - np_)
    fp, sp, s2p = _load(p)
    fq, sq, s2q = _load(q)
    if fp or fq:
        return work + FRACTION_COST * (fp * nq + fq * np_) + (nq * s2p + 2 * sp * sq + np_ * s2q) // 64
    return work + sp * sq // 128


def mul(p: Poly, q: Poly, budget: Budget = UNLIMITED) -> Poly:
    """Product of two polynomials, charged :func:`product_cost` before it is built.

    More than ``MAX_EXPANSION`` term products (docs/certificates.md §8) are refused
    (*inconclusive*) whatever the budget: the product could hold that many terms.

    >>> mul({(): Fraction(2)}, {((1, 1),): Fraction(1, 2)})
    {((1, 1),): Fraction(1, 1)}
    """
    if len(p) * len(q) > MAX_EXPANSION:
        raise Unsupported(f"a polynomial product of {len(p)} by {len(q)} terms (more than "
                          f"{MAX_EXPANSION} term products)")
    budget.charge(product_cost(p, q), "a polynomial product")
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
    for m in p:
        for v, e in m:
            lo[v] = min(lo.get(v, e), e)
            hi[v] = max(hi.get(v, e), e)
    for v, k in Counter(v for m in p for v, _ in m).items():
        if k < len(p):
            lo[v], hi[v] = min(lo[v], 0), max(hi[v], 0)
    return lo, hi


def variables(p: Poly) -> set:
    """Variables whose exponent is not constant over the terms of ``p``.

    A common monomial factor does not count (it is a unit of the Laurent ring).

    >>> sorted(variables({((0, 1), (1, 1)): 1, ((1, 1),): 1}))
    [0]
    """
    if len(p) == 2:               # two terms: the variables whose exponents differ
        a, b = p
        rest = dict(a)
        out = set()
        for v, e in b:
            if rest.pop(v, 0) != e:
                out.add(v)
        out.update(rest)
        return out
    lo, hi = _box(p)
    return {v for v in lo if lo[v] != hi[v]}


def divexact(a: Poly, b: Poly, budget: Budget = UNLIMITED) -> Poly | None:
    """``a / b`` when ``b`` divides ``a`` in the Laurent ring, else None.

    Division by lex leading terms: when ``b | a`` every step is forced (the
    leading term of a product is the product of leading terms), so the
    algorithm finds the quotient; it stops with None as soon as a quotient
    term would leave the box ``[min_v(a) - min_v(b), max_v(a) - max_v(b)]``
    that the degrees of an exact quotient must respect in each variable.

    Charged before it runs: an exact quotient has at least ``|a|/|b|`` terms
    (``|q·b| <= |q|·|b|``), so that many steps are paid first, and each further
    step as it is made (the number of steps can grow with the exponents:
    ``(1 + x^n) / (1 + x)`` takes ``n`` steps).  A homomorphic image
    (:func:`not_divisible`, charged first too) may prove ``b ∤ a`` in one pass
    over ``a``, cheaper than the steps: it is tried before any step when ``a`` is
    long, and when the quotient reaches its least size otherwise.  A quotient
    or remainder of more than ``MAX_EXPANSION`` terms is refused (*inconclusive*).

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
    if len(a) == 1 < len(b):
        return None                   # no multiple of a non-monomial is a monomial
    if len(a) == 2 == len(b):
        # a monomial quotient q maps the monomials of b onto those of a (in one of the two
        # pairings, as b's differ); a pairing of the monomials but not of the coefficients:
        # Newt(q) would be a point, so b does not divide a.  Otherwise the quotient is longer.
        (a0, ca0), (a1, ca1) = a.items()
        ca0 = _num(ca0)
        bs = list(b.items())
        for (u, cu), (w, cw) in (bs, bs[::-1]):
            q = mono_div(a0, u)
            if mono_mul(q, w) == a1:
                cu = _num(cu)
                qc = ca0 // cu if type(ca0) is int and type(cu) is int and ca0 % cu == 0 else Fraction(ca0) / cu
                if qc * cw != ca1:
                    return None
                budget.charge(3 + size(b), "an exact division")
                return {q: qc}
    return _divexact(a, b, budget)


_IMAGE_FIRST = 256            # a longer dividend is tested by its image before any step
_MAX_CODE_BITS = 256          # longer codes of the box: monomials ordered by lex_key instead


def _divexact(a: Poly, b: Poly, budget: Budget) -> Poly | None:
    # the general division of :func:`divexact` (its first charge already made)
    lo_a, hi_a = _box(a)
    lo_b, hi_b = _box(b)
    vs = sorted(set(lo_a) | set(lo_b))
    lo = {v: lo_a.get(v, 0) - lo_b.get(v, 0) for v in vs}
    hi = {v: hi_a.get(v, 0) - hi_b.get(v, 0) for v in vs}
    if any(lo[v] > hi[v] for v in vs):
        return None
    # Mixed-radix integer codes over the box of a: every term of a remainder
    # (a minus products of admissible quotient terms with b) stays in that box,
    # and the dense lex order is the order of the codes.  Steps are then integer
    # additions and a heap of integers.
    span = {v: hi_a.get(v, 0) - lo_a.get(v, 0) + 1 for v in vs}
    _, sa, s2a = _load(a)
    _, sb, s2b = _load(b)
    coef_cost = (sa + s2a) // max(len(a), 1) + sb + s2b      # long coefficients, per step
    least = -(-len(a) // len(b))          # an exact quotient has at least this many terms
    lb = max(b, key=lex_key)
    if sum(x.bit_length() for x in span.values()) > _MAX_CODE_BITS:
        # integer codes would be long (huge exponents, many variables): monomials ordered
        # by lex_key, a step costing the pairs and the exponent words it touches
        words = 1 + max((abs(x).bit_length() for m in chain(a, b) for _, x in m), default=0) // 64
        pairs = max(map(len, chain(a, b)))    # a remainder term has at most a's + b's pairs
        step_cost = 2 + (size(b) + len(b) * (1 + 2 * pairs)) * words + coef_cost
        budget.charge(least * step_cost, "an exact division")
        zero_bad = {v for v in lo if not lo[v] <= 0 <= hi[v]}     # must appear in a quotient

        def sparse_quotient(m):
            qm = mono_div(m, lb)
            inside = all(lo.get(v, 0) <= x <= hi.get(v, 0) for v, x in qm)
            return qm if inside and (not zero_bad or zero_bad <= {v for v, _ in qm}) else None

        rest = [(m, _num(c)) for m, c in b.items() if m != lb]
        # heap entries: the lex key of the inverse monomial, the order reversed (a min-heap)
        return _steps(a, b, budget, least, step_cost, lb, {m: _num(c) for m, c in a.items()},
                      lambda m: (lex_key(mono_inv(m)), m), itemgetter(1), sparse_quotient,
                      lambda m, q: [(mono_mul(q, d), c) for d, c in rest])
    rev = vs[::-1]
    strides = dict(zip(rev, accumulate((span[v] for v in rev), lambda x, y: x * y, initial=1)))
    step_cost = 2 + size(b) + len(vs) + coef_cost
    budget.charge(least * step_cost, "an exact division")
    base = sum(lo_a.get(v, 0) * strides[v] for v in vs)

    def code(m):
        return sum(e * strides[v] for v, e in m) - base

    lbd = dict(lb)
    lcode = code(lb)
    if len(a) > _IMAGE_FIRST and len(b) > 1 and not_divisible(a, b, budget):
        return None

    def quotient(k):
        qe = []
        for v in vs:
            x = lo_a.get(v, 0) + (k // strides[v]) % span[v] - lbd.get(v, 0)
            if x < lo[v] or x > hi[v]:
                return None
            if x:
                qe.append((v, x))
        return tuple(qe)

    rest = [(code(m) - lcode, _num(c)) for m, c in b.items() if m != lb]
    return _steps(a, b, budget, least, step_cost, lb, {code(m): _num(c) for m, c in a.items()},
                  neg, neg, quotient, lambda k, q: [(k + d, c) for d, c in rest])


def _steps(a: Poly, b: Poly, budget: Budget, least: int, step_cost: int, lb: Mono, R: dict,
           order, unorder, quotient, products) -> Poly | None:
    """The steps of both divisions on the remainder ``R`` (codes or monomials), greatest first
    (least heap entry ``order(t)``, ``unorder`` its inverse): ``quotient(t)`` the monomial of
    ``t / lb`` (None: outside the box), ``products(t, q)`` the terms of ``q`` times ``b - lb``."""
    lcb = _num(b[lb])
    heap = [order(t) for t in R]
    heapq.heapify(heap)
    Q: Poly = {}
    probe = least + 16 if 1 < len(b) and len(a) <= _IMAGE_FIRST else -1
    while heap:
        t = unorder(heapq.heappop(heap))
        c = R.pop(t, None)
        if not c:
            continue
        if len(Q) >= least:
            budget.charge(step_cost, "an exact division")
            if len(Q) == probe and not_divisible(a, b, budget):
                return None
            if len(Q) + len(R) > MAX_EXPANSION:
                raise Unsupported(f"an exact division: the quotient and remainder would hold "
                                  f"more than {MAX_EXPANSION} terms")
        qm = quotient(t)
        if qm is None:
            return None
        qc = c // lcb if type(c) is int and type(lcb) is int and c % lcb == 0 else Fraction(c) / lcb
        if type(qc) is not int or qc.bit_length() > 63:    # its products and sums cost its words
            w = (abs(qc.numerator).bit_length() + qc.denominator.bit_length()) >> 6
            budget.charge(len(b) * (2 * FRACTION_COST + w + w * w // 64), "an exact division")
        Q[qm] = qc
        for u, cb in products(t, qm):
            s = R.get(u, 0) - qc * cb
            if s:
                if u not in R:
                    heapq.heappush(heap, order(u))
                R[u] = s
            else:
                R.pop(u, None)
    return Q


def _num(c):
    """An integral Fraction as an int (much faster arithmetic), anything else unchanged."""
    return c.numerator if type(c) is Fraction and c.denominator == 1 else c


_P = (1 << 61) - 1            # a prime: images in F_p[t] decide non-divisibility fast
IMAGE_PRIME = _P              # the modulus of :func:`images`
_MAX_IMAGE_DEGREE = 64


def _value(v: int) -> int:
    """A fixed non-zero residue for variable ``v`` (deterministic verdicts)."""
    return (v * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (_P - 1) + 1


def _exponents(polys) -> dict:
    """``{variable: sorted distinct exponents}`` over the monomials of ``polys``."""
    by: dict = {}
    for v, x in set(chain.from_iterable(chain.from_iterable(polys))):
        by.setdefault(v, []).append(x)
    for xs in by.values():
        xs.sort()
    return by


def _walk_cost(exps: dict) -> int:
    """The work of :func:`_walk`, before it is done: a power of ``e`` costs about
    ``bits(e)`` modular products of 61-bit numbers, a unit per 4 of them."""
    return sum(2 + (x - prev).bit_length() // 4 for xs in exps.values() for prev, x in zip([0] + xs, xs))


def _walk(exps: dict, base=None) -> dict:
    """``{(v, e): b_v^e mod P}`` for the sorted exponents ``e`` of each variable ``v``,
    ``b_v = value(v)`` (or ``base``): one modular power per gap between consecutive
    exponents (a negative exponent through the inverse)."""
    out = {}
    for v, xs in exps.items():
        b = _value(v) if base is None else base
        val = 1
        for prev, x in zip([0] + xs, xs):
            val = val * pow(b, x - prev, _P) % _P
            out[(v, x)] = val
    return out


def _residue(c) -> int | None:
    """``c`` in F_P (None when P divides its denominator)."""
    if type(c) is int:
        return c % _P
    return None if c.denominator % _P == 0 else c.numerator * pow(c.denominator, -1, _P) % _P


def images(polys: list, budget: Budget = UNLIMITED) -> list:
    """The values of ``polys`` in ``F_P`` at the point ``x_v = value(v)`` (fixed non-zero
    residues), None for a polynomial with a coefficient whose denominator ``P``
    divides.  Reduction modulo ``P`` and evaluation at a point with invertible
    coordinates are ring homomorphisms of the Laurent ring (docs/certificates.md §6.5):
    an identity between polynomials holds between their images.

    Every power is charged before it is computed: per variable, the sorted exponents
    are walked with one modular power per gap, so the work grows with the number of
    terms and the bits of the gaps, never with the size of an exponent.

    >>> x = ((0, 1),)
    >>> a, b = images([{(): 1, x: 1}, {(): 2, x: 2}])
    >>> b == 2 * a % _P, images([{(): Fraction(1, _P)}])
    (True, [None])
    """
    budget.charge(len(polys) + sum(size(p) for p in polys), "evaluating at a point")
    exps = _exponents(polys)
    budget.charge(_walk_cost(exps) + sum(_load(p)[1] for p in polys), "evaluating at a point")
    pw = _walk(exps)
    del exps
    out: list = []
    mono: dict = {}                   # monomial -> its value (numerators share D's)
    for p in polys:
        acc = 0
        for m, c in p.items():
            r = c % _P if type(c) is int else _residue(c)
            if r is None:
                break
            x = mono.get(m)
            if x is None:
                x = 1
                for pr in m:
                    x = x * pw[pr] % _P
                mono[m] = x
            acc += r * x
        else:
            out.append(acc % _P)
            continue
        out.append(None)            # a denominator divisible by P: no image
    return out


def _polymulmod(x: list, y: list, g: list) -> list:
    # product of two residues modulo the monic g (lists of coefficients, low degree first)
    d = len(g) - 1
    out = [0] * (2 * d)
    for i, xi in enumerate(x):
        for j, yj in enumerate(y):
            out[i + j] += xi * yj
    for k in range(2 * d - 1, d - 1, -1):
        c = out[k] % _P
        for j in range(d):
            out[k - d + j] -= c * g[j]
    return [c % _P for c in out[:d]]


def _polypowmod(base: list, e: int, g: list) -> list:
    # base^e modulo the monic g, e >= 0, by repeated squaring
    r = [1] + [0] * (len(g) - 2)
    while e:
        if e & 1:
            r = _polymulmod(r, base, g)
        base = _polymulmod(base, base, g)
        e >>= 1
    return r


def not_divisible(a: Poly, b: Poly, budget: Budget = UNLIMITED) -> bool:
    """True only when ``b ∤ a`` is proven by a homomorphic image (False: undecided).

    Clear denominators (``a`` by any integer, ``b`` to its primitive part: by
    Gauss's lemma ``b | a`` then holds in ``Z[x^±]``), substitute fixed non-zero
    residues mod a prime ``p`` for every variable but one, ``t``, in which ``b``
    has degree ``1..64``, and reduce ``a`` modulo the image ``g`` of ``b`` in
    ``F_p[t^±]``.  A non-zero remainder proves ``b ∤ a``.  The work is charged
    before it is done: per variable, the sorted exponents of ``a`` are walked with
    one power per gap (``O(log gap)`` products, of residues of degree ``< deg g``
    for ``t``: ``O(deg²)`` each), whatever the size of the exponents.

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
    budget.charge(size(a) + size(b), "an exact division")
    exps = _exponents((a, b))
    texps = sorted(set(exps.pop(t, ())) | {0})
    cost = _walk_cost(exps) + _walk_cost({t: texps}) * (1 if d == 1 else 2 * d * d)
    budget.charge(cost + _load(a)[1] + _load(b)[1], "an exact division")
    pw = _walk(exps)
    del exps
    den = lcm(*(1 if type(c) is int else c.denominator for c in b.values()))
    ints = {m: (c * den if type(c) is int else c.numerator * (den // c.denominator))
            for m, c in b.items()}
    cont = gcd(*ints.values())
    g = [0] * (d + 1)
    for m, c in ints.items():
        e, val = 0, c // cont
        for v, x in m:
            if v == t:
                e = x
            else:
                val = val * pw[(v, x)] % _P
        g[e - lo[t]] = (g[e - lo[t]] + val) % _P
    if g[0] == 0 or g[d] == 0:
        return False                          # degenerate image: undecided
    inv = pow(g[d], -1, _P)
    g = [c * inv % _P for c in g]             # monic
    if d == 1:                                # g = t + g0: t is -g0 in F_p
        tp = {e: [r] for (_, e), r in _walk({t: texps}, -g[0] % _P).items()}
    else:
        # residues of t^e, e in texps: t^e0 (t^-1 for a negative e0), then one power per gap
        tinv = [(-g[j + 1]) * pow(g[0], -1, _P) % _P for j in range(d)]
        tbase = [0, 1] + [0] * (d - 2)
        r = _polypowmod(tinv if texps[0] < 0 else tbase, abs(texps[0]), g)
        tp = {texps[0]: r}
        for prev, x in zip(texps, texps[1:]):
            r = _polymulmod(r, _polypowmod(tbase, x - prev, g), g)
            tp[x] = r
    acc = [0] * d
    for m, c in a.items():
        val = _residue(c)
        if val is None:
            return False
        e = 0
        for pr in m:
            if pr[0] == t:
                e = pr[1]
            else:
                val = val * pw[pr] % _P
        for j, r in enumerate(tp[e]):
            acc[j] = (acc[j] + val * r) % _P
    return any(acc)


def is_normal_form(p: Poly) -> bool:
    """``p == normal_form(p)``, decided in linear time without building the normal form.

    >>> is_normal_form({(): 1, ((0, 1),): 2}), is_normal_form({((0, -1),): 1, (): 1})
    (True, False)
    """
    if len(p) == 2:
        # c·X^a + d·X^b: every minimum exponent is 0 when the monomials have disjoint variables
        # and positive exponents; the one holding the smallest variable is then the lex-largest
        (a, c), (b, d) = p.items()
        if (type(c) is not int or type(d) is not int) and Fraction(c).denominator * Fraction(d).denominator != 1:
            return False
        va = {v for v, e in a if e > 0}
        if len(va) < len(a):
            return False
        for v, e in b:
            if e < 0 or v in va:
                return False
        return gcd(int(c), int(d)) == 1 and (c if not b or (a and a[0][0] < b[0][0]) else d) > 0
    if any(type(c) is not int and Fraction(c).denominator != 1 for c in p.values()):
        return False
    pairs = [pr for m in p for pr in m]
    if any(e < 0 for _, e in pairs) or len(p) in Counter(v for v, _ in pairs).values():
        return False                  # a negative exponent, or a common monomial factor
    return gcd(*map(int, p.values())) == 1 and p[max(p, key=lex_key)] > 0


def normal_form(p: Poly, budget: Budget = UNLIMITED) -> Poly:
    """The associate of ``p`` with no monomial factor, coprime integer coefficients
    and a positive coefficient on its lex-largest monomial.

    >>> normal_form({((0, 2),): Fraction(-2), ((0, 1),): Fraction(4, 3)})
    {((0, 1),): Fraction(3, 1), (): Fraction(-2, 1)}
    """
    lo, _ = _box(p)
    shift = tuple(sorted((v, -x) for v, x in lo.items() if x))
    budget.charge(size(p) + len(p) * len(shift), "a normal form")
    den = lcm(*(Fraction(c).denominator for c in p.values()))
    g = gcd(*(int(Fraction(c) * den) for c in p.values()))
    sign = 1 if p[max(p, key=lex_key)] > 0 else -1
    return {mono_mul(m, shift): Fraction(sign * int(Fraction(c) * den) // g) for m, c in p.items()}
