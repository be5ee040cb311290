"""The best merge plan of a layer: a partition of its heads into groups, fewest atoms in all.

Each group of the plan is merged into one exact head (a single head is kept as it
is); the plan's total is the sum of the groups' atoms.  A group's atoms are known
as proven bounds ``lower ≤ minimum ≤ upper`` (its certificate); a head kept alone
costs its own atoms.  :func:`best_partition` minimizes a total over the partitions
whose groups have a known cost (dynamic programming over subsets, one connected
component of the groups worth merging at a time); :func:`merge_plan` runs it on the
upper bounds (a plan that is achieved: every group certified) and on the lower bounds
(no partition into these groups can do better), and asks ``refine`` for tighter
bounds of the groups that keep the two apart, until they meet (the plan is optimal)
or nothing is left to refine (the plan's total is then bracketed).

>>> cost = {frozenset({0}): 8, frozenset({1}): 8, frozenset({2}): 1,
...         frozenset({0, 1}): 8, frozenset({0, 2}): 8, frozenset({1, 2}): 8,
...         frozenset({0, 1, 2}): 8}
>>> best_partition([0, 1, 2], cost)
(8, [(0, 1, 2)])
>>> plan = merge_plan([0, 1, 2], {g: (c, c) for g, c in cost.items()})
>>> plan.total, plan.groups, plan.optimal, plan.separate
(8, [(0, 1, 2)], True, 17)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional, Sequence

__all__ = ["best_partition", "merge_plan", "MergePlan"]

Group = frozenset


def best_partition(heads: Sequence[int], cost: Mapping[Group, int]) -> tuple[int, list[tuple]]:
    """The least total ``Σ cost[group]`` over the partitions of ``heads`` into groups of
    ``cost`` (every single head must be there), and one partition that reaches it
    (groups as sorted tuples, in order of their first head).

    Only groups that cost less than their heads kept alone can be part of a better
    partition (else splitting the group into single heads is no worse), so the
    search runs on the connected components of those groups.

    >>> best_partition([0, 1], {frozenset({0}): 3, frozenset({1}): 4, frozenset({0, 1}): 12})
    (7, [(0,), (1,)])
    """
    heads = list(heads)
    alone = {h: cost[frozenset({h})] for h in heads}
    worth = [g for g, c in cost.items() if len(g) > 1 and g <= set(heads)
             and c < sum(alone[h] for h in g)]
    # connected components of the heads joined by the groups worth merging
    parent = {h: h for h in heads}

    def root(h):
        while parent[h] != h:
            parent[h] = parent[parent[h]]
            h = parent[h]
        return h

    for g in worth:
        hs = sorted(g)
        for h in hs[1:]:
            parent[root(h)] = root(hs[0])
    comps: dict = {}
    for h in heads:
        comps.setdefault(root(h), []).append(h)
    total, groups = 0, []
    for comp in comps.values():
        t, gs = _component_partition(comp, [g for g in worth if g <= set(comp)], alone, cost)
        total += t
        groups += gs
    groups.sort(key=lambda g: heads.index(g[0]))
    return total, groups


def _component_partition(comp: list, worth: list, alone: dict, cost: Mapping) -> tuple[int, list]:
    """Dynamic programming over the subsets of one component (bitmask of its heads)."""
    bit = {h: 1 << i for i, h in enumerate(comp)}
    masks = [(sum(bit[h] for h in g), cost[g]) for g in worth] + [(bit[h], alone[h]) for h in comp]
    by_low: dict = {}
    for m, c in masks:
        by_low.setdefault(m & -m, []).append((m, c))
    full = (1 << len(comp)) - 1
    memo: dict = {0: (0, ())}

    def best(mask: int):
        got = memo.get(mask)
        if got is not None:
            return got
        low = mask & -mask
        out = None
        for m, c in by_low[low]:
            if m & mask == m:
                t, parts = best(mask ^ m)
                if out is None or c + t < out[0]:
                    out = (c + t, (m,) + parts)
        memo[mask] = out
        return out

    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 4 * len(comp) + 100))
    try:
        t, parts = best(full)
    finally:
        sys.setrecursionlimit(old)
    return t, [tuple(h for h in comp if bit[h] & m) for m in parts]


@dataclass
class MergePlan:
    """A partition of the heads into groups, its total atoms and how sure the total is.

    ``total`` is achieved (every group of more than one head has a certified fusion
    of at most that many atoms); ``lower`` is the least total any partition into the
    groups considered can have; ``optimal`` when they meet.  ``separate``: every
    head kept as it is.
    """

    heads: list
    groups: list
    total: int
    lower: int
    separate: int
    refined: list = field(default_factory=list)

    @property
    def optimal(self) -> bool:
        return self.lower == self.total

    @property
    def saving(self) -> int:
        """Atoms the plan saves compared with keeping every head (its upper bound)."""
        return self.separate - self.total


def merge_plan(heads: Sequence[int], bounds: Mapping[Group, tuple[int, int]],
               refine: Optional[Callable[[Group], tuple[int, int]]] = None,
               max_rounds: int = 64) -> MergePlan:
    """The best partition of ``heads`` into the groups of ``bounds`` (group -> proven
    ``(lower, upper)``, single heads included), refining bounds on demand.

    ``refine(group)`` returns tighter proven bounds of a group (it is asked at most
    once per group, only for groups of the lower bounds' best partition whose bounds
    differ).

    >>> b = {frozenset({0}): (2, 2), frozenset({1}): (2, 2), frozenset({0, 1}): (2, 4)}
    >>> p = merge_plan([0, 1], b, refine=lambda g: (2, 2))
    >>> p.groups, p.total, p.optimal, p.refined
    ([(0, 1)], 2, True, [(0, 1)])
    >>> p = merge_plan([0, 1], b)
    >>> p.groups, p.total, p.lower, p.optimal
    ([(0,), (1,)], 4, 2, False)
    """
    bounds = dict(bounds)
    asked: set = set()
    refined: list = []
    for rnd in range(max_rounds + 1):
        lo_total, lo_groups = best_partition(heads, {g: b[0] for g, b in bounds.items()})
        hi_total, hi_groups = best_partition(heads, {g: b[1] for g, b in bounds.items()})
        if lo_total == hi_total or refine is None or rnd == max_rounds:
            break
        todo = [frozenset(g) for g in lo_groups if len(g) > 1 and frozenset(g) not in asked
                and bounds[frozenset(g)][0] < bounds[frozenset(g)][1]]
        if not todo:
            break
        for g in todo:
            asked.add(g)
            refined.append(tuple(sorted(g, key=list(heads).index)))
            lo, hi = refine(g)
            old = bounds[g]
            bounds[g] = (max(lo, old[0]), min(hi, old[1]))
    separate = sum(bounds[frozenset({h})][1] for h in heads)
    return MergePlan(list(heads), hi_groups, hi_total, lo_total, separate, refined)
