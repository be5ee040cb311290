"""Factor rules: ``irreducible_factor`` (§6.1) and ``reduced_by_flint`` (§6.2) of docs/certificates.md.

THEORY §5: ``irreducible_factor`` proves that an irreducible ``f`` divides the
reduced denominator ``Q`` exactly ``e`` times (C1 witnesses, a residue that ``f``
does not divide); distinct non-associate factors then give ``R = Π f^e | Q``.
``reduced_by_flint`` gives ``R = Q`` directly, trusting FLINT for ``gcd(P, Q) = 1`` (C3).
"""

from __future__ import annotations

from math import gcd

from .. import poly as P
from ..capelli import binomial_valuation, capelli_irreducible
from ..capelli import content as capelli_content
from ..flint_gcd import coprime
from ..limits import MAX_DIGITS, MAX_EXPANSION
from ..linalg import rank
from ..syntax import Budget, Reject, Unsupported, fields, integer, rational
from .fusion import check_identity
from .state import State

# -- polynomial syntax ------------------------------------------------------

_TEN = 10 ** MAX_DIGITS      # integers strictly between -_TEN and _TEN fit (limits.fits_digits)
READ_UNITS = 2       # per term and pair of a polynomial read: its checks, its tuples, its box

def read_poly(x, where: str, nvars: int, rational_coefficients: bool = False) -> dict:
    """A certificate polynomial: ``[[coef, [[var, exp], ...]], ...]``.

    Coefficients are JSON integers (canonical rationals when ``rational_coefficients``).

    Terms are strictly increasing by their pair lists; pairs strictly increasing
    by variable; exponents and coefficients non-zero.

    >>> read_poly([[1, []], [2, [[0, 1]]]], "p", 1)
    {(): 1, ((0, 1),): 2}
    >>> read_poly([[2, [[0, 1]]], [1, []]], "p", 1)
    Traceback (most recent call last):
    ...
    attnproof.checker.syntax.Reject: p, term 1: terms must be strictly increasing by their monomials
    """
    if not isinstance(x, list) or not x:
        raise Reject(f"{where}: a polynomial is a non-empty list of terms")
    out, prev = {}, None
    for t_i, t in enumerate(x):
        if not isinstance(t, list) or len(t) != 2 or not isinstance(t[1], list):
            raise Reject(f"{where}, term {t_i}: a term is [coefficient, [[variable, exponent], ...]]")
        c, prs = t
        if type(c) is not int or not -_TEN < c < _TEN:
            w = f"{where}, term {t_i}, coefficient"
            c = rational(c, w) if rational_coefficients else integer(c, w)
        if c == 0:
            raise Reject(f"{where}, term {t_i}: zero coefficient")
        pairs, last = [], -1
        for pr in prs:
            if not isinstance(pr, list) or len(pr) != 2:
                raise Reject(f"{where}, term {t_i}: a monomial is a list of [variable, exponent] pairs")
            v, e = pr
            if type(v) is not int or type(e) is not int or not last < v < nvars or not e or not -_TEN < e < _TEN:
                _bad_pair(v, e, last, nvars, f"{where}, term {t_i}")
            last = v
            pairs.append((v, e))
        if prev is not None and not pairs > prev:
            raise Reject(f"{where}, term {t_i}: terms must be strictly increasing by their monomials")
        prev = pairs
        out[tuple(pairs)] = c
    return out


def _bad_pair(v, e, last: int, nvars: int, w: str):
    # the message for a pair [v, e] that read_poly refuses
    integer(v, f"{w}, variable", 0)
    integer(e, f"{w}, exponent")
    if v >= nvars:
        raise Reject(f"{w}: variable {v} does not exist (the lattice has {nvars})")
    raise Reject(f"{w}: pairs must have non-zero exponents and increasing variables")


