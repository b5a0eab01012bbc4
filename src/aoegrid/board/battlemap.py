"""A battle map: a grid, its walls, sight-only zones and creatures, prepared for queries.

:class:`BattleMapCore` is everything but pictures; :class:`aoegrid.maps.BattleMap`
(what ``aoegrid.BattleMap`` is) adds them on top, above the plotting layer.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import warnings
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Self, TypeVar

import numpy as np
import shapely
from numpy.typing import NDArray

from aoegrid.board._boxes import SegmentGrid, hull
from aoegrid.board.floors import Floor, area_polygon, floors_from
from aoegrid.board.spread import StepMasks
from aoegrid.board.visibility import Visibility
from aoegrid.errors import AoegridWarning, InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.geometry._validate import point, real
from aoegrid.geometry.grid import Grid
from aoegrid.geometry.gridless import Gridless, OpenToken
from aoegrid.geometry.hexgrid import HexGrid
from aoegrid.geometry.options import CornerRule, Side, parse_option
from aoegrid.geometry.raster import Window
from aoegrid.geometry.terrain import terrain_array
from aoegrid.geometry.tokens import Token

_T = TypeVar("_T")
from aoegrid.board.walls import (
    MARGIN,
    Channel,
    Wall,
    WallKind,
    WallSet,
    _alone,
    _merge,
    _node,
    _quiet,
    clip,
    line_keys,
    meets,
    oriented,
    spans_of,
    tidy,
    walls_from,
)


class BattleMapCore:
    """A grid with walls, doors, windows, sight-only zones and tokens.

    Parameters
    ----------
    grid : Grid
    walls : iterable
        :class:`Wall` objects, polylines of ``(x, y)`` points, or shapely
        lines and polygons (a polygon's outline becomes walls), in grid units.
    tokens : iterable of Token
    fog : iterable
        Sight-only obstructions (fog, darkness): shapely polygons or rings of
        ``(x, y)`` points. Their outlines block line of sight, not line of
        effect: nothing is seen into, out of or through them.
    info : optional
        What a map file said beyond walls and tokens (image, lights, source,
        notes); kept as given.
    terrain : optional
        Difficult, greater difficult and impassable ground for movement
        (:func:`aoegrid.reachable`, :func:`aoegrid.path_distance`): an
        ``(height, width)`` array of kinds (0 open, 1 difficult, 2 greater
        difficult, 3 impassable), a mapping of kinds to areas
        (``{"difficult": [polygon, ...], "impassable": mask}``) or ``(kind,
        area)`` pairs; an area is a polygon (shapely, or a ring of ``(x, y)``
        points), taking the squares whose centre it holds, or a bool mask
        of squares (see ``aoegrid.geometry.terrain``). Terrain does not block
        effects or sight: walls do.
    floors : iterable of Floor, keyword only
        Floors and ceilings (:class:`aoegrid.Floor`): horizontal polygons,
        holes allowed, at an elevation. A line crossing a floor's plane
        inside it is blocked (see ``aoegrid.board.heights``); areas and
        creatures on the ground are unchanged by a floor above or below.

    The walls are clipped to the map (one square beyond its edge), merged
    where they duplicate or overlap, split where they cross and indexed, and
    reused by every query (see :attr:`notes`). Queries prepare only the
    region of the map they read (:meth:`walls_near`), so the first query on
    a huge map costs about what later ones do.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(12, 12), walls=[ag.Wall((6, 0), (6, 12))])
    >>> a = ag.area(ag.Sphere(20), at=(4, 6), on=m)
    >>> len(a), len(ag.area(ag.Sphere(20), at=(4, 6), on=m.grid))
    (36, 44)
    """

    def __init__(
        self,
        grid: Grid | HexGrid | Gridless,
        walls: Iterable[Any] = (),
        tokens: Iterable[Token | OpenToken] = (),
        fog: Iterable[Any] = (),
        info: Any = None,
        terrain: Any = None,
        *,
        floors: Iterable[Floor] = (),
    ) -> None:
        if not isinstance(grid, (Grid, HexGrid, Gridless)):
            raise InvalidTypeError(
                f"BattleMap grid must be an aoegrid.Grid, aoegrid.HexGrid or aoegrid.Gridless, got {grid!r}"
            )
        if isinstance(grid, (HexGrid, Gridless)) and terrain is not None:
            raise InvalidValueError(
                f"terrain is read on square grids only; pass terrain=None for a map on an aoegrid.{type(grid).__name__}"
            )
        self.grid = grid
        self._terrain = terrain_array(terrain, grid) if isinstance(grid, Grid) else None
        self.walls: tuple[Wall, ...] = tuple(w for item in walls for w in walls_from(item))
        self._short_walls = tuple(w for w in self.walls if not w.infinite)
        self.tokens: tuple[Token | OpenToken, ...] = tuple(tokens)
        self.fog: tuple[shapely.Polygon, ...] = tuple(area_polygon(f, "a fog zone", valid=False) for f in fog)
        #: Floors and ceilings (:class:`~aoegrid.board.floors.Floor`): they block lines crossing their plane inside them.
        self.floors: tuple[Floor, ...] = floors_from(floors)
        #: What a map file said beyond walls and tokens (see :mod:`aoegrid.io`), or None.
        self.info = info
        fog_walls = [w for poly in self.fog for w in walls_from(poly, blocks={"sight"})]
        self._prepared = _Prepared(_Walls([*self.walls, *fog_walls], self.size, self._source))
        for t in self.tokens:
            self._check_token(t)

    @property
    def size(self) -> tuple[float, float]:
        """The map's ``(width, height)`` in map coordinates (:attr:`aoegrid.geometry.lattice.Lattice.extent`)."""
        return self.grid.extent

    @property
    def cell_size(self) -> float:
        """One map unit in the grid's unit (:attr:`aoegrid.geometry.lattice.Lattice.cell_size`): 5 on a 5-ft grid."""
        return self.grid.cell_size

    def full_walls(self, low: float, high: float) -> Self:
        """The map whose walls are those of this map spanning every height of ``[low, high]``.

        Such a wall blocks a line between two points at those heights
        wherever it crosses it, as an infinitely tall wall does: the 2D
        machinery (visibility polygons, fractions, steps) runs on them. The
        rest (:meth:`in_3d`) are tested in three dimensions. This map itself
        when every wall spans ``[low, high]`` (always, with default spans);
        otherwise a copy, without creatures or floors, kept per range.
        """
        return self._walls_where(("full walls", low, high), lambda w: w.bottom <= low and w.top >= high)

    def walls_meeting(self, low: float, high: float) -> Self:
        """The map whose walls are those of this map reaching into the heights strictly between ``low`` and ``high``.

        A wall meets ``(low, high)`` when ``bottom < high`` and ``top >
        low``: it blocks the movement of a creature filling those heights
        (its :meth:`Token.prism <aoegrid.Token.prism>`), which keeps its
        elevation as it moves (:mod:`aoegrid.effects.movement`). A wall only
        touching the span (a creature standing on a wall's top, or passing
        just under a beam) does not. Those walls are made infinitely tall,
        so that the 2D machinery (steps, :meth:`walls_near`) reads them.

        Parameters
        ----------
        low, high : float
            The heights, in the grid's unit, ``low <= high``.

        Returns
        -------
        BattleMap
            This map itself when every wall meets ``(low, high)`` (always,
            with default spans); otherwise a copy holding those walls, and
            the fog and info, but no creatures, floors or terrain (read
            those from this map), kept per span.

        Raises
        ------
        InvalidTypeError
            ``low`` or ``high`` not a number.
        InvalidValueError
            ``low`` or ``high`` not finite, or ``low`` above ``high``.

        Examples
        --------
        >>> import aoegrid as ag
        >>> m = ag.BattleMap(ag.Grid(6, 3), walls=[ag.Wall((3, 0), (3, 3), top=3), ag.Wall((0, 2), (6, 2))])
        >>> m.walls_meeting(0, 5) is m             # a Medium creature on the ground meets the 3-ft parapet
        True
        >>> [w.start for w in m.walls_meeting(10, 15).walls]   # one flying at 10 ft: only the wall of every height
        [(0.0, 2.0)]
        >>> [w.span for w in m.walls_meeting(3, 8).walls]      # one standing on the parapet's top
        [(-inf, inf)]
        """
        low, high = real(low, "walls_meeting low"), real(high, "walls_meeting high")
        if low > high:
            raise InvalidValueError(f"walls_meeting low must not be above high, got low={low:g} and high={high:g}")
        return self._walls_where(("walls meeting", low, high), lambda w: w.bottom < high and w.top > low)

    def _walls_where(self, key: Hashable, keep: Callable[[Wall], bool]) -> Self:
        """This map when ``keep`` holds for every wall; otherwise a copy of the walls it holds for, kept under ``key``.

        The copy's walls span every height; it has this map's fog and info,
        no creatures, floors or terrain (copies sharing this map's kept
        answers may differ in those).
        """
        # A wall of every height is kept by every key asked (finite heights).
        if all(keep(w) for w in self._short):
            return self

        def make() -> Self:
            walls = [w if w.infinite else dataclasses.replace(w, bottom=-math.inf, top=math.inf)
                     for w in self.walls if keep(w)]
            return type(self)(self.grid, walls, (), self.fog, self.info)

        return self.kept(key, make)

    def in_3d(self, low: float, high: float,
              channel: Channel = Channel.EFFECT) -> tuple[tuple[Wall, ...], tuple[Floor, ...]]:
        """What blocks line of effect (or ``channel``) between points at heights in ``[low, high]`` beyond
        :meth:`full_walls`.

        The walls blocking ``channel`` that span only part of ``[low, high]``,
        and the floors strictly between ``low`` and ``high`` (a line within
        ``[low, high]`` crosses no other floor's plane strictly).
        """
        if not self._short and not self.floors:
            return (), ()

        def make() -> tuple[tuple[Wall, ...], tuple[Floor, ...]]:
            walls = tuple(w for w in self._short if w.blocks_channel(channel)
                          and not (w.bottom <= low and w.top >= high) and w.bottom <= high and w.top >= low)
            return walls, tuple(f for f in self.floors if low < f.elevation < high)

        # Kept with the walls, which copies share: floors are kept by every copy but with_door's.
        return self.kept(("in 3d", low, high, Channel(channel), self.floors), make)

    @property
    def _short(self) -> tuple[Wall, ...]:
        """The walls that do not span every height."""
        return self._short_walls

    def _check_token(self, token: Token, stacklevel: int = 3) -> None:
        """Refuse a token off the map; warn about one a wall runs through.

        Only walls meeting the token's prism count (:meth:`walls_meeting`):
        a creature flying over a low wall, or standing on its top, is not
        inside it. ``stacklevel`` points the warning at the caller's line.
        """
        g = self.grid
        if isinstance(g, Gridless):
            self._check_open_token(token, g, stacklevel + 1)
            return
        if not isinstance(token, Token):
            raise InvalidTypeError(f"BattleMap tokens must be aoegrid.Token, got {token!r}")
        if isinstance(g, HexGrid):
            self._check_hex_token(token, g, stacklevel + 1)
            return
        x0, y0, x1, y1 = token.space.bounds
        if x0 < 0 or y0 < 0 or x1 > g.width or y1 > g.height:
            raise OffGridError(
                f"{token.label} (space {x0:g}..{x1:g} x {y0:g}..{y1:g}) is not wholly on the "
                f"{g.width} x {g.height} map"
            )
        inner = shapely.box(x0, y0, x1, y1).buffer(-1e-6)
        self._warn_walled(token, inner, (x0, y0, x1, y1), g.square,
                          f"space ({x0:g}..{x1:g} x {y0:g}..{y1:g})", stacklevel + 1)

    def _warn_walled(self, token: Any, inner: Any, box: tuple[float, float, float, float], unit: float,
                     what: str, stacklevel: int) -> None:
        """Warn when a wall meeting the token's height runs through ``inner``, its footprint shrunk a hair.

        ``box`` bounds the walls looked at; ``unit`` is the map's cell size
        (the token's height is counted in it); ``what`` names the footprint in
        the warning.
        """
        walls = self.walls_meeting(*token.prism(unit))
        near = walls.walls_near(Channel.MOVEMENT, box).near(inner.bounds)[0]
        if shapely.intersects(shapely.linestrings(near.reshape(-1, 2, 2)), inner).any():
            warnings.warn(
                f"{token.label} stands where a wall runs through its {what}; check the map or the token's position",
                AoegridWarning,
                stacklevel=stacklevel,
            )

    def _check_hex_token(self, token: Token, g: HexGrid, stacklevel: int) -> None:
        """:meth:`_check_token` on hexes: the footprint (:meth:`HexGrid.footprint`) on the map, no wall through it."""
        hexes = hex_footprint(g, token)
        cols, rows = np.array(hexes).T
        if not np.all(g.contains(cols, rows)):
            raise OffGridError(
                f"{token.label} (hexes {', '.join(map(str, hexes))}) is not wholly on the "
                f"{g.width} x {g.height} hex map"
            )
        corners = g.corners(cols, rows)
        cells = shapely.polygons(corners).tolist()
        inner = shapely.union_all(cells).buffer(-1e-6)
        self._warn_walled(token, inner, inner.bounds, g.size, f"hexes ({', '.join(map(str, hexes))})", stacklevel + 1)

    def _check_open_token(self, token: Any, g: Gridless, stacklevel: int) -> None:
        """:meth:`_check_token` on the open table: an :class:`OpenToken` wholly on the map, no wall through it.

        The whole footprint must lie on the map (edges included), not only
        its centre: areas, cover and best placements read all of it.
        """
        if not isinstance(token, OpenToken):
            raise InvalidTypeError(f"tokens on a gridless map must be aoegrid.OpenToken, got {token!r}")
        hw, hd = token.half_extent(g)
        if token.x - hw < 0.0 or token.y - hd < 0.0 or token.x + hw > g.width or token.y + hd > g.height:
            kind = f"a circle {2 * hw:g} across" if token.footprint.value == "circle" else f"a {2 * hw:g} x {2 * hd:g} rectangle"
            raise OffGridError(
                f"{token.label} ({kind} centred at ({token.x:g}, {token.y:g}), spanning x {token.x - hw:g}..{token.x + hw:g}, "
                f"y {token.y - hd:g}..{token.y + hd:g}) is not wholly on the {g.width:g} x {g.height:g} {g.units} map"
            )
        inner = token.geometry(g).buffer(-1e-6)
        self._warn_walled(token, inner, inner.bounds, g.square, f"footprint (centre ({token.x:g}, {token.y:g}))",
                          stacklevel + 1)

    def wallset(self, channel: Channel | str) -> WallSet:
        """The prepared walls blocking ``channel`` (split and indexed once).

        Raises
        ------
        InvalidValueError
            As :meth:`walls_near`, for the whole map.
        """
        channel = Channel(channel)
        sets = self._prepared.sets
        if channel not in sets:
            walls = list(self.walls)
            if channel is Channel.SIGHT:
                walls += [w for poly in self.fog for w in walls_from(poly, blocks={"sight"})]
            sets[channel] = WallSet.build(walls, channel, self.size, self._source)
        return sets[channel]

    @property
    def _source(self) -> str | None:
        """The file this map came from (named by errors in preparing its walls), or None."""
        return getattr(self.info, "source", None)

    def walls_near(self, channel: Channel | str, frame: tuple[float, float, float, float]) -> WallSet:
        """The prepared walls blocking ``channel`` that a query inside ``frame`` reads.

        Holds every wall of :meth:`wallset` whose box meets ``frame``, the
        same segments to the bit (so ``walls_near(c, f).near(f)`` has the
        rows of ``wallset(c).near(f)``), having prepared only the map's
        region around ``frame``: squares of :attr:`_Walls.TILE` are prepared
        together, once, and kept. Once :meth:`wallset` is built it is
        returned itself.

        Raises
        ------
        InvalidValueError
            When the walls there cross so often that their pieces would not
            fit in this machine's memory budget (see
            :func:`aoegrid.board.walls._node`); the message names the crossings,
            the budget and the map's file.

        Examples
        --------
        >>> import aoegrid as ag
        >>> m = ag.BattleMap(ag.Grid(200, 200), walls=[[(0, 5), (200, 5)], [(100, 0), (100, 200)]])
        >>> m.walls_near("effect", (90, 0, 110, 10)).near((90, 0, 110, 10))[0].tolist()
        [[0.0, 5.0, 100.0, 5.0], [100.0, 0.0, 100.0, 5.0], [100.0, 5.0, 100.0, 200.0], [100.0, 5.0, 200.0, 5.0]]
        """
        channel = Channel(channel)
        prepared = self._prepared
        if channel in prepared.sets:
            return prepared.sets[channel]
        return prepared.walls.region(channel, frame)

    def visibility(self, channel: Channel | str, origin: tuple[float, float],
                   frame: tuple[float, float, float, float]) -> Visibility:
        """The visibility of ``origin`` for ``channel`` among the walls meeting ``frame``.

        What ``walls_near(channel, frame).visibility(origin, frame)`` gives,
        kept for the map's last :data:`VIEWS_KEPT` origins: a caster's
        placements are checked from the same few points of its space, click
        after click.

        Raises
        ------
        OriginOnWallError
            If ``origin`` lies inside a wall.
        """
        channel = Channel(channel)
        return self.kept(("visibility", channel, origin, frame),
                         lambda: self.walls_near(channel, frame).visibility(origin, frame))

    def kept(self, key: Hashable, make: Callable[[], _T]) -> _T:
        """``make()``, kept under ``key`` for the map's last :data:`VIEWS_KEPT` keys.

        For answers that depend only on the map's walls and fog (not its
        creatures), such as a caster's visibility or legal origins: copies of
        the map that share its walls (:meth:`move_token`) share what is kept.
        """
        kept = self._prepared.kept
        value = kept.pop(key, _MISSING)
        if value is _MISSING:
            value = make()
            if len(kept) >= VIEWS_KEPT:
                del kept[next(iter(kept))]  # the least recently used
        kept[key] = value
        return value  # type: ignore[return-value]

    def steps(self, channel: Channel | str = Channel.EFFECT,
              corners: CornerRule | str = CornerRule.BLOCKED) -> StepMasks:
        """Which path steps the walls blocking ``channel`` bar (built per window as asked, once).

        Spreads read the effect channel's; :func:`aoegrid.path_distance`
        and :func:`aoegrid.reachable` (movement) read the movement channel's,
        with ``corners="allowed"`` under the rules that let a diagonal step
        pass a wall's corner (:class:`aoegrid.geometry.options.CornerRule`).
        """
        channel = parse_option(Channel, channel, "channel")
        corners = parse_option(CornerRule, corners, "corners")
        prepared = self._prepared
        key = (channel, corners)
        if key not in prepared.step_masks:
            w = prepared.walls
            # The walls as given, each clipped: a step meets their union
            # whether or not they are merged and split.
            blocking = w.blocking(channel)
            prepared.step_masks[key] = StepMasks(self.grid.width, self.grid.height, w.rows[blocking],
                                                 w.ways[blocking], cut=corners is CornerRule.ALLOWED)
        return prepared.step_masks[key]

    @property
    def terrain(self) -> NDArray[np.int8]:
        """The kind of ground of every square, ``(height, width)`` int8, indexed ``[y, x]`` (read-only).

        0 open, 1 difficult, 2 greater difficult, 3 impassable
        (:class:`aoegrid.geometry.options.Terrain` codes); all 0 on a map given no
        terrain.

        Examples
        --------
        >>> import aoegrid as ag
        >>> m = ag.BattleMap(ag.Grid(4, 2), terrain={"difficult": [(1, 0), (3, 0), (3, 1), (1, 1)]})
        >>> m.terrain
        array([[0, 1, 1, 0],
               [0, 0, 0, 0]], dtype=int8)
        """
        if self._terrain is None:
            self._terrain = np.zeros((self.grid.height, self.grid.width), dtype=np.int8)
            self._terrain.setflags(write=False)
        return self._terrain

    @property
    def has_terrain(self) -> bool:
        """Whether any square is other than open ground."""
        return self._terrain is not None and bool(self._terrain.any())

    def with_terrain(self, terrain: Any) -> Self:
        """A copy of this map with ``terrain`` (as ``BattleMap(..., terrain=)`` takes it) instead of its own.

        The copy shares this map's prepared walls, as :meth:`with_token`'s does.

        Examples
        --------
        >>> import aoegrid as ag
        >>> m = ag.BattleMap(ag.Grid(3, 1)).with_terrain({"impassable": [(1, 0), (2, 0), (2, 1), (1, 1)]})
        >>> m.terrain.tolist()
        [[0, 3, 0]]
        """
        out = copy.copy(self)
        out._terrain = terrain_array(terrain, self.grid)
        return out

    @property
    def notes(self) -> list[str]:
        """What is odd about this map: its file's notes, then what preparing its walls did.

        The file's notes are ``info.notes`` (see :mod:`aoegrid.io`; none for a
        map made in code). Then, counted over all its walls whatever they
        block: duplicates and overlapping collinear walls merged, walls
        clipped to the map (one square beyond its edge), walls wholly off it
        dropped, zero-length walls dropped. Worked out when first asked.

        Examples
        --------
        >>> import aoegrid as ag
        >>> m = ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall((3, 1), (3, 9))] * 3 + [ag.Wall((0, 0), (1e9, 1e9))])
        >>> m.notes
        ['2 duplicate or overlapping walls merged', '1 wall clipped to the map (one square beyond its edge)']
        """
        prepared = self._prepared
        if prepared.notes is None:
            prepared.notes = tidy(self.walls, self.size).notes()
        return [*getattr(self.info, "notes", ()), *prepared.notes]

    @property
    def doors(self) -> list[int]:
        """Indices into :attr:`walls` of the doors and windows."""
        return [i for i, w in enumerate(self.walls) if w.kind is not WallKind.WALL]

    def with_door(self, index: int, open: bool) -> Self:
        """A copy of this map with door (or window) ``index`` opened or closed."""
        if not isinstance(index, int) or not 0 <= index < len(self.walls):
            raise InvalidValueError(f"no wall {index!r}: this map has walls 0 to {len(self.walls) - 1}")
        wall = self.walls[index]
        if wall.kind is WallKind.WALL:
            raise InvalidValueError(f"wall {index} is a plain wall, not a door or window; doors are {self.doors}")
        walls = list(self.walls)
        walls[index] = dataclasses.replace(wall, open=open)
        return type(self)(self.grid, walls, self.tokens, self.fog, self.info, terrain=self._terrain,
                          floors=self.floors)

    def token(self, label: str) -> Token:
        """The creature labelled ``label`` (see :attr:`Token.label`).

        Raises when no creature, or more than one, has that label.

        Examples
        --------
        >>> import aoegrid as ag
        >>> m = ag.BattleMap(ag.Grid(8, 8), tokens=[ag.Token(1, 1, name="orc"), ag.Token(5, 5)])
        >>> m.token("orc").space
        Space(x=1, y=1, width=1, height=1)
        >>> m.token("token at (5, 5)").x
        5
        """
        if not isinstance(label, str):
            raise InvalidTypeError(f"a token label must be a string, got {label!r} of type {type(label).__name__}")
        return self.tokens[self._token_index(label)]

    def with_token(self, old: Token | str, new: Token) -> Self:
        """A copy of this map with creature ``old`` replaced by ``new``.

        Parameters
        ----------
        old : Token or str
            The creature on this map (the same object, else the one with its
            label) or its label.
        new : Token
            Checked as the map's tokens are: refused off the map, warned
            about where a wall runs through it.

        Returns
        -------
        BattleMap
            Sharing this map's walls and their prepared (split and indexed)
            sets and spread steps, which do not depend on the creatures.

        Examples
        --------
        >>> import aoegrid as ag
        >>> m = ag.BattleMap(ag.Grid(8, 8), tokens=[ag.Token(1, 1, name="orc")])
        >>> m.with_token("orc", ag.Token(2, 2, name="orc chief")).tokens
        (Token(x=2, y=2, size='medium', name='orc chief', elevation=0.0, tags=frozenset()),)
        """
        return self._replaced(self._token_index(old), new)

    def move_token(self, token: Token | str, x: int, y: int) -> Self:
        """A copy of this map with creature ``token`` (or its label) moved to square (x, y).

        (x, y) is the new top-left square of its space, as in
        :meth:`Token.moved_to`. The copy shares the prepared walls, as
        :meth:`with_token`'s does.

        Examples
        --------
        >>> import aoegrid as ag
        >>> m = ag.BattleMap(ag.Grid(8, 8), tokens=[ag.Token(1, 1, name="orc")])
        >>> m.move_token("orc", 4, 6).token("orc").space
        Space(x=4, y=6, width=1, height=1)
        """
        i = self._token_index(token)
        return self._replaced(i, self.tokens[i].moved_to(x, y))

    def _token_index(self, key: Token | str) -> int:
        """Where ``key`` (a token, matched by identity then label, or a label) is in :attr:`tokens`."""
        if isinstance(key, (Token, OpenToken)):
            for i, t in enumerate(self.tokens):
                if t is key:
                    return i
            label = key.label
        elif isinstance(key, str):
            label = key
        else:
            raise InvalidTypeError(f"a creature is given as an aoegrid.Token or its label, got {key!r}")
        found = [i for i, t in enumerate(self.tokens) if t.label == label]
        if len(found) == 1:
            return found[0]
        if found:
            raise InvalidValueError(
                f"{len(found)} tokens are labelled {label!r}; give them names to tell them apart"
            )
        labels = ", ".join(repr(t.label) for t in self.tokens) or "none"
        raise InvalidValueError(f"no token labelled {label!r} on this map; its tokens are {labels}")

    def _replaced(self, index: int, new: Token) -> Self:
        """A copy with token ``index`` replaced, sharing the prepared walls."""
        self._check_token(new, stacklevel=4)
        tokens = list(self.tokens)
        tokens[index] = new
        # Prepared walls depend only on the walls and fog, which the copy
        # shares: it shares _prepared too, so neither map splits and indexes
        # them again, whichever builds them first.
        out = copy.copy(self)
        out.tokens = tuple(tokens)
        return out

    def door_near(self, p: Any) -> int:
        """The index of the door or window nearest to point ``p`` (grid units)."""
        from aoegrid.geometry._validate import point as _point

        q = shapely.Point(_point(p, "door position"))
        doors = self.doors
        if not doors:
            raise InvalidValueError("this map has no doors or windows")
        return min(doors, key=lambda i: shapely.LineString([self.walls[i].start, self.walls[i].end]).distance(q))

    def __repr__(self) -> str:
        terrain = ""
        if self.has_terrain:
            terrain = f", {_count(int(np.count_nonzero(self.terrain)), 'square')} of terrain"
        return (
            f"<BattleMap {self.grid.width:g}x{self.grid.height:g}, {_count(len(self.walls), 'wall')} "
            f"({_count(len(self.doors), 'door or window', 'doors or windows')}), "
            f"{_count(len(self.fog), 'fog zone')}, {_count(len(self.tokens), 'token')}{terrain}>"
        )


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


