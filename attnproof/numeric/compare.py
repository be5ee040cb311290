"""Rigorous comparison of a multi-head with a claimed fusion at query points (THEORY §7).

At each query the difference ``M(q) - H(q)`` is enclosed in a ball, with the
precision raised (doubling) from ``digits`` up to the cap ``max_digits``:

* a difference ball that excludes 0, at any precision, is a **rigorous
  refutation** of ``H = M``;
* balls that still contain 0 at the cap and are narrower than
  ``10^-digits · (1 + |M(q)|)`` at every query make the verdict **consistent**:
  evidence, never a proof;
* balls that contain 0 but are wider than that at the cap make the verdict
  **undecided** for that query (reported, never guessed).

Arb comparisons are False when undecided, so exclusion is tested as
``diff > 0 or diff < 0``, never as ``not (diff == 0)``.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.fusion import fuse
>>> M = sigmoid_sum(3)
>>> ball_compare(M, fuse(M).to_head(), samples=4).verdict
'consistent'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Optional, Sequence, Union

import flint

from ..errors import InputError, NumericError
from ..heads import Head, MultiHead
from .balls import arb_of, evaluate_balls, table_of
from .mp import evaluate_mpmath, mpf_to_fraction
from .precision import GUARD_BITS, MAX_BALL_DIGITS, MAX_BITS, arb_precision, digits_to_bits
from .queries import Query, format_query, query_digits, random_queries
from ..parallel.tasks import Progress

__all__ = ["BallCheck", "Refutation", "ball_compare", "quick_ball_check", "ball_sign", "cross_check",
           "DEFAULT_DIGITS", "DEFAULT_SAMPLES"]

DEFAULT_DIGITS = 50
DEFAULT_SAMPLES = 16

HeadLike = Union[Head, MultiHead]


def ball_text(x: "flint.arb", digits: int = 25) -> str:
    """A ball as ``[mid +/- rad]`` text with ``digits`` digits of the midpoint.

    >>> with arb_precision(100):
    ...     ball_text(flint.arb(1) / 3, 10)
    '[0.3333333333 +/- 3.34e-11]'
    """
    return x.str(digits, radius=True, more=True)


@dataclass(frozen=True)
class Refutation:
    """A query where the difference ball excludes 0: a rigorous proof that ``H ≠ M``."""

    index: int
    query: Query
    component: int
    difference: str
    multihead_value: str
    fused_value: str
    bits: int
    sign: int

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the query as exact rational strings and 25-digit decimals.

        >>> r = Refutation(0, (Fraction(1, 3),), 0, "[1e-30 +/- 1e-60]", "[1 +/- 0]", "[1 +/- 0]", 187, 1)
        >>> r.to_dict()["query"], r.to_dict()["query_decimal"]
        (['1/3'], ['0.3333333333333333333333333'])
        """
        return {"index": self.index, "query": format_query(self.query),
                "query_decimal": query_digits(self.query, 25), "component": self.component,
                "difference": self.difference, "multihead_value": self.multihead_value,
                "fused_value": self.fused_value, "precision_bits": self.bits,
                "sign": self.sign}


@dataclass(frozen=True)
class BallCheck:
    """The outcome of :func:`ball_compare`.

    ``verdict`` is ``"refuted"`` (rigorous), ``"consistent"`` (agreement to
    ``digits`` digits at every query: evidence, not proof) or ``"undecided"``.
    """

    verdict: str
    digits: int
    max_digits: int
    seed: int
    queries: int
    checked: int
    refutation: Optional[Refutation] = None
    undecided: tuple[int, ...] = ()
    max_difference: str = "0"
    max_bits: int = 0
    notes: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """True for a consistent verdict.

        >>> BallCheck("undecided", 50, 200, 0, 4, 4, undecided=(2,)).ok
        False
        """
        return self.verdict == "consistent"

    def summary(self) -> str:
        """One line describing the verdict and what it means.

        >>> BallCheck("consistent", 50, 200, 0, 4, 4, max_difference="1.00e-55").summary()
        'consistent at 4 queries: |difference| <= 1.00e-55 with balls at up to 200 digits (agreement to 50 digits required); numerical evidence, not a proof'
        """
        if self.verdict == "refuted":
            r = self.refutation
            if r is None:
                return "refuted (rigorous)"
            return (f"refuted (rigorous): at query #{r.index} the difference in component "
                    f"{r.component} is {r.difference}, a ball that excludes 0")
        if self.verdict == "undecided":
            return (f"undecided: at {len(self.undecided)} of {self.checked} queries the balls "
                    f"contain 0 but are wider than 1e-{self.digits} at {self.max_digits} digits")
        return (f"consistent at {self.checked} queries: |difference| <= {self.max_difference} "
                f"with balls at up to {self.max_digits} digits (agreement to {self.digits} digits "
                f"required); numerical evidence, not a proof")

    def to_dict(self) -> dict[str, Any]:
        """JSON form of the check.

        >>> d = BallCheck("undecided", 50, 200, 0, 4, 4, undecided=(2,)).to_dict()
        >>> d["verdict"], d["rigorous"], d["undecided_queries"]
        ('undecided', False, [2])
        """
        return {"verdict": self.verdict, "digits": self.digits, "max_digits": self.max_digits,
                "seed": self.seed, "queries": self.queries, "checked": self.checked,
                "refutation": self.refutation.to_dict() if self.refutation else None,
                "undecided_queries": list(self.undecided), "max_difference": self.max_difference,
                "max_precision_bits": self.max_bits, "rigorous": self.verdict == "refuted",
                "notes": list(self.notes), "summary": self.summary()}


