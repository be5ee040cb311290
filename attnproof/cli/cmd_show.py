"""``attnproof show``: the heads and the reduced form ``P/Q`` as formulas."""

from __future__ import annotations

import argparse

from ..errors import InputError, LimitError
from .common import EXIT_OK, add_common, add_max_atoms, plural, positive_int, print_json

NAME = "show"
HELP = "print the heads and the reduced form P/Q as formulas (a summary for float keys)"
DESCRIPTION = """\
Print each head as N/D over exp atoms, then the whole multi-head in lowest
terms P/Q (THEORY §2), with Q factored (when its degree in every variable is
at most 256: factoring higher degrees takes minutes).  The variables stand for exponentials
of the query: x_j = e^(q_j/s_j) (s_j scales rational keys to integers) and,
when biases are present, z = e^(1/L).

Keys that are binary floats (imported heads of a real model) have lattice
exponents of hundreds of bits, and their formulas run to megabytes: by default
show then prints a summary (heads, atoms, dimensions, the size of the
exponents, the structures found, Q as a product of head classes);
--formulas prints the formulas too, each polynomial in full only when it has
at most --max-terms terms.

examples:
  attnproof show w3.json
  attnproof show k3.json --unicode
  attnproof show k3.json --latex
  attnproof show k3.json --plot k3.png
  attnproof show k3.json --plot k3.svg --json
  attnproof show w5.json --plot w5.png --project 0,1,2
  attnproof show layer0.json                   # imported float heads: a summary
  attnproof show layer0.json --formulas --max-terms 4
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("problem", metavar="PROBLEM", help="problem file")
    p.add_argument("--unicode", action="store_true", help="2-D unicode formulas (SymPy pretty printing)")
    p.add_argument("--latex", action="store_true", help="LaTeX formulas (SymPy), for papers and notebooks")
    p.add_argument("--plot", metavar="OUT.png",
                   help="also draw the Newton polytope of Q with its vertices, the keys of the best "
                        "cheap fusion and of the product fusion, to an image file (PNG; SVG or PDF "
                        "by the extension .svg or .pdf)")
    p.add_argument("--project", metavar="I,J[,K]",
                   help="with --plot: draw the shadow on these 0-based coordinates (default: the "
                        "polytope's own affine hull when it has dimension <= 3, else 0,1,2)")
    p.add_argument("--max-terms", type=positive_int, default=64, metavar="T",
                   help="print polynomials with at most T terms in full (default 64)")
    p.add_argument("--formulas", action="store_true",
                   help="print the formulas of float-key heads too (by default they are "
                        "summarized: their exponents have hundreds of bits)")
    add_max_atoms(p)
    add_common(p)


def _fmt(num, den, lattice, style: str, max_terms: int) -> str:
    from ..algebra import factor_obstacle
    from ..display.formulas import fraction_text

    if factor_obstacle(den) is not None:
        # factoring would take minutes to hours: the denominator as it stands
        return _unfactored(num, den, lattice, style, max_terms)
    if len(num) > max_terms or len(den) > max_terms:
        import sympy

        d = sympy.sstr(_factored_or_count(den, lattice, max_terms))
        return f"[{len(num)}-term polynomial]/({d})"
    return fraction_text(num, den, lattice, style)


def _factored_or_count(p, lattice, max_terms):
    from ..display.formulas import factored_expr

    _, factors = p.factor()
    if all(len(f) <= max_terms for f, _ in factors) and len(factors) <= max_terms:
        return factored_expr(p, lattice)
    import sympy

    return sympy.Symbol(f"[{len(p)}-term polynomial]")


def _unfactored(num, den, lattice, style: str, max_terms: int) -> str:
    """``num/den`` without factoring (long exponents: FLINT's factor is out of reach)."""
    import sympy

    from ..display.formulas import fraction_expr

    if len(num) > max_terms or len(den) > max_terms:
        return f"[{len(num)}-term polynomial]/[{len(den)}-term polynomial]"
    e = fraction_expr(num, den, lattice, factor_den=False)
    if style == "latex":
        return sympy.latex(e)
    if style == "unicode":
        return sympy.pretty(e, use_unicode=True)
    return sympy.sstr(e)


def _geometric_reduced_form(M, lat, obstacle: str, out) -> list | None:
    """THEORY Cor 9.3, 9.3' in words: Q as the product of the classes of associate head
    denominators, as :func:`attnproof.geometry.proof.factor_classes` certifies it (the
    same classes as ``attnproof bound``).

    Returns the classes of heads whose product is ``Q`` (None when not certified)."""
    from ..geometry import factor_classes, head_points

    out(f"sum of the {len(M)} heads in lowest terms: not expanded ({obstacle})")
    pts = head_points(M, lat)
    fc = factor_classes(M, lat, pts)
    if fc.obstacle is not None:
        out(f"  the reduced form is not known: {fc.obstacle}")
        return None
    names = [" = ".join(f"D{h}" for h in cl) for cl, c in zip(fc.classes, fc.constant) if not c]
    const = [cl for cl, c in zip(fc.classes, fc.constant) if c]
    why = ("every head denominator absolutely irreducible, THEORY Cor 9.3" if not fc.indecomposable
           else "every head denominator absolutely irreducible or indecomposable and pairwise "
                "non-homothetic, THEORY Cor 9.3, 9.3'")
    out("  Q = " + (" * ".join(f"({n})" for n in names) if names else "1")
        + f"  ({why}; '=' joins associate heads)")
    from .glossary import words_line

    out(words_line(["indecomposable", "non-homothetic", "associate"] if fc.indecomposable
                   else ["associate"]))
    if const:
        out(f"  constant classes (no factor of Q): {const}")
    n = 1
    for h in fc.factors:
        n *= len(pts[h])
    out(f"Q has at most {n} support points (distinct keys); 'attnproof bound' counts its vertices")
    return [list(cl) for cl, c in zip(fc.classes, fc.constant) if not c]


MAX_SHOW_VARIABLES = 1024


def float_summary(M, lat, out) -> dict:
    """What ``show`` prints by default for keys out of reach of formulas: the heads, their
    atoms, the dimensions, the size of the exponents and the structures found."""
    from ..transformer import group_structures

    bits = 0
    for h in M.heads:
        for a in h.atoms:
            for _, e in lat.sparse_exponent(a):
                bits = max(bits, abs(e).bit_length())
    names = [str(i) for i in range(len(M.heads))]
    structures = group_structures(M.heads, names)
    heads = [{"head": i, "name": h.name, "atoms": len(h), "distinct_keys": h.distinct_keys}
             for i, h in enumerate(M.heads)]
    out(f"{plural(len(M.heads), 'head')}: " + ", ".join(
        f"{i}{' (' + h.name + ')' if h.name else ''} {len(h)} atoms"
        + (f" ({plural(h.distinct_keys, 'distinct key')})" if h.distinct_keys != len(h) else "")
        for i, h in enumerate(M.heads)))
    out(f"query dimension {M.dim}, values of dimension {M.value_dim}, "
        f"{'with' if M.has_bias else 'no'} logit biases")
    out(f"exponents: the keys' lattice exponents have up to {bits} bits, out of reach of exact "
        f"polynomial algebra; formulas not printed (--formulas prints them, polynomials of at "
        f"most --max-terms terms in full)")
    out("structures: " + ("; ".join(structures) if structures else
                          "none found (no two heads share a pattern, no head is constant)"))
    return {"heads": heads, "exponent_bits": bits, "structures": structures}


def run(args: argparse.Namespace) -> int:
    from ..algebra import head_fraction, Lattice
    from ..display.formulas import legend
    from ..fusion import reduced_form
    from ..io import load_problem

    M = load_problem(args.problem)
    lat = Lattice.of(M)
    if lat.nvars > MAX_SHOW_VARIABLES:
        # a polynomial context over this many variables is beyond display (and FLINT)

        raise LimitError(f"show displays formulas in at most {MAX_SHOW_VARIABLES} lattice "
                         f"variables; this problem has {lat.nvars} (use 'attnproof bound' or "
                         f"'attnproof prove', which work on sparse keys)")
    style = "latex" if args.latex else "unicode" if args.unicode else "plain"
    if args.latex and args.unicode:
        raise InputError("choose one of --unicode and --latex")
    project = None
    if args.plot is not None:
        from ..plot import parse_projection

        project = parse_projection(args.project, M.dim)
    elif args.project is not None:
        raise InputError("--project needs --plot OUT.png")
    from ..algebra import flint_obstacle

    obstacle = flint_obstacle(M, lat)
    lines: list[str] = []
    out = lines.append
    doc: dict = {"verdict": "shown", "variables": legend(lat, 'latex' if args.latex else 'plain'),
                 "heads": len(M.heads), "formulas": [], "style": style}
    summary = obstacle is not None and not args.formulas
    if summary:
        doc["summary"] = float_summary(M, lat, out)
    else:
        out(f"variables: {doc['variables']}")
    from ..bounds import graph_of_heads, graph_report
    from .cmd_bound import graph_line

    graph = graph_report(graph_of_heads(M))
    if graph is not None:               # the heads' graph, before any cancellation
        doc["graph"] = graph
        out(graph_line(graph))
    for i, h in enumerate(M.heads if not summary else ()):
        f = head_fraction(h, lat)
        label = f"head {i}" + (f" ({h.name})" if h.name else "")
        for c, n in enumerate(f.num):
            comp = f"[{c}]" if len(f.num) > 1 else ""
            # a head as its atoms write it: the sum of its exponentials, not factored (a key
            # 3/2 is x1**3/(x1**3 + 1), not x1**3/((x1 + 1)*(x1**2 - x1 + 1)))
            text = _unfactored(n, f.den, lat, style, args.max_terms)
            doc["formulas"].append({"head": i, "name": h.name, "component": c, "atoms": len(h),
                                 "formula": text})
            out(f"{label}{comp}, {len(h)} atoms:")
            out("  " + text.replace("\n", "\n  "))
    if obstacle is not None:
        if args.plot is not None:
            raise InputError(f"--plot draws Newt(Q) from the expanded reduced form, out of reach "
                             f"here ({obstacle})")
        doc["reduced"] = []                      # not expanded
        doc["q_support_points"] = None
        doc["q_classes"] = _geometric_reduced_form(M, lat, obstacle, out)
        if args.json:
            print_json(doc)
        else:
            print("\n".join(lines))
        return EXIT_OK
    r = reduced_form(M, max_atoms=args.max_atoms)
    out(f"sum of the {plural(len(M), 'head')} in lowest terms, P/Q:")
    doc["reduced"] = []
    for c, p in enumerate(r.P):
        comp = f"[{c}]" if len(r.P) > 1 else ""
        text = _fmt(p, r.Q, lat, style, args.max_terms)
        doc["reduced"].append(text)
        if "\n" in text:      # 2-D output: the formula on its own lines
            out(f"  P/Q{comp} =")
            out("    " + text.replace("\n", "\n    "))
        else:
            out(f"  P/Q{comp} = {text}")
    pos = all(c > 0 for c in r.Q.coeffs())
    doc.update({"q_support_points": len(r.support_x()), "q_positive": pos, "plot": args.plot})
    out(f"Q has {len(r.support_x())} support points (distinct keys), "
          f"{'all coefficients positive' if pos else 'some coefficients negative or zero-sum'}")
    if args.plot is not None:
        from ..plot import draw_newton, newton_picture

        pic = newton_picture(M, project=project, max_atoms=args.max_atoms)
        draw_newton(pic, args.plot)
        what = (f"shadow on coordinates {','.join(map(str, pic.coords))}, {len(pic.vertices)} vertices"
                if pic.projected else f"Newt(Q) of dimension {pic.affine_dim}, {len(pic.vertices)} vertices")
        out(f"picture: {args.plot} ({what})")
        doc["plot_vertices"] = len(pic.vertices)
    if args.json:
        print_json(doc)
    else:
        print("\n".join(lines))
    return EXIT_OK
