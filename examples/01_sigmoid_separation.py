"""W_d = σ(q1) + ... + σ(qd): 2d head-atom terms, but every exact single head needs 2^d atoms.

Each σ(q_j) is a two-atom head (key e_j value 1, key 0 value 0).  Their sum in
lowest terms has denominator Q = Π_j (1 + x_j) with x_j = e^{q_j}; its Newton
polytope is the cube [0,1]^d with 2^d vertices, so every exact fusion has at
least 2^d atoms (THEORY, Theorem 3), and the product fusion has exactly 2^d.

Run:  python examples/01_sigmoid_separation.py
"""

from fractions import Fraction
from itertools import product

from attnproof import fuse, reduced_form, sigmoid_sum
from attnproof.algebra import evaluate_poly, poly_context
from attnproof.bounds import lower_bound
from attnproof.certificate import build_certificate
from attnproof.checker import check_text

from _independent import vertices_by_lp


def separation_row(d: int) -> dict:
    """Everything the table prints for one d, each number computed two ways where possible."""
    M = sigmoid_sum(d)
    r = reduced_form(M)
    ctx = poly_context(r.lattice)
    xs = ctx.gens()
    expected_Q = ctx.from_dict({(0,) * d: 1})
    for x in xs:
        expected_Q *= 1 + x
    assert r.Q == expected_Q, "Q should be the product of the (1 + x_j)"
    # Q is reduced: each factor 1 + x_j is irreducible (linear in x_j) and does not
    # divide P, witnessed by a zero of the factor where P is not zero:
    # x_j = -1, every other x_i = 1 gives P = -(1+1)^(d-1) = -2^(d-1).
    witnesses = []
    for j in range(d):
        point = tuple(Fraction(-1) if i == j else Fraction(1) for i in range(d))
        witnesses.append(evaluate_poly(r.P[0], point))
    assert all(w == -2 ** (d - 1) for w in witnesses)
    P_at = witnesses[0]
    support = r.support_x()
    cube = set(product((0, 1), repeat=d))
    assert support == cube
    # independent: every point v of {0,1}^d is a vertex, the functional c = 2v - 1
    # is maximized there and only there (checked against every other support point)
    vertices = [v for v in support
                if all(sum((2 * a - 1) * (a - b) for a, b in zip(v, w)) > 0 for w in support if w != v)]
    assert len(vertices) == 2 ** d
    if d <= 3:                               # and a third way, one exact LP per point
        assert vertices_by_lp(support) == set(vertices)
    f = fuse(M)
    proven = lower_bound(M)                  # the toolkit's proof (factor witnesses + Lemma 5/7)
    assert proven.trust == "exact" and proven.value == len(vertices)
    return {"d": d, "head_atom_terms": M.head_atom_terms, "fusion_atoms": f.atoms,
            "newton_vertices": proven.value, "P at a zero of 1+x_1": P_at}


def main() -> None:
    print(" d  head-atom terms  Newton vertices (lower bound)  best fusion (upper bound)")
    for d in range(1, 7):
        row = separation_row(d)
        assert row["head_atom_terms"] == 2 * d
        assert row["newton_vertices"] == row["fusion_atoms"] == 2 ** d
        print(f"{d:2d}  {row['head_atom_terms']:15d}  {row['newton_vertices']:29d}  "
              f"{row['fusion_atoms']:25d}")
    D = 100
    big = lower_bound(sigmoid_sum(D))        # structurally: D blocks of one variable each
    assert big.value == 2 ** D and len(big.blocks) == D
    print(f"d = {D}: proven lower bound 2^{D} ({len(str(big.value))} digits) from "
          f"{len(big.blocks)} one-variable blocks, trust {big.trust}")
    cert = build_certificate(sigmoid_sum(6))  # the proof as a certificate ...
    verdict = check_text(cert.text)           # ... re-verified by the standalone checker
    assert verdict.status == "valid" and verdict.minimum == 2 ** 6 and verdict.trust == "exact"
    print(f"W_6 certificate ({len(cert.text)} bytes): checker says {verdict.status}, "
          f"minimum {verdict.minimum}, trust {verdict.trust}")
    print("lower bound = upper bound: the minimum is 2^d, against 2d head-atom terms")


if __name__ == "__main__":
    main()
