"""Explore areas in Jupyter: click a map to place an effect, see what it covers.

``aoegrid.explore(on)`` (this module's :func:`explore`, loaded on first call)
returns an :class:`Explorer`, a Jupyter widget: the map drawn as
:mod:`aoegrid.plotting` draws it; a click places the point of origin, snapped
to the points the searches look at (:func:`aoegrid.ranges.origin_lattice`:
intersections under Starfinder and Pathfinder 2e, the nearest intersection or
square centre otherwise); a drag, or the dial, aims cones, lines and cubes;
controls choose the shape, its size, the preset and the mode; beside the map,
the number of squares and the creatures reached with their cover; with a
caster, each placement at a point is checked as :func:`aoegrid.area` checks
it, and a check box shades every placement's score
(:func:`aoegrid.placement_scores`) and outlines the best one.

Why anywidget: the widget is one ``anywidget.AnyWidget`` whose front end is a
small ES module (below, in ``_ESM``) showing two stacked PNGs drawn by
matplotlib in the kernel: the map (with the score map when shown) once, and the
area over it after every change. The front end only turns pointer events into
grid coordinates and sends them; every rule (snapping, the area, cover,
scores) runs in Python, so the widget shows exactly what :func:`aoegrid.area`
computes, its state is plain traitlets a notebook or a test can read and set,
and the page is ordinary HTML a headless browser can click. anywidget's front
end ships inside its pip package for JupyterLab 4, Notebook 7 and Voilà;
matplotlib's interactive backend (ipympl) would need its own front-end
extension and an event loop through the canvas, for no gain here.

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
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import anywidget
import numpy as np
import traitlets

from aoegrid._validate import positive
from aoegrid.area import Area, area
from aoegrid.battlemap import BattleMapCore
from aoegrid.directions import parse_direction
from aoegrid.errors import AoegridError, InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.grid import Grid
from aoegrid.maps import BattleMap
from aoegrid.options import Mode, OriginPoint, parse_option
from aoegrid.plotting import plot_area, plot_map, plot_scores, plot_tokens
from aoegrid.ranges import Range
from aoegrid.rules import PRESETS, Rules, resolve_rules
from aoegrid.shapes import Cone, Cube, Cylinder, Line, Shape, Sphere
from aoegrid.tactics import Placement, Selector, best_placements, placement_scores
from aoegrid.targets import Reached
from aoegrid.tokens import Space, Token

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: The shapes the controls offer, and the field each one's size is.
SIZE_FIELDS = {"sphere": "radius", "cylinder": "radius", "cone": "length", "line": "length", "cube": "size"}
#: What :func:`explore` places unless told: a 20-ft burst (a fireball).
DEFAULT_SHAPE = Sphere(20)
#: Shapes a drag or the dial points.
AIMED = ("cone", "line", "cube")

_ESM = r"""
const SVG = "http://www.w3.org/2000/svg";

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
  const mapImg = make("img", "aoegrid-map", board);
  const areaImg = make("img", "aoegrid-area", board);
  mapImg.alt = "battle map"; areaImg.alt = "area";
  mapImg.draggable = areaImg.draggable = false;
  const aim = document.createElementNS(SVG, "svg");
  aim.setAttribute("class", "aoegrid-aim");
  const ray = document.createElementNS(SVG, "line");
  aim.appendChild(ray);
  board.appendChild(aim);
  const summary = make("div", "aoegrid-summary", body);

  const aimed = () => ["cone", "line", "cube"].includes(model.get("shape_kind"));

  function update() {
    options(shape, model.get("shape_kinds"), model.get("shape_kind"));
    options(preset, model.get("presets"), model.get("preset"));
    options(mode, model.get("modes"), model.get("mode"));
    size.value = model.get("size");
    unit.textContent = model.get("unit");
    dial.value = Math.round(model.get("direction"));
    degrees.textContent = Math.round(model.get("direction")) + "\u00b0";
    dialBox.style.display = aimed() ? "" : "none";
    scores.checked = model.get("show_scores");
    scores.disabled = !model.get("can_score");
    scoresBox.title = model.get("can_score") ? "" : "give explore() a caster to see scores";
    mapImg.src = model.get("map_png");
    areaImg.src = model.get("area_png");
    summary.innerHTML = model.get("summary");
    const [w, h] = model.get("grid_size");
    aim.setAttribute("viewBox", `0 0 ${w} ${h}`);
  }

  function set(name, value) { model.set(name, value); model.save_changes(); }
  shape.addEventListener("change", () => set("shape_kind", shape.value));
  preset.addEventListener("change", () => set("preset", preset.value));
  mode.addEventListener("change", () => set("mode", mode.value));
  scores.addEventListener("change", () => set("show_scores", scores.checked));
  size.addEventListener("change", () => {
    const v = parseFloat(size.value);
    if (Number.isFinite(v) && v > 0) set("size", v); else size.value = model.get("size");
  });
  dial.addEventListener("input", () => { degrees.textContent = dial.value + "\u00b0"; });
  dial.addEventListener("change", () => set("direction", parseFloat(dial.value)));

  // Pointer positions in grid units: the pictures span the grid exactly.
  function at(event) {
    const r = mapImg.getBoundingClientRect();
    const [w, h] = model.get("grid_size");
    const x = Math.min(Math.max((event.clientX - r.left) / r.width * w, 0), w);
    const y = Math.min(Math.max((event.clientY - r.top) / r.height * h, 0), h);
    return [x, y];
  }
  function bearing(p) {
    const [ox, oy] = model.get("origin");
    return Math.round((Math.atan2(p[1] - oy, p[0] - ox) * 180 / Math.PI + 360) % 360) % 360;
  }

  let down = null;
  // A press that moves less than this (pixels) is a click, not a drag.
  const SLOP = 5;
  board.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    down = { x: e.clientX, y: e.clientY, dragging: false };
    board.setPointerCapture(e.pointerId);
    e.preventDefault();
  });
  board.addEventListener("pointermove", (e) => {
    if (!down) return;
    if (!down.dragging && Math.hypot(e.clientX - down.x, e.clientY - down.y) < SLOP) return;
    down.dragging = aimed();
    if (!down.dragging) return;
    const [ox, oy] = model.get("origin");
    const p = at(e);
    for (const [k, v] of [["x1", ox], ["y1", oy], ["x2", p[0]], ["y2", p[1]]]) ray.setAttribute(k, v);
    ray.style.display = "";
    degrees.textContent = bearing(p) + "\u00b0";
  });
  board.addEventListener("pointerup", (e) => {
    if (!down) return;
    const dragging = down.dragging;
    down = null;
    ray.style.display = "none";
    const p = at(e);
    if (dragging) set("direction", bearing(p));
    else model.send({ event: "click", x: p[0], y: p[1] });
  });
  board.addEventListener("pointercancel", () => { down = null; ray.style.display = "none"; });

  ray.style.display = "none";
  update();
  model.on("change", update);
  return () => model.off("change", update);
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
                 line-height: 0; user-select: none; }
