"""Shared fixtures and helpers of the test suite."""

from __future__ import annotations

import pytest

from attnproof.fusion import verify_head


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
