"""Floors and ceilings: horizontal polygons at a height that block lines crossing them.

A :class:`Floor` is a polygon in grid squares (holes allowed: a stairwell, a
trapdoor) lying at ``elevation`` (the grid's unit, as
:attr:`Token.elevation <aoegrid.Token.elevation>`). A straight line is
blocked by it when it crosses the plane ``z = elevation`` strictly (one end
above, the other below) at a point inside the polygon, not in a hole and not
on its outline: a line that only touches the plane, or runs in it, is not
blocked. See :mod:`aoegrid.board.heights` for how lines are tested.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import point, real


@dataclass(frozen=True, slots=True)
class Floor:
    """A floor (or ceiling) at ``elevation``: a polygon, holes allowed, in grid squares.

    Parameters
    ----------
    polygon : shapely.Polygon or sequence of (x, y)
        The floor's outline (a ring of three or more points), or a shapely
        Polygon whose interiors are holes in it. It must be valid (no
        self-crossing, holes inside the outline).
    elevation : float
        The floor's height, in the grid's unit.

    Examples
    --------
    >>> f = Floor([(0, 0), (4, 0), (4, 4), (0, 4)], elevation=10)
    >>> f.polygon.area, f.elevation
    (16.0, 10.0)
    >>> Floor([(0, 0), (2, 2), (2, 0), (0, 2)], 0)
    Traceback (most recent call last):
    ...
    aoegrid.errors.InvalidValueError: Floor polygon is not valid (Self-intersection[1 1]): POLYGON ((0 0, 2 2, 2 0, 0 2, 0 0))
    """

    polygon: shapely.Polygon
    elevation: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "polygon", area_polygon(self.polygon, "Floor polygon"))
        object.__setattr__(self, "elevation", real(self.elevation, "Floor elevation"))

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """The polygon's ``(xmin, ymin, xmax, ymax)``."""
        x0, y0, x1, y1 = self.polygon.bounds
        return (x0, y0, x1, y1)


def area_polygon(obj: Any, what: str, *, valid: bool = True) -> shapely.Polygon:
    """``obj`` (a shapely Polygon or a ring of (x, y) points) as a Polygon enclosing some area, or a clear error.

    ``what`` names it in the error (``"Floor polygon"``, ``"a fog zone"``);
    with ``valid`` a self-crossing ring is refused too (a floor's inside must
    be clear; a fog zone only uses its outline).
    """
    if isinstance(obj, shapely.Polygon):
        poly = obj
    elif isinstance(obj, shapely.Geometry):
        raise InvalidTypeError(f"{what} must be a shapely Polygon or a ring of (x, y) points, got a {obj.geom_type}")
    else:
        try:
            ring = [point(p, f"{what} point") for p in obj]
        except TypeError:
            raise InvalidTypeError(
                f"{what} must be a shapely Polygon or a ring of (x, y) points, got {obj!r:.80}"
            ) from None
        if len(ring) < 3:
            raise InvalidValueError(f"{what} needs at least three points, got {obj!r:.80}")
        poly = shapely.Polygon(ring)
    if not np.isfinite(shapely.get_coordinates(poly)).all():
        raise InvalidValueError(f"{what} has a NaN or infinite coordinate: {poly.wkt:.120}")
    if valid and not poly.is_valid:
        raise InvalidValueError(f"{what} is not valid ({shapely.is_valid_reason(poly)}): {poly.wkt:.120}")
    if poly.is_empty or poly.area == 0:
        raise InvalidValueError(f"{what} must enclose some area, got {poly.wkt:.120}")
    return poly


def floors_from(floors: Iterable[Any]) -> tuple[Floor, ...]:
    """``floors`` as a tuple of :class:`Floor`, each checked."""
    if isinstance(floors, (str, Floor)) or not isinstance(floors, Iterable):
        raise InvalidTypeError(f"BattleMap floors must be a collection of aoegrid.Floor, got {floors!r:.80}")
    out = tuple(floors)
    for f in out:
        if not isinstance(f, Floor):
            raise InvalidTypeError(f"BattleMap floors must be aoegrid.Floor, got {f!r:.80}")
    return out
