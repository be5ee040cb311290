"""``prove``, the whole pipeline: the one home of ``attnproof prove`` and :func:`attnproof.prove`.

Build the certificate (lower bound, upper-bound fusion), compare the embedded
fusion with balls, add line refutations when a gap remains (THEORY §12),
check the certificate with the trusted checker (with a larger work budget
when only the default one is short), fall back to the counted product fusion
when the embedded one is more than the checker's budget takes, and write it.
Identical inputs give byte-identical certificates, whoever calls.

>>> from attnproof.families import sigmoid_sum
>>> p = prove_problem(sigmoid_sum(3))
>>> p.verdict.status, p.certificate.minimum, p.summary()["trust"]
('valid', 8, 'exact')
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from .certificate import (EXPLICIT_FUSION_LIMIT, Certificate, build_certificate, check_own,
                          gap_note, waits_for_replay)
from .checker import Verdict, check_text, too_large
from .errors import AlgebraError, CertificateError, InputError, LimitError, SolverError
from .fusion import DEFAULT_MAX_ATOMS
from .heads import MultiHead
from .io import atomic_write_text, paused_gc
from .parallel import MapTasks, Progress, Stages, query_stage, quiet_stages
from .smt import DEFAULT_LINES_TIMEOUT, MAX_AUTO_LINE_POINTS, add_line_refutations, line_obstacle

__all__ = ["Proved", "prove_problem", "ball_check"]


@dataclass
class Proved:
    """A proven, checked certificate and how it was reached."""

    certificate: Certificate
    verdict: Verdict                  # the trusted checker's verdict on ``certificate.text``
    lines: Any = None                 # the line queries asked (LineMinimizeResult), when asked
    skipped: str | None = None        # why the line query was not asked, when it was not
    budget_note: str | None = None    # the --max-work a re-check needs, past the default budget

    @property
    def text(self) -> str:
        """The certificate's canonical text, as checked (and written)."""
        return self.certificate.text

    def notes(self) -> list[str]:
        """How the bounds were reached and, when they differ, the gap between them as the
        checker verified them (a line refutation may have raised the lower bound)."""
        v, lines = self.verdict, self.lines
        out = [n for n in self.certificate.summary()["notes"] if not n.startswith("gap:")]
        if v.minimum is not None:
            return out
        if v.lower_bound is not None and v.upper_bound is not None:     # verified: set
            out.append(gap_note(v.lower_bound, v.upper_bound))
        if self.skipped:
            out.append(f"line query not asked: {self.skipped}")
        elif lines is not None and lines.stopped == "gap":
            out.append(f"line queries stopped: a support of {lines.lower_bound} points passes "
                       f"every line condition but was not completed to a fusion, so no line "
                       f"query can raise the lower bound further")
        elif lines is not None:
            out.append(f"line queries stopped after {lines.seconds:.1f} s without an answer: a "
                       f"larger --lines-timeout may raise the lower bound")
        return out

    def summary(self) -> dict[str, Any]:
        """The JSON summary of ``attnproof prove --json`` (less the certificate's path)."""
        v = self.verdict
        s = {"verdict": "proven", **self.certificate.summary(), "lower_bound": v.lower_bound,
             "upper_bound": v.upper_bound, "minimum": v.minimum, "trust": v.trust}
        if self.lines is not None:
            s["lines"] = self.lines.to_dict()
        graph = self.graph()
        if graph is not None:
            s["graph"] = graph
        # the text prints the upper bound's reason on a line of its own; the JSON lists it first
        upper = [self.certificate.upper_note] if self.certificate.upper_note and v.minimum is None else []
        s["notes"] = upper + self.notes()
        return s

    def graph(self) -> dict | None:
        """A graph sum's counts (THEORY §13: nodes, edges, acyclic orientations, forests,
        the minor bound), from the certified factors; None for other problems."""
        from .bounds import graph_of_lower_bound, graph_report

        lb = self.certificate.lower
        return graph_report(graph_of_lower_bound(lb, self.certificate.doc["problem"]["dim"]))


def ball_check(M: MultiHead, head: Any) -> None:
    """A quick rigorous ball comparison of the explicit fusion, when the numeric extra is
    installed (it is optional: the import is tried here, not at the top)."""
    try:
        from .numeric import quick_ball_check
    except ImportError:
        return
    res = quick_ball_check(M, head)
    if getattr(res, "verdict", None) == "refuted":
        raise AlgebraError("the explicit fusion is refuted by ball arithmetic (internal error)")


