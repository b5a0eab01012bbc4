"""Pictures of areas and maps with matplotlib.

matplotlib is imported here only, and pyplot never: every function draws on
the Axes it is given (or on a new :class:`matplotlib.figure.Figure`) and
returns a :class:`Drawing`: the list of artists it added, each labelled, with
the Axes (``.ax``) and Figure (``.figure``) they are on, so users compose
pictures in their own figures and :func:`save` writes any of them.
Coordinates are grid units with y growing down, as on the map. Marker, text
and line sizes follow the picture's pixels a square (``scale``).

Examples
--------
>>> import aoegrid as ag
>>> from aoegrid.show.plotting import plot_area
>>> a = ag.area(ag.Sphere(20), at=(10, 10), on=ag.Grid(20, 20))
>>> drawn = plot_area(a)
>>> [x.get_label() for x in drawn if x.get_label().startswith("area")], drawn.figure is drawn.ax.figure
(['area (44 squares)'], True)
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import itertools
import math
import threading
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from aoegrid.board.battlemap import BattleMapCore
from aoegrid.board.walls import Wall, WallKind
from aoegrid.effects.build import build_area
from aoegrid.effects.result import AreaCore
from aoegrid.effects.targets import reached
from aoegrid.errors import GridMismatchError, InvalidValueError
from aoegrid.geometry._validate import point
from aoegrid.geometry.cover import GRADES, Cover
from aoegrid.geometry.directions import right_normal, unit_vector
from aoegrid.geometry.distance import measure
from aoegrid.geometry.grid import Grid, memory_budget
from aoegrid.geometry.options import ConeKind, Inclusion, Terrain
from aoegrid.geometry.raster import center_offsets, far_offsets
from aoegrid.geometry.regions import ConvexPolygon, Region, RoundedRect
from aoegrid.geometry.rules import resolve_rules
from aoegrid.geometry.shapes import Cone, Cube, Cylinder, Line, Shapable, Sphere
from aoegrid.geometry.stencils import _cone_region, _cube_region, pitched_mesh
from aoegrid.geometry.tokens import Space

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: Colours of successive areas on one picture.
AREA_COLORS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
#: How each kind of wall is drawn: (colour, line style, width in points at 24 pixels a square).
WALL_STYLES = {
    "wall": ("#000000", "solid", 2.5),
    "door": ("#8b4513", "solid", 3.5),
    "open door": ("#8b4513", "dotted", 2.0),
    "window": ("#17becf", "solid", 3.0),
    "one-way": ("#7f7f7f", "dashdot", 2.5),
    "sight only": ("#bcbd22", "dashed", 2.0),
}
#: How cover is marked on a square: (label, badge size as a fraction of the square, fill, edge).
COVER_BADGES = {
    Cover.PARTIAL: ("partial cover", 0.32, "#ffffff", "#000000"),
    Cover.THREE_QUARTERS: ("three-quarters cover", 0.55, "#000000", "#ffffff"),
}
#: Squares of the shape a range clips away (``clip_to_range``): grey, dashed.
OUT_OF_RANGE = "#7f7f7f"
#: How terrain is drawn, by kind: (label, fill, its opacity, hatching, the hatching's colour).
TERRAIN_STYLES = {
    Terrain.DIFFICULT: ("difficult terrain", "#c8a165", 0.35, "//", "#7a5a2a"),
    Terrain.GREATER_DIFFICULT: ("greater difficult terrain", "#a0522d", 0.45, "xx", "#4a2408"),
    Terrain.IMPASSABLE: ("impassable", "#2f2f2f", 0.65, None, "#2f2f2f"),
}
#: The path a creature walks (:func:`plot_path`) and the square it ends on, outlined this far (in squares) inside.
PATH_COLOR = "#7b2fbe"
_STAND_INSET = 0.12
#: Grid lines; squares of the shape the walls block (colour, opacity; dotted too); token discs (fill, edge).
_GRID_COLOR = "#bbbbbb"
_BLOCKED = ("#7f7f7f", 0.25)
_TOKEN_COLORS = ("#f5deb3", "#333333")
#: Labels of artists no legend lists: each token's own (its disc, name and badges), titles, hidden ones.
_UNLISTED = ("_", "token ", "name ", "cover badge ", "elevation ", "title")
#: Above this many covered squares ``_repr_html_`` shows the plain PNG, without per-square tooltips.
MAX_TOOLTIPS = 20_000
#: Points a square at the reference scale, 24 pixels a square at 100 dpi; sizes are given at it.
_REF = 24 * 72 / 100
_DPI = 100.0


class Drawing(list):  # type: ignore[type-arg]
    """What a plotting function drew: the list of its artists, with their Axes and Figure.

    A plain list of :class:`matplotlib.artist.Artist` (each labelled), so
    ``[a.get_label() for a in drawing]`` works; ``ax`` and ``figure`` are
    where it was drawn; :func:`save` writes it, and Jupyter shows it.
    """

    def __init__(self, artists: Iterable[Artist], ax: Axes) -> None:
        super().__init__(artists)
        self.ax = ax

    @property
    def figure(self) -> Figure:
        """The Figure drawn on."""
        fig = self.ax.get_figure(root=True)
        assert fig is not None
        return fig  # type: ignore[return-value]

    def _repr_png_(self) -> bytes:
        return _png(self.figure)


def default_scale(grid: Grid) -> float:
    """Pixels a square of a new picture: 24, more for small maps so they are at least 800 pixels across.

    Tall maps are held to about 1,200 pixels high.

    Examples
    --------
    >>> import aoegrid as ag
    >>> default_scale(ag.Grid(10, 12)), default_scale(ag.Grid(40, 30))
    (80.0, 24.0)
    """
    return max(24.0, min(800.0 / grid.width, 1200.0 / grid.height))


#: Figures made here, with the size of their map in inches, so a legend or title can widen them.
_OWN: weakref.WeakKeyDictionary[Any, tuple[float, float]] = weakref.WeakKeyDictionary()


def _axes(ax: Axes | None, grid: Grid, scale: float | None = None) -> Axes:
    """The Axes to draw on, set up for a grid: equal aspect, y down, ticks on whole squares."""
    from matplotlib.ticker import MaxNLocator

    size = (grid.width, grid.height)
    ax = _map_axes(ax, size, size, default_scale(grid) if scale is None else scale)
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(MaxNLocator(integer=True))
    return ax


def _map_axes(ax: Axes | None, extent: tuple[float, float], across: tuple[float, float], scale: float) -> Axes:
    """The Axes to draw a map on (squares, hexes, the open table): equal aspect, y down, limits ``extent``.

    Without ``ax``, a new Figure ``scale`` pixels a unit of ``across`` (the
    map's width and height in what the picture's scale counts: squares,
    hex widths), registered in :data:`_OWN` so a legend or title widens it.
    """
    from matplotlib.figure import Figure

    if ax is None:
        size = (across[0] * scale / _DPI, across[1] * scale / _DPI)
        fig = Figure(figsize=size, dpi=_DPI)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_axis_off()
        _OWN[fig] = size
    ax.set_xlim(0, extent[0])
    ax.set_ylim(extent[1], 0)
    ax.set_aspect("equal")
    return ax


def _unit(ax: Axes, grid: Grid) -> float:
    """Points a square on this Axes: every marker, text and line is sized from it."""
    return _points(ax, (grid.width, grid.height))


def _points(ax: Axes, extent: tuple[float, float]) -> float:
    """Points a unit of map coordinates on this Axes, whose limits are the map's ``extent``."""
    fig = ax.get_figure(root=True)
    assert fig is not None
    box = ax.get_position()
    fw, fh = fig.get_size_inches()
    return float(min(box.width * fw / extent[0], box.height * fh / extent[1]) * 72)


def _lw(u: float, width: float) -> float:
    """A line ``width`` points wide at the reference scale, at this one (never thinner than a hairline)."""
    return max(0.3, width * u / _REF)


def _font(u: float) -> float:
    """Text size for labels on the map: a third of a square, readable at any scale."""
    return float(np.clip(u * 0.34, 6.0, 16.0))


