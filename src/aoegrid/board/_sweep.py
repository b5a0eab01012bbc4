"""The angular sweep of :mod:`aoegrid.board.visibility`: a kernel (:mod:`aoegrid.geometry._kernels`).

Plain Python, run as it is for a few hundred walls and compiled by numba for
more (:func:`aoegrid.geometry._kernels.run`).
"""

from __future__ import annotations

import math

import numpy as np

from aoegrid.geometry._kernels import filled, kernel

#: Points closer than this to a wall's line, relative to the coordinates'
#: size, are on it: ends that two split walls share can differ in the last
#: bits, and the sign of a rounding error says nothing.
_ON_LINE = 1e-13
#: Seconds a wall takes in a plain-Python :func:`sweep` (measured: 4 to 5.5 us from
#: 20 to 3,000 walls; compiled, 25 to 35 times less): compiled at once from about
#: 4,000 walls (:func:`aoegrid.geometry._kernels.run`), more than a frame holds (about
#: ``walls._DENSE``), so sweeps run compiled once numba runs or has paid for itself.
SWEEP_COST = 5e-6


@kernel(inline="always")
def _side(a, b, ends, ox, oy):  # type: ignore[no-untyped-def]
    """Where wall ``b`` lies against the line of wall ``a``, seen from the origin.

    1: on the origin's side (ends on the line allowed), -1: on the far side,
    0: on the line, 2: across it.
    """
    px, py, qx, qy = ends[4 * a], ends[4 * a + 1], ends[4 * a + 2], ends[4 * a + 3]
    ex, ey = qx - px, qy - py
    near = 1 if ex * (oy - py) - ey * (ox - px) > 0.0 else -1
    size = (abs(ex) + abs(ey)) * _ON_LINE
    s1 = _end_side(px, py, ex, ey, ends[4 * b], ends[4 * b + 1], size, near)
    s2 = _end_side(px, py, ex, ey, ends[4 * b + 2], ends[4 * b + 3], size, near)
    if s1 >= 0 and s2 >= 0:
        return 0 if s1 == 0 and s2 == 0 else 1
    if s1 <= 0 and s2 <= 0:
        return -1
    return 2


@kernel(inline="always")
def _end_side(px, py, ex, ey, bx, by, size, near):  # type: ignore[no-untyped-def]
    """Which side of the line through ``(px, py)`` along ``(ex, ey)`` point ``(bx, by)`` is on: ``near``, ``-near`` or 0."""
    c = ex * (by - py) - ey * (bx - px)
    if abs(c) <= size * (1.0 + abs(px) + abs(py) + abs(bx) + abs(by)):
        return 0
    return near if c > 0.0 else -near


@kernel(inline="always")
def _nearer(a, b, ends, ox, oy, ux, uy):  # type: ignore[no-untyped-def]
    """Whether wall ``a`` comes before wall ``b`` along the rays both span.

    Decided from the walls' ends where they settle it: walls that meet at an
    end are then ordered by their other ends, where distances along a ray
    near the shared end tie to rounding and could put them in either order
    from one interval to the next. Otherwise (walls that cross, against the
    sweep's terms) along the ray ``(ux, uy)``. Walls on one line go to the
    higher index, as a z-buffer filled in index order would leave them.
    """
    side = _side(a, b, ends, ox, oy)
    if side == 2:
        # b runs across a's line, so a lies wholly on one side of b's (the
        # walls do not cross).
        side = -_side(b, a, ends, ox, oy)
    if side == -2:
        ta = _along(a, ends, ox, oy, ux, uy)
        tb = _along(b, ends, ox, oy, ux, uy)
        side = 0 if ta == tb else (-1 if ta < tb else 1)
    if side == 0:
        return a > b
    return side < 0


@kernel(inline="always")
def _along(a, ends, ox, oy, ux, uy):  # type: ignore[no-untyped-def]
    """How far along the ray ``(ux, uy)`` from the origin it meets the line of wall ``a``."""
    px, py = ends[4 * a], ends[4 * a + 1]
    ex, ey = ends[4 * a + 2] - px, ends[4 * a + 3] - py
    return ((px - ox) * ey - (py - oy) * ex) / (ux * ey - uy * ex)


@kernel()
def _sift_up(heap, pos, i, ends, ox, oy, ux, uy):  # type: ignore[no-untyped-def]
    s = heap[i]
    while i > 0:
        parent = (i - 1) >> 1
        if not _nearer(s, heap[parent], ends, ox, oy, ux, uy):
            break
        heap[i] = heap[parent]
        pos[heap[i]] = i
        i = parent
    heap[i] = s
    pos[s] = i


@kernel()
def _sift_down(heap, pos, size, i, ends, ox, oy, ux, uy):  # type: ignore[no-untyped-def]
    s = heap[i]
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and _nearer(heap[c + 1], heap[c], ends, ox, oy, ux, uy):
            c += 1
        if not _nearer(heap[c], s, ends, ox, oy, ux, uy):
            break
        heap[i] = heap[c]
        pos[heap[i]] = i
        i = c
    heap[i] = s
    pos[s] = i


