"""The exact values of NumPy arrays: float tensors at their exact binary values (THEORY §9, §10).

A float32 or float64 number is an exact dyadic rational; these functions take
it as exactly that (``Fraction(float(x))``), not as the decimal it prints as.
Every result of attnproof about such a problem is therefore a statement about
the exact binary inputs (docs/real-keys.md).

Real numbers only (booleans, integers, float16/32/64); NaN and infinities are
refused; nothing is unpickled.

:func:`exact_heads` gives the numbers of every atom;
:meth:`attnproof.heads.MultiHead.from_arrays` builds the multi-head from them, and
:mod:`attnproof.io.npz` reads and writes them as ``.npz`` files.

>>> import numpy as np
>>> dim, heads = exact_heads([np.float32([[0.1], [0]])], [np.float32([1, 0])])
>>> dim, heads[0][0]
(1, ((Fraction(13421773, 134217728),), (Fraction(1, 1),), Fraction(0, 1), Fraction(1, 1)))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from .errors import NumberError, ValidationError

__all__ = ["exact_heads", "MAX_ARRAY_ENTRIES"]

MAX_ARRAY_ENTRIES = 50_000_000


def _matrix(x: Any, what: str, ndim: tuple[int, ...]):
    """A finite real NumPy array with one of the allowed numbers of dimensions."""
    import numpy as np

    a = np.asarray(x)
    if a.dtype.kind not in "biuf":
        raise ValidationError(f"{what}: expected real numbers, got an array of dtype {a.dtype}")
    if a.ndim not in ndim:
        raise ValidationError(f"{what}: expected {' or '.join(f'{k}-D' for k in ndim)} array, "
                              f"got shape {a.shape}")
    if a.size > MAX_ARRAY_ENTRIES:
        raise ValidationError(f"{what}: {a.size} entries, over the limit of {MAX_ARRAY_ENTRIES}")
    if a.dtype.kind == "f" and not np.isfinite(a).all():
        raise NumberError(f"{what}: NaN or infinite entries")
    return a


def _exact(a) -> list:
    """Exact rationals of an array's entries (nested lists), floats by their binary value."""
    if a.dtype.kind == "f":
        if a.dtype.itemsize > 8:
            raise ValidationError("extended-precision floats are not supported; use float64")
        conv = Fraction.from_float
        return _map(a.astype("float64").tolist(), conv)
    return _map(a.astype(object).tolist(), Fraction)


def _map(x, f):
    return [_map(y, f) for y in x] if isinstance(x, list) else f(x)


def _per_atom(arrays, h: int, n: int, name: str, default: Fraction) -> list:
    """Head ``h``'s optional per-atom column (biases or weights) as exact values, or ``default``."""
    if arrays is None or arrays[h] is None:
        return [default] * n
    A = _matrix(arrays[h], f"{name} of head {h}", (1,))
    if A.shape[0] != n:
        raise ValidationError(f"{name} of head {h}: {A.shape[0]} entries for {n} keys")
    return _exact(A)


def exact_heads(keys: Sequence[Any], values: Sequence[Any], biases: Sequence[Any] | None = None,
                weights: Sequence[Any] | None = None,
                names: Sequence[Any] | None = None) -> tuple[int, list[list[tuple]]]:
    """``(d, heads)``: per head, the atoms' ``(key, value, bias, weight)`` as exact numbers.

    ``keys[h]``: ``(n_h, d)``; ``values[h]``: ``(n_h,)`` or ``(n_h, m)``;
    ``biases[h]``, ``weights[h]``: ``(n_h,)`` or None (defaults 0 and 1); ``names``,
    when given, only has its length checked (one per head).
    """
    H = len(keys)
    if H == 0:
        raise ValidationError("from_arrays: at least one head is needed")
    for name, seq in (("values", values), ("biases", biases), ("weights", weights), ("names", names)):
        if seq is not None and len(seq) != H:
            raise ValidationError(f"from_arrays: {len(seq)} {name} for {H} heads")
    heads = []
    d = None
    for h in range(H):
        K = _matrix(keys[h], f"keys of head {h}", (2,))
        n = K.shape[0]
        if d is None:
            d = K.shape[1]
        elif K.shape[1] != d:
            raise ValidationError(f"keys of head {h}: dimension {K.shape[1]}, head 0 has {d}")
        V = _matrix(values[h], f"values of head {h}", (1, 2))
        if V.shape[0] != n:
            raise ValidationError(f"values of head {h}: {V.shape[0]} rows for {n} keys")
        vals = _exact(V)
        vals = [tuple(v) if isinstance(v, list) else (v,) for v in vals]
        bs = _per_atom(biases, h, n, "biases", Fraction(0))
        ws = _per_atom(weights, h, n, "weights", Fraction(1))
        ks = _exact(K)
        heads.append([(tuple(ks[i]), vals[i], bs[i], ws[i]) for i in range(n)])
    assert d is not None
    return d, heads
