"""Heights: creatures as prisms, 3-D distance per preset, cubes on the ground, horizontal slices."""

import itertools
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.geometry.distance import measure, measure3
from aoegrid.geometry.options import Diagonals

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


# --- pitched cones and lines -------------------------------------------------------------------


def test_pitch_is_a_last_field_validated_and_kept():
    assert ag.Cone(30, "S") == ag.Cone(30, "S", None, None, 0.0) and ag.Cone(30, "S").pitch == 0.0
    assert repr(ag.Cone(30, "S")) == "Cone(length=30.0, direction=90.0, kind=None)"
    assert repr(ag.Line(30, "E", pitch=-30)) == (
        "Line(length=30.0, direction=0.0, width=None, side=<Side.RIGHT: 'right'>, pitch=-30.0)")
    assert math.copysign(1.0, ag.Cone(30, pitch=-0.0).pitch) == 1.0  # a level shape has one pitch
    assert ag.Cone(30, "E", pitch=45).replace(direction="S").pitch == 45.0
    assert ag.Line(30, "E", pitch=90).replace(length=20).pitch == 90.0
    for make, name in ((ag.Cone, "Cone"), (ag.Line, "Line")):
        for bad in (90.5, -91, 1e300):
            with pytest.raises(ag.InvalidValueError, match=rf"{name} pitch must be from -90 to 90 degrees above the "
                               rf"horizontal \(90 straight up, -90 straight down\), got {re.escape(repr(bad))}"):
                make(30, pitch=bad)
        with pytest.raises(ag.InvalidValueError, match=rf"{name} pitch must be a finite number, got nan"):
            make(30, pitch=float("nan"))
        with pytest.raises(ag.InvalidTypeError, match=rf"{name} pitch must be a number, got 'up' of type str"):
            make(30, pitch="up")
        assert make(30, pitch=-90).pitch == -90.0 and make(30, pitch=90).pitch == 90.0


def test_a_cone_aimed_up_reaches_a_flyer_the_level_one_misses_and_not_a_creature_aside():
    # A 30-ft Starfinder cone east from (10, 10). The flyer over square (12, 10),
    # 15..20 ft up (3..4 squares), its centre 2.5 squares ahead and half a
    # square aside: the level cone widens upward as sideways, 2.5 squares there,
    # and misses it. Aimed up 45 degrees, at 3 squares up the centre is
    # 0.61 squares off an axis it lies 3.89 along (within 45 degrees), and the
    # far corner (3, 1) counts 3 + floor((3 + 1/2) / 2) = 4 squares: in.
    # The creature on the ground over (12, 12), its centre (2.5, 2.5) away at
    # exactly 45 degrees, is in the level cone; aimed up, its column enters the
    # cone only from 1.25 squares up (6.25 ft), above its 5-ft top.
    g = ag.Grid(24, 24)
    flyer, aside = ag.Token(12, 10, name="flyer", elevation=15), ag.Token(12, 12, name="aside")
    level = ag.area(ag.Cone(30, "E"), at=(10, 10), on=g)
    up = ag.area(ag.Cone(30, "E", pitch=45), at=(10, 10), on=g)
    assert names(level.tokens([flyer, aside])) == ["aside"]
    assert names(up.tokens([flyer, aside])) == ["flyer"]
    assert names(up.tokens([ag.Token(12, 12, name="taller", height=6.5)])) == ["taller"]
    # Aimed up 60 degrees its lowest side rises 15 degrees: nothing at the origin's height.
    steep = ag.area(ag.Cone(30, "E", pitch=60), at=(10, 10), on=g)
    assert int(level.at(0).sum()) == 28 and not steep.at(0).any()


def test_a_line_straight_up_takes_only_the_column_of_its_origin():
    g = ag.Grid(12, 12)
    around = [(3, 3), (4, 3), (3, 4), (4, 4)]  # the squares around the intersection (4, 4)
    for preset in ("starfinder", "sw5e"):
        up = ag.area(ag.Line(30, "E", pitch=90), at=(4, 4), on=g, rules=preset, elevation=10)
        assert up.squares == around
        down = ag.area(ag.Line(30, "E", pitch=-90), at=(4, 4), on=g, rules=preset, elevation=10)
        assert down.squares == around
    sf = ag.area(ag.Line(30, "SE", pitch=90), at=(4, 4), on=g, elevation=10)
    # Far corners (1, 1) and 6 squares up count 6: the line reaches 30 ft above its origin, not below it.
    assert [int(sf.at(h).sum()) for h in (5, 10.5, 25, 40, 41)] == [0, 4, 4, 4, 0]
    assert names(sf.tokens([ag.Token(3, 3, name="bat", elevation=30), ag.Token(5, 5, name="off")])) == ["bat"]


