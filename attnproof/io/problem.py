"""The problem format: ``{"format": "attnproof-problem", "version": 1, "dim": d, "heads": [...]}``.

Numbers follow :mod:`attnproof.io.numbers`.  Keys are dense lists of ``dim``
numbers, or sparse objects ``{"j": value}`` with 0-based coordinate indices as
strings (missing coordinates are 0).  The canonical form is dense up to ``dim``
16 and sparse above.

>>> from attnproof.families import sigmoid_sum
>>> loads_problem(canonical_json(problem_to_dict(sigmoid_sum(2)))) == sigmoid_sum(2)
True
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from ..checker.limits import MAX_DIM, fits_digits
from ..errors import InputError, NumberError, ValidationError
from ..heads import Atom, Head, MultiHead
from .files import (atomic_write_text, canonical_json, loads_json, paused_gc, read_json_file,
                    read_text_file)
from .numbers import (_FAST_INT, _SMALL_FRACTIONS, _format_fraction, exact_decimal, format_number,
                      parse_number)
import difflib
from ..errors import AttnproofError
from .files import _loads_yaml
from .npz import load_npz

__all__ = ["PROBLEM_FORMAT", "PROBLEM_VERSION", "SPARSE_KEY_DIM", "load_problem", "loads_problem",
           "dump_problem", "problem_from_dict", "problem_to_dict", "problem_sha256", "key_to_json",
           "sparse_key_to_json", "as_problem", "fused_atom_docs", "fused_atom_json", "number_json", "decimal_atom_docs",
           "one_head_document"]

PROBLEM_FORMAT = "attnproof-problem"
PROBLEM_VERSION = 1


def _check_keys(obj: dict, allowed: set[str], required: set[str], where: str) -> None:
    extra = sorted(set(obj) - allowed)
    if extra:
        close = difflib.get_close_matches(str(extra[0]), sorted(allowed), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise ValidationError(f"{where}: unknown field {extra[0]!r} ({hint}allowed: "
                              f"{', '.join(sorted(allowed))})")
    missing = sorted(required - set(obj))
    if missing:
        raise ValidationError(f"{where}: missing field {missing[0]!r}")


def _parse_vector(x: Any, where: str) -> tuple[Fraction, ...]:
    if isinstance(x, list):
        if not x:
            raise ValidationError(f"{where}: empty list")
        return tuple(parse_number(c, f"{where}[{i}]") for i, c in enumerate(x))
    return (parse_number(x, where),)


_ZERO = _SMALL_FRACTIONS[0]
_ONE = _SMALL_FRACTIONS[1]
_INDEX_RE = re.compile(r"0|[1-9][0-9]{0,8}")


def _parse_key(key: Any, d: int, where: str) -> tuple[tuple[int, Fraction], ...]:
    """A key as sorted ``(j, value)`` pairs of its non-zero coordinates.

    Written as a dense list of ``d`` numbers, or a sparse object ``{"j": value}``
    (0-based coordinate index as a decimal string; missing coordinates are 0).
    Work is proportional to what is written, never to ``d`` for sparse keys.

    >>> _parse_key({"7": "1/2", "2": 0}, 10, "k"), _parse_key([0, 3], 2, "k")
    (((7, Fraction(1, 2)),), ((1, Fraction(3, 1)),))
    """
    if isinstance(key, list):
        if len(key) != d:
            raise ValidationError(f"{where}: key has dimension {len(key)}, the problem has dim {d}")
        out = []
        for j, c in enumerate(key):
            v = parse_number(c, f"{where}, key[{j}]")
            if v:
                out.append((j, v))
        return tuple(out)
    if isinstance(key, dict):
        out = []
        for j_s, c in key.items():
            if not isinstance(j_s, str) or not _INDEX_RE.fullmatch(j_s) or int(j_s) >= d:
                raise ValidationError(
                    f"{where}: sparse key index {j_s!r} is not a coordinate 0..{d - 1}")
            v = parse_number(c, f"{where}, key[{j_s}]")
            if v:
                out.append((int(j_s), v))
        out.sort(key=_first)
        return tuple(out)
    raise ValidationError(
        f"{where}: key must be a list of {d} numbers or a sparse object such as {{\"0\": 1}}")


def _first(t: tuple) -> Any:
    return t[0]


_ATOM_FIELDS = frozenset({"key", "value", "bias", "weight"})
_HEAD_FIELDS = frozenset({"name", "atoms"})


def _fast_atom(a: Any, d: int) -> tuple | None:
    """``(sparse key, value, bias, weight)`` of a well-formed atom object, or None.

    The same values as the checked path of :func:`problem_from_dict`, without
    building its error locations; None for anything else (including every
    input that is an error), which the checked path then parses and reports.

    >>> _fast_atom({"key": {"3": 2, "1": "1/2"}, "value": 1}, 5)
    (((1, Fraction(1, 2)), (3, Fraction(2, 1))), (Fraction(1, 1),), Fraction(0, 1), Fraction(1, 1))
    >>> _fast_atom({"key": {"5": 1}, "value": 1}, 5) is None
    True
    """
    if type(a) is not dict or not a.keys() <= _ATOM_FIELDS:
        return None
    key = a.get("key")
    val = a.get("value")
    if key is None or val is None:
        return None
    num = parse_number
    small = _SMALL_FRACTIONS
    big = _FAST_INT
    try:
        out = []
        if type(key) is dict:
            last = -1
            ordered = True
            match = _INDEX_RE.fullmatch
            for j_s, c in key.items():
                if type(j_s) is not str or not match(j_s):
                    return None
                j = int(j_s)
                if j >= d:
                    return None
                if type(c) is int and -big < c < big:      # plain integers: no Fraction arithmetic
                    if not c:
                        continue
                    v = small.get(c) or Fraction(c)
                else:
                    v = num(c)
                    if not v:
                        continue
                out.append((j, v))
                if j < last:
                    ordered = False
                last = j
            if not ordered:
                out.sort(key=_first)
        elif type(key) is list and len(key) == d:
            for j, c in enumerate(key):
                v = num(c)
                if v:
                    out.append((j, v))
        else:
            return None
        if type(val) is list:
            if not val:
                return None
            value = tuple([num(c) for c in val])
        else:
            value = (num(val),)
        b = a.get("bias")
        b = _ZERO if b is None and "bias" not in a else num(b)
        w = a.get("weight")
        if w is None and "weight" not in a:
            w = _ONE
        else:
            w = num(w)
            if w.numerator <= 0:
                return None
    except InputError:
        return None
    return tuple(out), value, b, w


SPARSE_KEY_DIM = 16


def key_to_json(key: Sequence[Fraction | int], dim: int) -> list | dict:
    """Canonical JSON form of a key: a dense list when ``dim <= 16``, else sparse.

    >>> key_to_json((1, 0, Fraction(1, 2)), 3)
    [1, 0, '1/2']
    >>> key_to_json((0,) * 19 + (2,), 20)
    {'19': 2}
    """
    if dim <= SPARSE_KEY_DIM:
        return [format_number(c) for c in key]
    return {str(j): format_number(c) for j, c in enumerate(key) if c}


def sparse_key_to_json(sparse_key: Sequence[tuple[int, Fraction | int]], dim: int) -> list | dict:
    """Canonical JSON form of a key given by its sorted non-zero ``(j, value)`` pairs.

    Same output as :func:`key_to_json` on the dense key; linear in the pairs above dim 16.

    >>> sparse_key_to_json(((2, Fraction(1, 2)),), 3), sparse_key_to_json(((19, 2),), 20)
    ([0, 0, '1/2'], {'19': 2})
    """
    if dim <= SPARSE_KEY_DIM:
        out: list = [0] * dim
        for j, c in sparse_key:
            out[j] = format_number(c)
        return out
    return {str(j): format_number(c) for j, c in sparse_key if c}


def problem_from_dict(obj: Any) -> MultiHead:
    """Build a validated :class:`MultiHead` from a parsed problem document.

    >>> M = problem_from_dict({"format": "attnproof-problem", "version": 1, "dim": 1,
    ...     "heads": [{"atoms": [{"key": [1], "value": 1}, {"key": ["0.5"], "value": "1/2"}]}]})
    >>> M.heads[0].atoms[1].key
    (Fraction(1, 2),)
    """
    if not isinstance(obj, dict):
        raise ValidationError("a problem file must be a JSON object")
    _check_keys(obj, {"format", "version", "dim", "heads", "name", "description"},
                {"format", "version", "dim", "heads"}, "problem")
    if obj["format"] != PROBLEM_FORMAT:
        raise ValidationError(f"problem: format must be {PROBLEM_FORMAT!r}, got {obj['format']!r}")
    if type(obj["version"]) is not int or obj["version"] != PROBLEM_VERSION:
        raise ValidationError(f"problem: unsupported version {obj['version']!r} (this attnproof reads version 1)")
    d = obj["dim"]
    if type(d) is not int or d < 0 or d > MAX_DIM:
        raise ValidationError(f"problem: dim must be an integer from 0 to {MAX_DIM}, got "
                              f"{d if type(d) is int and fits_digits(d) else type(d).__name__}")
    heads_in = obj["heads"]
    if not isinstance(heads_in, list) or not heads_in:
        raise ValidationError("problem: 'heads' must be a non-empty list")
    heads = []
    for h_i, h in enumerate(heads_in):
        if type(h) is dict and h.keys() <= _HEAD_FIELDS:
            name = h.get("name")
            atoms_in = h.get("atoms")
            if (name is None or type(name) is str) and type(atoms_in) is list and atoms_in:
                atoms = []
                m0 = None
                trusted = Atom._trusted
                for a in atoms_in:
                    r = _fast_atom(a, d)
                    if r is None or (m0 is not None and len(r[1]) != m0):
                        break
                    m0 = len(r[1])
                    atoms.append(trusted(d, *r))
                else:
                    heads.append(Head._trusted(tuple(atoms), name))
                    continue
        # the checked path: every error named with its location
        if not isinstance(h, dict):
            raise ValidationError(f"head {h_i}: must be an object with 'atoms'")
        _check_keys(h, {"name", "atoms"}, {"atoms"}, f"head {h_i}")
        name = h.get("name")
        if name is not None and not isinstance(name, str):
            raise ValidationError(f"head {h_i}: name must be a string")
        label = f"head {h_i}" + (f" ({name!r})" if name else "")
        atoms_in = h["atoms"]
        if not isinstance(atoms_in, list) or not atoms_in:
            raise ValidationError(f"{label}: 'atoms' must be a non-empty list")
        atoms = []
        m0 = None
        for a_i, a in enumerate(atoms_in):
            where = f"{label}, atom {a_i}"
            if not isinstance(a, dict):
                raise ValidationError(f"{where}: must be an object")
            _check_keys(a, {"key", "value", "bias", "weight"}, {"key", "value"}, where)
            k = _parse_key(a["key"], d, where)
            v = _parse_vector(a["value"], f"{where}, value")
            if m0 is None:
                m0 = len(v)
            elif len(v) != m0:
                raise ValidationError(f"{where}: value has dimension {len(v)}, atom 0 has {m0}")
            b = parse_number(a.get("bias", 0), f"{where}, bias")
            w = parse_number(a.get("weight", 1), f"{where}, weight")
            if w <= 0:
                raise ValidationError(f"{where}: weight must be positive, got {format_number(w)}")
            atoms.append(Atom._trusted(d, k, v, b, w))
        heads.append(Head(tuple(atoms), name=name))
    return MultiHead(tuple(heads), dim=d)


def loads_problem(text: str) -> MultiHead:
    """Parse a problem from JSON text.

    >>> loads_problem('{"format": "attnproof-problem", "version": 1, "dim": 1, "heads": []}')
    Traceback (most recent call last):
    ...
    attnproof.errors.ValidationError: problem: 'heads' must be a non-empty list
    """
    try:
        doc = loads_json(text)
    except NumberError as e:
        where = _float_location(text) if "JSON float" in str(e) else None
        raise NumberError(f"{where}: {e}" if where else str(e)) from None
    return problem_from_dict(doc)


class _JsonFloat(str):
    """A float's (or NaN's, Infinity's) text, kept by :func:`_float_location` to find where it is."""


