"""Geometry rules (§6.7-6.10 of docs/certificates.md): exact geometry instead of factorization (THEORY §9).

Standard library only; imports nothing from attnproof outside ``checker/``.
Every point is re-derived from the embedded problem: the x-exponents of a
head denominator on the problem's lattice (``supp_x D_h``, sorted, distinct),
restricted to the x-variables that vary (docs/certificates.md §6.7-6.10).

* ``indecomposable_chain`` (phase 0): ``Newt_x(D_h)`` is indecomposable -- a
  simplex with a modular rank witness (Gao), or a connected family of
  triangular 2-faces with functionals covering every vertex (Lemma 9.1); with
  edge contents of gcd 1 (recomputed here) ``D_h`` is absolutely irreducible
  over ``K = Q(z)`` (Cor 9.2), otherwise only indecomposable.
* ``generic_heads`` (phase 0.5): classes of associate heads, each class's
  representative proven indecomposable above; non-constant classes are the
  factors of ``Q`` (Cor 9.3), each with multiplicity 1; with heads only
  indecomposable, width functionals that separate them from every other class
  (non-homothety, docs/theory.md, Lemma 9.3') make them stand for ``Q`` in every
  vertex count.
* ``minkowski_vertices`` (phase 1): vertices of ``Σ Newt_x(f_i)`` as index
  tuples with functionals; with ``complete``, every other candidate is refuted
  by a Gordan certificate (Lemma 9.4).
* ``direct_sum`` (phase 1): linearly independent difference spaces (modular
  rank witness, integer relations), so the count is a product (Lemma 9.5).

"""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from operator import mul

from .. import poly as P
from ..linalg import is_prime, product, rank_mod
from ..problem import _words
from ..syntax import Reject, Unsupported, fields, integer
from .state import State, x_vars

# big-integer multiply-adds one geometry step may cost before it is inconclusive
# (besides the certificate's shared work budget, State.budget)
MAX_GEOMETRY_WORK = 400_000_000
MAX_PRIME = 1 << 64
PROPORTIONAL_UNITS = 128     # one proportionality test: its images mod a prime, its z-products
CHAIN_FIELDS = {"simplex": {"prime"}, "chain": {"triangles", "non_vertices"}}     # by kind

__all__ = ["RULES", "MAX_GEOMETRY_WORK"]


def dense_points(f: dict, dim: int, vs: list, st: State | None = None, where: str = "") -> list:
    """Distinct projections of ``supp(f)`` on the x variables ``vs``: sorted dense tuples.

    The ``|f|·|vs|`` entries are charged to ``st``'s budget before any is allocated.

    >>> dense_points({((0, 1), (2, 1)): 1, ((2, 3),): 1}, 2, [0])       # z (index 2) dropped
    [(0,), (1,)]
    """
    if st is not None:
        _budget((len(f) + 1) * (len(vs) + 1), where, st)
    return sorted({tuple(m.get(v, 0) for v in vs) for m in map(dict, f)})


# -- small exact helpers ------------------------------------------------------

def _dot(a, b) -> int:
    return sum(map(mul, a, b))


def _sub(a, b) -> tuple:
    return tuple(x - y for x, y in zip(a, b))


def _parallel(u, v) -> bool:
    """``u`` and ``v`` (``u != 0``) are parallel: every 2x2 minor vanishes, tested against
    one pivot coordinate of ``u`` in ``O(d)`` (not the ``d²`` minors).

    >>> _parallel((0, 2, 4), (0, -1, -2)), _parallel((1, 0, 0), (1, 0, 1))
    (True, False)
    """
    i = next(k for k, x in enumerate(u) if x)
    return all(u[i] * y == v[i] * x for x, y in zip(u, v))


def _list(x, where: str, what: str, least: int = 0) -> list:
    """``x``, checked to be a list (of at least ``least`` entries) of ``what``."""
    if not isinstance(x, list) or len(x) < least:
        raise Reject(f"{where}: expected a {'non-empty ' if least else ''}list of {what}")
    return x


def _entry(e, n: int, where: str, what: str) -> list:
    """``e``, checked to be a list of ``n`` items (``what`` shows them)."""
    if not isinstance(e, list) or len(e) != n:
        raise Reject(f"{where}: expected {what}")
    return e


def _ints(x, n: int, where: str) -> list:
    return [integer(v, where) for v in _entry(x, n, where, f"a list of {n} integers")]


def _index(x, n: int, where: str, prev: int, own: int = -1) -> int:
    """A point index ``i`` of an entry, ``prev < i < n`` (strictly increasing), not ``own`` (the
    point a multiplier list is about)."""
    i = integer(x, f"{where}: index", 0)
    if i <= prev or i >= n or i == own:
        raise Reject(f"{where}: indices must be strictly increasing"
                     + (", existing and not the point itself" if own >= 0 else " and existing"))
    return i


