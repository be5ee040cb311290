"""Numba kernels behind :mod:`attnproof.numeric.kernels` (imported on first use).

Compiled lazily by Numba on the first call and cached on disk (``cache=True``).
The kernels release the GIL (``nogil=True``); :mod:`attnproof.numeric.kernels`
runs tiles of queries in a thread pool, which compiles much faster than a
``parallel=True`` region.
Only ``fastmath={"contract"}`` is enabled: it allows fused multiply-adds but
keeps the order of additions, so the Kahan compensations are not optimized away.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

__all__ = ["tiles", "fast_exp_into", "fma_stream", "exp_stream", "TW", "EXP_FLOOR"]

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


@nb.njit(fastmath=FLAGS, cache=True)
def _reduce(x):
    """``e^x = p · 2^k`` for ``x <= 0``; ``k`` sits in the low bits of the returned ``t``."""
    if x < EXP_FLOOR:
        x = EXP_FLOOR
    t = x * LOG2E + SHIFTER
    kf = t - SHIFTER
    r = x - kf * LN2HI
    r = r - kf * LN2LO
    # Estrin's scheme: short dependency chains (the order is fixed; no reassociation)
    r2 = r * r
    r4 = r2 * r2
    r8 = r4 * r4
    p01 = 1.0 + r
    p23 = C2 + C3 * r
    p45 = C4 + C5 * r
    p67 = C6 + C7 * r
    p89 = C8 + C9 * r
    pab = C10 + C11 * r
    pcd = C12 + C13 * r
    q0 = p01 + p23 * r2
    q1 = p45 + p67 * r2
    q2 = p89 + pab * r2
    s0 = q0 + q1 * r4
    s1 = q2 + pcd * r4
    p = s0 + s1 * r8
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


# the parts of one tile (inline="always"), inlined into it by Numba (no call per block)


@nb.njit(fastmath=FLAGS, cache=True, nogil=True, inline="always")
def _block_logits(K, lb, Qtile, S, bm, i0, bw):
    """Logits ``S[ii, :] = lb_i + <k_i, q>`` of atoms ``i0 .. i0+bw-1`` (FMAs unrolled by
    four key coordinates), and their maximum per query in ``bm``."""
    d = K.shape[1]
    for j in range(TW):
        bm[j] = -np.inf
    for ii in range(bw):
        i = i0 + ii
        s = S[ii]
        li = lb[i]
        for j in range(TW):
            s[j] = li
        c = 0
        while c + 4 <= d:
            k0 = K[i, c]
            k1 = K[i, c + 1]
            k2 = K[i, c + 2]
            k3 = K[i, c + 3]
            q0 = Qtile[c]
            q1 = Qtile[c + 1]
            q2 = Qtile[c + 2]
            q3 = Qtile[c + 3]
            for j in range(TW):
                s[j] = s[j] + k0 * q0[j] + k1 * q1[j] + k2 * q2[j] + k3 * q3[j]
            c += 4
        while c < d:
            kc = K[i, c]
            q = Qtile[c]
            for j in range(TW):
                s[j] += kc * q[j]
            c += 1
        for j in range(TW):
            x = s[j]
            bm[j] = x if x > bm[j] else bm[j]


@nb.njit(fastmath=FLAGS, cache=True, nogil=True, inline="always")
def _rescale(bm, mx, den, cden, num, cnum):
    """Online softmax: rescale the running sums where the maximum grows."""
    mv = num.shape[0]
    for j in range(TW):
        if bm[j] > mx[j]:
            f = math.exp(mx[j] - bm[j])
            den[j] *= f
            cden[j] *= f
            for c in range(mv):
                num[c, j] *= f
                cnum[c, j] *= f
            mx[j] = bm[j]


@nb.njit(fastmath=FLAGS, cache=True, nogil=True, inline="always")
def _block_exps(S, mx, P, tb, eb, tbits, bw):
    """``e^{S - max} = p * 2^k``: the polynomial part in ``P``, the exponent bits in ``eb``."""
    for ii in range(bw):
        s = S[ii]
        pr = P[ii]
        tr = tb[ii]
        for j in range(TW):
            t, p = _reduce(s[j] - mx[j])
            tr[j] = t
            pr[j] = p
        er = eb[ii]
        tbr = tbits[ii]
        for j in range(TW):
            er[j] = (tbr[j] - SHBITS + 1023) << 52


@nb.njit(fastmath=FLAGS, cache=True, nogil=True, inline="always")
def _block_sums(V, P, scale, bden, bnum, i0, bw):
    """Plain sums within the block (at most ``BA`` terms, each ``<= 1``)."""
    mv = V.shape[1]
    for j in range(TW):
        bden[j] = 0.0
    for c in range(mv):
        for j in range(TW):
            bnum[c, j] = 0.0
    for ii in range(bw):
        i = i0 + ii
        pr = P[ii]
        sc = scale[ii]
        for j in range(TW):
            e = pr[j] * sc[j]
            pr[j] = e
            bden[j] += e
        for c in range(mv):
            vc = V[i, c]
            if vc != 0.0:
                bn = bnum[c]
                for j in range(TW):
                    bn[j] += vc * pr[j]


@nb.njit(fastmath=FLAGS, cache=True, nogil=True, inline="always")
def _kahan_add(bden, bnum, den, cden, num, cnum):
    """The block's sums added to the running sums with Kahan compensation."""
    mv = num.shape[0]
    for j in range(TW):
        y = bden[j] - cden[j]
        t = den[j] + y
        cden[j] = (t - den[j]) - y
        den[j] = t
    for c in range(mv):
        nc = num[c]
        cc = cnum[c]
        bn = bnum[c]
        for j in range(TW):
            y = bn[j] - cc[j]
            t = nc[j] + y
            cc[j] = (t - nc[j]) - y
            nc[j] = t


