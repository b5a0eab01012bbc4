"""Reading maps: the real Universal VTT exports, Foundry scenes, text maps, and bad files.

The counts asserted for the test maps were checked by hand against their JSON
(see tests/data/README.md for what each file is).
"""

import base64
import json
import os
import re
import struct
import tracemalloc
from pathlib import Path

import pytest

import aoegrid as ag
import aoegrid.io as aio
from aoegrid.board.walls import Channel, WallKind
from aoegrid.io import (
    Light,
    MapFileError,
    MapInfo,
    demo_map,
    load_map,
    read_foundry,
    read_text_map,
    read_uvtt,
)
from aoegrid.io.export import map_record, validate

MAPS = Path(__file__).resolve().parent / "data"
CAVE = MAPS / "cave-oganm.dd2vtt"
TOWER = MAPS / "blue-tower-base.dd2vtt"
ROOM = MAPS / "sample-room-imagix.noimage.dd2vtt"

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def kinds(m: ag.BattleMap) -> dict[str, int]:
    return {k.value: sum(w.kind is k for w in m.walls) for k in WallKind}


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    return struct.unpack(">II", data[16:24])


def write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data))
    return path


def room_json() -> dict:
    """The sample room's JSON, to make bad variants of a real file."""
    return json.loads(ROOM.read_text())


# --------------------------------------------------------------------------
# The three real exports
# --------------------------------------------------------------------------


def test_cave_counts():
    m = read_uvtt(CAVE)
    # 9 polylines / 206 points -> 197 segments; 2 object outlines / 52 points -> 50; 3 closed portals.
    assert kinds(m) == {"wall": 197 + 50, "door": 3, "window": 0}
    assert (m.grid.width, m.grid.height, m.grid.square, m.grid.units) == (20, 20, 5.0, "ft")
    info = m.info
    assert isinstance(info, MapInfo)
    assert (info.format, info.pixels_per_square, info.offset, info.background) == ("uvtt 0.3", 64.0, (0.0, 0.0), None)
    assert info.lights == (Light((6.132305, 7.212773), 9.900001, 1.0, "ffeccd8b"),)
    assert info.notes == ()
    assert info.source == str(CAVE)
    # Without object outlines only the 197 line_of_sight walls and the doors remain.
    assert kinds(read_uvtt(CAVE, objects=False)) == {"wall": 197, "door": 3, "window": 0}


@pytest.mark.parametrize("path", [CAVE, TOWER, ROOM])
def test_universal_vtt_files_have_no_heights(path):
    """The format has no heights: every wall spans every height, one floor (the ground), no levels."""
    m = read_uvtt(path)
    assert m.walls and all(w.span == (float("-inf"), float("inf")) for w in m.walls)
    assert (m.floors, m.info.levels) == ((), ())
    record = validate(map_record(m))
    assert not any({"bottom", "top"} & set(w) for w in record["walls"])
    assert (record["floors"], record["levels"]) == ([], [])


def test_cave_burst_stops_at_the_closed_door_and_passes_it_open():
    m = read_uvtt(CAVE)
    door = m.door_near((11.5, 6))
    assert (m.walls[door].start, m.walls[door].end) == ((11.0, 6.0), (12.0, 6.0))
    closed = ag.area(ag.Sphere(20), at=(11, 8), on=m)
    opened = ag.area(ag.Sphere(20), at=(11, 8), on=m.with_door(door, open=True))
    open_grid = ag.area(ag.Sphere(20), at=(11, 8), on=m.grid)
    assert len(closed) == 35 < len(open_grid) == 44
    # North of the cave's top wall (y < 6) is reached only through the open door.
    assert not [sq for sq in closed if sq[1] < 6]
    assert {(11, 4), (11, 5), (12, 5)} <= {sq for sq in opened if sq[1] < 6}
    assert set(closed.squares) < set(opened.squares)


def test_cave_spread_goes_around_an_object_a_burst_cannot_see_past():
    m = read_uvtt(CAVE)
    burst = ag.area(ag.Sphere(20), at=(9, 11), on=m)
    spread = ag.area(ag.Sphere(20), at=(9, 11), on=m, mode="spread")
    behind = {(6, 9), (7, 8), (7, 9)}
    assert behind <= set(spread.squares)
    assert not behind & set(burst.squares)
    # It is the object outline that hides them: without objects the burst sees them.
    assert behind <= set(ag.area(ag.Sphere(20), at=(9, 11), on=read_uvtt(CAVE, objects=False)).squares)


def test_tower_counts():
    m = read_uvtt(TOWER)
    # 61 polylines / 502 points -> 441 segments, 4 of them zero-length; 41 closed portals.
    assert kinds(m) == {"wall": 441 - 4, "door": 41, "window": 0}
    assert (m.grid.width, m.grid.height) == (10, 12)
    info = m.info
    # map_origin (46, 41) squares of the uncropped canvas, at 128 px a square
    assert (info.format, info.pixels_per_square, info.offset, info.lights) == ("uvtt 0.3", 128.0, (5888.0, 5248.0), ())
    # No portal of this file lies along a wall (checked by hand: 8 of them end on a wall's
    # side, none overlaps one), so nothing is cut; most of the building is off the image.
    assert info.notes == ("dropped 4 zero-length wall segments (repeated points)",)
    assert m.notes[0] == "dropped 4 zero-length wall segments (repeated points)"
    assert any(n.startswith("389 walls wholly off the map dropped") for n in m.notes), m.notes
    # Coordinates are shifted by map_origin: the round room's south door spans (4, 10)-(6, 10).
    on_image = [m.walls[i] for i in m.doors if m.grid.contains_point(m.walls[i].start)]
    doors = sorted((w.start, w.end) for w in on_image if w.start[1] == 10.0)
    assert doors == [((4.0, 10.0), (5.0, 10.0)), ((5.0, 10.0), (6.0, 10.0))]