def poly_text(f: dict) -> str:
    """The canonical JSON text of a polynomial read by :func:`read_poly` with integer
    coefficients (equal to ``canonical_text`` of the JSON it was read from).

    >>> poly_text({(): 1, ((0, 1), (3, -2)): 5})
    '[[1,[]],[5,[[0,1],[3,-2]]]]\\n'
    """
    return "[" + ",".join([f"[{c},[" + ",".join([f"[{v},{e}]" for v, e in m]) + "]]"
                           for m, c in f.items()]) + "]\n"



# -- irreducibility witnesses (THEORY §5, C1) ------------------------------

def _irreducible(f: dict, wit, where: str, budget: Budget) -> None:
    """Check an irreducibility witness: ``linear`` (in the variable it names),
    ``binomial`` (2 terms, primitive difference), ``capelli`` (2 terms, content at
    least 2) or ``simplex`` (3 or more).  Any witness that holds is accepted."""
    kind = wit.get("kind") if isinstance(wit, dict) else None
    if kind not in ("linear", "binomial", "simplex", "capelli"):
        raise Reject(f"{where}: unknown irreducibility witness {kind!r}")
    fields(wit, {"kind", "var"} if kind == "linear" else {"kind"}, set(), where)
    if kind == "linear":
        # f = a + b·x_i, a and b free of x_i, one of them a single term (a unit of
        # the Laurent ring).  Degrees in x_i add under products, so a factorization
        # has a factor free of x_i dividing a and b, hence a unit.
        v = integer(wit["var"], f"{where}: var", 0)
        es = [dict(m).get(v, 0) for m in f]       # normal form: exponents >= 0, least 0
        n1 = es.count(1)
        if n1 + es.count(0) != len(f) or min(n1, len(f) - n1) != 1:
            raise Reject(f"{where}: not linear in variable {v} with a single-term coefficient")
    elif kind in ("binomial", "simplex"):
        # binomial: 1 + c·X^g with g primitive is linear after a unimodular change of
        # variables.  simplex (Gao 2001): an affinely independent support whose edge
        # vectors have coordinate gcd 1 spans an integrally indecomposable polytope,
        # so f is absolutely irreducible.
        pts = sorted(f, key=P.lex_key)
        if kind == "binomial" and len(pts) != 2:
            raise Reject(f"{where}: a binomial has exactly 2 terms, this one has {len(pts)}")
        if kind == "simplex" and len(pts) < 3:
            raise Reject(f"{where}: a simplex witness needs at least 3 terms (use 'binomial')")
        diffs = [P.mono_div(p, pts[0]) for p in pts[1:]]
        g = gcd(*[x for row in diffs for _, x in row])
        if g != 1:
            raise Reject(f"{where}: the edge vectors of the support have gcd {g}, not 1")
        if rank([dict(r) for r in diffs], budget) != len(diffs):
            raise Reject(f"{where}: the support is not affinely independent")
    else:       # capelli: a binomial whose exponent difference has content k >= 2 (..capelli)
        if len(f) != 2:
            raise Reject(f"{where}: a Capelli witness is for binomials, this has {len(f)} terms")
        budget.charge(sum(abs(c).bit_length() for c in f.values()), "Capelli's test")
        if capelli_content(f) == 1:
            raise Reject(f"{where}: the exponent difference is primitive: use 'binomial'")
        if not capelli_irreducible(f):
            raise Reject(f"{where}: reducible by Capelli's theorem (a p-th power for a prime "
                         "p dividing the exponent, or -4b^4)")



# -- the rules ---------------------------------------------------------------

def _listed_heads(x, nheads: int, where: str) -> list:
    """The ``heads`` hint ``[[h, a_h], ...]``: heads strictly increasing, ``a_h >= 1``."""
    if not isinstance(x, list) or not x or not all(isinstance(p, list) and len(p) == 2 for p in x):
        raise Reject(f"{where}: heads must be a non-empty list of [head, exponent] pairs")
    out = [(integer(h, f"{where}: head", 0), integer(a, f"{where}: exponent", 1)) for h, a in x]
    if out[-1][0] >= nheads or any(g >= h for (g, _), (h, _) in zip(out, out[1:])):
        raise Reject(f"{where}: heads must be strictly increasing, below {nheads}")
    return out


