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

from aoegrid._validate import point
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


#: How :func:`plot_scores` draws what has no score, and the best placement.
_NO_SCORE = "#6f6f6f"
_BEST = "#00a0ff"


def _edges(mask: np.ndarray) -> list[list[tuple[int, int]]]:
    """The unit edges between squares of ``mask`` and squares outside it (or the map's edge)."""
    padded = np.pad(np.asarray(mask, dtype=bool), 1)
    inner = padded[1:-1, 1:-1]
    out: list[list[tuple[int, int]]] = []
    # A square's top edge is on the outline where the square above is out; likewise each side.
    for dy, dx, a, b in ((-1, 0, (0, 0), (1, 0)), (1, 0, (0, 1), (1, 1)), (0, -1, (0, 0), (0, 1)), (0, 1, (1, 0), (1, 1))):
        ys, xs = np.nonzero(inner & ~padded[1 + dy : padded.shape[0] - 1 + dy, 1 + dx : padded.shape[1] - 1 + dx])
        out += [[(x + a[0], y + a[1]), (x + b[0], y + b[1])] for x, y in zip(xs.tolist(), ys.tolist())]
    return out


def _score_norm(values: np.ndarray) -> tuple[Any, list[float] | None]:
    """A colour scale for the finite scores: one colour per whole number when they are few whole numbers."""
    from matplotlib.colors import BoundaryNorm, Normalize

    finite = values[np.isfinite(values)]
    if not finite.size:
        return Normalize(0.0, 1.0), None
    lo, hi = float(finite.min()), float(finite.max())
    if np.all(finite == np.round(finite)) and hi - lo <= 20:
        ticks = [float(v) for v in range(int(lo), int(hi) + 1)]
        return BoundaryNorm([t - 0.5 for t in ticks] + [hi + 0.5], 256), ticks
    return Normalize(lo, hi if hi > lo else lo + 1.0), None