def prove_problem(M: MultiHead, *, explicit: bool = False,
                  max_atoms: int | None = DEFAULT_MAX_ATOMS,
                  explicit_fusion_limit: int = EXPLICIT_FUSION_LIMIT, lines: bool | None = None,
                  lines_timeout: float = DEFAULT_LINES_TIMEOUT,
                  output: str | os.PathLike | None = None, mapper: MapTasks | None = None,
                  stages: Stages | None = None, progress: Progress = None,
                  minors: bool = True) -> Proved:
    """Prove lower and upper bounds for ``M`` in a certificate the checker accepts.

    ``lines``: the line query of THEORY §12: by default (None) when the exact steps
    leave a gap and it applies (a factor ``1 + c·x^g``, no biases, z3 and cvc5
    installed, a lower bound of at most :data:`MAX_AUTO_LINE_POINTS` points), within
    ``lines_timeout`` seconds in all; True asks it whatever the size (an
    :class:`~attnproof.errors.InputError` when it cannot apply); False never.
    ``output``: the certificate is written there atomically, once checked.
    ``minors``: the ``graph_minors`` step of a graph sum (THEORY §13, no solver); False
    leaves it out (``prove --no-minors``).
    ``stages``: how each stage is shown (the command line's progress bars; by default
    nothing, with the counts of the first stage going to ``progress``).

    Raises :class:`~attnproof.errors.LimitError` when the checker cannot decide the
    certificate within its limits and :class:`~attnproof.errors.CertificateError`
    when it refuses it; nothing is written then.
    """
    if not (lines_timeout > 0) or lines_timeout > 86400:
        raise InputError(f"--lines-timeout {lines_timeout:g}: give seconds between 0 and 86400")
    stage = stages if stages is not None else quiet_stages(progress)
    # the large structures (problem, bound, certificate text, the checker's copy) are
    # acyclic: reference counting frees them, and the cyclic collector would only rescan
    # millions of live objects (a third of the time on W_100000)
    with paused_gc():
        proved = _prove(M, explicit, max_atoms, explicit_fusion_limit, lines, lines_timeout,
                        mapper, stage, minors)
    if output is not None:
        atomic_write_text(output, proved.text)
    return proved


def _prove(M: MultiHead, explicit: bool, max_atoms: int | None, explicit_fusion_limit: int,
           lines: bool | None, lines_timeout: float, mapper: MapTasks | None,
           stage: Stages, minors: bool = True) -> Proved:
    def build(limit: int) -> Certificate:
        with stage("proving: factors and bounds") as bar:
            return build_certificate(M, explicit=explicit, max_atoms=max_atoms,
                                     explicit_fusion_limit=limit, progress=bar, mapper=mapper,
                                     minors=minors)

    cert = build(explicit_fusion_limit)
    if cert.fusion is not None:
        with stage("ball check of the fusion"):
            ball_check(M, cert.fusion.to_head())
    for attempt in range(2):
        cert, asked, skipped = _lines_step(M, cert, lines, lines_timeout, max_atoms, stage)
        with stage("checking the certificate"):
            verdict = check_text(cert.text)
        waits = waits_for_replay(verdict)   # only the line refutations wait for --replay
        # past the size the default budget reads, the fusion stays and check_own names the
        # --max-work (without it the certificate may well be as large)
        if (attempt or verdict.code != 2 or waits or cert.fusion is None
                or too_large(len(cert.text), None)):
            break
        # the embedded fusion is more than the checker's work budget for this certificate
        # takes: the upper bound becomes the counted product fusion, and the answer says so
        atoms = cert.fusion.atoms
        cert = build(0)
        cert.upper_note = (f"the upper bound is the product fusion, counted without building "
                           f"it: the best fusion found has {atoms} atoms, but the checker "
                           f"cannot verify it embedded within its work budget "
                           f"({verdict.message.removeprefix('inconclusive: ')})")
    budget_note = None
    if verdict.code == 2 and not waits:
        # only the capped default work budget may be short (a large genuine certificate):
        # checked again with a budget that fits, and the note names the --max-work it needs
        with stage("checking the certificate with a larger work budget"):
            verdict, budget_note = check_own(cert.text, verdict)
        waits = waits_for_replay(verdict)
        cert.check_note = budget_note
    if verdict.code == 2 and not waits:  # a limit of the checker (work budget, sizes): not a bug
        raise LimitError(f"the checker cannot decide this certificate within its limits "
                         f"({verdict.message}); nothing was written")
    if verdict.code != 0 and not waits:
        raise CertificateError(f"the checker does not accept the certificate: {verdict.message}")
    return Proved(cert, verdict, asked, skipped, budget_note)


def _lines_step(M: MultiHead, cert: Certificate, lines: bool | None, timeout: float,
                max_atoms: int | None, stage: Stages) -> tuple[Certificate, Any, str | None]:
    """``cert`` with the line refutations of THEORY §12 added when they apply, the line
    queries asked (or None) and why they were not asked (or None)."""
    if cert.lower.value == cert.upper or lines is False:
        return cert, None, None
    forced = bool(lines)
    skipped = line_obstacle(M, cert, forced=forced, max_points=MAX_AUTO_LINE_POINTS)
    if skipped is not None:
        return cert, None, skipped
    try:
        new, asked = _line_queries(M, cert, timeout, max_atoms, stage)
    except (LimitError, InputError, SolverError) as e:
        if forced:                      # asked for: its limit is the answer
            raise
        return cert, None, f"{e} (a limit of the line query; the bounds stand without it)"
    return new, asked, None


def _line_queries(M: MultiHead, cert: Certificate, timeout: float, max_atoms: int | None,
                  stage: Stages) -> tuple[Certificate, Any]:
    """The line queries, ascending from the certificate's lower bound, shown as one stage
    whose label names the query asked (the result lists each answer, once)."""
    def next_query(asked: list, res: Any) -> str | None:
        # ascending: after an unsat the next query asks k + 1
        return f"proving: line query k = {res.target + 1}" if res.result == "unsat" else None

    with query_stage(stage, f"proving: line query k = {cert.lower.value}", "z3 and cvc5 running",
                     f"; {timeout:g} s for the line queries", next_query) as (_, label, step):
        return add_line_refutations(M, cert, timeout, max_atoms, on_step=step,
                                    on_solvers=label.solvers)
