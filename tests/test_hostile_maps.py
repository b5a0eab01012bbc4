"""Hostile maps (issues 10 and 17): duplicates, self-crossing and dense polylines, far and huge walls.

Each reproducer from the issue, with the answer it must give: the answer of the
same map drawn cleanly. Costs follow what lies on or near the map.
"""

import io
import json
import math
import re
import subprocess
import sys
import types
from fractions import Fraction

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.board._boxes import SegmentGrid
from aoegrid.board.visibility import visibility
from aoegrid.board.walls import Channel, WallSet, clip, tidy
from aoegrid.geometry.raster import Window
from aoegrid.geometry.regions import EPS


def wall_set(m):
    return m.wallset("effect")


# --- far and huge walls --------------------------------------------------------------


@pytest.mark.parametrize("length", [1e7, 1e20, 1e154, 1e200, 1e308])
@pytest.mark.parametrize("both_far", [False, True])
def test_a_far_wall_acts_as_its_part_on_the_map(length, both_far):
    start = (-length, -length) if both_far else (0.0, 0.0)
    m = ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall(start, (length, length))])
    near = ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall((0, 0), (30, 30))])
    a = ag.area(ag.Sphere(20), at=(10, 5), on=m, rules="pf2e")
    assert len(a) == 44
    assert a.squares == ag.area(ag.Sphere(20), at=(10, 5), on=near, rules="pf2e").squares
    # Clipped one square beyond the map's edge, exactly on the diagonal.
    lower = -1.0 if both_far else 0.0
    assert wall_set(m).segs.tolist() == [[lower, lower, 21.0, 21.0]]
    assert m.notes == ["1 wall clipped to the map (one square beyond its edge)"]
    with pytest.raises(ag.OriginOnWallError, match=r"point of origin \(5, 5\) lies on the wall"):
        ag.area(ag.Sphere(20), at=(5, 5), on=m, rules="pf2e")


def test_clipping_is_exact_at_any_size():
    rect = (-1.0, -1.0, 21.0, 21.0)
    segs = np.array([
        [-1e308, 5.0, 1e308, 5.0],  # across, both ends far
        [5.0, 5.0, -1.7e308, 3e300],  # from the map out to the far left
        [30.0, 7.5, -30.0, 7.5],  # direction kept (one-way walls need it)
        [-1e308, -1e308, -1e300, 1e308],  # wholly off
        [3.0, 4.0, 5.0, 6.0],  # wholly inside: kept bit for bit
    ])
    pieces, which, cut = clip(segs, rect)
    # The cut end of row 1 is where the line from (5, 5) through (-1.7e308, 3e300) meets x = -1.
    y = Fraction(5) + Fraction(-6) / (Fraction(-1.7e308) - 5) * (Fraction(3e300) - 5)
    assert pieces.tolist() == [
        [-1.0, 5.0, 21.0, 5.0],
        [5.0, 5.0, -1.0, float(y)],
        [21.0, 7.5, -1.0, 7.5],
        [3.0, 4.0, 5.0, 6.0],
    ]
    assert which.tolist() == [0, 1, 2, 4] and cut.tolist() == [True, True, True, False]


def test_walls_off_the_map_are_dropped_and_counted():
    walls = [ag.Wall((-5, -5), (-3, 40)), ag.Wall((2, 2), (2, 2)), ag.Wall((0, 3), (-4, 3)), ag.Wall((1, 1), (4, 1))]
    m = ag.BattleMap(ag.Grid(10, 10), walls=walls)
    ws = wall_set(m)
    # (0, 3)-(-4, 3) touches the map's edge: it is kept, cut one square out.
    assert (ws.outside, ws.dropped, ws.clipped) == (1, 1, 1)
    assert sorted(ws.segs.tolist()) == [[-1.0, 3.0, 0.0, 3.0], [1.0, 1.0, 4.0, 1.0]]
    assert m.notes == [
        "1 wall clipped to the map (one square beyond its edge)",
        "1 wall wholly off the map dropped",
        "1 zero-length wall dropped",
    ]


