"""Certificate production: determinism, golden files, the prove/bound/check commands (TESTING.md 12)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from attnproof.certificate import build_certificate
from attnproof.cli import main
from attnproof.families import graph_sum, named_graph, sigmoid_sum
from attnproof.io import canonical_json, dump_problem, problem_to_dict

ROOT = Path(__file__).resolve().parent.parent


def test_golden_certificates_regenerate_byte_identically():
    sys.path.insert(0, str(ROOT / "certificates"))
    try:
        import generate
    finally:
        sys.path.pop(0)
    docs = generate.valid(window=False)
    for name, doc in docs.items():
        if name == "k3-window":
            continue                     # embeds solver version strings of the machine
        assert canonical_json(doc) == (ROOT / "certificates" / "valid" / f"{name}.json").read_text(), name


def test_the_producer_writes_canonical_factor_steps():
    """A lint of the producer (the checker accepts any witness and component that hold,
    docs/certificates.md §6.1): each factor of a golden certificate has the canonical
    witness (``linear`` with the smallest variable when it applies), its ``heads`` hint
    in increasing order, and the smallest residue component the checker would accept."""
    from attnproof.algebra.factors import Witness, irreducibility_witness
    from attnproof.certificate.steps.factors import witness_doc
    from attnproof.checker import check_document

    seen = 0
    for path in sorted((ROOT / "certificates" / "valid").glob("*.json")):
        doc = json.loads(path.read_text())
        for i, step in enumerate(doc["steps"]):
            if step["rule"] != "irreducible_factor":
                continue
            seen += 1
            poly = {tuple((v, e) for v, e in m): c for c, m in step["poly"]}
            want = irreducibility_witness(poly) or Witness("capelli")
            assert step["witness"] == witness_doc(want), (path.name, i)
            assert [h for h, _ in step["heads"]] == sorted({h for h, _ in step["heads"]})
            for c in range(step["residue_component"]):     # a smaller component fails
                d = json.loads(path.read_text())
                d["steps"][i]["residue_component"] = c
                assert check_document(d).status == "invalid", (path.name, i, c)
    assert seen > 20


def test_the_producer_check_of_its_document_is_the_check_of_its_text():
    """``prove`` checks the document it has just written without parsing the text again
    (``check_written``): the verdict, message and work are those of ``check_text`` on every
    golden certificate, and a broken document is invalid both ways (a float too)."""
    from attnproof.certificate import check_written
    from attnproof.checker import check_text

    for path in sorted((ROOT / "certificates" / "valid").glob("*.json")):
        text = path.read_text()
        assert check_written(json.loads(text), text) == check_text(text), path.name
    for path in sorted((ROOT / "certificates" / "invalid").glob("*.json")):
        text = path.read_text()
        try:
            doc = json.loads(text)
            same = canonical_json(doc) == text
        except ValueError:            # not JSON, or NaN: no producer writes it
            continue
        if same:       # what a producer could write: the same verdict
            assert check_written(doc, text).code == check_text(text).code, path.name


def _shuffled_problem_text(M) -> str:
    """The same problem with reversed key order and non-canonical number spellings."""
    d = problem_to_dict(M)

    def rev(x):
        if isinstance(x, dict):
            return {k: rev(x[k]) for k in reversed(list(x))}
        if isinstance(x, list):
            return [rev(v) for v in x]
        if isinstance(x, int) and not isinstance(x, bool):
            return f"{x}.0"
        return x
    out = rev(d)
    out["version"] = 1
    out["dim"] = d["dim"]
    return json.dumps(out, indent=3)


def test_determinism_across_hash_seeds_key_order_and_folders(tmp_path):
    M = graph_sum(named_graph("complete", 4))
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    dump_problem(M, a / "p.json")
    (b / "p.json").write_text(_shuffled_problem_text(M))
    outs = []
    for folder, seed in ((a, "0"), (b, "12345")):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        r = subprocess.run([sys.executable, "-m", "attnproof", "prove", "p.json", "-o", "c.json",
                            "--no-lines"],
                           cwd=folder, env=env, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        outs.append((folder / "c.json").read_bytes())
    assert outs[0] == outs[1]
    assert outs[0] == build_certificate(M, minors=True).text.encode("ascii")


def test_prove_json_and_check(tmp_path, capsys):
    dump_problem(sigmoid_sum(4), tmp_path / "w4.json")
    cert = tmp_path / "w4.cert.json"
    assert main(["prove", str(tmp_path / "w4.json"), "-o", str(cert), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {k: out[k] for k in ("lower_bound", "upper_bound", "minimum", "trust")} == {
        "lower_bound": 16, "upper_bound": 16, "minimum": 16, "trust": "exact"}
    assert out["certificate"] == str(cert)
    assert main(["check", str(cert), "--json"]) == 0
    v = json.loads(capsys.readouterr().out)
    assert v["verdict"] == "valid" and v["lower_bound"] == 16


def test_prove_w30_structurally_without_allocating(tmp_path, capsys):
    dump_problem(sigmoid_sum(30), tmp_path / "w30.json")
    cert = tmp_path / "w30.cert"
    assert main(["prove", str(tmp_path / "w30.json"), "-o", str(cert), "--json",
                 "--max-atoms", "1000"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lower_bound"] == out["upper_bound"] == out["minimum"] == 2 ** 30
    assert cert.stat().st_size < 20_000
    assert main(["check", str(cert)]) == 0


def test_bound_command(tmp_path, capsys):
    dump_problem(graph_sum(named_graph("cycle", 4)), tmp_path / "c4.json")
    assert main(["bound", str(tmp_path / "c4.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lower_bound"] == 15 and out["blocks"][0]["method"] == "zonotope_graphic"
    assert main(["bound", str(tmp_path / "c4.json")]) == 0
    assert "at least 15 atoms" in capsys.readouterr().out


@pytest.mark.parametrize("cmd", ["bound", "prove"])
def test_bad_problem_is_one_line_usage_error(tmp_path, capsys, cmd):
    (tmp_path / "bad.json").write_text('{"format": "attnproof-problem", "version": 1, "dim": 1, '
                                       '"heads": [{"atoms": [{"key": [0.5], "value": 1}]}]}')
    args = [cmd, str(tmp_path / "bad.json")] + (["-o", str(tmp_path / "c.json")] if cmd == "prove" else [])
    assert main(args) == 3
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "float" in err
    assert not (tmp_path / "c.json").exists()


@pytest.mark.parametrize("name", ["w3.json", "k4.json", "decimal.json", "biased.json"])
def test_explicit_fusions_agree_with_ball_evaluation(name):
    """The embedded fused head matches the multi-head in Arb balls; a changed weight is refuted."""
    numeric = pytest.importorskip("attnproof.numeric")
    from attnproof.io import problem_from_dict

    doc = json.loads((ROOT / "certificates" / "valid" / name).read_text())
    M = problem_from_dict(doc["problem"])
    step = [s for s in doc["steps"] if s["rule"] == "explicit_fusion"][0]
    fused = {"format": "attnproof-problem", "version": 1, "dim": M.dim, "heads": [step["head"]]}
    head = problem_from_dict(fused).heads[0]
    assert numeric.quick_ball_check(M, head).verdict == "consistent"
    step["head"]["atoms"][0]["weight"] = 7
    bad = problem_from_dict(fused).heads[0]
    assert numeric.quick_ball_check(M, bad).verdict == "refuted"
