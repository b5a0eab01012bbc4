"""Pictures of areas and maps with matplotlib.

matplotlib is imported here only, and pyplot never: every function draws on
the Axes it is given (or on a new :class:`matplotlib.figure.Figure`) and
returns the artists it added, so users compose them in their own figures.
Coordinates are grid units with y growing down, as on the map.

Examples
--------
>>> import aoegrid as ag
>>> from aoegrid.plotting import plot_area
>>> a = ag.area(ag.Sphere(20), at=(10, 10), on=ag.Grid(20, 20))
>>> artists = plot_area(a)
>>> [x.get_label() for x in artists if x.get_label().startswith("area")]
['area (44 squares)']
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from aoegrid.battlemap import BattleMapCore
from aoegrid.build import build_area
from aoegrid.cover import Cover
from aoegrid.directions import right_normal, unit_vector
from aoegrid.errors import GridMismatchError, InvalidValueError
from aoegrid.grid import Grid
from aoegrid.options import ConeKind
from aoegrid.regions import ConvexPolygon, Region, RoundedRect
from aoegrid.result import AreaCore
from aoegrid.rules import resolve_rules
from aoegrid.shapes import Cone, Cube, Cylinder, Line, Shapable, Sphere
from aoegrid.stencils import _cone_region, _cube_region
from aoegrid.targets import reached
from aoegrid.tokens import Space
from aoegrid.walls import Wall, WallKind

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: Colours of successive areas on one picture.
AREA_COLORS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
#: How each kind of wall is drawn: (colour, line style, width).
WALL_STYLES = {
    "wall": ("#000000", "solid", 2.5),
    "door": ("#8b4513", "solid", 3.5),
    "open door": ("#8b4513", "dotted", 2.0),
    "window": ("#17becf", "solid", 3.0),
    "one-way": ("#7f7f7f", "dashdot", 2.5),
    "sight only": ("#bcbd22", "dashed", 2.0),
}


def _axes(ax: Axes | None, grid: Grid, scale: float = 24.0) -> Axes:
    """The Axes to draw on, set up for a grid: equal aspect, y down."""
    from matplotlib.figure import Figure

    if ax is None:
        dpi = 100.0
        fig = Figure(figsize=(grid.width * scale / dpi, grid.height * scale / dpi), dpi=dpi)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_axis_off()
    ax.set_xlim(0, grid.width)
    ax.set_ylim(grid.height, 0)
    ax.set_aspect("equal")
    return ax


def _squares(squares: Iterable[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    return [[(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)] for x, y in squares]


def plot_grid(grid: Grid, ax: Axes | None = None, *, color: str = "#bbbbbb") -> list[Artist]:
    """Grid lines, one square apart."""
    from matplotlib.collections import LineCollection

    ax = _axes(ax, grid)
    lines = [[(x, 0), (x, grid.height)] for x in range(grid.width + 1)]
    lines += [[(0, y), (grid.width, y)] for y in range(grid.height + 1)]
    coll = LineCollection(lines, colors=color, linewidths=0.5, label="grid", zorder=1)
    ax.add_collection(coll)
    return [coll]


def _wall_style(w: Wall) -> str:
    if w.kind is WallKind.DOOR:
        return "open door" if w.open else "door"
    if w.kind is WallKind.WINDOW:
        return "window"
    if w.one_way is not None:
        return "one-way"
    if not w.blocks_effect and w.blocks_sight:
        return "sight only"
    return "wall"


def plot_walls(bmap: BattleMapCore, ax: Axes | None = None) -> list[Artist]:
    """The map's walls: doors, open doors, windows and one-way walls each distinct."""
    from matplotlib.collections import LineCollection

    ax = _axes(ax, bmap.grid)
    groups: dict[str, list[list[tuple[float, float]]]] = {}
    for w in bmap.walls:
        groups.setdefault(_wall_style(w), []).append([w.start, w.end])
    for poly in bmap.fog:
        ring = list(poly.exterior.coords)
        groups.setdefault("sight only", []).extend([a, b] for a, b in itertools.pairwise(ring))
    out: list[Artist] = []
    for kind, segs in groups.items():
        color, style, width = WALL_STYLES[kind]
        coll = LineCollection(segs, colors=color, linestyles=style, linewidths=width, label=kind, zorder=5)
        ax.add_collection(coll)
        out.append(coll)
    return out


