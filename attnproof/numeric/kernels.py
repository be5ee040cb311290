"""Float64 batch evaluation of large heads: a NumPy reference and a Numba kernel.

Both evaluate ``H(q_j) = Σ_i v_i e^{ℓ_ij} / Σ_i e^{ℓ_ij}`` with
``ℓ_ij = <k_i, q_j> + b_i + log w_i`` for ``n`` atoms at ``m`` queries, streaming
over blocks of atoms (never an ``n × m`` matrix) with an *online softmax*: a
running maximum per query, and sums rescaled by ``e^{old max - new max}`` when
it grows, so every exponential is ``<= 1`` (the log-sum-exp shift).

* :func:`softmax_reference` — NumPy: per atom block one matrix product and one
  ``np.exp`` over a ``block × m`` slab.
* :func:`softmax_kernel` — Numba, tiles of queries in parallel threads: logits by
  register-blocked FMAs, a vectorizable ``exp`` (Cody–Waite reduction, degree-13
  polynomial, exponent bits assembled with integer ops), Kahan-compensated sums.

Float64 results are **screening only**: they are neither evidence of equality nor
a refutation (use :mod:`attnproof.numeric.compare` for that).

>>> import numpy as np
>>> K = np.array([[1.0], [0.0]]); lb = np.zeros(2); V = np.array([[1.0], [0.0]])
>>> Q = np.array([[0.0], [30.0]])
>>> softmax_reference(K, lb, V, Q).round(12).tolist()
[[0.5], [1.0]]
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from typing import Union

import numpy as np

from ..errors import InputError, NumericError
from ..heads import Head, MultiHead
from .queries import check_query_array

__all__ = ["head_arrays", "softmax_reference", "softmax_kernel", "evaluate_kernel",
           "evaluate_reference", "fast_exp", "warm_up", "default_threads", "TILE_QUERIES"]

TILE_QUERIES = 64   # must equal _jit.TW (queries per tile)
EXP_FLOOR = -700.0   # e^-700 ~ 1e-304: below it a term is < 1e-300 of the largest one


def _log_fraction(w: Fraction) -> float:
    return math.log(w.numerator) - math.log(w.denominator)


def head_arrays(head: Head) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(K, lb, V)`` in float64: keys ``n × d``, log-factors ``b + log w`` and values ``n × m``.

    >>> from attnproof.heads import Atom
    >>> K, lb, V = head_arrays(Head((Atom((1,), (2,), bias=1, weight=1),)))
    >>> K.tolist(), lb.tolist(), V.tolist()
    ([[1.0]], [1.0], [[2.0]])
    """
    n, d, m = len(head.atoms), head.dim, head.value_dim
    K = np.empty((n, d), dtype=np.float64)
    V = np.empty((n, m), dtype=np.float64)
    lb = np.empty(n, dtype=np.float64)
    try:
        for i, a in enumerate(head.atoms):
            K[i] = [float(x) for x in a.key]
            V[i] = [float(x) for x in a.value]
            lb[i] = float(a.bias) + _log_fraction(a.weight)
    except OverflowError:
        raise NumericError(f"head {head.name!r} has numbers outside the float64 range") from None
    if not (np.all(np.isfinite(K)) and np.all(np.isfinite(V)) and np.all(np.isfinite(lb))):
        raise NumericError(f"head {head.name!r} has numbers outside the float64 range")
    return K, lb, V


def _check_arrays(K, lb, V, Q) -> tuple[np.ndarray, ...]:
    K = np.ascontiguousarray(K, dtype=np.float64)
    lb = np.ascontiguousarray(lb, dtype=np.float64)
    V = np.ascontiguousarray(V, dtype=np.float64)
    Q = np.ascontiguousarray(Q, dtype=np.float64)
    if K.ndim != 2 or V.ndim != 2 or Q.ndim != 2 or lb.ndim != 1:
        raise InputError("expected K (n, d), lb (n,), V (n, m), Q (queries, d)")
    n, d = K.shape
    if n == 0 or lb.shape[0] != n or V.shape[0] != n or Q.shape[1] != d:
        raise InputError(f"shape mismatch: K {K.shape}, lb {lb.shape}, V {V.shape}, Q {Q.shape}")
    for name, a in (("K", K), ("lb", lb), ("V", V), ("Q", Q)):
        if not np.all(np.isfinite(a)):
            raise InputError(f"{name} contains NaN or infinite values")
    return K, lb, V, Q


