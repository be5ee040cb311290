"""attnproof: exact fusion of softmax attention heads, with checkable proofs.

The public API (the command line is a thin layer over it):

>>> from attnproof import sigmoid_sum, fuse
>>> fuse(sigmoid_sum(3)).atoms
8
"""

from .errors import (AlgebraError, AttnproofError, CertificateError, InputError, LimitError,
                     NumberError, NumericError, SolverError, ValidationError)
from .model import Atom, Head, MultiHead
from .io import (canonical_json, dump_problem, load_problem, loads_problem, parse_number,
                 problem_from_dict, problem_sha256, problem_to_dict)
from .fusion import Fusion, ReducedForm, fuse, product_fusion, reduced_form
from .families import biased_sigmoid_sum, graph_sum, random_multihead, sigmoid_sum

__version__ = "0.1.0"

__all__ = [
    "AttnproofError", "InputError", "NumberError", "ValidationError", "LimitError",
    "AlgebraError", "CertificateError", "SolverError", "NumericError",
    "Atom", "Head", "MultiHead",
    "load_problem", "loads_problem", "dump_problem", "problem_from_dict", "problem_to_dict",
    "problem_sha256", "canonical_json", "parse_number",
    "Fusion", "ReducedForm", "fuse", "product_fusion", "reduced_form",
    "sigmoid_sum", "biased_sigmoid_sum", "graph_sum", "random_multihead",
    "__version__",
]
