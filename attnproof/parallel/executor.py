"""One seam for independent work: run a list of tasks in process or on Dask.

Every embarrassingly parallel job of the toolkit (LP vertex enumeration of
THEORY Lemma 9.4, search sweeps, layer reports) calls :func:`map_tasks`;
nothing else in the package knows how tasks are executed.  A task is a pure,
module-level function and picklable arguments; results come back in the order
of the inputs, whichever executor ran them, so outputs are identical.

Where tasks run is an :class:`ExecutorSpec`: in process (the default), on a
``dask.distributed.LocalCluster`` of ``workers`` processes, or on an existing
Dask cluster given by its scheduler address.  Dask is imported only when a
distributed spec is actually used (:mod:`attnproof.parallel._dask`).

On a distributed executor a task whose worker dies, or that runs past
``timeout`` seconds, is retried once and then reported as a
:class:`TaskFailed` placeholder in its place: callers turn it into
``unknown``, never into an answer.  An exception raised by the task itself is
raised to the caller, as it would be in process.

>>> map_tasks(pow, [(2, 3), (3, 2)])
[8, 9]
>>> ExecutorSpec().describe()
'in process'
>>> ExecutorSpec(workers=2, timeout=60).describe()
'Dask LocalCluster with 2 worker(s), 60 s per task'
"""

from __future__ import annotations

import os
import re
import sys
import time
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence

from ..errors import ExecutorError
from .tasks import MapTasks, TaskFailed

__all__ = ["ExecutorSpec", "map_tasks", "mapper", "TaskFailed", "shutdown_executors", "SCHEDULER_ENV"]

SCHEDULER_ENV = "DASK_SCHEDULER_ADDRESS"
_ADDRESS = re.compile(r"^(tcp|tls|inproc|ucx|ws|wss)://[^\s/]+$")
_MAX_WORKERS = 1024


@dataclass(frozen=True)
class ExecutorSpec:
    """Where tasks run: in process (default), a local Dask cluster, or a scheduler address.

    ``workers > 0`` starts a ``LocalCluster`` of that many single-threaded
    worker processes, once per process and only when a batch needs it:
    batches of fewer than ``min_tasks`` tasks run in process, and a batch
    first runs in process for ``warmup`` seconds, so work that finishes in
    that time never pays for starting a cluster.  ``scheduler`` connects to
    an existing cluster instead (``tcp://HOST:PORT``).  ``timeout`` bounds
    each distributed task (seconds; ``None``: no bound).

    >>> ExecutorSpec(workers=2).in_process, ExecutorSpec().in_process
    (False, True)
    """

    workers: int = 0
    scheduler: Optional[str] = None
    timeout: Optional[float] = None
    warmup: float = 1.0
    min_tasks: int = 2

    def __post_init__(self) -> None:
        if not isinstance(self.workers, int) or not 0 <= self.workers <= _MAX_WORKERS:
            raise ExecutorError(f"workers {self.workers!r}: give an integer from 0 to {_MAX_WORKERS}")
        if self.scheduler is not None:
            if self.workers:
                raise ExecutorError("give either a number of local workers or a scheduler address, not both")
            check_scheduler_address(self.scheduler)
        if self.timeout is not None and not (0 < self.timeout <= 7 * 86400):
            raise ExecutorError(f"timeout {self.timeout!r}: give seconds between 0 and 604800")

    @property
    def in_process(self) -> bool:
        """True when tasks run in this process, one after the other."""
        return not self.workers and not self.scheduler

    @classmethod
    def from_options(cls, workers: Optional[int] = None, scheduler: Optional[str] = None,
                     timeout: Optional[float] = None,
                     environ: Mapping[str, str] = os.environ) -> "ExecutorSpec":
        """The spec of ``--workers`` / ``--scheduler``, with ``DASK_SCHEDULER_ADDRESS`` as default.

        ``workers=0`` asks for in-process execution whatever the environment says.

        >>> ExecutorSpec.from_options(environ={}).in_process
        True
        >>> ExecutorSpec.from_options(environ={"DASK_SCHEDULER_ADDRESS": "tcp://10.0.0.1:8786"}).scheduler
        'tcp://10.0.0.1:8786'
        >>> ExecutorSpec.from_options(workers=0, environ={"DASK_SCHEDULER_ADDRESS": "tcp://h:1"}).in_process
        True
        """
        if scheduler is None and workers is None:
            scheduler = environ.get(SCHEDULER_ENV) or None
        return cls(workers=workers or 0, scheduler=scheduler, timeout=timeout)

    def describe(self) -> str:
        """A short phrase for messages and reports."""
        if self.scheduler:
            where = f"Dask scheduler {self.scheduler}"
        elif self.workers:
            where = f"Dask LocalCluster with {self.workers} worker(s)"
        else:
            return "in process"
        return where + (f", {self.timeout:g} s per task" if self.timeout else "")


