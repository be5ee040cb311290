"""The Python API as a user meets it: one way to pass a problem, short printed forms.

Every top-level verb takes a :class:`MultiHead`, a problem file path or a
problem document; every public object prints in at most 300 characters
(a summary, never an SMT-LIB2 text or every rational); ``dir(attnproof)``
lists the public names only.
"""

from __future__ import annotations

import json

import networkx as nx
import pytest

import attnproof
from attnproof.display import REPR_LIMIT


@pytest.fixture(scope="module")
def c4():
    return attnproof.graph_sum(nx.cycle_graph(4))


@pytest.fixture(scope="module")
def c4_cert(c4):
    """C_4 proven with exact steps only (its line query is tested in test_lines.py)."""
    return attnproof.prove(c4, lines=False)


@pytest.fixture(scope="module")
def c4_search(c4):
    """The window-1 query of C_4 at 14 atoms: unsat."""
    return attnproof.search(c4, 14, window=1, timeout=60)


@pytest.fixture(params=["multihead", "path", "pathlib", "document"])
def as_given(request, c4, tmp_path):
    """The 4-cycle as each kind of argument a verb takes."""
    doc = attnproof.problem_to_dict(c4)
    path = tmp_path / "c4.json"
    path.write_text(json.dumps(doc))
    return {"multihead": c4, "path": str(path), "pathlib": path, "document": doc}[request.param]


@pytest.mark.parametrize("verb, answer", [
    ("fuse", lambda r: r.atoms == 15),
    ("product_fusion", lambda r: r.method == "product" and r.atoms == 15),
    ("reduced_form", lambda r: len(r.Q) == 15),
    ("bound", lambda r: r.value == 14),
    ("prove", lambda r: (r.lower_bound, r.upper_bound, r.trust) == (15, 15, "exact")),
])
def test_every_verb_takes_a_multihead_a_path_or_a_document(verb, answer, as_given):
    # the graph minors prove C_4 = 15 with no solver (THEORY §13); the line query is tested
    # in test_lines.py
    options = {"lines": False} if verb == "prove" else {}
    assert answer(getattr(attnproof, verb)(as_given, **options))


def test_the_problem_io_verbs_take_them_too(as_given, c4):
    assert attnproof.problem_sha256(as_given) == attnproof.problem_sha256(c4)
    assert attnproof.problem_to_dict(as_given) == attnproof.problem_to_dict(c4)


def test_search_and_check_take_them_too(as_given, c4_cert):
    res = attnproof.search(as_given, 15, window=1, timeout=60)
    assert res.result == "sat" and res.atoms <= 15
    assert attnproof.check(c4_cert, problem=as_given).status == "valid"


def test_a_wrong_argument_is_an_input_error():
    with pytest.raises(attnproof.InputError, match="expected a MultiHead, a problem file path"):
        attnproof.fuse(42)
    with pytest.raises(attnproof.InputError):
        attnproof.reduced_form("no-such-file.json")


def _public_objects(cert, res):
    from attnproof.families import float_multihead
    from attnproof.fusion import class_product_fusion

    big = attnproof.random_multihead(3, 12, 6, seed=1)
    floats = float_multihead(2, 30, 16, seed=1)
    r = attnproof.reduced_form(big)
    objs = {"MultiHead": big, "Head": big.heads[0], "Atom": floats.heads[0].atoms[0],
            "float MultiHead": floats, "Fusion": attnproof.fuse(big), "ReducedForm": r,
            "ExpFraction": r.frac, "Lattice": r.lattice,
            "ClassProductFusion": class_product_fusion(floats), "LowerBound": attnproof.bound(floats),
            "Certificate": cert, "Verdict": attnproof.check(cert), "SearchResult": res,
            "Window": res.window, "Frame": res.frame, "Encoding": res.encoding,
            "SolverRun": next(iter(res.solvers.values())),
            "MinimizeResult": attnproof.search(attnproof.graph_sum(nx.complete_graph(3)),
                                               minimize=True, window=1, timeout=60)}
    return objs


def test_every_public_object_prints_briefly(c4_cert, c4_search):
    for name, obj in _public_objects(c4_cert, c4_search).items():
        for text in (repr(obj), str(obj)):
            if name in ("MultiHead", "Head", "float MultiHead", "MinimizeResult"):
                text = repr(obj)            # their str lists atoms or queries, one a line
            assert len(text) <= REPR_LIMIT, f"{name}: {len(text)} characters: {text[:200]}..."
            assert "(set-" not in text and " Fraction(" not in text and "(Fraction(" not in text, \
                f"{name}: {text[:200]}"


def test_print_of_a_search_is_one_readable_line(c4_search, capsys):
    print(c4_search)
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and len(out) < REPR_LIMIT
    assert out.startswith("unsat: no fusion with at most 14 atoms")


def test_multihead_str_is_readable_and_bounded():
    text = str(attnproof.sigmoid_sum(2))
    assert text.splitlines()[0] == "multi-head of 2 heads in dimension 2 (4 head-atom terms)"
    assert "key (1, 0) -> value 1" in text
    many = attnproof.sigmoid_sum(40)
    lines = str(many).splitlines()
    assert lines[-1] == "... and 28 more heads" and len(lines) < 60


def test_atom_repr_is_accepted_back():
    from fractions import Fraction

    from attnproof import Atom

    a = Atom(key=(1, Fraction(-1, 2)), value=(3,), bias=Fraction(1, 3))
    assert eval(repr(a), {"Atom": Atom}) == a


def test_dir_lists_public_names_only():
    names = dir(attnproof)
    for private in ("Any", "annotations", "importlib", "_importlib", "_EXPORTS", "_SUBMODULES"):
        assert private not in names
    for public in ("fuse", "reduced_form", "bound", "prove", "check", "search", "MultiHead",
                   "as_problem", "__version__"):
        assert public in names


def test_check_replays_as_the_command_does(run_cli):
    # attnproof.check(..., replay=True) re-proves the line refutation with z3 and cvc5, as
    # 'attnproof check --replay' does: the same verdict, and inconclusive without it
    path = "certificates/valid/k3-lines.json"
    plain = attnproof.check(path)
    assert plain.code == 2 and plain.bounds_verified
    v = attnproof.check(path, replay=True)
    rc, out, _ = run_cli("check", path, "--replay", "--json")
    assert (v.code, rc) == (0, 0)
    assert json.loads(out)["verdict"] == v.to_dict()["verdict"] and v.trust == "line-refuted"
    assert attnproof.check(path, max_work=10).code == 2      # a budget too small: inconclusive
