"""Safe exact input and output: numbers, problem files, canonical JSON, atomic writes.

Number rule (applies everywhere a problem file holds a number):

* JSON integers are exact integers.
* Strings hold exact rationals: ``"3"``, ``"-2/7"``, ``"0.1"`` (= 1/10),
  ``"1.5e-3"`` (= 3/2000).  ASCII digits only; no ``_``, no hex, no spaces.
  At most 2000 digits and exponents of at most 2000 in absolute value, and the
  exact value's numerator and denominator have at most 2000 digits each (the
  format's limits, shared with the checker: ``attnproof.checker.limits``).
* **JSON floats are rejected** (``0.1`` written as a bare JSON number cannot be
  told apart from the binary float 0.1000000000000000055...).  Write them as
  strings.  ``true``/``false``, ``NaN``, ``Infinity`` and ``null`` are rejected.

Keys are dense lists of ``dim`` numbers, or sparse objects ``{"j": value}`` with
0-based coordinate indices as strings (missing coordinates are 0).  The
canonical form is dense up to ``dim`` 16 and sparse above.

>>> parse_number("0.1")
Fraction(1, 10)
>>> parse_number("-22/7")
Fraction(-22, 7)
>>> parse_number("2.5e-2")
Fraction(1, 40)
>>> parse_number(0.5)
Traceback (most recent call last):
...
attnproof.errors.NumberError: 0.5 is a JSON float; write exact numbers as integers or strings such as "1/2" or "0.5"
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import re
import tempfile
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any, BinaryIO, Callable, Sequence

from .checker.limits import (MAX_CONTAINERS, MAX_DIGITS, MAX_DIM, MAX_EXPONENT, MAX_FILE_BYTES,
                             containers, fits_digits)
from .errors import InputError, LimitError, NumberError, ValidationError
from .model import Atom, Head, MultiHead

__all__ = [
    "parse_number", "format_number", "load_problem", "loads_problem", "problem_to_dict",
    "problem_from_dict", "canonical_json", "problem_sha256", "dump_problem",
    "atomic_write", "atomic_write_text", "read_json_file", "read_text_file", "key_to_json",
    "sparse_key_to_json", "decimal_string",
]

PROBLEM_FORMAT = "attnproof-problem"
PROBLEM_VERSION = 1

_NUM_RE = re.compile(
    r"^(?P<sign>[+-]?)(?:(?P<int>[0-9]+)(?:\.(?P<frac>[0-9]*))?|\.(?P<frac2>[0-9]+))"
    r"(?:[eE](?P<exp>[+-]?[0-9]+))?\Z")
_RAT_RE = re.compile(r"^(?P<num>[+-]?[0-9]+)/(?P<den>[0-9]+)\Z")


_FAST_INT = 10 ** 18           # integers below this in absolute value fit MAX_DIGITS trivially
# Fractions are immutable: small integers share one object each (less memory, no construction)
_SMALL_FRACTIONS = {i: Fraction(i) for i in range(-64, 257)}


@contextmanager
def paused_gc():
    """Pause the cyclic garbage collector (restored on exit, if it was running).

    Large problems, bounds and certificates are millions of small acyclic containers
    that live on: the collector would rescan them again and again to free nothing;
    reference counting still frees whatever is dropped.  (The checker has its own.)

    >>> with paused_gc():
    ...     gc.isenabled()
    False
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()

