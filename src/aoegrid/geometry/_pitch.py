"""Cones and lines aimed up or down (``pitch``): their solids, and the columns of squares they meet.

Heights are in squares above the origin (``q``); a horizontal direction
``u`` (the shape's ``direction``), its right normal ``n`` and the pitch ``p``
give the axis ``a = (cos p * u, sin p)``. A point ``(w, s, q)`` (``w`` along
``u``, ``s`` along ``n``, both from the apex) lies ``A = w cos p + q sin p``
along the axis.

The solids (lengths are the rules' lengths, in squares):

* a quarter-circle cone (Starfinder, Pathfinder): the points within 45
  degrees of the axis and within its length of the apex, a spherical sector.
  Under far-edge counting the length is the rules' count in three dimensions
  (:func:`aoegrid.geometry.distance.measure3`) of the square's far corner at the
  height tested, as on the ground; otherwise a straight line;
* a triangle cone (5e: "a cone's width at a given point along its length is
  equal to that point's distance from the point of origin"): the circular
  cone of half-angle ``atan(1/2)`` cut flat at its length along the axis;
* a teardrop cone (the Savage Worlds template): the convex hull of the apex
  and the ball of radius ``length / 6`` whose far end lies ``length`` along
  the axis;
* a line: the box from its start (the point of origin, moved half a square
  aside where the rules' tie rule moves it) ``run`` along the axis, its
  horizontal width as on the ground (far-edge counting: ``(width - 1) / 2``
  each side of the path, the path's own squares taken by crossing; otherwise
  ``width / 2``), and ``width / 2`` thick above and below the axis (the band a
  level line is). Its run is its length, straight; under far-edge counting
  the run goes on and the far corner's count in three dimensions ends it, as
  on the ground.

Which point of a square is tested, at each height (the rule's inclusion
point, as a level shape's height test takes it):

* far-edge: a quarter-circle cone's direction on the square's centre and its
  length on the far corner; a triangle or teardrop cone on the far corner (both
  on a tie, as on the ground); a line by crossing (below), its centre ahead of
  the origin, its length on the far corner;
* centre: the square's centre; a line of no width by crossing;
* half and touch: a cone by the square's share under its *shadow*, the
  ground under the part of the solid within the heights tested (its
  vertical projection, a convex figure): at least half of the square
  (``0.5 - EPS``), or any of it (more than ``EPS``, as a level figure: a
  shadow touching only the square's side does not take it). The shadow is
  taken of the solid's inscribed mesh (:mod:`aoegrid.geometry._solids`), which lies
  no more than :data:`~aoegrid.geometry._solids.GAP` (1e-4) of the length inside the true surface: a
  share is that much short at most, each side the shadow crosses the
  square. Lines: half, by the centre (a line of no width by crossing);
  touch, by crossing.

A line *crosses* a square at a height when that height's slice of the line
meets the open square: the square's part within the line's horizontal width
(its interior, for a line of no width) spans along ``u`` an interval, and the
heights of the line's axial section (a rectangle rotated by the pitch) over that
interval are the answer. A line straight up or down with no width has a
point for its footprint: it takes every square whose closed square holds it
(the squares around an intersection).

Every test of one point (each rule but a cone's half and touch) is exact: a vertical line meets a convex solid in an
interval of heights, found in closed form (a quadratic for the cone, a
circle for a ball, a linear bound for a flat end); the far-edge count grows
with the height's distance from the origin's, so only the height of the
interval nearest the origin's need be counted. Lengths and widths past
:data:`MAX_LENGTH` squares count as that: directions resolve angles to about
1e-16 radians, so no column of a grid that fits in memory meets a longer
solid where that one misses it.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from aoegrid.geometry._solids import cone_mesh, shares
from aoegrid.geometry.directions import right_normal, unit_vector
from aoegrid.geometry.distance import measure3
from aoegrid.geometry.options import ConeKind, Inclusion
from aoegrid.geometry.raster import far_offsets
from aoegrid.geometry.regions import EPS
from aoegrid.geometry.rules import Rules
from aoegrid.geometry.shapes import Cone, Line

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
#: Heights ``(lo, hi)`` in squares, per square; empty where ``lo > hi``.
Span = tuple[FloatArray, FloatArray]

#: The longest length or width counted, in squares (see the module's notes).
MAX_LENGTH = 2.0**100
#: A teardrop's disk: its radius is a sixth of the length (:class:`aoegrid.geometry.regions.Teardrop`),
#: so its sides leave the apex at asin(1/5) from the axis (tan^2 = 1/24) and
#: touch the ball 0.8 of the length along it.
_TEAR_K, _TEAR_TANGENT = 1.0 / 24.0, 0.8


def _meet(a: Span, b: Span) -> Span:
    return np.maximum(a[0], b[0]), np.minimum(a[1], b[1])


def _hull(a: Span, b: Span) -> Span:
    """The least span holding both: their union, when (as for parts of one convex solid) they overlap."""
    a_empty, b_empty = a[0] > a[1], b[0] > b[1]
    lo = np.where(a_empty, b[0], np.where(b_empty, a[0], np.minimum(a[0], b[0])))
    hi = np.where(a_empty, b[1], np.where(b_empty, a[1], np.maximum(a[1], b[1])))
    return lo, hi


def _below(slope: float | FloatArray, offset: FloatArray) -> Span:
    """The heights ``q`` with ``slope * q + offset <= EPS``."""
    slope, offset = np.broadcast_arrays(np.asarray(slope, dtype=np.float64), np.asarray(offset, dtype=np.float64))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        root = (EPS - offset) / slope
    flat = slope == 0.0
    always = offset <= EPS
    lo = np.where(flat, np.where(always, -math.inf, math.inf), np.where(slope < 0.0, root, -math.inf))
    hi = np.where(flat, np.where(always, math.inf, -math.inf), np.where(slope > 0.0, root, math.inf))
    return lo, hi


def _ball(dw: FloatArray, s: FloatArray, cz: float, radius: float) -> Span:
    """The heights of the vertical line at ``(dw, s)`` from the ball's centre inside it (centre at height ``cz``)."""
    rem = (radius + EPS) ** 2 - dw * dw - s * s
    half = np.sqrt(np.maximum(rem, 0.0))
    ok = rem >= 0.0
    return np.where(ok, cz - half, math.inf), np.where(ok, cz + half, -math.inf)


