"""Pictures of hex maps and the areas on them, in the look of :mod:`aoegrid.show.plotting`.

The same conventions as the square pictures: matplotlib is imported inside
the functions only (pyplot never); each function draws on the Axes it is
given, or on a new :class:`matplotlib.figure.Figure`, and returns a
:class:`~aoegrid.show.plotting.Drawing` of the labelled artists it added. Map
coordinates are the hex grid's (one unit a hex width, y down); the Axes'
limits are the map's :attr:`~aoegrid.HexGrid.extent`. Marker, text and line
sizes follow the picture's pixels a hex width (``scale``), as the square
pictures' follow its pixels a square. Walls, cover badges, blocked hexes,
tokens and legends are styled as :func:`aoegrid.show.plotting.plot_area` styles
them on squares.

Examples
--------
>>> import aoegrid as ag
>>> from aoegrid.show.hexplot import plot_hex_area
>>> g = ag.HexGrid(9, 7)
>>> a = ag.area(ag.Sphere(10), at=g.corners(4, 3)[0], on=g, rules="5e")
>>> drawn = plot_hex_area(a)
>>> [x.get_label() for x in drawn if not x.get_label().startswith("_")]
['grid', 'area (12 hexes)', 'shape', 'origin']
>>> drawn.ax.get_xlim() == (0.0, g.extent[0]), drawn.figure is drawn.ax.figure
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from aoegrid.board.battlemap import BattleMapCore, hex_footprint
from aoegrid.board.hexcells import hex_polygons
from aoegrid.errors import GridMismatchError, InvalidValueError
from aoegrid.geometry.hexgrid import HexGrid
from aoegrid.show.plotting import (
    _DPI,
    _GRID_COLOR,
    AREA_COLORS,
    COVER_BADGES,
    Drawing,
    _affected,
    _blocked_cells,
    _cover_badges,
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

#: A cover badge's side on a hex, as a fraction of its size on a square (a 120-degree corner
#: holds a diamond of about the area of the square's corner triangle).
_BADGE_SIDE = 0.75
#: A token's disc radius, in hex widths, for each hex it is across.
_TOKEN_RADIUS = 0.4
#: Coordinates are rounded to this before hexes are merged into one outline, so shared
#: corners computed from two neighbouring centres meet exactly.
_SNAP = 1e-9


def default_hex_scale(grid: HexGrid) -> float:
    """Pixels a hex width of a new picture: 24, more for small maps so they are at least 800 pixels across.

    Tall maps are held to about 1,200 pixels high, as :func:`aoegrid.show.plotting.default_scale`.

    Examples
    --------
    >>> import aoegrid as ag
    >>> default_hex_scale(ag.HexGrid(10, 12)), default_hex_scale(ag.HexGrid(40, 30))
    (76.19047619047619, 24.0)
    """
    w, h = grid.extent
    return max(24.0, min(800.0 / w, 1200.0 / h))


def _check_grid(grid: Any, what: str) -> HexGrid:
    if not isinstance(grid, HexGrid):
        raise InvalidValueError(
            f"{what} draws on an aoegrid.HexGrid (or a BattleMap on one), got {grid!r}: aoegrid.show.plotting draws square grids"
        )
    return grid


def _axes(ax: Axes | None, grid: HexGrid, scale: float | None = None) -> Axes:
    """The Axes to draw on, set up for a hex map: equal aspect, y down, limits the map's extent."""
    return _map_axes(ax, grid.extent, grid.extent, default_hex_scale(grid) if scale is None else scale)


def _unit(ax: Axes, grid: HexGrid) -> float:
    """Points a hex width on this Axes: every marker, text and line is sized from it."""
    return _points(ax, grid.extent)


def _corners(grid: HexGrid, mask: np.ndarray) -> np.ndarray:
    """The six corners of each hex of ``mask``, row by row: shape ``(n, 6, 2)``."""
    rows, cols = np.nonzero(mask)
    return np.asarray(grid.corners(cols, rows)).reshape(-1, 6, 2)


