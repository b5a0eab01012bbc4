"""Heights: creatures as prisms, 3-D distance per preset, cubes on the ground, horizontal slices."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.distance import measure, measure3
from aoegrid.options import Diagonals

GRID = ag.Grid(24, 24)
PRESETS = ["starfinder", "pf2e", "sw5e", "savage-worlds"]


def names(reached):
    return [r.token.name for r in reached]


def test_the_cube_rests_on_the_ground():
    # The reproducer: a 15-ft cube from (5, 5.5) eastward spans
    # squares x 5..7, y 4..6, and heights 0..15 ft (its bottom face at the
    # origin's height), so it reaches a Medium creature flying 10 ft up
    # (5 ft tall: 10..15 ft). Centred on the ground (-7.5..7.5 ft) it did not.
    cube = ag.area(ag.Cube(15, "E"), at=(5, 5.5), on=ag.Grid(20, 20), rules="sw5e")
    flyer = ag.Token(6, 5, name="flyer", elevation=10)
    assert (6, 5) in cube
    assert names(cube.tokens([flyer])) == ["flyer"]
    raised = ag.area(ag.Cube(15, "E"), at=(5, 5.5), on=ag.Grid(20, 20), rules="sw5e", elevation=7.5)
    assert names(raised.tokens([flyer])) == ["flyer"]  # 7.5..22.5 ft
    higher = ag.Token(6, 5, name="higher", elevation=15.5)  # above the top face
    below = ag.Token(6, 5, name="below", elevation=-10)  # 5 ft tall: its top 5 ft under the bottom face
    assert cube.tokens([higher, below]) == []
    for preset in ("starfinder", "pf2e"):
        sf = ag.area(ag.Cube(15, "E"), at=(5, 5), on=ag.Grid(20, 20), rules=preset)
        assert names(sf.tokens([flyer, higher, below])) == ["flyer"]


def test_a_creature_is_as_tall_as_its_space_is_wide_unless_told():
    assert ag.Token(0, 0).prism(5.0) == (0.0, 5.0)
    assert ag.Token(0, 0, size="large").prism(5.0) == (0.0, 10.0)
    assert ag.Token(0, 0, size="huge", elevation=5).prism(5.0) == (5.0, 20.0)
    assert ag.Token(0, 0, height=2.5, elevation=1).prism(5.0) == (1.0, 3.5)
    assert ag.Token(0, 0, size="large").prism(1.0) == (0.0, 2.0)  # a 1" grid: 2" tall
    # A 20-ft burst 30 ft up: a Large ogre on the ground (0..10 ft) is 20 ft
    # below it: square (9, 9)'s far corner (1, 1) and 4 squares up count
    # 4 + floor((1 + 1/2) / 2) = 4 squares, in. A Medium orc there (0..5 ft,
    # 25 ft below) counts 5 + 0 = 5, out; so does an ogre only 5 ft tall.
    burst = ag.area(ag.Sphere(20), at=(10, 10), on=GRID, elevation=30)
    ogre = ag.Token(9, 9, size="large", name="ogre")
    orc = ag.Token(9, 9, name="orc")
    squat = ag.Token(9, 9, size="large", name="squat", height=5)
    assert [(r.token.name, r.squares, r.distance) for r in burst.tokens([ogre, orc, squat])] == [
        ("ogre", ((9, 9), (10, 9), (9, 10), (10, 10)), 20.0)
    ]


def test_token_height_is_validated_and_kept_in_the_value():
    for bad, message in [(-5, r"Token height must be greater than 0, got -5"),
                         (0, r"Token height must be greater than 0, got 0"),
                         (float("nan"), r"Token height must be a finite number, got nan"),
                         (float("inf"), r"Token height must be a finite number, got inf")]:
        with pytest.raises(ag.InvalidValueError, match=message):
            ag.Token(1, 1, height=bad)
    with pytest.raises(ag.InvalidTypeError, match=r"Token height must be a number, got '5' of type str"):
        ag.Token(1, 1, height="5")
    tall = ag.Token(1, 1, name="giraffe", height=15)
    assert tall.height == 15.0 and tall != ag.Token(1, 1, name="giraffe") and hash(tall) == hash(ag.Token(1, 1, name="giraffe", height=15.0))
    assert repr(tall) == "Token(x=1, y=1, size='medium', name='giraffe', elevation=0.0, tags=frozenset(), height=15.0)"
    assert "height" not in repr(ag.Token(1, 1))
    assert tall.moved_to(3, 3).height == 15.0


@pytest.mark.parametrize(
    ("offsets", "alternating", "alternating_2"),
    [
        # Foundry VTT core (SquareGrid#_measurePath): moves sorted, a move
        # along all three axes counting 1.5 diagonals, every second diagonal
        # 2 squares: hi + floor((mid + lo / 2) / 2); alternating-2 starts one
        # diagonal in: hi + ceil(...).
        ((1, 1, 1), 1, 2),  # 1.5 diagonals: 5 ft (10 ft)
        ((2, 2, 2), 3, 4),  # 3 diagonals: 15 ft (20 ft)
        ((3, 1, 0), 3, 4),  # 1 diagonal: as in 2-D, 3 + 0 (3 + 1)
        ((2, 2, 1), 3, 4),  # 2.5 diagonals
        ((3, 3, 3), 5, 6),  # 4.5 diagonals
        ((4, 4, 4), 7, 7),  # 6 diagonals
        ((0, 0, 4), 4, 4),
        ((1, 4, 2), 5, 6),  # sorted 4, 2, 1: 2.5 diagonals
    ],
)
def test_foundry_alternating_in_three_dimensions(offsets, alternating, alternating_2):
    assert float(measure3(*offsets, Diagonals.ALTERNATING)) == alternating
    assert float(measure3(*offsets, Diagonals.ALTERNATING_2)) == alternating_2
    assert ag.distance((0, 0), offsets[:2], square=5, rise=5 * offsets[2]) == 5 * alternating


def test_other_rules_in_three_dimensions():
    assert float(measure3(2, 3, 6, Diagonals.EUCLIDEAN)) == 7.0
    assert float(measure3(2, 3, 6, Diagonals.EQUIDISTANT)) == 6.0  # 5e and Savage Worlds: every diagonal 1
    assert float(measure3(2, 3, 6, Diagonals.MANHATTAN)) == 11.0
    assert float(measure3(2, 2, 2, Diagonals.APPROXIMATE)) == 2 + 0 / 2 + 0.75 * 2  # Foundry: 1.75 a triple move
    assert ag.distance((0, 0), (1, 1), "euclidean", square=5, rise=-5) == pytest.approx(5 * math.sqrt(3))
    assert float(measure3(1e308, 1e308, 1e308, Diagonals.MANHATTAN)) == math.inf
    with pytest.raises(ag.InvalidValueError, match=r"rise must be a finite number, got nan"):
        ag.distance((0, 0), (1, 1), rise=float("nan"))


def _foundry_cost(di, dj, dk, second):
    """Foundry's integer count, transcribed: sort, nd += dj + 0.5 dk, c = di + floor(nd / 2) - floor(nd0 / 2)."""
    di, dj, dk = sorted((abs(di), abs(dj), abs(dk)), reverse=True)
    nd0 = 1.5 if second else 0.0
    return di + (math.floor((nd0 + dj + 0.5 * dk) / 2) - math.floor(nd0 / 2))


