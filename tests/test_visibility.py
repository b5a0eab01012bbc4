"""The fast visibility path against a slow exact reference on random maps."""

import math

import numpy as np
import pytest
import shapely
from hypothesis import example, given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.board.visibility import visibility
from aoegrid.board.walls import Channel, WallSet
from aoegrid.geometry.raster import Window, coverage
from aoegrid.geometry.regions import Outline

N = 16
ANY = ag.Rules(origin="any", units="ft")
#: Overlays snap to this grid: floating overlays of many shadows meeting at
#: nearly the same points can lose a hole (GEOS), snap-rounding cannot.
GRID = 1e-11


def _keep(poly, a, b, c):
    """The part of a convex polygon where ``a * x + b * y + c >= 0`` (Sutherland-Hodgman)."""
    out = []
    for p, q in zip(poly, poly[1:] + poly[:1]):
        fp, fq = a * p[0] + b * p[1] + c, a * q[0] + b * q[1] + c
        if fp >= 0:
            out.append(p)
        if (fp > 0 > fq) or (fp < 0 < fq):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def _facing(origin, seg, way) -> bool:
    """Whether a one-way wall (``None``, ``"left"``, ``"right"``) blocks lines from ``origin``."""
    ax, ay, bx, by = seg
    right = (bx - ax) * (origin[1] - ay) - (by - ay) * (origin[0] - ax) > 0  # y grows down
    return way is None or (way == "right") == right


def shadows(origin, segs, bounds):
    """Everything in ``bounds`` behind each wall as seen from ``origin``, exactly.

    Each shadow is the box cut by three half-planes (the two sides of the
    wedge from the origin through the wall's ends and the wall's far side):
    no far-away points, so it stays exact however near the origin a wall is.
    """
    ox, oy = origin
    x0, y0, x1, y1 = bounds
    polys = []
    for ax, ay, bx, by in segs:
        turn = (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)
        if turn == 0:
            continue  # edge-on: it hides nothing
        if turn < 0:
            ax, ay, bx, by = bx, by, ax, ay
        poly = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        # cross(a - o, p - o) >= 0, cross(p - o, b - o) >= 0 and cross(b - a, p - a) <= 0
        # (the origin is on the positive side of ab).
        poly = _keep(poly, -(ay - oy), ax - ox, (ay - oy) * ox - (ax - ox) * oy)
        poly = _keep(poly, by - oy, -(bx - ox), -(by - oy) * ox + (bx - ox) * oy)
        poly = _keep(poly, by - ay, -(bx - ax), -(by - ay) * ax + (bx - ax) * ay)
        if len(poly) >= 3 and shapely.Polygon(poly).area > 0:
            polys.append(shapely.Polygon(poly))
    return shapely.unary_union(polys, grid_size=GRID)


def slow_fractions(origin, segs, window: Window) -> np.ndarray:
    """Per square: the part of it no wall's shadow covers (shapely, square by square)."""
    x0, y0 = window.x0 - 1, window.y0 - 1
    shade = shadows(origin, segs, (x0, y0, x0 + window.width + 2, y0 + window.height + 2))
    ys, xs = np.mgrid[window.y0 : window.y0 + window.height, window.x0 : window.x0 + window.width]
    squares = shapely.box(xs, ys, xs + 1, ys + 1)
    return shapely.area(shapely.difference(squares, shade, grid_size=GRID))


def slow_sees(origin, segs, px, py) -> np.ndarray:
    """Whether the segment to each point properly crosses no wall."""
    out = np.ones(px.shape, dtype=bool)
    ox, oy = origin
    for ax, ay, bx, by in segs:
        d1 = (px - ox) * (ay - oy) - (py - oy) * (ax - ox)
        d2 = (px - ox) * (by - oy) - (py - oy) * (bx - ox)
        d3 = (bx - ax) * (oy - ay) - (by - ay) * (ox - ax)
        d4 = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
        out &= ~((d1 * d2 < 0) & (d3 * d4 < 0))
    return out


