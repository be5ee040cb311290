"""The ``planar_vertices`` step (docs/certificates.md §6.12, THEORY Lemma 9.4 in the plane).

The vertices of a sum of polygons are counted by the checker from the hulls it
builds itself, so the step carries no data.

>>> planar_vertices_step()
{'rule': 'planar_vertices'}
"""

from __future__ import annotations

from typing import Any

__all__ = ["planar_vertices_step"]


def planar_vertices_step() -> dict[str, Any]:
    """The ``planar_vertices`` step: counted by the checker from the hulls."""
    return {"rule": "planar_vertices"}
