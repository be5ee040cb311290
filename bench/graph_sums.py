"""The table of graph sums: every connected graph on 3, 4 and 5 nodes (29 graphs).

For each graph ``G`` (networkx's atlas, in its order) the row gives the nodes, the
edges, the acyclic orientations ``T_G(2,0)`` (the Newton bound), the forests
``T_G(2,1)`` (the atoms of the fusion ``Q_G``), the lower bound proven by
``attnproof.prove`` (the exact steps, the ``graph_minors`` step of THEORY §13, then the
line queries of THEORY §12 for at most ``--per-graph`` seconds), the best upper bound,
the certificate's trust level and the wall-clock seconds.  Each certificate is checked
by the standard-library checker (``check_own``), and one that rests on a line
refutation is re-proven by replay (``--replay``: z3 and cvc5 again) before its row
says so.  The baseline column is the Newton bound: the ratio minimum / Newton.

    python bench/graph_sums.py --per-graph 600 --write    # the full run: docs/graph-sums.md
    python bench/graph_sums.py --per-graph 20             # a quick run, printed only
    python bench/graph_sums.py --only G17,G43 --per-graph 600 --write   # re-measure two rows
    python bench/graph_sums.py --only G18 --per-graph 300 --line-options parity,order,faces,symmetry
                                          # K_4 without the contraction constraint

``--write`` rewrites the table inside docs/graph-sums.md (between the markers); with
``--only`` it replaces just the rows named and keeps the others as they are (the
summary line under the table is then recounted from the rows on the page).
``--line-options`` names the line query's encoding options (default all of
``attnproof.smt.lines.LINE_OPTIONS``; leaving ``contraction`` out measures the query
without THEORY Lemma 13.2's line counts).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import networkx as nx

from attnproof import graph_sum, prove
from attnproof.bounds import graph_of_heads
from attnproof.bounds.graph_sums import acyclic_orientations, forests
from attnproof.smt.lines import LINE_OPTIONS

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "graph-sums.md"
BEGIN, END = "<!-- table: begin -->", "<!-- table: end -->"

NAMES = {  # a few graphs by name, matched up to isomorphism
    "K_3 = C_3": nx.complete_graph(3), "C_4": nx.cycle_graph(4), "C_5": nx.cycle_graph(5),
    "K_4": nx.complete_graph(4), "K_5": nx.complete_graph(5),
    "diamond": nx.Graph([(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]),
    "paw": nx.Graph([(0, 1), (0, 2), (1, 2), (2, 3)]),
    "bowtie": nx.Graph([(0, 1), (0, 2), (1, 2), (0, 3), (0, 4), (3, 4)]),
    "house": nx.house_graph(), "K_{2,3}": nx.complete_bipartite_graph(2, 3),
    "W_4 (wheel)": nx.wheel_graph(5), "K_5 − e": nx.Graph(
        [e for e in nx.complete_graph(5).edges() if e != (0, 1)]),
    "star K_{1,3}": nx.star_graph(3), "star K_{1,4}": nx.star_graph(4),
}


def graphs() -> list:
    """The 29 connected graphs on 3-5 nodes, in atlas order, with names where known."""
    out = []
    for i, g in enumerate(nx.graph_atlas_g()):
        if 3 <= len(g) <= 5 and nx.is_connected(g):
            name = next((n for n, h in NAMES.items() if nx.is_isomorphic(g, h)), None)
            if name is None and nx.is_tree(g):
                name = "path" if max(d for _, d in g.degree()) <= 2 else "tree"
            out.append((f"G{i}", name or "", g))
    return out


def _kind(g) -> str:
    """``tree``, ``cactus`` (every block an edge or a cycle) or ``other``."""
    if nx.is_tree(g):
        return "tree"
    for blk in nx.biconnected_component_edges(g):
        B = nx.Graph(list(blk))
        if B.number_of_edges() > 1 and not all(d == 2 for _, d in B.degree()):
            return "other"
    return "cactus"


def row(label: str, name: str, g, per_graph: float, replay: bool,
        line_options: tuple | None = None) -> dict:
    M = graph_sum(g)
    G = graph_of_heads(M)
    t = time.perf_counter()
    cert = prove(M, lines_timeout=per_graph, line_options=line_options)
    verdict = "checked"
    if cert.trust == "line-refuted" and replay:
        import subprocess
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "cert.json"
            path.write_text(cert.text)
            rc = subprocess.run([sys.executable, "-m", "attnproof", "check", str(path),
                                 "--replay"], capture_output=True).returncode
        verdict = "replayed" if rc == 0 else f"REPLAY FAILED (exit {rc})"
    seconds = time.perf_counter() - t
    return {"label": label, "name": name, "nodes": len(g), "edges": g.number_of_edges(),
            "ao": acyclic_orientations(G), "forests": forests(G), "lower": cert.lower_bound,
            "upper": cert.upper_bound, "trust": cert.trust, "seconds": seconds,
            "kind": _kind(g), "verdict": verdict}


def table(rows: list, per_graph: float) -> str:
    head = ("| graph | name | nodes | edges | acyclic orientations T(2,0) | forests T(2,1) | "
            "lower bound | upper bound | exact | trust | seconds |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|\n")
    body = ""
    for r in rows:
        exact = "yes" if r["lower"] == r["upper"] else "no"
        body += (f"| {r['label']} | {r['name']} | {r['nodes']} | {r['edges']} | {r['ao']} | "
                 f"{r['forests']} | {r['lower']} | {r['upper']} | {exact} | {r['trust']} | "
                 f"{r['seconds']:.1f} |\n")
    n_exact = sum(r["lower"] == r["upper"] for r in rows)
    kinds = {k: sum(r["kind"] == k for r in rows) for k in ("tree", "cactus", "other")}
    exact_kinds = {k: sum(r["kind"] == k and r["lower"] == r["upper"] for r in rows)
                   for k in kinds}
    total = sum(r["seconds"] for r in rows)
    tail = (f"\n{n_exact} of {len(rows)} exact: trees {exact_kinds['tree']}/{kinds['tree']}, "
            f"cacti (blocks edges and cycles) {exact_kinds['cactus']}/{kinds['cactus']}, "
            f"others {exact_kinds['other']}/{kinds['other']}. Line queries at most "
            f"{per_graph:g} s per graph; {total:.0f} s in all.\n")
    return head + body + tail


def parse_rows(text: str) -> list:
    """The rows of a table written by :func:`table`, as dicts (``seconds`` a float).

    >>> t = table([{"label": "G6", "name": "path", "nodes": 3, "edges": 2, "ao": 4,
    ...             "forests": 4, "lower": 4, "upper": 4, "trust": "exact",
    ...             "seconds": 0.1, "kind": "tree"}], 5)
    >>> parse_rows(t)[0]["lower"], parse_rows(t)[0]["kind"]
    (4, 'tree')
    """
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 11 or not cells[0].startswith("G") or not cells[0][1:].isdigit():
            continue
        label, name, n, e, ao, fo, lo, up, _exact, trust, sec = cells
        g = nx.graph_atlas(int(label[1:]))
        out.append({"label": label, "name": name, "nodes": int(n), "edges": int(e),
                    "ao": int(ao), "forests": int(fo), "lower": int(lo), "upper": int(up),
                    "trust": trust, "seconds": float(sec), "kind": _kind(g)})
    return out


def merge_rows(old: list, new: list) -> list:
    """``old`` with each row whose label is in ``new`` replaced, in atlas order.

    >>> merge_rows([{"label": "G6", "v": 1}, {"label": "G7", "v": 1}],
    ...            [{"label": "G7", "v": 2}])
    [{'label': 'G6', 'v': 1}, {'label': 'G7', 'v': 2}]
    """
    by = {r["label"]: r for r in old}
    by.update({r["label"]: r for r in new})
    return sorted(by.values(), key=lambda r: int(r["label"][1:]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-graph", type=float, default=600.0, metavar="S",
                    help="seconds of line queries per graph (default 600)")
    ap.add_argument("--write", action="store_true", help="rewrite the table in docs/graph-sums.md")
    ap.add_argument("--no-replay", action="store_true",
                    help="do not replay line refutations (their rows then say 'checked')")
    ap.add_argument("--only", metavar="LABELS", help="comma-separated labels (G7,G18,...)")
    ap.add_argument("--line-options", metavar="NAMES",
                    help=f"comma-separated encoding options of the line query (default all: "
                         f"{','.join(LINE_OPTIONS)}; 'none' for none)")
    args = ap.parse_args(argv)
    line_options = None
    if args.line_options is not None:
        line_options = tuple(o for o in args.line_options.split(",") if o and o != "none")
        bad = sorted(set(line_options) - set(LINE_OPTIONS))
        if bad:
            print(f"--line-options: no such option: {', '.join(bad)} (options: "
                  f"{', '.join(LINE_OPTIONS)})", file=sys.stderr)
            return 3
    rows = []
    only = set(args.only.split(",")) if args.only else None
    unknown = sorted(only - {lbl for lbl, _, _ in graphs()}) if only else []
    if unknown:
        print(f"--only: no such graph: {', '.join(unknown)} (labels G6..G52 of the table)",
              file=sys.stderr)
        return 3
    for label, name, g in graphs():
        if only and label not in only:
            continue
        r = row(label, name, g, args.per_graph, not args.no_replay, line_options)
        rows.append(r)
        print(f"{label:>4} {name:>12} n={r['nodes']} e={r['edges']} T20={r['ao']} "
              f"T21={r['forests']} lower={r['lower']} upper={r['upper']} trust={r['trust']} "
              f"{r['verdict']} {r['seconds']:.1f} s", flush=True)
    text = table(rows, args.per_graph)
    print(text)
    ratio = [r["lower"] / r["ao"] for r in rows]
    print(f"lower bound / Newton bound: mean {sum(ratio) / len(ratio):.3f}, "
          f"max {max(ratio):.3f}; line options "
          f"{','.join(LINE_OPTIONS if line_options is None else line_options) or 'none'}")
    if args.write:
        page = PAGE.read_text()
        a, b = page.index(BEGIN) + len(BEGIN), page.index(END)
        if only:
            old = parse_rows(page[a:b])
            if {r["label"] for r in old} != {lbl for lbl, _, _ in graphs()}:
                print("docs/graph-sums.md does not hold the full table: run without --only",
                      file=sys.stderr)
                return 3
            text = table(merge_rows(old, rows), args.per_graph)
            m = re.search(r"Line queries at most ([^;]*) s per graph", page[a:b])
            text = text.replace(
                f"Line queries at most {args.per_graph:g} s per graph",
                f"Line queries at most {m.group(1) if m else '?'} s per graph, rows "
                f"{', '.join(sorted(only, key=lambda x: int(x[1:])))} re-measured at "
                f"{args.per_graph:g} s")
        PAGE.write_text(page[:a] + "\n" + text + page[b:])
        print(f"written to {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
