"""The checker stands alone: lazy package imports, ``python -m attnproof.checker``, export-checker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CERTS = ROOT / "certificates"
INDEX = json.loads((CERTS / "index.json").read_text())
HEAVY = ("flint", "numpy", "sympy", "networkx", "z3", "cvc5", "mpmath", "matplotlib", "tqdm")


def _loaded_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json\n"
                          "print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    return {m.split(".")[0] for m in json.loads(out.splitlines()[-1])}


@pytest.mark.parametrize("code", ["import attnproof", "import attnproof.checker",
                                  "from attnproof.checker import check_text",
                                  "import attnproof.checker.__main__"])
def test_the_checker_loads_nothing_heavy(code):
    assert not _loaded_after(code) & set(HEAVY), code


def test_lazy_exports_still_work():
    import attnproof

    assert attnproof.fuse(attnproof.sigmoid_sum(2)).atoms == 4
    assert "bound" in dir(attnproof) and callable(attnproof.search)
    with pytest.raises(AttributeError):
        attnproof.no_such_name          # noqa: B018


def _bare_python(tmp_path: Path) -> Path:
    """A venv without pip or any package: only the standard library."""
    env_dir = tmp_path / "bare"
    venv.EnvBuilder(with_pip=False, system_site_packages=False).create(env_dir)
    py = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    probe = subprocess.run([str(py), "-c", "import flint"], capture_output=True)
    assert probe.returncode != 0, "the bare venv can import flint"
    return py


def _expected_without_flint(path: str, entry: dict, monkeypatch) -> int:
    """The index's exit code; for certificates with a reduced_by_flint step, what the
    in-package checker answers with FLINT hidden (2 unless something else is invalid)."""
    text = (CERTS / path).read_text()
    if '"reduced_by_flint"' not in text:
        return entry["exit"]
    import attnproof.checker.flint_gcd as fg
    from attnproof.checker import check_text

    with monkeypatch.context() as m:
        m.setattr(fg, "flint_module", lambda: None)
        code = check_text(text).code
    assert code in (entry["exit"], 2), path
    return code


def test_exported_checker_runs_the_golden_corpus_without_flint(tmp_path, run_cli, monkeypatch):
    rc, out, err = run_cli("export-checker", str(tmp_path / "chk"))
    assert rc == 0, err
    py = _bare_python(tmp_path)
    launcher = tmp_path / "chk" / "check.py"
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONNOUSERSITE": "1"}
    for path, entry in sorted(INDEX.items()):
        p = subprocess.run([str(py), str(launcher), str(CERTS / path), *entry["args"]],
                           capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
        if entry["args"]:
            want = entry["exit"]
        else:
            want = _expected_without_flint(path, entry, monkeypatch)
        assert p.returncode == want, (path, p.stdout, p.stderr)
    p = subprocess.run([str(py), str(launcher), str(CERTS / "valid/k4.json"), "--json"],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert p.returncode == 0 and json.loads(p.stdout)["verdict"] == "valid"
    p = subprocess.run([str(py), str(launcher), str(tmp_path / "missing.json")],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert p.returncode == 3 and p.stderr.strip().endswith("missing.json: no such file")
    # the same package runs as python -m attnproof_checker from the export folder
    p = subprocess.run([str(py), "-m", "attnproof_checker", str(CERTS / "valid/w3.json")],
                       capture_output=True, text=True, env=env, cwd=tmp_path / "chk")
    assert p.returncode == 0 and p.stdout.startswith("valid")


def test_python_m_attnproof_checker_in_a_bare_python(tmp_path):
    """``python -m attnproof.checker`` with only the package folder on the path, nothing installed."""
    py = _bare_python(tmp_path)
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT), "PYTHONNOUSERSITE": "1"}
    for name, code in (("valid/k4.json", 0), ("invalid/vertex-wrong.json", 1),
                       ("invalid/graphic-too-large.json", 2)):
        p = subprocess.run([str(py), "-m", "attnproof.checker", str(CERTS / name)],
                           capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
        assert p.returncode == code, (name, p.stdout, p.stderr)


def test_export_refuses_to_overwrite(tmp_path, run_cli):
    assert run_cli("export-checker", str(tmp_path / "c"))[0] == 0
    rc, _, err = run_cli("export-checker", str(tmp_path / "c"))
    assert rc == 3 and "--force" in err
    assert run_cli("export-checker", str(tmp_path / "c"), "--force")[0] == 0


def test_attnproof_check_loads_no_flint():
    cert = CERTS / "valid" / "k4.json"
    mods = _loaded_after(f"from attnproof.cli import main\nassert main(['check', {str(cert)!r}]) == 0")
    assert not mods & {"flint", "numpy", "sympy", "networkx"}


# ---- the standalone checker answers as 'attnproof check' does -------------------------------

def _first_line(out: str, err: str) -> str:
    lines = out.splitlines() or err.splitlines()
    return lines[0] if lines else ""


def _standalone(capsys, *argv: str) -> tuple[int, str]:
    from attnproof.checker.__main__ import main

    rc = main(list(argv), prog="attnproof")     # its errors start with the program's name
    out, err = capsys.readouterr()
    return rc, _first_line(out, err)


def _cli(run_cli, *argv: str) -> tuple[int, str]:
    rc, out, err = run_cli("check", *argv)
    return rc, _first_line(out, err)


def _corpus_cases(tmp_path: Path) -> list[tuple[str, ...]]:
    problem = tmp_path / "w2.json"
    problem.write_text(json.dumps({"format": "attnproof-problem", "version": 1, "dim": 2, "heads": [
        {"name": "sigma1", "atoms": [{"key": [1, 0], "value": 1}, {"key": [0, 0], "value": 0}]},
        {"name": "sigma2", "atoms": [{"key": [0, 1], "value": 1}, {"key": [0, 0], "value": 0}]}]}))
    (tmp_path / "c.yaml").write_text("format: attnproof-certificate\n")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe")
    (tmp_path / "folder").mkdir()
    cases = [(str(p),) for p in sorted(CERTS.glob("*/*.json")) if p.name != "index.json"]
    cases += [(str(problem),), (str(tmp_path / "missing.json"),), (str(tmp_path / "c.yaml"),),
              (str(tmp_path / "bin.json"),), (str(tmp_path / "folder"),)]
    w3 = str(CERTS / "valid" / "w3.json")
    cases += [(w3, "--strict"), (w3, "--problem", str(problem)),
              (w3, "--problem", str(tmp_path / "missing.json")),
              (w3, "--problem", str(tmp_path / "bin.json"))]
    return cases


@pytest.mark.parametrize("corpus", [
    "sample", pytest.param("whole", marks=pytest.mark.slow)])
def test_python_m_checker_agrees_with_attnproof_check(tmp_path, run_cli, capsys, corpus):
    """Same exit code and first line on the golden corpus, problem files and missing files
    (the fast suite takes every fifth golden certificate, the slow one all of them)."""
    cases = _corpus_cases(tmp_path)
    golden = [c for c in cases if str(CERTS) in c[0] and len(c) == 1]
    assert len(golden) > 40
    if corpus == "sample":
        cases = golden[::5] + [c for c in cases if c not in golden]
    for argv in cases:
        assert _standalone(capsys, *argv) == _cli(run_cli, *argv), argv


def test_problem_option_binds_like_the_cli(tmp_path, run_cli, capsys):
    """--problem FILE hashes the canonical form of the file as attnproof does: numbers written
    as decimals, one-element value lists, default weights and key order change nothing."""
    from attnproof.io import load_problem, problem_sha256

    from attnproof.checker.__main__ import problem_file_sha256

    cert = tmp_path / "w2.cert.json"
    assert run_cli("family", "sigmoid-sum", "--d", "2", "-o", str(tmp_path / "w2.json"))[0] == 0
    assert run_cli("prove", str(tmp_path / "w2.json"), "-o", str(cert))[0] == 0
    loose = {"format": "attnproof-problem", "version": 1, "dim": 2, "heads": [
        {"name": "sigma1", "atoms": [{"key": ["1.0", "0/3"], "value": [1], "weight": "1"},
                                     {"key": [0, 0], "value": "0", "bias": 0}]},
        {"name": "sigma2", "atoms": [{"key": [0, "2/2"], "value": "1"},
                                     {"key": [0, 0], "value": 0}]}]}
    (tmp_path / "loose.json").write_text(json.dumps(loose, indent=1))
    other = json.loads(json.dumps(loose))
    other["heads"][0]["atoms"][0]["weight"] = "2"
    (tmp_path / "other.json").write_text(json.dumps(other))
    for name in ("w2.json", "loose.json", "other.json"):
        path = str(tmp_path / name)
        assert problem_file_sha256(path) == problem_sha256(load_problem(path)), name
        assert _standalone(capsys, str(cert), "--problem", path) == \
            _cli(run_cli, str(cert), "--problem", path), name
    assert _standalone(capsys, str(cert), "--problem", str(tmp_path / "loose.json"))[0] == 0
    assert _standalone(capsys, str(cert), "--problem", str(tmp_path / "other.json"))[0] == 1
    # a high-dimensional problem: sparse keys
    assert run_cli("family", "random", "--heads", "2", "--atoms", "3", "--dim", "20", "--seed",
                   "1", "-o", str(tmp_path / "r20.json"))[0] == 0
    path = str(tmp_path / "r20.json")
    assert problem_file_sha256(path) == problem_sha256(load_problem(path))


@pytest.mark.parametrize("launcher", ["module", "exported"])
def test_standalone_help_version_and_errors(tmp_path, run_cli, launcher):
    if launcher == "module":
        cmd, prog = [sys.executable, "-m", "attnproof.checker"], "python -m attnproof.checker"
    else:
        assert run_cli("export-checker", str(tmp_path / "x"))[0] == 0
        cmd, prog = [sys.executable, str(tmp_path / "x" / "check.py")], "check.py"

    def run(*argv):
        return subprocess.run(cmd + list(argv), capture_output=True, text=True, cwd=ROOT)

    h = run("--help")
    assert h.returncode == 0 and h.stdout.startswith(f"usage: {prog} ")
    assert "--problem PROBLEM" in h.stdout and "--problem-sha256 HEX" in h.stdout
    v = run("--version")
    assert v.returncode == 0 and v.stdout.startswith(f"{prog}: attnproof certificate checker")
    from attnproof import __version__

    assert __version__ in v.stdout
    p = run(str(CERTS / "valid" / "w3.json"), "--problem", str(tmp_path / "none.json"))
    assert (p.returncode, p.stderr.strip()) == (3, f"{prog}: error: {tmp_path / 'none.json'}: "
                                                   "no such file")
    w = run(str(CERTS / "valid" / "w3.json"))
    assert (w.returncode, w.stdout.splitlines()[0]) == (
        0, "valid: lower bound 8, upper bound 8, trust exact")
    assert run("--bogus").returncode == 3
