"""Benchmark: the reduced form of W_d with FLINT against SymPy's together + cancel.

Prints, for d = 6..10, the time of ``attnproof.reduced_form(W_d)`` and of SymPy's
``cancel(together(Σ σ_j))`` on the same expression, with their ratio; then the
whole-process time of ``attnproof fuse`` on W_16 (65536 atoms, output written)
against SymPy's cancel of W_10 alone, each the median of ``--fuse-runs`` runs taken
in turn (so that a burst of load on a shared machine falls on both sides).  Both
sides are measured in this run; the ratio is SymPy's time over fuse's (above 1: fuse
is faster).  The fuse processes run as an installed command runs, with its modules'
bytecode cached (``PYTHONDONTWRITEBYTECODE`` is dropped for them and one run before the
timed ones writes the cache): compiling the package's sources again in every process
is not part of the job.

    python bench/kernel.py [--max-d 10] [--repeat 3] [--fuse-runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import sympy

from attnproof.families import sigmoid_sum
from attnproof.fusion import reduced_form


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def sympy_cancel(d: int):
    """``cancel(together(W_d))``, from a cleared SymPy cache (SymPy caches its results, so a
    repeat in the same process would time a look-up)."""
    sympy.core.cache.clear_cache()
    xs = sympy.symbols(f"x1:{d + 1}", positive=True)
    expr = sum(x / (1 + x) for x in xs)
    return sympy.cancel(sympy.together(expr))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max-d", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--fuse-runs", type=int, default=3)
    args = ap.parse_args()

    print(f"{'d':>3} {'flint (s)':>12} {'sympy (s)':>12} {'ratio':>10}")
    for d in range(6, args.max_d + 1):
        M = sigmoid_sum(d)
        t_flint = best_of(lambda: reduced_form(M), max(args.repeat, 5))
        t_sympy = best_of(lambda: sympy_cancel(d), 1 if d >= 9 else args.repeat)
        # the two results agree: same denominator (product of 1 + x_j), same numerator
        r = reduced_form(M)
        num, den = sympy.fraction(sympy_cancel(d)) if d <= 8 else (None, None)
        if den is not None:
            xs = sympy.symbols(f"x1:{d + 1}", positive=True)
            assert sympy.expand(den - sympy.prod([1 + x for x in xs])) == 0
            assert len(r.Q) == 2 ** d
        print(f"{d:>3} {t_flint:>12.6f} {t_sympy:>12.3f} {t_sympy / t_flint:>10.0f}")

    with tempfile.TemporaryDirectory() as tmp:
        prob = os.path.join(tmp, "w16.json")
        out = os.path.join(tmp, "fused.json")
        exe = [sys.executable, "-m", "attnproof.cli"]
        subprocess.run(exe + ["family", "sigmoid-sum", "--d", "16", "-o", prob], check=True)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        fuse = exe + ["fuse", prob, "-o", out]
        subprocess.run(fuse, check=True, stdout=subprocess.DEVNULL, env=env)    # bytecode cached
        fuse_times, sympy_times = [], []
        for _ in range(max(args.fuse_runs, 1)):
            t = time.perf_counter()
            subprocess.run(fuse, check=True, stdout=subprocess.DEVNULL, env=env)
            fuse_times.append(time.perf_counter() - t)
            sympy_times.append(best_of(lambda: sympy_cancel(args.max_d), 1))
        t_fuse = statistics.median(fuse_times)
        t_sympy = statistics.median(sympy_times)
        size = os.path.getsize(out)
    print(f"whole-process 'attnproof fuse' on W_16 (65536 atoms, {size} bytes written): "
          f"median {t_fuse:.2f} s of {len(fuse_times)} runs")
    print(f"SymPy cancel of W_{args.max_d} alone: median {t_sympy:.2f} s of {len(sympy_times)} runs")
    print(f"ratio {t_sympy / t_fuse:.2f} (above 1: fuse of W_16 is faster)")


if __name__ == "__main__":
    main()
