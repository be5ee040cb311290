"""Attacks on the trusted checker that once got through, each as a minimal reproducer.

Resource attacks are measured without clocks: the checker's work meter is the
unit, and a rule must charge the dense vectors it builds before it builds them,
so the entries it materializes stay within a constant times its budget
(docs/certificates.md §8).  Forged claims must never be *valid*.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from attnproof.checker import check_text
from attnproof.checker.limits import work_limit
from attnproof.checker.rules import geometry, windows


def _canon(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")) + "\n"


def _count(n: int):
    return n if n < (1 << 53) else str(n)


def _cert(problem: dict, steps: list, lower: int, upper: int, trust: str = "exact") -> str:
    doc = {"format": "attnproof-certificate", "version": 1, "problem": problem,
           "problem_sha256": hashlib.sha256(_canon(problem).encode()).hexdigest(),
           "claims": {"lower_bound": _count(lower), "upper_bound": _count(upper),
                      "minimum": _count(lower) if lower == upper else None,
                      "window_refutations": []},
           "steps": steps, "trust": trust}
    return json.dumps(doc, separators=(",", ":"))


def _sigma_problem(n: int, dim: int) -> dict:
    """Σ_j σ(q_j), j < n, in dimension ``dim`` (sparse keys)."""
    return {"format": "attnproof-problem", "version": 1, "dim": dim,
            "heads": [{"atoms": [{"key": {str(j): 1}, "value": 1}, {"key": {}, "value": 0}]}
                      for j in range(n)]}


def _factor_steps(n: int) -> list:
    """``irreducible_factor`` for 1 + x_j, j < n, in canonical order (by JSON text)."""
    polys = sorted(([[1, []], [1, [[j, 1]]]] for j in range(n)), key=_canon)
    return [{"rule": "irreducible_factor", "poly": p, "residue_component": 0,
             "witness": {"kind": "linear", "var": p[1][1][0][0]}} for p in polys]


@pytest.fixture
def dense_meter(monkeypatch):
    """Counts the entries of the vectors the geometry and line rules build."""
    built = {"entries": 0}

    def counted(fn, length):
        def wrapper(*args, **kw):
            out = fn(*args, **kw)
            built["entries"] += length(args, out)
            return out
        return wrapper

    monkeypatch.setattr(geometry, "dense_points",
                        counted(geometry.dense_points, lambda a, out: len(out) * len(a[2])))
    monkeypatch.setattr(geometry, "_zpolys",
                        counted(geometry._zpolys,
                                lambda a, out: sum(len(m) + len(z) for m, z in out.items())))
    monkeypatch.setattr(windows, "binomial_factor",
                        counted(windows.binomial_factor,
                                lambda a, out: len(out[0]) if out is not None else 0))
    return built


def _within_budget(text: str, built: dict) -> None:
    v = check_text(text)
    assert v.code in (0, 1, 2) and "internal" not in v.message
    assert built["entries"] <= work_limit(len(text)), (built, v.message)


def test_direct_sum_charges_dense_points_before_building_them(dense_meter):
    """F binomial factors in F sparse variables: direct_sum and minkowski_vertices made the
    F x F dense points before charging anything (10,000 factors: 2.4 GB, 42 s)."""
    n = 4000
    steps = _factor_steps(n) + [
        {"rule": "direct_sum", "prime": 3, "factors": [
            {"basis": [1], "relations": [], "vertices": [], "non_vertices": []}] * n},
        {"rule": "product_fusion"}]
    text = _cert(_sigma_problem(n, 100_000), steps, 2 ** n, 2 ** n)
    _within_budget(text, dense_meter)


def test_minkowski_vertices_charges_dense_points_before_building_them(dense_meter):
    n = 4000
    steps = _factor_steps(n) + [
        {"rule": "minkowski_vertices", "complete": False,
         "vertices": [[[0] * n, [0] * n, [-1] * n]], "non_vertices": [],
         "point_non_vertices": [[]] * n},
        {"rule": "product_fusion"}]
    text = _cert(_sigma_problem(n, 100_000), steps, 1, 2 ** n)
    _within_budget(text, dense_meter)


def test_chain_charges_the_points_of_a_head_before_building_them(dense_meter):
    """One head of n atoms on n distinct sparse keys: indecomposable_chain made n x n dense
    points first (n = 10,000: 1.6 GB, 25 s for a 340 kB file)."""
    n = 3000
    pb = {"format": "attnproof-problem", "version": 1, "dim": 100_000,
          "heads": [{"atoms": [{"key": {str(j): 1}, "value": j % 2} for j in range(n)]}]}
    steps = [{"rule": "indecomposable_chain", "head": 0, "kind": "simplex", "prime": 3},
             {"rule": "generic_heads", "classes": [[0]]},
             {"rule": "newton_blocks", "blocks": []}, {"rule": "product_fusion"}]
    _within_budget(_cert(pb, steps, 1, n), dense_meter)


def test_generic_heads_charges_every_value_component(dense_meter):
    """A constant head with m value components: generic_heads charged one dense pass but
    made m (a 240 kB file ran for minutes)."""
    m, dim = 300, 20_000
    pb = {"format": "attnproof-problem", "version": 1, "dim": dim, "heads": [
        {"atoms": [{"key": {"0": 1}, "value": [1] * m}, {"key": {}, "value": [1] * m}]},
        {"atoms": [{"key": {"1": 1}, "value": [1] * m}, {"key": {}, "value": [0] * m}]}]}
    steps = [{"rule": "indecomposable_chain", "head": h, "kind": "simplex", "prime": 3}
             for h in (0, 1)] + [{"rule": "generic_heads", "classes": [[0], [1]]},
                                 {"rule": "newton_blocks", "blocks": []},
                                 {"rule": "product_fusion"}]
    _within_budget(_cert(pb, steps, 1, 4), dense_meter)


def test_line_refutation_compares_directions_sparsely(dense_meter):
    """line_refutation turned every bound factor into a dense direction of length dim
    (5,000 factors in dimension 100,000: 4 GB, 58 s for a 1.4 MB file)."""
    n, dim = 400, 100_000
    g = [0] * dim
    g[0] = 1
    smt = "(check-sat)\n"
    steps = _factor_steps(n) + [
        {"rule": "newton_blocks", "blocks": [{"factors": [j], "method": "zonotope_independent"}
                                             for j in range(n)]},
        {"rule": "product_fusion"},
        {"rule": "line_refutation", "atoms": 1, "directions": [g], "problem_sha256": None,
         "solvers": {"z3": "4", "cvc5": "1"}, "smtlib": smt,
         "smtlib_sha256": hashlib.sha256(smt.encode()).hexdigest()}]
    pb = _sigma_problem(n, dim)
    steps[-1]["problem_sha256"] = hashlib.sha256(_canon(pb).encode()).hexdigest()
    text = _cert(pb, steps, 2 ** n, 2 ** n, trust="line-refuted")
    v = check_text(text)
    assert v.code == 2 and v.line_steps == [n + 2], v.message
    _within_budget(text, dense_meter)


_W2 = {"format": "attnproof-problem", "version": 1, "dim": 2, "heads": [
    {"atoms": [{"key": [1, 0], "value": 1}, {"key": [0, 0], "value": 0}]},
    {"atoms": [{"key": [0, 1], "value": 1}, {"key": [0, 0], "value": 0}]}]}
_W2_TEXT = json.dumps(_W2)
_SPARSE = json.dumps({"format": "attnproof-problem", "version": 1, "dim": 20, "heads": [
    {"atoms": [{"key": {"3": 1}, "value": 1}, {"key": {}, "value": 0}]}]})


@pytest.mark.parametrize("text", [
    _W2_TEXT,
    _W2_TEXT.replace('"value": 1', '"value": 5, "value": 1', 1),           # duplicate key
    _W2_TEXT.replace('"value": 1', '"value": 1, "wieght": "2"', 1),        # misspelled field
    _W2_TEXT[:-1] + ', "comment": "x"}',                                     # unknown field
    _W2_TEXT[:-1] + ', "description": "x"}',                                 # allowed field
    _W2_TEXT.replace('"key": [1, 0]', '"key": [" 1 ", 0]', 1),             # spaces
    _W2_TEXT.replace('"key": [1, 0]', '"key": ["1_0", 0]', 1),             # underscore
    _W2_TEXT.replace('"key": [1, 0]', '"key": ["1e0", 0]', 1),             # exponent
    _W2_TEXT.replace('"key": [1, 0]', '"key": ["1e5000", 0]', 1),          # exponent too big
    _W2_TEXT.replace('"key": [1, 0]', '"key": ["\u0661", 0]', 1),          # Arabic-Indic one
    _W2_TEXT.replace('"key": [1, 0]', '"key": ["2/4", 0]', 1),             # not lowest terms
    _W2_TEXT.replace('"value": 0}', '"value": 0, "weight": "0"}', 1),      # weight 0
    _W2_TEXT.replace('"version": 1', '"version": true', 1),
    _W2_TEXT.replace('"value": 1', '"value": []', 1),
    _SPARSE,
    _SPARSE.replace('"3"', '"03"'),                                          # leading zero
    _SPARSE.replace('"3"', '"\u0663"'),                                      # non-ASCII index
    _SPARSE.replace('"3"', '"+3"'),
], ids=lambda t: hashlib.sha256(t.encode()).hexdigest()[:8])
def test_standalone_checker_reads_problem_files_as_attnproof_does(tmp_path, text):
    """``python -m attnproof.checker CERT --problem FILE`` bound certificates to files that
    ``attnproof check --problem`` refuses (a misspelled ``"wieght"`` was ignored, so the file
    was declared the problem of weight 1), and ``"1e99999999"`` made it compute 10^99999999."""
    from attnproof.checker.__main__ import UsageError, problem_file_sha256
    from attnproof.errors import AttnproofError
    from attnproof.io import load_problem, problem_sha256

    path = tmp_path / "p.json"
    path.write_text(text)
    try:
        ours = problem_sha256(load_problem(path))
    except AttnproofError:
        ours = None
    try:
        theirs = problem_file_sha256(str(path))
    except UsageError:
        theirs = None
    assert ours == theirs


@pytest.mark.parametrize("lower_step", [
    {"rule": "planar_vertices"},
    {"rule": "newton_blocks", "blocks": [{"factors": [0, 1], "method": "planar"}]},
    {"rule": "newton_blocks", "blocks": [{"factors": [0, 1], "method": "vertices", "vertices": [
        [[0, 0], [-1, -1]], [[0, 1], [-1, 1]], [[1, 0], [1, -1]], [[1, 1], [1, 1]]]}]},
    {"rule": "newton_blocks", "blocks": [
        {"factors": [0], "method": "vertices", "vertices": [[[0], [-1]], [[1], [1]]]},
        {"factors": [1], "method": "zonotope_independent"}]}])
def test_planar_count_of_a_head_with_a_constant_variable(lower_step):
    """σ(q_0) written with keys (1, 0, 1) and (0, 0, 1): generic_heads binds
    D_0 = x_2·(1 + x_0), whose x_2 is constant.  The planar count and the ``vertices``
    block looked x_2 up among the varying variables and stopped with an internal error
    (KeyError) on these genuine certificates; a constant variable is a translation, and
    W_2 needs 4 atoms."""
    pb = {"format": "attnproof-problem", "version": 1, "dim": 3, "heads": [
        {"atoms": [{"key": [1, 0, 1], "value": 1}, {"key": [0, 0, 1], "value": 0}]},
        {"atoms": [{"key": [0, 1, 0], "value": 1}, {"key": [0, 0, 0], "value": 0}]}]}
    steps = [{"rule": "indecomposable_chain", "head": h, "kind": "simplex", "prime": 3}
             for h in (0, 1)] + [{"rule": "generic_heads", "classes": [[0], [1]]}, lower_step,
                                 {"rule": "product_fusion"}]
    for reference in (False, True):
        v = check_text(_cert(pb, steps, 4, 4), reference=reference)
        assert v.status == "valid", v.message
        assert check_text(_cert(pb, steps, 5, 4), reference=reference).status == "invalid"


def test_binomial_valuation_never_builds_a_power_longer_than_its_cofactor():
    """f = c_0 + c_1·x with 30-digit coefficients against D = w·(1 + x^26000) with
    2000-digit weights: the closed-form test computed c_1^26000 (2.6 million bits; with
    2000-digit c_i, 10^8 bits and minutes for a 13 kB certificate).  Coprime c_0, c_1 make
    c_1^q divide a cross product of D's coefficients, so a longer power is a "no"."""
    import tracemalloc
    from fractions import Fraction
    from math import gcd

    from attnproof.checker.capelli import binomial_valuation

    c0, c1 = 10 ** 29 + 7, 10 ** 29 + 9
    assert gcd(c0, c1) == 1
    w = Fraction(10 ** 1999 + 3, 10 ** 1999 + 11)
    tracemalloc.start()
    try:
        assert binomial_valuation({(): c0, ((0, 1),): c1}, {(): w, ((0, 26000),): w}) == 0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200_000
    # and the closed form still finds the factors it should
    f = {(): 2, ((0, 1),): 3}
    assert binomial_valuation(f, {(): 4, ((0, 2),): -9}) == 1     # 4 - 9x^2 = (2 - 3x)(2 + 3x)
    assert binomial_valuation(f, {(): 4, ((0, 2),): 9}) == 0


