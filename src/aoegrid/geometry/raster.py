"""Pure array functions that turn exact figures into per-square answers.

Everything here works on a :class:`Window`, the rectangle of squares a query
can reach, so the cost follows the shape's size, never the map's.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from aoegrid.geometry.regions import EPS, Figure

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

_TWO_PI = 2.0 * math.pi
#: Windows up to this many squares are tested square by square.
_DIRECT_CELLS = 4096
#: A row of :func:`threshold_mask`: the columns before its run, the run, the columns after.
_OUT_IN_OUT = np.array([False, True, False])


@dataclass(frozen=True, slots=True)
class Window:
    """Squares ``x0 <= x < x0 + width``, ``y0 <= y < y0 + height``."""

    x0: int
    y0: int
    width: int
    height: int

    @staticmethod
    def around(
        bounds: tuple[float, float, float, float], clip: tuple[int, int] | None
    ) -> Window:
        """The squares touching ``bounds`` (xmin, ymin, xmax, ymax), clipped.

        ``clip`` is the grid's ``(width, height)``, or ``None`` for no clipping.
        """
        xmin, ymin, xmax, ymax = bounds
        x0, y0 = math.floor(xmin) - 1, math.floor(ymin) - 1
        x1, y1 = math.ceil(xmax) + 1, math.ceil(ymax) + 1
        if clip is not None:
            x0, y0 = max(x0, 0), max(y0, 0)
            x1, y1 = min(x1, clip[0]), min(y1, clip[1])
        return Window(x0, y0, max(x1 - x0, 0), max(y1 - y0, 0))

    @property
    def shape(self) -> tuple[int, int]:
        return (self.height, self.width)

    @property
    def xs(self) -> FloatArray:
        """The left edges of the window's columns."""
        return np.arange(self.x0, self.x0 + self.width, dtype=np.float64)

    @property
    def ys(self) -> FloatArray:
        """The top edges of the window's rows."""
        return np.arange(self.y0, self.y0 + self.height, dtype=np.float64)


def far_offsets(edges: FloatArray, lo: float, hi: float) -> FloatArray:
    """Per-axis distance from ``[lo, hi]`` to the far side of each square.

    ``edges`` are the squares' near (left or top) edges; a square spans
    ``[e, e + 1]``. A point origin has ``lo == hi``.
    """
    return np.maximum(0.0, np.maximum(lo - edges, edges + 1.0 - hi))


def near_offsets(edges: FloatArray, lo: float, hi: float) -> FloatArray:
    """Per-axis distance from ``[lo, hi]`` to the nearest point of each square."""
    return np.maximum(0.0, np.maximum(lo - edges - 1.0, edges - hi))


def center_offsets(edges: FloatArray, lo: float, hi: float) -> FloatArray:
    """Per-axis distance from ``[lo, hi]`` to each square's centre."""
    return np.maximum(0.0, np.maximum(lo - edges - 0.5, edges + 0.5 - hi))


def threshold_mask(
    cols: FloatArray,
    rows: FloatArray,
    ok: Callable[[FloatArray, FloatArray], BoolArray],
    reach: Callable[[FloatArray], FloatArray] | None = None,
) -> BoolArray:
    """``mask[j, i] = ok(cols[i], rows[j])`` for ``ok`` monotone in ``cols``.

    ``cols`` are per-column offsets from an origin: they fall to their least
    value and rise again, as the distance to a point or a span does. ``ok``
    must be true for small column values and false from some value on in
    every row (a circle, a diamond, any ball of a diagonal rule), so each
    row takes one run of columns. Small windows are evaluated directly.

    For large ones each row's cut-off is searched among the distinct column
    values, starting astride ``reach(r)``, the largest column value row
    ``r`` accepts, or an estimate of it: where the estimate is right two
    tests settle the row; where it is not, the search walks away from it in
    doubling steps, then halves what is left, so a near miss costs a step or
    two and a far one about a bisection. ``ok`` is thus evaluated only at the
    rim, a couple of squares a row, and the window is written run by run, at
    the speed of memory. Without ``reach`` the search starts in the middle.

    Parameters
    ----------
    cols, rows : ndarray
        The offset of each column and each row.
    ok : callable
        ``ok(c, r)``, elementwise over broadcasting arrays: whether a square
        at offsets ``(c, r)`` is in.
    reach : callable, optional
        ``reach(r)``, elementwise: the largest ``c`` that ``ok`` takes in row
        ``r`` (negative for none), or an estimate of it. It only speeds the
        search; the answer is ``ok``'s.

    Returns
    -------
    ndarray
        ``(rows.size, cols.size)`` bool mask.
    """
    if cols.size * rows.size <= _DIRECT_CELLS:
        return np.asarray(ok(cols[None, :], rows[:, None]))
    values = np.unique(cols)
    levels, level_of_row = np.unique(rows, return_inverse=True)
    cut = _cuts(values, levels, ok, None if reach is None else reach(levels))
    # A row's run: the columns either side of the least value whose value is
    # at most the last one taken (-inf when none is).
    bottom = int(np.argmin(cols))
    last = np.concatenate(([-np.inf], values))[cut]
    start = bottom - np.searchsorted(cols[:bottom][::-1], last, side="right")
    stop = bottom + np.searchsorted(cols[bottom:], last, side="right")
    runs = np.stack([start, stop - start, cols.size - stop], axis=1)[level_of_row]
    return np.repeat(np.tile(_OUT_IN_OUT, rows.size), runs.ravel()).reshape(rows.size, cols.size)