def ball_sign(value: Callable[[], "flint.arb"], digits: int = 30,
              max_digits: int | None = None) -> int | None:
    """Sign of a quantity computed by ``value()`` under rising Arb precision; None if undecided.

    ``value`` is called at ``digits`` (in bits, plus guard bits) and again at
    doubled precision up to ``max_digits``; the sign is returned only when the
    ball excludes 0.

    >>> third = lambda: flint.arb(1) / 3 - flint.arb(flint.fmpq(333, 1000))
    >>> ball_sign(third, digits=10)
    1
    >>> tie = lambda: flint.arb(1) / 3 - flint.arb(1) / 3     # exactly 0: never decided
    >>> ball_sign(tie, digits=10, max_digits=40) is None
    True
    """
    for bits in _precisions(digits, max_digits):
        with arb_precision(bits):
            x = value()
            if x > 0:
                return 1
            if x < 0:
                return -1
    return None


def _precisions(digits: int, max_digits: int | None) -> list[int]:
    if digits < 1:
        raise InputError(f"--digits must be positive, got {digits}")
    cap = max_digits if max_digits is not None else min(2 * digits, MAX_BALL_DIGITS)
    if cap < digits:
        raise InputError(f"--max-digits {cap} is below --digits {digits}")
    if cap > MAX_BALL_DIGITS:
        raise InputError(f"{cap} digits is over the {MAX_BALL_DIGITS} digits of the largest ball "
                         f"precision ({MAX_BITS} bits)")
    bits = digits_to_bits(digits) + GUARD_BITS
    top = digits_to_bits(cap) + GUARD_BITS
    out = [bits]
    while out[-1] < top:
        out.append(min(2 * out[-1], top))
    return out


def used_coordinates(*objs: HeadLike) -> list[int] | None:
    """The key coordinates some atom uses, when they are at most half of the dimension
    (then random queries draw only those); None otherwise (every coordinate is drawn).

    >>> from attnproof.heads import Atom
    >>> used_coordinates(Head((Atom((0, 0, 0, 2), (1,)), Atom((0, 0, 0, 0), (0,)))))
    [3]
    """
    used: set = set()
    dim = 0
    for obj in objs:
        dim = obj.dim
        heads = obj.heads if isinstance(obj, MultiHead) else (obj,)
        for h in heads:
            for a in h.atoms:
                used.update(j for j, _ in a.sparse_key)
    return sorted(used) if 2 * len(used) <= dim else None


def _check_shapes(M: MultiHead | Head, H: MultiHead | Head) -> None:
    if M.dim != H.dim:
        raise InputError(f"the fused head has dimension {H.dim}, the problem has dimension {M.dim}")
    if M.value_dim != H.value_dim:
        raise InputError(f"the fused head has {H.value_dim} value components, "
                         f"the problem has {M.value_dim}")


