"""The hex grid a battle map may be drawn on: its lattice and pure, vectorised geometry.

Two coordinate systems, as Red Blob Games' "Hexagonal Grids" names them:

* **Offset** ``(col, row)``: how Foundry VTT addresses hexes and how masks
  are indexed (``mask[row, col]``, shape ``(height, width)``). Rows of
  pointy-top hexes or columns of flat-top hexes are staggered by half a hex;
  ``offset`` says whether the odd or the even ones are shoved (right for
  rows, down for columns).
* **Cube** ``(q, r, s)`` with ``q + r + s == 0``: where distances, lines and
  rotations are simple. Offset ``(0, 0)`` is cube ``(0, 0, 0)`` in every
  layout.

Map coordinates (points) have their unit one hex **width**: the
flat-to-flat distance, which is also the distance between neighbouring
centres. x grows right, y down, and the origin is the top-left corner of the
bounding box of all the map's hexes (the smallest x and the smallest y over
all hex corners are both 0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from numbers import Integral
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import count, positive, shown
from aoegrid.geometry.grid import check_cells
from aoegrid.geometry.options import parse_option

#: Circumradius (centre to corner) of a hex one unit wide flat-to-flat.
CIRCUMRADIUS = 1 / math.sqrt(3)
#: Spacing of rows (pointy-top) or columns (flat-top): 1.5 circumradii.
ROW_SPACING = math.sqrt(3) / 2

#: An int for scalar arguments, an int array for array arguments.
Ints = int | NDArray[np.int64]
#: A float for scalar arguments, a float array for array arguments.
Floats = float | NDArray[np.float64]

# The six neighbour steps in axial (q, r), clockwise on screen (y down) from the first at or
# clockwise of due east: E, SE, SW, W, NW, NE for pointy-top hexes, SE, S, SW, NW, N, NE for
# flat-top. The same steps serve both orientations because both axial bases put +q and +r
# 60 degrees apart, +r clockwise of +q.
_STEPS = np.array([(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)], dtype=np.int64)

# The nudge added to both ends of a line, in cube (q, r, s); it sums to 0 so it stays in the
# plane. On screen it points right and down in both orientations.
_NUDGE = (1e-6, 2e-6, -3e-6)

# Corner offsets from a centre, clockwise on screen: pointy from the top, flat from the right.
_R = CIRCUMRADIUS
_POINTY_CORNERS = np.array(
    [(0, -_R), (0.5, -_R / 2), (0.5, _R / 2), (0, _R), (-0.5, _R / 2), (-0.5, -_R / 2)]
)
_FLAT_CORNERS = np.array(
    [(_R, 0), (_R / 2, 0.5), (-_R / 2, 0.5), (-_R, 0), (-_R / 2, -0.5), (_R / 2, -0.5)]
)

# Points whose squared distances to two centres differ by less than this are on the edge between
# them (float error is far smaller on any map that fits in memory).
_TIE = 1e-9

# Foundry VTT's grid types (CONST.GRID_TYPES) that are hexes, and what they are.
_FOUNDRY_TYPES = {
    2: ("pointy", "odd"), 3: ("pointy", "even"), 4: ("flat", "odd"), 5: ("flat", "even")
}


class HexOrientation(str, Enum):
    """Which way a hex grid's hexes point.

    ``pointy``: a corner at the top, rows staggered (Foundry's "rows" types
    2 and 3). ``flat``: a flat edge at the top, columns staggered (Foundry's
    "columns" types 4 and 5).
    """

    POINTY = "pointy"
    FLAT = "flat"


class HexOffset(str, Enum):
    """Which rows (pointy-top) or columns (flat-top) of a hex grid are shoved.

    ``odd``: the odd ones, half a hex right (rows) or down (columns).
    ``even``: the even ones.
    """

    ODD = "odd"
    EVEN = "even"


def _ints(value: ArrayLike, field: str) -> NDArray[np.int64]:
    """``value`` as an int64 array, or a clear error naming ``field``."""
    if isinstance(value, bool):
        raise InvalidTypeError(f"{field} must be a whole number, got {value!r}")
    arr = np.asarray(value)
    if arr.dtype.kind in "iu":
        return arr.astype(np.int64)
    if arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
        return arr.astype(np.int64)  # 3.0 is a whole number, as aoegrid's counts take it
    raise InvalidTypeError(
        f"{field} must be a whole number or an array of them, got {shown(value)}"
    )


def _floats(value: ArrayLike, field: str) -> NDArray[np.float64]:
    """``value`` as a finite float64 array, or a clear error naming ``field``."""
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidTypeError(
            f"{field} must be a number or an array of them, got {shown(value)}"
        ) from None
    if not np.all(np.isfinite(arr)):
        raise InvalidValueError(f"{field} must be finite, got {shown(value)}")
    return arr


def _pair(value: Any, field: str) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """A ``(col, row)`` pair (each part a whole number or an int array) as two int arrays."""
    try:
        col, row = value
    except (TypeError, ValueError):
        raise InvalidTypeError(f"{field} must be a (col, row) pair, got {shown(value)}") from None
    return _ints(col, f"{field} col"), _ints(row, f"{field} row")


def _out(arr: NDArray[Any]) -> Any:
    """A 0-d result as a Python scalar, so scalar calls give plain ints and floats."""
    return arr.item() if arr.ndim == 0 else arr


def _cube_round(
    qf: NDArray[np.float64], rf: NDArray[np.float64], sf: NDArray[np.float64]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The cube nearest a fractional cube point, as axial ``(q, r)`` (Red Blob's rounding).

    Each coordinate is rounded, then the one that moved most is reset from the
    other two so that ``q + r + s == 0`` again.
    """
    q, r, s = np.rint(qf), np.rint(rf), np.rint(sf)
    dq, dr, ds = np.abs(q - qf), np.abs(r - rf), np.abs(s - sf)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    q2 = np.where(fix_q, -r - s, q)
    r2 = np.where(fix_r, -q - s, r)
    return q2.astype(np.int64), r2.astype(np.int64)


