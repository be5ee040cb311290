"""From a capture to a problem: the heads of one layer at one query position (THEORY §10).

Head ``h`` at the query, with the context fixed, is a softmax head in the
LayerNorm output ``x`` of the query position: atom ``i`` has

* key ``κ_i = W_Q k_i · s`` (``k_i = x_i W_K + b_K``, ``s`` the logit scale, usually ``1/√d_head``),
* bias ``β_i = (b_Q · k_i) · s``,
* value ``(x_i W_V + b_V) W_O`` (a ``d_model`` vector).

Domains:

* ``raw``: the query is any ``x ∈ R^{d_model}``; keys ``κ_i``, biases ``β_i``.
* ``layernorm``: the query is ``x = γ ⊙ u + β_LN`` with ``Σ u_j = 0``.  The
  mean-zero subspace is parametrized by its first ``D − 1`` coordinates
  (``u_D = −Σ_{j<D} u_j``), which are the problem's query variables; the keys
  are the projection of ``g_i = γ ⊙ κ_i`` on that subspace written in these
  coordinates, ``(g_{i,j} − g_{i,D})_{j<D}`` (for mean-zero ``u``,
  ``u·g = Σ_{j<D} u_j (g_j − g_D)``), and the biases are ``β_i + κ_i · β_LN``.
  The substitution is exact and the parametrization a linear bijection, so atom
  counts and fusions are those of the problem on the subspace.

Arithmetic (how ``κ_i``, ``β_i`` and the values are obtained from the stored floats):

* ``float64`` (default): ``κ_i``, ``β_i`` and the values are computed in NumPy
  float64 and the resulting floats are taken exactly.  Within float64 rounding
  of the exact problem; about six times faster and half the size.
* ``exact``: every product and sum is done exactly on the binary
  values of the stored floats (integers times powers of two); the problem is
  then *the* function the layer computes on those binary inputs in real
  arithmetic.  The scale ``s`` is the float64 stored in the capture (exactly
  ``1/√d_head`` when ``d_head`` is a perfect square such as 16 or 64).

Either way every number of the problem file is an exact rational, the exact
binary value of what was computed (``Fraction(float)``), never a decimal
rounding of it.

>>> from attnproof.transformer.capture import random_capture
>>> cap = random_capture(n_ctx=3, d_model=4, n_heads=2, d_head=4, seed=0)
>>> M = capture_to_problem(cap, heads=[0, 1])
>>> (len(M), M.dim, M.value_dim, [len(h) for h in M.heads], [h.name for h in M.heads])
(2, 3, 4, [3, 3], ['L0H0', 'L0H1'])
>>> capture_to_problem(cap, heads=[0], domain="raw").dim
4
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Optional, Sequence

import numpy as np

from ..errors import InputError
from ..heads import Atom, Head, MultiHead
from .capture import Capture

__all__ = ["Dyadic", "capture_to_problem", "head_from_capture", "head_float_arrays",
           "problem_document", "parse_heads", "DOMAINS", "ARITHMETIC"]

DOMAINS = ("layernorm", "raw")
ARITHMETIC = ("exact", "float64")


@dataclass(frozen=True)
class Dyadic:
    """An exact array ``ints / 2**shift`` (``ints`` an object array of Python ints).

    >>> d = Dyadic.of(np.array([0.5, -3.0, 0.0]))
    >>> d.fractions()
    [Fraction(1, 2), Fraction(-3, 1), Fraction(0, 1)]
    >>> (d @ Dyadic.of(np.array([[2.0], [1.0], [7.0]]))).fractions()
    [Fraction(-2, 1)]
    """

    ints: np.ndarray
    shift: int

    @staticmethod
    def of(a: np.ndarray) -> "Dyadic":
        """The exact binary value of a float array."""
        a = np.asarray(a, dtype=np.float64)
        if not np.all(np.isfinite(a)):
            raise InputError("a number of the head is not finite in float64 (overflow of "
                             "huge weights or activations); try --arithmetic exact")
        m, e = np.frexp(a)
        mant = (m * float(1 << 53)).astype(np.int64)        # exact: |m| < 1
        nz = mant != 0
        ints = np.zeros(a.shape, dtype=object)
        if not nz.any():
            return Dyadic(ints, 0)
        ex = (53 - e).astype(np.int64)
        shift = max(int(ex[nz].max()), 0)      # huge values: integers, no negative shift
        lift = shift - ex
        flat_i, flat_m, flat_l = ints.reshape(-1), mant.reshape(-1), lift.reshape(-1)
        for j in np.flatnonzero(nz.reshape(-1)):
            flat_i[j] = int(flat_m[j]) << int(flat_l[j])
        return Dyadic(ints, shift)

    def lift(self, shift: int) -> np.ndarray:
        """The integers of the same values over ``2**shift`` (``shift >= self.shift``)."""
        k = shift - self.shift
        return self.ints * (1 << k) if k else self.ints

    def __add__(self, other: "Dyadic") -> "Dyadic":
        s = max(self.shift, other.shift)
        return Dyadic(self.lift(s) + other.lift(s), s)

    def __matmul__(self, other: "Dyadic") -> "Dyadic":
        return Dyadic(np.asarray(self.ints @ other.ints, dtype=object), self.shift + other.shift)

    def __mul__(self, other: "Dyadic") -> "Dyadic":
        return Dyadic(self.ints * other.ints, self.shift + other.shift)

    @property
    def T(self) -> "Dyadic":
        return Dyadic(self.ints.T, self.shift)

    def fractions(self, extra_den: int = 1) -> list:
        """Nested lists of exact :class:`Fraction` values (divided by ``extra_den``)."""
        den = extra_den << self.shift
        return np.vectorize(lambda v: Fraction(int(v), den), otypes=[object])(self.ints).tolist()

    def to_float(self) -> np.ndarray:
        """Nearest float64 values (for screening only)."""
        return np.vectorize(lambda v: float(Fraction(int(v), 1 << self.shift)),
                            otypes=[np.float64])(self.ints)


def head_float_arrays(cap: Capture, head: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Keys ``κ`` (n, D), biases ``β`` (n,), values (n, D) of one head, raw domain, float64.

    >>> from attnproof.transformer.capture import random_capture
    >>> K, b, V = head_float_arrays(random_capture(3, 4, 2, 4), 1)
    >>> K.shape, b.shape, V.shape
    ((3, 4), (3,), (3, 4))
    """
    p = cap.head_position(head)
    k = cap.x @ cap.W_K[p] + cap.b_K[p]
    keys = (k @ cap.W_Q[p].T) * cap.scale
    biases = (k @ cap.b_Q[p]) * cap.scale
    values = (cap.x @ cap.W_V[p] + cap.b_V[p]) @ cap.W_O[p]
    return keys, biases, values


