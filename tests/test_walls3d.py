"""Issue 20: walls with a span of heights, floors, and line of effect in three dimensions."""

import dataclasses
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import shapely
from hypothesis import example, given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.board.heights import blocked
from aoegrid.effects.result import sample_heights

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
    assert sample_heights(0, 0, 8).tolist() == [0, 8, 1, 2, 3, 4, 5, 6, 7]  # each height once


def test_wall_ends_follow_the_2d_tie_rules_at_every_height():
    # From (8, 8) along the diagonal through (9, 9), at the ground and climbing to 20 ft (8 ft there).
    p = np.array([[8.0, 8.0, 0.0]] * 3)
    q = np.array([[10.5, 10.5, 0.0], [10.5, 10.5, 20.0], [10.5, 10.4, 0.0]])
    free = ag.Wall((9, 9), (10, 9), top=15)
    assert blocked(p, q, [free]).tolist() == [False, False, True]  # a free end grazed passes
    assert blocked(p, q, [free, ag.Wall((9, 9), (9, 10), top=15)]).tolist() == [True, True, True]  # a joined corner
    assert blocked(p, q, [free, ag.Wall((9, 9), (9, 10), top=5)]).tolist() == [True, False, True]  # joined below 5 ft
    assert blocked(p, q, [free, ag.Wall((9, 9), (10, 9.5), top=15)]).tolist() == [False, False, True]  # one side only


def test_a_creature_seen_past_a_short_walls_free_end_is_reached_as_past_a_full_ones():
    # Seen from (8, 8) only past the end (9, 9) of a 15-ft wall, under a 10-ft one from (9, 9.2):
    # the end blocked every test point, so raising the wall to full height revealed the creature.
    ground = ag.Token(10, 10, name="ground")
    for top in (15, math.inf):
        m = ag.BattleMap(ag.Grid(16, 16), walls=[ag.Wall((9, 9), (10, 9), top=top), ag.Wall((9, 9.2), (9, 11), top=10)],
                         tokens=[ground])
        a = ag.area(ag.Sphere(20), at=(8, 8), on=m)
        assert [(r.token.name, r.cover_name) for r in a.tokens()] == [("ground", "cover")]
        assert a.mask[10, 10] and a.at(0)[10, 10]


def test_a_starfinder_cylinder_ignores_walls_of_every_span_not_floors():
    deep = ag.Token(15, 8, name="deep", elevation=-20)  # the cylinder drops 20 ft from its circle
    low = ag.Wall((14.5, 0), (14.5, 16), top=-12)
    full = dataclasses.replace(low, top=math.inf)
    corner = ag.Floor([(0, 0), (2, 0), (2, 2), (0, 2)], -10)  # a floor within its heights, far from the creature

    def reach(walls, floors):
        m = ag.BattleMap(ag.Grid(16, 16), walls=walls, floors=floors, tokens=[deep])
        a = ag.area(ag.Cylinder(40, 20), at=(8, 8), on=m)
        return [r.token.name for r in a.tokens()], bool(a.mask[8, 15]), bool(a.at(-20)[8, 15])

    assert reach([full], []) == reach([low], []) == reach([full], [corner]) == (["deep"], True, True)
    assert reach([], [ag.Floor(shapely.box(0, 0, 16, 16), -10)]) == ([], True, False)


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


def ignores_walls(shape_area):
    return isinstance(shape_area.shape, ag.Cylinder) and shape_area.rules.cylinder_ignores_walls


def exactly_clear(p, q, walls, floors):
    """Whether the segment ``p -> q`` (exact rationals) is blocked by none of ``walls`` (two-way) or ``floors``.

    The documented rules, wall by wall in exact arithmetic (independent of :mod:`aoegrid.board.heights`): a
    proper crossing at a height the wall spans blocks, and so does passing, strictly inside the
    segment, through an end shared by walls spanning its height there whose other ends lie on both
    sides of it; a floor blocks where the segment crosses its plane strictly inside the polygon.
    """
    (px, py, pz), (qx, qy, qz) = p, q
    dx, dy, dz = qx - px, qy - py, qz - pz

    def side(x, y):  # of the segment, seen from above
        c = dx * (y - py) - dy * (x - px)
        return (c > 0) - (c < 0)

    corners = {}  # an end the segment passes strictly inside it -> the sides its walls' other ends lie on
    for w in walls:
        (ax, ay), (bx, by) = map(Fraction, w.start), map(Fraction, w.end)
        sa, sb = side(ax, ay), side(bx, by)
        ex, ey = bx - ax, by - ay
        if sa * sb < 0 and (ex * (py - ay) - ey * (px - ax)) * (ex * (qy - ay) - ey * (qx - ax)) < 0:
            t = ((ax - px) * ey - (ay - py) * ex) / (dx * ey - dy * ex)
            if w.bottom <= pz + t * dz <= w.top:
                return False
        for (x, y), other in (((ax, ay), sb), ((bx, by), sa)):
            if side(x, y) == 0 and other != 0 and (dx, dy) != (0, 0):
                t = ((x - px) * dx + (y - py) * dy) / (dx * dx + dy * dy)
                if 0 < t < 1 and w.bottom <= pz + t * dz <= w.top:
                    corners.setdefault((x, y), set()).add(other)
    if any(len(sides) == 2 for sides in corners.values()):
        return False
    for f in floors:
        e = Fraction(f.elevation)
        if (pz - e) * (qz - e) < 0:
            t = (e - pz) / dz
            if f.polygon.contains(shapely.Point(float(px + t * dx), float(py + t * dy))):
                return False
    return True


