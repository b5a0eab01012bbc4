"""The command line on hex maps and gridless maps (Foundry scenes and hex text maps written here)."""

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import aoegrid as ag
from aoegrid.cli import main
from aoegrid.io import export

#: A hex map: walls between b and c, three creatures one hex across.
HEX_TEXT = """\
hex: pointy odd
. . . . . . . .
 . . a . . . . .
. . . b # . . .
 . . . # c . . .
. . . . . . . .
"""


def run_main(*args):
    """main() in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def hex_scene(tmp_path: Path, t: int = 2) -> Path:
    """A Foundry v13 hex scene 1000 x 800 pixels, hexes 100 pixels across, padding 0.25 (11 x 9 hexes odd-r)."""
    path = tmp_path / f"hexes-{t}.json"
    path.write_text(json.dumps({
        "name": "hexes", "width": 1000, "height": 800, "padding": 0.25,
        "grid": {"type": t, "size": 100, "distance": 5, "units": "ft"},
        "_stats": {"coreVersion": "13.351"}, "walls": []}))
    return path


def gridless_scene(tmp_path: Path) -> Path:
    """A Foundry v13 gridless scene 30 x 20 ft (20 pixels a foot), a wall at x 20 ft from y 0 to 15, three creatures.

    Orc is centred at (15, 10), Imp at (23.5, 10) behind the wall, Ally at (7.5, 15); each a 5-ft square.
    """
    path = tmp_path / "open.json"
    path.write_text(json.dumps({
        "name": "open", "width": 600, "height": 400, "padding": 0,
        "grid": {"type": 0, "size": 100, "distance": 5, "units": "ft"},
        "_stats": {"coreVersion": "13.351"},
        "walls": [{"c": [400, 0, 400, 300]}],
        "tokens": [{"name": "Orc", "x": 250, "y": 150, "width": 1, "height": 1, "disposition": -1},
                   {"name": "Imp", "x": 420, "y": 150, "width": 1, "height": 1, "disposition": -1},
                   {"name": "Ally", "x": 100, "y": 250, "width": 1, "height": 1, "disposition": 1}]}))
    return path


@pytest.fixture
def hexes(tmp_path):
    path = tmp_path / "hexes.txt"
    path.write_text(HEX_TEXT)
    return path


# --- info ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("t", "line"), [
    (2, "grid: 11 x 9 hexes of 5 ft (pointy, odd rows shoved: odd-r, Foundry type 2)"),
    (3, "grid: 11 x 9 hexes of 5 ft (pointy, even rows shoved: even-r, Foundry type 3)"),
    (4, "grid: 12 x 9 hexes of 5 ft (flat, odd columns shoved: odd-q, Foundry type 4)"),
    (5, "grid: 12 x 9 hexes of 5 ft (flat, even columns shoved: even-q, Foundry type 5)"),
])
def test_info_on_a_foundry_hex_scene(tmp_path, t, line):
    path = hex_scene(tmp_path, t)
    code, out, err = run_main("info", path)
    assert (code, err) == (0, "")
    assert out.splitlines() == [f"map: {path} (foundry v10)", line, "walls: 0, doors: 0, windows: 0",
                                "lights: 0, tokens: 0"]


def test_info_on_a_hex_text_map_and_a_gridless_scene(tmp_path, hexes):
    code, out, _ = run_main("info", hexes)
    assert code == 0
    assert out.splitlines()[1:4] == ["grid: 8 x 5 hexes of 5 ft (pointy, odd rows shoved: odd-r, Foundry type 2)",
                                     "walls: 10, doors: 0, windows: 0", "lights: 0, tokens: 3"]
    path = gridless_scene(tmp_path)
    code, out, _ = run_main("info", path)
    assert code == 0
    assert out.splitlines() == [f"map: {path} (foundry v10)", "table: 30 x 20 ft, no grid",
                                "walls: 1, doors: 0, windows: 0", "lights: 0, tokens: 3", "wall bounds: x 20..20, y 0..15"]


# --- area on hexes --------------------------------------------------------------------------------


def test_area_on_hexes_at_a_corner_given_three_ways(hexes):
    """col,row@k; the same corner as another hex's (3,1@3 is 3,2@1); and x,y near it, snapped."""
    code, out, err = run_main("area", hexes, "--shape", "sphere", "--size", "10", "--at", "3,2@1")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "sphere 10 ft at corner 1 of hex (3, 2), starfinder burst: 10 hexes",
        "  cover: 3 hexes with some cover, 2 hexes of the shape blocked",
        "  creatures: b (none, 5 ft), a (none, 10 ft)",
    ]
    _, same, _ = run_main("area", hexes, "--shape", "sphere", "--size", "10", "--at", "3,1@3")
    assert same.splitlines()[1:] == out.splitlines()[1:]
    assert same.splitlines()[0] == "sphere 10 ft at corner 3 of hex (3, 1), starfinder burst: 10 hexes"
    # The corner is (4, 2.0207); 0.03 hex widths off it is taken as it, and said so.
    code, snapped, _ = run_main("area", hexes, "--shape", "sphere", "--size", "10", "--at", "4.03,2.02")
    assert code == 0
    assert snapped.splitlines() == [
        "sphere 10 ft at corner 3 of hex (3, 1), starfinder burst: 10 hexes",
        "  origin snapped to corner 3 of hex (3, 1) at (4, 2.021), 0.03 hex widths from 4.03,2.02",
        *out.splitlines()[1:],
    ]


