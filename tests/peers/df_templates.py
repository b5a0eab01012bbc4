"""The Foundry module DF Template Enhancements (``df-templates``) square-grid highlighting, ported for tests.

Which squares the module highlights under a circle or cone template on a
square grid, a line-by-line port of its ``highlightGrid`` override so
aoegrid's square areas can be compared with it square by square; test-only
reference code, not part of aoegrid.

Source: repository ``flamewave000/dragonflagon-fvtt``, commit
``29bfd3ab9e4c07be7ccaa3307a714cb379ec1590`` (2026-03-23; the files below last
changed in ``d167315bc10e75a977ace03786daa8f7424cc0e5``, "templates: Fix
rounding error"), module version 2.0.0 (Foundry V12, verified 12.331):

- ``df-templates/src/TemplateTargeting.mjs``: ``_MeasuredTemplate_highlightGrid``
  (registered with libWrapper as an ``OVERRIDE`` of
  ``MeasuredTemplate.prototype.highlightGrid``) and its private
  ``#_handleTouchTemplate``, the per-square test;
- ``df-templates/src/LineToBoxCollision.mjs``:
  ``cohenSutherlandLineClipAndDraw`` (ported with its quirks: a point on a
  side counts as outside, and a clipped end is put 1 px inside the box);
- ``df-templates/src/TemplateConfig.mjs``: ``HighlightMode`` (``"center"``,
  ``"touch"``, ``"points"``; the per-type setting defaults to ``"center"``
  for every type, the "D&D 5e" button sets circles to ``"center"`` and
  cones, rects and rays to ``"touch"``).

Foundry core is reused from :mod:`peers.foundry_square` /
:mod:`peers.foundry_hex`: the template's shape (``MeasuredTemplate#shape``:
a true ``PIXI.Circle``, a round cone's 3-degree-chord polygon or a flat
cone's triangle), ``getOffsetRange`` and ``getCenterPoint``.

What the module does on a square grid: the shape's bounds moved to the
template's origin and fitted to the canvas (not padded, unlike core) give the
range of squares; each square is highlighted if its centre is in the shape
(PIXI ``contains``: no +-1 px probes and no "origin square" rule, unlike
core V13). In ``"touch"`` (and ``"points"``, which differs only in token
targeting) a square whose centre is out is tested again against its box
shrunk by 0.1 px a side: a circle takes it if a corner of that box is
strictly within ``distance`` of the origin; a cone if either straight side
(from the origin out to ``distance``, or for a flat cone
``distance / cos(angle / 2)``) crosses the box, or, round, a corner of the
box is strictly within ``distance`` and strictly between the side angles,
or, flat, the far side crosses the box.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from peers.foundry_hex import Rectangle, normalize_degrees, template_shape
from peers.foundry_square import FoundrySquareGrid

#: ``HighlightMode`` values.
MODES = ("center", "touch", "points")

# LineToBoxCollision's OutCode.
_INSIDE, _LEFT, _RIGHT, _BOTTOM, _TOP = 0x0000, 0x0001, 0x0010, 0x0100, 0x1000


class Box:
    """The module's ``testRect``: ``left``, ``right``, ``top``, ``bottom`` of a PIXI rectangle."""

    def __init__(self, x: float, y: float, w: float, h: float, pad: float) -> None:
        self.left, self.top = x - pad, y - pad
        self.right, self.bottom = x + w + pad, y + h + pad

    def corners(self) -> tuple[tuple[float, float], ...]:
        """In the module's order: left-top, right-top, left-bottom, right-bottom."""
        return (
            (self.left, self.top),
            (self.right, self.top),
            (self.left, self.bottom),
            (self.right, self.bottom),
        )


def _out_code(x: float, y: float, b: Box) -> int:
    code = _INSIDE
    if x <= b.left:
        code |= _LEFT
    elif x >= b.right:
        code |= _RIGHT
    if y <= b.top:
        code |= _BOTTOM
    elif y >= b.bottom:
        code |= _TOP
    return code


def line_crosses_box(x0: float, y0: float, x1: float, y1: float, b: Box) -> bool:
    """``LineToBoxCollision.cohenSutherlandLineClipAndDraw``: does the segment meet the box?"""
    oc0, oc1 = _out_code(x0, y0, b), _out_code(x1, y1, b)
    for _ in range(64):  # the JS loops unbounded; it ends in a few passes on these boxes
        if not (oc0 | oc1):
            return True
        if oc0 & oc1:
            return False
        out = max(oc0, oc1)
        if out & _TOP:
            x = x0 + (x1 - x0) * (b.bottom - y0) / (y1 - y0)
            y = b.bottom - 1
        elif out & _BOTTOM:
            x = x0 + (x1 - x0) * (b.top - y0) / (y1 - y0)
            y = b.top + 1
        elif out & _RIGHT:
            y = y0 + (y1 - y0) * (b.right - x0) / (x1 - x0)
            x = b.right - 1
        else:  # LEFT
            y = y0 + (y1 - y0) * (b.left - x0) / (x1 - x0)
            x = b.left + 1
        if out == oc0:
            x0, y0 = x, y
            oc0 = _out_code(x0, y0, b)
        else:
            x1, y1 = x, y
            oc1 = _out_code(x1, y1, b)
    raise RuntimeError("Cohen-Sutherland clipping did not settle")


