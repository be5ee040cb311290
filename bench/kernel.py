"""Benchmark: the reduced form of W_d with FLINT against SymPy's together + cancel.

Prints, for d = 6..10, the time of ``attnproof.reduced_form(W_d)`` and of SymPy's
``cancel(together(Σ σ_j))`` on the same expression, with their ratio; then the
whole-process time of ``attnproof fuse`` on W_16 (65536 atoms, output written)
against SymPy's cancel of W_10 alone.  Both sides are measured in this run.

    python bench/kernel.py [--max-d 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
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
    xs = sympy.symbols(f"x1:{d + 1}", positive=True)
    expr = sum(x / (1 + x) for x in xs)
    return sympy.cancel(sympy.together(expr))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max-d", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    print(f"{'d':>3} {'flint (s)':>12} {'sympy (s)':>12} {'ratio':>10}")
    sympy_last = None
    for d in range(6, args.max_d + 1):
        M = sigmoid_sum(d)
        t_flint = best_of(lambda: reduced_form(M), max(args.repeat, 5))
        t_sympy = best_of(lambda: sympy_cancel(d), 1 if d >= 9 else args.repeat)
        sympy_last = t_sympy
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
        t = time.perf_counter()
        subprocess.run(exe + ["fuse", prob, "-o", out], check=True, stdout=subprocess.DEVNULL)
        t_fuse = time.perf_counter() - t
        size = os.path.getsize(out)
    print(f"whole-process 'attnproof fuse' on W_16 (65536 atoms, {size} bytes written): {t_fuse:.2f} s")
    print(f"SymPy cancel of W_{args.max_d} alone: {sympy_last:.2f} s")
    print(f"ratio {sympy_last / t_fuse:.2f}")


if __name__ == "__main__":
    main()
