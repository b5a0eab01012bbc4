"""Stencils: every square a shape can take lies in its window, pf2e lines follow the rules text, round
areas are their rules applied square by square."""

import math
import re

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.geometry.directions import unit_vector
from aoegrid.geometry.distance import measure
from aoegrid.geometry.raster import (
    Window,
    center_offsets,
    coverage,
    disk_rect_area,
    far_offsets,
    near_offsets,
    threshold_mask,
)
from aoegrid.geometry.regions import EPS, RoundedRect
from aoegrid.geometry.rules import PF2E, STARFINDER, SW5E
from aoegrid.geometry.stencils import (
    _cone_region,
    _Origin,
    _rasterize,
    _stencil_on_grid,
    _thin_squares,
    shape_extent,
)
from aoegrid.geometry.tokens import SIZES

GRID = ag.Grid(80, 80)


def triangle_share(cone: ag.Cone, at: tuple[float, float], square: tuple[int, int]) -> float:
    """How much of ``square`` the 5e triangle of ``cone`` (from ``at``) covers."""
    region = _cone_region(ag.ConeKind.TRIANGLE, at, unit_vector(cone.direction), cone.direction, cone.length / 5)
    return round(float(coverage(region, Window(square[0], square[1], 1, 1))[0, 0]), 3)


# --- issue 9, part 2: 5e triangle cones keep their far corners ------------------------------------


@pytest.mark.parametrize(
    ("inclusion", "cone", "square", "count", "share"),
    [
        ("half", ag.Cone(100, 200), (18, 41), 200, 0.829),
        ("half", ag.Cone(80, 24), (57, 39), 128, 0.537),
        ("touch", ag.Cone(60, 63), (40, 53), 89, 0.170),
        ("center", ag.Cone(70, 21), (55, 38), 98, 0.232),
    ],
)
def test_triangle_cone_keeps_the_squares_at_its_far_corners(inclusion, cone, square, count, share):
    a = ag.area(cone, at=(40, 40), on=GRID, rules=SW5E.replace(inclusion=inclusion))
    assert square in a
    assert len(a) == count
    assert triangle_share(cone, (40, 40), square) == share


def test_center_reproducer_square_has_its_centre_in_the_triangle():
    # Cone(70, 21): 14 squares long.
    region = _cone_region(ag.ConeKind.TRIANGLE, (40, 40), unit_vector(21.0), 21.0, 14.0)
    assert bool(region.contains(np.float64(55.5), np.float64(38.5)))


def test_cone_window_is_the_cones_own_box_not_its_spheres():
    # A 100-ft triangle east from (40, 40) spans x 40..60, y 30..50; the window is one square wider.
    window, local = _stencil_on_grid(ag.Cone(100, "E"), _Origin(40, 40, 40, 40), SW5E, GRID)
    assert window == Window(39, 29, 22, 22)
    assert int(local.sum()) == 200
    # A far-edge quarter circle: centres within 45 degrees east, far corners within 20 squares.
    window, _ = _stencil_on_grid(ag.Cone(100, "E"), _Origin(40, 40, 40, 40), STARFINDER, GRID)
    assert window == Window(39, 19, 22, 42)


# --- shape_extent ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "rules", "square", "extent"),
    [
        (ag.Sphere(20), SW5E, 5.0, 4.0),
        (ag.Cylinder(15, 40), STARFINDER, 5.0, 3.0),
        (ag.Cone(100, 30), SW5E, 5.0, 20 * math.hypot(1, 0.5)),
        (ag.Cone(100, 30), STARFINDER, 5.0, 20.0),
        (ag.Cone(100, 30, kind="teardrop"), SW5E, 5.0, 20.0),
        (ag.savage_worlds.CONE, ag.Rules.preset("savage-worlds"), 1.0, 9.0),
        (ag.Cube(20, "E"), SW5E, 5.0, math.hypot(4, 2)),
        (ag.Cube(20, 10, anchor="left"), SW5E, 5.0, 4 * math.sqrt(2)),
        (ag.Line(30, 45), PF2E, 5.0, math.hypot(6, 0.5)),
        (ag.Line(30, 45), STARFINDER, 5.0, 6.0),
        (ag.Line(30, 45, width=20), STARFINDER, 5.0, math.hypot(6, 2)),
        (ag.Shapable([(0, 0), (1, 0), (0, 1), (1, 1)]), STARFINDER, 5.0, 2 * math.sqrt(2)),
        (ag.Shapable([(-3, -1), (-2, -1), (-3, 0), (-2, 0)]), STARFINDER, 5.0, math.hypot(3, 1)),
    ],
)
def test_shape_extent_is_the_outlines_farthest_point(shape, rules, square, extent):
    assert shape_extent(shape, rules, square) == pytest.approx(extent, abs=1e-12)


