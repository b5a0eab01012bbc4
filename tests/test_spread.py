"""Spreads against walls: a superset of the burst, independent of wall order, symmetric.

Random maps use coordinates on an eighth-square lattice, so mirroring and
turning them is exact in floats and the degenerate cases (walls through square
centres and corners, walls meeting walls) come up often.
"""

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from tests.conftest import mirrored

import aoegrid as ag
from aoegrid.geometry.raster import Window

N = 10
INCH = ag.Grid(N, N, units="in")
FEET = ag.Grid(N, N)
PRESETS = ["starfinder", "pf2e", "sw5e", "savage-worlds"]


def _grid(preset: str) -> ag.Grid:
    return INCH if preset == "savage-worlds" else FEET


def _size(preset: str, k: int) -> float:
    return float(k) if preset == "savage-worlds" else 5.0 * k


# --- reproducers from the issue --------------------------------------------------------


def test_spread_keeps_what_the_burst_sees_past_a_long_diagonal_wall():
    m = ag.BattleMap(ag.Grid(10, 10), [ag.Wall((0, 10.6), (10.6, 0))])
    burst = ag.area(ag.Sphere(30), at=(2, 2), on=m)
    spread = ag.area(ag.Sphere(30), at=(2, 2), on=m, mode="spread")
    assert {(4, 6), (5, 5), (6, 4)} <= set(burst.squares)
    assert {(4, 6), (5, 5), (6, 4)} <= set(spread.squares)
    assert round(float(spread.visible[5, 5]), 2) == 0.18
    assert set(burst.squares) <= set(spread.squares)


def test_spread_does_not_depend_on_the_order_walls_are_listed():
    a, b = ((0, 5), (4, 1)), ((0, 0), (4, 8))
    answers = []
    for walls in ([a, b], [b, a]):
        m = ag.BattleMap(ag.Grid(4, 5), walls=[ag.Wall(*w) for w in walls])
        answers.append(ag.area(ag.Sphere(15), at=(1, 5), on=m, rules="sw5e", mode="spread").squares)
    # (0, 2) and (0, 3) lie wholly beyond wall a: neither order may take them.
    assert answers[0] == answers[1] == [(1, 3), (0, 4), (1, 4), (2, 4)]


def test_split_points_are_the_same_bits_in_any_order():
    a, b = ag.Wall((0, 5), (4, 1)), ag.Wall((0, 0), (4, 8))
    ab = ag.BattleMap(ag.Grid(4, 5), walls=[a, b]).wallset("effect").segs
    ba = ag.BattleMap(ag.Grid(4, 5), walls=[b, a]).wallset("effect").segs
    assert sorted(map(tuple, ab.tolist())) == sorted(map(tuple, ba.tolist()))


def test_a_diagonal_door_through_a_square_centre_gives_mirrored_answers():
    # Seen on the real map headmasters-quarters: the door crosses square (0, 2) at its centre.
    door = ((0.233454, 2.766546), (0.766546, 2.233454))
    m = ag.BattleMap(ag.Grid(10, 10), [ag.Wall(*door)])
    mirrored = ag.BattleMap(ag.Grid(10, 10), [ag.Wall(*[(10 - x, y) for x, y in door])])
    a = ag.area(ag.Sphere(20), at=(3, 2), on=m, mode="spread")
    b = ag.area(ag.Sphere(20), at=(7, 2), on=mirrored, mode="spread")
    assert (0, 2) in a and (9, 2) in b
    assert set(a.squares) == {(9 - x, y) for x, y in b.squares}
    assert len(a) == 34


def test_the_demo_spreads_hold_their_bursts():
    m = ag.demo_map()
    for preset, at, size in (("starfinder", (9, 11), 20), ("sw5e", (9.5, 11.5), 20), ("savage-worlds", (9.5, 11.5), 4)):
        grid_map = m if preset != "savage-worlds" else ag.BattleMap(ag.Grid(20, 20, units="in"), m.walls)
        burst = ag.area(ag.Sphere(size), at=at, on=grid_map, rules=preset)
        spread = ag.area(ag.Sphere(size), at=at, on=grid_map, rules=preset, mode="spread")
        assert set(burst.squares) <= set(spread.squares), preset


