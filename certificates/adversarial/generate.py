"""Regenerate the adversarial certificates and their index (run from the repository root).

    python certificates/adversarial/generate.py

Each file attacks the checker: a forged claim of some rule, a resource bomb
(huge exponents, dimensions, digit counts, rank work, quadratic work, replay
work) or a syntax attack.  ``index.json`` gives, per file, the exit code that
``attnproof check FILE ARGS`` must return, the arguments, what the file
attacks, a budget (wall seconds, address-space megabytes) and what the
expected code needs (``flint``: python-flint importable; ``solvers``: z3 and
cvc5 for ``--replay``; without it the expected code is 2, inconclusive).
Every file is small: bombs are small by nature.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from fractions import Fraction
from math import comb, gcd
from pathlib import Path

from attnproof.certificate import build_certificate
from attnproof.checker import poly as P
from attnproof.families import sigmoid_sum
from attnproof.io import canonical_json

HERE = Path(__file__).resolve().parent
VALID = HERE.parent / "valid"
BUDGET = {"seconds": 10, "memory_mb": 1024}


def _rehash(doc: dict) -> dict:
    doc["problem_sha256"] = hashlib.sha256(canonical_json(doc["problem"]).encode("ascii")).hexdigest()
    return doc


def _count(n: int):
    return n if n < (1 << 53) else str(n)


def _claims(doc: dict, lower: int, upper: int) -> dict:
    doc["claims"].update(lower_bound=_count(lower), upper_bound=_count(upper),
                         minimum=_count(lower) if lower == upper else None)
    return doc


def _step(doc: dict, rule: str, k: int = 0) -> dict:
    return [s for s in doc["steps"] if s["rule"] == rule][k]


def _golden(name: str) -> dict:
    return json.loads((VALID / f"{name}.json").read_text())


def _fmt(c) -> int | str:
    c = Fraction(c)
    return int(c) if c.denominator == 1 else f"{c.numerator}/{c.denominator}"


def _poly_json(p: dict, rational: bool = False) -> list:
    terms = sorted(([list(pr) for pr in m], c) for m, c in p.items())
    return [[_fmt(c) if rational else int(c), m] for m, c in terms]


def _sigma_problem(keys: list, dim: int) -> dict:
    """Σ σ(<k, q>): one two-atom head per key (key k value 1, key 0 value 0)."""
    def key(k):
        if dim <= 16:
            return list(k)
        return {str(j): x for j, x in enumerate(k) if x}
    return {"format": "attnproof-problem", "version": 1, "dim": dim, "heads": [
        {"atoms": [{"key": key(k), "value": 1}, {"key": key([0] * dim), "value": 0}]}
        for k in keys]}


def _binomial_factor(g: list) -> tuple[dict, dict]:
    """Normal form of 1 + x^g and its canonical witness."""
    m = tuple((j, x) for j, x in enumerate(g) if x)
    f = P.normal_form({(): Fraction(1), m: Fraction(1)})
    lin = None
    for j, x in enumerate(g):
        if abs(x) == 1:
            lin = j
            break
    wit = {"kind": "linear", "var": lin} if lin is not None else {"kind": "binomial"}
    return f, wit


def _zonotope_cert(gens: list, dim: int, method: str, lower: int) -> dict:
    """A certificate for Σ σ(<g, q>) with one block of the given method and product_fusion."""
    prob = _sigma_problem(gens, dim)
    steps = []
    for g in gens:
        f, wit = _binomial_factor(g)
        steps.append({"rule": "irreducible_factor", "poly": _poly_json(f), "witness": wit,
                      "residue_component": 0})
    steps.sort(key=lambda s: canonical_json(s["poly"]))
    block = {"factors": list(range(len(gens))), "method": method}
    if method == "zonotope_graphic":        # the producer's hint: nodes named by variable, ground dim
        from attnproof.bounds.zonotope import graph_hint
        ends = [[i for i, x in enumerate(g) if x] for g in gens]
        block["graph_blocks"] = graph_hint([(e[0], e[1] if len(e) == 2 else dim) for e in ends])
    steps.append({"rule": "newton_blocks", "blocks": [block]})
    steps.append({"rule": "product_fusion"})
    doc = {"format": "attnproof-certificate", "version": 1, "problem": prob,
           "problem_sha256": "", "claims": {"window_refutations": []}, "steps": steps,
           "trust": "exact"}
    return _claims(_rehash(doc), lower, 2 ** len(gens))


def _hull_vertices(pts: list) -> list:
    """Vertices of a 2-D lattice polygon with a functional selecting each uniquely."""
    pts = sorted(set(pts))

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    hull = lower[:-1] + upper[:-1]               # counter-clockwise
    out = []
    for i, v in enumerate(hull):
        a, b = hull[i - 1], hull[(i + 1) % len(hull)]
        n1 = (v[1] - a[1], a[0] - v[0])          # outward normals of the two edges
        n2 = (b[1] - v[1], v[0] - b[0])
        out.append([list(v), [n1[0] + n2[0], n1[1] + n2[1]]])
    return sorted(out)


def flint_not_reduced() -> dict:
    """W_2 with a reduced_by_flint step whose P/Q is M times g/g, g = (1+x+y)(1+x^2 y)."""
    F = Fraction
    one, x, y = (), ((0, 1),), ((1, 1),)
    Q = P.mul({one: F(1), x: F(1)}, {one: F(1), y: F(1)})
    Pn = {x: F(1), y: F(1), ((0, 1), (1, 1)): F(2)}
    g = P.mul({one: F(1), x: F(1), y: F(1)}, {one: F(1), ((0, 2), (1, 1)): F(1)})
    Qg, Pg = P.mul(Q, g), P.mul(Pn, g)
    pts = [tuple(dict(m).get(v, 0) for v in (0, 1)) for m in Qg]
    verts = _hull_vertices(pts)
    atoms = []
    for m in sorted(Qg, key=lambda m: [dict(m).get(v, 0) for v in (0, 1)]):
        a = {"key": [dict(m).get(0, 0), dict(m).get(1, 0)], "value": _fmt(Pg.get(m, 0) / Qg[m])}
        if Qg[m] != 1:
            a["weight"] = _fmt(Qg[m])
        atoms.append(a)
    doc = _golden("w3")
    doc["problem"] = build_certificate(sigmoid_sum(2)).doc["problem"]
    doc["steps"] = [
        {"rule": "reduced_by_flint", "numerator": [_poly_json(Pg, True)],
         "denominator": _poly_json(Qg)},
        {"rule": "newton_blocks", "blocks": [{"factors": [0], "method": "vertices",
                                              "vertices": verts}]},
        {"rule": "explicit_fusion", "head": {"atoms": atoms}}]
    doc["trust"] = "exact-modulo-flint"
    return _claims(_rehash(doc), len(verts), len(Qg))


def flint_exponent(key: int) -> dict:
    """σ(key·q) certified by reduced_by_flint: P = x^key, Q = 1 + x^key."""
    doc = single_sigma(key)
    doc["steps"][0] = {"rule": "reduced_by_flint", "numerator": [[[1, [[0, key]]]]],
                       "denominator": [[1, []], [1, [[0, key]]]]}
    doc["trust"] = "exact-modulo-flint"
    return doc


def window_step(k: int, window: dict, smtlib: str = "(assert false)(check-sat)\n",
                solvers=None) -> dict:
    return {"rule": "window_refutation", "atoms": k, "window": window,
            "solvers": solvers or {"z3": "any", "cvc5": "any"},
            "smtlib_sha256": hashlib.sha256(smtlib.encode("utf-8")).hexdigest(), "smtlib": smtlib}


def with_window(doc: dict, step: dict) -> dict:
    doc["steps"].append(step)
    doc["claims"]["window_refutations"].append({"atoms": step["atoms"], "window": step["window"]})
    doc["trust"] = "window-refuted"
    return doc


def single_sigma(key: int) -> dict:
    """σ(key·q) with the factor 1 + x claimed (true when key is odd)."""
    doc = {"format": "attnproof-certificate", "version": 1,
           "problem": _sigma_problem([[key]], 1), "problem_sha256": "",
           "claims": {"window_refutations": []},
           "steps": [{"rule": "irreducible_factor", "poly": [[1, []], [1, [[0, 1]]]],
                      "witness": {"kind": "linear", "var": 0}, "residue_component": 0},
                     {"rule": "newton_blocks", "blocks": [{"factors": [0],
                                                           "method": "zonotope_independent"}]},
                     {"rule": "product_fusion"}],
           "trust": "exact"}
    return _claims(_rehash(doc), 2, 2)


def double_sigma(key: int) -> dict:
    """σ(key·q) + σ(key·q) with the factor 1 + x claimed: two heads reach the top
    valuation, so the residue needs the quotients (1 + x^key)/(1 + x) of key terms."""
    doc = single_sigma(key)
    doc["problem"] = _sigma_problem([[key], [key]], 1)
    _rehash(doc)
    return _claims(doc, 2, 4)


def _geom_doc(heads: list, dim: int, steps: list, lower: int, upper: int) -> dict:
    prob = {"format": "attnproof-problem", "version": 1, "dim": dim, "heads": heads}
    doc = {"format": "attnproof-certificate", "version": 1, "problem": prob,
           "problem_sha256": "", "claims": {"window_refutations": []}, "steps": steps,
           "trust": "exact"}
    return _claims(_rehash(doc), lower, upper)


def constant_components(dim: int, comps: int) -> dict:
    """One head ``(1 + x_{d-1})·v / (1 + x_{d-1})`` with ``comps`` equal value components: a
    constant, genuinely (minimum 1); its constant test runs once per component."""
    v = [1] * comps
    heads = [{"atoms": [{"key": {}, "value": v}, {"key": {str(dim - 1): 1}, "value": v}]}]
    steps = [{"rule": "indecomposable_chain", "head": 0, "kind": "simplex", "prime": 2 ** 61 - 1},
             {"rule": "generic_heads", "classes": [[0]]},
             {"rule": "newton_blocks", "blocks": []}, {"rule": "product_fusion"}]
    return _geom_doc(heads, dim, steps, 1, 2)


def dense_simplex(n: int, dim: int) -> dict:
    """One head with keys ``e_0 .. e_{n-1}`` in dimension ``dim`` and a Gao simplex step: its
    points are ``n`` dense vectors of ``n`` coordinates (``n^2`` entries from ``~20 n`` bytes)."""
    heads = [{"atoms": [{"key": {str(j): 1}, "value": j % 3} for j in range(n)]}]
    steps = [{"rule": "indecomposable_chain", "head": 0, "kind": "simplex", "prime": 2 ** 61 - 1},
             {"rule": "generic_heads", "classes": [[0]]},
             {"rule": "direct_sum", "prime": 2 ** 61 - 1, "factors": [
                 {"basis": list(range(1, n)), "relations": [], "vertices": [],
                  "non_vertices": []}]},
             {"rule": "product_fusion"}]
    return _geom_doc(heads, dim, steps, n, n)


def thin_triangle(v: int) -> dict:
    """A head with points ``0, e_{v-2}, e_{v-1}`` and ``e_0 + ... + e_{v-3}`` in ``v`` varying
    coordinates, and a chain claiming the triangle of the first three: its edge vectors
    have one 2x2 minor that is not zero, the last one; the fourth point is on no triangle
    and is no convex combination (invalid).  Testing all minors took ``v²/2`` steps."""
    far = {str(j): 1 for j in range(v - 2)}
    keys = [{}, {str(v - 2): 1}, {str(v - 1): 1}, far]
    heads = [{"atoms": [{"key": k, "value": i} for i, k in enumerate(keys)]}]
    dense = sorted(tuple(int(k.get(str(j), 0)) for j in range(v)) for k in keys)
    idx = [dense.index(tuple(int(k.get(str(j), 0)) for j in range(v))) for k in keys[:3]]
    functional = [-1] * (v - 2) + [0, 0]
    steps = [{"rule": "indecomposable_chain", "head": 0, "kind": "chain",
              "triangles": [[sorted(idx), functional]], "non_vertices": []},
             {"rule": "generic_heads", "classes": [[0]]},
             {"rule": "newton_blocks", "blocks": []}, {"rule": "product_fusion"}]
    return _geom_doc(heads, max(v, 17), steps, 1, 4)


def constant_pairs(pairs: int) -> dict:
    """``Σ_i x_{2i+1}/(x_{2i}+x_{2i+1}) + x_{2i}²/(x_{2i}²+x_{2i}x_{2i+1})``, a constant, with
    the first head of each pair passed off as a unit: a forged lower bound ``2^pairs``."""
    dim = max(2 * pairs, 17)

    def e(*idx):
        k: dict = {}
        for j in idx:
            k[str(j)] = k.get(str(j), 0) + 1
        return k

    heads, steps = [], []
    for i in range(pairs):
        a, b = 2 * i, 2 * i + 1
        heads.append({"atoms": [{"key": e(b), "value": 1}, {"key": e(a), "value": 0}]})
        heads.append({"atoms": [{"key": e(a, a), "value": 1}, {"key": e(a, b), "value": 0}]})
        steps.append({"rule": "indecomposable_chain", "head": 2 * i + 1, "kind": "simplex",
                      "prime": 2 ** 61 - 1})
    steps += [{"rule": "generic_heads", "classes": [[2 * i + 1] for i in range(pairs)]},
              {"rule": "newton_blocks", "blocks": [
                  {"factors": [i], "method": "zonotope_independent"} for i in range(pairs)]},
              {"rule": "product_fusion"}]
    return _geom_doc(heads, dim, steps, 2 ** pairs, 4 ** pairs)


# -- explicit fusions of W_2 with forged or wasteful heads (THEORY §3, docs §6.5) ------

def _w2_explicit(atoms: list, upper: int, problem: dict | None = None) -> dict:
    """The genuine certificate of ``problem`` (W_2 by default) with its upper-bound step
    replaced by an explicit head of ``atoms`` (sorted here by their dense exponent)."""
    from attnproof.io import problem_from_dict

    doc = build_certificate(problem_from_dict(problem) if problem else sigmoid_sum(2)).doc
    atoms = sorted(atoms, key=lambda a: [k if type(k) is int else Fraction(k) for k in a["key"]])
    doc["steps"][-1] = {"rule": "explicit_fusion", "head": {"atoms": atoms}}
    lower = doc["claims"]["lower_bound"]
    return _claims(doc, int(lower), max(upper, int(lower)))


def _random_keys(rng, n: int, span: int, digits: int = 0) -> list:
    keys: set = set()
    big = 10 ** digits if digits else 0
    while len(keys) < n:
        keys.add((big + rng.randint(-span, span), big + rng.randint(-span, span)))
    return [list(k) for k in keys]


def _rational(rng, digits: int) -> int | str:
    if digits <= 0:
        return rng.randint(-9, 9)
    while True:
        p, q = rng.randrange(10 ** (digits - 1), 10 ** digits), rng.randrange(10 ** (digits - 1), 10 ** digits)
        if gcd(p, q) == 1:
            return f"{p}/{q}"


def forged_head(n: int, seed: int = 0, span: int = 10 ** 6, value_digits: int = 0,
                weight_digits: int = 0, key_digits: int = 0, problem: dict | None = None) -> dict:
    """A genuine certificate with an explicit head of ``n`` random atoms (false: not the
    problem's function).  ``value_digits``: long rational values (a huge numerator);
    ``weight_digits``, ``key_digits``: long weights and coordinates (a huge denominator
    with huge exponents); ``problem``: another problem (many heads, one denominator)."""
    import random
    rng = random.Random(seed)
    atoms = []
    for k in _random_keys(rng, n, span, key_digits):
        a = {"key": k, "value": _rational(rng, value_digits)}
        if weight_digits:
            a["weight"] = _rational(rng, weight_digits).lstrip("-")
        atoms.append(a)
    return _w2_explicit(atoms, n, problem)


def _image_sum(prob: dict) -> int:
    """``Σ_h N_h/D_h`` at the checker's point modulo its prime (one value component)."""
    from attnproof.checker.problem import parse_problem
    pb = parse_problem(prob)
    vals = P.images([p for D, Ns in zip(pb.den, pb.num) for p in (D, *Ns)])
    return sum(n * pow(d, -1, P._P) for d, n in zip(vals[::2], vals[1::2])) % P._P


def pass_the_point(doc: dict) -> dict:
    """Set the value of the last atom of the explicit head (step -1) so that the identity
    holds at the checker's point modulo p: only the exact check can then refute it."""
    from attnproof.checker.problem import head_polys, parse_atoms, parse_problem
    atoms = doc["steps"][-1]["head"]["atoms"]
    atoms[-1]["value"] = 0
    pb = parse_problem(doc["problem"])                  # neither reader changes its input
    parsed = parse_atoms(atoms, pb.dim, 1, "h")[0]
    D, N = head_polys(pb, parsed, "h")
    key, bias, w, _ = parsed[-1]
    d, nn, mono = P.images([D, N[0], {pb.monomial(key, bias, "h"): w}])
    want = _image_sum(doc["problem"]) * d % P._P
    atoms[-1]["value"] = (want - nn) * pow(mono, -1, P._P) % P._P
    return doc


def point_passing_head(n: int, seed: int = 0, span: int = 10 ** 6) -> dict:
    """:func:`forged_head` whose last value is chosen so that the identity holds at the
    checker's point modulo p: still false, but only the exact check can say so."""
    return pass_the_point(forged_head(n, seed, span))


def wasteful_head(k: int, seed: int = 0, span: int = 1000) -> dict:
    """A genuine explicit fusion of W_2 with ``D* = D·U``, ``N* = N·U`` for a random positive
    ``U`` of ``k`` terms: true (``|supp D*|`` atoms), and long to verify exactly."""
    import random
    rng = random.Random(seed)
    x, y, xy = ((0, 1),), ((1, 1),), ((0, 1), (1, 1))
    D = {(): 1, x: 1, y: 1, xy: 1}                       # (1 + x)(1 + y)
    N = {x: 1, y: 1, xy: 2}                              # x(1 + y) + y(1 + x)
    U = {}
    for a, b in _random_keys(rng, k, span):
        U[tuple(pr for pr in ((0, a), (1, b)) if pr[1])] = rng.randint(1, 5)
    Ds, Ns = P.mul(D, U), P.mul(N, U)
    atoms = []
    for m, w in Ds.items():
        e = dict(m)
        a = {"key": [e.get(0, 0), e.get(1, 0)], "value": _fmt(Fraction(Ns.get(m, 0)) / w)}
        if w != 1:
            a["weight"] = int(w)
        atoms.append(a)
    return _w2_explicit(atoms, len(atoms))


def undecided_division(pad: int = 0, n: int = 10 ** 9) -> dict:
    """σ-like head ``1 + x^n + (p+2)·x^(n+1)`` (``p = 2^61 - 1``, n even) with the factor
    ``1 + x`` claimed: the value at ``x = -1`` is ``-p``, so ``1 + x`` does not divide it,
    but its image modulo ``p`` vanishes there and only the ``n``-step division could say
    so.  ``pad``: a head ``name`` of that many bytes, which used to buy budget."""
    prob = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
        {"atoms": [{"key": [0], "value": 1}, {"key": [n], "value": 0},
                   {"key": [n + 1], "value": 0, "weight": P._P + 2}]}]}
    if pad:
        prob["heads"][0]["name"] = "x" * pad
    doc = {"format": "attnproof-certificate", "version": 1, "problem": prob,
           "problem_sha256": "", "claims": {"window_refutations": []}, "trust": "exact",
           "steps": [{"rule": "irreducible_factor", "poly": [[1, []], [1, [[0, 1]]]],
                      "witness": {"kind": "linear", "var": 0}, "residue_component": 0},
                     {"rule": "newton_blocks", "blocks": [{"factors": [0],
                                                           "method": "zonotope_independent"}]},
                     {"rule": "product_fusion"}]}
    return _claims(_rehash(doc), 2, 3)