def parse_number(x: Any, where: str = "") -> Fraction:
    """Parse one exact number of a problem file (see the module's number rule).

    >>> parse_number(3), parse_number("1/3"), parse_number("1e3")
    (Fraction(3, 1), Fraction(1, 3), Fraction(1000, 1))
    >>> parse_number("1e999999999")
    Traceback (most recent call last):
    ...
    attnproof.errors.NumberError: '1e999999999': exponent 999999999 is out of range (|exponent| <= 2000)
    """
    if type(x) is int and -_FAST_INT < x < _FAST_INT:     # the common case: a plain integer
        f = _SMALL_FRACTIONS.get(x)
        return f if f is not None else Fraction(x)
    pre = f"{where}: " if where else ""
    if isinstance(x, bool) or x is None:
        raise NumberError(f"{pre}{json.dumps(x)} is not a number")
    if isinstance(x, int):
        if not fits_digits(x):
            raise NumberError(f"{pre}integer with more than {MAX_DIGITS} digits")
        return Fraction(x)
    if isinstance(x, float):
        raise NumberError(
            f"{pre}{x!r} is a JSON float; write exact numbers as integers or strings "
            f"such as \"1/2\" or \"0.5\"")
    if isinstance(x, Fraction):
        return x
    if not isinstance(x, str):
        raise NumberError(f"{pre}expected a number, got {type(x).__name__}")
    s = x
    shown = s if len(s) <= 40 else s[:37] + "..."
    if len(s) > MAX_DIGITS + 20:
        raise NumberError(f"{pre}{shown!r}: more than {MAX_DIGITS} characters")
    if not s.isascii():
        raise NumberError(f"{pre}{shown!r}: only ASCII digits are accepted")
    m = _RAT_RE.match(s)
    if m:
        den = int(m.group("den"))
        if den == 0:
            raise NumberError(f"{pre}{shown!r}: zero denominator")
        val = Fraction(int(m.group("num")), den)
        if not (fits_digits(val.numerator) and fits_digits(val.denominator)):
            raise NumberError(f"{pre}{shown!r}: more than {MAX_DIGITS} digits")
        return val
    m = _NUM_RE.match(s)
    if not m:
        raise NumberError(
            f"{pre}{shown!r} is not an exact number (use an integer, \"p/q\" or a decimal such as \"0.25\")")
    digits = m.group("int") or ""
    frac = m.group("frac") if m.group("frac") is not None else (m.group("frac2") or "")
    exp_s = m.group("exp")
    exp = 0
    if exp_s is not None:
        if len(exp_s.lstrip("+-")) > 6:
            raise NumberError(f"{pre}{shown!r}: exponent {exp_s} is out of range (|exponent| <= {MAX_EXPONENT})")
        exp = int(exp_s)
        if abs(exp) > MAX_EXPONENT:
            raise NumberError(f"{pre}{shown!r}: exponent {exp} is out of range (|exponent| <= {MAX_EXPONENT})")
    mant = int((digits + frac) or "0")
    scale = exp - len(frac)
    val = Fraction(mant * 10 ** scale) if scale >= 0 else Fraction(mant, 10 ** (-scale))
    if not (fits_digits(val.numerator) and fits_digits(val.denominator)):
        raise NumberError(f"{pre}{shown!r}: the exact value has more than {MAX_DIGITS} digits "
                          "in its numerator or denominator")
    return -val if m.group("sign") == "-" else val


def format_number(x: Fraction | int) -> int | str:
    """Canonical JSON form of an exact number: an int when integral, else ``"p/q"``.

    >>> format_number(Fraction(4, 2)), format_number(Fraction(-1, 3))
    (2, '-1/3')
    """
    if type(x) is int:          # the common case, without building a Fraction
        return x
    if not isinstance(x, Fraction):
        x = Fraction(x)
    if x.denominator == 1:
        return int(x.numerator)
    return f"{x.numerator}/{x.denominator}"


def _format_fraction(x: Fraction | int) -> int | str:
    """:func:`format_number`, quicker for the Fractions every atom holds."""
    if type(x) is Fraction:
        q = x.denominator
        n = x.numerator
        if type(n) is int:
            return n if q == 1 else f"{n}/{q}"
    return format_number(x)


def decimal_string(n: int) -> str:
    """Decimal digits of an integer of any size (Python's ``str`` refuses more than
    4300 digits by default; this splits the number instead of lifting the limit).

    >>> s = decimal_string(2 ** 100000)
    >>> len(s), s[:6], s[-4:]
    (30103, '999002', '9376')
    """
    if n < 0:
        return "-" + decimal_string(-n)
    if n.bit_length() < 13000:                    # < 3914 digits: within the default limit
        return str(n)
    k = int(n.bit_length() * 0.30103) // 2        # split near the middle of the digits
    hi, lo = divmod(n, 10 ** k)
    low = decimal_string(lo)
    return decimal_string(hi) + "0" * (k - len(low)) + low


def _reject_constant(name: str) -> Any:
    raise NumberError(f"{name} is not an exact number")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):              # rare: name the first repeated key
        seen: set = set()
        for k, _ in pairs:
            if k in seen:
                raise InputError(f"duplicate key {k!r} in a JSON object")
            seen.add(k)
    return out


def _float_hook(s: str) -> float:
    raise NumberError(
        f"{s} is a JSON float; write exact numbers as integers or strings such as \"1/2\" or \"0.5\"")


