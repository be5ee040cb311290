"""``prove`` has one home (attnproof/proving.py): the command and the Python API give the
same bytes, and the command only parses arguments and prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import attnproof
from attnproof.smt import solver_available

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = sorted((ROOT / "certificates" / "valid").glob("*.json"))
HAS_SOLVERS = solver_available("z3") and solver_available("cvc5")


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_prove_command_and_api_are_byte_identical_on_the_golden_problems(path, run_cli, tmp_path):
    problem = json.loads(path.read_text())["problem"]
    (tmp_path / "p.json").write_text(json.dumps(problem))
    rc, _, err = run_cli("prove", str(tmp_path / "p.json"), "-o", str(tmp_path / "c.json"),
                         "--no-lines")
    assert rc == 0, err
    cert = attnproof.prove(problem, lines=False, output=tmp_path / "api.json")
    assert (tmp_path / "c.json").read_bytes() == cert.text.encode("ascii")
    assert (tmp_path / "api.json").read_bytes() == cert.text.encode("ascii")


@pytest.mark.skipif(not HAS_SOLVERS, reason="the line query needs z3 and cvc5")
def test_prove_with_a_line_refutation_is_byte_identical_too(run_cli, tmp_path):
    M = attnproof.graph_sum(__import__("networkx").complete_graph(3))
    attnproof.dump_problem(M, tmp_path / "k3.json")
    rc, out, err = run_cli("prove", str(tmp_path / "k3.json"), "-o", "-")
    assert rc == 0, err
    cert = attnproof.prove(M)
    assert cert.trust == "line-refuted" and cert.lower_bound == 7
    # the solver versions are the machine's, but the same in both
    assert out == cert.text


def test_the_command_is_argument_parsing_and_printing():
    src = (ROOT / "attnproof" / "cli" / "cmd_prove.py").read_text()
    assert len(src.splitlines()) < 80
    for name in ("build_certificate", "check_text", "check_own", "line_obstacle",
                 "add_line_refutations", "atomic_write_text"):
        assert name not in src, name


def test_the_api_checks_and_retries_as_the_command(monkeypatch):
    """One pipeline: a certificate refused by the checker raises from the API as from the command."""
    from attnproof import proving
    from attnproof.errors import CertificateError

    class Refused:
        code, message, line_steps = 1, "invalid: forged", []

    monkeypatch.setattr(proving, "check_text", lambda text: Refused())
    with pytest.raises(CertificateError, match="forged"):
        attnproof.prove(attnproof.sigmoid_sum(2), lines=False)


def test_the_defaults_of_the_api_are_the_pipelines():
    import inspect

    from attnproof import proving
    from attnproof.cli import prove_text

    api = inspect.signature(attnproof.api.prove).parameters
    lib = inspect.signature(proving.prove_problem).parameters
    assert api["lines_timeout"].default == lib["lines_timeout"].default == \
        prove_text.DEFAULT_LINES_TIMEOUT
    assert prove_text.MAX_AUTO_LINE_POINTS == proving.MAX_AUTO_LINE_POINTS
