"""An independent high-precision evaluator in mpmath (not rigorous; a cross-check for balls).

It shares no code with :mod:`attnproof.numeric.balls`: logits are exact
:class:`~fractions.Fraction` dot products, the log-sum-exp shift is the exact
maximum logit, and the arithmetic runs in a private mpmath context
(:func:`~attnproof.numeric.precision.mp_context`), so ``mpmath.mp.dps`` never
influences a result.

>>> from fractions import Fraction as F
>>> from attnproof.families import sigmoid_sum
>>> [str(v[0]) for v in evaluate_mpmath(sigmoid_sum(1), [(F(0),), (F(10000),)], digits=20)]
['0.5', '1.0']
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Sequence, Union

from ..errors import InputError
from ..heads import Head, MultiHead
from .precision import mp_context

__all__ = ["evaluate_mpmath", "mp_head_value", "mpf_to_fraction"]


def mpf_to_fraction(x) -> Fraction:
    """The exact binary value of an mpmath number (no rounding through ``mpmath.mp``).

    >>> from attnproof.numeric.precision import mp_context
    >>> ctx = mp_context(30)
    >>> mpf_to_fraction(ctx.mpf(-3) / 8)
    Fraction(-3, 8)
    """
    man, exp = x.man_exp
    val = Fraction(abs(int(man))) * Fraction(2) ** int(exp)
    return -val if x < 0 else val


def _mpq(ctx, x: Fraction):
    x = Fraction(x)
    return ctx.mpf(x.numerator) / x.denominator


def mp_head_value(ctx, head: Head, q: Sequence[Fraction]) -> tuple:
    """``H(q)`` in the mpmath context ``ctx`` with the exact max-logit shift.

    >>> from attnproof.heads import Atom
    >>> from attnproof.numeric.precision import mp_context
    >>> ctx = mp_context(15)
    >>> h = Head((Atom((1,), (1,), weight=3), Atom((0,), (0,))))
    >>> mp_head_value(ctx, h, (Fraction(0),))
    (mpf('0.75'),)
    """
    logits = []
    for a in head.atoms:
        t = a.bias
        for k, x in zip(a.key, q):
            if k:
                t += k * x
        logits.append(t)
    top = max(logits)
    den = []
    nums: list[list] = [[] for _ in range(head.value_dim)]
    for a, t in zip(head.atoms, logits):
        e = _mpq(ctx, a.weight) * ctx.exp(_mpq(ctx, t - top))
        den.append(e)
        for c, v in enumerate(a.value):
            if v:
                nums[c].append(e * _mpq(ctx, v))
    total = ctx.fsum(den)
    return tuple(ctx.fsum(n) / total for n in nums)


def evaluate_mpmath(obj: Union[Head, MultiHead], queries: Iterable[Sequence[Fraction]],
                    digits: int = 30) -> list[tuple]:
    """Values of a head or multi-head at exact queries, ``digits`` digits, in a private context.

    The returned numbers are ``mpf`` of that private context; ``str()`` or
    ``ctx.nstr`` them, or compare with balls.

    >>> from attnproof.families import biased_sigmoid_sum
    >>> (v,), = evaluate_mpmath(biased_sigmoid_sum([1]), [(Fraction(-1),)], digits=25)
    >>> str(v)
    '0.5'
    """
    heads = obj.heads if isinstance(obj, MultiHead) else (obj,)
    if not isinstance(obj, (Head, MultiHead)):
        raise InputError(f"expected a Head or MultiHead, got {type(obj).__name__}")
    ctx = mp_context(digits)
    out = []
    for q in queries:
        q = tuple(Fraction(x) for x in q)
        if len(q) != heads[0].dim:
            raise InputError(f"query has {len(q)} coordinates, the head has dimension {heads[0].dim}")
        total = [ctx.mpf(0)] * heads[0].value_dim
        for h in heads:
            total = [a + b for a, b in zip(total, mp_head_value(ctx, h, q))]
        out.append(tuple(total))
    return out
