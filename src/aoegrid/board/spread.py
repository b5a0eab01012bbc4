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

from aoegrid.board._boxes import SegmentGrid
from aoegrid.board._paths import shortest_paths, step_bits
from aoegrid.board.walls import MARGIN, clip
from aoegrid.geometry._kernels import run
from aoegrid.geometry.options import Diagonals, TerrainCost
from aoegrid.geometry.raster import Window
from aoegrid.geometry.regions import EPS

FloatArray = NDArray[np.float64]

#: Blocks of step masks built by scanning every wall before the walls are indexed.
_SCANS = 3
#: Step offsets (dx, dy), in the order of the bits of a blocked-steps mask
#: (:data:`aoegrid.board._paths.STEP_DX`): orthogonal steps, then diagonal ones.
_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))


class StepMasks:
    """Which steps out of each square of a grid a wall blocks, built as windows ask.

    The grid is cut into tiles of :attr:`TILE` squares a side, each built on
    first use and kept: the first spread on a huge map costs what its window
    costs. The tiles a window lacks are built together, in one block: only
    the squares within one square of a wall's box are tested (a step runs
    between square centres, so a wall meeting it passes through one of the
    up to four squares it spans), each against the eight steps out of it, by
    a kernel (:func:`aoegrid.board._paths.step_bits`, compiled for many walls). A
    one-way wall blocks only steps that start on its blocking side. The walls
    need no merging or splitting (a step meets their union either way): each
    is only clipped, as :func:`aoegrid.board.walls.tidy` clips it, when a tile near
    it is built.

    Parameters
    ----------
    width, height : int
        The grid's size in squares.
    segs : (n, 4) float array
        Wall segments ``[x0, y0, x1, y1]``, as given (zero-length ones are
        ignored).
    one_way : (n,) int8 array
        0 for two-way walls, +1 for walls blocking only steps from their
        right, -1 from their left.
    cut : bool
        Whether a step may pass a wall's end (a diagonal past a wall's
        corner): :class:`aoegrid.geometry.options.CornerRule` ``"allowed"``, for
        movement under the rules that allow it. By default (spreads, and
        ``"blocked"``) every step a wall touches is barred.
    """

    TILE = 32

    def __init__(
        self,
        width: int,
        height: int,
        segs: FloatArray,
        one_way: NDArray[np.int8],
        cut: bool = False,
    ) -> None:
        self.width, self.height = width, height
        self.cut = bool(cut)
        # Kept as given: a block's walls are filtered and clipped as it is built.
        self.segs = np.asarray(segs, dtype=np.float64).reshape(-1, 4)
        self.one_way = np.asarray(one_way, dtype=np.int8)
        self._index: SegmentGrid | None = None
        self._scans = 0
        self._tiles: dict[tuple[int, int], NDArray[np.uint8]] = {}

    def window(self, window: Window) -> NDArray[np.uint8]:
        """The blocked steps out of each square of ``window``, as :func:`path_distance` takes them."""
        h, w = window.shape
        out = np.zeros((h, w), dtype=np.uint8)
        t = self.TILE
        tys = range(max(window.y0, 0) // t, (min(window.y0 + h, self.height) - 1) // t + 1)
        txs = range(max(window.x0, 0) // t, (min(window.x0 + w, self.width) - 1) // t + 1)
        missing = [(tx, ty) for ty in tys for tx in txs if (tx, ty) not in self._tiles]
        if missing:
            self._build(missing)
        for ty in tys:
            for tx in txs:
                tile = self._tiles[(tx, ty)]
                # The overlap of the tile and the window, in grid squares.
                x0, x1 = max(tx * t, window.x0), min((tx + 1) * t, window.x0 + w, self.width)
                y0, y1 = max(ty * t, window.y0), min((ty + 1) * t, window.y0 + h, self.height)
                out[y0 - window.y0 : y1 - window.y0, x0 - window.x0 : x1 - window.x0] = tile[
                    y0 - ty * t : y1 - ty * t, x0 - tx * t : x1 - tx * t
                ]
        return out

    def _build(self, tiles: list[tuple[int, int]]) -> None:
        """Build ``tiles`` (and any others in the block they span: the same bits) in one pass."""
        t = self.TILE
        tx0, ty0 = min(tx for tx, _ in tiles), min(ty for _, ty in tiles)
        tx1, ty1 = max(tx for tx, _ in tiles) + 1, max(ty for _, ty in tiles) + 1
        x0, y0, x1, y1 = tx0 * t, ty0 * t, tx1 * t, ty1 * t
        # A step out of a square of the block stays within one square of it.
        near = self._near((x0 - 1.0, y0 - 1.0, x1 + 1.0, y1 + 1.0))
        segs = self.segs[near]
        real = (segs[:, 0] != segs[:, 2]) | (segs[:, 1] != segs[:, 3])
        near = near[real]
        # Clipped as tidy clips them, so far-off ends cost no precision.
        segs, which, _ = clip(segs[real], (-MARGIN, -MARGIN, self.width + MARGIN, self.height + MARGIN))
        # The kernel's work: the squares within one square of each wall's box, in the block.
        spanned = np.minimum((np.abs(segs[:, 2] - segs[:, 0]) + 3) * (np.abs(segs[:, 3] - segs[:, 1]) + 3),
                             (x1 - x0) * (y1 - y0)).sum()
        bits = np.asarray(run(step_bits, spanned, segs, self.one_way[near[which]], x0, y0, x1 - x0, y1 - y0,
                              self.width, self.height, EPS, int(self.cut)), dtype=np.uint8).reshape(y1 - y0, x1 - x0)
        for tx, ty in tiles:
            self._tiles[(tx, ty)] = bits[(ty - ty0) * t : (ty - ty0 + 1) * t, (tx - tx0) * t : (tx - tx0 + 1) * t]

    def _near(self, bounds: tuple[float, float, float, float]) -> NDArray[np.intp]:
        """Indices of the walls whose boxes meet ``bounds`` (and, before the index is built, off the map)."""
        if self._index is None:
            if self._scans < _SCANS:
                # The first blocks scan every wall: a query's first spread
                # builds one block, and the index costs a few scans.
                self._scans += 1
                s, (x0, y0, x1, y1) = self.segs, bounds
                near = (np.minimum(s[:, 0], s[:, 2]) <= x1) & (np.maximum(s[:, 0], s[:, 2]) >= x0)
                near &= (np.minimum(s[:, 1], s[:, 3]) <= y1) & (np.maximum(s[:, 1], s[:, 3]) >= y0)
                return np.flatnonzero(near)
            self._index = SegmentGrid(self.segs, (-MARGIN, -MARGIN, self.width + MARGIN, self.height + MARGIN))
        return self._index.query(bounds)


def path_distance(
    window: Window,
    start: FloatArray,
    start_parity: NDArray[np.int8],
    blocked: NDArray[np.uint8] | None,
    diagonals: Diagonals,
    limit: float = math.inf,
) -> FloatArray:
    """Shortest path length, in squares, to every square of ``window``.

    Dijkstra's algorithm over the window's squares (two copies of them under
    the alternating rules, one per parity of the diagonals used so far);
    its cost follows the squares within ``limit``, not the window.

    Parameters
    ----------
    window : Window
    start : (h, w) float array
        Each square's first-step cost, ``inf`` where the effect does not start.
    start_parity : (h, w) int8 array
        How many diagonals that first step used, mod 2 (read only under the
        alternating rules).
    blocked : (h, w) uint8 array or None
        The steps walls bar out of each square, from
        :meth:`StepMasks.window`; None for open field. Steps leaving the
        window are barred.
    diagonals : Diagonals
    limit : float
        Squares farther than this (in squares) are left ``inf``: a spread
        passes the reach of its shape plus the largest detour that can count.

    Returns
    -------
    (h, w) float array
        Path lengths in squares, ``inf`` where unreached (or beyond ``limit``).

    Examples
    --------
    >>> import numpy as np
    >>> from aoegrid.geometry.options import Diagonals
    >>> start = np.full((3, 4), np.inf)
    >>> start[0, 0] = 1.0
    >>> path_distance(Window(0, 0, 4, 3), start, np.ones((3, 4), np.int8), None, Diagonals.ALTERNATING)
    array([[1., 2., 3., 4.],
           [2., 3., 4., 5.],
           [3., 4., 4., 5.]])
    """
    h, w = window.shape
    if blocked is None:
        blocked = np.zeros((h, w), dtype=np.uint8)
    layers, table = step_costs(diagonals)
    return np.asarray(run(
        shortest_paths,
        layers * h * w,
        np.ascontiguousarray(start, dtype=np.float64),
        np.ascontiguousarray(np.broadcast_to(start_parity, (h, w)), dtype=np.int8),
        np.ascontiguousarray(blocked, dtype=np.uint8),
        np.zeros(h * w, dtype=np.int8),
        0,
        table,
        h,
        w,
        layers,
        float(limit),
    ), dtype=np.float64).reshape(h, w)


def diagonal_costs(diagonals: Diagonals) -> tuple[int, tuple[float, float]]:
    """The layers a diagonal rule needs and a diagonal step's cost out of each, in squares.

    The alternating rules take two layers (the parity of the diagonals used
    so far): a diagonal out of the even layer is the first of a pair. The
    others take one; ``manhattan`` has no diagonal steps (cost -1).

    Examples
    --------
    >>> diagonal_costs(Diagonals.ALTERNATING), diagonal_costs(Diagonals.EQUIDISTANT)
    ((2, (1.0, 2.0)), (1, (1.0, 1.0)))
    """
    if diagonals in (Diagonals.ALTERNATING, Diagonals.ALTERNATING_2):
        return 2, ((1.0, 2.0) if diagonals is Diagonals.ALTERNATING else (2.0, 1.0))
    cost = {Diagonals.EQUIDISTANT: 1.0, Diagonals.APPROXIMATE: 1.5, Diagonals.EUCLIDEAN: math.sqrt(2.0)}
    one = cost.get(diagonals, -1.0)
    return 1, (one, one)


def step_costs(diagonals: Diagonals, terrain: TerrainCost | None = None) -> tuple[int, FloatArray]:
    """The layers and the step-cost table :func:`aoegrid.board._paths.shortest_paths` takes, in squares.

    Rows: orthogonal steps, diagonal steps out of layer 0, out of layer 1;
    columns: the kind of square entered (open, difficult, greater difficult,
    impassable), as ``terrain`` (:class:`aoegrid.geometry.options.TerrainCost`)
    prices them; without it, only open ground is priced (spreads). Open
    ground costs 1 square straight and the diagonal rule's cost diagonally;
    impassable ground ``inf``.

    Examples
    --------
    >>> from aoegrid.geometry.options import TerrainCost
    >>> step_costs(Diagonals.ALTERNATING, TerrainCost.SQUARES)[1].reshape(3, 4)
    array([[ 1.,  2.,  4., inf],
           [ 1.,  3.,  6., inf],
           [ 2.,  3.,  6., inf]])
    >>> step_costs(Diagonals.ALTERNATING, TerrainCost.PLUS)[1].reshape(3, 4)
    array([[ 1.,  2.,  3., inf],
           [ 1.,  2.,  3., inf],
           [ 2.,  3.,  4., inf]])
    >>> step_costs(Diagonals.EQUIDISTANT, TerrainCost.DOUBLE)[1].reshape(3, 4)
    array([[ 1.,  2.,  2., inf],
           [ 1.,  2.,  2., inf],
           [ 1.,  2.,  2., inf]])
    """
    layers, (first, second) = diagonal_costs(diagonals)
    # Starfinder's diagonal into difficult terrain: 3 squares, "just as two
    # diagonal moves normally do": twice the rule's average diagonal.
    mean = (first + second) / 2.0
    rows = []
    for row, base in enumerate((1.0, first, second)):
        if terrain is TerrainCost.SQUARES:
            step = 1.0 if row == 0 else mean
            rows.append((base, 2.0 * step, 4.0 * step, math.inf))
        elif terrain is TerrainCost.PLUS:
            rows.append((base, base + 1.0, base + 2.0, math.inf))
        elif terrain is TerrainCost.DOUBLE:
            rows.append((base, 2.0 * base, 2.0 * base, math.inf))
        else:
            rows.append((base, math.inf, math.inf, math.inf))
    return layers, np.array(rows, dtype=np.float64).ravel()
