"""The shapes of areas: frozen, validated value objects.

Sizes are in the grid's unit (feet by default). Directions are degrees
clockwise from +x on screen (0 = east, 90 = south) or compass names. Every
shape is a value: equal fields make equal shapes, and ``replace`` returns a
changed, re-validated copy.

Examples
--------
>>> Cone(30, "S")
Cone(length=30.0, direction=90.0, kind=None)
>>> Cone(30, "S").replace(direction="E").direction
0.0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from numbers import Integral
from typing import Any, ClassVar, Self

from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import non_negative, positive, real, shown
from aoegrid.geometry.directions import parse_direction
from aoegrid.geometry.options import Anchor, ConeKind, Side, parse_option


class _Shape:
    """What every shape has: a kind name, a unit, ``replace`` and a short repr.

    ``units`` (``None``, or a unit such as ``"in"``) says what the sizes are
    written in: ``None`` means the grid's unit; a shape in another unit than
    its grid's is refused rather than silently mis-scaled (the Savage Worlds
    templates are in inches).
    """

    name: ClassVar[str]
    units: str | None

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` applied, validated like a new shape."""
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]

    def __repr__(self) -> str:
        # Left out when at their defaults: a unit of None, a pitch of 0 (so a
        # shape's repr reads as it did before it had them).
        shown_fields = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in dataclasses.fields(self)  # type: ignore[arg-type]
            if (f.name != "units" or self.units is not None) and (f.name != "pitch" or self.pitch)
        ]
        return f"{type(self).__name__}({', '.join(shown_fields)})"

    def _check_units(self) -> None:
        if self.units is not None and (not isinstance(self.units, str) or not self.units.strip()):
            raise InvalidTypeError(
                f"{type(self).__name__} units must be None (the grid's unit) or a unit name "
                f"such as 'ft' or 'in', got {self.units!r}"
            )


def _set(obj: object, name: str, value: object) -> None:
    object.__setattr__(obj, name, value)


def _pitch(value: object, field: str) -> float:
    """A pitch in degrees above the horizontal, from -90 (straight down) to 90 (straight up).

    ``-0.0`` is kept as ``0.0``: a level shape has one pitch.
    """
    out = real(value, field)
    if not -90.0 <= out <= 90.0:
        raise InvalidValueError(
            f"{field} must be from -90 to 90 degrees above the horizontal (90 straight up, -90 straight "
            f"down), got {shown(value)}"
        )
    return out + 0.0


@dataclass(frozen=True, slots=True, repr=False)
class Sphere(_Shape):
    """A sphere of ``radius``; on the grid, a circle around its origin.

    Examples
    --------
    >>> Sphere(20).reach
    20.0
    """

    radius: float
    units: str | None = None
    name: ClassVar[str] = "sphere"

    def __post_init__(self) -> None:
        self._check_units()
        _set(self, "radius", positive(self.radius, "Sphere radius"))

    @property
    def reach(self) -> float:
        return self.radius


@dataclass(frozen=True, slots=True, repr=False)
class Cylinder(_Shape):
    """A cylinder: a circle of ``radius`` around its origin, ``height`` tall.

    Its footprint on the grid is the sphere's; the height matters for
    creatures above the ground.
    """

    radius: float
    height: float
    units: str | None = None
    name: ClassVar[str] = "cylinder"

    def __post_init__(self) -> None:
        self._check_units()
        _set(self, "radius", positive(self.radius, "Cylinder radius"))
        _set(self, "height", positive(self.height, "Cylinder height"))

    @property
    def reach(self) -> float:
        return self.radius


@dataclass(frozen=True, slots=True, repr=False)
class Cone(_Shape):
    """A cone of ``length`` pointing in ``direction``.

    ``kind`` is ``None`` for the rules' own cone (a quarter circle under
    Starfinder, a flat-ended triangle under 5e, the teardrop template under
    Savage Worlds), or one of ``"quarter-circle"``, ``"triangle"``,
    ``"teardrop"``. ``pitch`` aims it up (degrees above the horizontal, to
    90) or down (to -90); the solid it then fills is described in
    ``aoegrid.geometry._pitch``.

    Examples
    --------
    >>> Cone(30, "E", pitch=45)
    Cone(length=30.0, direction=0.0, kind=None, pitch=45.0)
    """

    length: float
    direction: float | str = 0.0
    kind: ConeKind | str | None = None
    units: str | None = None
    pitch: float = 0.0
    name: ClassVar[str] = "cone"

    def __post_init__(self) -> None:
        self._check_units()
        _set(self, "length", positive(self.length, "Cone length"))
        _set(self, "direction", parse_direction(self.direction, "Cone direction"))
        if self.kind is not None:
            _set(self, "kind", parse_option(ConeKind, self.kind, "Cone kind"))
        _set(self, "pitch", _pitch(self.pitch, "Cone pitch"))

    @property
    def reach(self) -> float:
        """The farthest any part of the shape lies from its origin, in units."""
        return self.length


