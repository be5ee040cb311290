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
from typing import Any, Callable, Optional

import flint

from .algebra.expfrac import ExpFraction, head_fraction, poly_context
from .algebra.lattice import Lattice
from .errors import AlgebraError, LimitError
from .io import PROBLEM_FORMAT, PROBLEM_VERSION, SPARSE_KEY_DIM, format_number, key_to_json
from .model import Atom, Head, MultiHead

__all__ = ["DEFAULT_MAX_ATOMS", "ReducedForm", "Fusion", "reduced_form", "product_fusion",
           "lcm_fusion", "fuse", "product_size_bound", "check_size", "verify_head"]

DEFAULT_MAX_ATOMS = 1 << 20

Progress = Optional[Callable[[int, int], None]]


def product_size_bound(M: MultiHead) -> int:
    """``Π_h |H_h|`` over distinct (key, bias) pairs: an upper bound on every
    polynomial the fusion code builds (product, lcm and reduced form).

    >>> from attnproof.families import sigmoid_sum
    >>> product_size_bound(sigmoid_sum(30))
    1073741824
    """
    n = 1
    for h in M.heads:
        n *= len({(a.key, a.bias) for a in h.atoms})
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
    from .algebra.sizes import fusion_size_bound

    bound = fusion_size_bound(M)
    if bound > max_atoms:
        raise LimitError(
            f"a fusion of {'this head' if len(M) == 1 else f'these {len(M)} heads'} may have up to "
            f"{bound} atoms (estimated from the "
            f"head supports before building it), over --max-atoms {max_atoms}; raise --max-atoms, "
            f"or use 'attnproof prove', whose structural certificates need no fusion")


def _gcd_all(polys) -> "flint.fmpz_mpoly":
    g = None
    for p in polys:
        if p.is_zero():
            continue
        g = p if g is None else g.gcd(p)
        if g.is_one():
            break
    return g


def _normalize_sign(num: list, den) -> tuple[list, Any]:
    if den.leading_coefficient() < 0:
        return [-p for p in num], -den
    return num, den


