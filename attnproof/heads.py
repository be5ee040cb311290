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

from .display import REPR_LIMIT, clip, fields_repr, short
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


_ZERO = Fraction(0)
_ONE = Fraction(1)
DENSE_CACHE_DIM = 64       # dense keys of at most this dimension are cached on the atom


def _frac(x, what: str) -> Fraction:
    return _exact(x, what)


def _sparse_from_items(items: Iterable, dim: int, what: str) -> tuple[tuple[int, Fraction], ...]:
    out = []
    for j, c in items:
        if isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < dim:
            raise ValidationError(f"{what}: coordinate {j!r} is not an index 0..{dim - 1}")
        c = _frac(c, what)
        if c:
            out.append((j, c))
    out.sort(key=lambda t: t[0])
    for (a, _), (b, _) in zip(out, out[1:]):
        if a == b:
            raise ValidationError(f"{what}: coordinate {a} given twice")
    return tuple(out)


class Atom:
    """One key-value entry ``(k, b, w, v)`` of a head; positive factor ``w·e^b``.

    The key is stored sparsely: ``sparse_key`` is the sorted tuple of
    ``(index, value)`` pairs of its non-zero coordinates and ``dim`` its
    dimension.  ``key`` is the dense tuple, built on demand (cached for small
    ``dim``), so work on large sparse problems stays proportional to the
    number of non-zero coordinates.

    >>> Atom(key=(1, 0), value=(2,)).bias
    Fraction(0, 1)
    >>> a = Atom.sparse(5, {3: 2}, (1,))
    >>> a.sparse_key, a.key, a == Atom((0, 0, 0, 2, 0), (1,))
    (((3, Fraction(2, 1)),), (Fraction(0, 1), Fraction(0, 1), Fraction(0, 1), Fraction(2, 1), Fraction(0, 1)), True)
    """

    __slots__ = ("sparse_key", "dim", "value", "bias", "weight", "_dense")

    sparse_key: tuple
    dim: int
    value: tuple
    bias: Fraction
    weight: Fraction
    _dense: tuple | None               # the dense key, cached while ``dim`` is small

    def __init__(self, key: Iterable | None = None, value: Iterable | None = None,
                 bias: Fraction | int = _ZERO, weight: Fraction | int = _ONE, *,
                 sparse_key: Iterable | None = None, dim: int | None = None) -> None:
        if value is None:
            raise ValidationError("atom value must have at least one component")
        if sparse_key is not None:
            if key is not None:
                raise ValidationError("give an atom either a dense key or a sparse key, not both")
            if isinstance(dim, bool) or not isinstance(dim, int) or dim < 0:
                raise ValidationError(f"a sparse key needs a dimension >= 0, got {dim!r}")
            items = sparse_key.items() if isinstance(sparse_key, dict) else sparse_key
            sk = _sparse_from_items(items, dim, "atom key")
            dense = None
        else:
            if key is None:
                raise ValidationError("an atom needs a key")
            dense = _frac_tuple(key, "atom key")
            if dim is not None and dim != len(dense):
                raise ValidationError(f"atom key has dimension {len(dense)}, expected {dim}")
            dim = len(dense)
            sk = tuple((j, c) for j, c in enumerate(dense) if c)
        _set = object.__setattr__
        _set(self, "sparse_key", sk)
        _set(self, "dim", dim)
        _set(self, "_dense", dense if dim <= DENSE_CACHE_DIM else None)
        _set(self, "value", _frac_tuple(value, "atom value"))
        b = _frac(bias, "atom bias")
        w = _frac(weight, "atom weight")
        if w <= 0:
            raise ValidationError(f"atom weight must be positive, got {w}")
        _set(self, "bias", b)
        _set(self, "weight", w)
        if not self.value:
            raise ValidationError("atom value must have at least one component")

    @classmethod
    def sparse(cls, dim: int, key: dict | Iterable, value: Iterable,
               bias: Fraction | int = _ZERO, weight: Fraction | int = _ONE) -> "Atom":
        """An atom from its non-zero key coordinates ``{j: value}`` (or ``(j, value)`` pairs).

        >>> Atom.sparse(100000, {7: 1}, (1,)).sparse_key
        ((7, Fraction(1, 1)),)
        """
        return cls(None, value, bias, weight, sparse_key=key, dim=dim)

    @classmethod
    def _trusted(cls, dim: int, sparse_key: tuple, value: tuple, bias: Fraction,
                 weight: Fraction) -> "Atom":
        """An atom from already validated parts (sorted non-zero Fraction pairs, Fractions)."""
        a = cls.__new__(cls)
        _set = object.__setattr__
        _set(a, "sparse_key", sparse_key)
        _set(a, "dim", dim)
        _set(a, "_dense", None)
        _set(a, "value", value)
        _set(a, "bias", bias)
        _set(a, "weight", weight)
        return a

    @property
    def key(self) -> tuple[Fraction, ...]:
        """The dense key, a ``dim``-tuple (cached when ``dim`` is small)."""
        d = self._dense
        if d is not None:
            return d
        out = [_ZERO] * self.dim
        for j, c in self.sparse_key:
            out[j] = c
        d = tuple(out)
        if self.dim <= DENSE_CACHE_DIM:
            object.__setattr__(self, "_dense", d)
        return d

    @property
    def nnz(self) -> int:
        """Number of non-zero key coordinates."""
        return len(self.sparse_key)

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"Atom is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Atom is immutable (cannot delete {name!r})")

    def _ident(self) -> tuple:
        return (self.dim, self.sparse_key, self.value, self.bias, self.weight)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Atom):
            return NotImplemented
        return self._ident() == other._ident()

    def __hash__(self) -> int:
        return hash(self._ident())

    def __repr__(self) -> str:
        """``Atom(key=(1, '1/2'), value=(1,))``: exact and accepted back by the constructor
        while it is short (bias and weight only when not 0 and 1); a summary otherwise.

        >>> Atom(key=(1, "1/2"), value=(1,), weight=2)
        Atom(key=(1, '1/2'), value=(1,), weight=2)
        >>> Atom.sparse(10 ** 5, {7: 1}, (2,))
        Atom(dim=100000, key={7: 1}, value=(2,))
        """
        extra = "".join(f", {n}={short(v)}" for n, v, default in
                        (("bias", self.bias, 0), ("weight", self.weight, 1)) if v != default)
        if self.dim <= 8:
            text = f"Atom(key={short(self.key, REPR_LIMIT)}, value={short(self.value, 120)}{extra})"
        else:
            key = {j: x for j, x in self.sparse_key}
            text = f"Atom(dim={self.dim}, key={short(key, 120)}, value={short(self.value, 120)}{extra})"
        if len(text) <= REPR_LIMIT and "<" not in text:
            return text
        return (f"<Atom in dimension {self.dim}: {len(self.sparse_key)} non-zero key coordinates, "
                f"value dimension {len(self.value)}>")

    def __str__(self) -> str:
        """``key (1, 1/2) -> value 1`` (bias and weight when not 0 and 1).

        >>> print(Atom(key=(1, "1/2"), value=(1,), bias=-1))
        key (1, 1/2) -> value 1, bias -1
        """
        key = ("(" + ", ".join(map(str, self.key)) + ")" if self.dim <= 8 else
               "{" + ", ".join(f"{j}: {x}" for j, x in self.sparse_key) + "}")
        val = str(self.value[0]) if len(self.value) == 1 else "(" + ", ".join(map(str, self.value)) + ")"
        text = f"key {key} -> value {val}"
        if self.bias:
            text += f", bias {self.bias}"
        if self.weight != 1:
            text += f", weight {self.weight}"
        return clip(text)

    def __reduce__(self):
        return (_atom_from_state, (self.dim, self.sparse_key, self.value, self.bias, self.weight))


