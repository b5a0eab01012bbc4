"""The ``aoegrid`` command line.

``aoegrid demo`` places a burst, a cone and a spread under each rule preset on
a real map bundled with the package, and writes a PNG beside a text summary.
``aoegrid area``, ``aoegrid info`` and ``aoegrid batch`` do the same for a
map file of yours; ``aoegrid best`` finds where an area reaches the most
creatures to hit and none to spare (after the caster moves, with ``--move``),
and draws the score map; ``aoegrid threat`` says where some enemy caster can
reach a creature, square by square, and draws it. ``info``, ``area`` and
``batch`` also read hex maps (``--at`` a point, or a hex corner
``col,row@k``) and gridless maps (the open table: ``--at`` a point in its
unit); ``best`` places areas on hex maps too. ``-`` as an
output file means stdout (the summary then goes to stderr). Exit codes: 0
success, 2 bad usage or bad input (one line on stderr; ``--debug`` shows the
traceback).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from aoegrid import __version__
from aoegrid.area import Area, area
from aoegrid.effects import savage_worlds
from aoegrid.effects.ranges import Range
from aoegrid.errors import AoegridError, AoegridWarning, InvalidValueError
from aoegrid.geometry.grid import DEFAULT_SQUARE, Grid, memory_budget
from aoegrid.geometry.gridless import Gridless
from aoegrid.geometry.hexgrid import HexGrid
from aoegrid.geometry.lattice import Lattice
from aoegrid.geometry.options import OriginPoint
from aoegrid.geometry.rules import PRESETS, resolve_rules
from aoegrid.geometry.shapes import Cone, Cube, Cylinder, Line, Shape, Sphere, _pitch
from aoegrid.geometry.tokens import Token
from aoegrid.hexarea import HexArea, nearest_corner
from aoegrid.io.export import (
    area_record,
    batch_record,
    error_record,
    foundry_template,
    placement_record,
    threat_record,
)
from aoegrid.maps import BattleMap
from aoegrid.openarea import OpenArea

SHAPES = ("sphere", "cylinder", "cone", "line", "cube")
#: Savage Worlds templates by their command-line names (measured in inches: ``--units in``).
TEMPLATES: dict[str, Shape] = {
    "small-blast": savage_worlds.SMALL_BLAST,
    "medium-blast": savage_worlds.MEDIUM_BLAST,
    "large-blast": savage_worlds.LARGE_BLAST,
    "sw-cone": savage_worlds.CONE,
    "stream": savage_worlds.STREAM,
}
AIMED = ("cone", "line", "sw-cone", "stream")


class UsageError(InvalidValueError):
    """Bad command-line input."""


class _Parser(argparse.ArgumentParser):
    """Usage errors as one ``aoegrid: error:`` line, like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"aoegrid: error: {message} (see '{self.prog} --help')\n")


class _Stdout:
    """stdout, remembering whether data went to it (then the summary goes to stderr)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.used = False

    def text(self, data: str) -> None:
        self.used = True
        self.stream.write(data)
        self.stream.flush()

    def bytes(self, data: bytes) -> None:
        buffer = getattr(self.stream, "buffer", None)
        if buffer is None:
            raise UsageError("this stdout takes text only; write the picture to a file")
        self.used = True
        self.stream.flush()
        buffer.write(data)
        buffer.flush()


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def _point(text: str, field: str = "--at", units: str = "grid units") -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise UsageError(f"{field} takes x,y in {units} (e.g. 12,7), got {text!r}") from None
    return x, y


_UNIT_NAMES = {"in": "inches", "ft": "feet"}
#: How near a hex corner (in hex widths) an ``x,y`` is taken as that corner, under rules whose origins are corners.
SNAP = 0.05


def _board(m: BattleMap) -> str:
    """What kind of map ``m`` is, as errors name it: ``a square grid``, ``a hex map``, ``a gridless map``."""
    return {"hex": "a hex map", "gridless": "a gridless map"}.get(m.grid.kind, "a square grid")


def _refuse_board(command: str, source: str, m: BattleMap, what: str = "", works: str = "square grids") -> NoReturn:
    """Refuse a command (or one of its options, ``what``) on a board it does not work on (``works`` names those)."""
    raise UsageError(f"aoegrid {command}{' ' + what if what else ''} works on {works}; {source} is {_board(m)}")


def _corner_of(grid: HexGrid, p: tuple[float, float]) -> tuple[int, int, int] | None:
    """``(col, row, k)``: hex corner ``p`` as corner ``k`` of the first hex on the map (row by row) holding it."""
    col, row = (int(v) for v in grid.hex_at(*p))
    near = sorted({(col, row), *((c, r) for r in range(row - 1, row + 2) for c in range(col - 1, col + 2))},
                  key=lambda h: (h[1], h[0]))
    for c, r in near:
        if grid.contains(c, r):
            corners = grid.corners(c, r)
            k = int(((corners[:, 0] - p[0]) ** 2 + (corners[:, 1] - p[1]) ** 2).argmin())
            if math.dist(corners[k], p) <= 1e-9:
                return c, r, k
    return None


def _point_name(grid: Lattice, p: tuple[float, float]) -> str:
    """A point of origin as a summary names it: a hex corner or centre by its hex, else ``(x, y)``."""
    if isinstance(grid, HexGrid):
        corner = _corner_of(grid, p)
        if corner is not None:
            return f"corner {corner[2]} of hex ({corner[0]}, {corner[1]})"
        col, row = (int(v) for v in grid.hex_at(*p))
        if grid.contains(col, row) and math.dist(grid.center(col, row), p) <= 1e-9:
            return f"the centre of hex ({col}, {row})"
        return f"({p[0]:.4g}, {p[1]:.4g})"
    return f"({p[0]:g}, {p[1]:g})"


_HEX_AT = ("x,y in hex widths (map coordinates: one hex width a unit, 0,0 the map's top-left), col,row@k (corner k "
           "of hex (col, row), 0-5: pointy hexes clockwise from the top, flat ones from the right) or col,row@center")


def _hex_origin(text: str, grid: HexGrid, rules: str, field: str = "--at") -> tuple[tuple[float, float], str, str | None]:
    """``--at`` on a hex map: the point of origin, its name and a note when an ``x,y`` was snapped to a corner.

    Under rules whose points of origin are hex corners, an ``x,y`` within
    :data:`SNAP` hex widths of one is that corner; farther, an error names
    the nearest.
    """
    r = resolve_rules(rules)
    corners_only = r.hex_origin is OriginPoint.INTERSECTION
    anywhere = "--rules savage-worlds (with --units in) for any point"
    where, at, which = text.strip().partition("@")
    if at:
        try:
            col, row = (int(v) for v in where.split(","))
        except ValueError:
            raise UsageError(f"{field} takes {_HEX_AT}, got {text!r}") from None
        if not grid.contains(col, row):
            raise UsageError(f"{field} {text}: hex ({col}, {row}) is not on the {grid.width} x {grid.height} hex "
                             f"map (columns 0-{grid.width - 1}, rows 0-{grid.height - 1})")
        which = which.strip().lower()
        if which in ("center", "centre"):
            if corners_only:
                raise UsageError(f"{r.name} rules put every point of origin on a hex corner: {text} is a hex's "
                                 f"centre; give {col},{row}@k (k 0-5), or {anywhere}")
            x, y = grid.center(col, row)
            return (float(x), float(y)), f"the centre of hex ({col}, {row})", None
        if which not in tuple("012345"):
            raise UsageError(f"{field} {text}: after @ give a corner 0-5 (pointy hexes clockwise from the top, "
                             f"flat ones from the right) or center")
        x, y = grid.corners(col, row)[int(which)]
        return (float(x), float(y)), f"corner {which} of hex ({col}, {row})", None
    try:
        x, y = (float(v) for v in where.split(","))
    except ValueError:
        raise UsageError(f"{field} takes {_HEX_AT}, got {text!r}") from None
    return _hex_point(grid, (x, y), rules, field)


def _hex_point(grid: HexGrid, at: tuple[float, float], rules: str,
               field: str) -> tuple[tuple[float, float], str, str | None]:
    """A point ``x,y`` of a hex map as a point of origin (:func:`_hex_origin`), snapped to a corner if the rules say."""
    r = resolve_rules(rules)
    corners_only = r.hex_origin is OriginPoint.INTERSECTION
    anywhere = "--rules savage-worlds (with --units in) for any point"
    x, y = at
    w, h = grid.extent
    if not corners_only or not (0 <= x <= w and 0 <= y <= h):  # off the map: the library says so
        return (x, y), _point_name(grid, (x, y)), None
    corner = nearest_corner(grid, (x, y))
    name = _point_name(grid, corner)
    gap = math.dist(corner, (x, y))
    if gap > SNAP:
        held = _corner_of(grid, corner)
        # A CSV's columns take numbers: the corner's own, near enough to snap to it.
        give = (f"give --at {held[0]},{held[1]}@{held[2]}" if field == "--at" and held is not None
                else f"give {field} {corner[0]:.4g},{corner[1]:.4g}")
        raise UsageError(f"{r.name} rules put every point of origin on a hex corner: {x:g},{y:g} is {gap:.3g} hex "
                         f"widths from the nearest, {name} at ({corner[0]:.4g}, {corner[1]:.4g}); {give}, or "
                         f"{anywhere}")
    note = None if gap <= 1e-9 else (f"origin snapped to {name} at ({corner[0]:.4g}, {corner[1]:.4g}), {gap:.2g} "
                                     f"hex widths from {x:g},{y:g}")
    return corner, name, note


def _load(path: str, units: str | None = None) -> BattleMap:
    from aoegrid.io import demo_map, load_map

    if path == "@demo":
        m = demo_map()
    elif not Path(path).exists():
        raise UsageError(f"no map file {path!r} (give a .dd2vtt, .uvtt, .df2vtt, Foundry .json or text map, or @demo)")
    else:
        m = load_map(path)
    return _regrid(m, units)


def _regrid(m: BattleMap, units: str | None) -> BattleMap:
    """``--units``: the same squares or hexes measured in another unit (one is an inch or 5 ft).

    A gridless map's coordinates are its unit: it is not measured again.
    """
    g = m.grid
    if units is None or units == g.units:
        return m
    if isinstance(g, Gridless):
        raise UsageError(f"--units {units}: a gridless map's coordinates are its own unit ({g.units}), so it is "
                         f"not measured again; leave out --units (or give a map measured in {_UNIT_NAMES[units]})")
    if isinstance(g, HexGrid):
        grid: Grid | HexGrid = HexGrid(g.width, g.height, g.orientation, g.offset, DEFAULT_SQUARE[units], units)
    else:
        grid = Grid(g.width, g.height, units=units)
    return _remade(m, grid, m.tokens)


def _remade(m: BattleMap, grid: Grid | HexGrid | Gridless, tokens: Sequence[Any]) -> BattleMap:
    """``m`` on ``grid`` with ``tokens``: its walls, fog, floors and (squares only: hex maps have none yet) terrain."""
    terrain = m.terrain if isinstance(grid, Grid) else None
    return BattleMap(grid, m.walls, tokens, m.fog, m.info, terrain=terrain, floors=m.floors)


def make_shape(kind: str, size: float | None, direction: Any = 0.0, width: float | None = None,
               height: float | None = None, pitch: float | None = None) -> Shape:
    """The shape a command line or a CSV row asks for: a shape and its size, or a Savage Worlds template.

    ``pitch`` (degrees above the horizontal) aims a cone or line up or down;
    None leaves it level. Any other shape refuses one.
    """
    kind = kind.strip().lower()
    if pitch is not None:
        _check_aimed(kind)
    up = 0.0 if pitch is None else pitch
    if kind in TEMPLATES:
        if size is not None:
            raise UsageError(f"{kind} is a Savage Worlds template of its own size; leave out the size")
        template = TEMPLATES[kind]
        return template.replace(direction=direction, pitch=up) if kind in AIMED else template  # type: ignore[attr-defined]
    if size is None:
        raise UsageError(f"a {kind} needs a size")
    if kind == "sphere":
        return Sphere(size)
    if kind == "cylinder":
        return Cylinder(size, height if height is not None else size)
    if kind == "cone":
        return Cone(size, direction, pitch=up)
    if kind == "line":
        return Line(size, direction, width=width, pitch=up)
    if kind == "cube":
        return Cube(size, direction)
    raise UsageError(f"unknown shape {kind!r}; valid shapes are {', '.join(SHAPES)}, or the Savage Worlds "
                     f"templates {', '.join(TEMPLATES)}")


def _check_aimed(kind: str) -> None:
    """Only cones and lines (and the templates that are one) are aimed up or down (``kind`` in lower case)."""
    if kind in (*SHAPES, *TEMPLATES) and kind not in AIMED:
        raise UsageError(f"a {kind} is not aimed up or down: a pitch is for cones and lines")


def _default_rules(kind: str, rules: str | None) -> str:
    """A template's rules are Savage Worlds'; everything else defaults to Starfinder's."""
    return rules or ("savage-worlds" if kind.strip().lower() in TEMPLATES else "starfinder")


