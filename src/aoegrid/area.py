"""Areas: which squares an effect covers.

:func:`area` is the entry point; it returns an :class:`Area`, a set of squares
on a grid that knows how it was made.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from aoegrid._validate import point, real
from aoegrid.battlemap import BattleMap
from aoegrid.cover import grade
from aoegrid.directions import right_normal, unit_vector
from aoegrid.distance import measure
from aoegrid.errors import (
    GridMismatchError,
    InvalidTypeError,
    InvalidValueError,
    OffGridError,
)
from aoegrid.grid import Grid
from aoegrid.options import (
    Diagonals,
    Inclusion,
    Mode,
    OriginPoint,
    SpaceOrigin,
    parse_option,
)
from aoegrid.raster import (
    Window,
    center_offsets,
    centers,
    far_offsets,
    near_offsets,
)
from aoegrid.regions import EPS
from aoegrid.rules import Rules, resolve_rules
from aoegrid.shapes import SHAPE_TYPES, Cylinder, Line, Shapable, Shape, Sphere
from aoegrid.spread import StepMasks, path_distance
from aoegrid.stencils import _Origin, _stencil_on_grid, shape_extent
from aoegrid.tokens import Space, Token
from aoegrid.visibility import Visibility
from aoegrid.walls import Channel

if TYPE_CHECKING:
    from aoegrid.targets import Reached

BoolArray = NDArray[np.bool_]
FloatArray = NDArray[np.float64]

@dataclass(frozen=True, slots=True)
class _Made:
    """How an area was asked for, to move it or to measure creatures from it."""

    on: Any
    at: Any
    include_origin: bool | None
    caster: Any
    elevation: float
    origin: _Origin


def area(
    shape: Shape,
    at: Any,
    on: Grid | BattleMap,
    rules: Rules | str = "starfinder",
    mode: Mode | str = "burst",
    *,
    include_origin: bool | None = None,
    caster: Any = None,
    elevation: float = 0.0,
) -> Area:
    """The squares of ``on`` that ``shape``, placed ``at`` a point, covers.

    Parameters
    ----------
    shape : Sphere, Cylinder, Cone, Line, Cube or Shapable
        The shape, sized in the grid's unit.
    at : (x, y), Token or Space
        The point of origin in grid units (x right, y down; integer points are
        intersections, ``(x + 0.5, y + 0.5)`` is the centre of square (x, y)),
        or a creature's space for areas centred on or coming from a creature.
        From a space, a sphere or cylinder is measured from the space's edges
        or centre (``Rules.from_space``); a cone, cube or line starts where its
        direction leaves the space (at the nearest corner under rules whose
        origins are intersections; from an edge's middle, the corner to the
        right of the direction).
    on : Grid or BattleMap
        The grid, or a map whose walls cut the area: a burst or emanation
        takes only squares some straight line from the origin reaches
        (``Area.visible > 0``), a spread also takes the squares its path
        reaches around walls, a line stops at the first wall where
        ``Rules.line_stops_at_wall`` (Starfinder, Pathfinder) and is cut like
        a burst otherwise (5e, Savage Worlds), and a Starfinder cylinder
        ignores walls.
    rules : str or Rules
        A preset name (``"starfinder"``, ``"pf2e"``, ``"sw5e"``,
        ``"savage-worlds"`` or an alias) or a :class:`Rules`.
    mode : str
        ``"burst"``, ``"emanation"`` or ``"spread"``. With no walls the three
        cover the same squares. An emanation from a creature has line of
        effect from any point of its space (tested from the space's corners,
        nudged inside, and its centre).
    include_origin : bool, optional
        Whether a creature the area comes from is in it. ``None`` follows the
        rules (5e leaves the caster out of its own cone, cube and line).
    caster : (x, y), Token or Space, optional
        Who places the effect. Under 5e, a point of origin the caster cannot
        see, behind a wall, comes into being on the near side of the wall.
    elevation : float
        Height of the point of origin above the ground, in the grid's unit,
        for creatures above or below it (:meth:`Area.tokens`). A cylinder's
        circle is at this height; it drops from it under Starfinder and rises
        from it under the other presets (``Rules.cylinder_drops``).

    Returns
    -------
    Area

    Raises
    ------
    OffGridError
        If the origin lies off the grid (its border counts as on it).
    InvalidValueError
        For an origin the rules do not allow, a grid in the wrong unit, or a
        shapable area thinner than its minimum dimension.

    Examples
    --------
    >>> import aoegrid as ag
    >>> a = ag.area(ag.Sphere(10), at=(4, 4), on=ag.Grid(8, 8))
    >>> len(a)
    12
    >>> print(a.to_text())
     . . . . . . . .
     . . . . . . . .
     . . . # # . . .
     . . # # # # . .
            +
     . . # # # # . .
     . . . # # . . .
     . . . . . . . .
     . . . . . . . .
    """
    if isinstance(on, BattleMap):
        grid, bmap = on.grid, on
    elif isinstance(on, Grid):
        grid, bmap = on, None
    else:
        raise InvalidTypeError(
            f"on must be an aoegrid.Grid or BattleMap, got {on!r} of type {type(on).__name__}"
        )
    if not isinstance(shape, SHAPE_TYPES):
        raise InvalidTypeError(
            f"shape must be one of Sphere, Cylinder, Cone, Line, Cube, Shapable; got {shape!r}"
        )
    rules = resolve_rules(rules)
    mode = parse_option(Mode, mode, "mode")
    if include_origin is not None and not isinstance(include_origin, bool):
        raise InvalidTypeError(f"include_origin must be True, False or None, got {include_origin!r}")
    _check_units(shape, rules, grid)
    caster_space: Space | None = None
    if isinstance(at, (Token, Space)):
        caster_space = at.space if isinstance(at, Token) else at
        _check_space(caster_space, grid)
        origin = _origin_from_space(shape, caster_space, rules)
    else:
        p = point(at, "at")
        if not grid.contains_point(p):
            raise OffGridError(
                f"origin {_fmt(p)} is off the {grid.width} x {grid.height} grid; points "
                f"must lie in [0, {grid.width}] x [0, {grid.height}] (the border counts)"
            )
        if rules.origin is OriginPoint.INTERSECTION and not (p[0].is_integer() and p[1].is_integer()):
            near = (round(p[0]), round(p[1]))
            raise InvalidValueError(
                f"{rules.name} rules put every point of origin on a grid intersection; "
                f"{_fmt(p)} is not one (nearest: {near}). Pass an intersection, or "
                f"rules.replace(origin='any') to allow any point"
            )
        origin = _Origin(p[0], p[1], p[0], p[1])

    if bmap is not None and caster is not None and rules.hidden_origin_to_near_side and origin.is_point:
        origin = _near_side(bmap, _viewpoint(caster, grid), origin)
    stop = math.inf
    if bmap is not None and isinstance(shape, Line) and rules.line_stops_at_wall:
        d = unit_vector(float(shape.direction))
        frame = _frame(bmap.grid, [(origin.x0, origin.y0)])
        vis = see_from(bmap, Channel.EFFECT, (origin.x0, origin.y0), frame)
        stop = vis.reach(math.atan2(d[1], d[0]))
    window, local = _stencil_on_grid(shape, origin, rules, grid, stop)
    result = Area(grid, window, local, shape=shape, origin=caster_space or (origin.x0, origin.y0),
                  rules=rules, mode=mode)
    result._made = _Made(on, at, include_origin, caster, real(elevation, "elevation"), origin)
    if bmap is not None:
        result._on_map(bmap, _samples(origin), origin)
    if caster_space is not None:
        included = shape.name in rules.origin_included if include_origin is None else include_origin
        if not included:
            result._clear(caster_space)
    return result


def _check_units(shape: Shape, rules: Rules, grid: Grid) -> None:
    """Refuse sizes written in another unit than the grid's: they would be silently mis-scaled."""
    for what, units in ((f"{rules.name} rules measure", rules.units), (f"{shape!r} is sized", shape.units)):
        if units is not None and units != grid.units:
            raise InvalidValueError(
                f"{what} in {units!r} but the grid is in {grid.units!r} "
                f"({grid.square:g} {grid.units} a square); make the grid in the same unit, "
                f"e.g. aoegrid.Grid({grid.width}, {grid.height}, units={units!r})"
            )


