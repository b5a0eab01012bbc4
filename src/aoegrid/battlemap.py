"""A battle map: a grid, its walls, sight-only zones and creatures."""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np
import shapely

from aoegrid._validate import point
from aoegrid.errors import AoegridWarning, InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.grid import Grid
from aoegrid.spread import StepMasks
from aoegrid.tokens import Token
from aoegrid.walls import Channel, Wall, WallKind, WallSet, walls_from


class BattleMap:
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

    The walls are split where they cross and indexed once per map, on first
    use, and reused by every query.

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
        grid: Grid,
        walls: Iterable[Any] = (),
        tokens: Iterable[Token] = (),
        fog: Iterable[Any] = (),
        info: Any = None,
    ) -> None:
        if not isinstance(grid, Grid):
            raise InvalidTypeError(f"BattleMap grid must be an aoegrid.Grid, got {grid!r}")
        self.grid = grid
        self.walls: tuple[Wall, ...] = tuple(w for item in walls for w in walls_from(item))
        self.tokens: tuple[Token, ...] = tuple(tokens)
        self.fog: tuple[shapely.Polygon, ...] = tuple(_polygon(f) for f in fog)
        #: What a map file said beyond walls and tokens (see :mod:`aoegrid.io`), or None.
        self.info = info
        self._sets: dict[Channel, WallSet] = {}
        self._steps: StepMasks | None = None
        for t in self.tokens:
            self._check_token(t)

    def _check_token(self, token: Token) -> None:
        """Refuse a token off the map; warn about one a wall runs through."""
        if not isinstance(token, Token):
            raise InvalidTypeError(f"BattleMap tokens must be aoegrid.Token, got {token!r}")
        x0, y0, x1, y1 = token.space.bounds
        g = self.grid
        if x0 < 0 or y0 < 0 or x1 > g.width or y1 > g.height:
            raise OffGridError(
                f"{token.label} (space {x0:g}..{x1:g} x {y0:g}..{y1:g}) is not wholly on the "
                f"{g.width} x {g.height} map"
            )
        inner = shapely.box(x0, y0, x1, y1).buffer(-1e-6)
        ws = self.wallset(Channel.MOVEMENT)
        if len(ws.segs) and ws.tree.query(inner, predicate="intersects").size:
            warnings.warn(
                f"{token.label} stands where a wall runs through its space "
                f"({x0:g}..{x1:g} x {y0:g}..{y1:g}); check the map or the token's position",
                AoegridWarning,
                stacklevel=3,
            )

    def wallset(self, channel: Channel | str) -> WallSet:
        """The prepared walls blocking ``channel`` (split and indexed once)."""
        channel = Channel(channel)
        if channel not in self._sets:
            walls = list(self.walls)
            if channel is Channel.SIGHT:
                walls += [w for poly in self.fog for w in walls_from(poly, blocks={"sight"})]
            self._sets[channel] = WallSet.build(walls, channel)
        return self._sets[channel]

    def steps(self) -> StepMasks:
        """Which spread steps the effect-blocking walls block (built once)."""
        if self._steps is None:
            ws = self.wallset(Channel.EFFECT)
            self._steps = StepMasks(self.grid.width, self.grid.height, ws.segs, ws.one_way)
        return self._steps

    @property
    def doors(self) -> list[int]:
        """Indices into :attr:`walls` of the doors and windows."""
        return [i for i, w in enumerate(self.walls) if w.kind is not WallKind.WALL]

    def with_door(self, index: int, open: bool) -> BattleMap:
        """A copy of this map with door (or window) ``index`` opened or closed."""
        if not isinstance(index, int) or not 0 <= index < len(self.walls):
            raise InvalidValueError(f"no wall {index!r}: this map has walls 0 to {len(self.walls) - 1}")
        wall = self.walls[index]
        if wall.kind is WallKind.WALL:
            raise InvalidValueError(f"wall {index} is a plain wall, not a door or window; doors are {self.doors}")
        walls = list(self.walls)
        walls[index] = Wall(wall.start, wall.end, wall.blocks, wall.kind, open, wall.one_way)
        return BattleMap(self.grid, walls, self.tokens, self.fog, self.info)

    def door_near(self, p: Any) -> int:
        """The index of the door or window nearest to point ``p`` (grid units)."""
        from aoegrid._validate import point as _point

        q = shapely.Point(_point(p, "door position"))
        doors = self.doors
        if not doors:
            raise InvalidValueError("this map has no doors or windows")
        return min(doors, key=lambda i: shapely.LineString([self.walls[i].start, self.walls[i].end]).distance(q))

    def _repr_png_(self) -> bytes:
        """The picture Jupyter shows (drawn without touching pyplot's state)."""
        from aoegrid.plotting import png_bytes

        return png_bytes(self)

    def __repr__(self) -> str:
        return (
            f"<BattleMap {self.grid.width}x{self.grid.height}, {len(self.walls)} walls "
            f"({len(self.doors)} doors/windows), {len(self.fog)} fog zones, {len(self.tokens)} tokens>"
        )


def _polygon(obj: Any) -> shapely.Polygon:
    if isinstance(obj, shapely.Polygon):
        poly = obj
    else:
        try:
            ring = [point(p, "fog zone point") for p in obj]
        except TypeError:
            raise InvalidTypeError(
                f"a fog zone must be a shapely Polygon or a ring of (x, y) points, got {obj!r}"
            ) from None
        if len(ring) < 3:
            raise InvalidValueError(f"a fog zone needs at least three points, got {obj!r}")
        poly = shapely.Polygon(ring)
    if not np.isfinite(shapely.get_coordinates(poly)).all():
        raise InvalidValueError(f"a fog zone has a NaN or infinite coordinate: {poly.wkt}")
    if poly.is_empty or poly.area == 0:
        raise InvalidValueError(f"a fog zone must enclose some area, got {poly.wkt}")
    # Only the outline is used, so a self-crossing ring keeps the outline drawn.
    return poly
