"""Walls on a BattleMap: hand-built maps with answers worked out by hand."""

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import shapely

import aoegrid as ag
from aoegrid.board.walls import PIECE_BYTES, Channel, WallSet


def room(x0, y0, x1, y1, **kw):
    """The four walls of a rectangular room, as one closed polyline."""
    return ag.walls_from([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], **kw)


# --- walls themselves -------------------------------------------------------------


def test_wall_kinds_and_states():
    door = ag.Wall((3, 4), (4, 4), kind="door")
    assert door.blocks_effect and door.blocks_sight and door.blocks_movement
    opened = ag.Wall((3, 4), (4, 4), kind="door", open=True)
    assert not (opened.blocks_effect or opened.blocks_sight or opened.blocks_movement)
    window = ag.Wall((3, 4), (4, 4), kind="window")
    assert window.blocks_effect and window.blocks_movement and not window.blocks_sight
    curtain = ag.Wall((0, 0), (1, 0), blocks={"sight"})
    assert curtain.blocks_sight and not curtain.blocks_effect


def test_walls_from_polylines_and_shapely():
    assert len(ag.walls_from([(0, 0), (4, 0), (4, 3)])) == 2
    assert len(ag.walls_from(shapely.LineString([(0, 0), (1, 1), (2, 0)]))) == 2
    holed = shapely.Polygon([(0, 0), (10, 0), (10, 10), (0, 10)], [[(4, 4), (6, 4), (6, 6), (4, 6)]])
    assert len(ag.walls_from(holed)) == 8
    bowtie = shapely.Polygon([(0, 0), (2, 2), (2, 0), (0, 2)])  # invalid: its outline is used as drawn
    assert len(ag.walls_from(bowtie)) == 4


