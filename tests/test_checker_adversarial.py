"""The adversarial corpus under resource limits (certificates/adversarial/, index.json).

Every file must get its expected exit code within its budget (wall seconds and
address space, enforced by ``setitimer`` and ``RLIMIT_AS`` in a child
process), never exit 4 and never die by a signal.  Files checked with
``--replay`` run each in their own child (the replay has its own timer).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ADV = ROOT / "certificates" / "adversarial"
INDEX = json.loads((ADV / "index.json").read_text())

_BATCH = r"""
import contextlib, io, json, resource, signal, sys, time
mb, items, cpu = json.loads(sys.stdin.read())
resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))
timer = signal.ITIMER_PROF if cpu else signal.ITIMER_REAL     # CPU or wall seconds
from attnproof.cli import main

class Over(BaseException):
    pass

def _alarm(*_):
    raise Over()

signal.signal(signal.SIGALRM, _alarm)
signal.signal(signal.SIGPROF, _alarm)
out = {}
for path, args, seconds in items:
    buf = io.StringIO()
    t = time.process_time() if cpu else time.monotonic()
    signal.setitimer(timer, seconds)
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            code = main(["check", path, "--json", *args])
    except Over:
        code = "over time budget"
    except MemoryError:
        code = "over memory budget"
    finally:
        signal.setitimer(timer, 0)
    out[path] = [code, round((time.process_time() if cpu else time.monotonic()) - t, 3),
                 buf.getvalue()[:50000]]
