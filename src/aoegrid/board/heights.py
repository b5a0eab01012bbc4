"""Line of effect in three dimensions: walls with a span of heights, and floors.

A wall spans the heights ``[bottom, top]`` (:attr:`Wall.span
<aoegrid.Wall.span>`, default every height); a floor (:class:`aoegrid.Floor`)
is a horizontal polygon, holes allowed, at an elevation. A straight segment
from ``P = (x, y, z)`` to ``Q`` is blocked

* by a wall when, seen from above, it crosses the wall's segment properly
  (each strictly on both sides of the other) where its height
  (interpolated between ``P``'s and ``Q``'s) lies within ``[bottom, top]``;
  or when it passes, strictly between its own ends, through an end shared
  by walls spanning its height there whose other ends lie on both sides of
  it (walls joined at a corner leave no gap). These are the tie rules of
  two dimensions (:func:`aoegrid.board.visibility._segment_clear`): grazing a
  free end, ending on a wall or running along one does not block. A
  one-way wall only blocks segments starting on its blocking side;
* by a floor when its ends lie strictly on either side of the floor's plane
  and it crosses the plane strictly inside the polygon (not in a hole, not on
  the outline).

Heights are in the grid's unit, ``x`` and ``y`` in squares. The tests are
vectorised over many segments and walls at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import shapely
from numpy.typing import NDArray

from aoegrid.board.floors import Floor
from aoegrid.board.walls import Wall
from aoegrid.geometry.options import Side

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

#: Crossing parameters within this of a segment's ends do not count: a line
#: that ends on a wall, or starts on one, is not blocked by it (as in 2D).
_END = 1e-9
#: Cross products within this (times the segment's length) count as zero: a wall's end on the line.
_ON = 1e-9
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


def first_block(p: FloatArray, q: FloatArray, walls: Sequence[Wall] = (), floors: Sequence[Floor] = ()) -> float:
    """How far along the segment ``p -> q`` (``(3,)`` points) it is first blocked, as a fraction of it; inf if never.

    The least ``u`` such that the segment from ``p`` to ``p + u (q - p)`` is
    blocked (:func:`blocked`) for every longer one: where it enters the first
    wall or floor in its way. Found by bisection (a blocked part stays
    blocked as it grows) to within about 1e-9 of the segment: a part ending
    that close to a wall does not cross it (:data:`_END`).

    Examples
    --------
    >>> import aoegrid as ag
    >>> p, q = np.array([0.0, 2.0, 0.0]), np.array([8.0, 2.0, 40.0])   # rising 5 ft a square
    >>> u = first_block(p, q, [ag.Wall((2, 0), (2, 4), top=5), ag.Wall((6, 0), (6, 4), top=50)])   # over the first
    >>> round(u, 6)
    0.75
    >>> round(first_block(p, q, floors=[ag.Floor([(0, 0), (8, 0), (8, 4), (0, 4)], 10)]), 6)   # a ceiling 10 ft up
    0.25
    """
    p, q = np.asarray(p, dtype=np.float64).reshape(1, 3), np.asarray(q, dtype=np.float64).reshape(1, 3)
    rows = wall_rows(walls)  # once, not on every step

    def cut(u: float) -> bool:
        end = p + u * (q - p)
        return bool(walls_block(p, end, *rows)[0] or any(floor_blocks(p, end, f)[0] for f in floors))

    if not cut(1.0):
        return np.inf
    lo, hi = 0.0, 1.0
    while hi - lo > 1e-10:
        mid = (lo + hi) / 2
        if cut(mid):
            hi = mid
        else:
            lo = mid
    return hi


def walls_block(p: FloatArray, q: FloatArray, segs: FloatArray, spans: FloatArray, ways: NDArray[np.int8]) -> BoolArray:
    """:func:`blocked` for walls given as :func:`wall_rows` arrays."""
    return walls_crossing(p, q, segs, spans, ways)[1]


def walls_crossing(p: FloatArray, q: FloatArray, segs: FloatArray, spans: FloatArray,
                   ways: NDArray[np.int8]) -> tuple[BoolArray, BoolArray]:
    """Whether each line crosses a wall seen from above (whatever its span), and whether one blocks it.

    One pass over the (line, wall) pairs gives both: :meth:`aoegrid.effects.result.AreaCore.lines3` needs the
    first to know where the plane's answer stands and the second for the lines it does not.
    """
    crossed, out = np.zeros(len(p), dtype=bool), np.zeros(len(p), dtype=bool)
    if not len(segs) or not len(p):
        return crossed, out
    corners: list[NDArray[np.intp]] = []

    def corner() -> NDArray[np.intp]:
        # The walls' ends, numbered by point (a corner is an end several walls share): needed only by the
        # few lines passing exactly through an end, so numbered on the first such line.
        if not corners:
            _, number = np.unique(np.concatenate([segs[:, :2], segs[:, 2:]]), axis=0, return_inverse=True)
            corners.append(number.ravel())
        return corners[0]

    step = max(1, _CHUNK // (2 * len(segs)))
    for lo in range(0, len(p), step):
        part = slice(lo, lo + step)
        crossed[part], out[part] = _walls_block(p[part], q[part], segs, spans, ways, corner)
    return crossed, out


def _walls_block(p: FloatArray, q: FloatArray, segs: FloatArray, spans: FloatArray, ways: NDArray[np.int8],
                 corner: Callable[[], NDArray[np.intp]]) -> tuple[BoolArray, BoolArray]:
    """:func:`walls_crossing` for one chunk of segments; ``corner()`` numbers the walls' ends (starts, then
    ends) by point."""
    ax, ay, bx, by = (c[None, :] for c in segs.T)
    px, py = p[:, 0, None], p[:, 1, None]
    dx, dy = (q - p)[:, 0, None], (q - p)[:, 1, None]
    tol = _ON * np.maximum(np.hypot(dx, dy), 1.0)
    sides = []
    for x, y in ((ax, ay), (bx, by)):
        c = dx * (y - py) - dy * (x - px)
        sides.append(np.where(np.abs(c) <= tol, 0.0, np.sign(c)))
    sa, sb = sides
    # Only the few (line, wall) pairs that cross, or that pass through a wall's end, need their heights:
    # worked out for those pairs alone.
    rows, cols = np.nonzero(sa * sb < 0)
    along, level = _within(p, q, segs, spans, ways, rows, cols, None)
    results = []
    for keep in (along, along & level):  # whatever the span; within it
        hit = np.zeros(sa.shape, dtype=bool)
        hit[rows, cols] = keep
        results.append(hit.any(axis=1))
    crossed, out = results
    # Per end: on the line, strictly inside it (at a height its wall spans); and the side its wall's other end lies.
    ends = [np.nonzero((side == 0) & ~out[:, None]) for side in (sa, sb)]
    if not any(r.size for r, _ in ends):
        return crossed, out
    m = len(segs)
    on_along, on_level = np.zeros((len(p), 2 * m), dtype=bool), np.zeros((len(p), 2 * m), dtype=bool)
    for k, (r, c) in enumerate(ends):
        a, z = _within(p, q, segs, spans, ways, r, c, k)
        on_along[r, c + k * m] = a
        on_level[r, c + k * m] = a & z
    other = np.concatenate([sb, sa], axis=1)
    for result, on in ((crossed, on_along), (out, on_level)):
        ask = np.flatnonzero(on.any(axis=1) & ~result)
        if ask.size:
            result[ask] = _through_corner(on[ask], other[ask], corner())
    return crossed, out


def _through_corner(on: BoolArray, other: NDArray[np.float64], number: NDArray[np.intp]) -> BoolArray:
    """Per line: whether it passes through a corner (an end, numbered by point) with walls on both sides."""
    joined = np.ones((len(on), int(number.max()) + 1), dtype=bool)
    for sign in (1.0, -1.0):
        r, c = np.nonzero(on & (other == sign))
        touching = np.zeros_like(joined)
        touching[r, number[c]] = True
        joined &= touching
    return np.asarray(joined.any(axis=1))


def _within(p: FloatArray, q: FloatArray, segs: FloatArray, spans: FloatArray, ways: NDArray[np.int8],
            rows: NDArray[np.intp], cols: NDArray[np.intp], end: int | None) -> tuple[BoolArray, BoolArray]:
    """For the pairs (line ``rows``, wall ``cols``): whether the line meets the wall (``end`` None: where it
    crosses it; 0 or 1: where it passes that end of it) strictly between its own ends, from the side a
    one-way wall blocks; and whether it does so at a height the wall spans."""
    if not rows.size:
        return np.zeros(0, dtype=bool), np.zeros(0, dtype=bool)
    ax, ay, bx, by = segs[cols].T
    ex, ey = bx - ax, by - ay
    px, py, pz = p[rows].T
    dx, dy, dz = (q[rows] - p[rows]).T
    with np.errstate(divide="ignore", invalid="ignore"):
        if end is None:
            u = ((ax - px) * ey - (ay - py) * ex) / (dx * ey - dy * ex)
        else:
            x, y = (ax, ay) if end == 0 else (bx, by)
            u = ((x - px) * dx + (y - py) * dy) / (dx * dx + dy * dy)
        z = pz + u * dz
        along = (u > _END) & (u < 1 - _END)
        level = (z >= spans[cols, 0]) & (z <= spans[cols, 1])
    way = ways[cols]
    if way.any():
        start = ex * (py - ay) - ey * (px - ax)  # > 0: the line starts right of the wall
        along &= (way == 0) | ((way > 0) & (start > 0)) | ((way < 0) & (start < 0))
    return np.asarray(along), np.asarray(level)


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
