"""The lazy area result: nothing is worked out before it is read, and what is read equals the eager answer."""

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.board.walls import Channel
from aoegrid.geometry.cover import grade

N = 12


def test_walls_are_applied_when_first_read_and_cover_only_when_asked():
    m = ag.BattleMap(ag.Grid(12, 12), walls=[ag.Wall((6, 0), (6, 12))])
    a = ag.area(ag.Sphere(20), at=(4, 6), on=m)
    assert a._local is None and a._visible is None and a._cover is None  # no square filled yet
    assert len(a) == 36
    assert a._visible is not None and a._cover is None and a._sight is None and a._path is None
    assert int(a.cover[6, 5]) == int(ag.Cover.NONE)
    assert a._cover is not None and a._sight is None


def test_a_grid_area_needs_no_walls_and_is_ready_at_once():
    a = ag.area(ag.Sphere(10), at=(4, 4), on=ag.Grid(8, 8))
    assert a._local is not None and a.battlemap is None and len(a) == 12


def test_an_origin_inside_a_wall_is_refused_when_the_area_is_made():
    m = ag.BattleMap(ag.Grid(12, 12), walls=[ag.Wall((6, 0), (6, 12))])
    try:
        ag.area(ag.Sphere(20), at=(6, 5), on=m)
    except ag.OriginOnWallError as exc:
        assert "point of origin (6, 5) lies on the wall from (6, 0) to (6, 12)" in str(exc)
    else:
        raise AssertionError("an origin inside a wall must be refused by area()")


eighths = st.integers(0, 8 * N).map(lambda k: k / 8)
walls_st = st.lists(
    st.tuples(eighths, eighths, eighths, eighths).filter(lambda s: (s[0], s[1]) != (s[2], s[3])),
    min_size=1,
    max_size=8,
)


@settings(max_examples=80, deadline=None)
@given(walls_st, st.sampled_from(["starfinder", "sw5e", "savage-worlds"]), st.integers(1, N - 1), st.integers(1, N - 1),
       st.booleans())
def test_cover_from_partly_reached_squares_equals_every_corner_tested(walls, preset, x, y, from_space):
    grid = ag.Grid(N, N, units="in" if preset == "savage-worlds" else "ft")
    m = ag.BattleMap(grid, walls=[ag.Wall(s[:2], s[2:]) for s in walls])
    at = ag.Space(x - 1, y - 1, 2, 2) if from_space else (x, y)
    size = 6.0 if preset == "savage-worlds" else 30.0
    try:
        a = ag.area(ag.Sphere(size), at=at, on=m, rules=preset, mode="emanation")
    except ag.OriginOnWallError:
        assume(False)
    for channel, grades in ((Channel.EFFECT, a.cover), (Channel.SIGHT, a.sight_cover)):
        views = a._views(channel)
        visible = np.max([v.fraction(a.window) for v in views], axis=0)
        blocked = np.min([v.blocked_corners(a.window) for v in views], axis=0)
        eager = grade(a.rules.cover, visible, blocked)
        local = grades[a.window.y0 : a.window.y0 + a.window.height, a.window.x0 : a.window.x0 + a.window.width]
        shape = a.shape_mask[a.window.y0 : a.window.y0 + a.window.height, a.window.x0 : a.window.x0 + a.window.width]
        np.testing.assert_array_equal(local[shape], eager[shape])


def test_areas_and_maps_speak_numpy_and_the_geo_interface():
    import shapely.geometry

    m = ag.BattleMap(ag.Grid(8, 8), walls=[ag.Wall((6, 0), (6, 8))])
    a = ag.area(ag.Sphere(10), at=(4, 4), on=m)
    arr = np.asarray(a)
    assert arr.shape == (8, 8) and arr.dtype == bool and int(arr.sum()) == len(a) == 12
    assert np.asarray(a, dtype=np.uint8).sum() == 12
    assert a.bounds == (2, 2, 6, 6)
    geom = shapely.geometry.shape(a)
    assert geom.geom_type == "MultiPolygon" and geom.area == 12.0
    assert shapely.union_all(list(geom.geoms)).bounds == (2.0, 2.0, 6.0, 6.0)
    walls = shapely.geometry.shape(m)
    assert walls.geom_type == "MultiLineString" and walls.length == 8.0
    assert (ag.area(ag.Sphere(5), at=(0, 0), on=m) - ag.area(ag.Sphere(5), at=(0, 0), on=m)).bounds is None
