"""Regression tests for bugs found by attacking the command line and the checker.

Each test names the input that broke and what must happen instead.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from attnproof.cli import main


def _cli(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "attnproof", *args], capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def w2_cert(tmp_path):
    prob = tmp_path / "w2.json"
    cert = tmp_path / "w2.cert.json"
    assert main(["family", "sigmoid-sum", "--d", "2", "-o", str(prob)]) == 0
    assert main(["prove", str(prob), "-o", str(cert)]) == 0
    return cert


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_check_deeply_nested_problem_certificate_is_not_an_internal_error(tmp_path, w2_cert,
                                                                         json_flag):
    """A certificate naming "attnproof-problem" with arrays nested 50,000 deep in its steps
    made ``check`` exit 4 (RecursionError in the problem-file sniffing); it is invalid (1)."""
    text = w2_cert.read_text()
    assert '"steps":[' in text
    bad = tmp_path / "deep.json"
    bad.write_text(text.replace('"steps":[', '"steps":[' + "[" * 50000 + "]" * 50000 + ",", 1))
    r = _cli(["check", str(bad), *json_flag])
    assert r.returncode == 1, r.stderr
    assert "internal error" not in r.stderr
    if json_flag:
        assert json.loads(r.stdout)["verdict"] == "invalid"


def test_deeply_nested_yaml_problem_is_an_input_error(tmp_path):
    """A YAML problem nested 5,000 deep made every command exit 4 (RecursionError)."""
    bad = tmp_path / "deep.yaml"
    bad.write_text("heads: " + "[" * 5000 + "]" * 5000 + "\n")
    r = _cli(["bound", str(bad), "--json"])
    assert r.returncode == 3, r.stderr
    assert json.loads(r.stdout)["verdict"] == "error"


def test_npz_decompression_bomb_is_refused_before_loading(tmp_path, monkeypatch):
    """A 3 MB ``.npz`` whose one array expands to 3.3 GB was read into memory (3 GB, 20 s)
    before any check; the declared expanded size is now checked first (exit 3).  The test
    lowers the limit 64-fold and the bomb with it."""
    import attnproof.arrays
    from attnproof.checker.limits import MAX_FILE_BYTES

    assert attnproof.arrays.MAX_NPZ_EXPANDED_BYTES == MAX_FILE_BYTES
    monkeypatch.setattr(attnproof.arrays, "MAX_NPZ_EXPANDED_BYTES", MAX_FILE_BYTES // 64)
    import struct
    import zipfile

    from attnproof.arrays import load_npz
    from attnproof.errors import InputError

    bomb = tmp_path / "bomb.npz"
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (6250000, 1), }"
    header = header + " " * (118 - len(header)) + "\n"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as z:
        with z.open("keys_0.npy", "w", force_zip64=True) as f:
            f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
            chunk = bytes(1 << 24)
            for _ in range(4):
                f.write(chunk)
    assert bomb.stat().st_size < 10 ** 6
    with pytest.raises(InputError, match="expand"):
        load_npz(bomb)


def test_bound_says_1_atom_not_1_atoms(tmp_path, capsys):
    """A constant multi-head (every value 1) printed "needs at least 1 atoms"."""
    prob = tmp_path / "one.json"
    prob.write_text(json.dumps({"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
        {"atoms": [{"key": [1], "value": 1}, {"key": [0], "value": 1}]}]}))
    assert main(["bound", str(prob)]) == 0
    out = capsys.readouterr().out
    assert "at least 1 atom " in out and "1 atoms" not in out


def test_float_head_with_constant_values_costs_no_atoms():
    """Head 0 has one value on every atom, so it is the constant function: the sum is head 1
    plus a constant, an exact 4-atom head.  On float keys (the geometric path) ``fuse`` gave
    the 5 × 4 = 20-atom product and ``prove`` an upper bound 20 beside a lower bound 4."""
    np = pytest.importorskip("numpy")
    from attnproof import MultiHead, fuse

    rng = np.random.default_rng(7)
    keys = [rng.standard_normal((5, 4)).astype(np.float32),
            rng.standard_normal((4, 4)).astype(np.float32)]
    vals = [np.ones(5, dtype=np.float32), rng.standard_normal(4).astype(np.float32)]
    M = MultiHead.from_arrays(keys, vals)
    f = fuse(M)
    f.verify(points=3)
    assert f.atoms == 4


def test_float_heads_all_constant_fuse_to_one_atom():
    """Every head constant: the sum is the constant, one atom with the summed value."""
    np = pytest.importorskip("numpy")
    from fractions import Fraction

    from attnproof import MultiHead, fuse

    rng = np.random.default_rng(3)
    keys = [rng.standard_normal((3, 3)).astype(np.float32) for _ in range(2)]
    vals = [np.full(3, 0.5, dtype=np.float32), np.full(3, -2.0, dtype=np.float32)]
    f = fuse(MultiHead.from_arrays(keys, vals))
    f.verify(points=3)
    head = f.to_head()
    assert [a.value for a in head.atoms] == [(Fraction(-3, 2),)]


def test_numcheck_refutation_reports_a_nonzero_max_difference():
    """A fused head off by 10^-30 was refuted with ``max_difference`` 0 in ``--json``: the
    refuting query's difference was left out of the maximum."""
    pytest.importorskip("flint")
    from fractions import Fraction

    from attnproof.model import Atom, Head, MultiHead
    from attnproof.numeric.compare import ball_compare

    sig = MultiHead((Head((Atom((1,), (1,)), Atom((0,), (0,)))),))
    bad = Head((Atom((1,), (1,)), Atom((0,), (Fraction(1, 10 ** 30),))))
    r = ball_compare(sig, bad, samples=3)
    assert r.verdict == "refuted"
    assert float(r.max_difference) > 0