def test_a_line_along_the_map_edge_is_still_blocked_by_a_wall_crossing_it():
    # The wall crosses the edge x = 0 at (0, 7): the margin keeps that a crossing, not an end.
    m = ag.BattleMap(ag.Grid(10, 10), walls=[ag.Wall((-3, 7), (2, 7))])
    vis = wall_set(m).visibility((0.0, 5.0), (-1.0, -1.0, 11.0, 11.0))
    assert vis.sees(np.array([0.0, 0.0]), np.array([6.0, 8.0])).tolist() == [True, False]
    with pytest.raises(ag.OriginOnWallError):
        ag.area(ag.Sphere(10), at=(0, 7), on=m, rules="sw5e")


# --- duplicates and overlaps ------------------------------------------------------------


def test_ten_thousand_duplicate_walls_are_one():
    wall = ag.Wall((3.5, 1.0), (3.5, 9.0))
    copies = [wall] * 5_000 + [ag.Wall(wall.end, wall.start)] * 5_000
    m = ag.BattleMap(ag.Grid(20, 20), walls=copies)
    one = ag.BattleMap(ag.Grid(20, 20), walls=[wall])
    assert wall_set(m).merged == 9_999 and wall_set(m).segs.tolist() == [[3.5, 1.0, 3.5, 9.0]]
    assert m.notes == ["9,999 duplicate or overlapping walls merged"]
    for mode in ("burst", "spread"):
        a = ag.area(ag.Sphere(20), at=(2, 5), on=m, mode=mode)
        # The open burst's 36 squares less the 8 of columns 4 and 5, behind the wall.
        assert a.squares == ag.area(ag.Sphere(20), at=(2, 5), on=one, mode=mode).squares
        assert len(a) == 28 and max(x for x, _ in a.squares) == 3


def test_a_hundred_thousand_short_polylines():
    # The issue's .dd2vtt: 100,000 two-point polylines, 10 distinct ones.
    walls = [((k % 10, (k * 7) % 10), (k % 10 + 0.25, (k * 7) % 10 + 0.25)) for k in range(100_000)]
    m = ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall(a, b) for a, b in walls])
    distinct = ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall(a, b) for a, b in walls[:10]])
    assert wall_set(m).merged == 99_990 and len(wall_set(m).segs) == 10
    a = ag.area(ag.Sphere(20), at=(10, 5), on=m)
    assert len(a) == 44 and a.squares == ag.area(ag.Sphere(20), at=(10, 5), on=distinct).squares


def test_collinear_walls_merge_when_they_overlap_not_when_they_touch():
    t = tidy([ag.Wall((0, 0), (2, 2)), ag.Wall((3, 3), (1, 1)), ag.Wall((3, 3), (5, 5)), ag.Wall((0, 4), (4, 4))])
    assert t.merged == 1
    assert sorted(t.segs.tolist()) == [[0.0, 0.0, 3.0, 3.0], [0.0, 4.0, 4.0, 4.0], [3.0, 3.0, 5.0, 5.0]]
    # The shared end of two touching walls is a wall's end: an origin may stand there.
    m = ag.BattleMap(ag.Grid(8, 8), walls=[ag.Wall((1, 4), (4, 4)), ag.Wall((4, 4), (7, 4))])
    assert len(ag.area(ag.Sphere(5), at=(4, 4), on=m, rules="sw5e")) == 4
    overlapping = ag.BattleMap(ag.Grid(8, 8), walls=[ag.Wall((1, 4), (5, 4)), ag.Wall((4, 4), (7, 4))])
    with pytest.raises(ag.OriginOnWallError):
        ag.area(ag.Sphere(5), at=(4, 4), on=overlapping, rules="sw5e")


