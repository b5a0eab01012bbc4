"""Visibility: whole-map line of effect against a simple compiled sweep, and how it scales.

Run from the repository root (aoegrid installed)::

    python benchmarks/bench_visibility.py           # full run
    python benchmarks/bench_visibility.py --quick   # CI smoke run

Prints median times (ms) of at least 7 runs:

1. whole-map ``ag.line_of_effect`` against a reference kept in this file and
   timed side by side: a plain compiled (numba) angular sweep over the same
   split walls, its active walls in a sorted list, then the same exact fill
   (:func:`aoegrid.geometry.raster.coverage` over the polygon's bounding box). Maps:
   200 x 200 with 500 random walls, the 1000 x 1000 and 2000 x 2000 dungeons
   of ``bench_walls.py``. Target: at most 2 times the reference's time on the
   dungeons. The two must agree to 1e-9 in every square.
2. ``ag.line_of_effect`` from the centre of 1000 x 1000 squares against the
   number of random walls (length 1 to 8), with the fitted log-log exponent.
   Target: at most 1.15.
3. The first ``ag.line_of_effect`` in a new process, numba's cache empty
   (compiling included) and warm.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from _timing import median_ms
from bench_walls import dungeon, random_map
from numba import njit

import aoegrid as ag
from aoegrid.geometry.raster import Window, coverage
from aoegrid.geometry.regions import Outline


@njit(cache=True)
def _left(px, py, qx, qy, x, y):  # type: ignore[no-untyped-def]
    """Whether (x, y) lies left of the line p -> q (screen y down: counter-clockwise)."""
    return (qx - px) * (y - py) - (qy - py) * (x - px) < 0.0


@njit(cache=True)
def _in_front(w, a, b, ox, oy):  # type: ignore[no-untyped-def]
    """Whether wall ``a`` is nearer the origin than wall ``b`` (which is behind which line).

    Points 1% inside each wall stand for it, so walls sharing an end are
    judged by the rest of them.
    """
    ax0, ay0, ax1, ay1 = w[a, 0], w[a, 1], w[a, 2], w[a, 3]
    bx0, by0, bx1, by1 = w[b, 0], w[b, 1], w[b, 2], w[b, 3]
    b_first = _left(ax0, ay0, ax1, ay1, bx0 + 0.01 * (bx1 - bx0), by0 + 0.01 * (by1 - by0))
    b_last = _left(ax0, ay0, ax1, ay1, bx1 + 0.01 * (bx0 - bx1), by1 + 0.01 * (by0 - by1))
    o_of_a = _left(ax0, ay0, ax1, ay1, ox, oy)
    if b_first == b_last and b_first != o_of_a:
        return True  # b lies beyond a's line
    a_first = _left(bx0, by0, bx1, by1, ax0 + 0.01 * (ax1 - ax0), ay0 + 0.01 * (ay1 - ay0))
    a_last = _left(bx0, by0, bx1, by1, ax1 + 0.01 * (ax0 - ax1), ay1 + 0.01 * (ay0 - ay1))
    o_of_b = _left(bx0, by0, bx1, by1, ox, oy)
    return a_first == a_last and a_first == o_of_b  # a lies on the origin's side of b's line


@njit(cache=True)
def reference_polygon(segs, ox, oy, x0, y0, x1, y1):  # type: ignore[no-untyped-def]
    """Visibility polygon of (ox, oy) among two-way walls inside the frame (x0, y0, x1, y1).

    Walls are turned so the angle from the origin grows from their first end
    to their second; events are their ends in angle order (at one angle, ends
    before starts); the walls a ray meets are kept in a sorted list, nearest
    first (bisected on insertion). The turn is swept twice: the first pass only fills the list with
    the walls across the angle pi.
    """
    frame = np.array([[x0, y0, x1, y0], [x1, y0, x1, y1], [x1, y1, x0, y1], [x0, y1, x0, y0]])
    allw = np.vstack((segs, frame))
    n = allw.shape[0]
    w = np.empty((n, 4))
    k = 0
    for i in range(n):
        px, py, qx, qy = allw[i, 0], allw[i, 1], allw[i, 2], allw[i, 3]
        turn = (px - ox) * (qy - oy) - (py - oy) * (qx - ox)
        if turn == 0.0:
            continue  # edge-on: hides nothing
        if turn < 0.0:
            px, py, qx, qy = qx, qy, px, py
        w[k, 0], w[k, 1], w[k, 2], w[k, 3] = px, py, qx, qy
        k += 1
    w = w[:k]
    ang = np.empty(2 * k)
    for i in range(k):
        ang[2 * i] = math.atan2(w[i, 1] - oy, w[i, 0] - ox)
        ang[2 * i + 1] = math.atan2(w[i, 3] - oy, w[i, 2] - ox)
    order = np.argsort(ang)
    active = np.empty(k, np.int64)
    count = 0
    verts = np.empty((4 * k, 2))
    nv = 0
    for sweep in range(2):
        j = 0
        while j < 2 * k:
            g = j
            while g < 2 * k and ang[order[g]] == ang[order[j]]:
                g += 1
            for phase in range(2):  # ends first, then starts
                for e in range(j, g):
                    i, is_end = order[e] // 2, order[e] % 2 == 1
                    if phase == 0 and is_end:
                        for p in range(count):
                            if active[p] == i:
                                for q in range(p, count - 1):
                                    active[q] = active[q + 1]
                                count -= 1
                                break
                    elif phase == 1 and not is_end:
                        lo, hi = 0, count  # bisect: the first wall this one hides
                        while lo < hi:
                            mid = (lo + hi) // 2
                            if _in_front(w, i, active[mid], ox, oy):
                                hi = mid
                            else:
                                lo = mid + 1
                        for q in range(count, lo, -1):
                            active[q] = active[q - 1]
                        active[lo] = i
                        count += 1
            if sweep == 1:
                # The nearest wall from this angle to the next.
                t0 = ang[order[j]]
                t1 = ang[order[g]] if g < 2 * k else ang[order[0]] + 2 * math.pi
                s = active[0]
                px, py = w[s, 0], w[s, 1]
                ex, ey = w[s, 2] - px, w[s, 3] - py
                for t in (t0, t1):
                    ux, uy = math.cos(t), math.sin(t)
                    r = ((px - ox) * ey - (py - oy) * ex) / (ux * ey - uy * ex)
                    verts[nv, 0], verts[nv, 1] = ox + r * ux, oy + r * uy
                    nv += 1
            j = g
    return verts[:nv]


def reference_loe(m: ag.BattleMap, origin: tuple[float, float]) -> np.ndarray:
    """Whole-map visible fractions: the reference sweep, then the exact fill over the polygon's box."""
    g = m.grid
    segs = m.wallset("effect").segs
    poly = reference_polygon(segs, origin[0], origin[1], -1.0, -1.0, g.width + 1.0, g.height + 1.0)
    x0, y0 = np.floor(poly.min(axis=0)).astype(int).clip(0, (g.width, g.height))
    x1, y1 = np.ceil(poly.max(axis=0)).astype(int).clip(0, (g.width, g.height))
    out = np.zeros(g.shape)
    out[y0:y1, x0:x1] = coverage(Outline(poly), Window(int(x0), int(y0), int(x1 - x0), int(y1 - y0)))
    return out