def plot_tokens(
    tokens: Sequence[Any], grid: Grid, ax: Axes | None = None, *, affected: Iterable[Any] = ()
) -> list[Artist]:
    """Tokens as discs sized to their space; affected ones ringed in red."""
    from matplotlib.patches import Circle

    ax = _axes(ax, grid)
    hit = {t.label for t in affected}
    out: list[Artist] = []
    for t in tokens:
        w, h = t.footprint
        cx, cy = t.space.center
        is_hit = t.label in hit
        disc = Circle((cx, cy), 0.4 * min(w, h), facecolor="#f5deb3", edgecolor="#d62728" if is_hit else "#333333",
                      linewidth=2.5 if is_hit else 1.0, zorder=6, label=f"token {t.label}{' (affected)' if is_hit else ''}")
        ax.add_patch(disc)
        out.append(disc)
        if t.name:
            out.append(ax.text(cx, cy, t.name[:3], ha="center", va="center", fontsize=7, zorder=7))
    return out


def plot_image(bmap: BattleMapCore, ax: Axes | None = None) -> list[Artist]:
    """The map's own image underneath, when its file had one."""
    ax = _axes(ax, bmap.grid)
    info = getattr(bmap, "info", None)
    if info is None or not hasattr(info, "image"):
        return []
    got = info.image()
    if got is None:
        return []
    data = got[0] if isinstance(got, tuple) else got
    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(data)).convert("RGBA"))
    g = bmap.grid
    img = ax.imshow(pixels, extent=(0, g.width, g.height, 0), zorder=0, interpolation="bilinear", label="map image")
    ax.set_xlim(0, g.width)
    ax.set_ylim(g.height, 0)
    return [img]


def plot_map(bmap: BattleMapCore, ax: Axes | None = None, *, image: bool = True, grid: bool = True,
             tokens: bool = True) -> list[Artist]:
    """The map: its image (when it has one), grid lines, walls and tokens."""
    if not isinstance(bmap, BattleMapCore):
        raise InvalidValueError(f"plot_map draws an aoegrid.BattleMap, got {bmap!r}")
    ax = _axes(ax, bmap.grid)
    out: list[Artist] = []
    if image:
        out += plot_image(bmap, ax)
    if grid:
        out += plot_grid(bmap.grid, ax)
    out += plot_walls(bmap, ax)
    if tokens and bmap.tokens:
        out += plot_tokens(bmap.tokens, bmap.grid, ax)
    return out


def outline(a: AreaCore, samples: int = 96) -> np.ndarray | None:
    """The exact shape of an area's effect as a polygon ((n, 2) vertices), or None."""
    made, shape, rules = a.recipe, a.shape, a.rules
    if made is None or shape is None or rules is None or isinstance(shape, Shapable):
        return None
    o = made.origin
    sq = a.grid.square
    region: Region
    if isinstance(shape, (Sphere, Cylinder)):
        region = RoundedRect(o.x0, o.y0, o.x1, o.y1, shape.radius / sq)
    elif isinstance(shape, Cone):
        kind = ConeKind(shape.kind) if shape.kind is not None else rules.cone
        region = _cone_region(kind, (o.x0, o.y0), unit_vector(float(shape.direction)), float(shape.direction), shape.length / sq)
    elif isinstance(shape, Cube):
        region = _cube_region(shape, (o.x0, o.y0), unit_vector(float(shape.direction)), sq)
    else:
        assert isinstance(shape, Line)
        d = unit_vector(float(shape.direction))
        n = right_normal(d)
        width = (rules.line_width if shape.width is None else shape.width) / sq
        h, length = width / 2, shape.length / sq
        ox, oy = o.x0, o.y0
        region = ConvexPolygon(((ox - h * n[0], oy - h * n[1]), (ox + h * n[0], oy + h * n[1]),
                                (ox + h * n[0] + length * d[0], oy + h * n[1] + length * d[1]),
                                (ox - h * n[0] + length * d[0], oy - h * n[1] + length * d[1])))
    segs, arcs = region.boundary()
    pts: list[tuple[float, float]] = []
    # Zero-length sides (a disk is a rounded rectangle of no size) would
    # otherwise be chained out of order and drawn as stray lines.
    pieces = [("seg", s) for s in segs if s[0] != s[2] or s[1] != s[3]] + [("arc", c) for c in arcs]
    # Walk the outline: segments and arcs chain end to start.
    for piece, p in _chain(pieces):
        if piece == "seg":
            pts.append((p[0], p[1]))
        else:
            cx, cy, r, t0, t1 = p
            for t in np.linspace(t0, t1, max(4, int(samples * (t1 - t0) / (2 * math.pi)))):
                pts.append((cx + r * math.cos(t), cy + r * math.sin(t)))
    return np.asarray(pts)


