"""Line of effect and line of sight: one visibility polygon per origin.

The visibility polygon of a point is everything a straight line from it
reaches without properly crossing a wall. It is built by an angular sweep:
the walls' end angles cut the full turn into intervals inside which the
nearest wall cannot change (walls are split where they cross, and cut where
they cross the frame that closes the polygon), and a sweep over them
(compiled for many walls) keeps the walls the current ray meets ordered by
distance. From the polygon come exact visible fractions of squares (the area
rasteriser, over the polygon's bounding box only) and point tests (the radius
at a point's angle).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from aoegrid.board._sweep import sweep
from aoegrid.errors import InvalidValueError
from aoegrid.geometry._kernels import run
from aoegrid.geometry.raster import Window, coverage
from aoegrid.geometry.regions import EPS, Outline

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
    Neighbouring intervals have different nearest walls, unless their
    boundary lies within :data:`_ANGLE_TOL` of another.
    """

    origin: tuple[float, float]
    angles: FloatArray
    ax: FloatArray
    ay: FloatArray
    ex: FloatArray
    ey: FloatArray
    #: The facing walls the polygon was built from, ``(n, 4)``: for exact
    #: answers on the rays through wall ends (see :meth:`sees`).
    walls: FloatArray = field(default_factory=lambda: np.empty((0, 4)), repr=False, compare=False)
    _polygon: FloatArray | None = field(default=None, init=False, repr=False, compare=False)

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
        """The visibility polygon's vertices, ``(2m, 2)``, in angle order (read-only)."""
        pts = self._polygon
        if pts is None:
            # Built once: a crowded map's search and the fill both need it.
            pts = self._vertices()
            pts.flags.writeable = False
            object.__setattr__(self, "_polygon", pts)
        return pts

    def _vertices(self) -> FloatArray:
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
        """Exact visible fraction of each square of ``window``.

        Only the squares meeting the polygon's bounding box are filled; the
        rest are 0. A fraction within :data:`~aoegrid.geometry.regions.EPS` of 0 or 1
        is exactly 0 or 1, so ``> 0`` means some of the square is reached
        (what areas take: more than EPS) and ``== 1`` all of it.
        """
        out = np.zeros(window.shape)
        box = self.box(window)
        if box is not None:
            out[box.y0 - window.y0 : box.y0 - window.y0 + box.height,
                box.x0 - window.x0 : box.x0 - window.x0 + box.width] = coverage(Outline(self.polygon()), box)
        # Rounding leaves about 1e-16 of a square wholly in shadow, or short of one wholly in view.
        out[out <= EPS] = 0.0
        out[out >= 1.0 - EPS] = 1.0
        return out

    def box(self, window: Window) -> Window | None:
        """The squares of ``window`` meeting the polygon's bounding box (None if none do).

        Every square outside it is wholly unreached.
        """
        pts = self.polygon()
        xmin, ymin = pts.min(axis=0)
        xmax, ymax = pts.max(axis=0)
        x0, y0 = max(window.x0, math.floor(xmin)), max(window.y0, math.floor(ymin))
        x1 = min(window.x0 + window.width, math.ceil(xmax))
        y1 = min(window.y0 + window.height, math.ceil(ymax))
        return Window(x0, y0, x1 - x0, y1 - y0) if x1 > x0 and y1 > y0 else None

    def _reach(self, theta: FloatArray) -> FloatArray:
        """How far straight lines from the origin at angles ``theta`` go.

        On the ray through a wall's end, the farther of the two sides: a
        line grazing a free end passes, a line into a joined corner stops.
        """
        return self._reach_and_ties(theta)[0]

    def _reach_and_ties(self, theta: FloatArray) -> tuple[FloatArray, BoolArray]:
        """:meth:`_reach`, and whether each angle lies on an interval boundary (a ray through a wall's end)."""
        m = self.angles.size
        k = (np.searchsorted(self.angles, theta, side="right") - 1) % m
        r = self._radius(k, theta)
        start = self.angles[k]
        stop = np.where(k + 1 < m, self.angles[(k + 1) % m], self.angles[0] + _TWO_PI)
        on_start = np.abs(_wrap(theta - start)) <= _ANGLE_TOL
        on_stop = np.abs(_wrap(theta - stop)) <= _ANGLE_TOL
        r = np.where(on_start, np.maximum(r, self._radius((k - 1) % m, theta)), r)
        return np.where(on_stop, np.maximum(r, self._radius((k + 1) % m, theta)), r), on_start | on_stop

    def reach(self, theta: float) -> float:
        """How far a straight line from the origin at angle ``theta`` (radians) goes."""
        return float(self._reach(np.array([math.remainder(theta, _TWO_PI)]))[0])

    def sees(self, px: FloatArray, py: FloatArray) -> BoolArray:
        """Whether the segment from the origin to each point crosses no wall."""
        ox, oy = self.origin
        px, py = np.broadcast_arrays(np.asarray(px, float), np.asarray(py, float))
        dx, dy = px - ox, py - oy
        dist = np.hypot(dx, dy)
        r, tie = self._reach_and_ties(np.arctan2(dy, dx))
        out = np.asarray((dist <= r + _ON) | (dist <= _ON))
        # On a ray through wall ends the two neighbouring intervals can miss a
        # wall that only touches the ray there (ends of different walls lined
        # up with the origin): those few lines are tested against every wall.
        if tie.any() and len(self.walls):
            k = np.flatnonzero(tie.ravel())
            flat = out.ravel().copy()
            flat[k] = _segment_clear(self.origin, self.walls, px.ravel()[k], py.ravel()[k]) | (dist.ravel()[k] <= _ON)
            out = flat.reshape(out.shape)
        return out

    def blocked_corners(self, window: Window) -> NDArray[np.int_]:
        """For each square of ``window``, how many of its four corners the origin cannot see."""
        xs = np.arange(window.x0, window.x0 + window.width + 1, dtype=np.float64)
        ys = np.arange(window.y0, window.y0 + window.height + 1, dtype=np.float64)
        seen = self.sees(xs[None, :], ys[:, None]).astype(np.int_)
        return 4 - (seen[:-1, :-1] + seen[:-1, 1:] + seen[1:, :-1] + seen[1:, 1:])


