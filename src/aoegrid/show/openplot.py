"""Pictures of the open table (gridless maps) and the areas on it, in the look of :mod:`aoegrid.show.plotting`.

The same conventions as the square and hex pictures: matplotlib is imported
inside the functions only (pyplot never); each function draws on the Axes it
is given, or on a new :class:`matplotlib.figure.Figure`, and returns a
:class:`~aoegrid.show.plotting.Drawing` of the labelled artists it added. Map
coordinates are the map's unit (feet, inches; y down); the Axes' limits are
the map's :attr:`~aoegrid.Gridless.extent`. There are no cells: an area is
drawn as its exact outline, a creature as its real footprint (a circle or a
rectangle). Marker, text and line sizes follow the picture's pixels a square
(``scale``; a square is a Medium creature's width, :attr:`Gridless.square`:
5 ft, 1"), as the square pictures' do. Walls, cover badges, tokens and
legends are styled as :func:`aoegrid.show.plotting.plot_area` styles them.

Examples
--------
>>> import aoegrid as ag
>>> from aoegrid.show.openplot import plot_open_area
>>> t = ag.Gridless(30, 20)
>>> drawn = plot_open_area(ag.area(ag.Sphere(10), at=(15, 10), on=t, rules="5e"))
>>> [x.get_label() for x in drawn if not x.get_label().startswith("_")]
['area (314 sq ft)', 'shape', 'origin']
>>> drawn.ax.get_xlim() == (0.0, 30.0), drawn.ax.get_ylim() == (20.0, 0.0)   # y runs down
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from aoegrid.board.battlemap import BattleMapCore
from aoegrid.errors import GridMismatchError, InvalidValueError
from aoegrid.geometry.gridless import Footprint, Gridless, OpenToken
from aoegrid.show.plotting import (
    _BLOCKED,
    _DPI,
    _GRID_COLOR,
    _TOKEN_COLORS,
    AREA_COLORS,
    Drawing,
    _affected,
    _cross,
    _dashed_shape,
    _draw_token,
    _draw_walls,
    _finish,
    _lw,
    _map_axes,
    _panels,
    _png,
    _points,
    _token_style,
)

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.path import Path

#: Pixels a square (a Medium creature's width) of a new picture: a quarter inch at 100 dpi.
_SCALE = 25.0
#: Opacity of a creature's footprint: on the open table what counts is how the area meets it, so the tint shows through.
_TOKEN_ALPHA = 0.75
#: The table's edge.
_EDGE_COLOR = "#888888"
#: Parts of an area's outline smaller than this (in square map units, per unit of its length) are
#: slivers of polygon arithmetic, not parts walls cut away.
_SLIVER = 1e-6


def default_open_scale(table: Gridless) -> float:
    """Pixels a square of a new picture: 25 (a quarter inch), more for small maps so they are at least 800 pixels across.

    Tall maps are held to about 1,200 pixels high, as :func:`aoegrid.show.plotting.default_scale`.

    Examples
    --------
    >>> import aoegrid as ag
    >>> default_open_scale(ag.Gridless(24, 16, units="in")), default_open_scale(ag.Gridless(300, 200))
    (33.333333333333336, 25.0)
    """
    assert table.square is not None
    w, h = table.width / table.square, table.height / table.square
    return max(_SCALE, min(800.0 / w, 1200.0 / h))


def _check_table(table: Any, what: str) -> Gridless:
    if not isinstance(table, Gridless):
        raise InvalidValueError(
            f"{what} draws on an aoegrid.Gridless (or a BattleMap on one), got {table!r}: "
            f"aoegrid.show.plotting draws square grids, aoegrid.show.hexplot hex grids"
        )
    return table


def _axes(ax: Axes | None, table: Gridless, scale: float | None = None) -> Axes:
    """The Axes to draw on, set up for the open table: equal aspect, y down, limits the map's extent."""
    assert table.square is not None
    w, h = table.extent
    scale = default_open_scale(table) if scale is None else scale
    return _map_axes(ax, (w, h), (w / table.square, h / table.square), scale)


def _unit(ax: Axes, table: Gridless) -> float:
    """Points a square (a Medium creature's width) on this Axes: every marker, text and line is sized from it."""
    assert table.square is not None
    return _points(ax, table.extent) * table.square


