"""The executor's users give the same answers and bytes in process and on Dask workers."""

from __future__ import annotations

import numpy as np
import pytest

from attnproof.parallel.executor import ExecutorSpec, mapper


def _integer_capture(seed: int, n_heads: int = 3, d_model: int = 3, n_ctx: int = 3):
    from attnproof.transformer.capture import Capture

    rng = np.random.default_rng(seed)

    def r(*s):
        return rng.integers(-2, 3, size=s).astype(float)

    return Capture(x=r(n_ctx, d_model), query=r(d_model), W_Q=r(n_heads, d_model, 2),
                   b_Q=r(n_heads, 2), W_K=r(n_heads, d_model, 2), b_K=r(n_heads, 2),
                   W_V=r(n_heads, d_model, 2), b_V=r(n_heads, 2), W_O=r(n_heads, 2, d_model),
                   scale=1.0, heads=tuple(range(n_heads)),
                   meta={"model": "integer-toy", "layer": 0, "position": n_ctx - 1,
                         "tokens": list(range(n_ctx))})


def _report(tmp_path, tag, spec):
    from attnproof.merging import merge_report

    out = tmp_path / tag
    rep = merge_report(_integer_capture(seed=1, d_model=2), out, spec=spec)
    certs = {p.name: p.read_bytes() for p in sorted((out / "certificates").iterdir())}

    def strip(q):
        return {k: v for k, v in q.items() if k not in ("elapsed_s", "certificate")}
    return [strip(q) for q in rep.pairs + [rep.layer]], certs


@pytest.mark.slow
def test_merge_report_is_the_same_on_dask_workers(tmp_path):
    here = _report(tmp_path, "here", None)
    there = _report(tmp_path, "there", ExecutorSpec(workers=2, warmup=0))
    assert here == there
    assert len(here[1]) == 4 and not any("error" in q for q in here[0])  # written by the caller


def test_geometric_certificate_bytes_are_the_same_on_dask_workers():
    """THEORY Lemma 9.4 on Dask: the vertex enumeration's chunks run on workers, same bytes."""
    from attnproof.certificate import build_certificate
    from attnproof.checker import check_text
    from attnproof.families import float_multihead

    M = float_multihead(3, 6, 3, seed=12)          # three heads in R^3: no direct sum
    here = build_certificate(M)
    assert here.lower.path == "geometry" and here.lower.geometry.method == "minkowski_vertices"
    calls = []
    there = build_certificate(M, mapper=mapper(ExecutorSpec(workers=2, warmup=0, min_tasks=1)),
                              progress=lambda d, t: calls.append((d, t)))
    assert there.text == here.text
    assert check_text(there.text).code == 0
    assert calls                                    # progress is reported for distributed runs too


def test_vertex_tests_and_chunks_on_dask_workers_are_the_same():
    """Lemma 9.4 with interior points: the per-head vertex tests (several tasks per head) and
    the candidate chunks give the same vertices, functionals and Gordan certificates."""
    import random

    from attnproof.geometry import minkowski as mk
    from attnproof.geometry import minkowski_vertices

    rng = random.Random(7)
    heads = []
    for _ in range(3):
        pts = {tuple(rng.randint(-9, 9) for _ in range(3)) for _ in range(mk.POINT_CHUNK + 6)}
        pts |= {(0, 0, 0), (1, 0, 0)}                 # interior points: head non-vertices
        heads.append(sorted(pts))

    def fields(mv):
        return (mv.vertices, mv.non_vertices, mv.head_non_vertices, mv.complete, mv.candidates)

    here = minkowski_vertices(heads)
    there = minkowski_vertices(heads, mapper=mapper(ExecutorSpec(workers=2, warmup=0, min_tasks=1)))
    assert fields(there) == fields(here)
    assert all(here.head_non_vertices) and here.non_vertices and here.complete
