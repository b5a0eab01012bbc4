"""Core timings for aoegrid: placing an area and materialising its mask.

Run from the repository root (aoegrid installed, e.g. editable)::

    python benchmarks/bench_core.py            # full run, 200 repeats
    python benchmarks/bench_core.py --quick    # CI smoke run, few repeats

Everything runs on a 1000 x 1000 grid with the origin at (500, 500). Each
number is the median over repeated calls (after one warm-up call) of
``ag.area(shape, at=(500, 500), on=grid, rules=...).mask``, in microseconds.

1. A table of every shape under every preset, "cold" (the stencil cache
   ``aoegrid.geometry.stencils._cached_stencil`` is cleared before each call, outside the
   timed region) and "warm" (stencil cached). Savage Worlds uses an inch grid
   and sizes divided by 5 (1 inch = 1 square = 5 ft).
2. The two performance targets, each as a ratio against a plain numpy
   reference timed side by side in this script:
   a. a 20-ft burst (starfinder, warm and cold) vs allocating the output mask,
      ``np.zeros((1000, 1000), bool)``; target: within a few times.
   b. for every preset, a 2,500-ft burst (cold), which reaches every edge of
      the map but not its corners, and a 1,000-ft one, whose rim lies inside
      the map, each vs one comparison over the grid, ``arr < 50`` on a
      precomputed (1000, 1000) float64 array, timed next to it; target:
      within 4x.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from _timing import median_time

import aoegrid as ag
from aoegrid.geometry.stencils import _cached_stencil

SIZE = 1000
AT = (500, 500)
PRESETS = ("starfinder", "pf2e", "sw5e", "savage-worlds")
FEET_GRID = ag.Grid(SIZE, SIZE)
INCH_GRID = ag.Grid(SIZE, SIZE, units="in")
#: Target 2b: a burst within this many times one comparison over the grid.
BURST_TARGET = 4.0


def shapes(scale: float) -> dict[str, ag.Sphere | ag.Cylinder | ag.Cone | ag.Line | ag.Cube]:
    """The benchmark shapes, sizes in feet times ``scale``."""
    return {
        "sphere r20": ag.Sphere(20 * scale),
        "cylinder r20 h40": ag.Cylinder(20 * scale, 40 * scale),
        "cone 30 @45": ag.Cone(30 * scale, 45),
        "line 60 @30": ag.Line(60 * scale, 30),
        "cube 15 @0": ag.Cube(15 * scale, 0),
    }


def setting(preset: str) -> tuple[ag.Grid, float]:
    """The grid and the size scale for a preset (Savage Worlds counts inches)."""
    return (INCH_GRID, 1 / 5) if preset == "savage-worlds" else (FEET_GRID, 1.0)


def placing(shape: object, grid: ag.Grid, preset: str) -> Callable[[], object]:
    return lambda: ag.area(shape, at=AT, on=grid, rules=preset).mask


def us(seconds: float) -> str:
    return f"{seconds * 1e6:10.1f}"


def table(repeats: int) -> None:
    print(f"1. area(...).mask on a {SIZE}x{SIZE} grid at {AT}, median of {repeats} (us)")
    print(f"{'preset':<14} {'shape':<17} {'cold':>10} {'warm':>10}")
    for preset in PRESETS:
        grid, scale = setting(preset)
        for name, shape in shapes(scale).items():
            fn = placing(shape, grid, preset)
            cold = median_time(fn, repeats, before=_cached_stencil.cache_clear)
            warm = median_time(fn, repeats)
            print(f"{preset:<14} {name:<17} {us(cold)} {us(warm)}")
    print()


def target_a(repeats: int) -> None:
    print("2a. 20-ft burst (starfinder) vs np.zeros((1000, 1000), bool); target: within a few times")
    ref = median_time(lambda: np.zeros((SIZE, SIZE), dtype=bool), repeats)
    fn = placing(ag.Sphere(20), FEET_GRID, "starfinder")
    warm = median_time(fn, repeats)
    cold = median_time(fn, repeats, before=_cached_stencil.cache_clear)
    print(f"    np.zeros reference   {us(ref)} us")
    print(f"    burst, warm cache    {us(warm)} us   ratio {warm / ref:8.1f}x")
    print(f"    burst, cold cache    {us(cold)} us   ratio {cold / ref:8.1f}x")
    print()


def target_b(repeats: int) -> None:
    print("2b. 2,500-ft and 1,000-ft bursts (cold) vs `arr < 50` over the grid; "
          f"target: within {BURST_TARGET:g}x")
    arr = np.random.default_rng(0).random((SIZE, SIZE)) * 100
    print(f"    {'preset':<14} {'arr < 50':>10} {'2,500 ft':>10} {'ratio':>7} "
          f"{'1,000 ft':>10} {'ratio':>7}")
    for preset in PRESETS:
        grid, scale = setting(preset)
        # The reference is timed again for each preset, so every ratio is measured side by side.
        ref = median_time(lambda: arr < 50, repeats)
        ratios = []
        row = f"    {preset:<14} {us(ref)}"
        for feet in (2500, 1000):
            fn = placing(ag.Sphere(feet * scale), grid, preset)
            t = median_time(fn, repeats, before=_cached_stencil.cache_clear)
            ratios.append(t / ref)
            row += f" {us(t)} {t / ref:6.1f}x"
        verdict = "met" if max(ratios) <= BURST_TARGET else "MISSED"
        print(f"{row}   [{verdict}]")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few repeats, for CI smoke runs")
    args = parser.parse_args()
    repeats = 5 if args.quick else 200
    print(f"aoegrid {ag.__version__}, numpy {np.__version__}\n")
    table(repeats)
    target_a(repeats)
    target_b(repeats)


if __name__ == "__main__":
    main()