#: How many answers a map keeps (:meth:`BattleMapCore.kept`): a caster's five
#: points' visibilities and a few searches, with room to spare.
VIEWS_KEPT = 32
_MISSING = object()


class _Prepared:
    """A map's walls made ready for queries, built on first use, per wall set."""

    __slots__ = ("kept", "notes", "sets", "step_masks", "walls")

    def __init__(self, walls: _Walls) -> None:
        self.walls = walls
        self.sets: dict[Channel, WallSet] = {}
        self.kept: dict[Hashable, object] = {}
        #: By (channel, corner rule).
        self.step_masks: dict[tuple[Channel, CornerRule], StepMasks] = {}
        self.notes: list[str] | None = None

    @property
    def steps(self) -> StepMasks | None:
        """The effect channel's step masks (what spreads read), once built."""
        return self.step_masks.get((Channel.EFFECT, CornerRule.BLOCKED))


#: The bit of :attr:`_Walls.bits` for walls blocking each channel.
_BITS = {Channel.EFFECT: 1, Channel.SIGHT: 2, Channel.MOVEMENT: 4}
#: A wall whose box may meet more walls' than this is not checked for being settled
#: (counted reading at most this many rows of cells of each size, see
#: :meth:`aoegrid.board._boxes.SegmentGrid.counts`).
_CROWDED = 64