def _float_location(text: str, yaml: bool = False) -> str | None:
    r"""Where the first float (or ``NaN``, ``Infinity``) of a problem's JSON or YAML text is:
    ``head 0 ('s'), atom 1, value``.

    >>> _float_location('{"heads": [{"name": "s", "atoms": [{"key": [1], "value": 1},'
    ...                 ' {"key": [0], "value": [0, 0.5]}]}]}')
    "head 0 ('s'), atom 1, value"
    >>> _float_location('{"heads": [{"atoms": [{"key": [NaN], "value": 1}]}]}')
    'head 0, atom 0, key'
    >>> _float_location("heads:\n- atoms:\n  - {key: [1], value: 0.5}\n", yaml=True)
    'head 0, atom 0, value'
    """

    try:
        doc = (_loads_yaml(text, floats_as=_JsonFloat) if yaml else
               json.loads(text, parse_float=_JsonFloat, parse_constant=_JsonFloat))
    except (ValueError, RecursionError, AttnproofError):
        return None

    def has_float(x) -> bool:
        if isinstance(x, _JsonFloat):
            return True
        if isinstance(x, dict):
            return any(has_float(v) for v in x.values())
        if isinstance(x, list):
            return any(has_float(v) for v in x)
        return False

    if not isinstance(doc, dict):
        return None
    for name in ("dim", "version"):
        if has_float(doc.get(name)):
            return f"problem: {name}"
    heads = doc.get("heads")
    for h_i, h in enumerate(heads if isinstance(heads, list) else []):
        if not has_float(h):
            continue
        label = f"head {h_i}" + (f" ({h['name']!r})" if isinstance(h, dict) and
                                 isinstance(h.get("name"), str) else "")
        atoms = h.get("atoms") if isinstance(h, dict) else None
        for a_i, a in enumerate(atoms if isinstance(atoms, list) else []):
            if isinstance(a, dict):
                for field in ("key", "value", "bias", "weight"):
                    if has_float(a.get(field)):
                        return f"{label}, atom {a_i}, {field}"
            elif has_float(a):
                return f"{label}, atom {a_i}"
        return label
    return None