def _path(geometry: Any) -> Path | None:
    """The polygons of a shapely geometry (holes too) as one matplotlib Path, or None when it has none."""
    from matplotlib.path import Path

    verts: list[np.ndarray] = []
    codes: list[np.ndarray] = []
    for poly in shapely.get_parts(geometry):
        if not isinstance(poly, shapely.Polygon) or poly.is_empty:
            continue
        for ring in (poly.exterior, *poly.interiors):
            xy = np.asarray(ring.coords)
            c = np.full(len(xy), Path.LINETO, dtype=Path.code_type)
            c[0], c[-1] = Path.MOVETO, Path.CLOSEPOLY
            verts.append(xy)
            codes.append(c)
    return Path(np.concatenate(verts), np.concatenate(codes)) if verts else None


def _lines(geometry: Any) -> list[np.ndarray]:
    """Every ring of a (multi)polygon and every line of a geometry, as ``(n, 2)`` vertex arrays."""
    out = []
    for part in shapely.get_parts(geometry):
        if part.is_empty:
            continue
        if isinstance(part, shapely.Polygon):
            out.append(np.asarray(part.exterior.coords))
            out += [np.asarray(r.coords) for r in part.interiors]
        elif isinstance(part, shapely.LineString):
            out.append(np.asarray(part.coords))
    return out


def _finish_open(drawn: Drawing, table: Gridless, legend: bool, title: str | None) -> Drawing:
    """:func:`aoegrid.show.plotting._finish` with type sized from a square of the table, not from one map unit."""
    return _finish(drawn, legend, title, _unit(drawn.ax, table))


def plot_open_grid(table: Gridless, ax: Axes | None = None, *, every: float | None = None,
                   color: str = _GRID_COLOR) -> Drawing:
    """Thin reference lines every ``every`` map units (default a square: 5 ft, 1"), labelled ``"grid"``.

    The open table has no cells; the lines only help to judge distances.

    Examples
    --------
    >>> import aoegrid as ag
    >>> [(c.get_label(), len(c.get_segments())) for c in plot_open_grid(ag.Gridless(30, 20))]   # 7 + 5 lines
    [('grid', 12)]
    """
    from matplotlib.collections import LineCollection

    table = _check_table(table, "plot_open_grid")
    step = table.square if every is None else every
    if not isinstance(step, (int, float)) or isinstance(step, bool) or not math.isfinite(step) or step <= 0:
        raise InvalidValueError(f"the reference grid's spacing (every) must be a positive number of {table.units}, "
                                f"got {every!r}")
    ax = _axes(ax, table)
    w, h = table.extent
    # Whole multiples of the step, computed as such so the last line lands exactly on an edge.
    xs = [k * step for k in range(math.floor(w / step + 1e-9) + 1)]
    ys = [k * step for k in range(math.floor(h / step + 1e-9) + 1)]
    lines = [[(x, 0.0), (x, h)] for x in xs] + [[(0.0, y), (w, y)] for y in ys]
    coll = LineCollection(lines, colors=color, linewidths=_lw(_unit(ax, table), 0.5), label="grid", zorder=1)
    ax.add_collection(coll)
    return Drawing([coll], ax)


def _table_edge(ax: Axes, table: Gridless) -> Artist:
    """The table's edge, thin and grey: with no cells nor reference grid nothing else shows where the map ends."""
    from matplotlib.patches import Rectangle

    w, h = table.extent
    # Unclipped: the Axes' limits are the edge itself and would halve the line.
    edge = Rectangle((0.0, 0.0), w, h, fill=False, edgecolor=_EDGE_COLOR, linewidth=_lw(_unit(ax, table), 1.0),
                     label="_table edge", zorder=1, clip_on=False)
    ax.add_patch(edge)
    return edge


def plot_open_walls(bmap: BattleMapCore, ax: Axes | None = None) -> Drawing:
    """The map's walls (in map units): doors, open doors, windows and one-way walls each distinct.

    Styled as :func:`aoegrid.show.plotting.plot_walls` styles them (:data:`aoegrid.show.plotting.WALL_STYLES`),
    one collection a kind, labelled with it.
    """
    table = _check_table(bmap.grid, "plot_open_walls")
    ax = _axes(ax, table)
    return Drawing(_draw_walls(ax, bmap, _unit(ax, table)), ax)