def _check_units(shape: Shape, rules: str, grid: Lattice) -> None:
    """Units that do not match, in command-line terms (the library's advice is Python)."""
    names = _UNIT_NAMES
    r = resolve_rules(rules)
    # --units measures squares and hexes again; the open table's coordinates are its unit.
    fix = (f"this gridless map is in {names.get(grid.units, grid.units)}, and --units does not convert it"
           if grid.kind == "gridless" else "add --units {}")
    if r.units is not None and r.units != grid.units:
        raise UsageError(f"{r.name} rules measure in {names.get(r.units, r.units)}: {fix.format(r.units)}")
    units = getattr(shape, "units", None)
    if units is not None and units != grid.units:
        raise UsageError(f"Savage Worlds templates measure in {names.get(units, units)}: {fix.format(units)}")


def _check_origin_point(at: tuple[float, float], rules: str, what: str) -> None:
    """An origin off the intersections where the rules demand one, in command-line terms."""
    r = resolve_rules(rules)
    if r.origin is OriginPoint.INTERSECTION and not (float(at[0]).is_integer() and float(at[1]).is_integer()):
        raise UsageError(f"{r.name} rules put every point of origin on a grid intersection: give whole numbers "
                         f"to {what} (nearest: {round(at[0])},{round(at[1])}), or --rules sw5e or savage-worlds "
                         f"for any point")


def _size_of(shape: Shape) -> float:
    """The number a command line gave as ``--size``."""
    return float(getattr(shape, "radius", None) or getattr(shape, "length", None) or shape.size)


def _cells(grid: Lattice) -> tuple[float, float, str, str]:
    """A picture's size in what ``--scale`` counts pixels of (squares, hex widths, or a Medium creature's space on
    the open table), what that is, and the map as ``--scale``'s error names it."""
    w, h = grid.extent
    if isinstance(grid, Gridless):
        assert grid.square is not None
        return (w / grid.square, h / grid.square, f"a square ({grid.square:g} {grid.units})",
                f"{w:g} x {h:g} {grid.units} gridless map")
    if isinstance(grid, HexGrid):
        return w, h, "a hex", f"{grid.width} x {grid.height} hex map"
    return w, h, "a square", f"{w:g} x {h:g} map"


def _scale(value: float, grid: Lattice) -> float:
    """``--scale`` checked: at least a pixel a square (a hex), and a picture that fits.

    The picture's RGBA pixels must fit in a quarter of the memory a query may
    take (matplotlib holds a few copies), and each side in matplotlib's limit
    of 2**16 pixels.
    """
    w, h, cell, board = _cells(grid)
    budget = memory_budget() / 4
    largest = min((2**16 - 1) / max(w, h), (budget / (4 * w * h)) ** 0.5)
    if not 1 <= value <= largest:
        raise UsageError(f"--scale must be from 1 to {largest:,.0f} pixels {cell} for this {board}, got {value:g}")
    return value


def _new_file(path: str, force: bool) -> Path:
    """A path to write, refusing to overwrite a user's file unless told to.

    Only regular files are protected: a device such as /dev/null is written as it is.
    """
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{path} is a folder; give a file name")
    if p.is_file() and not force:
        raise UsageError(f"{path} exists; pass --force to overwrite it")
    return p


def _write_text(path: str, text: str, force: bool, stdout: _Stdout) -> None:
    if path == "-":
        stdout.text(text)
    else:
        _new_file(path, force).write_text(text)


def _write_picture(obj: Any, path: str, force: bool, stdout: _Stdout, scale: float | None = None, *,
                   title: str | None = None) -> None:
    """A PNG or SVG picture with its legend (and ``title``); PNG bytes to stdout for ``-`` and to a device."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from aoegrid.show import plotting

    target = None if path == "-" else _new_file(path, force)
    if target is not None and (target.is_file() or not target.exists()):
        plotting.save(obj, target, scale=scale, legend=True, title=title)
        return
    fig = obj if isinstance(obj, Figure) else getattr(obj, "figure", None)
    if not isinstance(fig, Figure):
        fig = plotting.figure_of(obj, scale, legend=True, title=title)
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    if target is None:
        stdout.bytes(buf.getvalue())
    else:
        target.write_bytes(buf.getvalue())


def _lift(elevation: float, pitch: float | None, units: str) -> str:
    """``, height 10 ft, pitch 30``: an origin's height and a cone's or line's pitch, each said when not 0."""
    return (f", height {elevation:g} {units}" if elevation else "") + (f", pitch {pitch:g}" if pitch else "")


def _head(a: Area) -> str:
    """An area as its summary and its picture's title name it, with its count of squares."""
    shape = a.shape
    assert shape is not None and a.rules is not None and a.mode is not None
    lift = _lift(a.elevation, getattr(shape, "pitch", None), a.grid.units)
    return (f"{shape.name} {_size_of(shape):g} {a.grid.units} at {a.origin}{lift}, {a.rules.name} {a.mode.value}: "
            f"{_plural(len(a), 'square')}")


def summary(a: Area) -> str:
    """A short table: the count, cover and creatures reached."""
    lines = [_head(a)]
    if a.battlemap is not None:
        cover = a.cover[a.mask]
        partial = int((cover > 0).sum())
        blocked = int((a.shape_mask & ~a.mask).sum())
        lines.append(f"  cover: {_plural(partial, 'square')} with some cover, "
                     f"{_plural(blocked, 'square')} of the shape blocked")
        reached = a.tokens()
        if reached:
            lines.append("  creatures: " + ", ".join(f"{r.token.label} ({r.cover_name}, {r.distance:g} {a.grid.units})" for r in reached))
    return "\n".join(lines)


