"""Kernels (:mod:`aoegrid.geometry._kernels`) for spreads: shortest paths over a window of squares.

Plain Python for the windows of a room's spread, compiled by numba for large
ones (:func:`aoegrid.geometry._kernels.run`).
"""

from __future__ import annotations

import math

import numpy as np

from aoegrid.geometry._kernels import filled, kernel

#: Step offsets, in the order of the bits of a blocked-steps mask:
#: orthogonal steps are bits 0-3, diagonal steps bits 4-7.
STEP_DX = (1, -1, 0, 0, 1, -1, 1, -1)
STEP_DY = (0, 0, 1, -1, 1, -1, -1, 1)

#: Seconds a square (of each layer) takes in plain-Python :func:`shortest_paths`
#: (measured: 1 to 1.4 us; compiled, 45 to 85 times less): compiled at once from
#: about 15,000 (a 120 x 120 window, or 90 x 90 under alternating diagonals).
PATH_COST = 1.3e-6
#: Seconds a square within one square of a wall's box takes in plain-Python
#: :func:`step_bits` (measured: 2.3 to 2.8 us; compiled, 220 to 250 times less):
#: compiled at once from about 8,000 (some 800 short walls near a block).
STEP_COST = 2.5e-6


@kernel(nogil=True)
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


@kernel(nogil=True)
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


#: Columns of a step-cost table: the terrain kinds (0 open, 1 difficult,
#: 2 greater difficult, 3 impassable). Rows: orthogonal steps, diagonal steps
#: out of layer 0, diagonal steps out of layer 1.
KINDS = 4


@kernel(nogil=True)
def _search(start, start_layer, blocked, kinds, kstride, table, h, w, layers, limit):  # type: ignore[no-untyped-def]
    """Dijkstra's algorithm over ``layers`` copies of an ``(h, w)`` window of squares.

    The arguments are :func:`shortest_paths`'. Returns ``(dist, pos, pred)``
    over the ``layers h w`` nodes (layer by layer, row by row): the least
    cost found, the heap slot (-2 once settled), and the node each was
    reached from (-1 for a start, or never reached).
    """
    plane = h * w
    n = layers * plane
    dist = filled(n, np.inf, np.float64)
    # A binary heap of (key, node) pairs; pos: a node's slot, -1 never
    # queued, -2 settled.
    pos = filled(n, -1, np.int32)
    pred = filled(n, -1, np.int32)
    keys = filled(n, 0.0, np.float64)
    nodes = filled(n, 0, np.int32)
    size = 0
    for cell in range(plane):
        s = start[cell]
        if s <= limit:
            node = (start_layer[cell] % layers) * plane + cell
            if s < dist[node]:
                dist[node] = s
                if pos[node] < 0:
                    size += 1
                    _sift_up(keys, nodes, pos, size - 1, s, node)
                else:
                    _sift_up(keys, nodes, pos, pos[node], s, node)
    steps = 8 if table[KINDS] >= 0.0 else 4
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
        bars = blocked[cell]
        for k in range(steps):
            if (bars >> k) & 1:
                continue
            nx = x + STEP_DX[k]
            ny = y + STEP_DY[k]
            if nx < 0 or ny < 0 or nx >= w or ny >= h:
                continue
            kind = kinds[k * kstride + ny * w + nx]
            if k < 4:
                to = layer
                nd = d + table[kind]
            else:
                to = (layer + 1) % layers
                nd = d + table[(1 + layer) * KINDS + kind]
            other = to * plane + ny * w + nx
            if nd < dist[other] and pos[other] != -2:
                dist[other] = nd
                pred[other] = node
                if pos[other] == -1:
                    size += 1
                    _sift_up(keys, nodes, pos, size - 1, nd, other)
                else:
                    _sift_up(keys, nodes, pos, pos[other], nd, other)
    return dist, pos, pred


