"""Walls, doors, windows and sight-only zones, and their per-map preparation.

Walls are segments in grid units, anywhere (off-grid cave walls are normal).
Each says what it blocks: line of effect (``"effect"``), line of sight
(``"sight"``) and movement (``"movement"``).

Tie rules, the same everywhere in aoegrid:

* only a proper crossing blocks: a line that touches a wall's end, ends on a
  wall, or runs along a wall is not blocked by it;
* walls that meet at a corner leave no gap: a line through the shared end of
  two joined walls is blocked (both sides of it are walled);
* zero-length walls are dropped; duplicates and crossings are fine (walls are
  split where they cross, once per map).

Preparing a map's walls costs what lies on or near the map: walls are clipped
one square beyond its edge (:data:`MARGIN`) and dropped when wholly off it,
duplicates and overlapping collinear walls are merged, and only then are the
walls split where they cross, in time ``O((n + k) log n)`` and memory
``O(n + k)`` for ``n`` walls and ``k`` crossings. Walls whose pieces would
not fit in the memory budget are refused, before any piece is made
(:func:`_node`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from aoegrid.board._boxes import SegmentGrid
from aoegrid.board._meets import CROSSING, UNSURE, relations
from aoegrid.board.visibility import Visibility, clip_segments, slab, visibility
from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry._kernels import run
from aoegrid.geometry._validate import point
from aoegrid.geometry.grid import memory_budget
from aoegrid.geometry.options import Side, parse_option

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


class Channel(str, Enum):
    """What a wall can block."""

    EFFECT = "effect"
    SIGHT = "sight"
    MOVEMENT = "movement"


class WallKind(str, Enum):
    """``wall``; ``door`` (closed: blocks all; open: nothing); ``window``
    (blocks effect and movement, not sight; open: nothing)."""

    WALL = "wall"
    DOOR = "door"
    WINDOW = "window"


ALL_CHANNELS = frozenset(Channel)

#: How far (squares) beyond the map's edge walls are kept. Every query frame
#: lies within one square of the map, so inside any frame the walls are as
#: given; and a wall crossing the edge still crosses it, so a line along the
#: edge is blocked as before.
MARGIN = 1.0
#: Walls with an end more than this many map sizes away are cut exactly
#: (in rationals): float rounding at such sizes would move them on the map.
_FAR = 1024.0
#: Two-way walls whose directions (radians) and offsets (per map size) differ
#: by less than this lie on one line, for merging.
_LINE_TOL = 1e-12
#: Crossing parameters this close to 0 or 1 are at a wall's end.
_END = 1e-12
#: The most memory one piece of a split wall takes (bytes): its ends and way,
#: its index entry, and the working arrays of splitting and sorting it. A
#: map's walls are split only when their pieces fit in
#: :func:`aoegrid.geometry.grid.memory_budget` at this size; ``tests/test_walls.py``
#: measures it.
PIECE_BYTES = 288
#: Frames holding more walls than this are searched outward from the origin.
_DENSE = 2000


@dataclass(frozen=True, slots=True)
class Wall:
    """One wall segment from ``start`` to ``end``, in grid units.

    Parameters
    ----------
    start, end : (x, y)
        The ends, anywhere on or off the grid.
    blocks : iterable of str
        For ``kind="wall"``: what it blocks, any of ``"effect"``, ``"sight"``,
        ``"movement"`` (default all three).
    kind : str
        ``"wall"``, ``"door"`` or ``"window"``.
    open : bool
        A door or window's state: open ones block nothing.
    one_way : str, optional
        ``"left"`` or ``"right"``: the wall blocks only lines that start on
        that side of it, seen looking from ``start`` to ``end``.
    bottom, top : float
        The heights (grid unit, as :attr:`Token.elevation <aoegrid.Token.elevation>`)
        the wall spans; a line is blocked only where it passes through the
        wall between them. Default ``-inf`` and ``+inf``: a wall of any
        height, as in two dimensions (see :attr:`infinite`).

    Examples
    --------
    >>> Wall((10, 0), (10, 12)).blocks_effect
    True
    >>> Wall((3, 4), (4, 4), kind="window").blocks_sight
    False
    >>> Wall((3, 4), (4, 4), kind="door", open=True).blocks_effect
    False
    >>> Wall((0, 0), (0, 4), top=5).span
    (-inf, 5.0)
    """

    start: tuple[float, float]
    end: tuple[float, float]
    blocks: frozenset[Channel] = ALL_CHANNELS
    kind: WallKind | str = WallKind.WALL
    open: bool = False
    one_way: Side | str | None = None
    bottom: float = -math.inf
    top: float = math.inf

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "start", _point(self.start, "Wall start"))
        set_(self, "end", _point(self.end, "Wall end"))
        raw = self.blocks
        if raw is not ALL_CHANNELS:  # the default needs no parsing
            if isinstance(raw, str) or not isinstance(raw, Iterable):
                raise InvalidTypeError(
                    f"Wall blocks must be a collection of 'effect', 'sight', 'movement'; got {raw!r}"
                )
            set_(self, "blocks", frozenset(parse_option(Channel, b, "Wall blocks") for b in raw))
        if not isinstance(self.kind, WallKind):
            set_(self, "kind", parse_option(WallKind, self.kind, "Wall kind"))
        if not isinstance(self.open, bool):
            raise InvalidTypeError(f"Wall open must be True or False, got {self.open!r}")
        if self.one_way is not None:
            set_(self, "one_way", parse_option(Side, self.one_way, "Wall one_way"))
        if self.bottom != -math.inf or self.top != math.inf:
            set_(self, "bottom", _height(self.bottom, "Wall bottom"))
            set_(self, "top", _height(self.top, "Wall top"))
            if self.bottom > self.top:
                raise InvalidValueError(
                    f"Wall bottom must not be above its top, got bottom={self.bottom:g} and top={self.top:g}"
                )

    @property
    def span(self) -> tuple[float, float]:
        """``(bottom, top)``: the heights the wall spans."""
        return (self.bottom, self.top)

    @property
    def infinite(self) -> bool:
        """Whether the wall spans every height (the default): a wall as in two dimensions."""
        return self.bottom == -math.inf and self.top == math.inf

    def blocks_channel(self, channel: Channel) -> bool:
        """Whether this wall, in its current state, blocks ``channel``."""
        if self.kind is WallKind.WALL:
            return channel in self.blocks
        if self.open:
            return False
        return self.kind is WallKind.DOOR or channel is not Channel.SIGHT

    @property
    def blocks_effect(self) -> bool:
        return self.blocks_channel(Channel.EFFECT)

    @property
    def blocks_sight(self) -> bool:
        return self.blocks_channel(Channel.SIGHT)

    @property
    def blocks_movement(self) -> bool:
        return self.blocks_channel(Channel.MOVEMENT)

    @property
    def length(self) -> float:
        return float(np.hypot(self.end[0] - self.start[0], self.end[1] - self.start[1]))


def walls_from(obj: Any, **options: Any) -> list[Wall]:
    """Walls from a :class:`Wall`, a polyline of points, or shapely geometry.

    A list of two or more ``(x, y)`` points is a polyline: one wall per
    stretch. Shapely lines give one wall per segment; a polygon gives its
    outline (exterior and holes). Only outlines are used, so an invalid
    (self-crossing) polygon gives exactly the outline drawn. ``options`` go
    to every :class:`Wall` made.

    Examples
    --------
    >>> [w.end for w in walls_from([(0, 0), (4, 0), (4, 3)])]
    [(4.0, 0.0), (4.0, 3.0)]
    >>> len(walls_from(shapely.box(0, 0, 2, 2)))
    4
    """
    if isinstance(obj, Wall):
        return [obj]
    if isinstance(obj, shapely.Geometry):
        if obj.is_empty:
            raise InvalidValueError(f"cannot make walls from an empty geometry: {obj.wkt}")
        kind = obj.geom_type
        if kind in ("Polygon", "MultiPolygon", "GeometryCollection", "MultiLineString"):
            parts = [obj.boundary] if kind in ("Polygon", "MultiPolygon") else list(obj.geoms)
            return [w for part in parts for w in walls_from(part, **options)]
        if kind in ("LineString", "LinearRing"):
            return walls_from(list(obj.coords), **options)
        raise InvalidTypeError(f"cannot make walls from a shapely {kind}; give lines or polygons")
    try:
        points = [point(p, "wall point") for p in obj]
    except (TypeError, InvalidTypeError):
        raise InvalidTypeError(
            f"walls must be Wall objects, polylines of (x, y) points or shapely lines or "
            f"polygons; got {obj!r}"
        ) from None
    if len(points) < 2:
        raise InvalidValueError(f"a wall polyline needs at least two points, got {obj!r}")
    return [Wall(a, b, **options) for a, b in itertools.pairwise(points)]


def _height(value: Any, field: str) -> float:
    """A wall's bottom or top: a number, not NaN; ``-inf`` and ``+inf`` mean unbounded."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(f"{field} must be a number, got {value!r} of type {type(value).__name__}")
    try:
        out = float(value)
    except OverflowError:  # an int beyond the float range
        raise InvalidValueError(f"{field} must be a number within the float range, got {value!r:.40}") from None
    if math.isnan(out):
        raise InvalidValueError(f"{field} must be a number or an infinity, got nan")
    return out


