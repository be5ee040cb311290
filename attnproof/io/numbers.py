"""Exact number syntax of the problem format (THEORY §1: every input is an exact rational).

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

import json
import re
from fractions import Fraction
from typing import Any

from ..checker.limits import MAX_DIGITS, MAX_EXPONENT, fits_digits
from ..errors import NumberError

__all__ = ["parse_number", "format_number", "decimal_string", "exact_decimal"]

_NUM_RE = re.compile(
    r"^(?P<sign>[+-]?)(?:(?P<int>[0-9]+)(?:\.(?P<frac>[0-9]*))?|\.(?P<frac2>[0-9]+))"
    r"(?:[eE](?P<exp>[+-]?[0-9]+))?\Z")
_RAT_RE = re.compile(r"^(?P<num>[+-]?[0-9]+)/(?P<den>[0-9]+)\Z")


_FAST_INT = 10 ** 18           # integers below this in absolute value fit MAX_DIGITS trivially
# Fractions are immutable: small integers share one object each (less memory, no construction)
_SMALL_FRACTIONS = {i: Fraction(i) for i in range(-64, 257)}


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


def exact_decimal(x: Fraction) -> int | str:
    """An exact number as a problem file writes it: a finite decimal when there is one.

    >>> exact_decimal(Fraction(3, 8)), exact_decimal(Fraction(-1, 3)), exact_decimal(Fraction(4))
    ('0.375', '-1/3', 4)
    >>> exact_decimal(Fraction(1, 2 ** 30))
    '9.31322574615478515625e-10'
    """
    x = Fraction(x)
    if x.denominator == 1:
        return int(x.numerator)
    q = x.denominator
    a = b = 0
    while q % 2 == 0:
        q //= 2
        a += 1
    while q % 5 == 0:
        q //= 5
        b += 1
    if q != 1:
        return f"{x.numerator}/{x.denominator}"
    k = max(a, b)                                    # x = n / 10^k exactly
    n = x.numerator * (10 ** k // x.denominator)
    sign = "-" if n < 0 else ""
    digits = str(abs(n))
    if len(digits) <= k:                             # |x| < 1: scientific keeps it short
        mant = digits.rstrip("0")
        exp = len(digits) - k - 1
        frac = mant[1:]
        return f"{sign}{mant[0]}{'.' + frac if frac else ''}e{exp}" if exp < -4 else \
            f"{sign}0.{'0' * (k - len(digits))}{digits}".rstrip("0")
    whole, frac = digits[:-k], digits[-k:].rstrip("0")
    return f"{sign}{whole}.{frac}" if frac else f"{sign}{whole}"
