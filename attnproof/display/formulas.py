"""SymPy expressions of heads and reduced forms, for display only (unicode and LaTeX).

Nothing here is used to prove anything: exact work is done by FLINT.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.fusion import reduced_form
>>> r = reduced_form(sigmoid_sum(2))
>>> print(fraction_text(r.P[0], r.Q, r.lattice))
(2*x1*x2 + x1 + x2)/((x1 + 1)*(x2 + 1))
>>> print(legend(r.lattice))
x1 = e^(q1), x2 = e^(q2)
"""

from __future__ import annotations

from typing import Any

from ..algebra.expfrac import poly_to_dict
from ..algebra.lattice import Lattice

__all__ = ["poly_expr", "factored_expr", "fraction_expr", "fraction_text", "legend"]


def _symbols(lattice: Lattice) -> list:
    import sympy

    return list(sympy.symbols(lattice.names, positive=True)) if lattice.nvars else []


def poly_expr(p: Any, lattice: Lattice):
    """A polynomial (``fmpz_mpoly``) as a SymPy expression in ``x1..xd, z``.

    >>> from attnproof.algebra import poly_context
    >>> ctx = poly_context(Lattice(1, (1,)))
    >>> poly_expr(ctx.from_dict({(1,): 2, (0,): 1}), Lattice(1, (1,)))
    2*x1 + 1
    """
    import sympy

    syms = _symbols(lattice)
    terms = []
    for e, c in sorted(poly_to_dict(p).items(), reverse=True):
        t = sympy.Integer(c)
        for s, k in zip(syms, e):
            if k:
                t *= s ** k
        terms.append(t)
    return sympy.Add(*terms)


def factored_expr(p: Any, lattice: Lattice):
    """A polynomial as a product of its irreducible factors (factored by FLINT).

    >>> from attnproof.algebra import poly_context
    >>> lat = Lattice(1, (1,))
    >>> factored_expr(poly_context(lat).from_dict({(2,): 2, (0,): -2}), lat)
    2*(x1 - 1)*(x1 + 1)
    """
    import sympy

    content, factors = p.factor()
    parts = [] if int(content) == 1 else [sympy.Integer(int(content))]
    parts += [poly_expr(f, lattice) ** int(m) for f, m in factors]
    return sympy.Mul(*parts, evaluate=False) if len(parts) > 1 else (parts[0] if parts else sympy.Integer(1))


def fraction_expr(num: Any, den: Any, lattice: Lattice, factor_den: bool = True):
    """``num/den`` as a SymPy expression (denominator factored unless told otherwise).

    >>> from attnproof.algebra import poly_context
    >>> lat = Lattice(1, (1,))
    >>> ctx = poly_context(lat)
    >>> fraction_expr(ctx.from_dict({(1,): 1}), ctx.from_dict({(2,): 1, (0,): -1}), lat)
    x1/((x1 - 1)*(x1 + 1))
    """
    import sympy  # noqa: F401  (a missing SymPy is reported before any work)

    d = factored_expr(den, lattice) if factor_den else poly_expr(den, lattice)
    return poly_expr(num, lattice) / d


def fraction_text(num: Any, den: Any, lattice: Lattice, style: str = "plain") -> str:
    """``num/den`` as text: ``plain`` (one line), ``unicode`` (2-D) or ``latex``.

    >>> from attnproof.algebra import poly_context
    >>> lat = Lattice(1, (1,))
    >>> ctx = poly_context(lat)
    >>> print(fraction_text(ctx.from_dict({(1,): 1}), ctx.from_dict({(1,): 1, (0,): 1}), lat, "latex"))
    \\frac{x_{1}}{x_{1} + 1}
    """
    import sympy

    n = poly_expr(num, lattice)
    d = factored_expr(den, lattice)
    if style == "latex":
        return sympy.latex(n / d)
    if style == "unicode":
        return sympy.pretty(n / d, use_unicode=True)
    ns, ds = sympy.sstr(n), sympy.sstr(d)
    if d == 1:
        return ns
    wrap = (lambda s: f"({s})") if len(n.args) > 1 and isinstance(n, sympy.Add) else (lambda s: s)
    return f"{wrap(ns)}/({ds})" if not isinstance(d, sympy.Symbol) else f"{wrap(ns)}/{ds}"


def legend(lattice: Lattice, style: str = "plain") -> str:
    """What the variables stand for: ``x_j = e^{q_j/s_j}`` and ``z = e^{1/L}``.

    >>> print(legend(Lattice(2, (1, 10), 3)))
    x1 = e^(q1), x2 = e^(q2/10), z = e^(1/3)
    """
    parts = []
    for j, s in enumerate(lattice.scales):
        q = f"q{j + 1}" if s == 1 else f"q{j + 1}/{s}"
        parts.append(f"x{j + 1} = e^{{{q}}}" if style == "latex" else f"x{j + 1} = e^({q})")
    if lattice.has_z:
        L = lattice.bias_scale
        ez = "e" if L == 1 else f"e^(1/{L})"
        parts.append(f"z = {ez}")
    return ", ".join(parts)
