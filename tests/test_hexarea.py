"""Areas on hex grids (aoegrid.hexarea, aoegrid.board.hexcells): exact shares, the presets' counts, walls, spreads,
cover and creatures."""

import math

import numpy as np
import pytest
import shapely
from hypothesis import example, given
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.board.hexcells import HEX_AREA, disk_polygon_area, fractions, hex_polygons
from aoegrid.geometry.regions import ConvexPolygon, RoundedRect, Sector, Teardrop
from aoegrid.hexarea import HexArea, nearest_corner


def rows_of(mask):
    """A mask drawn as odd-r rows (odd rows shoved right by half a hex)."""
    return [" " * (r % 2) + " ".join(map(str, row)) for r, row in enumerate(mask.astype(int))]


def dense(grid, geom):
    """Each hex's covered fraction by shapely, for a geometry given as a (fine) polygon."""
    rows, cols = np.indices(grid.shape)
    hexes = hex_polygons(grid, cols.ravel(), rows.ravel())
    return (shapely.area(shapely.intersection(hexes, geom)) / HEX_AREA).reshape(grid.shape)


# -- exact shares --------------------------------------------------------------------------------


def test_disk_polygon_area_is_exact_for_known_cases():
    got = disk_polygon_area([shapely.box(-2, -2, 2, 2), shapely.box(0, 0, 2, 2), shapely.box(3, 3, 4, 4),
                             shapely.box(-0.5, -0.5, 0.5, 0.5), shapely.LineString([(0, 0), (1, 1)])],
                            (0.0, 0.0, 1.0))
    # A half-chord strip: the square [0, 1] x [0, 2] inside the unit disk is a quarter disk.
    assert got == pytest.approx([math.pi, math.pi / 4, 0.0, 1.0, 0.0], abs=1e-15)


def test_the_inscribed_circle_covers_pi_over_two_root_three_of_its_hex():
    g = ag.HexGrid(5, 5)
    x, y = g.center(2, 2)
    f = fractions(g, RoundedRect(x, y, x, y, 0.5), np.array([2, 1, 3]), np.array([2, 2, 2]))
    assert f[0] == pytest.approx(math.pi / (2 * math.sqrt(3)), abs=1e-15)
    assert f[1:] == pytest.approx([0.0, 0.0], abs=1e-15)  # the circle touches the neighbours


figures = st.sampled_from(["disk", "sector", "teardrop", "rounded", "triangle"])


@given(kind=figures, x=st.floats(3, 8), y=st.floats(3, 7), r=st.floats(0.3, 3.5), d=st.floats(0, 360))
@example(kind="sector", x=5.0, y=4.041451884327381, r=2.0, d=30.0)
def test_fractions_match_a_fine_polygon(kind, x, y, r, d):
    g = ag.HexGrid(12, 11)
    u = (math.cos(math.radians(d)), math.sin(math.radians(d)))
    if kind == "disk":
        fig, geom = RoundedRect(x, y, x, y, r), shapely.Point(x, y).buffer(r, quad_segs=4096)
    elif kind == "sector":
        fig = Sector(x, y, r, d, 30.0, u)
        ts = np.linspace(math.radians(d - 30), math.radians(d + 30), 8000)
        geom = shapely.Polygon([(x, y), *zip(x + r * np.cos(ts), y + r * np.sin(ts), strict=True)])
    elif kind == "teardrop":
        fig = Teardrop(x, y, 2 * r, r / 3, d)
        (cx, cy), p, q = fig._tangents()
        geom = shapely.Point(cx, cy).buffer(r / 3, quad_segs=4096) | shapely.Polygon([(x, y), p, q])
    elif kind == "rounded":
        fig = RoundedRect(x, y, x + 1.0, y + 0.5, r)
        geom = shapely.box(x, y, x + 1.0, y + 0.5).buffer(r, quad_segs=4096)
    else:
        pts = ((x, y), (x + r * u[0], y + r * u[1]), (x - r * u[1], y + r * u[0]))
        fig, geom = ConvexPolygon(pts), shapely.Polygon(pts)
    rows, cols = np.indices(g.shape)
    got = fractions(g, fig, cols, rows)
    # The fine polygon's own error (its chords) is below 1e-6 of a hex; the exact shares are not off by more.
    assert np.abs(got - dense(g, geom)).max() < 1e-6
    on_map = shapely.union_all(hex_polygons(g, cols.ravel(), rows.ravel()))
    assert got.sum() * HEX_AREA == pytest.approx((geom & on_map).area, rel=1e-6)


