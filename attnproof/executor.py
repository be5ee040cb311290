"""One seam for independent work: run a list of tasks in process or on Dask.

Every embarrassingly parallel job of the toolkit (LP vertex enumeration of
THEORY Lemma 9.4, search sweeps, layer reports) calls :func:`map_tasks`;
nothing else in the package knows how tasks are executed.  A task is a pure,
module-level function and picklable arguments; results come back in the order
of the inputs, whichever executor ran them, so outputs are identical.

>>> map_tasks(pow, [(2, 3), (3, 2)])
[8, 9]
>>> ExecutorSpec().describe()
'in process'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Sequence

__all__ = ["ExecutorSpec", "map_tasks", "TaskFailed"]


class TaskFailed:
    """Placeholder result of a task that failed or timed out (reported, never guessed).

    >>> TaskFailed("timeout").reason
    'timeout'
    """

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"TaskFailed({self.reason!r})"


@dataclass(frozen=True)
class ExecutorSpec:
    """Where tasks run: in process (default), a local Dask cluster, or a scheduler address."""

    workers: int = 0                 # > 0: a dask.distributed.LocalCluster with this many workers
    scheduler: Optional[str] = None  # tcp://HOST:PORT of an existing Dask scheduler
    timeout: Optional[float] = None  # seconds per task (distributed runs)

    @property
    def in_process(self) -> bool:
        return not self.workers and not self.scheduler

    def describe(self) -> str:
        if self.scheduler:
            return f"dask scheduler {self.scheduler}"
        if self.workers:
            return f"dask LocalCluster with {self.workers} worker(s)"
        return "in process"


def map_tasks(fn: Callable[..., Any], arg_tuples: Iterable[Sequence[Any]], *,
              spec: Optional[ExecutorSpec] = None,
              progress: Optional[Callable[[int, int], None]] = None) -> list:
    """``[fn(*args) for args in arg_tuples]``, in input order, on the executor ``spec``.

    ``progress(done, total)`` is called as tasks finish.
    """
    items = [tuple(a) for a in arg_tuples]
    spec = spec or ExecutorSpec()
    if not spec.in_process:
        from ._dask import map_tasks_dask    # the only place that imports Dask
        return map_tasks_dask(fn, items, spec, progress)
    out = []
    for i, args in enumerate(items):
        out.append(fn(*args))
        if progress is not None:
            progress(i + 1, len(items))
    return out