def coord(lo, hi):
    return st.floats(lo, hi, allow_nan=False).map(lambda v: round(v, 2))


def segments(lo, hi):
    return st.tuples(*[coord(lo, hi)] * 4).filter(lambda s: (s[0] - s[2]) ** 2 + (s[1] - s[3]) ** 2 > 0.01)


walls_st = st.lists(segments(0, N), min_size=1, max_size=25)
# Long walls run far past the map's edge and any burst's working box.
long_walls_st = st.lists(
    st.tuples(st.one_of(segments(0, N), segments(-N, 2 * N)), st.sampled_from([None, "left", "right"])),
    min_size=1,
    max_size=12,
)
origins = st.tuples(st.floats(0.5, N - 0.5), st.floats(0.5, N - 0.5)).map(lambda p: (round(p[0], 3) + 1e-4, round(p[1], 3) + 2e-4))


def test_the_reference_shadow_is_exact_for_an_origin_next_to_a_wall():
    # 1e-3 from the wall x = 1 the shadow is the box past it less two slivers
    # 0.0002 wide at the box's top and bottom edges.
    shade = shadows((0.999, 5.0), [(1.0, 0.0, 1.0, 10.0)], (-1.0, -1.0, 11.0, 11.0))
    exact = shapely.Polygon([(1, 0), (1.0002, -1), (11, -1), (11, 11), (1.0002, 11), (1, 10)])
    assert shade.symmetric_difference(exact).area < 1e-9
    assert shade.area == pytest.approx(119.9998, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(walls_st, origins)
# An origin 0.0007 from a wall (far points of a cut-off shadow used to miss
# the grid); walls meeting at one corner (a floating union lost a hole).
@example(segs=[(4.34, 10.91, 0.25, 9.13)], origin=(2.3281, 10.0352))
@example(segs=[(0, 0, 0, 1), (0, 0, 0, 1), (0, 0, 7, 15.14), (6, 1, 0, 0)], origin=(13.5161, 5.9252))
def test_visible_fractions_match_the_slow_reference(segs, origin):
    m = ag.BattleMap(ag.Grid(N, N), walls=[ag.Wall(s[:2], s[2:]) for s in segs])
    a = ag.area(ag.Sphere(500), at=origin, on=m, rules=ANY)
    ref = slow_fractions(origin, segs, Window(0, 0, N, N))
    np.testing.assert_allclose(a.visible, ref, atol=1e-9)
    assert a.squares == [(int(x), int(y)) for y, x in np.argwhere(ref > 1e-9)]


@settings(max_examples=60, deadline=None)
@given(long_walls_st, origins, st.integers(1, 8))
@example(
    walls=[((0, 0, 0, 1), None), ((0, 0, 1, 12), None), ((0, 13, 14, 1), None),
           ((15, 1, 2, 6), None), ((15, 1, 2, 6), None)],
    origin=(6.0001, 5.0002),
    radius=2,
)
def test_bursts_among_long_walls_match_the_slow_reference(walls, origin, radius):
    # A burst's working box is its own window, smaller than the map: the walls
    # cross it and the map's edge.
    m = ag.BattleMap(ag.Grid(N, N), walls=[ag.Wall(s[:2], s[2:], one_way=w) for s, w in walls])
    a = ag.area(ag.Sphere(5 * radius), at=origin, on=m, rules=ANY)
    ref = slow_fractions(origin, [s for s, w in walls if _facing(origin, s, w)], Window(0, 0, N, N))
    shape = a.shape_mask
    np.testing.assert_allclose(a.visible[shape], ref[shape], atol=1e-9)
    assert a.squares == [(int(x), int(y)) for y, x in np.argwhere(shape & (ref > 1e-9))]


@settings(max_examples=60, deadline=None)
@given(long_walls_st, origins)
def test_line_of_effect_among_long_walls_matches_the_slow_reference(walls, origin):
    m = ag.BattleMap(ag.Grid(N, N), walls=[ag.Wall(s[:2], s[2:], one_way=w) for s, w in walls])
    ref = slow_fractions(origin, [s for s, w in walls if _facing(origin, s, w)], Window(0, 0, N, N))
    np.testing.assert_allclose(ag.line_of_effect(m, origin), ref, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.one_of(walls_st, long_walls_st.map(lambda ws: [s for s, _ in ws])), origins)
def test_corner_lines_match_the_slow_reference(segs, origin):
    noded = WallSet.build([ag.Wall(s[:2], s[2:]) for s in segs], Channel.EFFECT)
    vis = visibility(origin, noded.segs, noded.one_way, (-1, -1, N + 1, N + 1))
    segs = np.asarray(segs, dtype=float)
    ys, xs = np.mgrid[0 : N + 1, 0 : N + 1].astype(float)
    np.testing.assert_array_equal(vis.sees(xs, ys), slow_sees(origin, segs, xs, ys))


@pytest.mark.parametrize("rules", ["sw5e", "starfinder"])
@pytest.mark.parametrize("end", [(-1, 9), (3, 5)])
def test_a_wall_past_the_working_box_hides_what_is_behind_it(rules, end):
    # The line x + y = 8, whether it stops at the map's edge or runs past the box.
    m = ag.BattleMap(ag.Grid(5, 5), [ag.Wall((5, 3), end)])
    a = ag.area(ag.Sphere(30), at=(0, 2), on=m, rules=rules)
    assert (4, 4) not in a
    assert a.visible[4, 4] == pytest.approx(0.0, abs=1e-9)
    assert a.visible[4, 3] == pytest.approx(0.5, abs=1e-9)
    assert a.visible[3, 4] == pytest.approx(0.5, abs=1e-9)
    assert np.count_nonzero(a.visible < 1 - 1e-9) == 3


def test_a_wall_past_the_map_edge_halves_the_squares_it_splits():
    m = ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall((19.5, -3), (19.5, 30))])
    seen = ag.line_of_effect(m, (10, 10))
    np.testing.assert_allclose(seen[:, 19], 0.5, atol=1e-9)
    np.testing.assert_allclose(seen[:, :19], 1.0, atol=1e-9)