def _head_dyadic(cap: Capture, head: int, arithmetic: str) -> tuple[Dyadic, Dyadic, Dyadic]:
    if arithmetic == "float64":
        fk, fb, fv = head_float_arrays(cap, head)
        return Dyadic.of(fk), Dyadic.of(fb), Dyadic.of(fv)
    p = cap.head_position(head)
    x = Dyadic.of(cap.x)
    s = Dyadic.of(np.array(cap.scale))
    k = x @ Dyadic.of(cap.W_K[p]) + Dyadic.of(cap.b_K[p])
    keys = (k @ Dyadic.of(cap.W_Q[p]).T) * s
    biases = (k @ Dyadic.of(cap.b_Q[p])) * s
    values = (x @ Dyadic.of(cap.W_V[p]) + Dyadic.of(cap.b_V[p])) @ Dyadic.of(cap.W_O[p])
    return keys, biases, values


def _layernorm_substitute(cap: Capture, keys: Dyadic, biases: Dyadic) -> tuple[list, list]:
    """Keys ``(g_j − g_D)_{j<D}`` with ``g = γ ⊙ κ_i`` (the mean-zero subspace in its
    first ``D − 1`` coordinates) and biases ``β_i + κ_i·β_LN``, exactly."""
    if cap.ln_gamma is None or cap.ln_beta is None:
        raise InputError("the capture has no LayerNorm parameters (ln_gamma, ln_beta)")
    g = Dyadic.of(cap.ln_gamma)
    prod = keys * Dyadic(g.ints[None, :], g.shift)                 # γ ⊙ κ_i, exact
    new_keys = Dyadic(prod.ints[:, :-1] - prod.ints[:, -1:], prod.shift).fractions()
    new_biases = (biases + keys @ Dyadic.of(cap.ln_beta)).fractions()
    return new_keys, new_biases


def head_from_capture(cap: Capture, head: int, domain: str = "layernorm",
                      arithmetic: str = "float64", name: Optional[str] = None) -> Head:
    """The exact :class:`~attnproof.heads.Head` of the model's head ``head`` (see the module).

    >>> from attnproof.transformer.capture import random_capture
    >>> cap = random_capture(3, 4, 1, 4, seed=2)
    >>> H = head_from_capture(cap, 0, domain="raw", arithmetic="float64")
    >>> K, b, V = head_float_arrays(cap, 0)
    >>> H.atoms[1].key == tuple(Fraction(float(c)) for c in K[1])
    True
    """
    if domain not in DOMAINS:
        raise InputError(f"domain must be one of {', '.join(DOMAINS)}, got {domain!r}")
    if arithmetic not in ARITHMETIC:
        raise InputError(f"arithmetic must be one of {', '.join(ARITHMETIC)}, got {arithmetic!r}")
    if domain == "layernorm" and not cap.has_layernorm:
        raise InputError("the capture has no LayerNorm parameters (ln_gamma, ln_beta); "
                         "use --domain raw")
    keys, biases, values = _head_dyadic(cap, head, arithmetic)
    if domain == "layernorm":
        key_rows, bias_list = _layernorm_substitute(cap, keys, biases)
    else:
        key_rows, bias_list = keys.fractions(), biases.fractions()
    value_rows = values.fractions()
    atoms = tuple(Atom(key=tuple(k), value=tuple(v), bias=b)
                  for k, v, b in zip(key_rows, value_rows, bias_list))
    layer = cap.meta.get("layer", 0)
    return Head(atoms, name=name if name is not None else f"L{layer}H{int(head)}")


