"""Captures from PyTorch models agree with the models (needs the ``models`` extra).

A tiny random GPT-2 (2 layers, d_model 64, 4 heads, d_head 16) and a word-level
tokenizer are saved to a temporary folder; nothing is downloaded
(``HF_HUB_OFFLINE=1``).  The imported problem, evaluated with exact logits and
30-digit mpmath, must agree with the model's own per-head outputs (``hook_z``
through ``W_O``, read from the model's cache by this test) within 1e-10
relative.
"""

from __future__ import annotations

import json
import os
from fractions import Fraction

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the models extra (torch) is not installed")
pytest.importorskip("transformers", reason="the models extra (transformers) is not installed")

from attnproof.heads import MultiHead  # noqa: E402
from attnproof.transformer import capture, capture_mha, capture_to_problem  # noqa: E402
from attnproof.transformer.capture import load_capture  # noqa: E402
from attnproof.transformer.problem import domain_query  # noqa: E402
from attnproof.transformer.tiny import build_tiny_gpt2, tiny_text  # noqa: E402
from attnproof.numeric import evaluate_mpmath  # noqa: E402

os.environ["HF_HUB_OFFLINE"] = "1"
N_TOKENS = 12


@pytest.fixture(scope="module")
def tiny_folder(tmp_path_factory):
    return build_tiny_gpt2(tmp_path_factory.mktemp("tiny") / "tiny-gpt2", seed=0)


@pytest.fixture(scope="module")
def bridge(tiny_folder):
    pytest.importorskip("transformer_lens", reason="the models extra (transformer-lens) is not installed")
    from attnproof.transformer.tiny import load_tiny_bridge

    return load_tiny_bridge(tiny_folder)


def _per_head(M: MultiHead, q) -> np.ndarray:
    q = [Fraction(float(v)) for v in q]
    out = []
    for h in M.heads:
        (v,) = evaluate_mpmath(MultiHead((h,), dim=M.dim), [q], digits=30)
        out.append([float(c) for c in v])
    return np.array(out)


def _rel(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).max() / np.abs(b).max())


@pytest.mark.parametrize("layer", [0, 1])
@pytest.mark.parametrize("domain", ["raw", "layernorm"])
def test_bridge_capture_matches_hook_z(bridge, layer, domain):
    text = tiny_text(N_TOKENS - 1)                     # the bridge prepends BOS
    cap = capture(bridge, text, layer=layer)
    assert cap.n_ctx == N_TOKENS and cap.n_heads == 4 and cap.d_head == 16
    _, cache = bridge.run_with_cache(bridge.to_tokens(text))
    z = cache[f"blocks.{layer}.attn.hook_z"][0, -1].double()            # (heads, d_head)
    W_O = bridge.blocks[layer].attn.W_O.double()
    ref = torch.einsum("hd,hdm->hm", z, W_O).detach().numpy()
    M = capture_to_problem(cap, domain=domain)
    assert _rel(_per_head(M, domain_query(cap, domain)), ref) < 1e-10


def test_bridge_position_and_heads(bridge):
    text = tiny_text(N_TOKENS - 1)
    cap = capture(bridge, text, layer=0, position=5, heads=[3, 1])
    assert cap.n_ctx == 6 and cap.heads == (3, 1) and cap.meta["position"] == 5
    _, cache = bridge.run_with_cache(bridge.to_tokens(text))
    z = cache["blocks.0.attn.hook_z"][0, 5].double()
    ref = torch.einsum("hd,hdm->hm", z, bridge.blocks[0].attn.W_O.double()).detach().numpy()[[3, 1]]
    M = capture_to_problem(cap, heads=[3, 1], domain="raw")
    assert _rel(_per_head(M, cap.query), ref) < 1e-10


def test_hugging_face_gpt2_capture_matches_its_attention_output(tiny_folder):
    from transformers import GPT2LMHeadModel

    model = GPT2LMHeadModel.from_pretrained(tiny_folder, torch_dtype=torch.float64).eval()
    ids = list(range(N_TOKENS))
    cap = capture(model, ids, layer=1)
    seen = {}
    hook = model.transformer.h[1].attn.register_forward_hook(
        lambda m, i, o: seen.__setitem__("out", o[0]))
    with torch.no_grad():
        model(torch.tensor([ids]))
    hook.remove()
    ref_total = seen["out"][0, -1].detach().numpy()                  # Σ_h head outputs + b_O
    M = capture_to_problem(cap, domain="layernorm")
    total = _per_head(M, domain_query(cap, "layernorm")).sum(axis=0) + cap.b_O
    assert _rel(total, ref_total) < 1e-10


