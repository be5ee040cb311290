"""Kill tests for the graphic count (``zonotope_graphic`` blocks, THEORY Lemma 7).

A graph sum ``Σ_{ab} σ(q_a - q_b)`` has as many vertices as its graph has acyclic
orientations.  The certificates here are written out in full (one linear factor
``x_a + x_b`` per edge, one graphic block, the product fusion) for graphs whose
blocks are neither complete, cycles nor chordal, so that the checker counts them by
its general subset recurrence; the true count comes from the chromatic polynomial
(``|χ_G(-1)|``) or from brute force, independently of the checker.
"""

from __future__ import annotations

import hashlib

import pytest

from attnproof.checker import check_text
from attnproof.io import canonical_json

MODES = pytest.mark.parametrize("reference", [False, True], ids=["fast", "reference"])


def _graph_problem(n: int, edges: list) -> dict:
    heads = []
    for a, b in edges:
        key = [1 if j == a else -1 if j == b else 0 for j in range(n)]
        heads.append({"atoms": [{"key": key, "value": 1}, {"key": [0] * n, "value": 0}]})
    return {"format": "attnproof-problem", "version": 1, "dim": n, "heads": heads}


def _certificate(n: int, edges: list, lower: int) -> str:
    """``σ(q_a - q_b) = x_a / (x_a + x_b)``: one factor per edge, then one graphic block."""
    pb = _graph_problem(n, edges)
    steps = [{"rule": "irreducible_factor", "poly": [[1, [[a, 1]]], [1, [[b, 1]]]],
              "witness": {"kind": "linear", "var": a}, "residue_component": 0}
             for a, b in sorted(tuple(sorted(e)) for e in edges)]
    steps.sort(key=lambda s: canonical_json(s["poly"]))   # factors in the order of their text
    steps.append({"rule": "newton_blocks", "blocks": [
        {"factors": list(range(len(edges))), "method": "zonotope_graphic"}]})
    steps.append({"rule": "product_fusion"})
    upper = 2 ** len(edges)
    doc = {"format": "attnproof-certificate", "version": 1, "trust": "exact", "problem": pb,
           "problem_sha256": hashlib.sha256(canonical_json(pb).encode()).hexdigest(),
           "claims": {"lower_bound": lower, "upper_bound": upper,
                      "minimum": lower if lower == upper else None,
                      "window_refutations": []},
           "steps": steps}
    return canonical_json(doc)


def _acyclic_orientations(n: int, edges: list) -> int:
    """By brute force: orientations with no directed cycle (peeling off sinks)."""
    total = 0
    for bits in range(1 << len(edges)):
        arcs = {(a, b) if bits >> i & 1 else (b, a) for i, (a, b) in enumerate(edges)}
        nodes = set(range(n))
        while nodes:
            sinks = {v for v in nodes if not any(a == v for a, _ in arcs)}
            if not sinks:
                break
            nodes -= sinks
            arcs = {(a, b) for a, b in arcs if b not in sinks}
        total += not nodes
    return total


def _k2(m: int) -> tuple[int, list, int]:
    """``K_{2,m}``: ``χ(k) = k (k-1)^m + k (k-1) (k-2)^m``, so ``|χ(-1)| = |2·(-3)^m - (-2)^m|``."""
    edges = [(i, 2 + j) for i in range(2) for j in range(m)]
    return 2 + m, edges, abs(2 * (-3) ** m - (-2) ** m)


GRAPHS = {
    # two triangles on a 4-cycle's diagonal, and a pendant path: its general block has
    # components that the recurrence splits (a wrong component finder gives 36, not 42)
    "kite": (5, [(0, 2), (0, 4), (1, 3), (1, 4), (2, 3), (2, 4)]),
    # an 11-cycle with a chord: two cycles sharing an edge, biconnected, not chordal
    "cycle-chord": (11, [(i, (i + 1) % 11) for i in range(11)] + [(0, 5)]),
}


def _truth(name: str) -> int:
    n, edges = GRAPHS[name]
    if len(edges) <= 8:
        return _acyclic_orientations(n, edges)
    # two cycles sharing an edge (the chord): χ = χ(C_6)·χ(C_7) / (k (k - 1)), where
    # χ(C_l)(k) = (k - 1)^l + (-1)^l (k - 1)
    chi = [(-2) ** ln + (-1) ** ln * (-2) for ln in (6, 7)]
    return abs(chi[0] * chi[1] // 2)


@MODES
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_general_blocks_count_the_acyclic_orientations(name, reference):
    n, edges = GRAPHS[name]
    truth = _truth(name)
    v = check_text(_certificate(n, edges, truth), reference=reference)
    assert v.status == "valid" and v.lower_bound == truth, v.message
    v = check_text(_certificate(n, edges, truth + 1), reference=reference)
    assert v.status == "invalid", v.message


@MODES
def test_a_large_independent_set_is_counted(reference):
    """``K_{2,11}``: the recurrence enumerates 2^11 independent sets of one subset, past the
    4096 steps after which it charges its work in batches (more work than the default
    budget of so small a file allows: the budget is given)."""
    n, edges, truth = _k2(11)
    v = check_text(_certificate(n, edges, truth), reference=reference, work=10 ** 7)
    assert v.status == "valid" and v.lower_bound == truth, v.message
    v = check_text(_certificate(n, edges, truth - 1), reference=reference, work=10 ** 7)
    assert v.status == "invalid", v.message


# The work of the general recurrence: one unit per enumeration step (docs/certificates.md
# §8).  A step that stops being charged, or is charged twice, changes these numbers.
WORK = {"kite": 524, "cycle-chord": 27197, "k2-11": 1134524}


def test_work_of_general_blocks():
    got = {}
    for name, (n, edges) in GRAPHS.items():
        v = check_text(_certificate(n, edges, _truth(name)))
        assert v.status == "valid", v.message
        got[name] = v.work
    n, edges, truth = _k2(11)
    got["k2-11"] = check_text(_certificate(n, edges, truth), work=10 ** 7).work
    assert got == WORK, "the work changed; if on purpose, WORK = " + repr(got)