def demo(out: str | None = None, *, force: bool = False, stdout: TextIO | None = None) -> str:
    """Run the demo on the bundled map: returns the summary; writes the picture.

    A 15-ft burst, a 30-ft cone and a 15-ft spread under each preset (Savage
    Worlds: the 3" blast, the Cone Template and a 3" spread) from one point of
    the bundled cave map. Without ``out`` the picture gets a new name; an
    existing ``out`` is overwritten only with ``force``; ``-`` writes the PNG
    to ``stdout``.
    """
    from aoegrid.io import demo_map
    from aoegrid.show import preview

    target = out if out else str(_free_name(Path("aoegrid-demo.png")))
    if target != "-":
        _new_file(target, force)  # refuse before the minute of drawing, not after
    m = demo_map()
    inches = _regrid(m, "in")  # Savage Worlds measures in tabletop inches: an inch a square
    at = (6, 11)
    panels: list[tuple[Any, Area]] = []
    names: list[str] = []
    lines = [f"map: {getattr(m.info, 'source', 'bundled')} ({m.grid.width}x{m.grid.height} squares, {len(m.walls)} walls)"]
    for row, (name, rules) in enumerate(PRESETS.items()):
        sw = rules.units == "in"
        on = inches if sw else m
        effects: list[tuple[str, Shape, str]] = [
            ("burst", Sphere(3 if sw else 15), "burst"),
            ("cone", savage_worlds.CONE if sw else Cone(30, "E"), "burst"),
            ("spread", Sphere(3 if sw else 15), "spread"),
        ]
        counts = []
        for label, shape, mode in effects:
            a = area(shape, at, on, rules, mode)
            panels.append((rules, a))
            names.append(f"{name} {label}: {_plural(len(a), 'square')}")
            counts.append(f"{label} {len(a):3d}")
        lines.append(f"{name:14s} " + "   ".join(counts))
    # Drawn straight onto pixels (aoegrid.show.preview): importing matplotlib alone would take longer.
    png = preview.png(preview.panels(panels, columns=3, names=names, title=(
        f"A 15-ft burst, a 30-ft cone and a 15-ft spread from {at} on the bundled cave map, under each preset")))
    if target == "-":
        _Stdout(stdout or sys.stdout).bytes(png)
    else:
        Path(target).write_bytes(png)
    lines.append(f"picture: {'stdout' if target == '-' else target}")
    return "\n".join(lines)


def _default_scale(scale: float | None, grid: Lattice) -> float:
    if scale is not None:
        return scale
    if isinstance(grid, HexGrid):
        from aoegrid.show.hexplot import default_hex_scale

        return default_hex_scale(grid)
    if isinstance(grid, Gridless):
        from aoegrid.show.openplot import default_open_scale

        return default_open_scale(grid)
    from aoegrid.show.plotting import default_scale

    assert isinstance(grid, Grid)
    return default_scale(grid)


def _free_name(p: Path) -> Path:
    """``p``, or ``p`` with a number added, so no existing file is overwritten."""
    k = 1
    candidate = p
    while candidate.exists():
        candidate = p.with_name(f"{p.stem}-{k}{p.suffix}")
        k += 1
    return candidate


def _area_command(args: argparse.Namespace, stdout: _Stdout) -> str:
    m = _load(args.map, args.units)
    # A given --scale is checked before the work; the default needs the pictures' module, loaded only for a picture.
    scale = None if args.scale is None else _scale(args.scale, m.grid)
    if args.shape in AIMED and args.direction is None:
        raise UsageError(f"a {args.shape} needs --direction (degrees clockwise from east, or a compass name: "
                         "E, SE, south, ...)")
    pitch = None if args.pitch is None else _pitch(args.pitch, "--pitch")
    shape = make_shape(args.shape, args.size, _direction(args.direction or "0"), args.width, args.height, pitch)
    rules = _default_rules(args.shape, args.rules)
    _check_units(shape, rules, m.grid)
    if m.grid.kind != "square":
        return _board_area(args, stdout, m, shape, rules, scale)
    at = _point(args.at)
    _check_origin_point(at, rules, "--at")
    a = area(shape, at, m, rules, args.mode, elevation=args.elevation)
    if args.output:
        _write_picture(a, args.output, args.force, stdout, scale or _scale(_default_scale(None, m.grid), m.grid),
                       title=_head(a))
    _write_records(args, a, m, stdout)
    return summary(a)


def _board_area(args: argparse.Namespace, stdout: _Stdout, m: BattleMap, shape: Shape, rules: str,
                scale: float | None) -> str:
    """``aoegrid area`` on a hex or gridless map: its summary; the picture, JSON and template written."""
    grid = m.grid
    if isinstance(grid, HexGrid):
        if args.elevation:
            raise UsageError("--elevation is not measured on hex maps yet; leave it out")
        at, name, note = _hex_origin(args.at, grid, rules)
    else:
        at = _point(args.at, units=grid.units)
        name, note = _point_name(grid, at), None
    a = area(shape, at, m, rules, args.mode, elevation=args.elevation)
    assert isinstance(a, (HexArea, OpenArea))
    head = _board_head(a, name)
    if args.output:
        if isinstance(a, HexArea):
            from aoegrid.show.hexplot import plot_hex_area as draw
        else:
            from aoegrid.show.openplot import plot_open_area as draw
        drawn = draw(a, legend=True, title=head, scale=scale or _scale(_default_scale(None, grid), grid))
        _write_picture(drawn.figure, args.output, args.force, stdout)
    _write_records(args, a, m, stdout)
    return _board_summary(a, head, note)


def _write_records(args: argparse.Namespace, a: Any, m: BattleMap, stdout: _Stdout) -> None:
    """``area --json`` and ``--foundry``: the area's record and its Foundry template."""
    if args.json:
        inputs = {k: v for k, v in vars(args).items() if k in (
            "map", "shape", "size", "at", "rules", "mode", "direction", "width", "height", "elevation", "pitch",
            "units")}
        _write_text(args.json, json.dumps(area_record(a, inputs=inputs), indent=1) + "\n", args.force, stdout)
    if args.foundry:
        template = foundry_template(a, m.info)
        _write_text(args.foundry, json.dumps(template, indent=1) + "\n", args.force, stdout)


def _board_head(a: HexArea | OpenArea, where: str) -> str:
    """A hex or open area as its summary and picture name it: its count of hexes, or its size in square units."""
    if isinstance(a, HexArea):
        units, count = a.grid.units, _plural(len(a), "hex", "hexes")
    else:
        units = a.table.units
        count = f"{a.size:.1f} sq {units}"
    lift = _lift(getattr(a, "elevation", 0.0), getattr(a.shape, "pitch", None), units)
    return f"{a.shape.name} {_size_of(a.shape):g} {units} at {where}{lift}, {a.rules.name} {a.mode.value}: {count}"


def _board_summary(a: HexArea | OpenArea, head: str, note: str | None) -> str:
    """:func:`summary` of a hex or open area: a note on its origin, cover and the creatures reached."""
    import shapely

    lines = [head] + ([f"  {note}"] if note else [])
    if a.battlemap is None:
        return "\n".join(lines)
    if isinstance(a, HexArea):
        units = a.grid.units
        partial = int((a.cover[a.mask] > 0).sum())
        # Hexes the shape takes with no walls are those whose visible fraction was worked out.
        blocked = int((a.shape_mask & ~a.mask).sum())
        lines.append(f"  cover: {_plural(partial, 'hex', 'hexes')} with some cover, "
                     f"{_plural(blocked, 'hex', 'hexes')} of the shape blocked")
    else:
        units = a.table.units
        cut = max(0.0, float(shapely.intersection(a.outline, a.table.box()).area) - a.size)
        lines.append(f"  cover: {cut:.1f} sq {units} of the shape blocked")
    reached = a.tokens()
    if reached:
        lines.append("  creatures: " + ", ".join(f"{r.token.label} ({r.cover_name}, {round(r.distance, 2):g} {units})"
                                                 for r in reached))
    return "\n".join(lines)


def _info_command(args: argparse.Namespace) -> str:
    m = _load(args.map)
    info = m.info
    kinds: dict[str, int] = {}
    for w in m.walls:
        key = w.kind.value if hasattr(w.kind, "value") else str(w.kind)
        kinds[key] = kinds.get(key, 0) + 1
    lines = [
        f"map: {getattr(info, 'source', '?')} ({getattr(info, 'format', '?')})",
        _grid_line(m.grid),
        f"walls: {kinds.get('wall', 0)}, doors: {kinds.get('door', 0)}, windows: {kinds.get('window', 0)}",
        f"lights: {len(getattr(info, 'lights', ()))}, tokens: {len(m.tokens)}",
    ]
    if m.walls:
        xs = [c for w in m.walls for c in (w.start[0], w.end[0])]
        ys = [c for w in m.walls for c in (w.start[1], w.end[1])]
        lines.append(f"wall bounds: x {min(xs):g}..{max(xs):g}, y {min(ys):g}..{max(ys):g}")
    units = m.grid.units
    levels = [f"{level.name or 'unnamed'} {level.bottom:g}..{level.top:g} {units}" for level in getattr(info, "levels", ())]
    if levels:
        lines.append(f"levels: {', '.join(levels)}")
    bounded = [w for w in m.walls if not w.infinite]
    if bounded:
        ends = [f"{name} {_spread(values)}" for name, values in (("bottoms", [w.bottom for w in bounded]),
                                                                  ("tops", [w.top for w in bounded]))
                if any(map(math.isfinite, values))]
        lines.append(f"walls with heights: {len(bounded)} of {len(m.walls)} ({', '.join(ends)} {units})")
    if m.floors:
        heights = ", ".join(f"{z:g}" for z in sorted({f.elevation for f in m.floors}))
        lines.append(f"floors: {len(m.floors)} (at {heights} {units})")
    flyers = [f"{t.label} at {t.elevation:g} {units}" for t in m.tokens if t.elevation != 0]
    if flyers:
        lines.append(f"flyers: {', '.join(flyers)}")
    # A height the side of the creature's space is the default (Token.prism): only other heights are told.
    tall = [f"{t.label} {t.height:g} {units}" for t in m.tokens
            if t.height is not None and (m.grid.kind != "square" or t.height != t.footprint[0] * m.grid.square)]
    if tall:
        lines.append(f"token heights: {', '.join(tall)}")
    lines += [f"note: {note}" for note in m.notes]
    return "\n".join(lines)


