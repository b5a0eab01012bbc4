"""Range categories, range checks, clipping, touch and targeting through walls."""

import math

import numpy as np
import pytest

import aoegrid as ag
from aoegrid.effects.ranges import Range, check_shape_range


@pytest.mark.parametrize(
    ("kind", "feet"),
    [
        ("close", [25, 30, 40, 75]),
        ("medium", [110, 120, 170, 300]),
        ("long", [440, 480, 680, 1200]),
    ],
)
def test_starfinder_categories_at_levels_1_2_7_20(kind, feet):
    assert [Range(kind, level=n).feet for n in (1, 2, 7, 20)] == feet


def test_other_kinds():
    assert Range(60).feet == 60.0 and Range("feet", distance=15).feet == 15.0
    assert Range("touch").feet == 5.0 and Range("personal").feet == 0.0 and Range("self").kind is ag.RangeKind.SELF
    assert all(math.isinf(Range(k).feet) for k in ("planetary", "system-wide", "plane", "unlimited"))
    # Savage Worlds' Range modifier: x2 for 1 PP, x3 for 2 PP; not on touch.
    assert Range(12).times(2).feet == 24.0 and Range(12).times(3).feet == 36.0
    with pytest.raises(ag.InvalidValueError, match=r"the Range modifier cannot be used on a range of touch"):
        Range("touch").times(2)


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: Range("close", level=-1), r"a close range needs the caster's level, a whole number 0 or more; got -1"),
        (lambda: Range("long"), r"a long range needs the caster's level"),
        (lambda: Range("far"), r"unknown range kind 'far'; valid choices are 'feet', 'touch', 'self'"),
        (lambda: Range(-5), r"a range in feet needs a distance of 0 or more, got -5.0"),
    ],
)
def test_bad_ranges(make, match):
    with pytest.raises(ag.InvalidValueError, match=match):
        make()


def test_in_range_and_the_nearest_legal_origin():
    g = ag.Grid(40, 40)
    caster = ag.Token(2, 2)
    ok = ag.in_range(caster, (8, 3), Range("close", level=1), "starfinder", g)
    assert ok.in_range and ok.distance == 25.0 and ok.limit == 25.0
    far = ag.in_range(caster, (20, 14), Range("close", level=1), "starfinder", g)
    # 17 across and 11 down from the space's corner count 17 + 5 = 22 squares.
    assert not far.in_range and far.distance == 110.0
    # The nearest intersection within 25 ft toward it.
    assert far.nearest == (7, 6)
    assert ag.distance((3, 3), far.nearest, square=5) <= 25
    free = ag.in_range(caster, (20, 3), Range(30), "sw5e", g)
    # Anywhere under 5e: 6 squares east of the space, on the line from its centre.
    assert not free.in_range and free.nearest == pytest.approx((9.0, 2.5 + 6.5 / 35), abs=1e-9)


def test_clip_an_area_to_range():
    g = ag.Grid(40, 40)
    caster = ag.Token(0, 10)
    a = ag.area(ag.Sphere(20), at=(7, 11), on=g)
    clipped = ag.clip_to_range(a, caster, Range(40))
    # Squares whose far corner counts more than 8 squares from the caster's
    # space go: columns 9 and 10 (8 squares), three of column 8 and one of 7.
    assert len(clipped) == 44 - 12 and all(x <= 8 for x, _ in clipped.squares)
    assert (7, 14) not in clipped and (7, 13) in clipped and (8, 12) not in clipped
    # The clipped area still knows its creatures.
    assert [r.token.name for r in clipped.tokens([ag.Token(9, 11, name="far"), ag.Token(6, 11, name="near")])] == ["near"]
    assert max(x for x, _ in a.squares) == 10


