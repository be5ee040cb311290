"""The checker's cost model, measured: CPU time per unit of work (docs/checker-audit.md).

    python bench/checker_cost.py                 # the corpus and the held-out shapes, ~1 MB each
    python bench/checker_cost.py --mib 16        # the held-out shapes at 16 MiB, each in a
                                                 # child process under a 1 GB address-space limit

Every operation of the checker is charged by the sizes of its operands
(docs/certificates.md §8), so that one unit costs at most ``UNIT_MICROSECONDS``
of CPU on any input and a file of ``n`` bytes is answered within
``UNIT_MICROSECONDS × work_limit(n)`` (plus the start of the process).  This
script checks every file of ``certificates/`` and the held-out hostile shapes
(big-integer functionals of every geometry rule, dense points, deep nesting,
long exponents, the JSON shapes slowest to read), prints the CPU time, the work
and ``(time - ALLOWANCE) / work`` of the worst, and with ``--mib`` the CPU time
and peak memory of each shape at that size.  ``tests/test_checker_cost.py``
asserts the bound on the same shapes at a small size.
"""

from __future__ import annotations

import argparse
import copy
import gc
import hashlib
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CERTS = ROOT / "certificates"
ALLOWANCE = 0.002           # seconds of a check that is no unit's (the call, the verdict)


