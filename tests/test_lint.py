"""ruff and mypy, as configured in pyproject.toml, pass: ruff on the whole repository
(package, tests, benchmarks, examples: what a bare ``ruff check`` sees), mypy on the
modules it is configured for.

Both come with the ``test`` extra; a missing tool fails the test rather than
skipping it, since CI installs that extra.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    exe = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    assert exe is not None, f"{name} is not installed: pip install -e '.[test]'"
    return exe


def _run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_check_passes_on_the_repository():
    # no path: ruff checks every Python file of the project, as a contributor runs it
    r = _run(_tool("ruff"), "check", "--no-cache")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_passes_on_the_typed_modules():
    # the modules and strictness are configured in [tool.mypy] of pyproject.toml
    r = _run(_tool("mypy"), "--no-incremental", "--cache-dir", "/dev/null")
    assert r.returncode == 0, r.stdout + r.stderr