def load_problem(path: str | os.PathLike) -> MultiHead:
    """Load and validate a problem file (JSON, YAML by extension, or ``.npz`` arrays:
    :func:`attnproof.io.npz.load_npz`).

    >>> import tempfile, os
    >>> from attnproof.families import sigmoid_sum
    >>> path = os.path.join(tempfile.mkdtemp(), "w2.json")
    >>> dump_problem(sigmoid_sum(2), path)
    >>> load_problem(path) == sigmoid_sum(2)
    True
    """
    if str(path).lower().endswith(".npz"):         # arrays of floats, exact binary values
        return load_npz(path)
    with paused_gc():
        try:
            obj = read_json_file(path)
        except NumberError as e:
            where = None
            yaml = str(path).lower().endswith((".yaml", ".yml"))
            if any(t in str(e) for t in ("JSON float", "YAML float", "is not an exact number")):
                where = _float_location(read_text_file(path), yaml)
            if where is None:
                raise
            prefix = f"{Path(path)}: "
            msg = str(e)[len(prefix):] if str(e).startswith(prefix) else str(e)
            raise NumberError(f"{Path(path)}: {where}: {msg}") from None
        try:
            return problem_from_dict(obj)
        except InputError as e:
            raise type(e)(f"{path}: {e}") from None


