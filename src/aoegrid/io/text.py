"""Text maps: one character a square, for tests and quick sketches.

One character per square, one line per row of squares:

* ``#`` a wall square: the outline of each connected block of ``#`` squares
  becomes walls, so effects stop at the faces of the wall squares;
* ``.`` floor;
* ``+`` a closed door, ``'`` an open door: one door segment across the middle
  of the square, running along the wall it sits in (between ``#``, ``+`` or
  ``'`` squares to its left and right it runs left to right, between such
  squares above and below it runs top to bottom), so the door square is the
  doorway and the door closes it;
* a letter ``a``-``z``, ``A``-``Z``: a medium creature (:class:`~aoegrid.Token`
  named by the letter) standing on floor;
* terrain for movement (``BattleMap.terrain``; effects and sight pass over
  it): ``~`` difficult, ``^`` greater difficult, ``%`` impassable (a chasm,
  a pillar too low to block sight).

Blank lines before and after the map and the indentation common to all rows
are ignored; trailing whitespace is stripped; then every row must have the
same length and every character must be one of the above. Rows and columns
in error messages count from 1.

Heights and floors (:attr:`Wall.top <aoegrid.Wall>`, :class:`~aoegrid.Floor`;
heights in feet, as token elevations) go on lines after the rows:

* ``heights: #=..20 ==0..5 +=0..10``: each entry is a character, ``=`` and
  the span ``bottom..top`` its walls cover (an end left out is unbounded).
  ``#``, ``+`` and ``'`` set the span of wall squares and doors; any other
  character (not a letter, ``.`` or a terrain symbol) becomes a wall square
  of its own, outlined as its own blocks (a low wall, a parapet);
* ``floor 10: 1,1 8,1 8,4 1,4``: a floor at height 10 whose outline runs
  through those grid points (corners of squares are whole numbers); ``/``
  starts a hole: ``floor 10: 0,0 9,0 9,5 0,5 / 3,1 5,1 5,3 3,3``.

Examples
--------
>>> m = read_text_map('''
...     #########
...     #a......#
...     #...#####
...     #...+..b#
...     #########
... ''')
>>> m
<BattleMap 9x5, 13 walls (1 door or window), 0 fog zones, 2 tokens>
>>> [(t.name, t.x, t.y) for t in m.tokens]
[('a', 1, 1), ('b', 7, 3)]
>>> door = m.door_near((4.5, 3.5))
>>> m.walls[door].start, m.walls[door].end, m.walls[door].open
((4.5, 3.0), (4.5, 4.0), False)
>>> read_text_map("a~^%.").terrain
array([[0, 1, 2, 3, 0]], dtype=int8)
>>> loft = read_text_map('''
...     #########
...     #a..=..b#
...     #...=...#
...     #########
...     heights: #=..20 ==0..5
...     floor 10: 1,1 4,1 4,3 1,3
... ''')
>>> sorted({w.span for w in loft.walls})
[(-inf, 20.0), (0.0, 5.0)]
>>> loft.floors[0].elevation, loft.floors[0].polygon.bounds
(10.0, (1.0, 1.0, 4.0, 3.0))

Hex maps start with a line ``hex: ORIENTATION OFFSET`` (``pointy`` or
``flat``; ``odd`` or ``even``: :class:`~aoegrid.HexGrid`'s layouts), then one
line per row of hexes, one character per hex, the hexes of a row separated
by one space. In the pointy layouts the shoved rows (odd rows for ``odd``,
even ones for ``even``; counted from 0) are indented by one space, so the
text looks like the map; in the flat layouts, whose columns are shoved, no
row is indented (each line is still a row: hex ``(col, row)`` is the
``col``-th character of line ``row``). Hexes are ``.`` floor, ``#`` a wall
hex (each edge between a ``#`` hex and a hex that is not one, or the map's
edge, is a wall) and a letter, a creature one hex across
(``Token(col, row)`` named by the letter); hex maps have no doors, terrain,
heights or floor lines. :func:`hex_text` writes a map back in this layout.

>>> m = read_text_map('''
...     hex: pointy odd
...     . . # . .
...      . # a . .
...     . . . . b
... ''')
>>> m.grid, [(t.name, t.x, t.y) for t in m.tokens], len(m.walls)
(HexGrid(5, 3, orientation='pointy', offset='odd', size=5.0, units='ft'), [('a', 2, 1), ('b', 4, 2)], 10)
>>> print(hex_text(m))
hex: pointy odd
. . # . .
 . # a . .
. . . . b
"""

from __future__ import annotations

import itertools
import math
import os
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from aoegrid.board.floors import Floor
from aoegrid.board.walls import Wall, WallKind
from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry.grid import Grid
from aoegrid.geometry.hexgrid import HexGrid, HexOffset, HexOrientation
from aoegrid.geometry.tokens import Token
from aoegrid.io.common import MapFileError, MapInfo, decode_text, open_file
from aoegrid.maps import BattleMap

