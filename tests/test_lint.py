"""ruff and mypy, as configured in pyproject.toml, pass: ruff on the whole repository
(package, tests, benchmarks, examples: what a bare ``ruff check`` sees), mypy on the
whole package (``[tool.mypy]``; the certificate writer with every function annotated).

Both come with the ``test`` extra; a missing tool fails the test rather than
skipping it, since CI installs that extra.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
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


def test_mypy_passes_on_the_whole_package():
    # the files and strictness are configured in [tool.mypy] of pyproject.toml; the
    # incremental cache (.mypy_cache/, ignored by git) makes a second run fast
    r = _run(_tool("mypy"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Success: no issues found" in r.stdout, r.stdout


def test_mypy_is_configured_for_the_whole_package():
    # the test above checks what pyproject.toml names: the whole package, every ignore justified
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["files"] == ["attnproof"]
    assert config.get("warn_unused_ignores") is True
    assert config.get("check_untyped_defs") is True
    assert "follow_imports" not in config


def test_every_type_ignore_names_its_error_code():
    # no blanket ignore: a targeted one names the error it silences (and says why beside it)
    blanket = [f"{path.relative_to(ROOT)}:{n}"
               for path in sorted((ROOT / "attnproof").rglob("*.py"))
               for n, line in enumerate(path.read_text().splitlines(), 1)
               if re.search(r"#\s*type:\s*ignore(?!\[)", line)]
    assert blanket == []
