"""Heads of real transformers: capture a layer, import it as a problem, report on merges.

* :mod:`attnproof.transformer.capture` — the framework-free capture format (NumPy only).
* :mod:`attnproof.transformer.problem` — capture → exact problem (THEORY §10).
* :mod:`attnproof.transformer.adapters` — capture from a TransformerLens bridge, a
  Hugging Face GPT-2 model or a ``torch.nn.MultiheadAttention`` (needs the
  ``models`` extra; torch is imported only there, and only when called).
* :mod:`attnproof.transformer.report` — the merge report's answers and how they read
  (the verdict against keeping heads separate, Markdown, JSON, the heat map); the
  proving is :func:`attnproof.merging.merge_report`, a room above.
* :mod:`attnproof.transformer.structure` — structures of real layers (one pattern,
  constant heads, vanishing values, keys shared on some positions), read exactly.
* :mod:`attnproof.transformer.plan` — the best merge plan: a partition of the heads.

>>> from attnproof.transformer import random_capture, capture_to_problem
>>> len(capture_to_problem(random_capture(2, 4, 3, 4)).heads)
3
"""

from __future__ import annotations

from typing import Any

from .capture import Capture, load_capture, random_capture, save_capture
from .structure import group_structures, head_structures
from .problem import (capture_to_problem, head_from_capture, model_deviation, parse_heads,
                      problem_document)

__all__ = ["Capture", "load_capture", "save_capture", "random_capture", "capture_to_problem",
           "head_from_capture", "parse_heads", "capture", "capture_mha",
           "write_report", "load_local_model", "model_deviation", "problem_document",
           "group_structures", "head_structures"]


def capture(model: Any, tokens: Any, layer: int, position: int = -1, **kw: Any) -> Capture:
    """Capture ``layer`` of ``model`` at ``position`` (see :func:`attnproof.transformer.adapters.capture`)."""
    from .adapters import capture as _capture
    return _capture(model, tokens, layer, position, **kw)


def capture_mha(mha: Any, context: Any, query: Any = None, **kw: Any) -> Capture:
    """Capture a ``torch.nn.MultiheadAttention`` (see :func:`attnproof.transformer.adapters.capture_mha`)."""
    from .adapters import capture_mha as _capture_mha
    return _capture_mha(mha, context, query, **kw)


def write_report(*args: Any, **kw: Any) -> Any:
    """Write a merge report's files (see :func:`attnproof.transformer.report.write_report`)."""
    from .report import write_report as _write_report
    return _write_report(*args, **kw)


def load_local_model(*args: Any, **kw: Any) -> Any:
    """A model from a local folder (see :func:`attnproof.transformer.adapters.load_local_model`)."""
    from .adapters import load_local_model as _load
    return _load(*args, **kw)
