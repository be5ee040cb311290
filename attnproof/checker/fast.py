"""The checker's fast paths, all in one place (docs/certificates.md §8).

Each function here shortcuts a common case of a reference procedure and gives
exactly its answer (the same value, or None to let the reference path decide
and explain), charging about the same work;
``tests/test_checker_fast_paths.py`` compares every pair.  :func:`install` puts
them in :data:`attnproof.checker.switch.FAST`; with
``ATTNPROOF_CHECKER_REFERENCE=1`` (or ``--reference``) they are left out and the
reference path alone decides every certificate.  Nothing in the reference path
imports this module.
"""

from __future__ import annotations

from fractions import Fraction

from . import poly as P
from .switch import FAST, NAMES, reference_requested
from .syntax import Reject


def product_identity(st, Nstar: list, Dstar: dict, where: str) -> bool:
    """Fast path of :func:`attnproof.checker.rules.fusion.check_identity` when ``D* = c·Π_h D_h`` (a product fusion, or a
    reduced form in which nothing cancels, as for graph sums).

    Then ``Σ_h N_h/D_h = N_Π/D_Π`` with ``N ← N·D_h + N_h·D``, ``D ← D·D_h`` built
    head by head, and ``N*/D* = N_Π/D_Π`` iff ``N* = c·N_Π``.  Head denominators have
    positive coefficients, so the partial products only grow: past ``|D*|`` terms
    the path is abandoned (False) and the general check runs.  True when verified;
    a wrong numerator is rejected.
    """
    pb, bud = st.pb, st.budget
    D: dict = {(): 1}
    N: list[dict] = [dict() for _ in range(pb.value_dim)]
    for h, Dh in enumerate(pb.den):
        N = [_sum(P.mul(n, Dh, bud), P.mul(nh, D, bud)) for n, nh in zip(N, pb.num[h])]
        D = P.mul(D, Dh, bud)
        if len(D) > len(Dstar):
            return False
    if len(D) != len(Dstar) or D.keys() != Dstar.keys():
        return False
    mono = next(iter(D))
    c = Fraction(Dstar[mono]) / D[mono]
    bud.charge(len(D), "comparing polynomials")
    if any(Dstar[k] != c * v for k, v in D.items()):
        return False
    for comp, (ns, n) in enumerate(zip(Nstar, N)):
        bud.charge(len(n) + len(ns), "comparing polynomials")
        if ns.keys() != n.keys() or any(ns[k] != c * v for k, v in n.items()):
            raise Reject(f"{where}: the fraction is not equal to the sum of the heads "
                         f"(value component {comp})")
    return True


def _sum(a: dict, b: dict) -> dict:
    P.add_into(a, b)
    return a




def install() -> None:
    """Put every fast path in :data:`FAST` (the checker's default)."""
    for name in NAMES:
        setattr(FAST, name, globals()[name])


if not reference_requested():
    install()
