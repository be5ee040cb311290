"""The sparse fusion of a one-head problem whose denominator is irreducible: on the
sparse head polynomials, with no FLINT and no dense exponent vectors.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd

from ..errors import AlgebraError
from ..algebra.expfrac import ExpFraction
from ..algebra.lattice import Lattice
from ..heads import MultiHead
from .explicit import ExplicitFusion
from .reduced import compress, reduced_form
from ..algebra.factors import _proportional, irreducibility_witness
from ..algebra.sparse import _shift, head_polys, normal_form

__all__ = ["SPARSE_FUSION_CELLS", "SparseFusion", "sparse_fusion"]


SPARSE_FUSION_CELLS = 1 << 16    # above (atoms × active coordinates), one-head fusion goes sparse


class SparseFusion:
    """The fusion of a one-head problem whose denominator is irreducible, built on
    the sparse head polynomials: no FLINT, no dense exponent vectors.

    ``D`` irreducible (a C1 witness of THEORY §5) and some ``N_c`` not a multiple of
    ``D`` give ``gcd(N, D) = 1`` up to the integer content, so ``N/D`` (the head with
    equal keys merged) is the reduced form and a head (THEORY §3, ``G = 1``).  The
    implements :class:`Fusion` as :class:`ExplicitFusion` does; :attr:`frac` is built on demand, densely.

    >>> from attnproof.heads import Atom, Head, MultiHead
    >>> M = MultiHead((Head((Atom.sparse(10**5, {7: 1}, (2,)), Atom.sparse(10**5, {9: 1}, (0,)),
    ...                      Atom.sparse(10**5, {7: 1}, (1,)))),))
    >>> f = sparse_fusion(M, cells=0)
    >>> f.atoms, f.method, [(a.sparse_key, a.value, a.weight) for a in f.to_head().atoms]
    (2, 'reduced', [(((9, Fraction(1, 1)),), (Fraction(0, 1),), Fraction(1, 1)), (((7, Fraction(1, 1)),), (Fraction(3, 2),), Fraction(2, 1))])
    >>> f.verify(2)
    """

    def __init__(self, M: MultiHead, rows: list, lattice: Lattice) -> None:
        self.multihead = M
        self.method = "reduced"
        self.lattice = lattice
        self._rows = rows               # (mono, true sparse exponent, weight, numerators)

    def __repr__(self) -> str:
        """Short, as :class:`Fusion`'s."""
        return f"SparseFusion({self.atoms} atoms, method={self.method!r}, heads={len(self.multihead)})"

    @property
    def atoms(self) -> int:
        """Number of atoms (distinct keys) of the fused head."""
        if not self.lattice.has_z:
            return len(self._rows)
        d = self.lattice.dim
        return len({tuple(p for p in e if p[0] < d) for _, e, _, _ in self._rows})

    @property
    def entries(self) -> int:
        """Number of (key, bias) entries written to a problem file."""
        return len(self._rows)

    @property
    def frac(self) -> ExpFraction:
        """``N/D`` as FLINT polynomials over the active coordinates (dense: built on demand)."""
        comp = compress(self.multihead)
        if comp is None:
            return reduced_form(self.multihead, None).frac
        return reduced_form(comp[0], None).frac

    def _atom_rows(self):
        lat = self.lattice
        d = lat.dim
        for mono, e, c, ns in self._rows:
            key = [(j, x if lat.scale(j) == 1 else Fraction(x, lat.scale(j))) for j, x in e if j < d]
            bias = Fraction(e[-1][1], lat.bias_scale) if e and e[-1][0] == d else 0
            yield key, bias, c, ns, _nonneg_lex_key(mono)

    order_keys = ExplicitFusion.order_keys
    to_head = ExplicitFusion.to_head
    to_multihead = ExplicitFusion.to_multihead
    to_problem_dict = ExplicitFusion.to_problem_dict
    atom_docs = ExplicitFusion.atom_docs
    atom_json = ExplicitFusion._rows_json

    def verify(self, points: int = 2, seed: int = 0) -> None:
        """The exact identity ``N·D_h = N_h·D`` on the sparse head polynomials, in integers:
        ``(N_h, D_h) = g·(N, D)`` for one rational ``g`` on the same support (the fused
        head is the head with equal keys merged and the content divided out).  Linear in
        the non-zeros; ``points = 0`` skips it, ``seed`` plays no part."""
        if points <= 0:
            return

        H = head_polys(self.multihead, self.lattice)[0]
        rows = {m: (c, ns) for m, _, c, ns in self._rows}
        m0 = next(iter(rows))
        g = Fraction(H.den.get(m0, 0), rows[m0][0])
        ok = (len(rows) == len(H.den) and g > 0
              and all(len(n) == sum(1 for m in n if m in rows) for n in H.num))
        for m, (c, ns) in rows.items():
            if not ok:
                break
            ok = H.den.get(m) == g * c and all(n.get(m, 0) == g * x for n, x in zip(H.num, ns))
        if not ok:
            raise AlgebraError("sparse fusion differs from the multi-head (internal error)")


