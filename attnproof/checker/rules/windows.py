"""The ``window_refutation`` rule (§6.6 of docs/certificates.md; THEORY §6, trust ``window-refuted``)."""

from __future__ import annotations

import hashlib

from ..syntax import Reject, fields, hexdigest, integer
from .state import State


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
    sv = step["solvers"]
    fields(sv, {"z3", "cvc5"}, set(), f"{where}: solvers")
    if not all(isinstance(sv[s], str) and sv[s] for s in ("z3", "cvc5")):
        raise Reject(f"{where}: solvers must name the z3 and cvc5 versions")
    digest = hexdigest(step["smtlib_sha256"], f"{where}: smtlib_sha256")
    if not isinstance(step["smtlib"], str):
        raise Reject(f"{where}: smtlib must be a string")
    if hashlib.sha256(step["smtlib"].encode("utf-8")).hexdigest() != digest:
        raise Reject(f"{where}: the SMT-LIB2 text does not match smtlib_sha256")
    st.windows.append({"atoms": k, "window": win})
    st.window_steps.append(st.step_index)
    st.weaken("window-refuted")




# rule name -> (function, phase)
RULES = {
    "window_refutation": (rule_window_refutation, 3),
}
