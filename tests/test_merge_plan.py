"""The merge plan's search (attnproof.transformer.plan) against a brute force over every
partition: hypothesis-generated costs, bounds that are refined on demand."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnproof.transformer.plan import best_partition, merge_plan

sys.path.insert(0, str(Path(__file__).resolve().parent))
from independent_count import partitions  # noqa: E402



def brute(heads, cost):
    """The least total over the partitions into groups that all have a cost."""
    best = None
    for p in partitions(list(heads)):
        keys = [frozenset(g) for g in p]
        if all(k in cost for k in keys):
            t = sum(cost[k] for k in keys)
            best = t if best is None else min(best, t)
    return best


@st.composite
def costs(draw, full: bool):
    n = draw(st.integers(1, 6))
    heads = list(range(n))
    cost = {frozenset({h}): draw(st.integers(1, 20)) for h in heads}
    for k in range(2, n + 1):
        for g in itertools.combinations(heads, k):
            if full or draw(st.booleans()):
                cost[frozenset(g)] = draw(st.integers(1, 60))
    return heads, cost


@settings(max_examples=150, deadline=None)
@given(costs(full=True))
def test_best_partition_equals_brute_force(hc):
    heads, cost = hc
    total, groups = best_partition(heads, cost)
    assert total == brute(heads, cost)
    assert sorted(h for g in groups for h in g) == heads
    assert sum(cost[frozenset(g)] for g in groups) == total


@settings(max_examples=150, deadline=None)
@given(costs(full=False))
def test_best_partition_on_some_groups_equals_brute_force(hc):
    heads, cost = hc
    assert best_partition(heads, cost)[0] == brute(heads, cost)


@settings(max_examples=100, deadline=None)
@given(costs(full=True), st.data())
def test_refined_plan_is_optimal_and_never_asks_twice(hc, data):
    """Bounds around the true costs; ``refine`` reveals the true cost.  The plan is then
    the brute-force optimum, its total achieved by upper bounds, each group asked once."""
    heads, cost = hc
    bounds = {}
    for g, c in cost.items():
        if len(g) == 1:
            bounds[g] = (c, c)
        else:
            bounds[g] = (max(1, c - data.draw(st.integers(0, 5))), c + data.draw(st.integers(0, 5)))
    asked = []

    def refine(g):
        asked.append(g)
        return cost[g], cost[g]

    p = merge_plan(heads, bounds, refine=refine)
    assert len(asked) == len(set(asked))
    assert p.optimal and p.total == brute(heads, cost) and p.lower == p.total
    assert p.separate == sum(cost[frozenset({h})] for h in heads)
    assert sum(cost[frozenset(g)] for g in p.groups) == p.total


def test_unrefined_bounds_bracket_the_optimum():
    b = {frozenset({0}): (4, 4), frozenset({1}): (4, 4), frozenset({0, 1}): (4, 16)}
    p = merge_plan([0, 1], b)
    assert (p.lower, p.total, p.optimal, p.groups) == (4, 8, False, [(0,), (1,)])


def test_a_group_without_a_cost_is_never_used():
    cost = {frozenset({0}): 5, frozenset({1}): 5, frozenset({2}): 5, frozenset({0, 1, 2}): 1}
    assert best_partition([0, 1, 2], cost) == (1, [(0, 1, 2)])
    del cost[frozenset({0, 1, 2})]
    assert best_partition([0, 1, 2], cost) == (15, [(0,), (1,), (2,)])


@pytest.mark.parametrize("argv, message", [
    (["--question-timeout", "0"], "give seconds between 0 and 86400"),
    (["--question-timeout", "nan"], "give seconds between 0 and 86400"),
    (["--question-timeout", "abc"], "is not a number of seconds"),
    (["--plan-heads", "0"], "must be positive"),
    (["--plan-heads", "13"], "--plan-heads 13: give a number from 1 to 12"),
])
def test_merge_report_options_are_one_line_errors(tmp_path, run_cli, argv, message):
    from attnproof.transformer.capture import random_capture, save_capture

    save_capture(random_capture(3, 4, 2, 2), tmp_path / "c.npz")
    rc, out, err = run_cli("merge-report", str(tmp_path / "c.npz"), "-o", str(tmp_path / "r"), *argv)
    last = err.strip().splitlines()[-1]
    assert rc == 3 and last.startswith(("attnproof merge-report: error:", "attnproof: error:"))
    assert message in last
    assert "Traceback (most recent call last)" not in err
