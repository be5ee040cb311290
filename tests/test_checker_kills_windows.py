"""Kill tests for ``line_refutation`` (docs/certificates.md §6.11, docs/lines.md §6-7): the
optional fields ``coefficients``, ``multiplicities`` and ``newton_factors``, and how the
checker reads a bound factor ``α·x^a·(1 + c·x^g)`` (``binomial_factor``).

Each certificate is the producer's own (an ``unsat`` line query that z3 and cvc5 answered,
built into a certificate as ``attnproof prove --lines`` does); the checker does not re-solve
the query, so each field of the step is verified by the checker's structural checks alone.
Every genuine certificate must be accepted (inconclusive, waiting for ``--replay``, with the
lower bound it proves); every corruption below must be rejected, with the message of the
check it breaks (a weakened checker either accepts it or rejects it for another reason).
"""

from __future__ import annotations

import json

import pytest

from attnproof.checker import check_text
from attnproof.io import canonical_json

def _sig(*key, weight=None):
    """``σ(<key, q> + log weight)``: atoms ``key -> 1`` (with its weight) and ``0 -> 0``."""
    a = {"key": list(key), "value": 1}
    if weight is not None:
        a["weight"] = weight
    return {"atoms": [a, {"key": [0] * len(key), "value": 0}]}


def _problem(dim, *heads):
    return {"format": "attnproof-problem", "version": 1, "dim": dim, "heads": list(heads)}


# x^2/(1 + x)^2: keys 0, 1, 2 with weights 1, 2, 1, so Q has the factor (1 + x)^2
_SQUARE = {"atoms": [{"key": [0, 0], "value": 0}, {"key": [1, 0], "value": 0, "weight": 2},
                     {"key": [2, 0], "value": 1}]}
# 1 + x + y: irreducible, not a binomial (a Newton factor)
_TRIANGLE = {"atoms": [{"key": [0, 0], "value": 0}, {"key": [1, 0], "value": 1},
                       {"key": [0, 1], "value": 2}]}

# name -> (problem, atoms k of the line query or None for the producer's own minimization,
#          lower bound the certificate proves, the field the step must carry)
CASES = {
    # σ(q) + σ(q + log 2): factors 1 + x and 1 + 2x, one direction, coefficients 1 and 2
    "parallel": (_problem(1, _sig(1), _sig(1, weight=2)), None, 3, "coefficients"),
    # σ(y) + σ(x + log 3/2) + σ(x - y + log 3/2): factors 1 + y, 2 + 3x and 3x + 2y, the last
    # read as y(1 + (3/2)·x·y^-1) (its exponent difference turned around: c = 3/2, not 2/3)
    "three-halves": (_problem(2, _sig(0, 1), _sig(1, 0, weight="3/2"),
                              _sig(1, -1, weight="3/2")), None, 7, "coefficients"),
    # x^2/(1 + x)^2 + σ(y): (1 + x)^2 divides Q (multiplicity 2), minimum 6
    "square": (_problem(2, _SQUARE, _sig(0, 1)), None, 6, "multiplicities"),
    # (1 + x + y) kept as a Newton factor beside 1 + x and 1 + y (bound factors 0, 1, 2)
    "trinomial": (_problem(2, _TRIANGLE, _sig(1, 0), _sig(0, 1)), 3, 5, "newton_factors"),
    # σ(q + log w), w = 1..64: 64 factors 1 + w·x, the most directions a step may list
    "sixty-four": (_problem(1, _sig(1), *(_sig(1, weight=w) for w in range(2, 65))), 1, 2,
                   "coefficients"),
}

_CERTS: dict = {}


def _certificate(name: str) -> dict:
    from attnproof import prove
    from attnproof.certificate import build_certificate
    from attnproof.io import problem_from_dict
    from attnproof.smt import line_certificate
    from attnproof.smt.line_query import line_query

    from unittest import mock

    pb, k, _, _ = CASES[name]
    M = problem_from_dict(pb)
    # the edge roots (docs/theory.md §10) prove "parallel", "square" and "sixty-four" without
    # a line; they are left out here so that every case exercises the line step
    with mock.patch("attnproof.certificate.build._raise_by_edges", lambda *a: None):
        if k is None:                             # what `attnproof prove --lines` writes
            return prove(M, lines=True, minors=False).doc
        res = line_query(M, k, timeout=60, complete=False)
        assert res.result == "unsat", (name, res.result)
        return line_certificate(M, None, res, cert=build_certificate(M)).doc


def certificate(name: str) -> dict:
    """The producer's line certificate of ``CASES[name]`` (a fresh copy each time)."""
    if name not in _CERTS:
        _CERTS[name] = canonical_json(_certificate(name))
    return json.loads(_CERTS[name])


@pytest.fixture
def doc(name) -> dict:
    """``certificate(name)``, made in the test's setup: the solvers' time is not the time of
    the check (a mutation run limits the CPU time of a test's call, tests/conftest.py)."""
    return certificate(name)


@pytest.fixture(scope="module")
def docs() -> dict:
    return {name: certificate(name) for name in CASES}


def _line_step(doc: dict) -> dict:
    return next(s for s in doc["steps"] if s["rule"] == "line_refutation")


def _check(doc: dict):
    return check_text(canonical_json(doc))


@pytest.mark.parametrize("name", sorted(CASES))
def test_genuine_line_certificates_are_accepted(name, doc):
    """Each field is read and verified, not skipped: the step waits for the replay, and the
    lower bound is the one the refutation proves (a checker that crashed, or read the field
    under another name, would answer otherwise)."""
    step = _line_step(doc)
    _, _, lower, field = CASES[name]
    assert field in step, sorted(step)
    v = _check(doc)
    assert (v.status, v.code) == ("inconclusive", 2), v.message
    assert v.message.endswith("not re-proven") and "internal" not in v.message
    assert v.bounds_verified and v.line_steps == [doc["steps"].index(step)], v.message
    assert v.lower_bound == lower == doc["claims"]["lower_bound"], v.message