def random_walls(n: int, walls: int, seed: int = 3) -> ag.BattleMap:
    """``walls`` random walls of length 1 to 8 on n x n squares."""
    rng = np.random.default_rng(seed)
    x, y = rng.uniform(0, n, (2, walls))
    a, length = rng.uniform(0, 2 * np.pi, walls), rng.uniform(1, 8, walls)
    ends = np.column_stack([x, y, x + length * np.cos(a), y + length * np.sin(a)])
    return ag.BattleMap(ag.Grid(n, n), walls=[ag.Wall((p, q), (r, s)) for p, q, r, s in ends.tolist()])


FIRST_CALL = """
import json, time
t0 = time.perf_counter()
import aoegrid as ag
t1 = time.perf_counter()
m = ag.BattleMap(ag.Grid(200, 200), walls=[ag.Wall((50, 50), (150, 60)), ag.Wall((20, 150), (90, 120))])
m.wallset("effect")
t2 = time.perf_counter()
ag.line_of_effect(m, (100.5, 100.5))
t3 = time.perf_counter()
ag.line_of_effect(m, (30.5, 170.5))
t4 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first": t3 - t2, "second": t4 - t3}))
"""


def first_call(cache_dir: str) -> dict[str, float]:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, capture_output=True, text=True, check=True)
    return {k: v * 1e3 for k, v in json.loads(out.stdout).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few cases and repeats, for CI")
    args = parser.parse_args()
    reps = 7 if args.quick else 15
    import numba

    print(f"aoegrid {ag.__version__}, numpy {np.__version__}, numba {numba.__version__}")

    print("\n1. Whole-map line of effect against the reference sweep (median ms)")
    print(f"   {'map':<26}{'walls':>7}{'split':>7}{'polygon':>9}{'aoegrid':>10}{'reference':>11}"
          f"{'ratio':>8}   {'max |diff|':>10}")
    cases = [("200 x 200, 500 random", random_map(), (100.5, 100.5))]
    cases.append(("1000 x 1000 dungeon", dungeon(), (512.5, 512.5)))
    if not args.quick:
        cases.append(("2000 x 2000 dungeon", dungeon(2000), (1012.5, 1012.5)))
    for name, m, origin in cases:
        ws = m.wallset("effect")
        fast = median_ms(lambda m=m, origin=origin: ag.line_of_effect(m, origin), reps)
        slow = median_ms(lambda m=m, origin=origin: reference_loe(m, origin), reps)
        diff = np.abs(ag.line_of_effect(m, origin) - reference_loe(m, origin)).max()
        frame = (-1.0, -1.0, m.grid.width + 1.0, m.grid.height + 1.0)
        vertices = len(ws.visibility(origin, frame).polygon())
        target = "" if name.startswith("200") else "  (target <= 2x)"
        print(f"   {name:<26}{len(m.walls):>7}{len(ws.segs):>7}{vertices:>9}{fast:>10.2f}{slow:>11.2f}"
              f"{fast / slow:>7.2f}x   {diff:>10.1e}{target}")

    print("\n2. Line of effect from the centre of 1000 x 1000 squares vs random walls (median ms)")
    counts = [100, 1000, 10000] if args.quick else [100, 300, 1000, 3000, 10000, 50000]
    print(f"   {'walls':>7}{'split':>8}{'polygon':>9}{'visibility':>12}{'aoegrid':>10}{'reference':>11}")
    centre, frame = (500.0, 500.0), (-1.0, -1.0, 1001.0, 1001.0)
    vis_t, fast_t, slow_t = [], [], []
    for count in counts:
        m = random_walls(1000, count)
        ws = m.wallset("effect")
        vis_t.append(median_ms(lambda ws=ws: ws.visibility(centre, frame), reps))
        fast_t.append(median_ms(lambda m=m: ag.line_of_effect(m, centre), reps))
        slow_t.append(median_ms(lambda m=m: reference_loe(m, centre), reps))
        vertices = len(ws.visibility(centre, frame).polygon())
        print(f"   {count:>7}{len(ws.segs):>8}{vertices:>9}{vis_t[-1]:>12.2f}{fast_t[-1]:>10.2f}{slow_t[-1]:>11.2f}")
    slopes = [np.polyfit(np.log(counts), np.log(t), 1)[0] for t in (vis_t, fast_t, slow_t)]
    print(f"   fitted log-log exponent: line of effect {slopes[1]:.2f} (target <= 1.15); its visibility "
          f"polygon alone {slopes[0]:.2f}; reference {slopes[2]:.2f}")

    print("\n3. First line of effect in a new process (ms; 200 x 200, two walls)")
    with tempfile.TemporaryDirectory() as cache:
        cold = first_call(cache)
        warm = first_call(cache)
    print(f"   {'numba cache':<14}{'import':>9}{'first call':>12}{'second call':>13}")
    for label, t in (("empty", cold), ("warm", warm)):
        print(f"   {label:<14}{t['import']:>9.0f}{t['first']:>12.0f}{t['second']:>13.2f}")


if __name__ == "__main__":
    main()
