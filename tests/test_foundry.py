"""Foundry VTT scenes (aoegrid.io.foundry): tokens, background image, templates written back and read; heights
(Wall Height, Levels, V14 scene levels) and tests/data/two-storey-keep.json end to end.

Walls and grid layouts are in tests/test_io.py with the other readers.
"""

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

import aoegrid as ag
from aoegrid.cli import main
from aoegrid.io import Level, MapFileError, add_templates, read_foundry
from aoegrid.io.export import foundry_template, map_record, validate


def scene(**fields):
    """A v10 scene of 10 x 8 squares of 100 px; padding 0.25 puts square (0, 0) at pixel (300, 200)."""
    return {"name": "test", "width": 1000, "height": 800, "padding": 0.25,
            "grid": {"type": 1, "size": 100, "distance": 5, "units": "ft"},
            "background": {"src": "worlds/test/maps/hall.webp", "offsetX": 0, "offsetY": 0},
            "walls": [{"c": [800, 200, 800, 1000], "move": 20, "sight": 20}], **fields}


def token(name, sx, sy, **fields):
    """A v10 token whose top-left square is (sx, sy), unless ``fields`` say otherwise."""
    return {"name": name, "x": 300 + sx * 100, "y": 200 + sy * 100, "width": 1, "height": 1, "elevation": 0,
            "disposition": -1, "texture": {"src": "tokens/orc.webp"}, "hidden": False, **fields}


def write(path: Path, data: dict) -> Path:
    path.write_text(json.dumps(data))
    return path


def test_tokens_and_background_read_from_a_v10_scene(tmp_path):
    tokens = [
        token("Orc", 2, 3),
        token("Ogre", 5, 5, width=2, height=2, disposition=-1, elevation=10),
        token("Paladin", 1, 1, disposition=1),
        token("Merchant", 0, 6, disposition=0),
        token("Cart", 7, 0, width=2, height=1, disposition=0),
    ]
    m = read_foundry(write(tmp_path / "hall.json", scene(tokens=tokens)))
    got = [(t.name, t.x, t.y, t.footprint, t.elevation, sorted(t.tags)) for t in m.tokens]
    assert got == [
        ("Orc", 2, 3, (1, 1), 0.0, ["hostile"]),
        ("Ogre", 5, 5, (2, 2), 10.0, ["hostile"]),
        ("Paladin", 1, 1, (1, 1), 0.0, ["friendly"]),
        ("Merchant", 0, 6, (1, 1), 0.0, ["neutral"]),
        ("Cart", 7, 0, (2, 1), 0.0, ["neutral"]),
    ]
    assert m.info.background == "worlds/test/maps/hall.webp"
    assert m.info.notes == ()
    assert not m.info.has_image and m.info.image() is None  # Foundry keeps its image beside the scene
    # Tokens are creatures like any other: the burst finds the hostile ones.
    burst = ag.area(ag.Sphere(15), at=(3, 4), on=m)
    assert [r.token.name for r in burst.tokens(tags={"hostile"})] == ["Orc"]


def test_tokens_and_image_read_from_a_07_scene(tmp_path):
    data = {"width": 500, "height": 400, "padding": 0.25, "grid": 50, "gridDistance": 5, "gridUnits": "ft",
            "img": "maps/old.jpg", "walls": [],
            "tokens": [{"name": "Goblin", "x": 150 + 2 * 50, "y": 100 + 50, "width": 1, "height": 1,
                        "disposition": -1, "img": "tokens/goblin.png", "elevation": 5}]}
    m = read_foundry(write(tmp_path / "old.json", data))
    assert m.info.background == "maps/old.jpg"
    assert [(t.name, t.x, t.y, t.elevation, sorted(t.tags)) for t in m.tokens] == [("Goblin", 2, 1, 5.0, ["hostile"])]
    assert read_foundry(write(tmp_path / "none.json", {**data, "img": None})).info.background is None


def test_odd_tokens_give_notes_not_failures(tmp_path):
    tokens = [
        {"x": 500, "y": 400},  # no name (and no disposition: no tag, no note)
        token("Loose", 1, 1, x=300 + 140, y=200 + 160),  # off its square
        token("Sprite", 2, 2, width=0.5, height=0.5),  # tiny
        token("Ghost", 3, 3, disposition=-2),  # v11's secret disposition
        token("Nowhere", 0, 0, x=None),
        token("Far", 0, 0, x=300 + 20 * 100),  # off the map
        token("Odd", 4, 4, width="big", elevation=True),
        "not a token",
    ]
    m = read_foundry(write(tmp_path / "odd.json", scene(tokens=tokens)))
    assert [(t.name, t.x, t.y, t.footprint, sorted(t.tags)) for t in m.tokens] == [
        (None, 2, 2, (1, 1), []),
        ("Loose", 1, 2, (1, 1), ["hostile"]),
        ("Sprite", 2, 2, (1, 1), ["hostile"]),
        ("Ghost", 3, 3, (1, 1), []),
        ("Odd", 4, 4, (1, 1), ["hostile"]),
    ]
    assert m.info.notes == (
        "tokens[0] has no name: read without one",
        "tokens[1] ('Loose') at 1.4, 1.6 squares is not on a square: put on square (1, 2)",
        "tokens[2] ('Sprite') is 0.5 x 0.5 squares: read as 1 x 1 (spaces are whole squares)",
        "tokens[3] ('Ghost') disposition must be -1, 0 or 1, got -2: no disposition tag",
        'tokens[4] (\'Nowhere\') x must be a finite number, got null',
        "tokens[4] ('Nowhere') has no usable x and y: skipped",
        "tokens[5] ('Far') at square (20, 0) is not wholly on the 10 x 8 map: skipped",
        "tokens[6] ('Odd') width must be a positive number, got \"big\": read as 1",
        "tokens[6] ('Odd') elevation must be a finite number, got true: read as 0",
        'tokens[7] must be an object, got "not a token" (a string): skipped',
    )