def by_test_points(shape_area, bmap, token):
    """Whether the area reaches the creature, by the README's definition, in exact arithmetic: with
    walls spanning the solid's heights and no floor within them, when a square of its space in the
    mask has a column meeting its prism; else when, per such square, a test point (the centre and
    the corners 0.01 inward, at the prism's bottom, middle and top clipped to the solid's heights)
    inside the solid has a clear segment from the origin (a point here) at the origin's height."""
    (ox, oy), z0 = shape_area.origin, Fraction(shape_area.elevation)
    low, high = token.prism(5.0)
    lo, hi = shape_area.vertical_extent()
    walls = () if ignores_walls(shape_area) else bmap.walls
    assert all(w.one_way is None for w in walls)
    in_3d = any(not (w.bottom <= lo and w.top >= hi) for w in walls) or any(lo < f.elevation < hi for f in bmap.floors)
    g = shape_area.grid
    nudge = Fraction(1, 100)
    offsets = [(Fraction(1, 2), Fraction(1, 2)), *itertools.product((nudge, 1 - nudge), repeat=2)]
    zs = [min(max(Fraction(z), Fraction(lo)), Fraction(hi)) for z in (low, (low + high) / 2, high)]
    for x, y in token.space.squares:
        if not (0 <= x < g.width and 0 <= y < g.height and shape_area.mask[y, x] and shape_area.column_meets(x, y, low, high)):
            continue
        if not in_3d:
            return True
        for (fx, fy), z in itertools.product(offsets, zs):
            if shape_area.column_meets(x, y, float(z), float(z)) and exactly_clear(
                    (Fraction(ox), Fraction(oy), z0), (x + fx, y + fy, z), walls, bmap.floors):
                return True
    return False


def dense(shape_area, bmap, token):
    """A dense sampler: over each square of the creature's space in the mask, points at two resolutions
    (the centres of its eighths; every sixteenth from 0.01 to 0.99), at every foot of the prism and
    every quarter of it within the solid's heights (and those heights' ends within the prism), kept
    where the solid is. Returns whether some kept point is reached, and whether the kept points agree
    (all reached or none): the documented test points are among them, so the answer must then match."""
    (ox, oy), z0 = shape_area.origin, shape_area.elevation
    low, high = token.prism(5.0)
    lo, hi = shape_area.vertical_extent()
    offsets = np.union1d(np.arange(1, 16, 2) / 16, np.linspace(0.01, 0.99, 17))
    zs = np.union1d(np.arange(low, high + 1e-9, 1.0), np.linspace(low, high, 5))
    zs = np.union1d(zs[(zs >= lo) & (zs <= hi)], [z for z in (lo, hi) if low <= z <= high])
    g = shape_area.grid
    squares = [(x, y) for x, y in token.space.squares if 0 <= x < g.width and 0 <= y < g.height and shape_area.mask[y, x]]
    if not squares:
        return False, True
    sq = np.array(squares, dtype=np.float64)
    S, FX, FY, Z = np.meshgrid(np.arange(len(sq)), offsets, offsets, zs, indexing="ij")
    X, Y, Z = sq[S.ravel(), 0] + FX.ravel(), sq[S.ravel(), 1] + FY.ravel(), Z.ravel()
    held = shape_area.column_meets(np.floor(X), np.floor(Y), Z, Z)
    if not held.any():
        return False, True
    q = np.column_stack([X[held], Y[held], Z[held]])
    p = np.broadcast_to(np.array([ox, oy, z0]), q.shape)
    clear = ~blocked(p, q, () if ignores_walls(shape_area) else bmap.walls, bmap.floors)
    return bool(clear.any()), bool(clear.all() or not clear.any())


