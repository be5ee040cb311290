"""Forged certificates that the checker must reject, checked in-process.

These tests kill mutants of the trusted checker (``python bench/mutation.py``,
``docs/checker-audit.md``): each starts from a genuine certificate or problem
and makes one false claim that a weakened rule would let through.  They use
only the checker's public entry points, so they do not depend on how the rules
are split into modules.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path

import pytest

from attnproof.bounds.zonotope import graph_hint
from attnproof.checker import check_text
from attnproof.io import canonical_json

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "certificates" / "valid"
ADV = ROOT / "certificates" / "adversarial"
INDEX = json.loads((ADV / "index.json").read_text())
# The forged and malformed files of the adversarial corpus that the checker alone answers
# (no --replay, nothing optional needed); the bombs stay in the resource-limited child of
# test_checker_adversarial.py.
PLAIN = sorted(n for n, e in INDEX.items()
               if not n.startswith("bomb") and not e["args"] and not e["needs"] and e["exit"] != 3)


def _golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text())


@pytest.mark.parametrize("name", PLAIN)
def test_forged_and_malformed_files_in_process(name):
    v = check_text((ADV / name).read_text(encoding="utf-8"))
    assert v.code == INDEX[name]["exit"], v.message
    assert v.message.startswith(v.status) and v.status == {0: "valid", 1: "invalid",
                                                          2: "inconclusive"}[v.code]


# -- genuine certificates of small problems, one per rule path ------------------------------

def _sig(*key, value=1, bias=None, weight=None):
    """A sigmoid head ``σ(<key, q>)``: atoms ``key -> value`` and ``0 -> 0``."""
    a = {"key": list(key), "value": value}
    if bias is not None:
        a["bias"] = bias
    if weight is not None:
        a["weight"] = weight
    return {"atoms": [a, {"key": [0] * len(key), "value": 0}]}


def _points(*keys, values=None):
    """A head with one atom per key, values 0, 1, 2, ... (all keys vertices)."""
    vals = values or list(range(len(keys)))
    return {"atoms": [{"key": list(k), "value": v} for k, v in zip(keys, vals)]}


def _problem(dim, *heads):
    return {"format": "attnproof-problem", "version": 1, "dim": dim, "heads": list(heads)}


def _sparse(dim, *entries):
    return {"atoms": [{"key": {str(j): x for j, x in k.items()}, "value": v} for k, v in entries]}


def _graph(n, edges):
    """The graph sum ``Σ_{ab} σ(q_a - q_b)`` (THEORY Lemma 7): generators ``e_a - e_b``."""
    return _problem(n, *(_sig(*[1 if j == a else -1 if j == b else 0 for j in range(n)])
                         for a, b in edges))


def _acyclic_orientations(n, edges) -> int:
    """By brute force: orientations of ``edges`` whose digraph has no cycle."""
    total = 0
    for bits in range(1 << len(edges)):
        arcs = {(a, b) if bits >> i & 1 else (b, a) for i, (a, b) in enumerate(edges)}
        nodes = set(range(n))
        while nodes:                      # peel off sinks; a cycle leaves nodes behind
            sinks = {v for v in nodes if not any(a == v for a, _ in arcs)}
            if not sinks:
                break
            nodes -= sinks
            arcs = {(a, b) for a, b in arcs if b not in sinks}
        total += not nodes
    return total


# name -> problem; each certificate takes a different path through the rules
CASES = {
    # a binomial factor 1 + x0^2 x1^3 (no linear witness) beside a linear one
    "binomial": _problem(2, _points((0, 0), (2, 3)), _points((0, 0), (1, 0))),
    # a trinomial with an affinely independent support: simplex witness, vertex list
    "trinomial": _problem(2, _points((0, 0), (2, 1), (1, 3))),
    # a simplex block: every point of one factor is a vertex
    "simplex-block": _problem(3, _points((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1))),
    # sparse keys (d > 16), a one-factor simplex block
    "sparse-simplex": _problem(20, _sparse(20, ({0: 1}, 1), ({5: 1}, 2), ({}, 0))),
    # biases: the variable z
    "biased": _problem(1, _sig(1, bias=1), _sig(1, bias="1/2"), _sig(1, bias=-3)),
    # vector values, weights, fractional keys
    "vector": _problem(2, {"atoms": [{"key": [1, 0], "value": [1, 2]},
                                     {"key": [0, 0], "value": [0, 1]}]},
                       {"atoms": [{"key": [0, "1/2"], "value": [3, 0], "weight": 2},
                                  {"key": [0, 0], "value": [0, 0]}]}),
    # generators in general position in rank 3
    "general-position": _problem(3, _sig(1, 0, 0), _sig(0, 1, 0), _sig(0, 0, 1), _sig(1, 1, 1)),
    # rank 2 in general position beside an independent block
    "two-blocks": _problem(3, _sig(1, 0, 0), _sig(0, 1, 0), _sig(0, 0, 1), _sig(1, 1, 0)),
    # a graph with an edge to the ground node (a generator e_a)
    "graphic-ground": _problem(3, _sig(1, -1, 0), _sig(0, 1, -1), _sig(1, 0, -1), _sig(1, 0, 0)),
    # a 5-cycle: the cycle formula
    "cycle": _problem(5, *(_sig(*[1 if j == i else -1 if j == (i + 1) % 5 else 0
                                   for j in range(5)]) for i in range(5))),
    # graphic blocks that are neither complete nor cycles: chordal (a perfect elimination
    # order) and general (the subset recurrence); two triangles sharing a node (two blocks)
    "graph-diamond": _graph(4, [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]),
    "graph-k23": _graph(5, [(0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4)]),
    "graph-house": _graph(5, [(0, 1), (1, 2), (2, 3), (3, 0), (2, 4), (3, 4)]),
    "graph-wheel": _graph(5, [(0, 1), (1, 2), (2, 3), (3, 0), (0, 4), (1, 4), (2, 4), (3, 4)]),
    "graph-bowtie": _graph(5, [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (2, 4)]),
    # two heads that sum to 1 (associates, constant): minimum 1
    "constant-pair": _problem(2, _points((0, 1), (1, 0), values=[1, 0]),
                              _points((0, 1), (1, 0), values=[0, 1])),
}
def _weighted(shift, weights, biases):
    """A triangle head translated by ``shift``, with atom weights and biases."""
    pts = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
    return {"atoms": [dict({"key": [p[j] + shift[j] for j in range(3)], "value": i,
                            "weight": weights[i]}, **({"bias": biases[i]} if biases[i] else {}))
                      for i, p in enumerate(pts)]}


GEOMETRY = {
    # two translated triangles that are not associates (weights 1, 2, 1/2 and 1, 1/2, 2:
    # the products D_1(s + t)·D_0(s_0) and D_1(s_0 + t)·D_0(s) differ) beside a triangle
    "geom-translates": _problem(3, _weighted((0, 0, 0), [1, 2, "1/2"], [0, 0, 0]),
                                _weighted((0, 0, 1), [1, "1/2", 2], [0, 0, 0]),
                                _points((0, 0, 0), (0, 1, 1), (2, 0, 1))),
    # two triangles in the plane: the planar_vertices rule (the checker's own hulls)
    "geom-planar": _problem(2, _points((0, 0), (2, 1), (1, 3)), _points((0, 0), (3, 1), (1, 2))),
    # four segments whose directions differ in the 54th bit: 8 vertices (one exact division
    # of each edge by the gcd of its entries; in floating point two pairs would merge)
    "geom-planar-huge": _problem(2, *(_points((0, 0), k) for k in (
        (2 ** 53 + 1, 1), (2 ** 53, 1), (1, 2 ** 53 + 1), (1, 2 ** 53)))),
    # two associate heads with weights and biases (one class: D_1 = 2·z·x2·D_0, checked as
    # products of polynomials in z) beside a triangle
    "geom-biased-class": _problem(3, _weighted((0, 0, 0), [2, 3, "1/2"], [1, 0, 2]),
                                  _weighted((0, 0, 1), [4, 6, 1], [2, 1, 3]),
                                  _points((0, 0, 0), (0, 1, 1), (2, 0, 1))),
    # long keys (THEORY §9): chains, classes, vertex enumeration, direct sums
    "geom-simplices": _problem(3, _points((0, 0, 0), (1, 0, 0), (0, 1, 0)),
                               _points((0, 0, 0), (0, 1, 1), (2, 0, 1))),
    "geom-direct": _problem(4, _points((0, 0, 0, 0), (1, 0, 0, 0), (0, 1, 0, 0)),
                            _points((0, 0, 0, 0), (0, 0, 1, 0), (0, 0, 1, 1))),
    # a triangular bipyramid (a chain of triangles) beside a triangle
    "geom-chain": _problem(3, _points((0, 0, 1), (0, 0, -1), (1, 0, 0), (0, 1, 0), (-1, -1, 0)),
                           _points((0, 0, 0), (1, 0, 0), (0, 0, 1))),
    # a square pyramid with a point on a base edge (a non-vertex, the midpoint of points 0
    # and 2), alone and beside a triangle (Gordan multipliers in the vertex enumeration)
    "geom-pyramid": _problem(3, _points((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 2, 0), (2, 2, 0),
                                        (1, 1, 1))),
    "geom-pyramid-triangle": _problem(3, _points((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 2, 0),
                                                 (2, 2, 0), (1, 1, 1)),
                                      _points((0, 0, 0), (1, 0, 0), (0, 0, 1))),
}


def _certificate(name: str) -> dict:
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_from_dict
    if name in CASES:
        return build_certificate(problem_from_dict(CASES[name])).doc
    from attnproof.certificate.geometry_steps import geometry_certificate
    return geometry_certificate(problem_from_dict(GEOMETRY[name])).doc


_CERTS: dict = {}


def certificate(name: str) -> dict:
    """The producer's certificate (a fresh copy each time)."""
    if name not in _CERTS:
        _CERTS[name] = canonical_json(_certificate(name))
    return json.loads(_CERTS[name])


