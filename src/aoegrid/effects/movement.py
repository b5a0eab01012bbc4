"""Movement by the rules: how far a creature walks, and every square it can reach.

Paths follow the rule spreads use (:mod:`aoegrid.board.spread`): steps from
square centre to square centre, orthogonal steps cost one square, diagonal
steps follow the preset's diagonal rule (5/10/5 alternates one and two
squares, counted over the whole move), and a step that meets a wall
blocking movement (touching, or missing it by under 1e-9 squares) is barred,
but where the rules let a diagonal pass a wall's corner (below). Walls block
movement as :meth:`aoegrid.Wall.blocks_channel` says: a closed
door and a window do, an open door does not.

On top of that, each preset's movement rules (:class:`aoegrid.Rules`):

* **Terrain** (``BattleMap(..., terrain=)``): a step costs what the kind of
  square it enters costs (``Rules.terrain_cost``, :class:`~aoegrid.geometry.options.TerrainCost`):
  Starfinder and Pathfinder 1e 2 squares straight and 3 diagonally in
  difficult terrain, 4 and 6 in greater difficult; Pathfinder 2e the step's
  cost plus 5 ft (greater: 10 ft), not increased for diagonals; 5e and Savage
  Worlds the step's cost doubled, not cumulative. Impassable squares cannot
  be entered.
* **Corners** (``Rules.corners``, :class:`~aoegrid.geometry.options.CornerRule`):
  under Starfinder no diagonal step passes a wall's corner (nor an
  impassable square's); under Pathfinder 2e, 5e and Savage Worlds it may,
  but never squeezes between walls (or impassable squares) meeting at a
  corner.
* **Creatures** (:func:`reachable` only): a creature moves through the
  spaces of creatures not hostile to it and not through hostile ones'
  (``Rules.through``, ``through=``), never ends its move in another's
  space, and under 5e pays for another creature's space as difficult
  terrain.
* **Heights**: a creature moves at its own elevation (it keeps it as it
  moves: no climbing, nor flying up or down, is modelled), filling the
  heights of its prism, ``(low, high) = token.prism(grid.square)``
  (:meth:`aoegrid.Token.prism`). A wall blocks its movement only when the
  wall's span meets that prism strictly, ``wall.bottom < high`` and
  ``wall.top > low`` (:meth:`aoegrid.BattleMap.walls_meeting`): a 3-ft
  parapet (``top=3``) blocks a Medium creature on the ground (0 to 5 ft)
  but not one flying at 10 ft; a beam with ``bottom=10`` does not block it;
  a creature at 10 ft standing on a 10-ft wall is not in it (``top ==
  low``). Floors do not block moving across. A square (or Space) given as
  the mover stands for the map's creature there, else for one on the
  ground as tall as its space is wide; :func:`path_distance` from a square
  moves a ground creature one square tall. Walls of every height (the
  default) block every creature, as in two dimensions.
* **Size**: a creature moves as its whole space. A position is open to it
  when no square of its space is impassable (or a blocking creature's) and
  no wall blocking movement runs through a square's centre or between two
  of its squares; a step is open when every square's own step is. It pays
  for the costliest square of the space it moves into (``Rules.space_cost``,
  :class:`~aoegrid.geometry.options.SpaceCost`; ``"entered"``: of the squares newly
  entered).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any, cast, overload

import numpy as np
import shapely
from numpy.typing import NDArray

from aoegrid.board._paths import STEP_DX, STEP_DY, cheapest_paths, shortest_paths
from aoegrid.board.battlemap import BattleMapCore
from aoegrid.board.spread import step_costs
from aoegrid.board.walls import Channel
from aoegrid.errors import InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.geometry._kernels import run
from aoegrid.geometry._validate import non_negative, shown
from aoegrid.geometry.grid import Grid
from aoegrid.geometry.lattice import answer
from aoegrid.geometry.options import CornerRule, SpaceCost, Terrain, Through, parse_option
from aoegrid.geometry.raster import Window
from aoegrid.geometry.regions import EPS
from aoegrid.geometry.rules import Rules, resolve_rules
from aoegrid.geometry.tokens import Selector, Space, Token, hostile, token_selector

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
Square = tuple[int, int]
#: Who is hostile to the mover: tags (one, or a set), a predicate on tokens, or the tokens.

_IMPASSABLE = Terrain.IMPASSABLE.code


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


def _ground(m: object) -> tuple[Grid, BattleMapCore | None]:
    """The grid of ``m`` and the map itself (None for a bare Grid: open field)."""
    if isinstance(m, BattleMapCore):
        return m.grid, m
    if isinstance(m, Grid):
        return m, None
    raise InvalidTypeError(f"m must be an aoegrid.BattleMap or Grid, got {shown(m)} of type {type(m).__name__}")


def _walls_for(bmap: BattleMapCore | None, prism: tuple[float, float]) -> BattleMapCore | None:
    """The map whose walls block a creature filling the heights ``prism`` (``bmap`` itself for walls of every height).

    Only its walls are to be read: it has no creatures or terrain when it is a copy.
    """
    return None if bmap is None else bmap.walls_meeting(*prism)


def _wall_steps(walls: BattleMapCore | None, window: Window, corners: CornerRule) -> NDArray[np.uint8]:
    """The steps walls blocking movement bar out of the squares of ``window`` (one-square steps), as bits.

    ``walls`` is the map of the walls the mover meets (:func:`_walls_for`).
    """
    if walls is None:
        return np.zeros(window.shape, dtype=np.uint8)
    return walls.steps(Channel.MOVEMENT, corners).window(window)


def _terrain(bmap: BattleMapCore | None, window: Window) -> NDArray[np.int8]:
    """The terrain kinds of the squares of ``window``."""
    if bmap is None or not bmap.has_terrain:
        return np.zeros(window.shape, dtype=np.int8)
    return np.asarray(bmap.terrain[window.y0 : window.y0 + window.height, window.x0 : window.x0 + window.width])


# --- a space's squares at every position -------------------------------------------------------


class _Positions:
    """Sums over the squares of a ``w`` x ``h`` space at every position it can take on a grid.

    Position (x, y) is the space's top-left square; there are ``(H - h + 1)
    x (W - w + 1)`` of them. Each question is answered for all of them at
    once from an integral image.
    """

    def __init__(self, shape: tuple[int, int], w: int, h: int) -> None:
        self.H, self.W = shape
        self.w, self.h = w, h
        self.shape = (self.H - h + 1, self.W - w + 1)

    def any(self, a: BoolArray, i0: int = 0, j0: int = 0, ww: int | None = None, hh: int | None = None) -> BoolArray:
        """Whether ``a`` holds at some square ``(x + i0 .. x + i0 + ww - 1, y + j0 .. y + j0 + hh - 1)``.

        By default the whole space; an empty block (``ww`` or ``hh`` 0) holds nowhere.
        """
        ww = self.w if ww is None else ww
        hh = self.h if hh is None else hh
        hp, wp = self.shape
        if ww <= 0 or hh <= 0 or not a.any():
            return np.zeros((hp, wp), dtype=bool)
        if ww == 1 and hh == 1:
            return a[j0 : j0 + hp, i0 : i0 + wp].copy()
        s = np.zeros((self.H + 1, self.W + 1), dtype=np.int64)
        np.cumsum(np.cumsum(a, axis=0, dtype=np.int64), axis=1, out=s[1:, 1:])
        ya, yb, xa, xb = j0, j0 + hh, i0, i0 + ww
        total = s[yb : yb + hp, xb : xb + wp] - s[ya : ya + hp, xb : xb + wp] \
            - s[yb : yb + hp, xa : xa + wp] + s[ya : ya + hp, xa : xa + wp]
        return np.asarray(total > 0)

    def max(self, kinds: NDArray[np.int8], i0: int = 0, j0: int = 0, ww: int | None = None,
            hh: int | None = None) -> NDArray[np.int8]:
        """The largest kind (0 to 3) among the same squares as :meth:`any`'s."""
        out = np.zeros(self.shape, dtype=np.int8)
        for level in (1, 2, 3):
            out += self.any(kinds >= level, i0, j0, ww, hh)
        return out