def plot_scores(
    scores: Any,
    bmap: BattleMapCore,
    ax: Axes | None = None,
    *,
    best: Any = None,
    caster: Any = None,
    directions: Sequence[float] | None = None,
    label: str = "score",
    nan_label: str = "not legal or not acceptable",
    cmap: str = "YlOrRd",
    alpha: float = 0.85,
    legend: bool = True,
    colorbar: bool = True,
    scale: float = 24.0,
) -> list[Artist]:
    """A score map: each placement's score as a colour over the map, the best one outlined.

    Parameters
    ----------
    scores : float array
        As :func:`aoegrid.placement_scores` gives them: ``(height + 1,
        width + 1)`` over intersections (drawn as a small square centred on
        each), ``(height, width)`` over square centres (each square filled),
        or one score per direction for cones and lines (drawn as wedges
        around ``caster``). NaN marks an origin not legal, or a placement
        not acceptable; drawn grey.
    bmap : BattleMap
        The map, drawn underneath as :func:`plot_map` draws it.
    ax : Axes, optional
        Drawn on a new Figure (with room for the colour bar) when not given.
    best : Placement, optional
        Outlined: the squares of its ``area``, its origin ``at`` marked, the
        creatures it hits (``hits``, else all it reaches) ringed.
    caster : Token, Space or (x, y), optional
        Marked; needed for scores per direction.
    directions : sequence of float, optional
        The degrees of scores per direction (default: evenly spaced from 0,
        as :data:`aoegrid.tactics.DIRECTIONS`).
    label : str
        What the score is, for the colour bar (``"enemies reached"``).
    nan_label : str
        What NaN means, for the legend (``"unreachable"`` for
        :func:`aoegrid.path_distance`'s distances).
    cmap : str
        A matplotlib colour map. Whole-number scores (up to 21 of them) get
        one colour each.
    alpha : float
        Opacity of the score colours.
    legend, colorbar : bool
        Add a legend of what was drawn, and a colour bar.
    scale : float
        Pixels a square of a new Figure.

    Returns
    -------
    list of Artist
        Everything added, labelled: ``"score"``, ``nan_label``, ``"best
        placement (N squares)"``, ``"best origin"``,
        ``"caster"``, the colour bar's Axes (labelled ``label``), the map's
        layers and tokens.

    Examples
    --------
    >>> import aoegrid as ag
    >>> from aoegrid.plotting import plot_scores
    >>> m = ag.BattleMap(ag.Grid(6, 4), tokens=[ag.Token(1, 1, tags={"orc"}), ag.Token(4, 2, tags={"elf"})])
    >>> wizard = ag.Token(0, 3, tags={"elf"})
    >>> scores = ag.placement_scores(ag.Sphere(5), caster=wizard, on=m, hit="orc", avoid="elf")
    >>> best = ag.best_placements(ag.Sphere(5), caster=wizard, on=m, hit="orc", avoid="elf")[0]
    >>> artists = plot_scores(scores, m, best=best, caster=wizard, label="orcs reached")
    >>> [a.get_label() for a in artists if not a.get_label().startswith(("token", "grid"))]
    ['score', 'not legal or not acceptable', 'best placement (4 squares)', 'best origin', 'caster', 'legend', 'orcs reached']
    """
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.figure import Figure
    from matplotlib.legend import Legend
    from matplotlib.patches import Rectangle, Wedge

    if not isinstance(bmap, BattleMapCore):
        raise InvalidValueError(f"plot_scores draws over an aoegrid.BattleMap, got {bmap!r}")
    try:
        values = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidValueError(f"scores must be an array of numbers (from aoegrid.placement_scores), got {scores!r}") from None
    g = bmap.grid
    space = None if caster is None else _caster_space(caster)
    if values.ndim == 2 and values.shape in ((g.height + 1, g.width + 1), g.shape):
        off = 0.0 if values.shape == (g.height + 1, g.width + 1) else 0.5
        half = 0.3 if off == 0.0 else 0.5  # small squares on intersections, whole squares on centres
        # Small squares are edged so neighbours stay apart; whole squares tile.
        edge = "#000000" if off == 0.0 else "none"
        ys, xs = np.indices(values.shape)
        cx, cy = (xs + off).ravel(), (ys + off).ravel()
        polys = [[(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)]
                 for x, y in zip(cx.tolist(), cy.tolist())]
    elif values.ndim == 1 and values.size:
        if space is None:
            raise InvalidValueError("scores per direction (cones and lines) are drawn around their caster: pass caster=")
        degrees = np.asarray(np.arange(values.size) * (360.0 / values.size) if directions is None else directions,
                             dtype=np.float64)
        if degrees.shape != values.shape:
            raise InvalidValueError(f"{values.size} scores but {degrees.size} directions: give one direction per score")
        order = np.argsort(degrees)
        gaps = np.diff(np.r_[degrees[order], degrees[order][0] + 360.0])
        width = np.empty_like(degrees)
        width[order] = np.minimum(gaps, np.roll(gaps, 1))
        centre = space.center
        radius = max(2.0, min(g.width, g.height) / 4)
        edge = "none"
        polys = [np.asarray(Wedge(centre, radius, d - w / 2, d + w / 2).get_path().vertices).tolist()
                 for d, w in zip(degrees.tolist(), width.tolist())]
    else:
        raise GridMismatchError(
            f"scores of shape {values.shape} fit no lattice of this {g.width} x {g.height} map: "
            f"({g.height + 1}, {g.width + 1}) over intersections, ({g.height}, {g.width}) over square centres, "
            "or one score per direction"
        )
    side = ax is None and (legend or colorbar)
    if ax is None:
        # A figure made here keeps a panel beside the map for the legend and the bar.
        map_w, h = g.width * scale / 100, g.height * scale / 100
        made = Figure(figsize=(map_w + (2.4 if side else 0.0), max(h, 3.0 if side else h)), dpi=100)
        ax = made.add_axes((0, 0, map_w / made.get_figwidth(), 1))
        ax.set_axis_off()
    ax = _axes(ax, g)
    out = plot_map(bmap, ax, tokens=False)
    flat = values.ravel()
    finite = np.isfinite(flat)
    norm, ticks = _score_norm(flat)
    heat = PolyCollection([p for p, ok in zip(polys, finite) if ok], array=flat[finite], cmap=cmap, norm=norm,
                          edgecolors=edge, linewidths=0.3, alpha=alpha, label="score", zorder=3)
    ax.add_collection(heat)
    out.append(heat)
    # What cannot be chosen is dimmed, whole cells, so the legal points stand out.
    dim = polys if values.ndim == 1 else [
        [(x - 0.5, y - 0.5), (x + 0.5, y - 0.5), (x + 0.5, y + 0.5), (x - 0.5, y + 0.5)]
        for x, y in zip(cx.tolist(), cy.tolist())]
    none = PolyCollection([p for p, ok in zip(dim, finite) if not ok], facecolors=_NO_SCORE, edgecolors="none",
                          alpha=0.55, label=nan_label, zorder=2)
    ax.add_collection(none)
    out.append(none)
    if best is not None:
        mask = best.area.mask
        edges = LineCollection(_edges(mask), colors=_BEST, linewidths=2.5, capstyle="round",
                               label=f"best placement ({int(np.count_nonzero(mask))} squares)", zorder=5)
        ax.add_collection(edges)
        out.append(edges)
        out.append(_mark(ax, best.at, "best origin", _BEST))
    if space is not None:
        x0, y0, x1, y1 = space.bounds
        rect = Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, edgecolor="#000000", linewidth=2, linestyle="--",
                         label="caster", zorder=7)
        ax.add_patch(rect)
        out.append(rect)
    if bmap.tokens:
        if best is None:
            affected = []
        elif hasattr(best, "hits"):
            affected = [r.token for r in best.hits]
        else:
            affected = [r.token for r in reached(best.area, list(bmap.tokens))]
        out += plot_tokens(bmap.tokens, g, ax, affected=affected)
    fig = ax.get_figure()
    assert isinstance(fig, Figure)
    right = ax.get_position().x1
    if legend:
        # The colour bar explains the scores' colours; a legend swatch could show only one.
        key = _legend(ax, out, skip=("grid", "map image", "score"))
        assert isinstance(key, Legend)
        if side:
            key.remove()
            pairs = [(h, t.get_text()) for h, t in zip(key.legend_handles, key.get_texts()) if h is not None]
            key = fig.legend([h for h, _ in pairs], [t for _, t in pairs], loc="upper left",
                             bbox_to_anchor=(right + 0.05 / fig.get_figwidth(), 0.98), fontsize=8, frameon=False)
        key.set_label("legend")
        out.append(key)
    if colorbar:
        if side:
            inch = 1 / fig.get_figwidth()
            cax = fig.add_axes((right + 0.3 * inch, 0.05, 0.25 * inch, 0.5 if legend else 0.9))
            bar = fig.colorbar(heat, cax=cax, ticks=ticks)
        else:
            bar = fig.colorbar(heat, ax=ax, ticks=ticks, shrink=0.8)
        bar.set_label(label)
        bar.ax.set_label(label)
        out.append(bar.ax)
    return out


def _caster_space(caster: Any) -> Space:
    """A caster's space: a Token's or Space's own, or the square a point lies in."""
    if isinstance(caster, Space):
        return caster
    space = getattr(caster, "space", None)
    if isinstance(space, Space):
        return space
    x, y = point(caster, "caster")
    return Space(math.floor(x), math.floor(y))


def _mark(ax: Axes, at: Any, label: str, color: str) -> Artist:
    """A point of origin as a cross, or a creature's space (a cone's or line's caster) as a box."""
    from matplotlib.patches import Rectangle

    space = at if isinstance(at, Space) else getattr(at, "space", None)
    if isinstance(space, Space):
        x0, y0, x1, y1 = space.bounds
        rect = Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, edgecolor=color, linewidth=2.5, label=label, zorder=8)
        ax.add_patch(rect)
        return rect
    (mark,) = ax.plot([at[0]], [at[1]], marker="X", markersize=11, color=color, markeredgecolor="white",
                      linestyle="none", label=label, zorder=8)
    return mark


def _legend(ax: Axes, artists: list[Artist], skip: tuple[str, ...] = ("grid", "map image")) -> Artist:
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


