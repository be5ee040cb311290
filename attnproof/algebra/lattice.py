"""The exponent lattice of a multi-head (THEORY §2).

Key coordinate ``j`` is scaled by ``s_j`` (the lcm of its denominators) so that
exponents are integers: the variable ``x_j`` stands for ``e^{q_j / s_j}``.
Biases are scaled by their common denominator ``L`` and carried by one extra
variable ``z`` standing for ``e^{1/L}``; it is present only when some bias is
non-zero.

>>> from fractions import Fraction as F
>>> from attnproof.heads import Atom, Head, MultiHead
>>> M = MultiHead((Head((Atom((F(1, 2), 3), (1,), bias=F(1, 3)), Atom((0, 0), (0,)))),))
>>> lat = Lattice.of(M)
>>> lat.scales, lat.bias_scale, lat.nvars
((2, 1), 3, 3)
>>> lat.exponent(M.heads[0].atoms[0])
(1, 3, 1)
>>> lat.key_of((1, 3, 1)), lat.bias_of((1, 3, 1))
((Fraction(1, 2), Fraction(3, 1)), Fraction(1, 3))
>>> lat.sparse_exponent(M.heads[0].atoms[0])
((0, 1), (1, 3), (2, 1))

Only non-zero key coordinates are visited (S1/S2: the lcm of coordinate ``j``
is taken over the keys where it is non-zero; a zero coordinate is on every
lattice), so building the lattice and sparse exponents costs time linear in
the non-zero coordinates of the problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Sequence

from ..display import fields_repr, short
from ..heads import Atom, MultiHead

__all__ = ["Lattice"]

_FROM_SCALES: dict = {}     # the default scale_map, replaced by the map of the dense scales


def _from_scales() -> dict:
    return _FROM_SCALES


@dataclass(frozen=True, repr=False)
class Lattice:
    """Per-coordinate key scales ``s_j`` and the bias scale ``L`` (0: no ``z``).

    ``scale_map`` holds the scales different from 1 (``{j: s_j}``); ``scales``
    is the dense tuple, kept for the API and for small dimensions.
    """

    dim: int
    scales: tuple[int, ...]
    bias_scale: int = 0
    scale_map: dict = field(default_factory=_from_scales, compare=False, repr=False)

    def __repr__(self) -> str:
        """Short: the scales while they are few, those different from 1 otherwise.

        >>> Lattice(2, (1, 3))
        Lattice(dim=2, scales=(1, 3), bias_scale=0)
        """
        scales = self.scales if len(short(self.scales)) <= 48 else None
        other = None if scales is not None else f"<{len(self.scale_map)} scales other than 1>"
        return fields_repr("Lattice", dim=self.dim, scales=scales, scale_map=other,
                           bias_scale=self.bias_scale)

    def __post_init__(self) -> None:
        if self.scale_map is _FROM_SCALES:             # not given: derived from the dense scales
            object.__setattr__(self, "scale_map",
                               {j: s for j, s in enumerate(self.scales) if s != 1})

    @classmethod
    def of(cls, M: MultiHead) -> "Lattice":
        """The coarsest lattice that holds every key and bias of ``M``."""
        smap: dict = {}
        L = 1
        has_bias = False
        for h in M.heads:
            for a in h.atoms:
                for j, c in a.sparse_key:
                    q = c.denominator
                    if q != 1:
                        s = smap.get(j, 1)
                        if s % q:
                            smap[j] = lcm(s, q)
                if a.bias:
                    has_bias = True
                    L = lcm(L, a.bias.denominator)
        return cls.from_scale_map(M.dim, smap, L if has_bias else 0)

    @classmethod
    def from_scale_map(cls, dim: int, scale_map: dict, bias_scale: int = 0) -> "Lattice":
        """A lattice from its scales different from 1 (``{j: s_j}``).

        >>> Lattice.from_scale_map(3, {1: 4}).scales
        (1, 4, 1)
        """
        scales = [1] * dim
        for j, s in scale_map.items():
            scales[j] = s
        smap = {j: s for j, s in sorted(scale_map.items()) if s != 1}
        return cls(dim, tuple(scales), bias_scale, smap)

    def scale(self, j: int) -> int:
        """The scale ``s_j`` of coordinate ``j``."""
        return self.scale_map.get(j, 1)

    def sparse_exponent(self, atom: Atom) -> tuple[tuple[int, int], ...]:
        """Sorted ``(variable, exponent)`` pairs of the non-zero lattice exponents
        of an atom (``z`` is variable ``dim``); linear in the atom's non-zero coordinates."""
        smap = self.scale_map
        if smap:
            out = []
            for j, c in atom.sparse_key:
                s = smap.get(j, 1)
                out.append((j, c.numerator * (s // c.denominator)))
        else:
            out = [(j, c.numerator) for j, c in atom.sparse_key]
        b = atom.bias
        if b:
            if not self.has_z:
                raise ValueError("atom has a bias but the lattice has no z variable")
            out.append((self.dim, b.numerator * (self.bias_scale // b.denominator)))
        return tuple(out)

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
        e = [0] * self.dim
        for j, c in atom.sparse_key:
            e[j] = int(c * self.scale(j))
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
