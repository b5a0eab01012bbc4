"""Foundry VTT scenes: read a scene's walls, tokens and grid; write templates into one.

A scene exported from Foundry (JSON; the v10+ layout and the older 0.7 to
v9 one) places everything in scene pixels: the map starts after the scene
padding, ``ceil(width * padding / size)`` squares across and the same down.
:func:`read_foundry` puts walls and tokens on aoegrid's grid and keeps the
grid size and the padding in :class:`~aoegrid.io.MapInfo`
(``pixels_per_square``, ``offset``), so what aoegrid computes maps back to
the scene's pixels: :func:`aoegrid.io.export.foundry_template` makes a
``MeasuredTemplate`` document of an area, and :func:`add_templates` writes a
copy of the scene holding it.

Hex scenes (grid types 2 to 5) are read onto a :class:`~aoegrid.HexGrid` as
Foundry lays its hexes out (``hex_scene``: sizes, padding, legacy
hexes); ``foundry_token_hexes`` gives the hexes Foundry shows a token on.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import shapely
import shapely.affinity
from numpy.typing import NDArray

from aoegrid.board.floors import Floor
from aoegrid.board.walls import Channel, Wall, WallKind
from aoegrid.errors import GridTooLargeError, InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import non_negative, positive
from aoegrid.geometry.grid import Grid
from aoegrid.geometry.gridless import Gridless, OpenToken
from aoegrid.geometry.hexgrid import HexGrid
from aoegrid.geometry.tokens import Token
from aoegrid.io.common import (
    TOL,
    Fields,
    JsonFile,
    Level,
    MapFileError,
    MapInfo,
    as_path,
    count_note,
    kind_of,
    make_grid,
    read_json,
    show,
)
from aoegrid.maps import BattleMap

__all__ = ["GRID_TYPES", "TEMPLATE_TYPES", "HexScene", "add_templates", "foundry_token_hexes", "hex_scene", "read_foundry"]

def _grid_type(f: Fields, g: dict[str, Any], key: str, at: str) -> int:
    """The scene's grid type, one of ``GRID_TYPES`` (1, square, when missing)."""
    value = g.get(key, 1)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value not in GRID_TYPES:
        valid = ", ".join(f"{k} ({v})" for k, v in GRID_TYPES.items())
        f.fail(f.name(at, key), f"must be one of {valid}, got {show(value)}")
    return int(value)


#: Foundry's ``CONST.MEASURED_TEMPLATE_TYPES``.
TEMPLATE_TYPES = ("circle", "cone", "rect", "ray")

#: Sight (``sight``, v10+) or ``sense`` (0.7 to v9) levels. 0.7 used 0/1/2
#: (none/normal/limited), 0.8 on 0/10/20 (none/limited/normal), v11 added
#: 30/40 (proximity); the two scales share no value but 0, so one table reads both.
_NONE, _LIMITED, _NORMAL, _PROXIMITY = "none", "limited", "normal", "proximity"
_SIGHT_LEVELS = {0: _NONE, 1: _NORMAL, 2: _LIMITED, 10: _LIMITED, 20: _NORMAL, 30: _PROXIMITY, 40: _PROXIMITY}
#: Movement: 0.7 used 0/1, 0.8 on 0/20.
_MOVE_LEVELS = (0, 1, 20)

#: The Wall Height module's flags (``flags["wall-height"]``): a wall's ``top`` and ``bottom``, a token's
#: ``tokenHeight``; and the Levels module's (a scene's ``sceneLevels``, a tile's ``rangeTop``, ``noCollision``).
WALL_HEIGHT = "wall-height"
LEVELS = "levels"

_UNITS = {"ft": "ft", "ft.": "ft", "feet": "ft", "foot": "ft", "m": "m", "meter": "m", "meters": "m",
          "metre": "m", "metres": "m", "in": "in", "inch": "in", "inches": "in", "sq": "sq"}