def test_pitch_zero_is_the_level_shape():
    g = ag.Grid(20, 20)
    tokens = [ag.Token(x, y, elevation=e) for x in range(6, 16, 3) for y in range(6, 16, 3) for e in (0, 5, 10)]
    for preset in PRESETS[:3]:
        for shape in (ag.Cone(30, "SE"), ag.Line(30, "E"), ag.Line(30, 100, width=10)):
            level = ag.area(shape, at=(10, 10), on=g, rules=preset, elevation=5)
            zero = ag.area(shape.replace(pitch=0), at=(10, 10), on=g, rules=preset, elevation=5)
            assert (level.mask == zero.mask).all() and (level.at(10) == zero.at(10)).all()
            assert level.tokens(tokens) == zero.tokens(tokens)


@pytest.mark.parametrize("preset", ["starfinder", "pf2e", "savage-worlds", "sw5e"])
def test_the_pitched_model_at_pitch_zero_sliced_at_the_origin_is_the_level_area(preset):
    # The pitched solids, tested at pitch 0 (aoegrid.geometry.stencils.pitched_columns does
    # not look at the pitch's sign), give the level figures at the origin's
    # height and as a footprint: far-edge cones and lines, cones under the half
    # and touch rules (by their shadow's share), and lines under the touch rule,
    # square for square. (Under the half rule a pitched line is tested on each
    # square's centre, under the centre rule every pitched shape.)
    from aoegrid.geometry.rules import resolve_rules
    from aoegrid.geometry.stencils import _Origin, pitched_columns

    rules = resolve_rules(preset)
    inches = preset == "savage-worlds"
    grid = ag.Grid(20, 20, units="in") if inches else ag.Grid(20, 20)
    sq, unit = grid.square, ("in" if inches else None)
    ys, xs = np.mgrid[0:20, 0:20]
    rng = np.random.default_rng(7)
    for _ in range(60):
        d = float(rng.choice([0, 45, 90, 135, 180, 225, 270, 315, 30, 100, 200, -20]))
        at = (float(rng.integers(5, 15)), float(rng.integers(5, 15)))
        if inches and rng.random() < 0.5:
            at = (at[0] + 0.5, at[1] + 0.3)
        length = float(rng.choice([2, 3, 4, 6])) * sq
        lines = [ag.Line(length, d, units=unit), ag.Line(length, d, width=2 * sq, units=unit),
                 ag.Line(length, d, width=3 * sq, units=unit)]
        shapes = ([] if preset == "sw5e" else lines) + [ag.Cone(length, d, units=unit)]
        for shape in shapes:
            mask = ag.area(shape, at=at, on=grid, rules=preset).mask
            o = _Origin(*at, *at)
            assert (pitched_columns(shape, o, rules, sq, xs, ys, 0.0, 0.0) == mask).all(), (shape, at)
            assert (pitched_columns(shape, o, rules, sq, xs, ys, -np.inf, np.inf) == mask).all(), (shape, at)


PITCHED = [ag.Cone(30, "NE", pitch=30), ag.Cone(30, "E", kind="triangle", pitch=60), ag.Cone(30, "S", kind="teardrop", pitch=20),
           ag.Cone(20, 100, pitch=80), ag.Line(30, "SE", pitch=40), ag.Line(30, "E", width=10, pitch=70), ag.Line(20, 30, pitch=15)]


@settings(max_examples=60, deadline=None)
@given(shape=st.sampled_from(PITCHED), preset=st.sampled_from(PRESETS), at=origins,
       steps=st.lists(st.sampled_from([0.0, 2.5, 5.0, 7.5, 10.0, 15.0, 20.0, 30.0]), min_size=1, max_size=4))
def test_pitch_up_and_down_mirror_about_the_origins_height(shape, preset, at, steps):
    up = _area(shape, preset, at, 30.0)
    down = _area(shape.replace(pitch=-shape.pitch), preset, at, 30.0)
    assert (up.mask == down.mask).all()
    sq = up.grid.square
    for h in steps:
        assert (up.at(30.0 + h / 5 * sq) == down.at(30.0 - h / 5 * sq)).all()
        # Every slice lies within the footprint.
        assert not (up.at(30.0 + h / 5 * sq) & ~up.mask).any()


