"""``search``, the whole pipeline: the one home of ``attnproof search`` and :func:`attnproof.search`.

A windowed query (THEORY §6: is there a fusion with at most ``k`` atoms whose
multiplier ``G`` has its exponents in the window?), the bisection of ``k``
between the Newton bound and the best cheap fusion, the line queries without a
window (THEORY §12), and the sweep of many independent queries; each answer's
witness, certificate and SMT-LIB2 text written when asked, and the JSON summary
the command prints.  The command line passes its progress bars as the stages
(:mod:`attnproof.parallel.stages`) and prints the :class:`Searched` it gets
back; the API returns its result.  Identical inputs give byte-identical
certificates, whoever calls.

>>> from attnproof.families import sigmoid_sum
>>> s = search_problem(sigmoid_sum(2), minimize=True)
>>> s.verdict, s.result.best.atoms, s.summary()["minimum"]
('sat', 4, 4)
>>> repr(s).startswith("Searched('minimize', verdict='sat', elapsed_s=")
True
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .certificate import Certificate
from .display import fields_repr
from .errors import InputError
from .fusion import DEFAULT_MAX_ATOMS, fuse, reduced_form
from .heads import MultiHead
from .io import as_problem, atomic_write_text, canonical_json
from .parallel import ExecutorSpec, Progress, Stages, query_stage, quiet_stages
from .smt import (SearchOptions, line_certificate, line_minimize, minimize, parse_targets,
                  parse_window, parse_windows, search_certificate, search_fusion)
from .smt.line_query import line_query
from .smt.sweep import sweep

__all__ = ["Searched", "search_problem", "sweep_problems", "check_limits", "BIASES_REFUSED"]

BIASES_REFUSED = ("search: problems with biases have exp-rational coefficients, which are "
                  "outside the SMT search (THEORY §6)")
MAX_SECONDS = 86400


@dataclass(repr=False)
class Searched:
    """A search's answer, what it wrote and the summary ``attnproof search --json`` prints.

    ``kind``: ``query`` or ``minimize`` (a window), ``line query`` or ``line minimize``
    (no window, THEORY §12), ``sweep``; ``result`` is the answer of
    :func:`attnproof.smt.search_fusion`, :func:`attnproof.smt.minimize`,
    :func:`attnproof.smt.line_query.line_query`, :func:`attnproof.smt.line_minimize`
    or :func:`attnproof.smt.sweep.sweep`.
    """

    kind: str
    result: Any
    certificate: Certificate | None = None
    output: str | None = None              # where the witness was written (a sat answer)
    certificate_path: str | None = None
    written: list = field(default_factory=list)    # a sweep's witnesses and certificates
    elapsed_s: float = 0.0

    def __repr__(self) -> str:
        """Short: the kind, the verdict, what was written."""
        return fields_repr("Searched", repr(self.kind), verdict=self.verdict,
                           certificate=self.certificate_path, output=self.output,
                           elapsed_s=round(self.elapsed_s, 3))

    @property
    def walk(self) -> bool:
        """A bisection or a sweep (their unsat is no negative answer: exit 0)."""
        return self.kind in ("minimize", "line minimize", "sweep")

    @property
    def verdict(self) -> str:
        """``sat``, ``unsat`` or ``unknown``: the answer of a query; for a bisection, how it
        ended (``unsat``: a refutation below the best fusion, ``sat``: the fusion meets the
        lower bound); for a sweep, ``unknown`` unless every query was answered."""
        r = self.result
        if self.kind in ("query", "line query"):
            return r.result
        if self.kind == "minimize":
            return {"refuted": "unsat", "bound": "sat", "unknown": "unknown"}[r.stopped]
        if self.kind == "line minimize":
            return ("unknown" if r.stopped == "unknown" else
                    "unsat" if r.refutation is not None else "sat")
        return "sat" if r.complete else "unknown"

    def summary(self) -> dict:
        """The JSON document of ``attnproof search --json`` (one vocabulary: ``verdict``,
        ``atoms``, ``minimum``, ``elapsed_s``)."""
        r = self.result
        elapsed = round(self.elapsed_s, 3)
        if self.kind == "query":
            doc = r.to_dict()
            doc["verdict"] = doc.pop("result")
            doc["output"] = self.output if r.result == "sat" else None
            doc["certificate"] = self.certificate_path if r.result != "unknown" else None
            return doc
        if self.kind == "minimize":
            doc = r.to_dict()
            doc["verdict"] = self.verdict
            doc["atoms"] = doc.pop("best_atoms")
            doc["method"] = doc.pop("best_method")
            doc["start"] = doc.pop("start_atoms")
            doc["minimum"] = r.best.atoms if r.stopped == "bound" else None
            for s in doc["steps"]:
                s["verdict"] = s.pop("result")
            doc["window"] = r.steps[-1].window.to_dict() if r.steps else None
            doc["elapsed_s"] = elapsed
            return doc
        if self.kind == "line minimize":
            doc = {"verdict": self.verdict, **r.to_dict(), "atoms": r.best.atoms,
                   "elapsed_s": elapsed}
            doc["start"] = doc.pop("start_atoms")
            return doc
        if self.kind == "line query":
            doc = r.to_dict()
            doc.pop("result")
            return {"verdict": r.result, **doc,
                    "atoms": r.fusion.atoms if r.fusion is not None else None,
                    "elapsed_s": elapsed}
        doc = r.to_dict()
        doc["written"] = list(self.written)
        return doc


def check_limits(timeout: float, budget: float | None = None, minimize: bool = False) -> None:
    """Refuse a per-query ``timeout`` or a walk's ``budget`` (``--time-limit``) outside
    (0, 86400] seconds, and a budget without a walk.

    >>> check_limits(600, 120, minimize=True)
    >>> check_limits(600, 120)
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: --time-limit goes with --minimize (one query has --timeout)
    """
    if not (timeout > 0) or timeout > MAX_SECONDS:
        raise InputError(f"--timeout {timeout}: give seconds between 0 and {MAX_SECONDS}")
    if budget is not None and (not (0 < budget <= MAX_SECONDS) or not minimize):
        raise InputError(f"--time-limit {budget:g}: give seconds between 0 and {MAX_SECONDS}, "
                         f"with --minimize" if minimize else
                         "--time-limit goes with --minimize (one query has --timeout)")


def _check_folders(paths: Sequence[tuple[str, str | None]]) -> None:
    for flag, path in paths:
        if path:
            folder = os.path.dirname(path) or "."
            if not os.path.isdir(folder):
                raise InputError(f"{flag} {path}: folder {folder} does not exist")


def _limits(timeout: float, budget: float | None) -> str:
    """The time limits of a walk, as its progress label names them.

    >>> _limits(600.0, None), _limits(600.0, 120.0)
    ('timeout 600 s per query', 'timeout 600 s per query, 120 s in all')
    """
    return f"timeout {timeout:g} s per query" + ("" if budget is None else f", {budget:g} s in all")


def _window_known(asked: list) -> str:
    """What the queries of a window bisection have shown so far, for its progress label."""
    refuted = [r.target for r in asked if r.result == "unsat"]
    found = [r.atoms for r in asked if r.result == "sat" and r.atoms]
    return "; ".join(([f"no fusion with <= {max(refuted)} atoms in the window"] if refuted else [])
                     + ([f"a fusion with {min(found)}"] if found else []))


def search_problem(problem: Any, atoms: int | None = None, *, window: Any = 1,
                   minimize: bool = False, lines: bool = False, timeout: float = 600,
                   budget: float | None = None, options: SearchOptions | None = None,
                   max_atoms: int | None = DEFAULT_MAX_ATOMS, output: str | None = None,
                   certificate: str | None = None, smtlib: str | None = None,
                   stages: Stages | None = None, progress: Progress = None,
                   on_step: Callable[[Any], None] | None = None,
                   on_solvers: Callable[[str], None] | None = None) -> Searched:
    """Ask for a fusion with at most ``atoms`` atoms, or bisect (``minimize``), in a window
    (a box radius, a list of exponent vectors of ``G`` or its JSON text) or, with
    ``lines``, with the line queries of THEORY §12 (no window: an unsat ``k`` is a lower
    bound ``k + 1`` for every fusion).

    ``timeout``: seconds per query; ``budget``: seconds for a whole bisection.  Written
    when given, atomically: ``output`` the verified witness (the smallest found) as a
    one-head problem, ``certificate`` the proven bounds with the witness and the
    refutation, ``smtlib`` the last query's SMT-LIB2 text.  ``stages``: how the walk is
    shown (the command line's progress bars; by default nothing, its counts going to
    ``progress``); ``on_step(result)`` after each query of a walk, ``on_solvers(text)``
    as the solvers' states change.
    """
    check_limits(timeout, budget, minimize)
    _check_folders((("-o", output), ("--certificate", certificate), ("--smtlib", smtlib)))
    if (atoms is None) == (not minimize):
        raise InputError("give either atoms or minimize=True, not both" if minimize else
                         "search needs atoms=K (or minimize=True)")
    M = as_problem(problem)
    if M.has_bias:
        raise InputError(BIASES_REFUSED)
    stage = stages if stages is not None else quiet_stages(progress)
    t0 = time.perf_counter()
    if lines:
        done = _lines(M, atoms, timeout, budget, max_atoms, stage, on_step, on_solvers)
    else:
        w = parse_window(window) if isinstance(window, str) else window
        opts = options if options is not None else SearchOptions()
        done = _window(M, atoms, w, timeout, budget, opts, max_atoms, stage, on_step, on_solvers)
    _write(done, output, smtlib)
    if certificate:
        done.certificate = _certify(M, done)
        done.certificate_path = certificate
        atomic_write_text(certificate, done.certificate.text)
    done.elapsed_s = time.perf_counter() - t0
    return done


def _both(*fns: Callable[[Any], None] | None) -> Callable[[Any], None]:
    """One callback that calls each given one in turn."""
    given = [f for f in fns if f is not None]

    def call(x: Any) -> None:
        for f in given:
            f(x)

    return call


def _window(M: MultiHead, atoms: int | None, window: Any, timeout: float, budget: float | None,
            opts: SearchOptions, max_atoms: int | None, stage: Stages, on_step: Callable[[Any], None] | None,
            on_solvers: Callable[[str], None] | None) -> Searched:
    solvers = "z3 and cvc5" if opts.cross_check else "z3"
    if atoms is None:
        def next_query(asked: list, res: Any) -> str:
            known = _window_known(asked)
            return (f"minimizing: query {len(asked) + 1} after k = {res.target} "
                    f"{res.result}{'; ' + known if known else ''}")

        with query_stage(stage, "minimizing: query 1", f"{solvers} running",
                         f", {_limits(timeout, budget)}", next_query) as (bar, label, step):
            mr = minimize(M, window, timeout, opts, progress=bar, max_atoms=max_atoms,
                          on_step=_both(step, on_step), on_solvers=_both(label.solvers, on_solvers),
                          budget=budget)
        return Searched("minimize", mr)
    with query_stage(stage, f"SMT query: at most {atoms} atoms", f"{solvers} running",
                     f", timeout {timeout:g} s") as (_, label, _step):
        res = search_fusion(M, atoms, window, timeout, opts, r=reduced_form(M, max_atoms),
                            on_solvers=_both(label.solvers, on_solvers))
    return Searched("query", res)


def _lines(M: MultiHead, atoms: int | None, timeout: float, budget: float | None,
           max_atoms: int | None, stage: Stages, on_step: Callable[[Any], None] | None,
           on_solvers: Callable[[str], None] | None) -> Searched:
    running = "z3 and cvc5 running"
    if atoms is None:
        def next_query(asked: list, res: Any) -> str:
            return f"line refutations: query {len(asked) + 1} after k = {res.target} {res.result}"

        with query_stage(stage, "line refutations: query 1", running,
                         f", {_limits(timeout, budget)}", next_query) as (_, label, step):
            mr = line_minimize(M, timeout, max_atoms=max_atoms, on_step=_both(step, on_step),
                               on_solvers=_both(label.solvers, on_solvers), budget=budget)
        return Searched("line minimize", mr)
    with query_stage(stage, f"line query: at most {atoms} points", running,
                     f", timeout {timeout:g} s") as (_, label, _step):
        res = line_query(M, atoms, timeout, on_solvers=_both(label.solvers, on_solvers))
    return Searched("line query", res)


def _certify(M: MultiHead, done: Searched) -> Certificate:
    """The certificate of a search: the proven bounds, the witness as upper bound and the
    refutation (a window refutation: trust window-refuted; a line refutation: line-refuted)."""
    r = done.result
    if done.kind == "minimize":
        return search_certificate(M, r.best, [r.refutation] if r.refutation is not None else [])
    if done.kind == "query":
        if r.result == "unknown":
            raise InputError("--certificate: the query was inconclusive, there is nothing to "
                             "certify")
        return search_certificate(M, r.fusion, [r] if r.result == "unsat" else [])
    if done.kind == "line minimize":
        return line_certificate(M, r.best, r.refutation)
    if r.result != "unsat":
        raise InputError("--certificate: only a refutation is certified with --global --atoms "
                         "(use --minimize for the whole walk)")
    return line_certificate(M, None, r)


def _write(done: Searched, output: str | None, smtlib: str | None) -> None:
    """Write the SMT-LIB2 text of the last query, the witness and the certificate asked for."""
    r = done.result
    walk = done.kind in ("minimize", "line minimize")
    last = (r.steps[-1] if r.steps else None) if walk else r
    if smtlib and last is not None:
        atomic_write_text(smtlib, last.encoding.smtlib)
    witness = r.best if walk else r.fusion
    if done.kind == "query" and r.result != "sat":
        witness = None
    done.output = output
    if output and witness is not None:
        atomic_write_text(output, canonical_json(witness.to_problem_dict()))


def _sweep_outputs(names: Sequence[str], output_dir: str | None,
                   certificate_dir: str | None) -> dict[str, tuple[str | None, str | None]]:
    for flag, folder in (("-o", output_dir), ("--certificate", certificate_dir)):
        if folder and not os.path.isdir(folder):
            raise InputError(f"{flag} {folder}: with --sweep, give an existing folder")
    out = {}
    for name in names:
        stem = os.path.splitext(os.path.basename(name))[0]
        out[name] = (os.path.join(output_dir, f"{stem}.fused.json") if output_dir else None,
                     os.path.join(certificate_dir, f"{stem}.cert.json") if certificate_dir
                     else None)
    stems = [os.path.basename(p) for pair in out.values() for p in pair if p]
    if len(stems) != len(set(stems)):
        raise InputError("--sweep: two problem files share a name; their outputs would collide")
    return out


def sweep_problems(problems: Sequence[tuple[str, Any]], window: Any = "1",
                   targets: Any = None, *, timeout: float = 600,
                   options: SearchOptions | None = None, spec: ExecutorSpec | None = None,
                   max_atoms: int | None = DEFAULT_MAX_ATOMS, output_dir: str | None = None,
                   certificate_dir: str | None = None, smtlib: str | None = None,
                   stages: Stages | None = None, progress: Progress = None) -> Searched:
    """Every ``k`` of ``targets`` (default: from the lower bound up to one below the best
    cheap fusion) in every window, for every named problem (a path or a problem), as
    independent queries on the executor ``spec`` (Dask when asked); per problem, the
    smallest verified fusion (or the cheap one) written to ``output_dir`` and its
    certificate, with the window refutations, to ``certificate_dir``.

    ``window`` and ``targets``: as the command line reads them (``0-2``, ``30-37,40``), or
    lists.  ``stages``: how the sweep is shown (one stage, ``sweeping``, counting the
    queries; by default nothing, the counts going to ``progress``).
    """
    check_limits(timeout)
    if smtlib:
        raise InputError("--smtlib: one query only, not with --sweep")
    names = [name for name, _ in problems]
    if len(set(names)) != len(names):
        raise InputError("--sweep: a problem file is given twice")
    outputs = _sweep_outputs(names, output_dir, certificate_dir)
    loaded = [(name, as_problem(p)) for name, p in problems]
    windows = parse_windows(window) if isinstance(window, str) else list(window)
    ks = parse_targets(targets) if isinstance(targets, str) else targets
    stage = stages if stages is not None else quiet_stages(progress)
    t0 = time.perf_counter()
    with stage("sweeping") as bar:
        sw = sweep(loaded, windows, ks, timeout,
                   options if options is not None else SearchOptions(), spec=spec, progress=bar,
                   max_atoms=max_atoms)
    done = Searched("sweep", sw)
    for name, M in loaded:
        fused, cert = outputs[name]
        best = sw.best_fusion(name) or fuse(M, max_atoms)   # as a bisection: the smallest found
        if fused:
            atomic_write_text(fused, canonical_json(best.to_problem_dict()))
            done.written.append(fused)
        if cert:
            atomic_write_text(cert, search_certificate(M, best, sw.refutations(name)).text)
            done.written.append(cert)
    done.elapsed_s = time.perf_counter() - t0
    return done
