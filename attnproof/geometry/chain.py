"""Absolute irreducibility of a head denominator from its Newton polytope (THEORY 9.1, 9.2, §5 C1(iii)).

* **Simplex** (Gao): the points are affinely independent (a modular rank
  witness: the differences ``p_i - p_0`` have full rank modulo a prime) and
  the gcd of all coordinates of the differences is 1.
* **Chain** (Lemma 9.1 + Cor 9.2): triangular 2-faces ``{a, b, c}``, each with an
  integer functional whose maximum over the points is attained at exactly
  ``a, b, c`` (non-collinear); the triangles are connected through shared
  edges; every point not on a triangle is a non-vertex (Gordan ``μ``); the gcd
  of the contents ``gcd(b - a)`` over the triangles' edges is 1.

Either proves ``Newt(D_h)`` integrally indecomposable, so ``D_h`` is absolutely
irreducible over ``K = Q(z)`` (biases only change coefficients).

>>> indecomposable_chain([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]).kind
'simplex'
>>> ch = indecomposable_chain([(0, 0, 0), (2, 0, 0), (0, 2, 0), (0, 0, 2), (1, 1, 1), (1, 0, 0)])
>>> ch.kind, [t for t, _ in ch.triangles], ch.non_vertices, ch.content
('chain', [(0, 2, 3), (1, 3, 4), (2, 3, 4)], [(5, {0: 1, 1: 1})], 1)
>>> indecomposable_chain([(0, 0), (2, 0), (0, 2)], box=(1, 1)) is None    # content 2
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import gcd
from typing import Sequence

from .modular import independent_prime
from .separation import Functional, dot, separate
from .vertices import check_distinct, classify_points

__all__ = ["Chain", "indecomposable_chain", "triangle_face", "content", "difference_box",
           "width", "width_functionals"]


@dataclass
class Chain:
    """Certificate that ``conv(points)`` is integrally indecomposable.

    ``kind``: ``"simplex"`` (then ``prime`` witnesses full rank of the
    differences ``p_i - p_0`` modulo ``prime``) or ``"chain"`` (then
    ``triangles``: sorted ``[((a, b, c), functional)]`` with ``a < b < c``
    point indices, and ``non_vertices``: ``[(i, {j: μ_j})]`` for every point on
    no triangle).  ``content``: the gcd of the edge contents; 1 proves absolute
    irreducibility (Cor 9.2), above 1 only indecomposability (Lemma 9.1; enough
    for the vertex count with non-homothety certificates, docs/theory.md 9.3').
    """

    kind: str
    triangles: list = field(default_factory=list)
    non_vertices: list = field(default_factory=list)
    prime: int | None = None
    content: int = 1


def content(vectors, box=None) -> int:
    """gcd of all coordinates of the vectors, coordinate ``j`` divided by ``box[j]``.

    >>> content([(4, 6), (0, 10)]), content([(4, 6), (0, 10)], box=(4, 2))
    (2, 1)
    """
    g = 0
    for v in vectors:
        for j, x in enumerate(v):
            if x:
                g = gcd(g, x // box[j] if box else x)
    return g


def difference_box(point_sets) -> tuple:
    """Per coordinate, the gcd of the differences within each point set (all heads).

    Every head is a monomial times a polynomial on ``Π_j c_j Z``, so contents may
    be measured on that lattice (THEORY S1, S2).  Coordinates that never vary get 1.

    >>> difference_box([[(1, 0), (3, 0)], [(0, 5), (4, 15)]])
    (2, 10)
    """
    d = len(point_sets[0][0])
    box = [0] * d
    for pts in point_sets:
        for p in pts[1:]:
            for j in range(d):
                box[j] = gcd(box[j], p[j] - pts[0][j])
    return tuple(b or 1 for b in box)


def _kernel_basis(u, v):
    """Pivots ``(i, j)``, minor ``m`` and the sparse kernel of ``{u, v}``, or None if parallel."""
    d = len(u)
    best = None
    for i in range(d):
        if not u[i] and not v[i]:
            continue
        for j in range(i + 1, d):
            m = u[i] * v[j] - u[j] * v[i]
            if m and (best is None or abs(m) < abs(best[2])):
                best = (i, j, m)
        if best is not None and abs(best[2]) == 1:
            break
    return best


def triangle_face(points: Sequence[tuple], tri: tuple[int, int, int]) -> tuple | None:
    """An integer functional whose maximum over ``points`` is attained exactly at
    the three (non-collinear) points ``tri``, or None.

    >>> triangle_face([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)], (1, 2, 3))
    (1, 1, 1)
    """
    a, b, c = (points[t] for t in tri)
    u = tuple(x - y for x, y in zip(b, a))
    v = tuple(x - y for x, y in zip(c, a))
    piv = _kernel_basis(u, v)
    if piv is None:
        return None
    i, j, m = piv
    d = len(a)
    ks = [k for k in range(d) if k != i and k != j]

    def proj(p):
        # W^T p with kernel vectors w_k: w_k[k] = m, w_k[i] = u_j v_k - u_k v_j, w_k[j] = v_i u_k - u_i v_k
        return tuple(m * p[k] + (u[j] * v[k] - u[k] * v[j]) * p[i] + (v[i] * u[k] - u[i] * v[k]) * p[j]
                     for k in ks)

    s = proj(a)
    others = [q for t, q in enumerate(points) if t not in tri]
    rows = [tuple(x - y for x, y in zip(s, proj(q))) for q in others]
    if not ks:
        return (0,) * d if not rows else None
    r = separate(rows, dim=len(ks))
    if not isinstance(r, Functional):
        return None
    y = r.c
    cvec = [0] * d
    for k, yk in zip(ks, y):
        cvec[k] += m * yk
        cvec[i] += (u[j] * v[k] - u[k] * v[j]) * yk
        cvec[j] += (v[i] * u[k] - u[i] * v[k]) * yk
    g = content([cvec])
    f = tuple(x // g for x in cvec) if g > 1 else tuple(cvec)
    top = dot(f, a)
    if dot(f, b) != top or dot(f, c) != top:
        raise ArithmeticError("triangle functional is not constant on the triangle (internal error)")
    if any(dot(f, q) >= top for q in others):
        return None
    return f


def _det3(u, v, w) -> int:
    return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
            + u[2] * (v[0] * w[1] - v[1] * w[0]))


def _wrap(pts, a, b, c):
    """Gift wrapping in R^3: the point ``x`` whose plane through edge ``ab`` has every
    point on ``c``'s side (the facet across ``ab`` from the facet ``abc``), or None."""
    pa = pts[a]
    e = tuple(q - r for q, r in zip(pts[b], pa))
    rel = [tuple(q - r for q, r in zip(p, pa)) for p in pts]
    x = next((i for i in range(len(pts)) if i not in (a, b, c)), None)
    if x is None:
        return None
    for _ in range(2):
        for i in range(len(pts)):
            if i in (a, b, x):
                continue
            sc = _det3(e, rel[x], rel[c])
            if sc == 0:
                x = i
                continue
            si = _det3(e, rel[x], rel[i])
            if si and (si > 0) != (sc > 0):
                x = i
    return x


