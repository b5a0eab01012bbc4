"""The squares an area covers: a lazy result that knows how it was made.

:class:`AreaCore` holds an area's shape on the grid (its stencil) and, on a
map, works out the rest only when it is read: which squares walls leave in
(``mask``), how much of each square the origin reaches (``visible``), cover
grades (``cover``, tested at square corners only where a square is partly
reached), line of sight, and a spread's path lengths. Creature queries and
pictures are layered above it (:class:`aoegrid.area.Area`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Self, TypeVar, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from aoegrid.board.battlemap import BattleMapCore
from aoegrid.board.heights import floor_blocks, wall_rows, walls_crossing
from aoegrid.board.spread import path_distance
from aoegrid.board.visibility import OriginOnWallError, Visibility
from aoegrid.board.walls import Channel
from aoegrid.errors import GridMismatchError, InvalidValueError
from aoegrid.geometry._validate import real
from aoegrid.geometry.cover import grade
from aoegrid.geometry.directions import unit_vector
from aoegrid.geometry.distance import measure, measure3
from aoegrid.geometry.grid import Grid
from aoegrid.geometry.options import ConeKind, Diagonals, Inclusion, Mode
from aoegrid.geometry.raster import Window, center_offsets, centers, far_offsets, near_offsets
from aoegrid.geometry.regions import EPS
from aoegrid.geometry.rules import Rules
from aoegrid.geometry.shapes import Cone, Cube, Cylinder, Line, Shapable, Shape, Sphere
from aoegrid.geometry.stencils import (
    _Origin,
    pitched,
    pitched_columns,
    pitched_heights,
    shape_extent,
)
from aoegrid.geometry.tokens import Space

BoolArray = NDArray[np.bool_]
FloatArray = NDArray[np.float64]
Frame = tuple[float, float, float, float]
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Recipe:
    """How an area was asked for: to cut it by walls, move it, or measure creatures from it.

    ``on`` is the Grid or BattleMap, ``at`` what was passed as the origin,
    ``origin`` the resolved point or space, ``clear`` the creature's space
    left out of its own area (5e cones, cubes and lines), if any, ``stop``
    how far along its axis (squares) a line runs before it strikes a wall or
    a floor (:func:`aoegrid.effects.build.line_stop`).
    """

    on: Any
    at: Any
    include_origin: bool | None
    caster: Any
    elevation: float
    origin: _Origin
    clear: Space | None = None
    stop: float = math.inf

    @property
    def battlemap(self) -> BattleMapCore | None:
        return self.on if isinstance(self.on, BattleMapCore) else None


def see_from(bmap: BattleMapCore, channel: Channel, origin: tuple[float, float], frame: Frame) -> Visibility:
    """The visibility of ``origin`` on ``bmap`` among walls meeting ``frame``."""
    return bmap.visibility(channel, origin, frame)


def frame_around(grid: Grid, points: list[tuple[float, float]], window: Window | None = None) -> Frame:
    """A box around ``window`` (or the whole grid) and ``points``, one square wider."""
    if window is None:
        window = Window(0, 0, grid.width, grid.height)
    xs = [window.x0, window.x0 + window.width, *(p[0] for p in points)]
    ys = [window.y0, window.y0 + window.height, *(p[1] for p in points)]
    return min(xs) - 1.0, min(ys) - 1.0, max(xs) + 1.0, max(ys) + 1.0


def origin_samples(origin: _Origin) -> list[tuple[float, float]]:
    """Where lines of effect start: the point, or a space's corners (nudged in) and centre."""
    if origin.is_point:
        return [(origin.x0, origin.y0)]
    nudge = 1e-6
    x0, y0, x1, y1 = origin.x0 + nudge, origin.y0 + nudge, origin.x1 - nudge, origin.y1 - nudge
    cx, cy = (origin.x0 + origin.x1) / 2, (origin.y0 + origin.y1) / 2
    return [(x0, y0), (x1, y0), (x0, y1), (x1, y1), (cx, cy)]


#: How far (squares) inside a square its corner test points lie (:meth:`AreaCore._points3`).
NUDGE = 0.01
#: A square's test points in three dimensions, from its top-left corner: its centre, then its corners nudged in.
TEST_POINTS = np.array([(0.5, 0.5), (NUDGE, NUDGE), (1 - NUDGE, NUDGE), (NUDGE, 1 - NUDGE), (1 - NUDGE, 1 - NUDGE)])
#: Heights tested between the solid's bottom and top (:func:`sample_heights`).
BETWEEN = 7


def sample_heights(z: float, low: float, high: float) -> FloatArray:
    """The heights at which a square's column is tested: the origin's ``z``, ``low``, ``high``
    and :data:`BETWEEN` evenly spaced between them, each once (a share of test points counts each
    point once).

    Examples
    --------
    >>> sample_heights(0.0, -20.0, 20.0).tolist()
    [0.0, -20.0, 20.0, -15.0, -10.0, -5.0, 5.0, 10.0, 15.0]
    """
    between = low + (high - low) * np.arange(1, BETWEEN + 1) / (BETWEEN + 1)
    return np.array(list(dict.fromkeys([z, low, high, *between.tolist()])), dtype=np.float64)


def vertical_gap(lo: ArrayLike, hi: ArrayLike, z0: float, z1: float) -> FloatArray:
    """Distance between the height ranges ``[lo, hi]`` and ``[z0, z1]`` (0 where they meet)."""
    return np.maximum(0.0, np.maximum(z0 - np.asarray(hi, dtype=np.float64), np.asarray(lo, dtype=np.float64) - z1))