def voxel_case(seed, shape, elevation, rules):
    walls, tokens = random_map(seed, finite=True)
    rng = np.random.default_rng(seed + 1)
    hole = shapely.box(*rng.integers(2, 7, 2), *rng.integers(9, 14, 2))
    floors = [ag.Floor(shapely.box(0, 0, 16, 16).difference(hole), 12.5)]
    m = ag.BattleMap(ag.Grid(16, 16), walls=walls, tokens=tokens, floors=floors)
    return m, ag.area(shape, at=(8, 8), on=m, elevation=elevation, rules=rules)


#: Origins on the ground, between the walls' tops, above every wall; a cylinder that ignores walls and drops
#: (Starfinder) and one that obeys them and rises (SW5e).
#: With cones and lines aimed up and down (their solids' own tests: tests/test_heights.py, tests/test_solids.py).
PITCHED = [ag.Cone(30, "E", pitch=30), ag.Cone(20, 200, pitch=-40), ag.Line(40, "NE", pitch=20, width=5),
           ag.Line(30, 100, pitch=-15)]
VOXEL_CASES = (st.integers(0, 10_000), st.sampled_from(SHAPES + PITCHED), st.sampled_from([0.0, 7.5, 20.0]),
               st.sampled_from(["starfinder", "sw5e"]))


@lenient
@settings(max_examples=30, deadline=None)
@given(*VOXEL_CASES)
# A ground creature seen only past the free end of a 15-ft wall: the end blocked every test point.
@example(1999, SHAPES[0], 0.0, "starfinder")
# A Starfinder cylinder behind a wall it ignores.
@example(19, SHAPES[2], 0.0, "starfinder")
def test_reach_is_exactly_the_documented_test_points(seed, shape, elevation, rules):
    m, a = voxel_case(seed, shape, elevation, rules)
    got = {r.token.name for r in a.tokens()}
    assert {t.name for t in m.tokens if by_test_points(a, m, t)} == got


@lenient
@settings(max_examples=30, deadline=None)
@given(*VOXEL_CASES)
@example(1999, SHAPES[0], 0.0, "starfinder")
@example(19, SHAPES[2], 0.0, "starfinder")
def test_reach_agrees_with_a_dense_sampler_where_it_is_unanimous(seed, shape, elevation, rules):
    m, a = voxel_case(seed, shape, elevation, rules)
    got = {r.token.name for r in a.tokens()}
    answers = {t.name: dense(a, m, t) for t in m.tokens}
    # A creature only partly reached may be reached only between the test points: that is
    # the test above's; here only those the sampler finds wholly reached or wholly shadowed.
    assert {n for n, (_, whole) in answers.items() if whole} & got == {n for n, (hit, whole) in answers.items() if hit and whole}


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


def test_visible_and_cover_see_a_low_wall_as_the_mask_does():
    # The 5-ft wall at x = 8 hides the ground behind it; the burst's upper part passes over it.
    m = ag.BattleMap(GRID, walls=[ag.Wall((8, 0), (8, 20), top=5)])
    a = ag.area(ag.Sphere(30), at=(5, 10), on=m)
    row = a.visible[10, 2:12]
    assert row[:6].tolist() == [1.0] * 6  # before the wall: the plane's exact answer
    # Behind it: the share of each square's test points inside the ball that the origin reaches. The
    # ball holds the column of (8, 10) at 5 of the sampled heights (-15 to 15 ft): its 5 points at 7.5
    # and at 15 ft clear the wall, 10 of 25. At (9, 10), 7.5 ft up, only the two corners nearest the
    # wall clear it (a line to the centre meets it at 22.5 * 3 / 4.5 = 5 ft: its top blocks): 7 of 25.
    # (10, 10) is in the ball only at the origin's height, all behind the wall.
    assert row[6] == pytest.approx(10 / 25) and row[7] == pytest.approx(7 / 25) and row[8] == 0.0
    assert a.mask[10, 2:12].tolist() == [True] * 8 + [False] * 2
    assert a.cover[10, 2:12].tolist() == [0] * 6 + [1, 1, 3, -1]  # Starfinder: partly reached is cover
    assert (a.sight_visible[10, 2:12][:9] == row[:9]).all()  # the wall blocks sight as it blocks effect
    # 5e counts every diagonal 5 ft: (10, 10) is in the ball; some height sees all four corners of each.
    b = ag.area(ag.Sphere(30), at=(5, 10), on=m, rules="sw5e")
    assert b.cover[10, 2:12].tolist() == [0] * 9 + [-1] and b.visible[10, 10] == pytest.approx(5 / 25)
    # A wall of every height: the plane's answer, whole squares of nothing.
    tall = ag.area(ag.Sphere(30), at=(5, 10), on=ag.BattleMap(GRID, walls=[ag.Wall((8, 0), (8, 20))]))
    assert tall.visible[10, 8:11].tolist() == [0.0, 0.0, 0.0]


