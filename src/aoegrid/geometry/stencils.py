"""Shapes to squares in open field: each shape under each inclusion rule.

The pure core behind :func:`aoegrid.area.area`: given a shape, a resolved
origin and rules, the bool mask of the squares the shape covers in a window,
with no walls. Each function touches only the window it is given, and the
window is taken from the shape's true outline (:func:`shape_extent` gives its
farthest point), so no square of the shape falls outside it. A shape larger
than the grid is first cut down to one that covers the same squares of the
grid (:func:`_fitted`), so no cost and no number grows with its size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike, NDArray

from aoegrid.errors import InvalidValueError
from aoegrid.geometry._pitch import (
    MAX_LENGTH,
    cone_columns,
    cone_heights,
    line_columns,
    line_heights,
    line_size,
)
from aoegrid.geometry._solids import Mesh, box_mesh, cone_mesh
from aoegrid.geometry.directions import right_normal, unit_vector
from aoegrid.geometry.distance import measure
from aoegrid.geometry.grid import Grid
from aoegrid.geometry.options import Anchor, ConeKind, Diagonals, Inclusion, Side
from aoegrid.geometry.raster import (
    FloatArray,
    Window,
    center_offsets,
    centers,
    covered,
    disk_rect_area,
    far_offsets,
    near_offsets,
    ray_crossing,
    threshold_mask,
)
from aoegrid.geometry.regions import (
    EPS,
    ConvexPolygon,
    Region,
    RoundedRect,
    Sector,
    Teardrop,
    within_angle,
)
from aoegrid.geometry.rules import Rules
from aoegrid.geometry.shapes import Cone, Cube, Cylinder, Line, Shapable, Shape, Sphere

BoolArray = NDArray[np.bool_]

#: Stencils up to this many squares are cached per (shape, rules, origin
#: offset within its square), so placing the same effect again is a copy.
_CACHE_CELLS = 1 << 16


@dataclass(frozen=True, slots=True)
class _Origin:
    """The resolved origin: a point (``x0 == x1``, ``y0 == y1``) or a rectangle."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def is_point(self) -> bool:
        return self.x0 == self.x1 and self.y0 == self.y1


def _stencil_on_grid(
    shape: Shape, origin: _Origin, rules: Rules, grid: Grid, stop: float = math.inf
) -> tuple[Window, BoolArray]:
    """The shape's squares near the origin, clipped to the grid.

    Computed in a frame whose origin is the integer point below-left of the
    origin, so the answer depends only on the origin's offset within its
    square; small stencils are cached on that offset. ``stop`` cuts a line
    where it strikes a wall or a floor, that far along its axis (squares). A shape larger than the grid is cut down to the
    grid first (:func:`_fitted`) and never cached: its stencil would hold the
    grid's place in it.
    """
    fx, fy = math.floor(origin.x0), math.floor(origin.y0)
    rel = _Origin(origin.x0 - fx, origin.y0 - fy, origin.x1 - fx, origin.y1 - fy)
    fitted = _fitted(shape, rel, rules, grid.square, Window(-fx, -fy, grid.width, grid.height))
    full = Window.around(_bounds(fitted, rel, rules, grid.square), None)
    if fitted is shape and full.width * full.height <= _CACHE_CELLS and stop == math.inf:
        stencil = _cached_stencil(shape, rel, rules, grid.square, full)
        win, local = full, stencil
    else:
        # Too big to cache (or cut by a wall): compute only the part on the grid.
        x0 = max(full.x0, -fx)
        y0 = max(full.y0, -fy)
        x1 = min(full.x0 + full.width, grid.width - fx)
        y1 = min(full.y0 + full.height, grid.height - fy)
        win = Window(x0, y0, max(x1 - x0, 0), max(y1 - y0, 0))
        local = _rasterize(fitted, rel, rules, grid.square, win, stop)
    # Clip the (relative) window to the grid and move it to grid coordinates.
    x0 = max(win.x0 + fx, 0)
    y0 = max(win.y0 + fy, 0)
    x1 = min(win.x0 + win.width + fx, grid.width)
    y1 = min(win.y0 + win.height + fy, grid.height)
    out = Window(x0, y0, max(x1 - x0, 0), max(y1 - y0, 0))
    sx, sy = x0 - fx - win.x0, y0 - fy - win.y0
    return out, local[sy : sy + out.height, sx : sx + out.width]


