"""The SMT encoding of THEORY §6 as SMT-LIB2 text (this layer imports no solver).

For a reduced form ``P/Q``, a window ``W`` and a target ``k``: real unknowns
``g_i`` (one per window point), Booleans ``s_j`` (one per point ``t_j`` of
``supp Q + W``), with ``D = Q·G`` and ``N = P·G`` linear in the ``g``:

* ``s_j → D_{t_j} ≥ 1`` and ``¬s_j → D_{t_j} = 0 ∧ N_{t_j} = 0`` (every component),
* ``N_t = 0`` where ``t`` is outside ``supp Q + W`` (a numerator term alone),
* ``Σ s_j ≤ k`` and ``∨ s_j``.

Coefficients are the integers of ``Q`` and ``P``; no float ever reaches the
text.  Optional sound extras (see :mod:`attnproof.smt.symmetry`): lex-leader
constraints for symmetries that map the window onto itself, and the centering
of ``G``'s bounding box (translations).

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.fusion import reduced_form
>>> from attnproof.smt.lineality import full_frame
>>> from attnproof.smt.window import box_window
>>> e = encode(reduced_form(sigmoid_sum(1)), box_window(full_frame(1), 0), 2)
>>> print(e.smtlib.splitlines()[3])
(declare-fun g_0 () Real)
>>> len(e.targets), len(e.sha256)
(2, 64)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Sequence

from ..algebra.expfrac import poly_to_dict
from ..display import fields_repr
from ..errors import InputError
from .window import Window

__all__ = ["Encoding", "encode", "linear_term", "clause", "CARDINALITY"]

CARDINALITY = ("sum", "counter")

Exponent = tuple[int, ...]


def _num(c: int) -> str:
    return str(c) if c >= 0 else f"(- {-c})"


def linear_term(terms: Sequence[tuple[int, str]]) -> str:
    """SMT-LIB2 text of ``Σ c·v`` for integer ``c`` (``0`` when empty).

    >>> linear_term([(1, "g_0"), (-3, "g_2")])
    '(+ g_0 (* (- 3) g_2))'
    """
    parts = [v if c == 1 else f"(* {_num(c)} {v})" for c, v in terms if c != 0]
    if not parts:
        return "0"
    if len(parts) == 1:
        return parts[0]
    return "(+ " + " ".join(parts) + ")"


@dataclass(frozen=True, repr=False)
class Encoding:
    """One query: its SMT-LIB2 text, SHA-256, and the names needed to read a model."""

    atoms: int
    window: Window
    gvars: tuple[str, ...]
    targets: tuple[Exponent, ...]
    smtlib: str
    sha256: str
    stats: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        """Short: the query's size and hash (``.smtlib`` is the text)."""
        return fields_repr("Encoding", atoms=self.atoms, window_points=len(self.window),
                           smtlib_lines=self.smtlib.count("\n") + 1, sha256=self.sha256[:16] + "...")


def _products(poly_dict: dict[Exponent, int], window: Window) -> dict[Exponent, list[tuple[int, str]]]:
    out: dict[Exponent, list[tuple[int, str]]] = {}
    for s, c in sorted(poly_dict.items()):
        for i, w in enumerate(window.points):
            t = tuple(a + b for a, b in zip(s, w))
            out.setdefault(t, []).append((c, f"g_{i}"))
    return out


def _cardinality_sum(svars: list[str], k: int) -> list[str]:
    return [f"(assert (<= (+ 0 {' '.join(f'(ite {s} 1 0)' for s in svars)}) {k}))"]


