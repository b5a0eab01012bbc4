"""What the map formats share: safe opening, encodings, the lazy JSON scanner, field checks.

Every reader opens its file with :func:`open_file` (regular files only),
decodes it with :func:`decode_text` (UTF-8, or UTF-16/32 by their marks),
parses JSON with :func:`read_json` (a top-level ``image`` string is located,
not built) and checks each field with :class:`Fields`, whose errors name the
file and the field. :class:`MapInfo` is what every reader returns beside the
walls and tokens.
"""

from __future__ import annotations

import base64
import codecs
import json
import math
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple, NoReturn

from aoegrid.errors import GridTooLargeError, InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import shown, shown_int
from aoegrid.geometry.grid import Grid

__all__ = ["Level", "Light", "MapFileError", "MapInfo", "decode_text"]

Point = tuple[float, float]
Segment = tuple[Point, Point]

#: Points closer than this (in squares) are the same point. Dungeondraft
#: writes six decimals, and subtracting the map origin adds float noise of
#: about 1e-15, so 1e-6 of a square tells real gaps from rounding.
TOL = 1e-6


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


class Level(NamedTuple):
    """A storey a map file names: the heights it spans (grid unit, as token elevations) and its name.

    Kept as data (:attr:`MapInfo.levels`): what is on a level is the walls'
    spans and the floors (:attr:`BattleMap.floors <aoegrid.BattleMap.floors>`),
    not the level. ``-inf`` or ``inf`` for a level unbounded below or above.

    Examples
    --------
    >>> Level(0.0, 10.0, "Ground")
    Level(bottom=0.0, top=10.0, name='Ground')
    """

    bottom: float
    top: float
    name: str


@dataclass(frozen=True, slots=True)
class ImageRef:
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
            with open_file(self.file, source) as fh:
                if self.stamp is not None and file_stamp(fh) != self.stamp:
                    raise MapFileError(
                        f"{source}: the file changed since it was read; read it again to get its image"
                    )
                fh.seek(self.start)
                raw = fh.read(self.end - self.start)
        except OSError as exc:
            raise MapFileError(f"{source}: cannot read the image again: {exc}") from None
        return raw if self.encoding == "utf-8" else raw.decode(self.encoding).encode()


def file_stamp(fh: Any) -> tuple[int, int]:
    st = os.fstat(fh.fileno())
    return (st.st_size, st.st_mtime_ns)