def _check(doc: dict):
    return check_text(canonical_json(doc))


def _rehash(doc: dict) -> dict:
    import hashlib
    doc["problem_sha256"] = hashlib.sha256(canonical_json(doc["problem"]).encode()).hexdigest()
    return doc


ALL = sorted(CASES) + sorted(GEOMETRY)


@pytest.mark.parametrize("name", ALL)
def test_producer_certificates_are_valid(name):
    doc = certificate(name)
    v = _check(doc)
    assert v.status == "valid", v.message
    c = doc["claims"]
    assert (v.lower_bound, v.upper_bound, v.minimum) == (c["lower_bound"], c["upper_bound"],
                                                        c["minimum"])


@pytest.mark.parametrize("name", ALL)
def test_inflated_lower_bound_is_rejected(name):
    doc = certificate(name)
    c = doc["claims"]
    c["lower_bound"] += 1
    c["upper_bound"] = max(c["upper_bound"], c["lower_bound"])
    c["minimum"] = c["lower_bound"] if c["lower_bound"] == c["upper_bound"] else None
    assert _check(doc).status == "invalid"


@pytest.mark.parametrize("name", ALL)
def test_deflated_upper_bound_is_rejected(name):
    doc = certificate(name)
    c = doc["claims"]
    c["upper_bound"] -= 1
    c["lower_bound"] = min(c["upper_bound"], c["lower_bound"])
    c["minimum"] = c["lower_bound"] if c["lower_bound"] == c["upper_bound"] else None
    assert _check(doc).status == "invalid"


