"""Stencils: every square a shape can take lies in its window, and pf2e lines follow the rules text."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.directions import unit_vector
from aoegrid.raster import Window, coverage
from aoegrid.rules import PF2E, STARFINDER, SW5E
from aoegrid.stencils import _cone_region, _Origin, _rasterize, _stencil_on_grid, shape_extent

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
