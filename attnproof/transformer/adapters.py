"""Capture a layer from PyTorch models (needs the ``models`` extra: torch, transformers,
transformer-lens).  torch is imported inside the functions, never at module import.

Supported:

* a TransformerLens 4 ``TransformerBridge`` (``TransformerBridge.boot_transformers``),
  and a TransformerLens 3 ``HookedTransformer`` (same hook names);
* a Hugging Face GPT-2 model (``GPT2LMHeadModel`` or ``GPT2Model``);
* a ``torch.nn.MultiheadAttention`` with given inputs (:func:`capture_mha`).

Every capture is checked before it is returned: the head outputs recomputed in
float64 from the captured arrays must agree with the model's own per-head
outputs (``hook_z`` through ``W_O``); an attention variant this module does not
model (rotary embeddings, ALiBi, another scaling) is refused with a message
instead of producing a wrong problem.
"""

from __future__ import annotations

import math
import os
from contextlib import contextmanager
from typing import Any, Optional, Sequence

import numpy as np

from ..errors import InputError
from .capture import Capture, float_head_outputs

__all__ = ["capture", "capture_mha", "load_local_model", "CHECK_RTOL", "hub_progress_bars_off"]

CHECK_RTOL = {"float64": 1e-9, "float32": 2e-3, "float16": 5e-2, "bfloat16": 5e-2}


@contextmanager
def hub_progress_bars_off():
    """While in force, transformers draws none of its own progress bars (loading weights,
    writing shards); the previous setting is put back afterwards.

    >>> with hub_progress_bars_off():
    ...     pass
    """
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:
        yield
        return
    was = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was:
            hf_logging.enable_progress_bar()


def _torch():
    try:
        import torch
    except ImportError:
        raise InputError("capturing from a PyTorch model needs the models extra: "
                         "pip install torch==2.13.0 && pip install -e '.[models]' in the checkout") from None
    return torch


def _np(t: Any) -> np.ndarray:
    """A tensor (any float dtype) as a float64 NumPy array (exact upcast)."""
    return t.detach().to("cpu").double().numpy().copy()


def _dtype_name(t: Any) -> str:
    return str(t.dtype).replace("torch.", "")


def _self_check(cap: Capture, where: str) -> Capture:
    """Refuse a capture whose recomputed head outputs differ from the model's own."""
    if cap.head_out is None:
        return cap
    mine = float_head_outputs(cap)
    ref = cap.head_out
    scale = max(float(np.abs(ref).max()), 1e-300)
    err = float(np.abs(mine - ref).max()) / scale
    rtol = CHECK_RTOL.get(str(cap.meta.get("dtype")), 1e-2)
    if not err <= rtol:
        raise InputError(
            f"{where}: the captured weights do not reproduce the model's own head outputs "
            f"(relative deviation {err:.3g} > {rtol:g}); this attention variant is not "
            f"supported (rotary embeddings, ALiBi, another logit scale?)")
    return cap


def _position(position: int, n: int) -> int:
    p = position + n if position < 0 else position
    if not 0 <= p < n:
        raise InputError(f"position {position} is outside the {n} tokens")
    return p


def _layer(layer: int, n_layers: int) -> int:
    if not isinstance(layer, int) or not 0 <= layer < n_layers:
        raise InputError(f"layer {layer} is outside 0..{n_layers - 1}")
    return layer


def _is_bridge(model: Any) -> bool:
    return hasattr(model, "run_with_cache") and hasattr(model, "blocks") and hasattr(model, "cfg")


def _hf_transformer(model: Any) -> Any:
    tr = getattr(model, "transformer", model)
    if hasattr(tr, "h") and hasattr(tr, "wte"):
        return tr
    return None


def capture(model: Any, tokens: Any, layer: int, position: int = -1,
            heads: Optional[Sequence[int]] = None, tokenizer: Any = None,
            model_name: Optional[str] = None) -> Capture:
    """Capture ``layer`` of ``model`` at query ``position`` of ``tokens``.

    ``tokens`` is a string (tokenized by the bridge, or by ``tokenizer`` for a
    Hugging Face model), a list of token ids or a tensor of shape ``(n,)`` or
    ``(1, n)``.  The context is the tokens up to and including ``position``
    (causal attention).  ``heads`` restricts the stored heads (all by default).
    """
    torch = _torch()
    if _is_bridge(model):
        fn = _capture_bridge
    elif _hf_transformer(model) is not None:
        fn = _capture_hf_gpt2
    else:
        raise InputError(f"cannot capture from a {type(model).__name__}: expected a TransformerLens "
                         "TransformerBridge or HookedTransformer, or a Hugging Face GPT-2 model")
    with torch.no_grad():
        return fn(model, tokens, layer, position, heads, tokenizer, model_name)