def test_odd_token_lists_and_backgrounds_give_notes(tmp_path):
    m = read_foundry(write(tmp_path / "a.json", scene(tokens={"0": {}}, background="hall.webp")))
    assert m.tokens == ()
    assert m.info.notes == (
        'tokens must be a list, got {"0": {}} (an object): no tokens read',
        'background must be an object, got "hall.webp" (a string): no background read',
    )
    m = read_foundry(write(tmp_path / "b.json", scene(background={"src": 7})))
    assert m.info.background is None and m.info.notes == ("background.src must be a path, got 7 (a number): no background read",)
    assert read_foundry(write(tmp_path / "c.json", scene(background=None))).info.background is None


def test_a_template_written_into_the_scene_reads_back_onto_the_area(tmp_path):
    path = write(tmp_path / "hall.json", scene(tokens=[token("Orc", 6, 4)]))
    m = read_foundry(path)
    fireball = ag.area(ag.Sphere(10), at=(6, 4), on=m)
    cone = ag.area(ag.Cone(15, "W"), at=(3, 3), on=m, rules="sw5e")
    templates = [foundry_template(fireball), foundry_template(cone, fill_color="#3366ff")]
    out = add_templates(path, templates, tmp_path / "hall-with-templates.json")
    assert json.loads(path.read_text()) == scene(tokens=[token("Orc", 6, 4)])  # the original is untouched

    back = read_foundry(out)
    assert (back.info.pixels_per_square, back.info.offset) == (m.info.pixels_per_square, m.info.offset) == (100.0, (300.0, 200.0))
    assert back.walls == m.walls and back.tokens == m.tokens and back.info.background == m.info.background
    assert back.info.notes == ("skipped 2 templates (not read)",)
    written = json.loads(out.read_text())["templates"]
    size, (ox, oy) = back.info.pixels_per_square, back.info.offset
    for t, a in zip(written, (fireball, cone)):
        # The template's scene pixels map back to the area's origin on the map read back.
        assert ((t["x"] - ox) / size, (t["y"] - oy) / size) == a.origin
        assert t["flags"]["aoegrid"]["squares"] == [list(s) for s in a.squares]
    assert [(t["t"], t["x"], t["y"], t["distance"], t["direction"]) for t in written] == [
        ("circle", 900, 600, 10.0, 0.0), ("cone", 600, 500, 15.0, 180.0)]
    # Rebuilt from the template on the map read back, the area is the same.
    t = written[0]
    again = ag.area(ag.Sphere(t["distance"]), at=((t["x"] - ox) / size, (t["y"] - oy) / size), on=back)
    assert again.squares == fireball.squares


def test_add_templates_refuses_to_overwrite_and_checks_what_it_writes(tmp_path):
    path = write(tmp_path / "hall.json", scene())
    t = foundry_template(ag.area(ag.Sphere(10), at=(4, 4), on=read_foundry(path)))
    out = add_templates(path, [t], tmp_path / "out.json")
    with pytest.raises(MapFileError, match=r"out\.json: exists; pass overwrite=True to replace it"):
        add_templates(path, [t], out)
    add_templates(out, [t], out, overwrite=True)
    assert len(json.loads(out.read_text())["templates"]) == 2
    with pytest.raises(ag.InvalidValueError, match=r"templates\[0\] must be a MeasuredTemplate document with t one of circle, cone, rect, ray"):
        add_templates(path, [{"t": "hex"}], tmp_path / "bad.json")
    with pytest.raises(MapFileError, match=r"notes\.json: walls is missing"):
        add_templates(write(tmp_path / "notes.json", {"notes": []}), [t], tmp_path / "bad.json")
    with pytest.raises(MapFileError, match=r"hall2\.json: templates must be a list, got 3 \(a number\)"):
        add_templates(write(tmp_path / "hall2.json", scene(templates=3)), [t], tmp_path / "bad.json")
    assert not (tmp_path / "bad.json").exists()


# --- regions: terrain for movement (issue 19) -----------------------------------------------------------------------


