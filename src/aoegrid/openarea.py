"""Areas on the open table: exact outlines, walls, and whom they reach.

On a :class:`~aoegrid.geometry.gridless.Gridless` map there are no cells: an area is
the shape's exact outline in map units (a shapely geometry), cut by walls,
and a creature (:class:`~aoegrid.geometry.gridless.OpenToken`) is reached when its
footprint meets the area by the rules' inclusion:

* ``touch``: any overlap (Savage Worlds: "any target even partially beneath
  the template"). Sets are closed: a footprint whose edge lies on the
  area's edge is touched (on squares ``touch`` wants covered area > 0; the
  two differ only on placements of measure zero, and closed sets make the
  best placements attainable, see :func:`open_best_placements`);
* ``center``: its centre inside (Foundry VTT's default);
* ``half``: at least half of its footprint inside;
* ``far-edge`` (Starfinder, Pathfinder) is about squares' far corners; on
  the open table it reads as ``center`` (pass ``inclusion=`` to choose).

Walls: a burst or emanation takes what a straight line from its origin
reaches (the visibility polygon, :meth:`aoegrid.BattleMap.visibility`); a
spread also reaches around corners within its radius, by geodesic distance
around the walls: from every wall end it reaches (shortest paths around
walls bend only at wall ends), with the radius left, it takes the disk of
that radius seen from there (:func:`spread_geometry`); a cylinder under
rules where it ignores obstructions (Starfinder) is not cut. Areas are
clipped to the map.

Exactness: circles are polygons of :data:`aoegrid.geometry.gridless.QUAD_SEGS`
sides a quarter turn (their sides stray under 2e-5 of the radius inside the
true circle). Where no wall cuts a disk-shaped area, reach, inclusion and
half shares for circular footprints are computed exactly from centres and
radii; elsewhere shapely's answers on those polygons, with a tolerance of
2e-5 of the radii, decide. Point tests (``center``, :meth:`OpenArea.raster`)
use the exact figures of :mod:`aoegrid.geometry.regions` and
:meth:`aoegrid.board.visibility.Visibility.sees` for bursts.

Heights: a creature fills the prism from its elevation to its top
(:meth:`OpenToken.prism`). A sphere at elevation ``z`` meets it where its
slice at the nearest height is (a disk of ``sqrt(R**2 - dz**2)``); a
cylinder (dropping from ``z`` when the rules say so, else rising) and a cube
(rising from ``z``) only when their heights meet the prism. Cones and lines
are taken as columns (not yet cut by height); pitched ones are refused.
"""

from __future__ import annotations

import builtins
import heapq
import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from aoegrid.board.battlemap import BattleMapCore
from aoegrid.board.visibility import OriginOnWallError, Visibility
from aoegrid.effects.targets import (
    Reached,
    _candidates,
    _check_limit,
    _chooser,
    _nearest_first,
    _record,
)
from aoegrid.errors import IllegalOriginError, InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.geometry._validate import point, positive, real
from aoegrid.geometry.cover import Cover, CoverRule
from aoegrid.geometry.directions import right_normal, unit_vector
from aoegrid.geometry.gridless import Footprint, Gridless, OpenToken, circle
from aoegrid.geometry.options import Inclusion, Mode, parse_option
from aoegrid.geometry.regions import EPS, ConvexPolygon, Region, RoundedRect
from aoegrid.geometry.rules import Rules, resolve_rules
from aoegrid.geometry.shapes import Cone, Cube, Cylinder, Line, Shape, Sphere
from aoegrid.geometry.stencils import _cone_kind, _cone_region, _cube_region, _line_width
from aoegrid.geometry.tokens import token_selector

#: Relative tolerance of tests on polygons standing for circles (their sides
#: stray under 1.9e-5 of the radius inside the circle).
TOL = 2e-5


def _table(on: Any) -> tuple[Gridless, BattleMapCore | None]:
    if isinstance(on, Gridless):
        return on, None
    if isinstance(on, BattleMapCore) and isinstance(on.grid, Gridless):
        return on.grid, on
    raise InvalidTypeError(f"on must be an aoegrid.Gridless or a BattleMap on one, got {on!r}")


def _polygon(region: Region) -> shapely.Geometry:
    """A convex figure of :mod:`aoegrid.geometry.regions` as a polygon: its outline's points, arcs sampled, hulled."""
    segs, arcs = region.boundary()
    pts = [segs[:, :2]]
    for cx, cy, r, t0, t1 in arcs:
        n = max(2, math.ceil(abs(t1 - t0) / (math.pi / 2) * 128))
        t = np.linspace(t0, t1, n + 1)
        pts.append(np.column_stack([cx + r * np.cos(t), cy + r * np.sin(t)]))
    return shapely.MultiPoint(np.vstack(pts)).convex_hull


def _lens(d: float, r1: float, r2: float) -> float:
    """Exact area shared by two disks of radii ``r1``, ``r2`` whose centres are ``d`` apart."""
    if d >= r1 + r2:
        return 0.0
    if d <= abs(r1 - r2):
        return math.pi * min(r1, r2) ** 2
    a = r1 * r1 * math.acos(max(-1.0, min(1.0, (d * d + r1 * r1 - r2 * r2) / (2 * d * r1))))
    b = r2 * r2 * math.acos(max(-1.0, min(1.0, (d * d + r2 * r2 - r1 * r1) / (2 * d * r2))))
    c = 0.5 * math.sqrt(max(0.0, (-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2)))
    return a + b - c


def half_reach(radius: float, r: float) -> float:
    """How far a circle of radius ``r`` may be centred from a disk of ``radius`` and still have half of it inside.

    Examples
    --------
    >>> round(half_reach(20.0, 2.5), 4)      # a little under 20: the disk's edge curves away
    19.9478
    """
    lo, hi = max(0.0, radius - r), radius + r
    want = 0.5 * math.pi * r * r
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _lens(mid, radius, r) >= want:
            lo = mid
        else:
            hi = mid
    return lo


def spread_geometry(bmap: BattleMapCore, origin: tuple[float, float], radius: float,
                    frame: tuple[float, float, float, float]) -> tuple[shapely.Geometry, shapely.Geometry]:
    """The points within geodesic ``radius`` of ``origin`` around the map's effect walls, and what they are seen from.

    Dijkstra over the origin and the wall ends: a wall end ``q`` a straight
    line from a reached point ``p`` reaches is reached with ``rest(p) -
    |pq|`` left; the area is the union, over the points reached, of the disk
    of what is left around each, cut to what a straight line from it reaches.
    Shortest paths around walls bend only at wall ends, so this is the
    geodesic disk (to the polygons' precision). A wall end lying inside
    another wall is not a way around it and is skipped.

    Returns the area and the union of the visibility polygons of the points
    reached (what the spread "sees", for cover).
    """
    walls = bmap.walls_near("effect", frame).segs
    ends = np.unique(walls.reshape(-1, 2), axis=0) if len(walls) else np.empty((0, 2))
    x0, y0, x1, y1 = frame
    inside = (ends[:, 0] > x0) & (ends[:, 0] < x1) & (ends[:, 1] > y0) & (ends[:, 1] < y1)
    ends = ends[inside & (np.hypot(ends[:, 0] - origin[0], ends[:, 1] - origin[1]) < radius)]
    best: dict[tuple[float, float], float] = {origin: radius}
    heap = [(-radius, origin)]
    pieces, seen = [], []
    done: set[tuple[float, float]] = set()
    while heap:
        neg, p = heapq.heappop(heap)
        if p in done:
            continue
        done.add(p)
        rest = -neg
        try:
            vis = bmap.visibility("effect", p, frame)
        except OriginOnWallError:
            continue
        poly = shapely.Polygon(vis.polygon())
        try:
            piece = circle(*p, rest).intersection(poly)
        except shapely.errors.GEOSException:
            # Seen from a wall end, the polygon can fold on itself along the wall: mend it.
            poly = shapely.make_valid(poly).buffer(0)
            piece = circle(*p, rest).intersection(poly)
        seen.append(poly)
        pieces.append(piece)
        if not len(ends):
            continue
        d = np.hypot(ends[:, 0] - p[0], ends[:, 1] - p[1])
        near = (d < rest) & (d > 0.0)
        if not near.any():
            continue
        ok = vis.sees(ends[near, 0], ends[near, 1])
        for (qx, qy), dq in zip(ends[near][ok], d[near][ok]):
            q = (float(qx), float(qy))
            left = rest - float(dq)
            if left > best.get(q, 0.0) + EPS:
                best[q] = left
                heapq.heappush(heap, (-left, q))
    try:
        return shapely.union_all(pieces), shapely.union_all(seen)
    except shapely.errors.GEOSException:
        # A polygon seen from a wall end that folds along the wall: mend them all and try again.
        def mend(gs: list[shapely.Geometry]) -> shapely.Geometry:
            return shapely.union_all([shapely.make_valid(g).buffer(0) for g in gs])

        return mend(pieces), mend(seen)