# --- issue 9, part 5: pf2e 5-ft lines ------------------------------------------------------------------


def test_pf2e_short_line_takes_nothing_beside_or_behind_its_origin():
    a = ag.area(ag.Line(10, 200), at=(40, 40), on=GRID, rules="pf2e")
    assert (40, 39) not in a
    assert a.squares == [(38, 39), (39, 39)]


def test_pf2e_30ft_diagonal_line_is_4_squares_by_the_5_10_5_count():
    # 5 + 10 + 5 + 10 = 30 ft: the fifth diagonal square would cost 35.
    a = ag.area(ag.Line(30, 45), at=(40, 40), on=GRID, rules="pf2e")
    assert a.squares == [(40, 40), (41, 41), (42, 42), (43, 43)]


@pytest.mark.parametrize("direction", [0.0, 30.0, 45.0, 90.0, 200.0, 333.0])
def test_pf2e_5ft_line_takes_the_squares_its_path_passes_through(direction):
    """The same squares as Starfinder's line: the ones the line passes through."""
    pf2e = ag.area(ag.Line(30, direction), at=(40, 40), on=GRID, rules="pf2e")
    starfinder = ag.area(ag.Line(30, direction), at=(40, 40), on=GRID, rules="starfinder")
    assert pf2e == starfinder


def test_pf2e_line_at_30_degrees():
    a = ag.area(ag.Line(30, 30), at=(40, 40), on=GRID, rules="pf2e")
    assert a.squares == [(40, 40), (41, 40), (41, 41), (42, 41), (43, 41), (43, 42), (44, 42)]


def test_pf2e_wider_lines_are_centred_on_their_path():
    g = ag.Grid(20, 20)
    ten = ag.area(ag.Line(30, "E", width=10), at=(2, 5), on=g, rules="pf2e")
    assert ten.squares == [(x, y) for y in (4, 5) for x in range(2, 8)]
    # 15 ft on a grid line: the odd row goes to the line's side (south); its far corners
    # cost one diagonal more, so it stops a square short.
    fifteen = ag.area(ag.Line(30, "E", width=15), at=(2, 5), on=g, rules="pf2e")
    assert fifteen.squares == [(x, y) for y in (4, 5) for x in range(2, 8)] + [(x, 6) for x in range(2, 7)]
    north = ag.area(ag.Line(30, "E", width=15, side="left"), at=(2, 5), on=g, rules="pf2e")
    assert north.squares == [(x, 3) for x in range(2, 7)] + [(x, y) for y in (4, 5) for x in range(2, 8)]


def test_pf2e_wide_diagonal_line_leaves_out_the_squares_beside_its_origin():
    a = ag.area(ag.Line(20, "SE", width=10), at=(5, 5), on=ag.Grid(12, 12), rules="pf2e")
    assert a.squares == [(5, 5), (6, 5), (5, 6), (6, 6), (7, 6), (6, 7), (7, 7)]


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 360, exclude_max=True), st.integers(1, 24).map(lambda k: 5.0 * k),
       st.sampled_from([None, 0.0, 5.0, 10.0, 15.0, 25.0]), st.sampled_from(["right", "left"]),
       st.sampled_from([(40, 40), (40.25, 39.5), (40.5, 40.5)]))
def test_far_edge_lines_take_no_square_behind_their_origin(direction, length, width, side, at):
    rules = PF2E.replace(origin="any")
    a = ag.area(ag.Line(length, direction, width=width, side=side), at=at, on=GRID, rules=rules)
    d = unit_vector(direction)
    assert all((x + 0.5 - at[0]) * d[0] + (y + 0.5 - at[1]) * d[1] > 0 for x, y in a.squares)


