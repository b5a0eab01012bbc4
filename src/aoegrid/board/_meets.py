"""Kernels (:mod:`aoegrid.geometry._kernels`) for preparing walls: which segments' boxes, and lines, meet.

Plain Python for the few hundred segments of a room or a cave, compiled by
numba for crowded maps (:func:`aoegrid.geometry._kernels.run`): pairing the segments
of a crowded map reads millions of candidate pairs, and a compiled loop reads
each in a few nanoseconds, with no array per step.
"""

from __future__ import annotations

import numpy as np

from aoegrid.geometry._kernels import bisect_left, bisect_right, filled, kernel

#: Shewchuk's bound on the rounding of a float orientation test, relative to its terms.
_ORIENT_ERROR = (3.0 + 16.0 * 2.0**-53) * 2.0**-53
#: Below this, an orientation test's terms may have lost bits to underflow.
_TINY = 1e-290

#: How two segments lie, as :func:`_relation` says: certainly apart, certainly
#: crossing (each strictly across the other's line), or too close to tell in floats.
APART, CROSSING, UNSURE = 0, 1, 2

#: Seconds a pair takes in plain-Python :func:`relations` (measured: 0.8 us;
#: compiled, 20 to 200 times less): compiled at once from about 25,000 pairs.
RELATION_COST = 8e-7
#: Seconds a box takes to read a lattice, or a candidate segment, in plain-Python
#: :func:`read` (measured: 0.85 to 1.4 us; compiled, 60 to 85 times less): compiled
#: at once from about 18,000 (preparing a thousand segments or more at a time; a
#: cave's few hundred come to 8,000).
READ_COST = 1.1e-6


@kernel(inline="always")
def _side(px, py, qx, qy, rx, ry):  # type: ignore[no-untyped-def]
    """Which side of the line from p to q point r lies on: +1 or -1, exactly; 0 when rounding could flip it.

    Shewchuk's float orientation test and its error bound: beyond the bound
    the sign is exact. Coordinates so small or large that the terms
    underflow or overflow give 0.
    """
    left = (px - rx) * (qy - ry)
    right = (py - ry) * (qx - rx)
    det = left - right
    err = _ORIENT_ERROR * (abs(left) + abs(right)) + _TINY
    if det > err:
        return 1
    if det < -err:
        return -1
    return 0


@kernel(inline="always")
def _relation(a, i, b, j):  # type: ignore[no-untyped-def]
    """:data:`APART`, :data:`CROSSING` or :data:`UNSURE`: how segments ``a[i:i + 4]`` and ``b[j:j + 4]`` lie."""
    ax, ay, bx, by = a[i], a[i + 1], a[i + 2], a[i + 3]
    cx, cy, dx, dy = b[j], b[j + 1], b[j + 2], b[j + 3]
    s1 = _side(ax, ay, bx, by, cx, cy)
    s2 = _side(ax, ay, bx, by, dx, dy)
    s3 = _side(cx, cy, dx, dy, ax, ay)
    s4 = _side(cx, cy, dx, dy, bx, by)
    if s1 == 0 or s2 == 0 or s3 == 0 or s4 == 0:
        return UNSURE
    if s1 != s2 and s3 != s4:
        return CROSSING
    return APART


@kernel(cost=RELATION_COST, nogil=True)
def relations(a, b):  # type: ignore[no-untyped-def]
    """:func:`_relation` of each pair of segments of ``a`` and ``b`` (``4 m`` floats each), as int8."""
    m = len(a) // 4
    out = filled(m, 0, np.int8)
    for k in range(m):
        out[k] = _relation(a, 4 * k, b, 4 * k)
    return out


#: What :func:`read` does: count the filed segments each box reads, list the
#: pairs whose boxes meet, or count the pairs certainly crossing.
CANDIDATES, PAIRS, CROSSINGS = 0, 1, 2


@kernel(inline="always")
def _cell(v, origin, cell, shift, count):  # type: ignore[no-untyped-def]
    """The cell of coordinate ``v`` moved by ``shift`` cells, clipped to ``0 .. count - 1``.

    The same sum as :meth:`aoegrid.board._boxes.SegmentGrid` files segments with
    (shift 0), to the bit, so a box reads the cells its segments are in.
    """
    at = (v - origin) / cell + shift
    if at < 0.0:
        return 0
    if at >= count:
        return count - 1
    return int(at)


