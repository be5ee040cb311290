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
    import attnproof.io.npz
    from attnproof.checker.limits import MAX_FILE_BYTES

    assert attnproof.io.npz.MAX_NPZ_EXPANDED_BYTES == MAX_FILE_BYTES
    monkeypatch.setattr(attnproof.io.npz, "MAX_NPZ_EXPANDED_BYTES", MAX_FILE_BYTES // 64)
    import struct
    import zipfile

    from attnproof.io.npz import load_npz
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

    from attnproof.heads import Atom, Head, MultiHead
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
    or the self-check's rejection); now a one-line exit 3 that says why.  In the plane the
    count needs no vertex list (``planar_vertices``), and the same keys prove."""
    import json

    doc = {"format": "attnproof-problem", "version": 1, "dim": 3, "heads": [
        {"atoms": [{"key": [f"1e{exp}", f"1e-{exp}", 0], "value": 1},
                   {"key": [0, "1/3", 1], "value": 0}, {"key": [1, 1, 0], "value": 0},
                   {"key": [2, 0, 5], "value": 0}]},
        {"atoms": [{"key": [f"1e-{exp}", 7, 1], "value": 1}, {"key": [0, 0, 0], "value": 0},
                   {"key": [0, 1, 3], "value": 2}]}]}
    p = tmp_path / "p.json"
    p.write_text(json.dumps(doc))
    r = _cli(["prove", str(p), "-o", str(tmp_path / "c.json")])
    assert r.returncode == 3, r.stderr
    assert "2000 digits" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert _cli(["bound", str(p)]).returncode == 0
    doc = {"format": "attnproof-problem", "version": 1, "dim": 2, "heads": [
        {"atoms": [{"key": [f"1e{exp}", f"1e-{exp}"], "value": 1}, {"key": [0, "1/3"], "value": 0},
                   {"key": [1, 1], "value": 0}]},
        {"atoms": [{"key": [f"1e-{exp}", 7], "value": 1}, {"key": [0, 0], "value": 0}]}]}
    p.write_text(json.dumps(doc))
    r = _cli(["prove", str(p), "-o", str(tmp_path / "c.json")])
    assert r.returncode == 0 and "lower bound 5" in r.stdout, r.stderr
    assert _cli(["check", str(tmp_path / "c.json")]).returncode == 0


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


def _problem(tmp_path, heads, dim, name="p.json"):
    p = tmp_path / name
    p.write_text(json.dumps({"format": "attnproof-problem", "version": 1, "dim": dim,
                             "heads": heads}))
    return p


def _high_degree_pair(tmp_path):
    """Two sigmoid heads whose keys put exponents 20000 and 41 on one lattice variable
    (scale 41000): Q = (x1·x2^20000 + 1)(x1^2·x2^41 + 1) has 4 terms, but FLINT takes
    minutes and a gigabyte to factor it."""
    return _problem(tmp_path, [
        {"atoms": [{"key": [1, "20/41"], "value": 1}, {"key": [0, 0], "value": 0}]},
        {"atoms": [{"key": [2, "1/1000"], "value": 1}, {"key": [0, 0], "value": 0}]}], 2)


def test_show_does_not_factor_a_high_degree_denominator(tmp_path):
    """``show`` on two sigmoid heads with keys 20/41 and 1/1000 (or biases 1/3, -1/7, 1e-3)
    ran past a minute and a gigabyte factoring Q; now Q is shown expanded."""
    r = _cli(["show", str(_high_degree_pair(tmp_path)), "--json"])
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["q_support_points"] == 4
    assert "x1**3*x2**20041" in doc["reduced"][0]


def test_search_skips_level_parity_when_q_cannot_be_factored_quickly(tmp_path):
    """``search --timeout 10`` on the same problem ran past a minute before its first query:
    the level-parity constraints factored Q.  They are optional (fewer constraints, never a
    wrong one), so a Q of too high a degree gives none."""
    from attnproof.fusion import reduced_form
    from attnproof.io import load_problem
    from attnproof.smt.query import binomial_directions

    r = reduced_form(load_problem(_high_degree_pair(tmp_path)))
    assert binomial_directions(r) == ()


def test_checker_refuses_a_sparse_key_index_with_a_trailing_newline(tmp_path):
    """In a dim > 16 problem the index "16\\n" passes as 16, so {"16": 1, "16\\n": -1} is a key
    with coordinate 16 given twice: the checker then works with a monomial that repeats a
    variable, and a certificate proving "minimum 9" for two heads that, read by adding the
    duplicates, are one head twice (minimum 3) was valid.  Non-canonical problems are invalid."""
    import hashlib

    from attnproof.checker import check_document
    from attnproof.checker.syntax import canonical_text

    prob = _problem(tmp_path, [{"atoms": [{"key": {"16": 1}, "value": 1},
                                          {"key": {}, "value": 0}]},
                               {"atoms": [{"key": {"15": 1}, "value": 1},
                                          {"key": {}, "value": 0}]}], 17)
    cert = tmp_path / "c.json"
    assert main(["prove", str(prob), "-o", str(cert)]) == 0
    doc = json.loads(cert.read_text())
    doc["problem"]["heads"][0]["atoms"][0]["key"] = {"16\n": 1}
    doc["problem_sha256"] = hashlib.sha256(canonical_text(doc["problem"]).encode()).hexdigest()
    assert check_document(doc).status == "invalid"


def test_bound_on_four_decimal_keys_does_not_hang(tmp_path):
    """One head with keys 0, 0.3333, 0.5, 1 (exponents up to 10000 on one variable):
    ``bound`` ran for minutes in FLINT's factoring of 1 + x^3333 + x^5000 + x^10000
    (``prove`` 43 s); factoring a degree-16000 quadrinomial takes three minutes."""
    p = _problem(tmp_path, [{"atoms": [{"key": [k], "value": i} for i, k in
                                       enumerate([0, "0.3333", "0.5", 1])]}], 1)
    try:
        r = subprocess.run([sys.executable, "-m", "attnproof", "bound", str(p)],
                           capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("bound ran past 30 s on a 4-atom head")
    assert r.returncode == 0, r.stderr
    assert "at least 2 atoms" in r.stdout        # the segment's two vertices, from FLINT's gcd


def test_ball_digit_limit_of_the_parser_matches_the_numerics():
    from attnproof.cli.common import MAX_BALL_DIGITS as parser_limit
    from attnproof.numeric.precision import MAX_BALL_DIGITS, MAX_BITS, digits_to_bits

    assert parser_limit == MAX_BALL_DIGITS
    assert digits_to_bits(MAX_BALL_DIGITS) + 20 <= MAX_BITS < digits_to_bits(MAX_BALL_DIGITS + 1) + 20


@pytest.mark.parametrize("args", [["numcheck", "W", "F", "--digits", "100000"],
                                  ["numcheck", "W", "F", "--max-digits", "30000"],
                                  ["numcheck", "W", "F", "--samples", "100000000"],
                                  ["eval", "W", "--random", "2", "--digits", "100000"]])
def test_ball_precision_and_sample_limits_are_input_errors(tmp_path, capsys, args):
    """``numcheck --digits 100000`` and ``eval --digits 100000`` exited 4 (a precision outside
    Arb's 65536 bits); ``numcheck --samples 10^8`` ran past a minute and 1.5 GB drawing
    queries.  All are one-line input errors now."""
    w, f = tmp_path / "w.json", tmp_path / "f.json"
    assert main(["family", "sigmoid-sum", "--d", "2", "-o", str(w)]) == 0
    assert main(["fuse", str(w), "-o", str(f)]) == 0
    capsys.readouterr()
    args = [str(w) if a == "W" else str(f) if a == "F" else a for a in args]
    try:
        code = main([*args, "--json"])
    except SystemExit as e:           # a usage error of the parser
        code = e.code
    assert code == 3
    out = capsys.readouterr()
    assert json.loads(out.out)["exit_code"] == 3 and "internal" not in out.err


def test_numcheck_draws_only_the_coordinates_that_sparse_keys_use():
    """Two sigmoid heads on coordinates 0 and 99999 of a 100000-dimensional problem: each
    query drew and evaluated 100000 exact coordinates (numcheck ran past a minute); the
    other coordinates change nothing, so only the used ones are drawn."""
    pytest.importorskip("flint")
    from attnproof.families import sigmoid_sum
    from attnproof.io import problem_from_dict
    from attnproof.heads import MultiHead
    from attnproof.numeric.compare import used_coordinates
    from attnproof.numeric.queries import random_queries

    M = problem_from_dict({"format": "attnproof-problem", "version": 1, "dim": 100000, "heads": [
        {"atoms": [{"key": {"99999": 1}, "value": 1}, {"key": {}, "value": 0}]},
        {"atoms": [{"key": {"0": 1}, "value": 1}, {"key": {}, "value": 0}]}]})
    assert used_coordinates(M) == [0, 99999]
    (q,) = random_queries(M.dim, 1, coordinates=used_coordinates(M))
    assert len(q) == 100000 and sum(1 for x in q if x) <= 2
    assert used_coordinates(sigmoid_sum(3)) is None           # dense problems: unchanged
    assert isinstance(M, MultiHead)


def test_eval_refuses_more_query_coordinates_than_memory_allows(tmp_path, capsys):
    """``eval --random 10^7`` on a 100000-dimensional problem exited 4 (out of memory)."""
    p = _problem(tmp_path, [{"atoms": [{"key": {"99999": 1}, "value": 1},
                                       {"key": {}, "value": 0}]}], 100000)
    assert main(["eval", str(p), "--random", "10000000"]) == 3
    assert "over the limit" in capsys.readouterr().err


@pytest.mark.parametrize("seconds", ["nan", "inf", "-5", "0", "1e308"])
def test_check_replay_timeout_must_be_a_number_of_seconds(w2_cert, capsys, seconds):
    """``check --replay --replay-timeout nan`` (or inf, 1e308) was accepted and the replay then
    failed inside ("replay failed to run (ValueError)", OverflowError); -5 and 0 were taken
    as spent budgets.  Now a one-line usage error, as ``search --timeout``."""
    assert main(["check", str(w2_cert), "--replay", "--replay-timeout", seconds]) == 3
    assert "--replay-timeout" in capsys.readouterr().err


def test_export_checker_never_overwrites_a_users_check_py(tmp_path, capsys):
    """``export-checker DIR`` replaced DIR/check.py and DIR/README.txt of the user's without
    --force (only DIR/attnproof_checker was protected), and ``export-checker ''`` wrote into
    the current folder while printing 'python3 /check.py'."""
    (tmp_path / "check.py").write_text("print('mine')\n")
    assert main(["export-checker", str(tmp_path)]) == 3
    assert (tmp_path / "check.py").read_text() == "print('mine')\n"
    assert main(["export-checker", str(tmp_path), "--force"]) == 0
    assert "attnproof" in (tmp_path / "check.py").read_text()
    assert main(["export-checker", ""]) == 3


@pytest.mark.parametrize("what", ["x", "scale"])
def test_import_of_a_capture_with_huge_floats_is_not_an_internal_error(tmp_path, what):
    """A capture whose context rows (or scale) are around 1e300 made ``import`` exit 4
    (ValueError: negative shift count in the dyadic arithmetic)."""
    np = pytest.importorskip("numpy")
    from attnproof.transformer.capture import random_capture

    a = random_capture(3, 4, 2, 2, seed=1).arrays()
    a[what] = a[what] * 1e300
    np.savez(tmp_path / "c.npz", **a)
    r = _cli(["import", str(tmp_path / "c.npz"), "-o", str(tmp_path / "p.json")])
    assert r.returncode in (0, 3), r.stderr
    assert "internal error" not in r.stderr


def test_capture_decompression_bomb_is_refused_before_loading(tmp_path, monkeypatch):
    """A 3 MB capture whose one array expands to 3.3 GB made ``import`` take 46 s and 3.1 GB
    before it said "missing array 'x'"; problem-file archives are checked first
    (attnproof.io.npz.MAX_NPZ_EXPANDED_BYTES), captures are not.  Scaled down 512-fold."""
    np = pytest.importorskip("numpy")
    import attnproof.io.npz
    from attnproof.errors import InputError
    from attnproof.transformer.capture import load_capture

    monkeypatch.setattr(attnproof.io.npz, "MAX_NPZ_EXPANDED_BYTES", 1 << 20)
    np.savez_compressed(tmp_path / "bomb.npz", x=np.zeros((1 << 18, 2)))
    assert (tmp_path / "bomb.npz").stat().st_size < 1 << 16
    with pytest.raises(InputError, match="expand"):
        load_capture(tmp_path / "bomb.npz")


def test_merge_report_into_an_unwritable_folder_is_an_input_error(tmp_path):
    """``merge-report C.npz -o /proc`` exited 4 (FileNotFoundError: /proc/certificates)."""
    np = pytest.importorskip("numpy")
    from attnproof.transformer.capture import random_capture

    np.savez(tmp_path / "c.npz", **random_capture(3, 4, 2, 2, seed=1).arrays())
    r = _cli(["merge-report", str(tmp_path / "c.npz"), "-o", "/proc"])
    assert r.returncode == 3, r.stderr


def test_demo_row_limit_keeps_the_table_short(capsys):
    """``demo --max-d 1000`` (documented as allowed) ran for minutes: every row is proven and
    checked, so the table costs the sum over d of W_d's certificate (about 5 s at d = 100 on
    a loaded machine, 34 s at d = 400).  The limit is 200 rows now."""
    from attnproof.cli.cmd_demo import MAX_DEMO_D

    assert MAX_DEMO_D <= 200
    with pytest.raises(SystemExit) as e:
        main(["demo", "--max-d", str(MAX_DEMO_D + 1)])
    assert e.value.code == 3


def test_plot_frame_stops_at_full_rank():
    """``show w16.json --plot`` took 47 s: the affine frame of Q's 65536 support points was
    eliminated in Fractions over every point.  Once the rank is full the remaining points
    cannot change the frame and are not visited (here they would not even subtract)."""
    from attnproof.plot import affine_frame

    pts = [(0, 0, 0), (1, 0, 0), (0, 2, 0), (0, 0, 3)] + ["not a point"] * 1000
    assert affine_frame(pts) == (3, (0, 1, 2))
    assert affine_frame([(0, 0), (2, 2), (4, 4), (1, 1)]) == (1, (0,))


@pytest.mark.parametrize("family", [["sigmoid-sum", "--d", "3"], ["biased-sigmoid", "--biases", "1/2,0,-1"],
                                    ["random", "--heads", "2", "--atoms", "3", "--dim", "2",
                                     "--value-dim", "2", "--seed", "4"]])
def test_fuse_output_streams_the_canonical_problem_file(tmp_path, family):
    """``fuse w18.json -o`` took 26 s (W_20: killed after a minute at 2 GB): the written head
    was re-parsed in full to check its digits, and built as one document.  The file is now
    written atom by atom; it must be byte-identical to the canonical document."""
    from attnproof.fusion import fuse
    from attnproof.io import canonical_json, load_problem

    p, out = tmp_path / "p.json", tmp_path / "f.json"
    assert main(["family", *family, "-o", str(p)]) == 0
    assert main(["fuse", str(p), "-o", str(out)]) == 0
    assert out.read_text() == canonical_json(fuse(load_problem(p)).to_problem_dict())


def test_fuse_output_of_a_class_product_fusion_is_canonical(tmp_path):
    """The same for long keys (the class product fusion, keys written as exact decimals)."""
    from attnproof.fusion import fuse
    from attnproof.io import canonical_json, load_problem

    p = _problem(tmp_path, [
        {"atoms": [{"key": ["0.1234567890123456789", "0.3"], "value": 1},
                   {"key": [0, "0.71234567890123456789"], "value": 0},
                   {"key": ["-0.51234567890123456789", 0], "value": 2}]},
        {"atoms": [{"key": ["0.3", "0.1234567890123456789"], "value": 1},
                   {"key": ["0.71234567890123456789", 0], "value": 3},
                   {"key": [0, "-0.51234567890123456789"], "value": 2}]}], 2)
    out = tmp_path / "f.json"
    assert main(["fuse", str(p), "-o", str(out)]) == 0
    f = fuse(load_problem(p))
    assert type(f).__name__ == "ClassProductFusion"
    assert out.read_text() == canonical_json(f.to_problem_dict())


def test_checker_refuses_a_flood_of_json_containers_before_parsing():
    """90 MB of ``{}`` took 2.2 GB in the checker (25 bytes of memory per byte of file); a
    certificate with more objects and arrays than ``MAX_CONTAINERS`` is now inconclusive at once
    (with the default budget, which reads up to the file limit, and with a --max-work that
    reads it: past the containers, unparsed)."""
    from attnproof.checker import check_text
    from attnproof.checker.limits import MAX_CONTAINERS

    text = "[" + "{}," * MAX_CONTAINERS + "{}]"
    v = check_text(text, work=10 ** 8)
    assert v.code == 2 and "JSON objects and arrays" in v.message
    v = check_text(text)
    assert v.code == 2 and "JSON objects and arrays" in v.message and v.work == 0


def test_standalone_checker_problem_hash_must_be_hex(tmp_path):
    """``python -m attnproof.checker C --problem-sha256 zz`` answered 'invalid' (exit 1):
    a malformed option is a usage error (exit 3)."""
    c = tmp_path / "c.json"
    c.write_text("{}")
    r = subprocess.run([sys.executable, "-m", "attnproof.checker", str(c), "--problem-sha256", "zz"],
                       capture_output=True, text=True)
    assert r.returncode == 3 and "hexadecimal" in r.stderr


def test_problem_numbers_with_a_trailing_newline_are_not_numbers(tmp_path):
    """``"1/3\\n"`` read as 1/3 in a problem file (the pattern's ``$`` matches before a final
    newline); a number in a string holds nothing else, as in the checker."""
    doc = {"format": "attnproof-problem", "version": 1, "dim": 1, "heads": [
        {"atoms": [{"key": ["1/3\n"], "value": 1}, {"key": [0], "value": 0}]}]}
    p = tmp_path / "p.json"
    p.write_text(json.dumps(doc))
    r = _cli(["bound", str(p)])
    assert r.returncode == 3 and "not an exact number" in r.stderr


def test_problem_file_flood_of_json_containers_is_a_limit(tmp_path):
    """A problem file of millions of empty objects is refused before parsing (exit 3)."""
    from attnproof.checker.limits import MAX_CONTAINERS

    p = tmp_path / "p.json"
    p.write_text("[" + "{}," * MAX_CONTAINERS + "{}]")
    r = _cli(["bound", str(p)])
    assert r.returncode == 3 and "JSON objects and arrays" in r.stderr


def test_merge_report_into_an_empty_folder_name_is_a_usage_error(tmp_path):
    """``merge-report CAP -o ''`` wrote into the current folder and said 'under /certificates'."""
    pytest.importorskip("numpy")
    import numpy as np

    from attnproof.transformer.capture import random_capture

    cap = tmp_path / "cap.npz"
    np.savez(cap, **random_capture(3, 4, 2, 2, seed=1).arrays())
    r = _cli(["merge-report", str(cap), "-o", ""])
    assert r.returncode == 3 and "folder" in r.stderr
