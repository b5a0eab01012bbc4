"""Shapes to squares in open field: each shape under each inclusion rule.

The pure core behind :func:`aoegrid.area.area`: given a shape, a resolved
origin and rules, the bool mask of the squares the shape covers in a window,
with no walls. Each function touches only the window it is given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from aoegrid.directions import right_normal, unit_vector
from aoegrid.distance import measure
from aoegrid.errors import InvalidValueError
from aoegrid.grid import Grid
from aoegrid.options import Anchor, ConeKind, Inclusion, Side
from aoegrid.raster import (
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
from aoegrid.regions import EPS, ConvexPolygon, Region, RoundedRect, Sector, Teardrop, within_angle
from aoegrid.rules import Rules
from aoegrid.shapes import Cone, Cube, Cylinder, Line, Shapable, Shape, Sphere

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
    where it strikes a wall.
    """
    fx, fy = math.floor(origin.x0), math.floor(origin.y0)
    rel = _Origin(origin.x0 - fx, origin.y0 - fy, origin.x1 - fx, origin.y1 - fy)
    full = Window.around(_bounds(shape, rel, rules, grid.square), None)
    if full.width * full.height <= _CACHE_CELLS and stop == math.inf:
        stencil = _cached_stencil(shape, rel, rules, grid.square, full)
        win, local = full, stencil
    else:
        # Too big to cache (or cut by a wall): compute only the part on the grid.
        x0 = max(full.x0, -fx)
        y0 = max(full.y0, -fy)
        x1 = min(full.x0 + full.width, grid.width - fx)
        y1 = min(full.y0 + full.height, grid.height - fy)
        win = Window(x0, y0, max(x1 - x0, 0), max(y1 - y0, 0))
        local = _rasterize(shape, rel, rules, grid.square, win, stop)
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


def _bounds(shape: Shape, o: _Origin, rules: Rules, square: float) -> tuple[float, float, float, float]:
    """A box holding every square the shape can take."""
    if isinstance(shape, Shapable):
        x0, y0, x1, y1 = shape.bounds
        return o.x0 + x0, o.y0 + y0, o.x0 + x1, o.y0 + y1
    if isinstance(shape, Line):
        reach = (shape.length + _line_width(shape, rules)) / square
    else:
        reach = shape.reach / square
    # Every diagonal rule counts at least the larger offset, so a far-edge
    # square lies within `reach` squares of the origin on each axis.
    return o.x0 - reach, o.y0 - reach, o.x1 + reach, o.y1 + reach


def _line_width(shape: Line, rules: Rules) -> float:
    return rules.line_width if shape.width is None else shape.width


def _rasterize(
    shape: Shape, o: _Origin, rules: Rules, square: float, window: Window, stop: float = math.inf
) -> BoolArray:
    """The squares of ``window`` the shape covers under ``rules``.

    ``stop`` (squares) is where a line strikes a wall.
    """
    if window.width == 0 or window.height == 0:
        return np.zeros(window.shape, dtype=bool)
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
        kind = ConeKind(shape.kind) if shape.kind is not None else rules.cone
        if kind is ConeKind.QUARTER_CIRCLE and rules.inclusion is Inclusion.FAR_EDGE:
            cx, cy = centers(window)
            aimed = within_angle(cx - ox, cy - oy, d, 45.0)
            return np.asarray(aimed & _far_within(length, o, rules, window))
        region: Region = _cone_region(kind, (ox, oy), d, float(shape.direction), length)
    else:
        region = _cube_region(shape, (ox, oy), d, square)
    return _include(region, (ox, oy), rules, window)


def _round(radius: float, o: _Origin, rules: Rules, window: Window) -> BoolArray:
    inc = rules.inclusion
    xs, ys = window.xs, window.ys
    if inc is Inclusion.FAR_EDGE:
        return _far_within(radius, o, rules, window)
    if inc is Inclusion.HALF:
        if not o.is_point:
            return covered(RoundedRect(o.x0, o.y0, o.x1, o.y1, radius), window, 0.5)
        # A disk's share of a square falls as the square moves away along a
        # row (the overlap of two symmetric convex figures is log-concave), so
        # each row is an interval found by bisection on the closed-form area.
        cols = np.abs(xs + 0.5 - o.x0)
        rows = np.abs(ys + 0.5 - o.y0)
        return threshold_mask(
            cols, rows, lambda c, r: disk_rect_area(c - 0.5, c + 0.5, r - 0.5, r + 0.5, radius) >= 0.5 - EPS
        )
    if inc is Inclusion.CENTER:
        cols, rows = center_offsets(xs, o.x0, o.x1), center_offsets(ys, o.y0, o.y1)
        limit = (radius + EPS) ** 2
        return threshold_mask(cols, rows, lambda c, r: c * c + r * r <= limit)
    # touch: some area of the square lies strictly inside the circle.
    cols, rows = near_offsets(xs, o.x0, o.x1), near_offsets(ys, o.y0, o.y1)
    limit = (radius - EPS) ** 2
    return threshold_mask(cols, rows, lambda c, r: c * c + r * r < limit)


