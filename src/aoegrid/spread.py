"""Spreads: distance counted along the path an effect travels around walls.

Steps go between neighbouring squares (centre to centre): orthogonal steps
cost one square, diagonal steps follow the diagonal rule (5/10/5 alternates
one and two squares). A step is blocked when its segment meets a wall at all
(touching included), so no diagonal step cuts a wall's corner. The squares
around the point of origin are the first step: each costs what the diagonal
rule gives its far corner from the origin (one square, one diagonal used, for
the four squares around an intersection), so in open field the path
distance of every square is the burst's count to its far corner.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from aoegrid.options import Diagonals
from aoegrid.raster import Window

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

#: Step offsets (dx, dy) and the name of the mask saying where they are blocked.
_ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAG = ((1, 1), (-1, -1), (1, -1), (-1, 1))


def segments_meet(steps: FloatArray, walls: FloatArray) -> BoolArray:
    """For each step segment, whether it meets any wall segment (closed test)."""
    out = np.zeros(len(steps), dtype=bool)
    if len(walls) == 0 or len(steps) == 0:
        return out
    chunk = max(1, 2_000_000 // len(walls))
    for lo in range(0, len(steps), chunk):
        s = steps[lo : lo + chunk, None, :]
        w = walls[None, :, :]
        px, py, qx, qy = s[..., 0], s[..., 1], s[..., 2], s[..., 3]
        ax, ay, bx, by = w[..., 0], w[..., 1], w[..., 2], w[..., 3]
        d1 = (qx - px) * (ay - py) - (qy - py) * (ax - px)
        d2 = (qx - px) * (by - py) - (qy - py) * (bx - px)
        d3 = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
        d4 = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax)
        cross = (d1 * d2 <= 0) & (d3 * d4 <= 0)
        collinear = (d1 == 0) & (d2 == 0)
        overlap = (
            (np.minimum(px, qx) <= np.maximum(ax, bx))
            & (np.minimum(ax, bx) <= np.maximum(px, qx))
            & (np.minimum(py, qy) <= np.maximum(ay, by))
            & (np.minimum(ay, by) <= np.maximum(py, qy))
        )
        hit = np.where(collinear, overlap, cross)
        out[lo : lo + chunk] = hit.any(axis=1)
    return out


def blocked_steps(window: Window, walls: FloatArray) -> dict[tuple[int, int], BoolArray]:
    """Per step direction, a ``(h, w)`` mask: the step out of each square is blocked.

    Steps leaving the window count as blocked.
    """
    h, w = window.shape
    cy, cx = np.mgrid[0:h, 0:w]
    cx = cx + window.x0 + 0.5
    cy = cy + window.y0 + 0.5
    out = {}
    for dx, dy in (*_ORTHO, *_DIAG):
        inside = (cx + dx >= window.x0) & (cx + dx < window.x0 + w) & (cy + dy >= window.y0) & (cy + dy < window.y0 + h)
        steps = np.stack([cx[inside], cy[inside], cx[inside] + dx, cy[inside] + dy], axis=1)
        mask = np.ones((h, w), dtype=bool)
        mask[inside] = segments_meet(steps, walls)
        out[(dx, dy)] = mask
    return out


def _shift(a: FloatArray, dx: int, dy: int, fill: float) -> FloatArray:
    """``out[y, x] = a[y - dy, x - dx]``: values moved one step by (dx, dy)."""
    out = np.full_like(a, fill)
    h, w = a.shape
    ys = slice(max(dy, 0), h + min(dy, 0))
    xs = slice(max(dx, 0), w + min(dx, 0))
    ys_src = slice(max(-dy, 0), h + min(-dy, 0))
    xs_src = slice(max(-dx, 0), w + min(-dx, 0))
    out[ys, xs] = a[ys_src, xs_src]
    return out


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
    alternating = diagonals in (Diagonals.ALTERNATING, Diagonals.ALTERNATING_2)
    if alternating:
        first, second = (1.0, 2.0) if diagonals is Diagonals.ALTERNATING else (2.0, 1.0)
        dist = [np.where(start_parity == 0, start, np.inf), np.where(start_parity == 1, start, np.inf)]
    else:
        diag = {Diagonals.EQUIDISTANT: 1.0, Diagonals.APPROXIMATE: 1.5, Diagonals.EUCLIDEAN: math.sqrt(2.0)}.get(diagonals)
        dist = [start.copy()]
    # Bellman-Ford sweeps: every sweep relaxes all eight steps at once.
    while True:
        new = [d.copy() for d in dist]
        for dx, dy in _ORTHO:
            for p in range(len(dist)):
                cand = _shift(np.where(blocked[(dx, dy)], np.inf, dist[p]), dx, dy, np.inf) + 1.0
                np.minimum(new[p], cand, out=new[p])
        for dx, dy in _DIAG:
            if diagonals is Diagonals.MANHATTAN:
                break
            if alternating:
                for p, q, cost in ((0, 1, first), (1, 0, second)):
                    cand = _shift(np.where(blocked[(dx, dy)], np.inf, dist[p]), dx, dy, np.inf) + cost
                    np.minimum(new[q], cand, out=new[q])
            else:
                cand = _shift(np.where(blocked[(dx, dy)], np.inf, dist[0]), dx, dy, np.inf) + diag
                np.minimum(new[0], cand, out=new[0])
        if all(np.array_equal(a, b) for a, b in zip(new, dist)):
            break
        dist = new
    return np.minimum.reduce(dist)