# -- the presets on hexes ------------------------------------------------------------------------


def test_a_5e_sphere_takes_the_hexes_it_covers_at_least_half_of():
    g = ag.HexGrid(7, 6)
    corner = g.corners(3, 2)[3]
    a = ag.area(ag.Sphere(10), at=corner, on=g, rules="5e")
    assert isinstance(a, HexArea)
    assert rows_of(a.mask) == [
        "0 0 0 0 0 0 0",
        " 0 0 1 1 0 0 0",
        "0 0 1 1 1 0 0",
        " 0 1 1 1 1 0 0",
        "0 0 1 1 1 0 0",
        " 0 0 0 0 0 0 0",
    ]
    # Every hex taken is covered at least half; every hex left out less than half.
    assert (a.coverage[a.mask] >= 0.5).all() and (a.coverage[~a.mask] < 0.5).all()
    assert a.hexes[:3] == [(2, 1), (3, 1), (2, 2)]
    assert (3, 3) in a and (0, 0) not in a and (9, 9) not in a and "x" not in a


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_a_starfinder_burst_from_a_corner_counts_hex_steps(n):
    g = ag.HexGrid(14, 14)
    a = ag.area(ag.Sphere(5 * n), at=g.corners(6, 6)[3], on=g, rules="starfinder")
    # The three hexes at the corner, then each ring round them: 3 n^2.
    assert len(a) == 3 * n * n
    assert (a.steps[a.mask] <= n).all() and a.steps[a.mask].min() == 1


@pytest.mark.parametrize("n", [1, 2, 3])
def test_an_emanation_from_a_creature_takes_the_hexes_within_n_steps_of_it(n):
    g = ag.HexGrid(13, 13)
    for rules in ("starfinder", "pf2e", "5e"):
        a = ag.area(ag.Sphere(5 * n), at=ag.Token(6, 6), on=g, rules=rules)
        assert len(a) == 1 + 3 * n * (n + 1)
        large = ag.area(ag.Sphere(5 * n), at=ag.Token(6, 6, size="large"), on=g, rules=rules)
        # Within n steps of three hexes meeting at a corner: 3 (n + 1)^2.
        assert len(large) == 3 * (n + 1) ** 2


def test_the_savage_worlds_template_takes_every_hex_it_touches():
    g = ag.HexGrid(9, 9, units="in", size=1)
    centre = g.center(4, 4)
    a = ag.area(ag.Sphere(1), at=centre, on=g, rules="savage-worlds")  # the small burst template, 2" across
    # A circle of radius one hex width about a centre reaches into the six neighbours and no further.
    assert len(a) == 7
    b = ag.area(ag.Sphere(1), at=centre, on=g, rules=ag.Rules.preset("savage-worlds").replace(inclusion="center"))
    assert len(b) == 7  # the neighbours' centres lie on the circle, which counts
    c = ag.area(ag.Sphere(0.99), at=centre, on=g, rules=ag.Rules.preset("savage-worlds").replace(inclusion="center"))
    assert c.hexes == [(4, 4)]


def test_a_cube_bisecting_a_hex_is_decided_by_the_exact_half():
    # Flat-top hexes have corners level with their centres: a cube's edge along that level cuts the hex two
    # columns on exactly in half, which 5e's rule takes.
    g = ag.HexGrid(9, 7, orientation="flat")
    x, y = g.corners(2, 2)[0]  # the right corner of hex (2, 2)
    assert g.center(4, 2)[1] == pytest.approx(y)
    a = ag.area(ag.Cube(10, "E", anchor="left"), at=(x, y), on=g, rules="5e")
    assert a.coverage[2, 4] == pytest.approx(0.5, abs=1e-12)
    assert (4, 2) in a
    b = ag.area(ag.Cube(10, "E", anchor="right"), at=(x, y), on=g, rules="5e")
    assert b.coverage[2, 4] == pytest.approx(0.5, abs=1e-12)
    assert (4, 2) in b