whole = st.integers(-40, 40)
reals = st.floats(-40, 40, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(whole, whole, whole)
def test_the_alternating_counts_are_foundrys_on_whole_squares(dx, dy, dz):
    assert float(measure3(dx, dy, dz, Diagonals.ALTERNATING)) == _foundry_cost(dx, dy, dz, False)
    assert float(measure3(dx, dy, dz, Diagonals.ALTERNATING_2)) == _foundry_cost(dx, dy, dz, True)


@settings(max_examples=300, deadline=None)
@given(reals, reals, st.sampled_from(list(Diagonals)))
def test_on_the_ground_the_3d_count_is_the_2d_one(dx, dy, rule):
    assert float(measure3(dx, dy, 0.0, rule)) == pytest.approx(float(measure(dx, dy, rule)), abs=1e-12)
    assert float(measure3(dx, 0.0, dy, rule)) == float(measure3(dy, dx, 0.0, rule))  # axes are alike


@pytest.mark.parametrize("preset", PRESETS)
def test_a_flyer_above_a_20ft_sphere(preset):
    inches = preset == "savage-worlds"
    grid = ag.Grid(24, 24, units="in") if inches else GRID
    sq = grid.square
    sphere = ag.Sphere(4, units="in") if inches else ag.Sphere(20)  # 4 squares
    area = ag.area(sphere, at=(10, 10), on=grid, rules=preset)
    # Over the square beside the origin: 5 squares up is out, 3 squares up in,
    # under every rule (far corner (1, 1): 5 + floor(1.5 / 2) = 5 and 3 + 0 = 3
    # squares; nearest point (0, 0): 5 and 3).
    out, inside = ag.Token(10, 10, name="out", elevation=5 * sq), ag.Token(10, 10, name="in", elevation=3 * sq)
    assert names(area.tokens([out, inside])) == ["in"]
    # Three squares up, farther out: what the rules count.
    if preset in ("starfinder", "pf2e"):
        # Far corners: (12, 10) at (3, 1), 3 up: 3 + floor(3.5 / 2) = 4, in;
        # (12, 11) at (3, 2): 3 + floor(4 / 2) = 5, out (on the ground: 4, in).
        cases = {(12, 10): True, (12, 11): False}
    else:
        # A ball: nearest points (2, 0) and (3, 0), 3 up: hypot 3.61 in, 4.24 out.
        cases = {(12, 10): True, (13, 10): False}
    for (x, y), reached in cases.items():
        assert (x, y) in area
        assert bool(area.tokens([ag.Token(x, y, elevation=3 * sq)])) is reached, (x, y)
        assert bool(area.tokens([ag.Token(x, y)])) is True


def test_the_3d_count_reaches_where_nested_2d_counts_did_not():
    # A 15-ft Starfinder burst: square (11, 11) has its far corner at (2, 2);
    # a creature 10 ft up (2 squares) is (2, 2, 2) away: 3 diagonals along
    # all three axes, 2 + floor(3 / 2) = 3 squares, in. Counting across, then
    # up (3 across, 2 up: 3 + 1 = 4) left it out. Euclidean: sqrt(12) = 3.46, out.
    flyer = ag.Token(11, 11, name="flyer", elevation=10)
    burst = ag.area(ag.Sphere(15), at=(10, 10), on=GRID)
    (hit,) = burst.tokens([flyer])
    assert hit.distance == 10.0  # its nearest point is (1, 1, 2) away: sorted 2, 1, 1: 2 + floor(1.5 / 2) = 2 squares
    euclid = ag.Rules.preset("starfinder").replace(diagonals="euclidean")
    assert (11, 11) in ag.area(ag.Sphere(15), at=(10, 10), on=GRID, rules=euclid)
    assert ag.area(ag.Sphere(15), at=(10, 10), on=GRID, rules=euclid).tokens([flyer]) == []


def test_cylinders_drop_under_starfinder_and_rise_under_5e():
    # Radius 10 ft, 30 ft tall, its circle 30 ft up: Starfinder drops it to
    # the ground (0..30 ft), 5e raises it (30..60 ft).
    ground, high = ag.Token(10, 10, name="ground"), ag.Token(10, 10, name="high", elevation=35)
    top = ag.Token(10, 10, name="top", elevation=30.5)
    dropping = ag.area(ag.Cylinder(10, 30), at=(10, 10), on=GRID, elevation=30)
    assert names(dropping.tokens([ground, high, top])) == ["ground"]
    rising = ag.area(ag.Cylinder(10, 30), at=(10, 10), on=GRID, elevation=30, rules="sw5e")
    assert names(rising.tokens([ground, high, top])) == ["top", "high"]
    assert (dropping.at(0) == dropping.mask).all() and not dropping.at(31).any()
    assert (rising.at(60) == rising.mask).all() and not rising.at(29).any()


def test_slices_of_other_shapes():
    line = ag.area(ag.Line(30, "E"), at=(4, 4), on=GRID, rules="pf2e")  # 5 ft thick, centred on the origin
    assert (line.at(2.5) == line.mask).all() and not line.at(2.6).any()
    cone = ag.area(ag.Cone(30, "E"), at=(10, 10), on=GRID)
    # 10 ft (2 squares) up, the quarter-circle cone keeps the squares whose
    # centre is 2 squares or more ahead (it widens upward as sideways) and
    # whose far corner counts 6 or less in 3-D: on row 10, (15, 10) at
    # (6, 1, 2) counts 6 + floor(2.5 / 2) = 7, out; (14, 10) at (5, 1, 2) 6, in.
    assert np.flatnonzero(cone.mask[10]).tolist() == [10, 11, 12, 13, 14, 15]
    assert np.flatnonzero(cone.at(10)[10]).tolist() == [12, 13, 14]
    assert int(cone.at(10).sum()) == 18 and int(cone.mask.sum()) == 28
    block = ag.area(ag.Shapable([(0, 0), (1, 0), (0, 1), (1, 1)]), at=(2, 2), on=GRID)
    assert (block.at(-5) == block.mask).all() and not block.at(-5.1).any()


def test_slices_need_an_area_made_by_area():
    a = ag.area(ag.Sphere(10), at=(5, 5), on=GRID)
    with pytest.raises(ag.InvalidValueError, match=r"a height test is known for areas made by aoegrid.area\(\), not for combinations"):
        (a | a).at(0)
    with pytest.raises(ag.InvalidValueError, match=r"height must be a finite number, got inf"):
        a.at(float("inf"))
    assert a.at(0).flags.writeable is False and a.at(0).shape == (24, 24)


SHAPES = [ag.Sphere(20), ag.Sphere(10), ag.Cylinder(15, 20), ag.Cube(15, "E"), ag.Cube(10, "S", anchor="left"),
          ag.Cone(30, "NE"), ag.Line(30, "SE"), ag.Line(20, "E", width=10)]


def _area(shape, preset, at, elevation):
    grid = ag.Grid(16, 16, units="in") if preset == "savage-worlds" else ag.Grid(16, 16)
    if preset == "savage-worlds":
        shape = shape.replace(**{f: getattr(shape, f) / 5 for f in ("radius", "height", "size", "length")
                                 if hasattr(shape, f)}, units="in")
        if isinstance(shape, ag.Line) and shape.width is not None:
            shape = shape.replace(width=shape.width / 5)
    return ag.area(shape, at=at, on=grid, rules=preset, elevation=elevation)


origins = st.tuples(st.integers(3, 12), st.integers(3, 12))


@settings(max_examples=80, deadline=None)
@given(shape=st.sampled_from(SHAPES), preset=st.sampled_from(PRESETS), at=origins,
       x=st.integers(0, 15), y=st.integers(0, 15), size=st.sampled_from(["medium", "large"]))
def test_ground_level_creatures_get_the_2d_answers(shape, preset, at, x, y, size):
    a = _area(shape, preset, at, 0.0)
    token = ag.Token(min(x, 14), min(y, 14), size=size)
    inside = tuple(s for s in token.space.squares if s in a)
    got = a.tokens([token])
    assert (got[0].squares if got else ()) == inside
    if got:
        o = a.recipe.origin
        x0, y0, x1, y1 = token.space.bounds
        dx, dy = max(0.0, x0 - o.x1, o.x0 - x1), max(0.0, y0 - o.y1, o.y0 - y1)
        assert got[0].distance == float(measure(dx, dy, a.rules.diagonals)) * a.grid.square


@settings(max_examples=80, deadline=None)
@given(shape=st.sampled_from(SHAPES), preset=st.sampled_from(PRESETS), at=origins,
       elevation=st.sampled_from([0.0, 7.5, -10.0, 30.0]), steps=st.lists(st.floats(0, 40), min_size=2, max_size=4))
def test_slices_at_the_origin_are_the_mask_and_shrink_away_from_it(shape, preset, at, elevation, steps):
    a = _area(shape, preset, at, elevation)
    assert a.elevation == elevation
    assert (a.at(elevation) == a.mask).all()
    for sign in (1.0, -1.0):
        slices = [a.at(elevation + sign * d) for d in sorted(steps)]
        for nearer, farther in itertools.pairwise(slices):
            assert not (farther & ~nearer).any()
        assert not (slices[0] & ~a.mask).any()
