import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aoegrid.errors import AoegridError, InvalidTypeError, InvalidValueError
from aoegrid.geometry.hexgrid import CIRCUMRADIUS, HexGrid

LAYOUTS = [("pointy", "odd"), ("pointy", "even"), ("flat", "odd"), ("flat", "even")]
SIZES = [(1, 1), (1, 4), (4, 1), (5, 4), (6, 7)]

layouts = st.sampled_from(LAYOUTS)
hexes = st.tuples(st.integers(-30, 30), st.integers(-30, 30))


def every_hex(g):
    rows, cols = np.indices(g.shape)
    return cols.ravel(), rows.ravel()


@pytest.mark.parametrize(("orientation", "offset"), LAYOUTS)
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_center_corners_hex_at_round_trip_on_every_hex(orientation, offset, width, height):
    g = HexGrid(width, height, orientation, offset)
    cols, rows = every_hex(g)
    x, y = g.center(cols, rows)
    at_col, at_row = g.hex_at(x, y)
    assert (at_col == cols).all() and (at_row == rows).all()
    corners = g.corners(cols, rows)
    assert corners.shape == (width * height, 6, 2)
    radius = np.hypot(corners[..., 0] - x[:, None], corners[..., 1] - y[:, None])
    np.testing.assert_allclose(radius, CIRCUMRADIUS, rtol=0, atol=1e-12)
    # Points just inside each corner, towards the centre, are still in the hex.
    inside = corners + 0.01 * (np.stack([x, y], axis=-1)[:, None, :] - corners)
    at_col, at_row = g.hex_at(inside[..., 0], inside[..., 1])
    assert (at_col == cols[:, None]).all() and (at_row == rows[:, None]).all()
    # The map's bounding box starts exactly at (0, 0) and is `extent` large.
    assert corners[..., 0].min() == 0.0 and corners[..., 1].min() == 0.0
    assert (corners[..., 0].max(), corners[..., 1].max()) == pytest.approx(g.extent, abs=1e-12)


@pytest.mark.parametrize(("orientation", "offset"), LAYOUTS)
def test_neighbouring_centres_are_one_apart(orientation, offset):
    g = HexGrid(6, 5, orientation, offset)
    for col, row in zip(*every_hex(g), strict=True):
        here = np.array(g.center(col, row))
        for n in g.neighbours(int(col), int(row)):
            assert math.dist(here, g.center(*n)) == pytest.approx(1.0, abs=1e-12)


def test_corner_order_is_clockwise_from_top_or_right():
    pointy = HexGrid(3, 3).corners(1, 1) - HexGrid(3, 3).center(1, 1)
    assert pointy[0] == pytest.approx((0, -CIRCUMRADIUS))  # top
    assert pointy[1] == pytest.approx((0.5, -CIRCUMRADIUS / 2))  # then upper right: clockwise
    flat = HexGrid(3, 3, "flat").corners(1, 1) - HexGrid(3, 3, "flat").center(1, 1)
    assert flat[0] == pytest.approx((CIRCUMRADIUS, 0))  # right
    assert flat[1] == pytest.approx((CIRCUMRADIUS / 2, 0.5))  # then lower right


def test_odd_r_known_values():
    g = HexGrid(5, 5)  # Foundry type 2: pointy-top, odd rows shoved right
    (x0, y0), (x1, y1) = g.center(0, 0), g.center(0, 1)
    assert x1 - x0 == pytest.approx(0.5) and y1 - y0 == pytest.approx(math.sqrt(3) / 2)
    assert g.center(0, 0) == pytest.approx((0.5, 1 / math.sqrt(3)))
    # (0,0) -SE-> (0,1) -SE-> (1,2) -E-> (2,2) -E-> (3,2): 4 steps.
    assert g.distance((0, 0), (3, 2)) == 4
    assert g.to_cube(3, 2) == (2, 2, -4)
    assert g.extent == pytest.approx((5.5, 2 / math.sqrt(3) + 4 * math.sqrt(3) / 2))


def test_neighbours_by_hand():
    # odd-r, (1, 1) in an odd (shoved) row: E, SE, SW, W, NW, NE.
    assert HexGrid(3, 3).neighbours(1, 1) == [(2, 1), (2, 2), (1, 2), (0, 1), (1, 0), (2, 0)]
    # even-q, (1, 1) in an odd (unshoved, so higher) column: SE, S, SW, NW, N, NE.
    assert HexGrid(3, 3, "flat", "even").neighbours(1, 1) == [
        (2, 1), (1, 2), (0, 1), (0, 0), (1, 0), (2, 0)
    ]
    # even-q, (0, 0) in an even (shoved down) column: SE, S, NE; the others are off the map.
    assert HexGrid(3, 3, "flat", "even").neighbours(0, 0) == [(1, 1), (0, 1), (1, 0)]