def test_bridge_and_hugging_face_captures_agree(bridge, tiny_folder):
    from transformers import GPT2LMHeadModel

    model = GPT2LMHeadModel.from_pretrained(tiny_folder, torch_dtype=torch.float64).eval()
    text = tiny_text(N_TOKENS - 1)
    a = capture(bridge, text, layer=0)
    b = capture(model, a.meta["tokens"], layer=0)
    for name in ("W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "ln_gamma", "ln_beta"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert np.allclose(a.x, b.x, rtol=1e-13, atol=1e-13)      # LayerNorm outputs: rounding apart
    assert a.scale == b.scale == 0.25


def test_multihead_attention_capture_matches_the_module():
    torch.manual_seed(1)
    mha = torch.nn.MultiheadAttention(32, 4, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_bias.normal_(0, 0.1)
        mha.out_proj.bias.normal_(0, 0.1)
    ctx = torch.randn(9, 32, dtype=torch.float64)
    query = torch.randn(32, dtype=torch.float64)
    cap = capture_mha(mha, ctx, query)
    with torch.no_grad():
        out, _ = mha(query[None, None, :], ctx[:, None, :], ctx[:, None, :])
    M = capture_to_problem(cap)                                   # raw: no LayerNorm
    total = _per_head(M, cap.query).sum(axis=0) + cap.b_O
    assert _rel(total, out.reshape(-1).detach().numpy()) < 1e-10
    assert _rel(_per_head(M, cap.query), cap.head_out) < 1e-10


def test_multihead_attention_batch_first():
    torch.manual_seed(2)
    mha = torch.nn.MultiheadAttention(8, 2, batch_first=True, dtype=torch.float64)
    ctx = torch.randn(5, 8, dtype=torch.float64)
    cap = capture_mha(mha, ctx)
    with torch.no_grad():
        out, _ = mha(ctx[None, -1:, :], ctx[None], ctx[None])
    total = _per_head(capture_to_problem(cap), cap.query).sum(axis=0) + cap.b_O
    assert _rel(total, out.reshape(-1).detach().numpy()) < 1e-10


def test_unsupported_attention_is_refused(bridge):
    from attnproof.errors import InputError
    from attnproof.transformer.adapters import _self_check

    cap = capture(bridge, tiny_text(5), layer=0)
    wrong = cap.with_meta()                                   # same arrays...
    object.__setattr__(wrong, "scale", cap.scale * 2)        # ...but another logit scale
    with pytest.raises(InputError, match="not supported"):
        _self_check(wrong, "layer 0")


def test_capture_command_and_import(tiny_folder, tmp_path, run_cli):
    pytest.importorskip("transformer_lens")
    out = tmp_path / "l0.npz"
    rc, o, err = run_cli("capture", str(tiny_folder), "--text", tiny_text(N_TOKENS - 1),
                         "--layer", "0", "-o", str(out), "--json")
    assert rc == 0, err
    s = json.loads(o)
    assert s["verdict"] == "written" and s["n_ctx"] == N_TOKENS and s["heads"] == [0, 1, 2, 3] and s["model"] == "tiny-gpt2"
    cap = load_capture(out)
    assert cap.head_out is not None and cap.meta["token_strings"][0] == "w0"
    rc, o, err = run_cli("import", str(out), "--heads", "1,3", "-o", str(tmp_path / "p.json"), "--json")
    assert rc == 0, err
    assert json.loads(o)["model_deviation"] < 1e-10
    rc, o, err = run_cli("capture", str(tiny_folder), "--tokens", "0,1,2", "--layer", "9",
                         "-o", str(tmp_path / "x.npz"))
    assert rc == 3 and "layer 9 is outside" in err


def test_capture_of_a_missing_folder(tmp_path, run_cli):
    rc, _, err = run_cli("capture", str(tmp_path / "nothing"), "--tokens", "1,2", "--layer", "0",
                         "-o", str(tmp_path / "c.npz"))
    assert rc == 3 and "not a model folder" in err


def _geometry_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("attnproof.geometry") is not None


@pytest.mark.skipif(not _geometry_available(),
                    reason="float keys are proven by attnproof.geometry (THEORY §9), not yet merged")
def test_pair_certificate_of_the_tiny_model_is_accepted(bridge, tmp_path):
    from attnproof.checker import check_text
    from attnproof.merging import merge_report

    cap = capture(bridge, tiny_text(N_TOKENS - 1), layer=0)
    rep = merge_report(cap, tmp_path / "r", heads=[1, 3], layer=False)
    (q,) = rep.pairs
    assert "error" not in q, q.get("error")
    v = check_text((tmp_path / "r" / "certificates" / "heads_1_3.cert.json").read_text())
    assert v.code == 0
    assert v.lower_bound == q["lower_bound"] and v.upper_bound == q["upper_bound"]
    assert q["lower_bound"] <= q["upper_bound"] <= 12 * 12


def test_capture_shows_its_stages(tiny_folder, tmp_path, run_cli):
    """capture was silent for 10-13 s: with --progress each stage is a line on stderr."""
    rc, _, err = run_cli("capture", str(tiny_folder), "--tokens", "0,1,2,3", "--layer", "0",
                         "--backend", "hf", "-o", str(tmp_path / "c.npz"), "--progress")
    assert rc == 0, err
    stages = [line.split(" [")[0] for line in err.splitlines() if line.startswith("capture: ")]
    assert [s.split(" ")[1] for s in dict.fromkeys(stages)] == ["loading", "running", "writing"]


@pytest.mark.slow
def test_merge_report_of_a_tiny_gpt2_with_a_duplicated_and_a_constant_head(tmp_path, run_cli):
    """The issue's layer: head 2 has head 0's W_Q, W_K (one pattern), head 3 zero query
    weights.  Default merge-report closes every pair: 0,2 merge into 12 atoms (saving 12),
    a constant head saves one atom, and the answer says so."""
    from transformers import GPT2LMHeadModel

    folder = build_tiny_gpt2(tmp_path / "dup-gpt2", seed=3)
    model = GPT2LMHeadModel.from_pretrained(folder, local_files_only=True)
    with torch.no_grad():
        W, b = model.transformer.h[0].attn.c_attn.weight, model.transformer.h[0].attn.c_attn.bias
        D, d = W.shape[0], W.shape[0] // 4
        for base in (0, D):                                   # W_Q then W_K
            W[:, base + 2 * d:base + 3 * d] = W[:, base:base + d]
            b[base + 2 * d:base + 3 * d] = b[base:base + d]
        W[:, 3 * d:4 * d] = 0                                 # head 3: no query weights
        b[3 * d:4 * d] = 0
    model.save_pretrained(folder)
    rc, _, err = run_cli("capture", folder, "--text", tiny_text(N_TOKENS - 1), "--layer", "0",
                         "--backend", "hf", "-o", str(tmp_path / "c.npz"), "-q")
    assert rc == 0, err
    rc, out, err = run_cli("merge-report", str(tmp_path / "c.npz"), "--heads", "0,1,2,3",
                           "--no-layer", "--no-plan", "-o", str(tmp_path / "r"), "--json", "-q")
    doc = json.loads(out)
    assert rc == 0 and doc["complete"], [q.get("open_reason") for q in doc["pairs"]]
    by = {tuple(q["heads"]): q for q in doc["pairs"]}
    n = doc["head_atoms"]["0"]             # the context rows (no BOS prepended by --backend hf)
    assert n >= N_TOKENS - 1 and doc["head_atoms"]["3"] == 1
    assert by[(0, 2)]["minimum"] == n and by[(0, 2)]["saves_atoms"] == n
    assert by[(0, 1)]["minimum"] == n * n and by[(0, 1)]["merge"] == "costs"
    assert by[(1, 3)]["minimum"] == n and by[(1, 3)]["saves_atoms"] == 1
    assert doc["answer"].startswith(f"Heads 0 and 2 merge exactly into {n} atoms, saving "
                                    f"{n} of the {2 * n} kept separately")