@lru_cache(maxsize=512)
def _cached_stencil(shape: Shape, origin: _Origin, rules: Rules, square: float, window: Window) -> BoolArray:
    mask = _rasterize(shape, origin, rules, square, window)
    mask.flags.writeable = False
    return mask


def _fitted(shape: Shape, o: _Origin, rules: Rules, square: float, grid: Window) -> Shape:
    """``shape`` with every size the ``grid`` cannot tell from a larger one cut to ``2 * reach``.

    ``grid`` is the grid's squares in the frame of ``o``, and ``reach`` the
    farthest any of its points lies from the origin along x, plus the same
    along y, plus two squares. Every diagonal rule counts an offset
    ``(dx, dy)`` as at most ``|dx| + |dy| + 1``, so no point of the grid lies
    beyond ``reach`` by any rule, nor straight. Within ``reach`` of its
    origin a figure no longer changes once its sizes pass ``2 * reach``: a
    circle or a far-edge count takes every square, and a cone's far end (a
    teardrop's disk starts two thirds of its length out), a cube's far face
    and sides, and a line's far end and sides all lie beyond the grid. So
    every number, window and outline stays the grid's size, whatever the
    shape's.

    Returns
    -------
    Shape
        ``shape`` itself when no size passes ``2 * reach``; otherwise a copy
        with those sizes set to it (in the grid's unit).
    """
    dx = max(o.x1 - grid.x0, grid.x0 + grid.width - o.x0)
    dy = max(o.y1 - grid.y0, grid.y0 + grid.height - o.y0)
    cap = 2.0 * (dx + dy + 2.0)
    if isinstance(shape, Shapable) or pitched(shape):
        # A pitched solid's far part can stand above the grid (a cone aimed
        # straight up): it is counted to MAX_LENGTH (aoegrid.geometry._pitch) instead.
        return shape
    if isinstance(shape, (Sphere, Cylinder)):
        return shape.replace(radius=cap * square) if shape.radius / square > cap else shape
    if isinstance(shape, Cube):
        return shape.replace(size=cap * square) if shape.size / square > cap else shape
    changes = {"length": cap * square} if shape.length / square > cap else {}
    if isinstance(shape, Line) and _line_width(shape, rules) / square > cap:
        changes["width"] = cap * square
    return shape.replace(**changes) if changes else shape


def shape_extent(shape: Shape, rules: Rules, square: float) -> float:
    """The farthest any point of the shape's true outline lies from its origin, in squares.

    The outline is the exact figure, before any square is counted: a sphere
    or cylinder reaches its radius; a quarter-circle cone its length; a
    triangle cone (whose width equals its distance) its far corners,
    ``length * hypot(1, 1/2)``; a teardrop cone the far end of its round end,
    its length; a cube the far corners of its far face, ``hypot(size,
    size / 2)`` from the middle of its near face (``anchor="center"``) and
    ``size * sqrt(2)`` from a corner; a line, ``width`` wide and centred on its
    path, ``hypot(length, width / 2)``; a shapable area the farthest corner
    of its squares from the origin intersection. Cones and lines take their
    kind and width from ``rules`` when the shape gives none. It bounds the
    figure, not the squares: far-edge counting measures squares by the
    diagonal rule and can take one whose far corner lies beyond it.

    Parameters
    ----------
    shape : Shape
        The area's shape, sizes in the grid's unit.
    rules : Rules
        The rules it is laid out under.
    square : float
        The side of a square in the grid's unit (5 for a feet grid).

    Returns
    -------
    float
        Euclidean distance in squares, measured from the origin point.

    Examples
    --------
    >>> from aoegrid.geometry.rules import SW5E, STARFINDER
    >>> round(shape_extent(Cone(20, "E"), SW5E, 5.0), 4)        # 4 * hypot(1, 1/2)
    4.4721
    >>> shape_extent(Cone(20, "E"), STARFINDER, 5.0), shape_extent(Sphere(20), SW5E, 5.0)
    (4.0, 4.0)
    >>> shape_extent(Line(30, "E"), SW5E, 5.0) == math.hypot(6, 0.5)
    True
    """
    if isinstance(shape, (Sphere, Cylinder)):
        return shape.radius / square
    if isinstance(shape, Shapable):
        # The farthest corner of a square is farthest on each axis separately.
        return max(math.hypot(max(-dx, dx + 1), max(-dy, dy + 1)) for dx, dy in shape.squares)
    if isinstance(shape, Line):
        return math.hypot(shape.length, _line_width(shape, rules) / 2) / square
    if isinstance(shape, Cube):
        size = shape.size / square
        return math.hypot(size, size / 2 if Anchor(shape.anchor) is Anchor.CENTER else size)
    length = shape.length / square
    if _cone_kind(shape, rules) is ConeKind.TRIANGLE:
        return length * math.hypot(1.0, 0.5)
    return length


