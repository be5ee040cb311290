"""Windowed searches for small fusions: one query, and the bisection in ``k``.

:func:`search_fusion` asks "is there a fusion with at most ``k`` atoms whose
``G`` lies in the window?": z3 answers; a ``sat`` model is rebuilt and
verified exactly before it is reported; an ``unsat`` is re-checked by cvc5
and reported only when both agree; anything else is ``unknown``.
:func:`minimize` bisects ``k`` between the Newton bound and the best cheap fusion.

>>> from attnproof.families import sigmoid_sum
>>> res = search_fusion(sigmoid_sum(2), 3, 1, timeout=60)
>>> res.result, res.solvers["z3"].result, res.solvers["cvc5"].result
('unsat', 'unsat', 'unsat')
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Optional, Sequence

from ..display import fields_repr
from ..errors import InputError, SolverError
from ..fusion import DEFAULT_MAX_ATOMS, Fusion, fuse, reduced_form
from ..heads import MultiHead
from .encoding import Encoding, encode
from .lineality import Frame, full_frame, lineality_frame
from .solvers import SolverRun, describe_states, run_solvers
from .symmetry import window_symmetries
from .verify import fusion_from_g, parse_model_value, verify_fusion
from .window import Window, box_window, points_window
from ..parallel.tasks import Progress

__all__ = ["SearchOptions", "SearchResult", "MinimizeResult", "search_fusion", "minimize",
           "build_query", "newton_lower_bound"]



@dataclass(frozen=True)
class SearchOptions:
    """Which sound reductions to use (all on by default) and how to count.

    ``lineality``: restrict ``G`` to the sublattice of a homogeneous problem;
    ``symmetry``: lex-leader constraints for symmetries that fix the window;
    ``centering``: normalize translations of ``G`` (box windows);
    ``cardinality``: ``"sum"`` (arithmetic) or ``"counter"`` (Boolean);
    ``parity``: Lemma 11.1 level-parity clauses for the binomial factors of ``Q``;
    ``numerators``: include the constraints on ``N = P·G`` (False: the
    denominator-only query, a relaxation);
    ``relax_first``: ask the denominator-only query first, with the (often
    larger) symmetry group of ``Q`` alone; its ``unsat`` refutes the window, and
    the full query is asked only when its model is not a fusion;
    ``cross_check``: an ``unsat`` needs cvc5 to agree;
    ``solvers_at_once``: run z3 and cvc5 at once (two cores for one query);
    False runs them one after the other within the same time limit (z3 first,
    cvc5 only when z3's answer is not ``sat``), the schedule of a sweep, whose
    queries run side by side.  The answers are the same unless a solver runs
    out of time.
    """

    lineality: bool = True
    symmetry: bool = True
    centering: bool = True
    cardinality: str = "counter"
    cross_check: bool = True
    leading_terms: int = 0
    parity: bool = True
    numerators: bool = True
    relax_first: bool = True
    solvers_at_once: bool = True

    @classmethod
    def straightforward(cls) -> "SearchOptions":
        """The plain encoding of THEORY §6: no reduction at all.

        >>> SearchOptions.straightforward().cardinality, SearchOptions().cardinality
        ('sum', 'counter')
        """
        return cls(lineality=False, symmetry=False, centering=False, cardinality="sum",
                   leading_terms=0, parity=False, relax_first=False)


@dataclass(repr=False)
class SearchResult:
    """The answer to one windowed query."""

    result: str
    target: int
    window: Window
    frame: Frame
    encoding: Encoding
    solvers: dict[str, SolverRun] = field(default_factory=dict)
    fusion: Fusion | None = None
    symmetry_group: int = 1
    seconds: float = 0.0
    reason: str = ""

    @property
    def atoms(self) -> int | None:
        """Atom count of the verified witness (sat only; None otherwise)."""
        return self.fusion.atoms if self.fusion is not None else None

    def __repr__(self) -> str:
        """Short: the answer, the question, each solver's answer (``.to_dict()`` has everything).

        >>> SearchResult("unsat", 14, None, None, None, seconds=1.25)
        SearchResult('unsat', target=14, seconds=1.25)
        """
        solvers = ", ".join(f"{n} {r.result}" for n, r in self.solvers.items()) or None
        return fields_repr("SearchResult", repr(self.result), target=self.target, atoms=self.atoms,
                           window=(f"{self.window.kind}, {len(self.window)} points"
                                   if self.window is not None else None),
                           solvers=solvers, seconds=round(self.seconds, 3),
                           reason=self.reason or None)

    def __str__(self) -> str:
        """One line a person reads: ``unsat: no fusion with at most 14 atoms in the window ...``."""
        where = f" whose G lies in the window ({len(self.window)} points)" if self.window else ""
        if self.result == "sat":
            text = f"sat: a verified fusion with {self.atoms} atoms (at most {self.target}){where}"
        elif self.result == "unsat":
            text = f"unsat: no fusion with at most {self.target} atoms{where}"
        else:
            text = f"unknown: at most {self.target} atoms{where} is undecided"
            if self.reason:
                text += f" ({self.reason})"
        runs = ", ".join(f"{n} {r.result} in {r.seconds:g} s" for n, r in self.solvers.items())
        return text + (f"; {runs}" if runs else "")

    def witness_run(self) -> SolverRun | None:
        """The solver run whose model is the witness (the first ``sat``), or None.

        z3's when it answered ``sat``, else cvc5's.

        >>> SearchResult("unsat", 1, None, None, None).witness_run() is None
        True
        """
        return next((run for run in self.solvers.values() if run.result == "sat"), None)

    def to_dict(self) -> dict[str, Any]:
        """JSON summary: result, atoms, window, solvers, hash and the reductions used."""
        d: dict[str, Any] = {
            "result": self.result, "atoms": self.atoms, "target": self.target,
            "window": self.window.to_dict(), "window_points": len(self.window),
            "frame": self.frame.to_dict(),
            "solvers": {k: v.to_dict() for k, v in self.solvers.items()},
            "smtlib_sha256": self.encoding.sha256, "encoding": dict(self.encoding.stats),
            "symmetry_group": self.symmetry_group, "seconds": round(self.seconds, 3)}
        if self.reason:
            d["reason"] = self.reason
        if self.fusion is not None:
            d["verified"] = True
        return d


def _frame_and_window(r, window: int | Sequence | Window, options: SearchOptions) -> tuple[Frame, Window]:
    d = r.lattice.dim
    if isinstance(window, bool):
        raise InputError(f"a window is a radius or a list of points, not {window!r}")
    if isinstance(window, int):
        frame = lineality_frame(r) if options.lineality else full_frame(d)
        return frame, box_window(frame, window)
    if isinstance(window, Window):
        # a box is trusted only if it is the box of a frame we can rebuild (centering relies on it)
        if window.kind == "box" and window.radius is not None:
            for frame in (lineality_frame(r), full_frame(d)):
                if (frame.free == window.coordinates
                        and box_window(frame, window.radius).points == window.points):
                    return frame, window
        return full_frame(d), Window("points", window.points)
    return full_frame(d), points_window(window, d)


def build_query(M: MultiHead, k: int, window: int | Sequence | Window,
                options: SearchOptions = SearchOptions(), r=None,
                cache: dict | None = None) -> tuple[Any, Frame, Encoding, int]:
    """The reduced form, frame, encoding and symmetry-group size of one query.

    ``cache`` (a dict the caller keeps) holds what does not depend on ``k``
    (frame, window, symmetries, binomial directions) across queries.

    >>> from attnproof.families import graph_sum, named_graph
    >>> r, frame, enc, group = build_query(graph_sum(named_graph("cycle", 4)), 14, 1)
    >>> frame.free, len(enc.window), enc.stats["targets"]
    ((0, 1, 2), 27, 105)
    """
    if M.has_bias:
        raise InputError("search: problems with biases have exp-rational coefficients, "
                         "which are outside the SMT search (THEORY §6)")
    if r is None:
        r = reduced_form(M)
    # each piece is cached under what it depends on, so that queries differing in other
    # options (a replay tries every combination) share the frame, symmetries and directions
    wkey = repr(window) if not isinstance(window, Window) else window
    keys: dict[str, tuple] = {"frame": (id(r), wkey, options.lineality)}
    keys["perms"] = keys["frame"] + (options.numerators, options.symmetry)
    keys["dirs"] = (id(r), options.parity)

    def cached(name, make):
        if cache is None:
            return make()
        hit = cache.get((name, keys[name]))
        if hit is not None and hit[0] is r:
            return hit[1]
        value = make()
        cache[(name, keys[name])] = (r, value)
        return value

    frame, win = cached("frame", lambda: _frame_and_window(r, window, options))
    perms, group = cached("perms", lambda: (window_symmetries(r, win, options.numerators)
                                            if options.symmetry else ([], 1)))
    dirs = cached("dirs", lambda: binomial_directions(r) if options.parity else ())
    centering = (options.centering and win.kind == "box" and frame.unimodular
                 and (win.radius or 0) > 0)
    enc = encode(r, win, k, cardinality=options.cardinality, symmetries=perms, centering=centering,
                 leading_terms=options.leading_terms, parity=dirs, numerators=options.numerators)
    return r, frame, enc, group


MAX_FACTOR_TERMS = 5000


def binomial_directions(r) -> tuple[tuple[int, ...], ...]:
    """Primitive directions ``g`` of the binomial factors ``a·x^u + b·x^v`` (``ab > 0``) of ``Q``.

    These are the factors Lemma 11.1 (level parity) applies to; ``g = v - u``
    with its first non-zero coordinate positive.  Factors that are not
    binomials, binomials with a non-primitive direction, and ``Q`` with more
    than :data:`MAX_FACTOR_TERMS` terms or a degree that FLINT cannot factor quickly
    (:func:`attnproof.algebra.budget.factor_obstacle`) give nothing (fewer constraints, never
    a wrong one).

    >>> from attnproof.families import graph_sum, named_graph
    >>> binomial_directions(reduced_form(graph_sum(named_graph("path", 3))))
    ((0, 1, -1), (1, -1, 0))
    """
    from math import gcd

    from ..algebra.budget import factor_obstacle
    from ..algebra.expfrac import poly_to_dict

    if (r.lattice.has_z or len(poly_to_dict(r.Q)) > MAX_FACTOR_TERMS
            or factor_obstacle(r.Q) is not None):
        return ()
    out: list[tuple[int, ...]] = []
    for f, _ in r.Q.factor()[1]:
        terms = poly_to_dict(f)
        if len(terms) != 2:
            continue
        (u, a), (v, b) = sorted(terms.items())
        if (a > 0) != (b > 0):
            continue
        g = tuple(y - x for x, y in zip(u, v))
        c = 0
        for x in g:
            c = gcd(c, x)
        if c != 1:
            continue
        if next(x for x in g if x) < 0:
            g = tuple(-x for x in g)
        if g not in out:
            out.append(g)
    return tuple(out)


def search_fusion(M: MultiHead, k: int, window: int | Sequence | Window, timeout: float = 600,
                  options: SearchOptions = SearchOptions(), r=None,
                  cache: dict | None = None,
                  on_solvers: Optional[Callable[[str], None]] = None) -> SearchResult:
    """One windowed query: ``sat`` (verified witness), ``unsat`` (both solvers) or ``unknown``.

    ``timeout`` bounds the whole query: z3 and cvc5 (with the cross-check) run at
    once, each in its own process, until both answer or the time is up; a
    ``sat`` from either stops the other.  With ``options.solvers_at_once``
    False they run one after the other in the same time (a sweep's schedule).
    ``on_solvers`` is told the solvers' states in words (``"z3 unsat, cvc5
    running"``) as they start and as each answers: a progress label.

    >>> from attnproof.families import graph_sum, named_graph
    >>> res = search_fusion(graph_sum(named_graph("path", 3)), 4, 1, timeout=60)
    >>> res.result, res.atoms, sorted(res.to_dict())[:4]
    ('sat', 4, ['atoms', 'encoding', 'frame', 'result'])
    """
    t0 = time.perf_counter()
    if cache is None:
        cache = {}
    if r is None:
        r = reduced_form(M)
    if options.relax_first and options.numerators and any(not p.is_zero() for p in r.P):
        res = _query(M, k, window, replace(options, numerators=False), r, cache, timeout, t0,
                     relaxed=True, on_solvers=on_solvers)
        if res is not None:
            return res
        if on_solvers is not None:                  # the full query follows the relaxation
            on_solvers = _prefixed("full query: ", on_solvers)
    res = _query(M, k, window, options, r, cache, timeout, t0, on_solvers=on_solvers)
    assert res is not None
    return res


def _prefixed(prefix: str, tell: Callable[[str], None]) -> Callable[[str], None]:
    """``tell`` with ``prefix`` before every text it is given."""
    return lambda text: tell(prefix + text)


def _query(M, k, window, options: SearchOptions, r, cache, timeout: float, t0: float,
           relaxed: bool = False,
           on_solvers: Optional[Callable[[str], None]] = None) -> SearchResult | None:
    """Build and run one encoding; None when a relaxed model is not a fusion."""
    r, frame, enc, group = build_query(M, k, window, options, r, cache)
    res = SearchResult("unknown", k, enc.window, frame, enc, symmetry_group=group)
    names = ("z3", "cvc5") if options.cross_check else ("z3",)
    left = max(timeout - (time.perf_counter() - t0), 0.1)
    told = on_solvers
    runs = run_solvers(names, enc.smtlib, left, enc.gvars, at_once=options.solvers_at_once,
                       on_states=None if told is None else lambda st: told(describe_states(st)))
    res.solvers.update(runs)
    z = res.witness_run()
    if z is not None:
        g = {enc.window.points[i]: parse_model_value(z.model.get(name, "0"))
             for i, name in enumerate(enc.gvars)}
        f = fusion_from_g(r, g)
        if not verify_fusion(f, k):
            if relaxed:
                return None         # D = Q·G is fine but N = P·G is not: ask the full query
            if not options.numerators:
                # a denominator-only query asked on its own: its model need not be a fusion
                res.reason = ("the denominator-only relaxation is sat, but its model is not a "
                              "fusion (no answer about fusions)")
                res.seconds = time.perf_counter() - t0
                return res
            raise SolverError(f"{z.solver} returned a model that does not verify as a fusion with "
                              f"at most {k} atoms (query {enc.sha256[:12]})")
        res.result, res.fusion = "sat", f
        wrong = [n for n, run in runs.items() if run.result == "unsat"]
        if wrong:
            res.reason = f"{', '.join(wrong)} answered unsat, but the witness verifies exactly"
    elif all(run.result == "unsat" for run in runs.values()):
        if options.cross_check:
            res.result = "unsat"
        else:
            res.reason = "z3 unsat, not cross-checked by cvc5 (no refutation is reported)"
    else:
        res.reason = "; ".join(f"{n} {run.result}" + (f" ({run.reason})" if run.reason else "")
                               for n, run in runs.items())
    res.seconds = time.perf_counter() - t0
    return res


def newton_lower_bound(M: MultiHead, r=None) -> tuple[int, str]:
    """The Newton vertex bound ``V(Q)`` (THEORY Theorem 3), or 1 when it cannot be computed.

    Uses :mod:`attnproof.bounds` when it is installed; otherwise the trivial bound 1.

    >>> from attnproof.families import graph_sum, named_graph
    >>> newton_lower_bound(graph_sum(named_graph("cycle", 4)))
    (14, 'newton')
    """
    try:
        from ..bounds import lower_bound
    except ImportError:
        return 1, "trivial"
    try:
        lb = lower_bound(M)
    except Exception:  # the bound only ends the bisection early
        return 1, "trivial"
    if isinstance(lb.value, int) and lb.value >= 1:
        return lb.value, "newton"
    return 1, "trivial"


@dataclass(repr=False)
class MinimizeResult:
    """The bisection in ``k``: the smallest verified fusion and the refutation that bounds it."""

    best: Fusion
    start: int
    lower_bound: int
    lower_bound_kind: str
    steps: list[SearchResult]
    stopped: str

    def __repr__(self) -> str:
        """Short: the best fusion, the bounds and how many queries were asked."""
        return fields_repr("MinimizeResult", best=self.best.atoms, start=self.start,
                           lower_bound=self.lower_bound, lower_bound_kind=self.lower_bound_kind,
                           queries=len(self.steps), stopped=self.stopped)

    def __str__(self) -> str:
        """The bisection, one query a line, and where it stopped."""
        lines = [f"best fusion: {self.best.atoms} atoms ({self.best.method}); lower bound "
                 f"{self.lower_bound} ({self.lower_bound_kind}); stopped: {self.stopped}"]
        lines += [f"  k = {s.target}: {s.result} ({s.seconds:.2f} s)" for s in self.steps]
        return "\n".join(lines)

    @property
    def refutation(self) -> SearchResult | None:
        """The ``unsat`` query with the largest ``k`` (every smaller ``k`` is refuted in its window)."""
        refuted = [s for s in self.steps if s.result == "unsat"]
        return max(refuted, key=lambda s: s.target) if refuted else None

    def queries(self) -> list[dict[str, Any]]:
        """One entry per query, in the order asked: ``k``, window, answer, seconds."""
        return [{"k": s.target, "window": s.window.to_dict(), "answer": s.result,
                 "seconds": round(s.seconds, 3), **({"atoms": s.atoms} if s.atoms else {})}
                for s in self.steps]

    def to_dict(self) -> dict[str, Any]:
        """JSON summary."""
        ref = self.refutation
        return {
            "best_atoms": self.best.atoms, "best_method": self.best.method,
            "start_atoms": self.start, "lower_bound": self.lower_bound,
            "lower_bound_kind": self.lower_bound_kind, "stopped": self.stopped,
            "refuted_below": (None if ref is None else
                              {"atoms": ref.target, "window": ref.window.to_dict(),
                               "smtlib_sha256": ref.encoding.sha256}),
            "queries": self.queries(),
            "steps": [s.to_dict() for s in self.steps]}


def next_target(low: int, high: int) -> int:
    """The ``k`` to ask next when every fusion in the window has ``≥ low`` atoms and one has ``high``.

    The midpoint of ``[low, high - 1]``, rounded up: an ``unsat`` there halves
    the interval, and a ``sat`` witness may land below ``k``.

    >>> next_target(24, 38), next_target(37, 38), next_target(6, 7)
    (31, 37, 6)
    """
    return (low + high) // 2


def minimize(M: MultiHead, window: int | Sequence | Window, timeout: float = 600,
             options: SearchOptions = SearchOptions(), progress: Progress = None,
             max_atoms: int | None = DEFAULT_MAX_ATOMS,
             on_step: Optional[Callable[[SearchResult], None]] = None,
             on_solvers: Optional[Callable[[str], None]] = None,
             budget: float | None = None) -> MinimizeResult:
    """Bisect ``k`` between the Newton bound and the best cheap fusion.

    ``low`` starts at the Newton bound (Theorem 3: no fusion has fewer atoms),
    ``high`` at the best cheap fusion.  Each query asks for ``k = next_target(low, high)``:
    ``unsat`` refutes every ``k' ≤ k`` in the window (``low = k + 1``); ``sat``
    gives a verified witness with ``a ≤ k`` atoms (``high = a``).  ``stopped``
    is ``"refuted"`` (``low = high``: the witness is the smallest with ``G`` in
    the window), ``"bound"`` (the witness meets the Newton bound: a proven
    minimum), or ``"unknown"`` (a query was inconclusive).  ``on_step`` is
    called with each query's result as soon as it is known, ``on_solvers``
    with the solvers' states during each (see :func:`search_fusion`); ``timeout``
    applies to each query, ``budget`` (seconds, None: no limit) to the whole walk,
    which then stops ``"unknown"`` with what it proved so far.

    >>> from attnproof.families import graph_sum, named_graph
    >>> mr = minimize(graph_sum(named_graph("complete", 3)), 1, timeout=60)
    >>> mr.best.atoms, mr.stopped, mr.refutation.target, mr.to_dict()["refuted_below"]["window"]
    (7, 'refuted', 6, {'kind': 'box', 'radius': 1, 'coordinates': [0, 1]})
    >>> [(q["k"], q["answer"]) for q in mr.queries()]
    [(6, 'unsat')]
    """
    r = reduced_form(M, max_atoms)
    best = fuse(M, max_atoms)
    start = best.atoms
    low, kind = newton_lower_bound(M, r)
    bound = low
    steps: list[SearchResult] = []
    total = max(start - low, 1)
    if progress is not None:
        progress(0, total)
    high = best.atoms
    stopped = "bound"
    cache: dict = {}
    t0 = time.perf_counter()
    while low < high:
        k = next_target(low, high)
        left = timeout if budget is None else min(timeout, budget - (time.perf_counter() - t0))
        if left <= 1:
            stopped = "unknown"
            break
        res = search_fusion(M, k, window, left, options, r, cache=cache, on_solvers=on_solvers)
        steps.append(res)
        if on_step is not None:
            on_step(res)
        if res.result == "sat" and res.fusion is not None:
            best = res.fusion
            high = best.atoms
        elif res.result == "unsat":
            low = k + 1
        else:
            stopped = "unknown"
            break
        if progress is not None:
            progress(min(total - (high - low), total), total)
    else:
        stopped = "bound" if best.atoms <= bound else "refuted"
    if progress is not None:
        progress(total, total)
    return MinimizeResult(best, start, bound, kind, steps, stopped)
