"""``attnproof merge-report``: which heads of a layer are worth merging, by how much, and the best plan."""

from __future__ import annotations

import argparse

from .common import (EXIT_INCONCLUSIVE, EXIT_OK, EXPLICIT_FUSION_LIMIT, ProgressBar,
                     add_capture_options, add_common, add_executor_options, add_max_atoms,
                     executor_spec, nonneg_int, positive_int, print_json)
from .glossary import merge_words, words_line

NAME = "merge-report"
HELP = "which heads of a captured layer are worth merging exactly, by how much, and the best plan"
DEFAULT_QUESTION_TIMEOUT = 120.0   # attnproof.merging.DEFAULT_QUESTION_TIMEOUT
DEFAULT_PLAN_HEADS = 6             # attnproof.merging.DEFAULT_PLAN_HEADS
DESCRIPTION = """\
For every pair of heads of a captured layer (and for all the chosen heads
together), prove the least number of atoms of one exact softmax head equal to
the sum of the heads at the captured query position, with its context fixed,
and compare it with keeping the heads separate (the sum of their atoms):
merging saves k atoms, costs k times more, or changes nothing.  Then the best
merge plan: a partition of the heads into groups with the fewest atoms in all,
each group's minimum certified.

Every question runs the steps of 'attnproof prove': the bounds, the explicit
fusion when the lower bound is below the product (built within --max-atoms,
embedded up to --explicit-fusion-limit atoms), the line refutations where they
apply; all of them within --question-timeout seconds per question.  An open
question says why and which option closes it.  Structures are named in the
table: heads with one attention pattern, constant heads, heads whose values
vanish, keys that coincide on some positions (docs/models.md).

One certificate per question (checked before it is written), a table in
Markdown and JSON that opens with the answer, and a heat map of
minimum / (n_h + n_g), all under the output folder:

  OUT/report.md  OUT/report.json  OUT/heatmap.png  OUT/certificates/heads_H_G.cert.json

The plan asks every group of three or more heads when there are at most
--plan-heads heads (then its optimum is over all partitions), else the groups
whose pairs could all save atoms.

exit: 0 every pair and layer question answered exactly, 2 some bound left open or failed.

examples:
  attnproof merge-report layer0.npz -o report0
  attnproof merge-report layer0.npz --heads 1,3,5 --no-layer -o r --json
  attnproof merge-report layer0.npz -o r --question-timeout 600
"""


def _seconds(s: str) -> float:
    """argparse type: seconds of a question's time budget, more than 0 and at most a day."""
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{s!r} is not a number of seconds") from None
    if not (0 < v <= 86400):
        raise argparse.ArgumentTypeError(f"{s!r}: give seconds between 0 and 86400")
    return v


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_capture_options(p)
    p.add_argument("-o", "--output", metavar="FOLDER", required=True, help="folder for the report")
    p.add_argument("--no-layer", action="store_true", help="only the pairs, not all heads together")
    p.add_argument("--no-plan", action="store_true", help="no merge plan (no groups of 3+ heads)")
    p.add_argument("--plan-heads", type=positive_int, default=DEFAULT_PLAN_HEADS, metavar="N",
                   help=f"ask every group of heads for the plan when there are at most N heads "
                        f"(default {DEFAULT_PLAN_HEADS}, at most 12); above, the groups whose "
                        f"pairs could all save atoms (at most 64)")
    p.add_argument("--explicit-fusion-limit", type=nonneg_int, default=EXPLICIT_FUSION_LIMIT,
                   metavar="N",
                   help=f"embed the best verified fusion when it has at most N atoms (default "
                        f"{EXPLICIT_FUSION_LIMIT}, as prove; 0: the upper bound is the counted "
                        f"product fusion)")
    p.add_argument("--question-timeout", type=_seconds, default=DEFAULT_QUESTION_TIMEOUT,
                   metavar="S",
                   help=f"seconds per question for all its steps, the bounds included (default "
                        f"{DEFAULT_QUESTION_TIMEOUT:g}); past it the question is open")
    add_common(p)
    add_max_atoms(p)
    add_executor_options(p)


def run(args: argparse.Namespace) -> int:
    from ..merging import merge_report
    from ..transformer import load_capture, parse_heads, write_report

    if not args.output.strip():
        from ..errors import InputError
        raise InputError("-o/--output: give the report's folder (for example -o report)")
    cap = load_capture(args.capture)
    heads = parse_heads(args.heads, cap)
    spec = executor_spec(args)
    with ProgressBar("merge report: questions proven", heartbeat=True) as bar:
        rep = merge_report(cap, args.output, heads=heads, domain=args.domain,
                           arithmetic=args.arithmetic, layer=not args.no_layer,
                           max_atoms=args.max_atoms, explicit_fusion_limit=args.explicit_fusion_limit,
                           spec=spec, progress=bar, timeout=args.question_timeout,
                           plan=not args.no_plan, plan_heads=args.plan_heads)
    paths = write_report(rep, args.output)
    code = EXIT_OK if rep.complete else EXIT_INCONCLUSIVE
    if args.json:
        doc = rep.to_json()
        doc["files"] = paths
        doc["verdict"] = "answered" if code == EXIT_OK else "inconclusive"
        print_json(doc)
        return code
    print(rep.to_markdown())
    n = rep.questions + len(rep.groups)
    print(f"written: {paths['markdown']}, {paths['json']}, {paths['heatmap']}, "
          f"{n} certificate(s) under {args.output}/certificates")
    print(words_line(merge_words(rep.to_json())))
    return code
