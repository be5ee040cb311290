"""The checker's cost per rule, measured in operation counts (docs/certificates.md §8).

No wall-clock assertions: the work meter counts elementary operations, and
these tests check how the count grows with the input, and that it does not
grow with the size of exponents or the dimension.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from attnproof.certificate import build_certificate
from attnproof.checker import check_text
from attnproof.checker import poly as P
from attnproof.checker.limits import work_limit
from attnproof.checker.syntax import Budget
from attnproof.families import sigmoid_sum
from attnproof.io import canonical_json

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("adv_generate",
                                               ROOT / "certificates" / "adversarial" / "generate.py")
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)


def _work(doc) -> tuple[int, int]:
    text = doc if isinstance(doc, str) else canonical_json(doc)
    v = check_text(text)
    assert v.code in (0, 1), v.message
    return v.work, v.code


def _linear(sizes, works):
    """Doubling the input at most doubles the work (plus 10 %)."""
    for (n1, w1), (n2, w2) in zip(zip(sizes, works), zip(sizes[1:], works[1:])):
        assert w2 <= 2.2 * w1 * (n2 / n1) / 2, (sizes, works)


def test_w_d_is_linear():
    sizes = [100, 200, 400]
    works = [_work(build_certificate(sigmoid_sum(d), explicit_fusion_limit=1).doc)[0]
             for d in sizes]
    _linear(sizes, works)


def test_one_independent_block_is_linear():
    """W_n with one zonotope_independent block of n generators (sparse rank)."""
    sizes = [100, 200, 400]
    works = [_work(gen._zonotope_cert([[1 if i == j else 0 for i in range(n)] for j in range(n)],
                                      n, "zonotope_independent", 2 ** n))[0] for n in sizes]
    _linear(sizes, works)


def test_heads_in_the_same_variables_are_linear():
    """Σ_k σ(q1 + k q2): factors are matched to heads by direction, not by trying all."""
    sizes = [50, 100, 200]
    works = []
    for h in sizes:
        w, code = _work(gen._zonotope_cert([[1, k] for k in range(1, h + 1)], 2,
                                           "zonotope_general_position", 2 * h))
        assert code == 0
        works.append(w)
    _linear(sizes, works)


@pytest.mark.parametrize("key", [10 ** 4, 10 ** 30, 10 ** 300, 2 ** 53])
def test_exponent_size_does_not_cost(key):
    """1 + x does not divide 1 + x^(even): decided by an image mod p; the work grows
    with the digits of the exponent (square-and-multiply), never with its size."""
    w, code = _work(gen.single_sigma(key))
    small, _ = _work(gen.single_sigma(1000))
    assert code == 1 and small <= w <= small + key.bit_length()


@pytest.mark.parametrize("dim", [17, 1000, 100_000])
def test_dimension_does_not_cost(dim):
    w, code = _work(gen.shifted_w3(dim - 3, dim))
    base, _ = _work(gen.shifted_w3(14, 17))
    # reading is charged by the byte: the digits of dim and of the variables add a few units
    assert code == 0 and base <= w <= base + 16


def test_genuine_certificates_use_a_fraction_of_the_budget():
    for f in sorted((ROOT / "certificates" / "valid").glob("*.json")):
        text = f.read_text()
        v = check_text(text)
        assert v.code in (0, 2) and v.bounds_verified, f
        assert 0 < v.work < work_limit(len(text)) / 10, (f.name, v.work)


def test_division_steps_are_charged():
    """(1 + x^n) / (1 + x) has n quotient terms: the meter grows with n and stops it."""
    one, x = (), ((0, 1),)
    used = []
    for n in (101, 201, 401):
        b = Budget(None)
        q = P.divexact({one: 1, ((0, n),): 1}, {one: 1, x: 1}, b)
        assert len(q) == n
        used.append(b.used)
    _linear([101, 201, 401], used)
    from attnproof.checker.syntax import Unsupported
    with pytest.raises(Unsupported):
        P.divexact({one: 1, ((0, 10 ** 9 + 1),): 1}, {one: 1, x: 1}, Budget(10 ** 5))


def test_rank_cost_sparse_and_dense():
    from attnproof.checker.linalg import rank
    b = Budget(None)
    assert rank([{i: 1} for i in range(1000)], b) == 1000
    assert b.used <= 3 * 1000
    import random
    rng = random.Random(1)
    dense = []
    for n in (10, 20, 40):
        b = Budget(None)
        rank([[rng.randint(-3, 3) for _ in range(n)] for _ in range(n)], b)
        dense.append(b.used)
    assert dense[2] >= 4 * dense[1] >= 16 * dense[0] / 2      # cubic growth, counted


def test_the_budget_decides_between_an_answer_and_inconclusive():
    """The same genuine certificate (σ(2001·q) with the factor 1 + x): valid with the
    default budget, inconclusive with a budget below its measured work.  A binomial
    factor of a binomial head is decided in closed form (no quotient of 10^6 terms)."""
    text = canonical_json(gen.single_sigma(2001))
    v = check_text(text)
    assert v.code == 0 and v.work < work_limit(len(text))
    w = check_text(text, work=v.work // 2)
    assert w.code == 2 and "work budget" in w.message
    assert json.loads(json.dumps(w.to_dict()))["work"] > v.work // 2
    big = check_text(canonical_json(gen.single_sigma(10 ** 6 + 1)))
    small = check_text(canonical_json(gen.single_sigma(1001)))
    assert big.code == small.code == 0 and big.work <= small.work + 8