@dataclass(frozen=True, slots=True, repr=False)
class HexGrid:
    """A grid of ``width`` x ``height`` hexes, in offset coordinates ``(col, row)``.

    Hex ``(col, row)`` is column ``col`` (counted right) of row ``row``
    (counted down). Masks have shape ``(height, width)`` and are indexed
    ``mask[row, col]``. A hex is ``size`` ``units`` across its flats, and one
    unit of map coordinates: neighbouring centres are exactly 1 apart.

    Pointy-top (``orientation="pointy"``): the flats are left and right, rows
    are ``sqrt(3) / 2`` apart and the shoved rows (odd or even, ``offset``)
    sit half a hex to the right. Flat-top (``"flat"``): the flats are top and
    bottom, columns are ``sqrt(3) / 2`` apart and the shoved columns sit half
    a hex down. Map coordinates start at the top-left of the bounding box of
    all the hexes: the leftmost and topmost hex corners lie on ``x == 0`` and
    ``y == 0``.

    Parameters
    ----------
    width, height : int
        Number of hexes across (columns) and down (rows).
    orientation : {"pointy", "flat"}
        Which way the hexes point.
    offset : {"odd", "even"}
        Which rows (pointy) or columns (flat) are shoved.
    size : float
        Flat-to-flat size of a hex in ``units``.
    units : str
        The unit ``size`` is given in (``"ft"`` by default).

    Raises
    ------
    InvalidValueError, InvalidTypeError
        For a bad field; the message names it, the value and what is valid.
    GridTooLargeError
        When the grid's masks would not fit in memory, as for :class:`~aoegrid.Grid`.

    Examples
    --------
    >>> g = HexGrid(10, 8)
    >>> g
    HexGrid(10, 8, orientation='pointy', offset='odd', size=5.0, units='ft')
    >>> g.shape, g.layout, g.foundry_type
    ((8, 10), 'odd-r', 2)
    >>> g.center(0, 0), g.center(0, 1)        # row 1 is shoved right by half a hex
    ((0.5, 0.5773502691896258), (1.0, 1.4433756729740645))
    >>> g.hex_at(1.0, 1.44), g.distance((0, 0), (3, 2))
    ((0, 1), 4)
    """

    width: int
    height: int
    orientation: HexOrientation | str = HexOrientation.POINTY
    offset: HexOffset | str = HexOffset.ODD
    size: float = 5.0
    units: str = "ft"

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "width", count(self.width, "HexGrid width"))
        set_(self, "height", count(self.height, "HexGrid height"))
        orientation = parse_option(HexOrientation, self.orientation, "HexGrid orientation")
        set_(self, "orientation", orientation)
        set_(self, "offset", parse_option(HexOffset, self.offset, "HexGrid offset"))
        set_(self, "size", positive(self.size, "HexGrid size"))
        if not isinstance(self.units, str) or not self.units.strip():
            raise InvalidTypeError(
                f"HexGrid units must be a non-empty string, got {shown(self.units)}"
            )
        check_cells(self.width, self.height, "hex grid", "hex", "hexes")

    @classmethod
    def from_foundry_type(
        cls, t: int, width: int, height: int, size: float = 5.0, units: str = "ft"
    ) -> HexGrid:
        """The hex grid of Foundry VTT grid type ``t`` (``CONST.GRID_TYPES``).

        2 is odd-r (pointy-top rows, odd rows shoved right), 3 even-r, 4 odd-q
        (flat-top columns, odd columns shoved down), 5 even-q.

        Raises
        ------
        InvalidValueError
            For type 0 (gridless), 1 (square) or any other number.

        Examples
        --------
        >>> HexGrid.from_foundry_type(4, 12, 9).layout
        'odd-q'
        """
        if isinstance(t, bool) or not isinstance(t, Integral):
            raise InvalidTypeError(
                f"Foundry grid type must be a whole number 2-5, got {shown(t)} of type "
                f"{type(t).__name__}"
            )
        if int(t) not in _FOUNDRY_TYPES:
            raise InvalidValueError(
                f"Foundry grid type {shown(t)} is not a hex grid: types 2-5 are hexes "
                f"(2 odd-r, 3 even-r, 4 odd-q, 5 even-q), 0 is gridless and 1 square"
            )
        orientation, offset = _FOUNDRY_TYPES[int(t)]
        return cls(width, height, orientation, offset, size, units)

    def __repr__(self) -> str:
        return (
            f"HexGrid({self.width}, {self.height}, orientation={self._orientation.value!r}, "
            f"offset={self._offset.value!r}, size={self.size!r}, units={self.units!r})"
        )

    # -- the layout ---------------------------------------------------------------------------

    @property
    def _orientation(self) -> HexOrientation:
        return HexOrientation(self.orientation)

    @property
    def _offset(self) -> HexOffset:
        return HexOffset(self.offset)

    @property
    def _pointy(self) -> bool:
        return self.orientation is HexOrientation.POINTY

    @property
    def _even(self) -> bool:
        return self.offset is HexOffset.EVEN

    @property
    def layout(self) -> str:
        """Red Blob's name of the layout: ``"odd-r"``, ``"even-r"``, ``"odd-q"`` or ``"even-q"``."""
        return f"{self._offset.value}-{'r' if self._pointy else 'q'}"

    @property
    def foundry_type(self) -> int:
        """Foundry VTT's grid type for this layout (2-5); see :meth:`from_foundry_type`."""
        return {"odd-r": 2, "even-r": 3, "odd-q": 4, "even-q": 5}[self.layout]

    @property
    def shape(self) -> tuple[int, int]:
        """``(height, width)``: the shape of this grid's masks."""
        return (self.height, self.width)

    @property
    def extent(self) -> tuple[float, float]:
        """``(width, height)`` of the map (the bounding box of its hexes) in map coordinates.

        Examples
        --------
        >>> HexGrid(4, 3).extent                       # 4.5 wide: the shoved row sticks out
        (4.5, 2.886751345948129)
        >>> HexGrid(4, 1).extent[0]                    # one row: nothing is staggered
        4.0
        """
        # The stagger widens the map by half a hex only when both kinds of row (column) exist.
        lines = self.height if self._pointy else self.width  # the staggered rows (columns)
        stagger = 0.5 if lines > 1 else 0.0
        along = (self.width if self._pointy else self.height) + stagger
        across = 2 * CIRCUMRADIUS + (lines - 1) * ROW_SPACING
        return (along, across) if self._pointy else (across, along)

    def pixel_size(self, px: float) -> tuple[float, float]:
        """``(width, height)`` of the map in pixels, ``px`` pixels a hex flat-to-flat.

        ``px`` is Foundry's ``grid.size``. This is the hexes' bounding box
        alone: Foundry's scene padding is not included.

        Examples
        --------
        >>> HexGrid(4, 1).pixel_size(100)
        (400.0, 115.47005383792516)
        """
        w, h = self.extent
        scale = positive(px, "pixel_size px")
        return (w * scale, h * scale)

    #: What cells this lattice has (``aoegrid.geometry.lattice.Lattice``).
    kind = "hex"

    @property
    def cell_size(self) -> float:
        """One map unit (a hex's width, flat to flat) in the grid's unit: :attr:`size`."""
        return self.size

    def contains_point(self, p: tuple[float, float]) -> bool:
        """Whether point ``p`` lies in the map's box (:attr:`extent`); its border counts as in it."""
        w, h = self.extent
        return 0.0 <= p[0] <= w and 0.0 <= p[1] <= h

    def to_hexes(self, length: float) -> float:
        """A length in this grid's units, in hexes (map units)."""
        return length / self.size

    @property
    def _origin(self) -> tuple[float, float]:
        """The centre of hex ``(0, 0)`` (cube ``(0, 0, 0)``) in map coordinates."""
        # Hex (0, 0) is shoved in the even layouts, and then the map's left (top) edge is set by
        # the unshoved row 1 (column 1), half a hex further left (up), unless there is none.
        lines = self.height if self._pointy else self.width
        along = 0.5 + (0.5 if self._even and lines > 1 else 0.0)
        return (along, CIRCUMRADIUS) if self._pointy else (CIRCUMRADIUS, along)

    def _axial_center(
        self, q: NDArray[np.int64], r: NDArray[np.int64]
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        ox, oy = self._origin
        if self._pointy:  # basis: +q is (1, 0), +r is (1/2, sqrt(3)/2)
            return ox + q + 0.5 * r, oy + ROW_SPACING * r
        return ox + ROW_SPACING * q, oy + r + 0.5 * q  # +q is (sqrt(3)/2, 1/2), +r is (0, 1)

    def _axial(
        self, col: NDArray[np.int64], row: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Offset to axial ``(q, r)`` (Red Blob's offset conversions)."""
        # (n & 1) is n's parity for negative n too (two's complement), so hexes off the map's
        # top or left convert as well; the differences halved are even, so // is exact.
        if self._pointy:
            shift = (row + (row & 1)) // 2 if self._even else (row - (row & 1)) // 2
            return col - shift, row
        shift = (col + (col & 1)) // 2 if self._even else (col - (col & 1)) // 2
        return col, row - shift

    def _offset_of(
        self, q: NDArray[np.int64], r: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Axial ``(q, r)`` to offset ``(col, row)``."""
        if self._pointy:
            shift = (r + (r & 1)) // 2 if self._even else (r - (r & 1)) // 2
            return q + shift, r
        shift = (q + (q & 1)) // 2 if self._even else (q - (q & 1)) // 2
        return q, r + shift

    # -- points -------------------------------------------------------------------------------

    def center(self, col: ArrayLike, row: ArrayLike) -> tuple[Floats, Floats]:
        """The centre ``(x, y)`` of hex ``(col, row)`` in map coordinates.

        ``col`` and ``row`` may be arrays (broadcast together); hexes off the
        map have centres too.

        Examples
        --------
        >>> g = HexGrid(3, 2, orientation="flat")
        >>> g.center(0, 0), g.center(1, 0)        # odd column 1 is shoved down
        ((0.5773502691896258, 0.5), (1.4433756729740645, 1.0))
        >>> g.center([0, 1, 2], 1)[1]
        array([1.5, 2. , 1.5])
        """
        q, r = self._axial(_ints(col, "center col"), _ints(row, "center row"))
        x, y = self._axial_center(q, r)
        return _out(np.asarray(x, dtype=np.float64)), _out(np.asarray(y, dtype=np.float64))

    def corners(self, col: ArrayLike, row: ArrayLike) -> NDArray[np.float64]:
        """The six corners of hex ``(col, row)``, shape ``(..., 6, 2)`` of ``(x, y)``.

        Clockwise on screen (y down): pointy-top hexes from the top corner
        (top, upper right, lower right, bottom, lower left, upper left),
        flat-top hexes from the right corner (right, lower right, lower left,
        left, upper left, upper right). Each is ``1 / sqrt(3)`` from the centre.

        Examples
        --------
        >>> HexGrid(2, 2).corners(0, 0).round(3)
        array([[0.5  , 0.   ],
               [1.   , 0.289],
               [1.   , 0.866],
               [0.5  , 1.155],
               [0.   , 0.866],
               [0.   , 0.289]])
        """
        x, y = self.center(col, row)
        # Written out rather than from cos/sin, so the flats are exactly +-1/2 from the centre
        # and the map's leftmost and topmost corners land exactly on 0.
        ring = _POINTY_CORNERS if self._pointy else _FLAT_CORNERS
        centres = np.stack(np.broadcast_arrays(np.asarray(x), np.asarray(y)), axis=-1)
        return centres[..., None, :] + ring

    def hex_at(self, x: ArrayLike, y: ArrayLike) -> tuple[Ints, Ints]:
        """The hex ``(col, row)`` containing the point ``(x, y)``, on the map or not.

        The hex containing a point is the one whose centre is nearest. A point
        on an edge shared by two hexes (centres equally near, within 1e-9) goes
        to the one in the lower row, then the lower column; a corner shared by
        three, likewise. ``x`` and ``y`` may be arrays.

        Examples
        --------
        >>> g = HexGrid(3, 3)
        >>> g.hex_at(0.5, 0.6), g.hex_at(1.0, 0.5)   # x = 1 is the edge between (0, 0) and (1, 0)
        ((0, 0), (0, 0))
        >>> g.hex_at([0.1, 2.9], [0.5, 2.0])
        (array([0, 2]), array([0, 2]))
        """
        px, py = np.broadcast_arrays(_floats(x, "hex_at x"), _floats(y, "hex_at y"))
        ox, oy = self._origin
        if self._pointy:
            rf = (py - oy) / ROW_SPACING
            qf = (px - ox) - 0.5 * rf
        else:
            qf = (px - ox) / ROW_SPACING
            rf = (py - oy) - 0.5 * qf
        q0, r0 = _cube_round(qf, rf, -qf - rf)
        # Rounding finds the containing hex up to float error; the tie rule needs the exact
        # candidates, so the hex and its six neighbours are compared by distance.
        dq = np.concatenate([[0], _STEPS[:, 0]])
        dr = np.concatenate([[0], _STEPS[:, 1]])
        q, r = q0[..., None] + dq, r0[..., None] + dr
        cx, cy = self._axial_center(q, r)
        d2 = (cx - px[..., None]) ** 2 + (cy - py[..., None]) ** 2
        cols, rows = self._offset_of(q, r)
        tied = d2 <= d2.min(axis=-1, keepdims=True) + _TIE
        big = np.iinfo(np.int64).max
        low_row = np.where(tied, rows, big).min(axis=-1, keepdims=True)
        tied &= rows == low_row
        pick = np.where(tied, cols, big).argmin(axis=-1)[..., None]
        col = np.take_along_axis(cols, pick, axis=-1)[..., 0]
        row = np.take_along_axis(rows, pick, axis=-1)[..., 0]
        return _out(col), _out(row)

    # -- cube coordinates ---------------------------------------------------------------------

    def to_cube(self, col: ArrayLike, row: ArrayLike) -> tuple[Ints, Ints, Ints]:
        """The cube coordinates ``(q, r, s)`` of hex ``(col, row)``; ``q + r + s == 0``.

        Examples
        --------
        >>> HexGrid(5, 5).to_cube(3, 2)                     # odd-r
        (2, 2, -4)
        >>> HexGrid(5, 5, "flat", "even").to_cube(3, 2)     # even-q
        (3, 0, -3)
        """
        q, r = self._axial(_ints(col, "to_cube col"), _ints(row, "to_cube row"))
        return _out(q), _out(r), _out(-q - r)

    def from_cube(self, q: ArrayLike, r: ArrayLike, s: ArrayLike) -> tuple[Ints, Ints]:
        """The hex ``(col, row)`` at cube ``(q, r, s)``.

        Raises
        ------
        InvalidValueError
            If ``q + r + s != 0``.

        Examples
        --------
        >>> HexGrid(5, 5).from_cube(2, 2, -4)
        (3, 2)
        """
        qa, ra, sa = _ints(q, "from_cube q"), _ints(r, "from_cube r"), _ints(s, "from_cube s")
        if np.any(qa + ra + sa != 0):
            raise InvalidValueError(
                f"cube coordinates must sum to 0, got q={shown(q)}, r={shown(r)}, s={shown(s)}"
            )
        col, row = self._offset_of(*np.broadcast_arrays(qa, ra))
        return _out(col), _out(row)

    def distance(self, a: Any, b: Any) -> Ints:
        """The number of hex steps between hexes ``a`` and ``b``, each ``(col, row)``.

        The parts of ``a`` and ``b`` may be arrays (pass an ``(N, 2)`` array
        as ``arr.T``).

        Examples
        --------
        >>> g = HexGrid(5, 5)
        >>> g.distance((0, 0), (3, 2)), g.distance((0, 0), ([1, 0, 4], [0, 1, 4]))
        (4, array([1, 1, 6]))
        """
        qa, ra = self._axial(*_pair(a, "distance a"))
        qb, rb = self._axial(*_pair(b, "distance b"))
        dq, dr = qa - qb, ra - rb
        return _out(np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr)))

    def contains(self, col: ArrayLike, row: ArrayLike) -> bool | NDArray[np.bool_]:
        """Whether hex ``(col, row)`` is on the map; ``col`` and ``row`` may be arrays.

        Examples
        --------
        >>> HexGrid(3, 2).contains([0, 2, 3], 1)
        array([ True,  True, False])
        """
        c, r = _ints(col, "contains col"), _ints(row, "contains row")
        return _out((c >= 0) & (c < self.width) & (r >= 0) & (r < self.height))

    def neighbours(self, col: int, row: int) -> list[tuple[int, int]]:
        """The hexes on the map next to hex ``(col, row)`` (up to 6).

        In order clockwise on screen from the first at or clockwise of due
        east: E, SE, SW, W, NW, NE for pointy-top hexes; SE, S, SW, NW, N, NE
        for flat-top. Those off the map are left out.

        Examples
        --------
        >>> g = HexGrid(3, 3)                    # odd-r: row 1 is shoved right
        >>> g.neighbours(1, 1)
        [(2, 1), (2, 2), (1, 2), (0, 1), (1, 0), (2, 0)]
        >>> g.neighbours(0, 0)
        [(1, 0), (0, 1)]
        """
        q, r = self._axial(_ints(col, "neighbours col"), _ints(row, "neighbours row"))
        cols, rows = self._offset_of(q + _STEPS[:, 0], r + _STEPS[:, 1])
        on = self.contains(cols, rows)
        return [(int(c), int(w)) for c, w, o in zip(cols, rows, on, strict=True) if o]

    def step(self, col: ArrayLike, row: ArrayLike, k: int) -> tuple[Ints, Ints]:
        """The ``k``-th neighbour of each hex ``(col, row)``, in :meth:`neighbours`' order (0-5), on the map or not.

        Examples
        --------
        >>> g = HexGrid(3, 3)
        >>> g.step(1, 1, 0), g.step([0, 0], [0, 1], 3)
        ((2, 1), (array([-1, -1]), array([0, 1])))
        """
        if isinstance(k, bool) or not isinstance(k, Integral) or not 0 <= k < 6:
            raise InvalidValueError(f"step k must be a neighbour's number 0-5, got {shown(k)}")
        q, r = self._axial(_ints(col, "step col"), _ints(row, "step row"))
        c, w = self._offset_of(q + _STEPS[k, 0], r + _STEPS[k, 1])
        return _out(c), _out(w)

    def line(self, a: Any, b: Any) -> list[tuple[int, int]]:
        """The hexes along the straight line from the centre of ``a`` to that of ``b``.

        ``distance(a, b) + 1`` hexes from ``a`` to ``b``, each a neighbour of
        the one before: the cube point at ``i / N`` of the way is rounded to
        its hex. Where the line runs along an edge (or through a corner)
        between hexes, both ends are nudged by ``(1e-6, 2e-6, -3e-6)`` in cube
        ``(q, r, s)`` first, as Red Blob does: on screen the nudge points right
        and down, so the hex on that side of the edge is taken. A line along
        the map's staggered edge can so take a hex just off the map.

        Examples
        --------
        >>> g = HexGrid(5, 5)
        >>> g.line((0, 0), (3, 2))
        [(0, 0), (0, 1), (1, 1), (2, 2), (3, 2)]
        >>> g.line((0, 0), (0, 2))                 # along edges: the nudge takes the right side
        [(0, 0), (0, 1), (0, 2)]
        """
        qa, ra = (v.item() for v in self._axial(*_scalar_pair(a, "line a")))
        qb, rb = (v.item() for v in self._axial(*_scalar_pair(b, "line b")))
        n = max(abs(qa - qb), abs(ra - rb), abs(qa + ra - qb - rb))
        t = np.linspace(0.0, 1.0, n + 1)
        starts, stops = (qa, ra, -qa - ra), (qb, rb, -qb - rb)
        ends = [(u + e, v + e) for u, v, e in zip(starts, stops, _NUDGE, strict=True)]
        qf, rf, sf = (u + (v - u) * t for u, v in ends)
        cols, rows = self._offset_of(*_cube_round(qf, rf, sf))
        return [(int(c), int(w)) for c, w in zip(cols, rows, strict=True)]

    def rotate(self, hex: Any, about: Any, steps: int) -> tuple[Ints, Ints]:
        """Hex ``hex`` turned about hex ``about`` by ``steps`` times 60 degrees.

        Positive ``steps`` turn counter-clockwise as seen on screen (y down),
        negative clockwise; 6 steps are a full turn. ``hex``'s parts may be
        arrays. The result may be off the map.

        Examples
        --------
        >>> g = HexGrid(5, 5)
        >>> g.rotate((3, 2), about=(2, 2), steps=1)      # east of (2, 2) to its north-east
        (2, 1)
        >>> g.rotate((3, 2), about=(2, 2), steps=-1)     # ... or its south-east
        (2, 3)
        """
        if isinstance(steps, bool) or not isinstance(steps, Integral):
            raise InvalidTypeError(f"rotate steps must be a whole number, got {shown(steps)}")
        q, r = self._axial(*_pair(hex, "rotate hex"))
        cq, cr = self._axial(*_pair(about, "rotate about"))
        dq, dr = q - cq, r - cr
        ds = -dq - dr
        # One step counter-clockwise on screen is (q, r, s) -> (-s, -q, -r) (E to NE).
        for _ in range(int(steps) % 6):
            dq, dr, ds = -ds, -dq, -dr
        col, row = self._offset_of(*np.broadcast_arrays(cq + dq, cr + dr))
        return _out(col), _out(row)

    # -- creatures ----------------------------------------------------------------------------

    def footprint(self, col: int, row: int, n: int) -> list[tuple[int, int]]:
        """The hexes a creature ``n`` hexes across fills, standing on hex ``(col, row)``.

        The 5e DMG's hex sizes (p. 251: Large 3 hexes, Huge 7, Gargantuan 12)
        and Foundry's hexagonal token shapes: an odd ``n = 2k + 1`` fills the
        hexes within ``k`` steps of ``(col, row)`` (1, 7, 19, ...); an even
        ``n = 2k`` the three hexes meeting at one corner of ``(col, row)``
        (its bottom corner for pointy-top hexes, its right corner for
        flat-top: the hex and the two below it, or to its right) and every
        hex within ``k - 1`` steps of them (3, 12, 27, ...). Hexes off the
        map are listed too, in row then column order.

        Examples
        --------
        >>> g = HexGrid(6, 6)
        >>> g.footprint(2, 2, 1), g.footprint(2, 2, 2)
        ([(2, 2)], [(2, 2), (1, 3), (2, 3)])
        >>> len(g.footprint(2, 2, 3)), len(g.footprint(2, 2, 4)), len(g.footprint(2, 2, 5))
        (7, 12, 19)
        """
        n = count(n, "footprint n")
        q, r = (int(v) for v in self._axial(_ints(col, "footprint col"), _ints(row, "footprint row")))
        if n % 2:
            seeds, k = [(q, r)], n // 2
        else:
            # The hex and the two sharing its bottom (pointy) or right (flat) corner.
            pair = ((0, 1), (-1, 1)) if self._pointy else ((1, 0), (1, -1))
            seeds, k = [(q, r)] + [(q + dq, r + dr) for dq, dr in pair], n // 2 - 1
        cells = {
            (sq + dq, sr + dr)
            for sq, sr in seeds
            for dq in range(-k, k + 1)
            for dr in range(max(-k, -dq - k), min(k, -dq + k) + 1)
        }
        qs, rs = np.array(sorted(cells), dtype=np.int64).T
        cols, rows = self._offset_of(qs, rs)
        return sorted(zip(cols.tolist(), rows.tolist(), strict=True), key=lambda h: (h[1], h[0]))

    def footprint_center(self, col: int, row: int, n: int) -> tuple[float, float]:
        """The centre of :meth:`footprint`: hex ``(col, row)``'s centre for odd ``n``, the shared corner for even.

        Examples
        --------
        >>> g = HexGrid(6, 6)
        >>> g.footprint_center(2, 2, 3) == g.center(2, 2), g.footprint_center(2, 2, 2)
        (True, (2.5, 2.8867513459481287))
        """
        n = count(n, "footprint n")
        cx, cy = self.center(col, row)
        if n % 2:
            return cx, cy
        dx, dy = (0.0, CIRCUMRADIUS) if self._pointy else (CIRCUMRADIUS, 0.0)
        return cx + dx, cy + dy

    # -- masks --------------------------------------------------------------------------------

    def _steps_from(self, center: Any, field: str) -> NDArray[np.int64]:
        """The distance from hex ``center`` to every hex of the map, shape ``(height, width)``."""
        rows, cols = np.indices(self.shape, dtype=np.int64)
        return np.asarray(self.distance(_scalar_pair(center, field), (cols, rows)))

    def hexes_within(self, center: Any, n: int) -> NDArray[np.bool_]:
        """Mask of the hexes at most ``n`` steps from hex ``center`` (a disk).

        ``center`` may be off the map; a disk wholly on it has
        ``3 n (n + 1) + 1`` hexes.

        Examples
        --------
        >>> g = HexGrid(7, 5)                     # odd-r: odd rows drawn shoved right
        >>> m = g.hexes_within((3, 2), 2)
        >>> for row, hexes in enumerate(m.astype(int)):
        ...     print(" " * (row % 2) + " ".join(map(str, hexes)))
        0 0 1 1 1 0 0
         0 1 1 1 1 0 0
        0 1 1 1 1 1 0
         0 1 1 1 1 0 0
        0 0 1 1 1 0 0
        >>> int(m.sum())
        19
        """
        return self._steps_from(center, "hexes_within center") <= count(n, "hexes_within n", 0)

    def ring(self, center: Any, n: int) -> NDArray[np.bool_]:
        """Mask of the hexes exactly ``n`` steps from hex ``center``.

        ``n = 0`` is ``center`` alone; a ring wholly on the map has ``6 n`` hexes.

        Examples
        --------
        >>> g = HexGrid(5, 5, orientation="flat")  # odd-q: odd columns shoved down
        >>> print(g.ring((2, 2), 1).astype(int))
        [[0 0 0 0 0]
         [0 1 1 1 0]
         [0 1 0 1 0]
         [0 0 1 0 0]
         [0 0 0 0 0]]
        """
        return self._steps_from(center, "ring center") == count(n, "ring n", 0)


def _scalar_pair(value: Any, field: str) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """A ``(col, row)`` pair of single whole numbers."""
    col, row = _pair(value, field)
    if col.ndim or row.ndim:
        raise InvalidTypeError(f"{field} must be one (col, row) hex, got arrays: {shown(value)}")
    return col, row