@pytest.mark.parametrize(
    ("make", "error", "match"),
    [
        (lambda: ag.Wall((0, float("nan")), (1, 1)), ag.InvalidValueError, r"Wall start y must be a finite number, got nan"),
        (lambda: ag.Wall((0, 0), (float("inf"), 1)), ag.InvalidValueError, r"Wall end x must be a finite number, got inf"),
        (lambda: ag.Wall((0, 0), (1, 1), kind="arch"), ag.InvalidValueError, r"unknown Wall kind 'arch'; valid choices are 'wall', 'door', 'window'"),
        (lambda: ag.Wall((0, 0), (1, 1), blocks={"smell"}), ag.InvalidValueError, r"unknown Wall blocks 'smell'; valid choices are 'effect', 'sight', 'movement'"),
        (lambda: ag.Wall((0, 0), (1, 1), one_way="up"), ag.InvalidValueError, r"unknown Wall one_way 'up'"),
        (lambda: ag.walls_from([(0, 0)]), ag.InvalidValueError, r"a wall polyline needs at least two points"),
        (lambda: ag.walls_from(shapely.Point(1, 1)), ag.InvalidTypeError, r"cannot make walls from a shapely Point"),
        (lambda: ag.walls_from(shapely.Polygon()), ag.InvalidValueError, r"cannot make walls from an empty geometry"),
        (lambda: ag.BattleMap(ag.Grid(5, 5), fog=[[(0, 0), (1, 0), (1, float("nan"))]]), ag.InvalidValueError, r"fog zone point y must be a finite number, got nan"),
        (lambda: ag.BattleMap(ag.Grid(5, 5), walls=[42]), ag.InvalidTypeError, r"walls must be Wall objects, polylines of \(x, y\) points or shapely lines or polygons; got 42"),
    ],
)
def test_bad_walls(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_zero_length_duplicate_and_crossing_walls():
    walls = [ag.Wall((1, 1), (1, 1)), ag.Wall((0, 5), (10, 5)), ag.Wall((0, 5), (10, 5)), ag.Wall((5, 0), (5, 10))]
    ws = WallSet.build(walls, Channel.EFFECT)
    assert ws.dropped == 1 and ws.merged == 1
    # The two copies of the horizontal wall are one; it and the vertical one are split at (5, 5).
    assert len(ws.segs) == 4
    assert min(map(tuple, ws.segs[:, :2].tolist())) == (0.0, 5.0)
    m = ag.BattleMap(ag.Grid(10, 10), walls=walls)
    a = ag.area(ag.Sphere(15), at=(3, 3), on=m)
    assert all(x < 5 and y < 5 for x, y in a.squares)


# --- bursts -----------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["starfinder", "pf2e", "sw5e"])
@pytest.mark.parametrize("mode", ["burst", "emanation", "spread"])
@pytest.mark.parametrize(
    "shape", [ag.Sphere(50), ag.Cone(60, "E"), ag.Cone(60, 200), ag.Line(90, 30), ag.Cube(40, "S"), ag.Cylinder(50, 20)]
)
def test_sealed_room_leaks_nothing(rules, mode, shape):
    m = ag.BattleMap(ag.Grid(30, 30), walls=room(10, 10, 18, 16))
    a = ag.area(shape, at=(14, 13), on=m, rules=rules, mode=mode)
    if isinstance(shape, ag.Cylinder) and rules != "sw5e":
        # Starfinder: "A cylinder-shaped effect ignores any obstructions".
        assert len(a) == len(ag.area(shape, at=(14, 13), on=m.grid, rules=rules))
        return
    assert a.squares, "the room itself is reached"
    assert all(10 <= x < 18 and 10 <= y < 16 for x, y in a.squares)


def test_door_open_and_closed():
    walls = [*room(0, 0, 8, 8)[:1], ag.Wall((8, 0), (8, 3)), ag.Wall((8, 3), (8, 5), kind="door"), ag.Wall((8, 5), (8, 8)), *room(0, 0, 8, 8)[2:]]
    closed = ag.BattleMap(ag.Grid(16, 8), walls=walls)
    door = closed.doors
    assert door == [2]
    shut = ag.area(ag.Sphere(30), at=(6, 4), on=closed)
    assert max(x for x, _ in shut.squares) == 7
    opened = closed.with_door(2, open=True)
    through = ag.area(ag.Sphere(30), at=(6, 4), on=opened)
    beyond = [s for s in through.squares if s[0] >= 8]
    # Through a 2-square doorway from 2 squares away: the squares beyond are
    # those a straight line reaches past the door posts at (8, 3) and (8, 5).
    assert (8, 3) in through and (8, 4) in through and (11, 4) in through
    assert (9, 0) not in through and (9, 7) not in through
    # Columns 8 to 11 take 4, 4, 6 and 2 squares (the last cut by the radius).
    assert len(beyond) == 16
    with pytest.raises(ag.InvalidValueError, match=r"wall 0 is a plain wall, not a door or window; doors are \[2\]"):
        closed.with_door(0, open=True)


def test_wall_on_grid_lines_with_origin_on_its_end():
    m = ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall((10, 0), (10, 10))])
    # A line from the wall's end touches it only there: nothing is blocked.
    at_end = ag.area(ag.Sphere(20), at=(10, 10), on=m)
    assert at_end == ag.area(ag.Sphere(20), at=(10, 10), on=m.grid)
    assert np.all(at_end.cover[at_end.mask] == ag.Cover.NONE)
    with pytest.raises(ag.OriginOnWallError, match=r"point of origin \(10, 6\) lies on the wall from \(10, 0\) to \(10, 10\)"):
        ag.area(ag.Sphere(20), at=(10, 6), on=m)