def _rings(geometry: Any) -> list[np.ndarray]:
    """Every ring (outer and hole) of a shapely (multi)polygon, as ``(n, 2)`` closed vertex arrays."""
    out = []
    for poly in shapely.get_parts(geometry):
        if poly.is_empty or not isinstance(poly, shapely.Polygon):
            continue
        out.append(np.asarray(poly.exterior.coords))
        out += [np.asarray(r.coords) for r in poly.interiors]
    return out


def hex_outline(grid: HexGrid, mask: np.ndarray) -> list[np.ndarray]:
    """The outline of the union of the hexes of ``mask`` (``[row, col]``): its rings, closed, in map coordinates.

    One ring for each separate patch of hexes and one for each hole in one.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(5, 5)
    >>> [len(r) - 1 for r in hex_outline(g, g.hexes_within((2, 2), 1))]   # 7 hexes: 18 corners
    [18]
    >>> [len(r) - 1 for r in hex_outline(g, g.ring((2, 2), 1))]           # a ring of 6: outside and hole
    [18, 6]
    """
    rows, cols = np.nonzero(mask)
    if not rows.size:
        return []
    return _rings(shapely.union_all(hex_polygons(grid, cols, rows), grid_size=_SNAP))


def plot_hex_grid(grid: HexGrid, ax: Axes | None = None, *, color: str = _GRID_COLOR,
                  scale: float | None = None) -> Drawing:
    """Every hex of the map outlined in thin lines: one polygon a hex, labelled ``"grid"``.

    Examples
    --------
    >>> import aoegrid as ag
    >>> [(c.get_label(), len(c.get_paths())) for c in plot_hex_grid(ag.HexGrid(6, 4))]
    [('grid', 24)]
    """
    from matplotlib.collections import PolyCollection

    grid = _check_grid(grid, "plot_hex_grid")
    ax = _axes(ax, grid, scale)
    coll = PolyCollection(_corners(grid, np.ones(grid.shape, bool)), facecolors="none", edgecolors=color,
                          linewidths=_lw(_unit(ax, grid), 0.5), label="grid", zorder=1)
    ax.add_collection(coll)
    return Drawing([coll], ax)


def plot_hex_walls(bmap: BattleMapCore, ax: Axes | None = None) -> Drawing:
    """The map's walls (in map coordinates): doors, open doors, windows and one-way walls each distinct.

    Styled as :func:`aoegrid.show.plotting.plot_walls` styles them (:data:`aoegrid.show.plotting.WALL_STYLES`),
    one collection a kind, labelled with it.
    """
    grid = _check_grid(bmap.grid, "plot_hex_walls")
    ax = _axes(ax, grid)
    return Drawing(_draw_walls(ax, bmap, _unit(ax, grid)), ax)


def plot_hex_tokens(tokens: Sequence[Any], grid: HexGrid, ax: Axes | None = None, *,
                    affected: Iterable[Any] = ()) -> Drawing:
    """Tokens as discs on the centre of their hexes, sized to them, named; affected ones ringed, cover badged.

    A creature ``n`` hexes across (:func:`aoegrid.board.battlemap.hex_footprint`)
    is a disc ``0.4 n`` hex widths in radius on
    :meth:`HexGrid.footprint_center`, labelled ``"token NAME"`` (``" (affected)"``
    when ``affected`` holds it: ringed red). Names, cover badges (``"cover
    badge NAME"``) and elevation badges (``"elevation NAME"``) as
    :func:`aoegrid.show.plotting.plot_tokens` draws them.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(6, 5)
    >>> drawn = plot_hex_tokens([ag.Token(2, 2, name="ogre", size="large")], g)
    >>> disc = drawn[0]
    >>> disc.get_label(), disc.center == g.footprint_center(2, 2, 2), round(disc.radius, 2)
    ('token ogre', True, 0.8)
    """
    from matplotlib.patches import Circle

    grid = _check_grid(grid, "plot_hex_tokens")
    ax = _axes(ax, grid)
    u = _unit(ax, grid)
    hit = _affected(affected)
    out: list[Artist] = []
    for t in tokens:
        hex_footprint(grid, t)  # refuses a footprint that is not a number of hexes across
        n = t.footprint[0]
        cx, cy = grid.footprint_center(t.x, t.y, n)
        r = _TOKEN_RADIUS * n
        disc = Circle((cx, cy), r, **_token_style(t, hit, u))
        out += _draw_token(ax, t, disc, (cx, cy), hit, u, grid, room=2.2 * n * u, across=n,
                           badge=(cx + r * 0.75, cy - r * 0.75), foot=cy + r * 0.8)
    return Drawing(out, ax)


