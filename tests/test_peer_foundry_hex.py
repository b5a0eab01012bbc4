"""aoegrid's hex areas against Foundry VTT core's hex template highlighting (peers/foundry_hex.py).

The port is checked on hand-worked cases first, then aoegrid's circles under
``inclusion="center"`` are compared with it hex by hex.

Pixels to map coordinates: a Foundry hex is ``grid.size`` px flat-to-flat and
an aoegrid hex one unit, so lengths divide by ``grid.size``. Foundry's offset
``{i, j}`` is aoegrid's ``(col, row) = (j, i)`` in all four layouts, and its
hex ``(0, 0)`` sits half a hex further left (row layouts) or up (column
layouts) than aoegrid's, whose origin is the top-left of the map's hexes: map
``(x, y)`` is ``(px / size + 0.5, py / size)`` on pointy-top grids and
``(px / size, py / size + 0.5)`` on flat-top ones (maps more than one hex
across, as here).
"""

import math
from functools import cache

import numpy as np
import pytest
from peers.foundry_hex import FoundryHexGrid, foundry_hex_highlight, js_round

import aoegrid as ag

SIZE = 100  # Foundry's default grid.size
TYPES = {2: ("pointy", "odd"), 3: ("pointy", "even"), 4: ("flat", "odd"), 5: ("flat", "even")}
CENTRE = (6, 6)  # a hex of the hand-worked cases; on odd-r its centre is (600, 577.35) px


def grid_of(t, width=16, height=16):
    return ag.HexGrid(width, height, *TYPES[t])


def shift(t):
    """Map coordinates of Foundry's canvas point (0, 0)."""
    return (0.5, 0.0) if TYPES[t][0] == "pointy" else (0.0, 0.5)


def to_map(t, px, py):
    sx, sy = shift(t)
    return px / SIZE + sx, py / SIZE + sy


def to_px(t, x, y):
    sx, sy = shift(t)
    return (x - sx) * SIZE, (y - sy) * SIZE


def circle(px, py, feet, **kw):
    return {"t": "circle", "x": px, "y": py, "distance": feet, **kw}


def odd_r(template, **kw):
    return sorted(foundry_hex_highlight("odd-r", SIZE, template, **kw))


# -- the port ------------------------------------------------------------------------------------


@pytest.mark.parametrize("t", sorted(TYPES))
def test_foundry_numbers_hexes_as_aoegrid_does(t):
    g, fg = grid_of(t, 7, 6), FoundryHexGrid.of(t, SIZE)
    rows, cols = np.indices(g.shape)
    for col, row in zip(cols.ravel().tolist(), rows.ravel().tolist(), strict=True):
        fx, fy = fg.get_center_point(row, col)
        assert to_map(t, fx, fy) == pytest.approx(g.center(col, row), abs=1e-12)
        # Points well inside the hex, all round its centre, are in the same hex for both.
        for a in range(0, 360, 30):
            dx, dy = 40 * math.cos(math.radians(a)), 40 * math.sin(math.radians(a))
            i, j = fg.get_offset(fx + dx, fy + dy)
            assert (j, i) == (col, row) == g.hex_at(*to_map(t, fx + dx, fy + dy))


def test_layout_names_and_foundry_types_are_the_same_grids():
    assert [FoundryHexGrid.of(n, SIZE) for n in ("odd-r", "even-r", "odd-q", "even-q")] == [
        FoundryHexGrid.of(t, SIZE) for t in (2, 3, 4, 5)
    ]
    # Foundry's own float: (2 * SQRT1_3) * (0.5 * size) with its literal SQRT1_3.
    assert FoundryHexGrid.of(2, SIZE).get_center_point(0, 0) == (0, 57.735026918962575)
    with pytest.raises(ValueError, match="not a Foundry hex grid type: 1"):
        FoundryHexGrid.of(1, SIZE)
    with pytest.raises(ValueError, match="version must be 12 or 13, got 11"):
        foundry_hex_highlight(2, SIZE, circle(600, 577, 5), version=11)
    with pytest.raises(ValueError, match="unknown template type t='square'"):
        foundry_hex_highlight(2, SIZE, {"t": "square", "x": 0, "y": 0, "distance": 5})


def test_js_round_sends_halves_up():
    assert [js_round(v) for v in (-2.5, -0.5, 0.49999999999999994, 0.5, 577.35, 2.5)] == [
        -2, 0, 0, 1, 577, 3,
    ]


