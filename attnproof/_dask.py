"""The Dask side of :mod:`attnproof.executor` (the only module that imports Dask).

Clients are opened once per process and kept until exit: a
``LocalCluster`` of single-threaded worker processes for ``workers=N``
(its scheduler reschedules nothing itself: ``allowed-failures`` is 0, so the
one retry below is the only one), or a client of an existing scheduler.

:func:`map_tasks_dask` keeps at most ``PREFETCH`` tasks per worker thread in
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

from .errors import ExecutorError

__all__ = ["map_tasks_dask", "client_for", "is_running", "shutdown", "NO_WORKER_GRACE"]

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


def map_tasks_dask(fn: Callable[..., Any], items: Sequence[tuple], spec,
                   progress: Optional[Callable[[int, int], None]] = None,
                   cost: Optional[Sequence[float]] = None) -> list:
    """Run ``fn(*args)`` for each tuple on Dask; results (or ``TaskFailed``) in input order.

    Tasks are submitted in input order, or by decreasing ``cost`` when given.
    """
    from .executor import TaskFailed

    n = len(items)
    if n == 0:
        return []
    client = client_for(spec)
    _, distributed = _import_distributed()
    from distributed import KilledWorker

    local = spec.scheduler is None
    pending = object()
    results: list = [pending] * n
    attempts = [0] * n
    reasons = [""] * n
    order = range(n) if cost is None else sorted(range(n), key=lambda i: -cost[i])
    queue = deque(order)
    blobs: list[Optional[bytes]] = [None] * n  # each task pickled once (kept for its retry)
    running: dict = {}                      # future -> (index, deadline)
    token = uuid.uuid4().hex[:10]
    name = _task_name(fn)
    done = 0
    timeout = spec.timeout
    no_worker_since: Optional[float] = None
    lost = ""

    def finish(i: int, value: Any) -> None:
        nonlocal done
        results[i] = value
        blobs[i] = None
        done += 1
        if progress is not None:
            progress(done, n)

    def retry_or_fail(i: int, reason: str) -> None:
        reasons[i] = reason
        if attempts[i] < ATTEMPTS:
            queue.appendleft(i)
        else:
            finish(i, TaskFailed(f"{reason} (after {ATTEMPTS} attempts)"))

    def abandon(futs) -> None:
        try:
            client.cancel(list(futs), force=True)
        except Exception:
            pass

    try:
        slots = max(_threads(client), 1)
        last_poll = time.monotonic()
        while queue or running:
            while queue and len(running) < slots * PREFETCH and not lost:
                i = queue.popleft()
                attempts[i] += 1
                if blobs[i] is None:
                    blobs[i] = pack(fn, items[i])     # an argument that cannot be pickled raises here
                try:
                    arg = blobs[i]
                    if len(arg) > SCATTER_BYTES:      # large arguments travel as data, not in the graph
                        arg = client.scatter(arg, hash=False)
                    fut = client.submit(run_packed, arg, key=f"{name}-{token}-{i}-{attempts[i]}",
                                        pure=False, retries=0)
                except Exception as e:
                    lost = f"cannot submit to the Dask scheduler: {type(e).__name__}: {e}"
                    attempts[i] -= 1
                    queue.appendleft(i)
                    break
                running[fut] = (i, None)
            if lost:
                break
            now = time.monotonic()
            if timeout is not None:
                # a task's deadline counts from when the scheduler says it is processing
                # (never earlier); without an answer, the oldest `slots` in flight are taken
                try:
                    busy = {k for ks in client.processing().values() for k in ks}
                    started = [f for f in running if f.key in busy]
                except Exception:
                    started = list(running)[:slots]
                for fut in started:
                    i, d = running[fut]
                    if d is None:
                        running[fut] = (i, now + timeout)
            wait_s = POLL
            deadlines = [d for _, d in running.values() if d is not None]
            if deadlines:
                wait_s = min(wait_s, max(min(deadlines) - now, 0.0) + 0.01)
            try:
                with client.as_current():
                    finished, _ = distributed.wait(list(running), timeout=wait_s,
                                                   return_when="FIRST_COMPLETED")
            except TimeoutError:
                finished = set()
            except Exception as e:  # the connection to the scheduler broke
                lost = f"lost the Dask scheduler ({type(e).__name__}: {e})"
                break
            ready = [f for f in finished if f.status == "finished"]
            try:
                values = dict(zip(ready, client.gather(ready))) if ready else {}
            except Exception:  # fetch them one by one below
                values = {}
            for fut in sorted(finished, key=lambda f: running[f][0]):
                i, _ = running.pop(fut)
                status = fut.status
                if status == "finished":
                    if fut in values:
                        finish(i, unpack(values[fut]))
                    else:
                        try:
                            value = fut.result()
                        except Exception as e:  # the result could not be fetched: treat as lost
                            retry_or_fail(i, f"result lost ({type(e).__name__})")
                        else:
                            finish(i, unpack(value))
                elif status == "error":
                    exc = fut.exception()
                    if isinstance(exc, KilledWorker):
                        retry_or_fail(i, "its worker died")
                    else:
                        abandon(running)
                        raise exc
                else:  # cancelled or lost, e.g. by a scheduler restart
                    retry_or_fail(i, f"task {status}")
                fut.release()
            now = time.monotonic()
            expired = [f for f, (_, d) in running.items() if d is not None and now >= d]
            if expired:
                _expire(client, expired, local)
                for fut in expired:
                    i, _ = running.pop(fut)
                    retry_or_fail(i, f"ran past {timeout:g} s")
            if now - last_poll >= POLL:
                last_poll = now
                if client.status not in ("running", "connecting"):
                    lost = f"lost the Dask scheduler (client {client.status})"
                    break
                threads = _threads(client)
                if threads:
                    slots, no_worker_since = threads, None
                elif no_worker_since is None:
                    no_worker_since = now
                elif now - no_worker_since > NO_WORKER_GRACE:
                    lost = f"no Dask worker for {NO_WORKER_GRACE:g} s"
                    break
    except KeyboardInterrupt:
        abandon(running)
        raise
    if lost:
        abandon(running)
        for i in [j for j, _ in running.values()] + list(queue):
            if results[i] is pending:
                finish(i, TaskFailed(lost))
    return results


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
