"""Explore areas in Jupyter: click a map to place an effect, see what it covers.

``aoegrid.explore(on)`` (this module's :func:`explore`, loaded on first call)
returns an :class:`Explorer`, a Jupyter widget: the map as
:mod:`aoegrid.show.plotting` draws it; a click places the point of origin, snapped
to the points the searches look at (:func:`aoegrid.effects.ranges.origin_lattice`:
intersections under Starfinder and Pathfinder 2e, the nearest intersection or
square centre otherwise), and dragging moves it; a drag from it, or the dial,
aims cones, lines and cubes; controls choose the shape, its size, the preset
and the mode; beside the map, the number of squares and the creatures reached
with their cover; with a caster, each placement at a point is checked as
:func:`aoegrid.area` checks it, and a check box shades every placement's score
(:func:`aoegrid.placement_scores`) and outlines the best one (with ``move=``,
after the caster moves: the path it walks and where it stands drawn too).

On a hex map (a :class:`~aoegrid.HexGrid`, or a BattleMap on one) the board
shows hexes as hexes, a click snaps to the nearest hex corner under rules
whose origins are intersections (``Rules.hex_origin``: Starfinder, Pathfinder
2e, 5e) and stays where it is under Savage Worlds, and the area is
:func:`aoegrid.area`'s :class:`~aoegrid.hexarea.HexArea` (checked against
the caster as on squares). The score map is :func:`aoegrid.placement_scores`'
on hexes (a disc a hex corner, or centre under Savage Worlds); ``move=``
works on square grids only, and the widget says so.

Why anywidget: the widget is one ``anywidget.AnyWidget`` whose front end is a
small ES module (below, in ``_ESM``). Every rule (snapping, the area, cover,
creatures, scores) runs in Python, so the widget shows exactly what
:func:`aoegrid.area` computes, and its state is plain traitlets a notebook or
a test can read and set; the front end only draws and turns pointer positions
into grid coordinates. anywidget's front end ships inside its pip package for
JupyterLab 4, Notebook 7 and Voilà; matplotlib's interactive backend (ipympl)
would need its own front-end extension and an event loop through the canvas.

What goes to the browser is data, not pictures, so a drag redraws as fast as
Python computes the area: once, the ``board`` (the map file's own image,
shrunk to the size the page shows it, with the grid, the walls by kind and
the creatures); after each change, the ``view`` (the covered squares as runs
of each row, cover badges, squares walls block, the shape's outline, the
origin, the creatures reached with their grades: a few kilobytes; on hexes,
``hexes`` instead of ``runs``: runs along rows of offset coordinates, each
drawn as a hexagon from the board's ``hex`` layout); with the
score map, ``score_layer`` (a palette index per lattice point, the best placement's
outline, and after a move the path and the square stood on). The browser draws them on canvases in grid units. A drag keeps one
request in flight: pointer moves while it is out replace each other, and the
latest goes out when its answer (``answered``) comes back, so the picture
trails the pointer by at most one step and the last position always wins.

Needs the ``jupyter`` extra (``pip install "aoegrid[jupyter]"``): anywidget,
ipywidgets. ``import aoegrid`` loads none of it.

Examples
--------
Drive the widget from Python, as a notebook cell or a test does:

>>> import aoegrid as ag
>>> w = ag.explore(ag.Grid(20, 20))
>>> w.origin = (7.4, 5.8)              # a click there: snapped to an intersection
>>> w.origin, len(w.area)
((7.0, 6.0), 44)
>>> w.rules = "sw5e"                   # the nearest intersection or square centre
>>> w.origin = (7.4, 5.8)
>>> w.origin, len(w.area) == len(ag.area(ag.Sphere(20), at=(7.5, 5.5), on=ag.Grid(20, 20), rules="sw5e"))
((7.5, 5.5), True)

What the browser draws, rows of squares as ``(y, first x, x past the last)``:

>>> w = ag.explore(ag.Grid(8, 8), ag.Sphere(5), at=(4, 4))
>>> w.view["runs"], w.view["origin"]
([3, 3, 5, 4, 3, 5], [4.0, 4.0])

On hexes, a click goes to the nearest hex corner; hexes are runs of ``(row, first col, col past the last)``:

>>> g = ag.HexGrid(8, 6)
>>> w = ag.explore(g, ag.Sphere(5), at=(3.1, 2.1))
>>> [round(v, 4) for v in w.origin], len(w.area), w.view["hexes"]      # the bottom corner of hex (2, 1)
([3.0, 2.0207], 3, [1, 2, 3, 2, 2, 4])
"""

from __future__ import annotations

import base64
import html
import io
import itertools
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anywidget
import numpy as np
import traitlets

from aoegrid.area import Area, area
from aoegrid.board.battlemap import BattleMapCore, hex_footprint
from aoegrid.effects.ranges import Range
from aoegrid.effects.targets import Reached
from aoegrid.errors import AoegridError, InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.geometry._validate import non_negative, positive
from aoegrid.geometry.directions import parse_direction
from aoegrid.geometry.grid import Grid
from aoegrid.geometry.hexgrid import ROW_SPACING, HexGrid
from aoegrid.geometry.options import Mode, OriginPoint, parse_option
from aoegrid.geometry.rules import PRESETS, Rules, resolve_rules
from aoegrid.geometry.shapes import Cone, Cube, Cylinder, Line, Shape, Sphere
from aoegrid.geometry.tokens import Space, Token
from aoegrid.hexarea import HexArea, nearest_corner
from aoegrid.hextactics import HexPlacement
from aoegrid.maps import BattleMap
from aoegrid.planning.tactics import Placement, Selector, best_placements, placement_scores
from aoegrid.show.hexplot import _BADGE_SIDE, _rings, hex_outline
from aoegrid.show.plotting import (
    _BEST,
    _NO_SCORE,
    _STAND_INSET,
    AREA_COLORS,
    COVER_BADGES,
    PATH_COLOR,
    WALL_STYLES,
    _caster_space,
    _edges,
    _fit_name,
    _font,
    _lw,
    _map_pixels,
    _score_norm,
    _wall_segments,
    outline,
)

#: The shapes the controls offer, and the field each one's size is.
SIZE_FIELDS = {"sphere": "radius", "cylinder": "radius", "cone": "length", "line": "length", "cube": "size"}
#: What :func:`explore` places unless told: a 20-ft burst (a fireball).
DEFAULT_SHAPE = Sphere(20)
#: Shapes a drag or the dial points.
AIMED = ("cone", "line", "cube")

