"""The one small interface every board implements: squares, hexes and the open table.

A :class:`Lattice` says how big the map is in map coordinates, what one map
unit measures in the grid's unit, and what cells it has. Walls, visibility,
floors and tokens' geometry live in map coordinates and read only this, so
:class:`~aoegrid.BattleMap` holds any of :class:`~aoegrid.Grid`,
:class:`~aoegrid.HexGrid` and :class:`~aoegrid.Gridless`; what is counted
per cell (areas, range, movement, pictures) dispatches on :attr:`Lattice.kind`.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Lattice(Protocol):
    """A board: squares (``kind == "square"``), hexes (``"hex"``) or none (``"gridless"``).

    Examples
    --------
    >>> import aoegrid as ag
    >>> [(g.kind, g.extent, g.cell_size) for g in (ag.Grid(4, 3), ag.HexGrid(4, 1))]
    [('square', (4.0, 3.0), 5.0), ('hex', (4.0, 1.1547005383792517), 5.0)]
    >>> isinstance(ag.HexGrid(2, 2), Lattice), isinstance("squares", Lattice)
    (True, False)
    """

    #: ``"square"``, ``"hex"`` or ``"gridless"``.
    kind: str
    #: The unit sizes are given in (``"ft"``, ``"in"``, ...).
    units: str

    @property
    def extent(self) -> tuple[float, float]:
        """``(width, height)`` of the map in map coordinates."""
        ...

    @property
    def cell_size(self) -> float:
        """How long one map unit is in :attr:`units` (5 on a 5-ft grid; 1 on the open table)."""
        ...

    def contains_point(self, p: tuple[float, float]) -> bool:
        """Whether point ``p`` lies on the map; its border counts as on it."""
        ...
