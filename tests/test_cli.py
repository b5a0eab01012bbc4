"""The command line, through the installed entry point, on the test and bundled maps."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import aoegrid as ag
from aoegrid.cli import main
from aoegrid.io import export
from aoegrid.io.export import area_record

MAPS = Path(__file__).resolve().parent / "data"


def entry_point() -> str:
    script = Path(sys.executable).parent / "aoegrid"
    return str(script) if script.exists() else shutil.which("aoegrid") or "aoegrid"


def run(*args, cwd=None):
    return subprocess.run([entry_point(), *map(str, args)], capture_output=True, text=True, check=False, timeout=300, cwd=cwd)


def test_demo_writes_a_picture_beside_a_summary(tmp_path):
    done = run("demo", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "map: cave-oganm.dd2vtt (20x20 squares, 250 walls)"
    # A spread is a burst that can also turn corners: never fewer squares than the burst.
    assert lines[1] == "starfinder     burst  24   cone  26   spread  24"
    assert lines[2] == "pf2e           burst  24   cone  26   spread  24"
    assert lines[3] == "sw5e           burst  32   cone  16   spread  32"
    assert lines[4] == "savage-worlds  burst  36   cone  20   spread  36"
    picture = tmp_path / "aoegrid-demo.png"
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 50_000
    # Run again: the first picture is kept, the second gets a new name.
    again = run("demo", cwd=tmp_path)
    assert again.stdout.splitlines()[-1] == "picture: aoegrid-demo-1.png"
    assert (tmp_path / "aoegrid-demo.png").stat().st_size == picture.stat().st_size


def test_area_json_matches_the_library(tmp_path):
    out, png = tmp_path / "a.json", tmp_path / "a.png"
    done = run("area", MAPS / "sample-room-imagix.noimage.dd2vtt", "--shape", "sphere", "--size", "20", "--at", "3,3",
               "--json", out, "-o", png)
    assert done.returncode == 0, done.stderr
    m = ag.load_map(MAPS / "sample-room-imagix.noimage.dd2vtt")
    expected = area_record(ag.area(ag.Sphere(20), at=(3, 3), on=m))
    got = json.loads(out.read_text())
    assert got["squares"] == expected["squares"] and got["cover"] == expected["cover"]
    assert got["inputs"]["shape"] == "sphere" and got["inputs"]["at"] == "3,3" and got["inputs"]["size"] == 20.0
    assert done.stdout.splitlines()[0] == f"sphere 20 ft at (3.0, 3.0), starfinder burst: {len(expected['squares'])} squares"
    assert png.read_bytes()[:4] == b"\x89PNG"
    refused = run("area", "@demo", "--shape", "cone", "--size", "30", "--at", "6,11", "--direction", "E", "--json", out)
    assert refused.returncode == 2 and refused.stderr.strip() == f"aoegrid: error: {out} exists; pass --force to overwrite it"


def test_info_on_the_test_maps():
    done = run("info", MAPS / "blue-tower-base.dd2vtt")
    assert done.returncode == 0, done.stderr
    assert "grid: 10 x 12 squares of 5 ft" in done.stdout
    assert "walls: 437, doors: 41, windows: 0" in done.stdout
    assert "note: dropped 4 zero-length wall segments" in done.stdout
    room = run("info", MAPS / "sample-room-imagix.noimage.dd2vtt")
    assert "doors: 1, windows: 1" in room.stdout and "lights: 2" in room.stdout


def test_batch_to_json_lines(tmp_path):
    csv_path = tmp_path / "placements.csv"
    csv_path.write_text("name,shape,size,x,y,rules,mode,direction\n"
                        "fireball,sphere,20,11,8,starfinder,burst,\n"
                        "breath,cone,30,6,11,sw5e,burst,E\n"
                        "cloud,sphere,15,9,11,pf2e,spread,\n")
    out = tmp_path / "out.jsonl"
    done = run("batch", "@demo", csv_path, "--out", out)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"3 areas written to {out}"
    assert done.stderr == ""  # piped: no progress bar
    records = [json.loads(line)["area"] for line in out.read_text().splitlines()]
    m = ag.demo_map()
    assert records[0]["squares"] == area_record(ag.area(ag.Sphere(20), at=(11, 8), on=m))["squares"]
    assert records[1]["rules"] == "sw5e" and records[1]["shape"]["direction"] == 0.0
    assert records[2]["mode"] == "spread" and records[2]["inputs"]["name"] == "cloud"


def test_batch_one_json_per_row(tmp_path):
    csv_path = tmp_path / "p.csv"
    csv_path.write_text("name,shape,size,x,y\nfire ball,sphere,20,11,8\n,sphere,10,9,11\n")
    out = tmp_path / "areas"
    done = run("batch", "@demo", csv_path, "--out-dir", out)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["0001-fire-ball.json", "0002.json"]
    assert json.loads((out / "0002.json").read_text())["area"]["shape"] == {"shape": "sphere", "radius": 10.0,
                                                                           "units": None}
    again = run("batch", "@demo", csv_path, "--out-dir", out)
    assert again.returncode == 2 and "0001-fire-ball.json exists; pass --force" in again.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("shape,size,x\nsphere,20,3\n", "missing column(s) y"),
        ("shape,size,x,y\nsphere,big,3,3\n", "row 2: column size must be a number, got 'big'"),
        ("shape,size,x,y\nblob,20,3,3\n", "row 2: unknown shape 'blob'; valid shapes are sphere, cylinder, cone, line, cube"),
        ("shape,size,x,y,rules\nsphere,20,3,3,d20\n", "row 2: unknown rules 'd20'"),
    ],
)
def test_batch_bad_rows(tmp_path, content, message):
    csv_path = tmp_path / "p.csv"
    csv_path.write_text(content)
    done = run("batch", "@demo", csv_path)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_bad_map_files_exit_2_with_one_line(tmp_path):
    broken = tmp_path / "broken.dd2vtt"
    broken.write_text('{"format": 0.3, "resolution": {')
    done = run("info", broken)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith("aoegrid: error: ") and "broken.dd2vtt" in done.stderr
    debug = run("--debug", "info", broken)
    assert debug.returncode != 0 and "Traceback" in debug.stderr
    missing = run("area", tmp_path / "none.uvtt", "--shape", "sphere", "--size", "20", "--at", "1,1")
    assert missing.returncode == 2 and "no map file" in missing.stderr
    off = run("area", "@demo", "--shape", "sphere", "--size", "20", "--at", "30,1")
    assert off.returncode == 2 and "origin (30, 1) is off the 20 x 20 grid" in off.stderr


def test_bad_usage_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["frobnicate"])
    assert exc.value.code == 2
    assert "invalid choice: 'frobnicate'" in capsys.readouterr().err
    assert main(["area", "@demo", "--shape", "sphere", "--size", "20", "--at", "x"]) == 2
    assert "--at takes x,y in grid units (e.g. 12,7), got 'x'" in capsys.readouterr().err


def test_version_and_import_does_not_load_pyplot():
    assert ag.__version__ == "0.1.0"
    code = "import sys, aoegrid; print('matplotlib.pyplot' in sys.modules, 'matplotlib' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60)
    assert done.stdout.split() == ["False", "False"]


def test_batch_shows_progress_on_a_terminal(tmp_path):
    import io

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    csv_path = tmp_path / "p.csv"
    csv_path.write_text("shape,size,x,y\nsphere,20,11,8\nsphere,10,9,11\n")
    out, err = io.StringIO(), Terminal()
    assert main(["batch", "@demo", str(csv_path)], stdout=out, stderr=err) == 0
    # tqdm's bar, drawn over itself: the last drawing has the whole count, the time taken and the rate.
    last = err.getvalue().split("\r")[-1]
    assert re.fullmatch(rf"\[{'#' * 30}\] 2/2 \[\d\d:\d\d<00:00, +[\d.]+ areas/s\]\n", last), repr(last)
    assert "\x1b" not in err.getvalue()  # no escape codes: a Windows console would print them as they are
    assert len(out.getvalue().strip().splitlines()) == 2


def test_batch_off_a_terminal_writes_no_bar(tmp_path):
    """A pipe or a CI log gets no bar, nor a carriage return: the skipped rows' warnings, a line each."""
    import io

    csv_path = tmp_path / "p.csv"
    csv_path.write_text("shape,size,x,y\nsphere,20,11,8\nsphere,20,30,8\nsphere,10,9,11\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["batch", "@demo", str(csv_path), "--skip-errors", "--workers", "1"], stdout=out, stderr=err) == 0
    assert err.getvalue() == (
        f"aoegrid: warning: {csv_path}, row 3: origin (30, 8) is off the 20 x 20 grid; points must lie in "
        "[0, 20] x [0, 20] (the border counts) (error record written)\n2 areas written, 1 error record\n")
    assert len(out.getvalue().splitlines()) == 3


# --------------------------------------------------------------------------
# Hostile input (issue 10): every failure is exit 2 and one line
# --------------------------------------------------------------------------


def run_main(*args):
    """main() in this process: (exit code, stdout, stderr)."""
    import io

    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("scale", ["0", "-5", "nan", "inf", "1e6", "0.5"])
def test_area_scale_out_of_range(tmp_path, scale):
    code, _, err = run_main("area", "@demo", "--shape", "sphere", "--size", "20", "--at", "6,11",
                            f"--scale={scale}", "-o", tmp_path / "a.png")
    assert code == 2 and not (tmp_path / "a.png").exists()
    assert re.fullmatch(r"aoegrid: error: --scale must be from 1 to [\d,]+ pixels a square for this 20 x 20 map, "
                        r"got \S+\n", err)


def test_a_shape_larger_than_the_map_is_clipped_to_it(tmp_path):
    code, _, err = run_main("area", "@demo", "--shape", "cone", "--size", "1e9", "--at", "6,11", "--direction", "E",
                              "--rules", "sw5e", "--json", tmp_path / "a.json")
    assert code == 0, err
    record = json.loads((tmp_path / "a.json").read_text())
    m = ag.demo_map()
    expected = ag.area(ag.Cone(1e9, 0), at=(6, 11), on=m, rules="sw5e")
    assert [tuple(s) for s in record["squares"]] == expected.squares and len(expected) > 0


def test_argparse_errors_are_one_line():
    done = run("area", "@demo", "--shape", "blob", "--size", "20", "--at", "1,1")
    assert done.returncode == 2
    assert done.stderr == ("aoegrid: error: argument --shape: invalid choice: 'blob' (choose from 'sphere', "
                           "'cylinder', 'cone', 'line', 'cube', 'small-blast', 'medium-blast', 'large-blast', "
                           "'sw-cone', 'stream') (see 'aoegrid area --help')\n")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"shape,size,x,y,rules\nsphere,20,3\n",
         "p.csv, row 2: 3 field(s) but the header has 5 columns (shape,size,x,y,rules)"),
        (b"shape,size,x,y\nsphere,20,3,3,extra\n", "p.csv, row 2: 5 field(s) but the header has 4 columns"),
        (b"shape,size,x,y\nsph\xffre,20,3,3\n", "p.csv: not UTF-8 text (bad byte at offset 18); save it as UTF-8"),
        (b"shape,size,x,y\nsphere,20,3,3\n\"" + b"a" * 200_000 + b"\",1,1,1\n",
         "p.csv, row 3: not valid CSV: field larger than field limit (131072)"),
        (b"shape,size,x,y,shape\nsphere,20,3,3,cone\n", "p.csv: column(s) 'shape' appear more than once in the header"),
        (b"", "p.csv: missing column(s) shape, size, x, y"),
    ],
)
def test_batch_hostile_csv(tmp_path, data, message):
    csv_path = tmp_path / "p.csv"
    csv_path.write_bytes(data)
    code, out, err = run_main("batch", "@demo", csv_path)
    assert code == 2 and out == ""
    assert err.startswith("aoegrid: error: ") and err.count("\n") == 1
    assert message in err


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_batch_reads_a_csv_with_a_byte_order_mark(tmp_path, encoding):
    csv_path = tmp_path / "p.csv"
    csv_path.write_text("shape,size,x,y\nsphere,20,11,8\n", encoding=encoding)
    code, out, err = run_main("batch", "@demo", csv_path)
    assert (code, err) == (0, "")
    assert json.loads(out)["area"]["squares"] == area_record(ag.area(ag.Sphere(20), at=(11, 8), on=ag.demo_map()))["squares"]


