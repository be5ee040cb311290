"""The numerical checks a certificate admits (``attnproof numcheck CERT [FUSED]``).

Evidence, not proof: the explicit fusion of a certificate (or a fused head given
apart, or the product fusion when it is small) is compared with the embedded problem
at random queries in Arb balls (:func:`attnproof.numeric.ball_compare`); a
certificate with no head to compare has its problem evaluated by two independent
evaluators.  A ``refuted`` verdict is rigorous (the balls are disjoint at a query);
the certificate's proof is checked by ``attnproof check``.
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import InputError
from ..fusion import product_fusion, product_size_bound
from ..heads import Head, MultiHead
from ..io import PROBLEM_FORMAT, PROBLEM_VERSION, problem_from_dict, problem_sha256
from .compare import BallCheck, ball_compare, cross_check, used_coordinates
from .queries import random_queries

__all__ = ["certificate_parts", "numcheck_certificate", "PRODUCT_CHECK_LIMIT"]

PRODUCT_CHECK_LIMIT = 4096


def certificate_parts(doc: dict) -> tuple[MultiHead, Head | None, dict, list]:
    """``(problem, explicit head or None, claims, rules)`` of a certificate document."""
    try:
        M = problem_from_dict(doc.get("problem"))
    except InputError as e:
        raise InputError(f"certificate: embedded problem: {e}") from None
    steps = doc.get("steps")
    if not isinstance(steps, list):
        raise InputError("certificate: 'steps' must be a list")
    heads = [s.get("head") for s in steps if isinstance(s, dict) and s.get("rule") == "explicit_fusion"]
    if len(heads) > 1:
        raise InputError("certificate: more than one explicit_fusion step")
    head = None
    if heads:
        try:
            head = problem_from_dict({"format": PROBLEM_FORMAT, "version": PROBLEM_VERSION,
                                      "dim": M.dim, "heads": [heads[0]]}).heads[0]
        except InputError as e:
            raise InputError(f"certificate: explicit_fusion head: {e}") from None
    rules: list = [s.get("rule") for s in steps if isinstance(s, dict)]
    got = doc.get("claims")
    claims: dict = got if isinstance(got, dict) else {}
    return M, head, claims, rules


def numcheck_certificate(doc: dict, fused: Head | None = None, fused_name: str | None = None, *,
                         digits: int, seed: int, samples: int, max_digits: int,
                         progress: Callable[[int, int], Any] | None = None
                         ) -> tuple[dict[str, Any], BallCheck | None]:
    """``(report, ball check or None)``: the checks of the certificate document ``doc``
    (``report``: ``claims``, ``checks`` as ``{"check", "ok"}`` with ``ok`` None for a
    check not made, ``verdict``, ``rigorous``, ``failed_checks``, ``note``).

    ``fused``: a fused head to compare instead of the certificate's own (named
    ``fused_name``).
    """
    M, head, claims, rules = certificate_parts(doc)
    checks: list[dict[str, Any]] = []
    binding = doc.get("problem_sha256") == problem_sha256(M)
    checks.append({"check": "problem_sha256 matches the embedded problem", "ok": binding})
    source = None
    if fused is not None:
        head, source = fused, fused_name
    elif head is not None:
        source = "explicit_fusion step"
    elif "product_fusion" in rules and product_size_bound(M) <= PRODUCT_CHECK_LIMIT:
        head, source = product_fusion(M).to_head(), "product_fusion rule (instantiated)"
    res = None
    if head is not None:
        res = ball_compare(M, head, digits=digits, seed=seed, samples=samples,
                           max_digits=max_digits, progress=progress)
        checks.append({"check": f"{source} equals the problem at {res.checked} queries (Arb balls)",
                       "ok": res.verdict == "consistent", "verdict": res.verdict})
        if source == "explicit_fusion step":
            keys = head.distinct_keys
            up = claims.get("upper_bound")
            checks.append({"check": f"explicit head has {keys} distinct keys; claimed upper bound {up}",
                           "ok": str(up) == str(keys)})
        verdict = res.verdict
    else:
        qs = random_queries(M.dim, samples, seed, coordinates=used_coordinates(M))
        n = cross_check(M, qs, digits)
        checks.append({"check": f"the embedded problem evaluates consistently with two independent "
                                f"evaluators (Arb balls, mpmath) at {n} queries", "ok": True})
        if "product_fusion" in rules:
            what = (f"the upper bound rests on the named rule product_fusion (up to "
                    f"{product_size_bound(M)} atoms, over {PRODUCT_CHECK_LIMIT}: not built here)")
        else:
            what = "the certificate has no upper-bound step"
        checks.append({"check": f"no explicit fusion to compare: {what}", "ok": None})
        verdict = "consistent"
    if claims.get("window_refutations"):
        checks.append({"check": "window refutations are SMT results: not checked numerically", "ok": None})
    report: dict[str, Any] = {"claims": claims, "checks": checks, "verdict": verdict,
                              "rigorous": verdict == "refuted",
                              "failed_checks": sum(1 for c in checks if c["ok"] is False),
                              "note": "numerical checks only; the certificate's proof is checked by "
                                      "'attnproof check'"}
    return report, res
