"""The SMT refutation rules: ``window_refutation`` (§6.6 of docs/certificates.md; THEORY §6,
trust ``window-refuted``) and ``line_refutation`` (§6.11; THEORY Lemma 12.1, Cor 12.2, trust
``line-refuted``).  Neither can be re-proven here: the checker verifies what it can (the
SMT-LIB2 text against its hash, the solvers named, for lines the factors the query is about)
and ``attnproof check --replay`` re-encodes and re-solves.
"""

from __future__ import annotations

import hashlib
from math import gcd

from .. import poly as P
from ..syntax import Reject, fields, hexdigest, integer
from .state import State

MAX_LINE_DIRECTIONS = 64


def _window(w, where: str):
    kind = w.get("kind") if isinstance(w, dict) else None
    if kind == "box":
        fields(w, {"kind", "radius", "coordinates"}, set(), where)
        integer(w["radius"], f"{where}: radius", 0)
        if not isinstance(w["coordinates"], list):
            raise Reject(f"{where}: coordinates must be a list of integers")
        for x in w["coordinates"]:
            integer(x, f"{where}: coordinates", 0)
    elif kind == "points":
        fields(w, {"kind", "points"}, set(), where)
        if not isinstance(w["points"], list) or not w["points"]:
            raise Reject(f"{where}: points must be a non-empty list")
        for p in w["points"]:
            if not isinstance(p, list):
                raise Reject(f"{where}: each point is a list of integers")
            for x in p:
                integer(x, f"{where}: point")
    else:
        raise Reject(f"{where}: unknown window kind {kind!r}")
    return w


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




def _smt_text(step: dict, where: str) -> None:
    """Both solvers named, and the SMT-LIB2 text matches its SHA-256."""
    sv = step["solvers"]
    fields(sv, {"z3", "cvc5"}, set(), f"{where}: solvers")
    if not all(isinstance(sv[s], str) and sv[s] for s in ("z3", "cvc5")):
        raise Reject(f"{where}: solvers must name the z3 and cvc5 versions")
    digest = hexdigest(step["smtlib_sha256"], f"{where}: smtlib_sha256")
    if not isinstance(step["smtlib"], str):
        raise Reject(f"{where}: smtlib must be a string")
    if hashlib.sha256(step["smtlib"].encode("utf-8")).hexdigest() != digest:
        raise Reject(f"{where}: the SMT-LIB2 text does not match smtlib_sha256")


def _direction(g, dim: int, where: str) -> tuple:
    """A primitive integer vector of length ``dim`` whose first non-zero entry is positive.

    >>> _direction([0, 1, -1], 3, "d")
    (0, 1, -1)
    >>> _direction([0, -2, 2], 3, "d")
    Traceback (most recent call last):
    ...
    attnproof.checker.syntax.Reject: d: a direction must be a primitive integer vector
    """
    if not isinstance(g, list) or len(g) != dim:
        raise Reject(f"{where}: a direction is a list of {dim} integers")
    v = tuple(integer(x, where) for x in g)
    c = 0
    for x in v:
        c = gcd(c, x)
    if c != 1:
        raise Reject(f"{where}: a direction must be a primitive integer vector")
    if next(x for x in v if x) < 0:
        raise Reject(f"{where}: a direction's first non-zero entry must be positive")
    return v


def binomial_direction(f: dict, dim: int) -> tuple | None:
    """``g`` when ``f = x^a·(1 + x^g)``, both coefficients 1, x variables only; else None.

    ``g`` is sparse, ``((variable, entry), ...)`` with non-zero entries and the first one
    positive: a factor costs its size, never the dimension (a dense ``g`` per factor
    made 5,000 factors in dimension 100,000 take 4 GB).

    >>> binomial_direction({((0, 1),): 1, ((1, 1),): 1}, 2), binomial_direction({(): 1, ((0, 1),): 2}, 2)
    (((0, 1), (1, -1)), None)
    """
    if len(f) != 2 or any(c != 1 for c in f.values()):
        return None
    a, b = f
    if any(v >= dim for m in (a, b) for v, _ in m):
        return None
    g = P.mono_div(b, a)
    if g and g[0][1] < 0:
        g = P.mono_inv(g)
    return g


def _sparse(g: tuple) -> tuple:
    """The sparse form ``((variable, entry), ...)`` of a dense direction.

    >>> _sparse((0, 1, -1))
    ((1, 1), (2, -1))
    """
    return tuple((v, x) for v, x in enumerate(g) if x)


def rule_line_refutation(st: State, step: dict, where: str) -> None:
    """Every fusion has more than ``atoms`` atoms (SMT; trust line-refuted until replayed).

    Verified here: no biases; ``problem_sha256`` is the certificate's; the
    directions are primitive and strictly increasing (so pairwise non-parallel),
    each that of a bound factor ``x^a·(1 + x^g)``.  Non-associate irreducible
    factors of ``Q`` make ``R = Π (1 + x^{g_i})`` divide ``Q``, hence every fusion's
    denominator (Theorem 2), whose support is then a set the query is about
    (Lemma 12.1).  The ``unsat`` itself waits for ``check --replay``.
    """
    fields(step, {"rule", "atoms", "directions", "problem_sha256", "solvers", "smtlib_sha256",
                  "smtlib"}, set(), where)
    if st.upper is None:
        raise Reject(f"{where}: line refutations come after the bounds")
    if st.pb.has_z:
        raise Reject(f"{where}: line refutations need a problem without biases")
    k = integer(step["atoms"], f"{where}: atoms", 1)
    if hexdigest(step["problem_sha256"], f"{where}: problem_sha256") != st.problem_sha256:
        raise Reject(f"{where}: problem_sha256 is not the certificate's problem")
    dirs = step["directions"]
    if not isinstance(dirs, list) or not 0 < len(dirs) <= MAX_LINE_DIRECTIONS:
        raise Reject(f"{where}: directions must be a non-empty list of at most "
                     f"{MAX_LINE_DIRECTIONS} vectors")
    gs = [_direction(g, st.pb.dim, f"{where}: directions") for g in dirs]
    if any(not a < b for a, b in zip(gs, gs[1:])):
        raise Reject(f"{where}: directions must be strictly increasing")
    st.budget.charge(sum(P.size(f) for f, _ in st.factors) + len(gs) * st.pb.dim,
                     "line refutation factors")
    bound = {binomial_direction(f, st.pb.dim) for f, _ in st.factors}
    for g in gs:
        if _sparse(g) not in bound:
            raise Reject(f"{where}: direction {list(g)} is not that of a bound factor "
                         f"x^a(1 + x^g) of the reduced denominator")
    _smt_text(step, where)
    st.line_lower = max(st.line_lower, k + 1)
    st.line_steps.append(st.step_index)
    st.weaken("line-refuted")


# rule name -> (function, phase): both after the bounds
RULES = {
    "window_refutation": (rule_window_refutation, 3),
    "line_refutation": (rule_line_refutation, 3),
}