def test_area_on_hexes_under_5e_and_savage_worlds(hexes):
    code, out, _ = run_main("area", hexes, "--shape", "sphere", "--size", "10", "--at", "3,2@1", "--rules", "5e",
                            "--mode", "spread")
    assert code == 0
    assert out.splitlines() == [
        "sphere 10 ft at corner 1 of hex (3, 2), sw5e spread: 10 hexes",
        "  cover: 0 hexes with some cover, 2 hexes of the shape blocked",
        "  creatures: b (none, 5 ft), a (none, 10 ft)",
    ]
    # Savage Worlds: a hex an inch, a template from anywhere (no snapping).
    code, out, _ = run_main("area", hexes, "--shape", "medium-blast", "--at", "3.3,2.2", "--units", "in")
    assert code == 0
    assert out.splitlines() == [
        "sphere 2 in at (3.3, 2.2), savage-worlds burst: 17 hexes",
        "  cover: 0 hexes with some cover, 5 hexes of the shape blocked",
        "  creatures: b (none, 1 in), a (none, 2 in)",
    ]
    code, out, _ = run_main("area", hexes, "--shape", "small-blast", "--at", "2,2@center", "--units", "in")
    assert code == 0 and out.splitlines()[0] == "sphere 1 in at the centre of hex (2, 2), savage-worlds burst: 7 hexes"


@pytest.mark.parametrize(("args", "message"), [
    (["--at", "4.02,2.3", "--rules", "5e"],
     ("sw5e rules put every point of origin on a hex corner: 4.02,2.3 is 0.28 hex widths from the nearest, corner 3 "
     "of hex (3, 1) at (4, 2.021); give --at 3,1@3, or --rules savage-worlds (with --units in) for any point")),
    (["--at", "3,2@center"],
     ("starfinder rules put every point of origin on a hex corner: 3,2@center is a hex's centre; give 3,2@k (k 0-5), "
     "or --rules savage-worlds (with --units in) for any point")),
    (["--at", "3,2@9"],
     "--at 3,2@9: after @ give a corner 0-5 (pointy hexes clockwise from the top, flat ones from the right) or center"),
    (["--at", "9,2@1"], "--at 9,2@1: hex (9, 2) is not on the 8 x 5 hex map (columns 0-7, rows 0-4)"),
    (["--at", "a,b@1"],
     ("--at takes x,y in hex widths (map coordinates: one hex width a unit, 0,0 the map's top-left), col,row@k "
     "(corner k of hex (col, row), 0-5: pointy hexes clockwise from the top, flat ones from the right) or "
     "col,row@center, got 'a,b@1'")),
    (["--at", "30,2"], "origin (30, 2) is off the 8 x 5 hex map (0..8.5 x 0..4.619 in hex widths)"),
    (["--at", "3,2@1", "--elevation", "5"], "--elevation is not measured on hex maps yet; leave it out"),
    (["--at", "3,2@1", "--scale", "1e6", "-o", "never.png"],
     "--scale must be from 1 to 4,485 pixels a hex for this 8 x 5 hex map, got 1e+06"),
])
def test_area_on_hexes_refuses_in_one_line(hexes, args, message):
    code, out, err = run_main("area", hexes, "--shape", "sphere", "--size", "10", *args)
    assert (code, out, err) == (2, "", f"aoegrid: error: {message}\n")


def test_area_on_a_foundry_hex_scene_writes_picture_json_and_template(tmp_path):
    path = hex_scene(tmp_path)
    png, record, template = tmp_path / "a.png", tmp_path / "a.json", tmp_path / "t.json"
    code, out, err = run_main("area", path, "--shape", "cone", "--size", "15", "--direction", "E", "--at", "3,2@1",
                              "-o", png, "--json", record, "--foundry", template)
    assert (code, err) == (0, "")
    assert out.splitlines() == ["cone 15 ft at corner 1 of hex (3, 2), starfinder burst: 6 hexes",
                                "  cover: 0 hexes with some cover, 0 hexes of the shape blocked"]
    assert png.read_bytes()[:4] == b"\x89PNG"
    m = ag.load_map(path)
    expected = ag.area(ag.Cone(15, "E"), at=m.grid.corners(3, 2)[1], on=m)
    got = json.loads(record.read_text())
    assert got["record"] == "hex-area" and got["hexes"] == export.area_record(expected)["hexes"]
    assert got["inputs"]["at"] == "3,2@1"
    assert json.loads(template.read_text()) == export.foundry_template(expected, m.info)