def _clear_space(local: BoolArray, window: Window, space: Space) -> None:
    xa = max(space.x - window.x0, 0)
    ya = max(space.y - window.y0, 0)
    xb = min(space.x + space.width - window.x0, window.width)
    yb = min(space.y + space.height - window.y0, window.height)
    if xa < xb and ya < yb:
        local[ya:yb, xa:xb] = False


class AreaCore:
    """A set of squares on a grid, with how it was made; see :class:`aoegrid.area.Area`.

    Nothing beyond the shape's own squares is computed until it is read.
    """

    __slots__ = (
        "_cover",
        "_local",
        "_mask",
        "_path",
        "_prisms",
        "_reach3",
        "_shape_local",
        "_sight",
        "_vis",
        "_visible",
        "grid",
        "mode",
        "origin",
        "recipe",
        "rules",
        "shape",
        "window",
    )

    def __init__(
        self,
        grid: Grid,
        window: Window,
        local: BoolArray,
        *,
        shape: Shape | None = None,
        origin: tuple[float, float] | Space | None = None,
        rules: Rules | None = None,
        mode: Mode | None = None,
        recipe: Recipe | None = None,
    ) -> None:
        self.grid = grid
        self.window = window
        self._shape_local = local
        self.shape = shape
        self.origin = origin
        self.rules = rules
        self.mode = mode
        #: How the area was asked for, or None for a combination of areas.
        self.recipe = recipe
        # On a map the squares walls leave in are worked out when first read.
        self._local: BoolArray | None = None if self.battlemap is not None else self._without_caster(local)
        self._mask: BoolArray | None = None
        self._vis: dict[Channel, list[Visibility]] = {}
        self._visible: FloatArray | None = None
        self._cover: NDArray[np.int8] | None = None
        self._sight: tuple[FloatArray, NDArray[np.int8]] | None = None
        self._path: FloatArray | None = None
        #: Line of effect in three dimensions to a creature's prism, by token (:func:`aoegrid.effects.targets`).
        self._prisms: dict[Any, tuple[BoolArray, BoolArray]] = {}
        #: Per (what, channel): the 3D test points, fractions and blocked corners over the window (:meth:`_kept3`).
        self._reach3: dict[tuple[str, Channel], Any] = {}

    @property
    def battlemap(self) -> BattleMapCore | None:
        """The map whose walls cut this area, or None on a bare grid."""
        return None if self.recipe is None else self.recipe.battlemap

    # --- walls -------------------------------------------------------------

    def _plane(self) -> BattleMapCore:
        """The map of the walls that span every height the area involves (:meth:`BattleMapCore.full_walls`).

        Those heights are the solid's (:meth:`vertical_extent`): every line
        tested runs from the origin to a point of the solid. With default
        wall spans this is the map itself.
        """
        bmap = self.battlemap
        assert bmap is not None
        return bmap.full_walls(*self.vertical_extent())

    def _views(self, channel: Channel, plane: bool = True) -> list[Visibility]:
        """The visibility of every sample origin, built once per channel: among the
        :meth:`_plane` map's walls, or (``plane=False``) all the map's walls as if infinitely tall."""
        bmap = self.battlemap
        assert bmap is not None and self.recipe is not None
        key = channel if plane else (channel, "all walls")
        if key not in self._vis:
            samples = origin_samples(self.recipe.origin)
            frame = frame_around(self.grid, samples, self.window)
            on = self._plane() if plane else bmap
            self._vis[key] = [see_from(on, channel, p, frame) for p in samples]
        return self._vis[key]

    def lines3(self, px: ArrayLike, py: ArrayLike, pz: ArrayLike,
               channel: Channel = Channel.EFFECT) -> tuple[BoolArray, BoolArray]:
        """Line of effect (or of ``channel``) in three dimensions from the origin to points ``(px, py, pz)``.

        Returns ``(clear, touched)``: ``clear`` where a straight line from some
        sample of the origin (:func:`origin_samples`, at the origin's height)
        reaches the point, crossing none of the :meth:`_plane` map's walls
        and blocked by no shorter wall or floor (:mod:`aoegrid.board.heights`);
        ``touched`` where some such line crosses a shorter wall (seen from
        above, whatever its span) or is blocked by a floor: elsewhere the
        two-dimensional answer stands. Shorter walls and floors are those of
        :meth:`BattleMapCore.in_3d` for :meth:`vertical_extent`. A shape that
        ignores walls (:meth:`_ignores_walls`) is stopped by floors alone.
        """
        bmap = self.battlemap
        assert bmap is not None and self.recipe is not None
        px, py, pz = (np.asarray(v, dtype=np.float64).ravel() for v in np.broadcast_arrays(px, py, pz))
        lo, hi = self.vertical_extent()
        walls, floors = bmap.in_3d(lo, hi, channel)
        ignores = channel is Channel.EFFECT and self._ignores_walls()
        # Keyed by the heights, not the walls: hashing a few hundred walls on every call cost more than the test.
        segs, spans, ways = bmap.kept(("3d rows", lo, hi, channel), lambda: wall_rows(walls))
        # Only walls whose box meets the box of the lines can cross them.
        o = self.recipe.origin
        x0, x1 = min(o.x0, px.min(initial=o.x0)), max(o.x1, px.max(initial=o.x1))
        y0, y1 = min(o.y0, py.min(initial=o.y0)), max(o.y1, py.max(initial=o.y1))
        near = ((np.minimum(segs[:, 0], segs[:, 2]) <= x1) & (np.maximum(segs[:, 0], segs[:, 2]) >= x0)
                & (np.minimum(segs[:, 1], segs[:, 3]) <= y1) & (np.maximum(segs[:, 1], segs[:, 3]) >= y0))
        near &= not ignores
        segs, spans, ways = segs[near], spans[near], ways[near]
        q = np.column_stack([px, py, pz])
        clear, touched = np.zeros(len(q), dtype=bool), np.zeros(len(q), dtype=bool)
        z = self.recipe.elevation
        for (ox, oy), vis in zip(origin_samples(self.recipe.origin), self._views(channel), strict=True):
            p = np.broadcast_to(np.array([ox, oy, z]), q.shape)
            crossed, stopped = walls_crossing(p, q, segs, spans, ways)
            for f in floors:
                stopped |= floor_blocks(p, q, f)
            touched |= crossed | stopped
            clear |= ~stopped if ignores else vis.sees(px, py) & ~stopped
        return clear, touched

    def _ignores_walls(self) -> bool:
        """Whether walls, of every span, leave the shape whole (a Starfinder cylinder); floors still cut it."""
        return isinstance(self.shape, Cylinder) and self.rules is not None and self.rules.cylinder_ignores_walls

    def _points3(self, xs: NDArray[np.intp], ys: NDArray[np.intp], zs: FloatArray | None = None,
                 channel: Channel = Channel.EFFECT) -> tuple[BoolArray, BoolArray, BoolArray]:
        """The test points of squares ``(xs[i], ys[i])`` (grid coordinates), indexed ``[square, point, height]``.

        The points: a square's centre and its four corners moved :data:`NUDGE`
        inward (:data:`TEST_POINTS`), at each height of ``zs`` (by default
        :func:`sample_heights` over the solid's, and for a cone or line aimed
        up or down, the height of its axis over each of the square's points:
        a thin solid's column may lie between the sampled heights). Returns
        ``(inside, clear, touched)``: whether the point is in the solid
        (:meth:`column_meets`), and, for points inside, whether the origin
        reaches it and whether a line to it met a shorter wall or a floor
        (:meth:`lines3`); False elsewhere.
        """
        assert self.recipe is not None and self.shape is not None
        if zs is None:
            lo, hi = self.vertical_extent()
            shared = sample_heights(self.recipe.elevation, lo, hi)
            zs = np.broadcast_to(shared, (len(xs), len(shared)))
            if pitched(self.shape):
                o, sq = self.recipe.origin, self.grid.square
                u = unit_vector(float(self.shape.direction))
                along = (xs[:, None] + TEST_POINTS[None, :, 0] - o.x0) * u[0] + (ys[:, None] + TEST_POINTS[None, :, 1]
                                                                                  - o.y0) * u[1]
                axis = self.recipe.elevation + np.maximum(along, 0.0) * np.tan(np.radians(self.shape.pitch)) * sq
                zs = np.concatenate([zs, np.clip(axis, lo, hi)], axis=1)
        zs = np.broadcast_to(zs, (len(xs), np.shape(zs)[-1]))  # per square, or the same for all
        shape = (len(xs), len(TEST_POINTS), zs.shape[1])
        sx, sy = np.broadcast_to(xs[:, None, None], shape), np.broadcast_to(ys[:, None, None], shape)
        px, py = sx + TEST_POINTS[None, :, 0, None], sy + TEST_POINTS[None, :, 1, None]
        pz = np.broadcast_to(zs[:, None, :], shape)
        inside = self.column_meets(sx.ravel(), sy.ravel(), pz.ravel(), pz.ravel()).reshape(shape)
        clear, touched = np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool)
        clear[inside], touched[inside] = self.lines3(px[inside], py[inside], pz[inside], channel)
        return inside, clear, touched

    def _in_3d(self, channel: Channel) -> bool:
        """Whether a shorter wall or a floor can stand between the origin and the solid for ``channel``
        (:meth:`BattleMapCore.in_3d`); never for line of effect of a shape that ignores walls."""
        bmap = self.battlemap
        assert bmap is not None
        ignored = channel is Channel.EFFECT and self._ignores_walls()
        return not ignored and any(bmap.in_3d(*self.vertical_extent(), channel))

    def _kept3(self, key: str, channel: Channel, make: Callable[[], _T]) -> _T:
        """``make()``, worked out once per ``key`` and channel for this area (and its restricted copies)."""
        if (key, channel) not in self._reach3:
            self._reach3[(key, channel)] = make()
        return cast(_T, self._reach3[(key, channel)])

    def _plane_fractions(self, channel: Channel) -> FloatArray:
        """The plane's exact fractions over the window (:meth:`_fractions`), kept."""
        if channel is Channel.EFFECT:
            return self._effect_fractions()
        return self._kept3("plane", channel, lambda: self._fractions(channel, self.window))

    def _level(self, channel: Channel) -> FloatArray | None:
        """The plane's fractions over the window with every wall taken as infinitely tall, kept.

        What a line at the origin's height reaches: it crosses no floor's
        plane and passes over no wall it does not cross. None when the origin
        lies on a wall that stands only above or below it (no plane answer).
        """
        def make() -> FloatArray | None:
            try:
                views = self._views(channel, plane=False)
            except OriginOnWallError:
                return None
            visible = views[0].fraction(self.window)
            for vis in views[1:]:
                np.maximum(visible, vis.fraction(self.window), out=visible)
            return visible

        return self._kept3("level", channel, make)

    def _tested3(self, channel: Channel) -> tuple[NDArray[np.intp], NDArray[np.intp], BoolArray, BoolArray, BoolArray]:
        """The squares of the shape the plane reaches (window rows and columns) and their test points
        (:meth:`_points3`), kept: the mask, the fractions and the cover all read them."""
        def make() -> tuple[NDArray[np.intp], NDArray[np.intp], BoolArray, BoolArray, BoolArray]:
            w = self.window
            ys, xs = np.nonzero(self._shape_local & (self._plane_fractions(channel) > EPS))
            return ys, xs, *self._points3(xs + w.x0, ys + w.y0, channel=channel)

        return self._kept3("points", channel, make)

    def _visible3(self, channel: Channel) -> FloatArray:
        """The fractions of :meth:`_window_reach`, kept."""
        def make() -> FloatArray:
            visible = self._plane_fractions(channel)
            if not self._in_3d(channel):
                return visible
            ys, xs, inside, clear, touched = self._tested3(channel)
            level = self._level(channel)
            flat = np.zeros(len(ys)) if level is None else level[ys, xs]
            share = clear.sum(axis=(1, 2)) / np.maximum(inside.sum(axis=(1, 2)), 1)
            hit, held = touched.any(axis=(1, 2)), inside.any(axis=(1, 2))
            visible = visible.copy()
            visible[ys, xs] = np.where(hit, np.maximum(share, flat), np.where(held, visible[ys, xs], flat))
            return visible

        return self._kept3("visible", channel, make)

    def _lifted(self, local: BoolArray, height: float | None = None) -> BoolArray:
        """``local`` (squares of the window) less those line of effect in three dimensions does not reach.

        A square is re-tested only when some line to its test points crosses
        a shorter wall or a floor blocks it (:meth:`lines3`); it stays when
        one of its test points inside the solid is reached. Its test points
        (:meth:`_points3`): its centre and its four corners moved
        :data:`NUDGE` inward, at the heights of :func:`sample_heights` (or at
        ``height`` alone). Without ``height``, a square in the
        two-dimensional answer with every wall taken as infinitely tall
        stays too (:meth:`_level`): then a square the plane reaches stays
        exactly where its fraction (:meth:`_window_reach`) is above zero.
        """
        bmap = self.battlemap
        assert bmap is not None and self.recipe is not None
        lo, hi = self.vertical_extent()
        if not any(bmap.in_3d(lo, hi)) or (height is None and self._ignores_walls()):
            # Through walls, a line at the origin's height crosses no floor's plane: the whole column stays.
            return local
        w = self.window
        ys, xs = np.nonzero(local)
        keep = np.zeros(len(ys), dtype=bool)
        ask = np.ones(len(ys), dtype=bool)
        if height is None:
            # The squares the plane reaches share their test with the fractions; a spread's others are tested here.
            ask = ~(self._shape_local & (self._plane_fractions(Channel.EFFECT) > EPS))[ys, xs]
            keep[~ask] = self._visible3(Channel.EFFECT)[ys[~ask], xs[~ask]] > EPS
        if ask.any():
            inside, clear, touched = self._points3(xs[ask] + w.x0, ys[ask] + w.y0,
                                                   None if height is None else np.array([height]))
            keep[ask] = clear.any(axis=(1, 2)) | (~touched.any(axis=(1, 2)) & inside.any(axis=(1, 2)))
        out = np.zeros_like(local)
        out[ys[keep], xs[keep]] = True
        return out

    def _window_reach(self, channel: Channel) -> tuple[FloatArray, NDArray[np.int_]]:
        """Visible fractions and blocked corner counts over the area's window for ``channel``, kept.

        The plane's exact answer (:meth:`_fractions`, the :meth:`_plane`
        map's walls) where no shorter wall or floor stands between the origin
        and a square's test points. Where one does (some line to a test point
        inside the solid crosses it: :meth:`_points3`), the fraction is the
        share of the square's test points inside the solid the origin
        reaches, or the level answer (:meth:`_level`) when that is more; its
        blocked corners the fewest of the four corner points unreached at one
        height, or the level answer's when fewer. A square whose column the
        sampled heights never find in the solid keeps only the level answer.
        So a square is in :attr:`mask` exactly where its fraction is above
        zero, but under a shape that ignores walls (:meth:`_ignores_walls`),
        which holds its whole shape and keeps the plane's fractions.
        """
        def make() -> tuple[FloatArray, NDArray[np.int_]]:
            w, plane = self.window, self._plane_fractions(channel)
            blocked = self._blocked_corners(channel, w, plane)
            if not self._in_3d(channel):
                return plane, blocked
            ys, xs, inside, clear, touched = self._tested3(channel)
            level = self._level(channel)
            if level is None:
                flat_blocked = np.full(len(ys), 4)
            else:
                whole_blocked = self._blocked_corners(channel, w, level, plane=False)
                flat_blocked = np.where(level[ys, xs] > EPS, whole_blocked[ys, xs], 4)
            # Per height (the same for every point of a square), the corners reached; -1 outside the solid.
            corners = np.where(inside[:, 0, :], clear[:, 1:, :].sum(axis=1), -1).max(axis=1)
            hit, held = touched.any(axis=(1, 2)), inside.any(axis=(1, 2))
            blocked = blocked.copy()
            blocked[ys, xs] = np.where(hit, np.minimum(4 - np.maximum(corners, 0), flat_blocked),
                                       np.where(held, blocked[ys, xs], flat_blocked))
            return self._visible3(channel), blocked

        return self._kept3("reach", channel, make)

    def _fractions(self, channel: Channel, window: Window) -> FloatArray:
        """Exact visible fraction of each square of ``window``: the best over the samples."""
        first, *rest = self._views(channel)
        visible = first.fraction(window)
        for vis in rest:
            np.maximum(visible, vis.fraction(window), out=visible)
        return visible

    def reach(self, channel: Channel | str, window: Window | None = None) -> tuple[FloatArray, NDArray[np.int8]]:
        """Visible fractions and cover grades over ``window`` (default the area's) for ``channel``.

        Corner lines are tested only for squares partly reached: a square
        reached whole has every corner in view (a blocked corner line would
        shade a neighbourhood of the corner), and one not reached at all has
        total cover whatever its corners.
        """
        assert self.rules is not None
        self._need_map("cover")
        channel = Channel(channel)
        window = window or self.window
        if window == self.window:
            visible, blocked = self._window_reach(channel)
        else:
            visible = self._fractions(channel, window)
            blocked = self._blocked_corners(channel, window, visible)
        return visible, grade(self.rules.cover, visible, blocked)

    def _blocked_corners(self, channel: Channel, window: Window, visible: FloatArray,
                         plane: bool = True) -> NDArray[np.int_]:
        """Per square, the fewest of its four corner lines any sample has blocked (0 where whole), among the
        :meth:`_views` ``plane`` chooses."""
        blocked = np.zeros(window.shape, dtype=np.int_)
        partial = (visible > EPS) & (visible < 1.0)
        if not partial.any():
            return blocked
        # The corners of the partly reached squares, each tested once.
        sy, sx = np.nonzero(partial)
        corner = np.zeros((window.height + 1, window.width + 1), dtype=bool)
        for dy in (0, 1):
            for dx in (0, 1):
                corner[sy + dy, sx + dx] = True
        cy, cx = np.nonzero(corner)
        px, py = cx + float(window.x0), cy + float(window.y0)
        least = np.full(window.shape, 4, dtype=np.int_)
        for vis in self._views(channel, plane):
            unseen = np.zeros(corner.shape, dtype=np.int_)
            unseen[cy, cx] = ~vis.sees(px, py)
            count = unseen[:-1, :-1] + unseen[:-1, 1:] + unseen[1:, :-1] + unseen[1:, 1:]
            np.minimum(least, count, out=least)
        blocked[partial] = least[partial]
        return blocked

    def _effect_fractions(self) -> FloatArray:
        if self._visible is None:
            self._visible = self._fractions(Channel.EFFECT, self.window)
        return self._visible

    def _cut(self) -> BoolArray:
        """The squares walls leave in (worked out on first use), less a caster's own."""
        if self._local is None:
            shape, rules = self._shape_local, self.rules
            assert rules is not None
            if self._ignores_walls():
                local = shape
            elif self.mode is Mode.SPREAD:
                # A spread is a burst that can also turn corners: every square a
                # straight line reaches is in, whatever its centre-to-centre path.
                local = shape & ((self._effect_fractions() > EPS) | self._spread())
            else:
                local = self._reached(shape)
            self._local = self._without_caster(self._lifted(local))
        return self._local

    def _reached(self, shape: BoolArray) -> BoolArray:
        """The squares of ``shape`` some line of effect reaches, compared only where one can.

        Outside the visibility polygons' boxes nothing is reached, so a
        whole-map burst reads no more of the map than its line of effect fills.
        """
        w = self.window
        boxes = [b for b in (v.box(w) for v in self._views(Channel.EFFECT)) if b is not None]
        local = np.zeros(w.shape, dtype=bool)
        if not boxes:
            return local
        x0, y0 = min(b.x0 for b in boxes), min(b.y0 for b in boxes)
        x1, y1 = max(b.x0 + b.width for b in boxes), max(b.y0 + b.height for b in boxes)
        rows, cols = slice(y0 - w.y0, y1 - w.y0), slice(x0 - w.x0, x1 - w.x0)
        local[rows, cols] = shape[rows, cols] & (self._effect_fractions()[rows, cols] > EPS)
        return local

    def _without_caster(self, local: BoolArray) -> BoolArray:
        if self.recipe is None or self.recipe.clear is None:
            return local
        out = local.copy()
        _clear_space(out, self.window, self.recipe.clear)
        return out

    def _spread(self) -> BoolArray:
        """Squares whose path around walls is short enough (see :mod:`aoegrid.board.spread`)."""
        bmap = self.battlemap
        assert self.rules is not None and self.shape is not None and self.recipe is not None and bmap is not None
        w, rules, origin = self.window, self.rules, self.recipe.origin
        xs, ys = w.xs, w.ys
        fx = far_offsets(xs, origin.x0, origin.x1)[None, :]
        fy = far_offsets(ys, origin.y0, origin.y1)[:, None]
        # The first step: squares whose closed extent holds the origin (or
        # overlaps the space), entered along a line that crosses no wall.
        touching = (near_offsets(xs, origin.x0, origin.x1)[None, :] == 0) & (
            near_offsets(ys, origin.y0, origin.y1)[:, None] == 0
        )
        cx, cy = centers(w)
        seen = np.zeros(w.shape, dtype=bool)
        for vis in self._views(Channel.EFFECT):
            seen |= vis.sees(cx, cy)
        start = measure(fx, fy, rules.diagonals)
        parity = np.broadcast_to((np.floor(np.minimum(fx, fy)) % 2).astype(np.int8), w.shape)
        if rules.inclusion is Inclusion.FAR_EDGE:
            own = start
        elif rules.inclusion is Inclusion.CENTER:
            own = np.hypot(center_offsets(xs, origin.x0, origin.x1)[None, :], center_offsets(ys, origin.y0, origin.y1)[:, None])
        else:
            own = np.hypot(near_offsets(xs, origin.x0, origin.x1)[None, :], near_offsets(ys, origin.y0, origin.y1)[:, None])
        # The spread may travel as far as the shape itself reaches: its true
        # outline (a triangle cone's far corners lie beyond its length), or
        # its farthest square under the rules' own count, whichever is more.
        radius = shape_extent(self.shape, rules, self.grid.square)
        held = own[self._shape_local]
        if held.size:
            radius = max(radius, float(held.max()))
        # The same count with no walls: the detour is the difference, zero in
        # open field. From intersections the lattice rules' open-field count
        # is the far-corner count itself; otherwise walk it.
        whole = all(float(v).is_integer() for v in (origin.x0, origin.y0, origin.x1, origin.y1))
        if whole and rules.diagonals is not Diagonals.EUCLIDEAN:
            open_field = start
        else:
            open_field = path_distance(w, np.where(touching, start, np.inf), parity, None, rules.diagonals)
        # A square of the shape is in when own + walled - open_field <= radius:
        # walled paths longer than radius + the most open_field - own can give count for nothing.
        slack = np.where(self._shape_local & np.isfinite(open_field), open_field - own, -np.inf).max(initial=0.0)
        walled = path_distance(
            w, np.where(touching & seen, start, np.inf), parity, self._plane().steps().window(w), rules.diagonals,
            limit=radius + max(slack, 0.0) + EPS,
        )
        self._path = walled * self.grid.square
        with np.errstate(invalid="ignore"):  # inf - inf where neither reaches
            detour = np.where(np.isfinite(walled), walled - open_field, np.inf)
        return np.asarray(own + detour <= radius + EPS)

    def _restricted(self, local: BoolArray) -> Self:
        """A copy of this area keeping only the squares of ``local`` (same window).

        What was worked out for this area (visibility, fractions, grades,
        paths) is shared, not computed again.
        """
        out = type(self)(self.grid, self.window, self._shape_local, shape=self.shape, origin=self.origin,
                         rules=self.rules, mode=self.mode, recipe=self.recipe)
        for name in ("_vis", "_visible", "_cover", "_sight", "_path", "_reach3"):
            setattr(out, name, getattr(self, name))
        out._local = local
        return out

    def _full(self, local: NDArray[Any], fill: Any) -> NDArray[Any]:
        w = self.window
        out = np.full(self.grid.shape, fill, dtype=local.dtype)
        out[w.y0 : w.y0 + w.height, w.x0 : w.x0 + w.width] = local
        out.flags.writeable = False
        return out

    def _need_map(self, what: str) -> None:
        if self.battlemap is None:
            raise InvalidValueError(
                f"{what} needs walls: compute the area on an aoegrid.BattleMap, not a bare Grid"
            )

    @property
    def local(self) -> BoolArray:
        """The covered squares within :attr:`window` (``local[y - window.y0, x - window.x0]``)."""
        return self._cut()

    @property
    def shape_mask(self) -> BoolArray:
        """The squares of the shape before walls cut it."""
        return self._full(self._shape_local, False)

    @property
    def visible(self) -> FloatArray:
        """Fraction of each square of the shape reached by line of effect (NaN elsewhere).

        Exact (the area of the square some straight line reaches) where no
        wall shorter than the solid and no floor within its heights stands
        between the origin and the square; where one does, the share of the
        square's test points the origin reaches in three dimensions
        (:meth:`_window_reach`). A square is in :attr:`mask` where this is
        above zero (spreads add the squares their paths reach).
        """
        self._need_map("visible")
        return self._full(np.where(self._shape_local, self._visible3(Channel.EFFECT), np.nan), np.nan)

    @property
    def cover(self) -> NDArray[np.int8]:
        """Cover grade of each square of the shape (-1 elsewhere)."""
        self._need_map("cover")
        if self._cover is None:
            self._cover = self.reach(Channel.EFFECT)[1]
        return self._full(np.where(self._shape_local, self._cover, -1).astype(np.int8), -1)

    def _sight_arrays(self) -> tuple[FloatArray, NDArray[np.int8]]:
        self._need_map("line of sight")
        if self._sight is None:
            self._sight = self.reach(Channel.SIGHT)
        return self._sight

    @property
    def sight_visible(self) -> FloatArray:
        """Exact fraction of each square of the shape the origin can see."""
        v, _ = self._sight_arrays()
        return self._full(np.where(self._shape_local, v, np.nan), np.nan)

    @property
    def sight_cover(self) -> NDArray[np.int8]:
        """Grade of each square of the shape by line of sight (-1 elsewhere)."""
        _, c = self._sight_arrays()
        return self._full(np.where(self._shape_local, c, -1).astype(np.int8), -1)

    @property
    def path_distance(self) -> FloatArray:
        """For spreads: path length around walls to each square, in the grid's unit.

        ``inf`` where the spread's path cannot go within its reach: paths are
        counted only as far as they can matter.
        """
        if self.mode is Mode.SPREAD and self.battlemap is not None:
            self._cut()
        if self._path is None:
            raise InvalidValueError("path_distance is computed for spreads on a BattleMap (mode='spread')")
        return self._full(self._path, np.inf)

    # --- the squares -------------------------------------------------------

    @property
    def mask(self) -> BoolArray:
        """``(height, width)`` read-only bool array, ``mask[y, x]``."""
        if self._mask is None:
            w, local = self.window, self._cut()
            if (w.width, w.height) == (self.grid.width, self.grid.height):
                full = local.view()
                full.flags.writeable = False
            else:
                full = self._full(local, False)
            self._mask = full
        return self._mask

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> BoolArray:
        """``np.asarray(area)`` is :attr:`mask` (a copy when a dtype or a copy is asked for)."""
        if copy or (dtype is not None and np.dtype(dtype) != np.bool_):
            return np.array(self.mask, dtype=dtype)
        return self.mask

    @property
    def bounds(self) -> tuple[int, int, int, int] | None:
        """``(xmin, ymin, xmax, ymax)`` of the covered squares in grid units (None when empty).

        Examples
        --------
        >>> import aoegrid as ag
        >>> ag.area(ag.Sphere(10), at=(4, 4), on=ag.Grid(8, 8)).bounds
        (2, 2, 6, 6)
        """
        local = self._cut()
        rows, cols = np.flatnonzero(local.any(axis=1)), np.flatnonzero(local.any(axis=0))
        if rows.size == 0:
            return None
        w = self.window
        return (int(cols[0]) + w.x0, int(rows[0]) + w.y0, int(cols[-1]) + 1 + w.x0, int(rows[-1]) + 1 + w.y0)

    @property
    def __geo_interface__(self) -> dict[str, Any]:
        """The covered squares as a GeoJSON-like MultiPolygon in grid units (x right, y down).

        shapely (``shapely.geometry.shape(area)``) and geopandas read it.
        """
        polygons = [[[(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1), (x, y)]] for x, y in self.squares]
        return {"type": "MultiPolygon", "coordinates": polygons}

    @property
    def squares(self) -> list[tuple[int, int]]:
        """The covered squares as ``(x, y)``, sorted by y, then x."""
        ys, xs = np.nonzero(self._cut())
        return list(zip((xs + self.window.x0).tolist(), (ys + self.window.y0).tolist()))

    # --- heights -----------------------------------------------------------

    @property
    def elevation(self) -> float:
        """The height of the point of origin, in the grid's unit (``area(..., elevation=)``)."""
        return self._made("elevation").elevation

    def _made(self, what: str) -> Recipe:
        if self.recipe is None or self.shape is None or self.rules is None:
            raise InvalidValueError(f"{what} is known for areas made by aoegrid.area(), not for combinations")
        return self.recipe

    def column_meets(self, xs: ArrayLike, ys: ArrayLike, low: ArrayLike, high: ArrayLike) -> BoolArray:
        """Whether the solid meets, above each square ``(xs[i], ys[i])``, some height in ``[low[i], high[i]]``.

        Only the vertical extent is tested: the squares are taken as in the
        area's footprint. Heights are in the grid's unit. A cylinder spans
        its height below its circle (``Rules.cylinder_drops``) or above it,
        a cube rests on the origin's height (its bottom face), a line and a
        shapable area are bands their width (least dimension) thick centred
        on it. A sphere is a ball and a cone widens upward as it does
        sideways: the square's point the inclusion rule measures (its far
        corner under ``far-edge``, its nearest point otherwise) at the
        height of ``[low, high]`` nearest the origin's is within reach,
        counted in three dimensions by the rules' diagonals
        (:func:`aoegrid.geometry.distance.measure3`) under ``far-edge``, in a straight
        line under the other rules (their outlines are true geometry). A
        cone or line aimed up or down (``pitch``) is tested against its
        solid at the rule's point of the square, exactly
        (:func:`aoegrid.geometry.stencils.pitched_columns`, :mod:`aoegrid.geometry._pitch`).
        """
        made = self._made("a height test")
        shape, rules = self.shape, self.rules
        assert shape is not None and rules is not None
        z, sq, o = made.elevation, self.grid.square, made.origin
        xs, ys = np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64)
        if pitched(shape):
            assert isinstance(shape, (Cone, Line))
            rise = [(np.asarray(v, dtype=np.float64) - z) / sq for v in (low, high)]
            return pitched_columns(shape, o, rules, sq, xs, ys, *rise, made.stop)
        if isinstance(shape, Cylinder):
            bottom = z - shape.height if rules.cylinder_drops else z
            return np.asarray(vertical_gap(low, high, bottom, bottom + shape.height) <= 0.0)
        if isinstance(shape, Cube):
            return np.asarray(vertical_gap(low, high, z, z + shape.size) <= EPS)
        if isinstance(shape, (Line, Shapable)):
            # A band centred on the origin's height: a line its width, a
            # shapable area its least dimension (it is built of blocks that size).
            half = (shape.min_dimension if isinstance(shape, Shapable) else shape.width or rules.line_width) / 2
            return np.asarray(vertical_gap(low, high, z - half, z + half) <= EPS)
        assert isinstance(shape, (Sphere, Cone))
        dz = vertical_gap(low, high, z, z) / sq
        if rules.inclusion is Inclusion.FAR_EDGE:
            fx, fy = far_offsets(xs, o.x0, o.x1), far_offsets(ys, o.y0, o.y1)
            solid = measure3(fx, fy, dz, rules.diagonals)
        else:
            solid = np.hypot(np.hypot(near_offsets(xs, o.x0, o.x1), near_offsets(ys, o.y0, o.y1)), dz)
        reach = (shape.radius if isinstance(shape, Sphere) else shape.length) / sq
        inside = (dz == 0.0) | (solid <= reach + EPS)
        if isinstance(shape, Cone):
            d = unit_vector(float(shape.direction))
            along = (xs + 0.5 - o.x0) * d[0] + (ys + 0.5 - o.y0) * d[1]
            kind = ConeKind(shape.kind) if shape.kind is not None else rules.cone
            slope = 1.0 if kind is ConeKind.QUARTER_CIRCLE else 0.5
            inside &= dz <= slope * np.maximum(along, 0.0) + EPS
        return np.asarray(inside)

    def vertical_extent(self) -> tuple[float, float]:
        """The lowest and highest heights of the solid (the grid's unit): what :meth:`column_meets` can meet.

        A sphere and a cone reach their size above and below the origin's
        height, a cylinder and a cube span their height, a line and a
        shapable area their band; a cone or line aimed up or down its tilted
        solid's (:func:`aoegrid.geometry.stencils.pitched_heights`).
        """
        made = self._made("a height test")
        shape, rules, z = self.shape, self.rules, made.elevation
        assert shape is not None and rules is not None
        if pitched(shape):
            assert isinstance(shape, (Cone, Line))
            lo, hi = pitched_heights(shape, rules, self.grid.square)
            return z + lo * self.grid.square, z + hi * self.grid.square
        if isinstance(shape, Cylinder):
            bottom = z - shape.height if rules.cylinder_drops else z
            return bottom, bottom + shape.height
        if isinstance(shape, Cube):
            return z, z + shape.size
        if isinstance(shape, (Line, Shapable)):
            half = (shape.min_dimension if isinstance(shape, Shapable) else shape.width or rules.line_width) / 2
            return z - half, z + half
        assert isinstance(shape, (Sphere, Cone))
        reach = shape.radius if isinstance(shape, Sphere) else shape.length
        return z - reach, z + reach

    def at(self, height: float) -> BoolArray:
        """The ``(height, width)`` mask of the horizontal slice at ``height`` (in the grid's unit).

        The squares of :attr:`mask` whose column the solid reaches at that
        height (:meth:`column_meets`): ``a.at(a.elevation)`` is ``a.mask``,
        and slices shrink as ``height`` leaves the origin's. Walls are
        infinitely tall: they cut every slice as they cut the mask.

        Examples
        --------
        >>> import aoegrid as ag
        >>> a = ag.area(ag.Sphere(15), at=(4, 4), on=ag.Grid(8, 8))   # a ball, counted 5/10/5 in 3D
        >>> print(a.at(10).astype(int))                                # 10 ft above its origin
        [[0 0 0 0 0 0 0 0]
         [0 0 0 0 0 0 0 0]
         [0 0 1 1 1 1 0 0]
         [0 0 1 1 1 1 0 0]
         [0 0 1 1 1 1 0 0]
         [0 0 1 1 1 1 0 0]
         [0 0 0 0 0 0 0 0]
         [0 0 0 0 0 0 0 0]]
        >>> bool((a.at(a.elevation) == a.mask).all()), [int(a.at(h).sum()) for h in (0, 5, 10, 15, 20, -10)]
        (True, [24, 24, 16, 4, 0, 16])
        """
        h = real(height, "height")
        w = self.window
        local = self._cut().copy()
        ys, xs = np.nonzero(local)
        local[ys, xs] = self.column_meets(xs + w.x0, ys + w.y0, h, h)
        if self.battlemap is not None:
            local = self._lifted(local, h)
        return self._full(local, False)

    def __len__(self) -> int:
        return int(np.count_nonzero(self._cut()))

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self.squares)

    def __contains__(self, square: Any) -> bool:
        try:
            sx, sy = square
            x, y = int(sx), int(sy)
        except (TypeError, ValueError, OverflowError):  # not a pair of finite numbers: not a square
            return False
        w = self.window
        if not (w.x0 <= x < w.x0 + w.width and w.y0 <= y < w.y0 + w.height):
            return False
        return bool(self._cut()[y - w.y0, x - w.x0])

    def __bool__(self) -> bool:
        return bool(self._cut().any())

    def _combine(self, other: object, op: str) -> Self:
        if not isinstance(other, AreaCore):
            return NotImplemented
        if other.grid != self.grid:
            raise GridMismatchError(
                f"cannot combine areas on different grids: {self.grid} and {other.grid}"
            )
        a, b = self.mask, other.mask
        out = {"|": a | b, "&": a & b, "-": a & ~b}[op]
        return type(self)(self.grid, Window(0, 0, self.grid.width, self.grid.height), out)

    def __or__(self, other: object) -> Self:
        return self._combine(other, "|")

    def __and__(self, other: object) -> Self:
        return self._combine(other, "&")

    def __sub__(self, other: object) -> Self:
        return self._combine(other, "-")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AreaCore):
            return NotImplemented
        return self.grid == other.grid and bool(np.array_equal(self.mask, other.mask))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        rules = self.rules.name if self.rules is not None else None
        return (
            f"<{type(self).__name__} {len(self)} squares of a {self.grid.width}x{self.grid.height} grid; "
            f"shape={self.shape!r}, origin={self.origin!r}, rules={rules!r}>"
        )