# --- random wall maps -----------------------------------------------------------------

eighths = st.integers(-8, 8 * N + 8).map(lambda k: k / 8)
walls_st = st.lists(
    st.tuples(eighths, eighths, eighths, eighths).filter(lambda s: (s[0], s[1]) != (s[2], s[3])),
    min_size=1,
    max_size=6,
)
compass = st.sampled_from([0, 45, 90, 135, 180, 225, 270, 315])


@st.composite
def queries(draw):
    preset = draw(st.sampled_from(PRESETS))
    if preset in ("starfinder", "pf2e"):
        at = (float(draw(st.integers(1, N - 1))), float(draw(st.integers(1, N - 1))))
    else:
        at = (draw(st.integers(8, 8 * N - 8)) / 8, draw(st.integers(8, 8 * N - 8)) / 8)
    kind = draw(st.sampled_from(["sphere", "cone", "cube", "line"]))
    size = _size(preset, draw(st.integers(1, 6)))
    d = draw(compass)
    if kind == "sphere":
        shape = ag.Sphere(size)
    elif kind == "cone":
        shape = ag.Cone(size, d)
    elif kind == "cube":
        shape = ag.Cube(size, d, anchor=draw(st.sampled_from(["center", "left", "right"])))
    else:
        shape = ag.Line(size, d)
    return preset, at, shape


def _spread_and_burst(walls, preset, at, shape):
    m = ag.BattleMap(_grid(preset), walls=[ag.Wall(s[:2], s[2:]) for s in walls])
    try:
        burst = ag.area(shape, at=at, on=m, rules=preset)
    except ag.OriginOnWallError:
        assume(False)
    spread = ag.area(shape, at=at, on=m, rules=preset, mode="spread")
    return m, burst, spread


@settings(max_examples=80, deadline=None)
@given(walls_st, queries())
def test_burst_within_spread_within_shape(walls, query):
    preset, at, shape = query
    m, burst, spread = _spread_and_burst(walls, preset, at, shape)
    open_field = ag.area(shape, at=at, on=m.grid, rules=preset).mask
    assert not (burst.mask & ~spread.mask).any()
    assert not (spread.mask & ~open_field).any()


@settings(max_examples=60, deadline=None)
@given(walls_st, queries(), st.randoms(use_true_random=False))
def test_wall_order_does_not_matter(walls, query, rnd):
    preset, at, shape = query
    _, _, spread = _spread_and_burst(walls, preset, at, shape)
    shuffled = list(walls)
    rnd.shuffle(shuffled)
    _, _, again = _spread_and_burst(shuffled, preset, at, shape)
    assert spread.squares == again.squares


@settings(max_examples=60, deadline=None)
@given(walls_st, queries())
def test_mirroring_map_and_query_mirrors_the_spread(walls, query):
    preset, at, shape = query
    _, _, spread = _spread_and_burst(walls, preset, at, shape)
    flipped = [(N - ax, ay, N - bx, by) for ax, ay, bx, by in walls]
    _, _, seen = _spread_and_burst(flipped, preset, (N - at[0], at[1]), mirrored(shape))
    np.testing.assert_array_equal(seen.mask, spread.mask[:, ::-1])


@settings(max_examples=60, deadline=None)
@given(walls_st, queries())
def test_quarter_turn_of_map_and_query_turns_the_spread(walls, query):
    preset, at, shape = query
    _, _, spread = _spread_and_burst(walls, preset, at, shape)
    # Clockwise on screen (y down): point (x, y) goes to (N - y, x).
    turned = [(N - ay, ax, N - by, bx) for ax, ay, bx, by in walls]
    shape2 = shape.replace(direction=(shape.direction + 90) % 360) if hasattr(shape, "direction") else shape
    _, _, after = _spread_and_burst(turned, preset, (N - at[1], at[0]), shape2)
    np.testing.assert_array_equal(after.mask, np.rot90(spread.mask, k=-1))


