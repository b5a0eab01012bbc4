"""Test-only port of the Owlbear Rodeo 2 "AoE Shapes" extension's circle and cone cells.

Source: davidsev/owlbear-aoe2 (the official-store extension "AoE Shapes",
https://github.com/davidsev/owlbear-aoe2) at commit
``37d200c2c18685c664e7eb189b318d3339d32d0c`` (2.2.0, 2024-10-08):

* ``src/Shape/CircleTemplateShape.ts`` -- the default square-grid circle
  (``RoomMetadata.squareCircleStyle = TEMPLATE``, start snapped to a corner,
  size snapped to whole squares): a cell is hit when the distance from the
  circle's centre to the cell's centre is ``<= radius + 2`` pixels ("The +2 is
  to avoid rounding errors when it's dead center of a cell").
* ``src/Shape/CirclePathfinderShape.ts`` -- the ``PATHFINDER`` style: start
  snapped to a corner, and a cell is hit when its farthest corner is within
  the radius counted by ``Measure.alternatingSquare`` from
  davidsev/owlbear-utils at ``9318f2b03c3dd5ec1522cea098a8428f3870be1f``
  (0.26.0, the version the extension pins, ``^0.26.0``):
  ``big + floor(small / 2)`` squares (5/10/5 diagonals).
* ``src/Shape/ConeTemplateShape.ts`` with ``src/Utils/Geometry/Shape/Polygon.ts``
  -- the default square-grid cone: a flat-ended triangle (see :func:`template_cone`).

Cells are Owlbear's ``Square`` cells (owlbear-utils ``src/Grid/Cell/Square.ts``),
centres at ``(i + 1/2) * dpi``; cell ``(i, j)`` here is the square
``[i, i+1] x [j, j+1]`` in grid units, as in aoegrid. Owlbear Rodeo's default
grid is 150 pixels a square, so the +2 px tolerance is 2/150 of a square.
The scan window is the cells holding the bounding square's corners
(``grid.iterateCellsBoundingPoints``), clipped here to the map.
"""

import math

#: Owlbear Rodeo's default pixels per grid square.
DPI = 150


def _window(x, y, r, width, height):
    # getCell rounds a point on a grid line to the cell below/right of it.
    lo_x, hi_x = max(0, math.floor(x - r)), min(width - 1, math.floor(x + r))
    lo_y, hi_y = max(0, math.floor(y - r)), min(height - 1, math.floor(y + r))
    return range(lo_x, hi_x + 1), range(lo_y, hi_y + 1)


def template_circle(radius, at, width, height, dpi=DPI):
    """Cells of a TEMPLATE circle of ``radius`` squares at grid point ``at``.

    ``at`` must already be snapped (a corner, the default start point) and
    ``radius`` a whole number of squares (the default size snapping of 1).
    Works in pixels as the extension does.
    """
    x, y = at
    sx, sy, rp = x * dpi, y * dpi, radius * dpi
    xs, ys = _window(x, y, radius, width, height)
    cells = set()
    for i in xs:
        for j in ys:
            cx, cy = (i + 0.5) * dpi, (j + 0.5) * dpi
            if math.hypot(cx - sx, cy - sy) <= rp + 2:
                cells.add((i, j))
    return cells


def alternating_square(a, b):
    """owlbear-utils 0.26 ``Measure.alternatingSquare`` in grid units."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) + math.floor(min(dx, dy) / 2)


def pathfinder_circle(radius, at, width, height):
    """Cells of a PATHFINDER circle: farthest corner within ``radius`` by 5/10/5."""
    x, y = at
    xs, ys = _window(x, y, radius, width, height)
    cells = set()
    for i in xs:
        for j in ys:
            corners = ((i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1))
            if max(alternating_square((x, y), c) for c in corners) <= radius:
                cells.add((i, j))
    return cells


def _clip(poly, x0, y0, x1, y1):
    """Sutherland-Hodgman: ``poly`` clipped to the box ``[x0, x1] x [y0, y1]``."""
    edges = (
        (
            lambda p: p[0] >= x0,
            lambda a, b: (x0, a[1] + (b[1] - a[1]) * (x0 - a[0]) / (b[0] - a[0])),
        ),
        (
            lambda p: p[0] <= x1,
            lambda a, b: (x1, a[1] + (b[1] - a[1]) * (x1 - a[0]) / (b[0] - a[0])),
        ),
        (
            lambda p: p[1] >= y0,
            lambda a, b: (a[0] + (b[0] - a[0]) * (y0 - a[1]) / (b[1] - a[1]), y0),
        ),
        (
            lambda p: p[1] <= y1,
            lambda a, b: (a[0] + (b[0] - a[0]) * (y1 - a[1]) / (b[1] - a[1]), y1),
        ),
    )
    for inside, cut in edges:
        out = []
        for k, b in enumerate(poly):
            a = poly[k - 1]
            if inside(b):
                if not inside(a):
                    out.append(cut(a, b))
                out.append(b)
            elif inside(a):
                out.append(cut(a, b))
        poly = out
        if not poly:
            break
    return poly


def _area(poly):
    return abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(poly, poly[1:] + poly[:1]))) / 2


#: The extension's default square cone width, ``squareConeWidth || 53.1`` degrees (``src/Tool/ConeTool.ts``).
CONE_WIDTH = 53.1
#: The default ``squareConeOverlapThreshold`` (``src/Metadata/room.ts``): more than 10 % of a cell.
CONE_THRESHOLD = 0.1


def cone_triangle(length, at, direction, width=CONE_WIDTH):
    """``ConeTemplateShape.triangle``: apex ``at``, axis ``length`` squares at
    ``direction`` degrees (0 east, 90 south: screen coordinates, y down), the far
    side perpendicular to the axis, ``length * tan(width / 2)`` each way."""
    t = math.radians(direction)
    ex, ey = at[0] + length * math.cos(t), at[1] + length * math.sin(t)
    k = math.tan(math.radians(width) / 2)
    vx, vy = (ex - at[0]) * k, (ey - at[1]) * k
    return [tuple(at), (ex + vy, ey - vx), (ex - vy, ey + vx)]


def template_cone(
    length, at, direction, width, height, threshold=CONE_THRESHOLD, cone_width=CONE_WIDTH
):
    """Cells of a TEMPLATE cone (``src/Shape/ConeTemplateShape.ts``, default
    style, corner start, whole-square length, free direction): cells whose
    share covered by the triangle is more than ``threshold``.

    The extension builds the overlap from the cell corners inside the
    triangle, the triangle corners inside the cell and the edge crossings,
    sorted clockwise, then sums Heron triangles (``Polygon.intersectsCellPercentage``);
    for a triangle and a square (both convex) that is their intersection, which
    is computed here by clipping. A cell wholly inside counts 100 %.
    """
    tri = cone_triangle(length, at, direction, cone_width)
    xs = [p[0] for p in tri]
    ys = [p[1] for p in tri]
    cells = set()
    for i in range(max(0, math.floor(min(xs))), min(width - 1, math.floor(max(xs))) + 1):
        for j in range(max(0, math.floor(min(ys))), min(height - 1, math.floor(max(ys))) + 1):
            if _area(_clip(tri, i, j, i + 1, j + 1)) * 100 > threshold * 100:
                cells.add((i, j))
    return cells