def _atom_from_state(dim, sparse_key, value, bias, weight) -> Atom:
    return Atom._trusted(dim, sparse_key, value, bias, weight)


@dataclass(frozen=True, repr=False)
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
        if not isinstance(atoms[0], Atom):
            raise ValidationError(f"{label}, atom 0: not an Atom")
        d, m = atoms[0].dim, len(atoms[0].value)
        for i, a in enumerate(atoms):
            if not isinstance(a, Atom):
                raise ValidationError(f"{label}, atom {i}: not an Atom")
            if a.dim != d:
                raise ValidationError(
                    f"{label}, atom {i}: key has dimension {a.dim}, expected {d}")
            if len(a.value) != m:
                raise ValidationError(
                    f"{label}, atom {i}: value has dimension {len(a.value)}, expected {m}")

    @classmethod
    def _trusted(cls, atoms: tuple, name: str | None) -> "Head":
        """A head from a non-empty tuple of atoms already known to share dimension and
        value dimension (the problem parser checks both as it builds them)."""
        h = cls.__new__(cls)
        object.__setattr__(h, "atoms", atoms)
        object.__setattr__(h, "name", name)
        return h

    def __len__(self) -> int:
        return len(self.atoms)

    def __repr__(self) -> str:
        """A summary: name, atoms and dimensions (``str`` lists the atoms).

        >>> Head((Atom((1,), (1,)), Atom((0,), (0,))), name="sigma")
        Head(name='sigma', atoms=2, dim=1)
        """
        return fields_repr("Head", name=self.name, atoms=len(self.atoms), dim=self.dim,
                           value_dim=self.value_dim if self.value_dim != 1 else None)

    def __str__(self) -> str:
        """The head's atoms, one a line (the first :data:`SHOWN_ATOMS`).

        >>> print(Head((Atom((1,), (1,)), Atom((0,), (0,))), name="sigma"))
        head 'sigma': 2 atoms in dimension 1
          key (1) -> value 1
          key (0) -> value 0
        """
        label = f"head {self.name!r}" if self.name is not None else "head"
        lines = [f"{label}: {len(self.atoms)} atom{'s' if len(self.atoms) != 1 else ''} in "
                 f"dimension {self.dim}"]
        lines += [f"  {a}" for a in self.atoms[:SHOWN_ATOMS]]
        if len(self.atoms) > SHOWN_ATOMS:
            lines.append(f"  ... and {len(self.atoms) - SHOWN_ATOMS} more")
        return "\n".join(lines)

    @property
    def dim(self) -> int:
        """Dimension ``d`` of the keys (and queries)."""
        return self.atoms[0].dim

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
        return len({a.sparse_key for a in self.atoms})

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
            for j, kj in a.sparse_key:
                if kj.denominator != 1:
                    raise ValidationError("evaluate_at_exp needs integer keys")
                t *= Fraction(x[j]) ** int(kj)
            if a.bias:
                if z is None or a.bias.denominator != 1:
                    raise ValidationError("evaluate_at_exp: biased atoms need an integer bias and z")
                t *= Fraction(z) ** int(a.bias)
            den += t
            for c in range(self.value_dim):
                num[c] += t * a.value[c]
        return tuple(n / den for n in num)


