"""The checker's one implementation of each common case (docs/certificates.md §8c) against
the general procedure it replaced or shortcuts (hypothesis): the same value, the same
rejection and the same work.  Inputs are small and often malformed on purpose.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import example, given, settings, strategies as st

from attnproof.checker import check_text, poly as P, problem as PR, syntax as S
from attnproof.checker.linalg import eliminate, product, rank_mod
from attnproof.checker.rules import factors as R
from attnproof.checker.syntax import Budget, Reject, Unsupported

SETTINGS = settings(max_examples=300, deadline=None)


def outcome(fn, *args):
    """The value of ``fn(*args)``, or the kind and message of its rejection."""
    try:
        return ("ok", fn(*args))
    except (Reject, Unsupported) as e:
        return (type(e).__name__, str(e))


# -- JSON objects -----------------------------------------------------------------

keys = st.sampled_from(["a", "b", "c"])


@SETTINGS
@given(st.lists(st.tuples(keys, st.integers(0, 3)), max_size=5))
def test_pairs_hook_rejects_exactly_the_repeated_keys(pairs):
    ks = [k for k, _ in pairs]
    got = outcome(S._pairs, pairs)
    if len(set(ks)) == len(ks):
        assert got == ("ok", dict(pairs))
    else:
        first = next(k for i, k in enumerate(ks) if k in ks[:i])
        assert got == ("Reject", f"duplicate JSON key {first!r}")


objs = st.one_of(st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), st.integers(0, 1),
                                 max_size=4),
                 st.lists(st.integers(), max_size=2), st.none())
sets = st.sets(st.sampled_from(["a", "b", "c"]))


def former_fields(obj, required, optional, where):
    """The field check as it was written before its fast path became the reference one."""
    if not isinstance(obj, dict):
        raise Reject(f"{where}: expected a JSON object")
    for k in sorted(obj):
        if k not in required and k not in optional:
            raise Reject(f"{where}: unknown field {k!r}")
    for k in sorted(required):
        if k not in obj:
            raise Reject(f"{where}: missing field {k!r}")
    return obj


@SETTINGS
@given(objs, sets, sets)
def test_fields_is_the_former_check(obj, required, optional):
    assert outcome(S.fields, obj, required, optional, "w") == \
        outcome(former_fields, obj, required, optional, "w")


# -- polynomials --------------------------------------------------------------------

small = st.integers(-3, 3)
coefs = st.one_of(small, st.integers(-10 ** 2001, 10 ** 2001).filter(lambda c: abs(c) > 10 ** 1999),
                  st.booleans(), st.sampled_from(["1/2", "-3/4", "2/4", "x", 1.5, None]))
pair = st.one_of(st.lists(st.one_of(st.integers(-1, 4), st.booleans()), min_size=2, max_size=2),
                 st.lists(st.integers(0, 3), max_size=3), st.integers())
term = st.one_of(st.tuples(coefs, st.lists(pair, max_size=3)).map(list),
                 st.lists(st.integers(0, 2), max_size=3), st.integers())
json_polys = st.one_of(st.lists(term, max_size=4), st.integers(), st.none())


def former_read_poly(x, where, nvars, rational_coefficients):
    """The general polynomial reader as it was before its fast path became the reference one."""
    if not isinstance(x, list) or not x:
        raise Reject(f"{where}: a polynomial is a non-empty list of terms")
    out = {}
    prev = None
    for t_i, t in enumerate(x):
        w = f"{where}, term {t_i}"
        if not isinstance(t, list) or len(t) != 2 or not isinstance(t[1], list):
            raise Reject(f"{w}: a term is [coefficient, [[variable, exponent], ...]]")
        c = (S.rational(t[0], f"{w}, coefficient") if rational_coefficients
             else S.integer(t[0], f"{w}, coefficient"))
        if c == 0:
            raise Reject(f"{w}: zero coefficient")
        pairs: list = []
        for pr in t[1]:
            if not isinstance(pr, list) or len(pr) != 2:
                raise Reject(f"{w}: a monomial is a list of [variable, exponent] pairs")
            v = S.integer(pr[0], f"{w}, variable", 0)
            e = S.integer(pr[1], f"{w}, exponent")
            if v >= nvars:
                raise Reject(f"{w}: variable {v} does not exist (the lattice has {nvars})")
            if e == 0 or (pairs and v <= pairs[-1][0]):
                raise Reject(f"{w}: pairs must have non-zero exponents and increasing variables")
            pairs.append((v, e))
        if prev is not None and not pairs > prev:
            raise Reject(f"{w}: terms must be strictly increasing by their monomials")
        prev = pairs
        out[tuple(pairs)] = c
    return out


@SETTINGS
@given(json_polys, st.integers(1, 4), st.booleans())
def test_read_poly_is_the_former_reader(x, nvars, rational):
    got = outcome(R.read_poly, x, "p", nvars, rational)
    assert got == outcome(former_read_poly, x, "p", nvars, rational)
    if got[0] == "ok":
        assert [type(c) for c in got[1].values()] == \
            [type(c) for c in former_read_poly(x, "p", nvars, rational).values()]


@SETTINGS
@given(json_polys, st.integers(1, 4))
def test_factor_text_is_the_canonical_text(x, nvars):
    try:
        f = R.read_poly(x, "p", nvars)
    except Reject:
        return
    assert R.poly_text(f) == S.canonical_text(x)


monos = st.lists(st.tuples(st.integers(0, 3), st.integers(-2, 2).filter(bool)), max_size=3,
                 unique_by=lambda t: t[0]).map(lambda m: tuple(sorted(m)))
rats = st.one_of(small.filter(bool), st.fractions(max_denominator=3).filter(bool),
                 st.integers(1, 3).map(Fraction))


def polys(min_size=1, max_size=3):
    return st.dictionaries(monos, rats, min_size=min_size, max_size=max_size)


@SETTINGS
@given(polys(2, 2))
def test_two_term_variables(p):
    lo, hi = P._box(p)
    assert P.variables(p) == {v for v in lo if lo[v] != hi[v]}


@SETTINGS
@given(st.one_of(polys(2, 2), polys(1, 4)))
def test_normal_form_test_is_equality_with_the_normal_form(p):
    assert P.is_normal_form(p) == (P.normal_form(p) == p)


@SETTINGS
@given(polys(2, 2))
def test_two_term_normal_forms_are_found(p):
    # normal forms are rare among random binomials: test the normal form of each too
    nf = P.normal_form(p)
    assert P.is_normal_form(nf)


@SETTINGS
@given(polys(1, 2), polys(2, 3), st.one_of(st.none(), polys(1, 2)), st.sampled_from([1, 1, 2, -1]))
@example(a={(): 1, ((0, 1),): 2}, b={(): 1, ((0, 1),): 1}, q=None, scale=1)
@example(a={(): 1, ((0, 2),): -1}, b={(): 1, ((0, 1),): 1}, q=None, scale=1)
def test_small_division(a, b, q, scale):
    if q is not None:
        a = P.mul(q, b)               # often divisible on purpose
        if not a or len(a) > 2:
            return
        m = next(iter(a))             # and sometimes just not: one coefficient scaled
        a[m] *= scale
    fast = P.divexact(a, b, Budget(None))      # two-term shortcuts first
    general = P._divexact(a, b, Budget(None))
    assert fast == general
    if fast is not None:
        assert P.mul(fast, b) == a


@SETTINGS
@given(monos, monos)
def test_monomial_quotient(a, b):
    assert P.mono_div(a, b) == P.mono_mul(a, P.mono_inv(b))


@SETTINGS
@given(st.lists(st.integers(0, 10 ** 6), max_size=40))
def test_product_in_pairs(xs):
    out = 1
    for x in xs:
        out *= x
    assert product(xs) == out


# -- problems ------------------------------------------------------------------------

def key_for(dim):
    if dim <= PR.SPARSE_KEY_DIM:
        return st.one_of(st.lists(st.one_of(small, st.sampled_from(["1/2", 10 ** 2000])),
                                  min_size=dim, max_size=dim),
                         st.lists(small, max_size=dim + 1))
    idx = st.one_of(st.integers(0, dim + 1).map(str), st.sampled_from(
        ["01", "-1", " 1", "1 ", "1\n", "+1", "١", "1_0", "²", "", "1e1"]))
    return st.dictionaries(idx, st.one_of(small, st.sampled_from(["1/2", 1.0, True])),
                           max_size=3)


def atoms_for(dim):
    base = st.fixed_dictionaries({"key": key_for(dim), "value": st.one_of(
        small, st.sampled_from([[1, 2], [1], "1/3", None, 10 ** 2000]))})
    extra = st.dictionaries(st.sampled_from(["bias", "weight", "other"]),
                            st.sampled_from([0, 1, 2, "1/2", -1]), max_size=2)
    return st.one_of(base, st.builds(lambda a, e: {**a, **e}, base, extra), st.integers())


def former_key(x, dim, where, number):
    """The key reader as it was before the atom's fast path became the reference one."""
    import re
    if isinstance(x, list):
        if len(x) != dim:
            raise Reject(f"{where}: key has dimension {len(x)}, expected {dim}")
        vals = [(j, number(c, f"{where}[{j}]")) for j, c in enumerate(x)]
        return tuple((j, v) for j, v in vals if v)
    if not isinstance(x, dict):
        raise Reject(f"{where}: key must be a list of {dim} numbers or a sparse object such as "
                     f"{{\"0\": 1}}")
    out = []
    for j_s, c in x.items():
        if not isinstance(j_s, str) or not re.match(r"(0|[1-9][0-9]{0,8})\Z", j_s) or int(j_s) >= dim:
            raise Reject(f"{where}: key index {j_s!r} is not a coordinate 0..{dim - 1}")
        v = number(c, f"{where}[{j_s}]")
        if v:
            out.append((int(j_s), v))
    return tuple(sorted(out))


