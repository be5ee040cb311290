"""The documentation builds, the CLI reference matches ``--help``, and the tutorial's commands exist."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = ["index.md", "tutorial.md", "theory.md", "certificates.md", "search.md", "real-keys.md",
         "models.md", "scale.md", "cli.md", "faq.md", "api.md", "checker-audit.md", "glossary.md"]


def _gen_cli():
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_cli", DOCS / "gen_cli.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_page_exists_and_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in PAGES:
        assert (DOCS / page).is_file(), f"docs/{page} is missing"
        assert re.search(rf":\s*{re.escape(page)}\s*$", nav, re.M), f"{page} not in the mkdocs nav"


def _mkdocs_build(root: Path, site: Path) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` of the project at ``root``, warnings kept (no ``-q``)."""
    mkdocs = shutil.which("mkdocs", path=os.path.dirname(sys.executable)) or shutil.which("mkdocs")
    if mkdocs is None:
        pytest.skip("mkdocs is not installed (pip install -e '.[test]')")
    pytest.importorskip("mkdocstrings", reason="the API page needs mkdocstrings (pip install -e '.[docs]')")
    # the package documented is the one under ``root`` (mkdocs.yml: paths [.]), first on the path
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.run([mkdocs, "build", "--strict", "-f", str(root / "mkdocs.yml"),
                           "-d", str(site)], capture_output=True, text=True, timeout=300,
                          cwd=root, env=env)


def _warnings(proc: subprocess.CompletedProcess) -> list[str]:
    return [line for line in (proc.stdout + proc.stderr).splitlines()
            if line.startswith(("WARNING", "ERROR")) or "Aborted" in line]


