"""Shared fixtures and helpers of the test suite."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from attnproof.fusion import verify_head

# CI runs the property tests on a fixed sequence of examples (reproducible verdicts);
# locally they explore new random examples on every run.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("ATTNPROOF_HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["ATTNPROOF_HYPOTHESIS_PROFILE"])


@pytest.fixture
def exact_check():
    """``exact_check(M, head, points, seed)``: exact identity at random rational points."""
    return verify_head


@pytest.fixture
def run_cli(capsys):
    """Run the CLI in-process: returns (exit code, stdout, stderr)."""
    from attnproof.cli import main

    def _run(*argv: str):
        try:
            rc = main(list(argv))
        except SystemExit as e:  # argparse --help / usage errors
            rc = e.code if isinstance(e.code, int) else 3
        out, err = capsys.readouterr()
        return rc, out, err

    return _run
