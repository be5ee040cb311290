"""Independent tasks and the map that runs them: the shape of every parallel job.

A task is a pure, module-level function and a tuple of picklable arguments; a
*map* runs a list of them and returns the results in input order.  Code that
has parallel work (the vertex enumeration of THEORY Lemma 9.4, search sweeps,
layer reports) takes a map as an argument, :class:`MapTasks`, and runs
:func:`map_in_process` when given none; where the tasks really run (this
process or Dask workers) is decided above it, by :mod:`attnproof.parallel.executor`.

>>> map_in_process(pow, [(2, 3), (3, 2)], progress=lambda done, total: None)
[8, 9]
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional, Protocol, Sequence

__all__ = ["TaskFailed", "MapTasks", "Progress", "map_in_process"]

Progress = Optional[Callable[[int, int], None]]


class TaskFailed:
    """Placeholder result of a task that failed or timed out (reported, never guessed).

    >>> TaskFailed("timeout").reason
    'timeout'
    >>> TaskFailed("a") == TaskFailed("a"), bool(TaskFailed("a"))
    (True, False)
    """

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"TaskFailed({self.reason!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TaskFailed) and other.reason == self.reason

    def __hash__(self) -> int:
        return hash(("TaskFailed", self.reason))

    def __bool__(self) -> bool:
        return False


class MapTasks(Protocol):
    """``[fn(*args) for args in arg_tuples]`` in input order, wherever it runs.

    ``progress(done, total)`` is called as tasks finish; ``cost`` estimates each
    task's relative cost (it may only change the order of the work, never the
    results).  An entry may be a :class:`TaskFailed` where the tasks run remotely.
    """

    def __call__(self, fn: Callable[..., Any], arg_tuples: Iterable[Sequence[Any]], *,
                 progress: Progress = None, cost: Optional[Sequence[float]] = None) -> list: ...


def map_in_process(fn: Callable[..., Any], arg_tuples: Iterable[Sequence[Any]], *,
                   progress: Progress = None, cost: Optional[Sequence[float]] = None) -> list:
    """The map of this process: one task after the other, in input order."""
    items = [tuple(a) for a in arg_tuples]
    if cost is not None and len(cost) != len(items):
        raise ValueError(f"map_tasks: {len(cost)} costs for {len(items)} tasks")
    out = []
    for i, args in enumerate(items):
        out.append(fn(*args))
        if progress is not None:
            progress(i + 1, len(items))
    return out