def see_from(bmap: BattleMap, channel: Channel, origin: tuple[float, float],
             frame: tuple[float, float, float, float]) -> Visibility:
    """The visibility of ``origin`` on ``bmap`` among walls meeting ``frame``."""
    return bmap.wallset(channel).visibility(origin, frame)


def _frame(grid: Grid, points: list[tuple[float, float]], window: Window | None = None) -> tuple[float, float, float, float]:
    """A box around ``window`` (or the whole grid) and ``points``, one square wider."""
    if window is None:
        window = Window(0, 0, grid.width, grid.height)
    xs = [window.x0, window.x0 + window.width, *(p[0] for p in points)]
    ys = [window.y0, window.y0 + window.height, *(p[1] for p in points)]
    return min(xs) - 1.0, min(ys) - 1.0, max(xs) + 1.0, max(ys) + 1.0


def _samples(origin: _Origin) -> list[tuple[float, float]]:
    """Where lines of effect start: the point, or a space's corners (nudged in) and centre."""
    if origin.is_point:
        return [(origin.x0, origin.y0)]
    nudge = 1e-6
    x0, y0, x1, y1 = origin.x0 + nudge, origin.y0 + nudge, origin.x1 - nudge, origin.y1 - nudge
    cx, cy = (origin.x0 + origin.x1) / 2, (origin.y0 + origin.y1) / 2
    return [(x0, y0), (x1, y0), (x0, y1), (x1, y1), (cx, cy)]


