"""``attnproof demo``: the exponential separation of the sigmoid sum ``W_d``."""

from __future__ import annotations

import argparse

from .common import EXIT_OK, ProgressBar, add_common, add_max_atoms, positive_int

NAME = "demo"
HELP = "print the W_d table: 2d head-atom terms vs 2^d fused atoms"
DESCRIPTION = """\
The headline example.  W_d(q) = sigma(q_1) + ... + sigma(q_d) is d heads of two
atoms each (2d head-atom terms), yet every exact single head needs 2^d atoms.
For each d the demo builds W_d, fuses it exactly and proves the minimum with a
certificate that the independent checker accepts.

A fusion whose size (estimated before it is built) exceeds --max-atoms is not
built: its row shows no fused atoms, and the proven minimum still comes from
the structural certificate, which needs no fusion.
"""


MAX_DEMO_D = 200           # every row is proven and checked: quadratic in D (1000: minutes)


def _max_d(text: str) -> int:
    d = positive_int(text)
    if d > MAX_DEMO_D:
        raise argparse.ArgumentTypeError(f"{text!r} is over {MAX_DEMO_D} (the table proves every "
                                         "row; use 'attnproof family' and 'attnproof prove' for "
                                         "one large d)")
    return d


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-d", type=_max_d, default=8, metavar="D",
                   help=f"last d of the table (default 8, at most {MAX_DEMO_D}: one row per d, "
                        "each proven)")
    add_max_atoms(p)
    add_common(p)


def rows(max_d: int, max_atoms: int | None = None, progress=None) -> list[dict]:
    """One row per d: heads, head-atom terms, fused atoms (None over ``max_atoms``), proven minimum."""
    from ..algebra import fusion_size_bound
    from ..families import sigmoid_sum
    from ..fusion import DEFAULT_MAX_ATOMS, fuse

    limit = DEFAULT_MAX_ATOMS if max_atoms is None else max_atoms
    out = []
    for d in range(1, max_d + 1):
        M = sigmoid_sum(d)
        f = fuse(M, max_atoms=limit) if fusion_size_bound(M) <= limit else None
        out.append({"d": d, "heads": len(M), "head_atom_terms": M.head_atom_terms,
                    "atoms": None if f is None else f.atoms,
                    "method": None if f is None else f.method,
                    "minimum": _proven_minimum(M, limit)})
        if progress is not None:
            progress(d, max_d)
    return out


def _proven_minimum(M, max_atoms: int) -> int | None:
    """The minimum atom count, proven by a certificate that the independent checker accepts."""
    from ..certificate import build_certificate
    from ..checker import check_text

    # the product fusion rule is the upper bound: nothing large is embedded or re-verified
    v = check_text(build_certificate(M, max_atoms=max_atoms, explicit_fusion_limit=16).text)
    return v.minimum if v.code == 0 else None


def run(args: argparse.Namespace) -> int:
    from .common import print_json

    with ProgressBar("W_d table") as bar:
        table = rows(args.max_d, args.max_atoms, progress=bar)
    if args.json:
        print_json({"verdict": "computed", "rows": table, "max_atoms": args.max_atoms})
        return EXIT_OK
    from ..checker import show_count

    print("W_d(q) = sigma(q_1) + ... + sigma(q_d): d heads of 2 atoms each")
    print()
    cols = [("d", "d"), ("heads", "heads"), ("head_atom_terms", "head-atom terms"),
            ("atoms", "fused atoms"), ("minimum", "proven minimum")]
    cells = [[show_count(r[k]) if k in ("atoms", "minimum") and r[k] is not None
              else "-" if r[k] is None else str(r[k]) for k, _ in cols] for r in table]
    widths = [max(len(t), *(len(c[i]) for c in cells)) for i, (_, t) in enumerate(cols)]
    print("  ".join(t.rjust(w) for (_, t), w in zip(cols, widths)))
    for c in cells:
        print("  ".join(x.rjust(w) for x, w in zip(c, widths)))
    print()
    print("head-atom terms grow like 2d, fused atoms like 2^d; 'proven minimum' is the")
    print("minimum atom count of every exact fusion, certified and independently checked.")
    if any(r["atoms"] is None for r in table):
        print(f"'-': the fusion would exceed --max-atoms {args.max_atoms} and was not built "
              "(the minimum is still proven)")
    return EXIT_OK
