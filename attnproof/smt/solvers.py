"""Solver back ends, each run in a separate process that a timeout can kill.

:func:`run_solver` starts ``python worker.py`` (see :mod:`attnproof.smt.worker`)
with resource limits (address space, CPU time), hands it the SMT-LIB2 text
and waits at most ``timeout`` seconds; past that the process is killed and the
answer is ``unknown`` (never a refutation).  A missing solver is reported as
``SolverError("... is not available")``.

>>> run_solver("z3", "(declare-fun a () Real)(assert (> a 1))(assert (< a 0))(check-sat)", 30).result
'unsat'
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

from ..display import fields_repr
from ..errors import SolverError

__all__ = ["SolverRun", "run_solver", "run_solvers", "run_solvers_in_turn", "solver_available", "solver_version", "SOLVER_NAMES",
           "DEFAULT_MEMORY_MB", "kill_running_solvers", "running_solvers", "describe_states", "OnStates"]

SOLVER_NAMES = ("z3", "cvc5")
DEFAULT_MEMORY_MB = 8192
_MODULES = {"z3": "z3", "cvc5": "cvc5"}
_WORKER = Path(__file__).with_name("worker.py")
_SLACK = 2.0


@dataclass(frozen=True, repr=False)
class SolverRun:
    """What one solver said: ``sat``/``unsat``/``unknown``, with version and time."""

    solver: str
    result: str
    version: str
    seconds: float
    reason: str = ""
    model: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        """Short: ``SolverRun('z3', 'unsat', version='4.13.0', seconds=0.4)`` (the model is ``.model``)."""
        return fields_repr("SolverRun", repr(self.solver), repr(self.result), version=self.version,
                           seconds=self.seconds, reason=self.reason or None,
                           model=f"<{len(self.model)} values>" if self.model else None)

    def to_dict(self) -> dict:
        """JSON summary (the model is left out).

        >>> SolverRun("z3", "unknown", "4.0", 1.0, "timeout").to_dict()
        {'result': 'unknown', 'version': '4.0', 'seconds': 1.0, 'reason': 'timeout'}
        """
        d = {"result": self.result, "version": self.version, "seconds": self.seconds}
        if self.reason:
            d["reason"] = self.reason
        return d


# told the state of every solver of a query (``{"z3": "unsat", "cvc5": "running"}``) when
# the solvers start and each time one answers: what a progress display shows
OnStates = Optional[Callable[[dict[str, str]], None]]


def describe_states(states: dict[str, str]) -> str:
    """The solvers' states in words, as a progress label shows them.

    >>> describe_states({"z3": "running", "cvc5": "running"})
    'z3 and cvc5 running'
    >>> describe_states({"z3": "unsat", "cvc5": "running"})
    'z3 unsat, cvc5 running'
    """
    values = set(states.values())
    if len(states) > 1 and len(values) == 1:
        return f"{' and '.join(states)} {values.pop()}"
    return ", ".join(f"{name} {state}" for name, state in states.items())


PIP_PACKAGES = {"z3": "z3-solver", "cvc5": "cvc5"}     # the pip package of each solver


def solver_available(name: str) -> bool:
    """True when the solver's Python package can be imported.

    >>> solver_available("z3"), solver_available("nosuchsolver")
    (True, False)
    """
    mod = _MODULES.get(name)
    return mod is not None and importlib.util.find_spec(mod) is not None


def solver_version(name: str) -> str:
    """The version string of an installed solver (imports it in this process).

    >>> solver_version("z3").count(".") >= 2
    True
    """
    if not solver_available(name):
        raise SolverError(f"solver {name} is not available (pip install {PIP_PACKAGES.get(name, name)})")
    if name == "z3":
        import z3
        return z3.get_version_string()
    import cvc5
    v = cvc5.Solver().getVersion()
    return v.decode("ascii", "replace") if isinstance(v, bytes) else str(v)


def _parent_death_signal():
    """A function that asks the kernel to SIGKILL the calling process when its parent dies.

    Linux only (``prctl(PR_SET_PDEATHSIG)``); elsewhere None.  Prepared in the
    parent, called in the child between fork and exec: a solver process then
    never outlives the process that started it, even one killed with SIGKILL.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    PR_SET_PDEATHSIG = 1

    def set_signal() -> None:
        prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    return set_signal


