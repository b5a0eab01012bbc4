"""The examples and notebooks run, and say what they should."""

import runpy
from pathlib import Path

import pytest

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
    assert fireball["count"] == len(fireball["squares"]) and fireball["shape"] == {"kind": "sphere", "radius": 20.0}
    # Through the open doorway (8, 6)-(8, 8) the fireball reaches the orc;
    # the wall keeps the rest of the east room out.
    assert [t["name"] for t in fireball["tokens"]] == ["ally", "orc"]
    assert sorted(s for s in fireball["squares"] if s[0] >= 8) == [[8, 5], [8, 6], [8, 7], [8, 8], [9, 6], [9, 7]]
    assert fireball["blocked"] == [[8, 4], [8, 9]]
