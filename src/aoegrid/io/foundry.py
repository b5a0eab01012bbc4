"""Foundry VTT scenes: read a scene's walls, tokens and grid; write templates into one.

A scene exported from Foundry (JSON; the v10+ layout and the older 0.7 to
v9 one) places everything in scene pixels: the map starts after the scene
padding, ``ceil(width * padding / size)`` squares across and the same down.
:func:`read_foundry` puts walls and tokens on aoegrid's grid and keeps the
grid size and the padding in :class:`~aoegrid.io.MapInfo`
(``pixels_per_square``, ``offset``), so what aoegrid computes maps back to
the scene's pixels: :func:`aoegrid.export.foundry_template` makes a
``MeasuredTemplate`` document of an area, and :func:`add_templates` writes a
copy of the scene holding it.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import shapely
import shapely.affinity
from numpy.typing import NDArray

from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.floors import Floor
from aoegrid.grid import Grid
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
from aoegrid.tokens import Token
from aoegrid.walls import Channel, Wall, WallKind

__all__ = ["TEMPLATE_TYPES", "add_templates", "read_foundry"]

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
        ``ceil(width / size)`` x ``ceil(height / size)`` squares, one per
        grid square of the scene, sized by the scene's grid distance and
        units. Wall pixels are put on the grid by subtracting the scene
        padding (``ceil(width * padding / size) * size`` across, the same
        down, as Foundry computes it) and dividing by the grid size; the
        background offset (``shiftX``/``background.offsetX``) moves only the
        image and is ignored. ``info.pixels_per_square`` is the grid size and
        ``info.offset`` the padding in pixels; ``info.background`` the
        background image's path (``background.src``, v10+; ``img`` before).

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
    note counts them). Hex grids are refused.

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
    become terrain (:attr:`BattleMap.terrain`): the behaviour's walking
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
        wrong type or out of range, a NaN coordinate, a hex grid, a wall
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
    grid_type = f.choice(g, type_key, at, (0, 1, 2, 3, 4, 5), default=1)
    if grid_type > 1:
        f.fail(f.name(at, type_key), f"is {grid_type}, a hex grid: aoegrid reads square grids only")
    if grid_type == 0:
        notes.append("gridless scene: read on a square grid of its grid size")
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
    grid = make_grid(f, "width and height", width / size, height / size, notes, square=distance, units=units)
    # Foundry pads by whole grid squares, so walls drawn on grid lines stay on them.
    shift = (math.ceil(width * padding / size), math.ceil(height * padding / size))

    walls: list[Wall] = []
    zero = limited = proximity = inert = 0
    for i in range(len(listed)):
        at = f.name("walls", i)
        w = f.mapping(listed, i, "walls")
        c = f.items(w, "c", at)
        if len(c) != 4:
            f.fail(f.name(at, "c"), f"must be 4 numbers [x0, y0, x1, y1], got {len(c)}")
        x0, y0, x1, y1 = (f.number(c, j, f.name(at, "c")) for j in range(4))
        a = f.on_grid(f.name(at, "c"), (x0 / size - shift[0], y0 / size - shift[1]))
        b = f.on_grid(f.name(at, "c"), (x1 / size - shift[0], y1 / size - shift[1]))
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
    floors = _floors(f, d, size, shift, notes)
    tokens = _tokens(d, grid, size, shift, notes)
    background = _background(d, fmt, notes)
    for key in ("lights", "templates"):
        if isinstance(d.get(key), list):
            notes += count_note(len(d[key]), f"skipped {{n}} {key[:-1]}{{s}} (not read)")
    terrain = _terrain(f, d, grid, size, shift, notes)
    offset = (shift[0] * size, shift[1] * size)
    info = MapInfo(src.source, fmt, size, offset, (), tuple(notes), background, levels)
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


def _floors(f: Fields, d: dict[str, Any], size: float, shift: tuple[int, int], notes: list[str]) -> list[Floor]:
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
        x, y = f.on_grid(at, (f.number(tile, "x", at) / size - shift[0], f.number(tile, "y", at) / size - shift[1]))
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


def _tokens(d: dict[str, Any], grid: Grid, size: float, shift: tuple[int, int], notes: list[str]) -> list[Token]:
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
            continue
        elevation = _token_number(t, "elevation", at, 0.0, notes) or 0.0
        height = _token_height(t, at, notes)
        tags: frozenset[str] = frozenset()
        disposition = t.get("disposition")
        if disposition in DISPOSITIONS and not isinstance(disposition, bool):
            tags = frozenset({DISPOSITIONS[disposition]})
        elif "disposition" in t:
            notes.append(f"{at} disposition must be -1, 0 or 1, got {show(disposition)}: no disposition tag")
        out.append(Token(sx, sy, size=w if w == h else (w, h), name=name, elevation=elevation, height=height,
                         tags=tags))
    return out


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
        Template documents, e.g. from :func:`aoegrid.export.foundry_template`,
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
    >>> from aoegrid.export import foundry_template
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
