"""Terrain for movement: which squares are difficult, greater difficult or impassable.

A map's terrain is an ``(height, width)`` int8 array of kinds
(:class:`aoegrid.geometry.options.Terrain` codes: 0 open, 1 difficult, 2 greater
difficult, 3 impassable), built by :func:`terrain_array` from what
``BattleMap(..., terrain=)`` takes:

* that array itself (any integer array of the map's shape, each value 0 to 3);
* a mapping of kinds to areas, ``{"difficult": [area, ...], "impassable": area}``;
* ``(kind, area)`` pairs.

An area is a polygon (a shapely ``Polygon`` or ``MultiPolygon``, or a ring of
``(x, y)`` points in grid units) or a square mask (an ``(height, width)``
bool array). A polygon takes the squares whose centre lies in it or on its
outline (within 1e-9 of a square), as a creature's steps run between square
centres; it may reach beyond the map. Where areas overlap, the costlier
kind wins (impassable over greater difficult over difficult): difficult
terrain laid twice is still difficult.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import shown
from aoegrid.geometry.grid import Grid
from aoegrid.geometry.options import Terrain, parse_option

__all__ = ["terrain_array"]

Int8Array = NDArray[np.int8]

#: A square's centre this close to a polygon's outline is on it.
_ON = 1e-9

_KINDS = ", ".join(f"{t.code} ({t.value})" for t in Terrain)


def terrain_array(spec: Any, grid: Grid) -> Int8Array | None:
    """The kind of every square of ``grid`` that ``spec`` gives (see the module's docstring).

    Returns
    -------
    (height, width) int8 array, read-only, or None
        None when ``spec`` is None or lays no terrain at all.

    Raises
    ------
    InvalidTypeError
        ``spec`` or an area of a kind aoegrid cannot read.
    InvalidValueError
        An unknown kind; an array or mask of another shape than the map's,
        or holding another value than a kind; a polygon that crosses itself,
        encloses no area, has fewer than three points or a NaN or infinite
        coordinate. Each message names the value.

    Examples
    --------
    >>> from aoegrid.geometry.grid import Grid
    >>> t = terrain_array({"difficult": [(0, 0), (3, 0), (3, 2), (0, 2)], "impassable": [[(4, 1), (5, 1), (5, 2), (4, 2)]]},
    ...                   Grid(6, 3))
    >>> t
    array([[1, 1, 1, 0, 0, 0],
           [1, 1, 1, 0, 3, 0],
           [0, 0, 0, 0, 0, 0]], dtype=int8)
    """
    if spec is None:
        return None
    shape = (grid.height, grid.width)
    if isinstance(spec, np.ndarray):
        out = _kinds_array(spec, shape)
    else:
        out = np.zeros(shape, dtype=np.int8)
        for kind, area in _pairs(spec):
            code = parse_option(Terrain, kind, "terrain kind")
            if code is Terrain.OPEN:
                raise InvalidValueError(
                    "terrain kind 'open' marks nothing (squares are open unless an area says otherwise); "
                    "give 'difficult', 'greater-difficult' or 'impassable' areas"
                )
            np.maximum(out, np.where(_squares(area, grid), np.int8(code.code), np.int8(0)), out=out)
    if not out.any():
        return None
    out.setflags(write=False)
    return out


def _kinds_array(spec: NDArray[Any], shape: tuple[int, int]) -> Int8Array:
    """A kinds array, checked: the map's shape, whole numbers 0 to 3."""
    if spec.dtype == np.bool_:
        raise InvalidTypeError(
            "a terrain array holds kinds (0 to 3), not True and False; give a bool mask with its kind: "
            "terrain={'difficult': mask}"
        )
    if not np.issubdtype(spec.dtype, np.integer):
        raise InvalidTypeError(
            f"a terrain array must hold whole numbers, the kinds {_KINDS}; got an array of {spec.dtype}"
        )
    if spec.shape != shape:
        raise InvalidValueError(
            f"a terrain array must have the map's shape (height, width) = {shape}, got shape {spec.shape}"
        )
    bad = (spec < 0) | (spec > 3)
    if bad.any():
        y, x = (int(v) for v in np.argwhere(bad)[0])
        raise InvalidValueError(
            f"a terrain array must hold the kinds {_KINDS}; got {shown(spec[y, x].item())} at square ({x}, {y})"
        )
    return spec.astype(np.int8)


def _pairs(spec: Any) -> list[tuple[Any, Any]]:
    """``(kind, area)`` pairs from a mapping of kinds to areas, or from pairs."""
    if isinstance(spec, Mapping):
        out = []
        for kind, areas in spec.items():
            out += [(kind, area) for area in _areas(areas)]
        return out
    if isinstance(spec, (str, bytes)) or not isinstance(spec, Iterable):
        raise InvalidTypeError(
            "terrain must be an (height, width) array of kinds, a mapping of kinds to areas "
            f"({{'difficult': [polygon, ...]}}), or (kind, area) pairs; got {shown(spec)}"
        )
    out = []
    for item in spec:
        try:
            kind, area = item
        except (TypeError, ValueError):
            raise InvalidTypeError(
                f"terrain pairs must be (kind, area), e.g. ('difficult', polygon); got {shown(item)}"
            ) from None
        out.append((kind, area))
    return out


def _areas(value: Any) -> list[Any]:
    """One area (a polygon, a ring of points, a mask) or a list of them, as a list."""
    if isinstance(value, (shapely.Geometry, np.ndarray)) or _is_ring(value):
        return [value]
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise InvalidTypeError(
            f"a terrain area must be a polygon, a ring of (x, y) points or a bool mask, or a list of them; "
            f"got {shown(value)}"
        )
    return list(value)


def _is_ring(value: Any) -> bool:
    """Whether ``value`` looks like a ring of points: a sequence whose first item is a pair of numbers."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (list, tuple)) or not value:
        return False
    first = value[0]
    return (isinstance(first, (list, tuple)) and len(first) == 2
            and all(isinstance(v, (int, float, np.number)) and not isinstance(v, bool) for v in first))


def _squares(area: Any, grid: Grid) -> NDArray[np.bool_]:
    """The squares ``area`` takes, as an ``(height, width)`` mask."""
    shape = (grid.height, grid.width)
    if isinstance(area, np.ndarray) and area.dtype != np.bool_ and area.ndim == 2 and area.shape[1] == 2 \
            and area.shape != shape:
        area = area.tolist()  # a ring of points as an array
    if isinstance(area, np.ndarray):
        if area.dtype != np.bool_:
            raise InvalidTypeError(
                f"a terrain mask must be a bool array, got an array of {area.dtype}; "
                "give an array of kinds as terrain= itself"
            )
        if area.shape != shape:
            raise InvalidValueError(
                f"a terrain mask must have the map's shape (height, width) = {shape}, got shape {area.shape}"
            )
        return area
    poly = _polygon(area)
    out = np.zeros(shape, dtype=bool)
    x0, y0, x1, y1 = poly.bounds
    # The squares whose centre (x + 0.5, y + 0.5) lies in the polygon's box.
    cx0, cx1 = max(int(np.ceil(x0 - 0.5 - _ON)), 0), min(int(np.floor(x1 - 0.5 + _ON)), grid.width - 1)
    cy0, cy1 = max(int(np.ceil(y0 - 0.5 - _ON)), 0), min(int(np.floor(y1 - 0.5 + _ON)), grid.height - 1)
    if cx0 > cx1 or cy0 > cy1:
        return out
    ys, xs = np.mgrid[cy0 : cy1 + 1, cx0 : cx1 + 1]
    shapely.prepare(poly)
    inside = shapely.dwithin(poly, shapely.points(xs.ravel() + 0.5, ys.ravel() + 0.5), _ON)
    out[cy0 : cy1 + 1, cx0 : cx1 + 1] = inside.reshape(xs.shape)
    return out


def _polygon(area: Any) -> shapely.Polygon | shapely.MultiPolygon:
    """A terrain polygon, checked: finite, simple, enclosing some area."""
    if isinstance(area, (shapely.Polygon, shapely.MultiPolygon)):
        poly = area
    elif isinstance(area, shapely.Geometry):
        raise InvalidTypeError(
            f"a terrain area must be a Polygon or MultiPolygon, got a {area.geom_type}: {shown(area.wkt)}"
        )
    elif _is_ring(area):
        ring = list(area)
        if len(ring) < 3:
            raise InvalidValueError(f"a terrain polygon needs at least three points, got {shown(area)}")
        try:
            coords = np.array(ring, dtype=np.float64)
        except (TypeError, ValueError):
            raise InvalidTypeError(f"a terrain polygon's points must be (x, y) pairs of numbers, got {shown(area)}") \
                from None
        if coords.ndim != 2 or coords.shape[1] != 2:
            raise InvalidTypeError(f"a terrain polygon's points must be (x, y) pairs of numbers, got {shown(area)}")
        if not np.isfinite(coords).all():
            raise InvalidValueError(f"a terrain polygon has a NaN or infinite coordinate: {shown(area)}")
        poly = shapely.Polygon(coords)
    else:
        raise InvalidTypeError(
            f"a terrain area must be a polygon, a ring of (x, y) points or a bool mask; got {shown(area)}"
        )
    if not np.isfinite(shapely.get_coordinates(poly)).all():
        raise InvalidValueError(f"a terrain polygon has a NaN or infinite coordinate: {shown(poly.wkt)}")
    if poly.is_empty or poly.convex_hull.area == 0:  # its points on a line
        raise InvalidValueError(f"a terrain polygon must enclose some area, got {shown(poly.wkt)}")
    if not poly.is_valid:
        why = shapely.is_valid_reason(poly)
        raise InvalidValueError(
            f"a terrain polygon is invalid ({why}): {shown(poly.wkt)}; give a ring that does not cross itself "
            "(shapely.make_valid(polygon) repairs one)"
        )
    return poly