def huge_exponent_head(nv: int = 100, digits: int = 2000, seed: int = 1) -> dict:
    """One head ``(1 + x_0)(1 + M)`` with ``M`` a monomial in ``nv`` variables whose
    exponents have ``digits`` digits, and the factor ``1 + x_0`` claimed: the division
    of the head by the factor coded its box in integers of ``nv·digits`` digits and
    divided them at every step (100 variables: 100 s for a 0.8 MB file)."""
    import random
    rng = random.Random(seed)
    M = {str(v): rng.randrange(10 ** (digits - 1), 10 ** digits) for v in range(1, nv + 1)}
    keys = [{}, {"0": 1}, M, {"0": 1, **M}]
    prob = {"format": "attnproof-problem", "version": 1, "dim": nv + 1, "heads": [
        {"atoms": [{"key": k, "value": i % 2} for i, k in enumerate(keys)]}]}
    doc = {"format": "attnproof-certificate", "version": 1, "problem": prob,
           "problem_sha256": "", "claims": {"window_refutations": []}, "trust": "exact",
           "steps": [{"rule": "irreducible_factor", "poly": [[1, []], [1, [[0, 1]]]],
                      "witness": {"kind": "linear", "var": 0}, "residue_component": 0},
                     {"rule": "newton_blocks", "blocks": [{"factors": [0],
                                                           "method": "zonotope_independent"}]},
                     {"rule": "product_fusion"}]}
    return _claims(_rehash(doc), 2, 4)


