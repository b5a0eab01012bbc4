"""Foundry VTT core's square-grid highlighting of MeasuredTemplates, ported to Python for tests.

Which squares Foundry highlights under a circle, cone, ray or rect template on
a square grid (scene grid type 1). A line-by-line port of Foundry's client
code, so aoegrid's square areas can be compared with it square by square; it
is test-only reference code, not part of aoegrid.

Source: Foundry VTT V13 build 351, repository ``umplacable/foundryVTT`` (a
public copy of the distributed client), commit
``052bb61d03fe2dbabf628ec120a285bb99cf3f98``:

- ``foundryvtt/common/grid/square.mjs``: ``SquareGrid`` (``getOffsetRange``,
  ``getCenterPoint``, ``getTranslatedPoint``, ``getCircle`` and its private
  ``#getCircleEquidistant``, ``#getCircleExact``, ``#getCircleApproximate``,
  ``#getCircleAlternating``, ``#getCircleRectilinear``);
- ``foundryvtt/common/grid/base.mjs``: ``BaseGrid#getCone`` (shared with
  the hex grids: :meth:`peers.foundry_hex.FoundryHexGrid.get_cone` is
  reused, it only calls ``get_circle`` and reads ``size``);
- ``foundryvtt/common/constants.mjs``: ``GRID_DIAGONALS`` (EQUIDISTANT 0,
  EXACT 1, APPROXIMATE 2, RECTILINEAR 3, ALTERNATING_1 4, ALTERNATING_2 5,
  ILLEGAL 6);
- ``foundryvtt/client/canvas/placeables/template.mjs``: the template's shape
  and ``_getGridHighlightPositions`` / ``testPoint``, ported once in
  :mod:`peers.foundry_hex` (``template_shape``, the PIXI shapes) and reused
  here: only the grid differs.

What Foundry does (``MeasuredTemplate#highlightGrid`` on a square grid): the
template's shape is built around ``(0, 0)`` (see :mod:`peers.foundry_hex`:
a true circle by default, a square grid's "circle" of its diagonal rule with
"Grid-based Template Shapes" on, an equidistant one being a square), its
bounds are moved to the template's stored whole-pixel origin, fitted to the
canvas and padded by 1 px; every square of ``getOffsetRange`` of those bounds
(``floor`` of the low sides, ``ceil`` of the high ones: half-open) is
highlighted if its centre ``((j + 0.5) * size, (i + 0.5) * size)`` is within
1 px (Chebyshev, strict) of the origin, or if any of the 9 points the centre
+-1 px in x and y (V13's ``testPoint``) is inside the shape by PIXI's
``contains``. Foundry's offset ``{i, j}`` is (row, column); the result here is
``(col, row) = (j, i)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from peers.foundry_hex import PROBES, FoundryHexGrid, Point, Rectangle, js_round, template_shape

#: Foundry's ``CONST.GRID_DIAGONALS``.
DIAGONALS = {
    "equidistant": 0,
    "exact": 1,
    "approximate": 2,
    "rectilinear": 3,
    "alternating-1": 4,
    "alternating-2": 5,
    "illegal": 6,
}

#: ``Math.SQRT2``.
SQRT2 = math.sqrt(2)


@dataclass(frozen=True)
class FoundrySquareGrid:
    """Foundry's ``SquareGrid`` (common/grid/square.mjs), the parts highlighting uses.

    ``size`` is ``grid.size`` (px a square), ``distance`` ``grid.distance``
    (units a square), ``diagonals`` a ``GRID_DIAGONALS`` value (Foundry's
    default, and 5e's, is 0: equidistant).
    """

    size: float
    distance: float = 5.0
    diagonals: int = 0

    @classmethod
    def of(cls, size: float, distance: float = 5.0, diagonals: str | int = 0) -> FoundrySquareGrid:
        d = DIAGONALS[diagonals] if isinstance(diagonals, str) else diagonals
        if d not in DIAGONALS.values():
            raise ValueError(f"not a Foundry diagonal rule: {diagonals!r}")
        return cls(size, distance, d)

    def get_offset(self, x: float, y: float) -> tuple[int, int]:
        """``(i, j)``: Foundry's (row, column) of the square holding the point."""
        return math.floor(y / self.size), math.floor(x / self.size)

    def get_offset_range(self, b: Rectangle) -> tuple[int, int, int, int]:
        """``[i0, j0, i1, j1]``: the half-open row and column ranges meeting the rectangle."""
        i0 = math.floor(b.y / self.size)
        j0 = math.floor(b.x / self.size)
        if not (b.width > 0 and b.height > 0):
            return i0, j0, i0, j0
        # JavaScript's `| 0` truncates to a 32-bit integer: a no-op on canvas-sized values.
        return (
            i0,
            j0,
            math.ceil((b.y + b.height) / self.size),
            math.ceil((b.x + b.width) / self.size),
        )

    def get_center_point(self, i: int, j: int) -> Point:
        return (j + 0.5) * self.size, (i + 0.5) * self.size

    def get_translated_point(self, point: Point, direction: float, distance: float) -> Point:
        """The point ``distance`` grid units from ``point`` in ``direction`` degrees, by the diagonal rule."""
        direction = direction * (math.pi / 180)
        dx, dy = math.cos(direction), math.sin(direction)
        adx, ady = abs(dx), abs(dy)
        s = distance / self.distance
        d = self.diagonals
        if d == 0:
            s /= max(adx, ady)
        elif d == 1:
            s /= max(adx, ady) + ((SQRT2 - 1) * min(adx, ady))
        elif d == 2:
            s /= max(adx, ady) + (0.5 * min(adx, ady))
        elif d in (4, 5):
            a, b = max(adx, ady), min(adx, ady)
            t = (2 * a) + b
            k = math.floor(s * b / t)
            if d == 4:
                if (s * b) - (k * t) > a:
                    a += b
                    k = -1 - k
            elif (s * b) - (k * t) > a + b:
                k += 1
            else:
                a += b
                k = -k
            s = (s - k) / a
        else:  # RECTILINEAR, ILLEGAL
            s /= adx + ady
        s *= self.size
        return point[0] + (dx * s), point[1] + (dy * s)

    def get_circle(self, center: Point, radius: float) -> list[Point]:
        """The polygon of points within ``radius`` grid units by the diagonal rule."""
        if radius <= 0:
            return []
        x, y = center
        d = self.diagonals
        if d in (4, 5):
            return self._circle_alternating(center, radius, d == 5)
        r = radius / self.distance * self.size
        if d == 0:
            x0, x1, y0, y1 = x + r, x - r, y + r, y - r
            return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        if d in (1, 2):
            s = r / SQRT2 if d == 1 else r / 1.5
            return [
                (x + r, y),
                (x + s, y + s),
                (x, y + r),
                (x - s, y + s),
                (x - r, y),
                (x - s, y - s),
                (x, y - r),
                (x + s, y - s),
            ]
        return [(x + r, y), (x, y + r), (x - r, y), (x, y - r)]

    def _circle_alternating(self, center: Point, radius: float, first_double: bool) -> list[Point]:
        """``#getCircleAlternating``: the 5/10/5 (or 10/5/10) staircase, a quarter mirrored."""
        r = radius / self.distance
        points: list[Point] = []
        dx = dy = 0
        if first_double:
            points.append((r - dx, dy))
            dx += 1
            dy += 1
        while True:
            if r - dx <= dy:
                dx, dy = dy - 1, dx - 1
                break
            points.append((r - dx, dy))
            dy += 1
            if r - dx <= dy:
                points.append((r - dx, r - dx))
                if dx != 0:
                    points.append((dy - 1, r - dx))
                    dx, dy = dy - 2, dx - 1
                break
            points.append((r - dx, dy))
            dx += 1
            dy += 1
        while dx != 0:
            points.append((dx, r - dy))
            dx -= 1
            if dx == 0:
                break
            points.append((dx, r - dy))
            dx -= 1
            dy -= 1
        quarter = list(points)
        points += [(-py, px) for px, py in quarter]
        points += [(-px, -py) for px, py in quarter]
        points += [(py, -px) for px, py in quarter]
        return [((px * self.size) + center[0], (py * self.size) + center[1]) for px, py in points]

    # BaseGrid#getCone, shared by every grid type (it uses get_circle and size only).
    get_cone = FoundryHexGrid.get_cone


def foundry_square_highlight(
    size_px: float,
    template: Mapping[str, Any],
    *,
    grid_distance: float = 5.0,
    diagonals: str | int = 0,
    grid_templates: bool = False,
    cone_type: str = "round",
    canvas_rect: tuple[float, float, float, float] | None = None,
) -> set[tuple[int, int]]:
    """The squares ``(col, row)`` Foundry V13 highlights for a MeasuredTemplate on a square grid.

    ``MeasuredTemplate#_getGridHighlightPositions`` with the offsets returned
    instead of their top-left points. ``template`` is as for
    :func:`peers.foundry_hex.foundry_hex_highlight` (``t``, ``x``, ``y`` in
    canvas px, stored rounded; ``distance``, ``direction``, ``angle``,
    ``width``); ``diagonals`` the grid's diagonal rule (a ``DIAGONALS`` name
    or value, used only by grid-based template shapes); ``canvas_rect`` the
    ``canvas.dimensions.rect`` the bounds are fitted to (None: unbounded).

    Examples
    --------
    A 5-ft circle on the intersection (300, 300) of a 100 px grid: the four
    squares round it (centres 70.7 px away) and none further (158 px).

    >>> sorted(foundry_square_highlight(100, {"t": "circle", "x": 300, "y": 300, "distance": 5}))
    [(2, 2), (2, 3), (3, 2), (3, 3)]
    """
    grid = FoundrySquareGrid.of(size_px, grid_distance, diagonals)
    shape = template_shape(grid, template, grid_templates=grid_templates, cone_type=cone_type)  # type: ignore[arg-type]
    ox, oy = js_round(float(template["x"])), js_round(float(template["y"]))
    bounds = shape.get_bounds()
    bounds.x += ox
    bounds.y += oy
    if canvas_rect is not None:
        bounds.fit(Rectangle(*canvas_rect))
    bounds.pad(1)
    probes = PROBES[13]
    i0, j0, i1, j1 = grid.get_offset_range(bounds)
    squares = set()
    for i in range(i0, i1):
        for j in range(j0, j1):
            cx, cy = grid.get_center_point(i, j)
            covered = max(abs(cx - ox), abs(cy - oy)) < 1 or any(
                shape.contains(cx - ox + dx, cy - oy + dy) for dx in probes for dy in probes
            )
            if covered:
                squares.add((j, i))
    return squares