def _squares(squares: Iterable[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    return [[(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)] for x, y in squares]


def _cells(mask: np.ndarray) -> list[list[tuple[int, int]]]:
    ys, xs = np.nonzero(mask)
    return _squares(zip(xs.tolist(), ys.tolist()))


def plot_grid(grid: Grid, ax: Axes | None = None, *, color: str = _GRID_COLOR) -> Drawing:
    """Grid lines, one square apart."""
    from matplotlib.collections import LineCollection

    ax = _axes(ax, grid)
    lines = [[(x, 0), (x, grid.height)] for x in range(grid.width + 1)]
    lines += [[(0, y), (grid.width, y)] for y in range(grid.height + 1)]
    coll = LineCollection(lines, colors=color, linewidths=_lw(_unit(ax, grid), 0.5), label="grid", zorder=1)
    ax.add_collection(coll)
    return Drawing([coll], ax)


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


def _wall_segments(bmap: BattleMapCore) -> dict[str, list[list[tuple[float, float]]]]:
    """The map's walls and fog outlines as segments, grouped by how they are drawn (keys of :data:`WALL_STYLES`)."""
    groups: dict[str, list[list[tuple[float, float]]]] = {}
    for w in bmap.walls:
        groups.setdefault(_wall_style(w), []).append([w.start, w.end])
    for poly in bmap.fog:
        ring = list(poly.exterior.coords)
        groups.setdefault("sight only", []).extend([a, b] for a, b in itertools.pairwise(ring))
    return groups


def plot_walls(bmap: BattleMapCore, ax: Axes | None = None) -> Drawing:
    """The map's walls: doors, open doors, windows and one-way walls each distinct."""
    ax = _axes(ax, bmap.grid)
    return Drawing(_draw_walls(ax, bmap, _unit(ax, bmap.grid)), ax)


def _draw_walls(ax: Axes, bmap: BattleMapCore, u: float) -> list[Artist]:
    """The map's walls on ``ax`` (``u`` points a square), one collection a kind of :data:`WALL_STYLES`."""
    from matplotlib.collections import LineCollection

    out: list[Artist] = []
    for kind, segs in _wall_segments(bmap).items():
        color, style, width = WALL_STYLES[kind]
        coll = LineCollection(segs, colors=color, linestyles=style, linewidths=_lw(u, width), label=kind, zorder=5)
        ax.add_collection(coll)
        out.append(coll)
    return out


def _fit_name(name: str, room: float, size: float) -> tuple[str, float]:
    """A name and font size so the name fits ``room`` points: smaller type first, then shortened.

    Shortening keeps at least six characters (with an ellipsis), so similar
    names ("goblin 1", "goblin 2") stay apart as far as they can.
    """
    glyph = 0.6  # average glyph width of the sans-serif face, in ems
    smallest = max(6.0, size * 0.7)
    size = min(size, room / (glyph * max(len(name), 1)))
    if size >= smallest:
        return name, size
    keep = max(6, int(room / (glyph * smallest)))
    return (name if len(name) <= keep else name[: keep - 1] + "\u2026"), smallest


def plot_tokens(
    tokens: Sequence[Any], grid: Grid, ax: Axes | None = None, *, affected: Iterable[Any] = ()
) -> Drawing:
    """Tokens as discs sized to their space, named in full; affected ones ringed, cover shown by a badge.

    ``affected`` holds tokens or :class:`~aoegrid.effects.targets.Reached` records;
    a reached creature with cover gets a badge (``"½"``, ``"¾"``) on its
    disc, labelled ``"cover badge NAME"``. A creature off the ground (a
    flyer, or one below it) is badged with its elevation (``"+10 ft"``) at
    the foot of its disc, labelled ``"elevation NAME"``.
    """
    from matplotlib.patches import Circle

    ax = _axes(ax, grid)
    u = _unit(ax, grid)
    hit = _affected(affected)
    out: list[Artist] = []
    for t in tokens:
        w, h = t.footprint
        cx, cy = t.space.center
        r = 0.4 * min(w, h)
        disc = Circle((cx, cy), r, **_token_style(t, hit, u))
        # A name may run past its disc (to 2.2 squares).
        out += _draw_token(ax, t, disc, (cx, cy), hit, u, grid, room=2.2 * w * u, across=w, badge=(cx + r * 0.75, cy - r * 0.75),
                           foot=cy + r * 0.8)
    return Drawing(out, ax)


def _token_style(token: Any, hit: dict[str, Cover], u: float, face: Any = _TOKEN_COLORS[0]) -> dict[str, Any]:
    """How a token's disc (or footprint) is drawn: ringed red, and labelled so, when ``hit`` holds it."""
    is_hit = token.label in hit
    return {"facecolor": face, "edgecolor": "#d62728" if is_hit else _TOKEN_COLORS[1],
            "linewidth": _lw(u, 3.0 if is_hit else 1.0), "zorder": 6,
            "label": f"token {token.label}{' (affected)' if is_hit else ''}"}


def _draw_token(ax: Axes, token: Any, shape: Any, center: tuple[float, float], hit: dict[str, Cover], u: float,
                board: Any, *, room: float, across: float, badge: tuple[float, float], foot: float) -> list[Artist]:
    """A token's ``shape`` (a patch) added to ``ax``, with its name, cover badge and elevation badge.

    The name is centred on ``center``, fitted to ``room`` points and smaller
    for creatures under ``across`` = 1 square wide, haloed so it reads over
    anything; the cover badge (when ``hit`` gives cover) is centred at
    ``badge``, the elevation badge (in ``board``'s units) at height ``foot``.
    """
    from matplotlib import patheffects

    cx, cy = center
    ax.add_patch(shape)
    out: list[Artist] = [shape]
    if token.name:
        halo = [patheffects.withStroke(linewidth=_lw(u, 2.0), foreground="white")]
        name, size = _fit_name(token.name, room, _font(u) * min(1.0, max(across, 1) ** 0.5))
        out.append(ax.text(cx, cy, name, ha="center", va="center", fontsize=size, zorder=7,
                           path_effects=halo, label=f"name {token.label}"))
    grade = hit.get(token.label, Cover.NONE)
    if grade in COVER_BADGES:
        out.append(ax.text(*badge, "\u00bd" if grade is Cover.PARTIAL else "\u00be", ha="center", va="center",
                           fontsize=max(5.0, _font(u) * 0.9), color="white", fontweight="bold", zorder=8,
                           bbox={"boxstyle": "circle,pad=0.15", "facecolor": "#000000", "edgecolor": "white",
                                 "linewidth": _lw(u, 1.0)},
                           label=f"cover badge {token.label}"))
    if token.elevation:
        out.append(ax.text(cx, foot, _elevation_badge(token, board), ha="center", va="center",
                           fontsize=max(5.0, _font(u) * 0.7), zorder=8,
                           bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": _TOKEN_COLORS[1],
                                 "linewidth": _lw(u, 1.0)},
                           label=f"elevation {token.label}"))
    return out


def _elevation_badge(token: Any, grid: Grid) -> str:
    """What a creature's elevation badge says: ``"+10 ft"``, ``"-5 ft"`` (the grid's unit).

    Examples
    --------
    >>> import aoegrid as ag
    >>> _elevation_badge(ag.Token(0, 0, elevation=10), ag.Grid(4, 4))
    '+10 ft'
    >>> _elevation_badge(ag.Token(0, 0, elevation=-1.5), ag.Grid(4, 4, units="m"))
    '-1.5 m'
    """
    return f"{token.elevation:+g} {grid.units}"


def _affected(affected: Iterable[Any]) -> dict[str, Cover]:
    """The cover of each affected token, by label, from tokens (no cover) or :class:`~aoegrid.effects.targets.Reached` records."""
    hit: dict[str, Cover] = {}
    for r in affected:
        token = getattr(r, "token", r)
        hit[token.label] = Cover(getattr(r, "cover", Cover.NONE))
    return hit


#: Pillow's decompression-bomb limit is a global; it is lifted only while aoegrid opens a map's image.
_PIL_LOCK = threading.Lock()


#: Map images decoded (read-only), by a digest of their bytes and the size asked, the last few:
#: the panels of one picture show one map, and decoding is most of what drawing a map costs.
_DECODED: dict[tuple[bytes, int, int], np.ndarray] = {}


def _image_pixels(data: bytes, width_px: int, height_px: int) -> np.ndarray:
    """A map image decoded and shrunk at once to about ``width_px`` x ``height_px`` (read-only, kept in :data:`_DECODED`).

    Pillow's own decompression-bomb limit is replaced by aoegrid's memory
    budget: an image whose decoded pixels fit in :func:`aoegrid.geometry.grid.memory_budget`
    is drawn whatever its size; a larger one is refused before it is decoded.
    """
    key = (hashlib.blake2b(data, digest_size=16).digest(), width_px, height_px)
    pixels = _DECODED.get(key)
    if pixels is None:
        pixels = _decoded(data, width_px, height_px)
        pixels.flags.writeable = False
        if len(_DECODED) >= 8:
            del _DECODED[next(iter(_DECODED))]
        _DECODED[key] = pixels
    return pixels


def _decoded(data: bytes, width_px: int, height_px: int) -> np.ndarray:
    """:func:`_image_pixels`, decoded now."""
    from PIL import Image, UnidentifiedImageError

    with _PIL_LOCK:
        limit, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None
        try:
            img = Image.open(io.BytesIO(data))
        except (UnidentifiedImageError, OSError) as e:
            raise InvalidValueError(f"the map's image cannot be read: {e}") from None
        finally:
            Image.MAX_IMAGE_PIXELS = limit
    w, h = img.size
    need = w * h * 4
    if need > memory_budget():
        raise InvalidValueError(
            f"the map's image is {w:,} x {h:,} pixels ({need / 2**30:.1f} GiB decoded), more than the "
            f"{memory_budget() / 2**30:.1f} GiB a query may take on this machine: draw the map without it (image=False)"
        )
    mode = "RGBA" if img.mode in ("RGBA", "LA", "PA", "P") or "transparency" in img.info else "RGB"
    # JPEG decodes at a fraction of its size directly; other formats decode whole, then shrink at once.
    img.draft(mode, (width_px, height_px))
    try:
        factor = max(1, min(img.size[0] // max(width_px, 1), img.size[1] // max(height_px, 1)))
        if factor > 1:
            img = img.reduce(factor)
        if img.size[0] > 1.5 * width_px:
            img = img.resize((width_px, height_px), Image.Resampling.LANCZOS)
        return np.asarray(img.convert(mode))
    except (OSError, ValueError) as e:
        raise InvalidValueError(f"the map's image cannot be decoded: {e}") from None


def _map_pixels(bmap: BattleMapCore, width_px: int, height_px: int) -> np.ndarray | None:
    """The map's own image, when its file had one, decoded and shrunk to about ``width_px`` x ``height_px``."""
    info = getattr(bmap, "info", None)
    if info is None or not hasattr(info, "image"):
        return None
    got = info.image()
    if got is None:
        return None
    return _image_pixels(got[0] if isinstance(got, tuple) else got, width_px, height_px)


def plot_image(bmap: BattleMapCore, ax: Axes | None = None) -> Drawing:
    """The map's own image underneath, when its file had one, at the resolution the picture needs."""
    ax = _axes(ax, bmap.grid)
    g = bmap.grid
    fig = ax.get_figure(root=True)
    assert fig is not None
    box = ax.get_position()
    fw, fh = fig.get_size_inches()
    # Twice the Axes' pixels keeps the image sharp once resampled; never more than that is decoded into matplotlib.
    pixels = _map_pixels(bmap, max(1, math.ceil(2 * box.width * fw * fig.dpi)),
                         max(1, math.ceil(2 * box.height * fh * fig.dpi)))
    if pixels is None:
        return Drawing([], ax)
    img = ax.imshow(pixels, extent=(0, g.width, g.height, 0), zorder=0, interpolation="antialiased", label="map image")
    ax.set_xlim(0, g.width)
    ax.set_ylim(g.height, 0)
    return Drawing([img], ax)


def plot_terrain(bmap: BattleMapCore, ax: Axes | None = None) -> Drawing:
    """The map's terrain (:attr:`BattleMap.terrain`): each kind's squares tinted, and hatched but impassable ones.

    Returns
    -------
    Drawing
        One collection a kind the map has, labelled ``"difficult
        terrain"`` (light, ``//``), ``"greater difficult terrain"`` (darker,
        ``xx``), ``"impassable"`` (dark grey); empty on a map without terrain.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.read_text_map("#####\\n#~~%#\\n#^..#\\n#####")
    >>> [(c.get_label(), len(c.get_paths())) for c in plot_terrain(m)]
    [('difficult terrain', 2), ('greater difficult terrain', 1), ('impassable', 1)]
    """
    from matplotlib.collections import PolyCollection
    from matplotlib.colors import to_rgba

    ax = _axes(ax, bmap.grid)
    out: list[Artist] = []
    if not bmap.has_terrain:
        return Drawing(out, ax)
    kinds = bmap.terrain
    for kind, (label, face, alpha, hatch, edge) in TERRAIN_STYLES.items():
        cells = _cells(kinds == kind.code)
        if cells:
            # The edge colour is the hatching's; the edges themselves are not drawn (the grid lines are).
            coll = PolyCollection(cells, facecolors=to_rgba(face, alpha), edgecolors=edge, linewidths=0.0, hatch=hatch,
                                  label=label, zorder=1)
            ax.add_collection(coll)
            out.append(coll)
    return Drawing(out, ax)


def plot_map(bmap: BattleMapCore, ax: Axes | None = None, *, image: bool = True, grid: bool = True,
             tokens: bool = True, legend: bool = False, title: str | None = None,
             scale: float | None = None) -> Drawing:
    """The map: its image (when it has one), its terrain, grid lines, walls and tokens.

    Parameters
    ----------
    bmap : BattleMap
    ax : Axes, optional
        Drawn on a new Figure, ``scale`` pixels a square, when not given.
    image, grid, tokens : bool
        Draw the map's image, its grid lines, its tokens.
    legend : bool
        Add a legend, outside the map.
    title : str, optional
        A title above the map.
    scale : float, optional
        Pixels a square of a new Figure (default :func:`default_scale`).

    Returns
    -------
    Drawing
        The artists added (``"map image"``, terrain by kind as
        :func:`plot_terrain` draws it, ``"grid"``, walls by kind, tokens),
        with ``.ax`` and ``.figure``.
    """
    if not isinstance(bmap, BattleMapCore):
        raise InvalidValueError(f"plot_map draws an aoegrid.BattleMap, got {bmap!r}")
    ax = _axes(ax, bmap.grid, scale)
    out: list[Artist] = []
    if image:
        out += plot_image(bmap, ax)
    out += plot_terrain(bmap, ax)
    if grid:
        out += plot_grid(bmap.grid, ax)
    out += plot_walls(bmap, ax)
    if tokens and bmap.tokens:
        out += plot_tokens(bmap.tokens, bmap.grid, ax)
    return _finish(Drawing(out, ax), legend, title)


def outline(a: AreaCore, samples: int = 96) -> np.ndarray | None:
    """The exact shape of an area's effect as a polygon ((n, 2) vertices), or None."""
    made, shape, rules = a.recipe, a.shape, a.rules
    if made is None or shape is None or rules is None or isinstance(shape, Shapable):
        return None
    return _outline(shape, made.origin, rules, a.grid.square, samples)


def _outline(shape: Any, o: Any, rules: Any, sq: float, samples: int = 96) -> np.ndarray:
    """The outline of ``shape`` placed at origin ``o`` (an :class:`aoegrid.geometry.stencils._Origin`), seen from above."""
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


def _slice_outline(a: AreaCore, height: float) -> np.ndarray | None:
    """The outline :func:`plot_area` draws at ``height``: a sphere's slice, a circle; other shapes' from above.

    A sphere whose slice is empty at that height has none.
    """
    shape, made = a.shape, a.recipe
    if not isinstance(shape, Sphere) or made is None:
        return outline(a)
    dz = abs(height - made.elevation)
    if dz >= shape.radius or a.rules is None:
        return None
    return _outline(shape.replace(radius=math.sqrt(shape.radius ** 2 - dz ** 2)), made.origin, a.rules, a.grid.square)


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


def _unclipped(a: AreaCore) -> np.ndarray:
    """The squares the area's recipe covers before a range clipped it (``clip_to_range``).

    A clipped area shares its recipe and its worked-out reach with the area
    it came from, so this recomputes only which squares that reach takes.
    """
    if a.recipe is None:
        return a.mask
    whole = type(a)(a.grid, a.window, a._shape_local, shape=a.shape, origin=a.origin, rules=a.rules, mode=a.mode,
                    recipe=a.recipe)
    for name in ("_vis", "_visible", "_cover", "_sight", "_path"):
        setattr(whole, name, getattr(a, name))
    return whole.mask


def _marks(a: AreaCore) -> tuple[np.ndarray, dict[Cover, np.ndarray], np.ndarray | None]:
    """What a picture marks beside an area's squares, as masks on its grid.

    The squares a range clipped away (``clip_to_range``); the area's squares
    in cover, by each grade of :data:`COVER_BADGES`; the squares of the shape
    the walls block (None for an area on a bare grid).
    """
    whole = _unclipped(a)
    if a.battlemap is None:
        return whole & ~a.mask, {}, None
    cover = a.cover
    return whole & ~a.mask, {grade: (cover == grade) & a.mask for grade in COVER_BADGES}, a.shape_mask & ~whole


def plot_area(
    a: AreaCore,
    ax: Axes | None = None,
    *,
    color: str | None = None,
    alpha: float = 0.3,
    label: str | None = None,
    on: BattleMapCore | None = None,
    map_layers: bool = True,
    legend: bool = False,
    title: str | None = None,
    scale: float | None = None,
    height: float | None = None,
) -> Drawing:
    """An area: each covered square outlined over a light fill, cover badged, blocked and out-of-range squares shown.

    Parameters
    ----------
    a : Area
    ax : Axes, optional
        Drawn on a new Figure, ``scale`` pixels a square, when not given.
    color : str, optional
        Colour of the covered squares' outlines and fill (default red).
    alpha : float
        Opacity of the fill; the outlines are opaque, as Foundry draws a template.
    label : str, optional
        The area's legend entry (default ``"area (N squares)"``).
    on : BattleMap, optional
        The map to draw underneath; by default the area's own map. Must be on
        the area's grid.
    map_layers : bool
        Draw the map (image, grid, walls, tokens) underneath.
    legend : bool
        Add a legend of what was drawn, outside the map (a Figure made here
        is widened to hold it).
    title : str, optional
        A title above the map.
    scale : float, optional
        Pixels a square of a new Figure (default :func:`default_scale`);
        markers, text and lines are sized from the picture's pixels a square.
    height : float, optional
        Draw the horizontal slice at this height (the grid's unit),
        :meth:`Area.at(height) <aoegrid.effects.result.AreaCore.at>`, instead of
        :attr:`Area.mask`: labelled ``"area at 10 ft (N squares)"``, cover
        badged on its squares only; a sphere's dashed outline is its slice
        (a circle ``sqrt(r² - dz²)`` across), other shapes' their outline
        seen from above. :func:`plot_section` draws a vertical cut.

    Returns
    -------
    Drawing
        Everything added, labelled: ``"area (N squares)"`` (the squares,
        filled and outlined), ``"partial cover"`` and ``"three-quarters
        cover"`` (badges in the squares' corners: white, and larger black),
        ``"blocked (total cover)"`` (dotted grey), ``"out of range"``
        (squares ``clip_to_range`` dropped: dashed grey outlines),
        ``"shape"``, ``"origin"``, walls by kind, tokens (affected ones
        ringed, badged when in cover; off the ground, badged with their
        elevation), ``"legend"``.
    """
    from matplotlib.collections import PolyCollection
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Polygon, Rectangle

    if not isinstance(a, AreaCore):
        raise InvalidValueError(f"plot_area draws an aoegrid.Area, got {a!r}")
    bmap = on if on is not None else a.battlemap
    if bmap is not None and bmap.grid != a.grid:
        raise GridMismatchError(
            f"the area is on a {a.grid.width}x{a.grid.height} grid, the map on a "
            f"{bmap.grid.width}x{bmap.grid.height} one: compute the area on this map"
        )
    ax = _axes(ax, a.grid, scale)
    u = _unit(ax, a.grid)
    color = color or AREA_COLORS[0]
    out: list[Artist] = []
    if map_layers:
        out += plot_map(bmap, ax, tokens=False) if bmap is not None else plot_grid(a.grid, ax)
    shown = a.mask if height is None else a.at(height)
    ys, xs = np.nonzero(shown)
    squares = list(zip(xs.tolist(), ys.tolist()))
    where = "" if height is None else f" at {height:g} {a.grid.units}"
    # Each square outlined in the area's colour, as Foundry highlights a template: a fill alone blends into floors.
    fill = PolyCollection(_squares(squares), facecolors=[to_rgba(color, alpha)], edgecolors=[to_rgba(color, 1.0)],
                          linewidths=_lw(u, 1.2), label=label or f"area{where} ({len(squares)} squares)", zorder=2)
    ax.add_collection(fill)
    out.append(fill)
    far, badged, blocked = _marks(a)
    if far.any():
        coll = PolyCollection(_cells(far), facecolors="none", edgecolors=OUT_OF_RANGE, linestyles="--",
                              linewidths=_lw(u, 1.0), label="out of range", zorder=2)
        ax.add_collection(coll)
        out.append(coll)
    for grade, in_cover in badged.items():
        size = COVER_BADGES[grade][1]
        ys, xs = np.nonzero(in_cover & shown)
        if xs.size:
            # A corner badge in black and white reads over any floor, where hatching vanished on striped ones.
            tris = [[(x + 1 - size, y), (x + 1, y), (x + 1, y + size)] for x, y in zip(xs.tolist(), ys.tolist())]
            out.append(_cover_badges(ax, tris, grade, u))
    if blocked is not None and blocked.any():
        out.append(_blocked_cells(ax, _cells(blocked)))
    shape = outline(a) if height is None else _slice_outline(a, height)
    if shape is not None and len(shape) >= 3:
        patch = Polygon(shape, closed=True, fill=False, edgecolor=color, linewidth=_lw(u, 1.5), linestyle=(0, (4, 2)),
                        label="shape", zorder=4)
        ax.add_patch(patch)
        out.append(patch)
    if isinstance(a.origin, Space):
        x0, y0, x1, y1 = a.origin.bounds
        rect = Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, edgecolor=color, linewidth=_lw(u, 2.0),
                         linestyle="--", label="origin", zorder=6)
        ax.add_patch(rect)
        out.append(rect)
    elif a.origin is not None:
        out.append(_cross(ax, a.origin, color, u))
    if map_layers and bmap is not None and bmap.tokens:
        hits = reached(a, list(bmap.tokens)) if a.recipe is not None else []
        out += plot_tokens(bmap.tokens, a.grid, ax, affected=hits)
    return _finish(Drawing(out, ax), legend, title)


#: How :func:`plot_section` draws creatures the area reaches and those it does not (fill, edge), and floors.
_SECTION_REACHED = ("#ff9896", "#d62728")
_SECTION_MISSED = ("#dddddd", "#555555")
_FLOOR_COLOR = "#8c564b"
#: Heights a section samples the area at, over its solid's vertical extent.
_SECTION_HEIGHTS = 96


def _cut(a: AreaCore, along: Any) -> tuple[np.ndarray, np.ndarray, float]:
    """The cut of :func:`plot_section`: its start, unit direction (grid squares) and length (squares)."""
    grid = a.grid
    if isinstance(along, str):
        if along not in ("x", "y"):
            raise InvalidValueError(
                f'along must be "x", "y" (through the origin) or two (x, y) points of the cut, got {along!r}'
            )
        assert a.recipe is not None  # plot_section checked it
        o = a.recipe.origin
        ox, oy = (o.x0 + o.x1) / 2, (o.y0 + o.y1) / 2
        ends = ((0.0, oy), (float(grid.width), oy)) if along == "x" else ((ox, 0.0), (ox, float(grid.height)))
    else:
        try:
            p, q = along
        except (TypeError, ValueError):
            raise InvalidValueError(
                f'along must be "x", "y" (through the origin) or two (x, y) points of the cut, got {along!r}'
            ) from None
        ends = (point(p, "along start"), point(q, "along end"))
    start, end = np.asarray(ends[0], float), np.asarray(ends[1], float)
    length = float(np.hypot(*(end - start)))
    if length == 0.0:
        raise InvalidValueError(f"along's two points are the same, {tuple(start)}: a cut needs a direction")
    return start, (end - start) / length, length


def _interval(start: np.ndarray, d: np.ndarray, length: float, poly: np.ndarray) -> tuple[float, float] | None:
    """Where the cut meets the convex polygon ``poly`` (vertices in order): ``(t0, t1)`` in squares along it, or None."""
    t0, t1 = 0.0, length
    area2 = float(np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1]))
    for p, q in zip(poly, np.roll(poly, -1, axis=0)):
        # Inside is to the left of each side for a counter-clockwise polygon (right for clockwise).
        nx, ny = (p[1] - q[1], q[0] - p[0]) if area2 > 0 else (q[1] - p[1], p[0] - q[0])
        num, den = nx * (start[0] - p[0]) + ny * (start[1] - p[1]), nx * d[0] + ny * d[1]
        if den == 0.0:
            if num < 0.0:
                return None
            continue
        t = -num / den
        if den > 0.0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    return (t0, t1) if t0 < t1 else None


