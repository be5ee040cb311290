"""Exact algebra kernel: the exponent lattice and heads as fractions over exp atoms.

python-flint does the polynomial arithmetic; SymPy is used only for display
(:mod:`attnproof.display.formulas`).
"""

from .lattice import Lattice
from .expfrac import (ExpFraction, evaluate_poly, head_fraction, poly_context, poly_from_dict,
                      poly_to_dict, to_fraction)
from .evaluate import evaluate_head, evaluate_multihead, random_point
from .budget import factor_obstacle, flint_obstacle
from .sizes import fusion_size_bound

__all__ = ["Lattice", "ExpFraction", "head_fraction", "poly_context", "poly_to_dict",
           "poly_from_dict", "evaluate_poly", "to_fraction", "evaluate_head",
           "evaluate_multihead", "random_point", "factor_obstacle", "flint_obstacle",
           "fusion_size_bound"]