def _bounds(shape: Shape, o: _Origin, rules: Rules, square: float) -> tuple[float, float, float, float]:
    """A box holding every square the shape can take, from its true outline.

    Squares are taken by what they share with the outline, so its bounding
    box holds them all once :meth:`Window.around` widens it by a square.
    Far-edge counting reaches past the true outline in two places: a
    quarter-circle cone takes squares by their centre's angle and their far
    corner's diagonal count, and a line by its diagonal count; both stay
    within ``length`` of the origin on each axis, because every diagonal rule
    counts at least the larger offset.
    """
    if isinstance(shape, Shapable):
        x0, y0, x1, y1 = shape.bounds
        return o.x0 + x0, o.y0 + y0, o.x0 + x1, o.y0 + y1
    if pitched(shape):
        # Aimed up or down it may reach any way round its origin; its farthest
        # point is the level figure's (a line's, its square section's corner
        # half a square aside), and far-edge counting keeps every square's far
        # corner within the length on each axis.
        r = shape_extent(shape, rules, square)
        if isinstance(shape, Line):
            r = math.hypot(r, _line_width(shape, rules) / square / 2) + 0.5
        return o.x0 - r, o.y0 - r, o.x1 + r, o.y1 + r
    if isinstance(shape, (Sphere, Cylinder)):
        r = shape.radius / square
        return o.x0 - r, o.y0 - r, o.x1 + r, o.y1 + r
    ox, oy = o.x0, o.y0
    far_edge = rules.inclusion is Inclusion.FAR_EDGE
    if isinstance(shape, Line):
        box = _band(*_line_path(shape, (ox, oy), rules, square)).bounds
        return _clip(box, ox, oy, shape.length / square) if far_edge else box
    d = unit_vector(float(shape.direction))
    if isinstance(shape, Cone):
        length = shape.length / square
        kind = _cone_kind(shape, rules)
        if kind is ConeKind.QUARTER_CIRCLE and far_edge:
            return _wedge_bounds(ox, oy, length, d)
        return _cone_region(kind, (ox, oy), d, float(shape.direction), length).bounds
    return _cube_region(shape, (ox, oy), d, square).bounds


def _clip(box: tuple[float, float, float, float], ox: float, oy: float, reach: float) -> tuple[float, float, float, float]:
    """``box`` cut to the points within ``reach`` of ``(ox, oy)`` on each axis."""
    x0, y0, x1, y1 = box
    return max(x0, ox - reach), max(y0, oy - reach), min(x1, ox + reach), min(y1, oy + reach)


def _wedge_bounds(ox: float, oy: float, length: float, d: tuple[float, float]) -> tuple[float, float, float, float]:
    """The box of the points within 45 degrees of ``d`` and ``length`` of the origin on each axis.

    A far-edge quarter-circle square has its centre in that region. Its
    corners are the origin, the points where the region's two edges leave
    the square box, and the corners of the box inside the 90-degree wedge.
    """
    c = math.sqrt(0.5)
    pts = [(0.0, 0.0)]
    for edge in ((c * (d[0] - d[1]), c * (d[0] + d[1])), (c * (d[0] + d[1]), c * (d[1] - d[0]))):
        t = length / max(abs(edge[0]), abs(edge[1]))
        pts.append((t * edge[0], t * edge[1]))
    corners = [(sx * length, sy * length) for sx in (-1.0, 1.0) for sy in (-1.0, 1.0)]
    pts += [p for p in corners if within_angle(np.float64(p[0]), np.float64(p[1]), d, 45.0)]
    xs, ys = zip(*pts)
    return ox + min(xs), oy + min(ys), ox + max(xs), oy + max(ys)


