"""What every fusion is: the :class:`Fusion` protocol, and :func:`verify_head`, the
exact check of a head against the multi-head it fuses.
"""

from __future__ import annotations

from typing import Iterator, Protocol, runtime_checkable
import random

from ..errors import AlgebraError
from ..heads import Head, MultiHead
from ..algebra.lattice import Lattice
from ..algebra.evaluate import evaluate_head, evaluate_multihead, random_point

__all__ = ["Fusion", "verify_head"]


@runtime_checkable
class Fusion(Protocol):
    """What every fusion of this module offers: an exact single head equal to the multi-head.

    :class:`ExplicitFusion` (``N/D`` as FLINT polynomials), :class:`ClassProductFusion`
    (the product over classes of associate heads, counted without polynomial algebra)
    and :class:`SparseFusion` (one irreducible head, on sparse polynomials) implement it.
    ``atoms`` counts distinct keys, ``entries`` (key, bias) pairs; :meth:`order_keys`
    gives one key per atom of :meth:`to_head` in the order of their lattice exponents;
    :meth:`to_problem_dict` is the fused head as a problem document
    (:mod:`attnproof.io.problem` writes it).

    >>> from attnproof.fusion import fuse
    >>> from attnproof.families import sigmoid_sum
    >>> isinstance(fuse(sigmoid_sum(2)), Fusion)
    True
    """

    @property
    def multihead(self) -> MultiHead: ...

    @property
    def method(self) -> str: ...

    @property
    def lattice(self) -> Lattice: ...

    @property
    def atoms(self) -> int: ...

    @property
    def entries(self) -> int: ...

    def order_keys(self) -> list[tuple]: ...

    def to_head(self, name: str | None = "fused") -> Head: ...

    def to_multihead(self, name: str | None = "fused") -> MultiHead: ...

    def atom_docs(self) -> Iterator[dict]: ...

    def atom_json(self) -> Iterator[str]: ...

    def to_problem_dict(self, name: str | None = "fused") -> dict: ...

    def verify(self, points: int = 2, seed: int = 0) -> None: ...


def verify_head(M: MultiHead, head: Head, points: int = 3, seed: int = 0, max_num: int = 7) -> None:
    """Check ``head == M`` exactly at random positive rational points; raise on a mismatch.

    Both sides are evaluated atom by atom with :class:`Fraction` on the common
    lattice of ``M`` and ``head`` (``z`` is a formal variable, THEORY §2).

    >>> from attnproof.fusion import fuse
    >>> from attnproof.families import sigmoid_sum
    >>> verify_head(sigmoid_sum(2), fuse(sigmoid_sum(2)).to_head())
    >>> verify_head(sigmoid_sum(2), sigmoid_sum(2).heads[0])
    Traceback (most recent call last):
    ...
    attnproof.errors.AlgebraError: the head differs from the multi-head at the point (7/4, 7/4)
    """

    lat = Lattice.of(MultiHead(tuple(M.heads) + (head,), dim=M.dim))
    rng = random.Random(seed)
    for _ in range(points):
        pt = random_point(lat, rng, max_num=max_num)
        if evaluate_head(head, lat, pt) != evaluate_multihead(M, lat, pt):
            shown = ", ".join(str(v) for v in pt)
            raise AlgebraError(f"the head differs from the multi-head at the point ({shown})")
