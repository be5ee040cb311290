"""Fixtures of the headline benchmarks: the package code under test and its command line.

The benchmark definitions are this folder's; the package they measure is the one in
``ATTNPROOF_BENCH_CODE`` (a folder holding ``attnproof/``: a checkout or an extracted
commit; default: this repository).  ``bench/compare.py`` sets it once per side, so that
the same definitions measure two commits, also one that predates them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CODE = Path(os.environ.get("ATTNPROOF_BENCH_CODE") or REPO).resolve()
# the code under test first, then bench/ for the helpers of the older scripts (plane.py ...)
sys.path[:0] = [str(CODE), str(REPO / "bench")]


def pytest_addoption(parser):
    parser.addoption("--bench-rounds", type=int, default=3,
                     help="rounds of each whole-process benchmark (the median is compared; default 3)")


def pytest_configure(config):
    import attnproof

    where = Path(attnproof.__file__).resolve()
    if not where.is_relative_to(CODE):
        raise pytest.UsageError(f"attnproof was imported from {where}, not from the code under test "
                                f"{CODE} (ATTNPROOF_BENCH_CODE)")


def pytest_report_header(config):
    return f"attnproof code under test: {CODE}"


@pytest.fixture
def rounds(request) -> int:
    """Rounds of a whole-process benchmark (``--bench-rounds``)."""
    return max(1, request.config.getoption("--bench-rounds"))


class CLI:
    """``python -m attnproof ...`` of the code under test, in a scratch folder."""

    def __init__(self, cwd: Path):
        self.cwd = cwd
        self.env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(CODE)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]),
            PYTHONHASHSEED="0", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")

    def __call__(self, *args: str, codes=(0,), timeout: float = 900) -> subprocess.CompletedProcess:
        """Run one command; its exit code must be one of ``codes``."""
        proc = subprocess.run([sys.executable, "-m", "attnproof", *map(str, args)], cwd=self.cwd,
                              env=self.env, capture_output=True, text=True, timeout=timeout)
        if proc.returncode not in codes:
            raise AssertionError(f"attnproof {' '.join(map(str, args))}: exit {proc.returncode}: "
                                 f"{proc.stderr.strip()[-500:]}")
        return proc


@pytest.fixture
def cli(tmp_path) -> CLI:
    return CLI(tmp_path)


@pytest.fixture
def timed(benchmark, rounds):
    """``timed(fn)``: time ``fn()`` over ``rounds`` rounds (one call each), return its last value.

    ``warmup``: untimed calls first, for work in this process (its first call imports and
    allocates what later calls reuse; a whole process needs none).  ``setup``: called
    before each round, untimed."""
    def run(fn, n: int | None = None, setup=None, warmup: int = 0):
        return benchmark.pedantic(fn, setup=setup, rounds=n or rounds, iterations=1,
                                  warmup_rounds=warmup)
    return run
