"""SMT search for small single-head fusions in a window (THEORY §6).

The formula layer (:mod:`.encoding`, :mod:`.window`, :mod:`.lineality`,
:mod:`.symmetry`) imports no solver; :mod:`.solvers` runs z3 and cvc5 in
killable child processes; :mod:`.verify` rebuilds and checks every model;
:mod:`.certify` and :mod:`.replay` connect refutations to certificates.
Problems with biases are refused (exp-rational coefficients are outside this
search).

>>> from attnproof.families import sigmoid_sum
>>> search_fusion(sigmoid_sum(1), 2, 0, timeout=60).result
'sat'
"""

from .certify import line_certificate, line_refutation, search_certificate, window_refutation
from .encoding import Encoding, encode
from .line_query import line_minimize
from .lineality import Frame, full_frame, lineality_frame
from .query import (MinimizeResult, SearchOptions, SearchResult, build_query, minimize,
                    newton_lower_bound, search_fusion)
from .prove_lines import (DEFAULT_LINES_TIMEOUT, MAX_AUTO_LINE_POINTS, add_line_refutations,
                          line_binomials, line_obstacle)
from .replay import replay_step
from .solvers import SolverRun, run_solver, solver_available, solver_version
from .sweep import parse_targets, parse_windows
from .symmetry import window_symmetries
from .verify import fusion_from_g, verify_fusion
from .window import Window, box_window, parse_window, points_window

__all__ = ["Encoding", "encode", "Frame", "full_frame", "lineality_frame", "MinimizeResult",
           "SearchOptions", "SearchResult", "build_query", "minimize", "newton_lower_bound",
           "search_fusion", "SolverRun", "run_solver", "solver_available", "solver_version",
           "window_symmetries", "fusion_from_g", "verify_fusion", "Window", "box_window",
           "parse_window", "points_window", "search_certificate", "line_certificate",
           "window_refutation", "line_refutation",
           "line_minimize", "replay_step", "line_binomials", "line_obstacle",
           "add_line_refutations", "DEFAULT_LINES_TIMEOUT", "MAX_AUTO_LINE_POINTS", "parse_targets", "parse_windows"]

