"""aoegrid's square circles against the Foundry module Walled Templates (peers/walled_templates.py).

Walled Templates (caewok/fvtt-walled-templates) highlights a square either by
Foundry core's centre test (its default ``autotarget-method`` ``"center"``) or
by how much of the square the template covers (``"overlap"``, with an
``autotarget-area`` share, default 0: any area). Unwalled, ``"center"`` is
core's highlighting (:func:`peers.foundry_square.foundry_square_highlight`);
walled, every method is run on the part of the circle visible from the origin.

Pixels to map coordinates as in ``test_peer_foundry_square.py``: 100 px a
square, canvas pixel ``(px, py)`` is map point ``(px / 100, py / 100)``, the
module's squares are aoegrid's ``(col, row)``.

Method to aoegrid inclusion: ``"center"`` is ``inclusion="center"``,
``"overlap"`` at 0 is ``"touch"``, ``"overlap"`` at 0.5 is ``"half"``.
"""

import math
from functools import cache

import pytest
from peers.foundry_square import foundry_square_highlight
from peers.walled_templates import WalledCircle, walled_templates_highlight

import aoegrid as ag

SIZE = 100
W, H = 24, 24
CANVAS = (0, 0, W * SIZE, H * SIZE)
FEET = (5, 10, 15, 20, 25, 30)
INTERSECTIONS = ((12, 12), (11, 13))
#: (Walled Templates method, autotarget area, aoegrid inclusion)
PAIRS = (("center", 0.0, "center"), ("overlap", 0.0, "touch"), ("overlap", 0.5, "half"))
#: Walls (map coordinates) crossing every circle of 10-30 ft at both intersections, both ends outside.
WALLS = {
    "upright": ((13.3, 5.0), (13.3, 20.0)),
    "slanted": ((2.0, 19.0), (22.0, 11.6)),
}


def circle(feet, x, y):
    return {"t": "circle", "x": x * SIZE, "y": y * SIZE, "distance": feet}


def wt(feet, at, method, area=0.0, wall=None):
    walls = [] if wall is None else [tuple((p[0] * SIZE, p[1] * SIZE) for p in wall)]
    return frozenset(
        walled_templates_highlight(
            SIZE, circle(feet, *at), method=method, area=area, walls=walls, canvas_rect=CANVAS
        )
    )


@cache
def aoegrid(feet, at, inclusion, wall=None):
    grid = ag.Grid(W, H)
    on = grid if wall is None else ag.BattleMap(grid, walls=[ag.Wall(*wall)])
    rules = ag.Rules.preset("sw5e").replace(inclusion=inclusion)
    return frozenset(map(tuple, ag.area(ag.Sphere(feet), at=at, on=on, rules=rules).squares))


# -- the port ------------------------------------------------------------------------------------


def test_center_unwalled_is_foundry_core():
    for at in INTERSECTIONS + ((12.5, 12.5),):
        for feet in FEET:
            t = circle(feet, *at)
            assert walled_templates_highlight(
                SIZE, t, canvas_rect=CANVAS
            ) == foundry_square_highlight(SIZE, t, canvas_rect=CANVAS)
    cone = {"t": "cone", "x": 1200, "y": 1200, "distance": 15, "direction": 45, "angle": 90}
    assert walled_templates_highlight(SIZE, cone) == foundry_square_highlight(SIZE, cone)


def test_overlap_areas_and_thresholds():
    # 5 ft from an intersection: a quarter disk (pi/4 = 78.5 %) in each of the 4 squares round it,
    # the next squares met at a point only (zero area: out even at 0 %).
    four = [(11, 11), (11, 12), (12, 11), (12, 12)]
    assert sorted(wt(5, (12, 12), "overlap", 0.0)) == four
    assert sorted(wt(5, (12, 12), "overlap", 0.785)) == four
    assert wt(5, (12, 12), "overlap", 0.786) == frozenset()
    # The exact area the filter uses.
    shape = WalledCircle(100.0)
    area, n = shape.overlap_area([(0, 0), (100, 0), (100, 100), (0, 100)])
    assert n == 4 and area == pytest.approx(math.pi * 100**2 / 4, rel=1e-12)
    # A wall at x = 30 px keeps the 30 px strip: 30 * 100 px^2 of the square, wholly inside r = 200.
    walled = WalledCircle(200.0, [((30, -300), (30, 300))])
    assert walled.overlap_area([(0, 0), (100, 0), (100, 100), (0, 100)])[0] == pytest.approx(3000)
    assert walled.contains(29, 0) and not walled.contains(31, 0)
    with pytest.raises(ValueError, match="ending inside"):
        WalledCircle(200.0, [((30, -100), (30, 300))])
    with pytest.raises(ValueError, match="not a Walled Templates autotarget method"):
        walled_templates_highlight(SIZE, circle(5, 1, 1), method="half")