@dataclass(frozen=True)
class _Plan:
    """What the path kernel needs for one creature's size on one map, per position."""

    blocked: NDArray[np.uint8]  # (hp, wp) bits of the steps barred out of each position
    kinds: NDArray[np.int8]  # (hp wp,) or (8 hp wp,): the kind each step into a position pays for
    kstride: int
    standable: BoolArray  # (hp, wp): the space fits there (no wall through it, nothing impassable)
    end: BoolArray  # (hp, wp): it may end there (standable, no other creature's space)


def _plan(
    rules: Rules,
    walls: NDArray[np.uint8],
    terrain: NDArray[np.int8],
    size: tuple[int, int],
    passable: BoolArray | None = None,
    blocking: BoolArray | None = None,
) -> _Plan:
    """The steps and step costs of a ``size`` (w, h) space on a map, for the path kernel.

    ``walls`` are the one-square steps walls bar (bits), ``terrain`` the
    kinds; ``passable`` and ``blocking`` the squares of creatures the mover
    may pass through, and may not.
    """
    w, h = size
    pos = _Positions(terrain.shape, w, h)
    impassable = terrain == _IMPASSABLE
    # What a step pays for, square by square: the terrain, and 5e's creatures.
    kinds = terrain
    if passable is not None and rules.creatures_difficult and passable.any():
        kinds = np.where(passable & (terrain == 0), np.int8(1), terrain).astype(np.int8)
    occupied = impassable if blocking is None else impassable | blocking
    # A space is whole when no wall bars a step between two of its squares (a
    # wall through a square's centre bars every step out of it). A one-square
    # space has no such steps: a square whose centre lies on a wall is never
    # entered, every step into it touching the wall.
    standable = ~pos.any(occupied)
    barred = np.zeros(pos.shape, dtype=np.uint8)
    for k in range(8):
        dx, dy = STEP_DX[k], STEP_DY[k]
        bit = (walls >> k) & 1 == 1
        inner = pos.any(bit, max(0, -dx), max(0, -dy), w - abs(dx), h - abs(dy))
        standable &= ~inner
        barred |= pos.any(bit).astype(np.uint8) << k
    barred |= _corner_bits(impassable, pos, rules.corners)
    end = standable.copy()
    if passable is not None:
        end &= ~pos.any(passable)
    if rules.space_cost is SpaceCost.ENTERED and (w > 1 or h > 1):
        per_step = np.empty((8, *pos.shape), dtype=np.int8)
        for k in range(8):
            dx, dy = STEP_DX[k], STEP_DY[k]
            entered = np.zeros(pos.shape, dtype=np.int8)
            if dx:  # the column the step brings in
                entered = np.maximum(entered, pos.max(kinds, w - 1 if dx > 0 else 0, 0, 1, h))
            if dy:  # the row
                entered = np.maximum(entered, pos.max(kinds, 0, h - 1 if dy > 0 else 0, w, 1))
            per_step[k] = np.where(standable, entered, np.int8(_IMPASSABLE))
        return _Plan(barred, per_step.ravel(), pos.shape[0] * pos.shape[1], standable, end)
    whole = np.where(standable, pos.max(kinds), np.int8(_IMPASSABLE)).astype(np.int8)
    return _Plan(barred, whole.ravel(), 0, standable, end)


