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
