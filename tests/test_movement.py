"""Movement: path distance around walls blocking movement, on hand-worked maps."""

import dataclasses
import itertools
import math
import re
import warnings

import numpy as np
import pytest
import shapely
from hypothesis import example, given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.board._paths import STEP_DX, STEP_DY, shortest_paths
from aoegrid.board.spread import step_costs
from aoegrid.geometry._kernels import run

# The README's L-shaped corridor: two squares wide, east along y 2..4, then south down x 6..8.
CORRIDOR = ag.walls_from([(0, 2), (8, 2), (8, 12)]) + ag.walls_from([(0, 4), (6, 4), (6, 12)])


def corridor_map():
    return ag.BattleMap(ag.Grid(10, 12), walls=CORRIDOR)


def test_an_l_corridor_counts_the_squares_round_the_corner():
    m = corridor_map()
    # (0, 3) east to (6, 3): 6 squares; the diagonal to (6, 4) would touch the wall's corner.
    # Then south to (6, 11): 8 squares. 14 squares, 70 ft; (7, 11) too, by a diagonal
    # from (6, 3) to (7, 4), clear of the corner.
    assert ag.path_distance(m, (0, 3), (6, 11)) == 70.0
    # From (0, 2): 5 east, one diagonal into (6, 3) (the first costs 5 ft), 8 south: also 14.
    assert ag.path_distance(m, (0, 2), (6, 11)) == 70.0
    d = ag.path_distance(m, (0, 3))
    assert d.shape == (12, 10) and d.dtype == np.float64
    # Every corridor square is reached, and nothing else: 16 along, 16 down.
    corridor = np.zeros((12, 10), dtype=bool)
    corridor[2:4, 0:8] = True
    corridor[4:12, 6:8] = True
    assert (np.isfinite(d) == corridor).all()
    assert d[3, 0] == 0.0 and d[3, 7] == 35.0 and d[11, 7] == 70.0 and d[11, 6] == 70.0
    # Unreachable squares: above the corridor, beyond its outer wall, inside the bend.
    assert ag.path_distance(m, (0, 3), (0, 0)) == math.inf
    assert ag.path_distance(m, (0, 3), (9, 5)) == math.inf
    assert ag.path_distance(m, (0, 3), (2, 6)) == math.inf


def test_steps_are_square_centre_to_centre_and_may_not_cut_a_corner():
    # One wall end at the corner between four squares: the diagonal through it is barred.
    m = ag.BattleMap(ag.Grid(3, 3), walls=[ag.Wall((1, 1), (1, 0))])
    assert ag.path_distance(m, (0, 1), (1, 0)) == 10.0  # round by (1, 1), not across the wall's end
    assert ag.path_distance(m.grid, (0, 1), (1, 0)) == 5.0


def door_map(kind="door", **wall):
    walls = [ag.Wall((2, 0), (2, 1)), ag.Wall((2, 1), (2, 2), kind=kind, **wall), ag.Wall((2, 2), (2, 3))]
    return ag.BattleMap(ag.Grid(5, 3), walls=walls)


def test_a_closed_door_blocks_and_an_open_one_does_not():
    closed = door_map()
    assert ag.path_distance(closed, (0, 1), (4, 1)) == math.inf
    opened = closed.with_door(closed.door_near((2, 1.5)), open=True)
    assert ag.path_distance(opened, (0, 1), (4, 1)) == 20.0
    # Down, through, and diagonally up out of the doorway: 15 ft. The diagonal
    # from (1, 0) into the doorway would touch the door frame's end at (2, 1).
    assert ag.path_distance(opened, (1, 0), (3, 0)) == 15.0


def test_a_window_blocks_movement_though_not_sight():
    m = door_map("window")
    assert ag.path_distance(m, (0, 1), (4, 1)) == math.inf
    assert ag.line_of_effect(m, (1.5, 1.5))[1, 3] == 0.0 and m.walls[1].blocks_sight is False
    assert ag.path_distance(door_map("window", open=True), (0, 1), (4, 1)) == 20.0


@pytest.mark.parametrize(("blocks", "passable"), [({"sight"}, True), ({"effect"}, True), ({"movement"}, False),
                                                  ({"effect", "sight", "movement"}, False)])
def test_only_walls_blocking_movement_bar_the_way(blocks, passable):
    m = ag.BattleMap(ag.Grid(5, 3), walls=[ag.Wall((2, 0), (2, 3), blocks=blocks)])
    assert (ag.path_distance(m, (0, 1), (4, 1)) == 20.0) is passable
    # Spreads read the effect channel's steps, movement its own; each built once per map.
    assert m.steps("movement") is m.steps("movement") and m.steps() is m.steps("effect")
    assert m.steps("movement") is not m.steps("effect")


def test_a_one_way_wall_bars_only_steps_from_its_blocking_side():
    # Looking from (2, 0) to (2, 3), west is the right: steps starting west of it are barred.
    m = ag.BattleMap(ag.Grid(5, 3), walls=[ag.Wall((2, 0), (2, 3), one_way="right")])
    assert ag.path_distance(m, (0, 1), (4, 1)) == math.inf
    assert ag.path_distance(m, (4, 1), (0, 1)) == 20.0


# (0, 0) to (4, 4): four diagonals; to (4, 2): two diagonals and two straight steps.
@pytest.mark.parametrize(("rules", "four", "two"), [
    ("starfinder", 30.0, 25.0),   # 5/10/5/10
    ("pathfinder", 30.0, 25.0),
    ("pf2e", 30.0, 25.0),
    ("sw5e", 20.0, 20.0),         # every diagonal 5 ft
    ("5e", 20.0, 20.0),
    (ag.Rules.preset("starfinder").replace(diagonals="alternating-2"), 30.0, 25.0),  # 10/5/10/5
    (ag.Rules.preset("starfinder").replace(diagonals="manhattan"), 40.0, 30.0),      # no diagonal steps
    (ag.Rules.preset("starfinder").replace(diagonals="approximate"), 30.0, 25.0),    # 7.5 each
    (ag.Rules.preset("starfinder").replace(diagonals="euclidean"), 20 * math.sqrt(2), 10 + 10 * math.sqrt(2)),
])
def test_every_diagonal_rule(rules, four, two):
    grid = ag.Grid(10, 10)
    assert ag.path_distance(grid, (0, 0), (4, 4), rules=rules) == pytest.approx(four, rel=1e-12)
    assert ag.path_distance(grid, (0, 0), (4, 2), rules=rules) == pytest.approx(two, rel=1e-12)


def test_alternating_rules_differ_on_an_odd_count_of_diagonals():
    grid = ag.Grid(4, 4)
    assert ag.path_distance(grid, (0, 0), (1, 1)) == 5.0
    assert ag.path_distance(grid, (0, 0), (1, 1), ag.Rules.preset("pf2e").replace(diagonals="alternating-2")) == 10.0


def test_savage_worlds_counts_inches_on_its_grid():
    inches = ag.Grid(10, 10, units="in")
    assert ag.path_distance(inches, (0, 0), (4, 4), rules="savage-worlds") == 4.0
    assert ag.path_distance(inches, (0, 0), rules="swade")[9, 3] == 9.0


