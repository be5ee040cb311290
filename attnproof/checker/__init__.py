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

from .limits import MAX_CONTAINERS, MAX_COUNT_DIGITS, READ_BYTES_PER_UNIT, byte_limit, containers, work_limit
from .problem import canonical_problem, parse_problem
from .advice import advised, not_a_certificate  # the command lines' advice (__main__ and attnproof check), exported
from .rules import RULES, TRUST_ORDER, State, finish_factors
from .syntax import (Budget, NotJSON, Reject, Unsupported, canonical_text, count, decimal_text, fields,
                     hexdigest, integer, loads, no_gc)

FORMAT = "attnproof-certificate"
VERSION = 1

__all__ = ["Verdict", "check_text", "check_document", "too_large", "show_count", "FORMAT", "VERSION",
           "RULES", "TRUST_ORDER", "advised", "not_a_certificate", "canonical_problem"]

_MAX_COUNT = 10 ** MAX_COUNT_DIGITS


@dataclass(repr=False)
class Verdict:
    """The checker's answer: status, exit code, message and what was established.

    ``bounds_verified``: the lower and upper bounds (and the minimum) hold;
    ``window_steps``: indices of the ``window_refutation`` steps, whose claims the
    checker cannot re-prove (``windows_verified`` once a replay re-proved them all).
    A certificate with unverified window claims is *inconclusive*, never *valid*.
    """

    status: str                      # valid | invalid | inconclusive | error (not JSON: exit 3)
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
    bounds_verified: bool = False
    window_steps: list = field(default_factory=list)
    windows_verified: bool = False
    line_steps: list = field(default_factory=list)   # line_refutation steps (replay to confirm)
    exact_lower_bound: int | None = None             # the lower bound without line refutations
    strict: bool = False
    work: int = 0
    replay: list = field(default_factory=list)
    complete: bool | None = None     # geometric vertex count: complete (True) or partial (False)

    def __repr__(self) -> str:
        """Short (at most 300 characters): the status, the bounds and the start of the message.

        >>> Verdict("valid", 0, "valid: lower bound 4, upper bound 4", lower_bound=4, upper_bound=4)
        Verdict('valid', code=0, lower_bound=4, upper_bound=4, message='valid: lower bound 4, upper bound 4')
        """
        parts = [repr(self.status), f"code={self.code}"]
        for name in ("step", "rule", "lower_bound", "upper_bound", "minimum", "trust"):
            if (text := repr(getattr(self, name))) != "None":
                parts.append(f"{name}={text if len(text) <= 40 else '<%d digits>' % len(text)}")
        message = self.message if len(self.message) <= 120 else self.message[:117] + "..."
        return f"Verdict({', '.join(parts)}, message={message!r})"

    def to_dict(self) -> dict:
        """JSON-ready form (big counts as decimal strings); ``verdict`` and ``status`` agree
        with ``exit_code`` and with the first word of ``message``."""
        out = {k: getattr(self, k) for k in ("message", "step", "rule", "trust", "bounds_verified",
                                             "windows_verified", "problem_sha256", "complete", "work")}
        out.update({k: n if (n := getattr(self, k)) is None or n < (1 << 53) else decimal_text(n)
                    for k in ("lower_bound", "upper_bound", "minimum", "exact_lower_bound")})
        return dict(out, verdict=self.status, exit_code=self.code, line_steps=list(self.line_steps),
                    replay=list(self.replay), window_refutations=[
                        dict(w, step=s, verified=self.windows_verified)
                        for w, s in zip(self.window_refutations, self.window_steps)])

    def _refutations(self) -> str:
        return " and ".join(f"{n} {what} refutation{'' if n == 1 else 's'}" for n, what in (
            (len(self.window_steps), "window"), (len(self.line_steps), "line")) if n)

    def _exact_text(self) -> str:
        return (f"the exact steps prove lower bound {show_count(self.exact_lower_bound)} and upper bound "
                f"{show_count(self.upper_bound)}; the lower bound {show_count(self.lower_bound)} (trust {self.trust}) "
                "rests on line refutations" if self.line_steps else f"the bounds hold ({self._bounds_text()})")

    def _bounds_text(self) -> str:
        return (f"lower bound {show_count(self.lower_bound)}, upper bound {show_count(self.upper_bound)}, "
                f"trust {self.trust}")


def show_count(n: int | None) -> str:
    """Short text for a count: ``2^k`` for large powers of two, digits count for other huge ones.

    >>> show_count(2 ** 1000), show_count(38), show_count(3 ** 9000)
    ('2^1000', '38', '123393555118...(4295 digits)')
    """
    if n is None:
        return "none"
    if n >= (1 << 53) and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    s = decimal_text(n)
    return s if len(s) <= 30 else f"{s[:12]}...({len(s)} digits)"


