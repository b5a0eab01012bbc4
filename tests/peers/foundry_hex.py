"""Foundry VTT core's hex-grid highlighting of MeasuredTemplates, ported to Python for tests.

Which hexes Foundry highlights under a circle, cone, ray or rect template on a
hexagonal grid (scene grid types 2-5). A line-by-line port of Foundry's
client code, so aoegrid's hex areas can be compared with it hex by hex; it
is test-only reference code, not part of aoegrid.

Source (Foundry's code is not on GitHub under its own name; these are public
copies of the distributed client):

* Foundry VTT V13 build 351 (``package.json`` release generation 13, build
  351), repository ``umplacable/foundryVTT``, commit
  ``052bb61d03fe2dbabf628ec120a285bb99cf3f98``:

  - ``foundryvtt/client/canvas/placeables/template.mjs``:
    ``MeasuredTemplate#_refreshShape``, ``_computeShape``, ``getCircleShape``,
    ``getConeShape``, ``getRectShape``, ``getRayShape``,
    ``_getGridHighlightPositions`` and ``testPoint``;
  - ``foundryvtt/common/grid/hexagonal.mjs``: ``HexagonalGrid``
    (``getOffset``, ``getOffsetRange``, ``getCenterPoint``,
    ``getTranslatedPoint``, ``getCircle``, ``cubeRound``, ``pointToCube``,
    ``cubeToOffset``);
  - ``foundryvtt/common/grid/base.mjs``: ``BaseGrid#getCone``;
  - ``foundryvtt/common/utils/geometry.mjs``: ``lineLineIntersection``;
  - ``foundryvtt/common/primitives/math.mjs``: ``SQRT3``, ``SQRT1_3``,
    ``normalizeDegrees``, ``normalizeRadians``;
  - ``foundryvtt/common/documents/measured-template.mjs``: ``x`` and ``y``
    are integer fields (``NumberField#_cleanType`` rounds them with
    ``Math.round``), ``direction`` is a normalised ``AngleField``;
  - ``foundryvtt/client/canvas/extensions/{polygon,rectangle}-extension.mjs``:
    Foundry's ``getBounds`` and ``normalize``;
  - ``foundryvtt/node_modules/@pixi/math/lib/shapes/{Circle,Polygon,Rectangle}.mjs``
    (PIXI 7.4.3): ``contains``, ``fit``, ``pad``, ``getBounds``.

* Foundry V12's ``_getGridHighlightPositions`` differs from V13's only in the
  points tested around each hex centre: the centre and its 8 neighbours
  +-0.5 px away (V13's ``testPoint`` uses +-1 px). The V12 body is quoted
  verbatim by several modules (e.g. ``getGridHighlightPositions`` in the
  PTR2e system, ``getOccupiedSpaces`` in drag-ruler forks) and described in
  foundryvtt/foundryvtt issue #11558 ("a fudge factor of a half pixel",
  2024-08, which added ``testPoint`` for V13). The grid and shape code is
  V13's for both versions: V12 introduced this grid API (``HexagonalGrid`` in
  ``common/grid``) and the "Grid-based Template Shapes" setting, but no
  public copy of V12's ``hexagonal.mjs`` was found to diff against.

What Foundry does (``MeasuredTemplate#highlightGrid`` on a hex grid):

1. The template's shape is built around ``(0, 0)`` in pixels: by default
   ("Grid-based Template Shapes", ``core.gridTemplates``, off) a true
   ``PIXI.Circle`` of radius ``distance * size / grid.distance``, a round cone
   (a polygon with a ray every 3 degrees, ``core.coneTemplateType`` "round")
   or a flat one, a ``PIXI.Rectangle`` from the origin to the ray's end
   (``rect``: ``distance`` is the diagonal), or a rotated rectangle
   ``width`` wide (``ray``). With grid templates on, circles are the
   hex-distance hexagon (``HexagonalGrid#getCircle``), cones are cut from it
   (``BaseGrid#getCone``) and lengths are measured in hex steps
   (``getTranslatedPoint``).
2. Every hex in the offset range of the shape's bounds (fitted to the canvas,
   padded by 1 px) is highlighted if its centre is within 1 px (Chebyshev, not
   inclusive) of the template's origin, or if any of 9 points (the centre and
   +-0.5 px in x and y in V12, +-1 px in V13) is inside the shape by PIXI's
   ``contains`` (``Circle``: distance <= radius; ``Rectangle``: half-open,
   left/top edges in, right/bottom out; ``Polygon``: even-odd crossing test).

Pixel coordinates are Foundry's canvas coordinates. On hex grids Foundry's
offset ``{i, j}`` is (row, column) from the canvas origin: in row layouts
(pointy-top, types 2 and 3) hex ``i=0, j=0`` has its centre at
``(0, size / sqrt(3))`` in odd layouts and ``(size / 2, size / sqrt(3))`` in
even ones; in column layouts (flat-top, 4 and 5) at ``(size / sqrt(3), 0)``
odd and ``(size / sqrt(3), size / 2)`` even. ``size`` is the hex's flat-to-flat
width (Foundry's ``grid.size``). The result is the ``(col, row)`` =
``(j, i)`` of each highlighted hex.

Python floats are IEEE doubles as JavaScript numbers are, and arithmetic is
done in the same order as Foundry's, so results agree bit for bit, except
that ``math.cos``/``math.sin``/``math.atan2`` may differ from V8's in the last
ulp: a test point within ~1e-13 px of a shape's edge could then flip.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Foundry's ``Math.SQRT3`` and ``Math.SQRT1_3`` (common/primitives/math.mjs), as literals there.
SQRT3 = 1.7320508075688772
SQRT1_3 = 0.5773502691896257

#: Red Blob layout names of Foundry's hex grid types (``CONST.GRID_TYPES``).
LAYOUTS = {"odd-r": 2, "even-r": 3, "odd-q": 4, "even-q": 5}

#: The offsets Foundry adds to a hex centre's x and y to test 9 points, by major version.
PROBES = {12: (-0.5, 0.0, 0.5), 13: (-1.0, 0.0, 1.0)}

Point = tuple[float, float]


def js_round(x: float) -> int:
    """JavaScript's ``Math.round``: halves go up (``-2.5 -> -2``), unlike Python's ``round``."""
    f = math.floor(x)
    return f + 1 if x - f >= 0.5 else f


def normalize_degrees(degrees: float) -> float:
    """Foundry's ``Math.normalizeDegrees``: the angle in ``[0, 360)`` (JS ``%`` is ``fmod``)."""
    d = math.fmod(degrees, 360)
    return d + 360 if d < 0 else d


