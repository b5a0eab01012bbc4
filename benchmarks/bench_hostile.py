"""Hostile maps: time and peak memory to load a map and answer a 20-ft burst.

Run from the repository root (aoegrid installed)::

    python benchmarks/bench_hostile.py           # every case
    python benchmarks/bench_hostile.py --quick   # the same, smaller where it can be

Each case runs in a fresh process (so its peak resident memory is its own),
writes its map as a Universal VTT file, loads it with ``aoegrid.load_map`` and
computes a 20-ft Starfinder burst at (10, 5) (a spread, for ``long-walls``).
Printed: seconds (load + area), peak memory (MB, the whole process, Python and
libraries included) and the area's square count. The baseline row is
``import aoegrid`` alone. Target: every case under 2 s and 300 MB.

Cases (issue 10's), on a 20 x 20 map unless said:

* ``polylines``: 100,000 short two-point polylines over a 10 x 10 patch (4.4 MB);
* ``duplicates``: 10,000 copies of one wall;
* ``self-crossing``: one random polyline of 1,000 points over the map (237,000
  crossings);
* ``far-wall``: one wall from (0, 0) to (1e9, 1e9); ``farthest-wall`` to
  (1e308, 1e308);
* ``long-walls``: 10,000 random walls 200 squares long on a 2,000 x 2,000 map
  (580,000 segments once split), a 20-ft spread at (1000, 1000).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

CHILD = textwrap.dedent(
    """
    import json, resource, sys, time
    t0 = time.perf_counter()
    import aoegrid as ag
    t1 = time.perf_counter()
    path, x, y, mode = sys.argv[1:]
    if path != "-":
        m = ag.load_map(path)
        count = len(ag.area(ag.Sphere(20), at=(float(x), float(y)), on=m, mode=mode))
    else:
        count = None
    t2 = time.perf_counter()
    try:  # VmHWM is this program's own; ru_maxrss can carry the parent's peak over exec
        status = open("/proc/self/status").read()
        peak = int(status.split("VmHWM:")[1].split()[0]) / 1024
    except (OSError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": t2 - t1, "import": t1 - t0, "peak_mb": peak, "count": count}))
    """
)


def uvtt(lines: list[list[tuple[float, float]]], size: int = 20, at: tuple[float, float] = (10, 5), mode: str = "burst") -> dict:
    return {
        "format": 0.3,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": size, "y": size}, "pixels_per_grid": 64},
        "line_of_sight": [[{"x": x, "y": y} for x, y in line] for line in lines],
        "portals": [],
        "lights": [],
        "image": "",
        "query": [*at, mode],  # not Universal VTT: read by this script only
    }


def cases(quick: bool) -> dict[str, dict]:
    import numpy as np

    rng = np.random.default_rng(7)
    n = 1000 if not quick else 300
    walk = rng.uniform(0, 20, size=(n, 2)).tolist()
    k = 10_000 if not quick else 3_000
    start = rng.uniform(0, 2000, size=(k, 2))
    turn = rng.uniform(0, 2 * math.pi, size=k)
    end = start + 200 * np.column_stack([np.cos(turn), np.sin(turn)])
    return {
        "polylines": uvtt([[(i % 10, (i * 7) % 10), (i % 10 + 0.25, (i * 7) % 10 + 0.25)] for i in range(100_000)]),
        "duplicates": uvtt([[(3.5, 1.0), (3.5, 9.0)]] * 10_000),
        "self-crossing": uvtt([[tuple(p) for p in walk]]),
        "far-wall": uvtt([[(0, 0), (1e9, 1e9)]]),
        "farthest-wall": uvtt([[(0, 0), (1e308, 1e308)]]),
        "long-walls": uvtt([[tuple(p), tuple(q)] for p, q in zip(start.tolist(), end.tolist())], 2000, (1000, 1000), "spread"),
    }


def run(path: str, query: list) -> dict:
    args = [sys.executable, "-c", CHILD, path, *map(str, query)]
    done = subprocess.run(args, check=False, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"}
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    base = run("-", [0, 0, "burst"])
    print(f"{'case':15} {'seconds':>8} {'peak MB':>8} {'squares':>8}")
    print(f"{'import only':15} {base['import']:8.2f} {base['peak_mb']:8.0f} {'':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in cases(args.quick).items():
            path = Path(tmp) / f"{name}.dd2vtt"
            path.write_text(json.dumps(data))
            r = run(str(path), data["query"])
            if "error" in r:
                print(f"{name:15} failed: {r['error']}")
            else:
                print(f"{name:15} {r['seconds']:8.2f} {r['peak_mb']:8.0f} {r['count']:8d}")


if __name__ == "__main__":
    main()
