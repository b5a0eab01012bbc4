"""Battle maps from files: Universal VTT, Foundry VTT scenes and text sketches.

:func:`load_map` picks the reader by extension:

========================================  =====================================
extension                                 reader
========================================  =====================================
``.dd2vtt``, ``.uvtt``, ``.df2vtt``       :func:`read_uvtt` (Universal VTT
                                          0.2 / 0.3: Dungeondraft, DungeonFog,
                                          Arkenforge...)
``.json``                                 :func:`read_foundry` for an exported
                                          Foundry VTT scene (it has a
                                          ``walls`` list), :func:`read_uvtt`
                                          for Universal VTT saved as JSON
``.txt``, ``.map``                        :func:`read_text_map`
========================================  =====================================

Every reader returns a :class:`~aoegrid.BattleMap` in grid units (squares of
5 ft unless the file says otherwise) whose ``info`` is a :class:`MapInfo`:
the source, the format, the lights, and notes on everything odd found while
reading (dropped zero-length walls, walls cut under doors, walls off the
image...). A file that cannot be read raises :class:`MapFileError`, whose
message names the file and the field, e.g. ``cave.dd2vtt:
resolution.pixels_per_grid must be a positive number, got -3``. Missing files
and unreadable disks raise the usual :class:`OSError`; a directory, a FIFO or
a device is refused without waiting to read it.

Files are read as UTF-8, with or without a byte order mark, or as UTF-16 or
UTF-32 (by their byte order mark, or UTF-16 without one by its zero bytes);
other bytes give a :class:`MapFileError` naming the offset of the bad byte.

Text maps
---------
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
  named by the letter) standing on floor.

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
<BattleMap 9x5, 13 walls (1 doors/windows), 0 fog zones, 2 tokens>
>>> [(t.name, t.x, t.y) for t in m.tokens]
[('a', 1, 1), ('b', 7, 3)]
>>> door = m.door_near((4.5, 3.5))
>>> m.walls[door].start, m.walls[door].end, m.walls[door].open
((4.5, 3.0), (4.5, 4.0), False)
"""

from __future__ import annotations

import base64
import codecs
import itertools
import json
import math
import os
import re
import stat
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, BinaryIO, NoReturn

import numpy as np
import shapely

from aoegrid._validate import shown, shown_int
from aoegrid.errors import GridTooLargeError, InvalidTypeError, InvalidValueError
from aoegrid.grid import Grid
from aoegrid.maps import BattleMap
from aoegrid.tokens import Token
from aoegrid.walls import Channel, Wall, WallKind

__all__ = [
    "Light",
    "MapFileError",
    "MapInfo",
    "demo_map",
    "load_map",
    "read_foundry",
    "read_text_map",
    "read_uvtt",
]

Point = tuple[float, float]
Segment = tuple[Point, Point]

#: Points closer than this (in squares) are the same point. Dungeondraft
#: writes six decimals, and subtracting the map origin adds float noise of
#: about 1e-15, so 1e-6 of a square tells real gaps from rounding.
_TOL = 1e-6

#: The bundled demo map (MIT, see ``data/LICENSE-cave-oganm.txt``).
DEMO_FILE = "cave-oganm.dd2vtt"

_UVTT_SUFFIXES = (".dd2vtt", ".uvtt", ".df2vtt")
_TEXT_SUFFIXES = (".txt", ".map")


class MapFileError(InvalidValueError):
    """A map file aoegrid cannot read; the message names the file and the field."""


@dataclass(frozen=True, slots=True)
class Light:
    """A light a map file placed: kept as data, aoegrid does not light squares.

    Parameters
    ----------
    position : (x, y)
        In grid units, on the map's grid (after the file's origin shift).
    range : float
        How far it reaches, in squares.
    intensity : float
        As the file gives it (Universal VTT: 1 is normal).
    color : str
        As the file gives it (Universal VTT: ``"aarrggbb"`` hex).
    """

    position: Point
    range: float
    intensity: float
    color: str


@dataclass(frozen=True, slots=True)
class _ImageRef:
    """Where an embedded image's base64 text lies in its file, to read it later.

    ``start`` and ``end`` are byte offsets of the JSON string literal,
    quotes included, in the file's ``encoding``. ``stamp`` (size, mtime in
    ns) catches a file changed since it was read; ``None`` for packaged
    resources, which do not change.
    """

    file: Path | Traversable
    start: int
    end: int
    stamp: tuple[int, int] | None
    encoding: str = "utf-8"

    def literal(self, source: str) -> bytes:
        """The string literal as UTF-8 bytes, quotes included, read from the file."""
        try:
            with _open(self.file, source) as fh:
                if self.stamp is not None and _stamp(fh) != self.stamp:
                    raise MapFileError(
                        f"{source}: the file changed since it was read; read it again to get its image"
                    )
                fh.seek(self.start)
                raw = fh.read(self.end - self.start)
        except OSError as exc:
            raise MapFileError(f"{source}: cannot read the image again: {exc}") from None
        return raw if self.encoding == "utf-8" else raw.decode(self.encoding).encode()