def read_foundry(path: str | os.PathLike[str], *, invisible_blocks_effect: bool = True) -> BattleMap:
    """A map from an exported Foundry VTT scene (JSON, 0.7 to v12 layouts).

    Parameters
    ----------
    path : str or path-like
    invisible_blocks_effect : bool
        Whether invisible walls (they block movement, not sight) block line
        of effect too. True by default: a wall a creature cannot walk through
        is a wall for a fireball as well.

    Returns
    -------
    BattleMap
        On a square scene (grid type 1), ``ceil(width / size)`` x ``ceil(height / size)`` squares, one per
        grid square of the scene, sized by the scene's grid distance and
        units. Wall pixels are put on the grid by subtracting the scene
        padding (``ceil(width * padding / size) * size`` across, the same
        down, as Foundry computes it) and dividing by the grid size; the
        background offset (``shiftX``/``background.offsetX``) moves only the
        image and is ignored. ``info.pixels_per_square`` is the grid size and
        ``info.offset`` the padding in pixels; ``info.background`` the
        background image's path (``background.src``, v10+; ``img`` before).

        On a hex scene (grid types 2 to 5), the
        ``HexGrid.from_foundry_type(type, columns, rows, size=distance,
        units=units)`` of the hexes Foundry lays on the scene's rectangle
        (``hex_scene``: ``grid.size`` is a hex's flat-to-flat size, its
        corner-to-corner size in a legacy scene, ``flags.core.legacyHex``
        or the 0.7 to v9 layout; the padding rounds to whole rows and
        columns of hexes as Foundry's does). Walls and tiles are put in map
        coordinates, one hex width to the unit from the top-left of the
        hexes' bounding box: ``info.pixels_per_square`` is a hex's
        flat-to-flat size in pixels and ``info.offset`` the pixel of map
        point ``(0, 0)``, so a map point ``(x, y)`` is pixel ``(x *
        pixels_per_square + offset[0], y * pixels_per_square + offset[1])``.
        Regions are not read (terrain is for square grids; a note counts
        them).

        On a gridless scene (grid type 0), a :class:`~aoegrid.geometry.gridless.Gridless`
        map in the scene's units: ``width * distance / size`` by ``height *
        distance / size``, a grid unit (``distance``) a Medium creature's
        space; points are pixels less the padding (whole grid sizes, as on
        squares) times ``distance / size``, and ``info.pixels_per_square``
        is ``size / distance``. Tokens become
        :class:`~aoegrid.geometry.gridless.OpenToken` at their centre: a rectangle
        ``width`` x ``height`` grid units (Foundry's tokens), a circle for
        V13's ellipse shapes (``shape`` 0 or 1) as wide as tall; one whose
        centre is off the map is skipped with a note.

    Notes
    -----
    Wall restrictions map to what a wall blocks:

    * ``move`` > 0 (v10: 20; 0.7: 1): ``"movement"`` and ``"effect"``;
    * ``sight`` (v10) or ``sense`` (0.7 to v9) normal (20; 0.7: 1):
      ``"sight"``. Proximity walls (30, 40; v11+) are read as normal.
    * limited sight (terrain walls; 10, 0.7: 2): Foundry blocks sight only
      at the second limited wall a line crosses. That is approximated as
      *not* blocking sight (a note counts them).
    * an invisible wall (sight none, move normal) blocks movement, and
      effect unless ``invisible_blocks_effect=False``.

    A door (``door`` 1, or 2 for a secret door) becomes a Wall of kind
    ``"door"``, or ``"window"`` when it does not block sight (a glass door);
    it is open when ``ds`` is 1 (2, locked, is closed). ``dir`` 1 and 2
    become ``one_way="left"`` and ``"right"``: Foundry's one-way wall blocks
    only lines coming from its left (1) or right (2) side, seen on screen
    looking from its first point to its second, which is exactly aoegrid's
    ``one_way`` with the same names.

    Tokens become :class:`~aoegrid.Token`: the top-left square from ``x`` and
    ``y`` (pixels less the padding, over the grid size), the footprint from
    ``width`` and ``height`` (squares), ``name``, ``elevation`` (grid units),
    and ``disposition`` as a tag: ``"hostile"`` (-1), ``"neutral"`` (0),
    ``"friendly"`` (1). A token is never a reason to refuse a scene: one off
    its square is put on the nearest square, one smaller than a square
    takes a square, and one without a position or off the map is skipped,
    each with a note in ``info.notes``. Lights and templates are skipped (a
    note counts them).

    On a hex scene a token stands on the hexes Foundry shows it on
    (``foundry_token_hexes``: its position, ``width`` and ``height`` in
    hexes and its ``shape``, V13, or ``hexagonalShape``, V12; V13's default
    ``RECTANGLE_1`` when it has neither) and becomes ``Token(col, row,
    size=n)``, ``n`` its width in hexes: the creature filling
    :meth:`HexGrid.footprint(col, row, n) <aoegrid.HexGrid.footprint>` (1,
    3, 7, 12 hexes...). Foundry's ellipses of ``n`` hexes (``ELLIPSE_1``
    for odd ``n``, ``ELLIPSE_2`` for even) are exactly those; any other
    shape (a two-hex ``ELLIPSE_1`` or ``RECTANGLE_1``: two hexes above
    one) or size (2 x 1, 0.5) is put where the footprint shares most hexes
    with it, its centre nearest theirs, with a note.

    Heights: a token's ``elevation`` (negative below the ground) and the
    Wall Height module's ``flags["wall-height"].tokenHeight`` (scene
    units) become ``Token(elevation=..., height=...)``; a height missing,
    null or 0 is the default (as tall as the token's space is wide), and
    a field that is not a finite number (a negative height too) is read as
    its default with a note, as every odd token field is. A wall's Wall
    Height ``flags["wall-height"].bottom`` and ``.top`` (scene units; a
    missing or null end is unbounded, as the module reads them) become
    ``Wall(bottom=..., top=...)``; a bottom above the top, or an end that is
    not a number, refuses the scene. The Levels module's storeys
    (``flags.levels.sceneLevels``, ``[bottom, top, name]``, numbers or the
    strings its UI saves) or Foundry V14's scene ``levels`` (``name``,
    ``elevation.bottom``/``top``; these win when a scene has both) are
    ``info.levels``; an odd level is read as Levels' migration reads it, or
    skipped, with a note. A tile with Levels flags (``flags.levels``) is a
    :class:`~aoegrid.Floor`: its rectangle, turned by its ``rotation``, at
    its ``elevation`` (``flags.levels.rangeBottom`` before v12), as Levels
    blocks a line where it crosses a tile's bottom; ``rangeTop``,
    ``isBasement`` and ``showIfAbove`` only choose from which heights the
    tile is drawn, and a tile marked ``noCollision`` ("Allow Sight") is no
    floor. A tile that makes no valid floor (a width of 0) refuses the
    scene. Notes tell what is not read: a V14 wall's height from its
    levels, and ``flags.levels.backgroundElevation``.

    Scene regions (v12+) with an enabled ``modifyMovementCost`` behaviour
    become terrain (``BattleMap.terrain``): the behaviour's walking
    difficulty (``system.difficulties.walk``, a cost multiplier; Foundry
    multiplies those of overlapping regions, and so does this) gives each
    square whose centre lies in the region (its shapes, ``rectangle``,
    ``circle``, ``ellipse`` and ``polygon``, less those marked ``hole``)
    a kind: a multiplier of 1 or less is open ground, above 1 and below 3
    difficult (2: 5e's and Starfinder's doubled cost), 3 or more greater
    difficult (Pathfinder 2e's +10 ft a square, three times a step's 5 ft),
    and a blank (``null``: walking is impossible there) impassable. Other
    behaviours and regions are not read (a note counts the regions);
    a shape of another type is skipped with a note.

    Raises
    ------
    MapFileError
        Invalid JSON, a missing ``walls`` list or grid size, a field of the
        wrong type or out of range (a grid type not in ``GRID_TYPES``), a NaN coordinate, a wall
        whose Wall Height bottom is above its top, a Levels tile that is no
        valid floor, or a scene too large for this machine.
    OSError
        If the file cannot be read.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> scene = {"width": 1000, "height": 800, "padding": 0.25, "background": {"src": "maps/hall.webp"},
    ...          "grid": {"type": 1, "size": 100, "distance": 5, "units": "ft"},
    ...          "walls": [{"c": [800, 200, 800, 1000], "move": 20, "sight": 20}],
    ...          "tokens": [{"name": "Orc", "x": 500, "y": 400, "width": 1, "height": 1, "disposition": -1}]}
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "hall.json"
    >>> _ = path.write_text(json.dumps(scene))
    >>> m = read_foundry(path)
    >>> m.walls[0].start, m.info.pixels_per_square, m.info.offset, m.info.background
    ((5.0, 0.0), 100.0, (300.0, 200.0), 'maps/hall.webp')
    >>> [(t.name, t.x, t.y, sorted(t.tags)) for t in m.tokens]
    [('Orc', 2, 2, ['hostile'])]
    """
    return foundry_map(read_json(as_path(path), str(path)), invisible_blocks_effect=invisible_blocks_effect)


