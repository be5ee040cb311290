"""Problems as NumPy ``.npz`` archives: every number at its exact binary value (THEORY §9, §10).

Layout (what :func:`load_npz` reads and :func:`save_npz` writes), for heads
``h = 0, 1, ...`` numbered without gaps:

* ``keys_<h>``: shape ``(n_h, d)``, the keys of head ``h``;
* ``values_<h>``: shape ``(n_h,)`` (scalar values) or ``(n_h, m)``;
* ``biases_<h>`` (optional): shape ``(n_h,)``, logit biases (default 0);
* ``weights_<h>`` (optional): shape ``(n_h,)``, positive weights (default 1).

Nothing is unpickled, and an archive's declared expanded size is checked before
anything is decompressed.

>>> import os, tempfile
>>> import numpy as np
>>> path = os.path.join(tempfile.mkdtemp(), "p.npz")
>>> save_npz(path, [np.float32([[0.5], [0]])], [np.float32([1, 0])])
>>> load_npz(path).heads[0].atoms[0].key
(Fraction(1, 2),)
"""

from __future__ import annotations

import os
import re
from typing import Any, Sequence

from ..checker.limits import MAX_FILE_BYTES
from ..errors import InputError
from ..heads import MultiHead
from .files import atomic_write
import zipfile

__all__ = ["load_npz", "save_npz", "MAX_NPZ_EXPANDED_BYTES"]

_NAME = re.compile(r"^(keys|values|biases|weights)_(0|[1-9][0-9]{0,5})$")

# the arrays of a .npz may expand to at most as many bytes as an uncompressed input file
MAX_NPZ_EXPANDED_BYTES = 512 * 1024 * 1024


def load_npz(path: str | os.PathLike) -> MultiHead:
    """Read a multi-head from a ``.npz`` file in the layout of the module docstring."""

    import numpy as np

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
        return MultiHead.from_arrays([arrays["keys", h] for h in range(H)],
                                     [arrays["values", h] for h in range(H)],
                                     [arrays.get(("biases", h)) for h in range(H)],
                                     [arrays.get(("weights", h)) for h in range(H)])
    except InputError as e:
        raise type(e)(f"{path}: {e}") from None


def save_npz(path: str | os.PathLike, keys: Sequence[Any], values: Sequence[Any],
             biases: Sequence[Any] | None = None) -> None:
    """Write arrays in the layout :func:`load_npz` reads (atomically)."""
    import numpy as np

    data: dict[str, np.ndarray] = {}
    for h, K in enumerate(keys):
        data[f"keys_{h}"] = np.asarray(K)
        data[f"values_{h}"] = np.asarray(values[h])
        if biases is not None and biases[h] is not None:
            data[f"biases_{h}"] = np.asarray(biases[h])
    # no pickled object arrays: load_npz refuses them
    atomic_write(path, lambda f: np.savez(f, allow_pickle=False, **data))