def test_touch_up_to_six_willing():
    caster = ag.Token(10, 10)
    friends = [ag.Token(9 + dx, 9 + dy, name=f"f{dx}{dy}", tags={"willing"}) for dx in range(3) for dy in range(3) if (dx, dy) != (1, 1)]
    foe = ag.Token(11, 11, name="foe")
    assert len(friends) == 8
    with pytest.raises(ag.InvalidValueError, match=r"8 willing creatures are within touch .*; a touch effect takes at most 6: choose"):
        ag.touch_targets(caster, friends + [foe])
    five = ag.touch_targets(caster, [*friends[:5], foe, ag.Token(14, 10, tags={"willing"})])
    assert [t.name for t in five] == ["f00", "f01", "f02", "f10", "f12"]


def test_a_touch_power_can_target_its_caster():
    me = ag.Token(1, 1, name="me")
    assert ag.touch_targets(me, [me], "sw5e") == [me]
    assert ag.touch_targets(me, [me], "starfinder") == [me]
    # The caster counts against the six.
    crowd = [ag.Token(x, y, tags={"willing"}) for x in (0, 1, 2) for y in (0, 2)]
    with pytest.raises(ag.InvalidValueError, match=r"7 willing creatures are within touch"):
        ag.touch_targets(me, [me, *crowd], "sw5e")


def test_targets_need_line_of_effect_or_sight():
    walls = [ag.Wall((8, 0), (8, 4)), ag.Wall((8, 4), (8, 6), kind="window"), ag.Wall((8, 6), (8, 10))]
    m = ag.BattleMap(ag.Grid(16, 10), walls=walls)
    caster, target = ag.Token(5, 4), ag.Token(11, 4)
    assert not ag.can_target(caster, target, "starfinder", m)  # a window stops line of effect
    assert ag.can_target(caster, target, "savage-worlds", m)  # but the caster sees through it
    assert ag.can_target(caster, ag.Token(6, 1), "starfinder", m)


def test_a_5e_cone_has_a_range_of_self():
    check_shape_range(ag.Cone(15, "E"), Range("self"), "sw5e")
    check_shape_range(ag.Sphere(20), Range(150), "sw5e")
    with pytest.raises(ag.InvalidValueError, match=r"under sw5e a cone originates from its caster: its range is self, not feet 60 ft"):
        check_shape_range(ag.Cone(15, "E"), Range(60), "sw5e")
    check_shape_range(ag.Cone(15, "E"), Range(60), "starfinder")
    assert np.isfinite(Range(60).feet)


def test_the_range_modifier_applies_once():
    assert Range(12).times(2).feet == 24.0 and Range("close", level=2).times(3).feet == 90.0
    assert Range(12).times(3) == Range(12, multiplier=3)
    with pytest.raises(ag.InvalidValueError, match=r"the Range modifier doubles \(x2, 1 PP\) or triples \(x3, 2 PP\) a range, once: give 2 or 3, got 4"):
        Range(12).times(4)
    with pytest.raises(ag.InvalidValueError, match=r"the Range modifier applies once per casting: this range is already x2; multiply the listed range once, by 2 or 3"):
        Range(12).times(2).times(2)
    with pytest.raises(ag.InvalidTypeError, match=r"give 2 or 3, got 2.0 of type float"):
        Range(12).times(2.0)
    with pytest.raises(ag.InvalidValueError, match=r"the Range modifier cannot be used on a range of self"):
        Range("self", multiplier=2)
    with pytest.raises(ag.InvalidValueError, match=r"give 2 or 3, got 5"):
        Range(12, multiplier=5)