def one_denominator_problem(heads: int) -> dict:
    """``heads`` heads ``(v_i x + w_i)/(1 + x)`` in one variable: one denominator."""
    return {"format": "attnproof-problem", "version": 1, "dim": 2, "heads": [
        {"atoms": [{"key": [1, 0], "value": i % 7 - 3}, {"key": [0, 0], "value": i % 5}]}
        for i in range(heads)] + [
        {"atoms": [{"key": [0, 1], "value": 1}, {"key": [0, 0], "value": 0}]}]}


def general_position_gens(n: int, r: int, seed: int = 5) -> list:
    import random
    rng = random.Random(seed)
    out = set()
    while len(out) < n:
        g = [rng.randint(-3, 3) for _ in range(r)]
        k = 0
        for x in g:
            k = gcd(k, x)
        if k == 1:
            first = next(x for x in g if x)
            out.add(tuple(x if first > 0 else -x for x in g))
    return [list(g) for g in sorted(out)]


def shifted_w3(offset: int, dim: int) -> dict:
    """W_3 on coordinates offset..offset+2 of a dim-dimensional problem (sparse keys)."""
    doc = build_certificate(sigmoid_sum(3), explicit_fusion_limit=1).doc
    doc["problem"] = _sigma_problem([[0] * offset + [1 if i == j else 0 for i in range(3)]
                                     + [0] * (dim - offset - 3) for j in range(3)], dim)
    for s in doc["steps"]:
        if s["rule"] == "irreducible_factor":
            s["poly"] = [[c, [[v + offset, e] for v, e in m]] for c, m in s["poly"]]
            s["witness"]["var"] += offset
    return _rehash(doc)