def _token_ids(tokens: Any, to_tokens: Any) -> Any:
    torch = _torch()
    if isinstance(tokens, str):
        if to_tokens is None:
            raise InputError("text needs a tokenizer (pass tokenizer=, or token ids)")
        ids = to_tokens(tokens)
    elif isinstance(tokens, torch.Tensor):
        ids = tokens
    else:
        try:
            ids = torch.tensor([int(t) for t in tokens], dtype=torch.long)
        except (TypeError, ValueError):
            raise InputError("tokens must be a string, a list of token ids or a tensor") from None
    if ids.ndim == 1:
        ids = ids[None, :]
    if ids.ndim != 2 or ids.shape[0] != 1 or ids.shape[1] < 1:
        raise InputError(f"tokens must be one sequence, got shape {tuple(ids.shape)}")
    return ids


def _select(cap_kw: dict, heads: Optional[Sequence[int]], n_heads: int) -> dict:
    if heads is None:
        cap_kw["heads"] = tuple(range(n_heads))
        return cap_kw
    hs = [int(h) for h in heads]
    for h in hs:
        if not 0 <= h < n_heads:
            raise InputError(f"head {h} is outside 0..{n_heads - 1}")
    if len(set(hs)) != len(hs) or not hs:
        raise InputError("heads must be distinct and non-empty")
    for k in ("W_Q", "b_Q", "W_K", "b_K", "W_V", "b_V", "W_O", "head_out"):
        if cap_kw.get(k) is not None:
            cap_kw[k] = cap_kw[k][hs]
    cap_kw["heads"] = tuple(hs)
    return cap_kw


def _bridge_scale(model: Any, layer: int, d_head: int) -> float:
    hf = getattr(model, "original_model", None)
    conf = getattr(hf, "config", None)
    if conf is not None and getattr(conf, "model_type", None) == "gpt2":
        s = 1.0 / math.sqrt(d_head) if getattr(conf, "scale_attn_weights", True) else 1.0
        if getattr(conf, "scale_attn_by_inverse_layer_idx", False):
            s /= layer + 1
        return s
    cfg = model.cfg
    if not getattr(cfg, "use_attn_scale", True):
        return 1.0
    a = getattr(cfg, "attn_scale", None)
    return 1.0 / float(a) if a is not None and a > 0 else 1.0 / math.sqrt(d_head)


def _layernorm_params(ln: Any) -> tuple[Optional[np.ndarray], Optional[np.ndarray], Optional[float]]:
    """``γ, β, eps`` of a LayerNorm module (the bridge's or TransformerLens's), or Nones."""
    torch = _torch()
    mod = getattr(ln, "original_component", None) or ln
    if isinstance(mod, torch.nn.LayerNorm):
        D = mod.normalized_shape[-1]
        g = _np(mod.weight) if mod.weight is not None else np.ones(D)
        b = _np(mod.bias) if mod.bias is not None else np.zeros(D)
        return g, b, float(mod.eps)
    name = type(mod).__name__
    if name in ("LayerNorm",) and hasattr(mod, "w") and hasattr(mod, "b"):   # TransformerLens 3
        return _np(mod.w), _np(mod.b), float(getattr(mod, "eps", 1e-5))
    if name in ("LayerNormPre",):                                             # folded LayerNorm
        return None, None, None
    return None, None, None


