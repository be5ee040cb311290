"""The ``newton_blocks`` step (docs/certificates.md §6.3, THEORY §4: Theorem 3, Lemmas 5-7).

Factors in disjoint sets of variables form blocks; each block is counted by a
named method, or by its listed vertices with functionals.

>>> from attnproof.bounds.lower import Block
>>> newton_blocks_step([Block([0, 1], [0, 1], "zonotope_independent", 4)])
{'rule': 'newton_blocks', 'blocks': [{'factors': [0, 1], 'method': 'zonotope_independent'}]}
"""

from __future__ import annotations

from typing import Any, Sequence

from ...bounds.lower import Block
from ...bounds.zonotope import graph_hint

__all__ = ["newton_blocks_step"]


def newton_blocks_step(blocks: Sequence[Block]) -> dict[str, Any]:
    """The step that counts the vertices of ``Newt(R)`` block by block."""
    out = []
    for b in blocks:
        bd: dict[str, Any] = {"factors": list(b.factors), "method": b.method}
        if b.method == "vertices":
            bd["vertices"] = [[list(u), list(c)] for u, c in (b.vertices or [])]
        if b.method == "zonotope_graphic":      # the checker verifies the blocks, finds none
            bd["graph_blocks"] = graph_hint(b.graph or [])
        out.append(bd)
    return {"rule": "newton_blocks", "blocks": out}