def _far_within(length: float, o: _Origin, rules: Rules, window: Window) -> BoolArray:
    """Squares whose far corner lies within ``length`` under the diagonal rule."""
    cols = far_offsets(window.xs, o.x0, o.x1)
    rows = far_offsets(window.ys, o.y0, o.y1)
    rule = rules.diagonals
    return threshold_mask(cols, rows, lambda c, r: measure(c, r, rule) <= length + EPS)


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


def _line(
    shape: Line, o: tuple[float, float], rules: Rules, square: float, window: Window, stop: float
) -> BoolArray:
    length = shape.length / square
    width = _line_width(shape, rules) / square
    d = unit_vector(float(shape.direction))
    n = right_normal(d)
    if shape.side == Side.LEFT:
        n = (-n[0], -n[1])
    ox, oy = o
    far_edge = rules.inclusion is Inclusion.FAR_EDGE
    if width == 0.0:
        # A line lying on a grid line crosses no square: it takes the squares
        # on its chosen side, as if moved half a square that way.
        on_grid = (d[1] == 0.0 and oy.is_integer()) or (d[0] == 0.0 and ox.is_integer())
        start = (ox + 0.5 * n[0], oy + 0.5 * n[1]) if on_grid else o
        crossed = ray_crossing(window, start, d, min(stop, math.inf if far_edge else length))
        if far_edge:
            crossed &= _far_within(length, _Origin(ox, oy, ox, oy), rules, window)
        return crossed
    if far_edge:
        # The band runs beside the line on its side; the diagonal rule, not
        # the band's end, limits the length, so the band runs long.
        run = min(1.5 * length + 2.0, stop)
        band = ConvexPolygon((
            (ox, oy),
            (ox + width * n[0], oy + width * n[1]),
            (ox + width * n[0] + run * d[0], oy + width * n[1] + run * d[1]),
            (ox + run * d[0], oy + run * d[1]),
        ))
        return np.asarray(covered(band, window, 0.0) & _far_within(length, _Origin(ox, oy, ox, oy), rules, window))
    h = width / 2
    length = min(length, stop)
    band = ConvexPolygon((
        (ox - h * n[0], oy - h * n[1]),
        (ox + h * n[0], oy + h * n[1]),
        (ox + h * n[0] + length * d[0], oy + h * n[1] + length * d[1]),
        (ox - h * n[0] + length * d[0], oy - h * n[1] + length * d[1]),
    ))
    return _include(band, o, rules, window)


def _shapable(shape: Shapable, o: _Origin, square: float, window: Window) -> BoolArray:
    if not (o.x0.is_integer() and o.y0.is_integer()):
        raise InvalidValueError(
            f"a Shapable area is laid out from a grid intersection; ({o.x0:g}, {o.y0:g}) within "
            f"its square is not one"
        )
    mask = np.zeros(window.shape, dtype=bool)
    for dx, dy in shape.squares:
        mask[int(o.y0) + dy - window.y0, int(o.x0) + dx - window.x0] = True
    n = math.ceil(shape.min_dimension / square - EPS)
    thin = _thin_squares(mask, n)
    if thin:
        listed = ", ".join(str((x + window.x0 - int(o.x0), y + window.y0 - int(o.y0))) for x, y in thin[:5])
        raise InvalidValueError(
            f"Shapable area has a dimension under {shape.min_dimension:g} "
            f"({n} squares): square(s) {listed} lie in no solid {n} x {n} block"
        )
    return mask


def _thin_squares(mask: BoolArray, n: int) -> list[tuple[int, int]]:
    """Squares of ``mask`` covered by no full ``n`` x ``n`` block of ``mask``."""
    if n <= 1:
        return []
    h, w = mask.shape
    pad = np.pad(mask, n).astype(np.int32)
    s = np.pad(pad.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    full = (s[n:, n:] - s[:-n, n:] - s[n:, :-n] + s[:-n, :-n]) == n * n
    f = np.pad(full.astype(np.int32), ((n - 1, 0), (n - 1, 0)))
    t = np.pad(f.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    reach = (t[n:, n:] - t[:-n, n:] - t[n:, :-n] + t[:-n, :-n]) > 0
    reach = reach[n : n + h, n : n + w]
    ys, xs = np.nonzero(mask & ~reach)
    return list(zip(xs.tolist(), ys.tolist()))
