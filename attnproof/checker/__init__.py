"""The trusted certificate checker: standard library only, independent of the producer.

It imports nothing from the rest of attnproof.  It parses the certificate
strictly, re-reads the embedded problem itself, runs one function per step
(:data:`~attnproof.checker.rules.RULES`) and compares what it derived with
the certificate's claims.  Verdicts and exit codes: ``valid`` 0, ``invalid``
1 (naming the step and rule), ``inconclusive`` 2.  Format:
``docs/certificates.md``.

>>> v = check_text('{"format": "attnproof-certificate"}')
>>> v.status, v.code
('invalid', 1)
>>> print(v.message)
invalid: certificate: missing field 'claims'
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from .problem import parse_problem
from .rules import RULES, TRUST_ORDER, State, Unsupported
from .syntax import Reject, canonical_text, count, fields, hexdigest, integer, loads

FORMAT = "attnproof-certificate"
VERSION = 1

__all__ = ["Verdict", "check_text", "check_document", "show_count", "FORMAT", "VERSION", "RULES"]


@dataclass
class Verdict:
    """The checker's answer: status, exit code, message and what was established."""

    status: str                      # valid | invalid | inconclusive
    code: int
    message: str
    step: int | None = None
    rule: str | None = None
    lower_bound: int | None = None
    upper_bound: int | None = None
    minimum: int | None = None
    trust: str | None = None
    window_refutations: list = field(default_factory=list)
    problem_sha256: str | None = None

    def to_dict(self) -> dict:
        """JSON-ready form (big counts as decimal strings)."""
        def big(n):
            return n if n is None or n < (1 << 53) else str(n)
        return {"verdict": self.status, "exit_code": self.code, "message": self.message,
                "step": self.step, "rule": self.rule, "lower_bound": big(self.lower_bound),
                "upper_bound": big(self.upper_bound), "minimum": big(self.minimum),
                "trust": self.trust, "window_refutations": self.window_refutations,
                "problem_sha256": self.problem_sha256}


def show_count(n: int | None) -> str:
    """Short text for a count: ``2^k`` for large powers of two, digits count for other huge ones.

    >>> show_count(2 ** 1000), show_count(38)
    ('2^1000', '38')
    """
    if n is None:
        return "none"
    if n >= (1 << 53) and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    s = str(n)
    return s if len(s) <= 30 else f"{s[:12]}...({len(s)} digits)"


def _claims(doc: dict) -> dict:
    c = fields(doc["claims"], {"lower_bound", "upper_bound", "minimum", "window_refutations"},
               set(), "claims")
    out = {"lower_bound": count(c["lower_bound"], "claims: lower_bound"),
           "upper_bound": count(c["upper_bound"], "claims: upper_bound"),
           "minimum": None if c["minimum"] is None else count(c["minimum"], "claims: minimum")}
    if not isinstance(c["window_refutations"], list):
        raise Reject("claims: window_refutations must be a list")
    out["window_refutations"] = c["window_refutations"]
    return out


def check_document(doc, expected_sha256: str | None = None, strict: bool = False) -> Verdict:
    """Check a parsed certificate document.

    ``expected_sha256``: the problem the user expects (binding);
    ``strict``: steps that need anything but the checker itself are inconclusive.
    """
    step_i, rule = None, None
    try:
        fields(doc, {"format", "version", "problem", "problem_sha256", "claims", "steps",
                     "trust"}, set(), "certificate")
        if doc["format"] != FORMAT:
            raise Reject(f"certificate: format must be {FORMAT!r}")
        if integer(doc["version"], "certificate: version") != VERSION:
            raise Reject(f"certificate: unsupported version {doc['version']} (this checker reads 1)")
        sha = hexdigest(doc["problem_sha256"], "certificate: problem_sha256")
        real = hashlib.sha256(canonical_text(doc["problem"]).encode("ascii")).hexdigest()
        if real != sha:
            raise Reject("certificate: problem_sha256 is not the SHA-256 of the embedded problem")
        if expected_sha256 is not None and expected_sha256 != sha:
            raise Reject("certificate: the embedded problem is not the given problem file")
        claims = _claims(doc)
        if doc["trust"] not in TRUST_ORDER:
            raise Reject(f"certificate: unknown trust level {doc['trust']!r}")
        pb = parse_problem(doc["problem"])
        st = State(pb)
        steps = doc["steps"]
        if not isinstance(steps, list):
            raise Reject("certificate: steps must be a list")
        phase = 0
        for step_i, step in enumerate(steps):
            rule = step.get("rule") if isinstance(step, dict) else None
            if not isinstance(rule, str) or rule not in RULES:
                raise Reject(f"unknown rule {rule!r}")
            fn, ph = RULES[rule]
            if ph < phase:
                raise Reject(f"rule {rule!r} is out of order")
            if ph > 1 and st.lower is None:
                raise Reject("the newton_blocks step must come before the upper bound")
            phase = ph
            fn(st, step, f"step {step_i} ({rule})")
        step_i, rule = None, None
        if st.lower is None or st.upper is None:
            raise Reject("certificate: needs a newton_blocks step and an upper-bound step")
        if st.lower > st.upper:
            raise Reject(f"certificate: derived lower bound {st.lower} exceeds the derived upper "
                         f"bound {st.upper}")
        minimum = st.lower if st.lower == st.upper else None
        for name, got in (("lower_bound", st.lower), ("upper_bound", st.upper),
                          ("minimum", minimum)):
            if claims[name] != got:
                raise Reject(f"claims: {name} is {claims[name]}, the steps prove {got}")
        if claims["window_refutations"] != st.windows:
            raise Reject("claims: window_refutations do not match the window_refutation steps")
        if doc["trust"] != st.trust:
            raise Reject(f"certificate: trust is {doc['trust']!r}, the steps need {st.trust!r}")
        v = Verdict("valid", 0, f"valid: lower bound {show_count(st.lower)}, upper bound "
                    f"{show_count(st.upper)}, trust {st.trust}", lower_bound=st.lower, upper_bound=st.upper,
                    minimum=minimum, trust=st.trust, window_refutations=st.windows,
                    problem_sha256=sha)
        if strict and st.trust != "exact":
            v.status, v.code = "inconclusive", 2
            v.message = f"inconclusive under --strict: the certificate needs trust {st.trust!r}"
        return v
    except Reject as e:
        where = "" if step_i is None or str(e).startswith("step ") else f"step {step_i} ({rule}): "
        return Verdict("invalid", 1, f"invalid: {where}{e}", step=step_i, rule=rule)
    except Unsupported as e:
        return Verdict("inconclusive", 2, f"inconclusive: {e}", step=step_i, rule=rule)
    except RecursionError:
        return Verdict("invalid", 1, "invalid: certificate nested too deeply", step=step_i, rule=rule)


def check_text(text: str, expected_sha256: str | None = None, strict: bool = False) -> Verdict:
    """Check certificate JSON text (see :func:`check_document`)."""
    try:
        doc = loads(text)
    except Reject as e:
        return Verdict("invalid", 1, f"invalid: {e}")
    return check_document(doc, expected_sha256, strict)
