"""Benchmark: proving and checking float32 heads at the sizes of a real layer (THEORY §9).

    python bench/real_heads.py [--seed 11] [--only NAME,...]

Keys, biases and values are float32 samples taken at their exact binary values
(``MultiHead.from_arrays``); the exponent lattice then has exponents of about
30 bits, out of reach of polynomial algebra, so the geometric path runs:

* ``2x64_R64``: 2 heads x 64 atoms in R^64 (two 63-simplices; the Minkowski
  vertices are decided by Lemma 9.4);
* ``2x40_R96``: 2 heads x 40 atoms in independent 39-dimensional subspaces of
  R^96 (a direct sum, Lemma 9.5: the minimum is exactly 1600);
* ``3x32_R16``: 3 heads x 32 atoms in R^16 (overlapping: the LP of 9.4 runs,
  pruned head by head).

For each: the time to build the certificate (prove), the time of the
independent checker (check), the counts it proves, the certificate size, and
both times as ratios to W_1000 (sigmoid sum, the structural baseline of
bench/bounds.py) measured in the same run.  Targets on 2 cores: the first two
under 30 s to prove and to check, the third under 5 minutes.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from attnproof.certificate import build_certificate
from attnproof.checker import check_text
from attnproof.families import sigmoid_sum
from attnproof.heads import MultiHead

CASES = {
    "2x64_R64": (2, 64, 64, None),
    "2x40_R96": (2, 40, 96, 39),
    "3x32_R16": (3, 32, 16, None),
}


def problem(heads: int, atoms: int, dim: int, sub: int | None, seed: int) -> MultiHead:
    """float32 heads; with ``sub``, head ``h``'s keys span a random ``sub``-dimensional subspace."""
    rng = np.random.default_rng(seed)
    keys, values, biases = [], [], []
    for _ in range(heads):
        if sub is None:
            K = rng.standard_normal((atoms, dim))
        else:
            K = rng.standard_normal((atoms, sub)) @ rng.standard_normal((sub, dim))
        keys.append(K.astype(np.float32))
        values.append(rng.standard_normal(atoms).astype(np.float32))
        biases.append(rng.standard_normal(atoms).astype(np.float32))
    return MultiHead.from_arrays(keys, values, biases)


def measure(M: MultiHead) -> dict:
    t0 = time.perf_counter()
    cert = build_certificate(M, max_atoms=None)
    text = cert.text
    t1 = time.perf_counter()
    v = check_text(text)
    t2 = time.perf_counter()
    if v.code != 0:
        raise SystemExit(f"the checker rejects the certificate: {v.message}")
    return {"prove": t1 - t0, "check": t2 - t1, "bytes": len(text), "lower": v.lower_bound,
            "upper": v.upper_bound, "minimum": v.minimum, "complete": cert.lower.complete,
            "path": cert.lower.path}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--only", default="", help="comma-separated case names (default: all)")
    a = ap.parse_args()
    names = [n for n in a.only.split(",") if n] or list(CASES)
    base = measure(sigmoid_sum(1000))
    print(f"baseline W_1000: prove {base['prove']:.2f} s, check {base['check']:.2f} s, "
          f"minimum 2^1000: {base['minimum'] == 2 ** 1000}")
    print(f"{'case':>10} {'prove s':>9} {'check s':>9} {'lower':>7} {'upper':>7} {'minimum':>8} "
          f"{'complete':>8} {'path':>9} {'bytes':>10} {'prove x':>8} {'check x':>8}")
    for n in names:
        M = problem(*CASES[n], a.seed)
        r = measure(M)
        print(f"{n:>10} {r['prove']:>9.2f} {r['check']:>9.2f} {r['lower']:>7} {r['upper']:>7} "
              f"{str(r['minimum']):>8} {str(r['complete']):>8} {r['path']:>9} {r['bytes']:>10} "
              f"{r['prove'] / base['prove']:>8.1f} {r['check'] / base['check']:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