def _crossed(start: np.ndarray, d: np.ndarray, length: float, grid: Grid) -> list[tuple[float, float, int, int]]:
    """The squares of the grid the cut crosses, in order: ``(t0, t1, x, y)``, ``t`` in squares along it."""
    ts = {0.0, length}
    for axis, n in ((0, grid.width), (1, grid.height)):
        if d[axis] != 0.0:
            ts.update(t for t in ((np.arange(n + 1) - start[axis]) / d[axis]).tolist() if 0.0 < t < length)
    cuts = sorted(ts)
    out = []
    for t0, t1 in itertools.pairwise(cuts):
        x, y = (math.floor(v) for v in start + d * (t0 + t1) / 2)
        if t1 - t0 > 1e-9 and 0 <= x < grid.width and 0 <= y < grid.height:
            out.append((t0, t1, x, y))
    return out


def _solid_cut(a: AreaCore, start: np.ndarray, d: np.ndarray, length: float) -> Any:
    """The exact cut of the area's solid by the section's plane, as a patch in (feet along, height), or None.

    A sphere cuts to a circle, a cylinder, a cube and a level line to a
    rectangle (their footprint's chord times their heights); a level cone or
    a pitched quarter-circle cone cut along its axis through its apex to the
    sector its height test fills (:meth:`AreaCore.column_meets`: a
    quarter-circle cone 45 degrees each side of its axis, others
    ``atan(1/2)``), tilted by its pitch; a pitched cone cut anywhere else and
    a pitched line (its template's box) to the convex polygon the plane cuts
    from its solid's mesh (:meth:`aoegrid.geometry._solids.Mesh.section`: a cone's
    within 1e-4 of its length inside the true outline, a line's exact).
    Other cuts (a level cone off its axis, whose height test is no solid
    of revolution; a shapable area; a sphere or cylinder from a creature's
    space) have none: the section of the counted area shows them.
    """
    from matplotlib.patches import Circle, Polygon, Rectangle, Wedge

    shape, made, rules = a.shape, a.recipe, a.rules
    if made is None or shape is None or rules is None:
        return None
    sq, z, o = a.grid.square, made.elevation, made.origin
    ox, oy = (o.x0 + o.x1) / 2, (o.y0 + o.y1) / 2
    t_o = float(np.dot((ox, oy) - start, d))
    off = float(abs(d[0] * (oy - start[1]) - d[1] * (ox - start[0])))  # the origin's distance from the plane
    low, high = a.vertical_extent()
    style = {"fill": False, "linestyle": (0, (4, 2)), "label": "shape", "zorder": 4}
    if isinstance(shape, (Sphere, Cylinder)) and o.is_point:
        r = shape.radius / sq
        if off >= r:
            return None
        half = math.sqrt(r * r - off * off) * sq
        if isinstance(shape, Sphere):
            return Circle((t_o * sq, z), math.sqrt(shape.radius ** 2 - (off * sq) ** 2), **style)
        return Rectangle((t_o * sq - half, low), 2 * half, high - low, **style)
    if isinstance(shape, (Cube, Line)) and not getattr(shape, "pitch", 0.0):
        poly = outline(a)
        span = None if poly is None else _interval(start, d, length, poly)
        if span is None:
            return None
        return Rectangle((span[0] * sq, low), (span[1] - span[0]) * sq, high - low, **style)
    if isinstance(shape, Cone):
        kind = ConeKind(shape.kind) if shape.kind is not None else rules.cone
        along = float(np.dot(unit_vector(float(shape.direction)), d))
        if off < 1e-9 and abs(abs(along) - 1.0) <= 1e-9 and (not shape.pitch or kind is ConeKind.QUARTER_CIRCLE):
            # Through the apex along the axis: a sector, its arc drawn round.
            half = 45.0 if kind is ConeKind.QUARTER_CIRCLE else math.degrees(math.atan(0.5))
            axis = shape.pitch if along > 0 else 180.0 - shape.pitch
            return Wedge((t_o * sq, z), shape.length, axis - half, axis + half, **style)
    if isinstance(shape, (Cone, Line)) and shape.pitch:
        # A convex solid cut by a vertical plane: a convex polygon, from the solid's mesh (aoegrid.geometry._solids).
        cut = pitched_mesh(shape, o, rules, sq, made.stop).section((float(start[0]), float(start[1])), (float(d[0]), float(d[1])))
        if len(cut) == 0:
            return None
        return Polygon(np.column_stack([cut[:, 0] * sq, z + cut[:, 1] * sq]), closed=True, **style)
    return None