def region(name, shapes, walk, **behaviour):
    """A v12 region with one modifyMovementCost behaviour of walking difficulty ``walk``."""
    return {"_id": name, "name": name, "color": "#884400", "shapes": shapes,
            "elevation": {"bottom": None, "top": None}, "visibility": 0, "locked": False, "flags": {},
            "behaviors": [{"_id": f"{name}-b", "name": "", "type": "modifyMovementCost",
                           "system": {"difficulties": {"walk": walk, "fly": 1, "swim": 1}},
                           "disabled": False, "flags": {}, **behaviour}]}


def rect(sx, sy, w, h, **fields):
    """A rectangle over squares (sx, sy) to (sx + w - 1, sy + h - 1), in the scene's pixels (padding 300, 200)."""
    return {"type": "rectangle", "x": 300 + sx * 100, "y": 200 + sy * 100, "width": w * 100, "height": h * 100,
            "rotation": 0, "hole": False, **fields}


def test_movement_cost_regions_become_terrain(tmp_path):
    regions = [
        # Mud over squares 0..3 x 0..1 but a hole at (1, 0): difficult.
        region("mud", [rect(0, 0, 4, 2), rect(1, 0, 1, 1, hole=True)], 2),
        # A bog of polygon points: greater difficult (3: PF2e's +10 ft on a 5-ft step).
        region("bog", [{"type": "polygon", "points": [800, 200, 1000, 200, 1000, 400, 800, 400], "hole": False}], 3),
        # A chasm: walking is impossible (a blank difficulty).
        region("chasm", [{"type": "circle", "x": 300 + 700, "y": 200 + 500, "radius": 120, "hole": False}], None),
        # A vertical ellipse (turned 90 degrees): 1.5, difficult.
        region("reeds", [{"type": "ellipse", "x": 300 + 200, "y": 200 + 600, "radiusX": 150, "radiusY": 60,
                          "rotation": 90, "hole": False}], 1.5),
        # Overlapping the mud: multiplied, 2 x 2 = 4: greater difficult.
        region("deep", [rect(3, 1, 1, 1)], 2),
        # Free movement and no change: open ground.
        region("road", [rect(5, 6, 3, 1)], 1),
        region("haste", [rect(5, 7, 3, 1)], 0.5),
        # Not read: disabled, or another behaviour.
        region("off", [rect(9, 0, 1, 8)], 2, disabled=True),
        {"name": "music", "shapes": [rect(0, 7, 2, 1)], "behaviors": [{"type": "executeMacro", "system": {}}]},
    ]
    m = read_foundry(write(tmp_path / "hall.json", scene(regions=regions)))
    assert m.terrain.tolist() == [
        [1, 0, 1, 1, 0, 2, 2, 0, 0, 0],
        [1, 1, 1, 2, 0, 2, 2, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 3, 3, 0, 0],
        [0, 1, 1, 0, 0, 0, 3, 3, 0, 0],
        [0, 1, 1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    ]
    assert m.info.notes == ("skipped 1 region without a modifyMovementCost behaviour (not read)",
                            "skipped 1 disabled modifyMovementCost behaviour")
    # Movement reads it: 10 ft a square of mud under 5e, then 5 into the hole; the chasm impassable.
    assert ag.path_distance(m, (0, 2), (1, 0), rules="sw5e") == 15.0
    assert ag.path_distance(m, (0, 2), (0, 0), rules="sw5e") == 20.0
    assert ag.path_distance(m, (6, 3), (6, 4)) == float("inf")


def test_regions_rotated_and_of_unread_shapes(tmp_path):
    # A 3 x 1 rectangle turned 90 degrees about its centre (square (2, 1)'s centre): squares (2, 0) to (2, 2).
    turned = region("turned", [rect(1, 1, 3, 1, rotation=90)], 2)
    odd = region("odd", [{"type": "token", "hole": False}, rect(8, 7, 1, 1)], 2)
    m = read_foundry(write(tmp_path / "hall.json", scene(regions=[turned, odd])))
    assert sorted(zip(*map(list, (m.terrain != 0).nonzero()))) == [(0, 2), (1, 2), (2, 2), (7, 8)]
    assert m.info.notes == (("regions[1].shapes[0] is a 'token' shape, not read (aoegrid reads rectangle, circle, "
                            "ellipse, polygon): skipped"),)


@pytest.mark.parametrize(("regions", "match"), [
    ("mud", r"regions must be a list, got \"mud\" \(a string\)"),
    ([region("mud", [rect(0, 0, 1, 1)], -1)], (r"regions\[0\]\.behaviors\[0\]\.system\.difficulties\.walk must be 0 or "
                                              r"more \(a cost multiplier\), got -1")),
    ([region("mud", [rect(0, 0, 1, 1)], "2")], (r"regions\[0\]\.behaviors\[0\]\.system\.difficulties\.walk must be a "
                                               r"number, got \"2\"")),
    ([region("mud", [rect(0, 0, 1, 1, width=-100)], 2)], r"regions\[0\]\.shapes\[0\]\.width must be a positive number"),
    ([region("mud", [{"type": "polygon", "points": [0, 0, 100]}], 2)],
     r"regions\[0\]\.shapes\[0\]\.points must be 3 or more points as \[x0, y0, x1, y1, \.\.\.\], got 3 numbers"),
    ([region("mud", "box", 2)], r"regions\[0\]\.shapes must be a list"),
])
def test_bad_regions_name_the_field(tmp_path, regions, match):
    with pytest.raises(MapFileError, match=match):
        read_foundry(write(tmp_path / "hall.json", scene(regions=regions)))


def test_a_region_without_a_walking_difficulty_changes_nothing(tmp_path):
    mud = region("mud", [rect(0, 0, 2, 2)], 2)
    del mud["behaviors"][0]["system"]["difficulties"]["walk"]
    m = read_foundry(write(tmp_path / "hall.json", scene(regions=[mud])))
    assert not m.has_terrain
    assert m.info.notes == (("regions[0].behaviors[0].system.difficulties.walk is missing: regions[0]'s "
                            "modifyMovementCost behaviour read as not changing walking"),)


# --- heights: token elevation and Wall Height's tokenHeight; wall heights and Levels noted (issue 20) -----------------


def tall_scene():
    """Flyers and burrowers with Wall Height token heights, walls with Wall Height bounds, two Levels floors."""
    tokens = [
        token("Orc", 2, 3),
        token("Wyvern", 6, 5, width=2, height=2, elevation=20, flags={"wall-height": {"tokenHeight": 15}}),
        token("Gnome", 1, 1, elevation=-5, flags={"wall-height": {"tokenHeight": 3}}),
        token("Giant", 7, 0, width=2, height=2, flags={"wall-height": {"tokenHeight": 0}}),  # 0: the default
        token("Imp", 0, 6, flags={"wall-height": {"tokenHeight": None}, "core": {}}),
        token("Ogre", 6, 3, width=2, height=2, flags={"wall-height": {"tokenHeight": 10}}),  # its default height
    ]
    walls = [
        {"c": [800, 200, 800, 1000], "move": 20, "sight": 20, "flags": {"wall-height": {"top": 10, "bottom": None}}},
        {"c": [300, 500, 600, 500], "move": 20, "sight": 20, "door": 1,
         "flags": {"wall-height": {"top": None, "bottom": 5}}},
        {"c": [300, 900, 600, 900], "move": 20, "sight": 20, "flags": {"wall-height": {"top": None, "bottom": None}}},
        {"c": [300, 900, 300, 900], "flags": {"wall-height": {"top": 10}}},  # zero length: dropped, not counted
    ]
    return scene(tokens=tokens, walls=walls, flags={"levels": {"sceneLevels": [[0, 9, "ground"], [10, 19, "loft"]]}})


INF = float("inf")
WALL_HEIGHT_NOTES = ("dropped 1 zero-length wall",)


def test_token_elevations_and_heights_wall_heights_and_levels_are_read(tmp_path):
    m = read_foundry(write(tmp_path / "tall.json", tall_scene()))
    assert [(t.name, t.footprint, t.elevation, t.height) for t in m.tokens] == [
        ("Orc", (1, 1), 0.0, None),
        ("Wyvern", (2, 2), 20.0, 15.0),
        ("Gnome", (1, 1), -5.0, 3.0),
        ("Giant", (2, 2), 0.0, None),
        ("Imp", (1, 1), 0.0, None),
        ("Ogre", (2, 2), 0.0, 10.0),
    ]
    assert m.info.notes == WALL_HEIGHT_NOTES
    # Wall Height's top and bottom (null: unbounded) are each wall's span; nothing else of a wall changes.
    assert [(w.start, w.end, w.kind.value, w.span) for w in m.walls] == [
        ((5.0, 0.0), (5.0, 8.0), "wall", (-INF, 10.0)), ((0.0, 3.0), (3.0, 3.0), "door", (5.0, INF)),
        ((0.0, 7.0), (3.0, 7.0), "wall", (-INF, INF))]
    plain = tall_scene()
    for w in plain["walls"]:
        del w["flags"]
    del plain["flags"]
    assert [replace(w, bottom=-INF, top=INF) for w in m.walls] == list(read_foundry(write(tmp_path / "p.json", plain)).walls)
    assert m.info.levels == (Level(0.0, 9.0, "ground"), Level(10.0, 19.0, "loft")) and m.floors == ()
    # The map record carries each creature's elevation and height (tall: null for the default), the walls' finite
    # ends and the levels.
    record = validate(map_record(m))
    assert [(t["name"], t["elevation"], t["tall"]) for t in record["tokens"]] == [
        ("Orc", 0.0, None), ("Wyvern", 20.0, 15.0), ("Gnome", -5.0, 3.0), ("Giant", 0.0, None), ("Imp", 0.0, None),
        ("Ogre", 0.0, 10.0)]
    assert [{k: w[k] for k in ("bottom", "top") if k in w} for w in record["walls"]] == [{"top": 10.0}, {"bottom": 5.0}, {}]
    assert record["levels"] == [{"name": "ground", "bottom": 0.0, "top": 9.0}, {"name": "loft", "bottom": 10.0, "top": 19.0}]


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"bottom": 10, "top": 5}, r"tall\.json: walls\[1\]\.flags\.wall-height has its bottom 10 above its top 5"),
        ({"top": "ten"}, r"tall\.json: walls\[1\]\.flags\.wall-height\.top must be a number, got \"ten\""),
        ({"bottom": float("nan")}, r"walls\[1\]\.flags\.wall-height\.bottom must be a finite number, got NaN"),
    ],
)
def test_a_bad_wall_height_names_the_file_the_wall_and_the_values(tmp_path, flags, message):
    data = tall_scene()
    data["walls"][1]["flags"]["wall-height"] = flags
    with pytest.raises(MapFileError, match=message):
        read_foundry(write(tmp_path / "tall.json", data))


