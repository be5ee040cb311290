"""The checker's own reading of the embedded problem (THEORY §1-2), standard library only.

From the canonical problem document it rebuilds the exponent lattice (key
scale ``s_j`` = lcm of the denominators of coordinate ``j``; bias scale ``L``
= lcm of the bias denominators, variable ``z`` = index ``dim``) and each
head's denominator ``D_h = Σ w_i X^{e_i}`` and numerators
``N_{h,c} = Σ w_i v_{i,c} X^{e_i}`` as sparse Laurent polynomials.

>>> doc = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
...     {"atoms": [{"key": ["1/2"], "value": 1}, {"key": [0], "value": 0}]}]}
>>> pb = parse_problem(doc)
>>> pb.scales, pb.bias_scale, sorted(pb.den[0].items())
({0: 2}, 0, [((), 1), (((0, 1),), 1)])
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import cast

from .limits import MAX_DIM, MAX_LATTICE_BITS
from .switch import FAST
from .syntax import UNLIMITED, Budget, Reject, Unsupported, fields, integer, rational


class Monomial(tuple):
    """A sparse monomial ``((variable, exponent), ...)`` that hashes once (long exponents)."""

    def __hash__(self) -> int:
        h = self.__dict__.get("_hash")
        return h if h is not None else self.__dict__.setdefault("_hash", tuple.__hash__(self))


@dataclass
class Problem:
    """Parsed problem: lattice scales and per-head sparse polynomials."""

    dim: int
    value_dim: int
    scales: dict       # j -> s_j for the coordinates whose s_j != 1 (never per dimension)
    bias_scale: int
    den: list          # D_h
    num: list          # [N_{h,0}, ..., N_{h,m-1}]

    @property
    def has_z(self) -> bool:
        """True when some bias is non-zero (variable ``z`` has index ``dim``)."""
        return self.bias_scale != 0

    def monomial(self, key, bias, where: str) -> tuple:
        """Sparse lattice monomial of a (sparse) key and bias; Reject when off the lattice."""
        out = []
        for j, k in key:
            e = k * self.scales.get(j, 1)
            if type(e) is not int:
                if e.denominator != 1:
                    raise Reject(f"{where}: key coordinate {j} = {k} is not on the problem's lattice")
                e = int(e)
            out.append((j, e))
        if bias:
            if not self.bias_scale:
                raise Reject(f"{where}: a biased atom, but the problem has no biases")
            e = bias * self.bias_scale
            if e.denominator != 1:
                raise Reject(f"{where}: bias {bias} is not on the problem's bias lattice")
            out.append((self.dim, int(e)))
        return Monomial(out)


SPARSE_KEY_DIM = 16
_INDEX = re.compile(r"(0|[1-9][0-9]{0,8})\Z")


def parse_key(x, dim: int, where: str) -> tuple:
    """A canonical key as sparse ``((j, value), ...)`` pairs with non-zero values.

    Canonical keys are dense lists of ``dim`` numbers when ``dim <= 16`` and
    sparse objects ``{"j": value}`` (decimal index, non-zero value) above.

    >>> parse_key([0, "1/2"], 2, "k"), parse_key({"17": 3}, 20, "k")
    (((1, Fraction(1, 2)),), ((17, 3),))
    """
    if dim <= SPARSE_KEY_DIM:
        if not isinstance(x, list) or len(x) != dim:
            raise Reject(f"{where}: key must be a list of {dim} numbers")
        vals = [(j, rational(c, f"{where}[{j}]")) for j, c in enumerate(x)]
        return tuple((j, v) for j, v in vals if v)
    if not isinstance(x, dict):
        raise Reject(f"{where}: with dim > {SPARSE_KEY_DIM} a key is a sparse object {{\"j\": value}}")
    out = []
    for j_s, c in x.items():
        if not isinstance(j_s, str) or not _INDEX.match(j_s) or int(j_s) >= dim:
            raise Reject(f"{where}: sparse key index {j_s!r} is not a coordinate 0..{dim - 1}")
        v = rational(c, f"{where}[{j_s}]")
        if not v:
            raise Reject(f"{where}: a sparse key omits zero coordinates")
        out.append((int(j_s), v))
    return tuple(sorted(out))


def _slow_atom(a, dim: int, value_dim, w: str) -> tuple:
    fields(a, {"key", "value"}, {"bias", "weight"}, w)
    key = parse_key(a["key"], dim, f"{w}, key")
    v = a["value"]
    if isinstance(v, list):
        if len(v) < 2:
            raise Reject(f"{w}: a value list needs at least 2 components (scalars are written bare)")
        vals = tuple(rational(c, f"{w}, value[{i}]") for i, c in enumerate(v))
    else:
        vals = (rational(v, f"{w}, value"),)
    if value_dim is not None and len(vals) != value_dim:
        raise Reject(f"{w}: value has {len(vals)} components, expected {value_dim}")
    bias: Fraction | int = 0
    if "bias" in a:
        bias = rational(a["bias"], f"{w}, bias")
        if bias == 0:
            raise Reject(f"{w}: a zero bias must be omitted")
    weight: Fraction | int = 1
    if "weight" in a:
        weight = rational(a["weight"], f"{w}, weight")
        if weight <= 0:
            raise Reject(f"{w}: weight must be positive")
        if weight == 1:
            raise Reject(f"{w}: a weight of 1 must be omitted")
    return (key, bias, weight, vals)


def atoms_cost(atoms_in: list) -> int:
    """The work of reading an atom list and building its polynomials, charged before
    either is done (docs/certificates.md §8): three units per atom plus its key
    coordinates and value components.

    >>> atoms_cost([{"key": [1, 0], "value": 1}, {"key": {}, "value": [0, 1]}])
    11
    """
    n = 0
    for a in atoms_in:
        n += 3
        if isinstance(a, dict):
            k, v = a.get("key"), a.get("value")
            n += (len(k) if isinstance(k, (list, dict)) else 1) + (len(v) if isinstance(v, list) else 1)
    return n


def parse_atoms(atoms_in, dim: int, value_dim, where: str,
                budget: Budget = UNLIMITED) -> tuple[list, int]:
    """Parse a canonical atom list: ``[(key, bias, weight, values)]`` and the value dimension.

    Bias 0 and weight 1 (omitted in the document) are the integers 0 and 1.
    :func:`atoms_cost` is charged to ``budget`` first.

    >>> parse_atoms([{"key": {"3": 2}, "value": 1}, {"key": {}, "value": 0, "weight": "1/2"}],
    ...             20, None, "h")
    ([(((3, 2),), 0, 1, (1,)), ((), 0, Fraction(1, 2), (0,))], 1)
    """
    if not isinstance(atoms_in, list) or not atoms_in:
        raise Reject(f"{where}: 'atoms' must be a non-empty list")
    budget.charge(atoms_cost(atoms_in), "reading atoms")
    out = []
    for a_i, a in enumerate(atoms_in):
        fast = FAST.atom
        atom = None if fast is None else fast(a, dim, value_dim)
        if atom is None:
            atom = _slow_atom(a, dim, value_dim, f"{where}, atom {a_i}")
        if value_dim is None:
            value_dim = len(atom[3])
        out.append(atom)
    return out, value_dim


def _words(c) -> int:
    # 64-bit words of an exact number (numerator plus denominator), beyond the first
    if type(c) is int:
        return c.bit_length() >> 6
    return (c.numerator.bit_length() + c.denominator.bit_length()) >> 6


def head_polys(pb: Problem, atoms: list, where: str,
               budget: Budget = UNLIMITED) -> tuple[dict, list]:
    """``(D, [N_c])`` of one atom list on the problem's lattice (integral coefficients
    as ``int``: much faster exact arithmetic downstream).

    Atoms of a problem head may share a key: their weights add up.  Sums of rationals
    with distinct long denominators grow (200 weights ``1/q_i`` of 2000 digits sum to
    a denominator of 400,000 digits, and each addition takes a gcd and products of
    that length by the new weight's), so an atom with a rational weight, or on a key
    whose sum is rational, is charged the products of the word lengths it adds and
    multiplies (a unit per 128) before the arithmetic (docs/certificates.md §8)."""
    D: dict = {}
    N: list[dict] = [dict() for _ in range(pb.value_dim)]
    fast = FAST.plain_monomial if not pb.scales else None
    for a_i, (key, bias, w, vals) in enumerate(atoms):
        m = None if fast is None or bias else fast(key)
        if m is None:
            m = pb.monomial(key, bias, f"{where}, atom {a_i}")
        old = D.get(m)
        if type(w) is not int or old is not None and type(old) is not int:
            ww = 1 + _words(w)
            cost = 0 if old is None else (1 + _words(old)) * ww
            for c, v in enumerate(vals):
                cost += (1 + _words(N[c].get(m, 0))) * (ww + _words(v))
            budget.charge(cost // 128, "adding atoms with rational weights")
        s = D.get(m, 0) + w
        D[m] = s                       # weights are positive: no cancellation
        for c, v in enumerate(vals):
            t = N[c].get(m, 0) + w * v
            if t:
                N[c][m] = t
            else:
                N[c].pop(m, None)
    D = {m: _num(c) for m, c in D.items()}
    N = [{m: _num(c) for m, c in n.items()} for n in N]
    return D, N


def _num(c):
    # an integral Fraction as an int
    return c.numerator if type(c) is Fraction and c.denominator == 1 else c


def parse_problem(doc, consume: bool = False, budget: Budget = UNLIMITED) -> Problem:
    """Parse the embedded canonical problem and build every head's ``N_h/D_h``.

    ``consume``: the document is the caller's to discard; each head's JSON is
    dropped once read (``heads[h] = None``), so that the document and the
    polynomials are never both held whole.  Each head's reading is charged to
    ``budget`` before it is done (:func:`atoms_cost`).
    """
    fields(doc, {"format", "version", "dim", "heads"}, set(), "problem")
    if doc["format"] != "attnproof-problem":
        raise Reject("problem: format must be 'attnproof-problem'")
    if integer(doc["version"], "problem: version") != 1:
        raise Reject("problem: unsupported problem version")
    dim = integer(doc["dim"], "problem: dim", 0)
    if dim > MAX_DIM:
        raise Reject(f"problem: dim {dim} is above the format's limit {MAX_DIM}")
    heads = doc["heads"]
    if not isinstance(heads, list) or not heads:
        raise Reject("problem: 'heads' must be a non-empty list")
    parsed: list = []
    m: int | None = None
    for h_i, h in enumerate(heads):
        w = f"problem head {h_i}"
        fields(h, {"atoms"}, {"name"}, w)
        if "name" in h and not isinstance(h["name"], str):
            raise Reject(f"{w}: name must be a string")
        atoms, m = parse_atoms(h["atoms"], dim, m, w, budget)
        parsed.append(atoms)
        if consume:
            heads[h_i] = None
    scales: dict = {}
    L = 1
    biased = False
    for atoms in parsed:
        for key, bias, _, _ in atoms:
            for j, c in key:
                if type(c) is not int and c.denominator != 1:
                    scales[j] = lcm(scales.get(j, 1), c.denominator)
                    if scales[j].bit_length() > MAX_LATTICE_BITS:
                        raise Unsupported(f"problem: the lattice scale of coordinate {j} has more "
                                          f"than {MAX_LATTICE_BITS} bits")
            if bias:
                biased = True
                L = lcm(L, bias.denominator)
                if L.bit_length() > MAX_LATTICE_BITS:
                    raise Unsupported(f"problem: the bias scale has more than {MAX_LATTICE_BITS} bits")
    pb = Problem(dim, cast(int, m), scales, L if biased else 0, [], [])
    for h_i, atoms in enumerate(parsed):
        D, N = head_polys(pb, atoms, f"problem head {h_i}", budget)
        pb.den.append(D)
        pb.num.append(N)
        parsed[h_i] = None
    return pb
