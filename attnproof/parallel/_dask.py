"""The Dask side of :mod:`attnproof.parallel.executor` (the only module that imports Dask).

Clients are opened once per process and kept until exit: a
``LocalCluster`` of single-threaded worker processes for ``workers=N``
(its scheduler reschedules nothing itself: ``allowed-failures`` is 0, so the
one retry below is the only one), or a client of an existing scheduler.

:class:`DaskMap` keeps at most ``PREFETCH`` tasks per worker thread in
flight (the next ones wait at the scheduler, not in this process); a
task's deadline (``spec.timeout``) is counted from when the scheduler reports
it processing on a worker.  A task that finishes returns its result; one whose
worker died (``KilledWorker``), that was lost or cancelled, or that passed its
deadline is submitted once more, then recorded as ``TaskFailed``.  A task
that raises an exception of its own makes the whole call raise it (as in
process).  A timed-out task on a local cluster has its worker process
killed (its nanny starts a new one); on an external cluster it is abandoned
(the tasks of this package bound their own running time).  When no worker
is left for ``NO_WORKER_GRACE`` seconds, or the scheduler is lost, the
remaining tasks are ``TaskFailed``: the answer is honestly partial, never a
hang.

>>> is_running(type("Spec", (), {"workers": 3, "scheduler": None})())
False
"""

from __future__ import annotations

import atexit
import logging
import signal
import threading
import time
import uuid
from collections import deque
from typing import Any, Callable, Optional, Sequence

from ..errors import ExecutorError
from .tasks import TaskFailed

__all__ = ["DaskMap", "client_for", "is_running", "shutdown", "NO_WORKER_GRACE"]

NO_WORKER_GRACE = 30.0      # seconds without any worker before pending tasks are failed
CONNECT_TIMEOUT = 10.0      # seconds to reach an existing scheduler
POLL = 0.5                  # seconds between checks of deadlines and workers
PREFETCH = 8                # tasks in flight per worker thread: the next ones wait at the scheduler
ATTEMPTS = 2                # one try and one retry
# a local cluster shares the machine with its own tasks: Dask's periodic bookkeeping
# (event-loop tick measurement every 20 ms, memory checks every 100 ms, system statistics
# for the dashboard every 500 ms) is slowed down; idle, the client process then uses
# about 0.6% of a core instead of 4%, and each worker 2% instead of 2.6%
QUIET_LOCAL = {"distributed.admin.tick.interval": "500ms",
               "distributed.admin.system-monitor.interval": "2s",
               "distributed.worker.memory.monitor-interval": "1s",
               "distributed.worker.profile.enabled": False}
PRELOAD = __name__.rsplit(".", 1)[0] + "._dask_preload"   # imported by local workers as they start

_clients: dict[tuple, tuple[Any, Any]] = {}
# A local cluster that is interrupted while it starts cannot be closed (its nannies are
# half started) and leaks its semaphores.  While ``starting`` is set, a stop signal's
# handler (the command line's) only records its number in ``pending_signal``; the signal
# is raised again once the cluster is up and registered, so that it is closed cleanly.
starting = threading.Event()
pending_signal: list[int] = []
_lock = threading.Lock()
_atexit_registered = False


SCATTER_BYTES = 1 << 20     # a packed task above 1 MiB is scattered first (Dask warns of large graphs)


def _key(spec) -> tuple:
    return ("scheduler", spec.scheduler) if spec.scheduler else ("local", spec.workers)


def is_running(spec) -> bool:
    """True when this process already holds a client for ``spec``."""
    return _key(spec) in _clients


def _import_distributed():
    try:
        import dask
        import distributed
    except ImportError as e:  # pragma: no cover - a hard dependency, guarded anyway
        raise ExecutorError(f"Dask is not installed ({e}); pip install 'dask[distributed]'") from None
    return dask, distributed


