"""Meshes of the pitched solids: their shadows over squares and their vertical sections.

Each cone of :mod:`aoegrid.geometry._pitch` is a solid of revolution about its axis:
a profile ``(A, R)`` (``A`` along the axis from the apex, ``R`` round it)
turned a full circle. Its mesh is that profile sampled (straight parts at
their ends, round parts every :data:`ARC_STEP` radians) and turned in
:data:`TURNS` steps, triangulated (a closed surface: rings of vertices,
fans at the two points on the axis). Every vertex lies on the solid, which
is convex, so everything built from the mesh lies in it: the mesh is
inscribed, no more than :data:`GAP` of the length inside the true surface
(the turn's chord costs ``R (1 - cos(pi / TURNS))`` at most ``length * 2e-5``;
a round part's triangle, of sides at most ``rho * ARC_STEP`` on a ball of
radius ``rho <= length``, lies within ``rho * ARC_STEP**2 / 4 <= length *
7.7e-5`` of it). A line's solid is a box: its mesh is its 8 corners and 12
edges, exact.

A convex solid cut by planes is convex, and so is its shadow (its vertical
projection): the hull of the mesh's vertices between the planes and the
points where its edges cross them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
import shapely
from numpy.typing import NDArray

from aoegrid.geometry.directions import right_normal, unit_vector
from aoegrid.geometry.options import ConeKind

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

#: Steps a full turn about the axis is meshed in.
TURNS = 360
#: The largest angle, in radians, between two mesh points of a round part of a profile.
ARC_STEP = math.pi / 180.0
#: How far inside the true solid the mesh may lie, as a share of the cone's length.
GAP = 1e-4
#: Longer cones are meshed at this length, in squares (their shadows then
#: keep exact unit-square areas in float64; no grid that fits in memory is
#: near so long).
MAX_MESH_LENGTH = 2.0**20


@dataclass(frozen=True, eq=False)
class Mesh:
    """Points ``(x, y, z)`` (squares: grid x and y from the apex or start, height above it) and edges between them."""

    points: FloatArray
    edges: IntArray

    @cached_property
    def shadow_whole(self) -> shapely.Geometry:
        """The shadow of the whole solid: the hull of every vertex's ground point."""
        return shapely.convex_hull(shapely.multipoints(self.points[:, :2]))

    def _crossing(self, values: FloatArray, level: float) -> FloatArray:
        """The points where edges cross ``values == level`` (``values`` one a vertex)."""
        a, b = self.edges[:, 0], self.edges[:, 1]
        va, vb = values[a] - level, values[b] - level
        cross = (va * vb) < 0.0
        lam = va[cross] / (va[cross] - vb[cross])
        pa, pb = self.points[a[cross]], self.points[b[cross]]
        return pa + lam[:, None] * (pb - pa)

    def shadow(self, lo: float, hi: float) -> shapely.Geometry:
        """The shadow of the solid's part from height ``lo`` to ``hi`` (either may be infinite).

        Examples
        --------
        >>> up = cone_mesh(ConeKind.TRIANGLE, 4.0, 0.0, 90.0)  # straight up: a disk of radius 2
        >>> round(up.shadow(-math.inf, math.inf).area / math.pi, 3), round(up.shadow(0.0, 2.0).area / math.pi, 3)
        (4.0, 1.0)
        """
        if lo > hi:
            return shapely.Polygon()
        if lo == -math.inf and hi == math.inf:
            return self.shadow_whole
        z = self.points[:, 2]
        parts = [self.points[(z >= lo) & (z <= hi)]]
        parts += [self._crossing(z, h) for h in (lo, hi) if math.isfinite(h)]
        pts = np.concatenate(parts)
        if len(pts) == 0:
            return shapely.Polygon()
        return shapely.convex_hull(shapely.multipoints(pts[:, :2]))

    def section(self, start: tuple[float, float], d: tuple[float, float]) -> FloatArray:
        """The solid's cut by the vertical plane through ``start`` along the unit ``d``.

        Returns the convex polygon's vertices in order, as ``(t, z)``: ``t``
        squares along ``d`` from ``start``, ``z`` the height; none (shape
        ``(0, 2)``) when the plane misses it or only touches it.

        Examples
        --------
        >>> up = cone_mesh(ConeKind.TRIANGLE, 4.0, 0.0, 90.0)  # cut through its apex: a triangle
        >>> up.section((-5.0, 0.0), (1.0, 0.0)).round(6).tolist()
        [[3.0, 4.0], [7.0, 4.0], [5.0, 0.0]]
        """
        rx, ry = self.points[:, 0] - start[0], self.points[:, 1] - start[1]
        side = d[0] * ry - d[1] * rx
        on = self.points[np.abs(side) <= 1e-12]
        pts = np.concatenate([on, self._crossing(side, 0.0)])
        if len(pts) < 3:
            return np.empty((0, 2))
        t = (pts[:, 0] - start[0]) * d[0] + (pts[:, 1] - start[1]) * d[1]
        hull = shapely.convex_hull(shapely.multipoints(np.column_stack([t, pts[:, 2]])))
        if not isinstance(hull, shapely.Polygon) or hull.area <= 0.0:
            return np.empty((0, 2))
        return np.asarray(shapely.get_coordinates(shapely.normalize(hull).exterior)[:-1])


