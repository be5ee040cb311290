"""One set of format limits (io, checker, docs) and output files that never replace
what they must not (issue: the checker under attack, items 9 and 10)."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from attnproof import io
import attnproof.io.files  # noqa: F401  (the io rooms that read the limits)
import attnproof.io.numbers  # noqa: F401
from attnproof.checker import limits, syntax
from attnproof.cli import main
from attnproof.errors import InputError, NumberError, ValidationError

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "certificates.md").read_text()


def test_io_uses_the_checker_limits():
    assert io.numbers.MAX_DIGITS is limits.MAX_DIGITS
    assert io.numbers.MAX_EXPONENT is limits.MAX_EXPONENT
    assert io.files.MAX_DIGITS is limits.MAX_DIGITS
    assert io.files.MAX_FILE_BYTES is limits.MAX_FILE_BYTES
    assert syntax.MAX_DIGITS is limits.MAX_DIGITS


@pytest.mark.parametrize("name", ["MAX_DIGITS", "MAX_DIM", "MAX_COUNT_DIGITS", "MAX_LATTICE_BITS",
                                  "WORK_BASE", "WORK_PER_BYTE", "MAX_FLINT_DENSE",
                                  "MAX_FLINT_EXPONENT_BITS", "MAX_FLINT_COEFFICIENT_BITS", "MAX_GRAPH_NODES", "MAX_SUBSETS",
                                  "MAX_EXPANSION", "REPLAY_SECONDS", "MAX_EXPONENT",
                                  "MAX_CONTAINERS", "MAX_READ_BYTES", "BYTES_PER_WORK",
                                  "UNIT_MICROSECONDS", "READ_BYTES_PER_UNIT"])
def test_docs_state_each_limit(name):
    """docs/certificates.md lists every limit with the value the code uses."""
    m = re.search(rf"`{name}`\s*\|\s*([0-9_,.^ ]+?)\s*\|", DOC)
    assert m, f"{name} is not in the limits table of docs/certificates.md"
    text = m.group(1).replace(",", "").replace("_", "").replace(" ", "")
    value = 2 ** int(text[2:]) if text.startswith("2^") else float(text) if "." in text else int(text)
    assert value == getattr(limits, name)


def test_docs_state_the_size_the_budget_reads():
    """The rule of ``byte_limit``, as docs/certificates.md §8 states it, is what the code does."""
    assert "`max(MAX_READ_BYTES, BYTES_PER_WORK × N)`" in DOC and "`byte_limit(N)`" in DOC
    for n in (1, limits.WORK_BASE, limits.MAX_READ_BYTES, 35_000_000, 10 ** 13):
        assert limits.byte_limit(n) == min(max(limits.MAX_READ_BYTES, limits.BYTES_PER_WORK * n),
                                           limits.MAX_FILE_BYTES)
    # the default budget grows with the file: it reads up to the file limit
    assert limits.byte_limit(None) == limits.MAX_FILE_BYTES
    # --max-work N reads what N units of reading cover, and the default budget covers reading
    assert limits.BYTES_PER_WORK == limits.READ_BYTES_PER_UNIT
    assert limits.work_limit(limits.MAX_FILE_BYTES) * limits.READ_BYTES_PER_UNIT >= limits.MAX_FILE_BYTES


def test_both_checker_commands_state_the_budget_of_the_limits():
    """``--max-work``'s help, in the standalone checker (from the constants) and in
    ``attnproof check`` (written out, so that building the command line imports no checker)."""
    import argparse

    from attnproof.checker.__main__ import build_parser
    from attnproof.cli import cmd_check

    p = argparse.ArgumentParser()
    cmd_check.add_arguments(p)
    for parser in (p, build_parser()):
        (help_text,) = [a.help for a in parser._actions if "--max-work" in a.option_strings]
        assert help_text == limits.MAX_WORK_HELP
    assert f"{limits.WORK_BASE:,}" in limits.MAX_WORK_HELP


def _problem(dim, key):
    return {"format": "attnproof-problem", "version": 1, "dim": dim,
            "heads": [{"atoms": [{"key": key, "value": 1}, {"key": {}, "value": 0}]}]}


def test_dim_limit_is_the_same_in_io_and_checker():
    from attnproof.checker.problem import parse_problem
    ok = _problem(limits.MAX_DIM, {"3": 1})
    io.problem_from_dict(ok)
    parse_problem(ok)
    bad = _problem(limits.MAX_DIM + 1, {"3": 1})
    with pytest.raises(ValidationError):
        io.problem_from_dict(bad)
    with pytest.raises(syntax.Reject):
        parse_problem(bad)
    with pytest.raises(ValidationError):
        io.problem_from_dict(_problem(10 ** 30, {"3": 1}))


def test_digit_limit_is_the_same_in_io_and_checker():
    n = "9" * limits.MAX_DIGITS
    assert io.parse_number(n) == int(n)
    assert syntax.rational(int(n), "x") == int(n)
    for text in ("9" * (limits.MAX_DIGITS + 1), f"1e{limits.MAX_DIGITS}",
                 f"{'9' * 1500}e600", f"1/{'7' * (limits.MAX_DIGITS + 1)}"):
        with pytest.raises(NumberError):
            io.parse_number(text)
    with pytest.raises(syntax.Reject):
        syntax.rational(10 ** limits.MAX_DIGITS, "x")
    with pytest.raises(syntax.Reject):
        syntax.loads("1" * (limits.MAX_DIGITS + 1))


@pytest.mark.parametrize("digits", [4299, 4301, 5000, 20000])
def test_counts_of_any_length_never_hit_the_int_str_limit(digits):
    """Counts are read and written in chunks (Python refuses int/str above 4300 digits)."""
    from attnproof.checker import show_count
    n = 10 ** (digits - 1) + 7
    text = syntax.decimal_text(n)
    assert len(text) == digits and syntax.count(text, "c") == n
    assert f"({digits} digits)" in show_count(n)


# -- output files (-o) --------------------------------------------------------------

def test_write_through_a_character_device():
    io.atomic_write_text(os.devnull, "x")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_write_through_a_pipe(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    r = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        io.atomic_write_text(fifo, "hello")
        assert os.read(r, 100) == b"hello"
    finally:
        os.close(r)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_symlinks_are_followed(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    io.atomic_write_text(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "created.json")
    io.atomic_write_text(dangling, "made")
    assert dangling.is_symlink() and (tmp_path / "created.json").read_text() == "made"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["created.json", "dangling.json",
                                                           "link.json", "real.json"]


def test_refused_outputs(tmp_path):
    with pytest.raises(InputError, match="is a directory"):
        io.atomic_write_text(tmp_path, "x")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    with pytest.raises(InputError):
        io.atomic_write_text(loop, "x")
    import socket
    sock_path = tmp_path / "s"
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(str(sock_path))
        with pytest.raises(InputError, match="refusing"):
            io.atomic_write_text(sock_path, "x")
    finally:
        s.close()
    assert stat.S_ISSOCK(os.stat(sock_path).st_mode)


def test_cli_output_to_devnull_and_directory(tmp_path, capsys):
    p = tmp_path / "w2.json"
    assert main(["family", "sigmoid-sum", "--d", "2", "-o", str(p)]) == 0
    assert main(["prove", str(p), "-o", os.devnull]) == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert main(["prove", str(p), "-o", str(tmp_path)]) == 3
    assert "is a directory" in capsys.readouterr().err


def test_prove_never_reports_an_undecided_certificate_as_checked(tmp_path, monkeypatch, capsys):
    """A certificate beyond the checker's limits is refused by prove (a limit, exit 3)."""
    import attnproof.checker as C
    from attnproof.certificate import self_check
    p = tmp_path / "w2.json"
    assert main(["family", "sigmoid-sum", "--d", "2", "-o", str(p)]) == 0
    monkeypatch.setattr(C, "work_limit", lambda n: 5)
    monkeypatch.setattr(self_check, "PRODUCER_WORK", 5)
    out = tmp_path / "w2.cert"
    assert main(["prove", str(p), "-o", str(out)]) == 3
    assert "within its limits" in capsys.readouterr().err and not out.exists()
    monkeypatch.undo()
    assert main(["prove", str(p), "-o", str(out)]) == 0 and main(["check", str(out)]) == 0


