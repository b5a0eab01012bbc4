"""Movement: how far a creature walks between squares around the walls.

Paths follow the rule spreads use (:mod:`aoegrid.spread`): steps from
square centre to square centre, orthogonal steps cost one square, diagonal
steps follow the preset's diagonal rule (5/10/5 alternates one and two
squares), and a step that meets a wall blocking movement (touching, or
missing it by under 1e-9 squares) is barred, so no diagonal cuts a wall's
corner. Walls block movement as :meth:`aoegrid.Wall.blocks_channel` says: a
closed door and a window do, an open door does not.
"""

from __future__ import annotations

from numbers import Integral
from typing import cast, overload

import numpy as np
from numpy.typing import NDArray

from aoegrid._validate import shown
from aoegrid.battlemap import BattleMapCore
from aoegrid.errors import InvalidTypeError, OffGridError
from aoegrid.grid import Grid
from aoegrid.raster import Window
from aoegrid.rules import Rules, resolve_rules
from aoegrid.spread import path_distance as _paths
from aoegrid.tokens import Space, Token
from aoegrid.walls import Channel

FloatArray = NDArray[np.float64]
Square = tuple[int, int]


def _space(value: object, field: str, grid: Grid) -> Space:
    """``value`` (a square or a creature) as the squares it stands on, checked to lie on the grid."""
    if isinstance(value, Token):
        space = value.space
    elif isinstance(value, Space):
        space = value
    else:
        try:
            if isinstance(value, str):  # "b2" would unpack into two characters
                raise TypeError
            x, y = cast(tuple[object, object], value)
        except (TypeError, ValueError):
            raise InvalidTypeError(
                f"{field} must be a square (x, y) of whole numbers or an aoegrid.Token, got {shown(value)}"
            ) from None
        whole = []
        for v in (x, y):
            if isinstance(v, bool) or not isinstance(v, Integral):
                # A float point names a place in a square, not the square: say which.
                raise InvalidTypeError(
                    f"{field} must be a square (x, y) of whole numbers (its column and row) or an aoegrid.Token, "
                    f"got {shown(value)}; {shown(v)} is a {type(v).__name__}"
                )
            whole.append(int(v))
        space = Space(*whole)
    x0, y0, x1, y1 = space.bounds
    if x0 < 0 or y0 < 0 or x1 > grid.width or y1 > grid.height:
        what = f"square ({space.x}, {space.y})" if space.width == space.height == 1 else (
            f"space {x0:g}..{x1:g} x {y0:g}..{y1:g}")
        raise OffGridError(
            f"{field} {what} is not on the {grid.width} x {grid.height} map "
            f"(squares x 0 to {grid.width - 1}, y 0 to {grid.height - 1})"
        )
    return space


@overload
def path_distance(m: BattleMapCore | Grid, start: Square | Token | Space, end: None = None,
                  rules: Rules | str = "starfinder") -> FloatArray: ...


@overload
def path_distance(m: BattleMapCore | Grid, start: Square | Token | Space, end: Square | Token | Space,
                  rules: Rules | str = "starfinder") -> float: ...


def path_distance(
    m: BattleMapCore | Grid,
    start: Square | Token | Space,
    end: Square | Token | Space | None = None,
    rules: Rules | str = "starfinder",
) -> FloatArray | float:
    """How far a creature moves from ``start`` to ``end``, around walls, under ``rules``.

    Parameters
    ----------
    m : BattleMap or Grid
        Its walls blocking movement bar the way (a Grid is open field).
        Creatures on the map do not: the path is the ground's.
    start, end : (x, y) square or Token
        Squares as whole numbers ``(x, y)``; a creature (or a
        :class:`~aoegrid.Space`) stands for the squares of its space: the
        path starts from any of them and ends on the nearest, so an
        adjacent creature is one square away.
    rules : Rules or str
        Whose diagonal rule counts the diagonal steps
        (:attr:`Rules.diagonals`: 5/10/5 under Starfinder and Pathfinder,
        every diagonal one square under 5e and Savage Worlds).

    Returns
    -------
    float or (height, width) float array
        With ``end``, the distance in the grid's unit (feet; inches under
        Savage Worlds' grid), ``inf`` when no path reaches it. Without it,
        the distance to every square, indexed ``[y, x]``, ``inf`` where
        unreachable.

    Raises
    ------
    InvalidTypeError
        ``m`` neither a BattleMap nor a Grid; a square not whole numbers.
    OffGridError
        A square or creature not on the map.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.read_text_map('''
    ...     #########
    ...     #a......#
    ...     ######..#
    ...     #.......#
    ...     #.......#
    ...     #b......#
    ...     #########
    ... ''')
    >>> ag.path_distance(m, m.token("a"), m.token("b"))   # 5 east, 2 south, 5 west with 2 diagonals (5 + 10 ft)
    65.0
    >>> ag.path_distance(m, m.token("a"), m.token("b"), rules="sw5e")   # every diagonal 5 ft
    60.0
    >>> ag.path_distance(m, (1, 1))[5]   # the bottom row; inf in the walls
    array([inf, 65., 60., 55., 50., 45., 45., 45., inf])
    """
    if isinstance(m, BattleMapCore):
        grid = m.grid
    elif isinstance(m, Grid):
        grid = m
    else:
        raise InvalidTypeError(f"m must be an aoegrid.BattleMap or Grid, got {shown(m)} of type {type(m).__name__}")
    diagonals = resolve_rules(rules).diagonals
    first = _space(start, "start", grid)
    last = None if end is None else _space(end, "end", grid)
    window = Window(0, 0, grid.width, grid.height)
    costs = np.full(window.shape, np.inf)
    costs[first.y : first.y + first.height, first.x : first.x + first.width] = 0.0
    blocked = m.steps(Channel.MOVEMENT).window(window) if isinstance(m, BattleMapCore) else None
    squares = _paths(window, costs, np.zeros(window.shape, dtype=np.int8), blocked, diagonals)
    out = squares * grid.square
    if last is None:
        return out
    return float(out[last.y : last.y + last.height, last.x : last.x + last.width].min())
