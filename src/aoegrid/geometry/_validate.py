"""Checks shared by the value objects: numbers and points."""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

from aoegrid.errors import InvalidTypeError, InvalidValueError


def shown(value: object) -> str:
    """``repr(value)`` for an error message, cut short.

    A huge integer (past 2**100) is shown as its size: its ``repr`` is long,
    and refused outright beyond Python's 4300-digit limit.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 100:
        exponent = math.log10(abs(value))  # exact enough for any int, unlike float(value)
        mantissa = 10 ** (exponent % 1)
        return f"{'-' if value < 0 else ''}~{mantissa:.3g}e{math.floor(exponent)}"
    try:
        text = repr(value)
    except ValueError:  # a container holding an int past the 4300-digit limit
        return f"a {type(value).__name__} holding a huge integer"
    return text if len(text) <= 80 else text[:77] + "..."


def shown_int(n: int, sep: str = "") -> str:
    """``n`` with thousands separator ``sep``, or its size when too long to read."""
    return f"{n:{sep}}" if n.bit_length() <= 100 else shown(n)


def real(value: object, field: str) -> float:
    """``value`` as a finite float, or a clear error naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InvalidTypeError(
            f"{field} must be a number, got {shown(value)} of type {type(value).__name__}"
        )
    try:
        out = float(value)
    except OverflowError:  # an int or Fraction beyond the float range
        raise InvalidValueError(
            f"{field} must be a finite number, got {shown(value)}, beyond the float range "
            f"(about 1.8e308)"
        ) from None
    if not math.isfinite(out):
        raise InvalidValueError(f"{field} must be a finite number, got {shown(value)}")
    return out


def positive(value: object, field: str) -> float:
    """``value`` as a finite float greater than zero."""
    out = real(value, field)
    if out <= 0:
        raise InvalidValueError(f"{field} must be greater than 0, got {shown(value)}")
    return out


def non_negative(value: object, field: str) -> float:
    """``value`` as a finite float, zero or more."""
    out = real(value, field)
    if out < 0:
        raise InvalidValueError(f"{field} must be 0 or more, got {shown(value)}")
    return out


def count(value: object, field: str, minimum: int = 1) -> int:
    """``value`` as an int of at least ``minimum``."""
    whole = isinstance(value, Integral) or (isinstance(value, float) and value.is_integer())
    if whole and not isinstance(value, bool):
        value = int(value)  # type: ignore[call-overload]
    else:
        raise InvalidTypeError(
            f"{field} must be a whole number, got {shown(value)} of type {type(value).__name__}"
        )
    if value < minimum:
        raise InvalidValueError(f"{field} must be at least {minimum}, got {shown(value)}")
    return value


def point(value: Any, field: str) -> tuple[float, float]:
    """``value`` as an ``(x, y)`` pair of finite floats."""
    try:
        px, py = value
    except (TypeError, ValueError):
        raise InvalidTypeError(
            f"{field} must be an (x, y) pair in grid units, got {shown(value)}"
        ) from None
    return real(px, f"{field} x"), real(py, f"{field} y")
