"""Search sweeps: many independent windowed queries, run through the executor seam.

A sweep asks :func:`~attnproof.smt.query.search_fusion` the same question
for every problem of a family, every window and every target ``k`` (by
default every ``k`` from the Newton lower bound up to one below the best
cheap fusion).  The queries are independent, so they go through
:func:`attnproof.parallel.executor.map_tasks`: in process, or on Dask workers.

A worker sends back the query's answer without the witness; this process
rebuilds every ``sat`` witness from the solver's model and verifies it
exactly before it is reported, so a sweep's witnesses are trusted no more
than a single query's, wherever the query ran.  A query that timed out, whose
worker died twice, or whose witness does not verify is ``unknown``.  Sat at
``k`` implies sat at every larger ``k`` and unsat at ``k`` implies unsat at
every smaller one: when verified answers contradict a refutation, the
refutation is withdrawn (``unknown``) and the sweep says so.

>>> from attnproof.families import graph_sum, named_graph
>>> sw = sweep([("C_3", graph_sum(named_graph("cycle", 3)))], windows=[1], timeout=60)
>>> [(row.target, row.result) for row in sw.rows]
[(6, 'unsat')]
>>> sw.summaries[0].to_dict()["refuted_below"], sw.complete
(6, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Optional, Sequence

from ..display import fields_repr
from ..errors import AttnproofError, InputError, SolverError
from ..parallel.executor import ExecutorSpec, TaskFailed, map_tasks
from ..fusion import DEFAULT_MAX_ATOMS, Fusion, fuse, reduced_form
from ..heads import MultiHead
from .query import SearchOptions, SearchResult, newton_lower_bound, search_fusion
from .verify import fusion_from_g, parse_model_value, verify_fusion

__all__ = ["SweepRow", "WindowSummary", "SweepResult", "sweep", "sweep_query",
           "parse_targets", "parse_windows", "TASK_GRACE_S"]

TASK_GRACE_S = 30.0   # an executor deadline of timeout + this: encoding and reduced form included


def sweep_query(M: MultiHead, k: int, window, timeout: float, options: SearchOptions,
                max_atoms: Optional[int]) -> SearchResult | str:
    """One query of a sweep, as run on a worker: the answer without its witness, or a reason.

    The witness (a FLINT object, and not trusted from afar) is left out; the
    solver's model it comes from is kept in ``solvers`` (``witness_run()``).

    >>> from attnproof.families import sigmoid_sum
    >>> res = sweep_query(sigmoid_sum(1), 2, 0, 60, SearchOptions(), None)
    >>> res.result, res.fusion, sorted(res.witness_run().model)
    ('sat', None, ['g_0'])
    """
    try:
        r = reduced_form(M, max_atoms)
        res = search_fusion(M, k, window, timeout, options, r)
    except AttnproofError as e:
        return f"{type(e).__name__}: {e}"
    return replace(res, fusion=None)


@dataclass(repr=False)
class SweepRow:
    """One query of a sweep: which problem, window and ``k``, and its (re-verified) answer."""

    problem: str
    window: Any
    target: int
    result: str
    search: Optional[SearchResult] = None
    reason: str = ""

    def __repr__(self) -> str:
        """Short: the question and its answer."""
        return fields_repr("SweepRow", repr(self.result), problem=self.problem, window=self.window,
                           target=self.target, reason=self.reason or None)

    @property
    def fusion(self) -> Optional[Fusion]:
        """The verified witness of a ``sat`` row."""
        return self.search.fusion if self.search is not None and self.result == "sat" else None

    @property
    def atoms(self) -> Optional[int]:
        f = self.fusion
        return f.atoms if f is not None else None

    def to_dict(self) -> dict[str, Any]:
        """JSON row: the query, its answer, and the query's own summary when it ran."""
        d: dict[str, Any] = {"problem": self.problem, "window": _window_label(self.window),
                             "target": self.target, "result": self.result, "atoms": self.atoms}
        if self.reason:
            d["reason"] = self.reason
        if self.search is not None:
            q = self.search.to_dict()
            d["smtlib_sha256"] = q["smtlib_sha256"]
            d["seconds"] = q["seconds"]
            d["solvers"] = q["solvers"]
            d["window_points"] = q["window_points"]
        return d