_ESM = r"""
const SVG = "http://www.w3.org/2000/svg";
// A press that moves less than this (CSS pixels) is a click, not a drag.
const SLOP = 5;
// An answer not back after this long (ms) is taken as lost, so one dropped message cannot stall the page.
const STALE = 2000;
// Device pixels on a layer's longest side at most: the five layers that size take 320 MB.
const MAX_BACKING = 4096;
// A score's palette index for no score (dimmed); above it, 255, a lattice entry not searched (an edge's middle).
const NO_SCORE = 254;

function make(tag, cls, parent) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (parent) parent.appendChild(e);
  return e;
}

function labelled(text, control, parent) {
  const l = make("label", "aoegrid-field", parent);
  l.append(text, control);
  return control;
}

function options(select, values, current) {
  select.replaceChildren(...values.map((v) => { const o = make("option"); o.value = o.textContent = v; return o; }));
  select.value = current;
}

function decode(b64) {
  const s = atob(b64), out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

// Size a layer for the board, its units squares, sharp on dense screens.
function fit(canvas, board) {
  const [w, h] = board.size;
  const k = board.scale * Math.min(window.devicePixelRatio || 1, MAX_BACKING / (Math.max(w, h) * board.scale));
  canvas.width = Math.max(1, Math.round(w * k));
  canvas.height = Math.max(1, Math.round(h * k));
  const ctx = canvas.getContext("2d");
  ctx.setTransform(canvas.width / w, 0, 0, canvas.height / h, 0, 0);
  return ctx;
}

function clear(ctx) {
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  ctx.restore();
}

// Dash patterns come in line widths, as matplotlib's.
function stroke(ctx, color, width, dash) {
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.setLineDash(dash ? dash.map((d) => d * width) : []);
  ctx.stroke();
}

function segments(ctx, flat) {
  ctx.beginPath();
  for (let i = 0; i < flat.length; i += 4) { ctx.moveTo(flat[i], flat[i + 1]); ctx.lineTo(flat[i + 2], flat[i + 3]); }
}

// Squares come as runs along rows, flat: y, first x, x past the last.
function eachRun(flat, fn) {
  for (let i = 0; i < flat.length; i += 3) fn(flat[i + 1], flat[i], flat[i + 2] - flat[i + 1]);
}

function fillRuns(ctx, flat, style) {
  ctx.fillStyle = style;
  eachRun(flat, (x, y, n) => ctx.fillRect(x, y, n, 1));
}

// Hex (col, row)'s centre, as HexGrid.center places it: rows (pointy) or columns (flat) of the shoved parity sit half a hex on.
function hexCenter(h, col, row) {
  const shove = (k) => ((k % 2) === h.shoved ? 0.5 : 0);
  return h.pointy ? [h.first[0] + col + shove(row) - shove(0), h.first[1] + row * h.spacing]
                  : [h.first[0] + col * h.spacing, h.first[1] + row + shove(col) - shove(0)];
}

function hexagon(ctx, h, col, row) {
  const [x, y] = hexCenter(h, col, row), c = h.corners;
  ctx.moveTo(x + c[0], y + c[1]);
  for (let i = 2; i < 12; i += 2) ctx.lineTo(x + c[i], y + c[i + 1]);
  ctx.closePath();
}

// Hexes come as runs along rows of offset coordinates, flat: row, first col, col past the last.
function eachHex(flat, fn) {
  for (let i = 0; i < flat.length; i += 3) for (let col = flat[i + 1]; col < flat[i + 2]; col++) fn(col, flat[i]);
}

// One path of every hex of the runs: filled once, neighbours leave no seam and no overlap darkens.
function hexRuns(ctx, h, flat) {
  ctx.beginPath();
  eachHex(flat, (col, row) => hexagon(ctx, h, col, row));
}

function cross(ctx, [x, y], size, color, edge) {
  const h = size / 2;
  ctx.beginPath();
  ctx.moveTo(x - h, y - h); ctx.lineTo(x + h, y + h);
  ctx.moveTo(x + h, y - h); ctx.lineTo(x - h, y + h);
  ctx.lineCap = "butt";
  stroke(ctx, "#ffffff", 0.3 * size + 2 * edge);
  stroke(ctx, color, 0.3 * size);
}

function box(ctx, [x0, y0, x1, y1], color, width, dash) {
  ctx.beginPath();
  ctx.rect(x0, y0, x1 - x0, y1 - y0);
  stroke(ctx, color, width, dash);
}

// The hatch of squares walls block: dots a few device pixels apart whatever the zoom.
function dots(ctx) {
  const tile = make("canvas");
  tile.width = tile.height = 5;
  const t = tile.getContext("2d");
  t.fillStyle = "rgba(40, 40, 40, 0.7)";
  t.fillRect(1, 1, 1.5, 1.5);
  const pattern = ctx.createPattern(tile, "repeat");
  pattern.setTransform(ctx.getTransform().inverse());
  return pattern;
}

function drawBase(ctx, board, image) {
  const [w, h] = board.size;
  clear(ctx);
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, w, h);
  if (image) { ctx.imageSmoothingQuality = "high"; ctx.drawImage(image, 0, 0, w, h); }
  ctx.beginPath();
  if (board.hex) {
    for (let row = 0; row < board.hex.rows; row++) for (let col = 0; col < board.hex.cols; col++) hexagon(ctx, board.hex, col, row);
  } else {
    for (let x = 0; x <= w; x++) { ctx.moveTo(x, 0); ctx.lineTo(x, h); }
    for (let y = 0; y <= h; y++) { ctx.moveTo(0, y); ctx.lineTo(w, y); }
  }
  stroke(ctx, ...board.grid);
  for (const [color, dash, width, flat] of board.walls) { segments(ctx, flat); stroke(ctx, color, width, dash); }
}

function drawTokens(ctx, board, reached) {
  const st = board.style, grades = new Map(reached);
  ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.lineJoin = "round";
  board.tokens.forEach(([cx, cy, r, name, font], i) => {
    const hit = grades.has(i);
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    ctx.fillStyle = st.token[0];
    ctx.fill();
    stroke(ctx, ...(hit ? st.hit : st.token.slice(1)));
    if (name) {
      ctx.font = `${font}px sans-serif`;
      ctx.strokeStyle = "#ffffff"; ctx.lineWidth = st.halo; ctx.setLineDash([]);
      ctx.strokeText(name, cx, cy);
      ctx.fillStyle = "#000000";
      ctx.fillText(name, cx, cy);
    }
    const badge = st.token_badges[grades.get(i)];
    if (!badge) return;
    const [bx, by] = [cx + 0.75 * r, cy - 0.75 * r];
    ctx.beginPath();
    ctx.arc(bx, by, 0.7 * st.badge_font, 0, 2 * Math.PI);
    ctx.fillStyle = "#000000";
    ctx.fill();
    stroke(ctx, "#ffffff", st.badge_width);
    ctx.font = `bold ${st.badge_font}px sans-serif`;
    ctx.fillStyle = "#ffffff";
    ctx.fillText(badge, bx, by);
  });
}

// The area's squares (ctx), under the score map's marks; its outline, origin and the creatures over them (top).
function drawArea(ctx, top, board, v) {
  const st = board.style;
  clear(ctx);
  clear(top);
  if (v.refused) {
    cross(top, v.refused, st.mark, st.refused, st.mark_edge);
    drawTokens(top, board, []);
    return;
  }
  if (v.hexes) drawHexes(ctx, board, v);
  else if (v.runs) drawSquares(ctx, board, v);
  else return;
  for (const ring of (v.hexes ? v.outline : [v.outline])) {
    if (ring.length < 6) continue;
    top.beginPath();
    top.moveTo(ring[0], ring[1]);
    for (let i = 2; i < ring.length; i += 2) top.lineTo(ring[i], ring[i + 1]);
    top.closePath();
    stroke(top, st.color, st.shape_width, [4, 2]);
  }
  cross(top, v.origin, st.mark, st.color, st.mark_edge);
  drawTokens(top, board, v.reached);
}

// An area's hexes: tinted, each outlined; blocked ones dotted; cover a diamond in the upper-right corner, as hexplot draws.
function drawHexes(ctx, board, v) {
  const st = board.style, h = board.hex;
  // Blocked hexes first: the area's hexes' edges, drawn over them, stay whole where the two meet.
  if (v.blocked.length) {
    hexRuns(ctx, h, v.blocked);
    ctx.fillStyle = st.blocked;
    ctx.fill();
    ctx.fillStyle = dots(ctx);
    ctx.fill();
  }
  hexRuns(ctx, h, v.hexes);
  ctx.fillStyle = st.fill;
  ctx.fill();
  ctx.lineJoin = "round";
  stroke(ctx, st.color, st.square_width);
  const c = h.corners, [k, side] = h.badge;
  const corner = (i) => [c[2 * ((i + 6) % 6)], c[2 * ((i + 6) % 6) + 1]];
  const [ax, ay] = corner(k);
  const along = (i, size) => {
    const [x, y] = corner(i), n = Math.hypot(x - ax, y - ay);
    return [(x - ax) * side * size / n, (y - ay) * side * size / n];
  };
  for (const [grade, flat] of v.cover) {
    const [size, face, edge] = st.badges[grade];
    const [a, b] = [along(k - 1, size), along(k + 1, size)];
    ctx.beginPath();
    for (let i = 0; i < flat.length; i += 2) {
      const [x, y] = hexCenter(h, flat[i], flat[i + 1]);
      ctx.moveTo(x + ax, y + ay); ctx.lineTo(x + ax + a[0], y + ay + a[1]);
      ctx.lineTo(x + ax + a[0] + b[0], y + ay + a[1] + b[1]); ctx.lineTo(x + ax + b[0], y + ay + b[1]); ctx.closePath();
    }
    ctx.fillStyle = face;
    ctx.fill();
    stroke(ctx, edge, st.badge_width);
  }
}

function drawSquares(ctx, board, v) {
  const st = board.style;
  fillRuns(ctx, v.runs, st.fill);
  // Each square outlined, as Foundry highlights a template; runs alone where squares are a few pixels.
  const each = ctx.getTransform().a >= 4;
  ctx.beginPath();
  eachRun(v.runs, (x, y, n) => {
    if (!each) ctx.rect(x, y, n, 1);
    else for (let i = 0; i < n; i++) ctx.rect(x + i, y, 1, 1);
  });
  stroke(ctx, st.color, st.square_width);
  if (v.blocked.length) { fillRuns(ctx, v.blocked, st.blocked); fillRuns(ctx, v.blocked, dots(ctx)); }
  for (const [grade, flat] of v.cover) {
    const [size, face, edge] = st.badges[grade];
    ctx.beginPath();
    for (let i = 0; i < flat.length; i += 2) {
      const [x, y] = [flat[i] + 1, flat[i + 1]];
      ctx.moveTo(x - size, y); ctx.lineTo(x, y); ctx.lineTo(x, y + size); ctx.closePath();
    }
    ctx.fillStyle = face;
    ctx.fill();
    stroke(ctx, edge, st.badge_width);
  }
}

// The scores under the area; the best placement and the caster over it (marks).
function drawScores(ctx, marks, s, board) {
  clear(ctx);
  clear(marks);
  if (!s.index) return;
  const index = decode(s.index);
  if (s.lattice) {
    const [step, half, cols, off = 0] = s.lattice;
    const at = (k) => [(k % cols) * step + off, Math.floor(k / cols) * step + off];
    // What cannot be chosen is dimmed, a whole cell round each point, under the scores.
    ctx.fillStyle = s.none;
    index.forEach((c, k) => { if (c === NO_SCORE) { const [x, y] = at(k); ctx.fillRect(x - step / 2, y - step / 2, step, step); } });
    ctx.beginPath();
    index.forEach((c, k) => {
      if (c >= NO_SCORE) return;
      const [x, y] = at(k);
      ctx.fillStyle = s.palette[c];
      ctx.fillRect(x - half, y - half, 2 * half, 2 * half);
      ctx.rect(x - half, y - half, 2 * half, 2 * half);
    });
    if (s.edge) stroke(ctx, ...s.edge);
  } else if (s.hexpoints) {
    // Seven slots a hex, row by row: its six corners, then its centre.
    const h = board.hex, r = s.hexpoints;
    const at = (k) => {
      const cell = Math.floor(k / 7), slot = k % 7;
      const [x, y] = hexCenter(h, cell % h.cols, Math.floor(cell / h.cols));
      return slot === 6 ? [x, y] : [x + h.corners[2 * slot], y + h.corners[2 * slot + 1]];
    };
    const disc = (path, [x, y], radius) => { path.moveTo(x + radius, y); path.arc(x, y, radius, 0, 2 * Math.PI); };
    // What cannot be chosen is dimmed, unedged.
    const none = new Path2D(), edges = new Path2D();
    index.forEach((c, k) => { if (c === NO_SCORE) disc(none, at(k), r); });
    ctx.fillStyle = s.none;
    ctx.fill(none);
    index.forEach((c, k) => {
      if (c >= NO_SCORE) return;
      const point = new Path2D();
      disc(point, at(k), r);
      ctx.fillStyle = s.palette[c];
      ctx.fill(point);
      disc(edges, at(k), r);
    });
    ctx.lineWidth = s.edge[1];
    ctx.strokeStyle = s.edge[0];
    ctx.setLineDash([]);
    ctx.stroke(edges);
  } else {
    const [cx, cy, r, step] = s.wedges;
    // Wedges of one colour filled as one shape: neighbours filled apart leave hairline seams.
    const shapes = new Map();
    index.forEach((c, k) => {
      if (!shapes.has(c)) shapes.set(c, new Path2D());
      const wedge = shapes.get(c);
      wedge.moveTo(cx, cy);
      wedge.arc(cx, cy, r, (k - 0.5) * step * Math.PI / 180, (k + 0.5) * step * Math.PI / 180);
      wedge.closePath();
    });
    for (const [c, wedge] of shapes) { ctx.fillStyle = c === NO_SCORE ? s.none : s.palette[c]; ctx.fill(wedge); }
  }
  if (s.best) {
    segments(marks, s.best.edges);
    marks.lineCap = "round";
    stroke(marks, s.best.color, s.best.width);
    if (s.best.at.length === 4) box(marks, s.best.at, s.best.color, s.best.width);
    else if (s.best.at.length === 2) cross(marks, s.best.at, s.best.mark, s.best.color, s.best.mark_edge);
  }
  if (s.caster) box(marks, ...s.caster);
  if (s.caster_edges) {
    const [flat, color, width, dash] = s.caster_edges;
    segments(marks, flat);
    marks.lineCap = "round";
    stroke(marks, color, width, dash);
  }
  // After a move: the path walked, centre to centre, haloed, and the square stood on.
  if (s.path) {
    const [color, width, points, stand] = s.path;
    marks.beginPath();
    for (let i = 0; i < points.length; i += 2) marks.lineTo(points[i], points[i + 1]);
    marks.lineCap = marks.lineJoin = "round";
    stroke(marks, "#ffffff", 1.8 * width);
    stroke(marks, color, width);
    box(marks, stand, color, 1.2 * width);
  }
}

function render({ model, el }) {
  const root = make("div", "aoegrid-explorer", el);
  const bar = make("div", "aoegrid-controls", root);
  const shape = labelled("shape", make("select", "aoegrid-shape"), bar);
  const size = labelled("size", make("input", "aoegrid-size"), bar);
  size.type = "number"; size.min = "0.5"; size.step = "5";
  const unit = make("span", "aoegrid-unit", size.parentNode);
  const dialBox = make("label", "aoegrid-field", bar);
  dialBox.append("direction");
  const dial = make("input", "aoegrid-dial", dialBox);
  dial.type = "range"; dial.min = "0"; dial.max = "359"; dial.step = "1";
  const degrees = make("span", "aoegrid-degrees", dialBox);
  const preset = labelled("rules", make("select", "aoegrid-preset"), bar);
  const mode = labelled("mode", make("select", "aoegrid-mode"), bar);
  const scoresBox = make("label", "aoegrid-field", bar);
  const scores = make("input", "aoegrid-scores", scoresBox);
  scores.type = "checkbox";
  scoresBox.append("score map");

  const body = make("div", "aoegrid-body", root);
  const board = make("div", "aoegrid-board", body);
  const base = make("canvas", "aoegrid-map", board);
  const heat = make("canvas", "aoegrid-scoremap aoegrid-layer", board);
  const squares = make("canvas", "aoegrid-area aoegrid-layer", board);
  const marks = make("canvas", "aoegrid-marks aoegrid-layer", board);
  const top = make("canvas", "aoegrid-top aoegrid-layer", board);
  const aim = document.createElementNS(SVG, "svg");
  aim.setAttribute("class", "aoegrid-aim aoegrid-layer");
  const ray = document.createElementNS(SVG, "line");
  aim.appendChild(ray);
  board.appendChild(aim);
  const summary = make("div", "aoegrid-summary", body);

  const aimed = () => ["cone", "line", "cube"].includes(model.get("shape_kind"));
  let layers = null, turning = false;

  function drawBoard() {
    const b = model.get("board");
    const [w, h] = b.size;
    base.style.width = `${w * b.scale}px`;
    aim.setAttribute("viewBox", `0 0 ${w} ${h}`);
    layers = { base: fit(base, b), heat: fit(heat, b), squares: fit(squares, b), marks: fit(marks, b), top: fit(top, b) };
    drawBase(layers.base, b, null);
    if (b.image) {
      const img = new Image();
      img.onload = () => { if (model.get("board") === b) drawBase(layers.base, b, img); };
      img.src = b.image;
    }
    drawScores(layers.heat, layers.marks, model.get("score_layer"), b);
    drawArea(layers.squares, layers.top, b, model.get("view"));
  }

  function controls() {
    options(shape, model.get("shape_kinds"), model.get("shape_kind"));
    options(preset, model.get("presets"), model.get("preset"));
    options(mode, model.get("modes"), model.get("mode"));
    size.value = model.get("size");
    unit.textContent = model.get("unit");
    // While the dial is held, the answers trailing it must not pull it back.
    if (!turning) {
      dial.value = Math.round(model.get("direction"));
      degrees.textContent = Math.round(model.get("direction")) + "\u00b0";
    }
    dialBox.style.display = aimed() ? "" : "none";
    scores.checked = model.get("show_scores");
    scores.disabled = !model.get("can_score");
    scoresBox.title = model.get("can_score") ? "" : "give explore() a caster to see scores";
  }
  const handlers = [
    ["change:board", drawBoard],
    ["change:view", () => drawArea(layers.squares, layers.top, model.get("board"), model.get("view"))],
    ["change:score_layer", () => drawScores(layers.heat, layers.marks, model.get("score_layer"), model.get("board"))],
    ["change:summary", () => { summary.innerHTML = model.get("summary"); }],
    ["change:answered", answered],
    ...["shape_kinds", "shape_kind", "presets", "preset", "modes", "mode", "size", "unit", "direction",
        "show_scores", "can_score"].map((name) => [`change:${name}`, controls]),
  ];

  function set(name, value) { model.set(name, value); model.save_changes(); }
  shape.addEventListener("change", () => set("shape_kind", shape.value));
  preset.addEventListener("change", () => set("preset", preset.value));
  mode.addEventListener("change", () => set("mode", mode.value));
  scores.addEventListener("change", () => set("show_scores", scores.checked));
  size.addEventListener("change", () => {
    const v = parseFloat(size.value);
    if (Number.isFinite(v) && v > 0) set("size", v); else size.value = model.get("size");
  });

  // One request in flight: what comes while it is out waits, the latest replacing the rest.
  const me = Math.random().toString(36).slice(2);
  let sent = 0, inflight = null, pending = null;
  function request(msg) {
    if (inflight && performance.now() - inflight.t < STALE) { pending = msg; return; }
    pending = null;
    inflight = { id: `${me}:${++sent}`, t: performance.now() };
    model.send({ ...msg, id: inflight.id });
  }
  function answered() {
    if (!inflight || model.get("answered") !== inflight.id) return;
    inflight = null;
    if (pending) request(pending);
  }
  dial.addEventListener("pointerdown", () => { turning = true; });
  dial.addEventListener("change", () => { turning = false; });
  dial.addEventListener("input", () => {
    degrees.textContent = dial.value + "\u00b0";
    request({ event: "turn", direction: parseFloat(dial.value) });
  });

  // Pointer positions in grid units: the layers span the grid exactly.
  function at(event) {
    const r = base.getBoundingClientRect();
    const [w, h] = model.get("board").size;
    const x = Math.min(Math.max((event.clientX - r.left) / r.width * w, 0), w);
    const y = Math.min(Math.max((event.clientY - r.top) / r.height * h, 0), h);
    return [x, y];
  }

  let down = null;
  function moved(e) {
    const p = at(e);
    if (!down.aiming) return request({ event: "click", x: p[0], y: p[1] });
    const [ox, oy] = model.get("origin");
    for (const [k, v] of [["x1", ox], ["y1", oy], ["x2", p[0]], ["y2", p[1]]]) ray.setAttribute(k, v);
    ray.style.display = "";
    request({ event: "aim", x: p[0], y: p[1] });
  }
  board.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    down = { x: e.clientX, y: e.clientY, dragging: false, aiming: aimed() };
    board.setPointerCapture(e.pointerId);
    e.preventDefault();
  });
  board.addEventListener("pointermove", (e) => {
    if (!down) return;
    if (!down.dragging && Math.hypot(e.clientX - down.x, e.clientY - down.y) < SLOP) return;
    down.dragging = true;
    moved(e);
  });
  board.addEventListener("pointerup", (e) => {
    if (!down) return;
    // The release is a drag's last step, or a click.
    if (!down.dragging) down.aiming = false;
    moved(e);
    down = null;
    ray.style.display = "none";
  });
  board.addEventListener("pointercancel", () => { down = null; ray.style.display = "none"; });

  ray.style.display = "none";
  drawBoard();
  controls();
  summary.innerHTML = model.get("summary");
  for (const [name, fn] of handlers) model.on(name, fn);
  return () => { for (const [name, fn] of handlers) model.off(name, fn); };
}

export default { render };
"""

