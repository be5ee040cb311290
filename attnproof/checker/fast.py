"""The checker's fast paths, all in one place (docs/certificates.md §8).

Each function here shortcuts a common case of a reference procedure and gives
exactly its answer (the same value, or None to let the reference path decide
and explain), charging about the same work;
``tests/test_checker_fast_paths.py`` compares every pair.  :func:`install` puts
them in :data:`attnproof.checker.switch.FAST`; with
``ATTNPROOF_CHECKER_REFERENCE=1`` (or ``--reference``) they are left out and the
reference path alone decides every certificate.  Nothing in the reference path
imports this module.
"""

from __future__ import annotations

from fractions import Fraction

from . import poly as P
from .limits import MAX_DIGITS
from .problem import SPARSE_KEY_DIM
from .switch import FAST, NAMES, reference_requested
from .syntax import Reject

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




def install() -> None:
    """Put every fast path in :data:`FAST` (the checker's default)."""
    for name in NAMES:
        setattr(FAST, name, globals()[name])


if not reference_requested():
    install()
