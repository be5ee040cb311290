"""``attnproof search``: find or refute small fusions inside a window (SMT, THEORY §6)."""

from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from .common import (EXIT_INCONCLUSIVE, EXIT_NEGATIVE, EXIT_OK, add_common, add_max_atoms,
                     positive_int, print_json, query_progress, spent_note, time_limits)

NAME = "search"
HELP = "search a window for a smaller single-head fusion (z3 and cvc5 at once)"
DESCRIPTION = """\
Ask whether PROBLEM has an exact single-head fusion with at most K atoms whose
multiplier G (D = Q*G, N = P*G, THEORY Theorem 2) has its exponents in a
finite window W.  z3 and cvc5 run at once on the same SMT-LIB2 text (its
SHA-256 is printed), each in its own process; a sat model is rebuilt as an
exact head and verified before it is reported; an unsat answer is reported
only when both solvers agree.

  sat      a verified fusion with at most K atoms (exit 0; -o writes it)
  unsat    no fusion with at most K atoms whose G lies in W (exit 1).  This is
           about the window only: it is not a lower bound.
  unknown  timeout, solver failure or disagreement (exit 2); never a refutation

The window is a box of radius R (--window R) or an explicit JSON list of
exponent vectors of G (--window '[[0,0],[1,0]]').  For a homogeneous problem
(graph sums are invariant under q -> q + t*1) the box lives in the free
coordinates of the sublattice where G may be assumed to live; the output names
them.  Symmetries that map the window onto itself and the translations of G
are broken soundly, and the level-parity constraints of the binomial factors
of Q (THEORY Lemma 11.1) are added.  Problems with logit biases are refused (exp-rational
coefficients are outside this search).

--minimize bisects K between the Newton lower bound and the best cheap fusion
('attnproof fuse'): an unsat K refutes every smaller K in the window, a sat K
gives a verified witness (possibly smaller than K).  It ends when the two
meet (exit 0; the witness is the smallest with G in the window, or meets the
bound), or when a query is inconclusive (exit 2); --timeout applies to each
query, --time-limit to the whole walk; the progress line on stderr names the
last query's K and answer, and the result lists every query once.

--global drops the window: for the factors 1 + x^g of the reduced denominator
(graph sums, sigmoid sums) it asks whether any set of at most K lattice points
can carry a fusion's denominator (THEORY §12, Corollary 12.2).  unsat (z3 and
cvc5) is then a lower bound K+1 for EVERY fusion; sat gives a candidate
support, completed to a verified fusion when one lives on it.  With
--minimize it bisects K between the Newton bound and the best fusion.

examples:
  attnproof search c4.json --atoms 14 --window 1
  attnproof search c4.json --atoms 15 --window 1 -o c4_fused.json --json
  attnproof search k3.json --minimize --window 2 --timeout 60
  attnproof search k3.json --minimize --global --certificate k3.cert.json
"""

# --- sweep (attnproof.cli.search_sweep) ---
from .search_sweep import SWEEP_HELP as _SWEEP_HELP  # noqa: E402

DESCRIPTION += "\n" + _SWEEP_HELP
# --- end sweep ---


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("problem", metavar="PROBLEM", help="problem file (JSON, or YAML by extension)")
    goal = p.add_mutually_exclusive_group(required=True)
    goal.add_argument("--atoms", "-k", type=positive_int, metavar="K",
                      help="look for a fusion with at most K atoms")
    goal.add_argument("--minimize", action="store_true",
                      help="bisect K between the lower bound and the best cheap fusion")
    # --- sweep ---
    from .search_sweep import add_sweep_arguments
    add_sweep_arguments(p, goal)
    # --- end sweep ---
    p.add_argument("--window", "-w", metavar="W",
                   help="box radius R (an integer) or a JSON list of exponent vectors of G "
                        "(default 1, the box of radius 1: the smallest window that lets G move; "
                        "larger windows answer more and cost more; not with --global)")
    p.add_argument("--global", dest="global_", action="store_true",
                   help="no window: line refutations (THEORY §12) on the factors 1 + x^g of Q; "
                        "an unsat K is a lower bound K+1 for every fusion")
    p.add_argument("--timeout", type=float, default=600.0, metavar="S",
                   help="seconds per query, both solvers together; past it the query is "
                        "'unknown' (default 600)")
    p.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="with --minimize: seconds for the whole walk; past it the walk stops "
                        "with what it proved so far, exit 2 (default: no limit but --timeout "
                        "per query)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the verified fused head as a one-head problem file (a sat answer; "
                        "with --minimize, the smallest fusion found)")
    p.add_argument("--certificate", metavar="CERT",
                   help="write a certificate: proven bounds, the verified witness as upper bound, "
                        "and any window refutation (trust window-refuted)")
    p.add_argument("--smtlib", metavar="FILE",
                   help="write the SMT-LIB2 text of the (last) query")
    p.add_argument("--plain", action="store_true",
                   help="the straightforward encoding: no lineality removal, no symmetry breaking, "
                        "no translation bounds, arithmetic cardinality (for comparison)")
    p.add_argument("--no-cross-check", action="store_true",
                   help="run z3 only (an unsat answer is then reported as 'unknown')")
    add_max_atoms(p)
    add_common(p)