def plot_hex_map(bmap: BattleMapCore, ax: Axes | None = None, *, grid: bool = True, tokens: bool = True,
                 legend: bool = False, title: str | None = None, scale: float | None = None) -> Drawing:
    """A map on a hex grid: its hexes, walls and tokens (its image, if any, is not drawn).

    Parameters
    ----------
    bmap : BattleMap
        On a :class:`~aoegrid.HexGrid`.
    ax : Axes, optional
        Drawn on a new Figure, ``scale`` pixels a hex width, when not given.
    grid, tokens : bool
        Draw the hexes' outlines, the tokens.
    legend : bool
        Add a legend, outside the map (a Figure made here is widened to hold it).
    title : str, optional
        A title above the map.
    scale : float, optional
        Pixels a hex width of a new Figure (default :func:`default_hex_scale`).

    Returns
    -------
    Drawing
        ``"grid"``, walls by kind, tokens, with ``.ax`` and ``.figure``.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.HexGrid(6, 4), walls=[ag.Wall((3, 0), (3, 3))], tokens=[ag.Token(1, 1, name="imp")])
    >>> [a.get_label() for a in plot_hex_map(m)]
    ['grid', 'wall', 'token imp', 'name imp']
    """
    if not isinstance(bmap, BattleMapCore):
        raise InvalidValueError(f"plot_hex_map draws an aoegrid.BattleMap, got {bmap!r}")
    g = _check_grid(bmap.grid, "plot_hex_map")
    ax = _axes(ax, g, scale)
    out: list[Artist] = []
    if grid:
        out += plot_hex_grid(g, ax)
    out += plot_hex_walls(bmap, ax)
    if tokens and bmap.tokens:
        out += plot_hex_tokens(bmap.tokens, g, ax)
    return _finish(Drawing(out, ax), legend, title)


def _badge(grid: HexGrid, corners: np.ndarray, size: float) -> np.ndarray:
    """Diamonds in the upper-right corner of each hex, their sides along the hex's, as much of a hex as a square's badge.

    ``size`` is the square pictures' badge size (:data:`aoegrid.show.plotting.COVER_BADGES`): a triangle
    that fraction of a square along each side; the diamond's sides are three quarters of it, so it
    covers about the same share of its hex.
    """
    # The upper-right corner: the second of a pointy-top hex's (from the top), the last of a flat-top one's.
    k = 1 if grid.orientation == "pointy" else 5
    apex = corners[:, k]
    steps = [other - apex for other in (corners[:, (k - 1) % 6], corners[:, (k + 1) % 6])]
    a, b = (d * (_BADGE_SIDE * size / np.hypot(d[:, :1], d[:, 1:])) for d in steps)
    return np.stack([apex, apex + a, apex + a + b, apex + b], axis=1)


