"""``attnproof import``: a captured layer (.npz) as an exact problem file."""

from __future__ import annotations

import argparse
import time

from .common import EXIT_OK, add_capture_options, add_common, print_json

NAME = "import"
HELP = "turn a captured attention layer (.npz) into an exact problem file"
DESCRIPTION = """\
Read a capture (one layer of a transformer at one query position, written by
'attnproof capture' or attnproof.transformer.save_capture; format: docs/models.md)
and write the chosen heads as a problem file (THEORY section 10): keys
W_Q k_i / sqrt(d_head), biases b_Q.k_i / sqrt(d_head), values (x_i W_V + b_V) W_O.
Every number is the exact binary value of a float: of the float64 results of
computing keys, biases and values (--arithmetic float64, the default), or of
the captured floats carried through exact arithmetic (--arithmetic exact).

--domain layernorm (the default when the capture has LayerNorm parameters)
states the problem on the inputs the model can see, x = gamma*u + beta with
sum(u) = 0; --domain raw on every x.

When the capture holds the model's own head outputs, the problem is evaluated
at the captured query in float64 and the largest relative deviation is shown
(a screening check).

examples:
  attnproof import layer0.npz --heads 1,3 -o heads13.json
  attnproof import layer0.npz --domain raw --json -o layer0.json
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_capture_options(p)
    p.add_argument("-o", "--output", metavar="PROBLEM", required=True, help="problem file to write")
    add_common(p)


def run(args: argparse.Namespace) -> int:
    from ..io import atomic_write_text, canonical_json
    from ..transformer import capture_to_problem, load_capture, model_deviation, parse_heads, problem_document

    t0 = time.monotonic()
    cap = load_capture(args.capture)
    heads = parse_heads(args.heads, cap)
    domain = args.domain or ("layernorm" if cap.has_layernorm else "raw")
    M = capture_to_problem(cap, heads, domain, args.arithmetic)
    text = canonical_json(problem_document(cap, M, heads, domain, args.arithmetic))
    atomic_write_text(args.output, text)
    dev = model_deviation(cap, M, heads, domain)
    s = {"verdict": "written", "problem": args.output, "heads": heads, "head_atoms": [len(h) for h in M.heads], "dim": M.dim,
         "value_dim": M.value_dim, "domain": domain, "arithmetic": args.arithmetic,
         "model": cap.meta.get("model"), "layer": cap.meta.get("layer"),
         "position": cap.meta.get("position"), "model_deviation": dev,
         "elapsed_s": round(time.monotonic() - t0, 3)}
    if args.json:
        print_json(s)
        return EXIT_OK
    print(f"{len(heads)} head(s) {','.join(map(str, heads))} of layer {s['layer']} "
          f"({cap.n_ctx} atoms each, dim {M.dim}, {domain} domain, {args.arithmetic} arithmetic) "
          f"written to {args.output} ({len(text)} bytes)")
    if dev is not None:
        print(f"  float64 screening at the captured query: largest relative deviation from the "
              f"model's own head outputs {dev:.2e}")
    return EXIT_OK