def _cone_kind(shape: Cone, rules: Rules) -> ConeKind:
    return ConeKind(shape.kind) if shape.kind is not None else rules.cone


def _line_width(shape: Line, rules: Rules) -> float:
    return rules.line_width if shape.width is None else shape.width


def _rasterize(
    shape: Shape, o: _Origin, rules: Rules, square: float, window: Window, stop: float = math.inf
) -> BoolArray:
    """The squares of ``window`` the shape covers under ``rules``.

    ``stop`` (squares along its axis) is where a line strikes a wall or a floor.
    """
    if window.width == 0 or window.height == 0:
        return np.zeros(window.shape, dtype=bool)
    if pitched(shape):
        xs, ys = window.xs[None, :], window.ys[:, None]
        return pitched_columns(shape, o, rules, square, xs, ys, -math.inf, math.inf, stop)
    if isinstance(shape, (Sphere, Cylinder)):
        return _round(shape.radius / square, o, rules, window)
    if isinstance(shape, Shapable):
        return _shapable(shape, o, square, window)
    ox, oy = o.x0, o.y0
    if isinstance(shape, Line):
        return _line(shape, (ox, oy), rules, square, window, stop)
    d = unit_vector(float(shape.direction))
    if isinstance(shape, Cone):
        length = shape.length / square
        kind = _cone_kind(shape, rules)
        if kind is ConeKind.QUARTER_CIRCLE and rules.inclusion is Inclusion.FAR_EDGE:
            cx, cy = centers(window)
            aimed = within_angle(cx - ox, cy - oy, d, 45.0)
            return np.asarray(aimed & _far_within(length, o, rules, window))
        region: Region = _cone_region(kind, (ox, oy), d, float(shape.direction), length)
    else:
        region = _cube_region(shape, (ox, oy), d, square)
    return _include(region, (ox, oy), rules, window)


def pitched(shape: Shape) -> bool:
    """Whether ``shape`` is a cone or line aimed up or down (a level one keeps the level figures)."""
    return isinstance(shape, (Cone, Line)) and shape.pitch != 0.0


def pitched_columns(shape: Cone | Line, o: _Origin, rules: Rules, square: float, xs: ArrayLike, ys: ArrayLike,
                    lo: ArrayLike, hi: ArrayLike, stop: float = math.inf) -> BoolArray:
    """Whether a pitched cone or line meets the column of square ``(xs, ys)`` at a height in ``[lo, hi]``.

    Heights are in squares above the origin; the arrays broadcast. The solid
    and the point of each square tested are described in :mod:`aoegrid.geometry._pitch`.
    An area's mask holds the squares whose column it meets at some height
    (``lo = -inf``, ``hi = inf``); walls then cut it as any area.

    Examples
    --------
    >>> from aoegrid.geometry.rules import STARFINDER
    >>> up = Cone(30, "E", pitch=45)
    >>> at = _Origin(10.0, 10.0, 10.0, 10.0)
    >>> pitched_columns(up, at, STARFINDER, 5.0, [12, 12], [10, 12], [3, 0], [4, 1]).tolist()  # 15 ft up ahead; a ground square aside
    [True, False]
    """
    arrays = [np.asarray(v, dtype=np.float64) for v in (xs, ys, lo, hi)]
    point = (o.x0, o.y0)
    if isinstance(shape, Cone):
        return cone_columns(shape, _cone_kind(shape, rules), rules, point, square, *arrays)
    start, d, half, _ = _line_path(shape, point, rules, square)
    if abs(shape.pitch) == 90.0 and _line_width(shape, rules) == 0.0:
        # Straight up or down a line of no width stands on a point: nothing lies along a grid line.
        start = point
    return line_columns(shape, rules, start, d, half, point, square, stop, *arrays)