# --- the window holds the whole figure --------------------------------------------------------------

HALF = 150  # the test grids are 2 * HALF squares a side: room for a 500-ft cube turned 45 degrees
FEET = ag.Grid(2 * HALF, 2 * HALF)
INCHES = ag.Grid(2 * HALF, 2 * HALF, units="in")
PRESETS = ["starfinder", "pf2e", "sw5e", "savage-worlds"]
INCLUSIONS = [None, *(i.value for i in ag.Inclusion)]
directions = st.one_of(st.integers(0, 7).map(lambda k: 45.0 * k), st.floats(0, 360, exclude_max=True))


@st.composite
def placements(draw):
    """(shape, rules, grid, origin): any shape kind, any preset and inclusion, up to 500 ft."""
    preset = draw(st.sampled_from(PRESETS))
    rules = ag.Rules.preset(preset)
    inclusion = draw(st.sampled_from(INCLUSIONS))
    if inclusion is not None:
        rules = rules.replace(inclusion=inclusion)
    grid = INCHES if preset == "savage-worlds" else FEET
    square = grid.square
    # Large sizes are drawn often: the squares a window could lose lie at the far ends.
    size = draw(st.integers(1, 500) | st.integers(300, 500)) / 5.0 * square  # feet, or inches
    d = draw(directions)
    kind = draw(st.sampled_from(["sphere", "cylinder", "cone", "cone", "line", "cube", "shapable"]))
    if kind == "sphere":
        shape = ag.Sphere(size)
    elif kind == "cylinder":
        shape = ag.Cylinder(size, 2 * square)
    elif kind == "cone":
        shape = ag.Cone(size, d, kind=draw(st.sampled_from([None, *(k.value for k in ag.ConeKind)])))
    elif kind == "line":
        width = draw(st.sampled_from([None, 0, 1, 2, 3, 6]))
        shape = ag.Line(size, d, width=None if width is None else width * square,
                        side=draw(st.sampled_from(["right", "left"])))
    elif kind == "cube":
        shape = ag.Cube(size, d, anchor=draw(st.sampled_from(["center", "left", "right"])))
    else:
        # Solid 2 x 2 blocks, so no dimension is under the 2-square minimum.
        corners = draw(st.lists(st.tuples(st.integers(-8, 6), st.integers(-8, 6)), min_size=1, max_size=4))
        shape = ag.Shapable({(x + i, y + j) for x, y in corners for i in (0, 1) for j in (0, 1)},
                            min_dimension=2 * square)
    if rules.origin is ag.OriginPoint.INTERSECTION or kind == "shapable":
        at = (HALF + draw(st.integers(-1, 1)), HALF + draw(st.integers(-1, 1)))
    else:
        at = (HALF + draw(st.floats(-1, 1)), HALF + draw(st.floats(-1, 1)))
    return shape, rules, grid, at


@settings(max_examples=60, deadline=None)
@given(placements())
def test_area_equals_the_rule_applied_to_every_square(placement):
    """No square of any shape is lost to its window: the area is the rule applied grid-wide."""
    shape, rules, grid, at = placement
    x, y = float(at[0]), float(at[1])
    a = ag.area(shape, at=(x, y), on=grid, rules=rules)
    # The same frame area() computes in, one window over the whole grid.
    fx, fy = math.floor(x), math.floor(y)
    everywhere = _rasterize(shape, _Origin(x - fx, y - fy, x - fx, y - fy), rules, grid.square,
                            Window(-fx, -fy, grid.width, grid.height))
    border = np.ones_like(everywhere)
    border[1:-1, 1:-1] = False
    assert not (everywhere & border).any(), "the test grid is too small for the figure"
    np.testing.assert_array_equal(a.mask, everywhere)
    if rules.inclusion is not ag.Inclusion.FAR_EDGE:
        # Every square shares something with the outline, so its nearest point is within the extent.
        extent = shape_extent(shape, rules, grid.square)
        for sx, sy in a.squares:
            near = math.hypot(min(max(x, sx), sx + 1) - x, min(max(y, sy), sy + 1) - y)
            assert near <= extent + 1e-9


# --- issue 10: huge and tiny shapes cost what the grid costs and count as the rules do --------------

