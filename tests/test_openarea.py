import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.errors import InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.geometry.gridless import Gridless, OpenToken
from aoegrid.geometry.options import Inclusion
from aoegrid.geometry.rules import resolve_rules
from aoegrid.openarea import (
    OpenArea,
    _lens,
    half_reach,
    open_area,
    open_best_placements,
    reach_radius,
    rect_disk_area,
    spread_geometry,
)

TABLE = Gridless(60, 40)
INCHES = Gridless(60, 40, units="in")

#: The polygons standing for circles lose under 2e-5 of a circle's area.
CIRCLE = 2e-4


def names(area, tokens=None):
    return sorted(r.token.label for r in area.tokens(tokens))


# -- outlines ---------------------------------------------------------------------------------------


def test_sphere_is_its_circle_clipped_to_the_map():
    a = open_area(ag.Sphere(10), at=(30, 20), on=TABLE)
    assert isinstance(a, OpenArea) and a.origin == (30.0, 20.0)
    assert a.size == pytest.approx(math.pi * 100, rel=CIRCLE)
    assert a.disk is not None and (a.disk.x, a.disk.y, a.disk.r) == (30.0, 20.0, 10.0)
    assert (40, 20) in a and (39.99, 20) in a and (40.01, 20) not in a
    # At the map's corner only a quarter of it is on the map.
    corner = open_area(ag.Sphere(10), at=(0, 0), on=TABLE)
    assert corner.size == pytest.approx(math.pi * 25, rel=CIRCLE)
    assert (-1, 1) not in corner and (1, 1) in corner
    assert repr(a).startswith("<OpenArea Sphere(radius=10.0) at (30, 20), starfinder, burst, 314.")


@pytest.mark.parametrize(
    ("rules", "table", "cone", "cube", "line"),
    [
        # Starfinder: a quarter circle, a zero-width line (a segment, no area).
        ("starfinder", TABLE, math.pi * 400 / 4, 100.0, 0.0),
        # 5e: a triangle as wide at its end as it is long; a 5-ft-wide line.
        ("sw5e", TABLE, 20 * 20 / 2, 100.0, 150.0),
        # Savage Worlds, inches: the teardrop (hull of the apex and a disk of a sixth of its length); 1" lines.
        ("savage-worlds", INCHES, None, 100.0, 30.0),
    ],
)
def test_shapes_by_the_rules(rules, table, cone, cube, line):
    c = open_area(ag.Cone(20, "E"), at=(10, 20), on=table, rules=rules)
    if cone is None:
        rho, d = 20 / 6, 20 - 20 / 6
        beta = math.acos(rho / d)
        cone = rho * math.sqrt(d * d - rho * rho) + rho * rho * (math.pi - beta)
    assert c.size == pytest.approx(cone, rel=CIRCLE)
    assert open_area(ag.Cube(10, "E"), at=(10, 20), on=table, rules=rules).size == pytest.approx(cube, abs=1e-9)
    assert open_area(ag.Line(30, "E"), at=(10, 20), on=table, rules=rules).size == pytest.approx(line, abs=1e-9)


def test_cone_and_cube_points_exactly():
    q = open_area(ag.Cone(20, "S"), at=(30, 10), on=TABLE)
    # The quarter circle's straight sides are on the diagonals: on them counts as in.
    assert (40, 20) in q and (40.001, 20) not in q and (30, 30) in q and (30, 30.001) not in q
    cube = open_area(ag.Cube(10, "E", anchor="left"), at=(10, 20), on=TABLE)
    assert cube.geometry.bounds == (10.0, 20.0, 20.0, 30.0)  # its origin at its left corner: it lies to the right
    line = open_area(ag.Line(30, 45, width=4), at=(10, 10), on=TABLE, rules="sw5e")
    assert line.size == pytest.approx(120.0, abs=1e-9)
    assert (10 + 15 / math.sqrt(2), 10 + 15 / math.sqrt(2)) in line


def test_shapes_from_a_creature():
    orc = OpenToken(20, 20, name="orc")
    # 5e measures from the creature's edges: a 10-ft emanation is a disk of 12.5 ft.
    aura = open_area(ag.Sphere(10), at=orc, on=TABLE, rules="sw5e", mode="emanation")
    assert aura.disk.r == 12.5 and aura.size == pytest.approx(math.pi * 12.5**2, rel=CIRCLE)
    # Starfinder measures from its centre.
    assert open_area(ag.Sphere(10), at=orc, on=TABLE).disk.r == 10.0
    # A cone starts where its direction leaves the footprint.
    assert open_area(ag.Cone(15, "E"), at=orc, on=TABLE, rules="sw5e").origin == (22.5, 20.0)
    box = OpenToken(20, 20, footprint="rect", width=10, depth=4)
    assert open_area(ag.Cone(15, "S"), at=box, on=TABLE, rules="sw5e").origin == (20.0, 22.0)
    assert open_area(ag.Cone(15, 45), at=box, on=TABLE, rules="sw5e").origin == pytest.approx((22.0, 22.0))
    wide = open_area(ag.Sphere(5), at=box, on=TABLE, rules="sw5e")
    assert wide.disk is None and wide.size == pytest.approx(40 + 2 * 5 * 14 + math.pi * 25, rel=CIRCLE)


# -- walls ------------------------------------------------------------------------------------------


def wall_map(*walls, tokens=()):
    return ag.BattleMap(Gridless(40, 20), walls=list(walls), tokens=list(tokens))


