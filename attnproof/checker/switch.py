"""The switch between the checker's reference path and its fast paths.

Every rule is written once, in the reference path: the general procedure of
docs/certificates.md.  A few common cases have shortcuts that give exactly the
same answer and charge about the same work (``tests/test_checker_fast_paths.py``
compares them); they all live in :mod:`attnproof.checker.fast`, which installs
them here.  A call site asks ``FAST.<name>``: None means the reference path.
With ``ATTNPROOF_CHECKER_REFERENCE=1`` in the environment (or ``--reference``)
nothing is installed and the checker runs its reference path alone.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

ENV = "ATTNPROOF_CHECKER_REFERENCE"


class _Hooks:
    """The installed fast paths (None: not installed)."""



FAST = _Hooks()
NAMES = tuple(n for n in vars(_Hooks) if not n.startswith("_"))


def reference_requested() -> bool:
    """True when the environment asks for the reference path."""
    return os.environ.get(ENV, "") not in ("", "0")


@contextmanager
def reference_mode(on: bool = True):
    """Run the block with the fast paths removed (``on``), restoring them after.

    >>> from attnproof.checker import check_text
    >>> with reference_mode():
    ...     FAST.product_identity is None
    True
    """
    saved = {n: getattr(FAST, n) for n in NAMES}
    if on:
        for n in NAMES:
            setattr(FAST, n, None)
    try:
        yield
    finally:
        for n, f in saved.items():
            setattr(FAST, n, f)