def _step(doc: dict, rule: str) -> dict:
    return next(s for s in doc["steps"] if s["rule"] == rule)


# -- the lower bound ------------------------------------------------------------------------

def test_generators_not_in_general_position_are_not_counted_as_such():
    """e0, e1, e2, e0 + e1 have rank 3 but three of them are dependent: the zonotope has
    12 vertices (a hexagon times a segment), not the general-position count 14."""
    doc = certificate("two-blocks")
    step = _step(doc, "newton_blocks")
    step["blocks"] = [{"factors": [0, 1, 2, 3], "method": "zonotope_general_position"}]
    doc["claims"].update(lower_bound=14, upper_bound=14, minimum=14)
    v = _check(doc)
    assert v.status == "invalid" and "general position" in v.message, v.message


def test_a_graph_with_ground_edges_counts_its_acyclic_orientations():
    # triangle 0-1-2 plus the edge {0, ground}: 6 acyclic orientations of K_3 times 2
    v = _check(certificate("graphic-ground"))
    assert v.status == "valid" and v.lower_bound == 12, v.message


def test_a_simplex_block_needs_a_private_variable_per_point():
    """1 + x0 + x0^2 + x1 is irreducible (linear in x1), but its Newton polygon is a
    triangle: (1, 0) lies between (0, 0) and (2, 0).  Counting it as a simplex of 4
    vertices is a false lower bound."""
    problem = _problem(2, _points((0, 0), (1, 0), (2, 0), (0, 1)))
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_from_dict
    doc = build_certificate(problem_from_dict(problem)).doc
    assert _check(doc).lower_bound == 3
    _step(doc, "newton_blocks")["blocks"] = [{"factors": [0], "method": "simplex"}]
    doc["claims"].update(lower_bound=4, minimum=4)
    v = _check(doc)
    assert v.status == "invalid" and "private variable" in v.message, v.message


# -- the upper bound ------------------------------------------------------------------------

def test_a_translated_fusion_is_a_fusion():
    """Softmax does not see a common translation of all keys: shifting every atom of an
    explicit fusion by the same lattice vector gives another exact fusion."""
    for name in ("binomial", "vector", "general-position"):
        doc = certificate(name)
        step = _step(doc, "explicit_fusion")
        for a in step["head"]["atoms"]:
            a["key"] = [str(Fraction(x) + 1) if Fraction(x) + 1 != int(Fraction(x) + 1)
                        else int(Fraction(x) + 1) for x in a["key"]]
        v = _check(doc)
        assert v.status == "valid", (name, v.message)


def test_a_fusion_of_another_problem_is_rejected():
    doc = certificate("binomial")
    atoms = _step(doc, "explicit_fusion")["head"]["atoms"]
    atoms[-1]["value"] = 3            # sigma + sigma: the top atom carries 1 + 1
    v = _check(doc)
    assert v.status == "invalid" and "not equal to the sum" in v.message, v.message


# -- window refutations -----------------------------------------------------------------------

def _with_window(window) -> dict:
    doc = _golden("k3-window")
    step = _step(doc, "window_refutation")
    step["window"] = window
    doc["claims"]["window_refutations"][0]["window"] = window
    return doc


@pytest.mark.parametrize("name", ["k3-window", "k3-lines"])
def test_refutation_steps_are_read_and_left_to_the_replay(name):
    """Genuine window and line refutations: the bounds are verified, the refutations are
    not re-proven by the checker (inconclusive), and nothing in them breaks the checker."""
    v = _check(_golden(name))
    assert v.status == "inconclusive" and v.bounds_verified, v.message
    assert "internal" not in v.message, v.message


@pytest.mark.parametrize("name, rule", [("k3-window", "window_refutation"),
                                        ("k3-lines", "line_refutation")])
def test_a_refutation_of_zero_atoms_is_rejected(name, rule):
    doc = _golden(name)
    _step(doc, rule)["atoms"] = 0
    v = _check(doc)
    assert v.status == "invalid" and "atoms" in v.message, v.message


def test_a_points_window_is_read_and_left_to_the_replay():
    v = _check(_with_window({"kind": "points", "points": [[0, 0, 0], [1, -1, 0]]}))
    assert v.status == "inconclusive" and v.bounds_verified, v.message


