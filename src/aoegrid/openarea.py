"""Areas on the open table: exact outlines, walls, and whom they reach.

On a :class:`~aoegrid.gridless.Gridless` map there are no cells: an area is
the shape's exact outline in map units (a shapely geometry), cut by walls,
and a creature (:class:`~aoegrid.gridless.OpenToken`) is reached when its
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

Exactness: circles are polygons of :data:`aoegrid.gridless.QUAD_SEGS`
sides a quarter turn (their sides stray under 2e-5 of the radius inside the
true circle). Where no wall cuts a disk-shaped area, reach, inclusion and
half shares for circular footprints are computed exactly from centres and
radii; elsewhere shapely's answers on those polygons, with a tolerance of
2e-5 of the radii, decide. Point tests (``center``, :meth:`OpenArea.raster`)
use the exact figures of :mod:`aoegrid.regions` and
:meth:`aoegrid.visibility.Visibility.sees` for bursts.

Heights: a creature fills the prism from its elevation to its top
(:meth:`OpenToken.prism`). A sphere at elevation ``z`` meets it where its
slice at the nearest height is (a disk of ``sqrt(R**2 - dz**2)``); a
cylinder (dropping from ``z`` when the rules say so, else rising) and a cube
(rising from ``z``) only when their heights meet the prism. Cones and lines
are taken as columns (not yet cut by height); pitched ones are refused.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from aoegrid._validate import point, positive, real
from aoegrid.battlemap import BattleMapCore
from aoegrid.cover import GRADES, Cover, CoverRule
from aoegrid.directions import right_normal, unit_vector
from aoegrid.errors import InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.gridless import Footprint, Gridless, OpenToken, circle
from aoegrid.options import Inclusion, Mode, parse_option
from aoegrid.regions import EPS, ConvexPolygon, Region, RoundedRect
from aoegrid.rules import Rules, resolve_rules
from aoegrid.shapes import Cone, Cube, Cylinder, Line, Shape, Sphere
from aoegrid.stencils import _cone_kind, _cone_region, _cube_region, _line_width
from aoegrid.targets import Reached
from aoegrid.tokens import token_selector
from aoegrid.visibility import OriginOnWallError, Visibility

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
    """A convex figure of :mod:`aoegrid.regions` as a polygon: its outline's points, arcs sampled, hulled."""
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
        seen.append(poly)
        pieces.append(circle(*p, rest).intersection(poly))
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
    return shapely.union_all(pieces), shapely.union_all(seen)


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
                 caster: Any, elevation: float, inclusion: Inclusion | str | None) -> None:
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
        self._from: OpenToken | None = at if isinstance(at, OpenToken) else None
        self.origin = self._start(at)
        if not t.contains_point(self.origin):
            raise OffGridError(f"origin ({self.origin[0]:g}, {self.origin[1]:g}) is off the {t.width:g} x {t.height:g} {t.units} map")
        self.frame = (0.0, 0.0, t.width, t.height)
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
            src = self._from
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
            if isinstance(self.shape, (Sphere, Cylinder)) and self._from is None:
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
        src = self._from if isinstance(self.shape, (Sphere, Cylinder)) else None
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
        if tokens is None:
            if self.battlemap is None:
                raise InvalidValueError("this area is on a bare Gridless map: pass tokens=[...], or place it on a BattleMap")
            pool = list(self.battlemap.tokens)
        else:
            pool = list(tokens)
        for tk in pool:
            if not isinstance(tk, OpenToken):
                raise InvalidTypeError(f"tokens on the open table must be aoegrid.OpenToken, got {tk!r}")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
            raise InvalidValueError(f"limit must be a whole number, 0 or more, got {limit!r}")
        wanted = None if tags is None else frozenset(tags)
        skip = list(exclude)
        if self.caster is not None and self.shape.name not in self.rules.origin_included:
            skip.append(self.caster)
        out = []
        for tk in pool:
            if not self._meets(tk):
                continue
            if where is not None and not where(tk):
                continue
            if wanted is not None and not (tk.tags & wanted):
                continue
            if any(e is tk or e == tk or (isinstance(e, str) and e == tk.name) for e in skip):
                continue
            cover = self.cover(tk)
            name = GRADES[self.rules.cover].get(cover, (cover.name.lower(), ""))[0]
            out.append(Reached(tk, cover, name, (), self.distance(tk)))  # type: ignore[arg-type]
        out.sort(key=lambda r: (r.distance, r.token.y, r.token.x))
        return out if limit is None else out[:limit]

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
    caster : OpenToken, optional
        Left out of its own cone, line or cube under rules that say so.
    elevation : float
        The origin's height above the ground (map units).
    inclusion : {"touch", "center", "half"}, optional
        Overrides the rules' inclusion (``far-edge`` reads as ``center``).

    Raises
    ------
    InvalidTypeError
        ``on`` not gridless, or an unsupported shape.
    InvalidValueError
        A unit mismatch, a pitched cone or line.
    OffGridError
        An origin off the map.

    Examples
    --------
    >>> import aoegrid as ag
    >>> a = open_area(ag.Sphere(10), at=(15, 10), on=Gridless(30, 20))
    >>> round(a.size, 1), (24.9, 10) in a, (25.1, 10) in a
    (314.2, True, False)
    >>> m = ag.BattleMap(Gridless(30, 20), walls=[ag.Wall((20, 0), (20, 20))])
    >>> round(open_area(ag.Sphere(10), at=(15, 10), on=m).size, 1)
    252.7
    """
    return OpenArea(shape, at, on, rules, mode, caster=caster, elevation=elevation, inclusion=inclusion)


@dataclass(frozen=True, slots=True)
class OpenPlacement:
    """A place for an area on the open table (:func:`open_best_placements`).

    ``origin`` is the point of origin; ``hits`` the creatures to reach it
    reaches, ``avoided`` those to spare it reaches (labels, nearest first).
    """

    origin: tuple[float, float]
    hits: tuple[str, ...]
    avoided: tuple[str, ...]

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


def _circle_points(a: tuple[float, float, float], b: tuple[float, float, float]) -> list[tuple[float, float]]:
    """Where two circles ``(x, y, r)`` cross (none, one or two points)."""
    (x1, y1, r1), (x2, y2, r2) = a, b
    dx, dy = x2 - x1, y2 - y1
    d = math.hypot(dx, dy)
    if d == 0.0 or d > r1 + r2 or d < abs(r1 - r2):
        return []
    along = (d * d + r1 * r1 - r2 * r2) / (2 * d)
    h = math.sqrt(max(0.0, r1 * r1 - along * along))
    mx, my = x1 + along * dx / d, y1 + along * dy / d
    return [(mx - h * dy / d, my + h * dx / d), (mx + h * dy / d, my - h * dx / d)]


def _edge_points(c: tuple[float, float, float], w: float, h: float) -> list[tuple[float, float]]:
    """Where circle ``c`` crosses the lines of the map's edges."""
    x, y, r = c
    out = []
    for fixed, centre, other, horizontal in ((0.0, x, y, False), (w, x, y, False), (0.0, y, x, True), (h, y, x, True)):
        gap = r * r - (fixed - centre) ** 2
        if gap < 0:
            continue
        for s in (-1.0, 1.0):
            v = other + s * math.sqrt(gap)
            out.append((v, fixed) if horizontal else (fixed, v))
    return out