_CSS = """
.aoegrid-explorer { font: 13px/1.4 system-ui, sans-serif; color: #222; }
.aoegrid-controls { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; margin-bottom: 6px; }
.aoegrid-field { display: inline-flex; align-items: center; gap: 5px; white-space: nowrap; }
.aoegrid-size { width: 5em; }
.aoegrid-dial { width: 9em; }
.aoegrid-body { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
.aoegrid-board { position: relative; display: inline-block; cursor: crosshair; touch-action: none;
                 line-height: 0; user-select: none; max-width: 100%; }
.aoegrid-map { display: block; max-width: 100%; height: auto; }
.aoegrid-layer { position: absolute; left: 0; top: 0; width: 100%; height: 100%; pointer-events: none; }
.aoegrid-aim line { stroke: #d62728; stroke-width: 0.12; stroke-dasharray: 0.3 0.2; }
.aoegrid-summary { min-width: 14em; max-width: 24em; }
.aoegrid-count { font-size: 18px; font-weight: 600; }
.aoegrid-creatures { margin: 4px 0; padding-left: 1.4em; }
.aoegrid-error { color: #b00020; }
.aoegrid-best { margin-top: 6px; color: #005f8f; }
.aoegrid-note { margin-top: 6px; color: #7a5b00; font-size: 12px; }
.aoegrid-key { margin-top: 6px; color: #555; font-size: 12px; display: flex; flex-wrap: wrap; gap: 2px 10px; }
.aoegrid-key > span { display: inline-flex; align-items: center; gap: 4px; }
.aoegrid-swatch { width: 12px; height: 12px; }
"""


