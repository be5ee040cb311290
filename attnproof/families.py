"""Families of multi-heads: sigmoid sums ``W_d``, graph sums ``W_G``, biased sigmoids, random.

>>> W = sigmoid_sum(3)
>>> (len(W), W.head_atom_terms, W.dim)
(3, 6, 3)
>>> import networkx as nx
>>> len(graph_sum(nx.petersen_graph()))
15
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Sequence

from .errors import InputError
from .heads import Atom, Head, MultiHead

__all__ = ["sigmoid_sum", "biased_sigmoid_sum", "graph_sum", "named_graph", "parse_edges",
           "random_multihead", "one_hot_head", "float_multihead", "float32_decimal", "GRAPH_NAMES"]

GRAPH_NAMES = ("path", "cycle", "complete", "star", "petersen")


_ZERO, _ONE = Fraction(0), Fraction(1)


def _unit(d: int, j: int, value: tuple = (_ONE,), bias: Fraction = _ZERO) -> Atom:
    """The atom with key ``e_j`` (stored sparsely: one non-zero coordinate)."""
    return Atom._trusted(d, ((j, _ONE),), value, bias, _ONE)


def _origin(d: int, value: tuple) -> Atom:
    """The atom with key 0 (no non-zero coordinate)."""
    return Atom._trusted(d, (), value, _ZERO, _ONE)


def sigmoid_sum(d: int) -> MultiHead:
    """``W_d(q) = Σ_j σ(q_j)``: ``d`` two-atom heads (key ``e_j`` value 1; key 0 value 0).

    >>> sigmoid_sum(2).heads[1].atoms[0].key
    (Fraction(0, 1), Fraction(1, 1))
    """
    if not isinstance(d, int) or d < 1:
        raise InputError(f"sigmoid-sum needs d >= 1, got {d!r}")
    one, zero = (_ONE,), (_ZERO,)
    return MultiHead(tuple(
        Head((_unit(d, j, one), _origin(d, zero)), name=f"sigma{j + 1}")
        for j in range(d)), dim=d)


def biased_sigmoid_sum(biases: Sequence[Fraction | int]) -> MultiHead:
    """``Σ_j σ(q_j + b_j)``, one head per bias.

    >>> biased_sigmoid_sum([Fraction(1, 2), 0]).heads[0].atoms[0].bias
    Fraction(1, 2)
    """
    d = len(biases)
    if d < 1:
        raise InputError("biased-sigmoid needs at least one bias")
    bs = [Fraction(b) for b in biases]
    return MultiHead(tuple(
        Head((_unit(d, j, (_ONE,), b), _origin(d, (_ZERO,))), name=f"sigma{j + 1}")
        for j, b in enumerate(bs)), dim=d)


def graph_sum(G, nodes: Sequence | None = None) -> MultiHead:
    """``W_G(q) = Σ_{(i,j) ∈ E} σ(q_i − q_j)`` (atoms: key ``e_i`` value 1, key ``e_j`` value 0).

    Nodes are numbered in sorted order (or the given order); each edge ``{u, v}``
    is oriented from the smaller to the larger index.  A head is named after its
    edge in the numbers of the variables, which count from 1 (``e1-2`` is
    ``x1/(x1 + x2)``, whatever the nodes are called).

    >>> import networkx as nx
    >>> M = graph_sum(nx.path_graph(3))
    >>> first = M.heads[0]
    >>> first.name, [a.key for a in first.atoms]
    ('e1-2', [(Fraction(1, 1), Fraction(0, 1), Fraction(0, 1)), (Fraction(0, 1), Fraction(1, 1), Fraction(0, 1))])
    """
    order = list(nodes) if nodes is not None else sorted(G.nodes())
    index = {v: i for i, v in enumerate(order)}
    n = len(order)
    edges = sorted(tuple(sorted((index[u], index[v]))) for u, v in G.edges())
    if not edges:
        raise InputError("graph sum needs a graph with at least one edge")
    heads = []
    for i, j in edges:
        if i == j:
            raise InputError(f"graph sum: self-loop at node {order[i]!r}")
        heads.append(Head((_unit(n, i, (_ONE,)), _unit(n, j, (_ZERO,))),
                          name=f"e{i + 1}-{j + 1}"))
    return MultiHead(tuple(heads), dim=n)


def parse_edges(text: str):
    """A networkx graph from an edge list ``"0-1,1-2,2-0"`` (integer nodes).

    >>> sorted(parse_edges("0-1, 1-2").edges())
    [(0, 1), (1, 2)]
    """
    import networkx as nx

    G = nx.Graph()
    for part in text.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d{1,6})\s*-\s*(\d{1,6})", part)
        if not m:
            raise InputError(f"edge {part!r}: write edges as 'i-j' separated by commas, e.g. 0-1,1-2")
        u, v = int(m.group(1)), int(m.group(2))
        if u == v:
            raise InputError(f"edge {part!r} is a self-loop")
        if G.has_edge(u, v):
            raise InputError(f"edge {part!r} is repeated")
        G.add_edge(u, v)
    return G


def named_graph(name: str, n: int | None = None):
    """``path``, ``cycle``, ``complete``, ``star`` (``n`` nodes) or ``petersen``.

    >>> named_graph("star", 4).number_of_edges()
    3
    """
    import networkx as nx

    if name == "petersen":
        return nx.petersen_graph()
    if name not in GRAPH_NAMES:
        raise InputError(f"unknown graph {name!r}; choose one of {', '.join(GRAPH_NAMES)} or give --edges")
    if n is None or n < 2:
        raise InputError(f"graph {name!r} needs --n >= 2 nodes")
    if name == "cycle" and n < 3:
        raise InputError("a cycle needs --n >= 3 nodes")
    if name == "path":
        return nx.path_graph(n)
    if name == "cycle":
        return nx.cycle_graph(n)
    if name == "complete":
        return nx.complete_graph(n)
    return nx.star_graph(n - 1)


def random_multihead(heads: int, atoms: int, dim: int, seed: int, *, max_key: int = 2,
                     value_dim: int = 1, biases: bool = False, max_num: int = 5) -> MultiHead:
    """A reproducible random multi-head with small integer keys and rational weights/values.

    >>> M = random_multihead(2, 3, 2, seed=1)
    >>> (len(M), M.head_atom_terms) == (2, 6) and M == random_multihead(2, 3, 2, seed=1)
    True
    """
    if heads < 1 or atoms < 1 or dim < 0 or value_dim < 1:
        raise InputError("random heads need heads >= 1, atoms >= 1, dim >= 0, value_dim >= 1")
    rng = random.Random(seed)

    def rat(lo: int, hi: int) -> Fraction:
        return Fraction(rng.randint(lo, hi), rng.randint(1, max_num))

    out = []
    for h in range(heads):
        hs = []
        for _ in range(atoms):
            key = tuple(rng.randint(-max_key, max_key) for _ in range(dim))
            value = tuple(rat(-max_num, max_num) for _ in range(value_dim))
            bias = Fraction(rng.randint(-2, 2), rng.randint(1, 2)) if biases else Fraction(0)
            hs.append(Atom(key, value, bias=bias, weight=rat(1, max_num)))
        out.append(Head(tuple(hs), name=f"h{h + 1}"))
    return MultiHead(tuple(out), dim=dim)


def float32_decimal(x) -> Fraction:
    """The shortest decimal that reads back as the float32 ``x``, as an exact rational.

    This is what a user sees when a float32 tensor is printed and pasted into a
    problem file; it is *not* the binary value of ``x`` (use ``Fraction(float(x))``
    for that, as :meth:`attnproof.heads.MultiHead.from_arrays` does).

    >>> float32_decimal(0.1), float(float32_decimal(1 / 3))
    (Fraction(1, 10), 0.33333334)
    """
    import numpy as np

    return Fraction(np.format_float_positional(np.float32(x), unique=True, trim="0"))


def float_multihead(heads: int, atoms: int | Sequence[int], dim: int, seed: int, *,
                    biases: bool = False, value_dim: int = 1, digits: int | None = None,
                    binary: bool = False, scale: float = 1.0) -> MultiHead:
    """A reproducible multi-head with float32 keys, as a real attention layer has.

    Keys (and biases, values) are standard normal float32 samples times ``scale``.
    Each number becomes an exact rational: its shortest decimal repr (default),
    its exact binary value (``binary=True``), or the sample rounded to ``digits``
    decimal places.  ``atoms`` is one count for every head or one per head.

    >>> M = float_multihead(2, 3, 4, seed=0)
    >>> (len(M), M.dim, M.head_atom_terms), M == float_multihead(2, 3, 4, seed=0)
    ((2, 4, 6), True)
    >>> float_multihead(1, 2, 1, seed=0, digits=2).heads[0].atoms[0].key
    (Fraction(13, 100),)
    """
    import numpy as np

    counts = [atoms] * heads if isinstance(atoms, int) else list(atoms)
    if heads < 1 or len(counts) != heads or min(counts) < 1 or dim < 0 or value_dim < 1:
        raise InputError("float heads need heads >= 1, atoms >= 1 per head, dim >= 0, value_dim >= 1")
    rng = np.random.default_rng(seed)

    def exact(x) -> Fraction:
        x = np.float32(x)
        if binary:
            return Fraction(float(x))
        if digits is not None:
            return Fraction(round(float(x), digits)).limit_denominator(10 ** digits)
        return float32_decimal(x)

    out = []
    for h, n in enumerate(counts):
        K = (rng.standard_normal((n, dim)) * scale).astype(np.float32)
        V = rng.standard_normal((n, value_dim)).astype(np.float32)
        B = rng.standard_normal(n).astype(np.float32) if biases else None
        hs = []
        for i in range(n):
            hs.append(Atom(tuple(exact(x) for x in K[i]), tuple(exact(x) for x in V[i]),
                           bias=exact(B[i]) if B is not None else _ZERO))
        out.append(Head(tuple(hs), name=f"h{h + 1}"))
    return MultiHead(tuple(out), dim=dim)


def one_hot_head(dim: int, atoms: int, seed: int = 0, max_value: int = 3) -> MultiHead:
    """One head of ``atoms`` one-coordinate keys ``e_j`` at distinct random coordinates
    of ``R^dim`` (values random integers in ``0..max_value``): a large, very sparse problem.

    Its denominator ``Σ_i x_{j_i}`` is linear, so the head is reduced unless every
    value is equal; the Newton polytope is a simplex with ``atoms`` vertices.

    >>> M = one_hot_head(100000, 3, seed=1)
    >>> [a.nnz for a in M.heads[0].atoms], M.dim
    ([1, 1, 1], 100000)
    """
    if not isinstance(dim, int) or not isinstance(atoms, int) or not 1 <= atoms <= dim:
        raise InputError(f"one-hot head needs 1 <= atoms <= dim, got atoms={atoms!r}, dim={dim!r}")
    rng = random.Random(seed)
    coords = sorted(rng.sample(range(dim), atoms))
    values = [Fraction(rng.randint(0, max_value)) for _ in coords]
    if len(set(values)) == 1 and atoms > 1:
        values[0] += 1                       # keep the head non-constant
    return MultiHead((Head(tuple(_unit(dim, j, (v,)) for j, v in zip(coords, values)),
                           name="one-hot"),), dim=dim)
