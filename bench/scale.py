"""Benchmark: the same work in process, on 1 Dask worker and on 2 (``bench/scale.py``).

Two jobs, each run through :func:`attnproof.parallel.executor.map_tasks` in process,
on a local cluster of 1 worker and on one of 2:

* **vertex enumeration** (THEORY Lemma 9.4): ``minkowski_vertices`` of 3 heads
  of 32 random integer points in ``R^16`` (fixed seed): the vertex tests of
  every head's points, then every candidate tuple decided by an LP with an
  exact functional or Gordan certificate;
* **search sweep**: ``search --sweep`` on the graph sums of ``C_5`` and
  ``K_4`` in the box of radius 1, every ``k`` from the Newton lower bound up
  to one below the best cheap fusion.  A sweep runs each query's two solvers
  one after the other, whatever the executor (its parallelism is across
  queries); for reference the in-process sweep is also run with the solvers
  of each query racing on two cores, the schedule of a single ``search``.

What is timed: the job itself, on a cluster that is already running (the
``job`` column; the speed-up target, at least 1.6x for 2 workers over in
process on 2 cores, applies to it).  Starting a local cluster (its
processes, and the imports each worker does as it starts) is timed apart and
added in the ``with start-up`` column: a command pays it once, however many
jobs it runs, and a job sent to a running cluster (``--scheduler``) never
does.  Results must be identical on every executor (answers, functionals
and certificates, verified witnesses, the sweep's table without its
timings); the script exits 1 when they are not.

CPU seconds are printed next to wall seconds: this process (with its solver
subprocesses; on Dask also the scheduler, which runs here) and the workers
(with theirs).  On a shared machine wall times are noisy; the CPU seconds
show the work and the overhead.

    python bench/scale.py [--only vertices|sweep] [--timeout 600] [--atoms 32] [--dim 16]
                          [--no-racing]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import time


def _load() -> str:
    try:
        return "load average %.1f %.1f %.1f" % os.getloadavg()
    except OSError:
        return "load average unknown"


def _cpu() -> float:
    """CPU seconds of this process and its finished children (solver processes)."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def _heads(heads: int, atoms: int, dim: int, seed: int = 2026, bound: int = 1000):
    rng = random.Random(seed)
    return [[tuple(rng.randint(-bound, bound) for _ in range(dim)) for _ in range(atoms)]
            for _ in range(heads)]


def vertices_job(spec, args, racing=False):
    from attnproof.parallel.executor import mapper
    from attnproof.geometry import minkowski_vertices

    mv = minkowski_vertices(_heads(3, args.atoms, args.dim), complete=True, mapper=mapper(spec))
    summary = f"{mv.count} vertices of {mv.candidates} candidates, complete {mv.complete}"
    return (mv.count, mv.complete, mv.vertices, mv.non_vertices, mv.head_non_vertices), summary


def _sweep_table(sw) -> list:
    """The sweep's table and summaries as data, without timings (seconds, elapsed, executor)."""
    from attnproof.io import canonical_json

    rows = []
    for r in sw.rows:
        d = r.to_dict()
        d.pop("seconds", None)
        for run in d.get("solvers", {}).values():
            run.pop("seconds", None)
        d["witness"] = canonical_json(r.fusion.to_problem_dict()) if r.fusion is not None else None
        rows.append(d)
    return [rows, [s.to_dict() for s in sw.summaries]]


def _answers(table) -> list:
    """What a query answered (its result, witness and query text), not how the solvers were run."""
    return [(d["problem"], d["target"], d["result"], d["atoms"], d.get("smtlib_sha256"), d["witness"])
            for d in table[0]]


def sweep_job(spec, args, racing=False):
    from attnproof.families import graph_sum, named_graph
    from attnproof.smt.sweep import sweep

    problems = [("C_5", graph_sum(named_graph("cycle", 5))),
                ("K_4", graph_sum(named_graph("complete", 4)))]
    sw = sweep(problems, windows=[1], timeout=args.timeout, spec=spec, solvers_at_once=racing)
    parts = []
    for s in sw.summaries:
        parts.append(f"{s.problem}: k {s.lower_bound}..{s.start - 1}, best "
                     f"{s.best.atoms if s.best else '-'}, refuted below "
                     f"{s.refutation.target if s.refutation else '-'}, unknown {s.unknown}")
    return _sweep_table(sw), f"{len(sw.rows)} queries; " + "; ".join(parts)


