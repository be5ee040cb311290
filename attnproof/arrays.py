"""Multi-heads from NumPy arrays: the exact binary values of float tensors (THEORY §9, §10).

A float32 or float64 number is an exact dyadic rational; these functions take
it as exactly that (``Fraction(float(x))``), not as the decimal it prints as.
Every result of attnproof about such a problem is therefore a statement about
the exact binary inputs (docs/real-keys.md).

``.npz`` layout (what :func:`load_npz` reads and :func:`save_npz` writes), for
heads ``h = 0, 1, ...`` numbered without gaps:

* ``keys_<h>``: shape ``(n_h, d)``, the keys of head ``h``;
* ``values_<h>``: shape ``(n_h,)`` (scalar values) or ``(n_h, m)``;
* ``biases_<h>`` (optional): shape ``(n_h,)``, logit biases (default 0);
* ``weights_<h>`` (optional): shape ``(n_h,)``, positive weights (default 1).

Real numbers only (booleans, integers, float16/32/64); NaN and infinities are
refused; nothing is unpickled.

>>> import numpy as np
>>> M = multihead_from_arrays([np.array([[0.5], [0.0]], dtype=np.float32)], [np.array([1.0, 0.0])])
>>> M.heads[0].atoms[0].key, M.head_atom_terms
((Fraction(1, 2),), 2)
>>> multihead_from_arrays([np.float32([[0.1]])], [np.float32([1])]).heads[0].atoms[0].key[0]
Fraction(13421773, 134217728)
"""

from __future__ import annotations

import os
import re
from fractions import Fraction
from typing import Any, Sequence

from .errors import InputError, NumberError, ValidationError
from .model import Atom, Head, MultiHead

__all__ = ["multihead_from_arrays", "load_npz", "save_npz", "MAX_ARRAY_ENTRIES"]

MAX_ARRAY_ENTRIES = 50_000_000
_NAME = re.compile(r"^(keys|values|biases|weights)_(0|[1-9][0-9]{0,5})$")


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


def multihead_from_arrays(keys: Sequence[Any], values: Sequence[Any], biases: Sequence[Any] | None = None,
                          weights: Sequence[Any] | None = None,
                          names: Sequence[str | None] | None = None) -> MultiHead:
    """A :class:`MultiHead` from per-head arrays, each number taken at its exact binary value.

    ``keys[h]``: ``(n_h, d)``; ``values[h]``: ``(n_h,)`` or ``(n_h, m)``;
    ``biases[h]``, ``weights[h]``: ``(n_h,)`` or None.  See the module docstring.
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
        atoms = tuple(Atom(key=tuple(ks[i]), value=vals[i], bias=bs[i], weight=ws[i]) for i in range(n))
        heads.append(Head(atoms, name=names[h] if names is not None else None))
    return MultiHead(tuple(heads), dim=d)


# the arrays of a .npz may expand to at most as many bytes as an uncompressed input file
MAX_NPZ_EXPANDED_BYTES = 512 * 1024 * 1024


def load_npz(path: str | os.PathLike) -> MultiHead:
    """Read a multi-head from a ``.npz`` file in the layout of the module docstring."""
    import zipfile

    import numpy as np

    from .io import MAX_FILE_BYTES

    try:
        size = os.path.getsize(path)
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e.strerror or e})") from None
    if size > MAX_FILE_BYTES:
        raise InputError(f"{path}: larger than {MAX_FILE_BYTES} bytes")
    if not zipfile.is_zipfile(path):
        raise InputError(f"{path}: not a .npz archive (write one with numpy.savez)")
    try:                    # a compressed archive may expand far beyond its own size
        with zipfile.ZipFile(path) as zf:
            expanded = sum(i.file_size for i in zf.infolist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        raise InputError(f"{path}: not a readable .npz file ({e})") from None
    if expanded > MAX_NPZ_EXPANDED_BYTES:       # module-level: tests lower it
        raise InputError(f"{path}: its arrays expand to {expanded} bytes, over the limit of "
                         f"{MAX_NPZ_EXPANDED_BYTES}")
    try:
        with np.load(path, allow_pickle=False) as z:
            names = list(z.files)
            arrays: dict = {}
            for nm in names:
                m = _NAME.match(nm)
                if m is None:
                    raise InputError(f"{path}: unexpected array {nm!r} (expected keys_<h>, values_<h>, "
                                     "biases_<h>, weights_<h>)")
                arrays[(m.group(1), int(m.group(2)))] = z[nm]
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        raise InputError(f"{path}: not a readable .npz file ({e})") from None
    H = 0
    while ("keys", H) in arrays:
        H += 1
    if H == 0:
        raise InputError(f"{path}: no array keys_0")
    extra = [f"{k}_{h}" for k, h in arrays if h >= H]
    if extra:
        raise InputError(f"{path}: arrays {sorted(extra)} have no matching keys_<h> (heads are 0..{H - 1})")
    missing = [f"values_{h}" for h in range(H) if ("values", h) not in arrays]
    if missing:
        raise InputError(f"{path}: missing {', '.join(missing)}")
    try:
        return multihead_from_arrays([arrays["keys", h] for h in range(H)],
                                     [arrays["values", h] for h in range(H)],
                                     [arrays.get(("biases", h)) for h in range(H)],
                                     [arrays.get(("weights", h)) for h in range(H)])
    except InputError as e:
        raise type(e)(f"{path}: {e}") from None


def save_npz(path: str | os.PathLike, keys: Sequence[Any], values: Sequence[Any],
             biases: Sequence[Any] | None = None) -> None:
    """Write arrays in the layout :func:`load_npz` reads (atomically)."""
    import numpy as np

    from .io import atomic_write

    data = {}
    for h, K in enumerate(keys):
        data[f"keys_{h}"] = np.asarray(K)
        data[f"values_{h}"] = np.asarray(values[h])
        if biases is not None and biases[h] is not None:
            data[f"biases_{h}"] = np.asarray(biases[h])
    atomic_write(path, lambda f: np.savez(f, **data))
