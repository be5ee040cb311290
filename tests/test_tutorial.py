"""docs/tutorial.md is run as written: every command box, and what it prints against the box
that follows it (each line in order, ``...`` standing for any text).

The fast suite runs the sections whose claims a reader checks first (the version, the
certificate of ``W_6``, the checker's exit codes, the minimum 7 of ``K_3``); the slow test runs
the whole page, the window search of the diamond (section 8) included.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "tutorial.md"
FAST_SECTIONS = {1, 3, 5, 6, 7}     # 3 writes the w6.json that 5 and 6 read
# the installation itself: the test runs in the environment it was started from
INSTALL = ("python3 -m venv", ". .venv/bin/activate", "pip install")


def boxes(text: str) -> list[tuple[int, str, list[str]]]:
    """``(section, commands, expected lines)`` for each ``sh`` box, in order of the page.

    >>> boxes("## 2. A\\n```sh\\nattnproof demo\\n```\\n\\n```text\\nd  heads\\n```\\n")
    [(2, 'attnproof demo', ['d  heads'])]
    """
    out: list[tuple[int, str, list[str]]] = []
    section = 0
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"## (\d+)\.", lines[i])
        if m:
            section = int(m.group(1))
        fence = re.match(r"```(\w*)$", lines[i])
        if fence:
            j = lines.index("```", i + 1)
            body = lines[i + 1:j]
            if fence.group(1) == "sh":
                out.append((section, "\n".join(body), []))
            elif fence.group(1) == "text" and out and out[-1][0] == section and not out[-1][2]:
                out[-1][2].extend(body)
            i = j
        i += 1
    return out


def matches(expected: list[str], printed: str) -> str | None:
    """None when the expected lines appear in order among the printed ones, else the first that
    does not.

    >>> matches(["a ...", "c"], "a b\\nx\\nc\\n") is None
    True
    >>> matches(["c", "a ..."], "a b\\nx\\nc\\n")
    'a ...'
    """
    got = [line.rstrip() for line in printed.splitlines()]
    at = 0
    for want in expected:
        pattern = re.compile(".*".join(re.escape(part) for part in want.rstrip().split("...")))
        while at < len(got) and not pattern.fullmatch(got[at]):
            at += 1
        if at == len(got):
            return want
        at += 1
    return None


def guarded(commands: list[str]) -> str:
    """The box as a script in which every command must exit 0, but one whose exit code the
    page shows (the next line is ``echo "exit code $?"``).

    >>> print(guarded(["attnproof check x.json", 'echo "exit code $?"', "cat x.json"]))
    attnproof check x.json
    echo "exit code $?"
    cat x.json || { echo "FAILED with exit code $?: cat x.json"; exit 99; }
    """
    out = []
    for i, c in enumerate(commands):
        shown = i + 1 < len(commands) and commands[i + 1].startswith('echo "exit code $?"')
        if shown or c.startswith("echo ") or not c.strip():
            out.append(c)
        else:
            c = re.split(r"\s+#\s", c)[0]             # the comment would swallow the guard
            out.append(f'{c} || {{ echo "FAILED with exit code $?: {c}"; exit 99; }}')
    return "\n".join(out)


def _shims(folder: Path) -> dict:
    """``attnproof``, ``python`` and ``python3`` as the tutorial's reader has them."""
    folder.mkdir()
    for name, line in (("attnproof", f'exec "{sys.executable}" -m attnproof "$@"'),
                       ("python", f'exec "{sys.executable}" "$@"'),
                       ("python3", f'exec "{sys.executable}" "$@"')):
        path = folder / name
        path.write_text(f"#!/bin/sh\n{line}\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    env = dict(os.environ, PATH=f"{folder}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONPATH=str(ROOT), COLUMNS="80")
    env.pop("ATTNPROOF_PROGRESS", None)
    return env


def _run_tutorial(tmp_path: Path, sections) -> int:
    env = _shims(tmp_path / "bin")
    work = tmp_path / "work"
    work.mkdir()
    (work / "examples").symlink_to(ROOT / "examples")
    ran = 0
    for section, commands, expected in boxes(TUTORIAL.read_text(encoding="utf-8")):
        if section not in sections:
            continue
        script = guarded([c for c in commands.splitlines() if not c.startswith(INSTALL)])
        p = subprocess.run(["bash", "-c", script], cwd=work, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=600)
        assert "FAILED with exit code" not in p.stdout, p.stdout
        missing = matches(expected, p.stdout)
        assert missing is None, (f"docs/tutorial.md section {section}: {missing!r} is not what\n"
                                 f"{script}\nprints:\n{p.stdout}")
        ran += 1
    if 7 in sections:
        assert (work / "k3.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return ran


def test_every_box_of_the_tutorial_is_followed_by_what_it_prints():
    found = boxes(TUTORIAL.read_text(encoding="utf-8"))
    assert {s for s, _, _ in found} == set(range(1, 10))
    for section, commands, expected in found:
        assert expected, f"section {section}: no output box after\n{commands}"


def test_tutorial_fast_sections(tmp_path):
    assert _run_tutorial(tmp_path, FAST_SECTIONS) >= 8


@pytest.mark.slow
def test_tutorial_whole(tmp_path):
    assert _run_tutorial(tmp_path, set(range(1, 10))) >= 14
