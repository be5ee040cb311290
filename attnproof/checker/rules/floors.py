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
from math import prod

from ..syntax import UNLIMITED, Reject, fields, integer, rational
from .state import State

__all__ = ["RULES", "limit_value", "point_value", "slope_value"]

MAX_WITNESS_VARS = 100_000          # entries of one witness (a direction or a point)


def _indices(xs: list, n: int, where: str) -> list:
    """Integers ``0 <= i < n`` in strictly increasing order."""
    out = [integer(i, where, 0) for i in xs]
    if any(b <= a for a, b in zip(out, out[1:])) or (out and out[-1] >= n):
        raise Reject(f"{where}: must be strictly increasing and below {n}")
    return out


def _sparse(x, where: str, dim: int, point: bool) -> dict:
    """``[[variable, value], ...]``: variables strictly increasing in ``0..dim-1``; values
    non-zero integers (a direction, not empty) or positive rationals other than 1 (a point)."""
    if not isinstance(x, list) or len(x) > MAX_WITNESS_VARS or any(not isinstance(e, list) or len(e) != 2 for e in x):
        raise Reject(f"{where}: expected a list of [variable, value] pairs")
    vs = _indices([e[0] for e in x], dim, f"{where}: x variables")
    cs = [rational(e[1], f"{where}: coordinate") if point else integer(e[1], f"{where}: direction") for e in x]
    if any(c <= 0 or c == 1 for c in cs) if point else (0 in cs or not cs):
        raise Reject(f"{where}: a point's coordinates are positive rationals other than 1 (omitted ones are "
                     "1); a direction has at least one entry, none of them zero")
    return dict(zip(vs, cs))


def _coefficient_words(D: dict, Ns: list) -> int:
    """Words of all the coefficients of one head: a bound on the size of the sums of
    Fractions built from them (distinct denominators multiply)."""
    bits = sum(c.bit_length() if type(c) is int else c.numerator.bit_length() + c.denominator.bit_length()
               for poly in (D, *Ns) for c in poly.values())
    return 1 + bits // 64