def _grid_line(grid: Lattice) -> str:
    """``info``'s line on the map's board: its squares, its hexes and their layout, or the open table."""
    if isinstance(grid, HexGrid):
        pointy = grid.orientation.value == "pointy"
        return (f"grid: {grid.width} x {grid.height} hexes of {grid.size:g} {grid.units} ({grid.orientation.value}, "
                f"{grid.offset.value} {'rows' if pointy else 'columns'} shoved: {grid.layout}, Foundry type "
                f"{grid.foundry_type})")
    if isinstance(grid, Gridless):
        return f"table: {grid.width:g} x {grid.height:g} {grid.units}, no grid"
    assert isinstance(grid, Grid)
    return f"grid: {grid.width} x {grid.height} squares of {grid.square:g} {grid.units}"


def _spread(values: Sequence[float]) -> str:
    """The finite values' least and greatest, ``lo..hi`` (one value once)."""
    finite = [v for v in values if math.isfinite(v)]
    lo, hi = min(finite), max(finite)
    return f"{lo:g}" if lo == hi else f"{lo:g}..{hi:g}"


_CSV_FIELDS = ("shape", "size", "x", "y")
_CSV_COLUMNS = ("columns are shape,size,x,y and optionally name,map,rules,mode,direction,width,height,elevation,"
                "pitch")


