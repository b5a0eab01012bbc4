"""Which creatures an area reaches, with their cover, filters and limits.

Rules applied (the seeds' words):

* a creature is in an area when any square of its space is in it (Pathfinder
  2e: "even one square of its space"); ``membership="center"`` counts only its
  central square(s), ``membership="share"`` a share of its space;
* Starfinder: "If you have line of effect to some of a target's space but not
  all of it, the target has cover", judged on the exact visible fraction of
  the space; 5e grades a creature by its best square;
  Savage Worlds only by total cover;
* Starfinder areas with targets: "creatures in the effect's area that are not
  of the appropriate type do not count against the number of creatures
  affected" (``where``, ``tags``, ``limit``);
* Savage Worlds' Selective: "the caster can choose not to affect any or all
  individual targets within a power's area of effect" (``exclude``);
* heights: a creature fills the prism from its elevation to its top
  (:meth:`Token.prism`); it is reached where the solid above a square of its
  space in the area meets that prism (:meth:`AreaCore.column_meets`: a
  20-ft sphere does not reach a creature 25 ft above its origin), and its
  distance is counted in three dimensions (:func:`aoegrid.geometry.distance.measure3`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from aoegrid.board.walls import Channel
from aoegrid.effects.result import TEST_POINTS, vertical_gap
from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry.cover import GRADES, Cover, CoverRule, grade
from aoegrid.geometry.distance import measure3
from aoegrid.geometry.options import parse_option
from aoegrid.geometry.raster import Window
from aoegrid.geometry.regions import EPS
from aoegrid.geometry.tokens import Token

if TYPE_CHECKING:
    from aoegrid.effects.result import AreaCore

BoolArray = NDArray[np.bool_]


class Membership(str, Enum):
    """When a creature counts as in an area: ``any`` square of its space, its
    ``center`` square(s), or a ``share`` of its space."""

    ANY = "any"
    CENTER = "center"
    SHARE = "share"


@dataclass(frozen=True, slots=True)
class Reached:
    """A creature an area reaches.

    ``cover`` is its grade from the area's origin (:class:`Cover`),
    ``cover_name`` the rules' name for it; ``squares`` are the squares of its
    space in the area; ``distance`` runs from the origin to the nearest point
    of its prism (its space, from its elevation to its top), in the grid's
    unit, under the rules' diagonal count in three dimensions.
    """

    token: Token
    cover: Cover
    cover_name: str
    squares: tuple[tuple[int, int], ...]
    distance: float


def reached(
    area: AreaCore,
    tokens: Iterable[Token] | None = None,
    *,
    membership: Membership | str = Membership.ANY,
    share: float = 0.5,
    where: Callable[[Token], bool] | None = None,
    tags: Iterable[str] | None = None,
    exclude: Iterable[Token | str] = (),
    limit: int | None = None,
) -> list[Reached]:
    """The creatures ``area`` reaches, nearest first.

    Parameters
    ----------
    area : AreaCore
    tokens : iterable of Token, optional
        The creatures to look at; by default the area's map's.
    membership : str
        ``"any"`` (default), ``"center"`` or ``"share"``.
    share : float
        With ``membership="share"``: the least fraction of the space's
        squares that must be in the area.
    where : callable, optional
        Only creatures for which it returns true are affected (``lambda t:
        "living" in t.tags``).
    tags : iterable of str, optional
        Only creatures with at least one of these tags are affected.
    exclude : iterable of Token or str
        Creatures left unaffected by the caster's choice (Savage Worlds'
        Selective), by token or name.
    limit : int, optional
        The most creatures affected; those filtered out do not count. The
        nearest to the origin are taken first (ties: top to bottom, left to
        right).

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(12, 12), tokens=[ag.Token(5, 5, name="a"), ag.Token(9, 9, name="b")])
    >>> [r.token.name for r in ag.area(ag.Sphere(10), at=(6, 6), on=m).tokens()]
    ['a']
    """
    if area.recipe is None or area.shape is None or area.rules is None:
        raise InvalidValueError("creatures are found in areas made by aoegrid.area(), not in combinations")
    pool = _candidates(tokens, area.battlemap, "Grid")
    membership = parse_option(Membership, membership, "membership")
    if not (isinstance(share, (int, float)) and 0 < share <= 1):
        raise InvalidValueError(f"share must be a fraction in (0, 1], got {share!r}")
    _check_limit(limit)
    keep = _chooser(where, tags, exclude)
    out = []
    for token in pool:
        hit = _in_area(area, token, membership, share)
        if hit is None or not keep(token):
            continue
        out.append(_record(token, _cover(area, token), area.rules.cover, hit, _distance(area, token)))
    return _nearest_first(out, limit)


def _candidates(tokens: Iterable[Any] | None, battlemap: Any, board: str, kind: type = Token,
               what: str = "tokens") -> list[Any]:
    """The creatures an area's ``.tokens()`` looks at: ``tokens``, or by default all of its map's.

    Each must be a ``kind``; ``board`` names the bare board an area without
    a map lies on, ``what`` the creatures, in the errors.
    """
    if tokens is None:
        if battlemap is None:
            raise InvalidValueError(f"this area is on a bare {board}: pass tokens=[...], or compute it on a BattleMap")
        pool = list(battlemap.tokens)
    else:
        pool = list(tokens)
    for t in pool:
        if not isinstance(t, kind):
            raise InvalidTypeError(f"{what} must be aoegrid.{kind.__name__}, got {t!r}")
    return pool


def _check_limit(limit: int | None) -> None:
    """Refuse a ``limit`` (the most creatures affected) that is not a whole number, 0 or more, nor None."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise InvalidValueError(f"limit must be a whole number, 0 or more, got {limit!r}")


