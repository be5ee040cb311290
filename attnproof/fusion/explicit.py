"""The explicit fusion ``N/D`` as FLINT polynomials (THEORY §3, Theorem 2), and two of
its constructors: the product fusion ``D* = Π_h D_h`` and the lcm fusion.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from ..errors import AlgebraError
from ..heads import Atom, Head, MultiHead
from ..algebra.expfrac import ExpFraction, head_fraction, poly_context
from ..algebra.lattice import Lattice
from ..parallel.tasks import Progress
from ..io import as_problem
from ..io.problem import (SPARSE_KEY_DIM, fused_atom_docs, fused_atom_json, number_json,
                          one_head_document)
from ..algebra.budget import require_flint
from .reduced import DEFAULT_MAX_ATOMS, ReducedForm, check_size
from ..display.formulas import fraction_text
from ..algebra.identity import fusion_identity

__all__ = ["ExplicitFusion", "product_fusion", "lcm_fusion"]



class _Decimal(dict):
    """``str(int(x))`` of each key ``x`` (a FLINT integer), computed once per distinct
    value: the exponents of a fusion repeat a few small values.

    >>> import flint
    >>> _Decimal()[flint.fmpz(-12)]
    '-12'
    """

    def __missing__(self, x) -> str:
        text = self[x] = str(int(x))
        return text


@dataclass(frozen=True, eq=False)
class ExplicitFusion:
    """An exact single-head fusion ``N/D`` of a multi-head (a :class:`Fusion`).

    ``atoms`` counts distinct keys; ``entries`` counts (key, bias) pairs, which
    differ only when biases make two entries share a key.

    >>> from attnproof.fusion import fuse
    >>> from attnproof.families import sigmoid_sum
    >>> f = fuse(sigmoid_sum(2))
    >>> f.atoms, f.entries, f.method
    (4, 4, 'reduced')
    >>> last = f.to_head().atoms[-1]
    >>> last.key, last.value
    ((Fraction(1, 1), Fraction(1, 1)), (Fraction(2, 1),))
    """

    multihead: MultiHead
    frac: ExpFraction
    method: str
    coords: tuple | None = None          # original coordinate of each variable of ``frac``
    inner: MultiHead | None = None       # the multi-head over those variables (``frac``'s own)

    @property
    def lattice(self) -> Lattice:
        """The exponent lattice of ``frac`` (over the problem's active coordinates
        when :attr:`coords` is set)."""
        return self.frac.lattice

    @property
    def atoms(self) -> int:
        """Number of atoms (distinct keys) of the fused head."""
        if not self.lattice.has_z:
            return len(self.frac.den)
        return len(self.frac.support_x())

    @property
    def entries(self) -> int:
        """Number of (key, bias) entries written to a problem file."""
        return len(self.frac.den)

    def __repr__(self) -> str:
        """Short: ``Fusion(8 atoms, method='reduced', heads=3)``."""
        return f"Fusion({self.atoms} atoms, method={self.method!r}, heads={len(self.multihead)})"

    def _repr_latex_(self) -> str:
        """Notebooks: the fused head ``N/D`` (when small) and its atom count."""
        text = rf"\text{{{self.method} fusion of {len(self.multihead)} heads: {self.atoms} atoms}}"
        if len(self.frac.den) <= 12 and len(self.frac.num) == 1:
            text += r"\quad " + fraction_text(self.frac.num[0], self.frac.den, self.lattice, "latex")
        return f"${text}$"

    def _atom_rows(self):
        """``(sparse key over the problem's coordinates, bias, weight, numerators, exponent)``."""
        lat = self.lattice
        d = lat.dim
        smap = lat.scale_map
        coords = self.coords
        # ascending graded reverse-lexicographic order (FLINT's order, reversed): deterministic
        for e, c, ns in reversed(list(self.frac.terms())):
            key = []
            for j in range(d):
                x = e[j]
                if x:
                    s = smap.get(j, 1)
                    key.append((coords[j] if coords is not None else j,
                                x if s == 1 else Fraction(x, s)))
            bias = Fraction(e[d], lat.bias_scale) if lat.has_z else 0
            yield key, bias, c, ns, e

    def order_keys(self) -> list[tuple]:
        """One key per atom of :meth:`to_head` (same order) whose order is the order of
        the atoms' lattice exponents over all coordinates (the order a certificate lists them)."""
        return [e for *_, e in self._atom_rows()]

    def verify(self, points: int = 2, seed: int = 0) -> None:
        """Check the exact polynomial identity ``N/D = Σ_h N_h/D_h`` in FLINT integer
        polynomials (:func:`attnproof.algebra.identity.fusion_identity`: ``N = Σ_h (D/D_h)·N_h``
        when every ``D_h`` divides ``D``, else cross-multiplied over the lcm); raise
        :class:`AlgebraError` when it fails.  The producer's guard against a wrong
        polynomial computation (the checker re-verifies every certificate exactly).
        ``points = 0`` skips it; otherwise ``points`` and ``seed`` play no part (no
        sample points), they are kept for the modular check of :class:`ClassProductFusion`.

        >>> from attnproof.fusion import fuse
        >>> from attnproof.families import sigmoid_sum
        >>> fuse(sigmoid_sum(3)).verify(points=3)
        """
        if points <= 0:
            return

        fusion_identity(self.frac, self.inner if self.inner is not None else self.multihead)

    def to_head(self, name: str | None = "fused") -> Head:
        """The fused head as an exact :class:`Head`."""
        d = self.multihead.dim
        atoms = [Atom.sparse(d, key, tuple(Fraction(n, c) for n in ns), bias=Fraction(bias),
                             weight=Fraction(c)) for key, bias, c, ns, _ in self._atom_rows()]
        return Head(tuple(atoms), name=name)

    def to_multihead(self, name: str | None = "fused") -> MultiHead:
        """The fused head as a one-head :class:`MultiHead`."""
        return MultiHead((self.to_head(name),), dim=self.multihead.dim)

    def atom_docs(self) -> Iterator[dict]:
        """The atoms of :meth:`to_problem_dict`, one at a time (:func:`attnproof.io.problem.fused_atom_docs`).

        >>> from attnproof.fusion import fuse
        >>> from attnproof.families import sigmoid_sum
        >>> next(fuse(sigmoid_sum(2)).atom_docs())
        {'key': [0, 0], 'value': 0}
        """
        return fused_atom_docs((row[:4] for row in self._atom_rows()), self.multihead.dim,
                               self.multihead.value_dim)

    def atom_json(self) -> Iterator[str]:
        """The canonical JSON text of each of :meth:`atom_docs`, built directly
        (:func:`attnproof.io.problem.fused_atom_json`).

        >>> from attnproof.fusion import fuse
        >>> from attnproof.families import sigmoid_sum
        >>> next(fuse(sigmoid_sum(2)).atom_json())
        '{"key":[0,0],"value":0}'
        """
        lat = self.lattice
        if (lat.scale_map or lat.has_z or self.coords is not None or lat.dim != self.multihead.dim
                or lat.dim > SPARSE_KEY_DIM):
            return self._rows_json()
        return self._integer_atom_json()

    def _rows_json(self) -> Iterator[str]:
        """:meth:`atom_json` from the rows of :meth:`_atom_rows` (any keys)."""
        return fused_atom_json((row[:4] for row in self._atom_rows()), self.multihead.dim,
                               self.multihead.value_dim)

    def _integer_atom_json(self) -> Iterator[str]:
        """:meth:`atom_json` of a fusion whose keys are its integer lattice exponents
        (scales 1, no bias variable, dense keys): the text straight from the columns of
        ``frac`` (:meth:`ExpFraction.term_table`), in the order of :meth:`_atom_rows`."""
        dm, dc, cols = self.frac.term_table()
        sh = self.frac.shift
        shifted = any(sh)
        scalar = len(cols) == 1
        text = _Decimal()               # str(int(x)) of each FLINT integer, computed once
        for i in range(len(dm) - 1, -1, -1):
            e = dm[i]
            if shifted:
                key = ",".join([str(int(x) + s) for x, s in zip(e, sh)])
            else:
                key = ",".join(map(text.__getitem__, e))
            c = dc[i]
            if c == 1:
                vals = [str(col[i]) for col in cols]
            else:
                vals = [str(n // c) if n % c == 0 else number_json(Fraction(n, c))
                        for n in (col[i] for col in cols)]
            v = vals[0] if scalar else "[" + ",".join(vals) + "]"
            yield ('{"key":[' + key + '],"value":' + v
                   + (',"weight":' + str(c) + "}" if c != 1 else "}"))

    def to_problem_dict(self, name: str | None = "fused") -> dict:
        """The one-head problem document (same as ``problem_to_dict(self.to_multihead())``).

        >>> from attnproof.fusion import fuse
        >>> from attnproof.families import sigmoid_sum
        >>> from attnproof.io import problem_to_dict
        >>> f = fuse(sigmoid_sum(2))
        >>> f.to_problem_dict() == problem_to_dict(f.to_multihead())
        True
        """
        return one_head_document(self.atom_docs(), self.multihead.dim, name)


def _as_fusion(M: MultiHead, frac: ExpFraction, method: str) -> ExplicitFusion:
    if not frac.is_head():
        raise AlgebraError(f"{method} fusion is not a head (internal error)")
    return ExplicitFusion(M, frac, method)


def product_fusion(M: MultiHead, max_atoms: int | None = DEFAULT_MAX_ATOMS,
                   progress: Progress = None) -> ExplicitFusion:
    """The product fusion ``D* = Π_h D_h``, ``N* = Σ_h N_h Π_{g≠h} D_g``.

    >>> from attnproof.families import sigmoid_sum
    >>> product_fusion(sigmoid_sum(4)).atoms
    16
    """
    M = as_problem(M)
    check_size(M, max_atoms)
    lat = Lattice.of(M)
    require_flint(M, "the expanded product fusion", "'attnproof fuse' counts and writes it "
                  "without polynomial algebra (class_product_fusion)", lat)
    ctx = poly_context(lat)
    N: list = []
    D = None
    shift = [0] * lat.nvars
    for i, h in enumerate(M.heads):
        f = head_fraction(h, lat, ctx)
        shift = [a + b for a, b in zip(shift, f.shift)]
        if D is None:
            N, D = list(f.num), f.den
        else:
            N = [n * f.den + fn * D for n, fn in zip(N, f.num)]
            D = D * f.den
        if progress is not None:
            progress(i + 1, len(M.heads))
    assert D is not None, "a multi-head has at least one head"
    return _as_fusion(M, ExpFraction(lat, tuple(N), D, tuple(shift)), "product")


def lcm_fusion(r: ReducedForm) -> ExplicitFusion | None:
    """The fusion with denominator ``lcm(D_h)``, or None when it is not a head.

    >>> from attnproof.fusion import reduced_form
    >>> from attnproof.heads import Atom, Head, MultiHead
    >>> h = Head((Atom((1,), (1,)), Atom((0,), (0,))))
    >>> g = Head((Atom((1,), (3,)), Atom((0,), (1,))))
    >>> lcm_fusion(reduced_form(MultiHead((h, g)))).atoms
    2
    """
    L = r.lcm
    G = L / r.Q
    if G * r.Q != L:
        raise AlgebraError("Q does not divide the lcm of the head denominators (internal error)")
    frac = ExpFraction(r.lattice, tuple(p * G for p in r.P), L, r.frac.shift)
    return ExplicitFusion(r.multihead, frac, "lcm") if frac.is_head() else None
