"""Forged certificates against the newest checker rules: ``edge_roots`` (docs/theory.md
Theorem 10.1), the ``graph_blocks`` hints of ``zonotope_graphic`` blocks, and a line
refutation's ``options`` and ``contraction_bounds`` (THEORY Lemma 13.2, ``--replay``).

Each forgery starts from a golden certificate, changes one hint, bound, root count,
block, order or option so that the claims are false or not derived, and must be
rejected (code 1) or left inconclusive (code 2), never accepted and never a crash.
Hostile values in the new fields (huge integers, deep nesting, wrong types, empty
lists, negative numbers) get a one-line answer.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest

from attnproof.checker import check_text
from attnproof.checker.rules.edges import negative_roots

CERTS = Path(__file__).resolve().parent.parent / "certificates" / "valid"
HUGE = "1" + "0" * 2100                     # past the checker's 2000 digits


def _load(name: str) -> dict:
    return json.loads((CERTS / f"{name}.json").read_text())


def _step(doc: dict, rule: str) -> dict:
    return next(s for s in doc["steps"] if s["rule"] == rule)


def _verdict(doc):
    text = doc if isinstance(doc, str) else json.dumps(doc)
    return check_text(text)


def _refused(doc, code: int | tuple = 1, says: str = ""):
    v = _verdict(doc)
    codes = code if isinstance(code, tuple) else (code,)
    assert v.code in codes, (v.code, v.message)
    assert "\n" not in v.message.strip() and says in v.message, v.message
    return v


def test_the_golden_certificates_attacked_are_valid():
    """The forgeries below differ from these in one field: the originals pass."""
    for name in ("edge-roots", "edge-roots-square", "k4", "c4"):
        assert _verdict(_load(name)).code == 0, name


# -- edge_roots ---------------------------------------------------------------------------

def _edges(name: str = "edge-roots"):
    d = _load(name)
    return d, _step(d, "edge_roots")


def test_edge_roots_more_roots_than_the_edge_polynomial_has():
    d, s = _edges("edge-roots-square")      # (1 + x)^2: two roots at -1, bound 3
    s["edges"][0]["roots"] = 3
    s["lower_bound"] = d["claims"]["lower_bound"] = d["claims"]["upper_bound"] = 4
    d["claims"]["minimum"] = 4
    _refused(d, says="has 2 negative roots, not 3")


def test_edge_roots_lower_bound_above_the_derived_one():
    d, s = _edges()
    s["lower_bound"] = d["claims"]["lower_bound"] = 7
    _refused(d, says="lower_bound is 7")


def test_edge_roots_the_same_edge_by_a_multiple_of_its_functional():
    d, s = _edges()
    s["edges"] = [{"functional": [0, -5], "roots": 2}, {"functional": [0, -1], "roots": 2}]
    s["lower_bound"] = d["claims"]["lower_bound"] = 7
    _refused(d, says="the same edge twice")


@pytest.mark.parametrize("c", [[0, 1], [1, -1], [-1, -1], [2, -1], [1, -7]])
def test_edge_roots_a_functional_that_selects_a_vertex(c):
    d, s = _edges()
    s["edges"].append({"functional": c, "roots": 2})
    s["lower_bound"] = d["claims"]["lower_bound"] = 7
    _refused(d, says="selects a vertex")


@pytest.mark.parametrize("c", [[1, 0], [-1, 0], [1, 1], [-1, 1]])
def test_edge_roots_an_edge_with_one_root_claimed_with_two(c):
    d, s = _edges()
    s["edges"].append({"functional": c, "roots": 2})
    s["lower_bound"] = d["claims"]["lower_bound"] = 7
    _refused(d, says="has 1 negative roots, not 2")


def test_edge_roots_the_whole_polygon_is_no_edge():
    d, s = _edges()
    s["edges"].append({"functional": [0, 0], "roots": 2})
    s["lower_bound"] = d["claims"]["lower_bound"] = 7
    _refused(d, says="no segment")


def test_edge_roots_before_the_vertex_count_and_twice():
    d = _load("edge-roots")
    steps = d["steps"]
    i = next(k for k, s in enumerate(steps) if s["rule"] == "edge_roots")
    twice = copy.deepcopy(d)
    twice["steps"].insert(i + 1, copy.deepcopy(steps[i]))
    _refused(twice, says="a second edge_roots step")
    steps.insert(i - 1, steps.pop(i))
    _refused(d)


@pytest.mark.parametrize("where, value, says", [
    ("roots", -1, "at least 2"), ("roots", 1, "at least 2"), ("roots", "2", "integer"),
    ("roots", True, "integer"), ("roots", None, "integer"),
    ("functional", [0, -1, 0], "list of 2"), ("functional", [0], "list of 2"),
    ("functional", [0, "-1"], "integer"), ("functional", {"a": 1}, "list of 2"),
    ("functional", [[0], [-1]], "integer"),
    ("lower_bound", -6, "at least 1"), ("lower_bound", 0, "at least 1"),
    ("lower_bound", "6", "integer"),
    ("edges", [], "non-empty list"), ("edges", {}, "non-empty list"),
    ("edges", None, "non-empty list"), ("edges", [[[]]], "JSON object"),
])
def test_edge_roots_hostile_fields(where, value, says):
    d, s = _edges()
    if where in ("roots", "functional"):
        s["edges"][0][where] = value
    else:
        s[where] = value
    _refused(d, says=says)


def test_edge_roots_huge_integers_and_deep_nesting():
    text = json.dumps(_load("edge-roots"))
    for old, new in (('"functional": [0, -1]', f'"functional": [{HUGE}, -1]'),
                     ('"roots": 2', f'"roots": {HUGE}'),
                     ('"functional": [0, -1]', '"functional": ' + "[" * 20000 + "]" * 20000)):
        assert old in text
        _refused(text.replace(old, new, 1))


def test_edge_roots_many_copies_of_one_edge_are_refused():
    d, s = _edges()
    s["edges"] = [{"functional": [0, -1], "roots": 2}] * 5000
    s["lower_bound"] = d["claims"]["lower_bound"] = 5 + 5000
    _refused(d, says="the same edge twice")


@pytest.mark.parametrize("q, want", [
    ([1, 2, 1], 2), ([1, 0, 1], 0), ([2, -3, 1], 0), ([1, 3, 3, 1], 3),
    ([6, 11, 6, 1], 3),                      # (1 + t)(2 + t)(3 + t)
    ([1, 1, 1], 0),                          # no real root
    ([-2, -1, 1], 1),                        # (t - 2)(t + 1)
    ([4, 12, 13, 6, 1], 4),                  # (t + 1)^2 (t + 2)^2
    ([1, 2, 2, 2, 1], 2),                    # (t + 1)^2 (t^2 + 1)
])
def test_negative_roots_with_multiplicity(q, want):
    """The root count that edge_roots trusts, against factored polynomials."""
    assert negative_roots(q) == want


# -- graph_blocks hints -------------------------------------------------------------------

def _k4(blocks, lower: int | None = None) -> dict:
    d = _load("k4")                         # K_4: 24 acyclic orientations, upper bound 38
    _step(d, "newton_blocks")["blocks"][0]["graph_blocks"] = blocks
    if lower is not None:
        d["claims"]["lower_bound"] = lower
    return d


K4 = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]


@pytest.mark.parametrize("blocks, lower", [
    # two triangles sharing the edge 01: 6 · 6 = 36 if the blocks were a tree
    ([{"edges": [[0, 1], [0, 2], [1, 2]]}, {"edges": [[0, 3], [1, 3], [2, 3]]}], 36),
    ([{"edges": [[0, 1], [0, 2], [1, 2]], "order": [2, 1, 0]},
      {"edges": [[0, 3], [1, 3], [2, 3]]}], 36),
    ([{"edges": [[0, 1], [0, 2], [0, 3]]}, {"edges": [[1, 2], [1, 3], [2, 3]]}], 48),
    ([{"edges": [e]} for e in K4], 64),     # every edge a block: 2^6
])
def test_graph_blocks_that_meet_in_two_nodes_overcount(blocks, lower):
    _refused(_k4(blocks, lower), says="not a tree of blocks")


def test_graph_blocks_a_cycle_split_into_two_paths():
    d = _load("c4")                         # C_4: 14; two paths would give 16
    _step(d, "newton_blocks")["blocks"][0]["graph_blocks"] = [
        {"edges": [[0, 1], [1, 2]]}, {"edges": [[2, 3], [0, 3]]}]
    d["claims"]["lower_bound"] = d["claims"]["upper_bound"] = 16
    _refused(d, says="not a tree of blocks")


@pytest.mark.parametrize("order, lower", [([0, 1, 2, 3], 16), ([1, 3, 0, 2], 12)])
def test_graph_blocks_an_order_of_a_cycle_is_no_elimination_order(order, lower):
    d = _load("c4")
    _step(d, "newton_blocks")["blocks"][0]["graph_blocks"] = [
        {"edges": [[0, 1], [0, 3], [1, 2], [2, 3]], "order": order}]
    d["claims"]["lower_bound"] = lower
    _refused(d, says="not a perfect elimination ordering")


@pytest.mark.parametrize("blocks, says", [
    ([{"edges": K4[:5]}], "in no block"),
    ([{"edges": [[0, 1], [1, 0]] + K4[1:5], "order": [3, 2, 1, 0]}], "in two blocks"),
    ([{"edges": K4 + [[2, 3]]}], "in two blocks"),
    ([{"edges": K4}] * 2, "in two blocks"),
    ([{"edges": K4, "order": [3, 2, 1]}], "each once"),
    ([{"edges": K4, "order": [3, 2, 1, 0, 0]}], "each once"),
    ([{"edges": [[0, 0]]}], "not an edge"),
    ([{"edges": [[0, 7]]}], "not a node"),
    ([{"edges": [[0, -1]]}], "not a node"),
    ([{"edges": [["0", 1]]}], "not a node"),
    ([{"edges": [[0, 1, 2]]}], "node pairs"),
    ([{"edges": []}], "node pairs"),
    ([], "in no block"),
    ({}, "list of blocks"),
    ([{"edges": K4, "order": "3210"}], "list of nodes"),
    ([{"edges": K4, "order": [[3], 2, 1, 0]}], "not a node"),
    ([{"edges": K4, "x": 1}], "unknown field"),
])
def test_graph_blocks_hostile_hints(blocks, says):
    _refused(_k4(blocks), says=says)


def test_graph_blocks_huge_node_and_deep_order():
    text = json.dumps(_k4([{"edges": K4, "order": [3, 2, 1, 0]}]))
    old = '"order": [3, 2, 1, 0]'
    assert old in text
    _refused(text.replace(old, f'"order": [{HUGE}, 2, 1, 0]'))
    _refused(text.replace(old, '"order": ' + "[" * 20000 + "]" * 20000))


def test_graph_blocks_another_valid_hint_proves_the_same_count():
    """A hint is a hint: any elimination order of K_4 gives 4! = 24, no more."""
    assert _verdict(_k4([{"edges": K4, "order": [0, 1, 2, 3]}])).code == 0
    _refused(_k4([{"edges": K4, "order": [0, 1, 2, 3]}], 25))


# -- line_refutation: options and contraction bounds ---------------------------------------

def _lines():
    d = _load("k3-lines")
    return d, _step(d, "line_refutation")


def _rehash(s: dict) -> None:
    s["smtlib_sha256"] = hashlib.sha256(s["smtlib"].encode("utf-8")).hexdigest()


def _replayed(doc: dict) -> list:
    from attnproof.checking import replay_certificate
    return replay_certificate(json.dumps(doc), 60)


def test_line_contraction_bounds_raised_with_the_query_rehashed():
    """Bounds of 4 lines per direction where Lemma 13.2 gives 3, the SMT text edited to
    match and its hash recomputed: the form passes (inconclusive until replayed), the
    replay derives the bounds again and fails before any solver runs."""
    d, s = _lines()
    assert s["contraction_bounds"] == [3, 3, 3]
    s["contraction_bounds"] = [4, 4, 4]
    text = s["smtlib"]
    s["smtlib"] = text.replace("(THEORY Lemma 13.2): 3 3 3", "(THEORY Lemma 13.2): 4 4 4") \
        .replace(" 0) 3))", " 0) 4))")
    assert s["smtlib"] != text
    _rehash(s)
    assert _verdict(d).code == 2
    ((_, ok, msg),) = _replayed(d)
    assert ok is False and "not those of the problem, [3, 3, 3]" in msg, msg


@pytest.mark.parametrize("edit", ["text", "drop-contraction", "legacy", "null-bounds"])
def test_line_options_that_do_not_match_the_query(edit):
    d, s = _lines()
    if edit == "text":                 # the query strengthened, the bounds left at 3
        s["smtlib"] = s["smtlib"].replace(" 0) 3))", " 0) 4))")
        _rehash(s)
    elif edit == "drop-contraction":   # the option dropped, the text still assumes it
        s["options"].remove("contraction")
        del s["contraction_bounds"]
    elif edit == "legacy":
        del s["options"], s["contraction_bounds"]
    else:
        s["contraction_bounds"] = [None, None, None]
    assert _verdict(d).code == 2
    ((_, ok, msg),) = _replayed(d)
    assert ok is False, msg


@pytest.mark.parametrize("field, value, says", [
    ("contraction_bounds", [-1, 3, 3], "at least 2"),
    ("contraction_bounds", [1, 3, 3], "at least 2"),
    ("contraction_bounds", [], "one entry per direction"),
    ("contraction_bounds", [3, 3, 3, 3], "one entry per direction"),
    ("contraction_bounds", {"a": 3}, "one entry per direction"),
    ("contraction_bounds", ["3", 3, 3], "integer"),
    ("contraction_bounds", [[3], 3, 3], "integer"),
    ("contraction_bounds", [True, 3, 3], "integer"),
    ("options", [], "needs the option contraction"),
    ("options", ["parity", "parity"], "distinct names"),
    ("options", ["turbo"], "distinct names"),
    ("options", [1], "distinct names"),
    ("options", "parity", "distinct names"),
    ("options", None, "distinct names"),
    ("options", [["parity"]], "distinct names"),
])
def test_line_hostile_options(field, value, says):
    d, s = _lines()
    s[field] = value
    _refused(d, says=says)


def test_line_huge_contraction_bound_is_never_proof():
    d, s = _lines()
    s["contraction_bounds"] = [10 ** 1900, 3, 3]
    assert _verdict(d).code == 2
    ((_, ok, msg),) = _replayed(d)
    assert ok is False, msg
    text = json.dumps(_lines()[0]).replace('"contraction_bounds": [3, 3, 3]',
                                           f'"contraction_bounds": [{HUGE}, 3, 3]')
    _refused(text)


def _long_edge_certificate(degree: int, digits: int, roots: int) -> str:
    """One head ``Σ_k w_k x^k + y`` (irreducible: linear in ``y``), its triangle's three
    vertices, and an edge_roots step on the bottom edge, whose polynomial ``Σ w_k t^k``
    has ``degree`` and coefficients of ``digits`` digits."""
    import random
    from attnproof.checker.syntax import canonical_text

    rnd = random.Random(3)
    w = [rnd.randint(10 ** (digits - 1), 10 ** digits) for _ in range(degree + 1)]
    atoms = ([{"key": [k, 0], "value": k % 2, "weight": w[k]} for k in range(degree + 1)]
             + [{"key": [0, 1], "value": 0}])
    prob = {"dim": 2, "format": "attnproof-problem", "heads": [{"atoms": atoms, "name": "h"}],
            "version": 1}
    poly = sorted([[w[k], [[0, k]] if k else []] for k in range(degree + 1)] + [[1, [[1, 1]]]],
                  key=lambda t: t[1])
    doc = {"format": "attnproof-certificate", "version": 1, "problem": prob,
           "problem_sha256": hashlib.sha256(canonical_text(prob).encode("ascii")).hexdigest(),
           "claims": {"lower_bound": 3 + roots - 1, "minimum": None, "upper_bound": degree + 2,
                      "window_refutations": []},
           "steps": [{"rule": "irreducible_factor", "poly": poly, "residue_component": 0,
                      "witness": {"kind": "linear", "var": 1}, "heads": [[0, 1]]},
                     {"rule": "newton_blocks", "blocks": [{"factors": [0], "method": "vertices",
                      "vertices": [[[0, 0], [-1, -1]], [[0, 1], [-1, 1]],
                                   [[degree, 0], [1, 0]]]}]},
                     {"rule": "edge_roots", "lower_bound": 3 + roots - 1,
                      "edges": [{"functional": [0, -1], "roots": roots}]},
                     {"rule": "explicit_fusion", "head": {"atoms": atoms}}],
           "trust": "exact"}
    return json.dumps(doc)


def test_edge_roots_a_false_count_on_a_long_edge():
    """Positive weights of degree 10: the bottom edge has no negative root claimed 2."""
    _refused(_long_edge_certificate(10, 3, 2), says="has 0 negative roots, not 2")


def test_edge_roots_a_long_edge_spends_the_budget_not_the_clock():
    """A face polynomial of degree 250 with 40-digit coefficients: its Sturm sequence
    outgrows the default work budget of a 56 kB file, inconclusive (never a hang)."""
    _refused(_long_edge_certificate(250, 40, 2), code=2, says="a Sturm remainder")


def test_edge_roots_after_heads_only_indecomposable():
    """geom-indecomposable's heads stand for Q in its vertex count without dividing it:
    no edge of theirs may raise the bound."""
    d = _load("geom-indecomposable")
    i = next(k for k, s in enumerate(d["steps"]) if s["rule"] == "minkowski_vertices")
    d["steps"].insert(i + 1, {"rule": "edge_roots", "lower_bound": 10,
                              "edges": [{"functional": [1, 0, 0], "roots": 2}]})
    d["claims"]["lower_bound"] = 10
    _refused(d, says="edge roots need divisors")


# -- the heads hint of irreducible_factor (docs/certificates.md §6.1) ------------------------

def _shared_heads(heads) -> dict:
    """``shared`` (one factor dividing heads 0 and 1 once and head 2 twice) with its hint
    replaced by ``heads``."""
    doc = _load("shared")
    _step(doc, "irreducible_factor")["heads"] = heads
    return doc


def test_the_heads_hint_attacked_is_valid():
    assert _verdict(_load("shared")).code == 0
    assert _step(_load("shared"), "irreducible_factor")["heads"] == [[0, 1], [1, 1], [2, 2]]


@pytest.mark.parametrize("heads", [
    [[0, 1], [1, 1], [2, 1]],          # head 2 holds the factor twice, claimed once
    [[0, 1], [1, 1], [2, 3]],          # ... claimed three times
    [[0, 2], [1, 1], [2, 2]],          # head 0 holds it once, claimed twice
    [[0, 1], [1, 2], [2, 2]],
])
def test_heads_hint_with_a_wrong_exponent(heads):
    _refused(_shared_heads(heads), 1, "times, not")


@pytest.mark.parametrize("heads", [
    [[0, 1], [1, 1]],                  # head 2 left out: the factor divides it
    [[1, 1], [2, 2]],                  # head 0 left out
    [[2, 2]],
])
def test_heads_hint_that_leaves_out_a_head_the_factor_divides(heads):
    _refused(_shared_heads(heads), 1, "heads")


def test_heads_hint_with_a_head_the_factor_does_not_divide():
    doc = _load("w3")
    step = next(s for s in doc["steps"] if s["rule"] == "irreducible_factor")
    step["heads"] = [[0, 1], [1, 1]]    # the first factor divides head 0 only
    _refused(doc, 1, "head 1")


@pytest.mark.parametrize("heads", [
    [[0, 1], [0, 1], [1, 1], [2, 2]],  # a duplicate head
    [[1, 1], [0, 1], [2, 2]],          # not increasing
    [[0, 1], [1, 1], [2, 2], [3, 1]],  # a head that does not exist
    [[0, 1], [1, 1], [2, 2], [10 ** 30, 1]],
])
def test_heads_hint_with_duplicate_unordered_or_missing_heads(heads):
    _refused(_shared_heads(heads), 1, "strictly increasing")


@pytest.mark.parametrize("exponent", [0, -1, -(10 ** 30), True, False, None, "2", [2], {"a": 2}])
def test_heads_hint_with_an_exponent_that_is_no_positive_integer(exponent):
    _refused(_shared_heads([[0, 1], [1, 1], [2, exponent]]), 1, "exponent")


@pytest.mark.parametrize("heads", [
    None, 3, "heads", {}, [], [[]], [[0]], [[0, 1, 1]], [0, 1], [[[0], 1]],
    [["0", 1], [1, 1], [2, 2]], [[True, 1], [1, 1], [2, 2]], [[-1, 1], [1, 1], [2, 2]],
    [[0, 1], [1, 1], [2, 2]] * 1000,
])
def test_heads_hint_malformed(heads):
    _refused(_shared_heads(heads), 1, "heads")


def test_heads_hint_with_a_long_exponent_gets_a_short_answer():
    """An exponent of 1,900 digits is refused in a line that does not print it."""
    v = _refused(_shared_heads([[0, 1], [1, 1], [2, 10 ** 1900]]), 1, "head 2")
    assert len(v.message) < 300, len(v.message)
    v = _refused(_shared_heads([[0, 1], [1, 1], [2, 10 ** 2100]]), 1)
    assert len(v.message) < 300, len(v.message)


def test_heads_hint_nested_deeply_is_one_line():
    deep = "[" * 50_000 + "0, 1" + "]" * 50_000
    text = json.dumps(_shared_heads([[0, 1], [1, 1]])).replace("[[0, 1], [1, 1]]", deep, 1)
    v = _verdict(text)
    assert v.code in (1, 2) and "\n" not in v.message.strip(), v.message