.aoegrid-map { display: block; max-width: 100%; }
.aoegrid-area, .aoegrid-aim { position: absolute; left: 0; top: 0; width: 100%; height: 100%;
                              pointer-events: none; }
.aoegrid-aim line { stroke: #d62728; stroke-width: 0.12; stroke-dasharray: 0.3 0.2; }
.aoegrid-summary { min-width: 14em; max-width: 24em; }
.aoegrid-count { font-size: 18px; font-weight: 600; }
.aoegrid-creatures { margin: 4px 0; padding-left: 1.4em; }
.aoegrid-error { color: #b00020; }
.aoegrid-best { margin-top: 6px; color: #005f8f; }
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
    scale: float | None = None,
) -> Explorer:
    """A widget to place an area on a map by clicking, and see what it covers.

    Parameters
    ----------
    on : BattleMap or Grid
        The map (its walls cut the areas, its tokens are the creatures
        listed), or a bare grid.
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
        the score map. Cones and lines are drawn where clicked, unchecked
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
    scale : float, optional
        Pixels a square of the pictures (default: what makes the map about
        768 pixels across, between 4 and 32).

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
        place (a :class:`~aoegrid.shapes.Shapable`).
    InvalidValueError
        An unknown preset or mode; ``at`` off the map.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(12, 8), tokens=[ag.Token(4, 3, name="orc", tags={"enemy"})])
    >>> w = ag.explore(m, ag.Cone(15), rules="pf2e", at=(3, 3))
    >>> w.shape = w.shape.replace(direction="E")     # as dragging toward the east does
    >>> [(r.token.name, r.cover_name) for r in w.area.tokens()]
    [('orc', 'none')]
    >>> "orc: no cover" in w.summary and "8 squares" in w.summary
    True
    """
    return Explorer(on, shape, rules, caster, mode=mode, at=at, hit=hit, avoid=avoid, range=range, scale=scale)


class Explorer(anywidget.AnyWidget):
    """The widget :func:`explore` returns; see it for the parameters.

    Attributes
    ----------
    origin : (float, float)
        The point of origin, in grid units. Setting it places the effect as a
        click there does: snapped to the nearest intersection when the
        preset's origins must be intersections (``Rules.origin``), else to the
        nearest intersection or square centre, the points the score map
        searches (a tie goes to the intersection).
    shape : Shape
        The effect placed. Its kind, size and direction are also the traits
        ``shape_kind``, ``size`` and ``direction`` the controls set.
    rules : Rules
        Set a preset name or a :class:`Rules`; ``preset`` is its name.
    mode : str
        ``"burst"``, ``"emanation"`` or ``"spread"``.
    show_scores : bool
        Shade the score map and outline the best placement (needs a caster).
    area : Area or None
        The area now shown, exactly ``ag.area(shape, at=origin, on=map,
        rules=rules, mode=mode, caster=caster, range=range)`` (for a cone or
        line, without caster and range: drawn where clicked); None when the
        rules refuse the placement (:attr:`error` says why).
    summary : str
        The HTML shown beside the map: the square count, the creatures
        reached with their cover, the best placement.
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
    # What the front end shows and offers; set here only.
    can_score = traitlets.Bool(False).tag(sync=True)
    shape_kinds = traitlets.List(list(SIZE_FIELDS)).tag(sync=True)
    presets = traitlets.List(traitlets.Unicode()).tag(sync=True)
    modes = traitlets.List([m.value for m in Mode]).tag(sync=True)
    grid_size = traitlets.List(traitlets.Int()).tag(sync=True)
    unit = traitlets.Unicode().tag(sync=True)
    map_png = traitlets.Unicode().tag(sync=True)
    area_png = traitlets.Unicode().tag(sync=True)
    summary = traitlets.Unicode().tag(sync=True)

    def __init__(
        self,
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
        scale: float | None = None,
    ) -> None:
        if isinstance(on, Grid):
            on = BattleMap(on)
        if not isinstance(on, BattleMapCore):
            raise InvalidTypeError(f"explore needs an aoegrid.BattleMap or Grid to draw on, got {on!r}")
        g = on.grid
        self._map = on
        self._caster = caster
        self._hit, self._avoid, self._range = hit, avoid, range
        self._scale = _scale(scale, g)
        self._shape = _placeable(shape)
        self._rules = resolve_rules(rules)
        self._area: Area | None = None
        self._error: str | None = None
        self._scored: tuple[Any, np.ndarray | None, Placement | None, str | None] | None = None
        self._plain_map: str | None = None
        # Observers wait until everything is set, then the first picture is drawn once.
        self._held = True
        super().__init__(
            shape_kind=self._shape.name,
            size=_size_of(self._shape),
            direction=float(getattr(self._shape, "direction", 0.0)),
            preset=self._rules.name,
            mode=parse_option(Mode, mode, "mode").value,
            origin=(g.width / 2, g.height / 2) if at is None else at,
            grid_size=[g.width, g.height],
            unit=g.units,
            can_score=caster is not None,
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
    def area(self) -> Area | None:
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
    def best(self) -> Placement | None:
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

    @traitlets.validate("show_scores")
    def _valid_show_scores(self, proposal: dict[str, Any]) -> bool:
        if proposal["value"] and self._caster is None:
            raise InvalidValueError("the score map needs a caster: explore(..., caster=token)")
        return bool(proposal["value"])

    # --- changes ---------------------------------------------------------------

    @traitlets.observe("shape_kind", "size", "direction", "preset", "origin", "mode", "show_scores")
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
        """A click on the map places the origin there."""
        if content.get("event") == "click":
            self.origin = (content["x"], content["y"])

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

    # --- drawing -----------------------------------------------------------------

    def _refresh(self) -> None:
        """Work out the area (and the score map) and redraw what changed."""
        try:
            point = not isinstance(self._shape, (Cone, Line))
            a = area(self._shape, self.origin, self._map, self._rules, self.mode,
                     caster=self._caster if point else None, range=self._shape_range(self._shape))
            reached = a.tokens()
            self._area, self._error = a, None
        except AoegridError as e:
            a, reached, self._area, self._error = None, [], None, str(e)
        self.presets = list(self._choices)
        best_html = ""
        if self.show_scores:
            scores, best, failed = self._score_map()
            best_html = _best_html(scores, best, failed)
            self.map_png = self._picture(lambda ax: self._draw_scores(ax, scores, best), transparent=False)
        else:
            if self._plain_map is None:
                self._plain_map = self._picture(lambda ax: plot_map(self._map, ax, tokens=False), transparent=False)
            self.map_png = self._plain_map
        self.area_png = self._picture(lambda ax: self._draw_area(ax, a, [r.token for r in reached]), transparent=True)
        self.summary = self._summary(a, reached) + best_html

    def _score_map(self) -> tuple[np.ndarray | None, Placement | None, str | None]:
        """The scores and best placement for the current shape, rules and mode (kept until they change)."""
        key = (self._shape, self._rules, self.mode)
        if self._scored is None or self._scored[0] != key:
            shape, rules, mode = key
            try:
                rng = self._shape_range(shape)
                scores = placement_scores(shape, caster=self._caster, range=rng, on=self._map, rules=rules,
                                          mode=mode, hit=self._hit, avoid=self._avoid)
                found = best_placements(shape, caster=self._caster, range=rng, on=self._map, rules=rules,
                                        mode=mode, hit=self._hit, avoid=self._avoid)
                self._scored = (key, scores, found[0] if found else None, None)
            except AoegridError as e:
                self._scored = (key, None, None, str(e))
        return self._scored[1], self._scored[2], self._scored[3]

    def _draw_scores(self, ax: Axes, scores: np.ndarray | None, best: Placement | None) -> None:
        if scores is None:
            plot_map(self._map, ax, tokens=False)
        else:
            plot_scores(scores, self._map, ax, best=best, caster=self._caster, legend=False, colorbar=False)

    def _draw_area(self, ax: Axes, a: Area | None, affected: list[Token]) -> None:
        if a is not None:
            plot_area(a, ax, map_layers=False)
        else:
            ax.plot([self.origin[0]], [self.origin[1]], marker="X", markersize=9, color="#7f7f7f",
                    markeredgecolor="white", linestyle="none", label="origin (refused)", zorder=8)
        if self._map.tokens:
            plot_tokens(self._map.tokens, self._map.grid, ax, affected=affected)

    def _picture(self, draw: Callable[[Axes], Any], *, transparent: bool) -> str:
        """A PNG data URL of what ``draw`` adds to Axes spanning the picture, ``scale`` pixels a square."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        g = self._map.grid
        fig = Figure(figsize=(g.width * self._scale / 100, g.height * self._scale / 100), dpi=100)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_axis_off()
        draw(ax)
        # Whatever was drawn, the Axes span the grid exactly: the front end maps pixels to squares by it.
        ax.set_xlim(0, g.width)
        ax.set_ylim(g.height, 0)
        FigureCanvasAgg(fig)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", transparent=transparent)
        return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")

    def _summary(self, a: Area | None, reached: list[Reached]) -> str:
        x, y = self.origin
        what = (f"{self._rules.name} {self.mode}, {_describe(self._shape, self._map.grid.units)} "
                f"at ({x:g}, {y:g})")
        if a is None:
            return (f'<div class="aoegrid-count">refused</div><div class="aoegrid-what">{html.escape(what)}</div>'
                    f'<div class="aoegrid-error">{html.escape(self._error or "")}</div>')
        n = len(a)
        out = (f'<div class="aoegrid-count">{n} square{"" if n == 1 else "s"}</div>'
               f'<div class="aoegrid-what">{html.escape(what)}</div>')
        if not self._map.tokens:
            return out
        if not reached:
            return out + '<div class="aoegrid-creatures">no creature reached</div>'
        items = "".join(f"<li>{html.escape(_creature(r))}</li>" for r in reached)
        return out + f'<ol class="aoegrid-creatures">{items}</ol>'


#: The longest side of a picture, in pixels: about what browsers still draw.
MAX_PIXELS = 16384


def _scale(scale: float | None, g: Grid) -> float:
    """Pixels a square: ``scale``, or what makes the map about 768 pixels across (4 to 32)."""
    if scale is None:
        return min(32.0, max(4.0, 768.0 / max(g.width, g.height)))
    out = positive(scale, "scale")
    if out * max(g.width, g.height) > MAX_PIXELS:
        raise InvalidValueError(
            f"scale {scale!r} makes the {g.width} x {g.height} map's picture wider than {MAX_PIXELS} pixels; "
            f"give at most {MAX_PIXELS / max(g.width, g.height):g}"
        )
    return out


def _creature(r: Reached) -> str:
    """One line of the creature list, as the widget shows it: ``"Mog: no cover"``, ``"Urg: cover"``."""
    return f"{r.token.label}: {'no cover' if r.cover_name == 'none' else r.cover_name}"


def _best_html(scores: np.ndarray | None, best: Placement | None, failed: str | None) -> str:
    """The score map's line of the summary: its range, and the best placement."""
    if failed is not None or scores is None:
        return f'<div class="aoegrid-best aoegrid-error">score map: {html.escape(failed or "")}</div>'
    if best is None or not best.hits:
        return '<div class="aoegrid-best">score map: no placement reaches a creature to hit</div>'
    if best.direction is not None:
        where = f"toward {best.direction:g}\u00b0"
    else:
        at = best.at
        where = f"at ({at[0]:g}, {at[1]:g})" if isinstance(at, tuple) else f"from {at}"
    names = ", ".join(r.token.label for r in best.hits)
    # A best placement with hits means some scores are finite.
    return (f'<div class="aoegrid-best">score map: {np.nanmin(scores):g} to {np.nanmax(scores):g} reached; '
            f"best {html.escape(where)}: {best.score:g} ({html.escape(names)})</div>")


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
