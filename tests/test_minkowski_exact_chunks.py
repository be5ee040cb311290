"""Small chunks of Minkowski candidates are decided by the exact simplex, large ones by the
float LP: the same vertices either way, and every refutation an exact Gordan certificate."""

from __future__ import annotations

import random

import pytest

import attnproof.geometry.minkowski as mk
from attnproof.geometry.minkowski import minkowski_vertices, tuple_rows


def _heads(seed: int, r: int, n: int, d: int):
    rng = random.Random(seed)
    out = []
    for _ in range(r):
        pts = set()
        while len(pts) < n:
            pts.add(tuple(rng.randint(-4, 4) for _ in range(d)))
        out.append(sorted(pts))
    return out


def _check(heads, mv):
    """Every vertex's functional selects its tuple; every refutation cancels exactly."""
    for t, c in mv.vertices:
        for h, i in enumerate(t):
            top = sum(a * b for a, b in zip(c, heads[h][i]))
            assert all(sum(a * b for a, b in zip(c, q)) < top for j, q in enumerate(heads[h]) if j != i)
    for prefix, mu in mv.non_vertices:
        rows, labels = tuple_rows(heads, prefix)
        total = [0] * len(heads[0][0])
        for (h, j), m in mu.items():
            g = rows[labels.index((h, j))]
            total = [a + m * b for a, b in zip(total, g)]
        assert total == [0] * len(total) and all(m > 0 for m in mu.values())


@pytest.mark.parametrize("seed", range(8))
def test_exact_and_lp_chunks_find_the_same_vertices(seed, monkeypatch):
    heads = _heads(seed, 2 + seed % 2, 3 + seed % 2, 2 + seed % 4)
    small = minkowski_vertices(heads)
    _check(heads, small)
    monkeypatch.setattr(mk, "EXACT_CHUNK", 0)          # every chunk through the float LP
    lp = minkowski_vertices(heads)
    _check(heads, lp)
    assert [t for t, _ in small.vertices] == [t for t, _ in lp.vertices]
    assert [t for t, _ in small.non_vertices] == [t for t, _ in lp.non_vertices]
    assert small.complete and lp.complete


def test_a_small_chunk_never_imports_the_float_lp(monkeypatch):
    """The exact path is taken: the warm-started LP is never built for a small chunk."""
    def refuse(*a, **k):
        raise AssertionError("the float LP was built for a small chunk")

    monkeypatch.setattr(mk, "_WarmLP", refuse)
    heads = _heads(3, 3, 4, 3)
    mv = minkowski_vertices(heads)
    _check(heads, mv)
    assert mv.count > 0 and mv.complete