def test_burst_is_cut_by_line_of_effect():
    m = ag.BattleMap(Gridless(30, 20), walls=[ag.Wall((20, 0), (20, 20))])
    a = open_area(ag.Sphere(10), at=(15, 10), on=m)
    # The circle less the segment beyond the chord 5 ft from its centre.
    segment = 100 * math.acos(0.5) - 5 * math.sqrt(75)
    assert a.size == pytest.approx(math.pi * 100 - segment, rel=CIRCLE)
    assert (19.9, 10) in a and (20.1, 10) not in a


def test_cylinder_ignores_walls_under_starfinder_only():
    m = ag.BattleMap(Gridless(30, 20), walls=[ag.Wall((20, 0), (20, 20))])
    assert open_area(ag.Cylinder(10, 20), at=(15, 10), on=m).size == pytest.approx(math.pi * 100, rel=CIRCLE)
    assert open_area(ag.Cylinder(10, 20), at=(15, 10), on=m, rules="sw5e").size < 260


def test_spread_goes_around_a_wall_end_by_geodesic_distance():
    m = wall_map(ag.Wall((20, 0), (20, 15)))
    burst = open_area(ag.Sphere(10), at=(15, 10), on=m)
    spread = open_area(ag.Sphere(10), at=(15, 10), on=m, mode="spread")
    # (21, 14): hidden from the origin, 7.07 + 1.41 ft around the wall's end.
    assert (21, 14) in spread and (21, 14) not in burst
    # (20.5, 11): 7.07 + 4.03 ft around: too far.
    assert (20.5, 11) not in spread
    assert spread.geometry.buffer(1e-6).contains(burst.geometry)
    # What lies beyond the wall is the disk of the 10 - sqrt(50) ft left around its end, seen from there.
    left = 10 - math.sqrt(50)
    beyond = spread.geometry.intersection(shapely.box(20, 0, 40, 20)).difference(burst.geometry.buffer(1e-6))
    assert math.pi * left**2 / 8 < beyond.area < math.pi * left**2 / 2
    assert beyond.difference(shapely.Point(20, 15).buffer(left * (1 + 1e-4), quad_segs=128)).area < 1e-9


def test_spread_around_two_corners():
    # A bend each way: the spread goes down past (10, 15), then up past (20, 5).
    m = wall_map(ag.Wall((10, 0), (10, 15)), ag.Wall((20, 5), (20, 20)))
    spread = open_area(ag.Sphere(31), at=(5, 5), on=m, mode="spread")
    # (25, 5): sqrt(125) + sqrt(200) + 5 = 30.32 around both ends; (25, 9): 31.72.
    first = math.hypot(5, 10) + math.hypot(10, 10)
    assert first + 5 < 31 < first + math.hypot(5, 4)
    assert (25, 5) in spread and (25, 9) not in spread
    burst = open_area(ag.Sphere(31), at=(5, 5), on=m)
    assert (25, 5) not in burst and (15, 10) not in burst and (15, 10) in spread


def test_spread_geometry_without_walls_is_the_disk():
    m = wall_map()
    geo, seen = spread_geometry(m, (10.0, 10.0), 5.0, (0, 0, 40, 20))
    assert geo.area == pytest.approx(math.pi * 25, rel=CIRCLE) and seen.area == pytest.approx(800)


def test_starfinder_line_stops_at_the_wall_5e_line_is_cut():
    m = wall_map(ag.Wall((20, 0), (20, 20)))
    sf = open_area(ag.Line(30, "E", width=2), at=(10, 10), on=m)
    assert sf.geometry.bounds == pytest.approx((10, 9, 20, 11))
    thin = open_area(ag.Line(30, "E"), at=(10, 10), on=m)
    assert thin.geometry.length == pytest.approx(10.0)
    assert open_area(ag.Line(30, "E"), at=(10, 10), on=m, rules="sw5e").size == pytest.approx(50.0)


# -- creatures --------------------------------------------------------------------------------------


def test_inclusion_presets_on_a_sphere_edge():
    # Sphere(20) at (30, 20); creatures 2.5 ft in radius, centres at these distances east.
    foes = [OpenToken(30 + d, 20, name=f"{d:g}") for d in (19.9, 19.95, 20.0, 22.4, 22.5, 22.6)]
    assert half_reach(20, 2.5) == pytest.approx(19.9478, abs=1e-4)
    a = {inc: names(open_area(ag.Sphere(20), at=(30, 20), on=TABLE, inclusion=inc), foes)
         for inc in ("touch", "center", "half")}
    assert a["touch"] == ["19.9", "19.95", "20", "22.4", "22.5"]
    assert a["center"] == ["19.9", "19.95", "20"]
    assert a["half"] == ["19.9"]
    # Presets: Savage Worlds touches (in inches), 5e half, Starfinder's far-edge reads as the centre.
    assert open_area(ag.Sphere(20), at=(30, 20), on=TABLE, rules="sw5e").inclusion is Inclusion.HALF
    assert open_area(ag.Sphere(20), at=(30, 20), on=TABLE).inclusion is Inclusion.CENTER
    assert open_area(ag.Sphere(4), at=(30, 20), on=INCHES, rules="savage-worlds").inclusion is Inclusion.TOUCH


