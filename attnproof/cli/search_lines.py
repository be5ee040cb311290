"""``attnproof search --global``: line refutations, no window (THEORY §12)."""

from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from .common import (EXIT_INCONCLUSIVE, EXIT_NEGATIVE, EXIT_OK, print_json, query_progress,
                     spent_note, time_limits)


def run_global(args: argparse.Namespace) -> int:
    """One line query (``--atoms``) or the bisection (``--minimize``); exit codes as for windows."""
    import time

    from ..io import atomic_write_text, canonical_json, load_problem
    from ..smt import line_certificate, line_minimize
    from ..smt.line_query import line_query

    M = load_problem(args.problem)
    if M.has_bias:
        raise InputError("search: problems with biases have exp-rational coefficients, "
                         "which are outside the SMT search (THEORY §6)")
    t0 = time.perf_counter()
    if args.minimize:
        with query_progress("line refutations: query 1", "z3 and cvc5 running",
                            f", {time_limits(args)}") as (bar, label):
            asked = []

            def step(res) -> None:  # the result lists each query: the progress line alone names it
                asked.append(res)
                label.query(f"line refutations: query {len(asked) + 1} after k = "
                            f"{res.target} {res.result}", "z3 and cvc5 running")

            mr = line_minimize(M, args.timeout, max_atoms=args.max_atoms, on_step=step,
                               on_solvers=label.solvers, budget=args.time_limit)
        if args.smtlib and mr.steps:
            atomic_write_text(args.smtlib, mr.steps[-1].encoding.smtlib)
        if args.output:
            atomic_write_text(args.output, canonical_json(mr.best.to_problem_dict()))
        if args.certificate:
            atomic_write_text(args.certificate, line_certificate(M, mr.best, mr.refutation).text)
        summary = {"verdict": "unknown" if mr.stopped == "unknown" else "unsat"
                   if mr.refutation is not None else "sat", **mr.to_dict(),
                   "atoms": mr.best.atoms,
                   "elapsed_s": round(time.perf_counter() - t0, 3)}
        summary["start"] = summary.pop("start_atoms")
        if args.json:
            print_json(summary)
        else:
            print(f"lower bound {mr.lower_bound} (Newton {mr.newton}), smallest fusion found "
                  f"{mr.best.atoms} atoms ({mr.best.method}); "
                  + (f"minimum {mr.best.atoms}" if mr.minimum is not None else
                     f"stopped: {mr.stopped}"))
            _factors_line(mr.factors)
            for s in mr.steps:
                print("  " + _query_line(s))
            ref = mr.refutation
            if ref is not None:
                print(f"every fusion has at least {ref.target + 1} atoms (line refutation, z3 and "
                      f"cvc5; SMT-LIB2 sha256 {ref.encoding.sha256})")
            spent_note(args, mr.stopped, time.perf_counter() - t0)
        sys.stdout.flush()
        return EXIT_INCONCLUSIVE if mr.stopped == "unknown" else EXIT_OK
    with query_progress(f"line query: at most {args.atoms} points", "z3 and cvc5 running",
                        f", timeout {args.timeout:g} s") as (bar, label):
        res = line_query(M, args.atoms, args.timeout, on_solvers=label.solvers)
    if args.smtlib:
        atomic_write_text(args.smtlib, res.encoding.smtlib)
    if args.output and res.fusion is not None:
        atomic_write_text(args.output, canonical_json(res.fusion.to_problem_dict()))
    if args.certificate:
        if res.result != "unsat":
            raise InputError("--certificate: only a refutation is certified with --global --atoms "
                             "(use --minimize for the whole walk)")
        atomic_write_text(args.certificate, line_certificate(M, None, res).text)
    if args.json:
        doc = res.to_dict()
        doc.pop("result")
        print_json({"verdict": res.result, **doc,
                    "atoms": res.fusion.atoms if res.fusion is not None else None,
                    "elapsed_s": round(time.perf_counter() - t0, 3)})
    else:
        print(_query_line(res))
        _factors_line(res.factors)
        print(f"  SMT-LIB2 sha256 {res.encoding.sha256}")
    sys.stdout.flush()
    return {"sat": EXIT_OK, "unsat": EXIT_NEGATIVE, "unknown": EXIT_INCONCLUSIVE}[res.result]


def _query_line(res) -> str:
    solvers = ", ".join(f"{n} {r.result} ({r.seconds:.2f} s)" for n, r in res.solvers.items())
    if res.result == "unsat":
        head = (f"unsat: no set of at most {res.target} points carries a fusion's denominator: "
                f"every fusion has at least {res.target + 1} atoms")
    elif res.result == "sat":
        head = f"sat: a candidate support of {len(res.support)} points (at most {res.target} asked)"
        head += (f", completed to a verified fusion with {res.fusion.atoms} atoms"
                 if res.fusion is not None else ", not completed to a fusion")
    else:
        head = f"unknown: {res.reason}"
    return f"k = {res.target}: {head} [{solvers}]"


def _factors_line(lf) -> None:
    shown = [list(f.direction) if f.shared and f.multiplicity == 1 else
             f"(1 + {f.coefficient}·x^{list(f.direction)})^{f.multiplicity}" for f in lf.factors]
    print(f"  factors 1 + c·x^g used: {len(lf.directions)} directions "
          f"{shown}"
          + ("" if lf.exact else f"; left out (the query is a relaxation): {'; '.join(lf.dropped)}"))