@pytest.mark.parametrize("version", [12, 13])
@pytest.mark.parametrize("grid_templates", [False, True])
def test_circles_on_a_hex_centre_are_hex_disks(version, grid_templates):
    """Foundry stores the origin (600, 577.35) as (600, 577), 0.35 px off: its probes absorb it."""
    kw = {"version": version, "grid_templates": grid_templates}
    g = grid_of(2)
    # No radius: only the origin's hex, by Foundry's "origin within 1 px of a centre" rule.
    assert odd_r(circle(600, 577, 0), **kw) == [CENTRE]
    # The 6 neighbours' centres are 100 px away: on a 5-ft circle (or the grid hexagon's corners).
    ring1 = [(5, 5), (5, 6), (5, 7), (6, 5), (6, 6), (6, 7), (7, 6)]
    assert odd_r(circle(600, 577, 5), **kw) == ring1
    for feet, n in ((10, 19), (15, 37), (20, 61), (25, 91), (30, 127)):
        disk = odd_r(circle(600, 577, feet), **kw)
        assert len(disk) == n
        within = np.argwhere(g.hexes_within(CENTRE, feet // 5))[:, ::-1].tolist()
        assert disk == sorted(map(tuple, within))


def test_small_circles():
    assert odd_r(circle(600, 577, 2.5)) == [CENTRE]  # 50 px: the neighbours are 100 px away
    # From the bottom corner of hex (6, 6), (600, 635.08) stored as (600, 635): the three hexes
    # there are 57.7 px away, the next ones 115.5 px.
    assert odd_r(circle(600, 635, 5)) == [(5, 7), (6, 6), (6, 7)]


def test_v12_probes_half_a_pixel_and_v13_a_pixel():
    """A 4.97-ft circle (99.4 px) on hex (6, 6): the neighbours' centres are just outside it.

    The origin is stored 0.35 px above the centre, so the centres of the E and W
    neighbours are 100.0006 px from it, SE and SW 100.35 px, NE and NW 99.70
    px. V12's points, 0.5 px off the centre, reach 0.68 px nearer at best
    (diagonally): NE and NW only. V13's, 1 px off, reach them all.
    """
    t = circle(600, 577, 4.97)
    assert odd_r(t, version=12) == [(5, 5), (6, 5), CENTRE]
    assert odd_r(t, version=13) == [(5, 5), (5, 6), (5, 7), (6, 5), (6, 6), (6, 7), (7, 6)]


def test_cones():
    """15-ft, 60-degree cones east from hex (6, 6)."""
    cone = {"t": "cone", "x": 600, "y": 577, "distance": 15, "angle": 60, "direction": 0}
    # Round (the default): within 300 px and 30 degrees of east; (9, 6) is 300 px away, on the arc.
    sector = [(6, 6), (7, 5), (7, 6), (7, 7), (8, 5), (8, 6), (8, 7), (9, 6)]
    assert odd_r(cone) == sector
    # Flat: a triangle whose sides are 300 / cos(30) = 346 px long, reaching (9, 4) and (9, 8).
    assert odd_r(cone, cone_type="flat") == sorted([*sector, (9, 4), (9, 8)])
    # Grid shapes: the 60-degree slice of the 3-hex hexagon, the same hexes as the round cone.
    assert odd_r(cone, grid_templates=True) == sector
    assert odd_r({**cone, "angle": 0}) == [CENTRE]  # no angle: an empty polygon, the origin's hex


def test_rays_and_rects():
    ray = {"t": "ray", "x": 600, "y": 577, "distance": 15, "width": 5, "direction": 0}
    # The row's centres 0..300 px east; the far one is on the ray's end, in by the probes.
    assert odd_r(ray) == [(6, 6), (7, 6), (8, 6), (9, 6)]
    assert odd_r(ray, grid_templates=True) == [(6, 6), (7, 6), (8, 6), (9, 6)]
    # A rect is the box from the origin to the ray's end: (600, 577) to (800, 777) here. Its right
    # and bottom edges are open in PIXI, but (8, 6)'s centre on x = 800 is in by the probes.
    rect = {"t": "rect", "x": 600, "y": 577, "distance": 200 * math.sqrt(2) / 20, "direction": 45}
    assert odd_r(rect) == [(6, 6), (6, 7), (6, 8), (7, 6), (7, 7), (7, 8), (8, 6), (8, 8)]
    # Due east a rect has no height and holds nothing: only the origin's hex is highlighted.
    assert odd_r({**rect, "distance": 10, "direction": 0}, grid_templates=True) == [CENTRE]


def test_only_hexes_in_range_of_the_canvas_are_tested():
    """A 10-ft circle on hex (0, 0) at the canvas's left edge, (0, 57.7) px stored as (0, 58)."""
    t = circle(0, 58, 10)
    everywhere = odd_r(t)
    assert len(everywhere) == 19
    # Fitted to the canvas and padded by 1 px, the bounds reach column -1 and row -1 but no
    # further: hexes off the canvas are still highlighted there, those beyond are not tested.
    on_canvas = odd_r(t, canvas_rect=(0, 0, 1000, 1000))
    assert sorted(set(everywhere) - set(on_canvas)) == [
        (-2, -1), (-2, 0), (-2, 1), (-1, -2), (0, -2), (1, -2)
    ]


# -- aoegrid against Foundry ---------------------------------------------------------------------

# Foundry places templates anywhere: so does this rule set (the 5e DMG would ask for hex corners).
RULES = ag.Rules.preset("sw5e").replace(inclusion="center", hex_origin="any")
FEET = (5, 10, 15, 20, 25, 30)
HEXES = ((7, 7), (8, 7), (7, 8), (8, 8))  # both parities of row and column


def placements(t):
    """(what, hex, exact map point, Foundry's stored pixel point): 4 hex centres, 24 corners."""
    g = grid_of(t)
    out = []
    for hex in HEXES:
        points = [("centre", g.center(*hex))]
        points += [(f"corner {k}", tuple(p)) for k, p in enumerate(g.corners(*hex).tolist())]
        for what, (x, y) in points:
            px, py = to_px(t, x, y)
            out.append((what, hex, (x, y), (js_round(px), js_round(py))))
    return out


@cache
def aoegrid_circle(t, x, y, feet):
    return frozenset(ag.area(ag.Sphere(feet), at=(x, y), on=grid_of(t), rules=RULES).hexes)


def foundry_circle(t, pixel, feet, version):
    hexes = foundry_hex_highlight(t, SIZE, circle(*pixel, feet), version=version)
    assert all(grid_of(t).contains(*h) for h in hexes)  # the map holds every highlight
    return frozenset(hexes)


@pytest.mark.parametrize("version", [12, 13])
@pytest.mark.parametrize("t", sorted(TYPES))
def test_centre_inclusion_matches_foundry_at_the_true_point(t, version):
    """aoegrid at a hex centre or corner, Foundry at it stored to whole pixels: no difference.

    From a centre, the 6 hexes exactly on the circle are in for aoegrid, and
    Foundry's probes (0.5 or 1 px) take back those that rounding the origin
    (by under 0.5 px) pushed out. From a corner no hex centre is near the
    circle: squared distances from a corner to centres are k / 3 hex widths
    with k not a multiple of 3, so a centre is at least 1 / (6 n) of a hex
    (2.7 px at 30 ft) off a circle of n hexes, beyond rounding and probes.
    """
    cases = [(*placed, feet) for placed in placements(t) for feet in FEET]
    assert len(cases) == 168
    differ = [
        (what, hex, feet)
        for what, hex, point, pixel, feet in cases
        if foundry_circle(t, pixel, feet, version) != aoegrid_circle(t, *point, feet)
    ]
    assert differ == []


def pushed_out(t, col, row, feet, point):
    """The ring hexes straight out from hex (col, row) farther than the radius from ``point``.

    They are the hexes on the circle about the centre (``feet / 5`` hexes along
    the 6 neighbour directions); a point off the centre leaves 4 of them outside.
    """
    g, n = grid_of(t), feet // 5
    ring = np.argwhere(g.ring((col, row), n))[:, ::-1].tolist()
    on_circle = [h for h in ring if math.isclose(math.dist(g.center(*h), g.center(col, row)), n)]
    assert len(on_circle) == 6
    return frozenset(tuple(h) for h in on_circle if math.dist(g.center(*h), point) > n + 1e-9)


@pytest.mark.parametrize("version", [12, 13])
@pytest.mark.parametrize("t", sorted(TYPES))
def test_centre_inclusion_differs_from_foundry_at_its_stored_point(t, version):
    """aoegrid at Foundry's stored (whole-pixel) point: only the probes differ.

    Hex corners round to points whose circles have the same hexes. Every hex
    centre has one coordinate that is not a whole number of pixels (a multiple
    of size / sqrt(3) / 2), so Foundry stores it up to 0.5 px off: of the 6
    hexes exactly on the circle about the true centre, the 4 on the far side of
    the shift end up outside it (by at most 0.5 px) and aoegrid leaves them
    out; Foundry's probes, 0.5 or 1 px from the centre, put them in. No other
    hex differs.
    """
    differ = {}
    for what, hex, _, pixel in placements(t):
        for feet in FEET:
            foundry = foundry_circle(t, pixel, feet, version)
            here = aoegrid_circle(t, *to_map(t, *pixel), feet)
            assert here <= foundry, (what, hex, feet)  # aoegrid takes nothing Foundry leaves out
            if foundry != here:
                differ[what, hex, feet] = (foundry - here, to_map(t, *pixel))
    assert len(differ) == len(HEXES) * len(FEET) == 24
    for (what, hex, feet), (extra, stored) in differ.items():
        assert what == "centre"
        assert len(extra) == 4
        assert extra == pushed_out(t, *hex, feet, stored)
    if t == 2:
        # Odd-r hex (7, 7)'s centre (750, 663.95) px is stored 0.05 px lower, at (750, 664): its
        # ring's east, west, north-east and north-west corners drop out of aoegrid's circle.
        assert differ["centre", (7, 7), 5][0] == {(6, 7), (8, 7), (7, 6), (8, 6)}
        assert differ["centre", (7, 7), 30][0] == {(1, 7), (13, 7), (4, 1), (10, 1)}