def _cardinality_counter(svars: list[str], k: int) -> tuple[list[str], list[str]]:
    """Sequential counter (Sinz 2005) for ``Σ s ≤ k``: declarations and clauses."""
    n = len(svars)
    if k >= n:
        return [], []
    if k == 0:
        return [], [f"(assert (not {s}))" for s in svars]
    decls, cl = [], []
    r = [[f"r_{i}_{j}" for j in range(k)] for i in range(n - 1)]
    for row in r:
        decls += [f"(declare-fun {v} () Bool)" for v in row]
    cl.append(f"(assert (=> {svars[0]} {r[0][0]}))")
    cl += [f"(assert (not {r[0][j]}))" for j in range(1, k)]
    for i in range(1, n - 1):
        cl.append(f"(assert (=> {svars[i]} {r[i][0]}))")
        cl.append(f"(assert (=> {r[i - 1][0]} {r[i][0]}))")
        for j in range(1, k):
            cl.append(f"(assert (=> (and {svars[i]} {r[i - 1][j - 1]}) {r[i][j]}))")
            cl.append(f"(assert (=> {r[i - 1][j]} {r[i][j]}))")
        cl.append(f"(assert (not (and {svars[i]} {r[i - 1][k - 1]})))")
    cl.append(f"(assert (not (and {svars[n - 1]} {r[n - 2][k - 1]})))")
    return decls, cl


MAX_LEX_CONSTRAINTS = 32
MAX_LEX_POSITIONS = 256


def _lex_leq(name: str, x: list[str], y: list[str]) -> tuple[list[str], list[str]]:
    """``x ≤_lex y`` for Boolean vectors (false < true), with chain variables.

    Only the first :data:`MAX_LEX_POSITIONS` differing positions are compared
    (a prefix of a lex-leader constraint is implied by it, so still sound).
    """
    pairs = [(a, b) for a, b in zip(x, y) if a != b][:MAX_LEX_POSITIONS]
    if not pairs:
        return [], []
    decls, cl = [], []
    e = [f"{name}_{i}" for i in range(len(pairs))]
    decls += [f"(declare-fun {v} () Bool)" for v in e]
    cl.append(f"(assert {e[0]})")
    for i, (a, b) in enumerate(pairs):
        cl.append(f"(assert (=> (and {e[i]} {a}) {b}))")
        if i + 1 < len(pairs):
            cl.append(f"(assert (=> (and {e[i]} (= {a} {b})) {e[i + 1]}))")
    return decls, cl


def _centering(targets: Sequence[Exponent], svars: list[str], window: Window,
               q_support: Sequence[Exponent]) -> tuple[list[str], list[str]]:
    """``|lo_j + hi_j| ≤ 1`` for the extent ``[lo_j, hi_j]`` of ``G`` in each free coordinate.

    By Lemma 6 the extent of ``supp D`` in coordinate ``j`` is the extent of
    ``supp Q`` plus that of ``G``, so ``lo_j ≤ a`` iff ``D`` has a term at
    level ``≤ min_j Q + a``: a disjunction of the ``s`` variables.
    """
    w = window.radius
    if w is None:
        raise InputError("centering needs a box window (a window with a radius)")
    decls: list[str] = []
    cl: list[str] = []
    for j in window.coordinates:
        qmin = min(s[j] for s in q_support)
        qmax = max(s[j] for s in q_support)

        def low(a: int) -> str:        # lo_j ≤ a
            if a >= w:
                return "true"
            if a < -w:
                return "false"
            return f"lo_{j}_{a + w}"

        def high(b: int) -> str:       # hi_j ≥ b
            if b <= -w:
                return "true"
            if b > w:
                return "false"
            return f"hi_{j}_{b + w}"

        for a in range(-w, w):
            lits = [s for t, s in zip(targets, svars) if t[j] <= qmin + a]
            body = "(or " + " ".join(lits) + ")" if len(lits) > 1 else (lits[0] if lits else "false")
            decls.append(f"(define-fun {low(a)} () Bool {body})")
        for b in range(-w + 1, w + 1):
            lits = [s for t, s in zip(targets, svars) if t[j] >= qmax + b]
            body = "(or " + " ".join(lits) + ")" if len(lits) > 1 else (lits[0] if lits else "false")
            decls.append(f"(define-fun {high(b)} () Bool {body})")
        for a in range(-w - 1, w + 2):
            # forbid lo ≥ a ∧ hi ≥ 2 − a   (lo + hi ≥ 2)
            clause(cl, (low(a - 1), True), (high(2 - a), False))
            # forbid lo ≤ a ∧ hi ≤ −2 − a  (lo + hi ≤ −2)
            clause(cl, (low(a), False), (high(-1 - a), True))
    return decls, cl