def _divides(f: dict, D: dict, bud: Budget) -> bool:
    """``f | D`` (``D != 0``): the closed form for two binomials, else one exact division."""
    return bool(bv) if (bv := binomial_valuation(f, D)) is not None else P.divexact(D, f, bud) is not None


def rule_irreducible_factor(st: State, step: dict, where: str) -> None:
    """An irreducible factor ``f`` of the reduced denominator, with multiplicity.

    The hint ``heads`` gives every ``a_h = v_f(D_h) >= 1``, verified here (no search);
    ``e = max a_h`` and ``C_h = D_h / f^e`` for the heads with ``a_h = e``.  In the local
    ring at ``f``, ``M = X / (f^e · Π C_h) + (terms of pole order < e)`` with
    ``X_c = Σ_{top h} N_{h,c} Π_{top g≠h} C_g``, so ``f^e`` divides ``Q`` exactly iff
    ``f ∤ X_c`` for ``c = residue_component``.  :func:`finish_factors` checks the rest.
    """
    fields(step, {"rule", "poly", "witness", "heads", "residue_component"}, set(), where)
    if st.flint_used:
        raise Reject(f"{where}: irreducible_factor cannot follow reduced_by_flint")
    pb, bud = st.pb, st.budget
    f = read_poly(step["poly"], f"{where}: poly", pb.dim + (1 if pb.has_z else 0))
    bud.charge(READ_UNITS * P.size(f), "reading a factor")
    if len(f) < 2:
        raise Reject(f"{where}: a single term is a unit, not a factor")
    if not P.is_normal_form(f):
        raise Reject(f"{where}: the factor is not in normal form (no monomial factor, "
                     "coprime integer coefficients, positive lex-leading coefficient)")
    text = poly_text(f)
    if st.factor_text is not None and not text > st.factor_text:
        raise Reject(f"{where}: factors must be strictly increasing by their canonical JSON text")
    _irreducible(f, step["witness"], f"{where}: witness", bud)
    listed = _listed_heads(step["heads"], len(pb.den), f"{where}: heads")
    bud.charge(len(listed), "reading the heads")
    vals = {}
    for h, a in listed:
        D, C = pb.den[h], None            # C = D_h / f^a, built here or only when needed below
        if len(D) == len(f) and (D == f or P.normal_form(D, bud) == f):
            st.covered.add(h)             # an associate of the irreducible f: no other factor
            got: int | None = 1
        elif (got := binomial_valuation(f, D)) is not None:     # closed form, squarefree
            bud.charge(P.size(f) + P.size(D), "a binomial valuation")
        else:
            got, C = 0, D
            while got <= a and (q := P.divexact(C, f, bud)) is not None:
                got, C = got + 1, q
        if got != a:
            claim = a if a < 10 ** 12 else f"the {len(str(a))}-digit exponent of the hint"
            raise Reject(f"{where}: head {h}: the factor divides its denominator "
                         f"{got if got < a else 'more than ' + str(claim)} times, not {claim}")
        vals[h] = (a, C)
    st.listed.append((st.step_index, f, {h for h, _ in listed}))
    e = max(a for a, _ in vals.values())
    top = [h for h, (a, _) in vals.items() if a == e]
    for h in [h for h in top if vals[h][1] is None and len(top) > 1]:
        if (C := P.divexact(pb.den[h], f, bud)) is None:     # the closed form and the division disagree: a bug
            raise Unsupported(f"{where}: a binomial valuation could not be confirmed")
        vals[h] = (e, C)
    if (c := integer(step["residue_component"], f"{where}: residue_component", 0)) >= pb.value_dim:
        raise Reject(f"{where}: residue_component {c} out of range")
    # X_c = Σ_h N_{h,c}·Π_{g≠h} C_g, each product from a prefix and a suffix product of the
    # C_g: every polynomial built has at most max_h |N_h|·Π_g |C_g| terms, bounded first
    Cs = [vals[h][1] or {(): 1} for h in top]
    size = max((len(pb.num[h][c]) for h in top), default=1)
    for C in Cs:                    # capped: many heads never build a long integer
        size = min(size * len(C), MAX_EXPANSION + 1)
    if size > MAX_EXPANSION:
        raise Unsupported(f"{where}: the residue of {len(top)} heads would expand to more than {MAX_EXPANSION} terms")
    if len(top) == 1:
        X = pb.num[top[0]][c]          # read only below
    else:
        pre, suf = [{(): 1}], [{(): 1}]
        for C, D in zip(Cs[:-1], reversed(Cs[1:])):
            pre.append(P.mul(pre[-1], C, bud))
            suf.append(P.mul(suf[-1], D, bud))
        suf.reverse()
        X = {}
        for i, h in enumerate(top):
            P.add_into(X, P.mul(P.mul(pb.num[h][c], pre[i], bud), suf[i], bud))
    if not X or _divides(f, X, bud):
        raise Reject(f"{where}: the factor divides the residue numerator of component "
                     f"{c}: it does not survive in the reduced denominator")
    st.factors.append((f, e))
    st.factor_text = text


