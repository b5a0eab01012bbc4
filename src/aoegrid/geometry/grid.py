"""The square grid a battle map is drawn on."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from aoegrid.errors import GridTooLargeError, InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import count, positive, shown_int

#: Size of one square by default, per unit: feet, inches (Savage Worlds'
#: tabletop inches), metres, and plain squares.
DEFAULT_SQUARE: dict[str, float] = {"ft": 5.0, "in": 1.0, "m": 1.5, "sq": 1.0}


#: The most memory any whole-map query takes per square, in bytes, with the
#: area's cover and path arrays read: a whole-map spread with walls is the
#: largest. ``tests/test_grid.py`` measures it and fails if a query takes more.
QUERY_BYTES_PER_SQUARE = 192


def memory_budget() -> int:
    """Bytes one query may take: half of this machine's physical memory."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        total = 16 * 2**30
    return max(int(total) // 2, 2**28)


def max_cells() -> int:
    """The most squares a grid may have: its largest query must fit in :func:`memory_budget`.

    A grid that is accepted can be queried whole (a burst, a spread or the
    line of effect over every square); a larger one is refused up front.
    """
    return memory_budget() // QUERY_BYTES_PER_SQUARE


def check_cells(width: int, height: int, kind: str, cell: str, cells_: str) -> None:
    """Refuse a ``kind`` of ``width`` x ``height`` cells (``cell``, plural ``cells_``) too large to query whole."""
    cells = width * height
    limit = max_cells()
    if cells > limit:
        w, h, n = shown_int(width), shown_int(height), shown_int(cells, ",")
        raise GridTooLargeError(
            f"a {w} x {h} {kind} has {n} {cells_}, more than the {limit:,} this machine can "
            f"query whole (a whole-map query takes up to {QUERY_BYTES_PER_SQUARE} bytes a "
            f"{cell}, and may use half of its {memory_budget() * 2 / 2**30:.0f} GiB of memory)"
        )


@dataclass(frozen=True, slots=True)
class Grid:
    """A grid of ``width`` x ``height`` squares.

    Coordinates are in grid units (squares): x grows to the right, y grows
    down. Integer ``(x, y)`` is the intersection at the top-left corner of
    square ``(x, y)``, which spans ``[x, x+1] x [y, y+1]``. Masks have shape
    ``(height, width)`` and are indexed ``mask[y, x]``.

    Parameters
    ----------
    width, height : int
        Number of squares across and down.
    square : float, optional
        Size of one square in ``units``; by default 5 for ``"ft"``, 1 for
        ``"in"``, 1.5 for ``"m"`` and 1 for ``"sq"``.
    units : str
        The unit shape sizes are given in: ``"ft"`` (default), ``"in"``,
        ``"m"``, ``"sq"``, or any other name with an explicit ``square``.

    Raises
    ------
    GridTooLargeError
        When a whole-map query on the grid would not fit in half of this
        machine's memory (``max_cells``; refused before anything is
        allocated).

    Examples
    --------
    >>> g = Grid(40, 30)
    >>> g.shape, g.square, g.units
    ((30, 40), 5.0, 'ft')
    >>> g.contains_point((40, 30)), g.contains_point((40.5, 3))
    (True, False)
    """

    width: int
    height: int
    square: float = field(default=None)  # type: ignore[assignment]
    units: str = "ft"

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "width", count(self.width, "Grid width"))
        set_(self, "height", count(self.height, "Grid height"))
        if not isinstance(self.units, str) or not self.units.strip():
            raise InvalidTypeError(f"Grid units must be a non-empty string, got {self.units!r}")
        if self.square is None:
            if self.units not in DEFAULT_SQUARE:
                raise InvalidValueError(
                    f"Grid units {self.units!r} has no default square size; pass "
                    f"square= or use one of {', '.join(map(repr, DEFAULT_SQUARE))}"
                )
            set_(self, "square", DEFAULT_SQUARE[self.units])
        else:
            set_(self, "square", positive(self.square, "Grid square"))
        check_cells(self.width, self.height, "grid", "square", "squares")

    @property
    def shape(self) -> tuple[int, int]:
        """``(height, width)``: the shape of this grid's masks."""
        return (self.height, self.width)

    def contains_point(self, p: tuple[float, float]) -> bool:
        """Whether point ``p`` lies on the grid; its border counts as on it."""
        return 0.0 <= p[0] <= self.width and 0.0 <= p[1] <= self.height

    #: What cells this lattice has (``aoegrid.geometry.lattice.Lattice``).
    kind = "square"

    @property
    def extent(self) -> tuple[float, float]:
        """``(width, height)`` of the map in map coordinates (squares)."""
        return (float(self.width), float(self.height))

    @property
    def cell_size(self) -> float:
        """One map unit (a square's side) in the grid's unit: :attr:`square`."""
        return self.square

    def to_squares(self, size: float) -> float:
        """A length in this grid's units, in squares."""
        return size / self.square