def client_for(spec):
    """The ``distributed.Client`` for ``spec``, opened on first use and kept until exit."""
    global _atexit_registered
    key = _key(spec)
    with _lock:
        if key in _clients:
            client, cluster = _clients[key]
            if client.status == "running":
                return client
            _close(client, cluster)
            del _clients[key]
        dask, distributed = _import_distributed()
        cluster = None
        try:
            if spec.scheduler:
                client = distributed.Client(spec.scheduler, timeout=CONNECT_TIMEOUT,
                                            set_as_default=False)
            else:
                for name in ("distributed.scheduler", "distributed.nanny", "distributed.core"):
                    # this process owns the scheduler: its log lines about dead workers would be
                    # noise on stderr; the affected tasks are reported as TaskFailed instead
                    logging.getLogger(name).setLevel(logging.CRITICAL)
                # the scheduler's HTTP routes on a free local port (the default 8787 may be taken;
                # no dashboard is drawn without bokeh)
                starting.set()
                with dask.config.set({"distributed.scheduler.allowed-failures": 0,
                                      # a worker holds only the task it runs: a death hits one task
                                      "distributed.scheduler.worker-saturation": 1.0,
                                      **QUIET_LOCAL}):
                    cluster = distributed.LocalCluster(
                        n_workers=spec.workers, threads_per_worker=1, processes=True,
                        dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR,
                        # each worker imports NumPy, SciPy, FLINT and the task modules as it
                        # starts, not inside its first task
                        preload=[PRELOAD])
                client = distributed.Client(cluster, set_as_default=False)
        except ExecutorError:
            raise
        except Exception as e:
            if cluster is not None:
                cluster.close()
            starting.clear()
            if pending_signal:
                signal.raise_signal(pending_signal.pop())
            where = spec.scheduler or f"a local cluster of {spec.workers} worker(s)"
            raise ExecutorError(f"cannot start or reach {where}: {type(e).__name__}: {e}") from None
        finally:
            starting.clear()
        _clients[key] = (client, cluster)
        if not _atexit_registered:
            atexit.register(shutdown)
            _atexit_registered = True
    if pending_signal:
        signal.raise_signal(pending_signal.pop())
    return client


def _close(client, cluster) -> None:
    try:
        client.close(timeout=10)
    except Exception:
        pass
    if cluster is not None:
        try:
            cluster.close(timeout=10)
        except Exception:
            pass


def shutdown() -> None:
    """Close every client and local cluster opened here."""
    with _lock:
        items = list(_clients.values())
        _clients.clear()
    for client, cluster in items:
        _close(client, cluster)


def _threads(client) -> int:
    try:
        info = client.scheduler_info()
    except Exception:
        return 0
    return sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values())


def _task_name(fn) -> str:
    name = getattr(fn, "__name__", "task")
    return "".join(c if c.isalnum() or c in "_." else "_" for c in name)[:40] or "task"


class DaskMap:
    """The map of a Dask executor: :class:`attnproof.parallel.tasks.MapTasks` for ``spec``.

    ``started`` says whether this process already holds the spec's client (a
    batch can then skip the in-process warm-up).  Each call is one :class:`_Batch`.
    """

    def __init__(self, spec) -> None:
        self.spec = spec

    @property
    def started(self) -> bool:
        return is_running(self.spec)

    def __call__(self, fn: Callable[..., Any], items: Sequence[tuple], *,
                 progress: Optional[Callable[[int, int], None]] = None,
                 cost: Optional[Sequence[float]] = None) -> list:
        """Run ``fn(*args)`` for each tuple on Dask; results (or ``TaskFailed``) in input order.

        Tasks are submitted in input order, or by decreasing ``cost`` when given.
        """
        items = [tuple(a) for a in items]
        if not items:
            return []
        return _Batch(client_for(self.spec), self.spec, fn, items, progress, cost).run()


_PENDING = object()


