"""Kill tests for the geometry rules (``attnproof/checker/rules/geometry.py``,
docs/certificates.md §6.7-6.10): ``indecomposable_chain``, ``generic_heads``,
``minkowski_vertices`` and ``direct_sum``.

Each test starts from a certificate whose verdict is known -- the producer's own for a
small problem, or one written out by hand where the producer takes another route -- and
either checks it whole or changes one field; a weakened rule accepts the change, or
charges a different amount of work than the budget of docs/certificates.md §8 says.
"""

from __future__ import annotations

import copy
import hashlib
import json

import pytest

from attnproof.checker import check_text
from attnproof.io import canonical_json

def _points(*keys, values=None):
    """A head with one atom per key, values 0, 1, 2, ... (all keys vertices)."""
    vals = values or list(range(len(keys)))
    return {"atoms": [{"key": list(k), "value": v} for k, v in zip(keys, vals)]}


def _sparse(*entries):
    """A head with sparse keys ``{variable: exponent}``."""
    return {"atoms": [{"key": {str(j): x for j, x in k.items()}, "value": v} for k, v in entries]}


def _problem(dim, *heads):
    return {"format": "attnproof-problem", "version": 1, "dim": dim, "heads": list(heads)}


def _rehash(doc: dict) -> dict:
    doc["problem_sha256"] = hashlib.sha256(canonical_json(doc["problem"]).encode()).hexdigest()
    return doc


def _check(doc: dict, work: int | None = None):
    return check_text(canonical_json(doc), work=work)


def _step(doc: dict, rule: str) -> dict:
    return next(s for s in doc["steps"] if s["rule"] == rule)


PROBLEMS = {
    # a square pyramid with a point on a base edge beside a triangle: Gordan multipliers
    # on both factors in the vertex enumeration
    "pyramid-triangle": _problem(3, _points((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 2, 0),
                                            (2, 2, 0), (1, 1, 1)),
                                 _points((0, 0, 0), (1, 0, 0), (0, 0, 1))),
    # a simplex of 33 points in 32 variables (sparse keys 0, e_0, ..., e_31): its packed
    # rank test works on rows of 32 entries, one word and one more per row
    # a square pyramid with a point on a base edge alone: a direct sum of one factor, with
    # integer relations, vertices and a non-vertex
    "pyramid": _problem(3, _points((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 2, 0), (2, 2, 0),
                                   (1, 1, 1))),
    "wide-simplex": _problem(32, _sparse(({}, 0), *(({i: 1}, i + 1) for i in range(32)))),
    # the pyramid with one value of 1951 bits (30 words beyond the first): generic_heads
    # charges its sum (1 + 0 + 0)·(2 + 30 + 0) // 32 = 1 unit, the one unit that tells a
    # divisor of 32 from one of 33
    "pyramid-long-value": _problem(3, _points((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 2, 0),
                                              (2, 2, 0), (1, 1, 1),
                                              values=[0, 1, 2, 3, 4, 2 ** 1950])),
}

_CERTS: dict = {}


def certificate(name: str) -> dict:
    """The producer's geometry certificate for ``PROBLEMS[name]`` (a fresh copy each time)."""
    if name not in _CERTS:
        from attnproof.certificate.geometry_steps import geometry_certificate
        from attnproof.io import problem_from_dict
        _CERTS[name] = canonical_json(geometry_certificate(problem_from_dict(PROBLEMS[name])).doc)
    return json.loads(_CERTS[name])


@pytest.fixture
def doc(name) -> dict:
    """``certificate(name)``, made in the test's setup: the producer's time is not the time
    of the check (a mutation run limits the CPU time of a test's call, tests/conftest.py)."""
    return certificate(name)


@pytest.fixture(scope="module")
def docs() -> dict:
    return {name: certificate(name) for name in PROBLEMS}