def normalize_radians(radians: float) -> float:
    """Foundry's ``Math.normalizeRadians``: the angle in ``[-pi, pi)``."""
    pi2 = math.pi * 2
    return radians - (pi2 * math.floor((radians + math.pi) / pi2))


def to_radians(degrees: float) -> float:
    """Foundry's ``Math.toRadians``."""
    return degrees * (math.pi / 180)


def from_angle(x: float, y: float, radians: float, distance: float) -> Point:
    """The end ``B`` of Foundry's ``Ray.fromAngle(x, y, radians, distance)``."""
    return (x + (math.cos(radians) * distance), y + (math.sin(radians) * distance))


def line_line_intersection(a: Point, b: Point, c: Point, d: Point) -> Point:
    """Foundry's ``lineLineIntersection`` of the lines ``ab`` and ``cd`` (both infinite)."""
    dnm = (d[1] - c[1]) * (b[0] - a[0]) - (d[0] - c[0]) * (b[1] - a[1])
    if dnm == 0 or a == b or c == d:
        raise ValueError("parallel or degenerate lines: Foundry returns null and then throws")
    t0 = ((d[0] - c[0]) * (a[1] - c[1]) - (d[1] - c[1]) * (a[0] - c[0])) / dnm
    return (a[0] + t0 * (b[0] - a[0]), a[1] + t0 * (b[1] - a[1]))


# -- PIXI shapes ----------------------------------------------------------------------------------


