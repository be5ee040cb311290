"""Re-run both solvers on the SMT-LIB2 text of a ``window_refutation`` step.

Called by ``attnproof check CERT --replay``.  The text is checked against its
SHA-256 first; given the certificate's problem, the query is then encoded again
from that problem, ``k`` and the window, and the hash must match one of the
encodings the search produces (this ties the SMT-LIB2 text to the problem it
claims to be about); finally z3 and cvc5 run at once on exactly that text, each in its
own killable process, and the step is confirmed only when both answer ``unsat``.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.smt.query import search_fusion
>>> from attnproof.certificate.steps.windows import window_refutation_step
>>> from attnproof.smt.certify import window_refutation
>>> step = window_refutation_step(window_refutation(search_fusion(sigmoid_sum(2), 3, 0, timeout=60)))
>>> replay_step(step, problem=sigmoid_sum(2))[0]
True
>>> replay_step(step, problem=sigmoid_sum(3))
(False, "the SMT-LIB2 text is not an encoding of the certificate's problem with at most 3 atoms in this window")
>>> replay_step(dict(step, smtlib=step["smtlib"].replace("(>= ", "(<= ")))
(False, 'the SMT-LIB2 text does not match smtlib_sha256')
"""

from __future__ import annotations

import hashlib
import itertools
import re
from dataclasses import replace
from fractions import Fraction

from ..errors import AttnproofError
from .solvers import run_solvers, solver_available

__all__ = ["replay_step", "replay_line_step", "encoding_options_of", "line_options_of",
           "contraction_mismatch", "header_mismatch",
           "DEFAULT_REPLAY_TIMEOUT"]

DEFAULT_REPLAY_TIMEOUT = 600.0


_HEADER = re.compile(r"\(set-info :source \|attnproof window search: ([0-9]+) window points, "
                     r"([0-9]+) targets, at most ([0-9]+) atoms\|\)\n")


def header_mismatch(step: dict) -> str | None:
    """Why the step's text cannot be an encoding of its ``k`` and window, read off the text
    alone (None when it may be): checked before any encoding or symmetry group is built.

    Every encoding starts with the line ``(set-info :source |attnproof window search: N
    window points, T targets, at most k atoms|)`` and declares ``g_0 .. g_{N-1}`` and
    ``s_0 .. s_{T-1}``; ``N`` is at most the window's size.  Linear in the text.

    >>> header_mismatch({"atoms": 4, "window": {"kind": "box", "radius": 1, "coordinates": [0]},
    ...                  "smtlib": "(assert false)(check-sat)"})
    'the SMT-LIB2 text does not start as an encoding of a window query'
    """
    text, k, window = step.get("smtlib"), step.get("atoms"), step.get("window")
    m = _HEADER.match(text) if isinstance(text, str) else None
    if m is None or not isinstance(text, str):
        return "the SMT-LIB2 text does not start as an encoding of a window query"
    n, t, kk = (int(x) for x in m.groups())
    if kk != k:
        return f"the SMT-LIB2 text encodes at most {kk} atoms, the step claims {k}"
    if not isinstance(window, dict):
        return "the step's window is not an object"
    if window.get("kind") == "box":
        coords, radius = window.get("coordinates"), window.get("radius")
        if not isinstance(coords, list) or not isinstance(radius, int) or radius < 0:
            return "the step's box window is malformed"
        size = (2 * radius + 1) ** len(coords) if len(coords) < 64 else None
    elif window.get("kind") == "points" and isinstance(window.get("points"), list):
        size = len(window["points"])
    else:
        return "the step's window kind is unknown"
    if n < 1 or (size is not None and n > size) or t < 1:
        return f"the SMT-LIB2 text has {n} window points, the window at most {size}"
    if (f"(declare-fun g_{n - 1} () Real)\n" not in text
            or f"(declare-fun s_{t - 1} () Bool)\n" not in text):
        return "the SMT-LIB2 text does not declare the unknowns its header announces"
    return None


