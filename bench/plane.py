"""Benchmark: many heads in the plane, and ``prove`` on small random problems.

    python bench/plane.py [--only zonogon,segments,biases,triangles,random] [--max-heads 10000]
                          [--problems 48] [--seed 7]

* ``zonogon``: ``Σ_{k=1..H} σ(q1 + k·q2)`` (H two-atom heads in 2-D, keys (1, k)
  and (0, 0); the zonogon has 2H vertices), H doubling up to ``--max-heads``.
  Prove (``build_certificate``, its text) and check (``check_text``) timed
  apart, with the ratio to the previous H: linear work doubles, ``n log n``
  a little more.  Targets: H = 1000 under 10 s each, H = 10,000 under 60 s,
  at most about 2.5x per doubling.
* ``segments``, ``triangles``: H float32 heads of 2 or 3 atoms in 2-D (the
  exact geometry of THEORY §9 with the ``planar_vertices`` count), H doubling
  up to ``--max-heads`` as for the zonogon.  Float keys give many heads only
  indecomposable (edge content above 1), each certified non-homothetic to the
  others by its widths along a few shared functionals, hashed in one pass
  (docs/theory.md 9.3'): the same targets as the zonogon.
* ``biases``: H heads on one float32 segment, told apart only by their biases
  (one support shape: the classes of associates are found by hashing each
  denominator's normalized coefficients, not by comparing pairs).
* ``random``: ``attnproof prove`` as a user runs it (a fresh process each
  time: imports included) on random problems of the held-out kind, 2 or 3
  heads of 3 or 4 atoms in 3-D to 8-D, keys float32 decimals or small
  rationals; prints the median, the slowest and the slowest cases, in wall
  and in CPU seconds of the process (modules from cached bytecode, as installed).
  Target: median under 1 s, none over 20 s.
  Each lower bound is compared, after the timing, with an independent count of
  the vertices of the Minkowski sum of the non-constant heads' keys (one exact
  LP per candidate point, z3 and Fractions, ``examples/_independent.py``); any
  case that differs, or that ``prove`` marks incomplete, is printed.

Everything is measured in this one run; on a shared machine the load average
is printed first.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction

from attnproof.certificate import build_certificate
from attnproof.checker import check_text
from attnproof.families import float32_decimal, float_multihead
from attnproof.io import problem_to_dict
from attnproof.heads import Atom, Head, MultiHead


def zonogon(H: int) -> MultiHead:
    """``Σ_{k=1..H} σ(q1 + k·q2)``."""
    return MultiHead(tuple(Head((Atom(key=(1, k), value=(1,)), Atom(key=(0, 0), value=(0,))))
                           for k in range(1, H + 1)))


def one_segment(H: int) -> MultiHead:
    """H heads with the keys of one float32 segment and the biases ``k/7``."""
    key = tuple(float32_decimal(x) for x in (0.1234567, -0.7654321))
    zero = (0, 0)
    return MultiHead(tuple(Head((Atom(key=key, value=(1,), bias=Fraction(k, 7)),
                                 Atom(key=zero, value=(0,)))) for k in range(1, H + 1)))


def measure(M: MultiHead) -> tuple[float, float, int, int]:
    t0 = time.perf_counter()
    cert = build_certificate(M)
    text = cert.text
    t1 = time.perf_counter()
    v = check_text(text)
    t2 = time.perf_counter()
    if v.code != 0:
        raise SystemExit(f"the checker does not accept the certificate: {v.message}")
    return t1 - t0, t2 - t1, cert.lower_bound, len(text)


def doubling(name: str, sizes: list[int], make) -> None:
    print(f"\n{name}")
    print(f"{'H':>7} {'prove s':>9} {'x':>6} {'check s':>9} {'x':>6} {'lower':>7} {'bytes':>10}")
    prev = None
    for H in sizes:
        p, c, lower, size = measure(make(H))
        rp = f"{p / prev[0]:.2f}" if prev else "-"
        rc = f"{c / prev[1]:.2f}" if prev else "-"
        print(f"{H:>7} {p:>9.2f} {rp:>6} {c:>9.2f} {rc:>6} {lower:>7} {size:>10}", flush=True)
        prev = (max(p, 1e-3), max(c, 1e-3))


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def random_problem(rng: random.Random, i: int) -> MultiHead:
    heads, atoms, dim = rng.choice((2, 3)), rng.choice((3, 4)), rng.randint(3, 8)
    if i % 2 == 0:
        return float_multihead(heads, atoms, dim, seed=rng.randrange(1 << 30))
    hs = []
    for _ in range(heads):
        hs.append(Head(tuple(
            Atom(key=tuple(f"{rng.randint(-9, 9)}/{rng.randint(1, 4)}" for _ in range(dim)),
                 value=(rng.randint(-3, 3),)) for _ in range(atoms))))
    return MultiHead(tuple(hs))


def independent_count(M: MultiHead) -> int:
    """Vertices of ``Σ_h conv(keys of h)`` over the heads that are not constant, by exact LPs
    that share no code with attnproof (``examples/_independent.py``)."""
    from math import lcm

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
    from _independent import vertices_by_lp

    keysets = [sorted({a.key for a in h.atoms}) for h in M.heads
               if len({a.value for a in h.atoms}) > 1]
    if not keysets:
        return 1
    scale = lcm(*(x.denominator for ks in keysets for k in ks for x in k))
    points = {tuple(0 for _ in range(M.dim))}
    for ks in keysets:
        points = {tuple(p + int(x * scale) for p, x in zip(q, k)) for q in points for k in ks}
    return len(vertices_by_lp(points))


def held_out(n: int, seed: int) -> None:
    print(f"\nrandom: attnproof prove on {n} problems (2-3 heads of 3-4 atoms, 3-D to 8-D)")
    rng = random.Random(seed)
    times: list = []
    cpus: list = []
    slow: list = []
    answers: list = []
    # as an installed command runs: modules from cached bytecode (written by a first run)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "attnproof", "--help"], capture_output=True, env=env)
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(n):
            M = random_problem(rng, i)
            path = os.path.join(tmp, f"p{i}.json")
            with open(path, "w") as fh:
                json.dump(problem_to_dict(M), fh)
            t0, c0 = time.perf_counter(), _child_cpu()
            r = subprocess.run([sys.executable, "-m", "attnproof", "prove", path, "-o",
                                path + ".cert", "--json"], capture_output=True, text=True,
                               env=env)
            dt, cpu = time.perf_counter() - t0, _child_cpu() - c0
            if r.returncode != 0:
                print(f"  problem {i}: exit {r.returncode}: {r.stderr.strip()[:200]}")
            times.append(dt)
            cpus.append(cpu)
            try:
                doc = json.loads(r.stdout)
            except ValueError:
                doc = {}
            answers.append((i, M, doc))
            line = f"lower {doc.get('lower_bound')}, upper {doc.get('upper_bound')}"
            if dt > 1:
                slow.append((dt, cpu, i, len(M), M.dim, line))
    print(f"  wall: median {statistics.median(times):.2f} s, slowest {max(times):.2f} s, "
          f"{sum(t > 1 for t in times)} over 1 s, {sum(t > 20 for t in times)} over 20 s")
    print(f"  CPU:  median {statistics.median(cpus):.2f} s, slowest {max(cpus):.2f} s, "
          f"{sum(t > 1 for t in cpus)} over 1 s (wall exceeds CPU when the machine is shared)")
    for dt, cpu, i, h, d, line in sorted(slow, reverse=True)[:10]:
        print(f"  {dt:6.2f} s ({cpu:.2f} s CPU)  problem {i} ({h} heads, {d}-D): {line}")
    off = 0
    for i, M, doc in answers:
        want = independent_count(M)
        if doc.get("lower_bound") != want or doc.get("complete") is not True:
            off += 1
            print(f"  problem {i} ({len(M)} heads, {M.dim}-D): lower bound "
                  f"{doc.get('lower_bound')} (complete: {doc.get('complete')}), independent "
                  f"vertex count {want}")
    print(f"  exact: {len(answers) - off} of {len(answers)} lower bounds equal the independent "
          "vertex count and are complete")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="zonogon,segments,biases,triangles,random")
    ap.add_argument("--max-heads", type=int, default=10000)
    ap.add_argument("--problems", type=int, default=48)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    parts = set(a.only.split(","))
    try:
        print("load average %.1f %.1f %.1f" % os.getloadavg())
    except OSError:
        pass
    sizes = []
    H = a.max_heads
    while H >= 150:
        sizes.append(H)
        H //= 2
    sizes.sort()
    if "zonogon" in parts:
        doubling("zonogon: sum of sigma(q1 + k q2), k = 1..H", sizes, zonogon)
    if "segments" in parts:
        doubling("segments: H float32 heads of 2 atoms in 2-D", sizes,
                 lambda H: float_multihead(H, 2, 2, seed=1))
    if "biases" in parts:
        doubling("biases: H heads on one float32 segment in 2-D, biases k/7", sizes,
                 one_segment)
    if "triangles" in parts:
        doubling("triangles: H float32 heads of 3 atoms in 2-D", sizes,
                 lambda H: float_multihead(H, 3, 2, seed=1))
    if "random" in parts:
        held_out(a.problems, a.seed)


if __name__ == "__main__":
    main()
