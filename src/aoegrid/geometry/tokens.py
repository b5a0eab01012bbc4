"""Creatures on the grid and the squares they occupy."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import count, positive, real

#: Squares across a creature's space, by size category.
SIZES: dict[str, int] = {
    "tiny": 1,
    "small": 1,
    "medium": 1,
    "large": 2,
    "huge": 3,
    "gargantuan": 4,
    "colossal": 6,
}


#: Tags that put a creature on one side or the other of a fight (Foundry's
#: token dispositions are read as ``"friendly"`` and ``"hostile"`` tags).
FRIENDLY_TAGS: frozenset[str] = frozenset({"ally", "friendly"})
HOSTILE_TAGS: frozenset[str] = frozenset({"enemy", "hostile"})


def side(token: Token) -> int:
    """+1 for a creature tagged friendly (:data:`FRIENDLY_TAGS`), -1 hostile, 0 neither or both.

    Examples
    --------
    >>> side(Token(0, 0, tags={"ally"})), side(Token(0, 0, tags={"hostile"})), side(Token(0, 0))
    (1, -1, 0)
    """
    friendly, hostile_ = bool(token.tags & FRIENDLY_TAGS), bool(token.tags & HOSTILE_TAGS)
    return int(friendly) - int(hostile_)


def hostile(a: Token, b: Token) -> bool:
    """Whether ``a`` and ``b`` are on opposite sides: one tagged friendly, the other hostile.

    A creature with neither tag (a bystander, a text map's letter) is hostile
    to no one, and no one to it.

    Examples
    --------
    >>> hostile(Token(0, 0, tags={"ally"}), Token(1, 0, tags={"enemy"}))
    True
    >>> hostile(Token(0, 0, tags={"ally"}), Token(1, 0, tags={"friendly"})), hostile(Token(0, 0), Token(1, 0))
    (False, False)
    """
    return side(a) * side(b) < 0


def _whole(value: object, field: str) -> int:
    v = real(value, field)
    if not v.is_integer():
        raise InvalidValueError(f"{field} must be a whole number of squares, got {value!r}")
    return int(v)


@dataclass(frozen=True, slots=True)
class Space:
    """A rectangle of squares: ``width`` x ``height`` squares from square (x, y).

    It spans ``[x, x + width] x [y, y + height]`` in grid units.

    Examples
    --------
    >>> Space(3, 4, 2, 2).center
    (4.0, 5.0)
    """

    x: int
    y: int
    width: int = 1
    height: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "x", _whole(self.x, "Space x"))
        object.__setattr__(self, "y", _whole(self.y, "Space y"))
        object.__setattr__(self, "width", count(self.width, "Space width"))
        object.__setattr__(self, "height", count(self.height, "Space height"))

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` in grid units."""
        return (float(self.x), float(self.y), float(self.x + self.width), float(self.y + self.height))

    @property
    def center(self) -> tuple[float, float]:
        """The centre of the space in grid units."""
        return (self.x + self.width / 2.0, self.y + self.height / 2.0)

    @property
    def squares(self) -> list[tuple[int, int]]:
        """The squares of the space, sorted by y, then x."""
        return [
            (x, y)
            for y in range(self.y, self.y + self.height)
            for x in range(self.x, self.x + self.width)
        ]


@dataclass(frozen=True, slots=True, repr=False)
class Token:
    """A creature whose space's top-left square is (x, y).

    Parameters
    ----------
    x, y : int
        The top-left square of the creature's space.
    size : str, int or (int, int)
        A size category (``"tiny"``, ``"small"``, ``"medium"``, ``"large"``,
        ``"huge"``, ``"gargantuan"``, ``"colossal"``), a number of squares
        across, or a custom ``(width, height)`` footprint in squares. Tiny and
        small creatures take one square, as medium ones do.
    name : str, optional
        A label.
    elevation : float
        Height of the creature's lowest point above the ground, in the grid's
        unit (a flyer, a creature on a ledge).
    tags : iterable of str
        Free labels for target filters (``"enemy"``, ``"living"``,
        ``"hostile"``, ``"incapacitated"``, ``"willing"``...).
    height : float, optional
        How tall the creature stands, in the grid's unit: it fills the prism
        from ``elevation`` to ``elevation + height`` above its space. ``None``
        (default): as tall as its space is wide (5 ft for a Medium creature,
        10 ft for a Large one on a 5-ft grid; :meth:`prism`).

    Examples
    --------
    >>> Token(5, 5, size="large").space
    Space(x=5, y=5, width=2, height=2)
    >>> Token(0, 0, size=(3, 1), tags=["wagon"]).space.squares
    [(0, 0), (1, 0), (2, 0)]
    >>> Token(0, 0, name="giraffe", height=15)
    Token(x=0, y=0, size='medium', name='giraffe', elevation=0.0, tags=frozenset(), height=15.0)
    """

    x: int
    y: int
    size: str | int | tuple[int, int] = "medium"
    name: str | None = None
    elevation: float = 0.0
    tags: frozenset[str] = frozenset()
    height: float | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "x", _whole(self.x, "Token x"))
        set_(self, "y", _whole(self.y, "Token y"))
        size = self.size
        if isinstance(size, str):
            key = size.strip().lower()
            if key not in SIZES:
                raise InvalidValueError(
                    f"unknown Token size {size!r}; valid sizes are "
                    f"{', '.join(map(repr, SIZES))}, a number of squares, or (width, height)"
                )
            set_(self, "size", key)
        elif isinstance(size, tuple):
            if len(size) != 2:
                raise InvalidValueError(f"a Token footprint is (width, height) in squares, got {size!r}")
            set_(self, "size", (count(size[0], "Token footprint width"), count(size[1], "Token footprint height")))
        elif isinstance(size, bool) or not isinstance(size, int):
            raise InvalidTypeError(
                f"Token size must be a size name, a number of squares or (width, height), got {size!r}"
            )
        else:
            count(size, "Token size")
        if self.name is not None and not isinstance(self.name, str):
            raise InvalidTypeError(f"Token name must be a string, got {self.name!r}")
        set_(self, "elevation", real(self.elevation, "Token elevation"))
        tags = self.tags
        if isinstance(tags, str) or not isinstance(tags, (set, frozenset, list, tuple)):
            raise InvalidTypeError(f"Token tags must be a collection of strings, got {tags!r}")
        if not all(isinstance(t, str) for t in tags):
            raise InvalidTypeError(f"Token tags must be strings, got {sorted(map(repr, tags))}")
        set_(self, "tags", frozenset(tags))
        if self.height is not None:
            set_(self, "height", positive(self.height, "Token height"))

    def __repr__(self) -> str:
        tall = "" if self.height is None else f", height={self.height!r}"
        return (f"Token(x={self.x!r}, y={self.y!r}, size={self.size!r}, name={self.name!r}, "
                f"elevation={self.elevation!r}, tags={self.tags!r}{tall})")

    def prism(self, square: float) -> tuple[float, float]:
        """The heights the creature fills, ``(elevation, elevation + height)``, in the grid's unit.

        ``square`` is the grid's square (5 on a 5-ft grid): a creature with no
        ``height`` stands as tall as its space is wide.

        Examples
        --------
        >>> Token(0, 0, size="large", elevation=10).prism(5.0), Token(0, 0, height=2.5).prism(5.0)
        ((10.0, 20.0), (0.0, 2.5))
        """
        tall = self.footprint[0] * square if self.height is None else self.height
        return self.elevation, self.elevation + tall

    @property
    def footprint(self) -> tuple[int, int]:
        """``(width, height)`` of the creature's space, in squares."""
        if isinstance(self.size, tuple):
            return self.size
        n = SIZES[self.size] if isinstance(self.size, str) else self.size
        return (n, n)

    @property
    def space(self) -> Space:
        """The rectangle of squares the creature occupies."""
        w, h = self.footprint
        return Space(self.x, self.y, w, h)

    @property
    def label(self) -> str:
        """The name, or the position when the token has none."""
        return self.name if self.name is not None else f"token at ({self.x}, {self.y})"

    def moved_to(self, x: int, y: int) -> Token:
        """The same creature with its top-left square at (x, y).

        Examples
        --------
        >>> Token(2, 3, name="orc").moved_to(7, 1)
        Token(x=7, y=1, size='medium', name='orc', elevation=0.0, tags=frozenset())
        """
        return replace(self, x=x, y=y)

    def shifted(self, dx: int, dy: int) -> Token:
        """The same creature ``dx`` squares right and ``dy`` squares down.

        Examples
        --------
        >>> Token(2, 3, name="orc").shifted(-1, 2).space
        Space(x=1, y=5, width=1, height=1)
        """
        return replace(self, x=self.x + _whole(dx, "Token shift dx"), y=self.y + _whole(dy, "Token shift dy"))