def test_collinear_walls_merge_side_by_side_into_walls_that_do_not_overlap():
    # A one-way wall, its copy, the same wall drawn the other way round (so blocking its left),
    # and a two-way wall over part of them: blocked from both sides there, from one elsewhere.
    right = ag.Wall((5, 0), (5, 8), one_way="right")
    t = tidy([right, right, ag.Wall((5, 8), (5, 0), one_way="left"), ag.Wall((5, 4), (5, 2))])
    assert t.merged == 3
    assert sorted(zip(t.segs.tolist(), t.one_way.tolist())) == [
        ([5.0, 0.0, 5.0, 2.0], 1), ([5.0, 2.0, 5.0, 4.0], 0), ([5.0, 4.0, 5.0, 8.0], 1)
    ]
    # Walls one-way to opposite sides block both where they overlap. A wall turned round to
    # run from its lower end blocks the same side: "left" of (6, 1) -> (2, 1) is +1 of (2, 1) -> (6, 1).
    t = tidy([ag.Wall((0, 1), (4, 1), one_way="left"), ag.Wall((6, 1), (2, 1), one_way="left")])
    assert t.merged == 1
    assert sorted(zip(t.segs.tolist(), t.one_way.tolist())) == [
        ([0.0, 1.0, 2.0, 1.0], -1), ([2.0, 1.0, 4.0, 1.0], 0), ([4.0, 1.0, 6.0, 1.0], 1)
    ]
    # Walls meeting end to end stay as they are, whatever they block.
    t = tidy([ag.Wall((0, 3), (2, 3), one_way="right"), ag.Wall((4, 3), (2, 3))])
    assert t.merged == 0
    assert sorted(zip(t.segs.tolist(), t.one_way.tolist())) == [([0.0, 3.0, 2.0, 3.0], 1), ([2.0, 3.0, 4.0, 3.0], 0)]


# --- self-crossing polylines -------------------------------------------------------------


def random_polyline(points, seed=7):
    return np.random.default_rng(seed).uniform(0, 20, size=(points, 2))


def cross(a, b, c, d):
    """Whether segments a-b and c-d (rows of points, paired) cross properly."""

    def orient(p, q, r):
        return np.sign((q[..., 0] - p[..., 0]) * (r[..., 1] - p[..., 1]) - (q[..., 1] - p[..., 1]) * (r[..., 0] - p[..., 0]))

    return (orient(a, b, c) * orient(a, b, d) < 0) & (orient(c, d, a) * orient(c, d, b) < 0)


def proper_crossings(walk):
    """How many pairs of the polyline's segments cross properly (brute force)."""
    a, b = walk[:-1], walk[1:]
    i, j = np.triu_indices(len(a), k=2)  # neighbours share an end, no crossing
    return int(cross(a[i], b[i], a[j], b[j]).sum())


def test_a_thousand_point_self_crossing_polyline():
    walk = random_polyline(1000)
    m = ag.BattleMap(ag.Grid(20, 20), walls=[walk.tolist()])
    ws = wall_set(m)
    # Every crossing cuts both its segments once.
    assert len(ws.segs) == 999 + 2 * proper_crossings(walk) == 236_473
    vis = ws.visibility((10.0, 5.0), (4.0, -1.0, 16.0, 11.0))
    window = Window(6, 1, 8, 8)
    assert np.argwhere(vis.fraction(window) > EPS).tolist() == [[3, 3], [3, 4], [4, 3], [4, 4]]


@pytest.mark.parametrize("origin", [(10.0, 5.0), (3.3, 17.1), (0.0, 0.0), (20.0, 11.0), (0.0, 13.5)])
def test_a_crowded_frame_gives_the_visibility_of_all_its_walls(origin):
    walk = random_polyline(300)
    ws = wall_set(ag.BattleMap(ag.Grid(20, 20), walls=[walk.tolist()]))
    frame, window = (-1.0, -1.0, 21.0, 21.0), Window(0, 0, 20, 20)
    assert len(ws.indices(frame)) == 19_997  # crowded: searched outward from the origin
    fast = ws.visibility(origin, frame)
    full = visibility(origin, *ws.near(frame), frame)
    np.testing.assert_allclose(fast.fraction(window), full.fraction(window), atol=1e-12)
    assert np.array_equal(fast.blocked_corners(window), full.blocked_corners(window))


# --- dense walls and crossings past the memory budget (issue 17) --------------------------


def round_wall(points):
    """A circle of radius 4 round (5, 5) as one polyline of ``points`` points (the last on the first)."""
    turn = np.linspace(0, 2 * math.pi, points)
    return np.column_stack([5 + 4 * np.cos(turn), 5 + 4 * np.sin(turn)])