def _simplex(pts, box) -> Chain | None:
    diffs = [tuple(x - y for x, y in zip(p, pts[0])) for p in pts[1:]]
    if len(diffs) > len(pts[0]):
        return None
    p = independent_prime(diffs)
    if p is None:
        return None
    g = content(diffs, box)
    if g != 1:
        return Chain("simplex", prime=p, content=g)
    return Chain("simplex", prime=p)


def indecomposable_chain(points: Sequence[Sequence[int]], *, max_lp: int = 20000,
                         box: Sequence[int] | None = None,
                         require_content: bool = True) -> Chain | None:
    """A :class:`Chain` certificate for ``conv(points)``, or None when none is found.

    ``points``: distinct integer points (the x-exponents of one head), at least 2.
    None means "not certified" (e.g. a polygon with four vertices, a content
    above 1, or no triangular faces found within ``max_lp`` linear programs),
    never "reducible".  ``box``: per-coordinate divisors of the contents
    (:func:`difference_box` of all heads); default: this head's own.
    ``require_content=False``: a chain whose content stays above 1 is returned
    too (``Chain.content > 1``: indecomposable, not proven absolutely irreducible).

    >>> indecomposable_chain([(0, 0), (2, 0), (0, 2)], box=(1, 1), require_content=False).content
    2
    """
    pts = check_distinct(points)
    if len(pts) < 2:
        return None
    if box is None:
        box = difference_box([pts])
    s = _simplex(pts, box)
    if s is not None:
        return s if s.content == 1 or not require_content else None
    hv = classify_points(pts)
    if len(hv.vertex_indices) < 3:
        return None
    return _ChainSearch(pts, box, hv, max_lp).run(require_content)