def test_batch_rows_are_numbered_by_their_line_in_the_file(tmp_path):
    csv_path = tmp_path / "p.csv"
    csv_path.write_text("shape,size,x,y\n\nsphere,20,11,8\n\nsphere,big,1,1\n")
    code, _, err = run_main("batch", "@demo", csv_path)
    assert code == 2 and err == f"aoegrid: error: {csv_path}, row 5: column size must be a number, got 'big'\n"


def test_successful_runs_print_nothing_on_stderr(tmp_path):
    csv_path = tmp_path / "p.csv"
    rows = [f"{shape},{size},{x},{y},{rules},{mode},{direction}"
            for shape, size in (("sphere", 15), ("cone", 30), ("line", 60), ("cube", 15), ("cylinder", 10))
            for rules in ("starfinder", "pf2e", "sw5e")
            for mode in ("burst", "spread")
            for x, y, direction in ((6, 11, "E"), (0, 0, "SE"), (20, 20, 200))]
    csv_path.write_text("shape,size,x,y,rules,mode,direction\n" + "\n".join(rows) + "\n")
    done = run("batch", "@demo", csv_path, "--out", tmp_path / "out.jsonl")
    assert (done.returncode, done.stderr) == (0, "")


# --- aoegrid best ----------------------------------------------------------

CAVE_TOKENS = """name,x,y,size,tags
Kira,3,12,medium,ally;caster
Tor,7,13,,ally
Urg,11,8,,enemy
Mog,13,9,,enemy
Snik,12,12,,enemy
Ogre,15,11,large,enemy
Pip,16,15,,enemy
"""


def cave_party() -> ag.BattleMap:
    """The bundled cave with the creatures of CAVE_TOKENS, as the command line reads them."""
    cave = ag.demo_map()
    return ag.BattleMap(cave.grid, cave.walls, [ag.Token(3, 12, name="Kira", tags={"ally", "caster"}),
                                                ag.Token(7, 13, name="Tor", tags={"ally"}),
                                                ag.Token(11, 8, name="Urg", tags={"enemy"}),
                                                ag.Token(13, 9, name="Mog", tags={"enemy"}),
                                                ag.Token(12, 12, name="Snik", tags={"enemy"}),
                                                ag.Token(15, 11, size="large", name="Ogre", tags={"enemy"}),
                                                ag.Token(16, 15, name="Pip", tags={"enemy"})])