def ball_compare(M: HeadLike, fused: HeadLike, queries: Sequence[Sequence[Fraction]] | None = None,
                 digits: int = DEFAULT_DIGITS, seed: int = 0, samples: int = DEFAULT_SAMPLES,
                 max_digits: int | None = None, progress: Progress = None) -> BallCheck:
    """Compare ``M`` with a claimed fusion at exact queries using balls.

    Without ``queries``, ``samples`` reproducible random queries in ``[-2, 2]^d``
    (seeded by ``seed``) are used.  Each query is evaluated at ``digits`` and at
    doubled precisions up to the cap ``max_digits`` (default ``2 * digits``), so a
    difference is found down to the cap's resolution.  Stops at the first
    refutation.

    >>> from attnproof.heads import Atom
    >>> sig = MultiHead((Head((Atom((1,), (1,)), Atom((0,), (0,)))),))
    >>> bad = Head((Atom((1,), (1,)), Atom((0,), (Fraction(1, 10**30),))))
    >>> r = ball_compare(sig, bad, samples=3)
    >>> r.verdict, r.refutation.sign
    ('refuted', -1)
    """
    _check_shapes(M, fused)
    tm, th = table_of(M), table_of(fused)
    if queries is None:
        queries = random_queries(M.dim, samples, seed, coordinates=used_coordinates(M, fused))
    qs = [tuple(x if type(x) is Fraction else Fraction(x) for x in q) for q in queries]
    for i, q in enumerate(qs):
        if len(q) != M.dim:
            raise InputError(f"query #{i} has {len(q)} coordinates, the problem has dimension {M.dim}")
    precs = _precisions(digits, max_digits)
    cap = max_digits if max_digits is not None else min(2 * digits, MAX_BALL_DIGITS)
    tol_exp = -digits
    undecided: list[int] = []
    worst = None
    max_bits = 0
    for i, q in enumerate(qs):
        for bits in precs:
            max_bits = max(max_bits, bits)
            with arb_precision(bits):
                a = tm.balls(q)
                b = th.balls(q)
                diffs = [x - y for x, y in zip(a, b)]
                for c, dlt in enumerate(diffs):
                    if dlt > 0 or dlt < 0:
                        shown = digits + 5
                        ref = Refutation(i, q, c, ball_text(dlt, shown), ball_text(a[c], shown),
                                         ball_text(b[c], shown), bits, 1 if dlt > 0 else -1)
                        low = float(abs(dlt).lower())      # the refuting difference counts too
                        worst = low if worst is None else max(worst, low)
                        return BallCheck("refuted", digits, cap, seed, len(qs), i + 1, ref,
                                         tuple(undecided), _mag_text(worst), max_bits)
                if bits == precs[-1]:
                    # at the cap: the balls contain 0; are they narrow enough to agree to `digits`?
                    scale = flint.arb(1)
                    for x in a:
                        scale = scale + abs(x).upper()
                    tol = flint.arb(10) ** tol_exp * scale
                    if all(dlt.rad() <= tol.lower() for dlt in diffs):
                        bound = max(float(abs(dlt).upper()) for dlt in diffs)
                        worst = bound if worst is None else max(worst, bound)
                    else:
                        undecided.append(i)
        if progress is not None:
            progress(i + 1, len(qs))
    verdict = "undecided" if undecided else "consistent"
    return BallCheck(verdict, digits, cap, seed, len(qs), len(qs), None, tuple(undecided),
                     _mag_text(worst), max_bits)


def _mag_text(x: float | None) -> str:
    if x is None or x == 0 or not math.isfinite(x):
        return "0" if x in (None, 0) else str(x)
    return f"{x:.2e}"


def quick_ball_check(M: HeadLike, head: HeadLike, seed: int = 0) -> BallCheck:
    """A fast ball check: 4 queries at 30 digits (cap 60); same result type as :func:`ball_compare`.

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.fusion import fuse
    >>> quick_ball_check(sigmoid_sum(2), fuse(sigmoid_sum(2)).to_head()).verdict
    'consistent'
    """
    return ball_compare(M, head, digits=30, max_digits=60, samples=4, seed=seed)


def cross_check(obj: HeadLike, queries: Sequence[Sequence[Fraction]], digits: int = 30) -> int:
    """Check that mpmath's values lie within ``10^-(digits-5)`` of the Arb balls; returns the count.

    Two independent evaluators (different code, different libraries) must agree;
    a disagreement is an internal error (:class:`~attnproof.errors.NumericError`).

    >>> from attnproof.families import biased_sigmoid_sum
    >>> cross_check(biased_sigmoid_sum([Fraction(1, 2), 3]), random_queries(2, 3), digits=30)
    3
    """
    qs = [tuple(Fraction(x) for x in q) for q in queries]
    balls = evaluate_balls(obj, qs, digits)
    mps = evaluate_mpmath(obj, qs, digits + 10)
    with arb_precision(digits_to_bits(2 * digits) + 64):
        tol = arb_of(Fraction(1, 10 ** max(digits - 5, 1)))
        for i, (brow, mrow) in enumerate(zip(balls, mps)):
            for c, (b, m) in enumerate(zip(brow, mrow)):
                if not abs(b - arb_of(mpf_to_fraction(m))) < tol * (1 + abs(b).upper()):
                    raise NumericError(f"Arb and mpmath disagree at query #{i}, component {c} "
                                       f"(internal error)")
    return len(qs)
