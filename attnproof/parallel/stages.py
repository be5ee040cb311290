"""Stages of a long computation, as a caller shows them: a label, redrawn as the work goes.

A pipeline (``prove``, a walk of solver queries) opens one stage per step
(:data:`Stages`: a label -> a context manager); the stage it gets is a
:data:`~attnproof.parallel.tasks.Progress` callable with :meth:`Stage.describe`
(a new label) and :meth:`Stage.write` (a line of its own).  The command line
passes its progress bars; the Python API shows nothing (:func:`quiet_stages`).

:class:`QueryLabel` is the label of a walk of solver queries,
``"{query} ({solvers}{tail})"``: the query asked and the solvers' states, redrawn
when either changes; :func:`query_stage` opens the stage of such a walk, once for
every walk (``prove``'s line queries, ``search``'s query, bisection and line queries).

>>> shown = []
>>> q = QueryLabel(shown.append, "query 1", "z3 and cvc5 running", ", timeout 60 s")
>>> q.label
'query 1 (z3 and cvc5 running, timeout 60 s)'
>>> q.solvers("z3 unsat, cvc5 running"); q.query("query 2 after k = 5 unsat")
>>> shown[-1]
'query 2 after k = 5 unsat (z3 unsat, cvc5 running, timeout 60 s)'
"""

from __future__ import annotations

from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, Callable, Iterator, Optional, Protocol

from .tasks import Progress

__all__ = ["Stage", "Stages", "QuietStage", "quiet_stages", "QueryLabel", "query_stage"]


class Stage(Protocol):
    """What a stage offers the work inside it."""

    def __call__(self, done: int, total: int) -> None: ...

    def describe(self, label: str) -> None: ...

    def write(self, message: str) -> None: ...


Stages = Callable[[str], AbstractContextManager[Stage]]


class QuietStage:
    """A stage that shows nothing but forwards its counts to ``progress`` (when given).

    >>> seen = []
    >>> s = QuietStage(lambda d, t: seen.append((d, t)))
    >>> s(1, 2); s.describe("next"); s.write("a line"); seen
    [(1, 2)]
    """

    def __init__(self, progress: Progress = None) -> None:
        self.progress = progress

    def __call__(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(done, total)

    def describe(self, label: str) -> None:
        """Nothing is shown."""

    def write(self, message: str) -> None:
        """Nothing is shown."""


def quiet_stages(progress: Progress = None) -> Stages:
    """Stages that show nothing; the counts of each go to ``progress``."""
    stage = QuietStage(progress)

    def open_stage(label: str) -> AbstractContextManager[Stage]:
        return nullcontext(stage)

    return open_stage


class QueryLabel:
    """The label ``"{query} ({solvers}{tail})"`` of a walk of solver queries, shown through
    ``describe`` (a stage's :meth:`Stage.describe`) whenever a part changes."""

    def __init__(self, describe: Callable[[str], None] | None, query: str, solvers: str,
                 tail: str = "") -> None:
        self.describe = describe          # None until a stage shows it
        self._query = query
        self._solvers = solvers
        self.tail = tail

    @property
    def label(self) -> str:
        """The label as it is shown now."""
        return f"{self._query} ({self._solvers}{self.tail})"

    def query(self, text: str, solvers: str | None = None) -> None:
        """A new query is asked (and, when given, the solvers' states start anew)."""
        self._query = text
        if solvers is not None:
            self._solvers = solvers
        self._show()

    def solvers(self, text: str) -> None:
        """The solvers' states changed (``z3 unsat, cvc5 running``)."""
        self._solvers = text
        self._show()

    def _show(self) -> None:
        if self.describe is not None:
            self.describe(self.label)


NextQuery = Callable[[list, Any], Optional[str]]


@contextmanager
def query_stage(stages: Stages, query: str, solvers: str, tail: str = "",
                next_query: NextQuery | None = None) -> Iterator[tuple[Stage, QueryLabel, Callable[[Any], None]]]:
    """The stage of a walk of solver queries, labelled ``"{query} ({solvers}{tail})"``.

    Yields the stage (a progress callable for the walk), its :class:`QueryLabel` (hand
    ``label.solvers`` to the solvers) and ``on_step(result)`` for the walk to call after
    each query: ``next_query(asked, result)`` (``asked``: the results so far) names the
    next query, or None to keep the label; the solvers' states then start anew.

    >>> shown = []
    >>> class Shown(QuietStage):
    ...     def describe(self, label): shown.append(label)
    >>> with query_stage(lambda label: nullcontext(Shown()), "query 1", "z3 running", "",
    ...                  lambda asked, r: f"query {len(asked) + 1} after k = {r}") as (_, label, step):
    ...     label.solvers("z3 unsat")
    ...     step(5)
    >>> shown
    ['query 1 (z3 unsat)', 'query 2 after k = 5 (z3 running)']
    """
    label = QueryLabel(None, query, solvers, tail)
    asked: list = []
    with stages(label.label) as stage:
        label.describe = stage.describe

        def on_step(result: Any) -> None:
            asked.append(result)
            text = None if next_query is None else next_query(asked, result)
            if text is not None:
                label.query(text, solvers)

        yield stage, label, on_step