@dataclass(frozen=True, slots=True)
class _Disk:
    """A disk-shaped area's exact centre and radius."""

    x: float
    y: float
    r: float


class OpenArea:
    """An area on the open table (:func:`open_area`).

    Attributes
    ----------
    table : Gridless
    battlemap : BattleMap or None
    shape, rules, mode, inclusion, elevation, caster
        As given (``inclusion`` resolved: ``far-edge`` reads as ``center``).
    origin : (float, float)
        The point of origin (for an area from a creature, where it starts).
    outline : shapely geometry
        The shape's exact outline in map units, walls aside, not clipped.
    geometry : shapely geometry
        The area: the outline cut by walls and clipped to the map.
    """

    def __init__(self, shape: Shape, at: Any, on: Any, rules: Rules | str, mode: Mode | str, *,
                 caster: Any, elevation: float, inclusion: Inclusion | str | None,
                 range: float | None = None) -> None:
        self.table, self.battlemap = _table(on)
        self.rules = resolve_rules(rules)
        self.mode = parse_option(Mode, mode, "mode")
        self.shape = shape
        self.caster = caster
        self.elevation = real(elevation, "elevation")
        inc = self.rules.for_shape(shape).inclusion if inclusion is None else parse_option(Inclusion, inclusion, "inclusion")
        self.inclusion = Inclusion.CENTER if inc is Inclusion.FAR_EDGE else inc
        t = self.table
        for what, units in ((f"{self.rules.name} rules measure", self.rules.units), (f"{shape!r} is sized", shape.units)):
            if units is not None and units != t.units:
                raise InvalidValueError(
                    f"{what} in {units!r} but the map is in {t.units!r}; make the map in the same unit, "
                    f"e.g. aoegrid.Gridless({t.width:g}, {t.height:g}, units={units!r})"
                )
        if not isinstance(shape, (Sphere, Cylinder, Cone, Line, Cube)):
            raise InvalidTypeError(
                f"on the open table a shape is a Sphere, Cylinder, Cone, Line or Cube, got {shape!r}"
            )
        if isinstance(shape, (Cone, Line)) and shape.pitch != 0.0:
            raise InvalidValueError(f"pitched cones and lines are not yet placed on the open table, got pitch={shape.pitch:g}")
        #: The creature the area comes from, if any (as a hex area's ``source``).
        self.source: OpenToken | None = at if isinstance(at, OpenToken) else None
        self.origin = self._start(at)
        if not t.contains_point(self.origin):
            raise OffGridError(f"origin ({self.origin[0]:g}, {self.origin[1]:g}) is off the {t.width:g} x {t.height:g} {t.units} map")
        self.frame = (0.0, 0.0, t.width, t.height)
        self._check_caster(range)
        self._vis: Visibility | None = None
        self._seen: shapely.Geometry | None = None
        self._cut = self.battlemap is not None and not (isinstance(shape, Cylinder) and self.rules.cylinder_ignores_walls)
        self._cut = self._cut and bool(len(self.battlemap.walls_near("effect", self.frame).segs))  # type: ignore[union-attr]
        if self._cut:
            self._vis = self.battlemap.visibility("effect", self.origin, self.frame)  # type: ignore[union-attr]
        self.region, self.disk, self.outline = self._figure()
        self._shapes: dict[float, shapely.Geometry] = {}
        self.geometry = self._geometry(self.outline, self._reach())

    # -- building ---------------------------------------------------------------------------------
    def _check_caster(self, range: float | None) -> None:
        """Refuse an origin out of ``range`` of the caster's footprint, or out of its line of effect."""
        c, t = self.caster, self.table
        if c is None:
            if range is not None:
                raise InvalidValueError("range= is measured from the caster: pass caster= (an OpenToken or point) too")
            return
        src = c if isinstance(c, OpenToken) else None
        centre = c.center if src is not None else point(c, "caster")
        o = self.origin
        if src is None:
            near = centre
        else:
            hw, hd = src.half_extent(t)
            if src.footprint is Footprint.CIRCLE:
                d = math.hypot(o[0] - centre[0], o[1] - centre[1])
                k = min(1.0, hw / d) if d > 0 else 0.0
                near = (centre[0] + k * (o[0] - centre[0]), centre[1] + k * (o[1] - centre[1]))
            else:
                near = (min(max(o[0], centre[0] - hw), centre[0] + hw), min(max(o[1], centre[1] - hd), centre[1] + hd))
        gap = math.hypot(o[0] - near[0], o[1] - near[1])
        if range is not None:
            reach = real(range, "range")
            if reach < 0:
                raise InvalidValueError(f"range must be 0 or more ({t.units}), got {reach:g}")
            if gap > reach + EPS:
                k = reach / gap
                nearest = (near[0] + k * (o[0] - near[0]), near[1] + k * (o[1] - near[1]))
                raise IllegalOriginError(
                    f"point of origin ({o[0]:g}, {o[1]:g}) is {gap:g} {t.units} from the caster's edge, beyond its "
                    f"range of {reach:g} {t.units}", "out of range", nearest)
        bmap = self.battlemap
        if bmap is None or not len(bmap.walls_near("effect", self.frame).segs) or gap <= EPS:
            return
        try:
            seen = bool(bmap.visibility("effect", centre, self.frame).sees(np.array([o[0]]), np.array([o[1]]))[0])
        except OriginOnWallError:
            seen = False
        if not seen:
            raise IllegalOriginError(
                f"point of origin ({o[0]:g}, {o[1]:g}) is out of line of effect from the caster at "
                f"({centre[0]:g}, {centre[1]:g}): a wall stands between", "no line of effect", None)

    def _start(self, at: Any) -> tuple[float, float]:
        """The origin: a point, or where a creature's area starts (its centre; a cone, line or cube: its edge)."""
        if not isinstance(at, OpenToken):
            return point(at, "at")
        if isinstance(self.shape, (Sphere, Cylinder)):
            return at.center
        d = unit_vector(float(self.shape.direction))
        hw, hd = at.half_extent(self.table)
        if at.footprint is Footprint.CIRCLE:
            t = hw
        else:
            t = min(hw / abs(d[0]) if d[0] else math.inf, hd / abs(d[1]) if d[1] else math.inf)
        return (at.x + t * d[0], at.y + t * d[1])

    def _reach(self) -> float:
        s = self.shape
        return s.radius if isinstance(s, (Sphere, Cylinder)) else s.reach

    def _figure(self, radius: float | None = None) -> tuple[Region | None, _Disk | None, shapely.Geometry]:
        """The exact figure (or None), the exact disk (or None) and the outline polygon, walls aside."""
        s, o = self.shape, self.origin
        if isinstance(s, (Sphere, Cylinder)):
            r = s.radius if radius is None else radius
            src = self.source
            if src is not None and self.rules.from_space.value == "edges":
                if src.footprint is Footprint.CIRCLE:
                    rr = r + src.radius(self.table)
                    return RoundedRect(*o, *o, rr), _Disk(*o, rr), circle(*o, rr)
                hw, hd = src.half_extent(self.table)
                fig = RoundedRect(o[0] - hw, o[1] - hd, o[0] + hw, o[1] + hd, r)
                return fig, None, _polygon(fig)
            return RoundedRect(*o, *o, r), _Disk(*o, r), circle(*o, r)
        d = unit_vector(float(s.direction))
        if isinstance(s, Cone):
            fig = _cone_region(_cone_kind(s, self.rules), o, d, float(s.direction), s.length)
            return fig, None, _polygon(fig)
        if isinstance(s, Cube):
            fig = _cube_region(s, o, d, 1.0)
            return fig, None, _polygon(fig)
        run = s.length
        if self._vis is not None and self.rules.line_stops_at_wall:
            run = min(run, self._vis.reach(math.atan2(d[1], d[0])))
        half = _line_width(s, self.rules) / 2
        if half == 0.0:
            return None, None, shapely.LineString([o, (o[0] + run * d[0], o[1] + run * d[1])])
        n = right_normal(d)
        ex, ey = o[0] + run * d[0], o[1] + run * d[1]
        fig = ConvexPolygon(((o[0] - half * n[0], o[1] - half * n[1]), (o[0] + half * n[0], o[1] + half * n[1]),
                             (ex + half * n[0], ey + half * n[1]), (ex - half * n[0], ey - half * n[1])))
        return fig, None, _polygon(fig)

    def _geometry(self, outline: shapely.Geometry, radius: float) -> shapely.Geometry:
        """``outline`` cut by the walls (line of effect, or a spread's paths) and clipped to the map."""
        box = self.table.box()
        if not self._cut:
            return outline.intersection(box)
        assert self._vis is not None and self.battlemap is not None
        if self.mode is Mode.SPREAD:
            if isinstance(self.shape, (Sphere, Cylinder)) and self.source is None:
                geo, seen = spread_geometry(self.battlemap, self.origin, radius, self.frame)
            else:
                # A spread of another shape: its outline cut by the geodesic disk of its reach.
                geo, seen = spread_geometry(self.battlemap, self.origin, self._reach(), self.frame)
                geo = geo.intersection(outline)
            if self._seen is None:
                self._seen = seen
            return geo.intersection(box)
        return outline.intersection(shapely.Polygon(self._vis.polygon())).intersection(box)

    def _at_radius(self, radius: float) -> shapely.Geometry:
        """The area of a sphere of ``radius`` (a slice of it away from its centre's height)."""
        if radius not in self._shapes:
            self._shapes[radius] = self._geometry(self._figure(radius)[2], radius)
        return self._shapes[radius]

    # -- queries ----------------------------------------------------------------------------------
    def contains(self, x: Any, y: Any) -> NDArray[np.bool_]:
        """Whether the area holds points ``(x, y)`` (arrays broadcast; edges count as in)."""
        xs, ys = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64))
        on_map = (xs >= 0) & (xs <= self.table.width) & (ys >= 0) & (ys <= self.table.height)
        if self.region is None or (self._cut and self.mode is Mode.SPREAD):
            tol = TOL * self._reach() + EPS
            held = shapely.dwithin(self.geometry, shapely.points(xs, ys), tol)
            return np.asarray(on_map & held)
        held = self.region.contains(xs, ys)
        if self._cut:
            assert self._vis is not None
            held = held & self._vis.sees(xs, ys)
        return np.asarray(on_map & held)

    def __contains__(self, p: Any) -> bool:
        return bool(self.contains(*point(p, "point")))

    @property
    def size(self) -> float:
        """The area's size in square map units (square feet; a zero-width line: 0)."""
        return float(self.geometry.area)

    def raster(self, resolution: float) -> NDArray[np.bool_]:
        """The area as a bool mask of cells ``resolution`` map units across.

        Cell ``[i, j]`` spans ``[j, j + 1] x [i, i + 1]`` times ``resolution``
        from the map's top-left corner (the last row and column may run past
        the map's edge); it is in when the area holds its centre
        (:meth:`contains`).

        Examples
        --------
        >>> import aoegrid as ag
        >>> a = open_area(ag.Sphere(10), at=(15, 10), on=Gridless(30, 20))
        >>> a.raster(5).astype(int)
        array([[0, 0, 1, 1, 0, 0],
               [0, 1, 1, 1, 1, 0],
               [0, 1, 1, 1, 1, 0],
               [0, 0, 1, 1, 0, 0]])
        """
        res = positive(resolution, "raster resolution")
        rows, cols = math.ceil(self.table.height / res - EPS), math.ceil(self.table.width / res - EPS)
        if rows * cols > 1 << 26:
            raise InvalidValueError(
                f"a raster of {rows} x {cols} cells at resolution {res:g} is too large; use a resolution "
                f"giving at most {1 << 26:,} cells"
            )
        xs = (np.arange(cols) + 0.5) * res
        ys = (np.arange(rows) + 0.5) * res
        return self.contains(xs[None, :], ys[:, None])

    def _prism_ok(self, token: OpenToken) -> tuple[bool, float, float]:
        """Whether the solid's heights meet the creature's prism; the vertical gap; the slice's radius."""
        low, high = token.prism(self.table.square or 1.0)
        z, s = self.elevation, self.shape
        gap = max(0.0, low - z, z - high)
        if isinstance(s, Sphere):
            return gap <= s.radius + EPS, gap, math.sqrt(max(0.0, s.radius**2 - gap * gap))
        if isinstance(s, Cylinder):
            lo, hi = (z - s.height, z) if self.rules.cylinder_drops else (z, z + s.height)
            return low <= hi + EPS and high >= lo - EPS, gap, s.radius
        if isinstance(s, Cube):
            return low <= z + s.size + EPS and high >= z - EPS, gap, 0.0
        return True, gap, 0.0

    def _meets(self, token: OpenToken) -> bool:
        """Whether the creature's footprint meets the area by the inclusion."""
        ok, gap, slice_r = self._prism_ok(token)
        if not ok:
            return False
        geo, disk = self.geometry, self.disk
        if isinstance(self.shape, Sphere) and gap > 0.0:
            # The sphere's slice at the creature's nearest height.
            grow = disk.r - self.shape.radius if disk is not None else 0.0
            geo = self._at_radius(slice_r)
            disk = None if disk is None else _Disk(disk.x, disk.y, slice_r + grow)
        fp = token.geometry(self.table)
        r = token.radius(self.table)
        exact = disk is not None and not self._cut and token.footprint is Footprint.CIRCLE
        if self.inclusion is Inclusion.CENTER:
            if exact:
                assert disk is not None
                return math.hypot(token.x - disk.x, token.y - disk.y) <= disk.r + EPS and token.center in self
            if geo is not self.geometry:
                return bool(shapely.dwithin(geo, shapely.Point(token.center), TOL * self._reach() + EPS))
            return token.center in self
        if exact:
            assert disk is not None
            d = math.hypot(token.x - disk.x, token.y - disk.y)
            box = self.table.box()
            if self.inclusion is Inclusion.TOUCH:
                return d <= disk.r + r + EPS and fp.intersects(box)
            # Half: exact when the footprint lies on the map.
            if box.contains(fp):
                return _lens(d, disk.r, r) >= 0.5 * math.pi * r * r - EPS
        tol = TOL * (self._reach() + r) + EPS
        if self.inclusion is Inclusion.TOUCH:
            return bool(shapely.dwithin(fp, geo, tol))
        return bool(fp.intersection(geo).area >= 0.5 * fp.area * (1 - TOL))

    def visible(self, token: OpenToken) -> float:
        """The share of the creature's footprint a straight line from the origin reaches (1 without walls).

        For a spread, what a straight line from the origin or a wall end it
        reaches around reaches (:func:`spread_geometry`).
        """
        if not self._cut:
            return 1.0
        assert self._vis is not None
        fp = token.geometry(self.table)
        seen = self._seen if self.mode is Mode.SPREAD and self._seen is not None else shapely.Polygon(self._vis.polygon())
        return float(min(1.0, fp.intersection(seen).area / fp.area))

    def cover(self, token: OpenToken) -> Cover:
        """The creature's cover from the origin, from the share of its footprint reached (:meth:`visible`).

        ``any-corner`` (Starfinder): cover when some but not all of it is
        reached. ``corner-count`` (5e) by its words, "half cover if an
        obstacle blocks at least half of its body", three-quarters at least
        three quarters. ``total-only`` (Savage Worlds): only total. Nothing
        reached: total cover.
        """
        v = self.visible(token)
        if v <= TOL:
            return Cover.TOTAL
        rule = self.rules.cover
        if rule is CoverRule.ANY_CORNER:
            return Cover.PARTIAL if v < 1.0 - TOL else Cover.NONE
        if rule is CoverRule.CORNER_COUNT:
            blocked = 1.0 - v
            if blocked >= 0.75 - TOL:
                return Cover.THREE_QUARTERS
            return Cover.PARTIAL if blocked >= 0.5 - TOL else Cover.NONE
        return Cover.NONE

    def distance(self, token: OpenToken) -> float:
        """From the origin (or the creature it comes from) to the nearest point of the creature's prism, straight."""
        src = self.source if isinstance(self.shape, (Sphere, Cylinder)) else None
        if src is not None:
            if src.footprint is Footprint.CIRCLE and token.footprint is Footprint.CIRCLE:
                flat = max(0.0, math.hypot(token.x - src.x, token.y - src.y)
                           - src.radius(self.table) - token.radius(self.table))
            else:
                flat = float(src.geometry(self.table).distance(token.geometry(self.table)))
        elif token.footprint is Footprint.CIRCLE:
            flat = max(0.0, math.hypot(token.x - self.origin[0], token.y - self.origin[1]) - token.radius(self.table))
        else:
            hw, hd = token.half_extent(self.table)
            dx = max(0.0, abs(self.origin[0] - token.x) - hw)
            dy = max(0.0, abs(self.origin[1] - token.y) - hd)
            flat = math.hypot(dx, dy)
        return math.hypot(flat, self._prism_ok(token)[1])

    def tokens(
        self,
        tokens: Iterable[OpenToken] | None = None,
        *,
        where: Callable[[OpenToken], bool] | None = None,
        tags: Iterable[str] | None = None,
        exclude: Iterable[OpenToken | str] = (),
        limit: int | None = None,
    ) -> list[Reached]:
        """The creatures the area reaches, nearest first, as :class:`aoegrid.Reached` (``squares`` empty).

        Filters as :meth:`aoegrid.Area.tokens`. A caster given to
        :func:`open_area` is left out of shapes the rules do not include it
        in (5e: its own cone, cube or line).

        Examples
        --------
        >>> import aoegrid as ag
        >>> t = Gridless(36, 24, units="in")          # Savage Worlds: inches, a Medium creature 1" across
        >>> foes = [OpenToken(10, 10, name="a"), OpenToken(13.4, 10, name="b"), OpenToken(13.6, 10, name="c")]
        >>> [(r.token.name, round(r.distance, 3)) for r in open_area(ag.Sphere(3), at=(10, 10), on=t, rules="sw").tokens(foes)]
        [('a', 0.0), ('b', 2.9)]
        """
        pool = _candidates(tokens, self.battlemap, "Gridless map", OpenToken, "tokens on the open table")
        _check_limit(limit)
        skip = list(exclude)
        if self.caster is not None and self.shape.name not in self.rules.origin_included:
            skip.append(self.caster)
        keep = _chooser(where, tags, skip)
        out = [_record(tk, self.cover(tk), self.rules.cover, (), self.distance(tk))
               for tk in pool if self._meets(tk) and keep(tk)]
        return _nearest_first(out, limit)

    @property
    def grid(self) -> Gridless:
        """The table (:class:`~aoegrid.Gridless`): the board, as an area on squares or hexes names its grid."""
        return self.table

    # -- pictures ---------------------------------------------------------------------------------
    def plot(self, ax: Any = None, **kw: Any) -> Any:
        """Draw the area, the map's walls and its creatures (:func:`aoegrid.show.openplot.plot_open_area`, same options).

        Returns the :class:`~aoegrid.show.plotting.Drawing` of what was drawn.
        """
        from aoegrid.show.openplot import plot_open_area

        return plot_open_area(self, ax, **kw)

    def _repr_png_(self) -> bytes:
        """The picture Jupyter shows (drawn without touching pyplot's state)."""
        from aoegrid.show.openplot import open_png_bytes

        return open_png_bytes(self)

    def __repr__(self) -> str:
        return (f"<OpenArea {self.shape!r} at ({self.origin[0]:g}, {self.origin[1]:g}), {self.rules.name}, "
                f"{self.mode.value}, {self.size:.1f} sq {self.table.units}>")