@dataclass(frozen=True, slots=True, repr=False)
class Line(_Shape):
    """A line of ``length`` in ``direction``, ``width`` wide.

    ``width=None`` takes the rules' default (0 under Starfinder, 5 ft under
    Pathfinder 2e and 5e, 1" under Savage Worlds). ``side`` says on which side
    of a grid line a line lying along it takes its squares (its odd row, for
    a line wider than a square), seen looking along the line: ``"right"``
    (default: south of an eastward line) or ``"left"``. ``pitch`` aims it up
    or down as a cone's (``aoegrid.geometry._pitch``).
    """

    length: float
    direction: float | str = 0.0
    width: float | None = None
    side: Side | str = Side.RIGHT
    units: str | None = None
    pitch: float = 0.0
    name: ClassVar[str] = "line"

    def __post_init__(self) -> None:
        self._check_units()
        _set(self, "length", positive(self.length, "Line length"))
        _set(self, "direction", parse_direction(self.direction, "Line direction"))
        if self.width is not None:
            _set(self, "width", non_negative(self.width, "Line width"))
        _set(self, "side", parse_option(Side, self.side, "Line side"))
        _set(self, "pitch", _pitch(self.pitch, "Line pitch"))

    @property
    def reach(self) -> float:
        return self.length


@dataclass(frozen=True, slots=True, repr=False)
class Cube(_Shape):
    """A cube with sides of ``size``, extending from its origin in ``direction``.

    The origin lies on the cube's near face: at its middle
    (``anchor="center"``) or at its left or right corner seen looking along
    ``direction`` (``"left"``, ``"right"``), so a cube can sit on the grid.
    Upward it rests on the origin's height (``area(..., elevation=)``, the
    ground by default): the origin lies on its bottom face too, and it spans
    ``size`` above it, under every preset.
    """

    size: float
    direction: float | str = 0.0
    anchor: Anchor | str = Anchor.CENTER
    units: str | None = None
    name: ClassVar[str] = "cube"

    def __post_init__(self) -> None:
        self._check_units()
        _set(self, "size", positive(self.size, "Cube size"))
        _set(self, "direction", parse_direction(self.direction, "Cube direction"))
        _set(self, "anchor", parse_option(Anchor, self.anchor, "Cube anchor"))

    @property
    def reach(self) -> float:
        return self.size * 2**0.5


@dataclass(frozen=True, slots=True, repr=False)
class Shapable(_Shape):
    """A shapable area (Starfinder "(S)"): squares chosen by the caster.

    ``squares`` are offsets ``(dx, dy)`` from the point of origin: the square
    whose top-left corner is the origin is ``(0, 0)``, the one to its left
    ``(-1, 0)``. No dimension may be under ``min_dimension`` (10 ft by the
    rules): every square must lie in a solid block that many feet across, which
    is checked against the grid when the area is made.

    Examples
    --------
    >>> Shapable([(0, 0), (1, 0), (0, 1), (1, 1)]).bounds
    (0, 0, 2, 2)
    """

    squares: frozenset[tuple[int, int]]
    min_dimension: float = 10.0
    units: str | None = None
    name: ClassVar[str] = "shapable"

    def __post_init__(self) -> None:
        self._check_units()
        raw = self.squares
        if isinstance(raw, (str, bytes)) or not isinstance(raw, Iterable):
            raise InvalidTypeError(f"Shapable squares must be (dx, dy) pairs, got {raw!r}")
        cells: set[tuple[int, int]] = set()
        for item in raw:
            try:
                dx, dy = item
            except (TypeError, ValueError):
                raise InvalidTypeError(
                    f"Shapable squares must be (dx, dy) pairs of whole numbers, got {item!r}"
                ) from None
            cells.add((_offset(dx, item), _offset(dy, item)))
        if not cells:
            raise InvalidValueError("Shapable needs at least one square, got none")
        _set(self, "squares", frozenset(cells))
        _set(self, "min_dimension", positive(self.min_dimension, "Shapable min_dimension"))

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        """``(x0, y0, x1, y1)``: the offsets' extent, ``x1``/``y1`` exclusive."""
        xs = [c[0] for c in self.squares]
        ys = [c[1] for c in self.squares]
        return min(xs), min(ys), max(xs) + 1, max(ys) + 1

    @property
    def reach(self) -> float:
        return 0.0


#: The largest offset of a Shapable square: every whole number up to it is
#: exact as a float too, and far beyond any grid that fits in memory.
_MAX_OFFSET = 2**53


def _offset(value: object, item: object) -> int:
    """One of a Shapable square's offsets, as an int."""
    if isinstance(value, Integral) and not isinstance(value, bool):
        out = int(value)
    else:
        v = real(value, "Shapable square offset")
        if not v.is_integer():
            raise InvalidValueError(f"Shapable square {shown(item)} must have whole-number offsets")
        out = int(v)
    if abs(out) > _MAX_OFFSET:
        raise InvalidValueError(
            f"Shapable square {shown(item)} has an offset beyond +-2**53 squares; offsets must "
            f"be whole numbers from -2**53 to 2**53"
        )
    return out


Shape = Sphere | Cylinder | Cone | Line | Cube | Shapable
SHAPE_TYPES = (Sphere, Cylinder, Cone, Line, Cube, Shapable)
