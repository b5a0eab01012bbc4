"""The ``aoegrid`` command line.

``aoegrid demo`` places a burst, a cone and a spread under each rule preset on
a real map bundled with the package, and writes a PNG beside a text summary.
``aoegrid area``, ``aoegrid info`` and ``aoegrid batch`` do the same for a
map file of yours. Exit codes: 0 success, 2 bad usage or bad input (one line
on stderr; ``--debug`` shows the traceback).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from aoegrid.area import Area, area
from aoegrid.errors import AoegridError, InvalidValueError
from aoegrid.export import area_record
from aoegrid.grid import Grid, memory_budget
from aoegrid.maps import BattleMap
from aoegrid.rules import PRESETS, resolve_rules
from aoegrid.shapes import Cone, Cube, Cylinder, Line, Shape, Sphere

SHAPES = ("sphere", "cylinder", "cone", "line", "cube")


class UsageError(InvalidValueError):
    """Bad command-line input."""


class _Parser(argparse.ArgumentParser):
    """Usage errors as one ``aoegrid: error:`` line, like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"aoegrid: error: {message} (see '{self.prog} --help')\n")


def _point(text: str, field: str = "--at") -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise UsageError(f"{field} takes x,y in grid units (e.g. 12,7), got {text!r}") from None
    return x, y


def _load(path: str) -> BattleMap:
    from aoegrid.io import demo_map, load_map

    if path == "@demo":
        return demo_map()
    if not Path(path).exists():
        raise UsageError(f"no map file {path!r} (give a .dd2vtt, .uvtt, .df2vtt, Foundry .json or text map, or @demo)")
    return load_map(path)


def make_shape(kind: str, size: float | None, direction: Any = 0.0, width: float | None = None,
               height: float | None = None) -> Shape:
    """The shape a command line or a CSV row asks for."""
    kind = kind.strip().lower()
    if size is None:
        raise UsageError("a shape needs a size")
    if kind == "sphere":
        return Sphere(size)
    if kind == "cylinder":
        return Cylinder(size, height if height is not None else size)
    if kind == "cone":
        return Cone(size, direction)
    if kind == "line":
        return Line(size, direction, width=width)
    if kind == "cube":
        return Cube(size, direction)
    raise UsageError(f"unknown shape {kind!r}; valid shapes are {', '.join(SHAPES)}")


def _size_of(shape: Shape) -> float:
    """The number a command line gave as ``--size``."""
    return float(getattr(shape, "radius", None) or getattr(shape, "length", None) or shape.size)


def _scale(value: float, grid: Grid) -> float:
    """``--scale`` checked: at least a pixel a square, and a picture that fits.

    The picture's RGBA pixels must fit in a quarter of the memory a query may
    take (matplotlib holds a few copies), and each side in matplotlib's limit
    of 2**16 pixels.
    """
    budget = memory_budget() / 4
    largest = min((2**16 - 1) / max(grid.width, grid.height), (budget / (4 * grid.width * grid.height)) ** 0.5)
    if not 1 <= value <= largest:
        raise UsageError(
            f"--scale must be from 1 to {largest:,.0f} pixels a square for this "
            f"{grid.width} x {grid.height} map, got {value:g}"
        )
    return value


def _new_file(path: str, force: bool) -> Path:
    """A path to write, refusing to overwrite a user's file unless told to."""
    p = Path(path)
    if p.exists() and not force:
        raise UsageError(f"{path} exists; pass --force to overwrite it")
    return p


def summary(a: Area) -> str:
    """A short table: the count, cover and creatures reached."""
    shape = a.shape
    assert shape is not None and a.rules is not None and a.mode is not None
    lines = [f"{shape.name} {_size_of(shape):g} {a.grid.units} at {a.origin}, {a.rules.name} {a.mode.value}: {len(a)} squares"]
    if a.battlemap is not None:
        cover = a.cover[a.mask]
        partial = int((cover > 0).sum())
        blocked = int((a.shape_mask & ~a.mask).sum())
        lines.append(f"  cover: {partial} squares with some cover, {blocked} squares of the shape blocked")
        reached = a.tokens()
        if reached:
            lines.append("  creatures: " + ", ".join(f"{r.token.label} ({r.cover_name}, {r.distance:g} {a.grid.units})" for r in reached))
    return "\n".join(lines)


