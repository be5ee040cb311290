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

from .limits import MAX_DIGITS, MAX_DIM, MAX_EXPONENT, MAX_LATTICE_BITS, fits_digits
from .linalg import _words
from .poly import _num
from .syntax import UNLIMITED, Budget, Reject, Unsupported, _show, fields, integer, rational


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
        if not bias and not self.scales and all(type(k) is int for _, k in key):
            return key                    # the common case: an integer key is its own monomial
        if bias and not self.bias_scale:
            raise Reject(f"{where}: a biased atom, but the problem has no biases")
        out = []
        for j, k in key + ((self.dim, bias),) if bias else key:         # the bias: variable z
            e = k * (self.scales.get(j, 1) if j < self.dim else self.bias_scale)
            if e.denominator != 1:
                raise Reject(f"{where}: {f'key coordinate {j}' if j < self.dim else 'bias'} = {k} is not on the "
                             f"problem's lattice")
            out.append((j, int(e)))
        return Monomial(out)


_TEN = 10 ** MAX_DIGITS         # integers strictly between -_TEN and _TEN fit (fits_digits)
SPARSE_KEY_DIM = 16          # canonical keys: dense lists up to this dimension, sparse objects above
# "p/q" (group 1: q) or a decimal (group 2: the exponent), ASCII: then Fraction(x) is its value
_NUMBER = re.compile(r"[+-]?[0-9]+/([0-9]+)\Z|[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?\Z")


def file_number(x, where: str) -> Fraction | int:
    """An exact number of a problem file: an integer, ``"p/q"`` or a decimal such as
    ``"1.5e-3"`` (ASCII, at most ``MAX_DIGITS`` digits, exponent at most ``MAX_EXPONENT``).

    >>> file_number("1.5e-3", "w"), file_number("-2/4", "w")
    (Fraction(3, 2000), Fraction(-1, 2))
    >>> file_number("1e99999999", "w")
    Traceback (most recent call last):
    ...
    attnproof.checker.syntax.Reject: w: "1e99999999" is not an exact number (exponent beyond 2000)
    """
    if type(x) is int:
        return rational(x, where)
    m = _NUMBER.match(x) if isinstance(x, str) and len(x) <= MAX_DIGITS + 20 else None
    if m is None:
        raise Reject(f"{where}: {_show(x)} is not an exact number (an integer or a string such as "
                     f"\"1/2\" or \"0.5\")")
    if m[1] and not int(m[1]):
        raise Reject(f"{where}: {_show(x)} has a zero denominator")
    if m[2] and (len(m[2].lstrip("+-")) > 6 or abs(int(m[2])) > MAX_EXPONENT):
        raise Reject(f"{where}: {_show(x)} is not an exact number (exponent beyond {MAX_EXPONENT})")
    val = Fraction(x)
    if not (fits_digits(val.numerator) and fits_digits(val.denominator)):
        raise Reject(f"{where}: {_show(x)} has more than {MAX_DIGITS} digits")
    return val


def parse_key(x, dim: int, where: str, number=rational) -> tuple:
    """A key as sparse ``((j, value), ...)`` pairs of its non-zero coordinates.

    A key is a dense list of ``dim`` numbers or a sparse object ``{"j": value}``
    (decimal index without leading zeros; missing coordinates are 0), whatever
    ``dim``: which one a producer writes serves determinism, not soundness
    (:mod:`attnproof.certificate.lint`).

    >>> parse_key([0, "1/2"], 2, "k"), parse_key({"17": 3, "2": 0}, 20, "k")
    (((1, Fraction(1, 2)),), ((17, 3),))
    """
    if isinstance(x, list):
        if len(x) != dim:
            raise Reject(f"{where}: key has dimension {len(x)}, expected {dim}")
        vals = [(j, c if type(c) is int and -_TEN < c < _TEN else number(c, f"{where}[{j}]"))
                for j, c in enumerate(x)]
        return tuple([(j, v) for j, v in vals if v])
    if not isinstance(x, dict):
        raise Reject(f"{where}: key must be a list of {dim} numbers or a sparse object such as "
                     f"{{\"0\": 1}}")
    out = []
    for j_s, c in x.items():
        j = int(j_s) if isinstance(j_s, str) and len(j_s) < 10 and j_s.isdecimal() else dim
        if j >= dim or str(j) != j_s:         # ASCII decimal digits, no leading zero
            raise Reject(f"{where}: key index {j_s!r} is not a coordinate 0..{dim - 1}")
        out.append((j, c if type(c) is int and -_TEN < c < _TEN else number(c, f"{where}[{j_s}]")))
    return tuple(sorted([(j, v) for j, v in out if v]))