class _Batch:
    """One batch of tasks on a Dask client: submitted, watched, retried once, collected.

    At most ``PREFETCH`` tasks per worker thread are in flight; the rest wait in
    ``queue``.  ``running`` maps a future to its task's index and deadline (None
    until the scheduler reports it processing).  ``lost`` is set, with its reason,
    when the scheduler or every worker is gone: the tasks left are then failed.
    """

    def __init__(self, client, spec, fn, items: list, progress, cost) -> None:
        n = len(items)
        self.client, self.fn, self.items, self.progress = client, fn, items, progress
        self.local = spec.scheduler is None
        self.timeout = spec.timeout
        self.results: list = [_PENDING] * n
        self.attempts = [0] * n
        self.reasons = [""] * n
        order = range(n) if cost is None else sorted(range(n), key=lambda i: -cost[i])
        self.queue = deque(order)
        self.blobs: list[Optional[bytes]] = [None] * n  # each task pickled once (kept for its retry)
        self.running: dict = {}                          # future -> (index, deadline)
        self.token = uuid.uuid4().hex[:10]
        self.name = _task_name(fn)
        self.done = 0
        self.no_worker_since: Optional[float] = None
        self.lost = ""
        self.slots = 1

    # --- results -------------------------------------------------------------------------
    def finish(self, i: int, value: Any) -> None:
        self.results[i] = value
        self.blobs[i] = None
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, len(self.items))

    def retry_or_fail(self, i: int, reason: str) -> None:
        self.reasons[i] = reason
        if self.attempts[i] < ATTEMPTS:
            self.queue.appendleft(i)
        else:
            self.finish(i, TaskFailed(f"{reason} (after {ATTEMPTS} attempts)"))

    def abandon(self) -> None:
        try:
            self.client.cancel(list(self.running), force=True)
        except Exception:
            pass

    # --- one round of the loop -----------------------------------------------------------
    def submit(self) -> None:
        """Fill the free slots from the queue (sets ``lost`` when the scheduler refuses)."""
        while self.queue and len(self.running) < self.slots * PREFETCH and not self.lost:
            i = self.queue.popleft()
            self.attempts[i] += 1
            blob = self.blobs[i]
            if blob is None:
                blob = pack(self.fn, self.items[i])  # an argument that cannot be pickled raises here
                self.blobs[i] = blob
            try:
                # large arguments travel as data, not in the graph
                arg = self.client.scatter(blob, hash=False) if len(blob) > SCATTER_BYTES else blob
                fut = self.client.submit(run_packed, arg,
                                         key=f"{self.name}-{self.token}-{i}-{self.attempts[i]}",
                                         pure=False, retries=0)
            except Exception as e:
                self.lost = f"cannot submit to the Dask scheduler: {type(e).__name__}: {e}"
                self.attempts[i] -= 1
                self.queue.appendleft(i)
                break
            self.running[fut] = (i, None)

    def start_deadlines(self, now: float) -> None:
        """A task's deadline counts from when the scheduler says it is processing (never
        earlier); without an answer, the oldest ``slots`` in flight are taken."""
        if self.timeout is None:
            return
        try:
            busy = {k for ks in self.client.processing().values() for k in ks}
            started = [f for f in self.running if f.key in busy]
        except Exception:
            started = list(self.running)[:self.slots]
        for fut in started:
            i, d = self.running[fut]
            if d is None:
                self.running[fut] = (i, now + self.timeout)

    def wait(self, now: float, distributed) -> set:
        """The futures that finished within one poll (or before the next deadline)."""
        wait_s = POLL
        deadlines = [d for _, d in self.running.values() if d is not None]
        if deadlines:
            wait_s = min(wait_s, max(min(deadlines) - now, 0.0) + 0.01)
        finished: set = set()
        try:
            with self.client.as_current():
                finished, _ = distributed.wait(list(self.running), timeout=wait_s,
                                               return_when="FIRST_COMPLETED")
        except TimeoutError:
            pass
        except Exception as e:  # the connection to the scheduler broke
            self.lost = f"lost the Dask scheduler ({type(e).__name__}: {e})"
        return finished

    def collect(self, finished: set, killed_worker: type) -> None:
        """Record finished futures: results, retries, or the task's own exception raised."""
        ready = [f for f in finished if f.status == "finished"]
        try:
            values = dict(zip(ready, self.client.gather(ready))) if ready else {}
        except Exception:  # fetch them one by one below
            values = {}
        for fut in sorted(finished, key=lambda f: self.running[f][0]):
            i, _ = self.running.pop(fut)
            status = fut.status
            if status == "finished":
                if fut in values:
                    self.finish(i, unpack(values[fut]))
                else:
                    try:
                        value = fut.result()
                    except Exception as e:  # the result could not be fetched: treat as lost
                        self.retry_or_fail(i, f"result lost ({type(e).__name__})")
                    else:
                        self.finish(i, unpack(value))
            elif status == "error":
                exc = fut.exception()
                if isinstance(exc, killed_worker):
                    self.retry_or_fail(i, "its worker died")
                else:
                    self.abandon()
                    raise exc
            else:  # cancelled or lost, e.g. by a scheduler restart
                self.retry_or_fail(i, f"task {status}")
            fut.release()

    def expire(self, now: float) -> None:
        """Tasks past their deadline: stopped (their local worker killed), then retried or failed."""
        expired = [f for f, (_, d) in self.running.items() if d is not None and now >= d]
        if expired:
            _expire(self.client, expired, self.local)
            for fut in expired:
                i, _ = self.running.pop(fut)
                self.retry_or_fail(i, f"ran past {self.timeout:g} s")

    def watch_workers(self, now: float) -> None:
        """Count the worker threads (the slots); set ``lost`` when none is left for too long."""
        if self.client.status not in ("running", "connecting"):
            self.lost = f"lost the Dask scheduler (client {self.client.status})"
            return
        threads = _threads(self.client)
        if threads:
            self.slots, self.no_worker_since = threads, None
        elif self.no_worker_since is None:
            self.no_worker_since = now
        elif now - self.no_worker_since > NO_WORKER_GRACE:
            self.lost = f"no Dask worker for {NO_WORKER_GRACE:g} s"

    # --- the loop ------------------------------------------------------------------------
    def run(self) -> list:
        _, distributed = _import_distributed()
        from distributed import KilledWorker

        try:
            self.slots = max(_threads(self.client), 1)
            last_poll = time.monotonic()
            while self.queue or self.running:
                self.submit()
                if self.lost:
                    break
                now = time.monotonic()
                self.start_deadlines(now)
                finished = self.wait(now, distributed)
                if self.lost:
                    break
                self.collect(finished, KilledWorker)
                now = time.monotonic()
                self.expire(now)
                if now - last_poll >= POLL:
                    last_poll = now
                    self.watch_workers(now)
                    if self.lost:
                        break
        except KeyboardInterrupt:
            self.abandon()
            raise
        if self.lost:
            self.abandon()
            for i in [j for j, _ in self.running.values()] + list(self.queue):
                if self.results[i] is _PENDING:
                    self.finish(i, TaskFailed(self.lost))
        return self.results