@kernel(cost=PATH_COST, nogil=True)
def shortest_paths(start, start_layer, blocked, kinds, kstride, table, h, w, layers, limit):  # type: ignore[no-untyped-def]
    """Dijkstra's algorithm over ``layers`` copies of an ``(h, w)`` window of squares.

    Parameters
    ----------
    start : (h w,) floats
        First-step cost of each square, row by row, ``inf`` where the path
        does not start.
    start_layer : (h w,) ints
        The layer each start is in (taken mod ``layers``).
    blocked : (h w,) ints
        Bit ``k`` set where step ``k`` (:data:`STEP_DX`, :data:`STEP_DY`) out
        of the square is barred. Steps leaving the window are barred too.
    kinds : ints
        The terrain kind (0 to 3) a step into each square enters: step ``k``
        into square ``c`` reads ``kinds[k * kstride + c]``.
    kstride : int
        0 when every step into a square enters the same kind (``kinds`` has
        ``h w`` items), ``h w`` when it depends on the step (8 ``h w`` items).
    table : (3 KINDS,) floats
        A step's cost by the kind it enters: orthogonal steps (which keep
        the layer), then diagonal steps out of layer 0, out of layer 1 (which
        move to the other layer: the parity of the diagonals used so far).
        ``inf`` bars the step; a negative first diagonal cost, every
        diagonal step.
    h, w : int
        The window's size.
    layers : int
        1, or 2 for the alternating rules.
    limit : float
        Squares farther than this are left unreached.

    Returns
    -------
    (h w,) floats
        The least cost over the layers; ``inf`` where unreached. Every path's
        cost is summed step by step from its start, so each square gets the
        least of exactly the floats a relaxation to a fixed point gives.
    """
    plane = h * w
    dist, pos, _ = _search(start, start_layer, blocked, kinds, kstride, table, h, w, layers, limit)
    out = filled(plane, np.inf, np.float64)
    for node in range(layers * plane):
        cell = node % plane
        if pos[node] == -2 and dist[node] < out[cell]:
            out[cell] = dist[node]
    return out


@kernel(cost=PATH_COST, nogil=True)
def cheapest_paths(start, start_layer, blocked, kinds, kstride, table, h, w, layers, limit):  # type: ignore[no-untyped-def]
    """:func:`shortest_paths` with every layer's cost and the way back.

    Returns
    -------
    dist : (layers h w,) floats
        Each node's cost, layer by layer, ``inf`` where unreached.
    pred : (layers h w,) int32
        The node each node's cheapest path came from, -1 at a start (or
        where unreached): following it leads back to a start.
    """
    dist, pos, pred = _search(start, start_layer, blocked, kinds, kstride, table, h, w, layers, limit)
    out = filled(layers * h * w, np.inf, np.float64)
    for node in range(layers * h * w):
        if pos[node] == -2:
            out[node] = dist[node]
    return out, pred


@kernel(inline="always")
def _near_segment(px, py, ax, ay, bx, by, eps):  # type: ignore[no-untyped-def]
    """Whether point p lies within ``eps`` of segment ab."""
    ex = bx - ax
    ey = by - ay
    length2 = ex * ex + ey * ey
    t = 0.0
    if length2 > 0:
        t = min(max(((px - ax) * ex + (py - ay) * ey) / length2, 0.0), 1.0)
    dx = px - (ax + t * ex)
    dy = py - (ay + t * ey)
    return dx * dx + dy * dy <= eps * eps


