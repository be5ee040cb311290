"""Pictures of Newton polytopes: the reduced denominator, the best fusion, the product.

The geometry is exact: supports are integer exponent vectors (lattice units,
THEORY §2), the affine hull is found by exact Gaussian elimination and the
convex hulls in two and three dimensions by exact integer orientation tests.
Floats appear only in the drawing coordinates.  matplotlib is imported only
when a picture is actually drawn (:func:`draw_newton`), with the Agg canvas,
so importing this module is cheap and needs no display.

A polytope whose affine hull has dimension at most 3 (for example the
permutohedron of a graph sum, which lies in a hyperplane) is drawn in key
coordinates that are injective on that hull (:func:`affine_frame`): every
drawn point maps back to one key, the coordinates not drawn following from
those drawn, and each vertex is labelled with its key (or its monomial in
higher dimensions).  Higher dimensional polytopes are drawn through a
coordinate projection (``project``).

>>> from attnproof.families import sigmoid_sum
>>> pic = newton_picture(sigmoid_sum(3))
>>> (pic.affine_dim, len(pic.vertices), len(pic.fusion_support), len(pic.product_support))
(3, 8, 8, 8)
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Sequence

from .errors import AlgebraError, InputError
from .io import atomic_write
from .fusion import DEFAULT_MAX_ATOMS, ExplicitFusion, SparseFusion, fuse, product_fusion, reduced_form
from .geometry.hull import hull_2d
from .heads import MultiHead

__all__ = ["affine_frame", "hull_2d", "hull_3d", "NewtonPicture", "newton_picture",
           "draw_newton", "newton_figure", "parse_projection"]

Point = tuple[int, ...]


def affine_frame(points: Sequence[Point]) -> tuple[int, tuple[int, ...]]:
    """Affine dimension of a point set and coordinates that are injective on its affine hull.

    Projecting onto the returned coordinates is an affine bijection of the
    affine hull onto its image, so it preserves faces and vertices.

    >>> affine_frame([(2, 1, 0), (1, 2, 0), (0, 2, 1), (0, 1, 2), (1, 0, 2), (2, 0, 1)])
    (2, (0, 1))
    >>> affine_frame([(0, 0), (1, 1), (2, 2)])
    (1, (0,))
    """
    if not points:
        return 0, ()
    p0 = points[0]
    d = len(p0)
    pivots: list[int] = []
    basis: list[list[int]] = []
    # fraction-free elimination in integers (rows scaled by their gcd), stopping as soon as
    # the rank is full: W_16's 65536 points took 100 s with Fractions and no early stop
    for p in points[1:]:
        if len(pivots) == d:
            break
        r = [a - b for a, b in zip(p, p0)]
        for piv, b in zip(pivots, basis):
            if r[piv]:
                f, g = r[piv], b[piv]
                r = [g * x - f * y for x, y in zip(r, b)]
                c = 0
                for x in r:
                    c = math.gcd(c, x)
                if c > 1:
                    r = [x // c for x in r]
        nz = [j for j, x in enumerate(r) if x]
        if nz:
            pivots.append(nz[0])
            basis.append(r)
    return len(pivots), tuple(sorted(pivots))


def _sub(a: Point, b: Point) -> Point:
    return tuple(x - y for x, y in zip(a, b))


def _cross3(u: Point, v: Point) -> Point:
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def _dot(u: Sequence[int], v: Sequence[int]) -> int:
    return sum(a * b for a, b in zip(u, v))


def _orient(a: Point, b: Point, c: Point, p: Point) -> int:
    """Sign-carrying volume ``det(b − a, c − a, p − a)``: > 0 when ``p`` sees the face ``abc``."""
    return _dot(_cross3(_sub(b, a), _sub(c, a)), _sub(p, a))


def _initial_simplex(pts: Sequence[Point]) -> tuple[Point, Point, Point, Point] | None:
    a = pts[0]
    b = next((p for p in pts if p != a), None)
    if b is None:
        return None
    c = next((p for p in pts if _cross3(_sub(b, a), _sub(p, a)) != (0, 0, 0)), None)
    if c is None:
        return None
    d = next((p for p in pts if _orient(a, b, c, p) != 0), None)
    return None if d is None else (a, b, c, d)


def _primitive(v: Sequence[int]) -> tuple[int, ...]:
    g = 0
    for x in v:
        g = math.gcd(g, x)
    return tuple(x // g for x in v) if g else tuple(v)


def hull_3d(points: Sequence[Point]) -> tuple[list[Point], list[list[Point]]]:
    """Vertices and facets (each a cyclic list of vertices) of a full-dimensional 3-D hull.

    Exact incremental construction over integer points: a triangulated
    boundary with outward orientation; a new point removes the faces it sees
    strictly and is joined to their horizon.  Coplanar triangles are then
    merged into polygon facets by a 2-D hull (which also drops points in the
    middle of an edge or a facet).

    >>> cube = [(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)]
    >>> vs, fs = hull_3d(cube + [(0, 0, 0), (1, 1, 0)])
    >>> len(vs), len(fs), sorted(len(f) for f in fs)
    (8, 6, [4, 4, 4, 4, 4, 4])
    """
    pts = sorted(set(points))
    simplex = _initial_simplex(pts)
    if simplex is None:
        raise InputError("hull_3d needs points that span three dimensions")
    a, b, c, d = simplex
    faces: set[tuple[Point, Point, Point]] = set()
    for f, other in (((a, b, c), d), ((a, b, d), c), ((a, c, d), b), ((b, c, d), a)):
        faces.add(f if _orient(*f, other) < 0 else (f[0], f[2], f[1]))
    for p in pts:
        visible = [f for f in faces if _orient(*f, p) > 0]
        if not visible:
            continue
        edges = {(f[i], f[(i + 1) % 3]) for f in visible for i in range(3)}
        horizon = [(u, v) for u, v in edges if (v, u) not in edges]
        faces.difference_update(visible)
        faces.update((u, v, p) for u, v in horizon)
    planes: dict[tuple, set[Point]] = {}
    for f in faces:
        nrm = _primitive(_cross3(_sub(f[1], f[0]), _sub(f[2], f[0])))
        planes.setdefault((nrm, _dot(nrm, f[0])), set()).update(f)
    out_facets: list[list[Point]] = []
    verts: set[Point] = set()
    for (nrm, _), on in planes.items():
        drop = max(range(3), key=lambda t: abs(nrm[t]))
        keep = [t for t in range(3) if t != drop]
        proj = {tuple(q[t] for t in keep): q for q in on}
        ring = [proj[q] for q in hull_2d(list(proj))]
        out_facets.append(ring)
        verts.update(ring)
    out_facets.sort()
    return sorted(verts), out_facets


def parse_projection(text: str | None, dim: int) -> tuple[int, ...] | None:
    """Parse ``--project 0,1`` (two or three distinct coordinates, 0-based).

    >>> parse_projection("0,2", 3)
    (0, 2)
    >>> parse_projection("0,5", 3)
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: --project: coordinate 5 is out of range (the problem has dim 3, coordinates 0..2)
    """
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")]
    try:
        coords = tuple(int(p) for p in parts)
    except ValueError:
        raise InputError(f"--project: expected comma-separated coordinates such as 0,1, got {text!r}") from None
    if len(coords) not in (2, 3) or len(set(coords)) != len(coords):
        raise InputError(f"--project: give two or three distinct coordinates, got {text!r}")
    for c in coords:
        if not 0 <= c < dim:
            raise InputError(f"--project: coordinate {c} is out of range "
                             f"(the problem has dim {dim}, coordinates 0..{dim - 1})")
    return coords


@dataclass(frozen=True)
class NewtonPicture:
    """Everything a Newton polytope picture shows, computed exactly (no drawing).

    ``support`` is ``supp_x(Q)`` of the reduced denominator, ``vertices`` the
    vertices of the drawn polytope, ``facets``/``edges`` its faces (in the drawn
    chart), ``fusion_support`` the keys of the best cheap fusion and
    ``product_support`` those of the product fusion, all in lattice units.
    ``coords`` are the coordinates used for the chart; ``projected`` is True
    when a coordinate projection of a higher-dimensional polytope is drawn
    (its vertices are then those of the shadow, not of ``Newt(Q)``).
    ``negative`` lists the support points where ``Q`` has a negative
    coefficient (only without biases, where coefficients are integers).
    """

    dim: int
    scales: tuple[int, ...]
    support: tuple[Point, ...]
    vertices: tuple[Point, ...]
    edges: tuple[tuple[Point, Point], ...]
    facets: tuple[tuple[Point, ...], ...]
    fusion_support: tuple[Point, ...]
    fusion_method: str
    product_support: tuple[Point, ...]
    affine_dim: int
    coords: tuple[int, ...]
    projected: bool
    negative: tuple[Point, ...] = ()

    @property
    def chart_dim(self) -> int:
        """Dimension of the drawing (0 to 3)."""
        return len(self.coords)

    def key_label(self, p: Point) -> str:
        """The key of a lattice point, exactly: ``(1, 0, 1/2)`` up to dimension 4, else the
        monomial of its non-zero coordinates in ``x_j = e^{q_j}`` (``x1^2·x3``).

        >>> from attnproof.families import sigmoid_sum
        >>> pic = newton_picture(sigmoid_sum(2))
        >>> pic.key_label((1, 0)), newton_picture(sigmoid_sum(5)).key_label((1, 0, 2, 0, 0))
        ('(1, 0)', 'x1·x3^2')
        """
        from fractions import Fraction

        key = [Fraction(x, s) for x, s in zip(p, self.scales)]
        if self.dim <= 4:
            return "(" + ", ".join(str(k) for k in key) + ")"
        parts = [f"x{j + 1}" + ("" if k == 1 else f"^{k}") for j, k in enumerate(key) if k]
        return "·".join(parts) or "1"

    def vertex_labels(self) -> list[str]:
        """:meth:`key_label` of every vertex, in the order of ``vertices``."""
        return [self.key_label(v) for v in self.vertices]


def _true_support(frac) -> list[Point]:
    d = frac.lattice.dim
    return sorted({tuple(e[:d]) for e, _, _ in frac.terms()})


def newton_picture(M: MultiHead, project: Sequence[int] | None = None,
                   max_atoms: int | None = DEFAULT_MAX_ATOMS) -> NewtonPicture:
    """Compute the data of the Newton polytope picture of ``M`` (exact, no matplotlib).

    >>> import networkx as nx
    >>> from attnproof.families import graph_sum
    >>> pic = newton_picture(graph_sum(nx.complete_graph(3)))
    >>> (pic.affine_dim, len(pic.vertices), len(pic.support), len(pic.edges), pic.projected)
    (2, 6, 7, 6, False)
    """
    r = reduced_form(M, max_atoms)
    support = _true_support(r.frac)
    negative = () if r.lattice.has_z else tuple(sorted(e for e, c, _ in r.frac.terms() if c < 0))
    f = fuse(M, max_atoms)
    if not isinstance(f, (ExplicitFusion, SparseFusion)):
        # reduced_form above needs FLINT, and then fuse gives N/D as FLINT polynomials
        raise AlgebraError(f"the {f.method} fusion has no polynomial form (internal error)")
    prod = product_fusion(M, max_atoms)
    fus, prs = _true_support(f.frac), _true_support(prod.frac)
    adim, frame = affine_frame(support)
    if project is not None:
        coords = tuple(project)
        projected = True
    elif adim <= 3:
        coords = frame
        projected = False
    else:
        coords = tuple(range(3))
        projected = True
    proj = sorted({tuple(p[c] for c in coords) for p in support})
    pdim = affine_frame(proj)[0]
    lift: dict[Point, Point] = {}
    for p in support:
        lift.setdefault(tuple(p[c] for c in coords), p)
    edges: list[tuple[Point, Point]] = []
    facets: list[tuple[Point, ...]] = []
    if pdim == 0:
        vs = proj[:1]
    elif pdim == 1:
        vs = [proj[0], proj[-1]]
        edges = [(proj[0], proj[-1])]
    elif pdim == 2 and len(coords) == 2:
        vs = hull_2d(proj)
        facets = [tuple(vs)]
    elif pdim == 2:
        # a planar shadow inside a 3-D chart: hull it in two coordinates that frame it
        _, sub = affine_frame(proj)
        m = {tuple(p[c] for c in sub): p for p in proj}
        vs = [m[q] for q in hull_2d(list(m))]
        facets = [tuple(vs)]
    else:
        vs, fl = hull_3d(proj)
        facets = [tuple(f_) for f_ in fl]
    if facets:
        es = set()
        for ring in facets:
            for a, b in zip(ring, ring[1:] + ring[:1]):
                es.add((min(a, b), max(a, b)))
        edges = sorted(es)
    # back to lattice points: exact when the chart is injective on the affine hull; for
    # a shadow, any point over the projected one (the drawing only uses the projection)
    vs = [lift[v] for v in vs]
    edges = [(lift[a], lift[b]) for a, b in edges]
    facets = [tuple(lift[v] for v in ring) for ring in facets]
    return NewtonPicture(M.dim, r.lattice.scales, tuple(support), tuple(vs), tuple(edges),
                         tuple(facets), tuple(fus), f.method, tuple(prs), adim, coords, projected,
                         negative)


MAX_VERTEX_LABELS = 32      # more vertices than this are drawn without their keys


def _chart(pic: NewtonPicture):
    """The drawing coordinates of a lattice point (key units, the coordinates ``pic.coords``).

    The coordinates are injective on the affine hull (or a chosen projection), so a
    drawn point is a key: the coordinates not drawn follow from the drawn ones.

    >>> import networkx as nx
    >>> from attnproof.families import graph_sum
    >>> pic = newton_picture(graph_sum(nx.complete_graph(3)))
    >>> chart, dim = _chart(pic)
    >>> pic.coords, chart((2, 1, 0)), dim
    ((0, 1), [2.0, 1.0], 2)
    """
    scale = [1.0 / s for s in pic.scales]
    return (lambda p: [p[c] * scale[c] for c in pic.coords]), pic.chart_dim


def draw_newton(pic: NewtonPicture, path: str | os.PathLike, title: str | None = None) -> None:
    """Draw a :class:`NewtonPicture` to an image file (PNG, or SVG/PDF by extension; written atomically).

    The polytope is shaded with its vertices as large dots; every point of
    ``supp_x(Q)`` is a small dot, the best fusion's keys are rings and the
    product fusion's keys small crosses; hollow squares mark negative
    coefficients of ``Q`` (which rule out the fusion ``G = 1``).  Vertices are
    labelled with their keys (:meth:`NewtonPicture.vertex_labels`, up to
    :data:`MAX_VERTEX_LABELS` of them).

    >>> import tempfile, os
    >>> from attnproof.families import sigmoid_sum
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     draw_newton(newton_picture(sigmoid_sum(2)), os.path.join(tmp, "w2.png"))
    ...     open(os.path.join(tmp, "w2.png"), "rb").read(4)
    b'\x89PNG'
    """
    fig = newton_figure(pic, title)
    fmt = plot_format(path)
    atomic_write(path, lambda fh: fig.savefig(fh, format=fmt))


def newton_figure(pic: NewtonPicture, title: str | None = None):
    """The matplotlib figure that :func:`draw_newton` saves.

    >>> from attnproof.families import sigmoid_sum
    >>> fig = newton_figure(newton_picture(sigmoid_sum(2)))
    >>> sorted(t.get_text() for t in fig.axes[0].texts)
    ['(0, 0)', '(0, 1)', '(1, 0)', '(1, 1)']
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    chart, cdim = _chart(pic)
    fig = Figure(figsize=(6.4, 5.6), dpi=100)
    FigureCanvasAgg(fig)
    three = cdim == 3
    # ax3: the same axes as Axes3D (mpl_toolkits is untyped), for the calls only 3D axes have
    ax3 = fig.add_subplot(projection="3d") if three else None
    ax: Axes = ax3 if ax3 is not None else fig.add_subplot()
    width = 3 if three else 2

    def xy(points):
        rows = [chart(p) for p in points]
        rows = [r + [0.0] * (width - len(r)) for r in rows]
        return [list(c) for c in zip(*rows)] if rows else [[] for _ in range(width)]

    def scatter(points, label: str, **style) -> None:
        cs = xy(list(points))
        if ax3 is not None:
            ax3.scatter(cs[0], cs[1], cs[2], label=label, **style)
        else:
            ax.scatter(cs[0], cs[1], label=label, **style)

    if ax3 is not None:
        from mpl_toolkits.mplot3d.art3d import Poly3DCollection

        polys = [[chart(v) for v in ring] for ring in pic.facets]
        ax3.add_collection3d(Poly3DCollection(polys, facecolor="tab:blue", alpha=0.15,
                                             edgecolor="tab:blue", linewidth=0.8))
    else:
        for ring in pic.facets:
            cs = xy(list(ring) + [ring[0]])
            ax.fill(cs[0], cs[1], color="tab:blue", alpha=0.15)
    for a, b in pic.edges:
        cs = xy([a, b])
        ax.plot(*cs, color="tab:blue", linewidth=1.5)
    # the product's crosses on top: thin, they hide nothing, and under the dots and rings
    # they were hidden wherever the product shares a key with Q
    scatter(pic.product_support, f"product fusion ({len(pic.product_support)} keys)",
            marker="x", s=18, color="dimgray", zorder=4)
    scatter(pic.fusion_support, f"best fusion, {pic.fusion_method} ({len(pic.fusion_support)} keys)",
            s=120, facecolors="none", edgecolors="tab:green", linewidths=1.5)
    scatter(pic.support, f"supp Q ({len(pic.support)} points)", s=12, color="black")
    if pic.negative:
        scatter(pic.negative, f"negative coefficient in Q ({len(pic.negative)})",
                marker="s", s=70, facecolors="none", edgecolors="black")
    what = "shadow vertices" if pic.projected else "vertices of Newt(Q)"
    scatter(pic.vertices, f"{what} ({len(pic.vertices)})", s=60, color="tab:red", zorder=3)
    if len(pic.vertices) <= MAX_VERTEX_LABELS:
        centre = [sum(c) / len(c) for c in xy(pic.vertices)] if pic.vertices else [0.0] * width
        for v, text in zip(pic.vertices, pic.vertex_labels()):
            c = chart(v) + [0.0] * (width - cdim)
            if ax3 is not None:
                ax3.text(c[0], c[1], c[2], " " + text, fontsize=7, color="tab:red")
            else:
                # outward from the polytope's centre, so that a label on the right edge
                # reads leftward inside the frame, not across it
                right = c[0] >= centre[0] + 1e-9
                up = c[1] >= centre[1] - 1e-9
                ax.annotate(text, (c[0], c[1]), xytext=(-4 if right else 4, 4 if up else -4),
                            textcoords="offset points", fontsize=7, color="tab:red",
                            ha="right" if right else "left", va="bottom" if up else "top")
    names = [f"q{c + 1}" for c in pic.coords]
    rest = ""
    if not pic.projected and pic.affine_dim < pic.dim:
        rest = " (the other coordinates of a key follow on the affine hull)"
    ax.set_xlabel((names[0] if names else "") + rest, fontsize=8 if rest else None)
    if len(names) > 1:
        ax.set_ylabel(names[1])
    if ax3 is not None and len(names) > 2:
        ax3.set_zlabel(names[2])
    every = xy(list(pic.support) + list(pic.fusion_support) + list(pic.product_support))
    lo = [min(c) for c in every]
    hi = [max(c) for c in every]
    half = max(0.5, *((h - l) / 2 for l, h in zip(lo, hi))) * 1.1 + 0.25   # room for the labels
    mid = [(l + h) / 2 for l, h in zip(lo, hi)]
    ax.set_xlim(mid[0] - half, mid[0] + half)
    ax.set_ylim(mid[1] - half, mid[1] + half)
    if ax3 is not None:
        ax3.set_zlim(mid[2] - half, mid[2] + half)
        ax3.set_box_aspect((1, 1, 1))
    else:
        ax.set_aspect("equal")
        ax.grid(True, linewidth=0.3)
    if all(float(x).is_integer() for c in every for x in c):
        # keys on an integer lattice: ticks on lattice points, never at 0.25
        from matplotlib.ticker import MaxNLocator

        for axis in ([ax.xaxis, ax.yaxis] + ([ax3.zaxis] if ax3 is not None else [])):
            axis.set_major_locator(MaxNLocator(integer=True))
    if title is None:
        title = f"Newton polytope of the reduced denominator: {len(pic.vertices)} vertices"
        if pic.projected:
            title = f"Shadow of Newt(Q) on q{', q'.join(str(c + 1) for c in pic.coords)}"
    ax.set_title(title, fontsize=10)
    fig.legend(loc="lower center", ncol=2, fontsize=8, frameon=False)
    fig.subplots_adjust(bottom=0.2)
    return fig


def plot_format(path: str | os.PathLike) -> str:
    """The image format of an output path, by extension: png (default), svg or pdf.

    >>> plot_format("k3.svg"), plot_format("k3.PNG"), plot_format("k3")
    ('svg', 'png', 'png')
    """
    ext = os.path.splitext(str(path))[1].lower().lstrip(".")
    return ext if ext in ("svg", "pdf") else "png"
