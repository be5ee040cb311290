"""Minkowski sums in the plane: the producer's angular merge, the checker's hull
directions, and the certificates that use them (docs/certificates.md §6.3, §6.12)."""

from __future__ import annotations

import copy
import json
import random

import pytest

from attnproof.bounds.newton import newton_vertices
from attnproof.certificate import build_certificate
from attnproof.checker import check_document, check_text
from attnproof.checker.rules.planar import planar_count
from attnproof.families import float_multihead
from attnproof.geometry.planar import convex_hull, minkowski_polygon, planar_vertex_count
from attnproof.heads import Atom, Head, MultiHead


def _brute(sets) -> set:
    """Vertices of the sum from every sum of points (independent of both counts)."""
    summ = {(0, 0)}
    for p in sets:
        summ = {(a + x, b + y) for a, b in summ for x, y in p}
    found, complete = newton_vertices(sorted(summ))
    assert complete
    return {tuple(u) for u, _ in found}


@pytest.mark.parametrize("seed", range(4))
def test_both_counts_match_the_vertices_of_the_full_sum(seed):
    rng = random.Random(seed)
    for _ in range(60):
        sets = [[(rng.randint(-4, 4), rng.randint(-4, 4)) for _ in range(rng.randint(1, 5))]
                for _ in range(rng.randint(1, 4))]
        verts = _brute(sets)
        assert planar_count(sets) == planar_vertex_count(sets) == len(verts)
        assert set(minkowski_polygon((p, 1) for p in sets)) == verts


def test_degenerate_sums():
    assert planar_count([[(2, 3)], [(5, 5)]]) == planar_vertex_count([[(2, 3)], [(5, 5)]]) == 1
    line = [[(0, 0), (1, 1)], [(0, 0), (3, 3), (1, 1)]]
    assert planar_count(line) == planar_vertex_count(line) == 2
    assert convex_hull([(0, 0), (1, 0), (2, 0)]) == [(0, 0), (2, 0)]


def _sigmoids(H: int) -> MultiHead:
    """Σ_{k=1..H} σ(q1 + k·q2): a zonogon with 2H vertices."""
    return MultiHead(tuple(Head((Atom(key=(1, k), value=(1,)), Atom(key=(0, 0), value=(0,))))
                           for k in range(1, H + 1)))


def test_many_two_atom_heads_in_the_plane():
    # 300 generators: past the subset limit of general position in higher rank
    cert = build_certificate(_sigmoids(300))
    assert cert.lower_bound == 600
    v = check_text(cert.text)
    assert v.code == 0 and v.lower_bound == 600, v.message


def _triangles(H: int, seed: int) -> MultiHead:
    rng = random.Random(seed)
    heads = []
    for _ in range(H):
        a = (rng.randint(-9, 9), rng.randint(-9, 9))
        b = (rng.randint(-9, 9), rng.randint(-9, 9))
        heads.append(Head((Atom(key=a, value=(1,)), Atom(key=b, value=(2,)),
                           Atom(key=(0, 0), value=(0,)))))
    return MultiHead(tuple(heads))


def _blocks(doc):
    return [b for s in doc["steps"] if s["rule"] == "newton_blocks" for b in s["blocks"]]


def test_planar_block_of_trinomials_and_its_forgeries():
    M = _triangles(7, seed=3)               # 3^7 candidate tuples: past the listed size
    cert = build_certificate(M)
    assert [b["method"] for b in _blocks(cert.doc)] == ["planar"]
    pts = [[tuple(a.key) for a in h.atoms] for h in M.heads]
    assert cert.lower_bound == len(_brute(pts))
    assert check_document(copy.deepcopy(cert.doc)).code == 0
    # a larger claim is invalid
    bad = copy.deepcopy(cert.doc)
    bad["claims"]["lower_bound"] += 1
    assert check_document(bad).code == 1
    # a planar block carries no other field
    bad = copy.deepcopy(cert.doc)
    _blocks(bad)[0]["vertices"] = []
    assert check_document(bad).code == 1


def test_planar_block_needs_two_variables():
    M = MultiHead(tuple(Head((Atom(key=k, value=(1,)), Atom(key=(0, 0, 0), value=(0,)),
                              Atom(key=k2, value=(3,))))
                        for k, k2 in [((1, 0, 0), (0, 1, 0)), ((0, 0, 1), (1, 1, 0)),
                                      ((2, 0, 1), (0, 1, 2))]))
    cert = build_certificate(M)
    doc = copy.deepcopy(cert.doc)
    blocks = [s for s in doc["steps"] if s["rule"] == "newton_blocks"][0]["blocks"]
    blocks[:] = [{"factors": sorted(f for b in blocks for f in b["factors"]), "method": "planar"}]
    v = check_document(doc)
    assert v.code == 1 and "at most 2 x variables" in v.message, v.message


def test_float_heads_in_the_plane_use_planar_vertices():
    M = float_multihead(5, 3, 2, seed=4)
    cert = build_certificate(M)
    rules = [s["rule"] for s in cert.doc["steps"]]
    assert "planar_vertices" in rules and "minkowski_vertices" not in rules
    v = check_text(cert.text)
    assert v.code == 0 and v.lower_bound == cert.lower_bound, v.message
    # the count is the vertex count of the sum of the heads' key triangles, on the lattice
    from attnproof.algebra.lattice import Lattice
    lat = Lattice.of(M)
    pts = [[tuple(lat.exponent(a)[:2]) for a in h.atoms] for h in M.heads]
    assert cert.lower_bound == planar_vertex_count(pts)
    # the rule refuses a sum in three variables
    M3 = float_multihead(3, 3, 3, seed=4)
    doc = json.loads(build_certificate(M3).text)
    k = next(i for i, s in enumerate(doc["steps"]) if s["rule"] in ("minkowski_vertices",
                                                                  "direct_sum"))
    doc["steps"][k] = {"rule": "planar_vertices"}
    v = check_document(doc)
    assert v.code == 1 and "at most 2 x variables" in v.message, v.message


def test_the_upper_bound_says_when_the_fusion_was_not_built():
    cert = build_certificate(_sigmoids(1000))
    assert cert.lower_bound == 2000 and cert.upper_bound == 2 ** 1000
    assert "counted without building it" in cert.upper_note
    assert "--max-atoms" in cert.upper_note
    small = build_certificate(_sigmoids(3))
    assert small.upper_note is None and small.lower_bound == 6


def test_many_trinomial_heads_are_matched_by_a_side():
    # a trinomial factor is looked up among the heads by the direction of a side of its
    # triangle, as a binomial by its own direction: 150 heads stay well inside the budget
    M = _triangles(150, seed=5)
    cert = build_certificate(M)
    v = check_text(cert.text)
    assert v.code == 0, v.message
    assert [b["method"] for b in _blocks(cert.doc)][-1] == "planar"
    assert v.work < 0.2 * (500_000 + 16 * len(cert.text))      # 0.4 when every head was tried