def test_tower_burst_stays_in_the_round_room_until_its_door_opens():
    m = read_uvtt(TOWER)
    closed = ag.area(ag.Sphere(20), at=(5, 8), on=m)
    assert len(closed) == 32
    assert all(y < 10 for _, y in closed)  # the double door on y = 10 is shut
    opened = ag.area(ag.Sphere(20), at=(5, 8), on=m.with_door(m.door_near((4.5, 10)), open=True))
    assert {(3, 10), (4, 10), (4, 11)} <= set(opened.squares)
    assert not any(x >= 5 for x, y in opened if y >= 10)  # the other leaf is still shut


def test_room_counts():
    m = read_uvtt(ROOM)
    # 4 polylines / 11 points -> 7 segments; 1 object outline / 60 points -> 59; a door and a window.
    assert kinds(m) == {"wall": 7 + 59, "door": 1, "window": 1}
    assert (m.grid.width, m.grid.height) == (10, 10)
    info = m.info
    assert (info.format, info.pixels_per_square, info.offset, info.notes) == ("uvtt 0.3", 256.0, (512.0, 256.0), ())
    assert [(round(x, 6), round(y, 6)) for (x, y) in (light.position for light in info.lights)] == [
        (6.570312, 8.0),
        (6.007812, 1.984375),
    ]
    assert [light.color for light in info.lights] == ["ffeccd8b", "ff4dd569"]
    # The room is x 1..9, y 1..9 once map_origin (2, 1) is subtracted.
    xs = [c for w in m.walls[:7] for c in (w.start[0], w.end[0])]
    ys = [c for w in m.walls[:7] for c in (w.start[1], w.end[1])]
    assert (min(xs), max(xs), min(ys), max(ys)) == (1.0, 9.0, 1.0, 9.0)
    window = m.walls[m.door_near((5, 8))]
    assert window.kind is WallKind.WINDOW and window.blocks_effect and not window.blocks_sight


def test_room_burst_leaks_nothing_out_of_its_half_until_the_door_opens():
    m = read_uvtt(ROOM)
    # The room (x 1..9, y 1..9) is split by a wall on x = 5 with a door (y 1.5..2.5) and a window.
    closed = ag.area(ag.Sphere(20), at=(3, 3), on=m)
    assert closed and all(1 <= x < 5 and 1 <= y < 9 for x, y in closed)
    opened = ag.area(ag.Sphere(20), at=(3, 3), on=m.with_door(m.door_near((5, 2)), open=True))
    assert sorted(set(opened.squares) - set(closed.squares)) == [(5, 1), (5, 2), (6, 2)]
    assert all(1 <= x < 9 and 1 <= y < 9 for x, y in opened)  # still nothing outside the room
    # Sight passes the window, effect does not.
    sight = ag.line_of_effect(m, (3, 7), channel="sight")
    effect = ag.line_of_effect(m, (3, 7))
    assert sight[8, 6] > 0.5 and effect[8, 6] == 0
    assert effect[:, 5:].max() < 1e-12  # nothing east of the wall (up to float dust along y = 7)


def test_room_has_no_image():
    assert read_uvtt(ROOM).info.image() is None


def test_missing_optional_fields_are_noted(tmp_path):
    data = room_json()
    del data["format"], data["resolution"]["map_origin"], data["portals"], data["lights"]
    m = read_uvtt(write_json(tmp_path / "bare.dd2vtt", data))
    assert (m.info.format, m.info.offset, m.info.lights) == ("uvtt", (0.0, 0.0), ())
    assert m.info.notes == (
        "no format field: read as Universal VTT 0.3",
        "no resolution.map_origin: taken as (0, 0)",
    )
    # Unshifted, the room's east wall (x = 11) is off the 10-square image.
    assert any(n.startswith("1 wall wholly off the map dropped") for n in m.notes), m.notes
    assert kinds(m) == {"wall": 66, "door": 0, "window": 0}


def test_format_02_without_object_outlines(tmp_path):
    data = room_json()
    data["format"] = 0.2
    del data["objects_line_of_sight"]
    m = read_uvtt(write_json(tmp_path / "old.uvtt", data))
    assert m.info.format == "uvtt 0.2"
    assert kinds(m) == {"wall": 7, "door": 1, "window": 1}


# --------------------------------------------------------------------------
# The image: located while reading, decoded only on request
# --------------------------------------------------------------------------


