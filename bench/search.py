"""Benchmark what a user waits for: whole ``attnproof search`` processes, cross-check included.

Question: a fusion of the graph sum W_{K_4} with at most 37 atoms (the cheap
fusion has 38, the Newton bound is 24), G in the box of radius 1 on the
sublattice sum(t) = 0 (27 exponents).  Two commands answer it, run alternately
in this one run (``--repeats`` times each, median kept, wall-clock seconds of
the whole process: start-up, encoding, solvers, verification):

* ``default``: ``attnproof search k4.json --atoms 37 --window 1`` -- every
  reduction, z3 and cvc5 at once; the answer is ``unsat`` only if both agree;
* ``plain z3``: ``attnproof search k4.json --atoms 37 --window '<the same 27
  points>' --plain --no-cross-check`` -- the straightforward encoding of
  THEORY §6 on the same window, z3 alone (it reports ``unknown`` because
  nothing re-checks z3's ``unsat``; the bench requires that z3 said ``unsat``).

With ``--larger`` it also times the default command on larger windows (K_4 and
C_4 at radius 2, K_3 at radius 8), and with ``--minimize`` the bisection
``search --minimize --window 1`` on K_4 (number of queries and time).  The
ratio plain / default is printed last.  The machine's load changes the
figures from run to run: compare the two columns of one run, not runs.

    python bench/search.py [--repeats 3] [--timeout 600] [--larger] [--minimize]

``--lines`` times the line refutations of THEORY §12 instead (no window):

* ``attnproof prove`` on K_3 and C_4 (whole processes, the line query asked by
  default: minimum 7 and 15 with both solvers) and ``check --replay`` of each certificate;
* the sound reductions of docs/lines.md one by one, on the deciding queries
  (K_3 k = 6, C_4 k = 14), z3 and cvc5 at once, each against the baseline
  ``order`` (sorted points, the least at the origin: the encoding THEORY §12
  measured) in the same run;
* with ``--lines-budget S`` (e.g. 600): C_5, C_6 and K_4, each given S seconds
  in all (queries ascend from the Newton bound, so the run ends with the best
  bound reached); the proven lower bound, the best fusion and the time spent;
* with ``--lines-incremental``: incremental solving across ``k`` against one
  query per ``k`` (K_3 k = 5, 6; C_4 k = 13, 14): the ``k``-slot queries, one
  formula with ``K`` slots (``K`` = the best fusion) and "at most ``k`` distinct
  points" asserted per ``k``, and that formula walked with push/pop in one z3.

    python bench/search.py --lines [--lines-budget 600] [--lines-incremental]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from attnproof.families import graph_sum, named_graph
from attnproof.io import dump_problem
from attnproof.smt import box_window, lineality_frame
from attnproof.fusion import reduced_form

K4 = graph_sum(named_graph("complete", 4))
LARGER = [("K_4", "complete", 4, 37, 2), ("C_4", "cycle", 4, 14, 2), ("K_3", "complete", 3, 6, 8)]


def run(args: list[str], timeout: float) -> tuple[float, dict]:
    """Wall-clock seconds of one ``attnproof`` process and its JSON output."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "attnproof", *args, "--json"], capture_output=True,
                          text=True, timeout=timeout + 60)
    seconds = time.perf_counter() - t0
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        raise SystemExit(f"attnproof {' '.join(args)} gave no JSON (exit {proc.returncode}): "
                         f"{proc.stderr.strip()[-300:]}") from None
    return seconds, doc


