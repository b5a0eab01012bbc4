"""Checks shared by the value objects: numbers and points."""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

from aoegrid.errors import InvalidTypeError, InvalidValueError


def real(value: object, field: str) -> float:
    """``value`` as a finite float, or a clear error naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InvalidTypeError(
            f"{field} must be a number, got {value!r} of type {type(value).__name__}"
        )
    out = float(value)
    if not math.isfinite(out):
        raise InvalidValueError(f"{field} must be a finite number, got {value!r}")
    return out


def positive(value: object, field: str) -> float:
    """``value`` as a finite float greater than zero."""
    out = real(value, field)
    if out <= 0:
        raise InvalidValueError(f"{field} must be greater than 0, got {value!r}")
    return out


def non_negative(value: object, field: str) -> float:
    """``value`` as a finite float, zero or more."""
    out = real(value, field)
    if out < 0:
        raise InvalidValueError(f"{field} must be 0 or more, got {value!r}")
    return out


def count(value: object, field: str, minimum: int = 1) -> int:
    """``value`` as an int of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise InvalidTypeError(
                f"{field} must be a whole number, got {value!r} of type "
                f"{type(value).__name__}"
            )
    if value < minimum:
        raise InvalidValueError(f"{field} must be at least {minimum}, got {value!r}")
    return int(value)


def point(value: Any, field: str) -> tuple[float, float]:
    """``value`` as an ``(x, y)`` pair of finite floats."""
    try:
        px, py = value
    except (TypeError, ValueError):
        raise InvalidTypeError(
            f"{field} must be an (x, y) pair in grid units, got {value!r}"
        ) from None
    return real(px, f"{field} x"), real(py, f"{field} y")