def _corner_bits(impassable: BoolArray, pos: _Positions, rule: CornerRule) -> NDArray[np.uint8]:
    """Diagonal steps barred by the impassable squares they pass, as bits per position.

    A diagonal step of a ``w`` x ``h`` space passes two squares that neither
    its old nor its new space holds (for one square stepping south-east from
    (x, y): (x + 1, y) and (x, y + 1)). ``blocked``: either impassable bars
    it; ``allowed``: both.
    """
    hp, wp = pos.shape
    out = np.zeros((hp, wp), dtype=np.uint8)
    if not impassable.any():
        return out
    pad = np.zeros((pos.H + 2, pos.W + 2), dtype=bool)
    pad[1:-1, 1:-1] = impassable
    w, h = pos.w, pos.h
    for k in range(4, 8):
        dx, dy = STEP_DX[k], STEP_DY[k]
        # The column only the new space reaches, the row only the old one holds; and the other way round.
        a = (w if dx > 0 else -1, 0 if dy > 0 else h - 1)
        b = (0 if dx > 0 else w - 1, h if dy > 0 else -1)
        one = pad[1 + a[1] : 1 + a[1] + hp, 1 + a[0] : 1 + a[0] + wp]
        two = pad[1 + b[1] : 1 + b[1] + hp, 1 + b[0] : 1 + b[0] + wp]
        hit = (one | two) if rule is CornerRule.BLOCKED else (one & two)
        out |= hit.astype(np.uint8) << k
    return out