def _cuts(
    values: FloatArray,
    levels: FloatArray,
    ok: Callable[[FloatArray, FloatArray], BoolArray],
    reach: FloatArray | None,
) -> NDArray[np.intp]:
    """Per level, how many of the sorted ``values`` ``ok`` takes (see :func:`threshold_mask`)."""
    n = values.size
    if reach is None:
        guess = np.full(levels.shape, n // 2)
    else:
        guess = np.searchsorted(values, reach, side="right")
    # First the two values astride each guess, in one call. Positions -1 and n
    # stand for "below every value" (taken) and "above every value" (not):
    # they are wrapped onto real values to be indexed, and their answers set.
    probe = np.stack([guess - 1, guess])
    good = np.asarray(ok(values[probe % n], levels))
    good = np.where(probe < 0, True, np.where(probe >= n, False, good))
    lo = np.where(good, probe + 1, 0).max(axis=0)
    hi = np.where(good, n, probe).min(axis=0)
    active = np.flatnonzero(lo < hi)
    step = 1
    while active.size:
        a, b, g = lo[active], hi[active], guess[active]
        half = (a + b) // 2
        # Away from the guess by 1, 2, 4, ... values, never past the middle of what is left.
        mid = np.where(b <= g, np.maximum(b - step, half), np.minimum(a + step - 1, half))
        taken = np.asarray(ok(values[mid], levels[active]))
        lo[active] = np.where(taken, mid + 1, a)
        hi[active] = np.where(taken, b, mid)
        active = active[lo[active] < hi[active]]
        step *= 2
    return lo


def centers(window: Window) -> tuple[FloatArray, FloatArray]:
    """The square centres of ``window`` as broadcastable ``(1, W)`` and ``(H, 1)``."""
    return (window.xs + 0.5)[None, :], (window.ys + 0.5)[:, None]


def _segment_pieces(segs: FloatArray) -> tuple[FloatArray, ...]:
    """Split segments where they cross grid lines: (mid x, mid y, dy, integral).

    Vectorised over all segments: a polygon of thousands of edges (a
    visibility polygon) is cut in a few numpy passes.
    """
    segs = segs[segs[:, 1] != segs[:, 3]]  # horizontal pieces add no area
    if len(segs) == 0:
        return tuple(np.empty(0) for _ in range(4))
    x0, y0, x1, y1 = segs.T
    dx, dy = x1 - x0, y1 - y0
    ids, ts = [np.arange(len(segs)).repeat(2)], [np.tile([0.0, 1.0], len(segs))]
    for a0, a1, d in ((x0, x1, dx), (y0, y1, dy)):
        lo = np.floor(np.minimum(a0, a1)) + 1
        n = np.maximum(np.ceil(np.maximum(a0, a1)) - lo, 0).astype(np.intp)
        n[d == 0.0] = 0
        seg = np.arange(len(segs)).repeat(n)
        first = np.cumsum(n) - n
        k = lo[seg] + (np.arange(seg.size) - first[seg])
        ids.append(seg)
        ts.append((k - a0[seg]) / d[seg])
    seg = np.concatenate(ids)
    t = np.clip(np.concatenate(ts), 0.0, 1.0)
    order = np.lexsort((t, seg))
    seg, t = seg[order], t[order]
    px, py = x0[seg] + t * dx[seg], y0[seg] + t * dy[seg]
    same = (seg[1:] == seg[:-1]) & (t[1:] > t[:-1])
    xm = ((px[1:] + px[:-1]) / 2)[same]
    ym = ((py[1:] + py[:-1]) / 2)[same]
    pdy = (py[1:] - py[:-1])[same]
    # x is linear along the piece, so its mean is the midpoint's x.
    return xm, ym, pdy, xm * pdy


def _arc_pieces(arcs: FloatArray) -> tuple[FloatArray, ...]:
    """Split arcs where they cross grid lines: (mid x, mid y, dy, integral of x dy)."""
    out: list[tuple[FloatArray, ...]] = []
    for cx, cy, r, t0, t1 in arcs:
        if r <= 0.0 or t1 <= t0:
            continue
        cand = [np.array([t0, t1])]
        kx = np.arange(math.floor(cx - r) + 1, math.ceil(cx + r))
        if kx.size:
            a = np.arccos(np.clip((kx - cx) / r, -1.0, 1.0))
            cand += [a, -a]
        ky = np.arange(math.floor(cy - r) + 1, math.ceil(cy + r))
        if ky.size:
            b = np.arcsin(np.clip((ky - cy) / r, -1.0, 1.0))
            cand += [b, math.pi - b]
        th = np.concatenate(cand)
        th = th + _TWO_PI * np.ceil((t0 - th) / _TWO_PI)
        th = np.unique(th[(th >= t0) & (th <= t1)])
        ta, tb = th[:-1], th[1:]
        tm = (ta + tb) / 2
        ca, cb, sa, sb = np.cos(ta), np.cos(tb), np.sin(ta), np.sin(tb)
        pdy = r * (sb - sa)
        ixdy = cx * pdy + r * r / 2 * ((tb - ta) + (np.sin(2 * tb) - np.sin(2 * ta)) / 2)
        # A piece's middle can touch a grid line (a tangent) and its chord's
        # middle can lie on one (both ends on it), never both on the same
        # line: their mean is strictly inside the piece's own square.
        mx = cx + r * (np.cos(tm) / 2 + (ca + cb) / 4)
        my = cy + r * (np.sin(tm) / 2 + (sa + sb) / 4)
        out.append((mx, my, pdy, ixdy))
    return _concat(out)


def _concat(parts: list[tuple[FloatArray, ...]]) -> tuple[FloatArray, ...]:
    if not parts:
        return tuple(np.empty(0) for _ in range(4))
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))


