"""The exceptions aoegrid raises.

Every error aoegrid raises derives from :class:`AoegridError`, and also from the
builtin exception a caller would expect (``ValueError`` for a bad value,
``TypeError`` for a value of the wrong kind), so ``except ValueError`` keeps
working for code that does not know about aoegrid.
"""

from __future__ import annotations


class AoegridError(Exception):
    """Base class of every exception raised by aoegrid."""


class InvalidValueError(AoegridError, ValueError):
    """A value has the right type but is out of range, unknown or inconsistent."""


class InvalidTypeError(AoegridError, TypeError):
    """A value is of a type aoegrid cannot use here."""


class OffGridError(InvalidValueError):
    """A point or a creature's space lies outside the grid."""


class GridTooLargeError(InvalidValueError):
    """A grid whose masks would not fit in this machine's memory."""


class IllegalOriginError(InvalidValueError):
    """A point of origin the rules do not allow for its caster: out of range,
    out of line of effect (or sight), inside a wall, off the map, or a cone or
    line not started at its caster. ``reason`` names the rule broken and
    ``nearest`` the nearest legal origin (None when there is none)."""

    def __init__(self, message: str, reason: str | None = None, nearest: object = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.nearest = nearest


class GridMismatchError(InvalidValueError):
    """Two areas, or an area and a map, are on different grids."""


class AoegridWarning(UserWarning):
    """Something odd in the input that aoegrid can still answer for."""
