"""Certificate rules for floors: lower bounds that hold when the full count is out of reach.

Standard library only; imports nothing from attnproof outside ``checker/``
(docs/certificates.md §6.13-6.14; THEORY §1-2 and §4, §9; docs/theory.md Lemmas F1-F2).

* ``non_constant`` (phase 1.5, after the count): two witnesses -- limits along
  a direction ``t^c`` (``t → ∞``) or points of the positive orthant -- at which
  the multi-head takes different values, or one slope (a directional derivative
  at ``x = 1``) that is not zero, computed exactly from the embedded heads with
  ``z = 1``.  A single head with one distinct key is constant, so a
  non-constant multi-head needs at least 2 atoms: the lower bound 1 becomes 2.
* ``sub_sum`` (phase 0.75, before the count): keep only some of the bound
  factors.  Their product divides the reduced denominator ``Q`` (or stands for a
  factor of it in every vertex count, docs/theory.md 9.3'), so the vertices of
  their Minkowski sum bound every fusion from below (THEORY §4, §9): the count
  of a sub-sum is a lower bound for the whole.

>>> doc = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
...     {"atoms": [{"key": [12345678], "value": 1}, {"key": [0], "value": 0}]}]}
>>> from ..problem import parse_problem
>>> pb = parse_problem(doc)
>>> limit_value(pb, {0: 1}), limit_value(pb, {0: -1}), point_value(pb, {})
((Fraction(1, 1),), (Fraction(0, 1),), (Fraction(1, 2),))
"""

from __future__ import annotations

from fractions import Fraction

from ..syntax import UNLIMITED, Reject, fields, integer, rational
from .state import State

__all__ = ["RULES", "limit_value", "point_value", "slope_value"]

MAX_WITNESS_VARS = 100_000          # entries of one witness (a direction or a point)


def _sparse(x, where: str, dim: int, positive_rational: bool) -> dict:
    """``[[variable, value], ...]``: variables strictly increasing in ``0..dim-1``;
    values non-zero integers (a direction) or positive rationals other than 1 (a point)."""
    if not isinstance(x, list) or len(x) > MAX_WITNESS_VARS:
        raise Reject(f"{where}: expected a list of [variable, value] pairs")
    out: dict = {}
    prev = -1
    for e in x:
        if not isinstance(e, list) or len(e) != 2:
            raise Reject(f"{where}: expected [variable, value] pairs")
        v = integer(e[0], f"{where}: variable", 0)
        if v <= prev or v >= dim:
            raise Reject(f"{where}: variables must be strictly increasing x variables (< {dim})")
        prev = v
        if positive_rational:
            c = rational(e[1], f"{where}: coordinate")
            if c <= 0 or c == 1:
                raise Reject(f"{where}: a coordinate is a positive rational other than 1 "
                             "(omitted coordinates are 1)")
        else:
            c = integer(e[1], f"{where}: direction")
            if c == 0:
                raise Reject(f"{where}: a direction omits zero entries")
        out[v] = c
    return out


def _coefficient_words(D: dict, Ns: list) -> int:
    """Words of all the coefficients of one head: a bound on the size of the sums of
    Fractions built from them (distinct denominators multiply)."""
    bits = 0
    for poly in (D, *Ns):
        for c in poly.values():
            if type(c) is int:
                bits += c.bit_length()
            else:
                bits += c.numerator.bit_length() + c.denominator.bit_length()
    return 1 + bits // 64


