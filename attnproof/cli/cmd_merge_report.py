"""``attnproof merge-report``: can two heads of a layer be merged exactly? Every pair, and the layer."""

from __future__ import annotations

import argparse

from .common import (EXIT_INCONCLUSIVE, EXIT_OK, ProgressBar, add_common, add_executor_options,
                     add_max_atoms, executor_spec, nonneg_int, print_json)

NAME = "merge-report"
HELP = "prove, for every pair of heads of a captured layer, how many atoms a merged head needs"
DESCRIPTION = """\
For every pair of heads of a captured layer (and for all the chosen heads
together), prove the lower bound and the best fusion: the least number of
atoms of one exact softmax head equal to the sum of the heads at the captured
query position, with its context fixed.  One certificate per question (checked
before it is written), and a table in Markdown and JSON plus a heat map of what
merging two heads saves (minimum ÷ product of their atoms), all under the
output folder:

  OUT/report.md  OUT/report.json  OUT/heatmap.png  OUT/certificates/heads_H_G.cert.json

Heads whose query subspaces are in general position need the product n_h*n_g
atoms (THEORY Lemma 9.5): no exact merge is cheaper than keeping both.

exit: 0 every question answered exactly, 2 some bound left open or failed.

examples:
  attnproof merge-report layer0.npz -o report0
  attnproof merge-report layer0.npz --heads 1,3,5 --no-layer -o r --json
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("capture", metavar="CAPTURE", help="capture file (.npz, or .safetensors)")
    p.add_argument("-o", "--output", metavar="FOLDER", required=True, help="folder for the report")
    p.add_argument("--heads", metavar="LIST", help="head numbers, e.g. 1,3,5 (default: all)")
    p.add_argument("--domain", choices=("layernorm", "raw"),
                   help="query domain (default: layernorm when the capture has LayerNorm parameters)")
    p.add_argument("--arithmetic", choices=("float64", "exact"), default="float64",
                   help="how keys and values are computed from the floats (default float64)")
    p.add_argument("--no-layer", action="store_true", help="only the pairs, not all heads together")
    p.add_argument("--explicit-fusion-limit", type=nonneg_int, default=0, metavar="N",
                   help="embed an explicit fused head when the product fusion has at most N atoms "
                        "(default 0: the upper bound is the counted product fusion; building "
                        "explicit fusions of float-key heads is slow)")
    add_common(p)
    add_max_atoms(p)
    add_executor_options(p)


def run(args: argparse.Namespace) -> int:
    from ..transformer import load_capture, merge_report, parse_heads, write_report

    if not args.output.strip():
        from ..errors import InputError
        raise InputError("-o/--output: give the report's folder (for example -o report)")
    cap = load_capture(args.capture)
    heads = parse_heads(args.heads, cap)
    spec = executor_spec(args)
    with ProgressBar("merge report: questions proven") as bar:
        rep = merge_report(cap, args.output, heads=heads, domain=args.domain,
                           arithmetic=args.arithmetic, layer=not args.no_layer,
                           max_atoms=args.max_atoms, explicit_fusion_limit=args.explicit_fusion_limit,
                           spec=spec, progress=bar)
    paths = write_report(rep, args.output)
    code = EXIT_OK if rep.answered == rep.questions else EXIT_INCONCLUSIVE
    if args.json:
        doc = rep.to_json()
        doc["files"] = paths
        doc["verdict"] = "answered" if code == EXIT_OK else "inconclusive"
        print_json(doc)
        return code
    print(rep.to_markdown())
    print(f"written: {paths['markdown']}, {paths['json']}, {paths['heatmap']}, "
          f"{rep.questions} certificate(s) under {args.output}/certificates")
    return code
