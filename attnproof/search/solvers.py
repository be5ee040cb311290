"""Solver back ends, each run in a separate process that a timeout can kill.

:func:`run_solver` starts ``python worker.py`` (see :mod:`attnproof.search.worker`)
with resource limits (address space, CPU time), hands it the SMT-LIB2 text
and waits at most ``timeout`` seconds; past that the process is killed and the
answer is ``unknown`` (never a refutation).  A missing solver is reported as
``SolverError("... is not available")``.

>>> run_solver("z3", "(declare-fun a () Real)(assert (> a 1))(assert (< a 0))(check-sat)", 30).result
'unsat'
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import SolverError

__all__ = ["SolverRun", "run_solver", "solver_available", "solver_version", "SOLVER_NAMES",
           "DEFAULT_MEMORY_MB"]

SOLVER_NAMES = ("z3", "cvc5")
DEFAULT_MEMORY_MB = 8192
_MODULES = {"z3": "z3", "cvc5": "cvc5"}
_WORKER = Path(__file__).with_name("worker.py")
_SLACK = 2.0


@dataclass(frozen=True)
class SolverRun:
    """What one solver said: ``sat``/``unsat``/``unknown``, with version and time."""

    solver: str
    result: str
    version: str
    seconds: float
    reason: str = ""
    model: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON summary (the model is left out).

        >>> SolverRun("z3", "unknown", "4.0", 1.0, "timeout").to_dict()
        {'result': 'unknown', 'version': '4.0', 'seconds': 1.0, 'reason': 'timeout'}
        """
        d = {"result": self.result, "version": self.version, "seconds": self.seconds}
        if self.reason:
            d["reason"] = self.reason
        return d


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


def _limits(memory_mb: int, cpu_s: int):
    def apply() -> None:  # runs in the child before exec
        import resource
        os.setsid()
        lim = memory_mb * 1024 * 1024
        for what, soft, hard in ((resource.RLIMIT_AS, lim, lim),
                                 (resource.RLIMIT_CPU, cpu_s, cpu_s + 5)):
            cap = resource.getrlimit(what)[1]   # never above limits the caller already has
            if cap != resource.RLIM_INFINITY:
                soft, hard = min(soft, cap), min(hard, cap)
            resource.setrlimit(what, (soft, hard))
    return apply


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
    if name not in SOLVER_NAMES:
        raise SolverError(f"unknown solver {name!r}; choose one of {', '.join(SOLVER_NAMES)}")
    if not solver_available(name):
        raise SolverError(f"solver {name} is not available (pip install {PIP_PACKAGES.get(name, name)})")
    timeout = max(float(timeout), 0.1)
    req = json.dumps({"solver": name, "smtlib": smtlib, "timeout_ms": int(timeout * 1000),
                      "model_vars": list(model_vars), "seed": int(seed)})
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-I", str(_WORKER)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_limits(memory_mb, int(timeout) + 10))
    try:
        out, err = proc.communicate(req, timeout=timeout + _SLACK)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, 9)
        except OSError:
            proc.kill()
        proc.communicate()
        return SolverRun(name, "unknown", "", round(time.perf_counter() - t0, 3),
                         f"killed after {timeout:g} s")
    finally:
        if proc.poll() is None:  # interrupted while waiting
            try:
                os.killpg(proc.pid, 9)
            except OSError:
                pass
    elapsed = round(time.perf_counter() - t0, 3)
    try:
        ans = json.loads(out)
    except ValueError:
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
