"""SMT search: refuting a smaller fusion inside a window, and what the window means.

By Theorem 2 every exact fusion has denominator Q·G for a multiplier G.  The
search fixes a finite window W of exponents for G (a box of radius w) and asks
two SMT solvers (z3, then cvc5 to confirm) whether some G supported in W makes
Q·G a head with at most k atoms (THEORY §6).

* "sat" comes with a witness, rebuilt with exact rationals and verified.
* "unsat" means: no fusion with at most k atoms has its G inside W.  It is not
  a lower bound: a larger G might still work.

Part 1 shows the difference on the problem of example 06 (Q = x^2 − x + 1):
with the window {0} (G constant) even k = 4 is refuted, yet a 4-atom fusion
exists and is found in the radius-1 window.  So a refutation says nothing
outside its window.

Part 2 refutes k = 3 for that problem in growing windows: the minimum is 3 or
4, and every 3-atom fusion would need a large multiplier.

Part 3: the triangle K_3 has Newton bound 6 and a 7-atom fusion; k = 6 is
refuted for G in radius 1 and 2 boxes.  Graph sums are homogeneous, so the
window lives in the free coordinates only (the search reports them).

Run:  python examples/08_window_search.py
"""

import importlib.util
from pathlib import Path

from attnproof import fuse, graph_sum, reduced_form
from attnproof.families import named_graph
from attnproof.smt import newton_lower_bound, search_fusion

from _independent import vertices_by_lp


def example06_problem():
    """The multi-head of examples/06_negative_coefficients.py."""
    path = Path(__file__).with_name("06_negative_coefficients.py")
    spec = importlib.util.spec_from_file_location("negative_coefficients", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.problem()


def describe(res) -> str:
    """One line: result, window, solvers."""
    solvers = ", ".join(f"{name} {run.result}" for name, run in sorted(res.solvers.items()))
    extra = f", witness with {res.atoms} atoms verified exactly" if res.result == "sat" else ""
    return (f"k = {res.target}, box radius {res.window.radius} "
            f"({len(res.window)} exponents for G): {res.result} [{solvers}]{extra}")


def main() -> None:
    M = example06_problem()
    best = fuse(M)
    print("Part 1: a refutation is only about its window")
    tiny = search_fusion(M, best.atoms, 0, timeout=60)
    found = search_fusion(M, best.atoms, 1, timeout=60)
    assert tiny.result == "unsat" and set(tiny.solvers) == {"z3", "cvc5"}
    assert found.result == "sat" and found.atoms == best.atoms
    print("  " + describe(tiny))
    print("  " + describe(found))

    print("Part 2: three atoms, refuted in growing windows")
    for radius in (1, 3):
        res = search_fusion(M, best.atoms - 1, radius, timeout=60)
        assert res.result == "unsat"
        print("  " + describe(res))

    print("Part 3: the triangle K_3")
    K3 = graph_sum(named_graph("complete", 3))
    r_bound = len(vertices_by_lp(reduced_form(K3).support_x()))   # independent: one LP per point
    bound, kind = newton_lower_bound(K3)
    f = fuse(K3)
    assert r_bound == 6 and f.atoms == 7 and kind in ("newton", "trivial")
    if kind == "newton":
        assert bound == r_bound
    for radius in (1, 2):
        res = search_fusion(K3, r_bound, radius, timeout=60)
        assert res.result == "unsat"
        print(f"  window in coordinates {list(res.frame.free)} (the lineality {res.frame.to_dict()['lineality']} "
              f"is removed): " + describe(res))
    print(f"K_3: {r_bound} atoms proven necessary, {f.atoms} found, {r_bound} refuted for small G only")


if __name__ == "__main__":
    main()