def plot_open_tokens(tokens: Sequence[OpenToken], table: Gridless, ax: Axes | None = None, *,
                     affected: Iterable[Any] = ()) -> Drawing:
    """Creatures as their real footprints (circle or rectangle), named; affected ones ringed, cover badged.

    A circular footprint is a :class:`~matplotlib.patches.Circle` of the
    creature's exact radius (:meth:`OpenToken.radius`), a rectangular one a
    :class:`~matplotlib.patches.Rectangle` of its width and depth, labelled
    ``"token NAME"`` (``" (affected)"`` when ``affected`` holds it: ringed
    red). Names, cover badges (``"cover badge NAME"``) and elevation badges
    (``"elevation NAME"``) as :func:`aoegrid.show.plotting.plot_tokens` draws them.

    Examples
    --------
    >>> import aoegrid as ag
    >>> t = ag.Gridless(30, 20)
    >>> drawn = plot_open_tokens([ag.OpenToken(12, 8, name="ogre", size="large")], t)
    >>> disc = drawn[0]
    >>> disc.get_label(), disc.center, disc.radius
    ('token ogre', (12.0, 8.0), 5.0)
    """
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Circle, Patch, Rectangle

    table = _check_table(table, "plot_open_tokens")
    ax = _axes(ax, table)
    u = _unit(ax, table)
    assert table.square is not None
    per = u / table.square  # points a map unit
    hit = _affected(affected)
    out: list[Artist] = []
    for t in tokens:
        if not isinstance(t, OpenToken):
            raise InvalidValueError(f"tokens on the open table are aoegrid.OpenToken, got {t!r}")
        cx, cy = t.center
        hw, hd = t.half_extent(table)
        style = _token_style(t, hit, u, to_rgba(_TOKEN_COLORS[0], _TOKEN_ALPHA))
        shape: Patch
        if t.footprint is Footprint.RECT:
            shape = Rectangle((cx - hw, cy - hd), 2 * hw, 2 * hd, **style)
        else:
            shape = Circle((cx, cy), hw, **style)
        # A cover badge on a circle's rim at 45 degrees; in a rectangle's upper-right corner, a little inside.
        k = 0.75 if t.footprint is Footprint.RECT else math.sqrt(0.5)
        # A name may run past its footprint (to 1.1 times its width); smaller on a creature under a square across.
        out += _draw_token(ax, t, shape, (cx, cy), hit, u, table, room=2.2 * hw * per,
                           across=min(hw, hd) * 2 / table.square, badge=(cx + hw * k, cy - hd * k), foot=cy + hd * 0.8)
    return Drawing(out, ax)


def plot_open_map(bmap: BattleMapCore, ax: Axes | None = None, *, grid: bool = False, tokens: bool = True,
                  legend: bool = False, title: str | None = None, scale: float | None = None) -> Drawing:
    """A map on the open table: its walls and creatures, and a reference grid if asked (its image is not drawn).

    Parameters
    ----------
    bmap : BattleMap
        On a :class:`~aoegrid.Gridless` map.
    ax : Axes, optional
        Drawn on a new Figure, ``scale`` pixels a square, when not given.
    grid : bool
        Draw thin reference lines a square apart (:func:`plot_open_grid`).
    tokens : bool
        Draw the creatures.
    legend : bool
        Add a legend, outside the map (a Figure made here is widened to hold it).
    title : str, optional
        A title above the map.
    scale : float, optional
        Pixels a square (5 ft, 1") of a new Figure (default :func:`default_open_scale`).

    Returns
    -------
    Drawing
        ``"grid"`` (when asked), walls by kind, tokens, with ``.ax`` and ``.figure``.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Gridless(30, 20), walls=[ag.Wall((15, 0), (15, 12))], tokens=[ag.OpenToken(5, 5, name="imp")])
    >>> [a.get_label() for a in plot_open_map(m)]
    ['_table edge', 'wall', 'token imp', 'name imp']
    """
    if not isinstance(bmap, BattleMapCore):
        raise InvalidValueError(f"plot_open_map draws an aoegrid.BattleMap, got {bmap!r}")
    table = _check_table(bmap.grid, "plot_open_map")
    ax = _axes(ax, table, scale)
    out: list[Artist] = []
    if grid:
        out += plot_open_grid(table, ax)
    out.append(_table_edge(ax, table))
    out += plot_open_walls(bmap, ax)
    if tokens and bmap.tokens:
        out += plot_open_tokens(bmap.tokens, table, ax)
    return _finish_open(Drawing(out, ax), table, legend, title)