def coverage(region: Figure, window: Window) -> FloatArray:
    """Exact fraction of each square of ``window`` that ``region`` covers.

    Signed-area accumulation: the outline is cut where it crosses grid lines;
    each piece adds, to its own square, the area between it and the square's
    right edge, and to every square further right its full height. A running
    sum along each row then gives each square's covered area. The cost is the
    number of crossings plus one pass over the window: no per-square polygon
    clipping and no sampling. Arcs are integrated in closed form.

    Examples
    --------
    >>> from aoegrid.geometry.regions import RoundedRect
    >>> cov = coverage(RoundedRect(1, 1, 1, 1, 1.0), Window(0, 0, 2, 2))
    >>> bool(np.allclose(cov, np.pi / 4))
    True
    """
    h, w = window.shape
    if h == 0 or w == 0:
        return np.zeros((h, w))
    segs, arcs = region.boundary()
    parts = [_segment_pieces(segs), _arc_pieces(arcs)]
    xm, ym, dy, ixdy = (np.concatenate([p[i] for p in parts]) for i in range(4))
    # The sign of the enclosed area says which way the outline runs.
    sign = -1.0 if ixdy.sum() > 0 else 1.0
    i = np.floor(xm).astype(np.intp) - window.x0
    j = np.floor(ym).astype(np.intp) - window.y0
    own = (i + 1 + window.x0) * dy - ixdy  # integral of (right edge - x) dy
    keep = (j >= 0) & (j < h) & (i < w)
    left = keep & (i < 0)
    inner = keep & (i >= 0)
    stride = w + 1
    idx = np.concatenate([j[left] * stride, j[inner] * stride + i[inner], j[inner] * stride + i[inner] + 1])
    wts = np.concatenate([dy[left], own[inner], dy[inner] - own[inner]])
    acc = np.bincount(idx, weights=wts, minlength=h * stride).reshape(h, stride)
    # With no pieces in the window bincount gives integers, which the in-place steps cannot hold.
    acc = acc.astype(np.float64, copy=False)
    # In place: one window-sized array in all, however large the window.
    np.cumsum(acc, axis=1, out=acc)
    cov = acc[:, :w]
    cov *= sign
    np.clip(cov, 0.0, 1.0, out=cov)
    cov += 0.0  # turns -0.0 into 0.0
    return cov