def demo(out: str | None = None) -> str:
    """Run the demo on the bundled map: returns the summary; writes the picture.

    A 15-ft burst, a 30-ft cone and a 15-ft spread under each preset (Savage
    Worlds: the 3" blast, the Cone Template and a 3" spread) from one point of
    the bundled cave map.
    """
    from matplotlib.figure import Figure

    from aoegrid import plotting, savage_worlds
    from aoegrid.io import demo_map

    m = demo_map()
    # Savage Worlds measures in tabletop inches: the same map, an inch a square.
    inches = BattleMap(Grid(m.grid.width, m.grid.height, units="in"), m.walls, m.tokens, m.fog, m.info)
    at = (6, 11)
    fig = Figure(figsize=(3.2 * 3, 3.4 * len(PRESETS)), dpi=100, layout="constrained")
    axes = fig.subplots(len(PRESETS), 3, squeeze=False)
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
        for col, (label, shape, mode) in enumerate(effects):
            a = area(shape, at, on, rules, mode)
            ax = axes[row][col]
            plotting.plot_area(a, ax)
            ax.set_title(f"{name} {label}: {len(a)} squares", fontsize=9)
            ax.set_xticks([])
            ax.set_yticks([])
            counts.append(f"{label} {len(a):3d}")
        lines.append(f"{name:14s} " + "   ".join(counts))
    target = Path(out) if out else _free_name(Path("aoegrid-demo.png"))
    plotting.save(fig, target)
    lines.append(f"picture: {target}")
    return "\n".join(lines)


def _free_name(p: Path) -> Path:
    """``p``, or ``p`` with a number added, so no existing file is overwritten."""
    k = 1
    candidate = p
    while candidate.exists():
        candidate = p.with_name(f"{p.stem}-{k}{p.suffix}")
        k += 1
    return candidate


def _area_command(args: argparse.Namespace) -> str:
    from aoegrid import plotting

    m = _load(args.map)
    scale = _scale(args.scale, m.grid)
    shape = make_shape(args.shape, args.size, args.direction, args.width, args.height)
    a = area(shape, _point(args.at), m, args.rules, args.mode, elevation=args.elevation)
    if args.output:
        plotting.save(a, _new_file(args.output, args.force), scale=scale)
    if args.json:
        inputs = {k: v for k, v in vars(args).items() if k in ("map", "shape", "size", "at", "rules", "mode", "direction", "width", "height", "elevation")}
        _new_file(args.json, args.force).write_text(json.dumps(area_record(a, inputs=inputs), indent=1))
    return summary(a)


def _info_command(args: argparse.Namespace) -> str:
    m = _load(args.map)
    info = m.info
    kinds: dict[str, int] = {}
    for w in m.walls:
        key = w.kind.value if hasattr(w.kind, "value") else str(w.kind)
        kinds[key] = kinds.get(key, 0) + 1
    lines = [
        f"map: {getattr(info, 'source', '?')} ({getattr(info, 'format', '?')})",
        f"grid: {m.grid.width} x {m.grid.height} squares of {m.grid.square:g} {m.grid.units}",
        f"walls: {kinds.get('wall', 0)}, doors: {kinds.get('door', 0)}, windows: {kinds.get('window', 0)}",
        f"lights: {len(getattr(info, 'lights', ()))}, tokens: {len(m.tokens)}",
    ]
    if m.walls:
        xs = [c for w in m.walls for c in (w.start[0], w.end[0])]
        ys = [c for w in m.walls for c in (w.start[1], w.end[1])]
        lines.append(f"wall bounds: x {min(xs):g}..{max(xs):g}, y {min(ys):g}..{max(ys):g}")
    lines += [f"note: {note}" for note in m.notes]
    return "\n".join(lines)


_CSV_FIELDS = ("shape", "size", "x", "y")
_CSV_COLUMNS = "columns are shape,size,x,y and optionally name,rules,mode,direction,width,height,elevation"


def _rows(path: str) -> list[tuple[int, dict[str, str]]]:
    """The placements, each with the line of the file it ends on (the header is line 1)."""
    from aoegrid.io import decode_text

    p = Path(path)
    if not p.exists():
        raise UsageError(f"no placements file {path!r}")
    if p.is_dir():
        raise UsageError(f"{path}: is a directory, not a CSV file")
    # UTF-8 or, by its byte order mark, UTF-16; the mark is no part of the first column's name.
    text = decode_text(p.read_bytes(), path)[0].removeprefix("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [name.strip() for name in next(reader, [])]
        missing = [c for c in _CSV_FIELDS if c not in header]
        if missing:
            raise UsageError(f"{path}: missing column(s) {', '.join(missing)}; {_CSV_COLUMNS}")
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
        if default is None and key in _CSV_FIELDS:
            raise UsageError(f"column {key} is empty")
        return default
    try:
        return float(text)
    except ValueError:
        raise UsageError(f"column {key} must be a number, got {text!r}") from None


def _batch_command(args: argparse.Namespace, progress: TextIO) -> str:
    m = _load(args.map)
    rows = _rows(args.placements)
    out_path = _new_file(args.out, args.force) if args.out else None
    out_dir = Path(args.out_dir) if args.out_dir else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        # Check every name first, so a refusal leaves no half-written batch.
        targets = [_new_file(str(out_dir / _row_file(row, i)), args.force) for i, (_, row) in enumerate(rows, start=1)]
    results = []
    show = progress.isatty() and not args.quiet
    for i, (line, row) in enumerate(rows, start=1):
        where = f"{args.placements}, row {line}"
        try:
            shape = make_shape(row["shape"], _number(row, "size"), _direction(row.get("direction") or "0"),
                               _number(row, "width", None), _number(row, "height", None))
            at = (_number(row, "x"), _number(row, "y"))
            a = area(shape, at, m, (row.get("rules") or "starfinder").strip(), (row.get("mode") or "burst").strip(),
                     elevation=_number(row, "elevation", 0.0) or 0.0)
        except AoegridError as exc:
            raise UsageError(f"{where}: {exc}") from None
        except (MemoryError, OverflowError) as exc:  # a last resort: shapes are clipped to the grid
            raise UsageError(f"{where}: this area is too large to compute ({type(exc).__name__})") from None
        results.append(area_record(a, inputs=dict(row)))
        if show:
            done = int(30 * i / len(rows))
            progress.write(f"\r[{'#' * done}{'.' * (30 - done)}] {i}/{len(rows)}")
            progress.flush()
    if show:
        progress.write("\n")
    if out_dir is not None:
        for target, record in zip(targets, results):
            target.write_text(json.dumps(record, indent=1) + "\n")
        return f"{len(results)} areas written to {out_dir}/"
    text = "\n".join(json.dumps(r) for r in results)
    if out_path is not None:
        out_path.write_text(text + "\n")
        return f"{len(results)} areas written to {out_path}"
    return text


def _row_file(row: dict[str, str], index: int) -> str:
    """One row's JSON file name: its number, and its name when it has a usable one."""
    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in (row.get("name") or "").strip())
    return f"{index:04d}{'-' + name if name else ''}.json"