def test_a_wall_cuts_the_highlight():
    # 10 ft from (12, 12) with a wall at x = 12.3: the column beyond it (x >= 13) is dark for all
    # methods; column 12 keeps a 30 % strip: in for "overlap" at 0, out for the centre and 50 %.
    wall = ((12.3, 5.0), (12.3, 20.0))
    touch = wt(10, (12, 12), "overlap", 0.0, wall)
    assert sorted(touch) == [(10, 10), (10, 11), (10, 12), (10, 13), (11, 10), (11, 11), (11, 12), (11, 13),
                             (12, 10), (12, 11), (12, 12), (12, 13)]  # fmt: skip
    assert touch == {sq for sq in wt(10, (12, 12), "overlap", 0.0) if sq[0] <= 12}
    centre = wt(10, (12, 12), "center", 0.0, wall)
    assert sorted(centre) == [(10, 11), (10, 12), (11, 10), (11, 11), (11, 12), (11, 13)]
    assert centre == wt(10, (12, 12), "overlap", 0.5, wall)
    assert centre == {sq for sq in wt(10, (12, 12), "center") if sq[0] < 12}


# -- aoegrid against Walled Templates -------------------------------------------------------------


def test_open_circles_at_intersections_match_every_method():
    """36 comparisons (3 methods, 2 intersections, 5-30 ft): no difference.

    Centre: as Foundry core (test_peer_foundry_square.py). Overlap at 0: a
    square with some area in the circle, aoegrid's ``touch``; squares met at a
    point only (a corner exactly on the circle: 5 ft, and 25 ft's 3-4-5
    corners) are out for both. Overlap at 50 %: aoegrid's ``half``; no square's
    share is within the module's 1e-8 px^2 of half.
    """
    differ = [
        (method, area, at, feet)
        for method, area, inclusion in PAIRS
        for at in INTERSECTIONS
        for feet in FEET
        if wt(feet, at, method, area) != aoegrid(feet, at, inclusion)
    ]
    assert differ == []


def _probes_off_walls():
    """No probe (centre +-1 px) of a square near the circles lies on a wall's line (PIXI's edge case)."""
    for (x0, y0), (x1, y1) in WALLS.values():
        for col in range(W):
            for row in range(H):
                for dx in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        px, py = (col + 0.5) * SIZE + dx, (row + 0.5) * SIZE + dy
                        cross = (x1 - x0) * SIZE * (py - y0 * SIZE) - (y1 - y0) * SIZE * (
                            px - x0 * SIZE
                        )
                        if abs(cross) < 1e-6:
                            return False
    return True


def _walled_differences():
    out = {}
    for name, wall in WALLS.items():
        for method, area, inclusion in PAIRS:
            for at in INTERSECTIONS:
                for feet in FEET[1:]:
                    ours, theirs = (
                        aoegrid(feet, at, inclusion, wall),
                        wt(feet, at, method, area, wall),
                    )
                    out[name, inclusion, at, feet] = (ours - theirs, theirs - ours)
    return out


def test_walled_circles_differ_only_where_the_wall_cuts_a_square():
    """60 comparisons (2 walls, 3 methods, 2 intersections, 10-30 ft).

    aoegrid keeps a square of the open area that some straight line from the
    origin reaches; Walled Templates applies its test to the visible part of
    the circle. So ``touch`` and overlap-at-0 agree square for square (a
    square keeps some visible area exactly when a line reaches it), while for
    ``center`` and ``half`` aoegrid keeps, and the module drops, the squares
    the wall cuts whose centre (or half) is in the circle but beyond the wall:
    a sliver on the origin's side is reached. Never the other way round.
    """
    assert _probes_off_walls()
    diffs = _walled_differences()
    # Nothing the module has and aoegrid lacks.
    assert all(not theirs for ours, theirs in diffs.values())
    count = {
        inc: sum(len(ours) for (_, i, _, _), (ours, _) in diffs.items() if i == inc)
        for _, _, inc in PAIRS
    }
    assert count == {"center": 101, "touch": 0, "half": 101}
    per_wall = {
        name: sum(
            len(ours) for (n, i, _, _), (ours, _) in diffs.items() if n == name and i == "center"
        )
        for name in WALLS
    }
    assert per_wall == {"upright": 66, "slanted": 35}
    # A few exactly: the column the upright wall at x = 13.3 cuts (70 % beyond it) ...
    assert sorted(diffs["upright", "center", (12, 12), 10][0]) == [(13, 11), (13, 12)]
    # ... and the squares along the slanted wall with their centres beyond it.
    assert sorted(diffs["slanted", "center", (12, 12), 20][0]) == [(11, 15), (12, 15), (14, 14)]
    assert sorted(diffs["slanted", "half", (11, 13), 15][0]) == [(11, 15), (12, 15)]
    # Every such square: centre (half) beyond the wall, yet some of it visible and in the circle.
    for (name, inc, at, feet), (ours, _) in diffs.items():
        if inc == "touch":
            continue
        visible = wt(feet, at, "overlap", 0.0, WALLS[name])
        open_area = aoegrid(feet, at, inc)
        assert ours <= visible & open_area