def test_the_genuine_steps_use_every_field(docs):
    """The certificates above are the ones the forgeries below start from."""
    got = {}
    for name in sorted(set(CASES) - {"sixty-four"}):
        s = _line_step(docs[name])
        got[name] = {k: s[k] for k in ("directions", "coefficients", "multiplicities",
                                       "newton_factors") if k in s}
    assert got == {
        "parallel": {"directions": [[1], [1]], "coefficients": [1, 2]},
        "three-halves": {"directions": [[0, 1], [1, -1], [1, 0]],
                         "coefficients": [1, "3/2", "3/2"]},
        "square": {"directions": [[0, 1], [1, 0]], "multiplicities": [1, 2]},
        "trinomial": {"directions": [[0, 1], [1, 0]], "newton_factors": [[0, 1]]},
    }
    wide = _line_step(docs["sixty-four"])
    assert wide["directions"] == [[1]] * 64 and wide["coefficients"] == list(range(1, 65))


def _sixty_five(step: dict) -> None:
    step["directions"].append([1])
    step["coefficients"].append(65)


# (certificate, change of the line step, what the message must say)
FORGERIES = [
    # the pairs (g, c) must be strictly increasing: c decides between equal directions
    ("parallel", {"coefficients": [2, 1]}, "strictly increasing"),
    # one factor listed twice would claim its square divides Q
    ("parallel", {"coefficients": [2, 2]}, "strictly increasing"),
    ("parallel", {"coefficients": [0, 1]}, "coefficients must be positive"),
    ("parallel", {"coefficients": [1, 3]}, "coefficient 3 is not that of a bound factor"),
    ("parallel", {"coefficients": ["1/2", 1]}, "coefficient 1/2 is not that of a bound factor"),
    ("parallel", {"coefficients": [1, "1/2"]}, "strictly increasing"),
    ("three-halves", {"directions": [[0, 1], [1, 0], [1, -1]]}, "strictly increasing"),
    ("three-halves", {"directions": [[0, 1], [1, -1], [1, -1]]}, "strictly increasing"),
    # 3x + 2y is y(1 + (3/2)·x/y), not y(1 + (2/3)·x/y); 2 + 3x is 2(1 + (3/2)x), not 3(...)
    ("three-halves", {"coefficients": [1, "2/3", "3/2"]}, "coefficient 2/3 is not that of"),
    ("three-halves", {"coefficients": [1, "3/2", "2/3"]}, "direction [1, 0] with coefficient 2/3"),
    ("three-halves", {"coefficients": [1, "3/2", 3]}, "coefficient 3 is not that of"),
    ("three-halves", {"directions": [[0, 1], [1, -1], [2, 0]]}, "direction [2, 0] with"),
    # (1 + x)^2 divides Q, (1 + x)^3 does not; 1 + y divides it once
    ("square", {"multiplicities": [1, 3]}, "2 times, not 3"),
    ("square", {"multiplicities": [2, 2]}, "1 times, not 2"),
    ("square", {"multiplicities": [1, 0]}, "must be at least 1"),
    # Newton factors: [bound factor, multiplicity], distinct, increasing, not a listed binomial
    ("trinomial", {"newton_factors": [[0, 2]]}, "bound factor 0 divides the reduced "
                                                "denominator 1 times, not 2"),
    ("trinomial", {"newton_factors": [[0, 1], [0, 1]]}, "distinct bound factors, in increasing"),
    ("trinomial", {"newton_factors": [[0, 1, 1]]}, "a list of [bound factor, multiplicity]"),
    ("trinomial", {"newton_factors": [[1, 1]]}, "none of them a binomial listed above"),
    ("trinomial", {"newton_factors": [[0, 1], [2, 1]]}, "none of them a binomial listed above"),
    ("trinomial", {"newton_factors": [[3, 1]]}, "distinct bound factors, in increasing"),
    ("trinomial", {"newton_factors": [[-1, 1]]}, "must be at least 0, got -1"),
    ("trinomial", {"newton_factors": [[0, 0]]}, "must be at least 1, got 0"),
    ("trinomial", {"newton_factors": [[0, "1"]]}, "newton_factors: expected an integer"),
    ("trinomial", {"newton_factors": [["0", 1]]}, "newton_factors: expected an integer"),
    # the binomials' multiplicities are still verified when Newton factors follow them
    ("trinomial", {"multiplicities": [2, 1]}, "bound factor 2 divides the reduced "
                                              "denominator 1 times, not 2"),
    ("sixty-four", _sixty_five, "at most 64 vectors"),
    # what the replay needs: the query's text, its hash, both solvers, the problem
    ("parallel", {"smtlib": "(check-sat)\n"}, "does not match smtlib_sha256"),
    ("parallel", {"smtlib": 5}, "smtlib must be a string"),
    ("parallel", {"solvers": {"z3": "4.13.0", "cvc5": ""}}, "must name the z3 and cvc5"),
    ("parallel", {"solvers": {"z3": "4.13.0"}}, "solvers"),
    ("parallel", {"problem_sha256": "0" * 64}, "not the certificate's problem"),
]


@pytest.mark.parametrize("name, change, message", FORGERIES,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(FORGERIES)])
def test_corrupted_line_certificates_are_rejected(name, doc, change, message):
    step = _line_step(doc)
    change(step) if callable(change) else step.update(change)
    v = _check(doc)
    assert (v.status, v.code) == ("invalid", 1), v.message
    assert message in v.message and "line_refutation" in v.message, v.message
