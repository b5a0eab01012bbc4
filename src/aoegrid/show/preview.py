"""Pictures of areas drawn straight onto pixels with numpy and Pillow, without matplotlib.

:func:`panels` draws areas side by side, one panel each under its heading,
as :func:`aoegrid.show.plotting.compare` does: the map's image, faint grid lines,
walls by kind, each covered square tinted and outlined, cover badges,
squares the walls block dotted, the shape's dashed outline, the origin and
any tokens, in the same colours (:data:`aoegrid.show.plotting.AREA_COLORS`,
:data:`~aoegrid.show.plotting.WALL_STYLES`, :data:`~aoegrid.show.plotting.COVER_BADGES`),
with a legend of the same entries below. Importing matplotlib alone takes
longer than drawing a dozen panels here: this is what ``aoegrid demo``
draws. :func:`png` encodes a picture. Sizes are matplotlib's at 100 dots an
inch (a point is 100/72 pixels); shapes are drawn at twice the pixels and
shrunk, so their edges are smooth, and text at the final size.

Examples
--------
>>> import aoegrid as ag
>>> from aoegrid.show import preview
>>> a = ag.area(ag.Sphere(20), at=(10, 10), on=ag.Grid(20, 20))
>>> picture = preview.panels([("starfinder", a)], title="A 20-ft burst")
>>> picture.width, picture.mode
(340, 'RGB')
>>> preview.png(picture)[:8]
b'\\x89PNG\\r\\n\\x1a\\n'
"""

from __future__ import annotations

import functools
import io
import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from aoegrid.board.battlemap import BattleMapCore
from aoegrid.effects.result import AreaCore
from aoegrid.effects.targets import reached
from aoegrid.errors import GridMismatchError, InvalidValueError
from aoegrid.geometry._validate import count, positive, shown
from aoegrid.geometry.cover import Cover
from aoegrid.geometry.grid import Grid, memory_budget
from aoegrid.geometry.tokens import Space
from aoegrid.show.plotting import (
    _BLOCKED,
    _DPI,
    _GRID_COLOR,
    _TOKEN_COLORS,
    AREA_COLORS,
    COVER_BADGES,
    OUT_OF_RANGE,
    WALL_STYLES,
    _affected,
    _elevation_badge,
    _fit_name,
    _font,
    _heading,
    _lw,
    _map_pixels,
    _marks,
    _panel_scale,
    _wall_segments,
    outline,
)

#: Pixels a point.
_PT = _DPI / 72
#: Shapes are drawn at this many times the picture's pixels, then shrunk: smooth walls, arcs and dashes
#: (drawn at its own pixels, a dashed outline reads as solid). The demo's picture takes about 45 ms, 25 at 1x.
_SUPERSAMPLE = 2
#: Pixels round the picture and between panels; above each panel, for its heading; above the first
#: row, for the title.
_MARGIN, _HEAD, _TITLE = 20, 45, 50
#: Type sizes in pixels: the title, the panels' headings, the legend (matplotlib's 13, 10 and 9 points).
_TITLE_SIZE, _HEAD_SIZE, _LEGEND_SIZE = 19, 15, 14
#: matplotlib's dash patterns (``lines.*_pattern``) and the shape's, on and off, in line widths.
_DASHES: dict[str, tuple[float, ...]] = {
    "solid": (), "dashed": (3.7, 1.6), "dashdot": (6.4, 1.6, 1.0, 1.6), "dotted": (1.0, 1.65), "shape": (4.0, 2.0),
}
#: matplotlib's filled "X" marker, one unit across, centred.
_X = ((-0.25, -0.5), (0.0, -0.25), (0.25, -0.5), (0.5, -0.25), (0.25, 0.0), (0.5, 0.25), (0.25, 0.5), (0.0, 0.25),
      (-0.25, 0.5), (-0.5, 0.25), (-0.25, 0.0), (-0.5, -0.25))
#: Squares the walls block are dotted: 12 dots an inch, in staggered rows, as matplotlib's ``".."`` hatch.
_DOT_STEP, _DOT_RADIUS = _DPI / 12, 1.5
#: zlib's effort for the PNG: the demo's picture takes 37 ms and 655 kB at 1, 101 ms and 584 kB at 6
#: (Pillow's default), 44 ms and 622 kB at 3.
_PNG_LEVEL = 1