def df_templates_highlight(
    size_px: float,
    template: Mapping[str, Any],
    *,
    mode: str = "center",
    grid_distance: float = 5.0,
    cone_type: str = "round",
    canvas_rect: tuple[float, float, float, float] | None = None,
) -> set[tuple[int, int]]:
    """The squares ``(col, row)`` DF Templates highlights for a circle or cone on a square grid.

    ``template`` is as for :func:`peers.foundry_square.foundry_square_highlight`
    (``t`` ``"circle"`` or ``"cone"``, ``x``, ``y`` the document's origin in
    canvas px, ``distance``, ``direction`` and ``angle`` in degrees);
    ``mode`` the module's ``HighlightMode`` for that template type; ``cone_type``
    core's ``coneTemplateType`` setting (``"round"`` or ``"flat"``);
    ``canvas_rect`` the ``canvas.dimensions.rect`` (None: unbounded).

    Rect and ray templates are not ported (the module's rect test calls
    ``MeasuredTemplate.getRectShape`` with the distance in grid units, not px).

    Examples
    --------
    A 5-ft circle on the intersection (300, 300) of a 100 px grid: by centre
    the four squares round it; by touch the same, the next squares' nearest
    corners being 100 px away, not strictly within 100.

    >>> t = {"t": "circle", "x": 300, "y": 300, "distance": 5}
    >>> sorted(df_templates_highlight(100, t)) == sorted(df_templates_highlight(100, t, mode="touch"))
    True
    >>> len(df_templates_highlight(100, {**t, "distance": 10}, mode="touch"))
    16
    """
    if mode not in MODES:
        raise ValueError(f"not a DF Templates highlight mode: {mode!r}")
    t = template["t"]
    if t not in ("circle", "cone"):
        raise ValueError(f"only circle and cone templates are ported, not {t!r}")
    grid = FoundrySquareGrid.of(size_px, grid_distance)
    shape = template_shape(grid, template, cone_type=cone_type)  # type: ignore[arg-type]
    ox, oy = float(template["x"]), float(template["y"])
    to_px = size_px / grid_distance
    distance = float(template["distance"]) * to_px
    # The document's direction is an AngleField, stored in [0, 360).
    direction = math.radians(normalize_degrees(float(template.get("direction", 0))))
    angle = math.radians(float(template.get("angle", 0)))
    is_round = cone_type == "round"
    ray_length = (
        distance
        if is_round
        else (distance / math.sin((math.pi / 2) - (angle / 2))) * math.sin(math.pi / 2)
    )
    lo, hi = direction - (angle / 2), direction + (angle / 2)
    side1 = (ox, oy, ox + math.cos(lo) * ray_length, oy + math.sin(lo) * ray_length)
    side2 = (ox, oy, ox + math.cos(hi) * ray_length, oy + math.sin(hi) * ray_length)
    sqr_distance = distance * distance
    tau = math.pi * 2

    def within(x: float, y: float) -> bool:
        vx, vy = x - ox, y - oy
        return (vx * vx + vy * vy) < sqr_distance

    def in_angle(x: float, y: float) -> bool:
        vx, vy = x - ox, y - oy
        mag = math.sqrt(vx * vx + vy * vy)
        vec_angle = math.acos(vx / mag)
        if vy < 0:
            vec_angle = tau - vec_angle
        if lo < 0:
            return vec_angle < hi or vec_angle > tau + lo
        if hi > tau:
            return vec_angle < hi - tau or vec_angle > lo
        return lo < vec_angle < hi

    bounds = shape.get_bounds()
    bounds.x += ox
    bounds.y += oy
    if canvas_rect is not None:
        bounds.fit(Rectangle(*canvas_rect))
    i0, j0, i1, j1 = grid.get_offset_range(bounds)
    squares = set()
    for i in range(i0, i1):
        for j in range(j0, j1):
            cx, cy = grid.get_center_point(i, j)
            contains = shape.contains(cx - ox, cy - oy)
            if not contains and mode != "center":
                box = Box(j * size_px, i * size_px, size_px, size_px, -0.1)
                if t == "circle":
                    contains = any(within(x, y) for x, y in box.corners())
                else:
                    contains = line_crosses_box(*side1, box) or line_crosses_box(*side2, box)
                    if not contains:
                        if is_round:
                            contains = any(
                                within(x, y) and in_angle(x, y) for x, y in box.corners()
                            )
                        else:
                            contains = line_crosses_box(side1[2], side1[3], side2[2], side2[3], box)
            if contains:
                squares.add((j, i))
    return squares