def foundry_map(src: JsonFile, *, invisible_blocks_effect: bool = True) -> BattleMap:
    """The map of a parsed scene (see :func:`read_foundry`)."""
    f, d = Fields(src.source), src.data
    notes: list[str] = []
    listed = f.items(d, "walls")
    # v10+ nests the grid settings in "grid"; 0.7 to v9 keep the size there, the rest beside it.
    if isinstance(f.raw(d, "grid"), dict):
        fmt, g, at, keys = "foundry v10", d["grid"], "grid", ("size", "type", "distance", "units")
    else:
        fmt, g, at, keys = "foundry 0.7-v9", d, "", ("grid", "gridType", "gridDistance", "gridUnits")
    size_key, type_key, distance_key, units_key = keys
    size = f.number(g, size_key, at, positive=True)
    grid_type = _grid_type(f, g, type_key, at)
    distance = f.number(g, distance_key, at, default=5, positive=True)
    units = f.text(g, units_key, at, default="ft").strip()
    if not units:
        notes.append(f"no {f.name(at, units_key)}: read as ft")
    units = _UNITS.get(units.lower() or "ft", units)
    width = f.number(d, "width", positive=True)
    height = f.number(d, "height", positive=True)
    padding = f.number(d, "padding", default=0.25)
    if not 0 <= padding <= 1:
        f.fail("padding", f"must be between 0 and 1, got {show(padding)}")
    to_map: Callable[[float, float], tuple[float, float]]
    hexes: HexScene | None = None
    grid: Grid | HexGrid | Gridless
    if grid_type == 0:
        # GridlessGrid#calculateDimensions pads by whole grid sizes, as squares are padded.
        pad = (math.ceil((padding * width) * (1 / size)) * size, math.ceil((padding * height) * (1 / size)) * size)
        scale = distance / size
        try:
            grid = Gridless(width * scale, height * scale, units=units, square=distance)
        except InvalidValueError as exc:
            f.fail("width and height", f"give no gridless map: {exc}")

        def to_map(x: float, y: float) -> tuple[float, float]:
            return ((x - pad[0]) * scale, (y - pad[1]) * scale)

        pixels, offset = size / distance, pad
        place: Place = partial(_open_place, to_map=to_map, size=size, distance=distance, table=grid, notes=notes)
    elif grid_type in HEX_TYPES:
        # Pre-V10 scenes (no grid object) are legacy hexes: Foundry V12's migrateLegacyHexFlag marks every
        # hex scene without _stats.coreVersion so (foundryvtt/dist/database/documents/scene.mjs).
        legacy = _flags(d, "core").get("legacyHex") is True or fmt == "foundry 0.7-v9"
        if legacy:
            notes.append("legacy hex scene (flags.core.legacyHex, made before Foundry V10): its grid size is the "
                         "hexes' corner-to-corner size, its padding whole grid sizes")
        try:
            hexes = hex_scene(grid_type, size, width, height, padding, legacy=legacy, distance=distance,
                              units=units)
        except GridTooLargeError as exc:
            f.fail("width and height", f"give a hex grid too large: {exc}")
        grid = hexes.grid
        to_map, pixels, offset = hexes.to_map, hexes.pixels, hexes.origin
        place = partial(_hex_place, hexes=hexes, notes=notes)
    else:
        grid = make_grid(f, "width and height", width / size, height / size, notes, square=distance, units=units)
        # Foundry pads by whole grid squares, so walls drawn on grid lines stay on them.
        shift = (math.ceil(width * padding / size), math.ceil(height * padding / size))

        def to_map(x: float, y: float) -> tuple[float, float]:
            return (x / size - shift[0], y / size - shift[1])

        pixels, offset = size, (shift[0] * size, shift[1] * size)
        place = partial(_square_place, grid=grid, size=size, shift=shift, notes=notes)

    walls: list[Wall] = []
    zero = limited = proximity = inert = 0
    for i in range(len(listed)):
        at = f.name("walls", i)
        w = f.mapping(listed, i, "walls")
        c = f.items(w, "c", at)
        if len(c) != 4:
            f.fail(f.name(at, "c"), f"must be 4 numbers [x0, y0, x1, y1], got {len(c)}")
        x0, y0, x1, y1 = (f.number(c, j, f.name(at, "c")) for j in range(4))
        a = f.on_grid(f.name(at, "c"), to_map(x0, y0))
        b = f.on_grid(f.name(at, "c"), to_map(x1, y1))
        if a == b:
            zero += 1
            continue
        sight = _SIGHT_LEVELS[f.choice(w, "sight" if "sight" in w else "sense", at, tuple(_SIGHT_LEVELS), 20)]
        move = f.choice(w, "move", at, _MOVE_LEVELS, 20) > 0
        door = f.choice(w, "door", at, (0, 1, 2), 0)
        state = f.choice(w, "ds", at, (0, 1, 2), 0)
        one_way = (None, "left", "right")[f.choice(w, "dir", at, (0, 1, 2), 0)]
        proximity += sight == _PROXIMITY
        sees_through = sight in (_NONE, _LIMITED)
        bottom, top = _wall_span(f, w, at)
        if door:
            limited += sight == _LIMITED
            kind = WallKind.WINDOW if sees_through else WallKind.DOOR
            walls.append(Wall(a, b, kind=kind, open=state == 1, one_way=one_way, bottom=bottom, top=top))
            continue
        blocks = set()
        if move:
            blocks.add(Channel.MOVEMENT)
            if sight != _NONE or invisible_blocks_effect:
                blocks.add(Channel.EFFECT)
        if not sees_through:
            blocks.add(Channel.SIGHT)
        if not blocks:  # e.g. an ethereal terrain wall: nothing aoegrid tracks
            inert += 1
            continue
        limited += sight == _LIMITED
        walls.append(Wall(a, b, blocks=frozenset(blocks), one_way=one_way, bottom=bottom, top=top))
    notes += count_note(zero, "dropped {n} zero-length wall{s}")
    notes += count_note(limited, "{n} limited (terrain) wall{s} read as not blocking sight (Foundry blocks "
                                  "sight only from the second limited wall a line crosses)")
    notes += count_note(proximity, "{n} proximity wall{s} read as normal walls")
    notes += count_note(inert, "dropped {n} wall{s} blocking neither movement nor sight")
    notes += count_note(sum(bool(w.get("levels")) for w in listed if isinstance(w, dict)),
                        "{n} wall{s} on V14 scene levels (a wall's levels): the heights of their levels are not "
                        "read (Wall Height bounds are)")
    levels = _levels(d, distance, notes)
    floors = _floors(f, d, to_map, pixels, notes)
    tokens = _tokens(d, place, notes)
    background = _background(d, fmt, notes)
    for key in ("lights", "templates"):
        if isinstance(d.get(key), list):
            notes += count_note(len(d[key]), f"skipped {{n}} {key[:-1]}{{s}} (not read)")
    if isinstance(grid, Grid):
        terrain = _terrain(f, d, grid, size, shift, notes)
    else:
        terrain = None
        if isinstance(d.get("regions"), list):
            notes += count_note(len(d["regions"]), "skipped {n} region{s}: terrain is read on square grids only")
    info = MapInfo(src.source, fmt, pixels, offset, (), tuple(notes), background, levels)
    return BattleMap(grid, walls, tokens, info=info, terrain=terrain, floors=floors)


#: The region behaviour that changes movement cost, and the movement action read from it.
MOVEMENT_COST = "modifyMovementCost"
WALK = "walk"


def _terrain(f: Fields, d: dict[str, Any], grid: Grid, size: float, shift: tuple[int, int],
             notes: list[str]) -> NDArray[np.int8] | None:
    """The scene's movement-cost regions as terrain kinds (see :func:`read_foundry`), or None."""
    listed = d.get("regions")
    if listed is None:
        return None
    regions = f.items(d, "regions")
    cost = np.ones((grid.height, grid.width))
    other = disabled = 0
    for i in range(len(regions)):
        at = f.name("regions", i)
        region = f.mapping(regions, i, "regions")
        behaviours = f.items(region, "behaviors", at, default=[])
        factor, found = 1.0, False
        for j in range(len(behaviours)):
            b_at = f.name(f.name(at, "behaviors"), j)
            b = f.mapping(behaviours, j, f.name(at, "behaviors"))
            if b.get("type") != MOVEMENT_COST:
                continue
            found = True
            if b.get("disabled", False) is True:
                disabled += 1
                continue
            system = f.mapping(b, "system", b_at)
            difficulties = f.mapping(system, "difficulties", f.name(b_at, "system"))
            found = True
            d_at = f.name(f.name(b_at, "system"), "difficulties")
            name = f.name(d_at, WALK)
            if WALK not in difficulties:
                notes.append(f"{name} is missing: {at}'s {MOVEMENT_COST} behaviour read as not changing walking")
                continue
            value = difficulties[WALK]
            if value is None:
                factor = math.inf  # blank: walking is impossible there
            else:
                walk = f.number(difficulties, WALK, d_at)
                if walk < 0:
                    f.fail(name, f"must be 0 or more (a cost multiplier), got {show(value)}")
                factor = factor * walk
        if not found:
            other += 1
            continue
        if factor == 1.0:
            continue
        squares = _region_squares(f, region, at, grid, size, shift, notes)
        with np.errstate(invalid="ignore"):  # 0 * inf: free and impassable at once
            cost[squares] *= factor
    notes += count_note(other, f"skipped {{n}} region{{s}} without a {MOVEMENT_COST} behaviour (not read)")
    notes += count_note(disabled, f"skipped {{n}} disabled {MOVEMENT_COST} behaviour{{s}}")
    cost[np.isnan(cost)] = math.inf
    kinds = np.select([cost == math.inf, cost >= 3.0, cost > 1.0], [3, 2, 1], 0).astype(np.int8)
    return kinds if kinds.any() else None


def _region_squares(f: Fields, region: dict[str, Any], at: str, grid: Grid, size: float, shift: tuple[int, int],
                    notes: list[str]) -> NDArray[np.bool_]:
    """The squares whose centre lies in a region: in one of its shapes, not in a hole."""
    shapes = f.items(region, "shapes", at)
    filled = np.zeros((grid.height, grid.width), dtype=bool)
    holes = np.zeros_like(filled)
    for k in range(len(shapes)):
        s_at = f.name(f.name(at, "shapes"), k)
        shape = f.mapping(shapes, k, f.name(at, "shapes"))
        kind = f.text(shape, "type", s_at)
        hole = shape.get("hole", False) is True
        if kind not in _SHAPES:
            notes.append(f"{s_at} is a {kind!r} shape, not read (aoegrid reads {', '.join(_SHAPES)}): skipped")
            continue
        inside = _SHAPES[kind](f, shape, s_at, grid, size, shift)
        (holes if hole else filled)[inside] = True
    return filled & ~holes


def _centres(grid: Grid, box: tuple[float, float, float, float]) -> tuple[Any, Any, Any]:
    """The squares whose centres lie in ``box`` (grid units): their slice, and the centres' x and y."""
    x0, y0, x1, y1 = box
    cx0, cx1 = max(math.ceil(x0 - 0.5 - TOL), 0), min(math.floor(x1 - 0.5 + TOL), grid.width - 1)
    cy0, cy1 = max(math.ceil(y0 - 0.5 - TOL), 0), min(math.floor(y1 - 0.5 + TOL), grid.height - 1)
    cx1, cy1 = max(cx1, cx0 - 1), max(cy1, cy0 - 1)
    ys, xs = np.mgrid[cy0 : cy1 + 1, cx0 : cx1 + 1]
    return (slice(cy0, cy1 + 1), slice(cx0, cx1 + 1)), xs + 0.5, ys + 0.5