def problem_to_dict(M: MultiHead) -> dict:
    """The canonical document of a multi-head: defaults omitted, numbers canonical.

    >>> from attnproof.heads import Atom, Head, MultiHead
    >>> problem_to_dict(MultiHead((Head((Atom((1,), (1,)),)),)))
    {'format': 'attnproof-problem', 'version': 1, 'dim': 1, 'heads': [{'atoms': [{'key': [1], 'value': 1}]}]}

    ``M`` may also be a problem file path or a problem document (:func:`as_problem`).
    """
    if not isinstance(M, MultiHead):
        M = as_problem(M)
    heads = []
    dim = M.dim
    sparse = dim > SPARSE_KEY_DIM
    fmt = _format_fraction
    for h in M.heads:
        atoms = []
        for a in h.atoms:
            if sparse:
                ad: dict[str, Any] = {"key": {str(j): fmt(c) for j, c in a.sparse_key if c}}
            else:
                ad = {"key": sparse_key_to_json(a.sparse_key, dim)}
            v = a.value
            ad["value"] = fmt(v[0]) if len(v) == 1 else [fmt(c) for c in v]
            if a.bias != 0:
                ad["bias"] = fmt(a.bias)
            if a.weight != 1:
                ad["weight"] = fmt(a.weight)
            atoms.append(ad)
        hd: dict[str, Any] = {"atoms": atoms}
        if h.name is not None:
            hd["name"] = h.name
        heads.append(hd)
    return {"format": PROBLEM_FORMAT, "version": PROBLEM_VERSION, "dim": M.dim, "heads": heads}