def test_joined_corner_leaves_no_gap():
    # Two walls meeting at (10, 10); the origin looks straight at the corner.
    m = ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall((10, 6), (10, 10)), ag.Wall((10, 10), (14, 10))])
    a = ag.area(ag.Sphere(50), at=(6, 14), on=m)  # the corner is on the diagonal through the origin
    vis = a.visible
    # Beyond the corner on the diagonal line, the square (11, 8) is in the shadow of both walls.
    assert vis[8, 11] == 0 and (11, 8) not in a
    free = ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall((10, 6), (10, 10))])
    b = ag.area(ag.Sphere(50), at=(6, 14), on=free)
    assert (11, 8) in b  # with one wall the line grazes its end and passes


def test_pillar_casts_a_shadow_with_exact_partial_squares():
    m = ag.BattleMap(ag.Grid(20, 12), walls=[shapely.box(10, 5, 11, 6)])
    a = ag.area(ag.Sphere(60), at=(5, 5), on=m)
    # The shadow lies between the ray along y = 5 (which grazes the pillar's
    # top and passes) and the ray through (10, 6), y = 5 + (x - 5) / 5.
    np.testing.assert_allclose(a.visible[6, 11:16], [0.7, 0.5, 0.3, 0.1, 0.0], atol=1e-9)
    np.testing.assert_allclose(a.visible[5, 10:15], [0, 0, 0, 0, 0], atol=1e-12)
    np.testing.assert_allclose(a.visible[4, 10:15], [1, 1, 1, 1, 1], atol=1e-12)
    assert a.cover[6, 11:16].tolist() == [1, 1, 1, 1, 3]
    assert a.cover[4, 11] == 0  # the line to its lower corners runs along the pillar's top: no cover
    assert (11, 6) in a and (15, 6) not in a and (12, 5) not in a
    sw = ag.area(ag.Sphere(60), at=(5, 5), on=m, rules="sw5e")
    # 5e counts blocked corner lines: the top two corners of (11, 6) are
    # hidden, the bottom two seen (the line to (15, 7) grazes the pillar's
    # corner, both walls on one side of it): half cover.
    assert sw.cover[6, 11] == ag.Cover.PARTIAL and sw.cover[6, 14] == ag.Cover.PARTIAL


def test_three_quarters_cover():
    # A wall ending at (8, 6.35): the line through its end passes (9, 6.8) and
    # (10, 7.25), so of square (9, 6) only the corner (9, 7) is seen, and a
    # sliver of area 0.2 * (0.2 / 0.45) / 2 = 2 / 45 below that line.
    m = ag.BattleMap(ag.Grid(16, 12), walls=[ag.Wall((8, 0), (8, 6.35))])
    sw = ag.area(ag.Sphere(30), at=(5, 5), on=m, rules="sw5e")
    assert sw.visible[6, 9] == pytest.approx(2 / 45, abs=1e-9)
    assert sw.cover[6, 9] == ag.Cover.THREE_QUARTERS and (9, 6) in sw
    sf = ag.area(ag.Sphere(30), at=(5, 5), on=m)
    assert sf.cover[6, 9] == ag.Cover.PARTIAL


def test_window_blocks_effect_not_sight_and_fog_blocks_sight_not_effect():
    wall_with_window = [ag.Wall((8, 0), (8, 4)), ag.Wall((8, 4), (8, 6), kind="window"), ag.Wall((8, 6), (8, 10))]
    m = ag.BattleMap(ag.Grid(16, 10), walls=wall_with_window)
    a = ag.area(ag.Sphere(30), at=(6, 5), on=m)
    assert (9, 5) not in a and (9, 5) in ag.area(ag.Sphere(30), at=(6, 5), on=m.grid)
    assert a.visible[5, 9] == 0 and a.sight_visible[5, 9] == 1.0
    assert a.sight_cover[5, 9] == ag.Cover.NONE and a.cover[5, 9] == ag.Cover.TOTAL
    fog = ag.BattleMap(ag.Grid(16, 10), fog=[[(9, 3), (12, 3), (12, 7), (9, 7)]])
    f = ag.area(ag.Sphere(40), at=(5, 5), on=fog)
    assert (12, 5) in f and f.visible[5, 12] == 1.0
    assert f.sight_visible[5, 12] == 0.0 and f.sight_cover[5, 12] == ag.Cover.TOTAL
    assert f.sight_visible[5, 10] == 0.0  # inside the fog too: its outline blocks sight