def _profile(kind: ConeKind, length: float) -> FloatArray:
    """The cone's profile ``(A, R)`` from the apex to the far point on the axis."""
    def arc(centre: float, radius: float, start: float) -> list[tuple[float, float]]:
        steps = math.ceil(start / ARC_STEP)
        return [(centre + radius * math.cos(t), radius * math.sin(t)) for t in np.linspace(start, 0.0, steps + 1)]

    if kind is ConeKind.TRIANGLE:
        return np.array([(0.0, 0.0), (length, length / 2.0), (length, 0.0)])
    if kind is ConeKind.QUARTER_CIRCLE:
        return np.array([(0.0, 0.0), *arc(0.0, length, math.pi / 4.0)])
    # The teardrop's sides touch its ball where cos(angle) = -1/5 round the ball's centre (aoegrid.geometry._pitch).
    return np.array([(0.0, 0.0), *arc(length * 5.0 / 6.0, length / 6.0, math.acos(-0.2))])


@lru_cache(maxsize=64)
def cone_mesh(kind: ConeKind, length: float, direction: float, pitch: float) -> Mesh:
    """The mesh of a pitched cone ``length`` squares long, its apex at ``(0, 0, 0)``.

    ``direction`` and ``pitch`` in degrees, as the shape's.

    Examples
    --------
    >>> m = cone_mesh(ConeKind.TRIANGLE, 6.0, 0.0, 0.0)
    >>> len(m.points), round(m.shadow_whole.area, 3)  # level: the 5e triangle, 6 long and 6 wide
    (362, 18.0)
    """
    length = min(length, MAX_MESH_LENGTH)
    u = unit_vector(direction)
    n = right_normal(u)
    c, sg = unit_vector(pitch)
    axis = np.array([c * u[0], c * u[1], sg])
    across = np.array([n[0], n[1], 0.0])
    up = np.array([-sg * u[0], -sg * u[1], c])
    prof = _profile(kind, length)
    rings = prof[1:-1]
    phi = np.arange(TURNS) * (2.0 * math.pi / TURNS)
    ring_pts = (rings[:, None, 0, None] * axis
                + rings[:, None, 1, None] * (np.cos(phi)[:, None] * across + np.sin(phi)[:, None] * up))
    points = np.concatenate([[prof[0, 0] * axis], ring_pts.reshape(-1, 3), [prof[-1, 0] * axis]])
    k, j = np.meshgrid(np.arange(len(rings)), np.arange(TURNS), indexing="ij")
    ring = 1 + k * TURNS + j
    nxt = 1 + k * TURNS + (j + 1) % TURNS
    last = len(points) - 1
    edges = [np.stack([ring, nxt], -1).reshape(-1, 2),                       # round each ring
             np.stack([np.zeros(TURNS, np.intp), ring[0]], -1),               # the apex's fan
             np.stack([np.full(TURNS, last), ring[-1]], -1),                  # the far point's fan
             np.stack([ring[:-1], ring[1:]], -1).reshape(-1, 2),              # ring to ring
             np.stack([ring[:-1], nxt[1:]], -1).reshape(-1, 2)]               # the quads' diagonals
    return Mesh(points, np.concatenate(edges).astype(np.intp))