@kernel(cost=READ_COST, nogil=True)
def read(  # type: ignore[no-untyped-def]
    queries, owners, lattice_of, segs, x0, y0, cell, nx, ny, start, stop, keys, filed, ids, shift, stride,
    most_rows, how, first, last, size
):
    """What boxes ``first`` to ``last`` of ``queries`` meet in a :class:`aoegrid.board._boxes.SegmentGrid`.

    Each box reads, in each lattice, the rows of cells from one before its
    low corner's (``shift``) to its high corner's, and in each row the cells
    from one before to its own: the runs of the filed segments there. A box
    over more rows than the lattice has segments (or than ``most_rows``,
    when not 0) reads all of them instead.

    Parameters
    ----------
    queries : (4 m,) floats
        Boxes ``[xmin, ymin, xmax, ymax]``, one after another.
    owners : (m,) ints, empty for none
        The grid's segments whose boxes ``queries`` are: a box then reads
        only lattices at least as coarse as its owner's, and a pair of
        segments is taken once, by the one in the finer lattice (in the same
        lattice, the lower index), never a segment with itself.
    lattice_of : (n,) ints
        Each segment's lattice.
    segs : (4 n,) floats, empty for none
        With ``owners``: the grid's segments; pairs certainly apart
        (:func:`_relation`) are left out.
    x0, y0, cell, nx, ny, start, stop, keys, filed, ids : the grid's
        Its bounds' low corner; per lattice, its cells' size, columns and
        rows, and where its segments begin and end in ``keys`` (their cells,
        ``lattice * stride + row * nx + column``, ascending), ``filed`` (a
        copy of them, 4 floats each) and ``ids`` (their indices).
    shift : (4,) floats
        Cells each side of a box is moved by.
    how : int
        :data:`CANDIDATES`: count the filed segments each box reads.
        :data:`PAIRS`: list the pairs (box, segment) whose boxes meet
        (closed), at most ``size``. :data:`CROSSINGS`: count the pairs
        certainly crossing.

    Returns
    -------
    n : int
        The pairs listed or counted (0 for :data:`CANDIDATES`).
    counts : (last - first,) ints
        With :data:`CANDIDATES`, the filed segments each box reads (else empty).
    out_k, out_j : (size,) ints
        With :data:`PAIRS`, the pairs' boxes and segments: the first ``n`` (else empty).
    """
    counts = filled(last - first if how == CANDIDATES else 0, 0, np.int64)
    out_k = filled(size if how == PAIRS else 0, 0, np.int64)
    out_j = filled(size if how == PAIRS else 0, 0, np.int64)
    n = 0
    for k in range(first, last):
        bx0, by0, bx1, by1 = queries[4 * k], queries[4 * k + 1], queries[4 * k + 2], queries[4 * k + 3]
        i = owners[k] if len(owners) else -1
        for lat in range(len(cell)):
            if i >= 0 and lat < lattice_of[i]:
                continue
            row0 = _cell(by0, y0, cell[lat], shift[1], ny[lat])
            row1 = _cell(by1, y0, cell[lat], shift[3], ny[lat])
            rows = row1 - row0 + 1
            whole = rows > stop[lat] - start[lat] or (most_rows > 0 and rows > most_rows)
            col0 = _cell(bx0, x0, cell[lat], shift[0], nx[lat])
            col1 = _cell(bx1, x0, cell[lat], shift[2], nx[lat])
            for row in range(row0, row0 + (1 if whole else rows)):
                if whole:
                    lo, hi = start[lat], stop[lat]
                else:
                    base = lat * stride + row * nx[lat]
                    lo = bisect_left(keys, base + col0, start[lat], stop[lat])
                    hi = bisect_right(keys, base + col1, start[lat], stop[lat])
                if how == CANDIDATES:
                    counts[k - first] += hi - lo
                    continue
                for pos in range(lo, hi):
                    sx0, sy0, sx1, sy1 = filed[4 * pos], filed[4 * pos + 1], filed[4 * pos + 2], filed[4 * pos + 3]
                    if min(sx0, sx1) > bx1 or max(sx0, sx1) < bx0 or min(sy0, sy1) > by1 or max(sy0, sy1) < by0:
                        continue
                    j = ids[pos]
                    if i >= 0:
                        if lat == lattice_of[i] and j <= i:
                            continue
                        if len(segs):
                            rel = _relation(segs, 4 * i, filed, 4 * pos)
                            if rel == APART or (how == CROSSINGS and rel != CROSSING):
                                continue
                    if how == PAIRS:
                        out_k[n] = k
                        out_j[n] = j
                    n += 1
    return n, counts, out_k, out_j
