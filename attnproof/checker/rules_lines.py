"""The ``line_refutation`` rule (THEORY Lemma 12.1, Cor 12.2; trust ``line-refuted``).

A step names primitive directions ``g_1..g_r`` and a count ``k``, and carries
the SMT-LIB2 text of "is there a set of at most ``k`` lattice points with
positive weights whose alternating sum vanishes on every ``g_i``-line?".  The
checker verifies what it can with standard-library arithmetic:

* the problem has no biases, and ``problem_sha256`` is the certificate's;
* every ``g_i`` is a primitive integer vector with first non-zero entry
  positive, the list strictly increasing (so no two are parallel);
* every ``g_i`` is the direction of a factor ``x^a·(1 + x^{g_i})`` — two terms,
  both coefficients 1 — that an earlier step bound as an irreducible factor of
  the reduced denominator ``Q``.  Pairwise non-associate irreducibles dividing
  ``Q`` make ``R = Π (1 + x^{g_i})`` a divisor of ``Q``, hence of every fusion's
  denominator ``D`` (Theorem 2), and by Lemma 12.1 ``supp D`` is such a set;
* the SMT-LIB2 text matches its hash and both solvers are named.

It cannot re-prove the ``unsat`` answer itself: the lower bound ``k + 1`` is
reported as resting on the step (verdict *inconclusive*) until
``attnproof check --replay`` re-encodes the query from the problem and re-runs
z3 and cvc5.

>>> _direction([0, 1, -1], 3, "d")
(0, 1, -1)
>>> _direction([0, -1, 1], 3, "d")
Traceback (most recent call last):
...
attnproof.checker.syntax.Reject: d: a direction's first non-zero entry must be positive
"""

from __future__ import annotations

import hashlib
from math import gcd

from .syntax import Reject, fields, hexdigest, integer

__all__ = ["LINE_RULES", "rule_line_refutation"]

MAX_LINE_DIRECTIONS = 64


def _direction(g, dim: int, where: str) -> tuple:
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


def _binomial_direction(f: dict, dim: int):
    """``g`` when ``f = x^a (1 + x^g)`` with both coefficients 1 (x variables only), else None."""
    if len(f) != 2 or any(c != 1 for c in f.values()):
        return None
    (m1, m2) = list(f)
    if any(v >= dim for v, _ in m1 + m2):
        return None
    a = [0] * dim
    b = [0] * dim
    for v, e in m1:
        a[v] = e
    for v, e in m2:
        b[v] = e
    g = [y - x for x, y in zip(a, b)]
    if not any(g):
        return None
    if next(x for x in g if x) < 0:
        g = [-x for x in g]
    return tuple(g)


def rule_line_refutation(st, step: dict, where: str) -> None:
    """Every fusion has more than ``atoms`` atoms (SMT; trust line-refuted, replay to confirm)."""
    fields(step, {"rule", "atoms", "directions", "problem_sha256", "solvers", "smtlib_sha256",
                  "smtlib"}, set(), where)
    if st.upper is None:
        raise Reject(f"{where}: line refutations come after the bounds")
    pb = st.pb
    if pb.has_z:
        raise Reject(f"{where}: line refutations need a problem without biases")
    k = integer(step["atoms"], f"{where}: atoms", 1)
    sha = hexdigest(step["problem_sha256"], f"{where}: problem_sha256")
    if sha != st.problem_sha256:
        raise Reject(f"{where}: problem_sha256 is not the certificate's problem")
    dirs = step["directions"]
    if not isinstance(dirs, list) or not dirs or len(dirs) > MAX_LINE_DIRECTIONS:
        raise Reject(f"{where}: directions must be a non-empty list of at most "
                     f"{MAX_LINE_DIRECTIONS} vectors")
    gs = [_direction(g, pb.dim, f"{where}: directions") for g in dirs]
    if any(not a < b for a, b in zip(gs, gs[1:])):
        raise Reject(f"{where}: directions must be strictly increasing")
    bound = set()
    for f, _ in st.factors:
        st.budget.charge(len(f), "line refutation factors")
        g = _binomial_direction(f, pb.dim)
        if g is not None:
            bound.add(g)
    for g in gs:
        if g not in bound:
            raise Reject(f"{where}: direction {list(g)} is not that of a bound factor "
                         f"x^a(1 + x^g) of the reduced denominator")
    sv = step["solvers"]
    fields(sv, {"z3", "cvc5"}, set(), f"{where}: solvers")
    if not all(isinstance(sv[s], str) and sv[s] for s in ("z3", "cvc5")):
        raise Reject(f"{where}: solvers must name the z3 and cvc5 versions")
    digest = hexdigest(step["smtlib_sha256"], f"{where}: smtlib_sha256")
    if not isinstance(step["smtlib"], str):
        raise Reject(f"{where}: smtlib must be a string")
    if hashlib.sha256(step["smtlib"].encode("utf-8")).hexdigest() != digest:
        raise Reject(f"{where}: the SMT-LIB2 text does not match smtlib_sha256")
    lines = st.__dict__.setdefault("lines", {"lower": 0, "steps": []})
    lines["lower"] = max(lines["lower"], k + 1)
    lines["steps"].append(st.step_index)
    st.weaken("line-refuted")


# rule name -> (function, phase): after the bounds, with the window refutations
LINE_RULES = {"line_refutation": (rule_line_refutation, 3)}
