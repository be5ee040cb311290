"""The ``graph_minors`` step (docs/certificates.md §6.15, THEORY §13).

The step carries only the proof term of :func:`attnproof.bounds.graph_sums.minor_bound`;
the checker rebuilds the graph from the bound factors and every minor itself.

>>> graph_minors_step({"by": "cycle"})
{'rule': 'graph_minors', 'proof': {'by': 'cycle'}}
"""

from __future__ import annotations

from typing import Any

__all__ = ["graph_minors_step"]


def graph_minors_step(term: dict) -> dict[str, Any]:
    """The ``graph_minors`` step for a proof term."""
    return {"rule": "graph_minors", "proof": term}