def parse_heads(text: str | None, cap: Capture) -> list[int]:
    """Head numbers from ``"3,7"`` (model numbering); all stored heads when ``None``.

    >>> from attnproof.transformer.capture import random_capture
    >>> parse_heads("1, 0", random_capture(2, 3, 2, 1))
    [1, 0]
    >>> parse_heads("0,0", random_capture(2, 3, 2, 1))
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: --heads: head 0 is listed twice
    """
    if text is None:
        return list(cap.heads)
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part.isascii() or not part.isdigit() or len(part) > 9:
            raise InputError(f"--heads: {part!r} is not a head number (write e.g. 3,7)")
        h = int(part)
        if h in out:
            raise InputError(f"--heads: head {h} is listed twice")
        cap.head_position(h)
        out.append(h)
    if not out:
        raise InputError("--heads: no head given")
    return out


def capture_to_problem(cap: Capture, heads: Optional[Iterable[int]] = None,
                       domain: Optional[str] = None, arithmetic: str = "float64") -> MultiHead:
    """The multi-head of the chosen heads (all by default); ``domain`` defaults to
    ``layernorm`` when the capture has LayerNorm parameters, else ``raw``."""
    hs = list(cap.heads) if heads is None else [int(h) for h in heads]
    if not hs:
        raise InputError("no head selected")
    if domain is None:
        domain = "layernorm" if cap.has_layernorm else "raw"
    return MultiHead(tuple(head_from_capture(cap, h, domain, arithmetic) for h in hs),
                     dim=domain_dim(cap, domain))


def domain_dim(cap: Capture, domain: str) -> int:
    """Dimension of the problem's query: ``d_model`` (raw) or ``d_model − 1`` (layernorm).

    >>> from attnproof.transformer.capture import random_capture
    >>> c = random_capture(2, 5, 1, 1)
    >>> domain_dim(c, "raw"), domain_dim(c, "layernorm")
    (5, 4)
    """
    return cap.d_model - 1 if domain == "layernorm" else cap.d_model


def problem_document(cap: Capture, M: MultiHead, heads: Sequence[int], domain: str,
                     arithmetic: str) -> dict:
    """The problem file's document with a description of its origin."""
    from ..io import problem_to_dict

    doc = problem_to_dict(M)
    meta = cap.meta
    doc["name"] = f"{meta.get('model', 'model')} layer {meta.get('layer', '?')} heads " \
                  f"{','.join(map(str, heads))}"
    doc["description"] = (
        f"attention heads {','.join(map(str, heads))} of layer {meta.get('layer', '?')} of "
        f"{meta.get('model', 'a model')} at query position {meta.get('position', '?')} "
        f"({cap.n_ctx} context rows), domain {domain}"
        + (" (query variables u_1..u_{D-1}: x = gamma*u + beta_LN with u_D = -(u_1+...+u_{D-1}))"
           if domain == "layernorm" else
           " (query variable: the LayerNorm output x)")
        + f"; keys, biases and values computed with {arithmetic} arithmetic from the exact "
          f"binary values of the captured floats (THEORY section 10)")
    return doc


def float_problem_outputs(M: MultiHead, query: Sequence[float] | np.ndarray) -> np.ndarray:
    """Each head of ``M`` at a float query, in float64 (screening, not proof): (r, m).

    >>> from attnproof.families import sigmoid_sum
    >>> float_problem_outputs(sigmoid_sum(2), [0.0, 0.0]).tolist()
    [[0.5], [0.5]]
    """
    q = np.asarray(query, dtype=np.float64)
    out = []
    for h in M.heads:
        K = np.array([[float(c) for c in a.key] for a in h.atoms])
        b = np.array([float(a.bias) for a in h.atoms])
        V = np.array([[float(c) for c in a.value] for a in h.atoms])
        w = np.array([float(a.weight) for a in h.atoms])
        t = K @ q + b
        e = w * np.exp(t - t.max())
        out.append((e / e.sum()) @ V)
    return np.array(out)


def domain_query(cap: Capture, domain: str) -> np.ndarray:
    """The captured query in the problem's variables: ``x`` (raw) or ``u_1..u_{D-1}`` (layernorm)."""
    if domain == "raw":
        return cap.query
    if cap.query_u is not None:
        return cap.query_u[:-1]
    u = (cap.query - cap.ln_beta) / cap.ln_gamma
    return (u - u.mean())[:-1]


def model_deviation(cap: Capture, M: MultiHead, heads: Sequence[int], domain: str) -> Optional[float]:
    """Largest relative deviation between the problem's heads at the captured query and
    the model's own per-head outputs (``head_out``), in float64; ``None`` without them."""
    if cap.head_out is None:
        return None
    mine = float_problem_outputs(M, domain_query(cap, domain))
    ref = cap.head_out[[cap.head_position(h) for h in heads]]
    return float(np.abs(mine - ref).max() / max(float(np.abs(ref).max()), 1e-300))