def open_best_placements(
    shape: Sphere | Cylinder,
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
) -> list[OpenPlacement]:
    """The best points of origin for a sphere or cylinder on the open table: the most reached, few spared.

    The search is over continuous positions, exactly: a circular
    creature is reached from exactly the origins within :func:`reach_radius`
    of its centre, so the set of creatures reached changes only across
    those circles. Every set reached somewhere is reached at a candidate:
    the crossings of those circles with each other, with the range circle
    (``range`` from the caster's footprint) and with the map's edges, the
    map's corners and the circles' centres (an intersection of disks and a
    rectangle, if not empty, holds one of them); and, when creatures must
    be spared (``max_avoid``), points 1e-6 of the map's size around each
    of those, on 16 bearings, inside the faces that leave a circle out.

    Covered: spheres and cylinders on a map without walls, creatures with
    circular footprints. With walls, each candidate is checked exactly
    (:func:`open_area`), but the visibility cuts add boundaries no
    candidate follows: give ``step`` to also try every point of a lattice
    of that spacing (then never worse than that lattice). Rectangular
    footprints add their corners' circles only (partial). Cones and lines
    are not searched yet.

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
        Also try the lattice of this spacing (map units).

    Returns
    -------
    list of OpenPlacement
        Best first: most hits, then fewest avoided, then nearest the caster
        (or the map's top-left), then top to bottom, left to right.

    Examples
    --------
    >>> import aoegrid as ag
    >>> foes = [OpenToken(10, 10, name="a"), OpenToken(35, 10, name="b"), OpenToken(22, 30, name="c"),
    ...         OpenToken(55, 30, name="d", tags={"ally"})]
    >>> best = open_best_placements(ag.Sphere(15), Gridless(60, 40), foes, rules="sw5e", avoid="ally", limit=2)
    >>> [(p.hits, p.avoided) for p in best]
    [(('a', 'b', 'c'), ()), (('a', 'b'), ())]
    """
    table, bmap = _table(on)
    rules_ = resolve_rules(rules)
    if not isinstance(shape, (Sphere, Cylinder)):
        raise InvalidTypeError(f"open_best_placements searches spheres and cylinders, got {shape!r}")
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
    probe = OpenArea(shape, (0.0, 0.0), table, rules_, mode, caster=None, elevation=elevation, inclusion=inclusion)
    inc = probe.inclusion
    # The circles bounding where each creature (or a corner of a rectangle) is reached.
    circles: list[tuple[float, float, float]] = []
    for tk in pool:
        rr = reach_radius(shape, tk, table, inc, rules_, elevation)
        if rr is None:
            continue
        if tk.footprint is Footprint.CIRCLE:
            circles.append((tk.x, tk.y, rr))
        else:
            hw, hd = tk.half_extent(table)
            circles += [(tk.x + sx * hw, tk.y + sy * hd, rr - tk.radius(table)) for sx in (-1, 1) for sy in (-1, 1)]
    centre: tuple[float, float] | None = None
    bound = math.inf
    if caster is not None:
        if isinstance(caster, OpenToken):
            centre, grow = caster.center, caster.radius(table)
        else:
            centre, grow = point(caster, "caster"), 0.0
        if range is not None:
            bound = real(range, "range") + grow
            circles.append((*centre, bound))
    elif range is not None:
        raise InvalidValueError("range is measured from a caster; pass caster= with range=")
    w, h = table.width, table.height
    pts: list[tuple[float, float]] = [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)]
    for i, a in enumerate(circles):
        pts.append((a[0], a[1]))
        pts += _edge_points(a, w, h)
        for b in circles[i + 1:]:
            pts += _circle_points(a, b)
    if max_avoid < sum(1 for t in pool if spares(t)):
        nudge = 1e-6 * max(w, h)
        turns = [(math.cos(k * math.pi / 8), math.sin(k * math.pi / 8)) for k in np.arange(16)]
        pts += [(x + nudge * u, y + nudge * v) for x, y in pts for u, v in turns]
    if step is not None:
        s = positive(step, "step")
        xs, ys = np.arange(0.0, w + EPS, s), np.arange(0.0, h + EPS, s)
        pts += [(float(x), float(y)) for y in ys for x in xs]
    arr = np.unique(np.round(np.array(pts, dtype=np.float64), 12), axis=0)
    keep = (arr[:, 0] >= 0) & (arr[:, 0] <= w) & (arr[:, 1] >= 0) & (arr[:, 1] <= h)
    if centre is not None and math.isfinite(bound):
        keep &= np.hypot(arr[:, 0] - centre[0], arr[:, 1] - centre[1]) <= bound + EPS
    # One placement per set of creatures reached, the best placed.
    found: dict[tuple[str, ...], tuple[tuple[Any, ...], OpenPlacement]] = {}
    ref = centre if centre is not None else (0.0, 0.0)
    for x, y in arr[keep]:
        try:
            got = [r.token for r in OpenArea(shape, (float(x), float(y)), on, rules_, mode, caster=None,
                                             elevation=elevation, inclusion=inclusion).tokens(pool)]
        except OriginOnWallError:
            continue
        hits = tuple(t.label for t in got if wants(t))
        spared = tuple(t.label for t in got if spares(t))
        if len(spared) > max_avoid:
            continue
        key = (-len(hits), len(spared), math.hypot(x - ref[0], y - ref[1]), y, x)
        label = (*sorted(hits), "|", *sorted(spared))
        if label not in found or key < found[label][0]:
            found[label] = (key, OpenPlacement((float(x), float(y)), hits, spared))
    ranked = sorted(found.values(), key=lambda kv: kv[0])
    return [p for _, p in ranked[:limit]]
