"""Building an area: the shape placed on the grid as the rules say.

:func:`build_area` resolves the point of origin (a point, an intersection
under rules that demand one, or a creature's space), checks units, moves an
unseen 5e origin to the near side of a wall (:func:`near_side`, which the
checks of :mod:`aoegrid.ranges` share), stops a line at a wall where the rules
say so, and lays the shape's stencil on the grid. Everything that walls decide
beyond that is worked out lazily by the result (:mod:`aoegrid.result`).
"""

from __future__ import annotations

import math
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from aoegrid._validate import point, real
from aoegrid.battlemap import BattleMapCore
from aoegrid.directions import right_normal, unit_vector
from aoegrid.errors import InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.grid import Grid
from aoegrid.options import Mode, OriginPoint, SpaceOrigin, parse_option
from aoegrid.result import AreaCore, Recipe, frame_around, origin_samples, see_from
from aoegrid.rules import Rules, resolve_rules
from aoegrid.shapes import SHAPE_TYPES, Cylinder, Line, Shapable, Shape, Sphere
from aoegrid.stencils import _Origin, _stencil_on_grid
from aoegrid.tokens import Space, Token
from aoegrid.visibility import OriginOnWallError
from aoegrid.walls import Channel

A = TypeVar("A", bound=AreaCore)
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

#: How far short of the wall an origin moved to its near side stops, in squares: on the caster's side of it.
NEAR_SIDE_GAP = 1e-6


def build_area(
    cls: type[A],
    shape: Shape,
    at: Any,
    on: Grid | BattleMapCore,
    rules: Rules | str = "starfinder",
    mode: Mode | str = "burst",
    *,
    include_origin: bool | None = None,
    caster: Any = None,
    elevation: float = 0.0,
    comes_into_being: Any = None,
) -> A:
    """An area of class ``cls`` (see :func:`aoegrid.area.area` for the arguments).

    ``comes_into_being`` is where a point of origin chosen at ``at`` comes
    into being (:attr:`aoegrid.ranges.OriginCheck.origin`), when the caller
    has checked the placement; None: worked out here from ``caster``.
    """
    if isinstance(on, BattleMapCore):
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
    rules = resolve_rules(rules).for_shape(shape)  # a line may be counted by its own rule
    mode = parse_option(Mode, mode, "mode")
    if include_origin is not None and not isinstance(include_origin, bool):
        raise InvalidTypeError(f"include_origin must be True, False or None, got {include_origin!r}")
    _check_units(shape, rules, grid)
    source_space: Space | None = None  # the creature the area comes from, if any
    if isinstance(at, (Token, Space)):
        source_space = at.space if isinstance(at, Token) else at
        _check_space(source_space, grid)
        origin = _origin_from_space(shape, source_space, rules)
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

    if bmap is not None and caster is not None and moves_unseen(shape, rules) and source_space is None:
        # Only a point chosen moves ("If you choose a point"), not a creature's space.
        if comes_into_being is None:
            qx, qy = near_side(bmap, space_of(caster), np.array([origin.x0]), np.array([origin.y0]))
            comes_into_being = (float(qx[0]), float(qy[0]))
        origin = _Origin(*comes_into_being, *comes_into_being)
    stop = math.inf
    if bmap is not None and isinstance(shape, Line) and rules.line_stops_at_wall:
        d = unit_vector(float(shape.direction))
        frame = frame_around(bmap.grid, [(origin.x0, origin.y0)])
        vis = see_from(bmap, Channel.EFFECT, (origin.x0, origin.y0), frame)
        stop = vis.reach(math.atan2(d[1], d[0]))
    window, local = _stencil_on_grid(shape, origin, rules, grid, stop)
    clear = None
    if source_space is not None:
        included = shape.name in rules.origin_included if include_origin is None else include_origin
        clear = None if included else source_space
    recipe = Recipe(on, at, include_origin, caster, real(elevation, "elevation"), origin, clear)
    result = cls(grid, window, local, shape=shape, origin=source_space or (origin.x0, origin.y0),
                 rules=rules, mode=mode, recipe=recipe)
    if bmap is not None:
        # The visibility polygons are needed for every answer on a map; building
        # them now also refuses an origin inside a wall when the area is made.
        result._views(Channel.EFFECT)
        z = recipe.elevation
        if any(bmap.in_3d(*result.vertical_extent())):
            # A wall shorter than the solid but standing at the origin's height holds the origin as surely.
            level = bmap.full_walls(z, z)
            for p in origin_samples(origin):
                see_from(level, Channel.EFFECT, p, frame_around(grid, [p]))
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


def space_of(thing: Any, field: str = "caster") -> Space:
    """The space of a Token or Space; a point ``(x, y)`` stands for the square it lies in."""
    if isinstance(thing, Token):
        return thing.space
    if isinstance(thing, Space):
        return thing
    p = point(thing, field)
    return Space(math.floor(p[0]), math.floor(p[1]))


