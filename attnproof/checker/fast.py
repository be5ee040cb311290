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

from . import poly as P
from .poly import UNDECIDED, _num, mono_div, mono_mul
from .switch import FAST, NAMES, reference_requested
from .syntax import Reject


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


def product_identity(st, Nstar: list, Dstar: dict, where: str) -> bool:
    """Fast path of :func:`attnproof.checker.rules.fusion.check_identity` when ``D* = c·Π_h D_h`` (a product fusion, or a
    reduced form in which nothing cancels, as for graph sums).

    Then ``Σ_h N_h/D_h = N_Π/D_Π`` with ``N ← N·D_h + N_h·D``, ``D ← D·D_h`` built
    head by head, and ``N*/D* = N_Π/D_Π`` iff ``N* = c·N_Π``.  Head denominators have
    positive coefficients, so the partial products only grow: past ``|D*|`` terms
    the path is abandoned (False) and the general check runs.  True when verified;
    a wrong numerator is rejected.
    """
    pb, bud = st.pb, st.budget
    D: dict = {(): 1}
    N: list[dict] = [dict() for _ in range(pb.value_dim)]
    for h, Dh in enumerate(pb.den):
        N = [_sum(P.mul(n, Dh, bud), P.mul(nh, D, bud)) for n, nh in zip(N, pb.num[h])]
        D = P.mul(D, Dh, bud)
        if len(D) > len(Dstar):
            return False
    if len(D) != len(Dstar) or D.keys() != Dstar.keys():
        return False
    mono = next(iter(D))
    c = Fraction(Dstar[mono]) / D[mono]
    bud.charge(len(D), "comparing polynomials")
    if any(Dstar[k] != c * v for k, v in D.items()):
        return False
    for comp, (ns, n) in enumerate(zip(Nstar, N)):
        bud.charge(len(n) + len(ns), "comparing polynomials")
        if ns.keys() != n.keys() or any(ns[k] != c * v for k, v in n.items()):
            raise Reject(f"{where}: the fraction is not equal to the sum of the heads "
                         f"(value component {comp})")
    return True


def _sum(a: dict, b: dict) -> dict:
    P.add_into(a, b)
    return a


def binomial_block(st, blk, prev_first: int, nfac: int, used_vars: set):
    """The common block ``{"factors": [j], "method": "zonotope_independent"}`` of one
    binomial factor in new variables: its factor ``j`` (``used_vars`` updated, the
    general path's charges made; its count is 2), or None when anything differs
    (then the general path decides; ``tests/test_checker_fast_paths.py``)."""
    if type(blk) is not dict or len(blk) != 2 or blk.get("method") != "zonotope_independent":
        return None
    fl = blk.get("factors")
    if type(fl) is not list or len(fl) != 1:
        return None
    j = fl[0]
    if type(j) is not int or not prev_first < j < nfac:
        return None
    xv = st.factor_xvars(j)
    if not xv.isdisjoint(used_vars):
        return None
    dim = st.pb.dim
    pts = set()
    for m in st.factors[j][0]:
        if m and m[-1][0] >= dim:
            m = tuple([pr for pr in m if pr[0] < dim])
        pts.add(m)
    if len(pts) != 2:
        return None
    bud = st.budget
    bud.charge(1, "newton blocks")
    bud.charge(P.size(pts), "zonotope generators")
    bud.charge(1 + len(xv), "an exact rank")   # the generator's non-zeros are the x variables
    used_vars |= xv
    return j


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
