"""The text of ``attnproof search``: what a person reads of a :class:`attnproof.searching.Searched`
(a windowed query or bisection, the line queries, a sweep's table)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..searching import Searched


def print_searched(done: Searched) -> None:
    """Print the answer of a search for a person (``--json`` prints ``done.summary()``)."""
    r = done.result
    if done.kind == "query":
        _print_query(done)
    elif done.kind == "minimize":
        _print_minimize(r, r.refutation)
    elif done.kind == "line minimize":
        _print_line_minimize(r)
    elif done.kind == "line query":
        _print_line_query(r)
    else:
        _print_table(r)
        for path in done.written:
            print(f"  written: {path}")


def _describe_window(res) -> str:
    w = res.window
    if w.kind == "box":
        where = f"box of radius {w.radius} in coordinates {list(w.coordinates)}"
        if res.frame.homogeneous:
            where += (f" (lineality {res.frame.to_dict()['lineality']} removed: coordinates "
                      f"{list(res.frame.dependent)} follow)")
    else:
        where = "explicit window"
    return f"{where}, {len(w)} exponents for G"


def _print_minimize(mr, ref) -> None:
    print(f"smallest fusion found: {mr.best.atoms} atoms "
          f"({'search witness, verified' if mr.best.method == 'search' else mr.best.method + ' fusion'}); "
          f"started from {mr.start}; lower bound {mr.lower_bound} ({mr.lower_bound_kind})")
    for s in mr.steps:
        print(f"  k = {s.target}: {s.result}" + (f", {s.atoms} atoms" if s.atoms else "")
              + (f" ({s.reason})" if s.reason else "") + f" [{s.seconds:.1f} s]")
    if mr.stopped == "refuted":
        print(f"every fusion with at most {ref.target} atoms is refuted for G in the "
              f"{_describe_window(ref)} (z3 and cvc5; SMT-LIB2 sha256 {ref.encoding.sha256})")
    elif mr.stopped == "bound":
        print(f"the fusion meets the lower bound: {mr.best.atoms} atoms is the minimum")
    else:
        print("stopped: the last query was inconclusive")


def _print_query(done: Searched) -> None:
    res = done.result
    solvers = ", ".join(f"{n} {r.result} ({r.seconds:.2f} s)" for n, r in res.solvers.items())
    if res.result == "sat":
        print(f"sat: a fusion with {res.atoms} atoms (at most {res.target} asked), "
              f"verified exactly")
    elif res.result == "unsat":
        print(f"unsat: no fusion with at most {res.target} atoms whose G lies in the window "
              f"(a windowed refutation, not a lower bound)")
    else:
        print(f"unknown: {res.reason}")
    print(f"  window: {_describe_window(res)}")
    print(f"  solvers: {solvers}; SMT-LIB2 sha256 {res.encoding.sha256}")
    if res.symmetry_group > 1:
        print(f"  symmetry group of order {res.symmetry_group} broken by lex-leader constraints")
    if res.encoding.stats.get("numerators") is False:
        print("  query: denominator-only (no constraint on N = P*G: a relaxation, so its "
              "unsat refutes fusions too)")
    if res.result == "sat" and done.output:
        print(f"  witness written to {done.output}")
    if done.certificate_path and res.result != "unknown":
        print(f"  certificate written to {done.certificate_path}")


def _print_line_minimize(mr) -> None:
    print(f"lower bound {mr.lower_bound} (Newton {mr.newton}), smallest fusion found "
          f"{mr.best.atoms} atoms ({mr.best.method}); "
          + (f"minimum {mr.best.atoms}" if mr.minimum is not None else
             f"stopped: {mr.stopped}"))
    _factors_line(mr.factors)
    for s in mr.steps:
        print("  " + _query_line(s))
    ref = mr.refutation
    if ref is not None:
        print(f"every fusion has at least {ref.target + 1} atoms (line refutation, z3 and "
              f"cvc5; SMT-LIB2 sha256 {ref.encoding.sha256})")


def _print_line_query(res) -> None:
    print(_query_line(res))
    _factors_line(res.factors)
    print(f"  SMT-LIB2 sha256 {res.encoding.sha256}")


def _query_line(res) -> str:
    solvers = ", ".join(f"{n} {r.result} ({r.seconds:.2f} s)" for n, r in res.solvers.items())
    if res.result == "unsat":
        head = (f"unsat: no set of at most {res.target} points carries a fusion's denominator: "
                f"every fusion has at least {res.target + 1} atoms")
    elif res.result == "sat":
        head = f"sat: a candidate support of {len(res.support)} points (at most {res.target} asked)"
        head += (f", completed to a verified fusion with {res.fusion.atoms} atoms"
                 if res.fusion is not None else ", not completed to a fusion")
    else:
        head = f"unknown: {res.reason}"
    return f"k = {res.target}: {head} [{solvers}]"


def _factors_line(lf) -> None:
    shown = [list(f.direction) if f.shared and f.multiplicity == 1 else
             f"(1 + {f.coefficient}·x^{list(f.direction)})^{f.multiplicity}" for f in lf.factors]
    print(f"  factors 1 + c·x^g used: {len(lf.directions)} directions "
          f"{shown}"
          + ("" if lf.exact else f"; left out (the query is a relaxation): {'; '.join(lf.dropped)}"))


def _print_table(sw) -> None:
    print(f"sweep: {len(sw.rows)} queries on {sw.executor}, {sw.elapsed_s:.1f} s")
    width = max([len("problem")] + [len(r.problem) for r in sw.rows])
    print(f"  {'problem':<{width}}  window  {'k':>5}  result   atoms  seconds")
    for r in sw.rows:
        w = str(r.window) if isinstance(r.window, int) else "points"
        secs = f"{r.search.seconds:.1f}" if r.search is not None else "-"
        atoms = str(r.atoms) if r.atoms is not None else "-"
        print(f"  {r.problem:<{width}}  {w:>6}  {r.target:>5}  {r.result:<7}  {atoms:>5}  {secs:>7}"
              + (f"  ({r.reason})" if r.result == "unknown" and r.reason else ""))
    for s in sw.summaries:
        w = f"radius {s.window}" if isinstance(s.window, int) else "an explicit window"
        parts = [f"lower bound {s.lower_bound} ({s.lower_bound_kind}), cheap fusion {s.start}"]
        if s.best is not None:
            parts.append(f"smallest verified fusion {s.best.atoms} atoms")
        if s.refutation is not None:
            parts.append(f"no fusion with at most {s.refutation.target} atoms has G in the window")
        if s.window_minimum is not None:
            parts.append(f"so {s.window_minimum} is the least in this window")
        if s.start == s.lower_bound:
            parts.append("the cheap fusion meets the lower bound: it is the minimum")
        elif s.best is not None and s.best.atoms == s.lower_bound:
            parts.append(f"{s.best.atoms} meets the lower bound: it is the minimum")
        if s.unknown:
            parts.append(f"{s.unknown} unknown")
        if s.withdrawn:
            parts.append(f"refutations withdrawn at k = {s.withdrawn}")
        print(f"{s.problem}, {w}: " + "; ".join(parts))