def covered(region: Figure, window: Window, at_least: float) -> BoolArray:
    """Squares of which ``region`` covers at least ``at_least`` (within EPS).

    ``at_least=0`` means any positive area (more than EPS).
    """
    cov = coverage(region, window)
    if at_least <= 0.0:
        return np.asarray(cov > EPS)
    return np.asarray(cov >= at_least - EPS)


def ray_crossing(
    window: Window,
    origin: tuple[float, float],
    axis: tuple[float, float],
    max_t: float = math.inf,
) -> BoolArray:
    """Squares whose interior the ray ``origin + t * axis``, ``0 <= t <= max_t``, crosses.

    Crossing the interior means a piece of positive length inside the open
    square: a ray along a grid line or through a corner does not cross the
    squares it only touches.
    """
    ex, ey = window.xs, window.ys
    ox, oy = origin
    dx, dy = axis
    tx_lo, tx_hi = _slab(ex, ox, dx)
    ty_lo, ty_hi = _slab(ey, oy, dy)
    t_in = np.maximum(tx_lo[None, :], ty_lo[:, None])
    t_out = np.minimum(tx_hi[None, :], ty_hi[:, None])
    t_out = np.minimum(t_out, max_t)
    return np.asarray(t_out > np.maximum(t_in, 0.0) + EPS)


def _slab(edges: FloatArray, o: float, d: float) -> tuple[FloatArray, FloatArray]:
    """The ray parameters at which it is strictly between each square's sides.

    A side the ray would take more than the largest float to reach (a tiny
    component) gives an infinite parameter of the right sign: it is never
    reached.
    """
    if d == 0.0:
        inside = (edges < o) & (o < edges + 1.0)
        return np.where(inside, -np.inf, np.inf), np.where(inside, np.inf, -np.inf)
    with np.errstate(over="ignore"):
        a = (edges - o) / d
        b = (edges + 1.0 - o) / d
    return np.minimum(a, b), np.maximum(a, b)


def disk_rect_area(x0: FloatArray, x1: FloatArray, y0: FloatArray, y1: FloatArray, r: float) -> FloatArray:
    """Exact area of the disk of radius ``r`` at (0, 0) inside ``[x0, x1] x [y0, y1]``.

    Closed form, by inclusion-exclusion over the quadrant integral
    ``g(X, Y)``, the area of the disk in ``[0, X] x [0, Y]``, extended oddly
    to negative X and Y. Vectorised: the bounds broadcast.

    Examples
    --------
    >>> float(disk_rect_area(np.array(-1.0), np.array(1.0), np.array(-1.0), np.array(1.0), 1.0)) == math.pi
    True
    """
    def p(t: FloatArray, s: FloatArray) -> FloatArray:
        # The integral of sqrt(r^2 - u^2) from 0 to t, with s = sqrt(r^2 - t^2)
        # given: atan2 stays accurate where arcsin(t / r) loses digits near 1.
        return 0.5 * (t * s + r * r * np.arctan2(t, s))

    # What each bound gives the quadrant integral is worked out once a bound,
    # not once a corner; an axis's two bounds share one array.
    x = np.stack(np.broadcast_arrays(x1, x0))
    y = np.stack(np.broadcast_arrays(y1, y0))
    ax = np.minimum(np.abs(x), r)
    px = p(ax, np.sqrt(np.maximum((r - ax) * (r + ax), 0.0)))
    ay = np.minimum(np.abs(y), r)
    knee = np.sqrt((r - ay) * (r + ay))  # where the circle leaves the band of height ay
    py = p(knee, ay)
    shape = np.broadcast_shapes(x.shape[1:], y.shape[1:])

    def corner_axis(v: FloatArray, lead: tuple[int, int]) -> FloatArray:
        # x's bounds run along the first axis of the corners, y's along the second.
        return v.reshape(lead + (1,) * (len(shape) + 1 - v.ndim) + v.shape[1:])

    ax, px, sx = (corner_axis(v, (2, 1)) for v in (ax, px, np.sign(x)))
    ay, knee, py, sy = (corner_axis(v, (1, 2)) for v in (ay, knee, py, np.sign(y)))
    area = ay * np.minimum(ax, knee) + np.where(ax > knee, px - py, 0.0)
    g = sx * sy * area  # g[i, j]: the quadrant integral at (x1 or x0, y1 or y0)
    return np.asarray(g[0, 0] - g[1, 0] - g[0, 1] + g[1, 1])