def test_half_share_is_the_exact_lens():
    for d in (0.0, 1.0, 10.0, 19.0, 21.5, 22.4):
        lens = shapely.Point(0, 0).buffer(20, quad_segs=512).intersection(shapely.Point(d, 0).buffer(2.5, quad_segs=512))
        assert _lens(d, 20, 2.5) == pytest.approx(lens.area, rel=1e-4, abs=1e-4)
    assert _lens(0.0, 3, 3) == pytest.approx(math.pi * 9) and _lens(7, 3, 4) == 0.0


def test_rect_footprints():
    cart = OpenToken(45, 20, footprint="rect", width=10, depth=4, name="cart")
    a = open_area(ag.Sphere(10), at=(30, 20), on=TABLE, inclusion="touch")
    assert names(a, [cart]) == ["cart"]  # its near edge at x = 40 touches the circle
    assert names(a.__class__(ag.Sphere(9.9), (30, 20), TABLE, "starfinder", "burst", caster=None,
                             elevation=0.0, inclusion="touch"), [cart]) == []
    assert a.distance(cart) == 10.0
    assert names(open_area(ag.Sphere(10), at=(30, 20), on=TABLE, inclusion="half"), [cart]) == []


def test_tokens_reached_records_distance_cover_and_filters():
    foes = [OpenToken(30, 20, name="a", tags={"enemy"}), OpenToken(36, 20, name="b", tags={"enemy"}),
            OpenToken(30, 27, name="c", tags={"ally"}), OpenToken(50, 20, name="far")]
    m = ag.BattleMap(TABLE, tokens=foes)
    a = open_area(ag.Sphere(10), at=(30, 20), on=m, rules="sw5e")
    got = a.tokens()
    assert [(r.token.name, r.distance, r.cover, r.cover_name, r.squares) for r in got] == [
        ("a", 0.0, ag.Cover.NONE, "none", ()), ("b", 3.5, ag.Cover.NONE, "none", ()),
        ("c", 4.5, ag.Cover.NONE, "none", ()),
    ]
    assert [r.token.name for r in a.tokens(tags={"enemy"})] == ["a", "b"]
    assert [r.token.name for r in a.tokens(where=lambda t: "ally" in t.tags)] == ["c"]
    assert [r.token.name for r in a.tokens(exclude=["a"], limit=1)] == ["b"]
    with pytest.raises(InvalidValueError, match="limit must be a whole number, 0 or more, got -1"):
        a.tokens(limit=-1)
    with pytest.raises(InvalidValueError, match="bare Gridless map: pass tokens="):
        open_area(ag.Sphere(10), at=(30, 20), on=TABLE).tokens()
    with pytest.raises(InvalidTypeError, match="tokens on the open table must be aoegrid.OpenToken"):
        a.tokens([ag.Token(1, 1)])


def test_the_caster_is_left_out_of_its_own_5e_cone():
    me = OpenToken(20, 20, name="me")
    foe = OpenToken(30, 20, name="foe")
    cone = open_area(ag.Cone(15, "E"), at=me, on=TABLE, rules="sw5e", caster=me, inclusion="touch")
    assert names(cone, [me, foe]) == ["foe"]
    ball = open_area(ag.Sphere(15), at=(22, 20), on=TABLE, rules="sw5e", caster=me)
    assert names(ball, [me, foe]) == ["foe", "me"]


def test_cover_from_the_share_of_the_footprint_reached():
    # A wall ending at y = 20 in front of the origin's row hides the creature's upper part.
    m = ag.BattleMap(TABLE, walls=[ag.Wall((35, 0), (35, 20))])
    half = OpenToken(40, 20, name="half")      # centre level with the wall's end: exactly half hidden
    most = OpenToken(40, 21, name="most")      # under half hidden
    clear = OpenToken(40, 24, name="clear")    # below the shadow line from (30, 20)... partly
    for rule, want in (("starfinder", [ag.Cover.PARTIAL, ag.Cover.PARTIAL]),
                       ("sw5e", [ag.Cover.PARTIAL, ag.Cover.NONE])):
        a = open_area(ag.Sphere(15), at=(30, 20), on=m, rules=rule, inclusion="touch")
        assert a.visible(half) == pytest.approx(0.5, abs=1e-4)
        got = {r.token.name: r.cover for r in a.tokens([half, most])}
        assert [got["half"], got["most"]] == want
    sw = open_area(ag.Sphere(15), at=(30, 20), on=ag.BattleMap(INCHES, walls=[ag.Wall((35, 0), (35, 20))]),
                   rules="savage-worlds")
    assert sw.cover(OpenToken(40, 20)) is ag.Cover.NONE
    hidden = OpenToken(40, 10)
    assert sw.cover(hidden) is ag.Cover.TOTAL and sw.visible(hidden) == 0.0
    assert 0 < open_area(ag.Sphere(15), at=(30, 20), on=m).visible(clear) <= 1


def test_heights():
    ball = open_area(ag.Sphere(20), at=(30, 20), on=TABLE, inclusion="touch")
    low, high = OpenToken(30, 20, elevation=19, name="low"), OpenToken(30, 20, elevation=21, name="high")
    assert names(ball, [low, high]) == ["low"]
    # A flyer 12 ft up meets the sphere's slice of radius 16 there.
    near, off = OpenToken(30 + 18.4, 20, elevation=12, name="near"), OpenToken(30 + 18.6, 20, elevation=12, name="off")
    assert names(ball, [near, off]) == ["near"]
    assert ball.distance(OpenToken(30, 20, elevation=21)) == 21.0
    # Starfinder's cylinder drops from its origin's height; 5e's rises from it.
    drop = open_area(ag.Cylinder(10, 20), at=(30, 20), on=TABLE, elevation=30)
    assert names(drop, [OpenToken(30, 20, elevation=5, name="under"), OpenToken(30, 20, name="ground")]) == ["under"]
    rise = open_area(ag.Cylinder(10, 20), at=(30, 20), on=TABLE, rules="sw5e")
    assert names(rise, [OpenToken(30, 20, elevation=25, name="above"), OpenToken(30, 20, name="ground")]) == ["ground"]
    cube = open_area(ag.Cube(10, "E"), at=(30, 20), on=TABLE, rules="sw5e")
    assert names(cube, [OpenToken(35, 20, elevation=11, name="up"), OpenToken(35, 20, name="ground")]) == ["ground"]


