"""caewok's Foundry module "Walled Templates": its square-grid highlighting, ported to Python for tests.

Which squares the module highlights (and auto-targets by) under a circle
template on a square grid, with and without walls, so aoegrid's square areas
can be compared with it square by square. Test-only reference code, not part
of aoegrid.

Source: repository ``caewok/fvtt-walled-templates`` (v0.9.6 line), commit
``a598291d74218b99f46bb5af7e277db71e542610`` (2026-04-07):

- ``scripts/MeasuredTemplate.js``: the wrap of
  ``MeasuredTemplate#_getGridHighlightPositions``, the new method
  ``MeasuredTemplate#boundsOverlap`` and ``boundsShapeIntersection``;
- ``scripts/settings.js``: ``autotarget-method`` (``"center"`` or
  ``"overlap"``, default ``"center"``), ``autotarget-area`` (0 to 1, default
  0), each overridable per shape; ``default_<shape>`` walls-block setting
  (``"unwalled"`` by default, ``"walled"`` or ``"recurse"``);
- ``scripts/template_shapes/WalledTemplateShape.js`` /
  ``WalledTemplateCircle.js``: a walled template's shape is a
  ``ClockwiseSweepPolygon`` from the origin bounded by the circle
  (``computeSweep``), translated to the origin;
- ``scripts/util.js``: ``gridShapeForTopLeft`` (the grid square as a
  ``Square`` of ``canvas.dimensions.size``).

What the module does (``_getGridHighlightPositions``):

- method ``"center"``: it returns Foundry core's positions unchanged
  (``wrapper()``). Unwalled, that is exactly core's highlighting, so this port
  defers to :func:`peers.foundry_square.foundry_square_highlight`. Walled,
  core's test runs on the sweep polygon instead of the circle: a square is
  highlighted if its centre is within 1 px (Chebyshev) of the origin, or one of
  the 9 probes (centre +-1 px) is inside the polygon.
- method ``"overlap"``: core's positions for the shape's bounds padded by one
  square are the candidates, and each square is kept if the area of its
  intersection with the shape is not ``almostEqual`` 0 (and the intersection
  has at least 3 vertices) and is ``> area * square area`` or ``almostEqual``
  to it (``Number#almostEqual``: within 1e-8).

Modelling choices (documented departures, none of which changes a result in
the tests):

- Foundry clips circles with polygons whose vertices lie on the circle (an arc
  approximated to within about a pixel). Here the circle is exact: the overlap
  area is computed in closed form, containment is ``x^2 + y^2 <= r^2``.
- Walls: the sweep of a circle is the part of the disk visible from the
  origin. Only walls that cross the disk completely (both ends outside it) or
  miss it are supported: the visible part is then the disk cut by each such
  wall's line, kept on the origin's side. A wall ending inside the disk raises
  ``ValueError`` (its shadow is a wedge: not ported). The
  ``"recurse"`` mode (spreading round wall corners) is not ported.
- The squares tested walled are those of the circle's bounds (a superset of the
  sweep polygon's): only which squares are tried changes, not which pass.

Canvas pixels are ``(x, y)`` with y down; squares are returned as aoegrid's
``(col, row)``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from peers.foundry_hex import PROBES, Rectangle, js_round
from peers.foundry_square import FoundrySquareGrid, foundry_square_highlight

Point = tuple[float, float]
Segment = tuple[Point, Point]

#: Foundry's ``Number#almostEqual`` default epsilon.
EPSILON = 1e-8

METHODS = ("center", "overlap")


def _almost_equal(a: float, b: float) -> bool:
    return abs(a - b) <= EPSILON


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


class WalledCircle:
    """A circle of ``radius`` px at ``(0, 0)`` cut by walls that cross it: the walled sweep polygon.

    ``walls`` are segments in template-relative px. Each wall meeting the open
    disk must have both ends outside it; it then keeps the half-plane on the
    origin's side of its line. ``contains`` is the sweep polygon's test for a
    point off its sides (the tests keep probes off the wall lines).
    """

    def __init__(self, radius: float, walls: Iterable[Segment] = ()) -> None:
        self.radius = radius
        self.cuts: list[tuple[Point, Point, float]] = []
        r2 = radius * radius
        for a, b in walls:
            if not _segment_meets_disk(a, b, radius):
                continue
            if a[0] ** 2 + a[1] ** 2 <= r2 or b[0] ** 2 + b[1] ** 2 <= r2:
                raise ValueError(
                    "a wall ending inside the circle: its shadow is not ported"
                )
            side = _cross(a, b, (0.0, 0.0))
            if side == 0:
                raise ValueError("a wall through the origin")
            self.cuts.append((a, b, math.copysign(1.0, side)))

    def contains(self, x: float, y: float) -> bool:
        if self.radius <= 0 or x * x + y * y > self.radius * self.radius:
            return False
        return all(_cross(a, b, (x, y)) * s > 0 for a, b, s in self.cuts)

    def get_bounds(self) -> Rectangle:
        r = self.radius
        return Rectangle(-r, -r, r * 2, r * 2)

    def overlap_area(self, square: Sequence[Point]) -> tuple[float, int]:
        """Area of the shape's intersection with a convex polygon, and its number of vertices (3+ or 0)."""
        poly = list(square)
        for a, b, s in self.cuts:
            poly = _clip(poly, a, b, s)
            if len(poly) < 3:
                return 0.0, 0
        return _polygon_disk_area(poly, self.radius), len(poly)


