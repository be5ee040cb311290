"""The line query as a step of ``prove`` (THEORY §12): when it applies, and adding it.

``prove`` (the command and :func:`attnproof.prove`) asks the windowless line
query when the exact steps leave a gap and the certificate binds a binomial
factor ``1 + c·x^g``.  Whether it applies is read from the factors its lower
bound certified (:func:`line_obstacle`: no factorization, no solver started); the query itself
ascends ``k`` from the exact lower bound within a time budget
(:func:`add_line_refutations`), so a timeout still leaves the best bound reached.
"""

from __future__ import annotations

from typing import Callable, Mapping, Optional, Sequence

from ..errors import InputError
from .solvers import solver_available

DEFAULT_LINES_TIMEOUT = 120.0    # seconds for the line queries of one prove, in all (C_4: 15-90 s)
MAX_AUTO_LINE_POINTS = 64        # above: a line query only when forced (k^2 terms per direction)

__all__ = ["DEFAULT_LINES_TIMEOUT", "MAX_AUTO_LINE_POINTS", "line_binomials", "line_obstacle",
           "add_line_refutations"]


def line_binomials(factors: Sequence[Mapping[tuple, int]], dim: int) -> list[tuple[int, ...]]:
    """The directions ``g`` of the factors ``x^a·(1 + c·x^g)`` (``c > 0``) among a lower
    bound's certified factors (sparse polynomials: ``(variable, exponent)`` pairs ->
    coefficient; variable ``dim`` is the bias'): no factorization, no solver.

    >>> line_binomials([{((0, 1),): 1, ((1, 1),): 1}, {(): 1, ((0, 1),): 2},
    ...                 {(): -1, ((1, 1),): 1}, {(): 1, ((2, 1),): 1}], 2)
    [(1, -1), (1, 0)]
    """
    out = []
    for poly in factors:
        terms = sorted(poly.items())
        if len(terms) != 2 or (terms[0][1] > 0) != (terms[1][1] > 0):
            continue
        (a, b) = ([0] * dim, [0] * dim)
        try:
            for vec, (mono, _) in zip((a, b), terms):
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

    Cheap: read from the certificate's lower bound, no factorization and no solver imported.
    ``forced`` (``prove --lines``, ``lines=True``): an obstacle that the user cannot have meant is an
    :class:`~attnproof.errors.InputError`; the size limit does not apply.
    """
    why: str | None
    if M.has_bias:
        why = "problems with biases have exp-rational coefficients, outside the SMT search"
    elif not line_binomials([f[0] for f in cert.lower.factors], M.dim):
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
                         on_solvers: Optional[Callable[[str], None]] = None,
                         options: Sequence[str] | None = None):
    """The certificate with the line refutations of THEORY §12 added, and the line queries.

    Ascends ``k`` from the certificate's lower bound within ``timeout`` seconds in
    all: every ``unsat`` raises the bound by one.  A fusion found smaller than the
    certificate's upper bound is embedded.  When no query refutes anything and no
    smaller fusion is found, the certificate is ``cert`` itself.
    ``on_step(result)`` after each query, ``on_solvers(text)`` on each solver state.
    ``options``: the encoding options (default all of :data:`~attnproof.smt.lines.LINE_OPTIONS`).
    """
    from .certify import line_certificate
    from .line_query import line_minimize
    from .lines import LINE_OPTIONS

    mr = line_minimize(M, timeout=timeout, budget=timeout, max_atoms=max_atoms, on_step=on_step,
                       lower=cert.lower.value, strategy="ascend", on_solvers=on_solvers,
                       options=LINE_OPTIONS if options is None else tuple(options))
    fusion = mr.best if mr.best.atoms < cert.upper else None
    if fusion is None and mr.refutation is None:
        return cert, mr
    return line_certificate(M, fusion, mr.refutation, cert=cert), mr