def test_best_prints_the_top_placements_and_writes_the_score_map(tmp_path):
    tokens, png, out = tmp_path / "tokens.csv", tmp_path / "scores.png", tmp_path / "best.json"
    tokens.write_text(CAVE_TOKENS)
    done = run("best", "@demo", "--shape", "sphere", "--size", "20", "--caster", "Kira", "--range", "medium",
               "--tokens", tokens, "--hit", "enemy", "--avoid", "ally", "--limit", "3", "-o", png, "--json", out)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "sphere 20 ft, starfinder burst from Kira at (3, 12), range 110 ft; hit enemy; avoid ally",
        "1. origin (12, 11), 40 ft from the caster: 4 hits, 0 avoided",
        "   hits: Mog (no cover), Snik (no cover), Urg (no cover), Ogre (no cover)",
        "2. origin (12, 12), 40 ft from the caster: 4 hits, 0 avoided",
        "   hits: Snik (no cover), Mog (no cover), Urg (no cover), Ogre (no cover)",
        "3. origin (13, 11), 45 ft from the caster: 4 hits, 0 avoided",
        "   hits: Mog (no cover), Snik (no cover), Urg (no cover), Ogre (no cover)",
        f"picture: {png}",
    ]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 50_000
    # The JSON holds what the library finds.
    m = cave_party()
    plans = ag.best_placements(ag.Sphere(20), caster=m.token("Kira"), range=ag.Range("medium", level=1), on=m,
                               hit="enemy", avoid="ally", limit=3)
    got = json.loads(out.read_text())
    assert [r["record"] for r in got] == ["placement"] * 3 and all(r["schema"] == "aoegrid/1" for r in got)
    for r in got:
        export.validate(r)
    assert [(tuple(p["at"]["point"]), p["score"], p["distance"]) for p in got] == [(p.at, p.score, p.distance) for p in plans]
    assert [h["token"]["name"] for h in got[0]["hits"]] == [r.token.name for r in plans[0].hits]
    assert got[0]["hits"][0]["token"]["name"] == "Mog" and got[0]["hits"][0]["cover"] == "none"
    assert sorted(map(tuple, got[0]["area"]["squares"])) == sorted(plans[0].area.squares) and got[0]["avoided"] == []
    # Outputs are never overwritten without --force.
    again = run("best", "@demo", "--shape", "sphere", "--size", "20", "--caster", "3,12", "--tokens", tokens,
                "--hit", "enemy", "-o", png)
    assert again.returncode == 2 and again.stderr == f"aoegrid: error: {png} exists; pass --force to overwrite it\n"


def test_best_tries_the_directions_given_for_a_cone(tmp_path):
    tokens = tmp_path / "tokens.csv"
    tokens.write_text(CAVE_TOKENS)
    done = run("best", "@demo", "--shape", "cone", "--size", "30", "--caster", "8,12", "--tokens", tokens,
               "--hit", "enemy", "--avoid", "ally", "--rules", "sw5e", "--direction", "E", "--direction", "315",
               "--direction", "NE", "--direction", "200", "--limit", "3")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "cone 30 ft, sw5e burst from caster at (8, 12), any range; hit enemy; avoid ally",
        "1. direction 315 (NE): 2 hits, 0 avoided",
        "   hits: Urg (no cover), Mog (half cover)",
        "2. direction 0 (E): 1 hit, 0 avoided",
        "   hits: Snik (no cover)",
    ]  # 315 and NE are one direction; 200 would reach Tor, an ally


def test_best_moves_the_caster_first(tmp_path):
    tokens, png, out = tmp_path / "tokens.csv", tmp_path / "moved.png", tmp_path / "moved.json"
    tokens.write_text(CAVE_TOKENS)
    done = run("best", "@demo", "--shape", "sphere", "--size", "20", "--caster", "Kira", "--range", "30",
               "--move", "15", "--tokens", tokens, "--hit", "enemy", "--avoid", "ally", "--limit", "3", "-o", png,
               "--json", out)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        ("sphere 20 ft, starfinder burst from Kira at (3, 12) after a move of up to 15 ft, range 30 ft; hit enemy; "
        "avoid ally"),
        "1. origin (12, 11), 30 ft from the caster: 4 hits, 0 avoided",
        "   stand at (5, 11) after 10 ft: path (3, 12) -> (4, 12) -> (5, 11)",
        "   hits: Mog (no cover), Snik (no cover), Urg (no cover), Ogre (no cover)",
        "2. origin (12, 12), 30 ft from the caster: 4 hits, 0 avoided",
        "   stand at (5, 11) after 10 ft: path (3, 12) -> (4, 12) -> (5, 11)",
        "   hits: Snik (no cover), Mog (no cover), Urg (no cover), Ogre (no cover)",
        "3. origin (13, 10), 30 ft from the caster: 4 hits, 0 avoided",
        "   stand at (6, 11) after 15 ft: path (3, 12) -> (4, 12) -> (5, 12) -> (6, 11)",
        "   hits: Mog (no cover), Urg (no cover), Ogre (no cover), Snik (no cover)",
        f"picture: {png}",
    ]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    m = cave_party()
    plans = ag.best_placements(ag.Sphere(20), caster=m.token("Kira"), range=30, on=m, hit="enemy", avoid="ally",
                               move=15, limit=3)
    records = json.loads(out.read_text())
    for r in records:
        export.validate(r)
    assert [(r["stand"], r["path"], r["cost"]) for r in records] == [
        ([p.stand.x, p.stand.y], [list(q) for q in p.path], p.cost) for p in plans]
    assert records[2]["stand"] == [6, 11] and records[2]["cost"] == 15.0
    # From where she stands, 30 ft reaches only Urg; with a medium range the best needs no move at all.
    code, text, err = run_main("best", "@demo", "--shape", "sphere", "--size", "20", "--caster", "Kira", "--range",
                               "medium", "--move", "30", "--tokens", tokens, "--hit", "enemy", "--avoid", "ally",
                               "--limit", "1")
    assert (code, err) == (0, "")
    assert text.splitlines()[1:3] == ["1. origin (12, 11), 40 ft from the caster: 4 hits, 0 avoided",
                                      "   stand at (3, 12): no move"]


def test_best_moves_a_cone_s_caster_and_draws_the_best_direction_from_each_square(tmp_path):
    tokens, png = tmp_path / "tokens.csv", tmp_path / "cone.png"
    tokens.write_text(CAVE_TOKENS)
    code, text, err = run_main("best", "@demo", "--shape", "cone", "--size", "30", "--caster", "Tor", "--move", "15",
                               "--rules", "sw5e", "--tokens", tokens, "--hit", "enemy", "--avoid", "ally", "--limit",
                               "1", "-o", png)
    assert (code, err) == (0, "")
    assert text.splitlines() == [
        "cone 30 ft, sw5e burst from Tor at (7, 13) after a move of up to 15 ft, any range; hit enemy; avoid ally",
        "1. direction 340: 3 hits, 0 avoided",
        "   stand at (9, 12) after 10 ft: path (7, 13) -> (8, 13) -> (9, 12)",
        "   hits: Snik (no cover), Mog (no cover), Ogre (no cover)",
        f"picture: {png}",
    ]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_best_without_a_caster_places_the_area_anywhere(tmp_path):
    (tmp_path / "tokens.csv").write_text(CAVE_TOKENS)
    code, text, err = run_main("best", "@demo", "--shape", "sphere", "--size", "20", "--tokens",
                               tmp_path / "tokens.csv", "--hit", "enemy", "--avoid", "ally", "--limit", "2")
    assert (code, err) == (0, "")
    assert text.splitlines() == [
        "sphere 20 ft, starfinder burst anywhere (no caster); hit enemy; avoid ally",
        "1. origin (13, 9): 4 hits, 0 avoided",
        "   hits: Mog (no cover), Urg (no cover), Ogre (no cover), Snik (no cover)",
        "2. origin (13, 10): 4 hits, 0 avoided",
        "   hits: Mog (no cover), Urg (no cover), Ogre (no cover), Snik (no cover)",
    ]
    plans = ag.best_placements(ag.Sphere(20), caster=None, on=cave_party(), hit="enemy", avoid="ally", limit=2)
    assert [(p.at, p.score) for p in plans] == [((13, 9), 4.0), ((13, 10), 4.0)]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--move", "30"], ("--move needs --caster (a square x,y or a creature's name); without one the area is "
                           "placed anywhere, with no one casting it (not for cones and lines)")),
        (["--range", "30"], "--range needs --caster"),
        (["--shape", "cone"], "a cone needs --caster"),
        (["--caster", "Kira", "--move", "-5"], "--move must be a distance in ft (the map's unit), 0 or more, got -5"),
        (["--caster", "Kira", "--move", "nan"], "--move must be a distance in ft (the map's unit), 0 or more, got nan"),
    ],
)
def test_best_move_and_caster_errors(tmp_path, options, message):
    (tmp_path / "tokens.csv").write_text(CAVE_TOKENS)
    shape = [] if "--shape" in options else ["--shape", "sphere"]
    code, out, err = run_main("best", "@demo", *shape, "--size", "20", "--tokens", tmp_path / "tokens.csv",
                              "--hit", "enemy", *options)
    assert (code, out) == (2, "")
    assert err.startswith(f"aoegrid: error: {message}") and err.count("\n") == 1