def problem_sha256(M: MultiHead, canonical_text: str | None = None) -> str:
    """SHA-256 of the canonical JSON of the problem (hex).

    >>> from attnproof.families import sigmoid_sum
    >>> problem_sha256(sigmoid_sum(1))[:16]
    'f51da71fb60c16d2'
    >>> M = sigmoid_sum(1)
    >>> problem_sha256(M, canonical_json(problem_to_dict(M))) == problem_sha256(M)
    True

    ``canonical_text``: that JSON, when already written (a large problem is then not
    encoded twice); it must be ``canonical_json(problem_to_dict(M))``.
    """
    if canonical_text is None:
        canonical_text = canonical_json(problem_to_dict(M))
    return hashlib.sha256(canonical_text.encode("ascii")).hexdigest()


def dump_problem(M: MultiHead, path: str | os.PathLike) -> None:
    """Write a multi-head as a canonical problem file, atomically.

    >>> import tempfile, os
    >>> from attnproof.families import sigmoid_sum
    >>> path = os.path.join(tempfile.mkdtemp(), "w1.json")
    >>> dump_problem(sigmoid_sum(1), path)
    >>> open(path).read()[:40]
    '{"dim":1,"format":"attnproof-problem","h'
    """
    atomic_write_text(path, canonical_json(problem_to_dict(M)))


def as_problem(problem: Any) -> MultiHead:
    """A :class:`MultiHead` from a multi-head, a problem file path or a problem document.

    Every verb of the API (``fuse``, ``reduced_form``, ``bound``, ``prove``, ``search``...)
    takes its problem through this function.

    >>> as_problem({"format": "attnproof-problem", "version": 1, "dim": 1,
    ...             "heads": [{"atoms": [{"key": [1], "value": 1}, {"key": [0], "value": 0}]}]}).dim
    1
    """
    if isinstance(problem, MultiHead):
        return problem
    if isinstance(problem, dict):
        return problem_from_dict(problem)
    if isinstance(problem, (str, os.PathLike)):
        return load_problem(problem)
    raise InputError(f"expected a MultiHead, a problem file path or a problem document, "
                     f"got {type(problem).__name__}")


