"""The reduced form ``M = P/Q`` of a multi-head in lowest terms (THEORY §3), and the
size checks every fusion makes before it allocates.

:func:`reduced_form` takes the gcds by FLINT; :func:`compress` drops the
coordinates no key uses, so that the algebra runs over the rest only.

>>> from attnproof.families import sigmoid_sum
>>> str(reduced_form(sigmoid_sum(2)).Q)
'x1*x2 + x1 + x2 + 1'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import flint

from ..display import fields_repr
from ..heads import Atom, Head, MultiHead
from ..algebra.expfrac import ExpFraction, head_fraction, poly_context
from ..algebra.lattice import Lattice
from ..errors import LimitError
from ..parallel.tasks import Progress
from ..io import as_problem
from ..algebra.identity import checked_gcd
from ..algebra.budget import require_flint
from ..algebra.sizes import fusion_size_bound

__all__ = ["DEFAULT_MAX_ATOMS", "product_size_bound", "check_size", "ReducedForm", "reduced_form", "compress"]


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
