"""Building an area: the shape placed on the grid as the rules say.

:func:`build_area` resolves the point of origin (a point, an intersection
under rules that demand one, or a creature's space), checks units, moves an
unseen 5e origin to the near side of a wall, stops a line at a wall where the
rules say so, and lays the shape's stencil on the grid. Everything that walls
decide beyond that is worked out lazily by the result (:mod:`aoegrid.result`).
"""

from __future__ import annotations

import math
from typing import Any, TypeVar

import numpy as np

from aoegrid._validate import point, real
from aoegrid.battlemap import BattleMapCore
from aoegrid.directions import right_normal, unit_vector
from aoegrid.errors import InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.grid import Grid
from aoegrid.options import Mode, OriginPoint, SpaceOrigin, parse_option
from aoegrid.result import AreaCore, Recipe, frame_around, see_from
from aoegrid.rules import Rules, resolve_rules
from aoegrid.shapes import SHAPE_TYPES, Cylinder, Line, Shapable, Shape, Sphere
from aoegrid.stencils import _Origin, _stencil_on_grid
from aoegrid.tokens import Space, Token
from aoegrid.walls import Channel

A = TypeVar("A", bound=AreaCore)


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
) -> A:
    """An area of class ``cls`` (see :func:`aoegrid.area.area` for the arguments)."""
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
        frame = frame_around(bmap.grid, [(origin.x0, origin.y0)])
        vis = see_from(bmap, Channel.EFFECT, (origin.x0, origin.y0), frame)
        stop = vis.reach(math.atan2(d[1], d[0]))
    window, local = _stencil_on_grid(shape, origin, rules, grid, stop)
    clear = None
    if caster_space is not None:
        included = shape.name in rules.origin_included if include_origin is None else include_origin
        clear = None if included else caster_space
    recipe = Recipe(on, at, include_origin, caster, real(elevation, "elevation"), origin, clear)
    result = cls(grid, window, local, shape=shape, origin=caster_space or (origin.x0, origin.y0),
                 rules=rules, mode=mode, recipe=recipe)
    if bmap is not None:
        # The visibility polygons are needed for every answer on a map; building
        # them now also refuses an origin inside a wall when the area is made.
        result._views(Channel.EFFECT)
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


def _viewpoint(caster: Any, grid: Grid) -> tuple[float, float]:
    if isinstance(caster, (Token, Space)):
        space = caster.space if isinstance(caster, Token) else caster
        return space.center
    p = point(caster, "caster")
    if not grid.contains_point(p):
        raise OffGridError(f"caster {_fmt(p)} is off the {grid.width} x {grid.height} grid")
    return p


def _near_side(bmap: BattleMapCore, viewer: tuple[float, float], origin: _Origin) -> _Origin:
    """5e: an unseen point of origin behind a wall moves to the wall's near side."""
    target = (origin.x0, origin.y0)
    frame = frame_around(bmap.grid, [viewer, target])
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