_Box = tuple[int, int, int, int]
#: Draws a legend entry's mark on an image, in a box.
_Swatch = Callable[["_Pen", Image.Image, _Box], None]


class _Pen:
    """Sizes on a picture drawn ``k`` times its final pixels, ``u`` points a square (as plotting sizes marks)."""

    def __init__(self, k: int, u: float) -> None:
        self.k = k
        self.u = u

    def width(self, points: float) -> int:
        """Pixels across a line of ``points`` at the reference scale (plotting's ``_lw``), at least one."""
        return max(1, round(_lw(self.u, points) * _PT * self.k))

    def stroke(self, draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]], fill: Any, width: float,
               style: str = "solid", *, closed: bool = False, caps: bool = False) -> None:
        """A line through ``points``, ``width`` points wide, solid or dashed as ``style`` (a key of ``_DASHES``).

        ``caps`` rounds the ends of solid pieces, so walls drawn as separate segments join without notches.
        """
        n = self.width(width)
        line = [*points, points[0]] if closed else list(points)
        pattern = _DASHES[style]
        for piece in _dashes(line, [max(1.0, p * n) for p in pattern]) if pattern else [line]:
            draw.line(piece, fill=fill, width=n, joint="curve")
            if caps and not pattern and n > 2:
                for x, y in (piece[0], piece[-1]):
                    draw.ellipse((x - n / 2, y - n / 2, x + n / 2, y + n / 2), fill=fill)

    def patch(self, draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]], fill: Any, edge: Any,
              width: float) -> None:
        """A polygon filled with ``fill``, edged ``width`` points wide on its outline (Pillow's own edge is inside it)."""
        draw.polygon(list(points), fill=fill)
        self.stroke(draw, points, edge, width, closed=True)


def _dashes(line: list[tuple[float, float]], pattern: Sequence[float]) -> list[list[tuple[float, float]]]:
    """The dashes of a polyline: its pieces on and off in turn, ``pattern`` pixels long, the first on."""
    dashes: list[list[tuple[float, float]]] = []
    dash = [line[0]]
    k, left = 0, pattern[0]
    for (x0, y0), (x1, y1) in itertools.pairwise(line):
        length = math.hypot(x1 - x0, y1 - y0)
        at = 0.0
        while length - at > left:
            at += left
            p = (x0 + (x1 - x0) * at / length, y0 + (y1 - y0) * at / length)
            if k % 2 == 0:
                dashes.append([*dash, p])
            dash = [p]
            k = (k + 1) % len(pattern)
            left = pattern[k]
        left -= length - at
        dash.append((x1, y1))
    if k % 2 == 0 and len(dash) > 1:
        dashes.append(dash)
    return dashes


