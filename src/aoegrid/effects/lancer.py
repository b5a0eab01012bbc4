"""Lancer's areas on hex maps: Burst, Blast, Cone and Line, counted in hexes.

Lancer (core book, "Weapon tags" and "Space and measurement") measures
everything in spaces, and its designers play on hexes, so these patterns are
hex-native: sizes are whole numbers of hexes and every distance is a count of
hex steps, never a length. The rulebook's words and how they are read here:

* **Burst X** "affect[s] characters within a radius of X spaces, centered on
  and including the space occupied by the user (or target). If the Burst is
  an attack, the user or target is not affected": every hex within X steps
  of any hex the user fills. The area holds the user's hexes;
  :meth:`LancerArea.targets` leaves the user out.
* **Blast X**: "a radius of X spaces, drawn from a point within range and
  line of sight": the hexes within X steps of a chosen hex (``1 + 3X(X+1)``
  of them in open ground). Check the chosen hex first with
  :func:`range_between` and the map's line of sight.
* **Cone X**: "X spaces long and X spaces wide at its furthest point. The
  cone begins 1 space wide". See :func:`cone_offsets`: drawn from the user's
  hex towards one of its six neighbours, it takes the hexes at most X steps
  away whose centre lies strictly within 30 degrees of that direction. Its
  rows are 1, 1, 3, 3, 5, 5, ... hexes wide (``ceil(X**2 / 2)`` hexes in
  all), the Foundry VTT Lancer system's cone on hexes (see there).
* **Line X**: "a straight line, X spaces long": the X hexes after the user's
  along :meth:`HexGrid.line <aoegrid.HexGrid.line>`, towards a neighbour or
  through any chosen hex.

Creature sizes: Lancer size 1/2 and 1 fill one hex, size 2 three, 3 seven, 4
twelve and 5 nineteen: :meth:`HexGrid.footprint <aoegrid.HexGrid.footprint>`
``n`` hexes across (size 1/2 as 1). Range between creatures is the fewest hex
steps between a hex of one and a hex of the other (:func:`range_between`).

On a :class:`~aoegrid.BattleMap` with walls an area keeps the hexes a
straight line from its ``LancerArea.center`` reaches some of: Lancer
draws cover and line of sight from the blast's centre, and from the user for
the others.

Examples
--------
>>> import aoegrid as ag
>>> from aoegrid import lancer
>>> g = ag.HexGrid(9, 7)
>>> a = lancer.area(lancer.Cone(3), at=(1, 3), on=g, direction="E")
>>> print(a.picture())
. . . . . . . . .
 . . . . . . . . .
. . . . # . . . .
 . o # # # . . . .
. . . . # . . . .
 . . . . . . . . .
. . . . . . . . .
>>> len(a), len(lancer.area(lancer.Blast(2), at=(4, 3), on=g))
(5, 19)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral, Real
from typing import Any, Union

import numpy as np
from numpy.typing import NDArray

from aoegrid.board.battlemap import BattleMapCore, hex_footprint
from aoegrid.board.hexcells import view, visible_fractions
from aoegrid.errors import IllegalOriginError, InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.geometry._validate import count, shown
from aoegrid.geometry.hexgrid import HexGrid
from aoegrid.geometry.tokens import Token

BoolArray = NDArray[np.bool_]
Hex = tuple[int, int]

#: The six directions a cone or a line may take from a hex, towards its neighbours, clockwise on
#: screen from the first at or clockwise of due east (the order of ``HexGrid.neighbours``).
DIRECTIONS = {
    "pointy": ("e", "se", "sw", "w", "nw", "ne"),
    "flat": ("se", "s", "sw", "nw", "n", "ne"),
}

# The same six as cube (q, r, s) steps (HexGrid's axial steps with s = -q - r).
_STEPS = ((1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1), (1, -1, 0))

#: Lancer's creature sizes and how many hexes across each fills (size 1/2 fills one hex).
SIZES = {Fraction(1, 2): 1, Fraction(1): 1, Fraction(2): 2, Fraction(3): 3, Fraction(4): 4, Fraction(5): 5}

#: A hex is in line of effect when more than this fraction of it is reached (rounding only).
_SEEN = 1e-9


@dataclass(frozen=True, slots=True)
class Burst:
    """Burst X: every hex within ``radius`` steps of the user's hexes, theirs included.

    Examples
    --------
    >>> Burst(2)
    Burst(radius=2)
    """

    radius: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "radius", count(self.radius, "Burst radius"))


@dataclass(frozen=True, slots=True)
class Blast:
    """Blast X: every hex within ``radius`` steps of a chosen hex.

    Examples
    --------
    >>> Blast(1)
    Blast(radius=1)
    """

    radius: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "radius", count(self.radius, "Blast radius"))


@dataclass(frozen=True, slots=True)
class Cone:
    """Cone X: ``length`` hexes long, 1 hex wide at the user, ``length`` wide at the end (odd X).

    Examples
    --------
    >>> Cone(5)
    Cone(length=5)
    """

    length: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "length", count(self.length, "Cone length"))


@dataclass(frozen=True, slots=True)
class Line:
    """Line X: ``length`` hexes in a straight line from the hex next to the user.

    Examples
    --------
    >>> Line(4)
    Line(length=4)
    """

    length: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "length", count(self.length, "Line length"))


#: Any of Lancer's four patterns.
Pattern = Union[Burst, Blast, Cone, Line]  # noqa: UP007 (a runtime alias for isinstance)


def hexes_across(size: object) -> int:
    """How many hexes across a creature of Lancer ``size`` is: 1/2 and 1 are 1, 2-5 themselves.

    Raises
    ------
    InvalidValueError, InvalidTypeError
        For anything but 1/2 (0.5), 1, 2, 3, 4 or 5.

    Examples
    --------
    >>> [hexes_across(s) for s in (0.5, 1, 2, 3, 4, 5)]
    [1, 1, 2, 3, 4, 5]
    """
    valid = "Lancer sizes are 1/2 (0.5), 1, 2, 3, 4 and 5"
    if isinstance(size, bool) or not isinstance(size, Real):
        raise InvalidTypeError(f"size must be a number; {valid}; got {shown(size)}")
    key = Fraction(size) if math.isfinite(size) else None
    if key not in SIZES:
        raise InvalidValueError(f"size {shown(size)} is not a Lancer size; {valid}")
    return SIZES[key]


def footprint(grid: HexGrid, at: Hex, size: object = 1) -> list[Hex]:
    """The hexes a creature of Lancer ``size`` standing on hex ``at`` fills (on the map or not).

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(6, 6)
    >>> footprint(g, (2, 2), 2), len(footprint(g, (2, 2), 4))
    ([(2, 2), (1, 3), (2, 3)], 12)
    """
    col, row = _hex(at, "at")
    return grid.footprint(col, row, hexes_across(size))


def _space(grid: HexGrid, creature: Any, size: object, field: str) -> list[Hex]:
    """The hexes of a creature given as a Token or as a ``(col, row)`` hex and a Lancer size."""
    if isinstance(creature, Token):
        return hex_footprint(grid, creature)
    col, row = _hex(creature, field)
    return grid.footprint(col, row, hexes_across(size))


def range_between(grid: HexGrid, a: Any, b: Any, *, a_size: object = 1, b_size: object = 1) -> int:
    """The range from creature ``a`` to creature ``b``: the fewest hex steps between their hexes.

    ``a`` and ``b`` are :class:`~aoegrid.Token` s (``Token(col, row,
    size=n)``, ``n`` hexes across) or ``(col, row)`` hexes with a Lancer size
    ``a_size`` / ``b_size``. Creatures side by side are 1 apart.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(12, 8)
    >>> range_between(g, (1, 1), (6, 1)), range_between(g, (1, 1), (6, 1), b_size=3)
    (5, 4)
    """
    hexes_a = np.array(_space(grid, a, a_size, "range_between a"))
    hexes_b = np.array(_space(grid, b, b_size, "range_between b"))
    steps = grid.distance(
        (hexes_a[:, None, 0], hexes_a[:, None, 1]), (hexes_b[None, :, 0], hexes_b[None, :, 1])
    )
    return int(np.min(steps))


def _hex(value: Any, field: str) -> Hex:
    """``value`` as a ``(col, row)`` pair of whole numbers."""
    try:
        col, row = value
    except (TypeError, ValueError):
        raise InvalidTypeError(f"{field} must be a (col, row) hex, got {shown(value)}") from None
    return _whole(col, f"{field} col"), _whole(row, f"{field} row")


def _whole(value: object, field: str) -> int:
    """``value`` as an int (a float with no fraction is one), or an error naming ``field``."""
    if isinstance(value, bool) or not (
        isinstance(value, Integral) or (isinstance(value, float) and value.is_integer())
    ):
        raise InvalidTypeError(f"{field} must be a whole number, got {shown(value)}")
    return int(value)


def _orientation(grid: HexGrid) -> str:
    """``"pointy"`` or ``"flat"``."""
    return "pointy" if grid.layout.endswith("r") else "flat"


def _turn_ccw(q: Any, r: Any, s: Any, steps: int) -> tuple[Any, Any, Any]:
    """Cube offsets turned counter-clockwise on screen by ``steps`` x 60 degrees."""
    for _ in range(steps % 6):
        q, r, s = -s, -q, -r  # one step: E to NE (as HexGrid.rotate)
    return q, r, s


def cone_offsets(length: int, direction: int) -> list[tuple[int, int, int]]:
    """The cube offsets ``(q, r, s)`` from the user's hex that Cone ``length`` covers.

    **The rule.** Turned so that ``direction`` is direction 0 (east on a
    pointy-top grid, cube ``(1, 0, -1)``), an offset is in the cone when
    ``q > r > s`` (its centre lies strictly within 30 degrees of the axis)
    and it is at most ``length`` steps away. The hex at step ``k`` along the
    axis has the hexes up to ``(k - 1) // 2`` steps to each side of it, so the
    rows are 1, 1, 3, 3, 5, 5, ... wide: the cone begins one hex wide, is
    ``length`` long and, for odd ``length``, ``length`` wide at its end (for
    even ``length`` one less: a row across an edge direction has an odd
    number of hexes). ``ceil(length**2 / 2)`` hexes in all.

    **Why.** The Foundry VTT Lancer system (Eranziel/foundryvtt-lancer,
    ``src/module/canvas/weapon-range-template.ts``) draws Cone X as a
    Foundry cone template ``X`` spaces long and 59 degrees wide on hex grids
    (51 on squares), its handle snapped to the centre of the user's hex, the
    user left out of the targets, and Foundry highlights the hexes whose
    centre the template holds. The 59 degrees keep out the hexes whose centre
    lies exactly on the 30-degree lines, which is the strict ``q > r > s``.
    The two differ only where Foundry's length is a Euclidean radius: from
    X = 7 it reaches hexes X + 1 steps away, which "X spaces long" rules out.
    Cones point along the six edge directions: one turned 30 degrees (to a
    corner of the user's hex) has two hexes at step 1, or, with Foundry's 59
    degrees, none, and so cannot "begin 1 space wide".

    Examples
    --------
    >>> cone_offsets(2, 0)
    [(1, 0, -1), (2, 0, -2)]
    >>> [len(cone_offsets(x, 0)) for x in range(1, 8)]
    [1, 2, 5, 8, 13, 18, 25]
    """
    length = count(length, "Cone length")
    out = []
    for q in range(1, length + 1):
        for r in range(-length, length + 1):
            s = -q - r
            if q > r > s >= -length:  # in the wedge, s is the most negative: the distance is -s
                out.append(_turn_ccw(q, r, s, -direction))
    return sorted(out)


def _direction(grid: HexGrid, direction: Any, at: Hex, pattern: Pattern) -> int:
    """``direction`` (0-5, a name, or a hex to aim at) as an index into the six directions."""
    names = DIRECTIONS[_orientation(grid)]
    what = type(pattern).__name__
    valid = f"0-5 or one of {', '.join(n.upper() for n in names)} on this {_orientation(grid)}-top grid"
    if direction is None:
        raise InvalidValueError(f"a {what} needs a direction: {valid}, or a (col, row) hex to aim at")
    if isinstance(direction, str):
        key = direction.strip().lower()
        if key not in names:
            raise InvalidValueError(f"unknown {what} direction {direction!r}; valid: {valid}")
        return names.index(key)
    if isinstance(direction, tuple):
        return _aim(grid, at, _hex(direction, f"{what} direction"), what)
    if isinstance(direction, bool) or not isinstance(direction, Integral):
        raise InvalidTypeError(f"{what} direction must be {valid}, or a (col, row) hex; got {shown(direction)}")
    if not 0 <= direction <= 5:
        raise InvalidValueError(f"{what} direction must be {valid}, or a (col, row) hex; got {shown(direction)}")
    return int(direction)


def _aim(grid: HexGrid, at: Hex, toward: Hex, what: str) -> int:
    """The direction whose cone holds hex ``toward``, or an error when none does."""
    q0, r0, s0 = grid.to_cube(*at)
    q1, r1, s1 = grid.to_cube(*toward)
    for d in range(6):
        q, r, s = _turn_ccw(q1 - q0, r1 - r0, s1 - s0, d)
        if q > r > s:
            return d
    raise InvalidValueError(
        f"{what} direction {toward} is on a line 30 degrees between two directions from {at} (or is it): "
        "aim at a hex inside one direction's cone, or give the direction (0-5 or its name)"
    )


@dataclass(frozen=True, eq=False)
class LancerArea:
    """The hexes a Lancer pattern covers; what :func:`area` returns.

    Attributes
    ----------
    pattern : Burst, Blast, Cone or Line
    grid : HexGrid
    battlemap : BattleMap or None
        The map whose walls cut the area, if one was given.
    at : (col, row)
        The user's hex (Burst, Cone, Line) or the blast's hex.
    user_hexes : tuple of (col, row)
        The hexes the user fills (empty for a Blast): left out of Cones and
        Lines, and their creature out of :meth:`targets` except for Blasts.
    direction : int or None
        Cones and Lines: the index into :data:`DIRECTIONS` of the direction
        taken, or None for a Line aimed through a hex off the six directions.
    center : (x, y)
        The map point line of effect and cover are drawn from: the blast
        hex's centre, the centre of a bursting user's hexes
        (:meth:`HexGrid.footprint_center <aoegrid.HexGrid.footprint_center>`),
        the user's hex's centre for Cones and Lines.
    mask : bool array (height, width)
        ``mask[row, col]``: the hex is in the area.
    """

    pattern: Pattern
    grid: HexGrid
    battlemap: BattleMapCore | None
    at: Hex
    user_hexes: tuple[Hex, ...]
    direction: int | None
    center: tuple[float, float]
    mask: BoolArray

    @property
    def hexes(self) -> list[Hex]:
        """The ``(col, row)`` hexes in the area, row by row."""
        rows, cols = np.nonzero(self.mask)
        return [(int(c), int(r)) for r, c in zip(rows, cols, strict=True)]

    def __len__(self) -> int:
        return int(self.mask.sum())

    def __contains__(self, hex: object) -> bool:
        try:
            col, row = hex  # type: ignore[misc]
            on = bool(self.grid.contains(col, row))
        except (TypeError, ValueError):  # not a (col, row) pair of whole numbers
            return False
        return on and bool(self.mask[row, col])

    def __repr__(self) -> str:
        return f"LancerArea({self.pattern!r}, at={self.at}, hexes={len(self)})"

    def targets(self, tokens: Iterable[Token] | None = None) -> list[Token]:
        """The creatures with a hex in the area, in the order given (the map's tokens by default).

        The user (the token filling any of ``user_hexes``) is left out
        of a Burst ("the user or target is not affected") and of Cones and
        Lines, as the Foundry Lancer system ignores the template's creator.

        Examples
        --------
        >>> import aoegrid as ag
        >>> g = ag.HexGrid(8, 8)
        >>> me, foe = ag.Token(3, 3, size=2, name="me"), ag.Token(5, 4, name="foe")
        >>> [t.name for t in area(Burst(1), at=(3, 3), on=g, size=2).targets([me, foe])]
        ['foe']
        """
        if tokens is None:
            tokens = [] if self.battlemap is None else self.battlemap.tokens
        user = set(self.user_hexes)
        out = []
        for token in tokens:
            if not isinstance(token, Token):
                raise InvalidTypeError(f"targets takes Tokens, got {shown(token)}")
            hexes = hex_footprint(self.grid, token)
            if user.intersection(hexes):
                continue
            if any(h in self for h in hexes):
                out.append(token)
        return out

    def picture(self) -> str:
        """The area as text: ``#`` in, ``o`` the user's hexes left out, ``.`` the rest.

        The shoved rows of a pointy-top grid are indented by half a hex; a
        flat-top grid's rows are printed as they are indexed (its shoved
        columns stand half a hex lower than drawn).
        """
        shoved = 1 if self.grid.layout.startswith("odd") else 0
        pointy = _orientation(self.grid) == "pointy"
        chars = np.where(self.mask, "#", ".")
        for c, r in self.user_hexes:
            if self.grid.contains(c, r) and not self.mask[r, c]:
                chars[r, c] = "o"
        lines = []
        for row, cells in enumerate(chars):
            pad = " " if pointy and row % 2 == shoved else ""
            lines.append(pad + " ".join(cells))
        return "\n".join(lines)


def area(
    pattern: Pattern,
    at: Any,
    on: HexGrid | BattleMapCore,
    *,
    user: Any = None,
    size: object = 1,
    direction: Any = None,
    range: int | None = None,
) -> LancerArea:
    """The hexes Lancer pattern ``pattern`` covers.

    Parameters
    ----------
    pattern : Burst, Blast, Cone or Line
    at : (col, row)
        Burst: the hex the user stands on. Blast: the blast's hex. Cone and
        Line: the hex they are drawn from, one of the user's (for a creature
        bigger than one hex, the one on the side they leave from). It must be
        on the map.
    on : HexGrid or BattleMap
        A BattleMap must be on a HexGrid; its walls cut the area (see the
        module) and its tokens are :meth:`LancerArea.targets`' default.
    user : (col, row) or Token, optional
        Cone and Line: the hex the user stands on (``at`` by default), whose
        :func:`footprint` of ``size`` must hold ``at``. Blast: the creature
        (a Token) placing it, which must see the blast's hex (a straight line
        from its footprint's centre or one of its hexes' centres to the
        blast hex's centre crossing no wall blocking sight) and have it in
        ``range``.
    size : {0.5, 1, 2, 3, 4, 5}
        The user's Lancer size: a Burst spreads from all its hexes
        (:func:`footprint` at ``at``); Cones and Lines leave them out. Not
        for a Blast, which has no user in its area.
    direction : int, str or (col, row)
        Cones and Lines: 0-5 (clockwise from the first neighbour at or
        clockwise of due east), a name (``"E"``, ``"SE"``, ``"SW"``, ``"W"``,
        ``"NW"``, ``"NE"`` on pointy-top grids, ``"SE"``, ``"S"``, ``"SW"``,
        ``"NW"``, ``"N"``, ``"NE"`` on flat-top), or a hex to aim at: a Cone
        takes the direction whose cone holds that hex, a Line runs straight
        through its centre (any direction). None for Bursts and Blasts.
    range : int, optional
        A Blast's range in hexes, counted from ``user`` by
        :func:`range_between`.

    Returns
    -------
    LancerArea

    Raises
    ------
    InvalidTypeError, InvalidValueError
        For a bad argument; the message names it.
    OffGridError
        When ``at`` is off the map.
    IllegalOriginError
        When a Blast's hex is out of its user's ``range`` or sight.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(7, 5)
    >>> print(area(Burst(1), at=(3, 2), on=g).picture())
    . . . . . . .
     . . # # . . .
    . . # # # . .
     . . # # . . .
    . . . . . . .
    >>> print(area(Line(3), at=(1, 2), on=g, direction=(4, 0)).picture())
    . . . . . . .
     . . # # . . .
    . o # . . . .
     . . . . . . .
    . . . . . . .
    >>> f = ag.HexGrid(5, 5, orientation="flat")   # odd columns stand half a hex lower
    >>> print(area(Cone(3), at=(2, 4), on=f, direction="N").picture())
    . . . . .
    . # # # .
    . . # . .
    . . # . .
    . . o . .
    """
    if not isinstance(pattern, (Burst, Blast, Cone, Line)):
        raise InvalidTypeError(f"pattern must be a lancer Burst, Blast, Cone or Line, got {shown(pattern)}")
    if isinstance(on, BattleMapCore):
        bmap, grid = on, on.grid
    else:
        bmap, grid = None, on
    if not isinstance(grid, HexGrid):
        raise InvalidTypeError(f"on must be a HexGrid or a BattleMap on one, got {shown(grid)}")
    col, row = _hex(at, "at")
    if not grid.contains(col, row):
        raise OffGridError(f"at {(col, row)} is off the {grid.width} x {grid.height} hex map")
    n = hexes_across(size)
    rows, cols = np.indices(grid.shape)
    d = None
    if user is not None and isinstance(pattern, Burst):
        raise InvalidValueError(
            f"a Burst takes no user hex: give its user's hex as at (and its size as size); got user={shown(user)}"
        )
    if range is not None and not isinstance(pattern, Blast):
        raise InvalidValueError(f"range= is a Blast's: a {type(pattern).__name__} starts at its user")
    if isinstance(pattern, Blast):
        if n != 1:
            raise InvalidValueError(f"a Blast is drawn round a hex, not a creature: size must be 1, got {shown(size)}")
        _no_direction(direction, pattern)
        _check_blast(grid, bmap, (col, row), user, range)
        hexes_of_user: list[Hex] = []
        mask = grid.hexes_within((col, row), pattern.radius)
        center = grid.center(col, row)
    elif isinstance(pattern, Burst):
        _no_direction(direction, pattern)
        hexes_of_user = grid.footprint(col, row, n)
        steps = np.min([grid.distance(h, (cols, rows)) for h in hexes_of_user], axis=0)
        mask = steps <= pattern.radius
        center = grid.footprint_center(col, row, n)
    else:
        hexes_of_user = grid.footprint(*_hex((col, row) if user is None else user, "user"), n)
        if (col, row) not in hexes_of_user:
            raise InvalidValueError(
                f"a {type(pattern).__name__} is drawn from one of its user's hexes: at {(col, row)} is not one "
                f"of the size {shown(size)} user's at {user}: {hexes_of_user}"
            )
        if isinstance(pattern, Line) and isinstance(direction, tuple):
            far, d = _far_end(grid, (col, row), _hex(direction, "Line direction"), pattern.length)
        else:
            d = _direction(grid, direction, (col, row), pattern)
            step = np.array(_STEPS[d]) * (pattern.length if isinstance(pattern, Line) else 1)
            far = tuple(np.array(grid.to_cube(col, row)) + step)
        if isinstance(pattern, Cone):
            cube = np.array(cone_offsets(pattern.length, d)) + grid.to_cube(col, row)
            hexes = list(zip(*grid.from_cube(*cube.T), strict=True))
        else:
            hexes = grid.line((col, row), grid.from_cube(*far))[1 : pattern.length + 1]
        mask = np.zeros(grid.shape, dtype=bool)
        for c, r in hexes:
            if grid.contains(c, r):
                mask[r, c] = True
        for c, r in hexes_of_user:
            if grid.contains(c, r):
                mask[r, c] = False
        center = grid.center(col, row)
    if bmap is not None and mask.any():
        rs, cs = np.nonzero(mask)
        seen = visible_fractions(bmap, center, cs, rs, "effect") > _SEEN
        mask[rs[~seen], cs[~seen]] = False
    return LancerArea(
        pattern, grid, bmap, (col, row), tuple(hexes_of_user), d, (float(center[0]), float(center[1])), mask
    )


def _check_blast(grid: HexGrid, bmap: BattleMapCore | None, at: Hex, user: Any, range: int | None) -> None:
    """Refuse a Blast's hex out of its user's range (hex steps) or sight."""
    if user is None:
        if range is not None:
            raise InvalidValueError("a Blast's range= is counted from its user: pass user= (a Token) too")
        return
    if not isinstance(user, Token):
        raise InvalidTypeError(f"a Blast's user must be an aoegrid.Token, got {shown(user)}")
    if range is not None:
        limit = _whole(range, "range")
        steps = range_between(grid, user, at)
        if steps > limit:
            raise IllegalOriginError(
                f"the blast's hex {at} is {steps} hexes from {user.label}, beyond its range {limit}", "range"
            )
    if bmap is None:
        return
    hexes = hex_footprint(grid, user)
    points = [grid.footprint_center(user.x, user.y, user.footprint[0]), *(grid.center(c, r) for c, r in hexes)]
    tx, ty = grid.center(*at)
    if not any(bool(view(bmap, p, "sight").sees(np.array(tx), np.array(ty))) for p in dict.fromkeys(points)):
        raise IllegalOriginError(f"{user.label} cannot see the blast's hex {at}: a wall blocks every line", "sight")


def _far_end(grid: HexGrid, at: Hex, toward: Hex, length: int) -> tuple[tuple[int, int, int], int | None]:
    """The cube hex a Line through ``toward`` ends its ``grid.line`` at, and its direction (or None).

    The far end is ``at`` plus a whole multiple of the step to ``toward``, at
    least ``length`` away, so the line runs through ``toward``'s centre and
    its first ``length`` hexes are the same however far it is drawn.
    """
    if toward == at:
        raise InvalidValueError(f"a Line aimed at {toward} must aim away from its user's hex {at}")
    q0, r0, s0 = grid.to_cube(*at)
    q1, r1, s1 = grid.to_cube(*toward)
    gap = grid.distance(at, toward)
    k = -(-length // gap)
    step = (q1 - q0, r1 - r0, s1 - s0)
    far = (q0 + k * step[0], r0 + k * step[1], s0 + k * step[2])
    d = next((i for i, e in enumerate(_STEPS) if step == tuple(gap * v for v in e)), None)
    return far, d


def _no_direction(direction: Any, pattern: Pattern) -> None:
    if direction is not None:
        raise InvalidValueError(
            f"a {type(pattern).__name__} spreads every way and takes no direction, got {shown(direction)}"
        )
