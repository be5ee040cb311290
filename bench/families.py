"""Benchmark grid: families × sizes, each cell proven and checked through the command line.

    python bench/families.py [--timeout 120] [--only NAME,...] [--layers] [--quick]

Families (sizes double along each row, so the growth per doubling is read off
directly):

* ``sigmoid``: ``W_d = Σ_j σ(q_j)`` (structural, Lemma 5);
* ``path``, ``cycle``, ``complete``, ``random-graph``: graph sums
  ``Σ_{ij∈E} σ(q_i − q_j)`` (zonotopes, Lemma 7; random graphs ``G(n, 1/2)``, seed 0);
* ``plane``: ``Σ_{k=1..H} σ(q1 + k·q2)``, ``H`` two-atom heads in 2-D (a zonogon of
  ``2H`` vertices);
* ``binomial``: ``σ(n·q) + σ(3·q)`` in 1-D with ``n = 2^b + 1`` (the non-constant
  floor: ``V(Q) = 2``, no factorization);
* ``float-RD``: 3 heads × 8 random float32 keys in ``R^D`` (``D`` = 2, 4, 8, 16;
  the geometric path, THEORY §9);
* ``generic``: ``H`` heads × 20 random float32 keys in ``R^16`` (``H`` = 150, 300):
  past the candidate budget, the exact count of a sub-sum (``--generic-timeout``);
* ``layer``: a random GPT-2-shaped layer (12 heads, ``d_model`` 768, LayerNorm
  domain) at 64 and 128 tokens (``--layers``: each is a 60-120 MB problem; at 128
  tokens the heads are past the direct-sum limit and the bound is a direct sub-sum).

Each cell runs ``attnproof prove --json`` (its default line queries within a quarter of
the cell's time, ``--lines-timeout``) and ``attnproof check --json`` (with
``--replay`` when the certificate holds line refutations) as fresh
processes (imports included) in their own session, killed at ``--timeout``
seconds (``--layer-timeout`` for the layers, ``--generic-timeout`` for ``generic``): a cell always ends, as an answer, an exit code with its message, or
``timeout``.  Printed per cell: prove and check wall seconds, the peak memory of
the prove process (``ru_maxrss`` of that child alone, through ``wait4``), the lower
and upper bounds, and the growth of the prove time per doubling of the size
(``(t_n / t_prev)^(1 / log2(n / prev))``).  The run exits 1 when a cell ends
with exit 4 (an internal error) or a certificate the checker does not accept.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time


def _sigmoid(d):
    from attnproof.families import sigmoid_sum
    return sigmoid_sum(d)


def _graph(kind):
    def make(n):
        from attnproof.families import graph_sum, named_graph
        return graph_sum(named_graph(kind, n))
    return make


def _random_graph(n):
    import networkx as nx

    from attnproof.families import graph_sum
    g = nx.gnp_random_graph(n, 0.5, seed=0)
    g.add_edges_from((i, i + 1) for i in range(n - 1))     # connected
    return graph_sum(g)


def _plane(H):
    from attnproof.heads import Atom, Head, MultiHead
    return MultiHead(tuple(Head((Atom((1, k), (1,)), Atom((0, 0), (0,)))) for k in range(1, H + 1)),
                     dim=2)


def _binomial(bits):
    from attnproof.heads import Atom, Head, MultiHead
    n = 2 ** bits + 1
    return MultiHead((Head((Atom((n,), (1,)), Atom((0,), (0,)))),
                      Head((Atom((3,), (1,)), Atom((0,), (0,))))))


def _float_heads(dim):
    import numpy as np

    from attnproof.heads import MultiHead
    rng = np.random.default_rng(dim)
    keys = [rng.standard_normal((8, dim)).astype(np.float32) for _ in range(3)]
    values = [rng.standard_normal(8).astype(np.float32) for _ in range(3)]
    return MultiHead.from_arrays(keys, values)


def _generic(heads):
    from attnproof.families import float_multihead
    return float_multihead(heads, 20, 16, seed=0)


def _layer(tokens):
    from attnproof.transformer.capture import random_capture
    from attnproof.transformer.problem import capture_to_problem
    return capture_to_problem(random_capture(tokens, 768, 12, 64, seed=0))


FAMILIES = {
    "sigmoid": (_sigmoid, [128, 256, 512, 1024, 2048], "d"),
    "path": (_graph("path"), [8, 16, 32, 64], "n"),
    "cycle": (_graph("cycle"), [8, 16, 32, 64], "n"),
    "complete": (_graph("complete"), [3, 4, 5, 6, 7], "n"),
    "random-graph": (_random_graph, [6, 8, 10, 12, 16, 20], "n"),
    "plane": (_plane, [25, 50, 100, 200, 400, 800], "H"),
    "binomial": (_binomial, [8, 16, 32, 64, 128], "bits"),
    "float": (_float_heads, [2, 4, 8, 16], "D"),
    "generic": (_generic, [150, 300], "H"),
    "layer": (_layer, [64, 128], "tokens"),
}
QUICK = {"sigmoid": [128, 256], "path": [8, 16], "cycle": [8, 16], "complete": [3, 4],
         "random-graph": [6, 8], "plane": [25, 50], "binomial": [8, 16], "float": [2, 4], "generic": [8, 16],
         "layer": [16, 32]}


def run_cell(argv: list, timeout: float) -> dict:
    """Run one command in its own session; wall seconds, peak RSS (MB), exit code, JSON output.

    The whole process group is killed at ``timeout``: a cell always ends."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(argv, stdout=out, stderr=err, start_new_session=True)
        deadline = t0 + timeout
        status = rusage = None
        timed_out = False
        while True:
            pid, status, rusage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                timed_out = True
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                _, status, rusage = os.wait4(p.pid, 0)
                break
            time.sleep(0.05)
        p.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        text, etext = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    doc = None
    if not timed_out:
        try:
            doc = json.loads(text)
        except ValueError:
            doc = None
    return {"wall": wall, "rss_mb": rusage.ru_maxrss / 1024 if rusage else 0.0,
            "cpu": (rusage.ru_utime + rusage.ru_stime) if rusage else 0.0,
            "code": "timeout" if timed_out else p.returncode, "doc": doc,
            "stderr": etext.strip().splitlines()[-1:] if etext.strip() else []}


