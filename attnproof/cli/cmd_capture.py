"""``attnproof capture``: one layer of a local model at one query position, as a .npz capture."""

from __future__ import annotations

import argparse
import os

from ..errors import InputError
from .common import EXIT_OK, ProgressBar, add_common, nonneg_int, print_json

NAME = "capture"
HELP = "capture one attention layer of a local model (needs the models extra)"
DESCRIPTION = """\
Load a model folder (a Hugging Face checkpoint: config, weights, tokenizer;
nothing is downloaded), run it on the text or the token ids, and write the
layer's capture at the query position (default: the last token): the
LayerNorm outputs of the context rows, every head's weights and biases, the
output projection, the LayerNorm parameters and the model's own per-head
outputs (format: docs/models.md).  The capture is checked against the model
before it is written.

Needs the models extra: pip install torch==2.13.0 && pip install -e '.[models]'.
The model runs in float64 by default (--dtype), so that the later checks can
compare to 1e-10.

examples:
  attnproof capture ./tiny-gpt2 --text "the cat sat" --layer 0 -o layer0.npz
  attnproof capture ./tiny-gpt2 --tokens 0,5,7,9 --layer 1 --heads 1,3 -o l1.npz
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", metavar="MODEL", help="a local model folder")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--text", help="input text (tokenized by the model's tokenizer)")
    src.add_argument("--tokens", metavar="IDS", help="token ids, e.g. 0,17,4")
    p.add_argument("--layer", type=nonneg_int, required=True, help="layer number (0-based)")
    p.add_argument("--position", type=int, default=-1,
                   help="query position (default -1: the last token)")
    p.add_argument("--heads", metavar="LIST", help="store only these heads, e.g. 1,3")
    p.add_argument("--backend", choices=("auto", "bridge", "hf"), default="auto",
                   help="TransformerLens bridge, Hugging Face GPT-2, or auto (bridge when installed)")
    p.add_argument("--dtype", choices=("float64", "float32"), default="float64",
                   help="dtype to run the model in (default float64)")
    p.add_argument("--name", help="model name to record (default: the folder's name)")
    p.add_argument("-o", "--output", metavar="CAPTURE", required=True, help="capture file (.npz)")
    add_common(p)


def _ids(text: str) -> list:
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part.isascii() or not part.isdigit() or len(part) > 9:
            raise InputError(f"--tokens: {part!r} is not a token id")
        out.append(int(part))
    return out


def run(args: argparse.Namespace) -> int:
    from ..transformer import capture, load_local_model, save_capture

    if not args.output.lower().endswith((".npz", ".safetensors")):
        raise InputError(f"{args.output}: a capture file ends in .npz or .safetensors")
    heads = None
    if args.heads is not None:
        heads = _ids(args.heads)
    tokens = args.text if args.text is not None else _ids(args.tokens)
    name = args.name or os.path.basename(os.path.normpath(args.model))
    # the stages take seconds each (importing torch, loading, running in float64): one
    # line per stage, with the elapsed time while it runs
    with ProgressBar(f"capture: loading {name} (importing torch and the model)",
                     heartbeat=True, delay=0.5) as bar:
        model, tok = load_local_model(args.model, args.backend, args.dtype)
        bar.describe(f"capture: running {name} and reading layer {args.layer} "
                     f"(checked against the model's own head outputs)")
        cap = capture(model, tokens, args.layer, args.position, heads=heads, tokenizer=tok,
                      model_name=name)
        bar.describe(f"capture: writing {args.output}")
        save_capture(cap, args.output)
    s = {"verdict": "written", "capture": args.output, "model": name, "layer": cap.meta["layer"],
         "position": cap.meta["position"], "heads": list(cap.heads), "n_ctx": cap.n_ctx,
         "d_model": cap.d_model, "d_head": cap.d_head, "layernorm": cap.has_layernorm}
    if args.json:
        print_json(s)
        return EXIT_OK
    print(f"layer {s['layer']} of {name} at position {s['position']} ({cap.n_ctx} context rows, "
          f"{len(cap.heads)} heads, d_model {cap.d_model}, d_head {cap.d_head}) written to {args.output}")
    return EXIT_OK
