"""Capture format, exact import and merge report (NumPy only; no torch needed)."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from attnproof.errors import InputError
from attnproof.io import load_problem
from attnproof.transformer.capture import (Capture, float_head_outputs, load_capture, random_capture,
                                      save_capture)
from attnproof.transformer.problem import (capture_to_problem, head_float_arrays, head_from_capture,
                                      model_deviation)
from attnproof.numeric import evaluate_mpmath


def integer_capture(seed: int = 0, n_heads: int = 3, d_model: int = 3, n_ctx: int = 3) -> Capture:
    """Small integer weights, d_head 2, scale 1, b_Q = 0: keys are small integer vectors
    and biases vanish (proven by exact polynomial algebra, no float geometry needed)."""
    rng = np.random.default_rng(seed)

    def r(*s):
        return rng.integers(-2, 3, size=s).astype(float)

    return Capture(x=r(n_ctx, d_model), query=r(d_model), W_Q=r(n_heads, d_model, 2),
                   b_Q=np.zeros((n_heads, 2)), W_K=r(n_heads, d_model, 2), b_K=r(n_heads, 2),
                   W_V=r(n_heads, d_model, 2), b_V=r(n_heads, 2), W_O=r(n_heads, 2, d_model),
                   scale=1.0, heads=tuple(range(n_heads)),
                   meta={"model": "integer-toy", "layer": 0, "position": n_ctx - 1,
                         "tokens": list(range(n_ctx))})


# ---- the capture format ------------------------------------------------------------------

def test_npz_round_trip_is_bit_exact(tmp_path):
    cap = random_capture(5, 8, 3, 4, seed=3)
    path = tmp_path / "c.npz"
    save_capture(cap, path)
    back = load_capture(path)
    for name in ("x", "query", "query_u", "W_Q", "b_Q", "W_K", "b_K", "W_V", "b_V", "W_O", "b_O",
                 "ln_gamma", "ln_beta"):
        a, b = getattr(cap, name), getattr(back, name)
        assert a.tobytes() == b.tobytes(), name
    assert back.heads == cap.heads and back.scale == cap.scale and back.meta == cap.meta


def test_capture_loads_without_pickle(tmp_path):
    cap = random_capture(2, 4, 2, 2)
    arrays = cap.arrays()
    arrays["meta"] = np.array([{"format": "attnproof-capture"}], dtype=object)
    path = tmp_path / "evil.npz"
    np.savez(path, **arrays)
    with pytest.raises(InputError, match="not a readable"):
        load_capture(path)


@pytest.mark.parametrize("mutate, message", [
    (lambda a: a.pop("W_O"), "missing array 'W_O'"),
    (lambda a: a.__setitem__("W_K", a["W_K"][:, :, :1]), "W_K has shape"),
    (lambda a: a.__setitem__("x", np.full_like(a["x"], np.nan)), "NaN"),
    (lambda a: a.__setitem__("scale", np.array(-1.0)), "scale must be a positive"),
    (lambda a: a.__setitem__("heads", np.array([0, 0])), "distinct"),
    (lambda a: a.__setitem__("extra", np.zeros(2)), "unknown array 'extra'"),
    (lambda a: a.__setitem__("meta", np.array('{"format": "other"}')), "meta format"),
    (lambda a: a.__setitem__("meta", np.array('{"format": "attnproof-capture", "version": 1, '
                                              '"format": 2}')), "duplicate key"),
])
def test_bad_captures_are_refused_with_one_line(tmp_path, mutate, message):
    arrays = random_capture(3, 4, 2, 2).arrays()
    mutate(arrays)
    path = tmp_path / "bad.npz"
    np.savez(path, **arrays)
    with pytest.raises(InputError, match=message):
        load_capture(path)


def test_not_a_zip_is_refused(tmp_path):
    path = tmp_path / "junk.npz"
    path.write_bytes(b"not a zip file at all")
    with pytest.raises(InputError, match="not a readable"):
        load_capture(path)


def test_safetensors_round_trip(tmp_path):
    pytest.importorskip("safetensors")
    cap = random_capture(3, 4, 2, 2, seed=5)
    save_capture(cap, tmp_path / "c.safetensors")
    back = load_capture(tmp_path / "c.safetensors")
    assert back.W_V.tobytes() == cap.W_V.tobytes() and back.meta == cap.meta


# ---- exact import (THEORY §10) ---------------------------------------------------------------

def _exact_head_by_hand(cap: Capture, h: int):
    """κ_i, β_i and values with Fraction arithmetic, written independently of the package."""
    F = Fraction
    p = cap.heads.index(h)
    s = F(cap.scale)
    out = []
    for row in cap.x:
        xi = [F(float(v)) for v in row]
        k = [sum((xi[a] * F(float(cap.W_K[p, a, c])) for a in range(cap.d_model)), F(0))
             + F(float(cap.b_K[p, c])) for c in range(cap.d_head)]
        kappa = [s * sum((F(float(cap.W_Q[p, j, c])) * k[c] for c in range(cap.d_head)), F(0))
                 for j in range(cap.d_model)]
        beta = s * sum((F(float(cap.b_Q[p, c])) * k[c] for c in range(cap.d_head)), F(0))
        v = [sum((xi[a] * F(float(cap.W_V[p, a, c])) for a in range(cap.d_model)), F(0))
             + F(float(cap.b_V[p, c])) for c in range(cap.d_head)]
        val = [sum((v[c] * F(float(cap.W_O[p, c, j])) for c in range(cap.d_head)), F(0))
               for j in range(cap.d_model)]
        out.append((tuple(kappa), beta, tuple(val)))
    return out


def test_exact_arithmetic_matches_fractions_by_hand():
    cap = random_capture(4, 6, 2, 4, seed=11)
    H = head_from_capture(cap, 1, domain="raw", arithmetic="exact")
    for a, (kappa, beta, val) in zip(H.atoms, _exact_head_by_hand(cap, 1)):
        assert a.key == kappa and a.bias == beta and a.value == val


def test_float64_arithmetic_is_the_exact_value_of_the_floats():
    cap = random_capture(4, 6, 2, 4, seed=12)
    H = head_from_capture(cap, 0, domain="raw", arithmetic="float64")
    K, b, V = head_float_arrays(cap, 0)
    for i, a in enumerate(H.atoms):
        assert a.key == tuple(Fraction(float(c)) for c in K[i])
        assert a.bias == Fraction(float(b[i]))
        assert a.value == tuple(Fraction(float(c)) for c in V[i])
    He = head_from_capture(cap, 0, domain="raw", arithmetic="exact")
    for a, e in zip(H.atoms, He.atoms):
        for c, d in zip(a.key, e.key):
            assert abs(c - d) <= Fraction(1, 10 ** 12) * (1 + abs(d))


@pytest.mark.parametrize("arithmetic", ["exact", "float64"])
def test_layernorm_substitution_agrees_with_raw_problem(arithmetic):
    """Exact logits: on x = γ⊙u + β_LN with Σu = 0 the raw and substituted logits are equal."""
    cap = random_capture(5, 7, 2, 4, seed=4)
    raw = capture_to_problem(cap, domain="raw", arithmetic=arithmetic)
    ln = capture_to_problem(cap, domain="layernorm", arithmetic=arithmetic)
    rng = np.random.default_rng(0)
    gamma = [Fraction(float(g)) for g in cap.ln_gamma]
    beta = [Fraction(float(b)) for b in cap.ln_beta]
    for _ in range(5):
        u = [Fraction(int(v), 97) for v in rng.integers(-300, 300, size=cap.d_model)]
        u[-1] -= sum(u)                                  # mean zero, exactly
        x = [g * ui + b for g, ui, b in zip(gamma, u, beta)]
        for hr, hl in zip(raw.heads, ln.heads):
            for ar, al in zip(hr.atoms, hl.atoms):
                lr = sum((k * xi for k, xi in zip(ar.key, x)), ar.bias)
                ll = sum((k * ui for k, ui in zip(al.key, u[:-1])), al.bias)
                assert lr == ll
        vr, = evaluate_mpmath(raw, [x], digits=30)
        vl, = evaluate_mpmath(ln, [u[:-1]], digits=30)
        assert all(abs(a - b) <= 1e-25 * (1 + abs(a)) for a, b in zip(vr, vl))


def test_problem_agrees_with_float_recomputation_of_the_layer():
    cap = random_capture(6, 8, 3, 4, seed=8)
    ref = float_head_outputs(cap)
    M = capture_to_problem(cap, domain="raw")
    vals = [evaluate_mpmath(type(M)((h,), dim=M.dim), [[Fraction(float(v)) for v in cap.query]],
                            digits=30)[0] for h in M.heads]
    got = np.array([[float(c) for c in v] for v in vals])
    assert np.abs(got - ref).max() <= 1e-12 * np.abs(ref).max()
    cap2 = Capture(**{**{k: getattr(cap, k) for k in ("x", "query", "W_Q", "b_Q", "W_K", "b_K",
                                                      "W_V", "b_V", "W_O", "scale", "heads",
                                                      "meta", "query_u", "ln_gamma", "ln_beta")},
                      "head_out": ref})
    assert model_deviation(cap2, capture_to_problem(cap2), list(cap2.heads), "layernorm") < 1e-12


def test_layernorm_domain_needs_layernorm_parameters():
    with pytest.raises(InputError, match="--domain raw"):
        capture_to_problem(integer_capture(), domain="layernorm")


# ---- command line ---------------------------------------------------------------------------

def test_import_command_writes_a_loadable_problem(tmp_path, run_cli):
    cap = random_capture(4, 6, 3, 4, seed=1)
    save_capture(cap, tmp_path / "c.npz")
    rc, out, err = run_cli("import", str(tmp_path / "c.npz"), "--heads", "2,0", "-o",
                           str(tmp_path / "p.json"), "--json")
    assert rc == 0, err
    s = json.loads(out)
    assert s["heads"] == [2, 0] and s["domain"] == "layernorm" and s["head_atoms"] == [4, 4]
    M = load_problem(tmp_path / "p.json")
    assert [h.name for h in M.heads] == ["L0H2", "L0H0"]
    assert M == capture_to_problem(cap, [2, 0])


@pytest.mark.parametrize("argv, message", [
    (["--heads", "7"], "head 7 is not in the capture"),
    (["--heads", "1,x"], "not a head number"),
    (["--domain", "layernorm"], "--domain raw"),
])
def test_import_errors_are_one_line_exit_3(tmp_path, run_cli, argv, message):
    save_capture(integer_capture(), tmp_path / "c.npz")
    rc, out, err = run_cli("import", str(tmp_path / "c.npz"), "-o", str(tmp_path / "p.json"), *argv)
    assert rc == 3 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "p.json").exists()


def test_import_of_missing_file(tmp_path, run_cli):
    rc, _, err = run_cli("import", str(tmp_path / "none.npz"), "-o", str(tmp_path / "p.json"))
    assert rc == 3 and "no such file" in err


# ---- merge report (integer keys: proven today by the factorization path) --------------------

def test_merge_report_end_to_end_on_integer_heads(tmp_path, run_cli):
    from attnproof.checker import check_text

    save_capture(integer_capture(seed=0), tmp_path / "c.npz")
    rc, out, err = run_cli("merge-report", str(tmp_path / "c.npz"), "-o", str(tmp_path / "r"),
                           "--json")
    assert rc in (0, 2), err
    doc = json.loads(out)
    assert [q["heads"] for q in doc["pairs"]] == [[0, 1], [0, 2], [1, 2]]
    assert doc["layer_question"]["heads"] == [0, 1, 2]
    for q in doc["pairs"] + [doc["layer_question"]]:
        text = (tmp_path / "r" / "certificates" / f"heads_{'_'.join(map(str, q['heads']))}.cert.json"
                ).read_text()
        v = check_text(text)
        assert v.code == 0
        assert (v.lower_bound, v.upper_bound) == (q["lower_bound"], q["upper_bound"])
        embedded = json.loads(text)["problem"]
        assert [h["name"] for h in embedded["heads"]] == [f"L0H{h}" for h in q["heads"]]
    assert (rc == 0) == doc["complete"]
    assert (tmp_path / "r" / "heatmap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (tmp_path / "r" / "report.md").read_text()
    assert "| H0 | H1 | H2 |" in md


def test_merge_report_table_matches_the_pair_certificates(tmp_path):
    from attnproof.merging import merge_report

    rep = merge_report(integer_capture(seed=2, n_heads=4), tmp_path / "r", layer=False)
    m = rep.matrix("lower_bound")
    assert len(rep.pairs) == 6 and rep.layer is None
    for q in rep.pairs:
        i, j = (rep.heads.index(h) for h in q["heads"])
        assert m[i, j] == m[j, i] == q["lower_bound"]
        assert q["lower_bound"] <= q["upper_bound"] <= q["product"]


def test_merge_report_needs_two_heads(tmp_path, run_cli):
    save_capture(integer_capture(), tmp_path / "c.npz")
    rc, _, err = run_cli("merge-report", str(tmp_path / "c.npz"), "--heads", "1", "-o",
                         str(tmp_path / "r"))
    assert rc == 3 and "at least two heads" in err


def _schema_valid(name: str, doc) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from pathlib import Path

    schema = json.loads((Path(__file__).resolve().parents[1] / "schemas" /
                         f"cli-{name}.schema.json").read_text())
    jsonschema.validators.validator_for(schema)(schema).validate(doc)


def test_json_outputs_follow_their_schemas(tmp_path, run_cli):
    save_capture(integer_capture(seed=1), tmp_path / "c.npz")
    rc, out, err = run_cli("import", str(tmp_path / "c.npz"), "-o", str(tmp_path / "p.json"), "--json")
    assert rc == 0, err
    _schema_valid("import", json.loads(out))
    rc, out, err = run_cli("merge-report", str(tmp_path / "c.npz"), "-o", str(tmp_path / "r"),
                           "--json", "--no-layer")
    doc = json.loads(out)
    assert doc["verdict"] == ("answered" if rc == 0 else "inconclusive")
    _schema_valid("merge-report", doc)
    rc, out, err = run_cli("import", str(tmp_path / "none.npz"), "-o", str(tmp_path / "p.json"), "--json")
    assert rc == 3
    _schema_valid("import", json.loads(out))


# ---- compact exact heads: what a merge-report task carries ---------------------------------

def test_exact_head_round_trip_and_digest():
    from attnproof.heads import Atom, Head
    from attnproof.merging import ExactHead

    rng = np.random.default_rng(4)

    def q():
        return Fraction(int(rng.integers(-50, 50)), int(rng.integers(1, 9)))

    atoms = tuple(Atom.sparse(6, {int(j): q() or Fraction(1) for j in rng.choice(6, 3, replace=False)},
                              (q(), q()), bias=q(), weight=abs(q()) or Fraction(1, 3))
                  for _ in range(5))
    h = Head(atoms, name="h")
    e = ExactHead.of(h, 6)
    assert e.to_head() == h
    assert ExactHead.of(e.to_head(), 6).digest == e.digest
    other = Head(atoms[:-1] + (Atom.sparse(6, {0: 1}, (0, 0)),), name="h")
    assert ExactHead.of(other, 6).digest != e.digest


def test_merge_report_certificates_equal_those_of_prove_question(tmp_path):
    """The report's tasks rebuild each head once per process (digest-keyed cache); the
    certificates are byte-identical to proving the same multi-head directly, and between runs."""
    from attnproof.heads import MultiHead
    from attnproof.transformer.problem import domain_dim
    from attnproof.merging import _HEAD_CACHE, merge_report, prove_question

    cap = random_capture(4, 6, 3, 3, seed=7)
    rep = merge_report(cap, tmp_path / "a", layer=True)
    _HEAD_CACHE.clear()
    rep2 = merge_report(cap, tmp_path / "b", layer=True)
    dim = domain_dim(cap, "layernorm")
    for q, q2 in zip(rep.pairs + [rep.layer], rep2.pairs + [rep2.layer]):
        assert q["certificate_sha256"] == q2["certificate_sha256"]
        M = MultiHead(tuple(head_from_capture(cap, h) for h in q["heads"]), dim=dim)
        direct = prove_question(M, "x", None, 0)
        assert direct["certificate_sha256"] == q["certificate_sha256"]
        assert (direct["lower_bound"], direct["upper_bound"]) == (q["lower_bound"], q["upper_bound"])