def pitched_mesh(shape: Cone | Line, o: _Origin, rules: Rules, square: float, stop: float = math.inf) -> Mesh:
    """The mesh of a pitched cone's or line's solid (:mod:`aoegrid.geometry._solids`), placed on the grid (heights above the origin).

    A cone's is its solid's, its length straight; a line's is the box of its
    template: its length (or ``stop``, squares along its axis, where it strikes
    a wall or a floor), its width across and as thick, from its start (moved
    by the rules' tie rule, as on the ground).

    Examples
    --------
    >>> from aoegrid.geometry.rules import SW5E
    >>> up = pitched_mesh(Cone(30, "E", pitch=90), _Origin(10.0, 10.0, 10.0, 10.0), SW5E, 5.0)
    >>> round(up.shadow(-math.inf, math.inf).area / math.pi, 3)  # its rim: radius 3 squares
    9.0
    """
    point = (o.x0, o.y0)
    if isinstance(shape, Cone):
        mesh = cone_mesh(_cone_kind(shape, rules), min(shape.length / square, MAX_LENGTH), float(shape.direction),
                         shape.pitch)
        return Mesh(mesh.points + (point[0], point[1], 0.0), mesh.edges)
    start, d, _, _ = _line_path(shape, point, rules, square)
    half = min(_line_width(shape, rules) / square, MAX_LENGTH) / 2.0
    return box_mesh(start, d, shape.pitch, half, min(shape.length / square, MAX_LENGTH, stop), half)


def pitched_heights(shape: Cone | Line, rules: Rules, square: float) -> tuple[float, float]:
    """The lowest and highest heights a pitched cone or line can meet, in squares above its origin.

    Far-edge counting meets no height farther than its length from the
    origin's (every diagonal rule counts at least the largest offset) where
    it counts the length (lines, quarter-circle cones); such a cone's length
    is then only that count, its direction
    keeping it above (below) the origin's height when aimed 45 degrees or
    more up (down).
    """
    kind = _cone_kind(shape, rules) if isinstance(shape, Cone) else None
    if kind is ConeKind.QUARTER_CIRCLE and rules.inclusion is Inclusion.FAR_EDGE:
        reach = min(shape.length / square, MAX_LENGTH)
        return (-reach if shape.pitch < 45.0 else 0.0), (reach if shape.pitch > -45.0 else 0.0)
    if isinstance(shape, Cone):
        assert kind is not None
        return cone_heights(shape, kind, square)
    half = _line_path(shape, (0.0, 0.0), rules, square)[2]
    _, run, thick = line_size(shape, rules, square, half, math.inf)
    lo, hi = line_heights(run, thick, shape.pitch)
    if rules.inclusion is Inclusion.FAR_EDGE:
        reach = min(shape.length / square, MAX_LENGTH)
        lo, hi = max(lo, -reach), min(hi, reach)
    return lo, hi


def _round(radius: float, o: _Origin, rules: Rules, window: Window) -> BoolArray:
    inc = rules.inclusion
    # A window wholly inside the circle (a whole-map burst) takes every square
    # under every rule: no per-square work. On each axis the farthest far
    # edge is an end square's.
    fx = max(o.x0 - window.x0, window.x0 + window.width - o.x1, 0.0)
    fy = max(o.y0 - window.y0, window.y0 + window.height - o.y1, 0.0)
    far = measure(fx, fy, rules.diagonals) <= radius + EPS if inc is Inclusion.FAR_EDGE else math.hypot(fx, fy) < radius - EPS
    if far:
        return np.ones(window.shape, dtype=bool)
    xs, ys = window.xs, window.ys
    if inc is Inclusion.FAR_EDGE:
        return _far_within(radius, o, rules, window)
    if inc is Inclusion.HALF:
        if not o.is_point:
            return covered(RoundedRect(o.x0, o.y0, o.x1, o.y1, radius), window, 0.5)
        # A disk's share of a square falls as the square moves away along a
        # row (the overlap of two symmetric convex figures is log-concave), to
        # a half about where its centre meets the circle; a square centred on
        # the circle itself has less than half inside (a disk is convex).
        cols = np.abs(xs + 0.5 - o.x0)
        rows = np.abs(ys + 0.5 - o.y0)
        return threshold_mask(
            cols,
            rows,
            lambda c, r: disk_rect_area(c - 0.5, c + 0.5, r - 0.5, r + 0.5, radius) >= 0.5 - EPS,
            lambda r: np.nextafter(_half_chord(radius * radius, r), -np.inf),
        )
    if inc is Inclusion.CENTER:
        cols, rows = center_offsets(xs, o.x0, o.x1), center_offsets(ys, o.y0, o.y1)
        limit = (radius + EPS) ** 2
        return threshold_mask(
            cols, rows, lambda c, r: c * c + r * r <= limit, lambda r: _half_chord(limit, r)
        )
    # touch: some area of the square lies strictly inside the circle.
    cols, rows = near_offsets(xs, o.x0, o.x1), near_offsets(ys, o.y0, o.y1)
    limit = max(radius - EPS, 0.0) ** 2  # a radius under EPS holds no area strictly inside
    return threshold_mask(
        cols, rows, lambda c, r: c * c + r * r < limit, lambda r: _half_chord(limit, r)
    )


