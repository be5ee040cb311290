"""Benchmark of the way in from real models, at GPT-2-small shapes with random weights.

A GPT-2 from a ``GPT2Config`` (``d_model`` 768, 12 heads, ``d_head`` 64; one
layer, a small vocabulary) and a word-level tokenizer are saved to a temporary
folder; nothing is downloaded.  One run, through the command line as a user
would (each step a fresh process, imports included):

1. ``attnproof capture`` of layer 0 at the last of 64 tokens;
2. ``attnproof import --heads 0,1`` and ``attnproof prove`` of that pair
   (target: capture + import + prove under 2 minutes on 2 cores);
3. ``attnproof merge-report`` of the whole layer: 66 pairs plus the layer
   (target: under 15 minutes).

Printed: every step's wall time, the answers with their trust levels, and on
the last lines the ratios ``time / target`` (below 1 meets the target) and
``time / baseline``, the baseline being the model's own forward pass plus a
float64 recomputation of the layer, measured in the same run.

Run: ``python bench/models.py`` (``--quick``: 16 tokens and 4 heads of the layer).
Needs the models extra.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time


CPU: dict = {}


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def sh(argv: list, env: dict) -> tuple[float, str]:
    """Run one command; its wall time (returned) and CPU time (``CPU[argv[3]]``, user + system
    of the process and the children it waited for: less sensitive to a shared machine)."""
    t, c = time.perf_counter(), _child_cpu()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    dt = time.perf_counter() - t
    CPU[argv[3]] = _child_cpu() - c
    if proc.returncode not in (0, 2):
        sys.exit(f"failed ({proc.returncode}): {' '.join(argv)}\n{proc.stderr[-2000:]}")
    return dt, proc.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="16 tokens, heads 0-3 in the report")
    ap.add_argument("--arithmetic", choices=("float64", "exact"), default="float64")
    ap.add_argument("--keep", metavar="DIR", help="work in DIR and keep the files")
    ap.add_argument("--workers", type=int, default=2,
                    help="Dask workers for the layer report (default 2: one per core; 0 in process)")
    args = ap.parse_args()
    n_tokens = 16 if args.quick else 64
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_HUB_DISABLE_PROGRESS_BARS="1",
               TRANSFORMERS_VERBOSITY="error", PYTHONHASHSEED="0")
    os.environ.update(HF_HUB_OFFLINE="1", HF_HUB_DISABLE_PROGRESS_BARS="1",
                      TRANSFORMERS_VERBOSITY="error")
    work = args.keep or tempfile.mkdtemp(prefix="bench-models-")
    os.makedirs(work, exist_ok=True)
    exe = [sys.executable, "-m", "attnproof"]

    import torch

    from attnproof.transformer.tiny import build_tiny_gpt2, tiny_text

    folder = build_tiny_gpt2(os.path.join(work, "gpt2-small-random"), n_layer=1, d_model=768,
                             n_head=12, vocab=1000, n_positions=128, seed=0)
    text = tiny_text(n_tokens - 1)                      # the bridge prepends BOS
    print(f"model: random GPT-2 (d_model 768, 12 heads, d_head 64), {n_tokens} tokens, layer 0, "
          f"{args.arithmetic} arithmetic; {os.cpu_count()} CPUs (shared: figures are noisy)")

    # baseline: the model's forward pass in float64 and the float recomputation of the layer
    from transformers import GPT2LMHeadModel

    from attnproof.transformer.capture import float_head_outputs, load_capture

    model = GPT2LMHeadModel.from_pretrained(folder, torch_dtype=torch.float64).eval()
    ids = torch.tensor([list(range(n_tokens))])
    t = time.perf_counter()
    with torch.no_grad():
        for _ in range(5):
            model(ids)
    forward = (time.perf_counter() - t) / 5

    cap_path = os.path.join(work, "layer0.npz")
    t_cap, _ = sh(exe + ["capture", folder, "--text", text, "--layer", "0", "-o", cap_path], env)
    cap = load_capture(cap_path)
    t = time.perf_counter()
    float_head_outputs(cap)
    baseline = forward + (time.perf_counter() - t)
    print(f"baseline (forward pass + float64 layer recomputation): {baseline:.3f} s")
    print(f"capture: {t_cap:.1f} s wall, {CPU['capture']:.1f} s CPU ({cap.n_ctx} rows, "
          f"{cap.n_heads} heads)")

    prob = os.path.join(work, "heads01.json")
    t_imp, out = sh(exe + ["import", cap_path, "--heads", "0,1", "--arithmetic", args.arithmetic,
                           "-o", prob, "--json"], env)
    dev = json.loads(out)["model_deviation"]
    print(f"import heads 0,1: {t_imp:.1f} s wall, {CPU['import']:.1f} s CPU "
          f"({os.path.getsize(prob) / 1e6:.1f} MB; float64 "
          f"deviation from the model's head outputs {dev:.1e})")
    cert = os.path.join(work, "heads01.cert.json")
    t_prove, out = sh(exe + ["prove", prob, "-o", cert, "--json", "--explicit-fusion-limit", "1"],
                      env)
    s = json.loads(out)
    print(f"prove heads 0,1: {t_prove:.1f} s wall, {CPU['prove']:.1f} s CPU: lower bound {s['lower_bound']}, upper bound "
          f"{s['upper_bound']}, minimum {s['minimum']}, trust {s['trust']}")
    t_check, out = sh(exe + ["check", cert], env)
    print(f"check: {t_check:.1f} s wall, {CPU['check']:.1f} s CPU: {out.strip().splitlines()[0] if out.strip() else ''}")
    pair_total = t_cap + t_imp + t_prove
    pair_cpu = CPU["capture"] + CPU["import"] + CPU["prove"]

    heads = ["--heads", "0,1,2,3"] if args.quick else []
    rep_dir = os.path.join(work, "report")
    t_rep, out = sh(exe + ["merge-report", cap_path, "-o", rep_dir, "--json",
                           "--arithmetic", args.arithmetic, "--workers", str(args.workers)] + heads,
                    env)
    doc = json.loads(out)
    mins = sorted({str(q["minimum"]) for q in doc["pairs"]})
    trusts = sorted({q["trust"] for q in doc["pairs"]})
    lay = doc["layer_question"] or {}
    q_cpu = sum(q.get("elapsed_s", 0) for q in doc["pairs"] + [doc["layer_question"] or {}])
    print(f"merge-report ({args.workers} workers): {len(doc['pairs'])} pairs + layer in "
          f"{t_rep:.1f} s wall, {CPU['merge-report']:.1f} s CPU (questions: {q_cpu:.0f} s of "
          f"worker wall time in all): pair minima "
          f"{', '.join(mins)} (trust {', '.join(trusts)}); layer ({len(lay.get('heads', []))} heads): "
          f"lower {lay.get('lower_bound')}, upper {lay.get('upper_bound')}, minimum "
          f"{lay.get('minimum')}, trust {lay.get('trust')}; complete {doc['complete']}")
    errors = [q for q in doc["pairs"] + [lay] if q.get("error")]
    if errors:
        print(f"  {len(errors)} question(s) failed, first: {errors[0]['error'][:200]}")
    print(f"capture+import+prove one pair: {pair_total:.1f} s wall ({pair_cpu:.1f} s CPU), "
          f"ratio to the 120 s target {pair_total / 120:.2f} (CPU {pair_cpu / 120:.2f}), to the "
          f"baseline {pair_total / baseline:.0f}")
    print(f"whole-layer report: {t_rep:.1f} s wall, ratio to the 900 s target {t_rep / 900:.2f}, "
          f"to the baseline {t_rep / baseline:.0f}")


if __name__ == "__main__":
    main()