@dataclass
class Rectangle:
    """``PIXI.Rectangle`` with the methods the highlighting uses."""

    x: float
    y: float
    width: float
    height: float

    def contains(self, x: float, y: float) -> bool:
        if self.width <= 0 or self.height <= 0:
            return False
        return self.x <= x < self.x + self.width and self.y <= y < self.y + self.height

    def normalize(self) -> Rectangle:
        """Foundry's ``PIXI.Rectangle#normalize``: flip negative sides."""
        if self.width < 0:
            self.x += self.width
            self.width = abs(self.width)
        if self.height < 0:
            self.y += self.height
            self.height = abs(self.height)
        return self

    def get_bounds(self) -> Rectangle:
        """Foundry's ``PIXI.Rectangle#getBounds`` (normalised)."""
        x = self.x if self.width > 0 else self.x + self.width
        y = self.y if self.height > 0 else self.y + self.height
        return Rectangle(x, y, abs(self.width), abs(self.height))

    def fit(self, other: Rectangle) -> Rectangle:
        x1, x2 = max(self.x, other.x), min(self.x + self.width, other.x + other.width)
        y1, y2 = max(self.y, other.y), min(self.y + self.height, other.y + other.height)
        self.x, self.width = x1, max(x2 - x1, 0)
        self.y, self.height = y1, max(y2 - y1, 0)
        return self

    def pad(self, p: float) -> Rectangle:
        self.x -= p
        self.y -= p
        self.width += p * 2
        self.height += p * 2
        return self


@dataclass
class Circle:
    """``PIXI.Circle`` centred at ``(0, 0)``, as templates build it."""

    radius: float

    def contains(self, x: float, y: float) -> bool:
        if self.radius <= 0:
            return False
        r2 = self.radius * self.radius
        dx, dy = 0 - x, 0 - y
        return dx * dx + dy * dy <= r2

    def get_bounds(self) -> Rectangle:
        r = self.radius
        return Rectangle(-r, -r, r * 2, r * 2)