_REDUCED: list = []          # (problem, reduced form): the last problem replayed


def _reduced_form(M):
    """``reduced_form(M)``, computed once for the steps of one certificate."""
    from ..fusion import reduced_form

    if _REDUCED and _REDUCED[0][0] is M:
        return _REDUCED[0][1]
    r = reduced_form(M)
    _REDUCED[:] = [(M, r)]
    return r


def encoding_options_of(step: dict, M) -> dict | None:
    """The search options whose encoding of ``(M, k, window)`` has the step's hash, or None.

    Every combination of the reductions (numerator constraints or the
    denominator-only relaxation, parity, lineality, symmetry, centering,
    cardinality) is tried, the default first, so a step written by any
    ``attnproof search`` run is recognized.

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.smt.query import search_fusion
    >>> from attnproof.certificate.steps.windows import window_refutation_step
    >>> from attnproof.smt.certify import window_refutation
    >>> step = window_refutation_step(window_refutation(search_fusion(sigmoid_sum(2), 3, 1, timeout=60)))
    >>> encoding_options_of(step, sigmoid_sum(2))["cardinality"]
    'counter'
    """
    from .query import SearchOptions, build_query

    window, k, digest = step.get("window"), step.get("atoms"), step.get("smtlib_sha256")
    if not isinstance(window, dict) or not isinstance(k, int) or isinstance(k, bool):
        return None
    if window.get("kind") == "box":
        spec = window.get("radius")
    elif window.get("kind") == "points":
        spec = window.get("points")
    else:
        return None
    if spec is None or header_mismatch(step) is not None:
        return None
    try:
        r = _reduced_form(M)
    except AttnproofError:
        return None
    default = SearchOptions()
    combos = [default, replace(default, numerators=False), SearchOptions.straightforward()]
    for num, par, lin, sym, cen, card in itertools.product(
            (True, False), (True, False), (True, False), (True, False), (True, False),
            ("counter", "sum")):
        o = SearchOptions(lineality=lin, symmetry=sym, centering=cen, cardinality=card, parity=par,
                          numerators=num)
        if o not in combos:
            combos.append(o)
    cache: dict = {}          # frame, window, symmetries: built once for every combination
    for o in combos:
        try:
            _, _, enc, _ = build_query(M, k, spec, o, r=r, cache=cache)
        except AttnproofError:
            continue
        if enc.window.to_dict() == window and enc.sha256 == digest:
            return {"lineality": o.lineality, "symmetry": o.symmetry, "centering": o.centering,
                    "cardinality": o.cardinality, "parity": o.parity, "numerators": o.numerators}
    return None


def replay_step(step: dict, timeout: float = DEFAULT_REPLAY_TIMEOUT,
                problem=None) -> tuple[bool, str]:
    """``(True, message)`` when z3 and cvc5 both find the step's SMT-LIB2 query unsat.

    With ``problem`` (the certificate's multi-head) the text must also be an
    encoding of that problem, ``k`` and the window (:func:`encoding_options_of`).

    >>> replay_step({"rule": "window_refutation", "smtlib": "x", "smtlib_sha256": "0" * 64})
    (False, 'the SMT-LIB2 text does not match smtlib_sha256')
    """
    if isinstance(step, dict) and step.get("rule") == "line_refutation":
        return replay_line_step(step, timeout, problem)
    if not isinstance(step, dict) or step.get("rule") != "window_refutation":
        return False, "not a window_refutation step"
    text, why = _hashed_text(step)
    if text is None:
        return False, why
    if problem is not None and header_mismatch(step) is not None:
        return False, (f"{header_mismatch(step)}: not an encoding of the certificate's problem "
                       f"with at most {step.get('atoms')} atoms in this window")
    if problem is not None and encoding_options_of(step, problem) is None:
        return False, (f"the SMT-LIB2 text is not an encoding of the certificate's problem with "
                       f"at most {step.get('atoms')} atoms in this window")
    return _both_unsat(text, timeout, problem is not None)