@pytest.mark.parametrize(("one_way", "expected"), [("right", 0.5), ("left", 1.0)])
def test_a_cut_one_way_wall_keeps_its_side(one_way, expected):
    # Seen from start to end the wall runs south (down the screen): (10, 10) is on its right.
    m = ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall((19.5, -3), (19.5, 30), one_way=one_way)])
    np.testing.assert_allclose(ag.line_of_effect(m, (10, 10))[:, 19], expected, atol=1e-9)


def test_long_walls_joined_at_a_corner_leave_no_gap_when_cut():
    # A V opening away from the origin, both arms cut by the frame.
    segs = np.array([[5.0, 5.0, 50.0, -40.0], [5.0, 5.0, 50.0, 50.0]])
    vis = visibility((2.0, 5.0), segs, np.zeros(2, dtype=np.int8), (-1.0, -1.0, 11.0, 11.0))
    assert vis.sees(np.array([4.0, 5.0, 8.0]), np.array([5.0, 5.0, 5.0])).tolist() == [True, True, False]
    assert vis.reach(0.0) == 3.0


# --- tie rules on exactly collinear points ------------------------------------------------


def exact_sees(origin, segs, px, py) -> np.ndarray:
    """:func:`slow_sees` plus the corner rule: a line through the shared end of walls lying on
    both sides of it is blocked. Exact when every coordinate is a small multiple of 1/2."""
    out = slow_sees(origin, segs, px, py)
    ox, oy = origin
    ends = [(ax, ay) for ax, ay, _, _ in segs] + [(bx, by) for _, _, bx, by in segs]
    others = [(bx, by) for _, _, bx, by in segs] + [(ax, ay) for ax, ay, _, _ in segs]
    for i in np.ndindex(px.shape):
        qx, qy = px[i] - ox, py[i] - oy
        for (ex, ey) in set(ends):
            cx, cy = ex - ox, ey - oy
            # The end lies on the segment to the point, strictly between its ends.
            if qx * cy - qy * cx != 0 or not 0 < cx * qx + cy * qy < qx * qx + qy * qy:
                continue
            sides = {np.sign(qx * (fy - oy) - qy * (fx - ox)) for e, (fx, fy) in zip(ends, others) if e == (ex, ey)}
            if {1.0, -1.0} <= sides:
                out[i] = False
    return out


