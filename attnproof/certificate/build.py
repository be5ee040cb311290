"""Build certificates (the untrusted producer; format: docs/certificates.md).

>>> from attnproof.families import sigmoid_sum
>>> cert = build_certificate(sigmoid_sum(2))
>>> cert.doc["claims"], cert.doc["trust"], [s["rule"] for s in cert.doc["steps"]]
({'lower_bound': 4, 'upper_bound': 4, 'minimum': 4, 'window_refutations': []}, 'exact', ['irreducible_factor', 'irreducible_factor', 'newton_blocks', 'explicit_fusion'])
"""

from __future__ import annotations

from ..algebra.lattice import Lattice
from ..algebra.sizes import exact_product, fusion_size_bound
from ..algebra.sparse import head_polys, x_support
from ..bounds.lower import LowerBound, lower_bound
from ..fusion import DEFAULT_MAX_ATOMS, ExplicitFusion, Fusion, fuse
from ..heads import MultiHead
from ..io import paused_gc
from ..parallel.tasks import MapTasks, Progress
from .document import Certificate, assemble, encode_count  # noqa: F401  (encode_count: its old home)

__all__ = ["build_certificate", "distinct_key_product", "EXPLICIT_FUSION_LIMIT"]

EXPLICIT_FUSION_LIMIT = 65536
EXPLICIT_TIE_LIMIT = 4096            # an explicit head that only ties the counted product
EXPLICIT_FUSION_CELLS = 1 << 22       # atoms × (dim + 1) of an explicit head that only ties the product


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
            return exact_product(len(x_support(H.den, lattice.dim)) for H in hp)
        # no bias variable: the x support is every monomial
        return exact_product(len(H.den) for H in hp)
    lat = Lattice.of(M)
    d = lat.dim
    return exact_product(len({tuple((v, e) for v, e in lat.sparse_exponent(a) if v < d)
                              for a in h.atoms}) for h in M.heads)


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
    §13), raise the lower bound by the ``graph_minors`` step of
    :mod:`attnproof.bounds.graph_sums` when it proves more than the count.
    """
    with paused_gc():                  # millions of small objects that live on: no rescans
        return _build(M, explicit, max_atoms, explicit_fusion_limit, progress, mapper, minors)


def _raise_by_minors(M: MultiHead, lb: LowerBound) -> None:
    """Raise ``lb`` (path ``c1``, no biases) by the graph minors of its factors, when they
    prove more than the count: its ``minors`` term becomes the ``graph_minors`` step."""
    from ..bounds.graph_sums import graph_of_lower_bound, minor_bound_within

    if M.has_bias or lb.sub_sum is not None:    # a sub-sum: the checker keeps fewer factors
        return
    G = graph_of_lower_bound(lb, M.dim)
    found = None if G is None else minor_bound_within(G)
    if found is None or found[0] <= lb.value:
        return
    lb.notes.append(f"graph minors (THEORY §13): at least {found[0]} atoms, over the count "
                    f"{lb.value} of Newt(Q)")
    lb.value, lb.minors = found


def _raise_by_edges(M: MultiHead, lb: LowerBound, prod: int) -> None:
    """Raise ``lb`` by the edges of the bound factors whose polynomial has two or more
    negative roots (docs/theory.md Theorem 10.1), when its count is below the product
    ``prod``: the ``edge_roots`` step follows the count."""
    from ..bounds.edges import edge_roots_step

    if lb.value >= prod or lb.sub_sum is not None or lb.floor is not None or (
            lb.geometry is not None and lb.geometry.sub_sum is not None):
        return
    step = edge_roots_step(M, lb)
    if step is None:
        return
    raised = min(step["lower_bound"], prod)
    if raised != step["lower_bound"]:      # never above a fusion: a producer bug, not a bound
        return
    lb.notes.append(f"edge roots (docs/theory.md Theorem 10.1): at least {raised} atoms, over "
                    f"the count {lb.value} of Newt(Q) ({len(step['edges'])} edges)")
    lb.value, lb.edges = raised, step


def _build(M: MultiHead, explicit: bool, max_atoms: int | None, explicit_fusion_limit: int,
           progress: Progress, mapper: MapTasks | None, minors: bool = False) -> Certificate:
    lat = Lattice.of(M)
    hp = head_polys(M, lat)             # built once: the bound and the product count share it
    lb = lower_bound(M, explicit=explicit, max_atoms=max_atoms, progress=progress, mapper=mapper,
                     lattice=lat, hp=hp)
    prod = distinct_key_product(M, hp, lat)
    _raise_by_edges(M, lb, prod)
    fusion, upper_note = _upper_fusion(M, lb.value, lb.path == "geometry" and lb.value == prod,
                                       prod, max_atoms, explicit_fusion_limit)
    if minors:                # after the fusion is chosen: the same fusion with or without
        _raise_by_minors(M, lb)
    return assemble(M, lb, fusion, prod, upper_note=upper_note)


def _upper_fusion(M: MultiHead, lower: int, beaten: bool, prod: int, max_atoms: int | None,
                  explicit_fusion_limit: int) -> tuple[Fusion | None, str | None]:
    """The fusion to embed (None: the counted product fusion of ``prod`` atoms), and why a
    smaller fusion than the product may exist but is not embedded (or None).

    The best verified fusion is embedded when it fits: built only when the estimate of
    its size is within ``max_atoms`` and the lower bound leaves room under the embedding
    limit; ``beaten``: no fusion can beat the product (long keys whose bound meets it).
    """
    upper_note = None
    size = None if beaten or lower > explicit_fusion_limit else fusion_size_bound(M)
    if lower < prod and not beaten:
        if lower > explicit_fusion_limit:
            upper_note = (f"the upper bound is the product fusion, counted without building it: "
                          f"every fusion has at least {lower} atoms, over the "
                          f"{explicit_fusion_limit} a certificate embeds")
        elif max_atoms is not None and size is not None and size > max_atoms:
            upper_note = (f"the upper bound is the product fusion, counted without building it: "
                          f"the reduced fusion may have up to {size} atoms (estimated from the "
                          f"head supports), over --max-atoms {max_atoms}; raise it to build it")
    if size is None or (max_atoms is not None and size > max_atoms):
        return None, upper_note
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
        return f, upper_note
    if f.atoms < prod:
        upper_note = (f"the upper bound is the product fusion: the {f.method} fusion has "
                      f"{f.atoms} atoms, over the {explicit_fusion_limit} a certificate embeds")
    return None, upper_note
