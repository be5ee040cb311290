"""Safe exact input and output, in three rooms and one for arrays.

* :mod:`.numbers` -- the number syntax (exact rationals; JSON floats refused);
* :mod:`.problem` -- the problem format: parse, validate, canonical form, hash;
* :mod:`.files` -- bounded strict reads, canonical JSON text, atomic writes;
* :mod:`.npz` -- problems from NumPy ``.npz`` archives (exact binary values).

The names below are the public ones of all of them.

>>> parse_number("0.1")
Fraction(1, 10)
>>> parse_number(0.5)
Traceback (most recent call last):
...
attnproof.errors.NumberError: 0.5 is a JSON float; write exact numbers as integers or strings such as "1/2" or "0.5"
"""

from __future__ import annotations

from .files import (MAX_FILE_BYTES, atomic_write, atomic_write_text, canonical_json, loads_json,
                    paused_gc, read_json_file, read_text_file)
from .numbers import decimal_string, format_number, parse_number
from .problem import (PROBLEM_FORMAT, PROBLEM_VERSION, SPARSE_KEY_DIM, as_problem, dump_problem,
                      key_to_json, load_problem, loads_problem, problem_from_dict, problem_sha256,
                      problem_to_dict, sparse_key_to_json)

__all__ = [
    "parse_number", "format_number", "load_problem", "loads_problem", "problem_to_dict",
    "problem_from_dict", "as_problem", "canonical_json", "problem_sha256", "dump_problem",
    "atomic_write", "atomic_write_text", "read_json_file", "read_text_file", "key_to_json",
    "sparse_key_to_json", "decimal_string", "loads_json", "paused_gc", "MAX_FILE_BYTES",
    "PROBLEM_FORMAT", "PROBLEM_VERSION", "SPARSE_KEY_DIM",
]