# --- aoegrid threat ----------------------------------------------------------


def test_threat_counts_the_casters_reaching_each_square(tmp_path):
    tokens, png, out = tmp_path / "tokens.csv", tmp_path / "threat.png", tmp_path / "threat.json"
    tokens.write_text(CAVE_TOKENS)
    done = run("threat", "@demo", "--shape", "sphere", "--size", "15", "--caster", "Urg", "--caster", "Mog",
               "--range", "20", "--move", "10", "--tokens", tokens, "--spare", "enemy", "-o", png, "--json", out)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        ("sphere 15 ft, starfinder burst, range 20 ft, against a 1 x 1 creature; casters: Urg at (11, 8) moving up "
        "to 10 ft, Mog at (13, 9) moving up to 10 ft; sparing enemy"),
        "squares reached: 190 of 400 (49 by 1 caster, 141 by 2 casters)",
        "  Urg: 171 squares",
        "  Mog: 160 squares",
        f"picture: {png}",
    ]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 50_000
    record = export.validate(json.loads(out.read_text()))
    t = ag.threat_map(ag.Sphere(15), casters=["Urg", "Mog"], range=20, move=10, on=cave_party(), spare="enemy")
    assert (record["record"], record["count"], record["max_spared_hit"]) == ("threat", 190, 0)
    assert record["squares"] == [[x, y, int(t.count[y, x])] for y, x in zip(*t.count.nonzero())]
    assert [c["token"]["name"] for c in record["casters"]] == ["Urg", "Mog"]
    for c in record["casters"]:
        name = c["token"]["name"]
        assert c["squares"] == [[x, y] for y, x in zip(*t.by_caster[name].nonzero())]
    assert record["casters"][0]["moves"] == [[x, y] for y, x in zip(*t.moves[0].nonzero())]
    assert record["spared"] == [[x, y, int(t.spared[y, x])] for y, x in zip(*np.isfinite(t.spared).nonzero())]
    assert record["inputs"] == {"map": "@demo", "shape": "sphere", "size": 15.0, "caster": ["Urg", "Mog"],
                                "range": "20", "level": 1, "move": [10.0], "tokens": str(tokens),
                                "spare": ["enemy"], "max_spared_hit": 0, "creature_size": "medium",
                                "rules": "starfinder", "mode": "burst", "direction": None, "width": None,
                                "height": None, "units": None}
    # Never overwritten without --force, and refused before the work.
    again = run("threat", "@demo", "--shape", "sphere", "--size", "15", "--caster", "Urg", "--tokens", tokens,
                "--json", out)
    assert again.returncode == 2 and again.stderr == f"aoegrid: error: {out} exists; pass --force to overwrite it\n"


def test_threat_json_to_stdout_with_squares_as_casters_and_a_large_creature(tmp_path):
    (tmp_path / "tokens.csv").write_text(CAVE_TOKENS)
    code, out, err = run_main("threat", "@demo", "--shape", "cone", "--size", "15", "--caster", "4,12", "--caster",
                              "Urg", "--move", "0", "--move", "5", "--rules", "sw5e", "--direction", "E",
                              "--direction", "S", "--creature-size", "large", "--tokens", tmp_path / "tokens.csv",
                              "--json", "-")
    assert code == 0
    assert err.splitlines() == [
        ("cone 15 ft, sw5e burst, any range, against a 2 x 2 creature; casters: caster 1 at (4, 12) moving up to "
        "0 ft, Urg at (11, 8) moving up to 5 ft"),
        "squares reached: 73 of 400 (73 by 1 caster)",
        "  caster 1: 21 squares",
        "  Urg: 52 squares",
    ]
    record = export.validate(json.loads(out))
    m = cave_party()
    t = ag.threat_map(ag.Cone(15), casters=[ag.Token(4, 12, name="caster 1"), m.token("Urg")], move=[0, 5], on=m,
                      rules="sw5e", size="large", directions=["E", "S"])
    assert record["size"] == {"width": 2, "height": 2} and record["spared"] is None
    assert record["squares"] == [[x, y, int(t.count[y, x])] for y, x in zip(*t.count.nonzero())]
    assert record["casters"][1]["moves"] == [[x, y] for y, x in zip(*t.moves[1].nonzero())]


def test_threat_sparing_the_casters_side_up_to_a_number(tmp_path):
    room = tmp_path / "room.txt"
    room.write_text(ROOM)
    common = ("threat", room, "--shape", "sphere", "--size", "10", "--range", "40", "--spare", "b")
    code, text, err = run_main(*common, "--caster", "a", "--caster", "b")
    assert (code, err) == (0, "")
    assert text.splitlines() == [
        ("sphere 10 ft, starfinder burst, range 40 ft, against a 1 x 1 creature; casters: a at (1, 1), b at (8, 4); "
         "sparing b"),
        "squares reached: 73 of 84 (31 by 1 caster, 42 by 2 casters)",
        "  a: 58 squares",
        "  b: 57 squares",
    ]
    # Three squares a reaches only with a burst that also catches b: counted when one spared creature may be hit.
    code, out, err = run_main(*common, "--caster", "a", "--max-spared-hit", "1", "--json", "-")
    assert code == 0 and err.splitlines()[:2] == [
        "sphere 10 ft, starfinder burst, range 40 ft, against a 1 x 1 creature; casters: a at (1, 1); sparing b (at most 1)",
        "squares reached: 61 of 84 (61 by 1 caster)"]
    record = export.validate(json.loads(out))
    m = ag.read_text_map(ROOM)
    t = ag.threat_map(ag.Sphere(10), casters=["a"], range=40, on=m, spare=[m.token("b")], max_spared_hit=1)
    assert record["max_spared_hit"] == 1 and record["count"] == int(t.mask.sum()) == 61
    assert record["spared"] == [[x, y, int(t.spared[y, x])] for y, x in zip(*np.isfinite(t.spared).nonzero())]
    assert sum(k for _, _, k in record["spared"]) == 3


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--caster", "Urg", "--move", "-5"], "--move must be a distance in ft (the map's unit), 0 or more, got -5"),
        (["--caster", "Zed"], ("--caster 'Zed' is neither a square x,y nor a creature: no token labelled 'Zed' on "
                               "this map; its tokens are 'Kira', 'Tor', 'Urg'")),
        (["--caster", "Urg", "--caster", "Mog", "--caster", "4,5", "--move", "5", "--move", "10"],
         "--move given 2 times for 3 casters: give one --move for all, or one per --caster, in order"),
        (["--caster", "Urg", "--caster", "Urg"], "--caster Urg is given twice; each caster counts once"),
        (["--caster", "Urg", "--max-spared-hit", "-1"], "--max-spared-hit must be 0 or more, got -1"),
        (["--caster", "Urg", "--spare", "friend"], "--spare friend: no creature on the map has that tag or name"),
        (["--caster", "Urg", "--creature-size", "blob"], "--creature-size 'blob': unknown Token size 'blob'"),
        (["--caster", "Urg", "--direction", "E", "--direction", "S"],
         "a sphere keeps one --direction (its own); several are tried only for cones and lines"),
        (["--caster", "Urg", "--rules", "sw"], "savage-worlds rules measure in inches: add --units in"),
    ],
)
def test_threat_bad_options_exit_2_with_one_line(tmp_path, options, message):
    (tmp_path / "tokens.csv").write_text(CAVE_TOKENS)
    code, out, err = run_main("threat", "@demo", "--shape", "sphere", "--size", "15", "--tokens",
                              tmp_path / "tokens.csv", *options, "-o", tmp_path / "t.png")
    assert (code, out) == (2, "")
    assert err.startswith(f"aoegrid: error: {message}") and err.count("\n") == 1
    assert not (tmp_path / "t.png").exists()


