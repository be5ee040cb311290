"""Mutation sweep over golden certificates (TESTING.md 1).

Every single-field mutation of a valid golden certificate -- each numeric leaf
+1 or negated, p/q swapped, a key dropped, renamed or duplicated, an array item
dropped or two neighbours swapped, a hash digit flipped -- must be rejected.
The only mutants allowed through are changes of a vertex functional ``c`` in
an explicit vertex list (a hint: another valid functional for the same vertex
proves the same thing); each of those is re-verified to prove exactly the
same claims.  The mutant counts are asserted so the sweep cannot shrink.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from attnproof.checker import check_text
from attnproof.io import canonical_json

GOLDEN = Path(__file__).resolve().parent.parent / "certificates" / "valid"
RAT = re.compile(r"^(-?)([0-9]+)/([0-9]+)$")
HEX = re.compile(r"^[0-9a-f]{64}$")
DEC = re.compile(r"^-?[0-9]+$")

# certificate -> (mutants, rejected), asserted so the sweep cannot silently shrink.
# The difference is made only of vertex functionals (hints) and the key of a
# one-atom fused head, the edges a graph_minors term names (another pair of
# edges where the lemma applies as well: a hint) and the graph blocks' hints (§6.3: another
# valid order or split), each re-verified to prove the same claims.
EXPECTED = {"w3.json": (519, 519), "w3-explicit.json": (692, 680), "k3.json": (569, 561),
            "flint.json": (313, 312), "decimal.json": (623, 610), "biased.json": (346, 346),
            "cancel.json": (155, 154), "zonotope-2d.json": (706, 706),
            "geom-triangles.json": (598, 565), "geom-direct.json": (307, 307),
            "geom-chain.json": (482, 479), "geom-partial.json": (399, 380),
            "geom-indecomposable.json": (872, 828), "c5-minors.json": (1526, 1517),
            "k4-minors.json": (1802, 1787), "c4-odd.json": (1006, 998)}


def _dump(obj, dup: tuple | None, path: tuple = ()) -> str:
    """Canonical JSON, except that the object at ``dup[0]`` repeats key ``dup[1]``."""
    if isinstance(obj, dict):
        parts = []
        for k in sorted(obj):
            item = json.dumps(k) + ":" + _dump(obj[k], dup, path + (k,))
            parts.append(item)
            if dup is not None and dup[0] == path and dup[1] == k:
                parts.append(item)
        return "{" + ",".join(parts) + "}"
    if isinstance(obj, list):
        return "[" + ",".join(_dump(x, dup, path + (i,)) for i, x in enumerate(obj)) + "]"
    return json.dumps(obj)


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def _set(doc, path, value):
    _get(doc, path[:-1])[path[-1]] = value


def _leaf_variants(x):
    if type(x) is int:
        out = [x + 1]
        if x:
            out.append(-x)
        return out
    if isinstance(x, str):
        m = RAT.match(x)
        if m:
            return [f"{m.group(1)}{m.group(3)}/{m.group(2)}"]
        if HEX.match(x):
            return [("1" if x[0] == "0" else "0") + x[1:]]
        if DEC.match(x):
            return [str(int(x) + 1)]
        return [x + "x"]
    if x is None:
        return [0]
    return []


def mutants(doc):
    """Yield ``(description, path, text)`` for every single-field mutation."""
    stack = [((), doc)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            for k in sorted(node):
                d = copy.deepcopy(doc)
                del _get(d, path)[k]
                yield f"drop key {k}", path + (k,), canonical_json(d)
                d = copy.deepcopy(doc)
                t = _get(d, path)
                t[k + "_x"] = t.pop(k)
                yield f"rename key {k}", path + (k,), canonical_json(d)
                yield f"duplicate key {k}", path + (k,), _dump(doc, (path, k))
                stack.append((path + (k,), node[k]))
        elif isinstance(node, list):
            for i in range(len(node)):
                d = copy.deepcopy(doc)
                del _get(d, path)[i]
                yield f"drop item {i}", path + (i,), canonical_json(d)
                if i + 1 < len(node) and node[i] != node[i + 1]:
                    d = copy.deepcopy(doc)
                    t = _get(d, path)
                    t[i], t[i + 1] = t[i + 1], t[i]
                    yield f"swap items {i},{i + 1}", path + (i,), canonical_json(d)
                stack.append((path + (i,), node[i]))
        else:
            for v in _leaf_variants(node):
                d = copy.deepcopy(doc)
                _set(d, path, v)
                yield f"leaf {node!r} -> {v!r}", path, canonical_json(d)


def _is_functional(doc, path) -> bool:
    # steps/i/blocks/j/vertices/k/1/...: the functional c of an explicit vertex;
    # the geometry rules' functionals: steps/i/vertices/k/2/... (minkowski_vertices),
    # steps/i/factors/f/vertices/k/1/... (direct_sum), steps/i/triangles/k/1/... (chains),
    # steps/i/width_functionals/k/... (generic_heads: the functionals, in any order)
    if len(path) >= 4 and path[0] == "steps" and path[2] == "width_functionals":
        return True
    if len(path) >= 7 and path[0] == "steps" and path[2] == "blocks":
        return path[4] == "vertices" and path[6] == 1
    if len(path) >= 5 and path[0] == "steps" and path[2] == "vertices":
        return path[4] == 2
    if len(path) >= 5 and path[0] == "steps" and path[2] == "triangles":
        return path[4] == 1
    return (len(path) >= 7 and path[0] == "steps" and path[2] == "factors"
            and path[4] == "vertices" and path[6] == 1)


def _is_minor_hint(doc, path) -> bool:
    # steps/i/proof/.../edges/...: which edges a graph_minors lemma is applied to; the
    # checker rebuilds the minors, so another valid choice proves what it proves
    return len(path) >= 4 and path[0] == "steps" and path[2] == "proof" and "edges" in path


def _is_graph_hint(doc, path) -> bool:
    # steps/i/(blocks/j | proof/...)/graph_blocks/...: the producer's blocks and elimination
    # orders of a graph, which the checker verifies; another valid hint (two edges' order,
    # an order of a complete graph, a triangle counted as a cycle) proves what it proves
    return len(path) >= 4 and path[0] == "steps" and "graph_blocks" in path


def _is_common_shift(doc, path) -> bool:
    # the key of a one-atom fused head: moving all keys by one vector multiplies
    # N and D by the same monomial, so the head computes the same function
    if len(path) >= 6 and path[0] == "steps" and path[2] == "head" and path[5] == "key":
        return len(_get(doc, path[:4])) == 1
    return False


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_mutation_sweep(name):
    text = (GOLDEN / name).read_text()
    base = check_text(text)
    assert base.code == 0, base.message
    doc = json.loads(text)
    total = rejected = 0
    for what, path, mtext in mutants(doc):
        total += 1
        v = check_text(mtext)
        if v.code != 0:
            rejected += 1
            continue
        assert _is_functional(doc, path) or _is_common_shift(doc, path) or _is_minor_hint(
            doc, path) or _is_graph_hint(doc, path), \
            f"{name}: accepted mutant {what} at {path}"
        assert (v.lower_bound, v.upper_bound, v.minimum, v.trust) == (
            base.lower_bound, base.upper_bound, base.minimum, base.trust)
    assert (total, rejected) == EXPECTED[name], f"{name}: {total} mutants, {rejected} rejected"


def test_mutant_total():
    """The sweep covers thousands of mutants in all."""
    assert sum(t for t, _ in EXPECTED.values()) == 10915


@pytest.mark.parametrize("name", ["w3-explicit.json", "k3.json", "flint.json"])
def test_wrong_types_never_crash_the_checker(name):
    """Every field replaced by a value of another JSON type: a verdict, never an exception."""
    from attnproof.checker import check_document

    doc = json.loads((GOLDEN / name).read_text())
    paths = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k in node:
                walk(node[k], path + (k,))
        elif isinstance(node, list):
            for i, x in enumerate(node):
                walk(x, path + (i,))

    walk(doc, ())
    n = 0
    for path in paths[1:]:
        for value in (None, "x", [], {}, [[1, []]], -1, True):
            d = copy.deepcopy(doc)
            _set(d, path, value)
            v = check_document(d)
            assert v.code in (0, 1, 2)
            n += 1
    assert n > 500