__all__ = ["SUFFIXES", "hex_text", "read_text_map"]

#: The extensions :func:`aoegrid.io.load_map` reads as text maps.
SUFFIXES = (".txt", ".map")

_WALLISH = "#+'"
_DOORS = {"+": False, "'": True}  # character -> open
#: Terrain characters and their kinds (:class:`aoegrid.geometry.options.Terrain` codes).
TERRAIN = {"~": 1, "^": 2, "%": 3}
_ANY_HEIGHT = (-math.inf, math.inf)


def read_text_map(text_or_path: str | os.PathLike[str]) -> BattleMap:
    """A map from the text format in this module's docstring.

    Parameters
    ----------
    text_or_path : str or path-like
        The map itself, or a file holding it: a path object, or a string
        with no line break ending in ``.txt`` or ``.map``.

    Returns
    -------
    BattleMap
        One square (5 ft) per character.

    Raises
    ------
    MapFileError
        For rows of different lengths, an unknown character or a door that
        does not sit between wall squares, naming the row and column.
    """
    if isinstance(text_or_path, os.PathLike) or (
        isinstance(text_or_path, str)
        and "\n" not in text_or_path
        and text_or_path.strip().lower().endswith(SUFFIXES)
    ):
        source = os.fspath(text_or_path)
        with open_file(Path(source), source) as fh:
            text = decode_text(fh.read(), source)[0].removeprefix("\ufeff")
    elif isinstance(text_or_path, str):
        source, text = "<text>", text_or_path
    else:
        raise InvalidTypeError(f"read_text_map needs the map as a string or a path, got {text_or_path!r}")
    return text_map(text, source)


def text_map(text: str, source: str) -> BattleMap:
    """The map of a text map's characters; ``source`` names it in errors."""
    lines = text.splitlines()
    head = next((line.strip() for line in lines if line.strip()), "")
    if head.partition(":")[0].strip() == "hex":
        return _hex_map(lines, source)
    directives: list[str] = []
    while lines and (not lines[-1].strip() or ":" in lines[-1]):  # a row never holds ":"
        line = lines.pop().strip()
        if line:
            directives.insert(0, line)
    spans, floors = _directives(directives, source)
    rows = _text_rows("\n".join(lines), source, "".join(spans))
    height, width = len(rows), len(rows[0])
    wallish_chars = _WALLISH + "".join(spans)

    def wallish(x: int, y: int) -> bool:
        return 0 <= x < width and 0 <= y < height and rows[y][x] in wallish_chars

    boxes: dict[str, list[shapely.Polygon]] = {}
    walls, tokens = [], []
    terrain = np.zeros((height, width), dtype=np.int8)
    for y, x, ch in _cells(rows):
        if ch == "#" or ch in spans and ch not in _DOORS:
            boxes.setdefault(ch, []).append(shapely.box(x, y, x + 1, y + 1))
        elif ch in _DOORS:
            across = wallish(x - 1, y) + wallish(x + 1, y)
            down = wallish(x, y - 1) + wallish(x, y + 1)
            if across == down:
                raise MapFileError(
                    f"{source}: row {y + 1}, column {x + 1}: cannot tell which way the door runs; "
                    f"put it between two wall squares in a row or in a column"
                )
            ends = ((x, y + 0.5), (x + 1, y + 0.5)) if across > down else ((x + 0.5, y), (x + 0.5, y + 1))
            bottom, top = spans.get(ch, _ANY_HEIGHT)
            walls.append(Wall(ends[0], ends[1], kind=WallKind.DOOR, open=_DOORS[ch], bottom=bottom, top=top))
        elif ch in TERRAIN:
            terrain[y, x] = TERRAIN[ch]
        elif ch.isalpha():
            tokens.append(Token(x, y, name=ch))
    # One outline per connected block of a wall character's squares; simplify(0)
    # merges the collinear unit edges, so a long wall is one segment.
    outlines = [w for ch, squares in boxes.items()
                for w in _outline_walls(shapely.simplify(shapely.coverage_union_all(squares), 0.0),
                                        *spans.get(ch, _ANY_HEIGHT))]
    return BattleMap(Grid(width, height), [*outlines, *walls], tokens, info=MapInfo(source, "text"), terrain=terrain,
                     floors=floors)


def _outline_walls(geometry: Any, bottom: float, top: float) -> list[Wall]:
    rings = [geometry.boundary] if geometry.geom_type == "Polygon" else [g.boundary for g in geometry.geoms]
    out = []
    for ring in rings:
        lines = ring.geoms if ring.geom_type == "MultiLineString" else [ring]
        for line in lines:
            coords = list(line.coords)
            out += [Wall(a, b, bottom=bottom, top=top) for a, b in itertools.pairwise(coords)]
    return out


