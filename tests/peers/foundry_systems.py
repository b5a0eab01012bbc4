"""The pf2e Foundry VTT system's square-grid template highlighting, ported to Python for tests.

pf2e replaces Foundry core's highlighting of circle and cone MeasuredTemplates
on square grids (scene grid type 1) with its own: a square is highlighted
when its *centre* is within the template's distance of the template's
(snapped) origin counted the Pathfinder way, squares rounded up per axis and
diagonals 5/10/5. This is a line-by-line port of that code so aoegrid's
``rules="pf2e"`` areas can be compared with it square by square; it is
test-only reference code, not part of aoegrid. Walls are not ported (pf2e
draws a square whose centre a wall hides from the origin in black instead of
the template's colour, it does not drop it), nor are emanations from tokens
larger than one square.

Source: repository ``foundryvtt/pf2e``:

- ``src/module/canvas/helpers.ts`` at commit
  ``0aa6a742a436ff17d2764c0cc7c3cac0a2ea1ed3`` (Foundry V12 era; the V11-era
  commit ``8a663d47f994e0ce1bfb17fc6b0bc8fb5a046457`` has the same logic):
  ``highlightGrid``, ``measureDistance``, ``measureDistanceOnGrid``;
- ``src/module/canvas/measured-template.ts`` at commit
  ``defd0429198cbd942e0137d44b7ac70ad2299968``: ``MeasuredTemplatePF2e#highlightGrid``,
  which calls ``highlightGrid`` with ``areaType`` ``"burst"`` for ``t ==
  "circle"`` and ``"cone"`` for ``t == "cone"`` on square grids only (every
  other shape and grid falls back to core, see :mod:`peers.foundry_square`).
  The older commit ``0569e2a16646eb41bdd8d76286b7193a07efdd8d`` of the same
  file has the same loop inline (with ``distance * 1.5`` bounds);
- a Foundry V13 version of ``src/module/canvas/measured-template.ts`` (it
  extends ``fc.placeables.MeasuredTemplate``; the code index holds it without
  its commit) moves the same loop, unchanged but for V13's grid API, into
  ``_getGridHighlightPositions`` and snaps the origin by the template's area
  shape: a burst to vertices only, a cone to centres, vertices and edge
  midpoints, a plain circle (no area shape) to centres and vertices. So since
  V13 only a plain circle template can be a "burst" on a square's centre.

What pf2e does:

- the origin is ``canvas.grid.getSnappedPosition(x, y, gridPrecision)`` (the
  template layer's precision is 2 on square grids: the nearest multiple of
  half a square);
- for a cone whose origin is not on a grid line in x (or y), the origin is
  moved half a square along x (or y) by the sign of the direction's cosine
  (sine), each rounded to 2 decimals: a cone from a square centre starts at
  the edge or corner of that square it points through;
- the squares looked at are ``col0 + a``, ``row0 + b`` for ``a, b`` in
  ``[-n, n)``, ``n = ceil(distance * clamp(width, 1.5, 2) / grid.distance)``,
  ``(col0, row0)`` the square holding the document's ``(x, y)``; squares whose
  centre has a negative coordinate are skipped (there is no upper clip);
- a cone keeps a square only if the ray from the origin to its centre has
  length 0 or an angle (``atan2``, degrees clockwise from east, put in
  ``[0, 360)``) within ``direction +- angle / 2``, ends included;
- a square is highlighted if ``measureDistance(centre, origin) <= distance``:
  ``nx = ceil(|dx| / size)``, ``ny = ceil(|dy| / size)``, ``floor(1.5 *
  min(nx, ny) + |nx - ny|) * grid.distance``. From an intersection the centre
  of a square k whole squares off is ``k + 0.5`` squares away, rounded up to
  ``k + 1``: the count of its far corner, so a burst is aoegrid's far-edge
  rule; from a square centre the count is of the centre itself.

Squares are ``(col, row)``, the square ``[col, col + 1] x [row, row + 1]`` in
grid units.
"""

from __future__ import annotations

import math

from peers.foundry_hex import js_round


def js_mod(a: float, b: float) -> float:
    """JavaScript's ``%``: the remainder takes the dividend's sign (``math.fmod``)."""
    return math.fmod(a, b)


def js_sign(x: float) -> float:
    return 0.0 if x == 0 else math.copysign(1.0, x)


def normalize(deg: float) -> float:
    """pf2e's ``(360 + (d % 360)) % 360``."""
    return js_mod(360 + js_mod(deg, 360), 360)


