"""A battle map: a grid, its walls, sight-only zones and creatures."""

from __future__ import annotations

import copy
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
from aoegrid.walls import Channel, Wall, WallKind, WallSet, tidy, walls_from


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

    The walls are clipped to the map (one square beyond its edge), merged
    where they duplicate or overlap, split where they cross and indexed once
    per map, on first use, and reused by every query (see :attr:`notes`).

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
        self._prepared = _Prepared()
        for t in self.tokens:
            self._check_token(t)

    def _check_token(self, token: Token, stacklevel: int = 3) -> None:
        """Refuse a token off the map; warn about one a wall runs through.

        ``stacklevel`` points the warning at the caller's line.
        """
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
                stacklevel=stacklevel,
            )

    def wallset(self, channel: Channel | str) -> WallSet:
        """The prepared walls blocking ``channel`` (split and indexed once)."""
        channel = Channel(channel)
        sets = self._prepared.sets
        if channel not in sets:
            walls = list(self.walls)
            if channel is Channel.SIGHT:
                walls += [w for poly in self.fog for w in walls_from(poly, blocks={"sight"})]
            sets[channel] = WallSet.build(walls, channel, (self.grid.width, self.grid.height))
        return sets[channel]

    def steps(self) -> StepMasks:
        """Which spread steps the effect-blocking walls block (built per window as asked, once)."""
        prepared = self._prepared
        if prepared.steps is None:
            ws = self.wallset(Channel.EFFECT)
            # The walls before splitting: a step meets their union either way, and they are fewer.
            prepared.steps = StepMasks(self.grid.width, self.grid.height, ws.unsplit, ws.unsplit_one_way)
        return prepared.steps

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
            prepared.notes = tidy(self.walls, (self.grid.width, self.grid.height)).notes()
        return [*getattr(self.info, "notes", ()), *prepared.notes]

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

    def with_token(self, old: Token | str, new: Token) -> BattleMap:
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

    def move_token(self, token: Token | str, x: int, y: int) -> BattleMap:
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
        if isinstance(key, Token):
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

    def _replaced(self, index: int, new: Token) -> BattleMap:
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


class _Prepared:
    """A map's walls made ready for queries, built on first use, per wall set."""

    __slots__ = ("notes", "sets", "steps")

    def __init__(self) -> None:
        self.sets: dict[Channel, WallSet] = {}
        self.steps: StepMasks | None = None
        self.notes: list[str] | None = None


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
