"""A burst among walls of finite height (issue 20) against the same burst in two dimensions.

Run from the repository root (aoegrid installed)::

    python benchmarks/bench_heights.py

The map is the bundled cave (``tests/data/cave-oganm.dd2vtt``, 20 x 20, 250
walls; the issue's "litch map" is not in this repository). Ten creatures
stand on open squares near the origin, five of them flying 15 ft up. The 2D
burst has the map's walls as they are (infinitely tall); the 3D burst has
every wall 10 ft tall, so each is shorter than the 20-ft sphere's heights
(-20..20 ft) and every line is tested in three dimensions. Timed: the median
of making the area, reading its mask and listing its creatures. Goal: the
3D burst within 3x of the 2D one.
"""

from __future__ import annotations

import dataclasses
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import median_ms

import aoegrid as ag

ROOT = Path(__file__).resolve().parents[1]
ORIGIN = (10, 10)


def creatures(m: ag.BattleMap) -> list[ag.Token]:
    """Ten creatures on squares the 2D burst reaches, nearest the origin first; five flying 15 ft up."""
    a = ag.area(ag.Sphere(30), at=ORIGIN, on=m)
    squares = sorted(a.squares, key=lambda s: abs(s[0] + 0.5 - ORIGIN[0]) + abs(s[1] + 0.5 - ORIGIN[1]))[::3][:10]
    return [ag.Token(x, y, name=f"c{i}", elevation=15.0 if i % 2 else 0.0) for i, (x, y) in enumerate(squares)]


def main() -> None:
    flat = ag.load_map(ROOT / "tests" / "data" / "cave-oganm.dd2vtt")
    tokens = creatures(flat)
    low = [dataclasses.replace(w, top=10.0) for w in flat.walls]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.AoegridWarning)
        two = ag.BattleMap(flat.grid, flat.walls, tokens)
        three = ag.BattleMap(flat.grid, low, tokens)

    def burst(m: ag.BattleMap) -> object:
        a = ag.area(ag.Sphere(20), at=ORIGIN, on=m)
        return a.mask, a.tokens()

    t2 = median_ms(lambda: burst(two), 30)
    t3 = median_ms(lambda: burst(three), 30)
    print(f"2D burst (walls infinite):   {t2:7.2f} ms  area {int(burst(two)[0].sum())} squares, "
          f"{len(burst(two)[1])} creatures")
    print(f"3D burst (walls 10 ft tall): {t3:7.2f} ms  area {int(burst(three)[0].sum())} squares, "
          f"{len(burst(three)[1])} creatures")
    print(f"ratio 3D / 2D: {t3 / t2:.2f}x (goal <= 3x)")


if __name__ == "__main__":
    main()
