"""Strict JSON and exact-number syntax for the checker (standard library only).

* JSON: duplicate keys, floats, ``NaN``/``Infinity`` are rejected.
* Integers in a certificate: JSON integers (at most ``MAX_DIGITS`` digits).
  *Counts* (the bounds) are JSON integers below ``2^53`` and decimal strings
  from ``2^53`` on (at most ``MAX_COUNT_DIGITS`` digits, read in chunks), so
  that any JSON reader keeps them exact.
* Rationals of the embedded problem are canonical: a JSON integer, or a string
  ``"p/q"`` in lowest terms with ``q >= 2``.

>>> loads('{"a": 1.0}')
Traceback (most recent call last):
...
attnproof.checker.syntax.Reject: JSON float 1.0 where only exact numbers are allowed
>>> count(2**60, "x")
Traceback (most recent call last):
...
attnproof.checker.syntax.Reject: x: 1152921504606846976 is at least 2^53 and must be written as a decimal string
>>> rational("-2/4", "w")
Traceback (most recent call last):
...
attnproof.checker.syntax.Reject: w: "-2/4" is not a canonical rational (an integer, or "p/q" in lowest terms with q >= 2)
"""

from __future__ import annotations

import gc
import json
import re
from contextlib import contextmanager
from fractions import Fraction
from math import gcd

from .limits import MAX_COUNT_DIGITS, MAX_DIGITS, fits_digits

BIG = 1 << 53
_CHUNK = 4000                    # digits per int/str conversion (Python's limit is 4300)
_BASE = 10 ** _CHUNK
# \Z, not $: "$" also matches before a final newline, and "1/3\n" is no canonical rational
_RAT = re.compile(r"(-?[1-9][0-9]{0,%d})/([1-9][0-9]{0,%d})\Z" % (MAX_DIGITS - 1, MAX_DIGITS - 1))
_DEC = re.compile(r"-?[1-9][0-9]*\Z")
_HEX = re.compile(r"[0-9a-f]{64}\Z")


class Reject(Exception):
    """A certificate breaks a syntactic or semantic rule."""


class NotJSON(Reject):
    """The text is not JSON at all (empty, truncated, another format): not a certificate."""


class Unsupported(Exception):
    """A step the checker cannot decide within its limits (verdict *inconclusive*)."""


BUDGET_TEXT = "the work budget of this certificate"     # the command lines add their advice


class Budget:
    """The checker's work meter: :meth:`charge` raises :class:`Unsupported` past ``limit``.

    >>> b = Budget(10)
    >>> b.charge(7, "x"); b.used
    7
    >>> b.charge(7, "dividing")
    Traceback (most recent call last):
    ...
    attnproof.checker.syntax.Unsupported: dividing: the check needs more than 10 operations (the work budget of this certificate)
    """

    def __init__(self, limit: int | None) -> None:
        self.limit, self.used = limit, 0

    def charge(self, n: int, what: str) -> None:
        """Count ``n`` elementary operations."""
        self.used += n
        if self.limit is not None and self.used > self.limit:
            raise Unsupported(f"{what}: the check needs more than {self.limit} operations "
                              f"({BUDGET_TEXT})")


UNLIMITED = Budget(None)


def parse_decimal(s: str) -> int:
    """An integer from a string of ASCII decimal digits (optional ``-``), in chunks.

    Never hits Python's int/str conversion limit, whatever the length.

    >>> parse_decimal("-" + "9" * 5000) == -(10 ** 5000 - 1)
    True
    """
    neg = s.startswith("-")
    v = 0
    for i in range(neg, len(s), _CHUNK):
        v = v * 10 ** len(s[i:i + _CHUNK]) + int(s[i:i + _CHUNK])
    return -v if neg else v


def decimal_text(n: int) -> str:
    """Decimal text of any integer, in chunks (inverse of :func:`parse_decimal`).

    >>> t = decimal_text(7 ** 9000); len(t), parse_decimal(t) == 7 ** 9000
    (7606, True)
    """
    if -_BASE < n < _BASE:             # at most 4000 digits: within Python's limit
        return str(n)
    if n < 0:
        return "-" + decimal_text(-n)
    high, low = divmod(n, _BASE)         # one level per 4000 digits (high >= 1)
    return decimal_text(high) + str(low).zfill(_CHUNK)


def _pairs(pairs):
    out = dict(pairs)                 # built in C; a shorter dict means a repeated key
    if len(out) != len(pairs):
        first: dict = {}              # the first key met again (setdefault: where it was first met)
        k = next(k for i, (k, _) in enumerate(pairs) if first.setdefault(k, i) != i)
        raise Reject(f"duplicate JSON key {k!r}")
    return out


def _float(s):
    raise Reject(f"JSON float {s} where only exact numbers are allowed")


def _const(s):
    raise Reject(f"JSON constant {s} is not allowed")


def _int(s):
    if len(s) > MAX_DIGITS and len(s.lstrip("-")) > MAX_DIGITS:
        raise Reject(f"integer with more than {MAX_DIGITS} digits")
    return int(s)                 # at most MAX_DIGITS < 4300 digits: within Python's limit