def _viewpoint(caster: Any, grid: Grid) -> tuple[float, float]:
    if isinstance(caster, (Token, Space)):
        space = caster.space if isinstance(caster, Token) else caster
        return space.center
    p = point(caster, "caster")
    if not grid.contains_point(p):
        raise OffGridError(f"caster {_fmt(p)} is off the {grid.width} x {grid.height} grid")
    return p


def _near_side(bmap: BattleMap, viewer: tuple[float, float], origin: _Origin) -> _Origin:
    """5e: an unseen point of origin behind a wall moves to the wall's near side."""
    target = (origin.x0, origin.y0)
    frame = _frame(bmap.grid, [viewer, target])
    if see_from(bmap, Channel.SIGHT, viewer, frame).sees(np.array(target[0]), np.array(target[1])):
        return origin
    vis = see_from(bmap, Channel.EFFECT, viewer, frame)
    dx, dy = target[0] - viewer[0], target[1] - viewer[1]
    dist = math.hypot(dx, dy)
    reach = vis.reach(math.atan2(dy, dx))
    if dist <= reach:
        return origin  # unseen, but no wall in the way (fog, darkness): it stays
    # Just short of the wall, so the point is on the caster's side of it.
    t = max(reach - 1e-6, 0.0) / dist
    p = (viewer[0] + t * dx, viewer[1] + t * dy)
    return _Origin(p[0], p[1], p[0], p[1])


def _fmt(p: tuple[float, float]) -> str:
    return f"({p[0]:g}, {p[1]:g})"


def _check_space(space: Space, grid: Grid) -> None:
    x0, y0, x1, y1 = space.bounds
    if x0 < 0 or y0 < 0 or x1 > grid.width or y1 > grid.height:
        raise OffGridError(
            f"creature space {space} is not wholly on the {grid.width} x {grid.height} grid"
        )


def _origin_from_space(shape: Shape, space: Space, rules: Rules) -> _Origin:
    x0, y0, x1, y1 = space.bounds
    if isinstance(shape, (Sphere, Cylinder)):
        if rules.from_space is SpaceOrigin.EDGES:
            return _Origin(x0, y0, x1, y1)
        cx, cy = space.center
        if rules.origin is OriginPoint.INTERSECTION:
            cx, cy = math.floor(cx), math.floor(cy)
        return _Origin(cx, cy, cx, cy)
    if isinstance(shape, Shapable):
        raise InvalidValueError(
            "a Shapable area is placed at an intersection, not on a creature; pass at=(x, y)"
        )
    d = unit_vector(float(shape.direction))
    cx, cy = space.center
    # Leave the space along the direction: the first side the ray meets.
    tx = (space.width / 2) / abs(d[0]) if d[0] else math.inf
    ty = (space.height / 2) / abs(d[1]) if d[1] else math.inf
    t = min(tx, ty)
    px, py = cx + t * d[0], cy + t * d[1]
    if rules.origin is OriginPoint.INTERSECTION:
        n = right_normal(d)
        corners = [(x, y) for x in (x0, x1) for y in (y0, y1)]
        # Nearest corner; an exact tie goes to the corner right of the direction.
        px, py = min(
            corners,
            key=lambda c: (round(math.hypot(c[0] - px, c[1] - py), 9), -(c[0] * n[0] + c[1] * n[1])),
        )
    return _Origin(px, py, px, py)