def test_reading_walls_does_not_decode_the_image(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the image was decoded while reading walls")

    monkeypatch.setattr(base64, "b64decode", refuse)
    m = read_uvtt(CAVE)
    monkeypatch.undo()
    data, kind = m.info.image()
    assert kind == "png" and data.startswith(PNG_MAGIC)
    assert png_size(data) == (20 * 64, 20 * 64)
    assert data == base64.b64decode(json.loads(CAVE.read_text())["image"])


def test_a_loaded_map_holds_no_image_memory(tmp_path):
    data = room_json()
    data["image"] = base64.b64encode(PNG_MAGIC + bytes(6_000_000)).decode()
    path = write_json(tmp_path / "big.dd2vtt", data)
    tracemalloc.start()
    try:
        m = read_uvtt(path)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 1_000_000  # the 8 MB of base64 text was not kept
    assert m.info.image()[1] == "png"


def test_image_offsets_survive_escapes_non_ascii_text_and_a_bom(tmp_path):
    png = PNG_MAGIC + b"\xff\xff\xfe"  # base64 of these bytes contains "/"
    data = {"note": "Café – 地図", **room_json(), "image": base64.b64encode(png).decode()}
    text = json.dumps(data, ensure_ascii=False)
    escaped = text.replace(data["image"], data["image"].replace("/", "\\/"))
    assert "\\/" in escaped
    path = tmp_path / "escaped.dd2vtt"
    path.write_text("\ufeff" + escaped, encoding="utf-8")  # with a byte order mark, 3 bytes
    assert read_uvtt(path).info.image() == (png, "png")


def test_image_of_a_changed_file_is_refused(tmp_path):
    data = room_json()
    data["image"] = base64.b64encode(PNG_MAGIC).decode()
    path = write_json(tmp_path / "moving.dd2vtt", data)
    m = read_uvtt(path)
    path.write_text(json.dumps({**data, "image": base64.b64encode(b"GIF89a" * 3).decode()}))
    with pytest.raises(MapFileError, match=r"moving\.dd2vtt: the file changed since it was read"):
        m.info.image()


# --------------------------------------------------------------------------
# Portals over walls
# --------------------------------------------------------------------------


def pt(p):
    return {"x": p[0], "y": p[1]}


def uvtt(walls, portals, size=10):
    """A small Universal VTT map: wall polylines and (a, b, closed) portals, in squares."""
    return {
        "format": 0.3,
        "resolution": {"map_origin": pt((0, 0)), "map_size": pt((size, size)), "pixels_per_grid": 70},
        "line_of_sight": [[pt(p) for p in line] for line in walls],
        "portals": [{"bounds": [pt(a), pt(b)], "closed": closed} for a, b, closed in portals],
        "image": "",
    }


def test_a_portal_over_an_uncut_wall_cuts_it(tmp_path):
    path = write_json(tmp_path / "gate.dd2vtt", uvtt([[(0, 5), (10, 5)]], [((5, 5), (4, 5), True)]))
    m = read_uvtt(path)
    assert [(w.start, w.end, w.kind.value) for w in m.walls] == [
        ((0.0, 5.0), (4.0, 5.0), "wall"),
        ((5.0, 5.0), (10.0, 5.0), "wall"),
        ((5.0, 5.0), (4.0, 5.0), "door"),
    ]
    assert m.info.notes == ("cut the walls under 1 portal that lay over uncut walls, so the portals control the gaps",)
    closed = ag.area(ag.Sphere(20), at=(4, 3), on=m)
    opened = ag.area(ag.Sphere(20), at=(4, 3), on=m.with_door(m.doors[0], open=True))
    assert all(y < 5 for _, y in closed)
    assert (4, 5) in opened and (4, 6) in opened


def test_a_portal_across_a_wall_vertex_cuts_both_pieces(tmp_path):
    walls = [[(0, 5), (4.5, 5), (10, 5)], [(2, 0), (2, 5)]]
    portals = [((4, 5), (5, 5), False), ((7, 5), (8, 5), True)]
    m = read_uvtt(write_json(tmp_path / "two.dd2vtt", uvtt(walls, portals)))
    plain = sorted((w.start, w.end) for w in m.walls if w.kind is WallKind.WALL)
    assert plain == [
        ((0.0, 5.0), (4.0, 5.0)),
        ((2.0, 0.0), (2.0, 5.0)),
        ((5.0, 5.0), (7.0, 5.0)),
        ((8.0, 5.0), (10.0, 5.0)),
    ]
    assert kinds(m) == {"wall": 4, "door": 1, "window": 1}
    assert "under 2 portals" in m.info.notes[0]


def test_walls_outside_the_image_are_kept_as_given_and_counted(tmp_path):
    walls = [[(-3, -3), (-1, -3)], [(12, 0), (12, 10)], [(0, 5), (10, 5)], [(3, 3), (3, 3), (3, 4)], [(1, 1)]]
    m = read_uvtt(write_json(tmp_path / "off.dd2vtt", uvtt(walls, [((-2, -1), (-1, -1), True)])))
    assert len(m.walls) == 5
    assert m.info.notes == (
        "dropped 1 zero-length wall segment (repeated points)",
        "dropped 1 wall polyline with fewer than two points",
    )
    assert any(n.startswith("3 walls wholly off the map dropped") for n in m.notes), m.notes


# --------------------------------------------------------------------------
# The bundled demo map and load_map
# --------------------------------------------------------------------------


def test_demo_map_is_the_cave():
    m = demo_map()
    assert m.walls == read_uvtt(CAVE).walls
    assert m.info.source == "cave-oganm.dd2vtt"
    assert m.info.image()[1] == "png"
    data_dir = Path(ag.__file__).parent / "data"
    assert "MIT" in (data_dir / "LICENSE-cave-oganm.txt").read_text()


def test_load_map_dispatches_by_extension(tmp_path):
    assert kinds(load_map(ROOM)) == kinds(read_uvtt(ROOM))
    assert kinds(load_map(str(CAVE), objects=False)) == {"wall": 197, "door": 3, "window": 0}
    (tmp_path / "room.txt").write_text("#####\n#a+.#\n#####\n")
    assert load_map(tmp_path / "room.txt").tokens[0].name == "a"
    uvtt_as_json = write_json(tmp_path / "room.json", room_json())
    assert load_map(uvtt_as_json).info.format == "uvtt 0.3"
    assert load_map(write_json(tmp_path / "scene.json", scene())).info.format == "foundry v10"


def test_load_map_refuses_unknown_extensions_and_options(tmp_path):
    with pytest.raises(MapFileError, match=r"cave\.png: cannot read '\.png'; supported: \.dd2vtt, \.uvtt, \.df2vtt"):
        load_map(tmp_path / "cave.png")
    with pytest.raises(MapFileError, match=r"notes\.json: neither a Foundry VTT scene \(no 'walls' list\)"):
        load_map(write_json(tmp_path / "notes.json", {"walls": "none"}))
    with pytest.raises(ag.InvalidTypeError, match=r"takes no option 'invisible_blocks_effect'; its options: objects"):
        load_map(ROOM, invisible_blocks_effect=False)


# --------------------------------------------------------------------------
# Foundry VTT scenes
# --------------------------------------------------------------------------

V10_GRID = {"type": 1, "size": 100, "distance": 5, "units": "ft"}


def scene(walls=(), **fields):
    """A v10 scene of 10 x 8 squares of 100 px; padding 0.25 puts square (0, 0) at pixel (300, 200)."""
    return {"name": "test", "width": 1000, "height": 800, "padding": 0.25, "grid": V10_GRID,
            "walls": list(walls), **fields}


def px(x0, y0, x1, y1, size=100, pad=(300, 200)):
    """Scene pixels of a wall given in squares."""
    return [pad[0] + x0 * size, pad[1] + y0 * size, pad[0] + x1 * size, pad[1] + y1 * size]


def test_foundry_v10_walls_doors_and_restrictions(tmp_path):
    walls = [
        {"c": px(5, 0, 5, 3), "move": 20, "sight": 20, "light": 20, "door": 0, "ds": 0, "dir": 0},  # wall
        {"c": px(5, 3, 5, 4), "move": 20, "sight": 20, "door": 1, "ds": 0},  # closed door
        {"c": px(5, 4, 5, 5), "move": 20, "sight": 20, "door": 1, "ds": 1},  # open door
        {"c": px(5, 5, 5, 6), "move": 20, "sight": 20, "door": 2, "ds": 2},  # locked secret door
        {"c": px(5, 6, 5, 7), "move": 20, "sight": 0, "door": 1, "ds": 0},  # glass door
        {"c": px(0, 7, 3, 7), "move": 20, "sight": 10},  # terrain wall
        {"c": px(3, 7, 6, 7), "move": 20, "sight": 0},  # invisible wall
        {"c": px(6, 7, 9, 7), "move": 0, "sight": 20},  # ethereal wall
        {"c": px(9, 7, 9, 7)},  # zero length
        {"c": px(1, 1, 2, 1), "move": 0, "sight": 10},  # blocks nothing aoegrid tracks
    ]
    path = write_json(tmp_path / "keep.json", scene(walls, lights=[{"x": 0}, {"x": 1}]))
    m = read_foundry(path)
    assert (m.grid.width, m.grid.height, m.grid.square, m.grid.units) == (10, 8, 5.0, "ft")
    info = m.info
    assert (info.format, info.pixels_per_square, info.offset) == ("foundry v10", 100.0, (300.0, 200.0))
    got = [(w.start, w.end, w.kind.value, w.open, sorted(c.value for c in w.blocks)) for w in m.walls]
    everything = ["effect", "movement", "sight"]
    assert got == [
        ((5.0, 0.0), (5.0, 3.0), "wall", False, everything),
        ((5.0, 3.0), (5.0, 4.0), "door", False, everything),
        ((5.0, 4.0), (5.0, 5.0), "door", True, everything),
        ((5.0, 5.0), (5.0, 6.0), "door", False, everything),
        ((5.0, 6.0), (5.0, 7.0), "window", False, everything),
        ((0.0, 7.0), (3.0, 7.0), "wall", False, ["effect", "movement"]),
        ((3.0, 7.0), (6.0, 7.0), "wall", False, ["effect", "movement"]),
        ((6.0, 7.0), (9.0, 7.0), "wall", False, ["sight"]),
    ]
    assert info.notes == (
        "dropped 1 zero-length wall",
        "1 limited (terrain) wall read as not blocking sight (Foundry blocks sight only from the second"
        + " limited wall a line crosses)",
        "dropped 1 wall blocking neither movement nor sight",
        "skipped 2 lights (not read)",
    )
    invisible = read_foundry(path, invisible_blocks_effect=False).walls[6]
    assert invisible.blocks == {Channel.MOVEMENT}


def test_foundry_one_way_walls_block_from_the_side_foundry_says(tmp_path):
    # dir 1 (LEFT) blocks rays striking its left side: looking from (0, 4) east, north of it.
    walls = [{"c": px(0, 4, 10, 4), "move": 20, "sight": 20, "dir": 1}]
    m = read_foundry(write_json(tmp_path / "oneway.json", scene(walls)))
    assert m.walls[0].one_way is ag.Side.LEFT
    from_north = ag.area(ag.Sphere(20), at=(5, 2), on=m)
    from_south = ag.area(ag.Sphere(20), at=(5, 6), on=m)
    assert all(y < 4 for _, y in from_north)
    assert any(y < 4 for _, y in from_south)
    walls[0]["dir"] = 2
    right = read_foundry(write_json(tmp_path / "oneway2.json", scene(walls)))
    assert right.walls[0].one_way is ag.Side.RIGHT
    assert any(y >= 4 for _, y in ag.area(ag.Sphere(20), at=(5, 2), on=right))


def test_foundry_07_layout(tmp_path):
    # 0.7: grid is a number, gridDistance/gridUnits beside it, sense 0/1/2, move 0/1.
    # Padding: ceil(500 * 0.25 / 50) = 3 squares across, ceil(400 * 0.25 / 50) = 2 down.
    pad = (150, 100)
    walls = [
        {"c": px(2, 0, 2, 8, 50, pad), "move": 1, "sense": 1, "door": 0, "ds": 0, "dir": 0},
        {"c": px(4, 0, 4, 8, 50, pad), "move": 1, "sense": 2},  # limited
        {"c": px(6, 0, 6, 8, 50, pad), "move": 1, "sense": 0},  # invisible
        {"c": px(8, 2, 8, 3, 50, pad), "move": 1, "sense": 1, "door": 1, "ds": 1},
    ]
    data = {"width": 500, "height": 400, "padding": 0.25, "grid": 50, "gridDistance": 1.5, "gridUnits": "m",
            "walls": walls, "tokens": []}
    m = read_foundry(write_json(tmp_path / "old.json", data))
    assert (m.info.format, m.info.offset) == ("foundry 0.7-v9", (150.0, 100.0))
    assert (m.grid.width, m.grid.height, m.grid.square, m.grid.units) == (10, 8, 1.5, "m")
    assert [w.start for w in m.walls] == [(2.0, 0.0), (4.0, 0.0), (6.0, 0.0), (8.0, 2.0)]
    assert [w.blocks_sight for w in m.walls] == [True, False, False, False]
    assert [w.blocks_effect for w in m.walls] == [True, True, True, False]
    assert m.walls[3].kind is WallKind.DOOR and m.walls[3].open
    assert m.info.notes[0].startswith("1 limited (terrain) wall read as not blocking sight")


def test_foundry_scene_of_partial_squares_rounds_up(tmp_path):
    m = read_foundry(write_json(tmp_path / "odd.json", scene(width=1050, padding=0)))
    assert (m.grid.width, m.grid.height, m.info.offset) == (11, 8, (0.0, 0.0))
    assert m.info.notes == ("width and height 10.5 x 8 is not whole squares: rounded up to 11 x 8",)


# --------------------------------------------------------------------------
# Text maps
# --------------------------------------------------------------------------

HALL = """
    ##########
    #a...#...#
    #....+..b#
    #....#...#
    ###'######
    #........#
    ##########
"""


def test_text_map_room_with_doors_and_tokens():
    m = read_text_map(HALL)
    assert (m.grid.width, m.grid.height) == (10, 7)
    assert [(t.name, t.x, t.y, t.footprint) for t in m.tokens] == [("a", 1, 1, (1, 1)), ("b", 8, 2, (1, 1))]
    doors = [(m.walls[i].start, m.walls[i].end, m.walls[i].open) for i in m.doors]
    assert doors == [((5.5, 2.0), (5.5, 3.0), False), ((3.0, 4.5), (4.0, 4.5), True)]
    assert m.info == MapInfo("<text>", "text")
    west = ag.area(ag.Sphere(20), at=(3, 2), on=m)
    assert all(x <= 5 for x, _ in west)  # the closed door keeps the east room out
    assert (3, 5) in west and (3, 4) in west  # the open door lets it through south
    east = ag.area(ag.Sphere(20), at=(3, 2), on=m.with_door(m.door_near((5.5, 2.5)), open=True))
    assert (6, 2) in east and (6, 2) not in west


def test_text_map_walls_are_the_outlines_of_wall_blocks():
    m = read_text_map("###\n#.#\n###")
    outline = sorted((w.start, w.end) for w in m.walls)
    assert len(outline) == 8  # the outer square and the hole, one wall per side
    assert ((1.0, 1.0), (2.0, 1.0)) in outline or ((2.0, 1.0), (1.0, 1.0)) in outline


def test_text_map_from_a_file(tmp_path):
    path = tmp_path / "hall.map"
    path.write_text(HALL)
    assert read_text_map(path).walls == read_text_map(HALL).walls
    assert read_text_map(str(path)).info.source == str(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("###\n#.##\n###", r"<text>: row 2, column 4: row 2 has 4 squares but row 1 has 3"),
        ("####\n#.?#\n####", r"<text>: row 2, column 3: unknown character '\?'"),
        ("#.#\n. .\n#.#", r"<text>: row 2, column 2: unknown character ' '"),
        ("....\n.+..\n....", r"<text>: row 2, column 2: cannot tell which way the door runs"),
        ("\n   \n", r"<text>: the text map has no rows"),
    ],
)
def test_bad_text_maps(text, message):
    with pytest.raises(MapFileError, match=message):
        read_text_map(text)