def test_raster():
    a = open_area(ag.Sphere(10), at=(15, 10), on=Gridless(30, 20))
    r = a.raster(1)
    assert r.shape == (20, 30) and r.dtype == bool
    # Cells whose centres are within 10 ft.
    ys, xs = np.mgrid[0:20, 0:30] + 0.5
    assert (r == (np.hypot(xs - 15, ys - 10) <= 10)).all()
    assert open_area(ag.Sphere(10), at=(15, 10), on=Gridless(31, 20)).raster(2).shape == (10, 16)
    with pytest.raises(InvalidValueError, match="raster resolution must be greater than 0"):
        a.raster(0)
    with pytest.raises(InvalidValueError, match="is too large; use a resolution"):
        a.raster(1e-4)


def test_raster_with_walls_agrees_with_points():
    m = wall_map(ag.Wall((20, 0), (20, 15)))
    for mode in ("burst", "spread"):
        a = open_area(ag.Sphere(10), at=(15, 10), on=m, mode=mode)
        r = a.raster(0.5)
        ys, xs = (np.mgrid[0:40, 0:80] + 0.5) * 0.5
        inside = shapely.intersects_xy(a.geometry.buffer(1e-6), xs, ys)
        edge = shapely.intersects_xy(a.geometry.boundary.buffer(1e-3), xs, ys)
        assert (r == inside)[~edge].all()


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: open_area(ag.Sphere(5), at=(61, 5), on=TABLE), OffGridError, r"origin \(61, 5\) is off the 60 x 40 ft map"),
        (lambda: open_area(ag.Sphere(5), at=(5, 5), on=ag.Grid(5, 5)), InvalidTypeError,
         "on must be an aoegrid.Gridless or a BattleMap on one"),
        (lambda: open_area(ag.Sphere(5), at=(5, 5), on=TABLE, rules="savage-worlds"), InvalidValueError,
         r"savage-worlds rules measure in 'in' but the map is in 'ft'.*Gridless\(60, 40, units='in'\)"),
        (lambda: open_area(ag.Cone(5, "E", pitch=30), at=(5, 5), on=TABLE), InvalidValueError,
         "pitched cones and lines are not yet placed on the open table"),
        (lambda: open_area(ag.Shapable([(0, 0)]), at=(5, 5), on=TABLE), InvalidTypeError,
         "on the open table a shape is a Sphere, Cylinder, Cone, Line or Cube"),
        (lambda: open_area(ag.Sphere(5), at=(5, 5), on=TABLE, mode="wave"), InvalidValueError, "unknown mode 'wave'"),
        (lambda: open_area(ag.Sphere(5), at=(5, 5), on=TABLE, inclusion="most"), InvalidValueError,
         "unknown inclusion 'most'"),
        (lambda: open_area(ag.Sphere(5), at="here", on=TABLE), InvalidTypeError, "at must be an \\(x, y\\) pair"),
    ],
)
def test_open_area_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


# -- properties -------------------------------------------------------------------------------------

coords = st.floats(2, 58, allow_nan=False)
ys_ = st.floats(2, 38, allow_nan=False)
creatures = st.lists(
    st.tuples(coords, ys_, st.sampled_from(["small", "medium", "large"]), st.sampled_from(["circle", "rect"])),
    min_size=1, max_size=6,
)
shapes = st.one_of(
    st.builds(ag.Sphere, st.floats(2, 25)),
    st.builds(ag.Cone, st.floats(5, 30), st.floats(0, 359)),
    st.builds(ag.Line, st.floats(5, 40), st.floats(0, 359), st.floats(1, 10)),
    st.builds(ag.Cube, st.floats(5, 20), st.floats(0, 359)),
)


def tokens_of(spec):
    return [OpenToken(x, y, size=s, footprint=f, name=str(i)) for i, (x, y, s, f) in enumerate(spec)]


@settings(max_examples=40, deadline=None)
@given(shapes, coords, ys_, creatures)
def test_reached_sets_nest(shape, ox, oy, spec):
    toks = tokens_of(spec)
    got = {inc: set(names(open_area(shape, at=(ox, oy), on=TABLE, rules="sw5e", inclusion=inc), toks))
           for inc in ("touch", "center", "half")}
    assert got["center"] <= got["touch"]
    assert got["half"] <= got["touch"]


walls_ = st.lists(st.tuples(coords, ys_, coords, ys_), min_size=1, max_size=3)