def test_a_round_wall_of_twenty_thousand_points_answers_a_first_burst():
    # 800 points a square of wall: each segment is paired with its neighbours, not with every
    # segment within 8 squares (which asked 1.76 GiB).
    m = ag.BattleMap(ag.Grid(10, 10), walls=[round_wall(20_000).tolist()])
    burst = ag.area(ag.Sphere(20), at=(5, 5), on=m)
    assert len(burst) == 44 and burst.squares == ag.area(ag.Sphere(20), at=(5, 5), on=m.grid).squares
    # Each segment meets its neighbours end to end only: all are taken as they are.
    assert m._prepared.walls.settled.tolist() == [1] * 19_999


@st.composite
def mixed_segments(draw):
    """Segments from a thousandth of a square to 40 squares long, a few of them points or off the map."""
    n = draw(st.integers(1, 60))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    start = rng.uniform(-2, 22, (n, 2))
    length = 10.0 ** rng.uniform(-3, 1.6, n) * rng.choice([0.0, 1.0], n, p=[0.05, 0.95])
    turn = rng.uniform(0, 2 * math.pi, n)
    return np.hstack([start, start + length[:, None] * np.column_stack([np.cos(turn), np.sin(turn)])])


@settings(max_examples=60, deadline=None)
@given(segs=mixed_segments(), seed=st.integers(0, 2**32 - 1))
def test_the_segment_index_finds_what_a_brute_force_finds(segs, seed):
    """Queries, pairs of boxes (each pair once), and crossings counted, against all pairs tested."""
    grid = SegmentGrid(segs, (0.0, 0.0, 20.0, 20.0))
    box = np.column_stack([np.minimum(segs[:, :2], segs[:, 2:]), np.maximum(segs[:, :2], segs[:, 2:])])
    on = np.flatnonzero((box[:, 0] <= 20) & (box[:, 2] >= 0) & (box[:, 1] <= 20) & (box[:, 3] >= 0))
    rng = np.random.default_rng(seed)
    for x0, y0 in rng.uniform(-1, 21, (5, 2)):
        q = (x0, y0, x0 + rng.uniform(0, 8), y0 + rng.uniform(0, 0.01))
        want = on[(box[on, 0] <= q[2]) & (box[on, 2] >= q[0]) & (box[on, 1] <= q[3]) & (box[on, 3] >= q[1])]
        assert grid.query(q).tolist() == want.tolist()
    i, j = np.triu_indices(len(on), k=1)
    i, j = on[i], on[j]
    meet = (box[i, 0] <= box[j, 2]) & (box[j, 0] <= box[i, 2]) & (box[i, 1] <= box[j, 3]) & (box[j, 1] <= box[i, 3])
    found = [(int(k), int(m)) for left, right in grid.pairs(grid.boxes(on), on) for k, m in zip(on[left], right)]
    assert sorted(tuple(sorted(p)) for p in found) == sorted(zip(i[meet].tolist(), j[meet].tolist()))
    crossing = cross(segs[i][:, :2], segs[i][:, 2:], segs[j][:, :2], segs[j][:, 2:])
    assert grid.crossings(on, len(on) ** 2) == (int(crossing.sum()), len(on))


def zigzag_file(tmp_path, points):
    """A Universal VTT map of 20 x 20 squares holding one random polyline of ``points`` points."""
    data = {
        "format": 0.3,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 20, "y": 20}, "pixels_per_grid": 64},
        "line_of_sight": [[{"x": x, "y": y} for x, y in random_polyline(points).tolist()]],
    }
    path = tmp_path / "zigzag.dd2vtt"
    path.write_text(json.dumps(data))
    return path


def test_walls_crossing_past_the_memory_budget_are_refused_before_splitting(monkeypatch, tmp_path):
    # 2**28 bytes hold 932,067 pieces of 288 bytes; the 5,000-point zigzag's 2.9 million
    # crossings make 5.9 million. Counted in a random order, the walls counted tell the total.
    monkeypatch.setattr("aoegrid.board.walls.memory_budget", lambda: 2**28)
    path = zigzag_file(tmp_path, 5_000)
    m = ag.load_map(path)
    message = (r": the walls cross at least 558,589 times \(about 2,726,940 in all\): split there, they make "
               r"1,122,177 pieces or more, more than the 932,067 that fit in the 0.25 GiB a map may take on this "
               r"machine \(half of its memory, at 288 bytes a piece\); draw fewer walls crossing one another$")
    with pytest.raises(ag.InvalidValueError, match="^" + re.escape(str(path)) + message):
        ag.area(ag.Sphere(20), at=(10, 5), on=m)
    with pytest.raises(ag.InvalidValueError, match="^" + re.escape(str(path)) + message):
        m.wallset("effect")
    from aoegrid.cli import main

    err = io.StringIO()
    assert main(["area", str(path), "--shape", "sphere", "--size", "20", "--at", "10,5"], stderr=err) == 2
    assert re.match("aoegrid: error: " + re.escape(str(path)) + message, err.getvalue())


