"""The examples and notebooks run, and say what they should."""

import json
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_compare_presets_example(capsys):
    ns = runpy.run_path(str(ROOT / "examples" / "compare_presets.py"))
    counts = ns["compare"](20.0)
    assert counts == {"starfinder": 44, "pf2e": 44, "sw5e": 52, "savage-worlds": 60}
    assert "starfinder: 44 squares" in capsys.readouterr().out


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.name)
def test_notebook_runs_clean(path, capsys):
    """Every code cell runs, in order, in one fresh namespace."""
    nb = json.loads(path.read_text())
    ns: dict = {"__name__": "__main__"}
    code_cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code_cells
    for cell in code_cells:
        exec(compile("".join(cell["source"]), f"{path.name}", "exec"), ns)
    assert "starfinder 44" in capsys.readouterr().out