@settings(max_examples=30, deadline=None)
@given(st.floats(3, 20), coords, ys_, creatures, walls_, st.sampled_from(["burst", "spread"]))
def test_walls_never_reveal(radius, ox, oy, spec, walls, mode):
    toks = tokens_of(spec)
    segs = [ag.Wall((a, b), (c, d)) for a, b, c, d in walls if math.hypot(c - a, d - b) > 0.5]
    # An origin on a wall is refused, except at another wall's end, where which side it stands on is moot:
    # the visibility module's call, not compared here.
    lines = [shapely.LineString([(a, b), (c, d)]) for a, b, c, d in walls if math.hypot(c - a, d - b) > 0.5]
    if any(line.distance(shapely.Point(ox, oy)) < 1e-9 for line in lines):
        return
    bare = open_area(ag.Sphere(radius), at=(ox, oy), on=ag.BattleMap(TABLE), rules="sw5e", mode=mode,
                     inclusion="touch")
    try:
        walled = open_area(ag.Sphere(radius), at=(ox, oy), on=ag.BattleMap(TABLE, walls=segs), rules="sw5e",
                           mode=mode, inclusion="touch")
    except ag.OriginOnWallError:
        return
    # Polygons stand for circles: a wall end's disk, inside the origin's, may stray past its sides by 2e-5 of R.
    assert walled.geometry.difference(bare.geometry.buffer(2e-5 * radius)).area < 1e-9
    assert set(names(walled, toks)) <= set(names(bare, toks))
    fewer = open_area(ag.Sphere(radius), at=(ox, oy), on=ag.BattleMap(TABLE, walls=segs[:1]), rules="sw5e",
                      mode=mode, inclusion="touch")
    assert set(names(walled, toks)) <= set(names(fewer, toks))
    assert walled.geometry.difference(fewer.geometry.buffer(2e-5 * radius)).area < 1e-9


@settings(max_examples=30, deadline=None)
@given(shapes, coords, ys_, creatures, st.sampled_from([0.5, 2.0, 3.0]), st.sampled_from(["touch", "center", "half"]))
def test_scaling_symmetry(shape, ox, oy, spec, k, inc):
    toks = tokens_of(spec)
    big = Gridless(60 * k, 40 * k, square=5 * k)
    scaled = shape.replace(**{f: getattr(shape, f) * k for f in ("radius", "length", "size", "width")
                              if hasattr(shape, f) and getattr(shape, f) is not None})
    big_toks = [t.moved_to(t.x * k, t.y * k) for t in toks]
    a = open_area(shape, at=(ox, oy), on=TABLE, rules="sw5e", inclusion=inc)
    b = open_area(scaled, at=(ox * k, oy * k), on=big, rules="sw5e", inclusion=inc)
    assert b.size == pytest.approx(a.size * k * k, rel=1e-6, abs=1e-6)
    assert names(a, toks) == names(b, big_toks)


# -- best placements --------------------------------------------------------------------------------


def lattice_best(shape, on, toks, rules, step, avoid=None, caster=None, rng=None, inclusion=None, mode="burst"):
    """Brute force: every lattice point, the most creatures to hit reached with none to spare."""
    table = on.grid if isinstance(on, ag.BattleMap) else on
    best = -1
    for y in np.arange(0, table.height + 1e-9, step):
        for x in np.arange(0, table.width + 1e-9, step):
            if caster is not None and math.hypot(x - caster.x, y - caster.y) > rng + caster.radius(table) + 1e-9:
                continue
            try:
                got = [r.token for r in open_area(shape, at=(x, y), on=on, rules=rules, inclusion=inclusion,
                                                  mode=mode).tokens(toks)]
            except ag.OriginOnWallError:
                continue
            if avoid is not None and any(avoid in t.tags for t in got):
                continue
            best = max(best, sum(1 for t in got if avoid is None or avoid not in t.tags))
    return best


def test_best_placement_equals_the_lattice_on_a_known_table():
    foes = [OpenToken(10, 10, name="a"), OpenToken(35, 10, name="b"), OpenToken(22, 30, name="c"),
            OpenToken(55, 30, name="d"), OpenToken(40, 35, name="e", tags={"ally"})]
    best = open_best_placements(ag.Sphere(15), TABLE, foes, rules="sw5e", avoid="ally", inclusion="touch")
    assert sorted(best[0].hits) == ["a", "b", "c"]
    assert best[0].avoided == ()
    assert best[0].score == lattice_best(ag.Sphere(15), TABLE, foes, "sw5e", 1.0, avoid="ally", inclusion="touch") == 3
    # Re-placing the area at the placement gives its creatures.
    at = open_area(ag.Sphere(15), at=best[0].origin, on=TABLE, rules="sw5e", inclusion="touch")
    assert sorted(r.token.name for r in at.tokens(foes)) == sorted(best[0].hits)


def test_best_placement_reaches_a_tangent_only_triple():
    # Three creatures whose reach circles (radius 12.5) meet in one point only: the lattice misses it.
    r = 12.5
    pts = [(30 + r * math.cos(a), 20 + r * math.sin(a)) for a in (0.1, 2.2, 4.3)]
    foes = [OpenToken(x, y, name=str(i)) for i, (x, y) in enumerate(pts)]
    best = open_best_placements(ag.Sphere(10), TABLE, foes, rules="sw5e", inclusion="touch")
    assert best[0].score == 3 and best[0].origin == pytest.approx((30, 20), abs=1e-6)
    assert lattice_best(ag.Sphere(10), TABLE, foes, "sw5e", 1.0, inclusion="touch") <= 3