def _int_hook(s: str) -> int:
    if len(s.lstrip("-")) > MAX_DIGITS:
        raise NumberError(f"integer with more than {MAX_DIGITS} digits")
    return int(s)


def loads_json(text: str) -> Any:
    """Strict JSON: no duplicate keys, no floats, NaN or Infinity.

    >>> loads_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: duplicate key 'a' in a JSON object
    """
    if containers(text) > MAX_CONTAINERS:
        raise LimitError(f"more than {MAX_CONTAINERS} JSON objects and arrays")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_float=_float_hook,
                          parse_int=_int_hook, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise InputError(f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise InputError("JSON nested too deeply") from None


def _loads_yaml(text: str) -> Any:
    try:
        import yaml  # type: ignore
    except ImportError:
        raise InputError("YAML input needs PyYAML (pip install pyyaml); or use JSON") from None

    class _StrictLoader(yaml.SafeLoader):  # type: ignore[misc]
        pass

    def _map(loader: Any, node: Any) -> dict:
        pairs = loader.construct_pairs(node, deep=True)
        return _no_duplicates(pairs)

    def _reject_float(loader: Any, node: Any) -> Any:
        raise NumberError(f"{node.value!r} is a YAML float; quote exact numbers (\"0.5\", \"1/2\")")

    _StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _map)
    _StrictLoader.add_constructor("tag:yaml.org,2002:float", _reject_float)
    def _ambiguous(loader: Any, node: Any) -> Any:
        raise InputError(f"{node.value!r} is ambiguous in YAML 1.1; quote it")

    for tag in ("bool", "timestamp", "null"):
        _StrictLoader.add_constructor(f"tag:yaml.org,2002:{tag}", _ambiguous)

    def _int(loader: Any, node: Any) -> int:
        v = node.value
        if not re.fullmatch(r"[+-]?(0|[1-9][0-9]*)", v):
            raise NumberError(f"{v!r} is ambiguous in YAML 1.1 (octal, hex or sexagesimal); quote it")
        return _int_hook(v)

    _StrictLoader.add_constructor("tag:yaml.org,2002:int", _int)

    def _str(loader: Any, node: Any) -> str:
        # YAML 1.1 reads plain 1e3 as a string: demand quotes for anything number-like
        if node.style is None and re.fullmatch(r"[0-9+\-.eE/_:]+", node.value or ""):
            raise NumberError(f"{node.value!r} is ambiguous in YAML 1.1; quote it")
        return loader.construct_scalar(node)

    _StrictLoader.add_constructor("tag:yaml.org,2002:str", _str)
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - strict SafeLoader subclass
    except yaml.YAMLError as e:
        raise InputError(f"not valid YAML: {str(e).splitlines()[0]}") from None
    except RecursionError:
        raise InputError("YAML nested too deeply") from None


