"""Search results as certificate material (format: docs/certificates.md).

* :func:`refutation_step` turns an ``unsat`` result into a ``window_refutation``
  step (window, both solver versions, the SMT-LIB2 text and its SHA-256);
  :func:`refutation_claim` is the matching ``claims.window_refutations`` entry.
* :func:`search_certificate` builds a whole certificate with
  :func:`attnproof.certificate.build.build_certificate` (lower bound, upper
  bound) and, when given, a verified search witness as the ``explicit_fusion``
  upper bound and the refutations as extra steps (trust ``window-refuted``).

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.smt.query import search_fusion
>>> res = search_fusion(sigmoid_sum(2), 3, 1, timeout=60)
>>> step = refutation_step(res)
>>> step["rule"], step["atoms"], step["window"], sorted(step["solvers"])
('window_refutation', 3, {'kind': 'box', 'radius': 1, 'coordinates': [0, 1]}, ['cvc5', 'z3'])
"""

from __future__ import annotations

from typing import Any, Sequence

from ..certificate.steps.fusion import explicit_fusion_step as _explicit_fusion_step
from ..certificate.steps.windows import (line_refutation_step as _line_step,
                                         window_refutation_claim, window_refutation_step)
from ..errors import CertificateError
from ..fusion import Fusion
from ..heads import MultiHead

__all__ = ["refutation_step", "refutation_claim", "search_certificate", "explicit_fusion_step",
           "line_refutation_step", "line_certificate", "TRUST_ORDER"]

TRUST_ORDER = ("exact", "exact-modulo-flint", "window-refuted", "line-refuted", "numeric", "unknown")


def refutation_step(res) -> dict[str, Any]:
    """The ``window_refutation`` step of an ``unsat`` search result (both solvers agreed).

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.smt.query import search_fusion
    >>> refutation_step(search_fusion(sigmoid_sum(1), 2, 0, timeout=60))
    Traceback (most recent call last):
    ...
    attnproof.errors.CertificateError: only a refutation can be certified, this query answered sat
    """
    if res.result != "unsat":
        raise CertificateError(f"only a refutation can be certified, this query answered {res.result}")
    runs = res.solvers
    if set(runs) != {"z3", "cvc5"} or any(runs[s].result != "unsat" for s in ("z3", "cvc5")):
        raise CertificateError("a window refutation needs unsat from both z3 and cvc5")
    return window_refutation_step(res.target, res.window.to_dict(),
                                  {"z3": runs["z3"].version, "cvc5": runs["cvc5"].version},
                                  res.encoding.smtlib, res.encoding.sha256)


def refutation_claim(res) -> dict[str, Any]:
    """The ``claims.window_refutations`` entry of an ``unsat`` result.

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.smt.query import search_fusion
    >>> refutation_claim(search_fusion(sigmoid_sum(1), 1, 0, timeout=60))
    {'atoms': 1, 'window': {'kind': 'box', 'radius': 0, 'coordinates': [0]}}
    """
    return window_refutation_claim(refutation_step(res))


def explicit_fusion_step(f: Fusion) -> dict[str, Any]:
    """An ``explicit_fusion`` step for a fused head (atoms sorted by lattice exponent).

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.fusion import fuse
    >>> len(explicit_fusion_step(fuse(sigmoid_sum(2)))["head"]["atoms"])
    4
    """
    lat = f.lattice
    return _explicit_fusion_step(f.to_problem_dict(name=None)["heads"][0],
                                 [lat.exponent(a) for a in f.to_head().atoms])


def _weakest(*levels: str) -> str:
    return max(levels, key=TRUST_ORDER.index)


def search_certificate(M: MultiHead, fusion: Fusion | None = None,
                       refutations: Sequence = ()) -> dict[str, Any]:
    """A certificate document: proven bounds, the search witness, the windowed refutations.

    The witness replaces the certificate's own upper bound when it has fewer
    atoms.  Needs :mod:`attnproof.certificate`.

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.smt.query import search_fusion
    >>> res = search_fusion(sigmoid_sum(2), 3, 1, timeout=60)
    >>> doc = search_certificate(sigmoid_sum(2), refutations=[res])
    >>> doc["trust"], doc["claims"]["window_refutations"][0]["atoms"]
    ('window-refuted', 3)
    """
    try:
        from ..certificate.build import build_certificate, encode_count
    except ImportError as e:  # pragma: no cover - the certificate package is part of attnproof
        raise CertificateError(f"the certificate module is not available ({e})") from None
    cert = build_certificate(M)
    doc = cert.doc
    steps = list(doc["steps"])
    claims = dict(doc["claims"])
    if fusion is not None and fusion.atoms < cert.upper:
        if fusion.multihead != M:
            raise CertificateError("the witness fuses a different problem")
        # in the place of the upper-bound step (a graph_minors step may follow it)
        steps = [explicit_fusion_step(fusion) if s["rule"] in ("explicit_fusion", "product_fusion")
                 else s for s in steps]
        upper = fusion.atoms
        claims["upper_bound"] = encode_count(upper)
        claims["minimum"] = encode_count(upper) if cert.lower.value == upper else None
    trust = doc["trust"]
    wins = []
    for res in refutations:
        steps.append(refutation_step(res))
        wins.append(refutation_claim(res))
        trust = _weakest(trust, "window-refuted")
    claims["window_refutations"] = wins
    doc = dict(doc, steps=steps, claims=claims, trust=trust)
    return doc


