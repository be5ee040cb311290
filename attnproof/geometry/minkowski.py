"""Vertices of a Minkowski sum ``Σ_h conv(K_h)`` in any dimension (THEORY Lemma 9.4).

A tuple ``(a_h)`` (one point index per head) gives the vertex ``Σ_h a_h`` iff
one ``c`` has ``<c, a_h - a'> >= 1`` for every other point ``a'`` of every
head ``h``; distinct tuples give distinct vertices.  Candidates are pruned
head by head: if ``(a_1..a_k)`` is not a vertex of ``Σ_{h<=k} conv(K_h)``, no
extension is a vertex of the full sum (a functional for the extension would be
one for the prefix).  Level ``k`` decides every surviving prefix extended by a
vertex of head ``k`` (level 1: the vertices of head 0), so a *complete*
enumeration leaves, for every candidate, a functional (final level) or an
exact Gordan certificate ``μ`` on the prefix heads.

Candidates are decided in chunks through a map of tasks (:class:`attnproof.parallel.tasks.MapTasks`).

>>> T1 = [(-2, 9, -6), (1, -9, -9), (-9, 8, -9)]
>>> T2 = [(3, -3, 4), (-9, 7, -2), (5, 6, 8)]
>>> mv = minkowski_vertices([T1, T2])
>>> mv.count, mv.complete
(8, True)
>>> mv.non_vertices
[((0, 0), {(0, 1): 155, (0, 2): 9, (1, 1): 72, (1, 2): 231})]
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import ModuleType
from typing import Callable, Sequence

from ..errors import LimitError
from ..parallel.tasks import MapTasks, Progress, map_in_process
from .exact_lp import gordan_alternative
from .separation import Functional, Gordan, dot, refute, separate, verify_gordan
from .vertices import check_distinct, classify_chunk, collect_points
import flint
from .separation import _primitive

__all__ = ["MinkowskiVertices", "minkowski_vertices", "minkowski_prefix_vertices", "decide_chunk",
           "tuple_rows",
           "CHUNK", "POINT_CHUNK", "EXACT_CHUNK", "EXACT_ENTRIES"]

CHUNK = 512          # candidate tuples per task (fixed: a chunk's answers depend on its tuples only)
POINT_CHUNK = 16     # points per vertex-test task
EXACT_CHUNK = 64     # a chunk of at most this many candidates ...
EXACT_ENTRIES = 96   # ... whose difference rows have at most this many entries: exact simplex


@dataclass
class MinkowskiVertices:
    """The decided vertex tuples of ``Σ_h conv(K_h)``.

    * ``vertices``: ``[(tuple, c)]`` sorted by tuple; ``c`` an integer functional
      whose unique maximizer on head ``h`` is point ``tuple[h]``, for every ``h``;
    * ``head_non_vertices``: per head ``[(i, {j: μ_j})]``, points that are not
      vertices of their own head (``Σ_j μ_j (p_i - p_j) = 0``);
    * ``non_vertices``: ``[(prefix, {(h, j): μ})]``, prefixes of length >= 2 of
      vertex indices whose sum is not a vertex of the partial sum
      (``Σ μ_{h,j} (p_{h,prefix[h]} - p_{h,j}) = 0``);
    * ``complete``: every candidate was decided (the count is exact); otherwise
      ``count`` is only a verified lower bound.
    """

    vertices: list = field(default_factory=list)
    non_vertices: list = field(default_factory=list)
    head_non_vertices: list = field(default_factory=list)
    complete: bool = True
    candidates: int = 0
    certified: bool = True           # refutations kept (a certificate may claim completeness)

    @property
    def count(self) -> int:
        """Number of verified vertices (all of them when ``complete``)."""
        return len(self.vertices)


def tuple_rows(heads: Sequence[Sequence[tuple]], t: Sequence[int]) -> tuple[list, list]:
    """The difference rows of tuple ``t`` (heads ``0..len(t)-1``) and their ``(h, j)`` labels.

    >>> tuple_rows([[(0,), (1,)], [(0,), (2,), (3,)]], (1, 0))
    ([(1,), (-2,), (-3,)], [(0, 0), (1, 1), (1, 2)])
    """
    rows, labels = [], []
    for h, i in enumerate(t):
        p = heads[h][i]
        for j, q in enumerate(heads[h]):
            if j != i:
                rows.append(tuple(a - b for a, b in zip(p, q)))
                labels.append((h, j))
    return rows, labels


def _float_points(heads):
    """Column-scaled float copies of every head's points, and the scales ``B_j``."""
    import numpy as np

    d = len(heads[0][0])
    B = [max(abs(p[j]).bit_length() for pts in heads for p in pts) for j in range(d)]
    out = []
    for pts in heads:
        A = np.empty((len(pts), d))
        for j in range(d):
            sh = B[j] - 60
            for i, p in enumerate(pts):
                x = p[j]
                A[i, j] = float(x >> sh if sh > 0 else x << -sh) if x else 0.0
        out.append(A * 2.0 ** -60)
    return out, B