@kernel(cost=SWEEP_COST)
def sweep(both, order, spans, ends, ox, oy, tol):  # type: ignore[no-untyped-def]
    """Angular sweep: the nearest wall between consecutive wall-end angles.

    Parameters
    ----------
    both : (2n,) floats
        The walls' end angles (radians, in ``[-pi, pi]``) from the origin:
        first every wall's start, then every wall's end, the angle turning
        positively from start to end.
    order : (2n,) ints
        ``np.argsort(both)`` (numpy's sort is faster than numba's or Python's).
    spans : (n,) bools
        False for walls too short to turn the angle at all: they cover no
        interval (rounded end angles in the wrong order would otherwise wrap
        them round the turn).
    ends : (4n,) floats
        The walls ``[x0, y0, x1, y1]``, one after another.
    ox, oy : float
        The origin.
    tol : float
        Angles (radians) this close are one direction to a point test: a
        boundary between intervals within ``tol`` of another is kept.

    Returns
    -------
    angles : (m,) floats
        The sorted distinct end angles at which the nearest wall changes;
        interval ``k`` runs from ``angles[k]`` to the next (the last wraps).
    win : (m,) ints
        The nearest wall of each interval: the same wall for the intervals
        merged into one, so the answer at any angle is what it would be with
        every end angle a boundary.

    Notes
    -----
    The walls must not cross or overlap (they may touch) and must close the
    full turn (a frame around the origin does). Then the walls a ray meets
    are in one order along every ray they all span (:func:`_nearer`), so an
    indexed binary heap in that order stays valid as the sweep turns: each
    wall enters and leaves once (twice if it spans the angle pi), and the
    cost is ``O(n log n)``.
    """
    n = len(both) // 2
    uniq = filled(2 * n, 0.0, np.float64)
    rank = filled(2 * n, 0, np.int64)
    m = 0
    for j in range(2 * n):
        v = both[order[j]]
        if m == 0 or v != uniq[m - 1]:
            uniq[m] = v
            m += 1
        rank[order[j]] = m - 1
    # Each wall covers intervals rank[s] .. rank[s] + cover - 1 (cyclically),
    # enters at rank[s] and leaves at ``leave`` (-1: never, within a turn);
    # one covering interval 0 from the end of the turn is in from the start.
    cover = filled(n, 0, np.int64)
    leave = filled(n, -1, np.int64)
    initial = filled(n, False, np.bool_)
    # The walls entering (leaving) at each interval, as runs of one list:
    # counted at the interval after, then summed into where each run starts.
    enter_at = filled(m + 1, 0, np.int64)
    leave_at = filled(m + 1, 0, np.int64)
    for s in range(n):
        if not spans[s]:
            continue
        first = rank[s]
        c = rank[n + s] - first
        cover[s] = c + m if c < 0 else c
        if cover[s] == 0:
            continue
        end = first + cover[s]
        if end < m:
            leave[s] = end
        elif end > m:
            leave[s] = end - m
        initial[s] = first == 0 or end > m
        if first > 0:
            enter_at[first + 1] += 1
        if leave[s] > 0:
            leave_at[leave[s] + 1] += 1
    # Where the next wall entering (leaving) at each interval goes.
    fill_e = filled(m, 0, np.int64)
    fill_l = filled(m, 0, np.int64)
    for k in range(m):
        enter_at[k + 1] += enter_at[k]
        leave_at[k + 1] += leave_at[k]
        fill_e[k] = enter_at[k]
        fill_l[k] = leave_at[k]
    enters = filled(enter_at[m], 0, np.int64)
    leaves = filled(leave_at[m], 0, np.int64)
    for s in range(n):
        if cover[s] == 0:
            continue
        if rank[s] > 0:
            enters[fill_e[rank[s]]] = s
            fill_e[rank[s]] += 1
        if leave[s] > 0:
            leaves[fill_l[leave[s]]] = s
            fill_l[leave[s]] += 1

    heap = filled(n, 0, np.int64)
    pos = filled(n, -1, np.int64)
    size = 0
    win = filled(m, 0, np.int64)
    for k in range(m):
        stop = uniq[k + 1] if k + 1 < m else uniq[0] + 2.0 * math.pi
        mid = (uniq[k] + stop) / 2
        ux, uy = math.cos(mid), math.sin(mid)
        # Walls leave before others enter: the heap only ever holds walls
        # that span this interval's middle ray together.
        for j in range(leave_at[k], leave_at[k + 1]):
            s = leaves[j]
            i = pos[s]
            pos[s] = -1
            size -= 1
            if i < size:
                moved = heap[size]
                heap[i] = moved
                pos[moved] = i
                _sift_up(heap, pos, i, ends, ox, oy, ux, uy)
                if pos[moved] == i:
                    _sift_down(heap, pos, size, i, ends, ox, oy, ux, uy)
        if k == 0:
            for s in range(n):
                if initial[s]:
                    heap[size] = s
                    size += 1
                    _sift_up(heap, pos, size - 1, ends, ox, oy, ux, uy)
        for j in range(enter_at[k], enter_at[k + 1]):
            heap[size] = enters[j]
            size += 1
            _sift_up(heap, pos, size - 1, ends, ox, oy, ux, uy)
        win[k] = heap[0]
    # Neighbouring intervals with the same nearest wall are one, unless an
    # end angle within ``tol`` of their boundary (two ends on one ray, to
    # rounding) makes the boundary matter to a point on that ray.
    keep = filled(m, True, np.bool_)
    kept = m
    for k in range(1, m):
        stop = uniq[k + 1] if k + 1 < m else uniq[0] + 2.0 * math.pi
        near = uniq[k] - uniq[k - 1] <= tol or stop - uniq[k] <= tol
        keep[k] = win[k] != win[k - 1] or near
        kept -= 0 if keep[k] else 1
    angles = filled(kept, 0.0, np.float64)
    wins = filled(kept, 0, np.int64)
    i = 0
    for k in range(m):
        if keep[k]:
            angles[i] = uniq[k]
            wins[i] = win[k]
            i += 1
    return angles, wins