def _charge_sums(budget, D: dict, Ns: list, running: list, what: str) -> None:
    # Fraction sums take a gcd per step, quadratic in the words of the running sum: 200
    # atoms with 2000-digit weights made a 410 kB certificate's slope take 96 s.  The
    # total over the heads grows too (``running``: words so far, updated here).
    words = _coefficient_words(D, Ns)
    running[0] += words
    budget.charge(len(D) * (1 + len(Ns)) * (1 + words * words // 256)
                  + len(Ns) * (1 + running[0] * running[0] // 256), what)


def limit_value(pb, c: dict, budget=UNLIMITED) -> tuple:
    """``lim_{t→∞} M(t^c)`` at ``z = 1``: per head, the weighted mean of the values of the
    atoms whose x-exponent maximizes ``<c, ·>`` (ties included), summed over heads."""
    dim = pb.dim
    total = [Fraction(0)] * pb.value_dim
    running = [0]
    for D, Ns in zip(pb.den, pb.num):
        budget.charge(len(D) * (1 + len(c)), "limits")
        _charge_sums(budget, D, Ns, running, "limits")
        best, top = None, []
        for m in D:
            s = 0
            for v, e in m:
                if v < dim:
                    k = c.get(v)
                    if k:
                        s += k * e
            if best is None or s > best:
                best, top = s, [m]
            elif s == best:
                top.append(m)
        den = sum((Fraction(D[m]) for m in top), Fraction(0))
        for i, N in enumerate(Ns):
            total[i] += sum((Fraction(N.get(m, 0)) for m in top), Fraction(0)) / den
    return tuple(total)


def point_value(pb, x: dict, budget=UNLIMITED) -> tuple:
    """``M(x)`` at ``z = 1`` for a point of the positive orthant (omitted coordinates are 1).
    Exact: each power is charged by the bits it produces."""
    dim = pb.dim
    total = [Fraction(0)] * pb.value_dim
    cache: dict = {}
    running = 0
    for D, Ns in zip(pb.den, pb.num):
        # products, sums and divisions of Fractions take gcds, quadratic in the words of
        # their operands: charged on the largest term before any power is built (a point
        # (3/2)^2000000 cost 6 units per word but 85 s of gcds for a 637-byte file)
        words = _coefficient_words(D, Ns) + max((sum(abs(e) * (x[v].numerator.bit_length()
                                                               + x[v].denominator.bit_length()) // 64
                                                     for v, e in m if v < dim and v in x)
                                                 for m in D), default=0)
        running += words
        ops = sum(1 + len(m) for m in D) + len(D) * (1 + len(Ns))
        budget.charge(ops * (1 + words * words // 256)
                      + len(Ns) * (1 + running * running // 256), "evaluating a point")
        val = {}
        for m in D:
            t = Fraction(1)
            for v, e in m:
                if v < dim and v in x:
                    key = (v, e)
                    p = cache.get(key)
                    if p is None:
                        b = x[v]
                        budget.charge(1 + abs(e) * (b.numerator.bit_length()
                                                    + b.denominator.bit_length()) // 64,
                                      "evaluating a point")
                        p = cache[key] = b ** e
                    t *= p
            val[m] = t
        budget.charge(len(D) * (1 + len(Ns)), "evaluating a point")
        den = sum(D[m] * t for m, t in val.items())
        for i, N in enumerate(Ns):
            total[i] += sum(c * val[m] for m, c in N.items()) / den
    return tuple(total)


def slope_value(pb, c: dict, budget=UNLIMITED) -> tuple:
    """``d/dt M(e^{t·c})`` at ``t = 0`` (the point ``x = 1``), at ``z = 1``: per head the
    weighted covariance of ``s = <c, e>`` and the value, ``Σws·v/Σw − Σws·Σwv/(Σw)²``.
    No power is computed: exponents of any size cost their digits only."""
    dim = pb.dim
    total = [Fraction(0)] * pb.value_dim
    running = [0]
    for D, Ns in zip(pb.den, pb.num):
        budget.charge(len(D) * (1 + len(c) + len(Ns)), "slopes")
        _charge_sums(budget, D, Ns, running, "slopes")
        sc = {}
        for m in D:
            t = 0
            for v, e in m:
                if v < dim:
                    k = c.get(v)
                    if k:
                        t += k * e
            sc[m] = t
        w = sum((Fraction(x) for x in D.values()), Fraction(0))
        ws = sum((Fraction(D[m]) * t for m, t in sc.items()), Fraction(0))
        for i, N in enumerate(Ns):
            wv = sum((Fraction(x) for x in N.values()), Fraction(0))
            wsv = sum((Fraction(x) * sc[m] for m, x in N.items()), Fraction(0))
            total[i] += wsv / w - ws * wv / (w * w)
    return tuple(total)


def _witness_value(st: State, w, where: str) -> tuple:
    if not isinstance(w, dict) or len(w) != 1:
        raise Reject(f"{where}: a witness is {{\"limit\": direction}} or {{\"point\": point}}")
    (kind, body), = w.items()
    dim = st.pb.dim
    if kind == "limit":
        c = _sparse(body, where, dim, False)
        if not c:
            raise Reject(f"{where}: a limit needs a non-zero direction (the point [] is x = 1)")
        return limit_value(st.pb, c, st.budget)
    if kind == "point":
        return point_value(st.pb, _sparse(body, where, dim, True), st.budget)
    raise Reject(f"{where}: unknown witness kind {kind!r}")


def rule_non_constant(st: State, step: dict, where: str) -> None:
    """Lower bound 2: the multi-head takes two different values (limits or points), or has a
    non-zero slope at ``x = 1`` (all at ``z = 1``).

    Sound: were ``M`` constant, every such value would be the constant, and every
    slope 0, at ``z = e^{1/L}``; each is a rational function of ``z`` over Q (positive
    denominators), so the difference of two values, or a slope, would vanish at the
    transcendental ``e^{1/L}``, hence identically, hence at ``z = 1``.  A head with one
    distinct key is constant, so every exact fusion of a non-constant ``M`` has
    at least 2 atoms.
    """
    fields(step, {"rule", "witnesses"}, set(), where)
    if st.lower is None:
        raise Reject(f"{where}: non_constant follows the lower-bound step")
    if st.lower != 1:
        raise Reject(f"{where}: the lower bound is already {st.lower}: non_constant only "
                     "raises the bound 1")
    ws = step["witnesses"]
    if isinstance(ws, list) and len(ws) == 1 and isinstance(ws[0], dict) and \
            list(ws[0]) == ["slope"]:
        c = _sparse(ws[0]["slope"], f"{where}: witness 0", st.pb.dim, False)
        if not c:
            raise Reject(f"{where}: witness 0: a slope needs a non-zero direction")
        if not any(slope_value(st.pb, c, st.budget)):
            raise Reject(f"{where}: the slope of the multi-head at x = 1 is zero")
        st.lower = 2
        return
    if not isinstance(ws, list) or len(ws) != 2:
        raise Reject(f"{where}: witnesses must be one slope or two values")
    a = _witness_value(st, ws[0], f"{where}: witness 0")
    b = _witness_value(st, ws[1], f"{where}: witness 1")
    if a == b:
        raise Reject(f"{where}: the multi-head takes the same value at both witnesses")
    st.lower = 2


def rule_sub_sum(st: State, step: dict, where: str) -> None:
    """Keep the bound factors listed (a proper, non-empty subset, in order, renumbered from 0).

    Sound: the kept factors' product ``R_S`` divides ``R``, which divides ``Q`` (or,
    after ``generic_heads`` with heads only indecomposable, factors of ``Q`` with
    the same normal fans); every fusion denominator ``D = Q·G = R_S·(Q/R_S)·G`` has
    ``Newt_x(D) = Newt_x(R_S) + Newt_x((Q/R_S)·G)``, so at least as many vertices
    as ``Newt_x(R_S)`` (THEORY Theorem 3's argument, Lemma 9.4).
    """
    fields(step, {"rule", "factors"}, set(), where)
    if st.lower is not None:
        raise Reject(f"{where}: sub_sum comes before the lower-bound step")
    if st.sub_sum is not None:
        raise Reject(f"{where}: a second sub_sum step")
    n = len(st.factors)
    fs = step["factors"]
    if not isinstance(fs, list) or not fs:
        raise Reject(f"{where}: factors must be a non-empty list of bound factor indices")
    keep = [integer(i, f"{where}: factors", 0) for i in fs]
    if any(b <= a for a, b in zip(keep, keep[1:])) or keep[-1] >= n:
        raise Reject(f"{where}: factor indices must be strictly increasing and below {n}")
    if len(keep) == n:
        raise Reject(f"{where}: a sub-sum drops at least one factor")
    st.budget.charge(n, "sub_sum")
    st.factors = [st.factors[i] for i in keep]
    st._xvars = []                   # the per-factor variable cache follows the new numbering
    st.sub_sum = (len(keep), n)


# rule name -> (function, phase)
RULES = {
    "sub_sum": (rule_sub_sum, 0.75),
    "non_constant": (rule_non_constant, 1.5),
}