@pytest.mark.parametrize("args", [["sigmoid-sum", "--d", "1000000000"],
                                  ["graph", "--graph", "complete", "--n", "100000"],
                                  ["random", "--heads", "1000000", "--atoms", "100"]])
def test_family_refuses_huge_sizes_before_building(tmp_path, args):
    """``family sigmoid-sum --d 10^9`` (1.9 GB), ``graph complete --n 100000`` (4.4 GB) and
    ``random --heads 10^6`` ran past 60 s building the problem; now exit 3 at once."""
    r = _cli(["family", *args, "-o", str(tmp_path / "x.json"), "--json"])
    assert r.returncode == 3, r.stderr
    assert json.loads(r.stdout)["verdict"] == "error"


@pytest.mark.parametrize("exp", [1000, 1900])
def test_prove_on_keys_whose_lattice_outgrows_the_format_is_a_limit(tmp_path, exp):
    """Keys of 10^±1000 digits are valid input, but their lattice exponents have more digits
    than a certificate may hold: ``prove`` exited 4 (a ValueError of int-to-text conversion,
    or the self-check's rejection); now a one-line exit 3 that says why."""
    import json

    doc = {"format": "attnproof-problem", "version": 1, "dim": 2, "heads": [
        {"atoms": [{"key": [f"1e{exp}", f"1e-{exp}"], "value": 1}, {"key": [0, "1/3"], "value": 0},
                   {"key": [1, 1], "value": 0}]},
        {"atoms": [{"key": [f"1e-{exp}", 7], "value": 1}, {"key": [0, 0], "value": 0}]}]}
    p = tmp_path / "p.json"
    p.write_text(json.dumps(doc))
    r = _cli(["prove", str(p), "-o", str(tmp_path / "c.json")])
    assert r.returncode == 3, r.stderr
    assert "2000 digits" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert _cli(["bound", str(p)]).returncode == 0


def test_fuse_never_writes_a_file_it_cannot_read(tmp_path):
    """``fuse -o`` on keys 10^1000 and 10^-1000 wrote a key of more than 2000 digits, a file
    that every command then refused; now the write itself is a one-line exit 3."""
    doc = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
        {"atoms": [{"key": ["1e1000"], "value": 1}, {"key": [0], "value": 0}]},
        {"atoms": [{"key": ["1e-1000"], "value": 1}, {"key": [0], "value": 0}]}]}
    p = tmp_path / "p.json"
    p.write_text(json.dumps(doc))
    r = _cli(["fuse", str(p), "-o", str(tmp_path / "f.json")])
    assert r.returncode == 3, r.stderr
    assert "cannot be written" in r.stderr and not (tmp_path / "f.json").exists()
