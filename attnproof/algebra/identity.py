"""The exact identity of a fused head with its multi-head, in FLINT integer polynomials.

A fusion ``N/D`` equals ``M = Σ_h N_h/D_h`` exactly when the cross-multiplied
polynomials agree (THEORY §3, Theorem 2: exponentials with distinct frequencies
are linearly independent, so an identity of functions is one of polynomials).
Each head's ``N_h/D_h`` and the fusion's ``N/D`` are shifted by monomials that
cancel in each ratio, so the identity is checked on the stored polynomials:

* **heads whose denominator divides** ``D`` (up to its integer content: the
  product and lcm fusions, the class product, and the reduced one when no factor
  cancels between heads): ``q_h = D / P_h`` by exact division, ``P_h`` the
  primitive part of ``D_h``; their sum is ``A/(C·D)`` with ``A = Σ_h N_h·q_h·(C/c_h)``.
  Linear in the heads, each step the size of the fusion.
* **constant heads** (every ``N_h = κ_h·D_h``) add ``κ_h·D``, whatever ``D``.
* **the other heads** (a factor cancelled, or a class folded as constant): summed
  over the lcm ``L`` of their primitive denominators, ``S/(C'·L)``; a gcd is taken
  only where ``P_h`` does not already divide ``L`` (associate heads need none).

The identity checked is ``N·C·C'·L = A·C'·L + S·C·D``, in ``Z[x]``.  FLINT keeps
exponents of any length, so this works for long keys too (THEORY §9) as long as
no gcd is needed.
Every division is FLINT's exact division (an inexact one is an error, never a
truncation) and every gcd is :func:`checked_gcd`'s, which is verified to divide
its arguments.  Nothing is evaluated at sample points.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.fusion import fuse
>>> f = fuse(sigmoid_sum(3))
>>> fusion_identity(f.frac, f.multihead)
'divides'
>>> bad = ExpFraction(f.frac.lattice, (f.frac.num[0] + 1,), f.frac.den, f.frac.shift)
>>> fusion_identity(bad, f.multihead)
Traceback (most recent call last):
...
attnproof.errors.AlgebraError: the fused head differs from the multi-head: N/D != Σ_h N_h/D_h in value component 0 (internal error)
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from flint.utils.flint_exceptions import DomainError

from ..errors import AlgebraError
from ..heads import MultiHead
from .expfrac import ExpFraction, head_fraction

__all__ = ["fusion_identity", "checked_gcd"]


def checked_gcd(a, b):
    """``gcd(a, b)`` from FLINT, verified: python-flint silently answers 0 when exponents
    overflow a machine word, so a zero gcd of non-zero inputs, or one that does not
    divide both, is an :class:`~attnproof.errors.AlgebraError` rather than a wrong answer.
    """
    g = a.gcd(b)
    if g.is_zero():
        if a.is_zero() and b.is_zero():
            return g
        raise AlgebraError("FLINT returned gcd 0 of non-zero polynomials (exponents too large)")
    for p in (a, b):
        if not p.is_zero() and not divmod(p, g)[1].is_zero():
            raise AlgebraError("FLINT returned a gcd that does not divide its arguments")
    return g


def _exact(a, b):
    """``a / b`` when ``b`` divides ``a`` in ``Z[x]`` (FLINT's exact division), else None."""
    try:
        return a / b
    except DomainError:
        return None


def _constant(f) -> list | None:
    """The value vector of a constant head (every ``N_k = κ_k·D``), or None."""
    e0 = f.den.monoms()[0]
    d0 = int(f.den[e0])
    out = []
    for n in f.num:
        n0 = int(n[e0])
        if n * d0 != f.den * n0:
            return None
        out.append(Fraction(n0, d0))
    return out


def fusion_identity(frac: ExpFraction, M: MultiHead, *, gcd: bool = True) -> str:
    """Raise :class:`AlgebraError` unless ``frac`` (``N/D``) equals ``Σ_h N_h/D_h`` over
    the heads of ``M`` (on ``frac``'s lattice) as rational functions; return the path
    taken: ``"divides"`` when every head is constant or has a denominator
    ``D_h = c_h·P_h`` whose primitive part divides ``D``, ``"lcm"`` otherwise.

    Constant heads add ``κ_h·D``; with ``q_h = D/P_h`` for the heads that divide (``C``
    a common denominator of their contents and of ``Σ κ_h``), they sum to ``A/(C·D)``,
    ``A = Σ_h N_h·q_h·(C/c_h) + C·Σ κ_h·D``; the others are summed over
    ``L = lcm P_h`` (a gcd only where ``P_h`` does not already divide ``L``) as
    ``S/(C'·L)``.  The identity is then ``N·C·C'·L = A·C'·L + S·C·D``, in integers.
    ``gcd=False`` (exponents too long for FLINT's gcd): a gcd needed is an
    :class:`AlgebraError` instead.

    >>> from attnproof.heads import Atom, Head, MultiHead
    >>> from attnproof.fusion import fuse
    >>> s = Head((Atom((1,), (1,)), Atom((0,), (0,))))       # σ(q)
    >>> t = Head((Atom((1,), (0,)), Atom((0,), (1,))))       # 1 - σ(q): the sum is 1
    >>> f = fuse(MultiHead((s, t)))
    >>> f.atoms, fusion_identity(f.frac, f.multihead)
    (1, 'lcm')
    """
    lat = frac.lattice
    ctx = frac.den.context()
    heads = [head_fraction(h, lat, ctx) for h in M.heads]
    D = frac.den
    m = M.value_dim
    if D.is_zero() or len(frac.num) != m:
        raise AlgebraError("the fused head has no denominator or the wrong number of "
                           "value components (internal error)")
    zero = ctx.from_dict({})
    one = ctx.from_dict({(0,) * ctx.nvars(): 1})
    K = [Fraction(0)] * m
    div, rest = [], []
    for f in heads:
        kappa = _constant(f)
        if kappa is not None:
            K = [a + b for a, b in zip(K, kappa)]
            continue
        c, P = f.den.primitive()
        q = _exact(D, P)
        if q is None:
            rest.append((f, int(c), P))
        else:
            div.append((f, int(c), q))
    C = lcm(*(c for _, c, _ in div), *(k.denominator for k in K))
    A = [sum((f.num[k] * q * (C // c) for f, c, q in div), D * int(K[k] * C)) for k in range(m)]
    L = one
    for _, _, P in rest:
        if _exact(L, P) is not None:
            continue
        if L == one:
            L = P
        elif not gcd:
            raise AlgebraError("the fused head needs a gcd of polynomials with exponents too "
                               "long for FLINT to check it against the multi-head (internal error)")
        else:
            L = L * (P / checked_gcd(L, P))
    Cr = lcm(*(c for _, c, _ in rest))
    S = [sum((f.num[k] * (L / P) * (Cr // c) for f, c, P in rest), zero) for k in range(m)]
    for k, n in enumerate(frac.num):
        if n * (C * Cr) * L != A[k] * Cr * L + S[k] * C * D:
            raise AlgebraError("the fused head differs from the multi-head: N/D != Σ_h N_h/D_h "
                               f"in value component {k} (internal error)")
    return "lcm" if rest else "divides"