# x1/(x0 + x1) + x0/(x0 + x1) = 1: two associate heads (one class) whose numerators sum to
# their denominator, so the class is constant and Q = 1 (minimum 1).  The producer proves
# it by a fusion alone; this certificate goes through generic_heads, which binds no factor.
CONSTANT_CLASS = _rehash({
    "format": "attnproof-certificate", "version": 1, "trust": "exact",
    "problem": _problem(2, _points((0, 1), (1, 0), values=[1, 0]),
                        _points((0, 1), (1, 0), values=[0, 1])),
    "claims": {"lower_bound": 1, "upper_bound": 1, "minimum": 1, "window_refutations": []},
    "steps": [{"rule": "indecomposable_chain", "head": 0, "kind": "simplex", "prime": 3},
              {"rule": "generic_heads", "classes": [[0, 1]]},
              {"rule": "newton_blocks", "blocks": []},
              {"rule": "explicit_fusion", "head": {"atoms": [{"key": [0, 0], "value": 1}]}}]})


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_producer_certificates_are_valid(name, doc):
    v = _check(doc)
    assert v.status == "valid", v.message
    c = doc["claims"]
    assert (v.lower_bound, v.upper_bound, v.minimum) == (c["lower_bound"], c["upper_bound"],
                                                        c["minimum"])


# -- generic_heads --------------------------------------------------------------------------

def test_a_constant_class_binds_no_factor():
    v = _check(CONSTANT_CLASS)
    assert v.status == "valid" and (v.lower_bound, v.minimum) == (1, 1), v.message


def test_generic_heads_is_one_step():
    """A second generic_heads step is rejected even when the first bound no factor (so
    that 'generic_heads replaces every other factor step' does not catch it): the rule
    remembers that it ran."""
    doc = copy.deepcopy(CONSTANT_CLASS)
    doc["steps"].insert(2, dict(_step(doc, "generic_heads")))
    v = _check(doc)
    assert v.status == "invalid" and "a second generic_heads step" in v.message, v.message


def test_classes_naming_more_heads_than_there_are_are_rejected():
    """Classes that name more heads than the problem's non-unit heads stop being read at
    once, and the step is rejected (it does not end quietly as if it were done)."""
    doc = copy.deepcopy(CONSTANT_CLASS)
    _step(doc, "generic_heads")["classes"] = [[0, 1], [2]]
    v = _check(doc)
    assert v.status == "invalid" and "the classes must partition the heads" in v.message, \
        v.message


# -- indecomposable_chain ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["pyramid"])
def test_a_head_has_one_chain_step(name, doc):
    """A second indecomposable_chain step for the same head is rejected: heads of chain
    steps strictly increase."""
    doc["steps"].insert(1, dict(_step(doc, "indecomposable_chain")))
    v = _check(doc)
    assert v.status == "invalid" and "strictly increasing by head" in v.message, v.message


# -- minkowski_vertices -----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["pyramid-triangle"])
def test_gordan_multipliers_name_no_negative_factor(name, doc):
    """A Gordan multiplier ``[factor, index, μ]`` names the factor by a non-negative index:
    ``-1`` (Python's last element) would read the prefix's last factor and pass for it."""
    step = _step(doc, "minkowski_vertices")
    prefix, mults = step["non_vertices"][0]
    assert len(prefix) == 2 and mults[-1][0] == 1       # the last factor of a full prefix
    mults.insert(0, [-1, *mults.pop()[1:]])             # first: -1 sorts before 0
    v = _check(doc)
    assert v.status == "invalid" and "factor: must be at least 0" in v.message, v.message


@pytest.mark.parametrize("name", ["pyramid-triangle"])
def test_point_non_vertices_has_one_list_per_factor(name, doc):
    """An extra list (past the last factor) is malformed, even an empty one that claims
    nothing: ``point_non_vertices`` has exactly one list per bound factor."""
    step = _step(doc, "minkowski_vertices")
    step["point_non_vertices"].append([])
    v = _check(doc)
    assert v.status == "invalid" and "one list per factor" in v.message, v.message