def _chooser(where: Callable[[Any], bool] | None = None, tags: Iterable[str] | None = None,
            exclude: Iterable[Any] = ()) -> Callable[[Any], bool]:
    """Whether a creature is affected, by the filters of :func:`reached`: ``where``, ``tags``, ``exclude``."""
    wanted = None if tags is None else frozenset(tags)
    skip = list(exclude)

    def keep(token: Any) -> bool:
        if where is not None and not where(token):
            return False
        if wanted is not None and not (token.tags & wanted):
            return False
        return not any(e is token or e == token or (isinstance(e, str) and e == token.name) for e in skip)

    return keep


def _record(token: Any, cover: Cover, rule: CoverRule, cells: tuple[Any, ...], distance: float) -> Reached:
    """A :class:`Reached` record, its cover named as ``rule`` names it."""
    return Reached(token, cover, GRADES[rule].get(cover, (cover.name.lower(), ""))[0], cells, distance)


def _nearest_first(out: list[Reached], limit: int | None = None) -> list[Reached]:
    """The creatures reached, nearest first (ties: top to bottom, left to right), at most ``limit``."""
    out.sort(key=lambda r: (r.distance, r.token.y, r.token.x))
    return out if limit is None else out[:limit]


def _squares(area: AreaCore, token: Token) -> list[tuple[int, int]]:
    g = area.grid
    return [(x, y) for x, y in token.space.squares if 0 <= x < g.width and 0 <= y < g.height]


def _in_area(area: AreaCore, token: Token, membership: Membership, share: float) -> tuple[tuple[int, int], ...] | None:
    squares = _squares(area, token)
    mask = area.mask
    inside = [s for s in squares if mask[s[1], s[0]] and _height_ok(area, token, s)]
    if not inside:
        return None
    if _in_3d(area):
        clear, held = _prism_lines(area, token)
        rows = [squares.index(s) for s in inside]
        if not (clear[rows] & held[rows]).any():
            return None
    if membership is Membership.CENTER:
        cx, cy = token.space.center
        central = {(x, y) for x, y in squares if x <= cx <= x + 1 and y <= cy <= y + 1}
        if not central & set(inside):
            return None
    elif membership is Membership.SHARE and len(inside) < share * len(token.space.squares) - EPS:
        return None
    return tuple(inside)


def _height_ok(area: AreaCore, token: Token, square: tuple[int, int]) -> bool:
    """Whether the solid, above a square of the token's space in the area, meets the token's prism."""
    low, high = token.prism(area.grid.square)
    return bool(area.column_meets(square[0], square[1], low, high))