def explore(
    on: Grid | BattleMapCore,
    shape: Shape = DEFAULT_SHAPE,
    rules: Rules | str = "starfinder",
    caster: Token | Space | tuple[float, float] | None = None,
    *,
    mode: Mode | str = "burst",
    at: tuple[float, float] | None = None,
    hit: Selector = frozenset({"enemy"}),
    avoid: Selector = frozenset({"ally"}),
    range: Range | float | None = None,
    move: float | None = None,
    scale: float | None = None,
) -> Explorer:
    """A widget to place an area on a map by clicking, and see what it covers.

    Parameters
    ----------
    on : BattleMap, Grid or HexGrid
        The map (its walls cut the areas, its tokens are the creatures
        listed), or a bare grid. On hexes ``move`` is not used (the widget
        notes it).
    shape : Sphere, Cylinder, Cone, Line or Cube
        The effect to start with; the controls change its kind and size, the
        dial and drags its direction (other fields, such as a line's width,
        are kept while the kind stays the same).
    rules : str or Rules
        The preset (or :class:`Rules`) to start with.
    caster : Token, Space or (x, y), optional
        Who casts: passed to :func:`aoegrid.area` for shapes placed at a
        point, which then checks each placement (a refused one says why) and
        moves 5e's hidden origins to the near side of their wall; needed for
        the score map. On a hex map a Token or a hex ``(col, row)``. Cones and lines are drawn where clicked, unchecked
        (:func:`aoegrid.area` would start them at the caster; the score map
        aims them from it).
    mode : str
        ``"burst"``, ``"emanation"`` or ``"spread"``.
    at : (x, y), optional
        The first point of origin (default: the middle of the map), snapped
        as a click is.
    hit, avoid : set of str, str, callable or tokens
        What the score map counts: creatures to reach, and creatures no
        placement may reach (as :func:`aoegrid.placement_scores` takes them;
        by default tags ``"enemy"`` and ``"ally"``).
    range : Range or float, optional
        How far from the caster the point of origin may be, placed by a
        click or on the score map (not for cones and lines: they start at
        their caster).
    move : float, optional
        How far the caster (a Token) may move before it casts, in the grid's
        unit, for the score map: its scores and best placement are
        :func:`aoegrid.placement_scores` and :func:`aoegrid.best_placements`
        with ``move=``, and the best one's path and the square it stands on
        are drawn. A click is still checked from where the caster stands.
    scale : float, optional
        Pixels a square on the page (default: what makes the map about 768
        pixels across, between 4 and 32). The map's own image is sent once,
        shrunk to that size.

    Returns
    -------
    Explorer
        Display it in a notebook (the last expression of a cell). Its state
        (:attr:`Explorer.origin`, :attr:`~Explorer.shape`,
        :attr:`~Explorer.rules`, :attr:`~Explorer.mode`, and the current
        :attr:`~Explorer.area`) can be read and set from Python.

    Raises
    ------
    InvalidTypeError
        ``on`` neither a BattleMap nor a Grid; a shape the controls cannot
        place (a :class:`~aoegrid.geometry.shapes.Shapable`).
    InvalidValueError
        An unknown preset or mode; ``at`` off the map.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(12, 8), tokens=[ag.Token(4, 3, name="orc")])
    >>> w = ag.explore(m, ag.Cone(15), rules="pf2e", at=(3, 3))
    >>> w.shape = w.shape.replace(direction="E")     # as dragging toward the east does
    >>> [(r.token.name, r.cover_name) for r in w.area.tokens()]
    [('orc', 'none')]
    >>> "orc: no cover" in w.summary and "8 squares" in w.summary
    True
    """
    return Explorer(on, shape, rules, caster, mode=mode, at=at, hit=hit, avoid=avoid, range=range, move=move,
                    scale=scale)


