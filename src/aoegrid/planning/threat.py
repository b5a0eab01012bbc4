"""Threat maps: where on a map some caster can reach a creature, after moving.

:func:`threat_map` says, for every square, how many casters can reach a
creature standing there: from some square the caster can move to
(:func:`aoegrid.reachable`), some legal placement of the effect at some
height (:func:`aoegrid.legal_origins`; for cones and lines every direction
and pitch from the caster) reaches the creature, as :meth:`Area.tokens`
counts it (tests hold this against every such area built with
:func:`aoegrid.area` on random maps with heights, flyers and floors), found
much faster:

* each placement is looked at once, however many of the casters' standing
  squares allow it;
* where no wall blocking effect comes near a placement, its area is the
  shape's open-field stencil: all such placements are stamped at once, the
  set of them grown by the stencil (one shifted OR a run of a stencil row);
* the others are built with :func:`aoegrid.area`, those whose stencil holds
  the most squares not reached yet first, and not at all once every square
  of their stencil is reached (walls only take squares away).

A creature is reached wherever a square of its space is in the area when its
height spans the origin's, the shape is not aimed up or down and no wall
shorter than the solid's heights nor floor within them is on the map (the
common case: the ground, walls to the sky); then the area's squares are
stamped. Otherwise every placement is built, and each square of its area not
reached yet is tested as :meth:`Area.tokens` tests one square of the
creature there.

Each kind of placement (intersections, square centres, a caster's space
aimed one way) is a lattice of its own, one square apart, so one stencil
serves all its positions. A point of origin the caster cannot see behind a
wall (SW5e) comes into being on the wall's near side, off every lattice:
each is built where it comes into being, unless its stencil, less the
squares that wall hides from it, holds no square not reached yet.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from aoegrid.area import Area, area
from aoegrid.board.battlemap import BattleMapCore as BattleMap
from aoegrid.board.visibility import OriginOnWallError
from aoegrid.board.walls import Channel
from aoegrid.effects.movement import reachable
from aoegrid.effects.ranges import (
    _PARTS,
    _STEP,
    Need,
    Range,
    as_range,
    caster_space,
    check_shape_range,
    legal_origins,
    origin_lattice,
)
from aoegrid.effects.targets import Membership, _in_area
from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import real
from aoegrid.geometry.directions import parse_direction
from aoegrid.geometry.grid import Grid
from aoegrid.geometry.options import Mode, parse_option
from aoegrid.geometry.rules import Rules, resolve_rules
from aoegrid.geometry.shapes import Cone, Cylinder, Line, Shape
from aoegrid.geometry.stencils import _bounds, _Origin, _stencil_on_grid, pitched, shape_extent
from aoegrid.geometry.tokens import Space, Token
from aoegrid.planning.tactics import DIRECTIONS, Selector, _heights, _selector

BoolArray = NDArray[np.bool_]
FloatArray = NDArray[np.float64]
Square = tuple[int, int]

#: How close to a square (in squares) a wall counts as meeting it.
_NEAR = 1e-6


@dataclass(frozen=True, slots=True, eq=False)
class Threat:
    """Where the casters can reach a creature, square by square.

    A square counts for a caster when a creature of :attr:`size` whose space
    has its top-left square there (at the ``creature_elevation`` asked) is
    reached by the area of some placement the caster can make from some
    square it can move to, as :meth:`Area.tokens` counts it. On the ground,
    with ground origins and walls to the sky, that is the union of those
    areas' squares, grown by the creature's space: for a one-square
    creature, the union itself.

    Attributes
    ----------
    count : (height, width) int array
        Indexed ``[y, x]``: how many casters reach a creature there; 0 where
        its space would leave the map.
    by_caster : mapping of str to (height, width) bool array
        Each caster's squares, by its label (:attr:`aoegrid.Token.label`), in
        the order the casters were given.
    spared : (height, width) float array or None
        With ``spare=``: the fewest spared creatures any placement reaching a
        creature there also reaches, over every caster and placement
        (whatever ``max_spared_hit``); ``inf`` where none reaches it. None
        without ``spare=``.
    max_spared_hit : int or None
        Placements reaching more spared creatures than this do not count in
        :attr:`count` and :attr:`by_caster` (None: every placement counts).
    casters : tuple of Token
        The casters where they stand (a Space given is a token of its size).
    moves : tuple of (height, width) bool arrays
        Where each caster's space may end its move (its top-left square).
    on : BattleMap
    size : (width, height)
        The footprint of the creature reached, in squares.
    """

    count: NDArray[np.int64]
    by_caster: Mapping[str, BoolArray]
    spared: FloatArray | None
    max_spared_hit: int | None
    casters: tuple[Token, ...]
    moves: tuple[BoolArray, ...]
    on: BattleMap
    size: tuple[int, int]

    @property
    def mask(self) -> BoolArray:
        """``count > 0``: where at least one caster reaches a creature."""
        return self.count > 0


@dataclass(frozen=True, slots=True)
class _Stencil:
    """The squares a placement covers in open field: ``(i + dx0 + c, j + dy0 + r)`` for each ``k[r, c]``."""

    dx0: int
    dy0: int
    k: BoolArray

    def window(self, i: int, j: int, shape: tuple[int, int]) -> tuple[Any, BoolArray] | None:
        """The stencil of position ``(i, j)`` on an array of ``shape``: its slices there and its part inside."""
        kh, kw = self.k.shape
        cut = _overlap(shape, (kh, kw), j + self.dy0, i + self.dx0)
        return None if cut is None else (cut[0], self.k[cut[1]])

    def reach(self, space: Space) -> tuple[BoolArray, int, int]:
        """The positions whose stencil meets ``space``: a block, and the row and column of its top-left."""
        kh, kw = self.k.shape
        block = _grown(np.ones((space.height, space.width), dtype=bool), self.k[::-1, ::-1])
        return block, space.y - self.dy0 - kh + 1, space.x - self.dx0 - kw + 1


@dataclass(eq=False)
class _Caster:
    """One caster: who, where it may stand, whom its placements spare, and what it reaches."""

    token: Token
    stands: BoolArray
    #: The spared creatures it counts where the map has them (itself left out: it counts where it stands).
    others: list[Token]
    #: Whether it is one of the map's creatures to spare: then it counts where it ends its move.
    selfish: bool
    #: Per square, the fewest spared creatures a placement of its reaching the square also reaches.
    fewest: FloatArray


@dataclass(eq=False)
class _Family:
    """Placements one open-field stencil serves: positions on a lattice, one square apart.

    ``legal[c]`` marks the positions caster ``c`` may choose (from some
    stand). For casters that count themselves (``selfish``), ``free[c]``
    marks positions chosen from some stand its open-field stencil misses,
    and ``mine[c]`` lists, per other position, the stands whose space it
    meets; ``own`` says the position is the stand itself (a cone's caster).
    ``box`` holds, as offsets from a position (inclusive), the squares its
    area and its origin lie in: a wall elsewhere changes nothing.
    ``todo[c]`` marks the positions of caster ``c`` its stencil cannot
    stand for: they are built.
    """

    stencil: _Stencil
    box: tuple[int, int, int, int]
    shape: tuple[int, int]
    build: Callable[[int, int], Area | None]
    #: The origin's height.
    z: float
    #: Whether a creature is reached wherever its space meets the stencil's area (:func:`_whole`).
    whole: bool
    own: bool = False
    legal: dict[int, BoolArray] = field(default_factory=dict)
    free: dict[int, BoolArray] = field(default_factory=dict)
    mine: dict[int, dict[Square, list[Square]]] = field(default_factory=dict)
    #: Per caster, the positions to build (a wall near, or a height to look at).
    todo: dict[int, BoolArray] = field(default_factory=dict)

    def stands_of(self, c: int, p: Square) -> list[Square]:
        """The stands caster ``c`` chooses ``p`` from whose space its stencil meets."""
        return [p] if self.own else self.mine[c].get(p, [])


def threat_map(
    shape: Shape,
    *,
    casters: Iterable[Token | Space | str],
    range: Range | float | None = None,
    move: float | Iterable[float] | None = None,
    on: BattleMap,
    rules: Rules | str = "starfinder",
    mode: Mode | str = "burst",
    at: str | None = None,
    size: str | int | tuple[int, int] = "medium",
    spare: Selector = None,
    max_spared_hit: int | None = 0,
    directions: Iterable[float | str] | None = None,
    pitches: Iterable[float] | None = None,
    need: Need | str | None = None,
    elevation: float | Iterable[float] = 0.0,
    creature_elevation: float = 0.0,
) -> Threat:
    """Where is it safe: how many casters can reach a creature in each square.

    For each caster, every square its space can end its move on
    (:func:`aoegrid.reachable` with ``move``; without it, where it stands;
    it keeps its elevation as it moves), every legal point of origin from
    there at each height of ``elevation`` (:func:`aoegrid.legal_origins`
    with ``elevation=``: range measured in three dimensions from the
    caster's prism, line of effect or sight, walls), or for cones and lines
    every direction and pitch from its space (at each height), gives an
    area (:func:`aoegrid.area` with ``elevation=``). A creature of ``size``
    standing in a square, at ``creature_elevation`` (the ground by
    default), is reached when the area reaches it as :meth:`Area.tokens`
    counts it: a square of its space in the area whose column the solid
    meets within the creature's prism, and a line of effect in three
    dimensions to a test point of it there (walls with heights, floors);
    walls and total cover as the area counts them. On the ground, with
    ground origins and walls to the sky, that is a square of its space in
    the area (so for a one-square creature the threat is the union of the
    areas' squares). Under SW5e a point the caster cannot see behind a wall
    counts where it comes into being, on the wall's near side.

    Parameters
    ----------
    shape : Shape
    casters : iterable of Token, Space or str
        The casters: tokens, spaces, or labels of the map's tokens. At
        least one; labels must differ.
    range : Range or float, optional
        How far from the caster the origin may be (None: anywhere).
    move : float or iterable of float, optional
        Movement before casting, in the grid's unit (0 or more; one for all,
        or one per caster). None: the casters stay where they are.
    on : BattleMap
    rules, mode
        As for :func:`aoegrid.area`.
    at : {None, "caster"}
        ``"caster"`` centres the area on the caster's space wherever it
        ends its move (an aura; ``mode="emanation"``) instead of placing it
        at a point of origin; ``range`` is then not taken. Cones and lines
        always start at their caster.
    size : str, int or (width, height)
        The creature reached: a size name or footprint, as :class:`Token`
        takes (default one square).
    spare : tags, predicate or tokens, optional
        The creatures the casters would rather not hit (their allies), as
        :func:`aoegrid.best_placements` takes ``avoid``: the map's tokens,
        each where it stands, but a caster, counted where it ends its move
        (heights and cover as :meth:`Area.tokens` counts them).
    max_spared_hit : int or None
        With ``spare``: placements reaching more spared creatures than this
        do not count (default 0: none); None counts every placement.
    directions : iterable of degrees or compass names, optional
        For cones and lines: the directions tried (default every 5 degrees).
    pitches : iterable of degrees, optional
        For cones and lines: the pitches tried with every direction, degrees
        above the horizontal (default the shape's own pitch).
    need : {"effect", "sight", "both"}, optional
        What the caster needs to the origin (see :func:`aoegrid.legal_origins`).
    elevation : float or iterable of float
        The origin's height, in the grid's unit (default 0, the ground), or
        the heights tried, each for every origin (as
        :func:`aoegrid.best_placements` takes it). Cones, lines and auras
        start from the caster's space at each height.
    creature_elevation : float
        The height the creature reached stands at, in the grid's unit
        (default 0: threat to flyers at 30 ft is ``creature_elevation=30``);
        its prism rises from there by its height, as :class:`Token` has it.

    Returns
    -------
    Threat
        ``.count`` per square, ``.mask``, ``.by_caster``; ``.spared`` with
        ``spare``.

    Raises
    ------
    InvalidTypeError
        ``on`` not a BattleMap; a caster neither a Token, a Space nor a
        label; ``spare`` neither tags, a predicate nor tokens;
        ``directions`` or ``pitches`` not a collection; ``elevation``
        neither a number nor a collection of numbers;
        ``creature_elevation`` not a number.
    InvalidValueError
        No casters, or two with one label; a negative ``move``, or as many
        moves as casters not given; a bad ``at``, ``size`` or
        ``max_spared_hit``; ``directions`` or ``pitches`` for a shape
        placed at a point, an empty one, or a pitch outside -90..90; an
        empty ``elevation``, or a height not finite; ``range`` with
        ``at="caster"``.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(9, 5), walls=[ag.Wall((4, 0), (4, 4))])
    >>> t = ag.threat_map(ag.Sphere(5), casters=[ag.Token(1, 2, name="a"), ag.Token(7, 2, name="b")],
    ...                   range=10, on=m)
    >>> print(t.count)                     # each side of the wall is the one caster's; its end, both's
    [[1 1 1 1 1 1 1 1 1]
     [1 1 1 1 1 1 1 1 1]
     [1 1 1 1 1 1 1 1 1]
     [1 1 1 1 2 1 1 1 1]
     [1 1 1 1 2 1 1 1 1]]
    >>> t.by_caster["a"][3].astype(int)     # round the wall's end
    array([1, 1, 1, 1, 1, 0, 0, 0, 0])
    >>> bat = ag.Token(1, 2, name="bat", elevation=20)          # flying at 20 ft over a 10-ft wall
    >>> low = ag.BattleMap(ag.Grid(9, 5), walls=[ag.Wall((4, 0), (4, 5), top=10)])
    >>> ag.threat_map(ag.Sphere(20), casters=[bat], range=10, elevation=20, on=low).count[2]   # origins over it too
    array([1, 1, 1, 1, 1, 1, 1, 0, 0])
    """
    if not isinstance(on, BattleMap):
        raise InvalidTypeError(f"on must be an aoegrid.BattleMap (its walls cut the areas), got {on!r}")
    rules = resolve_rules(rules).for_shape(shape)
    mode = parse_option(Mode, mode, "mode")
    if at not in (None, "caster"):
        raise InvalidValueError(f"at must be None (every legal point of origin) or 'caster' (on its space), got {at!r}")
    footprint = _footprint(size)
    if max_spared_hit is not None and (
        isinstance(max_spared_hit, bool) or not isinstance(max_spared_hit, int) or max_spared_hit < 0
    ):
        raise InvalidValueError(
            f"max_spared_hit must be a whole number, 0 or more, or None for no limit; got {max_spared_hit!r}")
    rng = None if range is None else as_range(range)
    if rng is not None:
        if at == "caster":
            raise InvalidValueError(f"an area at its caster is placed on the caster's space, at no range (got range={range!r})")
        check_shape_range(shape, rng, rules)
    aimed = at == "caster" or isinstance(shape, (Cone, Line))
    turns = _tried(shape, "directions", "direction", directions, DIRECTIONS,
                   lambda d: parse_direction(d, "direction"), "degrees or compass names")
    ups = _tried(shape, "pitches", "pitch", pitches, (getattr(shape, "pitch", 0.0),),
                 lambda p: shape.replace(pitch=p).pitch, "degrees above the horizontal")
    is_spared = _selector(spare, "spare")
    spared = [t for t in on.tokens if is_spared(t)]
    who = _casters(casters, move, on, rules, spared)
    heights = _heights(elevation)
    probe = _probe(size, creature_elevation, on.grid.square)
    if aimed:
        families, moved = _aimed(shape, turns, ups, heights, who, on, rules, mode, probe), np.zeros((0, 6))
    else:
        families, moved = _points(shape, heights, who, on, rules, mode, rng, need, probe)
    walls = _wall_squares(on)
    if isinstance(shape, Cylinder) and rules.cylinder_ignores_walls:
        walls[:] = False
    for fam in families:
        _open_field(fam, who, walls, spared, on.grid.square)
    _walled(families, who, bool(spared), probe)
    _moved(shape, moved, who, on, rules, mode, bool(spared), probe)
    return _result(who, on, footprint, spare is not None, max_spared_hit)


def _probe(size: object, creature_elevation: object, square: float) -> Token:
    """One square of the creature reached, as tall as it is, at ``creature_elevation`` (moved to each square tested)."""
    z = real(creature_elevation, "creature_elevation")
    low, high = Token(0, 0, size=size, elevation=z).prism(square)  # type: ignore[arg-type]
    return Token(0, 0, elevation=low, height=high - low)


def _footprint(size: object) -> tuple[int, int]:
    try:
        return Token(0, 0, size=size).footprint  # type: ignore[arg-type]
    except (InvalidTypeError, InvalidValueError) as e:
        raise InvalidValueError(f"size must be a creature size or footprint, as a Token takes: {e}") from None


def _tried(shape: Shape, name: str, one: str, given: Iterable[Any] | None, every: Iterable[Any],
           parse: Callable[[Any], float], units: str) -> list[float | None]:
    """The directions or pitches (``name``, one a ``one``) a cone or line is tried at: ``given`` (``every``
    by default), each as ``parse`` reads it; ``[None]`` (the shape as it is) for the others."""
    if not isinstance(shape, (Cone, Line)):
        if given is not None:
            raise InvalidValueError(
                f"{name}= is for cones and lines, aimed from their caster; a {type(shape).__name__.lower()} "
                f"keeps its own {one} (got {name}={given!r})")
        return [None]
    if isinstance(given, (str, bytes)) or not isinstance(given, Iterable | None):
        raise InvalidTypeError(f"{name} must be a collection of {units}, got {given!r}")
    out = sorted({parse(v) for v in (every if given is None else given)})
    if not out:
        raise InvalidValueError(f"{name} is empty: give at least one {one} ({units})")
    return list(out)


def _casters(casters: Any, move: Any, on: BattleMap, rules: Rules, spared: list[Token]) -> list[_Caster]:
    """The casters as tokens, with where each may stand and whom it spares."""
    if isinstance(casters, (str, Token, Space)) or not isinstance(casters, Iterable):
        raise InvalidTypeError(f"casters must be a list of Tokens, Spaces or token labels, got {casters!r}")
    tokens, given = [], []  # each caster as a token, and as given (a Space moves as the map's token there)
    for c in casters:
        if isinstance(c, str):
            c = on.token(c)
        elif not isinstance(c, (Token, Space)):
            raise InvalidTypeError(f"a caster must be an aoegrid.Token, a Space or a token's label, got {c!r}")
        caster_space(c, on.grid)
        given.append(c)
        tokens.append(c if isinstance(c, Token) else Token(c.x, c.y, size=(c.width, c.height)))
    if not tokens:
        raise InvalidValueError("casters is empty: give at least one caster")
    labels = [t.label for t in tokens]
    twice = sorted({x for x in labels if labels.count(x) > 1})
    if twice:
        raise InvalidValueError(f"two casters are labelled {twice[0]!r}; give them names to tell them apart")
    budgets = _budgets(move, len(tokens))
    out = []
    g = on.grid
    for token, mover, budget in zip(tokens, given, budgets):
        if budget is None:
            stands = np.zeros(g.shape, dtype=bool)
            stands[token.y, token.x] = True
        else:
            stands = np.array(reachable(mover, budget, on=on, rules=rules).mask)
        mine = [i for i, t in enumerate(spared) if t is token or t == token][:1]
        others = [t for i, t in enumerate(spared) if i not in mine]
        out.append(_Caster(token, stands, others, bool(mine), np.full(g.shape, np.inf)))
    return out


def _budgets(move: Any, n: int) -> list[float | None]:
    """``move`` as one budget per caster (None: no move)."""
    if move is None:
        return [None] * n
    many = isinstance(move, Iterable) and not isinstance(move, str)
    values = list(move) if many else [move] * n
    if len(values) != n:
        raise InvalidValueError(f"move gives {len(values)} budgets for {n} casters: give one number, or one per caster")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
            raise InvalidValueError(f"move must be a finite number of feet (the grid's unit), 0 or more; got {v!r}")
    return [float(v) for v in values]


# --- placements -------------------------------------------------------------


def _points(shape: Shape, heights: tuple[float, ...], who: list[_Caster], on: BattleMap, rules: Rules, mode: Mode,
            rng: Range | None, need: Need | str | None, probe: Token) -> tuple[list[_Family], FloatArray]:
    """Placements at points of origin: one family per height and kind of point, and the points moved off
    them (SW5e).

    Every caster's legal origins at each height from every stand (range from
    its prism there: it keeps its elevation as it moves), each kept once;
    for a caster that counts itself, which stands each is chosen from. The
    moved points are rows ``(x, y, height, caster, stand x, stand y)``, one
    per stand choosing one.
    """
    g = on.grid
    lattice = origin_lattice(shape, rules)
    step = _STEP[lattice]
    families: dict[float, list[_Family]] = {}
    for z in heights:
        families[z] = []
        for _, off, _ in _PARTS[lattice]:
            st, whole = _open_stencil(shape, lambda x, y, off=off: (x + off, y + off), (1, 1), rules, mode, on, z,
                                      probe)
            near = -1 if off == 0 else 0  # the squares touching the origin: around an intersection, or its own
            box = (min(st.dx0, near), min(st.dy0, near), max(st.dx0 + st.k.shape[1] - 1, 0),
                   max(st.dy0 + st.k.shape[0] - 1, 0))
            n_y, n_x = g.height + (off == 0), g.width + (off == 0)

            def build(i: int, j: int, off: float = off, z: float = z) -> Area:
                return area(shape, at=(i + off, j + off), on=on, rules=rules, mode=mode, elevation=z)

            families[z].append(_Family(st, box, (n_y, n_x), build, z, whole))
    moved = [np.zeros((0, 6))]
    for c, caster in enumerate(who):
        for fam in (f for at_z in families.values() for f in at_z):
            fam.legal[c] = np.zeros(fam.shape, dtype=bool)
            if caster.selfish:
                fam.free[c], fam.mine[c] = np.zeros(fam.shape, dtype=bool), {}
        for sy, sx in zip(*np.nonzero(caster.stands)):
            me = caster.token.moved_to(int(sx), int(sy))
            for z in heights:
                o = legal_origins(shape, caster=me, range=rng, on=on, rules=rules, need=need, elevation=z)
                chosen = o.mask
                if o.moved_to is not None:
                    rows, cols = np.indices(o.mask.shape)
                    stays = (o.moved_to[..., 0] == cols * step) & (o.moved_to[..., 1] == rows * step)
                    q = o.moved_to[o.mask & ~stays]
                    moved.append(np.column_stack([q, np.tile([z, c, me.x, me.y], (len(q), 1))]))
                    chosen = o.mask & stays
                for fam, (_, _, sl) in zip(families[z], _PARTS[lattice]):
                    here = chosen[sl]
                    fam.legal[c] |= here
                    if caster.selfish:
                        _note_stand(fam, c, here, me.space)
    return [f for at_z in families.values() for f in at_z], np.concatenate(moved)


def _note_stand(fam: _Family, c: int, chosen: BoolArray, stand: Space) -> None:
    """Record, for a caster that counts itself, the positions ``chosen`` from ``stand``: free where the
    stencil misses the stand's space, else the stand for an exact look once the area is built."""
    block, y0, x0 = fam.stencil.reach(stand)
    cut = _overlap(fam.shape, block.shape, y0, x0)
    free = chosen.copy()
    if cut is not None:
        into, part = cut
        free[into] &= ~block[part]
        for j, i in zip(*np.nonzero(chosen[into] & block[part])):
            p = (int(i) + into[1].start, int(j) + into[0].start)
            fam.mine[c].setdefault(p, []).append((stand.x, stand.y))
    fam.free[c] |= free


def _aimed(shape: Shape, turns: list[float | None], ups: list[float | None], heights: tuple[float, ...],
           who: list[_Caster], on: BattleMap, rules: Rules, mode: Mode, probe: Token) -> list[_Family]:
    """Placements from the caster's space: one family per footprint, direction, pitch and height, positions
    the stands."""
    g = on.grid
    families = []
    for (w, h), d, up, z in itertools.product(sorted({c.token.footprint for c in who}), turns, ups, heights):
        turned = shape.replace(**{k: v for k, v in (("direction", d), ("pitch", up)) if v is not None})
        st, whole = _open_stencil(turned, lambda x, y, w=w, h=h: Space(x, y, w, h), (w, h), rules, mode, on, z,
                                  probe)
        box = (min(st.dx0, -1), min(st.dy0, -1), max(st.dx0 + st.k.shape[1] - 1, w),
               max(st.dy0 + st.k.shape[0] - 1, h))

        def build(i: int, j: int, turned: Shape = turned, w: int = w, h: int = h, z: float = z) -> Area | None:
            try:
                return area(turned, at=Space(i, j, w, h), on=on, rules=rules, mode=mode, elevation=z)
            except OriginOnWallError:
                return None  # it starts inside a wall, as ag.area refuses

        fam = _Family(st, box, g.shape, build, z, whole, own=True)
        block, y0, x0 = st.reach(Space(0, 0, w, h))
        cut = _overlap(block.shape, (1, 1), -y0, -x0)
        hits_self = cut is not None and bool(block[cut[0]].any())
        for c, caster in enumerate(who):
            if caster.token.footprint == (w, h):
                fam.legal[c] = caster.stands
                if caster.selfish:
                    fam.free[c] = np.zeros(g.shape, dtype=bool) if hits_self else caster.stands
        families.append(fam)
    return families


def _open_stencil(shape: Shape, at: Callable[[int, int], Any], size: tuple[int, int], rules: Rules, mode: Mode,
                  on: BattleMap, z: float, probe: Token) -> tuple[_Stencil, bool]:
    """The squares ``shape`` covers in open field from ``at(x, y)`` (a point in square (x, y), or a space
    there of ``size``) at height ``z``, relative to (x, y); and whether its area on ``on`` reaches a
    creature wherever a square of its space is in it (:func:`_whole`).

    Built with :func:`aoegrid.area` on a bare grid reaching the shape's
    outline (and a square) beyond, but never farther than the map is wide or
    high: every square of the map, from every position, lies on it.
    """
    grid = on.grid
    reach = math.ceil(shape_extent(shape, rules, grid.square)) + 2
    rx, ry = min(reach, grid.width), min(reach, grid.height)
    w, h = size
    bare = Grid(2 * rx + w, 2 * ry + h, square=grid.square, units=grid.units)
    a = area(shape, at=at(rx, ry), on=bare, rules=rules, mode=mode, elevation=z)
    whole = _whole(a, probe, on)
    ys, xs = np.nonzero(a.local)
    if not len(ys):
        return _Stencil(0, 0, np.zeros((0, 0), dtype=bool)), whole
    k = a.local[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return _Stencil(a.window.x0 + int(xs.min()) - rx, a.window.y0 + int(ys.min()) - ry, k), whole


def _whole(a: Area, probe: Token, on: BattleMap) -> bool:
    """Whether area ``a`` (or its like on ``on``) reaches the creature ``probe`` stands for wherever a square
    of its space is in it: the creature's height spans the origin's, the shape is not aimed up or down (so
    every height test passes), and no wall shorter than the solid's heights nor floor within them is on
    ``on`` (the line of effect is the plane's)."""
    low, high = probe.prism(on.grid.square)
    assert a.shape is not None
    return low <= a.elevation <= high and not pitched(a.shape) and not any(on.in_3d(*a.vertical_extent()))


# --- stamping ---------------------------------------------------------------


def _open_field(fam: _Family, who: list[_Caster], walls: BoolArray, spared: list[Token], square: float) -> None:
    """Stamp every position of the family no wall comes near, caster by caster, by growing them by the stencil.

    With creatures to spare, each position's count of them is the number
    whose space its stencil meets (less the caster's own, which counts where
    it stands); a position whose stencil meets one above or below the
    origin's height, or a caster not spanning it, is left to be built, as the
    positions a wall comes near are (:attr:`_Family.todo`). So is every
    position of a family whose areas do not reach a creature wherever they
    hold a square of its space (:attr:`_Family.whole`).
    """
    st = fam.stencil
    if not st.k.size:
        return
    near = _box_meets(walls, fam.box, fam.shape) | (not fam.whole)
    counts = np.zeros(fam.shape, dtype=np.int64)
    reaches = []
    for t in spared:
        reach = np.zeros(fam.shape, dtype=bool)
        _paint(reach, *st.reach(t.space), np.logical_or)
        counts += reach
        reaches.append(reach)
        if not _level(t, square, fam.z):
            near |= reach
    for c, legal in fam.legal.items():
        caster = who[c]
        cost = counts
        todo = near & legal
        if caster.selfish:
            own = next(r for t, r in zip(spared, reaches) if t is caster.token or t == caster.token)
            cost = counts - own + ~fam.free[c]
            if not _level(caster.token, square, fam.z):
                todo |= legal & ~fam.free[c]
        fam.todo[c] = todo
        open_ = legal & ~todo
        for v in np.unique(cost[open_]):
            grown = _grown(open_ & (cost == v), st.k)
            _paint(caster.fewest, np.where(grown, float(v), np.inf), st.dy0, st.dx0, np.minimum)


def _walled(families: list[_Family], who: list[_Caster], counting: bool, probe: Token) -> None:
    """Build, once each, the positions of every family's :attr:`_Family.todo`, and stamp their areas.

    A position whose stencil's squares are all reached already, by a
    placement sparing all, for every caster choosing it, is not built: its
    area can add nothing. Positions go most unreached squares first (counted
    again when their turn comes, as squares get reached): a few large areas
    first leave the rest little to add.
    """
    queue = []
    for f, fam in enumerate(families):
        anywhere = np.zeros(fam.shape, dtype=bool)
        for todo in fam.todo.values():
            anywhere |= todo
        for j, i in zip(*np.nonzero(anywhere)):
            holders = [c for c, todo in fam.todo.items() if todo[j, i]]
            queue.append((-_unreached(who, holders, fam.stencil, int(i), int(j)), f, int(j), int(i), holders))
    heapq.heapify(queue)
    while queue:
        _, f, j, i, holders = heapq.heappop(queue)
        fam = families[f]
        left = _unreached(who, holders, fam.stencil, i, j)
        if not left:
            continue
        if queue and left < -queue[0][0]:
            heapq.heappush(queue, (-left, f, j, i, holders))
            continue
        a = fam.build(i, j)
        if a is None:
            continue
        for c in holders:
            caster = who[c]
            stands = fam.stands_of(c, (i, j)) if caster.selfish and not fam.free[c][j, i] else []
            _stamp(caster, a, _cost(a, caster, stands) if counting else 0, probe, fam.whole)


def _unreached(who: list[_Caster], holders: list[int], st: _Stencil, i: int, j: int) -> int:
    """How many squares of the stencil at ``(i, j)`` no placement sparing all reaches yet, summed over ``holders``."""
    n = 0
    for c in holders:
        fewest = who[c].fewest
        cut = st.window(i, j, fewest.shape)
        if cut is not None:
            n += int(np.count_nonzero(fewest[cut[0]][cut[1]] > 0))
    return n


def _moved(shape: Shape, rows: FloatArray, who: list[_Caster], on: BattleMap, rules: Rules, mode: Mode,
           counting: bool, probe: Token) -> None:
    """Build, once each, the points moved off the lattices to a wall's near side (SW5e), and stamp their areas.

    Rows are ``(x, y, height, caster, stand x, stand y)`` (:func:`_points`). A point
    is built only when, for some caster choosing it, some square its area
    can take is not reached yet: a square of its open-field stencil, not
    hidden from it by the wall it stands against (:func:`_hidden`; for a
    burst or an emanation, which walls cut: a spread turns corners). The
    squares of the area's window (the box of
    :func:`aoegrid.geometry.stencils._bounds`, a square wider) are looked at first,
    for all points at once (by running sums of the squares not reached),
    then without the hidden ones, many points at a time.
    """
    if not len(rows):
        return
    g = on.grid
    points, inverse = np.unique(rows[:, :3], axis=0, return_inverse=True)
    inverse = inverse.ravel()
    b = _bounds(shape, _Origin(0.0, 0.0, 0.0, 0.0), rules, g.square)
    x0 = np.clip(np.floor(points[:, 0] + b[0]) - 1, 0, g.width).astype(np.int64)
    x1 = np.clip(np.ceil(points[:, 0] + b[2]) + 1, 0, g.width).astype(np.int64)
    y0 = np.clip(np.floor(points[:, 1] + b[1]) - 1, 0, g.height).astype(np.int64)
    y1 = np.clip(np.ceil(points[:, 1] + b[3]) + 1, 0, g.height).astype(np.int64)
    # Walls shorter than every height, and floors, hide nothing for sure: a line may pass above or below.
    blocks = (mode is not Mode.SPREAD and not (isinstance(shape, Cylinder) and rules.cylinder_ignores_walls)
              and not any(on.in_3d(-math.inf, math.inf)))
    holders = []
    wanted = np.zeros(len(points), dtype=bool)
    for c, caster in enumerate(who):
        mine = np.zeros(len(points), dtype=bool)
        mine[inverse[rows[:, 3] == c]] = True
        holders.append(mine)
        table = np.zeros((g.height + 1, g.width + 1), dtype=np.int64)
        table[1:, 1:] = (caster.fewest > 0).cumsum(axis=0).cumsum(axis=1)
        wanted |= mine & (table[y1, x1] - table[y0, x1] - table[y1, x0] + table[y0, x0] > 0)
    ks = np.flatnonzero(wanted)
    by_point = np.argsort(inverse, kind="stable")  # the rows of point k: by_point[first[k] : first[k + 1]]
    first = np.searchsorted(inverse[by_point], np.arange(len(points) + 1))
    span = (int((y1 - y0).max(initial=0)), int((x1 - x0).max(initial=0)))
    segs = on.wallset(Channel.EFFECT)
    segs = segs.segs[(segs.one_way == 0) & (segs.segs[:, :2] != segs.segs[:, 2:]).any(axis=1)]
    step = max(1, min(4096, 4_000_000 // max(len(segs), span[0] * span[1], 1)))
    for start in range(0, len(ks), step):
        chunk = ks[start : start + step]
        ys = y0[chunk, None, None] + np.arange(span[0])[None, :, None]
        xs = x0[chunk, None, None] + np.arange(span[1])[None, None, :]
        open_ = (ys < y1[chunk, None, None]) & (xs < x1[chunk, None, None])
        if blocks:
            open_ &= ~_hidden(points[chunk, :2], xs, ys, segs)
        ys, xs = np.minimum(ys, g.height - 1), np.minimum(xs, g.width - 1)
        for n, k in enumerate(chunk):
            choosing = [c for c, mine in enumerate(holders) if mine[k]]
            if not any((open_[n] & (who[c].fewest[ys[n], xs[n]] > 0)).any() for c in choosing):
                continue
            at = (float(points[k, 0]), float(points[k, 1]))
            window, local = _stencil_on_grid(shape, _Origin(*at, *at), rules, g)
            box = np.s_[window.y0 : window.y0 + window.height, window.x0 : window.x0 + window.width]
            keep = local.copy()  # its stencil, less what the wall hides (the box and window are the same squares)
            _paint(keep, open_[n][: y1[k] - y0[k], : x1[k] - x0[k]], y0[k] - window.y0, x0[k] - window.x0,
                   np.logical_and)
            if not any((who[c].fewest[box][keep] > 0).any() for c in choosing):
                continue
            a = area(shape, at=at, on=on, rules=rules, mode=mode, elevation=float(points[k, 2]))
            whole = _whole(a, probe, on)
            mine = rows[by_point[first[k] : first[k + 1]]]
            for c in choosing:
                stands = [(int(x), int(y)) for x, y in mine[mine[:, 3] == c, 4:]] if who[c].selfish else []
                _stamp(who[c], a, _cost(a, who[c], stands) if counting else 0, probe, whole)


def _hidden(points: FloatArray, xs: NDArray[np.int64], ys: NDArray[np.int64], segs: FloatArray) -> BoolArray:
    """Which squares ``(xs[n], ys[n])`` the wall point ``n`` stands against hides wholly from it.

    A point moved to a wall's near side stands within 2e-6 squares of it,
    beside its interior (``segs``: the two-way walls blocking effect; a
    point by none hides nothing). The wall's shadow from the point, what a
    line from it reaches across the wall, is convex: a square lies in it
    when its four corners do, each beyond the wall's line and seen across the
    wall's interior, by margins (1e-7 squares, 1e-6 along the wall) far above
    the 1e-9 the walls are drawn to.
    """
    if not len(segs) or not len(points):
        return np.zeros(np.broadcast_shapes(xs.shape, ys.shape), dtype=bool)
    ax, ay, bx, by = segs.T
    length = np.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    qx, qy = points[:, :1], points[:, 1:]
    side = ux * (qy - ay) - uy * (qx - ax)  # (points, walls): how far each point lies left of each wall's line
    along = (qx - ax) * ux + (qy - ay) * uy
    near = (np.abs(side) <= 2e-6) & (np.abs(side) >= 1e-8) & (along > 0) & (along < length)
    has = near.any(axis=1)
    n = np.arange(len(points))
    w = near.argmax(axis=1)
    dist, run = np.where(has, np.abs(side[n, w]), 1.0), along[n, w]  # (no wall: any distance, nothing hidden)
    # Per point: its wall's start, direction and length, and which side is beyond it.
    wax, way, wux, wuy, wlen = (v[w][:, None, None] for v in (ax, ay, ux, uy, length))
    beyond_sign = -np.sign(side[n, w])[:, None, None]
    dist, run = dist[:, None, None], run[:, None, None]
    px0, py0 = qx[:, :, None], qy[:, :, None]
    hidden = np.broadcast_to(has[:, None, None], np.broadcast_shapes(xs.shape, ys.shape)).copy()
    for dx in (0, 1):
        for dy in (0, 1):
            cx, cy = xs + dx, ys + dy
            beyond = beyond_sign * (wux * (cy - way) - wuy * (cx - wax))
            t = dist / (dist + np.maximum(beyond, 0.0))  # where the line from the point crosses the wall's
            cross = run + t * ((cx - px0) * wux + (cy - py0) * wuy)
            hidden &= (beyond > 1e-7) & (cross > 1e-6) & (cross < wlen - 1e-6)
    return hidden


def _cost(a: Area, caster: _Caster, stands: list[Square]) -> int:
    """How many spared creatures area ``a`` reaches: the others where they stand, the caster where it
    stood to place it (the fewest over ``stands``; none when empty: some stand's space it misses)."""
    n = sum(_in_area(a, t, Membership.ANY, 0.5) is not None for t in caster.others)
    if stands:
        n += min(_in_area(a, caster.token.moved_to(x, y), Membership.ANY, 0.5) is not None for x, y in stands)
    return n


def _stamp(caster: _Caster, a: Area, cost: int, probe: Token, whole: bool) -> None:
    """Lower the caster's count to ``cost`` on the squares of ``a`` reaching a creature there.

    ``whole``: every square of ``a`` does (:func:`_whole`). Else a square
    does when ``a`` reaches ``probe`` (one square of the creature, as tall)
    moved there, as :meth:`Area.tokens` counts it; only squares not already
    at ``cost`` or below are looked at.
    """
    w = a.window
    view = caster.fewest[w.y0 : w.y0 + w.height, w.x0 : w.x0 + w.width]
    take = a.local & (view > cost)
    if not whole:
        for y, x in zip(*np.nonzero(take)):
            there = probe.moved_to(int(x) + w.x0, int(y) + w.y0)
            take[y, x] = _in_area(a, there, Membership.ANY, 0.5) is not None
    view[take] = cost


def _result(who: list[_Caster], on: BattleMap, footprint: tuple[int, int], spare: bool,
            max_spared_hit: int | None) -> Threat:
    g = on.grid
    count = np.zeros(g.shape, dtype=np.int64)
    by_caster = {}
    fewest = np.full(g.shape, np.inf)
    for caster in who:
        f = _for_space(caster.fewest, footprint)
        np.minimum(fewest, f, out=fewest)
        reached = f <= max_spared_hit if spare and max_spared_hit is not None else np.isfinite(f)
        reached.flags.writeable = False
        by_caster[caster.token.label] = reached
        count += reached
    for a in (count, fewest, *(c.stands for c in who)):
        a.flags.writeable = False
    moves = tuple(c.stands for c in who)
    return Threat(count, MappingProxyType(by_caster), fewest if spare else None, max_spared_hit if spare else None,
                  tuple(c.token for c in who), moves, on, footprint)


def _for_space(fewest: FloatArray, footprint: tuple[int, int]) -> FloatArray:
    """Per top-left square, the least of ``fewest`` over a space of ``footprint`` there (inf off the map)."""
    w, h = footprint
    rows, cols = fewest.shape
    out = np.full(fewest.shape, np.inf)
    if w > cols or h > rows:
        return out
    view = out[: rows - h + 1, : cols - w + 1]
    for dy in range(h):
        for dx in range(w):
            np.minimum(view, fewest[dy : dy + rows - h + 1, dx : dx + cols - w + 1], out=view)
    return out


# --- grids of booleans --------------------------------------------------------


def _level(token: Token, square: float, z: float) -> bool:
    """Whether the creature's height spans the origin's, ``z``: every height test passes."""
    low, high = token.prism(square)
    return low <= z <= high


def _overlap(shape: tuple[int, int], block: tuple[int, int], y0: int, x0: int) -> tuple[Any, Any] | None:
    """Where a block of shape ``block`` with its top-left at row ``y0``, column ``x0`` meets an array of
    ``shape``: (the array's slices, the block's), or None."""
    ya, xa = max(y0, 0), max(x0, 0)
    yb, xb = min(y0 + block[0], shape[0]), min(x0 + block[1], shape[1])
    if ya >= yb or xa >= xb:
        return None
    return np.s_[ya:yb, xa:xb], np.s_[ya - y0 : yb - y0, xa - x0 : xb - x0]


def _paint(dst: NDArray[Any], block: NDArray[Any], y0: int, x0: int, op: Callable[..., Any]) -> None:
    """``dst = op(dst, block)`` where the block, its top-left at row ``y0`` and column ``x0``, lies."""
    cut = _overlap(dst.shape, block.shape, y0, x0)
    if cut is not None:
        into, part = cut
        op(dst[into], block[part], out=dst[into])


def _grown(src: BoolArray, k: BoolArray) -> BoolArray:
    """``src`` grown by ``k``: ``out[y, x] = any(src[y - r, x - c] for each k[r, c])``.

    The shape is ``src``'s plus ``k``'s less one. One OR a run of a row of
    ``k``: a run ``n`` long ORs ``n`` shifted copies of ``src`` at once, by
    prefix counts along the rows.
    """
    sh, sw = src.shape
    kh, kw = k.shape
    out = np.zeros((sh + kh - 1, sw + kw - 1), dtype=bool)
    if not src.any():
        return out
    counts = np.zeros((sh, sw + 1), dtype=np.int32)
    np.cumsum(src, axis=1, out=counts[:, 1:])
    padded = np.zeros((kh, kw + 2), dtype=np.int8)
    padded[:, 1:-1] = k
    edges = np.diff(padded, axis=1)
    rows, starts = np.nonzero(edges == 1)
    ends = np.nonzero(edges == -1)[1]
    runs: dict[int, BoolArray] = {}
    for r, c0, c1 in zip(rows.tolist(), starts.tolist(), ends.tolist()):
        n = c1 - c0
        if n not in runs:
            # runs[n][:, i]: any of src[:, i - n + 1 .. i], for i in [0, sw + n - 1).
            hi = np.arange(1, sw + n)
            runs[n] = counts[:, np.minimum(hi, sw)] > counts[:, np.maximum(hi - n, 0)]
        out[r : r + sh, c0 : c0 + sw + n - 1] |= runs[n]
    return out


def _box_meets(walls: BoolArray, box: tuple[int, int, int, int], shape: tuple[int, int]) -> BoolArray:
    """The positions (an array of ``shape``) whose squares at offsets ``box`` (x0, y0, x1, y1, inclusive)
    hold a square of ``walls``."""
    x0, y0, x1, y1 = box
    out = np.zeros(shape, dtype=bool)
    _paint(out, _grown(walls, np.ones((y1 - y0 + 1, x1 - x0 + 1), dtype=bool)), -y1, -x1, np.logical_or)
    return out


def _wall_squares(on: BattleMap) -> BoolArray:
    """The squares a wall blocking effect meets (or passes within :data:`_NEAR` of), as an (H, W) mask.

    Each wall is walked one column of squares at a time: in a column it
    spans the rows between its heights at the column's two sides.
    """
    g = on.grid
    segs = on.wallset(Channel.EFFECT).segs
    ax, ay, bx, by = segs.T
    left, right = np.minimum(ax, bx), np.maximum(ax, bx)
    c0 = np.maximum(np.floor(left - _NEAR), 0).astype(np.int64)
    c1 = np.minimum(np.floor(right + _NEAR), g.width - 1).astype(np.int64)
    n = np.maximum(c1 - c0 + 1, 0)
    row = np.repeat(np.arange(len(segs)), n)
    col = c0[row] + np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
    # The wall's heights where it enters and leaves the column.
    xa = np.maximum(left[row], col - _NEAR)
    xb = np.minimum(right[row], col + 1 + _NEAR)
    run = bx[row] - ax[row]
    flat = run != 0
    slope = np.divide(by[row] - ay[row], run, out=np.zeros(len(row)), where=flat)
    ya = np.where(flat, ay[row] + (xa - ax[row]) * slope, ay[row])
    yb = np.where(flat, ay[row] + (xb - ax[row]) * slope, by[row])
    lo = np.maximum(np.floor(np.minimum(ya, yb) - _NEAR), 0).astype(np.int64)
    hi = np.minimum(np.floor(np.maximum(ya, yb) + _NEAR), g.height - 1).astype(np.int64)
    ok = lo <= hi
    marks = np.zeros((g.height + 1, g.width), dtype=np.int64)
    np.add.at(marks, (lo[ok], col[ok]), 1)
    np.add.at(marks, (hi[ok] + 1, col[ok]), -1)
    return np.asarray(marks.cumsum(axis=0)[: g.height] > 0)
