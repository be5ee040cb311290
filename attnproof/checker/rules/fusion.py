"""Fusion rules: ``product_fusion`` (§6.4) and ``explicit_fusion`` (§6.5) of docs/certificates.md.

THEORY §3: the product fusion has at most ``Π_h |supp_x D_h|`` atoms; an explicit
head is verified to equal the multi-head exactly (Theorem 2), its distinct keys
are the upper bound.
"""

from __future__ import annotations

from fractions import Fraction
from functools import reduce
from itertools import takewhile

from .. import poly as P
from ..limits import MAX_EXPANSION
from ..linalg import product
from ..problem import head_polys, parse_atoms
from ..syntax import Reject, Unsupported, fields
from .state import State


def check_identity(st: State, Nstar: list, Dstar: dict, where: str) -> None:
    """Verify ``N*/D* = Σ_h N_h/D_h`` exactly (THEORY §3, Theorem 2; docs/certificates.md §6.5).

    First at a point modulo a prime (:func:`refute_at_a_point`): a mismatch there is
    a proof that the identity fails, found in one charged pass over the terms.
    Then exactly.  Heads with equal denominators are added first (``N/D`` with ``N``
    the sum of their numerators).  A term with ``D | D*`` contributes ``N·(D*/D)``;
    one with ``D | N`` (every component) is the polynomial ``q = N/D`` and
    contributes ``q·D*``; the others (set B) are cleared by ``T_B = Π_{B} D``:
    ``N*·T_B = (Σ_{∉B} N·(D*/D) + Σ q·D*)·T_B + D*·Σ_{B} N·Π_{B, other} D``.
    The expansion that B would need, ``(|D*| + max|N*|)·Π_{B}|D|`` terms, is
    bounded as B grows: past ``MAX_EXPANSION`` the check stops (*inconclusive*)
    before any further division is tried, and every division and product is
    charged before it is made (:func:`attnproof.checker.poly.divexact`, ``mul``).
    """
    pb, bud, m = st.pb, st.budget, st.pb.value_dim
    terms: dict = {}                 # denominator -> (D, summed numerators)
    for D, Ns in zip(pb.den, pb.num):
        bud.charge(1 + m + P.size(D) + sum(P.size(n) for n in Ns), "adding heads with one denominator")
        for a, n in zip(terms.setdefault(frozenset(D.items()), (D, [{} for _ in range(m)]))[1], Ns):
            P.add_into(a, n)
    refute_at_a_point(Nstar, Dstar, list(terms.values()), bud, where)
    if _product_identity(st, Nstar, Dstar, where):
        return
    acc, B = [dict() for _ in range(m)], []  # type: list[dict], list
    expansion = len(Dstar) + max((len(n) for n in Nstar), default=0)
    for D, Ns in terms.values():
        G = P.divexact(Dstar, D, bud)
        qs: list = [] if G is not None else list(takewhile(lambda q: q is not None, (P.divexact(n, D, bud) for n in Ns)))
        if G is None and len(qs) < m:
            B.append((D, Ns))
            expansion *= len(D)
            if expansion > MAX_EXPANSION:
                raise Unsupported(f"{where}: verifying this fusion would expand a product of "
                                  f"{len(B)} head denominators (more than {MAX_EXPANSION} terms)")
            continue
        for a, p in zip(acc, [P.mul(n, G, bud) for n in Ns] if G is not None else [P.mul(q, Dstar, bud) for q in qs]):
            P.add_into(a, p)
    lhs, rhs = Nstar, acc
    if B:
        T = reduce(lambda a, b: P.mul(a, b, bud), [D for D, _ in B], {(): 1})
        lhs, rhs = [P.mul(n, T, bud) for n in Nstar], [P.mul(a, T, bud) for a in acc]
        for i, (_, Ns) in enumerate(B):
            rest = reduce(lambda a, b: P.mul(a, b, bud), [D for j, (D, _) in enumerate(B) if j != i], {(): 1})
            for r, n in zip(rhs, Ns):
                P.add_into(r, P.mul(Dstar, P.mul(n, rest, bud), bud))
    for c in range(m):
        diff = dict(lhs[c])
        bud.charge(len(rhs[c]), "comparing polynomials")
        P.add_into(diff, rhs[c], -1)
        if diff:
            raise Reject(f"{where}: the fraction is not equal to the sum of the heads (value component {c})")