def plot_section(
    a: AreaCore,
    along: Any = "x",
    ax: Axes | None = None,
    *,
    on: BattleMapCore | None = None,
    color: str | None = None,
    alpha: float = 0.3,
    legend: bool = False,
    title: str | None = None,
) -> Drawing:
    """A side view of an area: a vertical cut through it, with walls' spans, floors and creatures' prisms.

    The horizontal axis is the distance along the cut, the vertical one the
    height, both in the grid's unit (equal scales: a ball is round).

    Parameters
    ----------
    a : Area
        Made by :func:`aoegrid.area`.
    along : "x", "y" or ((x0, y0), (x1, y1))
        The cut: the line along x (``"x"``) or y (``"y"``) through the
        point the effect starts from, across the whole map, or the vertical
        plane through two points (grid units), from the first to the
        second. A cut along a grid line shows the squares on its far side
        (below it, right of it).
    ax : Axes, optional
        Drawn on a new Figure when not given.
    on : BattleMap, optional
        The map whose walls, floors and creatures are drawn; by default the
        area's own.
    color, alpha
        The area's colour (default red) and its fill's opacity.
    legend, title
        A legend outside the picture; a title above it.

    Returns
    -------
    Drawing
        Labelled: ``"section of the area"`` (the squares the cut crosses
        that the area holds, each over the heights where its slice
        :meth:`Area.at(height) <aoegrid.effects.result.AreaCore.at>` holds it,
        sampled at 96 heights over the solid's vertical extent: what the
        rules count, walls included), ``"shape"`` (the exact cut of the
        solid, dashed, where it has a simple one: see below), ``"wall"``
        (each wall crossing the cut, a vertical bar over its span from
        ``bottom`` to ``top``, clipped to the view), ``"floor"`` (each
        floor's part on the cut, a horizontal line at its elevation),
        ``"creature NAME"`` (each creature whose space the cut crosses: its
        prism, elevation to top, over where the cut crosses its space; red
        where the area reaches it, grey where not), ``"ground"`` and
        ``"origin"``.

    The exact cut: a sphere's is a circle, a cylinder's, a cube's and a
    level line's a rectangle (their footprint's chord, their heights); a
    level cone (or a pitched quarter-circle one) cut along its axis through
    its apex, the sector its height test fills, tilted by its pitch; a
    pitched cone cut anywhere else, and a pitched line (the box of its
    template), the convex polygon the plane cuts from the solid (a cone's
    from its inscribed mesh, within 1e-4 of its length). Others (a level
    cone cut off its axis, a shapable area) have only the counted section.

    Raises
    ------
    InvalidValueError
        ``along`` neither ``"x"``, ``"y"`` nor two distinct points; an area
        not made by :func:`aoegrid.area`.
    InvalidTypeError
        A point of ``along`` not an ``(x, y)`` pair of numbers.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(12, 6), walls=[ag.Wall((9, 0), (9, 6), top=10)],
    ...                  tokens=[ag.Token(7, 3, name="bat", elevation=15), ag.Token(3, 3, name="orc")])
    >>> drawn = plot_section(ag.area(ag.Sphere(15), at=(5, 3), on=m), along="x")
    >>> [x.get_label() for x in drawn]
    ['ground', 'section of the area', 'shape', 'wall', 'creature bat', 'creature orc', 'origin']
    """
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.colors import to_rgba
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    if not isinstance(a, AreaCore) or a.recipe is None:
        raise InvalidValueError(f"plot_section draws an aoegrid.Area made by aoegrid.area(), got {a!r}")
    bmap = on if on is not None else a.battlemap
    start, d, length = _cut(a, along)
    grid, sq, z = a.grid, a.grid.square, a.recipe.elevation
    low, high = a.vertical_extent()
    crossed = _crossed(start, d, length, grid)
    tokens = []
    for t in bmap.tokens if bmap is not None else ():
        x0, y0, x1, y1 = t.space.bounds
        span = _interval(start, d, length, np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], float))
        if span is not None:
            tokens.append((t, span, t.prism(sq)))
    bottom = min(low, 0.0, *(p[0] for _, _, p in tokens))
    top = max(high, 0.0, *(p[1] for _, _, p in tokens))
    pad = sq / 2
    view = (bottom - pad, top + pad)
    own = ax is None
    if ax is None:
        w, h = length * sq, view[1] - view[0]
        px = 800.0 / max(w, h) * min(w, h)
        fig = Figure(figsize=((800.0 if w >= h else px) / _DPI + 1.0, (800.0 if h > w else px) / _DPI + 0.8),
                     dpi=_DPI)
        ax = fig.add_subplot()
    ax.set_xlim(0.0, length * sq)
    ax.set_ylim(*view)
    ax.set_aspect("equal")
    ax.set_xlabel(f"along the cut ({grid.units})")
    ax.set_ylabel(f"height ({grid.units})")
    color = color or AREA_COLORS[0]
    out: list[Artist] = [ax.axhline(0.0, color="#999999", linewidth=0.8, label="ground", zorder=1)]
    # The counted area: each crossed square's slice, sampled at heights over the solid.
    edges = np.linspace(low, high, _SECTION_HEIGHTS + 1)
    held = np.array([a.at(float(hh))[[c[3] for c in crossed], [c[2] for c in crossed]] if crossed else []
                     for hh in (edges[:-1] + edges[1:]) / 2]).reshape(_SECTION_HEIGHTS, len(crossed))
    boxes = []
    for n, (t0, t1, _, _) in enumerate(crossed):
        runs = np.flatnonzero(np.diff(np.concatenate([[0], held[:, n].astype(np.int8), [0]])))
        for r0, r1 in zip(runs[::2], runs[1::2]):
            boxes.append([(t0 * sq, edges[r0]), (t1 * sq, edges[r0]), (t1 * sq, edges[r1]), (t0 * sq, edges[r1])])
    section = PolyCollection(boxes, facecolors=[to_rgba(color, alpha)], edgecolors="none", label="section of the area",
                             zorder=2)
    ax.add_collection(section)
    out.append(section)
    solid = _solid_cut(a, start, d, length)
    if solid is not None:
        solid.set_edgecolor(color)
        ax.add_patch(solid)
        out.append(solid)
    bars = []
    for wall in bmap.walls if bmap is not None else ():
        (ax_, ay), (bx, by) = wall.start, wall.end
        e = np.array([bx - ax_, by - ay])
        den = d[0] * e[1] - d[1] * e[0]
        if den == 0.0:
            continue  # along the cut: no crossing to draw
        w0 = np.array([ax_, ay]) - start
        t, s = (w0[0] * e[1] - w0[1] * e[0]) / den, (w0[0] * d[1] - w0[1] * d[0]) / den
        lo, hi = max(wall.bottom, view[0]), min(wall.top, view[1])
        if 0.0 <= t <= length and 0.0 <= s <= 1.0 and lo < hi:
            bars.append([(t * sq, lo), (t * sq, hi)])
    if bars:
        coll = LineCollection(bars, colors=WALL_STYLES["wall"][0], linewidths=3.0, label="wall", zorder=5)
        ax.add_collection(coll)
        out.append(coll)
    floors = []
    if bmap is not None and bmap.floors:
        from shapely.geometry import LineString

        cut = LineString([tuple(start), tuple(start + d * length)])
        for f in bmap.floors:
            part = cut.intersection(f.polygon)
            for piece in getattr(part, "geoms", [part]):
                if isinstance(piece, LineString) and not piece.is_empty:
                    ts = [float(np.dot(np.asarray(c) - start, d)) * sq for c in piece.coords]
                    floors.append([(min(ts), f.elevation), (max(ts), f.elevation)])
    if floors:
        coll = LineCollection(floors, colors=_FLOOR_COLOR, linewidths=3.0, label="floor", zorder=5)
        ax.add_collection(coll)
        out.append(coll)
    hit = {id(r.token) for r in reached(a, [t for t, _, _ in tokens])} if tokens else set()
    for t, (t0, t1), (p0, p1) in tokens:
        face, edge = _SECTION_REACHED if id(t) in hit else _SECTION_MISSED
        rect = Rectangle((t0 * sq, p0), (t1 - t0) * sq, p1 - p0, facecolor=face, edgecolor=edge, alpha=0.8,
                         linewidth=1.2, label=f"creature {t.label}", zorder=6)
        ax.add_patch(rect)
        out.append(rect)
    o = a.recipe.origin
    t_o = float(np.dot(((o.x0 + o.x1) / 2, (o.y0 + o.y1) / 2) - start, d)) * sq
    (mark,) = ax.plot([t_o], [z], marker="X", markersize=12, color=color, markeredgecolor="white", linestyle="none",
                      label="origin", zorder=8)
    out.append(mark)
    drawn = _finish(Drawing(out, ax), legend, title)
    if own and legend:
        _widen_for_legend(drawn)
    return drawn


