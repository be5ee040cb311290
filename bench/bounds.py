"""Benchmark: proving and checking W_d, explicit (d = 8..16) and structural (d = 100..1000).

    python bench/bounds.py [--explicit 8,10,12,14,16] [--structural 100,200,500,1000]

Prints the time to build the certificate (prove), the time of the independent
checker, the certificate size, the checker's cost per byte, and ratios against
the first row of each table (the baseline measured in the same run).  The
checker's cost per byte should stay roughly constant: it is about linear in
the certificate's size.
"""

from __future__ import annotations

import argparse
import time

from attnproof.certificate import build_certificate
from attnproof.checker import check_text
from attnproof.families import sigmoid_sum


def measure(d: int, explicit: bool) -> dict:
    M = sigmoid_sum(d)
    t0 = time.perf_counter()
    cert = build_certificate(M, explicit=explicit, max_atoms=None)
    text = cert.text
    t1 = time.perf_counter()
    v = check_text(text)
    t2 = time.perf_counter()
    if v.code != 0 or v.lower_bound != 2 ** d or v.minimum != 2 ** d:
        raise SystemExit(f"W_{d}: unexpected verdict {v.message}")
    return {"d": d, "prove": t1 - t0, "check": t2 - t1, "bytes": len(text)}


def table(title: str, ds: list[int], explicit: bool) -> None:
    print(title)
    print(f"{'d':>6} {'prove s':>9} {'check s':>9} {'bytes':>10} {'check us/B':>11} "
          f"{'prove x':>8} {'check x':>8} {'bytes x':>8}")
    base = None
    for d in ds:
        r = measure(d, explicit)
        base = base or r
        per_byte = 1e6 * r["check"] / r["bytes"]
        print(f"{d:>6} {r['prove']:>9.3f} {r['check']:>9.3f} {r['bytes']:>10} {per_byte:>11.3f} "
              f"{r['prove'] / base['prove']:>8.1f} {r['check'] / base['check']:>8.1f} "
              f"{r['bytes'] / base['bytes']:>8.1f}")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--explicit", default="8,10,12,14,16", help="d values with explicit vertex lists")
    ap.add_argument("--structural", default="100,200,500,1000", help="d values, structural certificates")
    a = ap.parse_args()
    ints = lambda s: [int(x) for x in s.split(",") if x]  # noqa: E731
    table("W_d, explicit vertex lists (one block of 2^d vertices; explicit fusion up to d = 12)",
          ints(a.explicit), True)
    table("W_d, structural (d factors, d blocks, counted product fusion)", ints(a.structural), False)


if __name__ == "__main__":
    main()