def _short(n) -> str:
    if n is None:
        return "-"
    n = int(n)
    if n >= 10 ** 7:
        b = n.bit_length() - 1
        return f"2^{b}" if n == 1 << b else f"~10^{math.log10(n):.1f}"
    return str(n)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per command (default 120)")
    ap.add_argument("--only", help="comma-separated family names")
    ap.add_argument("--layers", action="store_true", help="include the captured layers")
    ap.add_argument("--layer-timeout", type=float, default=900.0,
                    help="seconds per command for the layers (default 900)")
    ap.add_argument("--generic-timeout", type=float, default=600.0,
                    help="seconds per command for the generic heads (default 600)")
    ap.add_argument("--quick", action="store_true", help="two small sizes per family")
    ap.add_argument("--keep", metavar="DIR", help="write problems and certificates here")
    args = ap.parse_args()
    names = args.only.split(",") if args.only else [n for n in FAMILIES
                                                    if n != "layer" or args.layers]
    for n in names:
        if n not in FAMILIES:
            ap.error(f"unknown family {n!r} (known: {', '.join(FAMILIES)})")
    from attnproof.io import dump_problem

    work = args.keep or tempfile.mkdtemp(prefix="bench-families-")
    os.makedirs(work, exist_ok=True)
    exe = [sys.executable, "-m", "attnproof"]
    env_note = "load average %.1f %.1f %.1f" % os.getloadavg()
    print(f"{os.cpu_count()} CPUs, {env_note}; timeout {args.timeout:.0f} s per command; "
          "times are wall seconds of fresh processes (imports included)")
    hdr = (f"{'family':<14}{'size':>10}{'prove s':>9}{'CPU s':>8}{'MB':>7}{'check s':>9}"
           f"{'lower':>12}{'upper':>12}  {'growth/doubling':>15}  answer")
    print(hdr)
    failures = 0
    rows = []
    for name in names:
        make, sizes, label = FAMILIES[name]
        if args.quick:
            sizes = QUICK[name]
        prev = None
        for size in sizes:
            stem = os.path.join(work, f"{name}-{size}")
            t0 = time.perf_counter()
            try:
                dump_problem(make(size), stem + ".json")
            except Exception as e:          # reported, and counted: the grid must build every cell
                print(f"{name:<14}{label}={size:<8} build failed: {type(e).__name__}: {e}")
                failures += 1
                continue
            build = time.perf_counter() - t0
            limit = {"layer": args.layer_timeout, "generic": args.generic_timeout}.get(name, args.timeout)
            # prove asks line queries by default until --lines-timeout (300 s) and keeps the
            # best bound reached: a quarter of the cell's time, so that a cell ends
            pr = run_cell(exe + ["prove", stem + ".json", "-o", stem + ".cert", "--json",
                                 "--lines-timeout", f"{max(1.0, limit / 4):g}"], limit)
            ck = None
            lower = upper = None
            answer = ""
            if pr["code"] == 0:
                d = pr["doc"] or {}
                lower, upper = d.get("lower_bound"), d.get("upper_bound")
                # line refutations (THEORY §12) are re-proven by the two solvers: --replay
                replay = ["--replay"] if d.get("trust") in ("line-refuted", "window-refuted") else []
                ck = run_cell(exe + ["check", stem + ".cert", "--json"] + replay, limit)
                answer = "valid" if ck["code"] == 0 else f"check: {ck['code']}"
                if ck["code"] not in (0, "timeout"):
                    failures += 1
                if d.get("complete") is False:
                    answer += ", partial"
            elif pr["code"] == "timeout":
                answer = "prove: timeout"
            else:
                msg = (pr["doc"] or {}).get("message") or " ".join(pr["stderr"])
                answer = f"prove: exit {pr['code']}: {msg[:90]}"
                if pr["code"] not in (1, 2, 3):
                    failures += 1
            growth = ""
            if prev is not None and pr["code"] == 0 and prev[1] is not None:
                growth = f"{(pr['wall'] / prev[1]) ** (1 / math.log2(size / prev[0])):.2f}x"
            prev = (size, pr["wall"] if pr["code"] == 0 else None)
            ckw = f"{ck['wall']:.1f}" if ck and ck["code"] == 0 else ("timeout" if ck else "-")
            print(f"{name:<14}{label + '=' + str(size):>10}{pr['wall']:>9.1f}{pr['cpu']:>8.1f}"
                  f"{pr['rss_mb']:>7.0f}{ckw:>9}{_short(lower):>12}{_short(upper):>12}  "
                  f"{growth:>15}  {answer}", flush=True)
            rows.append({"family": name, "size": size, "build_s": round(build, 2),
                         "prove_s": round(pr["wall"], 2), "prove_cpu_s": round(pr["cpu"], 2),
                         "prove_mb": round(pr["rss_mb"]), "check_s": ck and round(ck["wall"], 2),
                         "lower": lower, "upper": upper, "answer": answer})
            for ext in (".json", ".cert") if not args.keep else ():
                try:
                    os.remove(stem + ext)
                except OSError:
                    pass
    print(f"{len(rows)} cells, {failures} failure(s) (exit 4 or a certificate refused)")
    with open(os.path.join(work, "families.json"), "w") as f:
        json.dump(rows, f, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
