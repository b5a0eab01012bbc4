"""Compiled kernels for spreads (numba): shortest paths over a window of squares.

Imported only by the functions that need them, so ``import aoegrid`` does
not pay for numba. Compiled once per machine (``cache=True``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

#: Step offsets, in the order of the bits of a blocked-steps mask:
#: orthogonal steps are bits 0-3, diagonal steps bits 4-7.
STEP_DX = np.array([1, -1, 0, 0, 1, -1, 1, -1], dtype=np.int64)
STEP_DY = np.array([0, 0, 1, -1, 1, -1, -1, 1], dtype=np.int64)


@njit(cache=True, nogil=True)
def _sift_up(keys, nodes, pos, i, k, node):  # type: ignore[no-untyped-def]
    """Put ``node`` with key ``k`` at heap slot ``i`` or above."""
    while i > 0:
        parent = (i - 1) >> 1
        if keys[parent] <= k:
            break
        keys[i] = keys[parent]
        nodes[i] = nodes[parent]
        pos[nodes[i]] = i
        i = parent
    keys[i] = k
    nodes[i] = node
    pos[node] = i


@njit(cache=True, nogil=True)
def _sift_down(keys, nodes, pos, size, k, node):  # type: ignore[no-untyped-def]
    """Put ``node`` with key ``k`` at the root slot or below."""
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and keys[child + 1] < keys[child]:
            child += 1
        if keys[child] >= k:
            break
        keys[i] = keys[child]
        nodes[i] = nodes[child]
        pos[nodes[i]] = i
        i = child
    keys[i] = k
    nodes[i] = node
    pos[node] = i


@njit(cache=True, nogil=True)
def shortest_paths(start, start_layer, blocked, layers, diagonal, limit):  # type: ignore[no-untyped-def]
    """Dijkstra's algorithm over ``layers`` copies of an ``(h, w)`` window of squares.

    Parameters
    ----------
    start : (h, w) float64
        First-step cost of each square, ``inf`` where the path does not start.
    start_layer : (h, w) int8
        The layer each start is in (taken mod ``layers``).
    blocked : (h, w) uint8
        Bit ``k`` set where step ``k`` (:data:`STEP_DX`, :data:`STEP_DY`) out
        of the square is barred. Steps leaving the window are barred too.
    layers : int
        1, or 2 for the alternating rules: a diagonal step moves to the other
        layer (the parity of the diagonals used so far).
    diagonal : (2,) float64
        Cost of a diagonal step out of layer 0 and out of layer 1; negative
        for no diagonal steps. Orthogonal steps cost 1 and keep the layer.
    limit : float
        Squares farther than this are left unreached.

    Returns
    -------
    (h, w) float64
        The least cost over the layers; ``inf`` where unreached. Every path's
        cost is summed step by step from its start, so each square gets the
        least of exactly the floats a relaxation to a fixed point gives.
    """
    h, w = start.shape
    plane = h * w
    n = layers * plane
    dist = np.full(n, np.inf)
    # A binary heap of (key, node) pairs; pos: a node's slot, -1 never
    # queued, -2 settled.
    pos = np.full(n, -1, dtype=np.int32)
    keys = np.empty(n)
    nodes = np.empty(n, dtype=np.int32)
    size = 0
    for y in range(h):
        for x in range(w):
            s = start[y, x]
            if s <= limit:
                node = (start_layer[y, x] % layers) * plane + y * w + x
                if s < dist[node]:
                    dist[node] = s
                    if pos[node] < 0:
                        size += 1
                        _sift_up(keys, nodes, pos, size - 1, s, node)
                    else:
                        _sift_up(keys, nodes, pos, pos[node], s, node)
    steps = 8 if diagonal[0] >= 0.0 else 4
    while size > 0:
        d = keys[0]
        if d > limit:
            break
        node = nodes[0]
        size -= 1
        pos[node] = -2
        if size > 0:
            _sift_down(keys, nodes, pos, size, keys[size], nodes[size])
        layer = node // plane
        cell = node - layer * plane
        y = cell // w
        x = cell - y * w
        bars = blocked[y, x]
        for k in range(steps):
            if (bars >> k) & 1:
                continue
            nx = x + STEP_DX[k]
            ny = y + STEP_DY[k]
            if nx < 0 or ny < 0 or nx >= w or ny >= h:
                continue
            if k < 4:
                to = layer
                nd = d + 1.0
            else:
                to = (layer + 1) % layers
                nd = d + diagonal[layer]
            other = to * plane + ny * w + nx
            if nd < dist[other] and pos[other] != -2:
                dist[other] = nd
                if pos[other] == -1:
                    size += 1
                    _sift_up(keys, nodes, pos, size - 1, nd, other)
                else:
                    _sift_up(keys, nodes, pos, pos[other], nd, other)
    out = np.full((h, w), np.inf)
    for layer in range(layers):
        for y in range(h):
            for x in range(w):
                node = layer * plane + y * w + x
                if pos[node] == -2 and dist[node] < out[y, x]:
                    out[y, x] = dist[node]
    return out


@njit(cache=True, nogil=True)
def _near_segment(px, py, ax, ay, bx, by, eps):  # type: ignore[no-untyped-def]
    """Whether point p lies within ``eps`` of segment ab (the formula of spread's numpy test)."""
    ex = bx - ax
    ey = by - ay
    length2 = ex * ex + ey * ey
    t = 0.0
    if length2 > 0:
        t = min(max(((px - ax) * ex + (py - ay) * ey) / length2, 0.0), 1.0)
    return math.hypot(px - (ax + t * ex), py - (ay + t * ey)) <= eps


@njit(cache=True, nogil=True)
def step_bits(segs, ways, x0, y0, w, h, width, height, eps):  # type: ignore[no-untyped-def]
    """The steps each wall bars out of the squares of a block, as bits.

    Parameters
    ----------
    segs : (n, 4) float64
        Walls ``[x0, y0, x1, y1]`` (clipped near the map).
    ways : (n,) int8
        0 two-way; +1 (-1) bars only steps starting on its right (left).
    x0, y0, w, h : int
        The block: squares ``x0 <= x < x0 + w``, ``y0 <= y < y0 + h``.
    width, height : int
        The grid's size: squares beyond it are left clear.
    eps : float
        A step within this distance of a wall is barred (touching included).

    Returns
    -------
    (h, w) uint8
        Bit ``k`` set where step ``k`` (:data:`STEP_DX`, :data:`STEP_DY`) is barred.
    """
    out = np.zeros((h, w), dtype=np.uint8)
    xe = min(x0 + w, width)
    ye = min(y0 + h, height)
    for i in range(segs.shape[0]):
        ax, ay, bx, by = segs[i, 0], segs[i, 1], segs[i, 2], segs[i, 3]
        # The wall's box, widened past eps (and rounding): a step missing it misses the wall.
        lx, hx = min(ax, bx) - 2 * eps, max(ax, bx) + 2 * eps
        ly, hy = min(ay, by) - 2 * eps, max(ay, by) + 2 * eps
        # A barred step starts within one square of the wall's box.
        sx0 = max(math.floor(min(ax, bx)) - 1, x0)
        sx1 = min(math.floor(max(ax, bx)) + 1, xe - 1)
        sy0 = max(math.floor(min(ay, by)) - 1, y0)
        sy1 = min(math.floor(max(ay, by)) + 1, ye - 1)
        for sy in range(sy0, sy1 + 1):
            for sx in range(sx0, sx1 + 1):
                px = sx + 0.5
                py = sy + 0.5
                if ways[i] != 0:
                    side = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
                    if not ((ways[i] > 0 and side > 0) or (ways[i] < 0 and side < 0)):
                        continue
                for k in range(8):
                    qx = px + STEP_DX[k]
                    qy = py + STEP_DY[k]
                    if min(px, qx) > hx or max(px, qx) < lx or min(py, qy) > hy or max(py, qy) < ly:
                        continue
                    d1 = (qx - px) * (ay - py) - (qy - py) * (ax - px)
                    d2 = (qx - px) * (by - py) - (qy - py) * (bx - px)
                    d3 = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
                    d4 = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax)
                    hit = (d1 * d2 < 0) and (d3 * d4 < 0)
                    hit = hit or _near_segment(px, py, ax, ay, bx, by, eps)
                    hit = hit or _near_segment(qx, qy, ax, ay, bx, by, eps)
                    hit = hit or _near_segment(ax, ay, px, py, qx, qy, eps)
                    hit = hit or _near_segment(bx, by, px, py, qx, qy, eps)
                    if hit:
                        out[sy - y0, sx - x0] |= np.uint8(1 << k)
    return out