def _stamp(fh: Any) -> tuple[int, int]:
    st = os.fstat(fh.fileno())
    return (st.st_size, st.st_mtime_ns)


def _open(file: Path | Traversable, source: str) -> BinaryIO:
    """``file`` opened for reading bytes, if it is a regular file.

    A directory, a FIFO or a device is refused with a :class:`MapFileError`:
    reading a FIFO or a terminal would wait forever. The check is made on
    the opened file (opened without blocking), so nothing can swap the file
    between the check and the read. Packaged resources are opened as they are.
    """
    if not isinstance(file, Path):
        return file.open("rb")
    if "\0" in source:
        raise MapFileError(f"{source!r}: a file name cannot contain a NUL character")
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except IsADirectoryError:  # where directories cannot be opened at all (Windows)
        raise MapFileError(f"{source}: is a directory, not a map file") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        what = "a directory" if stat.S_ISDIR(mode) else "not a regular file (a FIFO, socket or device)"
        raise MapFileError(f"{source}: is {what}, not a map file")
    return os.fdopen(fd, "rb")


#: Byte order marks, longest first (UTF-32 LE starts with UTF-16 LE's mark),
#: and the codec that reads the text with the mark kept as U+FEFF, so
#: character offsets still map to byte offsets by encoding with that codec.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def _encoding(raw: bytes) -> str:
    """The encoding of a text file: by its byte order mark, else UTF-8.

    Without a mark, UTF-16 is recognised by its zero bytes (map text is
    mostly ASCII, so every other byte is zero), as :func:`json.loads` does.
    """
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            return codec
    if b"\0" in raw[:4]:
        return json.detect_encoding(raw[:4])
    return "utf-8"


def decode_text(raw: bytes, source: str) -> tuple[str, str]:
    """The text of a file and its encoding; a leading byte order mark stays in the text."""
    codec = _encoding(raw)
    try:
        return raw.decode(codec), codec
    except UnicodeDecodeError as exc:
        raise MapFileError(
            f"{source}: not {codec.upper().removesuffix('-LE').removesuffix('-BE')} text "
            f"(bad byte at offset {exc.start}); save it as UTF-8"
        ) from None


@dataclass(frozen=True, slots=True)
class MapInfo:
    """What a map file said beyond walls and tokens: a :class:`BattleMap`'s ``info``.

    Parameters
    ----------
    source : str
        The file the map came from, as given (``"<text>"`` for a text map
        given as a string).
    format : str
        ``"uvtt 0.3"``, ``"uvtt 0.2"``, ``"foundry v10"``, ``"foundry
        0.7-v9"`` (the older scene layout) or ``"text"``.
    pixels_per_grid : float or None
        Pixels per square in the file's image or scene; None for text maps.
    origin_shift : (x, y)
        Subtracted from every file coordinate (in squares) to put it on the
        grid: Universal VTT's ``map_origin``, Foundry's scene padding.
    lights : tuple of Light
    notes : tuple of str
        Everything odd found while reading, e.g. ``"dropped 4 zero-length
        wall segments (repeated points)"``.

    Notes
    -----
    The embedded image of a Universal VTT file (base64 PNG or WebP, hundreds
    of MB in the wild) is neither decoded nor kept while the walls are read:
    the file is read once, the image's string is skipped over, and only its
    byte offsets are kept. :meth:`image` re-reads just those bytes and
    decodes them, each time it is called, so a map holds no image memory and
    a huge file is never read whole twice.
    """

    source: str
    format: str
    pixels_per_grid: float | None = None
    origin_shift: Point = (0.0, 0.0)
    lights: tuple[Light, ...] = ()
    notes: tuple[str, ...] = ()
    _image: _ImageRef | None = field(default=None, repr=False, compare=False)

    def image(self) -> tuple[bytes, str] | None:
        """The embedded image, decoded now: ``(data, format)``, or None.

        ``format`` is ``"png"``, ``"webp"``, ``"jpeg"`` or ``"gif"`` by the
        data's magic bytes, ``"unknown"`` otherwise. None when the file has
        no image (an absent or empty ``image`` field; Foundry scenes and text
        maps never embed one).

        Raises
        ------
        MapFileError
            If the file changed or vanished since it was read, or the image
            is not base64.

        Examples
        --------
        >>> data, kind = demo_map().info.image()
        >>> kind, data[:4]
        ('png', b'\\x89PNG')
        """
        if self._image is None:
            return None
        literal = self._image.literal(self.source)
        body = literal[1:-1]
        if b"\\" in body:
            # A writer that escapes "/" as "\/" (allowed by JSON): unescape.
            body = json.loads(literal).encode("ascii", "replace")
        if body[:5] == b"data:":
            # A data URL: the base64 text starts after the comma.
            body = body.partition(b",")[2]
        try:
            data = base64.b64decode(body)
        except ValueError:
            raise MapFileError(f"{self.source}: image is not valid base64") from None
        return data, _image_kind(data)