class _ChainSearch:
    """The search of :func:`indecomposable_chain` for triangular faces on the vertices.

    ``tris``: the triangles found (index triple -> functional); ``edges``: their edges
    in order of discovery, ``g`` the gcd of the edges' contents; ``covered``: the
    vertices on some triangle; ``lps``: the linear programs spent (at most ``max_lp``).
    """

    def __init__(self, pts: list, box: Sequence[int], hv, max_lp: int) -> None:
        self.pts, self.box, self.hv, self.max_lp = pts, box, hv, max_lp
        self.V = hv.vertex_indices
        self.Vset = set(self.V)
        self.tested: set = set()
        self.tris: dict = {}
        self.edges: list = []
        self.covered: set = set()
        self.g = 0
        self.lps = 0

    def add(self, tri: tuple, c) -> None:
        self.tris[tri] = c
        for e in ((tri[0], tri[1]), (tri[0], tri[2]), (tri[1], tri[2])):
            if e not in self.edges:
                self.edges.append(e)
                diff = tuple(x - y for x, y in zip(self.pts[e[1]], self.pts[e[0]]))
                self.g = gcd(self.g, content([diff], self.box))
        self.covered.update(tri)

    def test(self, tri) -> bool:
        """Decide one untested triangle (one LP): True when it is a face."""
        tri = tuple(sorted(tri))
        if tri in self.tested:
            return False
        self.tested.add(tri)
        self.lps += 1
        c = triangle_face(self.pts, tri)
        if c is None:
            return False
        self.add(tri, c)
        return True

    def first_triangle(self) -> bool:
        """A first triangular face through the first vertex (False: none within the budget)."""
        V = self.V
        a = V[0]
        for bi in range(1, len(V)):
            for ci in range(bi + 1, len(V)):
                if self.lps >= self.max_lp:
                    return False
                if self.test((a, V[bi], V[ci])):
                    return True
        return False

    def finished(self) -> bool:
        return self.covered >= self.Vset and self.g == 1

    def wrap(self) -> None:
        """In space, walk across edges by gift wrapping: one exact proposal per edge."""
        queue = [(t, e) for t in list(self.tris) for e in ((t[0], t[1]), (t[0], t[2]), (t[1], t[2]))]
        while queue and not self.finished():
            t, (a, b) = queue.pop()
            c = next(x for x in t if x not in (a, b))
            x = _wrap(self.pts, a, b, c)
            if x is None:
                continue
            new = tuple(sorted((a, b, x)))
            if new in self.tris or self.lps >= self.max_lp:
                continue
            if self.test(new):
                queue.extend((new, e) for e in ((new[0], new[1]), (new[0], new[2]), (new[1], new[2])))

    def extend(self, skip_covered: bool) -> bool | None:
        """One new triangle on a known edge: True, False when there is none, None when
        the LP budget is spent."""
        for e in list(self.edges):
            for w in self.V:
                if w in e or (skip_covered and w in self.covered):
                    continue
                if self.lps >= self.max_lp:
                    return None
                if self.test((e[0], e[1], w)):
                    return True
        return False

    def chain(self, content: int) -> Chain:
        return Chain("chain", sorted(self.tris.items()), list(self.hv.non_vertices), content=content)

    def run(self, require_content: bool) -> Chain | None:
        # no chain has a content below that of all the vertices' differences: once the
        # vertices are covered at that content, more triangles cannot lower it (in 16-D
        # a head of 20 keys has about a thousand triangular faces, one LP each)
        v0 = self.pts[self.V[0]]
        floor = content([tuple(x - y for x, y in zip(self.pts[v], v0)) for v in self.V[1:]],
                        self.box)
        if require_content and floor != 1:
            return None
        if not self.first_triangle():
            return None
        if len(self.pts[0]) == 3:
            self.wrap()
        while not self.finished():
            if self.g == floor and self.covered >= self.Vset:
                return self.chain(self.g)
            # prefer a triangle that reaches an uncovered vertex, then any new triangle
            found = self.extend(True)
            if found is False:
                found = self.extend(False)
            if not found:
                if require_content or not self.covered >= self.Vset:
                    return None
                return self.chain(self.g)
        return self.chain(1)