def test_levels_scene_levels_as_the_module_stores_them(tmp_path):
    """Levels' UI stores [bottom, top, name] as strings; odd entries are read as its migration reads them."""
    levels = [["-10", "0", "Cellar"], ["0", "9.5", "Ground"], [10, 20], ["", "x", "Attic"], "roof", [30, 25, "Up"]]
    m = read_foundry(write(tmp_path / "levels.json", scene(flags={"levels": {"sceneLevels": levels}})))
    assert m.info.levels == (Level(-10.0, 0.0, "Cellar"), Level(0.0, 9.5, "Ground"), Level(10.0, 20.0, ""),
                             Level(0.0, 10.0, "Attic"))
    assert m.info.notes == (
        "flags.levels.sceneLevels[3] bottom is not a number, got \"\": read as 0",
        "flags.levels.sceneLevels[3] top is not a number, got \"x\": read as 10 (two squares up)",
        "flags.levels.sceneLevels[4] must be [bottom, top, name], got \"roof\": skipped",
        "flags.levels.sceneLevels[5] has its bottom 30 above its top 25: skipped",
    )


def test_foundry_v14_scene_levels_are_read(tmp_path):
    core = [{"_id": "a", "name": "Basement", "elevation": {"bottom": -10, "top": 0}},
            {"_id": "b", "name": "Downstairs", "elevation": {"bottom": 0, "top": 10}},
            {"_id": "c", "name": "Sky", "elevation": {"bottom": 10, "top": None}},  # JSON writes Infinity as null
            {"_id": "d", "name": "Odd", "elevation": {"bottom": "0", "top": 5}},
            {"_id": "e", "name": "None"}]
    walls = [{"c": [800, 200, 800, 1000], "levels": ["a", "b"]}, {"c": [300, 200, 300, 1000], "levels": []}]
    data = scene(levels=core, walls=walls, flags={"levels": {"sceneLevels": [[0, 10, "old"]]}})
    m = read_foundry(write(tmp_path / "v14.json", data))
    assert m.info.levels == (Level(-10.0, 0.0, "Basement"), Level(0.0, 10.0, "Downstairs"), Level(10.0, INF, "Sky"))
    assert m.info.notes == (
        "1 wall on V14 scene levels (a wall's levels): the heights of their levels are not read (Wall Height bounds are)",
        ("the scene has V14 levels and the Levels module's flags.levels.sceneLevels: read the V14 levels (Levels "
         "migrates its own to them)"),
        "levels[3].elevation.bottom must be a number, got \"0\": skipped",
        "levels[4] must be a Level with an elevation {bottom, top}, got {\"_id\": \"e\", \"name\": \"None\"}: skipped",
    )
    assert validate(map_record(m))["levels"][2] == {"name": "Sky", "bottom": 10.0, "top": None}


