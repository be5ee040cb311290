"""How large a fusion can get, estimated before anything is built (the ``--max-atoms`` guard).

Every polynomial the fusion code builds (the product fusion, the lcm of the
head denominators, the reduced form ``P/Q`` and its intermediate sums) divides,
or has the support of a divisor of, the product ``Π_h D_h``.  Its Newton
polytope is then a Minkowski summand of ``Σ_h Newt(D_h)``, so its support fits
in a box whose widths are those of the product, and, when every head is
homogeneous in the ``x`` coordinates, in one slice ``Σ_j e_j = t`` of that box.
Heads in disjoint coordinates multiply independently (Lemma 5).  The estimate
is, per group of heads sharing coordinates, the smallest of

* ``Π_h |H_h|`` (distinct (key, bias) entries: the product fusion's bound),
* the lattice points of the box, and
* the largest slice of the box (homogeneous groups),

multiplied over the groups.

>>> from attnproof.families import graph_sum, sigmoid_sum
>>> import networkx as nx
>>> fusion_size_bound(sigmoid_sum(30)) == 2 ** 30
True
>>> fusion_size_bound(graph_sum(nx.complete_graph(7)))      # 2^21 by the product
60691
"""

from __future__ import annotations

from ..heads import MultiHead
from .lattice import Lattice

__all__ = ["fusion_size_bound", "box_slice_max"]

_SLICE_WORK = 10_000_000        # skip the slice refinement beyond this much counting work



def exact_product(ns) -> int:
    """``Π ns`` of non-negative integers, in time near-linear in the size of the result.

    Multiplying a growing product one factor at a time is quadratic in its length
    (``2^100000`` from 100,000 factors 2); equal factors are raised to their count
    and the powers multiplied pairwise instead.

    >>> exact_product([2] * 100000) == 2 ** 100000, exact_product([]), exact_product([3, 4, 3])
    (True, 1, 36)
    """
    counts: dict = {}
    for n in ns:
        counts[n] = counts.get(n, 0) + 1
    parts = [pow(n, k) for n, k in counts.items()]
    while len(parts) > 1:
        parts = [parts[i] * parts[i + 1] if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]
    return parts[0] if parts else 1


def box_slice_max(widths: list[int]) -> int:
    """``max_t #{e ∈ Π [0, w_j] : Σ e_j = t}``: the largest slice of an integer box.

    >>> box_slice_max([1, 1, 1]), box_slice_max([2, 2])
    (3, 3)
    """
    coeffs = [1]
    for w in widths:
        if w == 0:
            continue
        # multiply by 1 + x + ... + x^w with a running window sum
        out = [0] * (len(coeffs) + w)
        run = 0
        for i in range(len(out)):
            if i < len(coeffs):
                run += coeffs[i]
            if i - w - 1 >= 0:
                run -= coeffs[i - w - 1]
            out[i] = run
        coeffs = out
    return max(coeffs)


def fusion_size_bound(M: MultiHead, lattice: Lattice | None = None) -> int:
    """An upper bound on the terms of every polynomial a fusion of ``M`` builds (see the module)."""
    lat = lattice if lattice is not None else Lattice.of(M)
    dim = lat.dim
    heads = []             # (entries, {coordinate: width}, homogeneous); coordinate dim is z
    for h in M.heads:
        # sparse exponents: work linear in the non-zero key coordinates, never in dim
        exps = {lat.sparse_exponent(a) for a in h.atoms}
        lo: dict = {}
        hi: dict = {}
        seen: dict = {}
        degrees = set()
        for e in exps:
            deg = 0
            for j, x in e:
                if j not in lo:
                    lo[j] = hi[j] = x
                elif x < lo[j]:
                    lo[j] = x
                elif x > hi[j]:
                    hi[j] = x
                seen[j] = seen.get(j, 0) + 1
                if j < dim:
                    deg += x
            degrees.add(deg)
        n = len(exps)
        for j, k in seen.items():          # a coordinate some exponent lacks is 0 there
            if k < n:
                lo[j], hi[j] = min(lo[j], 0), max(hi[j], 0)
        widths = {j: hi[j] - lo[j] for j in sorted(lo) if hi[j] > lo[j]}
        heads.append((n, widths, len(degrees) == 1))
    # group heads that share a varying coordinate (union-find over coordinates)
    parent: dict = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, (_, widths, _) in enumerate(heads):
        for j in widths:
            parent[find(("c", j))] = find(("h", i))
        find(("h", i))
    groups: dict = {}
    for i in range(len(heads)):
        groups.setdefault(find(("h", i)), []).append(i)
    total = 1
    for members in groups.values():
        prod = 1
        width: dict = {}
        homogeneous = True
        for i in members:
            n, widths, hom = heads[i]
            prod *= n
            homogeneous = homogeneous and hom
            for j, w in widths.items():
                width[j] = width.get(j, 0) + w
        box = 1
        for w in width.values():
            box *= w + 1
        best = min(prod, box)
        xw = [w for j, w in width.items() if j < dim]
        # the largest slice holds at least box / (Σ widths + 1) points: skip the count
        # when that already exceeds the best bound (e.g. many heads of few atoms)
        if (homogeneous and best > 1 and best * (sum(xw) + 1) > box
                and len(xw) * sum(xw) <= _SLICE_WORK):
            zpart = 1
            for j, w in width.items():
                if j >= dim:
                    zpart *= w + 1
            best = min(best, box_slice_max(xw) * zpart)
        total *= best
    return total
