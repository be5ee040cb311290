"""The words attnproof's output prints, each explained once: ``attnproof help TERM`` and
``docs/glossary.md`` (written from :data:`TERMS` by ``python docs/gen_cli.py``).

>>> lookup("Path C1").name, lookup("zonotope-independent").name
('path c1', 'zonotope_independent')
>>> lookup("no such word") is None
True
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    name: str
    meaning: str
    see: str = ""                     # a page of docs/ (and a section) that says more
    aliases: tuple[str, ...] = ()


TERMS: tuple[Term, ...] = (
    Term("atom", "One key-value entry of a softmax head: the head computes "
         "sum_i v_i e^(<k_i, q> + b_i) / sum_i e^(<k_i, q> + b_i).  Atoms with the same key "
         "(and bias) count once: an atom count is a count of distinct keys.", "theory.md",
         ("atoms",)),
    Term("head-atom terms", "The atoms of all the heads of a problem, added up: the size of "
         "the multi-head before fusion (2d for d sigmoid heads).", "theory.md",
         ("head-atom",)),
    Term("fusion", "One softmax head that computes exactly the sum of the given heads, for "
         "every query.  Its denominator is a multiple Q*G of the reduced denominator Q "
         "(THEORY Theorem 2), and its atoms are the monomials of that multiple.",
         "theory.md#3-which-heads-are-fusions", ("fused",)),
    Term("P/Q", "The sum of the heads written as one fraction in lowest terms, in the variables "
         "x_j = e^(q_j): Q is the reduced denominator, whose Newton polytope bounds every "
         "fusion from below.", "theory.md#2-heads-are-rational-functions-of-exponentials",
         ("reduced form", "reduced denominator", "q")),
    Term("support points", "The exponent vectors of the monomials of a polynomial (its "
         "support): for Q, the keys of the reduced fusion.", "theory.md",
         ("support", "supp")),
    Term("reduced", "Fusion method: the fused head's denominator is Q itself (possible when Q "
         "has positive coefficients and supp P lies in supp Q).", "theory.md#3-which-heads-are-fusions",
         ("reduced fusion",)),
    Term("lcm", "Fusion method: the denominator is the least common multiple of the head "
         "denominators, used when Q itself is no valid head.", "theory.md#3-which-heads-are-fusions",
         ("lcm fusion",)),
    Term("product", "Fusion method: the denominator is the product of the head denominators "
         "(every combination of one atom per head), always a valid head; counted without "
         "being built when it is large.", "theory.md#3-which-heads-are-fusions",
         ("product fusion",)),
    Term("merged-product", "Fusion method: a product fusion in which heads with the same "
         "denominator up to a constant (associate heads) are first merged into one, so that "
         "their atoms are not multiplied together.", "theory.md#3-which-heads-are-fusions",
         ("merged-product fusion", "merged product")),
    Term("Newton polytope", "The convex hull of a polynomial's support points.  Every vertex "
         "of Newt(Q) is a support point of every multiple Q*G, so every fusion needs at least "
         "as many atoms as Newt(Q) has vertices (THEORY Theorem 3).", "theory.md#4-lower-bounds",
         ("newt", "newt(q)", "newton bound", "newton")),
    Term("trust", "How much a bound or a certificate rests on: the weakest level any of its "
         "steps needs, in the order exact, exact-modulo-flint, window-refuted, line-refuted, "
         "numeric, unknown.", "faq.md#what-do-the-trust-levels-mean", ("trust level",)),
    Term("exact", "Trust level: every step is re-derived by the small standard-library "
         "checker with rational arithmetic; nothing else is trusted.",
         "faq.md#what-do-the-trust-levels-mean", ("trust exact",)),
    Term("exact-modulo-flint", "Trust level: as exact, except that a step (typically 'P/Q is "
         "in lowest terms', path c3) was recomputed with FLINT's polynomial gcd rather than "
         "verified from a witness; --strict calls such a certificate inconclusive.",
         "faq.md#what-do-the-trust-levels-mean", ("trust exact-modulo-flint", "flint")),
    Term("window-refuted", "Trust level: z3 and cvc5 both answered unsat to 'no fusion with at "
         "most k atoms whose multiplier G has its exponents in the window'.  This is about the "
         "window only, not a lower bound.", "faq.md#what-does-a-window-refutation-prove",
         ("trust window-refuted", "window refutation", "window")),
    Term("line-refuted", "Trust level: a lower bound 'every fusion has more than k atoms' from a "
         "line query, answered unsat by z3 and cvc5.  The exact checker calls such a "
         "certificate inconclusive; 'attnproof check --replay' solves the query again and only "
         "then is it valid.", "lines.md", ("trust line-refuted", "line refutation")),
    Term("line query", "An SMT query without a window (THEORY §12): can any set of at most k "
         "lattice points carry the denominator of a fusion, given the binomial factors "
         "1 + c*x^g of Q?  unsat proves that every fusion has at least k + 1 atoms.",
         "lines.md", ("line queries", "lines")),
    Term("numeric", "Trust level: agreement with ball-arithmetic evaluations at sample "
         "queries.  Evidence, not proof.", "faq.md#what-do-the-trust-levels-mean"),
    Term("path", "How the lower bound certified that P/Q is in lowest terms and counted the "
         "vertices of Newt(Q): path c1, path c3 or path geometry.",
         "theory.md#5-certifying-that-pq-is-in-lowest-terms"),
    Term("path c1", "Factor witnesses: Q is split into factors, each shown irreducible and "
         "shown not to divide P by an exact point where it vanishes and P does not; the "
         "vertices are counted block by block.  Trust exact.",
         "theory.md#5-certifying-that-pq-is-in-lowest-terms", ("c1",)),
    Term("path c3", "FLINT's gcd: gcd(P, Q) = 1 recomputed with FLINT (trust "
         "exact-modulo-flint), used when no factor witness is found.",
         "theory.md#5-certifying-that-pq-is-in-lowest-terms", ("c3",)),
    Term("path geometry", "Keys with long digit strings or many dimensions: Q is never "
         "expanded; the head denominators are certified irreducible (or indecomposable and "
         "pairwise non-homothetic) and the vertices of their Minkowski sum are counted.",
         "theory.md#computing-vertices-without-listing-them", ("geometry",)),
    Term("blocks", "The lower bound is a product over blocks: groups of factors of Q in "
         "disjoint variables, each counted by one method (zonotope_independent, "
         "zonotope_graphic, zonotope_general_position, simplex, vertices, planar).",
         "certificates.md#63-newton_blocks-theory-4-theorem-3-lemmas-5-7", ("block",)),
    Term("zonotope_independent", "Block kind: every factor is a binomial, and their directions "
         "are linearly independent, so Newt is a cube-like zonotope with 2^(number of "
         "directions) vertices (6 sigmoid heads: 2^6 = 64).",
         "certificates.md#63-newton_blocks-theory-4-theorem-3-lemmas-5-7"),
    Term("zonotope_graphic", "Block kind: binomial factors x_a + x_b, the edges of a graph; "
         "the vertices are its acyclic orientations (a triangle: 6), counted exactly.",
         "certificates.md#63-newton_blocks-theory-4-theorem-3-lemmas-5-7"),
    Term("zonotope_general_position", "Block kind: binomial factors whose directions are in "
         "general position (every r of them independent); the vertex count has a closed "
         "formula.", "certificates.md#63-newton_blocks-theory-4-theorem-3-lemmas-5-7"),
    Term("simplex", "Block kind: one factor whose support points are the vertices of a "
         "simplex; each is a vertex.", "certificates.md#63-newton_blocks-theory-4-theorem-3-lemmas-5-7"),
    Term("vertices", "Block kind: an explicit list of vertices, each with a functional that "
         "selects it; a lower bound even when the list is incomplete.",
         "certificates.md#63-newton_blocks-theory-4-theorem-3-lemmas-5-7"),
    Term("planar", "Block kind: at most two variables; the vertices of a polygon are counted "
         "from the edge directions of its summands.",
         "certificates.md#63-newton_blocks-theory-4-theorem-3-lemmas-5-7"),
    Term("indecomposable", "A polytope that is no Minkowski sum of two smaller ones (other "
         "than by scaling), so a polynomial with that Newton polytope has no factorization "
         "(Ostrowski).", "theory.md#computing-vertices-without-listing-them",
         ("absolutely irreducible",)),
    Term("non-homothetic", "Two polytopes that are not translates of a scaled copy of each "
         "other.  Head denominators that are indecomposable and pairwise non-homothetic "
         "are distinct irreducible factors of Q (THEORY Cor 9.3').",
         "theory.md#computing-vertices-without-listing-them",
         ("pairwise non-homothetic", "homothetic")),
    Term("associate", "Two head denominators equal up to a constant factor: they contribute "
         "one factor to Q, not two ('=' joins them in 'attnproof show').", "theory.md",
         ("associates", "associate heads")),
    Term("sat", "SMT answer: a candidate exists (for a window search, a fusion with at most k "
         "atoms, verified exactly before it is reported).", "search.md"),
    Term("unsat", "SMT answer, from both z3 and cvc5: no candidate exists (in the window, or "
         "for a line query at all).", "search.md"),
    Term("unknown", "SMT answer: a timeout, a solver failure or a disagreement; never a "
         "refutation.  Also the trust level of a bound that nothing certifies.", "search.md"),
    Term("inconclusive", "Checker verdict, exit 2: the checker could not decide (a step beyond "
         "its limits, FLINT missing, SMT refutations not replayed, or --strict and trust not "
         "exact).  It never means 'probably valid'.", "certificates.md#1-verdicts"),
    Term("not a certificate", "Exit 3: the file is missing, a folder, not UTF-8, empty, "
         "truncated or not JSON (a broken download), never the exit 1 of a forged "
         "certificate.", "certificates.md#1-verdicts"),
    Term("gap", "The lower and the upper bound differ: the minimum atom count lies between "
         "them and is unknown.", "faq.md"),
    Term("lineality", "The directions q -> q + t*v that leave every head unchanged (graph sums: "
         "adding the same t to every q_j); the search fixes them, which loses no fusion.",
         "search.md"),
    # the merge report's words (attnproof merge-report, report.md, docs/models.md)
    Term("kept separately", "What keeping heads as they are costs: the sum of their atoms, "
         "n_h + n_g for a pair.  The merge report compares every merged head with it.",
         "models.md#the-merge-report", ("keep separate", "separate", "keep every head",
                                        "separately")),
    Term("merged head", "One exact softmax head equal to the sum of a group of heads at the "
         "captured query position (a fusion of the group); 'merge exactly into m atoms' "
         "means its proven minimum is m.", "models.md#the-merge-report",
         ("merge exactly into", "merge into at most", "merge", "merged")),
    Term("merging", "The merge report's verdict on one merged head against its heads kept "
         "separately: saves, costs × more, equal or undecided (the 'merging' column, the "
         "'merge' field of the JSON).", "models.md#the-merge-report",
         ("merge verdict",)),
    Term("saves", "Merge verdict: the merged head needs fewer atoms than the heads kept "
         "separately; 'saves k' is the difference, 'saves a to b' a range while the minimum "
         "is bracketed.", "models.md#the-merge-report", ("saving", "saves k", "saves atoms")),
    Term("costs × more", "Merge verdict: the merged head needs more atoms than the heads "
         "kept separately, the factor being minimum / (n_h + n_g) (two generic heads of n "
         "atoms: n·n / 2n = n/2).  'costs at least k× more' when only the lower bound is "
         "known.", "models.md#the-merge-report",
         ("costs", "costs more", "costs k× more", "costs x more")),
    Term("equal", "Merge verdict: the merged head needs exactly as many atoms as the heads "
         "kept separately; merging changes nothing.", "models.md#the-merge-report",
         ("no saving",)),
    Term("undecided", "Merge verdict: the proven bounds of the merged head lie on both sides "
         "of the heads kept separately (or are unknown), so whether merging saves atoms is "
         "open.", "models.md#the-merge-report", ("unknown merge",)),
    Term("merge plan", "A partition of a layer's heads into groups, each merged into one "
         "exact head (a head alone kept as it is), with the fewest atoms in all; 'optimal "
         "over all partitions' when every group was asked and the proven bounds meet, else "
         "optimal over the groups asked or bracketed.", "models.md#the-merge-report",
         ("best merge plan", "plan", "optimal over all partitions", "partition")),
    Term("open question", "A question of the merge report without a proven minimum: its row "
         "says why, and 'closed by' names the option or command that closes it "
         "(--question-timeout, --max-atoms, --explicit-fusion-limit, prove --lines-timeout).",
         "models.md#the-merge-report", ("open", "open (below)", "closed by", "closes with")),
    Term("bounds only", "A group of the merge plan asked with its bounds alone (lower bound "
         "and counted product fusion); it is proven in full only when the plan needs it.",
         "models.md#the-merge-report", ("? (bounds only)",)),
    Term("same attention pattern", "Structure: at every position the two heads' logits "
         "differ by one common shift, which the softmax ignores; they merge into one head's "
         "atoms with summed values.", "models.md#the-structures-real-layers-have",
         ("one attention pattern", "pattern",
          "one attention pattern in the weights, not in the exact keys")),
    Term("constant head", "Structure: a head with one distinct key or one value, a constant "
         "function of the query (zeroed query weights); merged with another head it only "
         "shifts that head's values.", "models.md#the-structures-real-layers-have",
         ("constant", "constant (one distinct key)", "constant (one value)")),
    Term("values vanish", "Structure: every value of the head is zero (a pruned or "
         "zero-ablated head): it adds nothing, and merging saves all its atoms.",
         "models.md#the-structures-real-layers-have",
         ("vanishing values", "values vanish (the head adds nothing)")),
    Term("keys coincide", "Structure: two heads whose logits agree up to one shift on some "
         "positions but not all; the merged head is below the product, bracketed, not "
         "closed.", "models.md#the-structures-real-layers-have",
         ("keys shared", "shared positions", "keys coincide on some positions")),
)

_INDEX: dict[str, Term] = {}


def _key(text: str) -> str:
    return re.sub(r"[\s_-]+", " ", text.strip().lower())


for _t in TERMS:
    for _name in (_t.name, *_t.aliases):
        _INDEX.setdefault(_key(_name), _t)


def lookup(word: str) -> Term | None:
    """The term ``word`` names (case, ``_``, ``-`` and spaces do not matter), else None."""
    return _INDEX.get(_key(word))


def names() -> list[str]:
    """Every term's name, in the order of the glossary."""
    return [t.name for t in TERMS]