def test_a_starfinder_cone_is_sixty_degrees_of_hex_steps():
    g = ag.HexGrid(12, 12)
    corner = g.corners(5, 5)[3]
    # Pointed at the hex below and right of the corner: 1, 2 and 3 hexes a step.
    a = ag.area(ag.Cone(15, 30), at=corner, on=g, rules="starfinder")
    cx, cy = g.center(*np.array(a.hexes).T)
    bearing = np.degrees(np.arctan2(cy - corner[1], cx - corner[0]))
    assert (np.abs(bearing - 30) <= 30 + 1e-9).all()
    assert sorted(a.steps[a.mask].tolist()) == [1, 2, 2, 3, 3, 3]
    # Along the edge below the corner the two hexes beside it lie outside the 60 degrees (their centres
    # are 60 degrees off): the cone starts a step further on.
    b = ag.area(ag.Cone(15, 90), at=corner, on=g, rules="starfinder")
    assert sorted(b.steps[b.mask].tolist()) == [2, 3, 3]


def test_a_line_takes_the_hexes_its_path_crosses():
    g = ag.HexGrid(12, 6)
    corner = g.corners(1, 2)[2]  # lower right corner of hex (1, 2), level with the upper corners of row 3
    a = ag.area(ag.Line(30, "E"), at=corner, on=g, rules="starfinder")
    # Due east along the zigzag between rows 2 and 3: through the bottoms of row 2's hexes only.
    assert a.hexes == [(2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2)]


# -- symmetry ---------------------------------------------------------------------------------------


def hex_set(area):
    return set(area.hexes)


@given(d=st.sampled_from([0.0, 17.0, 30.0, 45.0, 90.0, 200.0]), length=st.sampled_from([10, 15, 20]),
       kind=st.sampled_from(["5e", "sw", "center"]))
def test_turning_a_cone_60_degrees_turns_its_hexes(d, length, kind):
    g = ag.HexGrid(17, 17)
    five = ag.Rules.preset("5e").replace(hex_origin="any")
    rules = {"5e": five, "sw": five.replace(inclusion="touch"), "center": five.replace(inclusion="center")}[kind]
    centre = g.center(8, 8)
    a = ag.area(ag.Cone(length, d), at=centre, on=g, rules=rules)
    b = ag.area(ag.Cone(length, (d - 60) % 360), at=centre, on=g, rules=rules)  # directions turn clockwise
    cols, rows = np.array(a.hexes).T
    turned = set(zip(*(v.tolist() for v in g.rotate((cols, rows), about=(8, 8), steps=1)), strict=True))
    assert turned == hex_set(b)


@given(d=st.sampled_from([0.0, 10.0, 30.0, 60.0, 75.0]), size=st.sampled_from([10, 15, 20]))
def test_a_cone_mirrored_left_to_right_takes_the_mirrored_hexes(d, size):
    g = ag.HexGrid(17, 17)
    centre = g.center(8, 8)
    a = ag.area(ag.Cone(size, d), at=centre, on=g, rules=ag.Rules.preset("5e").replace(hex_origin="any"))
    b = ag.area(ag.Cone(size, (180 - d) % 360), at=centre, on=g, rules=ag.Rules.preset("5e").replace(hex_origin="any"))
    q, r, s = g.to_cube(*np.array(a.hexes).T)
    cq, cr, cs = g.to_cube(8, 8)
    mirrored = g.from_cube(cq + (s - cs), cr + (r - cr), cs + (q - cq))  # left-right on pointy hexes swaps q and s
    assert set(zip(*(v.tolist() for v in mirrored), strict=True)) == hex_set(b)


@given(col=st.integers(4, 9), row=st.integers(4, 9), k=st.integers(0, 5), n=st.integers(1, 4),
       rules=st.sampled_from(["5e", "starfinder"]))
def test_a_sphere_from_a_corner_is_the_same_turned_a_third_of_a_turn(col, row, k, n, rules):
    g = ag.HexGrid(22, 22)
    corner = g.corners(col + 5, row + 5)[k]
    a = ag.area(ag.Sphere(5 * n), at=corner, on=g, rules=rules)
    # A corner is a centre of a third of a turn, no hex is: the hexes' centres at one distance from
    # the corner come in threes.
    cx, cy = g.center(*np.array(a.hexes).T)
    dist = np.round(np.hypot(cx - corner[0], cy - corner[1]), 9)
    _, counts = np.unique(dist, return_counts=True)
    assert (counts % 3 == 0).all()


# -- walls -------------------------------------------------------------------------------------------


def walled():
    g = ag.HexGrid(9, 8)
    return g, ag.BattleMap(g, walls=[ag.Wall((5.2, 0), (5.2, 5))],
                           tokens=[ag.Token(6, 3, name="orc"), ag.Token(3, 4, name="ally", size="large")])