def test_text_map_heights_and_floors():
    m = read_text_map("""
        ########
        #a.=..+#
        #..=..##
        ########

        heights: #=..20 +=0..8 ==0..5
        floor 10: 0,0 8,0 8,4 0,4 / 1,1 3,1 3,3 1,3
    """)
    spans = sorted({(w.kind.value, w.span) for w in m.walls})
    assert spans == [("door", (0.0, 8.0)), ("wall", (float("-inf"), 20.0)), ("wall", (0.0, 5.0))]
    low = sorted((w.start, w.end) for w in m.walls if w.span == (0.0, 5.0))
    assert low == [((3.0, 1.0), (3.0, 3.0)), ((3.0, 3.0), (4.0, 3.0)), ((4.0, 1.0), (3.0, 1.0)),
                   ((4.0, 3.0), (4.0, 1.0))]  # the low wall's own outline, apart from the tall walls' outline
    (floor,) = m.floors
    assert floor.elevation == 10.0 and floor.polygon.area == 32 - 4
    assert [list(h.coords) for h in floor.polygon.interiors] == [[(1, 1), (3, 1), (3, 3), (1, 3), (1, 1)]]
    # Without the lines the map is the same map, every wall of any height, no floor.
    plain = read_text_map("########\n#a.#..+#\n#..#..##\n########")
    assert all(w.infinite for w in plain.walls) and plain.floors == ()
    assert len(read_text_map(HALL).floors) == 0


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ("heights: #=10..5", r"<text>: 'heights: #=10\.\.5': # spans 10\.\.5: its bottom is above its top"),
        ("heights: #10", r"'#10' is not C=bottom\.\.top"),
        ("heights: a=0..5", r"'a' cannot be a wall: letters are creatures"),
        ("heights: #=low..5", r"'low' is not a number"),
        ("floor 10: 0,0 2,2 2,0 0,2", r"'floor 10: 0,0 2,2 2,0 0,2': not a valid floor: Floor polygon is not valid"),
        ("floor 10: 0,0 2,0", r"a floor's outline and holes need 3 or more points each"),
        ("floor 10: 0,0 2;0 2,2", r"'2;0' is not a point x,y"),
        ("ceiling 10: 0,0 2,0 2,2", r"a line after the map is 'heights: C=bottom\.\.top \.\.\.' or 'floor Z"),
    ],
)
def test_bad_text_map_heights_and_floors(lines, message):
    with pytest.raises(MapFileError, match=message):
        read_text_map("####\n#..#\n####\n" + lines)