@pytest.mark.parametrize("name", ["pyramid-triangle"])
def test_gordan_multipliers_are_positive(name, doc):
    """``μ = 0`` everywhere makes ``Σ μ (a_h - a') = 0`` hold for any prefix, a vertex's
    too: a Gordan multiplier is at least 1."""
    step = _step(doc, "minkowski_vertices")
    for m in step["non_vertices"][0][1]:
        m[2] = 0
    v = _check(doc)
    assert v.status == "invalid" and "non-vertex 0: μ: must be at least 1" in v.message, \
        v.message


# -- direct_sum ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["pyramid"])
def test_a_relation_names_its_field(name, doc):
    """``δ = 0`` makes every relation ``0 = Σ λ_i (p_i - p_0)`` hold with ``λ = 0``: it is
    rejected, and the message names the field."""
    rel = _step(doc, "direct_sum")["factors"][0]["relations"][0]
    rel[1], rel[2] = 0, [0] * len(rel[2])
    v = _check(doc)
    assert v.status == "invalid" and "relation 0: δ: must be at least 1" in v.message, v.message


@pytest.mark.parametrize("name", ["pyramid"])
def test_a_point_non_vertex_is_listed_once(name, doc):
    """The same non-vertex twice is rejected (indices strictly increase), although the set
    of points it proves would not change."""
    nv = _step(doc, "direct_sum")["factors"][0]["non_vertices"]
    nv.append(copy.deepcopy(nv[-1]))
    v = _check(doc)
    assert v.status == "invalid" and "non_vertices 1: indices must be strictly increasing" \
        in v.message, v.message


@pytest.mark.parametrize("name", ["pyramid"])
@pytest.mark.parametrize("field, change, said", [
    ("non_vertices", lambda f: f["non_vertices"][0].__setitem__(0, -1),
     "factor 0: non_vertices 0: index: must be at least 0"),
    ("relations", lambda f: f["relations"][0].__setitem__(0, -1),
     "factor 0, relation 0: point: must be at least 0"),
    ("vertices", lambda f: f["vertices"][0].__setitem__(0, -1),
     "factor 0, vertex 0: index: must be at least 0"),
    ("extra", lambda f: f.__setitem__("extra", []), "factor 0: unknown field 'extra'"),
], ids=["non-vertex", "relation", "vertex", "field"])
def test_a_direct_sum_factor_names_the_bad_field(name, doc, field, change, said):
    """A negative point index (Python's last point) and an unknown field of a factor entry
    are rejected, by a message that names the factor and the field."""
    change(_step(doc, "direct_sum")["factors"][0])
    v = _check(doc)
    assert v.status == "invalid" and said in v.message, v.message


# -- the work budget --------------------------------------------------------------------------

# The work of each producer certificate above (docs/certificates.md §8).  A simplex in 32
# variables is charged its packed rank test at two words a row, in indecomposable_chain and
# again in direct_sum.  When the charges change on purpose, the assertion prints the new table.
WORK = {
    'pyramid': 1142,
    'pyramid-long-value': 1467,
    'pyramid-triangle': 1733,
    'wide-simplex': 12473,
}


def test_work_of_the_geometry_kill_certificates(docs):
    got = {name: _check(docs[name]).work for name in sorted(PROBLEMS)}
    assert got == WORK, "the work changed; if on purpose, WORK = " + repr(got)


@pytest.mark.parametrize("name", ["wide-simplex"])
def test_the_budget_decides_a_wide_simplex(name, doc):
    """Given exactly its work, the wide simplex is valid; one unit less, inconclusive."""
    need = WORK[name]
    assert _check(doc, work=need).status == "valid"
    v = _check(doc, work=need - 1)
    assert v.status == "inconclusive", v.message