def softmax_reference(K, lb, V, Q, block: int = 2048) -> np.ndarray:
    """NumPy reference: online softmax over atom blocks (matrix product + ``np.exp``).

    >>> K = np.array([[2.0], [-1.0]]); lb = np.array([0.0, np.log(3.0)]); V = np.eye(2)
    >>> softmax_reference(K, lb, V, np.array([[0.0]])).tolist()
    [[0.25, 0.75]]
    """
    K, lb, V, Q = _check_arrays(K, lb, V, Q)
    m = Q.shape[0]
    mx = np.full(m, -np.inf)
    den = np.zeros(m)
    num = np.zeros((m, V.shape[1]))
    for i0 in range(0, K.shape[0], block):
        S = Q @ K[i0:i0 + block].T
        S += lb[i0:i0 + block]
        bm = S.max(axis=1)
        new = np.maximum(mx, bm)
        f = np.exp(mx - new)
        den *= f
        num *= f[:, None]
        S -= new[:, None]
        np.exp(S, out=S)
        den += S.sum(axis=1)
        num += S @ V[i0:i0 + block]
        mx = new
    return num / den[:, None]


def _jit():
    """The Numba kernels (imported, hence compiled or loaded from cache, on first use)."""
    from . import _jit as jit

    return jit


def fast_exp(x: np.ndarray) -> np.ndarray:
    """The kernel's vectorizable ``exp`` for arguments ``<= 0`` (floored at -700).

    >>> float(abs(fast_exp(np.array([-1.0]))[0] / np.exp(-1.0) - 1)) < 1e-15
    True
    """
    x = np.ascontiguousarray(x, dtype=np.float64)
    if x.size and x.max() > 0:
        raise NumericError("fast_exp takes arguments <= 0 (shifted logits)")
    out = np.empty_like(x)
    _jit().fast_exp_into(x.ravel(), out.ravel())
    return out


def default_threads() -> int:
    """Threads used by :func:`softmax_kernel`: the CPUs this process may run on.

    >>> default_threads() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def softmax_kernel(K, lb, V, Q, threads: int | None = None) -> np.ndarray:
    """Numba kernel, tiles of queries in parallel threads: same contract as :func:`softmax_reference`.

    >>> K = np.array([[2.0], [-1.0]]); lb = np.array([0.0, np.log(3.0)]); V = np.eye(2)
    >>> softmax_kernel(K, lb, V, np.array([[0.0]])).round(15).tolist()
    [[0.25, 0.75]]
    """
    K, lb, V, Q = _check_arrays(K, lb, V, Q)
    m, d = Q.shape
    padded = -(-m // TILE_QUERIES) * TILE_QUERIES
    Qt = np.zeros((d, padded))
    Qt[:, :m] = Q.T
    out = np.empty((m, V.shape[1]))
    if not m:
        return out
    jit = _jit()
    ntiles = padded // TILE_QUERIES
    threads = min(threads or default_threads(), ntiles)
    if threads == 1:
        jit.tiles(K, lb, V, Qt, out, 0, ntiles)
        return out
    step = max(1, ntiles // (4 * threads))
    chunks = [(t, min(t + step, ntiles)) for t in range(0, ntiles, step)]
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda c: jit.tiles(K, lb, V, Qt, out, c[0], c[1]), chunks))
    return out


def warm_up() -> None:
    """Compile the kernels now (a tiny call), so later timings exclude the JIT.

    >>> warm_up()
    """
    softmax_kernel(np.zeros((1, 1)), np.zeros(1), np.ones((1, 1)), np.zeros((1, 1)))
    fast_exp(np.zeros(1))


def evaluate_kernel(obj: Union[Head, MultiHead], queries: np.ndarray, method: str = "numba") -> np.ndarray:
    """Float64 values (``queries × value_dim``) of a head or multi-head (sum of heads). Screening only.

    ``method`` is ``"numba"`` (:func:`softmax_kernel`) or ``"numpy"`` (:func:`softmax_reference`).

    >>> from attnproof.families import sigmoid_sum
    >>> evaluate_kernel(sigmoid_sum(2), np.zeros((1, 2)), method="numpy").tolist()
    [[1.0]]
    """
    heads = obj.heads if isinstance(obj, MultiHead) else (obj,)
    if method not in ("numba", "numpy"):
        raise InputError(f"unknown kernel {method!r} (use 'numba' or 'numpy')")
    fn = softmax_kernel if method == "numba" else softmax_reference
    Q = check_query_array(np.asarray(queries), heads[0].dim)
    total = np.zeros((Q.shape[0], heads[0].value_dim))
    for h in heads:
        total += fn(*head_arrays(h), Q)
    return total


def evaluate_reference(obj: Union[Head, MultiHead], queries: np.ndarray) -> np.ndarray:
    """:func:`evaluate_kernel` with the NumPy reference.

    >>> from attnproof.families import sigmoid_sum
    >>> evaluate_reference(sigmoid_sum(1), np.array([[0.0]])).tolist()
    [[0.5]]
    """
    return evaluate_kernel(obj, queries, method="numpy")