def _clear_space(local: BoolArray, window: Window, space: Space) -> None:
    xa = max(space.x - window.x0, 0)
    ya = max(space.y - window.y0, 0)
    xb = min(space.x + space.width - window.x0, window.width)
    yb = min(space.y + space.height - window.y0, window.height)
    if xa < xb and ya < yb:
        local[ya:yb, xa:xb] = False


class Area:
    """A set of squares on a grid, with how it was made.

    Masks are ``(height, width)`` bool arrays indexed ``[y, x]``; x grows to
    the right and y down. Areas on the same grid combine with ``|``, ``&``
    and ``-``; a combined area keeps no shape or origin.

    On a :class:`~aoegrid.battlemap.BattleMap` an area also reports, for each
    square of its shape (``shape_mask``), how much of it the origin reaches:
    ``visible`` (exact fraction of the square a straight line from the origin
    reaches, NaN off the shape), ``cover`` (the rules' cover grade, see
    :class:`aoegrid.cover.Cover`; -1 off the shape), the same for line of
    sight (``sight_visible``, ``sight_cover``), and for spreads
    ``path_distance`` (in the grid's unit, ``inf`` where the spread cannot
    go).

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.Grid(6, 4)
    >>> a = ag.area(ag.Cube(10, anchor="right"), at=(1, 3), on=g, rules="sw5e")
    >>> a.squares
    [(1, 1), (2, 1), (1, 2), (2, 2)]
    >>> b = ag.area(ag.Sphere(5), at=(4, 2), on=g, rules="sw5e")
    >>> (2, 2) in a, len(a | b), len(a & b), (a - b).squares == a.squares
    (True, 8, 0, True)
    """

    __slots__ = (
        "_cover",
        "_local",
        "_made",
        "_map",
        "_mask",
        "_path",
        "_samples",
        "_shape_local",
        "_sight",
        "_vis",
        "_visible",
        "grid",
        "mode",
        "origin",
        "rules",
        "shape",
        "window",
    )

    def __init__(
        self,
        grid: Grid,
        window: Window,
        local: BoolArray,
        *,
        shape: Shape | None = None,
        origin: tuple[float, float] | Space | None = None,
        rules: Rules | None = None,
        mode: Mode | None = None,
    ) -> None:
        self.grid = grid
        self.window = window
        self._local = local
        self._shape_local = local
        self.shape = shape
        self.origin = origin
        self.rules = rules
        self.mode = mode
        self._mask: BoolArray | None = None
        self._made: _Made | None = None
        self._map: BattleMap | None = None
        self._samples: list[tuple[float, float]] = []
        self._vis: dict[Channel, list[Visibility]] = {}
        self._visible: FloatArray | None = None
        self._cover: NDArray[np.int8] | None = None
        self._sight: tuple[FloatArray, NDArray[np.int8]] | None = None
        self._path: FloatArray | None = None

    # --- walls -------------------------------------------------------------

    def _views(self, channel: Channel) -> list[Visibility]:
        """The visibility of every sample origin, built once per channel."""
        assert self._map is not None
        if channel not in self._vis:
            frame = _frame(self.grid, self._samples, self.window)
            self._vis[channel] = [see_from(self._map, channel, p, frame) for p in self._samples]
        return self._vis[channel]

    def _reach(self, channel: Channel, window: Window | None = None) -> tuple[FloatArray, NDArray[np.int8]]:
        """Visible fractions and cover grades over ``window`` (default the area's), from every sample."""
        assert self.rules is not None
        window = window or self.window
        visible = np.zeros(window.shape)
        blocked = np.full(window.shape, 4, dtype=np.int_)
        for vis in self._views(channel):
            np.maximum(visible, vis.fraction(window), out=visible)
            np.minimum(blocked, vis.blocked_corners(window), out=blocked)
        return visible, grade(self.rules.cover, visible, blocked)

    def _on_map(self, bmap: BattleMap, samples: list[tuple[float, float]], origin: _Origin) -> None:
        """Cut the shape by the map's walls, as the mode and rules say."""
        assert self.rules is not None
        self._map, self._samples = bmap, samples
        shape = self._shape_local
        self._visible, self._cover = self._reach(Channel.EFFECT)
        if isinstance(self.shape, Cylinder) and self.rules.cylinder_ignores_walls:
            self._local = shape
        elif self.mode is Mode.SPREAD:
            # A spread is a burst that can also turn corners: every square a
            # straight line reaches is in, whatever its centre-to-centre path.
            self._local = shape & ((self._visible > EPS) | self._spread(bmap, origin))
        else:
            self._local = shape & (self._visible > EPS)

    def _spread(self, bmap: BattleMap, origin: _Origin) -> BoolArray:
        """Squares whose path around walls is short enough (see :mod:`aoegrid.spread`)."""
        assert self.rules is not None and self.shape is not None
        w, rules = self.window, self.rules
        xs, ys = w.xs, w.ys
        fx = far_offsets(xs, origin.x0, origin.x1)[None, :]
        fy = far_offsets(ys, origin.y0, origin.y1)[:, None]
        # The first step: squares whose closed extent holds the origin (or
        # overlaps the space), entered along a line that crosses no wall.
        touching = (near_offsets(xs, origin.x0, origin.x1)[None, :] == 0) & (
            near_offsets(ys, origin.y0, origin.y1)[:, None] == 0
        )
        cx, cy = centers(w)
        seen = np.zeros(w.shape, dtype=bool)
        for vis in self._views(Channel.EFFECT):
            seen |= vis.sees(cx, cy)
        start = measure(fx, fy, rules.diagonals)
        parity = np.broadcast_to((np.floor(np.minimum(fx, fy)) % 2).astype(np.int8), w.shape)
        walled = path_distance(
            w, np.where(touching & seen, start, np.inf), parity, bmap.steps().window(w), rules.diagonals
        )
        # The same count with no walls: the detour is the difference, zero in
        # open field. From intersections the lattice rules' open-field count
        # is the far-corner count itself; otherwise walk it.
        whole = all(float(v).is_integer() for v in (origin.x0, origin.y0, origin.x1, origin.y1))
        if whole and rules.diagonals is not Diagonals.EUCLIDEAN:
            open_field = start
        else:
            no_walls = StepMasks(w.width, w.height, np.empty((0, 4)), np.empty(0, np.int8))
            open_field = path_distance(
                w, np.where(touching, start, np.inf), parity,
                no_walls.window(Window(0, 0, w.width, w.height)), rules.diagonals,
            )
        self._path = walled * self.grid.square
        with np.errstate(invalid="ignore"):  # inf - inf where neither reaches
            detour = np.where(np.isfinite(walled), walled - open_field, np.inf)
        if rules.inclusion is Inclusion.FAR_EDGE:
            own = start
        elif rules.inclusion is Inclusion.CENTER:
            own = np.hypot(center_offsets(xs, origin.x0, origin.x1)[None, :], center_offsets(ys, origin.y0, origin.y1)[:, None])
        else:
            own = np.hypot(near_offsets(xs, origin.x0, origin.x1)[None, :], near_offsets(ys, origin.y0, origin.y1)[:, None])
        # The spread may travel as far as the shape itself reaches: its true
        # outline (a triangle cone's far corners lie beyond its length), or
        # its farthest square under the rules' own count, whichever is more.
        radius = shape_extent(self.shape, rules, self.grid.square)
        held = own[self._shape_local]
        if held.size:
            radius = max(radius, float(held.max()))
        return np.asarray(own + detour <= radius + EPS)

    def _restricted(self, local: BoolArray) -> Area:
        """A copy of this area keeping only the squares of ``local`` (same window)."""
        out = Area(self.grid, self.window, local, shape=self.shape, origin=self.origin, rules=self.rules, mode=self.mode)
        for name in ("_shape_local", "_made", "_map", "_samples", "_vis", "_visible", "_cover", "_sight", "_path"):
            setattr(out, name, getattr(self, name))
        return out

    def _clear(self, space: Space) -> None:
        """Leave a creature's own squares out."""
        self._local = self._local.copy()
        _clear_space(self._local, self.window, space)
        self._mask = None

    def _full(self, local: NDArray[Any], fill: Any) -> NDArray[Any]:
        w = self.window
        out = np.full(self.grid.shape, fill, dtype=local.dtype)
        out[w.y0 : w.y0 + w.height, w.x0 : w.x0 + w.width] = local
        out.flags.writeable = False
        return out

    def _need_map(self, what: str) -> None:
        if self._map is None:
            raise InvalidValueError(
                f"{what} needs walls: compute the area on an aoegrid.BattleMap, not a bare Grid"
            )

    @property
    def shape_mask(self) -> BoolArray:
        """The squares of the shape before walls cut it."""
        return self._full(self._shape_local, False)

    @property
    def visible(self) -> FloatArray:
        """Exact fraction of each square of the shape reached by line of effect."""
        self._need_map("visible")
        assert self._visible is not None
        return self._full(np.where(self._shape_local, self._visible, np.nan), np.nan)

    @property
    def cover(self) -> NDArray[np.int8]:
        """Cover grade of each square of the shape (-1 elsewhere)."""
        self._need_map("cover")
        assert self._cover is not None
        return self._full(np.where(self._shape_local, self._cover, -1).astype(np.int8), -1)

    def _sight_arrays(self) -> tuple[FloatArray, NDArray[np.int8]]:
        self._need_map("line of sight")
        if self._sight is None:
            self._sight = self._reach(Channel.SIGHT)
        return self._sight

    @property
    def sight_visible(self) -> FloatArray:
        """Exact fraction of each square of the shape the origin can see."""
        v, _ = self._sight_arrays()
        return self._full(np.where(self._shape_local, v, np.nan), np.nan)

    @property
    def sight_cover(self) -> NDArray[np.int8]:
        """Grade of each square of the shape by line of sight (-1 elsewhere)."""
        _, c = self._sight_arrays()
        return self._full(np.where(self._shape_local, c, -1).astype(np.int8), -1)

    @property
    def path_distance(self) -> FloatArray:
        """For spreads: path length around walls to each square, in the grid's unit."""
        if self._path is None:
            raise InvalidValueError("path_distance is computed for spreads on a BattleMap (mode='spread')")
        return self._full(self._path, np.inf)

    # --- creatures -----------------------------------------------------------

    def tokens(self, tokens: Iterable[Token] | None = None, **options: Any) -> list[Reached]:
        """The creatures this area reaches, nearest first, each with its cover.

        ``tokens`` defaults to the map's. See :func:`aoegrid.targets.reached`
        for the options (``membership``, ``where``, ``tags``, ``exclude``,
        ``limit``).
        """
        from aoegrid.targets import reached

        return reached(self, tokens, **options)

    def moved(self, at: Any) -> Area:
        """The same effect recomputed at ``at``.

        An area that comes from a creature (``at=`` a Token or Space, as an
        emanation or an aura does) follows its creature: pass the creature
        where it now stands (``token.moved_to(x, y)`` or a Space); a bare
        point is refused, since it would silently turn the creature's
        emanation into a point burst. On a map that holds the creature
        (matched by identity, then :attr:`Token.label`), the new area lies on
        a copy of the map with the creature moved, so :meth:`tokens` and
        :meth:`subject_changes` see it where it is.

        Examples
        --------
        >>> import aoegrid as ag
        >>> pal = ag.Token(5, 5, name="paladin")
        >>> m = ag.BattleMap(ag.Grid(20, 12), tokens=[pal, ag.Token(12, 5, name="orc")])
        >>> aura = ag.area(ag.Sphere(10), at=pal, on=m, rules="pf2e", mode="emanation")
        >>> later = aura.moved(pal.moved_to(10, 5))
        >>> len(aura), len(later), [t.name for t in aura.subject_changes(later)[0]]
        (21, 21, ['orc'])
        """
        if self._made is None or self.shape is None or self.rules is None or self.mode is None:
            raise InvalidValueError("only an area made by aoegrid.area() can be moved, not a combination")
        m = self._made
        on = m.on
        if isinstance(m.at, (Token, Space)):
            if not isinstance(at, (Token, Space)):
                who = m.at.label if isinstance(m.at, Token) else str(m.at)
                raise InvalidTypeError(
                    f"this area comes from the space of {who}: pass the creature where it now "
                    f"stands (a Token, e.g. token.moved_to(x, y), or a Space), not {at!r}"
                )
            was = m.at
            if isinstance(on, BattleMap) and isinstance(was, Token) and isinstance(at, Token) and any(
                t is was or t.label == was.label for t in on.tokens
            ):
                on = on.with_token(was, at)
        return area(self.shape, at, on, self.rules, self.mode, include_origin=m.include_origin,
                    caster=m.caster, elevation=m.elevation)

    def subject_changes(self, after: Area, tokens: Iterable[Token] | None = None) -> tuple[list[Token], list[Token]]:
        """Creatures that enter and leave when this area becomes ``after``.

        Starfinder: creatures become subject to an area's effect when they
        enter it and stop being subject when they leave. Creatures are matched
        by :attr:`Token.label`.
        """
        pool = list(tokens) if tokens is not None else None
        before = {r.token.label: r.token for r in self.tokens(pool)}
        now = {r.token.label: r.token for r in after.tokens(pool)}
        return [t for k, t in now.items() if k not in before], [t for k, t in before.items() if k not in now]

    # --- the squares -------------------------------------------------------

    @property
    def mask(self) -> BoolArray:
        """``(height, width)`` read-only bool array, ``mask[y, x]``."""
        if self._mask is None:
            w = self.window
            if (w.width, w.height) == (self.grid.width, self.grid.height):
                full = self._local
                full.flags.writeable = False
            else:
                full = self._full(self._local, False)
            self._mask = full
        return self._mask

    @property
    def squares(self) -> list[tuple[int, int]]:
        """The covered squares as ``(x, y)``, sorted by y, then x."""
        ys, xs = np.nonzero(self._local)
        return list(zip((xs + self.window.x0).tolist(), (ys + self.window.y0).tolist()))

    def __len__(self) -> int:
        return int(np.count_nonzero(self._local))

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self.squares)

    def __contains__(self, square: Any) -> bool:
        try:
            sx, sy = square
            x, y = int(sx), int(sy)
        except (TypeError, ValueError, OverflowError):  # not a pair of finite numbers: not a square
            return False
        w = self.window
        if not (w.x0 <= x < w.x0 + w.width and w.y0 <= y < w.y0 + w.height):
            return False
        return bool(self._local[y - w.y0, x - w.x0])

    def __bool__(self) -> bool:
        return bool(self._local.any())

    def _combine(self, other: object, op: str) -> Area:
        if not isinstance(other, Area):
            return NotImplemented
        if other.grid != self.grid:
            raise GridMismatchError(
                f"cannot combine areas on different grids: {self.grid} and {other.grid}"
            )
        a, b = self.mask, other.mask
        out = {"|": a | b, "&": a & b, "-": a & ~b}[op]
        return Area(self.grid, Window(0, 0, self.grid.width, self.grid.height), out)

    def __or__(self, other: object) -> Area:
        return self._combine(other, "|")

    def __and__(self, other: object) -> Area:
        return self._combine(other, "&")

    def __sub__(self, other: object) -> Area:
        return self._combine(other, "-")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Area):
            return NotImplemented
        return self.grid == other.grid and bool(np.array_equal(self.mask, other.mask))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        rules = self.rules.name if self.rules is not None else None
        return (
            f"<Area {len(self)} squares of a {self.grid.width}x{self.grid.height} grid; "
            f"shape={self.shape!r}, origin={self.origin!r}, rules={rules!r}>"
        )

    def _repr_png_(self) -> bytes:
        """The picture Jupyter shows (drawn without touching pyplot's state)."""
        from aoegrid.plotting import png_bytes

        return png_bytes(self)

    def to_text(self, *, margin: int | None = None) -> str:
        """A text picture: ``#`` covered, ``.`` not, the origin marked.

        ``margin=None`` draws the whole grid; a number draws the area and its
        origin with that many squares around. See :func:`aoegrid.text.render`.
        """
        from aoegrid.text import render

        return render(self, margin=margin)

