"""The ``edge_roots`` rule (§6.16 of docs/certificates.md; docs/theory.md Theorem 10.1).

Standard library only; imports nothing from attnproof outside ``checker/``.

Every fusion has denominator ``D = R·G`` for the bound factors ``R = Π f_j^{e_j}``
(``G ≠ 0``), and by Theorem 10.1 at least ``V(R) + Σ_e max(0, r_e − 1)`` atoms: on
every edge ``e`` of ``Newt_x(R)`` the support of ``D`` keeps ``r_e − 1`` points inside
the edge, ``r_e`` the number of negative roots (with multiplicity) of the edge
polynomial ``q_e(t) = Σ_k R_{u + k·g} t^k``.  The step lists, per edge, a functional
``c``; the checker

* reads the face of each factor under ``c`` (its maximizers on ``supp_x f_j``): all
  of them collinear along one direction, so ``Newt_x(R)^c = Σ e_j·conv(faces)`` is a
  segment, an edge, with ends ``Σ e_j·(lowest, highest point)``;
* takes the step ``g`` primitive in the lattice ``Π_i c_i Z`` of the factors'
  differences (``c_i`` the gcd of coordinate ``i`` of the differences within each
  factor; every fusion's denominator splits into cosets of it, each a multiple of
  ``R``, so the count holds there);
* writes each factor's face as ``z^{E_0}·Σ_k r_k (z^δ t)^k`` (each coefficient one
  term ``r_k z^{E_k}``, ``E_k`` affine in ``k``: ``z^δ > 0`` moves no root across 0),
  and counts the negative roots of ``Σ_k r_k t^k`` by Sturm sequences of
  ``p(s) = Σ_k r_k (−s)^k`` on ``(0, ∞)`` in exact integer arithmetic, with
  multiplicity: ``Σ_i`` (distinct roots of ``g_i``), ``g_0 = p``,
  ``g_{i+1} = gcd(g_i, g_i')`` (the last term of ``g_i``'s Sturm sequence);
* adds the factors' counts, ``r_e = Σ_j e_j·r(f_j^c)`` (faces multiply:
  ``R^c = Π (f_j^c)^{e_j}``), and re-derives the bound from the vertex count of
  the step before (a vertex count of ``Newt_x(R)``, complete or partial).

>>> negative_roots([2, 3, 1])              # (1 + t)(2 + t)
2
>>> negative_roots([1, 2, 1]), negative_roots([1, 0, 1]), negative_roots([1, -3, 2])
(2, 0, 0)
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, lcm

from ..syntax import UNLIMITED, Reject, Unsupported, fields, integer
from .geometry import _budget, _dot, _dots, _factor_points, _ints, _mul, _parallel, _sub, _wmax, _zpolys
from .state import State, x_vars

__all__ = ["RULES", "negative_roots", "sturm_count", "edge", "EdgeData", "MAX_EDGE_DEGREE"]

MAX_EDGE_DEGREE = 256        # degree of one factor's face polynomial the checker expands


# -- univariate integer polynomials, coefficient lists from the constant term up ----------

def _trim(p: list) -> list:
    while p and not p[-1]:
        p.pop()
    return p


def _primitive(p: list) -> list:
    """``p`` divided by the positive gcd of its coefficients (signs kept)."""
    g = gcd(*p)
    return [c // g for c in p] if g > 1 else p


def _prem(a: list, b: list, budget) -> list:
    """The pseudo-remainder of ``|lc b|^{δ+1}·a`` by ``b``: a *positive* multiple of
    ``a mod b`` (so a Sturm sequence keeps its signs), integers throughout."""
    m, nb, wb, r = abs(b[-1]), len(b), _wmax([b]), list(a)
    steps = len(a) - nb + 1       # each scales the remainder by |lc b|: its words grow
    budget.charge((steps + 1) * len(a) * _mul(_wmax([a]) + steps * wb, wb), "a Sturm remainder")
    while len(r) >= nb:
        # r ← m·r − (q·sign(lc))·x^shift·b: the top term cancels, r stays a multiple of a
        s, shift = (r[-1] if b[-1] > 0 else -r[-1]), len(r) - nb
        r = _trim([m * c - (s * b[i - shift] if i >= shift else 0) for i, c in enumerate(r)])
    return _primitive(r)


def _changes(signs) -> int:
    s = [x for x in signs if x]
    return sum((a > 0) != (b > 0) for a, b in zip(s, s[1:]))


def sturm_count(p: list, budget=UNLIMITED) -> tuple[int, list]:
    """Distinct roots of ``p`` in ``(0, ∞)`` (``p(0) ≠ 0``) and ``gcd(p, p')``, up to a
    constant, from the Sturm sequence ``p, p', −rem, ...`` (sign changes at 0 minus
    those at ∞).

    >>> sturm_count([2, -3, 1])                # (s − 1)(s − 2)
    (2, [1])
    >>> sturm_count([1, -2, 1])[0], sturm_count([1, -2, 1])[1]     # (s − 1)²: one root, gcd s − 1
    (1, [-1, 1])
    """
    if not p or not p[0]:
        raise ValueError("p(0) must be non-zero")
    seq = [_primitive(list(p))]
    if len(p) > 1:
        seq.append(_primitive([i * c for i, c in enumerate(p)][1:]))
    while len(seq) > 1 and len(seq[-1]) > 1 and (r := _prem(seq[-2], seq[-1], budget)):
        seq.append([-c for c in r])
    return _changes(q[0] for q in seq) - _changes(q[-1] for q in seq), seq[-1]


def negative_roots(q: list, budget=UNLIMITED) -> int:
    """The roots of ``q`` (rational coefficients, constant term first, ``q(0) ≠ 0``) in
    ``(−∞, 0)``, counted with multiplicity: Sturm counts of ``p(s) = q(−s)`` on
    ``(0, ∞)`` summed over ``p, gcd(p, p'), gcd of that and its derivative, ...``.

    >>> negative_roots([Fraction(1, 2), 1])     # 1/2 + t: the root −1/2
    1
    >>> negative_roots([1, 3, 3, 1])            # (1 + t)³
    3
    """
    den = lcm(*(Fraction(c).denominator for c in q))
    p = _trim([int(Fraction(c) * den) * (-1 if k % 2 else 1) for k, c in enumerate(q)])
    total = 0
    while len(p) > 1:
        n, p = sturm_count(p, budget)
        total += n
    return total


# -- the rule ------------------------------------------------------------------------------

def _face_polynomial(face: list, lo: tuple, g: tuple, coef: dict, where: str) -> list:
    """The rational polynomial ``Σ_k r_k t^k`` of one factor's face (``lo + k·g``), its
    z-exponents checked affine in ``k``."""
    piv = next(i for i, x in enumerate(g) if x)
    if any(len(coef[p]) != 1 for p in face):     # an exp-rational number: the checker orders no such roots
        raise Unsupported(f"{where}: a face coefficient has several z-terms")
    terms = {(p[piv] - lo[piv]) // g[piv]: next(iter(coef[p].items())) for p in face}
    n = max(terms)
    if n > MAX_EDGE_DEGREE:
        raise Unsupported(f"{where}: a face polynomial of degree {n} (the checker expands {MAX_EDGE_DEGREE})")
    if any((e - terms[0][0]) * n != (terms[n][0] - terms[0][0]) * k for k, (e, _) in terms.items()):   # roots in e
        raise Unsupported(f"{where}: the z-exponents of a face are not affine along the edge")
    return [terms[k][1] if k in terms else 0 for k in range(n + 1)]


class EdgeData:
    """The bound factors as the rule reads them: dense points over their varying x
    variables, multiplicities, coefficients (``{z-exponent: rational}`` per point), the
    lattice of their differences (per coordinate, the gcd of the differences within each
    factor; 0: constant) and the words of their longest coordinate."""

    def __init__(self, st: State, where: str):
        self.pts, self.d = _factor_points(st, where)
        vs = sorted(set().union(*(x_vars(f, st.pb.dim) for f, _ in st.factors)))
        _budget(sum(sum(map(len, f)) + len(f) * (self.d + 2) for f, _ in st.factors), where, st)   # size, points
        self.mult = [e for _, e in st.factors]
        self.coefs = [{tuple(dict(m).get(v, 0) for v in vs): c for m, c in _zpolys(f, st.pb.dim).items()}
                      for f, _ in st.factors]
        self.box = [gcd(*(p[i] - fp[0][i] for fp in self.pts for p in fp)) for i in range(self.d)]
        self.wp = max(_wmax(fp) for fp in self.pts)


def edge(ed: EdgeData, c: list, where: str, budget) -> tuple[tuple, int]:
    """The edge of ``Newt_x(R)`` that ``c`` selects, as its sorted pair of ends, and its
    ``r_e`` (Reject when ``c`` selects a vertex or a face of dimension 2 or more).

    Each face's ends differ within its factor, so the edge ``v`` (their sum with the
    multiplicities) lies in the factors' difference lattice ``Π_i c_i Z``, and so do the
    points of a face from its lowest one: multiples of the primitive step ``g`` of ``v``
    in it."""
    budget.charge(_dots(sum(map(len, ed.pts)), ed.d, _wmax([c]), ed.wp), where)
    faces = []
    for fp in ed.pts:
        vals = [_dot(c, p) for p in fp]
        top = max(vals)
        faces.append([p for p, x in zip(fp, vals) if x == top])
    ref = next((fc for fc in faces if len(fc) > 1), None)
    if ref is None:
        raise Reject(f"{where}: the functional selects a vertex, not an edge")
    dirv = _sub(ref[1], ref[0])
    ends, lows = [[0] * ed.d, [0] * ed.d], []
    for fc, e in zip(faces, ed.mult):
        if not all(_parallel(dirv, _sub(p, fc[0])) for p in fc[1:]):
            raise Reject(f"{where}: a factor's face is not collinear with the edge: no segment")
        proj = [_dot(dirv, p) for p in fc]
        lo, hi = fc[proj.index(min(proj))], fc[proj.index(max(proj))]
        lows.append(lo)
        ends = [[s + e * x for s, x in zip(end, p)] for end, p in zip(ends, (lo, hi))]
    v = _sub(ends[1], ends[0])
    m = gcd(*(x // b for x, b in zip(v, ed.box) if x))
    g = tuple(x // m for x in v)
    return tuple(sorted(map(tuple, ends))), sum(
        e * negative_roots(_face_polynomial(fc, lo, g, ed.coefs[j], f"{where}, factor {j}"), budget)
        for j, (fc, lo, e) in enumerate(zip(faces, lows, ed.mult)) if len(fc) > 1)


def rule_edge_roots(st: State, step: dict, where: str) -> None:
    """Raise the vertex count by ``Σ_e (r_e − 1)`` over listed edges (Theorem 10.1)."""
    fields(step, {"rule", "edges", "lower_bound"}, set(), where)
    why = ("a second edge_roots step" if st.edge_roots else "edge_roots follows a vertex count" if st.lower is None
           else "heads only indecomposable need not divide Q: edge roots need divisors" if st.indecomposable else None)
    if why:
        raise Reject(f"{where}: {why}")
    if not isinstance(step["edges"], list) or not step["edges"]:
        raise Reject(f"{where}: edges must be a non-empty list of {{functional, roots}}")
    ed = EdgeData(st, where)
    seen: dict = {}                 # edge -> r_e
    for k, ent in enumerate(step["edges"]):
        w = f"{where}, edge {k}"
        fields(ent, {"functional", "roots"}, set(), w)
        c = _ints(ent["functional"], ed.d, f"{w}: functional")
        claimed = integer(ent["roots"], f"{w}: roots", 2)
        key, r_e = edge(ed, c, w, st.budget)
        if key in seen:
            raise Reject(f"{w}: the same edge twice")
        if r_e != claimed:
            raise Reject(f"{w}: the edge polynomial has {r_e} negative roots, not {claimed}")
        seen[key] = r_e
    bound = st.lower + sum(r - 1 for r in seen.values())
    if integer(step["lower_bound"], f"{where}: lower_bound", 1) != bound:
        raise Reject(f"{where}: lower_bound is {step['lower_bound']}, the vertex count and the edges give {bound}")
    st.lower = bound
    st.edge_roots = True


# rule name -> (function, phase): after the vertex count (1), before the floor (1.5)
RULES = {"edge_roots": (rule_edge_roots, 1.25)}
