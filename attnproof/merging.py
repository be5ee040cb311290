"""The merge pipeline: prove which heads of a captured layer are worth merging, by how much,
and the best merge plan, one checked certificate per question.

Each question is the multi-head of the chosen heads (THEORY §10), proved by the
steps of ``attnproof prove`` (:func:`attnproof.certificate.build_certificate`, the
ball check of an explicit fusion, the line refutations of THEORY §12, the independent
checker), one task per question through :func:`attnproof.parallel.executor.map_tasks`.
Heads whose query subspaces are in general position give the product ``n_h · n_g``
exactly (THEORY Lemma 9.5): merging them into one exact head needs as many atoms as
the product fusion.

The capture and its structures come from :mod:`attnproof.transformer`; the answers
are a :class:`attnproof.transformer.report.MergeReport`, which renders them
(Markdown, JSON, the heat map).  ``attnproof merge-report`` calls :func:`merge_report`
and prints.

>>> from attnproof.heads import Atom, Head
>>> e = ExactHead.of(Head((Atom((1,), (2,)), Atom((0,), (0,)))), 1)
>>> (e.key_den, e.keys, e.values)
(1, (((0, 1),), ()), ((2,), (0,)))
"""

from __future__ import annotations

import hashlib
import itertools
import os
import signal
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from .certificate import build_certificate, check_own, waits_for_replay
from .checker import check_text
from .errors import AttnproofError, InputError
from .fusion import DEFAULT_MAX_ATOMS
from .heads import Atom, Head, MultiHead
from .io import atomic_write_text, canonical_json
from .parallel import Progress, map_tasks
from .proving import ball_check
from .smt import add_line_refutations, line_obstacle
from .transformer.capture import Capture
from .transformer.plan import merge_plan
from .transformer.problem import domain_dim, head_from_capture
from .transformer.report import MergeReport, comparison, pair_name
from .transformer.structure import group_structures, head_structures, weights_same_pattern

__all__ = ["merge_report", "prove_question", "prove_heads", "ExactHead", "time_budget",
           "plan_groups", "DEFAULT_EXPLICIT_LIMIT", "DEFAULT_QUESTION_TIMEOUT",
           "DEFAULT_LINES_TIMEOUT", "DEFAULT_PLAN_HEADS", "MAX_PLAN_HEADS", "MAX_PLAN_GROUPS"]

DEFAULT_EXPLICIT_LIMIT = 65536    # as attnproof prove (certificate.EXPLICIT_FUSION_LIMIT)


def _count(v: Any) -> Optional[int]:
    return None if v is None else int(v)


DEFAULT_QUESTION_TIMEOUT = 120.0
DEFAULT_LINES_TIMEOUT = 30.0


class _OutOfTime(BaseException):
    """The question's time budget ran out (a BaseException: no ``except Exception`` swallows it)."""


@contextmanager
def time_budget(seconds: Optional[float]) -> Iterator[bool]:
    """Raise :class:`_OutOfTime` in the block after ``seconds`` (SIGALRM, main thread only,
    and only when no other real-time timer is running; elsewhere, as on a Dask worker, the
    executor's own per-task timeout bounds the work).

    Yields whether the budget is enforced here.

    >>> with time_budget(None) as on:
    ...     on
    False
    """
    if (seconds is None or seconds <= 0 or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()
            or signal.getitimer(signal.ITIMER_REAL)[0] > 0):    # someone else's timer: left alone
        yield False
        return

    def expire(signum, frame):
        raise _OutOfTime()

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _failed(e: BaseException, t0: float) -> dict:
    return {"error": f"{type(e).__name__}: {e}", "elapsed_s": round(time.monotonic() - t0, 3),
            "lower_bound": None, "upper_bound": None, "minimum": None, "trust": "unknown",
            "complete": False, "steps": ["bounds"],
            "open_reason": f"the bounds failed ({type(e).__name__}: {e})"}


