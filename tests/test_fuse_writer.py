"""The fused-head writer: one pass over the atoms, each atom's text built directly and
checked for digits as it is written; the bytes are those of the canonical document."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnproof import Atom, Head, LimitError, MultiHead, fuse, product_fusion
from attnproof.cli import main
from attnproof.fusion import write_fused
from attnproof.families import random_multihead, sigmoid_sum
from attnproof.fusion import class_product_fusion, sparse_fusion
from attnproof.io import canonical_json
from attnproof.io.problem import fused_atom_docs, fused_atom_json


def _texts_agree(f) -> None:
    assert list(f.atom_json()) == [canonical_json(a)[:-1] for a in f.atom_docs()]


@settings(max_examples=40, deadline=None)
@given(heads=st.integers(1, 3), atoms=st.integers(1, 3), dim=st.integers(1, 4),
       value_dim=st.integers(1, 2), biases=st.booleans(), seed=st.integers(0, 10 ** 6))
def test_atom_json_is_the_canonical_text_of_each_atom_document(heads, atoms, dim, value_dim,
                                                               biases, seed):
    """Both paths (integer lattice keys straight from FLINT's columns, and the general rows
    with biases) give the text json.dumps gives for the documents, in the same order."""
    M = random_multihead(heads, atoms, dim, seed, value_dim=value_dim, biases=biases)
    for f in (fuse(M), product_fusion(M)):
        _texts_agree(f)


@pytest.mark.parametrize("M", [
    MultiHead((Head((Atom((Fraction(1, 3), 2), (1,)), Atom((0, 0), (0,)))),
               Head((Atom((Fraction(-1, 4), 0), (Fraction(1, 2),), weight=3), Atom((0, 1), (2,)))))),
    MultiHead((Head((Atom((1, 0), (1,), bias=Fraction(1, 2)), Atom((0, 0), (0,)))),
               Head((Atom((0, 1), (1,)), Atom((0, 0), (0,), bias=-1))))),
    MultiHead((Head((Atom.sparse(40, {3: 1, 21: 2}, (1,)), Atom.sparse(40, {}, (0,)))),
               Head((Atom.sparse(40, {10: -1}, (1, )), Atom.sparse(40, {}, (0,))))), dim=40),
    sigmoid_sum(5),
], ids=["scaled-keys", "biases", "sparse-keys", "sigmoid"])
def test_atom_json_of_every_kind_of_key(M):
    _texts_agree(fuse(M))


def test_atom_json_of_class_product_and_sparse_fusions():
    M = MultiHead((Head((Atom((Fraction(1, 10 ** 30), 1), (1,)), Atom((0, 0), (0,)))),
                   Head((Atom((0, Fraction(3, 7)), (2,)), Atom((1, 1), (0,))))))
    _texts_agree(class_product_fusion(M))
    one = MultiHead((Head((Atom.sparse(10 ** 5, {7: 1}, (2,)), Atom.sparse(10 ** 5, {9: 1}, (0,)),
                           Atom.sparse(10 ** 5, {7: 1}, (1,)))),))
    _texts_agree(sparse_fusion(one, cells=0))


def test_fused_atom_json_matches_the_documents_on_rows():
    rows = [(((0, 1), (3, Fraction(-7, 2)), (12, 5)), Fraction(2, 3), 6, (3, 5)),
            (((15, 1),), 0, 1, (0, -4)), ((), 4, 2, (2, 9))]
    for dim in (16, 17, 300):
        assert list(fused_atom_json(rows, dim, 2)) == \
            [canonical_json(a)[:-1] for a in fused_atom_docs(rows, dim, 2)]


@pytest.mark.parametrize("d", [12, 13])
def test_fuse_output_is_the_canonical_document_at_a_chunk_boundary(tmp_path, d):
    """W_12 has 4096 atoms, exactly one chunk of the writer; W_13 two."""
    p, out = tmp_path / "p.json", tmp_path / "f.json"
    assert main(["family", "sigmoid-sum", "--d", str(d), "-o", str(p)]) == 0
    assert main(["fuse", str(p), "-o", str(out)]) == 0
    assert out.read_text() == canonical_json(fuse(sigmoid_sum(d)).to_problem_dict())


class _Texts:
    """A stand-in fusion whose atom texts are given."""

    def __init__(self, texts):
        self.texts = texts

    def atom_json(self):
        for t in self.texts:
            yield t() if callable(t) else t


def test_writer_refuses_an_overlong_number_past_the_first_atom(tmp_path):
    out = tmp_path / "f.json"
    long = '{"key":["1/' + "9" * 2001 + '"],"value":0}'
    with pytest.raises(LimitError, match=r"atom 2: a number with more than 2000 digits"):
        write_fused(str(out), _Texts(['{"key":[0],"value":0}'] * 2 + [long]), 1)
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_writer_refuses_an_integer_past_pythons_own_digit_limit(tmp_path):
    out = tmp_path / "f.json"
    with pytest.raises(LimitError, match="more than 2000 digits"):
        write_fused(str(out), _Texts(['{"key":[0],"value":0}', lambda: str(10 ** 5000)]), 1)
    assert not out.exists()


def test_writer_keeps_a_long_atom_whose_numbers_are_short(tmp_path):
    """An atom text over 2000 characters is read back and checked, not refused."""
    out = tmp_path / "f.json"
    key = {str(j): 9 ** 40 for j in range(60)}
    text = json.dumps({"key": key, "value": 1}, sort_keys=True, separators=(",", ":"))
    assert len(text) > 2000
    write_fused(str(out), _Texts([text]), 100)
    assert json.loads(out.read_text())["heads"][0]["atoms"] == [{"key": key, "value": 1}]
