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
from ..limits import MAX_EXPANSION
from ..linalg import rank
from ..switch import FAST
from ..syntax import Budget, Reject, Unsupported, fields, integer, rational
from .fusion import check_identity
from .state import State

# -- polynomial syntax ------------------------------------------------------

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
    fast = FAST.read_poly
    if fast is not None:
        out = fast(x, nvars)
        if out is not None:
            return out
    return _read_poly_general(x, where, nvars, rational_coefficients)


def _read_poly_general(x, where: str, nvars: int, rational_coefficients: bool) -> dict:
    # every polynomial, and the message of every broken one
    if not isinstance(x, list) or not x:
        raise Reject(f"{where}: a polynomial is a non-empty list of terms")
    out = {}
    prev = None
    for t_i, t in enumerate(x):
        w = f"{where}, term {t_i}"
        if not isinstance(t, list) or len(t) != 2 or not isinstance(t[1], list):
            raise Reject(f"{w}: a term is [coefficient, [[variable, exponent], ...]]")
        c = (rational(t[0], f"{w}, coefficient") if rational_coefficients
             else integer(t[0], f"{w}, coefficient"))
        if c == 0:
            raise Reject(f"{w}: zero coefficient")
        pairs: list = []
        for pr in t[1]:
            if not isinstance(pr, list) or len(pr) != 2:
                raise Reject(f"{w}: a monomial is a list of [variable, exponent] pairs")
            v = integer(pr[0], f"{w}, variable", 0)
            e = integer(pr[1], f"{w}, exponent")
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




def poly_text(f: dict) -> str:
    """The canonical JSON text of a polynomial read by :func:`read_poly` with integer
    coefficients (equal to ``canonical_text`` of the JSON it was read from).

    >>> poly_text({(): 1, ((0, 1), (3, -2)): 5})
    '[[1,[]],[5,[[0,1],[3,-2]]]]\\n'
    """
    return "[" + ",".join([f"[{c},[" + ",".join([f"[{v},{e}]" for v, e in m]) + "]]"
                           for m, c in f.items()]) + "]\n"



# -- irreducibility witnesses (THEORY §5, C1) ------------------------------

def _linear_var(f: dict):
    """Smallest variable in which ``f`` (normal form: exponents >= 0, minimum 0) is
    linear with a single-term coefficient, or None.

    >>> _linear_var({((3, 1),): 1, ((5, 1),): 1, (): 1})      # x3 + x5 + 1: linear in x3
    3
    """
    n = len(f)
    ones: dict = {}
    other: set = set()
    for m in f:
        for v, e in m:
            if e == 1:
                ones[v] = ones.get(v, 0) + 1
            else:
                other.add(v)
    for v in sorted(ones):
        if v not in other and ones[v] < n and (ones[v] == 1 or n - ones[v] == 1):
            return v
    return None