def _cover(area: AreaCore, token: Token) -> Cover:
    """The creature's cover from the area's origin, by the rules' grading.

    Starfinder ("line of effect to some of a target's space but not all of
    it"): the exact visible fraction of the space, not its corners, decides.
    5e: the creature's best square. Savage Worlds: only total cover.
    """
    assert area.rules is not None
    if area.battlemap is None:
        return Cover.NONE
    if _in_3d(area):
        clear, _ = _prism_lines(area, token)
        visible = clear.mean(axis=(1, 2))
        # The corner lines of the height where most of them are clear.
        blocked = 4 - clear[:, 1:, :].sum(axis=1).max(axis=1)
        grades = grade(area.rules.cover, visible, blocked)
    else:
        sp = token.space
        g = area.grid
        x0, y0 = max(sp.x, 0), max(sp.y, 0)
        window = Window(x0, y0, min(sp.x + sp.width, g.width) - x0, min(sp.y + sp.height, g.height) - y0)
        visible, grades = area.reach(Channel.EFFECT, window)
    if (visible <= EPS).all():
        return Cover.TOTAL
    rule = area.rules.cover
    if rule is CoverRule.CORNER_COUNT:
        return Cover(int(grades.min()))
    if rule is CoverRule.ANY_CORNER:
        return Cover.PARTIAL if (visible < 1.0 - EPS).any() else Cover.NONE
    return Cover.NONE


def _in_3d(area: AreaCore) -> bool:
    """Whether walls shorter than the solid's heights, or floors within them, are on the area's map."""
    bmap = area.battlemap
    return bmap is not None and any(bmap.in_3d(*area.vertical_extent()))


def _prism_lines(area: AreaCore, token: Token) -> tuple[BoolArray, BoolArray]:
    """Line of effect in three dimensions to the test points of the creature's prism, over its squares on the grid.

    Test points, per square (:func:`_squares`, in order): its centre and its
    four corners moved :data:`aoegrid.effects.result.NUDGE` inward, at the prism's
    bottom, middle and top, each height clipped to the solid's
    (:meth:`AreaCore.vertical_extent`). Returns ``(clear, held)``, each
    ``(squares, 5, 3)``: whether the origin reaches the point
    (:meth:`AreaCore.lines3`) and whether the point is in the solid
    (:meth:`AreaCore.column_meets`). Kept on the area: reach and cover
    both read them.
    """
    kept = area._prisms.get(token)
    if kept is not None:
        return kept
    low, high = token.prism(area.grid.square)
    lo, hi = area.vertical_extent()
    zs = np.clip([low, (low + high) / 2, high], lo, hi)
    sq = np.array(_squares(area, token), dtype=np.float64).reshape(-1, 2)
    shape = (len(sq), len(TEST_POINTS), len(zs))
    sx, sy = np.broadcast_to(sq[:, 0, None, None], shape), np.broadcast_to(sq[:, 1, None, None], shape)
    pz = np.broadcast_to(zs[None, None, :], shape)
    held = area.column_meets(sx.ravel(), sy.ravel(), pz.ravel(), pz.ravel()).reshape(shape)
    clear = area.lines3(sx + TEST_POINTS[None, :, 0, None], sy + TEST_POINTS[None, :, 1, None], pz)[0].reshape(shape)
    area._prisms[token] = (clear, held)
    return clear, held


def _distance(area: AreaCore, token: Token) -> float:
    """From the origin to the nearest point of the creature's prism, in the grid's unit, in three dimensions."""
    assert area.recipe is not None and area.rules is not None
    o, sq = area.recipe.origin, area.grid.square
    x0, y0, x1, y1 = token.space.bounds
    dx = max(0.0, x0 - o.x1, o.x0 - x1)
    dy = max(0.0, y0 - o.y1, o.y0 - y1)
    z = area.recipe.elevation
    dz = vertical_gap(*token.prism(sq), z, z) / sq
    return float(measure3(dx, dy, dz, area.rules.diagonals)) * sq
