"""One function per certificate rule, looked up in :data:`RULES` (docs/certificates.md).

Every rule reads its step, re-derives what the step claims from the embedded
problem with exact arithmetic, and records its result in the :class:`State`.
A broken rule raises :class:`~attnproof.checker.syntax.Reject` (verdict
*invalid*) or :class:`Unsupported` (verdict *inconclusive*).

The soundness argument, in short (THEORY §4-5):

* ``irreducible_factor`` proves that an irreducible ``f`` divides the reduced
  denominator ``Q`` exactly ``e`` times; distinct non-associate factors then
  give ``R = Π f^e | Q``.  ``reduced_by_flint`` gives ``R = Q`` directly,
  trusting FLINT for ``gcd(P, Q) = 1``.
* Every exact fusion has denominator ``D = Q·G = R·(Q/R)·G``, so ``Newt_x(D)``
  has at least as many vertices as ``Newt_x(R)`` (Theorem 3's argument with
  ``R`` in place of ``Q``), and every vertex needs its own atom.
* ``newton_blocks`` counts the vertices of ``Newt_x(R)``: a product over blocks
  in disjoint variables (Lemma 5), each block by a verified vertex list
  (Lemma 6) or a zonotope count (Lemma 7).
* ``product_fusion`` / ``explicit_fusion`` exhibit an exact fusion: the upper bound.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from itertools import combinations
from math import comb, gcd

from . import poly as P
from .capelli import binomial_valuation, capelli_irreducible
from .capelli import content as capelli_content
from .flint_gcd import coprime
from .geometry import GraphTooLarge, acyclic_orientations, product, rank
from .limits import MAX_DIGITS, MAX_EXPANSION, MAX_GRAPH_NODES, MAX_SUBSETS
from .problem import head_polys, parse_atoms
from .syntax import (UNLIMITED, Budget, Reject, Unsupported, count, fields,
                     hexdigest, integer, rational)

TRUST_ORDER = ("exact", "exact-modulo-flint", "window-refuted", "numeric", "unknown")
SMALL_HEAD = 64        # heads with at most this many terms are indexed by their directions


class State:
    """What the steps established so far, and the work budget they share."""

    def __init__(self, pb, budget: Budget = UNLIMITED) -> None:
        self.pb = pb
        self.budget = budget
        self.factors: list = []        # (poly, multiplicity)
        self.factor_text = None         # canonical text of the last irreducible factor
        self.flint_used = False
        self.lower = None
        self.upper = None
        self.windows: list = []
        self.window_steps: list = []
        self.step_index = None
        self.trust = "exact"
        self._index = None
        self._hvars: list = []
        self._dirs = None
        self._xvars: list = []

    def weaken(self, level: str) -> None:
        """Lower the trust level to ``level`` if it is weaker."""
        if TRUST_ORDER.index(level) > TRUST_ORDER.index(self.trust):
            self.trust = level

    def _head_index(self) -> None:
        if self._index is None:
            self._index = {}
            for h, D in enumerate(self.pb.den):
                self.budget.charge(P.size(D), "indexing the heads")
                hv = P.variables(D)
                self._hvars.append(hv)
                for v in hv:
                    self._index.setdefault(v, []).append(h)

    def heads_with(self, vs: set) -> list:
        """Heads whose denominator involves every variable of ``vs``."""
        self._head_index()
        if not vs:
            return list(range(len(self.pb.den)))
        first = min(vs, key=lambda v: len(self._index.get(v, ())))
        cands = self._index.get(first, ())
        self.budget.charge(len(cands), "matching factors to heads")
        return [h for h in cands if vs <= self._hvars[h]]

    def divisor_candidates(self, f: dict) -> list:
        """Heads whose denominator ``f`` may divide (every other one it does not).

        A divisor's varying variables vary in the multiple.  For a binomial ``f``
        with support ``{a, b}`` also by direction: if ``f | D`` then
        ``Newt(D) = [a, b] + Newt(D/f)``, and for a generic functional orthogonal
        to ``b - a`` the face of ``Newt(D)`` is a segment parallel to ``b - a``
        whose ends are support points of ``D``.  So ``D`` has two support points
        differing by a multiple of ``b - a``.  Heads with at most ``SMALL_HEAD``
        terms are indexed by the primitive directions of their support
        differences; larger ones are always candidates.  The work per factor is
        the number of candidates, not the number of heads.
        """
        vs = P.variables(f)
        if len(f) != 2:
            return self.heads_with(vs)
        self._head_index()
        if self._dirs is None:
            self._dirs = {}
            for h, D in enumerate(self.pb.den):
                if len(D) > SMALL_HEAD:
                    self._dirs.setdefault(None, []).append(h)
                    continue
                ms = list(D)
                self.budget.charge(len(ms) * len(ms) * (1 + max(len(m) for m in ms)),
                                   "indexing the heads")
                for i in range(len(ms)):
                    for j in range(i + 1, len(ms)):
                        d = _primitive(P.mono_div(ms[j], ms[i]))
                        hs = self._dirs.setdefault(d, [])
                        if not hs or hs[-1] != h:
                            hs.append(h)
        a, b = list(f)
        cands = self._dirs.get(_primitive(P.mono_div(b, a)), [])
        if None in self._dirs:         # lists of increasing heads, each head once
            cands = sorted(set(cands) | set(self._dirs[None]))
        self.budget.charge(1 + len(cands), "matching factors to heads")
        return [h for h in cands if vs <= self._hvars[h]]

    def factor_xvars(self, j: int) -> set:
        """x variables of bound factor ``j`` (computed once)."""
        while len(self._xvars) < len(self.factors):
            f = self.factors[len(self._xvars)][0]
            self.budget.charge(P.size(f), "factor variables")
            self._xvars.append(x_vars(f, self.pb.dim))
        return self._xvars[j]


def _primitive(g: tuple) -> tuple:
    """The primitive sparse vector parallel to ``g`` with first non-zero entry positive.

    >>> _primitive(((1, -2), (4, 6)))
    ((1, 1), (4, -3))
    """
    k = 0
    for _, x in g:
        k = gcd(k, x)
    if k == 0:
        raise ValueError("zero vector")
    if g[0][1] < 0:
        k = -k
    return tuple((v, x // k) for v, x in g)


# -- polynomial syntax ------------------------------------------------------

def read_poly(x, where: str, nvars: int, rational_coefficients: bool = False) -> dict:
    """A certificate polynomial: ``[[coef, [[var, exp], ...]], ...]``.

    Coefficients are JSON integers (canonical rationals when ``rational_coefficients``).

    Terms are strictly increasing by their pair lists; pairs strictly increasing
    by variable; exponents and coefficients non-zero.

    >>> read_poly([[1, []], [2, [[0, 1]]]], "p", 1)
    {(): 1, ((0, 1),): 2}
    >>> read_poly([[2, [[0, 1]]], [1, []]], "p", 1)
    Traceback (most recent call last):
    ...
    attnproof.checker.syntax.Reject: p, term 1: terms must be strictly increasing by their monomials
    """
    out = _read_poly_fast(x, nvars)
    if out is not None:
        return out
    return _read_poly_general(x, where, nvars, rational_coefficients)


def _read_poly_general(x, where: str, nvars: int, rational_coefficients: bool) -> dict:
    # every polynomial, and the message of every broken one
    if not isinstance(x, list) or not x:
        raise Reject(f"{where}: a polynomial is a non-empty list of terms")
    out = {}
    prev = None
    for t_i, t in enumerate(x):
        w = f"{where}, term {t_i}"
        if not isinstance(t, list) or len(t) != 2 or not isinstance(t[1], list):
            raise Reject(f"{w}: a term is [coefficient, [[variable, exponent], ...]]")
        c = (rational(t[0], f"{w}, coefficient") if rational_coefficients
             else integer(t[0], f"{w}, coefficient"))
        if c == 0:
            raise Reject(f"{w}: zero coefficient")
        pairs = []
        for pr in t[1]:
            if not isinstance(pr, list) or len(pr) != 2:
                raise Reject(f"{w}: a monomial is a list of [variable, exponent] pairs")
            v = integer(pr[0], f"{w}, variable", 0)
            e = integer(pr[1], f"{w}, exponent")
            if v >= nvars:
                raise Reject(f"{w}: variable {v} does not exist (the lattice has {nvars})")
            if e == 0 or (pairs and v <= pairs[-1][0]):
                raise Reject(f"{w}: pairs must have non-zero exponents and increasing variables")
            pairs.append((v, e))
        if prev is not None and not pairs > prev:
            raise Reject(f"{w}: terms must be strictly increasing by their monomials")
        prev = pairs
        out[tuple(pairs)] = c
    return out


_TEN = 10 ** MAX_DIGITS


def _read_poly_fast(x, nvars: int):
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


def poly_text(f: dict) -> str:
    """The canonical JSON text of a polynomial read by :func:`read_poly` with integer
    coefficients (equal to ``canonical_text`` of the JSON it was read from).

    >>> poly_text({(): 1, ((0, 1), (3, -2)): 5})
    '[[1,[]],[5,[[0,1],[3,-2]]]]\\n'
    """
    return "[" + ",".join([f"[{c},[" + ",".join([f"[{v},{e}]" for v, e in m]) + "]]"
                           for m, c in f.items()]) + "]\n"


def x_points(f: dict, dim: int) -> list:
    """Distinct projections of ``supp(f)`` on the x variables (sparse monomials, lex order).

    >>> x_points({((0, 1), (2, 1)): 1, ((2, 3),): 1}, 2)       # z (index 2) dropped
    [(), ((0, 1),)]
    """
    return sorted({tuple(pr for pr in m if pr[0] < dim) for m in f}, key=P.lex_key)


def x_vars(f: dict, dim: int) -> set:
    """x variables (index < dim) whose exponent varies over ``supp(f)``.

    >>> sorted(x_vars({((0, 1), (2, 1)): 1, ((2, 3),): 1}, 2))
    [0]
    """
    return {v for v in P.variables(f) if v < dim}


# -- irreducibility witnesses (THEORY §5, C1) ------------------------------

def _linear_var(f: dict):
    """Smallest variable in which ``f`` (normal form: exponents >= 0, minimum 0) is
    linear with a single-term coefficient, or None.

    >>> _linear_var({((3, 1),): 1, ((5, 1),): 1, (): 1})      # x3 + x5 + 1: linear in x3
    3
    """
    n = len(f)
    ones: dict = {}
    other: set = set()
    for m in f:
        for v, e in m:
            if e == 1:
                ones[v] = ones.get(v, 0) + 1
            else:
                other.add(v)
    for v in sorted(ones):
        if v not in other and ones[v] < n and (ones[v] == 1 or n - ones[v] == 1):
            return v
    return None


def _irreducible(f: dict, wit, where: str, budget: Budget) -> None:
    """Check an irreducibility witness.  Witnesses are canonical: ``linear`` with
    the smallest possible variable when one exists, else ``binomial`` (2 terms),
    else ``simplex`` (3 or more terms)."""
    kind = wit.get("kind") if isinstance(wit, dict) else None
    lin = _linear_var(f)
    if kind == "linear":
        # f = a + b·x_i, a and b free of x_i, one of them a single term (a unit of
        # the Laurent ring).  Degrees in x_i add under products, so a factorization
        # has a factor free of x_i dividing a and b, hence a unit.
        fields(wit, {"kind", "var"}, set(), where)
        v = integer(wit["var"], f"{where}: var", 0)
        if v == lin:
            return                # lin varies in f (exponent 1 in some terms, 0 in others)
        if v not in P.variables(f):
            raise Reject(f"{where}: the polynomial does not involve variable {v}")
        if lin is None:
            raise Reject(f"{where}: not linear with a single-term coefficient in any variable")
        if v != lin:
            raise Reject(f"{where}: the canonical linear witness is variable {lin}, not {v}")
        return
    if kind in ("binomial", "simplex"):
        # binomial: 1 + c·X^g with g primitive is linear after a unimodular change of
        # variables.  simplex (Gao 2001): an affinely independent support whose edge
        # vectors have coordinate gcd 1 spans an integrally indecomposable polytope,
        # so f is absolutely irreducible.
        fields(wit, {"kind"}, set(), where)
        if lin is not None:
            raise Reject(f"{where}: the canonical witness is 'linear' (variable {lin})")
        pts = sorted(f, key=P.lex_key)
        if kind == "binomial" and len(pts) != 2:
            raise Reject(f"{where}: a binomial has exactly 2 terms, this one has {len(pts)}")
        if kind == "simplex" and len(pts) < 3:
            raise Reject(f"{where}: a simplex witness needs at least 3 terms (use 'binomial')")
        inv0 = P.mono_inv(pts[0])
        diffs = [P.mono_mul(p, inv0) for p in pts[1:]]
        g = 0
        for row in diffs:
            for _, x in row:
                g = gcd(g, x)
        if g != 1:
            raise Reject(f"{where}: the edge vectors of the support have gcd {g}, not 1")
        if rank([dict(r) for r in diffs], budget) != len(diffs):
            raise Reject(f"{where}: the support is not affinely independent")
        return
    if kind == "capelli":
        # a binomial whose exponent difference has content k >= 2 (capelli.py)
        fields(wit, {"kind"}, set(), where)
        if lin is not None:
            raise Reject(f"{where}: the canonical witness is 'linear' (variable {lin})")
        if len(f) != 2:
            raise Reject(f"{where}: a Capelli witness is for binomials, this has {len(f)} terms")
        budget.charge(sum(abs(c).bit_length() for c in f.values()), "Capelli's test")
        if capelli_content(f) == 1:
            raise Reject(f"{where}: the exponent difference is primitive: use 'binomial'")
        if not capelli_irreducible(f):
            raise Reject(f"{where}: reducible by Capelli's theorem (a p-th power for a prime "
                         "p dividing the exponent, or -4b^4)")
        return
    raise Reject(f"{where}: unknown irreducibility witness {kind!r}")


def _product_identity(st: State, Nstar: list, Dstar: dict, where: str) -> bool:
    """Fast path of :func:`_check_identity` when ``D* = c·Π_h D_h`` (a product fusion, or a
    reduced form in which nothing cancels, as for graph sums).

    Then ``Σ_h N_h/D_h = N_Π/D_Π`` with ``N ← N·D_h + N_h·D``, ``D ← D·D_h`` built
    head by head, and ``N*/D* = N_Π/D_Π`` iff ``N* = c·N_Π``.  Head denominators have
    positive coefficients, so the partial products only grow: past ``|D*|`` terms
    the path is abandoned (False) and the general check runs.  True when verified;
    a wrong numerator is rejected.
    """
    pb, bud = st.pb, st.budget
    D: dict = {(): Fraction(1)}
    N = [dict() for _ in range(pb.value_dim)]
    for h, Dh in enumerate(pb.den):
        N = [_sum(P.mul(n, Dh, bud), P.mul(nh, D, bud)) for n, nh in zip(N, pb.num[h])]
        D = P.mul(D, Dh, bud)
        if len(D) > len(Dstar):
            return False
    if len(D) != len(Dstar) or D.keys() != Dstar.keys():
        return False
    mono = next(iter(D))
    c = Dstar[mono] / D[mono]
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


def _check_identity(st: State, Nstar: list, Dstar: dict, where: str) -> None:
    """Verify ``N*/D* = Σ_h N_h/D_h`` exactly.

    Heads with ``D_h | D*`` contribute ``N_h·(D*/D_h)``; the others (set B) are
    cleared by ``T_B = Π_{h∈B} D_h``:
    ``N*·T_B = Σ_{h∉B} N_h·(D*/D_h)·T_B + D*·Σ_{h∈B} N_h·Π_{g∈B, g≠h} D_g``.
    """
    pb = st.pb
    bud = st.budget
    m = pb.value_dim
    if _product_identity(st, Nstar, Dstar, where):
        return
    acc = [dict() for _ in range(m)]
    B = []
    for h, D in enumerate(pb.den):
        G = P.divexact(Dstar, D, bud)
        if G is None:
            B.append(h)
            continue
        for c in range(m):
            P.add_into(acc[c], P.mul(pb.num[h][c], G, bud))
    if not B:
        lhs, rhs = Nstar, acc
    else:
        size = len(Dstar) + max((len(n) for n in Nstar), default=0)
        for h in B:
            size *= len(pb.den[h])
            if size > MAX_EXPANSION:
                raise Unsupported(f"{where}: verifying this fusion would expand a product of "
                                  f"{len(B)} head denominators (more than {MAX_EXPANSION} terms)")
        T = {(): Fraction(1)}
        for h in B:
            T = P.mul(T, pb.den[h], bud)
        lhs = [P.mul(n, T, bud) for n in Nstar]
        rhs = [P.mul(a, T, bud) for a in acc]
        for h in B:
            rest = {(): Fraction(1)}
            for g in B:
                if g != h:
                    rest = P.mul(rest, pb.den[g], bud)
            for c in range(m):
                P.add_into(rhs[c], P.mul(Dstar, P.mul(pb.num[h][c], rest, bud), bud))
    for c in range(m):
        diff = dict(lhs[c])
        bud.charge(len(rhs[c]), "comparing polynomials")
        P.add_into(diff, rhs[c], Fraction(-1))
        if diff:
            raise Reject(f"{where}: the fraction is not equal to the sum of the heads "
                         f"(value component {c})")


# -- the rules ---------------------------------------------------------------

def rule_irreducible_factor(st: State, step: dict, where: str) -> None:
    """An irreducible factor ``f`` of the reduced denominator, with multiplicity.

    The checker computes ``a_h = v_f(D_h)`` for every head by exact division,
    ``e = max a_h`` and ``C_h = D_h / f^e`` for the heads with ``a_h = e``.  In
    the local ring at ``f``, ``M = X / (f^e · Π C_h) + (terms of pole order < e)``
    with ``X_c = Σ_{top h} N_{h,c} Π_{top g≠h} C_g``; so ``f^e`` divides ``Q``
    exactly iff ``f ∤ X``.  ``residue_component`` names the smallest ``c``
    with ``f ∤ X_c``.
    """
    fields(step, {"rule", "poly", "witness", "residue_component"}, set(), where)
    if st.flint_used:
        raise Reject(f"{where}: irreducible_factor cannot follow reduced_by_flint")
    pb = st.pb
    bud = st.budget
    f = read_poly(step["poly"], f"{where}: poly", pb.dim + (1 if pb.has_z else 0))
    if len(f) < 2:
        raise Reject(f"{where}: a single term is a unit, not a factor")
    if not P.is_normal_form(f):
        raise Reject(f"{where}: the factor is not in normal form (no monomial factor, "
                     "coprime integer coefficients, positive lex-leading coefficient)")
    text = poly_text(f)
    if st.factor_text is not None and not text > st.factor_text:
        raise Reject(f"{where}: factors must be strictly increasing by their canonical JSON text")
    _irreducible(f, step["witness"], f"{where}: witness", bud)
    vals = {}
    for h in st.divisor_candidates(f):
        a = binomial_valuation(f, pb.den[h])          # closed form, any exponent size
        if a is None:
            a, C = P.valuation(f, pb.den[h], bud)
        else:
            bud.charge(4, "a binomial valuation")
            C = None                                  # D_h / f, built only when needed below
        if a:
            vals[h] = (a, C)
    if not vals:
        raise Reject(f"{where}: the factor divides no head denominator")
    e = max(a for a, _ in vals.values())
    top = sorted(h for h, (a, _) in vals.items() if a == e)
    if len(top) > 1:
        for h in top:
            if vals[h][1] is None:
                vals[h] = (e, P.divexact(pb.den[h], f, bud))
    comp = integer(step["residue_component"], f"{where}: residue_component", 0)
    if comp >= pb.value_dim:
        raise Reject(f"{where}: residue_component {comp} out of range")
    size = 1
    for h in top:
        size *= max(len(vals[h][1] or ()), max((len(n) for n in pb.num[h]), default=1))
        if size > MAX_EXPANSION:
            raise Unsupported(f"{where}: the residue of {len(top)} heads would expand to more "
                              f"than {MAX_EXPANSION} terms")
    for c in range(comp + 1):
        X: dict = {}
        if len(top) == 1:
            X = pb.num[top[0]][c]          # read only below
        else:
            for h in top:
                t = pb.num[h][c]
                for g in top:
                    if g != h:
                        t = P.mul(t, vals[g][1], bud)
                P.add_into(X, t)
        bv = binomial_valuation(f, X) if X and len(f) == 2 == len(X) else None
        divides = (not X) or (bool(bv) if bv is not None else P.divexact(X, f, bud) is not None)
        if c < comp and not divides:
            raise Reject(f"{where}: residue_component must be the smallest component "
                         f"not divisible by the factor ({c} already is not)")
        if c == comp and divides:
            raise Reject(f"{where}: the factor divides the residue numerator of component "
                         f"{c}: it does not survive in the reduced denominator")
    st.factors.append((f, e))
    st.factor_text = text


def rule_reduced_by_flint(st: State, step: dict, where: str) -> None:
    """C3: ``P/Q`` equals the sum (verified) and ``gcd(P, Q) = 1``, recomputed by FLINT
    now (python-flint must be importable; otherwise the step is inconclusive)."""
    fields(step, {"rule", "numerator", "denominator"}, set(), where)
    if st.factors:
        raise Reject(f"{where}: reduced_by_flint cannot be combined with other factors")
    pb = st.pb
    nv = pb.dim + (1 if pb.has_z else 0)
    Qd = read_poly(step["denominator"], f"{where}: denominator", nv)
    if len(Qd) < 2 or not P.is_normal_form(Qd):
        raise Reject(f"{where}: the denominator must be a non-monomial polynomial in normal form")
    nums = step["numerator"]
    if not isinstance(nums, list) or len(nums) != pb.value_dim:
        raise Reject(f"{where}: numerator must list {pb.value_dim} polynomials (use [] for 0)")
    Pn = [read_poly(p, f"{where}: numerator {c}", nv, True) if p != [] else {}
          for c, p in enumerate(nums)]
    _check_identity(st, Pn, Qd, where)
    try:
        ok = coprime(Pn, Qd, st.budget)
    except Unsupported as e:
        raise Unsupported(f"{where}: {e}") from None
    if not ok:
        raise Reject(f"{where}: P/Q is not in lowest terms (FLINT finds a non-unit common factor)")
    st.factors.append((Qd, 1))
    st.flint_used = True
    st.weaken("exact-modulo-flint")


def _block_count(st: State, blk: dict, fs: list, where: str) -> int:
    dim = st.pb.dim
    bud = st.budget
    bvars = sorted(set().union(*(st.factor_xvars(j) for j in fs)))
    pos = {v: i for i, v in enumerate(bvars)}
    method = blk.get("method")
    if method == "vertices":
        fields(blk, {"factors", "method", "vertices"}, set(), where)
        ents = blk["vertices"]
        if not isinstance(ents, list) or not ents:
            raise Reject(f"{where}: 'vertices' must be a non-empty list of [u, c]")
        pts = [(x_points(st.factors[j][0], dim), st.factors[j][1]) for j in fs]
        per_vertex = sum(P.size(dict.fromkeys(fp)) for fp, _ in pts) + 2 * len(bvars)
        n = len(bvars)
        prev = None
        for k, ent in enumerate(ents):
            w = f"{where}, vertex {k}"
            bud.charge(per_vertex, "checking vertices")
            if not isinstance(ent, list) or len(ent) != 2 or not all(
                    isinstance(v, list) and len(v) == n for v in ent):
                raise Reject(f"{w}: expected [u, c], two lists of {n} integers")
            u = [integer(x, f"{w}, u") for x in ent[0]]
            c = [integer(x, f"{w}, c") for x in ent[1]]
            if prev is not None and not u > prev:
                raise Reject(f"{w}: vertices must be strictly increasing")
            prev = u
            # Lemma 6: c must have a unique maximizer u_j on every factor; then
            # Σ e_j·u_j is the unique maximizer of c on Newt_x(R_block), a vertex.
            tot: dict = {}
            for fp, e in pts:
                vals = [sum(c[pos[v]] * x for v, x in p) for p in fp]
                best = max(vals)
                if vals.count(best) != 1:
                    raise Reject(f"{w}: the functional has several maximizers on a factor")
                for v, x in fp[vals.index(best)]:
                    tot[v] = tot.get(v, 0) + e * x
            if any(tot.get(v, 0) != u[i] for i, v in enumerate(bvars)):
                raise Reject(f"{w}: the functional selects another point than the listed vertex")
        return len(ents)
    if method == "simplex":
        return _simplex_count(st, blk, fs, where)
    fields(blk, {"factors", "method"}, set(), where)
    if method not in ("zonotope_independent", "zonotope_graphic", "zonotope_general_position"):
        raise Reject(f"{where}: unknown block method {method!r}")
    classes = set()
    for j in fs:
        fp = x_points(st.factors[j][0], dim)
        if len(fp) != 2:
            raise Reject(f"{where}: factor {j} is not a binomial in the x variables")
        bud.charge(P.size(dict.fromkeys(fp)), "zonotope generators")
        classes.add(_primitive(P.mono_div(fp[1], fp[0])))
    gens = sorted(classes)
    rows = [{pos[v]: x for v, x in g} for g in gens]
    if method == "zonotope_independent":
        if len(rows) == 1:
            bud.charge(1 + len(rows[0]), "an exact rank")
            return 2                  # one generator, non-zero: the points differ
        if rank(rows, bud) != len(gens):
            raise Reject(f"{where}: the zonotope generators are not linearly independent")
        return 2 ** len(gens)
    if method == "zonotope_general_position":
        # n central hyperplanes in general position in rank r (every r of the
        # normals independent) cut space into 2·Σ_{i<r} C(n-1, i) regions
        r, n = rank(rows, bud), len(gens)
        if r == n:
            raise Reject(f"{where}: independent generators: use zonotope_independent")
        subsets = comb(n, r)
        if r <= 2:
            # the classes are distinct primitive directions up to sign: any two are
            # independent, and rank <= 2 needs nothing more
            return 2 * sum(comb(n - 1, i) for i in range(r))
        if subsets > MAX_SUBSETS:
            raise Unsupported(f"{where}: general position of {n} generators needs {subsets} "
                              f"rank computations (the checker does up to {MAX_SUBSETS})")
        for sub in combinations(rows, r):
            if rank(list(sub), bud) != r:
                raise Reject(f"{where}: the generators are not in general position")
        return 2 * sum(comb(n - 1, i) for i in range(r))
    # graphic: generator e_a - e_b is the edge {a, b}; e_a alone is {a, ground}
    n = len(bvars) + 1
    ground = len(bvars)
    edges = []
    for g in rows:
        nz = sorted(g.items())
        if len(nz) == 1 and abs(nz[0][1]) == 1:
            edges.append((nz[0][0], ground))
        elif len(nz) == 2 and {nz[0][1], nz[1][1]} == {1, -1}:
            edges.append((nz[0][0], nz[1][0]))
        else:
            raise Reject(f"{where}: a generator is not graphic (entries other than one +1 "
                         "and one -1, or a single ±1)")
    # general blocks: at most MAX_GRAPH_NODES nodes, every step of the recurrence charged
    try:
        st.budget.charge(len(edges) + n, "counting acyclic orientations")
        count = acyclic_orientations(n, edges, max_general=MAX_GRAPH_NODES, budget=st.budget)
        return count
    except GraphTooLarge as e:
        raise Unsupported(f"{where}: {e}") from None


def _simplex_count(st: State, blk: dict, fs: list, where: str) -> int:
    """A block of one factor whose x-support is affinely independent: every point is
    a vertex of its (multiple of a) simplex.  Affine independence by private
    variables: with base ``p_0`` the point with fewest non-zeros (the first such in
    sorted order), each other ``p_i - p_0`` has a non-zero coordinate that no other
    difference has, so the difference rows are independent.  Sparse, linear.

    >>> st = State(None); st.factors = [({(): 1, ((0, 1),): 1, ((4, 2),): 1}, 1)]
    >>> st.pb = type("Pb", (), {"dim": 5})()
    >>> _simplex_count(st, {"factors": [0], "method": "simplex"}, [0], "b")
    3
    """
    fields(blk, {"factors", "method"}, set(), where)
    if len(fs) != 1:
        raise Reject(f"{where}: a simplex block has exactly one factor")
    dim = st.pb.dim
    pts = sorted({tuple((v, e) for v, e in m if v < dim) for m in st.factors[fs[0]][0]})
    if len(pts) < 3:
        raise Reject(f"{where}: a simplex block needs at least 3 points (a binomial is a zonotope)")
    base = min(range(len(pts)), key=lambda i: len(pts[i]))
    b = dict(pts[base])
    diffs = []
    seen: dict = {}
    for i, p in enumerate(pts):
        if i == base:
            continue
        d = {v: -x for v, x in b.items()}
        for v, x in p:
            d[v] = x - b.get(v, 0)
        nz = [v for v, x in d.items() if x]
        diffs.append(nz)
        for v in nz:
            seen[v] = seen.get(v, 0) + 1
    for k, nz in enumerate(diffs):
        if not any(seen[v] == 1 for v in nz):
            raise Reject(f"{where}: point {k + 1} of the support has no private variable "
                         "(affine independence not shown)")
    return len(pts)


def rule_newton_blocks(st: State, step: dict, where: str) -> None:
    """Lower bound: the vertices of ``Newt_x(R)``, a product over blocks (Lemma 5)."""
    fields(step, {"rule", "blocks"}, set(), where)
    if st.lower is not None:
        raise Reject(f"{where}: a second newton_blocks step")
    blocks = step["blocks"]
    if not isinstance(blocks, list):
        raise Reject(f"{where}: blocks must be a list")
    seen: list = []
    used_vars: set = set()
    counts = []
    prev_first = -1
    nfac = len(st.factors)
    for b_i, blk in enumerate(blocks):
        j = _one_binomial_block(st, blk, prev_first, nfac, used_vars)
        if j is not None:
            prev_first = j
            seen.append(j)
            counts.append(2)
            continue
        w = f"{where}, block {b_i}"
        if not isinstance(blk, dict) or not isinstance(blk.get("factors"), list) or not blk["factors"]:
            raise Reject(f"{w}: a block has a non-empty 'factors' list")
        fs = [integer(j, f"{w}, factors", 0) for j in blk["factors"]]
        if any(b <= a for a, b in zip(fs, fs[1:])):
            raise Reject(f"{w}: factor indices must be strictly increasing")
        if fs[0] <= prev_first:
            raise Reject(f"{w}: blocks must be ordered by their first factor")
        prev_first = fs[0]
        if fs[-1] >= len(st.factors):
            raise Reject(f"{w}: factor {fs[-1]} does not exist")
        st.budget.charge(len(fs), "newton blocks")
        bv = set().union(*(st.factor_xvars(j) for j in fs))
        if bv & used_vars:
            raise Reject(f"{w}: shares x variables with an earlier block")
        used_vars |= bv
        seen.extend(fs)
        counts.append(_block_count(st, blk, fs, w))
    if sorted(seen) != list(range(len(st.factors))):
        raise Reject(f"{where}: the blocks must partition the factors exactly once")
    st.lower = product(counts)


def _one_binomial_block(st: State, blk, prev_first: int, nfac: int, used_vars: set):
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


def rule_product_fusion(st: State, step: dict, where: str) -> None:
    """Upper bound: the product fusion has at most ``Π_h |supp_x(D_h)|`` atoms (THEORY §3)."""
    fields(step, {"rule"}, set(), where)
    if st.upper is not None:
        raise Reject(f"{where}: a second upper-bound step")
    dim = st.pb.dim
    st.upper = product(len({tuple((v, e) for v, e in m if v < dim) for m in D})
                       for D in st.pb.den)


def rule_explicit_fusion(st: State, step: dict, where: str) -> None:
    """Upper bound: an explicit head, verified to equal the multi-head exactly."""
    fields(step, {"rule", "head"}, set(), where)
    if st.upper is not None:
        raise Reject(f"{where}: a second upper-bound step")
    pb = st.pb
    fields(step["head"], {"atoms"}, set(), f"{where}: head")
    atoms, m = parse_atoms(step["head"]["atoms"], pb.dim, pb.value_dim, f"{where}: head")
    prev = None
    for a_i, (key, bias, _, _) in enumerate(atoms):
        k = P.lex_key(pb.monomial(key, bias, f"{where}: head, atom {a_i}"))
        if prev is not None and not k > prev:
            raise Reject(f"{where}: head atoms must be strictly increasing by lattice exponent")
        prev = k
    Dstar, Nstar = head_polys(pb, atoms, f"{where}: head")
    _check_identity(st, Nstar, Dstar, where)
    st.upper = len({tuple((v, e) for v, e in mono if v < pb.dim) for mono in Dstar})


def _window(w, where: str):
    kind = w.get("kind") if isinstance(w, dict) else None
    if kind == "box":
        fields(w, {"kind", "radius", "coordinates"}, set(), where)
        integer(w["radius"], f"{where}: radius", 0)
        if not isinstance(w["coordinates"], list):
            raise Reject(f"{where}: coordinates must be a list of integers")
        for x in w["coordinates"]:
            integer(x, f"{where}: coordinates", 0)
    elif kind == "points":
        fields(w, {"kind", "points"}, set(), where)
        if not isinstance(w["points"], list) or not w["points"]:
            raise Reject(f"{where}: points must be a non-empty list")
        for p in w["points"]:
            if not isinstance(p, list):
                raise Reject(f"{where}: each point is a list of integers")
            for x in p:
                integer(x, f"{where}: point")
    else:
        raise Reject(f"{where}: unknown window kind {kind!r}")
    return w


def rule_window_refutation(st: State, step: dict, where: str) -> None:
    """No fusion with <= ``atoms`` atoms whose G lies in the window (SMT; trust window-refuted).

    The checker verifies the SMT-LIB2 text against its hash and that two solvers
    are named; it cannot re-prove the refutation, so a certificate with such a
    step is *inconclusive* until ``attnproof check --replay`` re-proves it.
    """
    fields(step, {"rule", "atoms", "window", "solvers", "smtlib_sha256", "smtlib"}, set(), where)
    if st.upper is None:
        raise Reject(f"{where}: window refutations come after the bounds")
    k = integer(step["atoms"], f"{where}: atoms", 1)
    win = _window(step["window"], f"{where}: window")
    sv = step["solvers"]
    fields(sv, {"z3", "cvc5"}, set(), f"{where}: solvers")
    if not all(isinstance(sv[s], str) and sv[s] for s in ("z3", "cvc5")):
        raise Reject(f"{where}: solvers must name the z3 and cvc5 versions")
    digest = hexdigest(step["smtlib_sha256"], f"{where}: smtlib_sha256")
    if not isinstance(step["smtlib"], str):
        raise Reject(f"{where}: smtlib must be a string")
    if hashlib.sha256(step["smtlib"].encode("utf-8")).hexdigest() != digest:
        raise Reject(f"{where}: the SMT-LIB2 text does not match smtlib_sha256")
    st.windows.append({"atoms": k, "window": win})
    st.window_steps.append(st.step_index)
    st.weaken("window-refuted")


# rule name -> (function, phase).  Steps must come in non-decreasing phase order:
# 0 factors, 1 lower bound, 2 upper bound, 3 windowed refutations.
RULES = {
    "irreducible_factor": (rule_irreducible_factor, 0),
    "reduced_by_flint": (rule_reduced_by_flint, 0),
    "newton_blocks": (rule_newton_blocks, 1),
    "product_fusion": (rule_product_fusion, 2),
    "explicit_fusion": (rule_explicit_fusion, 2),
    "window_refutation": (rule_window_refutation, 3),
}

__all__ = ["RULES", "State", "Unsupported", "TRUST_ORDER", "read_poly", "count",
           "MAX_GRAPH_NODES", "MAX_SUBSETS", "MAX_EXPANSION"]

# THEORY §9 (real-valued keys): chains, generic heads, Minkowski vertices, direct sums
from .rules_geometry import GEOMETRY_RULES  # noqa: E402  (uses the helpers above)

RULES.update(GEOMETRY_RULES)

# floors: the non-constant bound 2 and sub-sums of the bound factors
from .rules_floors import FLOOR_RULES  # noqa: E402

RULES.update(FLOOR_RULES)