def test_creatures_stand_for_their_space():
    grid = ag.Grid(8, 8)
    ogre = ag.Token(0, 0, size="large")
    assert ag.path_distance(grid, ogre, (2, 0)) == 5.0        # from its nearest square
    assert ag.path_distance(grid, ogre, (3, 3)) == 15.0       # (1, 1) to (3, 3): 5 + 10
    assert ag.path_distance(grid, (5, 5), ogre) == 30.0       # to its nearest square, (1, 1)
    assert ag.path_distance(grid, ag.Token(4, 0), ag.Token(5, 0)) == 5.0  # adjacent: one square
    d = ag.path_distance(grid, ogre)
    assert (d[:2, :2] == 0).all() and d[2, 2] == 5.0
    assert ag.path_distance(grid, ag.Space(6, 6, 2, 2), (7, 0)) == 30.0


def test_the_map_s_creatures_do_not_block():
    m = ag.read_text_map("""
        #####
        #a.b#
        #####
    """)
    assert ag.path_distance(m, m.token("a"), (3, 1)) == 10.0


@pytest.mark.parametrize(("start", "end", "error", "match"), [
    ((10, 0), None, ag.OffGridError, r"start square \(10, 0\) is not on the 10 x 6 map \(squares x 0 to 9, y 0 to 5\)"),
    ((0, -1), None, ag.OffGridError, r"start square \(0, -1\) is not on"),
    ((0, 0), (3, 6), ag.OffGridError, r"end square \(3, 6\) is not on the 10 x 6 map"),
    (ag.Token(9, 5, size="large"), None, ag.OffGridError, r"start space 9\.\.11 x 5\.\.7 is not on the 10 x 6 map"),
    ((1.5, 2), None, ag.InvalidTypeError, r"start must be a square \(x, y\) of whole numbers .* got \(1\.5, 2\); 1\.5 is a float"),
    ((1.0, 2.0), None, ag.InvalidTypeError, r"1\.0 is a float"),
    ((True, 2), None, ag.InvalidTypeError, r"True is a bool"),
    ((0, 0), "b2", ag.InvalidTypeError, r"end must be a square \(x, y\) of whole numbers or an aoegrid\.Token, got 'b2'"),
    ((0, 0, 0), None, ag.InvalidTypeError, r"start must be a square"),
])
def test_bad_squares_are_refused_with_what_is_valid(start, end, error, match):
    with pytest.raises(error, match=match):
        ag.path_distance(ag.Grid(10, 6), start, end)


def test_bad_map_and_rules():
    with pytest.raises(ag.InvalidTypeError, match=r"m must be an aoegrid\.BattleMap or Grid, got 'map' of type str"):
        ag.path_distance("map", (0, 0))
    with pytest.raises(ag.InvalidValueError, match="unknown rules 'chess'"):
        ag.path_distance(ag.Grid(3, 3), (0, 0), rules="chess")
    with pytest.raises(ag.InvalidValueError, match="unknown channel 'smell'; valid choices are 'effect', 'sight', 'movement'"):
        ag.BattleMap(ag.Grid(3, 3)).steps("smell")


def test_numpy_integers_are_squares():
    assert ag.path_distance(ag.Grid(5, 5), (np.int64(0), np.int32(0)), (4, 0)) == 20.0


# --- movement by the rules (issue 19): terrain, corners, creatures, sizes ----------------------------------------

PRESETS = ("starfinder", "pf2e", "sw5e")


def field_of(kind, n=6):
    """An n x n map of one terrain kind everywhere but the square (0, 0)."""
    t = np.full((n, n), kind, dtype=np.int8)
    t[0, 0] = 0
    return ag.BattleMap(ag.Grid(n, n), terrain=t)


# (0, 0) to (3, 3) on ground of each kind: three diagonal steps into it.
@pytest.mark.parametrize(("rules", "costs"), [
    # Starfinder CRB p. 257: a diagonal move into difficult terrain counts as 3 squares; doubled twice, 6.
    ("starfinder", (20.0, 45.0, 90.0)),
    ("pathfinder", (20.0, 45.0, 90.0)),
    # PF2e: +5 ft a square of difficult terrain, +10 greater, not increased for diagonals: 5/10/5 plus the extra.
    ("pf2e", ((5 + 10 + 5), (5 + 5) + (10 + 5) + (5 + 5), (5 + 10) + (10 + 10) + (5 + 10))),
    # 5e: every foot costs 1 extra; not cumulative, so greater difficult terrain costs as difficult.
    ("sw5e", (15.0, 30.0, 30.0)),
    ("5e", (15.0, 30.0, 30.0)),
])
def test_three_diagonal_steps_into_terrain_cost_what_each_rulebook_says(rules, costs):
    got = tuple(ag.path_distance(field_of(kind), (0, 0), (3, 3), rules=rules) for kind in (0, 1, 2))
    assert got == tuple(float(c) for c in costs)
    # reachable agrees: the same cost for a one-square creature.
    assert tuple(float(ag.reachable((0, 0), 100, on=field_of(kind), rules=rules).cost[3, 3])
                 for kind in (0, 1, 2)) == got


@pytest.mark.parametrize(("rules", "straight"), [
    ("starfinder", (15.0, 30.0, 60.0)),   # 2 squares a step, doubled twice 4
    ("pf2e", (15.0, 30.0, 45.0)),         # 5 + 5, 5 + 10
    ("sw5e", (15.0, 30.0, 30.0)),
])
def test_three_straight_steps_into_terrain(rules, straight):
    assert tuple(ag.path_distance(field_of(kind), (0, 0), (3, 0), rules=rules) for kind in (0, 1, 2)) == straight


def test_starfinder_counts_a_diagonal_into_difficult_terrain_toward_the_5_10_5_alternation():
    # Open, difficult, open diagonals from (0, 0): 5 + 15 + 5 ft. The second diagonal (the "10") lands in mud and
    # costs 15; the third is then the first of a new pair (10 if the mud's diagonal did not count). Ground off the
    # diagonal is greater difficult: any detour costs more.
    t = np.full((4, 4), ag.Terrain.GREATER_DIFFICULT.code, dtype=np.int8)
    np.fill_diagonal(t, 0)
    t[2, 2] = 1
    m = ag.BattleMap(ag.Grid(4, 4), terrain=t)
    assert ag.path_distance(m, (0, 0), (3, 3)) == 25.0
    assert ag.path_distance(m, (0, 0), (3, 3), rules="pf2e") == 5 + (10 + 5) + 5
    assert ag.path_distance(m, (0, 0), (3, 3), rules="sw5e") == 5 + 10 + 5


def test_savage_worlds_counts_each_inch_of_difficult_ground_twice():
    grid = ag.Grid(8, 3, units="in")
    mud = ag.BattleMap(grid, terrain={"difficult": [(1, 0), (4, 0), (4, 3), (1, 3)]})  # columns 1..3
    assert ag.path_distance(mud, (0, 1), (5, 1), rules="savage-worlds") == 1 + 2 + 2 + 2 + 1
    # Pace 6: three inches of mud, or six of open ground.
    r = ag.reachable((0, 1), 6, on=mud, rules="swade")
    assert r.cost[1].tolist() == [0.0, 2.0, 4.0, 6.0, math.inf, math.inf, math.inf, math.inf]
    assert ag.reachable((0, 1), 6, on=grid, rules="swade").cost[1, 6] == 6.0
    with pytest.raises(ag.InvalidValueError, match=r"savage-worlds rules measure in 'in' but the grid is in 'ft'"):
        ag.reachable((0, 0), 6, on=ag.Grid(8, 3), rules="savage-worlds")


