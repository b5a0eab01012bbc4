"""aoegrid's square circles and cones against the Foundry module DF Templates (peers/df_templates.py).

DF Template Enhancements (flamewave000/dragonflagon-fvtt, ``df-templates``)
replaces Foundry's ``highlightGrid`` with a per-type ``HighlightMode``:
``"center"`` (a square's centre in the template's shape, the default for
every type) or ``"touch"`` (also any square the shape meets, less 0.1 px a
side; ``"points"`` highlights as ``"touch"``, it differs in token targeting
only). Its "D&D 5e" button sets circles to ``"center"`` and cones to
``"touch"``. It has no "half" mode.

Pixels to map coordinates as in ``test_peer_foundry_square.py``: 100 px a
square, canvas pixel ``(px, py)`` is map point ``(px / 100, py / 100)``, the
module's squares are aoegrid's ``(col, row)``. Everything is placed on
intersections (where 5e templates snap) of an open 40 x 30 grid.

Mode to aoegrid rules: ``aoegrid.Rules.preset("sw5e").replace(inclusion=mode)``
(equidistant diagonals, which a Euclidean template ignores anyway); Foundry's
round 90-degree cone is aoegrid's ``"quarter-circle"`` cone, its flat
53.13-degree cone (the core default angle) aoegrid's 5e ``"triangle"``.
"""

import math
from functools import cache

import pytest
from peers.df_templates import Box, df_templates_highlight, line_crosses_box
from peers.foundry_square import foundry_square_highlight

import aoegrid as ag

SIZE = 100
W, H = 40, 30
CANVAS = (0, 0, W * SIZE, H * SIZE)
CIRCLE_FEET = (5, 10, 15, 20, 25, 30)
CONE_FEET = (15, 20, 25, 30)
DIRECTIONS = (0, 45, 90)  # degrees clockwise from east in both (y points down)
INTERSECTIONS = ((20, 15), (13, 17))
#: (Foundry coneTemplateType, cone angle, aoegrid cone kind)
CONES = {"round": (90, "quarter-circle"), "flat": (53.13, "triangle")}


def template(t, feet, at, **kw):
    return {"t": t, "x": at[0] * SIZE, "y": at[1] * SIZE, "distance": feet, **kw}


@cache
def df(t, feet, at, mode, direction=0, cone_type="round"):
    kw = {}
    if t == "cone":
        kw = {"direction": direction, "angle": CONES[cone_type][0]}
    return frozenset(
        df_templates_highlight(
            SIZE, template(t, feet, at, **kw), mode=mode, cone_type=cone_type, canvas_rect=CANVAS
        )
    )


@cache
def aoegrid(shape, at, inclusion=None):
    rules = ag.Rules.preset("sw5e")
    if inclusion is not None:
        rules = rules.replace(inclusion=inclusion)
    return frozenset(map(tuple, ag.area(shape, at=at, on=ag.Grid(W, H), rules=rules).squares))


def df_cone(feet, at, mode, direction, cone_type):
    return df("cone", feet, at, mode, direction, cone_type)


def ag_cone(feet, at, inclusion, direction, cone_type):
    return aoegrid(ag.Cone(feet, direction, kind=CONES[cone_type][1]), at, inclusion)


# -- the port ------------------------------------------------------------------------------------


def test_line_to_box_collision():
    box = Box(100, 100, 100, 100, -0.1)  # the module's testRect of square (1, 1)
    assert line_crosses_box(0, 0, 300, 300, box)  # through the middle
    assert line_crosses_box(150, 150, 500, 150, box)  # starts inside
    assert line_crosses_box(90, 130, 130, 90, box)  # cuts the top-left corner
    assert not line_crosses_box(0, 100, 300, 100, box)  # along the top side, 0.1 px off the box
    assert not line_crosses_box(0, 0, 90, 90, box)  # stops short
    assert not line_crosses_box(0, 200, 200, 0, box)  # meets the square at its corner only