@dataclass
class Polygon:
    """``PIXI.Polygon`` with Foundry's ``getBounds``; ``points`` is a flat ``[x0, y0, x1, ...]``."""

    points: list[float]

    def contains(self, x: float, y: float) -> bool:
        inside = False
        pts = self.points
        n = len(pts) // 2
        j = n - 1
        for i in range(n):
            xi, yi, xj, yj = pts[i * 2], pts[i * 2 + 1], pts[j * 2], pts[j * 2 + 1]
            if ((yi > y) != (yj > y)) and x < (xj - xi) * ((y - yi) / (yj - yi)) + xi:
                inside = not inside
            j = i
        return inside

    def get_bounds(self) -> Rectangle:
        pts = self.points
        if len(pts) < 2:
            return Rectangle(0, 0, 0, 0)
        xs, ys = pts[0::2], pts[1::2]
        return Rectangle(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


Shape = Rectangle | Circle | Polygon


def _flat(points: list[Point]) -> list[float]:
    return [v for p in points for v in p]


# -- the hex grid ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FoundryHexGrid:
    """Foundry's ``HexagonalGrid`` (common/grid/hexagonal.mjs), the parts highlighting uses.

    ``size`` is ``grid.size`` (px, flat-to-flat), ``distance`` ``grid.distance``
    (units per hex), ``columns`` true for flat-top (types 4, 5), ``even`` for
    the even layouts (3, 5).
    """

    size: float
    columns: bool
    even: bool
    distance: float = 5.0

    @classmethod
    def of(cls, layout: str | int, size: float, distance: float = 5.0) -> FoundryHexGrid:
        """The grid of a layout name (``"odd-r"``...) or Foundry grid type (2-5)."""
        t = LAYOUTS[layout] if isinstance(layout, str) else layout
        if t not in (2, 3, 4, 5):
            raise ValueError(f"not a Foundry hex grid type: {layout!r}")
        return cls(size, columns=t in (4, 5), even=t in (3, 5), distance=distance)

    @property
    def size_x(self) -> float:
        return self.size * (2 * SQRT1_3) if self.columns else self.size

    @property
    def size_y(self) -> float:
        return self.size if self.columns else self.size * (2 * SQRT1_3)

    @staticmethod
    def cube_round(q: float, r: float, s: float) -> tuple[int, int, int]:
        iq, ir, is_ = js_round(q), js_round(r), js_round(s)
        dq, dr, ds = abs(iq - q), abs(ir - r), abs(is_ - s)
        if dq > dr and dq > ds:
            iq = -ir - is_
        elif dr > ds:
            ir = -iq - is_
        else:
            is_ = -iq - ir
        return iq, ir, is_

    def point_to_cube(self, x: float, y: float) -> tuple[float, float, float]:
        x /= self.size
        y /= self.size
        if self.columns:
            q = ((2 * SQRT1_3) * x) - (2 / 3)
            r = (-0.5 * (q + (1 if self.even else 0))) + y
        else:
            r = ((2 * SQRT1_3) * y) - (2 / 3)
            q = (-0.5 * (r + (1 if self.even else 0))) + x
        return q, r, 0 - q - r

    def cube_to_offset(self, q: int, r: int) -> tuple[int, int]:
        """``(i, j)``: Foundry's (row, column)."""
        sign = 1 if self.even else -1
        if self.columns:
            return r + ((q + sign * (q & 1)) >> 1), q
        return r, q + ((r + sign * (r & 1)) >> 1)

    def get_offset(self, x: float, y: float) -> tuple[int, int]:
        q, r, _ = self.cube_round(*self.point_to_cube(x, y))
        return self.cube_to_offset(q, r)

    def get_offset_range(self, b: Rectangle) -> tuple[int, int, int, int]:
        """``[i0, j0, i1, j1]``: the half-open row and column ranges meeting the rectangle."""
        x0, y0 = b.x, b.y
        i00, j00 = self.get_offset(x0, y0)
        if not (b.width > 0 and b.height > 0):
            return i00, j00, i00, j00
        x1, y1 = b.x + b.width, b.y + b.height
        i01, j01 = self.get_offset(x1, y0)
        i10, j10 = self.get_offset(x0, y1)
        i11, j11 = self.get_offset(x1, y1)
        i0, j0 = min(i00, i01, i10, i11), min(j00, j01, j10, j11)
        i1, j1 = max(i00, i01, i10, i11) + 1, max(j00, j01, j10, j11) + 1
        # Foundry widens the range where the rectangle's edges cut rows or columns its corners
        # miss; the conditions are kept exactly as written there (including j00 % 2 in the second).
        sx, sy = self.size_x, self.size_y
        if self.columns:
            if i00 == i01 and j00 < j01 and ((j00 % 2) != 0) != self.even and y0 < i00 * sy:
                i0 -= 1
            if i10 == i11 and j10 < j11 and ((j00 % 2) != 0) == self.even and y1 > (i10 + 0.5) * sy:
                i1 += 1
            if j00 == j10 and i00 < i10 and x0 < ((j00 * 0.75) + 0.25) * sx:
                j0 -= 1
            if j01 == j11 and i01 < i11 and x1 > ((j01 * 0.75) + 0.75) * sx:
                j1 += 1
        else:
            if j00 == j10 and i00 < i10 and ((i00 % 2) != 0) != self.even and x0 < j00 * sx:
                j0 -= 1
            if j01 == j11 and i01 < i11 and ((i00 % 2) != 0) == self.even and x1 > (j01 + 0.5) * sx:
                j1 += 1
            if i00 == i01 and j00 < j01 and y0 < ((i00 * 0.75) + 0.25) * sy:
                i0 -= 1
            if i10 == i11 and j10 < j11 and y1 > ((i10 * 0.75) + 0.75) * sy:
                i1 += 1
        return i0, j0, i1, j1

    def get_center_point(self, i: int, j: int) -> Point:
        size = self.size
        if self.columns:
            x = (2 * SQRT1_3) * (((0.75 * j) + 0.5) * size)
            even = (j + 1) % 2 == 0
            y = (i + (0 if self.even == even else 0.5)) * size
        else:
            y = (2 * SQRT1_3) * (((0.75 * i) + 0.5) * size)
            even = (i + 1) % 2 == 0
            x = (j + (0 if self.even == even else 0.5)) * size
        return x, y

    def get_translated_point(self, point: Point, direction: float, distance: float) -> Point:
        """The point ``distance`` grid units (hex steps) from ``point`` in ``direction`` degrees."""
        direction = to_radians(direction)
        dx, dy = math.cos(direction), math.sin(direction)
        if self.columns:
            q = (2 * SQRT1_3) * dx
            r = (-0.5 * q) + dy
        else:
            r = (2 * SQRT1_3) * dy
            q = (-0.5 * r) + dx
        s = distance / self.distance * self.size / ((abs(r) + abs(q) + abs(q + r)) / 2)
        return point[0] + (dx * s), point[1] + (dy * s)

    def get_circle(self, center: Point, radius: float) -> list[Point]:
        """The hexagon of points within ``radius`` grid units in hex steps."""
        if radius <= 0:
            return []
        x, y = center
        r = radius / self.distance * self.size
        if self.columns:
            x0 = r * (SQRT3 / 2)
            x1, y0 = -x0, r
            y1 = y0 / 2
            y2, y3 = -y1, -y0
            return [(x, y + y0), (x + x1, y + y1), (x + x1, y + y2),
                    (x, y + y3), (x + x0, y + y2), (x + x0, y + y1)]
        y0 = r * (SQRT3 / 2)
        y1, x0 = -y0, r
        x1 = x0 / 2
        x2, x3 = -x1, -x0
        return [(x + x0, y), (x + x1, y + y0), (x + x2, y + y0),
                (x + x3, y), (x + x2, y + y1), (x + x1, y + y1)]

    def get_cone(self, origin: Point, radius: float, direction: float, angle: float) -> list[Point]:
        """``BaseGrid#getCone``: the part of :meth:`get_circle` within the angle."""
        if radius <= 0 or angle <= 0:
            return []
        circle = self.get_circle(origin, radius)
        if angle >= 360:
            return circle
        n = len(circle)
        a_min = normalize_radians(to_radians(direction - (angle / 2)))
        a_max = a_min + to_radians(angle)
        ox, oy, size = origin[0], origin[1], self.size
        p_min = (ox + (math.cos(a_min) * size), oy + (math.sin(a_min) * size))
        p_max = (ox + (math.cos(a_max) * size), oy + (math.sin(a_max) * size))
        angles = []
        for px, py in circle:
            a = math.atan2(py - origin[1], px - origin[0])
            angles.append(a if a >= a_min else a + (2 * math.pi))
        points = [origin]
        i, c0, a0 = 0, circle[n - 1], angles[n - 1]
        while i < n:
            c1, a1 = circle[i], angles[i]
            if a0 > a1:
                points.append(line_line_intersection(c0, c1, origin, p_min))
                while a1 < a_max:
                    points.append(c1)
                    i = (i + 1) % n
                    c0, c1, a0, a1 = c1, circle[i], a1, angles[i]
                    if a0 > a1:
                        break
                points.append(line_line_intersection(c0, c1, origin, p_max))
                break
            c0, a0 = c1, a1
            i += 1
        return points


# -- the template ---------------------------------------------------------------------------------


def template_shape(
    grid: FoundryHexGrid,
    template: Mapping[str, Any],
    *,
    grid_templates: bool = False,
    cone_type: str = "round",
) -> Shape:
    """``MeasuredTemplate#_computeShape``: the template's shape around ``(0, 0)``, in px."""
    t = template["t"]
    distance = float(template["distance"])
    direction = normalize_degrees(float(template.get("direction", 0)))
    angle = float(template.get("angle", 0))
    distance_pixels = grid.size / grid.distance
    if t == "circle":
        if grid_templates:
            return Polygon(_flat(grid.get_circle((0, 0), distance)))
        return Circle(distance * distance_pixels)
    if t == "cone":
        if grid_templates:
            return Polygon(_flat(grid.get_cone((0, 0), distance, direction, angle)))
        if distance <= 0 or angle <= 0:
            return Polygon([])
        distance *= distance_pixels
        if cone_type == "round":
            if angle >= 360:
                return Circle(distance)
            da = min(angle, 3)
            angles = [(angle / -2) + (a * da) for a in range(math.floor(angle / da))] + [angle / 2]
        else:
            angle = min(angle, 179)
            angles = [angle / -2, angle / 2]
            distance /= math.cos(to_radians(angle / 2))
        ends = [from_angle(0, 0, to_radians(direction + a), distance) for a in angles]
        return Polygon([0, 0, *_flat(ends), 0, 0])
    if t == "rect":
        if grid_templates:
            end = grid.get_translated_point((0, 0), direction, distance)
        else:
            end = from_angle(0, 0, to_radians(direction), distance * distance_pixels)
        return Rectangle(0, 0, end[0], end[1]).normalize()
    if t == "ray":
        width = float(template.get("width", 0)) * distance_pixels
        p00 = from_angle(0, 0, to_radians(direction - 90), width / 2)
        p01 = from_angle(0, 0, to_radians(direction + 90), width / 2)
        if grid_templates:
            p10 = grid.get_translated_point(p00, direction, distance)
            p11 = grid.get_translated_point(p01, direction, distance)
        else:
            distance *= distance_pixels
            rad = to_radians(direction)
            p10 = from_angle(p00[0], p00[1], rad, distance)
            p11 = from_angle(p01[0], p01[1], rad, distance)
        return Polygon([*p00, *p10, *p11, *p01])
    raise ValueError(f"unknown template type t={t!r}: Foundry's are circle, cone, rect, ray")


def foundry_hex_highlight(
    layout: str | int,
    size_px: float,
    template: Mapping[str, Any],
    *,
    grid_distance: float = 5.0,
    version: int = 13,
    grid_templates: bool = False,
    cone_type: str = "round",
    canvas_rect: tuple[float, float, float, float] | None = None,
) -> set[tuple[int, int]]:
    """The hexes ``(col, row)`` Foundry highlights for a MeasuredTemplate on a hex grid.

    ``MeasuredTemplate#_getGridHighlightPositions`` (V12 or V13), with the
    offsets returned instead of their top-left points.

    Parameters
    ----------
    layout : str or int
        ``"odd-r"``, ``"even-r"``, ``"odd-q"``, ``"even-q"`` or Foundry's grid
        type 2, 3, 4, 5 (the same layouts in that order).
    size_px : float
        ``grid.size``: a hex's flat-to-flat width in pixels.
    template : mapping
        The template document's data: ``t`` (``"circle"``, ``"cone"``,
        ``"ray"``, ``"rect"``), ``x``, ``y`` (canvas px; rounded to whole
        pixels as Foundry stores them), ``distance`` (grid units),
        ``direction`` (degrees clockwise from east, default 0), ``angle``
        (cone degrees, default 0), ``width`` (ray width in grid units,
        default 0).
    grid_distance : float
        ``grid.distance``: grid units per hex.
    version : {12, 13}
        Foundry's major version: the points tested are the centre and +-0.5 px
        around it in V12, +-1 px in V13.
    grid_templates : bool
        Foundry's "Grid-based Template Shapes" setting (off by default).
    cone_type : {"round", "flat"}
        Foundry's "Cone Template Type" setting (round by default).
    canvas_rect : (x, y, width, height), optional
        ``canvas.dimensions.rect``, the canvas the shape's bounds are fitted
        to; None for an unbounded canvas.

    Examples
    --------
    A 5-ft circle on hex (6, 6) of a 5-ft odd-r grid, 100 px a hex: the
    neighbours' centres lie on the circle, 100 px away, and are in.

    >>> centre = {"t": "circle", "x": 600, "y": 577, "distance": 5}
    >>> sorted(foundry_hex_highlight("odd-r", 100, centre))
    [(5, 5), (5, 6), (5, 7), (6, 5), (6, 6), (6, 7), (7, 6)]
    """
    if version not in PROBES:
        raise ValueError(f"Foundry version must be 12 or 13, got {version!r}")
    grid = FoundryHexGrid.of(layout, size_px, grid_distance)
    shape = template_shape(grid, template, grid_templates=grid_templates, cone_type=cone_type)
    # x and y are integer fields of the document: Foundry stores them rounded.
    ox, oy = js_round(float(template["x"])), js_round(float(template["y"]))
    bounds = shape.get_bounds()
    bounds.x += ox
    bounds.y += oy
    if canvas_rect is not None:
        bounds.fit(Rectangle(*canvas_rect))
    bounds.pad(1)
    probes = PROBES[version]
    i0, j0, i1, j1 = grid.get_offset_range(bounds)
    hexes = set()
    for i in range(i0, i1):
        for j in range(j0, j1):
            cx, cy = grid.get_center_point(i, j)
            covered = max(abs(cx - ox), abs(cy - oy)) < 1 or any(
                shape.contains(cx - ox + dx, cy - oy + dy) for dx in probes for dy in probes
            )
            if covered:
                hexes.add((j, i))
    return hexes
