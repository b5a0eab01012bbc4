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
* elsewhere areas are built in order of their bound, and the search stops
  when no bound left can beat the placements found.

Each kind of point searched (intersections, square centres) is a lattice of
its own, one square apart, so one stencil serves all its points. A point
whose effect comes into being elsewhere (SW5e: behind a wall the caster
cannot see, it moves to the wall's near side) is off every lattice: its bound
counts the creatures within the shape's reach of where it comes into being.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from aoegrid._validate import real
from aoegrid.area import Area, area
from aoegrid.battlemap import BattleMapCore as BattleMap
from aoegrid.directions import parse_direction
from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.options import Inclusion, Mode, parse_option
from aoegrid.ranges import (
    _PARTS,
    _STEP,
    Need,
    Range,
    as_range,
    check_shape_range,
    legal_origins,
    space_distances,
)
from aoegrid.raster import Window
from aoegrid.rules import Rules, resolve_rules
from aoegrid.shapes import Cylinder, Shape
from aoegrid.stencils import (
    _CACHE_CELLS,
    _bounds,
    _cached_stencil,
    _fitted,
    _Origin,
    _rasterize,
    shape_extent,
)
from aoegrid.targets import Membership, Reached, _in_area
from aoegrid.tokens import Space, Token
from aoegrid.visibility import OriginOnWallError
from aoegrid.walls import Channel

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
        cones and lines the caster they start from: what
        ``ag.area(p.shape, at=p.at, on=m, rules=..., caster=caster)`` takes,
        giving :attr:`area` again.
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
        From the caster's space to :attr:`at`, in the grid's unit (0 for
        cones and lines): the distance the range limits.
    origin : (x, y), Token or Space
        Where the effect comes into being: :attr:`at`, except under SW5e for
        a point the caster cannot see behind an obstruction, which comes
        into being on the obstruction's near side
        (:func:`aoegrid.build.near_side`); :attr:`area` is placed there
        (``ag.area(p.shape, at=p.origin, on=m, rules=...)`` gives it too).
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


@dataclass(frozen=True, slots=True)
class Candidate:
    """What a ``bound=`` callable sees of a placement before its area is built.

    ``hits`` and ``avoided`` are the creatures to hit and to avoid that the
    shape reaches in open field: every creature the placement's area can
    reach is among them (walls and heights only take creatures away). A
    bound must be at least the score of every placement with these.
    ``at``, ``distance`` and ``origin`` are as for :class:`Placement`.
    """

    at: tuple[float, float] | Token | Space
    direction: float | None
    distance: float
    hits: tuple[Token, ...]
    avoided: tuple[Token, ...]
    origin: tuple[float, float] | Token | Space


Selector = Callable[[Token], bool] | Iterable[str] | Iterable[Token] | str | None


def _selector(value: Selector, field: str) -> Callable[[Token], bool]:
    """``value`` as a predicate: tags (a set of str, or one str), a callable, or tokens."""
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


def _grow(a: NDArray[np.int32], n: int, axis: int) -> NDArray[np.int32]:
    """``out[i] = any(a[i - n + 1 .. i])`` along ``axis``, for ``i`` in ``[0, len + n - 1)``."""
    a = np.moveaxis(a, axis, 0)
    pad = np.zeros((n - 1, *a.shape[1:]), dtype=np.int32)
    c = np.concatenate([np.zeros((1, *a.shape[1:]), dtype=np.int32), np.cumsum(np.concatenate([pad, a, pad]), axis=0)])
    out = (c[n:] - c[: c.shape[0] - n]) > 0
    return np.moveaxis(out.astype(np.int32), 0, axis)


def _relative_stencil(shape: Shape, off: float, rules: Rules, square: float, size: tuple[int, int]) -> tuple[int, int, BoolArray]:
    """The shape's open-field squares around an origin ``off`` into square (0, 0).

    Returns the offset ``(dx0, dy0)`` of its first column and row and the
    mask, trimmed to its squares. The answer depends only on the origin's
    offset in its square (as :func:`aoegrid.stencils._stencil_on_grid`
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
        need: Need | str | None,
        elevation: float,
    ) -> None:
        if not isinstance(on, BattleMap):
            raise InvalidTypeError(
                f"on must be an aoegrid.BattleMap (its creatures are what placements are scored on), got {on!r}"
            )
        if max_avoid is not None and (isinstance(max_avoid, bool) or not isinstance(max_avoid, int) or max_avoid < 0):
            raise InvalidValueError(f"max_avoid must be a whole number, 0 or more, or None for no limit; got {max_avoid!r}")
        self.rules = resolve_rules(rules).for_shape(shape)
        self.mode = parse_option(Mode, mode, "mode")
        self.bmap, self.grid = on, on.grid
        self.elevation = real(elevation, "elevation")
        self.max_avoid = max_avoid
        self.is_hit_fn, self.is_avoid_fn = _selector(hit, "hit"), _selector(avoid, "avoid")
        self.tokens = on.tokens
        self.is_hit = np.array([self.is_hit_fn(t) for t in self.tokens], dtype=bool)
        self.is_avoid = np.array([self.is_avoid_fn(t) for t in self.tokens], dtype=bool)
        tall = np.array([t.footprint[0] * self.grid.square for t in self.tokens], dtype=float)
        low = np.array([t.elevation for t in self.tokens], dtype=float)
        # A creature whose height spans the origin's passes every height test.
        self.level = (low <= self.elevation) & (self.elevation <= low + tall)
        self.shape = shape
        self.built: dict[int, Area | None] = {}
        rng = None if rng is None else as_range(rng)
        if rng is not None:
            check_shape_range(shape, rng, self.rules)
        self.origins = legal_origins(shape, caster=caster, range=rng, on=on, rules=self.rules, need=need)
        self.space = self.origins.caster
        self.walls = self.bmap.wallset(Channel.EFFECT).segs
        if self.origins.lattice == "caster":
            self._aim(caster, directions)
        else:
            if directions is not None:
                raise InvalidValueError(
                    f"directions= is for cones and lines, aimed from their caster; a {type(shape).__name__.lower()} "
                    f"is placed at a point and keeps its own direction (got directions={directions!r})"
                )
            self._lattice()

    # --- candidates ------------------------------------------------------

    def _lattice(self) -> None:
        """Candidates at the legal lattice points, with their open-field counts."""
        o = self.origins
        step = _STEP[o.lattice]
        # Refuse what area() refuses (units, thin shapable areas) before any work.
        area(self.shape, at=(0, 0), on=self.grid, rules=self.rules, mode=self.mode)
        rows, cols = np.indices(o.mask.shape)
        moved = np.zeros(o.mask.shape, dtype=bool)
        if o.moved_to is not None:
            moved = o.mask & ((o.moved_to[..., 0] != cols * step) | (o.moved_to[..., 1] != rows * step))
        # Per kind of point, then the moved points: its part (-1: moved), the point's
        # row and column in the part and in the mask, where it comes into being, counts.
        found = []
        self.parts: list[_Part] = []
        for n, (_, off, sl) in enumerate(_PARTS[o.lattice]):
            reach, hits, avoids, unsure, near = self._open_field(off, o.mask[sl].shape)
            self.parts.append(_Part(reach))
            j, i = np.nonzero(o.mask[sl] & ~moved[sl])
            mj, mi = rows[sl][j, i], cols[sl][j, i]
            # Exact without building the area: no wall near and every creature level,
            # or nothing to reach at all.
            known = (~near[j, i] & (unsure[j, i] == 0)) | ((hits[j, i] == 0) & (avoids[j, i] == 0))
            found.append((np.full(len(j), n), j, i, mj, mi, mi * step, mj * step, hits[j, i], avoids[j, i], known))
        mj, mi = np.nonzero(moved)
        q = o.moved_to[mj, mi] if len(mj) else np.zeros((0, 2))
        hits, avoids = self._moved(q[:, 0], q[:, 1])
        self.first_moved = sum(len(f[0]) for f in found)
        found.append((np.full(len(mj), -1), mj, mi, mj, mi, q[:, 0], q[:, 1], hits, avoids, (hits == 0) & (avoids == 0)))
        (self.part, self.j, self.i, self.mask_j, self.mask_i, self.qx, self.qy, self.hit_open, self.avoid_open,
         self.known) = [np.concatenate(c) for c in zip(*found)]
        self.x, self.y = self.mask_i * step, self.mask_j * step
        self.dist = space_distances(self.space, self.x, self.y, self.rules, self.grid)
        self.dirs = np.zeros(len(self.part))

    def _open_field(
        self, off: float, lat: tuple[int, int]
    ) -> tuple[list[tuple[int, int, int, BoolArray]], NDArray[np.int32], NDArray[np.int32], NDArray[np.int32], BoolArray]:
        """For a lattice of points ``off`` into their squares, of shape ``lat``: who each point reaches in open field.

        Returns each creature's reach (creature, top row, left column, mask:
        origin ``(i, j)`` reaches it where ``mask[j - top, i - left]`` holds),
        and per point the creatures to hit, to avoid and not level it
        reaches, and whether a wall comes near its area.
        """
        grid = self.grid
        dx0, dy0, k = _relative_stencil(self.shape, off, self.rules, grid.square, (grid.width, grid.height))
        kh, kw = k.shape
        hits = np.zeros(lat, dtype=np.int32)
        avoids = np.zeros(lat, dtype=np.int32)
        unsure = np.zeros(lat, dtype=np.int32)
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
            if not self.level[t]:
                unsure[ja:jb, ia:ib] += part
        if isinstance(self.shape, Cylinder) and self.rules.cylinder_ignores_walls:
            near = np.zeros(lat, dtype=bool)
        else:
            near = self._walls_near(lat, dx0, dy0, kw, kh, off)
        return reach, hits, avoids, unsure, near

    def _moved(self, qx: FloatArray, qy: FloatArray) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """How many creatures to hit and to avoid an area coming into being at each ``(qx, qy)`` can reach.

        A creature counts when its space meets the squares the shape's
        outline can take (:func:`aoegrid.stencils._bounds` widened by a
        square, as :meth:`Window.around` widens it) and, where squares are
        taken by what they share with the outline (every inclusion but
        far-edge), lies within the outline's reach (:func:`shape_extent`) of
        the point: an upper bound, as the lattices' open-field counts are.
        Keeps each point's creatures, in the map's order, for
        :meth:`relevant`.
        """
        self.moved_tokens, self.moved_start = np.zeros(0, dtype=np.intp), np.zeros(len(qx) + 1, dtype=np.intp)
        if not len(qx):  # nothing moves: every preset but SW5e, and SW5e where the caster sees all
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
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
            lo, hi = np.searchsorted(sorted_x, [b.x - 1 - bx1 - 1e-6, b.x + b.width + 1 - bx0 + 1e-6])
            near = by_x[lo:hi]
            x, y = qx[near], qy[near]
            ok = ((x + bx1 > b.x - 1) & (x + bx0 < b.x + b.width + 1)
                  & (y + by1 > b.y - 1) & (y + by0 < b.y + b.height + 1))
            if rules.inclusion is not Inclusion.FAR_EDGE:
                gap_x = np.maximum(0.0, np.maximum(b.x - x, x - (b.x + b.width)))
                gap_y = np.maximum(0.0, np.maximum(b.y - y, y - (b.y + b.height)))
                ok &= np.hypot(gap_x, gap_y) <= extent + 1e-9
            found_q.append(near[ok])
            found_t.append(np.full(int(ok.sum()), t))
        pq = np.concatenate([np.zeros(0, dtype=np.intp), *found_q])
        pt = np.concatenate([np.zeros(0, dtype=np.intp), *found_t])
        order = np.lexsort((pt, pq))
        self.moved_tokens = pt[order]
        self.moved_start = np.searchsorted(pq[order], np.arange(len(qx) + 1))
        hits = np.bincount(pq, weights=self.is_hit[pt], minlength=len(qx)).astype(np.int64)
        avoids = np.bincount(pq, weights=self.is_avoid[pt], minlength=len(qx)).astype(np.int64)
        return hits, avoids

    def _walls_near(self, lat: tuple[int, int], dx0: int, dy0: int, kw: int, kh: int, off: float) -> BoolArray:
        """Origins whose area's box (its squares and the origin) meets a wall's box.

        A wall can cut an area only by crossing a line from the origin to one
        of its squares, which lies in that box; boxes are met with a margin.
        """
        near = np.zeros(lat, dtype=bool)
        if not len(self.walls) or not kw:
            return near
        m = 1e-6
        bx0, bx1 = min(dx0, off), max(dx0 + kw, off)
        by0, by1 = min(dy0, off), max(dy0 + kh, off)
        s = self.walls
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

    def _aim(self, caster: Any, directions: Iterable[float | str] | None) -> None:
        """Candidates for a cone or line: one per direction, from the caster."""
        if directions is None:
            directions = DIRECTIONS
        elif isinstance(directions, (str, int, float)):
            raise InvalidTypeError(f"directions must be a collection of degrees or compass names, got {directions!r}")
        dirs = sorted({parse_direction(d, "direction") for d in directions})
        if not dirs:
            raise InvalidValueError("directions is empty: give at least one direction (degrees or a compass name)")
        self.at_caster: Token | Space = caster if isinstance(caster, (Token, Space)) else self.space
        g = self.grid
        cx, cy = self.space.center
        self.dirs = np.array(dirs)
        self.x, self.y = np.full(len(dirs), cx), np.full(len(dirs), cy)
        self.dist = np.zeros(len(dirs))
        relevant = np.flatnonzero(self.is_hit | self.is_avoid)
        boxes = [self.tokens[t].space for t in relevant]
        self.aimed: list[NDArray[np.intp]] = []
        hit_open, avoid_open, unsure = [], [], []
        for d in dirs:
            mask = np.asarray(area(self.shape.replace(direction=d), at=self.at_caster, on=g, rules=self.rules,
                                   mode=self.mode, elevation=self.elevation).mask, dtype=np.int32)
            csum = np.zeros((g.height + 1, g.width + 1), dtype=np.int64)
            csum[1:, 1:] = mask.cumsum(0).cumsum(1)
            inside = np.array([
                csum[b.y + b.height, b.x + b.width] - csum[b.y, b.x + b.width] - csum[b.y + b.height, b.x] + csum[b.y, b.x] > 0
                for b in boxes
            ], dtype=bool)
            found = relevant[inside] if len(relevant) else relevant
            self.aimed.append(found)
            hit_open.append(int(self.is_hit[found].sum()))
            avoid_open.append(int(self.is_avoid[found].sum()))
            unsure.append(bool((~self.level[found]).any()))
        self.hit_open, self.avoid_open = np.array(hit_open), np.array(avoid_open)
        # Without walls nothing can differ but heights, and no start lies in a wall.
        self.known = np.zeros(len(dirs), dtype=bool) if len(self.walls) else ~np.array(unsure, dtype=bool)

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

    def shape_at(self, k: int) -> Shape:
        return self.shape.replace(direction=float(self.dirs[k])) if self.aimed_from_caster else self.shape

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
                                  mode=self.mode, elevation=self.elevation)
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

    def acceptable(self, avoided: int) -> bool:
        return self.max_avoid is None or avoided <= self.max_avoid

    def placement(self, k: int, score: Callable[[Placement], float] | None) -> Placement | None:
        """Placement ``k`` in full, scored (None: illegal)."""
        a = self.area(k)
        if a is None:
            return None
        # Only the creatures to hit or avoid that it reaches in open field can be
        # among them; tokens() keeps the map's order, so the list is the same.
        reached = a.tokens([self.tokens[t] for t in self.relevant(k)])
        hits = tuple(r for r in reached if self.is_hit_fn(r.token))
        avoided = tuple(r for r in reached if self.is_avoid_fn(r.token))
        p = Placement(self.at(k), self.direction(k), self.shape_at(k), float(len(hits)), hits, avoided, a,
                      float(self.dist[k]), self.origin(k))
        if score is not None:
            p = replace(p, score=real(score(p), "score"))
        return p

    def candidate(self, k: int) -> Candidate:
        rel = self.relevant(k)
        return Candidate(
            self.at(k), self.direction(k), float(self.dist[k]),
            tuple(self.tokens[t] for t in rel if self.is_hit[t]),
            tuple(self.tokens[t] for t in rel if self.is_avoid[t]),
            self.origin(k),
        )

    def tie(self, k: int) -> tuple[float, float, float, float]:
        """The tie-breaks after score and avoided: nearer the caster, then y, then x, then direction."""
        return float(self.dist[k]), float(self.y[k]), float(self.x[k]), float(self.dirs[k])

    def order(self, bound: FloatArray) -> NDArray[np.intp]:
        """Candidates by bound (highest first), then the tie-breaks."""
        return np.lexsort((self.dirs, self.x, self.y, self.dist, -bound))


def _limit(limit: int) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidValueError(f"limit must be a whole number, 1 or more; got {limit!r}")
    return limit


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
    limit: int = 1,
    need: Need | str | None = None,
    elevation: float = 0.0,
) -> list[Placement]:
    """The best places to put ``shape``: the most foes reached, no friend.

    Every legal origin (:func:`aoegrid.legal_origins`) is considered, and
    for cones and lines, which start at the caster, every direction of
    ``directions``. The points looked at are every intersection under
    Starfinder and Pathfinder 2e, and every intersection and square centre
    under SW5e and Savage Worlds, whose points of origin may lie anywhere
    (:func:`aoegrid.ranges.origin_lattice`): what :func:`aoegrid.area`
    accepts there, all of it; a point between them (an edge's middle) is not
    tried. The answer is exactly what building the area at each of them
    (``ag.area(shape, at=origin, on=on, rules=rules, mode=mode,
    caster=caster, range=range)``) and reading :meth:`Area.tokens` gives:
    under SW5e a point the caster cannot see behind a wall is legal when in
    range and scored by the area on the wall's near side, where it comes
    into being (:attr:`Placement.origin`).

    Parameters
    ----------
    shape : Shape
    caster : Token, Space or (x, y)
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
        Without ``bound`` every legal placement is built and scored.
    bound : callable, optional
        ``bound(candidate) -> float``, at least the ``score`` of the
        placement a :class:`Candidate` (the creatures the shape reaches in
        open field) becomes: placements are then built in order of bound,
        and the search stops when no bound left can beat what is found. A
        placement scoring above its bound raises.
    directions : iterable of degrees or compass names, optional
        For cones and lines: the directions tried (default
        :data:`DIRECTIONS`, every 5 degrees).
    limit : int
        How many placements to return.
    need : {"effect", "sight", "both"}, optional
        What the caster needs to the origin (see :func:`aoegrid.legal_origins`).
    elevation : float
        The origin's height, as for :func:`aoegrid.area`.

    Returns
    -------
    list of Placement
        At most ``limit``, best first: higher score, then fewer avoided,
        nearer the caster, then top to bottom (y), left to right (x), then
        direction; distance and position are the point chosen's
        (:attr:`Placement.at`), so intersections and centres interleave.
        Empty when no placement is acceptable.

    Raises
    ------
    InvalidTypeError
        ``on`` not a BattleMap; ``hit`` or ``avoid`` neither tags, a
        predicate nor tokens.
    InvalidValueError
        Neither ``hit`` nor ``score`` given; a bad ``limit`` or
        ``max_avoid``; ``directions=`` for a shape placed at a point; a
        ``bound`` below a score.

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
    """
    limit = _limit(limit)
    if hit is None and score is None:
        raise InvalidValueError("best_placements needs hit= (tags, a predicate or tokens) or score= (a callable)")
    s = _Search(shape, caster, range, on, rules, mode, hit, avoid, max_avoid, directions, need, elevation)
    n = len(s.dist)
    top: list[tuple[tuple[float, ...], int, Placement | None]] = []

    def keep(key: tuple[float, ...], k: int, p: Placement | None) -> None:
        bisect.insort(top, (key, k, p))
        del top[limit:]

    if score is None:
        bounds = s.hit_open.astype(float)
        for k in s.order(bounds):
            if len(top) == limit and (-bounds[k], 0, *s.tie(k)) >= top[-1][0]:
                break
            c = s.counts(int(k))
            if c is None or not s.acceptable(c[1]):
                continue
            keep((-c[0], c[1], *s.tie(k)), int(k), None)
        return [p for _, k, _ in top if (p := s.placement(k, None)) is not None]
    if bound is None:
        bounds = np.full(n, math.inf)
    else:
        bounds = np.array([real(bound(s.candidate(int(k))), "bound") for k in np.arange(n)])
    for k in s.order(bounds):
        if len(top) == limit and (-bounds[k], 0, *s.tie(k)) >= top[-1][0]:
            break
        p = s.placement(int(k), score)
        if p is None or not s.acceptable(len(p.avoided)):
            continue
        if p.score > bounds[k] + 1e-9 * max(1.0, abs(bounds[k])):
            raise InvalidValueError(
                f"bound() gave {bounds[k]:g} for the placement at {p.at!r}"
                f"{'' if p.direction is None else f' toward {p.direction:g} degrees'}, which scored {p.score:g}: "
                "a bound must be at least the score"
            )
        keep((-p.score, len(p.avoided), *s.tie(k)), int(k), p)
    return [p for _, _, p in top if p is not None]


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
    need: Need | str | None = None,
    elevation: float = 0.0,
) -> FloatArray:
    """The score of every placement, as :func:`best_placements` scores them.

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
        (``sorted(directions)``, default :data:`DIRECTIONS`), NaN where the
        direction starts inside a wall.

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
    """
    if hit is None and score is None:
        raise InvalidValueError("placement_scores needs hit= (tags, a predicate or tokens) or score= (a callable)")
    s = _Search(shape, caster, range, on, rules, mode, hit, avoid, max_avoid, directions, need, elevation)
    values = np.full(len(s.dist), np.nan)
    for k, _ in enumerate(values):
        if score is None:
            c = s.counts(k)
            if c is not None and s.acceptable(c[1]):
                values[k] = c[0]
        else:
            p = s.placement(k, score)
            if p is not None and s.acceptable(len(p.avoided)):
                values[k] = p.score
    if s.aimed_from_caster:
        return values
    out = np.full(s.origins.mask.shape, np.nan)
    out[s.mask_j, s.mask_i] = values
    return out
