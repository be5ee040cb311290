"""The producer's check of its own certificate, past the checker's default budget.

The checker's default work budget grows with the size of the file
(``attnproof.checker.limits.work_limit``), so a certificate whose check is linear
in its size is valid with it.  A certificate whose check is not (a long explicit
fusion) can need more.  The producer checks what it wrote with the default budget
first and, when only the budget is short, once more with a budget that fits; the
``--max-work`` a user needs to re-check the file admits both the work that check
took and the size of the file, which ``--max-work`` reads up to ``byte_limit``
(:func:`needed_work`, :func:`max_work_hint`).

>>> from attnproof.certificate import build_certificate
>>> from attnproof.families import sigmoid_sum
>>> v, note = check_own(build_certificate(sigmoid_sum(3)).text)
>>> v.status, note
('valid', None)
"""

from __future__ import annotations

import attnproof.checker as _checker
from attnproof.checker import Verdict, check_document, check_text, too_large
from attnproof.checker.limits import BYTES_PER_WORK, MAX_CONTAINERS, MAX_READ_BYTES, containers

PRODUCER_WORK = 10 ** 13      # the work budget of the producer's check of its own certificate

__all__ = ["check_own", "check_written", "max_work_hint", "needed_work", "waits_for_replay",
           "PRODUCER_WORK"]


def max_work_hint(work: int) -> int:
    """A round ``--max-work`` at least ``work``: two significant digits, rounded up.

    >>> max_work_hint(6_000_001), max_work_hint(123_456_789), max_work_hint(7)
    (6100000, 130000000, 7)
    """
    step = 10 ** max(len(str(work)) - 2, 0)
    return -(-work // step) * step


def needed_work(work: int, nbytes: int) -> int:
    """The least work budget that admits a check of ``work`` operations on ``nbytes`` bytes
    of certificate (``byte_limit(N)``): past ``MAX_READ_BYTES``, a unit per
    ``BYTES_PER_WORK`` bytes.

    >>> needed_work(4_200_000, 26_000_000), needed_work(35_000_000, 116_000_000)
    (6500000, 35000000)
    >>> needed_work(7_000_000, 1_000_000), needed_work(10_000_000, 116_000_000)
    (7000000, 29000000)
    """
    if nbytes <= MAX_READ_BYTES:
        return work
    return max(work, -(-nbytes // BYTES_PER_WORK))


def check_written(doc: dict, text: str) -> Verdict:
    """``check_text(text)`` for the producer's ``text = canonical_json(doc)``, without
    parsing the text it has just written: the checker reads ``doc`` itself, with the
    budget and the reading charge of ``text`` (the same verdict and work;
    ``tests/test_certificate.py`` compares them on the golden certificates).

    >>> from attnproof.certificate import build_certificate
    >>> from attnproof.families import sigmoid_sum
    >>> c = build_certificate(sigmoid_sum(3))
    >>> check_written(c.doc, c.text) == check_text(c.text)
    True
    """
    if too_large(len(text), None) or containers(text) > MAX_CONTAINERS:
        return check_text(text)          # the answer that reads nothing
    # the checker's own default budget for the text (check_text reads it from there too)
    return check_document(doc, work=_checker.work_limit(len(text)), read=len(text))


def waits_for_replay(v: Verdict) -> bool:
    """True when only line refutations keep the verdict inconclusive (``check --replay``)."""
    return v.code == 2 and bool(v.line_steps) and v.bounds_verified and not v.window_steps


def check_own(text: str, first: Verdict | None = None,
              producer_work: int | None = None) -> tuple[Verdict, str | None]:
    """The checker's verdict on the producer's certificate ``text``, and a note.

    The note is None when the default budget sufficed; otherwise it says how much
    work the check took and which ``--max-work`` re-checks the certificate.  Any
    other inconclusive verdict (a size limit of the checker) is returned as it is.
    ``first``: the verdict of a check with the default budget already made.
    """
    v = check_text(text) if first is None else first
    if v.code != 2 or waits_for_replay(v):
        return v, None
    wide = check_text(text, work=PRODUCER_WORK if producer_work is None else producer_work)
    if wide.code == 0 or waits_for_replay(wide):
        hint = max_work_hint(needed_work(wide.work, len(text)))
        why = (f"checking this certificate takes {wide.work:,} operations, more than the "
               f"checker's default work budget for its size")
        return wide, f"{why}: 'attnproof check CERT --max-work {hint}'"
    return v if wide.code == 2 else wide, None