@dataclass(frozen=True, eq=False)
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

    >>> from attnproof.model import Atom, Head, MultiHead
    >>> s = Head((Atom((1,), (1,)), Atom((0,), (0,))))       # σ(q)
    >>> t = Head((Atom((1,), (0,)), Atom((0,), (1,))))       # 1 - σ(q)
    >>> r = reduced_form(MultiHead((s, t)))
    >>> [str(p) for p in r.P], str(r.Q), r.is_constant()
    (['1'], '1', True)
    """
    check_size(M, max_atoms)
    lat = Lattice.of(M)
    ctx = poly_context(lat)
    zero_shift = (0,) * lat.nvars
    P: list = []
    Q = None
    L = None
    total_shift = list(zero_shift)
    for i, h in enumerate(M.heads):
        f = head_fraction(h, lat, ctx)
        total_shift = [a + b for a, b in zip(total_shift, f.shift)]
        L = f.den if L is None else L * f.den / L.gcd(f.den)
        g = _gcd_all([f.den, *f.num])
        N = [p / g for p in f.num]
        D = f.den / g
        if Q is None:
            P, Q = N, D
        else:
            g = Q.gcd(D)
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
    P, Q = _normalize_sign(P, Q)
    frac = ExpFraction(lat, tuple(P), Q, tuple(total_shift))
    return ReducedForm(M, frac, L)


@dataclass(frozen=True, eq=False)
class Fusion:
    """An exact single-head fusion ``N/D`` of a multi-head.

    ``atoms`` counts distinct keys; ``entries`` counts (key, bias) pairs, which
    differ only when biases make two entries share a key.

    >>> from attnproof.families import sigmoid_sum
    >>> f = fuse(sigmoid_sum(2))
    >>> f.atoms, f.entries, f.method
    (4, 4, 'reduced')
    >>> [(a.key, a.value) for a in f.to_head().atoms][-1]
    ((Fraction(1, 1), Fraction(1, 1)), (Fraction(2, 1),))
    """

    multihead: MultiHead
    frac: ExpFraction
    method: str

    @property
    def lattice(self) -> Lattice:
        """The exponent lattice of the problem."""
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
            from .algebra.display import fraction_text

            text += r"\quad " + fraction_text(self.frac.num[0], self.frac.den, self.lattice, "latex")
        return f"${text}$"

    def _atom_rows(self):
        lat = self.lattice
        d = lat.dim
        scales = lat.scales
        unit = all(s == 1 for s in scales)
        # ascending graded reverse-lexicographic order (FLINT's order, reversed): deterministic
        for e, c, ns in reversed(list(self.frac.terms())):
            if unit:
                key = list(e[:d])
            else:
                key = [e[j] if scales[j] == 1 else Fraction(e[j], scales[j]) for j in range(d)]
            bias = Fraction(e[d], lat.bias_scale) if lat.has_z else 0
            yield key, bias, c, ns

    def verify(self, points: int = 2, seed: int = 0) -> None:
        """Compare ``N/D`` with the multi-head exactly at random positive integer points.

        Integer points keep the evaluation inside FLINT, so this stays cheap for
        large fusions; :func:`verify_head` checks a :class:`Head` at rational points.

        >>> from attnproof.families import sigmoid_sum
        >>> fuse(sigmoid_sum(3)).verify(points=3)
        """
        from .algebra.evaluate import evaluate_multihead

        rng = random.Random(seed)
        for _ in range(points):
            pt = tuple(Fraction(rng.randint(1, 1 << 20)) for _ in range(self.lattice.nvars))
            if self.frac.evaluate(pt) != evaluate_multihead(self.multihead, self.lattice, pt):
                raise AlgebraError(f"fusion differs from the multi-head at {pt} (internal error)")

    def to_head(self, name: str | None = "fused") -> Head:
        """The fused head as an exact :class:`Head`."""
        atoms = [Atom(key=tuple(key), value=tuple(Fraction(n, c) for n in ns), bias=Fraction(bias),
                      weight=Fraction(c)) for key, bias, c, ns in self._atom_rows()]
        return Head(tuple(atoms), name=name)

    def to_multihead(self, name: str | None = "fused") -> MultiHead:
        """The fused head as a one-head :class:`MultiHead`."""
        return MultiHead((self.to_head(name),), dim=self.multihead.dim)

    def to_problem_dict(self, name: str | None = "fused") -> dict:
        """The one-head problem document (same as ``problem_to_dict(self.to_multihead())``).

        >>> from attnproof.families import sigmoid_sum
        >>> from attnproof.io import problem_to_dict
        >>> f = fuse(sigmoid_sum(2))
        >>> f.to_problem_dict() == problem_to_dict(f.to_multihead())
        True
        """
        scalar = self.multihead.value_dim == 1
        d = self.multihead.dim
        dense_int = all(s == 1 for s in self.lattice.scales) and d <= SPARSE_KEY_DIM
        atoms = []
        for key, bias, c, ns in self._atom_rows():
            ad: dict[str, Any] = {"key": key if dense_int else key_to_json(key, d)}
            vals = [n // c if n % c == 0 else format_number(Fraction(n, c)) for n in ns]
            ad["value"] = vals[0] if scalar else vals
            if bias:
                ad["bias"] = format_number(bias)
            if c != 1:
                ad["weight"] = c
            atoms.append(ad)
        head: dict[str, Any] = {"atoms": atoms}
        if name is not None:
            head["name"] = name
        return {"format": PROBLEM_FORMAT, "version": PROBLEM_VERSION, "dim": self.multihead.dim,
                "heads": [head]}


def _as_fusion(M: MultiHead, frac: ExpFraction, method: str) -> Fusion:
    if not frac.is_head():
        raise AlgebraError(f"{method} fusion is not a head (internal error)")
    return Fusion(M, frac, method)


def product_fusion(M: MultiHead, max_atoms: int | None = DEFAULT_MAX_ATOMS,
                   progress: Progress = None) -> Fusion:
    """The product fusion ``D* = Π_h D_h``, ``N* = Σ_h N_h Π_{g≠h} D_g``.

    >>> from attnproof.families import sigmoid_sum
    >>> product_fusion(sigmoid_sum(4)).atoms
    16
    """
    check_size(M, max_atoms)
    lat = Lattice.of(M)
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
    return _as_fusion(M, ExpFraction(lat, tuple(N), D, tuple(shift)), "product")


def lcm_fusion(r: ReducedForm) -> Fusion | None:
    """The fusion with denominator ``lcm(D_h)``, or None when it is not a head.

    >>> from attnproof.model import Atom, Head, MultiHead
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
    return Fusion(r.multihead, frac, "lcm") if frac.is_head() else None


def fuse(M: MultiHead, max_atoms: int | None = DEFAULT_MAX_ATOMS,
         progress: Progress = None) -> Fusion:
    """The first cheap fusion that is a head: reduced ``Q``, then lcm, then product.

    >>> from attnproof.families import graph_sum
    >>> import networkx as nx
    >>> f = fuse(graph_sum(nx.cycle_graph(3)))
    >>> (f.atoms, f.method)
    (7, 'reduced')
    """
    r = reduced_form(M, max_atoms, progress)
    if r.frac.is_head():
        return Fusion(M, r.frac, "reduced")
    f = lcm_fusion(r)
    if f is not None:
        return f
    return product_fusion(M, max_atoms)


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
    from .algebra.evaluate import evaluate_head, evaluate_multihead, random_point

    lat = Lattice.of(MultiHead(tuple(M.heads) + (head,), dim=M.dim))
    rng = random.Random(seed)
    for _ in range(points):
        pt = random_point(lat, rng, max_num=max_num)
        if evaluate_head(head, lat, pt) != evaluate_multihead(M, lat, pt):
            shown = ", ".join(str(v) for v in pt)
            raise AlgebraError(f"the head differs from the multi-head at the point ({shown})")