def _cone(w: FloatArray, s: FloatArray, c: float, sg: float, k: float) -> Span:
    """The heights of the vertical line at ``(w, s)`` inside the infinite cone ``perp^2 <= k A^2, A >= 0``.

    With ``R = q cos p - w sin p`` the distance above the axis, the line is in
    the double cone where ``f(q) = k A^2 - R^2 - s^2 >= 0``:
    ``f = (k sin^2 - cos^2) q^2 + 2 (k + 1) sin cos w q + (k cos^2 - sin^2) w^2 - s^2``.
    The cone is convex (its half-angle is under 90 degrees), so the heights
    form one interval: where the leading coefficient is negative (the
    vertical lies outside the cone), between the roots, if that stretch lies
    on the cone's side (``A >= 0`` at its middle); where it is positive (the
    vertical lies inside), the ray toward the side the axis points to; where
    it is zero (the vertical is a side of the cone), ``f`` is linear.
    Points within about 1e-12 of the surface (relatively) count as in.
    """
    k = k * (1.0 + 4e-12)
    a2 = k * sg * sg - c * c
    a1 = 2.0 * (k + 1.0) * sg * c * w
    a0 = (k * c * c - sg * sg) * w * w - s * s + EPS
    if a2 == 0.0:
        # The vertical is a generator: f >= 0 is a half-line, and so is A >= 0.
        return _meet(_below(-a1, -a0 + EPS), _below(-sg, -c * w))
    disc = a1 * a1 - 4.0 * a2 * a0
    root = np.sqrt(np.maximum(disc, 0.0))
    t = -0.5 * (a1 + np.copysign(root, a1))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        r_a = t / a2
        r_b = np.where(t != 0.0, a0 / np.where(t != 0.0, t, 1.0), 0.0)
    r1, r2 = np.minimum(r_a, r_b), np.maximum(r_a, r_b)
    if a2 < 0.0:
        ok = (disc >= 0.0) & (c * w + sg * (0.5 * r1 + 0.5 * r2) >= -EPS)
        return np.where(ok, r1, math.inf), np.where(ok, r2, -math.inf)
    if sg > 0.0:
        return r2, np.full(r2.shape, math.inf)
    return np.full(r1.shape, -math.inf), r1