@pytest.mark.parametrize("preset", PRESETS)
def test_spread_equals_burst_with_no_walls_for_every_shape(preset):
    m = ag.BattleMap(_grid(preset))
    at = (5, 5)
    for shape in (ag.Sphere(_size(preset, 3)), ag.Cone(_size(preset, 4), 45), ag.Cube(_size(preset, 2), 90),
                  ag.Line(_size(preset, 5), 0)):
        burst = ag.area(shape, at=at, on=m, rules=preset)
        spread = ag.area(shape, at=at, on=m, rules=preset, mode="spread")
        assert spread == burst and len(burst) > 0, (preset, shape)


def test_a_5e_cone_spread_keeps_its_far_corners_in_open_field():
    m = ag.BattleMap(ag.Grid(80, 80))
    burst = ag.area(ag.Cone(60, 0), at=(40, 40), on=m, rules="sw5e")
    spread = ag.area(ag.Cone(60, 0), at=(40, 40), on=m, rules="sw5e", mode="spread")
    assert len(burst) == len(spread) == 72
    assert (51, 34) in spread and (51, 45) in spread


def test_a_5e_cone_spread_reaches_a_far_corner_round_a_wall():
    # A wall hides the cone's far upper corner from the origin; the spread gets there round its end.
    wall = ag.Wall((46, 38.2), (46, 35))
    m = ag.BattleMap(ag.Grid(80, 80), walls=[wall])
    burst = ag.area(ag.Cone(60, 0), at=(40, 40), on=m, rules="sw5e")
    spread = ag.area(ag.Cone(60, 0), at=(40, 40), on=m, rules="sw5e", mode="spread")
    assert (51, 34) not in burst and (51, 34) in spread
    assert float(spread.visible[34, 51]) == 0.0


# --- issue 11: step masks as bits, walls prepared by region ----------------------------


def test_step_bits_by_tile_match_a_direct_test_of_every_step():
    import shapely

    from aoegrid.board.spread import _STEPS, StepMasks
    from aoegrid.geometry.regions import EPS

    rng = np.random.default_rng(3)
    ends = np.round(rng.uniform(-2, 13, size=(12, 4)) * 2) / 2  # ends on half squares: many exact touches
    ends = np.vstack([ends, [[4.0, 4.0, 4.0, 4.0]]])  # a zero-length wall blocks nothing
    width, height = 11, 9
    small = StepMasks(width, height, ends, np.zeros(len(ends), np.int8))
    small.TILE = 4  # tiles meeting inside the window
    big = StepMasks(width, height, ends, np.zeros(len(ends), np.int8))
    window = Window(0, 0, width, height)
    bits = small.window(window)
    assert np.array_equal(bits, big.window(window))
    walls = shapely.linestrings(ends[:-1].reshape(-1, 2, 2))
    for k, (dx, dy) in enumerate(_STEPS):
        for y in range(height):
            for x in range(width):
                step = shapely.LineString([(x + 0.5, y + 0.5), (x + dx + 0.5, y + dy + 0.5)])
                assert (bits[y, x] >> k) & 1 == bool((shapely.distance(walls, step) <= EPS).any()), (k, x, y)


def test_a_one_way_wall_bars_only_steps_from_its_blocking_side():
    from aoegrid.board.spread import StepMasks

    # From (5, 0) down to (5, 4): its right, looking along it, is west (x < 5).
    masks = StepMasks(10, 4, np.array([[5.0, 0.0, 5.0, 4.0]]), np.array([1], np.int8))
    bits = masks.window(Window(0, 0, 10, 4))
    assert bits[1, 4] == 0b01010001  # east, and both diagonals east, from the west side
    assert bits[1, 5] == 0


