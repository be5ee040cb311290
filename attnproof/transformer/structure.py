"""Structures that real layers have, read from the exact heads: what the merge report names.

Four structures make merging heads cheaper than the generic product ``n_h · n_g``
(THEORY Lemma 9.5), and each is recognized here exactly, from the problem's
own rational keys, biases and values (never from floats):

* **same attention pattern** (:func:`same_pattern`): atom ``i`` of one head and
  atom ``i`` of the other have keys that differ by one common vector ``c`` and
  biases that differ by one common number ``b`` (a common shift of every logit,
  which the softmax ignores), and proportional weights.  Then
  ``D_g = λ·x^c·z^b·D_h``: the denominators are associates, the two heads have one
  softmax, and their sum is one head with the same keys and the summed values.
* **constant heads** (:func:`constant_head`): every atom has the same key (the
  head's query weights vanish: one distinct key) or the same value; the head is a
  constant function, which shifts the values of any head it is merged with.
* **vanishing values** (:func:`vanishing_values`): every value is zero (``W_V W_O``
  vanishes on the context); the head adds nothing.
* **keys that coincide on a subset of positions** (:func:`shared_positions`): some
  positions, but not all, have keys (and biases) that differ by the common shift;
  the product fusion then repeats sums (``a_i + b_j = a_j + b_i``) and has fewer
  than ``n_h · n_g`` atoms.

These are recognized, not proven, here: each question of the report is proven by its
certificate, which the independent checker verifies (the Newton lower bound and an
explicit fusion: for two heads with one pattern, ``n_h`` atoms each way).

>>> from attnproof.heads import Atom, Head
>>> h = Head((Atom((0,), (1,)), Atom((1,), (2,))))
>>> g = Head((Atom((3,), (5,)), Atom((4,), (7,))))        # keys shifted by 3
>>> same_pattern(h, g), constant_head(h), vanishing_values(h)
(True, False, False)
>>> head_structures(Head((Atom((0,), (1,)), Atom((0,), (3,)))))
['constant (one distinct key)']
"""

from __future__ import annotations

from collections import Counter
from typing import Optional, Sequence

import numpy as np

from ..heads import Head

__all__ = ["same_pattern", "constant_head", "vanishing_values", "shared_positions",
           "head_structures", "group_structures",
           "weights_same_pattern"]


def _key_difference(a, b) -> tuple:
    """``key(b) − key(a)`` as a sparse tuple (index, value), zeros left out."""
    d: dict = {}
    for j, c in a.sparse_key:
        d[j] = -c
    for j, c in b.sparse_key:
        d[j] = d.get(j, 0) + c
    return tuple(sorted((j, c) for j, c in d.items() if c != 0))


def _shifts(h: Head, g: Head) -> Optional[list]:
    """Per position, the logit shift ``(key difference, bias difference)`` from ``h`` to ``g``;
    None when the heads have different numbers of atoms."""
    if len(h.atoms) != len(g.atoms):
        return None
    return [(_key_difference(a, b), b.bias - a.bias) for a, b in zip(h.atoms, g.atoms)]


def same_pattern(h: Head, g: Head) -> bool:
    """True when ``g``'s atom ``i`` is ``h``'s atom ``i`` with every logit shifted by one
    common key vector and one common bias, and weights in one ratio: one softmax.

    >>> from attnproof.heads import Atom, Head
    >>> h = Head((Atom((0, 1), (1,), bias=1), Atom((2, 0), (0,))))
    >>> same_pattern(h, Head((Atom((1, 1), (9,), bias=3), Atom((3, 0), (4,), bias=2))))
    True
    >>> same_pattern(h, Head((Atom((1, 1), (9,)), Atom((3, 0), (4,)))))    # biases differ
    False
    """
    s = _shifts(h, g)
    if not s or any(x != s[0] for x in s):
        return False
    r = g.atoms[0].weight / h.atoms[0].weight
    return all(b.weight == r * a.weight for a, b in zip(h.atoms, g.atoms))