def _axis(direction, pitch):
    u = np.array([math.cos(math.radians(direction)), math.sin(math.radians(direction))])
    return np.array([math.cos(math.radians(pitch)) * u[0], math.cos(math.radians(pitch)) * u[1], math.sin(math.radians(pitch))])


def _in_cone(kind, v, a, length, m):
    """Membership of offsets ``v`` (..., 3) in the cone's solid from its definition, grown by ``m`` (shrunk: m < 0)."""
    norm = np.linalg.norm(v, axis=-1)
    along = v @ a
    angle = np.degrees(np.arccos(np.clip(along / np.maximum(norm, 1e-300), -1, 1)))
    if kind == "quarter-circle":
        return (norm <= 1e-12) | (angle <= 45 + 20 * m)
    if kind == "triangle":
        perp = np.linalg.norm(v - along[..., None] * a, axis=-1)
        return (along >= -m) & (along <= length + m) & (perp <= along / 2 + m)
    # The convex hull of the apex and the ball of radius length / 6 at 5/6 of the length: the cone of
    # half-angle asin(1/5) (tan^2 = 1/24) up to where its sides touch the ball, 0.8 of the length along, and the ball.
    perp = np.linalg.norm(v - along[..., None] * a, axis=-1)
    body = (along >= -m) & (along <= 0.8 * length + m) & (perp <= along / math.sqrt(24) + m)
    return body | (np.linalg.norm(v - a * (5 * length / 6), axis=-1) <= length / 6 + m)


def _sampled_meets(area, x, y, lo, hi, m):
    """Whether a sample of the square's column, at the rule's points, lies in the solid grown by ``m``."""
    shape, rules, sq = area.shape, area.rules, area.grid.square
    ox, oy = area.recipe.origin.x0, area.recipe.origin.y0
    q = np.linspace(lo, hi, 401)
    a = _axis(shape.direction, shape.pitch)
    length = shape.length / sq
    far = np.array([max(x + 1 - ox, ox - x), max(y + 1 - oy, oy - y)])
    count = measure3(far[0], far[1], q, rules.diagonals)
    if isinstance(shape, ag.Cone):
        kind = (shape.kind or rules.cone).value
        if rules.inclusion.value in ("half", "touch"):
            # The square's share under the shadow of the part within [lo, hi]: 24 x 24 points of the square.
            grid = (np.arange(24) + 0.5) / 24
            px, py = np.meshgrid(x + grid - ox, y + grid - oy)
            v = np.stack(np.broadcast_arrays(px[..., None], py[..., None], q), axis=-1)
            inside = _in_cone(kind, v, a, length, m)
            if kind == "quarter-circle":
                inside &= np.linalg.norm(v, axis=-1) <= length + m
            shaded = inside.any(axis=-1)
            return bool(shaded.mean() >= 0.5) if rules.inclusion.value == "half" else bool(shaded.any())
        v = np.stack([np.full_like(q, x + 0.5 - ox), np.full_like(q, y + 0.5 - oy), q], axis=-1)
        ok = _in_cone(kind, v, a, length, m)
        if rules.inclusion.value == "far-edge":
            ok &= count <= length + 10 * m
        elif kind == "quarter-circle":
            ok &= np.linalg.norm(v, axis=-1) <= length + m
        return bool(ok.any())
    # A line: the box from the origin, the width across and above, run the length (far-edge: counted).
    width = (shape.width if shape.width is not None else rules.line_width) / sq
    far_edge = rules.inclusion.value == "far-edge"
    half = max(width - 1, 0) / 2 if far_edge else width / 2
    crossing = far_edge or rules.inclusion.value == "touch"
    grid = (np.arange(24) + 0.5) / 24 if crossing else np.array([0.5])
    px, py = np.meshgrid(x + grid, y + grid)
    v = np.stack(np.broadcast_arrays(px[..., None] - ox, py[..., None] - oy, q), axis=-1)
    u = np.array([math.cos(math.radians(shape.direction)), math.sin(math.radians(shape.direction)), 0.0])
    n = np.array([-u[1], u[0], 0.0])
    sin, cos = math.sin(math.radians(shape.pitch)), math.cos(math.radians(shape.pitch))
    up = np.array([-sin * u[0], -sin * u[1], cos])  # across the axis, upward
    if far_edge and math.ceil(width) % 2 == 1 and shape.direction % 90 == 0:
        # The tie rule: a path along a grid line taking an odd number of rows moves half a square right.
        v = v - 0.5 * n
    t = v @ a
    ok = (np.abs(v @ n) <= half + m) & (np.abs(v @ up) <= width / 2 + m) & (t >= -m)
    if far_edge:
        centre = np.array([x + 0.5 - ox, y + 0.5 - oy])
        ahead = cos * (centre @ u[:2]) + sin * q > -m
        return bool((ok & ahead & (count <= length + 10 * m)).any())
    return bool((ok & (t <= length + m)).any())