@kernel(cost=STEP_COST, nogil=True)
def step_bits(segs, ways, x0, y0, w, h, width, height, eps, cut=0):  # type: ignore[no-untyped-def]
    """The steps each wall bars out of the squares of a block, as bits.

    Parameters
    ----------
    segs : (4 n,) floats
        Walls ``[x0, y0, x1, y1]`` (clipped near the map), one after another.
    ways : (n,) ints
        0 two-way; +1 (-1) bars only steps starting on its right (left).
    x0, y0, w, h : int
        The block: squares ``x0 <= x < x0 + w``, ``y0 <= y < y0 + h``.
    width, height : int
        The grid's size: squares beyond it are left clear.
    eps : float
        A step within this distance of a wall is barred (touching included).
    cut : int
        0 (default): every step a wall touches is barred, its very end included, so no
        diagonal passes a wall's corner. 1: a wall whose end alone touches
        the step, away from the step's ends, does not bar it by itself; such
        ends on both sides of the step (walls meeting where the step passes)
        do, as does a wall crossing the step, touching its ends, or lying
        along it.

    Returns
    -------
    (h w,) uint8
        Row by row, bit ``k`` set where step ``k`` (:data:`STEP_DX`,
        :data:`STEP_DY`) is barred.
    """
    out = filled(h * w, 0, np.uint8)
    # Under cut: the steps a wall's end touches with the wall on its left, on its right.
    left = filled(h * w if cut else 0, 0, np.uint8)
    right = filled(h * w if cut else 0, 0, np.uint8)
    xe = min(x0 + w, width)
    ye = min(y0 + h, height)
    for i in range(len(ways)):
        ax, ay, bx, by = segs[4 * i], segs[4 * i + 1], segs[4 * i + 2], segs[4 * i + 3]
        ex, ey = bx - ax, by - ay
        # A step whose ends lie on one side of the wall's line, both farther
        # than 2 eps (with room for rounding), passes the whole wall farther than eps.
        clear = 2.0 * eps * math.sqrt(ex * ex + ey * ey)
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
                d3 = ex * (py - ay) - ey * (px - ax)
                if ways[i] != 0 and not ((ways[i] > 0 and d3 > 0) or (ways[i] < 0 and d3 < 0)):
                    continue
                at = (sy - y0) * w + sx - x0
                for k in range(8):
                    qx = px + STEP_DX[k]
                    qy = py + STEP_DY[k]
                    if min(px, qx) > hx or max(px, qx) < lx or min(py, qy) > hy or max(py, qy) < ly:
                        continue
                    d4 = ex * (qy - ay) - ey * (qx - ax)
                    if (d3 > clear and d4 > clear) or (d3 < -clear and d4 < -clear):
                        continue
                    d1 = (qx - px) * (ay - py) - (qy - py) * (ax - px)
                    d2 = (qx - px) * (by - py) - (qy - py) * (bx - px)
                    if not cut:
                        hit = (d1 * d2 < 0) and (d3 * d4 < 0)
                        hit = hit or _near_segment(px, py, ax, ay, bx, by, eps)
                        hit = hit or _near_segment(qx, qy, ax, ay, bx, by, eps)
                        hit = hit or _near_segment(ax, ay, px, py, qx, qy, eps)
                        hit = hit or _near_segment(bx, by, px, py, qx, qy, eps)
                        if hit:
                            out[at] |= 1 << k
                        continue
                    if _near_segment(px, py, ax, ay, bx, by, eps) or _near_segment(qx, qy, ax, ay, bx, by, eps):
                        out[at] |= 1 << k
                        continue
                    touch_a = _near_segment(ax, ay, px, py, qx, qy, eps)
                    touch_b = _near_segment(bx, by, px, py, qx, qy, eps)
                    if touch_a and touch_b:  # along the step
                        out[at] |= 1 << k
                    elif touch_a or touch_b:
                        # The side of the step the wall's other end lies on.
                        other = d2 if touch_a else d1
                        length = 1.0 if k < 4 else 1.4142135623730951
                        if abs(other) <= 2.0 * eps * length:  # on the step's line: along it
                            out[at] |= 1 << k
                        elif other > 0:
                            left[at] |= 1 << k
                        else:
                            right[at] |= 1 << k
                    elif (d1 * d2 < 0) and (d3 * d4 < 0):
                        out[at] |= 1 << k
    if cut:
        for i in range(h * w):
            out[i] |= left[i] & right[i]
    return out
