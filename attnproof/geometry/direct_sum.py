"""Direct sums of heads (THEORY Lemma 9.5): linearly independent difference spaces.

``U_h = span{a - a_0 : a ∈ K_h}``.  The certificate names, per head, base
point 0 and a list of basis points ``B_h`` (the differences ``p_i - p_0``,
``i ∈ B_h``), an integer relation ``δ (p_j - p_0) = Σ_{i∈B_h} λ_i (p_i - p_0)``,
``δ > 0``, for every other point ``j``, and a prime ``p`` modulo which the union
of all the basis differences has full rank (so it has full rank over Q: a
non-zero minor modulo ``p`` is a non-zero integer).  Checking is one modular
elimination plus the relations, no rational elimination.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

__all__ = ["DirectSum", "direct_sum_certificate"]


@dataclass
class DirectSum:
    """``bases[h]``: basis point indices of head ``h`` (base point 0);
    ``relations[h]``: ``[(j, δ, (λ_i for i in bases[h]))]`` for the other points;
    ``prime``: the modular rank witness; ``dims``: ``dim U_h``."""

    bases: list = field(default_factory=list)
    relations: list = field(default_factory=list)
    prime: int = 0

    @property
    def dims(self) -> list[int]:
        return [len(b) for b in self.bases]


def direct_sum_certificate(heads_points: Sequence[Sequence[Sequence[int]]]) -> DirectSum | None:
    """A :class:`DirectSum` when the heads' difference spaces are linearly independent, else None."""
    raise NotImplementedError
