"""aoegrid's JSON format (``aoegrid/1``): areas, maps, placements, threat maps and batch rows as plain data.

Every record is a JSON object with ``"schema": "aoegrid/1"`` and a
``"record"`` field saying what it holds:

============== =============================== =========================================
``record``     made by                         holds
============== =============================== =========================================
``area``       :func:`area_record`             an area from :func:`aoegrid.area`
``combined``   :func:`area_record`             ``a | b``, ``a & b``, ``a - b``
``map``        :func:`map_record`              a map: grid, walls, tokens, lights, notes
``placement``  :func:`placement_record`        one of :func:`aoegrid.best_placements`
``threat``     :func:`threat_record`           :func:`aoegrid.threat_map`: casters per square
``batch``      :func:`batch_record`            one row of a batch: its number and area
``error``      :func:`error_record`            a batch row that failed: number, message
============== =============================== =========================================

Squares are ``[x, y]`` in grid coordinates. Every record on a map carries
its ``grid``, with ``pixels_per_square`` and ``offset`` when the map came
from a file, so square ``[x, y]``'s top-left corner is at pixel
``x * pixels_per_square + offset[0]``, ``y * pixels_per_square + offset[1]``
of the file (see :class:`aoegrid.io.MapInfo`). The JSON Schema (draft
2020-12) ships as ``aoegrid/data/aoegrid.schema.json``: :func:`schema`
loads it and :func:`validate` checks a record against it (with the optional
``jsonschema`` package). :func:`foundry_template` turns an area into a
Foundry VTT ``MeasuredTemplate``.

``aoegrid/1`` only gains optional fields (a placement's ``stand``, ``path``
and ``cost``, a map's ``terrain``, ``floors`` and ``levels``, a token's
``tall``): every record aoegrid writes has them, and a record an older
aoegrid wrote without them is still valid; a wall's ``bottom`` and ``top``
are written where they are finite. A field never changes meaning within
``aoegrid/1``.

Examples
--------
>>> import json
>>> import aoegrid as ag
>>> r = area_record(ag.area(ag.Cone(15, "E"), at=(2, 2), on=ag.Grid(6, 4)))
>>> r["schema"], r["record"], r["shape"], r["origin"]
('aoegrid/1', 'area', {'shape': 'cone', 'length': 15.0, 'direction': 0.0, 'cone_kind': None, 'units': None}, {'point': [2.0, 2.0]})
>>> json.loads(json.dumps(r)) == r
True
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import math
from collections.abc import Mapping
from enum import Enum
from importlib import resources
from pathlib import PurePath
from typing import Any

import numpy as np

from aoegrid.effects.result import AreaCore
from aoegrid.effects.targets import Reached, reached
from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry.cover import GRADES, Cover
from aoegrid.geometry.gridless import Gridless, OpenToken
from aoegrid.geometry.hexgrid import HexGrid
from aoegrid.geometry.options import Anchor, ConeKind, Terrain
from aoegrid.geometry.shapes import Cone, Cube, Cylinder, Line, Sphere
from aoegrid.geometry.tokens import Space, Token

__all__ = [
    "SCHEMA",
    "area_record",
    "batch_record",
    "error_record",
    "foundry_template",
    "map_record",
    "placement_record",
    "schema",
    "threat_record",
    "validate",
]

#: The format's name and version, in every record's ``schema`` field.
SCHEMA = "aoegrid/1"

#: Foundry's grid size when a map gives none (a text map, a map built in code).
FOUNDRY_GRID_SIZE = 100.0

#: Foundry cone angles: a 5e-style triangle cone is as wide as it is far from
#: its origin, 2 * atan(1/2) (Foundry's own default, 53.13); a quarter circle
#: 90; the Savage Worlds teardrop, the angle between the tangents to its end
#: disk (radius a sixth of the length, centred five sixths out): 2 * asin(1/5).
CONE_ANGLES = {
    ConeKind.TRIANGLE: math.degrees(2 * math.atan(0.5)),
    ConeKind.QUARTER_CIRCLE: 90.0,
    ConeKind.TEARDROP: math.degrees(2 * math.asin(0.2)),
}


# --------------------------------------------------------------------------
# The schema
# --------------------------------------------------------------------------


@functools.cache
def _schema() -> dict[str, Any]:
    text = (resources.files("aoegrid") / "data" / "aoegrid.schema.json").read_text(encoding="utf-8")
    out: dict[str, Any] = json.loads(text)
    return out


def schema() -> dict[str, Any]:
    """The JSON Schema of the format (draft 2020-12), as a dict of its own.

    Examples
    --------
    >>> s = schema()
    >>> s["$schema"], s["properties"]["schema"]["const"]
    ('https://json-schema.org/draft/2020-12/schema', 'aoegrid/1')
    """
    return copy.deepcopy(_schema())


def validate(record: Mapping[str, Any]) -> Mapping[str, Any]:
    """``record``, if it is valid ``aoegrid/1`` JSON; else an error saying where it is not.

    Needs the ``jsonschema`` package (``pip install jsonschema``, or
    aoegrid's ``test`` extra); aoegrid itself runs without it.

    Raises
    ------
    InvalidValueError
        If the record breaks the schema (the message names the field, as a
        path like ``area.squares[3]``), or ``jsonschema`` is not installed.

    Examples
    --------
    >>> import aoegrid as ag
    >>> validate(error_record(4, "column size must be a number, got 'ten'"))["record"]
    'error'
    >>> validate({"schema": "aoegrid/1", "record": "error", "row": 0, "message": "bad size"})
    Traceback (most recent call last):
    ...
    aoegrid.errors.InvalidValueError: not a valid aoegrid/1 record: at row: 0 is less than the minimum of 1
    """
    try:
        import jsonschema  # type: ignore[import-untyped]
    except ImportError:
        raise InvalidValueError(
            "validating aoegrid JSON needs the jsonschema package: pip install jsonschema"
        ) from None
    validator = jsonschema.Draft202012Validator(_schema())
    # The most specific error: oneOf failures nest the branch that came closest.
    error = jsonschema.exceptions.best_match(validator.iter_errors(record))
    if error is not None:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
        raise InvalidValueError(f"not a valid {SCHEMA} record: at {where or 'the top level'}: {error.message}")
    return record


# --------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------


def area_record(area: AreaCore, *, inputs: Mapping[str, Any] | None = None, info: Any = None) -> dict[str, Any]:
    """Everything an area says, as an ``aoegrid/1`` record.

    Parameters
    ----------
    area : Area
        From :func:`aoegrid.area` (record ``"area"``), or a combination of
        areas (``a | b``; record ``"combined"``: grid and squares only, as
        a combination keeps no shape or origin).
    inputs : mapping, optional
        What the area was asked for, echoed as ``inputs`` with its types
        (numbers stay numbers; tuples become lists, enums their values,
        paths strings). Values must be JSON: strings, finite numbers,
        booleans, None, lists and string-keyed mappings of them.
    info : MapInfo, optional
        The map file whose pixels the squares map back to; by default the
        area's map's ``info`` (a combination has no map: pass it).

    Returns
    -------
    dict
        ``schema``, ``record``, ``inputs``, ``grid`` (``width``, ``height``,
        ``square``, ``units``, ``pixels_per_square``, ``offset``; the last
        two None without a file), ``map`` (``source`` and ``format`` of the
        file, or None), ``count``, ``squares`` (``[x, y]`` sorted by y, then
        x). An ``area`` record adds ``rules``, ``mode``, ``shape`` (the
        shape's name as ``shape``, its fields; a cone's outline as
        ``cone_kind``), ``origin`` (``{"point": [x, y]}`` or ``{"space":
        {"x", "y", "width", "height"}}``), ``elevation``, and the same keys
        on a grid as on a map: ``cover`` (``{"square", "grade", "visible"}``
        for each covered square with some cover), ``blocked`` (squares of
        the shape walls leave out) and ``tokens`` (creatures reached,
        nearest first); on a bare grid these are empty.

    Raises
    ------
    InvalidTypeError, InvalidValueError
        For ``inputs`` that are not JSON (naming the key).

    Examples
    --------
    >>> import aoegrid as ag
    >>> corridor = ag.walls_from([(0, 2), (8, 2), (8, 12)]) + ag.walls_from([(0, 4), (6, 4), (6, 12)])
    >>> m = ag.BattleMap(ag.Grid(10, 12), walls=corridor)
    >>> r = area_record(ag.area(ag.Sphere(40), at=(2, 3), on=m), inputs={"at": (2, 3)})
    >>> r["count"], r["cover"][0], r["inputs"]
    (18, {'square': [6, 4], 'grade': 'cover', 'visible': 0.125}, {'at': [2, 3]})
    >>> a, b = ag.area(ag.Sphere(5), at=(2, 2), on=ag.Grid(6, 6)), ag.area(ag.Sphere(5), at=(4, 4), on=ag.Grid(6, 6))
    >>> u = area_record(a | b)
    >>> u["record"], u["count"], u["squares"][:2]
    ('combined', 8, [[1, 1], [2, 1]])
    """
    if not isinstance(area, AreaCore):
        return _board_area_record(area, inputs, info)
    bmap = area.battlemap
    if info is None and bmap is not None:
        info = bmap.info
    out: dict[str, Any] = {
        "schema": SCHEMA,
        "record": "combined" if area.shape is None else "area",
        "inputs": _inputs(inputs),
        "grid": _grid(area.grid, info),
        "map": _map_ref(info),
    }
    if area.shape is not None and area.rules is not None and area.recipe is not None:
        out.update(
            rules=area.rules.name,
            mode=None if area.mode is None else area.mode.value,
            shape=_shape(area.shape),
            origin=_origin(area.origin),
            elevation=area.recipe.elevation,
        )
    out["count"] = len(area)
    out["squares"] = [[x, y] for x, y in area.squares]
    if out["record"] == "combined":
        return out
    cover: list[dict[str, Any]] = []
    blocked: list[list[int]] = []
    if bmap is not None and area.rules is not None:
        names = GRADES[area.rules.cover]
        grades, visible, mask = area.cover, area.visible, area.mask
        ys, xs = np.nonzero(mask & (grades > Cover.NONE))
        cover = [
            {"square": [x, y], "grade": names[Cover(int(grades[y, x]))][0], "visible": round(float(visible[y, x]), 6)}
            for y, x in zip(ys.tolist(), xs.tolist())
        ]
        blocked = _mask_squares(area.shape_mask & ~mask)
    out["cover"] = cover
    out["blocked"] = blocked
    out["tokens"] = [_reached(r) for r in reached(area)] if bmap is not None else []
    return out


def map_record(map: Any) -> dict[str, Any]:
    """A map as an ``aoegrid/1`` record: what :func:`aoegrid.load_map` read.

    Parameters
    ----------
    map : BattleMap

    Returns
    -------
    dict
        ``schema``, ``record`` (``"map"``), ``source`` and ``format`` (None
        for a map made in code), ``grid`` (as in :func:`area_record`),
        ``background`` (a Foundry scene's image path, or None),
        ``embedded_image`` (whether the file holds its image: read it with
        ``map.info.image()``), ``walls`` (``start``, ``end``, ``kind``,
        ``open``, ``blocks``, ``one_way``; as given, in grid units),
        ``tokens``, ``lights`` (``position`` in grid units, ``range`` in
        squares, ``intensity``, ``color``), ``notes`` (``map.notes``),
        ``terrain``: the squares of each kind (``difficult``,
        ``greater-difficult``, ``impassable``), or None on a map without
        terrain, ``floors`` (``elevation``, ``polygon``: the outline as a
        ring of ``[x, y]`` in grid units, its last point not repeated, and
        ``holes``, rings alike) and ``levels`` (a Foundry scene's storeys:
        ``name``, ``bottom``, ``top``, null for an unbounded end). A wall
        carries ``bottom`` and ``top`` (the heights it spans, in the grid's
        unit) only where they are finite.

    Examples
    --------
    >>> import aoegrid as ag
    >>> r = map_record(ag.read_text_map("#####\\n#a+.#\\n#####"))
    >>> r["record"], r["format"], r["grid"]["width"], len(r["walls"]), r["tokens"][0]["name"], r["terrain"]
    ('map', 'text', 5, 9, 'a', None)
    >>> map_record(ag.read_text_map("#####\\n#~^%#\\n#####"))["terrain"]
    {'difficult': [[1, 1]], 'greater-difficult': [[2, 1]], 'impassable': [[3, 1]]}
    >>> low = map_record(ag.BattleMap(ag.Grid(4, 4), walls=[ag.Wall((2, 0), (2, 4), top=5)],
    ...                               floors=[ag.Floor([(0, 0), (4, 0), (4, 2), (0, 2)], elevation=10)]))
    >>> "bottom" in low["walls"][0], low["walls"][0]["top"], low["floors"], low["levels"]
    (False, 5.0, [{'elevation': 10.0, 'polygon': [[0.0, 0.0], [4.0, 0.0], [4.0, 2.0], [0.0, 2.0]], 'holes': []}], [])
    """
    info = getattr(map, "info", None)
    return {
        "schema": SCHEMA,
        "record": "map",
        "source": None if info is None else info.source,
        "format": None if info is None else info.format,
        "grid": _grid(map.grid, info),
        "background": None if info is None else info.background,
        "embedded_image": info is not None and info.has_image,
        "walls": [_wall(w) for w in map.walls],
        "tokens": [_token(t) for t in map.tokens],
        "lights": [
            {"position": list(light.position), "range": light.range, "intensity": light.intensity,
             "color": light.color}
            for light in (() if info is None else info.lights)
        ],
        "notes": list(map.notes),
        "terrain": _terrain(map),
        "floors": [_floor(f) for f in getattr(map, "floors", ())],
        "levels": [
            {"name": level.name, "bottom": _bound(level.bottom), "top": _bound(level.top)}
            for level in getattr(info, "levels", ())
        ],
    }


def placement_record(placement: Any) -> dict[str, Any]:
    """One placement from :func:`aoegrid.best_placements` as an ``aoegrid/1`` record.

    Returns
    -------
    dict
        ``schema``, ``record`` (``"placement"``), ``at`` (an origin, as in
        :func:`area_record`; a creature's space for a cone or line from
        it), ``direction`` (degrees, or None), ``score``, ``distance`` (from
        the caster, in the grid's unit), ``elevation`` (the origin's height,
        in the grid's unit), ``pitch`` (degrees above the horizontal for a
        cone or line, None for the rest), ``hits`` and ``avoided`` (creatures
        reached, as an area record's ``tokens``), ``area`` (its area
        record), and for a caster that moves first (``move=``) ``stand``
        (the top-left square ``[x, y]`` of its space where it stands; None
        without a move), ``path`` (the squares its space steps through, in
        order, from its start to ``stand``; empty without) and ``cost`` (the
        movement the path costs, in the grid's unit; 0 without).

    Raises
    ------
    InvalidValueError
        If the score is not a finite number (JSON has no infinity).

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(12, 12), tokens=[ag.Token(5, 5, name="orc", tags={"enemy"}), ag.Token(0, 0, name="me")])
    >>> best = ag.best_placements(ag.Sphere(10), caster=m.token("me"), range=60, on=m, hit="enemy")[0]
    >>> r = placement_record(best)
    >>> r["record"], r["at"], r["score"], [h["token"]["name"] for h in r["hits"]], r["area"]["record"]
    ('placement', {'point': [5.0, 4.0]}, 1.0, ['orc'], 'area')
    >>> near = ag.best_placements(ag.Sphere(10), caster=m.token("me"), range=10, on=m, hit="enemy", move=30)[0]
    >>> moved = placement_record(near)     # 10 ft of range: it walks 15 ft first
    >>> moved["at"], moved["distance"], moved["stand"], moved["path"], moved["cost"]
    ({'point': [5.0, 4.0]}, 10.0, [3, 1], [[0, 0], [1, 0], [2, 1], [3, 1]], 15.0)
    >>> r["stand"], r["path"], r["cost"]   # no move
    (None, [], 0.0)
    >>> up = ag.best_placements(ag.Cone(15), caster=m.token("me"), on=m, hit="enemy", directions=[45], pitches=[30],
    ...                         elevation=[0, 10])[0]
    >>> placement_record(up)["elevation"], placement_record(up)["pitch"], r["elevation"], r["pitch"]
    (0.0, 30.0, 0.0, None)
    """
    score = float(placement.score)
    if not math.isfinite(score):
        raise InvalidValueError(f"a placement's score must be a finite number to be JSON, got {score}")
    return {
        "schema": SCHEMA,
        "record": "placement",
        "at": _origin(placement.at),
        "direction": placement.direction,
        "score": score,
        "distance": placement.distance,
        "elevation": float(placement.elevation),
        "pitch": placement.pitch,
        "hits": [_reached(r) for r in placement.hits],
        "avoided": [_reached(r) for r in placement.avoided],
        "area": area_record(placement.area),
        "stand": None if placement.stand is None else [placement.stand.x, placement.stand.y],
        "path": [[x, y] for x, y in placement.path],
        "cost": float(placement.cost),
    }


def threat_record(threat: Any, *, inputs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A threat map from :func:`aoegrid.threat_map` as an ``aoegrid/1`` record.

    Parameters
    ----------
    threat : Threat
    inputs : mapping, optional
        What it was asked for (the shape, rules, range, moves...), echoed
        as ``inputs`` with its types, as :func:`area_record` echoes them: a
        :class:`~aoegrid.planning.threat.Threat` keeps only its answer. That holds
        the heights too: the schema knows ``elevation`` (a height or a
        list), ``pitches`` and ``creature_elevation``, named as
        :func:`aoegrid.threat_map` names them, and ``aoegrid threat``
        echoes each one given. The casters' own heights are in their
        ``token``.

    Returns
    -------
    dict
        ``schema``, ``record`` (``"threat"``), ``inputs``, ``grid`` and
        ``map`` (as in :func:`area_record`; the map's file), ``size`` (the
        ``width`` and ``height`` of the creature reached, in squares),
        ``casters`` (each one's ``token``, the ``moves`` its space may end
        on, the ``squares`` where it reaches a creature), ``count`` (the
        squares some caster reaches), ``squares`` (``[x, y, casters]`` for
        each of them, sorted by y, then x), ``max_spared_hit`` and
        ``spared`` (with ``spare=``: ``[x, y, fewest]`` for every square some
        placement reaches, the fewest spared creatures a placement reaching
        it catches; None without).

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = ag.BattleMap(ag.Grid(8, 2))
    >>> t = ag.threat_map(ag.Sphere(5), casters=[ag.Token(0, 0, name="a"), ag.Token(7, 0, name="b")], range=15, on=m)
    >>> r = threat_record(t, inputs={"shape": "sphere", "size": 5, "range": 15})
    >>> r["record"], r["count"], r["squares"][2:5]                  # [x, y, casters]: both reach the middle
    ('threat', 16, [[2, 0, 1], [3, 0, 2], [4, 0, 2]])
    >>> r["casters"][1]["token"]["name"], r["casters"][1]["moves"], r["casters"][1]["squares"][:3]
    ('b', [[7, 0]], [[3, 0], [4, 0], [5, 0]])

    Off the ground, the heights asked are in ``inputs``: a 5-ft burst on
    the ground misses a creature flying 10 ft up; from 10 ft up it reaches
    one in each square a ground burst reaches one on the ground:

    >>> a = [ag.Token(0, 0, name="a")]
    >>> int(ag.threat_map(ag.Sphere(5), casters=a, range=15, on=m, creature_elevation=10).mask.sum())
    0
    >>> up = ag.threat_map(ag.Sphere(5), casters=a, range=15, on=m, elevation=10, creature_elevation=10)
    >>> r = threat_record(up, inputs={"elevation": [10.0], "creature_elevation": 10.0})
    >>> r["inputs"], r["count"]
    ({'elevation': [10.0], 'creature_elevation': 10.0}, 10)
    """
    bmap = threat.on
    info = getattr(bmap, "info", None)
    count = np.asarray(threat.count)
    ys, xs = np.nonzero(count)
    spared = threat.spared
    w, h = threat.size
    return {
        "schema": SCHEMA,
        "record": "threat",
        "inputs": _inputs(inputs),
        "grid": _grid(bmap.grid, info),
        "map": _map_ref(info),
        "size": {"width": w, "height": h},
        "casters": [
            {"token": _token(t), "moves": _mask_squares(moves), "squares": _mask_squares(threat.by_caster[t.label])}
            for t, moves in zip(threat.casters, threat.moves)
        ],
        "count": len(xs),
        "squares": [[x, y, int(count[y, x])] for y, x in zip(ys.tolist(), xs.tolist())],
        "max_spared_hit": threat.max_spared_hit,
        "spared": None if spared is None else _counted(spared),
    }


def batch_record(row: int, area: AreaCore, *, inputs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One row of a batch of placements: its number and its area record.

    ``row`` is the row's line number in the batch's file (the header is
    line 1); ``inputs`` are the row's values with their types (see
    :func:`area_record`).

    Examples
    --------
    >>> import aoegrid as ag
    >>> r = batch_record(2, ag.area(ag.Sphere(5), at=(3, 3), on=ag.Grid(6, 6)), inputs={"name": "zap", "size": 5.0})
    >>> r["record"], r["row"], r["area"]["inputs"], r["area"]["count"]
    ('batch', 2, {'name': 'zap', 'size': 5.0}, 4)
    """
    return {"schema": SCHEMA, "record": "batch", "row": _row(row), "area": area_record(area, inputs=inputs)}


def error_record(row: int, message: str) -> dict[str, Any]:
    """A batch row that could not be computed: its number and the error's message.

    Examples
    --------
    >>> error_record(3, "column size must be a number, got 'ten'")
    {'schema': 'aoegrid/1', 'record': 'error', 'row': 3, 'message': "column size must be a number, got 'ten'"}
    """
    if not isinstance(message, str):
        raise InvalidTypeError(f"an error record's message must be a string, got {message!r}")
    return {"schema": SCHEMA, "record": "error", "row": _row(row), "message": message}


# --------------------------------------------------------------------------
# Foundry VTT
# --------------------------------------------------------------------------


def foundry_template(area: AreaCore, info: Any = None, *, fill_color: str = "#ff0000") -> dict[str, Any]:
    """The area as a Foundry VTT ``MeasuredTemplate`` document (v10 and later).

    Parameters
    ----------
    area : Area
        From :func:`aoegrid.area`, of a sphere, cylinder, cone, line or a
        cube pointing along the grid.
    info : MapInfo, optional
        The scene's grid: ``pixels_per_square`` (Foundry's grid size) and
        ``offset`` (its padding). By default the area's map's; without one,
        Foundry's default grid of 100 pixels and no padding.
    fill_color : str
        ``#rrggbb``.

    Returns
    -------
    dict
        ``t`` (``circle``, ``cone``, ``ray`` or ``rect``), ``x`` and ``y``
        (scene pixels, whole numbers as Foundry stores them: grid position
        times ``pixels_per_square`` plus ``offset``), ``elevation`` (the
        area's, in grid units, as Foundry v12+ stores a template's), ``direction``
        (degrees clockwise from east, as aoegrid counts them), ``distance``
        (grid units: feet, or the grid's unit), ``angle`` (cones: 90 for a
        quarter circle, 53.13 for a 5e triangle, Foundry's default; the
        teardrop's side angle, 23.07, for Savage Worlds), ``width`` (rays:
        the line's width under the rules, at least a square, as Foundry
        draws no ray thinner), ``borderColor``, ``fillColor``, ``hidden``
        and ``flags.aoegrid``: the area's ``rules``, ``mode``, ``shape``,
        ``origin``, ``count`` and exact ``squares`` (Foundry's outline is
        the template's geometry; the rules' squares are these).

        The template starts where the area does: a cone or line from a
        creature at the corner or edge the rules start it from; a sphere
        from a creature's space at the space's centre, its distance grown
        by half the space when the rules measure from its edges. A cube
        becomes a rect from its top-left corner (``direction`` 45, the
        diagonal as ``distance``).

    Raises
    ------
    InvalidValueError
        For a combined area, a shapable area, or a cube that does not
        point along the grid (Foundry's rects cannot turn).

    Examples
    --------
    >>> import aoegrid as ag
    >>> cone = ag.area(ag.Cone(30, "S"), at=(5, 5), on=ag.Grid(20, 20), rules="sw5e")
    >>> t = foundry_template(cone)
    >>> t["t"], t["x"], t["y"], t["direction"], t["distance"], round(t["angle"], 2)
    ('cone', 500, 500, 90.0, 30.0, 53.13)
    >>> cube = foundry_template(ag.area(ag.Cube(10, anchor="right"), at=(1, 3), on=ag.Grid(6, 4), rules="sw5e"))
    >>> cube["t"], cube["x"], cube["y"], cube["direction"], round(cube["distance"], 3)
    ('rect', 100, 100, 45.0, 14.142)
    """
    if not isinstance(area, AreaCore):
        return _board_template(area, info, fill_color)
    shape, rules, recipe = area.shape, area.rules, area.recipe
    if shape is None or rules is None or recipe is None:
        raise InvalidValueError(
            "a combined area has no one Foundry template: export each area it was made of"
        )
    _check_colour(fill_color)
    o = recipe.origin
    # From a space's edges a circle's reach grows by half the space (its circle is drawn round).
    grow = 0.0 if o.is_point else max(o.x1 - o.x0, o.y1 - o.y0) / 2 * area.grid.square
    flags = {
        "schema": SCHEMA, "rules": rules.name, "mode": None if area.mode is None else area.mode.value,
        "shape": _shape(shape), "origin": _origin(area.origin), "count": len(area),
        "squares": [[x, y] for x, y in area.squares],
    }
    at = ((o.x0 + o.x1) / 2, (o.y0 + o.y1) / 2)
    return _template(area, info, at, grow, recipe.elevation, flags, fill_color)


def _check_colour(fill_color: Any) -> None:
    if not (isinstance(fill_color, str) and len(fill_color) == 7 and fill_color[0] == "#"
            and all(c in "0123456789abcdefABCDEF" for c in fill_color[1:])):
        raise InvalidValueError(f"fill_color must be a colour #rrggbb, got {fill_color!r}")


def _template(area: Any, info: Any, at: tuple[float, float], grow: float, elevation: float,
              flags: dict[str, Any], fill_color: str) -> dict[str, Any]:
    """The MeasuredTemplate of ``area``'s shape from map point ``at`` (any lattice: its unit is ``cell_size``)."""
    shape, rules, grid = area.shape, area.rules, area.grid
    if info is None and area.battlemap is not None:
        info = area.battlemap.info
    unit = grid.cell_size
    # Foundry's default grid: 100 pixels a square or hex; on the open table, 100 pixels a medium creature's space.
    size = FOUNDRY_GRID_SIZE / (grid.square if isinstance(grid, Gridless) else 1.0)
    offset = (0.0, 0.0)
    if info is not None and info.pixels_per_square is not None:
        size, offset = info.pixels_per_square, info.offset
    if isinstance(shape, (Cone, Line)) and shape.pitch:
        raise InvalidValueError(
            f"a {shape.name} aimed {'up' if shape.pitch > 0 else 'down'} (pitch {shape.pitch:g}) has no Foundry "
            f"template: Foundry's templates lie level; export it with pitch=0, or its squares (area_record)"
        )
    doc: dict[str, Any] = {"direction": 0.0, "angle": 0.0, "width": 0.0}
    if isinstance(shape, (Sphere, Cylinder)):
        doc.update(t="circle", distance=shape.radius + grow)
    elif isinstance(shape, Cone):
        kind = ConeKind(shape.kind) if shape.kind is not None else rules.cone
        doc.update(t="cone", distance=shape.length, direction=shape.direction, angle=CONE_ANGLES[kind])
    elif isinstance(shape, Line):
        width = rules.line_width if shape.width is None else shape.width
        doc.update(t="ray", distance=shape.length, direction=shape.direction, width=max(width, unit))
    elif isinstance(shape, Cube):
        at = _cube_corner(shape, at, unit)
        doc.update(t="rect", distance=shape.size * math.sqrt(2), direction=45.0)
    else:
        raise InvalidValueError(
            f"a {shape.name} area has no Foundry template (Foundry draws circles, cones, rays and rects)"
        )
    return {
        "t": doc["t"],
        "x": round(at[0] * size + offset[0]),
        "y": round(at[1] * size + offset[1]),
        "elevation": float(elevation),
        "distance": float(doc["distance"]),
        "direction": float(doc["direction"]),
        "angle": float(doc["angle"]),
        "width": float(doc["width"]),
        "borderColor": "#000000",
        "fillColor": fill_color.lower(),
        "hidden": False,
        "flags": {"aoegrid": flags},
    }


def _board_template(area: Any, info: Any, fill_color: str) -> dict[str, Any]:
    """:func:`foundry_template` of an area on hexes (flags list its ``hexes``) or on the open table."""
    _check_colour(fill_color)
    grid = area.grid
    source = area.source
    grow = 0.0
    if source is not None and isinstance(area.shape, (Sphere, Cylinder)):
        # An emanation is measured from the creature's hexes (its footprint's edge): drawn round, half of it wider.
        grow = (source.footprint[0] * grid.size / 2 if isinstance(grid, HexGrid)
                else source.radius(grid) if area.rules.from_space.value == "edges" else 0.0)
    flags = {"schema": SCHEMA, "rules": area.rules.name, "mode": area.mode.value, "shape": _shape(area.shape),
             "origin": {"point": [float(v) for v in area.origin]}}
    if isinstance(grid, HexGrid):
        flags.update(count=len(area), hexes=[[c, r] for c, r in area.hexes])
    return _template(area, info, area.origin, grow, getattr(area, "elevation", 0.0), flags, fill_color)


def _cube_corner(cube: Cube, at: tuple[float, float], square: float) -> tuple[float, float]:
    """The top-left corner of a cube pointing along the grid, whose near face holds ``at``."""
    direction = float(cube.direction)  # a shape's direction is degrees once validated
    if direction % 90:
        raise InvalidValueError(
            f"a cube pointing {direction:g} degrees has no Foundry template: Foundry's rects "
            f"are upright; point it at 0, 90, 180 or 270 degrees"
        )
    d = math.radians(direction)
    side = cube.size / square
    ahead = (round(math.cos(d)), round(math.sin(d)))
    right = (-ahead[1], ahead[0])  # looking along the cube's direction, on screen (y down)
    # Where the near face runs, in sides along `right`, from the origin.
    lo, hi = {Anchor.CENTER: (-0.5, 0.5), Anchor.LEFT: (0.0, 1.0), Anchor.RIGHT: (-1.0, 0.0)}[Anchor(cube.anchor)]
    corners = [
        (at[0] + (s * right[0] + f * ahead[0]) * side, at[1] + (s * right[1] + f * ahead[1]) * side)
        for s in (lo, hi) for f in (0.0, 1.0)
    ]
    return min(c[0] for c in corners), min(c[1] for c in corners)


# --------------------------------------------------------------------------
# Parts
# --------------------------------------------------------------------------


def _board_area_record(area: Any, inputs: Mapping[str, Any] | None, info: Any) -> dict[str, Any]:
    """:func:`area_record` of an area on hexes (``hex-area``) or on the open table (``open-area``)."""
    grid, bmap = area.grid, area.battlemap
    if info is None and bmap is not None:
        info = bmap.info
    hexes = isinstance(grid, HexGrid)
    source = area.source
    out: dict[str, Any] = {
        "schema": SCHEMA,
        "record": "hex-area" if hexes else "open-area",
        "inputs": _inputs(inputs),
        "grid": _grid(grid, info),
        "map": _map_ref(info),
        "rules": area.rules.name,
        "mode": area.mode.value,
        "shape": _shape(area.shape),
        "origin": {"point": [float(v) for v in area.origin]},
    }
    if source is not None:
        out["origin"]["token"] = source.label
    if hexes:
        cols, rows = (np.array(v, dtype=np.int64) for v in zip(*area.hexes, strict=True)) if len(area) else ([], [])
        q, r, s_ = grid.to_cube(cols, rows)
        names = GRADES[area.rules.cover]
        grades = area.cover
        out.update(
            count=len(area),
            hexes=[[c, w] for c, w in area.hexes],
            cube=[[int(a), int(b), int(c)] for a, b, c in zip(np.atleast_1d(q), np.atleast_1d(r), np.atleast_1d(s_),
                                                              strict=True)],
            cover=[{"hex": [c, w], "grade": names[Cover(int(grades[w, c]))][0],
                    "visible": round(float(area.visible[w, c]), 6)}
                   for c, w in area.hexes if grades[w, c] > Cover.NONE],
            blocked=_mask_squares(area.shape_mask & ~area.mask),  # [col, row]
        )
    else:
        out.update(size=round(float(area.geometry.area), 6), geometry=_polygons(area.geometry))
    out["tokens"] = [_reached(r) for r in area.tokens()] if bmap is not None else []
    return out


def _polygons(geometry: Any) -> list[dict[str, Any]]:
    """A shapely (multi)polygon as ``{"exterior", "holes"}`` rings of ``[x, y]``, their last point not repeated."""
    import shapely

    def ring(r: Any) -> list[list[float]]:
        return [[round(x, 9), round(y, 9)] for x, y in r.coords[:-1]]

    parts = shapely.get_parts(geometry)
    return [{"exterior": ring(p.exterior), "holes": [ring(h) for h in p.interiors]}
            for p in parts if isinstance(p, shapely.Polygon) and not p.is_empty]


def _grid(grid: Any, info: Any) -> dict[str, Any]:
    pixels = None if info is None else info.pixels_per_square
    if isinstance(grid, HexGrid):
        return {"lattice": "hex", "width": grid.width, "height": grid.height, "orientation": grid.orientation.value,
                "stagger": grid.offset.value, "layout": grid.layout, "foundry_type": grid.foundry_type,
                "size": grid.size, "units": grid.units, "pixels_per_unit": pixels,
                "offset": None if pixels is None else list(info.offset)}
    if isinstance(grid, Gridless):
        return {"lattice": "gridless", "width": grid.width, "height": grid.height, "units": grid.units,
                "square": grid.square, "pixels_per_unit": pixels,
                "offset": None if pixels is None else list(info.offset)}
    return {
        "width": grid.width,
        "height": grid.height,
        "square": grid.square,
        "units": grid.units,
        "pixels_per_square": pixels,
        "offset": None if pixels is None else list(info.offset),
    }


def _map_ref(info: Any) -> dict[str, Any] | None:
    """The map file a record's squares come from (``source``, ``format``), or None."""
    return None if info is None else {"source": info.source, "format": info.format}


def _mask_squares(mask: Any) -> list[list[int]]:
    """The squares of an ``(H, W)`` bool mask, ``[x, y]`` sorted by y, then x."""
    ys, xs = np.nonzero(mask)
    return [[x, y] for y, x in zip(ys.tolist(), xs.tolist())]


def _counted(values: Any) -> list[list[int]]:
    """``[x, y, n]`` for every finite value ``n`` of an ``(H, W)`` array, sorted by y, then x."""
    ys, xs = np.nonzero(np.isfinite(values))
    return [[x, y, int(values[y, x])] for y, x in zip(ys.tolist(), xs.tolist())]


def _wall(w: Any) -> dict[str, Any]:
    """A wall as given; ``bottom`` and ``top`` only where they are finite (a wall spans every height without)."""
    out = {"start": list(w.start), "end": list(w.end), "kind": w.kind.value, "open": w.open,
           "blocks": sorted(c.value for c in w.blocks), "one_way": None if w.one_way is None else w.one_way.value}
    out.update({key: value for key, value in (("bottom", w.bottom), ("top", w.top)) if math.isfinite(value)})
    return out


def _floor(f: Any) -> dict[str, Any]:
    """A floor: its ``elevation``, its outline ``polygon`` and its ``holes``, rings of ``[x, y]`` left open."""
    def ring(r: Any) -> list[list[float]]:
        return [[x, y] for x, y in r.coords[:-1]]

    return {"elevation": f.elevation, "polygon": ring(f.polygon.exterior), "holes": [ring(h) for h in f.polygon.interiors]}


def _bound(value: float) -> float | None:
    """A level's bottom or top; None (JSON null) for an unbounded end."""
    return value if math.isfinite(value) else None


def _terrain(bmap: Any) -> dict[str, list[list[int]]] | None:
    """A map's terrain as the squares of each kind but open, or None without terrain."""
    if not getattr(bmap, "has_terrain", False):
        return None
    kinds = bmap.terrain
    return {t.value: _mask_squares(kinds == t.code) for t in Terrain if t is not Terrain.OPEN}


def _shape(shape: Any) -> dict[str, Any]:
    """A shape's name (as ``shape``) and fields; a cone's ``kind`` as ``cone_kind``; a pitch only when not 0."""
    out: dict[str, Any] = {"shape": shape.name}
    for f in dataclasses.fields(shape):
        value = getattr(shape, f.name)
        if f.name == "pitch" and not value:
            continue
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, frozenset):  # a shapable area's squares
            value = [list(s) for s in sorted(value)]
        out["cone_kind" if f.name == "kind" else f.name] = value
    return out


def _origin(origin: Any) -> dict[str, Any]:
    if isinstance(origin, Token):
        return {"space": _space(origin.space), "token": origin.label}
    if isinstance(origin, Space):
        return {"space": _space(origin)}
    x, y = origin
    return {"point": [float(x), float(y)]}


def _space(s: Space) -> dict[str, int]:
    return {"x": s.x, "y": s.y, "width": s.width, "height": s.height}


def _token(t: Token | OpenToken) -> dict[str, Any]:
    if isinstance(t, OpenToken):
        return {"name": t.name, "x": t.x, "y": t.y, "size": t.squares_across, "footprint": t.footprint.value,
                "width": t.width, "depth": t.depth, "elevation": t.elevation, "tall": t.height, "tags": sorted(t.tags)}
    w, h = t.footprint
    return {"name": t.name, "x": t.x, "y": t.y, "width": w, "height": h, "elevation": t.elevation,
            "tall": t.height, "tags": sorted(t.tags)}


def _reached(r: Reached) -> dict[str, Any]:
    return {"token": _token(r.token), "cover": r.cover_name, "distance": r.distance,
            "squares": [list(s) for s in r.squares]}


def _row(row: int) -> int:
    if isinstance(row, bool) or not isinstance(row, int) or row < 1:
        raise InvalidValueError(f"a batch row number must be a whole number from 1, got {row!r}")
    return row


def _inputs(inputs: Mapping[str, Any] | None) -> dict[str, Any]:
    if inputs is None:
        return {}
    if not isinstance(inputs, Mapping):
        raise InvalidTypeError(f"inputs must be a mapping of names to values, got {inputs!r}")
    return {_key(k, "inputs"): _json(v, f"inputs.{k}") for k, v in inputs.items()}


def _key(key: object, where: str) -> str:
    if not isinstance(key, str):
        raise InvalidTypeError(f"{where} keys must be strings, got {key!r}")
    return key


def _json(value: Any, where: str) -> Any:
    """``value`` as JSON data with its type kept: numbers stay numbers."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, Enum):
        return _json(value.value, where)
    if isinstance(value, np.generic):
        return _json(value.item(), where)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidValueError(f"{where} must be a finite number to be JSON, got {value}")
        return value
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_json(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, Mapping):
        return {_key(k, where): _json(v, f"{where}.{k}") for k, v in value.items()}
    raise InvalidTypeError(
        f"{where} must be JSON data (a string, number, boolean, None, list or mapping), "
        f"got {value!r} of type {type(value).__name__}"
    )
