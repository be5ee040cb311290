"""The capture format: one attention layer at one query position, NumPy arrays only.

A *capture* holds everything THEORY §10 needs to turn one layer of a
transformer, at one query position with its context fixed, into a multi-head:
the LayerNorm outputs of the context rows, the query row, the weights and
biases of every head, the output projection, the LayerNorm affine parameters
and the metadata (model, layer, position, tokens).  It is written as one
``.npz`` file (or ``.safetensors`` when the optional ``safetensors`` package is
installed) and read back with NumPy alone: no torch, no pickle.

Shapes (``n`` context rows including the query position, ``H`` heads,
``D`` = d_model, ``d`` = d_head), all float64 on disk:

=============  ============  ===============================================
array          shape         meaning
=============  ============  ===============================================
``x``          (n, D)        LayerNorm outputs of the context rows (keys, values)
``query``      (D,)          LayerNorm output at the query position
``query_u``    (D,)          optional: the normalized query before ``γ, β``
``W_Q``        (H, D, d)     ``q = query @ W_Q[h] + b_Q[h]``
``b_Q``        (H, d)
``W_K``        (H, D, d)     ``k_i = x[i] @ W_K[h] + b_K[h]``
``b_K``        (H, d)
``W_V``        (H, D, d)     ``v_i = x[i] @ W_V[h] + b_V[h]``
``b_V``        (H, d)
``W_O``        (H, d, D)     head output ``z_h @ W_O[h]``
``b_O``        (D,)          optional: output bias (added once to the layer)
``ln_gamma``   (D,)          optional: LayerNorm scale ``γ``
``ln_beta``    (D,)          optional: LayerNorm shift ``β``
``scale``      ()            logit scale, usually ``1/√d``
``heads``      (H,)          int64: the model's indices of the stored heads
``head_out``   (H, D)        optional: the model's own per-head outputs at the query
``meta``       ()            a JSON string (format, version, model, layer, ...)
=============  ============  ===============================================

>>> import numpy as np, tempfile, os
>>> cap = random_capture(n_ctx=3, d_model=4, n_heads=2, d_head=2, seed=1)
>>> path = os.path.join(tempfile.mkdtemp(), "c.npz")
>>> save_capture(cap, path)
>>> back = load_capture(path)
>>> back.n_heads, back.d_model, back.d_head, back.n_ctx, back.meta["layer"]
(2, 4, 2, 3, 0)
>>> bool(np.array_equal(back.W_Q, cap.W_Q))
True
"""

from __future__ import annotations

import io as _io
import json
import os
import zipfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional

import numpy as np

from ..errors import InputError, ValidationError

__all__ = ["Capture", "load_capture", "save_capture", "random_capture", "float_head_outputs", "CAPTURE_FORMAT",
           "CAPTURE_VERSION"]

CAPTURE_FORMAT = "attnproof-capture"
CAPTURE_VERSION = 1
MAX_CAPTURE_BYTES = 2 * 1024 ** 3

_REQUIRED = ("x", "query", "W_Q", "b_Q", "W_K", "b_K", "W_V", "b_V", "W_O", "scale", "heads",
             "meta")
_OPTIONAL = ("query_u", "b_O", "ln_gamma", "ln_beta", "head_out")
_META_KEYS = {"format", "version", "model", "layer", "position", "tokens", "token_strings",
              "dtype", "source", "ln_eps", "description"}