def _capture_bridge(model: Any, tokens: Any, layer: int, position: int, heads: Any,
                    tokenizer: Any, model_name: Optional[str]) -> Capture:
    cfg = model.cfg
    L = _layer(layer, cfg.n_layers)
    ids = _token_ids(tokens, getattr(model, "to_tokens", None))
    n_all = ids.shape[1]
    p = _position(position, n_all)
    ids = ids[:, : p + 1]
    names = [f"blocks.{L}.ln1.hook_out", f"blocks.{L}.ln1.hook_normalized",
             f"blocks.{L}.ln1.hook_in", f"blocks.{L}.attn.hook_z", f"blocks.{L}.hook_resid_pre"]
    _, cache = model.run_with_cache(ids, names_filter=lambda n: n in names)
    blk = model.blocks[L]
    attn = blk.attn
    W_Q, W_K, W_V, W_O = (_np(attn.W_Q), _np(attn.W_K), _np(attn.W_V), _np(attn.W_O))
    b_Q, b_K, b_V, b_O = (_np(attn.b_Q), _np(attn.b_K), _np(attn.b_V), _np(attn.b_O))
    if W_K.shape != W_Q.shape:
        raise InputError("grouped-query attention is not supported (W_K and W_Q differ in shape)")
    gamma, beta, eps = _layernorm_params(blk.ln1)
    if f"blocks.{L}.ln1.hook_out" in cache:
        x = _np(cache[f"blocks.{L}.ln1.hook_out"][0])
    elif gamma is not None and f"blocks.{L}.ln1.hook_normalized" in cache:
        x = _np(cache[f"blocks.{L}.ln1.hook_normalized"][0]) * gamma + beta
    else:
        raise InputError("cannot find the LayerNorm output of the layer (hook ln1.hook_out)")
    query_u = None
    if gamma is not None and eps is not None:          # a LayerNorm's parameters come together
        key = f"blocks.{L}.ln1.hook_in" if f"blocks.{L}.ln1.hook_in" in cache else \
            f"blocks.{L}.hook_resid_pre"
        if key in cache:
            r = _np(cache[key][0, p])
            r = r - r.mean()
            query_u = r / math.sqrt(float((r * r).mean()) + eps)
    z = _np(cache[f"blocks.{L}.attn.hook_z"][0, p])                    # (H, d_head)
    head_out = np.einsum("hd,hdm->hm", z, W_O)
    n_heads, d_head = W_Q.shape[0], W_Q.shape[2]
    ids_list = [int(t) for t in ids[0].tolist()]
    strings = None
    tok = getattr(model, "tokenizer", None) or tokenizer
    if tok is not None:
        try:
            strings = [str(s) for s in tok.convert_ids_to_tokens(ids_list)]
        except Exception:  # a tokenizer without this method: strings are optional
            strings = None
    meta = {"model": model_name or os.path.basename(str(getattr(cfg, "model_name", type(model).__name__)).rstrip("/")),
            "layer": L, "position": p, "tokens": ids_list,
            "dtype": _dtype_name(next(model.parameters())), "source": type(model).__name__}
    if strings is not None:
        meta["token_strings"] = strings
    if eps is not None:
        meta["ln_eps"] = eps
    kw = dict(x=x, query=x[p], query_u=query_u, W_Q=W_Q, b_Q=b_Q, W_K=W_K, b_K=b_K, W_V=W_V,
              b_V=b_V, W_O=W_O, b_O=b_O, scale=_bridge_scale(model, L, d_head), meta=meta,
              ln_gamma=gamma, ln_beta=beta, head_out=head_out)
    return _self_check(Capture(**_select(kw, heads, n_heads)), f"layer {L}")


