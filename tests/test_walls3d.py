"""Issue 20: walls with a span of heights, floors, and line of effect in three dimensions."""

import dataclasses
import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.heights import blocked
from aoegrid.result import sample_heights

GRID = ag.Grid(20, 20)


def names(area, tokens=None):
    return sorted(r.token.name for r in area.tokens(tokens))


def test_a_low_wall_hides_the_ground_not_the_flyer():
    low = ag.Wall((8, 0), (8, 20), top=5)  # 5 ft high
    ground, flyer = ag.Token(9, 10, name="ground"), ag.Token(9, 10, name="flyer", elevation=10)
    m = ag.BattleMap(GRID, walls=[low], tokens=[ground, flyer])
    a = ag.area(ag.Sphere(30), at=(5, 10), on=m)
    assert names(a) == ["flyer"]
    assert a.mask[10, 9] and not a.at(0)[10, 9] and a.at(10)[10, 9]
    tall = ag.BattleMap(GRID, walls=[dataclasses.replace(low, top=math.inf)], tokens=[ground, flyer])
    assert names(ag.area(ag.Sphere(30), at=(5, 10), on=tall)) == []


def test_a_lintel_lets_a_ground_line_under_it():
    lintel = ag.Wall((8, 0), (8, 20), bottom=10)
    m = ag.BattleMap(GRID, walls=[lintel], tokens=[ag.Token(9, 10, name="ground")])
    a = ag.area(ag.Sphere(30), at=(5, 10), on=m)
    assert names(a) == ["ground"] and a.at(0)[10, 9]
    assert a.tokens()[0].cover_name == "none"


def test_a_floor_with_a_hole_lets_lines_through_the_hole_only():
    hole = shapely.box(9, 9, 11, 11)
    floor = ag.Floor(shapely.box(0, 0, 20, 20).difference(hole), elevation=10)
    above = ag.Token(10, 10, name="above", elevation=15)
    aside = ag.Token(13, 10, name="aside", elevation=15)
    m = ag.BattleMap(GRID, tokens=[above, aside], floors=[floor])
    a = ag.area(ag.Sphere(30), at=(10, 10), on=m)
    assert names(a) == ["above"]
    assert a.at(15)[10, 10] and not a.at(15)[10, 13] and a.at(0)[10, 13]
    assert names(ag.area(ag.Sphere(30), at=(10, 10), on=ag.BattleMap(GRID, tokens=[above, aside]))) == ["above", "aside"]


def test_segments_against_walls_and_floors():
    p = np.array([[0.0, 0.0, 0.0]] * 3)
    q = np.array([[4.0, 0.0, 0.0], [4.0, 0.0, 8.0], [4.0, 0.0, 4.0]])
    w = ag.Wall((2, -1), (2, 1), bottom=1, top=3)
    assert blocked(p, q, [w]).tolist() == [False, False, True]  # heights 0, 4, 2 at the wall
    f = ag.Floor([(0, -1), (4, -1), (4, 1), (0, 1)], 4)
    assert blocked(p, q, floors=[f]).tolist() == [False, True, False]  # ends on the plane: not crossed
    assert sample_heights(0, 0, 8).tolist() == [0, 0, 8, 1, 2, 3, 4, 5, 6, 7]


def test_bad_input_gets_one_clear_error_each():
    with pytest.raises(ag.InvalidValueError, match=r"Wall bottom must not be above its top, got bottom=10 and top=5"):
        ag.Wall((0, 0), (1, 0), bottom=10, top=5)
    with pytest.raises(ag.InvalidValueError, match=r"Wall top must be a number or an infinity, got nan"):
        ag.Wall((0, 0), (1, 0), top=float("nan"))
    with pytest.raises(ag.InvalidTypeError, match=r"Wall bottom must be a number, got '1'"):
        ag.Wall((0, 0), (1, 0), bottom="1")
    with pytest.raises(ag.InvalidValueError, match=r"Floor polygon is not valid \(Self-intersection"):
        ag.Floor([(0, 0), (2, 2), (2, 0), (0, 2)], 0)
    with pytest.raises(ag.InvalidValueError, match=r"Floor elevation must be a finite number, got inf"):
        ag.Floor([(0, 0), (2, 0), (2, 2)], math.inf)
    with pytest.raises(ag.InvalidTypeError, match=r"BattleMap floors must be aoegrid.Floor"):
        ag.BattleMap(GRID, floors=[[(0, 0), (1, 0), (1, 1)]])