def prove_question(M: MultiHead, cert_path: str, max_atoms: Optional[int],
                   explicit_fusion_limit: int, timeout: Optional[float] = None,
                   lines_timeout: float = DEFAULT_LINES_TIMEOUT, bounds_only: bool = False) -> dict:
    """Prove one question as ``attnproof prove`` does and check its certificate; a dict of
    the claims, the steps that ran, why the question stays open (when it does) and the
    certificate text.

    The steps: the bounds (lower bound and the counted product fusion); when they
    differ, the explicit fusion (built within ``max_atoms`` and embedded up to
    ``explicit_fusion_limit`` atoms); when a gap remains and the line query of THEORY
    §12 applies, the line refutations (within ``lines_timeout`` seconds).  All of them
    run within ``timeout`` seconds for this question: past it, the question is open
    with what was proven so far (nothing, when the bounds themselves ran out).
    ``bounds_only``: the bounds alone (a merge plan refines the groups it needs).

    A module-level task for :func:`attnproof.parallel.executor.map_tasks`.  An error the
    toolkit raises on purpose is recorded in the result (``"error"``), never raised,
    so one hard question does not sink the report.
    """
    t0 = time.monotonic()
    steps = ["bounds"]

    def left() -> Optional[float]:
        return None if timeout is None else max(timeout - (time.monotonic() - t0), 0.001)

    try:
        with time_budget(timeout):
            cert = build_certificate(M, max_atoms=max_atoms, explicit_fusion_limit=0)
            text = cert.text
            verdict, _ = check_own(text)    # a large certificate: with a budget that fits
        if verdict.code != 0:
            raise AttnproofError(f"the checker does not accept the certificate: {verdict.message}")
    except (AttnproofError, MemoryError, RecursionError) as e:
        return _failed(e, t0)
    except _OutOfTime:
        out = _failed(AttnproofError("out of time"), t0)
        del out["error"]
        out["open_reason"] = (f"the bounds and their check ran past the question's time budget "
                              f"of {timeout:g} s")
        out["closes_with"] = f"--question-timeout {4 * (timeout or 0):g} (or more)"
        return out
    why = closes = None
    if cert.lower.value < cert.upper and not bounds_only:
        lower = cert.lower.value
        if explicit_fusion_limit <= 0:
            why = "no explicit fusion was built (--explicit-fusion-limit 0)"
            closes = f"--explicit-fusion-limit {max(lower, 1)} or more"
        elif lower > explicit_fusion_limit:
            why = (f"every fusion has at least {lower} atoms, over the {explicit_fusion_limit} "
                   f"a certificate embeds")
            closes = f"--explicit-fusion-limit {lower} or more"
        else:
            steps.append("explicit fusion")
            try:
                with time_budget(left()):
                    c2 = build_certificate(M, max_atoms=max_atoms,
                                           explicit_fusion_limit=explicit_fusion_limit)
                    if c2.upper < cert.upper:
                        if c2.fusion is not None:        # as prove: balls, before the checker
                            ball_check(M, c2.fusion.to_head())
                        t2 = c2.text
                        v2, _ = check_own(t2)
                        if v2.code != 0:
                            raise AttnproofError(f"the checker does not accept the certificate "
                                                 f"with the explicit fusion: {v2.message}")
                        cert, text, verdict = c2, t2, v2
                    elif c2.upper_note:
                        why = c2.upper_note
                        closes = ("--max-atoms" if "--max-atoms" in why else
                                  "--explicit-fusion-limit")
            except _OutOfTime:
                why = (f"building and checking the explicit fusion ran past the question's time "
                       f"budget of {timeout or 0:g} s")
                closes = f"--question-timeout {4 * (timeout or 0):g} (or more)"
            except (AttnproofError, MemoryError, RecursionError) as e:
                why = f"the explicit fusion failed ({type(e).__name__}: {e})"
    if cert.lower.value < cert.upper and not bounds_only and closes is None:
        obstacle = line_obstacle(M, cert, forced=False)
        rest = left()
        if obstacle is None and (rest is None or rest > 1):
            steps.append("line refutations")
            try:
                with time_budget(None if rest is None else rest + 5):
                    doc, _ = add_line_refutations(M, cert, min(lines_timeout, rest or lines_timeout),
                                                  max_atoms)
                    if doc is not None:
                        t3 = canonical_json(doc)
                        v3 = check_text(t3)
                        if v3.code == 0 or waits_for_replay(v3):
                            text, verdict = t3, v3
            except _OutOfTime:
                obstacle = "the line queries ran past the question's time budget"
            except (AttnproofError, MemoryError, RecursionError) as e:
                obstacle = f"the line queries failed ({type(e).__name__}: {e})"
            if verdict.minimum is None and why is None:
                why = (obstacle or f"the line queries did not close the gap within "
                       f"{lines_timeout:g} s")
                closes = ("'attnproof prove PROBLEM --lines-timeout 600' on the problem of these "
                          "heads ('attnproof import CAPTURE --heads ...')")
        elif why is None:
            why = f"a gap the exact steps do not close; the line query does not apply: {obstacle}"
    if verdict.minimum is not None:
        why = closes = None
    elif why is None and not bounds_only:
        why = "a gap the exact steps do not close"
    if why is not None and closes is None and verdict.minimum is None and not bounds_only:
        closes = ("no step of attnproof closes it today (with logit biases the SMT search does "
                  "not apply)" if M.has_bias else
                  "possibly a window search: 'attnproof search P --minimize' on the problem of "
                  "these heads ('attnproof import CAPTURE --heads ... -o P')")
    lb_complete = bool(cert.lower.tight)
    out = {"lower_bound": _count(verdict.lower_bound), "upper_bound": _count(verdict.upper_bound),
           "minimum": _count(verdict.minimum), "trust": verdict.trust or cert.trust,
           "complete": verdict.minimum is not None, "lower_bound_complete": lb_complete,
           "steps": steps, "certificate": cert_path, "certificate_bytes": len(text),
           "certificate_sha256": hashlib.sha256(text.encode("ascii")).hexdigest(),
           "elapsed_s": round(time.monotonic() - t0, 3)}
    if verdict.line_steps:
        out["replay"] = "the lower bound rests on line refutations: 'attnproof check CERT --replay'"
    if why is not None:
        out["open_reason"] = why
    if closes is not None:
        out["closes_with"] = closes
    out["_certificate_text"] = text   # written by the caller: a worker may be another machine
    return out


