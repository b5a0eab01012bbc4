"""Invariants of areas, checked with hypothesis over shapes, sizes and presets."""

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from tests.conftest import mirrored

import aoegrid as ag

N = 24  # grid side; every origin is the centre intersection (12, 12)
GRID = ag.Grid(N, N)
INCH_GRID = ag.Grid(N, N, units="in")
FEET_PRESETS = ["starfinder", "pf2e", "sw5e"]
DIAGONALS = [d.value for d in ag.Diagonals]
INCLUSIONS = [i.value for i in ag.Inclusion]

sizes = st.integers(1, 11).map(lambda k: 5.0 * k)
directions = st.integers(0, 23).map(lambda k: 15.0 * k)


@st.composite
def shapes(draw, direction=None):
    kind = draw(st.sampled_from(["sphere", "cylinder", "cone", "line", "cube"]))
    size = draw(sizes)
    d = draw(directions) if direction is None else direction
    if kind == "sphere":
        return ag.Sphere(size)
    if kind == "cylinder":
        return ag.Cylinder(size, 20)
    if kind == "cone":
        return ag.Cone(size, d, kind=draw(st.sampled_from([None, *[k.value for k in ag.ConeKind]])))
    if kind == "line":
        return ag.Line(size, d, width=draw(st.sampled_from([None, 0.0, 5.0, 10.0])))
    return ag.Cube(size, d, anchor=draw(st.sampled_from(["center", "left", "right"])))


rules_st = st.builds(
    lambda d, i: ag.Rules(diagonals=d, inclusion=i, units="ft"),
    st.sampled_from(DIAGONALS),
    st.sampled_from(INCLUSIONS),
) | st.sampled_from(FEET_PRESETS).map(ag.Rules.preset)


def mask(shape, rules, at=(12, 12)):
    return ag.area(shape, at=at, on=GRID, rules=rules).mask


@settings(max_examples=150, deadline=None)
@given(shapes(), rules_st)
def test_quarter_turn_symmetry(shape, rules):
    """Turning the effect a quarter turn clockwise turns its squares with it."""
    base = mask(shape, rules)
    if hasattr(shape, "direction"):
        turned = mask(shape.replace(direction=(shape.direction + 90) % 360), rules)
    else:
        turned = base
    # On screen (y down) a clockwise quarter turn about (12, 12) maps square
    # (x, y) to (23 - y, x): that is np.rot90 with k=-1.
    np.testing.assert_array_equal(turned, np.rot90(base, k=-1))


@settings(max_examples=150, deadline=None)
@given(shapes(), rules_st)
def test_mirror_symmetry(shape, rules):
    """Mirroring left-right mirrors the direction (180 - d) and a line's side."""
    np.testing.assert_array_equal(mask(mirrored(shape), rules), mask(shape, rules)[:, ::-1])


@settings(max_examples=150, deadline=None)
@given(st.data(), rules_st)
def test_monotonic_growth(data, rules):
    """A bigger effect covers every square the smaller one covers."""
    small = data.draw(shapes())
    field = {ag.Sphere: "radius", ag.Cylinder: "radius", ag.Cone: "length", ag.Line: "length", ag.Cube: "size"}[type(small)]
    if isinstance(small, ag.Cube):
        assume(small.anchor is not ag.Anchor.CENTER)  # a centred face grows to both sides by half squares
    bigger = small.replace(**{field: getattr(small, field) + data.draw(sizes)})
    a, b = mask(small, rules), mask(bigger, rules)
    assert not (a & ~b).any()


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["alternating", "alternating-2", "approximate", "euclidean", "manhattan"]), sizes,
       st.sampled_from([(12, 12), (12.5, 12.5), (12, 12.5)]))
def test_inclusion_nesting_for_spheres(diagonals, radius, at):
    """far-edge within center within touch, and half within touch.

    Holds for every diagonal rule whose ball lies near enough to the circle;
    equidistant counting's square ball pokes far outside it, so it is left out.
    """
    def cover(inc):
        return ag.area(ag.Sphere(radius), at=at, on=GRID, rules=ag.Rules(diagonals=diagonals, inclusion=inc)).mask

    far, center, half, touch = (cover(i) for i in ("far-edge", "center", "half", "touch"))
    assert not (far & ~center).any()
    assert not (center & ~touch).any()
    assert not (half & ~touch).any()


