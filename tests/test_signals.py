"""A command stopped by SIGTERM, SIGINT, SIGHUP or ``timeout(1)`` leaves no process behind.

The solver processes run in sessions of their own (``setsid``), so a signal to
the command's process group does not reach them: the command must kill them.
Most tests replace the solver worker by a script that never answers and that
starts a grandchild of its own, so that the command is certainly still waiting
when the signal comes, whatever the machine's load.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "certificates" / "valid"

# a solver worker that reads its request, starts a grandchild and never answers
HANGING_WORKER = textwrap.dedent("""\
    import subprocess, sys, time
    sys.stdin.read()
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    time.sleep(600)
""")

# run the attnproof command line as the console script does, with the hanging worker
LAUNCHER = textwrap.dedent("""\
    import sys
    import attnproof.smt.solvers as solvers
    solvers._WORKER = sys.argv[1]
    sys.argv = ["attnproof"] + sys.argv[2:]
    from attnproof.cli import _console
    _console()
""")


def _children(pid: int) -> dict[int, int]:
    """pid -> start time of every living descendant of ``pid`` (psutil, else /proc)."""
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        try:
            return {c.pid: int(c.create_time() * 100) for c in psutil.Process(pid).children(True)}
        except psutil.Error:
            return {}
    parents: dict[int, list[int]] = {}
    starts: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            parents.setdefault(int(fields[1]), []).append(int(entry))
            starts[int(entry)] = int(fields[19])
    out, todo = {}, [pid]
    while todo:
        for c in parents.get(todo.pop(), []):
            out[c] = starts[c]
            todo.append(c)
    return out


def _alive(pid: int, start: int) -> bool:
    """True when ``pid`` still runs (and is the same process, not a recycled id, nor a zombie)."""
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        try:
            p = psutil.Process(pid)
            return int(p.create_time() * 100) == start and p.status() != psutil.STATUS_ZOMBIE
        except psutil.Error:
            return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    fields = stat[stat.rindex(")") + 2:].split()
    return fields[0] != "Z" and int(fields[19]) == start


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of a process (0 once it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return float("inf")
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_for_descendants(proc: subprocess.Popen, n: int) -> dict[int, int]:
    """Poll until ``proc`` has at least ``n`` descendants (or has ended); all seen so far."""
    seen: dict[int, int] = {}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        seen.update(_children(proc.pid))
        if len(seen) >= n:
            return seen
        time.sleep(0.05)
    raise AssertionError(f"the command ended or never started {n} processes: "
                         f"{proc.poll()}, {proc.stderr.read() if proc.poll() is not None else ''}")


def _survivors(seen: dict[int, int]) -> list[int]:
    deadline = time.monotonic() + 10     # killed processes take a moment to be reaped
    alive = [p for p, t in seen.items() if _alive(p, t)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = [p for p, t in seen.items() if _alive(p, t)]
    for p in alive:                      # never leave them behind, even when the test fails
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass
    return alive


@pytest.fixture
def launcher(tmp_path):
    worker = tmp_path / "hanging_worker.py"
    worker.write_text(HANGING_WORKER)
    script = tmp_path / "launch.py"
    script.write_text(LAUNCHER)
    return [sys.executable, str(script), str(worker)]


@pytest.fixture
def c4(tmp_path):
    path = tmp_path / "c4.json"
    subprocess.run([sys.executable, "-m", "attnproof", "family", "graph", "--graph", "cycle",
                    "--n", "4", "-o", str(path)], check=True, capture_output=True)
    return path


COMMANDS = {
    "search": lambda c4: ["search", str(c4), "--atoms", "14", "--window", "1", "--timeout", "300"],
    "prove": lambda c4: ["prove", str(c4), "--no-minors", "--lines-timeout", "300"],   # the line query
    "check --replay": lambda c4: ["check", str(GOLDEN / "k3-window.json"), "--replay",
                                  "--replay-timeout", "300"],
}
SIGNALS = {"SIGTERM": (signal.SIGTERM, 143, "attnproof: terminated by SIGTERM"),
           "SIGINT": (signal.SIGINT, 130, "attnproof: interrupted"),
           "SIGHUP": (signal.SIGHUP, 129, "attnproof: terminated by SIGHUP")}


@pytest.mark.parametrize("command, signame", [
    ("search", "SIGTERM"), ("check --replay", "SIGTERM"), ("prove", "SIGTERM"),
    pytest.param("search", "SIGINT", marks=pytest.mark.slow),
    pytest.param("search", "SIGHUP", marks=pytest.mark.slow)])
def test_signal_kills_every_solver_process(launcher, c4, command, signame):
    sig, code, message = SIGNALS[signame]
    proc = subprocess.Popen(launcher + COMMANDS[command](c4), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=c4.parent)
    # two solver workers (z3, cvc5), each with a grandchild
    seen = _wait_for_descendants(proc, 4)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert _survivors(seen) == []
    assert proc.returncode == code, err
    assert err.strip().splitlines()[-1] == message


@pytest.mark.slow
def test_timeout_1_on_a_search_leaves_no_process(launcher, c4):
    timeout = shutil.which("timeout")
    if timeout is None:
        pytest.skip("no timeout(1) on this machine")
    proc = subprocess.Popen([timeout, "3"] + launcher + COMMANDS["search"](c4),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = _wait_for_descendants(proc, 5)      # the command, its two workers, their children
    _, err = proc.communicate(timeout=120)
    assert _survivors(seen) == []
    assert proc.returncode == 124, err         # timeout(1)'s own code for "timed out"
    assert "attnproof: terminated by SIGTERM" in err


def test_real_solvers_die_with_a_killed_command(tmp_path):
    """SIGKILL cannot be handled: the solver processes notice that their parent is gone."""
    w4 = tmp_path / "w4.json"
    subprocess.run([sys.executable, "-m", "attnproof", "family", "sigmoid-sum", "--d", "4",
                    "-o", str(w4)], check=True, capture_output=True)
    proc = subprocess.Popen([sys.executable, "-m", "attnproof", "search", str(w4), "--atoms", "12",
                             "--window", "3", "--timeout", "300"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = _wait_for_descendants(proc, 2)
    deadline = time.monotonic() + 120
    while min(_cpu_seconds(p) for p in seen) < 1.5 and time.monotonic() < deadline:
        time.sleep(0.1)     # both solvers have read their query and are working on it
    proc.kill()
    proc.communicate(timeout=60)
    assert _survivors(seen) == []


@pytest.mark.slow
def test_sigterm_on_merge_report_with_dask_workers(tmp_path):
    from attnproof.transformer.capture import random_capture, save_capture

    save_capture(random_capture(6, 8, 6, 4, seed=3), tmp_path / "c.npz")
    proc = subprocess.Popen([sys.executable, "-m", "attnproof", "merge-report",
                             str(tmp_path / "c.npz"), "-o", str(tmp_path / "r"), "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = _wait_for_descendants(proc, 2)      # the Dask workers (and their helpers)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert _survivors(seen) == []
    assert proc.returncode in (143, 0, 2), err   # it may have finished before the signal
    assert "Traceback" not in err


def test_terminated_is_handled_like_an_interrupt(run_cli, monkeypatch):
    """Clean-up paths written for Ctrl-C (``except KeyboardInterrupt``) run for SIGTERM too."""
    from attnproof.cli import common

    assert issubclass(common.Terminated, KeyboardInterrupt)

    def stop(args):
        raise common.Terminated(signal.SIGTERM)

    assert common.guarded(stop, None) == 143
