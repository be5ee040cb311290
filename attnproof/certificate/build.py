"""Build certificates (the untrusted producer; format: docs/certificates.md).

>>> from attnproof.families import sigmoid_sum
>>> cert = build_certificate(sigmoid_sum(2))
>>> cert.doc["claims"], cert.doc["trust"], [s["rule"] for s in cert.doc["steps"]]
({'lower_bound': 4, 'upper_bound': 4, 'minimum': 4, 'window_refutations': []}, 'exact', ['irreducible_factor', 'irreducible_factor', 'newton_blocks', 'explicit_fusion'])
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field

from ..bounds.lower import LowerBound, lower_bound
from ..errors import CertificateError, LimitError
from ..algebra.lattice import Lattice
from ..algebra.sizes import exact_product, fusion_size_bound
from ..fusion import DEFAULT_MAX_ATOMS, ClassProductFusion, ExplicitFusion, Fusion, fuse
from ..io import canonical_json, decimal_string, paused_gc, problem_to_dict
from ..heads import MultiHead
from ..parallel.tasks import MapTasks, Progress
from .steps import lower_bound_steps
from .steps.fusion import explicit_fusion_step, product_fusion_step

__all__ = ["Certificate", "build_certificate", "encode_count", "EXPLICIT_FUSION_LIMIT",
           "FORMAT", "VERSION"]

FORMAT = "attnproof-certificate"
VERSION = 1
EXPLICIT_FUSION_LIMIT = 65536
EXPLICIT_TIE_LIMIT = 4096            # an explicit head that only ties the counted product
EXPLICIT_FUSION_CELLS = 1 << 22       # atoms × (dim + 1) of an explicit head that only ties the product


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


def distinct_key_product(M: MultiHead, hp: list | None = None,
                         lattice: Lattice | None = None) -> int:
    """``Π_h |supp_x(D_h)|``, the distinct keys per head multiplied: what the checker's
    ``product_fusion`` rule counts (no head polynomial is built unless given).

    ``hp``: the head polynomials of ``M`` on ``lattice`` (its
    :class:`~attnproof.algebra.lattice.Lattice`), when both are already built.

    >>> from attnproof.families import sigmoid_sum
    >>> distinct_key_product(sigmoid_sum(20))
    1048576
    """
    if hp is not None and lattice is not None:
        if lattice.has_z:
            from ..algebra.sparse import x_support

            return exact_product(len(x_support(H.den, lattice.dim)) for H in hp)
        # no bias variable: the x support is every monomial
        return exact_product(len(H.den) for H in hp)
    lat = Lattice.of(M)
    d = lat.dim
    return exact_product(len({tuple((v, e) for v, e in lat.sparse_exponent(a) if v < d)
                              for a in h.atoms}) for h in M.heads)


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


def build_certificate(M: MultiHead, explicit: bool = False, max_atoms: int | None = DEFAULT_MAX_ATOMS,
                      explicit_fusion_limit: int = EXPLICIT_FUSION_LIMIT,
                      progress: Progress = None, mapper: MapTasks | None = None,
                      minors: bool = False) -> Certificate:
    """Prove lower and upper bounds for ``M`` and assemble the certificate.

    The upper bound is the best verified fusion of :func:`attnproof.fusion.fuse`,
    embedded when it has at most ``explicit_fusion_limit`` atoms (and is built only
    when its estimated size is within ``max_atoms``); otherwise the named rule
    ``product_fusion``, which the checker counts without building it.
    Long keys (THEORY §9) take the geometry steps of
    :mod:`attnproof.certificate.geometry_steps`; with a direct sum of heads
    whose keys are all vertices, lower and upper bound meet at ``Π_h n_h``.
    ``minors``: when the certified factors include ``x_u + x_v`` (a graph sum, THEORY
    §13), add the ``graph_minors`` step of :mod:`attnproof.bounds.graph_sums` if it
    proves more than the count.
    """
    with paused_gc():                  # millions of small objects that live on: no rescans
        return _build(M, explicit, max_atoms, explicit_fusion_limit, progress, mapper, minors)


def _minor_step(M: MultiHead, lb: LowerBound, upper: int) -> dict | None:
    """The ``graph_minors`` step when it raises ``lb`` (which it then raises), else None."""
    from ..bounds.graph_sums import graph_of_lower_bound, minor_bound_within
    from .steps.graph_sums import graph_minors_step

    if M.has_bias:
        return None
    G = graph_of_lower_bound(lb, M.dim)
    found = None if G is None else minor_bound_within(G)
    if found is None:
        return None
    value, term = found
    if value <= lb.value:
        return None
    if value > upper:
        raise CertificateError(f"graph minors prove {value} atoms, over the fusion's {upper} "
                               "(internal error)")
    lb.notes.append(f"graph minors (THEORY §13): at least {value} atoms, over the count "
                    f"{lb.value} of Newt(Q)")
    lb.value = value
    return graph_minors_step(term)


def _build(M: MultiHead, explicit: bool, max_atoms: int | None, explicit_fusion_limit: int,
           progress: Progress, mapper: MapTasks | None, minors: bool = False) -> Certificate:
    from ..algebra.sparse import head_polys

    lat = Lattice.of(M)
    hp = head_polys(M, lat)             # built once: the bound and the product count share it
    lb = lower_bound(M, explicit=explicit, max_atoms=max_atoms, progress=progress, mapper=mapper,
                     lattice=lat, hp=hp)
    steps = lower_bound_steps(lb)
    prod = distinct_key_product(M, hp, lat)
    fusion = None
    upper = prod
    # the best verified fusion is embedded when it fits: built only when the estimate of
    # its size is within max_atoms and the lower bound leaves room under the embedding limit
    beaten = lb.path == "geometry" and lb.value == prod    # no fusion can beat the product
    upper_note = None
    size = None if beaten or lb.value > explicit_fusion_limit else fusion_size_bound(M)
    if lb.value < prod and not beaten:
        if lb.value > explicit_fusion_limit:
            upper_note = (f"the upper bound is the product fusion, counted without building it: "
                          f"every fusion has at least {lb.value} atoms, over the "
                          f"{explicit_fusion_limit} a certificate embeds")
        elif max_atoms is not None and size is not None and size > max_atoms:
            upper_note = (f"the upper bound is the product fusion, counted without building it: "
                          f"the reduced fusion may have up to {size} atoms (estimated from the "
                          f"head supports), over --max-atoms {max_atoms}; raise it to build it")
    if size is not None and (max_atoms is None or size <= max_atoms):
        f = fuse(M, max_atoms=max_atoms)
        # an explicit head that is no smaller than the counted product is embedded only
        # while it is cheap to re-check (the checker orders its atoms by dense exponents);
        # the class product of long keys (THEORY §9) only when it beats the counted product.
        # Only an embedded fusion is self-checked: one left out costs nothing more
        if f.atoms <= explicit_fusion_limit and (
                f.atoms < prod or (f.atoms == prod and isinstance(f, ExplicitFusion)
                                and f.atoms <= EXPLICIT_TIE_LIMIT
                                and f.entries * (M.dim + 1) <= EXPLICIT_FUSION_CELLS)):
            f.verify()
            fusion, upper = f, f.atoms
        elif f.atoms < prod:
            upper_note = (f"the upper bound is the product fusion: the {f.method} fusion has "
                          f"{f.atoms} atoms, over the {explicit_fusion_limit} a certificate embeds")
    if fusion is not None:
        head = (problem_to_dict(fusion.to_multihead(name=None)) if isinstance(fusion, ClassProductFusion)
                else fusion.to_problem_dict(name=None))["heads"][0]
        steps.append(explicit_fusion_step(head, fusion.order_keys()))
    else:
        steps.append(product_fusion_step())
    if minors:
        step = _minor_step(M, lb, upper)
        if step is not None:
            steps.append(step)
    if lb.value > upper:
        raise CertificateError(f"lower bound {lb.value} exceeds the fusion's {upper} atoms "
                               "(internal error)")
    if lb.path == "geometry":             # long keys: lattice exponents may outgrow the format
        _check_digits(steps)
    pdoc = problem_to_dict(M)
    ptext = canonical_json(pdoc)[:-1]
    doc = {
        "format": FORMAT, "version": VERSION,
        "problem": pdoc, "problem_sha256": hashlib.sha256((ptext + "\n").encode("ascii")).hexdigest(),
        "claims": {"lower_bound": encode_count(lb.value), "upper_bound": encode_count(upper),
                   "minimum": encode_count(upper) if lb.value == upper else None,
                   "window_refutations": []},
        "steps": steps, "trust": lb.trust,
    }
    return Certificate(doc, lb, fusion, upper, (pdoc, ptext), upper_note)