def pack(fn: Callable[..., Any], args: Sequence) -> bytes:
    """One task as bytes: ``fn`` (by reference when it is importable) and its arguments.

    Dask walks the arguments of a submitted call, element by element, looking
    for futures (and its scheduler unpickles them again); a task of nested
    tuples (a chunk of index tuples, the exact points of three heads) costs
    more there than its own pickling.  Bytes are passed through untouched.

    >>> unpack(run_packed(pack(divmod, (7, 2))))
    (3, 1)
    """
    import cloudpickle

    return cloudpickle.dumps((fn, tuple(args)), protocol=5)


def run_packed(blob: bytes) -> bytes:
    """Worker side of :func:`pack`: run the task and return its result pickled.

    An exception of the task is raised as it is (the caller sees it as in process).
    """
    import pickle

    import cloudpickle

    fn, args = pickle.loads(blob)
    return cloudpickle.dumps(fn(*args), protocol=5)


def unpack(blob: bytes) -> Any:
    """The result of :func:`run_packed`."""
    import pickle

    return pickle.loads(blob)


def _worker_pid() -> int:
    import os
    return os.getpid()


def _expire(client, futures, local: bool) -> None:
    """Stop waiting for ``futures``; on a local cluster, kill the worker processes still running them.

    A running Python thread cannot be interrupted, and a graceful restart waits
    for it; the local cluster's nannies start a fresh worker in place of a
    killed one.  An external cluster's workers are left alone.
    """
    import os
    import signal

    keys = {f.key for f in futures}
    workers = []
    if local:
        try:
            workers = [w for w, ks in client.processing().items() if keys & set(ks)]
        except Exception:
            workers = []
    if workers:
        try:
            pids = client.run(_worker_pid, workers=workers)
        except Exception:
            pids = {}
        for pid in pids.values():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:   # let the scheduler notice before anything is resubmitted
            try:
                if not set(workers) & set(client.scheduler_info()["workers"]):
                    break
            except Exception:
                break
            time.sleep(0.05)
    try:
        client.cancel(list(futures), force=True)
    except Exception:
        pass
