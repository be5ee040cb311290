"""The exact identity of a fused head with its multi-head, in FLINT integer polynomials.

A fusion ``N/D`` equals ``M = Σ_h N_h/D_h`` exactly when the cross-multiplied
polynomials agree (THEORY §3, Theorem 2: exponentials with distinct frequencies
are linearly independent, so an identity of functions is one of polynomials).
Each head's ``N_h/D_h`` and the fusion's ``N/D`` are shifted by monomials that
cancel in each ratio, so the identity is checked on the stored polynomials:

* **every** ``D_h`` **divides** ``D`` (the product and lcm fusions, and the
  reduced one when no factor cancels between heads): ``q_h = D / D_h`` by exact
  division, and ``N = Σ_h q_h·N_h`` term by term.  Linear in the heads, each
  step the size of the fusion.
* **otherwise** (a factor cancelled): ``L = lcm(D_h)``, ``S = Σ_h N_h·(L/D_h)``,
  so ``M = S/L``; with ``g = gcd(L, D)``, ``N/D = S/L`` iff
  ``N·(L/g) = S·(D/g)``.

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
attnproof.errors.AlgebraError: the fused head differs from the multi-head: N != Σ_h (D/D_h)·N_h in value component 0 (internal error)
"""

from __future__ import annotations

from flint.utils.flint_exceptions import DomainError

from ..errors import AlgebraError
from ..model import MultiHead
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


def fusion_identity(frac: ExpFraction, M: MultiHead) -> str:
    """Raise :class:`AlgebraError` unless ``frac`` (``N/D``) equals ``Σ_h N_h/D_h`` over
    the heads of ``M`` (on ``frac``'s lattice) as rational functions; return the path
    taken, ``"divides"`` or ``"lcm"``.

    >>> from attnproof.model import Atom, Head, MultiHead
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
    if D.is_zero() or len(frac.num) != M.value_dim:
        raise AlgebraError("the fused head has no denominator or the wrong number of "
                           "value components (internal error)")
    quotients = []
    for f in heads:
        try:
            quotients.append(D / f.den)
        except DomainError:
            break
    if len(quotients) == len(heads):
        for c, n in enumerate(frac.num):
            s = ctx.from_dict({})
            for q, f in zip(quotients, heads):
                s += q * f.num[c]
            if s != n:
                raise AlgebraError("the fused head differs from the multi-head: "
                                   f"N != Σ_h (D/D_h)·N_h in value component {c} (internal error)")
        return "divides"
    L = heads[0].den
    for f in heads[1:]:
        L = L * (f.den / checked_gcd(L, f.den))
    g = checked_gcd(L, D)
    Lg, Dg = L / g, D / g
    for c, n in enumerate(frac.num):
        s = ctx.from_dict({})
        for f in heads:
            s += f.num[c] * (L / f.den)
        if n * Lg != s * Dg:
            raise AlgebraError("the fused head differs from the multi-head: "
                               f"N·L != S·D in value component {c} (internal error)")
    return "lcm"