def former_atom(a, dim, value_dim, w, number=S.rational):
    """The general atom reader as it was before its fast path became the reference one."""
    S.fields(a, {"key", "value"}, {"bias", "weight"}, w)
    key = former_key(a["key"], dim, f"{w}, key", number)
    v = a["value"]
    if isinstance(v, list):
        if not v:
            raise Reject(f"{w}: value is an empty list")
        vals = tuple(number(c, f"{w}, value[{i}]") for i, c in enumerate(v))
    else:
        vals = (number(v, f"{w}, value"),)
    if value_dim is not None and len(vals) != value_dim:
        raise Reject(f"{w}: value has {len(vals)} components, expected {value_dim}")
    bias = number(a["bias"], f"{w}, bias") if "bias" in a else 0
    weight = number(a["weight"], f"{w}, weight") if "weight" in a else 1
    if weight <= 0:
        raise Reject(f"{w}: weight must be positive")
    return (key, bias or 0, 1 if weight == 1 else weight, vals)


@SETTINGS
@given(st.data(), st.sampled_from([2, 3, 17, 20]), st.sampled_from([None, 1, 2]),
       st.sampled_from([S.rational, PR.file_number]))
def test_atom_is_the_former_reader(data, dim, value_dim, number):
    atoms = data.draw(st.lists(atoms_for(dim), min_size=1, max_size=3))
    got = outcome(PR.parse_atoms, atoms, dim, value_dim, "w", Budget(None), number)
    want = []
    try:
        for i, a in enumerate(atoms):
            want.append(former_atom(a, dim, value_dim, f"w, atom {i}", number))
            value_dim = len(want[-1][3])
    except Reject as e:
        assert got == ("Reject", str(e))
        return
    assert got == ("ok", (want, value_dim))
    if number is S.rational:
        assert [[type(x) for x in a[:3]] for a in got[1][0]] == [[type(x) for x in a[:3]] for a in want]