def open_file(file: Path | Traversable, source: str) -> BinaryIO:
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
    pixels_per_square : float or None
        Pixels per square in the file's coordinates: Universal VTT's
        ``resolution.pixels_per_grid``, Foundry's grid size; None for text
        maps. On a hex map, pixels per unit of map coordinates: a hex's
        flat-to-flat size.
    offset : (x, y)
        Where grid point (0, 0) lies in the file's pixels, so square
        ``(x, y)``'s top-left corner is at ``(x * pixels_per_square +
        offset[0], y * pixels_per_square + offset[1])``. Foundry: the scene
        padding (the pixels tokens, walls and templates are placed in).
        Universal VTT: ``resolution.map_origin`` times ``pixels_per_grid``
        (the uncropped canvas the file's walls are drawn on; its embedded
        image is cropped to the map, so in the image's own pixels grid
        (0, 0) is pixel (0, 0)). ``(0, 0)`` for text maps. On a hex map the
        pixel of map point ``(0, 0)``, the top-left of the hexes' bounding
        box: map point ``(x, y)`` is pixel ``(x * pixels_per_square +
        offset[0], y * pixels_per_square + offset[1])``.
    lights : tuple of Light
    notes : tuple of str
        Everything odd found while reading, e.g. ``"dropped 4 zero-length
        wall segments (repeated points)"``.
    background : str or None
        The path of a Foundry scene's background image, as the scene gives
        it (``background.src``, v10+; ``img`` in 0.7 to v9); None when it
        has none, and for other formats (a Universal VTT file embeds its
        image: see :meth:`image`).
    levels : tuple of Level
        The storeys a Foundry scene defines (the Levels module's
        ``flags.levels.sceneLevels``, or Foundry V14's scene ``levels``),
        bottom to top as the scene lists them; empty for other formats.

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
    pixels_per_square: float | None = None
    offset: Point = (0.0, 0.0)
    lights: tuple[Light, ...] = ()
    notes: tuple[str, ...] = ()
    background: str | None = None
    levels: tuple[Level, ...] = ()
    _image: ImageRef | None = field(default=None, repr=False, compare=False)

    @property
    def has_image(self) -> bool:
        """Whether the file embeds an image (known without reading it)."""
        return self._image is not None

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
        >>> from aoegrid.io import demo_map
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
        return data, image_kind(data)


def image_kind(data: bytes) -> str:
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
# JSON files, read once, their image skipped
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JsonFile:
    source: str
    data: dict[str, Any]
    image: ImageRef | None


_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def read_json(file: Path | Traversable, source: str, *, lazy: str | None = "image") -> JsonFile:
    """Parse a JSON map file; its top-level ``lazy`` string is located, not built.

    The file is read once (its bytes, then their text: two copies for a
    moment, as :func:`json.load` makes). The image is most of a Universal
    VTT file, so copying it into a Python string of its own is skipped, and
    the map keeps only its byte offsets.
    """
    with open_file(file, source) as fh:
        stamp = file_stamp(fh) if isinstance(file, Path) else None
        raw = fh.read()
    text, codec = decode_text(raw, source)  # a byte order mark stays, so offsets map to bytes
    del raw
    try:
        data, span = _parse_object(text, lazy)
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
        raise MapFileError(f"{source}: expected a JSON object at the top level, got {kind_of(data)}")
    image = None
    if span is not None and span[1] - span[0] > 2:  # "" is no image
        image = ImageRef(file, *_byte_span(text, *span, codec), stamp, codec)
    return JsonFile(source, data, image)


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


def _parse_object(text: str, lazy: str | None) -> tuple[Any, tuple[int, int] | None]:
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


def kind_of(value: object) -> str:
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


def show(value: object) -> str:
    """``value`` as JSON, cut short, so a message never dumps a whole list."""
    if isinstance(value, int) and not isinstance(value, bool):
        return shown(value)
    text = json.dumps(value, default=repr)
    return text if len(text) <= 40 else text[:37] + "..."


class Fields:
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
        self.fail(name, f"must be {wanted}, got {show(value)} ({kind_of(value)})")

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
            self.fail(name, f"must be a finite number, got {show(value)}")
        if positive and out <= 0:
            self.fail(name, f"must be a positive number, got {show(value)}")
        return out

    def choice(self, container: Any, key: str | int, at: str, allowed: tuple[int, ...], default: int) -> int:
        value, name = self._get(container, key, at, default)
        if isinstance(value, bool) or value not in allowed:
            self.fail(name, f"must be one of {', '.join(map(str, allowed))}, got {show(value)}")
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


def make_grid(fields: Fields, name: str, width: float, height: float, notes: list[str], **grid: Any) -> Grid:
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


def count_note(count: int, text: str) -> list[str]:
    """``text`` with the count for ``{n}`` and a plural ``s`` for ``{s}``; nothing for 0."""
    return [text.format(n=count, s="" if count == 1 else "s")] if count else []


def as_path(path: object) -> Path | Traversable:
    if isinstance(path, Traversable):
        return path
    if isinstance(path, (str, os.PathLike)) and isinstance(os.fspath(path), str):
        return Path(path)
    raise InvalidTypeError(f"a map file path must be a string or a path, got {shown(path)}")


def check_options(source: str, kind: str, options: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise InvalidTypeError(
            f"{source}: a {kind} takes no option {', '.join(map(repr, unknown))}; its options: "
            f"{', '.join(allowed) or 'none'}"
        )