@pytest.mark.parametrize("window", [
    [], "box", 1, None,
    {"kind": "points", "points": []},
    {"kind": "points", "points": [[0, "1"]]},
    {"kind": "points", "points": [0]},
    {"kind": "points"},
    {"kind": "box", "radius": -1, "coordinates": [0]},
    {"kind": "box", "radius": 1, "coordinates": [-1]},
    {"kind": "box", "radius": 1, "coordinates": 0},
    {"kind": "ball", "radius": 1},
])
def test_malformed_windows_are_rejected(window):
    v = _check(_with_window(window))
    assert v.status == "invalid", v.message


# -- transplanted proofs: a genuine certificate over a changed problem ----------------------

def _variants(pb: dict):
    """Problems near ``pb`` (one head changed or dropped), each with what was changed."""
    heads = pb["heads"]
    for h, head in enumerate(heads):
        def changed(new_head, what):
            q = json.loads(json.dumps(pb))
            q["heads"][h] = new_head
            return q, f"head {h} {what}"
        first = head["atoms"][0]["value"]
        yield changed({"atoms": [dict(a, value=first) for a in head["atoms"]]}, "made constant")
        if len(heads) > 1:
            q = json.loads(json.dumps(pb))
            del q["heads"][h]
            yield q, f"head {h} dropped"
        if isinstance(head["atoms"][0]["key"], list) and pb["dim"] >= 2:
            yield changed({"atoms": [dict(a, key=[a["key"][1], a["key"][0], *a["key"][2:]])
                                     for a in head["atoms"]]}, "x0 and x1 swapped")
            yield changed({"atoms": [dict(a, key=[0, *a["key"][1:]])
                                     for a in head["atoms"]]}, "x0 projected away")


def _bounds(pb: dict) -> tuple:
    """The producer's bounds for ``pb``, verified by the checker."""
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_from_dict
    cert = build_certificate(problem_from_dict(pb))
    v = check_text(cert.text)
    assert v.status == "valid", v.message
    return v.lower_bound, v.upper_bound


def test_genuine_proofs_of_other_problems_are_rejected():
    """Each certificate, with its problem changed (a head made constant, dropped, two
    variables swapped or one projected away) and rehashed, claims a lower bound above
    what a verified fusion of the changed problem achieves: a false claim."""
    forged = 0
    for name in ALL:
        if name.startswith(("graph-", "geom-pyramid", "geom-biased", "geom-planar",
                                  "geom-translates")):
            continue                   # their changed problems are slow to bound
        doc = certificate(name)
        pb = doc["problem"]
        for q, what in _variants(pb):
            try:
                _, upper = _bounds(q)
            except Exception:          # the changed problem is not a problem (no atoms, ...)
                continue
            if upper >= doc["claims"]["lower_bound"]:
                continue               # the claims may still be true
            bad = json.loads(json.dumps(doc))
            bad["problem"] = q
            v = _check(_rehash(bad))
            assert v.status == "invalid", (name, what, v.message)
            forged += 1
    assert forged >= 60, forged


# -- factors ----------------------------------------------------------------------------------

def test_a_factor_that_cancels_in_the_sum_is_not_a_factor_of_q():
    """σ(q0) + (1 − σ(q0)) + σ(q1) = 1 + σ(q1): two atoms suffice.  1 + x0 divides two head
    denominators but cancels in their sum; binding it as a factor would prove 4."""
    pb = _problem(2, _points((1, 0), (0, 0), values=[1, 0]), _points((1, 0), (0, 0), values=[0, 1]),
                  _sig(0, 1))
    lower, upper = _bounds(pb)
    assert upper == 2
    doc = {"format": "attnproof-certificate", "version": 1, "problem": pb, "trust": "exact",
           "claims": {"lower_bound": 4, "upper_bound": 8, "minimum": None,
                      "window_refutations": []},
           "steps": [{"rule": "irreducible_factor", "poly": [[1, []], [1, [[0, 1]]]],
                      "witness": {"kind": "linear", "var": 0}, "heads": [[0, 1], [1, 1]],
                      "residue_component": 0},
                     {"rule": "irreducible_factor", "poly": [[1, []], [1, [[1, 1]]]],
                      "witness": {"kind": "linear", "var": 1}, "heads": [[2, 1]],
                      "residue_component": 0},
                     {"rule": "newton_blocks", "blocks": [
                         {"factors": [0], "method": "zonotope_independent"},
                         {"factors": [1], "method": "zonotope_independent"}]},
                     {"rule": "product_fusion"}]}
    v = _check(_rehash(doc))
    assert v.status == "invalid" and "does not survive" in v.message, v.message


# -- the work budget --------------------------------------------------------------------------

