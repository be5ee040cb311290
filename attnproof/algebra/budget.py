"""Size estimates made before any FLINT polynomial computation, so that none can crash.

python-flint aborts the whole process (SIGABRT) when a polynomial algorithm
asks for more memory than exists, and multivariate gcds misbehave when
exponents do not fit a machine word.  Keys that are binary floats, or decimals
with many digits, put the problem on a lattice whose exponents have tens to
hundreds of bits (THEORY §9): factoring, gcds and the reduced form are then out
of reach, while the exact geometry of :mod:`attnproof.geometry` (no polynomial
expanded) still works.

Every caller that hands head denominators or their products to FLINT's
``factor``/``gcd`` first asks :func:`flint_obstacle`; the caps are documented
here and in docs/real-keys.md.

* :data:`MAX_FLINT_DEGREE`: the largest degree, in any one lattice variable
  (``x_j`` or the bias variable ``z``), of the product of all head
  denominators.  Every polynomial of the reduced form, the lcm and the product
  fusion has at most this degree; gcds of trinomials already take seconds at
  ``2^20``.

>>> from attnproof.families import sigmoid_sum, float_multihead
>>> flint_obstacle(sigmoid_sum(1000)) is None
True
>>> print(flint_obstacle(float_multihead(2, 8, 4, seed=1)))      # doctest: +ELLIPSIS
lattice exponents of up to ... bits (degree ... in x...), over the 17-bit cap of exact polynomial algebra
"""

from __future__ import annotations

from ..errors import LimitError
from ..heads import MultiHead
from .lattice import Lattice

__all__ = ["MAX_FLINT_DEGREE", "MAX_FACTOR_DEGREE", "degree_spreads", "flint_obstacle",
           "head_flint_obstacle", "factor_obstacle", "require_flint"]

MAX_FLINT_DEGREE = 1 << 16
# FLINT's factoring is far slower than its gcd: a 4-term univariate polynomial of
# degree 4000 takes about 9 s, degree 16000 three minutes; degree 256 a few
# hundredths of a second.  Factor only below this degree in every variable.
MAX_FACTOR_DEGREE = 256


def degree_spreads(M: MultiHead, lattice: Lattice | None = None) -> list[int]:
    """Per lattice variable, ``Σ_h (max - min)`` of the head's exponents: the degree of ``Π_h D_h``.

    Integer arithmetic only (fast for long keys and thousands of variables).

    >>> from attnproof.families import sigmoid_sum
    >>> degree_spreads(sigmoid_sum(3))
    [1, 1, 1]
    """
    lat = lattice if lattice is not None else Lattice.of(M)
    return _spreads(([lat.sparse_exponent(a) for a in h.atoms] for h in M.heads), lat.nvars)


def _spreads(heads, nvars: int, combine=int.__add__) -> list[int]:
    """:func:`degree_spreads` from each head's sparse exponents (a list of ``((v, e), ...)``).

    ``combine`` joins the heads' spreads in a variable: the sum (the degree of the
    product) by default, ``max`` for the largest degree of one head.

    The spread ``max - min`` of a head's exponents in a variable (0 counted for a
    term without it) is the same over the distinct exponents as over the atoms,
    and unchanged by the shift of :func:`attnproof.algebra.sparse.head_polys`: so
    the head denominators (whose keys are those exponents) serve as well.

    >>> _spreads([[((0, 3),), ((0, -1), (1, 2))], [(), ((1, 5),)]], 2)
    [4, 7]
    """
    total = [0] * nvars
    for terms in heads:
        n = len(terms)
        lo: dict = {}
        hi: dict = {}
        uses: dict = {}
        for m in terms:
            for v, e in m:
                k = uses.get(v)
                if k is None:
                    uses[v] = 1
                    lo[v] = hi[v] = e
                    continue
                uses[v] = k + 1
                if e < lo[v]:
                    lo[v] = e
                elif e > hi[v]:
                    hi[v] = e
        for v, k in uses.items():
            if k < n:                          # some term has exponent 0 in v
                total[v] = combine(total[v], max(hi[v], 0) - min(lo[v], 0))
            else:
                total[v] = combine(total[v], hi[v] - lo[v])
    return total


