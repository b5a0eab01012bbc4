"""Per-system rules: how distance is counted and which squares an area takes.

A :class:`Rules` is a frozen value object; the presets are named instances and
``replace`` makes variants (``STARFINDER.replace(diagonals="euclidean")``).

=================  ============  =========  ===============  ==========  ======
preset             diagonals     inclusion  cone             line width  units
=================  ============  =========  ===============  ==========  ======
``starfinder``     alternating   far-edge   quarter-circle   0           ft
``pf2e``           alternating   far-edge   quarter-circle   5           ft
``sw5e``           equidistant   half       triangle         5           ft
``savage-worlds``  equidistant   touch      teardrop         1           in
=================  ============  =========  ===============  ==========  ======

Movement (:func:`aoegrid.reachable`, :func:`aoegrid.path_distance`):

=================  =============================  ==========  ==============================
preset             difficult / greater difficult  corners     creatures' spaces
=================  =============================  ==========  ==============================
``starfinder``     2 / 4 squares, 3 / 6 diagonal  blocked     allies' passable
``pf2e``           +5 / +10 ft a square           allowed     allies' passable
``sw5e``           cost doubled, not cumulative   allowed     allies' passable, difficult
``savage-worlds``  cost doubled, not cumulative   allowed     allies' passable
=================  =============================  ==========  ==============================

Aliases: ``pathfinder`` and ``pf1`` are ``starfinder``; ``5e`` is ``sw5e``;
``sw`` and ``swade`` are ``savage-worlds``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import non_negative
from aoegrid.geometry.cover import CoverRule
from aoegrid.geometry.options import (
    ConeKind,
    CornerRule,
    Diagonals,
    Inclusion,
    LineSquares,
    OriginPoint,
    SpaceCost,
    SpaceOrigin,
    TerrainCost,
    Through,
    parse_option,
)
from aoegrid.geometry.shapes import Line

SHAPE_NAMES = frozenset({"sphere", "cylinder", "cone", "line", "cube", "shapable"})


@dataclass(frozen=True, slots=True)
class Rules:
    """How one game system puts areas on the grid.

    Parameters
    ----------
    name : str
        A label, shown in reprs and pictures.
    diagonals : str
        How diagonal steps count: ``"alternating"`` (5/10/5),
        ``"alternating-2"`` (10/5/10), ``"equidistant"``, ``"euclidean"``,
        ``"manhattan"``, ``"approximate"``. Used for far-edge counting, range
        and the path length of spreads. Under the other inclusions a shape's
        outline is its true geometry (a sphere is a circle). Heights are
        counted by the same rule in three dimensions
        (``aoegrid.geometry.distance.measure3``): the alternating rules as Foundry
        VTT counts them, a move along all three axes 1.5 diagonals;
        ``"equidistant"`` every diagonal one square.
    inclusion : str
        ``"far-edge"``, ``"center"``, ``"half"`` or ``"touch"``.
    cone : str
        The rules' cone: ``"quarter-circle"``, ``"triangle"`` or ``"teardrop"``.
    line_width : float
        Width of a line whose shape gives none, in the grid's unit.
    units : str or None
        The unit the rules' sizes are written in (``"ft"``, ``"in"``); an area
        on a grid of another unit is refused rather than silently mis-scaled.
        ``None`` accepts any grid.
    origin : str
        ``"intersection"``: points of origin must be grid intersections;
        ``"any"``: anywhere.
    from_space : str
        How an area centred on a creature is measured: ``"edges"`` of its
        space or its ``"center"``.
    origin_included : iterable of str
        Shapes whose area includes the creature it originates from. Under 5e
        a cone, cube or line leaves its caster out unless the caster chooses.
    cover : str
        How cover is graded: ``"any-corner"``, ``"corner-count"`` or
        ``"total-only"`` (see :class:`aoegrid.geometry.cover.CoverRule`).
    cylinder_ignores_walls : bool
        Starfinder: "A cylinder-shaped effect ignores any obstructions".
    cylinder_drops : bool
        Starfinder: the origin is "the center of a horizontal circle at a
        height designated in the effect's description, and the effect drops
        down from the circle". Otherwise (5e: "The circle must either be on
        the ground or at the height of the power effect") the cylinder rises
        from a circle at the origin's elevation.
    hidden_origin_to_near_side : bool
        5e: a point of origin placed where the caster cannot see it, behind
        an obstruction, comes into being on the near side of it.
    line_stops_at_wall : bool
        Starfinder and Pathfinder: a line stops where its path first strikes
        a wall ("a line-shaped effect affects all creatures in squares that
        the line passes through" up to what blocks line of effect). Otherwise
        (5e, Savage Worlds) a line is cut like every other area: a square is
        left out only where no straight line from the point of origin
        reaches it.
    line_squares : str
        ``"path"`` (default): a line takes squares by the rules' inclusion
        (Starfinder and Pathfinder 2e: the squares its path passes through).
        ``"center-band"``: the squares whose centre lies in its ``width``-wide
        rectangle, as Foundry VTT's pf2e and dnd5e systems highlight a line
        (see ``aoegrid.geometry.options.LineSquares`` and :meth:`for_shape`).
    terrain_cost : str
        What a step into difficult terrain costs: ``"squares"`` (Starfinder:
        2 squares, 3 diagonally; greater difficult 4 and 6), ``"plus"``
        (Pathfinder 2e: +5 ft, greater +10 ft, not increased for diagonals),
        ``"double"`` (5e, Savage Worlds: doubled, not cumulative); see
        :class:`aoegrid.geometry.options.TerrainCost`.
    corners : str
        ``"blocked"``: no diagonal step past a wall's corner (Starfinder,
        Pathfinder 1e); ``"allowed"``: the rules say nothing against it
        (Pathfinder 2e, 5e, Savage Worlds), though walls meeting at a corner
        leave no gap (:class:`aoegrid.geometry.options.CornerRule`).
    space_cost : str
        A creature larger than a square pays for the ``"costliest"`` square
        of the space it moves into, or of the squares it newly ``"entered"``
        (:class:`aoegrid.geometry.options.SpaceCost`).
    through : str
        Whose spaces a creature moves through: ``"allies"`` (every preset:
        creatures not hostile to it), ``"all"`` or ``"none"``
        (:class:`aoegrid.geometry.options.Through`). No creature ends its move in
        another's space.
    creatures_difficult : bool
        5e: "another creature's space is difficult terrain for you".
    hex_origin : str
        Where a point of origin may lie on a hex grid (``aoegrid.hexarea``):
        ``"intersection"``, a hex corner (the 5e DMG's hex rule, p. 251, and
        the Starfinder and Pathfinder convention), or ``"any"`` (Savage
        Worlds' templates).

    Examples
    --------
    >>> r = Rules.preset("pathfinder").replace(diagonals="euclidean")
    >>> r.name, r.diagonals.value, r.inclusion.value
    ('starfinder', 'euclidean', 'far-edge')
    """

    name: str = "custom"
    diagonals: Diagonals = Diagonals.ALTERNATING
    inclusion: Inclusion = Inclusion.FAR_EDGE
    cone: ConeKind = ConeKind.QUARTER_CIRCLE
    line_width: float = 0.0
    units: str | None = None
    origin: OriginPoint = OriginPoint.ANY
    from_space: SpaceOrigin = SpaceOrigin.EDGES
    origin_included: frozenset[str] = SHAPE_NAMES
    cover: CoverRule = CoverRule.ANY_CORNER
    cylinder_ignores_walls: bool = False
    cylinder_drops: bool = False
    hidden_origin_to_near_side: bool = False
    line_stops_at_wall: bool = True
    line_squares: LineSquares = LineSquares.PATH
    terrain_cost: TerrainCost = TerrainCost.SQUARES
    corners: CornerRule = CornerRule.BLOCKED
    space_cost: SpaceCost = SpaceCost.COSTLIEST
    through: Through = Through.ALLIES
    creatures_difficult: bool = False
    hex_origin: OriginPoint = OriginPoint.INTERSECTION

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if not isinstance(self.name, str):
            raise InvalidTypeError(f"Rules name must be a string, got {self.name!r}")
        set_(self, "diagonals", parse_option(Diagonals, self.diagonals, "diagonals"))
        set_(self, "inclusion", parse_option(Inclusion, self.inclusion, "inclusion"))
        set_(self, "cone", parse_option(ConeKind, self.cone, "cone"))
        set_(self, "line_width", non_negative(self.line_width, "Rules line_width"))
        if self.units is not None and not isinstance(self.units, str):
            raise InvalidTypeError(f"Rules units must be a string or None, got {self.units!r}")
        set_(self, "origin", parse_option(OriginPoint, self.origin, "origin"))
        set_(self, "from_space", parse_option(SpaceOrigin, self.from_space, "from_space"))
        included = self.origin_included
        if isinstance(included, str) or not isinstance(included, Iterable):
            raise InvalidTypeError(
                f"Rules origin_included must be a collection of shape names, got {included!r}"
            )
        names = frozenset(included)
        unknown = sorted(names - SHAPE_NAMES)
        if unknown:
            raise InvalidValueError(
                f"unknown shape name(s) {unknown} in origin_included; valid names are "
                f"{sorted(SHAPE_NAMES)}"
            )
        set_(self, "origin_included", names)
        set_(self, "cover", parse_option(CoverRule, self.cover, "cover"))
        set_(self, "line_squares", parse_option(LineSquares, self.line_squares, "line_squares"))
        set_(self, "terrain_cost", parse_option(TerrainCost, self.terrain_cost, "terrain_cost"))
        set_(self, "corners", parse_option(CornerRule, self.corners, "corners"))
        set_(self, "space_cost", parse_option(SpaceCost, self.space_cost, "space_cost"))
        set_(self, "through", parse_option(Through, self.through, "through"))
        set_(self, "hex_origin", parse_option(OriginPoint, self.hex_origin, "hex_origin"))
        for flag in ("cylinder_ignores_walls", "cylinder_drops", "hidden_origin_to_near_side", "line_stops_at_wall",
                     "creatures_difficult"):
            if not isinstance(getattr(self, flag), bool):
                raise InvalidTypeError(f"Rules {flag} must be True or False, got {getattr(self, flag)!r}")

    def replace(self, **changes: Any) -> Rules:
        """A copy with ``changes`` applied, validated like new rules."""
        return dataclasses.replace(self, **changes)

    def for_shape(self, shape: object) -> Rules:
        """The rules ``shape`` is counted by: these, or for a line under
        ``line_squares="center-band"`` the same with ``inclusion="center"``.

        Examples
        --------
        >>> from aoegrid.geometry.shapes import Line, Sphere
        >>> band = Rules.preset("pf2e").replace(line_squares="center-band")
        >>> band.for_shape(Line(30, "E")).inclusion.value, band.for_shape(Sphere(20)).inclusion.value
        ('center', 'far-edge')
        """
        if isinstance(shape, Line) and self.line_squares is LineSquares.CENTER_BAND:
            return self.replace(inclusion=Inclusion.CENTER)
        return self

    @staticmethod
    def preset(name: str) -> Rules:
        """The preset called ``name`` (or one of its aliases).

        Raises
        ------
        InvalidValueError
            For an unknown name; the message lists the presets and aliases.
        """
        return resolve_rules(name)

    def measure(self, p: Any, q: Any, square: float = 1.0) -> float:
        """Distance between two points under these rules' diagonal rule."""
        from aoegrid.geometry.distance import distance

        return distance(p, q, self.diagonals, square=square)


STARFINDER = Rules(
    name="starfinder",
    diagonals=Diagonals.ALTERNATING,
    inclusion=Inclusion.FAR_EDGE,
    cone=ConeKind.QUARTER_CIRCLE,
    line_width=0.0,
    units="ft",
    origin=OriginPoint.INTERSECTION,
    from_space=SpaceOrigin.CENTER,
    cover=CoverRule.ANY_CORNER,
    cylinder_ignores_walls=True,
    cylinder_drops=True,
    terrain_cost=TerrainCost.SQUARES,
    corners=CornerRule.BLOCKED,
    space_cost=SpaceCost.COSTLIEST,
    through=Through.ALLIES,
)
PF2E = STARFINDER.replace(name="pf2e", line_width=5.0, from_space=SpaceOrigin.EDGES,
                          terrain_cost=TerrainCost.PLUS, corners=CornerRule.ALLOWED)
SW5E = Rules(
    name="sw5e",
    diagonals=Diagonals.EQUIDISTANT,
    inclusion=Inclusion.HALF,
    cone=ConeKind.TRIANGLE,
    line_width=5.0,
    units="ft",
    origin=OriginPoint.ANY,
    from_space=SpaceOrigin.EDGES,
    origin_included=frozenset({"sphere", "cylinder", "shapable"}),
    cover=CoverRule.CORNER_COUNT,
    hidden_origin_to_near_side=True,
    line_stops_at_wall=False,
    terrain_cost=TerrainCost.DOUBLE,
    corners=CornerRule.ALLOWED,
    creatures_difficult=True,
)
SAVAGE_WORLDS = Rules(
    name="savage-worlds",
    diagonals=Diagonals.EQUIDISTANT,
    inclusion=Inclusion.TOUCH,
    cone=ConeKind.TEARDROP,
    line_width=1.0,
    units="in",
    origin=OriginPoint.ANY,
    from_space=SpaceOrigin.CENTER,
    cover=CoverRule.TOTAL_ONLY,
    line_stops_at_wall=False,
    terrain_cost=TerrainCost.DOUBLE,
    corners=CornerRule.ALLOWED,
    hex_origin=OriginPoint.ANY,
)

PRESETS: dict[str, Rules] = {
    "starfinder": STARFINDER,
    "pf2e": PF2E,
    "sw5e": SW5E,
    "savage-worlds": SAVAGE_WORLDS,
}
ALIASES: dict[str, str] = {
    "pathfinder": "starfinder",
    "pf1": "starfinder",
    "5e": "sw5e",
    "sw": "savage-worlds",
    "swade": "savage-worlds",
}


def resolve_rules(rules: Rules | str) -> Rules:
    """``rules`` itself, or the preset it names.

    Examples
    --------
    >>> resolve_rules("5e").name
    'sw5e'
    """
    if isinstance(rules, Rules):
        return rules
    if not isinstance(rules, str):
        raise InvalidTypeError(
            f"rules must be a preset name or an aoegrid.Rules, got {rules!r} of type "
            f"{type(rules).__name__}"
        )
    key = rules.strip().lower()
    key = ALIASES.get(key, key)
    if key not in PRESETS:
        names = ", ".join(repr(n) for n in [*PRESETS, *ALIASES])
        raise InvalidValueError(f"unknown rules {rules!r}; valid presets are {names}")
    return PRESETS[key]
