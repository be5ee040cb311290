"""Kill tests for the ``newton_blocks`` rule (``attnproof/checker/rules/newton.py``).

A ``vertices`` block lists, per vertex of ``Newt_x(R)``, the vertex ``u`` and a functional
``c`` that selects it (THEORY Lemma 6), both with one entry per variable of the block.  An
entry of another shape proves nothing about the listed vertex: a coordinate more than
the block has is never compared, a third list never read.  The tests forge such entries in
the producer's own certificate of a triangle (three vertices, the true count) and in one
whose vertex list claims a fourth, false, vertex through the extra coordinate.
"""

from __future__ import annotations

import json

import pytest

from attnproof.checker import check_text
from attnproof.io import canonical_json

# 1 + x0^2·x1 + x0·x1^3 (irreducible, an affinely independent support): a triangle, whose
# producer certificate lists its three vertices
TRIANGLE = {"format": "attnproof-problem", "version": 1, "dim": 2,
            "heads": [{"atoms": [{"key": [0, 0], "value": 0}, {"key": [2, 1], "value": 1},
                                 {"key": [1, 3], "value": 2}]}]}


def _triangle() -> dict:
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_from_dict
    return json.loads(canonical_json(build_certificate(problem_from_dict(TRIANGLE)).doc))


def _vertices(doc: dict) -> list:
    step = next(s for s in doc["steps"] if s["rule"] == "newton_blocks")
    (blk,) = step["blocks"]
    assert blk["method"] == "vertices"
    return blk["vertices"]


def _check(doc: dict):
    return check_text(canonical_json(doc))


def test_the_triangle_certificate_lists_three_vertices():
    doc = _triangle()
    assert len(_vertices(doc)) == 3
    v = _check(doc)
    assert v.status == "valid" and v.minimum == 3, v.message


@pytest.mark.parametrize("forge", [
    lambda u, c: [u, c, c],               # a third list of the right length
    lambda u, c: [u, c, u],
    lambda u, c: [u + [0], c],            # u with a coordinate more than the block has
    lambda u, c: [u, c + [0]],            # c with a coordinate more
    lambda u, c: [u + [0], c + [0]],
    lambda u, c: [u[:1], c],              # one coordinate fewer
    lambda u, c: [u, c[:1]],
    lambda u, c: [u],                     # u alone
    lambda u, c: u,                       # u alone, not in a list
    lambda u, c: 0,
], ids=["u-c-c", "u-c-u", "long-u", "long-c", "long-both", "short-u", "short-c", "u-only",
        "bare-u", "number"])
def test_a_vertex_entry_is_two_lists_of_one_entry_per_variable(forge):
    doc = _triangle()
    ents = _vertices(doc)
    ents[1] = forge(*ents[1])
    v = _check(doc)
    assert v.status == "invalid" and "vertex 1: expected [u, c]" in v.message, v.message


def test_an_extra_coordinate_does_not_make_a_fourth_vertex():
    """A fourth entry that repeats the functional of the last vertex with its ``u`` extended
    (so that it sorts after it) would count 4 vertices of a triangle: a lower bound of 4
    for a problem that 3 atoms fuse."""
    doc = _triangle()
    ents = _vertices(doc)
    u, c = ents[-1]
    ents.append([u + [1], c])
    doc["claims"].update(lower_bound=4, upper_bound=4, minimum=4)
    v = _check(doc)
    assert v.status == "invalid" and "expected [u, c]" in v.message, v.message


def test_a_vertex_listed_twice_is_not_a_fourth_vertex():
    """The last vertex repeated claims 4 vertices of a triangle; vertices are strictly
    increasing, so the repeat is refused rather than counted."""
    doc = _triangle()
    ents = _vertices(doc)
    ents.append(json.loads(json.dumps(ents[-1])))
    doc["claims"].update(lower_bound=4, upper_bound=4, minimum=4)
    v = _check(doc)
    assert v.status == "invalid" and "strictly increasing" in v.message, v.message


def test_a_factor_listed_twice_in_a_block_is_refused_as_out_of_order():
    doc = _triangle()
    step = next(s for s in doc["steps"] if s["rule"] == "newton_blocks")
    step["blocks"][0]["factors"] = [0, 0]
    v = _check(doc)
    assert v.status == "invalid" and "factor indices must be strictly increasing" in v.message, \
        v.message