@nb.njit(fastmath=FLAGS, cache=True, nogil=True)
def _tile(K, lb, V, Qt, out, j0):
    """One tile of ``TW`` queries starting at column ``j0`` of ``Qt``, streaming over all atoms.

    Per block of ``BA`` atoms: logits and their maximum (:func:`_block_logits`);
    rescaling of the running sums where the maximum grows (:func:`_rescale`); the
    shifted exponentials, all ``<= 1`` (:func:`_block_exps`); plain sums within the
    block (:func:`_block_sums`), added to the running sums with Kahan compensation
    (:func:`_kahan_add`).
    """
    n, d = K.shape
    mv = V.shape[1]
    Qtile = np.empty((d, TW))
    for c in range(d):
        Qtile[c, :] = Qt[c, j0:j0 + TW]
    S = np.empty((BA, TW))
    P = np.empty((BA, TW))
    tb = np.empty((BA, TW))
    eb = np.empty((BA, TW), dtype=np.int64)
    tbits = tb.view(np.int64)
    scale = eb.view(np.float64)
    mx = np.full(TW, -np.inf)
    bm = np.empty(TW)
    den = np.zeros(TW)
    cden = np.zeros(TW)
    num = np.zeros((mv, TW))
    cnum = np.zeros((mv, TW))
    bden = np.empty(TW)
    bnum = np.empty((mv, TW))
    for i0 in range(0, n, BA):
        bw = min(BA, n - i0)
        _block_logits(K, lb, Qtile, S, bm, i0, bw)
        _rescale(bm, mx, den, cden, num, cnum)
        _block_exps(S, mx, P, tb, eb, tbits, bw)
        _block_sums(V, P, scale, bden, bnum, i0, bw)
        _kahan_add(bden, bnum, den, cden, num, cnum)
    for j in range(TW):
        jj = j0 + j
        if jj < out.shape[0]:
            dd = den[j] - cden[j]
            for c in range(mv):
                out[jj, c] = (num[c, j] - cnum[c, j]) / dd


@nb.njit(fastmath=FLAGS, cache=True, nogil=True)
def tiles(K, lb, V, Qt, out, t0, t1):
    """Tiles ``t0 .. t1-1`` of ``TW`` queries each (the GIL is released: threads run in parallel)."""
    for t in range(t0, t1):
        _tile(K, lb, V, Qt, out, t * TW)


@nb.njit(fastmath=FLAGS, cache=True, nogil=True)
def fma_stream(row, sweeps):
    """``8 × sweeps × len(row)`` fused multiply-adds on an L1-resident row (vectorized; no GIL).

    Eight dependent FMAs per element and many elements in flight: the loop runs at
    the core's FMA throughput, not at its latency or its load/store rate.
    """
    b = 0.9999999
    c = 1e-9
    n = row.shape[0]
    for _ in range(sweeps):
        for j in range(n):
            x = row[j]
            x = x * b + c
            x = x * b + c
            x = x * b + c
            x = x * b + c
            x = x * b + c
            x = x * b + c
            x = x * b + c
            x = x * b + c
            row[j] = x
    return row.sum()


@nb.njit(fastmath=FLAGS, cache=True, nogil=True)
def exp_stream(x, out, reps):
    """``reps`` passes of the kernel's ``exp`` over ``x`` (no GIL); returns a checksum."""
    n = x.shape[0]
    tb = np.empty(n)
    eb = np.empty(n, dtype=np.int64)
    acc = 0.0
    for _ in range(reps):
        _exp_block(x, tb, eb, out, n)
        acc += out[0]
    return acc