def test_text_map_heights_and_floor_lines_go_after_the_rows():
    with pytest.raises(MapFileError, match=r"<text>: row 1: heights and floor lines go after the map's rows"):
        read_text_map("heights: #=0..5\n####\n#..#\n####")


def test_ragged_text_map_file_names_the_file(tmp_path):
    path = tmp_path / "ragged.txt"
    path.write_text("####\n#..\n####\n")
    with pytest.raises(MapFileError, match=r"ragged\.txt: row 2, column 4: row 2 has 3 squares"):
        load_map(path)


# --------------------------------------------------------------------------
# Bad files: every error names the file and the field
# --------------------------------------------------------------------------


def test_truncated_json(tmp_path):
    cut = tmp_path / "cut.dd2vtt"
    cut.write_bytes(ROOM.read_bytes()[:400])
    with pytest.raises(MapFileError, match=r"cut\.dd2vtt: invalid JSON at line 1, column \d+: .*truncated\?"):
        read_uvtt(cut)
    # Cut inside the image: the image string never ends.
    half = tmp_path / "half.dd2vtt"
    half.write_bytes(CAVE.read_bytes()[:1_000_000])
    with pytest.raises(MapFileError, match=r"half\.dd2vtt: invalid JSON at line \d+, column \d+: Unterminated string"):
        read_uvtt(half)


