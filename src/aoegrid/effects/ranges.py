"""Range: how far from its caster an effect may be placed, where, and who it may target.

Distances run from the caster's space (its nearest edge) under the rules'
diagonal count, in the grid's unit; to a point of origin above or below the
caster, from its prism (its space, from its elevation to its top), counted in
three dimensions (``aoegrid.geometry.distance.measure3``). :func:`legal_origins` lists every legal
point of origin on a map (range, line of effect or sight, walls);
:func:`check_origin` says which rule one point breaks and the nearest legal
one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from enum import Enum
from numbers import Real
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from aoegrid.board.visibility import _ON
from aoegrid.board.walls import Channel
from aoegrid.effects.build import (
    caster_prism,
    moves_unseen,
    near_side,
    seen_from_space,
    seen_in_3d,
)
from aoegrid.effects.build import space_of as _space
from aoegrid.effects.result import AreaCore, frame_around, origin_samples, see_from, vertical_gap
from aoegrid.effects.savage_worlds import range_cost
from aoegrid.errors import InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.geometry._validate import point, real, shown
from aoegrid.geometry.distance import measure, measure3
from aoegrid.geometry.options import OriginPoint, parse_option
from aoegrid.geometry.rules import Rules, resolve_rules
from aoegrid.geometry.shapes import Cone, Line, Shapable, Shape
from aoegrid.geometry.stencils import _Origin
from aoegrid.geometry.tokens import Space, Token

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

if TYPE_CHECKING:
    from aoegrid.board.battlemap import BattleMapCore as BattleMap
    from aoegrid.geometry.grid import Grid
from aoegrid.geometry.lattice import answer

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
                raise InvalidValueError(
                    f"a {kind.value} range needs the caster's level, a whole number 0 or more; got {shown(lv)}")
        if self.multiplier != 1:
            self._check_modifiable()
            range_cost(self.multiplier)  # refuses anything but 2 or 3
        # Refused here, not when read: a level or distance whose range is past
        # the float range would otherwise raise from every measurement.
        if kind in _BY_LEVEL or kind is RangeKind.FEET:
            try:
                feet = self.feet
            except OverflowError:
                feet = math.inf
            if not math.isfinite(feet):
                what = f"at level {shown(self.level)}" if kind in _BY_LEVEL else f"of {shown(self.distance)} ft"
                times = f" x{self.multiplier}" if self.multiplier != 1 else ""
                raise InvalidValueError(
                    f"a {kind.value} range {what}{times} reaches past the float range (about 1.8e308 ft); "
                    f"give a smaller {'level' if kind in _BY_LEVEL else 'distance'}")

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

    def increments(self, distance: float) -> int:
        """How many range increments ``distance`` spans, counting the first.

        Starfinder: "Some effects, especially weapons, have a range
        increment. The weapon can generate an effect at many multiples of
        this range, but you take penalties if the target is more than one
        range increment away". This range is the increment: a distance up to
        it is in the first increment (1), one past it in the second (2), and
        so on; 0 is in the first. The penalty per increment is the caller's
        (it is not in the rules text given here): no penalty at 1.

        Parameters
        ----------
        distance : float
            In the grid's unit (feet), 0 or more; a creature's distance from
            :func:`in_range` fits.

        Returns
        -------
        int
            1 or more.

        Raises
        ------
        InvalidValueError
            For a negative or non-finite distance, or a range that is not a
            distance in feet (touch, self, the unbounded kinds, Starfinder's
            level-based categories), or is 0 ft.

        Examples
        --------
        >>> [Range(30).increments(d) for d in (0, 30, 35, 60, 95)]
        [1, 1, 2, 2, 4]
        """
        kind = RangeKind(self.kind)
        if kind is not RangeKind.FEET or self.feet <= 0:
            raise InvalidValueError(
                f"range increments are counted for a range of some feet (Range(30)), not a range of "
                f"{kind.value} {self.feet:g} ft"
            )
        d = real(distance, "distance")
        if d < 0:
            raise InvalidValueError(f"distance must be 0 or more, got {distance!r}")
        spans = d / self.feet
        if math.isinf(spans):
            raise InvalidValueError(f"distance {distance!r} spans more increments of {self.feet:g} ft than a float holds")
        # A distance a rounding error past a whole number of increments is still within it.
        return max(1, math.ceil(spans - 1e-9))

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


def distance_from_space(space: Space, p: tuple[float, float], rules: Rules, square: float, rise: float = 0.0) -> float:
    """From the nearest edge of ``space`` to point ``p``, under the rules' diagonal count.

    ``rise``: how far above or below the caster's prism the point lies, in
    the grid's unit (:func:`caster_rise`); the distance is then counted in
    three dimensions (``aoegrid.geometry.distance.measure3``).
    """
    x0, y0, x1, y1 = space.bounds
    dx = max(0.0, x0 - p[0], p[0] - x1)
    dy = max(0.0, y0 - p[1], p[1] - y1)
    if rise:
        return float(measure3(dx, dy, rise / square, rules.diagonals)) * square
    return float(measure(dx, dy, rules.diagonals)) * square


def caster_rise(caster: Any, elevation: Any, square: float) -> Any:
    """How far each height ``elevation`` lies above or below the caster, in the grid's unit (0 within its prism).

    The caster's prism is ``caster_prism``'s. Scalar for a scalar ``elevation``.

    Examples
    --------
    >>> caster_rise(Token(0, 0, elevation=10), 0.0, 5.0), caster_rise(Space(0, 0, 2, 2), [5.0, 25.0, -5.0], 5.0)
    (10.0, array([ 0., 15.,  5.]))
    """
    low, high = caster_prism(caster, square)
    gap = vertical_gap(elevation, elevation, low, high)
    return float(gap) if np.ndim(elevation) == 0 else gap


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


def in_range(caster: Any, target: Any, rng: Range | float, rules: Rules | str, grid: Grid, *,
             elevation: float = 0.0) -> RangeCheck:
    """Whether ``target`` lies within ``rng`` of ``caster``.

    Parameters
    ----------
    caster : Token, Space or (x, y)
        Distances run from the nearest edge of its space.
    target : (x, y), Token or Space
        A point of origin in grid units, or a creature. A point's distance is
        from the caster's space to the point, at height ``elevation``: from
        the nearest point of the caster's prism (a Token's
        :meth:`~aoegrid.Token.prism`; a Space or point stands on the ground,
        as tall as its space is wide), counted in three dimensions by the
        rules' diagonals (``aoegrid.geometry.distance.measure3``; Starfinder
        measures range in three dimensions as it measures flight), so a
        point within the caster's height is measured in the plane. A creature's is counted as on
        the table: the squares from the caster's space to the nearest square
        of the target's space, that square included, under the rules'
        diagonal count (an adjacent creature is one square away, so a touch
        reaches it and not the creature beyond).
    rng : Range or float
        A :class:`Range`, or a plain number of feet.
    rules : Rules or str
    grid : Grid
    elevation : float
        A point target's height, in the grid's unit (a creature's is its own).

    Returns
    -------
    RangeCheck
        Where the target is out of range, ``nearest`` is the legal point of
        origin nearest to it toward which the caster could place the effect
        instead: the farthest point in range on the line from the caster to
        the target (a creature's centre), at the target's height, moved to the nearest grid
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
    >>> in_range(ag.Token(0, 0), (6, 0), 25, "starfinder", ag.Grid(20, 20), elevation=20).distance   # 5 across, 3 up
    30.0
    """
    hexes = answer(grid, "in_range")
    if hexes is not None:
        if elevation:
            raise InvalidValueError("on a hex grid, in_range's elevation= is not measured yet; leave it 0")
        return hexes(caster, target, rng, grid, rules)
    rules = resolve_rules(rules)
    rng = as_range(rng)
    space = _space(caster)
    limit = rng.feet
    rise = 0.0
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
        rise = caster_rise(caster, real(elevation, "elevation"), grid.square)
        dist = distance_from_space(space, p, rules, grid.square, rise)
    if dist <= limit + 1e-9:
        return RangeCheck(True, dist, limit, p)
    cx, cy = space.center
    lo, hi = 0.0, 1.0
    for _ in range(60):  # the distance grows along the line once it leaves the space
        mid = (lo + hi) / 2
        q = (cx + mid * (p[0] - cx), cy + mid * (p[1] - cy))
        if distance_from_space(space, q, rules, grid.square, rise) <= limit:
            lo = mid
        else:
            hi = mid
    q = (cx + lo * (p[0] - cx), cy + lo * (p[1] - cy))
    if rules.origin is OriginPoint.INTERSECTION:
        near = [
            (x, y)
            for x in range(math.floor(q[0]) - 2, math.floor(q[0]) + 3)
            for y in range(math.floor(q[1]) - 2, math.floor(q[1]) + 3)
            if grid.contains_point((x, y)) and distance_from_space(space, (x, y), rules, grid.square, rise) <= limit
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
    from aoegrid.geometry.options import Inclusion
    from aoegrid.geometry.raster import center_offsets, far_offsets

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
    ``"unconscious"``. The caster, when listed in ``tokens``, is always among
    them: SW5e's touch powers target "a creature (including you) that you
    touch", and a caster is willing to touch itself. Raises when more than
    ``limit`` qualify, listing them, since the caster must choose.

    Examples
    --------
    >>> me, friend = Token(5, 5, name="me"), Token(6, 5, name="friend", tags={"willing"})
    >>> [t.label for t in touch_targets(me, [me, friend, Token(9, 5, tags={"willing"})], "sw5e")]
    ['me', 'friend']
    """
    rules = resolve_rules(rules)
    if willing is None:
        def willing(t: Token) -> bool:
            return bool(t.tags & {"willing", "unconscious"})
    near = []
    for t in tokens:
        if not isinstance(t, Token):
            raise InvalidTypeError(f"tokens must be aoegrid.Token, got {t!r}")
        own = t is caster or t == caster
        if own or (_space_gap(caster.space, t.space, rules) * grid_square <= 5.0 and willing(t)):
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


class Need(str, Enum):
    """What a caster needs to a target or a point of origin: line of ``effect``, of ``sight``, or ``both``."""

    EFFECT = "effect"
    SIGHT = "sight"
    BOTH = "both"


def resolve_need(need: Need | str | None, rules: Rules) -> tuple[Channel, ...]:
    """The channels ``need`` asks for; ``None`` is the preset's default.

    Starfinder and Pathfinder: "You must have line of effect to the target";
    for effects with an area, "a clear line of effect to the point of
    origin". SW5e: "To target something, you must have a clear path to it,
    so it can't be behind total cover" (total cover is what line of effect
    decides). Savage Worlds: "A character must be able to see his target":
    line of sight. Some Starfinder effects need sight, or both: pass
    ``need``.

    Examples
    --------
    >>> from aoegrid.geometry.rules import SAVAGE_WORLDS, STARFINDER
    >>> resolve_need(None, SAVAGE_WORLDS), resolve_need("both", STARFINDER)
    ((<Channel.SIGHT: 'sight'>,), (<Channel.EFFECT: 'effect'>, <Channel.SIGHT: 'sight'>))
    """
    if need is None:
        return (Channel.SIGHT,) if rules.name == "savage-worlds" else (Channel.EFFECT,)
    need = parse_option(Need, need, "need")
    if need is Need.BOTH:
        return (Channel.EFFECT, Channel.SIGHT)
    return (Channel(need.value),)


def can_target(
    caster: Any, target: Token, rules: Rules | str, on: BattleMap, need: Need | str | None = None
) -> bool:
    """Whether the caster may target a creature through the map's walls.

    Starfinder: "You must have line of effect to the target". Savage Worlds:
    "A character must be able to see his target". A line from any point of
    the caster's space to any part of the target's space is enough.
    ``need`` is ``"effect"``, ``"sight"`` or ``"both"`` for effects that say
    so ("you cannot use effects that require you to have line of sight");
    by default the preset's (``resolve_need``).

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(8, 3), walls=[ag.Wall((4, 0), (4, 3), kind="window")])
    >>> me, you = ag.Token(1, 1), ag.Token(6, 1)
    >>> [ag.can_target(me, you, "starfinder", m, need=n) for n in (None, "sight", "both")]
    [False, True, False]
    """
    channels = resolve_need(need, resolve_rules(rules))
    return all(space_reaches(_space(caster), target.space, on, ch) for ch in channels)


def space_reaches(source: Space, target: Space, on: BattleMap, channel: Channel) -> bool:
    """Whether a straight line from some point of ``source`` reaches some of ``target``.

    Lines start from the source space's corners (nudged inside) and centre.
    """
    from aoegrid.geometry.raster import Window

    samples = origin_samples(_Origin(*source.bounds))
    window = Window(target.x, target.y, target.width, target.height)
    frame = frame_around(on.grid, [*samples, target.center])
    return any(see_from(on, channel, p, frame).fraction(window).max() > 1e-9 for p in samples)


#: The lattices of points of origin (``origin_lattice``): the step
#: between neighbouring points of an :class:`Origins` mask, in squares...
_STEP = {"intersections": 1.0, "intersections+centers": 0.5}
#: ...and the kinds of point each holds: name, offset within a square, and
#: the slice of the mask holding them (a lattice of its own, one step apart).
_PARTS: dict[str, tuple[tuple[str, float, Any], ...]] = {
    "intersections": (("intersections", 0.0, np.s_[:, :]),),
    "intersections+centers": (("intersections", 0.0, np.s_[0::2, 0::2]), ("centers", 0.5, np.s_[1::2, 1::2])),
}


def origin_lattice(shape: Shape, rules: Rules | str) -> str:
    """Where :func:`legal_origins` looks for points of origin for ``shape`` under ``rules``.

    * ``"caster"`` for cones and lines, which start at their caster and are
      placed by direction only (Starfinder: "It starts from any corner of
      your square"; 5e: "Powers that create cones or lines of effect that
      originate from you"; the Savage Worlds Cone Template and stream are
      laid from the caster);
    * ``"intersections"`` under rules whose origins are intersections
      (Starfinder, Pathfinder 2e: "The point of origin of an effect is always
      a grid intersection"), and for shapable areas, laid out from one;
    * ``"intersections+centers"`` under rules that let a point of origin lie
      anywhere (SW5e, Savage Worlds): every grid intersection (5e's grid rule,
      DMG p.251, puts a point of origin on one) and every square centre
      (where a template centred on a square sits). :func:`aoegrid.area`
      accepts any other point too (the middle of a square's edge, say); the
      searches do not look there.

    Examples
    --------
    >>> import aoegrid as ag
    >>> [origin_lattice(s, r) for s, r in [(ag.Sphere(20), "starfinder"), (ag.Sphere(20), "sw5e"), (ag.Cone(15), "sw5e")]]
    ['intersections', 'intersections+centers', 'caster']
    """
    rules = resolve_rules(rules)
    if isinstance(shape, (Cone, Line)):
        return "caster"
    if rules.origin is OriginPoint.INTERSECTION or isinstance(shape, Shapable):
        return "intersections"
    return "intersections+centers"


@dataclass(frozen=True, slots=True, eq=False)
class Origins:
    """The legal points of origin of a shape: a bool mask over a lattice of points.

    Attributes
    ----------
    mask : bool array
        Read-only, indexed ``[y, x]``. With ``lattice="intersections"`` it
        has shape ``(height + 1, width + 1)`` and ``mask[y, x]`` is the
        intersection ``(x, y)``. With ``"intersections+centers"`` it is the
        half-square lattice, shape ``(2 * height + 1, 2 * width + 1)``:
        ``mask[j, i]`` is the point ``(i / 2, j / 2)``, so ``mask[2 * y, 2 *
        x]`` is the intersection ``(x, y)`` and ``mask[2 * y + 1, 2 * x +
        1]`` the centre of square ``(x, y)``; the other entries, the middles
        of square edges, are not looked at and always False. With
        ``"caster"`` (cones and lines, placed from their caster by direction)
        it has shape ``(height, width)`` and marks the caster's squares.
    lattice : str
        ``"intersections"``, ``"intersections+centers"`` or ``"caster"``
        (``origin_lattice``); :attr:`lattices` names the kinds of point.
    caster : Space or None
        The caster's space; None for an effect with no caster
        (``legal_origins(..., caster=None)``).
    grid : Grid
    moved_to : float array or None
        Under rules that move an unseen point of origin to the near side of
        an obstruction (``Rules.hidden_origin_to_near_side``: SW5e), on a
        map: where each legal point's effect comes into being, shape
        ``(*mask.shape, 2)`` holding ``(x, y)``; the point itself where it
        stays, NaN where the point is illegal; read-only. None where no
        point moves (:meth:`origin_of` reads it for one point).
    refused : dict of str to int
        How many points of the lattice each rule left out, in the order the
        rules are checked (``"inside a wall"``, ``"out of range"``, ``"no
        line of effect"``, ``"no line of sight"``), rules that left none out
        omitted: with ``len(self)`` they account for every point looked at.
    elevation : float
        The height of the points, for range (``legal_origins(elevation=)``).

    Examples
    --------
    >>> import aoegrid as ag
    >>> o = ag.legal_origins(ag.Sphere(10), caster=ag.Token(0, 0), range=5, on=ag.Grid(4, 4))
    >>> o.lattice, o.mask.shape, len(o), o.points()[:3], (2, 2) in o
    ('intersections', (5, 5), 9, [(0, 0), (1, 0), (2, 0)], True)
    >>> e = ag.legal_origins(ag.Sphere(10), caster=ag.Token(0, 0), range=5, on=ag.Grid(4, 4), rules="sw5e")
    >>> e.lattices, e.mask.shape, len(e), e.points()[:4], (1.5, 1.5) in e, (1, 0.5) in e
    (('intersections', 'centers'), (9, 9), 13, [(0, 0), (1, 0), (2, 0), (0.5, 0.5)], True, False)
    >>> e.refused
    {'out of range': 28}
    """

    mask: NDArray[np.bool_]
    lattice: str
    caster: Space | None
    grid: Grid
    moved_to: FloatArray | None = None
    refused: dict[str, int] = field(default_factory=dict)
    elevation: float = 0.0

    @property
    def lattices(self) -> tuple[str, ...]:
        """The kinds of point looked at: ``("intersections",)``, ``("intersections", "centers")`` or ``("caster",)``."""
        if self.lattice == "caster":
            return ("caster",)
        return tuple(name for name, _, _ in _PARTS[self.lattice])

    def points(self) -> list[tuple[float, float]]:
        """The legal origins as ``(x, y)`` in grid units, sorted by y then x.

        Intersections are whole numbers (ints), square centres halves; for
        ``"caster"`` the one point is the centre of the caster's space.
        """
        if self.lattice == "caster":
            assert self.caster is not None  # cones and lines always have one
            return [self.caster.center]
        ys, xs = np.nonzero(self.mask)
        if _STEP[self.lattice] == 1.0:
            return list(zip(xs.tolist(), ys.tolist()))
        return [(x // 2, y // 2) if x % 2 == 0 else (x / 2, y / 2) for x, y in zip(xs.tolist(), ys.tolist())]

    def __len__(self) -> int:
        return 1 if self.lattice == "caster" else int(np.count_nonzero(self.mask))

    def __contains__(self, p: object) -> bool:
        if self.lattice == "caster":
            return (isinstance(p, Token) and p.space == self.caster) or p == self.caster
        return self._index(p) is not None

    def _index(self, p: object) -> tuple[int, int] | None:
        """``[y, x]`` of the legal point of origin ``p`` in :attr:`mask`; None unless ``p`` is one."""
        try:
            x, y = point(p, "origin")
        except (InvalidTypeError, InvalidValueError):
            return None
        step = _STEP[self.lattice]
        if not ((x / step).is_integer() and (y / step).is_integer()):
            return None
        i, j = int(x / step), int(y / step)
        inside = 0 <= j < self.mask.shape[0] and 0 <= i < self.mask.shape[1]
        return (j, i) if inside and self.mask[j, i] else None

    def origin_of(self, p: object) -> tuple[float, float] | Space | None:
        """Where an effect whose point of origin is chosen at ``p`` comes into being.

        ``p`` itself, except where :attr:`moved_to` moves it: under SW5e, a
        point behind an obstruction the caster cannot see comes into being on
        its near side (``aoegrid.effects.build.near_side``). The caster's space
        for ``"caster"``; None when ``p`` is not a legal origin.

        Examples
        --------
        >>> import aoegrid as ag
        >>> m = ag.BattleMap(ag.Grid(16, 10), walls=[ag.Wall((8, 0), (8, 10))])
        >>> o = ag.legal_origins(ag.Sphere(10), caster=ag.Token(5, 4), range=60, on=m, rules="sw5e")
        >>> x, y = o.origin_of((10.5, 6.5))          # behind the wall: on its near side
        >>> round(x, 4), round(y, 4), o.origin_of((6.5, 4.5)), o.origin_of((8, 3))   # seen; inside the wall
        (8.0, 5.5, (6.5, 4.5), None)
        """
        if self.lattice == "caster":
            return self.caster if p in self else None
        at = self._index(p)
        if at is None:
            return None
        step = _STEP[self.lattice]
        if self.moved_to is None:
            return (at[1] * step, at[0] * step)
        x, y = self.moved_to[at]
        return (float(x), float(y))


def _on(on: Any) -> tuple[Grid, BattleMap | None]:
    from aoegrid.board.battlemap import BattleMapCore as BattleMap
    from aoegrid.geometry.grid import Grid

    if isinstance(on, BattleMap):
        return on.grid, on
    if isinstance(on, Grid):
        return on, None
    raise InvalidTypeError(f"on must be an aoegrid.Grid or BattleMap, got {on!r} of type {type(on).__name__}")


def caster_space(caster: Any, grid: Grid) -> Space:
    """The caster's space (a point stands for its square), refused unless wholly on the grid."""
    try:
        space = _space(caster)
    except InvalidTypeError:
        raise InvalidTypeError(
            f"caster must be an aoegrid.Token, a Space or an (x, y) point in grid units; got {caster!r}"
        ) from None
    x0, y0, x1, y1 = space.bounds
    if x0 < 0 or y0 < 0 or x1 > grid.width or y1 > grid.height:
        raise OffGridError(
            f"caster (space {x0:g}..{x1:g} x {y0:g}..{y1:g}) is not wholly on the {grid.width} x {grid.height} grid"
        )
    return space


def _within(space: Space, px: FloatArray, py: FloatArray, rules: Rules, grid: Grid, limit: float,
            rise: float = 0.0) -> BoolArray:
    """Whether each point is within ``limit`` of the space: :func:`distance_from_space`, vectorised."""
    return np.asarray(space_distances(space, px, py, rules, grid, rise) <= limit + 1e-9)


def space_distances(space: Space, px: Any, py: Any, rules: Rules, grid: Grid, rise: Any = 0.0) -> FloatArray:
    """From the nearest edge of ``space`` to each point, in the grid's unit (:func:`distance_from_space`)."""
    return box_distances(*space.bounds, px, py, rules, grid, rise)


def box_distances(x0: Any, y0: Any, x1: Any, y1: Any, px: Any, py: Any, rules: Rules, grid: Grid,
                  rise: Any = 0.0) -> FloatArray:
    """From the nearest edge of each box ``[x0, x1] x [y0, y1]`` to each point, broadcast, in the grid's unit.

    ``rise`` (broadcast too): how far above or below the box's prism each
    point lies (:func:`caster_rise`), counted in three dimensions where it
    is not 0. The same numbers, bit for bit, as :func:`space_distances` for
    each box's space.
    """
    dx = np.maximum(0.0, np.maximum(x0 - np.asarray(px, float), np.asarray(px, float) - x1))
    dy = np.maximum(0.0, np.maximum(y0 - np.asarray(py, float), np.asarray(py, float) - y1))
    if np.any(rise):
        return np.asarray(measure3(dx, dy, np.asarray(rise, float) / grid.square, rules.diagonals) * grid.square)
    return np.asarray(measure(dx, dy, rules.diagonals) * grid.square)


def _inside_walls(px: FloatArray, py: FloatArray, segs: FloatArray) -> BoolArray:
    """Whether each point lies inside its wall (row of ``segs``), not at an end.

    The test :func:`aoegrid.board.visibility.visibility` refuses an origin by, to the bit.
    """
    ax, ay, bx, by = segs.T
    ex, ey = bx - ax, by - ay
    length = np.hypot(ex, ey)
    side = (ex * (py - ay) - ey * (px - ax)) / np.where(length > 0, length, 1.0)
    along = ((px - ax) * ex + (py - ay) * ey) / np.where(length > 0, length * length, 1.0)
    end = _ON / np.maximum(length, _ON)
    return np.asarray((np.abs(side) <= _ON) & (along > end) & (along < 1 - end))


def _lattice_on_walls(segs: FloatArray, shape: tuple[int, int], off: float) -> BoolArray:
    """Which lattice points (``off`` into their squares) lie inside a wall.

    Each wall is walked along its longer axis, one lattice line at a time:
    the only lattice point near it on that line is the nearest one, so the
    cost follows the walls' lengths, not the map's size.
    """
    out = np.zeros(shape, dtype=bool)
    if not len(segs):
        return out
    for x_major in (True, False):
        ex, ey = segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1]
        pick = np.abs(ex) >= np.abs(ey) if x_major else np.abs(ex) < np.abs(ey)
        s = segs[pick & ((ex != 0) | (ey != 0))]
        # u: the axis walked; v: the other.
        u0, v0, u1, v1 = (s.T if x_major else s[:, [1, 0, 3, 2]].T)
        n_u, n_v = (shape[1], shape[0]) if x_major else (shape[0], shape[1])
        lo = np.maximum(np.ceil(np.minimum(u0, u1) - off - 1e-9), 0).astype(np.int64)
        hi = np.minimum(np.floor(np.maximum(u0, u1) - off + 1e-9), n_u - 1).astype(np.int64)
        n = np.maximum(hi - lo + 1, 0)
        if not n.sum():
            continue
        row = np.repeat(np.arange(len(s)), n)
        ku = lo[row] + np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
        u = ku + off
        v = v0[row] + (u - u0[row]) * (v1[row] - v0[row]) / (u1[row] - u0[row])
        kv = np.rint(v - off).astype(np.int64)
        ok = (kv >= 0) & (kv < n_v)
        ku, kv, row = ku[ok], kv[ok], row[ok]
        px, py = (ku + off, kv + off) if x_major else (kv + off, ku + off)
        inside = _inside_walls(px.astype(float), py.astype(float), s[row])
        if x_major:
            out[kv[inside], ku[inside]] = True
        else:
            out[ku[inside], kv[inside]] = True
    return out


def _moved_into_walls(bmap: BattleMap, caster: Space, qx: FloatArray, qy: FloatArray) -> BoolArray:
    """Which points moved to the near side of a wall (:func:`near_side`) lie inside another wall.

    A point moves along the line from the centre of the caster's space and
    stops short of the first wall across that line, so only a wall along the
    line itself, through that centre, can hold it (the line ran along it to
    a wall it meets).
    """
    segs = bmap.wallset(Channel.EFFECT).segs
    (cx, cy), (ax, ay, bx, by) = caster.center, segs.T
    through = np.abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) <= 1e-6 * np.hypot(bx - ax, by - ay)
    return np.asarray(_inside_walls(qx[:, None], qy[:, None], segs[through]).any(axis=1))


def legal_origins(
    shape: Shape,
    *,
    caster: Any,
    range: Range | float | None = None,
    on: Grid | BattleMap,
    rules: Rules | str = "starfinder",
    need: Need | str | None = None,
    elevation: float = 0.0,
) -> Origins:
    """Every legal point of origin for ``shape`` cast by ``caster``.

    The points looked at form a lattice (``origin_lattice``):
    intersections under rules whose origins are intersections (Starfinder,
    Pathfinder 2e: "The point of origin of an effect is always a grid
    intersection") and for shapable areas; intersections and square centres
    under rules that let a point of origin lie anywhere (SW5e, Savage
    Worlds). A point is illegal when

    * it is out of range: farther than ``range`` from the caster's space,
      measured as :func:`in_range` measures ("the maximum distance at which
      you can designate the effect's point of origin"), to the point at
      height ``elevation``: in three dimensions from the caster's prism (a
      point within its height is measured in the plane, so on the ground a
      creature standing there measures as it always has);
    * the caster has no line to it from any point of its space (its corners,
      nudged inside, and its centre, as for an emanation): line of effect
      under Starfinder and Pathfinder ("you must have a clear line of effect
      to the point of origin of the effect") and SW5e ("a clear path", no
      total cover), line of sight under Savage Worlds ("must be able to see
      his target"); ``need`` overrides (``resolve_need``). Under SW5e
      ("If you choose a point behind an obstruction, the point of origin
      comes into being on the near side of that obstruction") a point the
      caster cannot see, behind a wall, is legal when in range: the line is
      needed to where its effect comes into being, on the wall's near side
      (``aoegrid.effects.build.near_side``; :attr:`Origins.moved_to` says where),
      and the range is measured to the point chosen;
    * it lies inside a wall that blocks effect (not at its end):
      :func:`aoegrid.area` refuses it (:class:`~aoegrid.OriginOnWallError`);
      so does an SW5e point whose near side does (the line from the caster
      runs along a wall into one it meets);
    * it is off the map: the lattice holds only points on it (its border
      counts).

    Cones and lines start at their caster and are placed by direction only:
    their only origin is the caster (``lattice="caster"``), in range and in
    view whatever the range; :func:`aoegrid.planning.tactics.best_placements` tries
    the directions.

    With ``caster=None`` the effect has no caster (a trap, a hazard, a
    GM's effect): every point of the lattice not inside a wall is legal,
    with no range and no line from anyone.

    Lines of effect and sight are judged in the plane, every wall taken as
    infinitely tall, unless some wall does not span every height from the
    caster's prism (``caster_prism``) to ``elevation``: then a point
    refused so, but reached in the plane among the walls that do span
    them (``full_walls``), is legal when a line in
    three dimensions reaches it from one of the caster's start points (the
    corners and centre above) at the bottom, middle or top of its prism,
    blocked by no shorter wall and no floor (``aoegrid.board.heights``): a
    caster sees over a low wall to a point above it. With a floor strictly
    between those heights every point is judged so (a floor cuts lines the
    plane lets through). Under SW5e, where an unseen point moves to the near
    side, lines are still judged in the plane, as is the test for a point
    inside a wall (a wall of any span).

    Parameters
    ----------
    shape : Sphere, Cylinder, Cone, Line, Cube or Shapable
    caster : Token, Space, (x, y) or None
        Who places the effect; a point stands for its square. Wholly on the
        map. None: no one (no ``range`` or ``need`` then; not for cones and
        lines, which start at their caster).
    range : Range or float, optional
        A :class:`Range` or a number of feet (the grid's unit); ``None``
        places no limit.
    on : Grid or BattleMap
        On a bare grid only range and the map's edge count.
    rules : Rules or str
    need : {"effect", "sight", "both"}, optional
        What the caster needs to the point; by default the preset's.
    elevation : float
        The height of the points of origin, in the grid's unit (as
        ``area(..., elevation=)``), for range and for lines over walls that
        do not span every height.

    Returns
    -------
    Origins

    Raises
    ------
    OffGridError
        When the caster is not wholly on the map.
    InvalidValueError
        For a range the shape cannot have (a 5e cone's range is self);
        ``caster=None`` with a range, a need, or a cone or line.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(6, 3), walls=[ag.Wall((3, 0), (3, 2))])
    >>> o = ag.legal_origins(ag.Sphere(5), caster=ag.Token(0, 0), range=20, on=m)
    >>> print(o.mask.astype(int))
    [[1 1 1 1 0 0 0]
     [1 1 1 0 0 0 0]
     [1 1 1 1 0 0 0]
     [1 1 1 1 1 0 0]]
    >>> print(ag.legal_origins(ag.Sphere(5), caster=None, on=m).mask.astype(int))   # no caster: all but the wall
    [[1 1 1 1 1 1 1]
     [1 1 1 0 1 1 1]
     [1 1 1 1 1 1 1]
     [1 1 1 1 1 1 1]]
    >>> print(ag.legal_origins(ag.Sphere(5), caster=ag.Token(0, 0), range=20, on=m, elevation=25).mask.astype(int))
    [[1 1 1 0 0 0 0]
     [1 1 1 0 0 0 0]
     [1 1 1 0 0 0 0]
     [0 0 0 0 0 0 0]]

    (25 ft up, 20 ft above the caster's head: one square across at most.)
    """
    hexes = answer(on, "legal_origins")
    if hexes is not None:
        if elevation:
            raise InvalidValueError("on a hex grid, legal_origins' elevation= is not measured yet; leave it 0")
        return hexes(shape, caster, range, on, rules, need=need)
    rules = resolve_rules(rules)
    grid, bmap = _on(on)
    lattice = origin_lattice(shape, rules)
    space: Space | None = None
    prism: tuple[float, float] | None = None
    rng, moves, rise = None, False, 0.0
    z = real(elevation, "elevation")
    if caster is None:
        _check_no_caster(shape, lattice, range, need)
    else:
        space = caster_space(caster, grid)
        prism = caster_prism(caster, grid.square)
        rng = None if range is None else as_range(range)
        if rng is not None:
            check_shape_range(shape, rng, rules)
            rise = caster_rise(caster, z, grid.square)
        moves = moves_unseen(shape, rules)
    if bmap is None:
        return _search_origins(grid, None, lattice, moves, space, rng, rules, need, rise, z)
    # Kept by the map: a refused click asks for the nearest legal origin, the same search each time.
    key = ("legal_origins", lattice, moves, space, rng, rules, need, rise, z, prism)
    return bmap.kept(key, lambda: _search_origins(grid, bmap, lattice, moves, space, rng, rules, need, rise, z,
                                                  prism))


def _check_no_caster(shape: Shape, lattice: str, rng: Any, need: Any) -> None:
    """Refuse what an effect without a caster cannot have: a range, a need, a start at the caster."""
    if lattice == "caster":
        raise InvalidValueError(
            f"a {type(shape).__name__.lower()} starts at its caster: caster=None (an effect placed anywhere, "
            "with no one casting it) is for shapes placed at a point"
        )
    for name, value in (("range", rng), ("need", need)):
        if value is not None:
            raise InvalidValueError(
                f"{name}= is what a caster needs to a point of origin: with caster=None (an effect placed "
                f"anywhere, with no one casting it) give none; got {name}={value!r}"
            )


def _search_origins(grid: Grid, bmap: BattleMap | None, lattice: str, moves: bool, space: Space | None,
                    rng: Range | None, rules: Rules, need: Need | str | None, rise: float, elevation: float,
                    prism: tuple[float, float] | None = None) -> Origins:
    """The legal origins of :func:`legal_origins`, looked for on ``lattice`` (``space`` None: no caster).

    ``rise``: how far above or below the caster the points lie (:func:`caster_rise`); ``prism``: the
    heights the caster fills (``caster_prism``), for lines in three dimensions (:func:`aoegrid.effects.build.seen_in_3d`).
    """
    moved_to = None
    refused: dict[str, int] = {}

    def left_out(reason: str, n: int) -> None:
        if n:
            refused[reason] = refused.get(reason, 0) + int(n)

    if lattice == "caster":
        assert space is not None
        mask = np.zeros(grid.shape, dtype=bool)
        mask[space.y : space.y + space.height, space.x : space.x + space.width] = True
    else:
        step = _STEP[lattice]
        shape_ = (round(grid.height / step) + 1, round(grid.width / step) + 1)
        py, px = np.indices(shape_, dtype=np.float64) * step
        mask = np.zeros(shape_, dtype=bool)
        for _, off, part in _PARTS[lattice]:
            mask[part] = True
            if bmap is not None:
                # A point inside a wall standing at its height (every wall, with default spans).
                level = bmap.full_walls(elevation, elevation)
                on_walls = _lattice_on_walls(level.wallset(Channel.EFFECT).segs, mask[part].shape, off)
                left_out("inside a wall", on_walls.sum())
                mask[part] &= ~on_walls
        if rng is not None and math.isfinite(rng.feet):
            assert space is not None  # no caster, no range
            within = _within(space, px, py, rules, grid, rng.feet, rise)
            left_out("out of range", (mask & ~within).sum())
            mask &= within
        if bmap is not None and space is not None:  # no caster: no line from anyone
            j, i = np.nonzero(mask)
            qx, qy = px[j, i], py[j, i]
            ok = np.ones(len(j), dtype=bool)
            if moves:
                qx, qy = near_side(bmap, space, qx, qy, prism, elevation)
                ok &= ~_moved_into_walls(bmap.full_walls(elevation, elevation), space, qx, qy)
                left_out("inside a wall", (~ok).sum())
            for channel in resolve_need(need, rules):
                # Only points still legal are looked at: each costs a lookup per start.
                if prism is None:
                    seen = seen_from_space(bmap, space, channel, qx[ok], qy[ok])
                else:
                    seen = seen_in_3d(bmap, space, channel, qx[ok], qy[ok], prism, elevation)
                left_out(f"no line of {channel.value}", (~seen).sum())
                ok[ok] = seen
            mask[j[~ok], i[~ok]] = False
            if moves:
                moved_to = np.full((*shape_, 2), np.nan)
                moved_to[j[ok], i[ok]] = np.stack([qx[ok], qy[ok]], axis=1)
                moved_to.flags.writeable = False
    mask.flags.writeable = False
    return Origins(mask, lattice, space, grid, moved_to, refused, elevation)


@dataclass(frozen=True, slots=True)
class OriginCheck:
    """Whether a point of origin is legal, which rule it breaks, and the nearest legal one.

    ``reason`` is None when legal, else one of ``"off the map"``, ``"inside
    a wall"``, ``"out of range"``, ``"no line of effect"``, ``"no line of
    sight"``, ``"not from the caster"`` (a cone or line placed elsewhere);
    ``message`` says it in a sentence naming the values ("" when legal);
    ``nearest`` is the legal origin of :func:`legal_origins` nearest to the
    one asked for (straight-line distance; ties: top to bottom, left to
    right), the caster for cones and lines, None when there is none.
    ``origin`` is where a legal placement's effect comes into being: ``at``
    itself, or under SW5e, for a point the caster cannot see behind an
    obstruction, the point on its near side
    (``aoegrid.effects.build.near_side``); None when illegal.
    """

    legal: bool
    reason: str | None
    message: str
    nearest: tuple[float, float] | Token | Space | None
    origin: tuple[float, float] | Token | Space | None = None


def check_origin(
    shape: Shape,
    at: Any,
    *,
    caster: Any,
    range: Range | float | None = None,
    on: Grid | BattleMap,
    rules: Rules | str = "starfinder",
    need: Need | str | None = None,
    elevation: float = 0.0,
) -> OriginCheck:
    """Whether ``at`` is a legal point of origin for ``shape`` cast by ``caster``.

    The rules of :func:`legal_origins`, for one point (anywhere, not only on
    the lattice; a Token or Space ``at`` is a creature the area is centred
    on, measured as :func:`in_range` and :func:`can_target` measure it).
    Checked in this order: off the map, inside a wall, out of range (to the
    point chosen), no line of effect or sight (to where the effect comes
    into being: under SW5e a point the caster cannot see, behind a wall,
    moves to the wall's near side, ``origin``). For cones and lines ``at``
    must be the caster. ``range=None`` places no limit; the other rules
    still hold. ``elevation`` is the point's height, for range, as for
    :func:`legal_origins` (a creature ``at`` is measured in the plane), and
    for the line to it, judged as :func:`legal_origins` judges it (in
    three dimensions over walls that do not span every height; a creature
    ``at`` in the plane).

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(20, 6), walls=[ag.Wall((5, 0), (5, 4))])
    >>> c = ag.check_origin(ag.Sphere(10), (14, 1), caster=ag.Token(1, 1), range=30, on=m)
    >>> c.legal, c.reason, c.nearest
    (False, 'out of range', (6, 5))
    >>> c.message
    'point of origin (14, 1) is 60 ft from the caster, beyond its range of 30 ft; the nearest legal origin is (6, 5)'
    >>> ag.check_origin(ag.Sphere(10), (5, 2), caster=ag.Token(1, 1), range=30, on=m).reason
    'inside a wall'
    >>> behind = ag.check_origin(ag.Sphere(10), (8.5, 1.5), caster=ag.Token(1, 1), range=60, on=m, rules="sw5e")
    >>> behind.legal, [round(v, 4) for v in behind.origin]      # on the wall's near side
    (True, [5.0, 1.5])
    """
    hexes = answer(on, "check_origin")
    if hexes is not None:
        if elevation:
            raise InvalidValueError("on a hex grid, check_origin's elevation= is not measured yet; leave it 0")
        return hexes(shape, at, caster=caster, range=range, on=on, rules=rules, need=need)
    rules = resolve_rules(rules)
    grid, bmap = _on(on)
    space = caster_space(caster, grid)
    rng = None if range is None else as_range(range)
    if rng is not None:
        check_shape_range(shape, rng, rules)

    def nearest(p: tuple[float, float]) -> tuple[float, float] | None:
        options = legal_origins(shape, caster=caster, range=rng, on=on, rules=rules, need=need,
                                elevation=elevation).points()
        if not options:
            return None
        return min(options, key=lambda q: (math.hypot(q[0] - p[0], q[1] - p[1]), q[1], q[0]))

    def refuse(reason: str, what: str, p: tuple[float, float]) -> OriginCheck:
        near = nearest(p)
        tail = "; no point is legal" if near is None else f"; the nearest legal origin is {_shown_point(near)}"
        return OriginCheck(False, reason, what + tail, near)

    if origin_lattice(shape, rules) == "caster":
        mine = isinstance(at, (Token, Space)) and (at.space if isinstance(at, Token) else at) == space
        if mine:
            return OriginCheck(True, None, "", None, at)
        return OriginCheck(
            False, "not from the caster",
            f"a {type(shape).__name__.lower()} starts at its caster and is aimed by direction: pass at=the "
            f"caster, not {at!r}",
            caster if isinstance(caster, (Token, Space)) else space,
        )
    creature = isinstance(at, (Token, Space))
    if creature:
        check = in_range(space, at, rng if rng is not None else Range("unlimited"), rules, grid)
        p = check.nearest
        name = f"creature space {_space(at)}"
    else:
        p = point(at, "at")
        name = f"point of origin {_shown_point(p)}"
        if not grid.contains_point(p):
            return refuse("off the map", f"{name} is off the {grid.width} x {grid.height} map", (
                min(max(p[0], 0.0), grid.width), min(max(p[1], 0.0), grid.height)))
        if bmap is not None:
            level = bmap.full_walls(elevation, elevation)  # the walls standing at the point's height
            segs = level.wallset(Channel.EFFECT).near((p[0] - 1e-6, p[1] - 1e-6, p[0] + 1e-6, p[1] + 1e-6))[0]
            if _inside_walls(np.array(p[0]), np.array(p[1]), segs).any():
                return refuse("inside a wall", f"{name} lies inside a wall", p)
        check = in_range(caster, p, rng if rng is not None else Range("unlimited"), rules, grid, elevation=elevation)
    if not check.in_range:
        return refuse(
            "out of range", f"{name} is {check.distance:g} {grid.units} from the caster, beyond its range of "
            f"{check.limit:g} {grid.units}", p)
    origin = at if creature else p
    if bmap is not None:
        prism = caster_prism(caster, grid.square)
        if not creature and moves_unseen(shape, rules):
            qx, qy = near_side(bmap, space, np.array([p[0]]), np.array([p[1]]), prism, elevation)
            origin = (float(qx[0]), float(qy[0]))
            if _moved_into_walls(bmap.full_walls(elevation, elevation), space, qx, qy)[0]:
                return refuse("inside a wall", f"{name} comes into being at {_shown_point(origin)}, on the near side "
                              "of a wall and inside another", p)
        for channel in resolve_need(need, rules):
            if creature:
                seen = space_reaches(space, _space(at), bmap, channel)
            else:
                qx, qy = np.array([origin[0]]), np.array([origin[1]])
                seen = bool(seen_in_3d(bmap, space, channel, qx, qy, prism, elevation)[0])
            if not seen:
                return refuse(f"no line of {channel.value}", f"the caster has no line of {channel.value} to {name}", p)
    return OriginCheck(True, None, "", None, origin)


def _shown_point(p: tuple[float, float]) -> str:
    return f"({p[0]:g}, {p[1]:g})"