@st.composite
def region_walls(draw):
    """Random walls with overlapping collinear pieces, copies, one-way and sight-only walls."""
    walls = []
    for s in draw(walls_st):
        options = draw(st.sampled_from([{}, {"one_way": "left"}, {"one_way": "right"}, {"blocks": {"sight"}}]))
        walls.append(ag.Wall(s[:2], s[2:], **options))
        for a, b in draw(st.lists(st.tuples(st.integers(-2, 10), st.integers(-2, 10)), max_size=2)):
            # A collinear piece from a/8 to b/8 of the way along: overlapping, touching or apart.
            p = [s[k] + (s[k + 2] - s[k]) * a / 8 for k in (0, 1)]
            q = [s[k] + (s[k + 2] - s[k]) * b / 8 for k in (0, 1)]
            if p != q:
                walls.append(ag.Wall(tuple(p), tuple(q)))
    return walls


@st.composite
def region_frames(draw):
    x, y = draw(st.integers(-1, N)), draw(st.integers(-1, N))
    return (float(x), float(y), float(x + draw(st.integers(0, N))), float(y + draw(st.integers(0, N))))


#: Two walls on one line, overlapping, merged into a wall whose box holds the point (0, 0), where
#: neither wall's box reaches (issue 17).
MERGED_PAST_THEIR_BOXES = [ag.Wall((0, 9 / 8), (1 / 8, 1 / 8)), ag.Wall((1 / 64, 1), (9 / 64, 0))]


@settings(max_examples=200, deadline=None)
@given(walls=region_walls(), frame=region_frames(), tile=st.sampled_from([2, 3, 32]))
@example(walls=MERGED_PAST_THEIR_BOXES, frame=(0.0, 0.0, 0.0, 0.0), tile=2)
def test_walls_near_a_frame_are_the_whole_maps_walls_there(walls, frame, tile):
    """Preparing only a region merges and splits exactly as preparing the whole map does."""
    m = ag.BattleMap(FEET, walls=walls)
    m._prepared.walls.TILE = tile
    whole = ag.BattleMap(FEET, walls=walls)
    for channel in ("effect", "sight"):
        got = m.walls_near(channel, frame).near(frame)
        want = whole.wallset(channel).near(frame)
        assert sorted(zip(map(tuple, got[0].tolist()), got[1].tolist())) == sorted(
            zip(map(tuple, want[0].tolist()), want[1].tolist())
        )


def test_a_region_holds_a_merged_wall_reaching_it_past_the_boxes_of_the_walls_merged():
    """The merged wall's box meets the zero-area frame at (0, 0); neither wall's own box does."""
    want = [((0.0, 1.125, 0.140625, 0.0), 0)]
    whole = ag.BattleMap(FEET, walls=MERGED_PAST_THEIR_BOXES).wallset("effect").near((0.0, 0.0, 0.0, 0.0))
    assert list(zip(map(tuple, whole[0].tolist()), whole[1].tolist())) == want
    for tile in (2, 32):
        m = ag.BattleMap(FEET, walls=MERGED_PAST_THEIR_BOXES)
        m._prepared.walls.TILE = tile
        for frame in ((0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.01, 0.01)):
            got = m.walls_near("effect", frame).near(frame)
            assert list(zip(map(tuple, got[0].tolist()), got[1].tolist())) == want, (tile, frame)


def test_a_first_spread_builds_step_masks_only_where_it_goes():
    walls = [ag.Wall((x, 0), (x, 400)) for x in range(10, 400, 20)]
    m = ag.BattleMap(ag.Grid(400, 400), walls=walls)
    spread = ag.area(ag.Sphere(30), at=(200, 200), on=m, mode="spread")
    assert len(spread) == len(ag.area(ag.Sphere(30), at=(200, 200), on=m.grid)) == 96  # no wall within 30 ft
    assert spread.window == Window(193, 193, 14, 14)
    assert sorted(m._prepared.steps._tiles) == [(6, 6)]  # squares 192..223 both ways: one tile