def _frame(direction: tuple[float, float], pitch: float, x: FloatArray, y: FloatArray,
           start: tuple[float, float]) -> tuple[FloatArray, FloatArray, float, float]:
    """Points ``(x, y)`` as ``(w, s)`` from ``start``, and the pitch's cosine and sine (exact at multiples of 45)."""
    n = right_normal(direction)
    dx, dy = x - start[0], y - start[1]
    c, sg = unit_vector(pitch)
    return dx * direction[0] + dy * direction[1], dx * n[0] + dy * n[1], c, sg


def _nearest_count(span: Span, xs: FloatArray, ys: FloatArray, o: tuple[float, float], rules: Rules,
                   length: float) -> BoolArray:
    """Whether the span is not empty and, at its height nearest the origin's, the far corner counts ``length`` or less."""
    lo, hi = span
    q = np.clip(0.0, lo, hi)
    count = measure3(far_offsets(xs, o[0], o[0]), far_offsets(ys, o[1], o[1]), q, rules.diagonals)
    return np.asarray((lo <= hi) & (count <= length + EPS))


def cone_columns(shape: Cone, kind: ConeKind, rules: Rules, o: tuple[float, float], square: float,
                 xs: FloatArray, ys: FloatArray, lo: FloatArray, hi: FloatArray) -> BoolArray:
    """Whether the pitched cone meets the column of square ``(xs, ys)`` at some height in ``[lo, hi]``.

    Heights are in squares above the origin; the arrays broadcast. See the
    module's notes for the solid and the point tested.
    """
    length = min(shape.length / square, MAX_LENGTH)
    u = unit_vector(float(shape.direction))
    far_edge = rules.inclusion is Inclusion.FAR_EDGE
    prism: Span = (lo, hi)

    def span_at(px: FloatArray, py: FloatArray) -> Span:
        w, s, c, sg = _frame(u, shape.pitch, px, py, o)
        if kind is ConeKind.QUARTER_CIRCLE:
            inside = _cone(w, s, c, sg, 1.0)
            return inside if far_edge else _meet(inside, _ball(w, s, 0.0, length))
        if kind is ConeKind.TRIANGLE:
            return _meet(_cone(w, s, c, sg, 0.25), _below(sg, c * w - length))
        body = _meet(_cone(w, s, c, sg, _TEAR_K), _below(sg, c * w - _TEAR_TANGENT * length))
        centre, radius = length - length / 6.0, length / 6.0
        return _hull(body, _ball(w - centre * c, s, centre * sg, radius))

    if kind is ConeKind.QUARTER_CIRCLE and far_edge:
        return _nearest_count(_meet(span_at(xs + 0.5, ys + 0.5), prism), xs, ys, o, rules, length)
    if rules.inclusion is Inclusion.CENTER:
        inside = _meet(span_at(xs + 0.5, ys + 0.5), prism)
        return np.asarray(inside[0] <= inside[1])
    if not far_edge:
        # Half and touch: the square's share under the shadow of the part within the prism.
        share = shares(cone_mesh(kind, length, float(shape.direction), shape.pitch), o, xs, ys, lo, hi)
        if rules.inclusion is Inclusion.HALF:
            return np.asarray(share >= 0.5 - EPS)
        return np.asarray(share > EPS)
    # Far-edge counting of a triangle or teardrop: the far corner, both where
    # the origin is level with the square's middle, as on the ground.
    span = prism
    for fx in (True, False):
        for fy in (True, False):
            px = np.where((xs + 0.5 > o[0]) | (fx & (xs + 0.5 == o[0])), xs + 1.0, xs)
            py = np.where((ys + 0.5 > o[1]) | (fy & (ys + 0.5 == o[1])), ys + 1.0, ys)
            span = _meet(span, span_at(px, py))
    return np.asarray(span[0] <= span[1])