def test_text_maps_mark_terrain():
    m = ag.read_text_map("""
        #######
        #a~^%.#
        #######
    """)
    assert m.terrain.tolist()[1] == [0, 0, 1, 2, 3, 0, 0]
    assert m.terrain.dtype == np.int8 and not m.terrain.flags.writeable
    assert ag.path_distance(m, (1, 1), (3, 1)) == 30.0     # 10 + 20
    assert ag.path_distance(m, (1, 1), (5, 1)) == math.inf  # the chasm
    # Terrain never stops effects or sight: only walls do.
    assert ag.line_of_effect(m, (1.5, 1.5))[1, 5] == 1.0
    assert repr(m) == "<BattleMap 7x3, 8 walls (0 doors or windows), 0 fog zones, 1 token, 3 squares of terrain>"


def test_terrain_from_polygons_masks_and_arrays_takes_the_costliest_kind():
    grid = ag.Grid(6, 4)
    mask = np.zeros((4, 6), dtype=bool)
    mask[3, :] = True
    m = ag.BattleMap(grid, terrain={
        "difficult": [[(0, 0), (4, 0), (4, 2), (0, 2)], mask],
        # A square's centre on the outline counts: the polygon's edge x = 4.5 runs through column 4's centres.
        "greater-difficult": shapely.box(1, 1, 4.5, 2),
        ag.Terrain.IMPASSABLE: [(5, 0), (6, 0), (6, 1), (5, 1)],
    })
    assert m.terrain.tolist() == [[1, 1, 1, 1, 0, 3], [1, 2, 2, 2, 2, 0], [0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1]]
    same = ag.BattleMap(grid, terrain=[("difficult", shapely.box(0, 0, 4, 2)), ("difficult", mask),
                                       ("greater-difficult", shapely.box(1, 1, 4.5, 2)),
                                       ("impassable", shapely.box(5, 0, 6, 1))])
    assert np.array_equal(same.terrain, m.terrain)
    assert np.array_equal(ag.BattleMap(grid, terrain=np.asarray(m.terrain)).terrain, m.terrain)
    assert ag.BattleMap(grid).terrain.tolist() == [[0] * 6] * 4 and not ag.BattleMap(grid).has_terrain


def test_maps_keep_their_terrain():
    m = ag.BattleMap(ag.Grid(5, 3), walls=[ag.Wall((2, 0), (2, 1), kind="door")], tokens=[ag.Token(0, 0, name="a")],
                     terrain={"difficult": [(3, 0), (5, 0), (5, 3), (3, 3)]})
    t = m.terrain
    for copy in (m.with_token("a", ag.Token(1, 1, name="a")), m.move_token("a", 0, 2), m.with_door(0, open=True)):
        assert np.array_equal(copy.terrain, t)
    other = m.with_terrain({"impassable": [(0, 2), (1, 2), (1, 3), (0, 3)]})
    assert other.terrain.sum() == 3 and other.wallset("movement") is m.wallset("movement")
    assert np.array_equal(m.terrain, t)  # unchanged


# --- corners ------------------------------------------------------------------------------------------------------


def test_corner_cutting_past_a_wall_s_end_follows_each_preset():
    # A wall's end at the corner between four squares: the diagonal from (0, 1) to (1, 0) passes through it.
    m = ag.BattleMap(ag.Grid(3, 3), walls=[ag.Wall((1, 1), (1, 0))])
    assert ag.path_distance(m, (0, 1), (1, 0), rules="starfinder") == 10.0  # "can't move diagonally past a corner"
    for rules in ("pf2e", "sw5e"):
        assert ag.path_distance(m, (0, 1), (1, 0), rules=rules) == 5.0
    assert ag.path_distance(m, (0, 1), (1, 0), rules=ag.Rules.preset("sw5e").replace(corners="blocked")) == 10.0
    assert ag.path_distance(ag.Grid(3, 3, units="in"), (0, 1), (1, 0), rules="swade") == 1.0


@pytest.mark.parametrize("rules", PRESETS)
def test_walls_meeting_at_a_corner_leave_no_gap_under_any_preset(rules):
    # Two wall squares touching at a corner: no diagonal squeezes between them.
    m = ag.read_text_map("""
        #.
        .#
    """)
    assert ag.path_distance(m, (1, 0), (0, 1), rules=rules) == math.inf
    # An L of two walls closing square (0, 0) on the east and south: the diagonal out through its corner has a
    # wall on each side.
    corner = ag.BattleMap(ag.Grid(3, 3), walls=[ag.Wall((1, 1), (1, 0)), ag.Wall((1, 1), (0, 1))])
    assert ag.path_distance(corner, (0, 0), (1, 1), rules=rules) == math.inf
    # Past the L's outside corner both walls lie on one side: cut under all but Starfinder.
    assert ag.path_distance(corner, (0, 1), (1, 0), rules=rules) == (10.0 if rules == "starfinder" else 5.0)


def test_a_diagonal_between_wall_ends_on_both_sides_is_barred_when_cutting_corners():
    # Walls ending at (1, 1) to its east and west: a line across a 2-square map, split where the diagonal passes.
    both = ag.BattleMap(ag.Grid(2, 2), walls=[ag.Wall((1, 1), (2, 1)), ag.Wall((1, 1), (0, 1))])
    for rules in PRESETS:
        assert ag.path_distance(both, (0, 0), (1, 1), rules=rules) == math.inf
        assert ag.path_distance(both, (0, 1), (1, 0), rules=rules) == math.inf
    # Ending there to its east and south: both on one side of the diagonal from (0, 1) to (1, 0).
    one_side = ag.BattleMap(ag.Grid(2, 2), walls=[ag.Wall((1, 1), (2, 1)), ag.Wall((1, 1), (1, 2))])
    assert ag.path_distance(one_side, (0, 1), (1, 0), rules="sw5e") == 5.0
    assert ag.path_distance(one_side, (0, 1), (1, 0), rules="starfinder") == 10.0   # round by (0, 0)


def test_impassable_squares_bar_corners_as_walls_do():
    one = ag.read_text_map("""
        .%
        ..
    """)
    # (0, 0) to (1, 1) passes the chasm's corner: barred under Starfinder (round by (0, 1)), fine under 5e.
    assert ag.path_distance(one, (0, 0), (1, 1), rules="starfinder") == 10.0
    assert ag.path_distance(one, (0, 0), (1, 1), rules="sw5e") == 5.0
    assert ag.path_distance(one, (0, 0), (1, 1), rules="pf2e") == 5.0
    pinch = ag.read_text_map("""
        .%
        %.
    """)
    for rules in PRESETS:
        assert ag.path_distance(pinch, (0, 0), (1, 1), rules=rules) == math.inf


# --- creatures ----------------------------------------------------------------------------------------------------


def hall(*tokens, **kw):
    """A 7 x 1 hall with ``tokens``."""
    return ag.BattleMap(ag.Grid(7, 1), tokens=list(tokens), **kw)