def _step_factors(step: dict, M):
    """The step's factors ``(g, c, m)`` when each is a binomial factor ``(1 + c·x^g)^{m'}`` of
    the problem's reduced denominator with ``m ≤ m'``, with the problem's Newton factors
    the step keeps (or none); None otherwise."""
    from ..fusion import reduced_form
    from .lines import LineFactor, line_factors

    dirs = step.get("directions")
    if not isinstance(dirs, list):
        return None
    coefs = step.get("coefficients", [1] * len(dirs))
    mults = step.get("multiplicities", [1] * len(dirs))
    try:
        lf = line_factors(reduced_form(M))
        derived = {(f.direction, f.coefficient): f.multiplicity for f in lf.factors}
        facs = [LineFactor(tuple(g), Fraction(c), m) for g, c, m in zip(dirs, coefs, mults)]
    except (AttnproofError, TypeError, ValueError, ZeroDivisionError):
        return None
    if (not facs or len(coefs) != len(dirs) or len(mults) != len(dirs)
            or any(not isinstance(m, int) or not 1 <= m <= derived.get((f.direction, f.coefficient), 0)
                   for f, m in zip(facs, mults))):
        return None
    nothers = len(step.get("newton_factors", []))
    if nothers not in (0, len(lf.others)):
        return None
    return facs, (lf.others if nothers else ())


def contraction_mismatch(step: dict, M) -> str | None:
    """Why the step's ``contraction_bounds`` are not the bounds the problem gives, or None
    (also when the step's factors are not the problem's: :func:`line_options_of` refuses it).

    The bounds are derived again from the factors of the problem that the step names
    (:func:`attnproof.smt.lines.contraction_bounds`, THEORY Lemma 13.2): a number in
    the certificate is never taken on trust.

    >>> from attnproof.families import graph_sum, named_graph
    >>> M = graph_sum(named_graph("complete", 3))
    >>> step = {"directions": [[0, 1, -1], [1, -1, 0], [1, 0, -1]], "options": ["contraction"],
    ...         "contraction_bounds": [3, 3, 4]}
    >>> contraction_mismatch(step, M)
    'contraction_bounds [3, 3, 4] are not those of the problem, [3, 3, 3] (THEORY Lemma 13.2)'
    >>> contraction_mismatch(dict(step, contraction_bounds=[3, 3, 3]), M) is None
    True
    """
    from .lines import contraction_bounds

    opts = step.get("options")
    if not isinstance(opts, list) or "contraction" not in opts:
        return None
    got = _step_factors(step, M)
    if got is None:                 # not this problem's factors: line_options_of says so
        return None
    want = list(contraction_bounds(got[0]))
    if step.get("contraction_bounds") != want:
        return (f"contraction_bounds {step.get('contraction_bounds')} are not those of the "
                f"problem, {want} (THEORY Lemma 13.2)")
    return None


