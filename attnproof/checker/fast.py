"""The checker's fast paths, all in one place (docs/certificates.md §8).

Each function here shortcuts a common case of a reference procedure and gives
exactly its answer (the same value, or None / ``UNDECIDED`` to let the reference
path decide and explain), charging about the same work;
``tests/test_checker_fast_paths.py`` compares every pair.  :func:`install` puts
them in :data:`attnproof.checker.switch.FAST`; with
``ATTNPROOF_CHECKER_REFERENCE=1`` (or ``--reference``) they are left out and the
reference path alone decides every certificate.  Nothing in the reference path
imports this module.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd

from .limits import MAX_DIGITS
from .poly import UNDECIDED, _num, mono_div, mono_mul
from .problem import SPARSE_KEY_DIM
from .switch import FAST, NAMES, reference_requested

_TEN = 10 ** MAX_DIGITS


def fields(obj, required: set, optional: set) -> bool:
    """True when ``obj`` is an object with exactly the allowed fields (the common case);
    False sends it to :func:`attnproof.checker.syntax.fields`, which explains."""
    if type(obj) is dict:
        ks = obj.keys()
        return required <= ks and (len(ks) == len(required) or ks <= required | optional)
    return False


def read_poly(x, nvars: int):
    """:func:`read_poly` of a polynomial with integer coefficients, in one tight pass;
    None when anything is unusual (then the general reading decides, with the same
    result: ``tests/test_checker_fast_paths.py`` compares them)."""
    if type(x) is not list or not x:
        return None
    out = {}
    prev = None
    for t in x:
        if type(t) is not list or len(t) != 2:
            return None
        c, prs = t
        if type(c) is not int or not c or not -_TEN < c < _TEN or type(prs) is not list:
            return None
        pairs = []
        last = -1
        for pr in prs:
            if type(pr) is not list or len(pr) != 2:
                return None
            v, e = pr
            if (type(v) is not int or type(e) is not int or v <= last or v >= nvars or not e
                    or not -_TEN < e < _TEN):
                return None
            last = v
            pairs.append((v, e))
        if prev is not None and not pairs > prev:
            return None
        prev = pairs
        out[tuple(pairs)] = c
    return out


def atom(a, dim: int, value_dim):
    """The common atom ``{"key": KEY, "value": integer}`` with integer key coordinates
    (a dense list up to ``SPARSE_KEY_DIM`` coordinates, a sparse object above),
    parsed in one pass; None for anything else (then :func:`_slow_atom` decides, with
    the same result: ``tests/test_checker_fast_paths.py`` compares them)."""
    if type(a) is not dict or len(a) != 2 or value_dim not in (None, 1):
        return None
    k = a.get("key")
    v = a.get("value")
    if type(v) is not int or not -_TEN < v < _TEN:
        return None
    if dim <= SPARSE_KEY_DIM:
        if type(k) is not list or len(k) != dim:
            return None
        for c in k:
            if type(c) is not int or not -_TEN < c < _TEN:
                return None
        return (tuple([(j, c) for j, c in enumerate(k) if c]), 0, 1, (v,))
    if type(k) is not dict:
        return None
    out = []
    for j_s, c in k.items():
        if (type(c) is not int or not c or not -_TEN < c < _TEN or type(j_s) is not str
                or len(j_s) > 9 or not j_s.isdecimal()):
            return None
        j = int(j_s)
        if j >= dim or str(j) != j_s:          # canonical decimal: no leading zeros
            return None
        out.append((j, c))
    if len(out) > 1:
        out.sort()
    return (tuple(out), 0, 1, (v,))


def plain_monomial(key):
    """With no lattice scale and no bias, an integer key is its own monomial (None otherwise)."""
    for _, k in key:
        if type(k) is not int:
            return None
    return key


def variables(p):
    """:func:`attnproof.checker.poly.variables` of two terms: the variables whose exponents
    differ (an absent pair is exponent 0)."""
    a, b = p
    if not a or not b:
        return {v for v, _ in (a or b)}
    rest = dict(a)
    out = set()
    for v, e in b:
        if rest.pop(v, 0) != e:
            out.add(v)
    out.update(rest)
    return out


def is_normal_form(p) -> bool:
    """:func:`is_normal_form` of two terms ``c·X^a + d·X^b``.

    The minimum exponent of a variable is 0 exactly when it occurs in one term
    only, with a positive exponent (exponents in a pair are non-zero): the two
    monomials have disjoint variables and positive exponents.  Then the
    monomial holding the smallest variable is the lex-largest.

    >>> is_normal_form({(): 1, ((0, 1),): -1}), is_normal_form({((1, 1),): 1, ((0, 1),): 1})
    (False, True)
    """
    (a, c), (b, d) = p.items()
    if type(c) is not int or type(d) is not int:
        if Fraction(c).denominator != 1 or Fraction(d).denominator != 1:
            return False
        c, d = int(c), int(d)
    va = set()
    for v, e in a:
        if e < 0:
            return False
        va.add(v)
    for v, e in b:
        if e < 0 or v in va:
            return False
    if gcd(c, d) != 1:
        return False
    if not b or (a and a[0][0] < b[0][0]):
        return c > 0
    return d > 0


def divexact_small(a, b):
    """:func:`divexact` when ``a`` has at most 2 terms and ``b`` at least 2: the quotient,
    None, or ``UNDECIDED`` (then the general division decides).

    ``b`` is not a monomial, so neither is any non-zero multiple of it
    (``Newt(q·b) = Newt(q) + Newt(b)``): a monomial ``a`` is not divisible.  For
    two terms each, if ``a = q·b`` with ``q`` a monomial, ``q`` maps the
    monomials of ``b`` onto those of ``a`` (one of the two pairings; not both,
    as the monomials of ``b`` differ), and when a pairing maps the monomials
    but not the coefficients, ``Newt(q)`` would be a point: ``b ∤ a``.  Any
    other case (``(1 - x^2) / (1 + x)``: a longer quotient) is undecided.

    >>> divexact_small({(): 2, ((0, 1),): 2}, {(): 1, ((0, 1),): 1})
    {(): 2}
    """
    if len(a) == 1 or len(b) != 2:
        return None if len(a) == 1 else UNDECIDED
    (a0, ca0), (a1, ca1) = a.items()
    (b0, cb0), (b1, cb1) = b.items()
    ca0 = _num(ca0)
    for (u, cu), (w, cw) in (((b0, cb0), (b1, cb1)), ((b1, cb1), (b0, cb0))):
        q = mono_div(a0, u)                     # q·u = a0, then q·w must be a1
        if mono_mul(q, w) == a1:
            cu = _num(cu)
            if type(ca0) is int and type(cu) is int and ca0 % cu == 0:
                qc = ca0 // cu
            else:
                qc = Fraction(ca0) / cu
            return {q: qc} if qc * cw == ca1 else None
    return UNDECIDED


def rank_mod(rows, p: int) -> int:
    """Rank of integer rows over GF(p), eliminating on rows packed into one integer each:
    fixed-width fields that stay below ``p + rank·p²`` (no carry crosses a field), a row
    operation one multiply-add with ``p - pivot row``, a field reduced only when read."""
    d, n = (len(rows[0]), len(rows)) if rows else (0, 0)
    nb, r = (2 * p.bit_length() + n.bit_length() + 8) // 8, 0
    mask = (1 << 8 * nb) - 1

    def pack(vals) -> int:
        return int.from_bytes(b"".join((v % p).to_bytes(nb, "little") for v in vals), "little")

    active = [pack(row) for row in rows]
    for col in range(d):         # field 0 of every active row is column col
        piv = next((i for i, x in enumerate(active) if (x & mask) % p), None)
        if piv is not None:
            bs = active.pop(piv).to_bytes((d - col) * nb, "little")
            prow = [int.from_bytes(bs[i:i + nb], "little") % p for i in range(0, len(bs), nb)]
            inv = pow(prow[0], -1, p)
            neg = pack([-x * inv for x in prow])
            active = [x + (x & mask) % p * neg for x in active]
            r += 1
        active = [x >> 8 * nb for x in active]
    return r


def install() -> None:
    """Put every fast path in :data:`FAST` (the checker's default)."""
    for name in NAMES:
        setattr(FAST, name, globals()[name])


if not reference_requested():
    install()
