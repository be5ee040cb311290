"""Query points: exact rationals, reproducible random samples, float arrays.

Every query used by a rigorous check is a tuple of :class:`~fractions.Fraction`;
floats are converted exactly (``Fraction(float)`` is the binary value itself).

>>> random_queries(2, 2, seed=1)
((Fraction(-29, 20), Fraction(331, 1000)), (Fraction(1471, 1000), Fraction(643, 500)))
>>> format_query((Fraction(1, 3), Fraction(2)))
['1/3', '2']
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Sequence

import numpy as np

from ..errors import InputError, LimitError

__all__ = ["Query", "random_queries", "queries_from_array", "format_query", "random_query_array"]

Query = tuple[Fraction, ...]


MAX_RANDOM_COORDINATES = 4_000_000     # exact query coordinates drawn at once (Fractions)


def random_queries(dim: int, count: int, seed: int = 0, scale: int = 2,
                   resolution: int = 1000, coordinates: Sequence[int] | None = None
                   ) -> tuple[Query, ...]:
    """``count`` reproducible queries in ``[-scale, scale]^dim`` with denominator ``resolution``.

    With ``coordinates`` only those coordinates are drawn and the others are 0:
    for heads whose keys are sparse in a large dimension the other coordinates
    change nothing, and drawing them would cost ``count × dim``.

    >>> random_queries(1, 3, seed=0, scale=1, resolution=10)
    ((Fraction(1, 5),), (Fraction(3, 10),), (Fraction(-9, 10),))
    >>> random_queries(4, 1, seed=0, scale=1, resolution=10, coordinates=[2])
    ((Fraction(0, 1), Fraction(0, 1), Fraction(1, 5), Fraction(0, 1)),)
    """
    if dim < 0 or count < 0:
        raise InputError("queries need dim >= 0 and count >= 0")
    drawn = count * (dim if coordinates is None else len(coordinates))
    if drawn > MAX_RANDOM_COORDINATES:
        raise LimitError(f"{count} random queries would draw {drawn} exact coordinates, over the "
                         f"limit {MAX_RANDOM_COORDINATES} (ask for fewer samples)")
    rng = random.Random(seed)
    span = scale * resolution
    if coordinates is None:
        return tuple(tuple(Fraction(rng.randint(-span, span), resolution) for _ in range(dim))
                     for _ in range(count))
    zero = Fraction(0)
    out = []
    for _ in range(count):
        q = [zero] * dim
        for j in coordinates:
            q[j] = Fraction(rng.randint(-span, span), resolution)
        out.append(tuple(q))
    return tuple(out)


def random_query_array(dim: int, count: int, seed: int = 0, scale: float = 2.0) -> np.ndarray:
    """``count × dim`` float64 queries, uniform in ``[-scale, scale]``, reproducible by seed.

    >>> random_query_array(3, 2, seed=0).shape
    (2, 3)
    """
    rng = np.random.default_rng(seed)
    return rng.uniform(-scale, scale, size=(count, dim))


def queries_from_array(a: np.ndarray, dim: int) -> tuple[Query, ...]:
    """Exact queries from a float array of shape ``(m, dim)`` (or ``(m,)`` when ``dim == 1``).

    >>> queries_from_array(np.array([[0.5, -0.25]]), 2)
    ((Fraction(1, 2), Fraction(-1, 4)),)
    """
    a = check_query_array(a, dim)
    return tuple(tuple(Fraction(float(x)) for x in row) for row in a)


def check_query_array(a, dim: int) -> np.ndarray:
    """Validate a query array: real, finite, two-dimensional with ``dim`` columns.

    >>> check_query_array(np.zeros(3), 1).shape
    (3, 1)
    """
    if not isinstance(a, np.ndarray):
        raise InputError("queries must be a NumPy array")
    if a.dtype.kind not in "iuf":
        raise InputError(f"queries must be a real numeric array, got dtype {a.dtype}")
    a = np.asarray(a, dtype=np.float64)
    if a.ndim == 1 and dim == 1:
        a = a.reshape(-1, 1)
    if a.ndim != 2 or a.shape[1] != dim:
        raise InputError(f"queries must have shape (m, {dim}), got {a.shape}")
    if not np.all(np.isfinite(a)):
        raise InputError("queries contain NaN or infinite values")
    return np.ascontiguousarray(a)


def format_query(q: Sequence[Fraction]) -> list[str]:
    """A query as exact rational strings (``"p/q"``, or an integer string)."""
    out = []
    for x in q:
        x = Fraction(x)
        out.append(str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}")
    return out


def query_digits(q: Sequence[Fraction], digits: int = 20) -> list[str]:
    """A query as decimal strings with ``digits`` significant digits (display only).

    >>> query_digits((Fraction(1, 3),), 5)
    ['0.33333']
    """
    out = []
    for x in q:
        x = Fraction(x)
        if x == 0:
            out.append("0")
            continue
        e = math.floor(math.log10(abs(x.numerator)) - math.log10(x.denominator))
        scaled = round(x * Fraction(10) ** (digits - 1 - e))
        out.append(_sci(scaled, e - digits + 1))
    return out


def _sci(mant: int, exp10: int) -> str:
    sign = "-" if mant < 0 else ""
    s = str(abs(mant))
    if exp10 >= 0:
        return sign + s + "0" * exp10
    k = -exp10
    if len(s) <= k:
        s = "0" * (k - len(s) + 1) + s
    return sign + s[:-k] + "." + s[-k:]
