"""The ``non_constant`` step (docs/certificates.md §6.13), written from the witnesses of
:func:`attnproof.bounds.floor.non_constant_witnesses`, and ``sub_sum`` (§6.14), the bound
factors a count keeps.  The checker reads both in ``checker/rules/floors``.

>>> from fractions import Fraction
>>> non_constant_step([("point", {}), ("point", {0: Fraction(1, 2)})])
{'rule': 'non_constant', 'witnesses': [{'point': []}, {'point': [[0, '1/2']]}]}
>>> sub_sum_step((0, 2))
{'rule': 'sub_sum', 'factors': [0, 2]}
"""

from __future__ import annotations

from typing import Sequence

from ...io import format_number

__all__ = ["non_constant_step", "sub_sum_step"]


def non_constant_step(witnesses: list) -> dict:
    """``[(kind, body)]``: limits and slopes map variables to integers, points to rationals."""
    out = []
    for kind, body in witnesses:
        if kind == "point":
            out.append({kind: [[v, format_number(b)] for v, b in sorted(body.items())]})
        else:
            out.append({kind: [[v, k] for v, k in sorted(body.items())]})
    return {"rule": "non_constant", "witnesses": out}


def sub_sum_step(factors: Sequence[int]) -> dict:
    """``sub_sum``: the indices of the bound factors that the count keeps."""
    return {"rule": "sub_sum", "factors": list(factors)}
