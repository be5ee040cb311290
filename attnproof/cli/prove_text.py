"""The text of ``attnproof prove``: its help and its report for a person."""

from __future__ import annotations

from typing import Any

DEFAULT_LINES_TIMEOUT = 120.0    # attnproof.smt.DEFAULT_LINES_TIMEOUT (not imported: --help stays light)
MAX_AUTO_LINE_POINTS = 64        # attnproof.smt.MAX_AUTO_LINE_POINTS

DESCRIPTION = """\
Prove the lower bound (as 'attnproof bound') and an upper bound (the best
verified fusion of 'attnproof fuse', embedded in the certificate, or the
product fusion counted without building it), and write a
certificate that 'attnproof check' re-verifies with a small independent
checker.  The certificate is checked before it is written; identical inputs
give byte-identical certificates.  Format: docs/certificates.md.

minimum is the proven minimum atom count when the bounds meet, else null.

line refutations (THEORY §12): when a gap remains and the reduced denominator
has binomial factors 1 + c·x^g, prove asks the windowless line query with z3 and
cvc5 (every 'unsat' is a lower bound for every fusion), within --lines-timeout
seconds in all (default %(default_lines)s).  A lower bound raised this way has trust
line-refuted: 'attnproof check CERT --replay' re-solves it, and only then is the
certificate valid.  It is not asked when the exact steps close the gap, for
problems with biases, when the lower bound exceeds %(auto)s points (then
'--lines' asks it anyway) or when z3 or cvc5 is not installed; '--no-lines'
turns it off.

limits: the fusion is built only when its size, estimated before allocation,
is within --max-atoms, and embedded when it has at most
--explicit-fusion-limit atoms (a large embedded fusion makes a large
certificate that takes longer to check).

examples:
  attnproof prove w10.json                     # the bounds only
  attnproof prove w10.json -o w10.cert.json
  attnproof prove w10.json -o - | attnproof check /dev/stdin
  attnproof prove w1000.json -o w1000.cert.json --json
  attnproof prove k3.json -o k3.cert.json      # minimum 7 by a line refutation
  attnproof check k3.cert.json --replay        # re-solves it: valid
  attnproof prove c5.json --lines-timeout 600  # more time for the line queries
  attnproof prove c4.json --no-lines           # exact steps only (lower bound 14)
""".replace("%(default_lines)s", f"{DEFAULT_LINES_TIMEOUT:g}").replace("%(auto)s",
                                                                        str(MAX_AUTO_LINE_POINTS))


def print_report(proved: Any, output: str | None) -> None:
    """The bounds, the line queries and the notes of a :class:`attnproof.proving.Proved`."""
    from ..checker import show_count
    from .glossary import words_line

    v, cert, lines = proved.verdict, proved.certificate, proved.lines
    mn = v.minimum
    print(f"lower bound {show_count(v.lower_bound)}, upper bound {show_count(v.upper_bound)}, "
          f"minimum {show_count(mn) if mn is not None else 'unknown (the bounds differ)'}, "
          f"trust {v.trust}")
    if cert.upper_note and mn is None:
        print(f"  {cert.upper_note}")
    if lines is not None:
        for q in lines.steps:
            print(f"  line query k = {q.target}: {q.result} [{q.seconds:.1f} s]"
                  + (f" ({q.reason})" if q.reason else ""))
        if v.line_steps:
            print(f"  the lower bound {show_count(v.lower_bound)} rests on a line refutation "
                  f"(z3 and cvc5; the exact steps prove {show_count(v.exact_lower_bound)}): "
                  f"'attnproof check {output or 'CERT'} --replay' re-proves it")
    if mn is None:
        for n in proved.notes():
            print(f"  note: {n}")
    elif proved.budget_note:
        print(f"  note: {proved.budget_note}")
    if output:
        print(f"  certificate written to {output} ({len(proved.text)} bytes, checked)")
    else:
        print(f"  certificate checked ({len(proved.text)} bytes), not kept: give -o CERT to "
              f"write it")
    print(words_line([f"trust {v.trust}"] + (["line query"] if lines is not None else [])))