def _size(a: Any) -> str:
    """The area's legend entry: how much of the table it covers."""
    return f"area ({a.geometry.area:.0f} sq {a.table.units})"


def plot_open_area(
    a: Any,
    ax: Axes | None = None,
    *,
    color: str | None = None,
    alpha: float = 0.3,
    label: str | None = None,
    on: BattleMapCore | None = None,
    map_layers: bool = True,
    grid: bool = False,
    legend: bool = False,
    title: str | None = None,
    scale: float | None = None,
) -> Drawing:
    """An area on the open table: its exact outline tinted, the shape dashed, what walls cut away grey.

    Parameters
    ----------
    a : OpenArea
        What :func:`aoegrid.area` gives on a :class:`~aoegrid.Gridless` map.
    ax : Axes, optional
        Drawn on a new Figure, ``scale`` pixels a square, when not given.
    color : str, optional
        Colour of the area's tint and outline (default red).
    alpha : float
        Opacity of the tint; the outline is opaque.
    label : str, optional
        The area's legend entry (default ``"area (N sq ft)"``, its size).
    on : BattleMap, optional
        The map to draw underneath; by default the area's own. Must be on the area's table.
    map_layers : bool
        Draw the map (walls, creatures) underneath.
    grid : bool
        Draw thin reference lines a square (5 ft, 1") apart.
    legend : bool
        Add a legend of what was drawn, outside the map.
    title : str, optional
        A title above the map.
    scale : float, optional
        Pixels a square of a new Figure (default :func:`default_open_scale`).

    Returns
    -------
    Drawing
        Everything added, labelled: ``"area (N sq ft)"`` (the area, walls
        cut, clipped to the map: tinted, outlined solid; a line of no width
        is drawn as a thick line), ``"shape"`` (the shape's exact outline,
        uncut, dashed), ``"blocked (total cover)"`` (what of the shape on
        the map the walls keep it from: grey, dotted), ``"origin"`` (a
        cross), walls by kind, creatures as their footprints (reached ones
        ringed red, badged when in cover), ``"grid"`` and ``"legend"`` when
        asked.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Gridless(30, 20), walls=[ag.Wall((20, 0), (20, 20))],
    ...                  tokens=[ag.OpenToken(12, 10, name="orc"), ag.OpenToken(24, 10, name="elf")])
    >>> drawn = plot_open_area(ag.area(ag.Sphere(10), at=(15, 10), on=m, rules="5e"))
    >>> [x.get_label() for x in drawn if not x.get_label().startswith(("_", "name"))]
    ['wall', 'area (253 sq ft)', 'shape', 'blocked (total cover)', 'origin', 'token orc (affected)', 'token elf']
    """
    from matplotlib.collections import LineCollection
    from matplotlib.colors import to_rgba
    from matplotlib.patches import PathPatch

    if not all(hasattr(a, name) for name in ("table", "geometry", "outline")):
        raise InvalidValueError(f"plot_open_area draws what aoegrid.area gives on a Gridless map, got {a!r}")
    table = _check_table(a.table, "plot_open_area")
    bmap = on if on is not None else a.battlemap
    if bmap is not None and bmap.grid != table:
        raise GridMismatchError(f"the area is on {table!r}, the map on {bmap.grid!r}: compute the area on this map")
    ax = _axes(ax, table, scale)
    u = _unit(ax, table)
    color = color or AREA_COLORS[0]
    out: list[Artist] = []
    if map_layers and bmap is not None:
        out += plot_open_map(bmap, ax, grid=grid, tokens=False)
    else:
        out += plot_open_grid(table, ax) if grid else []
        out.append(_table_edge(ax, table))
    name = label or _size(a)
    path = _path(a.geometry)
    if path is not None:
        fill = PathPatch(path, facecolor=to_rgba(color, alpha), edgecolor=color, linewidth=_lw(u, 1.8), label=name,
                         zorder=3)
        ax.add_patch(fill)
        out.append(fill)
    else:
        # A line of no width covers no area: drawn as a thick stroke so it shows.
        stroke = LineCollection(_lines(a.geometry), colors=[to_rgba(color, max(alpha, 0.6))], linewidths=_lw(u, 4.0),
                                label=name, zorder=3)
        ax.add_collection(stroke)
        out.append(stroke)
    rings = _lines(a.outline)
    if rings:
        out.append(_dashed_shape(ax, rings, color, u))
    blocked = a.outline.intersection(table.box()).difference(a.geometry)
    path = _path(blocked)
    if path is not None and blocked.area > _SLIVER * max(a.outline.length, 1.0):
        cut = PathPatch(path, facecolor=to_rgba(*_BLOCKED), edgecolor="none", hatch="..",
                        label="blocked (total cover)", zorder=2)
        ax.add_patch(cut)
        out.append(cut)
    out.append(_cross(ax, a.origin, color, u))
    if map_layers and bmap is not None and bmap.tokens:
        out += plot_open_tokens(bmap.tokens, table, ax, affected=a.tokens(list(bmap.tokens)))
    return _finish_open(Drawing(out, ax), table, legend, title)