def low_wall_scene(path: Path) -> Path:
    """A Foundry scene of 12 x 6 squares of 5 ft (100 px, no padding): a wall 10 ft tall down x = 6, mage at (3, 2)."""
    wall = {"c": [600, 0, 600, 600], "move": 20, "sight": 20, "light": 20, "sound": 20, "dir": 0, "door": 0, "ds": 0,
            "flags": {"wall-height": {"bottom": 0, "top": 10}}}
    mage = {"name": "mage", "x": 300, "y": 200, "width": 1, "height": 1, "elevation": 0, "disposition": -1}
    path.write_text(json.dumps({"name": "low wall", "width": 1200, "height": 600, "padding": 0,
                                "grid": {"type": 1, "size": 100, "distance": 5, "units": "ft"},
                                "walls": [wall], "tokens": [mage]}))
    return path


def test_threat_searches_heights_and_reaches_a_flyer_over_a_low_wall(tmp_path, monkeypatch):
    from aoegrid.show import plotting

    scene = low_wall_scene(tmp_path / "low.json")
    m = ag.load_map(scene)
    common = ("threat", scene, "--shape", "sphere", "--size", "10", "--caster", "mage", "--range", "30")

    def record(*options):
        code, out, err = run_main(*common, *options, "--json", "-")
        assert code == 0
        return export.validate(json.loads(out)), err.splitlines()

    ground, _ = record()
    flyer, _ = record("--creature-elevation", "15")
    up, text = record("--elevation", "0..20/10", "--creature-elevation", "15")
    assert text[:2] == [
        ("sphere 10 ft, starfinder burst, range 30 ft, origins 0, 10 or 20 ft up, against a 1 x 1 creature 15 ft up; "
         "casters: mage at (3, 2)"),
        "squares reached: 65 of 72 (65 by 1 caster)"]
    # Exactly threat_map's answers with the same heights.
    for r, heights in ((ground, {}), (flyer, {"creature_elevation": 15}),
                       (up, {"elevation": [0, 10, 20], "creature_elevation": 15})):
        t = ag.threat_map(ag.Sphere(10), casters=["mage"], range=30, on=m, **heights)
        assert r["count"] == int(t.mask.sum())
        assert r["squares"] == [[x, y, int(t.count[y, x])] for y, x in zip(*t.count.nonzero())]
    # On the ground the 10-ft wall stops the burst; a 10-ft burst from the ground never climbs to feet 15 ft up;
    # from 20 ft up it passes over the wall onto the flyer: (8, 2) is two squares behind the wall.
    assert (ground["count"], flyer["count"], up["count"]) == (42, 0, 65)
    assert [2, 2, 1] in ground["squares"] and [8, 2, 1] not in ground["squares"]
    assert [8, 2, 1] in up["squares"] and [2, 2, 1] in up["squares"]
    # The inputs say the heights when given, and only then: a ground record is as before.
    assert not {"elevation", "pitches", "creature_elevation"} & set(ground["inputs"])
    assert (flyer["inputs"]["creature_elevation"], "elevation" in flyer["inputs"]) == (15.0, False)
    assert (up["inputs"]["elevation"], up["inputs"]["creature_elevation"]) == ([0.0, 10.0, 20.0], 15.0)
    # A cone's pitches: tried with every direction given, echoed as threat_map's pitches.
    code, out, err = run_main("threat", scene, "--shape", "cone", "--size", "15", "--caster", "mage", "--direction",
                              "E", "--pitch=-30,0", "--pitch", "30", "--elevation", "10", "--json", "-")
    assert code == 0 and err.splitlines()[0].startswith(
        "cone 15 ft, starfinder burst, any range, origin 10 ft up, pitches -30, 0 or 30, against a 1 x 1 creature;")
    cone = export.validate(json.loads(out))
    t = ag.threat_map(ag.Cone(15), casters=["mage"], on=m, directions=["E"], pitches=[-30, 0, 30], elevation=10)
    assert cone["squares"] == [[x, y, int(t.count[y, x])] for y, x in zip(*t.count.nonzero())]
    assert (cone["inputs"]["pitches"], cone["inputs"]["elevation"]) == ([-30.0, 0.0, 30.0], [10.0])
    # The picture's title says the heights, on a line of their own.
    titles = []
    drawn = plotting.plot_threat
    monkeypatch.setattr(plotting, "plot_threat", lambda t, **kw: titles.append(kw["title"]) or drawn(t, **kw))
    code, _, err = run_main(*common, "--elevation", "0..20/10", "--creature-elevation", "15", "-o",
                            tmp_path / "up.png")
    assert (code, err.count("\n")) == (0, 0) and (tmp_path / "up.png").stat().st_size > 0
    code, _, err = run_main(*common, "-o", tmp_path / "ground.png")
    assert titles == ["sphere 10 ft: where mage can reach a creature\norigins 0, 10 or 20 ft up; creature 15 ft up",
                      "sphere 10 ft: where mage can reach a creature"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--creature-elevation", "abc"],
         "--creature-elevation takes a height in ft (the map's unit), a finite number such as 15, got 'abc'"),
        (["--creature-elevation", "nan"],
         "--creature-elevation takes a height in ft (the map's unit), a finite number such as 15, got 'nan'"),
        (["--elevation", "0,ten"], "--elevation takes heights in ft: numbers, comma-separated, or LO..HI/STEP"),
        (["--elevation", "30..0/5"],
         "--elevation 30..0/5: give finite numbers, and LO..HI/STEP with LO at most HI and STEP above 0"),
        (["--pitch", "30"], "a sphere is not aimed up or down: a pitch is for cones and lines"),
    ],
)
def test_threat_bad_heights_exit_2_with_one_line(tmp_path, options, message):
    code, out, err = run_main("threat", "@demo", "--shape", "sphere", "--size", "15", "--caster", "4,5", *options,
                              "-o", tmp_path / "t.png")
    assert (code, out) == (2, "")
    assert err.startswith(f"aoegrid: error: {message}") and err.count("\n") == 1
    assert not (tmp_path / "t.png").exists()


ROOM = """
############
#a.........#
#..........#
#....#.....#
#....#..b..#
#....#.....#
############
"""


