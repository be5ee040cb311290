"""Classes of associate heads and constant classes (THEORY Cor 9.3), over ``K = Q(z)``.

A head denominator is a polynomial in ``x`` whose coefficients are Laurent
polynomials in ``z`` (the bias variable).  Two heads are merged when
``D_g = q·z^a·x^t·D_h`` (a monomial unit); a class is *constant* when every
value component of ``Σ_g N_g / (q_g z^{a_g} x^{t_g})`` is ``κ·D_h`` for one
``κ ∈ K``.  Heads with a single key are units (constant heads) and belong to
no class.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.heads import Atom, Head, MultiHead
>>> S = sigmoid_sum(2)
>>> associate_classes(MultiHead(S.heads + S.heads[:1]))
([[0, 2], [1]], [False, False])
>>> minus = Head((Atom((1, 0), (0,)), Atom((0, 0), (1,))))       # 1 - σ(q_1)
>>> associate_classes(MultiHead((S.heads[0], minus)))            # σ + (1 - σ) = 1
([[0, 1]], [True])
"""

from __future__ import annotations

from fractions import Fraction

from ..algebra.lattice import Lattice
from ..heads import MultiHead

__all__ = ["associate_classes", "zpoly_heads"]


def zpoly_heads(M: MultiHead, lattice: Lattice | None = None):
    """Per head ``(D, [N_c])`` as ``{x-point: {z-exponent: Fraction}}``."""
    Z = _ZHeads(M, lattice)
    return [(Z.den(h), [Z.num(h, c) for c in range(M.value_dim)]) for h in range(len(M.heads))]


class _ZHeads:
    """Head denominators as ``{x-point: {z-exponent: weight}}``, numerators one value
    component at a time and only when asked (a constancy test usually stops at the first)."""

    def __init__(self, M: MultiHead, lattice: Lattice | None = None) -> None:
        lat = lattice if lattice is not None else Lattice.of(M)
        self.M = M
        self.exps = []
        self.dens = []
        for h in M.heads:
            ex = []
            D: dict = {}
            for a in h.atoms:
                xs = [0] * lat.dim
                z = 0
                for j, e in lat.sparse_exponent(a):
                    if j < lat.dim:
                        xs[j] = e
                    else:
                        z = e
                x = tuple(xs)
                ex.append((x, z))
                zp = D.setdefault(x, {})
                zp[z] = zp.get(z, 0) + a.weight
            self.exps.append(ex)
            self.dens.append(D)

    def den(self, h: int) -> dict:
        return self.dens[h]

    def num(self, h: int, c: int) -> dict:
        N: dict = {}
        for (x, z), a in zip(self.exps[h], self.M.heads[h].atoms):
            v = a.value[c]
            if not v:
                continue
            zn = N.setdefault(x, {})
            zn[z] = zn.get(z, 0) + (v if a.weight == 1 else a.weight * v)
        N = {x: {e: c for e, c in zp.items() if c} for x, zp in N.items()}
        return {x: zp for x, zp in N.items() if zp}


def _shift(s, t, sign=1):
    return tuple(a + sign * b for a, b in zip(s, t))


def _mul(a: dict, b: dict) -> dict:
    out: dict = {}
    for e1, c1 in a.items():
        for e2, c2 in b.items():
            out[e1 + e2] = out.get(e1 + e2, 0) + c1 * c2
    return {e: c for e, c in out.items() if c}


def _translation(A: dict, B: dict):
    if len(A) != len(B):
        return None
    t = tuple(x - y for x, y in zip(min(A), min(B)))
    return t if all(_shift(s, t) in A for s in B) else None


def _unit(A: dict, B: dict, t):
    """``(q, a)`` with ``A(s+t) = q z^a B(s)``, or None."""
    s0 = min(B)
    pa, pb = A[_shift(s0, t)], B[s0]
    a = max(pa) - max(pb)
    q = Fraction(pa[max(pa)]) / Fraction(pb[max(pb)])
    for s, zp in B.items():
        if A[_shift(s, t)] != {e + a: q * c for e, c in zp.items()}:
            return None
    return q, a


def _monomial_form(D: dict):
    """``{(s - s_0, e - e_0, c/c_0)}`` when every coefficient of ``D`` is one term
    ``c·z^e`` (``s_0`` the smallest point), equal for ``D`` and ``q·z^a·x^t·D``; else None.

    >>> _monomial_form({(1, 0): {2: 3}, (0, 0): {0: 6}}) == _monomial_form({(2, 1): {5: 1}, (1, 1): {3: 2}})
    True
    """
    if any(len(zp) != 1 for zp in D.values()):
        return None
    s0 = min(D)
    ((e0, c0),) = D[s0].items()
    return frozenset((_shift(s, s0, -1), e - e0, Fraction(c) / c0)
                     for s, zp in D.items() for e, c in zp.items())