def test_allies_spaces_are_passed_enemies_are_not_and_no_one_ends_in_another_s():
    me = ag.Token(0, 0, name="me", tags={"ally"})
    friend = ag.Token(2, 0, name="friend", tags={"friendly"})
    foe = ag.Token(4, 0, name="foe", tags={"hostile"})
    m = hall(me, friend, foe)
    r = ag.reachable(me, 30, on=m)
    assert r.cost[0].tolist() == [0.0, 5.0, math.inf, 15.0, math.inf, math.inf, math.inf]
    assert r.squares == [(0, 0), (1, 0), (3, 0)] and len(r) == 3 and (3, 0) in r and (2, 0) not in r
    assert r.path(3, 0) == [(0, 0), (1, 0), (2, 0), (3, 0)]   # through the friend's square
    with pytest.raises(ag.InvalidValueError, match=r"no move from \(0, 0\) ends at \(2, 0\): it cannot end there: "
                                                   r"another creature's space"):
        r.path(2, 0)
    with pytest.raises(ag.InvalidValueError, match=r"no move from \(0, 0\) ends at \(5, 0\): no path within 30"):
        r.path(5, 0)
    everyone = ag.reachable(me, 30, on=m, through="all")
    assert everyone.cost[0].tolist() == [0.0, 5.0, math.inf, 15.0, math.inf, 25.0, 30.0]
    no_one = ag.reachable(me, 30, on=m, through=ag.Through.NONE)
    assert no_one.squares == [(0, 0), (1, 0)]
    # The rules' own setting, and a selector of who is hostile.
    assert ag.reachable(me, 30, on=m, rules=ag.Rules.preset("pf2e").replace(through="all")).squares == \
        everyone.squares
    assert ag.reachable(me, 30, on=m, enemies="friendly").squares == [(0, 0), (1, 0)]
    assert ag.reachable(me, 30, on=m, enemies=lambda t: False).squares == everyone.squares
    assert ag.reachable(me, 30, on=m, enemies=[friend]).squares == [(0, 0), (1, 0)]
    assert ag.reachable(me, 30, on=m, enemies={"nobody"}).squares == everyone.squares


def test_whose_side_a_creature_is_on_comes_from_its_tags():
    foe = ag.Token(2, 0, name="foe", tags={"enemy"})
    # A hostile mover passes its own side's spaces, not the party's.
    party = ag.Token(2, 0, name="pc", tags={"ally"})
    orc = ag.Token(0, 0, name="orc", tags={"hostile"})
    assert ag.reachable(orc, 30, on=hall(orc, foe)).cost[0, 3] == 15.0
    assert ag.reachable(orc, 30, on=hall(orc, party)).cost[0, 3] == math.inf
    # Untagged creatures (a text map's letters) are hostile to no one.
    m = ag.read_text_map("a.b..")
    assert ag.reachable(m.token("a"), 20, on=m).cost[0].tolist() == [0.0, 5.0, math.inf, 15.0, 20.0]
    # A square for the mover: the map's token standing exactly there is the mover.
    me = ag.Token(0, 0, name="me", tags={"ally"})
    assert ag.reachable((0, 0), 30, on=hall(me, foe)).cost[0, 3] == math.inf
    assert ag.reachable((1, 0), 30, on=hall(me, foe)).cost[0, 3] == 10.0   # no one there: no side


def test_5e_counts_another_creature_s_space_as_difficult_terrain():
    me = ag.Token(0, 0, name="me", tags={"ally"})
    friend = ag.Token(1, 0, name="friend", tags={"ally"})
    m = hall(me, friend)
    assert ag.reachable(me, 30, on=m, rules="sw5e").cost[0, 2] == 15.0     # 10 through the friend, 5 out
    assert ag.reachable(me, 30, on=m, rules="starfinder").cost[0, 2] == 10.0
    assert ag.reachable(me, 30, on=m, rules="pf2e").cost[0, 2] == 10.0
    # Not cumulative with the ground's own difficulty.
    mud = hall(me, friend, terrain={"difficult": np.ones((1, 7), dtype=bool)})
    assert ag.reachable(me, 30, on=mud, rules="sw5e").cost[0, 2] == 20.0


def test_the_mover_is_never_in_its_own_way():
    me = ag.Token(1, 0, size="large", name="me", tags={"ally"})
    m = ag.BattleMap(ag.Grid(6, 2), tokens=[me])
    r = ag.reachable(me, 10, on=m)
    assert r.cost[0].tolist() == [5.0, 0.0, 5.0, 10.0, math.inf, math.inf]
    # An equal token stands for it too.
    assert np.array_equal(ag.reachable(ag.Token(1, 0, size="large", name="me", tags={"ally"}), 10, on=m).cost, r.cost)


# --- sizes --------------------------------------------------------------------------------------------------------


def test_a_large_creature_moves_as_its_whole_space():
    m = ag.read_text_map("""
        ##########
        #........#
        #........#
        ####.#####
        #........#
        #........#
        ##########
    """)
    ogre = ag.Token(1, 1, size="large", name="ogre")
    r = ag.reachable(ogre, 100, on=m)
    # Along its 2-square hall, never down the 1-square gap; its top-left square stays in the hall's top row.
    assert r.squares == [(x, 1) for x in range(1, 8)]
    assert r.cost[1, 7] == 30.0
    # A medium creature goes down the gap: 15 ft to (4, 2), straight through (no corner cut), 10 + 10 to (1, 5).
    assert ag.reachable((1, 1), 100, on=m).cost[5, 1] == 45.0
    assert ag.reachable((1, 1), 100, on=m).path(1, 5)[3:6] == [(4, 2), (4, 3), (4, 4)]
    # The space cannot straddle a wall, nor leave the map.
    assert math.isinf(r.cost[2, 1]) and math.isinf(r.cost[1, 8])
    with pytest.raises(ag.InvalidValueError, match=r"its 2 x 2 space would leave the map there"):
        r.path(9, 5)


def test_a_large_creature_pays_for_the_costliest_square_of_its_space():
    # Mud in column 2 only: every step east that keeps a square in the mud costs double (5e).
    m = ag.BattleMap(ag.Grid(6, 2), terrain={"difficult": [(2, 0), (3, 0), (3, 2), (2, 2)]})
    ogre = ag.Token(0, 0, size="large")
    costliest = ag.reachable(ogre, 40, on=m, rules="sw5e")
    assert costliest.cost[0].tolist() == [0.0, 10.0, 20.0, 25.0, 30.0, math.inf]
    # "entered": only the column the step brings in counts: (1, 0) enters column 2 (mud), (2, 0) column 3.
    entered = ag.reachable(ogre, 40, on=m, rules=ag.Rules.preset("sw5e").replace(space_cost="entered"))
    assert entered.cost[0].tolist() == [0.0, 10.0, 15.0, 20.0, 25.0, math.inf]
    # Starfinder: "you can move only as fast as the most difficult terrain will allow".
    assert ag.reachable(ogre, 40, on=m).cost[0].tolist() == [0.0, 10.0, 20.0, 25.0, 30.0, math.inf]
    # A diagonal of a large creature into mud, under the alternation (the first diagonal, 15 ft).
    deep = ag.BattleMap(ag.Grid(4, 4), terrain={"difficult": [(2, 2), (3, 2), (3, 3), (2, 3)]})
    assert ag.reachable(ogre, 40, on=deep).cost[1, 1] == 15.0
    assert ag.reachable(ogre, 40, on=deep, rules="pf2e").cost[1, 1] == 10.0