class _Walls:
    """A map's walls as arrays, prepared for queries one region at a time.

    Each wall is clipped as :func:`~aoegrid.board.walls.tidy` clips it, and filed
    with the walls it could merge with (its line's keys, one-way or not).
    Most of a tidy map's walls are *settled*: they
    overlap no collinear wall (:func:`~aoegrid.board.walls._alone`, for all walls
    at once) and meet the walls their boxes meet only end to end
    (:func:`~aoegrid.board.walls._quiet`, worked out for a region's walls as it is
    first prepared), so merging and splitting leave them as they are, and a
    region takes them so. The rest are merged and split exactly as
    :meth:`WallSet.build <aoegrid.board.walls.WallSet.build>` does for the whole
    map: the merge takes every wall of the lines they lie on, and of the
    lines whose walls' box (:attr:`hulls`) meets the region (a merged wall
    reaches where none of its walls may), in the order given; the split
    takes every merged wall that can cross one in the region, so what lies
    in the region comes out the same to the bit. The
    cost is one pass over the walls (vectorised) and, per region, what lies
    near it.

    Parameters
    ----------
    walls : sequence of Wall
        All the map's walls, fog outlines included.
    size : (width, height)
        The map's size in squares.
    source : str, optional
        The map's file, named by the error raised when a region's pieces
        would not fit in memory (see :func:`aoegrid.board.walls._node`).
    """

    #: Regions are whole squares of this many squares a side.
    TILE = 32

    def __init__(self, walls: Sequence[Wall], size: tuple[int, int], source: str | None = None) -> None:
        width, height = size
        self.size, self.source = size, source
        self.scale = max(float(width), float(height)) + 2 * MARGIN
        rows = np.fromiter(
            (v for w in walls for v in (*w.start, *w.end)), dtype=np.float64, count=4 * len(walls)
        ).reshape(-1, 4)
        # Walls come in a few kinds: each kind's code is worked out once.
        codes: dict[tuple[Any, ...], tuple[int, int]] = {}
        kinds = []
        for w in walls:
            kind = (w.blocks, w.kind, w.open, w.one_way)
            if kind not in codes:
                codes[kind] = _code(w)
            kinds.append(codes[kind])
        code = np.array(kinds, dtype=np.int64).reshape(-1, 2)
        ways, bits = code[:, 0].astype(np.int8), code[:, 1].astype(np.uint8)
        # tidy's steps, wall by wall: zero-length dropped, clipped, dropped when off the map.
        rect = (-MARGIN, -MARGIN, width + MARGIN, height + MARGIN)
        pieces, kept, _ = clip(rows, rect)
        on_map = meets(pieces, (0.0, 0.0, float(width), float(height)))
        keep = kept[on_map]
        self.rows, self.ways, self.bits = pieces[on_map], ways[keep], bits[keep]
        spans = spans_of(walls)
        #: Each wall's span code (:func:`~aoegrid.board.walls.spans_of`; None: all walls span every height).
        self.spans = None if spans is None else spans[keep]
        self.index = SegmentGrid(self.rows, rect)
        #: Each wall, and its way, as merging leaves a wall that merges with none (lower end first).
        self.form, self.form_ways = oriented(self.rows, self.ways)
        # Merge groups: walls by their line's keys and their span, whichever ways they block.
        line_a, line_c, ux, uy = line_keys(self.form, self.scale)
        span = np.zeros(len(self.rows), dtype=np.intp) if self.spans is None else self.spans
        order = np.lexsort((span, line_c, line_a))
        line_a, line_c, span = line_a[order], line_c[order], span[order]
        new = (np.r_[True, (line_a[1:] != line_a[:-1]) | (line_c[1:] != line_c[:-1]) | (span[1:] != span[:-1])]
               if len(order) else np.zeros(0, bool))
        self.group = np.empty(len(order), dtype=np.intp)
        self.group[order] = np.cumsum(new) - 1
        # Members of each group in the order given (lexsort is stable).
        self.members = order
        self.group_start = np.r_[np.flatnonzero(new), len(order)]
        self.alone = _alone(self.form, self.group, self.members, (ux, uy), self.scale)
        # Walls merged with others make walls that reach as far as the box of
        # their group's walls, where none of those may reach: a region, and a
        # wall near them, looks them up by that box.
        starts, boxes = self.group_start[:-1], self.index.boxes(self.members)
        #: The groups whose walls merge (into walls reaching their :attr:`hulls`).
        self.loose = np.flatnonzero(~np.logical_and.reduceat(self.alone[self.members], starts))
        hulls = np.column_stack([
            np.minimum.reduceat(boxes[:, 0], starts), np.minimum.reduceat(boxes[:, 1], starts),
            np.maximum.reduceat(boxes[:, 2], starts), np.maximum.reduceat(boxes[:, 3], starts),
        ])
        #: The boxes of the :attr:`loose` groups' walls, indexed.
        self.hulls = SegmentGrid(hulls[self.loose].reshape(-1, 4), rect)
        #: Per wall: 1 when merging and splitting leave it as it is wherever
        #: it is prepared (most of a tidy map's walls), 0 when not, -1 not yet
        #: known (worked out for the walls of a region as it is prepared).
        self.settled = np.where(self.alone, -1, 0).astype(np.int8)
        self._regions: dict[tuple[Channel, tuple[float, ...]], WallSet] = {}

    def blocking(self, channel: Channel) -> NDArray[np.bool_]:
        """Which walls block ``channel``."""
        return (self.bits & _BITS[channel]) != 0

    def region(self, channel: Channel, frame: tuple[float, float, float, float]) -> WallSet:
        """The walls blocking ``channel`` whose boxes meet the tiles ``frame`` meets, merged and split."""
        t = self.TILE
        rect = (
            math.floor(frame[0] / t) * t, math.floor(frame[1] / t) * t,
            math.ceil(frame[2] / t) * t, math.ceil(frame[3] / t) * t,
        )
        key = (channel, rect)
        if key not in self._regions:
            self._regions[key] = self._prepare(channel, rect)
        return self._regions[key]

    def _prepare(self, channel: Channel, rect: tuple[float, float, float, float]) -> WallSet:
        found = self.index.query(rect)
        found = found[(self.bits[found] & _BITS[channel]) != 0]
        self._settle(found)
        # Settled walls are taken as they are; the rest are merged with the
        # rest of their lines and split with every wall that can cross them.
        settled = found[self.settled[found] == 1]
        merged, ways = self._merged(channel, rect)
        segs, seg_ways = merged, ways
        if len(merged):
            # Every merged wall crossing one in the region meets the box of those.
            segs, seg_ways = _node(*self._merged(channel, hull(merged)), self.source)
            inside = _meeting(segs, rect)
            segs, seg_ways = segs[inside], seg_ways[inside]
        segs, seg_ways = np.vstack([self.form[settled], segs]), np.concatenate([self.form_ways[settled], seg_ways])
        order = np.lexsort((seg_ways, *segs.T[::-1]))
        segs, seg_ways = segs[order], seg_ways[order]
        unsplit = np.vstack([self.form[settled], merged]), np.concatenate([self.form_ways[settled], ways])
        return WallSet(segs, seg_ways, SegmentGrid(segs), *unsplit)

    def _settle(self, walls: NDArray[np.intp]) -> None:
        """Work out :attr:`settled` for ``walls``: each against every wall its box meets.

        A wall whose box meets a :attr:`loose` group's box, or those of more
        than :data:`_CROWDED` walls, is taken as unsettled unchecked: it is
        merged and split with the walls near it (to the same pieces), and
        settling costs a few pairs a wall, however crowded the map.
        """
        ask = walls[self.settled[walls] == -1]
        if not ask.size:
            return
        boxes = self.index.boxes(ask)
        loud = np.zeros(len(self.settled), dtype=bool)
        loud[ask[self.index.counts(boxes, _CROWDED) > _CROWDED]] = True
        for k, _ in self.hulls.pairs(boxes):
            loud[ask[k]] = True
        check = ask[~loud[ask]]
        for k, right in self.index.pairs(self.index.boxes(check)):
            left = check[k]
            other = left != right
            left, right = left[other], right[other]
            loud[left[~_quiet(self.form, self.alone, left, right)]] = True
        self.settled[ask] = ~loud[ask]

    def _merged(self, channel: Channel, box: tuple[float, float, float, float]) -> tuple[Any, Any]:
        """The merged walls blocking ``channel`` whose boxes meet ``box``, and their ways, but the
        walls known to be settled."""
        bit = _BITS[channel]
        found = self.index.query(box)
        found = found[((self.bits[found] & bit) != 0) & (self.settled[found] != 1)]
        # A merged wall can meet ``box`` where none of its walls do: its line's walls' box does.
        groups = np.union1d(self.group[found], self.loose[self.hulls.query(box)])
        if not groups.size:
            return np.empty((0, 4)), np.empty(0, dtype=np.int8)
        lo, count = self.group_start[groups], np.diff(self.group_start)[groups]
        at = np.repeat(lo - (np.cumsum(count) - count), count) + np.arange(int(count.sum()))
        members = np.sort(self.members[at])
        members = members[(self.bits[members] & bit) != 0]
        # A whole line is merged, so every wall's run is as the whole map's;
        # a settled wall's run is itself alone, and is taken as it is.
        spans = None if self.spans is None else self.spans[members]
        segs, ways, _ = _merge(self.rows[members], self.ways[members], self.scale, spans)
        settled = members[self.settled[members] == 1]
        if settled.size:
            mine = {(*row, way) for row, way in zip(self.form[settled].tolist(), self.form_ways[settled].tolist())}
            keep = np.array([(*row, way) not in mine for row, way in zip(segs.tolist(), ways.tolist())], dtype=bool)
            segs, ways = segs[keep], ways[keep]
        near = _meeting(segs, box)
        return segs[near], ways[near]


