"""What a new user meets on the command line: progress that reads well in a log, the right
usage on a mistyped option, close matches, help, version, completion, and inputs that are
refused with a message that says where and why."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from attnproof import dump_problem, graph_sum, sigmoid_sum

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def c4(tmp_path):
    path = tmp_path / "c4.json"
    dump_problem(graph_sum(nx.cycle_graph(4)), path)
    return str(path)


# ---- progress ---------------------------------------------------------------------------

def test_progress_into_a_pipe_is_whole_lines(c4, run_cli):
    """Not a terminal: one line per stage, no carriage returns; the label says the timeout,
    which solvers run and the step of the bisection."""
    rc, out, err = run_cli("search", c4, "--minimize", "--timeout", "120", "--progress")
    assert rc == 0
    assert "\r" not in err and err.endswith("\n")
    lines = err.splitlines()
    assert lines[0].startswith("minimizing: query 1 (z3 and cvc5 running, timeout 120 s per query)")
    # each query's answer is printed once, in the result (it was on stderr too)
    assert not any(re.match(r"k = \d+: (sat|unsat)", line) for line in lines)
    assert any(re.match(r"  k = \d+: (sat|unsat)", line) for line in out.splitlines())
    # one query here: its solvers' answers show up as they come (tests/test_progress_solvers.py
    # follows a longer bisection)
    assert any(line.startswith("minimizing: query 1 (z3 and cvc5 unsat") for line in lines), lines
    rc, _, err = run_cli("search", c4, "--atoms", "14", "--timeout", "120", "--progress")
    assert "\r" not in err
    assert err.startswith("SMT query: at most 14 atoms (z3 and cvc5 running, timeout 120 s)")


def test_quiet_silences_progress_and_notes(c4, run_cli):
    rc, out, err = run_cli("search", c4, "--minimize", "--timeout", "120", "-q")
    assert rc == 0 and err == "" and "smallest fusion found" in out
    rc, _, err = run_cli("search", c4, "--minimize", "--progress", "--quiet")
    assert rc == 3 and "not allowed with argument" in err


def test_plain_progress_writes_a_line_every_few_seconds(monkeypatch):
    import io

    from attnproof.cli import common

    clock = [0.0]
    monkeypatch.setattr(common.time, "monotonic", lambda: clock[0])
    s = io.StringIO()
    with common.ProgressBar("work", stream=s, enabled=True, delay=0) as bar:
        for i in range(100):
            clock[0] = i * 0.5                 # 50 s of calls, two a second
            bar(i + 1, 100)
    lines = s.getvalue().splitlines()
    # the first call, one every PLAIN_INTERVAL seconds, the last
    assert 9 <= len(lines) <= 12 and lines[-1].startswith("work: 100/100")


def test_transformers_bars_are_off_while_loading_and_back_after():
    logging = pytest.importorskip("transformers.utils.logging")
    from attnproof.transformer.adapters import hub_progress_bars_off

    assert logging.is_progress_bar_enabled()
    with hub_progress_bars_off():
        assert not logging.is_progress_bar_enabled()
    assert logging.is_progress_bar_enabled()


# ---- usage, help, version, completion ------------------------------------------------------

def test_an_unknown_option_prints_the_subcommands_usage(c4, run_cli):
    rc, out, err = run_cli("fuse", c4, "--bogus")
    assert rc == 3 and out == ""
    assert err.startswith("usage: attnproof fuse ")
    assert err.strip().endswith("attnproof fuse: error: unrecognized arguments: --bogus")
    rc, _, err = run_cli("fuse", c4, "--jsn")
    assert "(did you mean '--json'?)" in err


def test_a_mistyped_command_gets_a_close_match(run_cli):
    rc, _, err = run_cli("fsue", "p.json")
    assert rc == 3 and "(did you mean 'fuse'?)" in err


def test_help_command_and_version(run_cli):
    rc, out, _ = run_cli("help", "fuse")
    assert rc == 0 and out == run_cli("fuse", "--help")[1]
    rc, out, _ = run_cli("help")
    assert rc == 0 and out.startswith("usage: attnproof ")
    rc, _, err = run_cli("help", "fsue")
    assert rc == 3 and "did you mean 'fuse'" in err and len(err.strip().splitlines()) == 1
    from attnproof import __version__

    for flag in ("-V", "--version"):
        rc, out, _ = run_cli(flag)
        assert rc == 0 and out.strip() == f"attnproof {__version__}"


def test_completion_script_or_what_to_install(run_cli, monkeypatch):
    pytest.importorskip("argcomplete")
    rc, out, _ = run_cli("completion", "bash")
    assert rc == 0 and "attnproof" in out and "complete" in out
    monkeypatch.setitem(sys.modules, "argcomplete", None)
    rc, _, err = run_cli("completion")
    assert rc == 3 and "pip install -e '.[completion]' in the attnproof checkout" in err


def test_completion_answers_the_shell(tmp_path):
    """The registered completer: the shell sets _ARGCOMPLETE and reads the candidates."""
    pytest.importorskip("argcomplete")
    answer = tmp_path / "answer"
    env = {"_ARGCOMPLETE": "1", "COMP_LINE": "attnproof fu", "COMP_POINT": "12",
           "_ARGCOMPLETE_IFS": "\n", "_ARGCOMPLETE_STDOUT_FILENAME": str(answer),
           "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", "from attnproof.cli import main; main()"],
                          env=env, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert answer.read_text().split() == ["fuse"]


# ---- commands that say what they did ---------------------------------------------------------

def test_search_window_defaults_to_radius_one(c4, run_cli):
    rc, out, _ = run_cli("search", c4, "--atoms", "14", "--timeout", "120")
    assert rc == 1 and "box of radius 1" in out


def test_prove_prints_without_o_and_writes_with_dash(tmp_path, run_cli):
    p = tmp_path / "w3.json"
    dump_problem(sigmoid_sum(3), p)
    rc, out, _ = run_cli("prove", str(p))
    assert rc == 0 and out.startswith("lower bound 8, upper bound 8, minimum 8")
    assert "not kept: give -o CERT" in out and list(tmp_path.iterdir()) == [p]
    rc, out, _ = run_cli("prove", str(p), "-o", "-")
    assert rc == 0 and json.loads(out)["format"] == "attnproof-certificate"
    rc, out, _ = run_cli("prove", str(p), "--json")
    assert rc == 0 and json.loads(out)["certificate"] is None


def test_family_says_where_it_wrote(tmp_path, run_cli):
    rc, out, _ = run_cli("family", "sigmoid-sum", "--d", "3", "-o", str(tmp_path / "w3.json"))
    assert rc == 0
    assert out.strip() == f"sigmoid-sum: 3 heads in dimension 3, 6 head-atom terms, written to " \
                          f"{tmp_path / 'w3.json'}"


# ---- inputs ----------------------------------------------------------------------------------

def test_json_float_error_names_head_atom_and_field(tmp_path, run_cli):
    doc = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
        {"name": "sigma", "atoms": [{"key": [1], "value": 1}, {"key": [0], "value": 0.5}]}]}
    (tmp_path / "f.json").write_text(json.dumps(doc))
    rc, _, err = run_cli("show", str(tmp_path / "f.json"))
    assert rc == 3
    assert "f.json: head 0 ('sigma'), atom 1, value: 0.5 is a JSON float" in err


def test_unquoted_rational_in_yaml_is_the_string_it_is(tmp_path, run_cli):
    (tmp_path / "h.yaml").write_text("format: attnproof-problem\nversion: 1\ndim: 1\nheads:\n"
                                     "  - atoms:\n      - {key: [1], value: 1/2}\n"
                                     "      - {key: [0], value: 0}\n")
    rc, out, err = run_cli("fuse", str(tmp_path / "h.yaml"), "--json")
    assert rc == 0, err
    (tmp_path / "f.yaml").write_text("format: attnproof-problem\nversion: 1\ndim: 1\nheads:\n"
                                     "  - atoms:\n      - {key: [1], value: 0.5}\n")
    rc, _, err = run_cli("fuse", str(tmp_path / "f.yaml"))
    assert rc == 3 and "YAML float" in err            # 0.5 is a float in YAML: still refused


def test_a_mistyped_field_gets_a_close_match(tmp_path, run_cli):
    doc = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
        {"atoms": [{"key": [1], "value": 1, "wieght": 2}, {"key": [0], "value": 0}]}]}
    (tmp_path / "t.json").write_text(json.dumps(doc))
    rc, _, err = run_cli("show", str(tmp_path / "t.json"))
    assert rc == 3 and "unknown field 'wieght' (did you mean 'weight'?" in err


def test_scale_page_says_when_workers_do_not_pay():
    text = (ROOT / "docs" / "scale.md").read_text(encoding="utf-8")
    assert "When `--workers` costs more than it gains" in text
    assert "51.6 s with `--workers 2`" in text


# ---- one capture, one problem: import and merge-report read it alike -----------------------

CAPTURE_OPTIONS = ("capture", "heads", "domain", "arithmetic")


def test_import_and_merge_report_share_the_capture_options():
    """The two commands that read a capture define its options once (cli/common.py)."""
    from attnproof.cli import build_parser
    from attnproof.cli.common import subcommands

    def options(name):
        acts = {a.dest: a for a in subcommands(build_parser())[name]._actions}
        return {d: (acts[d].option_strings, acts[d].choices, acts[d].default, acts[d].help)
                for d in CAPTURE_OPTIONS}

    assert options("import") == options("merge-report")


@pytest.mark.parametrize("argv", [
    ("--heads", "0,2"),
    ("--heads", "2,0", "--domain", "raw", "--arithmetic", "exact"),
], ids=["defaults", "raw-exact"])
def test_import_and_merge_report_read_the_same_problem(tmp_path, run_cli, argv):
    """``import CAP OPTIONS`` writes the problem that ``merge-report CAP OPTIONS`` proves: the
    pair certificate embeds the same heads, atom for atom, and the same dimension."""
    from dataclasses import replace

    from attnproof.transformer.capture import random_capture, save_capture

    cap = random_capture(4, 8, 3, 4, seed=5)
    WQ, WK = cap.W_Q.copy(), cap.W_K.copy()
    WQ[2], WK[2] = WQ[0], WK[0]                 # one pattern: a small pair question
    save_capture(replace(cap, W_Q=WQ, W_K=WK, head_out=None), tmp_path / "c.npz")
    rc, _, err = run_cli("import", str(tmp_path / "c.npz"), "-o", str(tmp_path / "p.json"), *argv)
    assert rc == 0, err
    rc, out, err = run_cli("merge-report", str(tmp_path / "c.npz"), "-o", str(tmp_path / "r"),
                           "--json", *argv)
    assert rc in (0, 2), err                    # answered or open: its certificate is written
    doc = json.loads(out)
    imported = json.loads((tmp_path / "p.json").read_text())
    (q,) = doc["pairs"]
    cert = json.loads((tmp_path / "r" / "certificates" /
                       f"heads_{q['heads'][0]}_{q['heads'][1]}.cert.json").read_text())
    assert doc["domain"] == ("raw" if "raw" in argv else "layernorm")
    assert doc["arithmetic"] == ("exact" if "exact" in argv else "float64")
    assert cert["problem"]["dim"] == imported["dim"]
    assert cert["problem"]["heads"] == imported["heads"]
