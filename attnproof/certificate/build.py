"""Build certificates (the untrusted producer; format: docs/certificates.md).

>>> from attnproof.families import sigmoid_sum
>>> cert = build_certificate(sigmoid_sum(2))
>>> cert.doc["claims"], cert.doc["trust"], [s["rule"] for s in cert.doc["steps"]]
({'lower_bound': 4, 'upper_bound': 4, 'minimum': 4, 'window_refutations': []}, 'exact', ['irreducible_factor', 'irreducible_factor', 'newton_blocks', 'explicit_fusion'])
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..bounds.lower import LowerBound, lower_bound, product_entries
from ..bounds.sparse import head_polys, to_json_poly, x_support
from ..errors import CertificateError
from ..fusion import DEFAULT_MAX_ATOMS, Fusion, fuse
from ..io import canonical_json, decimal_string, problem_to_dict
from ..model import MultiHead

__all__ = ["Certificate", "build_certificate", "encode_count", "EXPLICIT_FUSION_LIMIT",
           "FORMAT", "VERSION"]

FORMAT = "attnproof-certificate"
VERSION = 1
EXPLICIT_FUSION_LIMIT = 4096
EXPLICIT_FUSION_CELLS = 1 << 22       # atoms × (dim + 1) of an explicit head that only ties the product
Progress = Optional[Callable[[int, int], None]]


def encode_count(n: int) -> int | str:
    """Counts below 2^53 are JSON integers, larger ones decimal strings.

    >>> encode_count(8), encode_count(2 ** 60)
    (8, '1152921504606846976')
    """
    return n if n < (1 << 53) else decimal_string(n)


def _rational_poly(p: dict) -> list:
    from ..io import format_number
    terms = sorted(([list(pr) for pr in m], c) for m, c in p.items())
    return [[format_number(c), m] for m, c in terms]


@dataclass
class Certificate:
    """A certificate document and what the producer knows about it."""

    doc: dict
    lower: LowerBound
    fusion: Fusion | None
    upper: int

    @property
    def text(self) -> str:
        """Canonical JSON text (byte-identical for identical inputs)."""
        return canonical_json(self.doc)

    def summary(self) -> dict:
        """The claims plus trust, for the command line."""
        c = self.doc["claims"]
        return {"lower_bound": c["lower_bound"], "upper_bound": c["upper_bound"],
                "minimum": c["minimum"], "trust": self.doc["trust"],
                "tight_lower_bound": self.lower.tight, "path": self.lower.path}


def _lower_steps(lb: LowerBound) -> list:
    steps: list[dict[str, Any]] = []
    if lb.path == "c3":
        P, Q = lb.reduced
        steps.append({"rule": "reduced_by_flint",
                      "numerator": [_rational_poly(p) if p else [] for p in P],
                      "denominator": to_json_poly({m: int(c) for m, c in Q.items()})})
    else:
        for poly, mult, wit, comp in lb.factors:
            steps.append({"rule": "irreducible_factor", "poly": to_json_poly(poly),
                          "witness": dict(wit), "residue_component": comp})
    blocks = []
    for b in lb.blocks:
        bd: dict[str, Any] = {"factors": list(b.factors), "method": b.method}
        if b.method == "vertices":
            bd["vertices"] = [[list(u), list(c)] for u, c in b.vertices]
        blocks.append(bd)
    steps.append({"rule": "newton_blocks", "blocks": blocks})
    return steps


def build_certificate(M: MultiHead, explicit: bool = False, max_atoms: int | None = DEFAULT_MAX_ATOMS,
                      explicit_fusion_limit: int = EXPLICIT_FUSION_LIMIT,
                      progress: Progress = None) -> Certificate:
    """Prove lower and upper bounds for ``M`` and assemble the certificate.

    The upper bound is an explicit fusion (the cheapest of :func:`attnproof.fusion.fuse`)
    when the product fusion has at most ``explicit_fusion_limit`` atoms and it
    beats the product count; otherwise the named rule ``product_fusion``.
    """
    hp = head_polys(M)
    lb = lower_bound(M, explicit=explicit, max_atoms=max_atoms, progress=progress, hp=hp)
    steps = _lower_steps(lb)
    prod = 1
    for H in hp:
        prod *= len(x_support(H.den, M.dim))
    fusion = None
    upper = prod
    if product_entries(hp) <= explicit_fusion_limit:
        f = fuse(M, max_atoms=max_atoms)
        # an explicit head that is no smaller than the counted product is embedded only
        # while it is cheap to re-check (the checker orders its atoms by dense exponents)
        if f.atoms < prod or (f.atoms == prod and f.entries * (M.dim + 1) <= EXPLICIT_FUSION_CELLS):
            fusion, upper = f, f.atoms
    if fusion is not None:
        head = fusion.to_problem_dict(name=None)["heads"][0]
        exps = fusion.order_keys()
        head["atoms"] = [a for _, a in sorted(zip(exps, head["atoms"]), key=lambda t: t[0])]
        steps.append({"rule": "explicit_fusion", "head": head})
    else:
        steps.append({"rule": "product_fusion"})
    if lb.value > upper:
        raise CertificateError(f"lower bound {lb.value} exceeds the fusion's {upper} atoms "
                               "(internal error)")
    pdoc = problem_to_dict(M)
    doc = {
        "format": FORMAT, "version": VERSION,
        "problem": pdoc, "problem_sha256": hashlib.sha256(canonical_json(pdoc).encode("ascii")).hexdigest(),
        "claims": {"lower_bound": encode_count(lb.value), "upper_bound": encode_count(upper),
                   "minimum": encode_count(upper) if lb.value == upper else None,
                   "window_refutations": []},
        "steps": steps, "trust": lb.trust,
    }
    return Certificate(doc, lb, fusion, upper)