def explain(term: Term, width: int = 79) -> str:
    """The text ``attnproof help TERM`` prints.

    >>> print(explain(lookup("path c1"), width=60))
    path c1: Factor witnesses: Q is split into factors, each
      shown irreducible and shown not to divide P by an exact
      point where it vanishes and P does not; the vertices are
      counted block by block.  Trust exact.
      more: docs/theory.md#5-certifying-that-pq-is-in-lowest-terms
    """
    body = textwrap.fill(f"{term.name}: {term.meaning}", width, subsequent_indent="  ")
    return body + (f"\n  more: docs/{term.see}" if term.see else "")


def words_line(words: list[str]) -> str:
    """The line that points the default output's jargon to the glossary.

    >>> words_line(["trust exact", "path c1", "zonotope_independent"])
    "  (words: trust exact, path c1, zonotope_independent: 'attnproof help TERM', docs/glossary.md)"
    """
    assert all(lookup(w) is not None for w in words), words
    return f"  (words: {', '.join(words)}: 'attnproof help TERM', docs/glossary.md)"


# the merge report's verdicts (attnproof.transformer.report.comparison) -> their terms
MERGE_VERDICTS = {"saves": "saves", "costs": "costs × more", "equal": "equal",
                  "undecided": "undecided"}


def structure_term(structure: str) -> Term | None:
    """The term of a structure the merge report names (``heads 0 and 2: same attention
    pattern``, ``head 3: constant (one distinct key)``), else None.

    >>> structure_term("heads 0 and 9: keys coincide on 2 of 5 positions").name
    'keys coincide'
    >>> structure_term("head 3: constant (one value)").name
    'constant head'
    """
    phrase = structure.split(": ", 1)[-1]
    return lookup(re.sub(r" on \d+ of \d+ positions$", "", phrase))


