"""Merge report: the answers of :func:`attnproof.merging.merge_report` for the pairs of
heads of a captured layer, the whole layer and the best merge plan, and how they read:
the verdict against keeping the heads separate, a Markdown page that opens with the
answer, the JSON document and the heat map.

Rendering only: the proving lives in :mod:`attnproof.merging`.

>>> from attnproof.transformer.report import pair_name
>>> pair_name((1, 3))
'heads_1_3'
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any, Optional, Sequence

import numpy as np

from ..certificate.build import encode_count
from ..checker import show_count
from ..display import fields_repr
from ..io import atomic_write, atomic_write_text

__all__ = ["MergeReport", "comparison", "pair_name", "write_report", "REPORT_FORMAT"]

REPORT_FORMAT = "attnproof-merge-report"


def pair_name(heads: Sequence[int]) -> str:
    """File stem of a question's certificate: ``heads_1_3`` (the layer's too: all its heads)."""
    return "heads_" + "_".join(str(h) for h in heads)



def comparison(separate: int, lower: Optional[int], upper: Optional[int],
               minimum: Optional[int]) -> tuple[str, str]:
    """The researcher's verdict on one merged head against keeping its heads separate
    (``separate = Σ n_h`` atoms): ``saves``, ``costs``, ``equal`` or ``undecided``, and a phrase.

    >>> comparison(16, 8, 8, 8)
    ('saves', 'saves 8')
    >>> comparison(16, 64, 64, 64)
    ('costs', 'costs 4× more')
    >>> comparison(9, 18, None, None)
    ('costs', 'costs at least 2× more')
    >>> comparison(9, 9, 9, 9), comparison(16, 8, 64, None), comparison(16, 4, 12, None)
    (('equal', 'equal'), ('undecided', 'between saving 8 and costing 4× more'), ('saves', 'saves 4 to 12'))
    """
    def times(n: int) -> str:
        r = n / separate
        return f"{r:.3g}×" if r < 1000 else f"{r:.3g}×".replace("e+", "e")

    if minimum is not None:
        if minimum < separate:
            return "saves", f"saves {separate - minimum}"
        if minimum == separate:
            return "equal", "equal"
        return "costs", f"costs {times(minimum)} more"
    if lower is not None and upper is None and lower > separate:
        return "costs", f"costs at least {times(lower)} more"
    if lower is None or upper is None:
        return "undecided", "unknown"
    if upper < separate:
        return "saves", f"saves {separate - upper} to {separate - lower}"
    if lower > separate:
        return "costs", f"costs {times(lower)} to {times(upper)} more"
    if lower < separate:
        return "undecided", (f"between saving {separate - lower} and costing "
                             f"{times(upper)} more" if upper > separate else
                             f"saves up to {separate - lower}")
    return "undecided", f"equal or costs up to {times(upper)} more"



@dataclass(repr=False)
class MergeReport:
    """The answers of a merge report (one entry per question) and how they were asked."""

    meta: dict
    heads: list
    atoms: dict                  # head -> atom count
    domain: str
    arithmetic: str
    pairs: list = field(default_factory=list)     # dicts with "heads" and the claims
    layer: Optional[dict] = None
    elapsed_s: float = 0.0
    groups: list = field(default_factory=list)    # groups of 3+ heads asked for the plan
    plan: Optional[dict] = None
    head_notes: dict = field(default_factory=dict)   # head -> its structures in words

    def __repr__(self) -> str:
        """Short: the layer, the heads and how many questions were answered."""
        return fields_repr("MergeReport", model=self.meta.get("model"), layer=self.meta.get("layer"),
                           heads=tuple(self.heads), pairs=len(self.pairs),
                           layer_question=self.layer is not None, elapsed_s=round(self.elapsed_s, 3))

    def matrix(self, what: str = "minimum") -> np.ndarray:
        """Pairwise ``what`` (minimum, lower_bound, upper_bound) as floats, NaN where unknown;
        the diagonal holds each head's own atom count."""
        n = len(self.heads)
        m = np.full((n, n), np.nan)
        idx = {h: i for i, h in enumerate(self.heads)}
        for i, h in enumerate(self.heads):
            m[i, i] = self.atoms[h]
        for q in self.pairs:
            v = q.get(what)
            if v is not None:
                i, j = idx[q["heads"][0]], idx[q["heads"][1]]
                m[i, j] = m[j, i] = float(v)
        return m

    def _asked(self) -> list:
        return self.pairs + ([self.layer] if self.layer else [])

    @property
    def answered(self) -> int:
        """Questions whose minimum was proven."""
        return sum(1 for q in self._asked() if q.get("minimum") is not None)

    @property
    def questions(self) -> int:
        return len(self.pairs) + (1 if self.layer else 0)

    @property
    def complete(self) -> bool:
        """Every question answered exactly (the exit code 0 of ``merge-report``)."""
        return self.answered == self.questions

    def to_json(self) -> dict:
        """The report document (JSON vocabulary; counts >= 2^53 as decimal strings)."""
        def enc(q: dict) -> dict:
            d = dict(q)
            for k in ("lower_bound", "upper_bound", "minimum", "product", "separate"):
                if d.get(k) is not None:
                    d[k] = encode_count(int(d[k]))
            d["heads"] = list(d["heads"])
            return d

        plan = None
        if self.plan is not None:
            plan = dict(self.plan)
            plan["groups"] = [enc(g) for g in plan["groups"]]
        return {"format": REPORT_FORMAT, "version": 1, "model": self.meta.get("model"),
                "layer": self.meta.get("layer"), "position": self.meta.get("position"),
                "tokens": self.meta.get("tokens"), "domain": self.domain,
                "arithmetic": self.arithmetic, "heads": list(self.heads),
                "head_atoms": {str(h): n for h, n in self.atoms.items()},
                "head_structures": {str(h): list(v) for h, v in self.head_notes.items()},
                "answer": self.answer(),
                "pairs": [enc(q) for q in self.pairs],
                "layer_question": enc(self.layer) if self.layer else None,
                "groups": [enc(q) for q in self.groups], "plan": plan,
                "complete": self.complete,
                "elapsed_s": round(self.elapsed_s, 3)}

    def _heads_text(self, hs) -> str:
        hs = list(hs)
        return (f"heads {', '.join(map(str, hs[:-1]))} and {hs[-1]}" if len(hs) > 1
                else f"head {hs[0]}")

    def answer(self) -> str:
        """The report's answer in one or two sentences: the merges that save atoms
        compared with keeping the heads separate, and the best plan."""
        saving = [q for q in self.pairs if q.get("merge") == "saves"]
        saving.sort(key=lambda q: (-(q.get("saves_atoms") or 0), q["heads"]))
        parts = []
        for q in saving[:4]:
            what = "merge exactly into" if q.get("minimum") is not None else "merge into at most"
            n = q["minimum"] if q.get("minimum") is not None else q["upper_bound"]
            parts.append(f"{self._heads_text(q['heads'])} {what} {show_count(int(n))} atoms, "
                         f"{q['merge_text'].replace('saves', 'saving')} of the "
                         f"{show_count(int(q['separate']))} kept separately")
        undecided = [q for q in self.pairs if q.get("merge") == "undecided"]
        if not parts:
            first = "No pair of heads is worth merging: every merged head needs at least as many atoms as the two heads kept separately"
            if undecided:
                first = ("No pair of heads is proven worth merging: every merged head that is "
                         "decided needs at least as many atoms as the two heads kept separately")
        else:
            first = "; ".join(parts)
            first = first[0].upper() + first[1:]
            more = len(saving) - 4
            if more > 0:
                first += f"; {more} more pair(s) save atoms"
            first += ("; no other pair is worth merging" if not undecided else "")
        if undecided:
            first += (f"; {len(undecided)} pair(s) undecided: "
                      + ", ".join(",".join(map(str, q["heads"])) for q in undecided[:6]))
        text = first + "."
        p = self.plan
        if p is not None and p.get("total") is not None:
            merged = [g["heads"] for g in p["groups"] if len(g["heads"]) > 1]
            how = ("optimal over all partitions of the heads" if p["optimal"] and p["exhaustive"]
                   else "optimal over the partitions into the groups asked" if p["optimal"]
                   else f"an optimum lies between {show_count(int(p['lower']))} and "
                        f"{show_count(int(p['total']))} atoms")
            if merged:
                text += (" Best merge plan: merge " + "; ".join(
                    "{" + ", ".join(map(str, g)) + "}" for g in merged)
                         + f", {show_count(int(p['total']))} atoms in all against "
                         f"{show_count(int(p['separate']))} with every head kept ({how}).")
            else:
                text += (f" Best merge plan: keep every head ({show_count(int(p['separate']))} "
                         f"atoms; {how}).")
        return text

    def to_markdown(self) -> str:
        """A Markdown page: the answer, the pairwise matrix, the questions, the plan."""
        def sc(v: Any) -> str:
            return "?" if v is None else show_count(int(v))

        meta = self.meta
        lines = [f"# Merge report: {meta.get('model', 'model')}, layer {meta.get('layer', '?')}, "
                 f"query position {meta.get('position', '?')}", "",
                 self.answer(), "",
                 f"Domain `{self.domain}`, `{self.arithmetic}` arithmetic from the exact binary "
                 f"values of the captured floats; heads {', '.join(map(str, self.heads))} with "
                 f"{', '.join(str(self.atoms[h]) for h in self.heads)} atoms.", ""]
        notes = [(h, n) for h, n in self.head_notes.items() if n]
        if notes:
            lines += ["Heads with structure: " + "; ".join(f"head {h}: {', '.join(n)}"
                                                            for h, n in notes) + ".", ""]
        lines += ["## Minimum atoms of one exact head equal to two heads", "",
                  "| | " + " | ".join(f"H{h}" for h in self.heads) + " |",
                  "|---|" + "---|" * len(self.heads)]
        by = {tuple(q["heads"]): q for q in self.pairs}
        for h in self.heads:
            cells = []
            for g in self.heads:
                if g == h:
                    cells.append(f"({self.atoms[h]})")
                    continue
                q = by.get((h, g)) or by.get((g, h))
                if q is None:
                    cells.append("")
                elif q.get("minimum") is not None:
                    cells.append(sc(q["minimum"]))
                elif q.get("lower_bound") is not None:
                    cells.append(f"{sc(q['lower_bound'])}..{sc(q['upper_bound'])}")
                else:
                    cells.append("error")
            lines.append(f"| H{h} | " + " | ".join(cells) + " |")
        lines += ["", "The diagonal shows each head's own atom count (its distinct keys).", "",
                  "## Questions", "",
                  "| heads | kept separately | lower bound | upper bound | minimum | merging | "
                  "trust | structure | time (s) | certificate |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        opened = [q for q in self._asked() + self.groups
                  if q.get("minimum") is None and (q.get("open_reason") or q.get("error"))]
        for q in self._asked() + self.groups:
            is_layer = q is self.layer
            name = f"layer ({len(q['heads'])} heads)" if is_layer else ",".join(map(str, q["heads"]))
            cert = Path(q["certificate"]).name if q.get("certificate") else \
                (q.get("error", "")[:80] or "-")
            sep = "+".join(str(self.atoms[h]) for h in q["heads"]) + f" = {sc(q.get('separate'))}"
            mn = sc(q.get("minimum"))
            if q.get("minimum") is None:     # why, and what closes it: under the table
                mn = "open (below)" if any(q is o for o in opened) else "? (bounds only)"
            lines.append(f"| {name} | {sep} | {sc(q.get('lower_bound'))} | "
                         f"{sc(q.get('upper_bound'))} | {mn} | "
                         f"{q.get('merge_text', '')} | {q.get('trust')} | "
                         f"{'; '.join(q.get('structures') or []) or '-'} | "
                         f"{q.get('elapsed_s')} | {cert} |")
        lines += ["", f"{self.answered} of {self.questions} questions answered exactly "
                  f"in {self.elapsed_s:.1f} s."]
        if self.groups:
            lines.append(f"Groups of more than two heads asked for the plan: {len(self.groups)} "
                         "(the bounds first; the explicit fusion where the plan needs it).")
        if opened:
            lines += ["", "Open questions:", ""]
            for q in opened:
                lines.append(f"* heads {','.join(map(str, q['heads']))}: "
                             f"{q.get('open_reason') or q.get('error') or 'open'}"
                             + (f"; closed by {q['closes_with']}" if q.get("closes_with") else ""))
        hints = [q for q in self._asked() if q.get("hint")]
        if hints:
            lines += ["", "Notes:", ""] + [f"* heads {','.join(map(str, q['heads']))}: {q['hint']}"
                                           for q in hints]
        if self.plan is not None:
            lines += ["", "## Merge plan", ""] + self._plan_lines(sc)
        lines.append("")
        return "\n".join(lines)

    def _plan_lines(self, sc) -> list:
        p = self.plan
        if p is None:
            return []
        out = ["| group | kept separately | merged atoms | certificate |", "|---|---|---|---|"]
        for g in p["groups"]:
            hs = g["heads"]
            cert = Path(g["certificate"]).name if g.get("certificate") else "-"
            merged = sc(g.get("upper_bound")) if len(hs) > 1 else "(kept)"
            if len(hs) > 1 and g.get("minimum") is None:
                merged = f"{sc(g.get('lower_bound'))}..{sc(g.get('upper_bound'))}"
            out.append(f"| {','.join(map(str, hs))} | {sc(g.get('separate'))} | {merged} | {cert} |")
        out += ["", f"Total {sc(p['total'])} atoms against {sc(p['separate'])} with every head "
                f"kept ({'saves ' + str(p['separate'] - p['total']) if p['total'] < p['separate'] else 'no saving'}). "
                + p["note"]]
        return out

    def saving(self) -> tuple[np.ndarray, list[list[str]]]:
        """What the heat map shows: per pair, minimum ÷ (n_h + n_g), the atoms of one merged
        head against the two heads kept separately, and a label.

        The ratio is 1 when merging changes nothing, below 1 when it saves atoms
        and above 1 when the merged head is larger; where only bounds are known the
        ratio is that of the lower bound (the label says ``≥``); the diagonal is NaN
        (each head's own count is its label).

        >>> rep = MergeReport({}, [0, 1], {0: 8, 1: 8}, "raw", "float64",
        ...                   [{"heads": [0, 1], "minimum": 64, "separate": 16}])
        >>> ratio, labels = rep.saving()
        >>> float(ratio[0, 1]), labels[0][1], labels[0][0]
        (4.0, '64 of 16\\n4× more', '(8)')
        """
        n = len(self.heads)
        ratio = np.full((n, n), np.nan)
        labels = [["?"] * n for _ in range(n)]
        idx = {h: i for i, h in enumerate(self.heads)}
        for i, h in enumerate(self.heads):
            labels[i][i] = f"({self.atoms[h]})"
        for q in self.pairs:
            if len(q.get("heads", ())) != 2:
                continue
            i, j = idx[q["heads"][0]], idx[q["heads"][1]]
            sep = int(q.get("separate") or self.atoms[q["heads"][0]] + self.atoms[q["heads"][1]])
            lo, hi, mn = q.get("lower_bound"), q.get("upper_bound"), q.get("minimum")
            if mn is not None:
                m, text = int(mn), f"{mn} of {sep}\n" + comparison(sep, mn, mn, mn)[1]
            elif lo is not None:
                m, text = int(lo), f"≥{lo} of {sep}\n" + comparison(sep, lo, hi, None)[1]
            else:
                continue
            text = text.replace("costs ", "").replace("between saving", "saves").replace(
                " and costing ", " or ")
            for a, b in ((i, j), (j, i)):
                ratio[a, b] = m / sep
                labels[a][b] = text
        return ratio, labels

    def heatmap(self, path: str | os.PathLike, title: Optional[str] = None) -> None:
        """A PNG heat map of what merging two heads saves: minimum ÷ (n_h + n_g)."""
        fig = self.heatmap_figure(title)
        buf = BytesIO()
        fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
        data = buf.getvalue()
        atomic_write(path, lambda f: f.write(data))

    def heatmap_figure(self, title: Optional[str] = None):
        """The matplotlib figure of :meth:`heatmap` (cells: :meth:`saving`), on a diverging
        colour scale centred on 1 (blue: merging saves atoms; red: it costs more)."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.colors import TwoSlopeNorm
        from matplotlib.figure import Figure

        ratio, labels = self.saving()
        n = len(self.heads)
        fig = Figure(figsize=(1.6 + 0.8 * max(n, 4), 0.9 + 0.7 * max(n, 4)))
        FigureCanvasAgg(fig)
        ax = fig.add_subplot(1, 1, 1)
        finite = ratio[np.isfinite(ratio)]
        lo = min(float(finite.min()) if finite.size else 0.5, 0.5)
        hi = max(float(finite.max()) if finite.size else 2.0, 2.0)
        norm = TwoSlopeNorm(vmin=lo * 0.999, vcenter=1.0, vmax=hi * 1.001)
        img = ax.imshow(np.ma.masked_invalid(ratio), cmap="RdBu_r", norm=norm)
        cb = fig.colorbar(img, ax=ax)
        cb.set_label("minimum ÷ (n_h + n_g)\n(< 1: merging saves atoms; 1: equal; "
                     "> 1: costs more)", fontsize=8)
        ax.set_xticks(range(n), [f"H{h}" for h in self.heads])
        ax.set_yticks(range(n), [f"H{h}" for h in self.heads])
        if n <= 12:
            for i in range(n):
                for j in range(n):
                    r = ratio[i, j]
                    strong = not np.isnan(r) and abs(float(norm(r)) - 0.5) > 0.3
                    ax.text(j, i, labels[i][j], ha="center", va="center",
                            color="w" if strong else "k", fontsize=7 if n <= 6 else 5)
        ax.set_title(title or f"{self.meta.get('model', '')} layer {self.meta.get('layer', '?')}: "
                     "one merged head against two kept (diagonal: a head's own atoms)",
                     fontsize=9)
        return fig


def write_report(rep: MergeReport, out_dir: str | os.PathLike) -> dict:
    """Write ``report.md``, ``report.json`` and ``heatmap.png`` under ``out_dir``; their paths."""
    out = Path(out_dir)
    paths = {"markdown": str(out / "report.md"), "json": str(out / "report.json"),
             "heatmap": str(out / "heatmap.png")}
    atomic_write_text(paths["markdown"], rep.to_markdown())
    atomic_write_text(paths["json"], json.dumps(rep.to_json(), sort_keys=True, indent=1) + "\n")
    rep.heatmap(paths["heatmap"])
    return paths
