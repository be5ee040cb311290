"""A real Dask cluster: ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1.

The scheduler and the workers are separate commands, as on a real cluster;
the sweep goes to them through ``--scheduler`` from a separate ``attnproof``
process, and its results must equal the in-process ones.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest

from attnproof.families import graph_sum, named_graph, sigmoid_sum
from attnproof.io import dump_problem

pytestmark = pytest.mark.slow

BIN = os.path.dirname(sys.executable)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)   # dask's commands close cleanly on SIGTERM
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    dask = shutil.which("dask", path=BIN) or shutil.which("dask")
    if dask is None:
        pytest.skip("the dask command is not installed (pip install 'dask[distributed]')")
    logs = tmp_path_factory.mktemp("cluster")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ, DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="0",
               DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED="False")   # as docs/scale.md says
    procs = []

    def start(*argv: str, name: str) -> subprocess.Popen:
        log = open(logs / f"{name}.log", "w")
        p = subprocess.Popen([dask, *argv], stdout=log, stderr=subprocess.STDOUT, env=env,
                             start_new_session=True)
        procs.append(p)
        return p

    try:
        start("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard",
              name="scheduler")
        for i in range(2):
            start("worker", address, "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1",
                  "--name", f"w{i}", "--preload", "attnproof.parallel._dask_preload", name=f"worker{i}")
        from distributed import Client

        deadline = time.monotonic() + 90
        while True:
            try:
                with Client(address, timeout=5) as c:
                    if len(c.scheduler_info()["workers"]) == 2:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
                text = "\n".join((logs / f).read_text()[-2000:] for f in os.listdir(logs))
                pytest.fail(f"the Dask cluster did not come up:\n{text}")
            time.sleep(0.5)
        yield address, procs
    finally:
        for p in reversed(procs):
            _stop(p)


def _attnproof(*argv: str, env_extra=None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("DASK_SCHEDULER_ADDRESS", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "attnproof", *argv], capture_output=True,
                          text=True, timeout=600, env=env)


def _rows(stdout: str):
    doc = json.loads(stdout)
    # a sweep runs z3, then cvc5 only when needed, on every executor: the same rows
    return [(r["problem"], r["window"], r["target"], r["result"], r["atoms"], r["smtlib_sha256"],
             {n: (run["result"], run.get("reason", "")) for n, run in r["solvers"].items()})
            for r in doc["rows"]], doc["summaries"]


def test_sweep_on_a_scheduler_and_two_workers_equals_in_process(cluster, tmp_path):
    address, procs = cluster
    paths = []
    for name, M in (("c4", graph_sum(named_graph("cycle", 4))), ("w2", sigmoid_sum(2))):
        p = tmp_path / f"{name}.json"
        dump_problem(M, p)
        paths.append(str(p))
    argv = ["search", *paths, "--sweep", "--window", "1", "--targets", "3,14,15", "--json"]
    here = _attnproof(*argv, "--workers", "0")
    assert here.returncode == 0, here.stderr
    there = _attnproof(*argv, "--scheduler", address)
    assert there.returncode == 0, there.stderr
    assert _rows(there.stdout) == _rows(here.stdout)
    assert json.loads(there.stdout)["executor"].startswith(f"Dask scheduler {address}")
    # the environment variable names the same cluster
    env = _attnproof(*argv, env_extra={"DASK_SCHEDULER_ADDRESS": address})
    assert env.returncode == 0, env.stderr
    assert _rows(env.stdout) == _rows(here.stdout)
    assert all(p.poll() is None for p in procs)  # nothing crashed on the way


def test_cluster_shuts_down_cleanly(cluster):
    address, procs = cluster
    for p in reversed(procs):
        _stop(p)
    assert [p.returncode for p in procs] == [0, 0, 0]
