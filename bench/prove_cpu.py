"""``attnproof prove`` and ``attnproof check`` of W_d on two commits, in one run, by CPU time.

    python bench/prove_cpu.py                      # main against the working tree, d = 10^4, 10^5
    python bench/prove_cpu.py BASE HEAD --d 100000 --rounds 5

``BASE`` and ``HEAD`` are what ``bench/compare.py`` reads (a commit, ``.`` for the working
tree, or a folder holding ``attnproof/``).  The rounds alternate base, head, head, base, ... as
whole processes (``python -m attnproof``, imports included) and records each child's
CPU time (user + system, from ``os.wait4``) next to its wall time: on a shared machine
the wall time of a process grows with everyone's load, its CPU time much less.  Each
side proves its own certificate (the format may differ between them) and checks it with
no option.  Printed: the median of each side and the ratio head / base, per job.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compare import code_of  # noqa: E402  (bench/compare.py: a commit's package in a folder)


def run(code: Path, args: list[str], cwd: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of ``python -m attnproof ARGS`` with ``code`` first on the path."""
    env = dict(os.environ, PYTHONPATH=str(code))
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "attnproof", *args], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{code}: attnproof {' '.join(args)} failed: {err.strip()[-300:]}")
    return usage.ru_utime + usage.ru_stime, wall


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", nargs="?", default="main")
    ap.add_argument("head", nargs="?", default=".")
    ap.add_argument("--d", type=int, action="append", help="sizes (default 10000 and 100000)")
    ap.add_argument("--rounds", type=int, default=3, help="pairs of runs per side (default 3)")
    a = ap.parse_args(argv)
    sizes = a.d or [10_000, 100_000]
    with tempfile.TemporaryDirectory(prefix="prove-cpu-") as tmp:
        scratch = Path(tmp)
        sides = {}
        for name, rev in (("base", a.base), ("head", a.head)):
            code, label = code_of(rev, scratch, name)
            work = scratch / f"{name}-run"
            work.mkdir()
            sides[name] = (code, label, work)
        times: dict = {}
        for d in sizes:
            prob = scratch / f"w{d}.json"
            run(sides["head"][0], ["family", "sigmoid-sum", "--d", str(d), "-o", str(prob)], scratch)
            for r in range(a.rounds):
                for name in ("base", "head") if r % 2 == 0 else ("head", "base"):
                    code, _, work = sides[name]
                    cert = work / f"w{d}.cert"
                    for job, args in ((f"prove W_{d}", ["prove", str(prob), "-o", str(cert), "-q"]),
                                      (f"check W_{d}", ["check", str(cert)])):
                        times.setdefault((job, name), []).append(run(code, args, work))
        print(f"base {sides['base'][1]} -> head {sides['head'][1]}; {a.rounds} runs a side, "
              f"load average %.1f %.1f %.1f" % os.getloadavg())
        print(f"{'job':<16}{'base CPU':>10}{'head CPU':>10}{'ratio':>8}{'base wall':>11}{'head wall':>11}{'ratio':>8}")
        jobs = dict.fromkeys(job for job, _ in times)
        for job in jobs:
            b, h = times[job, "base"], times[job, "head"]
            bc, hc = statistics.median(t[0] for t in b), statistics.median(t[0] for t in h)
            bw, hw = statistics.median(t[1] for t in b), statistics.median(t[1] for t in h)
            print(f"{job:<16}{bc:>9.2f}s{hc:>9.2f}s{hc / bc:>7.2f}x{bw:>10.2f}s{hw:>10.2f}s{hw / bw:>7.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