def _capture_hf_gpt2(model: Any, tokens: Any, layer: int, position: int, heads: Any,
                     tokenizer: Any, model_name: Optional[str]) -> Capture:
    torch = _torch()
    tr = _hf_transformer(model)
    conf = tr.config
    if getattr(conf, "model_type", "gpt2") != "gpt2":
        raise InputError(f"the Hugging Face adapter reads GPT-2 models, not {conf.model_type!r}; "
                         "load the model through TransformerLens's TransformerBridge instead")
    L = _layer(layer, len(tr.h))
    to_tokens = None
    if tokenizer is not None:
        to_tokens = lambda s: torch.tensor(tokenizer(s)["input_ids"], dtype=torch.long)  # noqa: E731
    ids = _token_ids(tokens, to_tokens)
    p = _position(position, ids.shape[1])
    ids = ids[:, : p + 1]
    blk = tr.h[L]
    seen: dict = {}
    hooks = [blk.ln_1.register_forward_hook(lambda m, i, o: seen.__setitem__("ln", (i[0], o))),
             blk.attn.c_proj.register_forward_pre_hook(lambda m, i: seen.__setitem__("z", i[0]))]
    try:
        model(ids)
    finally:
        for h in hooks:
            h.remove()
    D, H = conf.n_embd, conf.n_head
    d = D // H
    Wqkv, bqkv = _np(blk.attn.c_attn.weight), _np(blk.attn.c_attn.bias)   # Conv1D: (D, 3D)

    def split(w: np.ndarray) -> np.ndarray:
        return w.reshape(D, H, d).transpose(1, 0, 2)

    W_Q, W_K, W_V = (split(Wqkv[:, i * D:(i + 1) * D]) for i in range(3))
    b_Q, b_K, b_V = (bqkv[i * D:(i + 1) * D].reshape(H, d) for i in range(3))
    W_O = _np(blk.attn.c_proj.weight).reshape(H, d, D)
    b_O = _np(blk.attn.c_proj.bias)
    resid, lnout = seen["ln"]
    x = _np(lnout[0])
    r = _np(resid[0, p])
    r = r - r.mean()
    eps = float(blk.ln_1.eps)
    query_u = r / math.sqrt(float((r * r).mean()) + eps)
    z = _np(seen["z"][0, p]).reshape(H, d)
    head_out = np.einsum("hd,hdm->hm", z, W_O)
    s = 1.0 / math.sqrt(d) if getattr(conf, "scale_attn_weights", True) else 1.0
    if getattr(conf, "scale_attn_by_inverse_layer_idx", False):
        s /= L + 1
    ids_list = [int(t) for t in ids[0].tolist()]
    meta = {"model": model_name or os.path.basename(str(getattr(conf, "_name_or_path", "") or "gpt2").rstrip("/")),
            "layer": L, "position": p, "tokens": ids_list,
            "dtype": _dtype_name(next(model.parameters())), "source": type(model).__name__,
            "ln_eps": eps}
    if tokenizer is not None:
        try:
            meta["token_strings"] = [str(t) for t in tokenizer.convert_ids_to_tokens(ids_list)]
        except Exception:  # optional
            pass
    kw = dict(x=x, query=x[p], query_u=query_u, W_Q=W_Q, b_Q=b_Q, W_K=W_K, b_K=b_K, W_V=W_V,
              b_V=b_V, W_O=W_O, b_O=b_O, scale=s, meta=meta, ln_gamma=_np(blk.ln_1.weight),
              ln_beta=_np(blk.ln_1.bias), head_out=head_out)
    return _self_check(Capture(**_select(kw, heads, H)), f"layer {L}")


