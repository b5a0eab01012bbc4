"""Spreads and first queries at every map size (issue 11).

Run from the repository root (aoegrid installed, scipy for the reference)::

    python benchmarks/bench_spread.py           # full run, ~1 min
    python benchmarks/bench_spread.py --quick   # CI smoke run

Prints medians (ms) and ratios measured side by side in one run:

1. A 300-ft spread on the 1000 x 1000 dungeon (``bench_walls.dungeon``):
   the path kernel (``aoegrid.board.spread.path_distance`` with the spread's limit)
   against ``scipy.sparse.csgraph.dijkstra(csr, indices=..., limit=...)`` on a
   CSR of the same window graph (built outside the timing: the same step
   costs and barred steps, two parity layers under 5/10/5, a super-source
   carrying the first-step costs); both must give the same distances.
   Target: at most 1.0x.
2. Spread cost against radius (40 to 1,280 ft), whole queries, and the
   exponent of a least-squares fit of log time on log radius. Target: at
   most 2.2.
3. The first 60-ft spread and the first 20-ft burst on a fresh 2000 x 2000
   dungeon (a new map object each time, same process, numba compiled)
   against the same query repeated on the prepared map (the answers the map
   keeps for an origin cleared first, so it is computed again). Target: at most 3x. Also the first
   query in a new process, with numba's cache warm and with compiling.
4. ``BattleMap`` construction + the first 20-ft burst against
   ``shapely.node`` + ``STRtree`` on the same walls. Target: at most 1.5x.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import shapely
from _timing import median_time
from bench_walls import dungeon

import aoegrid as ag
from aoegrid.board.spread import _STEPS, path_distance
from aoegrid.geometry.distance import measure
from aoegrid.geometry.options import Diagonals
from aoegrid.geometry.raster import Window, far_offsets, near_offsets


def spread_inputs(m: ag.BattleMap, at: tuple[int, int], radius: int) -> tuple[Window, np.ndarray, np.ndarray, np.ndarray]:
    """The window, first-step costs, parities and barred steps a spread from ``at`` walks."""
    x, y = at
    w = Window(x - radius - 1, y - radius - 1, 2 * radius + 2, 2 * radius + 2)
    fx = far_offsets(w.xs, x, x)[None, :]
    fy = far_offsets(w.ys, y, y)[:, None]
    touching = (near_offsets(w.xs, x, x)[None, :] == 0) & (near_offsets(w.ys, y, y)[:, None] == 0)
    start = np.where(touching, measure(fx, fy, Diagonals.ALTERNATING), np.inf)
    parity = np.broadcast_to((np.floor(np.minimum(fx, fy)) % 2).astype(np.int8), w.shape)
    return w, start, np.ascontiguousarray(parity), m.steps().window(w)


def step_graph(start: np.ndarray, parity: np.ndarray, blocked: np.ndarray):  # type: ignore[no-untyped-def]
    """The CSR of the 5/10/5 step graph over a window: two parity layers and a super-source (the last node)."""
    from scipy.sparse import csr_matrix

    h, w = start.shape
    plane = h * w
    ys, xs = np.mgrid[0:h, 0:w]
    rows, cols, costs = [], [], []
    for bit, (dx, dy) in enumerate(_STEPS):
        ok = ((blocked >> bit) & 1 == 0) & (xs + dx >= 0) & (xs + dx < w) & (ys + dy >= 0) & (ys + dy < h)
        src = (ys * w + xs)[ok]
        dst = ((ys + dy) * w + xs + dx)[ok]
        for layer in (0, 1):
            if dx and dy:  # a diagonal: 1 out of the even layer, 2 out of the odd one, to the other layer
                rows.append(layer * plane + src)
                cols.append((1 - layer) * plane + dst)
                costs.append(np.full(src.size, 1.0 + layer))
            else:
                rows.append(layer * plane + src)
                cols.append(layer * plane + dst)
                costs.append(np.ones(src.size))
    first = np.flatnonzero(np.isfinite(start).ravel())
    rows.append(np.full(first.size, 2 * plane))
    cols.append(parity.ravel()[first].astype(np.intp) * plane + first)
    # csgraph drops explicit zeros: a first step costing 0 would vanish.
    costs.append(np.maximum(start.ravel()[first], 1e-300))
    n = 2 * plane + 1
    return csr_matrix((np.concatenate(costs), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n))


def kernel_vs_scipy(reps: int) -> None:
    from scipy.sparse.csgraph import dijkstra

    m = dungeon()
    radius = 60  # 300 ft
    w, start, parity, blocked = spread_inputs(m, (512, 512), radius)
    # Far-edge counts from an intersection: the open-field count is the
    # far-corner count itself, so the spread can use paths up to its radius.
    limit = radius + 1e-9
    csr = step_graph(start, parity, blocked)
    source = csr.shape[0] - 1
    plane = start.size

    def ours() -> np.ndarray:
        return path_distance(w, start, parity, blocked, Diagonals.ALTERNATING, limit)

    def theirs() -> np.ndarray:
        d = dijkstra(csr, indices=source, limit=limit)
        return np.minimum(d[:plane], d[plane : 2 * plane]).reshape(start.shape)

    same = bool(np.array_equal(ours(), theirs()))
    fast = median_time(ours, reps)
    ref = median_time(theirs, reps)
    whole = median_time(lambda: ag.area(ag.Sphere(300), at=(512, 512), on=m, mode="spread").squares, reps)
    print(f"\n1. 300-ft spread, 1000 x 1000 dungeon ({w.width} x {w.height} window, {csr.nnz:,} edges)")
    print(f"   path kernel, limit {radius} squares       {fast * 1e3:8.2f} ms")
    print(f"   scipy dijkstra(limit=) on the CSR    {ref * 1e3:8.2f} ms")
    print(f"   ratio kernel / scipy                 {fast / ref:8.2f}x  (target <= 1.0x)   same distances: {same}")
    print(f"   whole 300-ft spread query            {whole * 1e3:8.2f} ms")


def cost_vs_radius(reps: int, quick: bool) -> None:
    m = dungeon()
    feet = [40, 80, 160, 320, 640] if quick else [40, 80, 160, 320, 640, 1280]
    times = []
    print("\n2. spread cost against radius, 1000 x 1000 dungeon, origin (512, 512)")
    print("   radius ft   query ms   path kernel ms")
    for r in feet:
        query = median_time(lambda r=r: ag.area(ag.Sphere(r), at=(512, 512), on=m, mode="spread").squares, reps)
        args = (*spread_inputs(m, (512, 512), r // 5), Diagonals.ALTERNATING, r / 5 + 1e-9)
        kernel = median_time(lambda args=args: path_distance(*args), reps)
        times.append((query, kernel))
        print(f"   {r:9d}   {query * 1e3:8.2f}   {kernel * 1e3:14.2f}")
    logs = np.log(np.array(feet, dtype=float))
    for name, k in (("whole query", 0), ("path kernel", 1)):
        slope = np.polyfit(logs, np.log([t[k] for t in times]), 1)[0]
        print(f"   fitted exponent, {name}: {slope:.2f}  (target <= 2.2)")


FIRST_QUERY = """
import sys, time
sys.path.insert(0, {bench!r})
from bench_walls import dungeon
import aoegrid as ag
walls = dungeon(2000).walls
t0 = time.perf_counter()
m = ag.BattleMap(ag.Grid(2000, 2000), walls=walls)
t1 = time.perf_counter()
{query}
t2 = time.perf_counter()
print((t1 - t0) * 1e3, (t2 - t1) * 1e3)
"""

#: Each first query, as code for a new process and as a function of the map.
QUERIES = {
    "60-ft spread": 'ag.area(ag.Sphere(60), at=(1012, 1012), on=m, mode="spread").squares',
    "20-ft burst": "ag.area(ag.Sphere(20), at=(1012, 1012), on=m).squares",
}
RUN = {
    "60-ft spread": lambda m: ag.area(ag.Sphere(60), at=(1012, 1012), on=m, mode="spread").squares,
    "20-ft burst": lambda m: ag.area(ag.Sphere(20), at=(1012, 1012), on=m).squares,
}


def new_process(query: str, cache_dir: str | None) -> tuple[float, float]:
    """Construction and first-query ms in a fresh interpreter (``cache_dir``: numba's, None for the default)."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    code = FIRST_QUERY.format(bench=os.path.dirname(os.path.abspath(__file__)), query=query)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    build, first = map(float, out.stdout.split())
    return build, first


def first_queries(reps: int) -> None:
    walls = dungeon(2000).walls
    print(f"\n3. first query on a fresh 2000 x 2000 dungeon ({len(walls):,} walls) against the same query warm")
    print("   query          construct ms   first ms    warm ms   first/warm (target <= 3x)")
    maps: list[ag.BattleMap] = []

    def fresh() -> None:
        maps[:] = [ag.BattleMap(ag.Grid(2000, 2000), walls=walls)]

    for name, query in RUN.items():
        def run(query=query) -> object:  # type: ignore[no-untyped-def]
            return query(maps[0])

        build = median_time(fresh, reps)
        first = median_time(run, reps, before=fresh)
        fresh()
        # Warm: the walls prepared, but no answer the map keeps for the same origin (a
        # repeated query would read its visibility back instead of computing it).
        warm = median_time(run, reps, before=lambda: maps[0]._prepared.kept.clear())
        print(f"   {name:13s}  {build * 1e3:12.2f}  {first * 1e3:8.2f}  {warm * 1e3:9.2f}   {first / warm:6.1f}x")
    print("   in a new process (construct ms, first query ms):")
    for name, query in QUERIES.items():
        cached = new_process(query, None)
        with tempfile.TemporaryDirectory() as empty:
            compiling = new_process(query, empty)
        print(f"   {name:13s}  numba cache warm: {cached[0]:7.1f}, {cached[1]:7.1f}"
              f"   compiling: {compiling[0]:7.1f}, {compiling[1]:7.1f}")


def construction_vs_shapely(reps: int) -> None:
    walls = dungeon(2000).walls
    lines = shapely.linestrings(np.array([(*w.start, *w.end) for w in walls]).reshape(-1, 2, 2))

    def ours() -> object:
        return RUN["20-ft burst"](ag.BattleMap(ag.Grid(2000, 2000), walls=walls))

    def theirs() -> None:
        shapely.STRtree(shapely.get_parts(shapely.node(shapely.multilinestrings(lines))))

    fast = median_time(ours, reps)
    ref = median_time(theirs, reps)
    print("\n4. 2000 x 2000 dungeon: BattleMap construction + first 20-ft burst against shapely.node + STRtree")
    print(f"   aoegrid {fast * 1e3:8.2f} ms   shapely {ref * 1e3:8.2f} ms   ratio {fast / ref:5.2f}x  (target <= 1.5x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few repeats, for CI")
    args = parser.parse_args()
    reps = 3 if args.quick else 9
    print(f"aoegrid {ag.__version__}, numpy {np.__version__}, shapely {shapely.__version__}; medians of {reps}")
    t = time.perf_counter()
    kernel_vs_scipy(reps)
    cost_vs_radius(reps, args.quick)
    first_queries(reps)
    construction_vs_shapely(reps)
    print(f"\n({math.ceil(time.perf_counter() - t)} s)")


if __name__ == "__main__":
    main()