def within_angle(lo: float, hi: float, value: float) -> bool:
    """pf2e's ``withinAngle``: ends included, the range may wrap past 0."""
    lo, hi, value = normalize(lo), normalize(hi), normalize(value)
    if lo < hi:
        return lo <= value <= hi
    return value >= lo or value <= hi


def measure_distance_on_grid(
    dx: float, dy: float, size: float, grid_distance: float = 5.0
) -> float:
    """``measureDistanceOnGrid`` with no ``dz`` and no reach: PF2e's 5/10/5 on squares rounded up."""
    nx = math.ceil(abs(dx / size))
    ny = math.ceil(abs(dy / size))
    nz = 0
    a, b, c = sorted((nx, ny, nz))
    distance = math.floor((a * 1.75) + ((b - a) * 1.5) + (c - b))
    return distance * grid_distance


def snapped_position(x: float, y: float, size: float, interval: int = 2) -> tuple[float, float]:
    """``getSnappedPosition(x, y, interval)`` on a square grid: the nearest multiple of ``size / interval``."""
    step = size / interval
    return js_round(x / step) * step, js_round(y / step) * step


def pf2e_square_highlight(
    size: float,
    template: dict,
    *,
    grid_distance: float = 5.0,
    precision: int = 2,
) -> set[tuple[int, int]]:
    """The squares ``(col, row)`` pf2e highlights for a circle or cone template on a square grid.

    ``template`` holds ``t`` (``"circle"`` or ``"cone"``; an ``"emanation"``
    here is the same code path from a one-square token, kept for
    completeness), ``x``, ``y`` (canvas px), ``distance`` (ft),
    ``direction`` (degrees clockwise from east, default 45), ``angle``
    (default 0; pf2e's cones are 90) and ``width`` (default 0, clamped to
    1.5-2 for the search bounds only).

    Examples
    --------
    A 5-ft burst on the intersection (300, 300) of a 100 px grid: the four
    squares round it (centres 0.5 squares off each way, counted as 1).

    >>> sorted(pf2e_square_highlight(100, {"t": "circle", "x": 300, "y": 300, "distance": 5}))
    [(2, 2), (2, 3), (3, 2), (3, 3)]
    """
    kind = template["t"]
    area_type = {"circle": "burst", "cone": "cone", "emanation": "emanation"}[kind]
    distance_ft = float(template.get("distance") or 0)
    angle = float(template.get("angle", 0) or 0)
    direction = float(template.get("direction", 45))
    if template.get("direction") is None:
        direction = 45.0
    x, y = float(template["x"]), float(template["y"])

    # grid.getCenter(x, y) then getGridPositionFromPixels: the square holding (x, y).
    row0, col0 = math.floor(y / size), math.floor(x / size)
    min_angle = normalize(direction - (angle * 0.5))
    max_angle = normalize(direction + (angle * 0.5))
    sx, sy = snapped_position(x, y, size, precision)

    ox = oy = 0.0
    if area_type == "cone":
        d = js_mod(360 - direction if direction >= 0 else -direction, 360)
        rad = d * (math.pi / 180)  # Math.toRadians
        if js_mod(sx, size) != 0:
            ox = js_sign(js_round(math.cos(rad) * 100) / 100) / 2
        if js_mod(sy, size) != 0:
            oy = -js_sign(js_round(math.sin(rad) * 100) / 100) / 2
        ox, oy = ox * size, oy * size

    padding = min(max(float(template.get("width") or 0), 1.5), 2)
    padded = distance_ft * padding / grid_distance
    count = math.ceil(padded / (size / size))  # grid.h == grid.w == size on square grids
    origin = (sx + ox, sy + oy)

    squares: set[tuple[int, int]] = set()
    for a in range(-count, count):
        for b in range(-count, count):
            # getPixelsFromGridPosition(row, col) -> (x, y) of the top-left corner.
            gx, gy = (col0 + b) * size, (row0 + a) * size
            dest = (gx + (size * 0.5), gy + (size * 0.5))
            if dest[0] < 0 or dest[1] < 0:
                continue
            if area_type == "cone":
                rdx, rdy = dest[0] - origin[0], dest[1] - origin[1]
                ray_angle = normalize(math.atan2(rdy, rdx) / (math.pi / 180))
                if math.hypot(rdx, rdy) > 0 and not within_angle(min_angle, max_angle, ray_angle):
                    continue
            # measureDistance(destination, origin): Ray(p0, p1).dx = p1.x - p0.x
            dist = measure_distance_on_grid(
                origin[0] - dest[0], origin[1] - dest[1], size, grid_distance
            )
            if dist > distance_ft:
                continue
            squares.add((col0 + b, row0 + a))
    return squares
