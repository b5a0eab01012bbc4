"""Movement: path distance around walls blocking movement, on hand-worked maps."""

import math

import numpy as np
import pytest

import aoegrid as ag

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