half_walls_st = st.lists(
    st.tuples(st.integers(0, 2 * N), st.integers(0, 2 * N), st.integers(0, 2 * N), st.integers(0, 2 * N),
              st.sampled_from([None, None, "left", "right"]))
    .filter(lambda w: w[:2] != w[2:4])
    .map(lambda w: (tuple(v / 2 for v in w[:4]), w[4])),
    min_size=1,
    max_size=15,
)


@settings(max_examples=60, deadline=None)
@given(half_walls_st, st.tuples(st.integers(0, 2 * N), st.integers(0, 2 * N)))
@example(walls=[((2, 2, 4, 2), None), ((4, 2, 4, 4), None)], origin=(2, 6))  # a joined corner, exactly on the ray
# Free ends of two walls lined up with the origin, one wall on each side of the ray: the line passes.
@example(walls=[((0, 0, 4, 0.5), None), ((0, 0.5, 0, 1), None)], origin=(17, 1))
def test_lines_through_wall_ends_follow_the_tie_rules(walls, origin):
    # Walls and origin on half squares: points on the ray through a wall's end, at the end and as
    # far again beyond it, are exactly on it, so touching a free end passes and a corner blocks.
    origin = (origin[0] / 2, origin[1] / 2)
    noded = WallSet.build([ag.Wall(s[:2], s[2:], one_way=w) for s, w in walls], Channel.EFFECT)
    try:
        vis = visibility(origin, noded.segs, noded.one_way, (-1, -1, N + 1, N + 1))
    except ag.OriginOnWallError:
        return
    ends = np.array([p for s, _ in walls for p in (s[:2], s[2:])], dtype=float)
    pts = np.vstack([ends, 2 * ends - origin])
    pts = pts[(pts >= -1).all(axis=1) & (pts <= N + 1).all(axis=1)]
    facing = [s for s, w in walls if _facing(origin, s, w)]
    expected = exact_sees(origin, facing, pts[:, 0], pts[:, 1])
    np.testing.assert_array_equal(vis.sees(pts[:, 0], pts[:, 1]), expected)


# --- origins next to walls ------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(walls_st, st.integers(0, 24), st.sampled_from([1e-3, 1e-5, -1e-4, -1e-6]), st.floats(0.05, 0.95))
def test_origins_next_to_a_wall_match_the_slow_reference(segs, pick, offset, along):
    ax, ay, bx, by = segs[pick % len(segs)]
    length = math.hypot(bx - ax, by - ay)
    origin = (ax + along * (bx - ax) - offset * (by - ay) / length, ay + along * (by - ay) + offset * (bx - ax) / length)
    if not (0 <= origin[0] <= N and 0 <= origin[1] <= N):
        return
    m = ag.BattleMap(ag.Grid(N, N), walls=[ag.Wall(s[:2], s[2:]) for s in segs])
    try:
        seen = ag.line_of_effect(m, origin)
    except ag.OriginOnWallError:
        return  # another wall passes through the origin
    np.testing.assert_allclose(seen, slow_fractions(origin, segs, Window(0, 0, N, N)), atol=1e-9)


# --- the sweep's output and the fill ----------------------------------------------------