def test_circle_centre_mode_is_foundry_core_on_intersections():
    # Core V13 adds +-1 px probes, which reach no centre from an intersection (centres are
    # at least 25 / n px off a circle of n squares).
    for at in INTERSECTIONS:
        for feet in CIRCLE_FEET:
            t = template("circle", feet, at)
            assert df("circle", feet, at, "center") == foundry_square_highlight(
                SIZE, t, canvas_rect=CANVAS
            )


def test_points_mode_highlights_as_touch_and_touch_adds_to_centre():
    for at in INTERSECTIONS:
        for feet in CIRCLE_FEET:
            t = template("circle", feet, at)
            assert df_templates_highlight(SIZE, t, mode="points") == df("circle", feet, at, "touch")
            assert df("circle", feet, at, "center") <= df("circle", feet, at, "touch")
    with pytest.raises(ValueError):
        df_templates_highlight(SIZE, template("rect", 10, (5, 5), direction=45), mode="touch")


def test_hand_worked_counts():
    # 10 ft from an intersection: centres in are the 12 of a 4 x 4 block less its corners;
    # by touch the corners too (nearest corner sqrt(2) squares away, inside 2).
    assert len(df("circle", 10, (20, 15), "center")) == 12
    assert len(df("circle", 10, (20, 15), "touch")) == 16
    # A 15-ft round 90-degree cone east by touch: a wedge, nothing behind the origin.
    east = df_cone(15, (20, 15), "touch", 0, "round")
    assert (20, 15) in east and (20, 14) in east and (19, 15) not in east


# -- aoegrid against DF Templates ----------------------------------------------------------------


@pytest.mark.parametrize("mode", ["center", "touch"])
def test_circles_match_in_both_modes(mode):
    """12 circles a mode (2 intersections, 5-30 ft): no difference.

    Centre: the module's ``PIXI.Circle#contains`` (closed) is aoegrid's centre
    rule. Touch: from an intersection a square's nearest point to the origin is
    a corner, so "a corner of the 0.1-px-shrunk box strictly inside" is
    "overlaps the disk with positive area", aoegrid's touch (a corner exactly
    on the circle, as the 3-4-5 corner at 25 ft, is out in both).
    """
    differ = [
        (at, feet)
        for at in INTERSECTIONS
        for feet in CIRCLE_FEET
        if df("circle", feet, at, mode) != aoegrid(ag.Sphere(feet), at, mode)
    ]
    assert differ == []


def test_touch_circles_against_aoegrids_half():
    """The module has no half mode: touch takes 0/4/4/8/8/20 squares more than sw5e's half."""
    extra = [
        len(df("circle", f, (20, 15), "touch") - aoegrid(ag.Sphere(f), (20, 15), "half"))
        for f in CIRCLE_FEET
    ]
    assert extra == [0, 4, 4, 8, 8, 20]
    for f in CIRCLE_FEET:
        assert aoegrid(ag.Sphere(f), (20, 15), "half") <= df("circle", f, (20, 15), "touch")
    # 10 ft: the 4 corner squares of the 4 x 4 block, a sliver of the disk each.
    assert sorted(
        df("circle", 10, (20, 15), "touch") - aoegrid(ag.Sphere(10), (20, 15), "half")
    ) == [(18, 13), (18, 16), (21, 13), (21, 16)]


@pytest.mark.parametrize("cone_type", ["round", "flat"])
def test_cones_match_by_touch(cone_type):
    """24 cones a kind (2 intersections, 15-30 ft, east, south-east, south): no difference.

    The module's touch test (straight sides clipped against the shrunk box,
    then the round end cap by corners in range and angle, or the flat far side
    clipped) is aoegrid's touch on the quarter circle and on the 5e triangle.
    """
    differ = [
        (at, feet, d)
        for at in INTERSECTIONS
        for feet in CONE_FEET
        for d in DIRECTIONS
        if df_cone(feet, at, "touch", d, cone_type) != ag_cone(feet, at, "touch", d, cone_type)
    ]
    assert differ == []