@pytest.mark.parametrize("preset", ["starfinder", "pf2e", "sw5e", "savage-worlds", "center"])
def test_pitched_columns_agree_with_a_sampler_of_the_solids(preset):
    # Small random cases: a square near the origin and a range of heights; the
    # column's answer, sampled at 401 heights (lines, and cones under the half
    # and touch rules: 24 x 24 points of the square too) against the solid's definition grown and shrunk a little,
    # is compared wherever the two agree (the answer does not turn on the sampling).
    rng = np.random.default_rng(20)
    rules = ag.Rules.preset("starfinder").replace(inclusion="center") if preset == "center" else preset
    inches = preset == "savage-worlds"
    grid = ag.Grid(16, 16, units="in") if inches else ag.Grid(16, 16)
    sq, unit = grid.square, ("in" if inches else None)
    compared = 0
    for _ in range(50):
        direction = float(rng.choice([0, 45, 90, 180, 270, 30, 160, 250]))
        pitch = float(rng.choice([-90, -60, -45, -20, 10, 30, 45, 75, 90]))
        length = float(rng.integers(2, 6)) * sq
        if rng.random() < 0.5:
            shape = ag.Cone(length, direction, units=unit, pitch=pitch)
        elif preset in ("sw5e", "center"):
            shape = ag.Line(length, direction, width=2 * sq, units=unit, pitch=pitch)
        else:
            shape = ag.Line(length, direction, width=float(rng.choice([2, 3])) * sq, units=unit, pitch=pitch)
        area = ag.area(shape, at=(8, 8), on=grid, rules=rules)
        for _ in range(6):
            x, y = (int(v) for v in rng.integers(2, 14, 2))
            lo = float(rng.uniform(-7, 6))
            hi = lo + float(rng.uniform(0.2, 3))
            grown, shrunk = (_sampled_meets(area, x, y, lo, hi, m) for m in (0.02, -0.02))
            if grown == shrunk:
                compared += 1
                assert bool(area.column_meets(x, y, lo * sq, hi * sq)) is grown, (shape, x, y, lo, hi)
    assert compared > 200


def test_the_vertical_extent_of_pitched_shapes_holds_every_slice():
    g = ag.Grid(20, 20)
    for preset in PRESETS[:3]:
        for shape in PITCHED:
            a = ag.area(shape, at=(10, 10), on=g, rules=preset, elevation=20)
            lo, hi = a.vertical_extent()
            assert lo <= 20.0 <= hi
            heights = np.linspace(lo - 40, hi + 40, 161)
            met = [h for h in heights if a.at(float(h)).any()]
            assert bool(met) is bool(a), (preset, shape)  # (a far-edge teardrop's far corners seldom fit)
            assert not met or (lo - 1e-6 <= min(met) and max(met) <= hi + 1e-6), (preset, shape)
    # A 5e cone aimed up 60 degrees: its rim's top is 30 * (sin 60 + cos 60 / 2) = 33.48 ft up.
    tri = ag.area(ag.Cone(30, "E", pitch=60), at=(10, 10), on=g, rules="sw5e")
    assert tri.vertical_extent() == pytest.approx((0.0, 30 * (math.sqrt(3) / 2 + 0.25)))


def test_pitched_records_carry_their_pitch_and_level_ones_do_not():
    from aoegrid.io.export import area_record, foundry_template, validate

    g = ag.Grid(10, 10)
    level = area_record(ag.area(ag.Cone(30, "E"), at=(4, 4), on=g))
    assert "pitch" not in level["shape"]
    tilted = validate(area_record(ag.area(ag.Line(30, "E", pitch=-30), at=(4, 4), on=g)))
    assert tilted["shape"]["pitch"] == -30.0
    with pytest.raises(ag.InvalidValueError, match=r"a cone aimed up \(pitch 45\) has no Foundry template: "
                       r"Foundry's templates lie level"):
        foundry_template(ag.area(ag.Cone(30, "E", pitch=45), at=(4, 4), on=g))