def _point(value: Any, field: str) -> tuple[float, float]:
    """``value`` as an ``(x, y)`` pair of finite floats.

    A pair of finite floats is taken as it is: map files make a wall per
    segment, 100,000s of them; anything else gets the full check.
    """
    if type(value) is tuple and len(value) == 2:
        x, y = value
        if type(x) is float and type(y) is float and math.isfinite(x) and math.isfinite(y):
            return value
    return point(value, field)


@dataclass(frozen=True, slots=True)
class Tidied:
    """Wall segments made ready for splitting, and what was done to them.

    ``segs`` is ``(n, 4)`` ``[x0, y0, x1, y1]`` and ``one_way`` ``(n,)`` as in
    :class:`WallSet`. Counts, in walls: ``dropped`` zero-length, ``outside``
    wholly off the map (they cannot block a line on it), ``clipped`` cut
    :data:`MARGIN` beyond the map's edge, ``merged`` into another wall (a
    duplicate, or a wall overlapping a collinear one).
    """

    segs: FloatArray
    one_way: NDArray[np.int8]
    dropped: int = 0
    outside: int = 0
    clipped: int = 0
    merged: int = 0

    def notes(self) -> list[str]:
        """One line per count that is not zero, e.g. ``"9,999 duplicate or overlapping walls merged"``."""
        lines = [
            (self.merged, "duplicate or overlapping wall{s} merged"),
            (self.clipped, "wall{s} clipped to the map (one square beyond its edge)"),
            (self.outside, "wall{s} wholly off the map dropped"),
            (self.dropped, "zero-length wall{s} dropped"),
        ]
        return [f"{n:,} " + text.format(s="" if n == 1 else "s") for n, text in lines if n]