_SET_PDEATHSIG = _parent_death_signal()


def _limits(memory_mb: int, cpu_s: int):
    parent = os.getpid()

    def apply() -> None:  # runs in the child before exec
        import resource
        os.setsid()
        if _SET_PDEATHSIG is not None:
            _SET_PDEATHSIG()
            if os.getppid() != parent:      # the parent died before the request took effect
                os._exit(1)
        lim = memory_mb * 1024 * 1024
        for what, soft, hard in ((resource.RLIMIT_AS, lim, lim),
                                 (resource.RLIMIT_CPU, cpu_s, cpu_s + 5)):
            cap = resource.getrlimit(what)[1]   # never above limits the caller already has
            if cap != resource.RLIM_INFINITY:
                soft, hard = min(soft, cap), min(hard, cap)
            resource.setrlimit(what, (soft, hard))
    return apply


# every solver process this process started and has not yet reaped: killed at exit and
# by :func:`kill_running_solvers` (the command line's SIGTERM handler calls it)
_RUNNING: set = set()
_RUNNING_LOCK = threading.RLock()     # re-entrant: a signal handler may run while it is held


def running_solvers() -> list[int]:
    """The process ids of the solver processes started here that may still run.

    >>> running_solvers()
    []
    """
    with _RUNNING_LOCK:
        return sorted(p.pid for p in _RUNNING if p.poll() is None)


def kill_running_solvers() -> int:
    """Kill (SIGKILL, whole process group) every solver process started here; how many were running.

    Safe to call from a signal handler or at exit; a solver killed this way
    answers ``unknown`` to whoever waits for it.

    >>> kill_running_solvers()
    0
    """
    with _RUNNING_LOCK:
        procs = list(_RUNNING)
    n = 0
    for proc in procs:
        if proc.poll() is None:
            n += 1
        _kill(proc)
    return n


atexit.register(kill_running_solvers)