def open_area(
    shape: Shape,
    at: Any,
    on: Gridless | BattleMapCore,
    rules: Rules | str = "starfinder",
    mode: Mode | str = "burst",
    *,
    caster: Any = None,
    elevation: float = 0.0,
    inclusion: Inclusion | str | None = None,
    range: float | None = None,
) -> OpenArea:
    """The exact area ``shape`` covers on the open table, placed ``at`` a point.

    Parameters
    ----------
    shape : Sphere, Cylinder, Cone, Line or Cube
        Sized in the map's unit. A cone takes the rules' kind (quarter
        circle, triangle, teardrop); a line is a rectangle of the rules'
        width (a segment when 0); a cube a square by its anchor.
    at : (x, y) or OpenToken
        The point of origin, anywhere on the map (no intersections to snap
        to); or a creature: a sphere or cylinder then spreads from its
        footprint's edge (``Rules.from_space="edges"``) or centre, a cone,
        line or cube starts where its direction leaves the footprint.
    on : Gridless or BattleMap on one
        A map's effect walls cut the area (module docstring).
    rules : Rules or str
    mode : {"burst", "emanation", "spread"}
    caster : OpenToken or (x, y), optional
        Left out of its own cone, line or cube under rules that say so.
        With a caster the origin must be in its line of effect: a straight
        line from the caster's centre to it crosses no effect wall (an
        origin on or in the caster's footprint always is).
    elevation : float
        The origin's height above the ground (map units).
    inclusion : {"touch", "center", "half"}, optional
        Overrides the rules' inclusion (``far-edge`` reads as ``center``).
    range : float, optional
        The farthest the origin may lie from the caster's footprint's edge
        (straight, flat, in the map's unit); needs ``caster``.

    Raises
    ------
    InvalidTypeError
        ``on`` not gridless, or an unsupported shape.
    InvalidValueError
        A unit mismatch, a pitched cone or line.
    OffGridError
        An origin off the map.
    IllegalOriginError
        An origin out of range (``reason="out of range"``, ``nearest`` the
        nearest point in range toward it) or out of the caster's line of
        effect (``"no line of effect"``).

    Examples
    --------
    >>> import aoegrid as ag
    >>> a = open_area(ag.Sphere(10), at=(15, 10), on=Gridless(30, 20))
    >>> round(a.size, 1), (24.9, 10) in a, (25.1, 10) in a
    (314.2, True, False)
    >>> m = ag.BattleMap(Gridless(30, 20), walls=[ag.Wall((20, 0), (20, 20))])
    >>> round(open_area(ag.Sphere(10), at=(15, 10), on=m).size, 1)
    252.7
    >>> try:
    ...     open_area(ag.Sphere(5), at=(28, 10), on=m, caster=OpenToken(5, 10), range=20)
    ... except ag.IllegalOriginError as e:
    ...     print(e.reason, "|", e)
    out of range | point of origin (28, 10) is 20.5 ft from the caster's edge, beyond its range of 20 ft
    """
    return OpenArea(shape, at, on, rules, mode, caster=caster, elevation=elevation, inclusion=inclusion, range=range)


