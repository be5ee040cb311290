"""Search results as certificate material (format: docs/certificates.md).

* :func:`window_refutation` and :func:`line_refutation` turn an ``unsat`` answer
  (both solvers agreed) into the typed refutation the certificate's step writers
  take (:mod:`attnproof.certificate.steps.windows`).
* :func:`search_certificate` and :func:`line_certificate` give a whole certificate
  (:func:`attnproof.certificate.with_refutations`): the proven bounds, a verified
  search witness as the ``explicit_fusion`` upper bound when it has fewer atoms,
  and the refutations (trust ``window-refuted`` or ``line-refuted``).

>>> from attnproof.certificate.steps.windows import window_refutation_step
>>> from attnproof.families import sigmoid_sum
>>> from attnproof.smt.query import search_fusion
>>> step = window_refutation_step(window_refutation(search_fusion(sigmoid_sum(2), 3, 1, timeout=60)))
>>> step["rule"], step["atoms"], step["window"], sorted(step["solvers"])
('window_refutation', 3, {'kind': 'box', 'radius': 1, 'coordinates': [0, 1]}, ['cvc5', 'z3'])
"""

from __future__ import annotations

from typing import Any, Sequence

from ..certificate import (Certificate, LineRefutation, WindowRefutation, build_certificate,
                           with_refutations)
from ..errors import CertificateError
from ..fusion import Fusion
from ..heads import MultiHead

__all__ = ["window_refutation", "line_refutation", "search_certificate", "line_certificate"]


def _both_refuted(res: Any, what: str) -> dict[str, str]:
    """The solver versions of an answer both z3 and cvc5 gave ``unsat``."""
    if res.result != "unsat":
        raise CertificateError(f"only a refutation can be certified, this query answered {res.result}")
    runs = res.solvers
    if set(runs) != {"z3", "cvc5"} or any(runs[s].result != "unsat" for s in ("z3", "cvc5")):
        raise CertificateError(f"a {what} refutation needs unsat from both z3 and cvc5")
    return {"z3": runs["z3"].version, "cvc5": runs["cvc5"].version}


def window_refutation(res: Any) -> WindowRefutation:
    """The refutation of an ``unsat`` windowed search result (:func:`~attnproof.smt.search_fusion`).

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.smt.query import search_fusion
    >>> window_refutation(search_fusion(sigmoid_sum(1), 2, 0, timeout=60))
    Traceback (most recent call last):
    ...
    attnproof.errors.CertificateError: only a refutation can be certified, this query answered sat
    """
    solvers = _both_refuted(res, "window")
    return WindowRefutation(res.target, res.window.to_dict(), solvers, res.encoding.smtlib,
                            res.encoding.sha256)


def line_refutation(res: Any) -> LineRefutation:
    """The refutation of an ``unsat`` line query (:func:`~attnproof.smt.line_query.line_query`).

    >>> from attnproof.families import graph_sum, named_graph
    >>> from attnproof.smt.line_query import line_query
    >>> r = line_refutation(line_query(graph_sum(named_graph("complete", 3)), 6, 60))
    >>> r.atoms, r.directions
    (6, ((0, 1, -1), (1, -1, 0), (1, 0, -1)))
    """
    solvers = _both_refuted(res, "line")
    enc = res.encoding
    newton = tuple((_sparse_terms(o.support, o.coefficients), o.multiplicity)
                   for o in enc.others)
    return LineRefutation(res.target, tuple(tuple(g) for g in enc.directions), solvers,
                          enc.smtlib, enc.sha256,
                          coefficients=tuple(f.coefficient for f in enc.factors),
                          multiplicities=tuple(f.multiplicity for f in enc.factors),
                          newton_factors=newton, options=tuple(enc.options),
                          contraction_bounds=tuple(enc.contraction))


def _sparse_terms(support: Sequence[Sequence[int]], coefficients: Sequence[int]) -> dict:
    """A polynomial given by its exponent vectors, in the sparse form of the lower bound's factors.

    >>> _sparse_terms([(0, 0), (2, 1)], [1, 3])
    {(): 1, ((0, 2), (1, 1)): 3}
    """
    return {tuple((j, x) for j, x in enumerate(e) if x): c for e, c in zip(support, coefficients)}


def search_certificate(M: MultiHead, fusion: Fusion | None = None,
                       refutations: Sequence = ()) -> Certificate:
    """A certificate: proven bounds, the search witness, the windowed refutations.

    The witness replaces the certificate's own upper bound when it has fewer atoms.

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.smt.query import search_fusion
    >>> res = search_fusion(sigmoid_sum(2), 3, 1, timeout=60)
    >>> cert = search_certificate(sigmoid_sum(2), refutations=[res])
    >>> cert.trust, cert.doc["claims"]["window_refutations"][0]["atoms"]
    ('window-refuted', 3)
    """
    return with_refutations(M, build_certificate(M), fusion,
                            windows=[window_refutation(r) for r in refutations])


def line_certificate(M: MultiHead, fusion: Fusion | None = None, refutation: Any = None,
                     cert: Certificate | None = None, **build_options: Any) -> Certificate:
    """A certificate whose lower bound is raised by a line refutation (trust ``line-refuted``).

    The directions of the refutation must be those of factors the certificate
    binds (``irreducible_factor`` steps); the checker verifies it.  ``cert``: a
    certificate :func:`attnproof.certificate.build_certificate` already built
    for ``M`` (else it is built with ``build_options``).

    >>> from attnproof.families import graph_sum, named_graph
    >>> from attnproof.smt.line_query import line_minimize
    >>> M = graph_sum(named_graph("complete", 3))
    >>> mr = line_minimize(M, timeout=60)
    >>> cert = line_certificate(M, mr.best, mr.refutation)
    >>> cert.trust, cert.lower_bound, cert.minimum
    ('line-refuted', 7, 7)
    """
    if cert is None:
        cert = build_certificate(M, **build_options)
    return with_refutations(M, cert, fusion,
                            line=None if refutation is None else line_refutation(refutation))
