"""Tactics on hex maps: range, legal points of origin, movement, and where an area is best placed.

The hex counterparts of :mod:`aoegrid.effects.ranges`, :mod:`aoegrid.effects.movement` and
:mod:`aoegrid.planning.tactics`, for a :class:`~aoegrid.BattleMap` on a
:class:`~aoegrid.HexGrid` (a bare HexGrid where no walls or creatures are
read). What the rules leave open is decided so:

* **Range** is counted in hex steps, times the hex size: from the nearest of
  the caster's hexes to the nearest hex at the point (a point inside a hex
  touches that hex, one on an edge two, a corner three), so a corner on the
  caster's own hex is 0 ft away and a range of 30 ft reaches the corners of
  the hexes 6 steps away. To a creature: to the nearest hex of its
  footprint (an adjacent creature is 5 ft away). The origin's height is not
  measured: points lie on the ground, walls are of every height.
* **Line of effect** (line of sight under Savage Worlds, ``need=``
  overrides as :func:`aoegrid.effects.ranges.resolve_need` says): a straight line
  from the centre of one of the caster's hexes, or from its footprint's
  centre, to the point, crossing no wall that blocks it
  (:meth:`aoegrid.board.visibility.Visibility.sees`; one visibility polygon per
  start, kept by the map). A point inside a wall that blocks effect (not at
  its end) is never legal: :func:`aoegrid.hexarea.hex_area` refuses it.
  SW5e's "near side of the obstruction" is not applied on hexes: a point
  the caster has no line to is illegal.
* **Points of origin** searched: every hex corner under rules whose origins
  are intersections (``Rules.hex_origin == "intersection"``: Starfinder,
  Pathfinder, 5e); every corner and every hex centre otherwise (Savage
  Worlds), where a template centred on a hex sits. Cones and lines start at
  their caster and are aimed: their one origin is the caster.
* **Movement**: a creature moves its whole footprint one hex step at a time,
  each step costing the hex size. A step is barred when, for some hex of
  the footprint, the segment from its centre to the next hex's centre meets
  a wall blocking movement that meets the creature's prism
  (:meth:`aoegrid.BattleMap.walls_meeting`). It passes through the hexes of
  creatures as ``Rules.through`` says (hostility by tags,
  :func:`aoegrid.geometry.tokens.hostile`), never ends in another's hexes, and under
  rules where creatures are difficult terrain (5e) a step into a position
  overlapping another creature costs double.
* **Placements** score as :func:`aoegrid.best_placements` does: the number
  of creatures to hit the area reaches (any of their hexes in it), acceptable
  when it reaches at most ``max_avoid`` creatures to avoid; ties go to fewer
  avoided, nearer the caster, then top to bottom, left to right, then
  direction. The answer equals building :func:`~aoegrid.hexarea.hex_area`
  at every legal origin (tests hold this on random maps); areas are built
  in order of an open-field bound (the creatures with a hex centre within
  the shape's reach plus a hex's circumradius of the origin, which holds
  every hex an area can take) and the search stops when no bound left can
  beat what is found.
* **Move, then place** (``move=``): the caster first moves
  (:func:`hex_reachable`), and every anchor hex it may end on is a stand
  to place from; the answer is the best (stand, origin) pair, what the
  search without ``move=`` from every stand (the caster's token moved
  there, :meth:`aoegrid.BattleMap.move_token`) gives, best of all. A point
  of origin appears once, from its best stand: ties go to more hits, fewer
  avoided, then less movement, nearer the stand, then the point top to
  bottom, left to right, then the stand top to bottom, left to right. A
  point's area does not depend on where the caster stands (it is placed at
  the point, not from the caster): only the point's legality (range and
  line of effect from the stand's hexes) and whether the area takes the
  caster's own hexes there (when it is a creature to hit or avoid) do. So
  each point's area is built once, in order of its bound, and its stands
  are looked at best first until one is legal; a stand's lines of effect
  are read from its visibility polygons once, for every point in its range.
  Cones and lines start at the caster: each stand is a search of its own,
  opened in order of the creatures to hit near its hexes.
"""

from __future__ import annotations

import functools
import heapq
import math
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from numbers import Integral
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from aoegrid.board.battlemap import BattleMapCore, hex_footprint
from aoegrid.board.hexcells import view
from aoegrid.board.visibility import OriginOnWallError
from aoegrid.board.walls import Channel
from aoegrid.effects.ranges import (
    Need,
    OriginCheck,
    Range,
    RangeCheck,
    _inside_walls,
    as_range,
    check_shape_range,
    resolve_need,
)
from aoegrid.effects.targets import Reached
from aoegrid.errors import AoegridWarning, InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.geometry._validate import non_negative, shown
from aoegrid.geometry.directions import parse_direction
from aoegrid.geometry.hexgrid import CIRCUMRADIUS, HexGrid
from aoegrid.geometry.lattice import answers
from aoegrid.geometry.options import Mode, OriginPoint, Through, parse_option
from aoegrid.geometry.regions import EPS
from aoegrid.geometry.rules import Rules, resolve_rules
from aoegrid.geometry.shapes import Cone, Cube, Cylinder, Line, Shape, Sphere
from aoegrid.geometry.stencils import shape_extent
from aoegrid.geometry.tokens import Selector, Token, hostile, token_selector
from aoegrid.hexarea import HexArea, _figure, _origin_from_creature, _touching, hex_area

BoolArray = NDArray[np.bool_]
FloatArray = NDArray[np.float64]
Hex = tuple[int, int]

#: Directions tried for cones and lines by default: every 30 degrees, clockwise from east
#: (the hex grid's six edge and six corner directions).
HEX_DIRECTIONS: tuple[float, ...] = tuple(float(d) for d in range(0, 360, 30))

#: How near two points must be to be the same lattice point, in hex widths.
_SAME = 1e-9
#: Slots of a hex in :attr:`HexOrigins.mask`: its six corners, then its centre.
_SLOTS = 7


# --- the lattice of points of origin ------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Lattice:
    """Every hex corner of a grid once, with the on-map hexes touching it, and the hex centres.

    ``xy`` ``(n, 2)`` sorted by y then x; ``index[row, col, k]`` is corner
    ``k`` of hex ``(col, row)`` in ``xy``; ``touch_cols``, ``touch_rows``
    ``(n, 3)`` the hexes meeting at each corner (``touch_ok`` marks the real
    ones: a corner on the map's edge touches fewer than three).
    """

    xy: FloatArray
    index: NDArray[np.intp]
    touch_cols: NDArray[np.int64]
    touch_rows: NDArray[np.int64]
    touch_ok: BoolArray
    centers: FloatArray  # (H, W, 2)


@functools.lru_cache(maxsize=16)
def _lattice_of(grid: HexGrid) -> _Lattice:
    h, w = grid.shape
    rows, cols = np.indices((h, w))
    corners = grid.corners(cols, rows).reshape(-1, 2)
    # Corners are multiples of half a hex across and of a sixth of the circumradius down: rounding joins
    # the three copies of each exactly.
    keys = np.round(corners / _SAME / 1e3).astype(np.int64)
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    xy = corners[first]
    order = np.lexsort((xy[:, 0], xy[:, 1]))
    rank = np.empty(len(order), dtype=np.intp)
    rank[order] = np.arange(len(order))
    xy = xy[order]
    index = rank[inverse].reshape(h, w, 6)
    owner = np.repeat(np.arange(h * w), 6)
    tc = np.zeros((len(xy), 3), dtype=np.int64)
    tr = np.zeros((len(xy), 3), dtype=np.int64)
    ok = np.zeros((len(xy), 3), dtype=bool)
    fill = np.zeros(len(xy), dtype=np.intp)
    for slot, point in enumerate(index.ravel().tolist()):
        hex_ = int(owner[slot])
        k = fill[point]
        tc[point, k], tr[point, k], ok[point, k] = hex_ % w, hex_ // w, True
        fill[point] += 1
    cx, cy = grid.center(cols, rows)
    for a in (xy, index, tc, tr, ok):
        a.setflags(write=False)
    return _Lattice(xy, index, tc, tr, ok, np.stack([cx, cy], axis=-1))


def _hex_map(on: Any, what: str) -> tuple[HexGrid, BattleMapCore | None]:
    """``on`` as its hex grid and map (None for a bare HexGrid)."""
    if isinstance(on, HexGrid):
        return on, None
    if isinstance(on, BattleMapCore) and isinstance(on.grid, HexGrid):
        return on.grid, on
    raise InvalidTypeError(f"{what} takes on= an aoegrid.HexGrid or a BattleMap on one, got {on!r}")


def _units(rules: Rules, grid: HexGrid) -> None:
    if rules.units is not None and rules.units != grid.units:
        raise InvalidValueError(
            f"{rules.name} rules measure in {rules.units!r} but the hex grid is in {grid.units!r} "
            f"({grid.size:g} {grid.units} a hex); make the grid in the same unit, e.g. "
            f"aoegrid.HexGrid({grid.width}, {grid.height}, units={rules.units!r}, size=1)"
        )


@dataclass(frozen=True)
class _Caster:
    """Who places an effect on hexes: its hexes, its token, and where its lines start."""

    hexes: tuple[Hex, ...]
    token: Token
    starts: tuple[tuple[float, float], ...]
    center: tuple[float, float]


