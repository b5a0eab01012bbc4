"""Tactics: where to put an area so it reaches the most foes and spares friends.

:func:`best_placements` finds the best points of origin (and directions,
for cones and lines) among every legal one (:func:`aoegrid.legal_origins`);
:func:`placement_scores` scores every one. Both give exactly what placing
the area at every legal origin with :func:`aoegrid.area` and reading
:meth:`Area.tokens` gives (tests hold this on random maps), much faster:

* every origin's count in open field comes at once: each creature's space,
  grown by the shape's stencil, marks the origins whose area reaches it.
  Walls only take squares away (a burst keeps the squares a line reaches, a
  spread adds back only squares of its shape, a line stops short), and a
  creature's height only leaves it out, so that count is an upper bound;
* where no wall blocking effect comes near the area and every creature it
  could reach stands level with the origin, the bound is the answer;
* over a range of heights (``elevation=[0, 10, 20]``) each (origin, height)
  is a candidate of its own: a shape's open-field squares do not depend on
  its height, so one count bounds them all, and only which creatures stand
  level (and, for range, the origin's distance in three dimensions) differs;
* elsewhere areas are built in order of their bound, and the search stops
  when no bound left can beat the placements found.

Each kind of point searched (intersections, square centres) is a lattice of
its own, one square apart, so one stencil serves all its points. A point
whose effect comes into being elsewhere (SW5e: behind a wall the caster
cannot see, it moves to the wall's near side) is off every lattice: its bound
counts the creatures within the shape's reach of where it comes into being.

With ``move=`` the caster first moves (:func:`aoegrid.reachable`), and the
answer is the search from every square it can reach, best of all. A point's
area does not depend on where the caster stands, only its legality does
(and the caster's own token, and under SW5e where a hidden point comes into
being), so every point of the lattice is searched once, in order of its
bound, and its stands are looked at cheapest first: those in range, then
those a line of effect (or sight) surely reaches or surely does not, read
without a visibility polygon (:func:`aoegrid.board.visibility.lines_surely`), and
only for the few left unsure the stand's legal origins
(:func:`aoegrid.legal_origins`). Cones and lines are aimed from each stand by
a search of its own, opened in order of how many creatures could be near.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from numbers import Real
from typing import Any

import numpy as np
from numpy.typing import NDArray

from aoegrid.area import Area, area
from aoegrid.board.battlemap import BattleMapCore as BattleMap
from aoegrid.board.visibility import OriginOnWallError, lines_surely
from aoegrid.board.walls import Channel
from aoegrid.effects.build import moves_unseen, wall_ahead
from aoegrid.effects.movement import Reach, reachable
from aoegrid.effects.ranges import (
    _PARTS,
    _STEP,
    Need,
    Origins,
    Range,
    as_range,
    box_distances,
    caster_rise,
    caster_space,
    check_shape_range,
    legal_origins,
    origin_lattice,
    resolve_need,
    space_distances,
)
from aoegrid.effects.result import origin_samples
from aoegrid.effects.targets import Membership, Reached, _in_area
from aoegrid.errors import AoegridWarning, InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import non_negative, real
from aoegrid.geometry.directions import parse_direction
from aoegrid.geometry.gridless import Gridless
from aoegrid.geometry.hexgrid import HexGrid
from aoegrid.geometry.options import Inclusion, Mode, parse_option
from aoegrid.geometry.raster import Window
from aoegrid.geometry.rules import Rules, resolve_rules
from aoegrid.geometry.shapes import Cylinder, Shape
from aoegrid.geometry.stencils import (
    _CACHE_CELLS,
    _bounds,
    _cached_stencil,
    _fitted,
    _Origin,
    _rasterize,
    shape_extent,
)
from aoegrid.geometry.tokens import Selector, Space, Token, token_selector
from aoegrid.hextactics import HexReach, hex_best_placements, hex_placement_scores
from aoegrid.openarea import open_best_placements

BoolArray = NDArray[np.bool_]
FloatArray = NDArray[np.float64]

#: Areas kept once built, for the placements returned (the most recent first out).
_KEEP = 64

#: Directions tried for cones and lines by default: every 5 degrees (the
#: eight compass directions are among them), clockwise from east.
DIRECTIONS: tuple[float, ...] = tuple(float(d) for d in range(0, 360, 5))


@dataclass(frozen=True, slots=True, eq=False)
class Placement:
    """One way to place an area, with what it reaches.

    Attributes
    ----------
    at : (x, y), Token or Space
        The point of origin chosen (intersections as whole numbers), or for
        cones and lines the caster they start from (with ``move=``, where it
        stands): what ``ag.area(p.shape, at=p.at, on=m, rules=...,
        caster=caster)`` takes, giving :attr:`area` again.
    direction : float or None
        Degrees, for cones and lines; None for the rest.
    shape : Shape
        The shape placed (pointed in :attr:`direction`).
    score : float
        By default the number of :attr:`hits`.
    hits, avoided : tuple of Reached
        The creatures to hit and to avoid that the area reaches, with their
        cover, as :meth:`Area.tokens` gives them (nearest first). A creature
        selected by both is in both.
    area : Area
    distance : float
        From the caster's space (with ``move=``, where it stands) to
        :attr:`at`, in the grid's unit (0 for cones and lines, and with no
        caster): the distance the range limits.
    origin : (x, y), Token or Space
        Where the effect comes into being: :attr:`at`, except under SW5e for
        a point the caster cannot see behind an obstruction, which comes
        into being on the obstruction's near side
        (``aoegrid.effects.build.near_side``); :attr:`area` is placed there
        (``ag.area(p.shape, at=p.origin, on=m, rules=...)`` gives it too).
    stand : Token or None
        With ``move=``: the caster where it stands to place the area, moved
        to the end of :attr:`path` (:meth:`Token.moved_to`); None without.
        Range, line of effect or sight, and where an unseen SW5e point comes
        into being are judged from there, and the caster, if it is among the
        creatures to hit or avoid, is there for :attr:`hits` and
        :attr:`avoided`.
    path : tuple of (x, y)
        With ``move=``: the squares its space steps through (its top-left
        square), from where it starts to :attr:`stand`, as
        :meth:`aoegrid.Reach.path` gives them; empty without.
    cost : float
        The movement :attr:`path` costs, in the grid's unit (0 without ``move=``).
    elevation : float
        The height of the origin, in the grid's unit: the one searched
        (``elevation=``) that :attr:`area` is placed at (``ag.area(...,
        elevation=p.elevation)``).
    pitch : float or None
        Degrees above the horizontal, for cones and lines (one of
        ``pitches=``; :attr:`shape` is aimed so); None for the rest.
    """

    at: tuple[float, float] | Token | Space
    direction: float | None
    shape: Shape
    score: float
    hits: tuple[Reached, ...]
    avoided: tuple[Reached, ...]
    area: Area
    distance: float
    origin: tuple[float, float] | Token | Space
    stand: Token | None = None
    path: tuple[tuple[int, int], ...] = ()
    cost: float = 0.0
    elevation: float = 0.0
    pitch: float | None = None


@dataclass(frozen=True, slots=True)
class Candidate:
    """What a ``bound=`` callable sees of a placement before its area is built.

    ``hits`` and ``avoided`` are the creatures to hit and to avoid that the
    shape reaches in open field: every creature the placement's area can
    reach is among them (walls and heights only take creatures away). A
    bound must be at least the score of every placement with these.
    ``at``, ``distance``, ``origin``, ``elevation`` and ``pitch`` are as for :class:`Placement`.

    With ``move=``, a cone or line's candidate has its :attr:`stand` and
    :attr:`cost` as the placement will. A point's stands for every square
    the caster may place it from: ``stand`` is None, ``cost`` and
    ``distance`` the least of those squares', and the caster, when it is a
    creature to hit or avoid, is among ``hits`` or ``avoided`` (as it
    starts): the bound must hold from each of them.
    """

    at: tuple[float, float] | Token | Space
    direction: float | None
    distance: float
    hits: tuple[Token, ...]
    avoided: tuple[Token, ...]
    origin: tuple[float, float] | Token | Space
    stand: Token | None = None
    cost: float = 0.0
    elevation: float = 0.0
    pitch: float | None = None


@dataclass(frozen=True, slots=True)
class _Stand:
    """The caster moved to where it places an effect from (``move=``).

    ``hit`` and ``avoid``: whether it is a creature to hit, to avoid, that a
    search leaving it out (:attr:`_Search.moving`) counts there.
    """

    token: Token
    path: tuple[tuple[int, int], ...]
    cost: float
    hit: bool = False
    avoid: bool = False



#: A point-placed search's arrays, one entry a candidate (see :meth:`_Search._lattice`).
_ROWS: dict[str, type] = {
    "part": np.intp, "j": np.intp, "i": np.intp, "mask_j": np.intp, "mask_i": np.intp, "qx": np.float64,
    "qy": np.float64, "hit_open": np.int64, "avoid_open": np.int64, "known": np.bool_, "x": np.float64,
    "y": np.float64, "dist": np.float64, "dirs": np.float64, "z": np.float64, "pitch": np.float64,
}


_selector = token_selector


def _grow(a: NDArray[np.int32], n: int, axis: int) -> NDArray[np.int32]:
    """``out[i] = any(a[i - n + 1 .. i])`` along ``axis``, for ``i`` in ``[0, len + n - 1)``."""
    a = np.moveaxis(a, axis, 0)
    pad = np.zeros((n - 1, *a.shape[1:]), dtype=np.int32)
    c = np.concatenate([np.zeros((1, *a.shape[1:]), dtype=np.int32), np.cumsum(np.concatenate([pad, a, pad]), axis=0)])
    out = (c[n:] - c[: c.shape[0] - n]) > 0
    return np.moveaxis(out.astype(np.int32), 0, axis)


def _heights(elevation: Any) -> tuple[float, ...]:
    """The origin's heights searched: one number, or each of a collection, ground first (lower ``|height|``, then lower)."""
    if isinstance(elevation, Real) and not isinstance(elevation, bool):
        return (real(elevation, "elevation"),)
    if isinstance(elevation, (str, bytes)) or not isinstance(elevation, Iterable):
        raise InvalidTypeError(
            f"elevation must be a height (a number, in the grid's unit) or a collection of heights to search, "
            f"got {elevation!r}"
        )
    heights = sorted({real(h, "elevation") for h in elevation}, key=lambda h: (abs(h), h))
    if not heights:
        raise InvalidValueError("elevation is empty: give a height, or at least one height to search")
    return tuple(heights)


def _checked_map(on: Any) -> None:
    """Refuse ``on`` unless a BattleMap: its creatures are what placements are scored on."""
    if not isinstance(on, BattleMap):
        raise InvalidTypeError(
            f"on must be an aoegrid.BattleMap (its creatures are what placements are scored on), got {on!r}"
        )