def line_refutation_step(res, problem_sha256: str,
                         factor_polys: Sequence[dict] | None = None) -> dict[str, Any]:
    """The ``line_refutation`` step of an ``unsat`` line query (both solvers agreed).

    >>> from attnproof.families import graph_sum, named_graph
    >>> from attnproof.smt.line_query import line_query
    >>> step = line_refutation_step(line_query(graph_sum(named_graph("complete", 3)), 6, 60), "0" * 64)
    >>> step["rule"], step["atoms"], step["directions"]
    ('line_refutation', 6, [[0, 1, -1], [1, -1, 0], [1, 0, -1]])
    """
    if res.result != "unsat":
        raise CertificateError(f"only a refutation can be certified, this query answered {res.result}")
    runs = res.solvers
    if set(runs) != {"z3", "cvc5"} or any(runs[s].result != "unsat" for s in ("z3", "cvc5")):
        raise CertificateError("a line refutation needs unsat from both z3 and cvc5")
    enc = res.encoding
    facs = enc.factors
    newton = None
    if enc.others:
        if factor_polys is None:
            raise CertificateError("a line refutation with Newton factors needs the certificate's "
                                   "bound factors")
        newton = [[_bound_index(o, factor_polys), o.multiplicity] for o in enc.others]
        newton.sort()
    return _line_step(res.target, enc.directions, problem_sha256,
                      {"z3": runs["z3"].version, "cvc5": runs["cvc5"].version},
                      enc.smtlib, enc.sha256,
                      coefficients=[_rational_json(f.coefficient) for f in facs] if facs else None,
                      multiplicities=[f.multiplicity for f in facs] if facs else None,
                      newton_factors=newton)


def _rational_json(c) -> int | str:
    """A canonical rational: an integer, or ``"p/q"``.

    >>> from fractions import Fraction
    >>> _rational_json(Fraction(3)), _rational_json(Fraction(1, 2))
    (3, '1/2')
    """
    return int(c) if c.denominator == 1 else f"{c.numerator}/{c.denominator}"


def _normal_terms(terms: dict) -> dict:
    """Exponents shifted to non-negative minima, coefficients divided by their gcd, the
    coefficient of the largest exponent positive: one representative of ``f``'s associates."""
    from math import gcd

    n = len(next(iter(terms)))
    low = [min(e[j] for e in terms) for j in range(n)]
    g = 0
    for c in terms.values():
        g = gcd(g, c)
    sign = 1 if terms[max(terms)] > 0 else -1
    return {tuple(a - b for a, b in zip(e, low)): sign * c // g for e, c in terms.items()}


def _bound_index(other, factor_polys: Sequence[dict]) -> int:
    """The position of a Newton factor among the certificate's bound factors."""
    want = _normal_terms(dict(zip(other.support, other.coefficients)))
    for i, f in enumerate(factor_polys):
        if _normal_terms(f) == want:
            return i
    raise CertificateError("a Newton factor of the line refutation is not a factor the "
                           "certificate binds")


def bound_factor_terms(doc: dict) -> list[dict]:
    """The bound factors of a certificate (``irreducible_factor`` steps, in order), as
    exponent tuple -> coefficient (x variables only)."""
    dim = doc["problem"]["dim"]
    out = []
    for step in doc["steps"]:
        if step.get("rule") != "irreducible_factor":
            continue
        terms = {}
        for coef, mono in step["poly"]:
            e = [0] * (dim + 1)
            for v, x in mono:
                e[v] = x
            terms[tuple(e[:dim]) if e[dim] == 0 else tuple(e)] = coef
        out.append(terms)
    return out


def line_certificate(M: MultiHead, fusion: Fusion | None = None, refutation=None, cert=None,
                     **build_options) -> dict[str, Any]:
    """A certificate whose lower bound is raised by a line refutation (trust ``line-refuted``).

    The directions of the refutation must be those of factors the certificate
    binds (``irreducible_factor`` steps); the checker verifies it.  ``cert``: a
    certificate :func:`attnproof.certificate.build.build_certificate` already built
    for ``M`` (else it is built with ``build_options``).

    >>> from attnproof.families import graph_sum, named_graph
    >>> from attnproof.smt.line_query import line_minimize
    >>> M = graph_sum(named_graph("complete", 3))
    >>> mr = line_minimize(M, timeout=60)
    >>> doc = line_certificate(M, mr.best, mr.refutation)
    >>> doc["trust"], doc["claims"]["lower_bound"], doc["claims"]["minimum"]
    ('line-refuted', 7, 7)
    """
    try:
        from ..certificate.build import build_certificate, encode_count
    except ImportError as e:  # pragma: no cover - the certificate package is part of attnproof
        raise CertificateError(f"the certificate module is not available ({e})") from None
    if cert is None:
        cert = build_certificate(M, **build_options)
    doc = cert.doc
    steps = list(doc["steps"])
    claims = dict(doc["claims"])
    upper = cert.upper
    if fusion is not None and fusion.atoms < upper:
        if fusion.multihead != M:
            raise CertificateError("the witness fuses a different problem")
        # in the place of the upper-bound step (a graph_minors step may follow it)
        steps = [explicit_fusion_step(fusion) if s["rule"] in ("explicit_fusion", "product_fusion")
                 else s for s in steps]
        upper = fusion.atoms
    lower = cert.lower.value
    trust = doc["trust"]
    if refutation is not None:
        steps.append(line_refutation_step(refutation, doc["problem_sha256"],
                                          bound_factor_terms(doc)))
        lower = max(lower, refutation.target + 1)
        trust = _weakest(trust, "line-refuted")
    claims["lower_bound"] = encode_count(lower)
    claims["upper_bound"] = encode_count(upper)
    claims["minimum"] = encode_count(upper) if lower == upper else None
    return dict(doc, steps=steps, claims=claims, trust=trust)