# The work each valid golden certificate costs (docs/certificates.md §8: one unit per term of
# a product, per division step, per elimination entry, per vertex-check point).  The budget is what stops a hostile file; an
# operation that stops being charged lowers these numbers, so a change here must be deliberate.
# When the charges change on purpose, the assertion prints the new table.  (A binomial factor
# of a binomial head is charged its valuation in closed form, the sizes of both, instead of
# the steps of an exact division.  An exact division pays its least number of steps first,
# an explicit head its test at a point modulo p, a residue its prefix and suffix products,
# reading the atoms of the problem three units per atom plus its coordinates and values,
# generic_heads' coefficient products in its associate and constant tests.)
WORK = {
    'biased': 576,
    'c4-odd': 1602,
    'c4': 1447,
    'c5-minors': 2603,
    'cancel': 301,
    'capelli': 589,
    'decimal': 1088,
    'edge-roots-biased': 1041,
    'edge-roots-square': 490,
    'edge-roots': 996,
    'flint': 631,
    'geom-chain': 1160,
    'geom-direct': 1061,
    'geom-indecomposable': 1571,
    'geom-partial': 1170,
    'geom-triangles': 1344,
    'k3-explicit': 982,
    'k3-lines': 5959,
    'k3-window': 7090,
    'k3': 887,
    'k4-minors': 3464,
    'k4': 3353,
    'non-constant': 314,
    'path3': 574,
    'shared': 734,
    'sub-sum': 1222,
    'w1': 326,
    'w3-explicit': 967,
    'w3': 846,
    'w54-structural': 7234,
    'zonotope-2d': 1379,
}


def test_work_of_the_golden_certificates():
    got = {}
    for p in sorted(GOLDEN.glob("*.json")):
        text = p.read_text()
        v = check_text(text)
        got[p.stem] = v.work
        # reference=True is kept for old callers and changes nothing
        r = check_text(text, reference=True)
        assert (r.status, r.message, r.work) == (v.status, v.message, v.work), p.stem
    assert got == WORK, "the work changed; if on purpose, WORK = " + repr(got)


def test_the_expansion_limit_holds_whatever_the_work_budget():
    """A one-atom "fusion" of three 130-atom heads: verifying it would expand a product
    of 2·130³ > MAX_EXPANSION terms; the checker declines before expanding, even when
    given a work budget large enough for the expansion.  Its value is the heads' sum
    at the checker's point modulo p, so the point test cannot refute it first."""
    from attnproof.checker import poly as P
    from attnproof.checker.problem import parse_problem

    heads = [_points(*[[k if j == i else 0 for j in range(3)] for k in range(130)])
             for i in range(3)]
    pb = parse_problem(_problem(3, *heads))
    vals = P.images([p for D, Ns in zip(pb.den, pb.num) for p in (D, *Ns)])
    value = sum(n * pow(d, -1, P._P) for d, n in zip(vals[::2], vals[1::2])) % P._P
    doc = {"format": "attnproof-certificate", "version": 1, "problem": _problem(3, *heads),
           "trust": "exact", "claims": {"lower_bound": 1, "upper_bound": 1, "minimum": 1,
                                        "window_refutations": []},
           "steps": [{"rule": "newton_blocks", "blocks": []},
                     {"rule": "explicit_fusion",
                      "head": {"atoms": [{"key": [0, 0, 0], "value": value}]}}]}
    v = check_text(canonical_json(_rehash(doc)), work=10 ** 12)
    assert v.status == "inconclusive" and "expand" in v.message, v.message


# -- geometry: non-vertices -------------------------------------------------------------------

def test_a_point_is_not_a_convex_combination_of_itself():
    """A non-vertex proof ``Σ μ_j (p_i - p_j) = 0`` that names the point itself proves
    nothing (every term vanishes): it would let a vertex pass as a non-vertex."""
    doc = certificate("geom-pyramid")
    step = _step(doc, "indecomposable_chain")
    i = step["non_vertices"][0][0]
    step["non_vertices"][0][1] = [[i, 1]]
    v = _check(doc)
    assert v.status == "invalid" and "not the point itself" in v.message, v.message


def test_gordan_multipliers_name_a_factor_of_the_prefix():
    doc = certificate("geom-pyramid-triangle")
    step = _step(doc, "minkowski_vertices")
    prefix, mults = step["non_vertices"][0]
    mults[-1][0] = len(prefix)          # a factor index past the prefix
    v = _check(doc)
    assert v.status == "invalid", v.message


@pytest.mark.parametrize("name", ["geom-planar", "geom-planar-huge"])
def test_planar_vertices_counts_the_vertices_of_the_sum(name):
    import sys
    if str(ROOT / "tests") not in sys.path:
        sys.path.insert(0, str(ROOT / "tests"))
    from independent_count import brute_force_vertices
    doc = certificate(name)
    assert _step(doc, "planar_vertices")
    keys = [[tuple(a["key"]) for a in h["atoms"]] for h in doc["problem"]["heads"]]
    v = _check(doc)
    assert v.lower_bound == brute_force_vertices(keys)
    assert v.complete is True, "a planar vertex count is complete"


def test_a_planar_block_has_at_most_two_variables():
    doc = certificate("general-position")          # factors in three variables
    nfac = sum(1 for s in doc["steps"] if s["rule"] == "irreducible_factor")
    _step(doc, "newton_blocks")["blocks"] = [{"factors": list(range(nfac)), "method": "planar"}]
    v = _check(doc)
    assert v.status == "invalid" and "at most 2" in v.message, v.message


@pytest.mark.parametrize("name", sorted(n for n in CASES if n.startswith("graph-")))
def test_graphic_counts_are_the_acyclic_orientations(name):
    pb = CASES[name]
    edges = [tuple(sorted((a["key"].index(1), a["key"].index(-1))))
             for h in pb["heads"] for a in h["atoms"][:1]]
    assert _check(certificate(name)).lower_bound == _acyclic_orientations(pb["dim"], edges)