def _after(key, prev, where: str, what: str):
    """``key``, checked to come strictly after ``prev`` (None: the first entry)."""
    if prev is not None and not key > prev:
        raise Reject(f"{where}: {what} must be strictly increasing")
    return key


def _wmax(rows) -> int:
    """64-bit words of the longest entry of the integer vectors ``rows`` (at least 1).

    >>> _wmax([(1, -2), (3, 1 << 64)]), _wmax([])
    (2, 1)
    """
    big = max((max(max(r), -min(r)) for r in rows if len(r)), default=0)
    return 1 + (big.bit_length() >> 6)


def _mul(wa: int, wb: int) -> int:
    """The units of one product (or gcd, or quotient) of integers of ``wa`` and ``wb`` words:
    one per 64 word products, at least one (docs/certificates.md §8, the cost model).

    >>> _mul(1, 1), _mul(104, 104)
    (1, 170)
    """
    return 1 + wa * wb // 64


def _dots(n: int, d: int, wa: int, wb: int) -> int:
    """The units of ``n`` dot products of length ``d`` with entries of ``wa`` and ``wb`` words
    (a C-speed pass: about eight products of words to a unit, and the words' products).

    >>> _dots(1, 64, 1, 1), _dots(1, 1, 104, 104)
    (9, 85)
    """
    return n * (1 + d * (1 + wa * wb // 16) // 8)


def _budget(work: int, where: str, st: State) -> None:
    st.budget.charge(work, where)
    if work > MAX_GEOMETRY_WORK:
        raise Unsupported(f"{where}: verifying this step needs about {work} multiplications (the checker does up to "
                          f"{MAX_GEOMETRY_WORK})")


def _prime(x, where: str) -> int:
    p = integer(x, f"{where}: prime", 2)
    if p >= MAX_PRIME or not is_prime(p):
        raise Reject(f"{where}: prime {p} is not a prime below 2^64")
    return p


def _independent(rows: list, d: int, p: int, w: int, where: str, st: State) -> bool:
    """At most ``d`` rows (entries of about ``w`` words), independent modulo ``p``; the
    elimination is charged first."""
    _budget(len(rows) * (d * (w + _mul(w, w)) + len(rows) * (1 + d // 32)), where, st)
    return len(rows) <= d and rank_mod(rows, p, st.budget) == len(rows)


def _exposed(x, tops: list, d: int, wp: int, values: int, extra: int, where: str, st: State, what: str) -> None:
    """The functional ``x`` (``d`` integers) is largest exactly on ``face`` among the points
    ``pts``, for every ``(pts, face)`` of ``tops``; its ``values`` values with ``d`` entries
    (points of ``wp`` words) and ``extra`` more units are charged first."""
    c = _ints(x, d, f"{where}: functional")
    _budget(_dots(values, d, _wmax([c]), wp) + extra, where, st)
    for pts, face in tops:
        top = max(vals := [_dot(c, q) for q in pts])
        if {k for k, v in enumerate(vals) if v == top} != face:
            raise Reject(f"{where}: the functional's maximum is not attained at exactly {what}")


def _point_non_vertices(x, pts: list, where: str, st: State) -> dict:
    """``[[i, [[j, μ], ...]], ...]``, strictly increasing ``i``: ``Σ μ_j (p_i - p_j) = 0``
    (``j`` strictly increasing, not ``i``, ``μ >= 1``)."""
    out, prev, wp = {}, -1, _wmax(pts)
    for k, e in enumerate(_list(x, where, "[index, multipliers]")):
        w = f"{where} {k}"
        i = prev = _index(_entry(e, 2, w, "[index, multipliers]")[0], len(pts), w, prev)
        mus, last = [], -1
        for m in _list(e[1], w, "[index, μ]", 1):
            last = _index(_entry(m, 2, w, "[index, μ]")[0], len(pts), w, last, i)
            mus.append((last, integer(m[1], f"{w}: μ", 1)))
        _budget((len(mus) + 1) * (len(pts[i]) + 1) * _mul(_wmax([[mu for _, mu in mus]]), wp), w, st)
        if any(sum(mu * (pts[i][col] - pts[j][col]) for j, mu in mus) for col in range(len(pts[i]))):
            raise Reject(f"{w}: the multipliers do not write point {i} as a convex combination of the others")
        out[i] = mus
    return out


# -- indecomposable_chain -----------------------------------------------------

def difference_box(st: State) -> dict:
    """``c_j`` = gcd over all heads of coordinate ``j`` of the differences of their keys.

    Every head is ``x^{k_h}`` times a polynomial on ``Λ'' = Π_j c_j Z`` (a sublattice
    of the problem's lattice), so the problem lives in ``K[Λ'']`` and contents are
    measured there: an edge ``e`` has content ``gcd_j(e_j / c_j)`` (S1, S2).
    """
    if st.box is None:
        box: dict = {}
        for D in st.pb.den:
            # each point is compared with the first on the union of their variables
            st.budget.charge(P.size(D) + len(D) * len(next(iter(D))), "the difference lattice")
            xs = [{v: e for v, e in m if v < st.pb.dim} for m in D]
            for x in xs[1:]:
                for j in set(x) | set(xs[0]):
                    box[j] = gcd(box.get(j, 0), x.get(j, 0) - xs[0].get(j, 0))
        st.box = box
    return st.box


def rule_indecomposable_chain(st: State, step: dict, where: str) -> None:
    """``D_h`` absolutely irreducible over ``K``: Gao simplex or a chain of triangles (9.1, 9.2)."""
    kind = step.get("kind") if isinstance(step, dict) else None
    if kind not in ("simplex", "chain"):
        raise Reject(f"{where}: kind must be 'simplex' or 'chain'")
    fields(step, {"rule", "head", "kind"} | CHAIN_FIELDS[kind], set(), where)
    if st.generic:
        raise Reject(f"{where}: chains come before generic_heads")
    h = integer(step["head"], f"{where}: head", 0)
    if h >= len(st.pb.den) or h <= st.last_chain:
        raise Reject(f"{where}: chain steps name existing heads, strictly increasing by head (not head {h})")
    st.last_chain = h
    D = st.pb.den[h]
    st.budget.charge(P.size(D), "reading a head's points")
    vs = sorted(x_vars(D, st.pb.dim))
    pts = dense_points(D, st.pb.dim, vs, st, "a head's points")
    n, d, wp = len(pts), len(vs), _wmax(pts)
    if n < 2:
        raise Reject(f"{where}: head {h} has a single key: its denominator is a unit")
    if kind == "simplex":
        p = _prime(step["prime"], where)
        edges = [_sub(q, pts[0]) for q in pts[1:]]
        if len(edges) > d:
            raise Reject(f"{where}: {n} points in dimension {d} are not affinely independent")
        if not _independent(edges, d, p, wp, where, st):
            raise Reject(f"{where}: the differences p_i - p_0 are not independent modulo {p}")
    else:
        # triangles [[a, b, c], functional]: 2-faces connected through shared edges, every point
        # on none of them a non-vertex (Lemma 9.1)
        tris = _list(step["triangles"], f"{where}: triangles", "[[a, b, c], functional]", 1)
        _budget(len(tris) * n * d, where, st)
        difference_box(st)       # charged before the triangles; the edges' contents are read from it
        owners: dict = {}         # edge -> a triangle on it
        parent = list(range(len(tris)))

        def find(x):
            while parent[x] != x:
                parent[x] = x = parent[parent[x]]      # path halving
            return x

        prev = None
        for t_i, t in enumerate(tris):
            w = f"{where}, triangle {t_i}"
            a, b, c = abc = _ints(_entry(t, 2, w, "[[a, b, c], functional]")[0], 3, f"{w}: vertices")
            if not 0 <= a < b < c < n:
                raise Reject(f"{w}: vertices must be point indices a < b < c below {n}")
            prev = _after(abc, prev, w, "triangles")
            # the n values of the functional, the parallel test and three edge contents
            _exposed(t[1], [(pts, set(abc))], d, wp, n + 1, 5 * d * _mul(wp, wp), w, st, "the triangle")
            if _parallel(_sub(pts[b], pts[a]), _sub(pts[c], pts[a])):
                raise Reject(f"{w}: the three points are collinear")
            for e in ((a, b), (a, c), (b, c)):       # a shared edge joins the triangles' components
                parent[find(owners.setdefault(e, t_i))] = find(t_i)
        if len({find(i) for i in range(len(tris))}) != 1:
            raise Reject(f"{where}: the triangles are not connected through shared edges")
        nv = _point_non_vertices(step["non_vertices"], pts, f"{where}: non_vertices", st)
        if set(nv) != set(range(n)) - {i for e in owners for i in e}:
            raise Reject(f"{where}: non_vertices must list exactly the points on no triangle")
        edges = [_sub(pts[b], pts[a]) for a, b in owners]
    st.chains[h] = kind
    box = difference_box(st)      # contents are measured on the difference lattice (S1, S2)
    if gcd(*(x // box[j] for v in edges for j, x in zip(vs, v) if x)) != 1:
        # indecomposable only (Lemma 9.1): generic_heads then needs non-homothety
        st.indecomposable.add(h)


# -- generic_heads ------------------------------------------------------------

def _zpolys(poly: dict, dim: int) -> dict:
    """``{sparse x-monomial: {z-exponent: coefficient}}`` (``(variable, exponent)`` pairs kept).

    >>> _zpolys({((0, 1), (2, 3)): 2, ((1, 1),): 1, ((0, 1),): 5}, 2)
    {((0, 1),): {3: 2, 0: 5}, ((1, 1),): {0: 1}}
    """
    out: dict = {}
    for m, c in poly.items():
        ze, m = (m[-1][1], m[:-1]) if m and m[-1][0] >= dim else (0, m)    # z has the largest index, dim
        zp = out.setdefault(m, {})
        zp[ze] = zp.get(ze, 0) + c
    return {m: nz for m, zp in out.items() if (nz := {e: c for e, c in zp.items() if c})}


def _zmul(a: dict, b: dict) -> dict:
    out: dict = {}
    for e1, c1 in a.items():
        for e2, c2 in b.items():
            out[e1 + e2] = out.get(e1 + e2, 0) + c1 * c2
    return {e: c for e, c in out.items() if c}


def _lowest(A: dict):
    """The lexicographically smallest x-point (dense order, on sparse monomials)."""
    return min(A, key=P.lex_key)


def _shape(A: dict) -> frozenset:
    """The support translated to its smallest point: equal for translates."""
    a0 = _lowest(A)
    return frozenset(P.mono_div(s, a0) for s in A)


def _translate(A: dict, B: dict):
    """``t`` with ``supp A = supp B + t``, or None."""
    return P.mono_div(_lowest(A), _lowest(B)) if len(A) == len(B) and _shape(A) == _shape(B) else None


def _monomial_unit(A: dict, B: dict, t):
    """``(q, a)`` with ``A(s + t) = q z^a B(s)`` for all ``s``, or None."""
    s0 = _lowest(B)
    pa, pb_ = A[P.mono_mul(s0, t)], B[s0]
    ea, eb = max(pa), max(pb_)
    q, a = Fraction(pa[ea]) / Fraction(pb_[eb]), ea - eb
    return (q, a) if all(A[P.mono_mul(s, t)] == {e + a: q * c for e, c in zp.items()} for s, zp in B.items()) else None


def _monomial_form(A: dict):
    """``{(s - s_0, e - e_0, c/c_0)}`` when every coefficient is one term ``c·z^e`` (``s_0``
    the lowest point): equal exactly for ``A`` and its multiples ``q·z^a·x^t·A``; None
    when some coefficient has several terms.

    >>> _monomial_form({((0, 1),): {2: 3}, (): {0: 6}}) == _monomial_form({((0, 2),): {5: 1}, ((0, 1),): {3: 2}})
    True
    """
    if any(len(zp) != 1 for zp in A.values()):
        return None
    s0 = _lowest(A)
    ((e0, c0),) = A[s0].items()
    return frozenset((P.mono_div(s, s0), e - e0, Fraction(c) / c0) for s, zp in A.items() for e, c in zp.items())


def _proportional(A: dict, B: dict, t, st: State, where: str) -> bool:
    """``A(s + t) = κ B(s)`` for one ``κ ∈ Q(z)`` and all ``s`` (supports already translates);
    each point's two z-products charged before they are made (docs/certificates.md §8).

    The images of the coefficients at one point mod a prime (:func:`poly.images`, a
    ring homomorphism) refute proportionality in linear time: a differing image
    means ``A(s + t)·B(s0) ≠ A(s0 + t)·B(s)``.  Only when every image agrees are the
    products made, exactly; the images never accept anything."""
    _budget(PROPORTIONAL_UNITS + 4 * len(B), where, st)    # the calls, the images' pass
    n, i0 = len(B), list(B).index(_lowest(B))
    As, Bs = [A[P.mono_mul(s, t)] for s in B], list(B.values())      # A(s + t), B(s) in the order of B
    # each coefficient {e: c} as a polynomial in the one variable 0
    ims = P.images([{(((0, e),) if e else ()): c for e, c in zp.items()} for zp in As + Bs], st.budget)
    if None not in ims and any(x * ims[n + i0] % P.IMAGE_PRIME != ims[i0] * y % P.IMAGE_PRIME
                               for x, y in zip(ims, ims[n:])):
        return False
    wa, wb = _zweight(As[i0]), _zweight(Bs[i0])
    for As_s, Bs_s in zip(As, Bs):
        _budget(_zweight(As_s) * wb + wa * _zweight(Bs_s), where, st)
        if _zmul(As_s, Bs[i0]) != _zmul(As[i0], Bs_s):
            return False
    return True


def _zweight(p: dict) -> int:
    f, s, _ = P._load(p)      # per term 1, per Fraction 4 more (gcds), per extra word 1
    return len(p) + 4 * f + s


def _zwork(p: dict) -> int:
    # the work of reading a polynomial as z-polynomials, and of one pass over them
    return P.size(p) + 1


def rule_generic_heads(st: State, step: dict, where: str) -> None:
    """``Q = Π`` over the non-constant classes of associate irreducible heads (Cor 9.3);
    with heads only indecomposable, ``Newt(Q) = Σ λ_h Newt(D_h)``, ``λ_h > 0`` (9.3')."""
    fields(step, {"rule", "classes"}, {"width_functionals"}, where)
    if st.generic:
        raise Reject(f"{where}: a second generic_heads step")
    if st.factors or st.flint_used:
        raise Reject(f"{where}: generic_heads replaces every other factor step")
    pb = st.pb
    # a unit has one x-point; monomials are keyed by (variable, exponent) pairs, so
    # x_0 and x_1 are two points (keying by exponents alone made x_0 + x_1 a "unit")
    _budget(sum(_zwork(D) for D in pb.den), where, st)
    Z = [_zpolys(D, pb.dim) for D in pb.den]
    nonunit = [h for h, zd in enumerate(Z) if len(zd) > 1]
    seen: list = []
    parsed: list = []
    for c_i, c in enumerate(_list(step["classes"], f"{where}: classes", "lists of head indices")):
        w = f"{where}, class {c_i}"
        hs = [integer(h, w, 0) for h in _list(c, w, "head indices", 1)]
        if any(b <= a for a, b in zip(hs, hs[1:])) or (parsed and hs[0] <= parsed[-1][0]):
            raise Reject(f"{w}: classes are strictly increasing lists, ordered by their first head")
        seen.extend(hs)
        parsed.append(hs)
        if len(seen) > len(nonunit):
            break
    if sorted(seen) != nonunit:
        raise Reject(f"{where}: the classes must partition the heads of two or more keys ({len(nonunit)}) exactly once")
    if sorted(st.chains) != (reps := [c[0] for c in parsed]):
        raise Reject(f"{where}: exactly the class representatives (first heads) need an indecomposable_chain step")
    units: dict = {}
    for c_i, (rep, *others) in enumerate(parsed):
        for h in others:
            _budget(2 * (_zwork(pb.den[h]) + _zwork(pb.den[rep])), where, st)
            if (t := _translate(Z[h], Z[rep])) is None or (u := _monomial_unit(Z[h], Z[rep], t)) is None:
                raise Reject(f"{where}, class {c_i}: head {h} is not D_{rep} times a monomial unit q·z^a·x^t")
            units[h] = (*u, t)
    # representatives of different classes are not associates: only supports of one
    # shape (translates) can be; among those, one-term coefficients are compared by a
    # normalized form (hashed), a representative with longer ones against its whole shape
    shapes: dict = {}
    for r in reps:
        _budget(2 * _zwork(pb.den[r]), where, st)
        shapes.setdefault(_shape(Z[r]), {}).setdefault(_monomial_form(Z[r]), []).append(r)
    for forms in shapes.values():
        same = next((rs for key, rs in forms.items() if key is not None and len(rs) > 1), None)
        group = [r for rs in forms.values() for r in rs]
        for i, j in ([same[:2]] if same else []) + [(i, j) for i in forms.get(None, []) for j in group if j != i]:
            _budget(P.size(Z[i]), where, st)      # the translate (one shape: it exists); products: _proportional
            if _proportional(Z[j], Z[i], _translate(Z[j], Z[i]), st, where):
                raise Reject(f"{where}: the denominators of heads {min(i, j)} and {max(i, j)} are associates")
    factor_reps: list = []
    for hs in parsed:
        rep, D = hs[0], Z[hs[0]]
        for comp in range(pb.value_dim):
            # charged per value component, before the component is read
            _budget(sum(_zwork(pb.num[h][comp]) for h in hs) + _zwork(pb.den[rep]), where, st)
            N: dict = {}
            for h in hs:
                q, a, t = units.get(h, (Fraction(1), 0, ()))
                for s, zp in _zpolys(pb.num[h][comp], pb.dim).items():
                    acc = N.setdefault(P.mono_div(s, t), {})
                    for e, c in zp.items():      # sums of long rationals grow: charged first
                        old = acc.get(e - a, 0)
                        _budget(2 * P.FRACTION_COST + (1 + _words(old) + _words(q))
                                * (2 + _words(c) + _words(q)) // 32, where, st)
                        acc[e - a] = old + Fraction(c) / q
            N = {s: nz for s, zp in N.items() if (nz := {e: c for e, c in zp.items() if c})}
            # the class is constant in x unless its numerator sum is a non-zero non-multiple of D
            if N and (not set(N) <= set(D) or not _proportional({s: N.get(s, {}) for s in D}, D, (), st, where)):
                st.factors.append((pb.den[rep], 1))
                factor_reps.append(rep)
                break
    _non_homothetic(st, step, factor_reps, st.indecomposable, where)
    st.generic = True


def _width_class(f: dict, cs: list, dim: int) -> tuple:
    """The widths ``w_c(supp_x f) = max <c, s> - min <c, s>`` for ``c`` in ``cs``, divided by
    their gcd (all zero stays all zero): equal for ``f`` and any ``λ·f + t`` (``λ > 0``).

    >>> f = {((0, 1),): 1, ((1, 2), (2, 5)): 1}                # points (1, 0) and (0, 2); z dropped
    >>> _width_class(f, [[1, 0], [0, 1], [1, 1]], 2)
    (1, 2, 1)
    >>> _width_class({((0, 3),): 1, ((1, 6),): 1}, [[1, 0], [0, 1], [1, 1]], 2)
    (1, 2, 1)
    """
    w = [max(col) - min(col) for col in zip(*[[sum(c[v] * e for v, e in m if v < dim) for c in cs] for m in f])]
    return tuple(x // g for x in w) if (g := gcd(*w)) else tuple(w)


def _non_homothetic(st: State, step: dict, reps: list, indec: set, where: str) -> None:
    """``width_functionals`` ``[C_1, ..., C_m]`` (integer vectors over the x variables):
    each representative only indecomposable has a width vector ``(w_C1, ..., w_Cm)`` not
    proportional to that of any other non-constant class (compared as primitive vectors,
    hashed: one pass), so ``conv K_h`` is no ``λ·conv K_g + t`` (docs/theory.md 9.3')."""
    needed = any(h in indec for h in reps) and len(reps) > 1
    if needed != ("width_functionals" in step):
        raise Reject(f"{where}: width_functionals are needed exactly when a head only indecomposable (edge content "
                     f"above 1) is one of two or more non-constant classes (heads {sorted(indec & set(reps))})")
    if not needed:
        return
    cs = _list(step["width_functionals"], f"{where}: width_functionals", "functionals", 1)
    _budget(len(cs) * (st.pb.dim + 1), where, st)
    cs = [_ints(c, st.pb.dim, f"{where}, width functional {i}") for i, c in enumerate(cs)]
    # the widths of every representative, charged before any is computed: one product of a
    # functional's entry and an exponent per (functional, pair), a gcd and a quotient per width
    dens = [st.pb.den[h] for h in reps]
    wc, we = _wmax(cs), _wmax([[e for D in dens for m in D for _, e in m]])
    _budget(len(cs) * sum(P.size(D) + 1 for D in dens) * _mul(wc, we)
            + 3 * len(cs) * len(reps) * _mul(wc + we, wc + we), where, st)
    seen: dict = {}
    for h, D in zip(reps, dens):
        seen.setdefault(_width_class(D, cs, st.pb.dim), []).append(h)
    for hs in seen.values():
        if len(hs) > 1 and any(h in indec for h in hs):
            raise Reject(f"{where}: heads {hs[0]} and {hs[1]} have proportional widths: not proven non-homothetic")


# -- minkowski_vertices / direct_sum ------------------------------------------

def _factor_points(st: State, where: str, count: bool = False) -> tuple[list, int]:
    """The points of every bound factor on their common x variables (``count``: for the one
    lower-bound step)."""
    if count and st.lower is not None:
        raise Reject(f"{where}: a second lower-bound step")
    if not st.factors:
        raise Reject(f"{where}: no bound factors (use newton_blocks with no blocks)")
    st.budget.charge(sum(P.size(f) for f, _ in st.factors), where)
    vs = sorted(set().union(*(x_vars(f, st.pb.dim) for f, _ in st.factors)))
    return [dense_points(f, st.pb.dim, vs, st, where) for f, _ in st.factors], len(vs)


def rule_minkowski_vertices(st: State, step: dict, where: str) -> None:
    """Vertices of ``Σ_i Newt_x(f_i)`` by functionals; complete with Gordan certificates (9.4)."""
    fields(step, {"rule", "complete", "vertices", "non_vertices", "point_non_vertices"}, set(), where)
    P, d = _factor_points(st, where, True)
    complete = step["complete"]
    if not isinstance(complete, bool):
        raise Reject(f"{where}: complete must be true or false")
    verts = _list(step["vertices"], f"{where}: vertices", "[tuple, vertex, functional]")
    nvs = _list(step["non_vertices"], f"{where}: non_vertices", "[prefix, multipliers]")
    pnv = _entry(step["point_non_vertices"], len(P), f"{where}: point_non_vertices", "one list per factor")
    sizes, wp = [len(p) for p in P], max(_wmax(pts) for pts in P)
    # the listed vertices verified (Lemma 9.4: the functional has the tuple's point as unique
    # maximizer on every factor): {tuple: False} until the enumeration reaches them
    _budget(len(verts), where, st)      # then each vertex by its functional's words, when read
    vset, prev = {}, None
    for k, e in enumerate(verts):
        w = f"{where}, vertex {k}"
        t = _ints(_entry(e, 3, w, "[tuple, vertex, functional]")[0], len(P), f"{w}: tuple")
        if any(not 0 <= i < n for i, n in zip(t, sizes)):
            raise Reject(f"{w}: a point index out of range")
        prev = _after(t, prev, w, "vertex tuples")
        if _ints(e[1], d, f"{w}: vertex") != [sum(P[h][i][j] for h, i in enumerate(t)) for j in range(d)]:
            raise Reject(f"{w}: the vertex is not the sum of the tuple's points")
        _exposed(e[2], [(pts, {i}) for i, pts in zip(t, P)], d, wp, sum(sizes), len(P) * d // 4, w, st, f"tuple {t}")
        vset[tuple(t)] = False
    if not complete and (nvs or any(x != [] for x in pnv)):
        raise Reject(f"{where}: a partial count carries no non-vertex certificates")
    if not complete and not 0 < len(verts) < product(sizes):
        raise Reject(f"{where}: a partial count lists at least one vertex, and not every candidate tuple")
    if complete:
        dead = [_point_non_vertices(x, P[i], f"{where}: point_non_vertices {i}", st) for i, x in enumerate(pnv)]
        alive = [[i for i in range(n) if i not in dd] for n, dd in zip(sizes, dead)]
        nvset = _gordan_non_vertices(st, nvs, P, sizes, d, wp, dead, where)
        # every candidate decided: depth-first over surviving prefixes
        _budget((len(nvs) + len(verts) + 1) * (max(sizes) + 1) * len(P), where, st)
        stack: list[tuple[int, ...]] = [(i,) for i in reversed(alive[0])]
        while stack:
            prefix = stack.pop()
            if prefix in nvset:               # refuted (a prefix of 2 or more points)
                nvset[prefix] = True
            elif len(prefix) < len(P):
                stack.extend(prefix + (i,) for i in reversed(alive[len(prefix)]))
            elif prefix in vset:
                vset[prefix] = True
            else:
                raise Reject(f"{where}: candidate {list(prefix)} is neither listed nor refuted: incomplete count")
        if not all(nvset.values()) or not all(vset.values()):
            raise Reject(f"{where}: a certificate entry is not a candidate of the enumeration")
    st.lower, st.complete = len(verts), complete


def _gordan_non_vertices(st: State, nvs: list, P: list, sizes: list, d: int, wp: int, dead: list, where: str) -> dict:
    """The non-vertex prefixes ``[prefix, multipliers]`` verified (a Gordan certificate
    ``Σ μ (a_h − a') = 0`` each): ``{prefix: False}``."""
    nvset, prev = {}, None
    for k, e in enumerate(nvs):
        w = f"{where}, non-vertex {k}"
        prefix = _entry(e, 2, w, "[prefix, multipliers]")[0]
        t = [integer(x, f"{w}: prefix") for x in _list(prefix, f"{w}: prefix", "point indices")]
        if not 2 <= len(t) <= len(P) or any(not 0 <= i < n for i, n in zip(t, sizes)):
            raise Reject(f"{w}: a prefix has 2..{len(P)} existing point indices")
        if any(i in dd for i, dd in zip(t, dead)):
            raise Reject(f"{w}: a prefix uses a point already shown not to be a vertex")
        prev = _after(t, prev, w, "non-vertex prefixes")
        mus = _list(e[1], w, "[factor, index, μ]", 1)
        mu_words = _wmax([[m[2] for m in mus if isinstance(m, list) and len(m) == 3 and type(m[2]) is int]])
        _budget(len(mus) * max(d, 1) * _mul(mu_words, wp), w, st)
        terms, last = [], (-1, -1)
        for m in mus:
            h = integer(_entry(m, 3, w, "[factor, index, μ]")[0], f"{w}: factor", 0)
            j, mu = integer(m[1], f"{w}: index", 0), integer(m[2], f"{w}: μ", 1)
            if h >= len(t) or j >= sizes[h] or j == t[h] or (h, j) <= last:
                raise Reject(f"{w}: multipliers need increasing (factor, index) on the prefix, off its own points")
            last = (h, j)
            terms.append((mu, P[h][t[h]], P[h][j]))
        if any(sum(mu * (a[col] - b[col]) for mu, a, b in terms) for col in range(d)):
            raise Reject(f"{w}: Σ μ (a_h - a') is not zero: not a Gordan certificate")
        nvset[tuple(t)] = False
    return nvset


def rule_direct_sum(st: State, step: dict, where: str) -> None:
    """Independent difference spaces: ``V = Π_i V(Newt_x f_i)`` (Lemma 9.5)."""
    fields(step, {"rule", "prime", "factors"}, set(), where)
    P, d = _factor_points(st, where, True)
    p = _prime(step["prime"], where)
    fs = _entry(step["factors"], len(P), f"{where}: factors", f"one entry per bound factor ({len(P)})")
    rows, counts = [], []
    for f_i, (ent, pts) in enumerate(zip(fs, P)):
        w = f"{where}, factor {f_i}"
        fields(ent, {"basis", "relations", "vertices", "non_vertices"}, set(), w)
        n, wp = len(pts), _wmax(pts)
        B = [integer(i, f"{w}: basis", 1) for i in _list(ent["basis"], f"{w}: basis", "point indices")]
        if any(b <= a for a, b in zip(B, B[1:])) or (B and B[-1] >= n):
            raise Reject(f"{w}: basis indices must be strictly increasing in 1..{n - 1}")
        rels = _list(ent["relations"], f"{w}: relations", "[point, δ, [λ...]]")
        others = sorted(set(range(1, n)) - set(B))
        if len(rels) != len(others):
            raise Reject(f"{w}: one relation per non-basis point is required")
        _budget(len(rels) * (len(B) + 1) * d + (0 if len(B) == n - 1 else n * n * d), w, st)
        bvec = [_sub(pts[i], pts[0]) for i in B]
        for r_i, (rel, j) in enumerate(zip(rels, others)):
            ww = f"{w}, relation {r_i}"
            if integer(_entry(rel, 3, ww, "[point, δ, [λ...]]")[0], f"{ww}: point", 0) != j:
                raise Reject(f"{ww}: relations follow the non-basis points in order ({j})")
            delta, lam = integer(rel[1], f"{ww}: δ", 1), _ints(rel[2], len(B), f"{ww}: λ")
            _budget((len(B) + 1) * d * _mul(_wmax([lam, [delta]]), wp), ww, st)
            if any(delta * (pts[j][col] - pts[0][col]) != sum(x * b[col] for x, b in zip(lam, bvec))
                   for col in range(d)):
                raise Reject(f"{ww}: δ (p_j - p_0) differs from Σ λ_i (p_i - p_0)")
        rows.extend(bvec)
        # a simplex: every point is a vertex, and none is listed
        if (simplex := len(B) == n - 1) and (ent["vertices"] != [] or ent["non_vertices"] != []):
            raise Reject(f"{w}: a simplex factor lists no vertices (all points are vertices)")
        vs, prev = set(), -1
        for k, e in enumerate(_list(ent["vertices"], f"{w}: vertices", "[index, functional]")):
            ww = f"{w}, vertex {k}"
            prev = _index(_entry(e, 2, ww, "[index, functional]")[0], n, ww, prev)
            _exposed(e[1], [(pts, {prev})], d, wp, n, 0, ww, st, f"point {prev}")
            vs.add(prev)
        nv = _point_non_vertices(ent["non_vertices"], pts, f"{w}: non_vertices", st)
        if not simplex and (vs & set(nv) or len(vs) + len(nv) != n):
            raise Reject(f"{w}: every point must be listed once, as a vertex or a non-vertex")
        counts.append(n if simplex else len(vs))
    if not _independent(rows, d, p, _wmax(rows), where, st):
        raise Reject(f"{where}: the factors' basis differences are not independent modulo {p}: the sum is not direct")
    st.lower, st.complete = product(counts), True


# rule name -> (function, phase); chains before generic_heads (0.5) before the count (1)
RULES = {"indecomposable_chain": (rule_indecomposable_chain, 0), "generic_heads": (rule_generic_heads, 0.5),
         "minkowski_vertices": (rule_minkowski_vertices, 1), "direct_sum": (rule_direct_sum, 1)}