def head_flint_obstacle(hp: list, lattice: Lattice) -> str | None:
    """None when every head denominator alone is within :data:`MAX_FLINT_DEGREE`
    (each may be factored and divided by FLINT, though their product may not be).

    ``hp``: the head polynomials (:func:`attnproof.algebra.sparse.head_polys`).
    Many small heads whose product is too long for the reduced form can still be
    certified factor by factor (THEORY §5, C1).

    >>> from attnproof.families import float_multihead
    >>> from attnproof.algebra.sparse import head_polys
    >>> M = float_multihead(2, 8, 4, seed=1)
    >>> lat = Lattice.of(M)
    >>> head_flint_obstacle(head_polys(M, lat), lat) is None
    False
    """
    spreads = _spreads((H.den for H in hp), lattice.nvars, max)
    deg = max(spreads, default=0)
    if deg <= MAX_FLINT_DEGREE:
        return None
    return f"a head of degree {_short(deg)} in one lattice variable"


def flint_obstacle(M: MultiHead, lattice: Lattice | None = None, hp: list | None = None) -> str | None:
    """None when FLINT may factor and take gcds of the head denominators, else why not.

    ``hp``: the head polynomials of ``M`` on ``lattice``
    (:func:`attnproof.algebra.sparse.head_polys`), when already built.
    """
    lat = lattice if lattice is not None else Lattice.of(M)
    spreads = (_spreads((H.den for H in hp), lat.nvars) if hp is not None
               else degree_spreads(M, lat))
    if not spreads:
        return None
    j = max(range(len(spreads)), key=lambda i: spreads[i])
    deg = spreads[j]
    if deg <= MAX_FLINT_DEGREE:
        return None
    name = lat.names[j]
    return (f"lattice exponents of up to {deg.bit_length()} bits (degree {_short(deg)} in {name}), "
            f"over the {MAX_FLINT_DEGREE.bit_length()}-bit cap of exact polynomial algebra")


def factor_obstacle(p) -> str | None:
    """None when FLINT may factor the polynomial ``p`` (an ``fmpz_mpoly``) at once, else why not.

    The cost of factoring grows steeply with the degree in one variable
    (:data:`MAX_FACTOR_DEGREE`), far below the cap of gcds and products.

    >>> import flint
    >>> x, = flint.fmpz_mpoly_ctx.get(("x",), "degrevlex").gens()
    >>> factor_obstacle(1 + x**3 + x**10) is None
    True
    >>> print(factor_obstacle(1 + x**3333 + x**10000))
    degree 10000 in one variable, over the 256 up to which polynomials are factored
    """
    degs = p.degrees() if len(p) else ()
    big = max(degs, default=0)
    if big <= MAX_FACTOR_DEGREE:
        return None
    return (f"degree {big} in one variable, over the {MAX_FACTOR_DEGREE} up to which "
            "polynomials are factored")


def _short(n: int) -> str:
    s = str(n)
    return s if len(s) <= 12 else f"~10^{len(s) - 1}"


def require_flint(M: MultiHead, what: str, hint: str, lattice: Lattice | None = None) -> None:
    """Raise :class:`LimitError` when ``what`` (a FLINT computation) is too large for ``M``.

    >>> from attnproof.families import float_multihead
    >>> require_flint(float_multihead(2, 3, 2, seed=0), "the reduced form", "try X")
    Traceback (most recent call last):
    ...
    attnproof.errors.LimitError: the reduced form needs polynomial algebra over lattice exponents of up to ... bits (...), over the 17-bit cap of exact polynomial algebra; try X
    """
    why = flint_obstacle(M, lattice)
    if why is not None:
        raise LimitError(f"{what} needs polynomial algebra over {why}; {hint}")
