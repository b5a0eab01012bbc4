"""The one small interface every board implements: squares, hexes and the open table.

A :class:`Lattice` says how big the map is in map coordinates, what one map
unit measures in the grid's unit, and what cells it has. Walls, visibility,
floors and tokens' geometry live in map coordinates and read only this, so
:class:`~aoegrid.BattleMap` holds any of :class:`~aoegrid.Grid`,
:class:`~aoegrid.HexGrid` and :class:`~aoegrid.Gridless`; what is counted
per cell (areas, range, movement, pictures) dispatches on :attr:`Lattice.kind`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol, TypeVar, runtime_checkable

from aoegrid.errors import InvalidValueError


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


F = TypeVar("F", bound=Callable[..., Any])

#: The functions that answer a question on each kind of board: (kind, question) -> function.
_ANSWERS: dict[tuple[str, str], Callable[..., Any]] = {}
#: The module registering each kind's answers, imported when one is first asked for.
_MODULES = {"hex": "aoegrid.hextactics"}


def answers(kind: str, question: str) -> Callable[[F], F]:
    """Register the decorated function as what answers ``question`` on boards of ``kind``.

    The square grid's functions (:func:`aoegrid.legal_origins`,
    :func:`aoegrid.reachable`, ...) stay the entry points and ask
    :func:`answer` for another board's: the modules that know hexes sit
    above them and register themselves when imported (:func:`answer`
    imports the kind's module, :data:`_MODULES`, on first need), so no lower
    layer imports a higher one and ``import aoegrid`` loads none of them.
    """

    def register(fn: F) -> F:
        _ANSWERS[(kind, question)] = fn
        return fn

    return register


def answer(on: Any, question: str) -> Callable[..., Any] | None:
    """The function answering ``question`` on ``on``'s board (a lattice, or a map's ``grid``); None on squares.

    Raises
    ------
    InvalidValueError
        When nothing answers ``question`` on that kind of board yet.

    Examples
    --------
    >>> import aoegrid as ag
    >>> answer(ag.Grid(4, 4), "reachable") is None, answer(ag.HexGrid(4, 4), "reachable").__name__
    (True, 'hex_reachable')
    """
    board = getattr(on, "grid", on)
    kind = getattr(board, "kind", "square")
    if kind == "square" or not isinstance(kind, str):
        return None
    fn = _ANSWERS.get((kind, question))
    if fn is None and kind in _MODULES:
        importlib.import_module(_MODULES[kind])
        fn = _ANSWERS.get((kind, question))
    if fn is None:
        raise InvalidValueError(f"{question} is not worked out on a {kind} map yet (it is on square grids)")
    return fn
