"""Building an area: the shape placed on the grid as the rules say.

:func:`build_area` resolves the point of origin (a point, an intersection
under rules that demand one, or a creature's space), checks units, moves an
unseen 5e origin to the near side of a wall (:func:`near_side`, which the
checks of :mod:`aoegrid.effects.ranges` share), stops a line at a wall where the rules
say so, and lays the shape's stencil on the grid. Everything that walls decide
beyond that is worked out lazily by the result (:mod:`aoegrid.effects.result`).
"""

from __future__ import annotations

import math
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from aoegrid.board.battlemap import BattleMapCore
from aoegrid.board.heights import blocked, first_block
from aoegrid.board.visibility import OriginOnWallError
from aoegrid.board.walls import Channel
from aoegrid.effects.result import AreaCore, Recipe, frame_around, origin_samples, see_from
from aoegrid.errors import InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.geometry._validate import point, real
from aoegrid.geometry.directions import right_normal, unit_vector
from aoegrid.geometry.grid import Grid
from aoegrid.geometry.hexgrid import HexGrid
from aoegrid.geometry.options import Mode, OriginPoint, SpaceOrigin, parse_option
from aoegrid.geometry.rules import Rules, resolve_rules
from aoegrid.geometry.shapes import SHAPE_TYPES, Cylinder, Line, Shapable, Shape, Sphere
from aoegrid.geometry.stencils import _Origin, _stencil_on_grid, shape_extent
from aoegrid.geometry.tokens import Space, Token

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
    into being (:attr:`aoegrid.effects.ranges.OriginCheck.origin`), when the caller
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
    check_units(shape, rules, grid)
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

    z = real(elevation, "elevation")
    if bmap is not None and caster is not None and moves_unseen(shape, rules) and source_space is None:
        # Only a point chosen moves ("If you choose a point"), not a creature's space.
        if comes_into_being is None:
            qx, qy = near_side(bmap, space_of(caster), np.array([origin.x0]), np.array([origin.y0]),
                               caster_prism(caster, grid.square), z)
            comes_into_being = (float(qx[0]), float(qy[0]))
        origin = _Origin(*comes_into_being, *comes_into_being)
    stop = math.inf
    if bmap is not None and isinstance(shape, Line) and rules.line_stops_at_wall:
        stop = line_stop(bmap, shape, origin, rules, z)
    window, local = _stencil_on_grid(shape, origin, rules, grid, stop)
    clear = None
    if source_space is not None:
        included = shape.name in rules.origin_included if include_origin is None else include_origin
        clear = None if included else source_space
    recipe = Recipe(on, at, include_origin, caster, z, origin, clear, stop)
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


def line_stop(bmap: BattleMapCore, shape: Line, origin: _Origin, rules: Rules, z: float) -> float:
    """How far along its axis (squares) a line goes before it strikes a wall or a floor (``Rules.line_stops_at_wall``).

    Its axis starts at the point of origin, at the origin's height ``z``,
    and runs along its direction, aimed up or down by its pitch. It stops
    where it first enters a wall blocking effect within the wall's span, or
    crosses a floor's plane inside the floor (:func:`aoegrid.board.heights.first_block`):
    it passes over a wall whose top is below it there and under one whose
    bottom is above. A level line meets only the walls standing at its
    height, and no floor; with every wall of every height, that is the
    first wall in its direction, as on a flat map.
    """
    grid = bmap.grid
    d = unit_vector(float(shape.direction))
    pitch = math.radians(shape.pitch)
    flat, rise = math.cos(pitch), math.sin(pitch)
    # Far enough that no square the line can take lies beyond it: far-edge counting takes squares up to
    # sqrt(3) times its length away (:func:`aoegrid.geometry._pitch.line_size`).
    reach = math.sqrt(3.0) * (shape_extent(shape, rules, grid.square) + 2.0)
    top = z + reach * rise * grid.square
    lo, hi = min(z, top), max(z, top)
    o = (origin.x0, origin.y0)
    stop = math.inf
    if flat > 1e-12:
        # The walls standing at every height of the axis stop it where they do on a flat map.
        vis = see_from(bmap.full_walls(lo, hi), Channel.EFFECT, o, frame_around(grid, [o]))
        stop = vis.reach(math.atan2(d[1], d[0])) / flat
    walls, floors = bmap.in_3d(lo, hi)
    if walls or floors:
        p = np.array([o[0], o[1], z])
        q = p + np.array([reach * flat * d[0], reach * flat * d[1], reach * rise * grid.square])
        stop = min(stop, first_block(p, q, walls, floors) * reach)
    return stop