class _ExactValues:
    """Exact ``<c, p>`` for every point of every head by one integer matrix product
    (FLINT ``fmpz_mat``; plain Python integers when FLINT is missing)."""

    def __init__(self, heads):
        self.heads = heads
        self.flint: ModuleType | None
        try:
            self.mats = [flint.fmpz_mat([list(p) for p in pts]) for pts in heads]
            self.flint = flint
        except ImportError:
            self.flint = None

    def values(self, h: int, c) -> list:
        if self.flint is None:
            return [dot(c, p) for p in self.heads[h]]
        col = self.flint.fmpz_mat([[x] for x in c])
        V = self.mats[h] * col
        return [int(V[i, 0]) for i in range(V.nrows())]

    def selects(self, t, c) -> bool:
        """``c`` has the unique maximizer ``t[h]`` on every head ``h``."""
        for h, i in enumerate(t):
            vals = self.values(h, c)
            top = vals[i]
            if any(v >= top for j, v in enumerate(vals) if j != i):
                return False
        return True

    def round(self, t, cf, B):
        """Integer functional from the float ``cf`` (columns scaled by ``2^B``), verified."""

        top = max(B) if B else 0
        for prec in (8, 14, 20, 32, 44, 56):
            c = tuple(int(round(x * 2.0 ** min(prec + top - b, 1000))) if x else 0
                      for x, b in zip(cf, B))
            if any(c) and self.selects(t, c):
                return _primitive(c)
        return None


def _least_squares_guesses(F, candidates) -> list:
    """Cheap float guesses: per tuple, the least-squares solution of ``G c = 1`` (rows ``G``:
    the normalized differences ``a_h - a'``), kept when every row is positive.

    The normal equations are sums of per-point matrices ``G_{h,i}^T G_{h,i}``
    (precomputed), so a whole chunk is one batched linear solve.  Generic
    high-dimensional heads have wide normal cones and the guess nearly always holds;
    the LP decides the rest.
    """
    import numpy as np

    d = F[0].shape[1]
    if d == 0:
        return [None] * len(candidates)
    grams, rhs, rows = [], [], []
    for A in F:
        n = A.shape[0]
        Gs = []
        for i in range(n):
            G = np.delete(A[i] - A, i, axis=0)
            nr = np.linalg.norm(G, axis=1)
            nr[nr == 0] = 1.0
            Gs.append(G / nr[:, None])
        rows.append(Gs)
        grams.append(np.stack([G.T @ G for G in Gs]) if n > 1 else np.zeros((1, d, d)))
        rhs.append(np.stack([G.sum(axis=0) for G in Gs]) if n > 1 else np.zeros((1, d)))
    T = np.array(candidates)
    S = sum(grams[h][T[:, h]] for h in range(T.shape[1]))
    r = sum(rhs[h][T[:, h]] for h in range(T.shape[1]))
    S = S + 1e-12 * np.eye(d)[None, :, :] * (np.trace(S, axis1=1, axis2=2)[:, None, None] + 1.0)
    try:
        C = np.linalg.solve(S, r[:, :, None])[:, :, 0]
    except np.linalg.LinAlgError:
        return [None] * len(candidates)
    out = []
    for t, c in zip(candidates, C):
        ok = all((rows[h][i] @ c > 0).all() for h, i in enumerate(t) if len(rows[h][i]))
        out.append(list(c) if ok and np.isfinite(c).all() else None)
    return out


