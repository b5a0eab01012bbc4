"""Scale: whole-map bursts with walls against the line of effect, peak memory, import time.

Run from the repository root (aoegrid installed)::

    python benchmarks/bench_scale.py           # full run (about a minute)
    python benchmarks/bench_scale.py --quick   # smaller maps, fewer repeats

Prints, side by side in one run (medians of at least 7):

1. a whole-map burst with walls (``ag.area(Sphere(huge), ...).mask``) against
   the whole-map ``ag.line_of_effect`` from the same origin on the same map:
   200 x 200 with 500 random walls, the 1000 x 1000 dungeon and the
   2000 x 2000 dungeon of ``bench_walls.py``; target at most 1.5x. The same
   burst with its cover grades read (``.cover``) is shown too: cover is
   worked out only when read, and only at partly reached squares;
2. the peak memory of a whole-map burst on a 4000 x 4000 dungeon (traced by
   ``tracemalloc`` in a fresh process, after a first burst has prepared the
   walls it reads), against one float64 grid (128 MB); target at most 2x;
3. ``import aoegrid`` in a fresh process (target under 0.5 s).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap
from pathlib import Path

from _timing import median_time
from bench_walls import dungeon, random_map

import aoegrid as ag

HERE = Path(__file__).resolve().parent


def burst_vs_loe(name: str, m: ag.BattleMap, repeats: int) -> None:
    n = m.grid.width
    at = (n // 2, n // 2)
    size = 5.0 * 2 * n
    m.wallset("effect")  # per-map preparation, once, outside the timing

    def burst() -> object:
        return ag.area(ag.Sphere(size), at=at, on=m).mask

    def burst_cover() -> object:
        return ag.area(ag.Sphere(size), at=at, on=m).cover

    def loe() -> object:
        return ag.line_of_effect(m, at)

    t_loe = median_time(loe, repeats)
    t_burst = median_time(burst, repeats)
    t_cover = median_time(burst_cover, repeats)
    print(f"{name:28} {t_loe * 1e3:9.1f} {t_burst * 1e3:9.1f} {t_burst / t_loe:6.2f}x "
          f"{t_cover * 1e3:9.1f} {t_cover / t_loe:6.2f}x")


PEAK = textwrap.dedent(
    """
    import json, sys, tracemalloc
    sys.path.insert(0, sys.argv[2])
    import aoegrid as ag
    from bench_walls import dungeon
    n = int(sys.argv[1])
    m = dungeon(n)
    len(ag.area(ag.Sphere(10.0 * n), at=(n // 2, n // 2), on=m))  # prepares the walls the query reads
    tracemalloc.start()
    a = ag.area(ag.Sphere(10.0 * n), at=(n // 2, n // 2), on=m)
    count = len(a)
    peak = tracemalloc.get_traced_memory()[1]
    print(json.dumps({"peak": peak, "count": count, "walls": len(m.walls)}))
    """
)

IMPORT = "import time; t = time.perf_counter(); import aoegrid; print(time.perf_counter() - t)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeats = 7
    sizes = (200, 500, 1000) if args.quick else (200, 1000, 2000)
    print("1. whole-map burst with walls vs whole-map line_of_effect (ms, medians)")
    print(f"{'map':28} {'loe':>9} {'burst':>9} {'ratio':>7} {'+cover':>9} {'ratio':>7}")
    burst_vs_loe(f"{sizes[0]}^2, 500 random walls", random_map(sizes[0]), repeats)
    for n in sizes[1:]:
        m = dungeon(n)
        burst_vs_loe(f"{n}^2 dungeon, {len(m.walls)} walls", m, repeats)

    n = 1000 if args.quick else 4000
    done = subprocess.run([sys.executable, "-c", PEAK, str(n), str(HERE)], capture_output=True, text=True, check=True)
    r = json.loads(done.stdout)
    grid_mb = n * n * 8 / 1e6
    print(f"\n2. peak memory of a whole-map burst, {n}^2 dungeon ({r['walls']} walls, {r['count']} squares): "
          f"{r['peak'] / 1e6:.0f} MB = {r['peak'] / 1e6 / grid_mb:.2f} x one float64 grid ({grid_mb:.0f} MB)")

    times = sorted(float(subprocess.run([sys.executable, "-c", IMPORT], capture_output=True, text=True,
                                        check=True).stdout) for _ in range(repeats))
    print(f"\n3. import aoegrid in a fresh process: {times[len(times) // 2]:.3f} s (median of {repeats})")


if __name__ == "__main__":
    main()