def _widen_for_legend(drawn: Drawing) -> None:
    """Widen a Figure made here so the legend hanging off its Axes' right edge fits, the Axes keeping their size."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig, ax = drawn.figure, drawn.ax
    key = ax.get_legend()
    renderer = FigureCanvasAgg(fig).get_renderer()
    past = (key.get_window_extent(renderer).x1 - fig.bbox.x1) / fig.dpi + 0.3
    if past > 0:
        w, h = fig.get_size_inches()
        pos = ax.get_position()
        fig.set_size_inches(w + past, h)
        ax.set_position((pos.x0 * w / (w + past), pos.y0, pos.width * w / (w + past), pos.height))


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


def _box(x: float, y: float, half: float) -> list[tuple[float, float]]:
    """The square of side ``2 * half`` centred on ``(x, y)``, as a polygon."""
    return [(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)]


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
) -> Drawing:
    """A score map: each placement's score as a colour over the map, the best one outlined.

    Parameters
    ----------
    scores : float array
        As :func:`aoegrid.placement_scores` gives them: ``(height + 1,
        width + 1)`` over intersections (drawn as a small square centred on
        each), ``(2 * height + 1, 2 * width + 1)`` over intersections and
        square centres (a half-square square on each, a checkerboard; the
        entries between, middles of square edges, are not drawn),
        ``(height, width)`` over square centres (each square filled), or one
        score per direction for cones and lines (drawn as wedges around
        ``caster``). NaN marks an origin not legal, or a placement not
        acceptable; drawn grey.
    bmap : BattleMap
        The map, drawn underneath as :func:`plot_map` draws it.
    ax : Axes, optional
        Drawn on a new Figure (with room for the colour bar) when not given.
    best : Placement, optional
        Outlined: the squares of its ``area``, its origin ``at`` marked, the
        creatures it hits (``hits``, else all it reaches) ringed; when its
        caster moves first (``best_placements(..., move=)``), the path it
        walks and the square it stands on, as :func:`plot_path` draws them.
    caster : Token, Space or (x, y), optional
        Marked; needed for scores per direction.
    directions : sequence of float, optional
        The degrees of scores per direction (default: evenly spaced from 0,
        as :data:`aoegrid.planning.tactics.DIRECTIONS`).
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
    Drawing
        Everything added, labelled: ``"score"``, ``nan_label``, ``"best
        placement (N squares)"``, ``"best origin"``, with a move ``"path
        walked (N ft)"`` and ``"stand"``, ``"caster"``, the colour bar's
        Axes (labelled ``label``), the map's layers and tokens.

    Examples
    --------
    >>> import aoegrid as ag
    >>> from aoegrid.show.plotting import plot_scores
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
    half_lattice = (2 * g.height + 1, 2 * g.width + 1)
    if values.ndim == 2 and values.shape in ((g.height + 1, g.width + 1), g.shape, half_lattice):
        # Points one step apart, from off: small squares on intersections, whole squares on centres,
        # half squares on the half-square lattice's intersections and centres.
        step, off, half = {(g.height + 1, g.width + 1): (1.0, 0.0, 0.3), g.shape: (1.0, 0.5, 0.5),
                           half_lattice: (0.5, 0.0, 0.25)}[values.shape]
        # Small squares are edged so neighbours stay apart; whole and half squares tile.
        edge = "#000000" if half == 0.3 else "none"
        ys, xs = np.indices(values.shape)
        # On the half-square lattice only intersections and centres: the middles of square edges are no origin.
        keep = (ys + xs) % 2 == 0 if step == 0.5 else np.ones(values.shape, dtype=bool)
        values, cx, cy = values[keep], xs[keep] * step + off, ys[keep] * step + off
        polys = [_box(x, y, half) for x, y in zip(cx.tolist(), cy.tolist())]
        # What cannot be chosen is dimmed, a whole cell round each point, so the legal points stand out.
        dim = [_box(x, y, step / 2) for x, y in zip(cx.tolist(), cy.tolist())]
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
        dim = polys
    else:
        raise GridMismatchError(
            f"scores of shape {values.shape} fit no lattice of this {g.width} x {g.height} map: "
            f"({g.height + 1}, {g.width + 1}) over intersections, ({g.height}, {g.width}) over square centres, "
            f"({half_lattice[0]}, {half_lattice[1]}) over intersections and square centres, or one score per "
            "direction"
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
        if getattr(best, "stand", None) is not None:
            out += plot_path(best, ax)
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
            affected = list(best.hits)
        else:
            affected = reached(best.area, list(bmap.tokens))
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
    return Drawing(out, ax)


def _caster_space(caster: Any) -> Space:
    """A caster's space: a Token's or Space's own, or the square a point lies in."""
    if isinstance(caster, Space):
        return caster
    space = getattr(caster, "space", None)
    if isinstance(space, Space):
        return space
    x, y = point(caster, "caster")
    return Space(math.floor(x), math.floor(y))


def plot_path(path: Any, ax: Axes | None = None, *, on: Grid | BattleMapCore | None = None,
              size: tuple[int, int] = (1, 1), cost: float | None = None, color: str = PATH_COLOR,
              legend: bool = False, title: str | None = None, scale: float | None = None) -> Drawing:
    """The path a creature walks: a line with an arrow a step through the centres of its space, its end outlined.

    Parameters
    ----------
    path : Placement or sequence of (x, y)
        A placement of :func:`aoegrid.best_placements` with ``move=`` (its
        ``path``, its caster where it ``stand`` s, and the ``cost``), or the
        squares a creature's space steps through (its top-left square, start
        and end included, as :meth:`aoegrid.Reach.path` gives them).
    ax : Axes, optional
        Drawn on a new Figure, with the map underneath, when not given.
    on : BattleMap or Grid, optional
        The map drawn underneath on a new Figure (a placement's own by
        default); needed for a bare path without ``ax``.
    size : (width, height)
        The creature's footprint in squares, for a bare path (a placement's
        caster's own otherwise).
    cost : float, optional
        What the move costs, in the grid's unit, for the legend (a
        placement's own otherwise); without it the label has no cost.
    color : str
    legend : bool
        Add a legend, outside the map.
    title : str, optional
    scale : float, optional
        Pixels a square of a new Figure (default :func:`default_scale`).

    Returns
    -------
    Drawing
        ``"path walked (N ft)"`` (``"path walked"`` without a cost: the line
        and its arrows; none when the creature does not move) and
        ``"stand"`` (its space at the end, outlined just inside), with the map's layers
        on a new Figure.

    Raises
    ------
    InvalidValueError
        A placement whose caster did not move first (no ``move=``), a path
        with no square, or no map to draw on.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(8, 5), tokens=[ag.Token(6, 2, name="orc", tags={"enemy"})])
    >>> best = ag.best_placements(ag.Sphere(5), caster=ag.Token(0, 2, name="me"), range=15, on=m, hit="enemy",
    ...                           move=20)[0]
    >>> best.stand.x, best.stand.y, best.path, best.cost
    (2, 1, ((0, 2), (1, 2), (2, 1)), 10.0)
    >>> [a.get_label() for a in plot_path(best)][-3:]
    ['path walked (10 ft)', 'path walked (10 ft)', 'stand']
    """
    from matplotlib import patheffects
    from matplotlib.patches import Rectangle

    if hasattr(path, "path") and hasattr(path, "stand"):
        if path.stand is None:
            raise InvalidValueError(
                "this placement's caster does not move first: best_placements(..., move=feet) gives one with a path")
        if on is None:
            on = path.area.battlemap if path.area.battlemap is not None else path.area.grid
        size, steps = path.stand.footprint, list(path.path)
        cost = path.cost if cost is None else cost
    else:
        steps = [(int(x), int(y)) for x, y in path]
    if not steps:
        raise InvalidValueError("a path holds at least the square it starts on, got none")
    grid = on.grid if isinstance(on, BattleMapCore) else on
    if ax is None and grid is None:
        raise InvalidValueError("plot_path draws a bare path on a map: pass on= (a BattleMap or Grid), or ax=")
    out: list[Artist] = []
    if ax is None:
        assert grid is not None
        ax = _axes(None, grid, scale)
        if isinstance(on, BattleMapCore):
            out += plot_map(on, ax)
        else:
            out += plot_grid(grid, ax)
    u = _unit(ax, _grid_of(ax))
    w, h = size
    xs = np.array([x + w / 2 for x, _ in steps])
    ys = np.array([y + h / 2 for _, y in steps])
    # The cost in the map's unit (without a map, the number alone).
    label = "path walked" if cost is None else f"path walked ({cost:g}{'' if grid is None else ' ' + grid.units})"
    if len(steps) > 1:
        # Under the creatures (its start is the walker's own disc), over the walls and the areas.
        (line,) = ax.plot(xs, ys, color=color, linewidth=_lw(u, 2.5), solid_capstyle="round", label=label, zorder=5.5,
                          path_effects=[patheffects.withStroke(linewidth=_lw(u, 4.5), foreground="white")])
        # An arrow a step, from one square's centre to the next: the way it walks.
        arrows = ax.quiver(xs[:-1], ys[:-1], np.diff(xs), np.diff(ys), color=color, angles="xy", scale_units="xy",
                           scale=1, units="xy", width=0.06, headwidth=4.5, headlength=5, headaxislength=4.5,
                           label=label, zorder=5.5)
        out += [line, arrows]
    x0, y0 = steps[-1]
    # Inset a little, so it shows inside a box on the same space (a cone's or line's origin, the caster's).
    stand = Rectangle((x0 + _STAND_INSET, y0 + _STAND_INSET), w - 2 * _STAND_INSET, h - 2 * _STAND_INSET, fill=False,
                      edgecolor=color, linewidth=_lw(u, 3.0), label="stand", zorder=8)
    ax.add_patch(stand)
    out.append(stand)
    return _finish(Drawing(out, ax), legend, title)


def _mark(ax: Axes, at: Any, label: str, color: str) -> Artist:
    """A point of origin as a cross, or a creature's space (a cone's or line's caster) as a box."""
    from matplotlib.patches import Rectangle

    u = _unit(ax, _grid_of(ax))
    space = at if isinstance(at, Space) else getattr(at, "space", None)
    if isinstance(space, Space):
        x0, y0, x1, y1 = space.bounds
        rect = Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, edgecolor=color, linewidth=_lw(u, 2.5), label=label,
                         zorder=8)
        ax.add_patch(rect)
        return rect
    return _cross(ax, at, color, u, label=label, size=0.65)


