"""A fuzzer that mutates genuine certificates (hypothesis): no false acceptance, no crash.

Mutations: numbers (small, near 2^53, up to 4000 digits), exponents of factor
polynomials and of keys, the dimension, rule names, step order, duplicated
and dropped steps, claims.  The embedded problem is rehashed after every
mutation (an attacker can), so the checker has to refute the mathematics, not
the hash.  Every mutant must get exit 0, 1 or 2 (well-formed JSON never gets
3 or 4), no internal error, within the work budget and a 10 s guard; an
accepted mutant must not claim more than the truth: with ``L``, ``U`` the
genuine bounds of the (possibly changed) problem, ``lower <= U`` and
``upper >= L``, and ``lower <= m <= upper`` when the minimum ``m`` is known.
The default run is short; ``-m slow`` runs a long one.
"""

from __future__ import annotations

import copy
import hashlib
import json
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from attnproof.checker import RULES, check_text
from attnproof.checker.limits import work_limit
from attnproof.io import canonical_json

GOLDEN = Path(__file__).resolve().parent.parent / "certificates" / "valid"
NAMES = ["w1", "w3", "w3-explicit", "k3", "k3-explicit", "c4", "flint", "decimal", "biased",
         "cancel", "zonotope-2d", "path3", "geom-chain", "geom-direct", "geom-partial",
         "geom-triangles"]
DOCS = {n: json.loads((GOLDEN / f"{n}.json").read_text()) for n in NAMES}
BASE = {n: check_text(canonical_json(d)) for n, d in DOCS.items()}

integers = st.one_of(
    st.integers(-3, 3),
    st.integers((1 << 53) - 2, (1 << 53) + 2),
    st.builds(lambda k, s: s * 10 ** k, st.integers(1, 4000), st.sampled_from([1, -1])),
    st.builds(lambda k: 2 ** k + 1, st.integers(1, 200)),
)
mutation = st.tuples(st.sampled_from(["number", "exponent", "rational", "dim", "rule", "order",
                                      "duplicate", "drop", "claim"]),
                     st.integers(0, 10 ** 6), integers)


def _leaves(node, path=()):
    if isinstance(node, dict):
        for k in sorted(node):
            yield from _leaves(node[k], path + (k,))
    elif isinstance(node, list):
        for i, x in enumerate(node):
            yield from _leaves(x, path + (i,))
    else:
        yield path, node


def _set(doc, path, value):
    for p in path[:-1]:
        doc = doc[p]
    doc[path[-1]] = value


def mutate(doc: dict, kind: str, sel: int, n: int) -> None:
    steps = doc["steps"]
    if kind in ("number", "exponent", "rational"):
        leaves = [(p, x) for p, x in _leaves(doc) if
                  (kind == "number" and type(x) is int) or
                  (kind == "rational" and isinstance(x, str) and "/" in x) or
                  (kind == "exponent" and type(x) is int and len(p) >= 2 and
                   (p[-2:-1] == (1,) or "key" in p))]
        if not leaves:
            return
        path, x = leaves[sel % len(leaves)]
        if kind == "rational":
            _set(doc, path, f"{n}/{abs(n) + 2}" if sel % 2 else str(n))
        else:
            _set(doc, path, n)
    elif kind == "dim":
        doc["problem"]["dim"] = [0, 1, 16, 17, 100_000, 100_001, 10 ** 9, abs(n)][sel % 8]
    elif kind == "rule" and steps:
        names = sorted(RULES) + ["", "x" * 50]
        steps[sel % len(steps)]["rule"] = names[(sel // 7) % len(names)]
    elif kind == "order" and len(steps) > 1:
        i = sel % (len(steps) - 1)
        steps[i], steps[i + 1] = steps[i + 1], steps[i]
    elif kind == "duplicate" and steps:
        i = sel % len(steps)
        steps.insert((sel // 3) % (len(steps) + 1), copy.deepcopy(steps[i]))
    elif kind == "drop" and steps:
        del steps[sel % len(steps)]
    elif kind == "claim":
        name = ["lower_bound", "upper_bound", "minimum"][sel % 3]
        v = abs(n)
        doc["claims"][name] = v if v < (1 << 53) else str(v)


def rehash(doc: dict) -> None:
    try:
        doc["problem_sha256"] = hashlib.sha256(canonical_json(doc["problem"]).encode()).hexdigest()
    except (TypeError, ValueError):
        pass


@contextmanager
def guard(seconds: int = 10):
    def _over(*_):
        raise AssertionError(f"a check ran past {seconds} s")
    old = signal.signal(signal.SIGALRM, _over)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _truth(doc: dict, base_name: str):
    """Genuine (lower, upper, minimum) of the mutant's problem, or None when unknown."""
    if doc["problem"] == DOCS[base_name]["problem"]:
        b = BASE[base_name]
        return b.lower_bound, b.upper_bound, b.minimum
    from attnproof.certificate import build_certificate
    from attnproof.errors import AttnproofError
    from attnproof.io import problem_from_dict
    nums = [x for _, x in _leaves(doc["problem"]) if type(x) is int]
    if doc["problem"].get("dim", 0) > 16 or any(abs(x) > 1000 for x in nums):
        return None                     # too large to re-derive safely here
    try:
        c = build_certificate(problem_from_dict(doc["problem"]))
    except (AttnproofError, ValueError, TypeError, KeyError):
        return None
    lo, up = c.lower.value, c.upper
    return lo, up, lo if lo == up else None


def check_mutant(name: str, muts: list, do_rehash: bool, checker=check_text) -> None:
    doc = copy.deepcopy(DOCS[name])
    for kind, sel, n in muts:
        mutate(doc, kind, sel, n)
    if do_rehash:
        rehash(doc)
    text = canonical_json(doc)
    with guard():
        v = checker(text)
    assert v.code in (0, 1, 2), v.message
    assert "internal checker error" not in v.message, (muts, v.message)
    assert v.work <= work_limit(len(text)) or v.code == 2      # the meter stops the check
    if v.code == 0:
        truth = _truth(doc, name)
        if truth is not None:
            lo, up, m = truth
            assert v.lower_bound <= up and v.upper_bound >= lo, (muts, v.message, truth)
            if m is not None:
                assert v.lower_bound <= m <= v.upper_bound, (muts, v.message, truth)


FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True,
                database=None)


@settings(FUZZ, max_examples=150)
@given(st.sampled_from(NAMES), st.lists(mutation, min_size=1, max_size=3), st.booleans())
def test_fuzz_mutants_are_never_falsely_accepted(name, muts, do_rehash):
    check_mutant(name, muts, do_rehash)


@pytest.mark.slow
@settings(FUZZ, max_examples=3000, derandomize=False)
@given(st.sampled_from(NAMES), st.lists(mutation, min_size=1, max_size=4), st.booleans())
def test_fuzz_long(name, muts, do_rehash):
    check_mutant(name, muts, do_rehash)


def test_fuzz_oracle_catches_a_permissive_checker():
    """Calibration: a checker that ignores the claims is caught by the oracle."""
    def permissive(text):
        v = check_text(text)
        if v.code == 1 and v.message.startswith("invalid: claims"):
            d = json.loads(text)["claims"]
            v.status, v.code = "valid", 0
            v.lower_bound, v.upper_bound = int(d["lower_bound"]), int(d["upper_bound"])
        return v
    check_mutant("w3", [("claim", 3, 7)], True)                  # the real checker: fine
    with pytest.raises(AssertionError):
        check_mutant("w3", [("claim", 0, 9)], True, permissive)   # lower bound 9 > minimum 8