def test_best_uses_the_map_file_s_own_creatures_by_name(tmp_path):
    room, tokens, png = tmp_path / "room.txt", tmp_path / "tokens.csv", tmp_path / "room.png"
    room.write_text(ROOM)
    tokens.write_text("name,x,y,size,tags\norc,7,2,,enemy\ngob,9,3,,enemy\n,3,4,,enemy\nogre,10,4,,enemy\n"
                      "troll,8,5,,enemy\n")
    done = run("best", room, "--shape", "sphere", "--size", "10", "--caster", "a", "--tokens", tokens,
               "--hit", "enemy", "--avoid", "b", "--limit", "2", "-o", png)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "sphere 10 ft, starfinder burst from a at (1, 1), any range; hit enemy; avoid b",
        "1. origin (9, 2), 35 ft from the caster: 2 hits, 0 avoided",
        "   hits: orc (no cover), gob (no cover)",
        "2. origin (10, 3), 40 ft from the caster: 2 hits, 0 avoided",
        "   hits: gob (no cover), ogre (no cover)",
        f"picture: {png}",
    ]
    # Reaching b, the text map's own creature, is allowed once: three hits round it.
    allowed = run("best", room, "--shape", "sphere", "--size", "10", "--caster", "a", "--tokens", tokens,
                  "--hit", "orc,gob", "--hit", "enemy", "--avoid", "b", "--max-avoid", "1", "--limit", "1")
    assert allowed.stdout.splitlines() == [
        "sphere 10 ft, starfinder burst from a at (1, 1), any range; hit enemy, gob, orc; avoid b",
        "1. origin (9, 4), 40 ft from the caster: 3 hits, 1 avoided",
        "   hits: gob (no cover), ogre (no cover), troll (no cover)",
        "   avoided: b (no cover)",
    ]


def test_best_says_when_nothing_to_hit_can_be_reached_and_why(tmp_path):
    room, tokens = tmp_path / "room.txt", tmp_path / "tokens.csv"
    room.write_text(ROOM)
    tokens.write_text("name,x,y,size,tags\ntroll,8,5,,enemy\n")
    common = ("--size", "10", "--caster", "a", "--tokens", tokens, "--hit", "enemy")
    far = run("best", room, "--shape", "sphere", *common, "--range", "10")
    assert (far.returncode, far.stderr) == (0, "")
    assert far.stdout.splitlines() == [
        "sphere 10 ft, starfinder burst from a at (1, 1), range 10 ft; hit enemy",
        ("nothing to hit can be reached: 9 of 104 points of origin (intersections) are legal (inside a wall: 62, "
         "out of range: 32, no line of effect: 1), and none of them reaches a creature to hit"),
    ]
    crowded = run("best", room, "--shape", "sphere", *common, "--range", "100", "--rules", "sw5e", "--avoid", "b")
    assert crowded.stdout.splitlines()[1] == (
        "nothing to hit can be reached: 126 of 188 points of origin (intersections and centers) are legal "
        "(inside a wall: 62), and none of them reaches a creature to hit without reaching too many to avoid")
    cone = run("best", room, "--shape", "cone", *common, "--direction", "E")
    assert cone.stdout.splitlines()[1] == "nothing to hit can be reached: no direction (1 tried) reaches a creature to hit"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("name,x,y,size,tags\nA,1,1,,enemy\nB,4.5,2,,ally\n",
         "tokens.csv, row 3: column x must be a whole number (a square's column or row), got '4.5'"),
        ("name,x,y,size,tags\nA,1,1,,enemy\nB,4,2,huuge,ally\n",
         ("tokens.csv, row 3: unknown Token size 'huuge'; valid sizes are 'tiny', 'small', 'medium', 'large', "
          "'huge', 'gargantuan', 'colossal', a number of squares, or (width, height)")),
        ("name,x,y,size,tags\nA,1,1,,enemy\nB,19,2,large,ally\n",
         "tokens.csv, row 3: B (space 19..21 x 2..4) is not wholly on the 20 x 20 map"),
        ("name,x,y,size,tags\nA,1,1,,enemy\nB,,2,,ally\n",
         "tokens.csv, row 3: column x must be a whole number (a square's column or row), got ''"),
        ("name,x,y,tag\nA,1,1,enemy\n",
         "tokens.csv: unknown column(s) 'tag'; columns are name,x,y,size,tags (x and y required; tags separated by ';')"),
        ("name,x,y\nA,1,1,enemy\n", "tokens.csv, row 2: 4 field(s) but the header has 3 columns (name,x,y)"),
        ("name,y\nA,1\n", "tokens.csv: missing column(s) x; columns are name,x,y,size,tags"),
    ],
)
def test_best_bad_token_rows_name_the_file_and_row(tmp_path, content, message):
    (tmp_path / "tokens.csv").write_text(content)
    done = run("best", "@demo", "--shape", "sphere", "--size", "20", "--caster", "3,12", "--tokens", "tokens.csv",
               "--hit", "enemy", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"aoegrid: error: {message}") and done.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--hit", "foe"], "--hit foe: no creature on the map has that tag or name; tags on the map: ally, caster, enemy"),
        (["--hit", "enemy", "--avoid", "friend"], "--avoid friend: no creature on the map has that tag or name"),
        (["--hit", "enemy", "--caster", "Zed"], ("--caster 'Zed' is neither a square x,y nor a creature: no token "
                                                 "labelled 'Zed' on this map; its tokens are 'Kira', 'Tor'")),
        (["--hit", "enemy", "--caster", "4.5,1"], ("--caster takes a square x,y of whole numbers or a creature's "
                                                   "name, got '4.5,1'")),
        (["--hit", "enemy", "--limit", "0"], "--limit must be 1 or more, got 0"),
        (["--hit", "enemy", "--direction", "E", "--direction", "S"],
         "a sphere keeps one --direction (its own); several are tried only for cones and lines"),
        (["--hit", "enemy", "--range", "far"], "unknown range kind 'far'"),
        (["--hit", "enemy", "--rules", "chess"], "unknown rules 'chess'"),
    ],
)
def test_best_bad_options_exit_2_with_one_line(tmp_path, options, message):
    (tmp_path / "tokens.csv").write_text(CAVE_TOKENS)
    args = ["best", "@demo", "--shape", "sphere", "--size", "20", "--tokens", "tokens.csv", *options]
    if "--caster" not in options:
        args += ["--caster", "Kira"]
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"aoegrid: error: {message}") and done.stderr.count("\n") == 1