def tidy(walls: Sequence[Wall], size: tuple[float, float] | None = None) -> Tidied:
    """The segments of ``walls``: zero-length ones dropped, clipped, merged.

    Parameters
    ----------
    walls : sequence of Wall
        Every wall given is used, whatever it blocks.
    size : (width, height), optional
        The map's size in squares: walls are clipped to it, :data:`MARGIN`
        wider, and dropped when they miss it. None keeps them whole.

    Returns
    -------
    Tidied
        Walls run from their lower end (x, then y); a one-way wall turned
        round blocks the same side (:func:`oriented`). No two overlap.

    Examples
    --------
    >>> t = tidy([Wall((0, 0), (1e9, 1e9)), Wall((1, 1), (3, 3)), Wall((3, 3), (1, 1))], (20, 20))
    >>> t.segs.tolist(), t.clipped, t.merged
    ([[0.0, 0.0, 21.0, 21.0]], 1, 2)
    """
    rows = np.array([(*w.start, *w.end) for w in walls], dtype=np.float64).reshape(-1, 4)
    ways = np.array([0 if w.one_way is None else (1 if w.one_way is Side.RIGHT else -1) for w in walls], np.int8)
    spans = spans_of(walls)
    zero = (rows[:, 0] == rows[:, 2]) & (rows[:, 1] == rows[:, 3])
    rows, ways = rows[~zero], ways[~zero]
    spans = None if spans is None else spans[~zero]
    outside = clipped = 0
    scale = 1.0
    if size is not None:
        width, height = size
        scale = max(float(width), float(height)) + 2 * MARGIN
        pieces, which, cut = clip(rows, (-MARGIN, -MARGIN, width + MARGIN, height + MARGIN))
        on_map = meets(pieces, (0.0, 0.0, float(width), float(height)))
        outside = len(rows) - int(on_map.sum())
        clipped = int(cut[on_map].sum())
        rows, ways = pieces[on_map], ways[which[on_map]]
        spans = None if spans is None else spans[which[on_map]]
    segs, ways, merged = _merge(rows, ways, scale, spans)
    return Tidied(segs, ways, int(zero.sum()), outside, clipped, merged)


def _span(segs: FloatArray, rect: tuple[float, float, float, float]) -> tuple[FloatArray, ...]:
    """Liang-Barsky parameters of ``segs`` against ``rect``: t0, t1 and the slabs' own."""
    x0, y0, x1, y1 = rect
    ax, ay, bx, by = segs.T
    x_in, x_out = slab(ax, bx - ax, x0, x1)
    y_in, y_out = slab(ay, by - ay, y0, y1)
    t0 = np.maximum(np.maximum(x_in, y_in), 0.0)
    t1 = np.minimum(np.minimum(x_out, y_out), 1.0)
    return t0, t1, x_in, x_out, y_in, y_out


def meets(segs: FloatArray, rect: tuple[float, float, float, float]) -> BoolArray:
    """Whether each segment meets the closed rectangle ``rect`` (xmin, ymin, xmax, ymax)."""
    t0, t1 = _span(segs, rect)[:2]
    return np.asarray(t0 <= t1)


def clip(
    segs: FloatArray, rect: tuple[float, float, float, float]
) -> tuple[FloatArray, NDArray[np.intp], BoolArray]:
    """The pieces of ``segs`` inside ``rect``, each in its segment's direction.

    Exact for any finite coordinates, up to 1.8e308: ends inside ``rect`` are
    kept bit for bit; a cut end lies exactly on ``rect``'s side (computed
    exactly, in rationals, for segments reaching :data:`_FAR` map sizes away,
    where float rounding would move the wall). Segments meeting ``rect`` in a
    point or not at all give no piece.

    Returns
    -------
    pieces : (m, 4) float array
    which : (m,) int array
        The row of ``segs`` each piece comes from, in order.
    cut : (m,) bool array
        Whether the piece is shorter than its segment.
    """
    segs = np.asarray(segs, dtype=np.float64).reshape(-1, 4)
    x0, y0, x1, y1 = rect
    ax, ay, bx, by = segs.T
    # Comparisons are exact at any size: what misses the box is out at once.
    boxed = (np.minimum(ax, bx) <= x1) & (np.maximum(ax, bx) >= x0)
    boxed &= (np.minimum(ay, by) <= y1) & (np.maximum(ay, by) >= y0)
    # Walls wholly inside are kept bit for bit (as the cut would keep them):
    # only the rest are cut, so clipping walls on the map costs a few comparisons.
    inside = boxed & (np.minimum(ax, bx) >= x0) & (np.maximum(ax, bx) <= x1)
    inside &= (np.minimum(ay, by) >= y0) & (np.maximum(ay, by) <= y1) & ((ax != bx) | (ay != by))
    whole = np.flatnonzero(inside)
    if inside.sum() == boxed.sum():
        return segs[whole], whole, np.zeros(len(whole), dtype=bool)
    far = np.abs(segs).max(axis=1) > _FAR * (1.0 + max(abs(v) for v in rect))
    near = np.flatnonzero(boxed & ~far & ~inside)
    pieces, cut, kept = _clip_float(segs[near], rect)
    rows, which, cuts = [segs[whole], pieces], [whole, near[kept]], [np.zeros(len(whole), dtype=bool), cut]
    for i in np.flatnonzero(boxed & far):
        piece = _clip_exact(segs[i], rect)
        if piece is not None:
            rows.append(np.array([piece]))
            which.append(np.array([i]))
            cuts.append(np.array([True]))
    order = np.argsort(np.concatenate(which), kind="stable")
    return np.vstack(rows)[order], np.concatenate(which)[order].astype(np.intp), np.concatenate(cuts)[order]