def test_dense_points_charges_before_it_allocates():
    """``dense_points`` charges ``(|f| + 1)·(|vs| + 1)`` before any point is made, under the
    name it is given (the message of a budget that runs out says where)."""
    from attnproof.checker.rules.geometry import dense_points
    from attnproof.checker.rules.state import State
    from attnproof.checker.syntax import Budget, Unsupported

    f = {((0, 1),): 1, ((1, 2), (2, 5)): 1, (): 3}          # three terms, z (index 2) dropped
    st = State(None, Budget(None))
    assert dense_points(f, 2, [0, 1], st, "here") == [(0, 0), (0, 2), (1, 0)]
    assert st.budget.used == 4 * 3
    st = State(None, Budget(11))
    with pytest.raises(Unsupported, match="^a head's points: the check needs more than 11 "):
        dense_points(f, 2, [0, 1], st, "a head's points")


# The name of the last charge of each geometry step of the certificates above (the step's
# own, or one of its parts'): where a budget that ends there says it ran out.
LAST_CHARGE = {"pyramid": ["step 0 (indecomposable_chain): non_vertices 0",
                           "step 1 (generic_heads): evaluating at a point", "step 2 (direct_sum)"],
               "pyramid-long-value": ["step 0 (indecomposable_chain): non_vertices 0",
                                      "step 1 (generic_heads): evaluating at a point",
                                      "step 2 (direct_sum)"],
               "pyramid-triangle": ["step 0 (indecomposable_chain): non_vertices 0",
                                    "step 1 (indecomposable_chain)",
                                    "step 2 (generic_heads): evaluating at a point",
                                    "step 3 (minkowski_vertices)"],
               "wide-simplex": ["step 0 (indecomposable_chain): the difference lattice",
                                "step 1 (generic_heads): evaluating at a point",
                                "step 2 (direct_sum)"]}


def _last_charges(doc: dict) -> list:
    rules = ("indecomposable_chain", "generic_heads", "minkowski_vertices", "direct_sum")
    out = []
    for k, step in enumerate(doc["steps"]):
        if step["rule"] not in rules:
            continue
        cut = dict(doc, steps=doc["steps"][:k + 1])
        done = _check(cut)
        assert done.status == "invalid" and "needs a newton_blocks step" in done.message
        v = _check(cut, work=done.work - 1)
        head, sep, tail = v.message.partition(": the check needs more than ")
        assert v.status == "inconclusive" and sep and tail.startswith(f"{done.work - 1} "), v.message
        out.append(head.removeprefix("inconclusive: "))
    return out


def test_a_budget_that_runs_out_in_a_step_names_the_step(docs):
    """Cut after each geometry step, a certificate is invalid (no upper bound) once the step
    is done; with one unit of work less than that, the step's last charge runs out, and the
    verdict names the step (once) and the part of it that was charged."""
    got = {name: _last_charges(docs[name]) for name in sorted(PROBLEMS)}
    assert got == LAST_CHARGE, "LAST_CHARGE = " + repr(got)


# -- one field more or less ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["pyramid"])
@pytest.mark.parametrize("change, said", [
    (lambda s: s["triangles"][0].append([]), "triangle 0: expected [[a, b, c], functional]"),
    (lambda s: s["triangles"].insert(1, copy.deepcopy(s["triangles"][0])),
     "triangle 1: triangles must be strictly increasing"),
    (lambda s: s["non_vertices"][0][1].append([6, 1]),
     "non_vertices 0: indices must be strictly increasing, existing and not the point itself"),
], ids=["triangle-of-three", "triangle-twice", "multiplier-past-the-end"])
def test_a_chain_names_the_bad_entry(name, doc, change, said):
    """A triangle is exactly ``[[a, b, c], functional]`` and strictly after the one before
    (the same triangle twice is rejected); a multiplier names an existing point (index
    ``n`` is one past the last)."""
    change(_step(doc, "indecomposable_chain"))
    v = _check(doc)
    assert v.status == "invalid" and said in v.message, v.message