def _search(rules: Rules, plan: _Plan, start: FloatArray, paths: bool, limit: float = np.inf) -> Any:
    """Run the path kernel over ``plan``'s positions from ``start`` (squares' costs, ``inf`` elsewhere)."""
    hp, wp = plan.blocked.shape
    layers, table = step_costs(rules.diagonals, rules.terrain_cost)
    return run(
        cheapest_paths if paths else shortest_paths,
        layers * hp * wp,
        np.ascontiguousarray(start, dtype=np.float64),
        np.zeros(hp * wp, dtype=np.int8),
        np.ascontiguousarray(plan.blocked, dtype=np.uint8),
        np.ascontiguousarray(plan.kinds, dtype=np.int8),
        plan.kstride,
        table,
        hp,
        wp,
        layers,
        float(limit),
    )


# --- path_distance -----------------------------------------------------------------------------


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
    """How far a creature moves from ``start`` to ``end``, around walls and through terrain, under ``rules``.

    A one-square walker's movement cost: on open ground the path length
    (every preset's diagonal rule), with terrain what moving costs (see this
    module's docstring). For a creature's whole space, its size, and the
    creatures in its way, see :func:`reachable`.

    Parameters
    ----------
    m : BattleMap or Grid
        Its walls blocking movement bar the way, its terrain costs what the
        rules say (a Grid is open field). Creatures on the map do not: the
        path is the ground's.
    start, end : (x, y) square or Token
        Squares as whole numbers ``(x, y)``; a creature (or a
        :class:`~aoegrid.Space`) stands for the squares of its space: the
        path starts from any of them and ends on the nearest, so an
        adjacent creature is one square away. The walls barring the way
        are those meeting the heights the walker fills (see this module's
        docstring): a Token ``start``'s prism (:meth:`aoegrid.Token.prism`,
        at its elevation), else the ground, one square tall ``(0,
        grid.square)``.
    rules : Rules or str
        Whose diagonal rule counts the diagonal steps
        (:attr:`Rules.diagonals`: 5/10/5 under Starfinder and Pathfinder,
        every diagonal one square under 5e and Savage Worlds), what
        difficult terrain costs (:attr:`Rules.terrain_cost`) and whether a
        diagonal may pass a wall's corner (:attr:`Rules.corners`).

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
    >>> ag.path_distance(m, m.token("a"), m.token("b"), rules="sw5e")   # every diagonal 5 ft, round the corners
    50.0
    >>> ag.path_distance(m, (1, 1))[5]   # the bottom row; inf in the walls
    array([inf, 65., 60., 55., 50., 45., 45., 45., inf])
    >>> low = ag.BattleMap(ag.Grid(5, 1), walls=[ag.Wall((2, 0), (2, 1), top=3)])   # a 3-ft parapet across
    >>> ag.path_distance(low, (0, 0), (4, 0)), ag.path_distance(low, ag.Token(0, 0, elevation=10), (4, 0))
    (inf, 20.0)
    >>> mud = ag.read_text_map("a~^~.")   # difficult, greater difficult, difficult
    >>> [ag.path_distance(mud, (0, 0), (4, 0), rules=r) for r in ("starfinder", "pf2e", "sw5e")]
    [45.0, 40.0, 35.0]
    """
    hexes = answer(m, "path_distance")
    if hexes is not None:
        return hexes(m, start, end)
    grid, bmap = _ground(m)
    rules = resolve_rules(rules)
    first = _space(start, "start", grid)
    last = None if end is None else _space(end, "end", grid)
    whole = Window(0, 0, grid.width, grid.height)
    prism = start.prism(grid.square) if isinstance(start, Token) else (0.0, grid.square)
    plan = _plan(rules, _wall_steps(_walls_for(bmap, prism), whole, rules.corners), _terrain(bmap, whole), (1, 1))
    costs = np.full((grid.height, grid.width), np.inf)
    costs[first.y : first.y + first.height, first.x : first.x + first.width] = 0.0
    # The path kernel's plan takes no square for a place to stand or not:
    # one-square steps barred by walls and impassable squares bar the way.
    squares = np.asarray(_search(rules, plan, costs, paths=False), dtype=np.float64).reshape(grid.height, grid.width)
    out = squares * grid.square
    if last is None:
        return out
    return float(out[last.y : last.y + last.height, last.x : last.x + last.width].min())


