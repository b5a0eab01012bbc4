"""Line of effect and line of sight: one visibility polygon per origin.

The visibility polygon of a point is everything a straight line from it
reaches without properly crossing a wall. It is built by an angular
z-buffer: the walls' end angles cut the full turn into intervals inside
which the nearest wall cannot change (walls are split where they cross), and
the nearest wall of every interval is found in one vectorised pass. From the
polygon come exact visible fractions of squares (the area rasteriser) and
point tests (the radius at a point's angle).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from aoegrid.errors import InvalidValueError
from aoegrid.raster import Window, coverage
from aoegrid.regions import Outline

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

_TWO_PI = 2.0 * math.pi
#: Angles closer than this (radians) are one direction, for points on the
#: ray through a wall's end.
_ANGLE_TOL = 1e-12
#: Points within this distance (squares) of a wall count as on it.
_ON = 1e-9


class OriginOnWallError(InvalidValueError):
    """A point of origin lies inside a wall (not at its end)."""


@dataclass(frozen=True, slots=True)
class Visibility:
    """What a straight line from ``origin`` reaches.

    ``angles`` (m,) are the sorted interval starts; interval ``k`` runs to
    ``angles[k + 1]`` (the last one wraps), and its nearest wall lies on the
    line through ``(ax[k], ay[k])`` with direction ``(ex[k], ey[k])``.
    """

    origin: tuple[float, float]
    angles: FloatArray
    ax: FloatArray
    ay: FloatArray
    ex: FloatArray
    ey: FloatArray

    def _radius(self, k: NDArray[np.intp], theta: FloatArray) -> FloatArray:
        ox, oy = self.origin
        ux, uy = np.cos(theta), np.sin(theta)
        ex, ey = self.ex[k], self.ey[k]
        num = (self.ax[k] - ox) * ey - (self.ay[k] - oy) * ex
        den = ux * ey - uy * ex
        with np.errstate(divide="ignore", invalid="ignore"):
            r = num / den
        return np.where(den != 0.0, r, np.inf)

    def polygon(self) -> FloatArray:
        """The visibility polygon's vertices, ``(2m, 2)``, in angle order."""
        m = self.angles.size
        k = np.arange(m)
        start = self.angles
        stop = np.append(self.angles[1:], self.angles[0] + _TWO_PI)
        r0 = self._radius(k, start)
        r1 = self._radius(k, stop)
        ox, oy = self.origin
        pts = np.empty((2 * m, 2))
        pts[0::2, 0] = ox + r0 * np.cos(start)
        pts[0::2, 1] = oy + r0 * np.sin(start)
        pts[1::2, 0] = ox + r1 * np.cos(stop)
        pts[1::2, 1] = oy + r1 * np.sin(stop)
        return pts

    def fraction(self, window: Window) -> FloatArray:
        """Exact visible fraction of each square of ``window``."""
        return coverage(Outline(self.polygon()), window)

    def _reach(self, theta: FloatArray) -> FloatArray:
        """How far straight lines from the origin at angles ``theta`` go.

        On the ray through a wall's end, the farther of the two sides: a
        line grazing a free end passes, a line into a joined corner stops.
        """
        m = self.angles.size
        k = (np.searchsorted(self.angles, theta, side="right") - 1) % m
        r = self._radius(k, theta)
        start = self.angles[k]
        stop = np.where(k + 1 < m, self.angles[(k + 1) % m], self.angles[0] + _TWO_PI)
        on_start = np.abs(_wrap(theta - start)) <= _ANGLE_TOL
        on_stop = np.abs(_wrap(theta - stop)) <= _ANGLE_TOL
        r = np.where(on_start, np.maximum(r, self._radius((k - 1) % m, theta)), r)
        return np.where(on_stop, np.maximum(r, self._radius((k + 1) % m, theta)), r)

    def reach(self, theta: float) -> float:
        """How far a straight line from the origin at angle ``theta`` (radians) goes."""
        return float(self._reach(np.array([math.remainder(theta, _TWO_PI)]))[0])

    def sees(self, px: FloatArray, py: FloatArray) -> BoolArray:
        """Whether the segment from the origin to each point crosses no wall."""
        ox, oy = self.origin
        px, py = np.broadcast_arrays(np.asarray(px, float), np.asarray(py, float))
        dx, dy = px - ox, py - oy
        dist = np.hypot(dx, dy)
        r = self._reach(np.arctan2(dy, dx))
        return np.asarray((dist <= r + _ON) | (dist <= _ON))

    def blocked_corners(self, window: Window) -> NDArray[np.int_]:
        """For each square of ``window``, how many of its four corners the origin cannot see."""
        xs = np.arange(window.x0, window.x0 + window.width + 1, dtype=np.float64)
        ys = np.arange(window.y0, window.y0 + window.height + 1, dtype=np.float64)
        seen = self.sees(xs[None, :], ys[:, None]).astype(np.int_)
        return 4 - (seen[:-1, :-1] + seen[:-1, 1:] + seen[1:, :-1] + seen[1:, 1:])


def _wrap(a: FloatArray) -> FloatArray:
    return (a + math.pi) % _TWO_PI - math.pi