def test_walls_are_split_exactly_when_their_pieces_fit_the_budget(monkeypatch):
    # The 1,000-point zigzag splits into 999 + 2 * 117,737 pieces.
    walk = random_polyline(1000).tolist()
    monkeypatch.setattr("aoegrid.board.walls.memory_budget", lambda: 236_473 * 288)
    assert len(wall_set(ag.BattleMap(ag.Grid(20, 20), walls=[walk])).segs) == 236_473
    monkeypatch.setattr("aoegrid.board.walls.memory_budget", lambda: 236_472 * 288)
    # Every wall counted, the count is the whole (no "about").
    refused = (r"^the walls cross at least 117,737 times: split there, they make "
               r"236,473 pieces or more, more than the 236,472 that fit")
    with pytest.raises(ag.InvalidValueError, match=refused):
        wall_set(ag.BattleMap(ag.Grid(20, 20), walls=[walk]))


# --- splitting and spread steps ------------------------------------------------------------


def test_splitting_in_chunks_finds_every_crossing(monkeypatch):
    rows = [ag.Wall((0, k + 0.5), (60, k + 0.5)) for k in range(60)] + [ag.Wall((k + 0.5, 0), (k + 0.5, 60)) for k in range(60)]
    whole = WallSet.build(rows, Channel.EFFECT)
    monkeypatch.setattr("aoegrid.board._boxes.BLOCK", 7)
    chunked = WallSet.build(rows, Channel.EFFECT)
    # 120 lines, each cut by the 60 across it into 61 pieces.
    assert len(whole.segs) == len(chunked.segs) == 120 * 61
    assert sorted(map(tuple, whole.segs.tolist())) == sorted(map(tuple, chunked.segs.tolist()))


# --- notes -------------------------------------------------------------------------------


def test_notes_join_the_files_notes_and_what_preparing_the_walls_did():
    info = types.SimpleNamespace(notes=("no format field: read as Universal VTT 0.3",))
    walls = [ag.Wall((1, 1), (1, 5))] * 3
    m = ag.BattleMap(ag.Grid(8, 8), walls=walls, info=info)
    assert m.notes == ["no format field: read as Universal VTT 0.3", "2 duplicate or overlapping walls merged"]
    assert ag.BattleMap(ag.Grid(8, 8), walls=walls[:1]).notes == []


# --- the property: hostile copies of clean walls give the clean answers --------------------


@st.composite
def hostile_maps(draw):
    """A clean map and the same walls drawn hostilely: copies, reversed copies,
    overlapping collinear pieces, ends pushed 2**40 times farther out, shuffled."""
    width, height = draw(st.integers(6, 12)), draw(st.integers(6, 12))
    clean, hostile = [], []
    for _ in range(draw(st.integers(1, 6))):
        a = (draw(st.integers(-3, width + 3)), draw(st.integers(-3, height + 3)))
        d = draw(st.tuples(st.integers(-3, 3), st.integers(-3, 3)).filter(lambda v: v != (0, 0)))
        k = draw(st.integers(1, 5))
        way = draw(st.sampled_from([None, None, "left", "right"]))

        def at(i, a=a, d=d):
            return (float(a[0] + i * d[0]), float(a[1] + i * d[1]))

        clean.append(ag.Wall(at(0), at(k), one_way=way))
        # Pushed out only where the whole extension stays off the map (and its margin):
        # an extension back across the map would be another wall, not the same one.
        extension = shapely.LineString([at(k), at(k * 2**40)])
        beyond = not extension.intersects(shapely.box(-1, -1, width + 1, height + 1))
        kinds = draw(st.lists(st.sampled_from(["copy", "reverse", "piece", "far"]), max_size=3))
        hostile.append(ag.Wall(at(0), at(k * 2**40) if "far" in kinds and beyond else at(k), one_way=way))
        for kind in kinds:
            if kind == "copy":
                hostile.append(ag.Wall(at(0), at(k), one_way=way))
            elif kind == "reverse" and way is None:
                hostile.append(ag.Wall(at(k), at(0)))
            elif kind == "piece":
                i = draw(st.integers(0, k - 1))
                hostile.append(ag.Wall(at(i), at(draw(st.integers(i + 1, k))), one_way=way))
    hostile = draw(st.permutations(hostile))
    origin = (draw(st.integers(0, width - 1)) + 0.37, draw(st.integers(0, height - 1)) + 0.61)
    return ag.Grid(width, height), clean, hostile, origin


