"""``attnproof eval``: values of a problem's multi-head at query points."""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import InputError
from .common import (EXIT_OK, ProgressBar, add_common, ball_digits, nonneg_int, positive_int,
                     print_json)

NAME = "eval"
HELP = "evaluate a problem's heads at query points (float64 kernels or Arb balls)"
DESCRIPTION = """\
Evaluate the multi-head of PROBLEM (the sum of its heads) at query points.

Queries come from a NumPy file (--queries FILE.npy, shape (m, d), float64) or
are drawn at random (--random N, uniform in [-2, 2]^d, reproducible by --seed).
By default the values are float64, computed by a compiled kernel (log-sum-exp
with an online softmax over atom blocks): screening only, not evidence of
equality.  With --digits D they are Arb balls at about D digits, computed at
the exact binary value of every float query: rigorous enclosures.

examples:
  attnproof eval w4.json --random 5
  attnproof eval w4.json --queries q.npy -o values.npy
  attnproof eval w4.json --random 3 --digits 40 --json
"""

MAX_RANDOM = 10_000_000
MAX_QUERY_ENTRIES = 40_000_000     # N × d coordinates of --random (320 MB of float64)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("problem", metavar="PROBLEM", help="problem file (JSON, or YAML by extension)")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--queries", metavar="FILE.npy",
                     help="NumPy .npy file of queries, shape (m, d) (or (m,) when d = 1)")
    src.add_argument("--random", type=positive_int, metavar="N",
                     help=f"evaluate at N random queries in [-2, 2]^d (N <= {MAX_RANDOM}, "
                          f"N*d <= {MAX_QUERY_ENTRIES})")
    p.add_argument("--seed", type=nonneg_int, default=0, help="seed of --random (default 0)")
    p.add_argument("--digits", type=ball_digits, metavar="D",
                   help="rigorous Arb balls with about D digits instead of float64 values")
    p.add_argument("--kernel", choices=("auto", "numba", "numpy"), default="auto",
                   help="float64 back end: the Numba kernel, the NumPy reference, or auto "
                        "(Numba for large heads, NumPy for small ones; default auto)")
    p.add_argument("-o", "--output", metavar="OUT.npy",
                   help="save the values (float64, shape (m, value_dim); ball midpoints with --digits)")
    add_common(p)


def load_queries(path: str, dim: int):
    """Read a query array from a ``.npy`` file (no pickles), validated against ``dim``.

    >>> import numpy as np, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "q.npy")
    >>> save_array(path, np.array([[1.0, 2.0]]))
    >>> load_queries(path, 2).tolist()
    [[1.0, 2.0]]
    >>> load_queries(path, 3)
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: ...q.npy: queries must have shape (m, 3), got (1, 2)
    """
    import numpy as np

    from ..numeric import check_query_array

    try:
        a = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (ValueError, OSError, EOFError) as e:
        raise InputError(f"{path}: not a readable .npy array ({str(e).splitlines()[0] if str(e) else 'bad file'})") from None
    if not isinstance(a, np.ndarray):
        raise InputError(f"{path}: expected one array (.npy), not an archive")
    try:
        return check_query_array(a, dim)
    except InputError as e:
        raise InputError(f"{path}: {e}") from None


def save_array(path: str, a) -> None:
    """Write a ``.npy`` file atomically (temp file in the same folder, fsync, replace).

    >>> import numpy as np, tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> save_array(os.path.join(folder, "v.npy"), np.zeros(2))
    >>> sorted(os.listdir(folder))
    ['v.npy']
    """
    import numpy as np

    from ..io import atomic_write

    atomic_write(path, lambda fh: np.save(fh, a, allow_pickle=False))


def _float_text(x: float) -> str:
    return repr(float(x))


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from ..io import load_problem
    from ..numeric import evaluate_balls, evaluate_kernel, queries_from_array, random_query_array

    M = load_problem(args.problem)
    if args.random is not None:
        if args.random > MAX_RANDOM:
            raise InputError(f"--random {args.random} is over the limit {MAX_RANDOM}")
        if args.random * max(M.dim, 1) > MAX_QUERY_ENTRIES:
            raise InputError(f"--random {args.random} queries of dimension {M.dim} are "
                             f"{args.random * M.dim} coordinates, over the limit "
                             f"{MAX_QUERY_ENTRIES} (use fewer queries)")
        Q = random_query_array(M.dim, args.random, args.seed)
        source = {"random": args.random, "seed": args.seed}
    else:
        Q = load_queries(args.queries, M.dim)
        source = {"queries": args.queries}
    if args.output and os.path.isdir(args.output):
        raise InputError(f"{args.output}: is a directory")
    # the values as text or JSON only when they are shown: with -o alone they go to the file
    # (ten million rows as Python lists took two gigabytes)
    shown = bool(args.json or not args.output)
    doc: dict = {"verdict": "evaluated", "problem": args.problem, "heads": len(M), "dim": M.dim,
                 "value_dim": M.value_dim, "count": int(Q.shape[0]), **source}
    if args.digits is not None:
        qs = queries_from_array(Q, M.dim)
        vals = []
        with ProgressBar("ball evaluation") as bar:
            for i, q in enumerate(qs):
                vals.extend(evaluate_balls(M, [q], args.digits))
                bar(i + 1, len(qs))
        mids = np.array([[float(v.mid()) for v in row] for row in vals], dtype=np.float64)
        mids = mids.reshape(len(qs), M.value_dim)
        doc.update({"method": "arb", "digits": args.digits, "rigorous": True,
                    "note": "Arb balls at the exact binary value of each query: rigorous enclosures"})
        if shown:
            doc["values"] = [[v.str(args.digits, radius=True, more=True) for v in row]
                             for row in vals]
        out = mids
    else:
        n = max(len(h) for h in M.heads)
        kernel = args.kernel
        if kernel == "auto":
            kernel = "numba" if n * Q.shape[0] >= 1 << 20 else "numpy"
        out = evaluate_kernel(M, Q, method=kernel)
        doc.update({"method": f"float64-{kernel}", "rigorous": False,
                    "note": "float64 values: screening only, not evidence of equality"})
        if shown:
            doc["values"] = out.tolist()
    if args.output:
        save_array(args.output, out)
        doc["output"] = args.output
    if args.json:
        print_json(doc)
    else:
        print(f"# {doc['note']} ({doc['method']}); {doc['count']} queries, "
              f"{M.value_dim} value component(s)")
        if args.output:
            print(f"# written to {args.output}")
        else:
            for row in doc["values"]:
                print("  ".join(row) if args.digits is not None else "  ".join(_float_text(x) for x in row))
    sys.stdout.flush()
    return EXIT_OK