#: Who a rule applies to: tags (one str, or a set), a predicate on tokens, or the tokens themselves.
Selector = str | Iterable[str] | Callable[["Token"], bool] | Iterable["Token"] | None


def token_selector(value: Selector, field: str) -> Callable[[Token], bool]:
    """``value`` as a predicate: tags (a set of str, or one str), a callable, or tokens; None selects no one.

    Examples
    --------
    >>> orc = Token(0, 0, tags={"enemy"})
    >>> token_selector("enemy", "hit")(orc), token_selector([orc], "hit")(Token(1, 1)), token_selector(None, "hit")(orc)
    (True, False, False)
    """
    if value is None:
        return lambda t: False
    if isinstance(value, str):
        return lambda t: value in t.tags
    if callable(value):
        return lambda t: bool(value(t))
    try:
        items = list(value)
    except TypeError:
        raise InvalidTypeError(
            f"{field} must be tags (a set of str), a predicate on tokens, or tokens; got {value!r}"
        ) from None
    if all(isinstance(v, str) for v in items):
        tags = frozenset(items)
        return lambda t: bool(t.tags & tags)
    if all(isinstance(v, Token) for v in items):
        return lambda t: any(t is v or t == v for v in items)
    raise InvalidTypeError(
        f"{field} must be tags (a set of str), a predicate on tokens, or tokens, not a mixture; got {value!r}"
    )
