"""Walls hide, never reveal; what they leave is exact at its ends (issue 17).

Random maps with every kind of wall, on an eighth-square lattice so that
ends, crossings, collinear pieces and grid corners coincide often: a map with
one wall more reaches no square more than the map without it, for line of
effect, line of sight and every area of every preset; and every visible
fraction is exactly 0, exactly 1 or more than EPS from both.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.geometry.regions import EPS

#: Fractions may differ by rounding, no more.
TOL = 1e-9
#: What a wall can be: every kind and state the Wall API has, and what a plain
#: wall can block alone.
OPTIONS = [
    {},
    {"blocks": {"effect"}},
    {"blocks": {"sight"}},
    {"blocks": {"movement"}},
    {"kind": "door"},
    {"kind": "door", "open": True},
    {"kind": "window"},
    {"kind": "window", "open": True},
]
PRESETS = ["starfinder", "pf2e", "sw5e", "savage-worlds"]


def lattice(lo, hi):
    """Coordinates in ``[lo, hi]``: whole squares (grid lines) often, else eighths."""
    return st.integers(lo, hi).map(float) | st.integers(8 * lo, 8 * hi).map(lambda v: v / 8)


def off(hi):
    """Coordinates in ``[0, hi)`` on no line of the lattice."""
    return st.integers(0, hi - 1).map(lambda v: v + 0.37)


@st.composite
def walls(draw, width, height, others):
    """One wall of any kind: anywhere on the lattice (often reaching past the map's margin,
    where it is cut off the lattice), along another wall's line (a copy, a reversed copy, an
    overlapping or touching piece), through another's end or a point inside it, or through a
    grid corner."""
    options = dict(draw(st.sampled_from(OPTIONS)))
    options["one_way"] = draw(st.sampled_from([None, "left", "right"]))
    # Walls along and through others most often: that is where ties are.
    how = draw(st.sampled_from(["free", "along", "along", "through", "through", "corner"] if others else ["free", "corner"]))
    if how == "free":
        start = (draw(lattice(-4, width + 4)), draw(lattice(-4, height + 4)))
        end = (draw(lattice(-4, width + 4)), draw(lattice(-4, height + 4)))
    elif how == "along":
        w = draw(st.sampled_from(others))
        (ax, ay), (bx, by) = w.start, w.end
        t0, t1 = draw(st.lists(st.integers(-8, 16).map(lambda v: v / 8), min_size=2, max_size=2, unique=True))
        start, end = (ax + t0 * (bx - ax), ay + t0 * (by - ay)), (ax + t1 * (bx - ax), ay + t1 * (by - ay))
    else:
        if how == "through":
            w = draw(st.sampled_from(others))
            t = draw(st.sampled_from([0.0, 1.0]) | st.integers(1, 7).map(lambda v: v / 8))
            cx, cy = w.start[0] + t * (w.end[0] - w.start[0]), w.start[1] + t * (w.end[1] - w.start[1])
        else:
            cx, cy = draw(st.integers(0, width)), draw(st.integers(0, height))
        dx, dy = draw(st.tuples(st.integers(-3, 3), st.integers(-3, 3)).filter(lambda d: d != (0, 0)))
        k0, k1 = draw(st.lists(st.integers(-8, 8), min_size=2, max_size=2, unique=True))
        start, end = (cx + k0 * dx / 2, cy + k0 * dy / 2), (cx + k1 * dx / 2, cy + k1 * dy / 2)
    return ag.Wall(start, end, **options)


@st.composite
def shapes(draw, inches):
    """A shape of each kind, in inches for Savage Worlds, else in feet."""
    kind = draw(st.sampled_from(["sphere", "cylinder", "cone", "line", "cube"]))
    direction = draw(st.integers(0, 15)) * 22.5
    if inches:
        size = float(draw(st.integers(1, 6)))
        if kind in ("sphere", "cylinder"):
            return ag.Sphere(size, units="in")
        if kind == "cone":
            return ag.savage_worlds.CONE.replace(direction=direction)
        return ag.savage_worlds.STREAM.replace(length=size * 2, direction=direction)
    size = 5.0 * draw(st.integers(1, 6))
    if kind == "sphere":
        return ag.Sphere(size)
    if kind == "cylinder":
        return ag.Cylinder(size, 20)
    if kind == "cone":
        return ag.Cone(size, direction)
    if kind == "line":
        return ag.Line(size, direction, width=draw(st.sampled_from([None, 5.0, 10.0])))
    return ag.Cube(size, direction, anchor=draw(st.sampled_from(["center", "left", "right"])))


@st.composite
def cases(draw):
    """A map's grid and walls, the same walls with one more (anywhere in the list), an
    origin (a point, or a creature's space), a preset, a shape and a mode."""
    preset = draw(st.sampled_from(PRESETS))
    inches = preset == "savage-worlds"
    width, height = draw(st.integers(3, 9)), draw(st.integers(3, 9))
    grid = ag.Grid(width, height, units="in" if inches else "ft")
    before = []
    for _ in range(draw(st.integers(0, 8))):
        before.append(draw(walls(width, height, before)))
    at = draw(st.integers(0, len(before)))
    after = [*before[:at], draw(walls(width, height, before)), *before[at:]]
    if draw(st.integers(0, 4)) == 0:
        origin = ag.Space(draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)))
    elif ag.Rules.preset(preset).origin is ag.OriginPoint.INTERSECTION:
        origin = (float(draw(st.integers(0, width))), float(draw(st.integers(0, height))))
    else:
        # On the lattice (on walls' lines and at their ends), or off it.
        origin = (draw(lattice(0, width) | off(width)), draw(lattice(0, height) | off(height)))
    mode = draw(st.sampled_from(["burst", "emanation", "spread"]))
    return grid, before, after, origin, preset, draw(shapes(inches)), mode