def test_spans_pass_through_and_never_merge():
    assert [w.span for w in ag.walls_from([(0, 0), (2, 0), (4, 0)], bottom=1, top=3)] == [(1.0, 3.0)] * 2
    m = ag.BattleMap(GRID, walls=[ag.Wall((0, 5), (10, 5), top=5), ag.Wall((2, 5), (12, 5), top=10)])
    assert m.notes == []  # collinear, overlapping, different spans: not merged
    same = ag.BattleMap(GRID, walls=[ag.Wall((0, 5), (10, 5), top=5), ag.Wall((2, 5), (12, 5), top=5)])
    assert same.notes == ["1 duplicate or overlapping wall merged"]
    door = ag.BattleMap(GRID, walls=[ag.Wall((0, 5), (10, 5), kind="door", top=5)], floors=[ag.Floor([(0, 0), (2, 0), (2, 2)], 1)])
    opened = door.with_door(0, True)
    assert opened.walls[0].span == (-math.inf, 5.0) and opened.floors == door.floors
    assert door.with_terrain(None).floors == door.floors


def random_map(seed, finite):
    rng = np.random.default_rng(seed)
    walls = []
    for _ in range(6):
        x, y = rng.integers(1, 15, 2)
        dx, dy = rng.integers(-5, 6, 2)
        line = shapely.LineString([(x, y), (x + dx, y + dy)])
        if (dx == 0 and dy == 0) or line.distance(shapely.Point(8, 8)) < 0.1:
            continue  # none through the origin
        top = float(rng.choice([5.0, 10.0, 15.0])) if finite else math.inf
        walls.append(ag.Wall((float(x), float(y)), (float(x + dx), float(y + dy)), top=top))
    tokens = [ag.Token(int(rng.integers(0, 16)), int(rng.integers(0, 16)), name=f"t{i}",
                       elevation=float(rng.choice([0.0, 0.0, 10.0, 20.0]))) for i in range(6)]
    return walls, tokens


SHAPES = [ag.Sphere(20), ag.Sphere(30), ag.Cylinder(20, 20)]
#: Random walls may run through random creatures: the map warns, and that is fine here.
lenient = pytest.mark.filterwarnings("ignore::aoegrid.AoegridWarning")


@lenient
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(SHAPES), st.sampled_from(["starfinder", "sw5e"]))
def test_default_spans_give_todays_answers(seed, shape, rules):
    walls, tokens = random_map(seed, finite=False)
    grid = ag.Grid(16, 16)
    m = ag.BattleMap(grid, walls=walls, tokens=tokens)
    # A floor outside every line's heights (below the solid) changes nothing either.
    lo = ag.area(shape, at=(8, 8), on=m, rules=rules).vertical_extent()[0]
    f = ag.BattleMap(grid, walls=walls, tokens=tokens, floors=[ag.Floor(shapely.box(0, 0, 16, 16), lo - 1)])
    a, b = ag.area(shape, at=(8, 8), on=m, rules=rules), ag.area(shape, at=(8, 8), on=f, rules=rules)
    assert m.full_walls(*a.vertical_extent()) is m
    assert (a.mask == b.mask).all() and (a.at(5) == b.at(5)).all()
    assert [(r.token, r.cover) for r in a.tokens()] == [(r.token, r.cover) for r in b.tokens()]


