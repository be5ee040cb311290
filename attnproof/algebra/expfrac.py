"""Heads and sums of heads as fractions ``N/D`` of polynomials over exp atoms.

A head ``H`` becomes ``N/D`` with ``D = Σ ω_i x^{k_i}`` and ``N = Σ ω_i v_i x^{k_i}``
(THEORY §2), stored as ``fmpz_mpoly`` (python-flint) over the variables of a
:class:`~attnproof.algebra.lattice.Lattice`.  Laurent exponents are shifted:
the true exponent of a stored monomial ``e`` is ``e + shift``.  A common
monomial of ``N`` and ``D`` cancels in the ratio, so the shift matters only for
the keys of a fused head; rational weights and values are cleared by a common
integer factor of ``N`` and ``D``.

>>> from attnproof.heads import Atom, Head, MultiHead
>>> M = MultiHead((Head((Atom((1,), (1,)), Atom((-1,), (0,)))),))
>>> f = head_fraction(M.heads[0], Lattice.of(M))
>>> str(f.num[0]), str(f.den), f.shift
('x1^2', 'x1^2 + 1', (-1,))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Iterator, Sequence

import flint

from ..display import fields_repr
from ..errors import AlgebraError
from ..heads import Head
from .lattice import Lattice

__all__ = ["ExpFraction", "head_fraction", "poly_context", "poly_to_dict", "poly_from_dict",
           "evaluate_poly", "to_fraction"]

Exponent = tuple[int, ...]


def poly_context(lattice: Lattice) -> "flint.fmpz_mpoly_ctx":
    """The ``fmpz_mpoly`` context of a lattice (variables ``x1..xd`` and ``z``).

    >>> poly_context(Lattice(2, (1, 1), 3)).names()
    ('x1', 'x2', 'z')
    """
    return flint.fmpz_mpoly_ctx.get(lattice.names, "degrevlex")


def poly_to_dict(p: "flint.fmpz_mpoly") -> dict[Exponent, int]:
    """Exponent tuple ↦ Python int coefficient.

    >>> ctx = flint.fmpz_mpoly_ctx.get(("x1",), "degrevlex")
    >>> poly_to_dict(ctx.from_dict({(2,): 3, (0,): -1}))
    {(2,): 3, (0,): -1}
    """
    return dict(zip(map(_int_tuple, p.monoms()), map(int, p.coeffs())))


def poly_from_dict(ctx: "flint.fmpz_mpoly_ctx", d: dict[Exponent, int]) -> "flint.fmpz_mpoly":
    """Inverse of :func:`poly_to_dict`.

    >>> ctx = flint.fmpz_mpoly_ctx.get(("x1",), "degrevlex")
    >>> str(poly_from_dict(ctx, {(2,): 3, (0,): -1, (1,): 0}))
    '3*x1^2 - 1'
    """
    return ctx.from_dict({e: c for e, c in d.items() if c})


def to_fraction(x: "flint.fmpq | flint.fmpz | int") -> Fraction:
    """Convert a FLINT rational or integer to :class:`Fraction`.

    >>> to_fraction(flint.fmpq(-6, 4)), to_fraction(flint.fmpz(3))
    (Fraction(-3, 2), Fraction(3, 1))
    """
    if isinstance(x, flint.fmpq):
        return Fraction(int(x.p), int(x.q))
    return Fraction(int(x))


def evaluate_poly(p: "flint.fmpz_mpoly", point: Sequence[Fraction]) -> Fraction:
    """Exact value of a polynomial at a rational point.

    >>> ctx = flint.fmpz_mpoly_ctx.get(("x1", "x2"), "degrevlex")
    >>> evaluate_poly(ctx.from_dict({(1, 0): 2, (0, 2): 1}), (Fraction(1, 2), Fraction(3)))
    Fraction(10, 1)
    """
    ctx = p.context()
    n = ctx.nvars()
    if len(point) != n:
        raise AlgebraError(f"evaluation point has {len(point)} coordinates, polynomial has {n} variables")
    if n == 0:
        return Fraction(int(p.to_dict().get((), 0)))
    if all(Fraction(v).denominator == 1 for v in point):
        return Fraction(int(p(*[int(v) for v in point])))
    qctx = flint.fmpq_mpoly_ctx.get(ctx.names(), "degrevlex")
    q = qctx.from_dict(p.to_dict())
    return to_fraction(q(*[flint.fmpq(Fraction(v).numerator, Fraction(v).denominator) for v in point]))


@dataclass(frozen=True, eq=False, repr=False)
class ExpFraction:
    """A fraction ``N/D`` over exp atoms; ``N`` has one polynomial per value component.

    >>> from attnproof.heads import Atom, Head, MultiHead
    >>> h = Head((Atom((1,), (1,)), Atom((0,), (0,))))
    >>> f = head_fraction(h, Lattice.of(MultiHead((h,))))
    >>> f.is_head(), f.support_x(), f.evaluate((Fraction(3),))
    (True, {(0,), (1,)}, (Fraction(3, 4),))
    >>> list(f.terms())
    [((1,), 1, (1,)), ((0,), 1, (0,))]
    """

    lattice: Lattice
    num: tuple["flint.fmpz_mpoly", ...]
    den: "flint.fmpz_mpoly"
    shift: Exponent

    @property
    def value_dim(self) -> int:
        """Number of value components."""
        return len(self.num)

    def __repr__(self) -> str:
        """Short: the number of terms of ``N`` and ``D``."""
        return fields_repr("ExpFraction", den_terms=len(self.den),
                           num_terms=tuple(len(p) for p in self.num), dim=self.lattice.dim)

    def den_dict(self) -> dict[Exponent, int]:
        """The denominator as exponent ↦ integer coefficient (shift not applied)."""
        return poly_to_dict(self.den)

    def num_dicts(self) -> list[dict[Exponent, int]]:
        """The numerators, one dict per value component (shift not applied)."""
        return [poly_to_dict(p) for p in self.num]

    def support(self) -> set[Exponent]:
        """Exponents of the denominator, in all variables (``z`` included)."""
        return set(map(_int_tuple, self.den.monoms()))

    def support_x(self) -> set[Exponent]:
        """Exponents of the denominator projected onto the ``x`` coordinates."""
        d = self.lattice.dim
        return {tuple(map(int, e[:d])) for e in self.den.monoms()}

    def has_positive_den(self) -> bool:
        """True when every coefficient of ``D`` is positive."""
        return all(c > 0 for c in self.den.coeffs())

    def num_support_in_den(self) -> bool:
        """True when ``supp(N_c) ⊆ supp(D)`` for every component ``c``."""
        # supp(K·D + N) = supp(D) ∪ supp(N) when K > max|N_e| (D_e are non-zero integers)
        n_d = len(self.den)
        for p in self.num:
            if len(p) == 0:
                continue
            K = max(abs(int(c)) for c in p.coeffs()) + 1
            if len(self.den * K + p) != n_d:
                return False
        return True

    def is_head(self) -> bool:
        """True when ``N/D`` can be written as a head (THEORY §3, Theorem 2)."""
        return self.has_positive_den() and self.num_support_in_den()

    def evaluate(self, point: Sequence[Fraction]) -> tuple[Fraction, ...]:
        """Exact value of ``N/D`` at a point (one positive rational per variable)."""
        den = evaluate_poly(self.den, point)
        if den == 0:
            raise AlgebraError("denominator vanishes at the evaluation point")
        return tuple(evaluate_poly(p, point) / den for p in self.num)

    def terms(self) -> Iterator[tuple[Exponent, int, tuple[int, ...]]]:
        """``(true exponent, D coefficient, N coefficients)`` for each monomial of ``D``."""
        dm = self.den.monoms()
        cols = [_aligned_coeffs(dm, p) for p in self.num]
        sh = self.shift
        shifted = any(sh)
        for i, (e, c) in enumerate(zip(dm, self.den.coeffs())):
            ee = tuple(map(int.__add__, map(int, e), sh)) if shifted else tuple(map(int, e))
            yield ee, int(c), tuple(col[i] for col in cols)


def _aligned_coeffs(dm: list, p) -> list[int]:
    """Coefficients of ``p`` at the monomials ``dm`` (FLINT order) of a denominator.

    Both lists are in the same monomial order, so a merge walk suffices when
    ``supp(p) ⊆ dm``; otherwise terms of ``p`` outside ``dm`` are dropped by a
    dictionary look-up (callers check supports first).
    """
    pm, pc = p.monoms(), p.coeffs()
    if len(pm) == len(dm) and pm == dm:
        return [int(c) for c in pc]
    out = [0] * len(dm)
    j = 0
    for i, e in enumerate(dm):
        if j < len(pm) and pm[j] == e:
            out[i] = int(pc[j])
            j += 1
    if j == len(pm):
        return out
    look = dict(zip(pm, pc))
    return [int(look.get(e, 0)) for e in dm]


def _int_tuple(e) -> Exponent:
    return tuple(map(int, e))


def head_fraction(head: Head, lattice: Lattice, ctx=None) -> ExpFraction:
    """``N/D`` of one head, shifted so that ``D`` has no monomial factor.

    >>> from fractions import Fraction as F
    >>> from attnproof.heads import Atom, Head, MultiHead
    >>> h = Head((Atom((1,), (F(1, 2),), weight=F(2, 3)), Atom((0,), (0,))))
    >>> f = head_fraction(h, Lattice.of(MultiHead((h,))))
    >>> str(f.num[0]), str(f.den)
    ('x1', '2*x1 + 3')
    """
    if ctx is None:
        ctx = poly_context(lattice)
    exps = [lattice.exponent(a) for a in head.atoms]
    shift = tuple(min(col) for col in zip(*exps)) if lattice.nvars else ()
    m = head.value_dim
    scale = 1
    for a in head.atoms:
        scale = lcm(scale, a.weight.denominator)
        for v in a.value:
            scale = lcm(scale, (a.weight * v).denominator)
    den: dict[Exponent, int] = {}
    nums: list[dict[Exponent, int]] = [{} for _ in range(m)]
    for a, e in zip(head.atoms, exps):
        ee = tuple(x - s for x, s in zip(e, shift))
        w = a.weight * scale
        den[ee] = den.get(ee, 0) + int(w)
        for c in range(m):
            nv = w * a.value[c]
            nums[c][ee] = nums[c].get(ee, 0) + int(nv)
    return ExpFraction(lattice, tuple(poly_from_dict(ctx, n) for n in nums),
                       poly_from_dict(ctx, den), shift)