def _on_grid(f: Fields, shape: dict[str, Any], at: str, size: float, shift: tuple[int, int]) -> tuple[float, float]:
    """The shape's ``x``, ``y`` in grid units."""
    x, y = f.number(shape, "x", at), f.number(shape, "y", at)
    return f.on_grid(f.name(at, "x"), (x / size - shift[0], y / size - shift[1]))


def _ellipse(f: Fields, shape: dict[str, Any], at: str, grid: Grid, size: float, shift: tuple[int, int],
             rx: float, ry: float, cx: float, cy: float, box_half: float) -> NDArray[np.bool_]:
    """Squares whose centre lies in an axis-aligned box's rotated rectangle (``rx`` < 0) or ellipse."""
    out = np.zeros((grid.height, grid.width), dtype=bool)
    turn = math.radians(f.number(shape, "rotation", at, default=0.0))
    where, xs, ys = _centres(grid, (cx - box_half, cy - box_half, cx + box_half, cy + box_half))
    # Into the shape's own frame: rotated back by its rotation (clockwise on screen).
    dx, dy = xs - cx, ys - cy
    u = dx * math.cos(turn) + dy * math.sin(turn)
    v = -dx * math.sin(turn) + dy * math.cos(turn)
    if rx < 0:  # a rectangle, half-sizes -rx, -ry
        out[where] = (np.abs(u) <= -rx + TOL) & (np.abs(v) <= -ry + TOL)
    else:
        out[where] = (u / rx) ** 2 + (v / ry) ** 2 <= 1.0 + TOL
    return out


def _rectangle(f: Fields, shape: dict[str, Any], at: str, grid: Grid, size: float,
               shift: tuple[int, int]) -> NDArray[np.bool_]:
    x, y = _on_grid(f, shape, at, size, shift)
    w = f.number(shape, "width", at, positive=True) / size
    h = f.number(shape, "height", at, positive=True) / size
    # Foundry turns a rectangle about its centre.
    return _ellipse(f, shape, at, grid, size, shift, -w / 2, -h / 2, x + w / 2, y + h / 2, math.hypot(w, h) / 2)


def _circle(f: Fields, shape: dict[str, Any], at: str, grid: Grid, size: float,
            shift: tuple[int, int]) -> NDArray[np.bool_]:
    x, y = _on_grid(f, shape, at, size, shift)
    r = f.number(shape, "radius", at, positive=True) / size
    return _ellipse(f, shape, at, grid, size, shift, r, r, x, y, r)


def _ellipse_shape(f: Fields, shape: dict[str, Any], at: str, grid: Grid, size: float,
                   shift: tuple[int, int]) -> NDArray[np.bool_]:
    x, y = _on_grid(f, shape, at, size, shift)
    rx = f.number(shape, "radiusX", at, positive=True) / size
    ry = f.number(shape, "radiusY", at, positive=True) / size
    return _ellipse(f, shape, at, grid, size, shift, rx, ry, x, y, max(rx, ry))


def _polygon(f: Fields, shape: dict[str, Any], at: str, grid: Grid, size: float,
             shift: tuple[int, int]) -> NDArray[np.bool_]:
    points = f.items(shape, "points", at)
    name = f.name(at, "points")
    if len(points) % 2 or len(points) < 6:
        f.fail(name, f"must be 3 or more points as [x0, y0, x1, y1, ...], got {len(points)} numbers")
    coords = np.array([f.number(points, j, name) for j in range(len(points))]).reshape(-1, 2) / size - shift
    if not np.isfinite(coords).all():
        f.fail(name, "lies too far away: in squares of the map it is beyond the float range")
    poly = shapely.make_valid(shapely.Polygon(coords))  # a ring drawn crossing itself: the areas it encloses
    out = np.zeros((grid.height, grid.width), dtype=bool)
    if poly.is_empty or poly.area == 0:
        return out
    where, xs, ys = _centres(grid, poly.bounds)
    shapely.prepare(poly)
    out[where] = shapely.dwithin(poly, shapely.points(xs, ys), 1e-9)
    return out


_SHAPES = {"rectangle": _rectangle, "circle": _circle, "ellipse": _ellipse_shape, "polygon": _polygon}


def _flags(doc: dict[str, Any], module: str) -> dict[str, Any]:
    """A document's flags of one module, ``flags[module]``; empty when it has none (or they are not an object)."""
    flags = doc.get("flags")
    held = flags.get(module) if isinstance(flags, dict) else None
    return held if isinstance(held, dict) else {}


def _wall_span(f: Fields, w: dict[str, Any], at: str) -> tuple[float, float]:
    """A wall's Wall Height ``bottom`` and ``top`` (scene units); missing or null is unbounded.

    Wall Height reads ``flags["wall-height"].top ?? Infinity`` and ``.bottom ?? -Infinity``
    (theripper93/wall-height, scripts/utils.js ``getWallBounds``); JSON writes Infinity as null.
    """
    held, name = _flags(w, WALL_HEIGHT), f.name(f.name(at, "flags"), WALL_HEIGHT)
    bottom = -math.inf if held.get("bottom") is None else f.number(held, "bottom", name)
    top = math.inf if held.get("top") is None else f.number(held, "top", name)
    if bottom > top:
        f.fail(name, f"has its bottom {bottom:g} above its top {top:g}: a wall spans bottom to top")
    return bottom, top


