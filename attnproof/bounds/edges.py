"""Edges whose polynomial has negative roots: the ``edge_roots`` step (docs/theory.md §10).

Theorem 10.1 raises the vertex count ``V(R)`` of the bound factors ``R = Π f_j^{e_j}``
by ``r_e − 1`` on every edge ``e`` of ``Newt_x(R)`` whose edge polynomial has
``r_e ≥ 2`` negative roots.  Such edges come from parallel segments in several
factors (two heads whose keys coincide on two positions: Corollary 10.2) or from a
factor of multiplicity two or more; this module finds them and writes the step the
checker's :mod:`attnproof.checker.rules.edges` verifies.

The search reads the factors exactly as the checker does (the lower-bound steps are
replayed by the checker's own rules on the embedded problem), so every functional is
written in the checker's coordinates.  Candidate edges: for each direction shared by
segments of two factors (or one factor of multiplicity at least two), a functional
orthogonal to it whose maximizers on each such factor are its segment, from the
separation oracle (:func:`attnproof.geometry.separation.separate`) on the rows
projected along the direction; every candidate is then evaluated by the checker's
own :func:`~attnproof.checker.rules.edges.edge` (untrusted here: the checker
re-derives everything).

>>> from attnproof.heads import Atom, Head, MultiHead
>>> h = Head((Atom((0, 0), (1,)), Atom((1, 0), (2,)), Atom((0, 1), (0,))))
>>> g = Head((Atom((0, 0), (0,)), Atom((1, 0), (5,)), Atom((1, 1), (1,))))
>>> from attnproof.bounds import lower_bound
>>> lb = lower_bound(MultiHead((h, g)))
>>> step = edge_roots_step(MultiHead((h, g)), lb)
>>> lb.value, step["lower_bound"], [e["roots"] for e in step["edges"]]
(5, 6, [2])
"""

from __future__ import annotations

from math import gcd
from typing import Any, Optional

from ..heads import MultiHead

__all__ = ["edge_roots_step", "MAX_EDGE_CANDIDATES", "MAX_FACTOR_POINTS", "MAX_SEARCH_ATOMS"]

MAX_EDGE_CANDIDATES = 2000     # separation problems one search solves
MAX_FACTOR_POINTS = 512        # points of one factor the pair search reads (n² pairs)
MAX_SEARCH_ATOMS = 4096        # head atoms of a problem whose edges are searched


def _primitive(v: tuple) -> tuple:
    g = 0
    for x in v:
        g = gcd(g, x)
    v = tuple(x // g for x in v)
    return v if next(x for x in v if x) > 0 else tuple(-x for x in v)


def _dot(a, b) -> int:
    return sum(x * y for x, y in zip(a, b))


def _project(x: tuple, g: tuple, gg: int) -> tuple:
    """``(g·g)·x − (x·g)·g``: ``x`` projected on ``g^⊥`` (scaled to stay integer)."""
    xg = _dot(x, g)
    return tuple(gg * a - xg * b for a, b in zip(x, g))


def _replay(M: MultiHead, steps: list):
    """The checker's state after the lower-bound steps (None when one is refused)."""
    import copy

    from ..checker.problem import parse_problem
    from ..checker.rules import RULES, State
    from ..checker.syntax import Reject, Unsupported
    from ..io.problem import problem_to_dict

    st = State(parse_problem(problem_to_dict(M)))
    try:
        for i, s in enumerate(steps):
            fn, _ = RULES[s["rule"]]
            fn(st, copy.deepcopy(s), f"step {i}")
    except (Reject, Unsupported):
        return None
    return st


def _candidates(pts: list, mult: list):
    """Sets of segments ``[(factor, a, b)]`` sharing one direction: every pair from two
    factors, and every segment alone of a factor of multiplicity 2 or more."""
    by_dir: dict = {}
    for j, fp in enumerate(pts):
        if len(fp) > MAX_FACTOR_POINTS:
            continue
        for a in range(len(fp)):
            for b in range(a + 1, len(fp)):
                g = _primitive(tuple(x - y for x, y in zip(fp[b], fp[a])))
                by_dir.setdefault(g, []).append((j, a, b))
    for g, segs in by_dir.items():
        for i, s in enumerate(segs):
            if mult[s[0]] > 1:
                yield g, [s]
            for t in segs[i + 1:]:
                if t[0] != s[0]:
                    yield g, [s, t]


def _functional(pts: list, g: tuple, segs: list) -> Optional[tuple]:
    """An integer ``c ⊥ g`` maximized on each listed factor exactly on its segment's line,
    and on every other factor on one point or a segment parallel to ``g`` (a vertex of
    its face is pinned when the first guess ties on a wider face), or None."""
    from ..geometry.separation import Functional, separate

    gg = _dot(g, g)
    pinned = {j: pts[j][a] for j, a, _ in segs}
    for _ in range(len(pts)):
        rows = []
        for j, pa in pinned.items():
            for p in pts[j]:
                r = _project(tuple(x - y for x, y in zip(pa, p)), g, gg)
                if any(r):
                    rows.append(r)
        if rows:
            res = separate(rows)
            if not isinstance(res, Functional):
                return None
            c = _project(tuple(res.c), g, gg)
            k = 0
            for x in c:
                k = gcd(k, x)
            if not k:
                return None
            c = tuple(x // k for x in c)
        else:                     # the pinned factors lie on one line: 0 selects all of them
            c = (0,) * len(g)
        wide = None
        for j, fp in enumerate(pts):
            if j in pinned:
                continue
            vals = [_dot(c, p) for p in fp]
            face = [p for p, v in zip(fp, vals) if v == max(vals)]
            if any(_project(tuple(x - y for x, y in zip(p, face[0])), g, gg) != (0,) * len(g)
                   for p in face[1:]):
                wide = j, max(face)          # the lexicographic maximum: a vertex of the face
                break
        if wide is None:
            return c
        pinned[wide[0]] = wide[1]
    return None


def edge_roots_step(M: MultiHead, lb: Any, steps: Optional[list] = None) -> Optional[dict]:
    """The ``edge_roots`` step that raises ``lb`` (its steps: ``steps``, else
    :func:`attnproof.certificate.steps.lower_bound_steps`), or None when no edge of the
    bound factors' Newton polytope has two or more negative roots."""
    from ..checker.rules.edges import EdgeData, edge
    from ..checker.syntax import UNLIMITED, Reject, Unsupported

    if sum(len(h.atoms) for h in M.heads) > MAX_SEARCH_ATOMS:
        return None
    if steps is None:
        from ..certificate.steps import lower_bound_steps

        steps = lower_bound_steps(lb)
    st = _replay(M, steps)
    if st is None or st.lower is None or not st.factors or st.indecomposable:
        return None
    try:
        ed = EdgeData(st, "edge search")
    except (Reject, Unsupported):
        return None
    if ed.d == 0:
        return None
    found: dict = {}
    tried = 0
    for g, segs in _candidates(ed.pts, ed.mult):
        tried += 1
        if tried > MAX_EDGE_CANDIDATES:
            break
        c = _functional(ed.pts, g, segs)
        if c is None:
            continue
        try:
            key, r = edge(ed, list(c), "edge search", UNLIMITED)
        except (Reject, Unsupported):
            continue
        if r >= 2 and key not in found:
            found[key] = {"functional": list(c), "roots": r}
    if not found:
        return None
    edges = [found[k] for k in sorted(found)]
    return {"rule": "edge_roots", "edges": edges,
            "lower_bound": st.lower + sum(e["roots"] - 1 for e in edges)}
