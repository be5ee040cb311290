"""The format's limits, in one place: the checker, ``attnproof.io`` and the docs use these.

``attnproof.io`` imports its limits from here (the checker imports nothing from
the rest of attnproof, so the dependency goes this way).  docs/certificates.md
§8 lists them; a test asserts that the page and these constants agree.

* ``MAX_DIGITS``: decimal digits of any integer, and of the numerator and of the
  denominator of any rational, in a problem or a certificate (below Python's
  4300-digit int/str conversion limit, so nothing ever hits it).
* ``MAX_EXPONENT``: the decimal exponent of a number such as ``"1.5e-3"`` in a
  problem file (the checker reads only canonical numbers, which have none).
* ``MAX_DIM``: the problem dimension ``d``.
* ``MAX_COUNT_DIGITS``: decimal digits of a count (the bounds); counts are read
  and written in chunks, never through one ``int``/``str`` conversion.
* ``MAX_CONTAINERS``: JSON objects and arrays of a file (``{`` and ``[`` counted
  before parsing, ~60 bytes each once parsed); beyond it a certificate is inconclusive.
* ``MAX_LATTICE_BITS``: bits of a lattice scale ``s_j`` or ``L`` (THEORY §2);
  a problem beyond it is inconclusive for the checker.
* ``min(WORK_BASE + WORK_PER_BYTE * len(text), WORK_MAX)``: the checker's work
  budget, in elementary operations (one term of a polynomial product, one
  division step, one entry of an elimination...); past it the verdict is
  *inconclusive*.  The per-byte part lets a small certificate do work in
  proportion to its size; the cap bounds every check, whatever the size: bytes
  cost nothing to add (a long ``name`` string), so without it a padded file
  would buy minutes of work.  ``--max-work`` sets another budget explicitly.
* ``byte_limit(work)``: the most bytes of certificate the checker reads (reading is
  not metered: small JSON objects take 26 bytes of memory per byte); beyond it a
  certificate is *inconclusive*, unread.
* ``MAX_FLINT_DENSE``: ``reduced_by_flint`` recomputes ``gcd(P, Q)`` with FLINT
  only when ``Π_v (deg_v + 1)`` of every polynomial is at most this and every
  exponent span is below ``2^MAX_FLINT_EXPONENT_BITS`` and every coefficient
  below ``2^MAX_FLINT_COEFFICIENT_BITS`` (FLINT returns 0 above 64-bit exponents
  and may allocate dense arrays); otherwise inconclusive.

>>> MAX_DIGITS < 4300 and MAX_DIM == 100_000
True
>>> fits_digits(10 ** 2000 - 1), fits_digits(-10 ** 2000)
(True, False)
"""

from __future__ import annotations

import os

MAX_DIGITS = 2000
MAX_EXPONENT = 2000
MAX_DIM = 100_000
MAX_COUNT_DIGITS = 40_000
MAX_LATTICE_BITS = 8192
MAX_CONTAINERS = 8_000_000
MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_READ_BYTES = 16 * 1024 * 1024
BYTES_PER_WORK = 2
WORK_BASE = 500_000
WORK_PER_BYTE = 16
WORK_MAX = 6_000_000
MAX_FLINT_DENSE = 100_000
MAX_FLINT_EXPONENT_BITS = 17
MAX_FLINT_COEFFICIENT_BITS = 8192
MAX_GRAPH_NODES = 16
MAX_SUBSETS = 20_000
MAX_EXPANSION = 2_000_000
REPLAY_SECONDS = 600
MAX_WORK_HELP = (f"the work budget in elementary operations (default: {WORK_BASE:,} plus {WORK_PER_BYTE} "
                 f"per byte, at most {WORK_MAX:,}, which a hostile file spends in seconds); past it the "
                 f"verdict is inconclusive; a certificate is read up to {MAX_READ_BYTES >> 20} MiB or "
                 f"{BYTES_PER_WORK} bytes per OPS ('attnproof prove' names the figure a large one needs)")

_TEN_DIGITS = 10 ** MAX_DIGITS

__all__ = ["MAX_DIGITS", "MAX_EXPONENT", "MAX_DIM", "MAX_COUNT_DIGITS", "MAX_LATTICE_BITS",
           "MAX_CONTAINERS", "containers", "MAX_READ_BYTES", "BYTES_PER_WORK", "byte_limit", "file_size",
           "MAX_FILE_BYTES", "WORK_BASE", "WORK_PER_BYTE", "WORK_MAX", "MAX_FLINT_DENSE",
           "MAX_FLINT_EXPONENT_BITS", "MAX_FLINT_COEFFICIENT_BITS", "MAX_GRAPH_NODES", "MAX_SUBSETS", "MAX_EXPANSION",
           "REPLAY_SECONDS", "MAX_WORK_HELP", "fits_digits", "work_limit"]


def fits_digits(n: int) -> bool:
    """True when the integer ``n`` has at most ``MAX_DIGITS`` decimal digits."""
    return -_TEN_DIGITS < n < _TEN_DIGITS


def containers(text: str) -> int:
    """At least the number of JSON objects and arrays of ``text``: ``containers('[{"a": "{"}]') == 3``."""
    return text.count("{") + text.count("[")


def work_limit(nbytes: int) -> int:
    """The checker's work budget for a certificate of ``nbytes`` bytes.

    >>> work_limit(0) == WORK_BASE, work_limit(MAX_FILE_BYTES) == WORK_MAX
    (True, True)
    """
    return min(WORK_BASE + WORK_PER_BYTE * nbytes, WORK_MAX)


def byte_limit(work: int | None) -> int:
    """The most bytes of certificate the checker reads with the work budget ``work`` (None:
    the default): ``max(MAX_READ_BYTES, BYTES_PER_WORK * work)``, at most ``MAX_FILE_BYTES``.

    >>> byte_limit(None) == byte_limit(WORK_MAX), byte_limit(35_000_000), byte_limit(10 ** 13)
    (True, 70000000, 536870912)
    """
    return min(max(MAX_READ_BYTES, BYTES_PER_WORK * (work or 0)), MAX_FILE_BYTES)


def file_size(path) -> int:
    """The size of a regular file, else 0 (a pipe, no such file: its reader says why)."""
    try:
        return os.path.getsize(path) if os.path.isfile(path) else 0
    except OSError:
        return 0


def read_at_most(f, n: int, chunk: int = 1 << 20) -> bytes:
    """At most ``n`` bytes of the binary file ``f``, read in chunks.

    ``f.read(n)`` reserves ``n`` bytes before it reads anything: with ``n`` the
    512 MiB file limit, a tiny file would need half a gigabyte of address space.

    >>> import io
    >>> read_at_most(io.BytesIO(b"abcdef"), 4, chunk=3)
    b'abcd'
    >>> read_at_most(io.BytesIO(b"ab"), 10)
    b'ab'
    """
    parts = []
    left = n
    while left > 0:
        block = f.read(min(chunk, left))
        if not block:
            break
        parts.append(block)
        left -= len(block)
    return b"".join(parts)
