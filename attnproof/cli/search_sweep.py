"""``attnproof search --sweep``: many independent queries, a result table, verified witnesses.

Kept apart from :mod:`.cmd_search` (which calls :func:`add_sweep_arguments`
and :func:`run_sweep`); the queries run through the executor seam, so
``--workers``/``--scheduler`` spread them over Dask workers.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import InputError
from .common import EXIT_INCONCLUSIVE, EXIT_OK, ProgressBar, add_executor_options, executor_spec, print_json

SWEEP_HELP = """\
--sweep asks the question for every PROBLEM (several files: a family), every
window (--window 1, 0-2 or 0,1) and every K of --targets (default: every K
from the lower bound up to one below the best cheap fusion), as independent
queries; with --workers N or --scheduler ADDR they run on Dask.  Each query
of a sweep runs its solvers one after the other (z3, then cvc5 for an unsat
or when z3 has no answer; --timeout bounds both), so in process a sweep uses
one core; --workers N uses N.  It prints a table and, per problem and
window, the smallest verified fusion and the largest refuted K.  -o DIR and
--certificate DIR then name folders (one witness and one certificate per
problem).  Exit 0 when every query was answered, 2 otherwise.
"""


def add_sweep_arguments(p: argparse.ArgumentParser, goal) -> None:
    """The sweep's own options: ``--sweep`` (in the goal group), ``--targets``, more problems."""
    goal.add_argument("--sweep", action="store_true",
                      help="run every K of --targets in every window, for every PROBLEM, as "
                           "independent queries (see below)")
    # default=[]: without a default argparse marks a '*' positional required and names it in
    # "the following arguments are required: PROBLEM, MORE"
    p.add_argument("more_problems", nargs="*", metavar="MORE", default=[],
                   help="further problem files (--sweep only)")
    p.add_argument("--targets", metavar="KS",
                   help="with --sweep: the K to ask, e.g. 30-37,40 (default: from the lower bound "
                        "up to one below the best cheap fusion)")
    add_executor_options(p)


def check_not_sweep(args: argparse.Namespace) -> None:
    """Refuse sweep-only options in a single query or a --minimize walk."""
    if args.more_problems:
        raise InputError("several problem files are accepted with --sweep only")
    if args.targets is not None:
        raise InputError("--targets applies to --sweep only")
    if args.workers or args.scheduler:
        raise InputError("--workers/--scheduler apply to --sweep only (a single query or "
                         "--minimize runs its queries one after the other)")


def _outputs(args, names: list[str]) -> dict[str, tuple[str | None, str | None]]:
    for flag, folder in (("-o", args.output), ("--certificate", args.certificate)):
        if folder and not os.path.isdir(folder):
            raise InputError(f"{flag} {folder}: with --sweep, give an existing folder")
    out = {}
    for name in names:
        stem = os.path.splitext(os.path.basename(name))[0]
        out[name] = (os.path.join(args.output, f"{stem}.fused.json") if args.output else None,
                     os.path.join(args.certificate, f"{stem}.cert.json") if args.certificate else None)
    stems = [os.path.basename(p) for pair in out.values() for p in pair if p]
    if len(stems) != len(set(stems)):
        raise InputError("--sweep: two problem files share a name; their outputs would collide")
    return out


def run_sweep(args: argparse.Namespace, options) -> int:
    """Run the sweep of ``args`` and print its table (or JSON)."""
    from ..fusion import fuse
    from ..io import atomic_write_text, canonical_json, load_problem
    from ..smt import parse_targets, parse_windows, search_certificate
    from ..smt.sweep import sweep

    if args.smtlib:
        raise InputError("--smtlib: one query only, not with --sweep")
    names = [args.problem] + list(args.more_problems)
    if len(set(names)) != len(names):
        raise InputError("--sweep: a problem file is given twice")
    outputs = _outputs(args, names)
    problems = [(name, load_problem(name)) for name in names]
    windows = parse_windows(args.window)
    targets = parse_targets(args.targets) if args.targets is not None else None
    spec = executor_spec(args)
    with ProgressBar("sweeping") as bar:
        sw = sweep(problems, windows, targets, args.timeout, options, spec=spec, progress=bar,
                   max_atoms=args.max_atoms)
    written = []
    for name, M in problems:
        fused, cert = outputs[name]
        best = sw.best_fusion(name) or fuse(M, args.max_atoms)  # as --minimize: the smallest found
        if fused:
            atomic_write_text(fused, canonical_json(best.to_problem_dict()))
            written.append(fused)
        if cert:
            atomic_write_text(cert, search_certificate(M, best, sw.refutations(name)).text)
            written.append(cert)
    if args.json:
        doc = sw.to_dict()
        doc["written"] = written
        print_json(doc)
    else:
        _print_table(sw)
        for path in written:
            print(f"  written: {path}")
    sys.stdout.flush()
    return EXIT_OK if sw.complete else EXIT_INCONCLUSIVE


def _print_table(sw) -> None:
    print(f"sweep: {len(sw.rows)} queries on {sw.executor}, {sw.elapsed_s:.1f} s")
    width = max([len("problem")] + [len(r.problem) for r in sw.rows])
    print(f"  {'problem':<{width}}  window  {'k':>5}  result   atoms  seconds")
    for r in sw.rows:
        w = str(r.window) if isinstance(r.window, int) else "points"
        secs = f"{r.search.seconds:.1f}" if r.search is not None else "-"
        atoms = str(r.atoms) if r.atoms is not None else "-"
        print(f"  {r.problem:<{width}}  {w:>6}  {r.target:>5}  {r.result:<7}  {atoms:>5}  {secs:>7}"
              + (f"  ({r.reason})" if r.result == "unknown" and r.reason else ""))
    for s in sw.summaries:
        w = f"radius {s.window}" if isinstance(s.window, int) else "an explicit window"
        parts = [f"lower bound {s.lower_bound} ({s.lower_bound_kind}), cheap fusion {s.start}"]
        if s.best is not None:
            parts.append(f"smallest verified fusion {s.best.atoms} atoms")
        if s.refutation is not None:
            parts.append(f"no fusion with at most {s.refutation.target} atoms has G in the window")
        if s.window_minimum is not None:
            parts.append(f"so {s.window_minimum} is the least in this window")
        if s.start == s.lower_bound:
            parts.append("the cheap fusion meets the lower bound: it is the minimum")
        elif s.best is not None and s.best.atoms == s.lower_bound:
            parts.append(f"{s.best.atoms} meets the lower bound: it is the minimum")
        if s.unknown:
            parts.append(f"{s.unknown} unknown")
        if s.withdrawn:
            parts.append(f"refutations withdrawn at k = {s.withdrawn}")
        print(f"{s.problem}, {w}: " + "; ".join(parts))