def shared_positions(h: Head, g: Head) -> list[int]:
    """Positions where ``g``'s logit is ``h``'s shifted by the most common shift, when
    there are at least two of them and not all: keys that coincide on a subset.

    >>> from attnproof.heads import Atom, Head
    >>> h = Head((Atom((0,), (1,)), Atom((1,), (1,)), Atom((5,), (0,))))
    >>> shared_positions(h, Head((Atom((0,), (2,)), Atom((1,), (0,)), Atom((7,), (1,)))))
    [0, 1]
    """
    s = _shifts(h, g)
    if not s:
        return []
    common, k = Counter(s).most_common(1)[0]
    if k < 2 or k == len(s):
        return []
    return [i for i, x in enumerate(s) if x == common]


def constant_head(h: Head) -> bool:
    """True when the head is a constant function of the query: one distinct key, or one value.

    >>> from attnproof.heads import Atom, Head
    >>> constant_head(Head((Atom((0,), (2,)), Atom((1,), (2,))))), constant_head(Head((Atom((0,), (1,)), Atom((1,), (2,)))))
    (True, False)
    """
    return h.distinct_keys == 1 or len({a.value for a in h.atoms}) == 1


def vanishing_values(h: Head) -> bool:
    """True when every value of the head is zero: the head adds nothing.

    >>> from attnproof.heads import Atom, Head
    >>> vanishing_values(Head((Atom((0,), (0, 0)), Atom((1,), (0, 0)))))
    True
    """
    return all(all(v == 0 for v in a.value) for a in h.atoms)


def head_structures(h: Head) -> list[str]:
    """The structures of one head, in words (empty for a generic head)."""
    out = []
    if vanishing_values(h):
        out.append("values vanish (the head adds nothing)")
    elif h.distinct_keys == 1:
        out.append("constant (one distinct key)")
    elif constant_head(h):
        out.append("constant (one value)")
    return out


def group_structures(heads: Sequence[Head], names: Sequence) -> list[str]:
    """The structures of a group of heads, in words: each head's own, and every pair
    with one attention pattern or with keys that coincide on some positions."""
    out = []
    for h, n in zip(heads, names):
        out += [f"head {n}: {s}" for s in head_structures(h)]
    for i in range(len(heads)):
        for j in range(i + 1, len(heads)):
            a, b = heads[i], heads[j]
            if same_pattern(a, b):
                out.append(f"heads {names[i]} and {names[j]}: same attention pattern")
            else:
                pos = shared_positions(a, b)
                if pos:
                    out.append(f"heads {names[i]} and {names[j]}: keys coincide on "
                               f"{len(pos)} of {len(a.atoms)} positions")
    return out



def weights_same_pattern(cap, h: int, g: int, rtol: float = 1e-9) -> bool:
    """True when the captured weights give heads ``h`` and ``g`` one attention pattern up to
    float rounding: at every context row the logit functions ``x ↦ x·κ_i + β_i`` differ by
    one common function (the common shift the softmax ignores).  Read in float64 from the
    capture: a screening of the weights (THEORY §10), not a proof.

    The exact problem may still tell the heads apart: ``--arithmetic float64`` rounds
    the keys of each head on its own (a shift by ``b_K`` is then not exactly a shift),
    while ``--arithmetic exact`` keeps it exact.

    >>> from attnproof.transformer.capture import random_capture
    >>> cap = random_capture(4, 6, 2, 3, seed=0)
    >>> weights_same_pattern(cap, 0, 1), weights_same_pattern(cap, 0, 0)
    (False, True)
    """
    from .problem import head_float_arrays

    Kh, bh, _ = head_float_arrays(cap, h)
    Kg, bg, _ = head_float_arrays(cap, g)
    dK, db = Kg - Kh, bg - bh
    scale = max(float(np.abs(Kh).max(initial=0.0)), float(np.abs(Kg).max(initial=0.0)), 1e-300)
    bscale = max(float(np.abs(bh).max(initial=0.0)), float(np.abs(bg).max(initial=0.0)), 1e-300)
    return bool(np.abs(dK - dK[:1]).max(initial=0.0) <= rtol * scale
                and np.abs(db - db[:1]).max(initial=0.0) <= rtol * bscale)
