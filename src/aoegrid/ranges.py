"""Range: how far from its caster an effect may be placed, and who it may target.

Distances run from the caster's space (its nearest edge) under the rules'
diagonal count, in the grid's unit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

import numpy as np

from aoegrid._validate import point, real
from aoegrid.distance import measure
from aoegrid.errors import InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.options import OriginPoint, parse_option
from aoegrid.rules import Rules, resolve_rules
from aoegrid.shapes import Cone, Line, Shape
from aoegrid.tokens import Space, Token
from aoegrid.walls import Channel

if TYPE_CHECKING:
    from aoegrid.area import Area
    from aoegrid.battlemap import BattleMap
    from aoegrid.grid import Grid


class RangeKind(str, Enum):
    """The kinds of range the seeds name."""

    FEET = "feet"
    TOUCH = "touch"
    SELF = "self"
    CLOSE = "close"
    MEDIUM = "medium"
    LONG = "long"
    PLANETARY = "planetary"
    SYSTEM_WIDE = "system-wide"
    PLANE = "plane"
    UNLIMITED = "unlimited"


_ALIASES = {"personal": "self", "ft": "feet"}
#: Starfinder range categories by level: base + per, for every ``every`` levels.
_BY_LEVEL = {RangeKind.CLOSE: (25, 5, 2), RangeKind.MEDIUM: (100, 10, 1), RangeKind.LONG: (400, 40, 1)}
_UNBOUNDED = {RangeKind.PLANETARY, RangeKind.SYSTEM_WIDE, RangeKind.PLANE, RangeKind.UNLIMITED}


@dataclass(frozen=True, slots=True)
class Range:
    """A range: a kind, and feet or a caster level where the kind needs one.

    Starfinder: close reaches "25 feet + 5 feet for every 2 levels", medium
    "100 feet + 10 feet per level", long "400 feet + 40 feet per level";
    planetary, system-wide, plane and unlimited reach anything on the map.
    Touch reaches adjacent creatures; self (personal) only the caster.

    Examples
    --------
    >>> [Range("close", level=n).feet for n in (1, 2, 7, 20)]
    [25.0, 30.0, 40.0, 75.0]
    >>> Range(60).feet, Range("medium", level=3).feet, Range("planetary").feet
    (60.0, 130.0, inf)
    """

    kind: RangeKind | str | float = RangeKind.FEET
    level: int | None = None
    distance: float | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        kind = self.kind
        if isinstance(kind, (int, float)) and not isinstance(kind, bool):
            set_(self, "distance", real(kind, "Range feet"))
            kind = RangeKind.FEET
        elif isinstance(kind, str):
            kind = _ALIASES.get(kind.strip().lower(), kind)
        kind = parse_option(RangeKind, kind, "range kind")
        set_(self, "kind", kind)
        if kind is RangeKind.FEET:
            if self.distance is None or self.distance < 0:
                raise InvalidValueError(f"a range in feet needs a distance of 0 or more, got {self.distance!r}")
            set_(self, "distance", real(self.distance, "Range distance"))
        if kind in _BY_LEVEL:
            lv = self.level
            if isinstance(lv, bool) or not isinstance(lv, int) or lv < 0:
                raise InvalidValueError(f"a {kind.value} range needs the caster's level, a whole number 0 or more; got {lv!r}")

    @property
    def feet(self) -> float:
        """How far the range reaches, in feet (``inf`` for the unbounded kinds)."""
        kind = RangeKind(self.kind)
        if kind in _BY_LEVEL:
            base, per, every = _BY_LEVEL[kind]
            assert self.level is not None
            return float(base + per * (self.level // every))
        if kind in _UNBOUNDED:
            return math.inf
        if kind is RangeKind.TOUCH:
            return 5.0
        if kind is RangeKind.SELF:
            return 0.0
        assert self.distance is not None
        return self.distance

    def times(self, factor: int) -> Range:
        """This range multiplied (Savage Worlds' Range modifier: x2 or x3).

        Raises for touch and self, which the modifier cannot extend.
        """
        kind = RangeKind(self.kind)
        if kind in (RangeKind.TOUCH, RangeKind.SELF):
            raise InvalidValueError(f"the Range modifier cannot be used on a range of {kind.value}")
        if kind in _UNBOUNDED:
            return self
        return Range(RangeKind.FEET, distance=self.feet * factor)


@dataclass(frozen=True, slots=True)
class RangeCheck:
    """Whether a point is in range, how far it is, and the nearest legal origin toward it."""

    in_range: bool
    distance: float
    limit: float
    nearest: tuple[float, float]


def _space(caster: Any, field: str = "caster") -> Space:
    if isinstance(caster, Token):
        return caster.space
    if isinstance(caster, Space):
        return caster
    p = point(caster, field)
    return Space(math.floor(p[0]), math.floor(p[1]))


def distance_from_space(space: Space, p: tuple[float, float], rules: Rules, square: float) -> float:
    """From the nearest edge of ``space`` to point ``p``, under the rules' diagonal count."""
    x0, y0, x1, y1 = space.bounds
    dx = max(0.0, x0 - p[0], p[0] - x1)
    dy = max(0.0, y0 - p[1], p[1] - y1)
    return float(measure(dx, dy, rules.diagonals)) * square


def check_shape_range(shape: Shape, rng: Range, rules: Rules | str) -> None:
    """Refuse a range that makes no sense for the shape.

    5e: "Powers that create cones or lines of effect that originate from you
    also have a range of self". Savage Worlds: the Range modifier "may not be
    used on powers with a Range of Touch or the Cone Template".
    """
    rules = resolve_rules(rules)
    if rules.name == "sw5e" and isinstance(shape, (Cone, Line)) and RangeKind(rng.kind) is not RangeKind.SELF:
        raise InvalidValueError(
            f"under sw5e a {type(shape).__name__.lower()} originates from its caster: its range is "
            f"self, not {RangeKind(rng.kind).value} {rng.feet:g} ft"
        )


def in_range(caster: Any, target: Any, rng: Range, rules: Rules | str, grid: Grid) -> RangeCheck:
    """Whether ``target`` (a point of origin) lies within ``rng`` of ``caster``.

    Where it does not, ``nearest`` is the legal point of origin nearest to it
    toward which the caster could place the effect instead: the farthest
    point in range on the line from the caster to the target, moved to the
    nearest grid intersection in range under rules whose origins are
    intersections.

    Examples
    --------
    >>> import aoegrid as ag
    >>> c = in_range(ag.Token(0, 0), (10, 0), Range(30), "starfinder", ag.Grid(20, 20))
    >>> c.in_range, c.distance, c.nearest
    (False, 45.0, (7, 0))
    """
    rules = resolve_rules(rules)
    space = _space(caster)
    p = point(target, "target")
    if not grid.contains_point(p):
        raise OffGridError(f"target ({p[0]:g}, {p[1]:g}) is off the {grid.width} x {grid.height} grid")
    limit = rng.feet
    dist = distance_from_space(space, p, rules, grid.square)
    if dist <= limit + 1e-9:
        return RangeCheck(True, dist, limit, p)
    cx, cy = space.center
    lo, hi = 0.0, 1.0
    for _ in range(60):  # the distance grows along the line once it leaves the space
        mid = (lo + hi) / 2
        q = (cx + mid * (p[0] - cx), cy + mid * (p[1] - cy))
        if distance_from_space(space, q, rules, grid.square) <= limit:
            lo = mid
        else:
            hi = mid
    q = (cx + lo * (p[0] - cx), cy + lo * (p[1] - cy))
    if rules.origin is OriginPoint.INTERSECTION:
        near = [
            (x, y)
            for x in range(math.floor(q[0]) - 2, math.floor(q[0]) + 3)
            for y in range(math.floor(q[1]) - 2, math.floor(q[1]) + 3)
            if grid.contains_point((x, y)) and distance_from_space(space, (x, y), rules, grid.square) <= limit
        ]
        if near:
            q = min(near, key=lambda c: (math.hypot(c[0] - p[0], c[1] - p[1]), c[1], c[0]))
    return RangeCheck(False, dist, limit, q)


def clip_to_range(area: Area, caster: Any, rng: Range) -> Area:
    """The area less the squares beyond range (Starfinder: "that area is wasted").

    A square stays when its far corner from the caster's space (far-edge
    rules) or its centre (other rules) is within range. The result keeps
    the area's shape, origin, walls and creatures.
    """
    from aoegrid.options import Inclusion
    from aoegrid.raster import center_offsets, far_offsets

    if area.rules is None:
        raise InvalidValueError("only an area made by aoegrid.area() can be clipped to a range")
    space = _space(caster)
    x0, y0, x1, y1 = space.bounds
    g = area.grid
    xs, ys = np.arange(g.width, dtype=float), np.arange(g.height, dtype=float)
    offsets = far_offsets if area.rules.inclusion is Inclusion.FAR_EDGE else center_offsets
    d = measure(offsets(xs, x0, x1)[None, :], offsets(ys, y0, y1)[:, None], area.rules.diagonals) * g.square
    w = area.window
    ys0, xs0 = slice(w.y0, w.y0 + w.height), slice(w.x0, w.x0 + w.width)
    return area._restricted(area._local & (d[ys0, xs0] <= rng.feet + 1e-9))


def touch_targets(
    caster: Token,
    tokens: Iterable[Token],
    rules: Rules | str = "starfinder",
    *,
    willing: Callable[[Token], bool] | None = None,
    limit: int = 6,
    grid_square: float = 5.0,
) -> list[Token]:
    """Creatures the caster can touch this round: adjacent, willing, at most six.

    Starfinder: "You can touch up to six willing or unconscious targets as
    part of the activation of such an effect". A creature is willing when
    ``willing`` says so, or by default when it has the tag ``"willing"`` or
    ``"unconscious"``. Raises when more than ``limit`` qualify, listing them,
    since the caster must choose.
    """
    rules = resolve_rules(rules)
    if willing is None:
        def willing(t: Token) -> bool:
            return bool(t.tags & {"willing", "unconscious"})
    near = []
    for t in tokens:
        if not isinstance(t, Token):
            raise InvalidTypeError(f"tokens must be aoegrid.Token, got {t!r}")
        if t is caster or t == caster:
            continue
        if _space_gap(caster.space, t.space, rules) * grid_square <= 5.0 and willing(t):
            near.append(t)
    if len(near) > limit:
        raise InvalidValueError(
            f"{len(near)} willing creatures are within touch ({', '.join(t.label for t in near)}); "
            f"a touch effect takes at most {limit}: choose"
        )
    return near


def _space_gap(a: Space, b: Space, rules: Rules) -> float:
    """Squares between two spaces (1 when adjacent), under the diagonal rule."""
    ax0, ay0, ax1, ay1 = a.bounds
    bx0, by0, bx1, by1 = b.bounds
    dx = max(0.0, bx0 - ax1, ax0 - bx1) + 1.0
    dy = max(0.0, by0 - ay1, ay0 - by1) + 1.0
    overlap_x = bx0 < ax1 and ax0 < bx1
    overlap_y = by0 < ay1 and ay0 < by1
    return float(measure(0.0 if overlap_x else dx, 0.0 if overlap_y else dy, rules.diagonals))


def can_target(caster: Any, target: Token, rules: Rules | str, on: BattleMap) -> bool:
    """Whether the caster may target a creature through the map's walls.

    Starfinder: "You must have line of effect to the target". Savage Worlds:
    "A character must be able to see his target". A line from any point of
    the caster's space to any part of the target's space is enough.
    """
    rules = resolve_rules(rules)
    channel = Channel.SIGHT if rules.name == "savage-worlds" else Channel.EFFECT
    return space_reaches(_space(caster), target.space, on, channel)


def space_reaches(source: Space, target: Space, on: BattleMap, channel: Channel) -> bool:
    """Whether a straight line from some point of ``source`` reaches some of ``target``.

    Lines start from the source space's corners (nudged inside) and centre.
    """
    from aoegrid.area import _frame, _Origin, _samples, see_from
    from aoegrid.raster import Window

    samples = _samples(_Origin(*source.bounds))
    window = Window(target.x, target.y, target.width, target.height)
    frame = _frame(on.grid, [*samples, target.center])
    return any(see_from(on, channel, p, frame).fraction(window).max() > 1e-9 for p in samples)