def _irreducible(f: dict, wit, where: str, budget: Budget) -> None:
    """Check an irreducibility witness.  Witnesses are canonical: ``linear`` with
    the smallest possible variable when one exists, else ``binomial`` (2 terms, primitive
    difference), ``capelli`` (2 terms, content at least 2), else ``simplex`` (3 or more)."""
    kind = wit.get("kind") if isinstance(wit, dict) else None
    lin = _linear_var(f)
    if kind == "linear":
        # f = a + b·x_i, a and b free of x_i, one of them a single term (a unit of
        # the Laurent ring).  Degrees in x_i add under products, so a factorization
        # has a factor free of x_i dividing a and b, hence a unit.
        fields(wit, {"kind", "var"}, set(), where)
        v = integer(wit["var"], f"{where}: var", 0)
        if v == lin:
            return                # lin varies in f (exponent 1 in some terms, 0 in others)
        if v not in P.variables(f):
            raise Reject(f"{where}: the polynomial does not involve variable {v}")
        if lin is None:
            raise Reject(f"{where}: not linear with a single-term coefficient in any variable")
        if v != lin:
            raise Reject(f"{where}: the canonical linear witness is variable {lin}, not {v}")
        return
    if kind in ("binomial", "simplex"):
        # binomial: 1 + c·X^g with g primitive is linear after a unimodular change of
        # variables.  simplex (Gao 2001): an affinely independent support whose edge
        # vectors have coordinate gcd 1 spans an integrally indecomposable polytope,
        # so f is absolutely irreducible.
        fields(wit, {"kind"}, set(), where)
        if lin is not None:
            raise Reject(f"{where}: the canonical witness is 'linear' (variable {lin})")
        pts = sorted(f, key=P.lex_key)
        if kind == "binomial" and len(pts) != 2:
            raise Reject(f"{where}: a binomial has exactly 2 terms, this one has {len(pts)}")
        if kind == "simplex" and len(pts) < 3:
            raise Reject(f"{where}: a simplex witness needs at least 3 terms (use 'binomial')")
        inv0 = P.mono_inv(pts[0])
        diffs = [P.mono_mul(p, inv0) for p in pts[1:]]
        g = 0
        for row in diffs:
            for _, x in row:
                g = gcd(g, x)
        if g != 1:
            raise Reject(f"{where}: the edge vectors of the support have gcd {g}, not 1")
        if rank([dict(r) for r in diffs], budget) != len(diffs):
            raise Reject(f"{where}: the support is not affinely independent")
        return
    if kind == "capelli":
        # a binomial whose exponent difference has content k >= 2 (..capelli)
        fields(wit, {"kind"}, set(), where)
        if lin is not None:
            raise Reject(f"{where}: the canonical witness is 'linear' (variable {lin})")
        if len(f) != 2:
            raise Reject(f"{where}: a Capelli witness is for binomials, this has {len(f)} terms")
        budget.charge(sum(abs(c).bit_length() for c in f.values()), "Capelli's test")
        if capelli_content(f) == 1:
            raise Reject(f"{where}: the exponent difference is primitive: use 'binomial'")
        if not capelli_irreducible(f):
            raise Reject(f"{where}: reducible by Capelli's theorem (a p-th power for a prime "
                         "p dividing the exponent, or -4b^4)")
        return
    raise Reject(f"{where}: unknown irreducibility witness {kind!r}")



# -- the rules ---------------------------------------------------------------

