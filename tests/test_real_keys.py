"""Real-valued keys at scale (THEORY §9): never a crash, fusions counted without expansion,
the geometric lower bound, arrays in with exact binary values.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attnproof.algebra.budget import flint_obstacle
from attnproof.io.npz import load_npz, save_npz
from attnproof.bounds import lower_bound
from attnproof.certificate import build_certificate
from attnproof.checker import check_text
from attnproof.errors import InputError, LimitError
from attnproof.families import float_multihead, sigmoid_sum
from attnproof.fusion import (ClassProductFusion, class_product_fusion, fuse, product_fusion,
                              reduced_form)
from attnproof.io import dump_problem, load_problem
from attnproof.heads import Atom, Head, MultiHead

F = Fraction
HERE = Path(__file__).resolve().parent


def _in_convex_hull(p, others) -> bool:
    """Exact phase-one simplex (Bland's rule, Fractions): is ``p = Σ λ_i q_i``, ``Σ λ_i = 1``, ``λ >= 0``?

    Written for the tests only; it shares no code with attnproof.bounds or attnproof.geometry.
    """
    if not others:
        return False
    d = len(p)
    rows = [[F(q[j]) for q in others] + [F(p[j])] for j in range(d)] + [[F(1)] * len(others) + [F(1)]]
    for r in rows:                                   # right-hand sides >= 0
        if r[-1] < 0:
            r[:] = [-x for x in r]
    n = len(others)
    m = len(rows)
    T = [r[:-1] + [F(int(i == k)) for k in range(m)] + [r[-1]] for i, r in enumerate(rows)]
    basis = [n + i for i in range(m)]
    width = n + m
    cost = [F(0)] * n + [F(1)] * m                   # phase one: minimize the artificials
    while True:
        red = [cost[j] - sum(cost[basis[i]] * T[i][j] for i in range(m)) for j in range(width)]
        enter = next((j for j in range(width) if red[j] < 0), None)
        if enter is None:
            break
        ratios = [(T[i][-1] / T[i][enter], basis[i], i) for i in range(m) if T[i][enter] > 0]
        _, _, leave = min(ratios)
        piv = T[leave][enter]
        T[leave] = [x / piv for x in T[leave]]
        for i in range(m):
            if i != leave and T[i][enter]:
                f = T[i][enter]
                T[i] = [x - f * y for x, y in zip(T[i], T[leave])]
        basis[leave] = enter
    return sum(T[i][-1] for i in range(m) if basis[i] >= n) == 0


def independent_vertex_count(point_sets) -> int:
    """Vertices of ``Σ conv(S_h)``: the sum points that are not convex combinations of the others."""
    sums = sorted({tuple(map(sum, zip(*t))) for t in itertools.product(*point_sets)})
    return sum(1 for i, s in enumerate(sums) if not _in_convex_hull(s, sums[:i] + sums[i + 1:]))


def _independent_count():
    return independent_vertex_count


def _lattice_points(M):
    """Exact lattice exponents of every head's distinct keys (computed here, not by the library)."""
    from math import lcm
    scales = [1] * M.dim
    for h in M.heads:
        for a in h.atoms:
            for j, c in enumerate(a.key):
                scales[j] = lcm(scales[j], c.denominator)
    return [sorted({tuple(int(c * s) for c, s in zip(a.key, scales)) for a in h.atoms})
            for h in M.heads]


def _sums(point_sets) -> int:
    return len({tuple(map(sum, zip(*t))) for t in itertools.product(*point_sets)})


# -- never a crash --------------------------------------------------------------

def _cli(*args: str, cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONFAULTHANDLER="1")
    return subprocess.run([sys.executable, "-m", "attnproof", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def _no_crash(p: subprocess.CompletedProcess, what: str) -> None:
    assert p.returncode >= 0, f"{what}: killed by signal {-p.returncode}: {p.stderr[-500:]}"
    assert p.returncode < 4, f"{what}: exit {p.returncode}: {p.stderr[-500:]}"
    assert "Traceback" not in p.stderr and "FLINT exception" not in p.stderr, p.stderr[-500:]
    if p.returncode == 3:
        lines = [ln for ln in p.stderr.splitlines() if ln.startswith("attnproof")]
        assert lines and "error" in lines[-1], p.stderr


COMMANDS = [("fuse", "--json"), ("bound", "--json"), ("prove", "-o", "c.json", "--json"),
            ("search", "--atoms", "2", "-w", "0", "--timeout", "20"), ("show",)]


def _run_matrix(problems: dict, tmp_path: Path, commands=COMMANDS) -> None:
    for name, M in problems.items():
        path = tmp_path / f"{name}.json"
        dump_problem(M, path)
        for cmd in commands:
            p = _cli(cmd[0], path.name, *cmd[1:], cwd=tmp_path)
            _no_crash(p, f"{cmd[0]} {name}")
            if cmd[0] in ("bound", "prove"):
                assert p.returncode == 0, p.stderr
                out = json.loads(p.stdout)
                assert "lower_bound" in out and "complete" in out
            if cmd[0] == "prove":
                assert _cli("check", "c.json", cwd=tmp_path).returncode == 0


def test_float_keys_never_crash_the_cli(tmp_path):
    # the first problem of issue 9: FLINT used to abort the process here
    _run_matrix({"p2x8": float_multihead(2, 8, 4, seed=1)}, tmp_path, COMMANDS[1:3])


@pytest.mark.slow
def test_float_keys_of_many_shapes_never_crash_the_cli(tmp_path):
    _run_matrix({
        "p2x8": float_multihead(2, 8, 4, seed=1),
        "p2x12b": float_multihead(2, 12, 5, seed=2, biases=True, value_dim=2),
        "p3x6": float_multihead(3, 6, 3, seed=3),
        "p2x16": float_multihead(2, 16, 8, seed=4),
        "p2x3d": float_multihead(2, 3, 3, seed=5, digits=2),
        "p4x4bin": float_multihead(4, 4, 6, seed=6, binary=True, biases=True),
        "p2x5r40": float_multihead(2, 5, 40, seed=7),
    }, tmp_path)


def test_flint_obstacle_is_named_before_any_polynomial_algebra():
    M = float_multihead(2, 8, 4, seed=1)
    assert flint_obstacle(M) is not None and flint_obstacle(sigmoid_sum(30)) is None
    with pytest.raises(LimitError, match="exact geometry"):
        reduced_form(M)
    with pytest.raises(LimitError):
        product_fusion(M)


# -- the geometric lower bound --------------------------------------------------

def test_two_triangles_have_eight_vertices_as_decimals():
    # keys with 2-3 decimal digits (FLINT path, C1 factors) and the same keys as long floats
    T1 = [(-2, 9, -6), (1, -9, -9), (-9, 8, -9)]
    T2 = [(3, -3, 4), (-9, 7, -2), (5, 6, 8)]
    count = _independent_count()
    for scale in (F(1, 100), F(1, 3 * 2 ** 40)):
        heads = tuple(Head(tuple(Atom(tuple(F(x) * scale for x in k), (F(i),)) for i, k in enumerate(T)))
                      for T in (T1, T2))
        M = MultiHead(heads)
        lb = lower_bound(M)
        assert lb.value == count([T1, T2]) and lb.complete
        assert check_text(build_certificate(M).text).code == 0


@pytest.mark.parametrize("shape", [(2, 4, 3), (3, 3, 3), (2, 5, 3),
                                   pytest.param((2, 8, 4), marks=pytest.mark.slow),
                                   pytest.param((3, 6, 3), marks=pytest.mark.slow),
                                   pytest.param((2, 6, 5), marks=pytest.mark.slow)])
def test_geometric_bound_equals_the_independent_count(shape):
    M = float_multihead(*shape, seed=sum(shape))
    lb = lower_bound(M)
    assert lb.path == "geometry" and lb.complete and lb.trust == "exact"
    assert lb.value == _independent_count()(_lattice_points(M))


def test_direct_sum_proves_the_minimum(tmp_path):
    M = float_multihead(2, 5, 12, seed=3, binary=True)       # U_1 + U_2: 4 + 4 <= 12
    dump_problem(M, tmp_path / "d.json")
    p = _cli("prove", "d.json", "-o", "d.cert.json", "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["minimum"] == out["lower_bound"] == out["upper_bound"] == 25 and out["complete"]
    assert _cli("check", "d.cert.json", cwd=tmp_path).returncode == 0


def _float32_heads(H, n, d, seed):
    rng = np.random.default_rng(seed)
    return MultiHead.from_arrays([rng.standard_normal((n, d)).astype(np.float32) for _ in range(H)],
                                 [rng.standard_normal(n).astype(np.float32) for _ in range(H)])


@pytest.mark.parametrize("shape", [(2, 4, 3, 0), (3, 4, 3, 4)])
def test_indecomposable_heads_give_the_independent_count(shape):
    # few float32 keys in R^3: a head whose chain has edge content above 1 is only
    # indecomposable; with non-homothety certificates the bound is still V(Σ conv K_h)
    from attnproof.certificate.geometry_steps import geometry_proof

    M = _float32_heads(*shape)
    gp = geometry_proof(M)
    assert gp is not None and gp.indecomposable and gp.complete
    assert gp.width_functionals
    lb = lower_bound(M)
    assert lb.path == "geometry" and lb.complete
    assert lb.value == gp.lower == _independent_count()(_lattice_points(M))
    v = check_text(build_certificate(M).text)
    assert v.code == 0 and v.lower_bound == lb.value, v.message


def _generic_heads(doc):
    return next(s for s in doc["steps"] if s["rule"] == "generic_heads")


def test_missing_or_needless_non_homothety_is_rejected():
    from attnproof.certificate.geometry_steps import geometry_certificate
    from attnproof.checker import check_document

    doc = geometry_certificate(_float32_heads(2, 4, 3, 0)).doc
    assert check_document(doc).code == 0
    bad = json.loads(json.dumps(doc))
    del _generic_heads(bad)["width_functionals"]
    v = check_document(bad)
    assert v.code == 1 and "width_functionals" in v.message, v.message
    for forged in ([], [[1, 0, 0]], [[0, 0, 0], [0, 0, 0]], [[1, 0]], [[1, 0, 0, 0]],
                   [[1, "x", 0]], [[1, 0, 0], [1, 0, 0], [2, 0, 0]]):
        # empty, one functional (every width vector is (1)), zero functionals, wrong
        # lengths, a non-integer, three parallel functionals: no separation
        bad = json.loads(json.dumps(doc))
        _generic_heads(bad)["width_functionals"] = forged
        assert check_document(bad).code == 1, forged
    # all heads absolutely irreducible: a width_functionals field is refused
    doc2 = geometry_certificate(_float32_heads(2, 5, 3, 1)).doc
    assert "width_functionals" not in _generic_heads(doc2)
    _generic_heads(doc2)["width_functionals"] = [[1, 0, 0], [0, 1, 0]]
    assert check_document(doc2).code == 1


def _homothetic_pair():
    # head 1 = 2·(keys of head 0) + t with other values: homothetic polytopes, content 2
    K = [(F(0), F(0), F(0)), (F(3, 8), F(1, 4), F(-1, 2)), (F(-5, 8), F(7, 8), F(1, 4)),
         (F(1, 2), F(-3, 4), F(5, 8))]
    t = (F(1, 8), F(-3, 8), F(1, 2))
    A = Head(tuple(Atom(k, (F(i),)) for i, k in enumerate(K)))
    B = Head(tuple(Atom(tuple(2 * x + y for x, y in zip(k, t)), (F(3 - i, 2),), F(i, 3) + 1)
                   for i, k in enumerate(K)))
    return A, B


def test_forged_non_homothety_of_homothetic_heads_is_rejected(monkeypatch):
    # no list of functionals separates the widths of homothetic heads, so a forged one fails
    import attnproof.certificate.geometry_steps as gs
    import attnproof.geometry.proof as gproof
    from attnproof.checker import check_document

    M = MultiHead(_homothetic_pair())
    assert gs.geometry_proof(M) is None                      # the producer claims nothing
    cs = [(1, 0, 0), (0, 1, 0), (1, 1, 0), (3, -2, 7)]
    monkeypatch.setattr(gproof, "width_functionals", lambda P, needs: (cs, None))
    cert = gs.geometry_certificate(M)
    assert cert is not None and _generic_heads(cert.doc)["width_functionals"]
    v = check_document(cert.doc)
    assert v.code == 1 and "homothetic" in v.message, v.message


def test_one_homothetic_pair_among_many_heads_is_found(monkeypatch):
    # segments of slopes 0..39 and contents 1..3, then head 40: head 7 scaled by 2 and
    # translated (homothetic to it).  The producer names that pair; a certificate forged
    # with functionals that separate all the others is rejected.
    import attnproof.certificate.geometry_steps as gs
    import attnproof.geometry.proof as gproof
    from attnproof.checker import check_document
    from attnproof.geometry.chain import width_functionals

    def seg(a, b, t=0):
        return Head((Atom((F(t), F(t)), (F(1),)), Atom((F(t + a), F(t + b)), (F(0),))))

    pts = [[(0, 0), (1 + k % 3, (1 + k % 3) * k)] for k in range(40)]
    segs = [seg(*p[1]) for p in pts]
    cert = gs.geometry_certificate(MultiHead(tuple(segs)))
    assert cert is not None and check_document(cert.doc).code == 0
    cs, clash = width_functionals(pts, {k for k in range(40) if k % 3})
    assert clash is None and [list(c) for c in cs] == _generic_heads(cert.doc)["width_functionals"]
    a, b = pts[7][1]
    M = MultiHead(tuple(segs) + (seg(2 * a, 2 * b, 1),))
    assert gs.geometry_proof(M) is None
    assert width_functionals(pts + [[(1, 1), (1 + 2 * a, 1 + 2 * b)]], {40})[1] == (7, 40)
    monkeypatch.setattr(gproof, "width_functionals", lambda P, needs: (cs, None))
    forged = gs.geometry_certificate(M)
    assert forged is not None
    v = check_document(forged.doc)
    assert v.code == 1 and "7 and 40" in v.message, v.message


def test_permuted_points_keep_the_width_classes():
    # widths do not depend on the order or translation of the points: the checker's class
    # of a head is the producer's, and a permuted problem proves the same bound
    from attnproof.certificate.geometry_steps import geometry_certificate
    from attnproof.checker import check_document

    M = float_multihead(6, 3, 2, seed=5)
    P = MultiHead(tuple(Head(tuple(reversed(h.atoms))) for h in reversed(M.heads)))
    a, b = geometry_certificate(M), geometry_certificate(P)
    assert a is not None and b is not None and "width_functionals" in _generic_heads(a.doc)
    va, vb = check_document(a.doc), check_document(b.doc)
    assert va.code == vb.code == 0 and va.lower_bound == vb.lower_bound


def test_associate_heads_are_one_factor():
    # head 2 = head 1 translated by t, biases shifted: same denominator up to a monomial unit
    base = float_multihead(1, 4, 3, seed=8, binary=True).heads[0]
    t = (F(1, 3), F(-5, 7), F(2, 9))
    other = Head(tuple(Atom(tuple(k + s for k, s in zip(a.key, t)), (a.value[0] * 2,),
                            bias=a.bias + F(1, 5)) for a in base.atoms))
    M = MultiHead((base, other))
    assert flint_obstacle(M) is not None
    f = fuse(M)
    assert isinstance(f, ClassProductFusion) and f.method == "merged-product" and f.atoms == 4
    f.verify(points=3)
    lb = lower_bound(M)
    assert lb.value <= f.atoms and lb.path == "geometry"
    assert check_text(build_certificate(M).text).code == 0


# -- fusions without expansion --------------------------------------------------

@pytest.mark.parametrize("shape,biases,m", [((2, 6, 3), False, 1), ((3, 4, 2), True, 2),
                                            ((2, 5, 1), False, 1)])
def test_class_product_counts_distinct_key_sums(shape, biases, m):
    M = float_multihead(*shape, seed=5, biases=biases, value_dim=m)
    f = fuse(M)
    assert isinstance(f, ClassProductFusion)
    assert f.atoms == _sums(_lattice_points(M))          # coincident sums counted exactly in R^1
    f.verify(points=3)
    head = f.to_head()
    assert len({a.key for a in head.atoms}) == f.atoms and len(head.atoms) == f.entries


def test_class_product_agrees_with_the_expanded_product():
    # short decimals: FLINT expands the product; the class product builds the same head
    M = float_multihead(2, 4, 2, seed=9, digits=1, biases=True)
    assert flint_obstacle(M) is None
    a = product_fusion(M).to_head()
    b = class_product_fusion(M).to_head()
    rows = lambda h: sorted((x.key, x.bias, x.weight / sum(y.weight for y in h.atoms), x.value)  # noqa: E731
                            for x in h.atoms)
    assert rows(a) == rows(b)


@pytest.mark.parametrize("binary,biases", [(True, False), (False, True)])
def test_class_product_identity_is_exact_and_catches_a_wrong_entry(binary, biases):
    # long binary keys (exponents of ~150 bits): the identity N/D = Σ N_h/D_h holds in FLINT
    # integer polynomials; one weight, value or key of the written head changed breaks it
    from attnproof.errors import AlgebraError
    from attnproof.fusion import ClassProductFusion

    M = float_multihead(3, 3, 3, seed=4, binary=binary, biases=biases)
    f = class_product_fusion(M)
    f.verify()
    rows = list(f._rows())

    class Wrong(ClassProductFusion):
        def _rows(self):
            return iter(self.bad)

    for i, change in ((0, lambda r: (r[0], r[1], r[2] * 2, r[3])),
                      (5, lambda r: (r[0], r[1], r[2], tuple(v + 1 for v in r[3]))),
                      (7, lambda r: (tuple(x + 1 for x in r[0]), r[1], r[2], r[3]))):
        g = Wrong(**{k: getattr(f, k) for k in f.__dataclass_fields__})
        object.__setattr__(g, "bad", [change(r) if j == i else r for j, r in enumerate(rows)])
        with pytest.raises(AlgebraError):     # "differs", or a gcd it cannot take
            g.verify()


def test_fuse_writes_exact_decimals(tmp_path):
    M = float_multihead(2, 5, 4, seed=2, binary=True)
    dump_problem(M, tmp_path / "m.json")
    p = _cli("fuse", "m.json", "-o", "f.json", "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["atoms"] == 25
    text = (tmp_path / "f.json").read_text()
    assert "/" not in text.replace('"format"', "")          # dyadic keys: finite decimals
    fused = load_problem(tmp_path / "f.json")
    assert fused.heads[0].atoms == class_product_fusion(M).to_head().atoms


# -- arrays in ------------------------------------------------------------------

def test_from_arrays_takes_exact_binary_values(tmp_path):
    rng = np.random.default_rng(0)
    K = [rng.standard_normal((4, 3)).astype(np.float32) for _ in range(2)]
    V = [rng.standard_normal((4, 2)).astype(np.float32) for _ in range(2)]
    B = [None, rng.standard_normal(4)]
    M = MultiHead.from_arrays(K, V, B)
    assert M.heads[0].atoms[1].key[2] == F(float(K[0][1, 2]))
    assert M.heads[1].atoms[3].bias == F(float(B[1][3])) and M.value_dim == 2
    save_npz(tmp_path / "m.npz", K, V, B)
    assert load_npz(tmp_path / "m.npz") == M
    p = _cli("bound", "m.npz", "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["lower_bound"] == lower_bound(M).value


@pytest.mark.parametrize("arrays,msg", [
    ({"keys_0": np.array([[np.inf]]), "values_0": np.array([1.0])}, "NaN or infinite"),
    ({"keys_0": np.zeros((2, 2))}, "missing values_0"),
    ({"keys_0": np.zeros((2, 2)), "values_0": np.zeros(3)}, "3 rows for 2 keys"),
    ({"keys_0": np.zeros((1, 1)), "values_0": np.zeros(1), "keys_2": np.zeros((1, 1))},
     "no matching"),
    ({"keys_0": np.zeros((1, 1)), "values_0": np.zeros(1), "extra": np.zeros(1)}, "unexpected"),
    ({"keys_0": np.zeros((1, 1), dtype=complex), "values_0": np.zeros(1)}, "real numbers"),
])
def test_bad_npz_is_a_one_line_error(tmp_path, arrays, msg):
    np.savez(tmp_path / "b.npz", **arrays)
    with pytest.raises(InputError, match=msg):
        load_problem(tmp_path / "b.npz")


# -- hypothesis: the bound never exceeds a verified fusion, and equals the independent count --

@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6), st.integers(2, 3), st.integers(2, 4), st.integers(2, 4),
       st.booleans(), st.booleans())
def test_random_float_heads(seed, heads, atoms, dim, biases, binary):
    M = float_multihead(heads, atoms, dim, seed=seed, biases=biases, binary=binary)
    f = fuse(M)
    f.verify(points=2)
    lb = lower_bound(M)
    assert lb.value <= f.atoms
    if lb.path == "geometry" and lb.complete and atoms ** heads <= 27:   # the Fraction LP is slow
        assert lb.value == _independent_count()(_lattice_points(M))
    cert = build_certificate(M)
    v = check_text(cert.text)
    assert v.code == 0, v.message
    assert v.lower_bound == lb.value <= v.upper_bound


@pytest.mark.parametrize("seed", range(3))
def test_geometry_agrees_with_the_flint_reduced_form(seed):
    # short decimals: C1 cannot factor the heads (no simplex), geometry proves them irreducible;
    # FLINT's gcd (C3) computes Q itself, and its exact vertex list must give the same count
    from attnproof.bounds.lower import _c3

    M = float_multihead(2, 6, 3, seed=seed, digits=1, biases=seed == 1)
    lb = lower_bound(M)
    assert lb.path == "geometry" and lb.trust == "exact" and lb.complete
    assert lb.value == _c3(M, reduced_form(M), True).value


def test_json_outputs_of_long_keys_follow_the_schemas(run_cli, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    M = float_multihead(2, 5, 3, seed=4)
    dump_problem(M, tmp_path / "m.json")
    for argv in (["bound"], ["prove", "-o", str(tmp_path / "c.json")], ["fuse"], ["show"]):
        rc, out, err = run_cli(argv[0], str(tmp_path / "m.json"), *argv[1:], "--json")
        assert rc == 0, err
        doc = json.loads(out)
        schema = json.loads((HERE.parent / "schemas" / f"cli-{argv[0]}.schema.json").read_text())
        jsonschema.Draft202012Validator(schema).validate(doc)
        if argv[0] in ("bound", "prove"):
            assert doc["path"] == "geometry" and doc["complete"] is True
