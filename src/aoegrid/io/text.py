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
"""

from __future__ import annotations

import itertools
import os
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from aoegrid.errors import InvalidTypeError
from aoegrid.grid import Grid
from aoegrid.io.common import MapFileError, MapInfo, decode_text, open_file
from aoegrid.maps import BattleMap
from aoegrid.tokens import Token
from aoegrid.walls import Wall, WallKind

__all__ = ["SUFFIXES", "read_text_map"]

#: The extensions :func:`aoegrid.io.load_map` reads as text maps.
SUFFIXES = (".txt", ".map")

_WALLISH = "#+'"
_DOORS = {"+": False, "'": True}  # character -> open
#: Terrain characters and their kinds (:class:`aoegrid.options.Terrain` codes).
TERRAIN = {"~": 1, "^": 2, "%": 3}


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
    rows = _text_rows(text, source)
    height, width = len(rows), len(rows[0])

    def wallish(x: int, y: int) -> bool:
        return 0 <= x < width and 0 <= y < height and rows[y][x] in _WALLISH

    boxes, walls, tokens = [], [], []
    terrain = np.zeros((height, width), dtype=np.int8)
    for y, x, ch in _cells(rows):
        if ch == "#":
            boxes.append(shapely.box(x, y, x + 1, y + 1))
        elif ch in _DOORS:
            across = wallish(x - 1, y) + wallish(x + 1, y)
            down = wallish(x, y - 1) + wallish(x, y + 1)
            if across == down:
                raise MapFileError(
                    f"{source}: row {y + 1}, column {x + 1}: cannot tell which way the door runs; "
                    f"put it between two wall squares in a row or in a column"
                )
            ends = ((x, y + 0.5), (x + 1, y + 0.5)) if across > down else ((x + 0.5, y), (x + 0.5, y + 1))
            walls.append(Wall(ends[0], ends[1], kind=WallKind.DOOR, open=_DOORS[ch]))
        elif ch in TERRAIN:
            terrain[y, x] = TERRAIN[ch]
        elif ch.isalpha():
            tokens.append(Token(x, y, name=ch))
    if boxes:
        # One outline per connected block of wall squares; simplify(0) merges
        # the collinear unit edges, so a long wall is one segment.
        walls = [*_outline_walls(shapely.simplify(shapely.coverage_union_all(boxes), 0.0)), *walls]
    return BattleMap(Grid(width, height), walls, tokens, info=MapInfo(source, "text"), terrain=terrain)


def _outline_walls(geometry: Any) -> list[Wall]:
    rings = [geometry.boundary] if geometry.geom_type == "Polygon" else [g.boundary for g in geometry.geoms]
    out = []
    for ring in rings:
        lines = ring.geoms if ring.geom_type == "MultiLineString" else [ring]
        for line in lines:
            coords = list(line.coords)
            out += [Wall(a, b) for a, b in itertools.pairwise(coords)]
    return out


def _text_rows(text: str, source: str) -> list[str]:
    rows = [line.rstrip() for line in textwrap.dedent(text).splitlines()]
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    if not rows:
        raise MapFileError(f"{source}: the text map has no rows")
    width = len(rows[0])
    for r, row in enumerate(rows, start=1):
        if len(row) != width:
            raise MapFileError(
                f"{source}: row {r}, column {min(len(row), width) + 1}: row {r} has {len(row)} "
                f"squares but row 1 has {width}; all rows must be the same length"
            )
    for y, x, ch in _cells(rows):
        if ch not in "#.+'~^%" and not (ch.isascii() and ch.isalpha()):
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
