"""Directions: degrees clockwise from +x on screen, or compass names.

0 is east (+x), 90 is south (+y, down the screen), 180 west, 270 north.
"""

from __future__ import annotations

import math

from aoegrid.errors import InvalidValueError
from aoegrid.geometry._validate import real

COMPASS: dict[str, float] = {
    "E": 0.0,
    "SE": 45.0,
    "S": 90.0,
    "SW": 135.0,
    "W": 180.0,
    "NW": 225.0,
    "N": 270.0,
    "NE": 315.0,
}

_SQRT_HALF = math.sqrt(0.5)


#: Full compass words, as a person types them ("east", "south-east").
_WORDS = (("NORTH", "N"), ("SOUTH", "S"), ("EAST", "E"), ("WEST", "W"))


def parse_direction(value: object, field: str = "direction") -> float:
    """Degrees in [0, 360) for a number of degrees or a compass name.

    Examples
    --------
    >>> parse_direction("S"), parse_direction(-90), parse_direction(450)
    (90.0, 270.0, 90.0)
    >>> parse_direction("south-east"), parse_direction("North West")
    (45.0, 225.0)
    """
    if isinstance(value, str):
        key = value.strip().upper().replace("-", "").replace(" ", "").replace("_", "")
        for word, letter in _WORDS:
            key = key.replace(word, letter)
        if key not in COMPASS:
            raise InvalidValueError(
                f"unknown {field} {value!r}; give degrees clockwise from east "
                f"(0 = east, 90 = south) or one of {', '.join(COMPASS)}"
            )
        return COMPASS[key]
    return real(value, field) % 360.0


def unit_vector(degrees: float) -> tuple[float, float]:
    """The unit vector of a direction, exact for multiples of 45 degrees.

    Exactness matters: a cone pointing south must put its edge exactly on the
    45-degree diagonal, or the inclusive 45-degree test would flicker.

    Examples
    --------
    >>> unit_vector(90.0)
    (0.0, 1.0)
    """
    eighths = degrees / 45.0
    if eighths.is_integer():
        k = int(eighths) % 8
        axis = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)]
        if k % 2 == 0:
            return axis[k // 2]
        sx = 1.0 if k in (1, 7) else -1.0
        sy = 1.0 if k in (1, 3) else -1.0
        return sx * _SQRT_HALF, sy * _SQRT_HALF
    rad = math.radians(degrees)
    return math.cos(rad), math.sin(rad)


def right_normal(v: tuple[float, float]) -> tuple[float, float]:
    """The unit vector 90 degrees clockwise on screen ("right" of ``v``)."""
    return -v[1], v[0]
