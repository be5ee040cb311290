"""How the library's objects are shown: short printed forms and formulas.

* :mod:`.brief`: a ``repr`` is a summary, never a dump (:func:`short`,
  :func:`fields_repr`, :func:`clip`, :data:`REPR_LIMIT`); the data model's objects
  use it, so it sits in the lowest room and imports nothing of the package.
* :mod:`.formulas`: SymPy expressions of heads and reduced forms (unicode and
  LaTeX), for display only; it reads the exact algebra, so it sits in the algebra's
  room (``tests/import_graph.py``) and this package does not import it.

>>> short(2 ** 200)
'<61-digit int>'
"""

from .brief import REPR_LIMIT, clip, fields_repr, short

__all__ = ["REPR_LIMIT", "clip", "fields_repr", "short"]