def _cross(ax: Axes, at: Any, color: str, u: float, *, label: str = "origin", size: float = 0.55) -> Artist:
    """A point of origin: a cross ``size`` squares across (``u`` points a square), edged white."""
    (mark,) = ax.plot([at[0]], [at[1]], marker="X", markersize=size * u, color=color, markeredgecolor="white",
                      markeredgewidth=_lw(u, 1.0), linestyle="none", label=label, zorder=8)
    return mark


def _cover_badges(ax: Axes, polygons: Any, grade: Cover, u: float) -> Artist:
    """Cover badges of ``grade`` (:data:`COVER_BADGES`) on the cells in cover: ``polygons``, one a cell."""
    from matplotlib.collections import PolyCollection

    name, _, face, edge = COVER_BADGES[grade]
    coll = PolyCollection(polygons, facecolors=face, edgecolors=edge, linewidths=_lw(u, 0.8), label=name, zorder=3)
    ax.add_collection(coll)
    return coll


def _blocked_cells(ax: Axes, polygons: Any) -> Artist:
    """Cells of the shape the walls keep it from (``polygons``): grey, dotted."""
    from matplotlib.collections import PolyCollection
    from matplotlib.colors import to_rgba

    coll = PolyCollection(polygons, facecolors=to_rgba(*_BLOCKED), edgecolors="none", hatch="..",
                          label="blocked (total cover)", zorder=2)
    ax.add_collection(coll)
    return coll


def _dashed_shape(ax: Axes, rings: list[np.ndarray], color: str, u: float) -> Artist:
    """A shape's exact outline (its rings, in map coordinates), dashed, labelled ``"shape"``."""
    from matplotlib.collections import LineCollection

    coll = LineCollection(rings, colors=color, linewidths=_lw(u, 1.5), linestyles=(0, (4, 2)), label="shape", zorder=4)
    ax.add_collection(coll)
    return coll


def _legend(ax: Axes, artists: list[Artist], skip: tuple[str, ...] = ("grid", "map image"),
            u: float | None = None) -> Artist:
    """A legend outside the map, to its right: one entry a label (areas are labelled apart).

    Its type is sized from ``u``, points a square (default: a square of the grid the Axes show).
    """
    seen: dict[str, Artist] = {}
    for x in artists:
        label = str(x.get_label())
        if label and not label.startswith(_UNLISTED) and label not in skip:
            seen.setdefault(label, x)
    fig = ax.get_figure(root=True)
    own = fig in _OWN
    size = float(np.clip((_unit(ax, _grid_of(ax)) if u is None else u) * 0.4, 8.0, 12.0)) if own else 8.0
    key = ax.legend(list(seen.values()), list(seen), loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
                    fontsize=size, frameon=False)
    key.set_label("legend")
    return key


