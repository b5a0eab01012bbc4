"""The import graph: layers in one direction only, no cycles, and a light `import aoegrid`."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_hold():
    """import-linter checks the layers and acyclic contracts in pyproject.toml."""
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--config", str(ROOT / "pyproject.toml")], capture_output=True, text=True,
                          check=False, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Contracts: 8 kept, 0 broken." in done.stdout


def test_import_aoegrid_loads_no_plotting_kernels_or_notebook_stack():
    code = ("import sys, aoegrid; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'matplotlib', 'numba', 'scipy', 'IPython', 'PIL'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "[]"