@dataclass(frozen=True, eq=False, repr=False)
class Capture:
    """One layer at one query position: arrays (float64) and metadata (see the module table)."""

    x: np.ndarray
    query: np.ndarray
    W_Q: np.ndarray
    b_Q: np.ndarray
    W_K: np.ndarray
    b_K: np.ndarray
    W_V: np.ndarray
    b_V: np.ndarray
    W_O: np.ndarray
    scale: float
    heads: tuple[int, ...]
    meta: dict = field(default_factory=dict)
    query_u: Optional[np.ndarray] = None
    b_O: Optional[np.ndarray] = None
    ln_gamma: Optional[np.ndarray] = None
    ln_beta: Optional[np.ndarray] = None
    head_out: Optional[np.ndarray] = None

    def __post_init__(self) -> None:
        _validate(self)

    def __repr__(self) -> str:
        """Short: where it comes from and the shapes (the arrays are attributes)."""
        from ..display import fields_repr

        return fields_repr("Capture", model=self.meta.get("model"), layer=self.meta.get("layer"),
                           heads=self.heads, n_ctx=self.x.shape[0], d_model=self.x.shape[1])

    @property
    def n_heads(self) -> int:
        """Number of stored heads ``H``."""
        return int(self.W_Q.shape[0])

    @property
    def d_model(self) -> int:
        """Residual width ``D`` (the dimension of keys and queries of the problem)."""
        return int(self.W_Q.shape[1])

    @property
    def d_head(self) -> int:
        """Head width ``d``."""
        return int(self.W_Q.shape[2])

    @property
    def n_ctx(self) -> int:
        """Number of context rows (atoms per head)."""
        return int(self.x.shape[0])

    @property
    def has_layernorm(self) -> bool:
        """True when ``γ`` and ``β`` are stored (the layernorm domain is available)."""
        return self.ln_gamma is not None and self.ln_beta is not None

    def head_position(self, head: int) -> int:
        """Index in the stored arrays of the model's head number ``head``.

        >>> random_capture(2, 3, 2, 1).head_position(1)
        1
        """
        try:
            return self.heads.index(int(head))
        except ValueError:
            raise InputError(f"head {head} is not in the capture (heads: "
                             f"{', '.join(map(str, self.heads))})") from None

    def with_meta(self, **kw: Any) -> "Capture":
        """A copy with metadata entries added or replaced."""
        meta = dict(self.meta)
        meta.update(kw)
        return replace(self, meta=meta)

    def arrays(self) -> dict[str, np.ndarray]:
        """The on-disk arrays (float64, ``heads`` int64, ``meta`` a 0-d string)."""
        out: dict[str, np.ndarray] = {}
        for name in _REQUIRED + _OPTIONAL:
            if name == "meta":
                continue
            v = getattr(self, name)
            if v is None:
                continue
            if name == "heads":
                out[name] = np.asarray(v, dtype=np.int64)
            else:
                out[name] = np.asarray(v, dtype=np.float64)
        meta = {"format": CAPTURE_FORMAT, "version": CAPTURE_VERSION}
        meta.update({k: v for k, v in self.meta.items() if k not in ("format", "version")})
        out["meta"] = np.array(json.dumps(meta, sort_keys=True))
        return out


