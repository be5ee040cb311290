"""Benchmark: the producer's own certificates for natural problems, checked with no option.

    python bench/genuine.py [--only NAME,...] [--keep DIR] [--timeout 900]

For each problem, ``attnproof prove PROBLEM -o CERT`` and then ``attnproof check CERT``
(no ``--max-work``, no other option) run as fresh processes, as a reviewer who
received the certificate would run them.  Printed per problem: the certificate's
size, the verdict's first line, the check's exit code, its CPU seconds (user plus
system of that process alone) and peak memory, and the ratio of the check's CPU to
the prove's.  The run exits 1 when any check is not ``valid`` (exit 0).

* ``W_100000``: ``Σ_j σ(q_j)`` for ``j ≤ 100,000`` (the structural path);
* ``zonogon_10000``: ``Σ_{k=1..10,000} σ(q1 + k·q2)`` (``bench/plane.py``);
* ``2x64_R64``: 2 float32 heads x 64 keys in ``R^64`` (``bench/real_heads.py``);
* ``random_300``: ``family random --heads 300 --atoms 4 --dim 12 --max-key 3 --seed 5``
  (a sub-sum lower bound and the counted product);
* ``layer_128``: a random GPT-2-shaped layer (12 heads, ``d_model`` 768) at 128
  tokens (a 116 MB problem; a minute or more to prove).

The budget the checker uses by default is linear in the file's bytes
(``attnproof.checker.limits.work_limit``); nothing here raises it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def _sigmoid(path: str) -> None:
    from attnproof.families import sigmoid_sum
    from attnproof.io import dump_problem
    dump_problem(sigmoid_sum(100_000), path)


def _zonogon(path: str) -> None:
    from plane import zonogon
    from attnproof.io import dump_problem
    dump_problem(zonogon(10_000), path)


def _float64(path: str) -> None:
    from real_heads import problem
    from attnproof.io import dump_problem
    dump_problem(problem(2, 64, 64, None, seed=11), path)


def _random300(path: str) -> None:
    subprocess.run([sys.executable, "-m", "attnproof", "family", "random", "--heads", "300",
                    "--atoms", "4", "--dim", "12", "--max-key", "3", "--seed", "5", "-o", path],
                   check=True, capture_output=True)


def _layer(path: str) -> None:
    from attnproof.io import dump_problem
    from attnproof.transformer.capture import random_capture
    from attnproof.transformer.problem import capture_to_problem
    dump_problem(capture_to_problem(random_capture(128, 768, 12, 64, seed=0)), path)


CASES = {"W_100000": _sigmoid, "zonogon_10000": _zonogon, "2x64_R64": _float64,
         "random_300": _random300, "layer_128": _layer}


def _measured(argv: list, timeout: float) -> tuple[int, str, float, float]:
    """Exit code, first line of output, CPU seconds (user + system) and peak MB of that
    child alone (``wait4``); killed at ``timeout`` seconds (exit 124)."""
    with tempfile.TemporaryFile(mode="w+") as out:
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, text=True)
        timer = threading.Timer(timeout, p.kill)
        timer.start()
        try:
            _, status, ru = os.wait4(p.pid, 0)
        finally:
            timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        first = (out.read().strip().splitlines() or [""])[0]
    rc = 124 if p.returncode == -9 else p.returncode
    return rc, first, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated names: " + ", ".join(CASES))
    ap.add_argument("--keep", metavar="DIR", help="write problems and certificates here")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per command (default 900)")
    a = ap.parse_args()
    names = a.only.split(",") if a.only else list(CASES)
    for n in names:
        if n not in CASES:
            raise SystemExit(f"unknown name {n!r}: one of {', '.join(CASES)}")
    work = a.keep or tempfile.mkdtemp(prefix="attnproof-genuine-")
    os.makedirs(work, exist_ok=True)
    exe = [sys.executable, "-m", "attnproof"]
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{'problem':15} {'bytes':>12} {'prove CPU':>10} {'check CPU':>10} {'check MB':>9} "
          f"{'check/prove':>11}  verdict")
    bad = 0
    for n in names:
        prob, cert = os.path.join(work, n + ".json"), os.path.join(work, n + ".cert")
        CASES[n](prob)
        prc, _, pcpu, _ = _measured(exe + ["prove", prob, "-o", cert, "-q"], a.timeout)
        if prc not in (0, 2) or not os.path.exists(cert):
            print(f"{n:15} prove ended with exit {prc}")
            bad += 1
            continue
        crc, first, ccpu, cmb = _measured(exe + ["check", cert], a.timeout)
        size = os.path.getsize(cert)
        print(f"{n:15} {size:12,} {pcpu:10.1f} {ccpu:10.1f} {cmb:9.0f} {ccpu / pcpu:11.2f}  "
              f"exit {crc}: {first[:90]}", flush=True)
        bad += crc != 0
    if not a.keep:
        print(f"(files in {work}; --keep DIR keeps them somewhere of your choosing)")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
