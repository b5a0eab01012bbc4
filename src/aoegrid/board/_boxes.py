"""Segments found by the boxes they meet: lattices of cells sized to the segments.

Walls are prepared (:mod:`aoegrid.board.battlemap`, :mod:`aoegrid.board.walls`) and spread
steps built (:mod:`aoegrid.board.spread`) by asking which segments' boxes meet a box,
or meet one another. Walls traced from pictures carry a point per pixel, a
hundred or more a square, beside walls across the map: cells of one size
would either crowd short segments together (pairing them costs the square of
how many share a cell) or be crossed by long ones. So each segment is filed in
cells of its own size.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray

from aoegrid.board._meets import CANDIDATES, CROSSINGS, PAIRS, read
from aoegrid.geometry._kernels import run

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

#: Candidate pairs listed at a time: bounds the memory of pairing crowded boxes.
BLOCK = 1 << 20
#: The finest cells are the bounds' size over 2**_DEPTH (so at most 29 lattices).
_DEPTH = 28
#: Cell keys are ``lattice * _STRIDE + row * columns + column``: one sorted
#: array for all lattices (rows and columns are at most 2**_DEPTH + 1).
_STRIDE = 1 << 58
#: Cells are read this fraction of a cell wider each way: the cell a coordinate is
#: filed in is rounded by at most 2**-24 cells (a cell is at least 2**-28 bounds).
_SLACK = 2.0**-20
#: Shifts (in cells) of a box's sides to the cells it reads: from one before its low corner's.
_READ = np.array([-1.0 - _SLACK, -1.0 - _SLACK, _SLACK, _SLACK])
_NO_SEGS = np.empty((0, 4))


def _levels(extent: FloatArray) -> NDArray[np.int64]:
    """The least ``k`` with ``2**k >= extent``, for positive extents (exact: read off the exponent)."""
    mantissa, exponent = np.frexp(extent)
    return (exponent - (mantissa == 0.5)).astype(np.int64)


def hull(segs: FloatArray) -> tuple[float, float, float, float]:
    """The box of all of ``segs`` (``(n, 4)``, ``n >= 1``): ``(xmin, ymin, xmax, ymax)``."""
    lo, hi = np.minimum(segs[:, :2], segs[:, 2:]).min(axis=0), np.maximum(segs[:, :2], segs[:, 2:]).max(axis=0)
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def boxes_of(segs: FloatArray) -> FloatArray:
    """The box ``[xmin, ymin, xmax, ymax]`` of each of ``segs``."""
    return np.column_stack([
        np.minimum(segs[:, 0], segs[:, 2]), np.minimum(segs[:, 1], segs[:, 3]),
        np.maximum(segs[:, 0], segs[:, 2]), np.maximum(segs[:, 1], segs[:, 3]),
    ])


def blocks(sizes: NDArray[np.int64], cap: int) -> Iterator[tuple[int, int]]:
    """Consecutive runs ``[start, stop)`` of ``sizes`` adding up to at most ``cap`` (or one larger item)."""
    ends = np.cumsum(sizes)
    start = 0
    while start < len(sizes):
        stop = max(int(np.searchsorted(ends, ends[start] - sizes[start] + cap, side="right")), start + 1)
        yield start, stop
        start = stop


class SegmentGrid:
    """Segments found by the boxes they meet, through lattices of cells sized to them.

    A segment is filed once, in the lattice whose cells are the least power
    of two at least as large as its box, under the cell of its box's low
    corner: its box reaches at most one cell on. A cell then holds about as
    many segments as there are of its size within a cell of it, whatever
    their density, so pairing short segments costs what their neighbours
    are, not how many share a square; and a long one is met by a short one
    in a few of its own large cells. Built with one sort; boxes are read by
    a kernel (:func:`aoegrid.board._meets.read`: a few rows of cells of each
    lattice; compiled for many boxes), from a copy of the segments in the
    order they are filed in, so the segments of a cell are read in a row.

    Parameters
    ----------
    segs : (n, 4) float array
        Segments ``[x0, y0, x1, y1]``, any finite coordinates.
    bounds : (xmin, ymin, xmax, ymax), optional
        The region queries lie in; segments missing it are never found. By
        default the box of all the segments.

    Examples
    --------
    >>> import numpy as np
    >>> grid = SegmentGrid(np.array([[0, 0, 1, 1], [0.5, 0, 0.5, 9], [5, 5, 5.001, 5]]), (0, 0, 10, 10))
    >>> grid.query((0.4, 0.9, 2, 2)).tolist()
    [0, 1]
    >>> [(k.tolist(), j.tolist()) for k, j in grid.pairs(grid.boxes(np.array([0])), np.array([0]))]
    [([0], [1])]
    """

    def __init__(self, segs: FloatArray, bounds: tuple[float, float, float, float] | None = None) -> None:
        self.segs = segs = np.ascontiguousarray(segs, dtype=np.float64).reshape(-1, 4)
        x0, y0, x1, y1 = bounds or (hull(segs) if len(segs) else (0.0, 0.0, 1.0, 1.0))
        self.origin = (x0, y0)
        b = boxes_of(segs)
        ids = np.flatnonzero((b[:, 0] <= x1) & (b[:, 2] >= x0) & (b[:, 1] <= y1) & (b[:, 3] >= y0))
        # One cell of the coarsest lattice covers the bounds (reading any of it reads it all).
        top = int(_levels(np.array([max(x1 - x0, y1 - y0) or 1.0]))[0])
        extent = np.maximum(b[ids, 2] - b[ids, 0], b[ids, 3] - b[ids, 1])
        level = np.clip(_levels(np.where(extent > 0, extent, 1.0)), top - _DEPTH, top)
        level[extent == 0] = top - _DEPTH
        # The lattices are the sizes present: at most _DEPTH + 1, counted rather than sorted.
        present = np.bincount(level - (top - _DEPTH), minlength=_DEPTH + 1) > 0
        levels, lattice = np.flatnonzero(present) + top - _DEPTH, np.cumsum(present)[level - (top - _DEPTH)] - 1
        #: Per lattice: its cells' size, and how many there are across and down.
        self.cell = np.ldexp(1.0, levels)
        self.nx = ((x1 - x0) / self.cell).astype(np.int64) + 1
        self.ny = ((y1 - y0) / self.cell).astype(np.int64) + 1
        #: Each segment's lattice (-1 where it misses the bounds).
        self.lattice_of = np.full(len(b), -1, dtype=np.intp)
        self.lattice_of[ids] = lattice
        column, row = self._cells(b[ids, :2], lattice).T
        key = lattice * _STRIDE + row * self.nx[lattice] + column
        order = np.argsort(key)
        #: The filed segments (indices, and a copy), lattice by lattice, each sorted by cell, and their cells' keys.
        self.keys, self.ids = key[order], ids[order]
        self.filed = segs[self.ids]
        #: Where each lattice's segments begin and end in :attr:`ids`.
        self.start = np.searchsorted(self.keys, np.arange(len(levels)) * _STRIDE)
        self.stop = np.searchsorted(self.keys, np.arange(1, len(levels) + 1) * _STRIDE)

    def boxes(self, which: IntArray) -> FloatArray:
        """The boxes of segments ``which``."""
        return boxes_of(self.segs[which])

    def _cells(self, coords: FloatArray, lattice: NDArray[np.intp]) -> NDArray[np.int64]:
        """The cells of points ``coords`` (``(k, 2)``) in lattices ``lattice``, clipped to the lattice.

        The sum :func:`aoegrid.board._meets.read` finds the cells a box reads with
        (there shifted), to the bit: a box reads the cells its segments are in.
        """
        size = np.column_stack([self.nx[lattice], self.ny[lattice]])
        at = np.floor((coords - np.array(self.origin)) / self.cell[lattice][:, None] + 0.0)
        # Clipped first, so far-off coordinates give no overflow.
        return np.minimum(np.maximum(at, 0), size - 1).astype(np.int64)

    def _read(self, boxes: FloatArray, owners: IntArray | None, how: int, first: int, last: int, *,
              size: int = 0, rows: int = 0, meeting: bool = False) -> tuple[int, NDArray[np.int64], IntArray, IntArray]:
        """:func:`aoegrid.board._meets.read` on this grid: boxes ``first`` to ``last`` of ``boxes``.

        ``size``: the candidates they read, where known (the pairs' room with
        :data:`~aoegrid.board._meets.PAIRS`). Returns the count, the boxes' counts
        (:data:`~aoegrid.board._meets.CANDIDATES`) and the pairs listed.
        """
        none = np.empty(0, np.intp)
        n, counts, out_k, out_j = run(
            read, (last - first) * len(self.cell) + size, boxes, none if owners is None else owners,
            self.lattice_of, self.segs if meeting else _NO_SEGS, self.origin[0], self.origin[1], self.cell, self.nx,
            self.ny, self.start, self.stop, self.keys, self.filed, self.ids, _READ, _STRIDE, rows, how, first, last,
            size,
        )
        n = int(n)
        return n, np.asarray(counts, dtype=np.int64), np.asarray(out_k, np.intp)[:n], np.asarray(out_j, np.intp)[:n]

    def counts(self, boxes: FloatArray, rows: int = 0) -> NDArray[np.int64]:
        """For each box, at least how many segments it meets, listing none.

        With ``rows``, a box reads at most that many rows of cells of each
        lattice, or counts all of that lattice's segments: the count is
        then cheap for a long box beside short segments, and more than it
        meets.
        """
        boxes = np.ascontiguousarray(boxes, dtype=np.float64).reshape(-1, 4)
        return self._read(boxes, None, CANDIDATES, 0, len(boxes), rows=rows)[1]

    def pairs(
        self, boxes: FloatArray, owners: IntArray | None = None, meeting: bool = False
    ) -> Iterator[tuple[IntArray, IntArray]]:
        """Pairs ``(k, j)`` of a box ``boxes[k]`` and a segment ``j`` whose boxes meet (closed).

        Given in blocks of about :data:`BLOCK` pairs (a box at a time at
        least), so pairing crowded boxes takes bounded memory.

        Parameters
        ----------
        boxes : (m, 4) float array
            ``[xmin, ymin, xmax, ymax]``.
        owners : (m,) int array, optional
            The segments of this grid whose boxes ``boxes`` are: then each
            pair of segments is listed once, by the one filed in the finer
            lattice (or, in the same one, the lower index), and never a
            segment with itself. Every segment is then read only in lattices
            at least as coarse as its own, a few cells each: pairing all the
            segments costs about what they meet, however their sizes mix.
        meeting : bool
            With ``owners``: leave out pairs of segments certainly apart
            (:func:`aoegrid.board._meets.relations`), keeping those that may meet.
        """
        boxes = np.ascontiguousarray(boxes, dtype=np.float64).reshape(-1, 4)
        sizes = self._sizes(boxes, owners)
        for first, last in blocks(sizes, BLOCK):
            n, _, k, j = self._read(boxes, owners, PAIRS, first, last, size=int(sizes[first:last].sum()),
                                    meeting=meeting)
            if n:
                yield k, j

    def crossings(self, owners: IntArray, most: int) -> tuple[int, int]:
        """How many pairs of segments certainly cross, taken by ``owners`` in turn (as :meth:`pairs` takes them).

        Nothing is listed. Counting stops once it passes ``most``: returns
        the count and how many of ``owners`` had been counted by then (all
        of them, unless it passed ``most``).
        """
        boxes = self.boxes(owners)
        sizes = self._sizes(boxes, owners)
        counted = 0
        for first, last in blocks(sizes, BLOCK):
            counted += self._read(boxes, owners, CROSSINGS, first, last, size=int(sizes[first:last].sum()),
                                  meeting=True)[0]
            if counted > most:
                return counted, last
        return counted, len(owners)

    def _sizes(self, boxes: FloatArray, owners: IntArray | None) -> NDArray[np.int64]:
        """How many filed segments each box reads (as :meth:`pairs` reads them)."""
        return self._read(boxes, owners, CANDIDATES, 0, len(boxes))[1]

    def query(self, bounds: tuple[float, float, float, float]) -> IntArray:
        """Indices, ascending, of the segments whose boxes meet ``bounds`` (closed)."""
        found = [j for _, j in self.pairs(np.array([bounds], dtype=np.float64))]
        return np.sort(np.concatenate(found)) if found else np.empty(0, dtype=np.intp)