def test_in_range_of_a_creature_counts_squares_to_its_space():
    g = ag.Grid(20, 20)
    caster = ag.Token(2, 2, name="caster")
    # Three squares east, (3, 2) to (5, 2), the target's own counted: 15 ft.
    assert ag.in_range(caster, ag.Token(5, 2), Range(15), "starfinder", g).distance == 15.0
    # Adjacent creatures are 5 ft away; the one beyond is out of touch.
    assert ag.in_range(caster, ag.Token(3, 3), Range("touch"), "starfinder", g).in_range
    assert not ag.in_range(caster, ag.Token(4, 2), Range("touch"), "starfinder", g).in_range
    # 3 across and 3 down: 3 + 1 squares under alternating diagonals, 3 under 5e.
    diagonal = ag.Token(5, 5)
    assert ag.in_range(caster, diagonal, 20, "starfinder", g).distance == 20.0
    assert ag.in_range(caster, diagonal, 20, "sw5e", g).distance == 15.0
    # A large creature is measured to its nearest square; a Space works the same.
    ogre = ag.Token(8, 1, size="large")
    near = ag.in_range(caster, ogre, 30, "starfinder", g)
    assert near.in_range and near.distance == 30.0 and near.nearest == (9.0, 2.0)
    assert ag.in_range(caster, ogre.space, 30, "starfinder", g) == near
    far = ag.in_range(caster, ogre, 25, "starfinder", g)
    # The nearest origin toward its centre (9, 2): the intersection 5 squares east.
    assert not far.in_range and far.nearest == (8, 2)
    with pytest.raises(ag.OffGridError, match=r"target \(space 19..21 x 0..2\) is not wholly on the 20 x 20 grid"):
        ag.in_range(caster, ag.Token(19, 0, size="large"), 30, "starfinder", g)


@pytest.mark.parametrize(
    ("target", "rng", "error", "match"),
    [
        ((4, 2), "60 ft", ag.InvalidTypeError, r"range must be an aoegrid.Range or a number of feet, got '60 ft' of type str"),
        ((4, 2), True, ag.InvalidTypeError, r"range must be an aoegrid.Range or a number of feet, got True of type bool"),
        ((4, 2), -5, ag.InvalidValueError, r"a range in feet needs a distance of 0 or more, got -5.0"),
        ((4, 2), float("nan"), ag.InvalidValueError, r"range must be a finite number, got nan"),
        ("orc", 60, ag.InvalidTypeError, r"target must be an \(x, y\) point in grid units, an aoegrid.Token or a Space; got 'orc'"),
    ],
)
def test_in_range_refuses_bad_targets_and_ranges(target, rng, error, match):
    with pytest.raises(error, match=match):
        ag.in_range(ag.Token(2, 2), target, rng, "starfinder", ag.Grid(20, 20))


def test_a_plain_number_of_feet_is_a_range():
    g = ag.Grid(40, 40)
    assert ag.in_range(ag.Token(2, 2), (8, 3), 25, "starfinder", g) == ag.in_range(ag.Token(2, 2), (8, 3), Range(25), "starfinder", g)
    a = ag.area(ag.Sphere(20), at=(7, 11), on=g)
    assert ag.clip_to_range(a, ag.Token(0, 10), 40).squares == ag.clip_to_range(a, ag.Token(0, 10), Range(40)).squares
    with pytest.raises(ag.InvalidTypeError, match=r"range must be an aoegrid.Range or a number of feet, got None"):
        ag.clip_to_range(a, ag.Token(0, 10), None)


def test_range_increments_count_the_first():
    assert [Range(30).increments(d) for d in (0, 5, 30, 30.0000000001, 31, 60, 61, 300)] == [1, 1, 1, 1, 2, 2, 3, 10]
    assert Range(12).times(2).increments(25) == 2  # the Range modifier widens the increment
    with pytest.raises(ag.InvalidValueError, match=r"range increments are counted for a range of some feet \(Range\(30\)\), not a range of close 25 ft"):
        Range("close", level=1).increments(10)
    with pytest.raises(ag.InvalidValueError, match=r"not a range of feet 0 ft"):
        Range(0).increments(10)
    with pytest.raises(ag.InvalidValueError, match=r"distance must be 0 or more, got -5"):
        Range(30).increments(-5)
    with pytest.raises(ag.InvalidValueError, match=r"distance must be a finite number, got inf"):
        Range(30).increments(float("inf"))
    with pytest.raises(ag.InvalidValueError, match=r"distance 1e\+308 spans more increments of 0.5 ft than a float holds"):
        Range(0.5).increments(1e308)