def fused_atom_docs(rows: Iterable[tuple], dim: int, value_dim: int) -> Iterator[dict]:
    """Atom documents of a fused head, one at a time, from its rows ``(sparse key, bias,
    weight c, numerators ns)`` (values ``ns / c``): a million-atom fusion is written
    without holding every atom document at once.

    >>> list(fused_atom_docs([(((0, 1),), 0, 2, (1,))], 2, 1))
    [{'key': [1, 0], 'value': '1/2', 'weight': 2}]
    """
    scalar = value_dim == 1
    for key, bias, c, ns in rows:
        ad: dict[str, Any] = {"key": sparse_key_to_json(key, dim)}
        vals = [n // c if n % c == 0 else format_number(Fraction(n, c)) for n in ns]
        ad["value"] = vals[0] if scalar else vals
        if bias:
            ad["bias"] = format_number(bias)
        if c != 1:
            ad["weight"] = c
        yield ad


def number_json(x) -> str:
    """The JSON text of ``format_number(x)`` (an int or a Fraction).

    >>> number_json(3), number_json(Fraction(-1, 3)), number_json(Fraction(4, 2))
    ('3', '"-1/3"', '2')
    """
    if type(x) is int:
        return str(x)
    q = x.denominator
    return str(x.numerator) if q == 1 else f'"{x.numerator}/{q}"'


def fused_atom_json(rows: Iterable[tuple], dim: int, value_dim: int) -> Iterator[str]:
    """The canonical JSON text (sorted keys, no spaces) of each document of
    :func:`fused_atom_docs` on the same rows, built without the documents: writing a
    65,536-atom fusion spent more time building and encoding dictionaries than fusing.

    >>> from attnproof.io import canonical_json
    >>> rows = [(((0, 1), (1, Fraction(-1, 2))), Fraction(1, 3), 2, (1, 4)), ((), 0, 1, (0, 0))]
    >>> [canonical_json(d)[:-1] for d in fused_atom_docs(rows, 2, 2)] == list(fused_atom_json(rows, 2, 2))
    True
    >>> list(fused_atom_json([(((19, 2),), 0, 1, (3,))], 20, 1))
    ['{"key":{"19":2},"value":3}']
    """
    scalar = value_dim == 1
    dense = dim <= SPARSE_KEY_DIM
    zeros = ["0"] * dim
    num = number_json
    for key, bias, c, ns in rows:
        if dense:
            parts = zeros.copy()
            for j, x in key:
                parts[j] = num(x)
            k = "[" + ",".join(parts) + "]"
        else:
            k = "{" + ",".join(f'"{j}":{num(x)}' for j, x in sorted((str(j), x) for j, x in key if x)) + "}"
        vals = [str(n // c) if n % c == 0 else num(Fraction(n, c)) for n in ns]
        v = vals[0] if scalar else "[" + ",".join(vals) + "]"
        head = '{"bias":' + num(bias) + ',"key":' if bias else '{"key":'
        yield head + k + ',"value":' + v + (',"weight":' + str(c) + "}" if c != 1 else "}")


def decimal_atom_docs(head: Head, dim: int, value_dim: int) -> Iterator[dict]:
    """Atom documents of a head with every number an exact decimal where it has one
    (:func:`attnproof.io.numbers.exact_decimal`): the keys of float inputs stay readable.

    >>> from attnproof.heads import Atom
    >>> list(decimal_atom_docs(Head((Atom((Fraction(3, 8),), (1,)),)), 1, 1))
    [{'key': ['0.375'], 'value': 1}]
    """
    scalar = value_dim == 1
    for a in head.atoms:
        if dim <= SPARSE_KEY_DIM:
            key: Any = [exact_decimal(c) for c in a.key]
        else:
            key = {str(j): exact_decimal(c) for j, c in enumerate(a.key) if c}
        ad: dict[str, Any] = {"key": key}
        vals = [exact_decimal(v) for v in a.value]
        ad["value"] = vals[0] if scalar else vals
        if a.bias:
            ad["bias"] = exact_decimal(a.bias)
        if a.weight != 1:
            ad["weight"] = exact_decimal(a.weight)
        yield ad


def one_head_document(atoms: Iterable[dict], dim: int, name: str | None = None) -> dict:
    """The problem document of one head given its atom documents."""
    head: dict[str, Any] = {"atoms": list(atoms)}
    if name is not None:
        head["name"] = name
    return {"format": PROBLEM_FORMAT, "version": PROBLEM_VERSION, "dim": dim, "heads": [head]}
