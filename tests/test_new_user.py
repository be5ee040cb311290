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
    (["prove", "{k3}", "-o", "{dir}/k3.cert.json", "--no-minors"], "line query k = 6: unsat"),
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


# ---- the words of the output: one glossary, 'attnproof help TERM' --------------------------

def test_every_word_of_the_default_output_is_explained(run_cli, tmp_path):
    """bound, prove and fuse print trust levels, paths, block kinds and fusion methods; the
    line that names them points to the glossary, and 'attnproof help' explains each."""
    import re

    import networkx as nx

    from attnproof import dump_problem, graph_sum, sigmoid_sum

    problems = {"w3": sigmoid_sum(3), "k3": graph_sum(nx.complete_graph(3))}
    said = []
    for name, M in problems.items():
        path = tmp_path / f"{name}.json"
        dump_problem(M, path)
        for argv in (["bound", str(path)], ["prove", str(path), "--no-lines"], ["fuse", str(path)]):
            rc, out, _ = run_cli(*argv)
            assert rc == 0
            said.append(out)
    words = [w for out in said for m in re.finditer(r"\(words: (.*): 'attnproof help TERM'", out)
             for w in m.group(1).split(", ")]
    assert {"trust exact", "path c1", "zonotope_independent", "zonotope_graphic"} <= set(words)
    from attnproof.cli.glossary import lookup

    for w in set(words):
        rc, out, err = run_cli("help", w)
        assert rc == 0 and out.startswith(f"{lookup(w).name}: ") and "more: docs/" in out, (w, out)


def test_help_term_covers_every_trust_level_block_kind_and_fusion_method(run_cli):
    from attnproof.checker.rules import TRUST_ORDER
    from attnproof.cli.glossary import lookup

    kinds = ["zonotope_independent", "zonotope_graphic", "zonotope_general_position", "simplex",
             "vertices", "planar"]
    methods = ["reduced", "lcm", "product", "merged-product"]
    for word in [*TRUST_ORDER, *kinds, *methods, "path c1", "path c3", "path geometry",
                 "indecomposable", "pairwise non-homothetic"]:
        assert lookup(word) is not None, word
    rc, out, _ = run_cli("help", "merged-product", "fusion")
    assert rc == 0 and out.startswith("merged-product: ")
    rc, _, err = run_cli("help", "zonotope")
    assert rc == 3 and "did you mean 'zonotope_graphic'?" in err and "attnproof help terms" in err
    rc, out, _ = run_cli("help", "terms")
    assert rc == 0 and "zonotope_independent" in out
    rc, out, _ = run_cli("help", "prove")               # a command still gets its help
    assert rc == 0 and out.startswith("usage: attnproof prove")


def test_every_word_of_the_merge_report_is_explained(run_cli, tmp_path):
    """merge-report prints its verdicts (saves, costs × more, equal, undecided), keeping the
    heads separate, the merge plan and the structures it names; its words line lists the
    ones it used, and 'attnproof help' explains each, as it does the phrases of report.md."""
    import re
    from dataclasses import replace

    from attnproof.cli.glossary import MERGE_VERDICTS, lookup, structure_term
    from attnproof.transformer.capture import random_capture, save_capture

    cap = random_capture(3, 8, 4, 4, seed=11)
    WQ, WK, bQ, bK = cap.W_Q.copy(), cap.W_K.copy(), cap.b_Q.copy(), cap.b_K.copy()
    WQ[2], WK[2], bQ[2], bK[2] = WQ[0], WK[0], bQ[0], bK[0]       # one pattern
    WQ[3], bQ[3] = 0, 0                                            # a constant head
    save_capture(replace(cap, W_Q=WQ, W_K=WK, b_Q=bQ, b_K=bK, head_out=None), tmp_path / "c.npz")
    rc, out, err = run_cli("merge-report", str(tmp_path / "c.npz"), "-o", str(tmp_path / "r"))
    assert rc == 0, err
    (line,) = re.findall(r"\(words: (.*): 'attnproof help TERM'", out)
    words = line.split(", ")
    doc = json.loads((tmp_path / "r" / "report.json").read_text())
    asked = doc["pairs"] + [doc["layer_question"]] + doc["groups"]
    verdicts = {MERGE_VERDICTS[q["merge"]] for q in asked}
    structures = {structure_term(st) for q in asked for st in q["structures"]}
    assert {"saves", "costs × more"} <= verdicts and None not in structures
    assert {"same attention pattern", "constant head"} <= {t.name for t in structures}
    assert verdicts | {t.name for t in structures} | {"kept separately", "merge plan"} <= set(words)
    md = (tmp_path / "r" / "report.md").read_text()
    for phrase in ("kept separately", "merge exactly into", "Best merge plan", "merging",
                   "optimal over all partitions"):
        assert phrase in md and lookup(phrase) is not None, phrase
    for w in words:
        rc, text, _ = run_cli("help", w)
        assert rc == 0 and text.startswith(f"{lookup(w).name}: ") and "more: docs/" in text, w


