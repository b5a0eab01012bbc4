"""aoegrid's square areas against Foundry VTT core's square template highlighting (peers/foundry_square.py).

The port is checked on hand-worked cases first, then aoegrid's circles and
cones under ``inclusion="center"`` are compared with it square by square.

Pixels to map coordinates: Foundry's square grid here is 100 px a square with
no scene padding, so canvas pixel ``(px, py)`` is map point
``(px / 100, py / 100)`` and Foundry's offset ``{i, j}`` is aoegrid's square
``(col, row) = (j, i)``, the square ``[j, j + 1] x [i, i + 1]``.
Intersections and square centres are whole pixels (multiples of 50), so
Foundry stores them exactly.
"""

import math
from functools import cache

import pytest
from peers.foundry_hex import template_shape
from peers.foundry_square import FoundrySquareGrid, foundry_square_highlight

import aoegrid as ag

SIZE = 100  # Foundry's default grid.size
W, H = 24, 24
RULES = ag.Rules.preset("sw5e").replace(inclusion="center")
FEET = (5, 10, 15, 20, 25, 30)
# Two intersections and two square centres, away from the map's edges.
PLACEMENTS = ((12, 12), (11, 13), (12.5, 12.5), (11.5, 12.5))
DIRECTIONS = (0, 45, 90)  # degrees clockwise from east in both (y points down)
FIVE_E_CONE = 53.13  # Foundry's default cone angle (CONFIG.MeasuredTemplate.defaults.angle)


def foundry(template, px, py, width=W, height=H, **kw):
    """Foundry's squares for a template at canvas pixel (px, py) on a width x height scene."""
    t = {**template, "x": px, "y": py}
    return frozenset(
        foundry_square_highlight(SIZE, t, canvas_rect=(0, 0, width * SIZE, height * SIZE), **kw)
    )


@cache
def aoegrid(shape, x, y, width=W, height=H):
    return frozenset(
        map(tuple, ag.area(shape, at=(x, y), on=ag.Grid(width, height), rules=RULES).squares)
    )


def circle(feet):
    return {"t": "circle", "distance": feet}


# -- the port ------------------------------------------------------------------------------------


def test_foundry_numbers_squares_as_aoegrid_does():
    fg = FoundrySquareGrid.of(SIZE)
    for row in range(5):
        for col in range(7):
            cx, cy = fg.get_center_point(row, col)
            assert (cx / SIZE, cy / SIZE) == (col + 0.5, row + 0.5)
            assert fg.get_offset(cx + 49, cy - 49) == (row, col)
    # Offset ranges are half-open: floor of the low sides, ceil of the high ones.
    from peers.foundry_hex import Rectangle

    assert fg.get_offset_range(Rectangle(-1, 99, 202, 2)) == (0, -1, 2, 3)
    assert fg.get_offset_range(Rectangle(150, 150, 0, 10)) == (1, 1, 1, 1)
    with pytest.raises(ValueError, match="not a Foundry diagonal rule: 7"):
        FoundrySquareGrid.of(SIZE, diagonals=7)


def test_circles_from_an_intersection_and_a_centre():
    at = (1200, 1200)
    # 5 ft from an intersection: the 4 squares round it (centres 70.7 px away, the next 158 px).
    assert sorted(foundry(circle(5), *at)) == [(11, 11), (11, 12), (12, 11), (12, 12)]
    # No radius: only the square whose centre is within 1 px of the origin (none from an intersection).
    assert foundry(circle(0), *at) == frozenset()
    assert foundry(circle(0), 1250, 1250) == {(12, 12)}
    assert foundry(circle(0), 1250, 1251) == frozenset()  # strictly within 1 px
    # From a centre, 5 ft: the centre and its 4 edge neighbours, 100 px away, exactly on the circle.
    assert sorted(foundry(circle(5), 1250, 1250)) == [
        (11, 12),
        (12, 11),
        (12, 12),
        (12, 13),
        (13, 12),
    ]
    # 13 squares a quarter for 20 ft from an intersection (centres within 4 squares).
    assert len(foundry(circle(20), *at)) == 52