def test_non_constant_point_pays_for_its_gcds():
    """A point witness (3/2)^200000 was charged per word of the power (12,500 units), but
    the Fraction arithmetic on it takes gcds quadratic in its words: e = 2,000,000 made a
    637-byte certificate run 85 s.  A valid verdict must have paid for them."""
    e = 200_000
    pb = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
        {"atoms": [{"key": [0], "value": 0}, {"key": [e], "value": 1}]},
        {"atoms": [{"key": [0], "value": 1}, {"key": [e], "value": 1}]}]}
    steps = [{"rule": "newton_blocks", "blocks": []},
             {"rule": "non_constant", "witnesses": [{"point": [[0, "3/2"]]},
                                                    {"point": [[0, "5/4"]]}]},
             {"rule": "product_fusion"}]
    text = _cert(pb, steps, 2, 4)
    words = e * 4 // 64
    v = check_text(text)
    assert v.status != "valid" or v.work >= words * words // 256, v
    assert v.code == 2 and "evaluating a point" in v.message
    big = check_text(text, work=10 ** 9)
    assert big.status == "valid" and big.work >= words * words // 256, big.message


def test_yaml_aliases_are_refused(tmp_path):
    """YAML aliases repeat a node without its text: a 600 kB file naming one 20,000-atom
    head 20,000 times is a 4·10^8-atom problem that no size or container limit saw
    (``attnproof bound`` ran for minutes).  Problem files in YAML may not use them."""
    pytest.importorskip("yaml")
    from attnproof.cli import main

    path = tmp_path / "alias.yaml"
    path.write_text("format: attnproof-problem\nversion: 1\ndim: 1\nheads:\n"
                    "  - atoms: &a\n      - {key: [1], value: 1}\n      - {key: [0], value: 0}\n"
                    "  - atoms: *a\n")
    assert main(["bound", str(path)]) == 3
    path.write_text(path.read_text().replace("&a", "").replace(
        "*a", "\n      - {key: [1], value: 1}\n      - {key: [0], value: 0}"))
    assert main(["bound", str(path)]) == 0