def test_can_target_needs_what_the_effect_says():
    walls = [ag.Wall((8, 0), (8, 10), kind="window")]
    m = ag.BattleMap(ag.Grid(16, 10), walls=walls, fog=[[(3, 0), (5, 0), (5, 10), (3, 10)]])
    caster, beyond_window = ag.Token(6, 4), ag.Token(11, 4)
    assert not ag.can_target(caster, beyond_window, "starfinder", m)
    assert ag.can_target(caster, beyond_window, "starfinder", m, need="sight")
    assert not ag.can_target(caster, beyond_window, "starfinder", m, need="both")
    assert ag.can_target(caster, beyond_window, "savage-worlds", m)
    beyond_fog = ag.Token(1, 4)
    assert ag.can_target(caster, beyond_fog, "starfinder", m) and not ag.can_target(caster, beyond_fog, "savage-worlds", m)
    assert not ag.can_target(caster, beyond_fog, "sw5e", m, need="both")
    with pytest.raises(ag.InvalidValueError, match=r"unknown need 'touch'; valid choices are 'effect', 'sight', 'both'"):
        ag.can_target(caster, beyond_fog, "starfinder", m, need="touch")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: ag.Range("medium", level=10**400),
         r"a medium range at level ~1e400 reaches past the float range \(about 1.8e308 ft\); give a smaller level"),
        (lambda: ag.Range("close", level=10**320), r"a close range at level ~1e320 reaches past"),
        (lambda: ag.Range(1e308).times(3), r"a feet range of 1e\+308 ft x3 reaches past .*give a smaller distance"),
    ],
)
def test_a_range_past_the_float_range_is_refused_when_made(make, message):
    with pytest.raises(ag.InvalidValueError, match=message):
        make()


def test_a_huge_level_that_fits_still_measures():
    rng = ag.Range("medium", level=10**300)
    assert rng.feet == pytest.approx(1e301)
    assert ag.in_range(ag.Token(0, 0), (10, 0), rng, "starfinder", ag.Grid(20, 20)).in_range


# --- line of effect or sight to a point of origin, in three dimensions (issue 20) ---


def test_a_caster_sees_over_a_low_wall_to_a_point_above_it():
    c = ag.Token(1, 1)  # prism 0..5
    low = ag.Wall((3, 0), (3, 4), top=5)
    m = ag.BattleMap(ag.Grid(8, 4), walls=[low])
    sphere = ag.Sphere(5)
    # 10 ft up, beyond the 5-ft wall: the line from the top of the caster's prism passes over it.
    high = ag.legal_origins(sphere, caster=c, on=m, elevation=10)
    assert (5, 2) in high and ag.check_origin(sphere, (5, 2), caster=c, on=m, elevation=10).legal
    assert ag.area(sphere, at=(5, 2), on=m, caster=c, elevation=10).origin == (5, 2)
    # On the ground beyond it: every line from the caster's prism down to 0 ft meets the wall.
    ground = ag.legal_origins(sphere, caster=c, on=m, elevation=0)
    refused = ag.check_origin(sphere, (5, 2), caster=c, on=m, elevation=0)
    assert (5, 2) not in ground and refused.reason == "no line of effect" and refused.nearest in ground
    with pytest.raises(ag.IllegalOriginError, match=r"no line of effect to point of origin \(5, 2\)"):
        ag.area(sphere, at=(5, 2), on=m, caster=c, elevation=0)
    # A floor at 7 ft between the caster's prism and the point 10 ft up blocks it.
    floored = ag.BattleMap(ag.Grid(8, 4), walls=[low], floors=[ag.Floor([(0, 0), (8, 0), (8, 4), (0, 4)], 7)])
    assert (5, 2) not in ag.legal_origins(sphere, caster=c, on=floored, elevation=10)
    assert ag.check_origin(sphere, (5, 2), caster=c, on=floored, elevation=10).reason == "no line of effect"
    # A wall 15 ft tall stands between every line: refused at 10 ft too.
    tall = ag.BattleMap(ag.Grid(8, 4), walls=[ag.Wall((3, 0), (3, 4), top=15)])
    assert (5, 2) not in ag.legal_origins(sphere, caster=c, on=tall, elevation=10)
    # A flying caster above the wall sees the ground beyond it.
    flyer = ag.Token(1, 1, elevation=10)
    assert (5, 2) in ag.legal_origins(sphere, caster=flyer, on=m, elevation=0)
    assert ag.check_origin(sphere, (5, 2), caster=flyer, on=m, elevation=0).legal


