"""Edges whose polynomial has negative roots: the ``edge_roots`` step (docs/theory.md §10).

Theorem 10.1 raises the vertex count ``V(R)`` of the bound factors ``R = Π f_j^{e_j}``
by ``r_e − 1`` on every edge ``e`` of ``Newt_x(R)`` whose edge polynomial has
``r_e ≥ 2`` negative roots.  Such edges come from parallel segments in several
factors (two heads whose keys coincide on two positions: Corollary 10.2) or from a
factor of multiplicity two or more; this module finds them and writes the step the
checker's :mod:`attnproof.checker.rules.edges` verifies.

The factors are the bound factors of the lower bound's steps (the certified
irreducible factors, or the class representatives of the geometry path), their
points dense over the x variables that vary in some factor, as the checker reads
them.  Candidate edges: for each direction shared by segments of two factors (or one
factor of multiplicity at least two), a functional orthogonal to it whose maximizers
on each such factor are its segment, from the separation oracle
(:func:`attnproof.geometry.separation.separate`) on the rows projected along the
direction.  Each candidate's faces are read and their negative roots counted with
FLINT's root isolation (real roots have an exact zero imaginary part), independently
of the checker's Sturm sequences, which re-derive everything.

>>> from attnproof.heads import Atom, Head, MultiHead
>>> h = Head((Atom((0, 0), (1,)), Atom((1, 0), (2,)), Atom((0, 1), (0,))))
>>> g = Head((Atom((0, 0), (0,)), Atom((1, 0), (5,)), Atom((1, 1), (1,))))
>>> from attnproof.bounds import lower_bound
>>> lb = lower_bound(MultiHead((h, g)))
>>> step = edge_roots_step(MultiHead((h, g)), lb)
>>> lb.value, step["lower_bound"], [e["roots"] for e in step["edges"]]
(5, 6, [2])
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from typing import Any, Optional

from ..heads import MultiHead

__all__ = ["edge_roots_step", "MAX_EDGE_DEGREE", "MAX_EDGE_CANDIDATES", "MAX_FACTOR_POINTS", "MAX_SEARCH_ATOMS"]

MAX_EDGE_CANDIDATES = 2000     # separation problems one search solves
MAX_FACTOR_POINTS = 512        # points of one factor the pair search reads (n² pairs)
MAX_SEARCH_ATOMS = 4096        # head atoms of a problem whose edges are searched
MAX_EDGE_DEGREE = 256          # a face polynomial of higher degree is left out: the checker
                               # expands none above it (its rule's MAX_EDGE_DEGREE), and a
                               # degree of 2^80 would be a list of 2^80 coefficients


def _primitive(v: tuple) -> tuple:
    g = 0
    for x in v:
        g = gcd(g, x)
    v = tuple(x // g for x in v)
    return v if next(x for x in v if x) > 0 else tuple(-x for x in v)


def _dot(a, b) -> int:
    return sum(x * y for x, y in zip(a, b))


def _project(x: tuple, g: tuple, gg: int) -> tuple:
    """``(g·g)·x − (x·g)·g``: ``x`` projected on ``g^⊥`` (scaled to stay integer)."""
    xg = _dot(x, g)
    return tuple(gg * a - xg * b for a, b in zip(x, g))


def _candidates(pts: list, mult: list):
    """Sets of segments ``[(factor, a, b)]`` sharing one direction: every pair from two
    factors, and every segment alone of a factor of multiplicity 2 or more.

    Directions are first hashed by their images under three fixed integer functionals
    (parallel segments have parallel images; O(1) per pair however long the keys), and
    only segments whose images collide are compared in full."""
    d = len(pts[0][0]) if pts and pts[0] else 0
    R = [[(7 * i + 13 * j * j + 5) % 31 - 15 for j in range(d)] for i in range(3)]
    by_image: dict = {}
    for j, fp in enumerate(pts):
        if len(fp) > MAX_FACTOR_POINTS:
            continue
        img = [tuple(_dot(r, p) for r in R) for p in fp]
        for a in range(len(fp)):
            for b in range(a + 1, len(fp)):
                u = tuple(x - y for x, y in zip(img[b], img[a]))
                key = _primitive(u) if any(u) else None
                by_image.setdefault(key, []).append((j, a, b))
    for segs in by_image.values():
        if len(segs) < 2 and not any(mult[s[0]] > 1 for s in segs):
            continue
        by_dir: dict = {}
        for j, a, b in segs:
            g = _primitive(tuple(x - y for x, y in zip(pts[j][b], pts[j][a])))
            by_dir.setdefault(g, []).append((j, a, b))
        for g, group in by_dir.items():
            for i, s in enumerate(group):
                if mult[s[0]] > 1:
                    yield g, [s]
                for t in group[i + 1:]:
                    if t[0] != s[0]:
                        yield g, [s, t]


def _functional(pts: list, g: tuple, segs: list) -> Optional[tuple]:
    """An integer ``c ⊥ g`` maximized on each listed factor exactly on its segment's line,
    and on every other factor on one point or a segment parallel to ``g`` (a vertex of
    its face is pinned when the first guess ties on a wider face), or None."""
    from ..geometry.separation import Functional, separate

    gg = _dot(g, g)
    pinned = {j: pts[j][a] for j, a, _ in segs}
    for _ in range(len(pts)):
        rows = []
        for j, pa in pinned.items():
            for p in pts[j]:
                r = _project(tuple(x - y for x, y in zip(pa, p)), g, gg)
                if any(r):
                    rows.append(r)
        if rows:
            res = separate(rows)
            if not isinstance(res, Functional):
                return None
            c = _project(tuple(res.c), g, gg)
            k = 0
            for x in c:
                k = gcd(k, x)
            if not k:
                return None
            c = tuple(x // k for x in c)
        else:                     # the pinned factors lie on one line: 0 selects all of them
            c = (0,) * len(g)
        wide = None
        for j, fp in enumerate(pts):
            if j in pinned:
                continue
            vals = [_dot(c, p) for p in fp]
            face = [p for p, v in zip(fp, vals) if v == max(vals)]
            if any(_project(tuple(x - y for x, y in zip(p, face[0])), g, gg) != (0,) * len(g)
                   for p in face[1:]):
                wide = j, max(face)          # the lexicographic maximum: a vertex of the face
                break
        if wide is None:
            return c
        pinned[wide[0]] = wide[1]
    return None


def negative_roots(q: list) -> int:
    """Roots of ``q`` (rational coefficients, constant term first) in ``(−∞, 0)`` with
    multiplicity, by FLINT's complex root isolation.

    >>> negative_roots([2, 3, 1]), negative_roots([1, 2, 1]), negative_roots([1, 0, 1])
    (2, 2, 0)
    """
    import flint

    den = 1
    for c in q:
        den = den * Fraction(c).denominator // gcd(den, Fraction(c).denominator)
    p = flint.fmpz_poly([int(Fraction(c) * den) for c in q])
    roots: Any = p.complex_roots()        # [(acb ball, multiplicity)]
    return sum(m for r, m in roots if r.imag.is_zero() and r.real < 0)


class _Factors:
    """The bound factors: dense points, multiplicities, per point ``(rational, z-exponent)``
    (None where the coefficient has several z-terms), and the difference lattice."""

    def __init__(self, polys: list, dim: int):
        vs = sorted({v for f, _ in polys for v in _varying(f, dim)})
        self.d = len(vs)
        self.mult = [e for _, e in polys]
        self.pts, self.coef = [], []
        for f, _ in polys:
            zc: dict = {}
            for m, c in f.items():
                x = dict((v, e) for v, e in m if v < dim)
                ze = sum(e for v, e in m if v >= dim)
                p = tuple(x.get(v, 0) for v in vs)
                zc.setdefault(p, {})
                zc[p][ze] = zc[p].get(ze, 0) + c
            self.pts.append(sorted(zc))
            self.coef.append({p: (next(iter(z.items()))[::-1] if len(z) == 1 else None)
                              for p, z in zc.items()})
        self.box = [0] * self.d
        for fp in self.pts:
            for p in fp[1:]:
                for i in range(self.d):
                    self.box[i] = gcd(self.box[i], p[i] - fp[0][i])

    def edge(self, c: tuple) -> Optional[tuple]:
        """``(sorted ends, r_e)`` of the edge that ``c`` selects, or None (a vertex, a
        wider face, or a coefficient whose roots are not rational ones)."""
        faces = []
        for fp in self.pts:
            vals = [_dot(c, p) for p in fp]
            top = max(vals)
            faces.append([p for p, v in zip(fp, vals) if v == top])
        ref = next((f for f in faces if len(f) > 1), None)
        if ref is None:
            return None
        w = _primitive(tuple(a - b for a, b in zip(ref[1], ref[0])))
        lo_sum, hi_sum, lows = [0] * self.d, [0] * self.d, []
        for f, e in zip(faces, self.mult):
            for p in f[1:]:
                u = tuple(a - b for a, b in zip(p, f[0]))
                if _primitive(u) not in (w, tuple(-x for x in w)):
                    return None
            lo, hi = min(f, key=lambda p: _dot(w, p)), max(f, key=lambda p: _dot(w, p))
            lows.append(lo)
            for i in range(self.d):
                lo_sum[i] += e * lo[i]
                hi_sum[i] += e * hi[i]
        v = [a - b for a, b in zip(hi_sum, lo_sum)]
        m = 0
        for x, b in zip(v, self.box):
            if x:
                m = gcd(m, x // b)
        g = [x // m for x in v]
        piv = next(i for i, x in enumerate(g) if x)
        r_e = 0
        for j, (f, lo, e) in enumerate(zip(faces, lows, self.mult)):
            if len(f) == 1:
                continue
            terms = {}
            for p in f:
                t = self.coef[j][p]
                if t is None:
                    return None
                terms[(p[piv] - lo[piv]) // g[piv]] = t
            n = max(terms)
            if n > MAX_EDGE_DEGREE:
                return None
            e0, en = terms[0][1], terms[n][1]
            if any((ze - e0) * n != (en - e0) * k for k, (_, ze) in terms.items()):
                return None
            r_e += e * negative_roots([terms[k][0] if k in terms else 0 for k in range(n + 1)])
        return tuple(sorted((tuple(lo_sum), tuple(hi_sum)))), r_e


def _varying(f: dict, dim: int) -> set:
    first = None
    out: set = set()
    for m in f:
        x = dict((v, e) for v, e in m if v < dim)
        if first is None:
            first = x
        out |= {v for v in set(x) | set(first) if x.get(v, 0) != first.get(v, 0)}
    return out


def bound_factors(M: MultiHead, lb: Any) -> Optional[list]:
    """``[(poly, multiplicity)]``: the factors the checker binds for ``lb``'s steps (the
    certified factors, or the geometry path's class representatives), or None where the
    step does not apply (a sub-sum, FLINT's reduced form, heads only indecomposable)."""
    if lb.sub_sum is not None or lb.path == "c3":
        return None
    if lb.path == "geometry":
        gp = lb.geometry
        if gp is None or gp.sub_sum is not None or gp.indecomposable or not gp.factors:
            return None
        from ..algebra.lattice import Lattice
        from ..algebra.sparse import head_polys

        hp = head_polys(M, Lattice.of(M))
        return [(hp[h].den, 1) for h in gp.factors]
    unbound = {j for b in lb.blocks if not b.bind_dropped for j in b.dropped}
    return [(f[0], f[1]) for j, f in enumerate(lb.factors) if j not in unbound] or None


def edge_roots_step(M: MultiHead, lb: Any) -> Optional[dict]:
    """The ``edge_roots`` step that raises ``lb`` (docs/certificates.md §6.16), or None when
    no edge of the bound factors' Newton polytope has two or more negative roots."""
    if sum(len(h.atoms) for h in M.heads) > MAX_SEARCH_ATOMS:
        return None
    polys = bound_factors(M, lb)
    if polys is None:
        return None
    F = _Factors(polys, M.dim)
    if F.d == 0:
        return None
    found: dict = {}
    for tried, (g, segs) in enumerate(_candidates(F.pts, F.mult)):
        if tried >= MAX_EDGE_CANDIDATES:
            break
        c = _functional(F.pts, g, segs)
        if c is None:
            continue
        got = F.edge(c)
        if got is not None and got[1] >= 2 and got[0] not in found:
            found[got[0]] = {"functional": list(c), "roots": got[1]}
    if not found:
        return None
    edges = [found[k] for k in sorted(found)]
    return {"rule": "edge_roots", "edges": edges,
            "lower_bound": lb.value + sum(e["roots"] - 1 for e in edges)}
