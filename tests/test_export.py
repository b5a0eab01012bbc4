"""aoegrid's JSON format (aoegrid/1): every record kind, validated against the shipped schema."""

import json
import math
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import numpy as np
import pytest
import shapely

import aoegrid as ag
from aoegrid.io.export import (
    SCHEMA,
    area_record,
    batch_record,
    error_record,
    foundry_template,
    map_record,
    placement_record,
    schema,
    threat_record,
    validate,
)

MAPS = Path(__file__).resolve().parent / "data"
ROOM = MAPS / "sample-room-imagix.noimage.dd2vtt"  # map_origin (2, 1), 256 px a square


def valid(record: dict) -> dict:
    """The record, after checking it is JSON (no NaN) and valid aoegrid/1."""
    assert json.loads(json.dumps(record, allow_nan=False)) == record
    return validate(record)


def corridor() -> ag.BattleMap:
    walls = ag.walls_from([(0, 2), (8, 2), (8, 12)]) + ag.walls_from([(0, 4), (6, 4), (6, 12)])
    return ag.BattleMap(ag.Grid(10, 12), walls=walls, tokens=[ag.Token(1, 2, name="orc", tags={"hostile"})])


# --------------------------------------------------------------------------
# The schema itself
# --------------------------------------------------------------------------


def test_the_schema_ships_with_the_package_and_is_draft_2020_12():
    shipped = resources.files("aoegrid") / "data" / "aoegrid.schema.json"
    assert json.loads(shipped.read_text()) == schema()
    jsonschema.Draft202012Validator.check_schema(schema())
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    mine = schema()
    mine["properties"].clear()  # a copy: changing it changes nothing aoegrid validates with
    assert schema()["properties"]["schema"]["const"] == SCHEMA == "aoegrid/1"


def test_validate_names_the_field_that_breaks_the_schema():
    r = area_record(ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 10)))
    r["squares"][3] = [1.5, 2]
    with pytest.raises(ag.InvalidValueError, match=r"not a valid aoegrid/1 record: at squares\[3\]\[0\]: 1\.5 is not of type 'integer'"):
        validate(r)
    with pytest.raises(ag.InvalidValueError, match=r"at record: 'circle' is not one of"):
        validate({"schema": "aoegrid/1", "record": "circle"})
    with pytest.raises(ag.InvalidValueError, match=r"at schema: 'aoegrid/1' was expected"):
        validate({"schema": "aoegrid/2", "record": "error", "row": 1, "message": "x"})


def test_validate_without_jsonschema_says_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "jsonschema", None)  # as if it were not installed
    with pytest.raises(ag.InvalidValueError, match=r"needs the jsonschema package: pip install jsonschema"):
        validate(error_record(2, "x"))


# --------------------------------------------------------------------------
# Every record kind validates
# --------------------------------------------------------------------------


def test_area_on_a_grid_and_on_a_map_have_the_same_keys():
    on_grid = valid(area_record(ag.area(ag.Sphere(20), at=(5, 3), on=ag.Grid(10, 12))))
    on_map = valid(area_record(ag.area(ag.Sphere(20), at=(5, 3), on=corridor())))
    assert list(on_grid) == list(on_map) == [
        "schema", "record", "inputs", "grid", "map", "rules", "mode", "shape", "origin", "elevation",
        "count", "squares", "cover", "blocked", "tokens",
    ]
    assert (on_grid["cover"], on_grid["blocked"], on_grid["tokens"]) == ([], [], [])
    assert on_map["blocked"] and on_map["tokens"][0]["token"]["name"] == "orc"
    assert on_grid["grid"] == {"width": 10, "height": 12, "square": 5.0, "units": "ft",
                               "pixels_per_square": None, "offset": None}
    assert on_grid["map"] is None and on_map["map"] is None  # a map built in code has no file


def test_cover_entries_are_labelled():
    r = valid(area_record(ag.area(ag.Sphere(40), at=(2, 3), on=corridor())))
    assert {"square": [7, 4], "grade": "cover", "visible": 0.375} in r["cover"]
    assert all(set(c) == {"square", "grade", "visible"} for c in r["cover"])
    fifth = valid(area_record(ag.area(ag.Sphere(40), at=(2, 3), on=corridor(), rules="sw5e")))
    assert {c["grade"] for c in fifth["cover"]} <= {"half cover", "three-quarters cover"}


