"""The non-constant floor: a sum that is not constant needs at least 2 atoms.

A head with one distinct key is constant, so every exact fusion of a
non-constant multi-head has at least 2 atoms.  Non-constancy is shown by two
*witnesses* at which ``M`` differs, computed exactly at ``z = 1`` (biases drop
out; sound because ``e^{1/L}`` is transcendental, docs/certificates.md §6.13):

* ``{"limit": c}``: ``lim_{t→∞} M(t^c)``, per head the weighted mean of the
  values of the atoms whose lattice exponent maximizes ``<c, ·>``;
* ``{"point": x}``: ``M(x)`` at a point of the positive orthant (omitted
  coordinates are 1; only tried where the powers stay small);
* or, alone, ``{"slope": c}``: ``d/dt M(e^{t·c})`` at ``x = 1``, not zero (per head
  the weighted covariance of ``<c, k>`` and the value: no power either).

Limits, slopes and the point ``x = 1`` cost nothing in the size of the
exponents, so keys such as ``12345678`` are as cheap as ``1``.

>>> from attnproof.io import problem_from_dict
>>> M = problem_from_dict({"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
...     {"atoms": [{"key": [12345678], "value": 1}, {"key": [0], "value": 0}]},
...     {"atoms": [{"key": [3], "value": 1}, {"key": [0], "value": 0}]}]})
>>> non_constant_witnesses(M)
[('point', {}), ('limit', {0: 1})]
>>> C = problem_from_dict({"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
...     {"atoms": [{"key": [1], "value": 1}, {"key": [0], "value": 0}]},
...     {"atoms": [{"key": [1], "value": 0}, {"key": [0], "value": 1}]}]})
>>> non_constant_witnesses(C) is None      # σ + (1 - σ) = 1
True
"""

from __future__ import annotations

import random
from fractions import Fraction

from ..algebra.lattice import Lattice
from ..heads import MultiHead

__all__ = ["non_constant_witnesses", "MAX_DIRECTIONS", "MAX_POINT_BITS"]

MAX_DIRECTIONS = 64          # coordinate directions (each sign) and random directions tried
MAX_POINT_BITS = 1 << 16     # bits of the largest power a point witness may produce


def _heads(M: MultiHead, lat: Lattice) -> list:
    """Per head: ``[(x-exponent dict, weight, values)]`` (z dropped: it is 1 here)."""
    d = lat.dim
    out = []
    for h in M.heads:
        out.append([({v: e for v, e in lat.sparse_exponent(a) if v < d}, Fraction(a.weight),
                     tuple(Fraction(x) for x in a.value)) for a in h.atoms])
    return out


def _limit(heads: list, c: dict, m: int) -> tuple:
    total = [Fraction(0)] * m
    for atoms in heads:
        scores = [sum(k * e.get(v, 0) for v, k in c.items()) for e, _, _ in atoms]
        best = max(scores)
        top = [a for a, s in zip(atoms, scores) if s == best]
        den = sum(w for _, w, _ in top)
        for i in range(m):
            total[i] += sum(w * val[i] for _, w, val in top) / den
    return tuple(total)


def _point(heads: list, x: dict, m: int) -> tuple | None:
    total = [Fraction(0)] * m
    for atoms in heads:
        vals = []
        for e, w, val in atoms:
            bits = sum(abs(e.get(v, 0)) * (b.numerator.bit_length() + b.denominator.bit_length())
                       for v, b in x.items())
            if bits > MAX_POINT_BITS:
                return None
            t = w
            for v, b in x.items():
                k = e.get(v, 0)
                if k:
                    t *= b ** k
            vals.append((t, val))
        den = sum(t for t, _ in vals)
        for i in range(m):
            total[i] += sum(t * val[i] for t, val in vals) / den
    return tuple(total)


def _slope(heads: list, c: dict, m: int) -> tuple:
    total = [Fraction(0)] * m
    for atoms in heads:
        w = sum(a[1] for a in atoms)
        s = [sum(k * e.get(v, 0) for v, k in c.items()) for e, _, _ in atoms]
        ws = sum(a[1] * t for a, t in zip(atoms, s))
        for i in range(m):
            wv = sum(a[1] * a[2][i] for a in atoms)
            wsv = sum(a[1] * a[2][i] * t for a, t in zip(atoms, s))
            total[i] += wsv / w - ws * wv / (w * w)
    return tuple(total)


def _candidates(variables: list, seed: int = 0):
    """Witnesses to try, cheapest first: coordinate directions, random directions, points."""
    for v in variables[:MAX_DIRECTIONS]:
        yield {"limit": {v: 1}}
        yield {"limit": {v: -1}}
    rng = random.Random(seed)
    vs = variables[:MAX_DIRECTIONS]
    for _ in range(MAX_DIRECTIONS if len(vs) > 1 else 0):
        c = {v: rng.randint(-3, 3) for v in vs}
        c = {v: k for v, k in c.items() if k}
        if c:
            yield {"limit": c}
    for v in vs:
        yield {"slope": {v: 1}}
    for _ in range(MAX_DIRECTIONS if len(vs) > 1 else 0):
        c = {v: rng.randint(-3, 3) for v in vs}
        c = {v: k for v, k in c.items() if k}
        if c:
            yield {"slope": c}
    for v in vs:
        yield {"point": {v: Fraction(2)}}
        yield {"point": {v: Fraction(1, 2)}}
    if len(vs) > 1:
        yield {"point": {v: Fraction(2) for v in vs}}


def non_constant_witnesses(M: MultiHead, lattice: Lattice | None = None) -> list | None:
    """Witnesses that ``M`` is not constant -- ``[("slope", c)]`` or two values
    ``[("point", {}), (kind, body)]`` -- or None when none of those tried separates
    (``M`` may be constant).  The step is written by :mod:`attnproof.certificate.steps.floors`."""
    lat = lattice if lattice is not None else Lattice.of(M)
    heads = _heads(M, lat)
    m = M.value_dim
    variables = sorted({v for atoms in heads for e, _, _ in atoms for v in e})
    if not variables:
        return None                  # every key is 0: every head is constant
    base = _point(heads, {}, m)       # x = 1: no power computed
    for w in _candidates(variables):
        (kind, body), = w.items()
        if kind == "slope":
            if any(_slope(heads, body, m)):
                return [("slope", body)]
            continue
        val = _limit(heads, body, m) if kind == "limit" else _point(heads, body, m)
        if val is not None and val != base:
            return [("point", {}), (kind, body)]
    return None
