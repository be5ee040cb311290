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
                         f"{proc.stderr.strip()[-300:]}")
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
    args = ap.parse_args()
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


if __name__ == "__main__":
    main()