# --- area on the open table -----------------------------------------------------------------------


def test_area_on_a_gridless_scene(tmp_path):
    path = gridless_scene(tmp_path)
    png, record, template = tmp_path / "a.png", tmp_path / "a.json", tmp_path / "t.json"
    code, out, err = run_main("area", path, "--shape", "sphere", "--size", "10", "--at", "14,10", "-o", png,
                              "--json", record, "--foundry", template)
    assert (code, err) == (0, "")
    # The wall at x 20 cuts the ball (and hides Imp, behind it).
    assert out.splitlines() == ["sphere 10 ft at (14, 10), starfinder burst: 272.1 sq ft",
                                "  cover: 42.1 sq ft of the shape blocked",
                                "  creatures: Orc (none, 0 ft), Ally (none, 4.72 ft)"]
    assert png.read_bytes()[:4] == b"\x89PNG"
    m = ag.load_map(path)
    expected = ag.area(ag.Sphere(10), at=(14, 10), on=m)
    got = json.loads(record.read_text())
    assert got["record"] == "open-area" and got == export.area_record(expected, inputs=got["inputs"])
    t = json.loads(template.read_text())
    assert t == export.foundry_template(expected, m.info)
    assert (t["t"], t["x"], t["y"], t["distance"]) == ("circle", 280, 200, 10.0)  # 20 pixels a foot


@pytest.mark.parametrize(("args", "message"), [
    (["--shape", "small-blast", "--at", "10,12"],
     "savage-worlds rules measure in inches: this gridless map is in feet, and --units does not convert it"),
    (["--shape", "sphere", "--size", "10", "--at", "14,10", "--units", "in"],
     ("--units in: a gridless map's coordinates are its own unit (ft), so it is not measured again; leave out "
     "--units (or give a map measured in inches)")),
    (["--shape", "sphere", "--size", "10", "--at", "44,10"], "origin (44, 10) is off the 30 x 20 ft map"),
    (["--shape", "sphere", "--size", "10", "--at", "14", "--json", "-"],
     "--at takes x,y in ft (e.g. 12,7), got '14'"),
    (["--shape", "sphere", "--size", "10", "--at", "14,10", "--scale", "0.5", "-o", "never.png"],
     "--scale must be from 1 to 5,737 pixels a square (5 ft) for this 30 x 20 ft gridless map, got 0.5"),
])
def test_area_on_a_gridless_scene_refuses_in_one_line(tmp_path, args, message):
    code, out, err = run_main("area", gridless_scene(tmp_path), *args)
    assert (code, out, err) == (2, "", f"aoegrid: error: {message}\n")


# --- the other commands ---------------------------------------------------------------------------


def test_best_on_hexes(hexes, tmp_path):
    out_json = tmp_path / "best.json"
    code, out, err = run_main("best", hexes, "--shape", "sphere", "--size", "5", "--hit", "a,b,c", "--caster", "0,0",
                              "--range", "30", "--limit", "2", "--json", out_json)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "sphere 5 ft, starfinder burst from caster on hex (0, 0), range 30 ft; hit a, b, c",
        "1. origin corner 2 of hex (2, 1), 15 ft from the caster: 2 hits, 0 avoided",
        "   hits: a (no cover), b (no cover)",
        "2. origin corner 3 of hex (2, 1), 15 ft from the caster: 2 hits, 0 avoided",
        "   hits: a (no cover), b (no cover)",
    ]
    records = json.loads(out_json.read_text())
    assert [r["score"] for r in records] == [2.0, 2.0]
    assert records[0]["area"]["record"] == "hex-area" and records[0]["stand"] is None
    m = ag.load_map(hexes)
    best = ag.best_placements(ag.Sphere(5), caster=ag.Token(0, 0), range=30, on=m, hit=lambda t: True)[0]
    assert records[0]["at"] == export.area_record(best.area)["origin"]