def cone_heights(shape: Cone, kind: ConeKind, square: float) -> tuple[float, float]:
    """The lowest and highest points of the pitched cone, in squares above its apex.

    The quarter circle's cap (its length straight) reaches 45 degrees either
    side of the axis; the triangle's rim lies ``length / 2`` round the axis
    at its length; the teardrop's ball ``length / 6`` round a centre ``5/6``
    of it along.
    """
    length = min(shape.length / square, MAX_LENGTH)
    c, sg = unit_vector(shape.pitch)
    if kind is ConeKind.QUARTER_CIRCLE:
        top, bottom = (length * math.sin(math.radians(max(min(shape.pitch + k, 90.0), -90.0))) for k in (45.0, -45.0))
    elif kind is ConeKind.TRIANGLE:
        top, bottom = length * (sg + c / 2), length * (sg - c / 2)
    else:
        top, bottom = length * (5 * sg + 1) / 6, length * (5 * sg - 1) / 6
    return min(bottom, 0.0), max(top, 0.0)


def line_heights(run: float, thick: float, pitch: float) -> tuple[float, float]:
    """The lowest and highest points of a pitched line ``run`` long and ``thick`` each side of its axis."""
    c, sg = unit_vector(pitch)
    return min(run * sg, 0.0) - thick * c, max(run * sg, 0.0) + thick * c


def _strip(ws: FloatArray, ss: FloatArray, half: float, closed: bool) -> Span:
    """Along ``u``, the part of each square (corners ``ws``, ``ss``, shape ``(4, ...)``) within ``half`` of the path.

    Open (``closed=False``): the open square's part, shrunk by EPS, empty
    unless it has positive area (a path of no width: crosses the interior);
    closed: the closed square's part.
    """
    tol = EPS if closed else -EPS
    smin, smax = ss.min(axis=0), ss.max(axis=0)
    ok = (smin <= half + tol) & (smax >= -half - tol)
    inside = np.abs(ss) <= half + EPS
    lo = np.where(inside, ws, math.inf).min(axis=0)
    hi = np.where(inside, ws, -math.inf).max(axis=0)
    for i in range(4):
        j = (i + 1) % 4
        ds = ss[j] - ss[i]
        for edge in (-half, half):
            with np.errstate(divide="ignore", invalid="ignore"):
                lam = (edge - ss[i]) / ds
            cross = (ds != 0.0) & (lam >= 0.0) & (lam <= 1.0)
            w = ws[i] + np.where(cross, lam, 0.0) * (ws[j] - ws[i])
            lo = np.where(cross, np.minimum(lo, w), lo)
            hi = np.where(cross, np.maximum(hi, w), hi)
    shrink = 0.0 if closed else EPS
    return np.where(ok, lo + shrink, math.inf), np.where(ok, hi - shrink, -math.inf)