def _directives(lines: list[str], source: str) -> tuple[dict[str, tuple[float, float]], list[Floor]]:
    """The ``heights:`` spans by character and the ``floor`` lines' floors (see the module's docstring)."""
    spans: dict[str, tuple[float, float]] = {}
    floors = []
    for line in lines:
        head, _, body = line.partition(":")
        words = head.split()
        if words == ["heights"]:
            for entry in body.split():
                spans[entry[0]] = _span(entry, line, source)
        elif len(words) == 2 and words[0] == "floor":
            elevation = _number(words[1], line, source)
            rings = [[_point(p, line, source) for p in ring.split()] for ring in body.split("/")]
            if min(map(len, rings)) < 3:
                raise MapFileError(f"{source}: {line!r}: a floor's outline and holes need 3 or more points each")
            try:
                floors.append(Floor(shapely.Polygon(rings[0], rings[1:]), elevation))
            except InvalidValueError as exc:
                raise MapFileError(f"{source}: {line!r}: not a valid floor: {exc}") from None
        else:
            raise MapFileError(f"{source}: {line!r}: a line after the map is 'heights: C=bottom..top ...' "
                               "or 'floor Z: x,y x,y x,y ...'")
    return spans, floors


def _span(entry: str, line: str, source: str) -> tuple[float, float]:
    """``C=bottom..top``: the heights character ``C``'s walls span."""
    ch, eq, span = entry[0], entry[1:2], entry[2:]
    lo, dots, hi = span.partition("..")
    if eq != "=" or not dots:
        raise MapFileError(f"{source}: {line!r}: {entry!r} is not C=bottom..top (e.g. #=0..10, an end may be left out)")
    if ch.isalpha() or ch in ".:" + "".join(TERRAIN):
        raise MapFileError(f"{source}: {line!r}: {ch!r} cannot be a wall: letters are creatures, "
                           ". floor, ~ ^ % terrain and : ends a heights or floor line's name")
    bottom = _number(lo, line, source) if lo else -math.inf
    top = _number(hi, line, source) if hi else math.inf
    if bottom > top:
        raise MapFileError(f"{source}: {line!r}: {ch} spans {bottom:g}..{top:g}: its bottom is above its top")
    return bottom, top


def _number(text: str, line: str, source: str) -> float:
    try:
        out = float(text)
    except ValueError:
        out = math.nan
    if not math.isfinite(out):
        raise MapFileError(f"{source}: {line!r}: {text!r} is not a number")
    return out


def _point(text: str, line: str, source: str) -> tuple[float, float]:
    x, comma, y = text.partition(",")
    if not comma:
        raise MapFileError(f"{source}: {line!r}: {text!r} is not a point x,y")
    return _number(x, line, source), _number(y, line, source)


def _text_rows(text: str, source: str, walls: str = "") -> list[str]:
    rows = [line.rstrip() for line in textwrap.dedent(text).splitlines()]
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    if not rows:
        raise MapFileError(f"{source}: the text map has no rows")
    width = len(rows[0])
    for r, row in enumerate(rows, start=1):
        if ":" in row:
            raise MapFileError(f"{source}: row {r}: heights and floor lines go after the map's rows")
        if len(row) != width:
            raise MapFileError(
                f"{source}: row {r}, column {min(len(row), width) + 1}: row {r} has {len(row)} "
                f"squares but row 1 has {width}; all rows must be the same length"
            )
    for y, x, ch in _cells(rows):
        if ch not in "#.+'~^%" + walls and not (ch.isascii() and ch.isalpha()):
            raise MapFileError(
                f"{source}: row {y + 1}, column {x + 1}: unknown character {ch!r}; use # (wall), "
                f". (floor), + (closed door), ' (open door), ~ (difficult terrain), ^ (greater difficult), "
                f"% (impassable) or a letter (a creature)"
            )
    return rows


def _cells(rows: list[str]) -> Iterator[tuple[int, int, str]]:
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            yield y, x, ch


# -- hex maps -----------------------------------------------------------------------------------

_HEX_CELLS = "#."


