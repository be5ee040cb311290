"""Exact single-head fusions of a multi-head (THEORY §3).

* :func:`reduced_form` computes ``M = P/Q`` in lowest terms (gcds by FLINT).
* :func:`product_fusion` is the always-valid fusion ``D* = Π D_h``.
* :func:`fuse` returns the first of the cheap fusions that is a head: ``Q`` itself
  (``G = 1``) when its coefficients are positive and ``supp P ⊆ supp Q``; the lcm
  of the head denominators when it qualifies; else the product fusion.

Atom counts are numbers of distinct keys (exponents projected on ``x``).

>>> from attnproof.families import sigmoid_sum
>>> f = fuse(sigmoid_sum(3))
>>> (f.atoms, f.method)
(8, 'reduced')
>>> str(reduced_form(sigmoid_sum(2)).Q)
'x1*x2 + x1 + x2 + 1'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterator, Protocol, runtime_checkable

import flint

from ..algebra.budget import flint_obstacle, require_flint
from ..algebra.expfrac import ExpFraction, head_fraction, poly_context, poly_from_dict
from ..algebra.identity import checked_gcd
from ..algebra.lattice import Lattice
from ..errors import AlgebraError, LimitError
from ..io import as_problem
from ..io.problem import decimal_atom_docs, fused_atom_docs, one_head_document
from ..heads import Atom, Head, MultiHead
from ..parallel.tasks import Progress

__all__ = ["DEFAULT_MAX_ATOMS", "ReducedForm", "Fusion", "ExplicitFusion", "ClassProductFusion",
           "SparseFusion", "reduced_form",
           "product_fusion", "class_product_fusion", "lcm_fusion", "fuse", "compress",
           "product_size_bound", "check_size", "verify_head"]

_GEOMETRY_HINT = ("'attnproof bound', 'prove' and 'fuse' handle such keys by exact geometry "
                  "(THEORY §9); see docs/real-keys.md")

DEFAULT_MAX_ATOMS = 1 << 20



def product_size_bound(M: MultiHead) -> int:
    """``Π_h |H_h|`` over distinct (key, bias) pairs: an upper bound on every
    polynomial the fusion code builds (product, lcm and reduced form).

    >>> from attnproof.families import sigmoid_sum
    >>> product_size_bound(sigmoid_sum(30))
    1073741824
    """
    n = 1
    for h in M.heads:
        n *= len({(a.sparse_key, a.bias) for a in h.atoms})
    return n


def check_size(M: MultiHead, max_atoms: int | None) -> None:
    """Refuse, before allocating anything, a fusion larger than ``max_atoms``.

    The size is :func:`attnproof.algebra.sizes.fusion_size_bound`: a bound on
    every polynomial the fusion code builds, estimated from the head supports.

    >>> from attnproof.families import sigmoid_sum
    >>> check_size(sigmoid_sum(30), 1 << 20)
    Traceback (most recent call last):
    ...
    attnproof.errors.LimitError: a fusion of these 30 heads may have up to 1073741824 atoms (estimated from the head supports before building it), over --max-atoms 1048576; raise --max-atoms, or use 'attnproof prove', whose structural certificates need no fusion
    """
    # -- size guard (iface): estimate of what is built, not the product of head sizes --
    if max_atoms is None:
        return
    from ..algebra.sizes import fusion_size_bound

    bound = fusion_size_bound(M)
    if bound > max_atoms:
        raise LimitError(
            f"a fusion of {'this head' if len(M) == 1 else f'these {len(M)} heads'} may have up to "
            f"{bound} atoms (estimated from the "
            f"head supports before building it), over --max-atoms {max_atoms}; raise --max-atoms, "
            f"or use 'attnproof prove', whose structural certificates need no fusion")


def _gcd_all(polys: list) -> "flint.fmpz_mpoly":
    """The gcd of ``polys``, the first of which (a denominator) is not zero."""
    g = polys[0]
    for p in polys[1:]:
        if g.is_one():
            break
        if not p.is_zero():
            g = checked_gcd(g, p)
    return g


def _normalize_sign(num: list, den) -> tuple[list, Any]:
    if den.leading_coefficient() < 0:
        return [-p for p in num], -den
    return num, den


@dataclass(frozen=True, eq=False, repr=False)
class ReducedForm:
    """``M = P/Q`` with ``gcd(P, Q) = 1`` (``P`` one polynomial per value component).

    ``Q`` is normalized to a positive leading coefficient and ``(P, Q)`` to
    content 1; ``P/Q`` is then unique up to a monomial.  ``lcm`` is the lcm of
    the head denominators.

    >>> from attnproof.families import sigmoid_sum
    >>> r = reduced_form(sigmoid_sum(2))
    >>> str(r.P[0]), str(r.Q), sorted(r.support_x()), r.is_constant()
    ('2*x1*x2 + x1 + x2', 'x1*x2 + x1 + x2 + 1', [(0, 0), (0, 1), (1, 0), (1, 1)], False)
    """

    multihead: MultiHead
    frac: ExpFraction
    lcm: "flint.fmpz_mpoly"

    @property
    def lattice(self) -> Lattice:
        """The exponent lattice of the problem."""
        return self.frac.lattice

    @property
    def P(self) -> tuple["flint.fmpz_mpoly", ...]:
        """The reduced numerator(s)."""
        return self.frac.num

    @property
    def Q(self) -> "flint.fmpz_mpoly":
        """The reduced denominator."""
        return self.frac.den

    def support_x(self) -> set[tuple[int, ...]]:
        """``supp_x(Q)``: exponents of ``Q`` projected on the ``x`` coordinates."""
        return self.frac.support_x()

    def __repr__(self) -> str:
        """Short: the sizes of ``P`` and ``Q`` (``str(r.Q)`` prints the polynomial).

        >>> from attnproof.families import sigmoid_sum
        >>> reduced_form(sigmoid_sum(2))
        ReducedForm(Q_terms=4, P_terms=(3,), heads=2, dim=2)
        """
        from ..brief import fields_repr

        return fields_repr("ReducedForm", Q_terms=len(self.Q), P_terms=tuple(len(p) for p in self.P),
                           heads=len(self.multihead), dim=self.multihead.dim)

    def is_constant(self) -> bool:
        """True when the multi-head is a constant function (``Q`` is a unit)."""
        return len(self.support_x()) == 1


def reduced_form(M: MultiHead, max_atoms: int | None = DEFAULT_MAX_ATOMS,
                 progress: Progress = None) -> ReducedForm:
    """``P/Q`` in lowest terms, by adding the heads one at a time.

    Each head is reduced first (``gcd(N_h, D_h)``: a constant head becomes
    ``v/1``).  Adding ``N/D`` to ``P/Q`` with ``gcd(Q, D) = 1`` needs no further
    gcd (a common factor of ``Q·D`` and ``P·D + N·Q`` would divide ``P`` and
    ``Q``, or ``N`` and ``D``); otherwise the sum is reduced by a gcd.

    >>> from attnproof.heads import Atom, Head, MultiHead
    >>> s = Head((Atom((1,), (1,)), Atom((0,), (0,))))       # σ(q)
    >>> t = Head((Atom((1,), (0,)), Atom((0,), (1,))))       # 1 - σ(q)
    >>> r = reduced_form(MultiHead((s, t)))
    >>> [str(p) for p in r.P], str(r.Q), r.is_constant()
    (['1'], '1', True)

    ``M`` may also be a problem file path or a problem document (:func:`attnproof.io.as_problem`).
    """
    M = as_problem(M)
    check_size(M, max_atoms)
    lat = Lattice.of(M)
    require_flint(M, "the reduced form P/Q", _GEOMETRY_HINT, lat)
    ctx = poly_context(lat)
    zero_shift = (0,) * lat.nvars
    P: list = []
    Q = None
    L = None
    total_shift = list(zero_shift)
    for i, h in enumerate(M.heads):
        f = head_fraction(h, lat, ctx)
        total_shift = [a + b for a, b in zip(total_shift, f.shift)]
        L = f.den if L is None else L * f.den / checked_gcd(L, f.den)
        g = _gcd_all([f.den, *f.num])
        N = [p / g for p in f.num]
        D = f.den / g
        if Q is None:
            P, Q = N, D
        else:
            g = checked_gcd(Q, D)
            if g.is_one():
                P = [p * D + n * Q for p, n in zip(P, N)]
                Q = Q * D
            else:
                Dg, Qg = D / g, Q / g
                P = [p * Dg + n * Qg for p, n in zip(P, N)]
                Q = Q * Dg
                g2 = _gcd_all([Q, *P])
                if not g2.is_one():
                    P = [p / g2 for p in P]
                    Q = Q / g2
        if all(p.is_zero() for p in P):
            Q = ctx.from_dict({zero_shift: 1})
        if progress is not None:
            progress(i + 1, len(M.heads))
    assert Q is not None and L is not None, "a multi-head has at least one head"
    P, Q = _normalize_sign(P, Q)
    frac = ExpFraction(lat, tuple(P), Q, tuple(total_shift))
    return ReducedForm(M, frac, L)


@runtime_checkable
class Fusion(Protocol):
    """What every fusion of this module offers: an exact single head equal to the multi-head.

    :class:`ExplicitFusion` (``N/D`` as FLINT polynomials), :class:`ClassProductFusion`
    (the product over classes of associate heads, counted without polynomial algebra)
    and :class:`SparseFusion` (one irreducible head, on sparse polynomials) implement it.
    ``atoms`` counts distinct keys, ``entries`` (key, bias) pairs; :meth:`order_keys`
    gives one key per atom of :meth:`to_head` in the order of their lattice exponents;
    :meth:`to_problem_dict` is the fused head as a problem document
    (:mod:`attnproof.io.problem` writes it).

    >>> from attnproof.families import sigmoid_sum
    >>> isinstance(fuse(sigmoid_sum(2)), Fusion)
    True
    """

    @property
    def multihead(self) -> MultiHead: ...

    @property
    def method(self) -> str: ...

    @property
    def lattice(self) -> Lattice: ...

    @property
    def atoms(self) -> int: ...

    @property
    def entries(self) -> int: ...

    def order_keys(self) -> list[tuple]: ...

    def to_head(self, name: str | None = "fused") -> Head: ...

    def to_multihead(self, name: str | None = "fused") -> MultiHead: ...

    def atom_docs(self) -> Iterator[dict]: ...

    def to_problem_dict(self, name: str | None = "fused") -> dict: ...

    def verify(self, points: int = 2, seed: int = 0) -> None: ...


@dataclass(frozen=True, eq=False)
class ExplicitFusion:
    """An exact single-head fusion ``N/D`` of a multi-head (a :class:`Fusion`).

    ``atoms`` counts distinct keys; ``entries`` counts (key, bias) pairs, which
    differ only when biases make two entries share a key.

    >>> from attnproof.families import sigmoid_sum
    >>> f = fuse(sigmoid_sum(2))
    >>> f.atoms, f.entries, f.method
    (4, 4, 'reduced')
    >>> last = f.to_head().atoms[-1]
    >>> last.key, last.value
    ((Fraction(1, 1), Fraction(1, 1)), (Fraction(2, 1),))
    """

    multihead: MultiHead
    frac: ExpFraction
    method: str
    coords: tuple | None = None          # original coordinate of each variable of ``frac``
    inner: MultiHead | None = None       # the multi-head over those variables (``frac``'s own)

    @property
    def lattice(self) -> Lattice:
        """The exponent lattice of ``frac`` (over the problem's active coordinates
        when :attr:`coords` is set)."""
        return self.frac.lattice

    @property
    def atoms(self) -> int:
        """Number of atoms (distinct keys) of the fused head."""
        if not self.lattice.has_z:
            return len(self.frac.den)
        return len(self.frac.support_x())

    @property
    def entries(self) -> int:
        """Number of (key, bias) entries written to a problem file."""
        return len(self.frac.den)

    def __repr__(self) -> str:
        """Short: ``Fusion(8 atoms, method='reduced', heads=3)``."""
        return f"Fusion({self.atoms} atoms, method={self.method!r}, heads={len(self.multihead)})"

    def _repr_latex_(self) -> str:
        """Notebooks: the fused head ``N/D`` (when small) and its atom count."""
        text = rf"\text{{{self.method} fusion of {len(self.multihead)} heads: {self.atoms} atoms}}"
        if len(self.frac.den) <= 12 and len(self.frac.num) == 1:
            from ..algebra.display import fraction_text

            text += r"\quad " + fraction_text(self.frac.num[0], self.frac.den, self.lattice, "latex")
        return f"${text}$"

    def _atom_rows(self):
        """``(sparse key over the problem's coordinates, bias, weight, numerators, exponent)``."""
        lat = self.lattice
        d = lat.dim
        smap = lat.scale_map
        coords = self.coords
        # ascending graded reverse-lexicographic order (FLINT's order, reversed): deterministic
        for e, c, ns in reversed(list(self.frac.terms())):
            key = []
            for j in range(d):
                x = e[j]
                if x:
                    s = smap.get(j, 1)
                    key.append((coords[j] if coords is not None else j,
                                x if s == 1 else Fraction(x, s)))
            bias = Fraction(e[d], lat.bias_scale) if lat.has_z else 0
            yield key, bias, c, ns, e

    def order_keys(self) -> list[tuple]:
        """One key per atom of :meth:`to_head` (same order) whose order is the order of
        the atoms' lattice exponents over all coordinates (the order a certificate lists them)."""
        return [e for *_, e in self._atom_rows()]

    def verify(self, points: int = 2, seed: int = 0) -> None:
        """Check the exact polynomial identity ``N/D = Σ_h N_h/D_h`` in FLINT integer
        polynomials (:func:`attnproof.algebra.identity.fusion_identity`: ``N = Σ_h (D/D_h)·N_h``
        when every ``D_h`` divides ``D``, else cross-multiplied over the lcm); raise
        :class:`AlgebraError` when it fails.  The producer's guard against a wrong
        polynomial computation (the checker re-verifies every certificate exactly).
        ``points = 0`` skips it; otherwise ``points`` and ``seed`` play no part (no
        sample points), they are kept for the modular check of :class:`ClassProductFusion`.

        >>> from attnproof.families import sigmoid_sum
        >>> fuse(sigmoid_sum(3)).verify(points=3)
        """
        if points <= 0:
            return
        from ..algebra.identity import fusion_identity

        fusion_identity(self.frac, self.inner if self.inner is not None else self.multihead)

    def to_head(self, name: str | None = "fused") -> Head:
        """The fused head as an exact :class:`Head`."""
        d = self.multihead.dim
        atoms = [Atom.sparse(d, key, tuple(Fraction(n, c) for n in ns), bias=Fraction(bias),
                             weight=Fraction(c)) for key, bias, c, ns, _ in self._atom_rows()]
        return Head(tuple(atoms), name=name)

    def to_multihead(self, name: str | None = "fused") -> MultiHead:
        """The fused head as a one-head :class:`MultiHead`."""
        return MultiHead((self.to_head(name),), dim=self.multihead.dim)

    def atom_docs(self) -> Iterator[dict]:
        """The atoms of :meth:`to_problem_dict`, one at a time (:func:`attnproof.io.problem.fused_atom_docs`).

        >>> from attnproof.families import sigmoid_sum
        >>> next(fuse(sigmoid_sum(2)).atom_docs())
        {'key': [0, 0], 'value': 0}
        """
        return fused_atom_docs((row[:4] for row in self._atom_rows()), self.multihead.dim,
                               self.multihead.value_dim)

    def to_problem_dict(self, name: str | None = "fused") -> dict:
        """The one-head problem document (same as ``problem_to_dict(self.to_multihead())``).

        >>> from attnproof.families import sigmoid_sum
        >>> from attnproof.io import problem_to_dict
        >>> f = fuse(sigmoid_sum(2))
        >>> f.to_problem_dict() == problem_to_dict(f.to_multihead())
        True
        """
        return one_head_document(self.atom_docs(), self.multihead.dim, name)


def _as_fusion(M: MultiHead, frac: ExpFraction, method: str) -> ExplicitFusion:
    if not frac.is_head():
        raise AlgebraError(f"{method} fusion is not a head (internal error)")
    return ExplicitFusion(M, frac, method)


def product_fusion(M: MultiHead, max_atoms: int | None = DEFAULT_MAX_ATOMS,
                   progress: Progress = None) -> ExplicitFusion:
    """The product fusion ``D* = Π_h D_h``, ``N* = Σ_h N_h Π_{g≠h} D_g``.

    >>> from attnproof.families import sigmoid_sum
    >>> product_fusion(sigmoid_sum(4)).atoms
    16
    """
    M = as_problem(M)
    check_size(M, max_atoms)
    lat = Lattice.of(M)
    require_flint(M, "the expanded product fusion", "'attnproof fuse' counts and writes it "
                  "without polynomial algebra (class_product_fusion)", lat)
    ctx = poly_context(lat)
    N: list = []
    D = None
    shift = [0] * lat.nvars
    for i, h in enumerate(M.heads):
        f = head_fraction(h, lat, ctx)
        shift = [a + b for a, b in zip(shift, f.shift)]
        if D is None:
            N, D = list(f.num), f.den
        else:
            N = [n * f.den + fn * D for n, fn in zip(N, f.num)]
            D = D * f.den
        if progress is not None:
            progress(i + 1, len(M.heads))
    assert D is not None, "a multi-head has at least one head"
    return _as_fusion(M, ExpFraction(lat, tuple(N), D, tuple(shift)), "product")


def lcm_fusion(r: ReducedForm) -> ExplicitFusion | None:
    """The fusion with denominator ``lcm(D_h)``, or None when it is not a head.

    >>> from attnproof.heads import Atom, Head, MultiHead
    >>> h = Head((Atom((1,), (1,)), Atom((0,), (0,))))
    >>> g = Head((Atom((1,), (3,)), Atom((0,), (1,))))
    >>> lcm_fusion(reduced_form(MultiHead((h, g)))).atoms
    2
    """
    L = r.lcm
    G = L / r.Q
    if G * r.Q != L:
        raise AlgebraError("Q does not divide the lcm of the head denominators (internal error)")
    frac = ExpFraction(r.lattice, tuple(p * G for p in r.P), L, r.frac.shift)
    return ExplicitFusion(r.multihead, frac, "lcm") if frac.is_head() else None


def fuse(M: MultiHead, max_atoms: int | None = DEFAULT_MAX_ATOMS,
         progress: Progress = None) -> Fusion:
    """The first cheap fusion that is a head: reduced ``Q``, then lcm, then product.

    >>> from attnproof.families import graph_sum
    >>> import networkx as nx
    >>> f = fuse(graph_sum(nx.cycle_graph(3)))
    >>> (f.atoms, f.method)
    (7, 'reduced')

    Keys whose lattice exponents are too long for polynomial algebra (binary
    floats, long decimals: :func:`attnproof.algebra.budget.flint_obstacle`) get
    :func:`class_product_fusion`, counted without expansion.  ``M`` may also be a
    problem file path or a problem document (:func:`attnproof.io.as_problem`).
    """
    M = as_problem(M)
    sf = sparse_fusion(M)
    if sf is not None:
        return sf
    if flint_obstacle(M) is not None:
        return class_product_fusion(M, max_atoms, progress)
    comp = compress(M)
    if comp is not None:
        # the polynomial algebra runs over the coordinates some key uses, not all of R^dim;
        # dropping unused coordinates changes neither the sparse nor the FLINT test above
        Mc, coords = comp
        f = _polynomial_fusion(Mc, max_atoms, progress)
        return ExplicitFusion(M, f.frac, f.method, coords, Mc)
    return _polynomial_fusion(M, max_atoms, progress)


def _polynomial_fusion(M: MultiHead, max_atoms: int | None, progress: Progress) -> ExplicitFusion:
    """The reduced ``Q`` when it is a head, then the lcm, then the product (FLINT algebra)."""
    r = reduced_form(M, max_atoms, progress)
    if r.frac.is_head():
        return ExplicitFusion(M, r.frac, "reduced")
    f = lcm_fusion(r)
    if f is not None:
        return f
    return product_fusion(M, max_atoms)


def compress(M: MultiHead) -> tuple[MultiHead, tuple[int, ...]] | None:
    """``M`` over the coordinates that some key uses, and those coordinates; None
    when every coordinate is used.  Linear in the non-zero key coordinates.

    >>> from attnproof.heads import Atom, Head, MultiHead
    >>> M = MultiHead((Head((Atom.sparse(10, {7: 1}, (1,)), Atom.sparse(10, {}, (0,)))),))
    >>> Mc, coords = compress(M)
    >>> Mc.dim, coords, Mc.heads[0].atoms[0].key
    (1, (7,), (Fraction(1, 1),))
    """
    active = sorted({j for h in M.heads for a in h.atoms for j, _ in a.sparse_key})
    if len(active) == M.dim:
        return None
    idx = {j: i for i, j in enumerate(active)}
    n = len(active)
    heads = tuple(Head(tuple(Atom._trusted(n, tuple((idx[j], c) for j, c in a.sparse_key), a.value,
                                           a.bias, a.weight) for a in h.atoms), name=h.name)
                  for h in M.heads)
    return MultiHead(heads, dim=n), tuple(active)


def verify_head(M: MultiHead, head: Head, points: int = 3, seed: int = 0, max_num: int = 7) -> None:
    """Check ``head == M`` exactly at random positive rational points; raise on a mismatch.

    Both sides are evaluated atom by atom with :class:`Fraction` on the common
    lattice of ``M`` and ``head`` (``z`` is a formal variable, THEORY §2).

    >>> from attnproof.families import sigmoid_sum
    >>> verify_head(sigmoid_sum(2), fuse(sigmoid_sum(2)).to_head())
    >>> verify_head(sigmoid_sum(2), sigmoid_sum(2).heads[0])
    Traceback (most recent call last):
    ...
    attnproof.errors.AlgebraError: the head differs from the multi-head at the point (7/4, 7/4)
    """
    from ..algebra.evaluate import evaluate_head, evaluate_multihead, random_point

    lat = Lattice.of(MultiHead(tuple(M.heads) + (head,), dim=M.dim))
    rng = random.Random(seed)
    for _ in range(points):
        pt = random_point(lat, rng, max_num=max_num)
        if evaluate_head(head, lat, pt) != evaluate_multihead(M, lat, pt):
            shown = ", ".join(str(v) for v in pt)
            raise AlgebraError(f"the head differs from the multi-head at the point ({shown})")


# -- the class product fusion: counted and written without polynomial algebra ------------

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
        from math import lcm

        from ..algebra.identity import fusion_identity

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
SPARSE_FUSION_CELLS = 1 << 16    # above (atoms × active coordinates), one-head fusion goes sparse


class SparseFusion:
    """The fusion of a one-head problem whose denominator is irreducible, built on
    the sparse head polynomials: no FLINT, no dense exponent vectors.

    ``D`` irreducible (a C1 witness of THEORY §5) and some ``N_c`` not a multiple of
    ``D`` give ``gcd(N, D) = 1`` up to the integer content, so ``N/D`` (the head with
    equal keys merged) is the reduced form and a head (THEORY §3, ``G = 1``).  The
    implements :class:`Fusion` as :class:`ExplicitFusion` does; :attr:`frac` is built on demand, densely.

    >>> from attnproof.heads import Atom, Head, MultiHead
    >>> M = MultiHead((Head((Atom.sparse(10**5, {7: 1}, (2,)), Atom.sparse(10**5, {9: 1}, (0,)),
    ...                      Atom.sparse(10**5, {7: 1}, (1,)))),))
    >>> f = sparse_fusion(M, cells=0)
    >>> f.atoms, f.method, [(a.sparse_key, a.value, a.weight) for a in f.to_head().atoms]
    (2, 'reduced', [(((9, Fraction(1, 1)),), (Fraction(0, 1),), Fraction(1, 1)), (((7, Fraction(1, 1)),), (Fraction(3, 2),), Fraction(2, 1))])
    >>> f.verify(2)
    """

    def __init__(self, M: MultiHead, rows: list, lattice: Lattice) -> None:
        self.multihead = M
        self.method = "reduced"
        self.lattice = lattice
        self._rows = rows               # (mono, true sparse exponent, weight, numerators)

    def __repr__(self) -> str:
        """Short, as :class:`Fusion`'s."""
        return f"SparseFusion({self.atoms} atoms, method={self.method!r}, heads={len(self.multihead)})"

    @property
    def atoms(self) -> int:
        """Number of atoms (distinct keys) of the fused head."""
        if not self.lattice.has_z:
            return len(self._rows)
        d = self.lattice.dim
        return len({tuple(p for p in e if p[0] < d) for _, e, _, _ in self._rows})

    @property
    def entries(self) -> int:
        """Number of (key, bias) entries written to a problem file."""
        return len(self._rows)

    @property
    def frac(self) -> ExpFraction:
        """``N/D`` as FLINT polynomials over the active coordinates (dense: built on demand)."""
        comp = compress(self.multihead)
        if comp is None:
            return reduced_form(self.multihead, None).frac
        return reduced_form(comp[0], None).frac

    def _atom_rows(self):
        lat = self.lattice
        d = lat.dim
        for mono, e, c, ns in self._rows:
            key = [(j, x if lat.scale(j) == 1 else Fraction(x, lat.scale(j))) for j, x in e if j < d]
            bias = Fraction(e[-1][1], lat.bias_scale) if e and e[-1][0] == d else 0
            yield key, bias, c, ns, _nonneg_lex_key(mono)

    order_keys = ExplicitFusion.order_keys
    to_head = ExplicitFusion.to_head
    to_multihead = ExplicitFusion.to_multihead
    to_problem_dict = ExplicitFusion.to_problem_dict
    atom_docs = ExplicitFusion.atom_docs

    def verify(self, points: int = 2, seed: int = 0) -> None:
        """The exact identity ``N·D_h = N_h·D`` on the sparse head polynomials, in integers:
        ``(N_h, D_h) = g·(N, D)`` for one rational ``g`` on the same support (the fused
        head is the head with equal keys merged and the content divided out).  Linear in
        the non-zeros; ``points = 0`` skips it, ``seed`` plays no part."""
        if points <= 0:
            return
        from ..algebra.sparse import head_polys

        H = head_polys(self.multihead, self.lattice)[0]
        rows = {m: (c, ns) for m, _, c, ns in self._rows}
        m0 = next(iter(rows))
        g = Fraction(H.den.get(m0, 0), rows[m0][0])
        ok = (len(rows) == len(H.den) and g > 0
              and all(len(n) == sum(1 for m in n if m in rows) for n in H.num))
        for m, (c, ns) in rows.items():
            if not ok:
                break
            ok = H.den.get(m) == g * c and all(n.get(m, 0) == g * x for n, x in zip(H.num, ns))
        if not ok:
            raise AlgebraError("sparse fusion differs from the multi-head (internal error)")


def _nonneg_lex_key(mono: tuple) -> tuple:
    """Sort key of a non-negative sparse exponent: tuple order = dense lexicographic order."""
    return tuple((-v, x) for v, x in mono)


def sparse_fusion(M: MultiHead, cells: int = SPARSE_FUSION_CELLS) -> SparseFusion | None:
    """The :class:`SparseFusion` of ``M`` when it applies and the dense route would
    handle more than ``cells`` exponent entries; else None (use :func:`fuse`)."""
    if len(M.heads) != 1:
        return None
    from math import gcd

    from ..algebra.factors import _proportional, irreducibility_witness
    from ..algebra.sparse import _shift, head_polys, normal_form

    h = M.heads[0]
    active = {j for a in h.atoms for j, _ in a.sparse_key}
    if len(h.atoms) * len(active) <= cells:
        return None
    lat = Lattice.of(M)
    H = head_polys(M, lat)[0]
    if len(H.den) < 2 or irreducibility_witness(normal_form(H.den)) is None:
        return None
    if all(_proportional(n, H.den) for n in H.num):
        return None                                   # a constant head: the dense route
    # the shift head_polys removed: the true exponent is mono + shift
    shift = _shift([lat.sparse_exponent(a) for a in h.atoms], len(h.atoms))
    g = 0
    for c in H.den.values():
        g = gcd(g, c)
    for n in H.num:
        for c in n.values():
            g = gcd(g, c)
    rows = []
    for mono, c in H.den.items():
        e = dict(mono)
        for v, s in shift.items():
            e[v] = e.get(v, 0) + s
        true = tuple(sorted((v, x) for v, x in e.items() if x))
        rows.append((mono, true, c // g, tuple(n.get(mono, 0) // g for n in H.num)))
    rows.sort(key=_degrevlex_key)
    return SparseFusion(M, rows, lat)


def _degrevlex_key(row: tuple):
    """Ascending graded reverse-lexicographic order of the stored exponents (the dense
    route's order: FLINT's degrevlex, reversed)."""
    mono = row[0]
    # degrevlex: higher total degree is larger; ties: the smaller exponent in the last
    # differing variable is larger.  As an ascending key: (degree, reversed pairs negated).
    return (sum(x for _, x in mono), _RevKey(mono))


class _RevKey:
    """Tie-break of degrevlex for equal total degree, on sparse non-negative exponents."""

    __slots__ = ("m",)

    def __init__(self, m: tuple) -> None:
        self.m = m

    def __lt__(self, other: "_RevKey") -> bool:
        a, b = dict(self.m), dict(other.m)
        vs = set(a) | set(b)
        for v in sorted(vs, reverse=True):
            x, y = a.get(v, 0), b.get(v, 0)
            if x != y:
                return x > y          # larger exponent in the last variable: smaller in degrevlex
        return False

    def __eq__(self, other) -> bool:
        return isinstance(other, _RevKey) and self.m == other.m
