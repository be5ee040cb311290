"""The executor seam: in process, on a Dask LocalCluster, faults (dead workers, timeouts)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

import pytest

from attnproof.errors import ExecutorError, InputError
from attnproof.parallel.executor import ExecutorSpec, TaskFailed, map_tasks


# Task functions are pickled by value (this test module is not importable on a worker).
def _register_by_value() -> None:
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])


def square_after(x: int, seconds: float) -> int:
    time.sleep(seconds)
    return x * x


def die_or_square(x: int, die: bool) -> int:
    if die:
        os._exit(7)  # the worker process dies
    return x * x


def fail_on(x: int, bad: int) -> int:
    if x == bad:
        raise ValueError(f"bad input {x}")
    return x + 1


def worker_pid() -> int:
    return os.getpid()


# --------------------------------------------------------------------------- in process

def test_in_process_order_and_progress():
    seen = []
    out = map_tasks(square_after, [(i, 0) for i in range(5)], progress=lambda d, t: seen.append((d, t)))
    assert out == [0, 1, 4, 9, 16]
    assert seen == [(i, 5) for i in range(1, 6)]


def test_in_process_exception_propagates():
    with pytest.raises(ValueError, match="bad input 2"):
        map_tasks(fail_on, [(i, 2) for i in range(4)])


def test_small_batches_never_start_a_cluster():
    from attnproof.parallel import _dask

    spec = ExecutorSpec(workers=2)
    assert map_tasks(square_after, [(3, 0)], spec=spec) == [9]
    # two quick tasks finish inside the in-process warm-up
    assert map_tasks(square_after, [(1, 0), (2, 0)], spec=spec) == [1, 4]
    assert not _dask.is_running(spec)


@pytest.mark.parametrize("kwargs, message", [
    ({"workers": -1}, "workers -1"),
    ({"workers": 2, "scheduler": "tcp://127.0.0.1:8786"}, "not both"),
    ({"scheduler": "localhost"}, "expected tcp://HOST:PORT"),
    ({"scheduler": "tcp://a b:1"}, "expected tcp://HOST:PORT"),
    ({"timeout": 0}, "timeout 0"),
    ({"timeout": float("nan")}, "timeout nan"),
])
def test_bad_specs_are_input_errors(kwargs, message):
    with pytest.raises(ExecutorError, match=message):
        ExecutorSpec(**kwargs)
    assert issubclass(ExecutorError, InputError)


def test_environment_gives_the_default_scheduler():
    env = {"DASK_SCHEDULER_ADDRESS": "tcp://127.0.0.1:9"}
    assert ExecutorSpec.from_options(environ=env).scheduler == "tcp://127.0.0.1:9"
    assert ExecutorSpec.from_options(workers=3, environ=env) == ExecutorSpec(workers=3)
    assert ExecutorSpec.from_options(scheduler="tcp://h:2", environ=env).scheduler == "tcp://h:2"


def test_unreachable_scheduler_is_a_one_line_error():
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    spec = ExecutorSpec(scheduler=f"tcp://127.0.0.1:{port}")
    from attnproof.parallel import _dask

    old = _dask.CONNECT_TIMEOUT
    _dask.CONNECT_TIMEOUT = 2.0
    try:
        with pytest.raises(ExecutorError, match="cannot start or reach"):
            map_tasks(square_after, [(1, 0), (2, 0)], spec=spec)
    finally:
        _dask.CONNECT_TIMEOUT = old


# --------------------------------------------------------------------------- LocalCluster

@pytest.fixture(scope="module")
def local2():
    _register_by_value()
    # the cluster is kept for the rest of the run (other test modules reuse it) and closed at exit
    return ExecutorSpec(workers=2, warmup=0)


def test_local_cluster_results_in_input_order(local2):
    # later inputs finish first; the answer is still in input order, as in process
    args = [(i, 0.05 * (6 - i)) for i in range(6)]
    seen = []
    out = map_tasks(square_after, args, spec=local2, progress=lambda d, t: seen.append((d, t)))
    assert out == map_tasks(square_after, [(i, 0) for i, _ in args])
    assert [d for d, _ in seen] == list(range(1, 7)) and {t for _, t in seen} == {6}


def nested_sum(points: tuple, chunk: tuple) -> list:
    return [sum(points[i][0] for i in t) for t in chunk]


def test_nested_arguments_and_results_travel_packed(local2):
    # tasks of nested tuples (the shape of a vertex-enumeration chunk) go as one pickled blob
    points = tuple((i, -i) for i in range(50))
    chunks = [(points, tuple((i, (i + s) % 50) for i in range(40))) for s in range(4)]
    assert map_tasks(nested_sum, chunks, spec=local2) == map_tasks(nested_sum, chunks)


def byte_total(data: bytes, k: int) -> int:
    return sum(data[::4096]) + k


def test_large_arguments_are_scattered_not_sent_in_the_graph(local2, recwarn):
    # an 11 MiB argument (above SCATTER_BYTES): same answers, and Dask has no large graph to warn of
    from attnproof.parallel import _dask

    data = bytes(range(256)) * (11 * 4096)      # above Dask's 10 MB large-graph warning
    assert len(data) > _dask.SCATTER_BYTES
    out = map_tasks(byte_total, [(data, k) for k in range(3)], spec=local2)
    assert out == map_tasks(byte_total, [(data, k) for k in range(3)])
    assert not [w for w in recwarn if "large graph" in str(w.message)]


def started_at(x: int, seconds: float) -> tuple:
    t = time.time()
    time.sleep(seconds)
    return x, t


def test_costliest_tasks_are_sent_first_results_keep_input_order(local2):
    out = map_tasks(started_at, [(i, 0.3) for i in range(5)], spec=local2, cost=[1, 2, 3, 4, 5])
    assert [x for x, _ in out] == list(range(5))
    starts = [t for _, t in out]
    assert starts[0] >= max(starts[3:]) and starts[1] >= max(starts[3:])  # cheapest go last
    with pytest.raises(ValueError, match="2 costs for 5 tasks"):
        map_tasks(started_at, [(i, 0) for i in range(5)], cost=[1, 2])


def test_an_argument_that_cannot_be_pickled_is_an_error_not_a_failed_task(local2):
    lock = threading.Lock()
    with pytest.raises(TypeError, match="pickle"):
        map_tasks(id, [(lock,), (lock,)], spec=local2)


def test_pack_round_trip():
    from attnproof.parallel._dask import pack, run_packed, unpack

    assert unpack(run_packed(pack(nested_sum, (((1, 0), (2, 0)), ((0, 1),))))) == [3]
    with pytest.raises(ValueError, match="bad input 3"):
        run_packed(pack(fail_on, (3, 3)))


@pytest.mark.slow
def test_local_cluster_task_exception_propagates(local2):
    with pytest.raises(ValueError, match="bad input 3"):
        map_tasks(fail_on, [(i, 3) for i in range(6)], spec=local2)


@pytest.mark.slow
def test_timeout_is_retried_once_then_reported(local2):
    spec = ExecutorSpec(workers=2, warmup=0, timeout=1.5)
    t0 = time.monotonic()
    out = map_tasks(square_after, [(1, 0), (2, 60), (3, 0), (4, 0)], spec=spec)
    assert out[0] == 1 and out[2] == 9 and out[3] == 16
    assert isinstance(out[1], TaskFailed) and "ran past 1.5 s" in out[1].reason
    assert time.monotonic() - t0 < 60  # the stuck task was abandoned, not waited for


@pytest.mark.slow
def test_a_task_that_kills_its_worker_twice_is_reported_not_guessed(local2):
    out = map_tasks(die_or_square, [(1, False), (2, True), (3, False)], spec=local2)
    assert out[0] == 1 and out[2] == 9
    assert isinstance(out[1], TaskFailed) and "worker died" in out[1].reason


@pytest.mark.slow
def test_killing_a_worker_mid_run_gives_a_complete_or_honestly_partial_answer(local2):
    from attnproof.parallel import _dask

    client = _dask.client_for(local2)
    deadline = time.monotonic() + 120
    while len(client.scheduler_info()["workers"]) < 2:  # earlier tests restarted workers
        assert time.monotonic() < deadline, "the local cluster did not get its 2 workers back"
        time.sleep(0.2)
    pids = client.run(worker_pid)
    victim = sorted(pids.values())[0]
    args = [(i, 0.4) for i in range(12)]
    timer = threading.Timer(1.0, os.kill, (victim, signal.SIGKILL))
    timer.start()
    try:
        out = map_tasks(square_after, args, spec=local2)
    finally:
        timer.cancel()
    assert len(out) == len(args)
    for (x, _), y in zip(args, out):
        assert isinstance(y, TaskFailed) or y == x * x
    failed = [y for y in out if isinstance(y, TaskFailed)]
    assert len(failed) <= 1  # only the task running on the victim can have died, and it was retried
    assert victim not in client.run(worker_pid).values()  # the kill did happen