def _check_output_paths(args: argparse.Namespace) -> None:
    import os

    for flag, path in (("-o", args.output), ("--certificate", args.certificate), ("--smtlib", args.smtlib)):
        if path:
            folder = os.path.dirname(path) or "."
            if not os.path.isdir(folder):
                raise InputError(f"{flag} {path}: folder {folder} does not exist")


def _options(args: argparse.Namespace):
    from ..smt import SearchOptions
    opts = SearchOptions.straightforward() if args.plain else SearchOptions()
    if args.no_cross_check:
        from dataclasses import replace
        opts = replace(opts, cross_check=False)
    return opts


def _describe_window(res) -> str:
    w = res.window
    if w.kind == "box":
        where = f"box of radius {w.radius} in coordinates {list(w.coordinates)}"
        if res.frame.homogeneous:
            where += (f" (lineality {res.frame.to_dict()['lineality']} removed: coordinates "
                      f"{list(res.frame.dependent)} follow)")
    else:
        where = "explicit window"
    return f"{where}, {len(w)} exponents for G"


def run(args: argparse.Namespace) -> int:
    from ..io import load_problem
    from ..smt import parse_window

    if not (args.timeout > 0) or args.timeout > 86400:
        raise InputError(f"--timeout {args.timeout}: give seconds between 0 and 86400")
    limit = getattr(args, "time_limit", None)
    if limit is not None and (not (0 < limit <= 86400) or not args.minimize):
        raise InputError(f"--time-limit {limit:g}: give seconds between 0 and 86400, with --minimize"
                         if args.minimize else "--time-limit goes with --minimize (one query has "
                         "--timeout)")
    # --- sweep ---
    from .search_sweep import check_not_sweep, run_sweep
    if args.sweep:
        if args.global_:
            raise InputError("--sweep takes windows, not --global (line refutations run with "
                             "--global alone)")
        if args.window is None:
            args.window = "1"
        return run_sweep(args, _options(args))
    check_not_sweep(args)
    # --- end sweep ---
    _check_output_paths(args)
    if args.global_:
        if args.window is not None or args.plain or args.no_cross_check:
            raise InputError("--global takes no --window, --plain or --no-cross-check (a line "
                             "refutation always needs both solvers)")
        from .search_lines import run_global
        return run_global(args)
    if args.window is None:
        args.window = "1"                  # the box of radius 1
    M = load_problem(args.problem)
    if M.has_bias:
        raise InputError("search: problems with biases have exp-rational coefficients, "
                         "which are outside the SMT search (THEORY §6)")
    window = parse_window(args.window)
    opts = _options(args)
    if args.minimize:
        return _run_minimize(args, M, window, opts)
    return _run_query(args, M, window, opts)


def _run_minimize(args: argparse.Namespace, M, window, opts) -> int:
    """``--minimize``: queries for fewer and fewer atoms until refuted, met or inconclusive."""
    import time

    from ..api import search
    from ..io import atomic_write_text, canonical_json
    from ..smt import search_certificate

    t0 = time.perf_counter()
    solvers = "z3" if args.no_cross_check else "z3 and cvc5"
    with query_progress("minimizing: query 1", f"{solvers} running",
                        f", {time_limits(args)}") as (bar, label):
        asked = []

        def step(res) -> None:      # the result lists each query: the progress line alone names it
            asked.append(res)
            refuted = [r.target for r in asked if r.result == "unsat"]
            found = [r.atoms for r in asked if r.result == "sat" and r.atoms]
            known = "; ".join(([f"no fusion with <= {max(refuted)} atoms in the window"]
                               if refuted else [])
                              + ([f"a fusion with {min(found)}"] if found else []))
            label.query(f"minimizing: query {len(asked) + 1} after k = {res.target} "
                        f"{res.result}{'; ' + known if known else ''}", f"{solvers} running")

        mr = search(M, window=window, minimize=True, timeout=args.timeout, options=opts,
                    progress=bar, max_atoms=args.max_atoms, on_step=step,
                    on_solvers=label.solvers, budget=args.time_limit)
    last = mr.steps[-1] if mr.steps else None
    if args.smtlib and last is not None:
        atomic_write_text(args.smtlib, last.encoding.smtlib)
    if args.output:
        atomic_write_text(args.output, canonical_json(mr.best.to_problem_dict()))
    ref = mr.refutation
    if args.certificate:
        cert = search_certificate(M, mr.best, [ref] if ref is not None else [])
        atomic_write_text(args.certificate, cert.text)
    if args.json:
        summary = mr.to_dict()
        summary["verdict"] = {"refuted": "unsat", "bound": "sat", "unknown": "unknown"}[mr.stopped]
        summary["atoms"] = summary.pop("best_atoms")
        summary["method"] = summary.pop("best_method")
        summary["start"] = summary.pop("start_atoms")
        summary["minimum"] = mr.best.atoms if mr.stopped == "bound" else None
        for s in summary["steps"]:
            s["verdict"] = s.pop("result")
        summary["window"] = last.window.to_dict() if last is not None else None
        summary["elapsed_s"] = round(time.perf_counter() - t0, 3)
        print_json(summary)
    else:
        _print_minimize(mr, ref)
        spent_note(args, mr.stopped, time.perf_counter() - t0)
    sys.stdout.flush()
    return {"refuted": EXIT_OK, "bound": EXIT_OK, "unknown": EXIT_INCONCLUSIVE}[mr.stopped]