def seen_from_space(bmap: BattleMapCore, space: Space, channel: Channel, px: Any, py: Any) -> BoolArray:
    """Whether a straight line from some point of ``space`` reaches each point, for ``channel``.

    Lines start where an emanation's do: the space's corners, nudged inside,
    and its centre. A start inside a wall (one run through the creature)
    reaches nothing: which side of the wall it is on would be a guess.
    """
    samples = origin_samples(_Origin(*space.bounds))
    frame = frame_around(bmap.grid, samples)
    px, py = np.broadcast_arrays(np.asarray(px, float), np.asarray(py, float))
    out = np.zeros(px.shape, dtype=bool)
    for p in samples:
        try:
            vis = see_from(bmap, channel, p, frame)
        except OriginOnWallError:
            continue
        # Only points not yet seen, within the visibility polygon's box, can be seen now.
        (x0, y0), (x1, y1) = vis.polygon().min(axis=0) - 1e-6, vis.polygon().max(axis=0) + 1e-6
        ask = ~out & (px >= x0) & (px <= x1) & (py >= y0) & (py <= y1)
        out[ask] = vis.sees(px[ask], py[ask])
    return out


def moves_unseen(shape: Shape, rules: Rules) -> bool:
    """Whether a point of origin of ``shape`` the caster cannot see moves to the near side (:func:`near_side`).

    Under rules that say so (``Rules.hidden_origin_to_near_side``: SW5e), for
    every shape but a shapable area: that is laid out from a grid
    intersection, and the near side is seldom one.
    """
    return rules.hidden_origin_to_near_side and not isinstance(shape, Shapable)


def near_side(bmap: BattleMapCore, caster: Space, px: FloatArray, py: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Where each point of origin chosen at ``(px, py)`` comes into being, under 5e.

    SW5e: "If you choose a point behind an obstruction, the point of origin
    comes into being on the near side of that obstruction." A point the
    caster sees (a line of sight from some point of its space:
    :func:`seen_from_space`) stays. One it cannot see moves along the
    straight line from the centre of the caster's space toward it, to
    :data:`NEAR_SIDE_GAP` short of the first wall blocking effect on that
    line; with no such wall before it (unseen through fog or darkness, or
    past a window), it stays. With the centre inside a wall no line starts
    there, and unseen points stay too. Points on the map stay on it (the
    line runs between two points of it). Where the line ran along a wall
    into the one it meets, the near side lies inside the first: the checks
    refuse that point.

    Every check (:func:`aoegrid.check_origin`, :func:`aoegrid.legal_origins`)
    and :func:`aoegrid.area` asks this one function, for one point or many,
    so a placement has one answer everywhere.

    Returns
    -------
    (float array, float array)
        The points' x and y, moved or not, shaped as ``px`` and ``py``.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(16, 10), walls=[ag.Wall((8, 0), (8, 10))])
    >>> qx, qy = near_side(m, ag.Space(5, 4), np.array([10.5, 6.5]), np.array([6.5, 4.5]))
    >>> [(round(float(x), 4), round(float(y), 4)) for x, y in zip(qx, qy)]   # behind the wall: moved; seen: stays
    [(8.0, 5.5), (6.5, 4.5)]
    """
    qx, qy = np.array(px, dtype=float), np.array(py, dtype=float)
    hidden = ~seen_from_space(bmap, caster, Channel.SIGHT, qx, qy)
    if not hidden.any():
        return qx, qy
    return wall_ahead(bmap, caster, qx, qy, hidden)


def wall_ahead(bmap: BattleMapCore, caster: Space, px: FloatArray, py: FloatArray,
               which: BoolArray | None = None) -> tuple[FloatArray, FloatArray]:
    """Where each point (of ``which``; by default all) comes into being were the caster unable to see it.

    :func:`near_side`'s move, whether or not the caster sees the point:
    :data:`NEAR_SIDE_GAP` short of the first wall blocking effect on the line
    from the centre of the caster's space toward it; the point itself where
    no wall is, or the centre lies inside one.
    """
    qx, qy = np.array(px, dtype=float), np.array(py, dtype=float)
    which = np.ones(qx.shape, dtype=bool) if which is None else which
    cx, cy = caster.center
    try:
        vis = see_from(bmap, Channel.EFFECT, (cx, cy), frame_around(bmap.grid, [(cx, cy)]))
    except OriginOnWallError:
        return qx, qy
    dx, dy = qx[which] - cx, qy[which] - cy
    dist = np.hypot(dx, dy)
    # Visibility.reach, for many angles at once.
    reach = vis._reach(np.arctan2(dy, dx))
    blocked = dist > reach
    t = np.maximum(reach[blocked] - NEAR_SIDE_GAP, 0.0) / dist[blocked]
    where = np.flatnonzero(which)[blocked]
    qx.flat[where] = cx + t * dx[blocked]
    qy.flat[where] = cy + t * dy[blocked]
    return qx, qy


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