def reached(grid, walls, origin, preset, shape, mode):
    """What a map lets the origin reach: line of effect and of sight (from a space's centre),
    and an area's squares, visible fractions (0 off its shape) and cover grades (-1 off its
    shape); None when the origin lies inside a wall."""
    m = ag.BattleMap(grid, walls)
    point = origin.center if isinstance(origin, ag.Space) else origin
    try:
        a = ag.area(shape, at=origin, on=m, rules=preset, mode=mode)
        return {
            "line_of_effect": ag.line_of_effect(m, point),
            "line_of_sight": ag.line_of_effect(m, point, channel="sight"),
            "mask": a.mask,
            "visible": np.nan_to_num(a.visible, nan=0.0),
            "sight_visible": np.nan_to_num(a.sight_visible, nan=0.0),
            "cover": a.cover,
            "sight_cover": a.sight_cover,
        }
    except ag.OriginOnWallError:
        return None


# --- adding a wall never reveals anything --------------------------------------------------

GRID = ag.Grid(11, 6)
#: The issue's map: a one-way wall, and a two-way wall lying along part of it.
SLOPE, POST = ag.Wall((-1, 2), (14, 7)), ag.Wall((0, 0), (0, 1))
ONE_WAY, TWO_WAY = ag.Wall((3, 3), (1, 3), one_way="left"), ag.Wall((2, 3), (1, 3))


@pytest.mark.parametrize("walls", [[], [ONE_WAY], [TWO_WAY], [ONE_WAY, TWO_WAY], [TWO_WAY, ONE_WAY]])
def test_a_two_way_wall_along_a_one_way_wall_reveals_nothing(walls):
    # Square (2, 3) lies under the slope from (2, 3) to (3, 3.33): a sixth of it is behind it.
    # The walls along y = 3 bound the square's top, hiding nothing more; together they were
    # cut apart where the slope crosses (1.9999999999999996, 3), and showed 0.9017.
    m = ag.BattleMap(GRID, [SLOPE, POST, *walls])
    assert ag.line_of_effect(m, (0.37, 3.61))[3, 2] == pytest.approx(5 / 6, abs=1e-12)


def _found(grid, before, added, origin, preset, shape):
    """A case the property found: ``added`` put first."""
    return grid, before, [added, *before], origin, preset, shape, "burst"