def test_best_placement_range_and_limit():
    me = OpenToken(5, 20, name="me")
    foes = [OpenToken(30, 20, name="near"), OpenToken(50, 20, name="far1"), OpenToken(55, 22, name="far2")]
    best = open_best_placements(ag.Sphere(5), TABLE, foes, rules="sw5e", caster=me, range=20, limit=3,
                                inclusion="touch")
    assert [p.hits for p in best][:1] == [("near",)]
    assert all(math.hypot(p.origin[0] - 5, p.origin[1] - 20) <= 22.5 + 1e-9 for p in best)
    far = open_best_placements(ag.Sphere(5), TABLE, foes, rules="sw5e", caster=me, range=60, inclusion="touch")
    assert sorted(far[0].hits) == ["far1", "far2"]
    with pytest.raises(InvalidValueError, match="range is measured from a caster"):
        open_best_placements(ag.Sphere(5), TABLE, foes, range=5)
    with pytest.raises(InvalidTypeError, match="open_best_placements searches spheres, cylinders, cones and lines"):
        open_best_placements(ag.Cube(5), TABLE, foes)
    with pytest.raises(InvalidValueError, match="a cone starts at its caster: pass caster="):
        open_best_placements(ag.Cone(5), TABLE, foes)
    with pytest.raises(InvalidValueError, match="range= and step= are for spheres and cylinders"):
        open_best_placements(ag.Line(5), TABLE, foes, caster=me, range=5)
    with pytest.raises(InvalidValueError, match="directions must be a whole number, 4 or more, got 2"):
        open_best_placements(ag.Line(5), TABLE, foes, caster=me, directions=2)
    with pytest.raises(InvalidValueError, match="limit must be a whole number, 1 or more, got 0"):
        open_best_placements(ag.Sphere(5), TABLE, foes, limit=0)


def test_best_placement_with_walls_and_a_lattice_step():
    m = ag.BattleMap(Gridless(40, 20), walls=[ag.Wall((20, 0), (20, 20))],
                     tokens=[OpenToken(15, 10, name="a"), OpenToken(25, 10, name="b"), OpenToken(10, 5, name="c")])
    best = open_best_placements(ag.Sphere(8), m, rules="sw5e", step=2.0, inclusion="touch")
    assert sorted(best[0].hits) == ["a", "c"]


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.floats(3, 37), st.floats(3, 27)), min_size=2, max_size=5),
       st.floats(4, 10), st.sampled_from(["touch", "center", "half"]))
def test_best_placement_never_worse_than_the_lattice(spots, radius, inc):
    table = Gridless(40, 30)
    foes = [OpenToken(x, y, name=str(i)) for i, (x, y) in enumerate(spots)]
    best = open_best_placements(ag.Sphere(radius), table, foes, rules="sw5e", inclusion=inc)
    assert best[0].score >= lattice_best(ag.Sphere(radius), table, foes, "sw5e", 2.0, inclusion=inc)
    again = open_area(ag.Sphere(radius), at=best[0].origin, on=table, rules="sw5e", inclusion=inc)
    assert len(again.tokens(foes)) == best[0].score


def test_reach_radius():
    rules = resolve_rules("sw5e")
    t = OpenToken(0, 0)
    assert reach_radius(ag.Sphere(10), t, TABLE, Inclusion.TOUCH, rules) == 12.5
    assert reach_radius(ag.Sphere(10), t, TABLE, Inclusion.CENTER, rules) == 10.0
    assert reach_radius(ag.Sphere(10), t, TABLE, Inclusion.HALF, rules) == pytest.approx(half_reach(10, 2.5))
    assert reach_radius(ag.Sphere(10), OpenToken(0, 0, elevation=11), TABLE, Inclusion.TOUCH, rules) is None
    assert reach_radius(ag.Sphere(10), OpenToken(0, 0, elevation=6), TABLE, Inclusion.CENTER, rules) == 8.0


def test_best_placement_with_walls_equals_the_lattice_on_a_known_scene():
    # A wall between two pairs, open below: the search equals a 2-ft lattice for every inclusion.
    m = ag.BattleMap(Gridless(40, 30), walls=[ag.Wall((20, 0), (20, 22))])
    foes = [OpenToken(12, 10, name="a"), OpenToken(16, 18, name="b"), OpenToken(26, 12, name="c"),
            OpenToken(30, 16, name="d"), OpenToken(20, 27, name="e", tags={"ally"})]
    for inc in ("center", "touch", "half"):
        best = open_best_placements(ag.Sphere(10), m, foes, rules="sw5e", avoid="ally", inclusion=inc)
        assert best[0].score == lattice_best(ag.Sphere(10), m, foes, "sw5e", 2.0, avoid="ally", inclusion=inc)
        again = open_area(ag.Sphere(10), at=best[0].origin, on=m, rules="sw5e", inclusion=inc)
        assert sorted(r.token.name for r in again.tokens(foes)) == sorted(best[0].hits)
    # By the centres no point sees three, nor b and d (b hides from the right of the wall but below
    # y = x + 2, more than 10 ft from d): the two pairs, a and b nearer the map's top-left, then one alone.
    best = open_best_placements(ag.Sphere(10), m, foes, rules="sw5e", avoid="ally", inclusion="center", limit=3)
    assert [sorted(p.hits) for p in best] == [["a", "b"], ["c", "d"], ["a"]]