def test_hex_at_ties_go_to_the_lower_row_then_column():
    g = HexGrid(3, 3)  # odd-r
    x00, y00 = g.center(0, 0)
    x10, _ = g.center(1, 0)
    assert g.hex_at((x00 + x10) / 2, y00) == (0, 0)  # vertical edge: lower column
    x01, y01 = g.center(0, 1)
    assert g.hex_at((x00 + x01) / 2, (y00 + y01) / 2) == (0, 0)  # slanted edge: lower row
    # The corner shared by (0, 0), (1, 0) and (0, 1): lowest row, then lowest column.
    assert g.hex_at(1.0, y00 + CIRCUMRADIUS / 2) == (0, 0)
    # Off the map, the lattice hex is still named.
    assert g.hex_at(-0.2, y00) == (-1, 0) and not g.contains(-1, 0)


def test_scalar_and_array_results():
    g = HexGrid(4, 3, "flat")
    x, _ = g.center(1, 2)
    assert isinstance(x, float) and isinstance(g.distance((0, 0), (1, 2)), int)
    xs, _ = g.center(np.array([[0, 1], [2, 3]]), 0)
    assert xs.shape == (2, 2) and g.corners([0, 1], [0, 0]).shape == (2, 6, 2)
    at_col, at_row = g.hex_at(*g.center(np.arange(4), 1))
    assert at_col.tolist() == [0, 1, 2, 3] and at_row.tolist() == [1, 1, 1, 1]


def test_line_known():
    g = HexGrid(5, 5)
    assert g.line((2, 2), (2, 2)) == [(2, 2)]
    assert g.line((0, 0), (3, 0)) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    # Along the edge between (0, 1) and (-1, 1): the nudge takes the hex to the right.
    assert g.line((0, 0), (0, 2)) == [(0, 0), (0, 1), (0, 2)]
    # ... also on the map's right edge, where that hex is off the map (documented, kept).
    assert g.line((4, 1), (4, 3)) == [(4, 1), (5, 2), (4, 3)]


def test_rotate_known():
    g = HexGrid(5, 5)  # odd-r; (2, 2) is in an even row
    around = [g.rotate((3, 2), (2, 2), k) for k in range(6)]
    # E, NE, NW, W, SW, SE of (2, 2): counter-clockwise on screen.
    assert around == [(3, 2), (2, 1), (1, 1), (1, 2), (1, 3), (2, 3)]


def test_masks():
    g = HexGrid(9, 9, "flat", "even")
    assert g.hexes_within((4, 4), 0).sum() == 1 and g.ring((4, 4), 0).sum() == 1
    assert g.ring((4, 4), 3).sum() == 18
    assert (g.hexes_within((4, 4), 2) == (g.hexes_within((4, 4), 1) | g.ring((4, 4), 2))).all()
    corner = g.hexes_within((0, 0), 1)
    assert corner.shape == (9, 9) and corner.dtype == bool
    taken = sorted(zip(*np.nonzero(corner)[::-1], strict=True))
    assert taken == sorted([(0, 0), *g.neighbours(0, 0)])


def test_foundry_types_and_repr():
    layouts = {t: HexGrid.from_foundry_type(t, 4, 3).layout for t in (2, 3, 4, 5)}
    assert layouts == {2: "odd-r", 3: "even-r", 4: "odd-q", 5: "even-q"}
    g = HexGrid.from_foundry_type(5, 4, 3, size=10)
    assert (g.foundry_type, g.size, g.shape) == (5, 10.0, (3, 4))
    assert repr(g) == "HexGrid(4, 3, orientation='flat', offset='even', size=10.0, units='ft')"
    assert eval(repr(g)) == g
    assert HexGrid(2, 2, "FLAT", " Even ") == HexGrid(2, 2, "flat", "even")
    assert HexGrid(3, 3).to_hexes(15) == 3.0
    assert HexGrid(4, 1).pixel_size(100) == pytest.approx((400.0, 200 / math.sqrt(3)))


# -- properties ------------------------------------------------------------------------------


@settings(max_examples=60)
@given(layouts, hexes)
def test_cube_round_trip(layout, h):
    g = HexGrid(5, 5, *layout)
    q, r, s = g.to_cube(*h)
    assert q + r + s == 0
    assert g.from_cube(q, r, s) == h


