"""Local working precisions for Arb (python-flint) and mpmath.

Neither library's global precision is ever left changed: :func:`arb_precision`
restores ``flint.ctx.prec`` on exit, and :func:`mp_context` returns a private
mpmath context, so the global ``mpmath.mp`` plays no part in any result.

>>> import flint
>>> before = flint.ctx.prec
>>> with arb_precision(200):
...     flint.ctx.prec
200
>>> flint.ctx.prec == before
True
>>> digits_to_bits(50)
167
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from typing import Iterator

import flint
import mpmath

from ..errors import NumericError

__all__ = ["arb_precision", "digits_to_bits", "mp_context", "MAX_BITS", "MAX_BALL_DIGITS"]

MAX_BITS = 1 << 16
GUARD_BITS = 20
# the most decimal digits a ball may be asked for: with its guard bits within MAX_BITS
MAX_BALL_DIGITS = math.floor((MAX_BITS - GUARD_BITS) / math.log2(10))


def digits_to_bits(digits: int) -> int:
    """Bits needed to hold ``digits`` significant decimal digits (rounded up).

    >>> digits_to_bits(15), digits_to_bits(100)
    (50, 333)
    """
    if digits < 1:
        raise NumericError(f"digits must be positive, got {digits}")
    return math.ceil(digits * math.log2(10))


@contextmanager
def arb_precision(bits: int) -> Iterator[int]:
    """Set Arb's working precision to ``bits`` inside the block, then restore it.

    >>> with arb_precision(10):
    ...     (flint.arb(1) / 3).rad() > 1e-4
    True
    """
    if not 2 <= bits <= MAX_BITS:
        raise NumericError(f"precision of {bits} bits is outside [2, {MAX_BITS}]")
    old = flint.ctx.prec
    flint.ctx.prec = int(bits)
    try:
        yield int(bits)
    finally:
        flint.ctx.prec = old


def mp_context(digits: int) -> "mpmath.ctx_mp.MPContext":
    """A private mpmath context with ``digits`` decimal digits (``mpmath.mp`` untouched).

    >>> ctx = mp_context(30)
    >>> ctx.nstr(ctx.mpf(1) / 3, 30)
    '0.333333333333333333333333333333'
    """
    if digits < 1:
        raise NumericError(f"digits must be positive, got {digits}")
    ctx = mpmath.MPContext()
    ctx.dps = int(digits)
    return ctx
