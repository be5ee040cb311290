"""The Python API in four verbs: :func:`bound`, :func:`prove`, :func:`check`, :func:`search`.

Each takes a problem as a :class:`~attnproof.heads.MultiHead`, a problem file
path or a problem document (dict), and returns the library's own objects,
which print briefly and render in notebooks (``_repr_latex_``).  The command
line (``attnproof bound|prove|check|search``) is a thin layer over the same
functions.

>>> from attnproof import bound, prove, check, sigmoid_sum
>>> bound(sigmoid_sum(4))
LowerBound(16, trust='exact', path='c1', complete=True)
>>> cert = prove(sigmoid_sum(4))
>>> cert
Certificate(lower_bound=16, upper_bound=16, minimum=16, trust='exact')
>>> check(cert).status
'valid'
"""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

from .errors import InputError
from .heads import MultiHead  # noqa: F401  (the type every verb accepts)
from .io import as_problem
from .parallel import MapTasks, Progress

__all__ = ["bound", "prove", "check", "search", "as_problem"]

DEFAULT_MAX_ATOMS = 1 << 20


def bound(problem: Any, *, explicit: bool = False, max_atoms: int | None = DEFAULT_MAX_ATOMS,
          progress: Progress = None, mapper: MapTasks | None = None):
    """The proven lower bound on the atoms of every exact single-head fusion (THEORY §4).

    Returns a :class:`~attnproof.bounds.LowerBound` (``.value``, ``.trust``, ``.tight``);
    ``attnproof bound`` prints it.  ``mapper``: where the factor and block tasks run
    (:func:`attnproof.parallel.mapper`; by default in this process).
    """
    from .bounds import lower_bound

    return lower_bound(as_problem(problem), explicit=explicit, max_atoms=max_atoms,
                       progress=progress, mapper=mapper)


def prove(problem: Any, *, explicit: bool = False, max_atoms: int | None = DEFAULT_MAX_ATOMS,
          explicit_fusion_limit: int | None = None, output: str | os.PathLike | None = None,
          progress: Progress = None, lines: bool | None = None,
          lines_timeout: float = 120.0, mapper: MapTasks | None = None, minors: bool = True,
          line_options: Sequence[str] | None = None):
    """Lower and upper bounds in a certificate that the independent checker accepts.

    The pipeline of ``attnproof prove`` (:func:`attnproof.proving.prove_problem`), which
    gives byte-identical certificates: the certificate is checked before it is
    returned (and written to ``output``, atomically, when given); a certificate the
    checker refuses raises :class:`~attnproof.errors.CertificateError`.  A certificate
    that needs more than the checker's default work budget is checked with one that
    fits, and ``cert.check_note`` names the ``--max-work`` that re-checks it.

    ``lines``: the line query of THEORY §12, as ``attnproof prove`` asks it: by default
    (None) when the exact steps leave a gap and it applies (a factor ``1 + c·x^g``, no
    biases, z3 and cvc5 installed, a lower bound of at most 64 points), within
    ``lines_timeout`` seconds in all; True asks it whatever the size (an
    :class:`~attnproof.errors.InputError` when it cannot apply); False never.  A bound it
    raises has trust ``line-refuted``: ``attnproof check CERT --replay`` re-proves it.
    ``lines_timeout``'s default is :data:`attnproof.smt.DEFAULT_LINES_TIMEOUT` (a test
    holds them equal).  ``minors``: the ``graph_minors`` step of a graph sum (THEORY §13),
    as ``attnproof prove`` adds it unless ``--no-minors``.  ``line_options``: the line
    query's encoding options (default all of :data:`attnproof.smt.lines.LINE_OPTIONS`).
    """
    # imported here: the pipeline imports the certificate, checker and SMT packages, which
    # would make ``from attnproof import bound`` four times slower (docs/layout.md)
    from .certificate import EXPLICIT_FUSION_LIMIT
    from .proving import prove_problem

    return prove_problem(as_problem(problem), explicit=explicit, max_atoms=max_atoms,
                         explicit_fusion_limit=(EXPLICIT_FUSION_LIMIT if explicit_fusion_limit
                                                is None else explicit_fusion_limit),
                         lines=lines, lines_timeout=lines_timeout, output=output, mapper=mapper,
                         minors=minors, line_options=line_options,
                         progress=progress).certificate


