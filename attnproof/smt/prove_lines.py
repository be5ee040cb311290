"""The line query as a step of ``prove`` (THEORY §12): when it applies, and adding it.

``prove`` (the command and :func:`attnproof.prove`) asks the windowless line
query when the exact steps leave a gap and the certificate binds a binomial
factor ``1 + c·x^g``.  Whether it applies is read from the certificate alone
(:func:`line_obstacle`: no factorization, no solver started); the query itself
ascends ``k`` from the exact lower bound within a time budget
(:func:`add_line_refutations`), so a timeout still leaves the best bound reached.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..errors import InputError
from .solvers import solver_available

DEFAULT_LINES_TIMEOUT = 120.0    # seconds for the line queries of one prove, in all (C_4: 15-90 s)
MAX_AUTO_LINE_POINTS = 64        # above: a line query only when forced (k^2 terms per direction)

__all__ = ["DEFAULT_LINES_TIMEOUT", "MAX_AUTO_LINE_POINTS", "line_binomials", "line_obstacle",
           "add_line_refutations"]


def line_binomials(doc: dict) -> list[tuple[int, ...]]:
    """The directions ``g`` of the factors ``x^a·(1 + c·x^g)`` (``c > 0``) a certificate binds
    (``irreducible_factor`` steps; the certificate's sparse polynomial form), read
    from the document alone: no factorization, no solver.

    >>> line_binomials({"problem": {"dim": 2}, "steps": [
    ...     {"rule": "irreducible_factor", "poly": [[1, [[0, 1]]], [1, [[1, 1]]]]},
    ...     {"rule": "irreducible_factor", "poly": [[1, []], [2, [[0, 1]]]]},
    ...     {"rule": "irreducible_factor", "poly": [[-1, []], [1, [[1, 1]]]]}]})
    [(1, -1), (1, 0)]
    """
    dim = doc["problem"]["dim"]
    out = []
    for step in doc["steps"]:
        if step.get("rule") != "irreducible_factor":
            continue
        terms = step["poly"]
        if len(terms) != 2 or (terms[0][0] > 0) != (terms[1][0] > 0):
            continue
        (a, b) = ([0] * dim, [0] * dim)
        try:
            for vec, (_, mono) in zip((a, b), terms):
                for v, e in mono:
                    vec[v] = e
        except IndexError:                         # the bias variable: not a line factor
            continue
        g = [y - x for x, y in zip(a, b)]
        if any(g):
            out.append(tuple(-x for x in g) if next(x for x in g if x) < 0 else tuple(g))
    return out


def line_obstacle(M, cert, forced: bool, max_points: int = MAX_AUTO_LINE_POINTS) -> str | None:
    """Why the line query is not asked for this certificate's gap, or None when it is.

    Cheap: read from the certificate, no factorization and no solver imported.
    ``forced`` (``prove --lines``, ``lines=True``): an obstacle that the user cannot have meant is an
    :class:`~attnproof.errors.InputError`; the size limit does not apply.
    """
    why: str | None
    if M.has_bias:
        why = "problems with biases have exp-rational coefficients, outside the SMT search"
    elif not line_binomials(cert.doc):
        why = "the reduced denominator has no factor 1 + c·x^g the certificate binds"
    elif not forced and cert.lower.value > max_points:
        return (f"the lower bound {cert.lower.value} exceeds {max_points} points "
                f"('prove --lines' or lines=True asks it anyway)")
    else:
        missing = [n for n in ("z3", "cvc5") if not solver_available(n)]
        why = (f"{' and '.join(missing)} not installed (pip install z3-solver cvc5)"
               if missing else None)
    if why is not None and forced:
        raise InputError(f"the line query was asked for (--lines) but does not apply: {why}")
    return why


def add_line_refutations(M, cert, timeout: float, max_atoms: int | None = None,
                         on_step: Optional[Callable] = None,
                         on_solvers: Optional[Callable[[str], None]] = None):
    """The certificate document with the line refutations of THEORY §12 added, and the result.

    Ascends ``k`` from the certificate's lower bound within ``timeout`` seconds in
    all: every ``unsat`` raises the bound by one.  A fusion found smaller than the
    certificate's upper bound is embedded.  When no query refutes anything and no
    smaller fusion is found, the document is None: the certificate stands as it is.
    ``on_step(result)`` after each query, ``on_solvers(text)`` on each solver state.
    """
    from .certify import line_certificate
    from .line_query import line_minimize

    mr = line_minimize(M, timeout=timeout, budget=timeout, max_atoms=max_atoms, on_step=on_step,
                       lower=cert.lower.value, strategy="ascend", on_solvers=on_solvers)
    fusion = mr.best if mr.best.atoms < cert.upper else None
    if fusion is None and mr.refutation is None:
        return None, mr
    return line_certificate(M, fusion, mr.refutation, cert=cert), mr