def read_text_file(path: str | os.PathLike, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a file, with one-line errors for every way reading can fail.

    >>> read_text_file("no/such/file.txt")
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: no/such/file.txt: no such file
    """
    p = Path(path)
    try:
        with open(p, "rb") as f:
            raw = f.read(max_bytes + 1)
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{p}: is a directory") from None
    except PermissionError:
        raise InputError(f"{p}: permission denied") from None
    except OSError as e:
        raise InputError(f"{p}: cannot be read ({e.strerror})") from None
    if len(raw) > max_bytes:
        raise InputError(f"{p}: file is larger than {max_bytes} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{p}: not UTF-8 text") from None


def read_json_file(path: str | os.PathLike) -> Any:
    """Read a JSON (or, by extension ``.yaml``/``.yml``, YAML) file strictly.

    >>> read_json_file("no/such/file.json")
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: no/such/file.json: no such file
    """
    p = Path(path)
    text = read_text_file(p)
    try:
        if p.suffix.lower() in (".yaml", ".yml"):
            return _loads_yaml(text)
        return loads_json(text)
    except InputError as e:            # syntax and float errors name the file
        raise type(e)(f"{p}: {e}") from None


def _check_keys(obj: dict, allowed: set[str], required: set[str], where: str) -> None:
    extra = sorted(set(obj) - allowed)
    if extra:
        raise ValidationError(f"{where}: unknown field {extra[0]!r} (allowed: {', '.join(sorted(allowed))})")
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
    return problem_from_dict(loads_json(text))


def load_problem(path: str | os.PathLike) -> MultiHead:
    """Load and validate a problem file (JSON, YAML by extension, or ``.npz`` arrays:
    :func:`attnproof.arrays.load_npz`).

    >>> import tempfile, os
    >>> from attnproof.families import sigmoid_sum
    >>> path = os.path.join(tempfile.mkdtemp(), "w2.json")
    >>> dump_problem(sigmoid_sum(2), path)
    >>> load_problem(path) == sigmoid_sum(2)
    True
    """
    if str(path).lower().endswith(".npz"):         # arrays of floats, exact binary values
        from .arrays import load_npz
        return load_npz(path)
    with paused_gc():
        obj = read_json_file(path)
        try:
            return problem_from_dict(obj)
        except InputError as e:
            raise type(e)(f"{path}: {e}") from None


def problem_to_dict(M: MultiHead) -> dict:
    """The canonical document of a multi-head: defaults omitted, numbers canonical.

    >>> from attnproof.model import Atom, Head, MultiHead
    >>> problem_to_dict(MultiHead((Head((Atom((1,), (1,)),)),)))
    {'format': 'attnproof-problem', 'version': 1, 'dim': 1, 'heads': [{'atoms': [{'key': [1], 'value': 1}]}]}
    """
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


def canonical_json(obj: Any) -> str:
    """Canonical JSON text: sorted keys, no spaces, ASCII, trailing newline.

    >>> canonical_json({"b": 1, "a": [1, "1/2"]})
    '{"a":[1,"1/2"],"b":1}\\n'
    """
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False) + "\n"


def problem_sha256(M: MultiHead) -> str:
    """SHA-256 of the canonical JSON of the problem (hex).

    >>> from attnproof.families import sigmoid_sum
    >>> problem_sha256(sigmoid_sum(1))[:16]
    'f51da71fb60c16d2'
    """
    return hashlib.sha256(canonical_json(problem_to_dict(M)).encode("ascii")).hexdigest()


def atomic_write(path: str | os.PathLike, write: Callable[[BinaryIO], None]) -> None:
    """Write a file atomically: ``write(f)`` fills a temp file in the same folder,
    then fsync and ``os.replace``.  A crash mid-write leaves the old file or none,
    never a partial one; a new file gets the usual permissions (umask), a replaced
    one keeps its own.

    What ``PATH`` may be (every ``-o PATH`` of the command line):

    * a symlink is **followed**: its final target is replaced atomically and the
      link itself stays (a dangling link creates its target);
    * an existing character device or pipe (``/dev/null``, ``/dev/stdout``) is
      **written through**, never replaced;
    * a directory, socket, block device or anything else that is not a regular
      file is **refused** (:class:`~attnproof.errors.InputError`, exit 3).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "a.bin")
    >>> atomic_write(path, lambda f: f.write(b"abc"))
    >>> open(path, "rb").read(), os.listdir(os.path.dirname(path))
    (b'abc', ['a.bin'])
    >>> atomic_write(os.devnull, lambda f: f.write(b"x")); os.path.exists(os.devnull)
    True
    """
    import stat as _stat

    p = Path(path)
    try:
        st = os.stat(p)                      # follows symlinks
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise InputError(f"{p}: cannot be written ({e.strerror})") from None
    if st is not None and not _stat.S_ISREG(st.st_mode):
        if _stat.S_ISDIR(st.st_mode):
            raise InputError(f"{p}: is a directory")
        if not (_stat.S_ISCHR(st.st_mode) or _stat.S_ISFIFO(st.st_mode)):
            raise InputError(f"{p}: not a regular file, character device or pipe; refusing "
                             "to replace it")
        try:
            with open(p, "wb") as f:         # write through: the device or pipe stays
                write(f)
        except OSError as e:
            raise InputError(f"{p}: cannot be written ({e.strerror})") from None
        return
    target = Path(os.path.realpath(p)) if p.is_symlink() else p
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"{p}: folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise InputError(f"{p}: cannot be written ({e.strerror})") from None
    try:
        if st is not None:
            os.chmod(tmp, _stat.S_IMODE(st.st_mode))
        else:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise InputError(f"{p}: cannot be written ({e.strerror or e})") from None
        raise


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write UTF-8 text atomically (see :func:`atomic_write`).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> atomic_write_text(path, "hello")
    >>> open(path).read(), os.listdir(os.path.dirname(path))
    ('hello', ['a.txt'])
    """
    data = text.encode("utf-8")
    atomic_write(path, lambda f: f.write(data))


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
