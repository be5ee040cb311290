"""Steps of the upper bound (docs/certificates.md §6.4-6.5, THEORY §3, Theorem 2).

``product_fusion`` names the product fusion (the checker counts its distinct
keys without building it); ``explicit_fusion`` embeds a fused head, its atoms in
the order of their lattice exponents.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.fusion import fuse
>>> product_fusion_step()
{'rule': 'product_fusion'}
>>> [a["key"] for a in explicit_fusion_step(fuse(sigmoid_sum(2)))["head"]["atoms"]]
[[0, 0], [0, 1], [1, 0], [1, 1]]
"""

from __future__ import annotations

from typing import Any

from ...fusion import ClassProductFusion, Fusion
from ...io import problem_to_dict

__all__ = ["product_fusion_step", "explicit_fusion_step"]


def product_fusion_step() -> dict[str, Any]:
    """The ``product_fusion`` step."""
    return {"rule": "product_fusion"}


def explicit_fusion_step(fusion: Fusion) -> dict[str, Any]:
    """The ``explicit_fusion`` step of a fused head, its atoms sorted by their lattice
    exponents (:meth:`~attnproof.fusion.Fusion.order_keys`).  The class product of long
    keys (THEORY §9) is written with exact rationals, the others as their documents."""
    doc = (problem_to_dict(fusion.to_multihead(name=None)) if isinstance(fusion, ClassProductFusion)
           else fusion.to_problem_dict(name=None))
    head = doc["heads"][0]
    order = fusion.order_keys()
    atoms = [a for _, a in sorted(zip(order, head["atoms"]), key=lambda t: t[0])]
    return {"rule": "explicit_fusion", "head": dict(head, atoms=atoms)}