def _segment_meets_disk(a: Point, b: Point, r: float) -> bool:
    """Whether the segment comes strictly closer than ``r`` to the origin."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, -(a[0] * dx + a[1] * dy) / ll))
    px, py = a[0] + t * dx, a[1] + t * dy
    return px * px + py * py < r * r


def _clip(poly: list[Point], a: Point, b: Point, s: float) -> list[Point]:
    """Sutherland-Hodgman: the part of a convex polygon on side ``s`` of the line ``ab``."""
    out: list[Point] = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        fp, fq = _cross(a, b, p) * s, _cross(a, b, q) * s
        if fp >= 0:
            out.append(p)
        if (fp >= 0) != (fq >= 0) and fp != fq:
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    # Drop repeats (a vertex on the line).
    dedup = [p for i, p in enumerate(out) if p != out[i - 1]] if len(out) > 1 else out
    return dedup


def _polygon_disk_area(poly: Sequence[Point], r: float) -> float:
    """Exact area of a simple polygon's intersection with the disk of radius ``r`` at the origin."""
    total = 0.0
    n = len(poly)
    for i in range(n):
        total += _triangle_disk_area(poly[i], poly[(i + 1) % n], r)
    return abs(total)


def _triangle_disk_area(a: Point, b: Point, r: float) -> float:
    """Signed area of the triangle (origin, a, b) within the disk: pieces inside are triangles, outside sectors."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    qa = dx * dx + dy * dy
    if qa == 0:
        return 0.0
    qb = 2 * (a[0] * dx + a[1] * dy)
    qc = a[0] * a[0] + a[1] * a[1] - r * r
    ts = [0.0]
    disc = qb * qb - 4 * qa * qc
    if disc > 0:
        sq = math.sqrt(disc)
        ts += sorted(t for t in ((-qb - sq) / (2 * qa), (-qb + sq) / (2 * qa)) if 0 < t < 1)
    ts.append(1.0)
    area = 0.0
    for t0, t1 in itertools.pairwise(ts):
        p = (a[0] + t0 * dx, a[1] + t0 * dy)
        q = (a[0] + t1 * dx, a[1] + t1 * dy)
        tm = (t0 + t1) / 2
        mx, my = a[0] + tm * dx, a[1] + tm * dy
        cr = p[0] * q[1] - p[1] * q[0]
        if mx * mx + my * my <= r * r:
            area += cr / 2
        else:
            area += r * r * math.atan2(cr, p[0] * q[0] + p[1] * q[1]) / 2
    return area


def walled_templates_highlight(
    size_px: float,
    template: Mapping[str, Any],
    *,
    method: str = "center",
    area: float = 0.0,
    walls: Iterable[Segment] = (),
    grid_distance: float = 5.0,
    canvas_rect: tuple[float, float, float, float] | None = None,
) -> set[tuple[int, int]]:
    """The squares ``(col, row)`` Walled Templates highlights for a template on a square grid.

    ``template`` is as for :func:`peers.foundry_square.foundry_square_highlight`
    (``t``, ``x``, ``y`` in canvas px, stored rounded, ``distance`` in grid
    units...). ``method`` is the module's ``autotarget-method`` (``"center"``
    or ``"overlap"``), ``area`` its ``autotarget-area`` (the share of a square
    the overlap must reach, 0 to 1). ``walls`` are segments in canvas px; any
    wall makes the template "walled" (only circles are supported then, and
    with ``"overlap"``). Unwalled ``"center"`` is Foundry core's highlighting,
    for every template type.

    Examples
    --------
    A 5-ft circle on the intersection (300, 300) of a 100 px grid covers some
    of the 4 squares round it and touches the next ones only at a point:

    >>> sorted(walled_templates_highlight(100, {"t": "circle", "x": 300, "y": 300, "distance": 5}, method="overlap"))
    [(2, 2), (2, 3), (3, 2), (3, 3)]
    """
    if method not in METHODS:
        raise ValueError(f"not a Walled Templates autotarget method: {method!r}")
    walls = list(walls)
    if method == "center" and not walls:
        return foundry_square_highlight(
            size_px, template, grid_distance=grid_distance, canvas_rect=canvas_rect
        )
    if template["t"] != "circle":
        raise ValueError("walls and the overlap method are ported for circles only")
    grid = FoundrySquareGrid.of(size_px, grid_distance)
    ox, oy = js_round(float(template["x"])), js_round(float(template["y"]))
    radius = float(template["distance"]) / grid_distance * size_px
    rel = [((a[0] - ox, a[1] - oy), (b[0] - ox, b[1] - oy)) for a, b in walls]
    shape = WalledCircle(radius, rel)

    def core_range(bounds: Rectangle) -> tuple[int, int, int, int]:
        bounds.x += ox
        bounds.y += oy
        if canvas_rect is not None:
            bounds.fit(Rectangle(*canvas_rect))
        bounds.pad(1)
        return grid.get_offset_range(bounds)

    probes = PROBES[13]
    squares: set[tuple[int, int]] = set()
    if method == "center":
        i0, j0, i1, j1 = core_range(shape.get_bounds())
        for i in range(i0, i1):
            for j in range(j0, j1):
                cx, cy = grid.get_center_point(i, j)
                if max(abs(cx - ox), abs(cy - oy)) < 1 or any(
                    shape.contains(cx - ox + dx, cy - oy + dy) for dx in probes for dy in probes
                ):
                    squares.add((j, i))
        return squares

    # "overlap": core's positions for the bounds padded by a square, then filtered by area.
    padded = shape.get_bounds().pad(size_px)
    i0, j0, i1, j1 = core_range(padded.get_bounds())
    target = size_px * size_px * area
    for i in range(i0, i1):
        for j in range(j0, j1):
            cx, cy = grid.get_center_point(i, j)
            if not any(
                padded.contains(cx - ox + dx, cy - oy + dy) for dx in probes for dy in probes
            ):
                continue
            x0, y0 = j * size_px - ox, i * size_px - oy
            x1, y1 = x0 + size_px, y0 + size_px
            p_area, n = shape.overlap_area([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
            if n < 3 or _almost_equal(p_area, 0):
                continue
            if p_area > target or _almost_equal(p_area, target):
                squares.add((j, i))
    return squares
