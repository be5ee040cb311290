"""Merge report: for every pair of heads of a captured layer, and for the whole layer,
the proven lower bound and best fusion, one checked certificate per question.

Each question is the multi-head of the chosen heads (THEORY §10); it is proved
by the same path as ``attnproof prove`` (:func:`attnproof.certificate.build_certificate`,
then the independent checker), one task per question through
:func:`attnproof.parallel.executor.map_tasks`.  Heads whose query subspaces are in
general position give the product ``n_h · n_g`` exactly (THEORY Lemma 9.5):
merging them into one exact head needs as many atoms as the product fusion.

>>> from attnproof.transformer.report import pair_name
>>> pair_name((1, 3))
'heads_1_3'
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from pathlib import Path
from typing import Any, Optional, Sequence

import numpy as np

from ..errors import AttnproofError, InputError
from ..heads import MultiHead
from .capture import Capture
from .problem import domain_dim, head_from_capture
from ..parallel.tasks import Progress

__all__ = ["merge_report", "MergeReport", "prove_question", "prove_heads", "ExactHead",
           "pair_name", "REPORT_FORMAT", "DEFAULT_EXPLICIT_LIMIT"]

REPORT_FORMAT = "attnproof-merge-report"
DEFAULT_EXPLICIT_LIMIT = 0


def pair_name(heads: Sequence[int]) -> str:
    """File stem of a question's certificate: ``heads_1_3``, or ``layer`` for all heads."""
    return "heads_" + "_".join(str(h) for h in heads)


def _count(v: Any) -> Optional[int]:
    return None if v is None else int(v)


def prove_question(M: MultiHead, cert_path: str, max_atoms: Optional[int],
                   explicit_fusion_limit: int) -> dict:
    """Prove one question and check its certificate; a dict of the claims and the certificate text.

    A module-level task for :func:`attnproof.parallel.executor.map_tasks`.  An error the
    toolkit raises on purpose is recorded in the result (``"error"``), never raised,
    so one hard question does not sink the report.
    """
    from ..certificate import build_certificate, check_own

    t0 = time.monotonic()
    try:
        cert = build_certificate(M, max_atoms=max_atoms, explicit_fusion_limit=explicit_fusion_limit)
        text = cert.text
        verdict, _ = check_own(text)    # a large certificate: with a budget that fits
        if verdict.code != 0:
            raise AttnproofError(f"the checker does not accept the certificate: {verdict.message}")
    except (AttnproofError, MemoryError, RecursionError) as e:
        return {"error": f"{type(e).__name__}: {e}", "elapsed_s": round(time.monotonic() - t0, 3),
                "lower_bound": None, "upper_bound": None, "minimum": None, "trust": "unknown"}
    summ = cert.summary()
    out = {"lower_bound": _count(verdict.lower_bound), "upper_bound": _count(verdict.upper_bound),
           "minimum": _count(verdict.minimum), "trust": summ["trust"],
           "certificate": cert_path, "certificate_bytes": len(text),
           "certificate_sha256": hashlib.sha256(text.encode("ascii")).hexdigest(),
           "elapsed_s": round(time.monotonic() - t0, 3)}
    if "complete" in summ:
        out["complete"] = summ["complete"]
    out["_certificate_text"] = text   # written by the caller: a worker may be another machine
    return out


def _common_den(xs) -> int:
    L = 1
    for x in xs:
        q = x.denominator
        if L % q:
            L = lcm(L, q)
    return L


def _digest(body) -> str:
    """SHA-256 of an :class:`ExactHead`'s fields (integers in hexadecimal: no limit on
    their length, linear time).

    >>> _digest((None, 1, ((), ((0, 255),)))) == _digest((None, 1, ((), ((0, 255),))))
    True
    """
    h = hashlib.sha256()
    stack = [body]
    while stack:
        x = stack.pop()
        if type(x) is int:
            h.update(b"%x," % x if x >= 0 else b"-%x," % -x)
        elif isinstance(x, str):
            h.update(b"s%d:" % len(x) + x.encode("utf-8"))
        elif x is None:
            h.update(b"n")
        else:
            h.update(b"(%d" % len(x))
            stack.extend(reversed(x))
    return h.hexdigest()


