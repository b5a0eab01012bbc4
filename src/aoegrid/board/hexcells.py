"""Exact per-hex answers: how much of each hex a figure covers, and what an origin reaches of it.

The hex counterpart of :mod:`aoegrid.geometry.raster`. Hexes are convex, and so is
every figure a shape is made of (:mod:`aoegrid.geometry.regions`), so a figure's share
of a hex is worked out exactly: the figure is split into convex polygons,
some cut by a disk (a sector is a wedge cut by its disk, a teardrop a
triangle and a disk less their overlap); shapely clips each hex by the
polygon, exact to rounding, and the clipped polygon's area inside the disk
has a closed form (:func:`disk_polygon_area`). No arc is ever approximated by
a polygon, so a hex covered exactly half by a 5e circle is decided by the
rule, not by how finely the circle was drawn.

Hexes are given as arrays ``cols``, ``rows`` (any shape, broadcast), in the
coordinates of :class:`~aoegrid.geometry.hexgrid.HexGrid`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray

from aoegrid.geometry.cover import Cover, CoverRule
from aoegrid.geometry.hexgrid import HexGrid
from aoegrid.geometry.regions import (
    EPS,
    ConvexPolygon,
    Figure,
    Outline,
    RoundedRect,
    Sector,
    Teardrop,
)

if TYPE_CHECKING:
    from aoegrid.board.visibility import Visibility

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

#: The area of a hex one unit wide flat to flat.
HEX_AREA = math.sqrt(3) / 2

#: A disk ``(cx, cy, r)``.
Disk = tuple[float, float, float]
#: One piece of a figure: its sign in the sum, a convex polygon (None: the whole plane) and a disk
#: (None: no disk) it is cut by.
Part = tuple[float, "shapely.Polygon | None", "Disk | None"]


def hex_polygons(grid: HexGrid, cols: ArrayLike, rows: ArrayLike) -> NDArray[np.object_]:
    """The hexes ``(cols, rows)`` as shapely polygons, clockwise on screen.

    Examples
    --------
    >>> g = HexGrid(4, 4)
    >>> p = hex_polygons(g, [0, 1], 0)
    >>> p.shape, round(float(p[0].area), 6), p[1].bounds[0]
    ((2,), 0.866025, 1.0)
    """
    return np.asarray(shapely.polygons(grid.corners(cols, rows)))


def disk_polygon_area(polygons: ArrayLike, disk: Disk) -> FloatArray:
    """The exact area of each polygon inside ``disk``.

    Each polygon's outline is split into the triangles it makes with the
    disk's centre; the disk's share of each is a triangle where the edge lies
    inside and a circular sector where it lies outside, added with the
    triangle's sign, so any simple polygon works and nothing is sampled.

    Examples
    --------
    >>> sq = shapely.box(-2, -2, 2, 2)
    >>> a = disk_polygon_area([sq, shapely.box(0, 0, 2, 2)], (0.0, 0.0, 1.0))
    >>> bool(np.allclose(a, [np.pi, np.pi / 4]))
    True
    """
    polys = np.asarray(polygons, dtype=object).ravel()
    out = np.zeros(polys.size)
    cx, cy, r = disk
    ok = shapely.is_valid_input(polys) & ~shapely.is_empty(polys)
    keep = np.flatnonzero(ok & (shapely.get_type_id(polys) == shapely.GeometryType.POLYGON))
    if not keep.size or r <= 0.0:
        return out
    rings = shapely.get_exterior_ring(polys[keep])
    pts, idx = shapely.get_coordinates(rings, return_index=True)
    same = idx[1:] == idx[:-1]
    a = pts[:-1][same] - (cx, cy)
    b = pts[1:][same] - (cx, cy)
    d = b - a
    aa = np.einsum("ij,ij->i", d, d)
    bb = np.einsum("ij,ij->i", a, d)
    cc = np.einsum("ij,ij->i", a, a) - r * r
    disc = bb * bb - aa * cc
    root = np.sqrt(np.maximum(disc, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        t1 = np.where(aa > 0, (-bb - root) / aa, 0.0)
        t2 = np.where(aa > 0, (-bb + root) / aa, 0.0)
    # No crossing (or one touching): the edge's nearest point splits it, and
    # both halves lie outside, so the pieces below come out as one sector.
    miss = disc <= 0.0
    mid = np.where(aa > 0, -bb / np.where(aa > 0, aa, 1.0), 0.0)
    t1 = np.clip(np.where(miss, mid, t1), 0.0, 1.0)
    t2 = np.clip(np.where(miss, mid, t2), 0.0, 1.0)
    p = a + t1[:, None] * d
    q = a + t2[:, None] * d

    def cross(u: FloatArray, v: FloatArray) -> FloatArray:
        return u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]

    def sector(u: FloatArray, v: FloatArray) -> FloatArray:
        return 0.5 * r * r * np.arctan2(cross(u, v), np.einsum("ij,ij->i", u, v))

    signed = sector(a, p) + 0.5 * cross(p, q) + sector(q, b)
    per = np.bincount(idx[:-1][same], weights=signed, minlength=keep.size)
    out[keep] = np.abs(per)
    return out


def parts(figure: Figure) -> list[Part]:
    """``figure`` as a signed sum of convex polygons, each maybe cut by a disk (see the module).

    Examples
    --------
    >>> [(s, p is None, d) for s, p, d in parts(RoundedRect(1.0, 1.0, 1.0, 1.0, 2.0))]
    [(1.0, True, (1.0, 1.0, 2.0))]
    """
    if isinstance(figure, (ConvexPolygon, Outline)):
        return [(1.0, shapely.Polygon(np.asarray(figure.boundary()[0])[:, :2]), None)]
    if isinstance(figure, RoundedRect):
        return _rounded_rect(figure)
    if isinstance(figure, Sector):
        t0, t1 = figure._angles
        # A fan of rays at 2r: a chord between rays at most 60 degrees apart stays outside the disk.
        n = max(1, math.ceil((t1 - t0) / (math.pi / 3)))
        ts = np.linspace(t0, t1, n + 1)
        fan = [(figure.cx, figure.cy)] + [
            (figure.cx + 2 * figure.r * math.cos(t), figure.cy + 2 * figure.r * math.sin(t)) for t in ts
        ]
        return [(1.0, shapely.Polygon(fan), (figure.cx, figure.cy, figure.r))]
    if isinstance(figure, Teardrop):
        centre, p, q = figure._tangents()
        disk = (centre[0], centre[1], figure.end_radius)
        tri = shapely.Polygon([(figure.ax, figure.ay), p, q])
        # Disk and triangle overlap in the cap between the tangent points' chord and the apex.
        return [(1.0, None, disk), (1.0, tri, None), (-1.0, tri, disk)]
    raise TypeError(f"no hex coverage for {type(figure).__name__}")


def _rounded_rect(f: RoundedRect) -> list[Part]:
    """Points within ``r`` of a rectangle: a cross of two rectangles and four quarter-disks."""
    x0, y0, x1, y1, r = f.x0, f.y0, f.x1, f.y1, f.r
    if x0 == x1 and y0 == y1:
        return [(1.0, None, (x0, y0, r))]
    out: list[Part] = []
    wide, tall = shapely.box(x0 - r, y0, x1 + r, y1), shapely.box(x0, y0 - r, x1, y1 + r)
    core = shapely.box(x0, y0, x1, y1)
    for sign, poly in ((1.0, wide), (1.0, tall), (-1.0, core)):
        if poly.area > 0.0:
            out.append((sign, poly, None))
    for cx, cy, sx, sy in ((x0, y0, -1, -1), (x1, y0, 1, -1), (x0, y1, -1, 1), (x1, y1, 1, 1)):
        quadrant = shapely.box(min(cx, cx + 2 * r * sx), min(cy, cy + 2 * r * sy),
                               max(cx, cx + 2 * r * sx), max(cy, cy + 2 * r * sy))
        out.append((1.0, quadrant, (cx, cy, r)))
    return out


def fractions(grid: HexGrid, figure: Figure, cols: ArrayLike, rows: ArrayLike) -> FloatArray:
    """The exact fraction of each hex ``(cols, rows)`` that ``figure`` covers, in [0, 1].

    Examples
    --------
    >>> g = HexGrid(5, 5)
    >>> x, y = g.center(2, 2)
    >>> f = fractions(g, RoundedRect(x, y, x, y, 0.5), [2, 3], 2)   # the hex's inscribed circle
    >>> [round(float(v), 6) for v in f]
    [0.9069, 0.0]
    """
    cols_, rows_ = np.broadcast_arrays(np.asarray(cols), np.asarray(rows))
    hexes = hex_polygons(grid, cols_.ravel(), rows_.ravel())
    total = np.zeros(hexes.size)
    x0, y0, x1, y1 = figure.bounds
    near = np.flatnonzero(shapely.intersects(hexes, shapely.box(x0, y0, x1, y1)))
    for sign, poly, disk in parts(figure):
        cut = hexes[near] if poly is None else shapely.intersection(hexes[near], poly)
        area = shapely.area(cut) if disk is None else disk_polygon_area(cut, disk)
        total[near] += sign * area
    out = np.clip(total / HEX_AREA, 0.0, 1.0) + 0.0
    return out.reshape(cols_.shape)


def polygon_fractions(grid: HexGrid, polygon: FloatArray, cols: ArrayLike, rows: ArrayLike) -> FloatArray:
    """The fraction of each hex inside the simple polygon with vertices ``polygon`` ``(n, 2)``.

    For visibility polygons (star-shaped, not convex); exact to rounding.
    """
    cols_, rows_ = np.broadcast_arrays(np.asarray(cols), np.asarray(rows))
    hexes = hex_polygons(grid, cols_.ravel(), rows_.ravel())
    shape = shapely.make_valid(shapely.Polygon(polygon))
    cut = shapely.intersection(hexes, shape)
    return (np.clip(shapely.area(cut) / HEX_AREA, 0.0, 1.0) + 0.0).reshape(cols_.shape)


def visible_fractions(
    bmap: Any, origin: tuple[float, float], cols: ArrayLike, rows: ArrayLike, channel: str = "effect"
) -> FloatArray:
    """The fraction of each hex a straight line from ``origin`` reaches among ``bmap``'s walls.

    ``bmap`` is a :class:`~aoegrid.BattleMap` on a hex grid; ``channel`` is
    ``"effect"``, ``"sight"`` or ``"movement"``.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(6, 3)
    >>> m = ag.BattleMap(g, walls=[ag.Wall((3.0, 0), (3.0, 3))])
    >>> visible_fractions(m, g.center(0, 1), [1, 2, 3, 4], 1).round(3).tolist()
    [1.0, 0.5, 0.0, 0.0]
    """
    vis = view(bmap, origin, channel)
    return polygon_fractions(bmap.grid, vis.polygon(), cols, rows)


def view(bmap: Any, origin: tuple[float, float], channel: str = "effect") -> Visibility:
    """The visibility of ``origin`` on ``bmap``, exact over the whole map."""
    w, h = bmap.size
    return bmap.visibility(channel, (float(origin[0]), float(origin[1])), (-1.0, -1.0, w + 1.0, h + 1.0))


def blocked_corners(grid: HexGrid, vis: Visibility, cols: ArrayLike, rows: ArrayLike) -> NDArray[np.int_]:
    """For each hex, how many of its six corners ``vis``'s origin cannot see."""
    c = grid.corners(cols, rows)
    return 6 - vis.sees(c[..., 0], c[..., 1]).sum(axis=-1)


def grade(rule: CoverRule, visible: FloatArray, blocked: NDArray[np.int_]) -> NDArray[np.int8]:
    """Cover grades of hexes from visible fractions and counts of blocked corner lines (of six).

    ``corner-count`` (the 5e DMG's hex variant, p. 251): half cover when three
    of the six lines are blocked, three-quarters when four or more are.
    ``any-corner`` and ``total-only`` grade as on squares
    (:func:`aoegrid.geometry.cover.grade`). A hex no line reaches has total cover.

    Examples
    --------
    >>> grade(CoverRule.CORNER_COUNT, np.array([1.0, 0.9, 0.6, 0.2, 0.0]), np.array([0, 2, 3, 5, 6])).tolist()
    [0, 0, 1, 2, 3]
    """
    out = np.zeros(np.shape(visible), dtype=np.int8)
    if rule is CoverRule.ANY_CORNER:
        out[(blocked > 0) | (visible < 1.0 - EPS)] = Cover.PARTIAL
    elif rule is CoverRule.CORNER_COUNT:
        out[blocked == 3] = Cover.PARTIAL
        out[blocked >= 4] = Cover.THREE_QUARTERS
    out[visible <= EPS] = Cover.TOTAL
    return out