def _parity(targets: Sequence[Exponent], svars: list[str],
            directions: Sequence[Exponent]) -> tuple[list[str], list[str]]:
    """Lemma 11.1: on every line ``t + Z·g`` the support of ``D`` has both parities or none.

    For each primitive ``g`` of a binomial factor ``1 + c·x^g`` (``c > 0``) of
    ``Q``: ``(∨ σ at even offsets) = (∨ σ at odd offsets)`` on each line,
    offsets counted along ``g``.  Implied by ``D = Q·G`` with ``D ≥ 0``.

    >>> _parity([(0,), (1,), (2,)], ["a", "b", "c"], [(1,)])[1]
    ['(assert (= (or a c) b))']
    """
    decls: list[str] = []
    cl: list[str] = []
    for g in directions:
        p = next(i for i, x in enumerate(g) if x != 0)
        lines: dict[Exponent, tuple[list[str], list[str]]] = {}
        for t, s in zip(targets, svars):
            k = t[p] // g[p]
            base = tuple(a - k * b for a, b in zip(t, g))
            lines.setdefault(base, ([], []))[k % 2].append(s)
        for base in sorted(lines):
            even, odd = lines[base]
            if not even or not odd:
                cl += [f"(assert (not {s}))" for s in even + odd]
                continue
            e = even[0] if len(even) == 1 else "(or " + " ".join(even) + ")"
            o = odd[0] if len(odd) == 1 else "(or " + " ".join(odd) + ")"
            cl.append(f"(assert (= {e} {o}))")
    return decls, cl


def clause(out: list[str], *lits: tuple[str, bool]) -> None:
    """Append ``(assert (or ...))`` for literals ``(atom, positive)``, simplifying constants.

    >>> out = []
    >>> clause(out, ("true", False), ("b", True)); clause(out, ("a", True), ("false", True))
    >>> out
    ['(assert b)', '(assert a)']
    """
    parts = []
    for atom, positive in lits:
        if atom in ("true", "false"):
            if (atom == "true") == positive:
                return                      # a true literal: the clause holds
            continue                        # a false literal: drop it
        parts.append(atom if positive else f"(not {atom})")
    if not parts:
        out.append("(assert false)")
    elif len(parts) == 1:
        out.append(f"(assert {parts[0]})")
    else:
        out.append("(assert (or " + " ".join(parts) + "))")


def term_orders(d: int, support: Sequence[Exponent], max_orders: int) -> list[tuple[int, ...]]:
    """Signed coordinate orders (``±t_π1, ±t_π2, ...`` compared lexicographically) with distinct
    leading terms on ``support``; each is a pair ``(perm, signs)`` flattened as ``perm + signs``.

    Enumerated for small ``d``, sampled with a fixed seed otherwise (same input, same orders).

    >>> len(term_orders(2, [(0, 0), (1, 0), (0, 1), (1, 1)], 10))
    4
    """
    import itertools
    import random

    def candidates():
        if d <= 5:
            for perm in itertools.permutations(range(d)):
                for signs in itertools.product((1, -1), repeat=d):
                    yield perm, signs
        else:
            rng = random.Random(0)
            for _ in range(50 * max_orders):
                order = list(range(d))
                rng.shuffle(order)
                yield tuple(order), tuple(rng.choice((1, -1)) for _ in range(d))

    seen, out = set(), []
    for perm, signs in candidates():
        lt = max(support, key=lambda t: tuple(e * t[p] for p, e in zip(perm, signs)))
        if lt in seen:
            continue
        seen.add(lt)
        out.append(tuple(perm) + tuple(signs))
        if len(out) >= max_orders:
            break
    return out


