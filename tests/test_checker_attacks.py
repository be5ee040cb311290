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
             "heads": [[p[1][1][0][0], 1]],
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
    v = check_text(_cert(pb, steps, 4, 4))
    assert v.status == "valid", v.message
    assert check_text(_cert(pb, steps, 5, 4)).status == "invalid"


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


# -- explicit fusions and the polynomial core: charged before anything is built -----------
#
# Hostile explicit heads on genuine certificates (certificates/adversarial/generate.py
# builds them; the corpus keeps small ones).  A forged head must never be valid; a true
# one (a wasteful multiple of the reduced fraction) must never be invalid.  Large versions
# run under `slow`, in a child process limited to 1 GB of address space.

def _gen():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "certificates" / "adversarial" / "generate.py"
    spec = importlib.util.spec_from_file_location("adversarial_generate", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


FORGED_HEADS = {
    "random-head": lambda g, n: g.forged_head(n),
    "point-passing": lambda g, n: g.point_passing_head(n),
    "huge-numerator": lambda g, n: g.forged_head(max(4, n // 100), value_digits=2000),
    "huge-denominator": lambda g, n: g.forged_head(max(4, n // 100), weight_digits=2000,
                                                   key_digits=600),
    "one-denominator": lambda g, n: g.forged_head(n, problem=g.one_denominator_problem(
        min(max(2, n // 2), 3000))),
}


def _text(doc) -> str:
    from attnproof.io import canonical_json
    return canonical_json(doc)


@pytest.mark.parametrize("kind", sorted(FORGED_HEADS))
def test_forged_explicit_heads_are_never_accepted(kind):
    """W_2 (or many heads over one denominator) with an explicit head of random atoms:
    the 12 MB version spent 7 s in exact divisions of D* before it was refused."""
    text = _text(FORGED_HEADS[kind](_gen(), 300))
    v = check_text(text)
    assert v.code == 1 and "internal" not in v.message, v.message
    # refuted in one pass at a point, except the head built to agree there
    assert ("modulo 2^61 - 1" in v.message) == (kind != "point-passing"), v.message


def test_a_true_wasteful_head_is_never_rejected():
    """D* = D·U, N* = N·U for a random positive U: a true fusion with |supp D*| atoms."""
    doc = _gen().wasteful_head(60)
    v = check_text(_text(doc))
    assert v.code == 0, v.message
    assert v.upper_bound == len(doc["steps"][-1]["head"]["atoms"])


@pytest.mark.parametrize("seed", range(12))
def test_the_point_test_only_shortcuts_the_exact_check(seed, monkeypatch):
    """A mismatch modulo p is a proof (reduction and evaluation are ring homomorphisms):
    with and without the test, genuine explicit heads and their perturbations get the
    same verdict."""
    import random

    from attnproof.certificate import build_certificate
    from attnproof.checker.rules import fusion
    from attnproof.io import problem_from_dict

    rng = random.Random(seed)
    heads = [{"atoms": [{"key": [rng.randint(-2, 2), rng.randint(-2, 2)], "value": v}
                        for v in range(rng.randint(2, 3))]} for _ in range(rng.randint(1, 3))]
    for h in heads:             # distinct keys within a head
        h["atoms"] = list({tuple(a["key"]): a for a in h["atoms"]}.values())
        if len(h["atoms"]) < 2:
            h["atoms"].append({"key": [3, 3], "value": 7})
    prob = {"format": "attnproof-problem", "version": 1, "dim": 2, "heads": heads}
    try:
        doc = build_certificate(problem_from_dict(prob), explicit_fusion_limit=10 ** 6).doc
    except Exception as e:          # the producer declines (a limit): nothing to compare
        pytest.skip(f"no certificate: {type(e).__name__}")
    step = doc["steps"][-1]
    if step["rule"] != "explicit_fusion":
        pytest.skip("the producer wrote no explicit head")
    variants = [doc]
    for _ in range(3):
        d = json.loads(json.dumps(doc))
        atoms = d["steps"][-1]["head"]["atoms"]
        a = rng.choice(atoms)
        change = rng.choice(["value", "weight", "drop"])
        if change == "value":
            a["value"] = 5 if a["value"] != 5 else 4
        elif change == "weight":
            a["weight"] = 3 if a.get("weight") != 3 else 2
        elif len(atoms) > 1:
            atoms.remove(a)
        variants.append(d)
    for d in variants:
        text = _text(d)
        with_test = check_text(text).code
        with monkeypatch.context() as m:
            m.setattr(fusion, "refute_at_a_point", lambda *a, **k: None)
            without = check_text(text).code
        assert with_test == without


def test_a_long_division_is_paid_before_its_first_step(monkeypatch):
    """An exact quotient has at least |a|/|b| terms: that many steps are charged before
    the first one, so a budget below them stops the division before it starts."""
    import heapq

    from attnproof.checker import poly as P
    from attnproof.checker.syntax import Budget, Unsupported

    steps = {"n": 0}
    pop = heapq.heappop

    def counted(h):
        steps["n"] += 1
        return pop(h)

    monkeypatch.setattr(heapq, "heappop", counted)
    b = {(): 1, ((0, 1),): 1}
    a = P.mul(b, {((0, 3 * k), (1, k % 7)): 1 for k in range(200)})     # 400 terms, b | a
    budget = Budget(3 * P.size(a))
    with pytest.raises(Unsupported):
        P.divexact(a, b, budget)
    assert steps["n"] == 0
    assert P.divexact(a, b, Budget(None)) is not None and steps["n"] > 0


def test_an_undecided_image_stops_at_the_expansion_limit(monkeypatch):
    """1 + x^n + (p + 2)·x^(n+1) against 1 + x: the image mod p vanishes at x = -1, so only
    the n-step division can refute it; its quotient and remainder are bounded in terms,
    whatever the budget (10^9 steps would hold gigabytes)."""
    from attnproof.checker import poly as P
    from attnproof.checker.syntax import Budget, Unsupported

    n = 10 ** 9
    a = {(): 1, ((0, n),): 1, ((0, n + 1),): P._P + 2}
    b = {(): 1, ((0, 1),): 1}
    assert not P.not_divisible(a, b)                   # undecided by the image
    monkeypatch.setattr(P, "MAX_EXPANSION", 5000)
    with pytest.raises(Unsupported, match="quotient and remainder"):
        P.divexact(a, b, Budget(None))


def test_a_product_past_the_expansion_limit_is_refused_before_it_is_built():
    from attnproof.checker import poly as P
    from attnproof.checker.limits import MAX_EXPANSION
    from attnproof.checker.syntax import Budget, Unsupported

    n = int(MAX_EXPANSION ** 0.5) + 1
    p = {((0, k),): 1 for k in range(n)}
    q = {((1, k),): 1 for k in range(n)}
    budget = Budget(None)
    with pytest.raises(Unsupported, match="term products"):
        P.mul(p, q, budget)
    assert budget.used == 0


def test_products_pay_for_their_coefficients():
    """A Fraction product takes gcds, a long coefficient a product of its words: the
    estimate grows with both, before the product is built."""
    from fractions import Fraction

    from attnproof.checker import poly as P

    def poly(c):
        return {((0, k),): c for k in range(50)}

    plain = P.product_cost(poly(3), poly(5))
    frac = P.product_cost(poly(Fraction(1, 3)), poly(5))
    long = P.product_cost(poly(Fraction(10 ** 2000 + 1, 7)), poly(Fraction(3, 10 ** 2000 + 3)))
    assert plain < frac < long
    words = 2 * 6644 // 64
    assert long >= 50 * 50 * words * words // 64


@pytest.mark.parametrize("bits", [64, 6000])
def test_images_pay_for_the_bits_of_every_exponent(bits):
    """x_1^e for e of 6000 bits costs thousands of modular products: not_divisible (whose
    image variable is x_0) and the point test charge every variable's exponent bits (of
    the gaps between sorted exponents: close exponents are cheap, random ones are not)."""
    import random

    from attnproof.checker import poly as P
    from attnproof.checker.syntax import Budget

    n = 40
    rng = random.Random(bits)
    a = {((0, k), (1, rng.getrandbits(bits) | 1)): 1 for k in range(n)}
    b = {(): 1, ((0, 1),): 1}
    for run in (lambda bud: P.not_divisible(a, b, bud), lambda bud: P.images([a], bud)):
        bud = Budget(None)
        run(bud)
        assert bud.used >= n * bits // 8


def test_reading_atoms_is_charged_before_they_are_read():
    """A problem of many atoms with a small work budget: inconclusive before reading."""
    from attnproof.checker import limits
    from attnproof.checker.problem import atoms_cost

    doc = _gen().forged_head(2000)
    text = _text(doc)
    cost = atoms_cost(doc["problem"]["heads"][0]["atoms"]) + atoms_cost(
        doc["steps"][-1]["head"]["atoms"])
    # reading and hashing the text are charged first (a unit per READ_BYTES_PER_UNIT bytes each)
    from attnproof.checker.syntax import canonical_text
    read = (len(text) + len(canonical_text(doc["problem"]))) // limits.READ_BYTES_PER_UNIT
    v = check_text(text, work=read + cost // 2)
    assert v.code == 2 and "reading atoms" in v.message, v.message


def test_many_heads_over_one_denominator_have_a_small_residue():
    """300 heads (v_i x + w_i)/(1 + x): the residue at 1 + x was bounded by Π_h |N_h|
    (2^300 terms, inconclusive at once); built from prefix and suffix products it has
    at most max|N|·Π|C_h| = 2 terms, and the producer's certificate is valid."""
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_from_dict

    doc = build_certificate(problem_from_dict(_gen().one_denominator_problem(300))).doc
    v = check_text(_text(doc))
    assert v.code == 0, v.message


def _run_limited(path) -> tuple[int, str]:
    """The standalone checker on ``path`` in a child process with 1 GB of address space."""
    import resource
    import subprocess
    import sys

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    p = subprocess.run([sys.executable, "-m", "attnproof.checker", str(path)],
                       capture_output=True, text=True, preexec_fn=limit, timeout=900)
    return p.returncode, p.stdout + p.stderr


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(FORGED_HEADS))
def test_large_forged_explicit_heads_within_a_gigabyte(tmp_path, kind):
    """The same attacks at 300,000 atoms (10-15 MB): an answer, never valid."""
    path = tmp_path / f"{kind}.json"
    path.write_text(_text(FORGED_HEADS[kind](_gen(), 300_000)))
    code, out = _run_limited(path)
    assert code in (1, 2) and "internal" not in out, out[-2000:]


@pytest.mark.slow
def test_large_true_heads_and_padding_within_a_gigabyte(tmp_path):
    """A true wasteful head of 200,000 atoms is valid or inconclusive, never invalid; a
    4 MB name buys the budget of its bytes, no more, for a division no image decides."""
    from attnproof.checker.limits import WORK_BASE, WORK_PER_BYTE

    g = _gen()
    path = tmp_path / "wasteful.json"
    path.write_text(_text(g.wasteful_head(50_000, span=10 ** 6)))
    code, out = _run_limited(path)
    assert code in (0, 2) and "internal" not in out, out[-2000:]
    text = _text(g.undecided_division(pad=4_000_000))
    assert work_limit(len(text)) == WORK_BASE + int(WORK_PER_BYTE * len(text))
    path = tmp_path / "padded.json"
    path.write_text(text)
    code, out = _run_limited(path)
    assert code == 2 and "work budget" in out, out[-2000:]


def test_a_division_with_huge_exponents_in_many_variables():
    """(1 + x_0)(1 + M), M of 100 variables with 2000-digit exponents: the division coded
    its box in integers of 200,000 digits and divided them at every step (89 s for this
    0.4 MB genuine certificate); monomials ordered by lex_key take linear steps."""
    from attnproof.checker import poly as P
    from attnproof.checker.syntax import Budget

    doc = _gen().huge_exponent_head(100, 2000)
    v = check_text(_text(doc))
    assert v.code == 0, v.message
    # the division itself: a few steps, charged by the words of the exponents they touch
    f = {(): 1, ((0, 1),): 1}
    used = []
    for digits in (20, 2000):
        M = tuple((j, 10 ** digits + 7 * j) for j in range(1, 101))
        bud = Budget(None)
        assert P.divexact(P.mul(f, {(): 1, M: 1}), f, bud) == {(): 1, M: 1}
        used.append(bud.used)
    assert used[1] >= 4 * used[0]


def test_a_division_pays_for_the_pairs_of_long_monomials():
    """(1 + x_0)·g with g of 100 terms in 2,000 of 100,000 variables each: every step of
    the division on monomials merges and compares monomials of 2,000 pairs; it was
    charged as if they had one (3 s of CPU for 10,000 pairs, charged about 700 units)."""
    import random

    from attnproof.checker import poly as P
    from attnproof.checker.syntax import Budget

    rng = random.Random(2)
    f = {(): 1, ((0, 1),): 1}
    used = []
    for pairs in (10, 2000):
        g = {tuple((v, rng.randint(1, 3)) for v in sorted(rng.sample(range(1, 100_000), pairs))): 1
             for _ in range(100)}
        bud = Budget(None)
        assert P.divexact(P.mul(f, g), f, bud) == g
        used.append(bud.used)
    assert used[1] >= 50 * used[0]


def test_repeated_keys_pay_for_their_growing_sums():
    """A head whose atoms share a key with weights 1/q_i, q_i of 2000 digits: the weights
    add to a denominator of n·2000 digits, each addition a gcd and products of that
    length (400 atoms, an 815 kB certificate: 16 s of CPU, charged nothing).  The
    charge grows quadratically with n, before the arithmetic."""
    import random

    from attnproof.checker.problem import parse_problem
    from attnproof.checker.syntax import Budget

    rng = random.Random(1)

    def problem(n):
        atoms = [{"key": [0], "value": 1, "weight": f"1/{rng.randrange(10 ** 1999, 10 ** 2000) | 1}"}
                 for _ in range(n)] + [{"key": [1], "value": 0}]
        return {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [{"atoms": atoms}]}

    used = []
    for n in (40, 80):
        bud = Budget(None)
        parse_problem(problem(n), budget=bud)
        used.append(bud.used)
    assert used[1] >= 3 * used[0] and used[1] >= 80 * 80 * 104 * 104 // 2 // 128
    doc = {"format": "attnproof-certificate", "version": 1, "problem": problem(80),
           "claims": {"lower_bound": 2, "upper_bound": 2, "minimum": 2, "window_refutations": []},
           "steps": [{"rule": "newton_blocks", "blocks": []}, {"rule": "product_fusion"}],
           "trust": "exact"}
    doc["problem_sha256"] = hashlib.sha256(_canon(doc["problem"]).encode()).hexdigest()
    v = check_text(json.dumps(doc), work=used[1] // 2)
    assert v.code == 2 and "rational weights" in v.message, v.message


_FAR = 2 ** 20 + 1          # past the 17-bit cap: the geometric path (generic_heads)


def _segment_head(biases: list, values=lambda b: 1 + b % 5) -> dict:
    """One head on the segment from 0 to (2^20 + 1, 1), with the biases given at its far
    end (and at 0 only the key itself): a coefficient of ``len(biases)`` z-terms."""
    return {"atoms": [{"key": [0, 0], "value": 0}]
            + [{"key": [_FAR, 1], "value": values(b), **({"bias": b} if b else {})}
               for b in biases]}


def _generic_cert(heads: list, lower: int, upper: int) -> str:
    problem = {"format": "attnproof-problem", "version": 1, "dim": 2, "heads": heads}
    steps = [{"rule": "indecomposable_chain", "head": h, "kind": "simplex", "prime": 2 ** 61 - 1}
             for h in range(len(heads))]
    steps += [{"rule": "generic_heads", "classes": [[h] for h in range(len(heads))]},
              {"rule": "planar_vertices"}, {"rule": "product_fusion"}]
    return _cert(problem, steps, lower, upper)


def test_generic_heads_constant_test_pays_for_its_products():
    """A head whose coefficients at both ends have N z-terms: the constant test
    multiplies them pairwise (``N²`` products of Fractions), charged linearly before
    (a 155 kB certificate with N = 2000 took 96 s, charged 144,000 units).  A head that
    is not constant is now refuted by the images mod a prime, in linear work; a
    constant one (every image agrees) pays the exact products, quadratically, before
    they are made."""
    for constant in (False, True):
        used = []
        for n in (40, 80):
            head = _segment_head(list(range(n)),
                                 values=(lambda b: 3) if constant else (lambda b: 1 + b % 5))
            head["atoms"] = [{"key": [0, 0], "value": 3 if constant else 1 + b % 7,
                              **({"bias": b} if b else {})} for b in range(n)] + head["atoms"][1:]
            v = check_text(_generic_cert([head], 2, 2))
            # a constant head is no class of Q: nothing is left to count
            assert v.status == ("invalid" if constant else "valid"), v.message
            used.append(v.work)
        if constant:
            assert used[1] >= 3 * used[0] and used[1] >= 4 * 80 * 80
        else:
            assert used[1] < 3 * used[0]


def test_generic_heads_pair_test_pays_for_the_longer_head():
    """Representatives of one shape with coefficients of several z-terms are compared
    pairwise, each pair charged by the first head's size alone: n small heads against
    one with N z-terms cost n·N products charged about 40·n (a 4.3 MB certificate,
    n = 250 and N = 100,000, took 37 s), while the long head against each small one
    was charged about N²/2 per pair (a true certificate of 11 heads and N = 200 was
    inconclusive).  Each product is now charged before it is made, and only then."""
    from attnproof.checker.rules.state import State
    from attnproof.checker.syntax import Budget

    long_ = {(): {0: 1}, ((0, _FAR), (1, 1)): {e: 1 for e in range(500)}}
    short = {(): {0: 1}, ((0, _FAR), (1, 1)): {0: 1, 501: 1}}
    st = State(None)
    st.budget = Budget(None)
    assert not geometry._proportional(long_, short, (), st, "pair")
    assert st.budget.used >= 500
    heads = [_segment_head([0, 201 + i]) for i in range(10)] + [_segment_head(list(range(200)))]
    v = check_text(_generic_cert(heads, 2, 2 ** 11))
    assert v.status == "valid", v.message


def test_generic_heads_constant_test_pays_for_growing_sums():
    """A class of n heads on one denominator with values 1/r_i, r_i of 2000 digits: the
    constant test adds the numerators to a denominator of n·2000 digits, each addition a
    gcd of that length (400 heads, an 830 kB certificate: 10.6 s of CPU, charged 100,888
    units).  Each addition is charged the product of the word lengths first."""
    import random

    rng = random.Random(3)
    used = []
    for n in (20, 40):
        heads = [_segment_head([0], lambda b: f"1/{rng.randrange(10 ** 1999, 10 ** 2000) | 1}")
                 for _ in range(n)]
        problem = {"format": "attnproof-problem", "version": 1, "dim": 2, "heads": heads}
        steps = [{"rule": "indecomposable_chain", "head": 0, "kind": "simplex", "prime": 2 ** 61 - 1},
                 {"rule": "generic_heads", "classes": [list(range(n))]},
                 {"rule": "planar_vertices"}, {"rule": "product_fusion"}]
        v = check_text(_cert(problem, steps, 2, 2 ** n))
        assert v.status == "valid", v.message
        used.append(v.work)
    assert used[1] - used[0] >= 40 * 40 * 104 * 104 // 2 // 32 // 2


def test_a_certificate_past_the_size_its_budget_reads_is_answered_unread(tmp_path, monkeypatch,
                                                                          capsys):
    """Reading JSON is not metered (small objects cost a second and 26 bytes of memory per
    byte of text), so the work budget bounds what is read: with the default budget at most
    MAX_READ_BYTES, with --max-work N at most BYTES_PER_WORK·N.  Past it every entry point
    answers inconclusive unread, in one line; the command lines name the --max-work that
    reads the file (the limit is lowered here so that a small genuine certificate is past it)."""
    from attnproof import check
    from attnproof.certificate import build_certificate
    from attnproof.checker import check_document, limits
    from attnproof.checker.__main__ import main as standalone
    from attnproof.cli import main
    from attnproof.families import sigmoid_sum

    cert = build_certificate(sigmoid_sum(3))
    path = tmp_path / "w3.cert"
    path.write_text(cert.text)
    n = len(cert.text)
    need = -(-n // limits.BYTES_PER_WORK)
    monkeypatch.setattr(limits, "MAX_READ_BYTES", n - 1)
    said = f"the certificate has {n:,} bytes, more than the {n - 1:,}"
    # with --max-work N: at most the bytes N units read
    v = check_text(cert.text, work=need - 1)
    assert (v.code, v.work) == (2, 0) and said in v.message, v.message
    assert "--max-work" not in v.message, v.message     # the command lines advise, not the core
    assert check_text(cert.text, work=need).message.find(said) < 0
    # with the default budget, which grows with the file: every entry point reads it
    for v in (check_text(cert.text), check_document(cert.doc), check(cert), check(str(path)),
              check(cert.text)):
        assert v.code == 0, v.message
    capsys.readouterr()
    argv = [str(path), "--max-work", str(need - 1)]
    assert main(["check", *argv]) == 2
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and said in out and out.rstrip().endswith(f"'--max-work {need}' reads it"), out
    assert standalone(argv) == 2 and capsys.readouterr().out == out
    assert main(["check", *argv, "--json"]) == 2
    doc = json.loads(capsys.readouterr().out)
    assert doc["verdict"] == "inconclusive" and said in doc["message"]
    for argv in ([str(path)], [str(path), "--max-work", "1000000"],
                 [str(path), "--max-work", "1000000", "--problem-sha256", cert.doc["problem_sha256"]]):
        assert standalone(argv) == 0, capsys.readouterr()
    assert main(["check", str(path)]) == 0
    monkeypatch.undo()
    assert check_text(cert.text).code == 0 and check_document(cert.doc).code == 0
    v = limits
    assert v.byte_limit(None) == v.MAX_FILE_BYTES and v.byte_limit(10 ** 13) == v.MAX_FILE_BYTES
    from attnproof.checker import too_large
    from attnproof.checker.__main__ import advised
    big = too_large(v.MAX_FILE_BYTES + 1, 10 ** 13)
    assert "--max-work" not in big.message
    assert advised(big, v.MAX_FILE_BYTES + 1).message.endswith(f"no --max-work reads more than "
                                                               f"{v.MAX_FILE_BYTES:,}")


def test_prove_needs_no_max_work_for_a_large_genuine_certificate(tmp_path, monkeypatch, capsys):
    """The default budget grows with the file: whatever the size read with --max-work
    (MAX_READ_BYTES, lowered here), the producer's certificate is valid with no option,
    prove names no --max-work, and keeps its embedded fusion (the upper bound)."""
    from attnproof.certificate import check_own
    from attnproof.checker import limits
    from attnproof.cli import main

    p = tmp_path / "k4.json"
    assert main(["family", "graph", "--graph", "complete", "--n", "4", "-o", str(p)]) == 0
    capsys.readouterr()
    assert main(["prove", str(p), "--no-lines", "-o", str(tmp_path / "a.cert")]) == 0
    plain = capsys.readouterr().out
    monkeypatch.setattr(limits, "MAX_READ_BYTES", 600)
    assert main(["prove", str(p), "--no-lines", "-o", str(tmp_path / "b.cert")]) == 0
    said = capsys.readouterr().out
    assert said == plain.replace("a.cert", "b.cert") and "upper bound 38" in plain, (plain, said)
    assert "--max-work" not in said
    text = (tmp_path / "b.cert").read_text()
    assert text == (tmp_path / "a.cert").read_text() and len(text) > 600
    assert main(["check", str(tmp_path / "b.cert")]) == 0
    v, note = check_own(text)
    assert v.code == 0 and note is None


def _vanishing_constant(lc: int, n: int) -> int:
    """``c`` with ``x^n + c`` vanishing at the root ``-1/lc`` of ``lc·x + 1`` modulo the image
    prime: the image test cannot refute ``(lc·x + 1) | x^n + c``, only the division can."""
    from attnproof.checker import poly as P

    root = -pow(lc, -1, P._P) % P._P
    return -pow(root, n, P._P) % P._P


def test_a_division_pays_for_the_growth_of_its_quotient_terms():
    """x^n + c over L·x + 1 (L of 63 bits, the image made to vanish): the quotient terms are
    ±x^k / L^(n-k), each step 63 bits longer than the one before; the steps were charged as
    if the terms stayed as long as a's and b's (a 700-byte certificate took minutes and
    gigabytes).  The charge covers the words of every quotient term built."""
    from attnproof.checker import poly as P
    from attnproof.checker.syntax import Budget

    lc, n = (1 << 63) - 25, 1000
    a = {((0, n),): 1, (): _vanishing_constant(lc, n)}
    b = {((0, 1),): lc, (): 1}
    assert not P.not_divisible(a, b)
    bud = Budget(None)
    assert P.divexact(a, b, bud) is None
    built = sum((63 * k) >> 6 for k in range(1, n + 1))      # words of the quotient terms
    assert bud.used >= built, (bud.used, built)


@pytest.mark.parametrize("lc", [3, (1 << 63) - 25])
def test_a_factor_whose_division_grows_is_stopped_by_the_budget(lc):
    """The same division from a certificate: the factor L·x + 1 of D = (L·x + 1)(x^n + c),
    then v_f(D) divides x^n + c by L·x + 1 (n = 10^6, the image vanishing): inconclusive
    within the budget, never a long run."""
    n = 10 ** 6
    c = _vanishing_constant(lc, n)
    atoms = [{"key": [0], "value": 1, "weight": c}, {"key": [1], "value": 1, "weight": lc * c},
             {"key": [n], "value": 1}, {"key": [n + 1], "value": 1, "weight": lc}]
    problem = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [{"atoms": atoms}]}
    steps = [{"rule": "irreducible_factor", "poly": [[1, []], [lc, [[0, 1]]]], "heads": [[0, 1]],
              "residue_component": 0, "witness": {"kind": "linear", "var": 0}}]
    text = _cert(problem, steps, 1, 1)
    v = check_text(text)
    assert v.code == 2 and "an exact division" in v.message, v.message
    assert v.work <= work_limit(len(text)) + 100_000


class _ClosedPipe:
    """A stdout whose reader has gone (``| head -c1`` after its byte): every write fails."""

    def write(self, s):
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self):
        raise BrokenPipeError(32, "Broken pipe")


def test_a_reader_that_stops_early_cuts_the_text_not_the_exit_code(tmp_path, monkeypatch):
    """``check FILE | head -c1``: the standalone checker printed a BrokenPipeError traceback,
    and ``attnproof check`` exited 0 (valid) for an invalid certificate.  Both exit with
    the verdict's code, silently, also under --json and for an input error."""
    import os
    import subprocess
    import sys

    from attnproof.checker.__main__ import main as standalone
    from attnproof.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "attnproof-certificate"}')
    for argv, code in (([str(bad)], 1), ([str(bad), "--json"], 1),
                       ([str(tmp_path / "none.json"), "--json"], 3)):
        with monkeypatch.context() as m:
            m.setattr(sys, "stdout", _ClosedPipe())
            assert standalone(argv) == code
            assert main(["check", *argv]) == code
    r, w = os.pipe()
    os.close(r)
    try:
        for argv in (["-m", "attnproof.checker", str(bad)], ["-m", "attnproof", "check", str(bad)]):
            p = subprocess.run([sys.executable, *argv], stdout=w, stderr=subprocess.PIPE, text=True,
                               timeout=120)
            assert (p.returncode, p.stderr) == (1, ""), (argv, p.stderr)
    finally:
        os.close(w)


def test_a_problem_file_is_read_as_far_as_a_certificate(tmp_path, monkeypatch):
    """``python -m attnproof.checker CERT --problem FILE`` read a problem file up to 512 MiB
    and parsed it whatever its JSON containers (40 MB of nested lists: 21 s and 1.7 GB).
    It is read as far as the certificate (byte_limit of the work budget) and refused past
    MAX_CONTAINERS, one line, exit 3."""
    from attnproof.checker import __main__ as standalone, limits

    cert = tmp_path / "c.json"
    cert.write_text('{"format": "attnproof-certificate"}')
    prob = tmp_path / "p.json"
    prob.write_text("[" + ",".join(["[[]]"] * 400) + "]")
    monkeypatch.setattr(limits, "MAX_READ_BYTES", 1000)
    assert standalone.main([str(cert), "--problem", str(prob)]) == 3
    assert standalone.main([str(cert), "--problem", str(prob), "--max-work", "2000"]) == 3
    with pytest.raises(standalone.UsageError, match="larger than 1000 bytes"):
        standalone.problem_file_sha256(str(prob), work=250)
    monkeypatch.setattr(standalone, "MAX_CONTAINERS", 100)
    with pytest.raises(standalone.UsageError, match="more than 100 JSON objects and arrays"):
        standalone.problem_file_sha256(str(prob), work=2000)


def test_the_python_api_reads_a_path_no_further_than_the_checker(tmp_path, monkeypatch):
    """``attnproof.check(PATH)`` read the file up to the 512 MiB file limit before the
    checker answered it unread (a 512 MiB file or /dev/zero: a gigabyte of memory); it
    reads what the command line reads."""
    from attnproof import check
    from attnproof.checker import limits
    from attnproof.io import files

    reads = []

    def counted(f, n, *a):
        reads.append(n)
        return read_at_most(f, n, *a)

    read_at_most = files.read_at_most
    monkeypatch.setattr(files, "read_at_most", counted)
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "big.json"
    path.write_text("{" + " " * 5000 + "}")
    v = check(str(path))
    assert v.code == 2 and "more than the 1,000 the checker reads" in v.message, v.message
    assert reads == []
    small = tmp_path / "small.json"
    small.write_text('{"format": "attnproof-certificate"}')
    assert check(small).code == 1 and reads == [1001]


@pytest.mark.parametrize("where", ["read_text", "check_text"])
def test_an_interrupted_standalone_check_is_one_line(tmp_path, monkeypatch, capsys, where):
    """Ctrl-C while the standalone checker waits for a FIFO with no writer, or during a long
    check, ended in a KeyboardInterrupt traceback; it is one line and exit 130, as for
    ``attnproof check``."""
    from attnproof.checker import __main__ as standalone

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    cert = tmp_path / "c.json"
    cert.write_text('{"format": "attnproof-certificate"}')
    monkeypatch.setattr(standalone, where, interrupted)
    capsys.readouterr()
    assert standalone.main([str(cert)], prog="check.py") == 130
    out = capsys.readouterr()
    assert (out.out, out.err) == ("", "check.py: interrupted\n")


@pytest.mark.parametrize("seed", range(4))
def test_both_orders_of_the_exact_division_agree(seed, monkeypatch):
    """The division by box codes and the division on monomials ordered by lex_key (one loop,
    ``_steps``, since they were merged) give the same answer on random products, products
    with one coefficient changed and unrelated pairs, and every quotient is exact."""
    import random
    from fractions import Fraction

    from attnproof.checker import poly as P
    from attnproof.checker.syntax import Budget, Unsupported

    rng = random.Random(seed)

    def poly(terms, nv, emax):
        out = {}
        for _ in range(terms):
            m = tuple((v, e) for v in sorted(rng.sample(range(nv), rng.randint(0, nv)))
                      if (e := rng.randint(-emax, emax)))
            out[m] = rng.choice([1, -1, 2, 3, Fraction(1, 3), Fraction(-5, 2), (1 << 70) + 1])
        return out

    def divide(a, b):
        try:
            return P.divexact(a, b, Budget(200_000))
        except Unsupported:
            return "budget"

    for _ in range(60):
        nv, emax = rng.randint(1, 3), rng.choice([1, 3, 12])
        b, q = poly(rng.randint(1, 4), nv, emax), poly(rng.randint(1, 5), nv, emax)
        a = P.mul(b, q)
        kind = rng.randrange(3)
        if kind == 1 and a:
            m = rng.choice(list(a))
            a[m] += 1
            a = {k: c for k, c in a.items() if c}
        elif kind == 2:
            a = poly(rng.randint(1, 6), nv, emax)
        codes = divide(a, b)
        with monkeypatch.context() as mp:
            mp.setattr(P, "_MAX_CODE_BITS", -1)        # every division on monomials
            sparse = divide(a, b)
        if "budget" not in (codes, sparse):
            assert codes == sparse, (a, b)
        if isinstance(codes, dict):
            assert P.mul(codes, b) == a
        if kind == 0 and a:
            assert codes in (q, "budget") or P.mul(codes, b) == a