def capture_mha(mha: Any, context: Any, query: Any = None, heads: Optional[Sequence[int]] = None,
                model_name: str = "MultiheadAttention") -> Capture:
    """Capture a ``torch.nn.MultiheadAttention`` used as self-attention over ``context``.

    ``context`` (n, E) gives keys and values; ``query`` (E,) defaults to the last
    context row.  There is no LayerNorm: the problem's domain is ``raw``.  The
    per-head reference outputs come from the module itself, run once per head
    with the other heads' output columns switched off.
    """
    torch = _torch()
    if not isinstance(mha, torch.nn.MultiheadAttention):
        raise InputError(f"expected a torch.nn.MultiheadAttention, got {type(mha).__name__}")
    if not mha._qkv_same_embed_dim:
        raise InputError("MultiheadAttention with kdim/vdim different from embed_dim is not supported")
    if mha.bias_k is not None or mha.add_zero_attn:
        raise InputError("MultiheadAttention with add_bias_kv or add_zero_attn is not supported")
    dt = mha.in_proj_weight.dtype
    ctx = torch.as_tensor(context, dtype=dt)
    if ctx.ndim != 2 or ctx.shape[1] != mha.embed_dim or ctx.shape[0] < 1:
        raise InputError(f"context must have shape (n, {mha.embed_dim}), got {tuple(ctx.shape)}")
    q = ctx[-1] if query is None else torch.as_tensor(query, dtype=dt)
    if q.shape != (mha.embed_dim,):
        raise InputError(f"query must have shape ({mha.embed_dim},), got {tuple(q.shape)}")
    E, H = mha.embed_dim, mha.num_heads
    d = E // H
    W = _np(mha.in_proj_weight)                        # (3E, E): q = x @ W_q.T + b_q
    b = _np(mha.in_proj_bias) if mha.in_proj_bias is not None else np.zeros(3 * E)

    def split(w: np.ndarray) -> np.ndarray:            # (E_out, E_in) -> (H, E_in, d)
        return w.T.reshape(E, H, d).transpose(1, 0, 2)

    W_Q, W_K, W_V = (split(W[i * E:(i + 1) * E]) for i in range(3))
    b_Q, b_K, b_V = (b[i * E:(i + 1) * E].reshape(H, d) for i in range(3))
    Wo = _np(mha.out_proj.weight)                      # out = z @ Wo.T + bo
    W_O = Wo.T.reshape(H, d, E)
    b_O = _np(mha.out_proj.bias) if mha.out_proj.bias is not None else np.zeros(E)

    def shaped(t: Any) -> Any:
        return t[None, :, :] if mha.batch_first else t[:, None, :]

    head_out = np.zeros((H, E))
    with torch.no_grad():
        w_save = mha.out_proj.weight.detach().clone()
        try:
            for h in range(H):
                mask = torch.zeros_like(w_save)
                mask[:, h * d:(h + 1) * d] = 1
                mha.out_proj.weight.copy_(w_save * mask)
                out, _ = mha(shaped(q[None, :]), shaped(ctx), shaped(ctx), need_weights=False)
                head_out[h] = _np(out.reshape(E)) - b_O
        finally:
            mha.out_proj.weight.copy_(w_save)
    x = _np(ctx)
    meta = {"model": model_name, "layer": 0, "position": int(x.shape[0]) - 1,
            "tokens": list(range(x.shape[0])), "dtype": _dtype_name(mha.in_proj_weight),
            "source": "torch.nn.MultiheadAttention"}
    kw = dict(x=x, query=_np(q), W_Q=W_Q, b_Q=b_Q, W_K=W_K, b_K=b_K, W_V=W_V, b_V=b_V, W_O=W_O,
              b_O=b_O, scale=1.0 / math.sqrt(d), meta=meta, head_out=head_out)
    return _self_check(Capture(**_select(kw, heads, H)), "MultiheadAttention")


def load_local_model(path: str, backend: str = "auto", dtype: str = "float64") -> Any:
    """Load a model folder for capturing, never downloading (``HF_HUB_OFFLINE=1``).

    ``backend`` is ``bridge`` (TransformerLens's TransformerBridge), ``hf`` (a
    Hugging Face GPT-2 model) or ``auto`` (the bridge when TransformerLens is
    installed, else Hugging Face).  Returns ``(model, tokenizer)``.
    """
    torch = _torch()
    if not os.path.isdir(path):
        raise InputError(f"{path}: not a model folder (captures read local models only; "
                         "nothing is downloaded)")
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    td = {"float64": torch.float64, "float32": torch.float32}.get(dtype)
    if td is None:
        raise InputError(f"--dtype must be float64 or float32, got {dtype!r}")
    if backend not in ("auto", "bridge", "hf"):
        raise InputError(f"--backend must be auto, bridge or hf, got {backend!r}")
    if backend in ("auto", "bridge"):
        try:
            from transformer_lens.model_bridge import TransformerBridge
        except ImportError:
            if backend == "bridge":
                raise InputError("--backend bridge needs transformer-lens "
                                 "(pip install -e '.[models]' in the checkout)") from None
        else:
            try:
                with hub_progress_bars_off():
                    bridge = TransformerBridge.boot_transformers(path, dtype=td)
            except Exception as e:  # report the library's reason in one line
                raise InputError(f"{path}: TransformerBridge cannot load it "
                                 f"({type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''})") from None
            bridge.eval()
            return bridge, getattr(bridge, "tokenizer", None)
    try:
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError:
        raise InputError("loading a model needs transformers (pip install -e '.[models]' in the checkout)") from None
    try:
        with hub_progress_bars_off():
            model = AutoModelForCausalLM.from_pretrained(path, torch_dtype=td, local_files_only=True)
    except Exception as e:
        raise InputError(f"{path}: cannot load the model ({type(e).__name__})") from None
    try:
        tok = AutoTokenizer.from_pretrained(path, local_files_only=True)
    except Exception:  # a model folder without a tokenizer: token ids only
        tok = None
    model.eval()
    return model, tok