def _level_number(value: Any) -> float | None:
    """A Levels number as the module parses it (``parseFloat``): a number, or a numeric string; else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = float(value.strip() if isinstance(value, str) else value)
    except (ValueError, OverflowError):  # not a number; an integer past the float range
        return None
    return number if math.isfinite(number) else None


def _levels(d: dict[str, Any], distance: float, notes: list[str]) -> tuple[Level, ...]:
    """The scene's storeys: Foundry V14's ``levels``, else the Levels module's ``flags.levels.sceneLevels``.

    An odd level is read as Levels' own migration to V14 reads it, or skipped, with a note: levels are
    kept as data, never a reason to refuse a scene.
    """
    core = d.get("levels")
    legacy = _flags(d, LEVELS).get("sceneLevels")
    if isinstance(core, list) and core:
        if isinstance(legacy, list) and legacy:
            notes.append(f"the scene has V14 levels and the Levels module's flags.{LEVELS}.sceneLevels: read the "
                         "V14 levels (Levels migrates its own to them)")
        return tuple(level for i, doc in enumerate(core) if (level := _core_level(doc, f"levels[{i}]", notes)))
    if not isinstance(legacy, list):
        return ()
    out = []
    for i, entry in enumerate(legacy):
        at = f"flags.{LEVELS}.sceneLevels[{i}]"
        if not isinstance(entry, list) or len(entry) < 2:
            notes.append(f"{at} must be [bottom, top, name], got {show(entry)}: skipped")
            continue
        # Levels' migration to V14 (theripper93/Levels, scripts/migration.js): a bottom that is not a number
        # is 0, a top that is not one two grid squares above the bottom; the UI stores them as strings.
        bottom, top = _level_number(entry[0]), _level_number(entry[1])
        if bottom is None:
            notes.append(f"{at} bottom is not a number, got {show(entry[0])}: read as 0")
            bottom = 0.0
        if top is None:
            top = bottom + 2 * distance
            notes.append(f"{at} top is not a number, got {show(entry[1])}: read as {top:g} (two squares up)")
        name = entry[2] if len(entry) > 2 and isinstance(entry[2], str) else ""
        if bottom > top:
            notes.append(f"{at} has its bottom {bottom:g} above its top {top:g}: skipped")
            continue
        out.append(Level(bottom, top, name))
    return tuple(out)


def _core_level(doc: Any, at: str, notes: list[str]) -> Level | None:
    """A V14 ``Level`` document (``name``, ``elevation.bottom``/``top``; JSON's null is unbounded), or None."""
    elevation = doc.get("elevation") if isinstance(doc, dict) else None
    if not isinstance(elevation, dict):
        notes.append(f"{at} must be a Level with an elevation {{bottom, top}}, got {show(doc)}: skipped")
        return None
    ends = []
    for key, unbounded in (("bottom", -math.inf), ("top", math.inf)):
        value = elevation.get(key)
        number = unbounded if value is None else None if isinstance(value, str) else _level_number(value)
        if number is None:
            notes.append(f"{at}.elevation.{key} must be a number, got {show(value)}: skipped")
            return None
        ends.append(number)
    if ends[0] > ends[1]:
        notes.append(f"{at}.elevation has its bottom {ends[0]:g} above its top {ends[1]:g}: skipped")
        return None
    name = doc.get("name")
    return Level(ends[0], ends[1], name if isinstance(name, str) else "")


def _floors(f: Fields, d: dict[str, Any], to_map: Callable[[float, float], tuple[float, float]], size: float,
            notes: list[str]) -> list[Floor]:
    """The Levels module's tiles as floors: each tile's rectangle at its elevation.

    Levels tests a line against every tile not marked ``noCollision`` ("Allow Sight") as a plane at
    the tile's bottom, ``elevation`` (``flags.levels.rangeBottom`` before Foundry v12), where the
    tile is opaque (theripper93/Levels, scripts/handlers/sightHandler.js ``testCollision``);
    ``rangeTop``, ``isBasement`` and ``showIfAbove`` only choose from which heights the tile is
    drawn. Tiles without Levels flags are decoration (Levels' migration skips them too).
    """
    listed = d.get("tiles")
    if listed is None:
        return []
    tiles = f.items(d, "tiles")
    out, see_through, unplaced = [], 0, 0
    for i in range(len(tiles)):
        at = f.name("tiles", i)
        tile = f.mapping(tiles, i, "tiles")
        flags = tile.get("flags")
        held = flags.get(LEVELS) if isinstance(flags, dict) else None
        if not isinstance(held, dict):
            continue
        if held.get("noCollision") is True:
            see_through += 1
            continue
        if tile.get("elevation") is not None:
            elevation = f.number(tile, "elevation", at)
        elif held.get("rangeBottom") is not None:
            elevation = f.number(held, "rangeBottom", f.name(f.name(at, "flags"), LEVELS))
        else:  # Levels reads a tile without a bottom as -Infinity: no plane
            unplaced += 1
            continue
        x, y = f.on_grid(at, to_map(f.number(tile, "x", at), f.number(tile, "y", at)))
        w, h = f.number(tile, "width", at) / size, f.number(tile, "height", at) / size
        rectangle = shapely.Polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
        turn = f.number(tile, "rotation", at, default=0.0)
        if turn:  # Foundry turns a tile about its centre, clockwise on screen (y down)
            rectangle = shapely.affinity.rotate(rectangle, turn, origin="center")
        try:
            out.append(Floor(rectangle, elevation))
        except InvalidValueError as exc:
            f.fail(at, f"is not a valid floor: {exc}")
    notes += count_note(see_through, f"{{n}} Levels tile{{s}} marked Allow Sight (flags.{LEVELS}.noCollision) "
                                     "read as no floor")
    notes += count_note(unplaced, f"{{n}} Levels tile{{s}} without an elevation (or flags.{LEVELS}.rangeBottom) "
                                  "read as no floor")
    ground = _level_number(_flags(d, LEVELS).get("backgroundElevation"))
    if ground:
        notes.append(f"the background lies at flags.{LEVELS}.backgroundElevation {ground:g}: not read as a floor")
    return out


#: Foundry's token dispositions (``CONST.TOKEN_DISPOSITIONS``) as tags.
DISPOSITIONS = {-1: "hostile", 0: "neutral", 1: "friendly"}


#: Where a token stands, from the token and its top-left pixel ``x``, ``y``: the aoegrid creature made once given
#: its ``name``, ``elevation``, ``height`` and ``tags``; None skips it.
Place = Callable[[dict[str, Any], str, float, float], "Callable[..., Token | OpenToken] | None"]


def _tokens(d: dict[str, Any], place: Place, notes: list[str]) -> list[Token]:
    """The scene's tokens on the grid; an odd token gives a note, never an error.

    Tokens are what a bot reads most and what scene editors leave most
    varied (modules add fields, imports drop some), so a token that cannot
    be placed is skipped with a note rather than refusing the whole scene.
    """
    listed = d.get("tokens", [])
    if not isinstance(listed, list):
        notes.append(f"tokens must be a list, got {show(listed)} ({kind_of(listed)}): no tokens read")
        return []
    out = []
    for i, t in enumerate(listed):
        at = f"tokens[{i}]"
        if not isinstance(t, dict):
            notes.append(f"{at} must be an object, got {show(t)} ({kind_of(t)}): skipped")
            continue
        name = t.get("name")
        if isinstance(name, str) and name.strip():
            at = f"{at} ({name!r})"
        else:
            notes.append(f"{at} has no name: read without one")
            name = None
        x, y = _token_number(t, "x", at, None, notes), _token_number(t, "y", at, None, notes)
        if x is None or y is None:
            notes.append(f"{at} has no usable x and y: skipped")
            continue
        placed = place(t, at, x, y)
        if placed is None:
            continue
        elevation = _token_number(t, "elevation", at, 0.0, notes) or 0.0
        height = _token_height(t, at, notes)
        tags: frozenset[str] = frozenset()
        disposition = t.get("disposition")
        if disposition in DISPOSITIONS and not isinstance(disposition, bool):
            tags = frozenset({DISPOSITIONS[disposition]})
        elif "disposition" in t:
            notes.append(f"{at} disposition must be -1, 0 or 1, got {show(disposition)}: no disposition tag")
        out.append(placed(name=name, elevation=elevation, height=height, tags=tags))
    return out


def _square_place(t: dict[str, Any], at: str, x: float, y: float, grid: Grid, size: float, shift: tuple[int, int],
                  notes: list[str]) -> Callable[..., Token] | None:
    """A token's square and footprint: its top-left pixel less the padding, over the grid size."""
    gx, gy = x / size - shift[0], y / size - shift[1]
    sx, sy = round(gx), round(gy)
    if abs(gx - sx) > TOL or abs(gy - sy) > TOL:
        notes.append(f"{at} at {gx:g}, {gy:g} squares is not on a square: put on square ({sx}, {sy})")
    width = _token_number(t, "width", at, 1.0, notes, positive=True) or 1.0
    height = _token_number(t, "height", at, 1.0, notes, positive=True) or 1.0
    w, h = max(1, round(width)), max(1, round(height))
    if abs(width - w) > TOL or abs(height - h) > TOL:
        notes.append(f"{at} is {width:g} x {height:g} squares: read as {w} x {h} (spaces are whole squares)")
    if sx < 0 or sy < 0 or sx + w > grid.width or sy + h > grid.height:
        notes.append(f"{at} at square ({sx}, {sy}) is not wholly on the {grid.width} x {grid.height} map: skipped")
        return None
    return partial(Token, sx, sy, size=w if w == h else (w, h))


def _hex_place(t: dict[str, Any], at: str, x: float, y: float, hexes: HexScene,
               notes: list[str]) -> Callable[..., Token] | None:
    """A token's hex and size on a hex scene (see :func:`read_foundry`)."""
    width = _token_number(t, "width", at, 1.0, notes, positive=True) or 1.0
    height = _token_number(t, "height", at, 1.0, notes, positive=True) or 1.0
    key = "shape" if "shape" in t else "hexagonalShape"
    shape = t.get(key, _RECTANGLE_1)
    if isinstance(shape, bool) or shape not in TOKEN_SHAPES:
        notes.append(f"{at} {key} must be one of {', '.join(f'{k} ({v})' for k, v in TOKEN_SHAPES.items())}, "
                     f"got {show(shape)}: read as 4 (RECTANGLE_1)")
        shape = _RECTANGLE_1
    filled = foundry_token_hexes(hexes, x, y, width, height, int(shape))
    w, h = _js_round(width * 2) / 2, _js_round(height * 2) / 2
    n = max(1, _js_round(max(w, h)))
    if w != h or not w.is_integer():
        notes.append(f"{at} is {width:g} x {height:g} hexes: read as a creature {n} hex{'es' if n > 1 else ''} "
                     f"across")
    g = hexes.grid
    wanted = set(filled)
    cx = sum(g.center(*hx)[0] for hx in filled) / len(filled)
    cy = sum(g.center(*hx)[1] for hx in filled) / len(filled)

    def score(hx: tuple[int, int]) -> tuple[int, float, int, int]:
        fx, fy = g.footprint_center(*hx, n)
        return (-len(wanted.intersection(g.footprint(*hx, n))), math.hypot(fx - cx, fy - cy), hx[1], hx[0])

    col, row = min(filled, key=score)
    footprint = g.footprint(col, row, n)
    if set(footprint) != wanted:
        notes.append(f"{at} fills hexes {_hexes(filled)} in Foundry ({TOKEN_SHAPES[int(shape)]}): read as "
                     f"{n} hex{'es' if n > 1 else ''} across on ({col}, {row}), hexes {_hexes(footprint)}")
    cols, rows = np.array(footprint).T
    if not np.all(g.contains(cols, rows)):
        notes.append(f"{at} on hex ({col}, {row}) is not wholly on the {g.width} x {g.height} hex map: skipped")
        return None
    return partial(Token, col, row, size=n)


def _open_place(t: dict[str, Any], at: str, x: float, y: float, to_map: Callable[[float, float], tuple[float, float]],
                size: float, distance: float, table: Gridless, notes: list[str]) -> Callable[..., OpenToken] | None:
    """A token on a gridless scene: its centre, and its rectangle (or circle) in the scene's units."""
    width = _token_number(t, "width", at, 1.0, notes, positive=True) or 1.0
    height = _token_number(t, "height", at, 1.0, notes, positive=True) or 1.0
    cx, cy = to_map(x + width * size / 2, y + height * size / 2)
    # Its whole footprint must lie on the map, as a BattleMap asks (the edge counts as on it).
    hw, hh = width * distance / 2, height * distance / 2
    if not (0 <= cx - hw and cx + hw <= table.width and 0 <= cy - hh and cy + hh <= table.height):
        notes.append(f"{at} centred at ({cx:g}, {cy:g}) {table.units}, {2 * hw:g} x {2 * hh:g} {table.units}, is not "
                     f"wholly on the {table.width:g} x {table.height:g} {table.units} map: skipped")
        return None
    # V13's ellipse shapes (0, 1) are drawn round; rectangles (its default), and every token before, square.
    if t.get("shape") in (0, 1):
        if width == height:
            return partial(OpenToken, cx, cy, size=width)
        notes.append(f"{at} is an ellipse {width:g} x {height:g} grid units: read as its rectangle")
    return partial(OpenToken, cx, cy, size=max(width, height), footprint="rect", width=width * distance,
                   depth=height * distance)


def _hexes(hexes: list[tuple[int, int]]) -> str:
    return " ".join(f"({c}, {r})" for c, r in hexes)


def _token_height(t: dict[str, Any], at: str, notes: list[str]) -> float | None:
    """The Wall Height module's ``tokenHeight``; None (the default) when missing, null or 0."""
    held = _flags(t, WALL_HEIGHT)
    if held.get("tokenHeight") is None or held.get("tokenHeight") == 0:
        return None
    return _token_number(held, "tokenHeight", at, None, notes, positive=True, field=f"flags.{WALL_HEIGHT}.tokenHeight",
                         otherwise="read as the default (as tall as its space is wide)")


def _token_number(
    t: dict[str, Any], key: str, at: str, default: float | None, notes: list[str], *, positive: bool = False,
    field: str | None = None, otherwise: str = "",
) -> float | None:
    """A token's finite number, or ``default`` with a note when it is missing or not one.

    ``field`` names ``key`` in the note (a path, for a number nested in the
    token); ``otherwise`` says what a bad value is read as when ``default``
    is None.
    """
    field = field or key
    if key not in t:
        if default is None:
            notes.append(f"{at} has no {field}")
        return default
    value = t[key]
    number = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # an integer past the float range
            number = None
    if number is None or not math.isfinite(number) or (positive and number <= 0):
        wanted = "a positive number" if positive else "a finite number"
        fallback = f": read as {default:g}" if default is not None else f": {otherwise}" if otherwise else ""
        notes.append(f"{at} {field} must be {wanted}, got {show(value)}{fallback}")
        return default
    return number


def _background(d: dict[str, Any], fmt: str, notes: list[str]) -> str | None:
    """The background image's path: ``background.src`` (v10+) or ``img`` (0.7 to v9)."""
    if fmt == "foundry v10":
        holder, key, name = d.get("background"), "src", "background.src"
        if holder is None:
            return None
        if not isinstance(holder, dict):
            notes.append(f"background must be an object, got {show(holder)} ({kind_of(holder)}): no background read")
            return None
    else:
        holder, key, name = d, "img", "img"
    value = holder.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        notes.append(f"{name} must be a path, got {show(value)} ({kind_of(value)}): no background read")
        return None
    return value


def add_templates(
    scene: str | os.PathLike[str], templates: Iterable[dict[str, Any]], out: str | os.PathLike[str], *,
    overwrite: bool = False,
) -> Path:
    """Write a copy of a Foundry scene file with ``MeasuredTemplate`` documents added.

    Parameters
    ----------
    scene : str or path-like
        An exported scene (any layout :func:`read_foundry` reads); it is not
        changed.
    templates : iterable of dict
        Template documents, e.g. from :func:`aoegrid.io.export.foundry_template`,
        appended to the scene's ``templates`` list.
    out : str or path-like
        The file to write (UTF-8 JSON).
    overwrite : bool
        Whether an existing ``out`` may be replaced.

    Returns
    -------
    Path
        ``out``.

    Raises
    ------
    MapFileError
        If ``scene`` is not JSON, has no ``walls`` list, or its
        ``templates`` is not a list, or ``out`` exists and ``overwrite`` is
        false.
    InvalidValueError
        A template that is not an object with ``t`` one of
        :data:`TEMPLATE_TYPES`.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> import aoegrid as ag
    >>> from aoegrid.io.export import foundry_template
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> scene = {"width": 1000, "height": 800, "padding": 0.25, "walls": [],
    ...          "grid": {"type": 1, "size": 100, "distance": 5, "units": "ft"}}
    >>> _ = (folder / "hall.json").write_text(json.dumps(scene))
    >>> m = read_foundry(folder / "hall.json")
    >>> t = foundry_template(ag.area(ag.Sphere(10), at=(4, 4), on=m))
    >>> out = add_templates(folder / "hall.json", [t], folder / "hall-fireball.json")
    >>> [(t["t"], t["x"], t["y"], t["distance"]) for t in json.loads(out.read_text())["templates"]]
    [('circle', 700, 600, 10.0)]
    """
    path = _local_file(scene, "scene")
    src = read_json(path, str(path), lazy=None)  # the whole scene, to write it back
    Fields(str(path)).items(src.data, "walls")  # a scene has a walls list
    docs = []
    for i, t in enumerate(templates):
        if not isinstance(t, dict) or t.get("t") not in TEMPLATE_TYPES:
            raise InvalidValueError(
                f"templates[{i}] must be a MeasuredTemplate document with t one of "
                f"{', '.join(TEMPLATE_TYPES)}, got {show(t)}"
            )
        docs.append(t)
    listed = src.data.get("templates", [])
    if not isinstance(listed, list):
        raise MapFileError(f"{path}: templates must be a list, got {show(listed)} ({kind_of(listed)})")
    data = {**src.data, "templates": [*listed, *docs]}
    target = _local_file(out, "out")
    try:
        with target.open("w" if overwrite else "x", encoding="utf-8") as fh:
            json.dump(data, fh)
    except FileExistsError:
        raise MapFileError(f"{target}: exists; pass overwrite=True to replace it") from None
    return target


def _local_file(path: object, what: str) -> Path:
    """``path`` as a file on disk (not a packaged resource)."""
    out = as_path(path)
    if not isinstance(out, Path):
        raise InvalidTypeError(f"{what} must be a file path (a string or a path), got {show(path)}")
    return out


# -- hex scenes -------------------------------------------------------------------------------

#: Foundry's grid types (``CONST.GRID_TYPES``): what each is.
GRID_TYPES = {0: "gridless", 1: "square", 2: "hex odd-r", 3: "hex even-r", 4: "hex odd-q", 5: "hex even-q"}
#: The hex grid types (pointy-top rows 2 and 3, flat-top columns 4 and 5).
HEX_TYPES = (2, 3, 4, 5)
_SQRT3 = math.sqrt(3.0)
#: Foundry's own slack when it counts hexes (``- 1e-6`` in ``calculateDimensions``).
_SLACK = 1e-6
#: Foundry's token shapes (``CONST.TOKEN_SHAPES``; ``TOKEN_HEXAGONAL_SHAPES`` in V12).
TOKEN_SHAPES = {0: "ELLIPSE_1", 1: "ELLIPSE_2", 2: "TRAPEZOID_1", 3: "TRAPEZOID_2", 4: "RECTANGLE_1",
                5: "RECTANGLE_2"}
_RECTANGLE_1 = 4


def _js_round(value: float) -> int:
    """JavaScript's ``Math.round``: halves go up (Python's ``round`` takes them to even)."""
    return math.floor(value + 0.5)


@dataclass(frozen=True)
class HexScene:
    """Where a Foundry hex scene's hexes lie in its pixels, and aoegrid's :class:`~aoegrid.HexGrid` of them.

    Made by ``hex_scene``. Foundry lays its hexes on the whole canvas
    (scene and padding), hex ``(i, j)`` (row, column) from the canvas's top
    left; aoegrid's grid holds the hexes of the scene's rectangle, hex
    ``(col, row)`` from its top left, in map coordinates one hex width (the
    flats' distance, ``pixels`` pixels) to the unit.

    Attributes
    ----------
    grid : HexGrid
    pixels : float
        A hex's flat-to-flat size in pixels: one unit of map coordinates.
    origin : (float, float)
        The scene pixel of map point ``(0, 0)``.
    columns, even : bool
        Foundry's lattice: flat-top columns (types 4, 5) or pointy-top rows;
        even or odd rows (columns) shoved.
    first : int
        Foundry's row (column, for flat-top hexes) that is the map's row
        (column) 0.
    starts : (int, int)
        Foundry's column (row) that is the map's column (row) 0, in Foundry's
        even and in its odd rows (columns).
    """

    grid: HexGrid
    pixels: float
    origin: tuple[float, float]
    columns: bool
    even: bool
    first: int
    starts: tuple[int, int]

    def to_map(self, px: float, py: float) -> tuple[float, float]:
        """Scene pixel ``(px, py)`` in map coordinates (hex widths from the map's top left)."""
        return ((px - self.origin[0]) / self.pixels, (py - self.origin[1]) / self.pixels)

    def to_pixels(self, x: float, y: float) -> tuple[float, float]:
        """Map point ``(x, y)`` in scene pixels: where a template at that point is placed.

        Examples
        --------
        >>> h = hex_scene(2, 100, 1000, 800, 0.25)
        >>> [round(v, 2) for v in h.to_pixels(*h.grid.center(0, 0))]     # hex (0, 0)'s centre
        [350.0, 317.54]
        """
        return (x * self.pixels + self.origin[0], y * self.pixels + self.origin[1])

    def to_hex(self, i: int, j: int) -> tuple[int, int]:
        """The map hex ``(col, row)`` that is Foundry's hex ``(i, j)`` (its row and column on the canvas)."""
        a, b = (j, i) if self.columns else (i, j)
        r, c = a - self.first, b - self.starts[a % 2]
        return (r, c) if self.columns else (c, r)

    def from_hex(self, col: int, row: int) -> tuple[int, int]:
        """Foundry's hex ``(i, j)`` (row, column on the canvas) of map hex ``(col, row)``."""
        r, c = (col, row) if self.columns else (row, col)
        a = r + self.first
        b = c + self.starts[a % 2]
        return (b, a) if self.columns else (a, b)


def hex_scene(
    grid_type: int, size: float, width: float, height: float, padding: float = 0.25, *, legacy: bool = False,
    distance: float = 5.0, units: str = "ft",
) -> HexScene:
    """The hexes of a Foundry hex scene: aoegrid's grid of them and where they lie in the scene's pixels.

    Parameters
    ----------
    grid_type : int
        Foundry's ``grid.type``: 2 (odd-r), 3 (even-r), 4 (odd-q) or 5 (even-q).
    size : float
        ``grid.size`` in pixels: a hex's flat-to-flat size (Foundry V10 and
        later); with ``legacy``, its corner-to-corner size.
    width, height : float
        The scene's size in pixels (without padding).
    padding : float
        The scene's ``padding`` (a fraction of its size on each side).
    legacy : bool
        Foundry's ``flags.core.legacyHex``: a scene made before V10.
    distance : float
        ``grid.distance``: a hex's size in ``units``.
    units : str

    Returns
    -------
    HexScene

    Notes
    -----
    As Foundry V12 and V13 compute it (``foundry.grid.HexagonalGrid`` and
    ``Scene#getDimensions``; foundryvtt/common/grid/hexagonal.mjs and
    client/documents/scene.mjs of Foundry 13.351, in the public mirror
    umplacable/foundryVTT at 052bb61d03fe2dbabf628ec120a285bb99cf3f98):

    * A hex is ``size`` pixels flat to flat (``sizeX`` of pointy-top hexes,
      ``sizeY`` of flat-top ones); the other way, corner to corner, it is
      ``2 size / sqrt(3)``; rows (columns) are ``0.75`` of that apart.
    * The padding is whole hexes: along the rows (columns) ``ceil(padding *
      width / size) * size``, across them ``ceil(padding * height / stride)
      * stride`` with ``stride`` the rows' spacing (``calculateDimensions``:
      ``Math.ceil((padding * sceneWidth) * (1 / strideX)) * strideX``). When
      that is an odd number of rows (columns) the padding along them grows
      by half a hex, so the scene's top-left hex is always cut in half by
      its edge in the odd types and whole in the even ones: inside the
      scene's rectangle the layout is the scene's type.
    * The scene holds ``ceil((width + size / 2) / size - 1e-6)`` hexes along
      the rows (columns) and ``ceil((height - H / 4) / (0.75 H) - 1e-6)``
      rows (columns), ``H`` the corner-to-corner size: Foundry's count for a
      scene without padding (``calculateDimensions``' ``!padding`` branch),
      whose hexes lie in its rectangle as they do with padding.
    * Legacy hexes (``flags.core.legacyHex``): ``size`` is the hex's
      corner-to-corner size, so ``size * sqrt(3) / 2`` flat to flat
      (``Scene.#getGrid``: ``config.size *= (Math.SQRT3 / 2)``), and the
      padding is whole ``size``\\ s each way (``_calculatePreV10Dimensions``,
      with ``legacySize = Math.round(grid.size * 2 / sqrt(3))``): the
      hexes do not line up with the scene's rectangle, and the map holds
      every hex reaching into it; its layout is the one those hexes make.

    Examples
    --------
    >>> h = hex_scene(2, 100, 1000, 800, 0.25)   # odd-r, hexes 100 pixels across
    >>> h.grid
    HexGrid(11, 9, orientation='pointy', offset='odd', size=5.0, units='ft')
    >>> [round(v, 2) for v in h.origin]          # 3 rows of padding: half a hex more across
    [300.0, 259.81]
    >>> h.from_hex(0, 0), h.to_hex(4, 5)         # Foundry's (row, column) of map hex (0, 0); and back
    ((3, 3), (1, 1))
    """
    if grid_type not in HEX_TYPES or isinstance(grid_type, bool):
        raise InvalidValueError(f"hex_scene grid_type must be one of 2, 3, 4, 5 (hex grids), got {grid_type!r}")
    size, width, height = (positive(v, f"hex_scene {k}") for k, v in (("size", size), ("width", width),
                                                                        ("height", height)))
    padding = non_negative(padding, "hex_scene padding")
    columns, even = grid_type in (4, 5), grid_type in (3, 5)
    if legacy:
        s = size * (_SQRT3 / 2)
        side = _js_round(s * (2 / _SQRT3))
        # Foundry multiplies by the inverse, not divides: the rounding it keeps for old scenes.
        x = math.ceil((padding * width) * (1 / side)) * side
        y = math.ceil((padding * height) * (1 / side)) * side
    else:
        s = size
        size_x, size_y = (2 * s / _SQRT3, s) if columns else (s, 2 * s / _SQRT3)
        stride_x, stride_y = (0.75 * size_x, size_y) if columns else (size_x, 0.75 * size_y)
        x = y = 0.0
        if padding:
            x = math.ceil((padding * width) * (1 / stride_x)) * stride_x
            y = math.ceil((padding * height) * (1 / stride_y)) * stride_y
            if _js_round(x / stride_x if columns else y / stride_y) % 2:
                if columns:
                    y += size_y / 2
                else:
                    x += size_x / 2
    # Work along the rows of pointy-top hexes: u along them, v across; flat-top hexes are the same turned.
    u0, v0, du, dv = (y, x, height, width) if columns else (x, y, width, height)
    corner = 2 * s / _SQRT3
    step = 0.75 * corner
    if legacy:  # every row reaching into the scene
        first = math.floor((v0 - corner) / step + 1e-9) + 1
        rows = math.ceil((v0 + dv) / step - 1e-9) - first
    else:
        first = _js_round(v0 / step)
        rows = math.ceil((dv - corner / 4) / step - _SLACK)
    rows = max(rows, 1)

    def shove(a: int) -> float:  # Foundry's even grid shoves its even rows, the odd grid its odd ones
        return 0.5 if (a % 2 == 1) != even else 0.0

    def start(a: int) -> int:  # the first hex of row a reaching into the scene
        return math.floor(u0 / s - 0.5 - shove(a) + 1e-9) + 1

    def stop(a: int) -> int:
        return math.ceil((u0 + du) / s + 0.5 - shove(a) - 1e-9)

    lines = range(first, first + min(rows, 2))
    along = max(1, max(stop(a) - start(a) for a in lines))
    starts = (start(first + first % 2), start(first + 1 - first % 2))
    # Row 1 shoved right of row 0 is the odd layout; one row keeps the scene's type.
    shoved = (start(first + 1) + shove(first + 1)) > (start(first) + shove(first)) if rows > 1 else not even
    orientation = "flat" if columns else "pointy"
    shape = (rows, along) if columns else (along, rows)
    grid = HexGrid(*shape, orientation, "odd" if shoved else "even", distance, units)
    cu, cv = (start(first) + shove(first)) * s, (0.75 * first + 0.5) * corner
    px, py = (cv, cu) if columns else (cu, cv)
    mx, my = grid.center(0, 0)
    return HexScene(grid, s, (px - mx * s, py - my * s), columns, even, first, starts)


def _hex_shape(width: float, height: float, shape: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]],
                                                                   tuple[float, float]] | None:
    """Foundry's hexagonal token shape, row-based: the hexes it fills and its anchor, or None.

    ``BaseToken.#getHexagonalShape`` (foundryvtt/common/documents/token.mjs):
    the offsets ``(di, dj)`` from the token's top-left hex when that hex's
    row is shoved (Foundry's "even" list) and when it is not ("odd"), and
    the anchor (a fraction of a hex's width and height from the token's
    top-left pixel) whose hex is the top-left one.
    """
    if not (width * 2).is_integer() or not (height * 2).is_integer():
        return None
    if width == height == 0.5:
        return [(0, 0)], [(0, 0)], (0.25, 0.25)
    if width == height == 1:
        return [(0, 0)], [(0, 0)], (0.5, 0.5)
    shoved: list[tuple[int, int]] = []
    plain: list[tuple[int, int]] = []
    if shape <= 3:  # ellipses and trapezoids
        if not (width.is_integer() and height.is_integer()):
            return None
        w, h = int(width), int(height)
        if (shape <= 1 and h >= 2 * w) or (shape >= 2 and h > w):
            return None
        top, bottom = ((h // 2, (h - 1) // 2), ((h - 1) // 2, h // 2), (h - 1, 0), (0, h - 1))[shape]
        for i in [*range(bottom, 0, -1), *range(0, -top - 1, -1)]:
            k = abs(i)
            for j in range(w - k):
                shoved.append((bottom - i, j + (((bottom & 1) + k + 1) >> 1)))
                plain.append((bottom - i, j + (((bottom & 1) + k) >> 1)))
        return shoved, plain, ((0.0, 0.5) if bottom % 2 else (0.5, 0.5))
    if shape <= 5:  # rectangles
        if width < 1 or not height.is_integer() or (width == 1 and height > 1) or (
                not width.is_integer() and height == 1):
            return None
        flush = shape == _RECTANGLE_1 or height == 1
        for i in range(int(height)):
            j0 = 0 if flush else (i + 1) & 1
            j1 = int(width + (i & 1) * 0.5) - ((i & 1) if flush else 0)
            for j in range(j0, j1):
                shoved.append((i, j + (i & 1)))
                plain.append((i, j))
        return shoved, plain, ((0.5, 0.5) if flush else (0.0, 0.5))
    return None


def _hex_offsets(width: float, height: float, shape: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]],
                                                                     tuple[float, float]]:
    """``BaseToken._getHexagonalOffsets``: the shape's, or for a size with no such shape a rectangle's."""
    found = _hex_shape(width, height, shape)
    if found is not None:
        return found
    # Foundry's fallback: a rectangle half a hex wider, its anchor a quarter hex up and left.
    width += 0.5
    height = _js_round(height)
    if height == 1:
        width = math.floor(width)
    elif width == 1:
        width += 0.5
    found = _hex_shape(float(width), float(height), _RECTANGLE_1)
    if found is None:  # no size reaches here (Foundry assumes so too); one hex then
        return [(0, 0)], [(0, 0)], (0.5, 0.5)
    shoved, plain, (ax, ay) = found
    return shoved, plain, (ax - 0.25, ay - 0.25)