def tile(sx, sy, w, h, **fields):
    """A tile whose top-left corner is square (sx, sy), ``w`` x ``h`` squares."""
    return {"x": 300 + sx * 100, "y": 200 + sy * 100, "width": w * 100, "height": h * 100, "rotation": 0,
            "texture": {"src": "tiles/floor.webp"}, **fields}


def test_levels_tiles_become_floors_at_their_elevation(tmp_path):
    tiles = [
        tile(1, 1, 4, 3, elevation=10, flags={"levels": {"rangeTop": 19}}),
        tile(1, 1, 4, 3, elevation=20, flags={"levels": {"rangeTop": None, "isBasement": False}}),  # a roof
        tile(6, 1, 2, 4, elevation=10, rotation=90, flags={"levels": {"rangeTop": 19}}),  # 4 x 2 about its centre
        tile(0, 0, 2, 2, flags={"levels": {"rangeBottom": 5, "rangeTop": 9}}),  # before v12: rangeBottom
        tile(0, 5, 2, 2, elevation=10, flags={"levels": {"noCollision": True}}),  # Allow Sight: no floor
        tile(0, 5, 2, 2, flags={"levels": {"rangeTop": 9}}),  # no bottom: Levels sees no plane
        tile(3, 5, 2, 2, elevation=10),  # no Levels flags: decoration
    ]
    m = read_foundry(write(tmp_path / "tiles.json", scene(tiles=tiles, flags={"levels": {"backgroundElevation": -5}})))
    assert [(f.elevation, f.bounds) for f in m.floors] == [
        (10.0, (1.0, 1.0, 5.0, 4.0)), (20.0, (1.0, 1.0, 5.0, 4.0)), (10.0, (5.0, 2.0, 9.0, 4.0)),
        (5.0, (0.0, 0.0, 2.0, 2.0))]
    assert pytest.approx(m.floors[2].polygon.area) == 8.0
    assert m.info.notes == ("1 Levels tile marked Allow Sight (flags.levels.noCollision) read as no floor",
                            "1 Levels tile without an elevation (or flags.levels.rangeBottom) read as no floor",
                            "the background lies at flags.levels.backgroundElevation -5: not read as a floor")
    record = validate(map_record(m))
    assert record["floors"][0] == {"elevation": 10.0, "polygon": [[1.0, 1.0], [5.0, 1.0], [5.0, 4.0], [1.0, 4.0]],
                                   "holes": []}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"width": 0}, r"tiles\.json: tiles\[0\] is not a valid floor: Floor polygon is not valid"),
        ({"elevation": "high"}, r"tiles\.json: tiles\[0\]\.elevation must be a number, got \"high\""),
        ({"x": None}, r"tiles\.json: tiles\[0\]\.x must be a number, got null"),
    ],
)
def test_a_bad_levels_tile_names_the_file_and_the_tile(tmp_path, fields, message):
    data = scene(tiles=[{**tile(1, 1, 2, 2, elevation=10, flags={"levels": {"rangeTop": 19}}), **fields}])
    with pytest.raises(MapFileError, match=message):
        read_foundry(write(tmp_path / "tiles.json", data))