@functools.cache
def _typeface(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own sans-serif face, ``size`` pixels; before Pillow 10.1, its one small bitmap face."""
    try:
        return ImageFont.load_default(size=size)
    except TypeError:
        return ImageFont.load_default()


def _fitted(draw: ImageDraw.ImageDraw, text: str, size: int, room: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The face for ``text`` at ``size`` pixels, smaller (to 8) if it would run wider than ``room``."""
    font = _typeface(size)
    wide = draw.multiline_textbbox((0, 0), text, font=font)[2]
    return _typeface(max(8, int(size * room / wide))) if wide > room and size > 8 else font


def _centred(draw: ImageDraw.ImageDraw, cx: float, y: float, text: str, font: Any, *, bottom: bool = False) -> None:
    """``text`` centred on ``cx``, its top (or ``bottom``) at ``y``."""
    x0, y0, x1, y1 = draw.multiline_textbbox((0, 0), text, font=font, align="center")
    draw.multiline_text((cx - (x0 + x1) / 2, y - (y1 if bottom else y0)), text, font=font, fill="black",
                        align="center")


def _square_edges(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each unit edge of a square of ``mask`` once: (x, y) starts of the edges across, and of those down."""
    h, w = mask.shape
    across = np.zeros((h + 1, w), dtype=bool)
    across[:-1] |= mask
    across[1:] |= mask
    down = np.zeros((h, w + 1), dtype=bool)
    down[:, :-1] |= mask
    down[:, 1:] |= mask
    return np.argwhere(across)[:, ::-1], np.argwhere(down)[:, ::-1]


def _rule(draw: ImageDraw.ImageDraw, line: tuple[int, int, int, int], n: int, lo: int, fill: Any) -> None:
    """A line along an axis from (x0, y0) to (x1, y1), ``n`` pixels wide from ``lo`` before it, to ``n - lo`` after."""
    x0, y0, x1, y1 = line
    draw.rectangle((x0 - lo, y0 - lo, x1 - lo + n - 1, y1 - lo + n - 1), fill=fill)


def _dots(box: _Box, k: int) -> np.ndarray:
    """A mask (0 or 255) of dots in staggered rows from (0, 0), over the pixels of ``box``, drawn ``k`` times over."""
    step, radius = _DOT_STEP * k, _DOT_RADIUS * k
    y, x = np.ogrid[box[1]:box[3], box[0]:box[2]]
    row = np.floor(y / step + 0.5)
    dy = y - row * step
    dx = (x - (row % 2) * step / 2 + step / 2) % step - step / 2
    return np.where(dx * dx + dy * dy <= radius * radius, np.uint8(255), np.uint8(0))


class _Panels:
    """One picture being drawn: the pixels of the squares, shared by every panel, and what each map shows."""

    def __init__(self, grid: Grid, scale: float, pen: _Pen) -> None:
        k = pen.k
        self.pen = pen
        self.xe = np.round(np.arange(grid.width + 1) * scale * k).astype(np.int64)
        self.ye = np.round(np.arange(grid.height + 1) * scale * k).astype(np.int64)
        self.size = (int(self.xe[-1]), int(self.ye[-1]))
        self.s = scale * k
        self.rows = np.repeat(np.arange(grid.height), np.diff(self.ye))
        self.cols = np.repeat(np.arange(grid.width), np.diff(self.xe))
        self.maps: dict[tuple[Any, ...], tuple[Image.Image, Image.Image | None, list[str]]] = {}
        self.legend: dict[str, _Swatch] = {}

    def tint(self, panel: Image.Image, mask: np.ndarray, fill: str, opacity: float, dots: bool = False) -> None:
        """The squares of ``mask`` tinted with ``fill``, ``opacity`` opaque, and dotted in black with ``dots``.

        Only the pixels round the squares are blended: a panel's few squares cost little.
        """
        ys, xs = np.nonzero(mask.any(axis=1))[0], np.nonzero(mask.any(axis=0))[0]
        if not xs.size:
            return
        x0, x1, y0, y1 = self.xe[xs[0]], self.xe[xs[-1] + 1], self.ye[ys[0]], self.ye[ys[-1] + 1]
        spread = mask.take(self.rows[y0:y1], axis=0).take(self.cols[x0:x1], axis=1)
        box = (int(x0), int(y0), int(x1), int(y1))
        panel.paste(fill, box, Image.fromarray(spread.astype(np.uint8) * np.uint8(round(255 * opacity))))
        if dots:
            panel.paste("black", box, Image.fromarray(np.where(spread, _dots(box, self.pen.k), np.uint8(0))))

    def layers(self, bmap: BattleMapCore | None) -> tuple[Image.Image, Image.Image | None, list[str]]:
        """What every panel of a map shows: under the area, its image and grid lines; over it, its walls
        (RGBA, None without walls), and their kinds.

        Kept by what is drawn (the demo's two maps, in feet and inches, are drawn once).
        """
        key: tuple[Any, ...] = () if bmap is None else (bmap.walls, bmap.fog, id(getattr(bmap, "info", None)))
        if key not in self.maps:
            self.maps[key] = self._layers(bmap)
        return self.maps[key]

    def _layers(self, bmap: BattleMapCore | None) -> tuple[Image.Image, Image.Image | None, list[str]]:
        size, pen = self.size, self.pen
        base = Image.new("RGB", size, "white")
        pixels = _map_pixels(bmap, *size) if bmap is not None else None
        if pixels is not None:
            image = Image.fromarray(pixels)
            if image.size != size:
                image = image.resize(size, Image.Resampling.BILINEAR)
            base.paste(image, (0, 0), image if image.mode == "RGBA" else None)
        # Grid lines thinner than a pixel straddle two, as faint as they are thin (as matplotlib draws them).
        lines = Image.new("L", size, 0)
        draw = ImageDraw.Draw(lines)
        thin = _lw(pen.u, 0.5) * _PT * pen.k
        n = max(2, round(thin))
        level = round(255 * min(1.0, thin / n))
        for x in self.xe.tolist():
            _rule(draw, (x, 0, x, size[1]), n, n // 2, level)
        for y in self.ye.tolist():
            _rule(draw, (0, y, size[0], y), n, n // 2, level)
        base.paste(_GRID_COLOR, (0, 0, *size), lines)
        if bmap is None:
            return base, None, []
        groups = _wall_segments(bmap)
        walls = Image.new("RGBA", size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(walls)
        s = self.s
        for kind, segments in groups.items():
            color, style, width = WALL_STYLES[kind]
            for (x0, y0), (x1, y1) in segments:
                pen.stroke(draw, [(x0 * s, y0 * s), (x1 * s, y1 * s)], color, width, style, caps=True)
        return base, walls, list(groups)

    def draw(self, a: AreaCore) -> Image.Image:
        """One area's panel (everything drawn on it stays inside it); its marks' legend entries noted."""
        pen, s = self.pen, self.s
        xe, ye = self.xe.tolist(), self.ye.tolist()
        bmap = a.battlemap
        base, walls, kinds = self.layers(bmap)
        panel = base.copy()
        draw = ImageDraw.Draw(panel)
        for kind in kinds:
            color, style, width = WALL_STYLES[kind]
            self._note(kind, functools.partial(_line_swatch, fill=color, width=width, style=style))
        color = AREA_COLORS[0]
        alpha = 0.3
        self.tint(panel, a.mask, color, alpha)
        # Snapped to whole pixels of the picture, as matplotlib snaps lines along the axes: crisp.
        whole = max(1, round(_lw(pen.u, 1.2) * _PT))
        across, down = _square_edges(a.mask)
        for x, y in across.tolist():
            _rule(draw, (xe[x], ye[y], xe[x + 1], ye[y]), whole * pen.k, whole // 2 * pen.k, color)
        for x, y in down.tolist():
            _rule(draw, (xe[x], ye[y], xe[x], ye[y + 1]), whole * pen.k, whole // 2 * pen.k, color)
        self._note("area", functools.partial(_box_swatch, fill=color, alpha=alpha, edge=color, width=1.2))
        far, badged, blocked = _marks(a)
        if far.any():
            across, down = _square_edges(far)
            for x, y in across.tolist():
                pen.stroke(draw, [(xe[x], ye[y]), (xe[x + 1], ye[y])], OUT_OF_RANGE, 1.0, "dashed")
            for x, y in down.tolist():
                pen.stroke(draw, [(xe[x], ye[y]), (xe[x], ye[y + 1])], OUT_OF_RANGE, 1.0, "dashed")
            self._note("out of range", functools.partial(_box_swatch, edge=OUT_OF_RANGE, width=1.0, style="dashed"))
        for grade, in_cover in badged.items():
            name, size, face, edge = COVER_BADGES[grade]
            ys, xs = np.nonzero(in_cover)
            for x, y in zip(xs.tolist(), ys.tolist()):
                right, top = xe[x + 1], ye[y]
                pen.patch(draw, [(right - size * s, top), (right, top), (right, top + size * s)], face, edge, 0.8)
            if xs.size:
                self._note(name, functools.partial(_box_swatch, fill=face, edge=edge, width=0.8))
        if blocked is not None and blocked.any():
            self.tint(panel, blocked, *_BLOCKED, dots=True)
            self._note("blocked (total cover)", _blocked_swatch)
        shape = outline(a)
        if shape is not None and len(shape) >= 3:
            pen.stroke(draw, [(x * s, y * s) for x, y in shape.tolist()], color, 1.5, "shape", closed=True)
            self._note("shape", functools.partial(_box_swatch, edge=color, width=1.5, style="shape"))
        if walls is not None:
            panel.paste(walls, (0, 0), walls)
        if bmap is not None and bmap.tokens:
            self._tokens(draw, bmap, reached(a, list(bmap.tokens)) if a.recipe is not None else [])
        if isinstance(a.origin, Space):
            x0, y0, x1, y1 = a.origin.bounds
            pen.stroke(draw, [(x0 * s, y0 * s), (x1 * s, y0 * s), (x1 * s, y1 * s), (x0 * s, y1 * s)], color, 2.0,
                       "dashed", closed=True)
            self._note("origin", functools.partial(_box_swatch, edge=color, width=2.0, style="dashed"))
        elif a.origin is not None:
            _cross(pen, draw, (a.origin[0] * s, a.origin[1] * s), color)
            self._note("origin", functools.partial(_cross_swatch, fill=color))
        return panel

    def _tokens(self, draw: ImageDraw.ImageDraw, bmap: BattleMapCore, affected: list[Any]) -> None:
        """The map's tokens as :func:`aoegrid.show.plotting.plot_tokens` draws them; a pie badges cover, a label elevation."""
        pen, s = self.pen, self.s
        hit = _affected(affected)
        for t in bmap.tokens:
            w, h = t.footprint
            cx, cy = t.space.center[0] * s, t.space.center[1] * s
            r = 0.4 * min(w, h) * s
            is_hit = t.label in hit
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_TOKEN_COLORS[0],
                         outline=AREA_COLORS[0] if is_hit else _TOKEN_COLORS[1], width=pen.width(3.0 if is_hit else 1.0))
            if t.name:
                # A name may run past its disc (to 2.2 squares), haloed so it reads over anything.
                name, size = _fit_name(t.name, 2.2 * w * pen.u, _font(pen.u) * min(1.0, max(w, 1) ** 0.5))
                font = _typeface(max(1, round(size * _PT * pen.k)))
                x0, y0, x1, y1 = draw.textbbox((0, 0), name, font=font)
                draw.text((cx - (x0 + x1) / 2, cy - (y0 + y1) / 2), name, font=font, fill="black",
                          stroke_width=max(1, pen.width(2.0) // 2), stroke_fill="white")
            grade = hit.get(t.label, Cover.NONE)
            if grade in COVER_BADGES:
                # A black disc, white for the share of the creature covered: a half, three quarters.
                b = 0.6 * max(5.0, _font(pen.u) * 0.9) * _PT * pen.k
                bx, by = cx + r * 0.75, cy - r * 0.75
                disc = (bx - b, by - b, bx + b, by + b)
                draw.ellipse(disc, fill="black", outline="white", width=pen.width(1.0))
                draw.pieslice(disc, -90, -90 + (180 if grade is Cover.PARTIAL else 270), fill="white")
            if t.elevation:
                # A white box edged as the disc, padded a fifth of the type as plotting's is.
                size = max(5.0, _font(pen.u) * 0.7) * _PT * pen.k
                font, label = _typeface(max(1, round(size))), _elevation_badge(t, bmap.grid)
                x0, y0, x1, y1 = draw.textbbox((0, 0), label, font=font)
                at = (cx - (x0 + x1) / 2, cy + r * 0.8 - (y0 + y1) / 2)
                x0, y0, x1, y1 = draw.textbbox(at, label, font=font)
                pad = 0.2 * size + pen.width(1.0)
                draw.rounded_rectangle((x0 - pad, y0 - pad, x1 + pad, y1 + pad), radius=pad, fill="white",
                                       outline=_TOKEN_COLORS[1], width=pen.width(1.0))
                draw.text(at, label, font=font, fill="black")

    def _note(self, label: str, swatch: _Swatch) -> None:
        """A legend entry, the first swatch for its label kept (as matplotlib keeps the first artist)."""
        self.legend.setdefault(label, swatch)


def _cross(pen: _Pen, draw: ImageDraw.ImageDraw, at: tuple[float, float], fill: str) -> None:
    """matplotlib's filled "X" marker, as large as plotting marks an origin, edged in white."""
    size = 0.55 * pen.u * _PT * pen.k
    pen.patch(draw, [(at[0] + x * size, at[1] + y * size) for x, y in _X], fill, "white", 1.0)


def _line_swatch(pen: _Pen, image: Image.Image, box: _Box, *, fill: str, width: float, style: str) -> None:
    x0, y0, x1, y1 = box
    pen.stroke(ImageDraw.Draw(image), [(x0, (y0 + y1) / 2), (x1, (y0 + y1) / 2)], fill, width, style)


def _box_swatch(pen: _Pen, image: Image.Image, box: _Box, *, edge: str, width: float, fill: str | None = None,
                alpha: float = 1.0, style: str = "solid") -> None:
    x0, y0, x1, y1 = box
    if fill is not None:
        image.paste(fill, box, Image.new("L", (x1 - x0, y1 - y0), round(255 * alpha)))
    pen.stroke(ImageDraw.Draw(image), [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], edge, width, style, closed=True)


def _blocked_swatch(pen: _Pen, image: Image.Image, box: _Box) -> None:
    x0, y0, x1, y1 = box
    grey, opacity = _BLOCKED
    image.paste(grey, box, Image.new("L", (x1 - x0, y1 - y0), round(255 * opacity)))
    image.paste("black", box, Image.fromarray(_dots((0, 0, x1 - x0, y1 - y0), pen.k)))


def _cross_swatch(pen: _Pen, image: Image.Image, box: _Box, *, fill: str) -> None:
    x0, y0, x1, y1 = box
    _cross(pen, ImageDraw.Draw(image), ((x0 + x1) / 2, (y0 + y1) / 2), fill)


def _legend(entries: dict[str, _Swatch], pen: _Pen, width: int) -> Image.Image:
    """The legend: each entry's mark and label, in rows centred across ``width`` pixels."""
    font = _typeface(_LEGEND_SIZE)
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    em = _LEGEND_SIZE
    # As matplotlib lays a legend out: a mark 2 x 0.7 em, 0.8 em before its label, 2 em between entries.
    mark_w, mark_h, pad, gap = 2 * em, round(0.7 * em), round(0.8 * em), 2 * em
    line_h = round(1.5 * em)
    sized = [(label, swatch, mark_w + pad + math.ceil(probe.textlength(label, font=font)))
             for label, swatch in entries.items()]
    lines: list[list[tuple[str, _Swatch, int]]] = []
    for entry in sized:
        if lines and sum(w for *_, w in lines[-1]) + gap * len(lines[-1]) + entry[2] <= width - 2 * _MARGIN:
            lines[-1].append(entry)
        else:
            lines.append([entry])
    k = pen.k
    height = 2 * _MARGIN + line_h * len(lines)
    marks = Image.new("RGB", (width * k, height * k), "white")
    places: list[tuple[str, int, int]] = []
    for row, line in enumerate(lines):
        x = (width - sum(w for *_, w in line) - gap * (len(line) - 1)) // 2
        mid = _MARGIN + row * line_h + line_h // 2
        for label, swatch, w in line:
            swatch(pen, marks, (x * k, (mid - mark_h // 2) * k, (x + mark_w) * k, (mid - mark_h // 2 + mark_h) * k))
            places.append((label, x + mark_w + pad, mid))
            x += w + gap
    picture = marks.reduce(k) if k > 1 else marks
    draw = ImageDraw.Draw(picture)
    for label, x, mid in places:
        _, top, _, bottom = draw.textbbox((0, 0), label, font=font)
        draw.text((x, mid - (top + bottom) / 2), label, font=font, fill="black")
    return picture


def panels(panels: Sequence[tuple[Any, AreaCore]], *, columns: int | None = None, names: Sequence[str] | None = None,
           title: str | None = None, legend: bool = True, scale: float | None = None) -> Image.Image:
    """Areas side by side, one panel each under its heading, and one legend below: a Pillow image.

    The picture :func:`aoegrid.show.plotting.compare` draws (the same marks,
    panels of the same size), without matplotlib.

    Parameters
    ----------
    panels : sequence of (Rules or str, Area)
        What each panel shows: the rules (or any name) its heading names,
        and the area. The areas are on grids of one size.
    columns : int, optional
        Panels a row (default: all in one row).
    names : sequence of str, optional
        Each panel's heading (default: the rules' name, the count, how the
        rules count squares).
    title : str, optional
        A title over the whole picture.
    legend : bool
        A legend of the marks drawn, below the panels.
    scale : float, optional
        Pixels a square (default: 300 pixels across a panel, at least 8 a
        square).

    Returns
    -------
    PIL.Image.Image
        An RGB picture: ``columns`` panels across, with 20 pixels round
        each, 45 above each for its heading and 50 at the top for a title.

    Raises
    ------
    InvalidValueError
        No panels, a panel that is not (rules, Area), ``names`` not one a
        panel, ``columns`` or ``scale`` not positive, or a picture too large
        for the memory a query may take.
    GridMismatchError
        Areas on grids of different sizes.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.Grid(10, 10)
    >>> picture = panels([(rules, ag.area(ag.Sphere(15), at=(5, 5), on=g, rules=rules)) for rules in ("pf2e", "sw5e")],
    ...                  scale=30, legend=False)
    >>> picture.size
    (660, 375)
    """
    areas = _areas(panels)
    grid = areas[0].grid
    heads = list(names) if names is not None else [_heading(rules, a) for rules, a in panels]
    if len(heads) != len(areas):
        raise InvalidValueError(f"names must give one heading a panel: {len(heads)} names for {len(areas)} panels")
    columns = count(columns, "columns") if columns is not None else len(areas)
    scale = positive(scale, "scale") if scale is not None else _panel_scale(grid)
    rows = math.ceil(len(areas) / columns)
    pw, ph = round(grid.width * scale), round(grid.height * scale)
    top = _TITLE if title else _MARGIN // 2
    width = columns * pw + (columns + 1) * _MARGIN
    body = top + rows * (_HEAD + ph)
    k = _SUPERSAMPLE
    need = 4 * k * k * width * body
    if need > memory_budget() / 4:
        raise InvalidValueError(f"a picture of {width:,} x {body:,} pixels at scale={scale:g} needs {need / 2**30:.1f} GiB, "
                                f"more than a quarter of the {memory_budget() / 2**30:.1f} GiB a query may take on "
                                "this machine: give a smaller scale")
    pen = _Pen(k, scale * 72 / _DPI)
    drawing = _Panels(grid, scale, pen)
    canvas = Image.new("RGB", (width * k, body * k), "white")
    corners = []
    for i, a in enumerate(areas):
        r, c = divmod(i, columns)
        corner = (_MARGIN + c * (pw + _MARGIN), top + r * (_HEAD + ph) + _HEAD)
        canvas.paste(drawing.draw(a), (corner[0] * k, corner[1] * k))
        corners.append(corner)
    key = _legend(drawing.legend, pen, width) if legend else None
    picture = Image.new("RGB", (width, body + (key.size[1] if key is not None else _MARGIN)), "white")
    picture.paste(canvas.reduce(k) if k > 1 else canvas, (0, 0))
    if key is not None:
        picture.paste(key, (0, body))
    draw = ImageDraw.Draw(picture)
    for (x, y), head in zip(corners, heads):
        # matplotlib's 6 points (8 pixels) between a title and its Axes.
        _centred(draw, x + pw / 2, y - 8, head, _fitted(draw, head, _HEAD_SIZE, pw + _MARGIN), bottom=True)
    if title:
        _centred(draw, width / 2, _MARGIN // 2, title, _fitted(draw, title, _TITLE_SIZE, width - _MARGIN))
    return picture


def _areas(panels: Sequence[tuple[Any, AreaCore]]) -> list[AreaCore]:
    """The panels' areas, checked: at least one, each (rules, Area), all on grids of one size."""
    if not panels:
        raise InvalidValueError(f"panels needs at least one panel, (rules, Area), got {shown(panels)}")
    areas = []
    for panel in panels:
        try:
            _, a = panel
        except (TypeError, ValueError):
            a = None
        if not isinstance(a, AreaCore):
            raise InvalidValueError(f"each panel is (rules or name, Area), got {shown(panel)}")
        areas.append(a)
    size = (areas[0].grid.width, areas[0].grid.height)
    for a in areas[1:]:
        if (a.grid.width, a.grid.height) != size:
            raise GridMismatchError(f"the panels' areas are on grids of one size: {size[0]}x{size[1]} and "
                                    f"{a.grid.width}x{a.grid.height}")
    return areas


def png(picture: Image.Image) -> bytes:
    """A picture as PNG bytes, compressed for speed (zlib level 1: the demo's picture in about 40 ms).

    Examples
    --------
    >>> from PIL import Image
    >>> png(Image.new("RGB", (4, 4), "white"))[:4]
    b'\\x89PNG'
    """
    buf = io.BytesIO()
    picture.save(buf, format="PNG", compress_level=_PNG_LEVEL)
    return buf.getvalue()
