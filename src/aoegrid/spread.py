"""Spreads: distance counted along the path an effect travels around walls.

Steps go between neighbouring squares (centre to centre): orthogonal steps
cost one square, diagonal steps follow the diagonal rule (5/10/5 alternates
one and two squares). A step is blocked when its segment meets a wall at all
(touching included), so no diagonal step cuts a wall's corner. The squares
around the point of origin are the first step: each costs what the diagonal
rule gives its far corner from the origin (one square, one diagonal used, for
the four squares around an intersection). :func:`aoegrid.area.area` compares
this count with the same count on an open map: the difference is the detour
the walls force, zero in open field, where a spread is exactly the burst.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import shapely
from numpy.typing import NDArray

from aoegrid.options import Diagonals
from aoegrid.raster import Window
from aoegrid.regions import EPS
from aoegrid.walls import clip

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

#: Step offsets (dx, dy) and the name of the mask saying where they are blocked.
_ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAG = ((1, 1), (-1, -1), (1, -1), (-1, 1))


_STEPS = (*_ORTHO, *_DIAG)


class StepMasks:
    """Which steps out of each square of a grid a wall blocks, built as windows ask.

    The grid is cut into tiles of :attr:`TILE` squares a side, each built on
    first use and kept: the first spread on a huge map costs what its window
    costs. In a tile, only the squares within one square of a wall's path are
    tested (a step runs between square centres, so a wall meeting it passes
    through one of the up to four squares it spans), each against the eight
    steps out of it. A one-way wall blocks only steps that start on its
    blocking side.

    Parameters
    ----------
    width, height : int
        The grid's size in squares.
    segs : (n, 4) float array
        Wall segments ``[x0, y0, x1, y1]``.
    one_way : (n,) int8 array
        0 for two-way walls, +1 for walls blocking only steps from their
        right, -1 from their left.
    """

    TILE = 64

    def __init__(
        self,
        width: int,
        height: int,
        segs: FloatArray,
        one_way: NDArray[np.int8],
    ) -> None:
        self.width, self.height = width, height
        self.segs = np.asarray(segs, dtype=np.float64).reshape(-1, 4)
        self.one_way = np.asarray(one_way, dtype=np.int8)
        self._tree: shapely.STRtree | None = None
        self._tiles: dict[tuple[int, int], dict[tuple[int, int], BoolArray]] = {}

    def window(self, window: Window) -> dict[tuple[int, int], BoolArray]:
        """The masks cut to ``window``; steps leaving the window are blocked too."""
        h, w = window.shape
        out = {d: np.zeros((h, w), dtype=bool) for d in _STEPS}
        t = self.TILE
        for ty in range(max(window.y0, 0) // t, (min(window.y0 + h, self.height) - 1) // t + 1):
            for tx in range(max(window.x0, 0) // t, (min(window.x0 + w, self.width) - 1) // t + 1):
                tile = self._tile(tx, ty)
                # The overlap of the tile and the window, in grid squares.
                x0, x1 = max(tx * t, window.x0), min((tx + 1) * t, window.x0 + w, self.width)
                y0, y1 = max(ty * t, window.y0), min((ty + 1) * t, window.y0 + h, self.height)
                for d, mask in tile.items():
                    out[d][y0 - window.y0 : y1 - window.y0, x0 - window.x0 : x1 - window.x0] = mask[
                        y0 - ty * t : y1 - ty * t, x0 - tx * t : x1 - tx * t
                    ]
        for (dx, dy), m in out.items():
            if dx > 0:
                m[:, -1] = True
            elif dx < 0:
                m[:, 0] = True
            if dy > 0:
                m[-1, :] = True
            elif dy < 0:
                m[0, :] = True
        return out

    def _tile(self, tx: int, ty: int) -> dict[tuple[int, int], BoolArray]:
        """The blocked steps out of the squares of tile (tx, ty), built once."""
        if (tx, ty) in self._tiles:
            return self._tiles[(tx, ty)]
        t = self.TILE
        x0, y0 = tx * t, ty * t
        blocked = {d: np.zeros((t, t), dtype=bool) for d in _STEPS}
        self._tiles[(tx, ty)] = blocked
        # A step out of a square of the tile spans squares at most one beyond it.
        reach = (x0 - 1.0, y0 - 1.0, x0 + t + 1.0, y0 + t + 1.0)
        near = self._near(reach)
        if near.size == 0:
            return blocked
        wall, sx, sy = _squares_near(self.segs[near], reach)
        inside = (sx >= x0) & (sx < min(x0 + t, self.width)) & (sy >= y0) & (sy < min(y0 + t, self.height))
        wall, sx, sy = near[wall[inside]], sx[inside], sy[inside]
        w = self.segs[wall]
        way = self.one_way[wall]
        px, py = sx + 0.5, sy + 0.5
        start_side = (w[:, 2] - w[:, 0]) * (py - w[:, 1]) - (w[:, 3] - w[:, 1]) * (px - w[:, 0])
        applies = (way == 0) | ((way > 0) & (start_side > 0)) | ((way < 0) & (start_side < 0))
        for dx, dy in _STEPS:
            steps = np.stack([px, py, px + dx, py + dy], axis=1)
            hit = _meet_pairwise(steps, w) & applies
            blocked[(dx, dy)][sy[hit] - y0, sx[hit] - x0] = True
        return blocked

    def _near(self, bounds: tuple[float, float, float, float]) -> NDArray[np.intp]:
        """Indices of the walls whose boxes meet ``bounds``."""
        if len(self.segs) == 0:
            return np.empty(0, dtype=np.intp)
        if self._tree is None:
            self._tree = shapely.STRtree(shapely.linestrings(self.segs.reshape(-1, 2, 2)))
        return np.asarray(self._tree.query(shapely.box(*bounds)), dtype=np.intp)


#: How far (squares) a computed point on a wall may be from the true one.
_SLACK = 1e-9


def _squares_near(
    segs: FloatArray, rect: tuple[float, float, float, float]
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]:
    """Pairs (wall, square) with the square within one square of the wall's part in ``rect``.

    The wall's path is walked through its crossings of grid lines: between
    two crossings it stays in one square, whose closed outline holds both, so
    the squares meeting a point (one to four of them, to :data:`_SLACK`) of
    every crossing and end cover the path. Those and their eight neighbours
    are returned, each pair once: ``(wall, x, y)`` arrays.
    """
    pieces, which, _ = clip(segs, rect)
    ax, ay, bx, by = pieces.T
    points = [np.stack([ax, ay, which], axis=1), np.stack([bx, by, which], axis=1)]
    for a, b, c, d, along_x in ((ax, bx, ay, by, True), (ay, by, ax, bx, False)):
        # Crossings of the lines x = k (then y = k) between the piece's ends.
        lo, hi = np.ceil(np.minimum(a, b)), np.floor(np.maximum(a, b))
        count = np.where(a != b, np.maximum(hi - lo + 1, 0), 0).astype(np.intp)
        row = np.arange(len(pieces)).repeat(count)
        k = lo[row] + (np.arange(row.size) - (np.cumsum(count) - count)[row])
        other = c[row] + (k - a[row]) / (b[row] - a[row]) * (d[row] - c[row])
        xy = (k, other) if along_x else (other, k)
        points.append(np.stack([*xy, which[row]], axis=1))
    pts = np.vstack(points)
    cells = []
    for ex, ey in itertools.product((-_SLACK, _SLACK), repeat=2):
        cx, cy = np.floor(pts[:, 0] + ex), np.floor(pts[:, 1] + ey)
        for nx, ny in itertools.product((-1, 0, 1), repeat=2):
            cells.append(np.stack([pts[:, 2], cx + nx, cy + ny], axis=1))
    found = np.unique(np.vstack(cells).astype(np.intp), axis=0)
    return found[:, 0], found[:, 1], found[:, 2]


def _meet_pairwise(steps: FloatArray, walls: FloatArray) -> BoolArray:
    """Whether step ``i`` comes within :data:`EPS` of wall ``i``, for each ``i``.

    A closed test with a margin: a step that touches a wall blocks, and so does
    one that misses it by rounding alone (a square's centre on a diagonal door,
    a split point moved by an ulp), so no answer turns on the last bit.
    """
    px, py, qx, qy = steps.T
    ax, ay, bx, by = walls.T
    d1 = (qx - px) * (ay - py) - (qy - py) * (ax - px)
    d2 = (qx - px) * (by - py) - (qy - py) * (bx - px)
    d3 = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
    d4 = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax)
    cross = (d1 * d2 < 0) & (d3 * d4 < 0)
    near = _point_segment_distance(px, py, ax, ay, bx, by) <= EPS
    near |= _point_segment_distance(qx, qy, ax, ay, bx, by) <= EPS
    near |= _point_segment_distance(ax, ay, px, py, qx, qy) <= EPS
    near |= _point_segment_distance(bx, by, px, py, qx, qy) <= EPS
    return np.asarray(cross | near)


def _point_segment_distance(
    px: FloatArray, py: FloatArray, ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray
) -> FloatArray:
    ex, ey = bx - ax, by - ay
    length2 = ex * ex + ey * ey
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.clip(((px - ax) * ex + (py - ay) * ey) / length2, 0.0, 1.0)
    t = np.where(length2 > 0, t, 0.0)
    return np.asarray(np.hypot(px - (ax + t * ex), py - (ay + t * ey)))


def path_distance(
    window: Window,
    start: FloatArray,
    start_parity: NDArray[np.int8],
    blocked: dict[tuple[int, int], BoolArray],
    diagonals: Diagonals,
) -> FloatArray:
    """Shortest path length, in squares, to every square of ``window``.

    ``start`` holds each square's first-step cost (``inf`` where the effect
    does not start); ``start_parity`` how many diagonals that step used, mod
    2, for the alternating rules. Unreached squares are ``inf``.
    """
    h, w = window.shape
    alternating = diagonals in (Diagonals.ALTERNATING, Diagonals.ALTERNATING_2)
    if alternating:
        first, second = (1.0, 2.0) if diagonals is Diagonals.ALTERNATING else (2.0, 1.0)
        starts = [np.where(start_parity == 0, start, np.inf), np.where(start_parity == 1, start, np.inf)]
        # (from layer, to layer, cost) for a diagonal step
        diag_moves = [(0, 1, first), (1, 0, second)]
    else:
        starts = [start]
        cost = {Diagonals.EQUIDISTANT: 1.0, Diagonals.APPROXIMATE: 1.5, Diagonals.EUCLIDEAN: math.sqrt(2.0)}
        diag_moves = [] if diagonals is Diagonals.MANHATTAN else [(0, 0, cost[diagonals])]
    # Each layer is padded with a ring of inf, so a step is a slice. The cost
    # of arriving at (x, y) by step (dx, dy) is inf where that step is blocked.
    layers = []
    for s0 in starts:
        pad = np.full((h + 2, w + 2), np.inf)
        pad[1:-1, 1:-1] = s0
        layers.append(pad)

    def arrive(d: tuple[int, int]) -> FloatArray:
        dx, dy = d
        src = np.ones((h + 2, w + 2), dtype=bool)
        src[1:-1, 1:-1] = blocked[d]
        return np.where(src[1 - dy : h + 1 - dy, 1 - dx : w + 1 - dx], np.inf, 0.0)

    penalty = {d: arrive(d) for d in _STEPS}
    moves = [(d, p, p, 1.0) for d in _ORTHO for p in range(len(layers))]
    moves += [(d, p, q, c) for d in _DIAG for p, q, c in diag_moves]
    steps = [(layers[p], layers[q][1:-1, 1:-1], penalty[(dx, dy)] + c, 1 - dy, 1 - dx) for (dx, dy), p, q, c in moves]
    # Bellman-Ford sweeps, updating in place so news travel within a sweep.
    while True:
        before = [layer.copy() for layer in layers]
        for src, dst, pen, y0, x0 in steps:
            np.minimum(dst, src[y0 : y0 + h, x0 : x0 + w] + pen, out=dst)
        if all(np.array_equal(a, b) for a, b in zip(before, layers)):
            return np.asarray(np.minimum.reduce([layer[1:-1, 1:-1] for layer in layers]))