def _rows(path: str, required: Sequence[str] = _CSV_FIELDS, columns: str = _CSV_COLUMNS,
          what: str = "placements") -> list[tuple[int, dict[str, str]]]:
    """The rows of a CSV file of ``what``, each with the line of the file it ends on (the header is line 1)."""
    from aoegrid.io import decode_text

    p = Path(path)
    if not p.exists():
        raise UsageError(f"no {what} file {path!r}")
    if p.is_dir():
        raise UsageError(f"{path}: is a directory, not a CSV file")
    # UTF-8 or, by its byte order mark, UTF-16; the mark is no part of the first column's name.
    text = decode_text(p.read_bytes(), path)[0].removeprefix("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [name.strip() for name in next(reader, [])]
        missing = [c for c in required if c not in header]
        if missing:
            raise UsageError(f"{path}: missing column(s) {', '.join(missing)}; {columns}")
        twice = sorted({name for name in header if header.count(name) > 1})
        if twice:
            raise UsageError(f"{path}: column(s) {', '.join(map(repr, twice))} appear more than once in the header")
        rows = []
        for fields in reader:
            if not fields:  # a blank line
                continue
            if len(fields) != len(header):
                raise UsageError(
                    f"{path}, row {reader.line_num}: {len(fields)} field(s) but the header has "
                    f"{len(header)} columns ({','.join(header)})"
                )
            rows.append((reader.line_num, dict(zip(header, fields))))
    except csv.Error as exc:
        raise UsageError(f"{path}, row {reader.line_num}: not valid CSV: {exc}") from None
    return rows


def _number(row: dict[str, str], key: str, default: float | None = None) -> float | None:
    text = (row.get(key) or "").strip()
    if not text:
        if default is None and key in _CSV_FIELDS and not (key == "size" and row["shape"].strip().lower() in TEMPLATES):
            raise UsageError(f"column {key} is empty")
        return default
    try:
        return float(text)
    except ValueError:
        raise UsageError(f"column {key} must be a number, got {text!r}") from None


# One batch job: its number (the row's line in the CSV, or its place in a folder batch), where to say it
# failed, the key of its map, and the CSV row (the record's inputs).
_Job = tuple[int, str, str, dict[str, str]]
# A computed job: its number, and its record as one JSON line, or None and the error's message.
_Done = tuple[int, str | None, str | None]

# The maps of a batch, in a worker process: loaded once per worker by the pool's initializer.
_WORKER_MAPS: dict[str, BattleMap | str] = {}


def _init_worker(maps: dict[str, BattleMap | str]) -> None:
    _WORKER_MAPS.update(maps)


def _run_job(maps: dict[str, BattleMap | str], job: _Job) -> _Done:
    number, where, key, row = job
    m = maps[key]
    try:
        if isinstance(m, str):  # the map file could not be read: every row on it fails
            raise UsageError(m)
        kind = row["shape"]
        direction = (row.get("direction") or "").strip()
        if not direction and kind.strip().lower() in AIMED:
            raise UsageError(f"column direction is empty; a {kind.strip()} needs one")
        pitch = _number(row, "pitch", None)
        shape = make_shape(kind, _number(row, "size"), _direction(direction or "0"),
                           _number(row, "width", None), _number(row, "height", None),
                           None if pitch is None else _pitch(pitch, "column pitch"))
        rules = _default_rules(kind, (row.get("rules") or "").strip())
        _check_units(shape, rules, m.grid)
        at = (_number(row, "x"), _number(row, "y"))
        elevation = _number(row, "elevation", 0.0) or 0.0
        if isinstance(m.grid, HexGrid):
            if elevation:
                raise UsageError("column elevation is not measured on hex maps yet; leave it empty")
            at = _hex_point(m.grid, at, rules, "columns x and y")[0]
        elif isinstance(m.grid, Grid):
            _check_origin_point(at, rules, "columns x and y")
        a = area(shape, at, m, rules, (row.get("mode") or "burst").strip(), elevation=elevation)
        return number, json.dumps(batch_record(number, a, inputs=row)), None
    except AoegridError as exc:
        return number, None, f"{where}: {_one_line(exc)}"
    except (MemoryError, OverflowError) as exc:  # a last resort: shapes are clipped to the grid
        return number, None, f"{where}: this area is too large to compute ({type(exc).__name__})"


def _run_chunk(maps: dict[str, BattleMap | str] | None, jobs: list[_Job]) -> list[_Done]:
    """A chunk of jobs, on the maps given (a Dask worker) or the worker's own (a local pool)."""
    return [_run_job(_WORKER_MAPS if maps is None else maps, job) for job in jobs]


def _chunks(jobs: list[_Job], workers: int) -> list[list[_Job]]:
    # Several chunks a worker balance uneven rows; a few rows a chunk amortise the round trip.
    size = max(1, min(32, len(jobs) // (4 * workers)))
    return [jobs[i:i + size] for i in range(0, len(jobs), size)]


def _run_local(maps: dict[str, BattleMap | str], jobs: list[_Job], workers: int) -> Iterator[list[_Done]]:
    if workers == 1 or len(jobs) < 2 * workers:  # starting processes would cost more than it saves
        for job in jobs:
            yield [_run_job(maps, job)]
        return
    import multiprocessing  # imported here: a one-off command should not pay for the process pool
    from concurrent.futures import ProcessPoolExecutor

    # forkserver: workers start from a clean process (a fork of this one could inherit numba's threads).
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker, initargs=(maps,)) as pool:
        # map() returns the chunks in order as they finish, so records are written in row order.
        yield from pool.map(_run_chunk, [None] * len(jobs), _chunks(jobs, workers))


def _run_dask(address: str, maps: dict[str, BattleMap | str], jobs: list[_Job]) -> Iterator[list[_Done]]:
    try:
        from dask.distributed import Client
    except ImportError:
        raise UsageError('--scheduler needs Dask: pip install "aoegrid[dask]"') from None
    with Client(address, timeout=30) as client:
        workers = max(1, len(client.scheduler_info()["workers"]))
        # The maps go to every worker once; each chunk then refers to them.
        [shared] = client.scatter([maps], broadcast=True)
        futures = [client.submit(_run_chunk, shared, chunk, pure=False) for chunk in _chunks(jobs, workers)]
        for future in futures:
            yield future.result()


class _Progress:
    """aoegrid batch's progress bar on a terminal: tqdm's, with the time taken, the time left and the
    rate; messages print above it. Off a terminal (a pipe, a CI log) only the messages are written."""

    #: [###########...................] 12/30 [00:04<00:06, 2.91 areas/s]
    FORMAT = "[{bar:30}] {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}]"

    def __init__(self, stream: TextIO, total: int, show: bool) -> None:
        self.stream = stream
        self.bar: Any = None  # a tqdm bar, when shown
        if show:
            from tqdm import tqdm  # imported here: only a batch on a terminal pays for it

            self.bar = tqdm(total=total, file=stream, unit=" areas", ascii=".#", bar_format=self.FORMAT)

    def step(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def note(self, message: str) -> None:
        if self.bar is not None:
            self.bar.write(message, file=self.stream)  # clears the bar, writes the line, draws the bar again
        else:
            self.stream.write(message + "\n")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()  # draws the final count and ends its line


def _batch_jobs(args: argparse.Namespace) -> tuple[dict[str, BattleMap | str], list[_Job]]:
    """The maps (a map that cannot be read: its error) and the jobs of a batch."""
    rows = _rows(args.placements)
    folder = Path(args.map)
    if args.map != "@demo" and folder.is_dir():
        paths = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
        if not paths:
            raise UsageError(f"{args.map}: no map files in the folder")
        keys = [str(p) for p in paths]
        # Every placement on every map, numbered map by map.
        jobs = [(k, f"{key}, {args.placements} row {line}", key, {**row, "map": Path(key).name})
                for k, (key, (line, row)) in enumerate(((key, r) for key in keys for r in rows), start=1)]
    else:
        base = Path(args.placements).parent
        jobs = []
        for line, row in rows:
            named = (row.get("map") or "").strip()
            key = args.map if not named else named if named == "@demo" else str(base / named)
            jobs.append((line, f"{args.placements}, row {line}", key, row))
    maps: dict[str, BattleMap | str] = {}
    for key in dict.fromkeys(job[2] for job in jobs):
        try:
            maps[key] = _load(key, args.units)
        except (AoegridError, OSError) as exc:
            if not args.skip_errors:
                raise
            maps[key] = _one_line(exc)
    return maps, jobs


def _done_rows(path: Path) -> set[int]:
    """The rows a batch's output already holds, dropping a last line an interruption cut short."""
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end < len(data):
        with path.open("r+b") as f:
            f.truncate(end)
    rows = set()
    for number, line in enumerate(data[:end].splitlines(), start=1):
        try:
            rows.add(int(json.loads(line)["row"]))
        except (ValueError, KeyError, TypeError):
            raise UsageError(f"{path}, line {number}: not a record of aoegrid batch; cannot --resume it") from None
    return rows


def _batch_command(args: argparse.Namespace, stdout: _Stdout, progress: TextIO) -> str:
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be 1 or more, got {args.workers}")
    to_stdout = not args.out_dir and args.out in (None, "-")
    if args.resume and to_stdout:
        raise UsageError("--resume needs --out FILE or --out-dir DIR: it skips the rows already written there")
    maps, jobs = _batch_jobs(args)
    out_dir = Path(args.out_dir) if args.out_dir else None
    write: Callable[[int, str], None]
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        names = {job[0]: out_dir / _row_file(job[3], i) for i, job in enumerate(jobs, start=1)}
        if args.resume:
            jobs = [job for job in jobs if not names[job[0]].is_file()]
        # Check every name first, so a refusal leaves no half-written batch.
        for job in jobs:
            _new_file(str(names[job[0]]), args.force)

        def write(number: int, line: str) -> None:
            names[number].write_text(json.dumps(json.loads(line), indent=1) + "\n")
    elif to_stdout:
        def write(number: int, line: str) -> None:
            stdout.text(line + "\n")
    else:
        target = Path(args.out)
        if args.resume and target.is_file():
            done = _done_rows(target)
            jobs = [job for job in jobs if job[0] not in done]
        else:
            _new_file(args.out, args.force)
        sink = target.open("a" if args.resume else "w", encoding="utf-8")

        def write(number: int, line: str) -> None:
            sink.write(line + "\n")
            sink.flush()  # an interrupted batch keeps every row finished so far

    bar = _Progress(progress, len(jobs), progress.isatty() and not args.quiet)
    written = failed = 0
    try:
        if args.scheduler:
            chunks = _run_dask(args.scheduler, maps, jobs)
        else:
            chunks = _run_local(maps, jobs, args.workers or os.cpu_count() or 1)
        for chunk in chunks:
            for number, line, message in chunk:
                if message is not None:
                    if not args.skip_errors:
                        raise UsageError(message)
                    line = json.dumps(error_record(number, message))
                    bar.note(f"aoegrid: warning: {message} (error record written)")
                    failed += 1
                assert line is not None
                write(number, line)
                written += 1
            bar.step(len(chunk))
    finally:
        bar.close()
        if out_dir is None and not to_stdout:
            sink.close()
    done = f"{_plural(written - failed, 'area')} written" + (f", {_plural(failed, 'error record')}" if failed else "")
    if to_stdout:
        return done if failed else ""  # the records are the output; the summary only when rows failed
    return f"{done} to {out_dir}/" if out_dir is not None else f"{done} to {args.out}"


def _row_file(row: dict[str, str], index: int) -> str:
    """One row's JSON file name: its number, and its name when it has a usable one."""
    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in (row.get("name") or "").strip())
    return f"{index:04d}{'-' + name if name else ''}.json"


_TOKEN_FIELDS = ("name", "x", "y", "size", "tags")
_TOKEN_COLUMNS = "columns are name,x,y,size,tags (x and y required; tags separated by ';')"


def _whole(row: dict[str, str], key: str) -> int:
    text = (row.get(key) or "").strip()
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"column {key} must be a whole number (a square's column or row), got {text!r}") from None


def _read_tokens(path: str, grid: Grid | HexGrid) -> list[Token]:
    """The creatures of a tokens CSV, each checked to stand on the map."""
    rows = _rows(path, ("x", "y"), _TOKEN_COLUMNS, "tokens")
    if rows:
        unknown = [c for c in rows[0][1] if c not in _TOKEN_FIELDS]
        if unknown:
            raise UsageError(f"{path}: unknown column(s) {', '.join(map(repr, unknown))}; {_TOKEN_COLUMNS}")
    tokens = []
    for line, row in rows:
        try:
            size_text = (row.get("size") or "").strip() or "medium"
            tags = frozenset(t.strip() for t in (row.get("tags") or "").split(";") if t.strip())
            token = Token(_whole(row, "x"), _whole(row, "y"), int(size_text) if size_text.isdigit() else size_text,
                          name=(row.get("name") or "").strip() or None, tags=tags)
            if isinstance(grid, HexGrid):
                from aoegrid.board.battlemap import hex_footprint

                off = [h for h in hex_footprint(grid, token) if not grid.contains(*h)]
                if off:
                    raise UsageError(f"{token.label} (hex {token.x}, {token.y}) is not wholly on the {grid.width} x "
                                     f"{grid.height} hex map: hex {off[0]} is off it")
            else:
                x0, y0, x1, y1 = token.space.bounds
                if x0 < 0 or y0 < 0 or x1 > grid.width or y1 > grid.height:
                    raise UsageError(f"{token.label} (space {x0:g}..{x1:g} x {y0:g}..{y1:g}) is not wholly on the "
                                     f"{grid.width} x {grid.height} map")
        except AoegridError as exc:
            raise UsageError(f"{path}, row {line}: {exc}") from None
        tokens.append(token)
    return tokens


def _caster(text: str, m: BattleMap, name: str = "caster") -> Token:
    """``--caster``: a square ``x,y`` (a medium creature there, called ``name``) or the name of a creature on the map."""
    parts = text.split(",")
    if len(parts) == 2:
        try:
            x, y = (float(v) for v in parts)
        except ValueError:
            pass  # a name with a comma in it
        else:
            if not (x.is_integer() and y.is_integer()):
                cell = "hex col,row" if m.grid.kind == "hex" else "square x,y"
                raise UsageError(f"--caster takes a {cell} of whole numbers or a creature's name, got {text!r}")
            return Token(int(x), int(y), name=name)
    try:
        return m.token(text)
    except AoegridError as exc:
        raise UsageError(f"--caster {text!r} is neither a square x,y nor a creature: {exc}") from None


def _move(value: float, units: str) -> float:
    """One ``--move``: how far a caster moves before it casts, in the map's unit."""
    if not (math.isfinite(value) and value >= 0):
        raise UsageError(f"--move must be a distance in {units} (the map's unit), 0 or more, got {value:g}")
    return float(value)


def _moves(values: Sequence[float] | None, casters: int, units: str) -> list[float] | None:
    """``threat --move``: how far each caster moves (one for all, or one per caster, in order), or None."""
    if not values:
        return None
    moves = [_move(v, units) for v in values]
    if len(moves) == 1:
        return moves * casters
    if len(moves) != casters:
        raise UsageError(f"--move given {len(moves)} times for {_count(casters, 'caster')}: give one --move for all, "
                         "or one per --caster, in order")
    return moves


def _reach(rng: Range | None, units: str) -> str:
    """A range as the summaries say it: ``range 30 ft``, or ``any range``."""
    return f"range {rng.feet:g} {units}" if rng is not None and rng.feet != float("inf") else "any range"


def _range(text: str | None, level: int) -> Range | None:
    """``--range``: feet (the grid's unit), or a range name (close, medium, long at ``--level``)."""
    if text is None:
        return None
    try:
        feet = float(text)
    except ValueError:
        return Range(text.strip().lower(), level=level)
    return Range(feet)


def _select(values: Sequence[str] | None, field: str, m: BattleMap) -> tuple[set[str], Any]:
    """``--hit`` or ``--avoid``: tags or creatures' names (repeated or comma-separated), each on the map.

    Returns the words and a predicate on tokens (None when no word is given).
    """
    words = {w.strip() for v in values or () for w in v.split(",") if w.strip()}
    tags = {t for token in m.tokens for t in token.tags}
    names = {token.label for token in m.tokens}
    for word in sorted(words):
        if word not in tags and word not in names:
            raise UsageError(
                f"{field} {word}: no creature on the map has that tag or name; tags on the map: "
                f"{', '.join(sorted(tags)) or 'none (give tags in a --tokens CSV)'}"
            )
    if not words:
        return words, None
    return words, lambda t: bool(t.tags & words) or t.label in words


def _compass(degrees: float) -> str:
    names = ("E", "SE", "S", "SW", "W", "NW", "N", "NE")
    return f"{degrees:g}" + (f" ({names[int(degrees // 45)]})" if degrees % 45 == 0 else "")


def _creatures(found: Sequence[Any]) -> str:
    return ", ".join(f"{r.token.label} ({'no cover' if r.cover_name == 'none' else r.cover_name})" for r in found)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _unreachable(shape: Any, options: dict[str, Any], aimed: bool, plans: Sequence[Any]) -> str:
    """Why no placement reaches a creature to hit: how many origins were legal, and why the rest were not
    (after a move: from how many squares)."""
    from aoegrid.effects.movement import reachable
    from aoegrid.effects.ranges import legal_origins

    avoiding = " without reaching too many to avoid" if options["avoid"] is not None else ""
    move = options.get("move")
    if move is not None:
        m = options["on"]
        stands = reachable(options["caster"], move, on=m, rules=options["rules"])
        return (f"nothing to hit can be reached: from none of the {_count(len(stands), 'square')} the caster can end "
                f"a {move:g}-{m.grid.units} move on does a placement reach a creature to hit{avoiding}")
    if aimed:
        tried = f"{len(options['directions'])} tried" if options["directions"] else "every 5 degrees tried"
        return f"nothing to hit can be reached: no direction ({tried}) reaches a creature to hit{avoiding}"
    origins = legal_origins(shape, caster=options["caster"], range=options["range"], on=options["on"],
                            rules=options["rules"])
    looked = len(origins) + sum(origins.refused.values())
    why = ", ".join(f"{reason}: {n:,}" for reason, n in origins.refused.items())
    if not len(origins):
        last = ""
    elif plans:
        last = f", and none of them reaches a creature to hit{avoiding}"
    else:
        last = ", and every one of them reaches too many creatures to avoid"
    # Square origins name their lattices (intersections, centres), hex ones their one lattice (corners, ...).
    lattices = getattr(origins, "lattices", None) or (origins.lattice,)
    return (f"nothing to hit can be reached: {len(origins):,} of {_count(looked, 'point')} of origin "
            f"({' and '.join(lattices)}) {'is' if len(origins) == 1 else 'are'} legal"
            + (f" ({why})" if why else "") + last)


def _effect(args: argparse.Namespace, m: BattleMap) -> tuple[Shape, list[float | str], bool]:
    """``--shape``, ``--size``, ``--direction``, ``--width``, ``--height`` and ``--rules``, checked against the map.

    Returns the shape, the directions given (a cone's or line's to try; a
    shape placed at a point keeps one, its own) and whether the shape is
    aimed from its caster. ``args.rules`` gets its default.
    """
    aimed = args.shape in AIMED
    directions = [_direction(d) for d in args.direction or ()]
    if not aimed and len(directions) > 1:
        raise UsageError(f"a {args.shape} keeps one --direction (its own); several are tried only for cones and lines")
    shape = make_shape(args.shape, args.size, directions[0] if directions and not aimed else 0.0, args.width,
                       args.height)
    args.rules = _default_rules(args.shape, args.rules)
    _check_units(shape, args.rules, m.grid)
    return shape, directions, aimed


def _with_tokens(m: BattleMap, path: str | None, err: TextIO) -> BattleMap:
    """The map with the creatures of a ``--tokens`` CSV added; a creature a wall runs through is a warning."""
    import warnings

    tokens = _read_tokens(path, m.grid) if path else []
    if not tokens:
        return m
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AoegridWarning)
        m = _remade(m, m.grid, [*m.tokens, *tokens])
    for w in caught:
        print(f"aoegrid: warning: {_one_line(w.message)}", file=err)  # type: ignore[arg-type]
    return m