def test_a_scene_without_heights_gives_no_height_notes(tmp_path):
    data = scene(tokens=[token("Orc", 2, 3, flags={"wall-height": {}})], flags={"levels": {"sceneLevels": []}},
                 walls=[{"c": [800, 200, 800, 1000], "flags": {"wall-height": "tall"}}])
    m = read_foundry(write(tmp_path / "flat.json", data))
    assert m.info.notes == () and [(t.elevation, t.height) for t in m.tokens] == [(0.0, None)]


def test_odd_token_heights_and_elevations_give_notes_read_as_the_defaults(tmp_path):
    """A token is never a reason to refuse a scene: an odd height or elevation is read as its default, with a note."""
    tokens = [
        token("Mole", 0, 0, elevation=-10, flags={"wall-height": {"tokenHeight": -3}}),  # burrowing is fine
        token("Kite", 1, 0, flags={"wall-height": {"tokenHeight": "tall"}}),
        token("Bat", 2, 0, elevation=float("inf"), flags={"wall-height": {"tokenHeight": float("nan")}}),
        token("Cloud", 3, 0, elevation="high", flags={"wall-height": {"tokenHeight": True}}),
        token("Wisp", 4, 0, elevation=None, flags={"wall-height": {"tokenHeight": 10**400}}),
    ]
    m = read_foundry(write(tmp_path / "odd.json", scene(tokens=tokens)))
    assert [(t.name, t.elevation, t.height) for t in m.tokens] == [
        ("Mole", -10.0, None), ("Kite", 0.0, None), ("Bat", 0.0, None), ("Cloud", 0.0, None), ("Wisp", 0.0, None)]
    default = ": read as the default (as tall as its space is wide)"
    assert m.info.notes == (
        f"tokens[0] ('Mole') flags.wall-height.tokenHeight must be a positive number, got -3{default}",
        f"tokens[1] ('Kite') flags.wall-height.tokenHeight must be a positive number, got \"tall\"{default}",
        "tokens[2] ('Bat') elevation must be a finite number, got Infinity: read as 0",
        f"tokens[2] ('Bat') flags.wall-height.tokenHeight must be a positive number, got NaN{default}",
        "tokens[3] ('Cloud') elevation must be a finite number, got \"high\": read as 0",
        f"tokens[3] ('Cloud') flags.wall-height.tokenHeight must be a positive number, got true{default}",
        "tokens[4] ('Wisp') elevation must be a finite number, got null: read as 0",
        f"tokens[4] ('Wisp') flags.wall-height.tokenHeight must be a positive number, got ~1e400{default}",
    )


def test_templates_written_back_carry_their_elevation(tmp_path):
    path = write(tmp_path / "hall.json", scene())
    m = read_foundry(path)
    high = foundry_template(ag.area(ag.Sphere(10), at=(4, 4), on=m, elevation=20))
    ground = foundry_template(ag.area(ag.Cone(15, "E"), at=(2, 2), on=m, rules="sw5e"))
    assert (high["elevation"], ground["elevation"]) == (20.0, 0.0)
    out = add_templates(path, [high, ground], tmp_path / "out.json")
    assert [t["elevation"] for t in json.loads(out.read_text())["templates"]] == [20.0, 0.0]


