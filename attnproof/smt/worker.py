"""One solver run on SMT-LIB2 text, meant to run in its own killable process.

This file is executed as a script by :mod:`attnproof.smt.solvers` (never
imported by the rest of the package at run time): it reads one JSON request on
stdin, ``{"solver": "z3"|"cvc5", "smtlib": text, "timeout_ms": int,
"model_vars": [names], "seed": int}`` (seed 0: the solver's default), runs the solver and writes one JSON answer on stdout:
``{"result": "sat"|"unsat"|"unknown", "version": str, "reason": str,
"seconds": float, "model": {name: "p/q"}}``.  It imports nothing from
attnproof, so a broken producer cannot change what the solver is asked.

>>> sorted(SOLVERS)
['cvc5', 'z3']
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time


def _fraction_text(num: int, den: int) -> str:
    return str(num) if den == 1 else f"{num}/{den}"


def run_z3(text: str, timeout_ms: int, model_vars: list[str], seed: int = 0) -> dict:
    """Check ``text`` with z3 (per-solver parameters only; no global settings).

    >>> run_z3("(declare-fun a () Real)(assert (= (* 3 a) 1))(check-sat)", 1000, ["a"])["model"]
    {'a': '1/3'}
    """
    import z3

    solver = z3.Solver()
    if timeout_ms > 0:
        solver.set("timeout", int(timeout_ms))
    if seed:
        solver.set("random_seed", int(seed))
    solver.from_string(text)
    res = solver.check()
    out: dict = {"version": z3.get_version_string()}
    if res == z3.sat:
        out["result"] = "sat"
        m = solver.model()
        names = {d.name(): d for d in m.decls()}
        model = {}
        for v in model_vars:
            d = names.get(v)
            if d is None:
                model[v] = "0"
                continue
            val = m[d]
            if z3.is_int_value(val):            # integer unknowns (line refutations)
                model[v] = str(val.as_long())
            elif z3.is_rational_value(val):
                model[v] = _fraction_text(val.numerator_as_long(), val.denominator_as_long())
            else:
                raise ValueError(f"z3 gave a non-rational value for {v}: {val}")
        out["model"] = model
    elif res == z3.unsat:
        out["result"] = "unsat"
    else:
        out["result"] = "unknown"
        out["reason"] = solver.reason_unknown()
    return out


CVC5_OPTIONS = {
    # For window queries (logic QF_LRA).  No simplex pivots at standard effort: the arithmetic is checked at full
    # effort only.  On these queries (few real unknowns, hundreds of guarded
    # bounds) cvc5 otherwise spends most of its time pivoting: K_3, k = 6,
    # radius 8 goes from 214 s to 3 s, C_4, k = 14, radius 2 from 49 s to 2 s.
    "standard-effort-variable-order-pivots": "0",
}
CVC5_LINE_OPTIONS = {
    # For line queries (logic QF_LIRA): simplify the if-then-else terms of the line
    # sums before solving.  C_4, k = 14: 69, 63, 43 s without, 34, 27, 21 s with
    # (alternating runs, load 6-9; docs/search.md §7).
    "ite-simp": "true",
}


def run_cvc5(text: str, timeout_ms: int, model_vars: list[str], seed: int = 0) -> dict:
    """Check ``text`` with cvc5 through its own SMT-LIB2 parser (options: :data:`CVC5_OPTIONS`).

    >>> run_cvc5("(set-logic QF_LRA)(declare-fun a () Real)(assert (= (* 3 a) 1))(check-sat)",
    ...          1000, ["a"])["model"]
    {'a': '1/3'}
    """
    import cvc5

    solver = cvc5.Solver()
    if timeout_ms > 0:
        solver.setOption("tlimit-per", str(int(timeout_ms)))
    solver.setOption("produce-models", "true")
    logic = text.lstrip()[:20]
    if logic.startswith("(set-logic QF_LRA)"):     # window queries only: line refutations
        for key, value in CVC5_OPTIONS.items():      # (QF_LIRA) run 2.6x faster without it
            solver.setOption(key, value)             # (C_4, k = 14)
    elif logic.startswith("(set-logic QF_LIRA)"):
        for key, value in CVC5_LINE_OPTIONS.items():
            solver.setOption(key, value)
    if seed:
        solver.setOption("seed", str(int(seed)))
    sm = cvc5.SymbolManager(solver)
    parser = cvc5.InputParser(solver, sm)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "query")
    result = None
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        if str(cmd).startswith("(check-sat"):
            result = solver.checkSat()
            continue
        cmd.invoke(solver, sm)
    if result is None:
        result = solver.checkSat()
    version = solver.getVersion()
    if isinstance(version, bytes):
        version = version.decode("ascii", "replace")
    out: dict = {"version": str(version)}
    if result.isSat():
        out["result"] = "sat"
        terms = {str(t): t for t in sm.getDeclaredTerms()}
        model = {}
        for v in model_vars:
            t = terms.get(v)
            if t is None:
                model[v] = "0"
                continue
            val = solver.getValue(t)
            num, den = val.getRealValue().as_integer_ratio()
            model[v] = _fraction_text(num, den)
        out["model"] = model
    elif result.isUnsat():
        out["result"] = "unsat"
    else:
        out["result"] = "unknown"
        out["reason"] = str(result.getUnknownExplanation())
    return out


SOLVERS = {"z3": run_z3, "cvc5": run_cvc5}


def main() -> int:
    """Read one request on stdin, answer on stdout; exit 0 unless the request is bad.

    >>> import io, sys, contextlib
    >>> sys_stdin, sys.stdin = sys.stdin, io.StringIO('{"solver": "none", "smtlib": ""}')
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = main()
    >>> sys.stdin = sys_stdin
    >>> code, json.loads(out.getvalue())["result"]
    (2, 'error')
    """
    req = json.loads(sys.stdin.read())
    fn = SOLVERS.get(req.get("solver"))
    if fn is None:
        print(json.dumps({"result": "error", "reason": f"unknown solver {req.get('solver')!r}"}))
        return 2
    t0 = time.perf_counter()
    try:
        out = fn(req["smtlib"], int(req.get("timeout_ms", 0)), list(req.get("model_vars", [])),
                 int(req.get("seed", 0)))
    except ImportError as e:
        out = {"result": "error", "reason": f"{req['solver']} is not available ({e})"}
    except Exception as e:  # report, never crash silently
        out = {"result": "error", "reason": f"{type(e).__name__}: {e}"}
    out["seconds"] = round(time.perf_counter() - t0, 3)
    sys.stdout.write(json.dumps(out))
    sys.stdout.flush()
    return 0


def exit_with_parent(interval: float = 0.5) -> threading.Thread:
    """Watch the parent process from a daemon thread; leave at once (exit 1) when it is gone.

    The solver's parent kills it when it stops waiting; this covers the parent
    that could not (killed with SIGKILL): the orphan is re-parented and
    notices within ``interval`` seconds (Linux also has the kernel send
    SIGKILL, see :func:`attnproof.smt.solvers._parent_death_signal`).

    >>> exit_with_parent().daemon
    True
    """
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(1)

    t = threading.Thread(target=watch, name="exit-with-parent", daemon=True)
    t.start()
    return t


if __name__ == "__main__":  # pragma: no cover
    exit_with_parent()
    sys.exit(main())