def answers(grid, walls, origin):
    m = ag.BattleMap(grid, walls=walls)
    try:
        burst = ag.area(ag.Sphere(20), at=origin, on=m, rules="sw5e")
        spread = ag.area(ag.Sphere(20), at=origin, on=m, rules="sw5e", mode="spread")
    except ag.OriginOnWallError:
        return None
    return burst.squares, burst.visible, spread.squares, ag.line_of_effect(m, origin)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_maps())
def test_hostile_walls_give_the_answers_of_the_clean_ones(case):
    grid, clean, hostile, origin = case
    want, got = answers(grid, clean, origin), answers(grid, hostile, origin)
    assert (want is None) == (got is None)
    if want is None:
        return
    assert got[0] == want[0] and got[2] == want[2]
    np.testing.assert_allclose(got[1], want[1], atol=1e-9)
    np.testing.assert_allclose(got[3], want[3], atol=1e-9)
    # Clipping changes nothing on the map: the clean walls kept whole give the same.
    frame = (-1.0, -1.0, grid.width + 1.0, grid.height + 1.0)
    whole = WallSet.build(clean, Channel.EFFECT)
    unclipped = visibility(origin, *whole.near(frame), frame).fraction(Window(0, 0, grid.width, grid.height))
    np.testing.assert_allclose(want[3], unclipped, atol=1e-9)
    assert math.isfinite(float(unclipped.sum()))


# --- regions take settled walls as they are (issue 11: first queries) ---------------------


@st.composite
def lattice_maps(draw):
    """Rooms on a lattice (walls meeting end to end, doorways), then hostile extras: copies,
    collinear pieces overlapping, touching or a hair apart, T-junctions, crossings, one-way
    copies, sight-only walls."""
    cell = draw(st.sampled_from([3, 4, 5]))
    walls = []
    for i in range(0, 13, cell):
        for j in range(0, 13, cell):
            for horizontal in (True, False):
                if draw(st.integers(0, 3)) == 0:
                    continue  # a doorway
                a, b = (float(j), float(j + cell)), (float(i), float(i))
                walls.append(ag.Wall((a[0], b[0]), (a[1], b[1])) if horizontal else ag.Wall((b[0], a[0]), (b[1], a[1])))
    extras = []
    for _ in range(draw(st.integers(0, 4))):
        w = draw(st.sampled_from(walls)) if walls else ag.Wall((1.0, 1.0), (4.0, 1.0))
        (x0, y0), (x1, y1) = w.start, w.end
        kind = draw(st.sampled_from(["copy", "piece", "hair", "tee", "cross", "one-way", "sight"]))
        f = draw(st.sampled_from([0.25, 0.5, 0.75]))
        mx, my = x0 + f * (x1 - x0), y0 + f * (y1 - y0)
        if kind == "copy":
            extras.append(ag.Wall(w.end, w.start))
        elif kind == "piece":
            extras.append(ag.Wall((mx, my), (x1 + (x1 - x0) / 2, y1 + (y1 - y0) / 2)))
        elif kind == "hair":  # collinear, apart by less than rounding can tell from touching
            extras.append(ag.Wall((x1 + (x1 - x0) * 1e-14, y1 + (y1 - y0) * 1e-14), (x1 + x1 - x0, y1 + y1 - y0)))
        elif kind == "tee":
            extras.append(ag.Wall((mx, my), (mx + (y1 - y0), my - (x1 - x0))))
        elif kind == "cross":
            extras.append(ag.Wall((mx - (y1 - y0) / 2, my + (x1 - x0) / 2), (mx + (y1 - y0) / 2, my - (x1 - x0) / 2)))
        elif kind == "one-way":
            extras.append(ag.Wall(w.start, w.end, one_way="left"))
        else:
            extras.append(ag.Wall(w.start, w.end, blocks={"sight"}))
    return draw(st.permutations(walls + extras))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walls=lattice_maps(), frames=st.lists(st.tuples(*[st.integers(-1, 13)] * 4), min_size=1, max_size=4),
       tile=st.sampled_from([1, 2, 3, 32]))