def test_a_wall_cuts_a_burst_and_grades_cover():
    g, m = walled()
    corner = g.corners(4, 3)[3]
    open_ = ag.area(ag.Sphere(15), at=corner, on=g, rules="starfinder")
    a = ag.area(ag.Sphere(15), at=corner, on=m, rules="starfinder")
    assert len(open_) == 27 and len(a) == 18
    assert hex_set(a) <= hex_set(open_)
    assert rows_of(a.mask) == [
        "0 0 0 0 0 0 0 0 0",
        " 0 0 0 1 1 0 0 0 0",
        "0 0 0 1 1 1 0 0 0",
        " 0 0 1 1 1 0 0 0 0",
        "0 0 1 1 1 1 0 0 0",
        " 0 0 1 1 1 0 0 0 0",
        "0 0 0 1 1 1 0 0 0",
        " 0 0 0 0 0 0 0 0 0",
    ]
    # Off the shape nothing is graded; behind the wall total cover, the cut hexes partial.
    assert np.isnan(a.visible[0, 0]) and a.cover[0, 0] == -1
    assert a.cover[3, 6] == ag.Cover.TOTAL and a.visible[3, 6] == 0.0
    assert a.cover[4, 5] == ag.Cover.PARTIAL and 0 < a.visible[4, 5] < 1
    assert [(r.token.name, r.cover) for r in a.tokens()] == [("ally", ag.Cover.NONE)]


def test_5e_cover_counts_the_lines_to_six_corners():
    g = ag.HexGrid(9, 5)
    # A short wall across the line to hex (6, 2), from the corner at the left of row 2.
    m = ag.BattleMap(g, walls=[ag.Wall((5.0, 1.9), (5.0, 2.6))])
    corner = g.corners(2, 2)[4]
    a = ag.area(ag.Sphere(25), at=corner, on=m, rules="5e")
    n = 6 - int(m.visibility("effect", tuple(corner), (-1, -1, 11, 7)).sees(*g.corners(6, 2).T).sum())
    assert n in (3, 4, 5)
    assert a.cover[2, 6] == (ag.Cover.PARTIAL if n == 3 else ag.Cover.THREE_QUARTERS)


def test_a_spread_turns_the_corner_a_burst_cannot():
    g = ag.HexGrid(9, 8)
    m = ag.BattleMap(g, walls=[ag.Wall((5.2, 0), (5.2, 5))])
    corner = g.corners(4, 3)[3]
    burst = ag.area(ag.Sphere(20), at=corner, on=m, rules="starfinder")
    spread = ag.area(ag.Sphere(20), at=corner, on=m, rules="starfinder", mode="spread")
    assert hex_set(spread) - hex_set(burst) == {(5, 5), (6, 6)}
    # Round the wall's foot: three steps from the corner's first hexes, whose centres it sees.
    assert spread.path_distance[5, 5] == 15.0 and spread.path_distance[6, 6] == 15.0
    assert spread.path_distance[4, 4] == 0.0 and spread.path_distance[0, 8] == np.inf


@given(col=st.integers(2, 8), row=st.integers(2, 7), k=st.integers(0, 5), n=st.integers(1, 4),
       rules=st.sampled_from(["5e", "starfinder"]))
def test_a_spread_in_open_field_is_the_burst(col, row, k, n, rules):
    g = ag.HexGrid(11, 10)
    m = ag.BattleMap(g, walls=[ag.Wall((0, 0), (0, 0.5))])  # a wall out of the way: the map path runs
    corner = g.corners(col, row)[k]
    burst = ag.area(ag.Sphere(5 * n), at=corner, on=g, rules=rules)
    spread = ag.area(ag.Sphere(5 * n), at=corner, on=m, rules=rules, mode="spread")
    if any(g.corners(*h)[:, 0].min() < 0.6 and g.corners(*h)[:, 1].min() < 0.6 for h in burst.hexes):
        return  # the wall in the corner is in the way after all
    assert hex_set(spread) == hex_set(burst)


@given(x=st.floats(1, 8), y=st.floats(0, 7), length=st.floats(0.3, 4), angle=st.floats(0, 180),
       n=st.integers(1, 4), rules=st.sampled_from(["5e", "starfinder"]), mode=st.sampled_from(["burst", "spread"]))
