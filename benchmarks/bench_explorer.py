"""The Jupyter explorer: what a click or a drag's step costs in the kernel, and opening it.

Run from the repository root (aoegrid installed with the ``jupyter`` extra)::

    python benchmarks/bench_explorer.py           # full run (~1 minute)
    python benchmarks/bench_explorer.py --quick   # CI smoke run

Prints medians (and the 95th percentile of steps), the explorer of this
working tree ("new") beside the last one that sent pictures ("old", commit
``OLD``, loaded from ``git show OLD:src/aoegrid/explorer.py`` into a
temporary module; left out with a note when git or that commit is missing, or
with ``--no-old``):

1. a step: what the kernel does for one request from the page (a click
   placing the origin, or a drag aiming), including the JSON of the update it
   sends; on the bundled cave with the README's party (Kira casting: each
   placement checked), over 60 intersections and 60 directions; and on a
   200 x 200 map with 2,000 walls and 300 creatures, over 60 intersections
   near the caster. The first step (a first query's one-off costs) is not
   timed. Targets: at most 5 ms on the cave, 20 ms on the big map. On the big
   map it also times ``ag.area`` alone, with the caster and without, to show
   what dominates;
2. opening the explorer (``ag.explore(map)``) on the bundled cave, in this
   process after a first query, and in a fresh process (imports and first
   query included); target: at most 0.5 s. And on a 40 x 40 map whose image
   is 10,240 x 10,240 pixels (``bench_plotting.big_image_map``); target: at
   most 2 s.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from _timing import median_time
from bench_plotting import big_image_map
from bench_tactics import make_map

import aoegrid as ag
from aoegrid import explorer as new_explorer

ROOT = Path(__file__).resolve().parents[1]

#: The README's party on the bundled cave (as tests/conftest.py's CAVE_PARTY).
CAVE_PARTY = """
import aoegrid as ag
cave = ag.demo_map()
kira = ag.Token(3, 12, name="Kira", tags={"ally"})
creatures = [kira, ag.Token(7, 13, name="Tor", tags={"ally"}),
    ag.Token(11, 8, name="Urg", tags={"enemy"}), ag.Token(13, 9, name="Mog", tags={"enemy"}),
    ag.Token(12, 12, name="Snik", tags={"enemy"}), ag.Token(16, 15, name="Pip", tags={"enemy"}),
    ag.Token(15, 11, size="large", name="Ogre", tags={"enemy"})]
m = ag.BattleMap(cave.grid, cave.walls, creatures, info=cave.info)
"""


#: The last commit whose explorer sent a matplotlib PNG per step.
OLD = "ca54d1cbad0f4a30f9ead8d34d02dd0b561b5a55"


def old_explorer(tmp: Path) -> ModuleType | None:
    """The explorer committed at :data:`OLD`, as a module of its own (None when git cannot give it)."""
    try:
        source = subprocess.run(["git", "show", f"{OLD}:src/aoegrid/explorer.py"], cwd=ROOT, capture_output=True,
                                text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    path = tmp / "explorer_head.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("explorer_head", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def party() -> tuple[ag.BattleMap, ag.Token]:
    scope: dict[str, Any] = {}
    exec(CAVE_PARTY, scope)  # noqa: S102 (the constant source above)
    return scope["m"], scope["kira"]


def wire(w: Any) -> Any:
    """The widget, its messages to the page encoded as the kernel's comm encodes them (JSON)."""
    w._send = lambda msg, buffers=None: json.dumps(msg)
    return w


#: One request from the page: a click or a drag's step placing the origin at (x, y).
def click(w: Any, x: float, y: float) -> None:
    w._handle_custom_msg({"event": "click", "x": x, "y": y, "id": f"{x}:{y}"}, [])


def aim(w: Any, x: float, y: float) -> None:
    """A drag's step aiming toward (x, y). The old page sent the bearing as the direction at the drag's end."""
    if hasattr(w, "view"):
        w._handle_custom_msg({"event": "aim", "x": x, "y": y, "id": f"{x}:{y}"}, [])
    else:
        ox, oy = w.origin
        w.set_state({"direction": round(np.degrees(np.arctan2(y - oy, x - ox))) % 360})


def steps(w: Any, step: Callable[[Any, float, float], None], points: list[tuple[float, float]]) -> list[float]:
    """Seconds per step toward each point; the first (one-off costs) untimed."""
    step(w, *points[0])
    out = []
    for p in points[1:]:
        t0 = time.perf_counter()
        step(w, *p)
        out.append(time.perf_counter() - t0)
    return out


def p95(times: list[float]) -> float:
    return float(np.percentile(times, 95))


def row(name: str, new: list[float], old: list[float] | None, goal: float | None = None) -> None:
    """Median and 95th percentile in ms, new beside old, and old over new."""
    text = f"{name:<46} new {statistics.median(new) * 1e3:8.2f} ms (p95 {p95(new) * 1e3:7.2f})"
    if old:
        text += (f"   old {statistics.median(old) * 1e3:8.1f} ms (p95 {p95(old) * 1e3:7.1f})   "
                 f"{statistics.median(old) / statistics.median(new):6.1f}x")
    if goal is not None:
        text += f"   (target: {goal:g} ms)"
    print(text)