def _product_identity(st: State, Nstar: list, Dstar: dict, where: str) -> bool:
    """The first strategy of :func:`check_identity`, when ``D* = c·Π_h D_h`` (a product
    fusion, or a reduced form in which nothing cancels, as for graph sums).

    Then ``Σ_h N_h/D_h = N_Π/D_Π`` with ``N ← N·D_h + N_h·D``, ``D ← D·D_h`` built
    head by head, and ``N*/D* = N_Π/D_Π`` iff ``N* = c·N_Π``.  Head denominators have
    positive coefficients, so the partial products only grow: past ``|D*|`` terms
    the strategy is abandoned (False) and the general check runs.  True when verified;
    a wrong numerator is rejected.
    """
    D, N = {(): 1}, [dict() for _ in range(st.pb.value_dim)]  # type: dict, list[dict]
    for Dh, Nh in zip(st.pb.den, st.pb.num):
        N = [P.mul(n, Dh, st.budget) for n in N]
        for n, nh in zip(N, Nh):
            P.add_into(n, P.mul(nh, D, st.budget))
        D = P.mul(D, Dh, st.budget)
        if len(D) > len(Dstar):
            return False
    if D.keys() != Dstar.keys():
        return False
    c = Fraction(Dstar[next(iter(D))]) / D[next(iter(D))]
    st.budget.charge(len(D), "comparing polynomials")
    if any(Dstar[k] != c * v for k, v in D.items()):
        return False
    for comp, (ns, n) in enumerate(zip(Nstar, N)):
        st.budget.charge(len(n) + len(ns), "comparing polynomials")
        if ns.keys() != n.keys() or any(ns[k] != c * v for k, v in n.items()):
            raise Reject(f"{where}: the fraction is not equal to the sum of the heads (value component {comp})")
    return True


def refute_at_a_point(Nstar: list, Dstar: dict, terms: list, bud, where: str) -> None:
    """Reject when ``N*/D* = Σ N/D`` fails at the point ``x_v = value(v)`` modulo the
    prime ``p`` of :func:`attnproof.checker.poly.images` (every denominator non-zero there).

    The identity of Laurent polynomials ``N*·Π D = D*·Σ N·Π_{other} D`` is kept by
    reduction modulo ``p`` and evaluation (ring homomorphisms), so a mismatch of
    the images proves the fraction differs from the heads' sum.  Agreement proves
    nothing (the exact check follows); a zero denominator or a coefficient whose
    denominator ``p`` divides leaves the question to the exact check.
    """
    m = len(Nstar)
    vals = P.images([Dstar, *Nstar] + [p for D, Ns in terms for p in (D, *Ns)], bud)
    rows = [vals[i:i + m + 1] for i in range(0, len(vals), m + 1)]   # (D, N_0, ..., N_m-1)
    if any(v is None for v in vals) or any(row[0] == 0 for row in rows):
        return
    inv = [pow(row[0], -1, P._P) for row in rows[1:]]
    for c in range(m):
        total = sum(row[1 + c] * i for row, i in zip(rows[1:], inv)) % P._P
        if (rows[0][1 + c] - total * rows[0][0]) % P._P:
            raise Reject(f"{where}: the fraction is not equal to the sum of the heads "
                         f"(value component {c}, seen at a point modulo 2^61 - 1)")


def rule_product_fusion(st: State, step: dict, where: str) -> None:
    """Upper bound: the product fusion has at most ``Π_h |supp_x(D_h)|`` atoms (THEORY §3)."""
    fields(step, {"rule"}, set(), where)
    if st.upper is not None:
        raise Reject(f"{where}: a second upper-bound step")
    st.upper = product(len({tuple(pr for pr in m if pr[0] < st.pb.dim) for m in D}) for D in st.pb.den)


def rule_explicit_fusion(st: State, step: dict, where: str) -> None:
    """Upper bound: an explicit head, verified to equal the multi-head exactly."""
    fields(step, {"rule", "head"}, set(), where)
    if st.upper is not None:
        raise Reject(f"{where}: a second upper-bound step")
    fields(step["head"], {"atoms"}, set(), f"{where}: head")
    atoms, m = parse_atoms(step["head"]["atoms"], st.pb.dim, st.pb.value_dim, f"{where}: head",
                           st.budget)
    ks = [P.lex_key(st.pb.monomial(key, bias, f"{where}: head, atom {a_i}"))
          for a_i, (key, bias, _, _) in enumerate(atoms)]
    if any(b <= a for a, b in zip(ks, ks[1:])):
        raise Reject(f"{where}: head atoms must be strictly increasing by lattice exponent")
    Dstar, Nstar = head_polys(st.pb, atoms, f"{where}: head", st.budget)
    check_identity(st, Nstar, Dstar, where)
    st.upper = len({tuple((v, e) for v, e in mono if v < st.pb.dim) for mono in Dstar})



# rule name -> (function, phase)
RULES = {
    "product_fusion": (rule_product_fusion, 2),
    "explicit_fusion": (rule_explicit_fusion, 2),
}
