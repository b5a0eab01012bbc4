"""The ``aoegrid`` command line.

``aoegrid demo`` places a burst, a cone and a spread under each rule preset on
a real map bundled with the package, and writes a PNG beside a text summary.
``aoegrid area``, ``aoegrid info`` and ``aoegrid batch`` do the same for a
map file of yours; ``aoegrid best`` finds where an area reaches the most
creatures to hit and none to spare, and draws the score map. Exit codes: 0 success, 2 bad usage or bad input (one line
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
from aoegrid.errors import AoegridError, AoegridWarning, InvalidValueError
from aoegrid.export import area_record
from aoegrid.grid import Grid, memory_budget
from aoegrid.maps import BattleMap
from aoegrid.ranges import Range
from aoegrid.rules import PRESETS, resolve_rules
from aoegrid.shapes import Cone, Cube, Cylinder, Line, Shape, Sphere
from aoegrid.tactics import Placement
from aoegrid.tokens import Token

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


_TOKEN_FIELDS = ("name", "x", "y", "size", "tags")
_TOKEN_COLUMNS = "columns are name,x,y,size,tags (x and y required; tags separated by ';')"


def _whole(row: dict[str, str], key: str) -> int:
    text = (row.get(key) or "").strip()
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"column {key} must be a whole number (a square's column or row), got {text!r}") from None


def _read_tokens(path: str, grid: Grid) -> list[Token]:
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
            x0, y0, x1, y1 = token.space.bounds
            if x0 < 0 or y0 < 0 or x1 > grid.width or y1 > grid.height:
                raise UsageError(f"{token.label} (space {x0:g}..{x1:g} x {y0:g}..{y1:g}) is not wholly on the "
                                 f"{grid.width} x {grid.height} map")
        except AoegridError as exc:
            raise UsageError(f"{path}, row {line}: {exc}") from None
        tokens.append(token)
    return tokens


def _caster(text: str, m: BattleMap) -> Token:
    """``--caster``: a square ``x,y`` (a medium creature there) or the name of a creature on the map."""
    parts = text.split(",")
    if len(parts) == 2:
        try:
            x, y = (float(v) for v in parts)
        except ValueError:
            pass  # a name with a comma in it
        else:
            if not (x.is_integer() and y.is_integer()):
                raise UsageError(f"--caster takes a square x,y of whole numbers or a creature's name, got {text!r}")
            return Token(int(x), int(y), name="caster")
    try:
        return m.token(text)
    except AoegridError as exc:
        raise UsageError(f"--caster {text!r} is neither a square x,y nor a creature: {exc}") from None


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


def _placement_record(rank: int, p: Placement) -> dict[str, Any]:
    if isinstance(p.at, tuple):
        at: Any = list(p.at)
    else:  # a cone or line: its caster's space
        space = p.at.space if isinstance(p.at, Token) else p.at
        at = {"space": [space.x, space.y, space.width, space.height]}
    return {
        "rank": rank, "at": at, "direction": p.direction, "score": p.score, "distance": p.distance,
        **{key: [{"label": r.token.label, "name": r.token.name, "x": r.token.x, "y": r.token.y, "cover": r.cover_name,
                  "distance": r.distance} for r in found] for key, found in (("hits", p.hits), ("avoided", p.avoided))},
        "squares": [list(q) for q in p.area.squares],
    }


def _best_command(args: argparse.Namespace, err: TextIO) -> str:
    import warnings

    from matplotlib.figure import Figure

    from aoegrid import plotting
    from aoegrid.directions import parse_direction
    from aoegrid.tactics import best_placements, placement_scores

    m = _load(args.map)
    scale = _scale(args.scale, m.grid)
    if args.limit < 1:
        raise UsageError(f"--limit must be 1 or more, got {args.limit}")
    aimed = args.shape in ("cone", "line")
    directions = [_direction(d) for d in args.direction or ()]
    if not aimed and len(directions) > 1:
        raise UsageError(f"a {args.shape} keeps one --direction (its own); several are tried only for cones and lines")
    shape = make_shape(args.shape, args.size, directions[0] if directions and not aimed else 0.0, args.width,
                       args.height)
    tokens = _read_tokens(args.tokens, m.grid) if args.tokens else []
    if tokens:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", AoegridWarning)
            m = BattleMap(m.grid, m.walls, [*m.tokens, *tokens], m.fog, m.info)
        for w in caught:
            print(f"aoegrid: warning: {_one_line(w.message)}", file=err)  # type: ignore[arg-type]
    hit, is_hit = _select(args.hit, "--hit", m)
    avoid, is_avoid = _select(args.avoid, "--avoid", m)
    caster = _caster(args.caster, m)
    rng = _range(args.range, args.level)
    options: dict[str, Any] = {
        "caster": caster, "range": rng, "on": m, "rules": args.rules, "mode": args.mode, "hit": is_hit,
        "avoid": is_avoid, "max_avoid": args.max_avoid, "directions": (directions or None) if aimed else None,
    }
    plans = best_placements(shape, **options, limit=args.limit)
    units = m.grid.units
    where = f"{caster.label} at ({caster.x}, {caster.y})"
    reach = f"range {rng.feet:g} {units}" if rng is not None and rng.feet != float("inf") else "any range"
    lines = [f"{shape.name} {_size_of(shape):g} {units}, {resolve_rules(args.rules).name} {args.mode} from {where}, "
             f"{reach}; hit {', '.join(sorted(hit))}" + (f"; avoid {', '.join(sorted(avoid))}" if avoid else "")]
    for rank, p in enumerate(plans, start=1):
        place = (f"direction {_compass(p.direction)}" if p.direction is not None
                 else f"origin {p.at}, {p.distance:g} {units} from the caster")
        lines.append(f"{rank}. {place}: {len(p.hits)} hits, {len(p.avoided)} avoided")
        if p.hits:
            lines.append(f"   hits: {_creatures(p.hits)}")
        if p.avoided:
            lines.append(f"   avoided: {_creatures(p.avoided)}")
    if not plans:
        lines.append("no acceptable placement: every legal origin is out of range, out of view, or reaches too many "
                     "creatures to avoid")
    if args.output:
        target = _new_file(args.output, args.force)
        scores = placement_scores(shape, **options)
        fig_directions = sorted({parse_direction(d, "--direction") for d in directions}) if aimed and directions else None
        spare = "/".join(sorted(avoid))
        label = f"{'/'.join(sorted(hit))} reached" + (
            f", at most {args.max_avoid} {spare}" if avoid and args.max_avoid else f", no {spare}" if avoid else "")
        artists = plotting.plot_scores(scores, m, best=plans[0] if plans else None, caster=caster,
                                       directions=fig_directions, label=label, scale=scale)
        fig = artists[0].figure
        assert isinstance(fig, Figure)
        plotting.save(fig, target)
        lines.append(f"picture: {target}")
    if args.json:
        inputs = {k: v for k, v in vars(args).items() if k in (
            "map", "shape", "size", "caster", "range", "level", "tokens", "hit", "avoid", "max_avoid", "rules", "mode",
            "direction", "width", "height", "limit")}
        record = {"inputs": inputs, "placements": [_placement_record(k, p) for k, p in enumerate(plans, start=1)]}
        _new_file(args.json, args.force).write_text(json.dumps(record, indent=1) + "\n")
    return "\n".join(lines)


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
    t = sub.add_parser("best", help="the best placements of an area: most creatures to hit, none to avoid")
    t.add_argument("map", help="map file (.dd2vtt, .uvtt, .df2vtt, Foundry .json, text map) or @demo")
    t.add_argument("--shape", required=True, choices=SHAPES)
    t.add_argument("--size", required=True, type=float, help="radius, length or side, in the map's unit")
    t.add_argument("--caster", required=True, help="the caster: a square x,y (a medium creature) or a creature's name")
    t.add_argument("--range", help="how far the origin may be: a distance in the map's unit, or close, medium, long")
    t.add_argument("--level", type=int, default=1, help="caster level for close, medium and long ranges")
    t.add_argument("--tokens", help="CSV of creatures added to the map's own: name,x,y,size,tags (tags separated by ;)")
    t.add_argument("--hit", action="append", required=True, help="tag or name of the creatures to reach (repeat or comma-separate)")
    t.add_argument("--avoid", action="append", help="tag or name of the creatures to spare (repeat or comma-separate)")
    t.add_argument("--max-avoid", type=int, default=0, help="creatures to avoid a placement may still reach (default 0)")
    t.add_argument("--rules", default="starfinder", help=f"one of {', '.join(PRESETS)}")
    t.add_argument("--mode", default="burst", choices=("burst", "emanation", "spread"))
    t.add_argument("--direction", action="append",
                   help="cones and lines: a direction to try (repeat; default every 5 degrees); cubes: their own")
    t.add_argument("--width", type=float, help="line width")
    t.add_argument("--height", type=float, help="cylinder height")
    t.add_argument("--limit", type=int, default=5, help="how many placements to print (default 5)")
    t.add_argument("-o", "--output", help="PNG or SVG score map to write")
    t.add_argument("--json", help="JSON file of the placements to write")
    t.add_argument("--scale", type=float, default=24.0, help="pixels per square")
    t.add_argument("--force", action="store_true", help="overwrite existing output files")
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
        elif args.command == "best":
            resolve_rules(args.rules)
            text = _best_command(args, err)
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