def _start(kind: str, p: np.ndarray) -> tuple[float, float]:
    if kind == "seg":
        return (p[0], p[1])
    return (p[0] + p[2] * math.cos(p[3]), p[1] + p[2] * math.sin(p[3]))


def _end(kind: str, p: np.ndarray) -> tuple[float, float]:
    if kind == "seg":
        return (p[2], p[3])
    return (p[0] + p[2] * math.cos(p[4]), p[1] + p[2] * math.sin(p[4]))


def _chain(pieces: list[tuple[str, np.ndarray]]) -> list[tuple[str, np.ndarray]]:
    """Order outline pieces so each starts where the last ended."""
    if not pieces:
        return []
    out = [pieces.pop(0)]
    while pieces:
        ex, ey = _end(*out[-1])
        i = min(range(len(pieces)), key=lambda k: math.dist(_start(*pieces[k]), (ex, ey)))
        out.append(pieces.pop(i))
    return out


def plot_area(
    a: AreaCore,
    ax: Axes | None = None,
    *,
    color: str | None = None,
    alpha: float = 0.45,
    label: str | None = None,
    on: BattleMapCore | None = None,
    map_layers: bool = True,
    legend: bool = False,
) -> list[Artist]:
    """An area: its squares filled, cover hatched, blocked squares shown, outline and origin.

    Parameters
    ----------
    a : Area
    ax : Axes, optional
        Drawn on a new Figure when not given.
    color : str, optional
        Fill colour of the covered squares (default red).
    on : BattleMap, optional
        The map to draw underneath; by default the area's own map. Must be on
        the area's grid.
    map_layers : bool
        Draw the map (image, grid, walls, tokens) underneath.
    legend : bool
        Add a legend of what was drawn.

    Returns
    -------
    list of Artist
        Everything added, labelled: ``"area (N squares)"``, ``"partial cover"``,
        ``"three-quarters cover"``, ``"blocked (total cover)"``, ``"shape"``,
        ``"origin"``, walls by kind, tokens.
    """
    from matplotlib.collections import PolyCollection
    from matplotlib.patches import Polygon, Rectangle

    if not isinstance(a, AreaCore):
        raise InvalidValueError(f"plot_area draws an aoegrid.Area, got {a!r}")
    bmap = on if on is not None else a.battlemap
    if bmap is not None and bmap.grid != a.grid:
        raise GridMismatchError(
            f"the area is on a {a.grid.width}x{a.grid.height} grid, the map on a "
            f"{bmap.grid.width}x{bmap.grid.height} one: compute the area on this map"
        )
    ax = _axes(ax, a.grid)
    color = color or AREA_COLORS[0]
    out: list[Artist] = []
    if map_layers:
        out += plot_map(bmap, ax, tokens=False) if bmap is not None else plot_grid(a.grid, ax)
    squares = a.squares
    fill = PolyCollection(_squares(squares), facecolors=color, edgecolors="none", alpha=alpha,
                          label=label or f"area ({len(squares)} squares)", zorder=2)
    ax.add_collection(fill)
    out.append(fill)
    if a.battlemap is not None:
        cover = a.cover
        shape_mask = a.shape_mask
        for grade, hatch, name in ((Cover.PARTIAL, "//", "partial cover"), (Cover.THREE_QUARTERS, "xx", "three-quarters cover")):
            ys, xs = np.nonzero((cover == grade) & a.mask)
            if xs.size:
                coll = PolyCollection(_squares(zip(xs.tolist(), ys.tolist())), facecolors="none", edgecolors="#333333",
                                      hatch=hatch, linewidths=0, label=name, zorder=3)
                ax.add_collection(coll)
                out.append(coll)
        ys, xs = np.nonzero(shape_mask & ~a.mask)
        if xs.size:
            coll = PolyCollection(_squares(zip(xs.tolist(), ys.tolist())), facecolors="#7f7f7f", edgecolors="none",
                                  alpha=0.25, hatch="..", label="blocked (total cover)", zorder=2)
            ax.add_collection(coll)
            out.append(coll)
    shape = outline(a)
    if shape is not None and len(shape) >= 3:
        patch = Polygon(shape, closed=True, fill=False, edgecolor=color, linewidth=1.5, label="shape", zorder=4)
        ax.add_patch(patch)
        out.append(patch)
    if isinstance(a.origin, Space):
        x0, y0, x1, y1 = a.origin.bounds
        rect = Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, edgecolor=color, linewidth=2, linestyle="--",
                         label="origin", zorder=6)
        ax.add_patch(rect)
        out.append(rect)
    elif a.origin is not None:
        (mark,) = ax.plot([a.origin[0]], [a.origin[1]], marker="X", markersize=9, color=color,
                          markeredgecolor="white", linestyle="none", label="origin", zorder=8)
        out.append(mark)
    if map_layers and bmap is not None and bmap.tokens:
        affected = [r.token for r in reached(a, list(bmap.tokens))] if a.recipe is not None else []
        out += plot_tokens(bmap.tokens, a.grid, ax, affected=affected)
    if legend:
        out.append(_legend(ax, out))
    return out