def _half_chord(radius_squared: float, r: FloatArray) -> FloatArray:
    """Half the chord at height ``r`` of a circle at 0 of squared radius ``radius_squared``.

    -1 where the circle does not reach that height.
    """
    return np.where(r * r <= radius_squared, np.sqrt(np.maximum(radius_squared - r * r, 0.0)), -1.0)


def _far_within(length: float, o: _Origin, rules: Rules, window: Window) -> BoolArray:
    """Squares whose far corner lies within ``length`` under the diagonal rule."""
    cols = far_offsets(window.xs, o.x0, o.x1)
    rows = far_offsets(window.ys, o.y0, o.y1)
    rule = rules.diagonals
    limit = length + EPS
    return threshold_mask(
        cols, rows, lambda c, r: measure(c, r, rule) <= limit, lambda r: _far_reach(rule, limit, r)
    )


def _far_reach(rule: Diagonals, limit: float, r: FloatArray) -> FloatArray:
    """The largest column offset ``c`` with ``measure(c, r, rule) <= limit``, per row offset ``r``.

    Negative where the row takes nothing. Exact but for rounding, which
    :func:`threshold_mask` checks. The alternating rules and the
    approximate one count ``c + h(r)`` while ``c >= r``, and ``r + h(c)``
    below, for a halving ``h``.
    """
    if rule is Diagonals.EUCLIDEAN:
        return _half_chord(limit * limit, r)
    if rule is Diagonals.MANHATTAN:
        return limit - r
    if rule is Diagonals.EQUIDISTANT:
        return np.where(r <= limit, limit, -1.0)
    if rule is Diagonals.APPROXIMATE:
        wide, narrow = limit - r / 2, 2 * (limit - r)
    elif rule is Diagonals.ALTERNATING:
        # floor(c / 2) <= limit - r while c < 2 * floor(limit - r) + 2
        wide, narrow = limit - np.floor(r / 2), np.nextafter(2 * np.floor(limit - r) + 2, -np.inf)
    else:
        # ceil(c / 2) <= limit - r while c <= 2 * floor(limit - r)
        wide, narrow = limit - np.ceil(r / 2), 2 * np.floor(limit - r)
    return np.where(wide >= r, wide, narrow)


def _cone_region(kind: ConeKind, o: tuple[float, float], d: tuple[float, float], direction: float, length: float) -> Region:
    ox, oy = o
    if kind is ConeKind.QUARTER_CIRCLE:
        return Sector(ox, oy, length, direction, 45.0, d)
    if kind is ConeKind.TRIANGLE:
        n = right_normal(d)
        ex, ey = ox + length * d[0], oy + length * d[1]
        h = length / 2
        return ConvexPolygon(((ox, oy), (ex + h * n[0], ey + h * n[1]), (ex - h * n[0], ey - h * n[1])))
    return Teardrop(ox, oy, length, length / 6.0, direction)