def test_no_trailing_newline_in_numbers():
    """A regression: ``$`` matched before a final newline, so "1/3\\n" was a rational."""
    with pytest.raises(Reject):
        S.rational("1/3\n", "v")
    with pytest.raises(Reject):
        S.count("9007199254740993\n", "c")
    with pytest.raises(Reject):
        PR.parse_key({"17\n": 1}, 20, "k")


# -- whole certificates ---------------------------------------------------------------

def test_check_text_leaves_the_collector_as_it_was():
    import gc
    was = gc.isenabled()
    try:
        for on in (True, False):
            (gc.enable if on else gc.disable)()
            check_text('{"format": "attnproof-certificate"}')
            assert gc.isenabled() == on
    finally:
        (gc.enable if was else gc.disable)()


def test_loads_rejects_duplicates_inside_large_documents():
    text = json.dumps({"a": [{"x": i} for i in range(1000)]})
    assert S.loads(text)["a"][999] == {"x": 999}
    with pytest.raises(Reject, match="duplicate JSON key 'x'"):
        S.loads(text[:-3] + ', "x": 2}]}')


@SETTINGS
@given(st.integers(0, 10 ** 9), st.integers(1, 6), st.integers(1, 6),
       st.sampled_from([2, 3, 7, 1000000007, 2 ** 61 - 1, 9223372036854775783]))
def test_packed_rank_is_the_reference_elimination(seed, n, d, p):
    import random
    rng = random.Random(seed)
    rows = [[rng.randint(-3, 3) * rng.choice([1, p, 2 ** 70 + 1]) for _ in range(d)] for _ in range(n)]
    rows += [[x + y for x, y in zip(rows[0], rows[-1])]]
    assert rank_mod(rows, p) == eliminate(rows, Budget(None), p)