def _random_walls(seed, finite):
    rng = np.random.default_rng(seed)
    walls = []
    for _ in range(5):
        x, y = (int(v) for v in rng.integers(1, 11, 2))
        dx, dy = (int(v) for v in rng.integers(-4, 5, 2))
        top = float(rng.choice([5.0, 10.0, 15.0]))  # drawn either way: the same walls, finite or not
        top = top if finite else math.inf
        kind = str(rng.choice(["wall", "wall", "window"]))
        if dx == 0 and dy == 0:
            continue
        walls.append(ag.Wall((x, y), (x + dx, y + dy), top=top, kind=kind))
    return walls


@pytest.mark.filterwarnings("ignore::aoegrid.AoegridWarning")
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("rules", "need"), [("starfinder", None), ("starfinder", "sight"), ("pf2e", "both")])
def test_origin_lines_in_three_dimensions_against_the_plane(seed, rules, need):
    from aoegrid.effects.ranges import _search_origins, caster_space, origin_lattice, resolve_rules

    grid = ag.Grid(12, 12)
    caster = ag.Token(int(seed % 3), int(seed % 4), elevation=float(5 * (seed % 2)))
    sphere = ag.Sphere(5)
    r = resolve_rules(rules)
    for z in (0.0, 5.0, 10.0, 20.0):
        today = {}
        for finite in (False, True):
            walls = _random_walls(seed, finite)
            m = ag.BattleMap(grid, walls=walls)
            o = ag.legal_origins(sphere, caster=caster, on=m, rules=rules, need=need, elevation=z)
            if not finite:  # default spans: today's answer, bit for bit (today's code path: the plane's)
                today = _search_origins(grid, m, origin_lattice(sphere, r), False, caster_space(caster, grid), None,
                                        r, need, 0.0, z)
                assert np.array_equal(o.mask, today.mask) and o.refused == today.refused
                continue
            # Lower walls only add origins: none the infinitely tall copies allow is refused.
            assert not (today.mask & ~o.mask).any()
            # check_origin and area(caster=) accept exactly legal_origins' origins.
            for j, i in zip(*np.nonzero(o.mask | ~today.mask), strict=True):
                p = (int(i), int(j))
                check = ag.check_origin(sphere, p, caster=caster, on=m, rules=rules, need=need, elevation=z)
                assert check.legal == bool(o.mask[j, i]), (p, z, check)
                if need is None:
                    try:
                        ag.area(sphere, at=p, on=m, caster=caster, range=100, rules=rules, elevation=z)
                    except ag.IllegalOriginError:
                        assert not o.mask[j, i], p
                    else:
                        assert o.mask[j, i], p


def test_a_floor_between_caster_and_origin_cuts_lines_the_plane_lets_through() -> None:
    # No wall at all: the plane sees every point; a floor at 10 ft over the map stops lines to 20 ft up.
    m = ag.BattleMap(ag.Grid(10, 10), floors=[ag.Floor([(0, 0), (10, 0), (10, 10), (0, 10)], 10)])
    caster = ag.Token(2, 2)
    assert not ag.check_origin(ag.Sphere(5), (5, 5), caster=caster, range=100, on=m, elevation=20).legal
    assert ag.check_origin(ag.Sphere(5), (5, 5), caster=caster, range=100, on=m, elevation=5).legal
    assert int(ag.legal_origins(ag.Sphere(5), caster=caster, range=100, on=m, elevation=20).mask.sum()) == 0
    assert int(ag.legal_origins(ag.Sphere(5), caster=caster, range=100, on=m, elevation=5).mask.sum()) == 121