print(json.dumps(out))
"""


def _have(need: str) -> bool:
    if need == "flint":
        from attnproof.checker.flint_gcd import flint_module
        return flint_module() is not None
    if need == "solvers":
        try:
            from attnproof.smt.solvers import solver_available
        except ImportError:
            return False
        return solver_available("z3") and solver_available("cvc5")
    raise AssertionError(need)


def expected(entry: dict) -> int:
    """The expected exit code; 2 (inconclusive) when something it needs is missing."""
    return entry["exit"] if all(_have(n) for n in entry["needs"]) else 2


def _run_batch(items: list, mb: int, timeout: float, cpu: bool = False) -> dict:
    """Check each ``(path, args, seconds)`` in one child limited to ``mb`` MiB of address
    space, each within its seconds of wall time (``cpu``: of CPU time, for the shapes
    that measure the checker, not the load of the machine)."""
    p = subprocess.run([sys.executable, "-c", _BATCH], input=json.dumps([mb, items, cpu]),
                       capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert p.returncode == 0, f"the checker process died (rc {p.returncode}): {p.stderr[-2000:]}"
    return json.loads(p.stdout)


def test_corpus_is_complete_and_covers_every_kind():
    files = {p.name for p in ADV.glob("*.json")} - {"index.json"}
    assert files == set(INDEX)
    assert len(INDEX) >= 40
    kinds = {name.split("-")[0] for name in INDEX}
    assert kinds == {"forged", "bomb", "syntax"}
    for e in INDEX.values():
        assert e["exit"] in (0, 1, 2, 3) and e["seconds"] <= 10 and e["memory_mb"] <= 1024
    # each issue item has its bomb, and every rule a forged claim
    for needle in ("bomb-exponent", "bomb-dim-1e9", "bomb-dim-1e30", "bomb-digits-4301",
                   "bomb-rank", "bomb-quadratic", "bomb-replay", "forged-flint",
                   "forged-window", "forged-factor", "forged-vertex", "forged-blocks",
                   "forged-fusion", "forged-upper", "syntax-nan"):
        assert any(n.startswith(needle) for n in INDEX), needle
    assert sum(1 for e in INDEX.values() if e["exit"] == 1) >= 30
    # calibration: neither an always-accept nor an always-reject checker passes
    assert {0, 1, 2} <= {e["exit"] for e in INDEX.values()}


_WORDS = {0: "valid", 1: "invalid", 2: "inconclusive"}


def _agrees(code, out: str) -> bool:
    """Under --json, verdict, message and exit code agree (exit 3 is a usage error)."""
    if code not in _WORDS:
        return code == 3
    d = json.loads(out)
    return (d["exit_code"] == code and d["verdict"] == _WORDS[code]
            and d["message"].startswith(_WORDS[code])
            and "internal checker error" not in d["message"])


def test_adversarial_files_within_budget():
    items = [(str(ADV / p), e["args"], e["seconds"]) for p, e in sorted(INDEX.items())
             if "--replay" not in e["args"]]
    mb = max(e["memory_mb"] for e in INDEX.values())
    total = sum(s for _, _, s in items)
    res = _run_batch(items, mb, timeout=total + 60)
    bad = []
    for path, _args, _ in items:
        code, secs, out = res[path]
        entry = INDEX[Path(path).name]
        if code != expected(entry) or not _agrees(code, out):
            bad.append(f"{Path(path).name}: got {code} in {secs} s, expected {expected(entry)}: {out}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("name", sorted(p for p, e in INDEX.items() if "--replay" in e["args"]))
def test_adversarial_replay_within_budget(name):
    e = INDEX[name]
    res = _run_batch([(str(ADV / name), e["args"], e["seconds"] + 30)], e["memory_mb"],
                     timeout=e["seconds"] + 60)
    code, secs, out = res[str(ADV / name)]
    assert code == expected(e) and _agrees(code, out), out
    assert secs <= e["seconds"] + 5, f"{name}: {secs} s"


def _generator():
    import importlib.util
    spec = importlib.util.spec_from_file_location("adversarial_generate", ADV / "generate.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_generated_geometry_bombs_within_budget(tmp_path):
    """Large hostile files built here (the corpus keeps small ones): work is charged
    before anything is materialized, so each is answered within 10 s and 1 GB."""
    from attnproof.io import canonical_json

    gen = _generator()
    cases = [("dense-points-20000", gen.dense_simplex(20000, 100000), 2),
             ("components-5000", gen.constant_components(100000, 5000), 0),
             ("constant-pairs-200", gen.constant_pairs(200), 1),
             ("thin-triangle-40000", gen.thin_triangle(40000), 1)]
    items = []
    for name, doc, _ in cases:
        path = tmp_path / f"{name}.json"
        path.write_text(canonical_json(doc))
        items.append((str(path), [], 10))
    res = _run_batch(items, 1024, timeout=120)
    for (name, _, want), (path, _, _) in zip(cases, items):
        code, secs, out = res[path]
        assert code == want and _agrees(code, out), (name, code, secs, out[:300])


def test_point_non_vertices_are_charged_before_they_are_checked():
    # n points in V coordinates with n multipliers each: n^2·V work from n^2 + n·V numbers
    from attnproof.checker.rules import geometry as G
    from attnproof.checker.rules.state import State
    from attnproof.checker.syntax import Budget, Unsupported

    n, V = 300, 300
    pts = [tuple(j % 5 for j in range(V))] * n       # every claim holds: each costs n·V
    claims = [[i, [[j, 1] for j in range(n) if j != i]] for i in range(n)]
    st = State(None, Budget(10 ** 6))
    with pytest.raises(Unsupported):
        G._point_non_vertices(claims, pts, "non_vertices", st)
    assert st.budget.used <= 10 ** 6 + (n + 1) * (V + 1)      # stopped at the first claim over


def _shapes(size: int) -> dict:
    """The JSON shapes that cost the most time and memory to read per byte, each of about
    ``size`` bytes: ``{name: (text, exit code)}``."""
    import hashlib

    def listed(unit: str) -> str:
        return "[" + ",".join([unit] * ((size - 2) // (len(unit) + 1))) + "]"

    def canon(obj) -> str:
        return json.dumps(obj, sort_keys=True, separators=(",", ":")) + "\n"

    atom = {"key": [1], "value": 1}
    problem = {"format": "attnproof-problem", "version": 1, "dim": 1,
               "heads": [{"atoms": [atom] * ((size - 400) // len(canon(atom)))}]}

    def cert(problem):          # hashed right, so that the problem is read (to the budget)
        return canon({"format": "attnproof-certificate", "version": 1, "problem": problem,
                      "problem_sha256": hashlib.sha256(canon(problem).encode()).hexdigest(),
                      "claims": {"lower_bound": 1, "upper_bound": 1, "minimum": 1,
                                 "window_refutations": []}, "steps": [], "trust": "exact"})
    heads, n = [], 400           # many heads of two atoms: the most time per byte once read
    while n < size - 60:
        heads.append({"atoms": [{"key": [len(heads) + 1], "value": 1}, {"key": [0], "value": 0}]})
        n += len(canon(heads[-1]))
    many = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": heads}
    keys, n = [], 1
    while n < size - 20:
        keys.append(f'"{len(keys):x}":1')
        n += len(keys[-1]) + 1
    return {"small-objects": (listed('{"a":1}'), 1), "one-element-lists": (listed("[1]"), 1),
            "empty-objects": (listed("{}"), 1), "short-strings": (listed('"ab"'), 1),
            "distinct-ints": ("[" + ",".join(str(10 ** 6 + i)
                                             for i in range((size - 2) // 8)) + "]", 1),
            "ones": (listed("1"), 1), "one-object": ("{" + ",".join(keys) + "}", 1),
            "hashed-problem-of-atoms": (cert(problem), 1), "hashed-problem-of-heads": (cert(many), 1)}


@pytest.mark.slow
def test_reading_is_bounded_by_the_size_the_default_budget_reads(tmp_path):
    """The worst JSON shapes for reading time and memory, each of 16 MiB (reading is
    charged by the byte, within the budget the size buys), are answered within 10 s of
    CPU and 1 GB of address space, each in its own process; with a --max-work that reads
    less, one byte more is answered inconclusive unread, in one line that names --max-work."""
    from attnproof.checker.limits import BYTES_PER_WORK, MAX_READ_BYTES

    shapes = _shapes(MAX_READ_BYTES)
    for name, (text, want) in shapes.items():
        assert len(text) <= MAX_READ_BYTES, (name, len(text))
        assert len(text) >= MAX_READ_BYTES * 0.99, (name, len(text))
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        res = _run_batch([(str(path), [], 10)], 1024, timeout=120, cpu=True)
        code, secs, out = res[str(path)]
        assert code == want and _agrees(code, out), (name, code, secs, out[:300])
        path.unlink()
    path = tmp_path / "one-byte-more.json"
    path.write_text("[" + " " * MAX_READ_BYTES + "]")
    work = str(MAX_READ_BYTES // BYTES_PER_WORK)
    res = _run_batch([(str(path), ["--max-work", work], 10)], 1024, timeout=120, cpu=True)
    code, secs, out = res[str(path)]
    assert code == 2 and "--max-work" in json.loads(out)["message"] and secs < 1, (secs, out)
