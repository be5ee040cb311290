"""Writing a fusion as a one-head problem file (``attnproof fuse -o FILE``), one atom at a time.

What is written must read back: an atom with a number past the input limits
(:data:`attnproof.checker.limits.MAX_DIGITS` digits) is refused, and no file is left.
"""

from __future__ import annotations

import json

from ..checker.limits import MAX_DIGITS, fits_digits
from ..errors import LimitError, NumberError
from ..io import PROBLEM_FORMAT, PROBLEM_VERSION, atomic_write, parse_number

__all__ = ["write_fused", "overlong_number"]


def overlong_number(a: dict) -> str | None:
    """Why a number of the atom document ``a`` breaks the input limits (more than
    ``MAX_DIGITS`` digits in an integer, numerator or denominator), or None.

    Linear in the numbers, with no parsing: re-reading a million-atom fusion took longer
    than building it.

    >>> overlong_number({"key": [1, "1/" + "9" * 2001], "value": 0})
    'a number with more than 2000 digits'
    >>> overlong_number({"key": [10 ** 1999], "value": 0}) is None   # 2000 digits
    True
    """
    def long(x) -> bool:
        if type(x) is int:
            return not fits_digits(x)
        if not isinstance(x, str) or len(x) <= MAX_DIGITS:
            return False
        try:                    # rare: a long decimal or "p/q" is read as a problem file reads it
            parse_number(x)
        except NumberError:
            return True
        return False

    key = a["key"]
    nums = list(key.values() if isinstance(key, dict) else key)
    v = a["value"]
    nums.extend(v if isinstance(v, list) else [v])
    nums.extend(a[k] for k in ("bias", "weight") if k in a)
    if any(long(x) for x in nums):
        return f"a number with more than {MAX_DIGITS} digits"
    return None


def write_fused(path: str, f, dim: int) -> None:
    """Write ``f.to_problem_dict()`` as canonical JSON (the same bytes as
    ``canonical_json``), one atom at a time (:meth:`Fusion.atom_json`): a million-atom
    fusion held as documents and text took two gigabytes.

    One pass over the atoms: each atom is checked as it is written (what is written must
    read back, :func:`overlong_number`), and the check reads back only an atom whose
    JSON text is longer than ``MAX_DIGITS`` characters, since no number of a shorter text
    can have more digits.  A refused atom raises :class:`LimitError` (exit 3); the
    temporary file is removed, so no file is written (a pipe or device, written through,
    has then received a truncated document, which no reader accepts as JSON).
    """

    def dump(x) -> bytes:
        return json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                          allow_nan=False).encode("ascii")

    def check(i: int, text: str) -> None:
        try:
            bad = overlong_number(json.loads(text))
        except ValueError:      # an integer past Python's own limit on its digits
            bad = f"a number with more than {MAX_DIGITS} digits"
        if bad is not None:
            raise LimitError(f"the fused head cannot be written as a problem file: atom {i}: {bad}")

    def write(fh) -> None:
        fh.write(b'{"dim":' + dump(dim) + b',"format":' + dump(PROBLEM_FORMAT)
                 + b',"heads":[{"atoms":[')
        buf = []
        sep = b""
        try:
            for i, text in enumerate(f.atom_json()):
                if len(text) > MAX_DIGITS:
                    check(i, text)
                buf.append(text)
                if len(buf) >= 4096:
                    fh.write(sep + ",".join(buf).encode("ascii"))
                    sep = b","
                    buf.clear()
        except ValueError as e:  # str() of an integer past Python's limit on its digits
            if "digits" not in str(e):
                raise
            raise LimitError("the fused head cannot be written as a problem file: "
                             f"a number with more than {MAX_DIGITS} digits") from None
        if buf:
            fh.write(sep + ",".join(buf).encode("ascii"))
        fh.write(b'],"name":"fused"}],"version":' + dump(PROBLEM_VERSION) + b"}\n")

    atomic_write(path, write)