_NEEDED, _OPTIONAL = {"key", "value"}, {"bias", "weight"}


def _atom(a, dim: int, value_dim, number) -> tuple:
    # one atom; its messages start at the atom (parse_atoms puts where it is in front)
    fields(a, _NEEDED, _OPTIONAL, "")
    key = parse_key(a["key"], dim, ", key", number)
    v = a["value"]
    if not isinstance(v, list):
        vals = (v if type(v) is int and -_TEN < v < _TEN else number(v, ", value"),)
    elif v:
        vals = tuple([number(c, f", value[{i}]") for i, c in enumerate(v)])
    else:
        raise Reject(": value is an empty list")
    if value_dim is not None and len(vals) != value_dim:
        raise Reject(f": value has {len(vals)} components, expected {value_dim}")
    bias = number(a["bias"], ", bias") if "bias" in a else 0
    weight = number(a["weight"], ", weight") if "weight" in a else 1
    if weight <= 0:
        raise Reject(": weight must be positive")
    return (key, bias or 0, 1 if weight == 1 else weight, vals)


def atoms_cost(atoms_in: list) -> int:
    """The work of reading an atom list and building its polynomials, charged before
    either is done (docs/certificates.md §8): three units per atom plus its key
    coordinates and value components.

    >>> atoms_cost([{"key": [1, 0], "value": 1}, {"key": {}, "value": [0, 1]}])
    11
    """
    n = 3 * len(atoms_in)
    for a in atoms_in:
        if isinstance(a, dict):
            k, v = a.get("key"), a.get("value")
            n += (len(k) if isinstance(k, (list, dict)) else 1) + (len(v) if isinstance(v, list) else 1)
    return n