def _grid_of(ax: Axes) -> Grid:
    """The grid an Axes shows, from its limits (set by :func:`_axes`)."""
    x0, x1 = ax.get_xlim()
    y1, y0 = ax.get_ylim()
    return Grid(max(1, round(x1 - x0)), max(1, round(y1 - y0)))


def _finish(drawn: Drawing, legend: bool, title: str | None, u: float | None = None) -> Drawing:
    """Add the legend (outside the map) and title; a Figure made here grows to hold them, the map keeping its size.

    Their type is sized from ``u``, points a square (default: a square of the grid the Axes show).
    """
    ax = drawn.ax
    fig = drawn.figure
    if title:
        size = float(np.clip((_unit(ax, _grid_of(ax)) if u is None else u) * 0.5, 10.0, 16.0)) \
            if fig in _OWN else 10.0
        heading = ax.set_title(title, fontsize=size)
        heading.set_label("title")
        drawn.append(heading)
    if legend:
        drawn.append(_legend(ax, list(drawn), u=u))
    if fig in _OWN and (legend or title):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        map_w, map_h = _OWN[fig]
        renderer = FigureCanvasAgg(fig).get_renderer()
        key = ax.get_legend()
        # The legend hangs off the map's right edge: the figure grows by how far it reaches past it.
        side = (key.get_window_extent(renderer).x1 - ax.get_window_extent(renderer).x1) / fig.dpi + 0.15 \
            if key is not None else 0.0
        top = ax.title.get_window_extent(renderer).height / fig.dpi + 0.15 if ax.get_title() else 0.0
        key_h = key.get_window_extent(renderer).height / fig.dpi + 0.1 if key is not None else 0.0
        w, h = map_w + side, max(map_h + top, key_h)
        fig.set_size_inches(w, h)
        ax.set_position((0, (h - map_h - top) / h, map_w / w, map_h / h))
    return drawn


def plot_areas(areas: Sequence[AreaCore], ax: Axes | None = None, *, colors: Sequence[str] = AREA_COLORS,
               legend: bool = True, title: str | None = None, scale: float | None = None) -> Drawing:
    """Several areas on one picture, each in its own colour and legend entry, the map drawn once.

    Areas with the same name and count are told apart in the legend by
    their origin, then by number.
    """
    if not areas:
        raise InvalidValueError("plot_areas needs at least one area")
    grid = areas[0].grid
    for other in areas[1:]:
        if other.grid != grid:
            raise GridMismatchError(f"cannot draw areas from different grids together: {grid} and {other.grid}")
    ax = _axes(ax, grid, scale)
    names = []
    for a in areas:
        kind = f"{a.rules.name if a.rules else 'area'} {type(a.shape).__name__.lower() if a.shape else ''}".strip()
        names.append(f"{kind} ({len(a)} squares)")
    labels = []
    for name, a in zip(names, areas):
        if names.count(name) > 1:
            name = f"{name} at {_where(a.origin)}"
        while name in labels:
            name += " (again)"
        labels.append(name)
    out: list[Artist] = []
    for i, (a, name) in enumerate(zip(areas, labels)):
        out += plot_area(a, ax, color=colors[i % len(colors)], map_layers=(i == 0), label=name)
    return _finish(Drawing(out, ax), legend, title)


def _where(origin: Any) -> str:
    if isinstance(origin, Space):
        return f"({origin.x}, {origin.y})"
    if origin is None:
        return "no origin"
    return f"({origin[0]:g}, {origin[1]:g})"


def compare_presets(shape: Any, at: Any, on: Grid | BattleMapCore, presets: Sequence[str] = ("starfinder", "pf2e", "sw5e"),
                    *, title: str | None = None, legend: bool = True, scale: float | None = None,
                    **options: Any) -> Drawing:
    """The same effect under several rule presets, side by side, with square counts.

    The picture behind "why is a 20-ft burst 44 squares in one system and 52
    in another". Each panel is titled with its preset, count and counting
    rules; one legend, below the panels, explains the marks. Returns the
    :class:`Drawing` of every panel's artists (``.ax`` the first panel,
    ``.figure`` the whole picture).
    """
    grid = on.grid if isinstance(on, BattleMapCore) else on
    return compare(
        [(resolve_rules(name), build_area(AreaCore, shape, at, on, resolve_rules(name), **options)) for name in presets],
        title=title, legend=legend, scale=scale, grid=grid,
    )


def _panel_scale(grid: Grid) -> float:
    """Pixels a square of a panel beside others: 300 pixels across, at least 8 a square."""
    return max(8.0, 300.0 / grid.width)


def _heading(rules: Any, a: AreaCore) -> str:
    """A panel's title: the rules' name (or ``rules`` itself), the count and how the rules count squares."""
    if hasattr(rules, "inclusion"):
        return f"{rules.name}: {len(a)} squares\n{rules.inclusion.value}, {rules.diagonals.value}"
    return f"{rules}: {len(a)} squares"


def compare(panels: Sequence[tuple[Any, AreaCore]], *, columns: int | None = None, title: str | None = None,
            legend: bool = True, scale: float | None = None, grid: Grid | None = None,
            names: Sequence[str] | None = None) -> Drawing:
    """Areas side by side, one panel each, titled with their count; one shared legend below.

    Parameters
    ----------
    panels : sequence of (Rules or str, Area)
        What each panel shows: the rules (or any name) it is titled with,
        and the area.
    columns : int, optional
        Panels a row (default: all in one row).
    title : str, optional
        A title over the whole picture.
    legend : bool
        One legend for every panel, below them.
    scale : float, optional
        Pixels a square of each panel (default: 300 pixels across a panel, at least 8 a square).
    names : sequence of str, optional
        Each panel's title (default: the rules' name, the count, how squares are counted).

    Returns
    -------
    Drawing
        Every panel's artists; ``.ax`` is the first panel's, ``.figure`` the picture.
    """
    if not panels:
        raise InvalidValueError("compare needs at least one panel")
    grid = grid or panels[0][1].grid
    scale = scale or _panel_scale(grid)
    return _panels(panels, plot_area, _heading, (grid.width * scale / _DPI, grid.height * scale / _DPI), head=0.45,
                   key_room=0.6, columns=columns, title=title, legend=legend, names=names)


def _panels(panels: Sequence[tuple[Any, Any]], draw: Callable[[Any, Axes], Drawing], heading: Callable[[Any, Any], str],
            size: tuple[float, float], *, head: float, key_room: float, columns: int | None, title: str | None,
            legend: bool, names: Sequence[str] | None) -> Drawing:
    """Areas side by side, ``draw(area, ax)`` in panels ``size`` inches, titled; one shared legend below.

    :func:`compare` and its hex and open-table kin: ``heading(rules, area)``
    titles a panel (unless ``names`` does); ``head`` inches above each panel
    hold its title, ``key_room`` inches below them the legend.
    """
    from matplotlib.figure import Figure

    if names is not None and len(names) != len(panels):
        raise InvalidValueError(f"names must give one title a panel ({len(panels)}), got {len(names)}")
    columns = columns or len(panels)
    rows = math.ceil(len(panels) / columns)
    pw, ph = size
    fig = Figure(figsize=(pw * columns + 0.2 * (columns + 1), (ph + head) * rows + 0.2 + (0.5 if title else 0.0)
                          + (key_room if legend else 0.0)), dpi=_DPI)
    fw, fh = fig.get_size_inches()
    out: list[Artist] = []
    first = None
    for k, (rules, a) in enumerate(panels):
        r, c = divmod(k, columns)
        left = 0.2 + c * (pw + 0.2)
        top = (0.5 if title else 0.1) + r * (ph + head) + head
        ax = fig.add_axes((left / fw, 1 - (top + ph) / fh, pw / fw, ph / fh))
        ax.set_axis_off()
        first = first or ax
        out += draw(a, ax)
        text = names[k] if names is not None else heading(rules, a)
        # Placed at the top (y=1), not above tick labels the panel does not show: finding where
        # those would be makes ticks, a tenth of a second for a dozen panels.
        panel_title = ax.set_title(text, fontsize=10, y=1.0)
        panel_title.set_label("title")
        out.append(panel_title)
    assert first is not None
    if title:
        panel_title = fig.suptitle(title, fontsize=13, y=1 - 0.1 / fh, va="top")
        panel_title.set_label("title")
        out.append(panel_title)
    if legend:
        seen: dict[str, Artist] = {}
        for x in out:
            label = str(x.get_label())
            if label.startswith("area ("):
                label = "area"  # counts are in the titles; one swatch says what the area looks like
            if label and not label.startswith(_UNLISTED) and label not in ("grid", "map image"):
                seen.setdefault(label, x)
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        renderer = FigureCanvasAgg(fig).get_renderer()
        # As many columns as fit across the picture.
        for cols in range(min(len(seen), 7), 0, -1):
            key = fig.legend(list(seen.values()), list(seen), loc="lower center", ncols=cols, fontsize=9,
                             frameon=False, bbox_to_anchor=(0.5, 0.05 / fh))
            if key.get_window_extent(renderer).width <= fig.bbox.width - 10 or cols == 1:
                break
            key.remove()
        key.set_label("legend")
        out.append(key)
    return Drawing(out, first)


def figure_of(obj: AreaCore | BattleMapCore, scale: float | None = None, *, legend: bool = False,
              title: str | None = None) -> Figure:
    """A new Figure showing an area (with its map) or a map, ``scale`` pixels a square.

    The map fills the Figure; a legend or title widens it (the map keeps its size).
    """
    if isinstance(obj, AreaCore):
        drawn = plot_area(obj, scale=scale, legend=legend, title=title)
    elif isinstance(obj, BattleMapCore):
        drawn = plot_map(obj, scale=scale, legend=legend, title=title)
    else:
        raise InvalidValueError(f"figure_of draws an aoegrid.Area or BattleMap, got {obj!r}")
    return drawn.figure