def test_grid_based_circles_follow_the_diagonal_rule():
    """With "Grid-based Template Shapes" on, a 20-ft circle is the grid's own circle."""
    t = circle(20)
    counts = {
        d: len(foundry(t, 1200, 1200, grid_templates=True, diagonals=d))
        for d in (
            "equidistant",
            "exact",
            "approximate",
            "rectilinear",
            "alternating-1",
            "alternating-2",
        )
    }
    # Equidistant: an 8 x 8 square; rectilinear: a diamond; 5/10/5 (alternating-1) happens to be
    # the Euclidean circle's 52 at this size.
    assert counts == {
        "equidistant": 64,
        "exact": 44,
        "approximate": 44,
        "rectilinear": 40,
        "alternating-1": 52,
        "alternating-2": 44,
    }
    # The 5/10/5 staircase for 15 ft: a quarter (3, 0), (3, 1), (1, 3), mirrored, in px.
    assert FoundrySquareGrid.of(SIZE, diagonals="alternating-1").get_circle((0, 0), 15)[:3] == [
        (300.0, 0),
        (300.0, 100),
        (100, 300.0),
    ]


def test_cones_rays_and_rects():
    # A 15-ft, 90-degree round cone east from an intersection: centres within 300 px and 45
    # degrees of east; (12, 11) and (12, 12) are on its sides, in by the probes.
    cone = {"t": "cone", "distance": 15, "angle": 90, "direction": 0}
    assert sorted(foundry(cone, 1200, 1200)) == [
        (12, 11),
        (12, 12),
        (13, 10),
        (13, 11),
        (13, 12),
        (13, 13),
        (14, 10),
        (14, 11),
        (14, 12),
        (14, 13),
    ]
    # A 10-ft, 5-ft-wide ray east from the middle of a square's west edge: that row, 2 squares.
    ray = {"t": "ray", "distance": 10, "width": 5, "direction": 0}
    assert sorted(foundry(ray, 1200, 1250)) == [(12, 12), (13, 12)]
    # A rect from (1200, 1200) to (1400, 1400): PIXI's right and bottom edges are open, but the
    # centres are 50 px inside anyway: 2 x 2 squares.
    rect = {"t": "rect", "distance": 200 * math.sqrt(2) / 20, "direction": 45}
    assert sorted(foundry(rect, 1200, 1200)) == [(12, 12), (12, 13), (13, 12), (13, 13)]


def test_the_canvas_bounds_padded_by_a_pixel_reach_squares_off_the_map():
    """A 10-ft circle at the map's top-left corner: Foundry also highlights row and column -1."""
    off = foundry(circle(10), 0, 0)
    on = aoegrid(ag.Sphere(10), 0, 0)
    assert sorted(on) == [(0, 0), (0, 1), (1, 0)]
    assert sorted(off - on) == [(-1, -1), (-1, 0), (-1, 1), (0, -1), (1, -1)]
    assert on < off


def test_the_probes_put_back_a_centre_on_the_arc_that_a_round_cones_chords_cut_off():
    """A round cone's arc is chords 3 degrees apart, up to 0.21 px inside the arc at 30 ft.

    25 ft at 45 degrees from a square centre: the centre (300, 400) px away is
    exactly 500 px out, at 53.13 degrees, between the rays at 51 and 54: just
    outside the polygon. One of Foundry's +-1 px probes is inside it.
    """
    cone = {"t": "cone", "distance": 25, "angle": 90, "direction": 45}
    shape = template_shape(FoundrySquareGrid.of(SIZE), cone)  # type: ignore[arg-type]
    assert not shape.contains(300, 400)
    assert shape.contains(299, 399)
    assert (15, 16) in foundry(cone, 1250, 1250)
    assert (15, 16) in aoegrid(ag.Cone(25, 45, kind="quarter-circle"), 12.5, 12.5)


# -- aoegrid against Foundry ---------------------------------------------------------------------


def test_circles_at_intersections_and_centres_match_foundry():
    """24 placements (2 intersections, 2 centres, 5-30 ft): no difference.

    Squared distances from an intersection to centres are (odd^2 + odd^2) / 4
    squares, from a centre whole numbers: a centre not exactly on a circle of n
    squares is at least 25 / n px (4.2 px at 30 ft) off it, beyond Foundry's
    +-1 px probes, and those exactly on it (from a centre) are in for both.
    """
    differ = [
        (at, feet)
        for at in PLACEMENTS
        for feet in FEET
        if foundry(circle(feet), at[0] * SIZE, at[1] * SIZE) != aoegrid(ag.Sphere(feet), *at)
    ]
    assert differ == []


