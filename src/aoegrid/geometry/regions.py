"""Exact plane figures: the true outlines of shapes on the grid.

Every figure is convex and closed. It answers three questions, all in grid
units (x right, y down, angles clockwise on screen from +x):

* ``bounds``: its bounding box;
* ``contains(px, py)``: which points lie in it (points within :data:`EPS` of
  the outline count as on it, and on it counts as in);
* ``boundary()``: its outline as straight segments ``(x0, y0, x1, y1)`` and
  circular arcs ``(cx, cy, r, theta0, theta1)``, traversed in one direction, for
  the exact area rasteriser in :mod:`aoegrid.geometry.raster`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

#: Tolerance, in squares, for points on an outline and for area fractions.
EPS = 1e-9

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
Vec = tuple[float, float]


def _no_arcs() -> FloatArray:
    return np.empty((0, 5))


@dataclass(frozen=True, slots=True)
class ConvexPolygon:
    """A convex polygon; ``vertices`` go around it in either direction."""

    vertices: tuple[Vec, ...]

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        xs = [v[0] for v in self.vertices]
        ys = [v[1] for v in self.vertices]
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, px: FloatArray, py: FloatArray) -> BoolArray:
        v = np.asarray(self.vertices, dtype=np.float64)
        nxt = np.roll(v, -1, axis=0)
        # Twice the signed area gives the winding, so either order works.
        orient = np.sign(np.sum(v[:, 0] * nxt[:, 1] - nxt[:, 0] * v[:, 1])) or 1.0
        inside = np.ones(np.broadcast(px, py).shape, dtype=bool)
        for (ax, ay), (bx, by) in zip(v, nxt):
            ex, ey = bx - ax, by - ay
            length = math.hypot(ex, ey)
            if length == 0.0:
                continue
            cross = (ex * (py - ay) - ey * (px - ax)) * orient
            inside &= cross >= -EPS * length
        return inside

    def boundary(self) -> tuple[FloatArray, FloatArray]:
        v = np.asarray(self.vertices, dtype=np.float64)
        return np.hstack([v, np.roll(v, -1, axis=0)]), _no_arcs()


@dataclass(frozen=True, slots=True)
class RoundedRect:
    """Points within ``r`` of the rectangle ``[x0, x1] x [y0, y1]``.

    With ``x0 == x1`` and ``y0 == y1`` it is the disk of radius ``r``.
    """

    x0: float
    y0: float
    x1: float
    y1: float
    r: float

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        return self.x0 - self.r, self.y0 - self.r, self.x1 + self.r, self.y1 + self.r

    def contains(self, px: FloatArray, py: FloatArray) -> BoolArray:
        dx = np.maximum(0.0, np.maximum(self.x0 - px, px - self.x1))
        dy = np.maximum(0.0, np.maximum(self.y0 - py, py - self.y1))
        return np.asarray(dx * dx + dy * dy <= (self.r + EPS) ** 2)

    def boundary(self) -> tuple[FloatArray, FloatArray]:
        x0, y0, x1, y1, r = self.x0, self.y0, self.x1, self.y1, self.r
        h = math.pi / 2
        # Clockwise on screen: top edge east, right edge south, and so on.
        segs = np.array(
            [
                [x0, y0 - r, x1, y0 - r],
                [x1 + r, y0, x1 + r, y1],
                [x1, y1 + r, x0, y1 + r],
                [x0 - r, y1, x0 - r, y0],
            ]
        )
        arcs = np.array(
            [
                [x1, y0, r, -h, 0.0],
                [x1, y1, r, 0.0, h],
                [x0, y1, r, h, 2 * h],
                [x0, y0, r, 2 * h, 3 * h],
            ]
        )
        return segs, arcs


@dataclass(frozen=True, slots=True)
class Sector:
    """A circular sector: radius ``r``, centred on ``direction`` (degrees).

    ``half_angle`` (degrees, at most 90) is measured each side of the direction;
    the two straight sides are in the sector.
    """

    cx: float
    cy: float
    r: float
    direction: float
    half_angle: float
    axis: Vec

    @property
    def _angles(self) -> tuple[float, float]:
        mid = math.radians(self.direction)
        half = math.radians(self.half_angle)
        return mid - half, mid + half

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        t0, t1 = self._angles
        pts = [(self.cx, self.cy)]
        angles = [t0, t1] + [k * math.pi / 2 for k in range(-4, 9) if t0 < k * math.pi / 2 < t1]
        pts += [(self.cx + self.r * math.cos(a), self.cy + self.r * math.sin(a)) for a in angles]
        xs, ys = zip(*pts)
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, px: FloatArray, py: FloatArray) -> BoolArray:
        vx, vy = px - self.cx, py - self.cy
        return np.asarray(
            within_angle(vx, vy, self.axis, self.half_angle)
            & (vx * vx + vy * vy <= (self.r + EPS) ** 2)
        )

    def boundary(self) -> tuple[FloatArray, FloatArray]:
        t0, t1 = self._angles
        cx, cy, r = self.cx, self.cy, self.r
        a = (cx + r * math.cos(t0), cy + r * math.sin(t0))
        b = (cx + r * math.cos(t1), cy + r * math.sin(t1))
        segs = np.array([[cx, cy, a[0], a[1]], [b[0], b[1], cx, cy]])
        return segs, np.array([[cx, cy, r, t0, t1]])


@dataclass(frozen=True, slots=True)
class Teardrop:
    """The convex hull of an apex and a disk ahead of it: the Savage Worlds cone.

    ``length`` runs from the apex to the far end of the disk, whose radius is
    ``end_radius``.
    """

    ax: float
    ay: float
    length: float
    end_radius: float
    direction: float

    @property
    def _parts(self) -> tuple[Vec, float, float]:
        d = math.radians(self.direction)
        dist = self.length - self.end_radius
        centre = (self.ax + dist * math.cos(d), self.ay + dist * math.sin(d))
        # A length that underflows to nothing leaves a point: any angle will do.
        beta = math.acos(self.end_radius / dist) if dist > 0.0 else 0.0
        # Tangent points sit at direction + pi -/+ beta around the disk centre.
        return centre, d + math.pi - beta, d - math.pi + beta

    def _tangents(self) -> tuple[Vec, Vec, Vec]:
        (cx, cy), ta, tb = self._parts
        r = self.end_radius
        return (
            (cx, cy),
            (cx + r * math.cos(tb), cy + r * math.sin(tb)),
            (cx + r * math.cos(ta), cy + r * math.sin(ta)),
        )

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        (cx, cy), p, q = self._tangents()
        r = self.end_radius
        xs = [self.ax, p[0], q[0], cx - r, cx + r]
        ys = [self.ay, p[1], q[1], cy - r, cy + r]
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, px: FloatArray, py: FloatArray) -> BoolArray:
        (cx, cy), p, q = self._tangents()
        disk = RoundedRect(cx, cy, cx, cy, self.end_radius).contains(px, py)
        tri = ConvexPolygon(((self.ax, self.ay), p, q)).contains(px, py)
        return np.asarray(disk | tri)

    def boundary(self) -> tuple[FloatArray, FloatArray]:
        (cx, cy), ta, tb = self._parts
        _, p, q = self._tangents()
        segs = np.array([[self.ax, self.ay, p[0], p[1]], [q[0], q[1], self.ax, self.ay]])
        return segs, np.array([[cx, cy, self.end_radius, tb, ta]])




def within_angle(vx: FloatArray, vy: FloatArray, axis: Vec, half_angle: float) -> BoolArray:
    """Whether vectors ``(vx, vy)`` lie within ``half_angle`` degrees of ``axis``.

    Inclusive, and exact for the 45-degree half angle of quarter-circle cones
    when ``axis`` comes from :func:`aoegrid.geometry.directions.unit_vector`: compares
    squared cosines, so no ``acos`` rounding decides a tie. The zero vector is
    within every angle.
    """
    dot = vx * axis[0] + vy * axis[1]
    cos2 = 0.5 if half_angle == 45.0 else math.cos(math.radians(half_angle)) ** 2
    norm2 = vx * vx + vy * vy
    return np.asarray((dot >= 0.0) & (dot * dot >= cos2 * norm2 * (1.0 - 1e-12)))


@dataclass(frozen=True, slots=True)
class Outline:
    """Any simple polygon given by its ``(n, 2)`` vertices, for coverage only.

    Visibility polygons are star-shaped, not convex; the area rasteriser
    needs nothing but the outline.
    """

    vertices: FloatArray

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        v = self.vertices
        return float(v[:, 0].min()), float(v[:, 1].min()), float(v[:, 0].max()), float(v[:, 1].max())

    def boundary(self) -> tuple[FloatArray, FloatArray]:
        v = self.vertices
        return np.hstack([v, np.roll(v, -1, axis=0)]), _no_arcs()


#: The figures shapes are made of: they answer point tests too.
Region = ConvexPolygon | RoundedRect | Sector | Teardrop
#: Anything with an outline the area rasteriser can fill.
Figure = Region | Outline