def _steps(p: Any) -> str:
    """Where a placement's caster stands, and the path it walks there (``best --move``)."""
    x, y = p.stand.x, p.stand.y
    if len(p.path) < 2:
        return f"stand at ({x}, {y}): no move"
    return f"stand at ({x}, {y}) after {p.cost:g} {p.area.grid.units}: path " + " -> ".join(
        f"({sx}, {sy})" for sx, sy in p.path)


def _best_command(args: argparse.Namespace, stdout: _Stdout, err: TextIO) -> str:
    from matplotlib.figure import Figure

    from aoegrid.geometry.directions import parse_direction
    from aoegrid.planning.tactics import best_placements, placement_scores
    from aoegrid.show import plotting

    m = _load(args.map, args.units)
    if m.grid.kind == "gridless":
        _refuse_board("best", args.map, m, works="square grids and hex maps")
    if m.grid.kind == "hex":
        # What the hex search does not take yet, refused before any work.
        for given, what in ((args.move is not None, "--move"), (bool(args.pitch), "--pitch"),
                            (bool(args.elevation), "--elevation"), (bool(args.output), "-o (the score map)")):
            if given:
                _refuse_board("best", args.map, m, what)
    scale = _scale(args.scale, m.grid)
    if args.limit < 1:
        raise UsageError(f"--limit must be 1 or more, got {args.limit}")
    shape, directions, aimed = _effect(args, m)
    units = m.grid.units
    if args.caster is None:
        needs = ("--move" if args.move is not None else "--range" if args.range is not None
                 else f"a {args.shape}" if aimed else None)
        if needs is not None:
            raise UsageError(f"{needs} needs --caster (a square x,y or a creature's name); without one the area "
                             "is placed anywhere, with no one casting it (not for cones and lines)")
    move = None if args.move is None else _move(args.move, units)
    pitches, elevation = _pitches_and_heights(args, units)
    m = _with_tokens(m, args.tokens, err)
    hit, is_hit = _select(args.hit, "--hit", m)
    avoid, is_avoid = _select(args.avoid, "--avoid", m)
    caster = None if args.caster is None else _caster(args.caster, m)
    rng = _range(args.range, args.level)
    options: dict[str, Any] = {
        "caster": caster, "range": rng, "on": m, "rules": args.rules, "mode": args.mode, "hit": is_hit,
        "avoid": is_avoid, "max_avoid": args.max_avoid, "directions": (directions or None) if aimed else None,
        "move": move, "pitches": pitches, "elevation": elevation,
    }
    plans = best_placements(shape, **options, limit=args.limit)
    if caster is None:
        where = "anywhere (no caster)"
    else:
        where = f"from {caster.label} at ({caster.x}, {caster.y})" if m.grid.kind == "square" else \
            f"from {caster.label} on hex ({caster.x}, {caster.y})"
        if move is not None:
            where += f" after a move of up to {move:g} {units}"
        where += ", " + _reach(rng, units)
    lines = [f"{shape.name} {_size_of(shape):g} {units}, {resolve_rules(args.rules).name} {args.mode} {where}; "
             f"hit {', '.join(sorted(hit))}" + (f"; avoid {', '.join(sorted(avoid))}" if avoid else "")]
    if plans and plans[0].hits:
        for rank, p in enumerate(plans, start=1):
            # A hex placement has no height, pitch or stand: the hex search takes none yet.
            lift = _lift(getattr(p, "elevation", 0.0), getattr(p, "pitch", None), units)
            if p.direction is not None:
                place = f"direction {_compass(p.direction)}{lift}"
            else:
                at = p.at if m.grid.kind == "square" else _point_name(m.grid, p.at)
                place = f"origin {at}{lift}" + ("" if caster is None else f", {p.distance:g} {units} from the caster")
            if p.origin is not None and p.origin != p.at:
                place += f", coming into being at ({p.origin[0]:g}, {p.origin[1]:g})"
            lines.append(f"{rank}. {place}: {_count(len(p.hits), 'hit')}, {len(p.avoided)} avoided")
            if getattr(p, "stand", None) is not None:
                lines.append(f"   {_steps(p)}")
            if p.hits:
                lines.append(f"   hits: {_creatures(p.hits)}")
            if p.avoided:
                lines.append(f"   avoided: {_creatures(p.avoided)}")
    else:
        lines.append(_unreachable(shape, options, aimed, plans))
    if args.output:
        if args.output != "-":
            _new_file(args.output, args.force)  # refuse before computing the scores
        scores = placement_scores(shape, **options)
        fig_directions = sorted({parse_direction(d, "--direction") for d in directions}) if aimed and directions else None
        spare = "/".join(sorted(avoid))
        label = f"{'/'.join(sorted(hit))} reached" + (
            f", at most {args.max_avoid} {spare}" if avoid and args.max_avoid else f", no {spare}" if avoid else "")
        if aimed and move is not None:
            label += ", best per square"  # the best direction from each square the caster can move to
        artists = plotting.plot_scores(scores, m, best=plans[0] if plans else None, caster=caster,
                                       directions=fig_directions, label=label, scale=scale)
        fig = artists[0].figure
        assert isinstance(fig, Figure)
        _write_picture(fig, args.output, True, stdout)
        lines.append(f"picture: {'stdout' if args.output == '-' else args.output}")
    if args.json:
        # aoegrid/1 placement records, best first (each carries its area's record).
        records = [placement_record(p if m.grid.kind == "square" else _on_the_ground(p)) for p in plans]
        _write_text(args.json, json.dumps(records, indent=1) + "\n", args.force, stdout)
    return "\n".join(lines)


def _on_the_ground(p: Any) -> Any:
    """A hex placement with the fields of a square one it has no say in yet: on the ground, level, no move."""
    from types import SimpleNamespace

    fields = ("at", "direction", "shape", "score", "hits", "avoided", "area", "distance", "origin")
    return SimpleNamespace(**{k: getattr(p, k) for k in fields}, elevation=0.0, pitch=None, stand=None, path=(),
                           cost=0.0)


def _pitches_and_heights(args: argparse.Namespace, units: str) -> tuple[list[float] | None, list[float] | float]:
    """``--pitch`` and ``--elevation`` (``best``, ``threat``): the pitches to try (None: the shape's own) and the
    origin's heights (0.0: the ground), each a list as :func:`_numbers` reads it."""
    pitches = None
    if args.pitch:
        _check_aimed(args.shape)
        pitches = [_pitch(v, "--pitch") for v in _numbers(args.pitch, "--pitch", "degrees above the horizontal")]
    elevation = _numbers(args.elevation, "--elevation", f"heights in {units}") if args.elevation else 0.0
    return pitches, elevation