def _code(wall: Wall) -> tuple[int, int]:
    """A wall's way (0, +1 right, -1 left) and the bits of the channels it blocks."""
    way = 0 if wall.one_way is None else (1 if wall.one_way is Side.RIGHT else -1)
    return way, sum(bit for ch, bit in _BITS.items() if wall.blocks_channel(ch))


def _meeting(segs: NDArray[np.float64], box: tuple[float, float, float, float]) -> NDArray[np.bool_]:
    """Whether each segment's box meets ``box`` (closed)."""
    x0, y0, x1, y1 = box
    return np.asarray(
        (np.minimum(segs[:, 0], segs[:, 2]) <= x1) & (np.maximum(segs[:, 0], segs[:, 2]) >= x0)
        & (np.minimum(segs[:, 1], segs[:, 3]) <= y1) & (np.maximum(segs[:, 1], segs[:, 3]) >= y0)
    )


def line_of_effect(on: Any, origin: Any, channel: str = "effect") -> NDArray[np.float64]:
    """Exact fraction of every square of a map a straight line from ``origin`` reaches.

    Parameters
    ----------
    on : BattleMap
    origin : (x, y)
        A point in grid units, on the grid, not inside a wall.
    channel : str
        ``"effect"`` (walls, closed doors, windows) or ``"sight"`` (walls,
        closed doors, fog).

    Returns
    -------
    (height, width) float array
        ``> 0`` where the square has line of effect (or sight) at all.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(6, 3), walls=[ag.Wall((3, 0), (3, 2))])
    >>> print(line_of_effect(m, (1, 1)).round(2))
    [[1.   1.   1.   0.   0.   0.  ]
     [1.   1.   1.   0.   0.   0.  ]
     [1.   1.   1.   0.75 0.25 0.  ]]
    """
    if not isinstance(on, BattleMapCore):
        raise InvalidTypeError(f"line_of_effect needs an aoegrid.BattleMap, got {on!r}")
    p = point(origin, "origin")
    grid = on.grid
    if not grid.contains_point(p):
        raise OffGridError(f"origin ({p[0]:g}, {p[1]:g}) is off the {grid.width} x {grid.height} grid")
    ch = parse_option(Channel, channel, "line_of_effect channel")
    frame = (-1.0, -1.0, grid.width + 1.0, grid.height + 1.0)
    return on.wallset(ch).visibility(p, frame).fraction(Window(0, 0, grid.width, grid.height))


def hex_footprint(grid: HexGrid, token: Token) -> list[tuple[int, int]]:
    """The hexes ``token`` fills on ``grid``: its ``(x, y)`` is the hex ``(col, row)`` it stands on.

    Raises
    ------
    InvalidValueError
        For a ``(width, height)`` footprint that is not square: on hexes a
        creature is a number of hexes across (:meth:`HexGrid.footprint`).
    """
    w, h = token.footprint
    if w != h:
        raise InvalidValueError(
            f"{token.label} is {w} x {h} squares; on a hex map a creature is a size or a number of hexes "
            f"across (1, 2, 3, ...: 1, 3, 7, 12 hexes ...)"
        )
    return grid.footprint(token.x, token.y, w)
