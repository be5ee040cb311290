"""Regenerate the golden certificates and their index (run from the repository root).

    python certificates/generate.py

valid/*.json are produced by attnproof's prover; every invalid/*.json is a
valid certificate with exactly one rule broken (named in index.json with the
exit code that ``attnproof check`` must return, and any extra arguments).
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from fractions import Fraction
from pathlib import Path

from attnproof.certificate import build_certificate
from attnproof.certificate.geometry_steps import geometry_certificate
from attnproof.families import biased_sigmoid_sum, graph_sum, named_graph, sigmoid_sum
from attnproof.io import canonical_json
from attnproof.heads import Atom, Head, MultiHead

HERE = Path(__file__).resolve().parent


def _cancel() -> MultiHead:
    s = Head((Atom((1,), (1,)), Atom((0,), (0,))), name="sigma")
    t = Head((Atom((1,), (0,)), Atom((0,), (1,))), name="one-minus-sigma")
    return MultiHead((s, t))


def _flint() -> MultiHead:
    # sigma(3q) + sigma(q)/3: the factor 1 - x + x^2 of 1 + x^3 has no C1 witness
    a = Head((Atom((3,), (1,)), Atom((0,), (0,))), name="sigma3")
    b = Head((Atom((1,), (Fraction(1, 3),)), Atom((0,), (0,))), name="sigma-third")
    return MultiHead((a, b))


def _decimal() -> MultiHead:
    F = Fraction
    h1 = Head((Atom((F(3, 10), F(7, 10)), (1,)), Atom((F(11, 10), F(-1, 5)), (2,)),
               Atom((0, 0), (0,))), name="g1")
    h2 = Head((Atom((F(1, 2), F(1, 5)), (1,)), Atom((F(-13, 10), F(9, 10)), (F(1, 3),)),
               Atom((0, 0), (0,))), name="g2")
    return MultiHead((h1, h2))


def _zonotope_2d() -> MultiHead:
    # sigma(q1) + sigma(q2) + sigma(q1 + 2 q2) + sigma(2 q1 - q2): 4 generators in general position
    def sig(k, name):
        return Head((Atom(k, (1,)), Atom((0, 0), (0,))), name=name)
    return MultiHead((sig((1, 0), "a"), sig((0, 1), "b"), sig((1, 2), "c"), sig((2, -1), "d")))


def _long_exponent() -> MultiHead:
    # sigma(12345678 q) + sigma(6 q): both are divisible by 1 + x^2, no factor certified;
    # the sum is not constant
    a = Head((Atom((12345678,), (1,)), Atom((0,), (0,))), name="sigma12345678")
    b = Head((Atom((6,), (1,)), Atom((0,), (0,))), name="sigma6")
    return MultiHead((a, b))


def _capelli() -> MultiHead:
    # sigma(12345678 q1) + sigma(3 q1) + sigma(q2): factors 1 + x1^2 (Capelli), 1 + x1, 1 + x2
    a = Head((Atom((12345678, 0), (1,)), Atom((0, 0), (0,))), name="sigma12345678")
    b = Head((Atom((3, 0), (1,)), Atom((0, 0), (0,))), name="sigma3")
    c = Head((Atom((0, 1), (1,)), Atom((0, 0), (0,))), name="sigma-q2")
    return MultiHead((a, b, c))


def _sub_sum() -> MultiHead:
    # a triangle and two segments in R^3: 4 difference dimensions, not a direct sum;
    # the triangle and the first segment are (6 vertices)
    return _points_problem([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 0, 0), (1, 1, 1)],
                           [(0, 0, 0), (0, 1, 1)])


def _points_problem(*point_lists) -> MultiHead:
    return MultiHead(tuple(Head(tuple(Atom(k, (i,)) for i, k in enumerate(pts)), name=f"h{h}")
                           for h, pts in enumerate(point_lists)))


def _geom_triangles() -> MultiHead:
    # two triangles in R^3 with 2-digit decimal keys: 8 of the 9 sums are vertices (THEORY 9.4)
    F = Fraction
    return _points_problem(
        [(F(3, 5), F(-17, 50), F(9, 10)), (F(-2, 25), F(77, 100), F(9, 10)),
         (F(67, 100), F(9, 25), F(-23, 25))],
        [(F(1, 5), F(99, 100), F(-9, 25)), (F(67, 100), F(-43, 50), F(-59, 100)),
         (F(-71, 100), F(-1, 25), F(21, 100))])


def _geom_direct() -> MultiHead:
    # two heads in independent subspaces of R^4 (THEORY 9.5): minimum 3 * 3
    F = Fraction
    return _points_problem(
        [(F(1, 3), F(2, 7), 0, 0), (F(-1, 2), F(1, 5), 0, 0), (0, F(-3, 4), 0, 0)],
        [(0, 0, F(1, 9), F(2, 3)), (0, 0, F(-5, 6), F(1, 11)), (0, 0, 0, 0)])


def _geom_chain() -> MultiHead:
    # the octahedron: indecomposable by a chain of triangular faces (THEORY 9.1)
    return _points_problem([(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)])


def _geom_indecomposable() -> MultiHead:
    # a unit simplex and twice another simplex: the second head's edge content is 2 (only
    # indecomposable), the two are not homothetic (widths along e_0, e_1 and e_0 + e_1)
    return _points_problem([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],
                           [(0, 0, 0), (2, 0, 0), (0, 2, 0), (2, 2, 2)])


def _window_k3() -> dict | None:
    try:
        from attnproof.smt.certify import search_certificate
        from attnproof.smt.query import search_fusion
    except ImportError:
        return None
    M = graph_sum(named_graph("complete", 3))
    res = search_fusion(M, 6, 1, timeout=120)
    if res.result != "unsat":
        return None
    return search_certificate(M, refutations=[res]).doc


def _lines_k3() -> dict | None:
    try:
        from attnproof.smt.certify import line_certificate
        from attnproof.smt.line_query import line_query
    except ImportError:
        return None
    M = graph_sum(named_graph("complete", 3))
    res = line_query(M, 6, timeout=120)
    if res.result != "unsat":
        return None
    return line_certificate(M, None, res).doc


def _constant_head_forgery() -> dict:
    # two associate heads summing to 1: a unit test that drops variable indices sees
    # x_0 and x_1 as one point, so head 0 looks constant and head 1 a factor of Q
    prob = {"dim": 2, "format": "attnproof-problem", "version": 1, "heads": [
        {"atoms": [{"key": [0, 1], "value": 1}, {"key": [1, 0], "value": 0}]},
        {"atoms": [{"key": [2, 0], "value": 1}, {"key": [1, 1], "value": 0}]}]}
    return _rehash({
        "format": "attnproof-certificate", "version": 1, "problem": prob,
        "claims": {"lower_bound": 2, "upper_bound": 2, "minimum": 2, "window_refutations": []},
        "steps": [
            {"rule": "indecomposable_chain", "head": 1, "kind": "simplex", "prime": 2 ** 61 - 1},
            {"rule": "generic_heads", "classes": [[1]]},
            {"rule": "newton_blocks", "blocks": [{"factors": [0], "method": "zonotope_independent"}]},
            {"rule": "explicit_fusion", "head": {"atoms": [{"key": [0, 0], "value": 1},
                                                           {"key": [1, 0], "value": 1}]}}],
        "trust": "exact"})


def _odd_c4() -> dict:
    # C_4 = 15 by odd contraction down to the double edge (no cycle lemma)
    from attnproof.bounds.graph_sums import minor_bound

    doc = build_certificate(graph_sum(named_graph("cycle", 4)), minors=True).doc
    G = {(0, 1): 1, (0, 3): 1, (1, 2): 1, (2, 3): 1}
    _step(doc, "graph_minors")["proof"] = minor_bound(G, frozenset({"odd"}))[1]
    return doc


def _shared_keys(bias: bool = False) -> MultiHead:
    # two heads whose keys coincide on positions 0 and 1 (docs/theory.md Cor 10.2): the
    # midpoint of the shared edge is no vertex, the edge polynomial has two negative roots
    b = Fraction(1, 3) if bias else Fraction(0)
    h = Head((Atom((0, 0), (1,), bias=b), Atom((1, 0), (2,)), Atom((0, 1), (0,))), name="h")
    g = Head((Atom((0, 0), (0,), bias=b + 1), Atom((1, 0), (5,), bias=Fraction(1)),
              Atom((1, 1), (1,))), name="g")
    return MultiHead((h, g))


def _square() -> MultiHead:
    # one head with denominator (1 + x)^2: two vertices, and (1 + t)^2 on the edge
    return MultiHead((Head((Atom((0,), (0,)), Atom((1,), (1,), weight=2), Atom((2,), (3,))),
                           name="square"),))


def valid(window: bool = True) -> dict[str, dict]:
    """name -> certificate document (``window``: include the SMT window refutation)."""
    docs = {
        "w1": build_certificate(sigmoid_sum(1)).doc,
        "w3": build_certificate(sigmoid_sum(3)).doc,
        "w3-explicit": build_certificate(sigmoid_sum(3), explicit=True).doc,
        "w54-structural": build_certificate(sigmoid_sum(54), explicit_fusion_limit=1).doc,
        "path3": build_certificate(graph_sum(named_graph("path", 3))).doc,
        "k3": build_certificate(graph_sum(named_graph("complete", 3))).doc,
        "k3-explicit": build_certificate(graph_sum(named_graph("complete", 3)), explicit=True).doc,
        "c4": build_certificate(graph_sum(named_graph("cycle", 4))).doc,
        "k4": build_certificate(graph_sum(named_graph("complete", 4))).doc,
        "biased": build_certificate(biased_sigmoid_sum([Fraction(1, 2), 0])).doc,
        "decimal": build_certificate(_decimal()).doc,
        "cancel": build_certificate(_cancel()).doc,
        "flint": build_certificate(_flint()).doc,
        "zonotope-2d": build_certificate(_zonotope_2d()).doc,
        "geom-triangles": geometry_certificate(_geom_triangles()).doc,
        "geom-direct": geometry_certificate(_geom_direct()).doc,
        "geom-chain": geometry_certificate(_geom_chain()).doc,
        "geom-partial": geometry_certificate(_geom_triangles(), max_candidates=5).doc,
        "geom-indecomposable": geometry_certificate(_geom_indecomposable()).doc,
        "non-constant": build_certificate(_long_exponent()).doc,
        "capelli": build_certificate(_capelli()).doc,
        "sub-sum": geometry_certificate(_sub_sum(), max_candidates=5).doc,
        "c5-minors": build_certificate(graph_sum(named_graph("cycle", 5)), minors=True).doc,
        "k4-minors": build_certificate(graph_sum(named_graph("complete", 4)), minors=True).doc,
        "c4-odd": _odd_c4(),
        "edge-roots": build_certificate(_shared_keys()).doc,
        "edge-roots-biased": build_certificate(_shared_keys(bias=True)).doc,
        "edge-roots-square": build_certificate(_square()).doc,
    }
    w = _window_k3() if window else None
    if w is not None:
        docs["k3-window"] = w
    lines = _lines_k3() if window else None
    if lines is not None:
        docs["k3-lines"] = lines
    return docs


def _rehash(doc: dict) -> dict:
    doc["problem_sha256"] = hashlib.sha256(canonical_json(doc["problem"]).encode("ascii")).hexdigest()
    return doc


def _step(doc: dict, rule: str, k: int = 0) -> dict:
    return [s for s in doc["steps"] if s["rule"] == rule][k]


def _method(doc: dict, method: str) -> None:
    # another method for the first block of newton_blocks, without the graphic block's hint
    blk = _step(doc, "newton_blocks")["blocks"][0]
    blk["method"] = method
    blk.pop("graph_blocks", None)


def _hint(doc: dict) -> list:
    return _step(doc, "newton_blocks")["blocks"][0]["graph_blocks"]


def invalid(v: dict[str, dict]) -> list[tuple[str, str, object, int, list]]:
    """(name, what it breaks, document or raw text, expected exit code, extra args)."""
    out = []

    def mut(name, src, what, fn, code=1, args=None):
        d = copy.deepcopy(v[src])
        r = fn(d)
        out.append((name, what, d if r is None else r, code, args or []))

    mut("lower-claim", "w3", "claims.lower_bound differs from the proven count",
        lambda d: d["claims"].__setitem__("lower_bound", 9))
    mut("minimum-when-gap", "k3", "claims.minimum given although the bounds differ",
        lambda d: d["claims"].__setitem__("minimum", 6))
    mut("sha-digit", "w3", "problem_sha256 does not match the embedded problem",
        lambda d: d.__setitem__("problem_sha256", ("0" if d["problem_sha256"][0] != "0" else "1")
                                + d["problem_sha256"][1:]))
    mut("problem-value", "w3", "embedded problem changed (hash updated): explicit fusion no longer equal",
        lambda d: (d["problem"]["heads"][0]["atoms"][0].__setitem__("value", 2), _rehash(d)) and None)
    mut("linear-witness", "w3", "irreducible_factor: linear witness names the wrong variable",
        lambda d: _step(d, "irreducible_factor")["witness"].__setitem__("var", 1))
    mut("not-surviving", "cancel", "irreducible_factor: 1 + x cancels in the sum (Q = 1)",
        lambda d: d["steps"].insert(0, {"rule": "irreducible_factor", "poly": [[1, []], [1, [[0, 1]]]],
                                        "witness": {"kind": "linear", "var": 0},
                                        "residue_component": 0}))
    mut("simplex-witness", "decimal", "irreducible_factor: a binomial witness for a trinomial",
        lambda d: _step(d, "irreducible_factor")["witness"].__setitem__("kind", "binomial"))
    mut("vertex-tie", "w3-explicit", "newton_blocks: a functional with several maximizers",
        lambda d: _step(d, "newton_blocks")["blocks"][0]["vertices"][0][1].__setitem__(0, 0))
    mut("vertex-wrong", "w3-explicit", "newton_blocks: a listed vertex the functional does not select",
        lambda d: _step(d, "newton_blocks")["blocks"][0]["vertices"][0].__setitem__(0, [0, 0, -1]))
    mut("zonotope-independent", "k3", "newton_blocks: K_3's generators are dependent",
        lambda d: _method(d, "zonotope_independent"))
    mut("general-position-k4", "k4", "newton_blocks: K_4's generators are not in general position",
        lambda d: _method(d, "zonotope_general_position"))
    mut("graphic-not-graphic", "zonotope-2d", "newton_blocks: generator (1, 2) is not graphic",
        lambda d: _step(d, "newton_blocks")["blocks"][0].update(method="zonotope_graphic", graph_blocks=[]))
    # the graph blocks the checker verifies (§6.3 graph_blocks): a false hint is invalid
    mut("hint-cycle-split", "c4", "newton_blocks: the 4-cycle as two paths meeting in two nodes "
        "(4 · 4 = 16 orientations, not 14)",
        lambda d: _hint(d).__setitem__(slice(None), [{"edges": [[0, 1], [1, 2]], "order": [0, 2, 1]},
                                                     {"edges": [[0, 3], [2, 3]], "order": [0, 2, 3]}]))
    mut("hint-cycle-of-blocks", "k3", "newton_blocks: the triangle as three edges around a cycle "
        "of blocks (2 · 2 · 2 = 8, not 6)",
        lambda d: _hint(d).__setitem__(slice(None), [{"edges": [e], "order": e} for e in _hint(d)[0]["edges"]]))
    mut("hint-order", "c4", "newton_blocks: an elimination order claimed for the 4-cycle, not chordal",
        lambda d: _hint(d)[0].__setitem__("order", [0, 1, 2, 3]))
    mut("hint-order-short", "k4", "newton_blocks: an elimination order that leaves out a node",
        lambda d: _hint(d)[0]["order"].__delitem__(-1))
    mut("hint-edge-missing", "k4", "newton_blocks: graph blocks that leave out an edge",
        lambda d: _hint(d)[0]["edges"].__delitem__(-1))
    mut("hint-edge-twice", "k4", "newton_blocks: an edge in two graph blocks",
        lambda d: _hint(d).append({"edges": [_hint(d)[0]["edges"][0]]}))
    mut("hint-missing", "k3", "newton_blocks: a graphic block without its graph blocks",
        lambda d: _step(d, "newton_blocks")["blocks"][0].__delitem__("graph_blocks"))
    mut("product-fusion-field", "w54-structural", "product_fusion: an unknown field",
        lambda d: _step(d, "product_fusion").__setitem__("atoms", 5))
    mut("blocks-share-vars", "k3", "newton_blocks: K_3 split into two blocks that share variables",
        lambda d: _step(d, "newton_blocks").__setitem__("blocks", [
            {"factors": [0, 1], "method": "zonotope_independent"},
            {"factors": [2], "method": "zonotope_independent"}]))
    mut("fusion-weight", "w3", "explicit_fusion: a weight changed, the head is not a fusion",
        lambda d: _step(d, "explicit_fusion")["head"]["atoms"][1].__setitem__("weight", 2))
    mut("fusion-order", "w3", "explicit_fusion: atoms not in lattice order",
        lambda d: _step(d, "explicit_fusion")["head"]["atoms"].reverse())
    mut("flint-identity", "flint", "reduced_by_flint: P/Q is not the sum",
        lambda d: _step(d, "reduced_by_flint")["numerator"][0][0].__setitem__(0, 7))
    mut("trust-exact", "flint", "trust says exact but reduced_by_flint trusts FLINT",
        lambda d: d.__setitem__("trust", "exact"))
    mut("version-2", "w1", "unknown certificate version",
        lambda d: d.__setitem__("version", 2))
    mut("extra-field", "w1", "an unknown top-level field",
        lambda d: d.__setitem__("comment", "hello"))
    mut("big-count-int", "w54-structural", "a count >= 2^53 written as a JSON integer",
        lambda d: d["claims"].__setitem__("lower_bound", 2 ** 54))
    mut("missing-upper", "w1", "no upper-bound step",
        lambda d: d.__setitem__("steps", [s for s in d["steps"] if s["rule"] != "explicit_fusion"]))
    mut("float-int", "w1", "1.0 where an integer is required (raw text)",
        lambda d: canonical_json(d).replace('"version":1', '"version":1.0'))
    mut("nan", "w1", "NaN in the JSON text",
        lambda d: canonical_json(d).replace('"lower_bound":2', '"lower_bound":NaN'))
    mut("duplicate-key", "w1", "a duplicated JSON key",
        lambda d: canonical_json(d).replace('{"claims":', '{"trust":"exact","claims":', 1))
    mut("strict-flint", "flint", "--strict refuses a step that trusts FLINT (inconclusive)",
        lambda d: None, code=2, args=["--strict"])
    if "k3-window" in v:
        mut("window-hash", "k3-window", "window_refutation: SMT-LIB2 text edited, hash unchanged",
            lambda d: _step(d, "window_refutation").__setitem__(
                "smtlib", _step(d, "window_refutation")["smtlib"] + " "))
    if "k3-lines" in v:     # THEORY §12 (docs/certificates.md §6.11)
        def line_step(d):
            return _step(d, "line_refutation")
        mut("lines-hash", "k3-lines", "line_refutation: SMT-LIB2 text edited, hash unchanged",
            lambda d: line_step(d).__setitem__("smtlib", line_step(d)["smtlib"] + " "))
        mut("lines-unbound", "k3-lines", "line_refutation: a direction that is no bound factor's",
            lambda d: line_step(d)["directions"].__setitem__(2, [1, 1, -2]))
        mut("lines-order", "k3-lines", "line_refutation: directions not increasing",
            lambda d: line_step(d)["directions"].reverse())
        mut("lines-problem", "k3-lines", "line_refutation: problem_sha256 of another problem",
            lambda d: line_step(d).__setitem__("problem_sha256", "0" * 64))
        mut("lines-claim", "k3-lines", "line_refutation: k = 5 cannot prove the claimed 7",
            lambda d: line_step(d).__setitem__("atoms", 5))
        mut("lines-trust", "k3-lines", "line_refutation: trust exact claimed",
            lambda d: d.__setitem__("trust", "exact"))
        mut("lines-options", "k3-lines", "line_refutation: an encoding option of no known name",
            lambda d: line_step(d)["options"].append("windows"))
        mut("lines-contraction-form", "k3-lines", "line_refutation: a contraction bound of 1 "
            "(THEORY Lemma 13.2 demands at least 2 lines or nothing)",
            lambda d: line_step(d)["contraction_bounds"].__setitem__(0, 1))
        mut("lines-contraction-option", "k3-lines", "line_refutation: contraction_bounds "
            "without the option contraction",
            lambda d: line_step(d)["options"].remove("contraction"))
    # THEORY §9 rules (docs/certificates.md §6.7-6.10)
    mut("geom-chain-not-face", "geom-chain", "indecomposable_chain: a triangle's functional "
        "is maximal on every point", lambda d: _step(d, "indecomposable_chain")["triangles"][0]
        .__setitem__(1, [0, 0, 0]))
    mut("geom-chain-uncovered", "geom-chain", "indecomposable_chain: a triangle dropped, a "
        "vertex is on no triangle", lambda d: _step(d, "indecomposable_chain")["triangles"].pop() and None)
    mut("geom-simplex-prime", "geom-triangles", "indecomposable_chain: the modular witness is "
        "not a prime", lambda d: _step(d, "indecomposable_chain").__setitem__("prime", 2 ** 61 + 1))
    mut("geom-classes", "geom-triangles", "generic_heads: two non-associate heads merged into one class",
        lambda d: _step(d, "generic_heads").__setitem__("classes", [[0, 1]]))
    mut("geom-gordan", "geom-triangles", "minkowski_vertices: a Gordan multiplier changed",
        lambda d: _step(d, "minkowski_vertices")["non_vertices"][0][1][0].__setitem__(2, 1))
    mut("geom-incomplete", "geom-triangles", "minkowski_vertices: complete, but a candidate "
        "is not refuted", lambda d: _step(d, "minkowski_vertices")["non_vertices"].pop() and None)
    mut("geom-partial-complete", "geom-partial", "minkowski_vertices: a partial count claimed "
        "complete", lambda d: _step(d, "minkowski_vertices").__setitem__("complete", True))
    mut("geom-direct-dependent", "geom-triangles", "direct_sum: the difference spaces of two "
        "triangles in R^3 are dependent",
        lambda d: (d["steps"].__setitem__(-2, {"rule": "direct_sum", "prime": 2 ** 61 - 1, "factors": [
            {"basis": [1, 2], "relations": [], "vertices": [], "non_vertices": []}] * 2}),
                   d["claims"].update(lower_bound=9, minimum=9)) and None)
    mut("geom-direct-basis", "geom-direct", "direct_sum: a basis point dropped without a relation",
        lambda d: _step(d, "direct_sum")["factors"][0]["basis"].pop() and None)
    mut("geom-nonhomothetic-missing", "geom-indecomposable", "generic_heads: a head only "
        "indecomposable (content 2) without width functionals (non-homothety)",
        lambda d: _step(d, "generic_heads").pop("width_functionals") and None)
    mut("geom-nonhomothetic-equal", "geom-indecomposable", "generic_heads: the width "
        "functionals give proportional widths on both heads (both axes scale by 2)",
        lambda d: _step(d, "generic_heads").__setitem__(
            "width_functionals", [[1, 0, 0], [0, 1, 0]]))
    out.append(("geom-constant-head", "generic_heads: x1/(x0+x1) + x0^2/(x0^2+x0x1) = 1, but "
                "head 0 (keys e_1, e_0) is passed off as a unit and its associate counted as "
                "a factor (minimum 2 claimed)", _constant_head_forgery(), 1, []))
    # floors (docs/certificates.md §6.13-6.14)
    mut("non-constant-equal", "non-constant", "non_constant: both witnesses are the point x = 1",
        lambda d: _step(d, "non_constant").__setitem__("witnesses", [{"point": []}, {"point": []}]))
    mut("non-constant-forged", "cancel", "non_constant: claimed for σ + (1 − σ) = 1 (both "
        "values are 1)", lambda d: (d["steps"].insert(1, {"rule": "non_constant", "witnesses": [
            {"point": []}, {"limit": [[0, 1]]}]}), d["claims"].update(lower_bound=2, minimum=None))
        and None)
    mut("non-constant-redundant", "w3", "non_constant: the count already proves 8",
        lambda d: d["steps"].insert(4, {"rule": "non_constant", "witnesses": [
            {"point": []}, {"limit": [[0, 1]]}]}))
    mut("non-constant-slope-zero", "cancel", "non_constant: a slope claimed for σ + (1 − σ) = 1 "
        "(it is 0)", lambda d: (d["steps"].insert(1, {"rule": "non_constant", "witnesses": [
            {"slope": [[0, 1]]}]}), d["claims"].update(lower_bound=2, minimum=None)) and None)
    mut("non-constant-point-one", "non-constant", "non_constant: a point coordinate 1 is written",
        lambda d: _step(d, "non_constant")["witnesses"].__setitem__(0, {"point": [[0, 1]]}))
    mut("capelli-reducible", "capelli", "irreducible_factor: a Capelli witness for 1 + x^6 "
        "(reducible: -1 is a cube)", lambda d: _step(d, "irreducible_factor", 1).__setitem__(
            "poly", [[1, []], [1, [[0, 6]]]]))
    mut("capelli-primitive", "capelli", "irreducible_factor: a Capelli witness where the "
        "canonical one is 'linear'", lambda d: _step(d, "irreducible_factor", 0).__setitem__(
            "witness", {"kind": "capelli"}))
    mut("capelli-germain", "capelli", "irreducible_factor: 1 + 4 x^4 claimed irreducible "
        "(Sophie Germain: -1/4 = -4 (1/2)^4)", lambda d: _step(d, "irreducible_factor", 1).__setitem__(
            "poly", [[1, []], [4, [[0, 4]]]]))
    mut("capelli-cancels", "capelli", "irreducible_factor: 1 + x1^4 divides no head",
        lambda d: _step(d, "irreducible_factor", 1).__setitem__("poly", [[1, []], [1, [[0, 4]]]]))
    mut("sub-sum-all", "sub-sum", "sub_sum: keeps every factor",
        lambda d: _step(d, "sub_sum").__setitem__("factors", [0, 1, 2]))
    mut("sub-sum-wrong-factors", "sub-sum", "sub_sum: keeps the two segments, the direct sum "
        "certifies a triangle", lambda d: _step(d, "sub_sum").__setitem__("factors", [1, 2]))
    mut("sub-sum-twice", "sub-sum", "sub_sum: a second sub-sum step",
        lambda d: d["steps"].insert(-2, {"rule": "sub_sum", "factors": [0]}))
    mut("sub-sum-complete", "sub-sum", "sub_sum: the sub-sum's count claimed as the minimum "
        "of a sum it bounds only from below", lambda d: d["claims"].update(
            upper_bound=6, minimum=6))
    # graph_minors (§6.15): each lemma where it does not apply
    mut("minors-cycle-k4", "k4-minors", "graph_minors: the cycle lemma on K_4",
        lambda d: _step(d, "graph_minors").__setitem__("proof", {"by": "cycle"}))
    mut("minors-parallel", "k4-minors", "graph_minors: Descartes on a triangle",
        lambda d: _step(d, "graph_minors")["proof"].__setitem__("restriction", {"by": "parallel"}))
    mut("minors-not-an-edge", "k4-minors", "graph_minors: a fiber over a pair that is no edge "
        "(the nodes 0 and 4: the ground, not in this problem)",
        lambda d: _step(d, "graph_minors")["proof"]["edges"].__setitem__(2, [0, 4]))
    mut("minors-odd-twice", "c4-odd", "graph_minors: odd contraction over one edge twice",
        lambda d: _step(d, "graph_minors")["proof"].__setitem__("edges", [[0, 1], [0, 1]]))
    mut("minors-over-claim", "c5-minors", "graph_minors: claims 32, over the fusion's 31",
        lambda d: d["claims"].update(lower_bound=32))
    mut("minors-before-upper", "c5-minors", "graph_minors before the lower- and upper-bound steps",
        lambda d: d["steps"].insert(-2, d["steps"].pop()))
    def edges(d):
        return _step(d, "edge_roots")

    def raise_claims(d, by):
        d["claims"]["lower_bound"] += by
        if d["claims"]["lower_bound"] > d["claims"]["upper_bound"]:
            d["claims"]["upper_bound"] = d["claims"]["lower_bound"]
        d["claims"]["minimum"] = (d["claims"]["lower_bound"] if d["claims"]["lower_bound"]
                                  == d["claims"]["upper_bound"] else None)

    mut("edge-roots-count", "edge-roots", "edge_roots: an edge claims 3 negative roots (it has 2)",
        lambda d: (edges(d)["edges"][0].__setitem__("roots", 3),
                   edges(d).__setitem__("lower_bound", edges(d)["lower_bound"] + 1),
                   raise_claims(d, 1)) and None)
    mut("edge-roots-bound", "edge-roots", "edge_roots: lower_bound one above count + edges",
        lambda d: (edges(d).__setitem__("lower_bound", edges(d)["lower_bound"] + 1),
                   raise_claims(d, 1)) and None)
    mut("edge-roots-twice", "edge-roots", "edge_roots: the same edge listed twice",
        lambda d: (edges(d)["edges"].append(copy.deepcopy(edges(d)["edges"][0])),
                   edges(d).__setitem__("lower_bound", edges(d)["lower_bound"] + 1),
                   raise_claims(d, 1)) and None)
    mut("edge-roots-face", "edge-roots", "edge_roots: the zero functional selects all of "
        "Newt(R), no edge",
        lambda d: edges(d)["edges"][0].__setitem__(
            "functional", [0] * len(edges(d)["edges"][0]["functional"])))
    mut("edge-roots-vertex", "edge-roots-biased", "edge_roots: a functional that selects a vertex",
        lambda d: edges(d)["edges"][0].__setitem__("functional", [1, -1]))
    mut("edge-roots-first", "edge-roots-square", "edge_roots before the vertex count",
        lambda d: d["steps"].insert(0, d["steps"].pop(
            [s["rule"] for s in d["steps"]].index("edge_roots"))))
    # graphic block over the checker's limit: the 4 x 5 grid, a biconnected block on 20 nodes
    # that is neither chordal nor a cycle, claimed as zonotope_graphic (the producer refuses it)
    from unittest import mock

    import networkx as nx

    grid = nx.convert_node_labels_to_integers(nx.grid_2d_graph(4, 5))
    with mock.patch("attnproof.bounds.lower.acyclic_orientations_within",
                    lambda n, e: (1, [], None, [])):
        big = build_certificate(graph_sum(grid), explicit_fusion_limit=1).doc
    out.append(("graphic-too-large", "a graphic block beyond the checker's counting limit "
                "(20-node grid; inconclusive)", big, 2, []))
    return out


def main() -> int:
    v = valid()
    index = {}
    for name, doc in sorted(v.items()):
        path = f"valid/{name}.json"
        (HERE / path).write_text(canonical_json(doc))
        if doc["claims"]["window_refutations"]:
            index[path] = {"exit": 2, "args": [], "what": "genuine; its window refutation is "
                           "not re-proven without --replay (inconclusive)"}
        elif any(s["rule"] == "line_refutation" for s in doc["steps"]):
            index[path] = {"exit": 2, "args": [], "what": "genuine; its line refutation is "
                           "not re-proven without --replay (inconclusive)"}
        else:
            index[path] = {"exit": 0, "args": [], "what": "valid"}
    for name, what, doc, code, args in invalid(v):
        path = f"invalid/{name}.json"
        text = doc if isinstance(doc, str) else canonical_json(doc)
        (HERE / path).write_text(text)
        index[path] = {"exit": code, "args": args, "what": what}
    (HERE / "index.json").write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")
    print(f"{len(v)} valid, {len(index) - len(v)} invalid certificates written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