def test_invalid_json(tmp_path):
    path = tmp_path / "bad.dd2vtt"
    path.write_text('{"format": 0.3,\n  "resolution": {"map_size": {"x": 4 "y": 4}}}')
    with pytest.raises(MapFileError, match=r"bad\.dd2vtt: invalid JSON at line 2, column 38: Expecting ',' delimiter$"):
        read_uvtt(path)
    path.write_text('["not", "a", "map"]')
    with pytest.raises(MapFileError, match=r"bad\.dd2vtt: expected a JSON object at the top level, got a list"):
        read_uvtt(path)


def bad_room(tmp_path, change) -> Path:
    data = room_json()
    change(data)
    return write_json(tmp_path / "room.dd2vtt", data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["resolution"].pop("pixels_per_grid"), r"resolution\.pixels_per_grid is missing"),
        (lambda d: d.pop("line_of_sight"), r"line_of_sight is missing"),
        (lambda d: d["resolution"].update(pixels_per_grid=-3),
         r"resolution\.pixels_per_grid must be a positive number, got -3$"),
        (lambda d: d.update(line_of_sight={"x": 1}), r"line_of_sight must be a list, got \{\"x\": 1\} \(an object\)"),
        (lambda d: d["line_of_sight"][3][1].update(x="7"),
         r"line_of_sight\[3\]\[1\]\.x must be a number, got \"7\" \(a string\)"),
        (lambda d: d["line_of_sight"][0][1].update(y=float("nan")), r"line_of_sight\[0\]\[1\]\.y must be a finite number, got NaN"),
        (lambda d: d["objects_line_of_sight"][0][5].update(x=float("inf")),
         r"objects_line_of_sight\[0\]\[5\]\.x must be a finite number, got Infinity"),
        (lambda d: d["portals"][1].pop("bounds"), r"portals\[1\]\.bounds is missing"),
        (lambda d: d.update(image=5), r"image must be a base64 string, got 5 \(a number\)"),
        (lambda d: d["portals"][0].update(bounds=[{"x": 1, "y": 1}]), r"portals\[0\]\.bounds must be two points, got 1"),
        (lambda d: d["portals"][0].update(closed="yes"), r"portals\[0\]\.closed must be true or false"),
        (lambda d: d["lights"][0].pop("range"), r"lights\[0\]\.range is missing"),
        (lambda d: d["resolution"].update(map_size={"x": 10**7, "y": 10**7}),
         r"resolution\.map_size gives a 10,000,000 x 10,000,000 grid, too large"),
        (lambda d: d["resolution"].update(map_size={"x": 0, "y": 10}), r"resolution\.map_size\.x must be a positive number, got 0"),
    ],
)
def test_bad_uvtt_fields_name_file_and_field(tmp_path, change, message):
    with pytest.raises(MapFileError, match=r"room\.dd2vtt: " + message):
        read_uvtt(bad_room(tmp_path, change))