def _leading_terms(targets: Sequence[Exponent], svars: list[str], window: Window,
                   q_support: Sequence[Exponent], max_orders: int) -> tuple[list[str], list[str], int]:
    """For additive total orders ``≺``: ``LT(D) = LT(Q) + LT(G)`` (Lemma 6 / Theorem 3's argument).

    Booleans ``h_i`` mark the window points where ``g_i`` may be non-zero
    (``¬h_i → g_i = 0``); for each order, if ``w`` is the ``≺``-largest marked
    point then the target ``LT(Q) + w`` is in ``supp D``.  Every solution
    satisfies these with ``h_i := (g_i ≠ 0)``, so nothing satisfiable is lost.
    """
    d = len(q_support[0])
    index = {t: j for j, t in enumerate(targets)}
    decls = [f"(declare-fun h_{i} () Bool)" for i in range(len(window.points))]
    cl = [f"(assert (=> (not h_{i}) (= g_{i} 0)))" for i in range(len(window.points))]
    orders = term_orders(d, q_support, max_orders)
    for o, spec in enumerate(orders):
        perm, signs = spec[:d], spec[d:]

        def key(t):
            return tuple(e * t[p] for p, e in zip(perm, signs))

        lt = max(q_support, key=key)
        seq = sorted(range(len(window.points)), key=lambda i: key(window.points[i]), reverse=True)
        for j, i in enumerate(seq):
            t = tuple(a + b for a, b in zip(lt, window.points[i]))
            sv = svars[index[t]]
            if j == 0:
                cl.append(f"(assert (=> h_{i} {sv}))")
            else:
                cl.append(f"(assert (=> (and n_{o}_{j} h_{i}) {sv}))")
            if j + 1 < len(seq):
                decls.append(f"(declare-fun n_{o}_{j + 1} () Bool)")
                prev = f"(not h_{i})" if j == 0 else f"(and n_{o}_{j} (not h_{i}))"
                cl.append(f"(assert (=> {prev} n_{o}_{j + 1}))")
    return decls, cl, len(orders)


def _support_constraints(D: dict, Ns: list[dict], targets: list,
                         svars: list[str]) -> tuple[list[str], int]:
    """Each target term of ``D = Q·G`` is in the support (``s_j``: its coefficient at
    least 1) or vanishes with the numerators' terms there; numerator terms outside every
    target vanish.  The clauses, and the number of those lone numerator terms."""
    body = []
    for t, s in zip(targets, svars):
        d = linear_term(D[t])
        zeros = [f"(= {d} 0)"] + [f"(= {linear_term(N[t])} 0)" for N in Ns if t in N]
        body.append(f"(assert (=> {s} (>= {d} 1)))")
        body.append(f"(assert (=> (not {s}) (and {' '.join(zeros)})))" if len(zeros) > 1
                    else f"(assert (=> (not {s}) {zeros[0]}))")
    tset = set(targets)
    lone = 0
    for N in Ns:
        for t in sorted(N):
            if t not in tset:
                body.append(f"(assert (= {linear_term(N[t])} 0))")
                lone += 1
    return body, lone


def _lex_leaders(symmetries: Sequence[Sequence[int]],
                 svars: list[str]) -> tuple[list[str], list[str], int]:
    """A lex-leader constraint per symmetry (at most :data:`MAX_LEX_CONSTRAINTS`): the
    declarations, the clauses and the number of symmetries that gave one."""
    decls: list[str] = []
    body: list[str] = []
    nsym = 0
    for i, perm in enumerate(list(symmetries)[:MAX_LEX_CONSTRAINTS]):
        inv = [0] * len(perm)
        for j, p in enumerate(perm):
            inv[p] = j
        dcl, cl = _lex_leq(f"lex{i}", svars, [svars[inv[j]] for j in range(len(svars))])
        if cl:
            nsym += 1
        decls += dcl
        body += cl
    return decls, body, nsym


