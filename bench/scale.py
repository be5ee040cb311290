"""Benchmark: the same work in process, on 1 Dask worker and on 2 (``bench/scale.py``).

Two jobs, each run three times through :func:`attnproof.executor.map_tasks`:

* **vertex enumeration** (THEORY Lemma 9.4): ``minkowski_vertices`` of 3 heads
  of 32 random integer points in ``R^16`` (fixed seed), every candidate tuple
  decided by an LP with an exact functional or Gordan certificate;
* **search sweep**: ``search --sweep`` on the graph sums of ``C_5`` and
  ``K_4`` in the box of radius 1, every ``k`` from the Newton lower bound up
  to one below the best cheap fusion.

For each executor it prints the wall time (a local cluster's start-up counted
separately: it is paid once per process), checks that the results are
identical to the in-process ones, and prints the speed-up of 2 workers over
in process (the target is at least 1.6x on 2 cores).  Timings on a shared
machine are noisy: quote them with the machine's load, which is printed too.

    python bench/scale.py [--only vertices|sweep] [--timeout 600] [--atoms 32] [--dim 16]
"""

from __future__ import annotations

import argparse
import os
import random
import time


def _load() -> str:
    try:
        return "load average %.1f %.1f %.1f" % os.getloadavg()
    except OSError:
        return "load average unknown"


def _heads(heads: int, atoms: int, dim: int, seed: int = 2026, bound: int = 1000):
    rng = random.Random(seed)
    return [[tuple(rng.randint(-bound, bound) for _ in range(dim)) for _ in range(atoms)]
            for _ in range(heads)]


def vertices_job(spec, args):
    from attnproof.geometry import minkowski_vertices

    mv = minkowski_vertices(_heads(3, args.atoms, args.dim), complete=True, spec=spec)
    summary = f"{mv.count} vertices of {mv.candidates} candidates, complete {mv.complete}"
    return (mv.count, mv.complete, mv.vertices, mv.non_vertices, mv.head_non_vertices), summary


def sweep_job(spec, args):
    from attnproof.families import graph_sum, named_graph
    from attnproof.search.sweep import sweep

    problems = [("C_5", graph_sum(named_graph("cycle", 5))),
                ("K_4", graph_sum(named_graph("complete", 4)))]
    sw = sweep(problems, windows=[1], timeout=args.timeout, spec=spec)
    # answers and query hashes; a sat witness is the model of whichever solver answered first
    rows = [(r.problem, r.window, r.target, r.result,
             r.search.encoding.sha256 if r.search is not None else None) for r in sw.rows]
    parts = []
    for s in sw.summaries:
        parts.append(f"{s.problem}: k {s.lower_bound}..{s.start - 1}, best "
                     f"{s.best.atoms if s.best else '-'}, refuted below "
                     f"{s.refutation.target if s.refutation else '-'}, unknown {s.unknown}")
    return rows, "; ".join(parts)


def _time(job, spec, args):
    t0 = time.perf_counter()
    out, summary = job(spec, args)
    return out, summary, time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=("vertices", "sweep"))
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per search query")
    ap.add_argument("--atoms", type=int, default=32, help="points per head (vertex enumeration)")
    ap.add_argument("--dim", type=int, default=16, help="dimension (vertex enumeration)")
    args = ap.parse_args()

    from attnproof import _dask
    from attnproof.executor import ExecutorSpec, shutdown_executors

    jobs = []
    if args.only in (None, "vertices"):
        try:
            import attnproof.geometry  # noqa: F401
            jobs.append(("vertex enumeration (3 heads x %d points in R^%d)" % (args.atoms, args.dim),
                         vertices_job))
        except ImportError:
            print("vertex enumeration: attnproof.geometry is not available yet, skipped")
    if args.only in (None, "sweep"):
        jobs.append(("search sweep (C_5 and K_4, radius 1)", sweep_job))
    print(f"{os.cpu_count()} CPUs, {_load()} (shared machine: timings are noisy)")
    failures = 0
    for title, job in jobs:
        print(f"\n{title}")
        base, summary, t_here = _time(job, None, args)
        print(f"  in process      {t_here:8.1f} s   {summary}")
        times = {}
        for n in (1, 2):
            spec = ExecutorSpec(workers=n, warmup=0)
            t0 = time.perf_counter()
            client = _dask.client_for(spec)      # start the cluster outside the timed run
            client.wait_for_workers(n, timeout=120)
            t_start = time.perf_counter() - t0
            out, summary, t = _time(job, spec, args)
            same = out == base
            failures += not same
            times[n] = t
            print(f"  {n} Dask worker{'s' if n > 1 else ' '}  {t:8.1f} s   (+{t_start:.1f} s cluster "
                  f"start-up)  identical to in process: {same}")
            shutdown_executors()
        ratio = t_here / times[2]
        print(f"  speed-up of 2 workers over in process: {ratio:.2f}x (target >= 1.6x); "
              f"over 1 worker: {times[1] / times[2]:.2f}x; {_load()}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
