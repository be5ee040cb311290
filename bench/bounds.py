"""Benchmark: proving and checking W_d, explicit (d = 8..16), structural (d = 100..1000)
and large sparse (d = 10^4 .. 10^5, each phase in its own process).

    python bench/bounds.py [--explicit 8,10,12,14,16] [--structural 100,200,500,1000]
                           [--sparse 10000,30000,100000]

Prints the time to build the certificate (prove), the time of the independent
checker, the certificate size, the checker's cost per byte, and ratios against
the first row of each table (the baseline measured in the same run).  The
checker's cost per byte should stay roughly constant: it is about linear in
the certificate's size.

The sparse table runs the prover and the checker in separate processes and
reports each one's peak resident memory (``ru_maxrss``), then the growth factor
per doubling of ``d`` between consecutive rows, ``(ratio)^(1 / log2(d2/d1))``:
about 2 for work linear in ``d``, 4 for quadratic.  Figures depend on the load
of the machine; compare rows of the same run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
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


def _peak_mb() -> float:
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1024 if sys.platform != "darwin" else kb / 2 ** 20


def child_prove(d: int, path: str) -> dict:
    """Build W_d and its certificate, write it to ``path`` (run in a fresh process)."""
    t0 = time.perf_counter()
    M = sigmoid_sum(d)
    cert = build_certificate(M, max_atoms=None)
    text = cert.text
    t1 = time.perf_counter()
    with open(path, "w", encoding="ascii") as f:
        f.write(text)
    return {"seconds": t1 - t0, "bytes": len(text), "peak_mb": _peak_mb(),
            "lower_is_2^d": cert.lower.value == 2 ** d}


def child_check(d: int, path: str) -> dict:
    """Check the certificate at ``path`` (run in a fresh process)."""
    with open(path, encoding="ascii") as f:
        text = f.read()
    t0 = time.perf_counter()
    v = check_text(text)
    t1 = time.perf_counter()
    ok = v.code == 0 and v.lower_bound == 2 ** d and v.minimum == 2 ** d
    return {"seconds": t1 - t0, "peak_mb": _peak_mb(), "valid": ok,
            "message": "" if ok else v.message[:160]}


def _run_child(kind: str, d: int, path: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", kind, str(d), path],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"W_{d} {kind}: the child process failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _per_doubling(ratio: float, d_ratio: float) -> float:
    return ratio ** (1 / math.log2(d_ratio)) if d_ratio > 1 and ratio > 0 else float("nan")


def sparse_table(ds: list[int]) -> None:
    print("W_d, large sparse (prover and checker each in a fresh process; peak = ru_maxrss)")
    print(f"{'d':>7} {'prove s':>8} {'prove MB':>9} {'check s':>8} {'check MB':>9} {'bytes':>11} "
          f"{'checked':>8}   growth per doubling of d: prove-s prove-MB check-s check-MB bytes")
    prev = None
    with tempfile.TemporaryDirectory() as tmp:
        for d in ds:
            path = os.path.join(tmp, f"w{d}.cert.json")
            p = _run_child("prove", d, path)
            c = _run_child("check", d, path)
            os.unlink(path)
            row = {"d": d, "ps": p["seconds"], "pm": p["peak_mb"], "cs": c["seconds"],
                   "cm": c["peak_mb"], "b": p["bytes"]}
            line = (f"{d:>7} {row['ps']:>8.2f} {row['pm']:>9.0f} {row['cs']:>8.2f} {row['cm']:>9.0f} "
                    f"{row['b']:>11} {'yes' if c['valid'] else 'NO':>8}")
            if prev is not None:
                r = d / prev["d"]
                g = [_per_doubling(row[k] / prev[k], r) for k in ("ps", "pm", "cs", "cm", "b")]
                line += "   " + " ".join(f"{x:>7.2f}" for x in g)
            print(line)
            if not c["valid"]:
                print(f"         checker: {c['message']}")
            if not p["lower_is_2^d"]:
                print("         prover: the lower bound is not 2^d")
            prev = row
    print()


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        kind, d, path = sys.argv[2], int(sys.argv[3]), sys.argv[4]
        res = child_prove(d, path) if kind == "prove" else child_check(d, path)
        print(json.dumps(res))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--explicit", default="8,10,12,14,16", help="d values with explicit vertex lists")
    ap.add_argument("--structural", default="100,200,500,1000", help="d values, structural certificates")
    ap.add_argument("--sparse", default="10000,30000,100000",
                    help="d values, structural certificates, one process per phase")
    a = ap.parse_args()
    ints = lambda s: [int(x) for x in s.split(",") if x]  # noqa: E731
    if ints(a.explicit):
        table("W_d, explicit vertex lists (one block of 2^d vertices; explicit fusion up to d = 12)",
              ints(a.explicit), True)
    if ints(a.structural):
        table("W_d, structural (d factors, d blocks, counted product fusion)", ints(a.structural), False)
    if ints(a.sparse):
        sparse_table(ints(a.sparse))


if __name__ == "__main__":
    main()
