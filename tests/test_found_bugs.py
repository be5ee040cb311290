"""Regression tests for bugs found by attacking the command line and the checker.

Each test names the input that broke and what must happen instead.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from attnproof.cli import main


def _cli(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "attnproof", *args], capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def w2_cert(tmp_path):
    prob = tmp_path / "w2.json"
    cert = tmp_path / "w2.cert.json"
    assert main(["family", "sigmoid-sum", "--d", "2", "-o", str(prob)]) == 0
    assert main(["prove", str(prob), "-o", str(cert)]) == 0
    return cert


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_check_deeply_nested_problem_certificate_is_not_an_internal_error(tmp_path, w2_cert,
                                                                         json_flag):
    """A certificate naming "attnproof-problem" with arrays nested 50,000 deep in its steps
    made ``check`` exit 4 (RecursionError in the problem-file sniffing); it is invalid (1)."""
    text = w2_cert.read_text()
    assert '"steps":[' in text
    bad = tmp_path / "deep.json"
    bad.write_text(text.replace('"steps":[', '"steps":[' + "[" * 50000 + "]" * 50000 + ",", 1))
    r = _cli(["check", str(bad), *json_flag])
    assert r.returncode == 1, r.stderr
    assert "internal error" not in r.stderr
    if json_flag:
        assert json.loads(r.stdout)["verdict"] == "invalid"
