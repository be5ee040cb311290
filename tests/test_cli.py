"""The command line as a user meets it: family, fuse, show, demo, errors, --help."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from attnproof.cli import COMMANDS, build_parser
from attnproof.io import load_problem
from attnproof.fusion import verify_head


def test_every_command_has_help(run_cli):
    parser = build_parser()
    names = [a for a in parser._subparsers._group_actions[0].choices]   # noqa: SLF001
    assert {"demo", "family", "fuse", "show"} <= set(names) <= {c.replace("_", "-") for c in COMMANDS}
    for name in names:
        rc, out, _ = run_cli(name, "--help")
        assert rc == 0 and "usage: attnproof " + name in out


def test_no_command_prints_help_and_exits_3(run_cli):
    rc, _, err = run_cli()
    assert rc == 3 and "COMMAND" in err


def test_demo_table_is_computed(run_cli):
    rc, out, _ = run_cli("demo", "--json")
    assert rc == 0
    rows = json.loads(out)["rows"]
    assert [r["d"] for r in rows] == list(range(1, 9))
    for r in rows:
        assert r["head_atom_terms"] == 2 * r["d"] and r["atoms"] == r["minimum"] == 2 ** r["d"]
    rc, out, _ = run_cli("demo")
    assert rc == 0 and "256" in out and "head-atom terms" in out


@pytest.mark.parametrize("d", [1, 2, 5, 9, 12])
def test_family_then_fuse(tmp_path, run_cli, d):
    prob, fused = tmp_path / "w.json", tmp_path / "f.json"
    assert run_cli("family", "sigmoid-sum", "--d", str(d), "-o", str(prob))[0] == 0
    rc, out, _ = run_cli("fuse", str(prob), "-o", str(fused), "--json")
    assert rc == 0
    s = json.loads(out)
    assert (s["atoms"], s["heads"], s["head_atom_terms"], s["method"]) == (2 ** d, d, 2 * d, "reduced")
    F = load_problem(fused)
    assert len(F.heads) == 1 and len(F.heads[0]) == 2 ** d
    if d <= 5:
        verify_head(load_problem(prob), F.heads[0], points=2)


@pytest.mark.parametrize("args,atoms", [
    (["--graph", "complete", "--n", "3"], 7), (["--graph", "cycle", "--n", "4"], 15),
    (["--graph", "complete", "--n", "4"], 38), (["--edges", "0-1,1-2,2-3"], 8),
])
def test_graph_family_fuse(tmp_path, run_cli, args, atoms):
    prob = tmp_path / "g.json"
    assert run_cli("family", "graph", *args, "-o", str(prob))[0] == 0
    rc, out, _ = run_cli("fuse", str(prob), "--json")
    assert rc == 0 and json.loads(out)["atoms"] == atoms


def test_family_biased_and_random_to_stdout(run_cli):
    rc, out, _ = run_cli("family", "biased-sigmoid", "--biases", "1/2,0.25,-1")
    assert rc == 0 and json.loads(out)["heads"][1]["atoms"][0]["bias"] == "1/4"
    rc, out, _ = run_cli("family", "random", "--heads", "2", "--atoms", "3", "--dim", "3", "--seed", "4")
    assert rc == 0 and len(json.loads(out)["heads"]) == 2


def test_show_prints_formulas(tmp_path, run_cli):
    prob = tmp_path / "k3.json"
    run_cli("family", "graph", "--graph", "complete", "--n", "3", "-o", str(prob))
    rc, out, _ = run_cli("show", str(prob))
    assert rc == 0
    assert "(x1 + x2)*(x1 + x3)*(x2 + x3)" in out and "Q has 7 support points" in out
    rc, out, _ = run_cli("show", str(prob), "--unicode")
    assert rc == 0 and "x₁" in out


@pytest.mark.parametrize("content,needle", [
    ("{", "not valid JSON"),
    ('{"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [{"atoms": [{"key": [0.5], "value": 1}]}]}',
     "JSON float"),
    ('{"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [{"atoms": [{"key": ["1e999999999"], "value": 1}]}]}',
     "out of range"),
    ('{"format": "attnproof-problem", "version": 1, "dim": 2, "heads": [{"atoms": [{"key": [1], "value": 1}]}]}',
     "head 0, atom 0: key has dimension 1, the problem has dim 2"),
    ('{"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [{"atoms": [{"key": [1], "value": 1, "weight": 0}]}]}',
     "weight must be positive"),
    ("\xff\xfe", "not UTF-8"),
])
@pytest.mark.parametrize("command", ["fuse", "show"])
def test_malformed_files_exit_3_with_one_line(tmp_path, run_cli, content, needle, command):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content.encode("latin-1"))
    rc, out, err = run_cli(command, str(bad))
    assert rc == 3 and out == ""
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_missing_file_and_bad_option(run_cli, tmp_path):
    rc, _, err = run_cli("fuse", str(tmp_path / "nope.json"))
    assert rc == 3 and "no such file" in err
    rc, _, err = run_cli("family", "sigmoid-sum", "--d", "0")
    assert rc == 3 and "must be positive" in err
    rc, _, err = run_cli("family", "graph", "--graph", "cube", "--n", "3")
    assert rc == 3 and "unknown graph 'cube'" in err


def test_max_atoms_names_size_and_flag(tmp_path, run_cli):
    prob, out = tmp_path / "w30.json", tmp_path / "f.json"
    run_cli("family", "sigmoid-sum", "--d", "30", "-o", str(prob))
    rc, _, err = run_cli("fuse", str(prob), "-o", str(out))
    assert rc == 3 and "1073741824" in err and "--max-atoms" in err and "estimated" in err
    assert not out.exists()
    rc, _, err = run_cli("fuse", str(prob), "--max-atoms", "100")
    assert rc == 3 and "--max-atoms 100" in err


def test_console_script_runs_as_a_process(tmp_path):
    prob = tmp_path / "w3.json"
    exe = [sys.executable, "-m", "attnproof"]
    subprocess.run(exe + ["family", "sigmoid-sum", "--d", "3", "-o", str(prob)], check=True)
    p = subprocess.run(exe + ["fuse", str(prob), "--json"], capture_output=True, text=True)
    assert p.returncode == 0 and json.loads(p.stdout)["atoms"] == 8
    p = subprocess.run(exe + ["fuse", str(tmp_path / "missing.json")], capture_output=True, text=True)
    assert p.returncode == 3 and p.stderr.startswith("attnproof: error:") and "Traceback" not in p.stderr