def _time(job, spec, args, racing=False):
    c0, t0 = _cpu(), time.perf_counter()
    out, summary = job(spec, args, racing)
    return out, summary, time.perf_counter() - t0, _cpu() - c0


def _worker_cpu() -> float:
    return _cpu()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=("vertices", "sweep"))
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per search query")
    ap.add_argument("--atoms", type=int, default=32, help="points per head (vertex enumeration)")
    ap.add_argument("--dim", type=int, default=16, help="dimension (vertex enumeration)")
    ap.add_argument("--no-racing", action="store_true",
                    help="skip the reference sweep with racing solvers")
    args = ap.parse_args()

    import distributed

    from attnproof.parallel import _dask
    from attnproof.parallel.executor import ExecutorSpec, shutdown_executors

    jobs = []
    if args.only in (None, "vertices"):
        jobs.append(("vertex enumeration (3 heads x %d points in R^%d)" % (args.atoms, args.dim),
                     vertices_job))
    if args.only in (None, "sweep"):
        jobs.append(("search sweep (C_5 and K_4, radius 1)", sweep_job))
    print(f"{os.cpu_count()} CPUs, {_load()} (on a shared machine timings are noisy)")
    print("timed: each job on a running cluster ('job'); cluster start-up, worker imports included, "
          "apart ('start-up')")
    failures = 0
    for title, job in jobs:
        print(f"\n{title}")
        base, summary, t_here, cpu_here = _time(job, None, args)
        print(f"  in process   job {t_here:7.1f} s   CPU {cpu_here:6.1f} s                 {summary}")
        if job is sweep_job and not args.no_racing:
            raced, _, t_race, cpu_race = _time(job, None, args, racing=True)
            same = _answers(raced) == _answers(base)
            failures += not same
            print(f"  in process, solvers racing in each query (a single search's schedule): "
                  f"job {t_race:.1f} s   CPU {cpu_race:.1f} s   same answers: {same}")
        times = {}
        for n in (1, 2):
            spec = ExecutorSpec(workers=n, warmup=0)
            t0 = time.perf_counter()
            client = _dask.client_for(spec)      # start the cluster outside the timed job
            client.wait_for_workers(n, timeout=120)
            t_start = time.perf_counter() - t0
            w0 = client.run(_worker_cpu)
            with distributed.get_task_stream(client=client) as ts:
                out, summary, t, cpu = _time(job, spec, args)
            w1 = client.run(_worker_cpu)
            wcpu = sum(w1[w] - w0.get(w, 0.0) for w in w1)
            busy = sum(s["stop"] - s["start"] for r in ts.data for s in r["startstops"]
                       if s["action"] == "compute")
            same = out == base
            failures += not same
            times[n] = (t, t_start)
            print(f"  {n} worker{'s' if n > 1 else ' '}    job {t:7.1f} s   CPU {cpu:6.1f} s here + "
                  f"{wcpu:6.1f} s workers   start-up {t_start:4.1f} s   with start-up {t + t_start:6.1f} s   "
                  f"{len(ts.data)} tasks, workers busy {100 * busy / (n * t):3.0f}%   "
                  f"identical to in process: {same}")
            shutdown_executors()
        (t1, _), (t2, s2) = times[1], times[2]
        print(f"  speed-up of 2 workers over in process: {t_here / t2:.2f}x (target >= 1.6x); "
              f"with start-up {t_here / (t2 + s2):.2f}x; over 1 worker {t1 / t2:.2f}x")
        if job is sweep_job and not args.no_racing:
            print(f"  2 workers over in process with racing solvers: {t_race / t2:.2f}x")
        print(f"  {_load()}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