def _side_angle(square, at):
    cx, cy = square[0] + 0.5 - at[0], square[1] + 0.5 - at[1]
    return math.degrees(math.atan2(cy, cx))


def test_cones_by_centre_lose_the_centres_on_their_sides():
    """By centre the module only ever highlights fewer: 102 squares over 48 cones.

    - Round cones east and south (78 = 2 x (21 + 18)): centres exactly on a
      straight side at +-45 degrees, (0.5, 0.5) squares out and so on.
      PIXI's even-odd ``Polygon#contains`` decides a point on an edge by float
      rounding (the side ends at ``cos``/``sin`` of 45 degrees): of the 104
      on-side centres of these 16 cones it drops 78 (all 26 on the south-east
      side east, 16 of 26 on the north-east side east, 10 of 26 on the
      south-east side south, all 26 on the south-west side south); aoegrid's
      centre rule is closed and keeps all. Core Foundry's +-1 px probes put them
      back (``test_peer_foundry_square.py`` matches). South-east, the sides
      run along grid lines and no centre is on them: no difference.
    - Flat 53.13-degree cones south-east (24 = 2 x 12): the centres at
      atan(1/3) and atan(3) from the axis, on the 5e triangle's sides (2 x
      atan(1/2) = 53.1301 degrees wide) but 0.00005 degrees outside Foundry's
      53.13. East and south no centre lies on a side (slope 1/2 from an
      intersection).
    """
    lost = {}
    for cone_type in CONES:
        for at in INTERSECTIONS:
            for d in DIRECTIONS:
                for feet in CONE_FEET:
                    theirs = df_cone(feet, at, "center", d, cone_type)
                    ours = ag_cone(feet, at, "center", d, cone_type)
                    assert theirs <= ours
                    lost.setdefault((cone_type, d), set()).update(
                        (at, feet, sq) for sq in ours - theirs
                    )
    counts = {k: len(v) for k, v in lost.items()}
    assert counts == {
        ("round", 0): 42, ("round", 45): 0, ("round", 90): 36,
        ("flat", 0): 0, ("flat", 45): 24, ("flat", 90): 0,
    }  # fmt: skip
    for (cone_type, d), squares in lost.items():
        half = 45 if cone_type == "round" else math.degrees(math.atan(0.5))
        for at, _, sq in squares:
            assert min(abs(_side_angle(sq, at) - (d + s * half)) for s in (-1, 1)) < 1e-9
    # A few exactly: east from (20, 15), 15 ft round; south-east 15 ft flat.
    at = (20, 15)
    assert sorted(
        ag_cone(15, at, "center", 0, "round") - df_cone(15, at, "center", 0, "round")
    ) == [(20, 15), (21, 16)]
    assert sorted(
        ag_cone(15, at, "center", 45, "flat") - df_cone(15, at, "center", 45, "flat")
    ) == [(20, 16), (21, 15)]


def test_the_modules_5e_button_against_the_sw5e_preset():
    """Circles by centre, flat 53.13-degree cones by touch, against sw5e as it is (half, triangle).

    Circles: from an intersection no square is cut near half by the circle,
    centre and half agree, and so the module's circles match sw5e. Cones: touch adds 136 squares over the 24 cones, the
    ones the sides cut through with less than half inside; none less.
    """
    for at in INTERSECTIONS:
        for f in CIRCLE_FEET:
            assert df("circle", f, at, "center") == aoegrid(ag.Sphere(f), at)
    extra = 0
    for at in INTERSECTIONS:
        for feet in CONE_FEET:
            for d in DIRECTIONS:
                theirs = df_cone(feet, at, "touch", d, "flat")
                ours = aoegrid(ag.Cone(feet, d), at)
                assert ours <= theirs
                extra += len(theirs - ours)
    assert extra == 136
    east = df_cone(15, (20, 15), "touch", 0, "flat") - aoegrid(ag.Cone(15, 0), (20, 15))
    assert sorted(east) == [(20, 14), (20, 15), (22, 13), (22, 16)]
