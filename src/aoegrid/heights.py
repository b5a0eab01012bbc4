"""Line of effect in three dimensions: walls with a span of heights, and floors.

A wall spans the heights ``[bottom, top]`` (:attr:`Wall.span
<aoegrid.Wall.span>`, default every height); a floor (:class:`aoegrid.Floor`)
is a horizontal polygon, holes allowed, at an elevation. A straight segment
from ``P = (x, y, z)`` to ``Q`` is blocked

* by a wall when it crosses the wall's segment (seen from above) strictly
  between its own ends, at a point of the wall (its ends included, so two
  walls joined at a corner leave no gap), where its height (interpolated
  between ``P``'s and ``Q``'s) lies within ``[bottom, top]``; a one-way
  wall only blocks segments starting on its blocking side;
* by a floor when its ends lie strictly on either side of the floor's plane
  and it crosses the plane strictly inside the polygon (not in a hole, not on
  the outline).

Heights are in the grid's unit, ``x`` and ``y`` in squares. The tests are
vectorised over many segments and walls at once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from numpy.typing import NDArray

from aoegrid.floors import Floor
from aoegrid.options import Side
from aoegrid.walls import Wall

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

#: Crossing parameters within this of a segment's ends do not count: a line
#: that ends on a wall, or starts on one, is not blocked by it (as in 2D).
_END = 1e-9
#: Segments tested against walls per pass (bounds the working memory).
_CHUNK = 1 << 20


def wall_rows(walls: Sequence[Wall]) -> tuple[FloatArray, FloatArray, NDArray[np.int8]]:
    """``walls`` as arrays: segments ``(k, 4)``, spans ``(k, 2)`` and ways ``(k,)`` (+1 right, -1 left)."""
    segs = np.array([(*w.start, *w.end) for w in walls], dtype=np.float64).reshape(-1, 4)
    spans = np.array([w.span for w in walls], dtype=np.float64).reshape(-1, 2)
    ways = np.array([0 if w.one_way is None else (1 if w.one_way is Side.RIGHT else -1) for w in walls], np.int8)
    return segs, spans, ways


def blocked(p: FloatArray, q: FloatArray, walls: Sequence[Wall] = (), floors: Sequence[Floor] = ()) -> BoolArray:
    """Whether each segment ``p[i] -> q[i]`` (``(n, 3)`` arrays of x, y, z) is blocked by ``walls`` or ``floors``.

    Every wall given blocks (filter them by channel and state first).

    Examples
    --------
    >>> import aoegrid as ag
    >>> low = ag.Wall((2, 0), (2, 4), top=5)
    >>> p = np.array([[1.0, 2.0, 0.0], [1.0, 2.0, 0.0]])
    >>> q = np.array([[3.0, 2.0, 0.0], [3.0, 2.0, 20.0]])   # along the ground; up to 20 ft
    >>> blocked(p, q, [low]).tolist()
    [True, False]
    >>> blocked(p, q, floors=[ag.Floor([(0, 0), (4, 0), (4, 4), (0, 4)], 10)]).tolist()
    [False, True]
    """
    p, q = np.asarray(p, dtype=np.float64).reshape(-1, 3), np.asarray(q, dtype=np.float64).reshape(-1, 3)
    out = np.zeros(len(p), dtype=bool)
    if walls:
        out |= walls_block(p, q, *wall_rows(walls))
    for f in floors:
        out |= floor_blocks(p, q, f)
    return out


def walls_block(p: FloatArray, q: FloatArray, segs: FloatArray, spans: FloatArray, ways: NDArray[np.int8]) -> BoolArray:
    """:func:`blocked` for walls given as :func:`wall_rows` arrays."""
    out = np.zeros(len(p), dtype=bool)
    if not len(segs) or not len(p):
        return out
    step = max(1, _CHUNK // len(segs))
    ax, ay, bx, by = (c[None, :] for c in segs.T)
    ex, ey = bx - ax, by - ay
    for lo in range(0, len(p), step):
        pp, qq = p[lo : lo + step], q[lo : lo + step]
        px, py, pz = (c[:, None] for c in pp.T)
        dx, dy, dz = (c[:, None] for c in (qq - pp).T)
        den = dx * ey - dy * ex
        with np.errstate(divide="ignore", invalid="ignore"):
            t = ((ax - px) * ey - (ay - py) * ex) / den  # along the line
            u = ((ax - px) * dy - (ay - py) * dx) / den  # along the wall
            z = pz + t * dz
        hit = (den != 0) & (t > _END) & (t < 1 - _END) & (u >= 0) & (u <= 1)
        hit &= (z >= spans[None, :, 0]) & (z <= spans[None, :, 1])
        if ways.any():
            side = ex * (py - ay) - ey * (px - ax)  # > 0: the line starts right of the wall
            way = ways[None, :]
            hit &= (way == 0) | ((way > 0) & (side > 0)) | ((way < 0) & (side < 0))
        out[lo : lo + step] = hit.any(axis=1)
    return out


def floor_blocks(p: FloatArray, q: FloatArray, floor: Floor) -> BoolArray:
    """Whether each segment ``p[i] -> q[i]`` crosses ``floor``'s plane strictly inside it."""
    e = floor.elevation
    cross = (p[:, 2] - e) * (q[:, 2] - e) < 0
    out = np.zeros(len(p), dtype=bool)
    idx = np.flatnonzero(cross)
    if idx.size:
        t = (e - p[idx, 2]) / (q[idx, 2] - p[idx, 2])
        x = p[idx, 0] + t * (q[idx, 0] - p[idx, 0])
        y = p[idx, 1] + t * (q[idx, 1] - p[idx, 1])
        out[idx] = shapely.contains_xy(floor.polygon, x, y)
    return out
