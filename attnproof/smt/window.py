"""Search windows: the finite sets of lattice points where ``G`` may have terms.

A *box* window of radius ``w`` holds the points of the frame's sublattice whose
free coordinates lie in ``[-w, w]`` (dependent coordinates solved from the
lineality, THEORY §6 and :mod:`attnproof.smt.lineality`).  A *points* window
is an explicit list of exponent vectors.  Exponents are those of ``G`` on the
problem's exponent lattice: ``G = 1`` is the origin.

>>> from attnproof.smt.lineality import full_frame
>>> w = box_window(full_frame(2), 1)
>>> len(w.points), w.to_dict()
(9, {'kind': 'box', 'radius': 1, 'coordinates': [0, 1]})
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Sequence

from ..display import fields_repr
from ..errors import InputError, LimitError
from .lineality import Frame

__all__ = ["Window", "box_window", "points_window", "parse_window", "MAX_WINDOW_POINTS"]

MAX_WINDOW_POINTS = 100_000


@dataclass(frozen=True, repr=False)
class Window:
    """A finite, sorted set of exponent vectors, with how it was described."""

    kind: str
    points: tuple[tuple[int, ...], ...]
    radius: int | None = None
    coordinates: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The description used in results and certificates.

        >>> points_window([(0, 1), (0, 0)], 2).to_dict()
        {'kind': 'points', 'points': [[0, 0], [0, 1]]}
        """
        if self.kind == "box":
            return {"kind": "box", "radius": self.radius, "coordinates": list(self.coordinates)}
        return {"kind": "points", "points": [list(p) for p in self.points]}

    def free_part(self, p: Sequence[int]) -> tuple[int, ...]:
        """A point's free coordinates (all coordinates for a points window).

        >>> from attnproof.smt.lineality import full_frame
        >>> box_window(full_frame(2), 1).free_part((1, -1))
        (1, -1)
        """
        if self.kind == "box":
            return tuple(p[j] for j in self.coordinates)
        return tuple(p)

    def __len__(self) -> int:
        return len(self.points)

    def __repr__(self) -> str:
        """Short: how it was described and how many points it has.

        >>> from attnproof.smt.lineality import full_frame
        >>> box_window(full_frame(2), 1)
        Window(kind='box', radius=1, coordinates=(0, 1), points=9)
        """
        return fields_repr("Window", kind=self.kind, radius=self.radius,
                           coordinates=self.coordinates or None, points=len(self.points))


def box_window(frame: Frame, radius: int) -> Window:
    """The points of the frame's sublattice with free coordinates in ``[-radius, radius]``.

    >>> from attnproof.smt.lineality import Frame
    >>> from fractions import Fraction as F
    >>> f = Frame(3, (0, 1), (2,), ((1, 1, 1),), ((F(-1), F(-1)),))
    >>> box_window(f, 1).points[:2]
    ((-1, -1, 2), (-1, 0, 1))
    """
    if not isinstance(radius, int) or isinstance(radius, bool) or radius < 0:
        raise InputError(f"window radius must be a non-negative integer, got {radius!r}")
    n = (2 * radius + 1) ** len(frame.free)
    if n > MAX_WINDOW_POINTS:
        raise LimitError(f"a box window of radius {radius} in {len(frame.free)} coordinates has "
                         f"{n} points, over the limit {MAX_WINDOW_POINTS}; use a smaller --window")
    pts = []
    for a in itertools.product(range(-radius, radius + 1), repeat=len(frame.free)):
        t = frame.lift(a)
        if t is not None:
            pts.append(t)
    return Window("box", tuple(sorted(pts)), radius, frame.free)


def points_window(points: Sequence[Sequence[int]], dim: int) -> Window:
    """An explicit window; every point needs ``dim`` integer coordinates.

    >>> points_window([[1, 2]], 3)
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: window point 0 has 2 coordinates, the problem has 3
    """
    pts = set()
    for i, p in enumerate(points):
        if not isinstance(p, (list, tuple)):
            raise InputError(f"window point {i} is not a list of integers")
        if len(p) != dim:
            raise InputError(f"window point {i} has {len(p)} coordinates, the problem has {dim}")
        for x in p:
            if isinstance(x, bool) or not isinstance(x, int):
                raise InputError(f"window point {i}: coordinates must be integers, got {x!r}")
        pts.add(tuple(int(x) for x in p))
    if not pts:
        raise InputError("the window has no points")
    if len(pts) > MAX_WINDOW_POINTS:
        raise LimitError(f"the window has {len(pts)} points, over the limit {MAX_WINDOW_POINTS}")
    return Window("points", tuple(sorted(pts)))


def parse_window(text: str) -> int | list:
    """A ``--window`` argument: a radius (``2``) or a JSON list of points (``[[0,0],[1,0]]``).

    >>> parse_window("2"), parse_window("[[0, 1]]")
    (2, [[0, 1]])
    """
    from ..io import loads_json

    s = text.strip()
    if s.startswith("["):
        obj = loads_json(s)
        if not isinstance(obj, list):
            raise InputError("--window: expected a radius or a JSON list of points")
        return obj
    if not s.isascii() or not s.isdigit() or len(s) > 4:
        raise InputError(f"--window {text!r}: give a radius (a small non-negative integer) "
                         f"or a JSON list of points such as [[0,0],[1,0]]")
    return int(s)