def encode(r, window: Window, k: int, *, cardinality: str = "sum",
           symmetries: Sequence[Sequence[int]] = (), centering: bool = False,
           leading_terms: int = 0, parity: Sequence[Exponent] = (),
           numerators: bool = True) -> Encoding:
    """The query "a fusion with at most ``k`` atoms whose ``G`` lies in ``window``".

    >>> from attnproof.families import sigmoid_sum
    >>> from attnproof.fusion import reduced_form
    >>> from attnproof.smt.lineality import full_frame
    >>> from attnproof.smt.window import box_window
    >>> e = encode(reduced_form(sigmoid_sum(2)), box_window(full_frame(2), 1), 3, cardinality="counter")
    >>> e.stats["window_points"], e.stats["targets"], e.smtlib.count("(declare-fun r_")
    (9, 16, 45)

    ``symmetries`` are permutations of the target indices (``perm[j]`` is the
    image of target ``j``) under which the whole query is invariant; each adds
    a lex-leader constraint (at most :data:`MAX_LEX_CONSTRAINTS`: any subset of
    the group is sound).  ``centering`` needs a box window on a unimodular
    frame (the caller checks).  ``leading_terms`` is the number of term orders
    whose leading-term constraints are added (0: none).  ``numerators=False``
    leaves out every constraint on ``N = P·G``: the *denominator-only* query
    (a relaxation: its ``unsat`` refutes the window, its models need not be fusions).
    """
    if r.lattice.has_z:
        raise InputError("search: problems with biases have exp-rational coefficients, "
                         "which are outside the SMT search (THEORY §6)")
    if cardinality not in CARDINALITY:
        raise InputError(f"unknown cardinality encoding {cardinality!r}")
    if not isinstance(k, int) or k < 1:
        raise InputError(f"the target atom count must be a positive integer, got {k!r}")
    qd = poly_to_dict(r.Q)
    pds = [poly_to_dict(p) for p in r.P] if numerators else []
    D = _products(qd, window)
    Ns = [_products(pd, window) for pd in pds]
    targets = sorted(D)
    svars = [f"s_{j}" for j in range(len(targets))]
    gvars = [f"g_{i}" for i in range(len(window.points))]
    lines = [f"(set-info :source |attnproof window search: {len(window)} window points, "
             f"{len(targets)} targets, at most {k} atoms|)",
             "(set-info :smt-lib-version 2.6)",
             "(set-logic QF_LRA)"]
    lines += [f"(declare-fun {g} () Real)" for g in gvars]
    lines += [f"(declare-fun {s} () Bool)" for s in svars]
    extra_decls: list[str] = []
    body, lone = _support_constraints(D, Ns, targets, svars)
    if cardinality == "sum":
        body += _cardinality_sum(svars, k)
    else:
        dcl, cl = _cardinality_counter(svars, k)
        extra_decls += dcl
        body += cl
    body.append("(assert (or " + " ".join(svars) + "))" if len(svars) > 1 else f"(assert {svars[0]})")
    dcl, cl, nsym = _lex_leaders(symmetries, svars)
    extra_decls += dcl
    body += cl
    ncent = 0
    if centering:
        dcl, cl = _centering(targets, svars, window, list(qd))
        extra_decls += dcl
        body += cl
        ncent = len(cl)
    norders = 0
    if leading_terms > 0:
        dcl, cl, norders = _leading_terms(targets, svars, window, list(qd), leading_terms)
        extra_decls += dcl
        body += cl
    npar = 0
    if parity:
        dcl, cl = _parity(targets, svars, parity)
        extra_decls += dcl
        body += cl
        npar = len(cl)
    lines += extra_decls + body + ["(check-sat)", "(exit)"]
    text = "\n".join(lines) + "\n"
    stats = {"window_points": len(window), "targets": len(targets), "numerator_only_terms": lone,
             "cardinality": cardinality, "lex_leader_constraints": nsym, "centering_clauses": ncent,
             "term_orders": norders}
    if parity:
        stats["parity_clauses"] = npar
    if not numerators:
        stats["numerators"] = False
    return Encoding(k, window, tuple(gvars), tuple(targets), text,
                    hashlib.sha256(text.encode("ascii")).hexdigest(), stats)