@pytest.mark.parametrize(
    ("kind", "angle", "cone_type"),
    [("quarter-circle", 90, "round"), ("triangle", FIVE_E_CONE, "flat")],
)
def test_cones_at_intersections_and_centres_match_foundry(kind, angle, cone_type):
    """72 placements each (4 points, 5-30 ft, east, south-east, south): no difference.

    Foundry's round 90-degree cone against aoegrid's quarter circle, its flat
    53.13-degree cone (a triangle whose far side is ``distance`` out) against
    5e's triangle (``2 * atan(1 / 2)`` = 53.1301 degrees, 0.0001 wider).
    """
    differ = []
    for at in PLACEMENTS:
        for feet in FEET:
            for d in DIRECTIONS:
                cone = {"t": "cone", "distance": feet, "angle": angle, "direction": d}
                theirs = foundry(cone, at[0] * SIZE, at[1] * SIZE, cone_type=cone_type)
                if theirs != aoegrid(ag.Cone(feet, d, kind=kind), *at):
                    differ.append((at, feet, d))
    assert differ == []


def test_circles_at_other_whole_pixels_differ_only_by_the_probes():
    """600 placements: every 10 px across a square, 5-30 ft, aoegrid at Foundry's exact point.

    108 differ, always by squares Foundry adds: their centres are outside the
    circle by under sqrt(2) px, and one of Foundry's 9 test points (the centre
    +-1 px in x and y) is inside it. aoegrid tests the centre itself.
    """
    differ = {}
    for px in range(1200, 1300, 10):
        for py in range(1200, 1300, 10):
            for feet in FEET:
                theirs = foundry(circle(feet), px, py)
                ours = aoegrid(ag.Sphere(feet), px / SIZE, py / SIZE)
                assert ours <= theirs
                if theirs != ours:
                    differ[px, py, feet] = sorted(theirs - ours)
    assert len(differ) == 108
    for (px, py, feet), extra in differ.items():
        for col, row in extra:
            beyond = math.dist(((col + 0.5) * SIZE, (row + 0.5) * SIZE), (px, py)) - feet * SIZE / 5
            assert 0 < beyond < math.sqrt(2)
    # (1200, 1210), 15 ft: the centres (1050, 950) and (1350, 950) are 300.17 px away.
    assert differ[1200, 1210, 15] == [(10, 9), (13, 9)]
    # (1230, 1240), 10 ft: (1050, 1150) is 201.25 px away; the probe (1051, 1151) is 199.90 px.
    assert differ[1230, 1240, 10] == [(10, 11)]
    # (1230, 1250), 30 ft: four centres 600.33 px away.
    assert differ[1230, 1250, 30] == [(12, 6), (12, 18), (17, 9), (17, 15)]


def test_rulebook_presets_against_foundrys_centre_test():
    """A 20-ft burst at the intersection (20, 15) of a 40 x 30 map.

    Foundry's centre test takes 52 squares. Starfinder's far-edge rule counts
    5/10/5 diagonals to each square's far corner and drops the 8 squares whose
    far corner is 4 and 2 squares off (2 diagonals and 2 straight steps, 25 ft;
    their centres are 3.81 squares away): 44. 5e's half rule (sw5e) takes the same 52 here. Savage Worlds'
    touch rule (a 4" burst on a 1" grid) adds the 8 squares the circle only
    clips: 60.
    """
    theirs = foundry(circle(20), 2000, 1500, 40, 30)
    assert len(theirs) == 52
    grid = ag.Grid(40, 30)
    starfinder = frozenset(
        map(tuple, ag.area(ag.Sphere(20), at=(20, 15), on=grid, rules="starfinder").squares)
    )
    sw5e = frozenset(map(tuple, ag.area(ag.Sphere(20), at=(20, 15), on=grid, rules="sw5e").squares))
    savage = frozenset(
        map(
            tuple,
            ag.area(
                ag.Sphere(4), at=(20, 15), on=ag.Grid(40, 30, units="in"), rules="savage-worlds"
            ).squares,
        )
    )
    assert (len(starfinder), len(sw5e), len(savage)) == (44, 52, 60)
    assert sorted(theirs - starfinder) == [
        (16, 13),
        (16, 16),
        (18, 11),
        (18, 18),
        (21, 11),
        (21, 18),
        (23, 13),
        (23, 16),
    ]
    assert starfinder < theirs == sw5e < savage
    assert sorted(savage - theirs) == [
        (16, 12),
        (16, 17),
        (17, 11),
        (17, 18),
        (22, 11),
        (22, 18),
        (23, 12),
        (23, 17),
    ]
