"""Pitched cones under the half and touch rules: the square's real share under the solid's shadow."""

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.geometry._solids import GAP, cone_mesh, shares
from aoegrid.geometry.options import ConeKind
from aoegrid.geometry.rules import resolve_rules
from aoegrid.geometry.stencils import _Origin, pitched_columns

DIRECTIONS = [0, 10, 30, 45, 60, 90, 135, 200, 290, 333]


@pytest.mark.parametrize("at", [(10, 10), (10.5, 10.3)])
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_a_barely_pitched_cone_takes_the_level_cones_squares(direction, at):
    g = ag.Grid(21, 21)
    for kind in (None, "quarter-circle", "teardrop"):
        level = ag.area(ag.Cone(30, direction, kind=kind), at=at, on=g, rules="sw5e")
        tilted = ag.area(ag.Cone(30, direction, kind=kind, pitch=1e-6), at=at, on=g, rules="sw5e")
        assert (tilted.mask == level.mask).all(), kind
    inches = ag.Grid(21, 21, units="in")
    level = ag.area(ag.Cone(4 * inches.square, direction, units="in"), at=at, on=inches, rules="savage-worlds")
    tilted = ag.area(ag.Cone(4 * inches.square, direction, units="in", pitch=1e-6), at=at, on=inches,
                     rules="savage-worlds")
    assert (tilted.mask == level.mask).all()


def test_a_cone_straight_up_takes_the_squares_half_under_its_disk():
    # A 30-ft 5e cone straight up from (10, 10): its shadow is its rim, a disk of radius 3 squares.
    # Half of a square lies in it for the 6 x 6 squares round the origin but their four corners
    # (a corner square's share is 0.29); the squares beside the corners hold 0.576 of theirs.
    a = ag.area(ag.Cone(30, "E", pitch=90), at=(10, 10), on=ag.Grid(21, 21), rules="sw5e")
    ring = {(-3, -3), (2, -3), (-3, 2), (2, 2)}
    expected = sorted((10 + dx, 10 + dy) for dy in range(-3, 3) for dx in range(-3, 3) if (dx, dy) not in ring)
    assert len(expected) == 32 and sorted(a.squares) == expected
    touched = ag.area(ag.Cone(30, "E", pitch=90), at=(10, 10), on=ag.Grid(21, 21),
                      rules=resolve_rules("sw5e").replace(inclusion="touch"))
    # Touch: all 6 x 6 (a corner square's far corner is 2.83 away); the squares past each side meet the rim at
    # one point of their edge only, no area.
    assert len(touched.squares) == 36


@pytest.mark.parametrize("length", [2.0, 6.0, 13.0])
def test_the_shadows_area_is_the_closed_forms(length):
    up = cone_mesh(ConeKind.TRIANGLE, length, 30.0, 90.0)
    assert up.shadow(-math.inf, math.inf).area == pytest.approx(math.pi * (length / 2) ** 2, rel=1e-4)
    level = cone_mesh(ConeKind.TRIANGLE, length, 30.0, 0.0)
    assert level.shadow(-math.inf, math.inf).area == pytest.approx(length * length / 2, rel=1e-4)
    quarter = cone_mesh(ConeKind.QUARTER_CIRCLE, length, 30.0, 0.0)
    assert quarter.shadow(-math.inf, math.inf).area == pytest.approx(math.pi * length ** 2 / 4, rel=1e-4)
    # Cut at half its height, the upright cone's shadow is the disk there, radius length / 4.
    assert up.shadow(length / 2, length / 2).area == pytest.approx(math.pi * (length / 4) ** 2, rel=1e-4)
    # Every mesh point is on the solid; the mesh's gap to the true surface is under GAP of the length.
    assert up.shadow(-math.inf, math.inf).area <= math.pi * (length / 2) ** 2
    assert math.pi * (length / 2) ** 2 - up.shadow(-math.inf, math.inf).area < GAP * length * math.pi * length


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(list(ConeKind)), direction=st.sampled_from([0.0, 20.0, 45.0, 100.0, 250.0]),
       pitch=st.sampled_from([-90.0, -50.0, -20.0, 5.0, 30.0, 60.0, 89.0, 90.0]),
       length=st.sampled_from([2.0, 4.0, 6.0]), at=st.sampled_from([(10.0, 10.0), (10.5, 10.25)]),
       lo=st.floats(-8.0, 8.0), rise=st.floats(0.0, 4.0))