def merge_words(doc: dict) -> list[str]:
    """The glossary's words for what a merge report document (``MergeReport.to_json()``)
    says: the verdicts that occur, the structures, the plan and open questions.

    >>> merge_words({"pairs": [{"merge": "costs", "structures": []}], "plan": None})
    ['kept separately', 'costs × more']
    """
    asked = list(doc.get("pairs") or []) + ([doc["layer_question"]] if doc.get("layer_question")
                                            else []) + list(doc.get("groups") or [])
    words = ["kept separately"]
    for v in MERGE_VERDICTS:
        if any(q.get("merge") == v for q in asked):
            words.append(MERGE_VERDICTS[v])
    for q in asked:
        for st in q.get("structures") or []:
            t = structure_term(st)
            if t is not None and t.name not in words:
                words.append(t.name)
    if doc.get("plan") is not None:
        words.append("merge plan")
    if any(q.get("minimum") is None and (q.get("open_reason") or q.get("error")) for q in asked):
        words.append("open question")
    return words


def render_markdown() -> str:
    """docs/glossary.md."""
    out = ["# Glossary", "",
           "The words attnproof prints, each explained once.  `attnproof help TERM` prints the "
           "same text on the command line (`attnproof help zonotope_graphic`, `attnproof help "
           "'path c1'`); this page is written from `attnproof/cli/glossary.py` by "
           "`python docs/gen_cli.py`.", ""]
    for t in TERMS:
        out.append(f"## {t.name}")
        out.append("")
        out.append(t.meaning)
        extra = []
        if t.aliases:
            extra.append("Also: " + ", ".join(f"`{a}`" for a in t.aliases) + ".")
        if t.see:
            extra.append(f"More: [{t.see.split('#')[0]}]({t.see}).")
        if extra:
            out.append("")
            out.append(" ".join(extra))
        out.append("")
    return "\n".join(out)