def _caster(caster: Any, grid: HexGrid) -> _Caster:
    """``caster`` (a Token, or a hex ``(col, row)`` standing for a one-hex creature) checked to be on the map."""
    if isinstance(caster, Token):
        token = caster
    else:
        try:
            if isinstance(caster, str):
                raise TypeError
            col, row = caster
        except (TypeError, ValueError):
            raise InvalidTypeError(
                f"caster must be an aoegrid.Token or a hex (col, row) of whole numbers, got {shown(caster)}"
            ) from None
        for v in (col, row):
            if isinstance(v, bool) or not isinstance(v, Integral):
                raise InvalidTypeError(
                    f"caster must be an aoegrid.Token or a hex (col, row) of whole numbers, got {shown(caster)}"
                )
        token = Token(int(col), int(row))
    hexes = tuple(hex_footprint(grid, token))
    cols, rows = np.array(hexes).T
    if not np.all(grid.contains(cols, rows)):
        raise OffGridError(
            f"caster {token.label} (hexes {', '.join(map(str, hexes))}) is not wholly on the "
            f"{grid.width} x {grid.height} hex map"
        )
    center = grid.footprint_center(token.x, token.y, token.footprint[0])
    starts = tuple(dict.fromkeys([*(tuple(map(float, grid.center(c, r))) for c, r in hexes), center]))
    return _Caster(hexes, token, starts, center)


def _steps_to(grid: HexGrid, hexes: Iterable[Hex], cols: Any, rows: Any) -> NDArray[np.int64]:
    """Hex steps from the nearest of ``hexes`` to each hex ``(cols, rows)``."""
    out = None
    for c, r in hexes:
        d = np.asarray(grid.distance((c, r), (np.asarray(cols), np.asarray(rows))))
        out = d if out is None else np.minimum(out, d)
    assert out is not None
    return out


def _point_distances(grid: HexGrid, caster: _Caster, lat: _Lattice) -> tuple[FloatArray, FloatArray]:
    """Range distances (grid units) from the caster to every corner of ``lat`` and every hex centre ``(H, W)``."""
    d = _steps_to(grid, caster.hexes, lat.touch_cols, lat.touch_rows)
    corner = np.where(lat.touch_ok, d, np.iinfo(np.int64).max).min(axis=1) * grid.size
    rows, cols = np.indices(grid.shape)
    return corner.astype(float), (_steps_to(grid, caster.hexes, cols, rows) * grid.size).astype(float)


# --- range --------------------------------------------------------------------------------------


@answers("hex", "in_range")
def hex_in_range(caster: Any, target: Any, range: Range | float, grid: HexGrid | BattleMapCore,
                 rules: Rules | str = "starfinder") -> RangeCheck:
    """Whether ``target`` lies within ``range`` of ``caster`` on a hex grid.

    Parameters
    ----------
    caster : Token or (col, row)
        A hex stands for a one-hex creature on it.
    target : (x, y) or Token
        A point in hex map coordinates, or a creature.
    range : Range or float
        A :class:`~aoegrid.Range`, or a number of the grid's units (feet).
    grid : HexGrid or BattleMap on one
    rules : Rules or str
        Which points are origins, for ``nearest`` (corners, or corners and
        centres).

    Returns
    -------
    RangeCheck
        ``distance``: hex steps from the nearest of the caster's hexes to the
        nearest hex at the point (1 to 3 hexes touch a point) or of the
        creature's footprint, times the hex size. ``nearest``: the point
        itself (a creature: its footprint's centre) when in range; otherwise
        the point of origin in range nearest to it (straight-line distance;
        ties top to bottom, left to right), or the target when none is.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(12, 4)
    >>> c = hex_in_range(ag.Token(0, 1), g.corners(6, 1)[0], 30, g)   # touches (6, 1) and (5, 0), (6, 0)
    >>> c.in_range, c.distance
    (True, 30.0)
    >>> c = hex_in_range(ag.Token(0, 1), g.corners(8, 1)[1], 30, g)   # (8, 1) is 8 steps away
    >>> c.in_range, c.distance, [round(v, 3) for v in c.nearest]
    (False, 40.0, [7.5, 1.155])
    """
    g, _ = _hex_map(grid, "hex_in_range")
    rules = resolve_rules(rules)
    rng = as_range(range)
    who = _caster(caster, g)
    limit = rng.feet
    if isinstance(target, Token):
        aim = hex_footprint(g, target)
        cols, rows = np.array(aim).T
        if not np.all(g.contains(cols, rows)):
            raise OffGridError(f"target {target.label} (hexes {', '.join(map(str, aim))}) is not wholly on the "
                               f"{g.width} x {g.height} hex map")
        dist = float(_steps_to(g, who.hexes, cols, rows).min() * g.size)
        p = g.footprint_center(target.x, target.y, target.footprint[0])
    else:
        p = _point(target, g, "target")
        hit = _touching(g, p)
        cols, rows = np.array(hit).T
        dist = float(_steps_to(g, who.hexes, cols, rows).min() * g.size)
    if dist <= limit + 1e-9:
        return RangeCheck(True, dist, limit, p)
    lat = _lattice_of(g)
    d_corner, d_centre = _point_distances(g, who, lat)
    pts = [lat.xy[d_corner <= limit + 1e-9]]
    if rules.hex_origin is OriginPoint.ANY:
        pts.append(lat.centers[d_centre <= limit + 1e-9])
    cand = np.concatenate(pts)
    if not len(cand):
        return RangeCheck(False, dist, limit, p)
    k = np.lexsort((cand[:, 0], cand[:, 1], np.round(np.hypot(cand[:, 0] - p[0], cand[:, 1] - p[1]), 12)))[0]
    return RangeCheck(False, dist, limit, (float(cand[k, 0]), float(cand[k, 1])))