def _common_den(xs) -> int:
    L = 1
    for x in xs:
        q = x.denominator
        if L % q:
            L = lcm(L, q)
    return L


def _digest(body) -> str:
    """SHA-256 of an :class:`ExactHead`'s fields (integers in hexadecimal: no limit on
    their length, linear time).

    >>> _digest((None, 1, ((), ((0, 255),)))) == _digest((None, 1, ((), ((0, 255),))))
    True
    """
    h = hashlib.sha256()
    stack = [body]
    while stack:
        x = stack.pop()
        if type(x) is int:
            h.update(b"%x," % x if x >= 0 else b"-%x," % -x)
        elif isinstance(x, str):
            h.update(b"s%d:" % len(x) + x.encode("utf-8"))
        elif x is None:
            h.update(b"n")
        else:
            h.update(b"(%d" % len(x))
            stack.extend(reversed(x))
    return h.hexdigest()


@dataclass(frozen=True)
class ExactHead:
    """A head's exact data in a compact form: integer numerators over one denominator
    per kind of number (``keys``: sparse rows ``((j, numerator), ...)``).

    What a question task carries instead of the head's thousands of :class:`Fraction`
    objects (pickled in milliseconds, not a second); ``digest`` (SHA-256 of the exact
    data) keys the per-process cache of rebuilt heads, so a worker that answers several
    questions about one head converts it once.

    >>> from attnproof.heads import Atom, Head
    >>> h = Head((Atom((Fraction(1, 2), 0), (3,)), Atom((0, Fraction(-1, 4)), (Fraction(1, 3),))))
    >>> e = ExactHead.of(h, 2)
    >>> e.key_den, e.value_den, e.to_head() == h
    (4, 3, True)
    """

    name: Optional[str]
    dim: int
    keys: tuple
    key_den: int
    biases: tuple
    bias_den: int
    values: tuple
    value_den: int
    weights: tuple
    weight_den: int
    digest: str

    @classmethod
    def of(cls, head, dim: int) -> "ExactHead":
        """The compact exact form of a :class:`~attnproof.heads.Head`."""
        atoms = head.atoms
        dim = int(dim)
        kd = _common_den(c for a in atoms for _, c in a.sparse_key)
        bd = _common_den(a.bias for a in atoms)
        vd = _common_den(v for a in atoms for v in a.value)
        wd = _common_den(a.weight for a in atoms)
        keys = tuple(tuple((j, c.numerator * (kd // c.denominator)) for j, c in a.sparse_key)
                     for a in atoms)
        biases = tuple(a.bias.numerator * (bd // a.bias.denominator) for a in atoms)
        values = tuple(tuple(v.numerator * (vd // v.denominator) for v in a.value) for a in atoms)
        weights = tuple(a.weight.numerator * (wd // a.weight.denominator) for a in atoms)
        body = (head.name, dim, keys, kd, biases, bd, values, vd, weights, wd)
        return cls(*body, _digest(body))

    def to_head(self):
        """The :class:`~attnproof.heads.Head` again (exactly the same numbers)."""
        kd, bd, vd, wd = self.key_den, self.bias_den, self.value_den, self.weight_den
        atoms = tuple(Atom._trusted(self.dim, tuple((j, Fraction(c, kd)) for j, c in k),
                                    tuple(Fraction(v, vd) for v in vals), Fraction(b, bd),
                                    Fraction(w, wd))
                      for k, b, vals, w in zip(self.keys, self.biases, self.values, self.weights))
        return Head(atoms, name=self.name)


_HEAD_CACHE: "OrderedDict[str, Any]" = OrderedDict()
HEAD_CACHE_SIZE = 32


def _cached_head(e: ExactHead):
    """The head of ``e``, rebuilt once per process (keyed by its digest, least recently used out)."""
    h = _HEAD_CACHE.get(e.digest)
    if h is None:
        h = e.to_head()
        _HEAD_CACHE[e.digest] = h
        while len(_HEAD_CACHE) > HEAD_CACHE_SIZE:
            _HEAD_CACHE.popitem(last=False)
    else:
        _HEAD_CACHE.move_to_end(e.digest)
    return h


def prove_heads(heads: Sequence[ExactHead], dim: int, cert_path: str, max_atoms: Optional[int],
                explicit_fusion_limit: int, timeout: Optional[float] = None,
                lines_timeout: float = DEFAULT_LINES_TIMEOUT, bounds_only: bool = False) -> dict:
    """:func:`prove_question` on the multi-head of ``heads`` (compact exact forms; a task
    for :func:`attnproof.parallel.executor.map_tasks`), with the structures of the group
    (:func:`attnproof.transformer.structure.group_structures`).  Every certificate is still
    complete: only the conversion of each head to exact objects is shared between questions."""
    hs = tuple(_cached_head(e) for e in heads)
    M = MultiHead(hs, dim=dim)
    out = prove_question(M, cert_path, max_atoms, explicit_fusion_limit, timeout=timeout,
                         lines_timeout=lines_timeout, bounds_only=bounds_only)
    names = [h.name.rsplit("H", 1)[-1] if h.name and "H" in h.name else str(i)
             for i, h in enumerate(hs)]
    out["structures"] = group_structures(hs, names)
    return out


MAX_PLAN_GROUPS = 64
DEFAULT_PLAN_HEADS = 6
MAX_PLAN_HEADS = 12


def plan_groups(heads: Sequence[int], could_save, all_subsets: bool,
                limit: int = MAX_PLAN_GROUPS) -> tuple[list, bool]:
    """The groups of three or more heads a merge plan asks: every one when
    ``all_subsets``, else those whose pairs could all save atoms (``could_save(h, g)``),
    at most ``limit`` of them; and whether none was left out.

    >>> plan_groups([0, 1, 2, 3], lambda h, g: {h, g} <= {0, 1, 2}, False)
    ([(0, 1, 2)], True)
    >>> len(plan_groups(range(5), None, True)[0])        # 10 triples, 5 quadruples, all five
    16
    """
    hs = list(heads)
    out: list[tuple] = []
    for k in range(3, len(hs) + 1):
        for g in itertools.combinations(hs, k):
            if all_subsets:
                out.append(g)
            elif all(could_save(a, b) for a, b in itertools.combinations(g, 2)):
                if len(out) == limit:
                    return out, False
                out.append(g)
    return out, True


def merge_report(cap: Capture, out_dir: str | os.PathLike, heads: Optional[Sequence[int]] = None,
                 domain: Optional[str] = None, arithmetic: str = "float64", layer: bool = True,
                 max_atoms: Optional[int] = None,
                 explicit_fusion_limit: int = DEFAULT_EXPLICIT_LIMIT, spec: Any = None,
                 progress: Progress = None, timeout: Optional[float] = DEFAULT_QUESTION_TIMEOUT,
                 lines_timeout: float = DEFAULT_LINES_TIMEOUT, plan: bool = True,
                 plan_heads: int = DEFAULT_PLAN_HEADS) -> MergeReport:
    """Prove every pair of ``heads`` (all stored heads by default) and, with ``layer``,
    all of them together, as ``attnproof prove`` would (bounds, explicit fusion, line
    refutations; every step within ``timeout`` seconds per question);
    with ``plan``, the best merge plan (:mod:`attnproof.transformer.plan`): every group
    of three or more heads when there are at most ``plan_heads`` heads, else the groups
    whose pairs could all save atoms.  One certificate per question under ``out_dir``.

    ``progress(done, total)`` counts questions.  Results come in the order
    (pairs lexicographically, then the layer, then the plan's groups) whatever
    executor ``spec`` runs them.
    """
    t0 = time.monotonic()
    hs = list(cap.heads) if heads is None else [int(h) for h in heads]
    if len(hs) < 2:
        raise InputError("a merge report needs at least two heads")
    if len(set(hs)) != len(hs):
        raise InputError("heads must be distinct")
    if not 1 <= plan_heads <= MAX_PLAN_HEADS:
        raise InputError(f"--plan-heads {plan_heads!r}: give a number from 1 to {MAX_PLAN_HEADS} "
                         f"(every group of {MAX_PLAN_HEADS} heads is already "
                         f"{2 ** MAX_PLAN_HEADS - MAX_PLAN_HEADS - 1} questions)")
    if timeout is not None and not (0 < timeout <= 86400):
        raise InputError(f"question timeout {timeout!r}: give seconds between 0 and 86400")
    if domain is None:
        domain = "layernorm" if cap.has_layernorm else "raw"
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "certificates").mkdir(exist_ok=True)
    except OSError as e:
        raise InputError(f"{e.filename or out}: cannot create the report's folder "
                         f"({e.strerror or e})") from None
    H = {h: head_from_capture(cap, h, domain, arithmetic) for h in hs}
    atoms = {h: H[h].distinct_keys for h in hs}
    mx = DEFAULT_MAX_ATOMS if max_atoms is None else max_atoms
    dim = domain_dim(cap, domain)
    E = {h: ExactHead.of(H[h], dim) for h in hs}
    for h in hs:                     # this process answers some questions too (warm-up)
        _HEAD_CACHE[E[h].digest] = H[h]

    def task(q, bounds_only=False):
        return (tuple(E[h] for h in q), dim, str(out / "certificates" / f"{pair_name(q)}.cert.json"),
                mx, explicit_fusion_limit, timeout, lines_timeout, bounds_only)

    def entry(q, t, r) -> dict:
        if not isinstance(r, dict):             # executor.TaskFailed
            r = {"error": f"task failed: {getattr(r, 'reason', r)}", "lower_bound": None,
                 "upper_bound": None, "minimum": None, "trust": "unknown", "complete": False,
                 "open_reason": f"the task failed ({getattr(r, 'reason', r)}): a larger "
                                f"--timeout of the executor, or in process"}
        text = r.pop("_certificate_text", None)
        if text is not None:                    # written here, wherever the task ran
            atomic_write_text(t[2], text)
        prod = 1
        for h in q:
            prod *= atoms[h]
        sep = sum(atoms[h] for h in q)
        d = {"heads": list(q), "product": prod, "separate": sep, **r}
        verdict, phrase = comparison(sep, r.get("lower_bound"), r.get("upper_bound"),
                                     r.get("minimum"))
        d["merge"], d["merge_text"] = verdict, phrase
        d["saves_atoms"] = None if r.get("minimum") is None else sep - int(r["minimum"])
        return d

    questions = [tuple(p) for p in itertools.combinations(hs, 2)]
    if layer and len(hs) > 2:
        questions.append(tuple(hs))
    tasks = [task(q) for q in questions]
    results = map_tasks(prove_heads, tasks, spec=spec, progress=progress)
    rep = MergeReport(meta=dict(cap.meta), heads=hs, atoms=atoms, domain=domain,
                      arithmetic=arithmetic)
    rep.head_notes = {h: head_structures(H[h]) for h in hs}
    for q, t, r in zip(questions, tasks, results):
        d = entry(q, t, r)
        if len(q) == 2:
            _weights_note(cap, d, arithmetic)
            rep.pairs.append(d)
        else:
            rep.layer = d
    if plan:
        rep.plan = _plan(rep, hs, atoms, plan_heads, task, entry, spec)
    rep.elapsed_s = time.monotonic() - t0
    return rep


def _weights_note(cap: Capture, d: dict, arithmetic: str) -> None:
    """A pair whose weights give one attention pattern that the exact problem does not
    have (float64 rounding of each head's keys): say so, and how to keep it."""
    h, g = d["heads"]
    if any("same attention pattern" in s for s in d.get("structures") or []):
        return
    if weights_same_pattern(cap, h, g):
        d.setdefault("structures", []).append(
            f"heads {h} and {g}: one attention pattern in the weights, not in the exact keys")
        d["hint"] = ("the weights give heads {} and {} one attention pattern, but ".format(h, g)
                     + ("float64 rounding of each head's keys breaks it: '--arithmetic exact' "
                        "keeps the shift exact" if arithmetic == "float64" else
                        "the exact keys differ (a pattern equal only to float rounding)"))


def _bounds_of(d: dict) -> Optional[tuple[int, int]]:
    if d.get("lower_bound") is None or d.get("upper_bound") is None:
        return None
    return int(d["lower_bound"]), int(d["upper_bound"])


def _plan(rep: MergeReport, hs: list, atoms: dict, plan_heads: int, task, entry, spec) -> dict:
    """The best merge plan of the report's heads (see :func:`merge_report`)."""
    asked = {frozenset(q["heads"]): q for q in rep._asked()}
    full = set(asked)                  # the pairs and the layer ran every step already
    pair = {frozenset(q["heads"]): q for q in rep.pairs}

    def could_save(a, b) -> bool:
        bd = _bounds_of(pair[frozenset((a, b))])
        return bd is None or bd[0] < atoms[a] + atoms[b]

    exhaustive_heads = len(hs) <= plan_heads
    groups, all_listed = plan_groups(hs, could_save, exhaustive_heads)
    groups = [g for g in groups if frozenset(g) not in asked]
    if groups:
        tasks = [task(g, bounds_only=True) for g in groups]
        for g, t, r in zip(groups, tasks, map_tasks(prove_heads, tasks, spec=spec)):
            d = entry(g, t, r)
            rep.groups.append(d)
            asked[frozenset(g)] = d
    bounds = {frozenset({h}): (atoms[h], atoms[h]) for h in hs}
    failed = 0
    for g, d in asked.items():
        bd = _bounds_of(d)
        if bd is None:
            failed += 1
        else:
            bounds[g] = bd

    def refine(g) -> tuple[int, int]:
        d = asked[g]
        if g in full:
            return _bounds_of(d) or bounds[g]
        t = task(tuple(d["heads"]))
        (r,) = map_tasks(prove_heads, [t], spec=spec)
        new = entry(tuple(d["heads"]), t, r)
        d.clear()
        d.update(new)
        return _bounds_of(d) or bounds[g]

    p = merge_plan(hs, bounds, refine=refine)
    exhaustive = exhaustive_heads and all_listed and not failed
    if p.optimal:
        note = ("Optimal over all partitions of the heads: every group of two or more heads "
                "was asked, and no partition's proven lower bound is below this total."
                if exhaustive else
                "Optimal over the partitions into the groups asked (pairs, the layer and "
                + ("the groups whose pairs could all save atoms" if not exhaustive_heads else
                   "the groups listed") + "); "
                + (f"{failed} question(s) failed; " if failed else "")
                + (f"with more than {plan_heads} heads not every group is asked "
                   f"(--plan-heads {len(hs)} asks all {2 ** len(hs) - len(hs) - 1})."
                   if not exhaustive_heads else "not every group could be asked."))
    else:
        note = (f"A bound: the plan's {p.total} atoms are achieved (every merged group has a "
                f"checked certificate); no partition into the groups asked has fewer than "
                f"{p.lower}; the groups that keep the two apart stay open (see the questions).")
    by = {frozenset(d["heads"]): d for d in rep._asked() + rep.groups}
    groups_out = []
    for g in p.groups:
        if len(g) == 1:
            groups_out.append({"heads": list(g), "separate": atoms[g[0]], "lower_bound": atoms[g[0]],
                               "upper_bound": atoms[g[0]], "minimum": atoms[g[0]],
                               "certificate": None})
        else:
            d = by[frozenset(g)]
            groups_out.append({"heads": list(g), "separate": d["separate"],
                               "lower_bound": d.get("lower_bound"),
                               "upper_bound": d.get("upper_bound"), "minimum": d.get("minimum"),
                               "certificate": d.get("certificate")})
    return {"groups": groups_out, "total": p.total, "lower": p.lower, "separate": p.separate,
            "saves_atoms": p.separate - p.total, "optimal": p.optimal, "exhaustive": exhaustive,
            "refined": [list(g) for g in p.refined], "note": note}