def plot_hex_area(
    a: Any,
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
) -> Drawing:
    """An area on a hex grid: its hexes tinted, their union outlined, cover badged, blocked hexes shown.

    Parameters
    ----------
    a : HexArea
        What :func:`aoegrid.area` gives on a :class:`~aoegrid.HexGrid`.
    ax : Axes, optional
        Drawn on a new Figure, ``scale`` pixels a hex width, when not given.
    color : str, optional
        Colour of the area's tint and outline (default red).
    alpha : float
        Opacity of the tint; the outline is opaque.
    label : str, optional
        The area's legend entry (default ``"area (N hexes)"``).
    on : BattleMap, optional
        The map to draw underneath; by default the area's own. Must be on the area's grid.
    map_layers : bool
        Draw the map (hexes, walls, tokens) underneath.
    legend : bool
        Add a legend of what was drawn, outside the map.
    title : str, optional
        A title above the map.
    scale : float, optional
        Pixels a hex width of a new Figure (default :func:`default_hex_scale`).

    Returns
    -------
    Drawing
        Everything added, labelled: ``"area (N hexes)"`` (one tinted
        polygon a hex), ``"_area outline"`` (the rings of the union of the
        hexes, solid), ``"partial cover"`` and ``"three-quarters cover"``
        (diamonds in the hexes' upper-right corners: white, and larger
        black), ``"blocked (total cover)"`` (hexes of the shape the walls
        keep it from: grey, dotted), ``"shape"`` (the exact shape,
        dashed), ``"origin"`` (a cross on the point, or the creature's
        hexes outlined dashed), walls by kind, tokens (affected ones
        ringed, badged when in cover), ``"legend"``.
    """
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.colors import to_rgba

    if not all(hasattr(a, name) for name in ("grid", "mask")):
        raise InvalidValueError(f"plot_hex_area draws what aoegrid.area gives on a HexGrid, got {a!r}")
    grid = _check_grid(a.grid, "plot_hex_area")
    bmap = on if on is not None else a.battlemap
    if bmap is not None and bmap.grid != grid:
        raise GridMismatchError(f"the area is on {grid!r}, the map on {bmap.grid!r}: compute the area on this map")
    ax = _axes(ax, grid, scale)
    u = _unit(ax, grid)
    color = color or AREA_COLORS[0]
    out: list[Artist] = []
    if map_layers:
        out += plot_hex_map(bmap, ax, tokens=False) if bmap is not None else plot_hex_grid(grid, ax)
    # Each hex tinted, its own edges faint so the hexes can be counted; their union outlined in full.
    fill = PolyCollection(_corners(grid, a.mask), facecolors=[to_rgba(color, alpha)],
                          edgecolors=[to_rgba(color, 0.45)], linewidths=_lw(u, 0.6),
                          label=label or f"area ({len(a)} hexes)", zorder=2)
    ax.add_collection(fill)
    out.append(fill)
    # Unclipped: the map's edge would halve the outline of hexes along it.
    edge = LineCollection(hex_outline(grid, a.mask), colors=color, linewidths=_lw(u, 1.8), label="_area outline",
                          zorder=3, clip_on=False)
    ax.add_collection(edge)
    out.append(edge)
    if a.battlemap is not None:
        for grade, (_, size, _, _) in COVER_BADGES.items():
            in_cover = (a.cover == grade) & a.mask
            if in_cover.any():
                # A corner badge in black and white reads over any floor, as on squares.
                out.append(_cover_badges(ax, _badge(grid, _corners(grid, in_cover), size), grade, u))
        blocked = a.shape_mask & ~a.mask
        if blocked.any():
            out.append(_blocked_cells(ax, _corners(grid, blocked)))
    rings = _rings(a.outline())
    if rings:
        out.append(_dashed_shape(ax, rings, color, u))
    if a.source is not None:
        own = np.zeros(grid.shape, bool)
        for c, r in hex_footprint(grid, a.source):
            if grid.contains(c, r):
                own[r, c] = True
        mark: Artist = LineCollection(hex_outline(grid, own), colors=color, linewidths=_lw(u, 2.0), linestyles="--",
                                      label="origin", zorder=6)
        ax.add_collection(mark)
    else:
        mark = _cross(ax, a.origin, color, u)
    out.append(mark)
    if map_layers and bmap is not None and bmap.tokens:
        out += plot_hex_tokens(bmap.tokens, grid, ax, affected=a.tokens(list(bmap.tokens)))
    return _finish(Drawing(out, ax), legend, title)