def visible_reference(a, m):
    """The documented visible fractions, independently: the plane's exact fractions (walls spanning the
    solid's heights), replaced where a line from the origin to a test point inside the solid crosses a
    shorter wall (seen from above) or is cut by a floor, by the share of those points reached (exact
    rationals), or the level answer (every wall infinitely tall) when that is more."""
    lo, hi = a.vertical_extent()
    full = [dataclasses.replace(w, bottom=-math.inf, top=math.inf) for w in m.walls if w.bottom <= lo and w.top >= hi]
    short = [w for w in m.walls if not (w.bottom <= lo and w.top >= hi) and w.bottom <= hi and w.top >= lo]
    floors = [f for f in m.floors if lo < f.elevation < hi]
    at, rules, z0 = a.origin, a.rules, a.elevation
    plane = ag.area(a.shape, at=at, on=ag.BattleMap(m.grid, walls=full), rules=rules, elevation=z0).visible
    level = ag.area(a.shape, at=at, on=ag.BattleMap(m.grid, walls=[dataclasses.replace(w, bottom=-math.inf, top=math.inf)
                                                                    for w in m.walls]), rules=rules, elevation=z0).visible
    out = plane.copy()
    if (not short and not floors) or ignores_walls(a):  # a cylinder that ignores walls: the plane's fractions
        return out
    nudge = Fraction(1, 100)
    offsets = [(Fraction(1, 2), Fraction(1, 2)), *itertools.product((nudge, 1 - nudge), repeat=2)]
    p = (Fraction(at[0]), Fraction(at[1]), Fraction(z0))
    for y, x in zip(*np.nonzero(plane > 1e-9)):
        held = hit = reached = 0
        zs = list(sample_heights(z0, lo, hi))
        if a.shape.pitch if isinstance(a.shape, (ag.Cone, ag.Line)) else False:
            # Aimed up or down: the axis's height over each test point too.
            u = (math.cos(math.radians(a.shape.direction)), math.sin(math.radians(a.shape.direction)))
            rise = math.tan(math.radians(a.shape.pitch)) * 5.0
            zs += [min(max(z0 + max((x + float(fx) - at[0]) * u[0] + (y + float(fy) - at[1]) * u[1], 0.0) * rise, lo),
                       hi) for fx, fy in offsets]
        for z in zs:
            if not a.column_meets(x, y, z, z):
                continue
            for fx, fy in offsets:
                q = (x + fx, y + fy, Fraction(z))
                held += 1
                reached += exactly_clear(p, q, [*full, *short], floors)
                hit += not exactly_clear(p, q, [dataclasses.replace(w, bottom=-math.inf, top=math.inf) for w in short], floors)
        flat = 0.0 if np.isnan(level[y, x]) else level[y, x]
        if hit:
            out[y, x] = max(reached / held, flat)
        elif not held:
            out[y, x] = flat
    return out


@lenient
@settings(max_examples=10, deadline=None)
@given(*VOXEL_CASES)
@example(1999, SHAPES[0], 0.0, "starfinder")
def test_visible_is_the_documented_fraction_and_the_mask_where_it_is_above_zero(seed, shape, elevation, rules):
    m, a = voxel_case(seed, shape, elevation, rules)
    want = visible_reference(a, m)
    got = a.visible
    assert np.allclose(np.nan_to_num(got, nan=-1), np.nan_to_num(want, nan=-1), atol=1e-9)
    assert ((a.cover == 3) == (a.shape_mask & (np.nan_to_num(got) <= 1e-9))).all()
    # A Starfinder cylinder holds every square of its shape, whatever reaches them.
    assert (a.mask == (a.shape_mask if ignores_walls(a) else a.shape_mask & (np.nan_to_num(got) > 1e-9))).all()


