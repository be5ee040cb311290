"""Exact data model: atoms, heads and multi-heads (THEORY §1).

Everything is immutable and exact: keys, biases, weights and values are
:class:`fractions.Fraction`.  Values are always stored as tuples; a scalar head
has ``value_dim == 1``.

>>> from fractions import Fraction as F
>>> sig = Head((Atom(key=(1,), value=(1,)), Atom(key=(0,), value=(0,))), name="sigma")
>>> sig.evaluate_at_exp((F(3),))          # x = e^q = 3: sigma = 3/(1+3)
(Fraction(3, 4),)
>>> MultiHead((sig, sig)).head_atom_terms
4
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Sequence

from .errors import ValidationError

__all__ = ["Atom", "Head", "MultiHead"]


def _exact(x, what: str) -> Fraction:
    """One exact rational from the number types a Python user has.

    int, :class:`~fractions.Fraction`, NumPy integers (any ``numbers.Rational``) and
    strings such as ``"1/3"`` or ``"0.25"``; floats are refused (they are not exact).

    >>> _exact("1/3", "key"), _exact(Fraction(1, 2), "key")
    (Fraction(1, 3), Fraction(1, 2))
    >>> _exact(0.5, "key")
    Traceback (most recent call last):
    ...
    attnproof.errors.ValidationError: key: expected exact rationals (int, Fraction, "p/q"), got 0.5
    """
    if type(x) is Fraction:             # Fractions are immutable: keep them as they are
        return x
    if type(x) is int:
        return Fraction(x)
    if isinstance(x, bool):
        raise ValidationError(f"{what}: expected exact rationals (int, Fraction, \"p/q\"), got {x!r}")
    if isinstance(x, numbers.Rational):
        return Fraction(int(x.numerator), int(x.denominator))
    if isinstance(x, str) and len(x) <= 4000 and x.strip() and "_" not in x:
        try:
            return Fraction(x.strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise ValidationError(f"{what}: expected exact rationals (int, Fraction, \"p/q\"), got {x!r}")


def _frac_tuple(xs, what: str) -> tuple[Fraction, ...]:
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Iterable):
        xs = (xs,)                      # a scalar value (or key, when d = 1)
    return tuple(_exact(x, what) for x in xs)


@dataclass(frozen=True)
class Atom:
    """One key-value entry ``(k, b, w, v)`` of a head; positive factor ``w·e^b``.

    >>> Atom(key=(1, 0), value=(2,)).bias
    Fraction(0, 1)
    """

    key: tuple[Fraction, ...]
    value: tuple[Fraction, ...]
    bias: Fraction = Fraction(0)
    weight: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", _frac_tuple(self.key, "atom key"))
        object.__setattr__(self, "value", _frac_tuple(self.value, "atom value"))
        for name in ("bias", "weight"):
            object.__setattr__(self, name, _exact(getattr(self, name), f"atom {name}"))
        if self.weight <= 0:
            raise ValidationError(f"atom weight must be positive, got {self.weight}")
        if not self.value:
            raise ValidationError("atom value must have at least one component")


@dataclass(frozen=True)
class Head:
    """A softmax head: ``H(q) = Σ ω_i v_i e^{<k_i,q>} / Σ ω_i e^{<k_i,q>}``.

    >>> Head((Atom(key=(0,), value=(5,)),)).dim
    1
    """

    atoms: tuple[Atom, ...]
    name: str | None = None

    def __post_init__(self) -> None:
        atoms = tuple(self.atoms)
        object.__setattr__(self, "atoms", atoms)
        label = f"head {self.name!r}" if self.name is not None else "head"
        if not atoms:
            raise ValidationError(f"{label}: a head needs at least one atom")
        d, m = len(atoms[0].key), len(atoms[0].value)
        for i, a in enumerate(atoms):
            if not isinstance(a, Atom):
                raise ValidationError(f"{label}, atom {i}: not an Atom")
            if len(a.key) != d:
                raise ValidationError(
                    f"{label}, atom {i}: key has dimension {len(a.key)}, expected {d}")
            if len(a.value) != m:
                raise ValidationError(
                    f"{label}, atom {i}: value has dimension {len(a.value)}, expected {m}")

    def __len__(self) -> int:
        return len(self.atoms)

    @property
    def dim(self) -> int:
        """Dimension ``d`` of the keys (and queries)."""
        return len(self.atoms[0].key)

    @property
    def value_dim(self) -> int:
        """Dimension ``m`` of the values (1 for a scalar head)."""
        return len(self.atoms[0].value)

    @property
    def has_bias(self) -> bool:
        """True when some atom has a non-zero logit bias."""
        return any(a.bias != 0 for a in self.atoms)

    @property
    def distinct_keys(self) -> int:
        """Number of distinct keys: the atom count after merging equal keys.

        >>> Head((Atom((1,), (1,)), Atom((1,), (2,), bias=1))).distinct_keys
        1
        """
        return len({a.key for a in self.atoms})

    def evaluate_at_exp(self, x: Sequence[Fraction], z: Fraction | None = None) -> tuple[Fraction, ...]:
        """Evaluate exactly at ``x_j = e^{q_j}`` (positive rationals).

        Keys must then be integers; a bias ``b`` needs ``z = e`` given as a
        rational stand-in (the identity tests of the toolkit treat ``e`` as a
        formal variable, THEORY §2).  For rational keys use
        :func:`attnproof.algebra.evaluate_head`, which works on the lattice.

        >>> from fractions import Fraction as F
        >>> Head((Atom((2,), (1,)), Atom((0,), (0,)))).evaluate_at_exp((F(1, 2),))
        (Fraction(1, 5),)
        """
        num = [Fraction(0)] * self.value_dim
        den = Fraction(0)
        for a in self.atoms:
            t = a.weight
            for kj, xj in zip(a.key, x):
                if kj.denominator != 1:
                    raise ValidationError("evaluate_at_exp needs integer keys")
                t *= Fraction(xj) ** int(kj)
            if a.bias:
                if z is None or a.bias.denominator != 1:
                    raise ValidationError("evaluate_at_exp: biased atoms need an integer bias and z")
                t *= Fraction(z) ** int(a.bias)
            den += t
            for c in range(self.value_dim):
                num[c] += t * a.value[c]
        return tuple(n / den for n in num)


@dataclass(frozen=True)
class MultiHead:
    """Independently normalized heads whose outputs are added: ``M = Σ_h H_h``.

    >>> h = Head((Atom((1,), (1,)), Atom((0,), (0,))))
    >>> M = MultiHead((h, h, h))
    >>> (M.dim, M.value_dim, len(M), M.head_atom_terms)
    (1, 1, 3, 6)
    """

    heads: tuple[Head, ...]
    dim: int = field(default=-1)

    def __post_init__(self) -> None:
        heads = tuple(self.heads)
        object.__setattr__(self, "heads", heads)
        if not heads:
            raise ValidationError("a multi-head needs at least one head")
        d = heads[0].dim if self.dim == -1 else self.dim
        object.__setattr__(self, "dim", d)
        if d < 0:
            raise ValidationError("dimension must be non-negative")
        m = heads[0].value_dim
        for h_i, h in enumerate(heads):
            if not isinstance(h, Head):
                raise ValidationError(f"head {h_i}: not a Head")
            label = f"head {h_i}" + (f" ({h.name!r})" if h.name is not None else "")
            if h.dim != d:
                raise ValidationError(f"{label}: keys have dimension {h.dim}, the problem has dim {d}")
            if h.value_dim != m:
                raise ValidationError(
                    f"{label}: values have dimension {h.value_dim}, head 0 has {m}")

    def __len__(self) -> int:
        return len(self.heads)

    @property
    def value_dim(self) -> int:
        """Dimension ``m`` of the values."""
        return self.heads[0].value_dim

    @property
    def head_atom_terms(self) -> int:
        """``Σ_h |H_h|``, the number of atom entries over all heads."""
        return sum(len(h) for h in self.heads)

    @property
    def has_bias(self) -> bool:
        """True when some atom of some head has a non-zero bias."""
        return any(h.has_bias for h in self.heads)

    def evaluate_at_exp(self, x: Sequence[Fraction], z: Fraction | None = None) -> tuple[Fraction, ...]:
        """Exact value ``Σ_h H_h`` at ``x_j = e^{q_j}`` (integer keys only).

        >>> from fractions import Fraction as F
        >>> h = Head((Atom((1,), (1,)), Atom((0,), (0,))))
        >>> MultiHead((h, h)).evaluate_at_exp((F(1),))
        (Fraction(1, 1),)
        """
        total = [Fraction(0)] * self.value_dim
        for h in self.heads:
            for c, v in enumerate(h.evaluate_at_exp(x, z)):
                total[c] += v
        return tuple(total)
