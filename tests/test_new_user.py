"""What a new user meets first: the exit codes a CI script reads, the advice a verdict gives,
the place an error names, and the words the default output prints."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CERTS = ROOT / "certificates"
GOLDEN = CERTS / "valid" / "w3.json"


def _broken(tmp_path: Path) -> dict[str, Path]:
    """The ways a download breaks: each is 'not a certificate' (exit 3), never exit 1."""
    text = GOLDEN.read_text()
    files = {"truncated": text[: len(text) // 2], "empty": "", "html": "<html>404</html>",
             "half-line": text[:1]}
    out = {}
    for name, content in files.items():
        out[name] = tmp_path / f"{name}.json"
        out[name].write_text(content)
    out["latin-1"] = tmp_path / "latin.json"
    out["latin-1"].write_bytes(b"\xff\xfe{}")
    out["directory"] = tmp_path
    out["missing"] = tmp_path / "missing.json"
    return out


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    from attnproof.cli.cmd_export_checker import export

    d = tmp_path_factory.mktemp("exported") / "chk"
    export(str(d))
    return d


def _forged(tmp_path: Path) -> Path:
    forged = tmp_path / "forged.json"
    forged.write_text(GOLDEN.read_text().replace('"lower_bound":8', '"lower_bound":9'))
    return forged


@pytest.mark.parametrize("how", ["attnproof", "module", "exported"])
def test_a_broken_download_is_exit_3_and_a_forgery_exit_1(tmp_path, exported, how):
    cmd = {"attnproof": [sys.executable, "-m", "attnproof", "check"],
           "module": [sys.executable, "-m", "attnproof.checker"],
           "exported": [sys.executable, "-S", str(exported / "check.py")]}[how]
    forged = subprocess.run(cmd + [str(_forged(tmp_path))], capture_output=True, text=True)
    assert forged.returncode == 1 and forged.stdout.startswith("invalid: claims: lower_bound")
    for name, path in _broken(tmp_path).items():
        p = subprocess.run(cmd + [str(path)], capture_output=True, text=True)
        assert p.returncode == 3, (name, p.stdout, p.stderr)
        line, = p.stderr.splitlines()
        assert ": error: not a certificate: " in line and str(path) in line, line
        assert "at at" not in line and p.stdout == ""
        j = subprocess.run(cmd + [str(path), "--json"], capture_output=True, text=True)
        doc = json.loads(j.stdout)
        assert j.returncode == doc["exit_code"] == 3 and doc["verdict"] == "error"
        assert doc["message"].startswith("not a certificate: ")


def test_the_standalone_checker_names_itself_in_every_error(tmp_path, exported):
    """argparse wrote 'check.py: error:', the checker 'attnproof: error:': one prefix now."""
    run = [sys.executable, "-S", str(exported / "check.py")]
    usage = subprocess.run(run + ["--bogus"], capture_output=True, text=True)
    missing = subprocess.run(run + [str(tmp_path / "none.json")], capture_output=True, text=True)
    assert usage.returncode == missing.returncode == 3
    assert usage.stderr.splitlines()[-1].startswith("check.py: error: ")
    assert missing.stderr.startswith("check.py: error: not a certificate: ")


def test_the_api_raises_for_text_that_is_not_json(tmp_path):
    from attnproof import check
    from attnproof.errors import InputError

    with pytest.raises(InputError, match="not a certificate: not valid JSON: Unterminated string "
                                         "starting at line"):
        check(GOLDEN.read_text()[:50])
    assert check(str(GOLDEN)).status == "valid"


def test_json_errors_say_at_once():
    from attnproof.errors import InputError
    from attnproof.io import loads_json

    with pytest.raises(InputError, match=r"^not valid JSON: Unterminated string starting at line 1 "
                                         r"column 7$"):
        loads_json('{"a": "b')


def _options_advised(text: str) -> set[str]:
    """The options a text tells the reader to use with *this* program (those it names for
    'attnproof check' are attnproof's, not the standalone checker's)."""
    import re

    text = re.sub(r"attnproof check[^'\n)]*", "", text)
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text))


def test_the_exported_checker_advises_only_options_it_has(tmp_path, exported):
    run = [sys.executable, "-S", str(exported / "check.py")]
    usage = subprocess.run(run + ["--help"], capture_output=True, text=True).stdout
    own = _options_advised(usage)
    assert {"--problem", "--strict", "--max-work", "--json"} <= own and "--replay" not in own
    said = []
    for name in ("k3-lines", "k3-window", "flint", "w3"):
        for extra in ([], ["--strict"], ["--max-work", "1"]):
            p = subprocess.run(run + [str(CERTS / "valid" / f"{name}.json"), *extra],
                               capture_output=True, text=True)
            said.append(p.stdout + p.stderr)
            assert _options_advised(p.stdout + p.stderr) <= own, (name, extra, p.stdout)
    lines = [s for s in said if s.startswith("inconclusive") and "refutation" in s]
    assert lines and all("'attnproof check --replay'" in s for s in lines)
    readme = (exported / "README.txt").read_text()
    assert _options_advised(readme) <= own, readme
    assert "attnproof check CERT --replay" in readme and "z3 and cvc5" in readme
    assert "line-refuted" in readme and "window-refuted" in readme


def test_the_exported_folder_carries_the_rule_reference(exported):
    readme = (exported / "README.txt").read_text()
    assert "docs/certificates.md" not in readme and "certificates.md in this folder" in readme
    reference = (exported / "certificates.md").read_text()
    assert reference == (ROOT / "docs" / "certificates.md").read_text()
    from attnproof.checker import RULES

    for rule in RULES:                      # every rule the checker runs is specified there
        assert f"`{rule}`" in reference, rule
    assert (exported / "theory.md").read_text() == (ROOT / "docs" / "theory.md").read_text()


# ---- long commands: progress while they wait, each stage once ------------------------------

def _merged(*argv: str, cwd: Path) -> tuple[int, str]:
    """Exit code and the ``2>&1`` log of one command run with ``--progress`` into a pipe."""
    p = subprocess.run([sys.executable, "-m", "attnproof", *argv, "--progress"], cwd=cwd,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    return p.returncode, p.stdout


@pytest.fixture(scope="module")
def k3(tmp_path_factory):
    d = tmp_path_factory.mktemp("k3")
    subprocess.run([sys.executable, "-m", "attnproof", "family", "graph", "--graph", "complete",
                    "--n", "3", "-o", str(d / "k3.json")], check=True, capture_output=True)
    return d / "k3.json"


@pytest.mark.parametrize("argv, stage", [
    (["prove", "{k3}", "-o", "{dir}/k3.cert.json"], "line query k = 6: unsat"),
    (["search", "{k3}", "--minimize", "--global"], "k = 6: unsat"),
    (["search", "{k3}", "--minimize", "--window", "1"], "k = 6: unsat"),
])
def test_each_stage_is_printed_once_in_a_merged_log(k3, argv, stage):
    argv = [a.format(k3=k3, dir=k3.parent) for a in argv]
    rc, log = _merged(*argv, cwd=k3.parent)
    assert rc == 0, log
    assert sum(stage in line for line in log.splitlines()) == 1, log


def test_check_replay_shows_progress_when_piped(k3):
    rc, log = _merged("check", str(CERTS / "valid" / "k3-lines.json"), "--replay", cwd=k3.parent)
    assert rc == 0, log
    lines = log.splitlines()
    assert any(line.startswith("replaying 1 SMT refutation with z3 and cvc5") for line in lines), log
    assert lines[-2].startswith("valid: ") and "re-proven by replay" in lines[-2]


def test_search_minimize_global_has_an_overall_time_limit(tmp_path):
    c4 = tmp_path / "c4.json"
    subprocess.run([sys.executable, "-m", "attnproof", "family", "graph", "--graph", "cycle",
                    "--n", "4", "-o", str(c4)], check=True, capture_output=True)
    p = subprocess.run([sys.executable, "-m", "attnproof", "search", str(c4), "--minimize",
                        "--global", "--time-limit", "3"], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "stopped: the --time-limit of 3 s is spent" in p.stdout
    bad = subprocess.run([sys.executable, "-m", "attnproof", "search", str(c4), "--atoms", "14",
                          "--time-limit", "3"], capture_output=True, text=True)
    assert bad.returncode == 3 and "--time-limit goes with --minimize" in bad.stderr
