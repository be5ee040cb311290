"""Line refutations run: one query, the bisection in ``k``, and completing a support.

:func:`line_query` asks "``L(R) ≤ k``?" (:mod:`attnproof.smt.lines`) with z3
and cvc5 at once, each in its own killable process: ``unsat`` only when both
say so (then every fusion has at least ``k + 1`` atoms), ``sat`` with the
candidate support read from z3's model, anything else ``unknown``.
:func:`complete_support` asks whether a fusion lives on a candidate support (the
numerator condition is linear once the support is fixed: a points-window query
of THEORY §6, whose model is rebuilt and verified exactly).
:func:`line_minimize` bisects ``k`` between the Newton bound and the best fusion.

>>> from attnproof.families import graph_sum, named_graph
>>> res = line_query(graph_sum(named_graph("complete", 3)), 6, timeout=60)
>>> res.result, res.lower_bound
('unsat', 7)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import product
from typing import Any, Callable, Optional, Sequence

from ..errors import InputError
from ..fusion import DEFAULT_MAX_ATOMS, Fusion, fuse, reduced_form
from ..heads import MultiHead
from .lines import (LINE_OPTIONS, LineEncoding, LineFactors, _coordinates, encode_lines,
                    line_factors, support_from_model)
from .solvers import SolverRun, describe_states, run_solvers

__all__ = ["LineResult", "LineMinimizeResult", "line_query", "line_minimize", "complete_support",
           "MAX_COMPLETION_WINDOW"]

MAX_COMPLETION_WINDOW = 20000     # window points a completion may enumerate


@dataclass
class LineResult:
    """The answer to one line query."""

    result: str                      # sat | unsat | unknown
    target: int
    factors: LineFactors
    encoding: LineEncoding
    solvers: dict[str, SolverRun] = field(default_factory=dict)
    support: list | None = None      # sat: the candidate support (distinct points)
    fusion: Fusion | None = None     # sat and completed: a verified fusion
    seconds: float = 0.0
    reason: str = ""

    @property
    def lower_bound(self) -> int | None:
        """``k + 1`` for a refutation: every fusion has at least this many atoms."""
        return self.target + 1 if self.result == "unsat" else None

    def to_dict(self) -> dict[str, Any]:
        """JSON summary."""
        d: dict[str, Any] = {
            "result": self.result, "k": self.target, "factors": self.factors.to_dict(),
            "options": list(self.encoding.options),
            "solvers": {k: v.to_dict() for k, v in self.solvers.items()},
            "smtlib_sha256": self.encoding.sha256, "encoding": dict(self.encoding.stats),
            "seconds": round(self.seconds, 3)}
        if self.support is not None:
            d["support"] = [list(p) for p in self.support]
        if self.fusion is not None:
            d["fusion_atoms"] = self.fusion.atoms
        if self.reason:
            d["reason"] = self.reason
        return d


def _factors(M: MultiHead, r=None) -> tuple[Any, LineFactors]:
    if M.has_bias:
        raise InputError("line refutations: problems with biases have exp-rational coefficients, "
                         "which are outside the SMT search (THEORY §6)")
    if r is None:
        r = reduced_form(M)
    lf = line_factors(r)
    if not lf.directions:
        raise InputError("line refutations need a factor 1 + x^g of the reduced denominator "
                         "(graph sums, sigmoid sums and their products have them); this problem "
                         "has none")
    return r, lf


def line_query(M: MultiHead, k: int, timeout: float = 600, options: Sequence[str] = LINE_OPTIONS,
               r=None, factors: LineFactors | None = None, complete: bool = True,
               on_solvers: Optional[Callable[[str], None]] = None) -> LineResult:
    """Ask "is there a support of at most ``k`` points?" with z3 and cvc5 (both needed for unsat).

    ``complete``: on ``sat``, try to complete the support to a verified fusion.
    ``on_solvers`` is told the solvers' states in words (``"z3 unsat, cvc5
    running"``) as they start and as each answers: a progress label.

    >>> from attnproof.families import sigmoid_sum
    >>> res = line_query(sigmoid_sum(2), 4, timeout=60)
    >>> res.result, len(res.support), res.fusion.atoms
    ('sat', 4, 4)
    """
    t0 = time.perf_counter()
    if factors is None:
        r, factors = _factors(M, r)
    elif r is None:
        r = reduced_form(M)
    enc = encode_lines(factors.factors, k, options, factors.others)
    res = LineResult("unknown", k, factors, enc)
    told = on_solvers
    runs = run_solvers(("z3", "cvc5"), enc.smtlib, max(timeout, 0.1), enc.model_vars,
                       on_states=None if told is None else lambda st: told(describe_states(st)))
    res.solvers.update(runs)
    if runs["z3"].result == "sat":
        res.result = "sat"
        res.support = support_from_model(enc, runs["z3"].model)
        if complete:
            left = max(timeout - (time.perf_counter() - t0), 1.0)
            res.fusion = complete_support(M, r, factors, res.support, left)
    elif all(run.result == "unsat" for run in runs.values()):
        res.result = "unsat"
    else:
        res.reason = "; ".join(f"{n} {run.result}" + (f" ({run.reason})" if run.reason else "")
                               for n, run in runs.items())
    res.seconds = time.perf_counter() - t0
    return res


def completion_window(r, support: Sequence[tuple[int, ...]],
                      limit: int = MAX_COMPLETION_WINDOW,
                      factors: LineFactors | None = None) -> list[tuple[int, ...]] | None:
    """Exponents ``w`` of ``G`` for a fusion whose support is a translate of ``support``.

    The support is placed at ``q_0 + S`` (``q_0`` the least exponent of ``Q``); ``G``'s
    exponents then lie in the lattice of the directions (other classes would give
    terms of ``D`` off the support) when ``Q`` is exactly the product of the
    factors (otherwise every point of the box is kept), and ``w + supp Q`` in the
    bounding box of ``q_0 + S`` (Ostrowski).  None when more than ``limit`` points
    qualify.

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.fusion import reduced_form
    >>> completion_window(reduced_form(sigmoid_sum(2)), [(0, 0), (0, 1), (1, 0), (1, 1)])
    [(0, 0)]
    """
    from ..algebra.expfrac import poly_to_dict
    from .lines import _lattice_basis

    if factors is None:
        factors = line_factors(r)
    q = sorted(poly_to_dict(r.Q))
    q0 = q[0]
    pts = [tuple(a + b for a, b in zip(q0, s)) for s in support]
    n = len(q0)
    lo = [min(p[j] for p in pts) - min(e[j] for e in q) for j in range(n)]
    hi = [max(p[j] for p in pts) - max(e[j] for e in q) for j in range(n)]
    if any(a > b for a, b in zip(lo, hi)):
        return []
    size = 1
    for a, b in zip(lo, hi):
        size *= b - a + 1
    if size > limit:
        return None
    basis = _lattice_basis(factors.directions)
    out = []
    for w in product(*(range(a, b + 1) for a, b in zip(lo, hi))):
        if factors.exact:
            try:
                _coordinates(basis, w)
            except ValueError:
                continue
        out.append(tuple(w))
    return out


def complete_support(M: MultiHead, r, factors: LineFactors, support: Sequence[tuple[int, ...]],
                     timeout: float = 60) -> Fusion | None:
    """A verified fusion with at most ``|support|`` atoms found from a candidate support, or None.

    Runs the windowed search (THEORY §6) on :func:`completion_window`: its
    ``sat`` model is rebuilt with exact rationals and verified (Theorem 2) before
    it is returned.

    >>> from attnproof.families import graph_sum, named_graph
    >>> from attnproof.smt.lines import line_factors
    >>> M = graph_sum(named_graph("complete", 3))
    >>> r = reduced_form(M)
    >>> pts = [(0, 0, 0), (0, 1, -1), (1, -1, 0), (1, 0, -1), (1, 1, -2), (2, -1, -1), (2, 0, -2)]
    >>> complete_support(M, r, line_factors(r), pts, 60).atoms
    7
    """
    from .query import SearchOptions, search_fusion

    win = completion_window(r, support, factors=factors)
    if not win:
        return None
    res = search_fusion(M, len(support), win, timeout,
                        SearchOptions(symmetry=False, centering=False), r=r)
    return res.fusion if res.result == "sat" else None


@dataclass
class LineMinimizeResult:
    """The bisection: the best verified fusion, the proven lower bound and every query."""

    best: Fusion
    start: int
    newton: int
    lower_bound: int
    factors: LineFactors
    steps: list[LineResult]
    stopped: str                      # minimum | gap | unknown
    seconds: float = 0.0

    @property
    def refutation(self) -> LineResult | None:
        """The ``unsat`` query with the largest ``k`` (it alone gives the lower bound)."""
        refuted = [s for s in self.steps if s.result == "unsat"]
        return max(refuted, key=lambda s: s.target) if refuted else None

    @property
    def minimum(self) -> int | None:
        return self.best.atoms if self.best.atoms == self.lower_bound else None

    def to_dict(self) -> dict[str, Any]:
        """JSON summary."""
        ref = self.refutation
        return {"lower_bound": self.lower_bound, "upper_bound": self.best.atoms,
                "minimum": self.minimum, "newton_bound": self.newton, "start_atoms": self.start,
                "factors": self.factors.to_dict(), "stopped": self.stopped,
                "seconds": round(self.seconds, 3),
                "refutation": None if ref is None else {"k": ref.target,
                                                        "smtlib_sha256": ref.encoding.sha256},
                "queries": [{"k": s.target, "answer": s.result, "seconds": round(s.seconds, 3),
                             **({"support": len(s.support)} if s.support is not None else {}),
                             **({"fusion_atoms": s.fusion.atoms} if s.fusion else {})}
                            for s in self.steps]}


def line_minimize(M: MultiHead, timeout: float = 600, options: Sequence[str] = LINE_OPTIONS,
                  max_atoms: int | None = DEFAULT_MAX_ATOMS, budget: float | None = None,
                  on_step: Optional[Callable[[LineResult], None]] = None,
                  lower: int | None = None, strategy: str = "bisect",
                  on_solvers: Optional[Callable[[str], None]] = None) -> LineMinimizeResult:
    """Bisect ``k`` between the Newton bound and the best fusion with line queries.

    ``low`` starts at the Newton bound (or ``lower``), ``high`` at the best cheap
    fusion.  Each query asks ``k = ⌊(low + min(high, cap))/2⌋``: ``unsat`` proves
    ``low = k + 1``; ``sat`` gives a support of ``s ≤ k`` points, so no line query
    refutes ``s`` (``cap = s``), and when it completes to a verified fusion,
    ``high`` drops to its atom count.  ``stopped``: ``minimum`` (the bounds meet),
    ``gap`` (``low`` reached a support that is no fusion), ``unknown`` (a query
    was inconclusive or ``budget`` seconds were spent).  ``timeout`` applies to
    each query.  ``strategy="ascend"`` asks ``k = low`` each time instead: every
    ``unsat`` raises the bound by one, so a time budget always ends with the best
    bound reached so far.

    >>> from attnproof.families import graph_sum, named_graph
    >>> mr = line_minimize(graph_sum(named_graph("complete", 3)), timeout=60)
    >>> mr.lower_bound, mr.best.atoms, mr.stopped, [(q["k"], q["answer"]) for q in mr.to_dict()["queries"]]
    (7, 7, 'minimum', [(6, 'unsat')])
    """
    from .query import newton_lower_bound

    t0 = time.perf_counter()
    r, lf = _factors(M)
    best = fuse(M, max_atoms)
    start = best.atoms
    newton, _ = newton_lower_bound(M, r)
    low = max(newton, lower or 1)
    high = cap = best.atoms
    steps: list[LineResult] = []
    stopped = "minimum"
    while low < high:
        if low >= cap:
            stopped = "gap"
            break
        left = timeout if budget is None else min(timeout, budget - (time.perf_counter() - t0))
        if left <= 1:
            stopped = "unknown"
            break
        if strategy not in ("bisect", "ascend"):
            raise InputError(f"unknown strategy {strategy!r}: bisect or ascend")
        k = low if strategy == "ascend" else (low + min(high, cap)) // 2
        res = line_query(M, k, left, options, r=r, factors=lf, on_solvers=on_solvers)
        steps.append(res)
        if on_step is not None:
            on_step(res)
        if res.result == "unsat":
            low = k + 1
        elif res.result == "sat" and res.support is not None:
            cap = min(cap, len(res.support))
            if res.fusion is not None and res.fusion.atoms < high:
                best, high = res.fusion, res.fusion.atoms
        else:
            stopped = "unknown"
            break
    return LineMinimizeResult(best, start, newton, low, lf, steps, stopped,
                              time.perf_counter() - t0)