def cave_steps(modules: dict[str, ModuleType], repeats: int) -> None:
    m, kira = party()
    drag = [(x + 0.1 if y % 2 == 0 else 21.1 - x, y + 0.1) for y in range(6, 12) for x in range(6, 16)]
    around = [(12 + 5 * float(np.cos(a)), 11 + 5 * float(np.sin(a))) for a in np.radians(np.arange(0, 366, 6))]
    for name, step, points, shape in (("cave: click / drag the burst's origin", click, drag, ag.Sphere(20)),
                                      ("cave: drag a cone's aim", aim, around, ag.Cone(30))):
        got = {which: [t for _ in range(repeats)
                       for t in steps(wire(module.explore(m, shape, caster=kira, at=(12, 11))), step, points)]
               for which, module in modules.items()}
        row(name, got["new"], got.get("old"), 5)


def big_map_steps(modules: dict[str, ModuleType], repeats: int) -> None:
    m = make_map(200, 2000, 300, seed=3, longest=4.0)
    caster = m.tokens[0]
    x, y = caster.x, caster.y
    # Intersections near the caster, the points a click snaps to under Starfinder.
    near = np.random.default_rng(5).integers(-15, 16, (61, 2))
    points = [(float(np.clip(x + dx, 0, 200)), float(np.clip(y + dy, 0, 200))) for dx, dy in near]
    got = {which: [t for _ in range(repeats if which == "new" else 1)
                   for t in steps(wire(module.explore(m, ag.Sphere(20), caster=caster, at=points[0])), click, points)]
           for which, module in modules.items()}
    row("200 x 200, 2,000 walls, 300 creatures: click", got["new"], got.get("old"), 20)

    def query(at: tuple[float, float], **kw: Any) -> None:
        try:
            len(ag.area(ag.Sphere(20), at, m, **kw))
        except ag.AoegridError:  # refused: its message names the nearest legal origin, searched for
            pass

    for name, kw in (("  of which ag.area with the caster's check", {"caster": caster}),
                     ("  (ag.area without a caster)", {})):
        times = []
        for p in points[1:]:
            t0 = time.perf_counter()
            query(p, **kw)
            times.append(time.perf_counter() - t0)
        row(name, times, None)


#: Opening the explorer in a fresh process: imports, the map, the first query and the widget.
_FRESH = """
import sys, time
t0 = time.perf_counter()
import aoegrid as ag
if sys.argv[1] == "old":
    import importlib.util
    spec = importlib.util.spec_from_file_location("explorer_head", sys.argv[2])
    module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)
else:
    from aoegrid import explorer as module
m = ag.demo_map()
module.explore(m)
print(time.perf_counter() - t0)
"""


def opening(modules: dict[str, ModuleType], tmp: Path, repeats: int) -> None:
    cave = ag.demo_map()
    ag.area(ag.Sphere(20), (10, 10), cave).tokens()  # the first query's one-off costs, outside the timing
    warm = {which: [median_time(lambda module=module: module.explore(cave), repeats)] for which, module in modules.items()}
    row("open on the bundled cave (after a first query)", warm["new"], warm.get("old"), 500)
    fresh: dict[str, list[float]] = {}
    for which in modules:
        runs = []
        for _ in range(max(1, repeats // 3)):
            out = subprocess.run([sys.executable, "-c", _FRESH, which, str(tmp / "explorer_head.py")],
                                 capture_output=True, text=True, check=True)
            runs.append(float(out.stdout.split()[-1]))
        fresh[which] = [statistics.median(runs)]
    row("open on the bundled cave, fresh process", fresh["new"], fresh.get("old"), 500)
    path = tmp / "big.dd2vtt"
    big_image_map(path)
    big = ag.load_map(path)
    reps = max(1, repeats // 3)
    times = {which: [median_time(lambda module=module: module.explore(big), reps)] for which, module in modules.items()}
    row("open on the 10,240 px map image (40 x 40)", times["new"], times.get("old"), 2000)
    w = new_explorer.explore(big)
    print(f"{'':<46} new sends its image once: {len(w.board['image']) / 1024:,.0f} KB "
          f"({w.board['scale'] * 40:g} px across)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-old", action="store_true", help="time this working tree's explorer only")
    args = parser.parse_args()
    repeats = 1 if args.quick else 5
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        modules: dict[str, ModuleType] = {"new": new_explorer}
        old = None if args.no_old else old_explorer(tmp)
        if old is not None:
            modules["old"] = old
        elif not args.no_old:
            print(f"(the explorer of commit {OLD[:7]} not found: new only)")
        cave_steps(modules, repeats)
        big_map_steps(modules, repeats)
        opening(modules, tmp, 3 if args.quick else 9)


if __name__ == "__main__":
    main()