def test_best_placement_with_walls_finds_a_sliver_the_lattice_misses():
    # Two creatures seen together only through a gap 0.2 ft wide between two walls: the lattice (step 1)
    # never stands in line with both; the search does.
    m = ag.BattleMap(Gridless(40, 30), walls=[ag.Wall((20, 0), (20, 15.2)), ag.Wall((20, 15.4), (20, 30))])
    foes = [OpenToken(12, 15.3, name="a"), OpenToken(28, 15.3, name="b")]
    best = open_best_placements(ag.Sphere(10), m, foes, rules="sw5e", inclusion="center")
    assert best[0].score == 2
    assert lattice_best(ag.Sphere(10), m, foes, "sw5e", 1.0, inclusion="center") == 1


@settings(max_examples=8, deadline=None)
@given(st.lists(st.tuples(st.floats(3, 27), st.floats(3, 17), st.sampled_from(["circle", "rect"])),
                min_size=2, max_size=5),
       st.lists(st.tuples(st.floats(0, 30), st.floats(0, 20), st.floats(0, 30), st.floats(0, 20)),
                min_size=1, max_size=4),
       st.floats(3, 8), st.sampled_from(["touch", "center", "half"]), st.sampled_from(["burst", "spread"]))
def test_best_placement_with_walls_never_worse_than_the_lattice(spots, walls, radius, inc, mode):
    segs = [ag.Wall((a, b), (c, d)) for a, b, c, d in walls if math.hypot(c - a, d - b) > 0.5]
    m = ag.BattleMap(Gridless(30, 20), walls=segs)
    foes = [OpenToken(x, y, name=str(i), footprint=f) for i, (x, y, f) in enumerate(spots)]
    best = open_best_placements(ag.Sphere(radius), m, foes, rules="sw5e", inclusion=inc, mode=mode)
    assert best[0].score >= lattice_best(ag.Sphere(radius), m, foes, "sw5e", 1.0, inclusion=inc, mode=mode)
    again = open_area(ag.Sphere(radius), at=best[0].origin, on=m, rules="sw5e", inclusion=inc, mode=mode)
    assert len(again.tokens(foes)) == best[0].score


@settings(max_examples=12, deadline=None)
@given(st.lists(st.tuples(st.floats(4, 36), st.floats(4, 26), st.floats(2, 8), st.floats(2, 8)),
                min_size=2, max_size=5),
       st.floats(3, 9), st.sampled_from(["touch", "center", "half"]))
def test_best_placement_rect_footprints_never_worse_than_the_lattice(spots, radius, inc):
    table = Gridless(40, 30)
    foes = [OpenToken(x, y, name=str(i), footprint="rect", width=w, depth=d) for i, (x, y, w, d) in enumerate(spots)]
    best = open_best_placements(ag.Sphere(radius), table, foes, rules="sw5e", inclusion=inc)
    assert best[0].score >= lattice_best(ag.Sphere(radius), table, foes, "sw5e", 1.0, inclusion=inc)


def test_best_placement_rect_touch_follows_the_grown_outline():
    # Two carts 2 * 6 + 4 ft apart side by side, and a creature: a 6-ft burst touches both carts only on the
    # grown sides' stretch between them (exact: sides and corner circles).
    carts = [OpenToken(10, 10, footprint="rect", width=8, depth=2, name="c1"),
             OpenToken(10, 24, footprint="rect", width=8, depth=2, name="c2")]
    best = open_best_placements(ag.Sphere(6), Gridless(40, 30), carts, rules="sw5e", inclusion="touch")
    assert sorted(best[0].hits) == ["c1", "c2"] and 6 <= best[0].origin[0] <= 14
    assert best[0].origin[1] == pytest.approx(17, abs=1e-9)
    # By the centre a rectangle is reached within the radius of its centre (not of its corners).
    far = [OpenToken(10, 10, footprint="rect", width=20, depth=2, name="long"), OpenToken(31, 10, name="o")]
    got = open_best_placements(ag.Sphere(6), Gridless(40, 30), far, rules="sw5e", inclusion="center")
    assert got[0].score == 1


def test_rect_disk_area_is_exact():
    assert rect_disk_area(1.0, -1, -1, 1, 1) == pytest.approx(math.pi, abs=1e-12)
    assert rect_disk_area(2.0, 0, 0, 9, 9) == pytest.approx(math.pi, abs=1e-12)
    assert rect_disk_area(2.0, 3, 0, 9, 9) == 0.0
    for box in ((-1, -0.5, 2, 3), (0.3, -4, 0.9, 0.2), (-3, -3, 0.5, -1.2)):
        disk = shapely.Point(0, 0).buffer(2, quad_segs=2048)
        assert rect_disk_area(2.0, *box) == pytest.approx(disk.intersection(shapely.box(*box)).area, rel=1e-6)


def test_open_area_range_and_line_of_effect_from_the_caster():
    m = ag.BattleMap(Gridless(40, 20), walls=[ag.Wall((20, 0), (20, 12))])
    me = OpenToken(5, 10, name="me")
    # In range (18.4 ft from the footprint's edge), and seen past the wall's end.
    assert open_area(ag.Sphere(5), at=(25, 16), on=m, caster=me, range=18.4).origin == (25.0, 16.0)
    with pytest.raises(ag.IllegalOriginError, match=r"point of origin \(30, 10\) is 22.5 ft from the caster's edge, "
                       r"beyond its range of 20 ft") as err:
        open_area(ag.Sphere(5), at=(30, 10), on=ag.BattleMap(Gridless(40, 20)), caster=me, range=20)
    assert err.value.reason == "out of range" and err.value.nearest == pytest.approx((27.5, 10))
    with pytest.raises(ag.IllegalOriginError, match=r"point of origin \(25, 5\) is out of line of effect from the "
                       r"caster at \(5, 10\)") as err:
        open_area(ag.Sphere(5), at=(25, 5), on=m, caster=me)
    assert err.value.reason == "no line of effect"
    box = OpenToken(5, 10, footprint="rect", width=4, depth=8, name="cart")
    with pytest.raises(ag.IllegalOriginError, match="is 5 ft from the caster's edge"):
        open_area(ag.Sphere(5), at=(10, 2), on=Gridless(40, 20), caster=box, range=2)
    with pytest.raises(InvalidValueError, match="range= is measured from the caster"):
        open_area(ag.Sphere(5), at=(10, 2), on=Gridless(40, 20), range=2)
    with pytest.raises(InvalidValueError, match="range must be 0 or more"):
        open_area(ag.Sphere(5), at=(10, 2), on=Gridless(40, 20), caster=me, range=-1)