SMALL = ag.Grid(10, 10)
SMALL_INCHES = ag.Grid(10, 10, units="in")
EAST_HALF = [(x, y) for y in range(10) for x in range(5, 10)]


def small_grid(preset: str) -> ag.Grid:
    return SMALL_INCHES if preset == "savage-worlds" else SMALL


@pytest.mark.parametrize("rules", ["starfinder", "sw5e"])
def test_a_huge_cube_takes_the_grid_east_of_its_near_face(rules):
    # Cube(1e8) under 5e took 15 s and 3.7 GB: its outline was cut at every grid line it crossed.
    a = ag.area(ag.Cube(1e8), at=(5, 5), on=SMALL, rules=rules)
    assert a.squares == EAST_HALF


@pytest.mark.parametrize("preset", PRESETS)
def test_a_huge_cube_anchored_at_the_corner_covers_the_whole_grid(preset):
    a = ag.area(ag.Cube(1e8, "E", anchor="left"), at=(0, 0), on=small_grid(preset), rules=preset)
    assert len(a) == 100


def test_a_huge_5e_cone_takes_the_triangle_near_its_origin():
    # Cone(1e9) under 5e ran out of memory (MemoryError past 15 GB).
    a = ag.area(ag.Cone(1e9, "E"), at=(5, 5), on=SMALL, rules="sw5e")
    assert a.squares == [(8, 3), (9, 3), (6, 4), (7, 4), (8, 4), (9, 4),
                         (6, 5), (7, 5), (8, 5), (9, 5), (8, 6), (9, 6)]


def test_a_huge_quarter_circle_cone_takes_its_wedge():
    a = ag.area(ag.Cone(1e9, "E"), at=(5, 5), on=SMALL, rules="starfinder")
    assert a.squares == [(x, y) for y in range(10) for x in range(5, 10) if abs(y - 4.5) <= x - 4.5]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("radius", [1e8, 1e300, 1.7976931348623157e308])
def test_a_huge_sphere_covers_the_whole_grid(preset, radius):
    # Savage Worlds raised OverflowError squaring 1e300.
    for at in [(5, 5), (0, 10)]:
        assert len(ag.area(ag.Sphere(radius), at=at, on=small_grid(preset), rules=preset)) == 100


@pytest.mark.parametrize("preset", ["sw5e", "savage-worlds"])
def test_a_huge_line_covers_its_row(preset):
    a = ag.area(ag.Line(1e9, "E"), at=(0, 5.5), on=small_grid(preset), rules=preset)
    assert a.squares == [(x, 5) for x in range(10)]


def test_a_huge_far_edge_line_covers_the_row_below_its_grid_line():
    a = ag.area(ag.Line(1e300, "E"), at=(0, 5), on=SMALL, rules="starfinder")
    assert a.squares == [(x, 5) for x in range(10)]


def test_huge_wide_lines_take_the_half_plane_ahead():
    a = ag.area(ag.Line(1e300, "E", width=1e300), at=(5, 5), on=SMALL, rules="pf2e")
    assert a.squares == EAST_HALF


@pytest.mark.parametrize("preset", PRESETS)
def test_tiny_shapes_take_nothing_from_a_point(preset):
    grid = small_grid(preset)
    for shape in [ag.Sphere(1e-300), ag.Cone(1e-300, "E"), ag.Cone(1e-300, 30),
                  ag.Line(1e-300, 30), ag.Cube(1e-300, 30), ag.Cylinder(1e-300, 1e-300)]:
        assert len(ag.area(shape, at=(5, 5), on=grid, rules=preset)) == 0


def test_a_radius_under_eps_touches_nothing():
    # Squaring radius - EPS made a negative limit positive: 1e-300 took 4 squares, 1e-9 none.
    sizes = [1e-300, 1e-9, 2e-9]
    assert [len(ag.area(ag.Sphere(r), at=(5, 5), on=SMALL_INCHES, rules="savage-worlds")) for r in sizes] == [0, 0, 4]


def test_a_teardrop_whose_length_underflows_to_no_squares_is_empty():
    huge_squares = ag.Grid(10, 10, units="in", square=1e300)
    assert len(ag.area(ag.Cone(1e-300, 20), at=(5, 5), on=huge_squares, rules="savage-worlds")) == 0


