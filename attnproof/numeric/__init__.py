"""Numerical evidence and refutation (THEORY §7): balls, mpmath, compiled kernels.

* :func:`ball_compare` / :func:`quick_ball_check` — rigorous ball comparison of a
  multi-head with a claimed fusion: ``"refuted"`` is a proof of inequality,
  ``"consistent"`` is evidence only, ``"undecided"`` is reported, never guessed.
* :func:`evaluate_balls` — Arb ball values of a head or multi-head.
* :func:`evaluate_mpmath` — an independent (non-rigorous) high-precision evaluator.
* :func:`evaluate_kernel` / :func:`evaluate_reference` — float64 batch values by a
  Numba kernel or the NumPy reference: screening only.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.fusion import fuse
>>> M = sigmoid_sum(2)
>>> quick_ball_check(M, fuse(M).to_head()).verdict
'consistent'
"""

from .balls import evaluate_balls, table_of
from .certificate import PRODUCT_CHECK_LIMIT, certificate_parts, numcheck_certificate
from .compare import (BallCheck, DEFAULT_DIGITS, DEFAULT_SAMPLES, Refutation, ball_compare,
                      ball_sign, cross_check, quick_ball_check, used_coordinates)
from .kernels import (evaluate_kernel, evaluate_reference, head_arrays, softmax_kernel,
                      softmax_reference)
from .mp import evaluate_mpmath, mpf_to_fraction
from .precision import arb_precision, digits_to_bits, mp_context
from .queries import (check_query_array, format_query, queries_from_array, random_queries,
                      random_query_array)

__all__ = ["numcheck_certificate", "certificate_parts", "PRODUCT_CHECK_LIMIT", "ball_compare", "quick_ball_check", "ball_sign", "cross_check", "mpf_to_fraction", "BallCheck", "Refutation",
           "evaluate_balls", "table_of", "evaluate_mpmath", "evaluate_kernel", "evaluate_reference",
           "softmax_kernel", "softmax_reference", "head_arrays", "arb_precision", "digits_to_bits",
           "mp_context", "random_queries", "random_query_array", "queries_from_array",
           "format_query", "DEFAULT_DIGITS", "DEFAULT_SAMPLES", "check_query_array",
           "used_coordinates"]