def test_the_glossary_page_is_written_from_the_terms():
    from attnproof.cli.glossary import TERMS, render_markdown

    page = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    assert page == render_markdown(), "docs/glossary.md is out of date: run python docs/gen_cli.py"
    assert "glossary.md" in (ROOT / "mkdocs.yml").read_text()
    assert "(glossary.md)" in (ROOT / "docs" / "index.md").read_text()
    for t in TERMS:                   # each page a term points to exists
        assert (ROOT / "docs" / t.see.split("#")[0]).is_file(), t


def test_the_home_page_lists_every_example():
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    for script in sorted((ROOT / "examples").glob("[0-9][0-9]_*.py")):
        assert f"`{script.name}`" in index, script.name


# ---- errors name their place ----------------------------------------------------------------

_HEAD = "format: attnproof-problem\nversion: 1\ndim: 1\nheads:\n"


@pytest.mark.parametrize("name, text, message", [
    ("float.yaml", _HEAD + "  - atoms:\n      - key: [0.5]\n        value: 1\n",
     "head 0, atom 0, key: '0.5' at line 6, column 15 is a YAML float"),
    ("tab.yaml", _HEAD + "  - atoms:\n\t- key: [1]\n",
     "not valid YAML: found character '\\t' that cannot start any token at line 6, column 1"),
    ("brace.yaml", _HEAD.replace("heads:\n", "heads: [{atoms: [{key: [1], value: 1}]\n"),
     "not valid YAML: expected ',' or '}', but got '<stream end>' at line 5, column 1 (while "
     "parsing a flow mapping at line 4, column 9)"),
    ("duplicate.yaml", _HEAD.replace("version: 1\n", "version: 1\nversion: 1\n")
     + "  - atoms:\n      - key: [1]\n        value: 1\n",
     "duplicate key 'version' at line 3, column 1"),
    ("hex.yaml", _HEAD + "  - atoms:\n      - key: [1]\n        value: 0x10\n",
     "'0x10' at line 7, column 16 is ambiguous in YAML 1.1"),
    ("nan.json", '{"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [{"atoms": '
                 '[{"key": [NaN], "value": 1}]}]}', "head 0, atom 0, key: NaN is not an exact number"),
    ("inf.json", '{"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [{"atoms": '
                 '[{"key": [1], "value": -Infinity}]}]}',
     "head 0, atom 0, value: -Infinity is not an exact number"),
])
def test_problem_file_errors_name_their_place(tmp_path, run_cli, name, text, message):
    path = tmp_path / name
    path.write_text(text)
    rc, out, err = run_cli("show", str(path))
    assert (rc, out) == (3, "")
    assert err.strip() == f"attnproof: error: {path}: {message}" or (
        err.startswith(f"attnproof: error: {path}: {message}") and err.count("\n") == 1), err
    assert "JSON object" not in err


# ---- install and notebook ---------------------------------------------------------------------