def test_a_large_creature_cannot_cut_an_impassable_corner_under_starfinder():
    # A 2 x 2 space stepping north-east from (0, 2) to (1, 1) passes squares (0, 1) and (2, 3).
    pillar = ag.BattleMap(ag.Grid(4, 4), terrain={"impassable": [(0, 1), (1, 1), (1, 2), (0, 2)]})
    ogre = ag.Token(0, 2, size="large")
    assert ag.reachable(ogre, 20, on=pillar).cost[1, 1] == 10.0           # east, then north
    assert ag.reachable(ogre, 20, on=pillar, rules="sw5e").cost[1, 1] == 5.0
    both = pillar.with_terrain({"impassable": [[(0, 1), (1, 1), (1, 2), (0, 2)], [(2, 3), (3, 3), (3, 4), (2, 4)]]})
    # Squeezed: no diagonal, and each square beside it holds a pillar.
    assert ag.reachable(ogre, 20, on=both, rules="sw5e").squares == [(0, 2)]


# --- bad input: one clear error each ---------------------------------------------------------------------------


@pytest.mark.parametrize(("budget", "error", "match"), [
    (-5, ag.InvalidValueError, r"reachable budget must be 0 or more, got -5"),
    (math.inf, ag.InvalidValueError, r"reachable budget must be a finite number, got inf"),
    (math.nan, ag.InvalidValueError, r"reachable budget must be a finite number, got nan"),
    ("30", ag.InvalidTypeError, r"reachable budget must be a number, got '30' of type str"),
])
def test_a_bad_budget_is_refused(budget, error, match):
    with pytest.raises(error, match=match):
        ag.reachable((0, 0), budget, on=ag.Grid(4, 4))


def test_a_creature_off_the_map_inside_a_wall_or_on_impassable_ground_is_refused():
    grid = ag.Grid(6, 4)
    with pytest.raises(ag.OffGridError, match=r"creature square \(6, 0\) is not on the 6 x 4 map"):
        ag.reachable((6, 0), 30, on=grid)
    with pytest.raises(ag.OffGridError, match=r"creature space 5\.\.7 x 0\.\.2 is not on the 6 x 4 map"):
        ag.reachable(ag.Token(5, 0, size="large"), 30, on=grid)
    through_centre = ag.BattleMap(grid, walls=[ag.Wall((0, 1.5), (3, 1.5))])
    with pytest.raises(ag.InvalidValueError, match=r"creature square \(1, 1\) stands inside a wall: a wall blocking "
                                                   r"movement runs through the centre of square \(1, 1\)"):
        ag.reachable((1, 1), 30, on=through_centre)
    between = ag.BattleMap(grid, walls=[ag.Wall((2, 0), (2, 4))])
    with pytest.raises(ag.InvalidValueError, match=r"creature ogre stands inside a wall: a wall blocking movement "
                                                   r"runs between squares \(1, 0\) and \(2, 0\) of its space"):
        ag.reachable(ag.Token(1, 0, size="large", name="ogre"), 30, on=between)
    chasm = ag.BattleMap(grid, terrain={"impassable": np.eye(4, 6, dtype=bool)})
    with pytest.raises(ag.InvalidValueError, match=r"creature space \(0, 0\) 2 x 2 stands on impassable terrain at "
                                                   r"square \(0, 0\)"):
        ag.reachable(ag.Space(0, 0, 2, 2), 30, on=chasm)
    # A wall along the space's edge is no wall inside it.
    assert len(ag.reachable(ag.Token(0, 0, size="large"), 0, on=between)) == 1


def test_bad_options_and_maps_are_refused():
    with pytest.raises(ag.InvalidValueError, match=r"unknown through 'friends'; valid choices are 'allies', 'all', "
                                                   r"'none'"):
        ag.reachable((0, 0), 30, on=ag.Grid(4, 4), through="friends")
    with pytest.raises(ag.InvalidTypeError, match=r"enemies must be tags \(a set of str\), a predicate on tokens, or "
                                                  r"tokens; got 5"):
        ag.reachable((0, 0), 30, on=ag.BattleMap(ag.Grid(4, 4), tokens=[ag.Token(1, 1)]), enemies=5)
    with pytest.raises(ag.InvalidTypeError, match=r"not a mixture"):
        ag.reachable((0, 0), 30, on=ag.BattleMap(ag.Grid(4, 4), tokens=[ag.Token(1, 1)]),
                     enemies=["orc", ag.Token(1, 1)])
    with pytest.raises(ag.InvalidTypeError, match=r"m must be an aoegrid\.BattleMap or Grid, got 'map'"):
        ag.reachable((0, 0), 30, on="map")
    for field, value in (("terrain_cost", "triple"), ("corners", "sometimes"), ("space_cost", "mean"),
                         ("through", "walls")):
        with pytest.raises(ag.InvalidValueError, match=rf"unknown {field} '{value}'; valid choices are"):
            ag.Rules.preset("starfinder").replace(**{field: value})
    with pytest.raises(ag.InvalidTypeError, match=r"Rules creatures_difficult must be True or False, got 1"):
        ag.Rules.preset("sw5e").replace(creatures_difficult=1)


def test_bad_paths_are_refused():
    r = ag.reachable((0, 0), 10, on=ag.BattleMap(ag.Grid(4, 2), walls=[ag.Wall((2, 0), (2, 2))]))
    with pytest.raises(ag.OffGridError, match=r"Reach\.path square \(4, 0\) is not on the 4 x 2 map"):
        r.path(4, 0)
    with pytest.raises(ag.InvalidTypeError, match=r"Reach\.path x must be a whole number \(a square\), got 1\.5"):
        r.path(1.5, 0)
    with pytest.raises(ag.InvalidValueError, match=r"no move from \(0, 0\) ends at \(3, 0\): no path within 10 "):
        r.path(3, 0)
    assert r.path(0, 0) == [(0, 0)] and r.path(np.int64(1), 1) == [(0, 0), (1, 1)]
    assert repr(r) == "<Reach from (0, 0) with 10 under starfinder: 4 positions>"
    assert r.to_text() == " 0  5  .  .\n 5  5  .  ."
    assert not r.cost.flags.writeable and not r.mask.flags.writeable
    assert r.start == (0, 0) and r.footprint == (1, 1) and r.budget == 10.0 and r.rules.name == "starfinder"
    assert ("a", 1) not in r and (9, 9) not in r and (1, 1) in r


