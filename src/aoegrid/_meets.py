"""Compiled kernels (numba) for preparing walls: which segments' boxes, and lines, meet.

Imported on first use, never by ``import aoegrid`` (see :mod:`aoegrid._sweep`,
whose cached compiling they share). Pairing the segments of a crowded map
reads millions of candidate pairs: a compiled loop reads each in a few
nanoseconds, with no array per step.
"""

from __future__ import annotations

import numpy as np

from aoegrid._sweep import _kernel

#: Shewchuk's bound on the rounding of a float orientation test, relative to its terms.
_ORIENT_ERROR = (3.0 + 16.0 * 2.0**-53) * 2.0**-53
#: Below this, an orientation test's terms may have lost bits to underflow.
_TINY = 1e-290

#: How two segments lie, as :func:`_relation` says: certainly apart, certainly
#: crossing (each strictly across the other's line), or too close to tell in floats.
APART, CROSSING, UNSURE = 0, 1, 2


@_kernel(inline="always")
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


@_kernel(inline="always")
def _relation(a, b):  # type: ignore[no-untyped-def]
    """:data:`APART`, :data:`CROSSING` or :data:`UNSURE`: how segments ``a`` and ``b`` (4 floats each) lie."""
    s1 = _side(a[0], a[1], a[2], a[3], b[0], b[1])
    s2 = _side(a[0], a[1], a[2], a[3], b[2], b[3])
    s3 = _side(b[0], b[1], b[2], b[3], a[0], a[1])
    s4 = _side(b[0], b[1], b[2], b[3], a[2], a[3])
    if s1 == 0 or s2 == 0 or s3 == 0 or s4 == 0:
        return UNSURE
    if s1 != s2 and s3 != s4:
        return CROSSING
    return APART


@_kernel(nogil=True)
def relations(a, b):  # type: ignore[no-untyped-def]
    """:func:`_relation` of each pair of rows of ``a`` and ``b`` ((m, 4) float64), as int8."""
    out = np.empty(a.shape[0], dtype=np.int8)
    for k in range(a.shape[0]):
        out[k] = _relation(a[k], b[k])
    return out


#: What :func:`read` does: count the filed segments each box reads, list the
#: pairs whose boxes meet, or count the pairs certainly crossing.
CANDIDATES, PAIRS, CROSSINGS = 0, 1, 2


@_kernel(inline="always")
def _cell(v, origin, cell, shift, count):  # type: ignore[no-untyped-def]
    """The cell of coordinate ``v`` moved by ``shift`` cells, clipped to ``0 .. count - 1``.

    The same sum as :meth:`aoegrid._boxes.SegmentGrid` files segments with
    (shift 0), to the bit, so a box reads the cells its segments are in.
    """
    at = np.floor((v - origin) / cell + shift)
    if at < 0:
        return 0
    if at > count - 1:
        return count - 1
    return int(at)


@_kernel(nogil=True)
def read(  # type: ignore[no-untyped-def]
    queries, owners, lattice_of, segs, origin, cell, nx, ny, start, stop, keys, filed, ids, shift, stride,
    most_rows, how, first, last, out_k, out_j, counts
):
    """What boxes ``first`` to ``last`` of ``queries`` meet in a :class:`aoegrid._boxes.SegmentGrid`.

    Each box reads, in each lattice, the rows of cells from one before its
    low corner's (``shift``) to its high corner's, and in each row the cells
    from one before to its own: the runs of the filed segments there. A box
    over more rows than the lattice has segments (or than ``most_rows``,
    when not 0) reads all of them instead.

    Parameters
    ----------
    queries : (m, 4) float64
        Boxes ``[xmin, ymin, xmax, ymax]``.
    owners : (m,) int array, empty for none
        The grid's segments whose boxes ``queries`` are: a box then reads
        only lattices at least as coarse as its owner's, and a pair of
        segments is taken once, by the one in the finer lattice (in the same
        lattice, the lower index), never a segment with itself.
    lattice_of : (n,) int array
        Each segment's lattice.
    segs : (n, 4) float64, empty for none
        With ``owners``: the grid's segments; pairs certainly apart
        (:func:`_relation`) are left out.
    origin, cell, nx, ny, start, stop, keys, filed, ids : the grid's
        Its bounds' low corner; per lattice, its cells' size, columns and
        rows, and where its segments begin and end in ``keys`` (their cells,
        ``lattice * stride + row * nx + column``, ascending), ``filed`` (a
        copy of them) and ``ids`` (their indices).
    shift : (4,) float64
        Cells each side of a box is moved by.
    how : int
        :data:`CANDIDATES`: add to ``counts[k]`` the filed segments box
        ``k`` reads. :data:`PAIRS`: write the pairs (box, segment) whose
        boxes meet (closed) to ``out_k``, ``out_j``. :data:`CROSSINGS`:
        count the pairs certainly crossing.

    Returns
    -------
    int
        The pairs written or counted (0 for :data:`CANDIDATES`).
    """
    n = 0
    for k in range(first, last):
        x0, y0, x1, y1 = queries[k, 0], queries[k, 1], queries[k, 2], queries[k, 3]
        i = owners[k] if owners.size else -1
        for lat in range(cell.size):
            if i >= 0 and lat < lattice_of[i]:
                continue
            size = stop[lat] - start[lat]
            row0 = _cell(y0, origin[1], cell[lat], shift[1], ny[lat])
            row1 = _cell(y1, origin[1], cell[lat], shift[3], ny[lat])
            rows = row1 - row0 + 1
            whole = rows > size or (most_rows > 0 and rows > most_rows)
            col0 = _cell(x0, origin[0], cell[lat], shift[0], nx[lat])
            col1 = _cell(x1, origin[0], cell[lat], shift[2], nx[lat])
            lattice = keys[start[lat] : stop[lat]]
            for row in range(row0, row0 + (1 if whole else rows)):
                if whole:
                    lo, hi = start[lat], stop[lat]
                else:
                    base = lat * stride + row * nx[lat]
                    lo = start[lat] + np.searchsorted(lattice, base + col0)
                    hi = start[lat] + np.searchsorted(lattice, base + col1, side="right")
                if how == CANDIDATES:
                    counts[k] += hi - lo
                    continue
                for pos in range(lo, hi):
                    s = filed[pos]
                    if min(s[0], s[2]) > x1 or max(s[0], s[2]) < x0 or min(s[1], s[3]) > y1 or max(s[1], s[3]) < y0:
                        continue
                    j = ids[pos]
                    if i >= 0:
                        if lat == lattice_of[i] and j <= i:
                            continue
                        if segs.size:
                            rel = _relation(segs[i], s)
                            if rel == APART or (how == CROSSINGS and rel != CROSSING):
                                continue
                    if how == PAIRS:
                        out_k[n] = k
                        out_j[n] = j
                    n += 1
    return n
