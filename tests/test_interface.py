"""The interface as a user meets it: honest size limits, large graph sums, progress, small fixes."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

from attnproof import Atom, Head, MultiHead, fuse, graph_sum, sigmoid_sum
from attnproof.bounds.zonotope import acyclic_orientations_brute, count_acyclic_orientations
from attnproof.bounds.zonotope import graph_hint
from attnproof.checker.rules.graphs import MAX_GENERAL_NODES, read_hint
from attnproof.checker.rules.graphs import acyclic_orientations as _checker_orientations
from attnproof.io import dump_problem


def acyclic_orientations(n: int, edges, **kw) -> int:
    """The checker's count of the acyclic orientations, given the producer's hint."""
    return _checker_orientations(n, edges, read_hint(graph_hint(edges), {v: v for v in range(n)}, "g"), **kw)


def _write(tmp_path, name, M):
    p = tmp_path / f"{name}.json"
    dump_problem(M, p)
    return str(p)


# ---------------------------------------------------------------- size limits

def test_fuse_k7_with_default_options(tmp_path, run_cli):
    p = _write(tmp_path, "k7", graph_sum(nx.complete_graph(7)))
    rc, out, err = run_cli("fuse", p, "--json")
    assert rc == 0, err
    assert json.loads(out)["atoms"] == 36961


def test_max_atoms_is_the_estimate_of_what_is_built(tmp_path, run_cli):
    from attnproof.algebra.sizes import fusion_size_bound

    M = graph_sum(nx.complete_graph(6))
    est = fusion_size_bound(M)
    assert fuse(M).atoms <= est < 2 ** 15                 # the product of head sizes is 2^15
    p = _write(tmp_path, "k6", M)
    assert run_cli("fuse", p, "--max-atoms", str(est))[0] == 0
    rc, _, err = run_cli("fuse", p, "--max-atoms", str(est - 1))
    assert rc == 3 and f"up to {est} atoms" in err and "estimated" in err


@pytest.mark.parametrize("G,upper", [(nx.complete_graph(6), 2932), (nx.cycle_graph(6), 63)])
def test_prove_upper_bound_is_the_best_verified_fusion(tmp_path, run_cli, G, upper):
    p = _write(tmp_path, "g", graph_sum(G))
    # exact steps only: the line query would spend its budget on C_6's gap (62 vs 63)
    rc, out, err = run_cli("prove", p, "-o", str(tmp_path / "g.cert"), "--json", "--no-lines")
    assert rc == 0, err
    assert json.loads(out)["upper_bound"] == upper == fuse(graph_sum(G)).atoms


@pytest.mark.slow
def test_prove_petersen_embeds_the_fusion(tmp_path, run_cli):
    p = _write(tmp_path, "g", graph_sum(nx.petersen_graph()))
    rc, out, err = run_cli("prove", p, "-o", str(tmp_path / "g.cert"), "--json")
    assert rc == 0, err
    assert json.loads(out)["upper_bound"] == 22292
    assert run_cli("check", str(tmp_path / "g.cert"))[0] == 0


@pytest.mark.slow
def test_prove_k7_embeds_no_fusion_its_reader_could_not_check_with_no_option(tmp_path, run_cli):
    # K_7's best fusion (36,961 atoms, its forests) needs more work to verify than the
    # default budget of the file that would embed it: prove says so and keeps the
    # counted product, and its certificate is valid with no option
    p = _write(tmp_path, "g", graph_sum(nx.complete_graph(7)))
    rc, out, err = run_cli("prove", p, "-o", str(tmp_path / "g.cert"), "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["upper_bound"] == 2 ** 21
    assert any("36961 atoms" in n and "work budget" in n for n in doc["notes"]), doc["notes"]
    assert run_cli("check", str(tmp_path / "g.cert"))[0] == 0


def test_demo_over_max_atoms_still_prints_the_table(run_cli):
    rc, out, _ = run_cli("demo", "--max-d", "6", "--max-atoms", "20", "--json")
    assert rc == 0
    rows = json.loads(out)["rows"]
    assert [r["atoms"] for r in rows] == [2, 4, 8, 16, None, None]
    assert [r["minimum"] for r in rows] == [2 ** d for d in range(1, 7)]
    rc, out, _ = run_cli("demo", "--max-d", "6", "--max-atoms", "20")
    assert rc == 0 and "was not built" in out


def test_help_explains_each_limit(run_cli):
    assert "estimated" in run_cli("fuse", "--help")[1]
    prove = run_cli("prove", "--help")[1]
    assert "--explicit-fusion-limit" in prove and "--max-atoms" in prove and "embedded" in prove
    assert f"{MAX_GENERAL_NODES} nodes" in run_cli("bound", "--help")[1]
    assert "--max-atoms" in run_cli("demo", "--help")[1]


# ---------------------------------------------------------------- graph sums past 12 nodes

def _random_graphs(count, max_n, seed):
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(1, max_n)
        G = nx.gnp_random_graph(n, rng.random(), seed=rng.randint(0, 10 ** 6))
        yield n, list(G.edges())


def test_acyclic_orientation_counts_agree_with_enumeration():
    for n, E in _random_graphs(150, 8, 3):
        if len(E) > 13:
            continue
        want = acyclic_orientations_brute(n, E)
        assert acyclic_orientations(n, E) == want, (n, E)
        assert count_acyclic_orientations(n, E)[0] == want, (n, E)


def test_structured_counts_agree_with_the_general_recurrence():
    from attnproof.checker.rules.graphs import _count_general

    for n, E in _random_graphs(60, 11, 4):
        G = nx.Graph(E)
        G.add_nodes_from(range(n))
        general = _count_general(list(range(n)), {v: set(G[v]) for v in range(n)})
        assert acyclic_orientations(n, E) == count_acyclic_orientations(n, E)[0] == general


def _chordal(n, seed):
    rng = random.Random(seed)
    E, cliques = [(0, 1), (1, 2), (0, 2)], [[0, 1, 2]]
    for v in range(3, n):
        c = rng.choice(cliques)
        sub = rng.sample(c, rng.randint(1, len(c)))
        E += [(u, v) for u in sub]
        cliques.append(sub + [v])
    return nx.Graph(E)


@pytest.mark.parametrize("name,G,count", [
    ("K12", nx.complete_graph(12), 479001600),
    ("K16", nx.complete_graph(16), 20922789888000),             # 16!
    ("C20", nx.cycle_graph(20), 2 ** 20 - 1),     # the cycle lemma (THEORY §13): Newton 2^20 - 2
    ("chordal30", _chordal(30, 5), None),
])
def test_large_graph_sums_are_proven_and_checked(tmp_path, run_cli, name, G, count):
    assert nx.is_chordal(G) or name == "C20"
    p = _write(tmp_path, name, graph_sum(G))
    rc, out, err = run_cli("prove", p, "-o", str(tmp_path / "c.json"), "--json")
    assert rc == 0, err
    doc = json.loads(out)
    if count is None:        # chordal: the clique-tree formula, independently of the checker
        count = count_acyclic_orientations(G.number_of_nodes(), list(G.edges()))[0]
        assert "general" not in count_acyclic_orientations(G.number_of_nodes(), list(G.edges()))[1]
    assert int(doc["lower_bound"]) == count
    rc, out, _ = run_cli("check", str(tmp_path / "c.json"), "--json")
    assert rc == 0 and int(json.loads(out)["lower_bound"]) == count


def test_unions_multiply():
    # two triangles sharing a vertex, plus a disjoint 5-cycle and an isolated node
    E = [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (2, 4)] + [(5 + i, 5 + (i + 1) % 5) for i in range(5)]
    assert acyclic_orientations(11, E) == 6 * 6 * 30 == count_acyclic_orientations(11, E)[0]


# ---------------------------------------------------------------- progress

def test_progress_lines_for_a_long_search(tmp_path, run_cli):
    p = _write(tmp_path, "c4", graph_sum(nx.cycle_graph(4)))
    rc, _, err = run_cli("search", p, "--minimize", "--window", "1", "--timeout", "120", "--progress")
    assert rc == 0
    assert "minimizing: query 1" in err and "elapsed" in err or "<" in err
    rc, _, err = run_cli("search", p, "--atoms", "14", "--window", "1", "--timeout", "120",
                         "--progress")
    assert "SMT query: at most 14 atoms" in err and "elapsed]" in err
    rc, _, err = run_cli("search", p, "--atoms", "14", "--window", "1", "--timeout", "120")
    assert err == ""                                  # not a terminal: quiet


def test_progress_in_fuse_bound_prove_check(tmp_path, run_cli):
    p = _write(tmp_path, "k5", graph_sum(nx.complete_graph(5)))
    for argv, label in ((["fuse", p], "fusing heads"), (["bound", p, "--explicit"], "bound"),
                        (["prove", p, "-o", str(tmp_path / "k5.cert")], "proving"),
                        (["check", str(tmp_path / "k5.cert")], "checking the certificate")):
        rc, _, err = run_cli(*argv, "--progress")
        assert rc == 0 and label in err, (argv, err)


def test_progress_is_a_context_manager_called_with_done_and_total():
    import io

    from attnproof.cli.common import ProgressBar as Progress

    s = io.StringIO()
    with Progress("phase", stream=s, enabled=True, delay=0) as bar:
        for i in range(3):
            bar(i + 1, 3)
        bar.describe("phase two")
        bar(5, None)
    assert "phase" in s.getvalue() and "3/3" in s.getvalue()
    quiet = io.StringIO()
    with Progress("phase", stream=quiet) as bar:     # not a terminal, no --progress
        bar(1, 2)
    assert quiet.getvalue() == ""


# ---------------------------------------------------------------- smaller things

def test_show_plot_svg_by_extension(tmp_path, run_cli):
    p = _write(tmp_path, "k3", graph_sum(nx.complete_graph(3)))
    for ext, magic in (("svg", b"<?xml"), ("png", b"\x89PNG"), ("pdf", b"%PDF")):
        out = tmp_path / f"k3.{ext}"
        assert run_cli("show", p, "--plot", str(out))[0] == 0
        assert out.read_bytes().startswith(magic)
    assert b"<svg" in (tmp_path / "k3.svg").read_bytes()


def test_check_on_a_problem_or_yaml_file_is_an_input_error(tmp_path, run_cli):
    p = _write(tmp_path, "w2", sigmoid_sum(2))
    rc, _, err = run_cli("check", p)
    assert rc == 3 and "problem file, not a certificate" in err
    y = tmp_path / "c.yaml"
    y.write_text("format: attnproof-certificate\n")
    rc, _, err = run_cli("check", str(y))
    assert rc == 3 and "YAML" in err


@pytest.mark.parametrize("content,needle", [
    ('{"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [{"atoms": [{"key": [0.5], "value": 1}]}]}',
     "JSON float"),
    ('{"format": ', "not valid JSON"),
])
def test_json_errors_name_the_file(tmp_path, run_cli, content, needle):
    bad = tmp_path / "named.json"
    bad.write_text(content)
    for argv in (["fuse", str(bad)], ["numcheck", str(bad), str(bad)]):
        rc, _, err = run_cli(*argv)
        assert rc == 3 and needle in err and "named.json" in err


def test_missing_z3_hint_names_the_pip_package(monkeypatch):
    from attnproof.errors import SolverError
    from attnproof.smt import solvers

    monkeypatch.setattr(solvers, "solver_available", lambda name: False)
    with pytest.raises(SolverError, match="pip install z3-solver"):
        solvers.solver_version("z3")


def test_atoms_take_the_numbers_a_python_user_has():
    a = Atom([1], 1)
    assert a.key == (1,) and a.value == (1,)
    b = Atom((np.int64(2), "1/3"), (np.int32(1), "0.5"), bias="1/2", weight=np.int64(3))
    assert b.key == (2, Fraction(1, 3)) and b.value == (1, Fraction(1, 2))
    assert (b.bias, b.weight) == (Fraction(1, 2), 3)
    from attnproof.errors import ValidationError

    for bad in (0.5, np.float64(1.0), "x", True):
        with pytest.raises(ValidationError):
            Atom([bad], 1)


def test_one_head_is_singular(tmp_path, run_cli):
    M = MultiHead((Head((Atom([1], 1), Atom([0], 0))),))
    rc, out, _ = run_cli("fuse", _write(tmp_path, "one", M))
    assert rc == 0 and out.startswith("1 head with 2 head-atom terms fuses exactly") and "1 heads" not in out


def test_api_reprs_and_latex():
    from attnproof import bound, check, prove

    W = sigmoid_sum(3)
    f, lb, cert = fuse(W), bound(W), prove(W)
    assert repr(f) == "Fusion(8 atoms, method='reduced', heads=3)"
    assert repr(lb) == "LowerBound(8, trust='exact', path='c1', complete=True)"
    assert repr(cert) == "Certificate(lower_bound=8, upper_bound=8, minimum=8, trust='exact')"
    for obj in (f, lb, cert):
        tex = obj._repr_latex_()
        assert tex.startswith("$") and tex.endswith("$") and "8" in tex
    assert check(cert).status == check(cert.text).status == check(cert.doc).status == "valid"


def test_api_accepts_paths_and_documents(tmp_path):
    from attnproof import bound, check, prove
    from attnproof.io import problem_to_dict

    p = _write(tmp_path, "w2", sigmoid_sum(2))
    assert bound(p).value == bound(problem_to_dict(sigmoid_sum(2))).value == 4
    prove(p, output=tmp_path / "w2.cert")
    assert check(tmp_path / "w2.cert", problem=p).status == "valid"
    assert check(str(tmp_path / "w2.cert"), problem=sigmoid_sum(3)).status == "invalid"


def test_library_defaults_match_the_parser_defaults():
    from attnproof.certificate import EXPLICIT_FUSION_LIMIT
    from attnproof.cli import common
    from attnproof.fusion import DEFAULT_MAX_ATOMS

    assert common.DEFAULT_MAX_ATOMS == DEFAULT_MAX_ATOMS
    assert common.EXPLICIT_FUSION_LIMIT == EXPLICIT_FUSION_LIMIT


def test_every_command_has_json_and_progress():
    from attnproof.cli import TEXT_COMMANDS, build_parser

    for name, sub in build_parser()._subparsers._group_actions[0].choices.items():   # noqa: SLF001
        if name in TEXT_COMMANDS:
            continue
        opts = {s for a in sub._actions for s in a.option_strings}
        assert {"--json", "--progress"} <= opts, name


@pytest.mark.parametrize("M", [sigmoid_sum(3), graph_sum(nx.complete_graph(4))])
def test_explicit_fusion_product_path_rejects_a_wrong_value(M):
    """The checker's fast path (D* = product of the head denominators) still rejects a bad N*."""
    from attnproof.certificate import build_certificate
    from attnproof.checker import check_document, check_text
    from attnproof.io import canonical_json

    cert = build_certificate(M)
    assert check_text(cert.text).status == "valid"
    doc = json.loads(cert.text)
    step = next(s for s in doc["steps"] if s["rule"] == "explicit_fusion")
    atom = step["head"]["atoms"][-1]
    atom["value"] = "1/7" if atom["value"] != "1/7" else "1/8"
    v = check_document(json.loads(canonical_json(doc)))
    assert v.status == "invalid" and "not equal to the sum of the heads" in v.message

