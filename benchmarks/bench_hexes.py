"""Areas and placement searches on hexes (issue 21), each against the simple way to get the same answer.

Run from the repository root (aoegrid installed)::

    python benchmarks/bench_hexes.py

The map is the bundled cave's 250 walls (``tests/data/cave-oganm.dd2vtt``,
20 x 20 squares) laid on a 20 x 24 grid of 5-ft hexes (map coordinates: one
unit a square there, a hex width here), with ten creatures. Timed, medians:

* a 5e 20-ft sphere (exact shares, walls, cover) against the simple way:
  every hex of the map clipped by shapely against a 4096-sided circle and the
  visibility polygon;
* a Starfinder 20-ft spread (hex steps round walls) against the same burst;
* the best placement of a 10-ft sphere within 60 ft, against building the
  area at every legal corner;
* a first hex query in a fresh process (import and first area) against a
  first square query.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
import shapely
from _timing import median_ms

import aoegrid as ag
from aoegrid.board.hexcells import HEX_AREA, hex_polygons, view
from aoegrid.hexarea import hex_area
from aoegrid.hextactics import hex_best_placements, hex_legal_origins

ROOT = Path(__file__).resolve().parents[1]
CAVE = ROOT / "tests" / "data" / "cave-oganm.dd2vtt"


def cave_on_hexes() -> tuple[ag.HexGrid, ag.BattleMap, tuple[float, float]]:
    cave = ag.load_map(CAVE)
    g = ag.HexGrid(20, 24)
    origin = tuple(g.corners(10, 11)[3])
    open_hexes = ag.area(ag.Sphere(40), at=origin, on=ag.BattleMap(g, walls=cave.walls), rules="5e").hexes
    picks = open_hexes[::max(1, len(open_hexes) // 10)][:10]
    tokens = [ag.Token(c, r, name=f"c{i}", tags={"enemy"} if i % 3 else {"ally"}) for i, (c, r) in enumerate(picks)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.AoegridWarning)
        return g, ag.BattleMap(g, walls=cave.walls, tokens=tokens), origin


def simple_sphere(g: ag.HexGrid, m: ag.BattleMap, origin: tuple[float, float], radius: float) -> np.ndarray:
    """The 5e sphere the simple way: every hex clipped against a fine circle and the visibility polygon."""
    rows, cols = np.indices(g.shape)
    hexes = hex_polygons(g, cols.ravel(), rows.ravel())
    circle = shapely.Point(origin).buffer(radius, quad_segs=1024)
    seen = shapely.Polygon(view(m, origin).polygon())
    inside = shapely.area(shapely.intersection(hexes, circle)) / HEX_AREA >= 0.5 - 1e-9
    return (inside & (shapely.area(shapely.intersection(hexes, seen)) > 1e-9)).reshape(g.shape)


def first_query(setup: str) -> float:
    """Milliseconds from start to a first area in a fresh process (import included), median of 5."""
    code = textwrap.dedent(f"""
        import time
        t0 = time.perf_counter()
        import aoegrid as ag
        {setup}
        print((time.perf_counter() - t0) * 1e3)
    """)
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
            for _ in range(5)]
    return float(np.median(runs))


def main() -> None:
    g, m, origin = cave_on_hexes()

    fast = median_ms(lambda: hex_area(ag.Sphere(20), origin, m, "5e").mask, 20)
    simple = median_ms(lambda: simple_sphere(g, m, origin, 4.0), 5)
    same = np.array_equal(hex_area(ag.Sphere(20), origin, m, "5e").mask, simple_sphere(g, m, origin, 4.0))
    print(f"5e 20-ft sphere, walls:  {fast:7.2f} ms   simple (every hex, fine circle): {simple:7.2f} ms   "
          f"{simple / fast:5.1f}x   same hexes: {same}")

    burst = median_ms(lambda: hex_area(ag.Sphere(20), origin, m, "starfinder").mask, 20)
    spread = median_ms(lambda: hex_area(ag.Sphere(20), origin, m, "starfinder", "spread").mask, 20)
    print(f"Starfinder 20 ft: burst {burst:7.2f} ms   spread {spread:7.2f} ms   spread / burst {spread / burst:4.1f}x")

    caster = m.tokens[0]
    legal = hex_legal_origins(ag.Sphere(10), caster, 60, m, "starfinder")

    def brute() -> tuple[int, ...]:
        best = 0
        for x, y in legal.points():
            a = hex_area(ag.Sphere(10), (x, y), m, "starfinder")
            best = max(best, sum(1 for r in a.tokens() if "enemy" in r.token.tags and not (r.token.tags & {"ally"})))
        return (best,)

    search = median_ms(lambda: hex_best_placements(ag.Sphere(10), caster, 60, m, hit="enemy", max_avoid=None), 5)
    slow = median_ms(brute, 1)
    top = hex_best_placements(ag.Sphere(10), caster, 60, m, hit="enemy", max_avoid=None)[0].score
    print(f"best 10-ft sphere within 60 ft ({len(legal)} corners): {search:7.1f} ms   every area built: "
          f"{slow:7.1f} ms   {slow / search:5.1f}x   best {top:g} = brute {brute()[0]}")

    square = first_query("ag.area(ag.Sphere(20), at=(20, 15), on=ag.Grid(40, 30)).mask")
    hexes = first_query("g = ag.HexGrid(40, 30); ag.area(ag.Sphere(20), at=g.corners(20, 15)[3], on=g, rules='5e').mask")
    print(f"first query in a fresh process: square {square:6.1f} ms   hex {hexes:6.1f} ms   "
          f"hex / square {hexes / square:4.2f}x")


if __name__ == "__main__":
    main()
