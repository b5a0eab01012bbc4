"""Range: how far from its caster an effect may be placed, and who it may target.

Distances run from the caster's space (its nearest edge) under the rules'
diagonal count, in the grid's unit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import Enum
from numbers import Real
from typing import TYPE_CHECKING, Any, TypeVar

from aoegrid._validate import point, real
from aoegrid.distance import measure
from aoegrid.errors import InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.options import OriginPoint, parse_option
from aoegrid.result import AreaCore, frame_around, origin_samples, see_from
from aoegrid.rules import Rules, resolve_rules
from aoegrid.savage_worlds import range_cost
from aoegrid.shapes import Cone, Line, Shape
from aoegrid.stencils import _Origin
from aoegrid.tokens import Space, Token
from aoegrid.walls import Channel

if TYPE_CHECKING:
    from aoegrid.battlemap import BattleMapCore as BattleMap
    from aoegrid.grid import Grid

A = TypeVar("A", bound=AreaCore)


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

    ``multiplier`` is Savage Worlds' Range modifier (1, or 2 or 3 from
    :meth:`times`); :attr:`feet` includes it.

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
    multiplier: int = 1

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
        if self.multiplier != 1:
            self._check_modifiable()
            range_cost(self.multiplier)  # refuses anything but 2 or 3

    @property
    def feet(self) -> float:
        """How far the range reaches, in feet (``inf`` for the unbounded kinds)."""
        kind = RangeKind(self.kind)
        if kind in _BY_LEVEL:
            base, per, every = _BY_LEVEL[kind]
            assert self.level is not None
            return float(base + per * (self.level // every)) * self.multiplier
        if kind in _UNBOUNDED:
            return math.inf
        if kind is RangeKind.TOUCH:
            return 5.0
        if kind is RangeKind.SELF:
            return 0.0
        assert self.distance is not None
        return self.distance * self.multiplier

    def times(self, factor: int) -> Range:
        """This range under Savage Worlds' Range modifier: doubled or tripled, once.

        "Double the power's listed Range for 1 Power Point, or triple it for
        +2. This modifier may not be used on powers with a Range of Touch";
        like every modifier it applies "only once per casting", so a range
        already multiplied is refused (x4 is not x2 twice).

        Parameters
        ----------
        factor : {2, 3}

        Returns
        -------
        Range
            The same kind and level with ``multiplier=factor``.

        Examples
        --------
        >>> Range(12).times(2).feet, Range("close", level=2).times(3).feet
        (24.0, 90.0)
        >>> Range(12).times(2).times(2)
        Traceback (most recent call last):
        ...
        aoegrid.errors.InvalidValueError: the Range modifier applies once per casting: this range is already x2; multiply the listed range once, by 2 or 3
        """
        self._check_modifiable()
        if self.multiplier != 1:
            raise InvalidValueError(
                f"the Range modifier applies once per casting: this range is already x{self.multiplier}; "
                "multiply the listed range once, by 2 or 3"
            )
        range_cost(factor)  # refuses anything but 2 or 3
        return replace(self, multiplier=factor)

    def _check_modifiable(self) -> None:
        """Refuse touch and self, which the Range modifier cannot extend."""
        kind = RangeKind(self.kind)
        if kind in (RangeKind.TOUCH, RangeKind.SELF):
            raise InvalidValueError(f"the Range modifier cannot be used on a range of {kind.value}")


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


def as_range(rng: Any) -> Range:
    """``rng`` as a :class:`Range`: a Range as given, or a plain number of feet.

    Examples
    --------
    >>> as_range(60) == Range(60)
    True
    """
    if isinstance(rng, Range):
        return rng
    if isinstance(rng, Real) and not isinstance(rng, bool):
        return Range(real(rng, "range"))
    raise InvalidTypeError(
        f"range must be an aoegrid.Range or a number of feet, got {rng!r} of type {type(rng).__name__}"
    )


def in_range(caster: Any, target: Any, rng: Range | float, rules: Rules | str, grid: Grid) -> RangeCheck:
    """Whether ``target`` lies within ``rng`` of ``caster``.

    Parameters
    ----------
    caster : Token, Space or (x, y)
        Distances run from the nearest edge of its space.
    target : (x, y), Token or Space
        A point of origin in grid units, or a creature. A point's distance is
        from the caster's space to the point. A creature's is counted as on
        the table: the squares from the caster's space to the nearest square
        of the target's space, that square included, under the rules'
        diagonal count (an adjacent creature is one square away, so a touch
        reaches it and not the creature beyond).
    rng : Range or float
        A :class:`Range`, or a plain number of feet.
    rules : Rules or str
    grid : Grid

    Returns
    -------
    RangeCheck
        Where the target is out of range, ``nearest`` is the legal point of
        origin nearest to it toward which the caster could place the effect
        instead: the farthest point in range on the line from the caster to
        the target (a creature's centre), moved to the nearest grid
        intersection in range under rules whose origins are intersections.
        For a creature in range it is the centre of its space.

    Examples
    --------
    >>> import aoegrid as ag
    >>> c = in_range(ag.Token(0, 0), (10, 0), Range(30), "starfinder", ag.Grid(20, 20))
    >>> c.in_range, c.distance, c.nearest
    (False, 45.0, (7, 0))
    >>> ogre = ag.Token(6, 0, size="large")
    >>> c = in_range(ag.Token(0, 0), ogre, 30, "starfinder", ag.Grid(20, 20))
    >>> c.in_range, c.distance, c.nearest
    (True, 30.0, (7.0, 1.0))
    """
    rules = resolve_rules(rules)
    rng = as_range(rng)
    space = _space(caster)
    limit = rng.feet
    if isinstance(target, (Token, Space)):
        aim = _space(target)
        x0, y0, x1, y1 = aim.bounds
        if x0 < 0 or y0 < 0 or x1 > grid.width or y1 > grid.height:
            raise OffGridError(
                f"target (space {x0:g}..{x1:g} x {y0:g}..{y1:g}) is not wholly on the "
                f"{grid.width} x {grid.height} grid"
            )
        p = aim.center
        dist = _space_gap(space, aim, rules) * grid.square
    else:
        try:
            p = point(target, "target")
        except InvalidTypeError:
            raise InvalidTypeError(
                f"target must be an (x, y) point in grid units, an aoegrid.Token or a Space; got {target!r}"
            ) from None
        if not grid.contains_point(p):
            raise OffGridError(f"target ({p[0]:g}, {p[1]:g}) is off the {grid.width} x {grid.height} grid")
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


def clip_to_range(area: A, caster: Any, rng: Range | float) -> A:
    """The area less the squares beyond range (Starfinder: "that area is wasted").

    A square stays when its far corner from the caster's space (far-edge
    rules) or its centre (other rules) is within range. ``rng`` is a
    :class:`Range` or a plain number of feet. The result keeps the area's
    shape, origin, walls and creatures.
    """
    from aoegrid.options import Inclusion
    from aoegrid.raster import center_offsets, far_offsets

    if area.rules is None:
        raise InvalidValueError("only an area made by aoegrid.area() can be clipped to a range")
    limit = as_range(rng).feet
    space = _space(caster)
    x0, y0, x1, y1 = space.bounds
    w = area.window
    offsets = far_offsets if area.rules.inclusion is Inclusion.FAR_EDGE else center_offsets
    d = measure(offsets(w.xs, x0, x1)[None, :], offsets(w.ys, y0, y1)[:, None], area.rules.diagonals) * area.grid.square
    return area._restricted(area.local & (d <= limit + 1e-9))


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
    from aoegrid.raster import Window

    samples = origin_samples(_Origin(*source.bounds))
    window = Window(target.x, target.y, target.width, target.height)
    frame = frame_around(on.grid, [*samples, target.center])
    return any(see_from(on, channel, p, frame).fraction(window).max() > 1e-9 for p in samples)