def test_mkdocs_build_strict(tmp_path):
    proc = _mkdocs_build(ROOT, tmp_path / "site")
    assert proc.returncode == 0 and not _warnings(proc), "\n".join(_warnings(proc)) or proc.stderr
    for page in PAGES:
        stem = page[:-3]
        built = tmp_path / "site" / ("index.html" if stem == "index" else f"{stem}/index.html")
        assert built.is_file(), f"{built} was not built"
    api = (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")
    for name in ("attnproof.api.bound", "attnproof.api.prove", "attnproof.api.check",
                 "attnproof.api.search", "attnproof.fusion.Fusion"):
        assert f'id="{name}"' in api, f"the API page does not document {name}"


def test_a_broken_docstring_fails_the_docs_build(tmp_path):
    """The build above can fail: a docstring with a dangling reference (``[x][0]`` reads as a
    Markdown reference link) in a copy of the project makes ``mkdocs build --strict`` fail."""
    copy = tmp_path / "project"
    copy.mkdir()
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    shutil.copytree(DOCS, copy / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "attnproof", copy / "attnproof",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    families = copy / "attnproof" / "families.py"
    text = families.read_text(encoding="utf-8")
    marker = '    """``W_G(q) = '
    assert marker in text
    families.write_text(text.replace(marker, '    """See [the first edge][0].\n\n    ``W_G(q) = ', 1),
                        encoding="utf-8")
    proc = _mkdocs_build(copy, tmp_path / "site")
    assert proc.returncode != 0
    assert any("'0'" in w for w in _warnings(proc)), proc.stdout + proc.stderr


def test_cli_reference_is_up_to_date():
    gen = _gen_cli()
    current = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert current == gen.render(), "docs/cli.md is out of date: run python docs/gen_cli.py"


def test_cli_reference_matches_help_of_every_command():
    """Each block of docs/cli.md is what ``attnproof CMD --help`` prints at 80 columns."""
    from attnproof.cli import COMMANDS, build_parser

    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    blocks = dict(re.findall(r"^## `attnproof ?([a-z-]*)`\n\n```text\n(.*?)\n```", text, re.S | re.M))
    parser = build_parser()
    available = set(parser._subparsers._group_actions[0].choices)
    assert available <= set(COMMANDS) | {c.replace("_", "-") for c in COMMANDS}
    assert set(blocks) == available | {""}
    env = dict(os.environ, COLUMNS="80")
    for name in sorted(blocks):
        argv = [sys.executable, "-m", "attnproof"] + ([name] if name else []) + ["--help"]
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.rstrip() == blocks[name], f"docs/cli.md differs from 'attnproof {name} --help'"


def test_man_page_is_up_to_date_and_is_what_help_man_prints():
    gen = _gen_cli()
    current = (DOCS / "attnproof.1").read_text(encoding="utf-8")
    assert current == gen.render_man(), "docs/attnproof.1 is out of date: run python docs/gen_cli.py"
    proc = subprocess.run([sys.executable, "-m", "attnproof", "help", "--man"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout == current, proc.stderr


def test_man_page_covers_every_command_and_option():
    from attnproof.cli import build_parser

    page = (DOCS / "attnproof.1").read_text(encoding="utf-8")
    parser = build_parser()
    for name, sub in parser._subparsers._group_actions[0].choices.items():
        section = page.split(f'.SS "attnproof {name}"\n', 1)[1].split("\n.SS ", 1)[0]
        for action in sub._actions:
            for option in action.option_strings:
                roff = option.replace("-", "\\-")
                assert f"\\fB{roff}\\fR" in section, (name, option)


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
def test_man_page_renders_without_warnings(tmp_path):
    proc = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", str(DOCS / "attnproof.1")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    page = tmp_path / "attnproof.1"            # a roff error is caught: an unknown request warns
    page.write_text((DOCS / "attnproof.1").read_text(encoding="utf-8") + ".XYZZY\n")
    proc = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", str(page)],
                          capture_output=True, text=True, timeout=60)
    assert proc.stderr != ""


def test_help_man_takes_no_command(run_cli):
    rc, out, err = run_cli("help", "search", "--man")
    assert rc == 3 and out == "" and "takes no COMMAND" in err


def _tutorial_commands() -> list[str]:
    text = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    cmds = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        cmds += [line.strip() for line in block.splitlines() if line.strip()]
    return cmds


def test_tutorial_uses_only_existing_commands_and_options():
    from attnproof.cli import build_parser

    parser = build_parser()
    subs = parser._subparsers._group_actions[0].choices
    seen = set()
    for cmd in _tutorial_commands():
        if not cmd.startswith("attnproof "):
            continue
        words = cmd.split("#")[0].split()
        if words[1].startswith("-"):
            continue
        assert words[1] in subs, f"tutorial uses unknown command: {cmd}"
        opts = {s for a in subs[words[1]]._actions for s in a.option_strings}
        for w in words[2:]:
            if w.startswith("-"):
                assert w in opts, f"tutorial uses unknown option {w} in: {cmd}"
        seen.add(words[1])
    assert {"demo", "family", "show", "fuse", "bound", "prove", "check", "search"} <= seen


# the tutorial is run, and what it prints compared with the page, by tests/test_tutorial.py


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^```sh\n(.*?)\n```", text, re.S | re.M)


def test_readme_install_commands_and_the_cpu_build():
    """The first two commands stay as CI runs them (.ci/run takes the second literally); the
    README says how to get PyTorch's CPU build elsewhere, why a version is named, and sizes."""
    cmds = _readme_commands()
    assert cmds[0] == ("python3 -m venv .venv && . .venv/bin/activate && pip install -e . && "
                       "attnproof demo")
    assert cmds[1].startswith("python3 -m venv .venv && . .venv/bin/activate && "
                              "pip install torch==2.13.0 && pip install -e '.[test,models]'")
    assert cmds[1].endswith('python -m pytest -q -m "not slow"')
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "--index-url https://download.pytorch.org/whl/cpu" in "\n".join(cmds[2:])
    for needle in ("torch==2.13.0", "850 MB", "2.3 GB", "pyarrow", "pandas", "wandb", "datasets",
                   "CUDA"):
        assert needle in text, needle
    # every extra the README names exists
    toml = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for extra in set(re.findall(r"\.\[(\w+)", text)) | set(re.findall(r"'\.\[([\w,]+)\]'", text)):
        for name in extra.split(","):
            assert re.search(rf"^{name} = \[", toml, re.M), f"the README names an extra {name!r}"