def _point(value: Any, grid: HexGrid, field_: str) -> tuple[float, float]:
    """A finite point ``(x, y)`` on the hex map (its border included)."""
    try:
        x, y = (float(v) for v in np.asarray(value, dtype=np.float64).reshape(2))
    except (TypeError, ValueError):
        raise InvalidTypeError(f"{field_} must be a point (x, y) in hex map coordinates or a Token, "
                               f"got {shown(value)}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise InvalidValueError(f"{field_} must be finite, got ({x!r}, {y!r})")
    w, h = grid.extent
    if not (-EPS <= x <= w + EPS and -EPS <= y <= h + EPS):
        raise OffGridError(f"{field_} ({x:g}, {y:g}) is off the {grid.width} x {grid.height} hex map "
                           f"(0..{w:.4g} x 0..{h:.4g} in hex widths)")
    return x, y


# --- legal points of origin ---------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class HexOrigins:
    """The legal points of origin of a shape on a hex map.

    Attributes
    ----------
    mask : bool array ``(height, width, 7)``
        Read-only, indexed ``[row, col, k]``: for ``k`` 0 to 5, whether corner
        ``k`` of hex ``(col, row)`` (:meth:`HexGrid.corners` order) is legal
        (a corner shared by three hexes is marked in each); ``k = 6``, whether
        the hex's centre is (searched only under ``hex_origin="any"``; for
        cones and lines, ``lattice="caster"``, the caster's hexes).
    x, y : float arrays
        The legal points, each once, sorted by y then x (for cones and
        lines: the caster's footprint centre).
    lattice : str
        ``"corners"``, ``"corners+centers"`` or ``"caster"``.
    caster : Token or None
    grid : HexGrid
    distance : float array
        Each legal point's range distance from the caster (0 without one, and
        for cones and lines).
    refused : dict of str to int
        How many points each rule left out, in the order checked (``"inside
        a wall"``, ``"out of range"``, ``"no line of effect"``, ``"no line of
        sight"``).
    """

    mask: BoolArray
    x: FloatArray
    y: FloatArray
    lattice: str
    caster: Token | None
    grid: HexGrid
    distance: FloatArray
    refused: dict[str, int] = field(default_factory=dict)

    def points(self) -> list[tuple[float, float]]:
        """The legal points as ``(x, y)``, sorted by y then x."""
        return list(zip(self.x.tolist(), self.y.tolist(), strict=True))

    def __len__(self) -> int:
        return len(self.x)

    def __contains__(self, p: object) -> bool:
        try:
            x, y = (float(v) for v in np.asarray(p, dtype=np.float64).reshape(2))
        except (TypeError, ValueError):
            return False
        return bool((np.hypot(self.x - x, self.y - y) <= _SAME * 1e3).any())


def _lattice_name(shape: Shape, rules: Rules) -> str:
    if isinstance(shape, (Cone, Line)):
        return "caster"
    return "corners" if rules.hex_origin is OriginPoint.INTERSECTION else "corners+centers"


@dataclass(frozen=True, eq=False)
class _Points:
    """Every point a search looks at, legal or not: where, how far, and their slots in the ``(H, W, 7)`` mask."""

    xy: FloatArray
    dist: FloatArray
    legal: BoolArray
    slots: list[NDArray[np.intp]]  # per point, the flat indices of its slots in (H, W, 7)
    refused: dict[str, int]


def _points(shape: Shape, caster: _Caster | None, rng: Range | None, grid: HexGrid, bmap: BattleMapCore | None,
            rules: Rules, need: Need | str | None) -> _Points:
    """The lattice points of :func:`hex_legal_origins`, and which are legal."""
    lat = _lattice_of(grid)
    h, w = grid.shape
    n_c = len(lat.xy)
    xy = [lat.xy]
    flat = (lat.index.reshape(h, w, 6) + 0)  # corner id per slot
    slot_ids = np.arange(h * w * _SLOTS).reshape(h, w, _SLOTS)
    order = np.argsort(flat.ravel(), kind="stable")
    bounds = np.searchsorted(flat.ravel()[order], np.arange(n_c + 1))
    corner_slots = slot_ids[..., :6].ravel()[order]
    slots = [corner_slots[bounds[i]:bounds[i + 1]] for i in range(n_c)]
    if caster is not None:
        d_corner, d_centre = _point_distances(grid, caster, lat)
    else:
        d_corner, d_centre = np.zeros(n_c), np.zeros(grid.shape)
    dists = [d_corner]
    if _lattice_name(shape, rules) == "corners+centers":
        xy.append(lat.centers.reshape(-1, 2))
        dists.append(d_centre.ravel())
        slots += [np.array([s]) for s in slot_ids[..., 6].ravel().tolist()]
    pts = np.concatenate(xy)
    dist = np.concatenate(dists)
    ok = np.ones(len(pts), dtype=bool)
    refused: dict[str, int] = {}

    def left_out(reason: str, keep: BoolArray) -> None:
        n = int((ok & ~keep).sum())
        if n:
            refused[reason] = refused.get(reason, 0) + n
        ok[:] &= keep

    if bmap is not None:
        left_out("inside a wall", ~_in_walls(bmap, pts))
    if rng is not None and math.isfinite(rng.feet):
        left_out("out of range", dist <= rng.feet + 1e-9)
    if bmap is not None and caster is not None:
        for channel in resolve_need(need, rules):
            left_out(f"no line of {channel.value}", _seen(bmap, caster.starts, pts, ok, channel))
    return _Points(pts, dist, ok, slots, refused)


def _seen(bmap: BattleMapCore, starts: Iterable[tuple[float, float]], pts: FloatArray, ask: BoolArray,
          channel: Channel) -> BoolArray:
    """Which points ``pts`` (of those ``ask`` marks) a straight line from one of ``starts`` reaches on ``channel``."""
    seen = np.zeros(len(pts), dtype=bool)
    idx = np.flatnonzero(ask)
    for s in starts:
        try:
            vis = view(bmap, s, channel.value)
        except OriginOnWallError:
            continue  # a wall through this start: lines start from the others
        seen[idx] |= vis.sees(pts[idx, 0], pts[idx, 1])
    return seen


def _in_walls(bmap: BattleMapCore, pts: FloatArray) -> BoolArray:
    """Which points lie inside a wall blocking effect (not at its end): what :func:`hex_area` refuses."""
    segs = bmap.wallset(Channel.EFFECT).segs
    out = np.zeros(len(pts), dtype=bool)
    if not len(segs) or not len(pts):
        return out
    tree = shapely.STRtree(shapely.points(pts))
    wall, point = tree.query(shapely.linestrings(segs.reshape(-1, 2, 2)), predicate="dwithin", distance=1e-6)
    hit = _inside_walls(pts[point, 0], pts[point, 1], segs[wall])
    out[point[hit]] = True
    return out


@answers("hex", "legal_origins")
def hex_legal_origins(shape: Shape, caster: Any, range: Range | float | None, on: HexGrid | BattleMapCore,
                      rules: Rules | str = "starfinder", *, need: Need | str | None = None) -> HexOrigins:
    """Every legal point of origin for ``shape`` cast by ``caster`` on a hex map.

    The points looked at are every hex corner (and, under
    ``hex_origin="any"``, every hex centre; see the module). A point is
    illegal when it lies inside a wall blocking effect, when it is out of
    range (:func:`hex_in_range`), or when no straight line from the centre of
    one of the caster's hexes or of its footprint reaches it (line of effect;
    of sight under Savage Worlds; ``need`` overrides). Cones and lines start
    at their caster (``lattice="caster"``): legal whatever the range.

    Parameters
    ----------
    shape : Sphere, Cylinder, Cone, Line or Cube
    caster : Token, (col, row) or None
        None: an effect with no caster (a trap): every point not inside a
        wall, with no range and no need (not for cones and lines).
    range : Range, float or None
        None: no limit.
    on : HexGrid or BattleMap on one
    rules : Rules or str
    need : {"effect", "sight", "both"}, optional

    Returns
    -------
    HexOrigins

    Raises
    ------
    OffGridError
        A caster not wholly on the map.
    InvalidValueError
        ``caster=None`` with a range, a need, or a cone or line; a range the
        shape cannot have (an SW5e cone's is self).

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(8, 5)
    >>> m = ag.BattleMap(g, walls=[ag.Wall(tuple(g.corners(3, 2)[0]), tuple(g.corners(3, 2)[3]))])
    >>> o = hex_legal_origins(ag.Sphere(5), ag.Token(1, 2), 10, m)
    >>> len(o), o.refused
    (46, {'out of range': 58, 'no line of effect': 2})
    >>> o.mask[2, 1].astype(int).tolist()     # its own hex's six corners; no centre under Starfinder
    [1, 1, 1, 1, 1, 1, 0]
    """
    grid, bmap = _hex_map(on, "hex_legal_origins")
    rules = resolve_rules(rules)
    _units(rules, grid)
    who, rng = _checked_caster(shape, caster, range, need, rules, grid)
    lattice = _lattice_name(shape, rules)
    h, w = grid.shape
    if lattice == "caster":
        assert who is not None
        mask = np.zeros((h, w, _SLOTS), dtype=bool)
        for c, r in who.hexes:
            mask[r, c, 6] = True
        mask.setflags(write=False)
        return HexOrigins(mask, np.array([who.center[0]]), np.array([who.center[1]]), lattice, who.token, grid,
                          np.zeros(1))
    pts = _points(shape, who, rng, grid, bmap, rules, need)
    flat = np.zeros(h * w * _SLOTS, dtype=bool)
    for n in np.flatnonzero(pts.legal).tolist():
        flat[pts.slots[n]] = True
    mask = flat.reshape(h, w, _SLOTS)
    mask.setflags(write=False)
    keep = np.flatnonzero(pts.legal)
    keep = keep[np.lexsort((pts.xy[keep, 0], pts.xy[keep, 1]))]
    return HexOrigins(mask, pts.xy[keep, 0].copy(), pts.xy[keep, 1].copy(), lattice,
                      None if who is None else who.token, grid, pts.dist[keep].copy(), pts.refused)


def _checked_caster(shape: Shape, caster: Any, range: Any, need: Any, rules: Rules,
                    grid: HexGrid) -> tuple[_Caster | None, Range | None]:
    """The caster and range of a search, refused where the shape cannot have them."""
    if not isinstance(shape, (Sphere, Cylinder, Cone, Line, Cube)):
        raise InvalidTypeError(
            f"on a hex grid the shape must be an aoegrid Sphere, Cylinder, Cone, Line or Cube, got {shape!r}")
    if caster is None:
        if isinstance(shape, (Cone, Line)):
            raise InvalidValueError(
                f"a {type(shape).__name__.lower()} starts at its caster: caster=None (an effect placed anywhere, "
                "with no one casting it) is for shapes placed at a point")
        for name, value in (("range", range), ("need", need)):
            if value is not None:
                raise InvalidValueError(
                    f"{name}= is what a caster needs to a point of origin: with caster=None give none; "
                    f"got {name}={value!r}")
        return None, None
    rng = None if range is None else as_range(range)
    if rng is not None:
        check_shape_range(shape, rng, rules)
    return _caster(caster, grid), rng


@answers("hex", "check_origin")
def hex_check_origin(shape: Shape, at: Any, *, caster: Any, range: Range | float | None = None,
                     on: HexGrid | BattleMapCore, rules: Rules | str = "starfinder",
                     need: Need | str | None = None) -> OriginCheck:
    """Whether ``at`` is a legal point of origin for ``shape`` cast by ``caster`` on a hex map.

    The rules of :func:`hex_legal_origins` for one point, checked in this
    order: off the map, not a hex corner (under rules whose origins are
    corners), inside a wall, out of range, no line of effect (or sight). For
    cones and lines ``at`` must be the caster. ``nearest`` is the legal point
    nearest ``at`` (straight-line distance; ties top to bottom, left to
    right), None when none is; ``origin`` is ``at`` when legal.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(12, 4)
    >>> c = hex_check_origin(ag.Sphere(10), g.corners(9, 1)[0], caster=ag.Token(0, 1), range=30, on=g)
    >>> c.legal, c.reason, [round(v, 3) for v in c.nearest]
    (False, 'out of range', [7.5, 1.155])
    >>> c.message
    'point of origin (10, 0.866) is 45 ft from the caster, beyond its range of 30 ft; the nearest legal origin is (7.5, 1.155)'
    >>> hex_check_origin(ag.Sphere(10), g.center(3, 1), caster=ag.Token(0, 1), range=30, on=g).reason
    'not a hex corner'
    """
    grid, bmap = _hex_map(on, "hex_check_origin")
    rules = resolve_rules(rules)
    _units(rules, grid)
    who, rng = _checked_caster(shape, caster, range, need, rules, grid)
    assert who is not None or caster is None

    def refuse(reason: str, what: str, p: tuple[float, float]) -> OriginCheck:
        o = hex_legal_origins(shape, caster, rng, on, rules, need=need)
        near = None
        if len(o):
            k = int(np.lexsort((o.x, o.y, np.round(np.hypot(o.x - p[0], o.y - p[1]), 12)))[0])
            near = (float(o.x[k]), float(o.y[k]))
        tail = "; no point is legal" if near is None else f"; the nearest legal origin is {_shown(near)}"
        return OriginCheck(False, reason, what + tail, near)

    if _lattice_name(shape, rules) == "caster":
        assert who is not None
        if isinstance(at, Token) and (at is who.token or at == who.token or (at.x, at.y) == (who.token.x, who.token.y)):
            return OriginCheck(True, None, "", None, at)
        return OriginCheck(False, "not from the caster",
                           f"a {type(shape).__name__.lower()} starts at its caster and is aimed by direction: pass "
                           f"at=the caster, not {at!r}", who.token)
    try:
        p = _point(at, grid, "point of origin")
    except OffGridError:
        x, y = (float(v) for v in np.asarray(at, dtype=np.float64).reshape(2))
        w, h = grid.extent
        return refuse("off the map", f"point of origin {_shown((x, y))} is off the {grid.width} x {grid.height} "
                      f"hex map", (min(max(x, 0.0), w), min(max(y, 0.0), h)))
    name = f"point of origin {_shown(p)}"
    if rules.hex_origin is OriginPoint.INTERSECTION:
        lat = _lattice_of(grid)
        if not (np.hypot(lat.xy[:, 0] - p[0], lat.xy[:, 1] - p[1]) <= _SAME).any():
            return refuse("not a hex corner", f"{name} is not a hex corner: {rules.name} points of origin are "
                          "intersections of hexes", p)
    if bmap is not None and _in_walls(bmap, np.array([p]))[0]:
        return refuse("inside a wall", f"{name} lies inside a wall", p)
    if who is not None and rng is not None:
        check = hex_in_range(caster, p, rng, grid, rules)
        if not check.in_range:
            return refuse("out of range", f"{name} is {check.distance:g} {grid.units} from the caster, beyond its "
                          f"range of {check.limit:g} {grid.units}", p)
    if bmap is not None and who is not None:
        for channel in resolve_need(need, rules):
            seen = False
            for s in who.starts:
                try:
                    seen = bool(view(bmap, s, channel.value).sees(np.array(p[0]), np.array(p[1])))
                except OriginOnWallError:
                    continue
                if seen:
                    break
            if not seen:
                return refuse(f"no line of {channel.value}", f"the caster has no line of {channel.value} to {name}", p)
    return OriginCheck(True, None, "", None, p)


def _shown(p: tuple[float, float]) -> str:
    return f"({p[0]:.4g}, {p[1]:.4g})"


# --- movement -----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class HexReach:
    """Where a creature can end its move on a hex map (what :func:`hex_reachable` returns).

    Attributes
    ----------
    cost : float array ``(height, width)``
        Indexed ``[row, col]``: the movement (hex steps times the hex size,
        doubled where the rules make creatures difficult terrain) for the
        creature's anchor hex (its Token ``(x, y)``) to end at ``(col, row)``;
        ``inf`` where it cannot end (no path, another creature there, beyond
        the budget). 0 at the start.
    mask : bool array
        ``cost <= budget``.
    budget : float
    start : (col, row)
    rules : Rules
    """

    cost: FloatArray
    mask: BoolArray
    budget: float
    start: Hex
    rules: Rules
    _pred: NDArray[np.int64] = field(repr=False)

    @property
    def hexes(self) -> list[Hex]:
        """The anchor hexes within the budget, row by row."""
        rows, cols = np.nonzero(self.mask)
        return list(zip(cols.tolist(), rows.tolist(), strict=True))

    def __len__(self) -> int:
        return int(self.mask.sum())

    def __contains__(self, hex_: object) -> bool:
        if not (isinstance(hex_, tuple) and len(hex_) == 2):
            return False
        c, r = hex_
        h, w = self.mask.shape
        return isinstance(c, Integral) and isinstance(r, Integral) and 0 <= r < h and 0 <= c < w \
            and bool(self.mask[r, c])

    def path(self, col: int, row: int) -> list[Hex]:
        """One cheapest path of anchor hexes from :attr:`start` to ``(col, row)``, both included.

        Raises
        ------
        InvalidValueError
            When the creature cannot end there within the budget.
        """
        h, w = self.mask.shape
        if not (isinstance(col, Integral) and isinstance(row, Integral) and 0 <= row < h and 0 <= col < w) \
                or not self.mask[row, col]:
            raise InvalidValueError(f"no move from {self.start} within {self.budget:g} ends at hex {(col, row)!r}")
        node, out = int(row) * w + int(col), []
        while node >= 0:
            out.append((node % w, node // w))
            node = int(self._pred[node])
        return out[::-1]


def _blocked_steps(grid: HexGrid, walls: BattleMapCore | None) -> BoolArray:
    """``(6, H, W)``: whether the step from each hex to its k-th neighbour is barred (a wall, or off the map)."""
    h, w = grid.shape
    rows, cols = np.indices((h, w))
    out = np.ones((6, h, w), dtype=bool)
    segs = np.zeros((0, 4)) if walls is None else walls.wallset(Channel.MOVEMENT).segs
    tree = shapely.STRtree(shapely.linestrings(segs.reshape(-1, 2, 2))) if len(segs) else None
    cx, cy = grid.center(cols, rows)
    for k in range(6):
        nc, nr = grid.step(cols, rows, k)
        on = np.asarray(grid.contains(nc, nr))
        stop = ~on
        if tree is not None and on.any():
            a = np.stack([cx[on], cy[on]], axis=-1)
            bx, by = grid.center(nc[on], nr[on])
            hit, _ = tree.query(shapely.linestrings(np.stack([a, np.stack([bx, by], axis=-1)], axis=1)),
                                predicate="intersects")
            barred = np.zeros(int(on.sum()), dtype=bool)
            barred[hit] = True
            stop[on] = barred
        out[k] = stop
    return out


def _moves(grid: HexGrid, walls: BattleMapCore | None, n: int, start: Hex, budget: float, passable: BoolArray,
           blocking: BoolArray, difficult: bool) -> tuple[FloatArray, NDArray[np.int64], BoolArray]:
    """Cheapest moves (in hex sizes) of a creature ``n`` hexes across from anchor ``start``.

    Returns the cost of every anchor (``inf`` unreached), the predecessors,
    and where it may end (standable, clear of other creatures).
    """
    h, w = grid.shape
    rows, cols = np.indices((h, w))
    q0, r0, _ = grid.to_cube(0, 0)
    foot = grid.footprint(0, 0, n)
    fq, fr, _ = grid.to_cube(*np.array(foot).T)
    aq, ar, _ = grid.to_cube(cols, rows)
    dq, dr = np.asarray(fq) - q0, np.asarray(fr) - r0
    # (m, H, W): each footprint hex of each anchor.
    fc, frow = grid.from_cube(aq[None] + dq[:, None, None], ar[None] + dr[:, None, None],
                              -(aq[None] + dq[:, None, None]) - (ar[None] + dr[:, None, None]))
    fc, frow = np.asarray(fc), np.asarray(frow)
    on = np.asarray(grid.contains(fc, frow))
    inside = on.all(axis=0)
    sc, sr = np.where(on, fc, 0), np.where(on, frow, 0)
    barred = _blocked_steps(grid, walls)
    standable = inside & ~(blocking[sr, sc] & on).any(axis=0)
    rel = set(zip(dq.tolist(), dr.tolist(), strict=True))
    steps = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
    for m, (a, b) in enumerate(zip(dq.tolist(), dr.tolist(), strict=True)):
        for k, (sq, sr_) in enumerate(steps):
            if (a + sq, b + sr_) in rel:  # a wall between two of its own hexes
                standable &= ~np.where(on[m], barred[k][sr[m], sc[m]], True)
    crowded = (passable[sr, sc] & on).any(axis=0)
    step_ok = []
    for k in range(6):
        # Every hex of the footprint steps the same way.
        step_ok.append(inside & ~np.where(on, barred[k][sr, sc], True).any(axis=0))
    cost = np.full(h * w, np.inf)
    pred = np.full(h * w, -1, dtype=np.int64)
    s = start[1] * w + start[0]
    cost[s] = 0.0
    heap = [(0.0, s)]
    stand = standable.ravel()
    enter = np.where(crowded & difficult, 2.0, 1.0).ravel()
    nbr = [np.asarray(grid.step(cols, rows, k)) for k in range(6)]
    ok = [a.ravel() for a in step_ok]
    while heap:
        d, node = heapq.heappop(heap)
        if d > cost[node]:
            continue
        r, c = divmod(node, w)
        for k in range(6):
            if not ok[k][node]:
                continue
            nc, nr = int(nbr[k][0][r, c]), int(nbr[k][1][r, c])
            if not (0 <= nc < w and 0 <= nr < h):
                continue
            t = nr * w + nc
            if not stand[t]:
                continue
            nd = d + enter[t]
            if nd <= budget + 1e-9 and nd < cost[t]:
                cost[t], pred[t] = nd, node
                heapq.heappush(heap, (nd, t))
    return cost.reshape(h, w), pred, standable & ~crowded


def _walls_in(bmap: BattleMapCore | None, token: Token, grid: HexGrid) -> BattleMapCore | None:
    return None if bmap is None else bmap.walls_meeting(*token.prism(grid.size))


def _check_start(grid: HexGrid, walls: BattleMapCore | None, token: Token) -> list[Hex]:
    hexes = hex_footprint(grid, token)
    cols, rows = np.array(hexes).T
    if not np.all(grid.contains(cols, rows)):
        raise OffGridError(f"creature {token.label} (hexes {', '.join(map(str, hexes))}) is not wholly on the "
                           f"{grid.width} x {grid.height} hex map")
    if walls is None:
        return hexes
    segs = walls.wallset(Channel.MOVEMENT).segs
    if len(segs):
        lines = shapely.linestrings(segs.reshape(-1, 2, 2))
        for c, r in hexes:
            if (shapely.distance(lines, shapely.Point(grid.center(c, r))) <= EPS).any():
                raise InvalidValueError(f"creature {token.label} stands inside a wall: a wall blocking movement "
                                        f"runs through the centre of hex ({c}, {r})")
        barred = _blocked_steps(grid, walls)
        own = set(hexes)
        for c, r in hexes:
            for k in range(6):
                nb = grid.step(c, r, k)
                if nb in own and barred[k, r, c]:
                    raise InvalidValueError(f"creature {token.label} stands inside a wall: a wall blocking "
                                            f"movement runs between hexes ({c}, {r}) and {nb} of its footprint")
    return hexes


@answers("hex", "reachable")
def hex_reachable(on: HexGrid | BattleMapCore, start: Token | Hex, move: float, rules: Rules | str = "starfinder",
                  *, through: Through | str | None = None, enemies: Selector = None) -> HexReach:
    """Every hex a creature's anchor can end its move on, with ``move`` of movement, on a hex map.

    Parameters
    ----------
    on : HexGrid or BattleMap on one
    start : Token or (col, row)
        The mover (a hex: a one-hex creature there on the ground, the map's
        token standing on it if any). Its whole footprint moves.
    move : float
        Its movement in the grid's unit, 0 or more.
    rules : Rules or str
        ``through`` and ``creatures_difficult`` are read from it.
    through : {"allies", "all", "none"}, optional
        Overrides ``Rules.through``.
    enemies : tags, predicate or tokens, optional
        Who is hostile to the mover; by default :func:`aoegrid.geometry.tokens.hostile`.

    Returns
    -------
    HexReach
        ``.cost`` per anchor hex, ``.mask``, ``.path(col, row)``.

    Raises
    ------
    InvalidValueError
        ``move`` negative or not finite; the mover inside a wall meeting its
        prism.
    OffGridError
        The mover not wholly on the map.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(5, 3)
    >>> me, orc = ag.Token(0, 1, tags={"ally"}), ag.Token(2, 1, tags={"enemy"})
    >>> r = hex_reachable(ag.BattleMap(g, tokens=[me, orc]), me, 15)
    >>> print(np.where(r.mask, r.cost, -1).astype(int))
    [[ 5  5 10 15 -1]
     [ 0  5 -1 -1 -1]
     [ 5  5 10 15 -1]]

    (Hex (3, 1), beyond the orc, is 20 ft round it.)
    """
    grid, bmap = _hex_map(on, "hex_reachable")
    rules = resolve_rules(rules)
    _units(rules, grid)
    budget = non_negative(move, "hex_reachable move")
    tokens = () if bmap is None else bmap.tokens
    if isinstance(start, Token):
        mover: Token | None = start
        token = start
    else:
        token = _caster(start, grid).token
        there = [t for t in tokens if (t.x, t.y) == (token.x, token.y) and t.footprint[0] == 1]
        mover = there[0] if len(there) == 1 else None
        token = mover if mover is not None else token
    walls = _walls_in(bmap, token, grid)
    _check_start(grid, walls, token)
    how = rules.through if through is None else parse_option(Through, through, "through")
    if enemies is None:
        is_enemy: Callable[[Token], bool] = (lambda t: False) if mover is None else (lambda t: hostile(token, t))
    else:
        is_enemy = token_selector(enemies, "enemies")
    passable = np.zeros(grid.shape, dtype=bool)
    blocking = np.zeros(grid.shape, dtype=bool)
    for t in tokens:
        if mover is not None and (t is mover or t == mover):
            continue
        blocks = how is Through.NONE or (how is Through.ALLIES and is_enemy(t))
        for c, r in hex_footprint(grid, t):
            if grid.contains(c, r):
                (blocking if blocks else passable)[r, c] = True
    cost, pred, end = _moves(grid, walls, token.footprint[0], (token.x, token.y), budget / grid.size,
                             passable, blocking, rules.creatures_difficult)
    cost = np.where(end, cost, np.inf) * grid.size
    cost[token.y, token.x] = 0.0
    mask = cost <= budget + 1e-9
    for a in (cost, mask):
        a.setflags(write=False)
    return HexReach(cost, mask, budget, (token.x, token.y), rules, pred)


@answers("hex", "path_distance")
def hex_path_distance(on: HexGrid | BattleMapCore, a: Token | Hex, b: Token | Hex | None = None) -> Any:
    """Hex steps (times the hex size) a creature walks from ``a`` around walls, creatures ignored.

    A hex stands for a one-hex creature on the ground. With ``b``, the cost
    to its anchor hex (``inf``: no path); without, the ``(height, width)``
    array for every anchor.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(5, 3)
    >>> wall = ag.Wall(tuple(g.corners(2, 0)[0]), tuple(g.corners(2, 2)[3]))   # straight down through column 2
    >>> hex_path_distance(g, (0, 1), (4, 1)), hex_path_distance(ag.BattleMap(g, walls=[wall]), (0, 1), (4, 1))
    (20.0, inf)
    """
    grid, bmap = _hex_map(on, "hex_path_distance")
    token = a if isinstance(a, Token) else _caster(a, grid).token
    walls = _walls_in(bmap, token, grid)
    _check_start(grid, walls, token)
    none = np.zeros(grid.shape, dtype=bool)
    cost, _, _ = _moves(grid, walls, token.footprint[0], (token.x, token.y), math.inf, none, none, False)
    cost = cost * grid.size
    if b is None:
        cost.setflags(write=False)
        return cost
    end = b if isinstance(b, Token) else _caster(b, grid).token
    return float(cost[end.y, end.x])


# --- best placements ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class HexPlacement:
    """One way to place an area on a hex map, with what it reaches (fields as :class:`aoegrid.planning.tactics.Placement`).

    ``at``: the point of origin ``(x, y)``, or for cones and lines the caster
    (a Token); ``direction``: degrees for cones and lines, else None;
    ``score``: the number of :attr:`hits`; ``hits``, ``avoided``: as
    :meth:`HexArea.tokens` gives them; ``distance``: the range distance from
    the caster to ``at`` (0 for cones and lines and with no caster);
    ``origin``: where the area is placed (``at``).

    With ``move=`` (:func:`hex_best_placements`): ``stand``, the caster moved
    to where it places the area (:meth:`Token.moved_to` its anchor hex; a
    cone or line's ``at`` is this token), from which range, line of effect
    and ``distance`` are judged; ``path``, the anchor hexes it steps
    through, from where it starts to ``stand`` (:meth:`HexReach.path`);
    ``cost``, the movement that path costs. Without: None, ``()``, 0.
    """

    at: tuple[float, float] | Token
    direction: float | None
    shape: Shape
    score: float
    hits: tuple[Reached, ...]
    avoided: tuple[Reached, ...]
    area: HexArea
    distance: float
    origin: tuple[float, float] | Token
    stand: Token | None = None
    path: tuple[Hex, ...] = ()
    cost: float = 0.0


def _search_args(on: Any, hit: Selector, max_avoid: Any) -> None:
    """Refuse a placement search's map, ``hit`` and ``max_avoid`` before any work."""
    if not (isinstance(on, BattleMapCore) and isinstance(on.grid, HexGrid)):
        raise InvalidTypeError(
            f"on must be an aoegrid.BattleMap on a HexGrid (its creatures are what placements are scored on), "
            f"got {on!r}")
    if hit is None:
        raise InvalidValueError("hex placements need hit= (tags, a predicate or tokens): the creatures to reach")
    if max_avoid is not None and (isinstance(max_avoid, bool) or not isinstance(max_avoid, int) or max_avoid < 0):
        raise InvalidValueError(f"max_avoid must be a whole number, 0 or more, or None for no limit; got {max_avoid!r}")


class _HexSearch:
    """The candidates of a hex placement search, their open-field bounds, and exact evaluation."""

    def __init__(self, shape: Shape, caster: Any, range: Any, on: Any, rules: Rules | str, mode: Mode | str,
                 hit: Selector, avoid: Selector, max_avoid: int | None, directions: Any,
                 need: Need | str | None, leave_out: int | None = None) -> None:
        _search_args(on, hit, max_avoid)
        self.bmap, self.grid = on, on.grid
        self.rules = resolve_rules(rules)
        _units(self.rules, self.grid)
        self.mode = parse_option(Mode, mode, "mode")
        self.shape, self.max_avoid = shape, max_avoid
        is_hit, is_avoid = token_selector(hit, "hit"), token_selector(avoid, "avoid")
        # The moving caster (``leave_out``, its index among the map's creatures) is counted where it stands.
        self.tokens = [t for n, t in enumerate(on.tokens) if n != leave_out]
        self.is_hit = np.array([is_hit(t) for t in self.tokens], dtype=bool)
        self.is_avoid = np.array([is_avoid(t) for t in self.tokens], dtype=bool)
        self.who, _ = _checked_caster(shape, caster, range, need, self.rules, self.grid)
        self.aimed = _lattice_name(shape, self.rules) == "caster"
        if self.aimed:
            assert self.who is not None
            if directions is None:
                directions = HEX_DIRECTIONS
            elif isinstance(directions, (str, int, float)):
                raise InvalidTypeError(f"directions must be a collection of degrees or compass names, got {directions!r}")
            self.dirs = np.array(sorted({parse_direction(d, "direction") for d in directions}), dtype=float)
            if not len(self.dirs):
                raise InvalidValueError("directions is empty: give at least one direction (degrees or a compass name)")
            n = len(self.dirs)
            self.x, self.y = np.full(n, self.who.center[0]), np.full(n, self.who.center[1])
            self.dist = np.zeros(n)
            self.bound = np.full(n, len(self.tokens), dtype=np.int64)
            self.open_avoid = np.full(n, len(self.tokens), dtype=np.int64)
            self.at_caster = caster if isinstance(caster, Token) else self.who.token
            return
        if directions is not None:
            raise InvalidValueError(f"directions= is for cones and lines, aimed from their caster; a "
                                    f"{type(shape).__name__.lower()} is placed at a point (got directions={directions!r})")
        self.points = _points(shape, self.who, None if range is None else as_range(range), self.grid, on,
                              self.rules, need)
        legal = np.flatnonzero(self.points.legal)
        self.index = legal
        self.x, self.y = self.points.xy[legal, 0], self.points.xy[legal, 1]
        self.dist = self.points.dist[legal]
        self.dirs = np.zeros(len(legal))
        # Every hex an area can take has its centre within the shape's reach plus a circumradius of the origin.
        self.reach = reach = shape.reach / self.grid.size + CIRCUMRADIUS + 1e-6
        self.near: list[NDArray[np.intp]] = []
        near = np.zeros((len(self.tokens), len(legal)), dtype=bool)
        for t, token in enumerate(self.tokens):
            if not (self.is_hit[t] or self.is_avoid[t]):
                continue
            cols, rows = np.array(hex_footprint(self.grid, token)).T
            cx, cy = self.grid.center(cols, rows)
            d = np.hypot(self.x[:, None] - np.asarray(cx)[None], self.y[:, None] - np.asarray(cy)[None]).min(axis=1)
            near[t] = d <= reach
        self.near_tokens = near
        self.bound = (near & self.is_hit[:, None]).sum(axis=0).astype(np.int64)
        self.open_avoid = (near & self.is_avoid[:, None]).sum(axis=0).astype(np.int64)

    def __len__(self) -> int:
        return len(self.x)

    def relevant(self, k: int) -> list[Token]:
        if self.aimed:
            return [t for t, h, a in zip(self.tokens, self.is_hit, self.is_avoid, strict=True) if h or a]
        return [self.tokens[t] for t in np.flatnonzero(self.near_tokens[:, k])]

    def at(self, k: int) -> tuple[float, float] | Token:
        return self.at_caster if self.aimed else (float(self.x[k]), float(self.y[k]))

    def shape_at(self, k: int) -> Shape:
        return self.shape.replace(direction=float(self.dirs[k])) if self.aimed else self.shape

    def place(self, k: int, stand: _Standing | None = None) -> HexPlacement | None:
        """Candidate ``k`` built in full (None: its start lies inside a wall), the moving caster at ``stand``."""
        try:
            a = hex_area(self.shape_at(k), self.at(k) if self.aimed else (self.x[k], self.y[k]),
                         self.bmap if stand is None else stand.on, self.rules, self.mode)
        except OriginOnWallError:
            if not self.aimed:
                raise
            return None
        sel = {id(t): (bool(h), bool(v)) for t, h, v in zip(self.tokens, self.is_hit, self.is_avoid, strict=True)}
        pool = self.relevant(k)
        if stand is not None and (stand.hit or stand.avoid):
            sel[id(stand.token)] = (stand.hit, stand.avoid)
            pool.append(stand.token)
        reached = a.tokens(pool)
        hits = tuple(r for r in reached if sel[id(r.token)][0])
        avoided = tuple(r for r in reached if sel[id(r.token)][1])
        direction = float(self.dirs[k]) if self.aimed else None
        return HexPlacement(self.at(k), direction, self.shape_at(k), float(len(hits)), hits, avoided, a,
                            float(self.dist[k]), self.at(k))

    def counts(self, k: int) -> tuple[int, int] | None:
        """Exactly how many creatures to hit and to avoid candidate ``k`` reaches (None: illegal)."""
        if not self.aimed and self.bound[k] == 0 and self.open_avoid[k] == 0:
            return 0, 0  # nothing near: no area reaches anyone
        p = self.place(k)
        return None if p is None else (len(p.hits), len(p.avoided))

    def acceptable(self, avoided: int) -> bool:
        return self.max_avoid is None or avoided <= self.max_avoid

    def tie(self, k: int) -> tuple[float, float, float, float]:
        return float(self.dist[k]), float(self.y[k]), float(self.x[k]), float(self.dirs[k])

    def order(self) -> NDArray[np.intp]:
        return np.lexsort((self.dirs, self.x, self.y, self.dist, -self.bound))


# --- moving first -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Standing:
    """The moving caster at one stand: its token there, the map with it there, and whether it is to hit or avoid."""

    token: Token
    on: BattleMapCore
    hit: bool
    avoid: bool


class _HexStands:
    """Where the caster may end its move (:func:`hex_reachable`): cheapest first, then top to bottom, left to right."""

    def __init__(self, caster: Any, move: float | HexReach, on: BattleMapCore, rules: Rules,
                 is_hit: Callable[[Token], bool], is_avoid: Callable[[Token], bool]) -> None:
        grid = on.grid
        if not isinstance(caster, Token):
            raise InvalidTypeError(
                f"move= moves the caster before it places the effect: pass the caster as an aoegrid.Token "
                f"(the creature that moves), not {caster!r}")
        _caster(caster, grid)  # refused, and named, when off the map
        if isinstance(move, HexReach):
            if move.start != (caster.x, caster.y) or move.mask.shape != grid.shape:
                raise InvalidValueError(
                    f"move= is a HexReach from {move.start} on a {move.mask.shape[1]} x {move.mask.shape[0]} map, "
                    f"not the caster's ({caster.label} at ({caster.x}, {caster.y}) on the {grid.width} x "
                    f"{grid.height} map): compute it with hex_reachable(on, caster, ...) on this map")
            reach = move
        else:
            reach = hex_reachable(on, caster, non_negative(move, "move"), rules)
        rows, cols = np.nonzero(reach.mask)
        cost = reach.cost[rows, cols]
        order = np.lexsort((cols, rows, cost))
        self.col, self.row, self.cost = cols[order], rows[order], cost[order]
        self.reach, self.on, self.is_hit = reach, on, is_hit
        #: The caster's index among the map's creatures (None: it is none of them, and never reached).
        self.index = next((n for n, t in enumerate(on.tokens) if t is caster),
                          next((n for n, t in enumerate(on.tokens) if t == caster), None))
        self.tokens = [caster.moved_to(int(c), int(r)) for c, r in zip(self.col, self.row, strict=True)]
        self.who = [_caster(t, grid) for t in self.tokens]
        counted = self.index is not None
        self.hit = np.array([counted and is_hit(t) for t in self.tokens], dtype=bool)
        self.avoid = np.array([counted and is_avoid(t) for t in self.tokens], dtype=bool)
        self.center = np.array([w.center for w in self.who]).reshape(-1, 2)

    def __len__(self) -> int:
        return len(self.col)

    def at(self, n: int) -> _Standing:
        """The caster at stand ``n``, on the map with it moved there (when it is among the map's creatures)."""
        on = self.on
        if self.index is not None:
            with warnings.catch_warnings():
                # A wall crossing its hexes clear of the steps between their centres: hex_reachable lets it stand.
                warnings.simplefilter("ignore", AoegridWarning)
                on = on.move_token(on.tokens[self.index], int(self.col[n]), int(self.row[n]))
        return _Standing(self.tokens[n], on, bool(self.hit[n]), bool(self.avoid[n]))

    def placed(self, p: HexPlacement, n: int, distance: float | None = None) -> HexPlacement:
        """``p`` placed from stand ``n``: its stand, path and cost (and range distance from there)."""
        c, r = int(self.col[n]), int(self.row[n])
        return replace(p, stand=self.tokens[n], path=tuple(self.reach.path(c, r)), cost=float(self.cost[n]),
                       distance=p.distance if distance is None else distance)


class _HexPointMoves:
    """A shape placed at a point by a caster that first moves: every point scored once, its stands looked at best first.

    ``s`` searches every point not inside a wall (no caster), the moving
    caster left out of its creatures: a point's area does not depend on
    where the caster stands, only the point's legality (range, line of
    effect from the stand) and whether the area reaches the caster's own
    hexes there.
    """

    def __init__(self, s: _HexSearch, stands: _HexStands, rng: Range | None, need: Need | str | None) -> None:
        self.s, self.st = s, stands
        grid = s.grid
        limit = math.inf if rng is None else rng.feet
        self.channels = resolve_need(need, s.rules)
        lat = _lattice_of(grid)
        rows = []
        for who in stands.who:
            corner, centre = _point_distances(grid, who, lat)
            full = np.concatenate([corner, centre.ravel()]) if len(s.points.xy) > len(corner) else corner
            rows.append(full[s.index])
        #: ``(stands, points)``: the range distance from each stand to each point, and whether within range.
        self.dist = np.array(rows, dtype=float).reshape(len(stands), len(s))
        self.in_range = self.dist <= limit + 1e-9
        self.xy = np.stack([s.x, s.y], axis=-1)
        self.legal_from: dict[int, BoolArray] = {}
        self.near = np.zeros(self.dist.shape, dtype=bool)  # the caster's hexes there within an area's reach
        for n in np.flatnonzero(stands.hit | stands.avoid).tolist():
            cx, cy = grid.center(*np.array(stands.who[n].hexes).T)
            d = np.hypot(s.x[:, None] - np.asarray(cx)[None], s.y[:, None] - np.asarray(cy)[None]).min(axis=1)
            self.near[n] = d <= s.reach

    def legal(self, n: int) -> BoolArray:
        """Which points are legal from stand ``n``: in range, and reached by a line of effect (or sight) from it."""
        if n not in self.legal_from:
            ok = self.in_range[n].copy()
            for channel in self.channels:
                ok &= _seen(self.s.bmap, self.st.who[n].starts, self.xy, ok, channel)
            self.legal_from[n] = ok
        return self.legal_from[n]

    def best_stand(self, k: int) -> tuple[tuple[float, ...], int] | None:
        """Point ``k``'s key from its best stand (more hits, fewer avoided, cheaper, nearer, top, left), and the stand."""
        s, st = self.s, self.st
        ns = np.flatnonzero(self.in_range[:, k])
        hits, avoided = 0, 0
        inc = np.zeros(len(st), dtype=bool)
        if s.bound[k] or s.open_avoid[k] or self.near[ns, k].any():
            p = s.place(k)
            assert p is not None  # a point not inside a wall has an area
            hits, avoided = len(p.hits), len(p.avoided)
            for n in ns[self.near[ns, k]].tolist():
                c, r = np.array(st.who[n].hexes).T
                inc[n] = bool(p.area.mask[r, c].any())
        h = hits + (st.hit[ns] & inc[ns])
        a = avoided + (st.avoid[ns] & inc[ns])
        if s.max_avoid is not None:
            ok = a <= s.max_avoid
            ns, h, a = ns[ok], h[ok], a[ok]
        order = np.lexsort((st.col[ns], st.row[ns], self.dist[ns, k], st.cost[ns], a, -h))
        for i in order.tolist():
            n = int(ns[i])
            if self.legal(n)[k]:
                return (-float(h[i]), float(a[i]), float(st.cost[n]), float(self.dist[n, k]), float(s.y[k]),
                        float(s.x[k]), float(st.row[n]), float(st.col[n])), n
        return None

    def best(self, limit: int) -> list[HexPlacement]:
        s, st = self.s, self.st
        cost = np.where(self.in_range, st.cost[:, None], np.inf)
        c0 = cost.min(axis=0, initial=np.inf)
        d0 = np.where(cost == c0[None], self.dist, np.inf).min(axis=0, initial=np.inf)
        bound = s.bound + int(st.hit.any())
        k_ = np.flatnonzero(np.isfinite(c0))
        top: list[tuple[tuple[float, ...], int, int]] = []
        for k in k_[np.lexsort((s.x[k_], s.y[k_], d0[k_], c0[k_], -bound[k_]))].tolist():
            # No stand does better than the open-field bound, no avoided, the least cost and distance in range.
            lower = (-float(bound[k]), 0.0, float(c0[k]), float(d0[k]), float(s.y[k]), float(s.x[k]))
            if len(top) == limit and lower >= top[-1][0]:
                break
            found = self.best_stand(k)
            if found is not None:
                top.append((found[0], k, found[1]))
                top.sort()
                del top[limit:]
        out = []
        for _, k, n in top:
            p = s.place(k, st.at(n))
            assert p is not None
            out.append(st.placed(p, n, float(self.dist[n, k])))
        return out

    def scores(self) -> FloatArray:
        s = self.s
        h, w = s.grid.shape
        out = np.full(h * w * _SLOTS, np.nan)
        for k in np.flatnonzero(self.in_range.any(axis=0)).tolist():
            found = self.best_stand(k)
            if found is not None:
                out[s.points.slots[s.index[k]]] = -found[0][0]
        return out.reshape(h, w, _SLOTS)


class _HexAimMoves:
    """Cones and lines aimed from every hex the caster may move to: a search a stand, made when first needed."""

    def __init__(self, stands: _HexStands, make: Callable[[_Standing], _HexSearch]) -> None:
        self.st, self.make = stands, make
        self.searches: dict[int, _HexSearch] = {}
        self.search(0)  # refuses bad arguments before any other work

    def search(self, n: int) -> _HexSearch:
        if n not in self.searches:
            self.searches[n] = self.make(self.st.at(n))
        return self.searches[n]

    def counts(self, n: int, k: int) -> tuple[int, int] | None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AoegridWarning)  # as in _HexStands.at: it may stand there
            return self.search(n).counts(k)

    def bounds(self) -> NDArray[np.int64]:
        """Per stand, the most creatures to hit an area aimed from it can reach, in any direction.

        It starts on the edge of the caster's hexes (within a circumradius of
        one's centre), and every hex it takes has its centre within the
        shape's extent and a circumradius of its start: the other creatures
        to hit with a hex centre that near a hex of the caster, and the
        caster.
        """
        st, s = self.st, self.search(0)
        grid = st.on.grid
        reach = shape_extent(s.shape, s.rules.for_shape(s.shape), grid.size) + 2 * CIRCUMRADIUS + 1e-6
        out = st.hit.astype(np.int64)
        mine = [np.array(grid.center(*np.array(w.hexes).T), dtype=float).reshape(2, -1) for w in st.who]
        for n, t in enumerate(st.on.tokens):
            if n == st.index or not st.is_hit(t):
                continue
            tx, ty = np.array(grid.center(*np.array(hex_footprint(grid, t)).T), dtype=float).reshape(2, -1)
            out += np.array([(np.hypot(m[0][:, None] - tx[None], m[1][:, None] - ty[None]) <= reach).any()
                             for m in mine], dtype=np.int64)
        return out

    def aimed_bounds(self, n: int) -> NDArray[np.int64]:
        """Per direction from stand ``n``, the creatures to hit with a hex whose box meets the shape's outline's box.

        The box of the exact outline (no wall stopping a line) holds the
        centre of every hex the area takes by its centre, and meets every
        hex it covers a part of (:func:`aoegrid.hexarea.hex_area` looks at no
        other): a circumradius each way holds a hex's box whichever way its
        hexes point.
        """
        s = self.search(n)
        grid, rules = s.grid, s.rules.for_shape(s.shape)
        token = self.st.tokens[n]
        own = hex_footprint(grid, token)
        boxes = []
        for t in (t for t, h in zip(s.tokens, s.is_hit, strict=True) if h):
            cx, cy = grid.center(*np.array(hex_footprint(grid, t)).T)
            boxes.append((np.min(cx) - CIRCUMRADIUS, np.min(cy) - CIRCUMRADIUS, np.max(cx) + CIRCUMRADIUS,
                          np.max(cy) + CIRCUMRADIUS, np.asarray(cx), np.asarray(cy)))
        out = np.zeros(len(s), dtype=np.int64)
        for k in range(len(s)):
            shape = s.shape_at(k)
            x0, y0, x1, y1 = _figure(shape, _origin_from_creature(shape, token, own, rules, grid), rules, grid).bounds
            for bx0, by0, bx1, by1, cx, cy in boxes:
                if bx0 <= x1 + EPS and bx1 >= x0 - EPS and by0 <= y1 + EPS and by1 >= y0 - EPS and (
                        (cx + CIRCUMRADIUS >= x0 - EPS) & (cx - CIRCUMRADIUS <= x1 + EPS)
                        & (cy + CIRCUMRADIUS >= y0 - EPS) & (cy - CIRCUMRADIUS <= y1 + EPS)).any():
                    out[k] += 1
        return out

    def best(self, limit: int) -> list[HexPlacement]:
        st = self.st
        bound = self.bounds()
        cx, cy = st.center[:, 0], st.center[:, 1]
        top: list[tuple[tuple[float, ...], int, int]] = []
        for n in np.lexsort((cx, cy, st.cost, -bound)).tolist():
            where = (float(st.cost[n]), 0.0, float(cy[n]), float(cx[n]))
            if len(top) == limit and (-float(bound[n]), 0.0, *where) >= top[-1][0]:
                break
            s = self.search(n)
            each = self.aimed_bounds(n)
            for k in range(len(s)):
                if len(top) == limit and (-float(each[k]), 0.0, *where, float(s.dirs[k])) >= top[-1][0]:
                    continue  # no area this way can enter the top
                c = self.counts(n, k)
                if c is None or not s.acceptable(c[1]):
                    continue
                top.append(((-float(c[0]), float(c[1]), *where, float(s.dirs[k]), float(st.row[n]),
                             float(st.col[n])), n, k))
                top.sort()
                del top[limit:]
        out = []
        for _, n, k in top:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", AoegridWarning)
                p = self.search(n).place(k)
            assert p is not None
            out.append(st.placed(p, n))
        return out

    def scores(self) -> FloatArray:
        st = self.st
        out = np.full(st.on.grid.shape, np.nan)
        for n in range(len(st)):
            s = self.search(n)
            values = [c[0] for k in range(len(s)) if (c := self.counts(n, k)) is not None and s.acceptable(c[1])]
            if values:
                out[st.row[n], st.col[n]] = max(values)
        return out


def _hex_moving(shape: Shape, caster: Any, range: Range | float | None, on: Any, rules: Rules | str,
                mode: Mode | str, hit: Selector, avoid: Selector, max_avoid: int | None, directions: Any,
                need: Need | str | None, move: float | HexReach) -> _HexPointMoves | _HexAimMoves:
    """The search for ``move=``: where the caster may stand, and what it may place from each hex."""
    if caster is None:
        raise InvalidValueError(
            f"move= moves the caster before it places the effect: with caster=None (an effect placed anywhere, "
            f"with no one casting it) there is no one to move; got move={move!r}")
    _search_args(on, hit, max_avoid)
    base = resolve_rules(rules)
    _units(base, on.grid)
    if not isinstance(shape, (Sphere, Cylinder, Cone, Line, Cube)):
        raise InvalidTypeError(
            f"on a hex grid the shape must be an aoegrid Sphere, Cylinder, Cone, Line or Cube, got {shape!r}")
    rng = None if range is None else as_range(range)
    if rng is not None:
        check_shape_range(shape, rng, base)
    resolve_need(need, base)  # refused before any work
    stands = _HexStands(caster, move, on, base, token_selector(hit, "hit"), token_selector(avoid, "avoid"))
    if _lattice_name(shape, base) == "caster":
        return _HexAimMoves(stands, lambda at: _HexSearch(shape, at.token, rng, at.on, rules, mode, hit, avoid,
                                                           max_avoid, directions, need))
    s = _HexSearch(shape, None, None, on, rules, mode, hit, avoid, max_avoid, directions, None,
                   leave_out=stands.index)
    return _HexPointMoves(s, stands, rng, need)


def hex_best_placements(shape: Shape, caster: Any, range: Range | float | None, on: BattleMapCore,
                        rules: Rules | str = "starfinder", mode: Mode | str = "burst", *, hit: Selector = None,
                        avoid: Selector = None, max_avoid: int | None = 0, limit: int = 1,
                        directions: Iterable[float | str] | None = None,
                        need: Need | str | None = None, move: float | HexReach | None = None) -> list[HexPlacement]:
    """The best places on a hex map for ``shape`` cast by ``caster``: the most creatures to hit, none to avoid.

    Every legal origin of :func:`hex_legal_origins` is searched (for cones
    and lines, every direction of ``directions`` from the caster), exactly as
    building :func:`~aoegrid.hexarea.hex_area` at each and reading
    :meth:`HexArea.tokens` would score it (see the module).

    Parameters
    ----------
    shape : Sphere, Cylinder, Cone, Line or Cube
    caster : Token, (col, row) or None
        None: no caster (a trap; not for cones and lines): every point not
        inside a wall, no range.
    range : Range, float or None
    on : BattleMap on a HexGrid
    rules, mode
        As for :func:`aoegrid.area`.
    hit, avoid : tags, predicate or tokens
        The creatures to reach and to spare (``hit`` is required).
    max_avoid : int or None
        The most creatures to avoid an acceptable placement reaches (None: any).
    limit : int
        How many placements to return.
    directions : iterable of degrees or compass names, optional
        For cones and lines (default :data:`HEX_DIRECTIONS`, every 30 degrees).
    need : {"effect", "sight", "both"}, optional
        What the caster needs to the point (:func:`hex_legal_origins`).
    move : float or HexReach, optional
        The caster (a Token) first moves up to ``move`` (the grid's unit), or
        to a hex of this :func:`hex_reachable` answer (for its ``through=``
        and ``enemies=``), and places the area from where it stands: range,
        line of effect and :attr:`HexPlacement.distance` are judged from
        there, and the caster's own token, if it is on the map, stands there
        (see the module). Each placement says where
        (:attr:`HexPlacement.stand`), its path and cost.

    Returns
    -------
    list of HexPlacement
        At most ``limit``, best first: more hits, then fewer avoided, then
        (with ``move=``) less movement, then nearer the caster (where it
        stands), then top to bottom (y), left to right (x), then direction,
        then (with ``move=``) the stand top to bottom, left to right. With
        ``move=`` a point of origin appears once, from its best stand; a
        cone or line once per stand and direction. Empty when none is
        acceptable.

    Raises
    ------
    InvalidValueError
        With ``move=``: ``caster=None``, a negative or infinite ``move``, a
        HexReach from elsewhere.
    InvalidTypeError
        With ``move=``: a caster not a Token.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(10, 6)
    >>> orcs = [ag.Token(c, r, tags={"enemy"}) for c, r in [(6, 2), (7, 2), (6, 3)]]
    >>> m = ag.BattleMap(g, tokens=[*orcs, ag.Token(5, 3, tags={"ally"})])
    >>> p = hex_best_placements(ag.Sphere(5), ag.Token(0, 2, tags={"ally"}), 60, m, hit="enemy", avoid="ally")[0]
    >>> p.score, len(p.avoided), p.distance, [round(v, 3) for v in p.at]
    (3.0, 0, 30.0, [7.0, 2.598])

    Moving first brings them into a shorter range (here 10 ft, after 20 ft of movement):

    >>> p = hex_best_placements(ag.Sphere(5), ag.Token(0, 2), 10, m, hit="enemy", avoid="ally", move=30)[0]
    >>> p.score, p.cost, p.distance, p.path
    (3.0, 20.0, 10.0, ((0, 2), (1, 2), (2, 2), (3, 2), (4, 2)))
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidValueError(f"limit must be a whole number, 1 or more; got {limit!r}")
    if move is not None:
        return _hex_moving(shape, caster, range, on, rules, mode, hit, avoid, max_avoid, directions, need,
                           move).best(limit)
    s = _HexSearch(shape, caster, range, on, rules, mode, hit, avoid, max_avoid, directions, need)
    top: list[tuple[tuple[float, ...], int]] = []
    for k in s.order().tolist():
        if len(top) == limit and (-float(s.bound[k]), 0.0, *s.tie(k)) >= top[-1][0]:
            break
        c = s.counts(k)
        if c is None or not s.acceptable(c[1]):
            continue
        top.append(((-float(c[0]), float(c[1]), *s.tie(k)), k))
        top.sort()
        del top[limit:]
    out = []
    for _, k in top:
        p = s.place(k)
        assert p is not None
        out.append(p)
    return out


def hex_placement_scores(shape: Shape, caster: Any, range: Range | float | None, on: BattleMapCore,
                         rules: Rules | str = "starfinder", mode: Mode | str = "burst", *, hit: Selector = None,
                         avoid: Selector = None, max_avoid: int | None = 0,
                         directions: Iterable[float | str] | None = None,
                         need: Need | str | None = None, move: float | HexReach | None = None) -> FloatArray:
    """The score of every placement :func:`hex_best_placements` looks at (its parameters).

    Returns
    -------
    float array
        For a shape placed at a point, shape ``(height, width, 7)`` indexed as
        :attr:`HexOrigins.mask`: ``[row, col, k]`` the score at corner ``k``
        of hex ``(col, row)`` (the same in each of the three hexes sharing it),
        ``[row, col, 6]`` at its centre (searched under ``hex_origin="any"``
        only). For cones and lines, one score per direction, in increasing
        degrees. NaN where the origin is illegal (or a direction starts inside
        a wall) or the placement is not acceptable. With ``move=``: for a
        shape placed at a point, the best score from any stand the point is
        legal from (NaN from none); for cones and lines, shape ``(height,
        width)`` indexed ``[row, col]``: per anchor hex the caster may end
        on, the best score of any direction from there (NaN elsewhere).

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(4, 3)
    >>> m = ag.BattleMap(g, tokens=[ag.Token(2, 1, tags={"enemy"})])
    >>> s = hex_placement_scores(ag.Sphere(5), ag.Token(0, 1), 10, m, hit="enemy")
    >>> s.shape, s[1, 2, :6].tolist(), int(np.isnan(s).sum())
    ((3, 4, 7), [1.0, 1.0, 1.0, 1.0, 1.0, 1.0], 22)
    """
    if move is not None:
        return _hex_moving(shape, caster, range, on, rules, mode, hit, avoid, max_avoid, directions, need,
                           move).scores()
    s = _HexSearch(shape, caster, range, on, rules, mode, hit, avoid, max_avoid, directions, need)
    values = np.full(len(s), np.nan)
    for k in np.arange(len(s)).tolist():  # range is the spell's here
        c = s.counts(k)
        if c is not None and s.acceptable(c[1]):
            values[k] = c[0]
    if s.aimed:
        return values
    h, w = s.grid.shape
    out = np.full(h * w * _SLOTS, np.nan)
    for k, n in enumerate(s.index.tolist()):
        out[s.points.slots[n]] = values[k]
    return out.reshape(h, w, _SLOTS)


__all__ = [
    "HEX_DIRECTIONS",
    "HexOrigins",
    "HexPlacement",
    "HexReach",
    "hex_best_placements",
    "hex_check_origin",
    "hex_in_range",
    "hex_legal_origins",
    "hex_path_distance",
    "hex_placement_scores",
    "hex_reachable",
]
