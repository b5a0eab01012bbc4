"""aoegrid's ``rules="pf2e"`` areas against the pf2e Foundry system's square highlighting (peers/foundry_systems.py).

pf2e overrides Foundry core's highlighting of circle and cone templates on
square grids: a square is lit when its centre is within the template's
distance of the origin, counted in whole squares rounded up per axis with
5/10/5 diagonals. The port is checked on hand-worked cases, then compared
square by square with aoegrid on an open 40 x 30 grid.

Pixels to map coordinates: 100 px a square, no scene padding, so canvas pixel
``(px, py)`` is map point ``(px / 100, py / 100)``; pf2e's squares are
returned as aoegrid's ``(col, row)``. pf2e has no upper clip (it skips only
squares with a negative centre), so its squares are cut to the 40 x 30 map.
"""

from functools import cache

import pytest
from peers.foundry_systems import (
    measure_distance_on_grid,
    pf2e_square_highlight,
    snapped_position,
    within_angle,
)

import aoegrid as ag

SIZE = 100
W, H = 40, 30
FEET = (5, 10, 15, 20, 25, 30)
CONE_FEET = (15, 20, 25, 30)
COMPASS = tuple(range(0, 360, 45))  # degrees clockwise from east in both (y points down)
# Intersections: mid-map, 7 and 9 squares in (just clear of the edges), and (3, 4) where 20-30 ft runs off.
INTERSECTIONS = ((20, 15), (7, 9), (3, 4))
CUT = [4, 12, 24, 42, 58, 72]  # squares of 5-30 ft bursts at (3, 4), cut by the map
ANY_ORIGIN = ag.Rules.preset("pf2e").replace(origin="any")


def pf2e(template, x, y):
    t = {**template, "x": x * SIZE, "y": y * SIZE}
    return frozenset(s for s in pf2e_square_highlight(SIZE, t) if s[0] < W and s[1] < H)


@cache
def aoegrid(shape, x, y, rules="pf2e"):
    return frozenset(map(tuple, ag.area(shape, at=(x, y), on=ag.Grid(W, H), rules=rules).squares))


def burst(feet):
    return {"t": "circle", "distance": feet}


def cone(feet, direction):
    # pf2e's cones are 90 degrees (its spell templates set angle 90).
    return {"t": "cone", "distance": feet, "direction": direction, "angle": 90}


# -- the port ------------------------------------------------------------------------------------


def test_pf2e_counts_squares_rounded_up_with_5_10_5_diagonals():
    def d(sx, sy):
        return measure_distance_on_grid(sx * SIZE, sy * SIZE, SIZE)

    assert d(0.5, 0.5) == 5  # an intersection to a neighbouring centre: one diagonal
    assert d(1.5, 1.5) == 15  # two diagonals, 5 + 10
    assert d(2.5, 2.5) == 20 and d(3.5, 3.5) == 30  # 5/10/5/10
    assert d(2.5, 0.5) == 15  # 1 diagonal + 2 straight
    assert d(1, 0) == 5 and d(0.01, 0) == 5  # any part of a square counts as a square
    assert d(0, 0) == 0


def test_template_layer_snaps_to_half_squares_and_cone_angles_include_their_ends():
    assert snapped_position(1224, 1276, SIZE) == (1200, 1300)
    assert snapped_position(1226, 1274, SIZE) == (1250, 1250)
    assert within_angle(-45, 45, 315) and within_angle(-45, 45, 45)
    assert not within_angle(-45, 45, 45.000001)
    assert within_angle(315, 45, 0) and not within_angle(0, 90, 180)


def test_bursts_and_cones_by_hand():
    # 5 ft on an intersection: the four squares round it.
    assert sorted(pf2e(burst(5), 20, 15)) == [(19, 14), (19, 15), (20, 14), (20, 15)]
    # 10 ft: the 4 x 4 block less its corners (their centres are 2 diagonals, 15 ft, off).
    assert len(pf2e(burst(10), 20, 15)) == 12
    assert (18, 13) not in pf2e(burst(10), 20, 15)
    # 15 ft cone east from an intersection: 2 + 4 + 2 squares.
    assert sorted(pf2e(cone(15, 0), 20, 15)) == [
        (20, 14),
        (20, 15),
        (21, 13),
        (21, 14),
        (21, 15),
        (21, 16),
        (22, 14),
        (22, 15),
    ]
    # From a square centre a cone starts at the edge it points through: half a square east.
    assert sorted(pf2e(cone(5, 0), 20.5, 15.5)) == [(21, 15)]
    # Squares with a negative centre are skipped; nothing clips the far side.
    assert min(pf2e_square_highlight(SIZE, {**burst(30), "x": 100, "y": 100})) == (0, 0)
    assert (45, 15) in pf2e_square_highlight(SIZE, {**burst(30), "x": 4000, "y": 1500})


# -- against aoegrid -----------------------------------------------------------------------------


