"""Benchmark: proving and checking W_d, explicit (d = 8..16), structural (d = 100..1000)
and large sparse (d = 10^4 .. 10^5, each phase in its own process).

    python bench/bounds.py [--explicit 8,10,12,14,16] [--structural 100,200,500,1000]
                           [--sparse 10000,30000,100000] [--no-cli]

Prints the time to build the certificate (prove), the time of the independent
checker, the certificate size, the checker's cost per byte, and ratios against
the first row of each table (the baseline measured in the same run).  The
checker's cost per byte should stay roughly constant: it is about linear in
the certificate's size.

The sparse table writes each W_d as a problem file, runs the prover (load, build,
text, atomic write) and the checker in separate processes and reports each
one's wall and CPU time (user + system, ``getrusage``) and peak resident memory
(``ru_maxrss``), and the whole ``attnproof prove`` command (self-check
included); then the growth factor per doubling of ``d`` between consecutive
rows, ``(ratio)^(1 / log2(d2/d1))``: about 2 for work linear in ``d``, 4 for
quadratic.  Figures depend on the load of the machine (CPU time less so than
wall time); compare rows of the same run.
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


def _cpu(who: int = resource.RUSAGE_SELF) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def child_prove(d: int, path: str) -> dict:
    """Load the problem file ``path``, build its certificate and write it to
    ``path + '.cert'``, as ``attnproof prove`` does before its self-check (run in a
    fresh process)."""
    from attnproof.io import atomic_write_text, load_problem

    t0, c0 = time.perf_counter(), _cpu()
    M = load_problem(path)
    cert = build_certificate(M, max_atoms=None)
    text = cert.text
    atomic_write_text(path + ".cert", text)
    t1, c1 = time.perf_counter(), _cpu()
    return {"seconds": t1 - t0, "cpu": c1 - c0, "bytes": len(text), "peak_mb": _peak_mb(),
            "lower_is_2^d": cert.lower.value == 2 ** d}


def child_check(d: int, path: str) -> dict:
    """Check the certificate at ``path`` (run in a fresh process)."""
    with open(path, encoding="ascii") as f:
        text = f.read()
    t0, c0 = time.perf_counter(), _cpu()
    v = check_text(text)
    t1, c1 = time.perf_counter(), _cpu()
    ok = v.code == 0 and v.lower_bound == 2 ** d and v.minimum == 2 ** d
    return {"seconds": t1 - t0, "cpu": c1 - c0, "peak_mb": _peak_mb(), "valid": ok,
            "message": "" if ok else v.message[:160]}


def _run_child(kind: str, d: int, path: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", kind, str(d), path],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"W_{d} {kind}: the child process failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _run_cli_prove(problem: str, cert: str) -> dict:
    """``attnproof prove`` as a user runs it (imports, load, prove, self-check, write)."""
    t0, c0 = time.perf_counter(), _cpu(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, "-m", "attnproof", "prove", problem, "-o", cert],
                         capture_output=True, text=True, check=False)
    t1, c1 = time.perf_counter(), _cpu(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"attnproof prove {problem}: exit {out.returncode}\n{out.stderr[-2000:]}")
    return {"seconds": t1 - t0, "cpu": c1 - c0}


def _per_doubling(ratio: float, d_ratio: float) -> float:
    return ratio ** (1 / math.log2(d_ratio)) if d_ratio > 1 and ratio > 0 else float("nan")


def sparse_table(ds: list[int], cli: bool = True) -> None:
    from attnproof.io import dump_problem

    print("W_d, large sparse, from a problem file (prover and checker each in a fresh process;")
    print("wall s / cpu s = user + system from getrusage; peak = ru_maxrss; cli = the whole")
    print("'attnproof prove' command, self-check included)")
    cols = ("prove s", "prove cpu", "prove MB", "check s", "check cpu", "check MB", "bytes")
    head = f"{'d':>7} " + " ".join(f"{c:>9}" for c in cols)
    if cli:
        head += f" {'cli s':>7} {'cli cpu':>7}"
    print(head + f" {'checked':>8}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for d in ds:
            path = os.path.join(tmp, f"w{d}.json")
            dump_problem(sigmoid_sum(d), path)
            p = _run_child("prove", d, path)
            c = _run_child("check", d, path + ".cert")
            os.unlink(path + ".cert")
            row = {"d": d, "ps": p["seconds"], "pc": p["cpu"], "pm": p["peak_mb"],
                   "cs": c["seconds"], "cc": c["cpu"], "cm": c["peak_mb"], "b": p["bytes"]}
            line = (f"{d:>7} {row['ps']:>9.2f} {row['pc']:>9.2f} {row['pm']:>9.0f} "
                    f"{row['cs']:>9.2f} {row['cc']:>9.2f} {row['cm']:>9.0f} {row['b']:>9}")
            if cli:
                q = _run_cli_prove(path, path + ".cert")
                os.unlink(path + ".cert")
                row["qs"], row["qc"] = q["seconds"], q["cpu"]
                line += f" {row['qs']:>7.2f} {row['qc']:>7.2f}"
            print(line + f" {'yes' if c['valid'] else 'NO':>8}")
            if not c["valid"]:
                print(f"         checker: {c['message']}")
            if not p["lower_is_2^d"]:
                print("         prover: the lower bound is not 2^d")
            os.unlink(path)
            rows.append(row)
    if len(rows) > 1:
        keys = ["ps", "pc", "pm", "cs", "cc", "cm", "b"] + (["qs", "qc"] if cli else [])
        print("growth per doubling of d, (ratio)^(1 / log2(d2/d1)): about 2 when linear")
        print(f"{'d1 -> d2':>15} " + " ".join(f"{c:>9}" for c in cols)
              + (f" {'cli s':>7} {'cli cpu':>7}" if cli else ""))
        for a, b in zip(rows, rows[1:]):
            r = b["d"] / a["d"]
            g = [_per_doubling(b[k] / a[k], r) for k in keys]
            print(f"{str(a['d']) + ' -> ' + str(b['d']):>15} "
                  + " ".join(f"{x:>9.2f}" for x in g[:7])
                  + "".join(f" {x:>7.2f}" for x in g[7:]))
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
    ap.add_argument("--no-cli", action="store_true",
                    help="skip the whole 'attnproof prove' command in the sparse table")
    a = ap.parse_args()
    ints = lambda s: [int(x) for x in s.split(",") if x]  # noqa: E731
    if ints(a.explicit):
        table("W_d, explicit vertex lists (one block of 2^d vertices; explicit fusion up to d = 12)",
              ints(a.explicit), True)
    if ints(a.structural):
        table("W_d, structural (d factors, d blocks, counted product fusion)", ints(a.structural), False)
    if ints(a.sparse):
        sparse_table(ints(a.sparse), cli=not a.no_cli)


if __name__ == "__main__":
    main()