@dataclass(frozen=True, slots=True)
class OpenPlacement:
    """A place for an area on the open table (:func:`open_best_placements`).

    ``origin`` is the point of origin; ``hits`` the creatures to reach it
    reaches, ``avoided`` those to spare it reaches (labels, nearest first);
    ``direction`` a cone's or line's bearing in degrees (None for a sphere
    or cylinder).
    """

    origin: tuple[float, float]
    hits: tuple[str, ...]
    avoided: tuple[str, ...]
    direction: float | None = None

    @property
    def score(self) -> int:
        """How many creatures to reach it reaches."""
        return len(self.hits)


def reach_radius(shape: Sphere | Cylinder, token: OpenToken, table: Gridless, inclusion: Inclusion,
                 rules: Rules, elevation: float = 0.0) -> float | None:
    """How far from a circular creature's centre a disk-shaped area's origin may lie and reach it, walls aside.

    None when the heights never meet. Exact: ``R + r`` (touch), ``R``
    (centre), or where the shared lens is half the footprint (half), ``R``
    the slice of a sphere at the creature's nearest height.
    """
    low, high = token.prism(table.square or 1.0)
    gap = max(0.0, low - elevation, elevation - high)
    if isinstance(shape, Sphere):
        if gap > shape.radius + EPS:
            return None
        big = math.sqrt(max(0.0, shape.radius**2 - gap * gap))
    else:
        lo, hi = (elevation - shape.height, elevation) if rules.cylinder_drops else (elevation, elevation + shape.height)
        if not (low <= hi + EPS and high >= lo - EPS):
            return None
        big = shape.radius
    r = token.radius(table)
    if inclusion is Inclusion.TOUCH:
        return big + r
    if inclusion is Inclusion.CENTER:
        return big
    return half_reach(big, r)




_GL_X, _GL_W = np.polynomial.legendre.leggauss(16)


