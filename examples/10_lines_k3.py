"""Line refutations: the triangle K_3 needs 7 atoms, for every fusion (no window).

The graph sum of K_3 has reduced denominator Q = (x0 + x1)(x0 + x2)(x1 + x2), a
monomial times three binomials 1 + x^g with g = e_i − e_j.  Every fusion's
denominator D has positive coefficients and Q | D (Theorem 2), and by Lemma 12.1
that means: on every line s + Z·g the alternating sum of D's coefficients is 0.
So "is there a fusion with at most k atoms?" implies "is there a set of at most
k lattice points with positive weights whose alternating sums vanish on every
line?" — one SMT query over unbounded integers (THEORY Cor 12.2).

1. The Newton bound is 6 (acyclic orientations, counted here by brute force).
2. k = 6: z3 and cvc5 both answer unsat, so every fusion has at least 7 atoms.
3. k = 7: sat; the support is printed, its line sums are re-checked here in plain
   Python, and it is completed to a fusion that is verified exactly.
4. The certificate: the checker verifies every exact step and that the three
   directions are factors of Q, and leaves the unsat to the replay, which
   re-encodes the query from the problem and re-runs both solvers.

Run:  python examples/10_lines_k3.py
"""

import json
from fractions import Fraction

from attnproof import graph_sum
from attnproof.checker import check_text
from attnproof.checking import after_replay
from attnproof.families import named_graph
from attnproof.smt.certify import line_certificate
from attnproof.smt.line_query import line_query
from attnproof.smt.replay import replay_step

from _independent import acyclic_orientations_brute_force


def line_sums_vanish(D: dict, directions) -> bool:
    """Lemma 12.1 checked directly: every alternating sum along every line is zero.

    For a direction g whose first non-zero entry is 1 (the edges e_i - e_j), the point
    s lies on the line through s - s_j·g at offset t = s_j.
    """
    for g in directions:
        j = next(i for i, x in enumerate(g) if x)
        assert g[j] == 1
        sums: dict = {}
        for s, c in D.items():
            base = tuple(a - s[j] * b for a, b in zip(s, g))
            sums[base] = sums.get(base, Fraction(0)) + c * (-1) ** s[j]
        if any(v != 0 for v in sums.values()):
            return False
    return True


def main() -> None:
    G = named_graph("complete", 3)
    M = graph_sum(G)
    edges = [(0, 1), (0, 2), (1, 2)]
    newton = acyclic_orientations_brute_force(edges)
    print(f"K_3: Newton bound {newton} (acyclic orientations)")

    low = line_query(M, 6, timeout=120)
    assert low.result == "unsat" and all(r.result == "unsat" for r in low.solvers.values())
    print(f"k = 6: unsat (z3 and cvc5): every fusion has at least 7 atoms "
          f"[{low.encoding.stats['bytes']} bytes of SMT-LIB2, no window]")

    high = line_query(M, 7, timeout=120)
    assert high.result == "sat" and high.fusion is not None
    print(f"k = 7: sat, a support of {len(high.support)} points:")
    for p in high.support:
        print(f"   {p}")
    f = high.fusion
    D = {tuple(int(x) for x in a.key): a.weight for a in f.to_head().atoms}
    assert line_sums_vanish(D, high.factors.directions)
    print(f"completed to a fusion with {f.atoms} atoms, verified exactly; its denominator's "
          f"line sums vanish in every direction {[list(g) for g in high.factors.directions]}")

    text = line_certificate(M, None, low).text
    v = check_text(text)
    assert v.status == "inconclusive" and v.line_steps
    step_index = v.line_steps[0]
    ok, message = replay_step(json.loads(text)["steps"][step_index], timeout=120, problem=M)
    v = after_replay(v, [(step_index, ok, message)])
    assert v.status == "valid" and v.minimum == 7
    print(f"certificate: checker {check_text(text).status} alone, {v.status} after replay: "
          f"minimum {v.minimum}, trust {v.trust}")


if __name__ == "__main__":
    main()
