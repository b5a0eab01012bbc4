"""The command line, through the installed entry point."""

import shutil
import subprocess
import sys
from pathlib import Path

import aoegrid
from aoegrid.cli import main


def entry_point() -> str:
    script = Path(sys.executable).parent / "aoegrid"
    return str(script) if script.exists() else shutil.which("aoegrid") or "aoegrid"


def test_demo_through_the_entry_point():
    run = subprocess.run([entry_point(), "demo"], capture_output=True, text=True, check=False, timeout=120)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "== starfinder: 20-ft burst at intersection (8, 8): 44 squares" in out
    assert "== sw5e: 20-ft burst at intersection (8, 8): 52 squares" in out
    assert "== savage-worlds: 3\" burst at intersection (8, 8): 36 squares" in out
    assert "== pf2e: 30-ft cone from (2, 2) toward SE: 24 squares" in out
    # The origin is drawn on its own line between rows, at its intersection.
    assert "\n          +\n" in out


def test_bad_usage_exits_2(capsys):
    try:
        main(["frobnicate"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "invalid choice: 'frobnicate'" in capsys.readouterr().err


def test_version():
    assert aoegrid.__version__ == "0.1.0"


def test_import_does_not_load_pyplot():
    code = "import sys, aoegrid; print('matplotlib.pyplot' in sys.modules, 'matplotlib' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60)
    assert run.stdout.split() == ["False", "False"]