def _nonneg_lex_key(mono: tuple) -> tuple:
    """Sort key of a non-negative sparse exponent: tuple order = dense lexicographic order."""
    return tuple((-v, x) for v, x in mono)


def sparse_fusion(M: MultiHead, cells: int = SPARSE_FUSION_CELLS) -> SparseFusion | None:
    """The :class:`SparseFusion` of ``M`` when it applies and the dense route would
    handle more than ``cells`` exponent entries; else None (use :func:`fuse`)."""
    if len(M.heads) != 1:
        return None

    h = M.heads[0]
    active = {j for a in h.atoms for j, _ in a.sparse_key}
    if len(h.atoms) * len(active) <= cells:
        return None
    lat = Lattice.of(M)
    H = head_polys(M, lat)[0]
    if len(H.den) < 2 or irreducibility_witness(normal_form(H.den)) is None:
        return None
    if all(_proportional(n, H.den) for n in H.num):
        return None                                   # a constant head: the dense route
    # the shift head_polys removed: the true exponent is mono + shift
    shift = _shift([lat.sparse_exponent(a) for a in h.atoms], len(h.atoms))
    g = 0
    for c in H.den.values():
        g = gcd(g, c)
    for n in H.num:
        for c in n.values():
            g = gcd(g, c)
    rows = []
    for mono, c in H.den.items():
        e = dict(mono)
        for v, s in shift.items():
            e[v] = e.get(v, 0) + s
        true = tuple(sorted((v, x) for v, x in e.items() if x))
        rows.append((mono, true, c // g, tuple(n.get(mono, 0) // g for n in H.num)))
    rows.sort(key=_degrevlex_key)
    return SparseFusion(M, rows, lat)


def _degrevlex_key(row: tuple):
    """Ascending graded reverse-lexicographic order of the stored exponents (the dense
    route's order: FLINT's degrevlex, reversed)."""
    mono = row[0]
    # degrevlex: higher total degree is larger; ties: the smaller exponent in the last
    # differing variable is larger.  As an ascending key: (degree, reversed pairs negated).
    return (sum(x for _, x in mono), _RevKey(mono))


class _RevKey:
    """Tie-break of degrevlex for equal total degree, on sparse non-negative exponents."""

    __slots__ = ("m",)

    def __init__(self, m: tuple) -> None:
        self.m = m

    def __lt__(self, other: "_RevKey") -> bool:
        a, b = dict(self.m), dict(other.m)
        vs = set(a) | set(b)
        for v in sorted(vs, reverse=True):
            x, y = a.get(v, 0), b.get(v, 0)
            if x != y:
                return x > y          # larger exponent in the last variable: smaller in degrevlex
        return False

    def __eq__(self, other) -> bool:
        return isinstance(other, _RevKey) and self.m == other.m