def _highs_module():
    """HiGHS bindings: SciPy's own (silent, no extra dependency), else ``highspy``."""
    try:
        from scipy.optimize._highspy import _core
        if all(hasattr(_core, n) for n in ("_Highs", "HighsLp", "MatrixFormat", "kHighsInf")):
            return _core
    except ImportError:
        pass
    import highspy                      # ImportError: the caller falls back to linprog
    return highspy


class _WarmLP:
    """One HiGHS model for all candidates of a chunk, warm-started between them.

    Columns: ``c`` (free) and one ``s_h`` per head; rows ``s_h - <c, p> >= 1`` for every
    point ``p`` of head ``h``, except the candidate's own point, whose row is fixed to 0
    (so ``s_h = <c, a_h>``).  Feasible iff the tuple is a vertex; moving to the next
    candidate changes only row bounds, so the dual simplex restarts from the last basis.
    """

    def __init__(self, F):
        import numpy as np

        highspy = _highs_module()
        self.hs = highspy
        d = F[0].shape[1]
        r = len(F)
        self.offsets = []
        blocks = []
        off = 0
        for h, A in enumerate(F):
            S = np.zeros((A.shape[0], r))
            S[:, h] = 1.0
            blocks.append(np.hstack([-A, S]))
            self.offsets.append(off)
            off += A.shape[0]
        M = np.vstack(blocks)
        inf = highspy.kHighsInf
        h = highspy._Highs() if hasattr(highspy, "_Highs") else highspy.Highs()
        h.setOptionValue("output_flag", False)
        lp = highspy.HighsLp()
        lp.num_col_ = d + r
        lp.num_row_ = M.shape[0]
        lp.col_cost_ = np.zeros(d + r)
        lp.col_lower_ = np.full(d + r, -inf)
        lp.col_upper_ = np.full(d + r, inf)
        lp.row_lower_ = np.ones(M.shape[0])
        lp.row_upper_ = np.full(M.shape[0], inf)
        cols = [np.nonzero(M[:, j])[0] for j in range(d + r)]
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = np.cumsum([0] + [len(c) for c in cols]).astype(np.int32)
        lp.a_matrix_.index_ = np.concatenate(cols).astype(np.int32)
        lp.a_matrix_.value_ = np.concatenate([M[c, j] for j, c in enumerate(cols)])
        h.passModel(lp)
        self.h, self.d, self.inf = h, d, inf
        self.infeasible = False

    def solve(self, t):
        """Float ``c`` for tuple ``t``, or None (infeasible or not solved)."""
        h = self.h
        for k, i in enumerate(t):
            h.changeRowBounds(self.offsets[k] + i, 0.0, 0.0)
        h.run()
        status = h.getModelStatus()
        ok = status == self.hs.HighsModelStatus.kOptimal
        self.infeasible = status == self.hs.HighsModelStatus.kInfeasible
        c = list(h.getSolution().col_value[: self.d]) if ok else None
        for k, i in enumerate(t):
            h.changeRowBounds(self.offsets[k] + i, 1.0, self.inf)
        return c