def test_absurd_size_is_refused_before_reading_walls(tmp_path, monkeypatch):
    def no_walls(*args, **kwargs):
        raise AssertionError("walls were read for a map that cannot exist")

    monkeypatch.setattr(aio.uvtt, "_polyline_segments", no_walls)
    path = bad_room(tmp_path, lambda d: d["resolution"].update(map_size={"x": 10**5, "y": 10**9}))
    with pytest.raises(MapFileError, match=r"room\.dd2vtt: resolution\.map_size gives a 100,000 x 1,000,000,000"):
        read_uvtt(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("walls"), r"walls is missing"),
        (lambda d: d["walls"].append({"c": [1, 2, 3]}), r"walls\[0\]\.c must be 4 numbers \[x0, y0, x1, y1\], got 3"),
        (lambda d: d["walls"].append({"c": [1, 2, 3, float("nan")]}), r"walls\[0\]\.c\[3\] must be a finite number"),
        (lambda d: d["walls"].append({"c": [1, 2, 3, 4], "sight": 7}), r"walls\[0\]\.sight must be one of 0, 1, 2, 10, 20"),
        (lambda d: d["walls"].append({"c": [1, 2, 3, 4], "dir": 3}), r"walls\[0\]\.dir must be one of 0, 1, 2, got 3"),
        (lambda d: d["grid"].update(type=7), (r"grid\.type must be one of 0 \(gridless\), 1 \(square\), 2 \(hex odd-r\), "
                                              r"3 \(hex even-r\), 4 \(hex odd-q\), 5 \(hex even-q\), got 7")),
        (lambda d: d["grid"].update(size="big"), r"grid\.size must be a number"),
        (lambda d: d.update(width=10**9, height=10**9), r"width and height gives a 10,000,000 x 10,000,000 grid"),
        (lambda d: d.update(padding=2), r"padding must be between 0 and 1, got 2"),
    ],
)
def test_bad_foundry_fields_name_file_and_field(tmp_path, change, message):
    data = scene(grid=dict(V10_GRID))
    change(data)
    with pytest.raises(MapFileError, match=r"scene\.json: " + message):
        read_foundry(write_json(tmp_path / "scene.json", data))


def test_errors_are_value_errors_with_no_bare_key_or_type_errors(tmp_path):
    path = bad_room(tmp_path, lambda d: d["portals"][0].pop("bounds"))
    with pytest.raises(ValueError) as caught:
        read_uvtt(path)
    assert isinstance(caught.value, ag.InvalidValueError)
    assert not isinstance(caught.value, (KeyError, TypeError))
    assert re.search(r"room\.dd2vtt", str(caught.value))


# --------------------------------------------------------------------------
# Hostile input (issue 10): numbers past the float range, encodings, odd paths
# --------------------------------------------------------------------------