@pytest.mark.parametrize(("command", "message"), [
    (["threat", "--caster", "a"], "aoegrid threat works on square grids; {hexes} is a hex map"),
    (["best", "--hit", "a", "--caster", "b", "--move", "10"], ("aoegrid best --move works on square grids; {hexes} is "
     "a hex map")),
    (["best", "--hit", "a", "-o", "s.png"], "aoegrid best -o (the score map) works on square grids; {hexes} is a hex map"),
    (["best", "--hit", "a", "--elevation", "0,10"], ("aoegrid best --elevation works on square grids; {hexes} is a "
     "hex map")),
    (["threat", "--caster", "Orc"], "aoegrid threat works on square grids; {open} is a gridless map"),
    (["best", "--hit", "hostile"], "aoegrid best works on square grids and hex maps; {open} is a gridless map"),
])
def test_commands_the_board_does_not_take_yet_say_so_in_one_line(tmp_path, hexes, command, message):
    paths = {"hexes": hexes, "open": gridless_scene(tmp_path)}
    board = "open" if "{open}" in message else "hexes"
    code, out, err = run_main(command[0], paths[board], "--shape", "sphere", "--size", "5", *command[1:])
    assert (code, out, err) == (2, "", f"aoegrid: error: {message.format(**paths)}\n")


def test_batch_on_hexes_snaps_near_corners_and_refuses_far_ones(hexes, tmp_path):
    placements = tmp_path / "p.csv"
    placements.write_text("name,shape,size,x,y,rules\n"
                          "ball,sphere,10,4,2.0207,5e\n"
                          "near,sphere,10,4.03,2.02,starfinder\n"
                          "far,sphere,5,3.3,2.7,starfinder\n")
    code, out, err = run_main("batch", hexes, placements, "--workers", "1", "--skip-errors")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["record"] for r in records] == ["batch", "batch", "error"]
    m = ag.load_map(hexes)
    corner = m.grid.corners(3, 2)[1]
    for r, rules in zip(records[:2], ("5e", "starfinder"), strict=True):
        assert r["area"]["hexes"] == export.area_record(ag.area(ag.Sphere(10), at=corner, on=m, rules=rules))["hexes"]
    assert records[2]["message"] == (
        f"{placements}, row 4: starfinder rules put every point of origin on a hex corner: 3.3,2.7 is 0.274 hex widths "
        "from the nearest, corner 3 of hex (3, 2) at (3.5, 2.887); give columns x and y 3.5,2.887, or --rules "
        "savage-worlds (with --units in) for any point")
    assert err.endswith("2 areas written, 1 error record\n")


def test_batch_on_a_gridless_scene(tmp_path):
    path = gridless_scene(tmp_path)
    placements = tmp_path / "p.csv"
    placements.write_text("shape,size,x,y\nsphere,10,14,10\n")
    code, out, err = run_main("batch", path, placements, "--workers", "1")
    assert (code, err) == (0, "")
    [record] = [json.loads(line) for line in out.splitlines()]
    expected = export.area_record(ag.area(ag.Sphere(10), at=(14, 10), on=ag.load_map(path)))
    assert record["area"]["record"] == "open-area" and record["area"]["geometry"] == expected["geometry"]


# --- through the installed command -----------------------------------------------------------------


def entry_point() -> str:
    script = Path(sys.executable).parent / "aoegrid"
    return str(script) if script.exists() else shutil.which("aoegrid") or "aoegrid"


def test_the_installed_command_on_a_hex_map_and_a_gridless_map(tmp_path, hexes):
    done = subprocess.run([entry_point(), "area", str(hexes), "--shape", "sphere", "--size", "10", "--at", "3,2@1",
                           "--json", "-"], capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["count"] == 10
    assert done.stderr.splitlines()[0] == "sphere 10 ft at corner 1 of hex (3, 2), starfinder burst: 10 hexes"
    done = subprocess.run([entry_point(), "info", str(gridless_scene(tmp_path))], capture_output=True, text=True,
                          check=False, timeout=300)
    assert done.returncode == 0 and done.stdout.splitlines()[1] == "table: 30 x 20 ft, no grid"


def test_best_on_hexes_reads_creatures_from_a_csv(hexes, tmp_path):
    tokens = tmp_path / "t.csv"
    tokens.write_text("name,x,y,size,tags\nogre,5,2,large,enemy\n")
    code, out, err = run_main("best", hexes, "--shape", "sphere", "--size", "5", "--hit", "enemy", "--caster", "a",
                              "--tokens", tokens, "--limit", "1")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "sphere 5 ft, starfinder burst from a on hex (2, 1), any range; hit enemy"
    assert out.splitlines()[2] == "   hits: ogre (no cover)"
    tokens.write_text("name,x,y,size,tags\nbig,7,4,large,enemy\n")
    code, out, err = run_main("best", hexes, "--shape", "sphere", "--size", "5", "--hit", "enemy", "--caster", "a",
                              "--tokens", tokens)
    assert (code, out) == (2, "")
    assert err == f"aoegrid: error: {tokens}, row 2: big (hex 7, 4) is not wholly on the 8 x 5 hex map: hex (6, 5) is off it\n"
