"""Heads that cancel: a sum of heads can be constant, or much smaller than it looks.

σ(q) + σ(-q) = 1 for every q: two two-atom heads whose sum is a one-atom head
(any key, value 1).  In lowest terms P/Q the denominator is a constant, its
Newton polytope a single point, and one atom suffices.

Cancellation can also be partial: σ(q1) + σ(q2) + σ(-q1) = 1 + σ(q2), so six
head-atom terms fuse into a two-atom head, although the product fusion has 6
distinct keys.

Run:  python examples/02_cancelling_heads.py
"""

import random
from fractions import Fraction

from attnproof import Atom, Head, MultiHead, fuse, product_fusion, reduced_form
from attnproof.algebra import Lattice, evaluate_multihead, random_point


def sigma(d: int, j: int, sign: int = 1) -> Head:
    """σ(±q_j) as a head: key ±e_j with value 1, key 0 with value 0."""
    key = tuple(sign if i == j else 0 for i in range(d))
    return Head((Atom(key, (1,)), Atom((0,) * d, (0,))), name=f"sigma({'-' if sign < 0 else ''}q{j + 1})")


def exact_agreement(M: MultiHead, fused: MultiHead, trials: int = 20) -> bool:
    """Exact equality of M and a fused head at random points of the lattice torus."""
    lat = Lattice.of(MultiHead(M.heads + fused.heads, dim=M.dim))
    rng = random.Random(0)
    return all(evaluate_multihead(M, lat, p) == evaluate_multihead(fused, lat, p)
               for p in (random_point(lat, rng) for _ in range(trials)))


def main() -> None:
    total = MultiHead((sigma(1, 0), sigma(1, 0, -1)))
    r = reduced_form(total)
    assert r.is_constant() and [str(p) for p in r.P] == ["1"] and str(r.Q) == "1"
    f = fuse(total)
    assert f.atoms == 1 and exact_agreement(total, f.to_multihead())
    # independently: σ(q) + σ(-q) = x/(1+x) + 1/(1+x) = 1 at any x > 0
    for x in (Fraction(1, 3), Fraction(2), Fraction(7, 5)):
        assert x / (1 + x) + 1 / (1 + x) == 1
    print(f"sigma(q) + sigma(-q): {total.head_atom_terms} head-atom terms, constant "
          f"P/Q = {r.P[0]}/{r.Q}, fused into {f.atoms} atom")

    partial = MultiHead((sigma(2, 0), sigma(2, 1), sigma(2, 0, -1)))
    r = reduced_form(partial)
    f = fuse(partial)
    prod = product_fusion(partial)
    assert sorted(r.support_x()) == [(0, 0), (0, 1)]          # Q = 1 + x2
    assert f.atoms == 2 and exact_agreement(partial, f.to_multihead())
    values = sorted(a.value[0] for a in f.to_head().atoms)
    assert values == [1, 2]                                      # 1 + σ(q2): values 1 and 2
    print(f"sigma(q1) + sigma(q2) + sigma(-q1): {partial.head_atom_terms} head-atom terms, "
          f"Q = {r.Q}, fused into {f.atoms} atoms (values {values[0]} and {values[1]}); "
          f"the product fusion would have {prod.atoms}")


if __name__ == "__main__":
    main()