def box_mesh(start: tuple[float, float], d: tuple[float, float], pitch: float, half: float, run: float,
             thick: float) -> Mesh:
    """The box of a pitched line: ``run`` along its axis from ``start``, ``half`` aside, ``thick`` above and below.

    Examples
    --------
    >>> b = box_mesh((0.0, 0.0), (1.0, 0.0), 90.0, 0.5, 6.0, 0.5)  # straight up: a 1 x 1 x 6 column
    >>> b.shadow(-math.inf, math.inf).area, float(b.section((-1.0, 0.0), (1.0, 0.0))[:, 1].max())
    (1.0, 6.0)
    """
    c, sg = unit_vector(pitch)
    n = right_normal(d)
    axis = np.array([c * d[0], c * d[1], sg])
    across = np.array([n[0], n[1], 0.0])
    up = np.array([-sg * d[0], -sg * d[1], c])
    corners = [(t, s, r) for t in (0.0, run) for s in (-half, half) for r in (-thick, thick)]
    points = np.array([[start[0], start[1], 0.0] + t * axis + s * across + r * up for t, s, r in corners])
    # Corners differing in one coordinate share an edge: index bits 4 (t), 2 (s), 1 (r).
    edges = np.array([(i, i | b) for i in range(8) for b in (1, 2, 4) if not i & b], dtype=np.intp)
    return Mesh(points, edges)


def shares(mesh: Mesh, apex: tuple[float, float], xs: FloatArray, ys: FloatArray, lo: FloatArray,
           hi: FloatArray) -> FloatArray:
    """The share of each square ``(xs, ys)`` (corner to corner + 1) under the shadow of the part from ``lo`` to ``hi``.

    ``apex`` places the mesh's origin on the grid; heights are in squares;
    the arrays broadcast.

    Examples
    --------
    >>> up = cone_mesh(ConeKind.TRIANGLE, 4.0, 0.0, 90.0)  # a disk of radius 2 (exactly: 1, 0.9132, 0)
    >>> shares(up, (10.0, 10.0), np.array([10.0, 11.0, 12.0]), np.array(10.0), -np.inf, np.inf).round(3).tolist()
    [1.0, 0.913, 0.0]
    """
    xs, ys, lo, hi = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (xs, ys, lo, hi)))
    out = np.zeros(xs.shape)
    # One shadow per distinct height range: an area's stencil asks one, a creature's prism another.
    pairs, which = np.unique(np.stack([lo.ravel(), hi.ravel()], -1), axis=0, return_inverse=True)
    which = which.ravel()
    flat_x, flat_y, flat_out = xs.ravel() - apex[0], ys.ravel() - apex[1], out.reshape(-1)
    for i, (a, b) in enumerate(pairs):
        shade = mesh.shadow(float(a), float(b))
        if shade.is_empty:
            continue
        x0, y0, x1, y1 = shade.bounds
        pick = np.flatnonzero((which == i) & (flat_x < x1) & (flat_x + 1.0 > x0) & (flat_y < y1) & (flat_y + 1.0 > y0))
        boxes = shapely.box(flat_x[pick], flat_y[pick], flat_x[pick] + 1.0, flat_y[pick] + 1.0)
        flat_out[pick] = shapely.area(shapely.intersection(boxes, shade))
    return out