def test_prove_names_the_work_budget_a_large_certificate_needs(tmp_path, monkeypatch, capsys):
    """Over the default work budget (capped for hostile files), prove checks its own
    certificate with a budget that fits, and says which --max-work re-checks it."""
    import attnproof.checker as C
    p = tmp_path / "w3.json"
    assert main(["family", "sigmoid-sum", "--d", "3", "-o", str(p)]) == 0
    monkeypatch.setattr(C, "work_limit", lambda n: 5)
    out = tmp_path / "w3.cert"
    capsys.readouterr()
    assert main(["prove", str(p), "-o", str(out)]) == 0 and out.exists()
    said = capsys.readouterr().out
    m = re.search(r"--max-work (\d+)", said)
    assert m, said
    assert main(["check", str(out)]) == 2
    assert "--max-work raises it" in capsys.readouterr().out
    assert main(["check", str(out), "--max-work", m.group(1)]) == 0
    assert main(["check", str(out), "--max-work", "5"]) == 2


def test_api_prove_names_the_work_budget_a_large_certificate_needs(monkeypatch):
    """The Python API does what the command does past the capped default budget."""
    import attnproof.checker as C
    from attnproof import check, prove, sigmoid_sum
    monkeypatch.setattr(C, "work_limit", lambda n: 5)
    cert = prove(sigmoid_sum(3))
    assert cert.check_note and "--max-work" in cert.check_note
    assert check(cert).code == 2
    monkeypatch.undo()
    assert check(cert).code == 0 and prove(sigmoid_sum(3)).check_note is None