def test_one_way_wall():
    # Blocks lines that start on its right (seen from (10, 0) to (10, 10): west).
    m = ag.BattleMap(ag.Grid(20, 10), walls=[ag.Wall((10, 0), (10, 10), one_way="right")])
    from_west = ag.area(ag.Sphere(20), at=(8, 5), on=m)
    from_east = ag.area(ag.Sphere(20), at=(12, 5), on=m)
    assert max(x for x, _ in from_west.squares) == 9
    assert min(x for x, _ in from_east.squares) == 8


def test_cylinder_ignores_walls_under_starfinder_only():
    m = ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall((10, 0), (10, 20))])
    sf = ag.area(ag.Cylinder(20, 40), at=(9, 10), on=m)
    assert sf == ag.area(ag.Cylinder(20, 40), at=(9, 10), on=m.grid)
    sw = ag.area(ag.Cylinder(20, 40), at=(9, 10), on=m, rules="sw5e")
    assert max(x for x, _ in sw.squares) == 9


def test_line_stops_at_the_first_wall():
    m = ag.BattleMap(ag.Grid(20, 10), walls=[ag.Wall((6, 0), (6, 10)), ag.Wall((9, 0), (9, 10))])
    a = ag.area(ag.Line(60, "E"), at=(2, 5), on=m)
    assert a.squares == [(2, 5), (3, 5), (4, 5), (5, 5)]
    diag = ag.area(ag.Line(60, "SE"), at=(2, 0), on=m)
    assert diag.squares == [(2, 0), (3, 1), (4, 2), (5, 3)]
    wide = ag.area(ag.Line(60, "E"), at=(2, 5), on=m, rules="sw5e")
    assert wide.squares == [(2, 4), (3, 4), (4, 4), (5, 4), (2, 5), (3, 5), (4, 5), (5, 5)]


def test_sw5e_origin_behind_a_wall_moves_to_the_near_side():
    m = ag.BattleMap(ag.Grid(20, 12), walls=[ag.Wall((10, 0), (10, 12))])
    caster = ag.Token(2, 5)
    a = ag.area(ag.Sphere(10), at=(13, 5.5), on=m, rules="sw5e", caster=caster)
    # The caster's line to (13, 5.5) meets the wall at x = 10: the sphere
    # starts just west of it and covers only squares on the caster's side.
    assert a.squares and all(x <= 9 for x, _ in a.squares)
    assert (9, 5) in a and (8, 5) in a
    unmoved = ag.area(ag.Sphere(10), at=(13, 5.5), on=m, rules="starfinder".replace("starfinder", "sw5e"))
    assert all(x >= 10 for x, _ in unmoved.squares)  # no caster given: the point stays
    seen = ag.area(ag.Sphere(10), at=(6, 5.5), on=m, rules="sw5e", caster=caster)
    assert seen == ag.area(ag.Sphere(10), at=(6, 5.5), on=m, rules="sw5e")


def test_emanation_from_a_creature_has_line_of_effect_from_its_whole_space():
    # The creature stands at a doorway post: its west corners see past the post.
    m = ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall((10, 0), (10, 9))])
    a = ag.area(ag.Sphere(10), at=ag.Token(10, 9), on=m, rules="pf2e", mode="emanation")
    assert (9, 8) in a and (10, 8) in a and (11, 8) in a


def test_walls_need_a_map():
    a = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 10))
    with pytest.raises(ag.InvalidValueError, match=r"visible needs walls: compute the area on an aoegrid.BattleMap"):
        _ = a.visible
    with pytest.raises(ag.InvalidValueError, match=r"path_distance is computed for spreads on a BattleMap"):
        _ = a.path_distance