def width(c: Sequence[int], points) -> int:
    """``max <c, p> - min <c, p>`` over the points.

    >>> width((1, 1), [(0, 0), (2, 0), (0, 3)])
    3
    """
    vals = [dot(c, p) for p in points]
    return max(vals) - min(vals)


def _primitive(ws) -> tuple:
    """``ws`` divided by the gcd of its entries (all zero stays all zero).

    >>> _primitive([4, 6, 0]), _primitive([0, 0])
    ((2, 3, 0), (0, 0))
    """
    g = 0
    for w in ws:
        g = gcd(g, w)
    return tuple(w // g for w in ws) if g else tuple(ws)


def _candidates(d: int, tries: int, seed: int):
    """Functionals to try: the first axes, ``e_i ± e_j`` among the first coordinates,
    then ``tries`` small random ones (a bounded number whatever ``d``)."""
    import random

    for i in range(min(d, 8)):
        yield tuple(int(k == i) for k in range(d))
    for i in range(min(d, 4)):
        for j in range(i + 1, min(d, 4)):
            for s in (1, -1):
                yield tuple(1 if k == i else s if k == j else 0 for k in range(d))
    rng = random.Random(seed)
    for _ in range(tries):
        yield tuple(rng.randint(-3, 3) for _ in range(d))


def width_functionals(point_sets: Sequence[Sequence[tuple]], needs, *, tries: int = 64,
                      seed: int = 0) -> tuple[list, tuple | None]:
    """Integer functionals ``C_1..C_m`` such that every set whose index is in ``needs``
    has a width vector ``(w_C1, ..., w_Cm)`` (:func:`width`) proportional to no other
    set's: then no two such polytopes are ``λ·P + t`` of each other (``λ > 0``), and the
    checker compares the primitive vectors in one hashed pass (docs/theory.md 9.3').

    Returns ``(functionals, None)``, or ``(functionals so far, (i, j))`` with two sets
    that no functional tried separates (homothetic, or too alike for the tries).
    Partition refinement: a functional is kept when it splits a group of sets with
    equal classes that still holds an index of ``needs``; only those groups are
    measured again, so the work is ``O(Σ n_i·d)`` per kept functional plus the
    groups that remain.

    >>> width_functionals([[(0, 0), (1, 0), (0, 1)], [(0, 0), (2, 0), (0, 1)]], {0})
    ([(1, 0), (0, 1)], None)
    >>> width_functionals([[(0, 0), (1, 0), (0, 1)], [(5, 5), (7, 5), (5, 7)]], {1})[1]
    (0, 1)
    >>> width_functionals([[(0, 0), (1, 1)], [(0, 0), (1, -1)], [(0, 0), (3, 0)]], {0, 1})
    ([(1, 0), (0, 1), (1, 1)], None)
    """
    needs = set(needs)
    n = len(point_sets)
    if n < 2 or not needs:
        return [], None
    d = len(point_sets[0][0])
    raw: list = [[] for _ in range(n)]
    groups = [list(range(n))]
    chosen: list = []
    for c in _candidates(d, tries, seed):
        groups = [g for g in groups if len(g) > 1 and any(i in needs for i in g)]
        if not groups:
            break
        trial = {i: width(c, point_sets[i]) for g in groups for i in g}
        if not any(trial.values()):
            continue
        split: list = []
        for g in groups:
            buckets: dict = {}
            for i in g:
                buckets.setdefault(_primitive(raw[i] + [trial[i]]), []).append(i)
            split.extend(buckets.values())
        if chosen and len(split) == len(groups):
            continue                    # c separates nothing that is still together
        chosen.append(c)
        for i, w in trial.items():
            raw[i].append(w)
        groups = split
    for g in groups:
        if len(g) > 1 and any(i in needs for i in g):
            i = next(i for i in g if i in needs)
            j = next(j for j in g if j != i)
            return chosen, (min(i, j), max(i, j))
    return chosen, None
