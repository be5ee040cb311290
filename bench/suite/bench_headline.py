"""The headline jobs of attnproof as pytest-benchmark benchmarks (``bench/README.md``).

Each benchmark times one job and then checks its answer (a job that got faster by
answering wrongly fails instead of counting as a speed-up).  The whole-process jobs run
``python -m attnproof`` of the code under test (``conftest.py``) as a user does, imports
included; the others call the public API in this process.  Marked ``ci``: the short
subset that CI compares against the parent commit (``bench/compare.py --ci``); marked
``anchor``: a baseline that runs no attnproof code (SymPy, plain z3 through the same
command line with every reduction off, NumPy), whose ratio to the attnproof job of its
group is a headline figure of ``docs/benchmarks.md``.

Imports of the package are inside the benchmarks: the code under test may be a commit
older than these definitions, and a benchmark it cannot run fails alone (``compare.py``
then lists it as new rather than failing the comparison).
"""

from __future__ import annotations

import json
import random

import pytest

ci = pytest.mark.ci
anchor = pytest.mark.anchor
group = pytest.mark.benchmark


def _sigmoid_problem(cli, d: int) -> str:
    cli("family", "sigmoid-sum", "--d", d, "-o", f"w{d}.json", "-q")
    return f"w{d}.json"


# --- the machine itself -------------------------------------------------------------------------

@anchor
@ci
@group(group="machine drift, whole process")
def bench_anchor_python_process(timed):
    """A Python process that sums squares for a moment: start-up and arithmetic, no attnproof.

    With the other anchors it measures how much faster or slower the machine ran one side
    of a comparison than the other (``compare.py`` discounts that drift)."""
    import subprocess
    import sys

    code = "print(sum(i * i for i in range(1_500_000)))"
    proc = timed(lambda: subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                        check=True))
    assert int(proc.stdout) == sum(i * i for i in range(1_500_000))


# --- fuse and reduced forms (SymPy is the anchor) --------------------------------------------

@group(group="fuse W_d, whole process")
@pytest.mark.parametrize("d", [pytest.param(12, marks=ci), 16])
def bench_fuse_cli(timed, cli, d):
    """``attnproof fuse W_d -o FILE``: the reduced form and every fused atom written."""
    prob = _sigmoid_problem(cli, d)
    proc = timed(lambda: cli("fuse", prob, "-o", "fused.json", "--json", "-q"))
    assert json.loads(proc.stdout)["atoms"] == 2 ** d


@group(group="reduced form W_d")
@pytest.mark.parametrize("d", [pytest.param(10, marks=ci)])
def bench_reduced_form(benchmark, d):
    """``reduced_form(W_d)`` with FLINT, in process."""
    from attnproof import reduced_form, sigmoid_sum

    r = benchmark(lambda: reduced_form(sigmoid_sum(d)))
    assert len(r.Q) == 2 ** d


def sympy_reduced(d: int):
    """SymPy's ``cancel(together(σ(x_1) + ... + σ(x_d)))`` (``bench/kernel.py``)."""
    from kernel import sympy_cancel

    return sympy_cancel(d)


@anchor
@group(group="reduced form W_d")
@pytest.mark.parametrize("d", [pytest.param(8, marks=ci), 10])
def bench_anchor_sympy_reduced(timed, d):
    """SymPy's together + cancel of ``W_d``: the anchor of the reduced forms (and of fuse W_16)."""
    import sympy

    from sympy.core.cache import clear_cache

    # every round from a cold cache: SymPy memoizes the subexpressions of the last round
    e = timed(lambda: sympy_reduced(d), n=1 if d >= 10 else None, setup=clear_cache)
    assert len(sympy.Poly(sympy.fraction(e)[1]).terms()) == 2 ** d


# --- structural proofs: W_d at 10^4 and 10^5, the zonogon ------------------------------------

def _claims(path) -> dict:
    """The claims of a certificate file, its numbers as integers (W_10^5's have 30,103 digits)."""
    import sys

    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        claims = json.loads(path.read_text())["claims"]
        return {k: int(v) for k, v in claims.items() if k in ("lower_bound", "upper_bound")}
    finally:
        sys.set_int_max_str_digits(limit)