def cli(*args):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in args], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    return out.getvalue().splitlines()


def test_aoegrid_info_reports_levels_wall_heights_flyers_and_token_heights(tmp_path):
    path = write(tmp_path / "tall.json", tall_scene())
    assert cli("info", path) == [
        f"map: {path} (foundry v10)",
        "grid: 10 x 8 squares of 5 ft",
        "walls: 2, doors: 1, windows: 0",
        "lights: 0, tokens: 6",
        "wall bounds: x 0..5, y 0..8",
        "levels: ground 0..9 ft, loft 10..19 ft",
        "walls with heights: 2 of 3 (bottoms 5, tops 10 ft)",
        "flyers: Wyvern at 20 ft, Gnome at -5 ft",
        "token heights: Wyvern 15 ft, Gnome 3 ft",  # not the Ogre's: 10 ft is a Large creature's default
        *(f"note: {n}" for n in WALL_HEIGHT_NOTES),
    ]
    # A scene on the ground says nothing of heights.
    flat = cli("info", write(tmp_path / "flat.json", scene(tokens=[token("Orc", 2, 3)])))
    assert not any(line.startswith(("levels", "walls with", "floors", "flyers", "token heights", "note"))
                   for line in flat)


# --- tests/data/two-storey-keep.json: a scene with Wall Height and Levels flags, end to end ----------------------------

KEEP = Path(__file__).resolve().parent / "data" / "two-storey-keep.json"


def keep_scene():
    """A two-storey keep in a courtyard, built from the fields the modules document.

    Foundry v10+ scene: 12 x 10 squares of 100 px, 5 ft; padding 0.25 puts square (0, 0) at pixel (300, 300).
    Wall Height (theripper93/wall-height): ``flags["wall-height"].top`` / ``.bottom`` per wall, null unbounded.
    Levels (theripper93/Levels): ``flags.levels.sceneLevels`` as [bottom, top, name] strings (as its UI saves
    them), tiles at ``elevation`` with ``flags.levels.rangeTop`` (null: Infinity, a roof).
    """
    def px(sx, sy):
        return [300 + 100 * sx, 300 + 100 * sy]

    def wall(a, b, bottom, top, **fields):
        return {"c": [*px(*a), *px(*b)], "move": 20, "sight": 20, "light": 20, "sound": 20, "dir": 0, "door": 0,
                "ds": 0, **fields, "flags": {"wall-height": {"bottom": bottom, "top": top}}}

    keep = [(1, 1), (7, 1), (7, 8), (1, 8)]
    walls = []
    for bottom, top in ((0, 9), (10, 19)):  # the ground storey's walls, then the upper one's
        walls += [wall(a, b, bottom, top) for a, b in zip(keep, keep[1:] + keep[:1]) if (a, b) != ((1, 8), (1, 1))]
    walls += [wall((1, 8), (1, 5), 0, 9), wall((1, 4), (1, 1), 0, 9), wall((1, 5), (1, 4), 0, 9, door=1),
              wall((1, 8), (1, 1), 10, 19),
              wall((9, 2), (9, 8), None, 3)]  # a parapet in the courtyard, 3 ft tall
    tiles = [{"x": 400, "y": 400, "width": 600, "height": 700, "rotation": 0, "elevation": elevation,
              "texture": {"src": src}, "flags": {"levels": {"rangeTop": top}}}
             for elevation, top, src in ((10, 19, "keep/upper-floor.webp"), (20, None, "keep/roof.webp"))]
    tokens = [
        {"name": "Orc", "x": 600, "y": 700, "width": 1, "height": 1, "elevation": 0, "disposition": -1},
        {"name": "Archer", "x": 700, "y": 600, "width": 1, "height": 1, "elevation": 10, "disposition": -1},
        {"name": "Knight", "x": 1300, "y": 800, "width": 1, "height": 1, "elevation": 0, "disposition": 1},
        {"name": "Hawk", "x": 1300, "y": 400, "width": 1, "height": 1, "elevation": 30, "disposition": 0,
         "flags": {"wall-height": {"tokenHeight": 2}}},
    ]
    return {"name": "Two-storey keep", "width": 1200, "height": 1000, "padding": 0.25,
            "grid": {"type": 1, "size": 100, "distance": 5, "units": "ft"},
            "background": {"src": "keep/ground.webp"}, "walls": walls, "tiles": tiles, "tokens": tokens,
            "flags": {"levels": {"sceneLevels": [["0", "9", "Ground"], ["10", "19", "Upper"]]}}}


def test_the_keep_in_tests_data_is_the_scene_this_file_builds():
    """Regenerate it with ``python tests/test_foundry.py``."""
    assert json.loads(KEEP.read_text()) == keep_scene()


