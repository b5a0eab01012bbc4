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

import math

import numpy as np
from numpy.typing import NDArray

from aoegrid.options import Diagonals
from aoegrid.raster import Window
from aoegrid.regions import EPS

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

#: Step offsets (dx, dy) and the name of the mask saying where they are blocked.
_ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAG = ((1, 1), (-1, -1), (1, -1), (-1, 1))


_STEPS = (*_ORTHO, *_DIAG)


class StepMasks:
    """Which steps out of each square of a grid a wall blocks, built once per map.

    For every pair of a wall and a square near it, the eight steps out of the
    square are tested against the wall, so the cost follows the walls' length,
    not the map's size. A one-way wall blocks only steps that start on its
    blocking side.
    """

    def __init__(self, width: int, height: int, segs: FloatArray, one_way: NDArray[np.int8]) -> None:
        self.width, self.height = width, height
        self.blocked = {d: np.zeros((height, width), dtype=bool) for d in _STEPS}
        if len(segs) == 0:
            return
        x0 = np.clip(np.floor(np.minimum(segs[:, 0], segs[:, 2])) - 1, 0, width - 1).astype(np.intp)
        x1 = np.clip(np.floor(np.maximum(segs[:, 0], segs[:, 2])) + 1, 0, width - 1).astype(np.intp)
        y0 = np.clip(np.floor(np.minimum(segs[:, 1], segs[:, 3])) - 1, 0, height - 1).astype(np.intp)
        y1 = np.clip(np.floor(np.maximum(segs[:, 1], segs[:, 3])) + 1, 0, height - 1).astype(np.intp)
        nx, ny = x1 - x0 + 1, y1 - y0 + 1
        off_grid = (np.maximum(segs[:, 0], segs[:, 2]) < -1) | (np.minimum(segs[:, 0], segs[:, 2]) > width + 1)
        off_grid |= (np.maximum(segs[:, 1], segs[:, 3]) < -1) | (np.minimum(segs[:, 1], segs[:, 3]) > height + 1)
        count = np.where(off_grid, 0, nx * ny)
        wall = np.arange(len(segs)).repeat(count)
        k = np.arange(wall.size) - (np.cumsum(count) - count)[wall]
        sx = x0[wall] + k % nx[wall]
        sy = y0[wall] + k // nx[wall]
        w = segs[wall]
        way = one_way[wall]
        px, py = sx + 0.5, sy + 0.5
        start_side = (w[:, 2] - w[:, 0]) * (py - w[:, 1]) - (w[:, 3] - w[:, 1]) * (px - w[:, 0])
        applies = (way == 0) | ((way > 0) & (start_side > 0)) | ((way < 0) & (start_side < 0))
        for dx, dy in _STEPS:
            steps = np.stack([px, py, px + dx, py + dy], axis=1)
            hit = _meet_pairwise(steps, w) & applies
            self.blocked[(dx, dy)][sy[hit], sx[hit]] = True

    def window(self, window: Window) -> dict[tuple[int, int], BoolArray]:
        """The masks cut to ``window``; steps leaving the window are blocked too."""
        h, w = window.shape
        ys = slice(window.y0, window.y0 + h)
        xs = slice(window.x0, window.x0 + w)
        out = {}
        for (dx, dy), mask in self.blocked.items():
            m = mask[ys, xs].copy()
            if dx > 0:
                m[:, -1] = True
            elif dx < 0:
                m[:, 0] = True
            if dy > 0:
                m[-1, :] = True
            elif dy < 0:
                m[0, :] = True
            out[(dx, dy)] = m
        return out


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