def test_bursts_at_intersections_match_exactly():
    compared = squares = 0
    for feet in FEET:
        for x, y in INTERSECTIONS:
            assert aoegrid(ag.Sphere(feet), x, y) == pf2e(burst(feet), x, y), (feet, x, y)
            compared += 1
            squares += len(pf2e(burst(feet), x, y))
    assert compared == 18
    assert [len(pf2e(burst(f), 20, 15)) for f in FEET] == [4, 12, 24, 44, 68, 96]
    # 248 squares a full set of bursts; the map's top and left edges cut the 20-30 ft bursts at (3, 4).
    assert [len(pf2e(burst(f), 3, 4)) for f in FEET] == CUT
    assert squares == 2 * 248 + sum(CUT)


def test_cones_at_intersections_in_the_8_compass_directions_match_exactly():
    for feet in CONE_FEET:
        for direction in COMPASS:
            a = aoegrid(ag.Cone(feet, direction), 20, 15)
            assert a == pf2e(cone(feet, direction), 20, 15), (feet, direction)
    # Square counts: orthogonal, diagonal.
    assert [len(pf2e(cone(f, 0), 20, 15)) for f in CONE_FEET] == [8, 14, 20, 28]
    assert [len(pf2e(cone(f, 45), 20, 15)) for f in CONE_FEET] == [6, 11, 17, 24]


@pytest.mark.parametrize("direction", [10, 30, 60])
def test_cones_off_the_compass_match_too(direction):
    for feet in (15, 30):
        assert aoegrid(ag.Cone(feet, direction), 20, 15) == pf2e(cone(feet, direction), 20, 15)


# -- where they differ: origins at square centres ------------------------------------------------


def test_centre_origins_aoegrid_refuses_what_pf2e_places():
    # pf2e's template layer snaps to half squares, so a template can sit on a square's centre.
    assert len(pf2e(burst(5), 20.5, 15.5)) == 9
    with pytest.raises(ag.errors.InvalidValueError, match="grid intersection"):
        aoegrid(ag.Sphere(5), 20.5, 15.5)


def test_centre_bursts_pf2e_counts_centre_to_centre_aoegrid_to_the_far_edge():
    # With origin="any" aoegrid measures from the centre point to each square's far corner;
    # pf2e counts from the centre square to the square (an emanation of a 1-square creature).
    counts = {
        f: (len(aoegrid(ag.Sphere(f), 20.5, 15.5, ANY_ORIGIN)), len(pf2e(burst(f), 20.5, 15.5)))
        for f in FEET
    }
    assert counts == {
        5: (1, 9),
        10: (9, 21),
        15: (21, 37),
        20: (37, 61),
        25: (61, 89),
        30: (89, 121),
    }
    for f in FEET:
        a, p = aoegrid(ag.Sphere(f), 20.5, 15.5, ANY_ORIGIN), pf2e(burst(f), 20.5, 15.5)
        assert a < p  # strictly fewer, never other squares
    # pf2e's 5 ft burst from a centre is the 3 x 3 block; aoegrid's is the centre square alone
    # (a neighbour's far edge is 1.5 squares off, 10 ft).
    assert aoegrid(ag.Sphere(5), 20.5, 15.5, ANY_ORIGIN) == {(20, 15)}
    # In general pf2e's radius-r burst from a centre is aoegrid's radius r + 5 one.
    for f in FEET:
        assert pf2e(burst(f), 20.5, 15.5) == aoegrid(ag.Sphere(f + 5), 20.5, 15.5, ANY_ORIGIN)


def test_centre_cones_pf2e_starts_half_a_square_on():
    # pf2e moves a cone's origin from a centre to the edge (or corner) it points through, so the
    # origin's own square is never lit; aoegrid with origin="any" keeps the centre and its square.
    diffs = {}
    for feet in CONE_FEET:
        for direction in COMPASS:
            a = aoegrid(ag.Cone(feet, direction), 20.5, 15.5, ANY_ORIGIN)
            p = pf2e(cone(feet, direction), 20.5, 15.5)
            assert (20, 15) in a and (20, 15) not in p
            diffs[feet, direction] = (len(a - p), len(p - a))
    orth = {f: diffs[f, 0] for f in CONE_FEET}
    diag = {f: diffs[f, 45] for f in CONE_FEET}
    assert orth == {15: (3, 3), 20: (5, 5), 25: (7, 7), 30: (7, 7)}
    assert diag == {15: (5, 3), 20: (7, 5), 25: (9, 6), 30: (11, 7)}
    for (feet, direction), d in diffs.items():
        assert d == (orth if direction % 90 == 0 else diag)[feet]
    assert (
        sum(a + b for a, b in diffs.values())
        == 4 * (6 + 10 + 14 + 14) + 4 * (8 + 12 + 15 + 18)
        == 388
    )
    # East, 15 ft: pf2e's squares are aoegrid's moved one square east.
    a = aoegrid(ag.Cone(15, 0), 20.5, 15.5, ANY_ORIGIN)
    assert sorted(a) == [(20, 15), (21, 14), (21, 15), (21, 16), (22, 14), (22, 15), (22, 16)]
    assert pf2e(cone(15, 0), 20.5, 15.5) == {(c + 1, r) for c, r in a}
