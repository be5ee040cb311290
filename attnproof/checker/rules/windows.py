"""The SMT refutation rules: ``window_refutation`` (§6.6 of docs/certificates.md; THEORY §6,
trust ``window-refuted``) and ``line_refutation`` (§6.11; THEORY Lemma 12.1, Cor 12.2, trust
``line-refuted``).  Neither can be re-proven here: the checker verifies what it can (the
SMT-LIB2 text against its hash, the solvers named, for lines the factors the query is about)
and ``attnproof check --replay`` re-encodes and re-solves.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

from .. import poly as P
from ..syntax import Reject, fields, hexdigest, integer, rational
from .state import State

MAX_LINE_DIRECTIONS = 64
# the encoding options a line refutation may name (attnproof.smt.lines.LINE_OPTIONS)
LINE_OPTIONS = ("parity", "order", "faces", "symmetry", "contraction")


def _sized(x, where: str, lo: int = 0, hi: int | None = None) -> list:
    """``x``, a list of ``lo`` to ``hi`` entries (any number from ``lo`` when ``hi`` is None);
    ``where`` says what it must be."""
    if not isinstance(x, list) or not lo <= len(x) <= (len(x) if hi is None else hi):
        raise Reject(where)
    return x


def _window(w, where: str):
    """A ``box`` (radius and coordinates at least 0) or a non-empty list of integer ``points``."""
    kind = w.get("kind") if isinstance(w, dict) else None
    if kind not in ("box", "points"):
        raise Reject(f"{where}: unknown window kind {kind!r}")
    fields(w, {"kind", "radius", "coordinates"} if kind == "box" else {"kind", "points"}, set(), where)
    if kind == "box":
        integer(w["radius"], f"{where}: radius", 0)
    rows = [w["coordinates"]] if kind == "box" else _sized(w["points"], f"{where}: points must be a non-empty list", 1)
    for row in rows:
        for x in _sized(row, f"{where}: coordinates and points are lists of integers"):
            integer(x, f"{where}: {kind}", 0 if kind == "box" else None)
    return w


def _smt_text(step: dict, where: str) -> None:
    """Both solvers named, and the SMT-LIB2 text matches its SHA-256."""
    sv = fields(step["solvers"], {"z3", "cvc5"}, set(), f"{where}: solvers")
    if not all(isinstance(sv[s], str) and sv[s] for s in ("z3", "cvc5")):
        raise Reject(f"{where}: solvers must name the z3 and cvc5 versions")
    digest = hexdigest(step["smtlib_sha256"], f"{where}: smtlib_sha256")
    if not isinstance(step["smtlib"], str):
        raise Reject(f"{where}: smtlib must be a string")
    if hashlib.sha256(step["smtlib"].encode("utf-8")).hexdigest() != digest:
        raise Reject(f"{where}: the SMT-LIB2 text does not match smtlib_sha256")


def rule_window_refutation(st: State, step: dict, where: str) -> None:
    """No fusion with <= ``atoms`` atoms whose G lies in the window (SMT; trust window-refuted).

    The checker verifies the SMT-LIB2 text against its hash and that two solvers
    are named; it cannot re-prove the refutation, so a certificate with such a
    step is *inconclusive* until ``attnproof check --replay`` re-proves it.
    """
    fields(step, {"rule", "atoms", "window", "solvers", "smtlib_sha256", "smtlib"}, set(), where)
    if st.upper is None:
        raise Reject(f"{where}: window refutations come after the bounds")
    k = integer(step["atoms"], f"{where}: atoms", 1)
    win = _window(step["window"], f"{where}: window")
    _smt_text(step, where)
    st.windows.append({"atoms": k, "window": win})
    st.window_steps.append(st.step_index)
    st.weaken("window-refuted")


def _direction(g, dim: int, where: str) -> tuple:
    """A non-zero integer vector of length ``dim``, first non-zero entry positive (not
    necessarily primitive: ``1 + x^{2h}`` is irreducible, as its bound factor shows)."""
    v = tuple(integer(x, where) for x in _sized(g, f"{where}: a direction is a list of {dim} integers", dim, dim))
    if next((x for x in v if x), -1) < 0:
        raise Reject(f"{where}: a direction is non-zero, its first non-zero entry positive")
    return v


def binomial_factor(f: dict, dim: int) -> tuple | None:
    """``(g, c)`` when ``f = α·x^a·(1 + c·x^g)``, ``c > 0``, x variables only (``g`` sparse,
    ``((variable, entry), ...)``, first entry positive: a factor costs its size, never the
    dimension; turning ``g`` around turns ``c`` into ``1/c``); else None.

    >>> binomial_factor({(): 2, ((0, 1),): 3}, 1), binomial_factor({(): 1, ((0, 1),): -1}, 1)
    ((((0, 1),), Fraction(3, 2)), None)
    """
    if len(f) != 2 or any(v >= dim for m in f for v, _ in m):
        return None
    a, b = sorted(f, key=P.lex_key)           # b / a: its first entry positive
    return (P.mono_div(b, a), Fraction(f[b], f[a])) if (f[a] > 0) == (f[b] > 0) else None


def _sparse(g: tuple) -> tuple:
    """The sparse form ``((variable, entry), ...)`` of a dense direction.

    >>> _sparse((0, 1, -1))
    ((1, 1), (2, -1))
    """
    return tuple((v, x) for v, x in enumerate(g) if x)


def _options(step: dict, n: int, where: str) -> None:
    """The form of a line refutation's ``options`` and ``contraction_bounds``.

    >>> _options({"options": ["parity", "contraction"], "contraction_bounds": [3, None]}, 2, "s")
    >>> _options({"contraction_bounds": [3]}, 1, "s")
    Traceback (most recent call last):
    ...
    attnproof.checker.syntax.Reject: s: contraction_bounds needs the option contraction, which needs them
    """
    opts = step.get("options", [])
    if not isinstance(opts, list) or any(o not in LINE_OPTIONS for o in opts) or len(set(opts)) != len(opts):
        raise Reject(f"{where}: options must be distinct names among {', '.join(LINE_OPTIONS)}")
    if ("contraction_bounds" in step) != ("contraction" in opts):
        raise Reject(f"{where}: contraction_bounds needs the option contraction, which needs them")
    if "contraction" in opts:
        for b in _sized(step["contraction_bounds"], f"{where}: contraction_bounds lists one entry per direction", n, n):
            if b is not None:
                integer(b, f"{where}: contraction_bounds", 2)


def rule_line_refutation(st: State, step: dict, where: str) -> None:
    """Every fusion has more than ``atoms`` atoms (SMT; trust line-refuted until replayed).

    Verified here (docs/certificates.md §6.11): no biases; the certificate's problem; each
    ``(g, c, m)`` a bound factor ``α·x^a·(1 + c·x^g)`` of multiplicity at least ``m``, the
    pairs ``(g, c)`` strictly increasing; each Newton factor ``[i, m]`` another bound
    factor, ``m`` at most its multiplicity.  Then ``Π (1 + c·x^g)^m · Π f_i^{m_i}``
    divides ``Q``, hence every fusion's denominator (Theorem 2; docs/lines.md §7).
    ``options``, when given, are distinct names of encoding options; ``contraction_bounds``
    (only with option ``contraction``) lists per direction an integer of at least 2 or
    null.  Those numbers are what the query assumes; a replay derives them again from
    the problem (THEORY Lemma 13.2), this rule reads only their form.
    """
    fields(step, {"rule", "atoms", "directions", "problem_sha256", "solvers", "smtlib_sha256", "smtlib"},
           {"coefficients", "multiplicities", "newton_factors", "options", "contraction_bounds"}, where)
    if st.upper is None:
        raise Reject(f"{where}: line refutations come after the bounds")
    if st.pb.has_z:
        raise Reject(f"{where}: line refutations need a problem without biases")
    k = integer(step["atoms"], f"{where}: atoms", 1)
    if hexdigest(step["problem_sha256"], f"{where}: problem_sha256") != st.problem_sha256:
        raise Reject(f"{where}: problem_sha256 is not the certificate's problem")
    dirs = _sized(step["directions"], f"{where}: directions must be a non-empty list of at most "
                 f"{MAX_LINE_DIRECTIONS} vectors", 1, MAX_LINE_DIRECTIONS)
    d = len(dirs)
    per = f"{where}: coefficients and multiplicities list one entry per direction"
    coefs, mults = (_sized(step.get(x, [1] * d), per, d, d) for x in ("coefficients", "multiplicities"))
    _options(step, d, where)
    gs = [_direction(g, st.pb.dim, f"{where}: directions") for g in dirs]
    cs = [rational(c, f"{where}: coefficients") for c in coefs]
    ms = [integer(m, f"{where}: multiplicities", 1) for m in mults]
    if min(cs) <= 0 or any(not p < q for p, q in zip(zip(gs, cs), zip(gs[1:], cs[1:]))):
        raise Reject(f"{where}: coefficients must be positive, the (direction, coefficient) pairs strictly increasing")
    n = len(st.factors)
    st.budget.charge(sum(P.size(f) for f, _ in st.factors) + len(gs) * st.pb.dim, "line refutation factors")
    bound = {binomial_factor(f, st.pb.dim): i for i, (f, _) in enumerate(st.factors)}
    uses = []                                 # (bound factor, multiplicity claimed)
    for g, c, m in zip(gs, cs, ms):
        if (key := (_sparse(g), Fraction(c))) not in bound:
            raise Reject(f"{where}: direction {list(g)} with coefficient {c} is not that of a "
                         f"bound factor x^a(1 + c·x^g) of the reduced denominator")
        uses.append((bound[key], m))
    nf = f"{where}: newton_factors must be a list of [bound factor, multiplicity]"
    others = [_sized(x, nf, 2, 2) for x in _sized(step.get("newton_factors", []), nf, 0, n)]
    idx = [integer(x[0], f"{where}: newton_factors", 0) for x in others]
    listed = {i for i, _ in uses}
    if any(not a < b for a, b in zip(idx, idx[1:])) or any(i >= n or i in listed for i in idx):
        raise Reject(f"{where}: newton_factors must name distinct bound factors, in "
                     f"increasing order, none of them a binomial listed above")
    uses += [(i, integer(x[1], f"{where}: newton_factors", 1)) for i, x in zip(idx, others)]
    for i, m in uses:
        if m > st.factors[i][1]:
            raise Reject(f"{where}: bound factor {i} divides the reduced denominator {st.factors[i][1]} times, not {m}")
    _smt_text(step, where)
    st.line_lower = max(st.line_lower, k + 1)
    st.line_steps.append(st.step_index)
    st.weaken("line-refuted")


# rule name -> (function, phase): both after the bounds
RULES = {
    "window_refutation": (rule_window_refutation, 3),
    "line_refutation": (rule_line_refutation, 3),
}