def loads(text: str):
    """Parse certificate JSON strictly.

    >>> loads('{"a": [1, "x"]}')
    {'a': [1, 'x']}
    >>> loads('{"a": "x')
    Traceback (most recent call last):
    ...
    attnproof.checker.syntax.NotJSON: not valid JSON: Unterminated string starting at line 1 column 7
    """
    try:
        with no_gc():
            return json.loads(text, object_pairs_hook=_pairs, parse_float=_float,
                              parse_constant=_const, parse_int=_int)
    except json.JSONDecodeError as e:
        at = "" if e.msg.endswith(" at") else " at"         # "starting at", not "at at"
        raise NotJSON(f"not valid JSON: {e.msg}{at} line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise Reject("JSON nested too deeply") from None


@contextmanager
def no_gc():
    """Pause the cyclic garbage collector (restored on exit, if it was running).

    Reading a certificate or a problem, and proving a bound, build millions of
    small acyclic containers that live on; the collector would rescan them again
    and again (three quarters of the time of reading a large certificate) to
    free nothing.  Reference counting still frees whatever is dropped.

    >>> with no_gc():
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


def _show(x) -> str:
    """At most 40 characters of JSON for a message (never converts a huge int)."""
    if type(x) is int and not fits_digits(x):
        return "<an integer with more than %d digits>" % MAX_DIGITS
    if isinstance(x, (list, dict)):
        return "a list" if isinstance(x, list) else "an object"
    return json.dumps(x[:40] if isinstance(x, str) else x)[:40]


def fields(obj, required: set, optional: set, where: str) -> dict:
    """Check that ``obj`` is an object with exactly the allowed fields.

    >>> fields({"a": 1, "b": 2}, {"a"}, set(), "step 0")
    Traceback (most recent call last):
    ...
    attnproof.checker.syntax.Reject: step 0: unknown field 'b'
    """
    if not isinstance(obj, dict):
        raise Reject(f"{where}: expected a JSON object")
    ks = obj.keys()
    if required <= ks and (len(ks) == len(required) or ks <= required | optional):
        return obj
    unknown = ks - required - optional
    if unknown:
        raise Reject(f"{where}: unknown field {min(unknown)!r}")
    raise Reject(f"{where}: missing field {min(required - ks)!r}")


def integer(x, where: str, lo: int | None = None) -> int:
    """A JSON integer (``true``/``false`` and floats rejected), optionally ``>= lo``.

    >>> integer(True, "k")
    Traceback (most recent call last):
    ...
    attnproof.checker.syntax.Reject: k: expected an integer, got true
    """
    if type(x) is not int:
        raise Reject(f"{where}: expected an integer, got {_show(x)}")
    if not fits_digits(x):
        raise Reject(f"{where}: integer with more than {MAX_DIGITS} digits")
    if lo is not None and x < lo:
        raise Reject(f"{where}: must be at least {lo}, got {x}")
    return x


def count(x, where: str) -> int:
    """A non-negative count: JSON integer below 2^53, decimal string from 2^53 on.

    >>> count("9007199254740992", "n"), count(7, "n")
    (9007199254740992, 7)
    """
    if type(x) is int:
        if x < 0:
            raise Reject(f"{where}: a count must be non-negative, got {_show(x)}")
        if x >= BIG:
            raise Reject(f"{where}: {_show(x)} is at least 2^53 and must be written as a decimal string")
        return x
    if isinstance(x, str) and len(x) <= MAX_COUNT_DIGITS and _DEC.match(x):
        v = parse_decimal(x)
        if v < BIG:
            raise Reject(f"{where}: {x!r} is below 2^53 and must be written as a JSON integer")
        return v
    raise Reject(f"{where}: expected a count (integer, or decimal string from 2^53 on), got {_show(x)}")


def rational(x, where: str) -> Fraction | int:
    """A canonical exact rational: JSON integer or ``"p/q"`` in lowest terms, ``q >= 2``.

    Integers are returned as ``int`` (they behave as rationals in arithmetic).

    >>> rational("-1/3", "v"), rational(4, "v")
    (Fraction(-1, 3), 4)
    """
    if type(x) is int:
        if not fits_digits(x):    # documents built in Python skip the JSON reader's cap
            raise Reject(f"{where}: integer with more than {MAX_DIGITS} digits")
        return x
    m = _RAT.match(x) if isinstance(x, str) else None     # at most MAX_DIGITS digits each
    if m and (q := int(m[2])) >= 2 and gcd(p := int(m[1]), q) == 1:
        return Fraction(p, q)
    raise Reject(f"{where}: {_show(x)} is not a canonical rational "
                 f"(an integer, or \"p/q\" in lowest terms with q >= 2)")


def hexdigest(x, where: str) -> str:
    """A lowercase SHA-256 hex digest."""
    if not isinstance(x, str) or not _HEX.match(x):
        raise Reject(f"{where}: expected a lowercase 64-digit SHA-256 hex digest")
    return x


def canonical_text(obj) -> str:
    """Canonical JSON: sorted keys, no spaces, ASCII, trailing newline.

    >>> canonical_text({"b": [1], "a": "x"})
    '{"a":"x","b":[1]}\\n'
    """
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False) + "\n"