def _start(name: str, smtlib: str, timeout: float, model_vars: tuple[str, ...],
           memory_mb: int, seed: int) -> tuple[subprocess.Popen, str]:
    if name not in SOLVER_NAMES:
        raise SolverError(f"unknown solver {name!r}; choose one of {', '.join(SOLVER_NAMES)}")
    if not solver_available(name):
        raise SolverError(f"solver {name} is not available (pip install {PIP_PACKAGES.get(name, name)})")
    timeout = max(float(timeout), 0.1)
    req = json.dumps({"solver": name, "smtlib": smtlib, "timeout_ms": int(timeout * 1000),
                      "model_vars": list(model_vars), "seed": int(seed)})
    proc = subprocess.Popen([sys.executable, "-I", str(_WORKER)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_limits(memory_mb, int(timeout) + 10))
    with _RUNNING_LOCK:
        _RUNNING.add(proc)
    return proc, req


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            try:
                proc.kill()
            except OSError:
                pass
    if proc.poll() is not None:
        with _RUNNING_LOCK:
            _RUNNING.discard(proc)


def _wait(name: str, proc: subprocess.Popen, req: str, timeout: float, t0: float) -> SolverRun:
    """Feed the request, wait at most ``timeout`` plus slack, and read the answer."""
    try:
        out, err = proc.communicate(req, timeout=timeout + _SLACK)
    except subprocess.TimeoutExpired:
        _kill(proc)
        proc.communicate()
        return SolverRun(name, "unknown", "", round(time.perf_counter() - t0, 3),
                         f"killed after {timeout:g} s")
    except (OSError, ValueError) as e:        # the process was killed while we wrote to it
        _kill(proc)
        return SolverRun(name, "unknown", "", round(time.perf_counter() - t0, 3),
                         f"solver process stopped ({type(e).__name__})")
    finally:
        _kill(proc)                            # interrupted while waiting
    elapsed = round(time.perf_counter() - t0, 3)
    try:
        ans = json.loads(out)
    except ValueError:
        if proc.returncode is not None and proc.returncode < 0:
            return SolverRun(name, "unknown", "", elapsed, "solver process stopped")
        tail = (err or "").strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
        return SolverRun(name, "unknown", "", elapsed, f"solver process failed: {tail[0][:200]}")
    result = ans.get("result")
    if result == "error":
        if "not available" in ans.get("reason", ""):
            raise SolverError(ans["reason"])
        return SolverRun(name, "unknown", ans.get("version", ""), elapsed,
                         f"solver error: {ans.get('reason', '')[:200]}")
    if result not in ("sat", "unsat", "unknown"):
        return SolverRun(name, "unknown", ans.get("version", ""), elapsed, f"unexpected answer {result!r}")
    reason = ans.get("reason", "")
    if result == "unknown" and reason in ("timeout", "canceled", "TIMEOUT", "REQUIRES_FULL_CHECK"):
        reason = f"timeout after {timeout:g} s ({reason})"
    return SolverRun(name, result, ans.get("version", ""), elapsed, reason, ans.get("model", {}))


def run_solver(name: str, smtlib: str, timeout: float, model_vars: tuple[str, ...] = (),
               memory_mb: int = DEFAULT_MEMORY_MB, seed: int = 0) -> SolverRun:
    """Run one solver on SMT-LIB2 text in a killable child process.

    The solver's own time limit is ``timeout``; the child is killed at
    ``timeout`` plus a small slack.  Any failure to answer is ``unknown``.
    ``seed`` (non-zero) sets the solver's random seed, a per-run parameter.

    >>> run = run_solver("cvc5", "(set-logic QF_LRA)(declare-fun a () Real)(assert (> a 1))(check-sat)",
    ...                  30, ("a",))
    >>> run.result, run.model["a"] != ""
    ('sat', True)
    """
    timeout = max(float(timeout), 0.1)
    t0 = time.perf_counter()
    proc, req = _start(name, smtlib, timeout, model_vars, memory_mb, seed)
    return _wait(name, proc, req, timeout, t0)


def run_solvers(names: Sequence[str], smtlib: str, timeout: float, model_vars: tuple[str, ...] = (),
                stop: Callable[[SolverRun], bool] = lambda run: run.result == "sat",
                memory_mb: int = DEFAULT_MEMORY_MB, seed: int = 0,
                at_once: bool = True, on_states: OnStates = None) -> dict[str, SolverRun]:
    """Run several solvers on the same text at once, each in its own killable process.

    Every solver gets the same limit ``timeout``.  As soon as the first solver of
    ``names`` gives an answer that satisfies ``stop`` (by default: ``sat``), or
    another does once the first has answered, the others are killed and reported
    as ``unknown`` ("stopped"); so a model always comes from the first solver when
    it finds one in time, whichever is faster.  Results keep the order of ``names``.

    ``at_once=False`` runs them one after the other instead (:func:`run_solvers_in_turn`):
    one core per query, the same answers when no solver runs out of time.

    ``on_states`` (see :data:`OnStates`) is called in the caller's thread with
    every solver ``"running"`` once they have started, and again each time one
    answers (the others still ``"running"``, or ``"stopped"`` once an answer
    stopped them).

    >>> text = "(set-logic QF_LRA)(declare-fun a () Real)(assert (> a 1))(assert (< a 0))(check-sat)"
    >>> {n: r.result for n, r in run_solvers(["z3", "cvc5"], text, 30).items()}
    {'z3': 'unsat', 'cvc5': 'unsat'}
    """
    if not at_once:
        return run_solvers_in_turn(names, smtlib, timeout, model_vars, stop, memory_mb, seed,
                                   on_states)
    timeout = max(float(timeout), 0.1)
    t0 = time.perf_counter()
    started: dict[str, tuple[subprocess.Popen, str]] = {}
    try:
        for name in names:
            started[name] = _start(name, smtlib, timeout, model_vars, memory_mb, seed)
    except BaseException:
        for proc, _ in started.values():
            _kill(proc)
        raise
    answers: "queue.Queue[tuple[str, SolverRun | BaseException]]" = queue.Queue()

    def wait(name: str) -> None:
        proc, req = started[name]
        try:
            answers.put((name, _wait(name, proc, req, timeout, t0)))
        except BaseException as e:  # handed to the caller's thread
            answers.put((name, e))

    threads = [threading.Thread(target=wait, args=(n,), daemon=True) for n in started]
    for t in threads:
        t.start()
    runs: dict[str, SolverRun] = {}
    stopped_by = None
    error = None

    def report() -> None:
        if on_states is not None:
            on_states({n: runs[n].result if n in runs else "stopped" if stopped_by else "running"
                       for n in started})
    try:
        report()
        while len(runs) < len(started):
            name, run = answers.get()
            if isinstance(run, BaseException):
                error = error or run
                run = SolverRun(name, "unknown", "", round(time.perf_counter() - t0, 3), str(run))
            if stopped_by is not None and run.result == "unknown":
                run = SolverRun(name, "unknown", run.version, run.seconds,
                                f"stopped after {stopped_by.solver} answered {stopped_by.result}")
            runs[name] = run
            # the first solver of ``names`` is the preferred source of models: a stop
            # by another solver waits for it, so witnesses do not depend on who is faster
            if stopped_by is None and stop(run) and (name == names[0] or names[0] in runs):
                stopped_by = run
                for other, (proc, _) in started.items():
                    if other not in runs:
                        _kill(proc)
            report()
    finally:
        for proc, _ in started.values():
            _kill(proc)
    for t in threads:
        t.join(timeout=5)
    if isinstance(error, SolverError):
        raise error
    return {n: runs[n] for n in started}


MIN_TURN_S = 0.5   # a solver's turn is skipped when less time than this is left


def run_solvers_in_turn(names: Sequence[str], smtlib: str, timeout: float,
                        model_vars: tuple[str, ...] = (),
                        stop: Callable[[SolverRun], bool] = lambda run: run.result == "sat",
                        memory_mb: int = DEFAULT_MEMORY_MB, seed: int = 0,
                        on_states: OnStates = None) -> dict[str, SolverRun]:
    """Run the solvers of ``names`` one after the other, within ``timeout`` seconds in all.

    The schedule of a query that shares the machine with other queries (a
    sweep): one solver process at a time.  Each solver gets the time the ones
    before it left over; once one gives an answer that satisfies ``stop`` (by
    default: ``sat``), the later ones are not run and are reported as
    ``unknown`` ("not run").  A later solver is also skipped when less than
    :data:`MIN_TURN_S` seconds are left.  The answers are those of
    :func:`run_solvers` whenever no solver runs out of time: in both, a model
    comes from the first solver of ``names`` that finds one, and every solver
    that is asked answers on its own.  Results keep the order of ``names``.
    ``on_states`` is told the states as each solver starts (the later ones
    ``"waiting"``) and once the last has answered or been skipped (``"not run"``).

    >>> text = "(set-logic QF_LRA)(declare-fun a () Real)(assert (> a 1))(check-sat)"
    >>> runs = run_solvers_in_turn(["z3", "cvc5"], text, 30, ("a",))
    >>> runs["z3"].result, runs["cvc5"].result, runs["cvc5"].reason
    ('sat', 'unknown', 'not run after z3 answered sat')
    """
    timeout = max(float(timeout), 0.1)
    t0 = time.perf_counter()
    runs: dict[str, SolverRun] = {}
    stopped_by: SolverRun | None = None
    for i, name in enumerate(names):
        left = timeout - (time.perf_counter() - t0)
        if stopped_by is not None:
            runs[name] = SolverRun(name, "unknown", "", 0.0,
                                   f"not run after {stopped_by.solver} answered {stopped_by.result}")
            continue
        if i > 0 and left < MIN_TURN_S:
            runs[name] = SolverRun(name, "unknown", "", 0.0,
                                   f"not run: the query's {timeout:g} s were used up")
            continue
        if on_states is not None:
            on_states({n: runs[n].result if n in runs else "running" if n == name else "waiting"
                       for n in names})
        t1 = time.perf_counter()
        proc, req = _start(name, smtlib, max(left, 0.1), model_vars, memory_mb, seed)
        run = _wait(name, proc, req, max(left, 0.1), t1)
        runs[name] = run
        if stop(run):
            stopped_by = run
    if on_states is not None:
        on_states({n: "not run" if runs[n].reason.startswith("not run") else runs[n].result
                   for n in names})
    return runs
