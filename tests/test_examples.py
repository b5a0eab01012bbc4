"""The examples and notebooks run, and say what they should."""

import runpy
from pathlib import Path

import aoegrid as ag

ROOT = Path(__file__).resolve().parent.parent


def test_compare_presets_example(capsys):
    ns = runpy.run_path(str(ROOT / "examples" / "compare_presets.py"))
    counts = ns["compare"](20.0)
    assert counts == {"starfinder": 44, "pf2e": 44, "sw5e": 52, "savage-worlds": 60}
    assert "starfinder: 44 squares" in capsys.readouterr().out


def test_export_areas_json_example(tmp_path):
    import json
    import subprocess
    import sys

    out = tmp_path / "areas.json"
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "export_areas_json.py"), str(out)],
                         capture_output=True, text=True, check=False, timeout=120)
    assert run.returncode == 0, run.stderr
    records = json.loads(out.read_text())
    assert [r["inputs"]["name"] for r in records] == ["fireball", "cold cone", "stinking cloud"]
    fireball = records[0]
    assert fireball["count"] == len(fireball["squares"]) and fireball["shape"] == {"shape": "sphere", "radius": 20.0, "units": None}
    # Through the open doorway (8, 6)-(8, 8) the fireball reaches the orc;
    # the wall keeps the rest of the east room out.
    assert [t["token"]["name"] for t in fireball["tokens"]] == ["ally", "orc"]
    assert sorted(s for s in fireball["squares"] if s[0] >= 8) == [[8, 5], [8, 6], [8, 7], [8, 8], [9, 6], [9, 7]]
    assert fireball["blocked"] == [[8, 4], [8, 9]]


def test_fireball_at_each_door_example():
    ns = runpy.run_path(str(ROOT / "examples" / "fireball_at_each_door.py"))
    m = ag.load_map(ROOT / "tests" / "data" / "sample-room-imagix.noimage.dd2vtt")
    # The door (x = 5, y 1.5..2.5 after the origin shift) and the window
    # (x = 5, y 7.6..8.4): the intersections beside them toward the map's centre.
    assert ns["door_origins"](m) == [(4, 2), (4, 8)]
    union, areas = ns["fireballs"](m)
    assert len(areas) == 2
    assert union == areas[0] | areas[1] and len(union) == int((areas[0].mask | areas[1].mask).sum())
    # The closed door and the window keep both fireballs in the room's west
    # half: x 1..5, y 1..9 after the shift.
    assert {x for x, _ in union.squares} == {1, 2, 3, 4} and {y for _, y in union.squares} == set(range(1, 9))


def test_fireball_example_writes_its_picture(tmp_path):
    import subprocess
    import sys

    maps = ROOT / "tests" / "data"
    out = tmp_path / "doors.png"
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "fireball_at_each_door.py"),
                          str(maps / "sample-room-imagix.noimage.dd2vtt"), str(out)],
                         capture_output=True, text=True, check=False, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "2 doors, 23 squares hit by at least one fireball"
    assert out.read_bytes()[:4] == b"\x89PNG"
    again = subprocess.run([sys.executable, str(ROOT / "examples" / "fireball_at_each_door.py"),
                            str(maps / "sample-room-imagix.noimage.dd2vtt"), str(out)],
                           capture_output=True, text=True, check=False, timeout=120)
    assert again.returncode != 0 and "exists; give another name" in again.stderr