def _hex_map(lines: list[str], source: str) -> BattleMap:
    """The map of a hex text map (see the module's docstring)."""
    rows = [line.rstrip() for line in lines]
    while rows and not rows[-1].strip():
        rows.pop()
    while rows and not rows[0].strip():
        rows.pop(0)
    head, *rows = rows
    words = head.partition(":")[2].split()
    if len(words) != 2:
        raise MapFileError(f"{source}: {head.strip()!r}: a hex map starts with 'hex: ORIENTATION OFFSET', "
                           f"e.g. 'hex: pointy odd' (pointy or flat; odd or even)")
    try:
        orientation = HexOrientation(words[0].lower())
        offset = HexOffset(words[1].lower())
    except ValueError:
        raise MapFileError(f"{source}: {head.strip()!r}: the orientation is pointy or flat and the offset odd or "
                           f"even, got {words[0]!r} and {words[1]!r}") from None
    if not rows:
        raise MapFileError(f"{source}: the hex map has no rows")
    cells = [row.split() for row in rows]
    width = len(cells[0])
    for r, (row, line) in enumerate(zip(cells, rows, strict=True), start=1):
        if ":" in line:
            raise MapFileError(f"{source}: row {r}: hex maps have no heights or floor lines")
        if len(row) != width:
            raise MapFileError(f"{source}: row {r} has {len(row)} hexes but row 1 has {width}; all rows must "
                               f"have the same number of hexes")
        for c, ch in enumerate(row, start=1):
            if len(ch) != 1:
                raise MapFileError(f"{source}: row {r}, hex {c}: {ch!r} is not one character; separate the hexes "
                                   f"of a row by spaces")
            if ch not in _HEX_CELLS and not (ch.isascii() and ch.isalpha()):
                raise MapFileError(f"{source}: row {r}, hex {c}: unknown character {ch!r}; on a hex map use # "
                                   f"(wall), . (floor) or a letter (a creature)")
    grid = HexGrid(width, len(cells), orientation, offset)
    walled = {(c, r) for r, row in enumerate(cells) for c, ch in enumerate(row) if ch == "#"}
    tokens = [Token(c, r, name=ch) for r, row in enumerate(cells) for c, ch in enumerate(row) if ch.isalpha()]
    return BattleMap(grid, _hex_walls(grid, walled), tokens, info=MapInfo(source, "text"))


def _hex_walls(grid: HexGrid, walled: set[tuple[int, int]]) -> list[Wall]:
    """A wall along each edge between a wall hex and a hex that is not one (or no hex: the map's edge)."""
    out = []
    for col, row in sorted(walled, key=lambda h: (h[1], h[0])):
        # Rounded, so the corner two wall hexes share is one point in both (the centres differ in the last bit).
        corners = grid.corners(col, row).round(12)
        cx, cy = grid.center(col, row)
        for k in range(6):
            a, b = corners[k], corners[(k + 1) % 6]
            # The hex across this edge: its centre is this one's mirrored in the edge's midpoint.
            ncol, nrow = grid.hex_at(a[0] + b[0] - cx, a[1] + b[1] - cy)
            if (ncol, nrow) not in walled:
                out.append(Wall((float(a[0]), float(a[1])), (float(b[0]), float(b[1]))))
    return out


def hex_text(m: BattleMap) -> str:
    """A map on a :class:`~aoegrid.HexGrid` in the hex text layout (see this module's docstring).

    A hex is ``#`` when it lies inside the walls (an odd number of walls
    between its centre and the map's edge, straight left on pointy-top
    hexes, straight up on flat-top ones: the outlines of the wall hexes of
    a map read from text), a creature's letter when a one-hex creature named
    by one letter stands on it, else ``.``.

    Raises
    ------
    InvalidTypeError
        For a map that is not on a hex grid.
    InvalidValueError
        For a creature that is not one hex across or not named by one letter.
    """
    g = m.grid
    if not isinstance(g, HexGrid):
        raise InvalidTypeError(f"hex_text writes maps on an aoegrid.HexGrid, got a map on {g!r}")
    rows = [["."] * g.width for _ in range(g.height)]
    segments = shapely.multilinestrings([[w.start, w.end] for w in m.walls]) if m.walls else None
    pointy = g.orientation is HexOrientation.POINTY
    for row in range(g.height):
        for col in range(g.width):
            x, y = g.center(col, row)
            ray = shapely.LineString([(x, y), (-1.0, y)] if pointy else [(x, y), (x, -1.0)])
            crossed = shapely.intersection(ray, segments) if segments is not None else None
            if crossed is not None and not crossed.is_empty and len(shapely.get_parts(crossed)) % 2:
                rows[row][col] = "#"
    for t in m.tokens:
        if not (isinstance(t, Token) and t.footprint == (1, 1) and t.name and len(t.name) == 1 and t.name.isascii()
                and t.name.isalpha()):
            raise InvalidValueError(f"hex_text writes creatures one hex across named by one letter, got {t!r}")
        rows[t.y][t.x] = t.name
    shoved = 1 if g.offset is HexOffset.ODD else 0
    lines = [f"hex: {g.orientation.value} {g.offset.value}"]
    for r, row in enumerate(rows):
        indent = " " if pointy and r % 2 == shoved and g.height > 1 else ""
        lines.append(indent + " ".join(row))
    return "\n".join(lines)