def check(certificate: Any, *, problem: Any = None, strict: bool = False, replay: bool = False,
          replay_timeout: float | None = None, max_work: int | None = None):
    """Verify a certificate with the trusted checker; returns its :class:`~attnproof.checker.Verdict`.

    ``certificate``: a :class:`~attnproof.certificate.Certificate`, a document
    (dict), certificate JSON text, or a file path.  ``problem``: when given,
    the certificate must be about this problem.  ``replay``: re-prove its window and
    line refutations with z3 and cvc5 (``attnproof check --replay``), within
    ``replay_timeout`` seconds; ``max_work``: the checker's work budget (default:
    linear in the certificate's size).  Text that is not JSON at all (empty,
    truncated) raises :class:`~attnproof.errors.InputError` ("not a certificate:
    ..."), as an unreadable file does.
    """
    from .checking import check_certificate, read_certificate

    if hasattr(certificate, "text") and hasattr(certificate, "doc"):
        text = certificate.text
    elif isinstance(certificate, dict):
        from .io import canonical_json

        text = canonical_json(certificate)
    elif isinstance(certificate, str) and certificate.lstrip().startswith("{"):
        text = certificate
    elif isinstance(certificate, (str, os.PathLike)):
        # as the command line: a file past the size the checker reads is answered unread
        read = read_certificate(os.fspath(certificate), max_work)
        if not isinstance(read, str):
            return read
        text = read
    else:
        raise InputError(f"expected a certificate, its text or a file path, got "
                         f"{type(certificate).__name__}")
    expected = None
    if problem is not None:
        from .io import problem_sha256

        expected = problem_sha256(as_problem(problem))
    v = check_certificate(text, expected_sha256=expected, strict=strict, work=max_work,
                          replay=replay, replay_timeout=replay_timeout)
    if v.status == "error":         # not JSON at all (empty, truncated): not a forgery
        raise InputError(v.message)
    return v


def search(problem: Any, atoms: int | None = None, *, window: int | Sequence | Any = 1,
           minimize: bool = False, lines: bool = False, timeout: float = 600,
           options: Any = None, max_atoms: int | None = DEFAULT_MAX_ATOMS,
           progress: Progress = None, on_step: Callable[[Any], None] | None = None,
           on_solvers: Callable[[str], None] | None = None, budget: float | None = None,
           output: str | os.PathLike | None = None,
           certificate: str | os.PathLike | None = None,
           smtlib: str | os.PathLike | None = None):
    """Search a window for a fusion with at most ``atoms`` atoms (z3; unsat re-checked by cvc5).

    The pipeline of ``attnproof search`` (:func:`attnproof.searching.search_problem`), which
    gives byte-identical files: with ``minimize=True`` walk the atom count down from the
    best cheap fusion (:func:`attnproof.smt.minimize`; ``on_step(result)`` after each
    query); otherwise one query (:func:`attnproof.smt.search_fusion`).  ``window``: a box
    radius or a list of exponent vectors of the multiplier ``G`` (THEORY §6).  ``lines``:
    no window, the line queries of THEORY §12 (``attnproof search --global``).
    ``on_solvers(text)``: the solvers' states as they change (``attnproof search`` shows
    them).  ``budget``: with ``minimize``, seconds for the whole walk (past them it stops
    with what it proved).  ``output``, ``certificate``, ``smtlib``: files written as
    ``-o``, ``--certificate`` and ``--smtlib`` write them (the verified witness, the
    certificate with the refutation, the last query's SMT-LIB2 text).
    """
    from .searching import search_problem

    return search_problem(problem, atoms, window=window, minimize=minimize, lines=lines,
                          timeout=timeout, budget=budget, options=options, max_atoms=max_atoms,
                          output=_path(output), certificate=_path(certificate),
                          smtlib=_path(smtlib), progress=progress, on_step=on_step,
                          on_solvers=on_solvers).result


def _path(p: str | os.PathLike | None) -> str | None:
    return None if p is None else os.fspath(p)