def parse_atoms(atoms_in, dim: int, value_dim, where: str,
                budget: Budget = UNLIMITED, number=rational) -> tuple[list, int]:
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
        try:
            out.append(_atom(a, dim, value_dim, number))
        except Reject as e:
            raise Reject(f"{where}, atom {a_i}{e}") from None
        value_dim = len(out[-1][3])
    return out, value_dim


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
    N: list[dict] = [{} for _ in range(pb.value_dim)]
    for key, bias, w, vals in atoms:
        m = pb.monomial(key, bias, where)     # never off the lattice: the atoms made it, or were checked
        old = D.get(m)
        if type(w) is not int or old is not None and type(old) is not int:
            ww = 1 + _words(w)
            cost = 0 if old is None else (1 + _words(old)) * ww
            cost += sum((1 + _words(N[c].get(m, 0))) * (ww + _words(v)) for c, v in enumerate(vals))
            budget.charge(cost // 128, "adding atoms with rational weights")
        D[m] = D.get(m, 0) + w         # weights are positive: no cancellation
        for c, v in enumerate(vals):
            t = N[c].get(m, 0) + w * v
            if t:
                N[c][m] = t
            else:
                N[c].pop(m, None)
    return {m: _num(c) for m, c in D.items()}, [{m: _num(c) for m, c in n.items()} for n in N]


def read_heads(doc, consume: bool = False, budget: Budget = UNLIMITED,
               number=rational) -> tuple[int, list, list]:
    """``(dim, [atoms of each head], [name of each head])`` of a problem document: the one
    reader of the problem format, for the embedded problem (``number`` the certificate's
    :func:`~attnproof.checker.syntax.rational`) and for a problem file (:func:`file_number`).

    The canonical form (defaults left out, keys dense up to dimension 16) serves determinism,
    not soundness: any form is read, :func:`canonical_problem` writes the canonical one.
    ``consume``: each head's JSON is dropped once read (``heads[h] = None``).
    """
    fields(doc, {"format", "version", "dim", "heads"}, {"name", "description"}, "problem")
    if doc["format"] != "attnproof-problem":
        raise Reject("problem: format must be 'attnproof-problem'")
    if integer(doc["version"], "problem: version") != 1:
        raise Reject("problem: unsupported problem version (this checker reads 1)")
    dim = integer(doc["dim"], "problem: dim", 0)
    if dim > MAX_DIM:
        raise Reject(f"problem: dim {dim} is above the format's limit {MAX_DIM}")
    heads = doc["heads"]
    if not isinstance(heads, list) or not heads:
        raise Reject("problem: 'heads' must be a non-empty list")
    parsed, names, m = [], [], None
    for h_i, h in enumerate(heads):
        w = f"problem head {h_i}"
        names.append(fields(h, {"atoms"}, {"name"}, w).get("name"))
        if not isinstance(names[-1], (str, type(None))):
            raise Reject(f"{w}: name must be a string")
        atoms, m = parse_atoms(h["atoms"], dim, m, w, budget, number)
        parsed.append(atoms)
        if consume:
            heads[h_i] = None
    return dim, parsed, names


_DEFAULTS = (("bias", 0), ("weight", 1))      # left out of a canonical atom


def _canonical_number(x):
    return x if type(x) is int else int(x) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def canonical_problem(doc, number=file_number) -> dict:
    """The canonical document of a problem (defaults left out, numbers canonical): the form
    that ``attnproof`` writes, embeds and hashes (``problem_to_dict``).

    >>> canonical_problem({"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
    ...     {"atoms": [{"key": ["0.5"], "value": [1], "weight": "1"}]}]})["heads"]
    [{'atoms': [{'key': ['1/2'], 'value': 1}]}]
    >>> canonical_problem({"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
    ...     {"atoms": [{"key": [1], "value": 1, "wieght": "2"}]}]})
    Traceback (most recent call last):
    ...
    attnproof.checker.syntax.Reject: problem head 0, atom 0: unknown field 'wieght'
    """
    c = _canonical_number
    dim, parsed, names = read_heads(doc, number=number)
    heads = []
    for atoms, name in zip(parsed, names):
        out = []
        for key, bias, weight, vals in atoms:
            k = dict(key)
            a = {"key": {str(j): c(v) for j, v in key} if dim > SPARSE_KEY_DIM else
                 [c(k.get(j, 0)) for j in range(dim)],
                 "value": c(vals[0]) if len(vals) == 1 else [c(v) for v in vals], "bias": c(bias), "weight": c(weight)}
            out.append({f: x for f, x in a.items() if (f, x) not in _DEFAULTS})
        heads.append({"atoms": out} if name is None else {"atoms": out, "name": name})
    return {"format": "attnproof-problem", "version": 1, "dim": dim, "heads": heads}


def parse_problem(doc, consume: bool = False, budget: Budget = UNLIMITED) -> Problem:
    """Parse the embedded problem (:func:`read_heads`) and build every head's ``N_h/D_h``.

    ``consume``: the document is the caller's to discard; each head's JSON is
    dropped once read (``heads[h] = None``), so that the document and the
    polynomials are never both held whole.  Each head's reading is charged to
    ``budget`` before it is done (:func:`atoms_cost`).
    """
    dim, parsed, _ = read_heads(doc, consume, budget)
    m = len(parsed[0][0][3])
    scales: dict = {}          # the biases' scale L as coordinate dim's, while it is built
    biased = False
    for atoms in parsed:
        for key, bias, _, _ in atoms:
            biased = biased or bias != 0
            for j, c in key + ((dim, bias),) if bias else key:
                if type(c) is not int and c.denominator != 1:
                    s = scales[j] = lcm(scales.get(j, 1), c.denominator)
                    if s.bit_length() > MAX_LATTICE_BITS:
                        raise Unsupported(f"problem: the lattice scale of "
                                          f"{'the biases' if j == dim else f'coordinate {j}'} has more "
                                          f"than {MAX_LATTICE_BITS} bits")
    L = scales.pop(dim, 1)
    pb = Problem(dim, m, scales, L if biased else 0, [], [])
    for h_i, atoms in enumerate(parsed):
        D, N = head_polys(pb, atoms, f"problem head {h_i}", budget)
        pb.den.append(D)
        pb.num.append(N)
        parsed[h_i] = None
    return pb
