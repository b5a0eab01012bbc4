"""String options, checked against enums whose errors list the choices."""

from __future__ import annotations

from enum import Enum
from typing import TypeVar

from aoegrid.errors import InvalidTypeError, InvalidValueError

E = TypeVar("E", bound=Enum)


class Diagonals(str, Enum):
    """How a diagonal step is counted (``Rules.diagonals``).

    ``alternating``: 5/10/5, ``max + floor(min / 2)`` squares.
    ``alternating-2``: 10/5/10, ``max + ceil(min / 2)`` squares.
    ``equidistant``: every diagonal is one square, ``max``.
    ``euclidean``: straight-line length, ``hypot``.
    ``manhattan``: no diagonal steps, ``|dx| + |dy|``.
    ``approximate``: 1.5 squares per diagonal, ``max + min / 2``.
    """

    ALTERNATING = "alternating"
    ALTERNATING_2 = "alternating-2"
    EQUIDISTANT = "equidistant"
    EUCLIDEAN = "euclidean"
    MANHATTAN = "manhattan"
    APPROXIMATE = "approximate"


class Inclusion(str, Enum):
    """Which squares an area covers (``Rules.inclusion``).

    ``far-edge``: the square's corner farthest from the origin is within the
    area, distance counted with the diagonal rule (Starfinder, Pathfinder).
    ``center``: the square's centre lies in the exact shape.
    ``half``: the exact shape covers at least half the square.
    ``touch``: the exact shape covers some of the square (area > 0).
    """

    FAR_EDGE = "far-edge"
    CENTER = "center"
    HALF = "half"
    TOUCH = "touch"


class LineSquares(str, Enum):
    """Which squares a line takes (``Rules.line_squares``).

    ``path``: the rules' own inclusion (:class:`Inclusion`); under far-edge
    counting (Starfinder, Pathfinder 2e) the squares the line's path passes
    through, measured like movement, as the rulebooks' diagrams draw them.
    ``center-band``: the squares whose centre lies in the line's
    ``width``-wide rectangle centred on its path, its length measured
    straight (on the outline counts), as Foundry VTT highlights a ray
    template (the pf2e and dnd5e systems leave lines to it). Along a grid
    line from an intersection a 5-ft band takes both rows.
    """

    PATH = "path"
    CENTER_BAND = "center-band"


class Mode(str, Enum):
    """How an area meets obstacles: ``burst``, ``emanation`` or ``spread``."""

    BURST = "burst"
    EMANATION = "emanation"
    SPREAD = "spread"


class ConeKind(str, Enum):
    """The outline of a cone (``Rules.cone``).

    ``quarter-circle``: a 90-degree sector (Starfinder, Pathfinder).
    ``triangle``: flat-ended, its width at any point equal to its distance from
    the origin (5e).
    ``teardrop``: the Savage Worlds Cone Template, a cone whose wide end is a
    circle of a sixth of its length in radius (3" across on the 9" template).
    """

    QUARTER_CIRCLE = "quarter-circle"
    TRIANGLE = "triangle"
    TEARDROP = "teardrop"


class OriginPoint(str, Enum):
    """Where a point of origin may lie (``Rules.origin``).

    ``intersection``: only on grid intersections (Starfinder: "The point of
    origin of an effect is always a grid intersection").
    ``any``: anywhere.
    """

    INTERSECTION = "intersection"
    ANY = "any"


class SpaceOrigin(str, Enum):
    """How an area centred on a creature is measured (``Rules.from_space``).

    ``edges``: from the edges of the creature's space, for any size (Pathfinder
    2e emanations, 5e auras).
    ``center``: from the centre of the space; where the rules need an
    intersection and the centre is a square centre (odd sizes), from the
    top-left corner of the central square.
    """

    EDGES = "edges"
    CENTER = "center"


class Terrain(str, Enum):
    """What a square of ground is for movement (``BattleMap(..., terrain=)``, ``BattleMap.terrain``).

    ``open``: plain ground. ``difficult``: rubble, undergrowth, shallow water.
    ``greater-difficult``: Pathfinder 2e's greater difficult terrain
    (Starfinder: movement "doubled twice"). ``impassable``: no creature
    moves into it (a chasm, a pillar), though effects and sight pass.
    :attr:`code` is the number a map's terrain array holds: 0, 1, 2, 3 in
    this order, so a higher code is never cheaper to enter.
    """

    OPEN = "open"
    DIFFICULT = "difficult"
    GREATER_DIFFICULT = "greater-difficult"
    IMPASSABLE = "impassable"

    @property
    def code(self) -> int:
        """0 open, 1 difficult, 2 greater difficult, 3 impassable.

        Examples
        --------
        >>> Terrain("greater-difficult").code
        2
        """
        return list(Terrain).index(self)