def _height(text: str, field: str, units: str) -> float:
    """One height in the map's unit (``threat --creature-elevation``): a finite number, below 0 for a pit."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise UsageError(f"{field} takes a height in {units} (the map's unit), a finite number such as 15, "
                         f"got {text!r}")
    return value + 0.0  # -0 is the ground


def _several(values: Sequence[float], one: str, many: str, unit: str = "", noun: str = "") -> str:
    """``origin 20 ft up``, ``origins 0, 10 or 20 ft up``, ``origins 0 to 30 ft up (7 heights)``: values searched
    (past three, the first, the last and how many: ``--elevation`` may give a thousand, too many for a line)."""
    said = [f"{v:g}" for v in sorted(set(values))]
    if len(said) == 1:
        return f"{one} {said[0]}{unit}"
    if len(said) <= 3:
        return f"{many} {', '.join(said[:-1])} or {said[-1]}{unit}"
    return f"{many} {said[0]} to {said[-1]}{unit} ({len(said)} {noun or many})"


def _raised(elevation: list[float] | float, pitches: list[float] | None, units: str) -> str:
    """``, origins 0 to 30 ft up, pitch 30``: the heights and pitches ``threat`` searched, when not the ground's
    and level (the default of each is left unsaid, as :func:`_lift` leaves it)."""
    heights = [elevation] if isinstance(elevation, float) else elevation
    out = "" if not any(heights) else ", " + _several(heights, "origin", "origins", f" {units} up", "heights")
    if pitches and any(pitches):
        out += ", " + _several(pitches, "pitch", "pitches")
    return out


def _threat_command(args: argparse.Namespace, stdout: _Stdout, err: TextIO) -> str:
    from aoegrid.planning.threat import threat_map

    m = _load(args.map, args.units)
    if m.grid.kind != "square":
        _refuse_board("threat", args.map, m)
    # A given --scale is checked before the work; the default needs the pictures' module, loaded only for a picture.
    scale = None if args.scale is None else _scale(args.scale, m.grid)
    shape, directions, aimed = _effect(args, m)
    units = m.grid.units
    pitches, elevation = _pitches_and_heights(args, units)
    up = 0.0 if args.creature_elevation is None else _height(args.creature_elevation, "--creature-elevation", units)
    m = _with_tokens(m, args.tokens, err)
    casters = [_caster(text, m, name=f"caster {k}") for k, text in enumerate(args.caster, start=1)]
    labels = [c.label for c in casters]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise UsageError(f"--caster {twice[0]} is given twice; each caster counts once")
    moves = _moves(args.move, len(casters), units)
    spare, is_spare = _select(args.spare, "--spare", m)
    if args.max_spared_hit < 0:
        raise UsageError(f"--max-spared-hit must be 0 or more, got {args.max_spared_hit}")
    size = args.creature_size.strip()
    try:
        footprint = Token(0, 0, size=int(size) if size.isdigit() else size).footprint
    except AoegridError as exc:
        raise UsageError(f"--creature-size {size!r}: {exc}") from None
    for path in (args.output, args.json):
        if path and path != "-":
            _new_file(path, args.force)  # refuse before the work
    rng = _range(args.range, args.level)
    t = threat_map(shape, casters=casters, range=rng, move=moves, on=m, rules=args.rules, mode=args.mode,
                   size=footprint, spare=is_spare, max_spared_hit=args.max_spared_hit,
                   directions=(directions or None) if aimed else None, pitches=pitches, elevation=elevation,
                   creature_elevation=up)
    who = [f"{c.label} at ({c.x}, {c.y})" for c in t.casters]
    if moves is not None:
        who = [f"{c} moving up to {b:g} {units}" for c, b in zip(who, moves)]
    w, h = t.size
    raised = _raised(elevation, pitches, units)
    flying = f" {up:g} {units} up" if up else ""
    head = (f"{shape.name} {_size_of(shape):g} {units}, {resolve_rules(args.rules).name} {args.mode}, "
            f"{_reach(rng, units)}{raised}, against a {w} x {h} creature{flying}; casters: {', '.join(who)}")
    if spare:
        head += f"; sparing {', '.join(sorted(spare))}"
        if args.max_spared_hit:
            head += f" (at most {args.max_spared_hit})"
    reached = f"squares reached: {int(t.mask.sum())} of {m.grid.width * m.grid.height}"
    by_count = [f"{int((t.count == n).sum())} by {_count(n, 'caster')}" for n in range(1, len(casters) + 1)
                if (t.count == n).any()]
    if by_count:
        reached += f" ({', '.join(by_count)})"
    lines = [head, reached]
    lines += [f"  {label}: {_plural(int(mask.sum()), 'square')}" for label, mask in t.by_caster.items()]
    if args.output:
        from aoegrid.show import plotting

        title = f"{shape.name} {_size_of(shape):g} {units}: where {', '.join(t.by_caster)} can reach a creature"
        # The heights on a line of their own: the title is centred over the map and a small map is narrow.
        lifted = [raised[2:]] if raised else []
        if up:
            lifted.append(f"creature{flying}")
        if lifted:
            title += "\n" + "; ".join(lifted)
        drawn = plotting.plot_threat(t, moves=moves is not None, title=title,
                                     scale=scale or _scale(_default_scale(None, m.grid), m.grid))
        _write_picture(drawn.figure, args.output, True, stdout)
        lines.append(f"picture: {'stdout' if args.output == '-' else args.output}")
    if args.json:
        inputs = {k: v for k, v in vars(args).items() if k in (
            "map", "shape", "size", "direction", "width", "height", "caster", "range", "level", "move", "rules",
            "mode", "units", "spare", "max_spared_hit", "creature_size", "tokens")}
        # The heights as threat_map was given them (numbers, lists read), only when asked: ground records unchanged.
        heights = {"elevation": elevation if args.elevation else None, "pitches": pitches,
                   "creature_elevation": up if args.creature_elevation is not None else None}
        inputs.update({k: v for k, v in heights.items() if v is not None})
        _write_text(args.json, json.dumps(threat_record(t, inputs=inputs), indent=1) + "\n", True, stdout)
    return "\n".join(lines)


_MOST_VALUES = 1000


def _numbers(values: Sequence[str], field: str, what: str) -> list[float]:
    """Numbers given once or more, comma-separated, each a number or ``LO..HI/STEP`` (``0..30/5``: 0, 5, ..., 30)."""
    out: list[float] = []
    for text in (w.strip() for v in values for w in v.split(",")):
        span, slash, step_text = text.partition("/")
        lo_text, dots, hi_text = span.partition("..")
        try:
            if bool(dots) != bool(slash):
                raise ValueError(text)
            lo, hi, step = (float(lo_text), float(hi_text), float(step_text)) if dots else (float(text),) * 3
        except ValueError:
            raise UsageError(f"{field} takes {what}: numbers, comma-separated, or LO..HI/STEP for LO, LO+STEP, ... "
                             f"up to HI (0..30/5), got {text!r}") from None
        if not all(map(math.isfinite, (lo, hi, step))) or (dots and not (lo <= hi and step > 0)):
            raise UsageError(f"{field} {text}: give finite numbers, and LO..HI/STEP with LO at most HI and STEP "
                             "above 0")
        count = math.floor((hi - lo) / step + 1e-9) + 1 if dots else 1
        if len(out) + count > _MOST_VALUES:
            raise UsageError(f"{field} gives more than {_MOST_VALUES} values; each is searched: give fewer")
        out += [round(lo + k * step, 9) for k in range(count)]
    return out


def _direction(text: str) -> float | str:
    """Degrees as a number, or a compass name (E, SE, south-east) left for the shape to check."""
    text = text.strip() or "0"
    try:
        return float(text)
    except ValueError:
        return text


#: ``best --pitch`` and ``threat --pitch``.
_PITCHES_HELP = ("cones and lines: the pitches to try with every direction, degrees above the horizontal from -90 "
                 "to 90, as --elevation takes heights (default 0, level)")


def _casting_arguments(p: argparse.ArgumentParser, units: dict[str, Any]) -> None:
    """What ``best`` and ``threat`` share: the map and its creatures, the effect, its rules, range and units."""
    p.add_argument("map", help="map file (.dd2vtt, .uvtt, .df2vtt, Foundry .json, text map) or @demo")
    p.add_argument("--shape", required=True, choices=(*SHAPES, *TEMPLATES), help="a shape, or a Savage Worlds template")
    p.add_argument("--size", type=float, help="radius, length or side, in the map's unit (not for templates)")
    p.add_argument("--range", help="how far from its caster the origin may be: a distance in the map's unit, or "
                   "close, medium, long")
    p.add_argument("--level", type=int, default=1, help="caster level for close, medium and long ranges")
    p.add_argument("--tokens", help="CSV of creatures added to the map's own: name,x,y,size,tags (tags separated by ;)")
    p.add_argument("--rules", help=f"one of {', '.join(PRESETS)} (default starfinder; savage-worlds for templates)")
    p.add_argument("--mode", default="burst", choices=("burst", "emanation", "spread"))
    p.add_argument("--direction", action="append",
                   help="cones and lines: a direction to try (repeat; default every 5 degrees); cubes: their own")
    p.add_argument("--width", type=float, help="line width")
    p.add_argument("--height", type=float, help="cylinder height")
    p.add_argument("--units", **units)


def parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for documentation and tests)."""
    p = _Parser(prog="aoegrid", description="Which squares (or hexes) of a battle map an area effect covers; on a "
                "gridless map, its exact outline. '-' as an output file means stdout.")
    p.add_argument("--version", action="version", version=f"aoegrid {__version__}")
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    # --debug after the subcommand too; SUPPRESS so a subcommand's default does not undo one given before it.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    shapes = (*SHAPES, *TEMPLATES)
    units = {"choices": ("in", "ft"), "help": "measure the map's squares in inches (Savage Worlds: a square an "
             "inch) or feet (5 ft a square); default the map's own"}
    d = sub.add_parser("demo", parents=[common], help="a burst, a cone and a spread under every preset on the bundled map")
    d.add_argument("-o", "--out", help="where to write the PNG, - for stdout (default: aoegrid-demo.png, "
                   "numbered if it exists)")
    d.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    a = sub.add_parser("area", parents=[common], help="one area on a map: picture, JSON and a table")
    a.add_argument("map", help="map file (.dd2vtt, .uvtt, .df2vtt, Foundry .json, text map) or @demo")
    a.add_argument("--shape", required=True, choices=shapes, help="a shape, or a Savage Worlds template")
    a.add_argument("--size", type=float, help="radius, length or side, in the map's unit (not for templates)")
    a.add_argument("--at", required=True, help="point of origin: x,y in grid units (squares); on a hex map x,y in "
                   "hex widths (0,0 the map's top-left), col,row@k (corner k of hex (col, row), 0-5 clockwise from "
                   "the top of a pointy hex or the right of a flat one; under rules whose origins are hex corners an "
                   f"x,y within {SNAP:g} hex widths of one is taken as it) or col,row@center; on a gridless map x,y "
                   "in its unit")
    a.add_argument("--rules", help=f"one of {', '.join(PRESETS)} (default starfinder; savage-worlds for templates)")
    a.add_argument("--mode", default="burst", choices=("burst", "emanation", "spread"))
    a.add_argument("--direction", help="cones and lines (required): degrees clockwise from east, or N, NE, E, "
                   "north-east, ...; cubes: default 0, lined up with the grid")
    a.add_argument("--width", type=float, help="line width")
    a.add_argument("--height", type=float, help="cylinder height")
    a.add_argument("--elevation", type=float, default=0.0, help="the origin's height, in the map's unit (default 0, "
                   "the ground)")
    a.add_argument("--pitch", type=float, help="cones and lines: degrees above the horizontal, -90 (straight down) "
                   "to 90 (straight up); default 0, level")
    a.add_argument("--units", **units)  # type: ignore[arg-type]
    a.add_argument("-o", "--output", help="PNG or SVG picture to write, - for PNG on stdout")
    a.add_argument("--json", help="JSON file to write, - for stdout")
    a.add_argument("--foundry", help="Foundry VTT MeasuredTemplate JSON to write (in the scene's pixels), - for stdout")
    a.add_argument("--scale", type=float, default=None, help="pixels per square, hex width or (gridless) Medium "
                   "creature's space (default: 24, more for small maps)")
    a.add_argument("--force", action="store_true", help="overwrite existing output files")
    t = sub.add_parser("best", parents=[common], help="the best placements of an area: most creatures to hit, none to avoid")
    _casting_arguments(t, units)
    t.add_argument("--caster", help="the caster: a square x,y or hex col,row (a medium creature) or a creature's "
                   "name; without "
                   "it the area is placed anywhere, with no one casting it (a trap, a hazard)")
    t.add_argument("--move", type=float, help="how far the caster may move before it casts, in the map's unit "
                   "(walls, terrain and creatures in the way as the rules say)")
    t.add_argument("--elevation", action="append", help="the origin's height in the map's unit, or the heights to "
                   "search: comma-separated (0,10,20) or LO..HI/STEP (0..30/5), repeatable (default 0, the ground)")
    t.add_argument("--pitch", action="append", help=_PITCHES_HELP)
    t.add_argument("--hit", action="append", required=True, help="tag or name of the creatures to reach (repeat or comma-separate)")
    t.add_argument("--avoid", action="append", help="tag or name of the creatures to spare (repeat or comma-separate)")
    t.add_argument("--max-avoid", type=int, default=0, help="creatures to avoid a placement may still reach (default 0)")
    t.add_argument("--limit", type=int, default=5, help="how many placements to print (default 5)")
    t.add_argument("-o", "--output", help="PNG or SVG score map to write, - for PNG on stdout")
    t.add_argument("--json", help="JSON file of the placements to write, - for stdout")
    t.add_argument("--scale", type=float, default=24.0, help="pixels per square")
    t.add_argument("--force", action="store_true", help="overwrite existing output files")
    r = sub.add_parser("threat", parents=[common], help="where casters can reach a creature, square by square "
                       "(after moving): a threat map")
    _casting_arguments(r, units)
    r.add_argument("--caster", action="append", required=True,
                   help="a caster: a square x,y (a medium creature, called caster 1, 2, ... in order) or a "
                   "creature's name (repeat for each caster)")
    r.add_argument("--move", type=float, action="append", help="how far the casters may move before casting, in the "
                   "map's unit: once for all, or once per --caster in order")
    r.add_argument("--spare", action="append", help="tag or name of the casters' own side: placements reaching "
                   "them do not count (repeat or comma-separate)")
    r.add_argument("--max-spared-hit", type=int, default=0,
                   help="creatures to spare a placement may still reach and count (default 0)")
    r.add_argument("--creature-size", default="medium",
                   help="the creature threatened: a size name or a number of squares across (default medium)")
    r.add_argument("--elevation", action="append", help="the heights of the origins to search, in the map's unit: "
                   "one, comma-separated (0,10,20) or LO..HI/STEP (0..30/5), repeatable (default 0, the ground)")
    r.add_argument("--pitch", action="append", help=_PITCHES_HELP)
    r.add_argument("--creature-elevation", help="the height of the threatened creature's feet, in the map's unit "
                   "(default 0, the ground; 30 for a flyer 30 above it)")
    r.add_argument("-o", "--output", help="PNG or SVG threat map to write, - for PNG on stdout")
    r.add_argument("--json", help="JSON file of the threat map (an aoegrid/1 threat record) to write, - for stdout")
    r.add_argument("--scale", type=float, default=None, help="pixels per square (default: 24, more for small maps)")
    r.add_argument("--force", action="store_true", help="overwrite existing output files")
    i = sub.add_parser("info", parents=[common], help="what a map file holds")
    i.add_argument("map")
    b = sub.add_parser("batch", parents=[common], help="many areas from a CSV of placements, as JSON lines")
    b.add_argument("map", help="map file or @demo (the default of a map column), or a folder of maps: every "
                   "placement on every map")
    b.add_argument("placements", help="CSV with columns shape,size,x,y[,name,map,rules,mode,direction,width,height,"
                   "elevation,pitch]; map: a map file relative to the CSV; pitch: cones and lines only")
    out = b.add_mutually_exclusive_group()
    out.add_argument("-o", "--out", help="JSON lines file to write, - for stdout (the default)")
    out.add_argument("--out-dir", help="folder to write one JSON file per row into (0001-name.json, ...)")
    b.add_argument("--force", action="store_true", help="overwrite existing output files")
    b.add_argument("--skip-errors", action="store_true", help="write an error record for a bad row and go on")
    b.add_argument("--resume", action="store_true", help="skip the rows already in --out or --out-dir, append the rest")
    b.add_argument("--workers", type=int, help="processes to run rows on (default: every core)")
    b.add_argument("--scheduler", metavar="ADDRESS", help="run the rows on a Dask cluster (tcp://host:8786); "
                   'needs pip install "aoegrid[dask]"')
    b.add_argument("--units", **units)  # type: ignore[arg-type]
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    out = _Stdout(stdout or sys.stdout)
    err = stderr or sys.stderr
    args = parser().parse_args(argv)
    try:
        if args.command == "demo":
            text = demo(args.out, force=args.force, stdout=out.stream)
            out.used = args.out == "-"
        elif args.command == "area":
            resolve_rules(_default_rules(args.shape, args.rules))
            text = _area_command(args, out)
        elif args.command == "best":
            resolve_rules(_default_rules(args.shape, args.rules))
            text = _best_command(args, out, err)
        elif args.command == "threat":
            resolve_rules(_default_rules(args.shape, args.rules))
            text = _threat_command(args, out, err)
        elif args.command == "info":
            text = _info_command(args)
        else:
            text = _batch_command(args, out, err)
    except (AoegridError, OSError) as exc:
        if args.debug:
            raise
        print(f"aoegrid: error: {_one_line(exc)}", file=err)
        return 2
    except (MemoryError, OverflowError) as exc:
        if args.debug:
            raise
        source = getattr(args, "map", None)
        what = f"{source}: the map" if source and source != "@demo" else "the input"
        print(f"aoegrid: error: {what} is too large to compute on this machine ({type(exc).__name__})", file=err)
        return 2
    except Exception as exc:  # a bug: still one line, the traceback behind --debug
        if args.debug:
            raise
        print(f"aoegrid: error: internal error, {type(exc).__name__}: {_one_line(exc)} "
              f"(--debug shows the traceback; please report it)", file=err)
        return 2
    if text:
        try:
            print(text, file=err if out.used else out.stream)
        except BrokenPipeError:  # piped into head: the reader has what it wanted
            pass
    return 0


def _one_line(exc: BaseException) -> str:
    """An error's message on one line (file names and JSON values may hold line breaks)."""
    return " ".join(str(exc).splitlines())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