@lenient
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(SHAPES), st.sampled_from([0.0, 5.0, 20.0]))
def test_raising_a_wall_never_reveals_anything(seed, shape, height):
    walls, tokens = random_map(seed, finite=True)
    grid = ag.Grid(16, 16)
    before = ag.area(shape, at=(8, 8), on=ag.BattleMap(grid, walls=walls, tokens=tokens))
    for i in range(len(walls)):
        for top in (walls[i].top + 5, math.inf):
            raised = [*walls]
            raised[i] = dataclasses.replace(walls[i], top=top)
            after = ag.area(shape, at=(8, 8), on=ag.BattleMap(grid, walls=raised, tokens=tokens))
            assert not (after.mask & ~before.mask).any()
            assert not (after.at(height) & ~before.at(height)).any()
            assert set(names(after)) <= set(names(before))


def reference(shape_area, bmap, token, step=1 / 8, dz=1.0):
    """A voxel sampler: the creature is reached when some sample point of its prism, inside the
    solid, has a straight line from the origin blocked by no wall (at its span) or floor."""
    (ox, oy), z0 = shape_area.origin, shape_area.elevation
    low, high = token.prism(5.0)
    lo, hi = shape_area.vertical_extent()
    x0, y0, x1, y1 = token.space.bounds
    xs = np.arange(x0 + step / 2, x1, step)
    ys = np.arange(y0 + step / 2, y1, step)
    zs = np.arange(max(low, lo), min(high, hi) + 1e-9, dz)
    X, Y, Z = (a.ravel() for a in np.meshgrid(xs, ys, zs, indexing="ij"))
    sqx, sqy = np.floor(X).astype(int), np.floor(Y).astype(int)
    ok = shape_area.mask[sqy, sqx] & shape_area.column_meets(sqx, sqy, Z, Z)
    if not ok.any():
        return False
    q = np.column_stack([X[ok], Y[ok], Z[ok]])
    p = np.broadcast_to(np.array([ox, oy, z0]), q.shape)
    return bool((~blocked(p, q, bmap.walls, bmap.floors)).any())


@lenient
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(SHAPES))
def test_reach_agrees_with_a_voxel_sampler(seed, shape):
    walls, tokens = random_map(seed, finite=True)
    rng = np.random.default_rng(seed + 1)
    hole = shapely.box(*rng.integers(2, 7, 2), *rng.integers(9, 14, 2))
    floors = [ag.Floor(shapely.box(0, 0, 16, 16).difference(hole), 12.5)]
    grid = ag.Grid(16, 16)
    m = ag.BattleMap(grid, walls=walls, tokens=tokens, floors=floors)
    a = ag.area(shape, at=(8, 8), on=m)
    got = {r.token.name for r in a.tokens()}
    disagree = [t.name for t in tokens if (t.name in got) != reference(a, m, t)]
    # The answer samples 5 points x 3 heights a square, the reference 64 x 1 ft: a creature
    # reached only through a sliver the answer's points miss may differ; it must be rare.
    assert len(disagree) <= 1, disagree


def test_an_origin_inside_a_short_wall_is_refused_when_the_area_is_made() -> None:
    # A 5-ft wall through the corner a cone starts from: at the ground the corner is inside it, as with a
    # full wall (refused by ag.area, so a search skips it); 10 ft up the cone starts above it.
    m = ag.BattleMap(ag.Grid(3, 3), walls=[ag.Wall((0, 0), (0, 1.5), top=5)], tokens=[ag.Token(1, 1)])
    with pytest.raises(ag.OriginOnWallError, match=r"point of origin \(0, 1\) lies on the wall from \(0, 0\) to \(0, 1.5\)"):
        ag.area(ag.Cone(10, 90), at=ag.Token(0, 0), on=m)
    above = ag.area(ag.Cone(10, 90), at=ag.Token(0, 0), on=m, elevation=10)
    assert above.squares == [(0, 1), (0, 2)]
    assert above.tokens() == []
    best = ag.best_placements(ag.Cone(10, 0), caster=ag.Token(0, 0), on=m, hit=lambda t: True)
    assert [(p.direction, p.score) for p in best] == [(0.0, 1.0)]