def _figure(obj: Any, scale: float | None, legend: bool, title: str | None) -> Figure:
    """The Figure of anything the plotting functions return, or of an area or map (drawn now)."""
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, SubFigure

    if isinstance(obj, (AreaCore, BattleMapCore)):
        return figure_of(obj, scale, legend=legend, title=title)
    if isinstance(obj, Drawing):
        return obj.figure
    if isinstance(obj, Axes):
        fig = obj.get_figure(root=True)
    elif isinstance(obj, (Figure, SubFigure)):
        fig = obj.get_figure(root=True) if isinstance(obj, SubFigure) else obj
    elif isinstance(obj, list) and obj and getattr(obj[0], "get_figure", None) is not None:
        fig = obj[0].get_figure(root=True)
    else:
        fig = None
    if not isinstance(fig, Figure):
        raise InvalidValueError(
            f"save writes an Area, a BattleMap, a Figure, an Axes or what a plotting function returned, got {obj!r}"
        )
    return fig


def save(obj: Any, path: Any, *, scale: float | None = None, legend: bool = False, title: str | None = None) -> None:
    """Write a picture to PNG, SVG or HTML, by the path's suffix.

    Parameters
    ----------
    obj : Area, BattleMap, Drawing, list of Artist, Axes or Figure
        An area or a map is drawn now (``scale`` pixels a square, default
        :func:`default_scale`; with ``legend`` and ``title``); anything a
        plotting function returned, or an Axes or Figure, is written as drawn.
    path : str or path
        ``.png``, ``.svg`` or ``.html``. HTML holds an area's or map's
        picture with a tooltip on each covered square and token
        (:func:`html_of`), or a Figure's SVG.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    suffix = str(path).rsplit(".", 1)[-1].lower()
    if suffix not in ("png", "svg", "html"):
        raise InvalidValueError(f"pictures are written as .png, .svg or .html, got {str(path)!r}")
    if suffix == "html":
        body = html_of(obj, scale) if isinstance(obj, (AreaCore, BattleMapCore)) else _svg(_figure(obj, scale, legend, title))
        page = f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>aoegrid</title></head><body>\n{body}\n</body></html>\n'
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
        return
    fig = _figure(obj, scale, legend, title)
    FigureCanvasAgg(fig)
    fig.savefig(path, format=suffix)


def _png(fig: Figure) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def _svg(fig: Figure) -> str:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    text = buf.getvalue()
    return text[text.index("<svg"):]


def png_bytes(obj: AreaCore | BattleMapCore, *, scale: float | None = None) -> bytes:
    """PNG bytes of a picture, for notebooks (no pyplot state is touched)."""
    return _png(figure_of(obj, scale))


def _distances(a: AreaCore) -> np.ndarray:
    """Each square's distance from the area's origin, in the grid's unit: along the path for spreads."""
    if a.battlemap is not None and a.mode is not None and a.mode.value == "spread":
        return np.asarray(a.path_distance)
    if a.rules is None or a.origin is None:
        return np.full(a.grid.shape, np.nan)
    x0, y0, x1, y1 = a.origin.bounds if isinstance(a.origin, Space) else (*a.origin, *a.origin)
    offsets = far_offsets if a.rules.inclusion is Inclusion.FAR_EDGE else center_offsets
    xs = np.arange(a.grid.width, dtype=np.float64)
    ys = np.arange(a.grid.height, dtype=np.float64)
    return np.asarray(measure(offsets(xs, x0, x1)[None, :], offsets(ys, y0, y1)[:, None], a.rules.diagonals)) * a.grid.square


def html_of(obj: AreaCore | BattleMapCore, scale: float | None = None) -> str:
    """An inline SVG of an area or map whose covered squares (and tokens) carry tooltips.

    The picture is the PNG :func:`png_bytes` draws, embedded, with a
    transparent square over each covered square whose ``<title>`` gives the
    square, its visible fraction, cover and distance from the origin; a
    token's gives its name and space. Plain SVG, no script: it reads in
    JupyterLab, in notebook viewers without a kernel and in a saved HTML
    file. Above :data:`MAX_TOOLTIPS` covered squares it is the PNG alone.
    """
    grid = obj.grid
    scale = default_scale(grid) if scale is None else scale
    w, h = grid.width, grid.height
    png = base64.b64encode(png_bytes(obj, scale=scale)).decode("ascii")
    size = f'width="{w * scale:g}" height="{h * scale:g}"'
    area = obj if isinstance(obj, AreaCore) else None
    if area is not None and len(area) > MAX_TOOLTIPS:
        return f'<img {size} alt="{html.escape(repr(area))}" src="data:image/png;base64,{png}"/>'
    tips: list[str] = []
    if area is not None:
        units = grid.units
        walled = area.battlemap is not None
        visible = area.visible if walled else None
        cover = area.cover if walled else None
        names = GRADES[area.rules.cover] if area.rules is not None else {}
        dist = _distances(area)
        for x, y in area.squares:
            frac = float(visible[y, x]) if visible is not None else 1.0
            grade = Cover(int(cover[y, x])) if cover is not None else Cover.NONE
            generic = grade.name.lower().replace("_", "-")
            said = names.get(grade, (generic,))[0]
            grade_name = generic if said in (generic, "") else f"{said} ({generic})"
            d = float(dist[y, x])
            far = f"{d:g} {units}" if math.isfinite(d) else "unknown"
            text = f"square ({x}, {y}): visible {frac:.3g}, cover: {grade_name}, distance {far}"
            tips.append(f'<rect x="{x}" y="{y}" width="1" height="1"><title>{html.escape(text)}</title></rect>')
    bmap = obj if isinstance(obj, BattleMapCore) else obj.battlemap
    for t in bmap.tokens if bmap is not None else ():
        x0, y0, x1, y1 = t.space.bounds
        text = f"{t.label}: space ({x0:g}, {y0:g}) to ({x1:g}, {y1:g})"
        tips.append(f'<rect class="token" x="{x0:g}" y="{y0:g}" width="{x1 - x0:g}" height="{y1 - y0:g}">'
                    f"<title>{html.escape(text)}</title></rect>")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" {size} '
        f'viewBox="0 0 {w} {h}" role="img"><title>{html.escape(repr(obj))}</title>'
        f'<image x="0" y="0" width="{w}" height="{h}" preserveAspectRatio="none" '
        f'xlink:href="data:image/png;base64,{png}" href="data:image/png;base64,{png}"/>'
        # Transparent, not unfilled: a square must be painted to show its tooltip under the pointer.
        f'<g fill="#ffffff" fill-opacity="0">{"".join(tips)}</g></svg>'
    )


def plot_threat(threat: Any, ax: Axes | None = None, *, cmap: str = "Reds", alpha: float = 0.55,
                moves: bool = False, legend: bool = True, title: str | None = None,
                scale: float | None = None) -> Drawing:
    """A threat map (:func:`aoegrid.threat_map`): each square shaded by how many casters reach it, over the map.

    Parameters
    ----------
    threat : Threat
        What :func:`aoegrid.threat_map` gave; its map is drawn underneath, as
        :func:`plot_map` draws it, its tokens on top.
    ax : Axes, optional
        Drawn on a new Figure, ``scale`` pixels a square, when not given.
    cmap : str
        A sequential matplotlib colour map: a square reached by more casters
        is darker (one colour per count, from one to every caster).
    alpha : float
        Opacity of the shading, so the map shows through.
    moves : bool
        Outline where each caster's space may end its move.
    legend : bool
        A key outside the map: ``"reached by N casters"`` per count drawn,
        the casters, the walls.
    title : str, optional
    scale : float, optional
        Pixels a square of a new Figure (default :func:`default_scale`).

    Returns
    -------
    Drawing
        Everything added, labelled: ``"reached by 1 caster"``, ``"reached
        by 2 casters"``..., ``"caster <label>"`` (a dashed box on its space),
        with ``moves`` ``"moves of <label>"``, the map's layers and tokens,
        ``"legend"``.

    Examples
    --------
    >>> import aoegrid as ag
    >>> from aoegrid.show.plotting import plot_threat
    >>> m = ag.BattleMap(ag.Grid(10, 6), walls=[ag.Wall((5, 0), (5, 4))])
    >>> t = ag.threat_map(ag.Sphere(10), casters=[ag.Token(1, 2, name="a"), ag.Token(8, 2, name="b")], range=15,
    ...                   on=m)
    >>> [a.get_label() for a in plot_threat(t) if a.get_label().startswith(("reached", "caster"))]
    ['reached by 1 caster', 'reached by 2 casters', 'caster a', 'caster b']
    """
    from matplotlib import colormaps
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.patches import Rectangle

    bmap = getattr(threat, "on", None)
    count = getattr(threat, "count", None)
    if not isinstance(bmap, BattleMapCore) or not isinstance(count, np.ndarray) or count.shape != bmap.grid.shape:
        raise InvalidValueError(f"plot_threat draws what aoegrid.threat_map gives, got {threat!r}")
    g = bmap.grid
    ax = _axes(ax, g, scale)
    u = _unit(ax, g)
    out: list[Artist] = list(plot_map(bmap, ax, tokens=False))
    casters = list(threat.casters)
    shades = colormaps[cmap](np.linspace(0.35, 0.95, max(len(casters), 1)))
    for n in range(1, int(count.max(initial=0)) + 1):
        cells = _cells(count == n)
        if cells:
            coll = PolyCollection(cells, facecolors=shades[min(n, len(shades)) - 1], edgecolors="none", alpha=alpha,
                                  label=f"reached by {n} caster{'' if n == 1 else 's'}", zorder=2)
            ax.add_collection(coll)
            out.append(coll)
    for k, caster in enumerate(casters):
        if moves:
            edges = LineCollection(_edges(threat.moves[k]), colors=AREA_COLORS[k % len(AREA_COLORS)],
                                   linewidths=_lw(u, 1.5), linestyles="--", label=f"moves of {caster.label}", zorder=4)
            ax.add_collection(edges)
            out.append(edges)
        x0, y0, x1, y1 = caster.space.bounds
        box = Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, edgecolor=AREA_COLORS[k % len(AREA_COLORS)],
                        linewidth=_lw(u, 2.5), linestyle="--", label=f"caster {caster.label}", zorder=7)
        ax.add_patch(box)
        out.append(box)
    if bmap.tokens:
        out += plot_tokens(bmap.tokens, g, ax)
    return _finish(Drawing(out, ax), legend, title)
