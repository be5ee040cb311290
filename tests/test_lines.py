"""Line refutations (THEORY Lemma 12.1, Cor 12.2): soundness on held-out problems, the
encoding's lattice and options, completion, certificates, replay and the command line."""

from __future__ import annotations

import json
from fractions import Fraction

import networkx as nx
import pytest

from attnproof.families import graph_sum, named_graph, sigmoid_sum
from attnproof.fusion import fuse, reduced_form
from attnproof.smt.line_query import complete_support, line_query
from attnproof.smt.lines import (LINE_OPTIONS, encode_lines, facet_functionals, line_factors,
                                 line_frame, zonotope_vertices)


def _graph(edges) -> object:
    G = nx.Graph()
    G.add_edges_from(edges)
    return graph_sum(G)


# held out: none of these is used to tune the encoding (K_3 and C_4 are).  Soundness is the
# property under test: a k for which a fusion exists must never be refuted (unsat).
HELD_OUT = {
    "path2": (graph_sum(named_graph("path", 2)), True),
    "star4": (graph_sum(named_graph("star", 4)), False),
    "W_1": (sigmoid_sum(1), True),
    "W_3": (sigmoid_sum(3), False),
    "two edges": (_graph([(0, 1), (2, 3)]), True),
}
HELD_OUT_SLOW = {
    "path4": (graph_sum(named_graph("path", 4)), True),
    "paw": (_graph([(0, 1), (1, 2), (2, 0), (2, 3)]), True),
    "diamond": (_graph([(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)]), False),
    "star5": (graph_sum(named_graph("star", 5)), False),
    "W_4": (sigmoid_sum(4), True),
}


def _never_refutes_a_fusion(M, multiple: bool, timeout: float = 60) -> None:
    """No k for which a fusion exists is refuted: k = the reduced fusion's size and, with
    ``multiple``, k = |supp(Q·G)| for a positive two-term G (a fusion's denominator: a
    sat support need not be found in time, but unsat would be a wrong refutation)."""
    r = reduced_form(M)
    k = fuse(M).atoms
    res = line_query(M, k, timeout=timeout, complete=False)
    assert res.result != "unsat", k
    if res.result == "sat":
        assert len(res.support) <= k
    if not multiple:
        return
    from attnproof.algebra.expfrac import poly_to_dict
    g = line_factors(r).directions[0]
    shift = tuple(2 * a + (1 if i == 0 else 0) for i, a in enumerate(g))
    Q = poly_to_dict(r.Q)
    D = set(Q) | {tuple(a + b for a, b in zip(e, shift)) for e in Q}
    assert line_query(M, len(D), timeout=timeout, complete=False).result != "unsat", len(D)


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_no_fusion_size_is_refuted(name):
    _never_refutes_a_fusion(*HELD_OUT[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HELD_OUT_SLOW))
def test_no_fusion_size_is_refuted_slow(name):
    _never_refutes_a_fusion(*HELD_OUT_SLOW[name], timeout=300)


@pytest.mark.parametrize("M, k", [(sigmoid_sum(2), 3), (graph_sum(named_graph("path", 3)), 3)])
def test_below_the_newton_bound_is_refuted(M, k):
    # a line-valid support is the support of a multiple of R (Lemma 12.1), so Theorem 3
    # applies to it: below the vertex count the query must be unsat
    assert line_query(M, k, timeout=120).result == "unsat"


@pytest.mark.parametrize("options", [("order",), LINE_OPTIONS])
def test_every_option_set_decides_k3(options):
    M = graph_sum(named_graph("complete", 3))
    assert line_query(M, 6, timeout=120, options=options).result == "unsat"
    assert line_query(M, 7, timeout=120, options=options, complete=False).result == "sat"


def test_frame_is_the_lattice_of_the_directions():
    f = line_frame([(1, 1, 0), (0, 1, 1)])
    assert f.rank == 2
    for gm, U in zip(f.gammas, f.unimodular):
        image = [sum(a * b for a, b in zip(row, gm)) for row in U]
        assert image == [1] + [0] * (f.rank - 1)
    # the frame is that of the lattice the directions span: (2, 0) is primitive there
    assert line_frame([(2, 0)]).gammas == ((1,),)