def decide_chunk(heads: tuple, candidates: tuple, certificates: bool, final: bool,
                 prune: bool = False) -> list:
    """Decide candidate tuples: ``[(t, 'v', c or None) | (t, 'n', μ or None) | (t, 'p', None)]``.

    A module-level pure function of picklable arguments (one executor task).
    ``c`` is kept on the ``final`` level only, ``μ`` only with ``certificates``.
    ``prune``: a candidate that the float LP finds infeasible is set aside as ``'p'``
    (pruned, *not* proven a non-vertex) instead of being refuted exactly: for a list of
    verified vertices, which stays sound whatever is set aside, but is then no proof of
    a complete count.

    A small chunk (at most :data:`EXACT_CHUNK` candidates, each with at most
    :data:`EXACT_ENTRIES` entries in its difference rows) decides what the
    least-squares guess leaves with the exact simplex (:func:`.exact_lp.gordan_alternative`,
    a few milliseconds at that size) instead of the float LP: a process that proves a
    small problem then never imports SciPy's LP, which took longer than the proof.
    """
    import numpy as np

    if not candidates:
        return []
    k = len(candidates[0])
    F, B = _float_points(heads[:k])
    warm: _WarmLP | None = None
    entries = sum(len(pts) - 1 for pts in heads[:k]) * len(heads[0][0])
    small = len(candidates) <= EXACT_CHUNK and entries <= EXACT_ENTRIES
    tried_warm = small and entries > 0   # the LP (and SciPy's import) only once a guess fails
    exact = _ExactValues(heads[:k])
    guesses = _least_squares_guesses(F, candidates)
    out = []
    for t, g in zip(candidates, guesses):
        if g is not None:
            c = exact.round(t, g, B)
            if c is not None:
                out.append((t, "v", c if final else None))
                continue
        if small and entries:
            rows, labels = tuple_rows(heads, t)
            _, val = gordan_alternative(rows)
            if isinstance(val, tuple):        # a functional: verified by gordan_alternative
                out.append((t, "v", val if final else None))
            else:
                if not verify_gordan(rows, val):
                    raise ArithmeticError("exact simplex produced multipliers that do not cancel")
                out.append((t, "n", {labels[i]: v for i, v in sorted(val.items())}
                            if certificates else None))
            continue
        if not tried_warm:
            tried_warm = True
            try:
                warm = _WarmLP(F)
            except ImportError:
                warm = None
        if warm is not None:
            cf = warm.solve(t)
            if cf is not None:
                c = exact.round(t, cf, B)
                if c is not None:
                    out.append((t, "v", c if final else None))
                    continue
        rows, labels = tuple_rows(heads, t)
        parts = []
        for h, i in enumerate(t):
            A = F[h]
            parts.append(np.delete(A[i] - A, i, axis=0))
        approx = (np.vstack(parts), B)
        d = len(heads[0][0])
        r: Functional | Gordan | None = None
        if prune and warm is not None and warm.infeasible:
            out.append((t, "p", None))
            continue
        if warm is not None and warm.infeasible:
            r = refute(rows, approx)           # Gordan multipliers first; None: undecided
        if r is None:
            r = separate(rows, dim=d, approx=approx)
        if isinstance(r, Functional):
            out.append((t, "v", r.c if final else None))
        else:
            out.append((t, "n", {labels[i]: v for i, v in sorted(r.mu.items())}
                        if certificates else None))
    return out


def _partial(heads, verts, res, max_candidates, progress, map_tasks: MapTasks):
    """Decide a deterministic random sample of full tuples (no refutations kept): a
    verified lower bound.  The vertex of one generic direction is always included."""
    rng = random.Random(20261130)
    picked = set()
    # the maximizers of a generic integer direction: a vertex tuple (verified below)
    c = [rng.randint(-2 ** 40, 2 ** 40) for _ in heads[0][0]]
    picked.add(tuple(max(range(len(pts)), key=lambda i: dot(c, pts[i])) for pts in heads))
    while len(picked) < max_candidates:
        picked.add(tuple(rng.choice(v) for v in verts))
    cands = sorted(picked)
    chunks = [(heads, tuple(cands[s:s + CHUNK]), False, True) for s in range(0, len(cands), CHUNK)]
    results = map_tasks(decide_chunk, chunks,
                        progress=(lambda i, n: progress(min(i * CHUNK, len(cands)), len(cands)))
                        if progress is not None else None)
    for part in results:
        if not isinstance(part, list):
            raise LimitError(f"a vertex enumeration task failed: {part!r}")
        res.vertices.extend((t, data) for t, kind, data in part if kind == "v")
    res.vertices.sort()
    res.candidates = len(cands)
    res.complete = False
    res.certified = False
    res.non_vertices = []
    res.head_non_vertices = [[] for _ in heads]
    return res