def rect_disk_area(radius: float, x0: float, y0: float, x1: float, y1: float) -> float:
    """Exact area shared by the disk of ``radius`` centred at (0, 0) and the rectangle ``[x0, x1] x [y0, y1]``.

    The chord's length is integrated over ``x = radius * sin(phi)``, split
    where it meets the rectangle's top or bottom: each piece is smooth (a
    product of cosines), which 16-point Gauss-Legendre integrates to
    rounding.

    Examples
    --------
    >>> round(rect_disk_area(1.0, -1, -1, 1, 1), 6), round(rect_disk_area(1.0, 0, 0, 5, 5), 6)   # pi, pi / 4
    (3.141593, 0.785398)
    """
    a, b = max(x0, -radius), min(x1, radius)
    if a >= b or y0 >= y1:
        return 0.0
    lo, hi = math.asin(a / radius), math.asin(b / radius)
    cuts = {lo, hi}
    for y in (y0, y1):
        if abs(y) < radius:
            k = math.acos(abs(y) / radius)
            cuts.update(c for c in (-k, k) if lo < c < hi)
    pts = sorted(cuts)
    total = 0.0
    for p, q in itertools.pairwise(pts):
        phi = 0.5 * (p + q) + 0.5 * (q - p) * _GL_X
        s = radius * np.cos(phi)
        total += 0.5 * (q - p) * float(_GL_W @ (np.clip(np.minimum(y1, s) - np.maximum(y0, -s), 0.0, None) * s))
    return total


def _half_rect_curve(x: float, y: float, hw: float, hd: float, radius: float, n: int = 64) -> NDArray[np.float64]:
    """Points on the curve bounding where a disk of ``radius`` covers half of a ``2hw x 2hd`` rectangle at ``(x, y)``.

    On ``n`` rays from its centre, by bisection (the shared area falls
    along a ray from the centre, both figures being symmetric about their
    centres). Empty when the disk never covers half.
    """
    want = 2.0 * hw * hd
    if rect_disk_area(radius, -hw, -hd, hw, hd) < want:
        return np.empty((0, 2))
    out = []
    for a in np.arange(n) * (2 * math.pi / n):
        u, v = math.cos(a), math.sin(a)
        lo, hi = 0.0, radius + math.hypot(hw, hd)
        for _ in range(48):
            t = 0.5 * (lo + hi)
            if rect_disk_area(radius, -hw - t * u, -hd - t * v, hw - t * u, hd - t * v) >= want:
                lo = t
            else:
                hi = t
        out.append((x + lo * u, y + lo * v))
    return np.array(out)


def _polyline(pts: NDArray[np.float64], closed: bool) -> list[tuple[float, float, float, float]]:
    seq = np.vstack([pts, pts[:1]]) if closed and len(pts) > 2 else pts
    return [(float(a[0]), float(a[1]), float(b[0]), float(b[1])) for a, b in itertools.pairwise(seq)]


def _boundary_samples(tk: OpenToken, table: Gridless, n: int) -> NDArray[np.float64]:
    """``n`` points around a footprint's outline."""
    hw, hd = tk.half_extent(table)
    if tk.footprint is Footprint.CIRCLE:
        a = np.arange(n) * (2 * math.pi / n)
        return np.column_stack([tk.x + hw * np.cos(a), tk.y + hw * np.sin(a)])
    k = max(1, n // 4)
    s = np.arange(k) / k
    corners = [(tk.x - hw, tk.y - hd), (tk.x + hw, tk.y - hd), (tk.x + hw, tk.y + hd), (tk.x - hw, tk.y + hd)]
    out = [np.column_stack([a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1])])
           for a, b in zip(corners, corners[1:] + corners[:1])]
    return np.vstack(out)


@dataclass
class _Curves:
    """The curves across which the set of creatures reached may change: circles ``(x, y, r)`` and segments."""

    circles: list[tuple[float, float, float]]
    segs: list[tuple[float, float, float, float]]


def _arrangement_points(curves: _Curves, nudge: float, ref: tuple[float, float]) -> NDArray[np.float64]:
    """A point in every face of the curves' arrangement: its vertices, each edge's middle, and that nudged both ways.

    Vertices are where curves cross or end, and the points of each curve
    nearest and farthest from ``ref`` (so no closed curve is without one,
    and the point of a face nearest ``ref``, on its boundary, is a
    candidate). Every face of dimension 2 has an edge on its boundary, and
    a point ``nudge`` off an edge's middle (or off a point nearest
    ``ref``), square to it, lies in the face on that side when no other
    curve passes closer than ``nudge``.
    """
    c = np.array(curves.circles, dtype=np.float64).reshape(-1, 3)
    s = np.array(curves.segs, dtype=np.float64).reshape(-1, 4)
    s = s[np.hypot(s[:, 2] - s[:, 0], s[:, 3] - s[:, 1]) > EPS]
    c = c[c[:, 2] > EPS]
    toward = np.arctan2(ref[1] - c[:, 1], ref[0] - c[:, 0])
    ux, uy = s[:, 2] - s[:, 0], s[:, 3] - s[:, 1]
    foot = np.clip(((ref[0] - s[:, 0]) * ux + (ref[1] - s[:, 1]) * uy) / np.maximum(ux * ux + uy * uy, EPS), 0.0, 1.0)
    on_c: list[tuple[NDArray[np.int64], NDArray[np.float64]]] = [(np.arange(len(c)), toward),
                                                                  (np.arange(len(c)), toward + math.pi)]
    on_s: list[tuple[NDArray[np.int64], NDArray[np.float64]]] = [(np.arange(len(s)), np.zeros(len(s))),
                                                                  (np.arange(len(s)), np.ones(len(s))),
                                                                  (np.arange(len(s)), foot)]
    pts: list[NDArray[np.float64]] = [s[:, :2], s[:, 2:]]
    for dr in (0.0, -nudge, nudge):
        rr = np.clip(c[:, 2] + dr, 0.0, None)
        pts.append(np.column_stack([c[:, 0] + rr * np.cos(toward), c[:, 1] + rr * np.sin(toward)]))
    norm = np.maximum(np.hypot(ux, uy), EPS)
    for side in (0.0, -nudge, nudge):
        pts.append(np.column_stack([s[:, 0] + foot * ux - side * uy / norm, s[:, 1] + foot * uy + side * ux / norm]))
    # Circles with circles.
    i, j = np.triu_indices(len(c), 1)
    dx, dy = c[j, 0] - c[i, 0], c[j, 1] - c[i, 1]
    d = np.hypot(dx, dy)
    ok = (d > EPS) & (d <= c[i, 2] + c[j, 2]) & (d >= np.abs(c[i, 2] - c[j, 2]))
    i, j, dx, dy, d = i[ok], j[ok], dx[ok], dy[ok], d[ok]
    along = (d * d + c[i, 2] ** 2 - c[j, 2] ** 2) / (2 * d)
    hh = np.sqrt(np.clip(c[i, 2] ** 2 - along**2, 0.0, None))
    for sgn in (-1.0, 1.0):
        px = c[i, 0] + (along * dx - sgn * hh * dy) / d
        py = c[i, 1] + (along * dy + sgn * hh * dx) / d
        pts.append(np.column_stack([px, py]))
        on_c += [(i, np.arctan2(py - c[i, 1], px - c[i, 0])), (j, np.arctan2(py - c[j, 1], px - c[j, 0]))]
    # Circles with segments.
    if len(c) and len(s):
        ci, si = (a.ravel() for a in np.meshgrid(np.arange(len(c)), np.arange(len(s)), indexing="ij"))
        ox, oy = s[si, 0] - c[ci, 0], s[si, 1] - c[ci, 1]
        ux, uy = s[si, 2] - s[si, 0], s[si, 3] - s[si, 1]
        qa = ux * ux + uy * uy
        qb = ox * ux + oy * uy
        disc = qb * qb - qa * (ox * ox + oy * oy - c[ci, 2] ** 2)
        ok = disc >= 0
        root = np.sqrt(np.clip(disc, 0.0, None))
        for sgn in (-1.0, 1.0):
            t = (-qb + sgn * root) / qa
            k = ok & (t >= 0) & (t <= 1)
            px, py = s[si[k], 0] + t[k] * ux[k], s[si[k], 1] + t[k] * uy[k]
            pts.append(np.column_stack([px, py]))
            on_c.append((ci[k], np.arctan2(py - c[ci[k], 1], px - c[ci[k], 0])))
            on_s.append((si[k], t[k]))
    # Segments with segments (pairs found by a tree of their bounding boxes).
    if len(s) > 1:
        lines = shapely.linestrings(s.reshape(-1, 2, 2))
        a, b = shapely.STRtree(lines).query(lines, predicate="intersects")
        keep = a < b
        a, b = a[keep], b[keep]
        ux, uy = s[a, 2] - s[a, 0], s[a, 3] - s[a, 1]
        vx, vy = s[b, 2] - s[b, 0], s[b, 3] - s[b, 1]
        den = ux * vy - uy * vx
        k = np.abs(den) > 1e-15
        wx, wy = s[b, 0] - s[a, 0], s[b, 1] - s[a, 1]
        ta = np.where(k, (wx * vy - wy * vx) / np.where(k, den, 1.0), 0.0)
        tb = np.where(k, (wx * uy - wy * ux) / np.where(k, den, 1.0), 0.0)
        k &= (ta >= -EPS) & (ta <= 1 + EPS) & (tb >= -EPS) & (tb <= 1 + EPS)
        pts.append(np.column_stack([s[a[k], 0] + ta[k] * ux[k], s[a[k], 1] + ta[k] * uy[k]]))
        on_s += [(a[k], np.clip(ta[k], 0, 1)), (b[k], np.clip(tb[k], 0, 1))]
    # The middle of every edge, and either side of it.
    ids = np.concatenate([x for x, _ in on_c]) if len(c) else np.empty(0, np.int64)
    ang = np.concatenate([y for _, y in on_c]) if len(c) else np.empty(0)
    if len(ids):
        order = np.lexsort((ang, ids))
        ids, ang = ids[order], ang[order]
        nxt = np.roll(np.arange(len(ids)), -1)
        first = np.r_[True, ids[1:] != ids[:-1]]
        last = np.r_[ids[1:] != ids[:-1], True]
        nxt[last] = np.flatnonzero(first)[np.cumsum(first)[last] - 1]
        gap = ang[nxt] - ang
        gap = np.where(gap <= 0, gap + 2 * math.pi, gap)
        mid = ang + gap / 2
        for dr in (0.0, -nudge, nudge):
            rr = np.clip(c[ids, 2] + dr, 0.0, None)
            pts.append(np.column_stack([c[ids, 0] + rr * np.cos(mid), c[ids, 1] + rr * np.sin(mid)]))
    ids = np.concatenate([x for x, _ in on_s]) if len(s) else np.empty(0, np.int64)
    tt = np.concatenate([y for _, y in on_s]) if len(s) else np.empty(0)
    if len(ids):
        order = np.lexsort((tt, ids))
        ids, tt = ids[order], tt[order]
        same = ids[1:] == ids[:-1]
        k, mid = ids[:-1][same], 0.5 * (tt[:-1] + tt[1:])[same]
        ux, uy = s[k, 2] - s[k, 0], s[k, 3] - s[k, 1]
        norm = np.hypot(ux, uy)
        for side in (0.0, -nudge, nudge):
            pts.append(np.column_stack([s[k, 0] + mid * ux - side * uy / norm, s[k, 1] + mid * uy + side * ux / norm]))
    return np.vstack(pts) if pts else np.empty((0, 2))