def _legend(ax: Axes, artists: list[Artist]) -> Artist:
    skip = ("grid", "map image")
    seen: dict[str, Artist] = {}
    for x in artists:
        label = str(x.get_label())
        if label and not label.startswith(("_", "token ")) and label not in skip:
            seen.setdefault(label, x)
    return ax.legend(list(seen.values()), list(seen), loc="upper right", fontsize=7, framealpha=0.8)


def plot_areas(areas: Sequence[AreaCore], ax: Axes | None = None, *, colors: Sequence[str] = AREA_COLORS,
               legend: bool = True) -> list[Artist]:
    """Several areas on one picture, each in its own colour, the map drawn once."""
    if not areas:
        raise InvalidValueError("plot_areas needs at least one area")
    grid = areas[0].grid
    for other in areas[1:]:
        if other.grid != grid:
            raise GridMismatchError(f"cannot draw areas from different grids together: {grid} and {other.grid}")
    ax = _axes(ax, grid)
    out: list[Artist] = []
    for i, a in enumerate(areas):
        name = f"{a.rules.name if a.rules else 'area'} {type(a.shape).__name__.lower() if a.shape else ''}".strip()
        out += plot_area(a, ax, color=colors[i % len(colors)], map_layers=(i == 0),
                         label=f"{name} ({len(a)} squares)")
    if legend:
        out.append(_legend(ax, out))
    return out


def compare_presets(shape: Any, at: Any, on: Grid | BattleMapCore, presets: Sequence[str] = ("starfinder", "pf2e", "sw5e"),
                    **options: Any) -> Figure:
    """The same effect under several rule presets, side by side, with square counts.

    The picture behind "why is a 20-ft burst 44 squares in one system and 52
    in another".
    """
    from matplotlib.figure import Figure

    grid = on.grid if isinstance(on, BattleMapCore) else on
    fig = Figure(figsize=(3.2 * len(presets), 3.6), dpi=100, layout="constrained")
    axes = fig.subplots(1, len(presets), squeeze=False)[0]
    for ax, name in zip(axes, presets):
        rules = resolve_rules(name)
        a = build_area(AreaCore, shape, at, on, rules, **options)
        plot_area(a, ax)
        ax.set_title(f"{rules.name}: {len(a)} squares\n{rules.inclusion.value}, {rules.diagonals.value}", fontsize=9)
        ax.set_xticks([])
        ax.set_yticks([])
        _axes(ax, grid)
    return fig


def figure_of(obj: AreaCore | BattleMapCore, scale: float = 24.0) -> Figure:
    """A new Figure showing an area (with its map) or a map, ``scale`` pixels a square."""
    from matplotlib.figure import Figure

    ax = _axes(None, obj.grid, scale)
    if isinstance(obj, AreaCore):
        plot_area(obj, ax)
    else:
        plot_map(obj, ax)
    fig = ax.get_figure()
    assert isinstance(fig, Figure)
    return fig


def save(obj: AreaCore | BattleMapCore | Figure, path: Any, *, scale: float = 24.0) -> None:
    """Write a picture to PNG or SVG (by the path's suffix), ``scale`` pixels a square."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = obj if isinstance(obj, Figure) else figure_of(obj, scale)
    suffix = str(path).rsplit(".", 1)[-1].lower()
    if suffix not in ("png", "svg"):
        raise InvalidValueError(f"pictures are written as .png or .svg, got {str(path)!r}")
    FigureCanvasAgg(fig)
    fig.savefig(path, format=suffix)


def png_bytes(obj: AreaCore | BattleMapCore, *, scale: float = 24.0) -> bytes:
    """PNG bytes of a picture, for notebooks (no pyplot state is touched)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = figure_of(obj, scale)
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