def line_options_of(step: dict, M) -> tuple[str, ...] | None:
    """The encoding options whose line query for ``M`` has the step's hash, or None.

    The factors are derived again from the problem's reduced denominator
    (:func:`attnproof.smt.lines.line_factors`): each of the step's ``(g, c, m)``
    must be a binomial factor ``(1 + c·x^g)^{m'}`` of ``Q`` with ``m ≤ m'``, and its
    Newton factors are those of the problem (or none).  A step that records its
    ``options`` is encoded with exactly those (and, with ``contraction``, the bounds
    the problem gives, :func:`contraction_mismatch`); one that does not (certificates
    written before options were recorded) is tried with every subset of
    :data:`~attnproof.smt.lines.LEGACY_LINE_OPTIONS`, all of them first.

    >>> from attnproof.families import graph_sum, named_graph
    >>> from attnproof.smt.line_query import line_query
    >>> from attnproof.certificate.steps.windows import line_refutation_step
    >>> from attnproof.smt.certify import line_refutation
    >>> M = graph_sum(named_graph("complete", 3))
    >>> step = line_refutation_step(line_refutation(line_query(M, 6, 60)), "0" * 64)
    >>> line_options_of(step, M)
    ('parity', 'order', 'faces', 'symmetry', 'contraction')
    >>> line_options_of(dict(step, atoms=5), M) is None
    True
    >>> line_options_of(dict(step, options=["parity"]), M) is None
    True
    """
    from .lines import LEGACY_LINE_OPTIONS, LINE_OPTIONS, encode_lines

    k, digest = step.get("atoms"), step.get("smtlib_sha256")
    if not isinstance(k, int) or isinstance(k, bool):
        return None
    got = _step_factors(step, M)
    if got is None:
        return None
    facs, others = got
    recorded = step.get("options")
    if recorded is not None:
        if (not isinstance(recorded, list) or any(o not in LINE_OPTIONS for o in recorded)
                or contraction_mismatch(step, M) is not None):
            return None
        tries = [tuple(o for o in LINE_OPTIONS if o in recorded)]
    else:
        tries = [opts for size in range(len(LEGACY_LINE_OPTIONS), -1, -1)
                 for opts in itertools.combinations(LEGACY_LINE_OPTIONS, size)]
    for opts in tries:
        try:
            enc = encode_lines(facs, k, opts, others)
        except (AttnproofError, ValueError):
            continue
        if enc.sha256 == digest:
            return opts
    return None


def replay_line_step(step: dict, timeout: float = DEFAULT_REPLAY_TIMEOUT,
                     problem=None) -> tuple[bool, str]:
    """``(True, message)`` when z3 and cvc5 both find a ``line_refutation`` query unsat.

    With ``problem`` the text must be the line query of that problem's binomial
    factors, ``k`` and the step's encoding options (:func:`line_options_of`); the
    contraction bounds it assumes are derived again (:func:`contraction_mismatch`).

    >>> replay_line_step({"rule": "line_refutation", "smtlib": "x", "smtlib_sha256": "0" * 64})
    (False, 'the SMT-LIB2 text does not match smtlib_sha256')
    """
    text, why = _hashed_text(step)
    if text is None:
        return False, why
    if problem is not None:
        bad = contraction_mismatch(step, problem)
        if bad is not None:
            return False, bad
    if problem is not None and line_options_of(step, problem) is None:
        return False, (f"the SMT-LIB2 text is not the line query of the certificate's problem "
                       f"with at most {step.get('atoms')} points")
    return _both_unsat(text, timeout, problem is not None)


def _hashed_text(step: dict) -> tuple[str | None, str]:
    """``(text, "")`` when the step's SMT-LIB2 text matches its SHA-256, else ``(None, why)``."""
    text, digest = step.get("smtlib"), step.get("smtlib_sha256")
    if not isinstance(text, str) or not isinstance(digest, str):
        return None, "the step has no SMT-LIB2 text or hash"
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != digest:
        return None, "the SMT-LIB2 text does not match smtlib_sha256"
    return text, ""


def _both_unsat(text: str, timeout: float, tied: bool) -> tuple[bool, str]:
    """Run z3 and cvc5 on ``text``; ``(True, summary)`` only when both answer unsat."""
    for name in ("z3", "cvc5"):
        if not solver_available(name):
            return False, f"{name} is not available: cannot replay"
    runs = run_solvers(("z3", "cvc5"), text, timeout)
    parts = []
    for name, run in runs.items():
        if run.result != "unsat":
            why = f" ({run.reason})" if run.reason else ""
            return False, f"{name} {run.version} answered {run.result}{why}, not unsat"
        parts.append(f"{name} {run.version} unsat in {run.seconds:.2f} s")
    return True, "replayed: " + ("re-encoded from the problem, " if tied else "") + ", ".join(parts)