def write_raw(path: Path, text: str) -> Path:
    """JSON text as written, for numbers json.dumps would not write (1e999, 401 digits)."""
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"width": 1e308, "height": 1000, "grid": {"size": 1e-300}, "walls": []}',
         r"width and height gives a grid too large to count \(inf x 1e\+303 squares\)"),
        ('{"width": 1%s, "height": 1000, "grid": {"size": 100}, "walls": []}' % ("0" * 400),
         r"width must be a finite number, got ~1e400$"),
        ('{"width": 1000, "height": 1000, "grid": {"size": 1e-300}, "walls": []}',
         r"width and height gives a ~1e303 x ~1e303 grid, too large"),
        ('{"width": 1e-297, "height": 1e-297, "grid": {"size": 1e-300}, "walls": [{"c": [1e10, 0, 0, 0]}]}',
         r"walls\[0\]\.c lies too far away: in squares of the map it is beyond the float range"),
        ('{"width": 1000, "height": 1000, "grid": {"size": 100}, "walls": [{"c": [1, 2, 3, 4], "door": -%s}]}'
         % ("9" * 401), r"walls\[0\]\.door must be one of 0, 1, 2, got -~1e401"),
        ('{"width": 1000, "height": 1000, "grid": {"size": 100}, "walls": [], "x": %s}' % ("1" * 5000),
         r"invalid JSON: an integer of more than 4300 digits"),
    ],
)
def test_numbers_past_the_float_range_in_a_scene(tmp_path, text, message):
    with pytest.raises(MapFileError, match=r"scene\.json: " + message):
        load_map(write_raw(tmp_path / "scene.json", text))


def test_numbers_past_the_float_range_in_universal_vtt(tmp_path):
    text = json.dumps(room_json()).replace('"pixels_per_grid": 256', '"pixels_per_grid": ' + "7" * 401)
    with pytest.raises(MapFileError, match=r"room\.dd2vtt: resolution\.pixels_per_grid must be a finite number, got ~7\.78e400"):
        read_uvtt(write_raw(tmp_path / "room.dd2vtt", text))
    far = room_json()
    far["resolution"]["map_origin"] = {"x": -1e308, "y": 0}
    far["line_of_sight"][0][0] = {"x": 1e308, "y": 0}
    with pytest.raises(MapFileError, match=r"room\.dd2vtt: line_of_sight\[0\]\[0\] lies too far away"):
        read_uvtt(write_json(tmp_path / "room.dd2vtt", far))


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_text_maps_in_utf16_or_with_a_byte_order_mark_read_as_text(tmp_path, encoding):
    path = tmp_path / "room.txt"
    path.write_text("###\n#a.\n###\n", encoding=encoding)
    m = load_map(path)
    assert (m.grid.width, m.grid.height) == (3, 3) and [t.name for t in m.tokens] == ["a"]


def test_universal_vtt_in_utf16_keeps_its_image(tmp_path):
    png = PNG_MAGIC + b"\x00\x01"
    data = {**room_json(), "note": "Café", "image": base64.b64encode(png).decode()}
    path = tmp_path / "room.dd2vtt"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-16")
    m = read_uvtt(path)
    assert len(m.walls) == len(read_uvtt(ROOM).walls)
    assert m.info.image() == (png, "png")


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("bad.txt", b"#.#\n.\xff.\n", r"bad\.txt: not UTF-8 text \(bad byte at offset 5\); save it as UTF-8"),
        ("bad.dd2vtt", b'{"format": "\xc3\x28"}', r"bad\.dd2vtt: not UTF-8 text \(bad byte at offset 12\)"),
        ("bad.txt", b"\xff\xfe#\x00\x00\xd8", r"bad\.txt: not UTF-16 text \(bad byte at offset 4\)"),
    ],
)
def test_undecodable_files_name_the_byte(tmp_path, name, data, message):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(MapFileError, match=message):
        load_map(path)


def test_paths_that_are_not_regular_files(tmp_path):
    (tmp_path / "x.dd2vtt").mkdir()
    with pytest.raises(MapFileError, match=r"x\.dd2vtt: is a directory, not a map file"):
        load_map(tmp_path / "x.dd2vtt")
    (tmp_path / "x.txt").mkdir()
    with pytest.raises(MapFileError, match=r"x\.txt: is a directory, not a map file"):
        read_text_map(tmp_path / "x.txt")
    with pytest.raises(MapFileError, match=r"'a\\x00b\.dd2vtt': a file name cannot contain a NUL character"):
        load_map("a\0b.dd2vtt")
    with pytest.raises(ag.InvalidTypeError, match=r"a map file path must be a string or a path, got b'x\.dd2vtt'"):
        load_map(b"x.dd2vtt")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "pipe.dd2vtt"
    os.mkfifo(fifo)
    # Opening a FIFO for reading blocks until a writer comes: none ever does here.
    with pytest.raises(MapFileError, match=r"pipe\.dd2vtt: is not a regular file \(a FIFO, socket or device\)"):
        load_map(fifo)


def test_a_wall_reaching_past_the_float_range_beside_a_portal_loads(tmp_path):
    # Found by the long fuzz run: the portal-cutting arithmetic overflowed (a RuntimeWarning).
    walls = [[(1e308, 1.0), (5.0, 1.5)], [(5.0, 2.5), (5.0, 9.0)]]
    m = read_uvtt(write_json(tmp_path / "far.dd2vtt", uvtt(walls, [((5.0, 1.5), (5.0, 2.5), True)])))
    assert kinds(m) == {"wall": 2, "door": 1, "window": 0}
    assert len(ag.area(ag.Sphere(10), at=(4, 4), on=m)) > 0
