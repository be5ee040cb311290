"""Steps of the factor rules (docs/certificates.md §6.1-6.2, THEORY §5).

``irreducible_factor`` per certified factor of the reduced denominator (a C1
or C2 witness and a residue component), or one ``reduced_by_flint`` step that
gives the reduced form itself (C3).  Polynomials are written in the
certificate form ``[[coef, [[var, exp], ...]], ...]``, terms sorted by their pair
lists.

>>> step = irreducible_factor_step({((0, 1),): 1, (): 1}, Witness("linear", 0), {0: 1}, 0)
>>> step["poly"], step["heads"]
([[1, []], [1, [[0, 1]]]], [[0, 1]])
"""

from __future__ import annotations

from typing import Any

from ...algebra.factors import Witness
from ...io import format_number

__all__ = ["to_json_poly", "witness_doc", "irreducible_factor_step", "reduced_by_flint_step"]


def to_json_poly(p: dict) -> list:
    """Certificate form ``[[coef, [[var, exp], ...]], ...]`` sorted by monomial pair lists.

    >>> to_json_poly({((0, 1),): 1, (): 1})
    [[1, []], [1, [[0, 1]]]]
    """
    # monomials are distinct tuples of (var, exp) pairs: sorting the items orders them
    # exactly as their pair lists
    return [[c, [[v, e] for v, e in m]] for m, c in sorted(p.items())]


def _rational_poly(p: dict) -> list:
    terms = sorted(([list(pr) for pr in m], c) for m, c in p.items())
    return [[format_number(c), m] for m, c in terms]


def witness_doc(w: Witness) -> dict[str, Any]:
    """The ``witness`` object of an ``irreducible_factor`` step.

    >>> witness_doc(Witness("linear", 2)), witness_doc(Witness("simplex"))
    ({'kind': 'linear', 'var': 2}, {'kind': 'simplex'})
    """
    return {"kind": w.kind} if w.var is None else {"kind": w.kind, "var": w.var}


def irreducible_factor_step(poly: dict, witness: Witness, heads: dict,
                            residue_component: int) -> dict[str, Any]:
    """The ``irreducible_factor`` step of one certified factor (sparse integer polynomial):
    ``heads`` maps every head whose denominator it divides to the exponent ``a_h``, the
    hint the checker verifies instead of searching the heads."""
    return {"rule": "irreducible_factor", "poly": to_json_poly(poly), "witness": witness_doc(witness),
            "heads": [[h, heads[h]] for h in sorted(heads)], "residue_component": residue_component}


def reduced_by_flint_step(numerators: list, denominator: dict) -> dict[str, Any]:
    """The ``reduced_by_flint`` step: the reduced form ``P/Q`` (rational numerators)."""
    return {"rule": "reduced_by_flint",
            "numerator": [_rational_poly(p) if p else [] for p in numerators],
            "denominator": to_json_poly({m: int(c) for m, c in denominator.items()})}