def _classify_heads(heads, certificates: bool, map_tasks: MapTasks) -> list:
    """Every point of every head decided (vertex tests), in tasks of :data:`POINT_CHUNK` points.

    The same answers as :func:`classify_points` on each head; the tasks of all
    heads go to the executor together.
    """
    tasks = [(h, (pts, tuple(range(s, min(s + POINT_CHUNK, len(pts)))), certificates))
             for h, pts in enumerate(heads) for s in range(0, len(pts), POINT_CHUNK)]
    results = map_tasks(classify_chunk, [args for _, args in tasks])
    decided: list[list] = [[] for _ in heads]
    for (h, _), part in zip(tasks, results):
        if not isinstance(part, list):
            raise LimitError(f"a vertex test task failed: {part!r}")
        decided[h].extend(part)
    return [collect_points(d) for d in decided]


def minkowski_vertices(heads_points: Sequence[Sequence[Sequence[int]]], *, complete: bool = True,
                       progress: Progress = None, mapper: MapTasks | None = None,
                       max_candidates: int | None = None) -> MinkowskiVertices:
    """Vertices of ``Σ_h conv(K_h)`` as index tuples with functionals (Lemma 9.4).

    ``heads_points``: per head, distinct integer points of one dimension.
    ``complete``: keep a Gordan certificate for every rejected candidate (else
    only the vertices are kept and ``certified`` is False; the count is still
    exact).  ``max_candidates``: when the tuples of per-head vertices exceed it,
    decide only that many (a seeded random sample, plus the vertex of one generic
    direction) and report a partial count: a verified lower bound, ``complete`` False.
    ``mapper`` runs the chunks (:class:`attnproof.parallel.tasks.MapTasks`; default: in this process,
    :func:`attnproof.parallel.executor.mapper` gives one for Dask).
    """
    heads = tuple(tuple(check_distinct(pts)) for pts in heads_points)
    if not heads or any(not pts for pts in heads):
        raise ValueError("every head needs at least one point")
    dims = {len(pts[0]) for pts in heads}
    if len(dims) != 1:
        raise ValueError("all heads must have the same dimension")
    res = MinkowskiVertices()
    map_tasks = mapper if mapper is not None else map_in_process
    hv = _classify_heads(heads, complete, map_tasks)
    res.head_non_vertices = [list(v.non_vertices) if complete else [] for v in hv]
    verts = [v.vertex_indices for v in hv]
    r = len(heads)
    if r == 1:
        res.vertices = [((i,), c) for i, c in hv[0].vertices]
        res.candidates = len(heads[0])
        res.certified = complete
        return res
    space = 1
    for v in verts:
        space *= len(v)
    if max_candidates is not None and space > max_candidates:
        return _partial(heads, verts, res, max_candidates, progress, map_tasks)
    prefixes = [(i,) for i in verts[0]]
    done = 0
    for k in range(1, r):
        final = k == r - 1
        cands = [t + (v,) for t in prefixes for v in verts[k]]
        chunks = [(heads[:k + 1], tuple(cands[s:s + CHUNK]), complete, final)
                  for s in range(0, len(cands), CHUNK)]
        base, total = done, done + len(cands)

        def bar(i, n, base=base, total=total):
            if progress is not None:
                progress(min(base + i * CHUNK, total), total)

        results = map_tasks(decide_chunk, chunks, progress=bar)
        done += len(cands)
        res.candidates += len(cands)
        survivors = []
        for part in results:
            if not isinstance(part, list):
                raise LimitError(f"a vertex enumeration task failed: {part!r}")
            for t, kind, data in part:
                if kind == "v":
                    survivors.append(t)
                    if final:
                        res.vertices.append((t, data))
                elif complete:
                    res.non_vertices.append((t, data))
        prefixes = survivors
    res.vertices.sort()
    res.non_vertices.sort()
    res.certified = complete
    return res