def test_a_huge_shape_from_a_creature_covers_the_grid_past_its_space():
    large = ag.Token(4, 4, size="large")
    assert len(ag.area(ag.Sphere(1e300), at=large, on=SMALL, rules="sw5e")) == 100
    west = ag.area(ag.Cube(1e300, "W"), at=large, on=SMALL, rules="sw5e")
    assert west.squares == [(x, y) for y in range(10) for x in range(4)]


def test_shapable_squares_far_off_the_grid_are_dropped():
    # Offsets 1e9 away made an IndexError (and a 1e9-wide thinness check).
    block = [(x, y) for x in (0, 1) for y in (0, 1)]
    far = [(10**9 + x, y) for x, y in block]
    a = ag.area(ag.Shapable(block + far), at=(5, 5), on=SMALL)
    assert a.squares == [(5, 5), (6, 5), (5, 6), (6, 6)]


@pytest.mark.parametrize(("min_dimension", "n"), [(15.0, "3"), (1e300, "2e+299")])
def test_shapable_thinness_is_checked_on_the_squares_alone(min_dimension, n):
    block = [(x, y) for x in (0, 1) for y in (0, 1)] + [(10**9, 0)]
    with pytest.raises(ag.InvalidValueError, match=re.escape(
        f"dimension under {min_dimension:g} ({n} squares): square(s) (0, 0), (1, 0), "
        f"(1000000000, 0), (0, 1), (1, 1) lie in no solid {n} x {n} block"
    )):
        ag.area(ag.Shapable(block, min_dimension=min_dimension), at=(5, 5), on=SMALL)