class Explorer(anywidget.AnyWidget):
    """The widget :func:`explore` returns; see it for the parameters.

    Attributes
    ----------
    origin : (float, float)
        The point of origin, in grid units. Setting it places the effect as a
        click there does: snapped to the nearest intersection when the
        preset's origins must be intersections (``Rules.origin``), else to the
        nearest intersection or square centre, the points the score map
        searches (a tie goes to the intersection). On a hex map, in its map
        coordinates: the nearest hex corner when ``Rules.hex_origin`` is
        ``"intersection"``, else the point itself.
    shape : Shape
        The effect placed. Its kind, size and direction are also the traits
        ``shape_kind``, ``size`` and ``direction`` the controls set.
    rules : Rules
        Set a preset name or a :class:`Rules`; ``preset`` is its name.
    mode : str
        ``"burst"``, ``"emanation"`` or ``"spread"``.
    show_scores : bool
        Shade the score map and outline the best placement (needs a caster).
    move : float or None
        How far the caster moves before it casts, for the score map (see
        :func:`explore`); None: it casts from where it stands.
    area : Area, HexArea or None
        The area now shown, exactly ``ag.area(shape, at=origin, on=map,
        rules=rules, mode=mode, caster=caster, range=range)`` (for a cone or
        line, without caster and range: drawn where clicked); None when the
        rules refuse the placement (:attr:`error` says why).
    summary : str
        The HTML shown beside the map: the square count, the creatures
        reached with their cover, the best placement, a key to the marks.
    board, view, score_layer : dict
        What the browser draws, in grid units: the map (sent once), the area
        now shown, the score map (empty when hidden). See the module's
        documentation.
    """

    _esm = _ESM
    _css = _CSS

    origin = traitlets.Any().tag(sync=True)
    shape_kind = traitlets.Unicode().tag(sync=True)
    size = traitlets.Any().tag(sync=True)
    direction = traitlets.Any(0.0).tag(sync=True)
    preset = traitlets.Unicode().tag(sync=True)
    mode = traitlets.Unicode("burst").tag(sync=True)
    show_scores = traitlets.Bool(False).tag(sync=True)
    move = traitlets.Any(None).tag(sync=True)
    # What the front end shows, offers and draws; set here only.
    can_score = traitlets.Bool(False).tag(sync=True)
    shape_kinds = traitlets.List(list(SIZE_FIELDS)).tag(sync=True)
    presets = traitlets.List(traitlets.Unicode()).tag(sync=True)
    modes = traitlets.List([m.value for m in Mode]).tag(sync=True)
    unit = traitlets.Unicode().tag(sync=True)
    board = traitlets.Dict().tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    score_layer = traitlets.Dict().tag(sync=True)
    summary = traitlets.Unicode().tag(sync=True)
    # The id of the last request from the front end answered: it may send the next.
    answered = traitlets.Unicode().tag(sync=True)

    def __init__(
        self,
        on: Grid | HexGrid | BattleMapCore,
        shape: Shape = DEFAULT_SHAPE,
        rules: Rules | str = "starfinder",
        caster: Token | Space | tuple[float, float] | None = None,
        *,
        mode: Mode | str = "burst",
        at: tuple[float, float] | None = None,
        hit: Selector = frozenset({"enemy"}),
        avoid: Selector = frozenset({"ally"}),
        range: Range | float | None = None,
        move: float | None = None,
        scale: float | None = None,
    ) -> None:
        if isinstance(on, (Grid, HexGrid)):
            on = BattleMap(on)
        if not isinstance(on, BattleMapCore) or not isinstance(on.grid, (Grid, HexGrid)):
            raise InvalidTypeError(f"explore needs an aoegrid.BattleMap, Grid or HexGrid to draw on, got {on!r}")
        g = on.grid
        self._map = on
        self._hex = isinstance(g, HexGrid)
        self._caster = caster
        self._hit, self._avoid, self._range = hit, avoid, range
        self._shape = _placeable(shape)
        self._rules = resolve_rules(rules)
        self._area: Area | HexArea | None = None
        self._error: str | None = None
        # What the score map was worked out for, and what it found: scores, best, why it failed, the layer drawn.
        self._scored: tuple[Any, np.ndarray | None, Placement | HexPlacement | None, str | None,
                            dict[str, Any]] | None = None
        self._tokens = list(on.tokens)
        self._token_index = {id(t): i for i, t in enumerate(self._tokens)}
        # Each creature's box: its space on squares; on hexes, the first and last column and row of its hexes.
        boxes = ([_hex_box(hex_footprint(g, t)) for t in self._tokens] if self._hex
                 else [t.space.bounds for t in self._tokens])
        self._token_boxes = np.array(boxes, dtype=np.float64).reshape(-1, 4)
        # Observers wait until everything is set, then the first view is worked out once.
        self._held = True
        extent = g.extent
        super().__init__(
            shape_kind=self._shape.name,
            size=_size_of(self._shape),
            direction=float(getattr(self._shape, "direction", 0.0)),
            preset=self._rules.name,
            mode=parse_option(Mode, mode, "mode").value,
            origin=(extent[0] / 2, extent[1] / 2) if at is None else at,
            unit=g.units,
            can_score=caster is not None,
            move=move,
            board=_board(on, _scale(scale, extent)),
        )
        self.on_msg(self._on_message)
        self._held = False
        self._refresh()

    # --- state readable and settable from Python -----------------------------

    @property
    def shape(self) -> Shape:
        """The effect placed (setting it updates the controls)."""
        return self._shape

    @shape.setter
    def shape(self, value: Shape) -> None:
        shape = _placeable(value)
        with self._batch():
            self._shape = shape
            self.shape_kind = shape.name
            self.size = _size_of(shape)
            if shape.name in AIMED:
                self.direction = float(shape.direction)  # type: ignore[union-attr]

    @property
    def rules(self) -> Rules:
        """The rules in force (setting a name or a Rules updates the controls)."""
        return self._rules

    @rules.setter
    def rules(self, value: Rules | str) -> None:
        rules = resolve_rules(value)
        with self._batch():
            self._rules = rules
            self.preset = rules.name
            self.origin = self.origin  # snapped again, for the new rules' origins

    @property
    def area(self) -> Area | HexArea | None:
        """The area now shown, or None when the rules refuse the placement."""
        return self._area

    @property
    def error(self) -> str | None:
        """Why the current placement is refused, or None."""
        return self._error

    @property
    def scores(self) -> np.ndarray | None:
        """The score map shown (as :func:`aoegrid.placement_scores` gives it), or None."""
        return self._scored[1] if self.show_scores and self._scored else None

    @property
    def best(self) -> Placement | HexPlacement | None:
        """The best placement outlined on the score map, or None."""
        return self._scored[2] if self.show_scores and self._scored else None

    # --- validation: what the controls and Python may set --------------------

    @traitlets.validate("origin")
    def _valid_origin(self, proposal: dict[str, Any]) -> tuple[float, float]:
        value = proposal["value"]
        try:
            x, y = (float(v) for v in value)
        except (TypeError, ValueError):
            raise InvalidTypeError(f"origin must be a point (x, y) in grid units, got {value!r}") from None
        g = self._map.grid
        if isinstance(g, HexGrid):
            return _hex_origin(g, self._rules, x, y, value)
        if not (0 <= x <= g.width and 0 <= y <= g.height):
            raise OffGridError(f"origin {value!r} is off the {g.width} x {g.height} map")
        # Halves round up, the same way everywhere (round() would go to even).
        corner = (float(math.floor(x + 0.5)), float(math.floor(y + 0.5)))
        if self._rules.origin is OriginPoint.INTERSECTION:
            return corner
        centre = (min(math.floor(x), g.width - 1) + 0.5, min(math.floor(y), g.height - 1) + 0.5)
        # min() keeps the first of equals: a tie goes to the intersection.
        return min((corner, centre), key=lambda p: math.hypot(p[0] - x, p[1] - y))

    @traitlets.validate("shape_kind")
    def _valid_kind(self, proposal: dict[str, Any]) -> str:
        kind = proposal["value"]
        if kind not in SIZE_FIELDS:
            raise InvalidValueError(f"unknown shape {kind!r}; the explorer places {', '.join(SIZE_FIELDS)}")
        return str(kind)

    @traitlets.validate("size")
    def _valid_size(self, proposal: dict[str, Any]) -> float:
        self._resized(proposal["value"])  # the shape's own check, naming the field
        return float(proposal["value"])

    @traitlets.validate("direction")
    def _valid_direction(self, proposal: dict[str, Any]) -> float:
        return parse_direction(proposal["value"])

    @traitlets.validate("preset")
    def _valid_preset(self, proposal: dict[str, Any]) -> str:
        name = proposal["value"]
        return name if name in self._choices else resolve_rules(name).name

    @traitlets.validate("mode")
    def _valid_mode(self, proposal: dict[str, Any]) -> str:
        return parse_option(Mode, proposal["value"], "mode").value

    @traitlets.validate("move")
    def _valid_move(self, proposal: dict[str, Any]) -> float | None:
        value = proposal["value"]
        if value is None:
            return None
        if not isinstance(self._caster, Token):
            raise InvalidValueError(
                f"move moves the caster before it casts: give explore(..., caster=) a Token, got {self._caster!r}")
        return non_negative(value, "move")

    @traitlets.validate("show_scores")
    def _valid_show_scores(self, proposal: dict[str, Any]) -> bool:
        if proposal["value"] and self._caster is None:
            raise InvalidValueError("the score map needs a caster: explore(..., caster=token)")
        return bool(proposal["value"])

    # --- changes ---------------------------------------------------------------

    @traitlets.observe("shape_kind", "size", "direction", "preset", "origin", "mode", "show_scores", "move")
    def _changed(self, change: dict[str, Any]) -> None:
        name, new = change["name"], change["new"]
        if name == "shape_kind" and new != self._shape.name:
            self._shape = _default_shape(new, _size_of(self._shape), float(self.direction), self._shape.units)
        elif name == "size":
            self._shape = self._resized(new)
        elif name == "direction" and self._shape.name in AIMED:
            self._shape = self._shape.replace(direction=new)
        elif name == "preset" and new != self._rules.name:
            self._rules = self._choices.get(new) or resolve_rules(new)
            with self._batch(redraw=False):
                self.origin = self.origin  # snapped again, for the new rules' origins
        if not self._held:
            self._refresh()

    def _on_message(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        """A request from the front end: a click or a drag's step places the origin, or aims; then it is answered.

        The answer (``answered``, the request's id) goes out with the new
        view, in one message, even when nothing changed: the front end sends
        its next request only then.
        """
        with self.hold_sync():
            try:
                event = content.get("event")
                if event == "click":
                    self.origin = (content["x"], content["y"])
                elif event == "aim" and self._shape.name in AIMED:
                    ox, oy = self.origin
                    dx, dy = content["x"] - ox, content["y"] - oy
                    if dx or dy:  # the pointer on the origin points nowhere
                        # Whole degrees, halves up, as the dial shows them.
                        self.direction = math.floor(math.degrees(math.atan2(dy, dx)) + 0.5) % 360
                elif event == "turn":
                    self.direction = content["direction"]
            finally:
                self.answered = str(content.get("id", ""))

    @contextmanager
    def _batch(self, redraw: bool = True) -> Iterator[None]:
        """Several changes, then one redraw (none with ``redraw=False``: the caller redraws)."""
        held, self._held = self._held, True
        try:
            yield
        finally:
            self._held = held
        if redraw and not held:
            self._refresh()

    def _shape_range(self, shape: Shape) -> Range | float | None:
        """The range for ``shape``: none for a cone or line, which starts at its caster (5e: "a range of self")."""
        return None if isinstance(shape, (Cone, Line)) else self._range

    def _resized(self, size: Any) -> Shape:
        return self._shape.replace(**{SIZE_FIELDS[self._shape.name]: size})

    @property
    def _choices(self) -> dict[str, Rules]:
        """The presets offered, the rules set from Python (a variant of a preset) under its name."""
        return {**PRESETS, self._rules.name: self._rules}

    # --- what the browser draws ------------------------------------------------

    def _refresh(self) -> None:
        """Work out the area (and the score map), and send what changed in one message."""
        a: Area | HexArea | None
        try:
            point = not isinstance(self._shape, (Cone, Line))
            a = area(self._shape, self.origin, self._map, self._rules, self.mode,
                     caster=self._caster if point else None, range=self._shape_range(self._shape))
            reached = a.tokens(self._near(a)) if self._tokens else []
            self._area, self._error = a, None
        except AoegridError as e:
            a, reached, self._area, self._error = None, [], None, str(e)
        with self.hold_sync():
            self.presets = list(self._choices)
            best_html = ""
            if self.show_scores:
                best_html = self._show_score_map()
            else:
                self.score_layer = {}
            if a is None:
                self.view = {"refused": list(self.origin)}
            elif isinstance(a, HexArea):
                self.view = _hex_view(a, reached, self._token_index)
            else:
                self.view = _view(a, reached, self._token_index)
            self.summary = (self._summary(a, reached) + best_html + _key(self.view, self.board["style"])
                            + self._hex_note())

    def _near(self, a: Area | HexArea) -> list[Token]:
        """The creatures whose space meets the area's bounds: no other can be reached, and a big map has many.

        On hexes the bounds are of columns and rows, the area's and each creature's hexes'.
        """
        if isinstance(a, HexArea):
            rows, cols = np.nonzero(a.mask)
            b = _hex_box(list(zip(cols.tolist(), rows.tolist(), strict=True))) if cols.size else None
        else:
            b = a.bounds
        if b is None:
            return []
        t = self._token_boxes
        near = (t[:, 0] <= b[2]) & (t[:, 2] >= b[0]) & (t[:, 1] <= b[3]) & (t[:, 3] >= b[1])
        return [self._tokens[i] for i in np.flatnonzero(near)]

    def _show_score_map(self) -> str:
        """Work out the score map when what it depends on changed, send it, and say what it found."""
        key = self._score_key()
        if self._scored is None or self._scored[0] != key:
            shape, rules, mode, move = key
            try:
                rng = self._shape_range(shape)
                scores = placement_scores(shape, caster=self._caster, range=rng, on=self._map, rules=rules,
                                          mode=mode, hit=self._hit, avoid=self._avoid, move=move)
                found = best_placements(shape, caster=self._caster, range=rng, on=self._map, rules=rules,
                                        mode=mode, hit=self._hit, avoid=self._avoid, move=move)
                best = found[0] if found else None
                layer = _score_layer(scores, best, self._caster, self._map.grid, self.board["scale"])
                self._scored = (key, scores, best, None, layer)
            except AoegridError as e:
                self._scored = (key, None, None, str(e), {})
        _, scores, best, failed, layer = self._scored
        self.score_layer = layer  # the same dict again sends nothing
        return _best_html(scores, best, failed, layer)

    def _score_key(self) -> tuple[Shape, Rules, str, float | None]:
        """What the score map depends on: a cone's or line's own direction is not (it is searched)."""
        shape = self._shape.replace(direction=0.0) if isinstance(self._shape, (Cone, Line)) else self._shape
        # The hex search moves no caster (noted beside the map).
        return shape, self._rules, self.mode, None if self._hex else self.move

    def _hex_note(self) -> str:
        """On a hex map given ``move``, the note saying the score map does not use it."""
        if not self._hex or self.move is None:
            return ""
        return f'<div class="aoegrid-note">{html.escape(_HEX_NO_MOVE)}</div>'

    def _summary(self, a: Area | HexArea | None, reached: list[Reached]) -> str:
        x, y = self.origin
        what = (f"{self._rules.name} {self.mode}, {_describe(self._shape, self._map.grid.units)} "
                f"at ({x:g}, {y:g})")
        if a is None:
            return (f'<div class="aoegrid-count">refused</div><div class="aoegrid-what">{html.escape(what)}</div>'
                    f'<div class="aoegrid-error">{html.escape(self._error or "")}</div>')
        n = len(a)
        cells = ("hex", "hexes") if self._hex else ("square", "squares")
        out = (f'<div class="aoegrid-count">{n} {cells[n != 1]}</div>'
               f'<div class="aoegrid-what">{html.escape(what)}</div>')
        if not self._tokens:
            return out
        if not reached:
            return out + '<div class="aoegrid-creatures">no creature reached</div>'
        items = "".join(f"<li>{html.escape(_creature(r))}</li>" for r in reached)
        return out + f'<ol class="aoegrid-creatures">{items}</ol>'


#: What the explorer does not do on hex maps yet, as the widget says it.
_HEX_NO_MOVE = ("on a hex map, move= is not searched (square grids only): the score map is from where the caster "
                "stands")


def _hex_box(hexes: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    """The first and last column and row of ``hexes`` ``(col, row)``: ``(col0, row0, col1, row1)``."""
    cols, rows = zip(*hexes, strict=True)
    return min(cols), min(rows), max(cols), max(rows)


def _hex_origin(g: HexGrid, rules: Rules, x: float, y: float, value: Any) -> tuple[float, float]:
    """A click at ``(x, y)`` on a hex map as a point of origin: the nearest hex corner, or the point itself.

    Corners under rules whose origins are intersections (``Rules.hex_origin``),
    as :func:`aoegrid.hexarea.nearest_corner` finds them (the very floats
    :func:`aoegrid.area` snaps to); a click in a notch of the map's ragged edge,
    in no hex of the map, goes to the nearest corner of a hex on it.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g, sw5e = ag.HexGrid(4, 3), ag.PRESETS["sw5e"]
    >>> [round(v, 4) for v in _hex_origin(g, sw5e, 0.55, 0.02, None)]
    [0.5, 0.0]
    >>> [round(v, 4) for v in _hex_origin(g, sw5e, 0.1, 1.3, None)]   # left of shoved row 1: its hex's corner
    [0.5, 1.1547]
    >>> _hex_origin(g, ag.PRESETS["savage-worlds"], 0.1, 1.3, None)   # anywhere
    (0.1, 1.3)
    """
    w, h = g.extent
    if not (0 <= x <= w and 0 <= y <= h):
        raise OffGridError(f"origin {value!r} is off the {g.width} x {g.height} hex map "
                           f"(0..{w:.4g} x 0..{h:.4g} in hex widths)")
    if rules.hex_origin is not OriginPoint.INTERSECTION:
        return x, y
    col, row = g.hex_at(x, y)
    if g.contains(col, row):
        return nearest_corner(g, (x, y))
    on = np.array(g.neighbours(col, row))
    corners = g.corners(on[:, 0], on[:, 1]).reshape(-1, 2)
    k = int(np.argmin(np.hypot(corners[:, 0] - x, corners[:, 1] - y)))
    return float(corners[k, 0]), float(corners[k, 1])


#: The longest side of the map on the page, in pixels: about what browsers still draw.
MAX_PIXELS = 16384
#: matplotlib's dash patterns, in line widths (its ``lines.*_pattern``, scaled by the width as it scales them).
_DASHES = {"solid": None, "dashed": [3.7, 1.6], "dotted": [1.0, 1.65], "dashdot": [6.4, 1.6, 1.0, 1.6]}
#: A score's palette index that is no colour: a lattice point not searched, a point with no score.
_NOT_SEARCHED, _NO_SCORE_INDEX = 255, 254
#: Colours a continuous score scale is cut into (whole-number scores get one each).
_LEVELS = 250
#: The score map's colour map and opacity, as :func:`aoegrid.show.plotting.plot_scores` draws it by default.
_SCORE_CMAP, _SCORE_ALPHA = "YlOrRd", 0.85


def _scale(scale: float | None, extent: tuple[float, float]) -> float:
    """Pixels a map unit (a square, a hex's width): ``scale``, or what makes the map about 768 pixels across (4 to 32).

    ``extent`` is the map's width and height in map units.
    """
    w, h = extent
    if scale is None:
        return min(32.0, max(4.0, 768.0 / max(w, h)))
    out = positive(scale, "scale")
    if out * max(w, h) > MAX_PIXELS:
        raise InvalidValueError(
            f"scale {scale!r} makes the {w:g} x {h:g} map wider than {MAX_PIXELS} pixels on the page; "
            f"give at most {MAX_PIXELS / max(w, h):g}"
        )
    return out


def _rgba(color: str, alpha: float) -> str:
    """A ``#rrggbb`` colour with an opacity, as CSS reads it."""
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, {alpha:g})"


def _board(bmap: BattleMapCore, scale: float) -> dict[str, Any]:
    """What the browser draws once: the map's image, grid and walls, the creatures, and the styles of the marks.

    Lengths are in squares (on a hex map, hex widths: its map coordinates):
    line widths and type sizes are :mod:`aoegrid.show.plotting`'s at ``scale``
    pixels a square (100 pixels an inch, 72 points), so the page looks as
    :func:`aoegrid.show.plotting.plot_area` draws. On a hex map, ``hex`` says
    where the hexes are (:func:`_hex_layout`) and a creature is a disc on
    its footprint's centre, as :func:`aoegrid.show.hexplot.plot_hex_tokens` draws it.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(4, 3), [ag.Wall((2, 0), (2, 3))], [ag.Token(0, 0, name="Mog")])
    >>> b = _board(m, 24)
    >>> b["size"], b["image"], b["walls"][0][0], b["walls"][0][3], b["tokens"][0][:4]
    ([4, 3], '', '#000000', [2.0, 0.0, 2.0, 3.0], [0.5, 0.5, 0.4, 'Mog'])
    """
    g = bmap.grid
    hexes = isinstance(g, HexGrid)
    u = 0.72 * scale  # points a square

    def width(points: float) -> float:
        return _lw(u, points) / u

    walls = [[color, _DASHES[dash], width(w), np.asarray(segs, dtype=np.float64).round(4).ravel().tolist()]
             for kind, segs in _wall_segments(bmap).items() for color, dash, w in [WALL_STYLES[kind]]]
    tokens = []
    for t in bmap.tokens:
        w, h = t.footprint
        cx, cy = g.footprint_center(t.x, t.y, w) if hexes else t.space.center
        name, size = _fit_name(t.name, 2.2 * w * u, _font(u) * min(1.0, max(w, 1) ** 0.5)) if t.name else ("", 0.0)
        tokens.append([cx, cy, 0.4 * min(w, h), name, size / u])
    color = AREA_COLORS[0]
    style = {
        "color": color, "fill": _rgba(color, 0.3), "square_width": width(1.2), "shape_width": width(1.5),
        "mark": 0.55, "mark_edge": width(1.0), "refused": "#7f7f7f", "blocked": _rgba("#7f7f7f", 0.25),
        "badges": {int(grade): [size, face, edge] for grade, (_, size, face, edge) in COVER_BADGES.items()},
        "badge_width": width(0.8), "token": ["#f5deb3", "#333333", width(1.0)], "hit": ["#d62728", width(3.0)],
        "halo": width(2.0), "token_badges": {1: "\u00bd", 2: "\u00be"}, "badge_font": max(5.0, _font(u) * 0.9) / u,
    }
    size = list(g.extent) if hexes else [g.width, g.height]
    w_px, h_px = max(1, round(size[0] * scale)), max(1, round(size[1] * scale))
    out = {"size": size, "scale": scale, "image": _image_url(bmap, w_px, h_px),
           "grid": ["#bbbbbb", width(0.5)], "walls": walls, "tokens": tokens, "style": style}
    if hexes:
        out["hex"] = _hex_layout(g)
    return out


def _hex_layout(g: HexGrid) -> dict[str, Any]:
    """What the browser needs to place hex ``(col, row)`` as :meth:`HexGrid.center` and :meth:`~HexGrid.corners` do.

    ``first`` is hex ``(0, 0)``'s centre; rows (pointy-top) or columns
    (flat-top) are ``spacing`` apart, and those of parity ``shoved`` sit half
    a hex further right (down) than the others; ``corners`` are the six
    corners' offsets from a centre, clockwise, flat; ``badge`` the corner a
    cover badge sits in (the upper right) and its sides' share of a square's
    badge, as :func:`aoegrid.show.hexplot.plot_hex_area` draws it.

    Examples
    --------
    >>> h = _hex_layout(HexGrid(4, 3))
    >>> h["cols"], h["rows"], h["pointy"], h["shoved"], [round(v, 4) for v in h["first"]], h["badge"]
    (4, 3, True, 1, [0.5, 0.5774], [1, 0.75])
    """
    pointy = g.orientation == "pointy"
    x0, y0 = g.center(0, 0)
    return {"cols": g.width, "rows": g.height, "pointy": pointy, "shoved": 1 if g.offset == "odd" else 0,
            "first": [x0, y0], "spacing": ROW_SPACING, "corners": (g.corners(0, 0) - (x0, y0)).ravel().tolist(),
            "badge": [1 if pointy else 5, _BADGE_SIDE]}


def _image_url(bmap: BattleMapCore, width_px: int, height_px: int) -> str:
    """The map file's own image at ``width_px`` x ``height_px``, as a data URL ('' when it has none).

    JPEG when opaque (a painted map: a fifth of PNG's bytes, encoded ten
    times faster; grid and walls are drawn over it by the browser, sharp),
    PNG when parts of it are see-through.
    """
    from PIL import Image

    pixels = _map_pixels(bmap, width_px, height_px)
    if pixels is None:
        return ""
    img = Image.fromarray(pixels)
    if img.size != (width_px, height_px):
        img = img.resize((width_px, height_px), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    if img.mode == "RGBA" and img.getextrema()[3][0] < 255:
        img.save(buf, format="PNG")
        kind = "png"
    else:
        img.convert("RGB").save(buf, format="JPEG", quality=85)
        kind = "jpeg"
    return f"data:image/{kind};base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _runs(mask: np.ndarray, x0: int, y0: int) -> list[int]:
    """The squares of ``mask`` (its corner at square ``(x0, y0)``) as runs along rows, flat.

    Each run is three numbers: its row, its first x, the x past its last.

    Examples
    --------
    >>> _runs(np.array([[0, 1, 1, 0, 1], [0, 0, 0, 0, 0], [1, 1, 1, 1, 1]], dtype=bool), 10, 20)
    [20, 11, 13, 20, 14, 15, 22, 10, 15]
    """
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    # Row by row, a run starts where the row steps up and ends where it steps down: they alternate.
    ys, xs = np.nonzero(np.diff(padded, axis=1))
    runs = np.column_stack([ys[0::2] + y0, xs[0::2] + x0, xs[1::2] + x0])
    return runs.ravel().tolist()


def _view(a: Area, reached: list[Reached], index: dict[int, int]) -> dict[str, Any]:
    """What the browser draws of an area: its squares, blocked squares, cover badges, outline, origin, creatures."""
    w = a.window
    window = (slice(w.y0, w.y0 + w.height), slice(w.x0, w.x0 + w.width))
    local = a.local
    cover = a.cover[window]
    badged = []
    for grade in COVER_BADGES:
        ys, xs = np.nonzero((cover == grade) & local)
        if xs.size:
            badged.append([int(grade), np.column_stack([xs + w.x0, ys + w.y0]).ravel().tolist()])
    shape = outline(a)
    assert isinstance(a.origin, tuple)  # the explorer places at points
    return {
        "origin": [float(v) for v in a.origin],
        "runs": _runs(local, w.x0, w.y0),
        # The shape's squares no line from the origin reaches, as plot_area hatches them.
        "blocked": _runs(a.shape_mask[window] & ~local, w.x0, w.y0),
        "cover": badged,
        "outline": [] if shape is None else shape.round(4).ravel().tolist(),
        "reached": [[index[id(r.token)], int(r.cover)] for r in reached],
    }


def _hex_view(a: HexArea, reached: list[Reached], index: dict[int, int]) -> dict[str, Any]:
    """What the browser draws of an area on hexes: as :func:`_view`, hexes as runs along rows of offset coordinates.

    ``hexes`` and ``blocked`` (the shape's hexes no line from the origin
    reaches) are runs as :func:`_runs` gives them, ``(row, first col, col
    past the last)``; ``cover`` lists ``(col, row)`` of each grade;
    ``outline`` is the exact shape's rings, each flat.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(6, 4)
    >>> v = _hex_view(ag.area(ag.Sphere(5), at=g.corners(2, 1)[3], on=g), [], {})
    >>> v["hexes"], v["blocked"], [round(x, 4) for x in v["origin"]]
    ([1, 2, 3, 2, 2, 4], [], [3.0, 2.0207])
    """
    badged = []
    for grade in COVER_BADGES:
        rows, cols = np.nonzero((a.cover == grade) & a.mask)
        if cols.size:
            badged.append([int(grade), np.column_stack([cols, rows]).ravel().tolist()])
    return {
        "origin": [float(v) for v in a.origin],
        "hexes": _runs(a.mask, 0, 0),
        # The visible fraction is worked out (not NaN) on the shape's hexes only.
        "blocked": _runs(~np.isnan(a.visible) & ~a.mask, 0, 0),
        "cover": badged,
        "outline": [ring[:-1].round(4).ravel().tolist() for ring in _rings(a.outline())],
        "reached": [[index[id(r.token)], int(r.cover)] for r in reached],
    }


def _score_layer(scores: np.ndarray, best: Placement | HexPlacement | None, caster: Any, g: Grid | HexGrid,
                 scale: float) -> dict[str, Any]:
    """The score map as the browser draws it: a palette index a lattice point (or direction), the best outlined.

    Colours are :func:`aoegrid.show.plotting.plot_scores`' (one a whole-number
    score when they are few whole numbers); the indices go as base64 bytes,
    a byte a point.

    Examples
    --------
    >>> import aoegrid as ag
    >>> s = _score_layer(np.array([[0.0, 1.0], [2.0, np.nan]]), None, (0, 0), ag.Grid(1, 1), 24)
    >>> s["lattice"], list(base64.b64decode(s["index"])), len(s["palette"])
    ([1.0, 0.3, 2], [0, 1, 2, 254], 3)
    """
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    values = np.asarray(scores, dtype=np.float64)
    finite = np.isfinite(values)
    norm, ticks = _score_norm(values)
    cmap = colormaps[_SCORE_CMAP]
    if ticks is not None:
        colors = cmap(norm(np.asarray(ticks)))
        index = np.where(finite, values - ticks[0], 0)
    else:
        colors = cmap(np.linspace(0.0, 1.0, _LEVELS))
        index = np.rint(np.clip(norm(np.where(finite, values, 0.0)), 0, 1) * (_LEVELS - 1))
    index = np.where(finite, index, _NO_SCORE_INDEX).astype(np.uint8)
    u = 0.72 * scale
    out: dict[str, Any] = {
        "palette": [_rgba(to_hex(rgba), _SCORE_ALPHA) for rgba in colors],
        "none": _rgba(_NO_SCORE, 0.55),
    }
    if isinstance(g, HexGrid):
        return _hex_scores(out, values, index, best, caster, g, u)
    assert not isinstance(best, HexPlacement)
    if values.ndim == 1:
        centre = _caster_space(caster).center
        out["wedges"] = [centre[0], centre[1], max(2.0, min(g.width, g.height) / 4), 360.0 / values.size]
    elif values.shape == (g.height + 1, g.width + 1):
        # Intersections: small squares, edged so neighbours stay apart.
        out["lattice"] = [1.0, 0.3, values.shape[1]]
        out["edge"] = [_rgba("#000000", _SCORE_ALPHA), 0.3 / u]
    elif values.shape == g.shape:
        # Squares (a cone's or line's best from each square its caster can move to): each filled.
        out["lattice"] = [1.0, 0.5, values.shape[1], 0.5]
    else:
        # The half-square lattice: its intersections and centres; the middles of square edges are no origin.
        ys, xs = np.indices(values.shape)
        index[(ys + xs) % 2 == 1] = _NOT_SEARCHED
        out["lattice"] = [0.5, 0.25, values.shape[1]]
    out["index"] = base64.b64encode(index.tobytes()).decode("ascii")
    if best is not None:
        at = best.at
        space = at if isinstance(at, Space) else getattr(at, "space", None)
        out["best"] = {"edges": np.asarray(_edges(best.area.mask), dtype=np.float64).ravel().tolist(),
                       "color": _BEST, "width": 2.5 / u, "mark": 0.65, "mark_edge": _lw(u, 1.0) / u,
                       "at": list(space.bounds) if isinstance(space, Space) else [float(v) for v in at]}
        if best.stand is not None:
            # The path through the centres of the caster's space, and that space where it stands, just inside.
            w, h = best.stand.footprint
            x0, y0, x1, y1 = best.stand.space.bounds
            out["path"] = [PATH_COLOR, _lw(u, 2.5) / u, [v for x, y in best.path for v in (x + w / 2, y + h / 2)],
                           [x0 + _STAND_INSET, y0 + _STAND_INSET, x1 - _STAND_INSET, y1 - _STAND_INSET]]
    out["caster"] = [list(_caster_space(caster).bounds), "#000000", 2.0 / u, _DASHES["dashed"]]
    return out


def _hex_scores(out: dict[str, Any], values: np.ndarray, index: np.ndarray, best: HexPlacement | Placement | None,
                caster: Any, g: HexGrid, u: float) -> dict[str, Any]:
    """The score map on a hex map: ``out`` (the palette) with where its points are and the best placement's marks.

    Points of origin are :func:`aoegrid.placement_scores`' ``(height, width,
    7)`` slots, ``[row, col, k]`` corner ``k`` of hex ``(col, row)`` and
    ``[row, col, 6]`` its centre, a byte each, each drawn as a disc
    ``hexpoints`` in radius (grey for no score); a corner the three hexes at
    it share is sent in the first of them only (255 in the others, so no
    disc is drawn three times over), and centres only when the rules search
    them. Cones and lines: wedges about the caster, as on squares.
    ``caster_edges``: the caster's hexes outlined, dashed; the best
    placement's hexes are outlined, as segments.

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.HexGrid(2, 1)
    >>> s = _hex_scores({}, np.zeros((1, 2, 7)), np.zeros((1, 2, 7), np.uint8), None, ag.Token(0, 0), g, 20)
    >>> index = np.frombuffer(base64.b64decode(s["index"]), np.uint8).reshape(1, 2, 7)
    >>> int((index[..., :6] != 255).sum()), index[0, :, 6].tolist()    # the 10 corners of two hexes; centres too here
    (10, [0, 0])
    """
    # The search took the caster: a Token, or a hex (col, row) standing for a one-hex creature.
    token = caster if isinstance(caster, Token) else Token(int(caster[0]), int(caster[1]))
    own = hex_footprint(g, token)
    if values.ndim == 1:
        centre = g.footprint_center(token.x, token.y, token.footprint[0])
        out["wedges"] = [centre[0], centre[1], max(2.0, min(g.extent) / 4), 360.0 / values.size]
    else:
        flat = index.reshape(-1, 7).copy()
        rows, cols = np.divmod(np.arange(flat.shape[0]), g.width)
        x, y = g.center(cols, rows)
        points = np.concatenate([g.corners(cols, rows), np.stack([x, y], axis=-1)[:, None, :]], axis=1)
        # A corner's three hexes give the same point to within float error: the first of them draws it.
        _, first = np.unique(np.round(points.reshape(-1, 2) * 1e6).astype(np.int64), axis=0, return_index=True)
        drawn = np.zeros(flat.size, dtype=bool)
        drawn[first] = True
        flat = np.where(drawn.reshape(flat.shape), flat, _NOT_SEARCHED)
        if np.isnan(values[..., 6]).all():  # the rules search corners only
            flat[:, 6] = _NOT_SEARCHED
        index = flat
        # Corners are a hex's side (0.58) apart: discs 0.4 across stay apart.
        out["hexpoints"] = 0.2
        out["edge"] = [_rgba("#000000", _SCORE_ALPHA), 0.3 / u]
    out["index"] = base64.b64encode(np.ascontiguousarray(index, dtype=np.uint8).tobytes()).decode("ascii")
    if best is not None:
        at = best.at
        out["best"] = {"edges": _hex_edges(g, best.area.mask), "color": _BEST, "width": 2.5 / u, "mark": 0.65,
                       "mark_edge": _lw(u, 1.0) / u, "at": [float(v) for v in at] if isinstance(at, tuple) else []}
    mask = np.zeros(g.shape, dtype=bool)
    for c, r in own:  # all on the map: the search checked
        mask[r, c] = True
    out["caster_edges"] = [_hex_edges(g, mask), "#000000", 2.0 / u, _DASHES["dashed"]]
    return out


def _hex_edges(g: HexGrid, mask: np.ndarray) -> list[float]:
    """The outline of the hexes of ``mask`` as segments, flat: ``x0, y0, x1, y1`` each.

    Examples
    --------
    >>> len(_hex_edges(HexGrid(3, 3), HexGrid(3, 3).hexes_within((1, 1), 1)))      # 18 sides, 4 numbers each
    72
    """
    segs = [v for ring in hex_outline(g, mask) for a, b in itertools.pairwise(ring) for v in (*a, *b)]
    return [round(float(v), 4) for v in segs]


def _swatch(fill: str = "none", edge: str = "none", width: float = 0.12, more: str = "", dash: str = "",
            hexagon: bool = False) -> str:
    """A key's picture of a mark: a square or a pointy-top hexagon (``fill``, ``edge`` ``width`` wide) in a unit box,
    and ``more`` SVG over it."""
    inset = width / 2
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    paint = f'fill="{fill}" stroke="{edge}" stroke-width="{width:g}"{dashes}'
    if hexagon:
        points = " ".join(f"{x:.3f},{y:.3f}" for x, y in _key_hexagon(0.5 - inset))
        return f'<svg class="aoegrid-swatch" viewBox="0 0 1 1"><polygon points="{points}" {paint}/>{more}</svg>'
    return (f'<svg class="aoegrid-swatch" viewBox="0 0 1 1"><rect x="{inset:g}" y="{inset:g}" width="{1 - width:g}" '
            f'height="{1 - width:g}" {paint}/>{more}</svg>')


def _key_hexagon(radius: float) -> list[tuple[float, float]]:
    """The corners of a pointy-top hexagon ``radius`` from the key box's centre to a corner, clockwise from the top."""
    return [(0.5 + radius * math.cos(math.radians(a)), 0.5 + radius * math.sin(math.radians(a)))
            for a in range(-90, 270, 60)]


def _keyed(items: list[tuple[str, str]]) -> str:
    spans = "".join(f"<span>{picture}{html.escape(text)}</span>" for picture, text in items)
    return f'<div class="aoegrid-key">{spans}</div>'


def _key(view: dict[str, Any], style: dict[str, Any]) -> str:
    """The key to what the map shows now: the area, its outline, and the badges and hatching on it."""
    if "refused" in view:
        return ""
    color, fill = style["color"], style["fill"]
    hexagon = "hexes" in view
    items = [(_swatch(fill, color, hexagon=hexagon), "area"), (_swatch(edge=color, width=0.16, dash="0.3 0.15"), "shape")]
    shown = {grade for grade, _ in view["cover"]}
    for grade, (name, size, face, edge) in COVER_BADGES.items():
        if int(grade) in shown:
            if hexagon:
                # A diamond in the upper-right corner, its sides along the hexagon's, as the map draws it.
                top, apex, low = _key_hexagon(0.44)[:3]
                k = _BADGE_SIDE * size / math.dist(top, apex)
                a = ((top[0] - apex[0]) * k, (top[1] - apex[1]) * k)
                b = ((low[0] - apex[0]) * k, (low[1] - apex[1]) * k)
                pts = [apex, (apex[0] + a[0], apex[1] + a[1]), (apex[0] + a[0] + b[0], apex[1] + a[1] + b[1]),
                       (apex[0] + b[0], apex[1] + b[1])]
                points = " ".join(f"{x:.3f},{y:.3f}" for x, y in pts)
            else:
                points = f"{1 - size:g},0 1,0 1,{size:g}"
            corner = f'<polygon points="{points}" fill="{face}" stroke="{edge}" stroke-width="0.08"/>'
            items.append((_swatch(fill, color, more=corner, hexagon=hexagon), name))
    if view["blocked"]:
        dots = "".join(f'<circle cx="{x}" cy="{y}" r="0.07" fill="#444"/>' for x, y in ((0.3, 0.3), (0.7, 0.7)))
        items.append((_swatch(style["blocked"], more=dots, hexagon=hexagon), "blocked (total cover)"))
    return _keyed(items)


def _creature(r: Reached) -> str:
    """One line of the creature list, as the widget shows it: ``"Mog: no cover"``, ``"Urg: cover"``."""
    return f"{r.token.label}: {'no cover' if r.cover_name == 'none' else r.cover_name}"


def _best_html(scores: np.ndarray | None, best: Placement | HexPlacement | None, failed: str | None,
               layer: dict[str, Any]) -> str:
    """The score map's line of the summary: its range, the best placement, and its colours."""
    if failed is not None or scores is None:
        return f'<div class="aoegrid-best aoegrid-error">score map: {html.escape(failed or "")}</div>'
    if best is None or not best.hits:
        return '<div class="aoegrid-best">score map: no placement reaches a creature to hit</div>'
    if best.direction is not None:
        where = f"toward {best.direction:g}\u00b0"
    else:
        at = best.at
        where = f"at ({at[0]:g}, {at[1]:g})" if isinstance(at, tuple) else f"from {at}"
    moved = isinstance(best, Placement) and best.stand is not None  # a hex placement moves no caster
    if isinstance(best, Placement) and best.stand is not None:
        where += f" standing at ({best.stand.x}, {best.stand.y})" + (
            f" after {best.cost:g} {best.area.grid.units}" if len(best.path) > 1 else "")
    names = ", ".join(r.token.label for r in best.hits)
    lo, hi = np.nanmin(scores), np.nanmax(scores)  # a best placement with hits means some scores are finite
    palette = layer["palette"]
    hexes = "hexpoints" in layer or "caster_edges" in layer

    def point(fill: str) -> str:
        """A score's swatch: a square, or on hexes the disc on a corner."""
        if "hexpoints" not in layer:
            return _swatch(fill)
        return f'<svg class="aoegrid-swatch" viewBox="0 0 1 1"><circle cx="0.5" cy="0.5" r="0.4" fill="{fill}"/></svg>'

    if len(palette) < _LEVELS:  # one colour a whole number, from lo
        ramp = [(point(c), f"{lo + k:g}") for k, c in enumerate(palette)]
    else:
        ramp = [(point(palette[0]), f"{lo:g}"), (point(palette[-1]), f"{hi:g}")]
    marks = [(point(layer["none"]), "not legal"), (_swatch(edge=_BEST, width=0.2, hexagon=hexes), "best")]
    if moved:
        marks.append((_swatch(edge=PATH_COLOR, width=0.2), "path walked, stand"))
    return (f'<div class="aoegrid-best">score map: {lo:g} to {hi:g} reached; '
            f"best {html.escape(where)}: {best.score:g} ({html.escape(names)})</div>" + _keyed([*ramp, *marks]))


def _describe(shape: Shape, units: str) -> str:
    size = _size_of(shape)
    text = f"{shape.name} {size:g} {shape.units or units}"
    if shape.name in AIMED:
        text += f" toward {float(shape.direction):g}\u00b0"  # type: ignore[union-attr]
    return text


def _placeable(shape: Any) -> Shape:
    if not isinstance(shape, (Sphere, Cylinder, Cone, Line, Cube)):
        raise InvalidTypeError(
            f"explore places a Sphere, Cylinder, Cone, Line or Cube, got {shape!r}"
        )
    return shape


def _size_of(shape: Shape) -> float:
    return float(getattr(shape, SIZE_FIELDS[shape.name]))


def _default_shape(kind: str, size: float, direction: float, units: str | None) -> Shape:
    """A new shape of ``kind`` chosen in the controls, keeping the size, direction and unit."""
    if kind == "sphere":
        return Sphere(size, units=units)
    if kind == "cylinder":
        return Cylinder(size, 2 * size, units=units)  # its height matters only for creatures above the ground
    if kind == "cone":
        return Cone(size, direction, units=units)
    if kind == "line":
        return Line(size, direction, units=units)
    return Cube(size, direction, units=units)


__all__ = ["Explorer", "explore"]