def test_cover_names():
    from aoegrid.geometry.cover import GRADES

    assert GRADES[ag.CoverRule.ANY_CORNER][ag.Cover.PARTIAL][0] == "cover"
    assert GRADES[ag.CoverRule.CORNER_COUNT][ag.Cover.THREE_QUARTERS] == ("three-quarters cover", "+5 AC and Dexterity saves")
    assert math.isclose(float(ag.Cover.TOTAL), 3.0)


# --- spreads --------------------------------------------------------------------------


def l_corridor() -> ag.BattleMap:
    """A corridor two squares wide along rows 2-3, turning south down columns 6-7."""
    walls = ag.walls_from([(0, 2), (8, 2), (8, 12)]) + ag.walls_from([(0, 4), (6, 4), (6, 12)])
    return ag.BattleMap(ag.Grid(10, 12), walls=walls)


def test_l_corridor_burst_stops_at_the_corner_and_spread_goes_round():
    m = l_corridor()
    burst = ag.area(ag.Sphere(40), at=(2, 3), on=m)
    corridor = [(x, y) for y in (2, 3) for x in range(8)]
    # The burst sees round the corner only into (6, 4) and (7, 4), partly.
    assert burst.squares == [*corridor, (6, 4), (7, 4)]
    assert burst.cover[4, 6] == burst.cover[4, 7] == ag.Cover.PARTIAL
    spread = ag.area(ag.Sphere(40), at=(2, 3), on=m, mode="spread")
    # Counting round the corner: (6, 4) is 6 squares, (7, 4) and (6, 5) 7,
    # (7, 5) and (6, 6) 8 (the diagonal past the corner at (6, 4) is barred).
    assert spread.squares == [*corridor, (6, 4), (7, 4), (6, 5), (7, 5), (6, 6)]
    path = spread.path_distance
    # Paths are counted as far as the spread can reach (40 ft), no farther.
    assert path[4:8, 6].tolist() == [30.0, 35.0, 40.0, np.inf]
    assert path[4:8, 7].tolist() == [35.0, 40.0, np.inf, np.inf]
    assert path[3, 0] == 10.0 and path[3, 7] == 30.0
    assert np.isinf(path[6, 2])  # behind the corridor wall: no path


def test_spread_cannot_cut_a_wall_corner_diagonally():
    # A wall ending at (5, 5): the diagonal step from (4, 4) to (5, 5) would
    # pass through its end, so the spread goes round by an orthogonal step.
    m = ag.BattleMap(ag.Grid(10, 10), walls=[ag.Wall((5, 0), (5, 5))])
    spread = ag.area(ag.Sphere(15), at=(4, 4), on=m, mode="spread")
    assert spread.path_distance[5, 5] == 15.0  # (4, 4) 5, (4, 5) 10, (5, 5) 15
    assert np.isinf(spread.path_distance[4, 5]) and (5, 4) not in spread  # 20 ft round: beyond its 15
    wider = ag.area(ag.Sphere(20), at=(4, 4), on=m, mode="spread")
    assert wider.path_distance[4, 5] == 20.0 and (5, 4) in wider


# --- lines and creature cover, per the rules texts ----------------------------------------


def test_5e_line_takes_every_square_a_straight_line_reaches():
    # SW5e: a location is left out only where no straight line from the point of origin reaches it.
    m = ag.BattleMap(ag.Grid(16, 10), walls=[ag.Wall((6, 5.4), (6, 8))])
    line = ag.area(ag.Line(40, "E"), at=(2, 5.5), on=m, rules="sw5e")
    assert line.squares == [(x, 5) for x in range(2, 10)]
    np.testing.assert_allclose(line.visible[5, 6:10], [0.3875, 0.3625, 0.3375, 0.3125], atol=1e-9)