def rule_irreducible_factor(st: State, step: dict, where: str) -> None:
    """An irreducible factor ``f`` of the reduced denominator, with multiplicity.

    The checker computes ``a_h = v_f(D_h)`` for every head by exact division,
    ``e = max a_h`` and ``C_h = D_h / f^e`` for the heads with ``a_h = e``.  In
    the local ring at ``f``, ``M = X / (f^e · Π C_h) + (terms of pole order < e)``
    with ``X_c = Σ_{top h} N_{h,c} Π_{top g≠h} C_g``; so ``f^e`` divides ``Q``
    exactly iff ``f ∤ X``.  ``residue_component`` names the smallest ``c``
    with ``f ∤ X_c``.
    """
    fields(step, {"rule", "poly", "witness", "residue_component"}, set(), where)
    if st.flint_used:
        raise Reject(f"{where}: irreducible_factor cannot follow reduced_by_flint")
    pb = st.pb
    bud = st.budget
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
    vals = {}
    for h in st.divisor_candidates(f):
        a = binomial_valuation(f, pb.den[h])          # closed form, any exponent size
        if a is None:
            a, C = P.valuation(f, pb.den[h], bud)
        else:
            bud.charge(P.size(f) + P.size(pb.den[h]), "a binomial valuation")
            C = None                                  # D_h / f, built only when needed below
        if a:
            vals[h] = (a, C)
    if not vals:
        raise Reject(f"{where}: the factor divides no head denominator")
    e = max(a for a, _ in vals.values())
    top = sorted(h for h, (a, _) in vals.items() if a == e)
    if len(top) > 1:
        for h in top:
            if vals[h][1] is None:
                C = P.divexact(pb.den[h], f, bud)
                if C is None:          # the closed form and the division disagree: a bug
                    raise Unsupported(f"{where}: a binomial valuation could not be confirmed")
                vals[h] = (e, C)
    comp = integer(step["residue_component"], f"{where}: residue_component", 0)
    if comp >= pb.value_dim:
        raise Reject(f"{where}: residue_component {comp} out of range")
    # X_c = Σ_h N_{h,c}·Π_{g≠h} C_g, each product from a prefix and a suffix product of the
    # C_g: every polynomial built has at most max_h |N_h|·Π_g |C_g| terms, bounded first
    Cs = [vals[h][1] or {(): 1} for h in top]
    size = max((len(n) for h in top for n in pb.num[h]), default=1)
    for C in Cs:
        size *= len(C)
        if size > MAX_EXPANSION:
            raise Unsupported(f"{where}: the residue of {len(top)} heads would expand to more "
                              f"than {MAX_EXPANSION} terms")
    pre: list = [{(): 1}]
    suf: list = [{(): 1}]
    if len(top) > 1:
        for C in Cs[:-1]:
            pre.append(P.mul(pre[-1], C, bud))
        for C in reversed(Cs[1:]):
            suf.append(P.mul(suf[-1], C, bud))
        suf.reverse()
    for c in range(comp + 1):
        X: dict = {}
        if len(top) == 1:
            X = pb.num[top[0]][c]          # read only below
        else:
            for i, h in enumerate(top):
                P.add_into(X, P.mul(P.mul(pb.num[h][c], pre[i], bud), suf[i], bud))
        bv = binomial_valuation(f, X) if X and len(f) == 2 == len(X) else None
        divides = (not X) or (bool(bv) if bv is not None else P.divexact(X, f, bud) is not None)
        if c < comp and not divides:
            raise Reject(f"{where}: residue_component must be the smallest component "
                         f"not divisible by the factor ({c} already is not)")
        if c == comp and divides:
            raise Reject(f"{where}: the factor divides the residue numerator of component "
                         f"{c}: it does not survive in the reduced denominator")
    st.factors.append((f, e))
    st.factor_text = text


def rule_reduced_by_flint(st: State, step: dict, where: str) -> None:
    """C3: ``P/Q`` equals the sum (verified) and ``gcd(P, Q) = 1``, recomputed by FLINT
    now (python-flint must be importable; otherwise the step is inconclusive)."""
    fields(step, {"rule", "numerator", "denominator"}, set(), where)
    if st.factors:
        raise Reject(f"{where}: reduced_by_flint cannot be combined with other factors")
    pb = st.pb
    nv = pb.dim + (1 if pb.has_z else 0)
    Qd = read_poly(step["denominator"], f"{where}: denominator", nv)
    st.budget.charge(READ_UNITS * P.size(Qd), "reading a polynomial")
    if len(Qd) < 2 or not P.is_normal_form(Qd):
        raise Reject(f"{where}: the denominator must be a non-monomial polynomial in normal form")
    nums = step["numerator"]
    if not isinstance(nums, list) or len(nums) != pb.value_dim:
        raise Reject(f"{where}: numerator must list {pb.value_dim} polynomials (use [] for 0)")
    Pn = [read_poly(p, f"{where}: numerator {c}", nv, True) if p != [] else {}
          for c, p in enumerate(nums)]
    st.budget.charge(READ_UNITS * sum(P.size(p) for p in Pn), "reading a polynomial")
    check_identity(st, Pn, Qd, where)
    try:
        ok = coprime(Pn, Qd, st.budget)
    except Unsupported as e:
        raise Unsupported(f"{where}: {e}") from None
    if not ok:
        raise Reject(f"{where}: P/Q is not in lowest terms (FLINT finds a non-unit common factor)")
    st.factors.append((Qd, 1))
    st.flint_used = True
    st.weaken("exact-modulo-flint")



# rule name -> (function, phase)
RULES = {
    "irreducible_factor": (rule_irreducible_factor, 0),
    "reduced_by_flint": (rule_reduced_by_flint, 0),
}
