"""Benchmark: the reduced SMT encoding against the straightforward one, on K_4.

Query: a fusion of the graph sum W_{K_4} with at most 37 atoms (the cheap fusion
has 38, the Newton bound is 24) and G in a box of radius 1.  Measured in this
run, z3 time per configuration on the same SMT-LIB2 text with a few random
seeds, median kept (z3's time varies by 2x with the seed; the cvc5 cross-check
is timed separately):

* ``plain, full box``: THEORY §6 as written: no lineality removal (G in
  [-1,1]^4, 81 exponents), no symmetry breaking, no translation bounds,
  arithmetic cardinality ``Σ ite(s,1,0) ≤ k``;
* ``plain, dehomogenized``: the same, with G on the sublattice sum(t) = 0
  (free coordinates [-1,1]^3, 27 exponents): THEORY's "window [-1,1]^3";
* each reduction alone on the dehomogenized window, then all together (the default).

Ratios are against ``plain, dehomogenized`` (same window, so the same claim)
and against ``plain, full box`` (a larger window, so a stronger claim: the
ratio understates the gain).  With ``--minimize S`` it also runs
``attnproof search --minimize`` on K_4 with radius 2 for at most S seconds
and reports how far it got.

    python bench/search.py [--seeds 3] [--timeout 300] [--skip-full] [--minimize 600] [--only-minimize]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

from attnproof.families import graph_sum, named_graph
from attnproof.fusion import fuse
from attnproof.search import SearchOptions, build_query, run_solver, search_fusion
from attnproof.search.query import newton_lower_bound

K4 = graph_sum(named_graph("complete", 4))
PLAIN = SearchOptions.straightforward()
DEHOM = replace(PLAIN, lineality=True)
CONFIGS = [
    ("plain, full box", PLAIN),
    ("plain, dehomogenized", DEHOM),
    ("+ counter cardinality", replace(DEHOM, cardinality="counter")),
    ("+ symmetry breaking", replace(DEHOM, symmetry=True)),
    ("+ translation bounds", replace(DEHOM, centering=True)),
    ("all (default)", SearchOptions()),
]


def z3_times(options: SearchOptions, k: int, radius: int, timeout: float, seeds: int):
    """z3 times on the same SMT-LIB2 text with random seeds 0..seeds-1 (None: timed out)."""
    _, _, enc, group = build_query(K4, k, radius, options)
    out = []
    for seed in range(seeds):
        z = run_solver("z3", enc.smtlib, timeout, seed=seed)
        if z.result == "sat":
            raise SystemExit(f"unexpected sat for k = {k}")
        out.append(z.seconds if z.result == "unsat" else None)
    return out, enc, group


def median(xs):
    """Median of the times, a timeout counting as infinite."""
    ys = sorted(float("inf") if x is None else x for x in xs)
    return ys[len(ys) // 2]


def minimize_for(seconds: float, radius: int) -> None:
    """Walk k down on K_4 with a total time budget; print every step."""
    t0 = time.perf_counter()
    best = fuse(K4)
    low, kind = newton_lower_bound(K4)
    print(f"\n--minimize on K_4, radius {radius}, budget {seconds:.0f} s: start {best.atoms} atoms, "
          f"lower bound {low} ({kind})")
    atoms = best.atoms
    while atoms > low:
        left = seconds - (time.perf_counter() - t0)
        if left < 1:
            print("  budget spent")
            break
        res = search_fusion(K4, atoms - 1, radius, left)
        z = res.solvers["z3"]
        print(f"  k = {atoms - 1}: {res.result}" + (f" ({res.atoms} atoms)" if res.atoms else "")
              + f"  z3 {z.seconds:.1f} s" + (f", {res.reason}" if res.reason else "")
              + f"  [{time.perf_counter() - t0:.0f} s total]", flush=True)
        if res.result != "sat":
            break
        atoms = res.atoms
    print(f"  smallest found: {atoms} atoms in {time.perf_counter() - t0:.0f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3, help="z3 random seeds per configuration (median kept)")
    ap.add_argument("--timeout", type=float, default=300, help="z3 limit per run, seconds")
    ap.add_argument("--skip-full", action="store_true", help="skip the 81-exponent full-box baseline")
    ap.add_argument("--minimize", type=float, default=0, metavar="S",
                    help="also run the walk down on K_4 with radius 2 for S seconds")
    ap.add_argument("--only-minimize", action="store_true", help="skip the encoding comparison")
    args = ap.parse_args()
    if args.only_minimize:
        minimize_for(args.minimize or 600, 2)
        return
    k, radius = 37, 1
    print(f"K_4, k = {k}, box radius {radius}; z3 seconds, median of seeds 0..{args.seeds - 1} "
          f"(each run); limit {args.timeout:.0f} s")
    times = {}
    for name, opts in CONFIGS:
        if args.skip_full and name == "plain, full box":
            continue
        ts, enc, group = z3_times(opts, k, radius, args.timeout, args.seeds)
        times[name] = median(ts)
        st = enc.stats
        each = " ".join(f"{t:.1f}" if t is not None else "timeout" for t in ts)
        print(f"  {name:24s} {times[name]:8.2f} s  ({each})  window {st['window_points']:3d}, "
              f"targets {st['targets']:4d}, symmetries {group}, centering clauses "
              f"{st['centering_clauses']}", flush=True)
    mine = times["all (default)"]
    for base in ("plain, dehomogenized", "plain, full box"):
        if base in times:
            print(f"ratio {base} / all (medians): {times[base] / mine:.1f}x")
    full = search_fusion(K4, k, radius, args.timeout)
    print(f"default with the cvc5 cross-check: {full.result}, z3 {full.solvers['z3'].seconds:.2f} s, "
          f"cvc5 {full.solvers['cvc5'].seconds if 'cvc5' in full.solvers else float('nan'):.2f} s")
    if args.minimize:
        minimize_for(args.minimize, 2)


if __name__ == "__main__":
    main()