# -- planar blocks: the checker's own hulls ---------------------------------------------------

PLANAR = {
    # segments in five directions: a decagon
    "segments": _problem(2, *(_sig(1, k) for k in range(1, 6))),
    # a pentagon with an interior key, plus a segment parallel to one of its edges
    "pentagon": _problem(2, _points((0, 0), (3, 0), (4, 2), (2, 4), (0, 3), (1, 1)), _sig(1, 2)),
    # two quadrilaterals with parallel edges at different heights
    "quadrilaterals": _problem(2, _points((0, 0), (3, 0), (2, 2), (0, 1)),
                               _points((0, 0), (2, 0), (3, 1), (1, 1))),
    # collinear keys and a point-like head beside a triangle
    "collinear": _problem(2, _points((0, 0), (1, 0), (3, 0)), _points((0, 0), (0, 2), (1, 1))),
    # edges whose primitive directions need the gcd of both differences (not of sums)
    "negative": _problem(2, _points((2, 3), (-3, -2)), _points((-1, 3), (-3, 3)),
                         _points((0, 1), (2, 0), (2, 3), (0, 0))),
    "triangles-a": _problem(2, _points((2, 0), (2, 3), (0, 4)), _points((3, 0), (3, 2), (0, 1))),
    "triangles-b": _problem(2, _points((1, 0), (2, 2), (0, 0)), _points((2, 0), (0, 2), (3, 4))),
}


@pytest.mark.parametrize("name", sorted(PLANAR))
def test_planar_blocks_count_the_vertices_of_the_sum(name):
    """The same bound factors counted as one ``planar`` block: the checker's hulls must find
    exactly the vertices of ``Σ_h Newt(D_h)`` (an independent brute-force count; here every
    head denominator is one bound factor or the reduced denominator is their product)."""
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_from_dict
    import sys
    if str(ROOT / "tests") not in sys.path:
        sys.path.insert(0, str(ROOT / "tests"))
    from independent_count import brute_force_vertices
    pb = PLANAR[name]
    doc = json.loads(build_certificate(problem_from_dict(pb)).text)
    keys = [[tuple(int(x) for x in a["key"]) for a in h["atoms"]] for h in pb["heads"]]
    truth = brute_force_vertices(keys)
    step = _step(doc, "newton_blocks")
    nfac = sum(1 for s in doc["steps"] if s["rule"] in ("irreducible_factor", "reduced_by_flint"))
    step["blocks"] = [{"factors": list(range(nfac)), "method": "planar"}]
    c = doc["claims"]
    c.update(lower_bound=truth, minimum=truth if truth == c["upper_bound"] else None)
    v = _check(doc)
    assert v.status == "valid" and v.lower_bound == truth, v.message
    c.update(lower_bound=truth + 1, upper_bound=max(truth + 1, c["upper_bound"]), minimum=None)
    assert _check(doc).status == "invalid"


def test_a_planar_block_with_an_unknown_field_is_rejected():
    doc = certificate("binomial")
    _step(doc, "newton_blocks")["blocks"] = [{"factors": [0, 1], "method": "planar",
                                             "vertices": []}]
    v = _check(doc)
    assert v.status == "invalid" and "unknown field" in v.message, v.message


def test_a_large_chordal_block_is_counted_by_its_elimination_order():
    """A fan (a path on 17 nodes and a hub joined to all): chordal, biconnected, neither
    complete nor a cycle, and past the 16 nodes of the general recurrence.  Its chromatic
    polynomial is k (k - 1) (k - 2)^16, so it has 2·3^16 acyclic orientations."""
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_from_dict
    edges = [(i, i + 1) for i in range(16)] + [(i, 17) for i in range(17)]
    cert = build_certificate(problem_from_dict(_graph(18, edges)), explicit_fusion_limit=0,
                             max_atoms=1)
    v = check_text(cert.text)
    assert v.status == "valid" and v.lower_bound == 2 * 3 ** 16, v.message


# -- general graphic blocks, certificates written out -----------------------------------------
#
# A graph sum's certificate in full (one linear factor x_a + x_b per edge, one graphic block,
# the product fusion) for graphs whose blocks are neither complete, cycles nor chordal, so that
# the checker counts them by its general subset recurrence; the true count comes from the
# chromatic polynomial (|χ_G(-1)|) or from brute force, independently of the checker.

def _graph_problem(n: int, edges: list) -> dict:
    heads = []
    for a, b in edges:
        key = [1 if j == a else -1 if j == b else 0 for j in range(n)]
        heads.append({"atoms": [{"key": key, "value": 1}, {"key": [0] * n, "value": 0}]})
    return {"format": "attnproof-problem", "version": 1, "dim": n, "heads": heads}