def bearing_best(shape, on, toks, caster, rules, step, inclusion=None):
    """Brute force: every bearing ``step`` degrees apart, the most creatures reached (the caster left out)."""
    best = -1
    for d in np.arange(0, 360, step):
        a = open_area(shape.replace(direction=float(d)), at=caster, on=on, rules=rules, caster=caster,
                      inclusion=inclusion)
        best = max(best, len(a.tokens([t for t in toks if t is not caster])))
    return best


def test_best_cone_bearing_from_the_caster():
    me = OpenToken(20, 20, name="me")
    foes = [OpenToken(35, 20, name="a"), OpenToken(35, 28, name="b"), OpenToken(30, 8, name="c"),
            OpenToken(5, 20, name="d")]
    best = open_best_placements(ag.Cone(20, 0), Gridless(60, 40), foes, rules="sw5e", caster=me, limit=2)
    assert [sorted(p.hits) for p in best] == [["a", "b"], ["a"]]
    # The cone starts on the caster's edge, toward its bearing; re-placed there it reaches the same.
    d = best[0].direction
    assert best[0].origin == pytest.approx((20 + 2.5 * math.cos(math.radians(d)), 20 + 2.5 * math.sin(math.radians(d))))
    again = open_area(ag.Cone(20, d), at=me, on=Gridless(60, 40), rules="sw5e", caster=me)
    assert sorted(r.token.name for r in again.tokens(foes)) == ["a", "b"]
    assert bearing_best(ag.Cone(20), Gridless(60, 40), foes, me, "sw5e", 1.0) == 2


def test_best_line_bearing_finds_a_window_the_samples_miss():
    # A thin line (Starfinder: no width) reaches a far creature only within +-asin(0.5 / 40) = 0.7 degrees of
    # its bearing, and two in a row only on their common line: 4 bearings to start from still find it.
    me = OpenToken(2.5, 20, name="me")
    foes = [OpenToken(22.5, 30.7, size=0.2, name="near"), OpenToken(42.5, 41.4, size=0.2, name="far")]
    best = open_best_placements(ag.Line(60, 0), Gridless(60, 45), foes, rules="starfinder", caster=me,
                                inclusion="touch", directions=4)
    assert sorted(best[0].hits) == ["far", "near"]
    assert bearing_best(ag.Line(60), Gridless(60, 45), foes, me, "starfinder", 2.0, inclusion="touch") <= 2


@settings(max_examples=6, deadline=None)
@given(st.lists(st.tuples(st.floats(5, 55), st.floats(5, 35)), min_size=1, max_size=5),
       st.sampled_from([ag.Cone(20), ag.Line(30, width=5), ag.Cone(12)]), st.sampled_from(["touch", "center", "half"]),
       st.booleans())
def test_best_bearing_never_worse_than_the_angular_lattice(spots, shape, inc, walled):
    me = OpenToken(30, 20, name="me")
    foes = [OpenToken(x, y, name=str(i)) for i, (x, y) in enumerate(spots) if math.hypot(x - 30, y - 20) > 5]
    on = ag.BattleMap(Gridless(60, 40), walls=[ag.Wall((36, 10), (36, 18)), ag.Wall((20, 26), (28, 30))]) if walled \
        else Gridless(60, 40)
    best = open_best_placements(shape, on, foes, rules="sw5e", caster=me, inclusion=inc, directions=90)
    assert best[0].score >= bearing_best(shape, on, foes, me, "sw5e", 1.0, inclusion=inc)


def test_the_public_search_takes_the_open_table():
    table = ag.BattleMap(ag.Gridless(30, 20), tokens=[
        ag.OpenToken(10, 10, name="orc", tags={"enemy"}), ag.OpenToken(12, 12, name="gob", tags={"enemy"}),
        ag.OpenToken(5, 5, name="me", tags={"ally"})])
    me = table.tokens[2]
    best = ag.best_placements(ag.Sphere(5), caster=me, range=30, on=table, hit="enemy", avoid="ally")
    assert best == ag.open_best_placements(ag.Sphere(5), table, None, "starfinder", me, 30, hit="enemy", avoid="ally")
    assert best[0].hits == ("orc", "gob")
    with pytest.raises(ag.InvalidValueError, match=r"on the open table the placement search takes no move= yet"):
        ag.best_placements(ag.Sphere(5), caster=me, range=30, on=table, hit="enemy", move=30)
    with pytest.raises(ag.InvalidValueError, match="legal_origins is not worked out on a gridless map yet"):
        ag.legal_origins(ag.Sphere(5), caster=me, range=30, on=table)