def test_zonotope_counts_match_the_graph_counts():
    # acyclic orientations (THEORY Lemma 7): K_4 24, C_5 30
    for graph, n, want in (("complete", 4, 24), ("cycle", 5, 30)):
        f = line_frame(line_factors(reduced_form(graph_sum(named_graph(graph, n)))).directions)
        assert zonotope_vertices(f.gammas) == want
    f = line_frame(line_factors(reduced_form(graph_sum(named_graph("complete", 4)))).directions)
    assert len(facet_functionals(f.gammas)) == 7        # 2^4 - 2 cuts, up to sign


def test_factors_with_other_coefficients_get_weights_of_their_own():
    from attnproof.heads import Atom, Head, MultiHead
    # sigma(q) + sigma(q + log 2) by weight: Q = (1 + x)(1 + 2x), one direction twice
    h1 = Head((Atom((1,), (1,)), Atom((0,), (0,))))
    h2 = Head((Atom((1,), (1,), weight=Fraction(2)), Atom((0,), (0,))))
    lf = line_factors(reduced_form(MultiHead((h1, h2))))
    assert lf.directions == ((1,), (1,)) and not lf.exact
    assert [f.coefficient for f in lf.factors] == [1, 2]
    enc = encode_lines(lf.factors, 2)
    assert "(declare-fun e_1_0 () Real)" in enc.smtlib and "e_0_0" not in enc.smtlib
    # two roots on every line (Descartes): at least 3 points, so k = 2 is refuted
    assert line_query(MultiHead((h1, h2)), 2, 60).result == "unsat"


def test_a_sat_support_is_completed_and_verified():
    M = graph_sum(named_graph("complete", 3))
    res = line_query(M, 7, timeout=120)
    assert res.result == "sat" and res.fusion is not None and res.fusion.atoms == 7
    r = reduced_form(M)
    # a support with too few points carries no fusion
    assert complete_support(M, r, line_factors(r), res.support[:3], 60) is None


def test_replay_ties_the_text_to_the_problem():
    from attnproof.certificate.steps.windows import line_refutation_step
    from attnproof.smt.certify import line_refutation
    from attnproof.smt.replay import line_options_of, replay_step
    M = graph_sum(named_graph("complete", 3))
    step = line_refutation_step(line_refutation(line_query(M, 6, 60)), "0" * 64)
    assert line_options_of(step, M) == LINE_OPTIONS
    ok, why = replay_step(step, 60, problem=sigmoid_sum(3))
    assert not ok and "not the line query" in why
    ok, why = replay_step(step, 60, problem=M)
    assert ok, why


def test_checker_refuses_a_line_step_on_a_biased_problem():
    from attnproof.checker import check_document
    doc = json.loads(open("certificates/valid/k3-lines.json").read())
    doc["problem"]["heads"][0]["atoms"][0]["bias"] = 1
    import hashlib
    from attnproof.checker.syntax import canonical_text
    doc["problem_sha256"] = hashlib.sha256(canonical_text(doc["problem"]).encode()).hexdigest()
    v = check_document(doc)
    assert v.status == "invalid"