def test_half_lies_within_the_centre_and_touch_rules_and_a_slab_within_the_whole_shadow(kind, direction, pitch, length,
                                                                                           at, lo, rise):
    # Half of a square under a convex shadow holds its centre: a half-plane missing the centre holds
    # at most half of the square (its mirror through the centre is disjoint from it). So the half rule's
    # squares are among the centre rule's and the touch rule's; a square whose centre lies 0.71 (more than
    # half a diagonal) inside the shadow lies wholly in it.
    rules = resolve_rules("sw5e")
    shape = ag.Cone(length * 5, direction, kind=kind.value, pitch=pitch)
    ys, xs = np.mgrid[0:21, 0:21].astype(float)
    o = _Origin(*at, *at)
    mesh = cone_mesh(kind, length, direction, pitch)
    for span in ((lo, lo + rise), (-math.inf, math.inf)):
        half, centre, touch = (pitched_columns(shape, o, rules.replace(inclusion=inc), 5.0, xs, ys, *span)
                               for inc in ("half", "center", "touch"))
        assert not (half & ~centre).any() and not (half & ~touch).any()
        shade = mesh.shadow(*span)
        if shade.area == 0.0:
            continue  # none, or a flat figure of no area (a tangent cut): no square lies deep in it
        cx, cy = xs + 0.5 - at[0], ys + 0.5 - at[1]
        deep = shapely.contains_xy(shade, cx, cy) & (shapely.distance(shapely.points(cx, cy), shade.boundary) >= 0.71)
        assert not (deep & ~half).any()
    whole = mesh.shadow(-math.inf, math.inf)
    part = mesh.shadow(lo, lo + rise)
    assert part.is_empty or shapely.covers(shapely.buffer(whole, 1e-9), part)


def test_a_creature_the_centre_rule_takes_but_half_of_whose_square_is_not_under_the_cone():
    # A 30-ft 5e cone from (10, 10) aimed south-east and 30 degrees up. An imp flies 5..10 ft up over
    # square (10, 10), the one the cone starts from: the part of the cone at its heights shades 0.42
    # of its square, centre included. Under the centre rule it is in; under 5e's half rule, out.
    # (The converse, 0.6 of a square shaded and its centre not, cannot happen: the shadow is convex,
    # and a convex figure holding half of a square holds its centre.)
    g = ag.Grid(21, 21)
    shape = ag.Cone(30, 45, pitch=30)
    share = shares(cone_mesh(ConeKind.TRIANGLE, 6.0, 45.0, 30.0), (10.0, 10.0), np.array(10.0), np.array(10.0),
                   np.array(1.0), np.array(2.0))
    assert float(share) == pytest.approx(0.4198, abs=1e-4)
    imp, grounded = ag.Token(10, 10, name="imp", elevation=5), ag.Token(10, 10, name="imp")
    centre_rules = resolve_rules("sw5e").replace(inclusion="center")
    assert [r.token.name for r in ag.area(shape, at=(10, 10), on=g, rules=centre_rules).tokens([imp])] == ["imp"]
    assert ag.area(shape, at=(10, 10), on=g, rules="sw5e").tokens([imp]) == []
    # On the ground (0..5 ft) the cone shades more of the square: the imp is in.
    assert [r.token.name for r in ag.area(shape, at=(10, 10), on=g, rules="sw5e").tokens([grounded])] == ["imp"]