def test_a_wall_hidden_behind_another_adds_no_interval():
    # From (5, 5) the wall x = 8 hides the wall x = 9: six intervals, the frame's four sides
    # (the right one either side of the near wall) and the near wall.
    segs = np.array([[8.0, 3.0, 8.0, 7.0], [9.0, 4.0, 9.0, 6.0]])
    vis = visibility((5.0, 5.0), segs, np.zeros(2, np.int8), (-1.0, -1.0, 11.0, 11.0))
    expected = [-3 * math.pi / 4, -math.pi / 4, math.atan2(-2, 3), math.atan2(2, 3), math.pi / 4, 3 * math.pi / 4]
    np.testing.assert_allclose(vis.angles, expected, atol=1e-15)
    assert vis.ax.tolist() == [-1.0, 11.0, 8.0, 11.0, 11.0, -1.0]
    assert vis.reach(0.0) == 3.0 and vis.reach(math.atan2(1, 4)) == pytest.approx(math.hypot(3, 0.75))


def test_squares_outside_the_polygons_box_are_exactly_zero():
    # A room with a slanted side, (10, 20) to (14, 23), on a 40 x 40 map.
    m = ag.BattleMap(ag.Grid(40, 40), walls=[[(10, 20), (14, 20), (14, 22), (12, 23), (10, 23), (10, 20)]])
    seen = ag.line_of_effect(m, (11.5, 21.5))
    outside = np.ones((40, 40), dtype=bool)
    outside[20:23, 10:14] = False
    assert (seen[outside] == 0.0).all()
    # Inside the box: the fill of the polygon over the whole map, square by square.
    vis = m.wallset("effect").visibility((11.5, 21.5), (-1.0, -1.0, 41.0, 41.0))
    whole = coverage(Outline(vis.polygon()), Window(0, 0, 40, 40))
    np.testing.assert_allclose(seen, whole, atol=1e-12)
    assert seen[22, 13] == pytest.approx(0.25, abs=1e-12)  # the slanted side halves (13, 22) diagonally
    assert seen[22, 12] == pytest.approx(0.75, abs=1e-12)
    assert seen[20, 10] == pytest.approx(1.0, abs=1e-12)


# --- sure lines without a polygon (tactics with movement) -------------------------------------


@settings(max_examples=80, deadline=None)
@given(half_walls_st, st.lists(st.tuples(st.integers(0, 2 * N), st.integers(0, 2 * N)), min_size=1, max_size=6),
       st.tuples(st.integers(0, 2 * N), st.integers(0, 2 * N)))
@example(walls=[((2, 0, 2, 4), None)], starts=[(1, 2), (2, 14), (5, 12)], end=(6, 2))
def test_sure_lines_agree_with_the_polygons(walls, starts, end):
    """lines_surely's +1 and -1 are what each start's visibility polygon says; 0 is only ever unsure.

    Starts on half squares and those points nudged by 1e-6 (a space's corners, as lines of effect start
    from them), ends on half squares: lines through wall ends, along walls, and starts on walls abound.
    """
    from aoegrid.board.visibility import lines_surely

    noded = WallSet.build([ag.Wall(s[:2], s[2:], one_way=w) for s, w in walls], Channel.EFFECT)
    pts = np.array([(x / 2 + dx, y / 2 + dy) for x, y in starts for dx, dy in [(0, 0), (1e-6, 1e-6), (-1e-6, 1e-6)]])
    end = (end[0] / 2, end[1] / 2)
    sure = lines_surely(pts[:, 0], pts[:, 1], end, noded.segs, noded.one_way)
    for (x, y), answer in zip(pts, sure):
        try:
            seen = bool(visibility((x, y), noded.segs, noded.one_way, (-1, -1, N + 1, N + 1)).sees(*end))
        except ag.OriginOnWallError:
            seen = False  # a line of effect does not start inside a wall
        assert answer == 0 or (answer > 0) == seen, ((x, y), end, answer, seen)