def test_thin_squares_of_an_l_shape():
    # Two 2 x 2 blocks and a square sticking out of them.
    cells = frozenset({(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (2, 2), (1, 2), (3, 3)})
    assert _thin_squares(cells, 2) == [(3, 3)]
    assert _thin_squares(cells, 1) == []


@st.composite
def small_placements(draw, sizes, in_squares):
    """(shapes, rules, grid, origin): any shape kind and preset on a grid of 1 to 12 squares a side.

    One shape per size drawn, in squares or in the grid's unit (feet, or inches for Savage Worlds).
    """
    preset = draw(st.sampled_from(PRESETS))
    rules = ag.Rules.preset(preset)
    units = "in" if preset == "savage-worlds" else "ft"
    grid = ag.Grid(draw(st.integers(1, 12)), draw(st.integers(1, 12)), units=units)
    kind = draw(st.sampled_from(["sphere", "cylinder", "cone", "line", "cube"]))
    d = draw(directions)
    extra = draw(st.sampled_from([None, *(k.value for k in ag.ConeKind)]) if kind == "cone"
                 else st.sampled_from(["center", "left", "right"]) if kind == "cube"
                 else st.sampled_from([None, 0.0, 1.0, 3.0, 2000.0]))

    def make(size: float):
        if kind == "sphere":
            return ag.Sphere(size)
        if kind == "cylinder":
            return ag.Cylinder(size, grid.square)
        if kind == "cone":
            return ag.Cone(size, d, kind=extra)
        if kind == "cube":
            return ag.Cube(size, d, anchor=extra)
        return ag.Line(size, d, width=None if extra is None else extra * grid.square)

    if rules.origin is ag.OriginPoint.INTERSECTION:
        at = (float(draw(st.integers(0, grid.width))), float(draw(st.integers(0, grid.height))))
    else:
        at = (draw(st.floats(0, grid.width)), draw(st.floats(0, grid.height)))
    return [make(s * grid.square if in_squares else s) for s in draw(sizes)], rules, grid, at


#: Sizes log-uniform from 1e-3 to the largest float, the smaller first.
log_sizes = st.lists(st.floats(-3, 308.25), min_size=2, max_size=2).map(
    lambda es: sorted(min(10.0**e, 1.7976931348623157e308) for e in es))


@settings(max_examples=60, deadline=None)
@given(small_placements(log_sizes, in_squares=False))
def test_any_size_answers_on_the_grid_and_a_bigger_shape_covers_more(placement):
    """From 1e-3 to 1e308 feet (or inches): no error or warning, a mask of the grid's shape, monotone."""
    (small, big), rules, grid, at = placement
    a = ag.area(small, at=at, on=grid, rules=rules)
    b = ag.area(big, at=at, on=grid, rules=rules)
    assert a.mask.shape == b.mask.shape == grid.shape
    assert not (a.mask & ~b.mask).any()


@settings(max_examples=60, deadline=None)
@given(small_placements(st.floats(0.5, 3.3).map(lambda e: [10.0**e]), in_squares=True))
def test_a_shape_cut_down_to_the_grid_takes_the_squares_the_whole_shape_takes(placement):
    """Up to 2000 squares, where the whole shape is still cheap to count: the same squares."""
    (shape,), rules, grid, (x, y) = placement
    a = ag.area(shape, at=(x, y), on=grid, rules=rules)
    fx, fy = math.floor(x), math.floor(y)
    whole = _rasterize(shape, _Origin(x - fx, y - fy, x - fx, y - fy), rules, grid.square,
                       Window(-fx, -fy, grid.width, grid.height))
    np.testing.assert_array_equal(a.mask, whole)


@pytest.mark.parametrize("preset", ["starfinder", "sw5e", "savage-worlds"])
def test_a_circle_just_holding_the_grid_takes_it_all_and_just_short_does_not(preset):
    # The whole-window shortcut must agree with the square-by-square rules at its threshold.
    units = "in" if preset == "savage-worlds" else "ft"
    grid = ag.Grid(6, 6, units=units)
    rules = ag.Rules.preset(preset)
    per_square = grid.square
    if rules.inclusion is ag.Inclusion.FAR_EDGE:
        full = 3 + 3 // 2  # far corner (3, 3) squares away: 5/10/5 counts 4 squares = 20 ft
    else:
        full = 3 * 2**0.5  # the farthest corner lies 3 * sqrt(2) squares away
    inside = ag.area(ag.Sphere(full * per_square * (1 + 1e-6)), at=(3, 3), on=grid, rules=rules)
    assert len(inside) == 36
    short = ag.area(ag.Sphere(full * per_square * (1 - 1e-3)), at=(3, 3), on=grid, rules=rules)
    expected = {"starfinder": 24, "sw5e": 36, "savage-worlds": 36}[preset]  # 5/10/5: (3, 3), (3, 2), (2, 3) cost 20 ft
    assert len(short) == expected


# --- issue 18: round stencils fill rows and test only their rim -----------------------------------


def round_rule(radius: float, o: _Origin, rules: ag.Rules, grid: ag.Grid) -> np.ndarray:
    """The round inclusion rules applied to every square of ``grid``, one square at a time."""
    xs = np.arange(grid.width, dtype=float)
    ys = np.arange(grid.height, dtype=float)
    inc = rules.inclusion
    if inc is ag.Inclusion.FAR_EDGE:
        c, r = far_offsets(xs, o.x0, o.x1)[None, :], far_offsets(ys, o.y0, o.y1)[:, None]
        return measure(c, r, rules.diagonals) <= radius + EPS
    if inc is ag.Inclusion.CENTER:
        c, r = center_offsets(xs, o.x0, o.x1)[None, :], center_offsets(ys, o.y0, o.y1)[:, None]
        return c * c + r * r <= (radius + EPS) ** 2
    if inc is ag.Inclusion.TOUCH:
        c, r = near_offsets(xs, o.x0, o.x1)[None, :], near_offsets(ys, o.y0, o.y1)[:, None]
        return c * c + r * r < max(radius - EPS, 0.0) ** 2
    if not o.is_point:
        share = coverage(RoundedRect(o.x0, o.y0, o.x1, o.y1, radius), Window(0, 0, grid.width, grid.height))
        # Exact coverage sums along rows from its window's edge, so a share within rounding of
        # the threshold can go either way in another window (a space's stencil has its own).
        assume(not (np.abs(share - (0.5 - EPS)) < 1e-12).any())
        return share >= 0.5 - EPS
    c, r = np.abs(xs + 0.5 - o.x0)[None, :], np.abs(ys + 0.5 - o.y0)[:, None]
    return disk_rect_area(c - 0.5, c + 0.5, r - 0.5, r + 0.5, radius) >= 0.5 - EPS


#: Radii in squares: whole and half squares, the same 1e-9 (the tie tolerance) either side, or any.
round_radii = st.one_of(
    st.builds(sum, st.tuples(st.integers(1, 400).map(lambda k: k / 2),
                             st.sampled_from([0.0, -2e-9, -1e-9, 1e-9, 2e-9]))),
    st.floats(0.01, 200),
)
#: The sides of creature spaces, in squares (a space may be a rectangle).
SPACE_SIDES = sorted(set(SIZES.values()))


@st.composite
def round_placements(draw):
    """(radius in squares, rules, grid, origin): any preset, inclusion and diagonal rule, cut by the grid's edges."""
    preset = draw(st.sampled_from(PRESETS))
    rules = ag.Rules.preset(preset)
    for field, options in (("inclusion", list(ag.Inclusion)), ("diagonals", list(ag.Diagonals))):
        choice = draw(st.sampled_from([None, *options]))
        rules = rules if choice is None else rules.replace(**{field: choice})
    grid = ag.Grid(draw(st.integers(20, 150)), draw(st.integers(20, 150)),
                   units="in" if preset == "savage-worlds" else "ft")
    kind = draw(st.sampled_from(["intersection", "centre", "point", "space"]))
    if kind == "intersection":
        at = (draw(st.integers(0, grid.width)), draw(st.integers(0, grid.height)))
    elif kind == "space":
        w, h = draw(st.sampled_from(SPACE_SIDES)), draw(st.sampled_from(SPACE_SIDES))
        at = ag.Space(draw(st.integers(0, grid.width - w)), draw(st.integers(0, grid.height - h)), w, h)
    else:
        rules = rules.replace(origin="any")
        if kind == "centre":
            at = (draw(st.integers(0, grid.width - 1)) + 0.5, draw(st.integers(0, grid.height - 1)) + 0.5)
        else:
            at = (draw(st.floats(0, grid.width)), draw(st.floats(0, grid.height)))
    return draw(round_radii), rules, grid, at


@settings(max_examples=100, deadline=None)
@given(round_placements())
# Rows whose reach the first two tests miss: ties at 1e-9, and squares centred near the circle.
@example((50.000000002, ag.Rules.preset("savage-worlds").replace(inclusion="half", diagonals="euclidean"),
          ag.Grid(132, 112, units="in"), (22.5, 100.5)))
@example((59.000000001, ag.Rules.preset("savage-worlds").replace(diagonals="alternating"),
          ag.Grid(118, 20, units="in"), (0.0, 0.0)))
@example((101.32394129014708, SW5E.replace(diagonals="alternating-2"), ag.Grid(47, 21), (11, 2)))
def test_a_round_area_is_its_rule_applied_to_every_square(placement):
    """Rows filled from their rim, and the whole-window shortcut, take what the rule takes square by square."""
    radius, rules, grid, at = placement
    sphere = ag.Sphere(radius * grid.square)
    a = ag.area(sphere, at=at, on=grid, rules=rules)
    expected = round_rule(sphere.radius / grid.square, a.recipe.origin, rules, grid)
    np.testing.assert_array_equal(a.shape_mask, expected)


@settings(max_examples=100, deadline=None)
@given(st.floats(0.5, 80), st.floats(-1, 1), st.floats(-1, 1), st.integers(-30, 30), st.integers(0, 3))
def test_threshold_mask_is_exact_whatever_the_estimate(radius, ox, oy, error, seed):
    """A wrong estimate of a row's reach costs search steps, never a square."""
    cols = np.abs(np.arange(-90.0, 70.0) + 0.5 - ox)
    rows = np.abs(np.arange(-60.0, 85.0) + 0.5 - oy)

    def ok(c, r):
        return np.hypot(c, r) <= radius

    def reach(r):
        exact = np.sqrt(np.maximum(radius**2 - r**2, 0.0))
        return exact + error * np.random.default_rng(seed).random(r.shape)

    direct = ok(cols[None, :], rows[:, None])
    np.testing.assert_array_equal(threshold_mask(cols, rows, ok, reach), direct)
    np.testing.assert_array_equal(threshold_mask(cols, rows, ok), direct)