def _segment_clear(origin: tuple[float, float], walls: FloatArray, px: FloatArray, py: FloatArray) -> BoolArray:
    """Whether the segment from ``origin`` to each point passes every wall, by the tie rules.

    Blocked by a proper crossing (each segment strictly on both sides of
    the other), or by passing through an end shared by walls lying on both
    sides of it (a joined corner). Touching a free end, or ending on a wall,
    passes. Quantities within :data:`_ON` of zero count as zero.
    """
    ox, oy = origin
    qx, qy = (px - ox)[:, None], (py - oy)[:, None]
    length = np.hypot(qx, qy)
    tol = _ON * np.maximum(length, 1.0)
    ax, ay, bx, by = (walls[:, i][None, :] for i in range(4))

    def side(x: FloatArray, y: FloatArray) -> FloatArray:
        c = qx * (y - oy) - qy * (x - ox)
        return np.where(np.abs(c) <= tol, 0.0, np.sign(c))

    sa, sb = side(ax, ay), side(bx, by)
    ex, ey = bx - ax, by - ay
    wall_len = np.maximum(np.hypot(ex, ey), 1.0)
    so = ex * (oy - ay) - ey * (ox - ax)
    sq = ex * (qy + oy - ay) - ey * (qx + ox - ax)
    so = np.where(np.abs(so) <= _ON * wall_len, 0.0, np.sign(so))
    sq = np.where(np.abs(sq) <= _ON * wall_len, 0.0, np.sign(sq))
    blocked = ((sa * sb) < 0) & ((so * sq) < 0)
    # Joined corners: an end strictly inside the segment, shared by walls whose
    # other ends lie on both sides of it.
    end_x, end_y = np.concatenate([ax, bx], axis=1), np.concatenate([ay, by], axis=1)
    other = np.concatenate([sb, sa], axis=1)
    along = (end_x - ox) * qx + (end_y - oy) * qy
    on = (side(end_x, end_y) == 0) & (along > tol * length) & (along < length * length - tol * length)
    ends = np.stack([end_x[0], end_y[0]], axis=1)
    _, group = np.unique(ends, axis=0, return_inverse=True)
    group = group.ravel()

    def touching(sign: float) -> BoolArray:
        """Per point and shared end: a wall from that end has its other end on ``sign``'s side."""
        hit = np.zeros((len(px), int(group.max()) + 1), dtype=bool)
        rows, cols = np.nonzero(on & (other == sign))
        hit[rows, group[cols]] = True
        return hit

    corner = (touching(1.0) & touching(-1.0)).any(axis=1)
    return np.asarray(~(blocked.any(axis=1) | corner))