def _section(strip: Span, run: float, thick: float, c: float, sg: float) -> Span:
    """The heights of the line's axial section over ``strip`` (along ``u``).

    The section is the rectangle ``t * (cos, sin) + r * (-sin, cos)``,
    ``0 <= t <= run``, ``|r| <= thick``: its corners over the strip and where
    its sides cross the strip's ends bound the heights there (a convex
    polygon cut by a strip is one, its vertices among those).
    """
    a, b = strip
    corners = [(t * c - r * sg, t * sg + r * c) for t, r in ((0.0, -thick), (run, -thick), (run, thick), (0.0, thick))]
    lo = np.full(np.broadcast(a, b).shape, math.inf)
    hi = np.full(lo.shape, -math.inf)
    for i, (w1, q1) in enumerate(corners):
        inside = (a <= w1) & (w1 <= b)
        lo, hi = np.where(inside, np.minimum(lo, q1), lo), np.where(inside, np.maximum(hi, q1), hi)
        w2, q2 = corners[(i + 1) % 4]
        if w2 == w1:
            continue
        for end in (a, b):
            lam = (end - w1) / (w2 - w1)
            cross = (lam >= 0.0) & (lam <= 1.0) & (a <= b)
            q = q1 + np.clip(lam, 0.0, 1.0) * (q2 - q1)
            lo, hi = np.where(cross, np.minimum(lo, q), lo), np.where(cross, np.maximum(hi, q), hi)
    return lo, hi


def line_size(shape: Line, rules: Rules, square: float, half: float, stop: float) -> tuple[float, float, float]:
    """A pitched line's length, run along its axis and thickness each side of it, in squares.

    Far-edge counting runs it on until every point past the run counts more
    than the length (a point ``t`` along has an offset of at least
    ``t / sqrt(3)`` on some axis); a wall or floor ``stop`` squares along its
    axis ends it.
    """
    length = min(shape.length / square, MAX_LENGTH)
    thick = min((rules.line_width if shape.width is None else shape.width) / square, MAX_LENGTH) / 2.0
    if rules.inclusion is Inclusion.FAR_EDGE:
        run = math.sqrt(3.0) * (length + 2.0) + min(half, MAX_LENGTH) + thick + 1.0
    else:
        run = length
    return length, min(run, stop), thick


def line_columns(shape: Line, rules: Rules, start: tuple[float, float], d: tuple[float, float], half: float,
                 o: tuple[float, float], square: float, stop: float,
                 xs: FloatArray, ys: FloatArray, lo: FloatArray, hi: FloatArray) -> BoolArray:
    """Whether the pitched line meets the column of square ``(xs, ys)`` at some height in ``[lo, hi]``.

    ``start``, ``d`` and ``half`` are the level line's path (its start moved
    by the tie rule, its direction, the half-width each side of it), ``o`` the
    point of origin and ``stop`` how far along its axis (in squares) the line
    runs before striking a wall or a floor (:func:`aoegrid.effects.build.line_stop`). See the module's notes.
    """
    length, run, thick = line_size(shape, rules, square, half, stop)
    half = min(half, MAX_LENGTH)
    far_edge = rules.inclusion is Inclusion.FAR_EDGE
    c, sg = unit_vector(shape.pitch)
    xs, ys, lo, hi = np.broadcast_arrays(xs, ys, lo, hi)
    if far_edge or rules.inclusion is Inclusion.TOUCH or half == 0.0:
        px = np.stack([xs, xs + 1.0, xs + 1.0, xs])
        py = np.stack([ys, ys, ys + 1.0, ys + 1.0])
        ws, ss, _, _ = _frame(d, shape.pitch, px, py, start)
        strip = _strip(ws, ss, half, closed=c == 0.0 and half == 0.0 and thick == 0.0)
    else:
        w, s, _, _ = _frame(d, shape.pitch, xs + 0.5, ys + 0.5, start)
        ok = np.abs(s) <= half + EPS
        strip = np.where(ok, w, math.inf), np.where(ok, w, -math.inf)
    span = _meet(_section(strip, run, thick, c, sg), (lo, hi))
    if not far_edge:
        return np.asarray(span[0] <= span[1])
    # Ahead of the origin: the centre's distance along the axis, at the height, is positive.
    w0, _, _, _ = _frame(d, shape.pitch, xs + 0.5, ys + 0.5, o)
    span = _meet(span, _below(-sg, 2.0 * EPS - c * w0))
    return _nearest_count(span, xs, ys, o, rules, length)
