"""Walls: line of effect, bursts and spreads on maps with many walls.

Run from the repository root (aoegrid installed)::

    python benchmarks/bench_walls.py           # full run
    python benchmarks/bench_walls.py --quick   # CI smoke run

Prints median times (ms) and, side by side, the simple reference each fast
path must beat:

1. 200 x 200 squares, 500 random wall segments:
   a. whole-map line-of-effect mask (``ag.line_of_effect``) against a
      per-square shapely loop over the same walls (each square minus the
      union of the walls' shadows); target: at least 30 times faster;
   b. a 20-ft burst with walls; target: under 2 ms.
2. A 1000 x 1000 dungeon of rooms and doorways (3,852 wall segments, "about 3,700"):
   a. per-map preparation (split, index, spread step masks), once;
   b. whole-map line-of-effect mask; target: under 50 ms;
   c. a spread of radius 60 ft; target: under 5 ms after preparation.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import shapely
from _timing import median_ms

import aoegrid as ag


def random_map(n: int = 200, walls: int = 500, seed: int = 1) -> ag.BattleMap:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(walls):
        x, y = rng.uniform(0, n, 2)
        a, length = rng.uniform(0, 2 * np.pi), rng.uniform(1, 8)
        out.append(ag.Wall((x, y), (x + length * np.cos(a), y + length * np.sin(a))))
    return ag.BattleMap(ag.Grid(n, n), walls=out)


def dungeon(n: int = 1000, cell: int = 28, seed: int = 2) -> ag.BattleMap:
    """Rooms on a lattice, each wall pierced by a 2-square doorway half the time."""
    rng = np.random.default_rng(seed)
    walls = []
    for i in range(0, n, cell):
        for j in range(0, n, cell):
            for horizontal in (True, False):
                a, b = (j, j + cell) if horizontal else (i, i + cell)
                fixed = i if horizontal else j
                if rng.random() < 0.5 and fixed > 0:
                    door = rng.integers(a + 2, b - 4)
                    spans = [(a, door), (door + 2, b)]
                else:
                    spans = [(a, b)]
                for lo, hi in spans:
                    walls.append(((lo, fixed), (hi, fixed)) if horizontal else ((fixed, lo), (fixed, hi)))
    return ag.BattleMap(ag.Grid(n, n), walls=[ag.Wall(p, q) for p, q in walls])


def shapely_loe(m: ag.BattleMap, origin: tuple[float, float]) -> np.ndarray:
    """Reference: per square, is any of it outside every wall's shadow?"""
    o = np.asarray(origin)
    shades = []
    for ax, ay, bx, by in m.wallset("effect").segs:
        a, b = np.array([ax, ay]), np.array([bx, by])
        far = [o + (p - o) * 1e4 / np.linalg.norm(p - o) for p in (b, a)]
        poly = shapely.Polygon([a, b, *far])
        if poly.area > 0:
            shades.append(poly)
    shade = shapely.unary_union(shades)
    g = m.grid
    out = np.zeros(g.shape, dtype=bool)
    for y in range(g.height):
        for x in range(g.width):
            out[y, x] = shapely.box(x, y, x + 1, y + 1).difference(shade).area > 1e-9
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few repeats, for CI")
    args = parser.parse_args()
    reps = 3 if args.quick else 25
    print(f"aoegrid {ag.__version__}, numpy {np.__version__}, shapely {shapely.__version__}")

    m = random_map()
    m.wallset("effect")
    origin = (100.5, 100.5)
    fast = median_ms(lambda: ag.line_of_effect(m, origin) > 1e-9, reps)
    t = time.perf_counter()
    ref = shapely_loe(m, origin)
    slow = (time.perf_counter() - t) * 1e3
    same = bool(np.array_equal(ref, ag.line_of_effect(m, origin) > 1e-9))
    print("\n1. 200 x 200 squares, 500 random walls")
    print(f"   a. whole-map line of effect   {fast:9.2f} ms   shapely per-square loop {slow:9.1f} ms"
          f"   speed-up {slow / fast:6.1f}x (target >= 30x)   same squares: {same}")
    burst = median_ms(lambda: ag.area(ag.Sphere(20), at=(100, 100), on=m), reps * 4)
    print(f"   b. 20-ft burst with walls     {burst:9.2f} ms   (target < 2 ms)")

    t = time.perf_counter()
    d = dungeon()
    d.wallset("effect")
    d.steps()
    prep = (time.perf_counter() - t) * 1e3
    print(f"\n2. 1000 x 1000 dungeon, {len(d.walls)} walls ({len(d.wallset('effect').segs)} after splitting)")
    print(f"   a. per-map preparation         {prep:9.1f} ms   (once)")
    centre = (512.5, 512.5)
    whole = median_ms(lambda: ag.line_of_effect(d, centre) > 1e-9, max(3, reps // 3))
    print(f"   b. whole-map line of effect   {whole:9.2f} ms   (target < 50 ms)")
    spread = median_ms(lambda: ag.area(ag.Sphere(60), at=(512, 512), on=d, mode="spread"), reps)
    print(f"   c. 60-ft spread               {spread:9.2f} ms   (target < 5 ms)")
    burst = median_ms(lambda: ag.area(ag.Sphere(60), at=(512, 512), on=d), reps)
    print(f"      60-ft burst, for reference {burst:9.2f} ms")


if __name__ == "__main__":
    main()