def _tangent_rays(e: NDArray[np.float64], tk: OpenToken, table: Gridless, run: float) -> list[tuple[float, float, float, float]]:
    """The rays from wall end ``e``, away from the creature, along which its footprint starts to hide behind ``e``.

    A circle's two tangents through ``e``; a rectangle's lines through
    ``e`` and its corners (its tangents are among them); and the line
    through the centre (where a centre, and about half, hides).
    """
    hw, hd = tk.half_extent(table)
    if tk.footprint is Footprint.CIRCLE:
        dx, dy = tk.x - e[0], tk.y - e[1]
        d = math.hypot(dx, dy)
        aims = [(tk.x, tk.y)]
        if d > hw:
            base, spread = math.atan2(dy, dx), math.asin(hw / d)
            aims += [(e[0] + math.cos(base + k * spread), e[1] + math.sin(base + k * spread)) for k in (-1, 1)]
    else:
        aims = [(tk.x, tk.y)] + [(tk.x + sx * hw, tk.y + sy * hd) for sx in (-1, 1) for sy in (-1, 1)]
    out = []
    for ax, ay in aims:
        ux, uy = e[0] - ax, e[1] - ay
        n = math.hypot(ux, uy)
        if n > EPS:
            out.append((float(e[0]), float(e[1]), float(e[0] + run * ux / n), float(e[1] + run * uy / n)))
    return out


def _reach_test(pts: NDArray[np.float64], tk: OpenToken, table: Gridless, big: float, inc: Inclusion,
                tol: float) -> NDArray[np.bool_]:
    """Whether a disk of radius ``big`` at each point reaches the creature, walls aside, within ``tol``.

    With the tolerance of :meth:`OpenArea._meets`, an upper bound of what
    it finds there (walls only take creatures away; a rectangle's half
    share is bounded by touching it), and equal to it without walls but for
    a rectangle's half share.
    """
    hw, hd = tk.half_extent(table)
    dx, dy = pts[:, 0] - tk.x, pts[:, 1] - tk.y
    if inc is Inclusion.CENTER:
        return np.hypot(dx, dy) <= big + tol
    if tk.footprint is Footprint.CIRCLE:
        rr = big + hw if inc is Inclusion.TOUCH else half_reach(big, hw)
        return np.hypot(dx, dy) <= rr + tol
    gap = np.hypot(np.clip(np.abs(dx) - hw, 0.0, None), np.clip(np.abs(dy) - hd, 0.0, None))
    return gap <= big + tol


def _creature_curves(tk: OpenToken, table: Gridless, big: float, inc: Inclusion, curves: _Curves) -> None:
    """Add the curves bounding where a disk of radius ``big`` reaches the creature, walls aside.

    A circle: the circle of ``reach_radius``. A rectangle: by its
    centre, a circle; touching, the outline of the rectangle grown by
    ``big`` (four sides and four corner circles: exact); half, points on
    its curve (:func:`_half_rect_curve`, found numerically and joined by
    segments; the search checks every candidate exactly).
    """
    hw, hd = tk.half_extent(table)
    if inc is Inclusion.CENTER:
        curves.circles.append((tk.x, tk.y, big))
    elif tk.footprint is Footprint.CIRCLE:
        curves.circles.append((tk.x, tk.y, big + hw if inc is Inclusion.TOUCH else half_reach(big, hw)))
    elif inc is Inclusion.TOUCH:
        x0, y0, x1, y1 = tk.x - hw, tk.y - hd, tk.x + hw, tk.y + hd
        curves.circles += [(x, y, big) for x in (x0, x1) for y in (y0, y1)]
        curves.segs += [(x0, y0 - big, x1, y0 - big), (x0, y1 + big, x1, y1 + big),
                        (x0 - big, y0, x0 - big, y1), (x1 + big, y0, x1 + big, y1)]
    else:
        curves.segs += _polyline(_half_rect_curve(tk.x, tk.y, hw, hd, big), closed=True)


def _wall_curves(tk: OpenToken, table: Gridless, big: float, inc: Inclusion, walls: NDArray[np.float64],
                 spread: bool, curves: _Curves) -> None:
    """Add the curves across which walls change whether the creature is reached.

    Where line of effect to a point of the footprint appears or goes: the
    walls themselves (the caller adds them) and the rays from each wall
    end near the creature along its tangents (:func:`_tangent_rays`).
    Touching, also where the nearest point of the footprint in sight lies
    exactly ``big`` away past a wall end ``e``: the points ``q + big * (e -
    q) / |e - q|`` for ``q`` on the footprint's outline, sampled (48
    points) and joined. A spread also reaches around a wall end ``e`` the
    creature's centre sees: the circle about ``e`` of what is left of the
    radius (one bend; paths bending more are checked, not followed).
    """
    if not len(walls):
        return
    hw, hd = tk.half_extent(table)
    ends = np.unique(walls.reshape(-1, 2), axis=0)
    gap = np.hypot(np.clip(np.abs(ends[:, 0] - tk.x) - hw, 0.0, None), np.clip(np.abs(ends[:, 1] - tk.y) - hd, 0.0, None))
    if tk.footprint is Footprint.CIRCLE:
        gap = np.clip(np.hypot(ends[:, 0] - tk.x, ends[:, 1] - tk.y) - hw, 0.0, None)
    ends = ends[gap < big + hw + hd]
    run = 2.0 * (big + hw + hd)
    rim = _boundary_samples(tk, table, 48)
    for e in ends:
        curves.segs += _tangent_rays(e, tk, table, run)
        if inc is not Inclusion.CENTER:
            off = e[None, :] - rim
            n = np.hypot(off[:, 0], off[:, 1])
            good = (n < big) & (n > EPS)
            far = rim + big * off / np.where(n > EPS, n, 1.0)[:, None]
            for a in np.flatnonzero(good & np.roll(good, -1)):
                b = (a + 1) % len(rim)
                curves.segs.append((float(far[a, 0]), float(far[a, 1]), float(far[b, 0]), float(far[b, 1])))
        if spread:
            d = math.hypot(e[0] - tk.x, e[1] - tk.y)
            left = {Inclusion.CENTER: big, Inclusion.TOUCH: big + hw}.get(inc, big) - d
            if left > EPS:
                curves.circles.append((float(e[0]), float(e[1]), left))
                if inc is Inclusion.HALF:
                    curves.circles.append((float(e[0]), float(e[1]), left + hw))