def check_units(shape: Shape, rules: Rules, grid: Grid | HexGrid) -> None:
    """Refuse sizes written in another unit than the grid's (squares or hexes): they would be silently mis-scaled."""
    hexes = isinstance(grid, HexGrid)
    board, cell = ("hex grid", "hex") if hexes else ("grid", "square")
    for what, units in ((f"{rules.name} rules measure", rules.units), (f"{shape!r} is sized", shape.units)):
        if units is not None and units != grid.units:
            make = (f"aoegrid.HexGrid({grid.width}, {grid.height}, units={units!r}, size=1)" if hexes
                    else f"aoegrid.Grid({grid.width}, {grid.height}, units={units!r})")
            raise InvalidValueError(
                f"{what} in {units!r} but the {board} is in {grid.units!r} "
                f"({grid.cell_size:g} {grid.units} a {cell}); make the grid in the same unit, e.g. {make}"
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


def caster_prism(caster: Any, square: float) -> tuple[float, float]:
    """The heights the caster fills, in the grid's unit.

    A Token fills its prism (:meth:`Token.prism`); a Space or a point
    stands on the ground, as tall as its space is wide (a Token's default).

    Examples
    --------
    >>> caster_prism(Token(0, 0, elevation=10), 5.0), caster_prism(Space(0, 0, 2, 2), 5.0)
    ((10.0, 15.0), (0.0, 10.0))
    """
    if isinstance(caster, Token):
        low, high = caster.prism(square)
        return float(low), float(high)
    return 0.0, float(space_of(caster).width * square)


def lines_in_3d(bmap: BattleMapCore, prism: tuple[float, float], z: float) -> tuple[BattleMapCore, bool] | None:
    """How lines from the caster's prism to an origin at ``z`` are judged: None in the plane (every wall spans
    those heights, no floor lies between them); otherwise the map of the walls spanning every height
    (:meth:`BattleMapCore.full_walls`), and whether a floor lies strictly between (then a line the plane
    lets through may still be stopped)."""
    lo, hi = min(prism[0], z), max(prism[1], z)
    full = bmap.full_walls(lo, hi)
    floored = any(lo < f.elevation < hi for f in bmap.floors)
    return None if full is bmap and not floored else (full, floored)


def seen_over(bmap: BattleMapCore, full: BattleMapCore, space: Space, prism: tuple[float, float], z: float,
               channel: Channel, px: FloatArray, py: FloatArray) -> BoolArray:
    """Whether a line in three dimensions from the caster reaches each point ``(px, py)`` at height ``z``.

    For points no line reaches with every wall taken as infinitely tall, and
    for every point when a floor lies between the heights. Lines start where :func:`seen_from_space`'s do (the
    corners of ``space``, nudged inside, and its centre), each at the
    bottom, middle and top of the caster's ``prism``, and end at the point
    at ``z``. One reaches when, seen from above, it crosses none of the
    ``full`` map's walls (those spanning every height from ``prism`` to
    ``z``; a start inside one reaches nothing, as in the plane) and no
    shorter wall blocking ``channel`` or floor blocks it in three
    dimensions (:func:`aoegrid.board.heights.blocked`).
    """
    px, py = np.asarray(px, dtype=np.float64).ravel(), np.asarray(py, dtype=np.float64).ravel()
    lo, hi = min(prism[0], z), max(prism[1], z)
    reached = np.zeros(len(px), dtype=bool)
    ask = np.flatnonzero(seen_from_space(full, space, channel, px, py))
    if not ask.size:
        return reached
    walls = [w for w in bmap.walls if w.blocks_channel(channel) and not (w.bottom <= lo and w.top >= hi)
             and w.bottom <= hi and w.top >= lo]
    floors = [f for f in bmap.floors if lo < f.elevation < hi]
    q = np.column_stack([px[ask], py[ask], np.full(ask.size, z)])
    samples = origin_samples(_Origin(*space.bounds))
    frame = frame_around(full.grid, samples)
    heights = (prism[0], (prism[0] + prism[1]) / 2, prism[1])
    done = np.zeros(ask.size, dtype=bool)
    for sx, sy in samples:
        try:
            vis = see_from(full, channel, (sx, sy), frame)
        except OriginOnWallError:
            continue
        k = np.flatnonzero(~done)
        k = k[vis.sees(q[k, 0], q[k, 1])]
        for h in heights:
            if not k.size:
                break
            clear = ~blocked(np.broadcast_to(np.array([sx, sy, h]), (k.size, 3)), q[k], walls, floors)
            done[k[clear]] = True
            k = k[~clear]
    reached[ask] = done
    return reached


def seen_in_3d(bmap: BattleMapCore, space: Space, channel: Channel, px: FloatArray, py: FloatArray,
               prism: tuple[float, float], z: float) -> BoolArray:
    """Whether a straight line in three dimensions from the caster reaches each point ``(px, py)`` at height ``z``.

    :func:`seen_from_space` with every wall taken as infinitely tall when
    every wall spans the heights from the caster's ``prism`` to ``z`` and no
    floor lies between (:func:`lines_in_3d`: the plane's answer is
    exact); otherwise :func:`seen_over` decides the points the plane
    refuses (every point, with a floor between).
    """
    px, py = np.asarray(px, dtype=np.float64), np.asarray(py, dtype=np.float64)
    seen = seen_from_space(bmap, space, channel, px, py)
    lines = lines_in_3d(bmap, prism, z)
    if lines is not None:
        full, floored = lines
        # Points the plane refuses may be seen over a shorter wall; with a floor between, any may be cut.
        again = np.ones(seen.shape, dtype=bool) if floored else ~seen
        seen[again] = seen_over(bmap, full, space, prism, z, channel, px[again], py[again])
    return seen


def moves_unseen(shape: Shape, rules: Rules) -> bool:
    """Whether a point of origin of ``shape`` the caster cannot see moves to the near side (:func:`near_side`).

    Under rules that say so (``Rules.hidden_origin_to_near_side``: SW5e), for
    every shape but a shapable area: that is laid out from a grid
    intersection, and the near side is seldom one.
    """
    return rules.hidden_origin_to_near_side and not isinstance(shape, Shapable)


def near_side(bmap: BattleMapCore, caster: Space, px: FloatArray, py: FloatArray,
              prism: tuple[float, float] | None = None, z: float = 0.0) -> tuple[FloatArray, FloatArray]:
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

    In three dimensions (``prism``, the heights the caster fills, and ``z``,
    the point's height, both in the grid's unit): the caster sees the point
    when a line from its prism does (:func:`seen_in_3d`: over walls shorter
    than the heights between, not through floors); a point it cannot see
    keeps its height and moves as above, short of the first wall standing
    at that height (:meth:`~aoegrid.board.battlemap.BattleMapCore.full_walls` of
    ``z``). A point hidden only by a floor, or by a wall above or below it,
    stays. Without ``prism``, every wall is infinitely tall.

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
    if prism is None:
        hidden = ~seen_from_space(bmap, caster, Channel.SIGHT, qx, qy)
    else:
        hidden = ~seen_in_3d(bmap, caster, Channel.SIGHT, qx, qy, prism, z)
    if not hidden.any():
        return qx, qy
    return wall_ahead(bmap if prism is None else bmap.full_walls(z, z), caster, qx, qy, hidden)


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