SHOWN_ATOMS = 6      # atoms of a head that ``str`` writes out
SHOWN_HEADS = 12     # heads of a multi-head that ``str`` writes out


@dataclass(frozen=True, repr=False)
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

    def __repr__(self) -> str:
        """A summary: heads, their atom counts and the dimensions.

        >>> from attnproof.families import sigmoid_sum
        >>> sigmoid_sum(3)
        MultiHead(heads=3, atoms=(2, 2, 2), dim=3)
        """
        return fields_repr("MultiHead", heads=len(self.heads),
                           atoms=tuple(len(h) for h in self.heads), dim=self.dim,
                           value_dim=self.value_dim if self.value_dim != 1 else None)

    def __str__(self) -> str:
        """Every head and its atoms (the first few of each), readable.

        >>> from attnproof.families import sigmoid_sum
        >>> print(sigmoid_sum(2))
        multi-head of 2 heads in dimension 2 (4 head-atom terms)
        head 'sigma1': 2 atoms in dimension 2
          key (1, 0) -> value 1
          key (0, 0) -> value 0
        head 'sigma2': 2 atoms in dimension 2
          key (0, 1) -> value 1
          key (0, 0) -> value 0
        """
        vals = f", values in dimension {self.value_dim}" if self.value_dim != 1 else ""
        lines = [f"multi-head of {len(self.heads)} head{'s' if len(self.heads) != 1 else ''} in "
                 f"dimension {self.dim}{vals} ({self.head_atom_terms} head-atom terms)"]
        lines += [str(h) for h in self.heads[:SHOWN_HEADS]]
        if len(self.heads) > SHOWN_HEADS:
            lines.append(f"... and {len(self.heads) - SHOWN_HEADS} more heads")
        return "\n".join(lines)

    @classmethod
    def from_arrays(cls, keys, values, biases=None, weights=None, names=None) -> "MultiHead":
        """Per-head NumPy arrays (float32/float64/int) taken at their exact binary values.

        ``keys[h]``: ``(n_h, d)``; ``values[h]``: ``(n_h,)`` or ``(n_h, m)``;
        ``biases[h]``, ``weights[h]``: ``(n_h,)`` or None (see :func:`attnproof.arrays.exact_heads`).

        >>> import numpy as np
        >>> M = MultiHead.from_arrays([np.eye(2, dtype=np.float32)], [np.float32([1, 0])])
        >>> M.heads[0].atoms[0].key, M.value_dim
        ((Fraction(1, 1), Fraction(0, 1)), 1)
        """
        from .arrays import exact_heads

        dim, heads = exact_heads(keys, values, biases, weights, names)
        return cls(tuple(Head(tuple(Atom(key=k, value=v, bias=b, weight=w) for k, v, b, w in atoms),
                              name=names[h] if names is not None else None)
                         for h, atoms in enumerate(heads)), dim=dim)

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