def test_best_warns_about_a_creature_in_a_wall_and_needs_tags(tmp_path):
    (tmp_path / "tokens.csv").write_text("name,x,y,size,tags\nTor,8,10,,ally\nUrg,11,8,,enemy\n")
    done = run("best", "@demo", "--shape", "sphere", "--size", "20", "--caster", "3,12", "--tokens", "tokens.csv",
               "--hit", "enemy", "--limit", "1", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stderr == ("aoegrid: warning: Tor stands where a wall runs through its space (8..9 x 10..11); "
                           "check the map or the token's position\n")
    bare = run("best", "@demo", "--shape", "sphere", "--size", "20", "--caster", "3,12", "--hit", "enemy")
    assert bare.returncode == 2 and bare.stderr == (
        "aoegrid: error: --hit enemy: no creature on the map has that tag or name; tags on the map: "
        "none (give tags in a --tokens CSV)\n")


# --- Shell conventions (issue 13) -------------------------------------------


def test_json_to_stdout_parses_and_the_summary_goes_to_stderr():
    done = run("area", "@demo", "--shape", "sphere", "--size", "20", "--at", "11,8", "--json", "-")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["schema"] == "aoegrid/1" and record["record"] == "area"
    assert done.stderr.startswith("sphere 20 ft at (11.0, 8.0), starfinder burst: ")


def test_a_png_to_stdout():
    done = subprocess.run([entry_point(), "area", "@demo", "--shape", "sphere", "--size", "20", "--at", "11,8",
                           "-o", "-"], capture_output=True, check=False, timeout=300)
    assert done.returncode == 0 and done.stdout[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"starfinder burst" in done.stderr


def test_demo_never_overwrites_and_takes_devices(tmp_path):
    mine = tmp_path / "mine.png"
    mine.write_text("hello\n")
    refused = run("demo", "--out", mine)
    assert refused.returncode == 2 and refused.stderr == f"aoegrid: error: {mine} exists; pass --force to overwrite it\n"
    assert mine.read_text() == "hello\n"
    null = run("demo", "--out", "/dev/null")
    assert null.returncode == 0, null.stderr
    assert null.stdout.splitlines()[-1] == "picture: /dev/null"
    forced = run("demo", "--out", mine, "--force")
    assert forced.returncode == 0 and mine.read_bytes()[:4] == b"\x89PNG"


def test_demo_never_imports_matplotlib(tmp_path):
    """The demo's picture is drawn with numpy and Pillow: importing matplotlib alone would take longer."""
    code = ("import sys; from aoegrid.cli import main; code = main(['demo', '-o', 'demo.png']); "
            "print(code, sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "0 []"
    assert (tmp_path / "demo.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args", [
    ["area", "@demo", "--shape", "sphere", "--size", "20", "--at", "11,8", "--json", "out.json"],
    ["threat", "@demo", "--shape", "sphere", "--size", "15", "--caster", "4,5", "--move", "10", "--json", "out.json"],
    ["area", "@demo", "--shape", "cone", "--size", "30", "--at", "6,11", "--direction", "E", "--pitch", "45",
     "--elevation", "10", "--json", "out.json"],
])
def test_json_alone_never_imports_matplotlib(tmp_path, args):
    code = (f"import sys; from aoegrid.cli import main; code = main({args!r}); "
            "print(code, sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "0 []"
    assert json.loads((tmp_path / "out.json").read_text())["schema"] == "aoegrid/1"


def test_version_and_debug_after_the_subcommand(tmp_path):
    version = run("--version")
    assert (version.returncode, version.stdout) == (0, f"aoegrid {ag.__version__}\n")
    broken = tmp_path / "broken.dd2vtt"
    broken.write_text("{")
    debug = run("info", broken, "--debug")
    assert debug.returncode != 0 and "Traceback" in debug.stderr


def test_savage_worlds_templates_in_inches():
    advice = run("area", "@demo", "--shape", "sphere", "--size", "4", "--at", "11,8", "--rules", "sw")
    assert advice.returncode == 2
    assert advice.stderr == "aoegrid: error: savage-worlds rules measure in inches: add --units in\n"
    done = run("area", "@demo", "--shape", "medium-blast", "--at", "11,8", "--units", "in", "--json", "-")
    assert done.returncode == 0, done.stderr
    m = ag.demo_map()
    inches = ag.BattleMap(ag.Grid(20, 20, units="in"), m.walls, m.tokens, m.fog, m.info)
    expected = ag.area(ag.savage_worlds.MEDIUM_BLAST, at=(11, 8), on=inches, rules="savage-worlds")
    record = json.loads(done.stdout)
    assert record["rules"] == "savage-worlds" and [tuple(q) for q in record["squares"]] == expected.squares
    stream = run("area", "@demo", "--shape", "stream", "--at", "6,11", "--units", "in", "--direction", "east")
    assert stream.returncode == 0, stream.stderr
    assert stream.stdout.startswith("line 12 in at (6.0, 11.0), savage-worlds burst")


def test_cones_need_a_direction_and_take_compass_words():
    missing = run("area", "@demo", "--shape", "cone", "--size", "30", "--at", "6,11")
    assert missing.returncode == 2 and "a cone needs --direction" in missing.stderr
    words = run("area", "@demo", "--shape", "cone", "--size", "30", "--at", "6,11", "--direction", "south-east")
    letters = run("area", "@demo", "--shape", "cone", "--size", "30", "--at", "6,11", "--direction", "SE")
    assert words.returncode == 0 and words.stdout == letters.stdout


def test_one_square_is_singular():
    done = run("area", "@demo", "--shape", "sphere", "--size", "2", "--at", "11.5,8.5", "--rules", "sw5e")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].endswith(": 1 square")


def test_an_origin_off_the_intersections_is_refused_in_command_line_terms():
    done = run("area", "@demo", "--shape", "sphere", "--size", "20", "--at", "6.5,11.5")
    assert done.returncode == 2
    assert done.stderr == ("aoegrid: error: starfinder rules put every point of origin on a grid intersection: give "
                           "whole numbers to --at (nearest: 6,12), or --rules sw5e or savage-worlds for any point\n")
    assert "replace" not in done.stderr


def test_area_writes_a_foundry_template_in_the_scenes_pixels(tmp_path):
    out = tmp_path / "t.json"
    done = run("area", "@demo", "--shape", "sphere", "--size", "20", "--at", "12,11", "--foundry", out)
    assert done.returncode == 0, done.stderr
    template = json.loads(out.read_text())
    m = ag.demo_map()
    expected = export.foundry_template(ag.area(ag.Sphere(20), at=(12, 11), on=m), m.info)
    assert template == expected
    assert template["t"] == "circle" and template["distance"] == 20
    assert (template["x"], template["y"]) == (12 * 64, 11 * 64)  # 64 px a square, no shift on the bundled map
    piped = run("area", "@demo", "--shape", "sphere", "--size", "20", "--at", "12,11", "--foundry", "-")
    assert json.loads(piped.stdout) == expected and "squares" in piped.stderr


# --- heights: --elevation and --pitch ----------------------------------------


def test_area_aims_a_cone_up_from_a_height():
    code, out, err = run_main("area", "@demo", "--shape", "cone", "--size", "30", "--at", "6,11", "--direction", "E",
                              "--pitch", "45", "--elevation", "10", "--json", "-")
    a = ag.area(ag.Cone(30, "E", pitch=45), at=(6, 11), on=ag.demo_map(), elevation=10)
    assert code == 0
    assert err.splitlines()[0] == f"cone 30 ft at (6.0, 11.0), height 10 ft, pitch 45, starfinder burst: {len(a)} squares"
    got = export.validate(json.loads(out))
    assert got["squares"] == area_record(a)["squares"] and got["shape"]["pitch"] == 45.0 and got["elevation"] == 10.0
    assert (got["inputs"]["pitch"], got["inputs"]["elevation"]) == (45.0, 10.0)
    level = run_main("area", "@demo", "--shape", "cone", "--size", "30", "--at", "6,11", "--direction", "E")[1]
    assert level.splitlines()[0].startswith("cone 30 ft at (6.0, 11.0), starfinder burst: ")  # 0: not said


def test_best_searches_heights_and_pitches(tmp_path):
    tokens, out = tmp_path / "tokens.csv", tmp_path / "best.json"
    tokens.write_text(CAVE_TOKENS)
    code, text, err = run_main("best", "@demo", "--shape", "sphere", "--size", "10", "--caster", "Kira", "--range",
                               "medium", "--tokens", tokens, "--hit", "enemy", "--avoid", "ally", "--limit", "4",
                               "--elevation", "0..10/5", "--json", out)
    assert (code, err) == (0, "")
    assert text.splitlines() == [
        "sphere 10 ft, starfinder burst from Kira at (3, 12), range 110 ft; hit enemy; avoid ally",
        "1. origin (12, 10), 45 ft from the caster: 2 hits, 0 avoided",
        "   hits: Urg (no cover), Mog (no cover)",
        "2. origin (13, 11), 45 ft from the caster: 2 hits, 0 avoided",
        "   hits: Mog (no cover), Snik (no cover)",
        "3. origin (12, 10), height 5 ft, 45 ft from the caster: 2 hits, 0 avoided",
        "   hits: Urg (no cover), Mog (no cover)",
        "4. origin (13, 11), height 5 ft, 45 ft from the caster: 2 hits, 0 avoided",
        "   hits: Mog (no cover), Snik (no cover)",
    ]
    m = cave_party()
    plans = ag.best_placements(ag.Sphere(10), caster=m.token("Kira"), range=ag.Range("medium", level=1), on=m,
                               hit="enemy", avoid="ally", limit=4, elevation=[0, 5, 10])
    records = [export.validate(r) for r in json.loads(out.read_text())]
    assert [(r["elevation"], r["pitch"], r["area"]["elevation"]) for r in records] == [
        (p.elevation, None, p.elevation) for p in plans] == [(0.0, None, 0.0), (0.0, None, 0.0), (5.0, None, 5.0),
                                                             (5.0, None, 5.0)]
    # A cone tries every pitch with every direction, from each height of its caster.
    code, text, err = run_main("best", "@demo", "--shape", "cone", "--size", "30", "--caster", "8,12", "--rules",
                               "sw5e", "--tokens", tokens, "--hit", "enemy", "--avoid", "ally", "--direction", "E",
                               "--direction", "315", "--pitch", "0,-20", "--pitch", "30", "--elevation", "0,5",
                               "--limit", "4", "--json", out, "--force")
    assert (code, err) == (0, "")
    assert text.splitlines() == [
        "cone 30 ft, sw5e burst from caster at (8, 12), any range; hit enemy; avoid ally",
        "1. direction 0 (E), pitch -20: 2 hits, 0 avoided",
        "   hits: Snik (no cover), Ogre (no cover)",
        "2. direction 0 (E), pitch 30: 2 hits, 0 avoided",
        "   hits: Snik (no cover), Ogre (no cover)",
        "3. direction 315 (NE): 2 hits, 0 avoided",
        "   hits: Urg (no cover), Mog (half cover)",
        "4. direction 315 (NE), pitch -20: 2 hits, 0 avoided",
        "   hits: Urg (no cover), Mog (half cover)",
    ]  # level, E reaches Snik alone: aimed down or up, the Ogre (10 ft tall) too
    plans = ag.best_placements(ag.Cone(30), caster=ag.Token(8, 12), on=m, rules="sw5e", hit="enemy", avoid="ally",
                               directions=["E", 315], pitches=[0, -20, 30], elevation=[0, 5], limit=4)
    records = [export.validate(r) for r in json.loads(out.read_text())]
    assert [(r["direction"], r["pitch"], r["elevation"]) for r in records] == [
        (p.direction, p.pitch, p.elevation) for p in plans] == [(0.0, -20.0, 0.0), (0.0, 30.0, 0.0),
                                                                (315.0, 0.0, 0.0), (315.0, -20.0, 0.0)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["area", "--shape", "cone", "--size", "30", "--at", "6,11", "--direction", "E", "--pitch", "95"],
         "--pitch must be from -90 to 90 degrees above the horizontal (90 straight up, -90 straight down), got 95"),
        (["area", "--shape", "sphere", "--size", "20", "--at", "6,11", "--pitch", "30"],
         "a sphere is not aimed up or down: a pitch is for cones and lines"),
        (["area", "--shape", "small-blast", "--at", "6,11", "--units", "in", "--pitch", "0"],
         "a small-blast is not aimed up or down: a pitch is for cones and lines"),
        (["best", "--shape", "sphere", "--size", "20", "--caster", "3,12", "--hit", "enemy", "--pitch", "30"],
         "a sphere is not aimed up or down: a pitch is for cones and lines"),
        (["best", "--shape", "cone", "--size", "30", "--caster", "3,12", "--hit", "enemy", "--pitch", "0,95"],
         "--pitch must be from -90 to 90 degrees above the horizontal (90 straight up, -90 straight down), got 95"),
        (["best", "--shape", "sphere", "--size", "20", "--caster", "3,12", "--hit", "enemy", "--elevation", "0,ten"],
         ("--elevation takes heights in ft: numbers, comma-separated, or LO..HI/STEP for LO, LO+STEP, ... up to HI "
          "(0..30/5), got 'ten'")),
        (["best", "--shape", "sphere", "--size", "20", "--caster", "3,12", "--hit", "enemy", "--elevation", "0,,5"],
         "--elevation takes heights in ft: numbers, comma-separated, or LO..HI/STEP"),
        (["best", "--shape", "sphere", "--size", "20", "--caster", "3,12", "--hit", "enemy", "--elevation", "0..30"],
         "--elevation takes heights in ft: numbers, comma-separated, or LO..HI/STEP"),
        (["best", "--shape", "sphere", "--size", "20", "--caster", "3,12", "--hit", "enemy", "--elevation", "30..0/5"],
         "--elevation 30..0/5: give finite numbers, and LO..HI/STEP with LO at most HI and STEP above 0"),
        (["best", "--shape", "sphere", "--size", "20", "--caster", "3,12", "--hit", "enemy", "--elevation", "nan"],
         "--elevation nan: give finite numbers, and LO..HI/STEP with LO at most HI and STEP above 0"),
        (["best", "--shape", "sphere", "--size", "20", "--caster", "3,12", "--hit", "enemy", "--elevation",
          "0..1e9/1"], "--elevation gives more than 1000 values; each is searched: give fewer"),
    ],
)
def test_bad_heights_and_pitches_exit_2_with_one_line(tmp_path, args, message):
    (tmp_path / "tokens.csv").write_text(CAVE_TOKENS)
    extra = ["--tokens", tmp_path / "tokens.csv"] if args[0] == "best" else []
    code, out, err = run_main(args[0], "@demo", *args[1:], *extra)
    assert (code, out) == (2, "")
    assert err.startswith(f"aoegrid: error: {message}") and err.count("\n") == 1


def test_batch_takes_a_pitch_column(tmp_path):
    csv_path = tmp_path / "p.csv"
    csv_path.write_text("shape,size,x,y,direction,elevation,pitch\n"
                        "cone,30,6,11,E,10,45\n"
                        "sphere,20,11,8,,,\n"
                        "line,30,6,11,S,,-30\n")
    code, out, err = run_main("batch", "@demo", csv_path)
    assert (code, err) == (0, "")
    m = ag.demo_map()
    expected = [ag.area(ag.Cone(30, "E", pitch=45), at=(6, 11), on=m, elevation=10),
                ag.area(ag.Sphere(20), at=(11, 8), on=m), ag.area(ag.Line(30, "S", pitch=-30), at=(6, 11), on=m)]
    records = [export.validate(json.loads(line))["area"] for line in out.splitlines()]
    assert [r["squares"] for r in records] == [area_record(a)["squares"] for a in expected]
    assert [r["shape"].get("pitch") for r in records] == [45.0, None, -30.0]
    csv_path.write_text("shape,size,x,y,direction,pitch\nsphere,20,11,8,,10\ncone,30,6,11,E,95\n")
    code, _, err = run_main("batch", "@demo", csv_path, "--skip-errors")
    assert code == 0 and err.splitlines() == [
        (f"aoegrid: warning: {csv_path}, row 2: a sphere is not aimed up or down: a pitch is for cones and lines "
         "(error record written)"),
        (f"aoegrid: warning: {csv_path}, row 3: column pitch must be from -90 to 90 degrees above the horizontal "
         "(90 straight up, -90 straight down), got 95.0 (error record written)"),
        "0 areas written, 2 error records",
    ]
