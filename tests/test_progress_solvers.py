"""The progress label of ``attnproof search`` follows each solver: once z3 answers, it says so
while cvc5 still runs.

A stand-in solver worker answers ``unsat`` at once as z3, and as cvc5 only once the
progress display has shown "z3 unsat, cvc5 running" (the display itself opens the gate), so
the order of the answers is fixed whatever the machine's load.  Were the label never
updated, cvc5 would answer ``unknown`` at its timeout and the test would fail.
"""

from __future__ import annotations

import io
import re
import sys
import textwrap

import networkx as nx
import pytest

from attnproof import dump_problem, graph_sum

# z3 answers at once; cvc5 waits for the gate file (or answers unknown at its timeout)
STAND_IN = textwrap.dedent("""\
    import json, os, sys, time
    request = json.loads(sys.stdin.read())
    if request["solver"] != "z3":
        end = time.monotonic() + request["timeout_ms"] / 1000
        while not os.path.exists({gate!r}):
            if time.monotonic() > end:
                print(json.dumps({{"result": "unknown", "version": "stand-in", "reason": "timeout"}}))
                sys.exit()
            time.sleep(0.01)
    print(json.dumps({{"result": "unsat", "version": "stand-in"}}))
""")


class Display(io.StringIO):
    """stderr: a terminal or not; opens the gate once it has shown z3's answer beside cvc5 running."""

    def __init__(self, gate, terminal: bool) -> None:
        super().__init__()
        self.gate, self.terminal = gate, terminal

    def isatty(self) -> bool:
        return self.terminal

    def write(self, text: str) -> int:
        n = super().write(text)
        if "z3 unsat, cvc5 running" in self.getvalue():
            self.gate.touch()
        return n


@pytest.mark.parametrize("terminal", [False, True], ids=["plain", "terminal"])
@pytest.mark.parametrize("mode", [["--atoms", "6"], ["--minimize"], ["--global", "--atoms", "6"]],
                         ids=["query", "minimize", "line-query"])
def test_label_shows_z3_answer_while_cvc5_runs(tmp_path, monkeypatch, capsys, terminal, mode):
    from attnproof.cli import main
    from attnproof.smt import solvers

    gate = tmp_path / "gate"
    worker = tmp_path / "stand_in_worker.py"
    worker.write_text(STAND_IN.format(gate=str(gate)))
    monkeypatch.setattr(solvers, "_WORKER", worker)
    # K4 bisects from 38 atoms down to the Newton bound 24: three queries, all unsat here
    problem = tmp_path / "k.json"
    dump_problem(graph_sum(nx.complete_graph(4 if mode[0] == "--minimize" else 3)), problem)
    display = Display(gate, terminal)
    monkeypatch.setattr(sys, "stderr", display)

    rc = main(["search", str(problem), *mode, "--timeout", "30", "--progress"])
    err = display.getvalue()
    out = capsys.readouterr().out
    assert gate.exists(), err
    head = {"--atoms": "SMT query: at most 6 atoms", "--minimize": "minimizing: query 1",
            "--global": "line query: at most 6 points"}[mode[0]]
    timeout = "timeout 30 s" + (" per query" if mode[0] == "--minimize" else "")
    if terminal:
        assert "\r" in err
        assert f"{head} (z3 unsat, cvc5 running, {timeout})" in err
    else:
        assert "\r" not in err
        lines = [re.sub(r"(: [0-9/]+)? \[[^]]*\]$", "", line) for line in err.splitlines()]   # no count, no clock
        assert lines[0] == f"{head} (z3 and cvc5 running, {timeout})", lines
        waiting = lines.index(f"{head} (z3 unsat, cvc5 running, {timeout})")
        assert lines.index(f"{head} (z3 and cvc5 unsat, {timeout})") > waiting
        if mode[0] == "--minimize":        # the next query's label names the step before it
            assert any(line.startswith("minimizing: query 2 after k = 31 unsat; no fusion with "
                                       "<= 31 atoms in the window (") for line in lines), lines
    if mode[0] == "--atoms":
        assert rc == 1 and out.startswith("unsat:"), (rc, out, err)
    elif mode[0] == "--global":
        assert rc == 1 and "unsat: no set of at most 6 points" in out, (rc, out, err)
    else:
        assert rc == 0 and "k = 31: unsat" in out and "k = 37: unsat" in out, (rc, out, err)


def test_solvers_in_turn_report_each_start(tmp_path, monkeypatch):
    """One after the other (a sweep's schedule): cvc5 waits, then runs once z3 has answered."""
    from attnproof.smt import solvers

    gate = tmp_path / "gate"
    worker = tmp_path / "stand_in_worker.py"
    worker.write_text(STAND_IN.format(gate=str(gate)))
    monkeypatch.setattr(solvers, "_WORKER", worker)
    told = []

    def on_states(states):
        told.append(solvers.describe_states(states))
        if states == {"z3": "unsat", "cvc5": "running"}:
            gate.touch()

    runs = solvers.run_solvers(["z3", "cvc5"], "(check-sat)", 30, at_once=False,
                               on_states=on_states)
    assert {n: r.result for n, r in runs.items()} == {"z3": "unsat", "cvc5": "unsat"}
    assert told == ["z3 running, cvc5 waiting", "z3 unsat, cvc5 running", "z3 and cvc5 unsat"]