def test_walls_never_reveal(x, y, length, angle, n, rules, mode):
    g = ag.HexGrid(10, 9)
    corner = g.corners(4, 4)[2]
    a = math.radians(angle)
    wall = ag.Wall((x, y), (x + length * math.cos(a), y + length * math.sin(a)))
    bare = ag.area(ag.Sphere(5 * n), at=corner, on=g, rules=rules, mode=mode)
    try:
        cut = ag.area(ag.Sphere(5 * n), at=corner, on=ag.BattleMap(g, walls=[wall]), rules=rules, mode=mode)
    except ag.OriginOnWallError:
        return
    assert hex_set(cut) <= hex_set(bare)


def test_a_starfinder_cylinder_ignores_walls_and_a_line_stops_at_the_first():
    g, m = walled()
    corner = g.corners(4, 3)[3]
    assert len(ag.area(ag.Cylinder(15, 20), at=corner, on=m, rules="starfinder")) == 27
    line = ag.area(ag.Line(30, "E"), at=corner, on=m, rules="starfinder")
    assert line.hexes == [(4, 3)] or all(g.center(c, r)[0] < 5.7 for c, r in line.hexes)
    five_e = ag.area(ag.Line(30, "E"), at=corner, on=m, rules="5e")
    assert max(c for c, _ in five_e.hexes) <= 5


# -- creatures -------------------------------------------------------------------------------------


def test_tokens_are_reached_by_any_of_their_hexes_nearest_first():
    g = ag.HexGrid(10, 10)
    m = ag.BattleMap(g, tokens=[ag.Token(4, 4, name="orc"), ag.Token(8, 8, name="imp"),
                                ag.Token(5, 6, size="large", name="ogre")])
    a = ag.area(ag.Sphere(10), at=g.corners(4, 4)[0], on=m, rules="5e")
    got = [(r.token.name, r.squares, r.distance) for r in a.tokens()]
    assert got == [("orc", ((4, 4),), 5.0)]
    b = ag.area(ag.Sphere(15), at=g.corners(4, 4)[3], on=m, rules="starfinder")
    assert [(r.token.name, r.squares, r.distance) for r in b.tokens()] == [
        ("orc", ((4, 4),), 5.0), ("ogre", ((5, 6), (4, 7), (5, 7)), 10.0)]
    assert [r.token.name for r in b.tokens(exclude=["orc"])] == ["ogre"]


def test_a_5e_cone_from_a_creature_leaves_it_out():
    g = ag.HexGrid(10, 10)
    ogre = ag.Token(4, 4, size="large", name="ogre")
    a = ag.area(ag.Cone(15, "E"), at=ogre, on=g, rules="5e")
    assert not set(ag.board.battlemap.hex_footprint(g, ogre)) & hex_set(a)
    assert math.dist(a.origin, nearest_corner(g, a.origin)) < 1e-9
    b = ag.area(ag.Cone(15, "E"), at=ogre, on=g, rules="5e", include_origin=True)
    assert hex_set(a) <= hex_set(b)


# -- errors ---------------------------------------------------------------------------------------


def test_bad_placements_are_refused_with_what_would_do():
    g = ag.HexGrid(6, 6)
    with pytest.raises(ag.InvalidValueError, match=r"hex corners .* \(2\.1, 2\.1\) is not one: the nearest is"):
        ag.area(ag.Sphere(10), at=(2.1, 2.1), on=g, rules="5e")
    with pytest.raises(ag.OffGridError, match=r"origin \(40, 2\) is off the 6 x 6 hex map"):
        ag.area(ag.Sphere(10), at=(40, 2), on=g, rules="savage-worlds".replace("savage-worlds", "5e"))
    with pytest.raises(ag.InvalidValueError, match=r"savage-worlds rules measure in 'in' but the hex grid is in 'ft'"):
        ag.area(ag.Sphere(2), at=g.center(2, 2), on=g, rules="savage-worlds")
    with pytest.raises(ag.InvalidTypeError, match="Sphere, Cylinder, Cone, Line or Cube"):
        ag.area(ag.Shapable([(0, 0)], 10), at=g.corners(2, 2)[0], on=g, rules="5e")
    with pytest.raises(ag.IllegalOriginError, match=r"\(6, 4\.33\) is 35 ft from the caster, beyond its range of 10 ft; "
                                                  r"the nearest legal origin is \(2\.5, 1\.732\)"):
        ag.area(ag.Sphere(10), at=g.corners(5, 5)[0], on=g, rules="5e", caster=ag.Token(0, 0), range=10)
    with pytest.raises(ag.InvalidValueError, match="on a hex grid, elevation= is not measured yet"):
        ag.area(ag.Sphere(10), at=g.corners(2, 2)[0], on=g, rules="5e", elevation=5)
    with pytest.raises(ag.InvalidValueError, match="is 2 x 1 squares; on a hex map a creature is a size"):
        ag.BattleMap(g, tokens=[ag.Token(1, 1, size=(2, 1), name="cart")])
    with pytest.raises(ag.InvalidValueError, match="terrain is read on square grids only"):
        ag.BattleMap(g, terrain=np.zeros((6, 6), dtype=np.int8))
    with pytest.raises(ag.InvalidValueError, match="bare HexGrid: pass tokens"):
        ag.area(ag.Sphere(10), at=g.corners(2, 2)[0], on=g, rules="5e").tokens()


