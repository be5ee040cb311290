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
* ``work_limit(bytes) = WORK_BASE + WORK_PER_BYTE * bytes``: the checker's default
  work budget, in units of at most ``UNIT_MICROSECONDS`` of CPU each (docs/certificates.md
  §8: every operation is charged by the sizes of its operands, reading by the byte);
  past it the verdict is *inconclusive*.  A genuine certificate whose check is linear
  in its size is accepted without options, whatever its size up to ``MAX_FILE_BYTES``,
  and every file is answered within ``UNIT_MICROSECONDS * work_limit(bytes)`` of CPU
  (``a + b × MiB`` seconds: ``a = UNIT_MICROSECONDS × WORK_BASE``, ``b = UNIT_MICROSECONDS
  × WORK_PER_BYTE × 2^20``, docs/certificates.md §8).
  ``--max-work`` sets another budget explicitly.
* ``READ_BYTES_PER_UNIT``: reading, hashing and canonical text are charged one unit per
  this many bytes.
* ``byte_limit(work)``: the most bytes of certificate the checker reads (``MAX_FILE_BYTES``
  with the default budget, which grows with the file; with ``--max-work N`` the bytes
  N units read); beyond it a certificate is *inconclusive*, unread.
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
READ_BYTES_PER_UNIT = 4
BYTES_PER_WORK = READ_BYTES_PER_UNIT
WORK_BASE = 2_000_000
WORK_PER_BYTE = 1.5
UNIT_MICROSECONDS = 0.5
MAX_FLINT_DENSE = 100_000
MAX_FLINT_EXPONENT_BITS = 17
MAX_FLINT_COEFFICIENT_BITS = 8192
MAX_GRAPH_NODES = 16
MAX_SUBSETS = 20_000
MAX_EXPANSION = 2_000_000
REPLAY_SECONDS = 600
MAX_WORK_HELP = (f"the work budget in units of at most {UNIT_MICROSECONDS} microseconds (default: {WORK_BASE:,} plus "
                 f"{WORK_PER_BYTE} per byte of the certificate); past it the verdict is inconclusive; with OPS a "
                 f"certificate is read up to {MAX_READ_BYTES >> 20} MiB or {BYTES_PER_WORK} bytes per OPS")

_TEN_DIGITS = 10 ** MAX_DIGITS


def fits_digits(n: int) -> bool:
    """True when the integer ``n`` has at most ``MAX_DIGITS`` decimal digits."""
    return -_TEN_DIGITS < n < _TEN_DIGITS


def containers(text: str) -> int:
    """At least the number of JSON objects and arrays of ``text``: ``containers('[{"a": "{"}]') == 3``."""
    return text.count("{") + text.count("[")


def work_limit(nbytes: int) -> int:
    """The checker's default work budget for a certificate of ``nbytes`` bytes: linear,
    no cap (the cost model bounds the time of a unit, so of the whole check).

    >>> work_limit(0) == WORK_BASE, work_limit(10 ** 6) == WORK_BASE + 1_500_000
    (True, True)
    """
    return WORK_BASE + int(WORK_PER_BYTE * nbytes)


def byte_limit(work: int | None) -> int:
    """The most bytes of certificate the checker reads with the work budget ``work``:
    ``MAX_FILE_BYTES`` with the default budget (None: it grows with the file), else
    ``max(MAX_READ_BYTES, BYTES_PER_WORK * work)``, at most ``MAX_FILE_BYTES``.

    >>> byte_limit(None) == MAX_FILE_BYTES, byte_limit(35_000_000), byte_limit(10 ** 13)
    (True, 140000000, 536870912)
    """
    if work is None:
        return MAX_FILE_BYTES
    return min(max(MAX_READ_BYTES, BYTES_PER_WORK * work), MAX_FILE_BYTES)


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
    while n > 0 and (block := f.read(min(chunk, n))):
        parts.append(block)
        n -= len(block)
    return b"".join(parts)