def median(xs: list[float]) -> float:
    """The median (upper middle for an even count)."""
    ys = sorted(xs)
    return ys[len(ys) // 2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="runs of each command (median kept)")
    ap.add_argument("--timeout", type=float, default=600, help="--timeout of every command, seconds")
    ap.add_argument("--larger", action="store_true", help="also time the default on larger windows")
    ap.add_argument("--minimize", action="store_true", help="also time search --minimize on K_4, radius 1")
    ap.add_argument("--lines", action="store_true",
                    help="time the line refutations (THEORY §12) instead of the window search")
    ap.add_argument("--lines-budget", type=float, default=0,
                    help="with --lines: seconds for each of C_5, C_6 and K_4 (0: skip them)")
    ap.add_argument("--lines-incremental", action="store_true",
                    help="with --lines: time incremental solving across k against one query per k")
    args = ap.parse_args()
    if args.lines:
        lines_bench(args)
        return
    tmp = tempfile.mkdtemp(prefix="attnproof-bench-")
    k4 = os.path.join(tmp, "k4.json")
    dump_problem(K4, k4)
    points = json.dumps([list(p) for p in box_window(lineality_frame(reduced_form(K4)), 1).points])
    to = ["--timeout", str(args.timeout)]
    default = ["search", k4, "--atoms", "37", "--window", "1", *to]
    plain = ["search", k4, "--atoms", "37", "--window", points, "--plain", "--no-cross-check", *to]
    print(f"K_4, k = 37, G in the radius-1 box of sum(t) = 0 (27 exponents); whole processes, "
          f"wall-clock seconds, {args.repeats} runs each, alternating; {os.cpu_count()} CPUs")
    times: dict[str, list[float]] = {"default": [], "plain z3": []}
    for i in range(args.repeats):
        t, doc = run(default, args.timeout)
        if doc.get("verdict") != "unsat":
            raise SystemExit(f"default: expected unsat, got {doc.get('verdict')} ({doc.get('reason')})")
        solvers = ", ".join(f"{n} {v['seconds']:.2f} s" for n, v in doc["solvers"].items())
        times["default"].append(t)
        print(f"  run {i + 1}: default  {t:7.2f} s  unsat, cross-checked ({solvers})", flush=True)
        t, doc = run(plain, args.timeout)
        z = doc["solvers"]["z3"]
        if z["result"] != "unsat":
            raise SystemExit(f"plain z3: expected z3 unsat, got {z['result']} ({z.get('reason')})")
        times["plain z3"].append(t)
        print(f"  run {i + 1}: plain z3 {t:7.2f} s  z3 unsat, not cross-checked "
              f"(z3 {z['seconds']:.2f} s)", flush=True)
    if args.larger:
        print("larger windows, default command (one run each):")
        for name, graph, n, k, radius in LARGER:
            path = os.path.join(tmp, f"{graph}{n}.json")
            dump_problem(graph_sum(named_graph(graph, n)), path)
            t, doc = run(["search", path, "--atoms", str(k), "--window", str(radius), *to], args.timeout)
            solvers = ", ".join(f"{s} {v['result']} {v['seconds']:.2f} s" for s, v in doc["solvers"].items())
            print(f"  {name}, k = {k}, radius {radius} ({doc['window_points']} exponents): "
                  f"{doc['verdict']} in {t:.1f} s ({solvers})", flush=True)
    if args.minimize:
        t, doc = run(["search", k4, "--minimize", "--window", "1", *to], args.timeout)
        steps = ", ".join(f"k={q['k']} {q['answer']} {q['seconds']:.1f} s" for q in doc["queries"])
        print(f"search --minimize --window 1 on K_4: {len(doc['queries'])} queries in {t:.1f} s "
              f"({steps}); smallest {doc['atoms']}, stopped: {doc['stopped']}")
    a, b = median(times["default"]), median(times["plain z3"])
    print(f"medians: default {a:.2f} s, plain z3 {b:.2f} s")
    print(f"ratio plain z3 / default (whole processes, cross-check included): {b / a:.2f}x")


ABLATION = [("order", ("order",)), ("order+parity", ("order", "parity")),
            ("order+faces", ("order", "faces")),
            ("order+parity+faces", ("order", "parity", "faces")),
            ("all (+symmetry)", ("order", "parity", "faces", "symmetry"))]


def lines_bench(args) -> None:
    """The line-refutation figures of docs/search.md and docs/lines.md."""
    from attnproof.smt.line_query import line_minimize
    from attnproof.smt.lines import encode_lines, line_factors
    from attnproof.smt.solvers import run_solvers

    tmp = tempfile.mkdtemp(prefix="attnproof-bench-")
    print(f"line refutations (THEORY §12), {os.cpu_count()} CPUs; wall-clock seconds")
    for name, graph, n in (("K_3", "complete", 3), ("C_4", "cycle", 4)):
        path = os.path.join(tmp, f"{graph}{n}.json")
        dump_problem(graph_sum(named_graph(graph, n)), path)
        cert = os.path.join(tmp, f"{graph}{n}.cert.json")
        t, doc = run(["prove", path, "-o", cert, "--lines-timeout", str(args.timeout)],
                     args.timeout)
        t2, chk = run(["check", cert, "--replay", "--replay-timeout", str(args.timeout)],
                      args.timeout)
        print(f"  prove {name}: lower {doc.get('lower_bound')}, upper "
              f"{doc.get('upper_bound')}, minimum {doc.get('minimum')}, trust {doc.get('trust')} "
              f"in {t:.1f} s; check --replay: {chk.get('verdict')} in {t2:.1f} s", flush=True)
    print("reductions on the deciding query (z3 and cvc5 at once; ratio = baseline / this):")
    for name, graph, n, k in (("K_3", "complete", 3, 6), ("C_4", "cycle", 4, 14)):
        dirs = line_factors(reduced_form(graph_sum(named_graph(graph, n)))).directions
        base = None
        for label, opts in ABLATION:
            enc = encode_lines(dirs, k, opts)
            t0 = time.perf_counter()
            runs = run_solvers(("z3", "cvc5"), enc.smtlib, args.timeout)
            t = time.perf_counter() - t0
            ans = "/".join(r.result for r in runs.values())
            if base is None:
                base = t
            each = ", ".join(f"{s} {r.seconds:.1f} s" for s, r in runs.items())
            print(f"  {name} k = {k}, {label:<20} {ans:<13} {t:7.1f} s ({each}; "
                  f"{enc.stats['bytes']} bytes)  ratio {base / t:.2f}x", flush=True)
    if args.lines_incremental:
        incremental_bench(args.timeout)
    if args.lines_budget > 0:
        print(f"long runs: each graph gets {args.lines_budget:g} s in all, queries ascending:")
        for name, graph, n in (("C_5", "cycle", 5), ("C_6", "cycle", 6), ("K_4", "complete", 4)):
            M = graph_sum(named_graph(graph, n))

            def step(res, name=name) -> None:
                print(f"    {name} k = {res.target}: {res.result} [{res.seconds:.1f} s]"
                      + (f" ({res.reason[:120]})" if res.reason else ""), flush=True)

            mr = line_minimize(M, timeout=args.lines_budget, budget=args.lines_budget,
                               on_step=step, strategy="ascend")
            told = (f"proven minimum {mr.best.atoms}" if mr.minimum is not None else
                    f"lower bound {mr.lower_bound}, upper bound {mr.best.atoms}")
            print(f"  {name}: {told} (Newton {mr.newton}; stopped: {mr.stopped}) after "
                  f"{mr.seconds:.0f} s", flush=True)


def incremental_bench(timeout: float) -> None:
    """Incremental solving across ``k`` (push/pop in one z3) against one query per ``k``."""
    import z3

    from attnproof.smt.lines import encode_lines, line_factors
    from attnproof.smt.solvers import run_solvers

    print("incremental across k (z3 and cvc5 in their own processes unless said; seconds):")
    for name, graph, n, ks, K in (("K_3", "complete", 3, (5, 6), 7), ("C_4", "cycle", 4, (13, 14), 15)):
        dirs = line_factors(reduced_form(graph_sum(named_graph(graph, n)))).directions
        each = 0.0
        for k in ks:
            runs = run_solvers(("z3", "cvc5"), encode_lines(dirs, k).smtlib, timeout)
            each += runs["z3"].seconds
            print(f"  {name} k = {k}, {k} slots: " + ", ".join(
                f"{s} {r.result} {r.seconds:.1f}" for s, r in runs.items()), flush=True)
        big = encode_lines(dirs, K).smtlib.replace("(check-sat)\n", "")
        flags = " ".join(f"(ite n_{i} 1 0)" for i in range(1, K))
        for k in ks:
            text = big + f"(assert (<= (+ 1 {flags}) {k}))\n(check-sat)\n"
            runs = run_solvers(("z3", "cvc5"), text, timeout)
            print(f"  {name} k = {k}, {K} slots and at most {k} distinct points: " + ", ".join(
                f"{s} {r.result} {r.seconds:.1f}" for s, r in runs.items()), flush=True)
        solver = z3.Solver()
        solver.set("timeout", int(timeout * 1000))
        solver.from_string(big)
        t0 = time.perf_counter()
        for k in ks:
            solver.push()
            solver.add(z3.Sum([z3.If(z3.Bool(f"n_{i}"), 1, 0) for i in range(1, K)]) + 1 <= k)
            t1 = time.perf_counter()
            ans = solver.check()
            print(f"  {name} k = {k}, incremental z3 (push/pop): {ans} {time.perf_counter() - t1:.1f}",
                  flush=True)
            solver.pop()
        walk = time.perf_counter() - t0
        print(f"  {name}: z3 walk incremental {walk:.1f} s against {each:.1f} s one query per k "
              f"(ratio {each / walk:.2f}x)", flush=True)


if __name__ == "__main__":
    main()
