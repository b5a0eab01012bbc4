"""Fixed costs: start-up, one-off commands and first queries, in fresh processes.

Run from the repository root (aoegrid installed)::

    python benchmarks/bench_startup.py            # every figure, 5 runs each
    python benchmarks/bench_startup.py --quick    # 2 runs each
    python benchmarks/bench_startup.py --venv     # also the first run after `pip install .`
                                                  # into a new virtual environment (minutes)

Every figure is the median wall time of whole processes started afresh, beside
the references timed in the same run: the machine's Python start-up alone
(``python -c pass``), ``import numpy``, ``import numpy, shapely`` and
``import numpy, shapely, matplotlib.pyplot``. Every command runs once untimed
first, with its modules byte-compiled as ``pip install`` leaves them (into a
new ``PYTHONPYCACHEPREFIX`` for this environment, whose editable sources have
none and whose ``PYTHONDONTWRITEBYTECODE`` would compile them in every run).
Goals (issue 18), as ratios:

* ``import aoegrid``: within 1.5x of ``import numpy, shapely``;
* ``aoegrid area`` on a 10 x 10 map with 20 walls (``--json``): within 2.5x of it;
* ``aoegrid demo``: within 1.5x of ``import numpy, shapely, matplotlib.pyplot`` warm,
  within 3x on its first run (no compiled cache: ``NUMBA_CACHE_DIR`` pointed at a new,
  empty folder; with ``--venv``, the first run in a new environment);
* the first query on the bundled cave: at most 0.1 s beyond import (printed by the child).

"Cold" runs start with an empty numba cache; "warm" runs reuse one filled by an
earlier run (small maps load no compiled kernel: the two agree). The first query
says whether numba was imported. ``--venv`` installs the base package, without
numba (``aoegrid[fast]``), as ``pip install .`` does.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FIRST_QUERY = """
import time
t0 = time.perf_counter()
import aoegrid as ag
t1 = time.perf_counter()
cave = ag.demo_map()
a = ag.area(ag.Sphere(20), at=(10, 10), on=cave)
n = int(a.mask.sum()); v = float(a.visible[10, 10])
t2 = time.perf_counter()
import sys
print(f"{t1 - t0:.4f} {t2 - t1:.4f} {n} {'numba' in sys.modules}")
"""


def small_map(folder: Path) -> Path:
    """A 10 x 10 Universal VTT map with 20 walls: a room with pillars and a doorway."""
    walls = [[(0, 0), (10, 0)], [(10, 0), (10, 10)], [(10, 10), (0, 10)], [(0, 10), (0, 0)]]
    for k in range(4):
        x = 2 + 2 * k
        walls += [[(x, 3), (x + 0.5, 3)], [(x + 0.5, 3), (x + 0.5, 3.5)], [(x + 0.5, 3.5), (x, 3.5)],
                  [(x, 3.5), (x, 3)]]
    walls += [[(5, 6), (5, 10)], [(5, 6), (8, 6)], [(0, 6), (3, 6)], [(1, 8), (3, 8)]]
    doc = {
        "format": 0.3,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 10, "y": 10}, "pixels_per_grid": 50},
        "line_of_sight": [[{"x": x, "y": y} for x, y in w] for w in walls],
        "portals": [],
        "lights": [],
        "environment": {},
        "image": "",
    }
    path = folder / "room.dd2vtt"
    path.write_text(json.dumps(doc))
    return path


def timed(cmd: list[str], runs: int, env: dict[str, str], fresh_cache: bool = False,
          cwd: Path | None = None) -> float:
    """Median seconds of ``runs`` runs of ``cmd`` after an untimed one, each with a new numba cache when ``fresh_cache``."""
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
    times = []
    for _ in range(runs):
        run_env = dict(env)
        cache = None
        if fresh_cache:
            cache = tempfile.mkdtemp(prefix="numba-cache-")
            run_env["NUMBA_CACHE_DIR"] = cache
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, env=run_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
        times.append(time.perf_counter() - t0)
        if cache:
            shutil.rmtree(cache, ignore_errors=True)
    return statistics.median(times)


def first_query(python: str, runs: int, env: dict[str, str], fresh_cache: bool) -> tuple[float, float, str]:
    """Median (import, first query) seconds, as the child measures them, and whether numba was imported."""
    imports, queries, numba = [], [], set()
    for _ in range(runs):
        run_env = dict(env)
        cache = tempfile.mkdtemp(prefix="numba-cache-") if fresh_cache else None
        if cache:
            run_env["NUMBA_CACHE_DIR"] = cache
        out = subprocess.run([python, "-c", FIRST_QUERY], check=True, env=run_env, capture_output=True,
                             text=True).stdout.split()
        imports.append(float(out[0]))
        queries.append(float(out[1]))
        numba.add(out[3])
        if cache:
            shutil.rmtree(cache, ignore_errors=True)
    return statistics.median(imports), statistics.median(queries), "/".join(sorted(numba))


def row(name: str, seconds: float, ref: float | None = None, ref_name: str = "", goal: float | None = None) -> None:
    ratio = f"{seconds / ref:5.2f}x {ref_name}" if ref else ""
    target = f"(goal <= {goal:g}x)" if goal else ""
    print(f"{name:<52} {seconds * 1e3:8.0f} ms  {ratio:<34} {target}")


def clean_env(pycache: Path | None = None) -> dict[str, str]:
    """This process's environment without numba's cache folder or aoegrid's kernel choice, writing byte code
    (to ``pycache`` when given)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "AOEGRID_KERNELS", "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    if pycache is not None:
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def environment(python: str, runs: int, work: Path, label: str, env: dict[str, str]) -> None:
    bindir = Path(python).parent
    aoegrid = str(bindir / "aoegrid")
    room = small_map(work)
    print(f"\n{label}: {python}")
    t_pass = timed([python, "-c", "pass"], runs, env)
    t_np = timed([python, "-c", "import numpy"], runs, env)
    t_nps = timed([python, "-c", "import numpy, shapely"], runs, env)
    t_plt = timed([python, "-c", "import numpy, shapely, matplotlib.pyplot"], runs, env)
    row("python -c pass", t_pass)
    row("import numpy", t_np)
    row("import numpy, shapely", t_nps)
    row("import numpy, shapely, matplotlib.pyplot", t_plt)
    row("import aoegrid", timed([python, "-c", "import aoegrid"], runs, env), t_nps, "numpy+shapely", 1.5)
    area = [aoegrid, "area", str(room), "--shape", "sphere", "--size", "20", "--at", "5,5", "--json", "-"]
    row("aoegrid area, 10x10 map, 20 walls, --json (warm)", timed(area, runs, env), t_nps, "numpy+shapely", 2.5)
    row("aoegrid area, 10x10 map, 20 walls, --json (cold)", timed(area, runs, env, fresh_cache=True), t_nps,
        "numpy+shapely", 2.5)
    demo = [aoegrid, "demo", "--force", "-o", str(work / "demo.png")]
    row("aoegrid demo (cold: empty compiled cache)", timed(demo, max(1, runs // 2), env, fresh_cache=True, cwd=work),
        t_plt, "numpy+shapely+pyplot", 3.0)
    row("aoegrid demo (warm)", timed(demo, runs, env, cwd=work), t_plt, "numpy+shapely+pyplot", 1.5)
    for cold in (False, True):
        imp, query, numba = first_query(python, runs, env, cold)
        print(f"{'first query on the bundled cave (' + ('cold' if cold else 'warm') + ')':<52} "
              f"{query * 1e3:8.0f} ms  beyond import ({imp * 1e3:.0f} ms; numba imported: {numba})  (goal <= 100 ms)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="2 runs per figure")
    ap.add_argument("--venv", action="store_true", help="also time a new virtual environment with `pip install .`")
    args = ap.parse_args()
    runs = 2 if args.quick else 5
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        environment(sys.executable, runs, work, "this environment", clean_env(work / "pycache"))
        if args.venv:
            venv = work / "venv"
            env = clean_env()  # pip byte-compiles what it installs
            env.pop("PYTHONPATH", None)  # the new environment's own packages only
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
            python = str(venv / "bin" / "python")
            subprocess.run([python, "-m", "pip", "install", "-q", str(ROOT)], check=True, env=env)
            print(f"\nnew environment: pip install . took {time.perf_counter() - t0:.0f} s")
            aoegrid = str(venv / "bin" / "aoegrid")
            t0 = time.perf_counter()
            subprocess.run([aoegrid, "demo"], check=True, env=env, cwd=work, stdout=subprocess.DEVNULL)
            first = time.perf_counter() - t0
            t_plt = timed([python, "-c", "import numpy, shapely, matplotlib.pyplot"], runs, env)
            row("aoegrid demo, first run after pip install .", first, t_plt, "numpy+shapely+pyplot", 3.0)
            environment(python, runs, work, "the new environment, after its first run", env)


if __name__ == "__main__":
    main()