def hex_png_bytes(obj: Any, *, scale: float | None = None) -> bytes:
    """PNG bytes of an area on hexes (:func:`plot_hex_area`) or a map on a hex grid (:func:`plot_hex_map`), for notebooks.

    No pyplot state is touched.

    Examples
    --------
    >>> import aoegrid as ag
    >>> hex_png_bytes(ag.BattleMap(ag.HexGrid(4, 3)))[:4]
    b'\\x89PNG'
    """
    drawn = plot_hex_map(obj, scale=scale) if isinstance(obj, BattleMapCore) else plot_hex_area(obj, scale=scale)
    return _png(drawn.figure)


def _panel_scale(grid: HexGrid) -> float:
    """Pixels a hex width of a panel beside others: 360 pixels across, at least 8 a hex."""
    return max(8.0, 360.0 / grid.extent[0])


def _heading(rules: Any, a: Any) -> str:
    """A panel's title: the rules' name (or ``rules`` itself), the count and how the rules count hexes."""
    if hasattr(rules, "inclusion"):
        return f"{rules.name}: {len(a)} hexes\n{rules.inclusion.value}"
    return f"{rules}: {len(a)} hexes"


def compare_hex(panels: Sequence[tuple[Any, Any]], *, columns: int | None = None, title: str | None = None,
                legend: bool = True, scale: float | None = None, names: Sequence[str] | None = None) -> Drawing:
    """Areas on one hex grid side by side, one panel each, titled with their count; one shared legend below.

    As :func:`aoegrid.show.plotting.compare` on squares.

    Parameters
    ----------
    panels : sequence of (Rules or str, HexArea)
        What each panel shows: the rules (or any name) it is titled with, and the area.
    columns : int, optional
        Panels a row (default: all in one row).
    title : str, optional
        A title over the whole picture.
    legend : bool
        One legend for every panel, below them.
    scale : float, optional
        Pixels a hex width of each panel (default: 360 pixels across a panel, at least 8 a hex).
    names : sequence of str, optional
        Each panel's title (default: the rules' name, the count, how hexes are counted).

    Returns
    -------
    Drawing
        Every panel's artists; ``.ax`` is the first panel's, ``.figure`` the picture.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(9, 7)
    >>> at = g.corners(4, 3)[0]
    >>> drawn = compare_hex([(r, ag.area(ag.Sphere(10), at=at, on=g, rules=r)) for r in ("5e", "starfinder")])
    >>> [t.get_text().splitlines()[0] for t in drawn if t.get_label() == "title"]
    ['5e: 12 hexes', 'starfinder: 12 hexes']
    """
    if not panels:
        raise InvalidValueError("compare_hex needs at least one panel")
    grid = _check_grid(getattr(panels[0][1], "grid", None), "compare_hex")
    for _, a in panels[1:]:
        if getattr(a, "grid", None) != grid:
            raise GridMismatchError(f"compare_hex draws areas on one hex grid: {grid!r} and {getattr(a, 'grid', a)!r}")
    scale = scale or _panel_scale(grid)
    w, h = grid.extent
    return _panels(panels, plot_hex_area, _heading, (w * scale / _DPI, h * scale / _DPI), head=0.5, key_room=0.7,
                   columns=columns, title=title, legend=legend, names=names)


__all__ = [
    "compare_hex",
    "default_hex_scale",
    "hex_outline",
    "hex_png_bytes",
    "plot_hex_area",
    "plot_hex_grid",
    "plot_hex_map",
    "plot_hex_tokens",
    "plot_hex_walls",
]