@group(group="prove W_d, whole process")
@pytest.mark.parametrize("d", [pytest.param(10_000, marks=ci), 100_000])
def bench_prove_cli(timed, cli, d, rounds):
    """``attnproof prove W_d -o CERT`` (self-check included); the bounds read from the certificate."""
    prob = _sigmoid_problem(cli, d)
    timed(lambda: cli("prove", prob, "-o", "w.cert", "-q"), n=1 if d >= 100_000 else rounds)
    assert _claims(cli.cwd / "w.cert") == {"lower_bound": 2 ** d, "upper_bound": 2 ** d}


@group(group="check W_d, whole process")
@pytest.mark.parametrize("d", [pytest.param(10_000, marks=ci), 100_000])
def bench_check_cli(timed, cli, d, rounds):
    """``attnproof check CERT`` of the certificate of W_d, no options."""
    prob = _sigmoid_problem(cli, d)
    cli("prove", prob, "-o", "w.cert", "-q")
    proc = timed(lambda: cli("check", "w.cert", "--json", "-q"), n=1 if d >= 100_000 else rounds)
    assert json.loads(proc.stdout)["verdict"] == "valid"


@group(group="zonogon, prove and check")
@pytest.mark.parametrize("H", [pytest.param(1000, marks=ci), 10_000])
def bench_zonogon(timed, H):
    """``Σ_{k=1..H} σ(q1 + k·q2)``: the certificate built and checked in process (``bench/plane.py``)."""
    from plane import measure, zonogon

    M = zonogon(H)
    _, _, lower, _ = timed(lambda: measure(M), n=None if H < 10_000 else 1, warmup=1)
    assert lower == 2 * H


# --- random problems, a graph sum, a line query ------------------------------------------------

@group(group="random problems, whole process")
@pytest.mark.parametrize("n", [pytest.param(3, marks=ci), 12])
def bench_random_prove(timed, cli, n, rounds):
    """``attnproof prove`` of ``n`` random problems of the held-out kind (``bench/plane.py``), in all."""
    from plane import random_problem

    from attnproof.io import problem_to_dict

    rng = random.Random(7)
    paths = []
    for i in range(n):
        path = cli.cwd / f"p{i}.json"
        path.write_text(json.dumps(problem_to_dict(random_problem(rng, i))))
        paths.append(path)

    def prove_all():
        return [json.loads(cli("prove", p, "-o", f"{p}.cert", "--json", "-q").stdout) for p in paths]

    docs = timed(prove_all, n=1 if n > 3 else rounds)
    assert all(int(d["lower_bound"]) <= int(d["upper_bound"]) for d in docs)


@group(group="graph sum, whole process")
@pytest.mark.parametrize("graph,n,lower", [pytest.param("complete", 4, 24, marks=ci),
                                           ("complete", 5, None), ("cycle", 16, None)])
def bench_graph_prove(timed, cli, graph, n, lower):
    """``attnproof prove --no-lines`` of a graph sum (a zonotope: THEORY Lemma 7)."""
    cli("family", "graph", "--graph", graph, "--n", n, "-o", "g.json", "-q")
    proc = timed(lambda: cli("prove", "g.json", "-o", "g.cert", "--no-lines", "--json", "-q"))
    doc = json.loads(proc.stdout)
    assert int(doc["lower_bound"]) <= int(doc["upper_bound"])
    # the Newton count (24 for K_4); the graph minors of THEORY §13 raise it (28)
    assert lower is None or int(doc["lower_bound"]) >= lower


@group(group="line query, whole process")
def bench_line_query(timed, cli):
    """``attnproof prove`` of K_3: the line query (THEORY §12) proves the minimum 7."""
    cli("family", "graph", "--graph", "complete", "--n", "3", "-o", "k3.json", "-q")
    # the graph minors close K_3 without a solver: the line query is asked without them
    # (a commit from before the minors has no --no-minors and asks the line query anyway)
    help_text = cli("prove", "--help").stdout
    extra = ["--no-minors"] if "--no-minors" in help_text else []
    proc = timed(lambda: cli("prove", "k3.json", "-o", "k3.cert", "--json", "-q", *extra))
    doc = json.loads(proc.stdout)
    assert doc["minimum"] == 7 and doc["trust"] == "line-refuted"


