"""Vector-valued heads with an output projection, as in a transformer layer.

A multi-head attention layer computes y(q) = Σ_h W_O^h · H_h(q), where head h
returns a vector in R^{d_v} and W_O^h maps it to the model dimension.  The
projection is linear, so it is absorbed into the values: atom i of head h gets
the value W_O^h v_i, and the layer is a multi-head with vector values.  All
output components share one reduced denominator Q, so the atom-count question
is the same as for scalar heads.

Here: two heads with 2-dimensional values in 2-D queries, projected to R^3.
The fused head is checked exactly against the layer computed the usual way
(softmax weights, then value vectors, then the matrix W_O).

Run:  python examples/07_vector_values.py
"""

import random
from fractions import Fraction as F

from attnproof import Atom, Head, MultiHead, fuse, reduced_form
from attnproof.bounds import lower_bound

from _independent import vertices_by_lp

KEYS = [[(1, 0), (0, 1), (0, 0)], [(1, 1), (-1, 0)]]
VALUES = [[(F(1), F(0)), (F(0), F(2)), (F(-1), F(1))], [(F(3), F(1)), (F(1, 2), F(-2))]]
W_O = [[[F(1), F(0)], [F(0), F(1)], [F(1), F(1)]],            # head 1: R^2 -> R^3
       [[F(2), F(-1)], [F(1, 3), F(0)], [F(0), F(1)]]]        # head 2: R^2 -> R^3


def matvec(W, v):
    """Exact matrix-vector product."""
    return tuple(sum(w * x for w, x in zip(row, v)) for row in W)


def layer_reference(x):
    """Σ_h W_O^h · softmax-average of the values, at x_j = e^{q_j} (integer keys)."""
    out = [F(0)] * 3
    for keys, values, W in zip(KEYS, VALUES, W_O):
        weights = []
        for k in keys:
            t = F(1)
            for kj, xj in zip(k, x):
                t *= xj ** kj
            weights.append(t)
        total = sum(weights)
        avg = [sum(w * v[c] for w, v in zip(weights, values)) / total for c in range(2)]
        for c, y in enumerate(matvec(W, avg)):
            out[c] += y
    return tuple(out)


def absorbed_multihead() -> MultiHead:
    """The layer as a multi-head: each value is replaced by W_O^h v."""
    heads = []
    for h, (keys, values, W) in enumerate(zip(KEYS, VALUES, W_O)):
        heads.append(Head(tuple(Atom(k, matvec(W, v)) for k, v in zip(keys, values)), name=f"head{h + 1}"))
    return MultiHead(tuple(heads))


def main() -> None:
    M = absorbed_multihead()
    assert M.value_dim == 3
    r = reduced_form(M)
    f = fuse(M)
    fused = f.to_head()
    rng = random.Random(1)
    for _ in range(25):
        x = (F(rng.randint(1, 9), rng.randint(1, 9)), F(rng.randint(1, 9), rng.randint(1, 9)))
        assert fused.evaluate_at_exp(x) == layer_reference(x)
    vertices = vertices_by_lp(r.support_x())
    assert len(vertices) <= f.atoms <= len(KEYS[0]) * len(KEYS[1])
    assert lower_bound(M).value == len(vertices)
    print(f"{len(M)} heads, {M.head_atom_terms} head-atom terms, values in R^{M.value_dim} "
          f"after the output projection")
    print(f"one reduced denominator for all {len(r.P)} components: Q = {r.Q}")
    print(f"Newton bound {len(vertices)}, fused head with {f.atoms} atoms ({f.method}); "
          f"equal to the layer at 25 random queries, exactly")


if __name__ == "__main__":
    main()