W = ag.Wall


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
@example((GRID, [SLOPE, POST, ONE_WAY], [SLOPE, POST, ONE_WAY, TWO_WAY], (0.37, 3.61), "sw5e", ag.Sphere(20), "burst"))
# Two-way walls along one-way ones: the first grew squares (1, 2) and (2, 2) into the burst,
# the second square (0, 2) in line of effect.
@example(_found(
    ag.Grid(6, 8),
    [W((2, 1), (0, 2), one_way="left"), W((2, 1), (2, 1.5)), W((1, 1), (5.625, 10)), W((1.75, 1.125), (-1, 2.5)),
     W((2, 1), (2, 1.5))],
    W((2, 1), (1.5, 1.25)), (0.0, 0.0), "starfinder", ag.Sphere(20)))
@example(_found(
    ag.Grid(3, 3), [W((1, 2), (0, 2), one_way="left"), W((1, 2), (1, 2.5)), W((1, 5.875), (0, 1))],
    W((1, 2), (-0.125, 2)), (0.0, 3.0), "starfinder", ag.Sphere(5)))
def test_adding_a_wall_never_reveals_anything(case):
    grid, before, after, origin, preset, shape, mode = case
    want, got = reached(grid, before, origin, preset, shape, mode), reached(grid, after, origin, preset, shape, mode)
    if want is None or got is None:
        return  # an origin inside a wall has no answer to compare
    for name, more in want.items():
        less = got[name]
        if name == "mask":
            assert not (less & ~more).any(), f"{name}: squares (y, x) {np.argwhere(less & ~more).tolist()} appeared"
        elif "cover" in name:
            # Graded where the shape holds the square both times (a line stopping at the wall is shorter).
            lost = (less < more) & (less >= 0)
            assert not lost.any(), f"{name}: squares (y, x) {np.argwhere(lost).tolist()} lost cover"
        else:
            grew = less > more + TOL
            assert not grew.any(), f"{name}: squares (y, x) {np.argwhere(grew).tolist()} grew"


# --- fractions are exact at their ends -----------------------------------------------------


def test_a_square_wholly_in_shadow_reads_exactly_zero():
    m = ag.BattleMap(ag.Grid(10, 10), [ag.Wall((2, 2), (8, 2))])
    loe = ag.line_of_effect(m, (5, 5))
    # Squares (1..8, 0) lie wholly behind the wall (rounding left 2.22e-16 of each) and (9, 1)
    # wholly in view (it read 0.9999999999999998); the shadow's edges from (2, 2) and (8, 2)
    # halve squares (0, 0), (9, 0), (1, 1) and (8, 1).
    assert loe[0].tolist() == [pytest.approx(0.5), 0, 0, 0, 0, 0, 0, 0, 0, pytest.approx(0.5)]
    assert loe[1].tolist() == [1, pytest.approx(0.5), 0, 0, 0, 0, 0, 0, pytest.approx(0.5), 1]
    assert (loe[2:] == 1.0).all()
    # The burst's shape holds them; walls leave them out, as their fractions say.
    a = ag.area(ag.Sphere(30), at=(5, 5), on=m, rules="sw5e")
    assert a.shape_mask[0, 1:9].all() and len(a) == 82
    assert a.visible[0, 1:9].tolist() == [0.0] * 8 and a.sight_visible[0, 1:9].tolist() == [0.0] * 8
    assert not a.mask[0].any()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_fractions_are_exactly_zero_or_one_or_clear_of_both(case):
    grid, _, walls, origin, preset, shape, mode = case
    got = reached(grid, walls, origin, preset, shape, mode)
    if got is None:
        return
    for name in ("line_of_effect", "line_of_sight", "visible", "sight_visible"):
        f = got[name]
        near = ((f > 0) & (f <= EPS)) | ((f >= 1 - EPS) & (f < 1)) | (f < 0) | (f > 1)
        assert not near.any(), f"{name}: {f[near].tolist()} at squares (y, x) {np.argwhere(near).tolist()}"
    if mode == "burst" and isinstance(shape, ag.Sphere) and not isinstance(origin, ag.Space):
        # A burst takes the squares of its shape some line reaches: visible > 0 says which.
        shaped = ag.area(shape, at=origin, on=grid, rules=preset).mask
        assert np.array_equal(got["mask"], shaped & (got["visible"] > 0))
