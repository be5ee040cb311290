"""Newton polytope pictures: exact hulls, the picture data, and ``show --plot/--latex``."""

from __future__ import annotations

import importlib.util
import random
from itertools import product
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnproof.errors import InputError
from attnproof.families import graph_sum, sigmoid_sum
from attnproof.heads import Atom, Head, MultiHead
from attnproof.plot import affine_frame, draw_newton, hull_2d, hull_3d, newton_picture

ROOT = Path(__file__).resolve().parents[1]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _independent():
    spec = importlib.util.spec_from_file_location("_independent", ROOT / "examples" / "_independent.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


points2 = st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=1, max_size=12)


@settings(max_examples=25, deadline=None)
@given(points2)
def test_hull_2d_matches_lp_vertices(pts):
    lp = _independent().vertices_by_lp(pts)
    hv = hull_2d(pts)
    if affine_frame(sorted(set(pts)))[0] == 2:
        assert set(hv) == lp
    else:  # a point or a segment: its end points
        assert set(hv) == lp or (len(set(pts)) == 1 and len(hv) == 1)


def test_hull_2d_is_counter_clockwise():
    ring = hull_2d([(0, 0), (4, 0), (4, 4), (0, 4), (2, 2), (2, 0)])
    assert ring == [(0, 0), (4, 0), (4, 4), (0, 4)]
    area2 = sum(a[0] * b[1] - a[1] * b[0] for a, b in zip(ring, ring[1:] + ring[:1]))
    assert area2 == 32


def test_hull_3d_random_against_lp():
    rng = random.Random(3)
    lp = _independent().vertices_by_lp
    for _ in range(5):
        pts = [tuple(rng.randint(-3, 3) for _ in range(3)) for _ in range(14)]
        if affine_frame(pts)[0] < 3:
            continue
        vs, facets = hull_3d(pts)
        assert set(vs) == lp(pts)
        # Euler's formula for a 3-polytope: V - E + F = 2
        edges = {frozenset(e) for f in facets for e in zip(f, f[1:] + f[:1])}
        assert len(vs) - len(edges) + len(facets) == 2


def test_hull_3d_rejects_flat_points():
    with pytest.raises(InputError):
        hull_3d([(0, 0, 0), (1, 0, 0), (0, 1, 0)])


def test_affine_frame_of_permutohedron_points():
    pts = [tuple(p) for p in {tuple(perm) for perm in product(range(3), repeat=3)} if sorted(p) == [0, 1, 2]]
    assert affine_frame(pts) == (2, (0, 1))


def test_picture_k3_hexagon():
    pic = newton_picture(graph_sum(nx.complete_graph(3)))
    assert (pic.affine_dim, len(pic.vertices), len(pic.support), pic.projected) == (2, 6, 7, False)
    assert len(pic.fusion_support) == 7 and len(pic.product_support) == 7
    assert len(pic.facets) == 1 and len(pic.edges) == 6
    assert all(sum(v) == 3 for v in pic.vertices)          # lies in the hyperplane sum = |E|


def test_picture_k4_truncated_octahedron():
    pic = newton_picture(graph_sum(nx.complete_graph(4)))
    sizes = sorted(len(f) for f in pic.facets)
    assert (len(pic.vertices), len(pic.support), len(pic.edges)) == (24, 38, 36)
    assert sizes == [4] * 6 + [6] * 8


def test_picture_projection_is_a_shadow():
    pic = newton_picture(sigmoid_sum(5), project=(0, 1))
    assert pic.projected and pic.coords == (0, 1) and len(pic.vertices) == 4
    assert len(pic.support) == 32


def test_picture_low_dimensions(tmp_path):
    one = newton_picture(sigmoid_sum(1))
    assert (one.affine_dim, len(one.vertices), len(one.edges)) == (1, 2, 1)
    s = Head((Atom((1,), (1,)), Atom((0,), (0,))))
    t = Head((Atom((1,), (0,)), Atom((0,), (1,))))
    const = newton_picture(MultiHead((s, t)))
    assert (const.affine_dim, len(const.vertices)) == (0, 1)
    for name, pic in (("one", one), ("const", const)):
        out = tmp_path / f"{name}.png"
        draw_newton(pic, out)
        assert out.read_bytes()[:8] == PNG_MAGIC


def test_show_plot_and_latex(run_cli, tmp_path):
    k3 = tmp_path / "k3.json"
    assert run_cli("family", "graph", "--graph", "complete", "--n", "3", "-o", str(k3))[0] == 0
    png = tmp_path / "k3.png"
    rc, out, err = run_cli("show", str(k3), "--plot", str(png))
    assert rc == 0, err
    assert "6 vertices" in out and png.read_bytes()[:8] == PNG_MAGIC
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".plot-")] == []
    rc, out, _ = run_cli("show", str(k3), "--latex")
    assert rc == 0 and "\\frac{" in out and "\\left(x_{1} + x_{2}\\right)" in out