def test_a_cone_is_a_cone_and_its_kind_is_cone_kind():
    # Issue 13: the Cone's own kind (None) overwrote "kind": "cone".
    r = valid(area_record(ag.area(ag.Cone(30, "E"), at=(2, 6), on=ag.Grid(12, 12))))
    assert r["shape"] == {"shape": "cone", "length": 30.0, "direction": 0.0, "cone_kind": None, "units": None}
    tri = valid(area_record(ag.area(ag.Cone(30, "E", kind="triangle"), at=(2, 6), on=ag.Grid(12, 12))))
    assert tri["shape"]["cone_kind"] == "triangle"
    sw = ag.area(ag.savage_worlds.CONE, at=(2, 6), on=ag.Grid(12, 12, units="in"), rules="savage-worlds")
    assert valid(area_record(sw))["shape"]["units"] == "in"
    shapes = [ag.Sphere(10), ag.Cylinder(10, 20), ag.Line(30, "S"), ag.Cube(10, "E", anchor="left"),
              ag.Shapable([(0, 0), (1, 0), (0, 1), (1, 1)])]
    names = [valid(area_record(ag.area(s, at=(4, 4), on=ag.Grid(12, 12))))["shape"]["shape"] for s in shapes]
    assert names == ["sphere", "cylinder", "line", "cube", "shapable"]


def test_origins_are_a_point_or_a_space_whatever_the_origin():
    # Issue 13: [x, y] or [x0, y0, x1, y1] depending on the origin.
    grid = ag.Grid(12, 12)
    point = valid(area_record(ag.area(ag.Sphere(10), at=(4, 4), on=grid)))
    space = valid(area_record(ag.area(ag.Sphere(10), at=ag.Token(4, 4, size="large"), on=grid, rules="pf2e",
                                      mode="emanation")))
    assert point["origin"] == {"point": [4.0, 4.0]}
    assert space["origin"] == {"space": {"x": 4, "y": 4, "width": 2, "height": 2}}


def test_a_combined_area_exports():
    # Issue 13: a | b could not be exported at all.
    grid = ag.Grid(10, 10)
    a, b = ag.area(ag.Sphere(5), at=(2, 2), on=grid), ag.area(ag.Sphere(5), at=(6, 6), on=grid)
    for combined in (a | b, a & b, a - b):
        r = valid(area_record(combined, inputs={"op": "union"}))
        assert r["record"] == "combined" and r["count"] == len(combined)
        assert r["squares"] == [list(s) for s in combined.squares]
    m = ag.load_map(ROOM)
    on_map = ag.area(ag.Sphere(5), at=(4, 4), on=m) | ag.area(ag.Sphere(5), at=(4, 6), on=m)
    assert valid(area_record(on_map))["grid"]["pixels_per_square"] is None  # a combination keeps no map
    assert valid(area_record(on_map, info=m.info))["grid"]["offset"] == [512.0, 256.0]


def test_squares_map_back_to_the_files_pixels():
    # Issue 13: map_origin and pixels per square were read and thrown away.
    m = ag.load_map(ROOM)
    r = valid(area_record(ag.area(ag.Sphere(10), at=(4, 4), on=m)))
    g = r["grid"]
    assert (g["pixels_per_square"], g["offset"]) == (256.0, [512.0, 256.0])
    assert r["map"] == {"source": str(ROOM), "format": "uvtt 0.3"}
    # Grid (4, 4) is (6, 5) canvas squares in the file, as its walls are drawn.
    x, y = r["origin"]["point"]
    assert (x * g["pixels_per_square"] + g["offset"][0], y * g["pixels_per_square"] + g["offset"][1]) == (1536, 1280)


def test_map_records_of_each_format_and_of_a_map_made_in_code():
    demo = valid(map_record(ag.demo_map()))
    assert (demo["format"], demo["embedded_image"], len(demo["walls"]), demo["background"]) == ("uvtt 0.3", True, 250, None)
    assert demo["grid"]["pixels_per_square"] == 64.0 and demo["lights"][0]["color"] == "ffeccd8b"
    assert demo["walls"][0] == {"start": demo["walls"][0]["start"], "end": demo["walls"][0]["end"], "kind": "wall",
                                "open": False, "blocks": ["effect", "movement", "sight"], "one_way": None}
    text = valid(map_record(ag.read_text_map("#####\n#a+.#\n#####")))
    assert text["tokens"] == [{"name": "a", "x": 1, "y": 1, "width": 1, "height": 1, "elevation": 0.0, "tall": None,
                               "tags": []}]
    assert text["grid"]["pixels_per_square"] is None
    made = valid(map_record(corridor()))
    assert (made["source"], made["format"], made["embedded_image"]) == (None, None, False)