def visibility(
    origin: tuple[float, float],
    segs: FloatArray,
    one_way: NDArray[np.int8],
    frame: tuple[float, float, float, float],
) -> Visibility:
    """The visibility of ``origin`` among wall segments, inside ``frame``.

    The segments must not cross each other (a :class:`~aoegrid.walls.WallSet`
    has them split where they do).

    ``frame`` (xmin, ymin, xmax, ymax) must hold the origin; it closes the
    polygon where no wall does. Walls touching the origin at an end cannot
    block a line from it and are ignored; an origin inside a wall raises
    :class:`OriginOnWallError`.
    """
    ox, oy = origin
    segs = np.asarray(segs, dtype=np.float64).reshape(-1, 4)
    ax, ay, bx, by = segs.T
    ex, ey = bx - ax, by - ay
    length = np.hypot(ex, ey)
    cross = ex * (oy - ay) - ey * (ox - ax)  # > 0: origin right of start->end
    side = cross / np.where(length > 0, length, 1.0)
    along = ((ox - ax) * ex + (oy - ay) * ey) / np.where(length > 0, length * length, 1.0)
    collinear = np.abs(side) <= _ON
    inside = collinear & (along > _ON / np.maximum(length, _ON)) & (along < 1 - _ON / np.maximum(length, _ON))
    if inside.any():
        i = int(np.flatnonzero(inside)[0])
        raise OriginOnWallError(
            f"point of origin ({ox:g}, {oy:g}) lies on the wall from ({ax[i]:g}, {ay[i]:g}) to "
            f"({bx[i]:g}, {by[i]:g}); which side it is on is ambiguous: move it off the wall "
            f"(a wall's end is fine)"
        )
    facing = (one_way == 0) | ((one_way > 0) & (side > 0)) | ((one_way < 0) & (side < 0))
    keep = ~collinear & facing
    x0, y0, x1, y1 = frame
    box = np.array([[x0, y0, x1, y0], [x1, y0, x1, y1], [x1, y1, x0, y1], [x0, y1, x0, y0]])
    segs = np.vstack([segs[keep], box])
    ax, ay, bx, by = segs.T
    # Orient every wall so its angle from the origin increases from a to b.
    turn = (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)
    flip = turn < 0
    ax, bx = np.where(flip, bx, ax), np.where(flip, ax, bx)
    ay, by = np.where(flip, by, ay), np.where(flip, ay, by)
    ta = np.arctan2(ay - oy, ax - ox)
    tb = np.arctan2(by - oy, bx - ox)
    angles = np.unique(np.concatenate([ta, tb]))
    m = angles.size
    ia = np.searchsorted(angles, ta)
    ib = np.searchsorted(angles, tb)
    count = (ib - ia) % m
    n = len(segs)
    seg = np.arange(n).repeat(count)
    first = np.cumsum(count) - count
    k = (ia[seg] + (np.arange(seg.size) - first[seg])) % m
    stop = np.append(angles[1:], angles[0] + _TWO_PI)
    mid = (angles + stop) / 2
    ux, uy = np.cos(mid[k]), np.sin(mid[k])
    sx, sy = bx[seg] - ax[seg], by[seg] - ay[seg]
    num = (ax[seg] - ox) * sy - (ay[seg] - oy) * sx
    den = ux * sy - uy * sx
    t = num / den
    best = np.full(m, np.inf)
    np.minimum.at(best, k, t)
    win = np.zeros(m, dtype=np.intp)
    hit = t <= best[k]
    win[k[hit]] = seg[hit]
    return Visibility(
        (float(ox), float(oy)), angles, ax[win], ay[win], bx[win] - ax[win], by[win] - ay[win]
    )


def line_of_effect(on: Any, origin: Any, channel: str = "effect") -> NDArray[np.float64]:
    """Exact fraction of every square of a map a straight line from ``origin`` reaches.

    Parameters
    ----------
    on : BattleMap
    origin : (x, y)
        A point in grid units, on the grid, not inside a wall.
    channel : str
        ``"effect"`` (walls, closed doors, windows) or ``"sight"`` (walls,
        closed doors, fog).

    Returns
    -------
    (height, width) float array
        ``> 0`` where the square has line of effect (or sight) at all.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(6, 3), walls=[ag.Wall((3, 0), (3, 2))])
    >>> print(line_of_effect(m, (1, 1)).round(2))
    [[1.   1.   1.   0.   0.   0.  ]
     [1.   1.   1.   0.   0.   0.  ]
     [1.   1.   1.   0.75 0.25 0.  ]]
    """
    from aoegrid._validate import point
    from aoegrid.battlemap import BattleMap
    from aoegrid.errors import InvalidTypeError, OffGridError
    from aoegrid.walls import Channel

    if not isinstance(on, BattleMap):
        raise InvalidTypeError(f"line_of_effect needs an aoegrid.BattleMap, got {on!r}")
    p = point(origin, "origin")
    grid = on.grid
    if not grid.contains_point(p):
        raise OffGridError(f"origin ({p[0]:g}, {p[1]:g}) is off the {grid.width} x {grid.height} grid")
    ch = Channel(channel) if not isinstance(channel, Channel) else channel
    frame = (-1.0, -1.0, grid.width + 1.0, grid.height + 1.0)
    segs, ways = on.wallset(ch).near(frame)
    return visibility(p, segs, ways, frame).fraction(Window(0, 0, grid.width, grid.height))
