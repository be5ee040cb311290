"""``attnproof fuse``: the exact single-head fusion of a problem."""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import LimitError, NumberError
from .common import EXIT_OK, ProgressBar, add_common, add_max_atoms, nonneg_int, plural, print_json

NAME = "fuse"
HELP = "fuse a multi-head into one exact head (reduced form, lcm or product fusion)"
DESCRIPTION = """\
Fuse the heads of PROBLEM into one head that computes exactly the same function.

The fusion is the first of these that is a valid head (THEORY §3): the reduced
denominator Q itself (positive coefficients and supp P within supp Q), the lcm
of the head denominators, or the product fusion.  The result is exact; before
it is reported the polynomial identity N/D = sum of the N_h/D_h is checked
exactly in integer polynomials (FLINT; exponents of any length, no sample
points).  Atoms are counted as distinct keys.

--max-atoms limits the fusion that is built: its size is estimated from the
head supports (the product of the head sizes, the box and the degree slice
that every intermediate polynomial fits in) before anything is allocated.

examples:
  attnproof fuse w4.json
  attnproof fuse w4.json -o fused.json --json
"""


MAX_VERIFY_POINTS = 100


def _verify_points(text: str) -> int:
    k = nonneg_int(text)
    if k > MAX_VERIFY_POINTS:
        raise argparse.ArgumentTypeError(f"{text!r} is over {MAX_VERIFY_POINTS} points")
    return k


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("problem", metavar="PROBLEM", help="problem file (JSON, or YAML by extension)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the fused head as a one-head problem file")
    p.add_argument("--verify", type=_verify_points, default=2, metavar="K",
                   help=f"0 skips the exact identity check of the fused head against the "
                        f"multi-head; any other K (default 2, at most {MAX_VERIFY_POINTS}) "
                        f"runs it once (a count of points in earlier versions)")
    p.add_argument("--seed", type=int, default=0,
                   help="unused: the identity check draws no points (default 0)")
    add_max_atoms(p)
    add_common(p)


def _overlong_number(a: dict) -> str | None:
    """Why a number of the atom document ``a`` breaks the input limits (more than
    ``MAX_DIGITS`` digits in an integer, numerator or denominator), or None.

    Linear in the numbers, with no parsing: re-reading a million-atom fusion took longer
    than building it.

    >>> _overlong_number({"key": [1, "1/" + "9" * 2001], "value": 0})
    'a number with more than 2000 digits'
    >>> _overlong_number({"key": [10 ** 1999], "value": 0}) is None   # 2000 digits
    True
    """
    from ..checker.limits import MAX_DIGITS, fits_digits
    from ..io import parse_number

    def long(x) -> bool:
        if type(x) is int:
            return not fits_digits(x)
        if not isinstance(x, str) or len(x) <= MAX_DIGITS:
            return False
        try:                    # rare: a long decimal or "p/q" is read as a problem file reads it
            parse_number(x)
        except NumberError:
            return True
        return False

    key = a["key"]
    nums = list(key.values() if isinstance(key, dict) else key)
    v = a["value"]
    nums.extend(v if isinstance(v, list) else [v])
    nums.extend(a[k] for k in ("bias", "weight") if k in a)
    if any(long(x) for x in nums):
        return f"a number with more than {MAX_DIGITS} digits"
    return None


def _write_fused(path: str, f, dim: int) -> None:
    """Write ``f.to_problem_dict()`` as canonical JSON (the same bytes as
    ``canonical_json``), one atom at a time (:meth:`Fusion.atom_json`): a million-atom
    fusion held as documents and text took two gigabytes.

    One pass over the atoms: each atom is checked as it is written (what is written must
    read back, :func:`_overlong_number`), and the check reads back only an atom whose
    JSON text is longer than ``MAX_DIGITS`` characters, since no number of a shorter text
    can have more digits.  A refused atom raises :class:`LimitError` (exit 3); the
    temporary file is removed, so no file is written (a pipe or device, written through,
    has then received a truncated document, which no reader accepts as JSON).
    """

    from ..checker.limits import MAX_DIGITS
    from ..io import PROBLEM_FORMAT, PROBLEM_VERSION, atomic_write

    def dump(x) -> bytes:
        return json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                          allow_nan=False).encode("ascii")

    def check(i: int, text: str) -> None:
        try:
            bad = _overlong_number(json.loads(text))
        except ValueError:      # an integer past Python's own limit on its digits
            bad = f"a number with more than {MAX_DIGITS} digits"
        if bad is not None:
            raise LimitError(f"the fused head cannot be written as a problem file: atom {i}: {bad}")

    def write(fh) -> None:
        fh.write(b'{"dim":' + dump(dim) + b',"format":' + dump(PROBLEM_FORMAT)
                 + b',"heads":[{"atoms":[')
        buf = []
        sep = b""
        try:
            for i, text in enumerate(f.atom_json()):
                if len(text) > MAX_DIGITS:
                    check(i, text)
                buf.append(text)
                if len(buf) >= 4096:
                    fh.write(sep + ",".join(buf).encode("ascii"))
                    sep = b","
                    buf.clear()
        except ValueError as e:  # str() of an integer past Python's limit on its digits
            if "digits" not in str(e):
                raise
            raise LimitError("the fused head cannot be written as a problem file: "
                             f"a number with more than {MAX_DIGITS} digits") from None
        if buf:
            fh.write(sep + ",".join(buf).encode("ascii"))
        fh.write(b'],"name":"fused"}],"version":' + dump(PROBLEM_VERSION) + b"}\n")

    atomic_write(path, write)


def run(args: argparse.Namespace) -> int:
    from ..fusion import fuse
    from ..io import load_problem

    M = load_problem(args.problem)
    with ProgressBar("fusing heads") as bar:
        f = fuse(M, max_atoms=args.max_atoms, progress=bar)
    f.verify(args.verify, args.seed)
    if args.output:
        _write_fused(args.output, f, M.dim)      # refuses what would not read back
    summary = {"verdict": "fused", "atoms": f.atoms, "entries": f.entries, "heads": len(M),
               "head_atom_terms": M.head_atom_terms, "method": f.method,
               "verified_points": args.verify, "output": args.output}
    if args.json:
        print_json(summary)
    else:
        print(f"{plural(len(M), 'head')} with {M.head_atom_terms} head-atom terms "
              f"{'fuses' if len(M) == 1 else 'fuse'} exactly into one head "
              f"with {plural(f.atoms, 'atom')} ({f.method} fusion)")
        if f.entries != f.atoms:
            print(f"  {f.entries} (key, bias) entries: atoms sharing a key differ in bias")
        if args.output:
            print(f"  written to {args.output}")
        if f.method != "reduced":           # 'reduced' is explained where it is printed first
            from .glossary import words_line

            print(words_line([f.method]))
    sys.stdout.flush()
    return EXIT_OK
