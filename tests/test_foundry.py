"""Foundry VTT scenes (aoegrid.io.foundry): tokens, background image, templates written back and read.

Walls and grid layouts are in tests/test_io.py with the other readers.
"""

import io
import json
from pathlib import Path

import pytest

import aoegrid as ag
from aoegrid.cli import main
from aoegrid.export import foundry_template, map_record, validate
from aoegrid.io import MapFileError, add_templates, read_foundry


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


WALL_HEIGHT_NOTES = (
    "dropped 1 zero-length wall",
    ("2 walls with Wall Height bounds (flags.wall-height top, bottom) read as infinitely tall "
     "(wall heights are not modelled yet)"),
    ("the scene has 2 Levels floors (flags.levels.sceneLevels): read as one floor, its walls infinitely tall "
     "(Levels is not modelled yet)"),
)


def test_token_elevations_and_heights_are_read_and_wall_heights_and_levels_noted(tmp_path):
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
    # Walls are infinitely tall: the door and the walls are read as they are without Wall Height.
    plain = tall_scene()
    for w in plain["walls"]:
        del w["flags"]
    del plain["flags"]
    assert m.walls == read_foundry(write(tmp_path / "plain.json", plain)).walls
    assert [(w.start, w.end, w.kind.value) for w in m.walls] == [
        ((5.0, 0.0), (5.0, 8.0), "wall"), ((0.0, 3.0), (3.0, 3.0), "door"), ((0.0, 7.0), (3.0, 7.0), "wall")]
    # The map record carries each creature's elevation and height (tall: null for the default).
    record = validate(map_record(m))
    assert [(t["name"], t["elevation"], t["tall"]) for t in record["tokens"]] == [
        ("Orc", 0.0, None), ("Wyvern", 20.0, 15.0), ("Gnome", -5.0, 3.0), ("Giant", 0.0, None), ("Imp", 0.0, None),
        ("Ogre", 0.0, 10.0)]


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


def test_aoegrid_info_reports_flyers_token_heights_and_the_height_notes(tmp_path):
    path = write(tmp_path / "tall.json", tall_scene())
    assert cli("info", path) == [
        f"map: {path} (foundry v10)",
        "grid: 10 x 8 squares of 5 ft",
        "walls: 2, doors: 1, windows: 0",
        "lights: 0, tokens: 6",
        "wall bounds: x 0..5, y 0..8",
        "flyers: Wyvern at 20 ft, Gnome at -5 ft",
        "token heights: Wyvern 15 ft, Gnome 3 ft",  # not the Ogre's: 10 ft is a Large creature's default
        *(f"note: {n}" for n in WALL_HEIGHT_NOTES),
    ]
    # A scene on the ground says nothing of heights.
    flat = cli("info", write(tmp_path / "flat.json", scene(tokens=[token("Orc", 2, 3)])))
    assert not any(line.startswith(("flyers", "token heights", "note")) for line in flat)


def test_aoegrid_area_on_a_scene_with_wall_heights_stops_at_the_walls(tmp_path):
    path = write(tmp_path / "tall.json", tall_scene())
    lines = cli("area", path, "--shape", "sphere", "--size", "15", "--at", "3,5", "--json", tmp_path / "a.json",
                "--elevation", "10", "--foundry", tmp_path / "t.json")
    assert lines[0] == "sphere 15 ft at (3.0, 5.0), starfinder burst: 20 squares"
    # Walls are infinitely tall: the burst 10 ft up stays west of the wall at x 5 and passes the closed door
    # (y 3, x 0 to 3) and the wall (y 7, x 0 to 3) only round their ends.
    assert json.loads((tmp_path / "a.json").read_text())["squares"] == [
        [3, 2], [1, 3], [2, 3], [3, 3], [4, 3], [0, 4], [1, 4], [2, 4], [3, 4], [4, 4],
        [0, 5], [1, 5], [2, 5], [3, 5], [4, 5], [1, 6], [2, 6], [3, 6], [4, 6], [3, 7]]
    assert json.loads((tmp_path / "t.json").read_text())["elevation"] == 10.0
