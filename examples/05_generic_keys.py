"""Generic real keys: two heads of three atoms in 3-D, and which key sums are vertices.

With keys in general position nothing cancels: Q = D1·D2 and the product
fusion has all 3 × 3 = 9 sums k + k' of one key per head as atoms.  The Newton
polytope of Q is the Minkowski sum of the two key triangles, and a sum k + k'
is a vertex exactly when one linear functional c is maximized uniquely at k on
the first head's keys and at k' on the second's (THEORY, Lemma 6).  The sums
that are not vertices are the atoms the lower bound cannot account for.

Two independent computations agree here: the exact 3-D convex hull of the nine
points, and one LP per pair (k, k') for the Lemma 6 functional.

Run:  python examples/05_generic_keys.py
"""

from fractions import Fraction

from attnproof import fuse, loads_problem, reduced_form
from attnproof.bounds import lower_bound
from attnproof.plot import hull_3d

from _independent import is_vertex_by_lp

PROBLEM = """{
  "format": "attnproof-problem", "version": 1, "dim": 3,
  "heads": [
    {"name": "h1", "atoms": [
      {"key": ["0.9", "0.1", "0.3"], "value": "1.5"},
      {"key": ["-0.2", "0.8", "0.5"], "value": "-0.5"},
      {"key": ["0.1", "-0.7", "0.6"], "value": "0.25"}]},
    {"name": "h2", "atoms": [
      {"key": ["0.4", "0.6", "-0.9"], "value": "2"},
      {"key": ["-0.8", "-0.3", "0.2"], "value": "0.75"},
      {"key": ["0.3", "-0.4", "0.7"], "value": "-1"}]}
  ]
}"""


def lemma6_vertex(u, v, keys1, keys2) -> bool:
    """Is (u, v) the decomposition of a vertex?  One functional c, maximized
    uniquely at u over keys1 and at v over keys2 (an exact LP on the differences)."""
    diffs = [tuple(a - b for a, b in zip(u, w)) for w in keys1 if w != u]
    diffs += [tuple(a - b for a, b in zip(v, w)) for w in keys2 if w != v]
    zero = (0,) * len(u)
    return is_vertex_by_lp(zero, [tuple(-x for x in d) for d in diffs]) is not None


def main() -> None:
    M = loads_problem(PROBLEM)
    r = reduced_form(M)
    lat = r.lattice
    keys = [[lat.exponent(a) for a in h.atoms] for h in M.heads]
    sums = {tuple(a + b for a, b in zip(u, v)): (i, j)
            for i, u in enumerate(keys[0]) for j, v in enumerate(keys[1])}
    true_support = {e for e, _, _ in r.frac.terms()}           # exponents with the shift applied
    assert len(sums) == 9 and true_support == set(sums)         # nothing cancels: Q = D1·D2
    hull_vertices, facets = hull_3d(list(sums))
    by_lemma6 = {s for s, (i, j) in sums.items() if lemma6_vertex(keys[0][i], keys[1][j], keys[0], keys[1])}
    assert set(hull_vertices) == by_lemma6
    f = fuse(M)
    assert f.atoms == 9 and 0 < len(by_lemma6) < 9
    proven = lower_bound(M)
    assert proven.value == len(by_lemma6)
    print(f"keys scaled by {lat.scales} to integers; Newt(Q) has {len(facets)} facets")
    for s, (i, j) in sorted(sums.items(), key=lambda kv: kv[1]):
        key = tuple(Fraction(c, sc) for c, sc in zip(s, lat.scales))
        mark = "vertex" if s in by_lemma6 else "not a vertex"
        print(f"  k{i + 1} + k'{j + 1} = ({', '.join(str(float(c)) for c in key)}): {mark}")
    print(f"lower bound {len(by_lemma6)} (vertices), best fusion {f.atoms} atoms (all nine sums)")


if __name__ == "__main__":
    main()