def _image_kind(data: bytes) -> str:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data[:4] == b"GIF8":
        return "gif"
    return "unknown"


# --------------------------------------------------------------------------
# Public readers
# --------------------------------------------------------------------------


def read_uvtt(path: str | os.PathLike[str], *, objects: bool = True) -> BattleMap:
    """A map from a Universal VTT file (``.dd2vtt``, ``.uvtt``, ``.df2vtt``).

    Parameters
    ----------
    path : str or path-like
    objects : bool
        Whether ``objects_line_of_sight`` (outlines of pillars, furniture and
        other light-blocking objects; absent from format 0.2) become walls
        too.

    Returns
    -------
    BattleMap
        ``map_size`` squares of 5 ft. File coordinates are squares of the
        uncropped canvas, so ``resolution.map_origin`` is subtracted from
        every point. ``line_of_sight`` polylines (and object outlines) become
        walls blocking everything, also where they lie off the image (they
        still block; :attr:`MapInfo.notes` counts those wholly outside it).
        Each portal becomes a closed door (``closed: true``) or a window
        (``closed: false``): the format has no door state, so doors load
        closed. Where a portal lies along a wall that was not cut for it,
        that piece of wall is cut out so the portal alone controls the gap.
        Zero-length segments are dropped. Lights are kept in
        :attr:`MapInfo.lights`; the image is not decoded (see
        :meth:`MapInfo.image`).

    Raises
    ------
    MapFileError
        Invalid or truncated JSON (with line and column), a missing field, a
        field of the wrong type, a NaN or infinite coordinate, a portal
        without bounds, or a map too large for this machine (refused before
        anything grid-sized is allocated).
    OSError
        If the file cannot be read.

    Examples
    --------
    >>> m = read_uvtt(resources.files("aoegrid") / "data" / DEMO_FILE)
    >>> m.grid.width, m.grid.height, len(m.doors), m.info.format
    (20, 20, 3, 'uvtt 0.3')
    """
    return _uvtt_map(_read_json(_as_path(path), str(path)), objects=objects)


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
        image and is ignored.

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
    ``one_way`` with the same names. Tokens, lights and everything else are
    skipped (a note counts skipped tokens and lights). Hex grids are
    refused.

    Raises
    ------
    MapFileError
        Invalid JSON, a missing ``walls`` list or grid size, a field of the
        wrong type or out of range, a NaN coordinate, a hex grid, or a scene
        too large for this machine.
    OSError
        If the file cannot be read.
    """
    return _foundry_map(_read_json(_as_path(path), str(path)), invisible_blocks_effect=invisible_blocks_effect)


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
        and text_or_path.strip().lower().endswith(_TEXT_SUFFIXES)
    ):
        source = os.fspath(text_or_path)
        with _open(Path(source), source) as fh:
            text = decode_text(fh.read(), source)[0].removeprefix("\ufeff")
    elif isinstance(text_or_path, str):
        source, text = "<text>", text_or_path
    else:
        raise InvalidTypeError(f"read_text_map needs the map as a string or a path, got {text_or_path!r}")
    return _text_map(text, source)


def load_map(path: str | os.PathLike[str], **options: Any) -> BattleMap:
    """A map from a file, the reader picked by the file's extension.

    Parameters
    ----------
    path : str or path-like
        ``.dd2vtt``, ``.uvtt``, ``.df2vtt``: :func:`read_uvtt`; ``.json``:
        :func:`read_foundry` if the file has a ``walls`` list, else
        :func:`read_uvtt` if it has ``line_of_sight``; ``.txt``, ``.map``:
        :func:`read_text_map`.
    **options
        Passed to the reader (``objects`` for Universal VTT,
        ``invisible_blocks_effect`` for Foundry).

    Raises
    ------
    MapFileError
        For an extension aoegrid cannot read (the message lists those it
        can), or a ``.json`` file that is neither a scene nor Universal VTT;
        and everything the readers raise.
    InvalidTypeError
        For an option the file's reader does not take.
    """
    source = os.fspath(_as_path(path))
    suffix = Path(source).suffix.lower()
    if suffix in _UVTT_SUFFIXES:
        _check_options(source, "Universal VTT", options, ("objects",))
        return read_uvtt(path, **options)
    if suffix in _TEXT_SUFFIXES:
        _check_options(source, "text map", options, ())
        return read_text_map(Path(source))
    if suffix == ".json":
        # Read the file once and look inside to choose the reader.
        src = _read_json(Path(source), source)
        if isinstance(src.data.get("walls"), list):
            _check_options(source, "Foundry VTT scene", options, ("invisible_blocks_effect",))
            return _foundry_map(src, **options)
        if "line_of_sight" in src.data:
            _check_options(source, "Universal VTT", options, ("objects",))
            return _uvtt_map(src, **options)
        raise MapFileError(
            f"{source}: neither a Foundry VTT scene (no 'walls' list) nor Universal VTT "
            f"(no 'line_of_sight')"
        )
    raise MapFileError(
        f"{source}: cannot read {suffix or 'files without an extension'!r}; supported: "
        f"{', '.join(_UVTT_SUFFIXES)} (Universal VTT), .json (Foundry VTT scene or Universal VTT), "
        f"{', '.join(_TEXT_SUFFIXES)} (text map)"
    )


def demo_map() -> BattleMap:
    """The cave map bundled with aoegrid: 20 x 20 squares, off-grid walls, three doors.

    ``cave-oganm.dd2vtt`` from oganm/dd2vtt_importer (MIT, Copyright (c)
    2021 Ogan Mancarcı), read with :func:`read_uvtt`.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = demo_map()
    >>> m
    <BattleMap 20x20, 250 walls (3 doors/windows), 0 fog zones, 0 tokens>
    >>> len(ag.area(ag.Sphere(20), at=(7, 7), on=m)) < len(ag.area(ag.Sphere(20), at=(7, 7), on=m.grid))
    True
    """
    res = resources.files("aoegrid") / "data" / DEMO_FILE
    return _uvtt_map(_read_json(res, DEMO_FILE), objects=True)


def _as_path(path: object) -> Path | Traversable:
    if isinstance(path, Traversable):
        return path
    if isinstance(path, (str, os.PathLike)) and isinstance(os.fspath(path), str):
        return Path(path)
    raise InvalidTypeError(f"a map file path must be a string or a path, got {shown(path)}")


def _check_options(source: str, kind: str, options: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise InvalidTypeError(
            f"{source}: a {kind} takes no option {', '.join(map(repr, unknown))}; its options: "
            f"{', '.join(allowed) or 'none'}"
        )


# --------------------------------------------------------------------------
# JSON files, read once, their image skipped
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _JsonFile:
    source: str
    data: dict[str, Any]
    image: _ImageRef | None


_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def _read_json(file: Path | Traversable, source: str) -> _JsonFile:
    """Parse a JSON map file; its top-level ``image`` string is located, not built.

    The file is read once (its bytes, then their text: two copies for a
    moment, as :func:`json.load` makes). The image is most of a Universal
    VTT file, so copying it into a Python string of its own is skipped, and
    the map keeps only its byte offsets.
    """
    with _open(file, source) as fh:
        stamp = _stamp(fh) if isinstance(file, Path) else None
        raw = fh.read()
    text, codec = decode_text(raw, source)  # a byte order mark stays, so offsets map to bytes
    del raw
    try:
        data, span = _parse_object(text)
    except json.JSONDecodeError as exc:
        # Only whitespace after the error, or a string never closed: the file was cut short.
        truncated = exc.msg.startswith("Unterminated string") or _skip(text, exc.pos) == len(text)
        raise MapFileError(
            f"{source}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            + (" (the file ends early: truncated?)" if truncated else "")
        ) from None
    except ValueError:  # json's only other error: an integer past Python's digit limit
        raise MapFileError(
            f"{source}: invalid JSON: an integer of more than {sys.get_int_max_str_digits()} digits"
        ) from None
    except RecursionError:
        raise MapFileError(f"{source}: invalid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise MapFileError(f"{source}: expected a JSON object at the top level, got {_kind(data)}")
    image = None
    if span is not None and span[1] - span[0] > 2:  # "" is no image
        image = _ImageRef(file, *_byte_span(text, *span, codec), stamp, codec)
    return _JsonFile(source, data, image)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _byte_span(text: str, start: int, end: int, codec: str) -> tuple[int, int]:
    """The byte offsets, in ``codec``, of characters ``start`` to ``end`` of ``text``.

    In UTF-8 without copying the (huge, ASCII) image span: only the text
    before it is encoded, and only when the file has non-ASCII characters
    at all. Other encodings (rare for map files) encode both parts.
    """
    if codec != "utf-8":
        head = len(text[:start].encode(codec))
        return head, head + len(text[start:end].encode(codec))
    if text.isascii():  # O(1) in CPython
        return start, end
    head = len(text[:start].encode())
    if _NON_ASCII.search(text, start, end) is None:
        return head, head + end - start
    return head, head + len(text[start:end].encode())


def _parse_object(text: str, lazy: str = "image") -> tuple[Any, tuple[int, int] | None]:
    """``json.loads(text)``, except a top-level string value of key ``lazy``
    is skipped over: its ``(start, end)`` character span (quotes included) is
    returned instead and the key left out. A leading byte order mark is
    skipped."""
    i = _skip(text, 1 if text.startswith("\ufeff") else 0)
    if not text.startswith("{", i):
        value, i = _DECODER.raw_decode(text, i)
        return _end(text, i, value), None
    out: dict[str, Any] = {}
    span = None
    i = _skip(text, i + 1)
    if text.startswith("}", i):
        return _end(text, i + 1, out), None
    while True:
        if not text.startswith('"', i):
            raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, i)
        key, i = _DECODER.raw_decode(text, i)
        i = _skip(text, i)
        if not text.startswith(":", i):
            raise json.JSONDecodeError("Expecting ':' delimiter", text, i)
        i = _skip(text, i + 1)
        if key == lazy and text.startswith('"', i):
            end = _string_end(text, i)
            span = (i, end)
            out.pop(key, None)
            i = end
        else:
            out[key], i = _DECODER.raw_decode(text, i)
        i = _skip(text, i)
        if text.startswith(",", i):
            i = _skip(text, i + 1)
        elif text.startswith("}", i):
            return _end(text, i + 1, out), span
        else:
            raise json.JSONDecodeError("Expecting ',' delimiter", text, i)


def _skip(text: str, i: int) -> int:
    return _WS.match(text, i).end()  # type: ignore[union-attr]


def _end(text: str, i: int, value: Any) -> Any:
    """``value``, if only whitespace follows it."""
    if _skip(text, i) != len(text):
        raise json.JSONDecodeError("Extra data", text, _skip(text, i))
    return value


def _string_end(text: str, i: int) -> int:
    """The index after the JSON string starting at ``text[i] == '"'``."""
    j = i + 1
    while True:
        j = text.find('"', j)
        if j < 0:
            raise json.JSONDecodeError("Unterminated string starting at", text, i)
        k = j
        while text[k - 1] == "\\":
            k -= 1
        if (j - k) % 2 == 0:  # an even run of backslashes escapes itself, not the quote
            return j + 1
        j += 1


# --------------------------------------------------------------------------
# Field checks that name the file and the field
# --------------------------------------------------------------------------


_MISSING: Any = object()


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _show(value: object) -> str:
    """``value`` as JSON, cut short, so a message never dumps a whole list."""
    if isinstance(value, int) and not isinstance(value, bool):
        return shown(value)
    text = json.dumps(value, default=repr)
    return text if len(text) <= 40 else text[:37] + "..."


class _Fields:
    """Typed reads of one file's fields; every error names the file and the field.

    Each check takes the container (a JSON object or list), the key (a name
    or an index) and ``at``, the container's own path in the file, so the
    field is named once, e.g. ``(line, 7, "line_of_sight[3]")`` is
    ``line_of_sight[3][7]``. Missing keys are an error unless a ``default``
    is given.
    """

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, name: str, problem: str) -> NoReturn:
        raise MapFileError(f"{self.source}: {name} {problem}")

    @staticmethod
    def name(at: str, key: str | int) -> str:
        if isinstance(key, int):
            return f"{at}[{key}]"
        return f"{at}.{key}" if at else key

    def _get(self, container: Any, key: str | int, at: str, default: Any) -> tuple[Any, str]:
        name = self.name(at, key)
        if isinstance(key, int) or key in container:
            return container[key], name
        if default is _MISSING:
            self.fail(name, "is missing")
        return default, name

    def raw(self, container: Any, key: str | int, at: str = "") -> Any:
        """The value as it is, of any type (but present)."""
        return self._get(container, key, at, _MISSING)[0]

    def wrong(self, name: str, wanted: str, value: Any) -> NoReturn:
        self.fail(name, f"must be {wanted}, got {_show(value)} ({_kind(value)})")

    def mapping(self, container: Any, key: str | int, at: str = "") -> dict[str, Any]:
        value, name = self._get(container, key, at, _MISSING)
        if not isinstance(value, dict):
            self.wrong(name, "an object", value)
        return value

    def items(self, container: Any, key: str | int, at: str = "", default: Any = _MISSING) -> list[Any]:
        value, name = self._get(container, key, at, default)
        if not isinstance(value, list):
            self.wrong(name, "a list", value)
        return value

    def flag(self, container: Any, key: str | int, at: str = "") -> bool:
        value, name = self._get(container, key, at, _MISSING)
        if not isinstance(value, bool):
            self.wrong(name, "true or false", value)
        return value

    def text(self, container: Any, key: str | int, at: str = "", default: Any = _MISSING) -> str:
        value, name = self._get(container, key, at, default)
        if not isinstance(value, str):
            self.wrong(name, "a string", value)
        return value

    def number(
        self, container: Any, key: str | int, at: str = "", default: Any = _MISSING, *, positive: bool = False
    ) -> float:
        value, name = self._get(container, key, at, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.wrong(name, "a number", value)
        try:
            out = float(value)
        except OverflowError:  # an integer past the float range
            out = math.inf
        if not math.isfinite(out):
            self.fail(name, f"must be a finite number, got {_show(value)}")
        if positive and out <= 0:
            self.fail(name, f"must be a positive number, got {_show(value)}")
        return out

    def choice(self, container: Any, key: str | int, at: str, allowed: tuple[int, ...], default: int) -> int:
        value, name = self._get(container, key, at, default)
        if isinstance(value, bool) or value not in allowed:
            self.fail(name, f"must be one of {', '.join(map(str, allowed))}, got {_show(value)}")
        return int(value)

    def on_grid(self, name: str, p: Point) -> Point:
        """``p``, a file point put on the grid, if that left it a finite point."""
        if not (math.isfinite(p[0]) and math.isfinite(p[1])):
            self.fail(name, "lies too far away: in squares of the map it is beyond the float range")
        return p

    def point(self, container: Any, key: str | int, at: str = "", *, positive: bool = False) -> Point:
        """A ``{"x": ..., "y": ...}`` point."""
        p, name = self.mapping(container, key, at), self.name(at, key)
        return (self.number(p, "x", name, positive=positive), self.number(p, "y", name, positive=positive))


def _grid(fields: _Fields, name: str, width: float, height: float, notes: list[str], **grid: Any) -> Grid:
    """The grid of ``width`` x ``height`` squares, rounded up to whole squares.

    Built before any wall is read, so an absurd size is refused (by
    :class:`Grid`, before it allocates anything) at once, naming the field.
    """
    if not (math.isfinite(width) and math.isfinite(height)):  # e.g. a tiny grid size
        fields.fail(name, f"gives a grid too large to count ({width:g} x {height:g} squares)")
    w, h = math.ceil(width), math.ceil(height)
    if (w, h) != (width, height):
        notes.append(f"{name} {width:g} x {height:g} is not whole squares: rounded up to {w} x {h}")
    try:
        return Grid(w, h, **grid)
    except GridTooLargeError as exc:
        fields.fail(name, f"gives a {shown_int(w, ',')} x {shown_int(h, ',')} grid, too large: {exc}")


def _count_note(count: int, text: str) -> list[str]:
    """``text`` with the count for ``{n}`` and a plural ``s`` for ``{s}``; nothing for 0."""
    return [text.format(n=count, s="" if count == 1 else "s")] if count else []


# --------------------------------------------------------------------------
# Universal VTT
# --------------------------------------------------------------------------


def _uvtt_map(src: _JsonFile, *, objects: bool = True) -> BattleMap:
    f, d = _Fields(src.source), src.data
    notes: list[str] = []
    fmt = "uvtt"
    if "format" in d:
        version = f.number(d, "format")
        fmt = f"uvtt {version:g}"
        if version not in (0.1, 0.2, 0.3):
            notes.append(f"unknown Universal VTT format {version:g}: read as 0.3")
    else:
        notes.append("no format field: read as Universal VTT 0.3")
    if d.get("image") is not None:  # a string image was located and left out, not parsed
        f.wrong("image", "a base64 string", d["image"])
    res = f.mapping(d, "resolution")
    width, height = f.point(res, "map_size", "resolution", positive=True)
    ppg = f.number(res, "pixels_per_grid", "resolution", positive=True)
    grid = _grid(f, "resolution.map_size", width, height, notes)
    if "map_origin" in res:
        ox, oy = f.point(res, "map_origin", "resolution")
    else:
        ox, oy = 0.0, 0.0
        notes.append("no resolution.map_origin: taken as (0, 0)")

    def shifted(container: Any, key: str | int, at: str) -> Point:
        x, y = f.point(container, key, at)
        return f.on_grid(f.name(at, key), (x - ox, y - oy))

    polylines = {"line_of_sight": f.items(d, "line_of_sight")}
    if objects:  # absent from format 0.2
        polylines["objects_line_of_sight"] = f.items(d, "objects_line_of_sight", default=[])
    chains = []
    for key, lines in polylines.items():
        for i in range(len(lines)):
            line, at = f.items(lines, i, key), f.name(key, i)
            chains.append([shifted(line, j, at) for j in range(len(line))])
    segments, zero, short = _polyline_segments(chains)
    notes += _count_note(zero, "dropped {n} zero-length wall segment{s} (repeated points)")
    notes += _count_note(short, "dropped {n} wall polyline{s} with fewer than two points")

    portals: list[tuple[Segment, bool]] = []
    zero_portals = 0
    listed = f.items(d, "portals", default=[])
    for i in range(len(listed)):
        at = f.name("portals", i)
        portal = f.mapping(listed, i, "portals")
        bounds = f.items(portal, "bounds", at)
        if len(bounds) != 2:
            f.fail(f.name(at, "bounds"), f"must be two points, got {len(bounds)}")
        a, b = (shifted(bounds, j, f.name(at, "bounds")) for j in range(2))
        closed = f.flag(portal, "closed", at)
        if a == b:
            zero_portals += 1
        else:
            portals.append(((a, b), closed))
    notes += _count_note(zero_portals, "dropped {n} zero-length portal{s}")
    segments, over = _cut_under_portals(segments, [seg for seg, _ in portals])
    notes += _count_note(
        over, "cut the walls under {n} portal{s} that lay over uncut walls, so the portals control the gaps"
    )

    lights = []
    listed = f.items(d, "lights", default=[])
    for i in range(len(listed)):
        at = f.name("lights", i)
        light = f.mapping(listed, i, "lights")
        lights.append(Light(
            shifted(light, "position", at),
            f.number(light, "range", at),
            f.number(light, "intensity", at, default=1.0),
            f.text(light, "color", at, default="ffffffff"),
        ))

    walls = [Wall(a, b) for a, b in segments]
    walls += [Wall(a, b, kind=WallKind.DOOR if closed else WallKind.WINDOW) for (a, b), closed in portals]
    info = MapInfo(src.source, fmt, ppg, (ox, oy), tuple(lights), tuple(notes), src.image)
    return BattleMap(grid, walls, info=info)


def _polyline_segments(chains: list[list[Point]]) -> tuple[list[Segment], int, int]:
    """The segments of polylines, without zero-length ones.

    Returns the segments, how many zero-length segments (repeated points)
    were dropped, and how many polylines had fewer than two points.
    """
    out: list[Segment] = []
    zero = short = 0
    for chain in chains:
        if len(chain) < 2:
            short += 1
        for a, b in itertools.pairwise(chain):
            if a == b:
                zero += 1
            else:
                out.append((a, b))
    return out, zero, short


def _cut_under_portals(walls: list[Segment], portals: list[Segment]) -> tuple[list[Segment], int]:
    """Cut out the wall pieces portals lie along, so a portal controls its gap.

    A wall under a portal is a segment collinear with it (both portal ends
    within ``_TOL`` of the wall's line) that overlaps it by more than
    ``_TOL``. The cut ends are the portal's own ends, so wall and portal
    meet exactly (aoegrid's walls joined at a shared end leave no gap).
    Returns the walls and how many portals lay over a wall.
    """
    if not walls or not portals:
        return walls, 0
    segs = np.asarray(walls, dtype=np.float64).reshape(-1, 4)
    tree = shapely.STRtree(shapely.linestrings(segs.reshape(-1, 2, 2)))
    start, along = segs[:, :2], segs[:, 2:] - segs[:, :2]
    length = np.hypot(along[:, 0], along[:, 1])
    cuts: dict[int, list[tuple[float, Point, float, Point]]] = {}
    over = 0
    for p, q in portals:
        near = tree.query(shapely.box(min(p[0], q[0]) - _TOL, min(p[1], q[1]) - _TOL,
                                      max(p[0], q[0]) + _TOL, max(p[1], q[1]) + _TOL))
        if near.size == 0:
            continue
        rel = np.asarray([p, q])[None, :, :] - start[near][:, None, :]  # (k, 2 ends, xy)
        d, n = along[near][:, None, :], length[near][:, None]
        # Walls reaching past the float range overflow here; they lie under no
        # portal (a portal is a few squares long), so nan and inf just miss.
        with np.errstate(over="ignore", invalid="ignore"):
            off_line = np.abs(d[..., 0] * rel[..., 1] - d[..., 1] * rel[..., 0]) / n
            t = (rel * d).sum(axis=-1) / n**2  # where each portal end falls along the wall, 0..1
            overlap = (np.minimum(t.max(axis=1), 1) - np.maximum(t.min(axis=1), 0)) * n[:, 0]
        hit = (off_line <= _TOL).all(axis=1) & (overlap > _TOL)
        over += bool(hit.any())
        for k in np.flatnonzero(hit):
            (t0, p0), (t1, p1) = sorted(zip(t[k].tolist(), (p, q)))
            cuts.setdefault(int(near[k]), []).append((t0, p0, t1, p1))
    out: list[Segment] = []
    for i, (a, b) in enumerate(walls):
        if i not in cuts:
            out.append((a, b))
            continue
        eps = _TOL / length[i]
        at_t, at_p = 0.0, a
        for t0, p0, t1, p1 in sorted(cuts[i]):
            if t0 > at_t + eps:
                out.append((at_p, p0))
            if t1 > at_t:
                at_t, at_p = t1, p1
        if at_t < 1 - eps:
            out.append((at_p, b))
    return out, over


# --------------------------------------------------------------------------
# Foundry VTT scenes
# --------------------------------------------------------------------------

#: Sight (``sight``, v10+) or ``sense`` (0.7 to v9) levels. 0.7 used 0/1/2
#: (none/normal/limited), 0.8 on 0/10/20 (none/limited/normal), v11 added
#: 30/40 (proximity); the two scales share no value but 0, so one table reads both.
_NONE, _LIMITED, _NORMAL, _PROXIMITY = "none", "limited", "normal", "proximity"
_SIGHT_LEVELS = {0: _NONE, 1: _NORMAL, 2: _LIMITED, 10: _LIMITED, 20: _NORMAL, 30: _PROXIMITY, 40: _PROXIMITY}
#: Movement: 0.7 used 0/1, 0.8 on 0/20.
_MOVE_LEVELS = (0, 1, 20)

_UNITS = {"ft": "ft", "ft.": "ft", "feet": "ft", "foot": "ft", "m": "m", "meter": "m", "meters": "m",
          "metre": "m", "metres": "m", "in": "in", "inch": "in", "inches": "in", "sq": "sq"}


def _foundry_map(src: _JsonFile, *, invisible_blocks_effect: bool = True) -> BattleMap:
    f, d = _Fields(src.source), src.data
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
        f.fail("padding", f"must be between 0 and 1, got {_show(padding)}")
    grid = _grid(f, "width and height", width / size, height / size, notes, square=distance, units=units)
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
        if door:
            limited += sight == _LIMITED
            kind = WallKind.WINDOW if sees_through else WallKind.DOOR
            walls.append(Wall(a, b, kind=kind, open=state == 1, one_way=one_way))
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
        walls.append(Wall(a, b, blocks=frozenset(blocks), one_way=one_way))
    notes += _count_note(zero, "dropped {n} zero-length wall{s}")
    notes += _count_note(limited, "{n} limited (terrain) wall{s} read as not blocking sight (Foundry blocks "
                                  "sight only from the second limited wall a line crosses)")
    notes += _count_note(proximity, "{n} proximity wall{s} read as normal walls")
    notes += _count_note(inert, "dropped {n} wall{s} blocking neither movement nor sight")
    for key in ("tokens", "lights"):
        if isinstance(d.get(key), list):
            notes += _count_note(len(d[key]), f"skipped {{n}} {key[:-1]}{{s}} (not read)")
    info = MapInfo(src.source, fmt, size, (float(shift[0]), float(shift[1])), (), tuple(notes))
    return BattleMap(grid, walls, info=info)


# --------------------------------------------------------------------------
# Text maps
# --------------------------------------------------------------------------

_WALLISH = "#+'"
_DOORS = {"+": False, "'": True}  # character -> open


def _text_map(text: str, source: str) -> BattleMap:
    rows = _text_rows(text, source)
    height, width = len(rows), len(rows[0])

    def wallish(x: int, y: int) -> bool:
        return 0 <= x < width and 0 <= y < height and rows[y][x] in _WALLISH

    boxes, walls, tokens = [], [], []
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
        elif ch.isalpha():
            tokens.append(Token(x, y, name=ch))
    if boxes:
        # One outline per connected block of wall squares; simplify(0) merges
        # the collinear unit edges, so a long wall is one segment.
        walls = [*_outline_walls(shapely.simplify(shapely.coverage_union_all(boxes), 0.0)), *walls]
    return BattleMap(Grid(width, height), walls, tokens, info=MapInfo(source, "text"))


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
        if ch not in "#.+'" and not (ch.isascii() and ch.isalpha()):
            raise MapFileError(
                f"{source}: row {y + 1}, column {x + 1}: unknown character {ch!r}; use # (wall), "
                f". (floor), + (closed door), ' (open door) or a letter (a creature)"
            )
    return rows


def _cells(rows: list[str]) -> Iterator[tuple[int, int, str]]:
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            yield y, x, ch