def _cube_region(shape: Cube, o: tuple[float, float], d: tuple[float, float], square: float) -> Region:
    size = shape.size / square
    n = right_normal(d)
    ox, oy = o
    lo, hi = {Anchor.CENTER: (-size / 2, size / 2), Anchor.LEFT: (0.0, size), Anchor.RIGHT: (-size, 0.0)}[Anchor(shape.anchor)]
    a = (ox + lo * n[0], oy + lo * n[1])
    b = (ox + hi * n[0], oy + hi * n[1])
    return ConvexPolygon((a, b, (b[0] + size * d[0], b[1] + size * d[1]), (a[0] + size * d[0], a[1] + size * d[1])))


def _include(region: Region, o: tuple[float, float], rules: Rules, window: Window) -> BoolArray:
    inc = rules.inclusion
    if inc is Inclusion.CENTER:
        cx, cy = centers(window)
        return region.contains(cx, cy)
    if inc is Inclusion.HALF:
        return covered(region, window, 0.5)
    if inc is Inclusion.TOUCH:
        return covered(region, window, 0.0)
    # far-edge: the square's corner farthest from the origin is in the shape;
    # where two corners tie (origin level with the square's middle) both must be.
    ox, oy = o
    xs, ys = window.xs, window.ys
    fx_a = np.where(xs + 0.5 > ox, xs + 1, xs)[None, :]
    fx_b = np.where(xs + 0.5 >= ox, xs + 1, xs)[None, :]
    fy_a = np.where(ys + 0.5 > oy, ys + 1, ys)[:, None]
    fy_b = np.where(ys + 0.5 >= oy, ys + 1, ys)[:, None]
    out = region.contains(fx_a, fy_a)
    for px, py in ((fx_a, fy_b), (fx_b, fy_a), (fx_b, fy_b)):
        out &= region.contains(px, py)
    return out


def _line_path(
    shape: Line, o: tuple[float, float], rules: Rules, square: float
) -> tuple[tuple[float, float], tuple[float, float], float, float]:
    """A line's centre ray: its start, direction, the half-width around it, and its run (squares).

    Far-edge counting gives the ray's own squares the first square of width
    and a band ``(width - 1) / 2`` each side the rest; the diagonal rule, not
    the run, limits the length, so the run ends where no square is within it.
    A centre ray lying along a grid line crosses no square: when the line
    takes an odd number of rows it moves half a square to its ``side``.
    """
    length = shape.length / square
    width = _line_width(shape, rules) / square
    d = unit_vector(float(shape.direction))
    ox, oy = o
    if rules.inclusion is Inclusion.FAR_EDGE:
        half = max(width - 1.0, 0.0) / 2
        odd = max(math.ceil(width - EPS), 1) % 2 == 1
        run = (length + half + 1.0) / max(abs(d[0]), abs(d[1]))
    else:
        half, odd, run = width / 2, width == 0.0, length
    # A path straying less than EPS from an axis over its run lies along it (the tie rule).
    if abs(d[1]) * run < EPS:
        d = (math.copysign(1.0, d[0]), 0.0)
    elif abs(d[0]) * run < EPS:
        d = (0.0, math.copysign(1.0, d[1]))
    on_grid = (d[1] == 0.0 and oy.is_integer()) or (d[0] == 0.0 and ox.is_integer())
    if on_grid and odd:
        n = right_normal(d) if shape.side == Side.RIGHT else (d[1], -d[0])
        return (ox + 0.5 * n[0], oy + 0.5 * n[1]), d, half, run
    return o, d, half, run


def _band(start: tuple[float, float], d: tuple[float, float], half: float, run: float) -> ConvexPolygon:
    """The rectangle ``half`` each side of the segment from ``start``, ``run`` along ``d``."""
    n = right_normal(d)
    sx, sy = start
    ex, ey = sx + run * d[0], sy + run * d[1]
    return ConvexPolygon((
        (sx - half * n[0], sy - half * n[1]),
        (sx + half * n[0], sy + half * n[1]),
        (ex + half * n[0], ey + half * n[1]),
        (ex - half * n[0], ey - half * n[1]),
    ))