@dataclass(repr=False)
class WindowSummary:
    """What the rows of one problem and one window say together."""

    problem: str
    window: Any
    lower_bound: int
    lower_bound_kind: str
    start: int
    best: Optional[SweepRow] = None          # smallest verified witness in this window
    refutation: Optional[SweepRow] = None    # largest k refuted in this window
    unknown: int = 0
    withdrawn: list[int] = field(default_factory=list)

    def __repr__(self) -> str:
        """Short: the problem, the window and the bounds found in it."""
        return fields_repr("WindowSummary", problem=self.problem, window=self.window,
                           lower_bound=self.lower_bound, start=self.start,
                           best=self.best.atoms if self.best is not None else None,
                           refuted=self.refutation.target if self.refutation is not None else None,
                           unknown=self.unknown)

    @property
    def window_minimum(self) -> Optional[int]:
        """The least atom count of a fusion with ``G`` in the window, when the rows pin it."""
        if self.best is None or self.refutation is None:
            return None
        return self.best.atoms if self.refutation.target + 1 == self.best.atoms else None

    def to_dict(self) -> dict[str, Any]:
        """JSON summary of one problem in one window."""
        return {"problem": self.problem, "window": _window_label(self.window),
                "lower_bound": self.lower_bound, "lower_bound_kind": self.lower_bound_kind,
                "start_atoms": self.start,
                "best_atoms": self.best.atoms if self.best else None,
                "refuted_below": self.refutation.target if self.refutation else None,
                "window_minimum": self.window_minimum,
                "minimum": (self.start if self.start == self.lower_bound else
                            self.best.atoms if self.best and self.best.atoms == self.lower_bound
                            else None),
                "unknown": self.unknown, "withdrawn_refutations": list(self.withdrawn)}


@dataclass(repr=False)
class SweepResult:
    """The rows of a sweep (in input order) and one summary per problem and window."""

    rows: list[SweepRow]
    summaries: list[WindowSummary]
    problems: list[tuple[str, MultiHead]]
    elapsed_s: float = 0.0
    executor: str = "in process"

    def __repr__(self) -> str:
        """Short: how many queries, problems and windows, and whether all were answered."""
        return fields_repr("SweepResult", queries=len(self.rows), problems=len(self.problems),
                           windows=len(self.summaries), complete=self.complete,
                           executor=self.executor, elapsed_s=round(self.elapsed_s, 3))

    @property
    def complete(self) -> bool:
        """True when every query was answered (sat or unsat) and nothing was withdrawn."""
        return all(r.result != "unknown" for r in self.rows)

    def best_fusion(self, problem: str) -> Optional[Fusion]:
        """The smallest verified witness of a problem over all windows (first window on ties)."""
        best: Optional[Fusion] = None
        for s in self.summaries:
            f = s.best.fusion if s.problem == problem and s.best is not None else None
            if f is not None and (best is None or f.atoms < best.atoms):
                best = f
        return best

    def refutations(self, problem: str) -> list[SearchResult]:
        """The largest refutation of each window of a problem, in window order."""
        return [s.refutation.search for s in self.summaries
                if s.problem == problem and s.refutation is not None and s.refutation.search is not None]

    def to_dict(self) -> dict[str, Any]:
        """JSON document of the whole sweep (the project's vocabulary for counts)."""
        return {"complete": self.complete, "elapsed_s": round(self.elapsed_s, 3),
                "executor": self.executor, "queries": len(self.rows),
                "summaries": [s.to_dict() for s in self.summaries],
                "rows": [r.to_dict() for r in self.rows]}


def _window_label(window) -> Any:
    return window if isinstance(window, int) else [list(p) for p in window]