def test_a_region_of_a_tidy_map_takes_its_settled_walls_as_they_are(walls, frames, tile):
    """Regions prepared in any order give the whole map's walls there, to the bit."""
    grid = ag.Grid(12, 12)
    m, whole = ag.BattleMap(grid, walls=walls), ag.BattleMap(grid, walls=walls)
    m._prepared.walls.TILE = tile
    for x0, y0, x1, y1 in frames:
        frame = (float(min(x0, x1)), float(min(y0, y1)), float(max(x0, x1)), float(max(y0, y1)))
        for channel in ("effect", "sight"):
            got = m.walls_near(channel, frame).near(frame)
            want = whole.wallset(channel).near(frame)
            assert sorted(zip(map(tuple, got[0].tolist()), got[1].tolist())) == sorted(
                zip(map(tuple, want[0].tolist()), want[1].tolist())
            )


def test_walls_meeting_end_to_end_are_settled_and_those_a_hair_apart_are_not():
    walls = [ag.Wall((0, 5), (4, 5)), ag.Wall((4, 5), (9, 5)), ag.Wall((4, 0), (4, 5))]  # an L and a T-free corner
    hair = [ag.Wall((0, 8), (4, 8)), ag.Wall((4 + 1e-13, 8), (9, 8))]
    m = ag.BattleMap(ag.Grid(12, 12), walls=walls + hair)
    prepared = m._prepared.walls
    m.walls_near("effect", (0, 0, 12, 12))
    assert prepared.settled.tolist() == [1, 1, 1, 0, 0]
    tee = ag.BattleMap(ag.Grid(12, 12), walls=[*walls, ag.Wall((2, 5), (2, 9))])
    tee.walls_near("effect", (0, 0, 12, 12))
    assert tee._prepared.walls.settled.tolist() == [0, 1, 1, 0]  # (2, 5) is inside the first wall


MEMORY_CHILD = """
import io, os, resource, sys
import numba  # loaded before the limit, as a long session has it
os.environ["AOEGRID_KERNELS"] = "compiled"  # small maps too, so the warm-up loads them
import aoegrid as ag
from aoegrid.cli import main
ag.area(ag.Sphere(20), at=(10, 5), on=ag.load_map(sys.argv[2]))  # the kernels, loaded and warm
size = int([line for line in open("/proc/self/status") if line.startswith("VmSize")][0].split()[1]) * 1024
resource.setrlimit(resource.RLIMIT_AS, (size + 150 * 2**20, resource.RLIM_INFINITY))
err = io.StringIO()
code = main(["area", sys.argv[1], "--shape", "sphere", "--size", "20", "--at", "10,5"], stderr=err)
print(code, err.getvalue(), end="")
"""


def test_a_map_past_this_machines_memory_is_named_in_one_line(tmp_path):
    # Within the budget a map may take (half the machine's memory) but past what this process may
    # allocate: the command line names the file.
    (tmp_path / "big").mkdir(), (tmp_path / "small").mkdir()
    big, small = zigzag_file(tmp_path / "big", 2_000), zigzag_file(tmp_path / "small", 600)
    done = subprocess.run([sys.executable, "-c", MEMORY_CHILD, str(big), str(small)], capture_output=True,
                          text=True, timeout=120, check=True)
    assert done.stdout == f"2 aoegrid: error: {big}: the map is too large to compute on this machine (MemoryError)\n"