def _print_minimize(mr, ref) -> None:
    print(f"smallest fusion found: {mr.best.atoms} atoms "
          f"({'search witness, verified' if mr.best.method == 'search' else mr.best.method + ' fusion'}); "
          f"started from {mr.start}; lower bound {mr.lower_bound} ({mr.lower_bound_kind})")
    for s in mr.steps:
        print(f"  k = {s.target}: {s.result}" + (f", {s.atoms} atoms" if s.atoms else "")
              + (f" ({s.reason})" if s.reason else "") + f" [{s.seconds:.1f} s]")
    if mr.stopped == "refuted":
        print(f"every fusion with at most {ref.target} atoms is refuted for G in the "
              f"{_describe_window(ref)} (z3 and cvc5; SMT-LIB2 sha256 {ref.encoding.sha256})")
    elif mr.stopped == "bound":
        print(f"the fusion meets the lower bound: {mr.best.atoms} atoms is the minimum")
    else:
        print("stopped: the last query was inconclusive")


def _run_query(args: argparse.Namespace, M, window, opts) -> int:
    """One query: is there a fusion with at most ``--atoms`` atoms whose G lies in the window?"""
    from ..api import search
    from ..io import atomic_write_text, canonical_json
    from ..smt import search_certificate

    solvers = "z3" if args.no_cross_check else "z3 and cvc5"
    with query_progress(f"SMT query: at most {args.atoms} atoms", f"{solvers} running",
                        f", timeout {args.timeout:g} s") as (bar, label):
        res = search(M, args.atoms, window=window, timeout=args.timeout, options=opts,
                     max_atoms=args.max_atoms, on_solvers=label.solvers)
    if args.smtlib:
        atomic_write_text(args.smtlib, res.encoding.smtlib)
    if res.result == "sat" and res.fusion is not None and args.output:
        atomic_write_text(args.output, canonical_json(res.fusion.to_problem_dict()))
    if args.certificate:
        if res.result == "unknown":
            raise InputError("--certificate: the query was inconclusive, there is nothing to certify")
        cert = search_certificate(M, res.fusion, [res] if res.result == "unsat" else [])
        atomic_write_text(args.certificate, cert.text)
    if args.json:
        summary = res.to_dict()
        summary["verdict"] = summary.pop("result")
        summary["output"] = args.output if res.result == "sat" else None
        summary["certificate"] = args.certificate if res.result != "unknown" else None
        print_json(summary)
    else:
        _print_query(args, res)
    sys.stdout.flush()
    return {"sat": EXIT_OK, "unsat": EXIT_NEGATIVE, "unknown": EXIT_INCONCLUSIVE}[res.result]


def _print_query(args: argparse.Namespace, res) -> None:
    solvers = ", ".join(f"{n} {r.result} ({r.seconds:.2f} s)" for n, r in res.solvers.items())
    if res.result == "sat":
        print(f"sat: a fusion with {res.atoms} atoms (at most {res.target} asked), "
              f"verified exactly")
    elif res.result == "unsat":
        print(f"unsat: no fusion with at most {res.target} atoms whose G lies in the window "
              f"(a windowed refutation, not a lower bound)")
    else:
        print(f"unknown: {res.reason}")
    print(f"  window: {_describe_window(res)}")
    print(f"  solvers: {solvers}; SMT-LIB2 sha256 {res.encoding.sha256}")
    if res.symmetry_group > 1:
        print(f"  symmetry group of order {res.symmetry_group} broken by lex-leader constraints")
    if res.encoding.stats.get("numerators") is False:
        print("  query: denominator-only (no constraint on N = P*G: a relaxation, so its "
              "unsat refutes fusions too)")
    if res.result == "sat" and args.output:
        print(f"  witness written to {args.output}")
    if args.certificate and res.result != "unknown":
        print(f"  certificate written to {args.certificate}")