def _direction(text: str) -> float | str:
    """Degrees as a number, or a compass name left for the shape to check."""
    text = text.strip() or "0"
    try:
        return float(text)
    except ValueError:
        return text


def parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for documentation and tests)."""
    p = _Parser(prog="aoegrid", description="Which squares of a battle map an area effect covers.")
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="a burst, a cone and a spread under every preset on the bundled map")
    d.add_argument("--out", help="where to write the PNG (default: aoegrid-demo.png, numbered if it exists)")
    a = sub.add_parser("area", help="one area on a map: picture, JSON and a table")
    a.add_argument("map", help="map file (.dd2vtt, .uvtt, .df2vtt, Foundry .json, text map) or @demo")
    a.add_argument("--shape", required=True, choices=SHAPES)
    a.add_argument("--size", required=True, type=float, help="radius, length or side, in the map's unit")
    a.add_argument("--at", required=True, help="point of origin x,y in grid units")
    a.add_argument("--rules", default="starfinder", help=f"one of {', '.join(PRESETS)}")
    a.add_argument("--mode", default="burst", choices=("burst", "emanation", "spread"))
    a.add_argument("--direction", default="0", help="degrees clockwise from east, or N, NE, E, ...")
    a.add_argument("--width", type=float, help="line width")
    a.add_argument("--height", type=float, help="cylinder height")
    a.add_argument("--elevation", type=float, default=0.0)
    a.add_argument("-o", "--output", help="PNG or SVG picture to write")
    a.add_argument("--json", help="JSON file to write")
    a.add_argument("--scale", type=float, default=24.0, help="pixels per square")
    a.add_argument("--force", action="store_true", help="overwrite existing output files")
    i = sub.add_parser("info", help="what a map file holds")
    i.add_argument("map")
    b = sub.add_parser("batch", help="many areas from a CSV of placements, as JSON lines")
    b.add_argument("map")
    b.add_argument("placements", help="CSV with columns shape,size,x,y[,name,rules,mode,direction,width,height,elevation]")
    out = b.add_mutually_exclusive_group()
    out.add_argument("--out", help="JSON lines file to write (default: stdout)")
    out.add_argument("--out-dir", help="folder to write one JSON file per row into (0001-name.json, ...)")
    b.add_argument("--force", action="store_true")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    args = parser().parse_args(argv)
    try:
        if args.command == "demo":
            text = demo(args.out)
        elif args.command == "area":
            resolve_rules(args.rules)
            args.direction = _direction(args.direction)
            text = _area_command(args)
        elif args.command == "info":
            text = _info_command(args)
        else:
            text = _batch_command(args, err)
    except (AoegridError, OSError) as exc:
        if args.debug:
            raise
        print(f"aoegrid: error: {_one_line(exc)}", file=err)
        return 2
    except (MemoryError, OverflowError) as exc:
        if args.debug:
            raise
        print(f"aoegrid: error: the input is too large to compute ({type(exc).__name__})", file=err)
        return 2
    except Exception as exc:  # a bug: still one line, the traceback behind --debug
        if args.debug:
            raise
        print(f"aoegrid: error: internal error, {type(exc).__name__}: {_one_line(exc)} "
              f"(--debug shows the traceback; please report it)", file=err)
        return 2
    print(text, file=out)
    return 0


def _one_line(exc: BaseException) -> str:
    """An error's message on one line (file names and JSON values may hold line breaks)."""
    return " ".join(str(exc).splitlines())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