class TerrainCost(str, Enum):
    """What a step into difficult terrain costs (``Rules.terrain_cost``), in squares.

    ``squares`` (Starfinder, Pathfinder 1e; Starfinder Core Rulebook p. 257):
    "each square of movement through difficult terrain counts as 2 squares,
    and each diagonal move through such terrain counts as 3 squares"; "If a
    movement cost is doubled twice, then each square counts as 4 squares
    (or as 6 squares if moving diagonally)": greater difficult terrain. A
    diagonal into either still counts toward the 5/10/5 alternation of the
    whole path, as any diagonal does (it turns the next diagonal's 5 ft
    into 10, or 10 into 5). Under a diagonal
    rule other than the alternating ones, a diagonal into difficult terrain
    costs twice (four times) the rule's average diagonal (1 square
    equidistant, sqrt 2 euclidean, 1.5 approximate).
    ``plus`` (Pathfinder 2e): "Moving into a square of difficult terrain ...
    costs an extra 5 feet of movement. Moving into a square of greater
    difficult terrain instead costs 10 additional feet of movement. This
    additional cost is not increased when moving diagonally": the step's
    own cost (5/10/5 counted over the whole move) plus 1 (plus 2) squares.
    ``double`` (5e and SW5e: "Every foot of movement in difficult terrain costs
    1 extra foot"; Savage Worlds: each inch of difficult ground counts as 2):
    the step's cost doubled. Not cumulative ("This rule is true even if
    multiple things in a space count as difficult terrain"): greater
    difficult terrain counts as difficult.
    """

    SQUARES = "squares"
    PLUS = "plus"
    DOUBLE = "double"


class CornerRule(str, Enum):
    """Whether a diagonal step may pass a wall's corner (``Rules.corners``).

    ``blocked`` (Starfinder, Pathfinder 1e: "you can't move diagonally past a
    corner"): a diagonal step touching a wall blocking movement, even its
    very end, is barred, and so is one passing the corner of an impassable
    square.
    ``allowed`` (Pathfinder 2e, 5e, Savage Worlds: their rules have no such
    restriction): a step is barred only where it crosses a wall, starts or
    ends on one, runs along one, or passes a point where walls meet on both
    of its sides (walls meeting at a corner leave no gap); a diagonal step is
    barred between two impassable squares that meet at a corner, not beside
    one alone.
    """

    BLOCKED = "blocked"
    ALLOWED = "allowed"


class SpaceCost(str, Enum):
    """What a step of a creature larger than a square costs (``Rules.space_cost``).

    ``costliest`` (every preset; Starfinder: "If you occupy multiple squares
    with different kinds of terrain, you can move only as fast as the most
    difficult terrain will allow"): the costliest square of the space it
    moves into, so a Large creature with one square in difficult terrain
    moves as through difficult terrain. ``entered``: the costliest of the squares the step newly
    enters (its leading edge); squares it already stood on cost nothing
    more. For a one-square creature both are the square entered.
    """

    COSTLIEST = "costliest"
    ENTERED = "entered"


class Through(str, Enum):
    """Whose spaces a creature may move through (``Rules.through``; ``reachable(..., through=)``).

    ``allies``: every creature not hostile to the mover (Starfinder: "You can
    move through a square occupied by a friendly character"; Pathfinder 2e:
    "the space of a willing creature"; 5e: "a nonhostile creature's space";
    Savage Worlds: allies), never a hostile one's. ``all``: every creature's.
    ``none``: no creature's. Whatever this says, a creature never ends its
    move in another's space.
    """

    ALLIES = "allies"
    ALL = "all"
    NONE = "none"


class Side(str, Enum):
    """Which side of a line along a grid line (or a line band) takes squares.

    Seen looking along the line's direction: ``right`` is clockwise on screen
    (south of an eastward line), ``left`` counter-clockwise.
    """

    RIGHT = "right"
    LEFT = "left"


class Anchor(str, Enum):
    """Where a cube's point of origin lies on its near face.

    ``center``: the middle of the face. ``left``/``right``: a corner of the
    face, seen looking along the cube's direction, so the cube can sit on the
    grid.
    """

    CENTER = "center"
    LEFT = "left"
    RIGHT = "right"


def parse_option(enum: type[E], value: object, field: str) -> E:
    """Return the member of ``enum`` named by ``value``.

    Raises
    ------
    InvalidValueError
        If ``value`` names no member; the message lists the valid choices.
    InvalidTypeError
        If ``value`` is neither a member nor a string.

    Examples
    --------
    >>> parse_option(Inclusion, "half", "inclusion")
    <Inclusion.HALF: 'half'>
    """
    if isinstance(value, enum):
        return value
    if not isinstance(value, str):
        raise InvalidTypeError(
            f"{field} must be a string, one of {choices(enum)}; got {value!r} "
            f"of type {type(value).__name__}"
        )
    try:
        return enum(value.strip().lower())
    except ValueError:
        raise InvalidValueError(
            f"unknown {field} {value!r}; valid choices are {choices(enum)}"
        ) from None


def choices(enum: type[Enum]) -> str:
    """The values of ``enum``, quoted and comma-separated, for error messages."""
    return ", ".join(repr(m.value) for m in enum)