def _walls_near(bmap: BattleMapCore, table: Gridless, box: tuple[float, float, float, float]) -> NDArray[np.float64]:
    """The map's effect walls, ``(n, 4)``, meeting ``box`` (x0, y0, x1, y1)."""
    segs = bmap.walls_near("effect", (0.0, 0.0, table.width, table.height)).segs.reshape(-1, 4)
    if not len(segs):
        return segs
    lines = shapely.linestrings(segs.reshape(-1, 2, 2))
    return segs[shapely.intersects(lines, shapely.box(*box))]


def _best_directions(shape: Cone | Line, on: Any, pool: list[OpenToken], rules: Rules, caster: Any, mode: Mode | str,
                     wants: Callable[[OpenToken], bool], spares: Callable[[OpenToken], bool], max_avoid: int,
                     limit: int, inclusion: Inclusion | str | None, elevation: float,
                     samples: int) -> list[OpenPlacement]:
    """:func:`open_best_placements` for a cone or line from its caster: the best bearings.

    The set reached changes at finitely many bearings (a footprint tangent
    to a side, its distance meeting the length, a wall end lining up); with
    a circular caster the origin also slides round its edge as the bearing
    turns, so rather than solve for them the search brackets them: it
    evaluates ``samples`` evenly spaced bearings and the bearing toward each
    creature's centre (from the caster's centre and from where the area
    would start), and wherever two neighbouring bearings reach different
    sets it bisects down to 1e-9 degrees, keeping the bearings either side
    of each change. Every bearing is checked exactly (``OpenArea``).
    A set reached only within a window narrower than the samples' spacing
    that holds no creature's bearing can be missed.
    """
    table = on if isinstance(on, Gridless) else on.grid
    cx, cy = caster.center if isinstance(caster, OpenToken) else point(caster, "caster")
    left_out = shape.name not in rules.origin_included
    cache: dict[float, tuple[bool, ...] | None] = {}

    def reached(deg: float) -> tuple[bool, ...] | None:
        if deg not in cache:
            try:
                here = OpenArea(shape.replace(direction=deg), caster, on, rules, mode, caster=None,
                                elevation=elevation, inclusion=inclusion)
            except OriginOnWallError:
                cache[deg] = None
            else:
                cache[deg] = tuple(not (left_out and t is caster) and here._meets(t) for t in pool)
        return cache[deg]

    ring = [360.0 * k / samples for k in builtins.range(samples)]
    for t in pool:
        if t is caster:
            continue
        ring.append(math.degrees(math.atan2(t.y - cy, t.x - cx)) % 360.0)
        try:
            o = OpenArea(shape.replace(direction=ring[-1]), caster, table, rules, mode, caster=None,
                         elevation=elevation, inclusion=inclusion).origin
            ring.append(math.degrees(math.atan2(t.y - o[1], t.x - o[0])) % 360.0)
        except OriginOnWallError:
            pass
    ring = sorted(set(ring))
    keep = set(ring)

    def split(a: float, b: float, depth: int = 0) -> None:
        if reached(a) == reached(b):
            return
        if b - a < 1e-9 or depth > 60:
            keep.update((a, b))
            return
        m = 0.5 * (a + b)
        split(a, m, depth + 1)
        split(m, b, depth + 1)

    for a, b in itertools.pairwise([*ring, ring[0] + 360.0]):
        split(a, b)
    found: dict[tuple[str, ...], tuple[tuple[Any, ...], OpenPlacement]] = {}
    for deg in sorted(keep):
        got = reached(deg)
        if got is None:
            continue
        d = deg % 360.0
        here = OpenArea(shape.replace(direction=d), caster, table, rules, mode, caster=None, elevation=elevation,
                        inclusion=inclusion)
        toks = sorted((t for t, ok in zip(pool, got) if ok), key=lambda t: (here.distance(t), t.y, t.x))
        hits = tuple(t.label for t in toks if wants(t))
        spared = tuple(t.label for t in toks if spares(t))
        if len(spared) > max_avoid:
            continue
        key = (-len(hits), len(spared), d)
        label = (*sorted(hits), "|", *sorted(spared))
        if label not in found or key < found[label][0]:
            found[label] = (key, OpenPlacement(here.origin, hits, spared, d))
    ranked = sorted(found.values(), key=lambda kv: kv[0])
    return [p for _, p in ranked[:limit]]