def _claims(doc: dict) -> dict:
    c = fields(doc["claims"], {"lower_bound", "upper_bound", "minimum", "window_refutations"}, set(), "claims")
    out = {k: None if k == "minimum" and c[k] is None else count(c[k], f"claims: {k}")
           for k in ("lower_bound", "upper_bound", "minimum")}
    if not isinstance(c["window_refutations"], list):
        raise Reject("claims: window_refutations must be a list")
    return dict(out, window_refutations=c["window_refutations"])


def check_document(doc, expected_sha256: str | None = None, strict: bool = False,
                   work: int | None = None, reference: bool = False, read: int = 0) -> Verdict:
    """Check a parsed certificate document.

    ``expected_sha256``: the problem the user expects (binding);
    ``strict``: steps that need anything but the checker itself are inconclusive;
    ``work``: the work budget in elementary operations (default: from the size of
    the canonical text, :func:`attnproof.checker.limits.work_limit`);
    ``reference``: ignored, kept for old callers (the checker has one path, docs/certificates.md §8c);
    ``read``: the bytes of the text ``doc`` was read from, charged as :func:`check_text` does.
    """
    with no_gc():
        return _check_document(doc, expected_sha256, strict, work, False, read)


def _check_document(doc, expected_sha256: str | None, strict: bool, work: int | None,
                    consume: bool, read: int) -> Verdict:
    # consume: the document is ours (read by check_text): the problem's heads and each
    # step are dropped once used, which halves the peak memory of a large check;
    # read: the bytes of text parsed into doc, charged first (READ_BYTES_PER_UNIT)
    step_i, rule = None, None
    budget = Budget(work)
    try:
        budget.charge(read // READ_BYTES_PER_UNIT, "reading the certificate")
        sha = _bind(doc, expected_sha256, budget)
        if work is None:            # the default budget, and the size it reads (check_text's)
            budget.limit = work_limit(size := len(canonical_text(doc)))
            if big := too_large(size, None):
                return big
            budget.charge(size // READ_BYTES_PER_UNIT, "reading the certificate")
        claims = _claims(doc)
        if doc["trust"] not in TRUST_ORDER:
            raise Reject(f"certificate: unknown trust level {doc['trust']!r}")
        st = State(parse_problem(doc["problem"], consume, budget), budget, problem_sha256=sha)
        steps = doc["steps"]
        if not isinstance(steps, list):
            raise Reject("certificate: steps must be a list")
        phase = 0
        for step_i, step in enumerate(steps):
            rule = step.get("rule") if isinstance(step, dict) else None
            if not isinstance(rule, str) or rule not in RULES:
                raise Reject(f"unknown rule {rule!r}"[:80])
            fn, ph = RULES[rule]
            if ph < phase:
                raise Reject(f"rule {rule!r} is out of order")
            if ph > 1 and st.lower is None:
                raise Reject("the newton_blocks step must come before the upper bound")
            if ph > phase == 0:
                finish_factors(st)      # §6.1: no factor divides a head its hint leaves out
            phase = ph
            budget.charge(16, "a step")     # its dispatch: its fields, its rule, its message prefix
            st.step_index = step_i
            fn(st, step, f"step {step_i} ({rule})")
            if consume:
                steps[step_i] = step = None
        step_i, rule = None, None
        return _verdict(st, claims, doc["trust"], sha, strict)
    except Exception as e:      # a checker bug must never read as acceptance, nor crash
        status, code = ("invalid", 1) if isinstance(e, (Reject, RecursionError)) else ("inconclusive", 2)
        if isinstance(e, (Reject, Unsupported)):
            why = f"{e}" if step_i is None or str(e).startswith("step ") else f"step {step_i} ({rule}): {e}"
        else:
            why = ("certificate nested too deeply" if isinstance(e, RecursionError) else "out of memory while checking"
                   if isinstance(e, MemoryError) else f"internal checker error ({type(e).__name__}) at step {step_i}")
        return Verdict(status, code, f"{status}: {why}", step=step_i, rule=rule, work=budget.used)


def _bind(doc, expected_sha256: str | None, budget: Budget) -> str:
    """The certificate's header checked and its problem bound: the SHA-256 of the embedded
    problem's canonical text, which must be ``problem_sha256`` (and ``expected_sha256``)."""
    fields(doc, {"format", "version", "problem", "problem_sha256", "claims", "steps", "trust"}, set(), "certificate")
    if doc["format"] != FORMAT:
        raise Reject(f"certificate: format must be {FORMAT!r}")
    if integer(doc["version"], "certificate: version") != VERSION:
        raise Reject("certificate: unsupported version (this checker reads 1)")
    sha = hexdigest(doc["problem_sha256"], "certificate: problem_sha256")
    try:
        ptext = canonical_text(doc["problem"])
        budget.charge(len(ptext) // READ_BYTES_PER_UNIT, "hashing the problem")
        real = hashlib.sha256(ptext.encode("ascii")).hexdigest()
    except ValueError:          # a document built in Python, not read from JSON text
        raise Reject("certificate: the problem holds a number that is not exact JSON or has too many digits") from None
    if real != sha:
        raise Reject("certificate: problem_sha256 is not the SHA-256 of the embedded problem")
    if expected_sha256 is not None and expected_sha256 != sha:
        raise Reject("certificate: the embedded problem is not the given problem file")
    return sha


def _verdict(st: State, claims: dict, trust: str, sha: str, strict: bool) -> Verdict:
    """The verdict once every step ran: the derived bounds against the claims, then the
    message (valid, or inconclusive while refutations wait for a replay or under ``strict``)."""
    if st.lower is None or st.upper is None:
        raise Reject("certificate: needs a newton_blocks step and an upper-bound step")
    for name, got in (("lower bound", st.lower), ("upper bound", st.upper)):
        if got >= _MAX_COUNT:
            raise Unsupported(f"the proven {name} has more than {MAX_COUNT_DIGITS} digits (beyond the format's counts)")
    exact_lower = st.lower
    st.lower = max(st.lower, st.line_lower)     # line refutations (THEORY Cor 12.2)
    if st.lower > st.upper:
        raise Reject(f"certificate: derived lower bound {show_count(st.lower)} exceeds the derived upper bound "
                     f"{show_count(st.upper)}")
    minimum = st.lower if st.lower == st.upper else None
    for name, proved in (("lower_bound", st.lower), ("upper_bound", st.upper), ("minimum", minimum)):
        if claims[name] != proved:
            raise Reject(f"claims: {name} is {show_count(claims[name])}, the steps prove {show_count(proved)}")
    if claims["window_refutations"] != st.windows:
        raise Reject("claims: window_refutations do not match the window_refutation steps")
    if trust != st.trust:
        raise Reject(f"certificate: trust is {trust!r}, the steps need {st.trust!r}")
    sub, waiting = st.sub_sum, len(st.windows) + len(st.line_steps)
    v = Verdict("inconclusive", 2, "", lower_bound=st.lower, upper_bound=st.upper, minimum=minimum, trust=st.trust,
                window_refutations=st.windows, problem_sha256=sha, bounds_verified=True, window_steps=st.window_steps,
                strict=strict, work=st.budget.used, exact_lower_bound=exact_lower, line_steps=list(st.line_steps),
                complete=False if sub is not None else st.complete)
    if strict and st.trust != "exact":
        v.message = (f"inconclusive under --strict: the certificate needs trust {st.trust!r} (the bounds hold: "
                     f"{v._bounds_text()})")
    elif waiting:
        v.message = (f"inconclusive: {v._exact_text()}, but {v._refutations()} {'is' if waiting == 1 else 'are'} "
                     "not re-proven")
    else:
        v.status, v.code, v.message = "valid", 0, f"valid: {v._bounds_text()}" + (
            f" (the lower bound counts the vertices of a sub-sum: {sub[0]} of {sub[1]} factors)" if sub is not None
            else " (the vertex count is partial: the lower bound counts verified vertices only)"
            if st.complete is False else "")
    return v


def too_large(nbytes: int, work: int | None) -> Verdict | None:
    """*Inconclusive* (unread) for a certificate of ``nbytes`` bytes past what the checker
    reads with the work budget ``work`` (:func:`~attnproof.checker.limits.byte_limit`); the
    command lines say which ``--max-work`` reads it (:func:`attnproof.checker.advice.advised`)."""
    if nbytes <= byte_limit(work):
        return None
    return Verdict("inconclusive", 2, f"inconclusive: the certificate has {nbytes:,} bytes, more "
                   f"than the {byte_limit(work):,} the checker reads with "
                   f"{'its default work budget' if work is None else f'the work budget {work}'}")


def check_text(text: str, expected_sha256: str | None = None, strict: bool = False,
               work: int | None = None, reference: bool = False) -> Verdict:
    """Check certificate JSON text (see :func:`check_document`); the default work
    budget grows linearly with ``len(text)``, and a text beyond :func:`too_large` is not read.

    A text that is not JSON at all (empty, truncated) is no forgery: status ``error``, code 3.

    >>> v = check_text('{"format": "attnproof-certif')
    >>> v.status, v.code, v.message
    ('error', 3, 'not a certificate: not valid JSON: Unterminated string starting at line 1 column 12')
    """
    if big := too_large(len(text), work):
        return big
    if containers(text) > MAX_CONTAINERS:
        return Verdict("inconclusive", 2, f"inconclusive: more than {MAX_CONTAINERS} JSON objects "
                       f"and arrays (a limit of the checker)")
    with no_gc():
        try:
            doc = loads(text)
        except NotJSON as e:        # empty, truncated, another format: status "error", exit 3
            return Verdict("error", 3, f"not a certificate: {e}")
        except Reject as e:
            return Verdict("invalid", 1, f"invalid: {e}")
        except MemoryError:
            return Verdict("inconclusive", 2, "inconclusive: out of memory while reading")
        return _check_document(doc, expected_sha256, strict, work_limit(len(text)) if work is None else work, True,
                               len(text))
