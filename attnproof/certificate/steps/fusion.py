"""Steps of the upper bound (docs/certificates.md §6.4-6.5, THEORY §3, Theorem 2).

``product_fusion`` names the product fusion (the checker counts its distinct
keys without building it); ``explicit_fusion`` embeds a fused head, its atoms in
the order of their lattice exponents.

>>> product_fusion_step()
{'rule': 'product_fusion'}
>>> explicit_fusion_step({"atoms": [{"key": [1]}, {"key": [0]}]}, [(1,), (0,)])
{'rule': 'explicit_fusion', 'head': {'atoms': [{'key': [0]}, {'key': [1]}]}}
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["product_fusion_step", "explicit_fusion_step"]


def product_fusion_step() -> dict[str, Any]:
    """The ``product_fusion`` step."""
    return {"rule": "product_fusion"}


def explicit_fusion_step(head: dict, order: Sequence[tuple]) -> dict[str, Any]:
    """The ``explicit_fusion`` step of a head document whose atoms sort by ``order``
    (one key per atom: the lattice exponents)."""
    atoms = [a for _, a in sorted(zip(order, head["atoms"]), key=lambda t: t[0])]
    return {"rule": "explicit_fusion", "head": dict(head, atoms=atoms)}