def test_starfinder_line_still_stops_at_the_first_wall():
    m = ag.BattleMap(ag.Grid(16, 10), walls=[ag.Wall((6, 4), (6, 8))])
    assert ag.area(ag.Line(40, "E"), at=(2, 5), on=m).squares == [(x, 5) for x in range(2, 6)]
    no_stop = ag.Rules.preset("starfinder").replace(line_stops_at_wall=False)
    assert ag.area(ag.Line(40, "E"), at=(2, 5), on=m, rules=no_stop).squares == [(x, 5) for x in range(2, 6)]
    with pytest.raises(ag.InvalidTypeError, match=r"Rules line_stops_at_wall must be True or False, got 'no'"):
        no_stop.replace(line_stops_at_wall="no")


def test_starfinder_creature_cover_comes_from_the_visible_fraction_of_its_space():
    # No corner line of the ogre's squares is blocked, yet two of them are mostly in shadow.
    m = ag.BattleMap(ag.Grid(24, 12), walls=[shapely.box(10, 5.05, 10.4, 5.40)],
                     tokens=[ag.Token(15, 4, size="large", name="ogre")])
    a = ag.area(ag.Sphere(60), at=(5, 5), on=m, rules="starfinder")
    np.testing.assert_allclose(a.visible[5, 15:17], [0.257222, 0.186481], atol=1e-6)
    assert [(r.token.name, r.cover_name) for r in a.tokens()] == [("ogre", "cover")]
    clear = ag.BattleMap(ag.Grid(24, 12), tokens=[ag.Token(15, 4, size="large", name="ogre")])
    assert [r.cover_name for r in ag.area(ag.Sphere(60), at=(5, 5), on=clear).tokens()] == ["none"]


def test_split_points_are_the_same_bits_whichever_way_walls_are_drawn():
    a, b = ((0, 5), (4, 1)), ((0, 0), (4, 8))
    sets = [
        WallSet.build([ag.Wall(*wa), ag.Wall(*wb)], Channel.EFFECT, (4, 5)).segs.tolist()
        for wa in (a, a[::-1])
        for wb in (b, b[::-1])
    ]
    # Two-way walls are taken from their lower end, so drawing one backwards changes no bit.
    assert sets[0] == sets[1] == sets[2] == sets[3]
    # Wall b leaves the 4 x 5 map: it is clipped one square beyond, at y = 6.
    assert [3.0, 6.0] in [s[2:] for s in sets[0]]


PEAK_PER_PIECE = """
import os
os.environ["AOEGRID_KERNELS"] = "compiled"  # small maps too, so the warm-up loads them
import numpy as np, aoegrid as ag
def status(key):
    return int(open("/proc/self/status").read().split(key + ":")[1].split()[0]) * 1024
warm = ag.BattleMap(ag.Grid(20, 20), walls=[np.random.default_rng(1).uniform(0, 20, size=(50, 2)).tolist()])
warm.walls_near("effect", (8, 3, 12, 7))  # the compiled kernels load
walk = np.random.default_rng(7).uniform(0, 20, size=(1000, 2))
m = ag.BattleMap(ag.Grid(20, 20), walls=[walk.tolist()])
before = status("VmRSS")
pieces = len(m.walls_near("effect", (8, 3, 12, 7)).segs)
print(pieces, (status("VmHWM") - before) / pieces)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the peak resident memory from /proc")
def test_a_piece_of_split_wall_takes_at_most_piece_bytes_at_the_peak():
    """The whole process's peak (numpy, shapely and numba alike) while a region of 236,473 pieces is
    merged, split and indexed, per piece: what the memory budget counts a piece as."""
    done = subprocess.run([sys.executable, "-c", PEAK_PER_PIECE], capture_output=True, text=True, check=True,
                          timeout=120)
    pieces, per_piece = done.stdout.split()
    assert int(pieces) == 236_473
    assert float(per_piece) <= PIECE_BYTES == 288