def open_best_placements(
    shape: Sphere | Cylinder | Cone | Line,
    on: Gridless | BattleMapCore,
    tokens: Iterable[OpenToken] | None = None,
    rules: Rules | str = "starfinder",
    caster: OpenToken | tuple[float, float] | None = None,
    range: float | None = None,
    *,
    mode: Mode | str = "burst",
    hit: Any = None,
    avoid: Any = None,
    max_avoid: int = 0,
    limit: int = 1,
    inclusion: Inclusion | str | None = None,
    elevation: float = 0.0,
    step: float | None = None,
    directions: int | None = None,
) -> list[OpenPlacement]:
    """The best points of origin for a sphere or cylinder on the open table (bearings for a cone or line).

    A cone or line starts at ``caster`` (where its bearing leaves the
    footprint, :func:`open_area` with ``at=caster``); its bearing is
    searched as ``_best_directions`` says (``directions`` evenly
    spaced bearings, 720 by default, refined at every change).

    The search is over continuous positions. The set of creatures reached
    changes only across certain curves; every set reached somewhere is
    reached in some face (region, edge or vertex) of their arrangement, and
    ``_arrangement_points`` puts a candidate in each: the curves'
    crossings and ends, the middle of every edge between them, and points
    a little off each middle on both sides (``1e-6`` of the map's size,
    and at least the tolerance of the polygon tests, ``TOL``). The
    curves (``_creature_curves``, ``_wall_curves``):

    * where a creature is reached walls aside: a circle of
      ``reach_radius`` (circular footprints); for a rectangle its
      centre's circle, the outline of it grown by the radius (touch: sides
      and corner circles), or the half-share curve found numerically;
    * the map's edges, and the range circle (``range`` from the caster's
      footprint);
    * with walls (those meeting the box of the creatures' reach): the
      walls, and from each wall end near a creature the rays along its
      tangents (where line of effect to part of its footprint appears or
      goes); touching, the curve where the nearest point in sight lies at
      the radius past a wall end (sampled); a spread, circles about wall
      ends for what is left of the radius.

    Without walls, and with walls for ``center`` inclusion, these curves
    are complete, so the result is exact and never worse than any lattice.
    With walls, ``touch`` and ``half`` follow sampled curves and half-hidden
    footprints: candidates are still checked exactly, and random tests
    find them never worse than a fine lattice. Candidates are checked with
    ``OpenArea`` in order of what they reach walls aside (an upper
    bound: walls only take creatures away), stopping when no candidate left
    can beat the ``limit`` best found.

    Parameters
    ----------
    shape : Sphere or Cylinder
    on : Gridless or BattleMap on one
    tokens : iterable of OpenToken, optional
        The creatures; by default the map's.
    rules, mode, inclusion, elevation
        As :func:`open_area`.
    caster : OpenToken or (x, y), optional
        Where range is measured from (its footprint's edge).
    range : float, optional
        The farthest the origin may be from the caster.
    hit, avoid : tags, predicate or tokens
        Whom to reach (default: every creature not to spare) and whom to spare (default:
        no one), as :func:`aoegrid.best_placements`.
    max_avoid : int
        The most creatures to spare that may be reached.
    limit : int
        How many placements, best first, each reaching a different set.
    step : float, optional
        Also try the lattice of this spacing (map units); not needed for
        exactness.
    directions : int, optional
        For a cone or line: how many evenly spaced bearings to start from.

    Returns
    -------
    list of OpenPlacement
        Best first: most hits, then fewest avoided, then nearest the caster
        (or the map's top-left), then top to bottom, left to right (among
        the candidates).

    Examples
    --------
    >>> import aoegrid as ag
    >>> foes = [OpenToken(10, 10, name="a"), OpenToken(35, 10, name="b"), OpenToken(22, 30, name="c"),
    ...         OpenToken(55, 30, name="d", tags={"ally"})]
    >>> best = open_best_placements(ag.Sphere(15), Gridless(60, 40), foes, rules="sw5e", avoid="ally", limit=2)
    >>> [(p.hits, p.avoided) for p in best]
    [(('a', 'b', 'c'), ()), (('a', 'b'), ())]
    >>> m = ag.BattleMap(Gridless(60, 40), walls=[ag.Wall((20, 0), (20, 25))])
    >>> [sorted(p.hits) for p in open_best_placements(ag.Sphere(15), m, foes, rules="sw5e", avoid="ally")]
    [['a', 'c']]
    """
    table, bmap = _table(on)
    rules_ = resolve_rules(rules)
    if not isinstance(shape, (Sphere, Cylinder, Cone, Line)):
        raise InvalidTypeError(f"open_best_placements searches spheres, cylinders, cones and lines, got {shape!r}")
    pool = list(bmap.tokens if tokens is None and bmap is not None else (tokens or ()))
    for tk in pool:
        if not isinstance(tk, OpenToken):
            raise InvalidTypeError(f"tokens on the open table must be aoegrid.OpenToken, got {tk!r}")
    spares = token_selector(avoid, "avoid")
    wants = (lambda t: not spares(t)) if hit is None else token_selector(hit, "hit")
    if isinstance(max_avoid, bool) or not isinstance(max_avoid, int) or max_avoid < 0:
        raise InvalidValueError(f"max_avoid must be a whole number, 0 or more, got {max_avoid!r}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidValueError(f"limit must be a whole number, 1 or more, got {limit!r}")
    if isinstance(shape, (Cone, Line)):
        if caster is None:
            raise InvalidValueError(f"a {shape.name} starts at its caster: pass caster= (an OpenToken or point)")
        if range is not None or step is not None:
            raise InvalidValueError(f"a {shape.name} starts at its caster: range= and step= are for spheres and cylinders")
        samples = 720 if directions is None else directions
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 4:
            raise InvalidValueError(f"directions must be a whole number, 4 or more, got {directions!r}")
        return _best_directions(shape, on, pool, rules_, caster, mode, wants, spares, max_avoid, limit, inclusion,
                                elevation, samples)
    probe = OpenArea(shape, (0.0, 0.0), table, rules_, mode, caster=None, elevation=elevation, inclusion=inclusion)
    inc, spread = probe.inclusion, probe.mode is Mode.SPREAD
    w, h = table.width, table.height
    centre: tuple[float, float] | None = None
    bound = math.inf
    curves = _Curves([], [(0.0, 0.0, w, 0.0), (w, 0.0, w, h), (w, h, 0.0, h), (0.0, h, 0.0, 0.0)])
    if caster is not None:
        if isinstance(caster, OpenToken):
            centre, grow = caster.center, caster.radius(table)
        else:
            centre, grow = point(caster, "caster"), 0.0
        if range is not None:
            bound = real(range, "range") + grow
            curves.circles.append((*centre, bound))
    elif range is not None:
        raise InvalidValueError("range is measured from a caster; pass caster= with range=")
    # The slice of the solid each creature meets (None: the heights never meet).
    live = [(tk, reach_radius(shape, tk, table, Inclusion.CENTER, rules_, elevation)) for tk in pool]
    live_ = [(tk, big) for tk, big in live if big is not None]
    for tk, big in live_:
        _creature_curves(tk, table, big, inc, curves)
    cut = bmap is not None and not (isinstance(shape, Cylinder) and rules_.cylinder_ignores_walls)
    walls = np.empty((0, 4))
    if cut and live_:
        assert bmap is not None
        reach = [(tk, big + max(tk.half_extent(table)) * 1.5) for tk, big in live_]
        box = (min(t.x - r for t, r in reach), min(t.y - r for t, r in reach),
               max(t.x + r for t, r in reach), max(t.y + r for t, r in reach))
        if centre is not None and math.isfinite(bound):
            box = (max(box[0], centre[0] - bound), max(box[1], centre[1] - bound),
                   min(box[2], centre[0] + bound), min(box[3], centre[1] + bound))
        walls = _walls_near(bmap, table, box) if box[0] <= box[2] and box[1] <= box[3] else walls
        curves.segs += [tuple(map(float, s)) for s in walls]
        for tk, big in live_:
            _wall_curves(tk, table, big, inc, walls, spread, curves)
    cut = cut and bool(len(walls))
    # The polygon tests' tolerance (walls, rectangles): candidates off a curve must lie beyond it.
    rough = cut or any(tk.footprint is Footprint.RECT for tk, _ in live_)
    tol = TOL * (probe._reach() + max((max(tk.half_extent(table)) for tk, _ in live_), default=0.0)) + EPS
    tol = tol if rough else 10 * EPS
    nudge = max(1e-6 * max(w, h), 2 * tol)
    ref = centre if centre is not None else (0.0, 0.0)
    arr = _arrangement_points(curves, nudge, ref)
    if step is not None:
        s = positive(step, "step")
        xs, ys = np.arange(0.0, w + EPS, s), np.arange(0.0, h + EPS, s)
        arr = np.vstack([arr, np.column_stack([np.tile(xs, len(ys)), np.repeat(ys, len(xs))])])
    arr = np.unique(np.round(arr, 12), axis=0)
    keep = (arr[:, 0] >= 0) & (arr[:, 0] <= w) & (arr[:, 1] >= 0) & (arr[:, 1] <= h)
    if centre is not None and math.isfinite(bound):
        keep &= np.hypot(arr[:, 0] - centre[0], arr[:, 1] - centre[1]) <= bound + EPS
    arr = arr[keep]
    # What each candidate reaches walls aside: an upper bound on the hits, to check the likeliest first.
    reached = np.zeros((len(arr), len(live_)), dtype=bool)
    for k, (tk, big) in enumerate(live_):
        reached[:, k] = _reach_test(arr, tk, table, big, inc, tol)
    hitting = np.array([wants(tk) for tk, _ in live_], dtype=bool)
    ub = reached[:, hitting].sum(axis=1) if len(live_) else np.zeros(len(arr), dtype=np.int64)
    dist = np.hypot(arr[:, 0] - ref[0], arr[:, 1] - ref[1])
    order = np.lexsort((arr[:, 0], arr[:, 1], dist, -ub))
    # Without walls (and rectangles' half shares) a candidate's set is what it reaches walls aside: check
    # the best placed of each set once.
    if not cut and not (inc is Inclusion.HALF and rough):
        _, first = np.unique(reached[order], axis=0, return_index=True)
        order = order[np.sort(first)]
    found: dict[tuple[str, ...], tuple[tuple[Any, ...], OpenPlacement]] = {}
    for idx in order:
        ranked = sorted(found.values(), key=lambda kv: kv[0])
        if len(ranked) >= limit and -ranked[limit - 1][0][0] > ub[idx]:
            break
        x, y = float(arr[idx, 0]), float(arr[idx, 1])
        try:
            here = OpenArea(shape, (x, y), on, rules_, mode, caster=None, elevation=elevation, inclusion=inclusion)
        except OriginOnWallError:
            continue
        # As OpenArea.tokens (nearest first), without the cover the search does not read.
        got = sorted((t for t in pool if here._meets(t)), key=lambda t: (here.distance(t), t.y, t.x))
        hits = tuple(t.label for t in got if wants(t))
        spared = tuple(t.label for t in got if spares(t))
        if len(spared) > max_avoid:
            continue
        key = (-len(hits), len(spared), math.hypot(x - ref[0], y - ref[1]), y, x)
        label = (*sorted(hits), "|", *sorted(spared))
        if label not in found or key < found[label][0]:
            found[label] = (key, OpenPlacement((x, y), hits, spared))
    ranked = sorted(found.values(), key=lambda kv: kv[0])
    return [p for _, p in ranked[:limit]]