def test_prove_lines_and_replay(tmp_path, capsys):
    from attnproof.cli import main
    p = tmp_path / "k3.json"
    assert main(["family", "graph", "--graph", "complete", "--n", "3", "-o", str(p)]) == 0
    capsys.readouterr()                        # "... written to k3.json"
    cert = tmp_path / "k3.cert.json"
    assert main(["prove", str(p), "-o", str(cert), "--lines", "--json", "--no-minors"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["lower_bound"], out["minimum"], out["trust"]) == (7, 7, "line-refuted")
    assert main(["check", str(cert)]) == 2
    assert main(["check", str(cert), "--replay"]) == 0
    capsys.readouterr()
    assert main(["search", str(p), "--global", "--atoms", "6"]) == 1
    assert main(["search", str(p), "--global", "--atoms", "6", "--window", "1"]) == 3
    assert main(["search", str(p), "--atoms", "6"]) == 1     # the default window, radius 1


def test_slots_may_repeat_a_point():
    # "at most k": a valid set of 2 points is found with k = 3 slots (a point repeats,
    # the weights add), with and without the order
    from attnproof.heads import Atom, Head, MultiHead
    M = MultiHead((Head((Atom((1,), (1,)), Atom((0,), (0,)))),))
    for opts in ((), ("order",), LINE_OPTIONS):
        res = line_query(M, 3, 60, options=opts, complete=False)
        assert res.result == "sat" and len(res.support) == 2


def test_plain_prove_asks_the_line_query_and_no_lines_turns_it_off(tmp_path, capsys):
    from attnproof.certificate import build_certificate
    from attnproof.cli import main
    p = tmp_path / "k3.json"
    assert main(["family", "graph", "--graph", "complete", "--n", "3", "-o", str(p)]) == 0
    capsys.readouterr()
    cert = tmp_path / "k3.cert.json"
    assert main(["prove", str(p), "-o", str(cert), "--json", "--no-minors"]) == 0  # no --lines
    out = json.loads(capsys.readouterr().out)
    assert (out["lower_bound"], out["minimum"], out["trust"]) == (7, 7, "line-refuted")
    assert [q["answer"] for q in out["lines"]["queries"]] == ["unsat"]
    assert main(["check", str(cert)]) == 2                  # inconclusive until replayed
    capsys.readouterr()
    assert main(["prove", str(p), "-o", str(cert), "--json", "--no-lines", "--no-minors"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["lower_bound"], out["upper_bound"], out["trust"]) == (6, 7, "exact")
    assert "lines" not in out
    M = graph_sum(named_graph("complete", 3))
    assert cert.read_text() == build_certificate(M).text            # the exact steps, unchanged
    with pytest.raises(SystemExit) as stop:                         # one or the other
        main(["prove", str(p), "--lines", "--no-lines"])
    assert stop.value.code == 3
    assert main(["prove", str(p), "--lines-timeout", "0"]) == 3


def _no_solver(monkeypatch):
    """Make every solver run an error: the code under test must not start one."""
    import attnproof.smt.solvers as solvers

    def refuse(*a, **k):
        raise AssertionError("a solver was started")
    monkeypatch.setattr(solvers, "run_solvers", refuse)
    monkeypatch.setattr("attnproof.smt.line_query.run_solvers", refuse)


def test_prove_asks_no_solver_when_the_query_does_not_apply(tmp_path, capsys, monkeypatch):
    from attnproof.cli import main
    from attnproof.io import dump_problem
    from attnproof.heads import Atom, Head, MultiHead
    _no_solver(monkeypatch)
    w = tmp_path / "w2.json"
    dump_problem(sigmoid_sum(2), w)                 # no gap: the exact steps close it
    assert main(["prove", str(w), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["minimum"] == 4 and "lines" not in out
    # a gap, and no factor 1 + x^g: two heads with trinomial denominators
    h1 = Head((Atom((0, 0), (0,)), Atom((1, 0), (1,)), Atom((0, 1), (2,))))
    h2 = Head((Atom((0, 0), (0,)), Atom((2, 1), (1,)), Atom((1, 2), (3,))))
    g = tmp_path / "g.json"
    dump_problem(MultiHead((h1, h2)), g)
    assert main(["prove", str(g), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["minimum"] is None and out["trust"] == "exact" and "lines" not in out
    assert any(n.startswith("line query not asked: ") and "1 + c·x^g" in n for n in out["notes"])
    assert main(["prove", str(g), "--lines"]) == 3           # asked for, and impossible
    assert "(--lines) but does not apply" in capsys.readouterr().err
    # K_5: a gap (Newton 120, graph minors 140, fusion 291), but past the size of the
    # default query
    k5 = tmp_path / "k5.json"
    dump_problem(graph_sum(named_graph("complete", 5)), k5)
    assert main(["prove", str(k5), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lower_bound"] == 140 and "lines" not in out
    assert any("exceeds 64 points" in n for n in out["notes"])


# ---- extensions: coefficients c != 1, multiplicities, non-primitive directions, Newton factors

def _sig(key, w=1):
    from attnproof.heads import Atom, Head
    return Head((Atom(key, (1,), weight=Fraction(w)), Atom(tuple(0 for _ in key), (0,))))


@pytest.fixture(autouse=True)
def _no_edge_roots(monkeypatch):
    """The edge roots (docs/theory.md §10) close several of these problems without a line
    ((1 + x)^2, parallel binomials); they are left out so that the line step is exercised."""
    monkeypatch.setattr("attnproof.certificate.build._raise_by_edges", lambda *a: None)


def _square():
    """x^2 / (1 + x)^2 as one head (keys 0, 1, 2 with weights 1, 2, 1): Q = (1 + x)^2."""
    from attnproof.heads import Atom, Head
    return Head((Atom((0, 0), (0,)), Atom((1, 0), (0,), weight=Fraction(2)), Atom((2, 0), (1,))))


def _triangle():
    from attnproof.heads import Atom, Head
    return Head((Atom((0, 0), (0,)), Atom((1, 0), (1,)), Atom((0, 1), (2,))))


def _extended():
    from attnproof.heads import MultiHead
    return {
        "sigma(q) + sigma(2q)": (MultiHead((_sig((1,)), _sig((2,)))), True),
        "sigma(q) + 2-weighted sigma(q)": (MultiHead((_sig((1,)), _sig((1,), 2))), True),
        "3-weighted sigma(x) + sigma(y) + sigma(x+y)": (
            MultiHead((_sig((1, 0), 3), _sig((0, 1)), _sig((1, 1)))), True),
        "(1 + x)^2 + sigma(y)": (MultiHead((_square(), _sig((0, 1)))), True),
        "trinomial + sigma(x) + sigma(y)": (MultiHead((_triangle(), _sig((1, 0)), _sig((0, 1)))), False),
    }


# z3 needs about 40 s to answer sat at |supp(Q·G)| = 12 for the 3-weighted sum: the fast
# suite asks it at the fusion's size only, the slow suite at both sizes
EXTENDED_SLOW = {"3-weighted sigma(x) + sigma(y) + sigma(x+y)"}


@pytest.mark.parametrize("name", sorted(_extended()))
def test_extended_factors_never_refute_a_fusion(name):
    M, multiple = _extended()[name]
    lf = line_factors(reduced_form(M))
    from attnproof.smt.lines import primitive_direction
    # every one of them uses an extension: c != 1, m > 1, a Newton factor or a non-primitive g
    assert not lf.exact or any(primitive_direction(g) is None for g in lf.directions)
    _never_refutes_a_fusion(M, multiple and name not in EXTENDED_SLOW)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXTENDED_SLOW))
def test_extended_factors_never_refute_a_fusion_slow(name):
    _never_refutes_a_fusion(*_extended()[name], timeout=300)


def test_extended_factor_kinds_are_read_off_q():
    from attnproof.heads import MultiHead
    lf = line_factors(reduced_form(MultiHead((_sig((1,)), _sig((2,))))))
    assert lf.directions == ((1,), (2,))                  # 1 + x^2: lines s + 2Z
    assert line_frame(lf.directions).contents == (1, 2)
    lf = line_factors(reduced_form(MultiHead((_square(), _sig((0, 1))))))
    assert {f.direction: f.multiplicity for f in lf.factors} == {(0, 1): 1, (1, 0): 2}
    lf = line_factors(reduced_form(MultiHead((_triangle(), _sig((1, 0)), _sig((0, 1))))))
    assert len(lf.others) == 1 and lf.others[0].support == ((0, 0), (0, 1), (1, 0))


def test_multiplicity_and_newton_factors_strengthen_the_query():
    from attnproof.heads import MultiHead
    # (1 + x)^2: every line needs three points, so two points are refuted (the Newton
    # bound is 2) and the head itself, three atoms, is the minimum
    M = MultiHead((_square(),))
    assert line_query(M, 2, 60).result == "unsat"
    assert line_query(M, 3, 60).result == "sat"
    # the trinomial's width along (1, -1) joins that of the binomials
    lf = line_factors(reduced_form(MultiHead((_triangle(), _sig((1, 0)), _sig((0, 1))))))
    with_newton = encode_lines(lf.factors, 5, LINE_OPTIONS, lf.others).smtlib
    without = encode_lines(lf.factors, 5, LINE_OPTIONS).smtlib
    assert "(assert (>= (- hi_0 lo_0) 2))" in with_newton and "(>= (- hi_0 lo_0) 1)" in without


def _extended_certificate(M):
    from attnproof.smt import line_certificate
    from attnproof.smt.line_query import line_minimize
    mr = line_minimize(M, timeout=60)
    assert mr.refutation is not None
    return line_certificate(M, mr.best, mr.refutation).doc


def _rechecked(doc):
    import hashlib
    from attnproof.checker import check_document
    step = [s for s in doc["steps"] if s["rule"] == "line_refutation"][0]
    step["smtlib_sha256"] = hashlib.sha256(step["smtlib"].encode()).hexdigest()
    return check_document(doc)


def test_checker_verifies_coefficients_and_multiplicities_and_refuses_forgeries():
    from attnproof.heads import MultiHead
    doc = _extended_certificate(MultiHead((_sig((1, 0), 3), _sig((0, 1)), _sig((1, 1)))))
    step = [s for s in doc["steps"] if s["rule"] == "line_refutation"][0]
    assert step["coefficients"] == [1, 3, 1] and "multiplicities" not in step
    assert _rechecked(json.loads(json.dumps(doc))).code == 2       # fine, waits for --replay

    def forged(edit):
        d = json.loads(json.dumps(doc))
        edit([s for s in d["steps"] if s["rule"] == "line_refutation"][0])
        return _rechecked(d)

    v = forged(lambda s: s.update(coefficients=[1, 2, 1]))          # a wrong c
    assert v.code == 1 and "coefficient 2 is not that of a bound factor" in v.message
    v = forged(lambda s: s.update(coefficients=[1, "1/3", 1]))      # c turned around
    assert v.code == 1
    v = forged(lambda s: s.update(coefficients=[1, 3]))
    assert v.code == 1 and "one entry per direction" in v.message
    v = forged(lambda s: s.update(directions=[[0, 1], [1, 0], [1, 2]]))   # a non-factor
    assert v.code == 1 and "not that of a bound factor" in v.message
    v = forged(lambda s: s.update(multiplicities=[1, 2, 1]))        # a wrong multiplicity
    assert v.code == 1 and "1 times, not 2" in v.message
    v = forged(lambda s: s.update(coefficients=[1, 3, 0]))
    assert v.code == 1 and "positive" in v.message
    v = forged(lambda s: s.update(newton_factors=[[0, 1]]))         # a binomial as Newton factor
    assert v.code == 1 and "newton_factors" in v.message

    sq = _extended_certificate(MultiHead((_square(), _sig((0, 1)))))
    step = [s for s in sq["steps"] if s["rule"] == "line_refutation"][0]
    assert step["multiplicities"] == [1, 2]
    assert _rechecked(json.loads(json.dumps(sq))).code == 2
    step["multiplicities"] = [1, 3]
    v = _rechecked(sq)
    assert v.code == 1 and "2 times, not 3" in v.message


def test_newton_factors_are_bound_and_replayed():
    from attnproof.heads import MultiHead
    from attnproof.certificate.steps.windows import line_refutation_step
    from attnproof.smt.certify import line_refutation
    from attnproof.smt.replay import replay_step
    M = MultiHead((_triangle(), _sig((1, 0)), _sig((0, 1))))
    res = line_query(M, 3, 60)
    assert res.result == "unsat"
    from attnproof.smt import line_certificate
    doc = line_certificate(M, None, res).doc
    step = [s for s in doc["steps"] if s["rule"] == "line_refutation"][0]
    assert len(step["newton_factors"]) == 1
    assert _rechecked(json.loads(json.dumps(doc))).code == 2
    ok, why = replay_step(step, 60, problem=M)
    assert ok, why
    d = json.loads(json.dumps(doc))
    [s for s in d["steps"] if s["rule"] == "line_refutation"][0]["newton_factors"] = [[0, 2]]
    assert _rechecked(d).code == 1                                  # more than it divides Q
    assert not replay_step(dict(step, newton_factors=[]), 60, problem=M)[0]
    from attnproof.errors import CertificateError
    with pytest.raises(CertificateError, match="bound factors"):
        line_refutation_step(line_refutation(res), "0" * 64)         # the index needs the factors


def test_replay_refuses_a_stated_c_or_m_the_problem_does_not_have():
    from attnproof.heads import MultiHead
    from attnproof.certificate.steps.windows import line_refutation_step
    from attnproof.smt.certify import line_refutation
    from attnproof.smt.replay import line_options_of
    M = MultiHead((_square(), _sig((0, 1))))
    step = line_refutation_step(line_refutation(line_query(M, 5, 60)), "0" * 64)
    assert line_options_of(step, M) == LINE_OPTIONS
    assert line_options_of(dict(step, multiplicities=[1, 3]), M) is None
    assert line_options_of(dict(step, coefficients=[1, 2]), M) is None


def test_prove_keeps_the_exact_certificate_when_the_line_query_cannot_be_asked(tmp_path, capsys,
                                                                             monkeypatch):
    import attnproof.smt
    from attnproof.certificate import build_certificate
    from attnproof.cli import main
    from attnproof.errors import InputError
    from attnproof.io import dump_problem

    def refuse(*a, **k):
        raise InputError("line refutations: the reduced denominator cannot be factored (test)")
    monkeypatch.setattr(attnproof.smt.line_query, "line_minimize", refuse)
    p, cert = tmp_path / "k3.json", tmp_path / "k3.cert.json"
    M = graph_sum(named_graph("complete", 3))
    dump_problem(M, p)
    assert main(["prove", str(p), "-o", str(cert), "--json", "--no-minors"]) == 0  # by default: a note
    out = json.loads(capsys.readouterr().out)
    assert (out["lower_bound"], out["trust"]) == (6, "exact")
    assert any("cannot be factored (test)" in n for n in out["notes"])
    assert cert.read_text() == build_certificate(M).text
    assert main(["prove", str(p), "--lines", "--no-minors"]) == 3         # asked for: an error


def test_the_python_prove_asks_the_line_query_as_the_command_does(tmp_path, capsys):
    """attnproof.prove: K_3's minimum 7 by a line refutation, the command's certificate byte
    for byte; lines=False keeps the exact steps; lines=True where it cannot apply is an
    input error."""
    from attnproof import prove
    from attnproof.cli import main
    from attnproof.errors import InputError
    from attnproof.io import dump_problem
    from attnproof.heads import Atom, Head, MultiHead

    M = graph_sum(named_graph("complete", 3))
    cert = prove(M, minors=False)      # the minors alone prove 7 (exact)
    assert (cert.lower_bound, cert.upper_bound, cert.minimum, cert.trust) == (7, 7, 7,
                                                                              "line-refuted")
    p, out = tmp_path / "k3.json", tmp_path / "k3.cert.json"
    dump_problem(M, p)
    assert main(["prove", str(p), "-o", str(out), "--no-minors"]) == 0
    assert out.read_text() == cert.text
    exact = prove(M, lines=False, minors=False)
    assert (exact.lower_bound, exact.trust) == (6, "exact")
    h1 = Head((Atom((0, 0), (0,)), Atom((1, 0), (1,)), Atom((0, 1), (2,))))
    h2 = Head((Atom((0, 0), (0,)), Atom((2, 1), (1,)), Atom((1, 2), (3,))))
    with pytest.raises(InputError, match="does not apply"):
        prove(MultiHead((h1, h2)), lines=True)
    assert prove(MultiHead((h1, h2))).trust == "exact"
