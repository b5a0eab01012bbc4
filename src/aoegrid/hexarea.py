"""Areas on hex grids: which hexes an effect covers, what walls leave of it, and whom it reaches.

:func:`aoegrid.area` comes here when ``on`` is a :class:`~aoegrid.HexGrid`
or a :class:`~aoegrid.BattleMap` on one. The presets count hexes so:

* **5e / SW5e** (DMG p. 251, "Hex grids"): a point of origin lies on an
  intersection of hexes (a corner); an area affects a hex it covers at least
  half of (``inclusion="half"``), measured exactly (:mod:`aoegrid.board.hexcells`);
  cover from the lines to a hex's six corners, 3 blocked half, 4 or more
  three-quarters.
* **Starfinder / Pathfinder / PF2e** (no official hex rules; the common
  convention): a burst from a hex corner takes the hexes within its radius
  counted in hex steps, the three hexes at the corner being the first step
  (``inclusion="far-edge"`` counts steps on hexes as it counts squares on a
  square grid); an emanation takes the hexes within its radius of the
  creature's hexes; a cone is 60 degrees wide, the hexes within its length
  whose centre lies in the 60-degree sector, turned in 30-degree steps; a
  line takes the hexes its path passes through. ``Rules.replace(inclusion=
  "center" | "half" | "touch")`` measures their shapes instead.
* **Savage Worlds**: a hex is an inch; a template affects every hex it
  touches (``inclusion="touch"``), from anywhere.
* ``inclusion="center"``: a hex whose centre the exact shape holds, as
  Foundry VTT's hex templates highlight.

Walls cut an area as on squares, where they stand at the ground (a wall
whose span holds height 0: a parapet blocks, a beam above does not; heights in
three dimensions are counted on square grids only): a hex stays where a
straight line from the origin reaches some of it (:attr:`HexArea.visible` above 0), a spread also
takes the hexes its path reaches around walls in hex steps, a line stops at
the first wall under Starfinder and Pathfinder, and a Starfinder cylinder
ignores walls.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from numpy.typing import NDArray

from aoegrid.board.battlemap import BattleMapCore, hex_footprint
from aoegrid.board.hexcells import (
    EPS,
    blocked_corners,
    fractions,
    grade,
    hex_polygons,
    polygon_fractions,
    view,
)
from aoegrid.effects.build import check_units
from aoegrid.effects.targets import Reached, _candidates, _chooser, _nearest_first, _record
from aoegrid.errors import InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.geometry.cover import Cover
from aoegrid.geometry.directions import unit_vector
from aoegrid.geometry.hexgrid import CIRCUMRADIUS, ROW_SPACING, HexGrid
from aoegrid.geometry.options import Inclusion, Mode, OriginPoint, SpaceOrigin, parse_option
from aoegrid.geometry.regions import RoundedRect, Sector
from aoegrid.geometry.rules import Rules, resolve_rules
from aoegrid.geometry.shapes import Cone, Cube, Cylinder, Line, Shape, Sphere
from aoegrid.geometry.stencils import _band, _cone_kind, _cone_region, _cube_region, _line_width
from aoegrid.geometry.tokens import Token

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from aoegrid.geometry.regions import Region

BoolArray = NDArray[np.bool_]
FloatArray = NDArray[np.float64]

#: How near a point must be to a hex corner to be on it, in hex widths.
_ON_CORNER = 1e-9
#: Half the width of a cone counted in hex steps, degrees.
_STEP_CONE_HALF = 30.0


@dataclass(frozen=True, eq=False)
class HexArea:
    """The hexes an effect covers on a hex grid (what :func:`aoegrid.area` returns there).

    Arrays are ``(height, width)``, indexed ``[row, col]``.

    Attributes
    ----------
    grid : HexGrid
    mask : bool array
        The hexes the effect covers, walls applied.
    coverage : float array
        The exact fraction of each hex the shape covers (steps-counted shapes:
        1 in, 0 out).
    visible : float array
        The fraction of each hex a straight line from the origin reaches (1
        with no walls; for an area from a creature, the most seen from one of
        its hexes' centres or its centre).
    cover : int8 array
        The rules' cover grade of each hex (:class:`aoegrid.Cover`), from the
        origin.
    path_distance : float array or None
        For a spread on a map: hex steps (times the hex size) its path takes
        around walls to each hex, ``inf`` where it cannot go.
    """

    grid: HexGrid
    mask: BoolArray
    coverage: FloatArray
    visible: FloatArray
    cover: NDArray[np.int8]
    rules: Rules
    shape: Shape
    mode: Mode
    #: The point of origin, in map coordinates (hex widths).
    origin: tuple[float, float]
    battlemap: BattleMapCore | None = None
    #: The creature the area comes from, if any.
    source: Token | None = None
    path_distance: FloatArray | None = None
    #: Hex steps from the origin to each hex (the first hexes at the origin are 1; a creature's own 0).
    steps: NDArray[np.int64] = field(default_factory=lambda: np.zeros((0, 0), np.int64), repr=False)

    def __len__(self) -> int:
        return int(self.mask.sum())

    def __contains__(self, hex: object) -> bool:
        if not (isinstance(hex, tuple) and len(hex) == 2):
            return False
        col, row = hex
        return bool(self.grid.contains(col, row)) and bool(self.mask[row, col])

    def __repr__(self) -> str:
        return (f"<HexArea {self.shape!r} at ({self.origin[0]:.4g}, {self.origin[1]:.4g}), "
                f"{self.rules.name} {self.mode.value}: {len(self)} hexes>")

    @property
    def shape_mask(self) -> BoolArray:
        """The hexes the shape takes before walls cut it (less a creature's own it leaves out)."""
        return ~np.isnan(self.visible)

    @property
    def hexes(self) -> list[tuple[int, int]]:
        """The hexes covered, ``(col, row)``, row by row."""
        rows, cols = np.nonzero(self.mask)
        return list(zip(cols.tolist(), rows.tolist(), strict=True))

    def outline(self) -> shapely.Geometry:
        """The shape's exact outline in map coordinates (arcs as fine polygons: for pictures)."""
        return _outline(_figure(self.shape, self.origin, self.rules, self.grid))

    def tokens(self, tokens: Iterable[Token] | None = None, *, exclude: Iterable[Token | str] = ()) -> list[Reached]:
        """The creatures the area reaches, nearest first: any of their hexes is in it.

        ``cover`` is the least cover among their hexes in the area;
        ``squares`` lists those hexes; ``distance`` is hex steps from the
        origin to the nearest of them, times the hex size.

        Examples
        --------
        >>> import aoegrid as ag
        >>> g = ag.HexGrid(10, 10)
        >>> m = ag.BattleMap(g, tokens=[ag.Token(4, 4, name="orc"), ag.Token(8, 8, name="imp")])
        >>> a = ag.area(ag.Sphere(10), at=g.corners(4, 4)[0], on=m, rules="5e")
        >>> [(r.token.name, r.squares, r.distance) for r in a.tokens()]
        [('orc', ((4, 4),), 5.0)]
        """
        keep = _chooser(exclude=exclude)
        out = []
        for token in _candidates(tokens, self.battlemap, "HexGrid"):
            if not keep(token):
                continue
            hexes = [(c, r) for c, r in hex_footprint(self.grid, token) if (c, r) in self]
            if not hexes:
                continue
            cover = Cover(min(int(self.cover[r, c]) for c, r in hexes))
            steps = min(int(self.steps[r, c]) for c, r in hexes)
            out.append(_record(token, cover, self.rules.cover, tuple(hexes), steps * self.grid.size))
        return _nearest_first(out)

    def to_text(self) -> str:
        """The area as text: ``#`` a hex covered, ``.`` not, ``o`` the hex at the point of origin.

        Pointy-top rows are drawn staggered as the map staggers them (the
        shoved rows one character right); flat-top columns, whose stagger is
        half a row, are drawn as plain rows and columns.

        Examples
        --------
        >>> import aoegrid as ag
        >>> g = ag.HexGrid(6, 4)
        >>> print(ag.area(ag.Sphere(5), at=g.corners(2, 1)[3], on=g, rules="starfinder").to_text())
        . . . . . .
         . . o . . .
        . . # # . .
         . . . . . .
        """
        col, row = self.grid.hex_at(*self.origin)
        lines = []
        shoved = 1 if self.grid.offset.value == "odd" else 0
        for r, hexes in enumerate(self.mask):
            cells = ["o" if (c, r) == (col, row) and on else "#" if on else "." for c, on in enumerate(hexes)]
            pad = " " if self.grid.orientation.value == "pointy" and r % 2 == shoved else ""
            lines.append(pad + " ".join(cells))
        return "\n".join(lines)

    def plot(self, ax: Axes | None = None, **kw: Any) -> Any:
        """Draw the map's hexes, the area and its creatures (:func:`aoegrid.show.hexplot.plot_hex_area`, same options).

        Returns the :class:`~aoegrid.show.plotting.Drawing` of what was drawn.
        """
        from aoegrid.show.hexplot import plot_hex_area

        return plot_hex_area(self, ax, **kw)

    def _repr_png_(self) -> bytes:
        """The picture Jupyter shows (drawn without touching pyplot's state)."""
        from aoegrid.show.hexplot import hex_png_bytes

        return hex_png_bytes(self)


def hex_area(
    shape: Shape,
    at: Any,
    on: HexGrid | BattleMapCore,
    rules: Rules | str = "starfinder",
    mode: Mode | str = "burst",
    *,
    include_origin: bool | None = None,
) -> HexArea:
    """The hexes of ``on`` that ``shape``, placed ``at`` a point or a creature, covers.

    Parameters
    ----------
    shape : Sphere, Cylinder, Cone, Line or Cube
        Sized in the grid's unit (a 5-ft hex grid: feet).
    at : (x, y) or Token
        A point in map coordinates (one unit a hex width; see
        :class:`~aoegrid.HexGrid`): a hex corner under rules whose origins are
        intersections (:meth:`HexGrid.corners`), anywhere otherwise. Or a
        creature: spheres and cylinders are then emanations from its hexes
        (Savage Worlds: a template centred on it), cones, cubes and lines
        start on the edge of its hexes in their direction (at the corner
        there under corner-origin rules).
    on : HexGrid or BattleMap on a HexGrid
    rules, mode, include_origin
        As :func:`aoegrid.area`.

    Examples
    --------
    A 5e 10-ft sphere from a hex corner takes the hexes it covers at least
    half of; Starfinder counts two hex steps from the three hexes at the
    corner:

    >>> import aoegrid as ag
    >>> g = ag.HexGrid(7, 6)
    >>> corner = g.corners(3, 2)[3]               # the bottom corner of hex (3, 2)
    >>> a = ag.area(ag.Sphere(10), at=corner, on=g, rules="5e")
    >>> b = ag.area(ag.Sphere(10), at=corner, on=g, rules="starfinder")
    >>> len(a), len(b)
    (12, 12)
    >>> for row, hexes in enumerate(a.mask.astype(int)):
    ...     print(" " * (row % 2) + " ".join(map(str, hexes)))
    0 0 0 0 0 0 0
     0 0 1 1 0 0 0
    0 0 1 1 1 0 0
     0 1 1 1 1 0 0
    0 0 1 1 1 0 0
     0 0 0 0 0 0 0
    """
    grid, bmap = _lattice(on)
    # Walls count where they stand at the ground, the origin's height: a parapet blocks, a beam
    # above does not. Heights in three dimensions are read on square grids only (the module).
    plane = None if bmap is None else bmap.full_walls(0.0, 0.0)
    rules = resolve_rules(rules)
    mode = parse_option(Mode, mode, "mode")
    if include_origin is not None and not isinstance(include_origin, bool):
        raise InvalidTypeError(f"include_origin must be True, False or None, got {include_origin!r}")
    if not isinstance(shape, (Sphere, Cylinder, Cone, Line, Cube)):
        raise InvalidTypeError(
            f"on a hex grid the shape must be an aoegrid Sphere, Cylinder, Cone, Line or Cube, got {shape!r}"
        )
    check_units(shape, rules, grid)
    rules = rules.for_shape(shape)
    source = at if isinstance(at, Token) else None
    own: list[tuple[int, int]] = []
    if source is not None:
        if bmap is not None:
            bmap._check_token(source)
        own = hex_footprint(grid, source)
        origin = _origin_from_creature(shape, source, own, rules, grid)
    else:
        origin = _point(at, grid, rules)
    # An emanation from a creature counts steps from its hexes (0 on them); anything else from
    # the hexes at its point of origin (1 on them, as the squares at an intersection are 5 ft).
    from_hexes = isinstance(shape, (Sphere, Cylinder)) and source is not None and _from_hexes(rules)
    starts = own if from_hexes else _touching(grid, origin)
    win = _Window.around(grid, origin, shape.reach / grid.size, own)
    cols, rows = win.cols, win.rows
    steps = _steps_from(grid, starts, cols, rows) + (0 if from_hexes else 1)
    inside, coverage = _included(shape, origin, rules, grid, plane, steps, cols, rows, from_hexes)
    if source is not None:
        keep = shape.name in rules.origin_included if include_origin is None else include_origin
        if not keep:
            inside &= ~win.holds(own)
    visible = np.where(inside, 1.0, np.nan)
    cover = np.where(inside, 0, -1).astype(np.int8)
    path = None
    mask = inside
    if plane is not None and plane.walls:
        points = [origin] if source is None else [origin, *(grid.center(c, r) for c, r in own)]
        views = [view(plane, p, "effect") for p in dict.fromkeys(points)]
        ic, ir = cols[inside], rows[inside]
        seen = np.max([polygon_fractions(grid, v.polygon(), ic, ir) for v in views], axis=0)
        visible[inside] = seen
        cover[inside] = grade(rules.cover, seen, blocked_corners(grid, views[0], ic, ir))
        if isinstance(shape, Cylinder) and rules.cylinder_ignores_walls:
            mask = inside
        elif mode is Mode.SPREAD:
            reach = _own_reach(origin, grid, rules, steps, cols, rows)
            radius = max(shape.reach / grid.size, float(reach[inside].max(initial=0.0)))
            open_ = steps - (0 if from_hexes else 1)
            # Paths longer than the radius plus the largest open-field count less a hex's own can count for nothing.
            slack = float(np.where(inside, open_ - reach, -np.inf).max(initial=0.0))
            # The first step, as on squares: a start hex whose centre a straight line from the origin reaches.
            first = win.holds(starts) & np.max([v.sees(*grid.center(cols, rows)) for v in views], axis=0)
            walled = _walled_steps(plane, grid, win, first, math.floor(radius + max(slack, 0.0) + EPS))
            with np.errstate(invalid="ignore"):
                detour = np.where(np.isfinite(walled), walled - open_, np.inf)
            mask = inside & ((np.nan_to_num(visible) > EPS) | (reach + detour <= radius + EPS))
            path = win.paste(walled * grid.size, np.inf)
        else:
            mask = inside & (np.nan_to_num(visible) > EPS)
    return HexArea(grid, win.paste(mask, False), win.paste(coverage, 0.0), win.paste(visible, np.nan),
                   win.paste(cover, -1), rules, shape, mode, origin, bmap, source, path,
                   win.paste(steps, np.iinfo(np.int64).max // 2))


@dataclass(frozen=True)
class _Window:
    """The rows and columns of hexes a query can reach: every array is worked out on these only."""

    grid: HexGrid
    r0: int
    c0: int
    cols: NDArray[np.int64]
    rows: NDArray[np.int64]

    @staticmethod
    def around(grid: HexGrid, origin: tuple[float, float], reach: float, own: list[tuple[int, int]]) -> _Window:
        """The hexes within ``reach`` hex widths (plus one hex) of ``origin`` or of the hexes ``own``."""
        xs = [origin[0]] + [float(grid.center(c, r)[0]) for c, r in own]
        ys = [origin[1]] + [float(grid.center(c, r)[1]) for c, r in own]
        pad = reach + 1.5
        w, h = grid.extent
        x0, x1 = max(min(xs) - pad, 0.0), min(max(xs) + pad, w)
        y0, y1 = max(min(ys) - pad, 0.0), min(max(ys) + pad, h)
        # A hex's centre lies within a hex width of where its column and row put it: neighbouring
        # columns (rows) are 1 apart across the flats and ROW_SPACING the other way.
        dx, dy = (1.0, ROW_SPACING) if grid.orientation.value == "pointy" else (ROW_SPACING, 1.0)
        c0 = max(math.floor((x0 - 1.0) / dx) - 1, 0)
        c1 = min(math.ceil((x1 + 1.0) / dx) + 1, grid.width)
        r0 = max(math.floor((y0 - 1.0) / dy) - 1, 0)
        r1 = min(math.ceil((y1 + 1.0) / dy) + 1, grid.height)
        rows, cols = np.mgrid[r0:r1, c0:c1].astype(np.int64)
        return _Window(grid, r0, c0, cols, rows)

    def holds(self, hexes: list[tuple[int, int]]) -> BoolArray:
        """Which of the window's hexes are among ``hexes``."""
        out = np.zeros(self.cols.shape, dtype=bool)
        h, w = out.shape
        for c, r in hexes:
            if 0 <= r - self.r0 < h and 0 <= c - self.c0 < w:
                out[r - self.r0, c - self.c0] = True
        return out

    def paste(self, values: NDArray[Any], fill: Any) -> NDArray[Any]:
        """``values`` (window-shaped) in a map-shaped array filled with ``fill`` elsewhere."""
        out = np.full(self.grid.shape, fill, dtype=values.dtype)
        h, w = values.shape
        out[self.r0:self.r0 + h, self.c0:self.c0 + w] = values
        return out


def _lattice(on: Any) -> tuple[HexGrid, BattleMapCore | None]:
    if isinstance(on, HexGrid):
        return on, None
    if isinstance(on, BattleMapCore) and isinstance(on.grid, HexGrid):
        return on.grid, on
    raise InvalidTypeError(f"a hex area is placed on an aoegrid.HexGrid or a BattleMap on one, got {on!r}")


def _point(at: Any, grid: HexGrid, rules: Rules) -> tuple[float, float]:
    """``at`` as a point of origin the rules allow on ``grid``."""
    try:
        x, y = (float(v) for v in np.asarray(at, dtype=np.float64).reshape(2))
    except (TypeError, ValueError):
        raise InvalidTypeError(f"at must be a point (x, y) in hex map coordinates or a Token, got {at!r}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise InvalidValueError(f"the point of origin must be finite, got ({x!r}, {y!r})")
    w, h = grid.extent
    if not (-EPS <= x <= w + EPS and -EPS <= y <= h + EPS):
        raise OffGridError(f"origin ({x:g}, {y:g}) is off the {grid.width} x {grid.height} hex map "
                           f"(0..{w:.4g} x 0..{h:.4g} in hex widths)")
    if rules.hex_origin is OriginPoint.INTERSECTION:
        corner = nearest_corner(grid, (x, y))
        if math.dist(corner, (x, y)) > _ON_CORNER:
            raise InvalidValueError(
                f"{rules.name} points of origin are hex corners (intersections); ({x:g}, {y:g}) is not one: "
                f"the nearest is ({corner[0]:.6g}, {corner[1]:.6g}) (see HexGrid.corners, or "
                f"Rules.replace(hex_origin='any'))"
            )
        return corner
    return x, y


def nearest_corner(grid: HexGrid, p: tuple[float, float]) -> tuple[float, float]:
    """The hex corner nearest point ``p`` (of the hex holding it, which holds the nearest corner).

    Examples
    --------
    >>> [round(v, 9) for v in nearest_corner(HexGrid(4, 4), (0.55, 0.02))]
    [0.5, 0.0]
    """
    col, row = grid.hex_at(p[0], p[1])
    c = grid.corners(col, row)
    k = int(np.argmin(np.hypot(c[:, 0] - p[0], c[:, 1] - p[1])))
    return float(c[k, 0]), float(c[k, 1])


def _touching(grid: HexGrid, p: tuple[float, float]) -> list[tuple[int, int]]:
    """The hexes on the map whose closed outline holds point ``p``: 1 inside, 2 on an edge, 3 at a corner."""
    col, row = grid.hex_at(p[0], p[1])
    near = [(int(col), int(row)), *grid.neighbours(int(col), int(row))]
    cols, rows = np.array(near).T
    polys = hex_polygons(grid, cols, rows)
    d = shapely.distance(polys, shapely.Point(p))
    hit = [h for h, dd in zip(near, d, strict=True) if dd <= _ON_CORNER and grid.contains(*h)]
    return hit or [(int(col), int(row))]


def _steps_from(grid: HexGrid, starts: list[tuple[int, int]], cols: NDArray[Any], rows: NDArray[Any]) -> NDArray[np.int64]:
    """Hex steps from the nearest of ``starts`` to each hex."""
    out = np.full(cols.shape, np.iinfo(np.int64).max // 2, dtype=np.int64)
    for c, r in starts:
        np.minimum(out, grid.distance((c, r), (cols, rows)), out=out)
    return out


def _from_hexes(rules: Rules) -> bool:
    """Whether a sphere from a creature is counted in hex steps from its hexes (else a circle about its centre)."""
    return rules.inclusion is Inclusion.FAR_EDGE or rules.from_space is SpaceOrigin.EDGES


def _origin_from_creature(shape: Shape, token: Token, own: list[tuple[int, int]], rules: Rules,
                          grid: HexGrid) -> tuple[float, float]:
    """Where an area from ``token`` starts: its centre, or the edge of its hexes in the shape's direction."""
    centre = grid.footprint_center(token.x, token.y, token.footprint[0])
    if isinstance(shape, (Sphere, Cylinder)):
        return centre
    body = shapely.union_all(hex_polygons(grid, *np.array(own).T))
    d = unit_vector(float(shape.direction))
    far = 4 * math.hypot(*grid.extent) + 4
    ray = shapely.LineString([centre, (centre[0] + far * d[0], centre[1] + far * d[1])])
    exit_ = shapely.intersection(ray, body.exterior)
    pts = shapely.get_coordinates(exit_)
    k = int(np.argmax(np.hypot(pts[:, 0] - centre[0], pts[:, 1] - centre[1])))
    x, y = float(pts[k, 0]), float(pts[k, 1])
    if rules.hex_origin is OriginPoint.INTERSECTION:
        ring = shapely.get_coordinates(body.exterior)
        k = int(np.argmin(np.hypot(ring[:, 0] - x, ring[:, 1] - y)))
        return float(ring[k, 0]), float(ring[k, 1])
    return x, y


def _figure(shape: Shape, origin: tuple[float, float], rules: Rules, grid: HexGrid,
            stop: float = math.inf) -> Region:
    """The exact outline of ``shape`` from ``origin``, in hex widths."""
    ox, oy = origin
    size = grid.size
    if isinstance(shape, (Sphere, Cylinder)):
        r = shape.radius / size
        return RoundedRect(ox, oy, ox, oy, r)
    direction = float(shape.direction)
    d = unit_vector(direction)
    if isinstance(shape, Cone):
        if rules.inclusion is Inclusion.FAR_EDGE and shape.kind is None:
            return Sector(ox, oy, shape.length / size, direction, _STEP_CONE_HALF, d)
        return _cone_region(_cone_kind(shape, rules), origin, d, direction, shape.length / size)
    if isinstance(shape, Line):
        half = _line_width(shape, rules) / size / 2
        return _band(origin, d, half, min(shape.length / size, stop))
    assert isinstance(shape, Cube)
    return _cube_region(shape, origin, d, size)


def _outline(fig: Region) -> shapely.Geometry:
    from aoegrid.board.hexcells import parts

    pieces = []
    # Negative parts are overlaps counted twice, not holes: the union of the positive ones is the figure.
    for sign, poly, disk in parts(fig):
        if sign < 0:
            continue
        g = poly if disk is None else shapely.Point(disk[:2]).buffer(disk[2], quad_segs=64)
        if poly is not None and disk is not None:
            g = shapely.intersection(poly, g)
        pieces.append(g)
    return shapely.union_all(pieces)


def _included(shape: Shape, origin: tuple[float, float], rules: Rules, grid: HexGrid, bmap: BattleMapCore | None,
              steps: NDArray[np.int64], cols: NDArray[Any], rows: NDArray[Any],
              from_hexes: bool) -> tuple[BoolArray, FloatArray]:
    """The hexes the shape takes with no walls (a line stopped at its first wall), their covered fractions."""
    stop = math.inf
    if isinstance(shape, Line) and rules.line_stops_at_wall and bmap is not None and bmap.walls:
        vis = view(bmap, origin, "effect")
        stop = vis.reach(math.radians(float(shape.direction)))
    if from_hexes or (rules.inclusion is Inclusion.FAR_EDGE and isinstance(shape, (Sphere, Cylinder))):
        n = math.floor(shape.reach / grid.size + EPS)
        inside = steps <= n
        return inside, inside.astype(np.float64)
    fig = _figure(shape, origin, rules, grid, stop)
    near = _meeting(grid, fig.bounds, cols, rows)
    cov = np.zeros(cols.shape)
    cov[near] = fractions(grid, fig, cols[near], rows[near])
    inc = rules.inclusion
    if inc is Inclusion.HALF:
        inside = cov >= 0.5 - EPS
    elif inc is Inclusion.TOUCH:
        inside = cov > EPS
    elif inc is Inclusion.CENTER or isinstance(shape, Cube):
        cx, cy = grid.center(cols, rows)
        inside = np.asarray(fig.contains(cx, cy)) & near
    elif isinstance(shape, Line):
        inside = _path_hexes(grid, origin, shape, min(shape.length / grid.size, stop), cols, rows, near)
    else:
        # A cone counted in steps: within its length, centre in the 60-degree sector.
        n = math.floor(shape.reach / grid.size + EPS)
        cx, cy = grid.center(cols, rows)
        inside = (steps <= n) & _in_wedge(fig, cx, cy)
    return inside, cov


def _in_wedge(fig: Region, cx: FloatArray, cy: FloatArray) -> BoolArray:
    assert isinstance(fig, Sector)
    far = Sector(fig.cx, fig.cy, math.inf, fig.direction, fig.half_angle, fig.axis)
    return np.asarray(far.contains(cx, cy))


def _meeting(grid: HexGrid, bounds: tuple[float, float, float, float], cols: NDArray[Any],
             rows: NDArray[Any]) -> BoolArray:
    """Which hexes' bounding boxes meet ``bounds``: where a figure there can cover anything."""
    cx, cy = grid.center(cols, rows)
    x0, y0, x1, y1 = bounds
    return (cx + 0.5 >= x0) & (cx - 0.5 <= x1) & (cy + CIRCUMRADIUS >= y0) & (cy - CIRCUMRADIUS <= y1)


def _path_hexes(grid: HexGrid, origin: tuple[float, float], shape: Line, run: float,
                cols: NDArray[Any], rows: NDArray[Any], near: BoolArray) -> BoolArray:
    """The hexes whose inside a line's path crosses (for more than a touch)."""
    d = unit_vector(float(shape.direction))
    path = shapely.LineString([origin, (origin[0] + run * d[0], origin[1] + run * d[1])])
    out = np.zeros(cols.shape, dtype=bool)
    polys = hex_polygons(grid, cols[near], rows[near])
    out[near] = shapely.length(shapely.intersection(polys, path)) > EPS
    return out


def _own_reach(origin: tuple[float, float], grid: HexGrid, rules: Rules, steps: NDArray[np.int64],
               cols: NDArray[Any], rows: NDArray[Any]) -> FloatArray:
    """How far each hex lies from the origin by the rules' count, in hex widths (for spreads)."""
    if rules.inclusion is Inclusion.FAR_EDGE:
        return steps.astype(np.float64)
    cx, cy = grid.center(cols, rows)
    return np.hypot(cx - origin[0], cy - origin[1])


def _walled_steps(bmap: BattleMapCore, grid: HexGrid, win: _Window, first: BoolArray, limit: int) -> FloatArray:
    """Hex steps from the ``first`` hexes, never crossing a wall between hex centres, up to ``limit`` steps."""
    h, w = first.shape
    moves = []
    for k in range(6):
        nc, nr = grid.step(win.cols, win.rows, k)
        nc, nr = nc - win.c0, nr - win.r0
        ok = (nc >= 0) & (nc < w) & (nr >= 0) & (nr < h)
        moves.append((ok, np.where(ok, nr, 0), np.where(ok, nc, 0)))
    blocked = _blocked_moves(bmap, grid, win, moves)
    out = np.where(first, 0.0, np.inf)
    frontier = first.copy()
    for n in range(1, limit + 1):
        reached = np.zeros_like(frontier)
        for (ok, nr, nc), stop in zip(moves, blocked, strict=True):
            go = frontier & ok & ~stop
            reached[nr[go], nc[go]] = True
        frontier = reached & np.isinf(out)
        if not frontier.any():
            break
        out[frontier] = n
    return out


def _blocked_moves(bmap: BattleMapCore, grid: HexGrid, win: _Window,
                   moves: list[tuple[BoolArray, NDArray[np.int64], NDArray[np.int64]]]) -> list[BoolArray]:
    """Per neighbour direction, which of the window's steps a wall blocking effects crosses (centre to centre)."""
    cx, cy = grid.center(win.cols, win.rows)
    frame = (float(cx.min()) - 1, float(cy.min()) - 1, float(cx.max()) + 1, float(cy.max()) + 1)
    segs = bmap.walls_near("effect", frame).near(frame)[0]
    if not len(segs):
        return [np.zeros(win.cols.shape, dtype=bool) for _ in moves]
    tree = shapely.STRtree(shapely.linestrings(segs.reshape(-1, 2, 2)))
    out = []
    for ok, nr, nc in moves:
        a = np.stack([cx[ok], cy[ok]], axis=-1)
        b = np.stack([cx[nr[ok], nc[ok]], cy[nr[ok], nc[ok]]], axis=-1)
        hit, _ = tree.query(shapely.linestrings(np.stack([a, b], axis=1)), predicate="intersects")
        stop = np.zeros(int(ok.sum()), dtype=bool)
        stop[hit] = True
        full = np.zeros(win.cols.shape, dtype=bool)
        full[ok] = stop
        out.append(full)
    return out


__all__ = ["HexArea", "hex_area", "nearest_corner"]
