"""The class product fusion: the product over classes of associate heads, counted and
written without polynomial algebra (keys too long for it, THEORY §9).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Iterator

from ..errors import AlgebraError, LimitError
from ..heads import Atom, Head, MultiHead
from ..algebra.expfrac import ExpFraction, poly_context, poly_from_dict
from ..algebra.lattice import Lattice
from ..parallel.tasks import Progress
from ..io import as_problem, canonical_json
from ..algebra.identity import fusion_identity
from ..io.problem import decimal_atom_docs, one_head_document
from .reduced import DEFAULT_MAX_ATOMS

__all__ = ["distinct_sums", "ClassProductFusion", "class_product_fusion"]


@dataclass(frozen=True)
class _Factor:
    """One factor ``D_c`` of a class product: a class of associate heads merged into one.

    ``entries``: sorted ``(x-exponent, z-exponent, weight, values)``; ``points``:
    the distinct x-exponents (sorted)."""

    heads: tuple
    entries: tuple
    points: tuple


def _class_factors(M: MultiHead, lat: Lattice) -> list[_Factor]:
    """Heads grouped into classes of associates (THEORY Cor 9.3), each class merged into one head.

    A head ``g`` with ``D_g = q·z^a·x^t·D_r`` (``r`` the class representative)
    contributes ``N_g / (q z^a x^t)`` over ``D_r``; heads with one key and heads
    associate to no other form classes of their own.
    """
    from ..geometry.associates import _translation, _unit, associate_classes, zpoly_heads

    Z = zpoly_heads(M, lat)
    try:
        classes, _ = associate_classes(M, lat)
    except ValueError:                       # associates through a non-monomial unit: keep apart
        classes = [[h] for h, (D, _) in enumerate(Z) if len(D) > 1]
    grouped = {h for cl in classes for h in cl}
    groups = sorted([list(cl) for cl in classes] + [[h] for h in range(len(M.heads)) if h not in grouped])
    m = M.value_dim
    zero = (0,) * M.dim
    out = []
    for cl in groups:
        rep = cl[0]
        D = Z[rep][0]
        N: list[dict] = [dict() for _ in range(m)]
        for h in cl:
            if h == rep:
                q, a, t = Fraction(1), 0, zero
            else:
                t = _translation(Z[h][0], D)
                u = _unit(Z[h][0], D, t) if t is not None else None
                if u is None:
                    raise AlgebraError("associate heads without a monomial unit (internal error)")
                q, a = u
            for c in range(m):
                for s, zp in Z[h][1][c].items():
                    x = tuple(si - ti for si, ti in zip(s, t))
                    for e, val in zp.items():
                        N[c][(x, e - a)] = N[c].get((x, e - a), 0) + Fraction(val) / q
        entries = []
        for x, zp in D.items():
            for e, W in zp.items():
                W = Fraction(W)
                entries.append((x, e, W, tuple(Fraction(N[c].get((x, e), 0)) / W for c in range(m))))
        support = {(y, f) for y, f, _, _ in entries}
        if any(k not in support for c in range(m) for k in N[c]):
            raise AlgebraError("a merged numerator leaves the denominator's support (internal error)")
        out.append(_Factor(tuple(cl), tuple(sorted(entries)), tuple(sorted(D))))
    return out


def _constant_classes_folded(factors: list, dim: int, m: int) -> list:
    """Classes whose merged head is a constant function folded into the others.

    A head (or a class of associate heads, merged) with the same value vector
    ``v`` on every entry computes ``v`` for every query, since its weights sum
    to one: it costs no atom.  Such classes are dropped and ``Σ v`` is added to
    every value of the first remaining class; when every class is constant the
    fusion is the single atom ``(key 0, value Σ v)``.

    >>> z, one = (0,), Fraction(1)
    >>> const = _Factor((0,), (((0,), 0, one, (one,)), ((1,), 0, one, (one,))), ((0,), (1,)))
    >>> live = _Factor((1,), (((0,), 0, one, (Fraction(0),)), ((2,), 0, one, (one,))), ((0,), (2,)))
    >>> [f.heads for f in _constant_classes_folded([const, live], 1, 1)]
    [(1,)]
    >>> _constant_classes_folded([const, live], 1, 1)[0].entries[1][3]
    (Fraction(2, 1),)
    >>> _constant_classes_folded([const], 1, 1)[0].entries
    (((0,), 0, Fraction(1, 1), (Fraction(1, 1),)),)
    """
    shift = [Fraction(0)] * m
    live = []
    for f in factors:
        vals = {e[3] for e in f.entries}
        if len(vals) == 1:
            (v,) = vals
            shift = [s + x for s, x in zip(shift, v)]
        else:
            live.append(f)
    if len(live) == len(factors):
        return factors
    zero = (0,) * dim
    if not live:
        return [_Factor((), ((zero, 0, Fraction(1), tuple(shift)),), (zero,))]
    first = live[0]
    entries = tuple((x, e, w, tuple(v + s for v, s in zip(vals, shift)))
                    for x, e, w, vals in first.entries)
    return [_Factor(first.heads, entries, first.points)] + live[1:]


def distinct_sums(point_sets, limit: int | None = None, direct: bool | None = None) -> int | None:
    """``|{Σ_c p_c : p_c ∈ S_c}|``, exactly: the atoms of a product of heads.

    Injective (``Π |S_c|``) when the difference spaces are independent (THEORY
    Lemma 9.5, a certified rank); otherwise the sums are enumerated, compared
    through a random integer functional and every tie checked exactly.  None when
    that needs more than ``limit`` sums.  ``direct``: the caller already knows
    whether the sets form a direct sum (skips the rank certificate).

    >>> distinct_sums([[(0, 0), (1, 0)], [(0, 0), (0, 1)]])
    4
    >>> distinct_sums([[(0,), (1,)], [(0,), (1,)], [(0,), (1,)]])
    4
    """
    sets = [list(ps) for ps in point_sets if len(ps) > 1]
    total = 1
    for ps in sets:
        total *= len(ps)
    if len(sets) <= 1:
        return total
    if direct is None:
        from ..geometry.direct_sum import direct_sum_certificate
        direct = direct_sum_certificate(sets) is not None
    if direct:
        return total
    if limit is not None and total > limit:
        return None
    rng = random.Random(0)
    d = len(sets[0][0])
    r = [rng.getrandbits(64) | 1 for _ in range(d)]
    vals = [[sum(a * b for a, b in zip(r, p)) for p in ps] for ps in sets]

    def exact(t):
        return tuple(map(sum, zip(*(sets[k][i] for k, i in enumerate(t)))))

    cur: dict = {0: [()]}
    for k in range(len(sets)):
        new: dict = {}
        for v, reps in cur.items():
            for i, w in enumerate(vals[k]):
                for rep in reps:
                    t = rep + (i,)
                    have = new.get(v + w)
                    if have is None:
                        new[v + w] = [t]
                    else:
                        s = exact(t)
                        if all(exact(u) != s for u in have):
                            have.append(t)
        cur = new
    return sum(len(reps) for reps in cur.values())


@dataclass(frozen=True, eq=False, repr=False)
class ClassProductFusion:
    """The product fusion over classes of associate heads, without polynomial algebra.

    ``D* = Π_c D_c`` over the classes (associate heads merged, THEORY Cor 9.3),
    ``N* = Σ_c N_c Π_{c'≠c} D_{c'}``: the entry of a tuple of class entries has
    the sum of the keys and biases, the product of the weights and the sum of
    the values.  ``atoms`` counts distinct key sums exactly
    (:func:`distinct_sums`); the head itself is built only by :meth:`to_head`.

    >>> from attnproof.families import float_multihead
    >>> M = float_multihead(2, 5, 3, seed=1)
    >>> f = class_product_fusion(M)
    >>> f.atoms, f.entries, f.method
    (25, 25, 'product')
    >>> f.verify(points=2)
    >>> len(f.to_head().atoms)
    25
    """

    multihead: MultiHead
    lattice: Lattice
    factors: tuple
    atoms: int
    entries: int
    method: str
    max_atoms: int | None = DEFAULT_MAX_ATOMS

    def _rows(self) -> Iterator[tuple[tuple[int, ...], int, Fraction, tuple[Fraction, ...]]]:
        """Merged entries ``(x, z, weight, values)`` of the product, sorted by exponent."""
        size = 1
        for f in self.factors:
            size *= len(f.entries)
        if self.max_atoms is not None and size > self.max_atoms:
            raise LimitError(f"writing this fusion enumerates {size} entries, over --max-atoms "
                             f"{self.max_atoms}; raise --max-atoms")
        m = self.multihead.value_dim
        d = self.multihead.dim
        acc: dict = {((0,) * d, 0): (Fraction(0), [Fraction(0)] * m)}
        first = True
        for f in self.factors:
            new: dict = {}
            for (x, z), (W, NV) in acc.items():
                for y, e, w, vals in f.entries:
                    key = (tuple(map(int.__add__, x, y)), z + e)
                    if first:
                        ww, nv = w, [w * v for v in vals]
                    else:
                        ww = W * w
                        # N-coefficients: N_acc·w + W·(w·v)  (the value of a sum is the sum of values)
                        nv = [n * w + ww * v for n, v in zip(NV, vals)]
                    old = new.get(key)
                    if old is None:
                        new[key] = (ww, nv)
                    else:
                        new[key] = (old[0] + ww, [a + b for a, b in zip(old[1], nv)])
            acc = new
            first = False
        for (x, z), (W, NV) in sorted(acc.items()):
            yield x, z, W, tuple(n / W for n in NV)

    def __repr__(self) -> str:
        """Short, as :class:`Fusion`'s: ``ClassProductFusion(25 atoms, method='product', heads=2)``."""
        return (f"ClassProductFusion({self.atoms} atoms, method={self.method!r}, "
                f"heads={len(self.multihead)})")

    def order_keys(self) -> list[tuple]:
        """The lattice exponents of the atoms of :meth:`to_head`, in that (ascending) order."""
        z = self.lattice.has_z
        return [x + (e,) if z else x for x, e, _, _ in self._rows()]

    def to_head(self, name: str | None = "fused") -> Head:
        """The fused head as an exact :class:`Head` (enumerates every entry)."""
        lat = self.lattice
        atoms = []
        for x, z, W, vals in self._rows():
            key = tuple(Fraction(xj, s) for xj, s in zip(x, lat.scales))
            bias = Fraction(z, lat.bias_scale) if lat.has_z else Fraction(0)
            atoms.append(Atom(key=key, value=vals, bias=bias, weight=W))
        return Head(tuple(atoms), name=name)

    def to_multihead(self, name: str | None = "fused") -> MultiHead:
        """The fused head as a one-head :class:`MultiHead`."""
        return MultiHead((self.to_head(name),), dim=self.multihead.dim)

    def to_problem_dict(self, name: str | None = "fused") -> dict:
        """A one-head problem document; keys, biases and values as exact decimals where finite."""
        return one_head_document(self.atom_docs(), self.multihead.dim, name)

    def atom_docs(self) -> Iterator[dict]:
        """The atoms of :meth:`to_problem_dict`, one at a time (:func:`attnproof.io.problem.decimal_atom_docs`)."""
        return decimal_atom_docs(self.to_head(), self.multihead.dim, self.multihead.value_dim)

    def atom_json(self) -> Iterator[str]:
        """The canonical JSON text of each of :meth:`atom_docs`."""
        return (canonical_json(a)[:-1] for a in self.atom_docs())

    def verify(self, points: int = 2, seed: int = 0) -> None:
        """The exact polynomial identity ``N/D = Σ_h N_h/D_h`` of the written head, in FLINT
        integer polynomials (:func:`attnproof.algebra.identity.fusion_identity`): the
        entries become ``D`` and ``N`` (coefficients cleared of denominators, exponents
        shifted to be non-negative; FLINT keeps exponents of any length, and the
        identity of a class product needs only products and exact divisions: its
        heads divide ``D``, are constant, or are associates of a folded class).
        ``points = 0`` skips it; otherwise ``points`` and ``seed`` play no part.

        >>> from attnproof.families import float_multihead
        >>> class_product_fusion(float_multihead(2, 3, 2, seed=1)).verify()
        """
        if points <= 0:
            return

        lat = self.lattice
        rows = [(x + ((z,) if lat.has_z else ()), W, vals) for x, z, W, vals in self._rows()]
        low = [min(col) for col in zip(*(e for e, _, _ in rows))]
        scale = 1
        for _, W, vals in rows:
            scale = lcm(scale, W.denominator, *((W * v).denominator for v in vals))
        ctx = poly_context(lat)
        den: dict = {}
        nums: list = [dict() for _ in range(self.multihead.value_dim)]
        for e, W, vals in rows:
            k = tuple(a - b for a, b in zip(e, low))
            den[k] = int(W * scale)
            for n, v in zip(nums, vals):
                if v:
                    n[k] = int(W * v * scale)
        frac = ExpFraction(lat, tuple(poly_from_dict(ctx, n) for n in nums),
                           poly_from_dict(ctx, den), tuple(low))
        fusion_identity(frac, self.multihead, gcd=False)