def open_png_bytes(obj: Any, *, scale: float | None = None) -> bytes:
    """PNG bytes of an area on the open table (:func:`plot_open_area`) or a map on one (:func:`plot_open_map`).

    For notebooks; no pyplot state is touched.

    Examples
    --------
    >>> import aoegrid as ag
    >>> open_png_bytes(ag.BattleMap(ag.Gridless(20, 10)))[:4]
    b'\\x89PNG'
    """
    drawn = plot_open_map(obj, scale=scale) if isinstance(obj, BattleMapCore) else plot_open_area(obj, scale=scale)
    return _png(drawn.figure)


def _heading(rules: Any, a: Any) -> str:
    """A panel's title: the rules' name (or ``rules`` itself) and how many creatures the area reaches."""
    name = getattr(rules, "name", rules)
    if a.battlemap is None or not a.battlemap.tokens:
        return f"{name}: {a.geometry.area:.1f} sq {a.table.units}"
    n = len(a.tokens())
    return f"{name}: {n} creature{'' if n == 1 else 's'} reached"


def compare_open(panels: Sequence[tuple[Any, Any]], *, columns: int | None = None, title: str | None = None,
                 legend: bool = True, scale: float | None = None, names: Sequence[str] | None = None) -> Drawing:
    """Areas on one open table side by side, one panel each, titled; one shared legend below.

    As :func:`aoegrid.show.hexplot.compare_hex` on hexes.

    Parameters
    ----------
    panels : sequence of (Rules or str, OpenArea)
        What each panel shows: the rules (or any name) it is titled with, and the area.
    columns : int, optional
        Panels a row (default: all in one row).
    title : str, optional
        A title over the whole picture.
    legend : bool
        One legend for every panel, below them.
    scale : float, optional
        Pixels a square of each panel (default: 360 pixels across a panel, at least 8 a square).
    names : sequence of str, optional
        Each panel's title (default: the rules' name and the creatures reached, or the area's size).

    Returns
    -------
    Drawing
        Every panel's artists; ``.ax`` is the first panel's, ``.figure`` the picture.

    Examples
    --------
    >>> import aoegrid as ag
    >>> t = ag.Gridless(30, 20)
    >>> drawn = compare_open([(r, ag.area(ag.Sphere(10), at=(15, 10), on=t, rules=r)) for r in ("5e", "pf2e")])
    >>> [t.get_text() for t in drawn if t.get_label() == "title"]
    ['5e: 314.2 sq ft', 'pf2e: 314.2 sq ft']
    """
    if not panels:
        raise InvalidValueError("compare_open needs at least one panel")
    table = _check_table(getattr(panels[0][1], "table", None), "compare_open")
    for _, a in panels[1:]:
        if getattr(a, "table", None) != table:
            raise GridMismatchError(f"compare_open draws areas on one table: {table!r} and {getattr(a, 'table', a)!r}")
    assert table.square is not None
    w, h = table.width / table.square, table.height / table.square
    scale = scale or max(8.0, 360.0 / w)
    return _panels(panels, plot_open_area, _heading, (w * scale / _DPI, h * scale / _DPI), head=0.4, key_room=0.7,
                   columns=columns, title=title, legend=legend, names=names)


__all__ = [
    "compare_open",
    "default_open_scale",
    "open_png_bytes",
    "plot_open_area",
    "plot_open_grid",
    "plot_open_map",
    "plot_open_tokens",
    "plot_open_walls",
]