@settings(max_examples=100, deadline=None)
@given(shapes(), st.sampled_from(FEET_PRESETS), st.integers(-3, 3), st.integers(-3, 3))
def test_translation(shape, preset, dx, dy):
    """Moving the origin by whole squares moves the squares, nothing else."""
    big = ag.Grid(80, 80)  # room for every drawn shape around both origins
    base = ag.area(shape, at=(36, 36), on=big, rules=preset)
    moved = ag.area(shape, at=(36 + dx, 36 + dy), on=big, rules=preset)
    assert [(x + dx, y + dy) for x, y in base.squares] == moved.squares


@settings(max_examples=100, deadline=None)
@given(shapes(), rules_st)
def test_spread_and_emanation_equal_burst_in_open_field(shape, rules):
    burst = ag.area(shape, at=(12, 12), on=GRID, rules=rules)
    for mode in ("spread", "emanation"):
        assert ag.area(shape, at=(12, 12), on=GRID, rules=rules, mode=mode) == burst


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([ag.savage_worlds.SMALL_BLAST, ag.savage_worlds.MEDIUM_BLAST, ag.savage_worlds.LARGE_BLAST]),
       st.floats(6, 18).map(lambda v: round(v, 2)), st.floats(6, 18).map(lambda v: round(v, 2)))
def test_savage_worlds_blast_anywhere_covers_its_footprint(template, x, y):
    """Touch inclusion covers every square the template's circle overlaps."""
    a = ag.area(template, at=(x, y), on=INCH_GRID, rules="savage-worlds")
    r = template.radius
    xs, ys = np.meshgrid(np.arange(N) + 0.5, np.arange(N) + 0.5)
    # Any square whose centre is under the template is touched by it.
    assert not (((xs - x) ** 2 + (ys - y) ** 2 < r * r) & ~a.mask).any()
    # No square lies wholly outside the circle's bounding box.
    assert all(x - r - 1 < sx < x + r and y - r - 1 < sy < y + r for sx, sy in a.squares)


EMPTY_MAP = ag.BattleMap(GRID)
INCH_MAP = ag.BattleMap(INCH_GRID)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from([*FEET_PRESETS, "savage-worlds"]), st.integers(1, 11),
       st.sampled_from([(12, 12), (12.5, 12.5), (12, 12.5), (0, 0), (23, 12)]))
def test_spread_equals_burst_on_an_open_map(preset, k, at):
    """The spread's path count reproduces the burst exactly where nothing is in the way."""
    rules = ag.Rules.preset(preset)
    if rules.origin is ag.OriginPoint.INTERSECTION and not (float(at[0]).is_integer() and float(at[1]).is_integer()):
        rules = rules.replace(origin="any")
    on, size = (INCH_MAP, float(k)) if preset == "savage-worlds" else (EMPTY_MAP, 5.0 * k)
    spread = ag.area(ag.Sphere(size), at=at, on=on, rules=rules, mode="spread")
    burst = ag.area(ag.Sphere(size), at=at, on=on.grid, rules=rules)
    assert spread == burst


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(FEET_PRESETS), st.sampled_from(["burst", "emanation", "spread"]))
def test_nothing_leaks_out_of_a_sealed_room(data, preset, mode):
    x0, y0 = data.draw(st.integers(1, 8)), data.draw(st.integers(1, 8))
    x1, y1 = x0 + data.draw(st.integers(2, 10)), y0 + data.draw(st.integers(2, 10))
    walls = ag.walls_from([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])
    m = ag.BattleMap(GRID, walls=walls)
    at = (data.draw(st.integers(x0 + 1, x1 - 1)), data.draw(st.integers(y0 + 1, y1 - 1)))
    shape = data.draw(shapes())
    assume(not isinstance(shape, ag.Cylinder) or preset == "sw5e")  # cylinders ignore walls elsewhere
    a = ag.area(shape, at=at, on=m, rules=preset, mode=mode)
    assert all(x0 <= x < x1 and y0 <= y < y1 for x, y in a.squares)