def _clip_float(segs: FloatArray, rect: tuple[float, float, float, float]) -> tuple[FloatArray, BoolArray, BoolArray]:
    """:func:`clip` for segments with every coordinate within :data:`_FAR` map sizes: pieces, cut, kept.

    The cutting is visibility's own (:func:`aoegrid.board.visibility.clip_segments`): a
    cut end lies exactly on the rectangle, an end inside is kept bit for bit,
    so a piece differs from its wall only where it was cut.
    """
    pieces, kept = clip_segments(segs, rect)
    return pieces, (pieces != segs[kept]).any(axis=1), kept


def _clip_exact(seg: FloatArray, rect: tuple[float, float, float, float]) -> tuple[float, ...] | None:
    """One segment clipped to ``rect`` in exact rational arithmetic, ends rounded once; None if no piece."""
    a = [Fraction(float(v)) for v in seg]
    t0, t1 = Fraction(0), Fraction(1)
    for k, (lo, hi) in enumerate(((rect[0], rect[2]), (rect[1], rect[3]))):
        p, e = a[k], a[k + 2] - a[k]
        if e == 0:
            if not lo <= p <= hi:
                return None
            continue
        enter, leave = sorted(((Fraction(lo) - p) / e, (Fraction(hi) - p) / e))
        t0, t1 = max(t0, enter), min(t1, leave)
    if t0 >= t1:
        return None
    piece = tuple(float(a[k] + t * (a[k + 2] - a[k])) for t in (t0, t1) for k in (0, 1))
    return None if piece[:2] == piece[2:] else piece


def oriented(segs: FloatArray, ways: NDArray[np.int8]) -> tuple[FloatArray, NDArray[np.int8]]:
    """Walls ``segs`` turned to run from their lower end (x, then y), and their ways.

    A one-way wall turned round has its way negated: it blocks lines from
    the same side as before.
    """
    swap = (segs[:, 0] > segs[:, 2]) | ((segs[:, 0] == segs[:, 2]) & (segs[:, 1] > segs[:, 3]))
    return np.where(swap[:, None], segs[:, [2, 3, 0, 1]], segs), np.where(swap, -ways, ways).astype(np.int8)


def spans_of(walls: Sequence[Wall]) -> NDArray[np.intp] | None:
    """Each wall's span as a code (equal spans, equal codes), or None when every wall spans every height.

    Walls of different spans (:attr:`Wall.span`) are never merged (:func:`_merge`).
    """
    if all(w.infinite for w in walls):
        return None
    pairs = np.array([w.span for w in walls], dtype=np.float64).reshape(-1, 2)
    return np.unique(pairs, axis=0, return_inverse=True)[1].reshape(-1).astype(np.intp)


def _merge(
    segs: FloatArray, ways: NDArray[np.int8], scale: float, spans: NDArray[np.intp] | None = None
) -> tuple[FloatArray, NDArray[np.int8], int]:
    """Merge duplicate and overlapping collinear walls into walls that do not overlap.

    Walls are grouped by the line they lie on (direction and offset, to
    :data:`_LINE_TOL`) and by their span (``spans``, codes from
    :func:`spans_of`; None: all alike): walls of different heights are never
    merged. Along each line, the stretches blocked from each
    side (a two-way wall blocks both, a one-way wall one) are merged where
    walls overlap by a positive length, and the line is cut at the ends of
    those stretches: a piece blocked from both sides is a two-way wall, one
    blocked from one side a one-way wall. No two walls of a line then
    overlap: the visibility sweep ranks walls on one line by index alone,
    and overlapping ones with different ends (a one-way wall cut where a
    collinear two-way wall ends) made that ranking a cycle, and farther
    walls visible. Walls that only touch end to end stay apart: a point of
    origin at their shared end is at a wall's end, not inside one. A wall
    overlapping none comes out as :func:`oriented` turns it.

    Returns
    -------
    segs : (m, 4) float array
        Lower end first (x, then y).
    ways : (m,) int8 array
    merged : int
        How many walls were merged into others: the walls given less the
        runs of overlapping ones.
    """
    s, ways = oriented(segs, ways)
    n = len(s)
    if n < 2:
        return s, ways, 0
    line_a, line_c, ux, uy = line_keys(s, scale)
    span = np.zeros(n, dtype=np.intp) if spans is None else spans
    order = np.lexsort((span, line_c, line_a))
    s, ways, ux, uy, line_a, line_c = s[order], ways[order], ux[order], uy[order], line_a[order], line_c[order]
    span = span[order]
    new_line = (line_a[1:] != line_a[:-1]) | (line_c[1:] != line_c[:-1]) | (span[1:] != span[:-1])
    starts = np.flatnonzero(np.r_[True, new_line])
    group = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, n]))
    # Project onto each line's first direction: intervals [lo, hi] along it.
    # A wall that rounding turns round against it blocks the other side of it.
    rx, ry = ux[starts][group], uy[starts][group]
    p0, p1 = rx * s[:, 0] + ry * s[:, 1], rx * s[:, 2] + ry * s[:, 3]
    first = p0 <= p1
    lo, hi = np.where(first, p0, p1), np.where(first, p1, p0)
    ends = np.hstack([np.where(first[:, None], s[:, :2], s[:, 2:]), np.where(first[:, None], s[:, 2:], s[:, :2])])
    ways = np.where(first, ways, -ways)
    order = np.lexsort((lo, group))
    group, lo, hi, ends, ways = group[order], lo[order], hi[order], ends[order], ways[order]
    run = np.cumsum(_runs(group, lo, hi)[0]) - 1
    # A wall overlapping none is a piece as it is; the rest are cut run by run.
    many = np.bincount(run)[run] > 1
    pieces, piece_ways = _pieces(run[many], lo[many], hi[many], ends[many], ways[many])
    return np.vstack([ends[~many], pieces]), np.concatenate([ways[~many], piece_ways]), n - int(run[-1]) - 1