@pytest.mark.parametrize("name", ["pyramid-triangle"])
def test_a_gordan_multiplier_is_a_triple(name, doc):
    """``[factor, index]`` without its μ is malformed, said so (not read past its end)."""
    step = _step(doc, "minkowski_vertices")
    step["non_vertices"][0][1][0].pop()
    v = _check(doc)
    assert v.status == "invalid" and "non-vertex 0: expected [factor, index, μ]" \
        in v.message, v.message


@pytest.mark.parametrize("name", ["pyramid-triangle"])
def test_a_partial_vertex_count_is_not_complete(name, doc):
    """``complete: false`` with some vertices listed proves a lower bound only: the verdict
    says the count is partial."""
    step = _step(doc, "minkowski_vertices")
    step["complete"], step["non_vertices"] = False, []
    step["point_non_vertices"] = [[] for _ in step["point_non_vertices"]]
    del step["vertices"][1:]
    doc["claims"]["lower_bound"] = 1
    doc["claims"]["minimum"] = None
    v = _check(doc)
    assert v.status == "valid" and v.complete is False and v.lower_bound == 1, v.message
    assert "the vertex count is partial" in v.message, v.message


@pytest.mark.parametrize("name", ["pyramid", "wide-simplex"])
def test_a_direct_sum_count_is_complete(name, doc):
    v = _check(doc)
    assert v.status == "valid" and v.complete is True, v.message
    assert "partial" not in v.message, v.message


@pytest.mark.parametrize("name", ["wide-simplex"])
@pytest.mark.parametrize("field", ["vertices", "non_vertices"])
def test_a_simplex_factor_lists_no_vertices(name, doc, field):
    """A simplex factor (every point in the basis) lists neither vertices nor non-vertices:
    one list filled in, the other empty, is rejected."""
    ent = _step(doc, "direct_sum")["factors"][0]
    assert ent["vertices"] == [] and ent["non_vertices"] == []
    ent[field] = [[0, [0] * 32]] if field == "vertices" else [[0, [[1, 1]]]]
    v = _check(doc)
    assert v.status == "invalid" and "a simplex factor lists no vertices" in v.message, \
        v.message


@pytest.mark.parametrize("name", ["pyramid"])
@pytest.mark.parametrize("value, said", [(0, "factor 0: basis: must be at least 1"),
                                         ("1", "factor 0: basis: expected an integer")],
                         ids=["zero", "string"])
def test_a_basis_index_names_its_field(name, doc, value, said):
    """Point 0 is the origin of the differences, not a basis point; a basis index is an
    integer, and the message names the factor and the field."""
    _step(doc, "direct_sum")["factors"][0]["basis"][0] = value
    v = _check(doc)
    assert v.status == "invalid" and said in v.message, v.message


# Three heads x0 + x1 with numerators x1, x0 and x1: three classes of one normalized form,
# named as three classes (each with its chain step).  The first two are associates.
THREE_ASSOCIATES = _rehash({
    "format": "attnproof-certificate", "version": 1, "trust": "exact",
    "problem": _problem(2, *[_points((0, 1), (1, 0), values=v)
                             for v in ([1, 0], [0, 1], [1, 0])]),
    "claims": {"lower_bound": 1, "upper_bound": 1, "minimum": 1, "window_refutations": []},
    "steps": [*[{"rule": "indecomposable_chain", "head": h, "kind": "simplex", "prime": 3}
                for h in range(3)],
              {"rule": "generic_heads", "classes": [[0], [1], [2]]},
              {"rule": "newton_blocks", "blocks": []},
              {"rule": "explicit_fusion", "head": {"atoms": [{"key": [0, 0], "value": 1}]}}]})


def test_three_classes_of_one_form_are_associates():
    """Of three representatives with the same normalized form, the first two are compared
    (and found associates): the classes are rejected by name."""
    v = _check(THREE_ASSOCIATES)
    assert v.status == "invalid" and "the denominators of heads 0 and 1 are associates" \
        in v.message, v.message