def _as_float(name: str, a: Any, ndim: int) -> np.ndarray:
    arr = np.asarray(a)
    if arr.dtype.kind not in "fiu":
        raise ValidationError(f"capture: {name} must be a float array, got dtype {arr.dtype}")
    arr = arr.astype(np.float64)          # float16/32 -> float64 is exact
    if arr.ndim != ndim:
        raise ValidationError(f"capture: {name} must have {ndim} dimension(s), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValidationError(f"capture: {name} has NaN or infinite entries")
    return arr


def _validate(c: Capture) -> None:
    set_ = lambda k, v: object.__setattr__(c, k, v)  # noqa: E731
    for name, nd in (("W_Q", 3), ("W_K", 3), ("W_V", 3), ("W_O", 3), ("b_Q", 2), ("b_K", 2),
                     ("b_V", 2), ("x", 2), ("query", 1)):
        set_(name, _as_float(name, getattr(c, name), nd))
    H, D, d = c.W_Q.shape
    if H < 1 or D < 1 or d < 1:
        raise ValidationError(f"capture: W_Q has an empty axis (shape {c.W_Q.shape})")
    expect = {"W_K": (H, D, d), "W_V": (H, D, d), "W_O": (H, d, D), "b_Q": (H, d),
              "b_K": (H, d), "b_V": (H, d), "query": (D,)}
    for name, shape in expect.items():
        if getattr(c, name).shape != shape:
            raise ValidationError(f"capture: {name} has shape {getattr(c, name).shape}, "
                                  f"expected {shape} (from W_Q {c.W_Q.shape})")
    if c.x.shape[1] != D or c.x.shape[0] < 1:
        raise ValidationError(f"capture: x has shape {c.x.shape}, expected (n >= 1, {D})")
    for name, shape in (("query_u", (D,)), ("b_O", (D,)), ("ln_gamma", (D,)), ("ln_beta", (D,)),
                        ("head_out", (H, D))):
        v = getattr(c, name)
        if v is not None:
            v = _as_float(name, v, len(shape))
            if v.shape != shape:
                raise ValidationError(f"capture: {name} has shape {v.shape}, expected {shape}")
            set_(name, v)
    if (c.ln_gamma is None) != (c.ln_beta is None):
        raise ValidationError("capture: ln_gamma and ln_beta come together")
    s = np.asarray(c.scale)
    if s.shape != () or s.dtype.kind not in "fiu" or not np.isfinite(s) or float(s) <= 0:
        raise ValidationError(f"capture: scale must be a positive finite number, got {c.scale!r}")
    set_("scale", float(s))
    heads = np.asarray(c.heads)
    if heads.shape != (H,) or heads.dtype.kind not in "iu":
        raise ValidationError(f"capture: heads must be {H} integers, got {heads.tolist()!r}")
    hs = tuple(int(h) for h in heads)
    if len(set(hs)) != H or min(hs) < 0:
        raise ValidationError(f"capture: heads must be distinct non-negative integers, got {list(hs)}")
    set_("heads", hs)
    if not isinstance(c.meta, dict):
        raise ValidationError("capture: meta must be a JSON object")
    extra = sorted(set(c.meta) - _META_KEYS)
    if extra:
        raise ValidationError(f"capture: unknown meta field {extra[0]!r}")


def save_capture(cap: Capture, path: str | os.PathLike) -> None:
    """Write a capture atomically: ``.npz`` (uncompressed) or ``.safetensors``."""
    from ..io import atomic_write

    arrays = cap.arrays()
    p = Path(path)
    if p.suffix.lower() == ".safetensors":
        try:
            from safetensors.numpy import save as st_save
        except ImportError:
            raise InputError("writing .safetensors needs the safetensors package "
                             "(pip install -e '.[models]' in the checkout); or use .npz") from None
        meta_text = str(arrays.pop("meta"))
        data = st_save({k: np.ascontiguousarray(v) for k, v in arrays.items()},
                       metadata={"attnproof": meta_text})
        atomic_write(p, lambda f: f.write(data))
        return
    if p.suffix.lower() != ".npz":
        raise InputError(f"{p}: a capture file ends in .npz or .safetensors")

    def write(f):
        buf = _io.BytesIO()
        np.savez(buf, allow_pickle=False, **arrays)      # no pickles: load_capture reads none
        f.write(buf.getvalue())

    atomic_write(p, write)


def _read_npz(p: Path) -> dict[str, np.ndarray]:
    from ..io import npz

    try:                    # a compressed archive may expand far beyond its own size
        with zipfile.ZipFile(p) as zf:
            expanded = sum(i.file_size for i in zf.infolist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        expanded = 0        # np.load below says what is wrong with the file
    if expanded > npz.MAX_NPZ_EXPANDED_BYTES:
        raise InputError(f"{p}: its arrays expand to {expanded} bytes, over the limit of "
                         f"{npz.MAX_NPZ_EXPANDED_BYTES}")
    try:
        with np.load(p, allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{p}: is a directory") from None
    except PermissionError:
        raise InputError(f"{p}: permission denied") from None
    except (ValueError, OSError, zipfile.BadZipFile, EOFError, KeyError) as e:
        raise InputError(f"{p}: not a readable .npz capture ({type(e).__name__}: "
                         f"{str(e).splitlines()[0] if str(e) else 'unreadable'})") from None


def _read_safetensors(p: Path) -> dict[str, np.ndarray]:
    try:
        from safetensors import safe_open
    except ImportError:
        raise InputError("reading .safetensors needs the safetensors package "
                         "(pip install -e '.[models]' in the checkout); or use .npz") from None
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    try:
        out = {}
        with safe_open(str(p), framework="numpy") as f:
            md = f.metadata() or {}
            for k in f.keys():
                out[k] = f.get_tensor(k)
    except Exception as e:  # safetensors raises its own error types
        raise InputError(f"{p}: not a readable .safetensors capture ({type(e).__name__})") from None
    if "attnproof" not in md:
        raise InputError(f"{p}: no attnproof metadata in the safetensors header")
    out["meta"] = np.array(md["attnproof"])
    if "scale" in out and out["scale"].shape == (1,):      # safetensors stores scalars as (1,)
        out["scale"] = out["scale"].reshape(())
    return out


def load_capture(path: str | os.PathLike) -> Capture:
    """Read and validate a capture (``.npz`` with NumPy only, or ``.safetensors``).

    >>> load_capture("no/such.npz")
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: no/such.npz: no such file
    """
    p = Path(path)
    if p.is_file() and p.stat().st_size > MAX_CAPTURE_BYTES:
        raise InputError(f"{p}: capture larger than {MAX_CAPTURE_BYTES} bytes")
    arrays = _read_safetensors(p) if p.suffix.lower() == ".safetensors" else _read_npz(p)
    return capture_from_arrays(arrays, where=str(p))


def _loads_meta(text: str, where: str) -> Any:
    def pairs(kv: list) -> dict:
        out: dict = {}
        for k, v in kv:
            if k in out:
                raise InputError(f"{where}: meta: duplicate key {k!r}")
            out[k] = v
        return out

    def constant(name: str) -> Any:
        raise InputError(f"{where}: meta: {name} is not allowed")

    if len(text) > 16 * 1024 * 1024:
        raise InputError(f"{where}: meta is larger than 16 MiB")
    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except json.JSONDecodeError as e:
        raise InputError(f"{where}: meta is not valid JSON ({e.msg})") from None
    except RecursionError:
        raise InputError(f"{where}: meta nested too deeply") from None


def capture_from_arrays(arrays: dict[str, np.ndarray], where: str = "capture") -> Capture:
    """Build a :class:`Capture` from a dict of on-disk arrays (validated)."""
    missing = [k for k in _REQUIRED if k not in arrays]
    if missing:
        raise InputError(f"{where}: missing array {missing[0]!r} (is this an attnproof capture?)")
    extra = sorted(set(arrays) - set(_REQUIRED) - set(_OPTIONAL))
    if extra:
        raise InputError(f"{where}: unknown array {extra[0]!r}")
    m = arrays["meta"]
    if m.dtype.kind != "U" or m.shape != ():
        raise InputError(f"{where}: meta must be a JSON string")
    meta = _loads_meta(str(m), where)
    if not isinstance(meta, dict) or meta.get("format") != CAPTURE_FORMAT:
        raise InputError(f"{where}: meta format must be {CAPTURE_FORMAT!r}")
    if meta.get("version") != CAPTURE_VERSION:
        raise InputError(f"{where}: unsupported capture version {meta.get('version')!r}")
    meta = {k: v for k, v in meta.items() if k not in ("format", "version")}
    # the arrays as read: Capture's validation checks them and converts scale and heads
    kw: dict[str, Any] = {k: arrays[k] for k in _REQUIRED if k != "meta"}
    kw.update({k: arrays[k] for k in _OPTIONAL if k in arrays})
    try:
        return Capture(meta=meta, **kw)
    except ValidationError as e:
        raise ValidationError(f"{where}: {e}") from None


def random_capture(n_ctx: int, d_model: int, n_heads: int, d_head: int, seed: int = 0,
                   layernorm: bool = True, dtype: Any = np.float32) -> Capture:
    """A capture with random weights (GPT-2-like initialisation) and LayerNorm-like rows.

    The rows ``x`` are genuine LayerNorm outputs (in float64) of random residuals,
    so the layernorm domain applies; the weights are ``dtype`` values.  Used by the benchmarks and tests.

    >>> c = random_capture(4, 8, 2, 4, seed=0)
    >>> (c.x.shape, c.W_O.shape, c.scale)
    ((4, 8), (2, 4, 8), 0.5)
    """
    rng = np.random.default_rng(seed)

    def w(*shape, s=0.02):
        return (rng.standard_normal(shape) * s).astype(dtype).astype(np.float64)

    resid = rng.standard_normal((n_ctx, d_model))
    u = resid - resid.mean(axis=1, keepdims=True)
    u = u / np.sqrt((u ** 2).mean(axis=1, keepdims=True) + 1e-5)
    gamma = (1 + w(d_model, s=0.1)) if layernorm else None
    beta = w(d_model, s=0.1) if layernorm else None
    x = (u * gamma + beta) if layernorm else u      # the LayerNorm output, computed in float64
    meta = {"model": f"random(seed={seed})", "layer": 0, "position": n_ctx - 1,
            "tokens": list(range(n_ctx)), "dtype": np.dtype(dtype).name, "source": "random_capture"}
    if layernorm:
        meta["ln_eps"] = 1e-5
    return Capture(x=x, query=x[-1].copy(), query_u=u[-1] if layernorm else None,
                   W_Q=w(n_heads, d_model, d_head, s=1.0 / np.sqrt(d_model)),
                   b_Q=w(n_heads, d_head), W_K=w(n_heads, d_model, d_head, s=1.0 / np.sqrt(d_model)),
                   b_K=w(n_heads, d_head), W_V=w(n_heads, d_model, d_head),
                   b_V=w(n_heads, d_head), W_O=w(n_heads, d_head, d_model),
                   b_O=w(d_model), scale=1.0 / np.sqrt(d_head), heads=tuple(range(n_heads)),
                   meta=meta, ln_gamma=gamma, ln_beta=beta)


def float_head_outputs(cap: Capture, query: Optional[np.ndarray] = None) -> np.ndarray:
    """Each stored head's output at the query, ``z_h W_O^h`` (H, D), recomputed in float64.

    This is the layer's own formula (``q = x W_Q + b_Q``, scaled dot products,
    softmax over the context rows); a capture whose ``head_out`` disagrees with
    it was taken from a model this format does not describe.

    >>> c = random_capture(3, 4, 2, 2)
    >>> float_head_outputs(c).shape
    (2, 4)
    """
    xq = cap.query if query is None else np.asarray(query, dtype=np.float64)
    out = np.zeros((cap.n_heads, cap.d_model))
    for p in range(cap.n_heads):
        q = xq @ cap.W_Q[p] + cap.b_Q[p]
        k = cap.x @ cap.W_K[p] + cap.b_K[p]
        t = (k @ q) * cap.scale
        w = np.exp(t - t.max())
        w /= w.sum()
        z = w @ (cap.x @ cap.W_V[p] + cap.b_V[p])
        out[p] = z @ cap.W_O[p]
    return out