@pytest.mark.parametrize(("terrain", "error", "match"), [
    ({"difficult": [(0, 0), (2, 2), (2, 0), (0, 2)]}, ag.InvalidValueError,
     (r"a terrain polygon is invalid \(Self-intersection\[1 1\]\): 'POLYGON \(\(0 0, 2 2, 2 0, 0 2, 0 0\)\)'; give a "
     r"ring that does not cross itself")),
    ({"difficult": [(0, 0), (2, 2)]}, ag.InvalidValueError,
     r"a terrain polygon needs at least three points, got \[\(0, 0\), \(2, 2\)\]"),
    ({"difficult": [(0, 0), (1, 1), (2, 2)]}, ag.InvalidValueError, r"a terrain polygon must enclose some area"),
    ({"difficult": [(0, 0), (1, math.nan), (2, 0)]}, ag.InvalidValueError,
     r"a terrain polygon has a NaN or infinite coordinate: \[\(0, 0\), \(1, nan\), \(2, 0\)\]"),
    ({"lava": [(0, 0), (2, 0), (2, 2)]}, ag.InvalidValueError,
     r"unknown terrain kind 'lava'; valid choices are 'open', 'difficult', 'greater-difficult', 'impassable'"),
    ({"open": [(0, 0), (2, 0), (2, 2)]}, ag.InvalidValueError, r"terrain kind 'open' marks nothing"),
    ({"difficult": np.ones((3, 3), dtype=bool)}, ag.InvalidValueError,
     r"a terrain mask must have the map's shape \(height, width\) = \(4, 5\), got shape \(3, 3\)"),
    ({"difficult": np.ones((4, 5), dtype=np.int64)}, ag.InvalidTypeError, r"a terrain mask must be a bool array"),
    (np.full((4, 5), 7), ag.InvalidValueError,
     (r"a terrain array must hold the kinds 0 \(open\), 1 \(difficult\), 2 \(greater-difficult\), 3 \(impassable\); "
     r"got 7 at square \(0, 0\)")),
    (np.zeros((5, 4), dtype=int), ag.InvalidValueError,
     r"a terrain array must have the map's shape \(height, width\) = \(4, 5\), got shape \(5, 4\)"),
    (np.zeros((4, 5), dtype=bool), ag.InvalidTypeError, r"a terrain array holds kinds \(0 to 3\), not True and False"),
    (np.zeros((4, 5)), ag.InvalidTypeError, r"a terrain array must hold whole numbers"),
    ("mud", ag.InvalidTypeError, r"terrain must be an \(height, width\) array of kinds, a mapping of kinds to areas"),
    ([("difficult",)], ag.InvalidTypeError, r"terrain pairs must be \(kind, area\)"),
    ({"difficult": 5}, ag.InvalidTypeError, (r"a terrain area must be a polygon, a ring of \(x, y\) points or a bool "
                                            r"mask, or a list of them; got 5")),
    ({"difficult": [[(0, 0), ("a", 1), (2, 0)]]}, ag.InvalidTypeError,
     r"a terrain polygon's points must be \(x, y\) pairs of numbers, got \[\(0, 0\), \('a', 1\), \(2, 0\)\]"),
    ({"difficult": [{"x": 1}]}, ag.InvalidTypeError,
     r"a terrain area must be a polygon, a ring of \(x, y\) points or a bool mask; got \{'x': 1\}"),
])
def test_bad_terrain_is_refused_naming_the_value(terrain, error, match):
    with pytest.raises(error, match=match):
        ag.BattleMap(ag.Grid(5, 4), terrain=terrain)


# --- properties ---------------------------------------------------------------------------------------------------


def bellman_ford(start, blocked, kinds, table, layers):
    """The least cost to every square, relaxing every step until nothing changes (a slow reference)."""
    h, w = start.shape
    dist = np.full((layers, h, w), np.inf)
    dist[0] = start
    changed = True
    while changed:
        changed = False
        for layer in range(layers):
            for y in range(h):
                for x in range(w):
                    d = dist[layer, y, x]
                    if not np.isfinite(d):
                        continue
                    for k in range(8 if table[4] >= 0 else 4):
                        nx, ny = x + STEP_DX[k], y + STEP_DY[k]
                        if (blocked[y, x] >> k) & 1 or not (0 <= nx < w and 0 <= ny < h):
                            continue
                        to = layer if k < 4 else (layer + 1) % layers
                        nd = d + (table[kinds[ny, nx]] if k < 4 else table[4 * (1 + layer) + kinds[ny, nx]])
                        if nd < dist[to, ny, nx]:
                            dist[to, ny, nx] = nd
                            changed = True
    return dist.min(axis=0)


@settings(max_examples=60, deadline=None)
@given(h=st.integers(1, 7), w=st.integers(1, 7), seed=st.integers(0, 2**32 - 1),
       diagonals=st.sampled_from(list(ag.Diagonals)), cost=st.sampled_from(list(ag.TerrainCost)))
def test_the_path_kernel_with_terrain_equals_a_relaxation(h, w, seed, diagonals, cost):
    rng = np.random.default_rng(seed)
    kinds = rng.choice(np.array([0, 0, 1, 2, 3], dtype=np.int8), (h, w))
    blocked = np.packbits(rng.random((h, w, 8)) < 0.15, axis=-1, bitorder="little")[..., 0]
    start = np.full((h, w), np.inf)
    start[rng.integers(h), rng.integers(w)] = 0.0
    layers, table = step_costs(diagonals, cost)
    got = np.asarray(run(shortest_paths, layers * h * w, start, np.zeros(h * w, np.int8), blocked, kinds, 0, table,
                         h, w, layers, math.inf)).reshape(h, w)
    assert np.array_equal(got, bellman_ford(start, blocked, kinds, table, layers))


@st.composite
def walled_maps(draw, terrain=True):
    """A small map with walls on the half-square lattice (touching, meeting at corners) and terrain."""
    w, h = draw(st.integers(2, 9)), draw(st.integers(2, 9))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    walls = []
    for _ in range(draw(st.integers(0, 8))):
        a = rng.integers(0, 2 * max(w, h) + 1, 2) / 2
        b = a + rng.integers(-4, 5, 2) / 2
        if (a != b).any():
            walls.append(ag.Wall(tuple(a.tolist()), tuple(b.tolist())))
    kinds = rng.choice(np.array([0, 0, 0, 1, 2, 3], dtype=np.int8), (h, w)) if terrain else None
    return ag.BattleMap(ag.Grid(w, h), walls=walls, terrain=kinds), rng


@settings(max_examples=80, deadline=None)
@given(grid=st.tuples(st.integers(1, 12), st.integers(1, 12)), seed=st.integers(0, 2**32 - 1),
       rules=st.sampled_from(["starfinder", "pf2e", "sw5e", ag.Rules.preset("pf2e").replace(diagonals="euclidean")]),
       budget=st.sampled_from([0, 5, 15, 30, 47.5, 200]))