def _graph_certificate(n: int, edges: list, lower: int) -> str:
    """``σ(q_a - q_b) = x_a / (x_a + x_b)``: one factor per edge, then one graphic block."""
    pb = _graph_problem(n, edges)
    head = {tuple(sorted(e)): h for h, e in enumerate(edges)}
    steps = [{"rule": "irreducible_factor", "poly": [[1, [[a, 1]]], [1, [[b, 1]]]],
              "witness": {"kind": "linear", "var": a}, "heads": [[head[a, b], 1]],
              "residue_component": 0}
             for a, b in sorted(head)]
    steps.sort(key=lambda s: canonical_json(s["poly"]))   # factors in the order of their text
    steps.append({"rule": "newton_blocks", "blocks": [
        {"factors": list(range(len(edges))), "method": "zonotope_graphic",
         "graph_blocks": graph_hint(edges)}]})
    steps.append({"rule": "product_fusion"})
    upper = 2 ** len(edges)
    doc = {"format": "attnproof-certificate", "version": 1, "trust": "exact", "problem": pb,
           "problem_sha256": hashlib.sha256(canonical_json(pb).encode()).hexdigest(),
           "claims": {"lower_bound": lower, "upper_bound": upper,
                      "minimum": lower if lower == upper else None,
                      "window_refutations": []},
           "steps": steps}
    return canonical_json(doc)


def _k2(m: int) -> tuple[int, list, int]:
    """``K_{2,m}``: ``χ(k) = k (k-1)^m + k (k-1) (k-2)^m``, so ``|χ(-1)| = |2·(-3)^m - (-2)^m|``."""
    edges = [(i, 2 + j) for i in range(2) for j in range(m)]
    return 2 + m, edges, abs(2 * (-3) ** m - (-2) ** m)


GENERAL_GRAPHS = {
    # two triangles on a 4-cycle's diagonal, and a pendant path: its general block has
    # components that the recurrence splits (a wrong component finder gives 36, not 42)
    "kite": (5, [(0, 2), (0, 4), (1, 3), (1, 4), (2, 3), (2, 4)]),
    # an 11-cycle with a chord: two cycles sharing an edge, biconnected, not chordal
    "cycle-chord": (11, [(i, (i + 1) % 11) for i in range(11)] + [(0, 5)]),
}


