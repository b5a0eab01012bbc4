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
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from aoegrid._validate import point
from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.options import Side, parse_option

FloatArray = NDArray[np.float64]


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

    Examples
    --------
    >>> Wall((10, 0), (10, 12)).blocks_effect
    True
    >>> Wall((3, 4), (4, 4), kind="window").blocks_sight
    False
    >>> Wall((3, 4), (4, 4), kind="door", open=True).blocks_effect
    False
    """

    start: tuple[float, float]
    end: tuple[float, float]
    blocks: frozenset[Channel] = ALL_CHANNELS
    kind: WallKind | str = WallKind.WALL
    open: bool = False
    one_way: Side | str | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "start", point(self.start, "Wall start"))
        set_(self, "end", point(self.end, "Wall end"))
        raw = self.blocks
        if isinstance(raw, str) or not isinstance(raw, Iterable):
            raise InvalidTypeError(
                f"Wall blocks must be a collection of 'effect', 'sight', 'movement'; got {raw!r}"
            )
        set_(self, "blocks", frozenset(parse_option(Channel, b, "Wall blocks") for b in raw))
        set_(self, "kind", parse_option(WallKind, self.kind, "Wall kind"))
        if not isinstance(self.open, bool):
            raise InvalidTypeError(f"Wall open must be True or False, got {self.open!r}")
        if self.one_way is not None:
            set_(self, "one_way", parse_option(Side, self.one_way, "Wall one_way"))

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


@dataclass(frozen=True, slots=True)
class WallSet:
    """Walls of one channel, split where they cross, with a spatial index.

    ``segs`` is ``(n, 4)`` ``[x0, y0, x1, y1]``; ``one_way`` is ``(n,)``:
    0 for two-way walls, +1 for walls blocking only lines from their right,
    -1 from their left. Built once per map and channel.
    """

    segs: FloatArray
    one_way: NDArray[np.int8]
    tree: shapely.STRtree = field(repr=False)
    dropped: int = 0

    @staticmethod
    def build(walls: Iterable[Wall], channel: Channel) -> WallSet:
        rows, ways = [], []
        dropped = 0
        for w in walls:
            if not w.blocks_channel(channel):
                continue
            if w.length == 0.0:
                dropped += 1
                continue
            rows.append([*w.start, *w.end])
            ways.append(0 if w.one_way is None else (1 if w.one_way is Side.RIGHT else -1))
        segs = np.asarray(rows, dtype=np.float64).reshape(-1, 4)
        segs, ways_arr = _node(segs, np.asarray(ways, dtype=np.int8))
        lines = shapely.linestrings(segs.reshape(-1, 2, 2)) if len(segs) else np.empty(0, dtype=object)
        return WallSet(segs, ways_arr, shapely.STRtree(lines), dropped)

    def near(self, bounds: tuple[float, float, float, float]) -> tuple[FloatArray, NDArray[np.int8]]:
        """The segments whose boxes meet ``bounds`` (xmin, ymin, xmax, ymax)."""
        if len(self.segs) == 0:
            return self.segs, self.one_way
        idx = self.tree.query(shapely.box(*bounds))
        idx.sort()
        return self.segs[idx], self.one_way[idx]


def _node(segs: FloatArray, ways: NDArray[np.int8]) -> tuple[FloatArray, NDArray[np.int8]]:
    """Split segments where they cross or touch another's interior."""
    n = len(segs)
    if n < 2:
        return segs, ways
    lines = shapely.linestrings(segs.reshape(-1, 2, 2))
    tree = shapely.STRtree(lines)
    left, right = tree.query(lines, predicate="intersects")
    keep = left < right
    left, right = left[keep], right[keep]
    # Compute each crossing from the pair in one fixed order (by coordinates,
    # not by place in the list), so the split point, and every answer that
    # depends on its last bit, is the same however the walls are listed.
    rank = np.empty(n, dtype=np.intp)
    rank[np.lexsort(segs.T[::-1])] = np.arange(n)
    swap = rank[left] > rank[right]
    left, right = np.where(swap, right, left), np.where(swap, left, right)
    cuts: list[dict[float, tuple[float, float]]] = [{} for _ in range(n)]
    a, b = segs[left], segs[right]
    p, r = a[:, :2], a[:, 2:] - a[:, :2]
    q, s = b[:, :2], b[:, 2:] - b[:, :2]
    denom = r[:, 0] * s[:, 1] - r[:, 1] * s[:, 0]
    qp = q - p
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (qp[:, 0] * s[:, 1] - qp[:, 1] * s[:, 0]) / denom
        u = (qp[:, 0] * r[:, 1] - qp[:, 1] * r[:, 0]) / denom
    for k in np.flatnonzero(denom != 0.0):
        i, j, tk, uk = int(left[k]), int(right[k]), float(t[k]), float(u[k])
        # Cut at the other wall's exact end when it ends here (a T-junction),
        # so joined walls share the point bit for bit and leave no gap.
        if uk <= 1e-12 or uk >= 1 - 1e-12:
            at = tuple(segs[j, :2] if uk < 0.5 else segs[j, 2:])
        elif tk <= 1e-12 or tk >= 1 - 1e-12:
            at = tuple(segs[i, :2] if tk < 0.5 else segs[i, 2:])
        else:
            at = (float(p[k, 0] + tk * r[k, 0]), float(p[k, 1] + tk * r[k, 1]))
        if 1e-12 < tk < 1 - 1e-12:
            cuts[i][tk] = at
        if 1e-12 < uk < 1 - 1e-12:
            cuts[j][uk] = at
    out, out_ways = [], []
    for i in range(n):
        pts = [tuple(segs[i, :2])] + [cuts[i][t] for t in sorted(cuts[i])] + [tuple(segs[i, 2:])]
        for (x0, y0), (x1, y1) in itertools.pairwise(pts):
            if (x0, y0) != (x1, y1):
                out.append([x0, y0, x1, y1])
                out_ways.append(ways[i])
    return np.asarray(out, dtype=np.float64), np.asarray(out_ways, dtype=np.int8)