def test_doors_windows_and_one_way_walls_on_hexes():
    g = ag.HexGrid(9, 6)
    corner = g.corners(2, 2)[1]
    door = ag.Wall((4.0, 0), (4.0, 6), kind="door")
    closed = ag.area(ag.Sphere(20), at=corner, on=ag.BattleMap(g, walls=[door]), rules="5e")
    opened = ag.area(ag.Sphere(20), at=corner, on=ag.BattleMap(g, walls=[door]).with_door(0, open=True), rules="5e")
    bare = ag.area(ag.Sphere(20), at=corner, on=g, rules="5e")
    assert hex_set(opened) == hex_set(bare)
    assert max(g.center(c, r)[0] for c, r in closed.hexes) < 4.0 + 0.5
    assert hex_set(closed) < hex_set(bare)
    # A window stops effects (and movement), not sight.
    window = ag.area(ag.Sphere(20), at=corner, on=ag.BattleMap(g, walls=[ag.Wall((4.0, 0), (4.0, 6), kind="window")]),
                     rules="5e")
    assert hex_set(window) == hex_set(closed)
    # One way: blocking only lines that start on its left, seen from start to end (facing south on screen,
    # the left is east): the origin, west of it, is blocked only by a wall blocking from the right.
    for side, same in (("left", True), ("right", False)):
        m = ag.BattleMap(g, walls=[ag.Wall((4.0, 0), (4.0, 6), one_way=side)])
        assert (hex_set(ag.area(ag.Sphere(20), at=corner, on=m, rules="5e")) == hex_set(bare)) is same


def test_walls_count_where_they_stand_at_the_ground():
    g = ag.HexGrid(9, 6)
    corner = g.corners(2, 2)[1]
    bare = hex_set(ag.area(ag.Sphere(20), at=corner, on=g, rules="5e"))
    parapet = ag.BattleMap(g, walls=[ag.Wall((4.0, 0), (4.0, 6), top=3)])
    beam = ag.BattleMap(g, walls=[ag.Wall((4.0, 0), (4.0, 6), bottom=8, top=10)])
    assert hex_set(ag.area(ag.Sphere(20), at=corner, on=parapet, rules="5e")) < bare
    assert hex_set(ag.area(ag.Sphere(20), at=corner, on=beam, rules="5e")) == bare


@given(col=st.integers(5, 54), row=st.integers(5, 44), k=st.integers(0, 5), n=st.integers(1, 4),
       orientation=st.sampled_from(["pointy", "flat"]), rules=st.sampled_from(["5e", "starfinder", "center"]))
@example(col=50, row=40, k=3, n=4, orientation="pointy", rules="5e")
@example(col=40, row=44, k=0, n=4, orientation="flat", rules="starfinder")
def test_an_area_is_the_same_anywhere_on_a_large_map(col, row, k, n, orientation, rules):
    """The window of hexes worked out holds the whole area wherever it lies, not just near the top-left:
    moved by an even number of staggered rows (columns) and any number of the others, it is the same."""
    g = ag.HexGrid(60, 50, orientation=orientation)
    if rules == "center":
        rules = ag.Rules.preset("5e").replace(inclusion="center")
    pointy = orientation == "pointy"
    ref = (8 + (col % 2 if not pointy else 0), 8 + (row % 2 if pointy else 0))
    far = ag.area(ag.Sphere(5 * n), at=g.corners(col, row)[k], on=g, rules=rules)
    near = ag.area(ag.Sphere(5 * n), at=g.corners(*ref)[k], on=g, rules=rules)
    dc, dr = col - ref[0], row - ref[1]
    assert hex_set(far) == {(c + dc, r + dr) for c, r in near.hexes}