@dataclass(frozen=True)
class ExactHead:
    """A head's exact data in a compact form: integer numerators over one denominator
    per kind of number (``keys``: sparse rows ``((j, numerator), ...)``).

    What a question task carries instead of the head's thousands of :class:`Fraction`
    objects (pickled in milliseconds, not a second); ``digest`` (SHA-256 of the exact
    data) keys the per-process cache of rebuilt heads, so a worker that answers several
    questions about one head converts it once.

    >>> from attnproof.heads import Atom, Head
    >>> h = Head((Atom((Fraction(1, 2), 0), (3,)), Atom((0, Fraction(-1, 4)), (Fraction(1, 3),))))
    >>> e = ExactHead.of(h, 2)
    >>> e.key_den, e.value_den, e.to_head() == h
    (4, 3, True)
    """

    name: Optional[str]
    dim: int
    keys: tuple
    key_den: int
    biases: tuple
    bias_den: int
    values: tuple
    value_den: int
    weights: tuple
    weight_den: int
    digest: str

    @classmethod
    def of(cls, head, dim: int) -> "ExactHead":
        """The compact exact form of a :class:`~attnproof.heads.Head`."""
        atoms = head.atoms
        dim = int(dim)
        kd = _common_den(c for a in atoms for _, c in a.sparse_key)
        bd = _common_den(a.bias for a in atoms)
        vd = _common_den(v for a in atoms for v in a.value)
        wd = _common_den(a.weight for a in atoms)
        keys = tuple(tuple((j, c.numerator * (kd // c.denominator)) for j, c in a.sparse_key)
                     for a in atoms)
        biases = tuple(a.bias.numerator * (bd // a.bias.denominator) for a in atoms)
        values = tuple(tuple(v.numerator * (vd // v.denominator) for v in a.value) for a in atoms)
        weights = tuple(a.weight.numerator * (wd // a.weight.denominator) for a in atoms)
        body = (head.name, dim, keys, kd, biases, bd, values, vd, weights, wd)
        return cls(*body, _digest(body))

    def to_head(self):
        """The :class:`~attnproof.heads.Head` again (exactly the same numbers)."""
        from ..heads import Atom, Head

        kd, bd, vd, wd = self.key_den, self.bias_den, self.value_den, self.weight_den
        atoms = tuple(Atom._trusted(self.dim, tuple((j, Fraction(c, kd)) for j, c in k),
                                    tuple(Fraction(v, vd) for v in vals), Fraction(b, bd),
                                    Fraction(w, wd))
                      for k, b, vals, w in zip(self.keys, self.biases, self.values, self.weights))
        return Head(atoms, name=self.name)


_HEAD_CACHE: "OrderedDict[str, Any]" = OrderedDict()
HEAD_CACHE_SIZE = 32


def _cached_head(e: ExactHead):
    """The head of ``e``, rebuilt once per process (keyed by its digest, least recently used out)."""
    h = _HEAD_CACHE.get(e.digest)
    if h is None:
        h = e.to_head()
        _HEAD_CACHE[e.digest] = h
        while len(_HEAD_CACHE) > HEAD_CACHE_SIZE:
            _HEAD_CACHE.popitem(last=False)
    else:
        _HEAD_CACHE.move_to_end(e.digest)
    return h


def prove_heads(heads: Sequence[ExactHead], dim: int, cert_path: str, max_atoms: Optional[int],
                explicit_fusion_limit: int) -> dict:
    """:func:`prove_question` on the multi-head of ``heads`` (compact exact forms; a task
    for :func:`attnproof.parallel.executor.map_tasks`).  Every certificate is still complete:
    only the conversion of each head to exact objects is shared between questions."""
    M = MultiHead(tuple(_cached_head(e) for e in heads), dim=dim)
    return prove_question(M, cert_path, max_atoms, explicit_fusion_limit)


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

    def __repr__(self) -> str:
        """Short: the layer, the heads and how many questions were answered."""
        from ..display import fields_repr

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

    @property
    def answered(self) -> int:
        """Questions whose minimum was proven."""
        qs = self.pairs + ([self.layer] if self.layer else [])
        return sum(1 for q in qs if q.get("minimum") is not None)

    @property
    def questions(self) -> int:
        return len(self.pairs) + (1 if self.layer else 0)

    def to_json(self) -> dict:
        """The report document (JSON vocabulary; counts >= 2^53 as decimal strings)."""
        from ..certificate.build import encode_count

        def enc(q: dict) -> dict:
            d = dict(q)
            for k in ("lower_bound", "upper_bound", "minimum", "product"):
                if d.get(k) is not None:
                    d[k] = encode_count(int(d[k]))
            d["heads"] = list(d["heads"])
            return d

        return {"format": REPORT_FORMAT, "version": 1, "model": self.meta.get("model"),
                "layer": self.meta.get("layer"), "position": self.meta.get("position"),
                "tokens": self.meta.get("tokens"), "domain": self.domain,
                "arithmetic": self.arithmetic, "heads": list(self.heads),
                "head_atoms": {str(h): n for h, n in self.atoms.items()},
                "pairs": [enc(q) for q in self.pairs],
                "layer_question": enc(self.layer) if self.layer else None,
                "complete": self.answered == self.questions,
                "elapsed_s": round(self.elapsed_s, 3)}

    def to_markdown(self) -> str:
        """A Markdown page: the pairwise matrix, the table of questions, the layer."""
        from ..checker import show_count

        def sc(v: Any) -> str:
            return "?" if v is None else show_count(int(v))

        meta = self.meta
        lines = [f"# Merge report: {meta.get('model', 'model')}, layer {meta.get('layer', '?')}, "
                 f"query position {meta.get('position', '?')}", "",
                 f"Domain `{self.domain}`, `{self.arithmetic}` arithmetic from the exact binary "
                 f"values of the captured floats; heads {', '.join(map(str, self.heads))} with "
                 f"{', '.join(str(self.atoms[h]) for h in self.heads)} atoms.", "",
                 "## Minimum atoms of one exact head equal to two heads", "",
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
        lines += ["", "The diagonal shows each head's own atom count (its context rows).", "",
                  "## Questions", "",
                  "| heads | atoms | lower bound | upper bound | minimum | product Π n_h | trust | "
                  "time (s) | certificate |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for q in self.pairs + ([self.layer] if self.layer else []):
            is_layer = q is self.layer
            name = f"layer ({len(q['heads'])} heads)" if is_layer else ",".join(map(str, q["heads"]))
            cert = Path(q["certificate"]).name if q.get("certificate") else \
                (q.get("error", "")[:80] or "-")
            lines.append(f"| {name} | {'+'.join(str(self.atoms[h]) for h in q['heads'])} | "
                         f"{sc(q.get('lower_bound'))} | {sc(q.get('upper_bound'))} | "
                         f"{sc(q.get('minimum'))} | {sc(q.get('product'))} | {q.get('trust')} | "
                         f"{q.get('elapsed_s')} | {cert} |")
        lines += ["", f"{self.answered} of {self.questions} questions answered exactly "
                  f"in {self.elapsed_s:.1f} s.", ""]
        return "\n".join(lines)

    def saving(self) -> tuple[np.ndarray, list[list[str]]]:
        """What the heat map shows: per pair, minimum ÷ product of the heads' atoms, and a label.

        The ratio is 1 when merging saves no atom (the minimum is the product
        Π n_h of the two heads' atom counts, the generic case) and smaller the
        more it saves; where only a lower bound is known the ratio is that of
        the bound (the label says ``≥``); the diagonal is NaN (each head's own
        count is its label).

        >>> rep = MergeReport({}, [0, 1], {0: 3, 1: 4}, "raw", "float64",
        ...                   [{"heads": [0, 1], "minimum": 12, "product": 12}])
        >>> ratio, labels = rep.saving()
        >>> float(ratio[0, 1]), labels[0][1], labels[0][0]
        (1.0, '12 of 12\\nsaves none', '(3)')
        """
        n = len(self.heads)
        ratio = np.full((n, n), np.nan)
        labels = [["?"] * n for _ in range(n)]
        idx = {h: i for i, h in enumerate(self.heads)}
        for i, h in enumerate(self.heads):
            labels[i][i] = f"({self.atoms[h]})"
        for q in self.pairs:
            if len(q.get("heads", ())) != 2 or not q.get("product"):
                continue
            i, j = idx[q["heads"][0]], idx[q["heads"][1]]
            prod = int(q["product"])
            if q.get("minimum") is not None:
                m, at_least = int(q["minimum"]), False
            elif q.get("lower_bound") is not None:
                m, at_least = int(q["lower_bound"]), True
            else:
                continue
            r = m / prod
            saves = prod - m
            if at_least:
                text = f"≥{m} of {prod}\n" + ("saves none" if saves == 0 else f"saves ≤{saves}")
            else:
                text = f"{m} of {prod}\n" + ("saves none" if saves == 0 else f"saves {saves}")
            for a, b in ((i, j), (j, i)):
                ratio[a, b] = r
                labels[a][b] = text
        return ratio, labels

    def heatmap(self, path: str | os.PathLike, title: Optional[str] = None) -> None:
        """A PNG heat map of what merging two heads saves: minimum ÷ product of their atoms."""
        from ..io import atomic_write

        fig = self.heatmap_figure(title)
        import io as _io

        buf = _io.BytesIO()
        fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
        data = buf.getvalue()
        atomic_write(path, lambda f: f.write(data))

    def heatmap_figure(self, title: Optional[str] = None):
        """The matplotlib figure of :meth:`heatmap` (cells: :meth:`saving`)."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        ratio, labels = self.saving()
        n = len(self.heads)
        fig = Figure(figsize=(1.6 + 0.8 * max(n, 4), 0.9 + 0.7 * max(n, 4)))
        FigureCanvasAgg(fig)
        ax = fig.add_subplot(1, 1, 1)
        img = ax.imshow(np.ma.masked_invalid(ratio), cmap="viridis", vmin=0.0, vmax=1.0)
        cb = fig.colorbar(img, ax=ax)
        cb.set_label("minimum ÷ product of the heads' atoms\n(1: merging saves no atom)",
                     fontsize=8)
        ax.set_xticks(range(n), [f"H{h}" for h in self.heads])
        ax.set_yticks(range(n), [f"H{h}" for h in self.heads])
        if n <= 12:
            for i in range(n):
                for j in range(n):
                    r = ratio[i, j]
                    dark = np.isnan(r) or r < 0.6
                    ax.text(j, i, labels[i][j], ha="center", va="center",
                            color="w" if dark and not np.isnan(r) else "k",
                            fontsize=7 if n <= 6 else 5)
        ax.set_title(title or f"{self.meta.get('model', '')} layer {self.meta.get('layer', '?')}: "
                     "what merging two heads saves (diagonal: a head's own atoms)", fontsize=9)
        return fig


def merge_report(cap: Capture, out_dir: str | os.PathLike, heads: Optional[Sequence[int]] = None,
                 domain: Optional[str] = None, arithmetic: str = "float64", layer: bool = True,
                 max_atoms: Optional[int] = None,
                 explicit_fusion_limit: int = DEFAULT_EXPLICIT_LIMIT, spec: Any = None,
                 progress: Progress = None) -> MergeReport:
    """Prove every pair of ``heads`` (all stored heads by default) and, with ``layer``,
    all of them together; write one certificate per question under ``out_dir``.

    ``progress(done, total)`` counts questions.  Results come in the order
    (pairs lexicographically, then the layer) whatever executor ``spec`` runs them.
    """
    from ..parallel.executor import map_tasks
    from ..fusion import DEFAULT_MAX_ATOMS

    t0 = time.monotonic()
    hs = list(cap.heads) if heads is None else [int(h) for h in heads]
    if len(hs) < 2:
        raise InputError("a merge report needs at least two heads")
    if len(set(hs)) != len(hs):
        raise InputError("heads must be distinct")
    if domain is None:
        domain = "layernorm" if cap.has_layernorm else "raw"
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "certificates").mkdir(exist_ok=True)
    except OSError as e:
        raise InputError(f"{e.filename or out}: cannot create the report's folder "
                         f"({e.strerror or e})") from None
    H = {h: head_from_capture(cap, h, domain, arithmetic) for h in hs}
    atoms = {h: H[h].distinct_keys for h in hs}
    questions = [tuple(p) for p in itertools.combinations(hs, 2)]
    if layer and len(hs) > 2:
        questions.append(tuple(hs))
    mx = DEFAULT_MAX_ATOMS if max_atoms is None else max_atoms
    dim = domain_dim(cap, domain)
    E = {h: ExactHead.of(H[h], dim) for h in hs}
    for h in hs:                     # this process answers some questions too (warm-up)
        _HEAD_CACHE[E[h].digest] = H[h]
    tasks = [(tuple(E[h] for h in q), dim,
              str(out / "certificates" / f"{pair_name(q)}.cert.json"), mx, explicit_fusion_limit)
             for q in questions]
    results = map_tasks(prove_heads, tasks, spec=spec, progress=progress)
    rep = MergeReport(meta=dict(cap.meta), heads=hs, atoms=atoms, domain=domain,
                      arithmetic=arithmetic)
    from ..io import atomic_write_text
    for q, task, r in zip(questions, tasks, results):
        if not isinstance(r, dict):             # executor.TaskFailed
            r = {"error": f"task failed: {getattr(r, 'reason', r)}", "lower_bound": None,
                 "upper_bound": None, "minimum": None, "trust": "unknown"}
        text = r.pop("_certificate_text", None)
        if text is not None:                    # written here, wherever the task ran
            atomic_write_text(task[2], text)
        prod = 1
        for h in q:
            prod *= atoms[h]
        d = {"heads": list(q), "product": prod, **r}
        if len(q) == 2:
            rep.pairs.append(d)
        else:
            rep.layer = d
    rep.elapsed_s = time.monotonic() - t0
    return rep


def write_report(rep: MergeReport, out_dir: str | os.PathLike) -> dict:
    """Write ``report.md``, ``report.json`` and ``heatmap.png`` under ``out_dir``; their paths."""
    from ..io import atomic_write_text

    out = Path(out_dir)
    paths = {"markdown": str(out / "report.md"), "json": str(out / "report.json"),
             "heatmap": str(out / "heatmap.png")}
    atomic_write_text(paths["markdown"], rep.to_markdown())
    atomic_write_text(paths["json"], json.dumps(rep.to_json(), sort_keys=True, indent=1) + "\n")
    rep.heatmap(paths["heatmap"])
    return paths