#: How far from every wall (squares) a line keeps, or how surely it crosses
#: one, for :func:`lines_surely` to answer without a visibility polygon:
#: far above the polygons' tolerances (:data:`_ON`, rounding), far below
#: any gap a map draws.
_SURE = 1e-7


def lines_surely(sx: FloatArray, sy: FloatArray, end: tuple[float, float], segs: FloatArray,
                 one_way: NDArray[np.int8]) -> NDArray[np.int8]:
    """What the visibility polygon of each start ``(sx, sy)`` says of ``end``, where that is sure without it.

    ``+1``: the segment from the start to ``end`` keeps more than
    :data:`_SURE` from every wall of ``segs`` (but one-way walls surely
    facing away from the start), so :meth:`Visibility.sees` from the start
    (among those walls, inside any frame holding both) sees ``end``.
    ``-1``: a wall facing the start crosses the segment, the ends of each
    more than :data:`_SURE` on either side of the other, so it does not.
    ``0``: too near a wall, a wall's end or a start on a wall to tell: ask
    the polygon. For many lines at once, without building a polygon per
    start: only the walls whose boxes meet a line's are looked at.

    Examples
    --------
    >>> walls = np.array([[2.0, 0.0, 2.0, 4.0]])   # to (3, 1): through the wall, past its very end, clear of it
    >>> lines_surely(np.array([0.5, 1.0, 2.5]), np.array([1.0, 7.0, 6.0]), (3.0, 1.0), walls, np.zeros(1, np.int8))
    array([-1,  0,  1], dtype=int8)
    """
    px, py = np.asarray(sx, dtype=float).ravel(), np.asarray(sy, dtype=float).ravel()
    qx, qy = float(end[0]), float(end[1])
    n = len(px)
    ax, ay, bx, by = segs.T
    # The pairs of a line and a wall whose boxes meet (within the margin): the rest are clear of each other.
    r, c = np.nonzero(
        np.less_equal.outer(np.minimum(px, qx) - _SURE, np.maximum(ax, bx))
        & np.greater_equal.outer(np.maximum(px, qx) + _SURE, np.minimum(ax, bx))
        & np.less_equal.outer(np.minimum(py, qy) - _SURE, np.maximum(ay, by))
        & np.greater_equal.outer(np.maximum(py, qy) + _SURE, np.minimum(ay, by))
    )
    px, py, ax, ay, bx, by = px[r], py[r], ax[c], ay[c], bx[c], by[c]
    dx, dy, wx, wy = qx - px, qy - py, bx - ax, by - ay
    # Signed distances, times the line's or the wall's length: the wall's ends from the line, the line's
    # ends from the wall's; and the margin, times the same.
    da, db = dx * (ay - py) - dy * (ax - px), dx * (by - py) - dy * (bx - px)
    ds, de = wx * (py - ay) - wy * (px - ax), wx * (qy - ay) - wy * (qx - ax)
    tol, wall_tol = _SURE * np.hypot(dx, dy), _SURE * np.hypot(wx, wy)
    line_gap, wall_gap = np.minimum(np.abs(da), np.abs(db)) > tol, np.minimum(np.abs(ds), np.abs(de)) > wall_tol
    crosses = (da * db < 0) & line_gap & (ds * de < 0) & wall_gap
    # Surely clear of a wall: it lies wholly on one side of the line, or the line of it, or it faces away.
    far = ((da * db > 0) & line_gap) | ((ds * de > 0) & wall_gap)
    if one_way.any():
        way = one_way[c]
        crosses &= (way == 0) | ((way > 0) & (ds > wall_tol)) | ((way < 0) & (ds < -wall_tol))
        far |= ((way > 0) & (ds < -wall_tol)) | ((way < 0) & (ds > wall_tol))
    m = np.flatnonzero(~far)  # the rest: measured
    if len(m):
        gap = np.minimum(
            np.minimum(_point_segment(ax[m], ay[m], px[m], py[m], dx[m], dy[m]),
                       _point_segment(bx[m], by[m], px[m], py[m], dx[m], dy[m])),
            np.minimum(_point_segment(px[m], py[m], ax[m], ay[m], wx[m], wy[m]),
                       _point_segment(qx, qy, ax[m], ay[m], wx[m], wy[m])),
        )
        far[m] = ~((da[m] * db[m] <= 0) & (ds[m] * de[m] <= 0)) & (gap > _SURE)
    clear = np.ones(n, dtype=bool)
    clear[r[~far]] = False
    blocked = np.zeros(n, dtype=bool)
    blocked[r[crosses]] = True
    return np.where(clear, 1, np.where(blocked, -1, 0)).astype(np.int8)


