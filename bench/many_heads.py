"""Benchmark: integer-key problems with many heads in moderate dimension (issue 30).

    python bench/many_heads.py [--heads 75,150,300] [--atoms 4] [--dim 12] [--max-key 3]
                               [--seed 5] [--timeout 300]

For each head count, ``attnproof family random --heads H --atoms A --dim D --max-key K
--seed S``, then ``attnproof prove --no-lines --json`` and ``attnproof check --json`` as
fresh processes (modules from cached bytecode, as installed), each killed at
``--timeout`` seconds.  Printed per row: prove and check wall seconds, exit codes, the
lower and upper bounds, whether the checker accepts the certificate with its default
budget, and the largest number of atoms of one head (a head's vertex count is at most
that: the lower bound must exceed it).  Target (issue 30): H = 300, A = 4, D = 12,
K = 3, seed 5 ends with exit 0 in under 5 minutes, a lower bound above 4, the counted
upper bound, and a checker-valid certificate.  The run exits 1 when a row misses it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def _run(cmd: list, timeout: float, env: dict) -> tuple[int, float, str, str]:
    t = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        return r.returncode, time.perf_counter() - t, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return -1, time.perf_counter() - t, "", "timeout"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--heads", default="75,150,300")
    ap.add_argument("--atoms", type=int, default=4)
    ap.add_argument("--dim", type=int, default=12)
    ap.add_argument("--max-key", type=int, default=3)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=300)
    a = ap.parse_args()
    try:
        print("load average %.1f %.1f %.1f" % os.getloadavg())
    except OSError:
        pass
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    exe = [sys.executable, "-m", "attnproof"]
    subprocess.run(exe + ["--help"], capture_output=True, env=env)
    print(f"{'heads':>6} {'prove s':>8} {'rc':>3} {'check s':>8} {'verdict':>8} "
          f"{'lower':>8} {'upper':>10}  (atoms per head {a.atoms}, dim {a.dim})")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for H in (int(x) for x in a.heads.split(",")):
            p, c = os.path.join(tmp, f"r{H}.json"), os.path.join(tmp, f"r{H}.cert")
            subprocess.run(exe + ["family", "random", "--heads", str(H), "--atoms", str(a.atoms),
                                  "--dim", str(a.dim), "--max-key", str(a.max_key),
                                  "--seed", str(a.seed), "-o", p], check=True,
                           capture_output=True, env=env)
            rc, tp, out, err = _run(exe + ["prove", p, "--no-lines", "--json", "-o", c],
                                    a.timeout, env)
            doc = json.loads(out) if rc == 0 else {}
            lo, up = doc.get("lower_bound"), doc.get("upper_bound")
            crc, tc, cout, _ = (_run(exe + ["check", c, "--json"], a.timeout, env)
                                if rc == 0 else (None, 0.0, "", ""))
            verdict = json.loads(cout).get("verdict") if crc is not None and cout else "-"
            up_s = str(up) if up is None or len(str(up)) <= 10 else f"~10^{len(str(up)) - 1}"
            print(f"{H:>6} {tp:>8.2f} {rc:>3} {tc:>8.2f} {verdict!s:>8} {lo!s:>8} {up_s:>10}")
            if rc != 0:
                print(f"       {err.strip()[:300]}")
            ok = (rc == 0 and crc == 0 and lo is not None and int(lo) > a.atoms
                  and up is not None and tp < a.timeout)
            failed |= not ok
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
