"""The exact area rasteriser and the other array kernels."""

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from aoegrid.geometry.raster import Window, coverage, ray_crossing, threshold_mask
from aoegrid.geometry.regions import ConvexPolygon, RoundedRect, Sector, Teardrop

coords = st.floats(-6, 6, allow_nan=False).map(lambda v: round(v, 3))


def shapely_coverage(poly: shapely.Geometry, window: Window) -> np.ndarray:
    """Slow reference: intersect a box per square."""
    out = np.zeros(window.shape)
    for j in range(window.height):
        for i in range(window.width):
            x, y = window.x0 + i, window.y0 + j
            out[j, i] = poly.intersection(shapely.box(x, y, x + 1, y + 1)).area
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(coords, coords), min_size=3, max_size=7))
def test_polygon_coverage_matches_shapely(points):
    hull = shapely.MultiPoint(points).convex_hull
    if hull.geom_type != "Polygon" or hull.area < 1e-6:
        return
    verts = tuple(hull.exterior.coords)[:-1]
    window = Window(-8, -8, 16, 16)
    np.testing.assert_allclose(coverage(ConvexPolygon(verts), window), shapely_coverage(hull, window), atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(coords, coords, st.floats(0.05, 5), st.floats(0, 2), st.floats(0, 2))
def test_rounded_rect_coverage_sums_to_its_area(cx, cy, r, w, h):
    region = RoundedRect(cx, cy, cx + w, cy + h, r)
    cov = coverage(region, Window(-15, -15, 30, 30))
    exact = w * h + 2 * r * (w + h) + math.pi * r * r
    assert cov.sum() == pytest.approx(exact, abs=1e-9)
    assert cov.min() >= 0 and cov.max() <= 1


@settings(max_examples=60, deadline=None)
@given(coords, coords, st.floats(0.1, 6), st.floats(0, 360))
def test_sector_and_teardrop_cover_their_area(cx, cy, r, direction):
    d = math.radians(direction)
    sector = Sector(cx, cy, r, direction, 45.0, (math.cos(d), math.sin(d)))
    window = Window(-15, -15, 30, 30)
    assert coverage(sector, window).sum() == pytest.approx(math.pi * r * r / 4, abs=1e-9)
    tear = Teardrop(cx, cy, r, r / 6, direction)
    dist = r - r / 6
    beta = math.acos((r / 6) / dist)
    tangent = math.sqrt(dist**2 - (r / 6) ** 2)
    # Two right triangles to the tangent points, plus the disk outside them.
    exact = tangent * (r / 6) + (r / 6) ** 2 * (math.pi - beta)
    assert coverage(tear, window).sum() == pytest.approx(exact, abs=1e-9)


def test_quarter_disk_fractions_by_hand():
    cov = coverage(RoundedRect(0, 0, 0, 0, 1.0), Window(-1, -1, 2, 2))
    np.testing.assert_allclose(cov, np.full((2, 2), math.pi / 4), atol=1e-12)
    tri = coverage(ConvexPolygon(((0, 0), (2, 0), (0, 2))), Window(0, 0, 2, 2))
    np.testing.assert_allclose(tri, [[1.0, 0.5], [0.5, 0.0]], atol=1e-12)


def test_window_clips_pieces_left_and_right():
    # A wide rectangle seen through a narrow window: full squares inside.
    cov = coverage(ConvexPolygon(((-50, 0.25), (50, 0.25), (50, 1.75), (-50, 1.75))), Window(3, 0, 2, 2))
    np.testing.assert_allclose(cov, [[0.75, 0.75], [0.75, 0.75]], atol=1e-12)


def test_ray_crossing_ignores_squares_only_touched():
    w = Window(0, 0, 4, 4)
    diagonal = ray_crossing(w, (0.0, 0.0), (math.sqrt(0.5), math.sqrt(0.5)))
    np.testing.assert_array_equal(diagonal, np.eye(4, dtype=bool))
    along = ray_crossing(w, (0.0, 2.0), (1.0, 0.0))
    assert not along.any()
    short = ray_crossing(w, (0.0, 0.5), (1.0, 0.0), max_t=2.0)
    assert short[0].tolist() == [True, True, False, False]


@pytest.mark.parametrize(("dy", "row"), [(1e-320, 1), (-1e-320, 0), (1e-300, 1)])
def test_ray_crossing_with_a_tiny_component_follows_the_side_it_leans_to(dy, row):
    # Dividing by 1e-320 overflowed (a RuntimeWarning, an error under pytest's filter).
    along = ray_crossing(Window(0, 0, 3, 3), (0.0, 1.0), (1.0, dy), max_t=1e300)
    np.testing.assert_array_equal(along, np.arange(3)[:, None] == np.full((1, 3), row))
    inside = ray_crossing(Window(0, 0, 3, 3), (0.5, 1.5), (dy, 1.0))
    assert inside[:, 0].tolist() == [False, True, True] and not inside[:, 1:].any()


def test_threshold_mask_agrees_with_direct_evaluation():
    cols = np.abs(np.arange(-40, 40) + 0.5)
    rows = np.abs(np.arange(-90, 90) + 0.5)

    def ok(c, r):
        return np.hypot(c, r) <= 37.3

    np.testing.assert_array_equal(threshold_mask(cols, rows, ok), ok(cols[None, :], rows[:, None]))


@settings(max_examples=80, deadline=None)
@given(coords, coords, st.floats(0.05, 6))
def test_closed_form_disk_area_matches_the_rasteriser(cx, cy, r):
    from aoegrid.geometry.raster import disk_rect_area

    window = Window(-12, -12, 24, 24)
    xs = np.arange(-12, 12, dtype=float)[None, :] - cx
    ys = np.arange(-12, 12, dtype=float)[:, None] - cy
    closed = disk_rect_area(xs, xs + 1, ys, ys + 1, r)
    np.testing.assert_allclose(closed, coverage(RoundedRect(cx, cy, cx, cy, r), window), atol=1e-9)