def finish_factors(st: State) -> None:
    """After the last factor step: no bound factor divides a head its ``heads`` leave out.

    A head whose denominator is an associate of a bound factor has no other irreducible
    factor; every other head a factor may divide (``State.divisor_candidates``) is tested.
    """
    listed, st.listed = st.listed, []
    if all(h in st.covered or len(D) < 2 for h, D in enumerate(st.pb.den)):
        st.budget.charge(len(st.pb.den), "covered heads")
        return
    for i, f, hs in listed:
        for h in st.divisor_candidates(f):
            if h not in hs and h not in st.covered and _divides(f, st.pb.den[h], st.budget):
                raise Reject(f"step {i} (irreducible_factor): heads: the factor divides the "
                             f"denominator of head {h}, which is not listed")


def rule_reduced_by_flint(st: State, step: dict, where: str) -> None:
    """C3: ``P/Q`` equals the sum (verified) and ``gcd(P, Q) = 1``, recomputed by FLINT
    now (python-flint must be importable; otherwise the step is inconclusive)."""
    fields(step, {"rule", "numerator", "denominator"}, set(), where)
    if st.factors:
        raise Reject(f"{where}: reduced_by_flint cannot be combined with other factors")
    nv = st.pb.dim + (1 if st.pb.has_z else 0)
    Qd = read_poly(step["denominator"], f"{where}: denominator", nv)
    st.budget.charge(READ_UNITS * P.size(Qd), "reading a polynomial")
    if len(Qd) < 2 or not P.is_normal_form(Qd):
        raise Reject(f"{where}: the denominator must be a non-monomial polynomial in normal form")
    if not isinstance(nums := step["numerator"], list) or len(nums) != st.pb.value_dim:
        raise Reject(f"{where}: numerator must list {st.pb.value_dim} polynomials (use [] for 0)")
    Pn = [read_poly(p, f"{where}: numerator {c}", nv, True) if p != [] else {}
          for c, p in enumerate(nums)]
    st.budget.charge(READ_UNITS * sum(P.size(p) for p in Pn), "reading a polynomial")
    check_identity(st, Pn, Qd, where)
    try:
        if not coprime(Pn, Qd, st.budget):
            raise Reject(f"{where}: P/Q is not in lowest terms (FLINT finds a non-unit common factor)")
    except Unsupported as e:
        raise Unsupported(f"{where}: {e}") from None
    st.factors.append((Qd, 1))
    st.flint_used = True
    st.weaken("exact-modulo-flint")



# rule name -> (function, phase)
RULES = {
    "irreducible_factor": (rule_irreducible_factor, 0),    # finish_factors runs after the last
    "reduced_by_flint": (rule_reduced_by_flint, 0),
}
