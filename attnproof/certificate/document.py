"""The certificate document: the one place that writes it (format: docs/certificates.md).

:func:`certificate_document` takes the typed proof objects (the lower-bound
proof, the upper-bound fusion, the window and line refutations) and writes the
steps in the order the checker reads them (lower bound, upper bound,
refutations), the claims and the trust, with the checker's :data:`TRUST_ORDER`.
:func:`assemble` wraps it in a :class:`Certificate`, and :func:`with_refutations`
adds a search's witness and refutations to a certificate already built, from
the typed objects it was built from: nothing reads back a document it wrote.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.bounds import lower_bound
>>> from attnproof.fusion import fuse
>>> M = sigmoid_sum(2)
>>> cert = assemble(M, lower_bound(M), fuse(M))
>>> cert.doc["claims"], cert.doc["trust"], [s["rule"] for s in cert.doc["steps"]]
({'lower_bound': 4, 'upper_bound': 4, 'minimum': 4, 'window_refutations': []}, 'exact', ['irreducible_factor', 'irreducible_factor', 'newton_blocks', 'explicit_fusion'])
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Sequence

from ..bounds.lower import LowerBound
from ..checker import TRUST_ORDER
from ..errors import CertificateError, LimitError
from ..fusion import Fusion
from ..geometry.proof import GeometryProof
from ..heads import MultiHead
from ..io import canonical_json, decimal_string, problem_sha256, problem_to_dict
from .steps import lower_bound_steps
from .steps.fusion import explicit_fusion_step, product_fusion_step
from .steps.geometry import geometry_steps
from .steps.windows import (LineRefutation, WindowRefutation, line_refutation_step,
                            window_refutation_claim, window_refutation_step)

__all__ = ["Certificate", "certificate_document", "assemble", "with_refutations", "encode_count",
           "gap_note", "weakest", "TRUST_ORDER", "FORMAT", "VERSION"]

FORMAT = "attnproof-certificate"
VERSION = 1


def encode_count(n: int) -> int | str:
    """Counts below 2^53 are JSON integers, larger ones decimal strings.

    >>> encode_count(8), encode_count(2 ** 60)
    (8, '1152921504606846976')
    """
    return n if n < (1 << 53) else decimal_string(n)



@dataclass
class Certificate:
    """A certificate document and what the producer knows about it."""

    doc: dict
    lower: LowerBound
    fusion: Fusion | None
    upper: int
    # (doc["problem"] as built, its canonical text): the problem is encoded once, for its
    # hash and for the certificate text, while the document keeps that same problem object
    _problem_text: tuple | None = field(default=None, repr=False, compare=False)
    # why the upper bound is the counted product fusion, when a smaller fusion may exist
    # but was not built (too large to build or to embed); None otherwise
    upper_note: str | None = field(default=None, compare=False)
    # the producer's check needed more than the checker's default work budget: which
    # --max-work re-checks it (attnproof.certificate.self_check)
    check_note: str | None = field(default=None, compare=False)

    @property
    def lower_bound(self) -> int:
        """The proven lower bound."""
        return self.lower.value

    @property
    def upper_bound(self) -> int:
        """The upper bound: atoms of the embedded fusion, or of the counted product fusion."""
        return self.upper

    @property
    def minimum(self) -> int | None:
        """The minimum atom count when the bounds meet, else None."""
        return self.upper if self.lower.value == self.upper else None

    @property
    def trust(self) -> str:
        """The trust level (THEORY §8)."""
        return self.doc["trust"]

    def write(self, path: str | os.PathLike) -> None:
        """Write the canonical text atomically."""
        from ..io import atomic_write_text

        atomic_write_text(path, self.text)

    def __repr__(self) -> str:
        """Short: ``Certificate(lower_bound=8, upper_bound=8, minimum=8, trust='exact')``."""
        return (f"Certificate(lower_bound={self.lower_bound}, upper_bound={self.upper_bound}, "
                f"minimum={self.minimum}, trust={self.trust!r})")

    def _repr_latex_(self) -> str:
        """Notebooks: the proven interval."""
        if self.minimum is not None:
            body = rf"\text{{minimum}} = {self.minimum}"
        else:
            body = rf"{self.lower_bound} \le \text{{minimum}} \le {self.upper_bound}"
        return rf"${body}\quad\text{{(certificate, trust {self.trust})}}$"

    @property
    def text(self) -> str:
        """Canonical JSON text (byte-identical for identical inputs).

        The document is the producer's: change a copy (``copy.deepcopy(cert.doc)``)
        rather than the problem inside it.

        ``LimitError`` when an integer of the certificate (a lattice exponent of
        very long keys) is too long to write: the checker reads at most 2000 digits.
        """
        try:
            return self._text()
        except ValueError as e:
            if "integer string conversion" not in str(e):
                raise
            raise LimitError("the certificate would hold an integer of more than 4300 digits (the "
                             "lattice exponents of these keys); the checker reads at most 2000 "
                             "digits, so no certificate can be written: shorten the keys") from None

    def _text(self) -> str:
        doc = self.doc
        cached = self._problem_text
        if cached is None or doc.get("problem") is not cached[0] or not all(
                type(k) is str for k in doc):
            return canonical_json(doc)
        # what canonical_json(doc) writes, with the problem's text reused: keys sorted
        parts = []
        for k in sorted(doc):
            v = cached[1] if k == "problem" else canonical_json(doc[k])[:-1]
            parts.append(canonical_json(k)[:-1] + ":" + v)
        return "{" + ",".join(parts) + "}\n"

    def summary(self) -> dict:
        """The claims plus trust, for the command line; ``notes`` says how the lower
        bound was counted and, when the bounds differ, the gap between them."""
        c = self.doc["claims"]
        notes = list(self.lower.notes)
        if self.lower.value != self.upper:
            notes.append(gap_note(self.lower.value, self.upper))
        if self.check_note:
            notes.append(self.check_note)
        return {"lower_bound": c["lower_bound"], "upper_bound": c["upper_bound"],
                "minimum": c["minimum"], "trust": self.doc["trust"],
                "complete": self.lower.tight, "path": self.lower.path, "notes": notes}


def gap_note(lower: int, upper: int) -> str:
    """The gap between the bounds, in words.

    >>> gap_note(128 ** 6, 128 ** 12)
    'gap: the minimum lies between the lower and the upper bound, a factor of 2^42.0 (10^12.6) apart'
    >>> gap_note(65534, 65535)
    'gap: the minimum lies between the lower and the upper bound, which differ by 1'
    """
    from math import log2

    if upper < 2 * lower and upper - lower < 10 ** 15:
        return ("gap: the minimum lies between the lower and the upper bound, which differ by "
                f"{upper - lower}")

    def lg(n: int) -> float:
        b = max(n.bit_length() - 60, 0)
        return b + log2(n >> b)

    e = lg(upper) - lg(lower)
    return (f"gap: the minimum lies between the lower and the upper bound, a factor of "
            f"2^{e:.1f} (10^{e * 0.30103:.1f}) apart")



def _check_digits(obj: object) -> None:
    """``LimitError`` when ``obj`` holds an integer longer than the checker reads (``MAX_DIGITS``).

    >>> _check_digits([{"a": [1, 10 ** 1999]}])
    >>> _check_digits([{"a": [1, -10 ** 2000]}])
    Traceback (most recent call last):
    ...
    attnproof.errors.LimitError: the certificate would hold an integer of more than 2000 digits (the lattice exponents of these keys), more than the checker reads: shorten the keys
    """
    from ..checker.limits import MAX_DIGITS, fits_digits

    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
        elif isinstance(x, int) and not fits_digits(x):
            raise LimitError(f"the certificate would hold an integer of more than {MAX_DIGITS} "
                             "digits (the lattice exponents of these keys), more than the checker "
                             "reads: shorten the keys")


def weakest(*levels: str) -> str:
    """The weakest of trust levels (:data:`TRUST_ORDER`, the checker's, strongest first).

    >>> weakest("exact", "line-refuted", "window-refuted")
    'line-refuted'
    """
    return max(levels, key=TRUST_ORDER.index)


def certificate_document(M: MultiHead, lower: LowerBound | GeometryProof, fusion: Fusion | None,
                         upper: int, windows: Sequence[WindowRefutation] = (),
                         line: LineRefutation | None = None,
                         problem: tuple[dict, str] | None = None) -> dict:
    """The certificate document of ``M``: every certificate is written here.

    ``lower``: the lower-bound proof (a :class:`~attnproof.bounds.LowerBound`, or the
    :class:`~attnproof.geometry.proof.GeometryProof` of THEORY §9 alone, trust
    ``exact``); ``fusion``: the embedded upper-bound fusion, or None for the counted
    product fusion of ``upper`` atoms; ``windows``, ``line``: refutations that weaken
    the trust and, for a line refutation, raise the lower bound to ``line.atoms + 1``.
    ``problem``: the problem document of ``M`` and its canonical text (no newline),
    when already written.
    """
    if isinstance(lower, GeometryProof):
        steps, value, trust, geometric = geometry_steps(lower), lower.lower, "exact", True
    else:
        steps, value, trust = lower_bound_steps(lower), lower.value, lower.trust
        geometric = lower.path == "geometry"
    if fusion is not None:
        upper = fusion.atoms
        steps.append(explicit_fusion_step(fusion))
    else:
        steps.append(product_fusion_step())
    if value > upper:
        raise CertificateError(f"lower bound {value} exceeds the fusion's {upper} atoms "
                               "(internal error)")
    if geometric:                         # long keys: lattice exponents may outgrow the format
        _check_digits(steps)
    pdoc, ptext = problem if problem is not None else _problem_text(M)
    sha = problem_sha256(M, canonical_text=ptext + "\n")
    for w in windows:
        steps.append(window_refutation_step(w))
        trust = weakest(trust, "window-refuted")
    if line is not None:
        factors = [] if isinstance(lower, GeometryProof) else [f[0] for f in lower.factors]
        steps.append(line_refutation_step(line, sha, factors))
        value = max(value, line.atoms + 1)
        trust = weakest(trust, "line-refuted")
    return {"format": FORMAT, "version": VERSION, "problem": pdoc, "problem_sha256": sha,
            "claims": {"lower_bound": encode_count(value), "upper_bound": encode_count(upper),
                       "minimum": encode_count(upper) if value == upper else None,
                       "window_refutations": [window_refutation_claim(w) for w in windows]},
            "steps": steps, "trust": trust}


def _problem_text(M: MultiHead) -> tuple[dict, str]:
    pdoc = problem_to_dict(M)
    return pdoc, canonical_json(pdoc)[:-1]


def assemble(M: MultiHead, lower: LowerBound, fusion: Fusion | None, upper: int | None = None,
             windows: Sequence[WindowRefutation] = (), line: LineRefutation | None = None,
             upper_note: str | None = None) -> Certificate:
    """A :class:`Certificate` of :func:`certificate_document`; its ``lower`` is the bound the
    document claims (raised by a line refutation, with its trust).  ``upper``: the
    counted product fusion's atoms, when ``fusion`` is None."""
    if fusion is not None:
        upper = fusion.atoms
    elif upper is None:
        raise CertificateError("the upper bound needs a fusion or the product count")
    problem = _problem_text(M)
    doc = certificate_document(M, lower, fusion, upper, windows, line, problem)
    claimed = lower.value if line is None else max(lower.value, line.atoms + 1)
    if claimed != lower.value or doc["trust"] != lower.trust:
        lower = replace(lower, value=claimed, trust=doc["trust"])
    return Certificate(doc, lower, fusion, upper, problem, upper_note)


def with_refutations(M: MultiHead, cert: Certificate, witness: Fusion | None = None,
                     windows: Sequence[WindowRefutation] = (),
                     line: LineRefutation | None = None) -> Certificate:
    """``cert`` (built for ``M``) with a search's results: the verified ``witness`` as the
    upper bound when it has fewer atoms, the window refutations and the line refutation."""
    fusion, upper = cert.fusion, cert.upper
    if witness is not None and witness.atoms < upper:
        if witness.multihead != M:
            raise CertificateError("the witness fuses a different problem")
        fusion, upper = witness, witness.atoms
    return assemble(M, cert.lower, fusion, upper, windows, line, cert.upper_note)


