"""What the steps established so far: the typed :class:`State` every rule reads and extends.

docs/certificates.md §5: steps come in phases; the state keeps the bound factors
``(f_i, e_i)`` in order of appearance, the lower and upper bounds, the window
claims, the trust level, the shared work budget, and what the geometry steps
(§6.7-6.10) proved about the heads.  Helpers that read points off a polynomial
(``x_points``, ``x_vars``) live here because several rule families use them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from math import gcd

from .. import poly as P
from ..problem import Problem
from ..syntax import UNLIMITED, Budget

TRUST_ORDER = ("exact", "exact-modulo-flint", "window-refuted", "line-refuted", "numeric", "unknown")
SMALL_HEAD = 64        # heads with at most this many terms are indexed by their directions


@dataclass
class State:
    """What the steps established so far, and the work budget they share."""

    pb: Problem                                  # the parsed problem
    budget: Budget = UNLIMITED
    factors: list = field(default_factory=list)  # bound factors (poly, multiplicity)
    factor_text: str | None = None               # canonical text of the last irreducible factor
    listed: list = field(default_factory=list)   # (step, factor, its listed heads), until checked
    covered: set = field(default_factory=set)    # heads whose denominator is a bound factor's associate
    flint_used: bool = False
    lower: int | None = None
    upper: int | None = None
    windows: list = field(default_factory=list)
    window_steps: list = field(default_factory=list)
    step_index: int | None = None
    trust: str = "exact"
    problem_sha256: str | None = None
    # line refutations (THEORY Cor 12.2): the lower bound they raise, and their steps
    line_lower: int = 0
    line_steps: list = field(default_factory=list)
    # geometry (docs/certificates.md §6.7-6.10)
    chains: dict = field(default_factory=dict)       # head -> "simplex" | "chain"
    indecomposable: set = field(default_factory=set)  # heads with edge content above 1
    last_chain: int = -1
    generic: bool = False                            # generic_heads was checked
    complete: bool | None = None                     # a geometric vertex count is complete
    box: dict | None = None                          # difference_box, once computed
    # floors (docs/certificates.md §6.14)
    sub_sum: tuple | None = None                     # (factors kept, factors before) of a sub_sum
    edge_roots: bool = False                         # an edge_roots step raised the count (§6.16)
    # indexes built on demand
    _index: dict | None = None
    _hvars: list = field(default_factory=list)
    _dirs: dict | None = None
    _xvars: list = field(default_factory=list)

    def weaken(self, level: str) -> None:
        """Lower the trust level to ``level`` if it is weaker."""
        if TRUST_ORDER.index(level) > TRUST_ORDER.index(self.trust):
            self.trust = level

    def _head_index(self) -> dict:
        """Heads by variable (built once; ``_hvars``: each head's variables)."""
        if self._index is None:
            self._index = {}
            for h, D in enumerate(self.pb.den):
                self.budget.charge(P.size(D), "indexing the heads")
                self._hvars.append(P.variables(D))
                for v in self._hvars[-1]:
                    self._index.setdefault(v, []).append(h)
        return self._index

    def heads_with(self, vs: set) -> list:
        """Heads whose denominator involves every variable of ``vs``."""
        index = self._head_index()
        if not vs:
            return list(range(len(self.pb.den)))
        cands = index.get(min(vs, key=lambda v: len(index.get(v, ()))), ())
        self.budget.charge(len(cands), "matching factors to heads")
        return [h for h in cands if vs <= self._hvars[h]]

    def divisor_candidates(self, f: dict) -> list:
        """Heads whose denominator ``f`` may divide (every other one it does not).

        A divisor's varying variables vary in the multiple.  For a binomial ``f``
        with support ``{a, b}`` also by direction: if ``f | D`` then
        ``Newt(D) = [a, b] + Newt(D/f)``, and for a generic functional orthogonal
        to ``b - a`` the face of ``Newt(D)`` is a segment parallel to ``b - a``
        whose ends are support points of ``D``.  So ``D`` has two support points
        differing by a multiple of ``b - a``.  The same holds for any edge of
        ``Newt(f)``: every side of a triangle (three terms, not collinear) is one,
        so a trinomial ``f`` is matched by its first side.  Heads with at most ``SMALL_HEAD``
        terms are indexed by the primitive directions of their support
        differences; larger ones are always candidates.  The work per factor is
        the number of candidates, not the number of heads.
        """
        vs = P.variables(f)
        ms = list(f)
        if len(ms) not in (2, 3) or (len(ms) == 3 and primitive(P.mono_div(ms[1], ms[0]))
                                     == primitive(P.mono_div(ms[2], ms[0]))):
            return self.heads_with(vs)            # no binomial, no triangle: [a, b] may be no edge
        self._head_index()
        if self._dirs is None:
            self._dirs = {}                      # direction -> heads; None -> the large heads
            for h, D in enumerate(self.pb.den):
                if small := len(D) <= SMALL_HEAD:
                    self.budget.charge(len(D) * len(D) * (1 + max(len(m) for m in D)), "indexing the heads")
                for d in (primitive(P.mono_div(b, a)) for a, b in combinations(D, 2)) if small else [None]:
                    self._dirs.setdefault(d, set()).add(h)
        cands = sorted(self._dirs.get(primitive(P.mono_div(ms[1], ms[0])), set()) | self._dirs.get(None, set()))
        self.budget.charge(1 + len(cands), "matching factors to heads")
        return [h for h in cands if vs <= self._hvars[h]]

    def factor_xvars(self, j: int) -> set:
        """x variables of bound factor ``j`` (computed once)."""
        for f, _ in self.factors[len(self._xvars):]:
            self.budget.charge(P.size(f), "factor variables")
            self._xvars.append(x_vars(f, self.pb.dim))
        return self._xvars[j]


def primitive(g: tuple) -> tuple:
    """The primitive sparse vector parallel to ``g`` with first non-zero entry positive.

    >>> primitive(((1, -2), (4, 6)))
    ((1, 1), (4, -3))
    """
    k = gcd(*(x for _, x in g)) * (-1 if g and g[0][1] < 0 else 1)
    if k == 0:
        raise ValueError("zero vector")
    return tuple((v, x // k) for v, x in g)


def x_points(f: dict, dim: int) -> list:
    """Distinct projections of ``supp(f)`` on the x variables (sparse monomials, lex order).

    Projection keeps the ``(variable, exponent)`` pairs: ``x_0`` and ``x_1`` stay two points.

    >>> x_points({((0, 1), (2, 1)): 1, ((2, 3),): 1}, 2)       # z (index 2) dropped
    [(), ((0, 1),)]
    >>> len(x_points({((0, 1),): 1, ((1, 1),): 1}, 2))
    2
    """
    return sorted({tuple(pr for pr in m if pr[0] < dim) for m in f}, key=P.lex_key)


def x_vars(f: dict, dim: int) -> set:
    """x variables (index < dim) whose exponent varies over ``supp(f)``.

    >>> sorted(x_vars({((0, 1), (2, 1)): 1, ((2, 3),): 1}, 2))
    [0]
    """
    return {v for v in P.variables(f) if v < dim}