def test_placement_records():
    m = ag.BattleMap(ag.Grid(14, 14), tokens=[
        ag.Token(6, 6, name="orc", tags={"enemy"}), ag.Token(7, 6, name="goblin", tags={"enemy"}),
        ag.Token(1, 1, name="me"), ag.Token(9, 9, name="ally", tags={"friend"})])
    best = ag.best_placements(ag.Sphere(10), caster=m.token("me"), range=60, on=m, hit="enemy", avoid="friend",
                              limit=2)
    for p in best:
        r = valid(placement_record(p))
        assert r["record"] == "placement" and r["area"]["record"] == "area"
        assert r["score"] == 2.0 and sorted(h["token"]["name"] for h in r["hits"]) == ["goblin", "orc"]
        assert r["area"]["origin"] == r["at"]
    cone = ag.best_placements(ag.Cone(15), caster=m.token("me"), on=m, hit="enemy", max_avoid=None)[0]
    r = valid(placement_record(cone))
    assert r["at"] == {"space": {"x": 1, "y": 1, "width": 1, "height": 1}, "token": "me"}
    assert isinstance(r["direction"], float)


def test_placement_records_say_where_the_caster_stands_after_moving():
    m = ag.BattleMap(ag.Grid(14, 14), tokens=[
        ag.Token(6, 6, name="orc", tags={"enemy"}), ag.Token(7, 6, name="goblin", tags={"enemy"}),
        ag.Token(1, 1, name="me"), ag.Token(9, 9, name="ally", tags={"friend"})])
    moved = ag.best_placements(ag.Sphere(10), caster=m.token("me"), range=15, on=m, hit="enemy", avoid="friend",
                               move=20, limit=2)
    r = valid(placement_record(moved[0]))
    assert (r["at"], r["score"], r["distance"]) == ({"point": [7.0, 5.0]}, 2.0, 15.0)
    assert (r["stand"], r["path"], r["cost"]) == ([4, 2], [[1, 1], [2, 1], [3, 1], [4, 2]], 15.0)
    assert [(p.stand.x, p.stand.y) for p in moved] == [(4, 2), (4, 2)]
    assert list(r)[-3:] == ["stand", "path", "cost"]
    cone = ag.best_placements(ag.Cone(15), caster=m.token("me"), on=m, hit="enemy", max_avoid=None, move=20)[0]
    c = valid(placement_record(cone))   # a cone starts where its caster stands
    assert c["at"] == {"space": {"x": 4, "y": 4, "width": 1, "height": 1}, "token": "me"}
    assert (c["stand"], c["path"], c["cost"]) == ([4, 4], [[1, 1], [2, 2], [3, 3], [4, 4]], 20.0)
    still = valid(placement_record(ag.best_placements(ag.Sphere(10), caster=m.token("me"), range=60, on=m,
                                                      hit="enemy")[0]))
    assert (still["stand"], still["path"], still["cost"]) == (None, [], 0.0)


def test_records_written_before_the_optional_fields_still_validate():
    """aoegrid/1 gains optional fields only: a placement without stand, path and cost, a map without terrain,
    floors and levels, a token without tall."""
    m = ag.BattleMap(ag.Grid(8, 8), tokens=[ag.Token(5, 5, name="orc", tags={"enemy"}), ag.Token(0, 0, name="me")])
    old = placement_record(ag.best_placements(ag.Sphere(10), caster=m.token("me"), on=m, hit="enemy")[0])
    for key in ("stand", "path", "cost"):
        del old[key]
    valid(old)
    old_map = map_record(m)
    for key in ("terrain", "floors", "levels"):
        del old_map[key]
    for t in old_map["tokens"]:
        del t["tall"]
    valid(old_map)
    tall = map_record(ag.BattleMap(ag.Grid(8, 8), tokens=[ag.Token(1, 1, elevation=30, height=12.5)]))
    assert valid(tall)["tokens"][0]["tall"] == 12.5 and tall["tokens"][0]["elevation"] == 30.0
    tall["tokens"][0]["tall"] = 0
    with pytest.raises(ag.InvalidValueError, match=r"tall: 0 is less than or equal to the minimum of 0"):
        validate(tall)
    bad = placement_record(ag.best_placements(ag.Sphere(10), caster=m.token("me"), on=m, hit="enemy", move=5)[0])
    bad["cost"] = -5.0
    with pytest.raises(ag.InvalidValueError, match=r"at cost: -5\.0 is less than the minimum of 0"):
        validate(bad)


