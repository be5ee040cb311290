"""Exact evaluation of heads at positive rational points of the lattice torus.

A point assigns a positive rational to every lattice variable: ``x_j`` (standing
for ``e^{q_j/s_j}``) and, with biases, ``z`` (standing for ``e^{1/L}``).  Two
expressions that agree as rational functions agree at every such point; the
tests use random points as an exact identity check (THEORY §2: an identity in
``z`` at ``z = e^{1/L}`` holds iff it holds identically).

>>> from fractions import Fraction as F
>>> from attnproof.heads import Atom, Head, MultiHead
>>> h = Head((Atom((F(1, 2),), (1,)), Atom((0,), (0,))))
>>> lat = Lattice.of(MultiHead((h,)))
>>> evaluate_head(h, lat, (F(3),))        # x1 = e^{q/2} = 3, so e^{q/2} / (1 + e^{q/2})
(Fraction(3, 4),)
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Sequence

from ..errors import AlgebraError
from ..heads import Head, MultiHead
from .lattice import Lattice

__all__ = ["evaluate_head", "evaluate_multihead", "random_point"]


def evaluate_head(head: Head, lattice: Lattice, point: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """Exact ``H`` at a point of the lattice torus, computed atom by atom.

    >>> from attnproof.families import biased_sigmoid_sum
    >>> M = biased_sigmoid_sum([1])             # sigma(q + 1): x1 = e^q, z = e
    >>> evaluate_head(M.heads[0], Lattice.of(M), (Fraction(1), Fraction(2)))
    (Fraction(2, 3),)
    """
    if len(point) != lattice.nvars:
        raise AlgebraError(f"point has {len(point)} coordinates, lattice has {lattice.nvars}")
    pt = [Fraction(v) for v in point]
    num = [Fraction(0)] * head.value_dim
    den = Fraction(0)
    for a in head.atoms:
        t = a.weight
        for e, v in zip(lattice.exponent(a), pt):
            if e:
                t *= v ** e
        den += t
        for c, val in enumerate(a.value):
            if val:
                num[c] += t * val
    return tuple(n / den for n in num)


def evaluate_multihead(M: MultiHead, lattice: Lattice, point: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """Exact ``Σ_h H_h`` at a point of the lattice torus.

    >>> from attnproof.families import sigmoid_sum
    >>> M = sigmoid_sum(2)
    >>> evaluate_multihead(M, Lattice.of(M), (Fraction(1), Fraction(3)))
    (Fraction(5, 4),)
    """
    total = [Fraction(0)] * M.value_dim
    for h in M.heads:
        for c, v in enumerate(evaluate_head(h, lattice, point)):
            total[c] += v
    return tuple(total)


def random_point(lattice: Lattice, rng: random.Random, max_num: int = 9) -> tuple[Fraction, ...]:
    """A random point with positive rational coordinates ``p/q``, ``1 <= p, q <= max_num``.

    >>> random_point(Lattice(2, (1, 1)), random.Random(0))
    (Fraction(1, 1), Fraction(1, 5))
    """
    return tuple(Fraction(rng.randint(1, max_num), rng.randint(1, max_num)) for _ in range(lattice.nvars))
