"""The exponent lattice of a multi-head (THEORY §2).

Key coordinate ``j`` is scaled by ``s_j`` (the lcm of its denominators) so that
exponents are integers: the variable ``x_j`` stands for ``e^{q_j / s_j}``.
Biases are scaled by their common denominator ``L`` and carried by one extra
variable ``z`` standing for ``e^{1/L}``; it is present only when some bias is
non-zero.

>>> from fractions import Fraction as F
>>> from attnproof.model import Atom, Head, MultiHead
>>> M = MultiHead((Head((Atom((F(1, 2), 3), (1,), bias=F(1, 3)), Atom((0, 0), (0,)))),))
>>> lat = Lattice.of(M)
>>> lat.scales, lat.bias_scale, lat.nvars
((2, 1), 3, 3)
>>> lat.exponent(M.heads[0].atoms[0])
(1, 3, 1)
>>> lat.key_of((1, 3, 1)), lat.bias_of((1, 3, 1))
((Fraction(1, 2), Fraction(3, 1)), Fraction(1, 3))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Sequence

from ..model import Atom, MultiHead

__all__ = ["Lattice"]


@dataclass(frozen=True)
class Lattice:
    """Per-coordinate key scales ``s_j`` and the bias scale ``L`` (0: no ``z``)."""

    dim: int
    scales: tuple[int, ...]
    bias_scale: int = 0

    @classmethod
    def of(cls, M: MultiHead) -> "Lattice":
        """The coarsest lattice that holds every key and bias of ``M``."""
        scales = [1] * M.dim
        L = 1
        has_bias = False
        for h in M.heads:
            for a in h.atoms:
                for j, c in enumerate(a.key):
                    scales[j] = lcm(scales[j], c.denominator)
                if a.bias != 0:
                    has_bias = True
                    L = lcm(L, a.bias.denominator)
        return cls(M.dim, tuple(scales), L if has_bias else 0)

    @property
    def has_z(self) -> bool:
        """True when biases are present and the extra variable ``z`` is used."""
        return self.bias_scale != 0

    @property
    def nvars(self) -> int:
        """Number of polynomial variables: ``d`` plus one for ``z``."""
        return self.dim + (1 if self.has_z else 0)

    @property
    def names(self) -> tuple[str, ...]:
        """Variable names ``x1..xd`` and ``z``."""
        base = tuple(f"x{j + 1}" for j in range(self.dim))
        return base + (("z",) if self.has_z else ())

    def exponent(self, atom: Atom) -> tuple[int, ...]:
        """Integer exponent vector of an atom: scaled key, then scaled bias."""
        e = [int(c * s) for c, s in zip(atom.key, self.scales)]
        if self.has_z:
            e.append(int(atom.bias * self.bias_scale))
        elif atom.bias != 0:
            raise ValueError("atom has a bias but the lattice has no z variable")
        return tuple(e)

    def key_of(self, e: Sequence[int]) -> tuple[Fraction, ...]:
        """The key (a point of ``Q^d``) of an exponent vector."""
        return tuple(Fraction(int(e[j]), s) for j, s in enumerate(self.scales))

    def bias_of(self, e: Sequence[int]) -> Fraction:
        """The bias of an exponent vector (0 when there is no ``z``)."""
        return Fraction(int(e[self.dim]), self.bias_scale) if self.has_z else Fraction(0)

    def project(self, e: Sequence[int]) -> tuple[int, ...]:
        """Projection onto the ``x`` coordinates (drops ``z``)."""
        return tuple(e[: self.dim])