def test_map_records_carry_the_terrain():
    m = ag.read_text_map("########\n#a.~~..#\n#..^%..#\n#....b.#\n########")
    r = valid(map_record(m))
    assert r["terrain"] == {"difficult": [[3, 1], [4, 1]], "greater-difficult": [[3, 2]], "impassable": [[4, 2]]}
    assert valid(map_record(corridor()))["terrain"] is None


def test_map_records_carry_wall_heights_floors_and_levels():
    stair = shapely.Polygon([(0, 0), (10, 0), (10, 8), (0, 8)], [[(2, 2), (4, 2), (4, 4), (2, 4)]])
    m = ag.BattleMap(ag.Grid(10, 8), walls=[ag.Wall((5, 0), (5, 8), top=10), ag.Wall((0, 4), (5, 4), bottom=-5, top=0),
                                           ag.Wall((5, 4), (10, 4))],
                     floors=[ag.Floor(stair, 10), ag.Floor([(0, 0), (3, 0), (3, 3)], -2.5)])
    r = valid(map_record(m))
    assert [{k: w[k] for k in ("bottom", "top") if k in w} for w in r["walls"]] == [
        {"top": 10.0}, {"bottom": -5.0, "top": 0.0}, {}]
    assert r["floors"] == [
        {"elevation": 10.0, "polygon": [[0.0, 0.0], [10.0, 0.0], [10.0, 8.0], [0.0, 8.0]],
         "holes": [[[2.0, 2.0], [4.0, 2.0], [4.0, 4.0], [2.0, 4.0]]]},
        {"elevation": -2.5, "polygon": [[0.0, 0.0], [3.0, 0.0], [3.0, 3.0]], "holes": []}]
    assert r["levels"] == []
    # The floors read back as the same floors.
    assert [ag.Floor(shapely.Polygon(f["polygon"], f["holes"]), f["elevation"]) for f in r["floors"]] == list(m.floors)
    r["walls"][0]["top"] = None  # an unbounded end is left out, never null
    with pytest.raises(ag.InvalidValueError, match=r"at walls\[0\]\.top: None is not of type 'number'"):
        validate(r)
    r["walls"][0]["top"] = 10.0
    r["floors"][1]["polygon"] = [[0, 0], [1, 1]]
    with pytest.raises(ag.InvalidValueError, match=r"at floors\[1\]\.polygon: .* is too short"):
        validate(r)


def test_threat_records():
    m = ag.BattleMap(ag.Grid(7, 3), tokens=[ag.Token(3, 1, name="pal", tags={"ally"})])
    t = ag.threat_map(ag.Sphere(5), casters=[ag.Token(0, 1, name="a")], range=15, on=m, spare="ally")
    r = valid(threat_record(t, inputs={"shape": "sphere", "size": 5.0, "range": 15, "spare": ["ally"]}))
    assert list(r) == ["schema", "record", "inputs", "grid", "map", "size", "casters", "count", "squares",
                       "max_spared_hit", "spared"]
    assert (r["record"], r["inputs"]["spare"], r["size"], r["max_spared_hit"]) == (
        "threat", ["ally"], {"width": 1, "height": 1}, 0)
    # Pal's square and the one past it are reached only by bursts that catch pal: not counted, spared 1.
    assert r["count"] == 13 and r["squares"][5:9] == [[0, 1, 1], [1, 1, 1], [2, 1, 1], [0, 2, 1]]
    assert [3, 1, 1] in r["spared"] and [4, 1, 1] in r["spared"] and [2, 1, 0] in r["spared"]
    assert len(r["spared"]) == 15 and not any(x >= 5 for x, _, _ in r["spared"])
    (caster,) = r["casters"]
    assert caster["token"]["name"] == "a" and caster["moves"] == [[0, 1]]
    assert caster["squares"] == [[x, y] for x, y, _ in r["squares"]]
    # Two casters, one moving: the counts and each caster's squares are threat_map's.
    text = ag.read_text_map("########\n#a.~~..#\n#..^%..#\n#....b.#\n########")
    two = ag.threat_map(ag.Sphere(5), casters=["a", "b"], range=5, move=[0, 10], on=text)
    r = valid(threat_record(two))
    assert r["spared"] is None and r["max_spared_hit"] is None and r["map"] == {"source": "<text>", "format": "text"}
    assert r["squares"] == [[x, y, int(two.count[y, x])] for y, x in zip(*np.nonzero(two.count))]
    assert [1, 1, 2] in r["squares"] and r["count"] == int(np.count_nonzero(two.count))
    assert r["casters"][1]["moves"] == [[x, y] for y, x in zip(*np.nonzero(two.moves[1]))]
    assert r["casters"][1]["squares"] == [[x, y] for y, x in zip(*np.nonzero(two.by_caster["b"]))]
    r["squares"][0] = [1, 1]
    with pytest.raises(ag.InvalidValueError, match=r"at squares\[0\]: \[1, 1\] is too short"):
        validate(r)


