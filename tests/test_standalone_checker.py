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
    assert p.returncode == 3 and "cannot be read" in p.stderr
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