def test_every_page_that_says_open_the_notebook_says_how():
    """The README, the tutorial and the home page send readers to examples/tour.ipynb: the
    'notebook' extra installs a front end and nbconvert, and each page names it."""
    import re
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {re.split(r"[<>=\[ ]", d)[0] for d in extras["notebook"]}
    assert names & {"jupyterlab", "notebook"} and "nbconvert" in names
    for page in ("README.md", "docs/tutorial.md", "docs/index.md", "examples/README.md"):
        text = (ROOT / page).read_text(encoding="utf-8")
        assert "tour.ipynb" in text and "'.[notebook]'" in text, page


def test_the_readme_names_what_the_test_extra_installs():
    import re
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| second:"))
    shown = {"ipykernel": "kernel", "mkdocs": "MkDocs", "mkdocstrings": "mkdocstrings"}
    for dep in extras["test"]:
        name = re.split(r"[<>=\[ ]", dep)[0]
        assert shown.get(name, name).lower() in row.lower(), name
    assert "about 4 minutes" not in readme and "9:54" in readme


# ---- small things -------------------------------------------------------------------------------

@pytest.mark.parametrize("family", ["k3", "w2"])
def test_the_newton_picture_keeps_labels_inside_ticks_on_the_lattice_and_the_product_visible(family):
    import networkx as nx

    from attnproof import graph_sum, sigmoid_sum
    from attnproof.plot import newton_figure, newton_picture

    M = graph_sum(nx.complete_graph(3)) if family == "k3" else sigmoid_sum(2)
    fig = newton_figure(newton_picture(M))
    ax = fig.axes[0]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    assert ax.texts
    for t in ax.texts:                       # the vertex labels stay inside the frame
        box = t.get_window_extent(renderer)
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1, t.get_text()
        assert frame.y0 <= box.y0 and box.y1 <= frame.y1, t.get_text()
    for ticks in (ax.get_xticks(), ax.get_yticks()):   # an integer lattice: integer ticks
        assert all(float(x).is_integer() for x in ticks), ticks
    orders = {c.get_label(): c.get_zorder() for c in ax.collections if c.get_label()}
    product = next(z for label, z in orders.items() if label.startswith("product fusion"))
    assert product == max(orders.values()), orders


def test_a_head_prints_as_its_atoms_write_it(tmp_path, run_cli):
    path = tmp_path / "half.json"
    path.write_text(json.dumps({"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
        {"atoms": [{"key": ["3/2"], "value": 1}, {"key": [0], "value": 0}]},
        {"atoms": [{"key": ["1/2"], "value": 1}, {"key": [0], "value": 0}]}]}))
    rc, out, _ = run_cli("show", str(path))
    assert rc == 0
    assert "  x1**3/(x1**3 + 1)\n" in out and "(x1**2 - x1 + 1))\n" in out.split("P/Q")[-1]


def test_bare_search_names_only_what_is_required(run_cli):
    rc, _, err = run_cli("search")
    assert rc == 3 and err.splitlines()[-1].endswith("required: PROBLEM"), err


def test_the_adversarial_texts_that_are_no_json_are_not_certificates():
    """The corpus's empty file, byte-order mark, trailing comma, ...: exit 3 in process too."""
    from attnproof.checker import check_text

    index = json.loads((CERTS / "adversarial" / "index.json").read_text())
    names = [n for n, e in index.items() if "not JSON: not a certificate" in e["what"]]
    assert len(names) >= 6
    for name in names:
        assert index[name]["exit"] == 3
        v = check_text((CERTS / "adversarial" / name).read_text(encoding="utf-8"))
        assert (v.status, v.code) == ("error", 3) and v.message.startswith("not a certificate: ")


def test_graph_heads_are_named_in_the_numbers_of_the_variables(tmp_path, run_cli):
    path = tmp_path / "k3.json"
    assert run_cli("family", "graph", "--graph", "complete", "--n", "3", "-o", str(path))[0] == 0
    rc, out, _ = run_cli("show", str(path))
    assert rc == 0 and "(e1-2), 2 atoms:\n  x1/(x1 + x2)\n" in out
    assert "(e2-3), 2 atoms:\n  x2/(x2 + x3)\n" in out and "e0-" not in out
