"""Line refutations: a lower bound for every fusion, no window (THEORY Lemma 12.1, Cor 12.2).

Let ``R = Π_i (1 + x^{g_i})`` be a product of binomial factors of the reduced
denominator ``Q`` with coefficient 1, primitive pairwise non-parallel
directions ``g_i`` (so ``R | Q``).  Every fusion's denominator ``D`` has
positive coefficients and ``Q | D``, hence ``R | D``; by Lemma 12.1 that
means: on every line ``s + Z·g_i`` the alternating sum ``Σ_t d_{s+t·g_i} (−1)^t``
vanishes.  So the support ``S`` of ``D`` is a finite set of lattice points
carrying positive weights with all these alternating sums zero, and

    "is there such an ``S`` with ``|S| ≤ k``?"

is one SMT query over unbounded integers (:func:`encode_lines`).  An ``unsat``
(z3 and cvc5 both) says: **every fusion has at least ``k + 1`` atoms**.  A
``sat`` model is a candidate support; :func:`complete_support` turns it into a
verified fusion when one exists on it.

The query is written in the coordinates of the lattice ``Λ`` spanned by the
directions (:func:`line_frame`): a valid ``S`` splits into its classes modulo
``Λ`` (lines never leave a class), each class alone is valid and no larger, and
a translation moves one class into ``Λ``.

>>> from attnproof.families import graph_sum, named_graph
>>> from attnproof.fusion import reduced_form
>>> lf = line_factors(reduced_form(graph_sum(named_graph("complete", 3))))
>>> lf.directions, lf.exact
(((0, 1, -1), (1, -1, 0), (1, 0, -1)), True)
>>> enc = encode_lines(lf.directions, 6)
>>> enc.rank, len(enc.sha256)
(2, 64)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, permutations
from math import gcd
from typing import Sequence

from ..errors import InputError
from .lineality import nullspace

__all__ = ["LineFactor", "OtherFactor", "LineFactors", "LineFrame", "LineEncoding", "line_factors", "line_frame",
           "encode_lines", "support_from_model", "contraction_bounds", "LINE_OPTIONS",
           "LEGACY_LINE_OPTIONS"]

Vector = tuple[int, ...]

# the sound strengthenings an encoding may carry (all on by default)
LINE_OPTIONS = ("parity", "order", "faces", "symmetry", "contraction")
# the options of the certificates that do not record theirs (replay tries their subsets)
LEGACY_LINE_OPTIONS = ("parity", "order", "faces", "symmetry")


@dataclass(frozen=True)
class LineFactor:
    """A binomial factor ``(1 + c·x^g)^m`` of ``Q`` (``c > 0``; ``g`` with its first non-zero
    coordinate positive, not necessarily primitive: ``1 + x^{2h}`` is irreducible).

    ``shared``: ``c = 1``, so the line condition uses the support's own weights
    (Lemma 12.1); otherwise the query gives this factor weights of its own (the
    sound relaxation of docs/lines.md §7).

    >>> LineFactor((1, -1)).shared, LineFactor((2,), Fraction(3), 2).to_dict()
    (True, {'direction': [2], 'coefficient': '3', 'multiplicity': 2})
    """

    direction: Vector
    coefficient: Fraction = Fraction(1)
    multiplicity: int = 1

    @property
    def shared(self) -> bool:
        return self.coefficient == 1

    def to_dict(self) -> dict:
        return {"direction": list(self.direction), "coefficient": str(self.coefficient),
                "multiplicity": self.multiplicity}


@dataclass(frozen=True)
class OtherFactor:
    """An irreducible factor of ``Q`` that is no binomial, kept as a Newton constraint:
    its support (exponents, lowest term first) and multiplicity."""

    support: tuple[Vector, ...]
    multiplicity: int = 1
    coefficients: tuple[int, ...] = ()      # in the order of ``support`` (for certificates)

    def relative(self) -> list[Vector]:
        """The support minus its first point (in the lattice of the lines, by :func:`line_factors`)."""
        return [tuple(a - b for a, b in zip(p, self.support[0])) for p in self.support]


@dataclass(frozen=True)
class LineFactors:
    """The factors of ``Q`` a line query uses.

    ``factors``: the binomials ``(1 + c·x^g)^m``, sorted by ``(g, c)``;
    ``directions``: their ``g``; ``others``: the remaining irreducible factors,
    used as Newton constraints (:class:`OtherFactor`); ``exact``: ``Q`` is a
    monomial times distinct factors ``1 + x^g`` (``g`` primitive, each once) and
    nothing else (then the query loses nothing but the numerator condition);
    ``dropped``: what the query leaves out or relaxes, in words.
    """

    directions: tuple[Vector, ...]
    exact: bool
    dropped: tuple[str, ...] = ()
    factors: tuple[LineFactor, ...] = ()
    others: tuple[OtherFactor, ...] = ()

    def __post_init__(self) -> None:
        if not self.factors:
            object.__setattr__(self, "factors", tuple(LineFactor(g) for g in self.directions))

    def to_dict(self) -> dict:
        """JSON summary.

        >>> LineFactors(((1, -1),), True).to_dict()
        {'directions': [[1, -1]], 'exact': True, 'dropped': []}
        """
        d = {"directions": [list(g) for g in self.directions], "exact": self.exact,
             "dropped": list(self.dropped)}
        if any(not f.shared or f.multiplicity > 1 for f in self.factors):
            d["factors"] = [f.to_dict() for f in self.factors]
        if self.others:
            d["newton_factors"] = len(self.others)
        return d


def primitive_direction(g: Sequence[int]) -> Vector | None:
    """``g`` with its first non-zero coordinate positive when it is primitive, else None.

    >>> primitive_direction((0, -1, 1)), primitive_direction((2, 0)), primitive_direction((0, 0))
    ((0, 1, -1), None, None)
    """
    c = 0
    for x in g:
        c = gcd(c, x)
    if c != 1:
        return None
    if next(x for x in g if x) < 0:
        g = tuple(-x for x in g)
    return tuple(g)


def binomial_factor(terms: dict, mult: int = 1) -> LineFactor | None:
    """``f = a·x^u + b·x^v`` (``u < v``) as ``a·x^u·(1 + (b/a)·x^{v − u})^m``; None when ``f``
    is not a binomial or ``b/a ≤ 0`` (no positive polynomial has such a factor).

    >>> binomial_factor({(0, 1): 1, (1, 0): 1}), binomial_factor({(0,): 2, (2,): 6}, 2)
    (LineFactor(direction=(1, -1), coefficient=Fraction(1, 1), multiplicity=1), LineFactor(direction=(2,), coefficient=Fraction(3, 1), multiplicity=2))
    """
    if len(terms) != 2:
        return None
    (u, a), (v, b) = sorted(terms.items())
    c = Fraction(b, a)
    if c <= 0:
        return None
    return LineFactor(tuple(y - x for x, y in zip(u, v)), c, mult)


def line_factors(r) -> LineFactors:
    """The binomial factors ``(1 + c·x^g)^m`` of the reduced denominator, and the others.

    Factors by FLINT.  Every binomial factor is used (``c ≠ 1``: weights of its
    own; ``m > 1``: the Descartes count; ``g`` not primitive: lines ``s + Z·g``);
    every other irreducible factor is kept as a Newton constraint when its
    exponents lie in one class of the lattice of the binomials' directions
    (otherwise it is left out, named in ``dropped``).  Problems with biases are
    refused (their coefficients are exp-rational).

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.fusion import reduced_form
    >>> line_factors(reduced_form(sigmoid_sum(2))).directions
    ((0, 1), (1, 0))
    """
    from ..algebra.budget import factor_obstacle
    from ..algebra.expfrac import poly_to_dict

    if r.lattice.has_z:
        raise InputError("line refutations: problems with biases have exp-rational "
                         "coefficients, which are outside the SMT search (THEORY §6)")
    why = factor_obstacle(r.Q)
    if why is not None:
        raise InputError(f"line refutations: the reduced denominator cannot be factored ({why})")
    facs: list[LineFactor] = []
    rest: list[tuple[dict, int, str]] = []
    dropped: list[str] = []
    _, factors = r.Q.factor()
    for f, mult in factors:
        terms = poly_to_dict(f)
        lf = binomial_factor(terms, int(mult))
        if lf is None:
            rest.append((terms, int(mult), str(f)))
            continue
        if not lf.shared:
            dropped.append(f"{f} (coefficient {lf.coefficient}: weights of its own on its lines)")
        if lf.multiplicity > 1:
            dropped.append(f"{f} to the power {lf.multiplicity} (one line condition and at least "
                           f"{lf.multiplicity + 1} points on each line)")
        facs.append(lf)
    facs.sort(key=lambda x: (x.direction, x.coefficient))
    others: list[OtherFactor] = []
    if facs:
        basis = _lattice_basis([x.direction for x in facs])
        for terms, mult, name in rest:
            pts = sorted(terms)
            try:
                for p in pts[1:]:
                    _coordinates(basis, tuple(a - b for a, b in zip(p, pts[0])))
            except ValueError:
                dropped.append(f"{name} (left out: its exponents leave the lattice of the lines)")
                continue
            others.append(OtherFactor(tuple(pts), mult, tuple(terms[p] for p in pts)))
            dropped.append(f"{name}" + (f" to the power {mult}" if mult > 1 else "")
                           + " (kept as a Newton constraint only)")
    else:
        dropped.extend(f"{name} (not a binomial)" for _, _, name in rest)
    dirs = tuple(x.direction for x in facs)
    return LineFactors(dirs, not dropped and bool(dirs), tuple(dropped), tuple(facs),
                       tuple(others))


# ---- the lattice of the directions ------------------------------------------------


def _lattice_basis(vectors: Sequence[Vector]) -> list[list[int]]:
    """A basis (rows) of the integer lattice spanned by ``vectors`` (row echelon by Euclid).

    >>> _lattice_basis([(1, -1, 0), (0, 1, -1), (1, 0, -1)])
    [[1, -1, 0], [0, 1, -1]]
    """
    rows = [list(v) for v in vectors if any(v)]
    basis: list[list[int]] = []
    n = len(rows[0]) if rows else 0
    col = 0
    while rows and col < n:
        piv = [r for r in rows if r[col] != 0]
        rest = [r for r in rows if r[col] == 0]
        while len(piv) > 1:
            piv.sort(key=lambda r: abs(r[col]))
            p = piv[0]
            nxt = [p]
            for r in piv[1:]:
                q = r[col] // p[col]
                r = [a - q * b for a, b in zip(r, p)]
                (nxt if r[col] != 0 else rest).append(r)
            piv = nxt
        if piv:
            p = piv[0]
            if p[col] < 0:
                p = [-a for a in p]
            basis.append(p)
        rows = [r for r in rest if any(r)]
        col += 1
    return basis


def _coordinates(basis: list[list[int]], v: Sequence[int]) -> Vector:
    """The integer coordinates of ``v`` in an echelon ``basis`` (``v`` must lie in the lattice).

    >>> _coordinates([[1, -1, 0], [0, 1, -1]], (1, 0, -1))
    (1, 1)
    """
    rest = [Fraction(x) for x in v]
    out = []
    for b in basis:
        col = next(i for i, x in enumerate(b) if x)
        c = rest[col] / b[col]
        if c.denominator != 1:
            raise ValueError("not in the lattice")
        out.append(int(c))
        rest = [x - c * y for x, y in zip(rest, b)]
    if any(rest):
        raise ValueError("not in the lattice")
    return tuple(out)


def _unimodular_to_e1(gamma: Vector) -> list[list[int]]:
    """A unimodular integer matrix ``U`` with ``U·gamma = e_1`` (``gamma`` primitive).

    >>> U = _unimodular_to_e1((2, 3))
    >>> [sum(a * b for a, b in zip(row, (2, 3))) for row in U]
    [1, 0]
    """
    n = len(gamma)
    U = [[int(i == j) for j in range(n)] for i in range(n)]
    v = list(gamma)
    while sum(1 for x in v if x) > 1:
        i = min((j for j in range(n) if v[j]), key=lambda j: abs(v[j]))
        for j in range(n):
            if j != i and v[j]:
                q = v[j] // v[i]
                v[j] -= q * v[i]
                U[j] = [a - q * b for a, b in zip(U[j], U[i])]
    p = next(j for j in range(n) if v[j])
    if v[p] != 1 and v[p] != -1:
        raise ValueError("the direction is not primitive")
    if v[p] < 0:
        U[p] = [-a for a in U[p]]
    U[0], U[p] = U[p], U[0]
    return U


@dataclass(frozen=True)
class LineFrame:
    """Coordinates for the query: a basis of ``Λ = Z·g_1 + … + Z·g_r`` and, per
    direction, a unimodular ``U`` with ``U·γ = e_1`` (``γ``: the direction in the basis).

    For a point ``c`` (basis coordinates), ``(U·c)_1`` is its offset ``t`` along the
    direction and ``(U·c)_2..`` name its line: two points share a line exactly
    when those agree (``U`` is invertible over ``Z`` and maps ``Z·γ`` to ``Z·e_1``).
    """

    dim: int
    basis: tuple[Vector, ...]
    gammas: tuple[Vector, ...]
    unimodular: tuple[tuple[Vector, ...], ...]
    contents: tuple[int, ...] = ()      # γ = content · (a primitive vector); () when all are 1

    @property
    def rank(self) -> int:
        return len(self.basis)

    def content(self, m: int) -> int:
        """The content of direction ``m`` (its lines are ``s + Z·γ``, steps of that many
        primitive steps: ``U·γ = content·e_1``)."""
        return self.contents[m] if self.contents else 1

    def coordinates(self, v: Sequence[int]) -> Vector:
        """The basis coordinates of a lattice vector ``v`` (ValueError when it is not in the lattice).

        >>> line_frame([(1, -1, 0), (0, 1, -1)]).coordinates((2, -1, -1))
        (2, 1)
        """
        return _coordinates([list(b) for b in self.basis], v)

    def point(self, c: Sequence[int]) -> Vector:
        """The lattice exponent ``Σ c_a·b_a`` of basis coordinates ``c``.

        >>> line_frame([(1, -1, 0), (0, 1, -1)]).point((2, 1))
        (2, -1, -1)
        """
        return tuple(sum(ca * b[j] for ca, b in zip(c, self.basis)) for j in range(self.dim))


def line_frame(directions: Sequence[Vector]) -> LineFrame:
    """The :class:`LineFrame` of a list of primitive directions.

    >>> f = line_frame([(0, 1, -1), (1, -1, 0), (1, 0, -1)])
    >>> f.rank, f.gammas
    (2, ((0, 1), (1, 0), (1, 1)))
    """
    if not directions:
        raise InputError("line refutations need at least one factor 1 + x^g")
    basis = _lattice_basis(directions)
    gammas = tuple(_coordinates(basis, g) for g in directions)
    contents = []
    for gm in gammas:
        c = 0
        for x in gm:
            c = gcd(c, x)
        contents.append(c)
    uni = tuple(tuple(tuple(row) for row in _unimodular_to_e1(tuple(x // c for x in gm)))
                for gm, c in zip(gammas, contents))
    return LineFrame(len(directions[0]), tuple(tuple(b) for b in basis), gammas, uni,
                     () if all(c == 1 for c in contents) else tuple(contents))


def _rank(vectors: Sequence[Sequence[int]]) -> int:
    """Rank over Q (exact).

    >>> _rank([(1, 0), (2, 0), (0, 0)]), _rank([(1, 2), (2, 1)])
    (1, 2)
    """
    rows = [[Fraction(x) for x in v] for v in vectors]
    rank = 0
    ncol = len(rows[0]) if rows else 0
    for col in range(ncol):
        piv = next((i for i in range(rank, len(rows)) if rows[i][col] != 0), None)
        if piv is None:
            continue
        rows[rank], rows[piv] = rows[piv], rows[rank]
        for i in range(rank + 1, len(rows)):
            f = rows[i][col] / rows[rank][col]
            if f:
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[rank])]
        rank += 1
    return rank


def zonotope_vertices(gammas: Sequence[Vector]) -> int:
    """Vertices of the zonotope ``Σ [0, γ]`` (pairwise non-parallel ``γ``): the regions of
    the central arrangement ``{γ^⊥}``, by Zaslavsky's ``Σ_B (−1)^{|B| − rank B}`` (THEORY Lemma 7).

    >>> zonotope_vertices([(1, 0), (0, 1), (1, 1)]), zonotope_vertices([(1, 0, 0), (0, 1, 0)])
    (6, 4)
    >>> zonotope_vertices([])
    1
    """
    g = list(gammas)
    total = 0
    for size in range(len(g) + 1):
        for B in combinations(g, size):
            total += (-1) ** (size - (_rank(B) if B else 0))
    return abs(total)


def facet_functionals(gammas: Sequence[Vector]) -> list[Vector]:
    """Primitive integer normals (up to sign) of the facets of the zonotope ``Σ [0, γ]``
    in its own span (each is orthogonal to ``rank − 1`` independent generators).

    >>> facet_functionals([(1, 0), (0, 1), (1, 1)])
    [(0, 1), (1, -1), (1, 0)]
    """
    r = _rank(gammas)
    if r < 2:
        return []
    out = set()
    for B in combinations(gammas, r - 1):
        if _rank(B) != r - 1:
            continue
        phi = _kernel_vector(B, len(gammas[0]))
        if phi is not None and any(sum(a * b for a, b in zip(phi, gm)) for gm in gammas):
            out.add(phi)
    return sorted(out)


def _kernel_vector(rows: Sequence[Vector], n: int) -> Vector | None:
    """A primitive integer vector orthogonal to ``rows`` (kernel of dimension 1), sign fixed.

    >>> _kernel_vector([(1, 1, 0), (0, 1, 1)], 3), _kernel_vector([(1, 1, 0)], 3)
    ((1, -1, 1), None)
    """
    basis = nullspace(rows, n)
    return primitive_direction(basis[0]) if len(basis) == 1 else None


def _edge_of(g: Vector) -> tuple[int, int] | None:
    """The edge ``(u, v)`` of a direction ``e_u − e_v`` (``u < v``), ``(u, n)`` of ``±e_u`` (the
    ground node ``n = len(g)``, THEORY §4), else None.

    >>> _edge_of((0, 1, -1)), _edge_of((0, 0, 1)), _edge_of((1, 1, 0)), _edge_of((2, 0, 0))
    ((1, 2), (2, 3), None, None)
    """
    nz = [(i, x) for i, x in enumerate(g) if x]
    if len(nz) == 2 and nz[0][1] == -nz[1][1] and abs(nz[0][1]) == 1:
        return nz[0][0], nz[1][0]
    if len(nz) == 1 and abs(nz[0][1]) == 1:
        return nz[0][0], len(g)
    return None


def contraction_bounds(directions) -> tuple[int | None, ...]:
    """Per factor, the least number of lines of its direction a valid support meets
    (THEORY Lemma 13.2; docs/theory.md §9), or None where there is no such bound.

    The factors ``(1 + x^g)^m`` with ``c = 1`` and ``g = e_u − e_v`` (or ``±e_u``: the
    ground node) form a multigraph ``G`` with ``Q_G | Q``, so every fusion's
    denominator is a positive multiple of ``Q_G``.  For an edge ``e`` of ``G``,
    ``x^{g_e} = 1`` maps it to a positive multiple of ``Q_{G/e}``, whose support is the
    set of lines ``s + Z·g_e`` that meet ``supp D``: at least ``m'(G/e)`` of them, and
    :func:`attnproof.bounds.graph_sums.minor_bound` proves a lower bound of
    ``m'(G/e)``.  A factor that is no edge, an edge whose bound is 1, or a graph past
    the minor bound's limits gets None.  Derived from the factors alone, so a replay
    re-derives every number from the problem.

    >>> contraction_bounds([(0, 1, -1), (1, -1, 0), (1, 0, -1)])     # K_3 / e: a double edge
    (3, 3, 3)
    >>> contraction_bounds([(1, 0), (0, 1)]), contraction_bounds([LineFactor((1, 1), Fraction(2))])
    ((2, 2), (None,))
    """
    from ..bounds.graph_sums import contract, minor_bound_within

    facs = _as_factors(directions)
    edges = [_edge_of(f.direction) if f.shared else None for f in facs]
    G: dict = {}
    for f, e in zip(facs, edges):
        if e is not None:
            G[e] = G.get(e, 0) + f.multiplicity
    out: list[int | None] = []
    for e in edges:
        mb = None if e is None else minor_bound_within(contract(G, [e]))
        out.append(mb[0] if mb is not None and mb[0] > 1 else None)
    return tuple(out)


# ---- the SMT-LIB2 text -------------------------------------------------------------


@dataclass(frozen=True)
class LineEncoding:
    """One query "is there a valid support with at most ``k`` points?"."""

    atoms: int
    directions: tuple[Vector, ...]
    frame: LineFrame
    cvars: tuple[tuple[str, ...], ...]      # per point slot, its basis coordinates ('0' for slot 0)
    dvars: tuple[str, ...]
    smtlib: str
    sha256: str
    options: tuple[str, ...]
    stats: dict = field(default_factory=dict)
    factors: tuple[LineFactor, ...] = ()
    others: tuple[OtherFactor, ...] = ()
    contraction: tuple[int | None, ...] = ()     # option contraction: per factor, its bound

    @property
    def rank(self) -> int:
        return self.frame.rank

    @property
    def model_vars(self) -> tuple[str, ...]:
        return tuple(v for row in self.cvars for v in row if v != "0") + self.dvars


def _lin(coeffs: Sequence[int], names: Sequence[str]) -> str:
    parts = []
    for c, v in zip(coeffs, names):
        if c == 0 or v == "0":
            continue
        parts.append(v if c == 1 else f"(* {c if c > 0 else f'(- {-c})'} {v})")
    if not parts:
        return "0"
    return parts[0] if len(parts) == 1 else "(+ " + " ".join(parts) + ")"


def _lex_le(a: Sequence[str], b: Sequence[str]) -> str:
    """``a ≤_lex b`` for integer terms."""
    out = f"(<= {a[-1]} {b[-1]})"
    for x, y in zip(reversed(a[:-1]), reversed(b[:-1])):
        out = f"(or (< {x} {y}) (and (= {x} {y}) {out}))"
    return out


def _as_factors(directions) -> tuple[LineFactor, ...]:
    """Directions (``c = 1``, ``m = 1``) or :class:`LineFactor` objects, as factors."""
    return tuple(g if isinstance(g, LineFactor) else LineFactor(tuple(int(x) for x in g))
                 for g in directions)


def encode_lines(directions, k: int, options: Sequence[str] = LINE_OPTIONS,
                 others: Sequence[OtherFactor] = ()) -> LineEncoding:
    """The SMT-LIB2 text (logic ``QF_LIRA``) of "``L(R) ≤ k``?" (THEORY Cor 12.2).

    ``directions``: vectors ``g`` (factors ``1 + x^g``) or :class:`LineFactor`
    objects ``(1 + c·x^g)^m``; ``others``: factors kept as Newton constraints.

    Unknowns: ``k`` point slots ``c_i ∈ Z^r`` (coordinates in the lattice of the
    directions, slot 0 fixed at the origin) and weights ``d_i ≥ 1`` (real).  For
    every factor ``m`` and slot ``i``: ``Σ_j [c_j on the m-line of c_i]·(−1)^{t_j−t_i}·w_j = 0``
    with ``w = d`` when ``c = 1`` and weights ``e_{m,j} ≥ 1`` of the factor's own
    otherwise (docs/lines.md §7: the relaxation of ``d_j·c^{−t_j}``).  Lines of a
    direction ``g = κ·η`` (``η`` primitive in the lattice) are ``s + Z·g``: the
    offset ``t`` along ``η`` is ``κ·u + ρ`` (``0 ≤ ρ < κ``, part of the line's
    name) and the sign is the parity of ``u``.
    Slots may repeat a point (the weights then add), so a model is a support of
    *at most* ``k`` points and every support of at most ``k`` points gives one.

    Sound extras (``options``): ``order`` — slots in non-decreasing
    lexicographic order, which puts slot 0 at the least point (any support can be
    listed in order, and translated so that its least point is the origin);
    ``parity`` — every point sees a point of the other parity on each of its lines
    (Lemma 11.1; implied by the equations and ``d > 0``), and with ``order`` the
    factors of one ``γ``, of multiplicities ``m_f``, see at least ``1 + Σ m_f``
    points on each of their lines (Descartes' rule of signs); ``faces`` and ``symmetry``: see
    :func:`_face_constraints`; ``contraction`` — for each factor that is an edge ``e`` of
    the graph of the factors, the slots meet at least :func:`contraction_bounds` distinct
    lines of its direction (THEORY Lemma 13.2: ``|π_e(S)| ≥ m'(G/e)``).

    >>> enc = encode_lines([(1, 0), (0, 1)], 3)
    >>> enc.smtlib.splitlines()[0], enc.stats["points"]
    ('(set-logic QF_LIRA)', 3)
    >>> encode_lines([(1, 0)], 0)
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: line refutations: k must be at least 1
    """
    if k < 1:
        raise InputError("line refutations: k must be at least 1")
    unknown = set(options) - set(LINE_OPTIONS)
    if unknown:
        raise InputError(f"line refutations: unknown options {sorted(unknown)}")
    facs = _as_factors(directions)
    dirs = tuple(f.direction for f in facs)
    others = tuple(others)
    frame = line_frame(dirs)
    r = frame.rank
    opts = tuple(o for o in LINE_OPTIONS if o in options)
    out = _header(k, dirs, facs, others, opts)
    cvars, dvars = _point_slots(out, k, r, "order" in opts)
    nbool = 0
    lines_of: dict[int, dict] = {}          # factor -> its same-line terms (multiplicity > 1)
    for m, U in enumerate(frame.unimodular):
        par, on, count = _factor_lines(out, m, U, frame.content(m), cvars, k, r)
        nbool += count
        lines_of[m] = on
        _line_sums(out, m, facs[m], dvars, par, on, k, "parity" in opts)
    nfaces, sym = 0, 1
    new: list[str] = []
    bounds: tuple[int | None, ...] = ()
    if "contraction" in opts:
        bounds = contraction_bounds(facs)
        _contraction_counts(out, bounds, lines_of, k)
    if "faces" in opts and "order" in opts and r >= 2:
        nfaces, sym = _face_constraints(out, frame, cvars, k, facs, "symmetry" in opts, others,
                                        new)
    if "parity" in opts and "order" in opts:
        _descartes_counts(out, frame, facs, lines_of, cvars, k, new)
    out.append("(check-sat)")
    text = "\n".join(out) + "\n"
    return LineEncoding(k, dirs, frame, tuple(cvars), dvars, text,
                        hashlib.sha256(text.encode("utf-8")).hexdigest(), opts,
                        {"points": k, "rank": r, "directions": len(dirs), "line_booleans": nbool, "faces": nfaces, "symmetry_group": sym,
                         "contraction_bounds": sum(b is not None for b in bounds),
                         "bytes": len(text)}, facs, others, bounds)


def _header(k: int, dirs: tuple[Vector, ...], facs: tuple[LineFactor, ...],
            others: tuple[OtherFactor, ...], opts: tuple[str, ...]) -> list[str]:
    """The logic and the comments that name the query: points, directions, options, factors."""
    out = ["(set-logic QF_LIRA)",
           f"; line refutation (THEORY Cor 12.2): at most {k} points, directions "
           + " ".join("[" + ",".join(map(str, g)) + "]" for g in dirs)
           + f"; options {','.join(opts) or 'none'}"]
    if any(not f.shared or f.multiplicity > 1 for f in facs) or others:
        out.append("; factors (1 + c x^g)^m: "
                   + " ".join(f"c={f.coefficient},m={f.multiplicity}" for f in facs)
                   + f"; Newton factors {len(others)}: "
                   + " ".join("[" + ";".join(",".join(map(str, p)) for p in o.support)
                              + f"]^{o.multiplicity}" for o in others))
    return out


def _point_slots(out: list[str], k: int, r: int,
                 ordered: bool) -> tuple[list[tuple[str, ...]], tuple[str, ...]]:
    """The point slots ``c_i`` (slot 0 the origin) and their weights ``d_i ≥ 1``; with
    ``ordered`` (option ``order``) the slots in non-decreasing lexicographic order."""
    cvars: list[tuple[str, ...]] = [tuple("0" for _ in range(r))]
    for i in range(1, k):
        row = tuple(f"c_{i}_{a}" for a in range(r))
        cvars.append(row)
        for v in row:
            out.append(f"(declare-fun {v} () Int)")
    dvars = tuple(f"d_{i}" for i in range(k))
    for v in dvars:
        out.append(f"(declare-fun {v} () Real)")
        out.append(f"(assert (>= {v} 1))")
    if ordered:
        for i in range(k - 1):
            out.append(f"(assert {_lex_le(cvars[i], cvars[i + 1])})")
    return cvars, dvars


def _factor_lines(out: list[str], m: int, U: Sequence[Sequence[int]], kappa: int,
                  cvars: list[tuple[str, ...]], k: int,
                  r: int) -> tuple[list[str], dict[tuple[int, int], str], int]:
    """The lines of factor ``m`` through the slots: each slot's parity along the direction
    (``"false"`` at offset 0, else a Boolean), and for each pair of slots whether they lie
    on one line (``"true"`` or a Boolean); the number of those Booleans declared."""
    t = [_lin(U[0], cvars[i]) for i in range(k)]
    ids = [[_lin(U[a], cvars[i]) for a in range(1, r)] for i in range(k)]
    par = []
    for i in range(k):
        if t[i] == "0":
            par.append("false")
            if kappa > 1:
                ids[i].append("0")
            continue
        h, o = f"h_{m}_{i}", f"o_{m}_{i}"
        out.append(f"(declare-fun {h} () Int)")
        out.append(f"(declare-fun {o} () Bool)")
        if kappa == 1:
            out.append(f"(assert (= {t[i]} (+ (* 2 {h}) (ite {o} 1 0))))")
        else:                            # t = κ·(2h + o) + ρ, 0 ≤ ρ < κ; ρ names the line
            rho = f"rho_{m}_{i}"
            out.append(f"(declare-fun {rho} () Int)")
            out.append(f"(assert (and (<= 0 {rho}) (< {rho} {kappa})))")
            out.append(f"(assert (= {t[i]} (+ (* {2 * kappa} {h}) (ite {o} {kappa} 0) {rho})))")
            ids[i].append(rho)
        par.append(o)
    on = {}
    nbool = 0
    for i in range(k):
        for j in range(i + 1, k):
            eqs = [f"(= {a} {b})" for a, b in zip(ids[i], ids[j]) if a != b]
            if not eqs:
                on[i, j] = "true"
                continue
            v = f"l_{m}_{i}_{j}"
            nbool += 1
            out.append(f"(declare-fun {v} () Bool)")
            body = eqs[0] if len(eqs) == 1 else "(and " + " ".join(eqs) + ")"
            out.append(f"(assert (= {v} {body}))")
            on[i, j] = v
    return par, on, nbool


def _line_sums(out: list[str], m: int, fac: LineFactor, dvars: tuple[str, ...], par: list[str],
               on: dict[tuple[int, int], str], k: int, parity: bool) -> None:
    """Lemma 12.1 for factor ``m``: the signed weights on each line through a slot sum to 0;
    with ``parity`` (Lemma 11.1) every slot sees one of the other parity on its line."""
    weights = dvars
    if not fac.shared:               # weights of its own: d_j·c^(−t_j), relaxed
        weights = tuple(f"e_{m}_{j}" for j in range(k))
        for v in weights:
            out.append(f"(declare-fun {v} () Real)")
            out.append(f"(assert (>= {v} 1))")
    # w_j = (-1)^{t_j} d_j: the line sum through c_i times (-1)^{t_i}
    w = []
    for j in range(k):
        if par[j] == "false":
            w.append(weights[j])
            continue
        v = f"w_{m}_{j}"
        out.append(f"(declare-fun {v} () Real)")
        out.append(f"(assert (= {v} (ite {par[j]} (- {weights[j]}) {weights[j]})))")
        w.append(v)
    for i in range(k):
        terms = [w[i]]
        others_par = []
        for j in range(k):
            if j == i:
                continue
            lij = on[min(i, j), max(i, j)]
            terms.append(w[j] if lij == "true" else f"(ite {lij} {w[j]} 0.0)")
            differ = f"(not (= {par[i]} {par[j]}))"
            others_par.append(differ if lij == "true" else f"(and {lij} {differ})")
        out.append(f"(assert (= (+ {' '.join(terms)}) 0))" if len(terms) > 1
                   else f"(assert (= {terms[0]} 0))")
        if parity:
            out.append(f"(assert (or {' '.join(others_par)}))" if len(others_par) > 1 else
                       (f"(assert {others_par[0]})" if others_par else "(assert false)"))


def _contraction_counts(out: list[str], bounds: Sequence[int | None], lines_of: dict[int, dict],
                        k: int) -> None:
    """Option ``contraction``: the slots meet at least ``bounds[m]`` distinct lines of factor
    ``m`` (a slot counts when no earlier slot lies on its line; slots repeating a point
    share it).  A comment names the bounds, so the text says what it assumes."""
    if not any(b is not None for b in bounds):
        return
    out.append("; contraction bounds (THEORY Lemma 13.2): "
               + " ".join("-" if b is None else str(b) for b in bounds))
    for m, least in enumerate(bounds):
        if least is None:
            continue
        if least > k:
            out.append("(assert false)")
            continue
        on = lines_of[m]
        firsts = []
        for i in range(k):
            earlier = [on[j, i] for j in range(i)]
            if "true" in earlier:
                continue
            firsts.append("1" if not earlier else
                          f"(ite (or {' '.join(earlier)}) 0 1)" if len(earlier) > 1
                          else f"(ite {earlier[0]} 0 1)")
        out.append(f"(assert (>= (+ {' '.join(firsts)} 0) {least}))")


def _descartes_counts(out: list[str], frame: LineFrame, facs: tuple[LineFactor, ...],
                      lines_of: dict[int, dict], cvars: list[tuple[str, ...]], k: int,
                      new: list[str]) -> None:
    """Descartes' rule of signs: a positive p with roots −1/c_f (multiplicities m_f) on a
    line has at least 1 + Σ m_f terms there; factors with one γ share their lines.
    ``new``: the slots' first-of-their-point flags, made here when not made yet."""
    roots: dict = {}
    for m, gm in enumerate(frame.gammas):
        roots.setdefault(gm, []).append(m)
    need = {ms[0]: 1 + sum(facs[m].multiplicity for m in ms) for ms in roots.values()}
    need = {m: x for m, x in need.items() if x > 2}
    if not need:
        return
    if not new:
        new.extend(_new_point_flags(out, cvars, k))
    for m, least in sorted(need.items()):
        on = lines_of[m]
        for i in range(k):
            terms = []
            for j in range(k):
                lij = "true" if i == j else on[min(i, j), max(i, j)]
                terms.append(f"(ite (and {lij} {new[j]}) 1 0)")
            out.append(f"(assert (>= (+ {' '.join(terms)} 0) {least}))")


def support_from_model(enc: LineEncoding, model: dict) -> list[Vector]:
    """The distinct lattice points of a model (slot 0 is the origin), sorted.

    >>> enc = encode_lines([(1, 0), (0, 1)], 2)
    >>> support_from_model(enc, {"c_1_0": "1", "c_1_1": "0"})
    [(0, 0), (1, 0)]
    """
    pts = set()
    for row in enc.cvars:
        c = [0 if v == "0" else int(Fraction(str(model.get(v, "0")))) for v in row]
        pts.add(enc.frame.point(c))
    return sorted(pts)


def _new_point_flags(out: list[str], cvars, k: int) -> list[str]:
    """``n_i``: slot ``i`` differs from slot ``i − 1`` (with ``order``, equal slots are
    adjacent, so the slots with ``n_i`` list each point once); ``n_0`` is true."""
    new = ["true"]
    for i in range(1, k):
        v = f"n_{i}"
        out.append(f"(declare-fun {v} () Bool)")
        same = " ".join(f"(= {a} {b})" for a, b in zip(cvars[i - 1], cvars[i]) if a != b)
        out.append(f"(assert (= {v} (not (and {same} true))))")
        new.append(v)
    return new


def _primitive_part(v: Sequence[int]) -> Vector:
    c = 0
    for x in v:
        c = gcd(c, x)
    w = tuple(x // c for x in v)
    return w if next(x for x in w if x) > 0 else tuple(-x for x in w)


def _face_constraints(out: list[str], frame: LineFrame, cvars, k: int, facs, symmetry: bool,
                      others: Sequence[OtherFactor] = (), new: list[str] | None = None):
    """Newton-summand constraints and width symmetry breaking (see :func:`encode_lines`).

    For each facet normal ``φ`` of the zonotope ``Newt(R) = Σ m_i [0, γ_i]``: the
    width of the points along ``φ`` is at least ``Σ m_i |φ(γ_i)|`` plus the widths of
    the Newton factors (``Newt(Q)`` is a Minkowski summand of ``conv(S)``), and each of
    the two extreme faces holds at least as many points as the vertices of the
    zonotope of the directions in ``φ^⊥`` (Theorem 3 on the initial form; at least 2
    when a Newton factor's face there is not a point).  Returns the number of facet
    functionals and the order of the symmetry group used.
    """
    new_flags = _new_point_flags(out, cvars, k)
    if new is not None:
        new[:] = new_flags
    new = new_flags
    prims = sorted({_primitive_part(gm) for gm in frame.gammas})
    phis = facet_functionals(prims)
    ocoords = [[frame.coordinates(p) for p in o.relative()] for o in others]
    faces = []
    counts = []
    for f, phi in enumerate(phis):
        vals = [_lin(phi, cvars[i]) for i in range(k)]
        width = sum(fac.multiplicity * abs(sum(a * b for a, b in zip(phi, gm)))
                    for fac, gm in zip(facs, frame.gammas))
        ovals = [[sum(a * b for a, b in zip(phi, c)) for c in pts] for pts in ocoords]
        width += sum(o.multiplicity * (max(v) - min(v)) for o, v in zip(others, ovals))
        face = [m for m, gm in enumerate(frame.gammas) if sum(a * b for a, b in zip(phi, gm)) == 0]
        faces.append(frozenset(face))
        bound = zonotope_vertices(sorted({_primitive_part(frame.gammas[m]) for m in face}))
        sides = [bound, bound]
        for vals_o in ovals:                 # V(A + B) ≥ V(B): a face of B that is a segment or more
            for side, best in ((0, max(vals_o)), (1, min(vals_o))):
                if sum(1 for v in vals_o if v == best) >= 2:
                    sides[side] = max(sides[side], 2)
        hi, lo = f"hi_{f}", f"lo_{f}"
        out.append(f"(declare-fun {hi} () Int)")
        out.append(f"(declare-fun {lo} () Int)")
        for v in vals:
            out.append(f"(assert (and (<= {v} {hi}) (>= {v} {lo})))")
        out.append(f"(assert (or {' '.join(f'(= {hi} {v})' for v in vals)} false))")
        out.append(f"(assert (or {' '.join(f'(= {lo} {v})' for v in vals)} false))")
        out.append(f"(assert (>= (- {hi} {lo}) {width}))")
        cnt = []
        for extreme, need in zip((hi, lo), sides):
            c = "(+ " + " ".join(f"(ite (and {n} (= {v} {extreme})) 1 0)" for n, v in zip(new, vals)) + " 0)"
            cnt.append(c)
            if need > 1:
                out.append(f"(assert (>= {c} {need}))")
        counts.append(cnt)
    group = 1
    if symmetry and phis:
        perms = [] if others else facet_permutations(
            [fac.direction for fac in facs], faces,
            [(fac.shared, fac.multiplicity) for fac in facs])
        group = len(perms) + 1
        widths = [f"(- hi_{f} lo_{f})" for f in range(len(phis))]
        for sigma in perms:
            out.append(f"(assert {_lex_ge(widths, [widths[sigma[f]] for f in range(len(phis))])})")
        # S -> -S swaps the two faces of every functional and keeps every width
        out.append(f"(assert (>= {counts[0][0]} {counts[0][1]}))")
    return len(phis), group


MAX_SYMMETRY_COORDINATES = 8
MAX_SYMMETRIES = 64


def facet_permutations(dirs: Sequence[Vector], faces: Sequence[frozenset],
                       types: Sequence | None = None) -> list[tuple[int, ...]]:
    """The permutations of the facets induced by the coordinate permutations that map the
    set of lines ``{±g}`` onto itself (identity left out, at most :data:`MAX_SYMMETRIES`).

    ``types`` (one per direction, e.g. ``(c = 1, m)``): a permutation must map each
    direction to one of the same type; with two factors in one direction none is used.

    >>> dirs = [(0, 1, -1), (1, -1, 0), (1, 0, -1)]
    >>> f = line_frame(dirs)
    >>> faces = [frozenset(m for m, g in enumerate(f.gammas) if sum(a * b for a, b in zip(p, g)) == 0)
    ...          for p in facet_functionals(f.gammas)]
    >>> len(facet_permutations(dirs, faces))
    5
    """
    n = len(dirs[0])
    if n > MAX_SYMMETRY_COORDINATES or len(set(map(tuple, dirs))) < len(dirs):
        return []
    index = {}
    for m, g in enumerate(dirs):
        index[tuple(g)] = m
        index[tuple(-x for x in g)] = m
    fidx = {fc: f for f, fc in enumerate(faces)}
    seen = {tuple(range(len(faces)))}
    out = []
    for pi in permutations(range(n)):
        dmap: list[int] = []
        for g in dirs:
            img = [0] * n
            for a in range(n):
                img[pi[a]] = g[a]
            image = index.get(tuple(img))
            if image is None or (types is not None and types[image] != types[len(dmap)]):
                break
            dmap.append(image)
        else:
            sigma = []
            for fc in faces:
                f2 = fidx.get(frozenset(dmap[m] for m in fc))
                if f2 is None:
                    break
                sigma.append(f2)
            else:
                t = tuple(sigma)
                if t not in seen:
                    seen.add(t)
                    out.append(t)
                    if len(out) >= MAX_SYMMETRIES:
                        break
    return out


def _lex_ge(a: Sequence[str], b: Sequence[str]) -> str:
    """``a ≥_lex b`` for integer terms."""
    return _lex_le(b, a)