def test_a_line_stops_at_the_first_wall_or_floor_its_axis_enters():
    grid = ag.Grid(20, 10)
    m = ag.BattleMap(grid, walls=[ag.Wall((6, 0), (6, 10), top=5)])  # a 5-ft wall 4 squares east

    def xs(shape, on=m, elevation=0.0):
        a = ag.area(shape, at=(2, 5), on=on, elevation=elevation)  # Starfinder: a line stops at a wall
        return [x for x, _ in a.squares], a.recipe.stop

    east = ag.Line(60, "E")
    assert xs(east) == ([2, 3, 4, 5], 4.0)  # on the ground the wall stops it
    assert xs(east, elevation=5) == ([2, 3, 4, 5], 4.0)  # at its top: the span is closed
    assert xs(east, elevation=10)[0] == list(range(2, 14))  # over it, as in open field
    assert xs(east, on=ag.BattleMap(grid))[0] == list(range(2, 14))
    # Aimed 10 degrees up its axis is 4 * 5 * tan 10 = 3.5 ft up at the wall: stopped there, 4 / cos 10 along it.
    low, stop = xs(ag.Line(60, "E", pitch=10))
    assert low == [2, 3, 4, 5] and stop == pytest.approx(4 / math.cos(math.radians(10)))
    # 30 degrees up it is 11.5 ft up at the wall and goes on as in open field.
    assert xs(ag.Line(60, "E", pitch=30))[0] == xs(ag.Line(60, "E", pitch=30), on=ag.BattleMap(grid))[0] == list(range(2, 12))
    # A ceiling 15 ft up stops it where its axis reaches 15 ft: 6 squares along (6 * sin 30 * 5 ft).
    ceiling = ag.BattleMap(grid, floors=[ag.Floor([(0, 0), (20, 0), (20, 10), (0, 10)], 15)])
    cut, stop = xs(ag.Line(60, "E", pitch=30), on=ceiling)
    assert cut == [2, 3, 4, 5, 6, 7] and stop == pytest.approx(6)
    # Straight up it stops 3 squares along: its column holds it up to the ceiling, no higher.
    up = ag.area(ag.Line(60, "E", pitch=90), at=(2, 5), on=ceiling)
    assert up.recipe.stop == pytest.approx(3) and [int(up.at(h).sum()) for h in (1, 10, 14.9, 15.1, 30)] == [4, 4, 4, 0, 0]
    # Rules whose lines go through walls (5e): no stop, cut by line of effect as any area.
    assert ag.area(east, at=(2, 5), on=m, rules="sw5e").recipe.stop == math.inf


def test_sw5e_near_side_in_three_dimensions():
    # "If you choose a point behind an obstruction, the point of origin comes into being on the near side."
    m = ag.BattleMap(ag.Grid(12, 10), walls=[ag.Wall((4, 0), (4, 10), top=4)])  # a 4-ft parapet
    ground, balcony = ag.Token(1, 4, name="ground"), ag.Token(1, 4, name="balcony", elevation=20)
    kw = {"on": m, "rules": "sw5e", "range": 60}
    # From 20 ft up the caster sees the ground behind the parapet: the point stays.
    assert ag.check_origin(ag.Sphere(10), (8, 5), caster=balcony, **kw).origin == (8.0, 5.0)
    assert ag.area(ag.Sphere(10), at=(8, 5), caster=balcony, **kw).recipe.origin.x0 == 8.0
    # From the ground (eyes up to 5 ft) every line meets the parapet below 4 ft: the point moves to its near side,
    # along the line from the caster's centre (1.5, 4.5), and keeps its height.
    near = ag.check_origin(ag.Sphere(10), (8, 5), caster=ground, **kw).origin
    assert near == pytest.approx((4 - 1e-6, 4.5 + 0.5 * 2.5 / 6.5), abs=1e-5)
    o = ag.legal_origins(ag.Sphere(10), caster=ground, **kw)
    assert o.moved_to[10, 16] == pytest.approx(near)  # the lattice has a point every half square
    assert ag.legal_origins(ag.Sphere(10), caster=balcony, **kw).moved_to[10, 16].tolist() == [8.0, 5.0]
    assert ag.area(ag.Sphere(10), at=(8, 5), caster=ground, **kw).recipe.origin.x0 == pytest.approx(near[0])
    # A point 10 ft up is seen over the parapet; one 2 ft up is hidden, and moves short of the parapet, standing there.
    assert ag.check_origin(ag.Sphere(10), (8, 5), caster=ground, elevation=10, **kw).origin == (8.0, 5.0)
    assert ag.check_origin(ag.Sphere(10), (8, 5), caster=ground, elevation=2, **kw).origin == pytest.approx(near)
    # At 6 ft the parapet is below the point: hidden from the ground's lower lines only; a line from the caster's
    # top clears it, so the point stays.
    assert ag.check_origin(ag.Sphere(10), (8, 5), caster=ground, elevation=6, **kw).origin == (8.0, 5.0)
