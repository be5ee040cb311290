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
    rc, out, err = run_cli("prove", str(tmp_path / "k3.json"), "-o", "-", "--no-minors")
    assert rc == 0, err
    cert = attnproof.prove(M, minors=False)     # the minors alone prove 7 (exact)
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

    monkeypatch.setattr(proving, "check_written", lambda doc, text: Refused())
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


def _document_writes(tree) -> list[str]:
    """Where a module writes a certificate's claims or trust: a dict display with the key
    ``claims`` and one of ``steps`` and ``trust`` (a report that quotes the claims is not a
    document, nor a report row that names its trust and the steps it ran); an assignment to ``x["claims"]``,
    ``x["trust"]`` or ``x["steps"]``; ``dict(..., claims=...)`` or ``dict(..., trust=...)``."""
    import ast

    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if "claims" in keys and keys & {"steps", "trust"}:
                out.append(f"line {node.lineno}: a document display")
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if (isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant)
                        and t.slice.value in ("claims", "trust", "steps")):
                    out.append(f"line {node.lineno}: [{t.slice.value!r}] assigned")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "dict"
              and {k.arg for k in node.keywords} & {"claims", "trust", "steps"}):
            out.append(f"line {node.lineno}: dict(..., claims/trust/steps=...)")
    return out


def test_one_module_writes_every_certificate_document():
    """certificate/document.py is the one writer of steps, claims and trust; the checker,
    which reads them, is the only other place that names them together."""
    import ast

    writers = {}
    for path in sorted((ROOT / "attnproof").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("attnproof/checker/"):
            continue
        found = _document_writes(ast.parse(path.read_text(encoding="utf-8")))
        if found:
            writers[rel] = found
    assert list(writers) == ["attnproof/certificate/document.py"], writers


def test_the_writer_test_sees_the_writes_it_forbids():
    import ast

    for src in ('d = {"claims": {}, "steps": []}', 'd = {"claims": {}, "trust": "exact"}', 'doc["trust"] = "exact"',
                'doc = dict(doc, claims=c)', 'x = {"claims": c, "trust": t, "steps": s}'):
        assert _document_writes(ast.parse(src)), src
    assert not _document_writes(ast.parse('s = {"trust": v.trust, "lower_bound": 3}'))
    assert not _document_writes(ast.parse('r = {"certificate": p, "claims": c}'))
    assert not _document_writes(ast.parse('row = {"trust": t, "steps": ["bounds"]}'))


def test_trust_order_is_the_checkers():
    from attnproof import certificate, checker

    assert certificate.TRUST_ORDER is checker.TRUST_ORDER


def test_every_rule_has_a_step_writer_named_after_it():
    """certificate/steps exports ``<rule>_step`` for every rule the checker reads (§6)."""
    from attnproof.certificate import steps
    from attnproof.checker import RULES

    assert {f"{rule}_step" for rule in RULES} <= set(steps.__all__)
    for rule in RULES:
        assert callable(getattr(steps, f"{rule}_step"))
