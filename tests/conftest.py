"""Shared fixtures and helpers of the test suite."""

from __future__ import annotations

import json
import os
import signal

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


# Mutation runs (bench/mutation.py sets ATTNPROOF_MUTATION_TEST_LIMIT to "k,c"): a test of
# a mutant that uses more than k times the CPU time its clean run took, plus c seconds,
# ends the run with mutmut's timeout status (36), so that a mutant that hangs in its first
# test is known as a timeout in seconds rather than at the limit of the whole run.
_MUTATION_LIMIT = os.environ.get("ATTNPROOF_MUTATION_TEST_LIMIT")
if _MUTATION_LIMIT and hasattr(signal, "setitimer"):
    _CLEAN: dict = {}

    def _clean_seconds(nodeid: str) -> float:
        if not _CLEAN:
            try:
                with open("mutmut-stats.json") as f:
                    _CLEAN.update(json.load(f)["duration_by_test"])
            except (OSError, ValueError, KeyError):
                _CLEAN["?"] = 0.0
        return _CLEAN.get(nodeid, _CLEAN.get("mutants/" + nodeid, 0.0))

    def _over_limit(signum, frame):
        os._exit(36)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(item):
        mutant = os.environ.get("MUTANT_UNDER_TEST", "")
        if "__mutmut_" not in mutant:          # the clean and the statistics runs
            yield
            return
        k, c = (float(x) for x in _MUTATION_LIMIT.split(","))
        old = signal.signal(signal.SIGPROF, _over_limit)
        signal.setitimer(signal.ITIMER_PROF, k * _clean_seconds(item.nodeid) + c)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, old)