def _general_truth(name: str) -> int:
    n, edges = GENERAL_GRAPHS[name]
    if len(edges) <= 8:
        return _acyclic_orientations(n, edges)
    # two cycles sharing an edge (the chord): χ = χ(C_6)·χ(C_7) / (k (k - 1)), where
    # χ(C_l)(k) = (k - 1)^l + (-1)^l (k - 1)
    chi = [(-2) ** ln + (-1) ** ln * (-2) for ln in (6, 7)]
    return abs(chi[0] * chi[1] // 2)


@pytest.mark.parametrize("name", sorted(GENERAL_GRAPHS))
def test_general_blocks_count_the_acyclic_orientations(name):
    n, edges = GENERAL_GRAPHS[name]
    truth = _general_truth(name)
    v = check_text(_graph_certificate(n, edges, truth))
    assert v.status == "valid" and v.lower_bound == truth, v.message
    v = check_text(_graph_certificate(n, edges, truth + 1))
    assert v.status == "invalid", v.message


def test_a_large_independent_set_is_counted():
    """``K_{2,11}``: the recurrence enumerates 2^11 independent sets of one subset, past the
    4096 steps after which it charges its work in batches (more work than the default
    budget of so small a file allows: the budget is given)."""
    n, edges, truth = _k2(11)
    v = check_text(_graph_certificate(n, edges, truth), work=10 ** 7)
    assert v.status == "valid" and v.lower_bound == truth, v.message
    v = check_text(_graph_certificate(n, edges, truth - 1), work=10 ** 7)
    assert v.status == "invalid", v.message


# The work of the general recurrence: one unit per enumeration step (docs/certificates.md
# §8).  A step that stops being charged, or is charged twice, changes these numbers.
GENERAL_WORK = {
    'kite': 1268,
    'cycle-chord': 28819,
    'k2-11': 1137548,
}


def test_work_of_general_blocks():
    got = {}
    for name, (n, edges) in GENERAL_GRAPHS.items():
        v = check_text(_graph_certificate(n, edges, _general_truth(name)))
        assert v.status == "valid", v.message
        got[name] = v.work
    n, edges, truth = _k2(11)
    got["k2-11"] = check_text(_graph_certificate(n, edges, truth), work=10 ** 7).work
    assert got == GENERAL_WORK, "the work changed; if on purpose, GENERAL_WORK = " + repr(got)


# -- every object of a step has a fixed set of fields ------------------------------------------

def _objects(step: dict):
    """The step and the objects inside it that the checker reads with a fixed field set."""
    yield step
    for blk in step.get("blocks", []) if isinstance(step.get("blocks"), list) else []:
        yield blk
    for key in ("window", "witness", "head"):
        if isinstance(step.get(key), dict):
            yield step[key]


@pytest.mark.parametrize("name", ["k3-window", "k3-lines", "sub-sum", "non-constant", "k3",
                                  "flint", "geom-chain", "geom-direct", "geom-partial",
                                  "geom-triangles", "geom-indecomposable", "geom-planar",
                                  "binomial", "trinomial", "simplex-block", "graph-house",
                                  "w3-explicit", "points-window"])
def test_an_unknown_field_is_rejected_in_every_step(name):
    """Each step, block, window, witness and fused head, given one field more, is invalid:
    a field the checker does not know is never silently ignored."""
    if name == "points-window":
        doc = _with_window({"kind": "points", "points": [[0, 0, 0], [1, -1, 0]]})
    else:
        doc = _golden(name) if (GOLDEN / f"{name}.json").exists() else certificate(name)
    seen = 0
    for i, step in enumerate(doc["steps"]):
        for j, _ in enumerate(_objects(step)):
            bad = json.loads(json.dumps(doc))
            target = list(_objects(bad["steps"][i]))[j]
            target["zz_unknown"] = 1
            v = _check(bad)
            assert v.status == "invalid" and "unknown field" in v.message, (i, j, v.message)
            seen += 1
    assert seen >= len(doc["steps"])


def test_a_window_refutation_of_one_atom_is_read():
    """A refutation of one atom is a well-formed step (atoms >= 1): the bounds are verified
    and the refutation is left to the replay."""
    doc = _golden("k3-window")
    _step(doc, "window_refutation")["atoms"] = 1
    for c in doc["claims"]["window_refutations"]:
        c["atoms"] = 1
    v = _check(doc)
    assert v.status == "inconclusive" and v.bounds_verified, v.message


# The work each kill-test certificate costs: the charges of the rules that no golden
# certificate reaches (planar blocks and planar_vertices, general and chordal graph blocks,
# geometry chains and classes).  When the charges change on purpose, the assertion prints the
# new table.
KILL_WORK = {
    'biased': 967,
    'binomial': 540,
    'constant-pair': 302,
    'cycle': 2466,
    'general-position': 1431,
    'graph-bowtie': 3880,
    'graph-diamond': 2195,
    'graph-house': 4226,
    'graph-k23': 4626,
    'graph-wheel': 10950,
    'graphic-ground': 1339,
    'simplex-block': 483,
    'sparse-simplex': 391,
    'trinomial': 468,
    'two-blocks': 1306,
    'vector': 597,
    'geom-biased-class': 1378,
    'geom-chain': 1588,
    'geom-direct': 989,
    'geom-planar': 894,
    'geom-planar-huge': 1359,
    'geom-pyramid': 1142,
    'geom-pyramid-triangle': 1733,
    'geom-simplices': 1141,
    'geom-translates': 1773,
}


def test_work_of_the_kill_certificates():
    got = {}
    for name in ALL:
        doc = certificate(name)
        got[name] = _check(doc).work
    assert got == KILL_WORK, "the work changed; if on purpose, KILL_WORK = " + repr(got)


# -- line refutations: the shape of the step ----------------------------------------------------

@pytest.mark.parametrize("change", [
    {"directions": []},
    {"directions": "x"},
    {"directions": [[0, 1, -1], 5, [1, 0, -1]]},
    {"directions": [[0, 1, -1], [0, 1, -1], [1, 0, -1]]},
    {"coefficients": 5},
    {"coefficients": [1, 1]},
    {"coefficients": [0, 1, 1]},
    {"coefficients": [1, -1, 1]},
    {"multiplicities": "x"},
    {"multiplicities": [0, 1, 1]},
    {"multiplicities": [1, 1]},
    {"newton_factors": "x"},
    {"newton_factors": 5},
    {"newton_factors": [[0]]},
    {"newton_factors": [[0, 1, 2]]},
    {"newton_factors": [5]},
    {"newton_factors": [[-1, 1]]},
    {"newton_factors": [[0, 1]] * 50},
])
def test_malformed_line_refutations_are_rejected(change):
    """Each field of a line refutation, made malformed, makes the certificate invalid (never
    a crash, never accepted)."""
    doc = _golden("k3-lines")
    _step(doc, "line_refutation").update(change)
    v = _check(doc)
    assert v.status == "invalid", v.message


# -- chordality: the elimination order is tested against each vertex's earliest later neighbour

MCS_TRAP = [(0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (1, 2), (1, 3), (1, 5), (2, 3), (2, 4),
            (2, 5), (3, 4), (4, 5), (4, 6)]


def test_a_non_chordal_graph_is_not_counted_as_chordal():
    """Not chordal (0-3-1-5-0 is a chordless 4-cycle), yet maximum cardinality search orders
    it so that a test of each vertex's later neighbours against the neighbour with the
    smallest *label* (not the earliest in the order) passes: the checker would then count it
    by the chordal product formula.  The count must be the acyclic orientations."""
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_from_dict
    doc = build_certificate(problem_from_dict(_graph(7, MCS_TRAP))).doc
    v = _check(doc)
    assert v.status == "valid" and v.lower_bound == _acyclic_orientations(7, MCS_TRAP), v.message


def test_a_fusion_whose_heads_cancel_across_denominators_is_verified():
    """x/(1+x) + 2/(2+2x) = 1: neither head's denominator divides the fusion's (1), nor
    its numerator, so the identity is checked by clearing both denominators,
    ``N*·D_1·D_2 = D*·(N_1·D_2 + N_2·D_1)``; a product started at 2, or the wrong heads
    left out of a term, breaks it."""
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_from_dict
    pb = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
        {"atoms": [{"key": [1], "value": 1}, {"key": [0], "value": 0}]},
        {"atoms": [{"key": [0], "value": 1, "weight": 2}, {"key": [1], "value": 0, "weight": 2}]}]}
    doc = build_certificate(problem_from_dict(pb)).doc
    assert [s["rule"] for s in doc["steps"]] == ["newton_blocks", "explicit_fusion"]
    v = _check(doc)
    assert v.status == "valid" and v.minimum == 1, v.message