def _relative_stencil(shape: Shape, off: float, rules: Rules, square: float, size: tuple[int, int]) -> tuple[int, int, BoolArray]:
    """The shape's open-field squares around an origin ``off`` into square (0, 0).

    Returns the offset ``(dx0, dy0)`` of its first column and row and the
    mask, trimmed to its squares. The answer depends only on the origin's
    offset in its square (as :func:`aoegrid.geometry.stencils._stencil_on_grid`
    computes it); it covers every offset between an origin and a square of
    a ``size`` (width, height) grid, so the same stencil serves every origin
    of the lattice.
    """
    w, h = size
    o = _Origin(off, off, off, off)
    frame = Window(-w - 1, -h - 1, 2 * w + 2, 2 * h + 2)
    fitted = _fitted(shape, o, rules, square, frame)
    full = Window.around(_bounds(fitted, o, rules, square), None)
    x0, y0 = max(full.x0, frame.x0), max(full.y0, frame.y0)
    x1 = min(full.x0 + full.width, frame.x0 + frame.width)
    y1 = min(full.y0 + full.height, frame.y0 + frame.height)
    win = Window(x0, y0, max(x1 - x0, 0), max(y1 - y0, 0))
    if fitted is shape and full.width * full.height <= _CACHE_CELLS:
        whole = _cached_stencil(shape, o, rules, square, full)
        k = whole[y0 - full.y0 : y0 - full.y0 + win.height, x0 - full.x0 : x0 - full.x0 + win.width]
    else:
        k = _rasterize(fitted, o, rules, square, win)
    ys, xs = np.nonzero(k)
    if not len(ys):
        return 0, 0, np.zeros((0, 0), dtype=bool)
    return win.x0 + int(xs.min()), win.y0 + int(ys.min()), k[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


class _Part:
    """Whom the points of one kind (intersections, square centres) reach in open field.

    ``reach`` holds, per creature to hit or avoid, (creature, top row, left
    column, mask): the part's point ``(i, j)`` reaches the creature where
    ``mask[j - top, i - left]`` holds.
    """

    def __init__(self, reach: list[tuple[int, int, int, BoolArray]]) -> None:
        self.reach = reach
        self.top = np.array([r[1] for r in reach], dtype=np.int64)
        self.left = np.array([r[2] for r in reach], dtype=np.int64)
        self.height = np.array([r[3].shape[0] for r in reach], dtype=np.int64)
        self.width = np.array([r[3].shape[1] for r in reach], dtype=np.int64)

    def relevant(self, j: int, i: int) -> list[int]:
        """The creatures the point ``(i, j)`` reaches in open field, in the map's order."""
        rows, cols = j - self.top, i - self.left
        maybe = np.flatnonzero((rows >= 0) & (rows < self.height) & (cols >= 0) & (cols < self.width))
        return [self.reach[n][0] for n in maybe if self.reach[n][3][rows[n], cols[n]]]


class _Search:
    """Everything the searches share: the candidates, their open-field bounds, and exact evaluation."""

    def __init__(
        self,
        shape: Shape,
        caster: Any,
        rng: Range | float | None,
        on: BattleMap,
        rules: Rules | str,
        mode: Mode | str,
        hit: Selector,
        avoid: Selector,
        max_avoid: int | None,
        directions: Iterable[float | str] | None,
        pitches: Iterable[float] | None,
        need: Need | str | None,
        elevation: float | Iterable[float],
        moving: int | None = None,
    ) -> None:
        _checked_map(on)
        if max_avoid is not None and (isinstance(max_avoid, bool) or not isinstance(max_avoid, int) or max_avoid < 0):
            raise InvalidValueError(f"max_avoid must be a whole number, 0 or more, or None for no limit; got {max_avoid!r}")
        self.rules = resolve_rules(rules).for_shape(shape)
        self.mode = parse_option(Mode, mode, "mode")
        self.bmap, self.grid = on, on.grid
        self.heights = _heights(elevation)
        self.max_avoid = max_avoid
        self.is_hit_fn, self.is_avoid_fn = _selector(hit, "hit"), _selector(avoid, "avoid")
        self.tokens = on.tokens
        self.is_hit = np.array([self.is_hit_fn(t) for t in self.tokens], dtype=bool)
        self.is_avoid = np.array([self.is_avoid_fn(t) for t in self.tokens], dtype=bool)
        #: The caster's index among the map's creatures when it moves (``move=``): left out
        #: here, it is counted where it stands (:meth:`caster_counts`).
        self.moving = moving
        if moving is not None:
            self.is_hit[moving] = self.is_avoid[moving] = False
        prisms = np.array([t.prism(self.grid.square) for t in self.tokens], dtype=float).reshape(-1, 2)
        # Per height searched, per creature: whether its height spans the origin's (it then
        # passes every height test).
        z = np.array(self.heights)[:, None]
        self.level = (prisms[:, 0] <= z) & (z <= prisms[:, 1])
        self.shape = shape
        self.caster = caster
        self.built: dict[int, Area | None] = {}
        #: The legal origins at each height searched (range is measured in three dimensions).
        self.origins_at = [legal_origins(shape, caster=caster, range=rng, on=on, rules=self.rules, need=need,
                                         elevation=h) for h in self.heights]
        self.origins = self.origins_at[0]
        self.space = self.origins.caster
        self.walls = self.bmap.wallset(Channel.EFFECT).segs
        # A floor can cut an area over its polygon's box: met as a wall across that box would be.
        self.floors = np.array([f.polygon.bounds for f in self.bmap.floors], dtype=float).reshape(-1, 4)
        if self.origins.lattice == "caster":
            self._aim(caster, directions, pitches)
        else:
            for name, given in (("directions", directions), ("pitches", pitches)):
                if given is not None:
                    raise InvalidValueError(
                        f"{name}= is for cones and lines, aimed from their caster; a {type(shape).__name__.lower()} "
                        f"is placed at a point and keeps its own direction (got {name}={given!r})"
                    )
            self._lattice()

    # --- candidates ------------------------------------------------------

    def _lattice(self) -> None:
        """Candidates at the legal lattice points, with their open-field counts."""
        step = _STEP[self.origins.lattice]
        # Refuse what area() refuses (units, thin shapable areas) before any work.
        area(self.shape, at=(0, 0), on=self.grid, rules=self.rules, mode=self.mode)
        rows, cols = np.indices(self.origins.mask.shape)
        moved = [_moved_points(o) for o in self.origins_at]
        # Per candidate: its part (-1: moved), the point's row and column in the part
        # and in the mask, where it comes into being, its open-field counts, whether
        # they are exact, the point chosen, its distance from the caster, its direction,
        # its height.
        for name, kind in _ROWS.items():
            setattr(self, name, np.zeros(0, dtype=kind))
        self.parts: list[_Part] = []
        for n, (_, off, sl) in enumerate(_PARTS[self.origins.lattice]):
            reach, hits, avoids, unsure, near = self._open_field(off, self.origins.mask[sl].shape)
            self.parts.append(_Part(reach))
            for h, (z, o) in enumerate(zip(self.heights, self.origins_at)):
                j, i = np.nonzero(o.mask[sl] & ~moved[h][sl])
                mj, mi = rows[sl][j, i], cols[sl][j, i]
                # Exact without building the area: no wall near and every creature level,
                # or nothing to reach at all.
                known = (~near[j, i] & (unsure[h][j, i] == 0)) | ((hits[j, i] == 0) & (avoids[j, i] == 0))
                self._append(np.full(len(j), n), j, i, mj, mi, mi * step, mj * step, hits[j, i], avoids[j, i],
                             known, z)
        self.first_moved = len(self.part)
        self.moved_tokens, self.moved_start = np.zeros(0, dtype=np.intp), np.zeros(1, dtype=np.intp)
        for z, o, m in zip(self.heights, self.origins_at, moved):
            mj, mi = np.nonzero(m)
            if len(mj):
                assert o.moved_to is not None
                self.add_moved(mj, mi, o.moved_to[mj, mi, 0], o.moved_to[mj, mi, 1], z)

    def rise(self, z: Any) -> Any:
        """How far each height ``z`` lies above or below the caster (:func:`aoegrid.effects.ranges.caster_rise`; 0 with none)."""
        return 0.0 if self.caster is None else caster_rise(self.caster, z, self.grid.square)

    def _append(self, part: Any, j: Any, i: Any, mj: Any, mi: Any, qx: Any, qy: Any, hits: Any, avoids: Any,
                known: Any, z: float) -> NDArray[np.intp]:
        """Add candidates at the lattice points ``[mj, mi]`` of :attr:`origins`' mask, at height ``z``; their indices."""
        first = len(self.part)
        step = _STEP[self.origins.lattice]
        x, y = mi * step, mj * step
        space = self.space
        dist = np.zeros(len(x)) if space is None else space_distances(space, x, y, self.rules, self.grid, self.rise(z))
        new = (part, j, i, mj, mi, qx, qy, hits, avoids, known, x, y, dist, np.zeros(len(x)), np.full(len(x), z),
               np.zeros(len(x)))
        for (name, kind), values in zip(_ROWS.items(), new):
            setattr(self, name, np.concatenate([getattr(self, name), np.asarray(values, dtype=kind)]))
        return np.arange(first, len(self.part))

    def add_moved(self, mj: Any, mi: Any, qx: FloatArray, qy: FloatArray, z: float) -> NDArray[np.intp]:
        """Add candidates chosen at the lattice points ``[mj, mi]`` whose effect comes into being at ``(qx, qy)``.

        Under SW5e a point hidden from the caster comes into being on a wall's
        near side. ``z``: their height. Returns their indices: moved
        candidates follow every lattice point's (from :attr:`first_moved` on).
        """
        hits, avoids, tokens, start = self._moved(qx, qy)
        self.moved_tokens = np.concatenate([self.moved_tokens, tokens])
        self.moved_start = np.concatenate([self.moved_start[:-1], start + self.moved_start[-1]])
        return self._append(np.full(len(mj), -1), mj, mi, mj, mi, qx, qy, hits, avoids, (hits == 0) & (avoids == 0),
                            z)

    def _open_field(
        self, off: float, lat: tuple[int, int]
    ) -> tuple[list[tuple[int, int, int, BoolArray]], NDArray[np.int32], NDArray[np.int32], NDArray[np.int32],
               BoolArray]:
        """For a lattice of points ``off`` into their squares, of shape ``lat``: who each point reaches in open field.

        Returns each creature's reach (creature, top row, left column, mask:
        origin ``(i, j)`` reaches it where ``mask[j - top, i - left]`` holds),
        and per point the creatures to hit, to avoid and (per height
        searched) not level it reaches, and whether a wall comes near its area.
        """
        grid = self.grid
        dx0, dy0, k = _relative_stencil(self.shape, off, self.rules, grid.square, (grid.width, grid.height))
        kh, kw = k.shape
        hits = np.zeros(lat, dtype=np.int32)
        avoids = np.zeros(lat, dtype=np.int32)
        unsure = np.zeros((len(self.heights), *lat), dtype=np.int32)
        reach: list[tuple[int, int, int, BoolArray]] = []
        grown: dict[tuple[int, int], BoolArray] = {}
        flip = k[::-1, ::-1].astype(np.int32)
        for t, token in enumerate(self.tokens):
            if not (self.is_hit[t] or self.is_avoid[t]) or not kh:
                continue
            tw, th = token.footprint
            if (tw, th) not in grown:
                grown[(tw, th)] = _grow(_grow(flip, th, 0), tw, 1).astype(bool)
            m = grown[(tw, th)]
            top, left = token.y - (dy0 + kh - 1), token.x - (dx0 + kw - 1)
            reach.append((t, top, left, m))
            ja, jb = max(top, 0), min(top + m.shape[0], lat[0])
            ia, ib = max(left, 0), min(left + m.shape[1], lat[1])
            if ja >= jb or ia >= ib:
                continue
            part = m[ja - top : jb - top, ia - left : ib - left]
            if self.is_hit[t]:
                hits[ja:jb, ia:ib] += part
            if self.is_avoid[t]:
                avoids[ja:jb, ia:ib] += part
            unsure[~self.level[:, t], ja:jb, ia:ib] += part
        ignores_walls = isinstance(self.shape, Cylinder) and self.rules.cylinder_ignores_walls
        cutters = self.floors if ignores_walls else np.concatenate([self.walls, self.floors])
        return reach, hits, avoids, unsure, self._walls_near(cutters, lat, dx0, dy0, kw, kh, off)

    def _moved(self, qx: FloatArray, qy: FloatArray, slack: float = 0.0) -> tuple[
            NDArray[np.int64], NDArray[np.int64], NDArray[np.intp], NDArray[np.intp]]:
        """How many creatures to hit and to avoid an area coming into being at each ``(qx, qy)`` can reach.

        A creature counts when its space meets the squares the shape's
        outline can take (:func:`aoegrid.geometry.stencils._bounds` widened by a
        square, as :meth:`Window.around` widens it) and, where squares are
        taken by what they share with the outline (every inclusion but
        far-edge), lies within the outline's reach (:func:`shape_extent`) of
        the point: an upper bound, as the lattices' open-field counts are.
        Also returns each point's creatures, in the map's order, for
        :meth:`relevant`: point ``n``'s are ``tokens[start[n] : start[n + 1]]``.
        With ``slack``, the counts hold for every point within ``slack`` of
        each (in x and in y).
        """
        rules, square = self.rules, self.grid.square
        bx0, by0, bx1, by1 = _bounds(self.shape, _Origin(0.0, 0.0, 0.0, 0.0), rules, square)
        extent = shape_extent(self.shape, rules, square)
        by_x = np.argsort(qx, kind="stable")
        sorted_x = qx[by_x]
        found_q, found_t = [], []
        for t in np.flatnonzero(self.is_hit | self.is_avoid):
            b = self.tokens[t].space
            # Window.around's squares, floor(q + b0) - 1 to ceil(q + b1) + 1, meet the space's; the
            # points looked at are those whose x can (a margin over the rounding of the sums).
            lo, hi = np.searchsorted(sorted_x, [b.x - 1 - bx1 - 1e-6 - slack, b.x + b.width + 1 - bx0 + 1e-6 + slack])
            near = by_x[lo:hi]
            x, y = qx[near], qy[near]
            ok = ((x + bx1 > b.x - 1 - slack) & (x + bx0 < b.x + b.width + 1 + slack)
                  & (y + by1 > b.y - 1 - slack) & (y + by0 < b.y + b.height + 1 + slack))
            if rules.inclusion is not Inclusion.FAR_EDGE:
                gap_x = np.maximum(0.0, np.maximum(b.x - x, x - (b.x + b.width)))
                gap_y = np.maximum(0.0, np.maximum(b.y - y, y - (b.y + b.height)))
                ok &= np.hypot(gap_x, gap_y) <= extent + 1e-9 + 2 * slack
            found_q.append(near[ok])
            found_t.append(np.full(int(ok.sum()), t))
        pq = np.concatenate([np.zeros(0, dtype=np.intp), *found_q])
        pt = np.concatenate([np.zeros(0, dtype=np.intp), *found_t])
        order = np.lexsort((pt, pq))
        hits = np.bincount(pq, weights=self.is_hit[pt], minlength=len(qx)).astype(np.int64)
        avoids = np.bincount(pq, weights=self.is_avoid[pt], minlength=len(qx)).astype(np.int64)
        return hits, avoids, pt[order], np.searchsorted(pq[order], np.arange(len(qx) + 1))

    @staticmethod
    def _walls_near(s: FloatArray, lat: tuple[int, int], dx0: int, dy0: int, kw: int, kh: int, off: float) -> BoolArray:
        """Origins whose area's box (its squares and the origin) meets the box of a wall (a row of ``s``).

        A wall can cut an area only by crossing a line from the origin to one
        of its squares, which lies in that box; boxes are met with a margin.
        """
        near = np.zeros(lat, dtype=bool)
        if not len(s) or not kw:
            return near
        m = 1e-6
        bx0, bx1 = min(dx0, off), max(dx0 + kw, off)
        by0, by1 = min(dy0, off), max(dy0 + kh, off)
        wx0, wx1 = np.minimum(s[:, 0], s[:, 2]), np.maximum(s[:, 0], s[:, 2])
        wy0, wy1 = np.minimum(s[:, 1], s[:, 3]), np.maximum(s[:, 1], s[:, 3])
        ia = np.clip(np.ceil(wx0 - bx1 - m), 0, lat[1]).astype(np.int64)
        ib = np.clip(np.floor(wx1 - bx0 + m) + 1, 0, lat[1]).astype(np.int64)
        ja = np.clip(np.ceil(wy0 - by1 - m), 0, lat[0]).astype(np.int64)
        jb = np.clip(np.floor(wy1 - by0 + m) + 1, 0, lat[0]).astype(np.int64)
        ok = (ia < ib) & (ja < jb)
        ia, ib, ja, jb = ia[ok], ib[ok], ja[ok], jb[ok]
        d = np.zeros((lat[0] + 1, lat[1] + 1), dtype=np.int64)
        np.add.at(d, (ja, ia), 1)
        np.add.at(d, (ja, ib), -1)
        np.add.at(d, (jb, ia), -1)
        np.add.at(d, (jb, ib), 1)
        return np.asarray(d.cumsum(0).cumsum(1)[: lat[0], : lat[1]] > 0)

    def _aim(self, caster: Any, directions: Iterable[float | str] | None, pitches: Iterable[float] | None) -> None:
        """Candidates for a cone or line from the caster: one per direction, pitch and height, in that order."""
        if directions is None:
            directions = DIRECTIONS
        elif isinstance(directions, (str, int, float)):
            raise InvalidTypeError(f"directions must be a collection of degrees or compass names, got {directions!r}")
        dirs = sorted({parse_direction(d, "direction") for d in directions})
        if not dirs:
            raise InvalidValueError("directions is empty: give at least one direction (degrees or a compass name)")
        if pitches is None:
            pitches = (self.shape.pitch,)
        elif isinstance(pitches, (str, bytes)) or not isinstance(pitches, Iterable):
            raise InvalidTypeError(f"pitches must be a collection of degrees above the horizontal, got {pitches!r}")
        # Level first, then down before up, as heights are ordered; the shape checks each.
        ups = sorted({self.shape.replace(pitch=p).pitch for p in pitches}, key=lambda p: (abs(p), p))
        if not ups:
            raise InvalidValueError("pitches is empty: give at least one pitch (degrees above the horizontal)")
        self.at_caster: Token | Space = caster if isinstance(caster, (Token, Space)) else self.space
        g = self.grid
        cx, cy = self.space.center
        each = len(ups) * len(self.heights)
        n = len(dirs) * each
        self.dirs = np.repeat(np.array(dirs, dtype=float), each)
        self.pitch = np.tile(np.repeat(np.array(ups, dtype=float), len(self.heights)), len(dirs))
        self.z = np.tile(np.array(self.heights), len(dirs) * len(ups))
        self.x, self.y = np.full(n, cx), np.full(n, cy)
        self.dist = np.zeros(n)
        relevant = np.flatnonzero(self.is_hit | self.is_avoid)
        boxes = [self.tokens[t].space for t in relevant]
        self.aimed: list[NDArray[np.intp]] = []
        hit_open, avoid_open, unsure = [], [], []
        for d, up in itertools.product(dirs, ups):
            # Its squares in open field are the same at every height.
            mask = np.asarray(area(self.shape.replace(direction=d, pitch=up), at=self.at_caster, on=g,
                                   rules=self.rules, mode=self.mode).mask, dtype=np.int32)
            csum = np.zeros((g.height + 1, g.width + 1), dtype=np.int64)
            csum[1:, 1:] = mask.cumsum(0).cumsum(1)
            inside = np.array([
                csum[b.y + b.height, b.x + b.width] - csum[b.y, b.x + b.width] - csum[b.y + b.height, b.x] + csum[b.y, b.x] > 0
                for b in boxes
            ], dtype=bool)
            found = relevant[inside] if len(relevant) else relevant
            for h in range(len(self.heights)):
                self.aimed.append(found)
                hit_open.append(int(self.is_hit[found].sum()))
                avoid_open.append(int(self.is_avoid[found].sum()))
                # Aimed up or down, its squares' columns need not hold the origin's height.
                unsure.append(bool((~self.level[h, found]).any() or (up != 0.0 and len(found))))
        self.hit_open, self.avoid_open = np.array(hit_open), np.array(avoid_open)
        # Without walls or floors nothing can differ but heights, and no start lies in a wall.
        cut = len(self.walls) or len(self.floors)
        self.known = np.zeros(n, dtype=bool) if cut else ~np.array(unsure, dtype=bool)

    # --- evaluation ------------------------------------------------------

    @property
    def aimed_from_caster(self) -> bool:
        return self.origins.lattice == "caster"

    def at(self, k: int) -> tuple[float, float] | Token | Space:
        """The point of origin chosen (intersections as whole numbers), or the caster."""
        if self.aimed_from_caster:
            return self.at_caster
        x, y = float(self.x[k]), float(self.y[k])
        return (int(x), int(y)) if x.is_integer() and y.is_integer() else (x, y)

    def origin(self, k: int) -> tuple[float, float] | Token | Space:
        """Where placement ``k``'s effect comes into being: :meth:`at`, or where it moved to."""
        if self.aimed_from_caster or self.part[k] >= 0:
            return self.at(k)
        return (float(self.qx[k]), float(self.qy[k]))

    def direction(self, k: int) -> float | None:
        return float(self.dirs[k]) if self.aimed_from_caster else None

    def pitch_of(self, k: int) -> float | None:
        return float(self.pitch[k]) if self.aimed_from_caster else None

    def by_direction(self, values: FloatArray) -> FloatArray:
        """Per direction (increasing degrees), the best of ``values`` (one a candidate) over pitches and heights (NaN: none)."""
        return np.asarray(np.fmax.reduce(values.reshape(len(np.unique(self.dirs)), -1), axis=1))

    def shape_at(self, k: int) -> Shape:
        if self.aimed_from_caster:
            return self.shape.replace(direction=float(self.dirs[k]), pitch=float(self.pitch[k]))
        return self.shape

    def relevant(self, k: int) -> list[int]:
        """The creatures to hit or avoid that placement ``k`` reaches in open field."""
        if self.aimed_from_caster:
            return self.aimed[k].tolist()
        if self.part[k] < 0:
            n = k - self.first_moved
            return self.moved_tokens[self.moved_start[n] : self.moved_start[n + 1]].tolist()
        return self.parts[self.part[k]].relevant(int(self.j[k]), int(self.i[k]))

    def area(self, k: int) -> Area | None:
        """The area of placement ``k`` on the map, or None where its start lies in a wall.

        The last few built are kept: the best ones are built again for their
        placements.
        """
        if k in self.built:
            return self.built[k]
        try:
            a: Area | None = area(self.shape_at(k), at=self.origin(k), on=self.bmap, rules=self.rules,
                                  mode=self.mode, elevation=float(self.z[k]))
        except OriginOnWallError:
            if not self.aimed_from_caster:
                raise
            a = None  # this direction starts at a corner inside a wall: area() refuses it
        self.built[k] = a
        if len(self.built) > _KEEP:
            del self.built[next(iter(self.built))]
        return a

    def counts(self, k: int) -> tuple[int, int] | None:
        """Exactly how many creatures to hit and to avoid placement ``k`` reaches (None: illegal)."""
        if self.known[k]:
            return int(self.hit_open[k]), int(self.avoid_open[k])
        a = self.area(k)
        if a is None:
            return None
        nh = na = 0
        for t in self.relevant(k):
            if _in_area(a, self.tokens[t], Membership.ANY, 0.5) is not None:
                nh += int(self.is_hit[t])
                na += int(self.is_avoid[t])
        return nh, na

    def caster_counts(self, k: int, stand: _Stand) -> tuple[int, int]:
        """Whether placement ``k`` hits, avoids the caster (left out, :attr:`moving`) standing at ``stand``: 0 or 1 each."""
        if not (stand.hit or stand.avoid):
            return 0, 0
        a = self.area(k)
        inside = a is not None and _in_area(a, stand.token, Membership.ANY, 0.5) is not None
        return int(inside and stand.hit), int(inside and stand.avoid)

    def acceptable(self, avoided: int) -> bool:
        return self.max_avoid is None or avoided <= self.max_avoid

    def placement(self, k: int, score: Callable[[Placement], float] | None, stand: _Stand | None = None,
                  distance: float | None = None) -> Placement | None:
        """Placement ``k`` in full, scored (None: illegal); placed by the caster at ``stand``, ``distance`` from it."""
        a = self.area(k)
        if a is None:
            return None
        # Only the creatures to hit or avoid that it reaches in open field can be
        # among them; tokens() keeps the map's order, so the list is the same.
        rel = self.relevant(k)
        tokens = [self.tokens[t] for t in rel]
        if stand is not None and (stand.hit or stand.avoid):
            tokens.insert(bisect.bisect(rel, self.moving), stand.token)  # the caster, where it stands
        reached = a.tokens(tokens)
        hits = tuple(r for r in reached if self.is_hit_fn(r.token))
        avoided = tuple(r for r in reached if self.is_avoid_fn(r.token))
        moved = (None, (), 0.0) if stand is None else (stand.token, stand.path, stand.cost)
        p = Placement(self.at(k), self.direction(k), self.shape_at(k), float(len(hits)), hits, avoided, a,
                      float(self.dist[k]) if distance is None else distance, self.origin(k), *moved,
                      float(self.z[k]), self.pitch_of(k))
        if score is not None:
            p = replace(p, score=real(score(p), "score"))
        return p

    def candidate(self, k: int) -> Candidate:
        rel = self.relevant(k)
        return Candidate(
            self.at(k), self.direction(k), float(self.dist[k]),
            tuple(self.tokens[t] for t in rel if self.is_hit[t]),
            tuple(self.tokens[t] for t in rel if self.is_avoid[t]),
            self.origin(k), elevation=float(self.z[k]), pitch=self.pitch_of(k),
        )

    def tie(self, k: int) -> tuple[float, ...]:
        """The tie-breaks after score and avoided: nearer the caster, then nearer the ground (lower
        ``|height|``, then lower), then y, then x, then direction, then nearer level (lower ``|pitch|``,
        then lower)."""
        z, up = float(self.z[k]), float(self.pitch[k])
        return float(self.dist[k]), abs(z), z, float(self.y[k]), float(self.x[k]), float(self.dirs[k]), abs(up), up

    def order(self, bound: FloatArray) -> NDArray[np.intp]:
        """Candidates by bound (highest first), then the tie-breaks."""
        return np.lexsort((self.pitch, np.abs(self.pitch), self.dirs, self.x, self.y, self.z, np.abs(self.z),
                           self.dist, -bound))


def _limit(limit: int) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidValueError(f"limit must be a whole number, 1 or more; got {limit!r}")
    return limit


def _moved_points(o: Origins) -> BoolArray:
    """The legal points of ``o`` whose effect comes into being elsewhere (SW5e: on a wall's near side)."""
    if o.moved_to is None:
        return np.zeros(o.mask.shape, dtype=bool)
    step = _STEP[o.lattice]
    rows, cols = np.indices(o.mask.shape)
    return np.asarray(o.mask & ((o.moved_to[..., 0] != cols * step) | (o.moved_to[..., 1] != rows * step)))


def _checked_bound(p: Placement, b: float) -> Placement:
    """``p``, refused when it scored above the bound ``b`` given for it."""
    if p.score > b + 1e-9 * max(1.0, abs(b)):
        raise InvalidValueError(
            f"bound() gave {b:g} for the placement at {p.at!r}"
            f"{'' if p.direction is None else f' toward {p.direction:g} degrees'}, which scored {p.score:g}: "
            "a bound must be at least the score"
        )
    return p


class _Top:
    """The best ``limit`` results found so far, by key: at most one a place, with the best key it has."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.items: list[tuple[tuple[float, ...], Any, Any]] = []

    def beaten(self, lower: tuple[float, ...]) -> bool:
        """Whether no result whose key is at least ``lower`` (a key, or its first fields) can enter."""
        return len(self.items) == self.limit and lower >= self.items[-1][0]

    def add(self, key: tuple[float, ...], place: Any, payload: Any) -> None:
        for n, (old, where, _) in enumerate(self.items):
            if where == place:
                if key >= old:
                    return
                del self.items[n]
                break
        bisect.insort(self.items, (key, place, payload))
        del self.items[self.limit :]


class _Queue:
    """Work to do, in order of the least key it can give (its score bound, then the feet moved).

    :meth:`run` stops when no work left can give a result entering the top.
    """

    def __init__(self) -> None:
        self.heap: list[tuple[tuple[float, ...], int, Callable[[], None]]] = []
        self.seq = itertools.count()

    def push(self, lower: tuple[float, ...], task: Callable[[], None]) -> None:
        heapq.heappush(self.heap, (lower, next(self.seq), task))

    def run(self, top: _Top) -> None:
        while self.heap:
            lower, _, task = heapq.heappop(self.heap)
            if top.beaten(lower):
                return
            task()


class _Stands:
    """Where the caster may end its move (:func:`aoegrid.reachable`): cheapest first, then top to bottom, left to right."""

    def __init__(self, caster: Any, move: float | Reach, on: BattleMap, rules: Rules,
                 hit: Callable[[Token], bool], avoid: Callable[[Token], bool]) -> None:
        if not isinstance(caster, Token):
            raise InvalidTypeError(
                f"move= moves the caster before it places the effect: pass the caster as an aoegrid.Token "
                f"(the creature that moves), not {caster!r}"
            )
        caster_space(caster, on.grid)  # refused, and named, when off the map
        if isinstance(move, Reach):
            if move.start != (caster.x, caster.y) or move.footprint != caster.footprint:
                raise InvalidValueError(
                    f"move= is a Reach from {move.start} for a {move.footprint[0]} x {move.footprint[1]} space, "
                    f"not the caster's ({caster.label} at ({caster.x}, {caster.y}), {caster.footprint[0]} x "
                    f"{caster.footprint[1]}): compute it with aoegrid.reachable(caster, ...) on this map"
                )
            reach = move
        else:
            reach = reachable(caster, non_negative(move, "move"), on=on, rules=rules)
        ys, xs = np.nonzero(reach.mask)
        cost = reach.cost[ys, xs]
        order = np.lexsort((xs, ys, cost))
        self.x, self.y, self.cost = xs[order], ys[order], cost[order]
        self.w, self.h = caster.footprint
        self.reach, self.caster, self.on = reach, caster, on
        #: The caster's index among the map's creatures (None: it is none of them, and never reached).
        self.index = next((n for n, t in enumerate(on.tokens) if t is caster),
                          next((n for n, t in enumerate(on.tokens) if t == caster), None))
        self.hit, self.avoid = hit, avoid
        self._stands: dict[int, _Stand] = {}
        #: Whether the caster, where it may stand, is a creature to hit (to avoid): 0 or 1.
        self.may_hit = self.may_avoid = 0
        if self.index is not None:
            tokens = [caster.moved_to(int(x), int(y)) for x, y in zip(self.x, self.y)]
            self.may_hit, self.may_avoid = int(any(map(hit, tokens))), int(any(map(avoid, tokens)))

    def __len__(self) -> int:
        return len(self.x)

    def space(self, n: int) -> Space:
        return Space(int(self.x[n]), int(self.y[n]), self.w, self.h)

    def stand(self, n: int, counted: bool = True) -> _Stand:
        """The caster at stand ``n``; ``counted``: checked as a creature to hit and avoid (when on the map)."""
        key = n if counted else -1 - n
        if key not in self._stands:
            x, y = int(self.x[n]), int(self.y[n])
            token = self.caster.moved_to(x, y)
            on_map = counted and self.index is not None
            self._stands[key] = _Stand(token, tuple(self.reach.path(x, y)), float(self.cost[n]),
                                       on_map and self.hit(token), on_map and self.avoid(token))
        return self._stands[key]

    def map_at(self, n: int) -> BattleMap:
        """The map with the caster (if it is on it) moved to stand ``n``."""
        if self.index is None:
            return self.on
        with warnings.catch_warnings():
            # Where a wall crosses a corner of its space: reachable() lets it stand there.
            warnings.simplefilter("ignore", AoegridWarning)
            return self.on.move_token(self.on.tokens[self.index], int(self.x[n]), int(self.y[n]))

    def distances(self, x: Any, y: Any, rules: Rules, rise: Any = 0.0) -> FloatArray:
        """From each stand's space to each point ``(x, y)``, ``rise`` above or below the caster: ``(stands, points)``."""
        x, y = np.atleast_1d(np.asarray(x, float))[None, :], np.atleast_1d(np.asarray(y, float))[None, :]
        x0, y0 = self.x[:, None], self.y[:, None]
        rise = np.atleast_1d(np.asarray(rise, float))[None, :]
        return box_distances(x0, y0, x0 + self.w, y0 + self.h, x, y, rules, self.on.grid, rise)

    def rise(self, z: Any) -> Any:
        """How far each height ``z`` lies above or below the caster (it keeps its elevation as it moves)."""
        return caster_rise(self.caster, z, self.on.grid.square)

    def samples(self) -> tuple[FloatArray, FloatArray]:
        """Where lines start from each stand's space (:func:`aoegrid.effects.result.origin_samples`): ``(stands, 5)`` each.

        Its four corners nudged inside, then its centre.
        """
        xy = np.array([origin_samples(_Origin(*self.space(n).bounds)) for n in range(len(self))]).reshape(-1, 5, 2)
        return xy[..., 0], xy[..., 1]


class _PointMoves:
    """A shape placed at a point, by a caster that first moves: which stands each point is legal from.

    ``s`` searches every point the lattice allows (no caster), leaving the
    caster out of the creatures; legality (range, line of effect or sight)
    is judged per stand, as :func:`aoegrid.legal_origins` from there would
    judge it. A point's area does not depend on where the caster stands,
    but for the caster's own token (:meth:`_Search.caster_counts`) and,
    under SW5e, for points hidden from the stand, which come into being on a
    wall's near side: those are candidates of their own, added as a stand's
    origins are listed (:meth:`moved_from`).
    """

    def __init__(self, s: _Search, stands: _Stands, rng: Range | None, need: Need | str | None) -> None:
        self.s, self.stands, self.rng, self.need = s, stands, rng, need
        self.limit = math.inf if rng is None else rng.feet
        self.moves = moves_unseen(s.shape, s.rules)
        self.channels = resolve_need(need, s.rules)
        self.starts = stands.samples()
        self.walls = {c: self._walls(c) for c in {*self.channels, *((Channel.SIGHT,) if self.moves else ())}}
        # Walls of finite height and floors: lines are judged in three dimensions, by each stand's legal origins.
        self.in_3d = any(s.bmap.in_3d(-math.inf, math.inf))
        #: Whether every wall blocking sight blocks effect (no fog, no sight-only wall): then a point
        #: surely out of sight (SW5e) surely comes into being short of a wall, elsewhere.
        self.sight_within_effect = not s.bmap.fog and all(
            w.blocks_effect or not w.blocks_sight for w in s.bmap.walls)
        self.near: dict[int, FloatArray] = {}
        self.opened: dict[tuple[int, float], tuple[Origins, BoolArray]] = {}

    def reach(self, ks: NDArray[np.intp]) -> None:
        """Work out the distance from every stand to the points of candidates ``ks``, once."""
        ks = np.array([k for k in ks if k not in self.near], dtype=np.intp)
        if len(ks):
            d = self.stands.distances(self.s.x[ks], self.s.y[ks], self.s.rules, self.stands.rise(self.s.z[ks]))
            self.near.update(zip(ks.tolist(), d.T))

    def in_range(self, k: int) -> NDArray[np.intp]:
        """The stands within range of candidate ``k``'s point: cheapest, nearest, top, left first."""
        self.reach(np.array([k]))
        d, st = self.near[k], self.stands
        n = np.flatnonzero(d <= self.limit + 1e-9) if math.isfinite(self.limit) else np.arange(len(st))
        return n[np.lexsort((st.x[n], st.y[n], d[n], st.cost[n]))]

    def least(self, k: int) -> tuple[float, float]:
        """The least cost and distance of a stand within range of candidate ``k``'s point (inf: none)."""
        n = self.in_range(k)
        return (float(self.stands.cost[n[0]]), float(self.near[k][n].min())) if len(n) else (math.inf, math.inf)

    def _walls(self, channel: Channel) -> tuple[FloatArray, NDArray[np.int8], FloatArray]:
        """The walls blocking ``channel`` that lines from the stands can meet, their ways, and their boxes."""
        sx, sy = self.starts
        grid = self.s.grid
        # Every line runs between a stand and a point of the map.
        near = (min(sx.min(), 0.0), min(sy.min(), 0.0), max(sx.max(), grid.width), max(sy.max(), grid.height))
        segs, ways = self.s.bmap.wallset(channel).near(near)
        boxes = np.column_stack([np.minimum(segs[:, 0], segs[:, 2]), np.minimum(segs[:, 1], segs[:, 3]),
                                 np.maximum(segs[:, 0], segs[:, 2]), np.maximum(segs[:, 1], segs[:, 3])])
        return segs, ways, boxes

    def sure(self, k: int, stands: NDArray[np.intp]) -> NDArray[np.int8]:
        """Per stand: +1 where candidate ``k``'s point is surely legal and stays, -1 surely not legal, 0 unsure.

        Read from lines that need no visibility polygon
        (:func:`aoegrid.board.visibility.lines_surely`): a stand sees the point
        when a line from one of its starts (corners nudged in, centre)
        surely does, and not when every line surely meets a wall. Under SW5e
        a point must be surely seen to stay where it is chosen; surely out of
        sight, it moves (and is no lattice point's placement) when the wall
        hiding it from the centre blocks effect too.
        """
        if self.in_3d:
            return np.zeros(len(stands), dtype=np.int8)
        sx, sy = self.starts[0][stands].ravel(), self.starts[1][stands].ravel()
        x, y = float(self.s.x[k]), float(self.s.y[k])
        box = (min(sx.min(), x) - 1, min(sy.min(), y) - 1, max(sx.max(), x) + 1, max(sy.max(), y) + 1)

        def seen(channel: Channel) -> NDArray[np.int8]:
            segs, ways, boxes = self.walls[channel]
            meet = (boxes[:, 0] <= box[2]) & (boxes[:, 2] >= box[0]) & (boxes[:, 1] <= box[3]) & (boxes[:, 3] >= box[1])
            t = lines_surely(sx, sy, (x, y), segs[meet], ways[meet]).reshape(-1, 5)  # any start seeing it is enough
            return np.where((t > 0).any(axis=1), 1, np.where((t < 0).all(axis=1), -1, 0)).astype(np.int8)

        per = np.array([seen(c) for c in self.channels])
        need = np.where((per < 0).any(axis=0), -1, np.where((per > 0).all(axis=0), 1, 0)).astype(np.int8)
        if not self.moves:
            return need
        sight = seen(Channel.SIGHT)
        return np.where(sight > 0, need, np.where((sight < 0) & self.sight_within_effect, -1, 0)).astype(np.int8)

    def origins(self, n: int, z: float) -> tuple[Origins, BoolArray]:
        """The legal origins at height ``z`` from stand ``n`` (:func:`aoegrid.legal_origins`), and those that move."""
        if (n, z) not in self.opened:
            st = self.stands
            o = legal_origins(self.s.shape, caster=st.caster.moved_to(int(st.x[n]), int(st.y[n])), range=self.rng,
                              on=self.s.bmap, rules=self.s.rules, need=self.need, elevation=z)
            self.opened[(n, z)] = (o, _moved_points(o))
        return self.opened[(n, z)]

    def legal(self, k: int, n: int, sure: int) -> bool:
        """Whether lattice candidate ``k``'s point is legal from stand ``n`` (in range) and stays where chosen."""
        if sure:
            return sure > 0
        o, moved = self.origins(n, float(self.s.z[k]))
        j, i = self.s.mask_j[k], self.s.mask_i[k]
        return bool(o.mask[j, i] and not moved[j, i])

    def moved_bound(self, n: int) -> float:
        """The most a point hidden from stand ``n`` can score where it comes into being (SW5e); -inf: none moves.

        Every point in range whose line from the stand's centre meets a wall
        blocking effect is taken for hidden, moved as it would be
        (:func:`aoegrid.effects.build.wall_ahead`) and counted in open field
        (:meth:`_Search._moved`, with a margin over rounding): no stand's
        legal origins, which cost visibility polygons from all its starts.
        """
        s, st = self.s, self.stands
        x, y, z = s.x[: s.first_moved], s.y[: s.first_moved], s.z[: s.first_moved]
        d = space_distances(st.space(n), x, y, s.rules, s.grid, st.rise(z))
        if math.isfinite(self.limit):
            x, y, z = x[d <= self.limit + 1e-9], y[d <= self.limit + 1e-9], z[d <= self.limit + 1e-9]
        qx, qy = x.copy(), y.copy()
        for h in np.unique(z):
            # A point moves short of the walls standing at its height (aoegrid.effects.build.near_side).
            at = z == h
            qx[at], qy[at] = wall_ahead(s.bmap.full_walls(float(h), float(h)), st.space(n), x[at], y[at])
        moved = (qx != x) | (qy != y)
        if not moved.any():
            return -math.inf
        return float(s._moved(qx[moved], qy[moved], slack=1e-6)[0].max() + st.may_hit)

    def moved_from(self, n: int) -> NDArray[np.intp]:
        """Candidates for the points legal from stand ``n`` that move there (SW5e), at every height, added to the search."""
        added = [np.zeros(0, dtype=np.intp)]
        for z in self.s.heights:
            o, moved = self.origins(n, z)
            mj, mi = np.nonzero(moved)
            if len(mj):
                assert o.moved_to is not None
                added.append(self.s.add_moved(mj, mi, o.moved_to[mj, mi, 0], o.moved_to[mj, mi, 1], z))
        return np.concatenate(added)

    def distance(self, k: int, n: int) -> float:
        """From stand ``n``'s space to candidate ``k``'s point, in the grid's unit."""
        s = self.s
        return float(space_distances(self.stands.space(n), s.x[k], s.y[k], s.rules, s.grid, self.stands.rise(s.z[k])))

    def candidate(self, k: int, n: int | None = None) -> Candidate:
        """Candidate ``k`` for a ``bound=``: from stand ``n``, or from every stand (see :class:`Candidate`)."""
        c, st = self.s.candidate(k), self.stands
        if n is None:
            cost, distance = self.least(k)
            me = () if st.index is None else (self.s.tokens[st.index],)
            return replace(c, distance=distance, cost=cost, hits=c.hits + me * st.may_hit,
                           avoided=c.avoided + me * st.may_avoid)
        stand = st.stand(n)
        return replace(c, distance=self.distance(k, n), stand=stand.token, cost=stand.cost,
                       hits=c.hits + (stand.token,) * stand.hit, avoided=c.avoided + (stand.token,) * stand.avoid)

    def evaluate(self, k: int, n: int, distance: float, score: Callable[[Placement], float] | None,
                 bound: float, base: tuple[int, int] | None) -> tuple[tuple[float, ...], Any] | None:
        """Candidate ``k`` placed from stand ``n``: its key and what :meth:`placement` builds it from (None: unacceptable).

        ``base`` is ``s.counts(k)`` (needed without ``score``); ``bound``
        the score bound it must keep to (with ``score``).
        """
        s, st = self.s, self.stands
        stand = st.stand(n)
        tail = (float(st.cost[n]),), (distance, *s.tie(k)[1:], float(st.y[n]), float(st.x[n]))
        if score is None:
            assert base is not None
            dh, da = s.caster_counts(k, stand)
            if not s.acceptable(base[1] + da):
                return None
            return (-float(base[0] + dh), *tail[0], base[1] + da, *tail[1]), (k, n, distance)
        p = s.placement(k, score, stand, distance)
        if p is None or not s.acceptable(len(p.avoided)):
            return None
        return (-_checked_bound(p, bound).score, *tail[0], len(p.avoided), *tail[1]), p

    def settle(self, k: int, top: _Top | None, score: Callable[[Placement], float] | None,
               bound: float) -> tuple[tuple[float, ...], Any] | None:
        """The best way to place lattice candidate ``k``: from which stand, by key (None: from none).

        Stands are tried cheapest first; ``top`` (None: none) prunes those
        whose cost cannot enter it. Without ``score`` the first legal stand is
        the best unless the caster's own token can change the counts.
        """
        s, st = self.s, self.stands
        base = s.counts(k) if score is None and s.known[k] else None  # exact for free: tightens the bound now
        if base is not None:
            bound = min(bound, base[0] + st.may_hit)
        stands = self.in_range(k)
        if top is not None:  # only the stands cheap enough to enter the top are looked at
            stands = stands[[not top.beaten((-bound, c)) for c in st.cost[stands].tolist()]]
        d = self.near[k]
        best: tuple[tuple[float, ...], Any] | None = None
        sure = self.sure(k, stands) if len(stands) else np.zeros(0, dtype=np.int8)
        for pos, n in enumerate(stands.tolist()):
            cost = float(st.cost[n])
            if top is not None and top.beaten((-bound, cost)):
                break  # the bound, now exact, leaves the dearer stands out
            if best is not None and base is not None and -best[0][0] == bound and (
                    best[0][2] == base[1] or cost > best[0][1]):
                break  # the most it can score, from the cheapest stand that gives it
            if not self.legal(k, n, int(sure[pos])):
                continue
            if score is None and base is None:
                base = s.counts(k)
                assert base is not None  # a point's area always exists
                bound = min(bound, base[0] + st.may_hit)
            found = self.evaluate(k, n, float(d[n]), score, bound, base)
            if found is not None and (best is None or found[0] < best[0]):
                best = found
        return best

    def best(self, limit: int, score: Callable[[Placement], float] | None,
             bound: Callable[[Candidate], float] | None) -> list[Placement]:
        """The ``limit`` best placements, each point once, from its best stand."""
        s, st = self.s, self.stands
        top, queue = _Top(limit), _Queue()
        lattice = np.arange(s.first_moved)
        if bound is not None:
            bounds = np.array([real(bound(self.candidate(k)), "bound") for k in lattice.tolist()])
        elif score is not None:
            bounds = np.full(len(lattice), math.inf)
        else:
            bounds = (s.hit_open[lattice] + st.may_hit).astype(float)

        def place(k: int) -> tuple[float, int, int]:
            return float(s.z[k]), int(s.mask_j[k]), int(s.mask_i[k])

        def settle(k: int) -> None:
            found = self.settle(k, top, score, float(bounds[k]))
            if found is not None:
                top.add(found[0], place(k), found[1])

        # Points in groups of equal bound, the highest first: a group's stands
        # are looked up when it comes up, and each point waits its least cost.
        levels, group = np.unique(-bounds, return_inverse=True)
        by_group = np.split(lattice[np.argsort(group, kind="stable")], np.cumsum(np.bincount(group))[:-1])

        def open_group(g: int) -> None:
            self.reach(by_group[g])
            for k in by_group[g].tolist():
                cost = self.least(k)[0]
                if math.isfinite(cost):
                    queue.push((float(levels[g]), cost), lambda k=k: settle(k))

        for g in range(len(levels)):
            queue.push((float(levels[g]),), lambda g=g: open_group(g))
        if self.moves:
            # SW5e: from each stand, points hidden from it come into being elsewhere; listed stand by
            # stand, cheapest first, while what they can score (every creature to hit) can enter.
            most = math.inf if score is not None else float(s.is_hit.sum() + st.may_hit)

            def pair(k: int, n: int, b: float) -> None:
                found = self.evaluate(k, n, self.distance(k, n), score, b, s.counts(k) if score is None else None)
                if found is not None:
                    top.add(found[0], place(k), found[1])

            def open_stand(n: int) -> None:
                for k in self.moved_from(n).tolist():
                    b = (real(bound(self.candidate(k, n)), "bound") if bound is not None
                         else math.inf if score is not None else float(s.hit_open[k] + st.may_hit))
                    queue.push((-b, float(st.cost[n])), lambda k=k, b=b: pair(k, n, b))

            def bound_stand(n: int) -> None:
                # What a stand's moved points can score, then (if anything moves) the stand's own turn.
                b = self.moved_bound(n) if score is None else math.inf
                if b > -math.inf:
                    queue.push((-b, float(st.cost[n])), lambda: open_stand(n))
                if n + 1 < len(st):
                    queue.push((-most, float(st.cost[n + 1])), lambda: bound_stand(n + 1))

            queue.push((-most, float(st.cost[0])), lambda: bound_stand(0))
        queue.run(top)
        return [p if isinstance(p, Placement) else self.placement(*p) for _, _, p in top.items]

    def placement(self, k: int, n: int, distance: float) -> Placement:
        p = self.s.placement(k, None, self.stands.stand(n), distance)
        assert p is not None  # a point's area always exists
        return p

    def scores(self, score: Callable[[Placement], float] | None) -> FloatArray:
        """Per point of the lattice, the best score from any stand and height it is legal from (NaN: none)."""
        s, st = self.s, self.stands
        out = np.full(s.origins.mask.shape, np.nan)
        lattice = np.arange(s.first_moved)
        self.reach(lattice)
        for k in lattice.tolist():
            found = self.settle(k, None, score, math.inf)
            at = s.mask_j[k], s.mask_i[k]
            if found is not None and not -found[0][0] <= out[at]:
                out[at] = -found[0][0]
        if self.moves:
            for n in range(len(st)):
                for k in self.moved_from(n).tolist():
                    at = s.mask_j[k], s.mask_i[k]
                    if score is None and s.hit_open[k] + st.may_hit <= out[at]:
                        continue  # cannot score more than the point already does
                    found = self.evaluate(k, n, self.distance(k, n), score, math.inf,
                                          s.counts(k) if score is None else None)
                    if found is not None and not -found[0][0] <= out[at]:
                        out[at] = -found[0][0]
        return out


class _AimMoves:
    """Cones and lines aimed from every square the caster may move to: a search a stand, made when first needed."""

    def __init__(self, stands: _Stands, make: Callable[[Token, BattleMap], _Search]) -> None:
        self.stands, self.make = stands, make
        self.searches: dict[int, _Search] = {}

    def search(self, n: int) -> _Search:
        if n not in self.searches:
            self.searches[n] = self.make(self.stands.stand(n, counted=False).token, self.stands.map_at(n))
        return self.searches[n]

    def reach_bounds(self) -> FloatArray:
        """Per stand, the most creatures to hit an area aimed from it can reach, in any direction.

        Every square of such an area lies within :func:`shape_extent` (and,
        counted far edge, within its length by the diagonal rule, no less
        than squares across; aimed up or down, within its outline's box,
        :func:`aoegrid.geometry.stencils._bounds`) of a point on the caster's space:
        the creatures to hit within that many squares, two more to spare,
        and the caster.
        """
        s, st = self.search(0), self.stands
        reach = shape_extent(s.shape, s.rules, s.grid.square)
        for up in {float(p) for p in s.pitch if p != 0.0}:  # aimed up or down: as far as its outline's box
            reach = max(reach, *np.abs(_bounds(s.shape.replace(pitch=up), _Origin(0.0, 0.0, 0.0, 0.0), s.rules,
                                               s.grid.square)))
        reach += 2.0
        others = [t.space for n, t in enumerate(s.tokens) if s.is_hit[n] and n != st.index]
        if not others:
            return np.full(len(st), float(st.may_hit))
        x0, y0 = np.array([b.x for b in others])[None, :], np.array([b.y for b in others])[None, :]
        x1, y1 = x0 + np.array([b.width for b in others]), y0 + np.array([b.height for b in others])
        gx = np.maximum(0, np.maximum(x0 - (st.x + st.w)[:, None], st.x[:, None] - x1))
        gy = np.maximum(0, np.maximum(y0 - (st.y + st.h)[:, None], st.y[:, None] - y1))
        return ((np.maximum(gx, gy) <= reach).sum(axis=1) + st.may_hit).astype(float)

    def best(self, limit: int, score: Callable[[Placement], float] | None,
             bound: Callable[[Candidate], float] | None) -> list[Placement]:
        """The ``limit`` best (stand, direction) placements: stands opened in order of what they can reach."""
        st = self.stands
        top, queue = _Top(limit), _Queue()

        def aim(n: int, k: int, b: float) -> None:
            s, stand = self.search(n), st.stand(n, counted=False)
            where = (float(st.cost[n]),), (*s.tie(k), float(st.y[n]), float(st.x[n]))
            if score is None:
                c = s.counts(k)
                if c is not None and s.acceptable(c[1]):
                    top.add((-float(c[0]), *where[0], c[1], *where[1]), (n, k), None)
                return
            p = s.placement(k, score, stand)
            if p is not None and s.acceptable(len(p.avoided)):
                top.add((-_checked_bound(p, b).score, *where[0], len(p.avoided), *where[1]), (n, k), p)

        def open_stand(n: int) -> None:
            s, stand = self.search(n), st.stand(n, counted=False)
            for k in range(len(s.dist)):
                b = (real(bound(replace(s.candidate(k), stand=stand.token, cost=stand.cost)), "bound")
                     if bound is not None else math.inf if score is not None else float(s.hit_open[k]))
                queue.push((-b, stand.cost), lambda k=k, b=b: aim(n, k, b))

        most = self.reach_bounds() if score is None else np.full(len(st), math.inf)
        for n in range(len(st)):
            queue.push((-float(most[n]), float(st.cost[n])), lambda n=n: open_stand(n))
        queue.run(top)
        return [p if isinstance(p, Placement) else self.placement(*where) for _, where, p in top.items]

    def placement(self, n: int, k: int) -> Placement:
        p = self.search(n).placement(k, None, self.stands.stand(n, counted=False))
        assert p is not None  # only a direction with an area is kept
        return p

    def scores(self, score: Callable[[Placement], float] | None) -> FloatArray:
        """Per square the caster may move to (its top-left square), the best score of any direction from there."""
        st = self.stands
        out = np.full(st.on.grid.shape, np.nan)
        for n in range(len(st)):
            values = _values(self.search(n), score, st.stand(n, counted=False))
            if np.isfinite(values).any():
                out[st.y[n], st.x[n]] = np.nanmax(values)
        return out


def _values(s: _Search, score: Callable[[Placement], float] | None, stand: _Stand | None = None) -> FloatArray:
    """Every candidate's score (NaN: illegal, or not acceptable), the caster at ``stand``."""
    values = np.full(len(s.dist), np.nan)
    for k, _ in enumerate(values):
        if score is None:
            c = s.counts(k)
            if c is not None and s.acceptable(c[1]):
                values[k] = c[0]
        else:
            p = s.placement(k, score, stand)
            if p is not None and s.acceptable(len(p.avoided)):
                values[k] = p.score
    return values


def _moving(shape: Shape, caster: Any, rng: Range | float | None, on: BattleMap, rules: Rules | str,
            mode: Mode | str, hit: Selector, avoid: Selector, max_avoid: int | None,
            directions: Iterable[float | str] | None, pitches: Iterable[float] | None, need: Need | str | None,
            elevation: float | Iterable[float], move: float | Reach) -> _PointMoves | _AimMoves:
    """The search for ``move=``: where the caster may stand, and what it may place from each square."""
    if caster is None:
        raise InvalidValueError(
            f"move= moves the caster before it places the effect: with caster=None (an effect placed anywhere, "
            f"with no one casting it) there is no one to move; got move={move!r}"
        )
    _checked_map(on)
    base = resolve_rules(rules)
    r = None if rng is None else as_range(rng)
    if r is not None:
        check_shape_range(shape, r, base.for_shape(shape))
    resolve_need(need, base)  # refused before any work
    stands = _Stands(caster, move, on, base, _selector(hit, "hit"), _selector(avoid, "avoid"))
    if origin_lattice(shape, base) == "caster":
        aimed = _AimMoves(stands, lambda token, m: _Search(shape, token, r, m, rules, mode, hit, avoid, max_avoid,
                                                            directions, pitches, need, elevation))
        aimed.search(0)  # refuses bad arguments before any other work
        return aimed
    s = _Search(shape, None, None, on, rules, mode, hit, avoid, max_avoid, directions, pitches, None, elevation,
                moving=stands.index)
    return _PointMoves(s, stands, r, need)


def _board_only(board: str, **options: Any) -> None:
    """Refuse the options the search on ``board`` does not take yet (hexes: :mod:`aoegrid.hextactics`, the open
    table: :func:`aoegrid.openarea.open_best_placements`)."""
    given = [k for k, v in options.items() if v is not None and not (k == "elevation" and v == 0.0)]
    if given:
        raise InvalidValueError(
            f"on {board} the placement search takes no {', '.join(f'{k}=' for k in given)} yet "
            f"(hits, avoids, range and limit it does)"
        )


def _hex_move(move: Any) -> None:
    """Refuse a square grid's Reach as a hex search's ``move=`` (a HexReach, or a number, it takes)."""
    if isinstance(move, Reach):
        raise InvalidTypeError(f"on a hex map move= is a number or a HexReach (ag.reachable on the hex map), "
                               f"not a square grid's Reach: got {move!r}")


def best_placements(
    shape: Shape,
    *,
    caster: Any,
    range: Range | float | None = None,
    on: BattleMap,
    rules: Rules | str = "starfinder",
    mode: Mode | str = "burst",
    hit: Selector = None,
    avoid: Selector = None,
    max_avoid: int | None = 0,
    score: Callable[[Placement], float] | None = None,
    bound: Callable[[Candidate], float] | None = None,
    directions: Iterable[float | str] | None = None,
    pitches: Iterable[float] | None = None,
    limit: int = 1,
    need: Need | str | None = None,
    elevation: float | Iterable[float] = 0.0,
    move: float | Reach | HexReach | None = None,
) -> list[Placement]:
    """The best places to put ``shape``: the most foes reached, no friend.

    Every legal origin (:func:`aoegrid.legal_origins`) is considered, and
    for cones and lines, which start at the caster, every direction of
    ``directions`` at every pitch of ``pitches``. The points looked at are
    every intersection under Starfinder and Pathfinder 2e, and every
    intersection and square centre under SW5e and Savage Worlds, whose
    points of origin may lie anywhere
    (``aoegrid.effects.ranges.origin_lattice``): what :func:`aoegrid.area`
    accepts there, all of it; a point between them (an edge's middle) is not
    tried. The answer is exactly what building the area at each of them
    (``ag.area(shape, at=origin, on=on, rules=rules, mode=mode,
    caster=caster, range=range)``) and reading :meth:`Area.tokens` gives:
    under SW5e a point the caster cannot see behind a wall is legal when in
    range and scored by the area on the wall's near side, where it comes
    into being (:attr:`Placement.origin`).

    **Heights** (``elevation=``): the origin is at one height (default 0,
    the ground), or each of a collection is searched (``elevation=range(0,
    31, 5)``, ``[0, 10, 20]``): every (origin, height) pair is a placement
    of its own (:attr:`Placement.elevation`), legal where the origin at that
    height is (:func:`aoegrid.legal_origins` with ``elevation=``: range is
    measured in three dimensions, from the caster's prism) and scored by the
    area placed there (``ag.area(..., elevation=p.elevation)``), so a ball
    lifted among flyers reaches them. A cone or line starts from its caster
    at each height.

    **Move, then place** (``move=``): the caster first moves up to ``move``
    (:func:`aoegrid.reachable`: walls, terrain, creatures in the way, the
    preset's movement rules), then places the effect from where it stands.
    Each placement says where (:attr:`Placement.stand`), the path there and
    its cost; range and line of effect or sight are judged from there, and
    the caster's own token, if it is on the map, stands there. The answer is
    what this search without ``move=`` gives from every square the caster
    can reach (the caster moved there: ``on.move_token(caster, x, y)``),
    best of all: a point of origin appears once, from its best stand, a cone
    or line once per stand and direction. It is much faster than that: a
    point's area does not depend on where the caster stands, so each point
    is scored once, and only the stands it may be legal from are looked at,
    cheapest first (lines of effect that surely pass or surely meet a wall
    are read without a visibility polygon).

    ``caster=None`` places the effect with no caster (a trap, a hazard, a
    GM's effect): every point of the lattice not inside a wall, no range, no
    line from anyone; :attr:`Placement.distance` is 0.

    Parameters
    ----------
    shape : Shape
    caster : Token, Space, (x, y) or None
        A Token with ``move=``; None: no caster (not for cones and lines).
    range : Range or float, optional
        How far from the caster the origin may be (None: anywhere).
    on : BattleMap
        Its walls cut the areas; its tokens are the creatures.
    rules, mode
        As for :func:`aoegrid.area`.
    hit, avoid : set of str, str, callable or tokens
        Creatures to reach and to spare: tags (a creature with any of them),
        a predicate on tokens, or the tokens themselves.
    max_avoid : int or None
        A placement reaching more creatures to avoid than this is not
        acceptable (default 0); None accepts any number.
    score : callable, optional
        ``score(placement) -> float``, called with the placement whose
        ``score`` is the default (the number of hits); higher is better.
        Without ``bound`` every legal placement is built and scored (with
        ``move=``, from every stand it is legal from).
    bound : callable, optional
        ``bound(candidate) -> float``, at least the ``score`` of the
        placement a :class:`Candidate` (the creatures the shape reaches in
        open field) becomes: placements are then built in order of bound,
        and the search stops when no bound left can beat what is found. A
        placement scoring above its bound raises.
    directions : iterable of degrees or compass names, optional
        For cones and lines: the directions tried (default
        ``DIRECTIONS``, every 5 degrees).
    pitches : iterable of degrees, optional
        For cones and lines: the pitches tried with every direction, degrees
        above the horizontal from -90 to 90 (``[0, 30, 60]``; default the
        shape's own, level unless given): aimed up, a cone reaches flyers.
    limit : int
        How many placements to return.
    need : {"effect", "sight", "both"}, optional
        What the caster needs to the origin (see :func:`aoegrid.legal_origins`).
    elevation : float or iterable of float
        The origin's height, as for :func:`aoegrid.area`, in the grid's
        unit; or the heights to search (see *Heights* above).
    move : float or Reach, optional
        How far the caster may move first, in the grid's unit, or a
        :class:`aoegrid.Reach` for it (``ag.reachable(caster, 30, on=m,
        through=...)``, for the movement options it takes); on a hex map a
        ``aoegrid.hextactics.HexReach`` (``ag.reachable`` there).

    Returns
    -------
    list of Placement
        At most ``limit``, best first: higher score, then (with ``move=``)
        fewer feet moved, then fewer avoided, nearer the caster (in three
        dimensions, to the origin at its height), then nearer the ground
        (lower ``|height|``, then the lower: 0, -5, 5, 10), then top to
        bottom (y), left to right (x), then direction, then nearer level
        (lower ``|pitch|``, then the lower), then (with ``move=``) the stand
        top to bottom, left to right; distance and position are
        the point chosen's (:attr:`Placement.at`), so intersections and
        centres interleave. With ``move=`` a point of origin appears once a
        height, from its best stand. Empty when no placement is acceptable.

    Raises
    ------
    InvalidTypeError
        ``on`` not a BattleMap; ``hit`` or ``avoid`` neither tags, a
        predicate nor tokens; with ``move=``, a caster not a Token;
        ``elevation`` neither a number nor a collection of numbers.
    InvalidValueError
        Neither ``hit`` nor ``score`` given; a bad ``limit`` or
        ``max_avoid``; an empty ``elevation`` collection or a height not
        finite; ``directions=`` or ``pitches=`` for a shape placed at a
        point, an empty one, or a pitch outside -90..90; a
        ``bound`` below a score; a ``move`` negative or not finite, or with
        ``caster=None``; ``caster=None`` with a range, a need, or a cone or
        line; a caster inside a wall.
    OffGridError
        A caster not wholly on the map.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(12, 8), walls=[ag.Wall((6, 0), (6, 4))], tokens=[
    ...     ag.Token(8, 1, tags={"enemy"}), ag.Token(9, 1, tags={"enemy"}), ag.Token(8, 2, tags={"enemy"}),
    ...     ag.Token(2, 2, tags={"enemy"}), ag.Token(3, 2, tags={"enemy"}), ag.Token(3, 3, tags={"ally"})])
    >>> wizard = ag.Token(1, 6, tags={"ally"})
    >>> plans = ag.best_placements(ag.Sphere(10), caster=wizard, range=40, on=m, hit={"enemy"}, avoid={"ally"},
    ...                            limit=2)
    >>> [(p.at, p.score, p.distance, len(p.avoided)) for p in plans]   # round the wall's end; clear of the ally
    [((9, 3), 3.0, 40.0, 0), ((2, 2), 2.0, 20.0, 0)]
    >>> [(r.token.x, r.token.y, r.cover_name) for r in plans[0].hits]
    [(8, 2, 'none'), (8, 1, 'none'), (9, 1, 'none')]

    Moving first (``move=``, here up to 30 ft) brings a cluster into range;
    ``caster=None`` (a trap) places it anywhere:

    >>> foes = [ag.Token(x, y, tags={"enemy"}) for x, y in [(12, 2), (13, 2), (12, 3), (13, 3)]]
    >>> hall = ag.BattleMap(ag.Grid(16, 7), tokens=foes)
    >>> p = ag.best_placements(ag.Sphere(5), caster=ag.Token(1, 3), range=30, on=hall, hit="enemy", move=30)[0]
    >>> p.at, p.score, p.cost, (p.stand.x, p.stand.y), p.distance   # 25 ft moved, 30 ft from there
    ((13, 3), 4.0, 25.0, (6, 2), 30.0)
    >>> p.path
    ((1, 3), (2, 3), (3, 3), (4, 2), (5, 2), (6, 2))
    >>> [q.at for q in ag.best_placements(ag.Sphere(5), caster=None, on=hall, hit="enemy", limit=2)]
    [(13, 3), (13, 2)]

    Flyers 30 ft up are beyond a ball on the ground; searching heights lifts
    it to them (25 ft up is 30 ft from the caster, counted in three
    dimensions; 30 ft up would be 35):

    >>> bats = ag.BattleMap(ag.Grid(10, 10), tokens=[ag.Token(x, 4, tags={"enemy"}, elevation=30) for x in (4, 5, 6)])
    >>> bolt = dict(caster=ag.Token(0, 4), range=60, on=bats, hit="enemy")
    >>> ag.best_placements(ag.Sphere(10), **bolt)[0].score
    0.0
    >>> p = ag.best_placements(ag.Sphere(10), **bolt, elevation=range(0, 41, 5))[0]
    >>> p.at, p.elevation, p.score, p.distance, p.area.elevation
    ((5, 4), 25.0, 3.0, 30.0, 25.0)
    """
    if isinstance(on, BattleMap) and isinstance(on.grid, Gridless):
        _board_only("the open table", move=move, score=score, bound=bound, pitches=pitches, need=need,
                    directions=directions)
        return open_best_placements(shape, on, None, rules, caster, range,  # type: ignore[arg-type, return-value]
                                    mode=mode, hit=hit, avoid=avoid, max_avoid=max_avoid or 0, limit=limit,
                                    elevation=elevation)  # type: ignore[arg-type]
    if isinstance(on, BattleMap) and isinstance(on.grid, HexGrid):
        _board_only("a hex map", score=score, bound=bound, pitches=pitches, elevation=elevation)
        _hex_move(move)
        return hex_best_placements(shape, caster, range, on, rules, mode, hit=hit, avoid=avoid,  # type: ignore[return-value]
                                   max_avoid=max_avoid, limit=limit, directions=directions, need=need,
                                   move=move)
    limit = _limit(limit)
    if hit is None and score is None:
        raise InvalidValueError("best_placements needs hit= (tags, a predicate or tokens) or score= (a callable)")
    if move is not None:
        return _moving(shape, caster, range, on, rules, mode, hit, avoid, max_avoid, directions, pitches, need,
                       elevation, move).best(limit, score, bound)
    s = _Search(shape, caster, range, on, rules, mode, hit, avoid, max_avoid, directions, pitches, need, elevation)
    top = _Top(limit)
    if score is None:
        bounds = s.hit_open.astype(float)
        for k in s.order(bounds).tolist():
            if top.beaten((-bounds[k], 0, *s.tie(k))):
                break
            c = s.counts(k)
            if c is not None and s.acceptable(c[1]):
                top.add((-c[0], c[1], *s.tie(k)), k, None)
        return [p for _, k, _ in top.items if (p := s.placement(k, None)) is not None]
    if bound is None:
        bounds = np.full(len(s.dist), math.inf)
    else:
        bounds = np.array([real(bound(s.candidate(k)), "bound") for k in np.arange(len(s.dist)).tolist()])
    for k in s.order(bounds).tolist():
        if top.beaten((-bounds[k], 0, *s.tie(k))):
            break
        p = s.placement(k, score)
        if p is not None and s.acceptable(len(p.avoided)):
            top.add((-_checked_bound(p, bounds[k]).score, len(p.avoided), *s.tie(k)), k, p)
    return [p for _, _, p in top.items]


def placement_scores(
    shape: Shape,
    *,
    caster: Any,
    range: Range | float | None = None,
    on: BattleMap,
    rules: Rules | str = "starfinder",
    mode: Mode | str = "burst",
    hit: Selector = None,
    avoid: Selector = None,
    max_avoid: int | None = 0,
    score: Callable[[Placement], float] | None = None,
    directions: Iterable[float | str] | None = None,
    pitches: Iterable[float] | None = None,
    need: Need | str | None = None,
    elevation: float | Iterable[float] = 0.0,
    move: float | Reach | HexReach | None = None,
) -> FloatArray:
    """The score of every placement, as :func:`best_placements` scores them.

    With ``move=`` (the caster moves first, see :func:`best_placements`) a
    heat map of what moving allows: for a shape placed at a point, per point
    of the lattice, the best score from any square the caster can reach
    that the point is legal from (NaN from none: out of range or out of
    view from all of them); for a cone or line, per square the caster can
    reach (its space's top-left square; ``(height, width)``, indexed
    ``[y, x]``), the best score of any direction from there (NaN where it
    cannot move to, or no direction is acceptable). With ``caster=None``,
    every point not inside a wall is scored.

    Returns
    -------
    float array
        On the lattice of :func:`aoegrid.legal_origins`, indexed as its
        :attr:`Origins.mask`: shape ``(height + 1, width + 1)`` over
        intersections (Starfinder, Pathfinder 2e; ``scores[y, x]`` is the
        intersection ``(x, y)``); ``(2 * height + 1, 2 * width + 1)`` over
        intersections and square centres (SW5e, Savage Worlds), one entry
        every half square: ``scores[2 * y, 2 * x]`` is the intersection ``(x,
        y)``, ``scores[2 * y + 1, 2 * x + 1]`` the centre of square ``(x,
        y)``, and the entries between (middles of square edges, not searched)
        are NaN. NaN also where the origin is illegal or the placement not
        acceptable (more creatures to avoid than ``max_avoid``). Under SW5e a
        point the caster cannot see behind a wall scores the area on the
        wall's near side (:attr:`Placement.origin`). For cones and lines,
        one score per direction, in increasing degrees
        (``sorted(directions)``, default ``DIRECTIONS``), NaN where the
        direction starts inside a wall; with ``move=``, one per square, as
        above. With several heights (``elevation=[...]``), each entry is the
        best score over the heights (a point legal at one height only
        scores there); for cones and lines, over the heights and the
        ``pitches`` too (one score per direction still).

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(4, 2), tokens=[ag.Token(0, 0, tags={"orc"}), ag.Token(3, 1, tags={"elf"})])
    >>> print(ag.placement_scores(ag.Sphere(5), caster=ag.Token(1, 1), range=10, on=m, hit="orc", avoid="elf"))
    [[ 1.  1.  0.  0.  0.]
     [ 1.  1.  0. nan nan]
     [ 0.  0.  0. nan nan]]
    >>> e5 = ag.placement_scores(ag.Sphere(5), caster=ag.Token(1, 1), range=10, on=m, rules="sw5e", hit="orc")
    >>> e5.shape, float(e5[0, 0]), float(e5[1, 1]), bool(np.isnan(e5[0, 1]))   # intersection (0, 0), centre, an edge
    ((5, 9), 1.0, 1.0, True)
    >>> print(ag.placement_scores(ag.Sphere(5), caster=ag.Token(3, 0), range=5, on=m, hit="orc", avoid="elf"))
    [[nan nan  0.  0.  0.]
     [nan nan  0. nan nan]
     [nan nan  0. nan nan]]
    >>> print(ag.placement_scores(ag.Sphere(5), caster=ag.Token(3, 0), range=5, on=m, hit="orc", avoid="elf",
    ...                           move=10))                        # 10 ft west first: the orc in reach
    [[ 1.  1.  0.  0.  0.]
     [ 1.  1.  0. nan nan]
     [ 0.  0.  0. nan nan]]
    """
    if isinstance(on, BattleMap) and isinstance(on.grid, HexGrid):
        _board_only("a hex map", score=score, pitches=pitches, elevation=elevation)
        _hex_move(move)
        return hex_placement_scores(shape, caster, range, on, rules, mode, hit=hit, avoid=avoid,
                                    max_avoid=max_avoid, directions=directions, need=need, move=move)
    if hit is None and score is None:
        raise InvalidValueError("placement_scores needs hit= (tags, a predicate or tokens) or score= (a callable)")
    if move is not None:
        return _moving(shape, caster, range, on, rules, mode, hit, avoid, max_avoid, directions, pitches, need,
                       elevation, move).scores(score)
    s = _Search(shape, caster, range, on, rules, mode, hit, avoid, max_avoid, directions, pitches, need, elevation)
    values = _values(s, score)
    if s.aimed_from_caster:
        return s.by_direction(values)
    out = np.full(s.origins.mask.shape, np.nan)
    np.fmax.at(out, (s.mask_j, s.mask_i), values)  # the best height at each point
    return out