def _k4_search(cli, plain: bool):
    """``attnproof search`` of K_4 with at most 37 atoms in the radius-1 box (``bench/search.py``)."""
    from search import K4

    from attnproof.io import dump_problem
    from attnproof.fusion import reduced_form
    from attnproof.smt import box_window, lineality_frame

    dump_problem(K4, str(cli.cwd / "k4.json"))
    if not plain:
        return ["search", "k4.json", "--atoms", "37", "--window", "1", "--json", "-q"]
    points = json.dumps([list(p) for p in box_window(lineality_frame(reduced_form(K4)), 1).points])
    return ["search", "k4.json", "--atoms", "37", "--window", points, "--plain", "--no-cross-check",
            "--json", "-q"]


@group(group="window search K_4, whole process")
def bench_search_k4(timed, cli):
    """The default search (every reduction, z3 and cvc5 cross-checked): unsat."""
    argv = _k4_search(cli, plain=False)
    doc = json.loads(timed(lambda: cli(*argv, codes=(0, 1, 2))).stdout)
    assert doc["verdict"] == "unsat"


@anchor
@group(group="window search K_4, whole process")
def bench_anchor_plain_z3_k4(timed, cli):
    """Plain z3 on the same window (the encoding of THEORY §6, no reductions, no cross-check)."""
    argv = _k4_search(cli, plain=True)
    doc = json.loads(timed(lambda: cli(*argv, codes=(0, 1, 2))).stdout)
    assert doc["solvers"]["z3"]["result"] == "unsat"


# --- head evaluation (NumPy is the anchor), the merge report of a captured layer ----------------

def _eval_arrays(log2n: int):
    import numpy as np

    n, m, d = 1 << log2n, 500, 16
    rng = np.random.default_rng(2026)
    K = rng.standard_normal((n, d)) / np.sqrt(d)
    lb = 0.5 * rng.standard_normal(n)
    V = rng.uniform(0.5, 1.5, (n, 1))
    Q = 2.0 * rng.standard_normal((m, d))
    return K, lb, V, Q


@group(group="head evaluation, 500 queries")
@pytest.mark.parametrize("log2n", [pytest.param(13, marks=ci), 16])
def bench_eval_kernel(benchmark, log2n):
    """The compiled float64 kernel (THEORY §7) on ``2^log2n`` atoms (``bench/numeric.py``)."""
    import numpy as np

    from attnproof.numeric import softmax_kernel, softmax_reference
    from attnproof.numeric.kernels import warm_up

    warm_up()                                  # compiling (or loading the cache) is not timed
    K, lb, V, Q = _eval_arrays(log2n)
    out = benchmark(lambda: softmax_kernel(K, lb, V, Q))
    assert np.max(np.abs(out - softmax_reference(K, lb, V, Q))) <= 1e-12


@anchor
@group(group="head evaluation, 500 queries")
@pytest.mark.parametrize("log2n", [pytest.param(13, marks=ci), 16])
def bench_anchor_numpy_eval(benchmark, log2n):
    """NumPy's block matrix product and ``exp`` (the same online softmax): the kernel's anchor."""
    from attnproof.numeric import softmax_reference

    K, lb, V, Q = _eval_arrays(log2n)
    out = benchmark(lambda: softmax_reference(K, lb, V, Q))
    assert out.shape == (500, 1)


@group(group="merge report, whole process")
def bench_merge_report(timed, cli):
    """``attnproof merge-report`` of a random GPT-2-shaped layer (16 tokens, 4 heads of 64)."""
    from attnproof.transformer.capture import random_capture, save_capture

    save_capture(random_capture(16, 768, 4, 64, seed=0), cli.cwd / "cap.npz")
    proc = timed(lambda: cli("merge-report", "cap.npz", "-o", "report", "--workers", "0", "--json",
                             "-q", codes=(0, 2)), n=1)
    doc = json.loads(proc.stdout)
    assert len(doc["pairs"]) == 6 and not [q for q in doc["pairs"] if q.get("error")]
