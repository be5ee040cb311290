"""``poly.not_divisible`` by a divisor of degree 1 in its image variable.

With ``g = t + g0`` the residue of ``t^e`` is ``(-g0)^e`` in ``F_p``; the
checker takes that shortcut instead of repeated squaring of residues.  A
``True`` must always be a proof: compared here with the exact root test
(``1 + c·x`` divides ``a`` in one variable iff ``a(-1/c) = 0``).
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from attnproof.checker.poly import not_divisible


def _value(a: dict, x: Fraction) -> Fraction:
    return sum((Fraction(c) * x ** (m[0][1] if m else 0) for m, c in a.items()), Fraction(0))


@pytest.mark.parametrize("seed", range(40))
def test_not_divisible_is_a_proof_for_linear_divisors(seed):
    rng = random.Random(seed)
    c = rng.choice([1, 2, 3, Fraction(1, 2)])
    b = {(): Fraction(1), ((0, 1),): Fraction(c)}
    root = Fraction(-1) / c
    if rng.random() < 0.5:                    # a multiple of b: (1 + c x) * q
        qs = {e: Fraction(rng.randint(1, 5)) for e in rng.sample(range(-6, 7), 3)}
        a: dict = {}
        for e, v in qs.items():
            for f, w in ((0, Fraction(1)), (1, Fraction(c))):
                m = ((0, e + f),) if e + f else ()
                a[m] = a.get(m, Fraction(0)) + v * w
        a = {m: v for m, v in a.items() if v}
    else:
        a = {(((0, e),) if e else ()): Fraction(rng.randint(-5, 5))
             for e in rng.sample(range(-40, 41), 4)}
        a = {m: v for m, v in a.items() if v}
    if not a:
        return
    divides = _value(a, root) == 0
    if not_divisible(a, b):
        assert not divides
    if not divides:
        # a non-root is always seen by the image (p does not divide a(-1/c) here)
        assert not_divisible(a, b)