def _swap_rules(d: dict) -> None:
    idx = [i for i, s in enumerate(d["steps"]) if s["rule"] not in
           ("irreducible_factor", "newton_blocks", "product_fusion", "explicit_fusion")]
    if len(idx) >= 2:
        a, b = d["steps"][idx[0]], d["steps"][idx[1]]
        a["rule"], b["rule"] = b["rule"], a["rule"]
    else:
        d["steps"][idx[0]]["rule"] = "newton_blocks"


def _scale_keys(d: dict, k: int) -> None:
    for h in d["problem"]["heads"]:
        for a in h["atoms"]:
            key = a["key"]
            if isinstance(key, list):
                a["key"] = [_fmt(Fraction(x) * k) for x in key]
            else:
                a["key"] = {j: _fmt(Fraction(x) * k) for j, x in key.items()}
    _rehash(d)


def entries() -> list[tuple[str, str, object, int, list, list]]:
    """(name, what, document or raw text or bytes, exit code, extra args, needs)."""
    out = []

    def add(name, what, doc, code=1, args=None, needs=None):
        out.append((name, what, doc, code, args or [], needs or []))

    def mut(name, src, what, fn, code=1, args=None, needs=None):
        d = copy.deepcopy(src if isinstance(src, dict) else _golden(src))
        r = fn(d)
        add(name, what, d if r is None else r, code, args, needs)

    # -- forged claims, one or more per rule ------------------------------------------
    add("forged-flint-not-reduced", "reduced_by_flint: P/Q = M but gcd(P, Q) = (1+x+y)(1+x^2y): "
        "claims a lower bound above the true minimum 4 (FLINT recomputes the gcd)",
        flint_not_reduced(), 1, needs=["flint"])
    mut("forged-flint-with-factor", "flint", "reduced_by_flint after an irreducible_factor step",
        lambda d: d["steps"].insert(0, {"rule": "irreducible_factor", "poly": [[1, []], [1, [[0, 1]]]],
                                        "witness": {"kind": "linear", "var": 0},
                                        "residue_component": 0}))
    k3 = _golden("k3")
    wfalse = with_window(copy.deepcopy(k3), window_step(
        7, {"kind": "box", "radius": 0, "coordinates": [0, 1]}))
    add("forged-window-false", "window_refutation: 'no fusion with <= 7 atoms, G in the radius-0 "
        "box' (false: G = 1) with SMT text (assert false): not re-proven, so inconclusive",
        wfalse, 2)
    add("forged-window-false-replay", "the same false window claim under --replay: the text "
        "is not an encoding of the problem, so invalid", wfalse, 1, ["--replay"], ["solvers"])
    mut("forged-window-unclaimed", k3, "a window_refutation step missing from the claims",
        lambda d: (with_window(d, window_step(6, {"kind": "box", "radius": 1,
                                                  "coordinates": [0, 1]})),
                   d["claims"].__setitem__("window_refutations", [])) and None)
    mut("forged-window-one-solver", k3, "window_refutation naming one solver only",
        lambda d: with_window(d, window_step(6, {"kind": "box", "radius": 1, "coordinates": [0, 1]},
                                             solvers={"z3": "4.12", "cvc5": ""})))
    mut("forged-window-trust-exact", k3, "a window claim under trust 'exact'",
        lambda d: (with_window(d, window_step(6, {"kind": "box", "radius": 1,
                                                  "coordinates": [0, 1]})),
                   d.__setitem__("trust", "exact")) and None)
    mut("forged-floor-constant", "cancel", "non_constant: σ + (1 − σ) = 1 claimed to need 2 "
        "atoms (a limit and the point x = 1, both 1)",
        lambda d: (d["steps"].insert(1, {"rule": "non_constant", "witnesses": [
            {"point": []}, {"limit": [[0, 1]]}]}), _claims(d, 2, 1)) and None)
    mut("forged-floor-slope", "cancel", "non_constant: a slope claimed for σ + (1 − σ) = 1",
        lambda d: (d["steps"].insert(1, {"rule": "non_constant", "witnesses": [
            {"slope": [[0, 1]]}]}), _claims(d, 2, 1)) and None)
    mut("forged-sub-sum-inflated", "sub-sum", "sub_sum keeps two factors, the direct sum "
        "claims three", lambda d: (_step(d, "direct_sum")["factors"].append(
            {"basis": [1], "relations": [], "vertices": [], "non_vertices": []}),
            _claims(d, 12, 12)) and None)
    mut("forged-factor-capelli-reducible", "capelli", "irreducible_factor: 1 + x^6 claimed "
        "irreducible (Capelli: -1 is a cube)", lambda d: _step(d, "irreducible_factor", 1)
        .__setitem__("poly", [[1, []], [1, [[0, 6]]]]))
    mut("forged-factor-duplicate", "w3", "irreducible_factor: the same factor twice "
        "(doubling its contribution)", lambda d: d["steps"].insert(1, copy.deepcopy(d["steps"][0])))
    mut("forged-factor-not-dividing", "w3", "irreducible_factor: 1 + x0 + x1 divides no head",
        lambda d: d["steps"].insert(0, {"rule": "irreducible_factor",
                                        "poly": [[1, []], [1, [[0, 1]]], [1, [[1, 1]]]],
                                        "witness": {"kind": "linear", "var": 0},
                                        "residue_component": 0}))
    mut("forged-factor-square", "w1", "irreducible_factor: (1+x)^2 = 1 + 2x + x^2 with a "
        "simplex witness (its support is not affinely independent)",
        lambda d: d["steps"].__setitem__(0, {"rule": "irreducible_factor",
                                             "poly": [[1, []], [2, [[0, 1]]], [1, [[0, 2]]]],
                                             "witness": {"kind": "simplex"}, "residue_component": 0}))
    mut("forged-factor-binomial-imprimitive", "w1", "irreducible_factor: 1 + x^2 claimed "
        "irreducible by a binomial witness (exponent gcd 2)",
        lambda d: d["steps"].__setitem__(0, {"rule": "irreducible_factor",
                                             "poly": [[1, []], [1, [[0, 2]]]],
                                             "witness": {"kind": "binomial"}, "residue_component": 0}))
    mut("forged-residue-component", "w3", "irreducible_factor: residue_component out of range",
        lambda d: _step(d, "irreducible_factor").__setitem__("residue_component", 1))
    mut("forged-factor-cancelling", "cancel", "irreducible_factor: 1 + x cancels "
        "(sigma(q) + sigma(-q)-like sum is constant)",
        lambda d: d["steps"].insert(0, {"rule": "irreducible_factor",
                                        "poly": [[1, []], [1, [[0, 1]]]],
                                        "witness": {"kind": "linear", "var": 0},
                                        "residue_component": 0}))
    mut("forged-vertex-extra", "k3-explicit", "newton_blocks: an extra vertex (1,1,1) whose "
        "functional has ties", lambda d: _step(d, "newton_blocks")["blocks"][0]["vertices"].insert(
            3, [[1, 1, 1], [1, 1, 1]]))
    mut("forged-blocks-missing-factor", "path3", "newton_blocks: a factor left out of every block",
        lambda d: _step(d, "newton_blocks")["blocks"][0]["factors"].pop() and None)
    mut("forged-blocks-repeat-factor", "w3", "newton_blocks: a factor in two blocks",
        lambda d: _step(d, "newton_blocks")["blocks"][1]["factors"].append(2))
    mut("forged-independent-c4", "c4", "newton_blocks: C_4's dependent generators claimed "
        "independent", lambda d: (_step(d, "newton_blocks")["blocks"][0].update(
            method="zonotope_independent"), _step(d, "newton_blocks")["blocks"][0].pop("graph_blocks"))
        and None)
    mut("forged-upper-claim", "w3", "claims.upper_bound below what the steps prove",
        lambda d: _claims(d, 8, 7) and None)
    mut("forged-minimum-gap", "k3", "claims.minimum given although the bounds differ",
        lambda d: d["claims"].__setitem__("minimum", 7))
    mut("forged-fusion-value", "w3-explicit", "explicit_fusion: one value changed",
        lambda d: _step(d, "explicit_fusion")["head"]["atoms"][3].__setitem__("value", "5/2"))
    mut("forged-fusion-negative-weight", "w3-explicit", "explicit_fusion: a negative weight",
        lambda d: _step(d, "explicit_fusion")["head"]["atoms"][1].__setitem__("weight", -1))
    mut("forged-fusion-off-lattice", "w3-explicit", "explicit_fusion: a key off the lattice",
        lambda d: _step(d, "explicit_fusion")["head"]["atoms"][0].__setitem__("key", [0, 0, "1/2"]))
    mut("forged-fusion-repeated-key", "w3-explicit", "explicit_fusion: two atoms with one key",
        lambda d: _step(d, "explicit_fusion")["head"]["atoms"].insert(
            1, copy.deepcopy(_step(d, "explicit_fusion")["head"]["atoms"][0])))
    mut("forged-step-order", "w3", "newton_blocks before the factors",
        lambda d: d["steps"].insert(0, d["steps"].pop(3)))
    mut("forged-rule-name", "w3", "an unknown rule name (case changed)",
        lambda d: d["steps"][0].__setitem__("rule", "Irreducible_factor"))
    mut("forged-rule-name-huge", "w3", "a 20000-character rule name",
        lambda d: d["steps"][0].__setitem__("rule", "x" * 20000))

    mut("forged-geom-direct-claim", "geom-direct", "direct_sum certificate with the lower "
        "bound doubled", lambda d: _claims(d, 2 * d["claims"]["lower_bound"],
                                           2 * d["claims"]["lower_bound"]) and None)
    mut("forged-geom-rule-swap", "geom-chain", "two geometry steps with their rule names swapped",
        lambda d: _swap_rules(d))
    mut("bomb-geom-huge-keys", "geom-triangles", "a geometric certificate whose problem keys "
        "are multiplied by 2^3000 (rehashed): the steps no longer match, decided fast",
        lambda d: _scale_keys(d, 2 ** 3000))

    add("forged-geom-constant-pairs", "generic_heads: ten pairs x1/(x0+x1) + x0^2/(x0^2+x0x1) "
        "in dimension 20 sum to 10, with one head of each pair passed off as a unit (keys "
        "e_0, e_1 read as one point): a forged lower bound 1024", constant_pairs(10), 1)

    # -- resource bombs ---------------------------------------------------------------
    add("bomb-geom-components", "one constant head with 1000 value components in dimension "
        "100000 (genuine): the constant test per component is sparse and charged",
        constant_components(100000, 1000), 0)
    add("bomb-geom-thin-triangle", "a triangle in 5000 varying coordinates whose only non-zero "
        "2x2 minor is the last: collinearity is tested in linear time (invalid: a vertex on "
        "no triangle)", thin_triangle(5000), 1)
    add("bomb-geom-dense-points", "a head with keys e_0..e_1499 in dimension 100000: its "
        "points would be 1500 dense vectors of 1500 coordinates; charged before they are "
        "built: inconclusive", dense_simplex(1500, 100000), 2)
    add("bomb-exponent-1e6", "2 sigma((10^6+1) q) as two heads: 1 + x divides both, the "
        "residue needs quotients of 10^6+1 terms: past the work budget, inconclusive",
        double_sigma(10 ** 6 + 1), 2)
    add("bomb-exponent-1e100-odd", "2 sigma((10^100+1) q) as two heads: the quotients have "
        "10^100 terms: inconclusive within the budget", double_sigma(10 ** 100 + 1), 2)
    add("bomb-exponent-1e100-odd-single", "sigma((10^100+1) q): 1 + x divides 1 + x^(10^100+1), "
        "decided in closed form (binomials), no quotient: valid", single_sigma(10 ** 100 + 1), 0)
    add("bomb-exponent-1e100-even", "sigma(10^100 q): 1 + x does not divide 1 + x^(10^100), "
        "decided by an image mod p in microseconds", single_sigma(10 ** 100), 1)
    w2 = build_certificate(sigmoid_sum(2)).doc
    add("bomb-flint-exponent-2p70", "sigma(2^70 q) with reduced_by_flint: FLINT's gcd would "
        "silently return 0 at 70-bit exponents, so the checker never asks it: inconclusive",
        flint_exponent(2 ** 70), 2, needs=["flint"])
    mut("bomb-w2-key-2p53", w2, "golden W_2 with one key 2^53 (rehashed): not a fusion, "
        "and 1 + x0 no longer divides", lambda d: (d["problem"]["heads"][0]["atoms"][0].__setitem__(
            "key", [2 ** 53, 0]), _rehash(d)) and None)
    mut("bomb-factor-exponent-2000-digits", "w3", "a factor 1 + x0 x1^(10^1999) (linear "
        "witness) that divides nothing", lambda d: d["steps"].insert(0, {
            "rule": "irreducible_factor", "poly": [[1, []], [1, [[0, 1], [1, 10 ** 1999]]]],
            "witness": {"kind": "linear", "var": 0}, "residue_component": 0}))
    for name, dim in (("1e9", 10 ** 9), ("2e9", 2 * 10 ** 9), ("1e12", 10 ** 12),
                      ("1e30", 10 ** 30)):
        mut(f"bomb-dim-{name}", "w1", f"problem dim {dim} in a 700-byte certificate",
            lambda d, dim=dim: (d["problem"].__setitem__("dim", dim), _rehash(d)) and None)
    add("bomb-dim-max-genuine", "W_3 on the last coordinates of a dim-100000 problem: "
        "genuine, nothing allocated per dimension", shifted_w3(99997, 100000), 0)
    mut("bomb-digits-4301-value", "w1", "a 4301-digit integer value in the problem",
        lambda d: (d["problem"]["heads"][0]["atoms"][0].__setitem__("value", 10 ** 4300),
                   _rehash(d)) and None)
    mut("bomb-digits-5000-claim", "w1", "a 5000-digit count string in the claims",
        lambda d: d["claims"].__setitem__("lower_bound", "9" * 5000))
    mut("bomb-digits-4500-claim-int", "w1", "a 4500-digit JSON integer in the claims (raw text)",
        lambda d: canonical_json(d).replace('"lower_bound":2', '"lower_bound":' + "7" * 4500))
    mut("bomb-digits-rational", "w1", "a rational with a 4400-digit denominator",
        lambda d: (d["problem"]["heads"][0]["atoms"][0].__setitem__("value", "1/" + "3" * 4400),
                   _rehash(d)) and None)
    mut("bomb-digits-count-100001", "w1", "a count string beyond MAX_COUNT_DIGITS",
        lambda d: d["claims"].__setitem__("upper_bound", "1" * 40001))
    mut("bomb-digits-exponent", "w1", "a 2001-digit exponent in a factor",
        lambda d: d["steps"][0]["poly"][1][1][0].__setitem__(1, 10 ** 2000))
    gp = general_position_gens(61, 60)
    add("bomb-rank-general-position", "61 generators in general position in R^60: 61 dense "
        "60x60 ranks exceed the work budget: inconclusive",
        _zonotope_cert(gp, 60, "zonotope_general_position",
                       2 * sum(comb(60, i) for i in range(60))), 2)
    gp2 = general_position_gens(40, 20)
    add("bomb-rank-subsets", "general position of 40 generators in rank 20: C(40,20) subsets "
        "(above MAX_SUBSETS): inconclusive",
        _zonotope_cert(gp2, 20, "zonotope_general_position",
                       2 * sum(comb(39, i) for i in range(20))), 2)
    grid = [[1 if i == a else (-1 if i == b else 0) for i in range(15)]
            for a, b in [(r * 4 + c, r * 4 + c + 1) for r in range(4) for c in range(3)]
            + [(v, v + 4) for v in range(12)] if b != 15] + \
        [[1 if i == a else 0 for i in range(15)] for a in (11, 14)]
    add("bomb-graphic-grid", "zonotope_graphic on the 4x4 grid (16 nodes, not chordal): "
        "3^16 subset terms exceed the budget: inconclusive",
        _zonotope_cert(grid, 15, "zonotope_graphic", 5015972), 2)
    h = 200
    add("bomb-quadratic-200", "sum of sigma(q1 + k q2), k = 1..200: every factor against every "
        "head was quadratic; indexed by direction it is linear (genuine)",
        _zonotope_cert([[1, k] for k in range(1, h + 1)], 2, "zonotope_general_position",
                       2 * h), 0)
    add("bomb-independent-200", "W_200 with one zonotope_independent block of 200 generators "
        "(sparse rank, linear; genuine)",
        _zonotope_cert([[1 if i == j else 0 for i in range(200)] for j in range(200)], 200,
                       "zonotope_independent", 2 ** 200), 0)
    wide = _zonotope_cert([[1] + [0] * 2999], 3000, "zonotope_independent", 2)
    mut("bomb-normal-form", wide, "a factor with 3000 negative exponents (its normal form "
        "would be quadratic): rejected in linear time",
        lambda d: (d["steps"].__setitem__(0, {"rule": "irreducible_factor", "poly": sorted(
            [[1, [[j, -1]]] for j in range(3000)], key=lambda t: t[1]),
            "witness": {"kind": "linear", "var": 0}, "residue_component": 0})) and None)
    w24 = build_certificate(sigmoid_sum(24), explicit_fusion_limit=1).doc
    mut("bomb-fusion-expansion", w24, "W_24 with a 2-atom explicit head whose value agrees "
        "with the heads at the checker's point mod p: the identity check would expand 23 "
        "denominators (2^23 terms): inconclusive",
        lambda d: d["steps"].__setitem__(-1, {"rule": "explicit_fusion", "head": {"atoms": [
            {"key": {}, "value": 0}, {"key": {"0": 1}, "value": 1}]}}) or _claims(d, 2 ** 24, 2)
        and pass_the_point(d) and None, 2)
    # explicit heads of random atoms on a genuine W_2 certificate (large versions are built
    # by tests/test_checker_attacks.py): refuted at a point mod p, or by the exact check
    add("forged-fusion-random-head", "W_2 with an explicit head of 400 random atoms: refuted "
        "at a point mod p in one pass", forged_head(400), 1)
    add("forged-fusion-point-passing", "W_2 with 400 random atoms whose last value makes the "
        "identity hold at the checker's point mod p: refuted by the exact check",
        point_passing_head(400), 1)
    add("forged-fusion-huge-numerator", "W_2 with 12 random atoms of 2000-digit rational values",
        forged_head(12, value_digits=2000), 1)
    add("forged-fusion-huge-denominator", "W_2 with 12 random atoms of 2000-digit weights and "
        "600-digit key coordinates (huge exponents)",
        forged_head(12, weight_digits=2000, key_digits=600), 1)
    add("forged-fusion-one-denominator", "200 heads over one denominator 1 + x, plus σ(q_2), "
        "with an explicit head of 200 random atoms", forged_head(
            200, problem=one_denominator_problem(200)), 1)
    add("bomb-fusion-wasteful-head", "a genuine explicit fusion of W_2 times a random positive "
        "polynomial of 150 terms (true, 600 atoms): verified by exact divisions", wasteful_head(150), 0)
    add("bomb-division-undecided-image", "a head 1 + x^n + (p+2)·x^(n+1), n = 10^9, against the "
        "factor 1 + x: its image mod p = 2^61 - 1 vanishes at x = -1, so only the division "
        "(10^9 steps) could refute it: the budget stops it", undecided_division(), 2)
    add("bomb-division-huge-exponents", "(1 + x_0)(1 + M), M of 100 variables with 500-digit "
        "exponents, with the factor 1 + x_0 (genuine): the division coded the box in integers "
        "of 50,000 digits and divided them at every step; it now orders monomials instead",
        huge_exponent_head(100, 500), 0)
    # a linear factor with 2000-digit coefficients against a head with 2000-digit weights
    # and exponent 26000: the closed-form binomial valuation computed c^26000 (10^8 bits)
    c0, c1 = 10 ** 1999 + 7, 10 ** 1999 + 9
    w = f"{10 ** 1999 + 3}/{10 ** 1999 + 11}"
    cap = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
        {"atoms": [{"key": [0], "value": 1, "weight": w},
                   {"key": [26000], "value": 0, "weight": w}]}]}
    add("bomb-binomial-power", "a binomial valuation that would build c^26000 with a "
        "2000-digit c (minutes); the factor divides no head",
        _claims(_rehash({"format": "attnproof-certificate", "version": 1, "problem": cap,
                         "problem_sha256": "", "trust": "exact", "steps": [
            {"rule": "irreducible_factor", "poly": [[c0, []], [c1, [[0, 1]]]],
             "witness": {"kind": "linear", "var": 0}, "residue_component": 0},
            {"rule": "newton_blocks", "blocks": [{"factors": [0],
                                                   "method": "zonotope_independent"}]},
            {"rule": "product_fusion"}],
            "claims": {"window_refutations": []}}), 2, 2), 1)
    # non_constant at the points 3/2 and 5/4 of heads with exponent 2,000,000: Fractions of
    # millions of bits whose gcds took 85 s; charged quadratically, inconclusive at once
    e = 2_000_000
    nc = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
        {"atoms": [{"key": [0], "value": 0}, {"key": [e], "value": 1}]},
        {"atoms": [{"key": [0], "value": 1}, {"key": [e], "value": 1}]}]}
    add("bomb-point-gcd", "a non_constant point witness (3/2)^2000000: quadratic gcds",
        _claims(_rehash({"format": "attnproof-certificate", "version": 1, "problem": nc,
                         "problem_sha256": "", "trust": "exact", "steps": [
            {"rule": "newton_blocks", "blocks": []},
            {"rule": "non_constant", "witnesses": [{"point": [[0, "3/2"]]},
                                                   {"point": [[0, "5/4"]]}]},
            {"rule": "product_fusion"}],
            "claims": {"window_refutations": []}}), 2, 4), 2)
    mut("bomb-many-steps", "w1", "2000 product_fusion steps",
        lambda d: d["steps"].extend({"rule": "product_fusion"} for _ in range(2000)))
    add("bomb-nesting", "JSON nested 20000 deep", "[" * 20000 + "]" * 20000, 1)
    w12 = build_certificate(sigmoid_sum(12), explicit_fusion_limit=1).doc
    mut("bomb-replay-w12", w12, "W_12 plus one bogus window step under --replay (default "
        "budget): its text is no encoding of a query, rejected before any encoding or "
        "symmetry group of the 3^12-point window is built",
        lambda d: with_window(d, window_step(4095, {"kind": "box", "radius": 1,
                                                   "coordinates": list(range(12))})) and None,
        1, ["--replay"], [])
    kw = _golden("k3-window")
    mut("bomb-replay-duplicates", kw, "the genuine K_3 window step twice: replayed once",
        lambda d: [with_window(d, copy.deepcopy(_step(d, "window_refutation"))) for _ in range(1)]
        and None, 0, ["--replay"], ["solvers"])

    # -- syntax attacks ---------------------------------------------------------------
    w1 = canonical_json(_golden("w1"))
    NOT_JSON = {"syntax-leading-zero", "syntax-trailing-comma", "syntax-control-char"}
    for name, old, new, what in (
            ("syntax-nan", '"lower_bound":2', '"lower_bound":NaN', "NaN"),
            ("syntax-infinity", '"lower_bound":2', '"lower_bound":Infinity', "Infinity"),
            ("syntax-neg-infinity", '"lower_bound":2', '"lower_bound":-Infinity', "-Infinity"),
            ("syntax-float-1e400", '"lower_bound":2', '"lower_bound":1e400', "a float 1e400"),
            ("syntax-float-exponent", ',"version":1}', ',"version":1e0}', "1e0 for an integer"),
            ("syntax-leading-zero", '"lower_bound":2', '"lower_bound":02', "a leading zero"),
            ("syntax-true-int", ',"version":1}', ',"version":true}', "true for an integer"),
            ("syntax-neg-zero", ',"version":1}', ',"version":-0}', "-0 for the version"),
            ("syntax-arabic-digits", '"lower_bound":2', '"lower_bound":"\\u0662"',
             "non-ASCII digits in a count"),
            ("syntax-trailing-comma", '"trust":"exact"', '"trust":"exact",', "a trailing comma"),
            ("syntax-duplicate-nested", '"value":1', '"value":1,"value":1', "a duplicated nested key"),
            ("syntax-control-char", '"trust":"exact"', '"trust":"ex\tact"', "a raw tab in a string"),
    ):
        assert w1.count(old) >= 1, name
        i = w1.rindex(old)
        # text that is no JSON at all is "not a certificate" (exit 3), never a forgery's 1
        code = 3 if name in NOT_JSON else 1
        add(name, f"syntax: {what}" + (" (not JSON: not a certificate)" if code == 3 else ""),
            w1[:i] + new + w1[i + len(old):], code)
    for name, value, what in (("syntax-underscore", "1_000", "a rational '1_000'"),
                              ("syntax-hex", "0x10", "a rational '0x10'"),
                              ("syntax-decimal", "0.5", "a decimal '0.5' (not canonical)"),
                              ("syntax-not-lowest-terms", "2/4", "a rational not in lowest terms"),
                              ("syntax-zero-denominator", "1/0", "a zero denominator"),
                              ("syntax-plus-sign", "+1/3", "a rational with a '+' sign")):
        mut(name, "w1", f"syntax: {what} in the problem (rehashed)",
            lambda d, value=value: (d["problem"]["heads"][0]["atoms"][0].__setitem__(
                "value", value), _rehash(d)) and None)
    add("syntax-bom", "syntax: a UTF-8 byte-order mark (not JSON: not a certificate)",
        "\ufeff" + w1, 3)
    add("syntax-empty", "syntax: an empty file (not JSON: not a certificate)", "", 3)
    add("syntax-null", "syntax: the JSON text null", "null\n", 1)
    add("syntax-top-list", "syntax: a top-level list", "[" + w1.strip() + "]\n", 1)
    add("syntax-trailing-garbage", "syntax: text after the document (not JSON: not a certificate)",
        w1 + "{}\n", 3)
    add("syntax-invalid-utf8", "syntax: bytes that are not UTF-8 (unreadable: usage error)",
        w1.encode("ascii")[:40] + b"\xff\xfe" + w1.encode("ascii")[40:], 3)
    add("syntax-escaped-keys", "syntax: keys spelled with \\u escapes are the same JSON (genuine)",
        w1.replace('"format"', '"\\u0066ormat"'), 0)
    return out


def main() -> int:
    sys.set_int_max_str_digits(0)        # the generator writes the oversized integers
    index = {}
    for old in HERE.glob("*.json"):
        if old.name != "index.json":
            old.unlink()
    for name, what, doc, code, args, needs in entries():
        path = f"{name}.json"
        if isinstance(doc, bytes):
            (HERE / path).write_bytes(doc)
        else:
            (HERE / path).write_text(doc if isinstance(doc, str) else canonical_json(doc))
        index[path] = {"exit": code, "args": args, "what": what, "needs": needs, **BUDGET}
    (HERE / "index.json").write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")
    total = sum((HERE / p).stat().st_size for p in index)
    print(f"{len(index)} adversarial certificates written ({total} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
