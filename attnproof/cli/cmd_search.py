"""``attnproof search``: find or refute small fusions inside a window (SMT, THEORY §6).

Argument parsing and printing: the search itself, its files and its JSON summary are
:func:`attnproof.searching.search_problem` and :func:`attnproof.searching.sweep_problems`;
the text is :mod:`attnproof.cli.search_text`.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from ..errors import InputError
from .common import (EXIT_INCONCLUSIVE, EXIT_NEGATIVE, EXIT_OK, ProgressBar, add_common,
                     add_executor_options, add_max_atoms, executor_spec, positive_int, print_json,
                     spent_note)

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

DESCRIPTION += "\n" + SWEEP_HELP


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("problem", metavar="PROBLEM", help="problem file (JSON, or YAML by extension)")
    goal = p.add_mutually_exclusive_group(required=True)
    goal.add_argument("--atoms", "-k", type=positive_int, metavar="K",
                      help="look for a fusion with at most K atoms")
    goal.add_argument("--minimize", action="store_true",
                      help="bisect K between the lower bound and the best cheap fusion")
    add_sweep_arguments(p, goal)
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


def _options(args: argparse.Namespace):
    from ..smt import SearchOptions
    opts = SearchOptions.straightforward() if args.plain else SearchOptions()
    if args.no_cross_check:
        opts = replace(opts, cross_check=False)
    return opts


def run(args: argparse.Namespace) -> int:
    from ..searching import check_limits, search_problem, sweep_problems
    from .search_text import print_searched

    check_limits(args.timeout, args.time_limit, args.minimize)
    window = "1" if args.window is None else args.window       # the box of radius 1
    if args.sweep:
        if args.global_:
            raise InputError("--sweep takes windows, not --global (line refutations run with "
                             "--global alone)")
        names = [args.problem] + list(args.more_problems)
        done = sweep_problems([(n, n) for n in names], window, args.targets,
                              timeout=args.timeout, options=_options(args),
                              spec=executor_spec(args), max_atoms=args.max_atoms,
                              output_dir=args.output, certificate_dir=args.certificate,
                              smtlib=args.smtlib, stages=ProgressBar)
    else:
        check_not_sweep(args)
        if args.global_ and (args.window is not None or args.plain or args.no_cross_check):
            raise InputError("--global takes no --window, --plain or --no-cross-check (a line "
                             "refutation always needs both solvers)")
        done = search_problem(args.problem, args.atoms, window=window,
                              minimize=args.minimize, lines=args.global_, timeout=args.timeout,
                              budget=args.time_limit, options=_options(args),
                              max_atoms=args.max_atoms, output=args.output,
                              certificate=args.certificate, smtlib=args.smtlib,
                              stages=lambda label: ProgressBar(label, heartbeat=True))
    if args.json:
        print_json(done.summary())
    else:
        print_searched(done)
        if done.kind in ("minimize", "line minimize"):
            spent_note(args, done.result.stopped, done.elapsed_s)
    sys.stdout.flush()
    if done.walk:
        return EXIT_INCONCLUSIVE if done.verdict == "unknown" else EXIT_OK
    return {"sat": EXIT_OK, "unsat": EXIT_NEGATIVE, "unknown": EXIT_INCONCLUSIVE}[done.verdict]