# CONSTANT_CLASS with the second head's atoms of weight 2^400: its denominator is
# q·D_0 with q = 2^400 (6 words beyond the first), and its numerator's term 2^400·x0 is
# added to the class's sum at the charge (1 + 0 + 6)·(2 + 6 + 6) // 32 = 3 units.
HEAVY_CLASS = copy.deepcopy(CONSTANT_CLASS)
for _atom in HEAVY_CLASS["problem"]["heads"][1]["atoms"]:
    _atom["weight"] = 2 ** 400
_rehash(HEAVY_CLASS)


def test_a_heavy_unit_is_charged_its_words():
    """The class sum divides each numerator term by the head's unit q and is charged the
    words of q in both factors: the work of the whole check is pinned."""
    v = _check(HEAVY_CLASS)
    assert v.status == "valid" and (v.lower_bound, v.minimum) == (1, 1), v.message
    assert v.work == 836, v.work


# Two simplices, (0,0), (2,0), (0,2) and (0,0), (1,0), (0,1): the first has edge content
# 2 (indecomposable only), so two non-constant classes need width functionals.  The zero
# functional gives both the widths (0,): no certificate of non-homothety.
ZERO_WIDTHS = _rehash({
    "format": "attnproof-certificate", "version": 1, "trust": "exact",
    "problem": _problem(2, _points((0, 0), (2, 0), (0, 2)), _points((0, 0), (1, 0), (0, 1))),
    "claims": {"lower_bound": 1, "upper_bound": 9, "minimum": None, "window_refutations": []},
    "steps": [*[{"rule": "indecomposable_chain", "head": h, "kind": "simplex", "prime": 3}
                for h in range(2)],
              {"rule": "generic_heads", "classes": [[0], [1]], "width_functionals": [[0, 0]]}]})


def test_widths_that_are_all_zero_separate_nothing():
    """Widths all zero stay all zero (no division by their gcd 0) and are equal for the
    two heads: rejected, by name."""
    v = _check(ZERO_WIDTHS)
    assert v.status == "invalid" and "heads 0 and 1 have proportional widths" in v.message, \
        v.message


# One head in one variable with a bias: at x^0 the denominator 1 + z over 1 - z, at x^1
# (1 + z)(1 + z + z²) = 1 + 2z + 2z² + z³ over (1 - z)(1 + z + z²) = 1 - z³.  The head is
# the constant (1 - z)/(1 + z) of K: a constant class, bound as no factor.  The exact
# comparison of x^1 with x^0 multiplies 1 - z³ by 1 + z (no z² term) and 1 - z by
# 1 + 2z + 2z² + z³ (a z² term that cancels).
CANCELLING_CLASS = _rehash({
    "format": "attnproof-certificate", "version": 1, "trust": "exact",
    "problem": _problem(1, {"atoms": [
        {"key": [0], "value": 1}, {"key": [0], "bias": 1, "value": -1},
        {"key": [1], "value": 1}, {"key": [1], "bias": 1, "weight": 2, "value": 0},
        {"key": [1], "bias": 2, "weight": 2, "value": 0},
        {"key": [1], "bias": 3, "value": -1}]}),
    "claims": {"lower_bound": 1, "upper_bound": 1, "minimum": 1, "window_refutations": []},
    "steps": [{"rule": "indecomposable_chain", "head": 0, "kind": "simplex", "prime": 3},
              {"rule": "generic_heads", "classes": [[0]]},
              {"rule": "newton_blocks", "blocks": []},
              {"rule": "explicit_fusion", "head": {"atoms": [
                  {"key": [0], "value": 1}, {"key": [0], "bias": 1, "value": -1}]}}]})


def test_a_class_constant_in_x_with_cancelling_products():
    v = _check(CANCELLING_CLASS)
    assert v.status == "valid" and (v.lower_bound, v.minimum) == (1, 1), v.message