def minkowski_prefix_vertices(heads_points: Sequence[Sequence[Sequence[int]]],
                              max_candidates: int, *, listable: Callable[[int], int] | None = None,
                              progress: Progress = None,
                              mapper: MapTasks | None = None) -> tuple[int, MinkowskiVertices]:
    """``(k, vertices of Σ_{h<k} conv(K_h))`` for the longest prefix of the heads whose
    enumeration decides at most ``max_candidates`` candidate tuples in all (``k >= 1``).

    Output-sensitive, by refining the normal fan one summand at a time: level ``k``
    decides only ``V(P_{k-1}) · n_k`` tuples, the vertices of the partial sum found so far
    extended by the vertices of head ``k`` (a vertex of ``P_{k-1} + conv(K_k)`` is the sum
    of a vertex of each, Lemma 9.4), never the product of all the point counts.  The
    heads' own vertex tests come first, one head at a time.  Every listed vertex keeps
    its functional (a unique maximizer on every head of the prefix); with no Gordan
    certificates kept (``certified`` False) the result is a vertex list, sound for any
    sub-sum (docs/certificates.md §6.3, §6.14).  The prefix stops before the first level
    that would pass the budget.  A tuple the float LP finds infeasible is set aside
    without an exact refutation (``decide_chunk(..., prune=True)``; the refutation cost
    ten times the decision); ``complete`` then says False, since a vertex could hide
    among those set aside, while every listed vertex is still proven.

    ``listable(k)``: the most vertices a list of the first ``k`` heads' sum may hold (a
    checker's budget).  Once a level reaches it, the enumeration stops there: the
    vertices found first, in chunk order, up to that many (``complete`` False when some
    candidate of the level was left undecided), since more levels could list no more.

    >>> T = [[(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 0, 0), (0, 0, 1)], [(0, 0, 0), (1, 1, 1)]]
    >>> k, mv = minkowski_prefix_vertices(T, 30)
    >>> k, mv.count, mv.complete, mv.candidates, mv.count == minkowski_vertices(T).count
    (3, 11, True, 21, True)
    >>> minkowski_prefix_vertices(T, 20)[0]     # 3 + 6 decided, then 12 more would pass 20
    2
    >>> k, mv = minkowski_prefix_vertices(T, 30, listable=lambda k: 4)
    >>> k, mv.count, mv.complete
    (2, 4, False)
    """
    heads = tuple(tuple(check_distinct(pts)) for pts in heads_points)
    if not heads or any(not pts for pts in heads):
        raise ValueError("every head needs at least one point")
    if len({len(pts[0]) for pts in heads}) != 1:
        raise ValueError("all heads must have the same dimension")
    map_tasks = mapper if mapper is not None else map_in_process
    first = _classify_heads(heads[:1], False, map_tasks)[0]
    vertices = [((i,), c) for i, c in first.vertices]
    spent = len(heads[0])
    k = 1
    complete = True
    batch = 8                           # chunks per call of the map: a level can stop early
    while k < len(heads) and (listable is None or len(vertices) < listable(k)):
        vk = _classify_heads(heads[k:k + 1], False, map_tasks)[0].vertex_indices
        cands = [t + (v,) for t, _ in vertices for v in vk]
        if spent + len(cands) > max_candidates:
            break
        cap = listable(k + 1) if listable is not None else None
        chunks = [(heads[:k + 1], tuple(cands[s:s + CHUNK]), False, True, True)
                  for s in range(0, len(cands), CHUNK)]
        found: list = []
        total = len(cands)
        for b in range(0, len(chunks), batch):
            part_chunks = chunks[b:b + batch]
            bar = None
            if progress is not None:
                shown = progress

                def bar(i: int, n: int, base: int = b * CHUNK) -> None:
                    shown(min(base + i * CHUNK, total), total)

            results = map_tasks(decide_chunk, part_chunks, progress=bar)
            spent += sum(len(c[1]) for c in part_chunks)
            for part in results:
                if not isinstance(part, list):
                    raise LimitError(f"a vertex enumeration task failed: {part!r}")
                found.extend((t, data) for t, kind, data in part if kind == "v")
                complete = complete and all(kind != "p" for _, kind, _ in part)
            if cap is not None and len(found) >= cap and b + batch < len(chunks):
                complete = False
                break
        vertices = sorted(found[:cap] if cap is not None else found)
        if cap is not None and len(found) > cap:
            complete = False
        k += 1
    return k, MinkowskiVertices(vertices=vertices, complete=complete, candidates=spent,
                                certified=False)
