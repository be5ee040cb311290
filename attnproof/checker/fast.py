"""The checker's fast paths, all in one place (docs/certificates.md §8).

Each function here shortcuts a common case of a reference procedure and gives
exactly its answer (the same value, or None to let the reference path decide
and explain), charging about the same work;
``tests/test_checker_fast_paths.py`` compares every pair.  :func:`install` puts
them in :data:`attnproof.checker.switch.FAST`; with
``ATTNPROOF_CHECKER_REFERENCE=1`` (or ``--reference``) they are left out and the
reference path alone decides every certificate.  Nothing in the reference path
imports this module.
"""

from __future__ import annotations

from .switch import FAST, NAMES, reference_requested


def install() -> None:
    """Put every fast path in :data:`FAST` (the checker's default)."""
    for name in NAMES:
        setattr(FAST, name, globals()[name])


if not reference_requested():
    install()
