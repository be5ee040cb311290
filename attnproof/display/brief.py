"""Short printed forms of the library's objects: a ``repr`` is a summary, never a dump.

An object of attnproof may hold thousands of exact rationals, an SMT-LIB2
text of many kilobytes or NumPy arrays; its ``repr`` names what it is and its
sizes, in at most :data:`REPR_LIMIT` characters, so that ``print(search(...))``
or a notebook cell stays readable.  The full data stays a method or an
attribute away (``.to_dict()``, ``.smtlib``, ``.atoms``...).

>>> from fractions import Fraction
>>> short(Fraction(1, 2)), short(Fraction(4, 1)), short(2 ** 200)
("'1/2'", '4', '<61-digit int>')
>>> short(tuple(range(100)))
'<100 items>'
>>> short((1, Fraction(1, 3)))
"(1, '1/3')"
>>> fields_repr("Point", x=1, y=Fraction(1, 2), path=None)
"Point(x=1, y='1/2')"
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

__all__ = ["REPR_LIMIT", "short", "fields_repr", "clip"]

REPR_LIMIT = 300        # characters, at most, of the repr of any public object


def clip(text: str, limit: int = REPR_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, ending in ``...`` when it was cut.

    >>> clip("abcdef", 5)
    'ab...'
    """
    return text if len(text) <= limit else text[:max(limit - 3, 0)] + "..."


def short(value: Any, room: int = 48) -> str:
    """A value in at most about ``room`` characters.

    Integers and rationals are written exactly while they are short (a rational
    as the ``'p/q'`` string every constructor accepts), sizes otherwise;
    collections are written out while they fit, counted otherwise; other
    objects use their own (short) ``repr``.
    """
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        text = str(value)
        return text if len(text) <= room else f"<{len(text.lstrip('-'))}-digit int>"
    if isinstance(value, Fraction):
        text = str(value.numerator) if value.denominator == 1 else repr(str(value))
        return text if len(text) <= room else f"<rational of {len(str(value))} characters>"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= room else repr(value[:max(room - 5, 8)] + "...")
    if isinstance(value, (tuple, list, set, frozenset, dict)):
        n = len(value)
        if n <= 8:
            items = (value.items() if isinstance(value, dict) else value)
            parts = ([f"{short(k, room // 2)}: {short(v, room // 2)}" for k, v in items]
                     if isinstance(value, dict) else [short(v, room // 2) for v in items])
            if isinstance(value, tuple):
                text = "(" + ", ".join(parts) + ("," if n == 1 else "") + ")"
            elif isinstance(value, list):
                text = "[" + ", ".join(parts) + "]"
            else:
                text = "{" + ", ".join(parts) + "}" if n else f"{type(value).__name__}()"
            if len(text) <= room and "<" not in text:
                return text
        return f"<{n} item{'s' if n != 1 else ''}>"
    shape = getattr(value, "shape", None)
    if shape is not None and hasattr(value, "dtype"):          # a NumPy array
        return f"<array {'x'.join(map(str, shape)) or 'scalar'} {value.dtype}>"
    text = repr(value)
    return text if len(text) <= room else f"<{type(value).__name__}>"


def fields_repr(_cls: str, *positional: Any, **fields: Any) -> str:
    """``_cls(positional..., field=value, ...)`` with every value :func:`short`; None fields left out.

    Positional parts are written as given (already formatted text).
    """
    parts = [str(p) for p in positional]
    parts += [f"{k}={short(v)}" for k, v in fields.items() if v is not None]
    return clip(f"{_cls}({', '.join(parts)})")
