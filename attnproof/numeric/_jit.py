"""Numba kernels behind :mod:`attnproof.numeric.kernels` (imported on first use).

Compiled lazily by Numba on the first call and cached on disk (``cache=True``).
Only ``fastmath={"contract"}`` is enabled: it allows fused multiply-adds but
keeps the order of additions, so the Kahan compensations are not optimized away.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

__all__ = ["attention", "fast_exp_into", "fma_throughput", "exp_throughput", "TW", "EXP_FLOOR"]

FLAGS = {"contract"}
TW = 64          # queries per tile (the vectorized dimension)
BA = 64          # atoms per block
EXP_FLOOR = -700.0
LOG2E = 1.4426950408889634
LN2HI = 6.93147180369123816490e-01
LN2LO = 1.90821492927058770002e-10
SHIFTER = 6755399441055744.0              # 1.5 * 2^52: adding it rounds to an integer
SHBITS = np.int64(0x4338000000000000)     # bit pattern of SHIFTER
C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13 = (1.0 / math.factorial(k) for k in range(2, 14))


@nb.njit(fastmath=FLAGS, cache=True, inline="always")
def _reduce(x):
    """``e^x = p · 2^k`` for ``x <= 0``; ``k`` sits in the low bits of the returned ``t``."""
    if x < EXP_FLOOR:
        x = EXP_FLOOR
    t = x * LOG2E + SHIFTER
    kf = t - SHIFTER
    r = x - kf * LN2HI
    r = r - kf * LN2LO
    p = C13
    p = p * r + C12
    p = p * r + C11
    p = p * r + C10
    p = p * r + C9
    p = p * r + C8
    p = p * r + C7
    p = p * r + C6
    p = p * r + C5
    p = p * r + C4
    p = p * r + C3
    p = p * r + C2
    p = p * r + 1.0
    p = p * r + 1.0
    return t, p


@nb.njit(fastmath=FLAGS, cache=True)
def _exp_block(x, tb, eb, out, n):
    """``out[:n] = e^{x[:n]}`` (``x <= 0``) with vectorizable loops; ``tb``/``eb`` are scratch."""
    tbits = tb.view(np.int64)
    scale = eb.view(np.float64)
    for k in range(n):
        t, p = _reduce(x[k])
        tb[k] = t
        out[k] = p
    for k in range(n):
        eb[k] = (tbits[k] - SHBITS + 1023) << 52
    for k in range(n):
        out[k] *= scale[k]


@nb.njit(fastmath=FLAGS, cache=True)
def fast_exp_into(x, out):
    """``out = e^x`` elementwise for ``x <= 0`` (floored at ``EXP_FLOOR``)."""
    n = x.shape[0]
    tb = np.empty(n)
    eb = np.empty(n, dtype=np.int64)
    _exp_block(x, tb, eb, out, n)


@nb.njit(parallel=True, fastmath=FLAGS, cache=True)
def attention(K, lb, V, Qt, out):
    """Online-softmax attention; ``Qt`` is ``d × m_padded`` (a multiple of ``TW`` columns)."""
    n, d = K.shape
    mv = V.shape[1]
    ntiles = Qt.shape[1] // TW
    for tile in nb.prange(ntiles):
        j0 = tile * TW
        Qtile = np.empty((d, TW))
        for c in range(d):
            Qtile[c, :] = Qt[c, j0:j0 + TW]
        S = np.empty((BA, TW))
        X = np.empty(BA * TW)
        P = np.empty(BA * TW)
        tb = np.empty(BA * TW)
        eb = np.empty(BA * TW, dtype=np.int64)
        mx = np.full(TW, -np.inf)
        bm = np.empty(TW)
        den = np.zeros(TW)
        cden = np.zeros(TW)
        num = np.zeros((mv, TW))
        cnum = np.zeros((mv, TW))
        for i0 in range(0, n, BA):
            bw = min(BA, n - i0)
            # logits S[ii, :] = lb_i + <k_i, q>
            for ii in range(bw):
                i = i0 + ii
                s = S[ii]
                li = lb[i]
                for j in range(TW):
                    s[j] = li
                for c in range(d):
                    kc = K[i, c]
                    q = Qtile[c]
                    for j in range(TW):
                        s[j] += kc * q[j]
            # block maximum; rescale running sums where the maximum grows
            s = S[0]
            for j in range(TW):
                bm[j] = s[j]
            for ii in range(1, bw):
                s = S[ii]
                for j in range(TW):
                    bm[j] = max(bm[j], s[j])
            for j in range(TW):
                if bm[j] > mx[j]:
                    f = math.exp(mx[j] - bm[j])
                    den[j] *= f
                    cden[j] *= f
                    for c in range(mv):
                        num[c, j] *= f
                        cnum[c, j] *= f
                    mx[j] = bm[j]
            # shifted exponentials, all <= 1
            for ii in range(bw):
                s = S[ii]
                x = X[ii * TW:(ii + 1) * TW]
                for j in range(TW):
                    x[j] = s[j] - mx[j]
            _exp_block(X, tb, eb, P, bw * TW)
            # Kahan-compensated sums
            for ii in range(bw):
                i = i0 + ii
                p = P[ii * TW:(ii + 1) * TW]
                for j in range(TW):
                    y = p[j] - cden[j]
                    t = den[j] + y
                    cden[j] = (t - den[j]) - y
                    den[j] = t
                for c in range(mv):
                    vc = V[i, c]
                    if vc != 0.0:
                        nc = num[c]
                        cc = cnum[c]
                        for j in range(TW):
                            y = vc * p[j] - cc[j]
                            t = nc[j] + y
                            cc[j] = (t - nc[j]) - y
                            nc[j] = t
        for j in range(TW):
            jj = j0 + j
            if jj < out.shape[0]:
                dd = den[j] - cden[j]
                for c in range(mv):
                    out[jj, c] = (num[c, j] - cnum[c, j]) / dd


@nb.njit(parallel=True, fastmath=FLAGS, cache=True)
def fma_throughput(reps, nthreads):
    """``reps × 32`` fused multiply-adds per thread in 32 independent register chains.

    Returns a checksum (so the work cannot be optimized away); the bench divides
    the FMA count by the elapsed time.
    """
    tot = np.zeros(nthreads)
    for t in nb.prange(nthreads):
        b = 0.9999999
        c = 1e-9 * (t + 1)
        a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = 1.0
        a8 = a9 = a10 = a11 = a12 = a13 = a14 = a15 = 1.5
        a16 = a17 = a18 = a19 = a20 = a21 = a22 = a23 = 2.0
        a24 = a25 = a26 = a27 = a28 = a29 = a30 = a31 = 2.5
        for _ in range(reps):
            a0 = a0 * b + c; a1 = a1 * b + c; a2 = a2 * b + c; a3 = a3 * b + c
            a4 = a4 * b + c; a5 = a5 * b + c; a6 = a6 * b + c; a7 = a7 * b + c
            a8 = a8 * b + c; a9 = a9 * b + c; a10 = a10 * b + c; a11 = a11 * b + c
            a12 = a12 * b + c; a13 = a13 * b + c; a14 = a14 * b + c; a15 = a15 * b + c
            a16 = a16 * b + c; a17 = a17 * b + c; a18 = a18 * b + c; a19 = a19 * b + c
            a20 = a20 * b + c; a21 = a21 * b + c; a22 = a22 * b + c; a23 = a23 * b + c
            a24 = a24 * b + c; a25 = a25 * b + c; a26 = a26 * b + c; a27 = a27 * b + c
            a28 = a28 * b + c; a29 = a29 * b + c; a30 = a30 * b + c; a31 = a31 * b + c
        tot[t] = (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14
                  + a15 + a16 + a17 + a18 + a19 + a20 + a21 + a22 + a23 + a24 + a25 + a26 + a27
                  + a28 + a29 + a30 + a31)
    return tot.sum()


@nb.njit(parallel=True, fastmath=FLAGS, cache=True)
def exp_throughput(x, reps, nthreads):
    """``reps`` passes of the kernel's ``exp`` over ``x`` in each of ``nthreads`` threads."""
    tot = np.zeros(nthreads)
    n = x.shape[0]
    for t in nb.prange(nthreads):
        out = np.empty(n)
        tb = np.empty(n)
        eb = np.empty(n, dtype=np.int64)
        acc = 0.0
        for _ in range(reps):
            _exp_block(x, tb, eb, out, n)
            acc += out[0]
        tot[t] = acc
    return tot.sum()
