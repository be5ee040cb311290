"""The one progress protocol of the library: a callback ``progress(done, total)``.

Long computations (fusions, bounds, certificates, searches, merge reports)
take an optional ``progress`` argument of type :data:`Progress` and call it as
work is done; ``total`` may be None when the amount of work is not known.  The
library never draws anything itself: the command line passes its progress bar
(:class:`attnproof.cli.common.ProgressBar`), a notebook may pass any function.

>>> seen = []
>>> def report(done, total):
...     seen.append((done, total))
>>> from attnproof.fusion import reduced_form
>>> from attnproof.families import sigmoid_sum
>>> _ = reduced_form(sigmoid_sum(3), progress=report)
>>> seen
[(1, 3), (2, 3), (3, 3)]
"""

from __future__ import annotations

from typing import Callable, Optional

__all__ = ["Progress"]

Progress = Optional[Callable[[int, "int | None"], None]]
"""An optional callback ``progress(done, total)``; None: no reports."""