@example(grid=(1, 1), seed=0, rules="starfinder", budget=0)
def test_on_open_ground_reachable_is_path_distance(grid, seed, rules, budget):
    rng = np.random.default_rng(seed)
    g = ag.Grid(*grid)
    start = (int(rng.integers(grid[0])), int(rng.integers(grid[1])))
    r = ag.reachable(start, budget, on=g, rules=rules)
    d = ag.path_distance(g, start, rules=rules)
    assert np.array_equal(r.mask, d <= budget + 1e-9)
    assert np.array_equal(r.cost[r.mask], d[r.mask])  # the same floats
    assert (np.isinf(r.cost) == ~r.mask).all()
    # Each path is a walk of single steps whose length is the cost.
    for x, y in r.squares[:: max(1, len(r) // 5)]:
        path = r.path(x, y)
        assert path[0] == start and path[-1] == (x, y)
        assert all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 for a, b in itertools.pairwise(path))


@settings(max_examples=60, deadline=None)
@given(case=walled_maps(), rules=st.sampled_from(PRESETS), size=st.sampled_from([1, 1, 2]))
def test_reachable_with_walls_and_terrain_agrees_with_path_distance_for_one_square(case, rules, size):
    m, rng = case
    h, w = m.grid.height, m.grid.width
    free = [(x, y) for y in range(h) for x in range(w) if m.terrain[y, x] != 3]
    if not free:
        return
    x, y = free[int(rng.integers(len(free)))]
    try:
        r = ag.reachable(ag.Token(x, y, size=size), 1000, on=m, rules=rules)
    except ag.OffGridError:
        return
    except ag.InvalidValueError as exc:
        assert "inside a wall" in str(exc) or "impassable" in str(exc)
        return
    if size == 1:
        d = ag.path_distance(m, (x, y), rules=rules)
        assert np.array_equal(r.cost[np.isfinite(r.cost)], d[np.isfinite(r.cost)])
        # Where a one-square creature cannot end is only where it cannot stand: the ground's distance is
        # finite there only for a square whose centre lies on a wall (entered by no step) or impassable ground.
        assert (np.isfinite(d) <= (np.isfinite(r.cost) | (m.terrain == 3))).all()
    # Every path's steps are each allowed and its cost is what the kernel found: walking it again costs the same.
    for px, py in r.squares[:: max(1, len(r) // 4)]:
        assert r.path(px, py)[-1] == (px, py)


@settings(max_examples=60, deadline=None)
@given(case=walled_maps(terrain=False), rules=st.sampled_from(PRESETS), seed=st.integers(0, 2**32 - 1),
       size=st.sampled_from([1, 2]))
def test_adding_terrain_never_makes_a_move_cheaper(case, rules, seed, size):
    m, rng = case
    h, w = m.grid.height, m.grid.width
    x, y = int(rng.integers(w)), int(rng.integers(h))
    try:
        before = ag.reachable(ag.Token(x, y, size=size), 60, on=m, rules=rules)
    except (ag.InvalidValueError, ag.OffGridError):
        return
    more = np.random.default_rng(seed).choice(np.array([0, 0, 1, 2, 3], dtype=np.int8), (h, w))
    more[y : y + size, x : x + size] = 0
    after = ag.reachable(ag.Token(x, y, size=size), 60, on=m.with_terrain(more), rules=rules)
    assert (after.cost >= before.cost).all()
    # And the other way: greater difficult costs at least what difficult does.
    harder = ag.reachable(ag.Token(x, y, size=size), 60, on=m.with_terrain(np.where(more == 1, 2, more)), rules=rules)
    assert (harder.cost >= after.cost).all()


# --- heights: a creature moves at its elevation, blocked by the walls meeting its prism ------------------------------


def across(**span):
    """A one-row corridor, 5 squares long, with a wall of ``span`` across it between squares 1 and 2."""
    return ag.BattleMap(ag.Grid(5, 1), walls=[ag.Wall((2, 0), (2, 1), **span)])


def test_a_parapet_stops_a_creature_on_the_ground_not_a_flyer_over_it():
    m = across(top=3)  # 3 ft tall
    walker, flyer = ag.Token(0, 0), ag.Token(0, 0, elevation=10)  # 0..5 ft and 10..15 ft
    assert ag.path_distance(m, walker, (4, 0)) == math.inf
    assert ag.path_distance(m, (0, 0), (4, 0)) == math.inf  # a square: the ground, one square tall
    assert ag.path_distance(m, flyer, (4, 0)) == 20.0
    assert ag.reachable(walker, 30, on=m).cost.tolist() == [[0.0, 5.0, math.inf, math.inf, math.inf]]
    assert ag.reachable(flyer, 30, on=m).cost.tolist() == [[0.0, 5.0, 10.0, 15.0, 20.0]]
    # Just clear of it: a creature standing at the parapet's top (3..8 ft); a Large one at 0 ft (0..10) is not.
    assert ag.path_distance(m, ag.Token(0, 0, elevation=3), (4, 0)) == 20.0
    tall = ag.BattleMap(ag.Grid(6, 2), walls=[ag.Wall((3, 0), (3, 2), top=3)])
    assert ag.reachable(ag.Token(0, 0, size="large"), 30, on=tall).cost[0].tolist() == [0.0, 5.0, math.inf,
                                                                                         math.inf, math.inf, math.inf]
    assert ag.reachable(ag.Token(0, 0, size="large", elevation=3), 30, on=tall).cost[0].tolist() == [
        0.0, 5.0, 10.0, 15.0, 20.0, math.inf]  # its 2 x 2 space ends at most at x 4


def test_a_square_moves_as_the_token_standing_there():
    flyer = ag.Token(0, 0, name="bat", elevation=10)
    m = ag.BattleMap(ag.Grid(5, 1), walls=[ag.Wall((2, 0), (2, 1), top=3)], tokens=[flyer])
    assert ag.reachable((0, 0), 30, on=m).cost.tolist() == [[0.0, 5.0, 10.0, 15.0, 20.0]]
    assert ag.reachable(ag.Space(0, 0), 30, on=m).cost.tolist() == [[0.0, 5.0, 10.0, 15.0, 20.0]]
    # path_distance reads no creature off the map: from a square, the ground.
    assert ag.path_distance(m, (0, 0), (4, 0)) == math.inf


def test_a_beam_overhead_stops_a_flyer_at_its_height_not_a_creature_under_it():
    m = across(bottom=10)  # a beam from 10 ft up
    assert ag.path_distance(m, ag.Token(0, 0), (4, 0)) == 20.0  # 0..5 ft passes under
    assert ag.reachable(ag.Token(0, 0), 30, on=m).cost.tolist() == [[0.0, 5.0, 10.0, 15.0, 20.0]]
    assert ag.path_distance(m, ag.Token(0, 0, elevation=8), (4, 0)) == math.inf  # 8..13 ft meets it
    assert ag.reachable(ag.Token(0, 0, elevation=8), 30, on=m).cost.tolist() == [[0.0, 5.0] + [math.inf] * 3]
    assert ag.path_distance(m, ag.Token(0, 0, elevation=5), (4, 0)) == 20.0  # 5..10 ft: its top touches the beam
    assert ag.path_distance(m, ag.Token(0, 0, height=12), (4, 0)) == math.inf  # a 12-ft giraffe on the ground


def test_floors_do_not_block_moving_across():
    floor = ag.Floor([(0, 0), (3, 0), (3, 1), (0, 1)], elevation=5)
    m = ag.BattleMap(ag.Grid(5, 1), floors=[floor])
    assert ag.reachable(ag.Token(0, 0, elevation=2), 30, on=m).cost.tolist() == [[0.0, 5.0, 10.0, 15.0, 20.0]]


def test_a_creature_on_top_of_a_wall_is_not_inside_it():
    wall = ag.Wall((2.5, 0), (2.5, 3), top=10)  # through the centres of column 2, 10 ft tall
    m = ag.BattleMap(ag.Grid(5, 3), walls=[wall])
    on_top = ag.Token(2, 1, elevation=10)
    r = ag.reachable(on_top, 10, on=m)
    assert r.cost[1].tolist() == [10.0, 5.0, 0.0, 5.0, 10.0]  # walks along the wall's top, and off it
    with pytest.raises(ag.InvalidValueError, match=(
            r"creature token at \(2, 1\) stands inside a wall: a wall blocking movement runs through the centre of "
            r"square \(2, 1\)")):
        ag.reachable(ag.Token(2, 1), 10, on=m)
    with pytest.raises(ag.InvalidValueError, match=r"creature square \(2, 1\) stands inside a wall"):
        ag.reachable((2, 1), 10, on=m)  # no token there: a creature on the ground


def test_a_token_is_warned_about_only_when_the_wall_through_it_meets_its_heights():
    wall = ag.Wall((2.5, 0), (2.5, 3), top=3)
    with pytest.warns(ag.AoegridWarning, match=r"token at \(2, 1\) stands where a wall runs through its space"):
        ag.BattleMap(ag.Grid(5, 3), walls=[wall], tokens=[ag.Token(2, 1)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for z in (3, 10):  # on its top, above it
            m = ag.BattleMap(ag.Grid(5, 3), walls=[wall], tokens=[ag.Token(2, 1, elevation=z)])
        m.move_token(m.tokens[0], 2, 2)
        ag.BattleMap(ag.Grid(5, 3), walls=[ag.Wall((2.5, 0), (2.5, 3), bottom=5)], tokens=[ag.Token(2, 1)])
    with pytest.warns(ag.AoegridWarning, match=r"stands where a wall runs through its space"):
        m.with_token(m.tokens[0], ag.Token(2, 1, elevation=2))


def test_walls_meeting_keeps_the_walls_a_span_meets_strictly():
    parapet, beam, wall = ag.Wall((2, 0), (2, 3), top=3), ag.Wall((3, 0), (3, 3), bottom=10), ag.Wall((4, 0), (4, 3))
    m = ag.BattleMap(ag.Grid(6, 3), walls=[parapet, beam, wall])
    assert [w.start for w in m.walls_meeting(0, 5).walls] == [(2.0, 0.0), (4.0, 0.0)]
    assert [w.start for w in m.walls_meeting(3, 10).walls] == [(4.0, 0.0)]  # touching both, meeting neither
    assert [w.start for w in m.walls_meeting(2, 11).walls] == [(2.0, 0.0), (3.0, 0.0), (4.0, 0.0)]
    assert m.walls_meeting(2, 11) is m  # every wall meets it: the map itself
    copy = m.walls_meeting(0, 5)
    assert all(w.infinite for w in copy.walls) and copy.tokens == () and copy is m.walls_meeting(0, 5)  # kept
    plain = ag.BattleMap(ag.Grid(6, 3), walls=[wall], tokens=[ag.Token(0, 0)])
    assert plain.walls_meeting(100, 100) is plain
    with pytest.raises(ag.InvalidValueError, match=r"walls_meeting low must not be above high, got low=5 and high=0"):
        m.walls_meeting(5, 0)
    with pytest.raises(ag.InvalidValueError, match=r"walls_meeting high must be a finite number, got inf"):
        m.walls_meeting(0, math.inf)
    with pytest.raises(ag.InvalidTypeError, match=r"walls_meeting low must be a number, got '0'"):
        m.walls_meeting("0", 5)


HEIGHTS = st.sampled_from([-5.0, 0.0, 2.5, 5.0, 10.0, 30.0])


@settings(max_examples=40, deadline=None)
@given(case=walled_maps(), rules=st.sampled_from(PRESETS), size=st.sampled_from([1, 2]),
       low=HEIGHTS, tall=st.sampled_from([0.0, 1.0, 5.0, 40.0]))
def test_walls_of_every_height_block_every_creature_as_in_two_dimensions(case, rules, size, low, tall):
    m, rng = case
    assert m.walls_meeting(low, low + tall) is m
    x, y = int(rng.integers(m.grid.width)), int(rng.integers(m.grid.height))
    try:
        flat = ag.reachable((x, y) if size == 1 else ag.Space(x, y, size, size), 60, on=m, rules=rules)
    except (ag.InvalidValueError, ag.OffGridError) as exc:
        with pytest.raises(type(exc), match=re.escape(str(exc).split(" stands ")[-1])):
            ag.reachable(ag.Token(x, y, size=size, elevation=low), 60, on=m, rules=rules)
        return
    high = ag.reachable(ag.Token(x, y, size=size, elevation=low, height=tall or None), 60, on=m, rules=rules)
    assert np.array_equal(flat.cost, high.cost)
    assert np.array_equal(ag.path_distance(m, (x, y), rules=rules),
                          ag.path_distance(m, ag.Token(x, y, elevation=low), rules=rules))


SPANS = st.sampled_from([(-math.inf, math.inf), (-math.inf, 3.0), (-math.inf, 10.0), (0.0, 5.0), (10.0, math.inf),
                         (5.0, 12.0)])


@st.composite
def spanned_walls(draw):
    """A small map's walls along grid lines (so through no square's centre), each of some span; and terrain."""
    w, h = draw(st.integers(3, 8)), draw(st.integers(3, 8))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    walls = []
    for span in draw(st.lists(SPANS, min_size=1, max_size=10)):
        a = rng.integers(0, (w + 1, h + 1))
        b = a + rng.integers(-3, 4) * np.array([[1, 0], [0, 1]])[rng.integers(2)]
        if (a != b).any():
            walls.append(ag.Wall(tuple(a.tolist()), tuple(b.tolist()), bottom=span[0], top=span[1]))
    kinds = rng.choice(np.array([0, 0, 0, 0, 1, 2], dtype=np.int8), (h, w))
    return ag.Grid(w, h), walls, kinds, rng


@settings(max_examples=80, deadline=None)
@given(case=spanned_walls(), rules=st.sampled_from(PRESETS), size=st.sampled_from([1, 2]),
       elevation=st.sampled_from([0.0, 5.0, 10.0]),
       raised=st.lists(st.sampled_from([0.0, 2.0, 5.0, math.inf]), min_size=10, max_size=10))
def test_raising_a_walls_top_never_makes_a_move_cheaper(case, rules, size, elevation, raised):
    grid, walls, kinds, rng = case
    low = ag.BattleMap(grid, walls, terrain=kinds)
    high = ag.BattleMap(grid, [dataclasses.replace(w, top=w.top + r) for w, r in zip(walls, raised)], terrain=kinds)
    x, y = int(rng.integers(grid.width - size + 1)), int(rng.integers(grid.height - size + 1))
    mover = ag.Token(x, y, size=size, elevation=elevation)
    assert (ag.path_distance(high, mover, rules=rules) >= ag.path_distance(low, mover, rules=rules)).all()
    try:
        before = ag.reachable(mover, 60, on=low, rules=rules)
    except ag.InvalidValueError as exc:  # a wall between the squares of its space
        assert "inside a wall" in str(exc)
        return
    try:
        after = ag.reachable(mover, 60, on=high, rules=rules)
    except ag.InvalidValueError as exc:  # a raised wall now runs through it: it goes nowhere
        assert "inside a wall" in str(exc)
        return
    assert (after.cost >= before.cost).all()