def parse_targets(text: str) -> list[int]:
    """``--targets``: a comma list of ``k`` and ranges ``A-B`` (inclusive), sorted, no repeats.

    >>> parse_targets("30-32,37")
    [30, 31, 32, 37]
    >>> parse_targets("5-3")
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: --targets '5-3': a range A-B needs 1 <= A <= B
    """
    out: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        try:
            if "-" in part:
                a, b = (int(x) for x in part.split("-", 1))
                if not 1 <= a <= b:
                    raise InputError(f"--targets {text!r}: a range A-B needs 1 <= A <= B")
                if b - a > 100_000:
                    raise InputError(f"--targets {text!r}: a range of at most 100000 values")
                out.update(range(a, b + 1))
            else:
                v = int(part)
                if v < 1:
                    raise InputError(f"--targets {text!r}: atom counts are positive")
                out.add(v)
        except ValueError:
            raise InputError(f"--targets {text!r}: give k values and ranges, e.g. 30-37,40") from None
    return sorted(out)


def parse_windows(text: str) -> list:
    """``--window`` of a sweep: radii (``1``, ``0,1``, ``0-2``) or one JSON list of points.

    >>> parse_windows("0-2"), parse_windows("1"), parse_windows("[[0], [1]]")
    ([0, 1, 2], [1], [[[0], [1]]])
    """
    from .window import parse_window

    text = text.strip()
    if text.startswith("["):
        return [parse_window(text)]
    radii: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if "-" in part[1:]:
            a, b = part.split("-", 1)
            lo, hi = parse_window(a), parse_window(b)
            if not isinstance(lo, int) or not isinstance(hi, int) or lo > hi:
                raise InputError(f"--window {text!r}: a range of radii A-B needs A <= B")
            radii.extend(range(lo, hi + 1))
        else:
            v = parse_window(part)
            if not isinstance(v, int):
                raise InputError(f"--window {text!r}: give radii or one JSON list of points")
            radii.append(v)
    return list(dict.fromkeys(radii))


def _query_cost(r, window, k: int, options: SearchOptions, sizes: Optional[dict] = None) -> float:
    """A rough relative cost of a query, to send the longest first: ``k`` times the window's
    points times the terms of ``Q`` (the size of the encoding grows with all three).

    >>> from attnproof.families import graph_sum, named_graph
    >>> c5, k4 = (reduced_form(graph_sum(named_graph(g, n))) for g, n in (("cycle", 5), ("complete", 4)))
    >>> _query_cost(c5, 1, 30, SearchOptions()) > _query_cost(k4, 1, 37, SearchOptions())
    True
    """
    from .query import _frame_and_window

    key = (id(r), repr(window))
    if sizes is None or key not in sizes:
        try:
            size = len(_frame_and_window(r, window, options)[1]) * max(len(r.Q), 1)
        except Exception:     # only an order of submission: never worth an error
            size = 1
        if sizes is not None:
            sizes[key] = size
    else:
        size = sizes[key]
    return float(k) * size


def _rebuild(row: SweepRow, res: SearchResult, M: MultiHead, r) -> None:
    """Re-derive a ``sat`` row's witness (its search ``res``) from the solver model and
    verify it exactly here."""
    enc = res.encoding
    z = res.witness_run()
    try:
        if z is None:
            raise SolverError("no solver answered sat")
        g = {enc.window.points[i]: parse_model_value(z.model.get(name, "0"))
             for i, name in enumerate(enc.gvars)}
        f = fusion_from_g(r, g)
        ok = verify_fusion(f, row.target)
    except AttnproofError as e:
        ok, f = False, None
        row.reason = f"the witness could not be rebuilt: {e}"
    if not ok:
        row.result = "unknown"
        row.reason = row.reason or "the solver's model does not verify as a fusion (not reported)"
        row.search = replace(res, result="unknown", reason=row.reason)
        return
    row.search = replace(res, fusion=f)


