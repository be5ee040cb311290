"""``search`` has one home (attnproof/searching.py): ``attnproof search`` and the Python API
give the same bytes, and the command only parses arguments and prints."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import attnproof
from attnproof.smt import solver_available

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "certificates" / "valid"
HAS_SOLVERS = solver_available("z3") and solver_available("cvc5")
needs_solvers = pytest.mark.skipif(not HAS_SOLVERS, reason="the search needs z3 and cvc5")


def _no_time(doc: dict) -> dict:
    """A summary without its clock readings (elapsed and the solvers' seconds)."""
    if isinstance(doc, dict):
        return {k: _no_time(v) for k, v in doc.items() if k not in ("elapsed_s", "seconds")}
    if isinstance(doc, list):
        return [_no_time(v) for v in doc]
    return doc


# the golden certificate, the command's arguments, the API's
CASES = [
    ("k3-window", ["--atoms", "6", "--window", "1"], {"atoms": 6, "window": 1}),
    ("k3-lines", ["--global", "--atoms", "6"], {"atoms": 6, "lines": True}),
    ("k3-window", ["--minimize", "--window", "1"], {"minimize": True, "window": 1}),
    ("k3-lines", ["--global", "--minimize"], {"minimize": True, "lines": True}),
]


@needs_solvers
@pytest.mark.parametrize("golden, argv, kw", CASES,
                         ids=["window", "lines", "window-minimize", "lines-minimize"])
def test_search_command_and_api_are_byte_identical_on_the_golden_problems(golden, argv, kw,
                                                                           run_cli, tmp_path):
    """Certificate, witness and SMT-LIB2 text: the same bytes from the command and the API;
    the JSON summary the command prints is the API's (paths and clock readings aside)."""
    from attnproof.cli.common import json_ready
    from attnproof.searching import search_problem

    gold = json.loads((GOLDEN / f"{golden}.json").read_text())
    (tmp_path / "p.json").write_text(json.dumps(gold["problem"]))
    cli = {name: tmp_path / f"cli.{name}" for name in ("cert", "fused", "smt2")}
    rc, out, err = run_cli("search", str(tmp_path / "p.json"), *argv, "--certificate",
                           str(cli["cert"]), "-o", str(cli["fused"]), "--smtlib", str(cli["smt2"]),
                           "--json")
    assert rc in (0, 1), err
    api = {name: tmp_path / f"api.{name}" for name in cli}
    done = search_problem(gold["problem"], certificate=str(api["cert"]), output=str(api["fused"]),
                          smtlib=str(api["smt2"]), **kw)
    for name in cli:
        assert cli[name].exists() == api[name].exists(), name
        if api[name].exists():
            assert cli[name].read_bytes() == api[name].read_bytes(), name
    assert api["cert"].read_bytes() == done.certificate.text.encode("ascii")
    mine = json.loads(json.dumps(json_ready(done.summary())))
    theirs = json.loads(out)
    for key in ("output", "certificate"):           # the paths each was given
        if key in mine:
            assert mine[key] in (None, str(api["fused" if key == "output" else "cert"]))
            mine[key] = theirs[key]
    assert _no_time(theirs) == _no_time(mine)
    cert = json.loads(api["cert"].read_text())
    if "atoms" in kw:            # one query: the golden certificate's claims and trust
        assert cert["claims"] == gold["claims"] and cert["trust"] == gold["trust"]


@needs_solvers
def test_the_api_verb_is_the_pipeline(run_cli, tmp_path):
    """attnproof.search writes what attnproof search writes, and returns the query's answer."""
    gold = json.loads((GOLDEN / "k3-window.json").read_text())
    (tmp_path / "k3.json").write_text(json.dumps(gold["problem"]))
    rc, _, err = run_cli("search", str(tmp_path / "k3.json"), "--atoms", "6", "--certificate",
                         str(tmp_path / "cli.json"))
    assert rc == 1, err
    res = attnproof.search(gold["problem"], 6, window=1, certificate=tmp_path / "api.json")
    assert res.result == "unsat" and res.target == 6
    assert (tmp_path / "cli.json").read_bytes() == (tmp_path / "api.json").read_bytes()


@needs_solvers
def test_a_sweep_writes_the_same_certificates_from_the_command_and_the_api(run_cli, tmp_path):
    from attnproof.searching import sweep_problems

    gold = json.loads((GOLDEN / "k3-window.json").read_text())
    (tmp_path / "k3.json").write_text(json.dumps(gold["problem"]))
    for d in ("cli", "api"):
        (tmp_path / d).mkdir()
    rc, _, err = run_cli("search", "--sweep", str(tmp_path / "k3.json"), "--window", "0,1",
                         "--targets", "6", "--certificate", str(tmp_path / "cli"))
    assert rc == 0, err
    done = sweep_problems([(str(tmp_path / "k3.json"), gold["problem"])], "0,1", "6",
                          certificate_dir=str(tmp_path / "api"))
    assert done.verdict == "sat" and done.written == [str(tmp_path / "api" / "k3.cert.json")]
    assert ((tmp_path / "cli" / "k3.cert.json").read_bytes()
            == (tmp_path / "api" / "k3.cert.json").read_bytes())


def test_the_command_is_argument_parsing_and_printing():
    """The search, its files and its summary live in attnproof/searching.py, not in cli/."""
    cli = ROOT / "attnproof" / "cli"
    assert not (cli / "search_lines.py").exists() and not (cli / "search_sweep.py").exists()
    for module in ("cmd_search.py", "search_text.py"):
        src = (cli / module).read_text()
        for name in ("search_fusion", "minimize", "line_query", "line_minimize", "sweep",
                     "search_certificate", "line_certificate", "atomic_write_text",
                     "canonical_json", "load_problem", "QueryLabel", "parse_window"):
            assert not re.search(rf"\b{name}\(", src), (module, name)


def test_walks_of_solver_queries_open_their_stage_in_one_place():
    """The stage of a walk (label, solvers' states, the next query) is written once:
    attnproof.parallel.stages.query_stage, used by prove's line queries and by search."""
    users = []
    for path in sorted((ROOT / "attnproof").rglob("*.py")):
        src = path.read_text(encoding="utf-8")
        if path.name != "stages.py":
            assert "QueryLabel(" not in src and "label.describe = " not in src, path
        if "query_stage(" in src and path.name != "stages.py":
            users.append(path.name)
    assert users == ["proving.py", "searching.py"]


def test_the_api_refuses_what_the_command_refuses(tmp_path):
    from attnproof.errors import InputError

    with pytest.raises(InputError, match="--time-limit goes with --minimize"):
        attnproof.search(attnproof.sigmoid_sum(2), 3, budget=10)
    with pytest.raises(InputError, match="not both"):
        attnproof.search(attnproof.sigmoid_sum(2), 3, minimize=True)
    with pytest.raises(InputError, match="folder .* does not exist"):
        attnproof.search(attnproof.sigmoid_sum(2), 3, certificate=tmp_path / "no" / "c.json")
    with pytest.raises(InputError, match="biases"):
        attnproof.search(attnproof.biased_sigmoid_sum([1, 2]), 3)