def _canon(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")) + "\n"


def _golden(name: str) -> dict:
    return json.loads((CERTS / "valid" / f"{name}.json").read_text())


def _big(rng, digits: int) -> int:
    return rng.randrange(10 ** (digits - 1), 10 ** digits)


def scaled(doc: dict, m: int) -> dict:
    """``doc`` with every functional, multiplier, δ and λ of its geometry steps times ``m > 0``:
    still valid (a positive multiple has the same maximizers and the same relations)."""
    d = copy.deepcopy(doc)

    def times(v):
        return [x * m for x in v]
    for s in d["steps"]:
        r = s["rule"]
        if r == "indecomposable_chain" and s["kind"] == "chain":
            s["triangles"] = [[abc, times(fn)] for abc, fn in s["triangles"]]
            s["non_vertices"] = [[i, [[j, mu * m] for j, mu in mus]] for i, mus in s["non_vertices"]]
        elif r == "generic_heads" and "width_functionals" in s:
            s["width_functionals"] = [times(c) for c in s["width_functionals"]]
        elif r == "minkowski_vertices":
            s["vertices"] = [[t, u, times(c)] for t, u, c in s["vertices"]]
            s["non_vertices"] = [[t, [[h, j, mu * m] for h, j, mu in mus]] for t, mus in s["non_vertices"]]
        elif r == "direct_sum":
            for f in s["factors"]:
                f["vertices"] = [[i, times(c)] for i, c in f["vertices"]]
                f["relations"] = [[j, dl * m, times(lam)] for j, dl, lam in f["relations"]]
    return d


def keys_scaled(doc: dict, k: int) -> dict:
    """``doc`` (integer keys) with every key and every vertex sum times ``k > 0``: the
    same polytopes dilated, still valid, with exponents of the digits of ``k``."""
    d = copy.deepcopy(doc)
    for h in d["problem"]["heads"]:
        for a in h["atoms"]:
            a["key"] = [x * k for x in a["key"]]
    for s in d["steps"]:
        if s["rule"] == "minkowski_vertices":
            s["vertices"] = [[t, [x * k for x in u], c] for t, u, c in s["vertices"]]
    d["problem_sha256"] = hashlib.sha256(_canon(d["problem"]).encode()).hexdigest()
    return d


def width_functionals(nbytes: int, digits: int = 1990, seed: int = 1, count: int | None = None) -> str:
    """The valid ``geom-indecomposable`` certificate, its keys ``digits`` digits long, with
    ``nbytes`` of width functionals whose entries have ``digits`` digits (each a random
    multiple of one of the golden two)."""
    rng = random.Random(seed)
    d = keys_scaled(_golden("geom-indecomposable"), _big(rng, digits))
    (g,) = [s for s in d["steps"] if s["rule"] == "generic_heads"]
    base = g["width_functionals"]
    k = count or max(1, nbytes // (3 * digits + 8))
    g["width_functionals"] = [[x * _big(rng, digits) for x in base[i % len(base)]] for i in range(k)]
    return _canon(d)


def chain_functionals(nbytes: int, digits: int = 1990, seed: int = 2) -> str:
    """``geom-chain``'s head repeated, each copy with its chain of triangles whose functionals
    have ``digits`` digits: every chain is checked, then the classes are wrong (invalid)."""
    rng = random.Random(seed)
    d = _golden("geom-chain")
    chain = d["steps"][0]
    per = len(_canon(scaled({"steps": [chain]}, 10 ** (digits - 1))))
    k = max(1, nbytes // per)
    d["problem"]["heads"] = d["problem"]["heads"] * k
    d["problem"]["heads"] = [dict(h, name=f"h{i}") for i, h in enumerate(d["problem"]["heads"])]
    chains = [dict(scaled({"steps": [chain]}, _big(rng, digits))["steps"][0], head=i) for i in range(k)]
    d["steps"] = chains + d["steps"][1:]
    d["problem_sha256"] = hashlib.sha256(_canon(d["problem"]).encode()).hexdigest()
    return _canon(d)


def vertex_functionals(name: str, digits: int = 1990, seed: int = 3, keys: bool = False) -> str:
    """The valid golden certificate ``name`` with its vertex functionals, multipliers, δ and λ
    times one number of ``digits`` digits (and its keys too, with ``keys``)."""
    rng = random.Random(seed)
    d = scaled(_golden(name), _big(rng, digits))
    return _canon(keys_scaled(d, _big(rng, digits)) if keys else d)


def _adversarial():
    import importlib.util
    spec = importlib.util.spec_from_file_location("adv_generate", CERTS / "adversarial" / "generate.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _reading(nbytes: int) -> dict:
    import importlib.util
    spec = importlib.util.spec_from_file_location("adv_tests", ROOT / "tests" / "test_checker_adversarial.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return {f"read-{k}": v[0] for k, v in mod._shapes(nbytes).items()}


def held_out(nbytes: int) -> dict:
    """``{name: certificate text}``: the hostile shapes of about ``nbytes`` bytes each."""
    gen = _adversarial()
    pts = max(10, int((nbytes / 40) ** 0.5))
    out = {"width-functionals": width_functionals(nbytes),
           "chain-functionals": chain_functionals(nbytes),
           "minkowski-functionals": vertex_functionals("geom-indecomposable"),
           "minkowski-functionals-keys": vertex_functionals("geom-indecomposable", keys=True),
           "direct-sum-functionals": vertex_functionals("geom-chain"),
           "direct-sum-functionals-keys": vertex_functionals("geom-chain", keys=True),
           "dense-points": _canon(gen.dense_simplex(pts, max(pts, 1000))),
           "thin-triangle": _canon(gen.thin_triangle(max(10, nbytes // 400))),
           "deep-nesting": "[" * (nbytes // 2) + "]" * (nbytes // 2),
           "long-exponents": _canon(gen.huge_exponent_head(max(2, nbytes // 4000), 2000)),
           "long-exponent-sigma": _canon(gen.single_sigma(10 ** 1999 + 1)),
           "components": _canon(gen.constant_components(1000, max(2, nbytes // 200))),
           # a name of nbytes buys its budget: spent whole by a division no image decides
           "padded-division": _canon(gen.undecided_division(pad=nbytes))}
    out.update(_reading(nbytes))
    return out


def corpus() -> dict:
    """``{path: text}`` of every certificate of ``certificates/``."""
    return {str(p.relative_to(CERTS)): p.read_text(encoding="utf-8", errors="replace")
            for p in sorted(CERTS.glob("*/*.json")) if p.name != "index.json"}


def measure(text: str, repeat: int = 2) -> tuple[float, int, str]:
    """``(least CPU seconds over repeat runs, work, status)`` of ``check_text(text)``."""
    from attnproof.checker import check_text
    best, v = None, None
    for _ in range(repeat):
        # the collector's passes over objects that are not this check's (the caller's
        # heap: pytest, the corpus) are no unit of this check: collect first, then time
        # the check with the collector off
        gc.collect()
        gc.disable()
        try:
            t0 = time.process_time()
            v = check_text(text)
            t = time.process_time() - t0
        finally:
            gc.enable()
        best = t if best is None else min(best, t)
    return best, v.work, v.status


def per_unit(seconds: float, work: int) -> float:
    """Microseconds per unit, the allowance of a call set aside."""
    return 1e6 * max(seconds - ALLOWANCE, 0.0) / max(work, 1)


def _child(path: str) -> None:
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    sys.setrecursionlimit(10 ** 6)
    t0 = time.process_time()
    from attnproof.checker import check_text
    v = check_text(Path(path).read_text())
    # the peak of this process's memory (ru_maxrss would keep the parent's across exec)
    peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM"))
    print(json.dumps({"cpu": round(time.process_time() - t0, 3), "work": v.work, "status": v.status,
                      "peak_mb": round(peak / 1024)}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mib", type=float, default=0, help="also run the held-out shapes at this size")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return _child(a.child)
    from attnproof.checker.limits import UNIT_MICROSECONDS, work_limit
    rows = []
    for name, text in list(corpus().items()) + list(held_out(1 << 20).items()):
        t, w, s = measure(text)
        rows.append((per_unit(t, w), t, w, len(text), name, s))
    rows.sort(reverse=True)
    print(f"{'us/unit':>8} {'cpu s':>7} {'work':>10} {'bytes':>9}  file")
    for r in rows[:20]:
        print(f"{r[0]:8.3f} {r[1]:7.3f} {r[2]:10d} {r[3]:9d}  {r[4]} ({r[5]})")
    print(f"worst {rows[0][0]:.3f} us/unit over {len(rows)} files (the constant: {UNIT_MICROSECONDS})")
    if a.mib:
        import tempfile
        n = int(a.mib * (1 << 20))
        print(f"held-out shapes at {a.mib} MiB (bound: {UNIT_MICROSECONDS * work_limit(n) / 1e6:.1f} s)")
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in held_out(n).items():
                path = Path(tmp) / f"{name}.json"
                path.write_text(text)
                del text
                out = subprocess.run([sys.executable, __file__, "--child", str(path)],
                                     capture_output=True, text=True, timeout=600)
                line = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr[-200:]
                print(f"  {name:28} {path.stat().st_size:10d} B  {line}")
                path.unlink()


if __name__ == "__main__":
    main()
