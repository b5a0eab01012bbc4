"""The open table: a gridless map and the creatures on it.

A :class:`Gridless` map has no cells. Its coordinates ARE its unit: on a
30 ft x 20 ft table the points run over ``(0..30, 0..20)`` (x right, y
down), and on a Savage Worlds table in inches one unit is one inch.
Creatures there are :class:`OpenToken`: a centre point and a footprint, a
circle as wide as the creature's space (Foundry VTT's gridless tokens are
stored as rectangles, which ``footprint="rect"`` takes).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import Any

import shapely

from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import point, positive, real, shown
from aoegrid.geometry.grid import DEFAULT_SQUARE
from aoegrid.geometry.options import parse_option
from aoegrid.geometry.tokens import SIZES

#: The largest side of a gridless map, in its unit: float rounding of points
#: stays far below the 1e-9 tolerance of outlines up to it.
MAX_EXTENT = 1e6

#: Segments per quarter turn of a circle drawn as a polygon: its sides then
#: stray under 2e-5 of its radius inside the true circle (exact tests read
#: the centre and radius, see :meth:`OpenToken.radius`).
QUAD_SEGS = 128


@dataclass(frozen=True, slots=True, repr=False)
class Gridless:
    """A map with no grid: ``width`` x ``height`` in ``units``, points anywhere.

    Parameters
    ----------
    width, height : float
        The table's size in ``units`` (feet, or inches for Savage Worlds);
        finite, greater than 0, at most ``MAX_EXTENT``.
    units : str
        The unit of sizes and coordinates (``"ft"`` by default).
    square : float, optional
        How wide a Medium creature's space is in ``units``, from which the
        size categories scale (:data:`aoegrid.geometry.tokens.SIZES`): by default 5 for
        ``"ft"``, 1 for ``"in"``, 1.5 for ``"m"``, 1 for ``"sq"``.

    Examples
    --------
    >>> t = Gridless(30, 20)
    >>> t
    Gridless(30.0, 20.0, units='ft')
    >>> t.extent, t.contains_point((12.5, 20)), t.contains_point((31, 2)), t.square
    ((30.0, 20.0), True, False, 5.0)
    >>> Gridless(36, 24, units="in").square
    1.0
    """

    width: float
    height: float
    units: str = "ft"
    square: float | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        for name in ("width", "height"):
            v = positive(getattr(self, name), f"Gridless {name}")
            if v > MAX_EXTENT:
                raise InvalidValueError(
                    f"Gridless {name} must be at most {MAX_EXTENT:g} (in its unit), got {shown(getattr(self, name))}"
                )
            set_(self, name, v)
        if not isinstance(self.units, str) or not self.units.strip():
            raise InvalidTypeError(f"Gridless units must be a non-empty string such as 'ft' or 'in', got {shown(self.units)}")
        if self.square is None:
            if self.units not in DEFAULT_SQUARE:
                raise InvalidValueError(
                    f"Gridless units {self.units!r} has no default square; pass square= (a Medium creature's "
                    f"width in {self.units}) or use one of {', '.join(map(repr, DEFAULT_SQUARE))}"
                )
            set_(self, "square", DEFAULT_SQUARE[self.units])
        else:
            set_(self, "square", positive(self.square, "Gridless square"))

    def __repr__(self) -> str:
        extra = "" if self.square == DEFAULT_SQUARE.get(self.units) else f", square={self.square!r}"
        return f"Gridless({self.width!r}, {self.height!r}, units={self.units!r}{extra})"

    @property
    def extent(self) -> tuple[float, float]:
        """The map's ``(width, height)`` in map coordinates (its unit)."""
        return (self.width, self.height)

    #: What cells this lattice has (``aoegrid.geometry.lattice.Lattice``): none.
    kind = "gridless"

    @property
    def cell_size(self) -> float:
        """One map unit in the map's unit: 1, for coordinates are the unit itself."""
        return 1.0

    def contains_point(self, p: Any) -> bool:
        """Whether point ``p`` (x, y) lies on the map, edges included."""
        x, y = point(p, "Gridless point")
        return 0.0 <= x <= self.width and 0.0 <= y <= self.height

    def box(self) -> shapely.Polygon:
        """The map's rectangle as a shapely polygon."""
        return shapely.box(0.0, 0.0, self.width, self.height)


class Footprint(str, Enum):
    """The outline of an :class:`OpenToken`: a ``circle`` or an axis-aligned ``rect``."""

    CIRCLE = "circle"
    RECT = "rect"