def test_threat_records_echo_the_heights_asked():
    # A Threat keeps no heights: they travel in inputs, typed by the schema as threat_map takes them.
    low = ag.BattleMap(ag.Grid(9, 5), walls=[ag.Wall((4, 0), (4, 5), top=10)])
    bat = ag.Token(1, 2, name="bat", elevation=20)
    t = ag.threat_map(ag.Sphere(20), casters=[bat], range=10, elevation=[0, 20], creature_elevation=15, on=low)
    heights = {"elevation": [0.0, 20.0], "pitches": None, "creature_elevation": 15.0}
    r = valid(threat_record(t, inputs=heights))
    assert r["inputs"] == heights and r["casters"][0]["token"]["elevation"] == 20
    assert r["count"] == int(t.mask.sum()) and [6, 2, 1] in r["squares"]  # behind the 10-ft wall, from 20 ft up
    assert valid(threat_record(t, inputs={"elevation": 20, "pitches": [-90, 0, 90]}))["inputs"]["elevation"] == 20
    for key, bad, message in (("creature_elevation", "15", "'15' is not of type 'number'"),
                              ("elevation", [], r"\[\] "),  # no height: jsonschema's wording varies
                              ("pitches", [95], "95 is greater than the maximum of 90")):
        with pytest.raises(ag.InvalidValueError, match=rf"at inputs\.{key}.*: {message}"):
            validate(threat_record(t, inputs={key: bad}))


def test_batch_and_error_records_echo_inputs_with_their_types():
    # Issue 13: batch echoed its inputs as strings.
    a = ag.area(ag.Cone(30, "E"), at=(2, 6), on=ag.demo_map(), rules="sw5e")
    inputs = {"name": "breath", "shape": "cone", "size": 30.0, "x": 2.0, "y": 6.0, "direction": "E",
              "width": None, "rules": "sw5e", "mode": ag.Mode.BURST, "at": (2, 6), "map": Path("cave.dd2vtt")}
    r = valid(batch_record(3, a, inputs=inputs))
    assert (r["record"], r["row"]) == ("batch", 3)
    assert r["area"]["inputs"] == {"name": "breath", "shape": "cone", "size": 30.0, "x": 2.0, "y": 6.0,
                                   "direction": "E", "width": None, "rules": "sw5e", "mode": "burst",
                                   "at": [2, 6], "map": "cave.dd2vtt"}
    e = valid(error_record(4, "placements.csv, row 4: column size must be a number, got 'ten'"))
    assert e == {"schema": "aoegrid/1", "record": "error", "row": 4,
                 "message": "placements.csv, row 4: column size must be a number, got 'ten'"}


def test_inputs_that_are_not_json_are_refused_naming_the_key():
    a = ag.area(ag.Sphere(5), at=(2, 2), on=ag.Grid(5, 5))
    with pytest.raises(ag.InvalidValueError, match=r"inputs\.size must be a finite number to be JSON, got nan"):
        area_record(a, inputs={"size": math.nan})
    with pytest.raises(ag.InvalidTypeError, match=r"inputs\.at\[1\] must be JSON data .* got \{1\} of type set"):
        area_record(a, inputs={"at": [1, {1}]})
    with pytest.raises(ag.InvalidTypeError, match=r"inputs keys must be strings, got 1"):
        area_record(a, inputs={1: "x"})
    with pytest.raises(ag.InvalidValueError, match=r"row number must be a whole number from 1, got 0"):
        batch_record(0, a)
    with pytest.raises(ag.InvalidTypeError, match=r"message must be a string"):
        error_record(1, None)


# --------------------------------------------------------------------------
# Foundry templates
# --------------------------------------------------------------------------