@pytest.mark.parametrize("witnesses", [
    [{"slope": [[0, 1]]}],
    [{"limit": [[1, 1]]}, {"limit": [[0, 1]]}],
    [{"point": [[1, 2]]}, {"point": [[0, 2]]}]], ids=["slope", "limit", "point"])
def test_non_constant_sums_pay_for_their_gcds(witnesses):
    """One head of n atoms whose weights have distinct 2000-digit denominators: the sums
    of Fractions in the slope, limit and point values take a gcd per step on numbers of
    up to n·2000 digits (n = 200: 96 s for a 410 kB certificate), and were charged per
    term.  A valid verdict must have paid for them."""
    n = 40
    pb = {"format": "attnproof-problem", "version": 1, "dim": 2, "heads": [{"atoms": [
        {"key": [i, 0], "value": i % 3, "weight": f"1/{10 ** 1999 + 2 * i + 1}"}
        for i in range(n)]}]}
    steps = [{"rule": "newton_blocks", "blocks": []},
             {"rule": "non_constant", "witnesses": witnesses}, {"rule": "product_fusion"}]
    text = _cert(pb, steps, 2, n)
    words = n * 2 * 6644 // 64
    v = check_text(text)
    assert v.status != "valid" or v.work >= words * words // 256, v
    big = check_text(text, work=10 ** 12)
    assert big.status == "valid" and big.work >= words * words // 256, big.message