def class_product_fusion(M: MultiHead, max_atoms: int | None = DEFAULT_MAX_ATOMS,
                         progress: Progress = None) -> ClassProductFusion:
    """The product over classes of associate heads, counted exactly and built lazily.

    Needs no polynomial algebra, so it works for keys of any length (THEORY §9).
    ``LimitError`` when the number of distinct key sums is unknown: no direct
    sum (Lemma 9.5) and more than ``max_atoms`` sums to enumerate.
    """
    M = as_problem(M)
    lat = Lattice.of(M)
    factors = _constant_classes_folded(_class_factors(M, lat), M.dim, M.value_dim)
    if progress is not None:
        progress(1, 2)
    pts = [f.points for f in factors]
    from ..geometry.direct_sum import direct_sum_certificate
    direct = direct_sum_certificate([p for p in pts if len(p) > 1]) is not None \
        if sum(len(p) > 1 for p in pts) > 1 else True
    atoms = distinct_sums(pts, max_atoms, direct)
    ent_sets = [sorted({x + (z,) for x, z, _, _ in f.entries}) for f in factors]
    entries = atoms if direct and all(len(e) == len(p) for e, p in zip(ent_sets, pts)) else \
        distinct_sums(ent_sets, max_atoms, None if lat.has_z else direct)
    if atoms is None or entries is None:
        bound = 1
        for p in pts:
            bound *= len(p)
        raise LimitError(f"the product fusion has at most {bound} atoms; counting the coincident "
                         f"key sums exactly would enumerate more than --max-atoms {max_atoms}; "
                         f"raise --max-atoms")
    if progress is not None:
        progress(2, 2)
    method = "product" if all(len(f.heads) == 1 for f in factors) else "merged-product"
    return ClassProductFusion(M, lat, tuple(factors), atoms, entries, method, max_atoms)