def test_foundry_templates_of_each_shape():
    grid = ag.Grid(20, 20)
    circle = foundry_template(ag.area(ag.Sphere(20), at=(10, 10), on=grid))
    assert {k: circle[k] for k in ("t", "x", "y", "distance", "direction")} == {
        "t": "circle", "x": 1000, "y": 1000, "distance": 20.0, "direction": 0.0}
    angles = {rules: foundry_template(ag.area(ag.Cone(30, "S"), at=(5, 5), on=grid, rules=rules))["angle"]
              for rules in ("starfinder", "sw5e")}
    assert angles["starfinder"] == 90.0 and round(angles["sw5e"], 2) == 53.13
    sw = ag.area(ag.savage_worlds.CONE, at=(5, 5), on=ag.Grid(20, 20, units="in"), rules="savage-worlds")
    assert round(foundry_template(sw)["angle"], 2) == 23.07
    ray = foundry_template(ag.area(ag.Line(30, "NE"), at=(5, 5), on=grid, rules="pf2e"))
    assert (ray["t"], ray["direction"], ray["width"], ray["distance"]) == ("ray", 315.0, 5.0, 30.0)
    thin = foundry_template(ag.area(ag.Line(30, "E", width=10), at=(5, 5), on=grid, rules="sw5e"))
    assert thin["width"] == 10.0
    assert foundry_template(ag.area(ag.Line(30, "E"), at=(5, 5), on=grid))["width"] == 5.0  # Starfinder: 0 drawn as 1 square


@pytest.mark.parametrize(("direction", "anchor", "corner"), [
    ("E", "center", (5, 4)), ("E", "left", (5, 5)), ("E", "right", (5, 3)),
    ("S", "center", (4, 5)), ("W", "center", (3, 4)), ("N", "left", (5, 3)), ("N", "right", (3, 3)),
])
def test_a_cube_is_a_rect_from_its_top_left_corner(direction, anchor, corner):
    a = ag.area(ag.Cube(10, direction, anchor=anchor), at=(5, 5), on=ag.Grid(12, 12), rules="sw5e")
    t = foundry_template(a)
    assert (t["t"], t["direction"], round(t["distance"], 6)) == ("rect", 45.0, round(10 * math.sqrt(2), 6))
    assert (t["x"], t["y"]) == (corner[0] * 100, corner[1] * 100)
    # The rect covers exactly the cube's squares.
    xs = sorted({x for x, _ in a.squares})
    ys = sorted({y for _, y in a.squares})
    assert (xs[0], ys[0], len(xs), len(ys)) == (*corner, 2, 2)


def test_a_sphere_from_a_creature_grows_by_half_its_space_when_measured_from_edges():
    big = ag.Token(4, 4, size="large")
    edges = foundry_template(ag.area(ag.Sphere(10), at=big, on=ag.Grid(12, 12), rules="pf2e", mode="emanation"))
    centre = foundry_template(ag.area(ag.Sphere(10), at=big, on=ag.Grid(12, 12), rules="starfinder"))
    assert (edges["x"], edges["y"], edges["distance"]) == (500, 500, 15.0)
    assert (centre["x"], centre["y"], centre["distance"]) == (500, 500, 10.0)


def test_foundry_template_refuses_what_foundry_cannot_draw():
    grid = ag.Grid(12, 12)
    a = ag.area(ag.Sphere(5), at=(2, 2), on=grid)
    with pytest.raises(ag.InvalidValueError, match=r"a combined area has no one Foundry template"):
        foundry_template(a | a)
    with pytest.raises(ag.InvalidValueError, match=r"a shapable area has no Foundry template"):
        foundry_template(ag.area(ag.Shapable([(0, 0), (1, 0), (0, 1), (1, 1)]), at=(4, 4), on=grid))
    with pytest.raises(ag.InvalidValueError, match=r"a cube pointing 45 degrees has no Foundry template"):
        foundry_template(ag.area(ag.Cube(10, "SE"), at=(4, 4), on=grid, rules="sw5e"))
    with pytest.raises(ag.InvalidValueError, match=r"fill_color must be a colour #rrggbb, got 'red'"):
        foundry_template(a, fill_color="red")


def test_template_flags_carry_the_exact_squares():
    a = ag.area(ag.Sphere(20), at=(5, 3), on=corridor())
    flags = foundry_template(a, fill_color="#00FF00")["flags"]["aoegrid"]
    assert flags["squares"] == [list(s) for s in a.squares] and flags["count"] == len(a)
    assert flags["shape"] == {"shape": "sphere", "radius": 20.0, "units": None}
    assert foundry_template(a, fill_color="#00FF00")["fillColor"] == "#00ff00"