@settings(max_examples=60)
@given(layouts, hexes, hexes, hexes)
def test_distance_is_a_metric_and_matches_lines(layout, a, b, c):
    g = HexGrid(5, 5, *layout)
    d = g.distance(a, b)
    assert d == g.distance(b, a) and (d == 0) == (a == b)
    assert g.distance(a, c) <= d + g.distance(b, c)
    path = g.line(a, b)
    assert len(path) == d + 1 and path[0] == a and path[-1] == b
    assert all(g.distance(p, n) == 1 for p, n in itertools.pairwise(path))


@settings(max_examples=60)
@given(layouts, hexes, hexes, st.integers(-12, 12))
def test_rotation(layout, h, about, steps):
    g = HexGrid(5, 5, *layout)
    turned = g.rotate(h, about, steps)
    assert g.rotate(h, about, 6) == h
    assert g.distance(turned, about) == g.distance(h, about)
    assert g.rotate(turned, about, -steps) == h
    assert g.rotate(h, about, steps + 6) == turned


@settings(max_examples=40)
@given(layouts, st.integers(0, 4), st.data())
def test_disk_counts_when_on_the_map(layout, n, data):
    g = HexGrid(13, 13, *layout)
    centre = (data.draw(st.integers(4, 8)), data.draw(st.integers(4, 8)))
    assert g.hexes_within(centre, n).sum() == 3 * n * (n + 1) + 1
    assert g.ring(centre, n).sum() == max(6 * n, 1)


@settings(max_examples=60)
@given(layouts, hexes, st.floats(-0.45, 0.45), st.floats(-0.45, 0.45))
def test_hex_at_center_and_near_it(layout, h, dx, dy):
    g = HexGrid(5, 5, *layout)
    x, y = g.center(*h)
    assert g.hex_at(x, y) == h
    # Within the inscribed circle (radius 1/2) every point is in the hex.
    if math.hypot(dx, dy) < 0.5 - 1e-9:
        assert g.hex_at(x + dx, y + dy) == h


# -- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((0, 5), {}, InvalidValueError, r"HexGrid width must be at least 1, got 0"),
        ((5, -1), {}, InvalidValueError, r"HexGrid height must be at least 1, got -1"),
        ((2.5, 5), {}, InvalidTypeError, r"HexGrid width must be a whole number, got 2.5"),
        ((5, 5), {"orientation": "round"}, InvalidValueError,
         r"unknown HexGrid orientation 'round'; valid choices are 'pointy', 'flat'"),
        ((5, 5), {"offset": "both"}, InvalidValueError,
         r"unknown HexGrid offset 'both'; valid choices are 'odd', 'even'"),
        ((5, 5), {"orientation": 3}, InvalidTypeError, r"HexGrid orientation must be a string"),
        ((5, 5), {"size": 0}, InvalidValueError, r"HexGrid size must be greater than 0, got 0"),
        ((5, 5), {"size": math.inf}, InvalidValueError, r"HexGrid size must be a finite number"),
        ((5, 5), {"units": ""}, InvalidTypeError, r"HexGrid units must be a non-empty string"),
    ],
)
def test_bad_hex_grids(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        HexGrid(*args, **kwargs)


@pytest.mark.parametrize("t", [0, 1, 6, -2])
def test_foundry_types_that_are_not_hexes(t):
    with pytest.raises(
        InvalidValueError,
        match=rf"Foundry grid type {t} is not a hex grid: types 2-5 are hexes "
        r".* 0 is gridless and 1 square",
    ):
        HexGrid.from_foundry_type(t, 5, 5)
    with pytest.raises(InvalidTypeError, match=r"Foundry grid type must be a whole number 2-5"):
        HexGrid.from_foundry_type("2", 5, 5)


def test_bad_arguments():
    g = HexGrid(5, 5)
    with pytest.raises(InvalidTypeError, match=r"center col must be a whole number"):
        g.center(0.5, 1)
    with pytest.raises(InvalidValueError, match=r"hex_at x must be finite"):
        g.hex_at(math.nan, 1)
    with pytest.raises(InvalidValueError, match=r"cube coordinates must sum to 0"):
        g.from_cube(1, 1, 1)
    with pytest.raises(InvalidValueError, match=r"hexes_within n must be at least 0, got -1"):
        g.hexes_within((2, 2), -1)
    with pytest.raises(InvalidTypeError, match=r"line a must be one \(col, row\) hex"):
        g.line(([0, 1], [0, 0]), (2, 2))
    with pytest.raises(InvalidTypeError, match=r"distance a must be a \(col, row\) pair"):
        g.distance(3, (2, 2))
    with pytest.raises(AoegridError):
        g.rotate((0, 0), (1, 1), 1.5)