def _sums_work(ops: int, words: int, running: int, n: int) -> int:
    """``ops`` Fraction operations on ``words``-word numbers, and ``n`` sums over the heads of
    ``running`` words so far.  Fraction sums take a gcd per step, quadratic in the words of the
    running sum: 200 atoms with 2000-digit weights made a 410 kB certificate's slope take 96 s."""
    return ops * (1 + words * words // 256) + n * (1 + running * running // 256)


def _along(pb, c: dict, budget, slope: bool) -> tuple:
    """:func:`slope_value` (``slope``) or :func:`limit_value` along ``c``."""
    what = "slopes" if slope else "limits"
    total = [Fraction(0)] * pb.value_dim
    running = 0
    for D, Ns in zip(pb.den, pb.num):
        budget.charge(len(D) * (1 + len(c) + (len(Ns) if slope else 0)), what)
        words = _coefficient_words(D, Ns)
        running += words
        budget.charge(_sums_work(len(D) * (1 + len(Ns)), words, running, len(Ns)), what)
        sc = {m: sum(c.get(v, 0) * e for v, e in m if v < pb.dim) for m in D}
        if slope:
            w, ws = Fraction(sum(D.values())), sum(D[m] * s for m, s in sc.items())
            for i, N in enumerate(Ns):
                total[i] += sum(x * sc[m] for m, x in N.items()) / w - ws * sum(N.values()) / (w * w)
        else:
            best = max(sc.values())
            top = [m for m in D if sc[m] == best]
            den = Fraction(sum(D[m] for m in top))
            total = [t + sum(N.get(m, 0) for m in top) / den for t, N in zip(total, Ns)]
    return tuple(total)


def limit_value(pb, c: dict, budget=UNLIMITED) -> tuple:
    """``lim_{t→∞} M(t^c)`` at ``z = 1``: per head, the weighted mean of the values of the
    atoms whose x-exponent maximizes ``<c, ·>`` (ties included), summed over heads."""
    return _along(pb, c, budget, False)


def slope_value(pb, c: dict, budget=UNLIMITED) -> tuple:
    """``d/dt M(e^{t·c})`` at ``t = 0`` (the point ``x = 1``), at ``z = 1``: per head the
    weighted covariance of ``s = <c, e>`` and the value, ``Σws·v/Σw − Σws·Σwv/(Σw)²``.
    No power is computed: exponents of any size cost their digits only."""
    return _along(pb, c, budget, True)


def point_value(pb, x: dict, budget=UNLIMITED) -> tuple:
    """``M(x)`` at ``z = 1`` for a point of the positive orthant (omitted coordinates are 1).
    Exact (powers of Fractions, also for an integer coordinate and a negative exponent):
    each power is charged by the bits it produces."""
    size = {v: b.numerator.bit_length() + b.denominator.bit_length() for v, b in x.items() if v < pb.dim}
    total = [Fraction(0)] * pb.value_dim
    cache: dict = {}
    running = 0

    def power(v: int, e: int) -> Fraction:
        if (v, e) not in cache:
            budget.charge(1 + abs(e) * size[v] // 64, "evaluating a point")
            cache[v, e] = Fraction(x[v]) ** e
        return cache[v, e]

    for D, Ns in zip(pb.den, pb.num):
        # products, sums and divisions of Fractions take gcds, quadratic in the words of
        # their operands: charged on the largest term before any power is built (a point
        # (3/2)^2000000 cost 6 units per word but 85 s of gcds for a 637-byte file)
        words = _coefficient_words(D, Ns) + max(
            (sum(abs(e) * size[v] // 64 for v, e in m if v in size) for m in D), default=0)
        running += words
        budget.charge(_sums_work(sum(1 + len(m) for m in D) + len(D) * (1 + len(Ns)), words, running, len(Ns)),
                      "evaluating a point")
        val = {m: prod((power(v, e) for v, e in m if v in size), start=Fraction(1)) for m in D}
        budget.charge(len(D) * (1 + len(Ns)), "evaluating a point")
        den = sum(D[m] * t for m, t in val.items())
        total = [t + sum(c * val[m] for m, c in N.items()) / den for t, N in zip(total, Ns)]
    return tuple(total)


def _witness_value(st: State, w, where: str, kinds: tuple) -> tuple:
    """The value (a limit or a point) or the slope that one witness names."""
    if not isinstance(w, dict) or len(w) != 1 or next(iter(w)) not in kinds:
        raise Reject(f"{where}: the witnesses are one {{\"slope\": direction}}, or two of "
                     "{\"limit\": direction} and {\"point\": point}")
    (kind, body), = w.items()
    value = {"limit": limit_value, "point": point_value, "slope": slope_value}[kind]
    return value(st.pb, _sparse(body, where, st.pb.dim, kind == "point"), st.budget)


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
    if st.lower != 1:
        raise Reject(f"{where}: non_constant raises the bound 1 of the lower-bound step before it (not {st.lower})")
    ws = step["witnesses"]
    if not isinstance(ws, list) or len(ws) not in (1, 2):
        raise Reject(f"{where}: witnesses must be one slope or two values")
    kinds = ("slope",) if len(ws) == 1 else ("limit", "point")
    vals = [_witness_value(st, w, f"{where}: witness {i}", kinds) for i, w in enumerate(ws)]
    if vals[0] == vals[1] if len(vals) == 2 else not any(vals[0]):
        raise Reject(f"{where}: the multi-head takes the same value at both witnesses, or its slope at x = 1 is 0")
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
    if st.lower is not None or st.sub_sum is not None:
        raise Reject(f"{where}: one sub_sum step at most, before the lower-bound step")
    n = len(st.factors)
    fs = step["factors"]
    if not isinstance(fs, list) or not fs:
        raise Reject(f"{where}: factors must be a non-empty list of bound factor indices")
    keep = _indices(fs, n, f"{where}: factors")
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