# --- reachable ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Reach:
    """Where a creature's space can end its move, what it costs to get there, and how.

    Positions are the top-left square of the creature's space, as
    :attr:`aoegrid.Token.x` and ``y`` are (for a one-square creature, its
    square).

    Attributes
    ----------
    cost : (height, width) float array
        Indexed ``[y, x]``: the least movement, in the grid's unit (feet;
        inches on Savage Worlds' grid), for the space to end with its
        top-left square at (x, y); ``inf`` where it cannot end (no path, a
        wall or impassable square in the space, another creature's space),
        where the space would leave the map, and beyond the budget (the
        search stops there: its cost follows the budget, not the map). 0 at
        the start. Call again with a larger budget for farther costs.
    mask : (height, width) bool array
        ``cost <= budget`` (up to 1e-9 of rounding, for euclidean
        diagonals): the positions it can reach with this move.
    budget : float
        The movement spent at most, in the grid's unit.
    start : (x, y)
        The creature's position.
    footprint : (width, height)
        Its space, in squares.
    rules : Rules
    """

    cost: FloatArray
    mask: BoolArray
    budget: float
    start: Square
    footprint: tuple[int, int]
    rules: Rules
    _layers: FloatArray = field(repr=False)  # (layers, hp, wp) costs in squares, over the positions searched
    _pred: NDArray[np.int32] = field(repr=False)  # (layers hp wp,) the node each came from
    _offset: Square = field(repr=False)  # the first position searched

    @property
    def squares(self) -> list[Square]:
        """The positions within the budget, sorted by y, then x (the start among them)."""
        ys, xs = np.nonzero(self.mask)
        return [(int(x), int(y)) for y, x in zip(ys, xs)]

    def __len__(self) -> int:
        return int(np.count_nonzero(self.mask))

    def __contains__(self, square: object) -> bool:
        try:
            x, y = cast(tuple[Any, Any], square)
            x, y = int(x), int(y)
        except (TypeError, ValueError):
            return False
        height, width = self.mask.shape
        return 0 <= x < width and 0 <= y < height and bool(self.mask[y, x])

    def path(self, x: int, y: int) -> list[Square]:
        """One cheapest path from :attr:`start` to position (x, y), both included, one step apart.

        Each item is the space's top-left square after a step. The path may
        pass through allies' spaces and cost more than :attr:`budget` (see
        :attr:`cost`); it is the same path every time.

        Raises
        ------
        InvalidTypeError
            ``x`` or ``y`` not a whole number.
        OffGridError
            (x, y) not on the map.
        InvalidValueError
            The space cannot end at (x, y): no path reaches it, or it is no
            place to stop (the message says which).

        Examples
        --------
        >>> import aoegrid as ag
        >>> r = ag.reachable((0, 0), 30, on=ag.Grid(6, 3))
        >>> r.path(4, 2), float(r.cost[2, 4])   # two steps east, two diagonals (5 + 10 ft)
        ([(0, 0), (1, 0), (2, 1), (3, 1), (4, 2)], 25.0)
        """
        height, width = self.mask.shape
        for name, v in (("x", x), ("y", y)):
            if isinstance(v, bool) or not isinstance(v, Integral):
                raise InvalidTypeError(f"Reach.path {name} must be a whole number (a square), got {shown(v)}")
        x, y = int(x), int(y)
        if not (0 <= x < width and 0 <= y < height):
            raise OffGridError(
                f"Reach.path square ({x}, {y}) is not on the {width} x {height} map "
                f"(squares x 0 to {width - 1}, y 0 to {height - 1})"
            )
        _, hp, wp = self._layers.shape
        ox, oy = self._offset
        if not np.isfinite(self.cost[y, x]):
            w, h = self.footprint
            inside = 0 <= x - ox < wp and 0 <= y - oy < hp
            if x + w > width or y + h > height:
                why = f"its {w} x {h} space would leave the map there"
            elif inside and np.isfinite(self._layers[:, y - oy, x - ox]).any():
                why = "it cannot end there: another creature's space"
            else:
                why = (f"no path within {self.budget:g} reaches it (walls, impassable terrain, creatures, or "
                       "the distance)")
            raise InvalidValueError(f"no move from {self.start} ends at ({x}, {y}): {why}")
        layer = int(np.argmin(self._layers[:, y - oy, x - ox]))
        node = layer * hp * wp + (y - oy) * wp + (x - ox)
        out = []
        while node >= 0:
            cell = node % (hp * wp)
            out.append((cell % wp + ox, cell // wp + oy))
            node = int(self._pred[node])
        return out[::-1]

    def to_text(self) -> str:
        """The cost of every position within the budget, in the grid's unit; ``.`` elsewhere.

        Examples
        --------
        >>> import aoegrid as ag
        >>> print(ag.reachable((1, 1), 10, on=ag.Grid(4, 3)).to_text())
         5  5  5 10
         5  0  5 10
         5  5  5 10
        """
        cells = [[f"{c:g}" if ok else "." for c, ok in zip(row, mask)]
                 for row, mask in zip(self.cost.tolist(), self.mask.tolist())]
        width = max(2, *(len(c) for row in cells for c in row))
        return "\n".join(" ".join(c.rjust(width) for c in row) for row in cells)

    def __repr__(self) -> str:
        return (f"<Reach from {self.start} with {self.budget:g} under {self.rules.name}: "
                f"{len(self)} position{'' if len(self) == 1 else 's'}>")


def reachable(
    creature: Token | Space | Square,
    budget: float,
    on: BattleMapCore | Grid,
    rules: Rules | str = "starfinder",
    *,
    through: Through | str | None = None,
    enemies: Selector = None,
) -> Reach:
    """Every position a creature's space can end its move on with ``budget`` of movement.

    Parameters
    ----------
    creature : Token, Space or (x, y)
        The mover: a token (its space moves as a whole, its tags say whose
        side it is on), or a square (a one-square creature there; the map's
        token standing on exactly that square, if any, is taken to be it).
        It must stand on the map, clear of walls and impassable terrain. It
        moves at its elevation: the walls blocking it are those meeting its
        prism, ``wall.bottom < high`` and ``wall.top > low`` for ``(low,
        high) = token.prism(grid.square)`` (a square with no token on it:
        a creature on the ground as tall as its space is wide).
    budget : float
        Its movement, in the grid's unit (feet; inches under Savage Worlds),
        0 or more.
    on : BattleMap or Grid
        Walls blocking movement (those meeting the creature's heights),
        terrain (``BattleMap(..., terrain=)``) and creatures (a Grid is
        open field). Floors do not block moving across.
    rules : Rules or str
        The preset: how diagonals count, what terrain costs, whether a
        diagonal may pass a wall's corner, what a large creature pays, whose
        spaces it moves through (see ``aoegrid.effects.movement``, and the
        README's table).
    through : str, optional
        Overrides :attr:`Rules.through`: ``"allies"`` (the spaces of
        creatures not hostile to the mover are passable, hostile ones' not),
        ``"all"`` or ``"none"``. The creature itself never blocks itself
        (the same token, or an equal one), and no creature ends its move in
        another's space.
    enemies : tags, predicate or tokens, optional
        Who is hostile to the mover: a tag (or a set of tags), a predicate
        on tokens, or the tokens. By default, by their tags: a creature
        tagged ``"ally"`` or ``"friendly"`` and one tagged ``"enemy"`` or
        ``"hostile"`` are hostile to each other (Foundry's dispositions are
        read as these tags); a creature with neither is hostile to no one.

    Returns
    -------
    Reach
        ``.cost`` (every position's cost within the budget, ``inf``
        elsewhere), ``.mask`` (those positions), ``.path(x, y)`` (one
        cheapest path). The search covers the positions within the budget
        of the start, so its cost follows the budget, not the map.

    Raises
    ------
    InvalidValueError
        ``budget`` negative or not finite; the creature inside a wall
        meeting its prism or on impassable terrain; rules measured in
        another unit than the grid's.
    OffGridError
        The creature not wholly on the map.
    InvalidTypeError
        ``on`` neither a BattleMap nor a Grid; a square not whole numbers;
        ``enemies`` of another kind.

    Examples
    --------
    >>> import aoegrid as ag
    >>> kira = ag.Token(1, 1, name="Kira", tags={"ally"})
    >>> orc = ag.Token(3, 1, name="orc", tags={"enemy"})
    >>> mud = [(0, 2), (4, 2), (4, 4), (0, 4)]                 # the squares x 0..3, y 2..3
    >>> m = ag.BattleMap(ag.Grid(6, 4), tokens=[kira, orc], terrain={"difficult": mud})
    >>> r = ag.reachable(kira, 20, on=m)   # Starfinder: mud 10 ft a square, 15 diagonally; not through the orc
    >>> print(r.to_text())
     5  5  5 10 15 20
     5  0  5  . 20  .
    15 10 15 20  .  .
     . 20  .  .  .  .
    >>> r.path(4, 1)                       # round the orc: 5 + 5 + 10 ft
    [(1, 1), (2, 1), (3, 0), (4, 1)]
    >>> print(ag.reachable(kira, 20, on=m, rules="pf2e").to_text())   # +5 ft a square of mud
     5  5  5 10 15 20
     5  0  5  . 20  .
    10 10 10 15 20  .
    20 20 20  .  .  .
    """
    hexes = answer(on, "reachable")
    if hexes is not None:
        return hexes(on, creature, budget, rules, through=through, enemies=enemies)
    grid, bmap = _ground(on)
    rules = resolve_rules(rules)
    budget = non_negative(budget, "reachable budget")
    if rules.units is not None and rules.units != grid.units:
        raise InvalidValueError(
            f"{rules.name} rules measure in {rules.units!r} but the grid is in {grid.units!r} "
            f"({grid.square:g} {grid.units} a square); make the grid in the same unit, "
            f"e.g. aoegrid.Grid({grid.width}, {grid.height}, units={rules.units!r})"
        )
    space = _space(creature, "creature", grid)
    how = rules.through if through is None else parse_option(Through, through, "through")
    tokens = () if bmap is None else bmap.tokens
    mover = _mover(creature, space, tokens)
    is_enemy = _selector(enemies, mover)
    # Every step costs a square or more and moves the space a square at most:
    # the search needs only the positions within the budget's squares.
    limit = budget / grid.square + 1e-9 * max(1.0, budget / grid.square)  # room for euclidean sums
    reach = int(np.floor(limit))
    w, h = space.width, space.height
    px0, py0 = max(space.x - reach, 0), max(space.y - reach, 0)
    px1, py1 = min(space.x + reach, grid.width - w), min(space.y + reach, grid.height - h)
    window = Window(px0, py0, px1 - px0 + w, py1 - py0 + h)
    # The walls its prism meets: its own, else its token's on the map, else a ground creature's.
    prism = mover.prism(grid.square) if mover is not None else (0.0, w * grid.square)
    walled = _walls_for(bmap, prism)
    walls = _wall_steps(walled, window, rules.corners)
    terrain = _terrain(bmap, window)
    _check_start(creature, space, window, walls, terrain, walled)
    passable = np.zeros(window.shape, dtype=bool)
    blocking = np.zeros_like(passable)
    for t in tokens:
        if t is mover or (mover is not None and t == mover):
            continue
        s = t.space
        x0, x1 = max(s.x, window.x0) - window.x0, min(s.x + s.width, window.x0 + window.width) - window.x0
        y0, y1 = max(s.y, window.y0) - window.y0, min(s.y + s.height, window.y0 + window.height) - window.y0
        if x0 < x1 and y0 < y1:
            blocks = how is Through.NONE or (how is Through.ALLIES and is_enemy(t))
            (blocking if blocks else passable)[y0:y1, x0:x1] = True
    plan = _plan(rules, walls, terrain, (w, h), passable, blocking)
    hp, wp = plan.blocked.shape
    start = np.full((hp, wp), np.inf)
    start[space.y - py0, space.x - px0] = 0.0
    dist, pred = _search(rules, plan, start, paths=True, limit=limit)
    layers = np.asarray(dist, dtype=np.float64).reshape(-1, hp, wp)
    cost = np.full((grid.height, grid.width), np.inf)
    cost[py0 : py0 + hp, px0 : px0 + wp] = np.where(plan.end, layers.min(axis=0), np.inf) * grid.square
    cost[space.y, space.x] = 0.0
    mask = np.isfinite(cost)
    for a in (cost, mask, layers):
        a.setflags(write=False)
    return Reach(cost, mask, budget, (space.x, space.y), (w, h), rules, layers, np.asarray(pred, dtype=np.int32),
                 (px0, py0))


def _mover(creature: object, space: Space, tokens: Iterable[Token]) -> Token | None:
    """The token that moves: ``creature`` itself, or the map's token standing on exactly its square."""
    if isinstance(creature, Token):
        return creature
    there = [t for t in tokens if t.space == space]
    return there[0] if len(there) == 1 else None


def _selector(value: Selector, mover: Token | None) -> Callable[[Token], bool]:
    """``enemies=`` as a predicate on tokens; by default hostility by tags."""
    if value is None:
        if mover is None:
            return lambda t: False
        return lambda t: hostile(mover, t)
    return token_selector(value, "enemies")


def _check_start(creature: object, space: Space, window: Window, walls: NDArray[np.uint8],
                 terrain: NDArray[np.int8], bmap: BattleMapCore | None) -> None:
    """Refuse a creature standing on impassable terrain or inside a wall, naming where.

    ``walls`` and ``terrain`` are over the squares of ``window``; ``bmap``
    is the map of the walls the creature's prism meets (:func:`_walls_for`):
    it is inside a wall only when the wall meets its heights.
    """
    what = (creature.label if isinstance(creature, Token) else
            f"square ({space.x}, {space.y})" if space.width == space.height == 1 else
            f"space ({space.x}, {space.y}) {space.width} x {space.height}")
    ox, oy = window.x0, window.y0
    for x, y in space.squares:
        if terrain[y - oy, x - ox] == _IMPASSABLE:
            raise InvalidValueError(f"creature {what} stands on impassable terrain at square ({x}, {y})")
    if bmap is None:
        return
    x0, y0, x1, y1 = space.bounds
    segs = bmap.walls_near(Channel.MOVEMENT, (x0, y0, x1, y1)).near((x0, y0, x1, y1))[0]
    if len(segs):
        lines = shapely.linestrings(segs.reshape(-1, 2, 2))
        for x, y in space.squares:
            if (shapely.distance(lines, shapely.Point(x + 0.5, y + 0.5)) <= EPS).any():
                raise InvalidValueError(
                    f"creature {what} stands inside a wall: a wall blocking movement runs through the centre of "
                    f"square ({x}, {y})"
                )
    for x, y in space.squares:
        for k in range(8):
            nx, ny = x + STEP_DX[k], y + STEP_DY[k]
            if (walls[y - oy, x - ox] >> k) & 1 and space.x <= nx < space.x + space.width \
                    and space.y <= ny < space.y + space.height:
                raise InvalidValueError(
                    f"creature {what} stands inside a wall: a wall blocking movement runs between squares "
                    f"({x}, {y}) and ({nx}, {ny}) of its space"
                )
