"""Rigorous ball evaluation of heads and multi-heads (Arb through python-flint).

A head is evaluated at an exact rational query ``q`` in three steps:

1. *Exact logits.*  On the head's exponent lattice (THEORY §2) every logit
   ``<k_i, q> + b_i`` is ``t_i / D`` with integers ``t_i`` (one FLINT integer
   matrix-vector product) and a common denominator ``D``.
2. *Log-sum-exp shift.*  ``t_max = max_i t_i`` is exact, so the shifted
   exponents ``(t_i - t_max)/D <= 0`` give factors ``e^{...} <= 1``: no overflow
   at any magnitude, and the shift cancels exactly in ``N/D``.
3. *Balls.*  ``exp``, the weighted sums (Arb matrix products) and the quotient
   are ball operations; the result is a ball certainly containing ``H(q)``.

>>> from fractions import Fraction as F
>>> from attnproof.heads import Atom, Head
>>> sig = Head((Atom((1,), (1,)), Atom((0,), (0,))))
>>> (v,), = evaluate_balls(sig, [(F(0),)], digits=20)
>>> v.str(20)
'0.50000000000000000000'
>>> low = Head((Atom((1,), (0,)), Atom((0,), (1,))))             # 1 - sigma
>>> (v,), = evaluate_balls(low, [(F(10000),)], digits=20)      # no overflow near 1e4
>>> v.str(5)
'[1.1355e-4343 +/- ...]'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Iterable, Sequence, Union

import flint

from ..algebra.lattice import Lattice
from ..errors import InputError, NumericError
from ..heads import Head, MultiHead
from .precision import GUARD_BITS, MAX_BALL_DIGITS, arb_precision, digits_to_bits

__all__ = ["HeadTable", "MultiHeadTable", "table_of", "evaluate_balls", "arb_of"]

HeadLike = Union[Head, MultiHead]


def arb_of(x: Fraction | int) -> "flint.arb":
    """A ball containing the rational ``x`` at the current Arb precision.

    >>> arb_of(Fraction(1, 4)).is_exact()
    True
    """
    x = Fraction(x)
    if x.denominator == 1:
        return flint.arb(flint.fmpz(x.numerator))
    return flint.arb(flint.fmpq(x.numerator, x.denominator))


@dataclass(frozen=True, eq=False)
class HeadTable:
    """Exact data of one head prepared for repeated ball evaluation."""

    head: Head
    lattice: Lattice
    exponents: "flint.fmpz_mat"
    columns: tuple[int, ...] = ()

    @classmethod
    def of(cls, head: Head) -> "HeadTable":
        """Tabulate a head on its own exponent lattice.

        Only the lattice variables that some atom uses are columns of the exponent
        matrix (``columns``): sparse keys in a large dimension cost their non-zero
        coordinates, not the dimension.

        >>> from attnproof.heads import Atom
        >>> t = HeadTable.of(Head((Atom((Fraction(1, 2),), (1,)), Atom((0,), (0,)))))
        >>> t.lattice.scales, t.exponents.nrows(), t.columns
        ((2,), 2, (0,))
        """
        lat = Lattice.of(MultiHead((head,), dim=head.dim))
        sparse = [lat.sparse_exponent(a) for a in head.atoms]
        columns = tuple(sorted({v for e in sparse for v, _ in e}))
        if not columns:
            return cls(head, lat, flint.fmpz_mat([[0] for _ in head.atoms]), columns)
        pos = {v: i for i, v in enumerate(columns)}
        rows = []
        for e in sparse:
            row = [0] * len(columns)
            for v, x in e:
                row[pos[v]] = x
            rows.append(row)
        return cls(head, lat, flint.fmpz_mat(rows), columns)

    def logits(self, q: Sequence[Fraction]) -> tuple[list[int], int]:
        """Exact logits as ``(t_i, D)`` with ``<k_i,q> + b_i = t_i / D``.

        >>> from attnproof.heads import Atom
        >>> t = HeadTable.of(Head((Atom((Fraction(1, 2),), (1,), bias=1), Atom((0,), (0,)))))
        >>> t.logits((Fraction(1, 3),))
        ([7, 0], 6)
        """
        lat = self.lattice
        if len(q) != lat.dim:
            raise InputError(f"query has {len(q)} coordinates, the head has dimension {lat.dim}")
        if not self.columns:
            return [0] * len(self.head), 1
        ys = [Fraction(q[v]) / lat.scale(v) if v < lat.dim else Fraction(1, lat.bias_scale)
              for v in self.columns]
        den = 1
        for y in ys:
            den = lcm(den, y.denominator)
        col = flint.fmpz_mat([[int(y * den)] for y in ys])
        prod = self.exponents * col
        return [int(prod[i, 0]) for i in range(prod.nrows())], den

    def balls(self, q: Sequence[Fraction]) -> tuple["flint.arb", ...]:
        """Ball enclosure of ``H(q)`` at the current Arb precision (one per value component).

        >>> from attnproof.heads import Atom
        >>> t = HeadTable.of(Head((Atom((1,), (1, 0)), Atom((0,), (0, 1)))))
        >>> with arb_precision(60):
        ...     [b.str(6) for b in t.balls((Fraction(0),))]
        ['0.500000', '0.500000']
        """
        t, den = self.logits(q)
        tmax = max(t)
        dball = flint.arb(flint.fmpz(den))
        e = [[(flint.arb(flint.fmpz(ti - tmax)) / dball).exp()] if ti != tmax else [flint.arb(1)]
             for ti in t]
        col = flint.arb_mat(e)
        atoms = self.head.atoms
        w = [arb_of(a.weight) for a in atoms]
        W = flint.arb_mat([w])
        total = (W * col)[0, 0]
        if not total > 0:
            raise NumericError("ball of the softmax denominator is not positive (precision too low)")
        out = []
        for c in range(self.head.value_dim):
            row = [wi * arb_of(a.value[c]) if a.value[c] else flint.arb(0) for wi, a in zip(w, atoms)]
            out.append((flint.arb_mat([row]) * col)[0, 0] / total)
        return tuple(out)


@dataclass(frozen=True, eq=False)
class MultiHeadTable:
    """Tables of the heads of a multi-head; its value is the sum of the head values."""

    tables: tuple[HeadTable, ...]
    dim: int
    value_dim: int

    def balls(self, q: Sequence[Fraction]) -> tuple["flint.arb", ...]:
        """Ball enclosure of ``Σ_h H_h(q)`` at the current Arb precision.

        >>> from attnproof.families import sigmoid_sum
        >>> with arb_precision(60):
        ...     table_of(sigmoid_sum(3)).balls((Fraction(0),) * 3)[0].str(5)
        '1.5000'
        """
        total = [flint.arb(0)] * self.value_dim
        for t in self.tables:
            total = [a + b for a, b in zip(total, t.balls(q))]
        return tuple(total)


def table_of(obj: HeadLike) -> MultiHeadTable:
    """Tabulate a head or multi-head for ball evaluation.

    >>> from attnproof.families import sigmoid_sum
    >>> len(table_of(sigmoid_sum(3)).tables)
    3
    """
    if isinstance(obj, MultiHeadTable):
        return obj
    if isinstance(obj, Head):
        return MultiHeadTable((HeadTable.of(obj),), obj.dim, obj.value_dim)
    if isinstance(obj, MultiHead):
        return MultiHeadTable(tuple(HeadTable.of(h) for h in obj.heads), obj.dim, obj.value_dim)
    raise InputError(f"expected a Head or MultiHead, got {type(obj).__name__}")


def evaluate_balls(obj: HeadLike, queries: Iterable[Sequence[Fraction]], digits: int = 30,
                   bits: int | None = None) -> list[tuple["flint.arb", ...]]:
    """Ball values of a head or multi-head at exact queries, with about ``digits`` digits.

    The working precision is ``digits`` converted to bits plus 20 guard bits
    (or ``bits`` when given); Arb's global precision is restored afterwards.

    >>> from attnproof.families import sigmoid_sum
    >>> [v[0].str(10) for v in evaluate_balls(sigmoid_sum(2), [(Fraction(0), Fraction(0))], 10)]
    ['1.000000000']
    """
    if bits is None and digits > MAX_BALL_DIGITS:
        raise InputError(f"{digits} digits is over the {MAX_BALL_DIGITS} digits of the largest "
                         "ball precision")
    table = table_of(obj)
    prec = bits if bits is not None else digits_to_bits(digits) + GUARD_BITS
    out = []
    with arb_precision(prec):
        for q in queries:
            q = tuple(Fraction(x) for x in q)
            out.append(table.balls(q))
    return out