def sweep(problems: Sequence[tuple[str, MultiHead]], windows: Sequence = (1,),
          targets: Optional[Sequence[int]] = None, timeout: float = 600,
          options: SearchOptions = SearchOptions(), spec: Optional[ExecutorSpec] = None,
          progress: Optional[Callable[[int, int], None]] = None,
          max_atoms: Optional[int] = DEFAULT_MAX_ATOMS,
          solvers_at_once: bool = False) -> SweepResult:
    """Run every (problem, window, k) query through :func:`map_tasks` and summarize.

    ``targets`` defaults, per problem, to every ``k`` from the Newton lower
    bound up to one below the best cheap fusion ('attnproof fuse').  ``spec``
    chooses the executor; its per-task deadline defaults to ``timeout`` plus
    :data:`TASK_GRACE_S`.  Results do not depend on the executor.

    The parallelism of a sweep is across queries, so each query runs its
    solvers one after the other (z3, then cvc5 only to cross-check an
    ``unsat`` or when z3 has no answer; ``timeout`` bounds both together),
    whatever the executor: one core per query, and the same schedule in
    process as on any number of workers.  ``solvers_at_once=True`` races them
    instead, as a single ``search`` does (two cores per query; the answers
    are the same unless a solver runs out of time).
    """
    t0 = time.perf_counter()
    if not problems:
        raise InputError("sweep: no problem given")
    if not windows:
        raise InputError("sweep: no window given")
    spec = spec or ExecutorSpec()
    options = replace(options, solvers_at_once=solvers_at_once)
    if not spec.in_process and spec.timeout is None:
        spec = replace(spec, timeout=float(timeout) + TASK_GRACE_S)
    if not spec.in_process:
        spec = replace(spec, warmup=0.0)  # every task is an SMT query: no point in warming up here
    reduced = {}
    plan: list[tuple[str, MultiHead, Any, int]] = []
    summaries: list[WindowSummary] = []
    for name, M in problems:
        if M.has_bias:
            raise InputError(f"sweep: {name} has biases: exp-rational coefficients are outside "
                             f"the SMT search (THEORY §6)")
        rf = reduced_form(M, max_atoms)
        reduced[name] = rf
        start = fuse(M, max_atoms).atoms
        low, kind = newton_lower_bound(M, rf)
        ks = list(targets) if targets is not None else list(range(low, start))
        for w in windows:
            summaries.append(WindowSummary(name, w, low, kind, start))
            plan.extend((name, M, w, k) for k in ks)
    sizes: dict = {}
    answers = map_tasks(sweep_query,
                        [(M, k, w, timeout, options, max_atoms) for _, M, w, k in plan],
                        spec=spec, progress=progress,
                        cost=[_query_cost(reduced[name], w, k, options, sizes) for name, _, w, k in plan])
    rows: list[SweepRow] = []
    by_name = dict(problems)
    for (name, _M, w, k), ans in zip(plan, answers):
        if isinstance(ans, TaskFailed):
            row = SweepRow(name, w, k, "unknown", reason=f"task failed: {ans.reason}")
        elif isinstance(ans, str):
            row = SweepRow(name, w, k, "unknown", reason=ans)
        else:
            row = SweepRow(name, w, k, ans.result, search=ans, reason=ans.reason)
            if ans.result == "sat":
                _rebuild(row, ans, by_name[name], reduced[name])
        rows.append(row)
    for s in summaries:
        mine = [r for r in rows if r.problem == s.problem and r.window == s.window]
        sats = [r for r in mine if r.result == "sat"]
        best = min(sats, key=lambda r: (r.atoms, r.target), default=None)
        atoms = best.atoms if best is not None else None
        for r in mine:
            if r.result == "unsat" and atoms is not None and atoms <= r.target:
                # a verified fusion with at most k atoms contradicts this refutation
                r.result, r.reason = "unknown", (f"refutation withdrawn: a verified fusion with "
                                                 f"{atoms} atoms exists")
                s.withdrawn.append(r.target)
        unsats = [r for r in mine if r.result == "unsat"]
        s.best = best
        s.refutation = max(unsats, key=lambda r: r.target, default=None)
        s.unknown = sum(r.result == "unknown" for r in mine)
    return SweepResult(rows, summaries, list(problems), time.perf_counter() - t0, spec.describe())