def test_show_plot_errors(run_cli, tmp_path):
    w = tmp_path / "w5.json"
    assert run_cli("family", "sigmoid-sum", "--d", "5", "-o", str(w))[0] == 0
    rc, out, err = run_cli("show", str(w), "--plot", str(tmp_path / "p.png"), "--project", "0,7")
    assert rc == 3 and "coordinate 7 is out of range" in err and not (tmp_path / "p.png").exists()
    rc, _, err = run_cli("show", str(w), "--project", "0,1")
    assert rc == 3 and "--project needs --plot" in err
    rc, _, err = run_cli("show", str(w), "--latex", "--unicode")
    assert rc == 3 and "choose one" in err
    rc, out, _ = run_cli("show", str(w), "--plot", str(tmp_path / "p.png"), "--project", "0,1,2")
    assert rc == 0 and "shadow on coordinates 0,1,2, 8 vertices" in out


def test_two_coordinate_shadow_of_a_hexagon(tmp_path):
    pic = newton_picture(graph_sum(nx.complete_graph(3)), project=(0, 2))
    assert pic.projected and len(pic.vertices) == 6
    assert all(len(v) == 3 for v in pic.vertices)          # lattice points, not projections
    out = tmp_path / "shadow.png"
    draw_newton(pic, out)
    assert out.read_bytes()[:8] == PNG_MAGIC


def test_k5_default_shadow():
    pic = newton_picture(graph_sum(nx.complete_graph(5)))
    assert (pic.affine_dim, pic.coords, pic.projected, len(pic.support)) == (4, (0, 1, 2), True, 291)
    edges = {frozenset(e) for e in pic.edges}
    assert len(pic.vertices) - len(edges) + len(pic.facets) == 2


def test_negative_coefficients_are_marked(tmp_path):
    h1 = Head((Atom((0,), (3,)), Atom((3,), (0,))))
    h2 = Head((Atom((1,), (1,)), Atom((0,), (0,))))
    pic = newton_picture(MultiHead((h1, h2)))            # Q = x^2 - x + 1
    assert pic.negative == ((1,),) and len(pic.vertices) == 2
    assert pic.fusion_method == "product" and len(pic.fusion_support) == 4
    assert newton_picture(sigmoid_sum(2)).negative == ()
    draw_newton(pic, tmp_path / "neg.png")
    assert (tmp_path / "neg.png").read_bytes()[:8] == PNG_MAGIC


# ---- pictures a reader can map back to keys -------------------------------------------------

def test_vertices_are_labelled_with_their_keys():
    from attnproof.plot import newton_figure

    pic = newton_picture(graph_sum(nx.complete_graph(3)))
    labels = pic.vertex_labels()
    assert sorted(labels) == sorted(f"({a}, {b}, {c})" for a, b, c in
                                    {(2, 1, 0), (2, 0, 1), (1, 2, 0), (0, 2, 1), (1, 0, 2),
                                     (0, 1, 2)})
    texts = [t.get_text() for t in newton_figure(pic).axes[0].texts]
    assert sorted(texts) == sorted(labels)
    big = newton_picture(sigmoid_sum(5), project=[0, 1, 2])
    assert big.key_label((1, 0, 2, 0, 1)) == "x1·x3^2·x5"


def test_a_graph_sum_is_drawn_in_key_coordinates():
    """The permutohedron lies in a hyperplane: it is drawn in coordinates q1, q2 that are
    injective on it, so every drawn point is a key (q3 follows), not in an orthonormal chart."""
    from attnproof.plot import _chart, newton_figure

    pic = newton_picture(graph_sum(nx.complete_graph(3)))
    chart, dim = _chart(pic)
    assert dim == 2 and pic.coords == (0, 1)
    for v in pic.vertices:
        x, y = chart(v)
        assert (x, y) == (v[0], v[1]) and v[2] == 3 - v[0] - v[1]
    ax = newton_figure(pic).axes[0]
    assert ax.get_xlabel().startswith("q1 (the other coordinates") and ax.get_ylabel() == "q2"


def test_merge_report_heat_map_shows_what_merging_saves():
    from attnproof.transformer.report import MergeReport

    rep = MergeReport({"model": "toy", "layer": 0}, [0, 1, 2], {0: 3, 1: 4, 2: 5}, "raw", "float64",
                      [{"heads": [0, 1], "minimum": 12, "product": 12},
                       {"heads": [0, 2], "minimum": 9, "product": 15},
                       {"heads": [1, 2], "minimum": None, "lower_bound": 18, "product": 20}])
    ratio, labels = rep.saving()
    # against keeping the two heads separate (n_h + n_g), not against the product
    assert ratio[0, 1] == ratio[1, 0] == 12 / 7 and labels[0][1] == "12 of 7\n1.71× more"
    assert ratio[0, 2] == 9 / 8 and labels[2][0] == "9 of 8\n1.12× more"
    assert labels[1][2] == "≥18 of 9\nat least 2× more"
    assert labels[2][2] == "(5)" and str(ratio[2, 2]) == "nan"
    fig = rep.heatmap_figure()
    cbar = fig.axes[1]
    assert "minimum ÷ (n_h + n_g)" in cbar.get_ylabel()
    assert "12 of 7\n1.71× more" in [t.get_text() for t in fig.axes[0].texts]