def test_the_keep_read_end_to_end(tmp_path):
    assert cli("info", KEEP) == [
        f"map: {KEEP} (foundry v10)",
        "grid: 12 x 10 squares of 5 ft",
        "walls: 10, doors: 1, windows: 0",
        "lights: 0, tokens: 4",
        "wall bounds: x 1..9, y 1..8",
        "levels: Ground 0..9 ft, Upper 10..19 ft",
        "walls with heights: 11 of 11 (bottoms 0..10, tops 3..19 ft)",
        "floors: 2 (at 10, 20 ft)",
        "flyers: Archer at 10 ft, Hawk at 30 ft",
        "token heights: Hawk 2 ft",
    ]
    record = validate(map_record(ag.load_map(KEEP)))
    spans = [(w["start"], w["end"], w["kind"], w.get("bottom"), w.get("top")) for w in record["walls"]]
    assert spans == [
        ([1.0, 1.0], [7.0, 1.0], "wall", 0.0, 9.0), ([7.0, 1.0], [7.0, 8.0], "wall", 0.0, 9.0),
        ([7.0, 8.0], [1.0, 8.0], "wall", 0.0, 9.0),
        ([1.0, 1.0], [7.0, 1.0], "wall", 10.0, 19.0), ([7.0, 1.0], [7.0, 8.0], "wall", 10.0, 19.0),
        ([7.0, 8.0], [1.0, 8.0], "wall", 10.0, 19.0),
        ([1.0, 8.0], [1.0, 5.0], "wall", 0.0, 9.0), ([1.0, 4.0], [1.0, 1.0], "wall", 0.0, 9.0),
        ([1.0, 5.0], [1.0, 4.0], "door", 0.0, 9.0), ([1.0, 8.0], [1.0, 1.0], "wall", 10.0, 19.0),
        ([9.0, 2.0], [9.0, 8.0], "wall", None, 3.0),
    ]
    assert record["levels"] == [{"name": "Ground", "bottom": 0.0, "top": 9.0},
                                {"name": "Upper", "bottom": 10.0, "top": 19.0}]
    assert [(f["elevation"], f["polygon"], f["holes"]) for f in record["floors"]] == [
        (z, [[1.0, 1.0], [7.0, 1.0], [7.0, 8.0], [1.0, 8.0]], []) for z in (10.0, 20.0)]
    assert record["notes"] == []
    # A fireball on the courtyard's ground: the ball passes over the 3-ft parapet (x 9) to the keep's east wall (x 7).
    lines = cli("area", KEEP, "--shape", "sphere", "--size", "20", "--at", "11,5", "--json", tmp_path / "a.json")
    area = validate(json.loads((tmp_path / "a.json").read_text()))
    assert lines == ["sphere 20 ft at (11.0, 5.0), starfinder burst: 30 squares",
                     "  cover: 8 squares with some cover, 0 squares of the shape blocked",
                     "  creatures: Knight (none, 0 ft)"]  # not the Hawk, 30 ft up
    # The 8 squares between the parapet and the keep (x 7 and 8) are reached above the parapet only: cover.
    assert sorted(tuple(c["square"]) for c in area["cover"]) == [(7, 4), (7, 5), (8, 2), (8, 3), (8, 4), (8, 5),
                                                                  (8, 6), (8, 7)]
    assert (area["count"], area["blocked"], area["map"]) == (30, [], {"source": str(KEEP), "format": "foundry v10"})
    assert area["squares"] == [
        [10, 1], [11, 1], [8, 2], [9, 2], [10, 2], [11, 2], [8, 3], [9, 3], [10, 3], [11, 3],
        [7, 4], [8, 4], [9, 4], [10, 4], [11, 4], [7, 5], [8, 5], [9, 5], [10, 5], [11, 5],
        [8, 6], [9, 6], [10, 6], [11, 6], [8, 7], [9, 7], [10, 7], [11, 7], [10, 8], [11, 8]]


def test_aoegrid_area_on_a_scene_with_wall_heights_passes_over_a_low_wall(tmp_path):
    path = write(tmp_path / "tall.json", tall_scene())
    lines = cli("area", path, "--shape", "sphere", "--size", "15", "--at", "3,5", "--json", tmp_path / "a.json",
                "--elevation", "10", "--foundry", tmp_path / "t.json")
    assert lines[0] == "sphere 15 ft at (3.0, 5.0), height 10 ft, starfinder burst: 22 squares"
    # The burst 10 ft up passes over the wall at x 5 (its top 10 ft) to x 5, and the closed door (y 3, x 0 to 3,
    # from 5 ft up) and the wall (y 7, x 0 to 3, of any height) only round their ends.
    assert json.loads((tmp_path / "a.json").read_text())["squares"] == [
        [3, 2], [1, 3], [2, 3], [3, 3], [4, 3], [0, 4], [1, 4], [2, 4], [3, 4], [4, 4], [5, 4],
        [0, 5], [1, 5], [2, 5], [3, 5], [4, 5], [5, 5], [1, 6], [2, 6], [3, 6], [4, 6], [3, 7]]
    assert json.loads((tmp_path / "t.json").read_text())["elevation"] == 10.0


if __name__ == "__main__":  # regenerate tests/data/two-storey-keep.json
    KEEP.write_text(json.dumps(keep_scene(), indent=1) + "\n")
