"""Fusion rules: ``product_fusion`` (§6.4) and ``explicit_fusion`` (§6.5) of docs/certificates.md.

THEORY §3: the product fusion has at most ``Π_h |supp_x D_h|`` atoms; an explicit
head is verified to equal the multi-head exactly (Theorem 2), its distinct keys
are the upper bound.
"""

from __future__ import annotations

from .. import poly as P
from ..limits import MAX_EXPANSION
from ..linalg import product
from ..problem import head_polys, parse_atoms
from ..switch import FAST
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
    pb = st.pb
    bud = st.budget
    m = pb.value_dim
    terms: dict = {}                 # denominator -> (D, summed numerators)
    for D, Ns in zip(pb.den, pb.num):
        bud.charge(1 + m + P.size(D) + sum(P.size(n) for n in Ns),
                   "adding heads with one denominator")
        key = frozenset(D.items())
        if key not in terms:
            terms[key] = (D, [dict() for _ in range(m)])
        for c in range(m):
            P.add_into(terms[key][1][c], Ns[c])
    refute_at_a_point(Nstar, Dstar, list(terms.values()), bud, where)
    fast = FAST.product_identity
    if fast is not None and fast(st, Nstar, Dstar, where):
        return
    acc: list[dict] = [dict() for _ in range(m)]
    B = []
    base = len(Dstar) + max((len(n) for n in Nstar), default=0)
    expansion = base
    for D, Ns in terms.values():
        G = P.divexact(Dstar, D, bud)
        if G is not None:
            for c in range(m):
                P.add_into(acc[c], P.mul(Ns[c], G, bud))
            continue
        qs = []
        for n in Ns:
            q = P.divexact(n, D, bud)
            if q is None:
                break
            qs.append(q)
        if len(qs) == m:
            for c in range(m):
                P.add_into(acc[c], P.mul(qs[c], Dstar, bud))
            continue
        B.append((D, Ns))
        expansion *= len(D)
        if expansion > MAX_EXPANSION:
            raise Unsupported(f"{where}: verifying this fusion would expand a product of "
                              f"{len(B)} head denominators (more than {MAX_EXPANSION} terms)")
    if not B:
        lhs, rhs = Nstar, acc
    else:
        T: dict = {(): 1}
        for D, _ in B:
            T = P.mul(T, D, bud)
        lhs = [P.mul(n, T, bud) for n in Nstar]
        rhs = [P.mul(a, T, bud) for a in acc]
        for i, (_, Ns) in enumerate(B):
            rest: dict = {(): 1}
            for j, (D, _) in enumerate(B):
                if j != i:
                    rest = P.mul(rest, D, bud)
            for c in range(m):
                P.add_into(rhs[c], P.mul(Dstar, P.mul(Ns[c], rest, bud), bud))
    for c in range(m):
        diff = dict(lhs[c])
        bud.charge(len(rhs[c]), "comparing polynomials")
        P.add_into(diff, rhs[c], -1)
        if diff:
            raise Reject(f"{where}: the fraction is not equal to the sum of the heads "
                         f"(value component {c})")


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
    if any(v is None for v in vals):
        return
    rows = [vals[i:i + m + 1] for i in range(0, len(vals), m + 1)]   # (D, N_0, ..., N_m-1)
    if any(row[0] == 0 for row in rows):
        return
    p = P._P
    inv = [pow(row[0], -1, p) for row in rows[1:]]
    dstar = rows[0][0]
    for c in range(m):
        total = sum(row[1 + c] * i for row, i in zip(rows[1:], inv)) % p
        if (rows[0][1 + c] - total * dstar) % p:
            raise Reject(f"{where}: the fraction is not equal to the sum of the heads "
                         f"(value component {c}, seen at a point modulo 2^61 - 1)")


def rule_product_fusion(st: State, step: dict, where: str) -> None:
    """Upper bound: the product fusion has at most ``Π_h |supp_x(D_h)|`` atoms (THEORY §3)."""
    fields(step, {"rule"}, set(), where)
    if st.upper is not None:
        raise Reject(f"{where}: a second upper-bound step")
    dim = st.pb.dim
    st.upper = product(len({tuple((v, e) for v, e in m if v < dim) for m in D})
                       for D in st.pb.den)


def rule_explicit_fusion(st: State, step: dict, where: str) -> None:
    """Upper bound: an explicit head, verified to equal the multi-head exactly."""
    fields(step, {"rule", "head"}, set(), where)
    if st.upper is not None:
        raise Reject(f"{where}: a second upper-bound step")
    pb = st.pb
    fields(step["head"], {"atoms"}, set(), f"{where}: head")
    atoms, m = parse_atoms(step["head"]["atoms"], pb.dim, pb.value_dim, f"{where}: head",
                           st.budget)
    prev = None
    for a_i, (key, bias, _, _) in enumerate(atoms):
        k = P.lex_key(pb.monomial(key, bias, f"{where}: head, atom {a_i}"))
        if prev is not None and not k > prev:
            raise Reject(f"{where}: head atoms must be strictly increasing by lattice exponent")
        prev = k
    Dstar, Nstar = head_polys(pb, atoms, f"{where}: head", st.budget)
    check_identity(st, Nstar, Dstar, where)
    st.upper = len({tuple((v, e) for v, e in mono if v < pb.dim) for mono in Dstar})



# rule name -> (function, phase)
RULES = {
    "product_fusion": (rule_product_fusion, 2),
    "explicit_fusion": (rule_explicit_fusion, 2),
}