def _pieces(
    run: NDArray[np.intp], lo: FloatArray, hi: FloatArray, ends: FloatArray, ways: NDArray[np.int8]
) -> tuple[FloatArray, NDArray[np.int8]]:
    """Overlapping collinear walls cut into pieces that do not overlap, and their ways.

    The walls are sorted by ``run`` (of walls overlapping along a line),
    then by ``lo``: each spans ``[lo, hi]`` along its line, from ``ends[:, :2]``
    to ``ends[:, 2:]``. See :func:`_merge`.
    """
    if not run.size:
        return np.empty((0, 4)), np.empty(0, np.int8)
    # Each side's stretches as events along their line, rows [run, place along it, x, y,
    # right, left]: +1 in the side's column where a stretch starts, -1 where one ends.
    events = []
    for side, column in ((1, 0), (-1, 1)):
        on = np.flatnonzero(ways != -side)
        if on.size:
            start, far = _runs(run[on], lo[on], hi[on])
            begin, end = on[start], on[far]
            delta = np.zeros((begin.size, 2))
            delta[:, column] = 1.0
            events += [np.column_stack([run[begin], lo[begin], ends[begin, :2], delta]),
                       np.column_stack([run[end], hi[end], ends[end, 2:], -delta])]
    ev = np.vstack(events)
    ev = ev[np.lexsort((ev[:, 3], ev[:, 2], ev[:, 1], ev[:, 0]))]
    blocked = np.cumsum(ev[:, 4:], axis=0) > 0.5  # per side, just past each event
    new = np.r_[True, (ev[1:, 0] != ev[:-1, 0]) | (ev[1:, 1] != ev[:-1, 1])]
    # Ends at one place along a line (to the last bit) become one point, the lowest.
    at = ev[np.maximum.accumulate(np.where(new, np.arange(len(ev)), 0)), 2:4]
    # A piece from each place to the next in a run, where a side is blocked between them.
    piece = np.flatnonzero(new[1:] & (ev[1:, 0] == ev[:-1, 0]) & blocked[:-1].any(axis=1))
    right, left = blocked[piece, 0], blocked[piece, 1]
    return np.hstack([at[piece], at[piece + 1]]), np.where(right & left, 0, np.where(right, 1, -1)).astype(np.int8)


def line_keys(s: FloatArray, scale: float) -> tuple[NDArray[np.int64], NDArray[np.int64], FloatArray, FloatArray]:
    """The line each segment (lower end first) lies on, for merging: two keys and its direction.

    Segments with equal keys (direction, then offset, to :data:`_LINE_TOL`)
    are merged where they overlap; ``scale`` is the map's size, as in
    :func:`tidy`. Returns ``line_a``, ``line_c``, ``ux``, ``uy``.
    """
    dx, dy = s[:, 2] - s[:, 0], s[:, 3] - s[:, 1]
    length = np.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    line_a = np.floor(np.arctan2(dy, dx) / _LINE_TOL).astype(np.int64)
    line_c = np.floor((ux * s[:, 1] - uy * s[:, 0]) / (_LINE_TOL * scale)).astype(np.int64)
    return line_a, line_c, ux, uy


def _farthest(line: NDArray[np.intp], hi: FloatArray) -> NDArray[np.intp]:
    """For intervals sorted by ``line`` (ascending), the one reaching farthest so far in each one's line."""
    n = len(hi)
    by_hi = np.argsort(hi, kind="stable")
    rank = np.empty(n, np.int64)
    rank[by_hi] = np.arange(n)
    # Lines ascend, so a running maximum of line * n + rank never crosses into the next line.
    return by_hi[np.maximum.accumulate(line * n + rank) - line * n]


def _runs(group: NDArray[np.intp], lo: FloatArray, hi: FloatArray) -> tuple[BoolArray, NDArray[np.intp]]:
    """Runs of intervals ``[lo, hi]`` overlapping by a positive length, sorted by ``group`` then ``lo``.

    Returns which interval starts each run and, per run, the interval
    reaching farthest. Intervals that only touch are in different runs.
    """
    reach = _farthest(group, hi)
    start = np.r_[True, (group[1:] != group[:-1]) | (lo[1:] >= hi[reach[:-1]])]
    last = np.r_[np.flatnonzero(start[1:]), len(lo) - 1]
    return start, reach[last]


