"""Biased sigmoids: σ(q + b1) + σ(q + b2) needs 3 atoms, but its Newton bound is only 2.

With biases the atom weights are e^b, so the toolkit adds a variable z = e^{1/L}
and projects exponents onto the x coordinates to count keys (THEORY §2).  For
two biases on the same coordinate,

    Q = (1 + e^{b1} x)(1 + e^{b2} x) = 1 + (e^{b1} + e^{b2}) x + e^{b1+b2} x^2,

whose Newton polytope is the segment [0, 2]: 2 vertices, a lower bound of 2.
But no 2-atom head works when b1 != b2.  Why: a fusion has denominator D = Q·G
(Theorem 2), so D vanishes at both x = -e^{-b1} and x = -e^{-b2}.  A 2-atom
denominator is c0 x^a + c1 x^{a+n} with c0, c1 > 0; its nonzero roots solve
x^n = -c0/c1, and all its negative real roots are the single number
-(c0/c1)^{1/n} (n odd).  Two distinct negative roots are impossible, so at
least 3 atoms are needed, and the product fusion has exactly 3.  The Newton
bound sees exponents only, not where the roots of the coefficients lie: it is
a theorem, but not tight here.

With equal biases the two heads are equal, the sum is 2σ(q + b), and 2 atoms
suffice: the bound is tight again.  And biases on different coordinates keep
the cube: σ(q1 + b1) + σ(q2 + b2) still needs exactly 4 atoms.

Run:  python examples/03_biased_sigmoids.py
"""

from fractions import Fraction

from attnproof import biased_sigmoid_sum, fuse, reduced_form
from attnproof.bounds import lower_bound
from attnproof.heads import Atom, Head, MultiHead

from _independent import vertices_by_lp


def same_coordinate(b1, b2) -> MultiHead:
    """σ(q + b1) + σ(q + b2) in one dimension."""
    heads = tuple(Head((Atom((1,), (1,), bias=Fraction(b)), Atom((0,), (0,))), name=f"sigma(q+{b})")
                  for b in (b1, b2))
    return MultiHead(heads, dim=1)


def binomial_multiples(Q, max_degree: int) -> list[int]:
    """Degrees n <= max_degree for which some positive binomial c0 + c1 x^n is a multiple of Q.

    Q (with z = e) has the factor 1 + x: a multiple vanishes at x = -1, which
    forces n odd and c0 = c1.  The other factor must then divide 1 + x^n
    exactly; FLINT decides it (as polynomials in x and z).
    """
    ctx = Q.context()
    x, z = ctx.gens()
    _, factors = Q.factor()
    assert sorted(str(f) for f, _ in factors) == ["x1 + 1", "x1*z + 1"]
    other = next(f for f, _ in factors if str(f) != "x1 + 1")
    found = []
    for n in range(1, max_degree + 1):
        if n % 2 == 1:                     # c0 + c1(-1)^n = 0 with c0, c1 > 0
            if (1 + x ** n) % other == 0:
                found.append(n)
    return found


def main() -> None:
    M = same_coordinate(0, 1)
    r = reduced_form(M)
    support = sorted(r.support_x())
    vertices = vertices_by_lp(support)
    f = fuse(M)
    assert r.lattice.has_z                        # biases live in the extra variable z = e
    assert support == [(0,), (1,), (2,)] and sorted(vertices) == [(0,), (2,)]
    assert f.atoms == 3 and lower_bound(M).value == len(vertices)
    # the root argument, checked by exact division for every binomial up to degree 30:
    assert binomial_multiples(r.Q, 30) == []
    print(f"sigma(q) + sigma(q+1): Q = {r.Q} (z = e); Newton bound {len(vertices)}, "
          f"best fusion {f.atoms} atoms; a 2-atom head has at most one negative root, "
          f"Q has two, so the minimum is {f.atoms}")

    equal = same_coordinate(Fraction(1, 2), Fraction(1, 2))
    re, fe = reduced_form(equal), fuse(equal)
    ve = vertices_by_lp(re.support_x())
    assert len(ve) == fe.atoms == 2
    print(f"sigma(q+1/2) + sigma(q+1/2) = 2 sigma(q+1/2): Newton bound {len(ve)} = best fusion {fe.atoms}")

    spread = biased_sigmoid_sum([Fraction(1, 2), -1])
    rs, fs = reduced_form(spread), fuse(spread)
    vs = vertices_by_lp(rs.support_x())
    assert len(vs) == fs.atoms == lower_bound(spread).value == 4
    print(f"sigma(q1+1/2) + sigma(q2-1): Newton bound {len(vs)} = best fusion {fs.atoms} "
          f"(different coordinates: still a square)")


if __name__ == "__main__":
    main()