def _line(
    shape: Line, o: tuple[float, float], rules: Rules, square: float, window: Window, stop: float
) -> BoolArray:
    """The squares of a line.

    Far-edge counting (Starfinder, Pathfinder 2e) follows the rules text,
    "A line-shaped effect applies to all creatures in squares through which
    the line passes" (Starfinder) and "The line affects each creature whose
    space it passes through. Unless a line effect says otherwise, it is 5
    feet wide" (Pathfinder 2e): a line up to one square wide takes the
    squares whose interior its centre ray passes through, as the rulebooks'
    line diagrams draw them, and a wider one also the squares reaching
    within ``(width - 1 square) / 2`` of that ray. A square counts when its
    far corner is within the length by the diagonal rule ("areas are
    measured in the same way as movement") and its centre lies ahead of the
    origin (more than 1e-9 squares along the line), never beside or behind
    it. Foundry's pf2e system is not followed here: it leaves lines
    to Foundry's own template highlighting, which takes the squares whose
    centre lies in a 5-ft rectangle centred on the ray, its length measured
    straight, a drawing convenience rather than the rules' count (along a
    grid line from an intersection it takes both rows, 10 ft wide).

    Under the other rules a line is a ``width``-wide rectangle centred on
    its path, counted like any figure; a zero-width line takes the squares
    it crosses.
    """
    start, d, half, run = _line_path(shape, o, rules, square)
    run = min(run, stop)
    if rules.inclusion is Inclusion.FAR_EDGE:
        taken = ray_crossing(window, start, d, run)
        if half > 0.0:
            taken |= covered(_band(start, d, half, run), window, 0.0)
        cx, cy = centers(window)
        ahead = (cx - o[0]) * d[0] + (cy - o[1]) * d[1] > EPS
        return np.asarray(taken & ahead & _far_within(shape.length / square, _Origin(*o, *o), rules, window))
    if half == 0.0:
        return ray_crossing(window, start, d, run)
    return _include(_band(start, d, half, run), o, rules, window)


def _shapable(shape: Shapable, o: _Origin, square: float, window: Window) -> BoolArray:
    if not (o.x0.is_integer() and o.y0.is_integer()):
        raise InvalidValueError(
            f"a Shapable area is laid out from a grid intersection; ({o.x0:g}, {o.y0:g}) within "
            f"its square is not one"
        )
    side = shape.min_dimension / square - EPS
    n = math.ceil(side) if math.isfinite(side) else math.inf
    thin = _thin_squares(shape.squares, n)
    if thin:
        listed = ", ".join(str(c) for c in thin[:5])
        raise InvalidValueError(
            f"Shapable area has a dimension under {shape.min_dimension:g} "
            f"({n:g} squares): square(s) {listed} lie in no solid {n:g} x {n:g} block"
        )
    mask = np.zeros(window.shape, dtype=bool)
    for dx, dy in shape.squares:
        # Squares off the window (off the grid) are dropped: offsets run to 2**53.
        x, y = int(o.x0) + dx - window.x0, int(o.y0) + dy - window.y0
        if 0 <= x < window.width and 0 <= y < window.height:
            mask[y, x] = True
    return mask


def _thin_squares(cells: frozenset[tuple[int, int]], n: float) -> list[tuple[int, int]]:
    """Squares of ``cells`` in no full ``n`` x ``n`` block of ``cells``, row by row.

    Works on the squares, never on their bounding box (offsets run to
    2**53): about ``len(cells) * n`` steps, and a block needs ``n * n``
    squares, so ``n`` is at most the square root of their number.
    """
    if n <= 1:
        return []
    order = sorted(cells, key=lambda c: (c[1], c[0]))
    if n * n > len(order):
        return order
    k = int(n)
    run: dict[tuple[int, int], int] = {}  # squares from each one rightwards with no gap
    for x, y in reversed(order):
        run[(x, y)] = run.get((x + 1, y), 0) + 1
    tops = [(x, y) for x, y in order if all(run.get((x, y + j), 0) >= k for j in range(k))]
    # The top rows of the full blocks: a square is in a block when one lies less than k above it.
    top_rows = {(x + i, y) for x, y in tops for i in range(k)}
    return [(x, y) for x, y in order if not any((x, y - j) in top_rows for j in range(k))]