def _alone(
    s: FloatArray,
    group: NDArray[np.intp],
    members: NDArray[np.intp],
    direction: tuple[FloatArray, FloatArray],
    scale: float,
) -> BoolArray:
    """Which walls :func:`_merge` leaves as they are, whichever others are merged with them.

    ``s`` are the walls as merging orients them (:func:`oriented`),
    ``group`` the merge group of each (its line's :func:`line_keys`),
    ``members`` the walls in order of group, ``direction`` each wall's
    ``ux, uy`` (from :func:`line_keys`), ``scale`` the map's size. The walls
    of a line are alone when each is longer than rounding can shorten
    (``1e-9`` map sizes) and every two of them are farther apart than that
    or meet exactly end to end: projected on any line of the group's, none
    then overlaps another, whatever their ways. Otherwise none of the
    line's walls is.
    """
    alone = np.bincount(group)[group] == 1
    idx = members[~alone[members]]
    if not idx.size:
        return alone
    g = group[idx]
    first = np.r_[True, g[1:] != g[:-1]]
    # Every wall of a line is within _LINE_TOL of its first wall's direction.
    ref = idx[np.maximum.accumulate(np.where(first, np.arange(idx.size), 0))]
    rx, ry = direction[0][ref], direction[1][ref]
    seg = s[idx]
    lo, hi = rx * seg[:, 0] + ry * seg[:, 1], rx * seg[:, 2] + ry * seg[:, 3]
    order = np.lexsort((lo, g))
    g, lo, hi, seg = g[order], lo[order], hi[order], seg[order]
    first = np.r_[True, g[1:] != g[:-1]]
    reach = hi[_farthest(np.cumsum(first) - 1, hi)]
    before = np.r_[-np.inf, reach[:-1]]  # the farthest end of the walls before each
    before[first] = -np.inf
    before2 = np.r_[-np.inf, before[:-1]]  # ... and before the one before it
    tol = 1e-9 * scale
    touch = np.r_[False, (seg[1:, :2] == seg[:-1, 2:]).all(axis=1)] & ~first
    ok = (hi - lo > tol) & ((before + tol <= lo) | (touch & (before2 + tol <= lo)))
    bad = np.zeros(g[-1] + 1, dtype=bool)
    bad[g[~ok]] = True
    alone[idx[order]] = ~bad[g]
    return alone


@dataclass(frozen=True, slots=True)
class WallSet:
    """Walls of one channel, clipped, merged, split where they cross, with a spatial index (``index``).

    ``segs`` is ``(n, 4)`` ``[x0, y0, x1, y1]``; ``one_way`` is ``(n,)``:
    0 for two-way walls, +1 for walls blocking only lines from their right,
    -1 from their left. ``unsplit`` and ``unsplit_one_way`` are the same
    walls before splitting (fewer, longer: what spread steps are tested
    against). Built once per map and channel. The counts are as in
    :class:`Tidied`.
    """

    segs: FloatArray
    one_way: NDArray[np.int8]
    index: SegmentGrid = field(repr=False)
    unsplit: FloatArray = field(repr=False)
    unsplit_one_way: NDArray[np.int8] = field(repr=False)
    dropped: int = 0
    outside: int = 0
    clipped: int = 0
    merged: int = 0

    @staticmethod
    def build(
        walls: Iterable[Wall], channel: Channel, size: tuple[float, float] | None = None, source: str | None = None
    ) -> WallSet:
        """The walls of ``walls`` blocking ``channel``, prepared (see :func:`tidy`) and split.

        ``size`` is the map's (width, height) in squares: walls are clipped to
        it (:data:`MARGIN` wider); None keeps them whole. ``source`` (the
        map's file) is named by the error raised when the pieces would not
        fit in memory (see :func:`_node`).
        """
        t = tidy([w for w in walls if w.blocks_channel(channel)], size)
        segs, ways = _node(t.segs, t.one_way, source)
        return WallSet(segs, ways, SegmentGrid(segs), t.segs, t.one_way, t.dropped, t.outside, t.clipped, t.merged)

    def indices(self, bounds: tuple[float, float, float, float]) -> NDArray[np.intp]:
        """Indices, ascending, of the segments whose boxes meet ``bounds`` (xmin, ymin, xmax, ymax)."""
        return self.index.query(bounds)

    def near(self, bounds: tuple[float, float, float, float]) -> tuple[FloatArray, NDArray[np.int8]]:
        """The segments whose boxes meet ``bounds`` (xmin, ymin, xmax, ymax), and their ways."""
        idx = self.indices(bounds)
        return self.segs[idx], self.one_way[idx]

    def visibility(self, origin: tuple[float, float], frame: tuple[float, float, float, float]) -> Visibility:
        """The visibility of ``origin`` among these walls, exact inside ``frame``.

        The same as :func:`aoegrid.board.visibility.visibility` over the walls
        meeting ``frame``, reading only the walls it needs: in a frame holding
        many walls it first looks in a small box round the origin, and doubles
        the box until walls close the polygon inside it (no vertex on a side
        of the box that is not the frame's). Walls beyond a closed polygon
        cannot change it, so the cost follows what the origin sees, not how
        crowded the frame is.

        Raises
        ------
        OriginOnWallError
            If ``origin`` lies inside a wall.
        """
        ox, oy = origin
        fx0, fy0, fx1, fy1 = frame
        n = len(self.segs)
        if n > _DENSE:
            # How many walls the frame holds, were they spread evenly over the
            # box they span: found without listing the frame's walls, which
            # would cost as much as the frame holds.
            xs, ys = self.segs[:, 0::2], self.segs[:, 1::2]  # column by column: axis-0 reductions are slow
            lo, hi = np.array([xs.min(), ys.min()]), np.array([xs.max(), ys.max()])
            span = np.maximum(hi - lo, 1.0)
            shared = np.maximum(np.minimum(hi, (fx1, fy1)) - np.maximum(lo, (fx0, fy0)), 0.0)
            n = int(n * np.prod(np.minimum(shared, span) / span))
        # The first box would hold about _DENSE walls, were they spread evenly.
        half = math.sqrt((fx1 - fx0) * (fy1 - fy0) * _DENSE / max(n, 1)) / 2
        while n > _DENSE:
            box = (max(fx0, ox - half), max(fy0, oy - half), min(fx1, ox + half), min(fy1, oy + half))
            if box == (fx0, fy0, fx1, fy1):
                break
            inner = self.indices(box)
            vis = visibility(origin, self.segs[inner], self.one_way[inner], box)
            px, py = vis.polygon().T
            # A vertex on a side of the box inside the frame (to rounding)
            # means the box, not a wall, closes the polygon there.
            tol = 1e-7 * max(1.0, half)
            open_ = ((px <= box[0] + tol) & (box[0] > fx0)) | ((px >= box[2] - tol) & (box[2] < fx1))
            open_ |= ((py <= box[1] + tol) & (box[1] > fy0)) | ((py >= box[3] - tol) & (box[3] < fy1))
            if not open_.any():
                return vis
            half *= 2
        idx = self.indices(frame)
        return visibility(origin, self.segs[idx], self.one_way[idx], frame)


