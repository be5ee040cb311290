"""Input safety: exact numbers, strict JSON, validation messages (TESTING.md 6-8, 11)."""

from __future__ import annotations

import json
import os
import time
from fractions import Fraction

import pytest

from attnproof.errors import InputError, NumberError, ValidationError
from attnproof.io import (atomic_write_text, canonical_json, load_problem, loads_problem,
                          parse_number, problem_from_dict, problem_sha256, problem_to_dict)
from attnproof.families import sigmoid_sum, random_multihead


@pytest.mark.parametrize("text,value", [
    ("0.1", Fraction(1, 10)), ("-3/6", Fraction(-1, 2)), ("1e3", Fraction(1000)),
    ("2.5E-2", Fraction(1, 40)), (".5", Fraction(1, 2)), ("7", Fraction(7)), (12, Fraction(12)),
    ("+4", Fraction(4)), ("1.", Fraction(1)),
])
def test_exact_numbers(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize("bad", [
    float("nan"), float("inf"), 0.1, True, False, None, "NaN", "Infinity", "inf", "1e400000",
    "1e999999999", "1_000", "0x10", "١٢", "１", "1/0", "", " 1", "1 ", "--1", "1/2/3", "e5",
    "1e", "3/-4", [1], {"a": 1}, "9" * 5000,
])
def test_rejected_numbers(bad):
    t = time.perf_counter()
    with pytest.raises(NumberError):
        parse_number(bad)
    assert time.perf_counter() - t < 0.5   # a guard against unbounded parsing, not a speed target


def problem_text(**over):
    doc = {"format": "attnproof-problem", "version": 1, "dim": 1,
           "heads": [{"name": "s", "atoms": [{"key": [1], "value": 1}, {"key": [0], "value": 0}]}]}
    doc.update(over)
    return json.dumps(doc)


@pytest.mark.parametrize("text,needle", [
    ('{"format": "attnproof-problem", "format": "x"}', "duplicate key 'format'"),
    ('{"a": NaN}', "NaN"),
    ('{"a": 1e400}', "JSON float"),
    ('[1, 2', "not valid JSON"),
    (problem_text(version=2), "unsupported version 2"),
    (problem_text(version=1.0), "JSON float"),
    (problem_text(extra=1), "unknown field 'extra'"),
    (problem_text(heads=[]), "non-empty"),
    (problem_text(heads=[{"atoms": []}]), "head 0: 'atoms' must be a non-empty list"),
    (problem_text(heads=[{"atoms": [{"key": [1, 2], "value": 1}]}]), "head 0, atom 0: key has dimension 2"),
    (problem_text(heads=[{"name": "a", "atoms": [{"key": [1], "value": 1},
                                                 {"key": [0], "value": 0, "weight": 0}]}]),
     "head 0 ('a'), atom 1: weight must be positive"),
    (problem_text(heads=[{"atoms": [{"key": [1], "value": 1, "weight": "-1/2"}]}]), "weight must be positive"),
    (problem_text(heads=[{"atoms": [{"key": [1], "value": [1, 2]}, {"key": [0], "value": 3}]}]),
     "atom 1: value has dimension 1"),
    (problem_text(heads=[{"atoms": [{"key": ["__import__('os')"], "value": 1}]}]), "not an exact number"),
    (problem_text(dim=-1), "dim must be"),
    (problem_text(dim=True), "dim must be"),
])
def test_rejected_problems(text, needle):
    with pytest.raises(InputError) as e:
        loads_problem(text)
    assert needle in str(e.value)
    assert "\n" not in str(e.value)


def test_value_dim_mismatch_across_heads():
    doc = json.loads(problem_text())
    doc["heads"].append({"atoms": [{"key": [0], "value": [1, 2]}]})
    with pytest.raises(ValidationError, match="head 1: values have dimension 2"):
        problem_from_dict(doc)


def test_round_trip_and_canonical_order():
    M = random_multihead(3, 3, 2, seed=5, value_dim=2, biases=True)
    doc = problem_to_dict(M)
    assert problem_from_dict(json.loads(canonical_json(doc))) == M
    shuffled = json.loads(json.dumps(doc), object_pairs_hook=lambda p: dict(reversed(p)))
    assert canonical_json(shuffled) == canonical_json(doc)
    assert problem_sha256(M) == problem_sha256(problem_from_dict(shuffled))


def test_decimal_keys_are_exact():
    M = loads_problem(problem_text(heads=[{"atoms": [{"key": ["0.1"], "value": "0.3"}]}]))
    assert M.heads[0].atoms[0].key == (Fraction(1, 10),)
    assert M.heads[0].atoms[0].value == (Fraction(3, 10),)


def test_yaml_traps(tmp_path):
    pytest.importorskip("yaml")
    good = tmp_path / "p.yaml"
    good.write_text("format: attnproof-problem\nversion: 1\ndim: 1\nheads:\n"
                    "  - atoms:\n      - {key: [1], value: 1}\n      - {key: [0], value: '0.5'}\n")
    assert load_problem(good).heads[0].atoms[1].value == (Fraction(1, 2),)
    for trap in ("1e3", "012", "no", "12:30", "0x10"):
        bad = tmp_path / "bad.yaml"
        bad.write_text(good.read_text().replace("'0.5'", trap))
        with pytest.raises(InputError):
            load_problem(bad)


def test_load_problem_missing_and_directory(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_problem(tmp_path / "absent.json")
    with pytest.raises(InputError, match="is a directory"):
        load_problem(tmp_path)


def test_atomic_write_replaces_or_keeps(tmp_path, monkeypatch):
    target = tmp_path / "out.json"
    atomic_write_text(target, "old\n")

    def boom(fd):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(InputError, match="disk full"):
        atomic_write_text(target, "new\n")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]   # no temp file left behind


def test_canonical_json_of_sigmoid_sum_is_stable():
    text = canonical_json(problem_to_dict(sigmoid_sum(2)))
    assert text == ('{"dim":2,"format":"attnproof-problem","heads":[{"atoms":[{"key":[1,0],"value":1},'
                    '{"key":[0,0],"value":0}],"name":"sigma1"},{"atoms":[{"key":[0,1],"value":1},'
                    '{"key":[0,0],"value":0}],"name":"sigma2"}],"version":1}\n')
