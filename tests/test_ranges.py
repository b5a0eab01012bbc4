"""Range categories, range checks, clipping, touch and targeting through walls."""

import math

import numpy as np
import pytest

import aoegrid as ag
from aoegrid.ranges import Range, check_shape_range


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