def _node(segs: FloatArray, ways: NDArray[np.int8], source: str | None = None) -> tuple[FloatArray, NDArray[np.int8]]:
    """Split segments where they cross or touch another's interior.

    Pairs of segments that may meet come from a
    :class:`~aoegrid.board._boxes.SegmentGrid`, in blocks of bounded size; which
    of them meet is decided exactly (:func:`_intersects`), each crossing is
    computed in numpy and every segment is cut at its crossings in order
    along it. Time ``O((n + k) log n)``, memory ``O(n + k)`` for ``k``
    crossings (pairs of boxes that meet without their segments meeting cost
    time, not memory).

    Raises
    ------
    InvalidValueError
        When the pieces would not fit in :func:`aoegrid.geometry.grid.memory_budget`
        at :data:`PIECE_BYTES` each. The crossings are counted first, by a
        kernel listing none, so the refusal comes before any piece is made,
        in about the time it takes to count as many crossings as fit; the
        message names the crossings, the budget and ``source`` (the map's
        file).
    """
    n = len(segs)
    if n < 2:
        return segs, ways
    index = SegmentGrid(segs)
    most = memory_budget() // PIECE_BYTES
    if n * n > most:  # else the pieces fit were every two walls to cross
        # The pieces do not depend on the order pairs are taken in: counted in a
        # random order, the crossings of the walls done tell how many there are in all.
        crossings, done = index.crossings(np.random.default_rng(0).permutation(n), (most - n) // 2)
        if n + 2 * crossings > most:
            raise _too_many_pieces(crossings, n + 2 * crossings, crossings * n / max(done, 1), source)
    # Compute each crossing from the pair in one fixed order (by coordinates,
    # not by place in the list), so the split point, and every answer that
    # depends on its last bit, is the same however the walls are listed.
    rank = np.empty(n, dtype=np.intp)
    rank[np.lexsort(segs.T[::-1])] = np.arange(n)
    found, cut, crossings = [np.empty((0, 4))], 0, 0
    for left, right in index.pairs(index.boxes(np.arange(n)), np.arange(n), meeting=True):
        meet = _intersects(segs[left], segs[right])
        left, right = left[meet], right[meet]
        swap = rank[left] > rank[right]
        cuts, pairs = _crossings(segs, np.where(swap, right, left), np.where(swap, left, right))
        found.append(cuts)
        cut, crossings = cut + len(cuts), crossings + pairs
        # Touching walls, which the count leaves out, cut too.
        if n + cut > most:
            raise _too_many_pieces(crossings, n + cut, crossings, source)
    cuts = _first_cuts(np.vstack(found))
    owner = cuts[:, 0].astype(np.intp)
    count = np.bincount(owner, minlength=n)
    # Each segment's points: its start, its cuts in order, its end.
    first = np.cumsum(count + 2) - (count + 2)
    pts = np.empty((n + cuts.shape[0] + n, 2))
    pts[first] = segs[:, :2]
    pts[first + count + 1] = segs[:, 2:]
    pts[first[owner] + 1 + np.arange(owner.size) - (np.cumsum(count) - count)[owner]] = cuts[:, 2:]
    seg_of = np.repeat(np.arange(n), count + 2)
    step = np.flatnonzero(seg_of[1:] == seg_of[:-1])
    pieces = np.hstack([pts[step], pts[step + 1]])
    real = (pieces[:, 0] != pieces[:, 2]) | (pieces[:, 1] != pieces[:, 3])
    return pieces[real], ways[seg_of[step[real]]]


def _first_cuts(cuts: FloatArray) -> FloatArray:
    """Cuts (rows ``[segment, t, x, y]``) sorted by segment, then along it, one at each parameter.

    Of cuts at the same parameter the lowest point (x, then y) is kept, so
    the choice does not depend on the order pairs came in. The same as
    sorting by all four columns and keeping the first of each ``(segment,
    t)``, but with two sorts of one key each: ``t`` ranked, then segment and
    rank as one integer; only ties are sorted by point.
    """
    by_t = np.argsort(cuts[:, 1])
    t = cuts[by_t, 1]
    rank = np.empty(len(cuts), dtype=np.int64)
    rank[by_t] = np.cumsum(np.r_[False, t[1:] != t[:-1]])
    key = cuts[:, 0].astype(np.int64) * (len(cuts) + 1) + rank
    order = np.argsort(key)
    key = key[order]
    first = np.r_[True, key[1:] != key[:-1]][: len(key)]
    keep = order[first]
    if not first.all():
        group = np.cumsum(first) - 1
        tied = np.flatnonzero(np.bincount(group)[group] > 1)
        point = cuts[order[tied]]
        lowest = tied[np.lexsort((point[:, 3], point[:, 2], group[tied]))]
        lowest = lowest[np.r_[True, group[lowest][1:] != group[lowest][:-1]]]
        keep[group[lowest]] = order[lowest]
    return cuts[keep]


def _too_many_pieces(crossings: int, pieces: int, estimate: float, source: str | None) -> InvalidValueError:
    """The error for walls whose pieces would not fit in the memory budget (see :func:`_node`)."""
    budget = memory_budget()
    about = f" (about {estimate:,.0f} in all)" if estimate > crossings else ""
    return InvalidValueError(
        f"{source + ': ' if source else ''}the walls cross at least {crossings:,} times{about}: split there, "
        f"they make {pieces:,} pieces or more, more than the {budget // PIECE_BYTES:,} that fit in the "
        f"{budget / 2**30:.3g} GiB a map may take on this machine (half of its memory, at {PIECE_BYTES} "
        f"bytes a piece); draw fewer walls crossing one another"
    )


def _crossings(segs: FloatArray, i: NDArray[np.intp], j: NDArray[np.intp]) -> tuple[FloatArray, int]:
    """The cuts the meeting pairs ``(i, j)`` make: rows ``[segment, t, x, y]``, and how many pairs cut."""
    a, b = segs[i], segs[j]
    t, u, crossing = _meet(a, b)
    p, r, q = a[:, :2], a[:, 2:] - a[:, :2], b[:, :2]
    # Cut at the other wall's exact end when it ends here (a T-junction),
    # so joined walls share the point bit for bit and leave no gap.
    at = p + t[:, None] * r
    at = np.where(((t <= _END) | (t >= 1 - _END))[:, None], np.where((t < 0.5)[:, None], p, a[:, 2:]), at)
    at = np.where(((u <= _END) | (u >= 1 - _END))[:, None], np.where((u < 0.5)[:, None], q, b[:, 2:]), at)
    on_i = crossing & _inner(t)
    on_j = crossing & _inner(u)
    cuts = np.vstack([
        np.column_stack([i[on_i], t[on_i], at[on_i]]),
        np.column_stack([j[on_j], u[on_j], at[on_j]]),
    ])
    return cuts, int((on_i | on_j).sum())


def _meet(a: FloatArray, b: FloatArray) -> tuple[FloatArray, FloatArray, BoolArray]:
    """Where the lines of segments ``a`` and ``b`` (rows paired) meet: ``t`` along ``a``, ``u`` along ``b``.

    The third array says which pairs are not parallel (elsewhere ``t`` and
    ``u`` are meaningless).
    """
    p, r = a[:, :2], a[:, 2:] - a[:, :2]
    q, s = b[:, :2], b[:, 2:] - b[:, :2]
    denom = r[:, 0] * s[:, 1] - r[:, 1] * s[:, 0]
    qp = q - p
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (qp[:, 0] * s[:, 1] - qp[:, 1] * s[:, 0]) / denom
        u = (qp[:, 0] * r[:, 1] - qp[:, 1] * r[:, 0]) / denom
    return t, u, denom != 0.0


def _inner(t: FloatArray) -> BoolArray:
    """Whether parameters ``t`` along a segment are inside it, not at an end (:data:`_END`)."""
    return np.asarray((t > _END) & (t < 1 - _END))


def _intersects(a: FloatArray, b: FloatArray) -> BoolArray:
    """Whether segments ``a`` and ``b`` (rows paired, boxes meeting) meet, touching included.

    Exactly as GEOS's ``intersects`` decides it: pairs whose orientation
    signs are certain in floats (:func:`aoegrid.board._meets.relations`) meet when
    each straddles the other's line; only the rest (touching, collinear, a
    hair apart) go to GEOS.
    """
    how = np.asarray(run(relations, len(a), a, b), dtype=np.int8)
    out = how == CROSSING
    unsure = np.flatnonzero(how == UNSURE)
    if unsure.size:
        lines = shapely.linestrings(np.vstack([a[unsure], b[unsure]]).reshape(-1, 2, 2))
        out[unsure] = shapely.intersects(lines[: unsure.size], lines[unsure.size :])
    return out


def _quiet(segs: FloatArray, lone: BoolArray, left: NDArray[np.intp], right: NDArray[np.intp]) -> BoolArray:
    """Whether merging and splitting leave both segments of each pair as they are.

    ``segs`` are walls as merging leaves them (two-way ones lower end
    first), ``lone`` says which merge with no other whatever else is merged
    (:func:`_alone`), and ``(left, right)`` are pairs of them whose boxes
    meet. A pair is quiet when both are lone (a merged wall lies within its
    pieces' boxes) and neither cuts the other: the pair is computed as
    :func:`_node` computes it, in the same order, to the same bits. A wall
    quiet with every wall its box meets is left as it is by merging and
    splitting, whatever others are prepared with it.
    """
    quiet = lone[left] & lone[right]
    left, right = left[quiet], right[quiet]
    a, b = segs[left], segs[right]
    # _node takes each pair in order of coordinates (a lexicographic sort).
    first = np.argmax(a != b, axis=1)
    at = np.arange(len(first))
    swap = (a[at, first] > b[at, first])[:, None]
    a, b = np.where(swap, b, a), np.where(swap, a, b)
    t, u, crossing = _meet(a, b)
    maybe = np.flatnonzero(crossing & (_inner(t) | _inner(u)))
    # Only pairs that touch are split (the lines of others meet elsewhere).
    cut = maybe[_intersects(a[maybe], b[maybe])]
    quiet[np.flatnonzero(quiet)[cut]] = False
    return quiet