def foundry_token_hexes(scene: HexScene, x: float, y: float, width: float = 1.0, height: float = 1.0,
                        shape: int = _RECTANGLE_1) -> list[tuple[int, int]]:
    """The map hexes a Foundry token fills, as Foundry's ``getOccupiedGridSpaceOffsets`` finds them.

    Parameters
    ----------
    scene : HexScene
    x, y : float
        The token's top-left pixel.
    width, height : float
        Its size in grid spaces (rounded to halves, as Foundry does).
    shape : int
        ``shape`` (V13; ``hexagonalShape`` in V12): 0 ellipse 1, 1 ellipse 2,
        2 trapezoid 1, 3 trapezoid 2, 4 rectangle 1, 5 rectangle 2.

    Returns
    -------
    list of (col, row)
        Sorted by row, then column; they may lie off the map.

    Notes
    -----
    Foundry (``BaseToken#_positionToGridOffset`` and
    ``getOccupiedGridSpaceOffsets``, foundryvtt/common/documents/token.mjs):
    the token's top-left hex is the one holding its top-left pixel moved by
    the shape's anchor; the hexes it fills are the shape's offsets from
    there, taken for a shoved or an unshoved top row. Flat-top hexes use
    the pointy-top shapes turned (width and height swapped).

    Examples
    --------
    >>> h = hex_scene(2, 100, 1000, 800, 0.25)
    >>> px, py = h.to_pixels(*h.grid.center(2, 2))
    >>> foundry_token_hexes(h, px - 50, py - 57.735, 2, 2, shape=1)   # ellipse 2: one hex, two below
    [(2, 2), (1, 3), (2, 3)]
    """
    w, h = _js_round(width * 2) / 2, _js_round(height * 2) / 2
    fw, fh = (h, w) if scene.columns else (w, h)
    shoved, plain, (au, av) = _hex_offsets(fw, fh, shape)
    s = scene.pixels
    along, across = s, 2 * s / _SQRT3
    px, py = _js_round(x), _js_round(y)
    if scene.columns:
        px, py = px + across * av, py + along * au
    else:
        px, py = px + along * au, py + across * av
    col, row = scene.grid.hex_at(*scene.to_map(px, py))
    i, j = scene.from_hex(int(col), int(row))
    a, b = (j, i) if scene.columns else (i, j)
    offsets = shoved if (a % 2 == 0) == scene.even else plain
    hexes = [scene.to_hex(*((b + dj, a + di) if scene.columns else (a + di, b + dj))) for di, dj in offsets]
    return sorted(hexes, key=lambda h: (h[1], h[0]))