_P = (1 << 61) - 1          # a prime: images in F_p of the z-coefficients
_Z0 = 3 ** 37 % _P           # the point z = _Z0 (invertible mod p: Laurent exponents)


def _image(zp: dict) -> int | None:
    """``zp(_Z0) mod _P`` (a ring homomorphism of Laurent polynomials in ``z``), or None
    when a coefficient's denominator is divisible by ``_P``.

    >>> _image({0: 2, 1: Fraction(1, 3)}) == (2 + _Z0 * pow(3, -1, _P)) % _P
    True
    """
    out = 0
    for e, c in zp.items():
        c = Fraction(c)
        d = c.denominator % _P
        if not d:
            return None
        out = (out + c.numerator * pow(d, -1, _P) * pow(_Z0, e, _P)) % _P
    return out


def _proportional(A: dict, B: dict, t) -> bool:
    """``A(s+t)·B(s0) = A(s0+t)·B(s)`` for every point ``s`` of ``B``: the coefficient
    vectors are proportional over ``Q(z)``.

    The images at one point mod a prime decide "not proportional" in linear time (a
    homomorphism preserves the identity, so a differing image refutes it); only pairs
    that pass are multiplied out, exactly.

    >>> _proportional({(0,): {0: 1, 1: 1}, (1,): {0: 2, 1: 2}}, {(0,): {0: 1}, (1,): {0: 2}}, (0,))
    True
    >>> _proportional({(0,): {0: 1, 1: 1}, (1,): {0: 2}}, {(0,): {0: 1}, (1,): {0: 2}}, (0,))
    False
    """
    s0 = min(B)
    a0, b0 = A.get(_shift(s0, t), {}), B[s0]
    ia0, ib0 = _image(a0), _image(b0)
    if ia0 is not None and ib0 is not None:
        for s, zp in B.items():
            ia, ib = _image(A.get(_shift(s, t), {})), _image(zp)
            if ia is not None and ib is not None and ia * ib0 % _P != ia0 * ib % _P:
                return False
    return all(_mul(A.get(_shift(s, t), {}), b0) == _mul(a0, zp) for s, zp in B.items())


def associate_classes(M: MultiHead, lattice: Lattice | None = None):
    """``(classes, constant)``: classes of heads (with >= 2 keys) whose denominators
    differ by a monomial unit, and per class whether it is constant.

    Raises ValueError when two heads are associates only through a non-monomial
    unit of ``K`` (not supported by the certificate rule).
    """
    ZH = _ZHeads(M, lattice)
    Z = [(D, None) for D in ZH.dens]
    nonunit = [h for h, (D, _) in enumerate(Z) if len(D) > 1]
    classes: list[list[int]] = []
    units: dict = {}
    by_shape: dict = {}         # support translated to its smallest point -> classes
    by_form: dict = {}          # normalized one-term coefficients -> class
    for h in nonunit:
        # only supports that are translates can be associates: one hashed bucket each;
        # within it, denominators with one-term coefficients are associates exactly when
        # their normalized forms agree (hashed), the others are compared with every class
        D = Z[h][0]
        s0 = min(D)
        bucket, longer = by_shape.setdefault(frozenset(_shift(s, s0, -1) for s in D), ([], []))
        form = _monomial_form(D)
        if form is None:
            candidates = bucket
        else:
            same = by_form.get(form)
            candidates = ([same] if same else []) + longer
        for cl in candidates:
            rep = cl[0]
            t = _translation(Z[h][0], Z[rep][0])
            if t is None:
                continue
            u = _unit(Z[h][0], Z[rep][0], t)
            if u is not None:
                cl.append(h)
                units[h] = (u[0], u[1], t)
                break
            if _proportional(Z[h][0], Z[rep][0], t):
                raise ValueError(f"heads {rep} and {h} are associates through a non-monomial unit")
        else:
            classes.append([h])
            bucket.append(classes[-1])
            if form is not None:
                by_form[form] = classes[-1]
            else:
                longer.append(classes[-1])
    constant = []
    for cl in classes:
        rep = cl[0]
        D = Z[rep][0]
        const = True
        for comp in range(M.value_dim):
            N: dict = {}
            for h in cl:
                q, a, t = units.get(h, (Fraction(1), 0, (0,) * M.dim))
                for s, zp in ZH.num(h, comp).items():
                    acc = N.setdefault(_shift(s, t, -1), {})
                    for e, c in zp.items():
                        acc[e - a] = acc.get(e - a, 0) + Fraction(c) / q
            N = {s: {e: c for e, c in zp.items() if c} for s, zp in N.items()}
            N = {s: zp for s, zp in N.items() if zp}
            if N and (not set(N) <= set(D) or not _proportional(N, D, (0,) * M.dim)):
                const = False
                break
        constant.append(const)
    return classes, constant