def _point_segment(qx: Any, qy: Any, ax: Any, ay: Any, ux: Any, uy: Any) -> FloatArray:
    """Distance from point ``(qx, qy)`` to the segment from ``(ax, ay)`` along ``(ux, uy)`` (broadcast)."""
    len2 = ux * ux + uy * uy
    t = np.clip(((qx - ax) * ux + (qy - ay) * uy) / np.where(len2 > 0, len2, 1.0), 0.0, 1.0)
    return np.asarray(np.hypot(qx - (ax + t * ux), qy - (ay + t * uy)))


def _wrap(a: FloatArray) -> FloatArray:
    return (a + math.pi) % _TWO_PI - math.pi


def slab(a: FloatArray, e: FloatArray, lo: float, hi: float) -> tuple[FloatArray, FloatArray]:
    """The parameters at which ``a + t * e`` enters and leaves ``[lo, hi]`` (past the float range: +-inf)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t_lo, t_hi = (lo - a) / e, (hi - a) / e
    # A wall parallel to the slab is in it for every t, or for none.
    inside = (a >= lo) & (a <= hi)
    enter = np.where(e != 0.0, np.minimum(t_lo, t_hi), np.where(inside, -np.inf, np.inf))
    leave = np.where(e != 0.0, np.maximum(t_lo, t_hi), np.where(inside, np.inf, -np.inf))
    return enter, leave


def clip_segments(segs: FloatArray, frame: tuple[float, float, float, float]) -> tuple[FloatArray, BoolArray]:
    """The pieces of ``segs`` inside ``frame``, same direction, and which segments have one.

    A cut end is put exactly on the frame's side (the coordinate across that
    side is the side's own, the other is clamped to the frame), so a cut wall
    meets the frame and never crosses it, even by a rounding error. Ends
    inside the frame are kept bit for bit.
    """
    x0, y0, x1, y1 = frame
    ax, ay, bx, by = segs.T
    ex, ey = bx - ax, by - ay
    x_in, x_out = slab(ax, ex, x0, x1)
    y_in, y_out = slab(ay, ey, y0, y1)
    t0 = np.maximum(np.maximum(x_in, y_in), 0.0)
    t1 = np.minimum(np.minimum(x_out, y_out), 1.0)
    kept = t0 < t1
    ax, ay, bx, by, ex, ey = ax[kept], ay[kept], bx[kept], by[kept], ex[kept], ey[kept]
    cut = []
    for t, tx, ty, whole, px, py, ahead in (
        (t0[kept], x_in[kept], y_in[kept], 0.0, ax, ay, False),
        (t1[kept], x_out[kept], y_out[kept], 1.0, bx, by, True),
    ):
        # The entry end lies on the sides the wall comes from, the exit end on those it heads to.
        x = np.where(t == tx, np.where((ex > 0) == ahead, x1, x0), np.clip(ax + t * ex, x0, x1))
        y = np.where(t == ty, np.where((ey > 0) == ahead, y1, y0), np.clip(ay + t * ey, y0, y1))
        cut += [np.where(t == whole, px, x), np.where(t == whole, py, y)]
    pieces = np.stack(cut, axis=1)
    # A sliver across a frame corner can snap to a single point.
    point = (pieces[:, 0] == pieces[:, 2]) & (pieces[:, 1] == pieces[:, 3])
    kept[kept] = ~point
    return pieces[~point], kept


def visibility(
    origin: tuple[float, float],
    segs: FloatArray,
    one_way: NDArray[np.int8],
    frame: tuple[float, float, float, float],
) -> Visibility:
    """The visibility of ``origin`` among wall segments, inside ``frame``.

    An angular sweep (:func:`aoegrid.board._sweep.sweep`, compiled where the walls
    are many: :func:`aoegrid.geometry._kernels.run`) over the walls' end angles finds
    the nearest wall between each pair of consecutive ones, in time
    ``O(n log n)`` for ``n`` walls.

    Parameters
    ----------
    origin : (x, y)
        Where the lines start, inside ``frame``. Walls touching it at an end
        cannot block a line from it and are ignored.
    segs : (n, 4) float array
        Wall segments ``[x0, y0, x1, y1]`` that neither cross nor overlap
        each other (a :class:`~aoegrid.board.walls.WallSet` has them merged where
        they overlap along a line and split where they cross); they may run
        out of ``frame``.
    one_way : (n,) int8 array
        0 for two-way walls, +1 for walls blocking only lines from their
        right, -1 from their left.
    frame : (xmin, ymin, xmax, ymax)
        Closes the polygon where no wall does. Walls crossing it are cut at
        it and walls outside it ignored: the polygon is exact inside it.

    Returns
    -------
    Visibility

    Raises
    ------
    OriginOnWallError
        If ``origin`` lies inside a wall.
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
    walls = segs[keep]
    x0, y0, x1, y1 = frame
    # The sweep needs segments that do not cross: a wall crossing the frame
    # is cut at it. Its line stays the wall's own (radii are exact), the cut
    # only moves the end angles. Walls inside the frame, most of them, are
    # kept as they are, in their order.
    out = np.flatnonzero(
        (np.minimum(walls[:, 0], walls[:, 2]) < x0) | (np.maximum(walls[:, 0], walls[:, 2]) > x1)
        | (np.minimum(walls[:, 1], walls[:, 3]) < y0) | (np.maximum(walls[:, 1], walls[:, 3]) > y1)
    )
    pieces, kept = clip_segments(walls[out], frame)
    ends = walls.copy()
    ends[out[kept]] = pieces
    used = np.ones(len(walls), dtype=bool)
    used[out[~kept]] = False
    box = np.array([[x0, y0, x1, y0], [x1, y0, x1, y1], [x1, y1, x0, y1], [x0, y1, x0, y0]])
    ends = np.vstack([ends[used], box])
    line = np.vstack([walls[used], box])
    lx, ly = line[:, 0], line[:, 1]
    lex, ley = line[:, 2] - lx, line[:, 3] - ly
    # Orient every wall so its angle from the origin increases from a to b;
    # the sign comes from the whole wall, which a short cut piece could lose.
    flip = (lx - ox) * ley - (ly - oy) * lex < 0
    ends[flip] = ends[flip][:, [2, 3, 0, 1]]
    ta = np.arctan2(ends[:, 1] - oy, ends[:, 0] - ox)
    tb = np.arctan2(ends[:, 3] - oy, ends[:, 2] - ox)
    both = np.concatenate([ta, tb])
    angles, win = run(sweep, len(ends), both, np.argsort(both), _wrap(tb - ta) > 0, ends, ox, oy, _ANGLE_TOL)
    win = np.asarray(win, dtype=np.intp)
    return Visibility((float(ox), float(oy)), np.asarray(angles, dtype=np.float64), lx[win], ly[win], lex[win],
                      ley[win], walls[used])
