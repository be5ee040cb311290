"""A reduced denominator with a negative coefficient, and what that forces.

Take H1 = 3/(1 + x^3) (keys 0 and 3, values 3 and 0) and H2 = σ(q) = x/(1 + x),
with x = e^q.  Both denominators share the factor 1 + x (since 1 + x^3 =
(1 + x)(x^2 − x + 1)), and the sum cancels it once more:

    H1 + H2 = (x^2 − 2x + 3) / (x^2 − x + 1).

The reduced denominator Q = x^2 − x + 1 has a negative coefficient, so G = 1 is
not a head: every fusion has denominator D = Q·G with G not constant
(THEORY, Theorem 2).  What this forces, computed below:

* the Newton bound is 2 (the segment [0, 2]);
* 2 atoms are impossible anyway: a two-atom head is monotone in q, with values
  between its two atom values, but M → 3 as q → −∞, M → 1 as q → +∞ and
  M = 6/7 < 1 at x = 3.  So at least 3 atoms;
* the cheapest positive multiple of Q is (1 + x)·Q = 1 + x^3 (the lcm of the
  heads), but its numerator (x + 1)(x^2 − 2x + 3) has 4 terms, outside the
  support {0, 3}: not a head;
* the product fusion has 4 atoms.  Whether 3 atoms are possible is the kind of
  question the SMT search answers inside a window (examples/08_window_search.py).

Run:  python examples/06_negative_coefficients.py
"""

from fractions import Fraction

from attnproof import Atom, Head, MultiHead, fuse, reduced_form
from attnproof.algebra import Lattice, evaluate_multihead
from attnproof.bounds import lower_bound
from attnproof.fusion import lcm_fusion

from _independent import vertices_by_lp


def problem() -> MultiHead:
    """3/(1 + x^3) + x/(1 + x)."""
    h1 = Head((Atom((0,), (3,)), Atom((3,), (0,))), name="3/(1+x^3)")
    h2 = Head((Atom((1,), (1,)), Atom((0,), (0,))), name="sigma(q)")
    return MultiHead((h1, h2))


def main() -> None:
    M = problem()
    r = reduced_form(M)
    coeffs = sorted(r.frac.den_dict().items())
    assert [c for _, c in coeffs] == [1, -1, 1]            # x^2 - x + 1
    assert not r.frac.is_head()                             # G = 1 is not a fusion
    newton = len(vertices_by_lp(r.support_x()))
    proven = lower_bound(M)          # Q is not a product of head factors: FLINT's gcd (C3)
    assert newton == proven.value == 2
    # two atoms are impossible: M is not monotone
    lat = Lattice.of(M)
    at3 = evaluate_multihead(M, lat, (Fraction(3),))[0]
    # the limits q -> -inf and q -> +inf: each head tends to the value of its lowest / highest key
    left = sum(min(h.atoms, key=lambda a: a.key).value[0] for h in M.heads)
    right = sum(max(h.atoms, key=lambda a: a.key).value[0] for h in M.heads)
    near_left = evaluate_multihead(M, lat, (Fraction(1, 10 ** 9),))[0]
    near_right = evaluate_multihead(M, lat, (Fraction(10 ** 9),))[0]
    assert abs(near_left - left) < Fraction(1, 10 ** 8) and abs(near_right - right) < Fraction(1, 10 ** 8)
    assert at3 == Fraction(6, 7) and at3 < min(left, right)  # below both limits: not monotone
    # the lcm 1 + x^3 = (1 + x) Q is positive but its numerator has the wrong support
    assert str(r.lcm) == "x1^3 + 1" and lcm_fusion(r) is None
    f = fuse(M)
    assert f.method == "product" and f.atoms == 4
    print(f"P/Q = ({r.P[0]})/({r.Q}): Q has a negative coefficient")
    print(f"Newton bound {newton} (proven, trust {proven.trust}); two atoms impossible (M = {at3} at x = 3, below both limits "
          f"{left} and {right});")
    print(f"lcm {r.lcm} is positive but not a head; best cheap fusion: {f.method}, {f.atoms} atoms")
    print(f"so the minimum is between {newton + 1} and {f.atoms}")


if __name__ == "__main__":
    main()