def check_scheduler_address(address: str) -> str:
    """Accept ``tcp://HOST:PORT`` (or tls, inproc, ucx, ws, wss); raise ExecutorError otherwise.

    >>> check_scheduler_address("tcp://127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    >>> check_scheduler_address("127.0.0.1")
    Traceback (most recent call last):
    ...
    attnproof.errors.ExecutorError: scheduler address '127.0.0.1': expected tcp://HOST:PORT
    """
    if not isinstance(address, str) or not _ADDRESS.match(address):
        raise ExecutorError(f"scheduler address {address!r}: expected tcp://HOST:PORT")
    return address


def _in_process(fn, items, results, start, stop, progress, total, offset=0,
                deadline: Optional[float] = None) -> int:
    """Run ``items[start:stop]`` here; stop early (returning the next index) past ``deadline``."""
    i = start
    while i < stop:
        if deadline is not None and i > start and time.monotonic() >= deadline:
            break
        results[i] = fn(*items[i])
        i += 1
        if progress is not None:
            progress(offset + i, total)
    return i


def map_tasks(fn: Callable[..., Any], arg_tuples: Iterable[Sequence[Any]], *,
              spec: Optional[ExecutorSpec] = None,
              progress: Optional[Callable[[int, int], None]] = None,
              cost: Optional[Sequence[float]] = None) -> list:
    """``[fn(*args) for args in arg_tuples]``, in input order, on the executor ``spec``.

    ``progress(done, total)`` is called as tasks finish (in any order on Dask).
    On a distributed spec an entry may be a :class:`TaskFailed` (the task's
    worker died twice, or it ran past ``spec.timeout`` twice).  ``cost``, an
    estimate of each task's relative cost, only orders the work on Dask: the
    costliest tasks are sent first, so that no long task starts last while
    the other workers are idle (the results keep the input order).

    >>> map_tasks(divmod, [(7, 2)], spec=ExecutorSpec(workers=2))   # one task: in process
    [(3, 1)]
    """
    items = [tuple(a) for a in arg_tuples]
    spec = spec or ExecutorSpec()
    n = len(items)
    if cost is not None and len(cost) != n:
        raise ValueError(f"map_tasks: {len(cost)} costs for {n} tasks")
    results: list = [None] * n
    if spec.in_process or n < max(spec.min_tasks, 1):
        _in_process(fn, items, results, 0, n, progress, n)
        return results
    from ._dask import DaskMap    # imports nothing heavy; Dask itself is imported on first use
    remote = DaskMap(spec)
    start = 0
    if spec.workers and spec.warmup > 0 and not remote.started:
        start = _in_process(fn, items, results, 0, n, progress, n,
                            deadline=time.monotonic() + spec.warmup)
        if start == n:
            return results
    sub = None if progress is None else (lambda done, _t, _s=start: progress(_s + done, n))
    results[start:] = remote(fn, items[start:], progress=sub,
                             cost=None if cost is None else list(cost)[start:])
    return results


def mapper(spec: Optional[ExecutorSpec] = None) -> MapTasks:
    """The map of ``spec``, for code that takes a map function (:class:`attnproof.parallel.tasks.MapTasks`).

    >>> mapper()(divmod, [(7, 2), (9, 4)])
    [(3, 1), (2, 1)]
    """
    return partial(map_tasks, spec=spec)


def shutdown_executors() -> None:
    """Close every Dask client and local cluster this process opened (also done at exit)."""
    mod = sys.modules.get(__name__.rsplit(".", 1)[0] + "._dask")
    if mod is not None:
        mod.shutdown()