def space_of(units: Any) -> float:
    """A Medium creature's width in map units: from a :class:`Gridless`, a unit name or a number.

    Examples
    --------
    >>> space_of("ft"), space_of(Gridless(10, 10, units="in")), space_of(2.5)
    (5.0, 1.0, 2.5)
    """
    if isinstance(units, Gridless):
        assert units.square is not None
        return units.square
    if isinstance(units, str):
        if units not in DEFAULT_SQUARE:
            raise InvalidValueError(
                f"unknown units {units!r}; valid units are {', '.join(map(repr, DEFAULT_SQUARE))}, "
                f"or pass the Gridless map or a Medium creature's width"
            )
        return DEFAULT_SQUARE[units]
    return positive(units, "a Medium creature's width (units)")


@dataclass(frozen=True, slots=True, repr=False)
class OpenToken:
    """A creature on the open table, centred at ``(x, y)`` (map units).

    Parameters
    ----------
    x, y : float
        The creature's centre point.
    size : str or float
        A size category (as :class:`aoegrid.Token`: ``"tiny"`` ... ``"colossal"``,
        squares across by :data:`aoegrid.geometry.tokens.SIZES`) or a number of
        squares across. A square is the map's ``square`` (5 ft, 1").
    name : str, optional
    elevation : float
        Height of its lowest point above the ground, in map units.
    tags : iterable of str
        Free labels, as :attr:`aoegrid.Token.tags`.
    height : float, optional
        How tall it stands; ``None``: as tall as its footprint is wide.
    footprint : {"circle", "rect"}
        A circle as wide as its space (default), or an axis-aligned
        rectangle ``width`` x ``depth``.
    width, depth : float, optional
        In map units. A circle's ``width`` is its diameter (``depth`` must be
        left out); a rectangle's default to the size's space.

    Examples
    --------
    >>> orc = OpenToken(12.5, 7, name="orc", tags={"enemy"})
    >>> orc.radius("ft"), orc.label, orc.center
    (2.5, 'orc', (12.5, 7.0))
    >>> round(orc.geometry("ft").area, 2)    # pi * 2.5**2 = 19.635
    19.63
    >>> OpenToken(3, 3, footprint="rect", width=10, depth=4).geometry("ft").bounds
    (-2.0, 1.0, 8.0, 5.0)
    >>> OpenToken(0.5, 2, size="large").label, OpenToken(0, 0, size="large").half_extent("in")
    ('token at (0.5, 2)', (1.0, 1.0))
    """

    x: float
    y: float
    size: str | float = "medium"
    name: str | None = None
    elevation: float = 0.0
    tags: frozenset[str] = frozenset()
    height: float | None = None
    footprint: Footprint | str = Footprint.CIRCLE
    width: float | None = None
    depth: float | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "x", real(self.x, "OpenToken x"))
        set_(self, "y", real(self.y, "OpenToken y"))
        size = self.size
        if isinstance(size, str):
            key = size.strip().lower()
            if key not in SIZES:
                raise InvalidValueError(
                    f"unknown OpenToken size {size!r}; valid sizes are {', '.join(map(repr, SIZES))} "
                    f"or a number of squares across"
                )
            set_(self, "size", key)
        else:
            set_(self, "size", positive(size, "OpenToken size"))
        if self.name is not None and not isinstance(self.name, str):
            raise InvalidTypeError(f"OpenToken name must be a string, got {shown(self.name)}")
        set_(self, "elevation", real(self.elevation, "OpenToken elevation"))
        tags = self.tags
        if isinstance(tags, str) or not isinstance(tags, (set, frozenset, list, tuple)):
            raise InvalidTypeError(f"OpenToken tags must be a collection of strings, got {shown(tags)}")
        if not all(isinstance(t, str) for t in tags):
            raise InvalidTypeError(f"OpenToken tags must be strings, got {sorted(map(repr, tags))}")
        set_(self, "tags", frozenset(tags))
        if self.height is not None:
            set_(self, "height", positive(self.height, "OpenToken height"))
        fp = parse_option(Footprint, self.footprint, "OpenToken footprint")
        set_(self, "footprint", fp)
        if self.width is not None:
            set_(self, "width", positive(self.width, "OpenToken width"))
        if self.depth is not None:
            if fp is Footprint.CIRCLE:
                raise InvalidValueError(
                    f"OpenToken depth is for footprint='rect'; a circle is given by its width (diameter), "
                    f"got depth={shown(self.depth)}"
                )
            set_(self, "depth", positive(self.depth, "OpenToken depth"))

    def __repr__(self) -> str:
        parts = [f"x={self.x!r}", f"y={self.y!r}", f"size={self.size!r}", f"name={self.name!r}"]
        if self.elevation:
            parts.append(f"elevation={self.elevation!r}")
        if self.tags:
            parts.append(f"tags={sorted(self.tags)!r}")
        for f in ("height", "width", "depth"):
            if getattr(self, f) is not None:
                parts.append(f"{f}={getattr(self, f)!r}")
        if self.footprint is Footprint.RECT:
            parts.append("footprint='rect'")
        return f"OpenToken({', '.join(parts)})"

    @property
    def center(self) -> tuple[float, float]:
        """The creature's centre point."""
        return (self.x, self.y)

    @property
    def label(self) -> str:
        """The name, or the position when the token has none."""
        return self.name if self.name is not None else f"token at ({self.x:g}, {self.y:g})"

    @property
    def squares_across(self) -> float:
        """How many squares across its space is, by its size."""
        return float(SIZES[self.size]) if isinstance(self.size, str) else float(self.size)

    def half_extent(self, units: Any) -> tuple[float, float]:
        """Half its footprint's width (x) and depth (y), in map units.

        ``units`` is the map (:class:`Gridless`), its unit name or a Medium
        creature's width (``space_of``).
        """
        across = self.squares_across * space_of(units)
        w = self.width if self.width is not None else across
        d = w if self.footprint is Footprint.CIRCLE else (self.depth if self.depth is not None else across)
        return (w / 2.0, d / 2.0)

    def radius(self, units: Any) -> float:
        """A circle's exact radius in map units (half its width for a rectangle)."""
        return self.half_extent(units)[0]

    def geometry(self, units: Any) -> shapely.Polygon:
        """Its footprint as a shapely polygon in map units (a circle: ``QUAD_SEGS`` a quarter turn)."""
        hw, hd = self.half_extent(units)
        return _footprint(self.x, self.y, hw, hd, self.footprint is Footprint.RECT)

    def prism(self, square: float) -> tuple[float, float]:
        """The heights it fills, ``(elevation, elevation + height)``, in map units.

        ``square`` is a Medium creature's width (:attr:`Gridless.square`; a
        creature with no ``height`` stands as tall as its footprint is wide).

        Examples
        --------
        >>> OpenToken(0, 0, size="large", elevation=10).prism(5.0)
        (10.0, 20.0)
        """
        tall = 2.0 * self.half_extent(square)[0] if self.height is None else self.height
        return self.elevation, self.elevation + tall

    def moved_to(self, x: float, y: float) -> OpenToken:
        """The same creature centred at ``(x, y)``.

        Examples
        --------
        >>> OpenToken(1, 2, name="orc").moved_to(4.5, 6).center
        (4.5, 6.0)
        """
        return replace(self, x=x, y=y)

    def shifted(self, dx: float, dy: float) -> OpenToken:
        """The same creature moved ``dx`` right and ``dy`` down (map units)."""
        return replace(self, x=self.x + real(dx, "OpenToken shift dx"), y=self.y + real(dy, "OpenToken shift dy"))


@lru_cache(maxsize=4096)
def _footprint(x: float, y: float, hw: float, hd: float, rect: bool) -> shapely.Polygon:
    """A footprint's polygon, kept: searches ask for the same creatures' thousands of times (shapely's are immutable)."""
    if rect:
        return shapely.box(x - hw, y - hd, x + hw, y + hd)
    return shapely.Point(x, y).buffer(hw, quad_segs=QUAD_SEGS)


def frame_of(table: Gridless) -> tuple[float, float, float, float]:
    """The frame visibility polygons on ``table`` are built in: the map and a margin of one unit."""
    return (-1.0, -1.0, table.width + 1.0, table.height + 1.0)


def circle(cx: float, cy: float, r: float) -> shapely.Polygon:
    """The disk of radius ``r`` at ``(cx, cy)`` as a polygon (``QUAD_SEGS``); a point for ``r == 0``."""
    if r <= 0.0:
        return shapely.Point(cx, cy)
    return shapely.Point(cx, cy).buffer(r, quad_segs=QUAD_SEGS)

