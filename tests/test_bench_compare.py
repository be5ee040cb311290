"""bench/compare.py, the benchmark guard of CI: its verdicts, and a deliberate slowdown caught.

The verdict functions are tested on made-up pytest-benchmark files (no timing); the slow
test runs the guard on a copy of the package with a sleep in the fused-head writer, which
must fail it, and on an unchanged copy, which must pass.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load():
    spec = importlib.util.spec_from_file_location("bench_compare", ROOT / "bench" / "compare.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


compare = _load()


def _run_file(path: Path, rows: dict[str, list[float]]) -> Path:
    """A pytest-benchmark JSON file with the rounds ``rows`` (name -> seconds)."""
    path.write_text(json.dumps({"benchmarks": [
        {"name": n, "fullname": f"bench_headline.py::{n}",
         "stats": {"median": sorted(xs)[len(xs) // 2], "data": xs}} for n, xs in rows.items()]}))
    return path


def test_medians_pool_the_rounds_of_every_run_of_a_side(tmp_path):
    a = _run_file(tmp_path / "a.json", {"bench_x[1]": [1.0, 1.0, 9.0], "bench_anchor_y": [2.0]})
    b = _run_file(tmp_path / "b.json", {"bench_x[1]": [3.0, 3.0, 3.0]})
    m = compare.medians([a, b, tmp_path / "missing.json"])
    assert m["bench_x[1]"] == (3.0, False, "bench_headline.py::bench_x[1]")   # median of 6 rounds
    assert m["bench_anchor_y"] == (2.0, True, "bench_headline.py::bench_anchor_y")
    assert compare.medians([tmp_path / "missing.json"]) == {}


def test_slowdowns_beyond_the_factor_leave_out_anchors_and_accepted_ones():
    base = {"bench_a": (1.0, False, ""), "bench_b": (1.0, False, ""), "bench_anchor_c": (1.0, True, ""),
            "bench_anchor_e": (1.0, True, ""), "bench_anchor_f": (1.0, True, ""),
            "bench_d[2]": (1.0, False, ""), "bench_gone": (1.0, False, "")}
    head = {"bench_a": (1.51, False, ""), "bench_b": (1.49, False, ""), "bench_anchor_c": (4.0, True, ""),
            "bench_anchor_e": (1.0, True, ""), "bench_anchor_f": (0.9, True, ""),
            "bench_d[2]": (2.0, False, ""), "bench_new": (9.0, False, "")}
    r = compare.ratios(base, head)
    assert set(r) == set(base) - {"bench_gone"}                                 # both sides only
    assert compare.drift(r, base) == 1.0                                         # the median anchor
    assert compare.slowdowns(r, base, 1.5, set()) == ["bench_a", "bench_d[2]"]
    assert compare.slowdowns(r, base, 1.5, {"bench_d"}) == ["bench_a"]          # by its function
    assert compare.slowdowns(r, base, 1.5, {"bench_d[2]", "bench_a"}) == []
    assert compare.slowdowns(r, base, 2.5, set()) == []


def test_accepted_slowdowns_are_read_from_commit_message_lines(monkeypatch):
    log = ("Checks every factor again\n\nAccept-slowdown: bench_prove_cli[10000]\n"
           "Accept-slowdown:bench_zonogon\nnot Accept-slowdown: bench_x\n")
    monkeypatch.setattr(compare, "git", lambda *a, **k: (0, log))
    assert compare.accepted_slowdowns("abc", None) == {"bench_prove_cli[10000]", "bench_zonogon"}
    monkeypatch.setattr(compare, "git", lambda *a, **k: (128, ""))
    assert compare.accepted_slowdowns("abc", None) == set()


def test_headline_ratios_need_both_sides_of_each():
    head = {"bench_anchor_numpy_eval[16]": (0.6, True, ""), "bench_eval_kernel[16]": (0.2, False, ""),
            "bench_anchor_plain_z3_k4": (5.0, True, "")}
    lines = compare.headline_ratios(head)
    assert len(lines) == 1 and lines[0].endswith("= 3.00x") and lines[0].startswith("NumPy")


def test_usage_errors_exit_3(capsys):
    assert compare.main(["no-such-commit-anywhere", "."]) == 3
    assert "names no commit" in capsys.readouterr().err
    assert compare.main(["--factor", "1"]) == 3
    assert compare.main(["--pairs", "0"]) == 3
    assert compare.main(["--no-such-option"]) == 3
    assert compare.main(["--keep", str(ROOT / "README.md"), "HEAD", "."]) == 3
    assert "--keep" in capsys.readouterr().err


def test_ci_without_a_parent_commit_says_so_and_passes(tmp_path, monkeypatch, capsys):
    repo = tmp_path / "clone"
    repo.mkdir()
    (repo / "f").write_text("x")
    g = ["git", "-C", str(repo), "-c", "user.name=n", "-c", "user.email=e@example.org"]
    subprocess.run(g[:3] + ["init", "-q"], check=True)
    subprocess.run(g + ["add", "f"], check=True)
    subprocess.run(g + ["commit", "-qm", "first"], check=True)
    monkeypatch.setattr(compare, "REPO", repo)
    assert compare.main(["--ci"]) == 0
    assert "skipped: HEAD has no parent commit" in capsys.readouterr().out


def test_ci_runs_the_guard_after_the_readme_test_command():
    text = (ROOT / ".ci" / "run").read_text()
    assert text.index("bash -c \"set -e; $cmd\"") < text.index("bench/compare.py --ci")
    assert re.search(r"^BENCH_FACTOR=1\.5$", text, re.M)
    assert "pytest-benchmark" in (ROOT / "pyproject.toml").read_text()


def test_the_suite_collects_a_ci_subset_and_every_headline_pair():
    proc = subprocess.run([sys.executable, "-m", "pytest", str(ROOT / "bench" / "suite"), "--collect-only",
                           "-q"], capture_output=True, text=True, cwd=ROOT / "bench", timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    names = {ln.split("::")[-1] for ln in proc.stdout.splitlines() if "::" in ln}
    for _, anchor, job in compare.RATIOS:
        assert anchor in names and job in names
    ci = subprocess.run([sys.executable, "-m", "pytest", str(ROOT / "bench" / "suite"), "--collect-only",
                         "-q", "-m", "ci"], capture_output=True, text=True, cwd=ROOT / "bench", timeout=300)
    ci_names = {ln.split("::")[-1] for ln in ci.stdout.splitlines() if "::" in ln}
    assert "bench_fuse_cli[12]" in ci_names and 6 <= len(ci_names) < len(names)


def _package_copy(into: Path, sleep: float | None = None) -> Path:
    """A copy of this checkout's package under ``into``; with ``sleep``, the fused-head writer
    of ``attnproof fuse`` (``fusion/writer.py``) first sleeps that many seconds."""
    shutil.copytree(ROOT / "attnproof", into / "attnproof", ignore=shutil.ignore_patterns("__pycache__"))
    if sleep is not None:
        path = into / "attnproof" / "fusion" / "writer.py"
        lines = path.read_text().splitlines(keepends=True)
        names = ("write_fused",)
        start = next(i for n in names for i, ln in enumerate(lines) if ln.startswith(f"def {n}("))
        end = next(i for i in range(start, len(lines)) if lines[i].rstrip().endswith(":"))
        lines.insert(end + 1, f"    import time; time.sleep({sleep})  # a deliberate slowdown\n")
        path.write_text("".join(lines))
    return into


@pytest.mark.slow
def test_a_deliberate_slowdown_fails_the_ci_step_and_its_removal_passes(tmp_path):
    clean = _package_copy(tmp_path / "clean")
    slow = _package_copy(tmp_path / "slow", sleep=2.0)
    argv = [sys.executable, str(ROOT / "bench" / "compare.py"), "--ci", "-k",
            "bench_fuse_cli or bench_anchor_python_process"]

    failed = subprocess.run(argv + [str(clean), str(slow)], capture_output=True, text=True, timeout=900)
    assert failed.returncode == 1, failed.stdout[-3000:]
    assert "benchmark comparison FAILED" in failed.stdout and "bench_fuse_cli[12]" in failed.stdout

    passed = subprocess.run(argv + [str(clean), str(_package_copy(tmp_path / "fixed"))],
                            capture_output=True, text=True, timeout=900)
    assert passed.returncode == 0, passed.stdout[-3000:]
    assert "benchmark comparison passed" in passed.stdout


def test_the_examples_in_the_docstrings():
    import doctest

    assert doctest.testmod(compare).failed == 0


def test_a_slowdown_must_outgrow_the_machines_drift():
    base = {"bench_a": (1.0, False, ""), "bench_b": (1.0, False, ""), "bench_anchor_p": (1.0, True, ""),
            "bench_anchor_q": (1.0, True, "")}
    # the head ran on a machine 1.7x busier: every job slower, none by more than the machine
    busy = {"bench_a": 1.8, "bench_b": 1.6, "bench_anchor_p": 1.7, "bench_anchor_q": 1.7}
    assert compare.drift(busy, base) == 1.7 and compare.slowdowns(busy, base, 1.5, set()) == []
    # one job 2.4x slower while the anchors ran faster: a slowdown
    quiet = {"bench_a": 2.4, "bench_b": 1.1, "bench_anchor_p": 0.7, "bench_anchor_q": 0.6}
    assert compare.slowdowns(quiet, base, 1.5, set()) == ["bench_a"]
    # below the factor it is never one, however fast the anchors got
    assert compare.slowdowns({"bench_a": 1.4, "bench_anchor_p": 0.5}, base, 1.5, set()) == []
    # a slowdown of everything beyond what the anchors show is caught
    assert compare.slowdowns({"bench_a": 3.2, "bench_b": 3.0, "bench_anchor_p": 1.1}, base, 1.5,
                             set()) == ["bench_a", "bench_b"]
