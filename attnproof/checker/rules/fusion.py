"""Fusion rules: ``product_fusion`` (§6.4) and ``explicit_fusion`` (§6.5) of docs/certificates.md.

THEORY §3: the product fusion has at most ``Π_h |supp_x D_h|`` atoms; an explicit
head is verified to equal the multi-head exactly (Theorem 2), its distinct keys
are the upper bound.
"""

from __future__ import annotations

from fractions import Fraction

from .. import poly as P
from ..limits import MAX_EXPANSION
from ..linalg import product
from ..problem import head_polys, parse_atoms
from ..switch import FAST
from ..syntax import Reject, Unsupported, fields
from .state import State


def check_identity(st: State, Nstar: list, Dstar: dict, where: str) -> None:
    """Verify ``N*/D* = Σ_h N_h/D_h`` exactly.

    Heads with equal denominators are added first (``N/D`` with ``N`` the sum of their
    numerators).  A term with ``D | D*`` contributes ``N·(D*/D)``; one with ``D | N``
    (every component) is the polynomial ``q = N/D`` and contributes ``q·D*``; the others
    (set B) are cleared by ``T_B = Π_{B} D``:
    ``N*·T_B = (Σ_{∉B} N·(D*/D) + Σ q·D*)·T_B + D*·Σ_{B} N·Π_{B, other} D``.
    """
    pb = st.pb
    bud = st.budget
    m = pb.value_dim
    fast = FAST.product_identity
    if fast is not None and fast(st, Nstar, Dstar, where):
        return
    terms: dict = {}                 # denominator -> (D, summed numerators)
    for D, Ns in zip(pb.den, pb.num):
        bud.charge(P.size(D) + sum(P.size(n) for n in Ns), "adding heads with one denominator")
        key = frozenset(D.items())
        if key not in terms:
            terms[key] = (D, [dict() for _ in range(m)])
        for c in range(m):
            P.add_into(terms[key][1][c], Ns[c])
    acc: list[dict] = [dict() for _ in range(m)]
    B = []
    for D, Ns in terms.values():
        G = P.divexact(Dstar, D, bud)
        if G is not None:
            for c in range(m):
                P.add_into(acc[c], P.mul(Ns[c], G, bud))
            continue
        qs = [P.divexact(n, D, bud) for n in Ns]
        exact = [q for q in qs if q is not None]
        if len(exact) == m:
            for c in range(m):
                P.add_into(acc[c], P.mul(exact[c], Dstar, bud))
            continue
        B.append((D, Ns))
    if not B:
        lhs, rhs = Nstar, acc
    else:
        size = len(Dstar) + max((len(n) for n in Nstar), default=0)
        for D, _ in B:
            size *= len(D)
            if size > MAX_EXPANSION:
                raise Unsupported(f"{where}: verifying this fusion would expand a product of "
                                  f"{len(B)} head denominators (more than {MAX_EXPANSION} terms)")
        T = {(): Fraction(1)}
        for D, _ in B:
            T = P.mul(T, D, bud)
        lhs = [P.mul(n, T, bud) for n in Nstar]
        rhs = [P.mul(a, T, bud) for a in acc]
        for i, (_, Ns) in enumerate(B):
            rest = {(): Fraction(1)}
            for j, (D, _) in enumerate(B):
                if j != i:
                    rest = P.mul(rest, D, bud)
            for c in range(m):
                P.add_into(rhs[c], P.mul(Dstar, P.mul(Ns[c], rest, bud), bud))
    for c in range(m):
        diff = dict(lhs[c])
        bud.charge(len(rhs[c]), "comparing polynomials")
        P.add_into(diff, rhs[c], Fraction(-1))
        if diff:
            raise Reject(f"{where}: the fraction is not equal to the sum of the heads "
                         f"(value component {c})")



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
    atoms, m = parse_atoms(step["head"]["atoms"], pb.dim, pb.value_dim, f"{where}: head")
    prev = None
    for a_i, (key, bias, _, _) in enumerate(atoms):
        k = P.lex_key(pb.monomial(key, bias, f"{where}: head, atom {a_i}"))
        if prev is not None and not k > prev:
            raise Reject(f"{where}: head atoms must be strictly increasing by lattice exponent")
        prev = k
    Dstar, Nstar = head_polys(pb, atoms, f"{where}: head")
    check_identity(st, Nstar, Dstar, where)
    st.upper = len({tuple((v, e) for v, e in mono if v < pb.dim) for mono in Dstar})



# rule name -> (function, phase)
RULES = {
    "product_fusion": (rule_product_fusion, 2),
    "explicit_fusion": (rule_explicit_fusion, 2),
}
