"""Wall preparation against the number of wall points, at any density (issue 17).

Run from the repository root (aoegrid installed)::

    python benchmarks/bench_density.py           # every size, 3 runs each, ~3 min
    python benchmarks/bench_density.py --quick   # 1 run each, up to 100,000 points

Each run is a fresh process (so its peak resident memory, VmHWM, is its own):
it loads aoegrid and its compiled kernels on a tiny map first (the baseline
row), then times ``BattleMap`` construction from one polyline plus the first
20-ft burst, and prints the median seconds, the median peak memory (MB, the
whole process) and the answer: the burst's square count, or the error's
first words. Beside it, in the same way and alternating with it, the
reference: a ``shapely.STRtree`` of the same segments and one query, the
least any preparation does (build every segment and index it); the ratio is
aoegrid's time over the reference's. Fitted exponents are of a least-squares
line of log time (and log memory over the baseline) on log points, over the
runs answered and over those refused.

Cases:

* ``round``: a circle of radius 4 round (5, 5) on a 10 x 10 map, one
  polyline of 1,000 to 300,000 points (a point per 0.025 to 0.00008 squares,
  as walls traced from a picture are); it crosses nothing. Target: exponent
  about 1 (near-linear).
* ``random``: a polyline through random points of a 100 x 100 map, 1,000
  to 300,000 points: about 0.118 * points**2 crossings (1,000 points:
  118,000; 300,000 points: 10.6 billion). Walls whose pieces would not fit
  in the memory budget (``aoegrid.geometry.grid.memory_budget``, at
  ``aoegrid.board.walls.PIECE_BYTES`` a piece) are refused before any is made,
  after counting about as many crossings as would fit.
* ``zigzag``: ``bench_hostile.py``'s self-crossing polyline (random points
  of a 20 x 20 map), 2,000 and 5,000 points (470,000 and 2.9 million
  crossings).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import textwrap

import numpy as np

CHILD = textwrap.dedent(
    """
    import json, math, os, resource, sys, time
    os.environ["AOEGRID_KERNELS"] = "compiled"  # the tiny map below loads them too (small maps need not)
    case, points, which, cap = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    if cap:  # address space, so a run past it fails (MemoryError) instead of swapping the machine
        resource.setrlimit(resource.RLIMIT_AS, (int(cap * 2**30), int(cap * 2**30)))
    import numpy as np
    import shapely
    import aoegrid as ag

    def peak_mb():
        return int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0]) / 1024

    if case == "round":
        size, at = 10, (5, 5)
        turn = np.linspace(0, 2 * math.pi, points)
        pts = np.column_stack([5 + 4 * np.cos(turn), 5 + 4 * np.sin(turn)])
    else:
        size = 100 if case == "random" else 20
        at = (size // 2, size // 2) if case == "random" else (10, 5)
        pts = np.random.default_rng(7).uniform(0, size, size=(points, 2))
    line = pts.tolist()  # as a map file gives it
    # The compiled kernels load (from numba's cache) on a tiny map first.
    warm = ag.BattleMap(ag.Grid(4, 4), walls=[[(0.5, 0.5), (3.5, 3.5), (0.5, 3.5), (3.5, 0.5)]])
    ag.area(ag.Sphere(5), at=(2, 1), on=warm)
    base = peak_mb()
    t0 = time.perf_counter()
    if which == "aoegrid":
        try:
            m = ag.BattleMap(ag.Grid(size, size), walls=[line])
            answer = f"{len(ag.area(ag.Sphere(20), at=at, on=m))} squares"
        except ag.AoegridError as exc:
            answer = "refused: " + str(exc).split(":")[0]
    else:
        p = np.asarray(line)
        tree = shapely.STRtree(shapely.linestrings(np.hstack([p[:-1], p[1:]]).reshape(-1, 2, 2)))
        answer = f"{tree.query(shapely.box(at[0] - 4, at[1] - 4, at[0] + 4, at[1] + 4)).size} segments near"
    seconds = time.perf_counter() - t0
    print(json.dumps({"seconds": seconds, "peak_mb": peak_mb(), "base_mb": base, "answer": answer}))
    """
)

FULL = [1_000, 3_000, 10_000, 30_000, 100_000, 300_000]
QUICK = [1_000, 3_000, 10_000, 30_000, 100_000]


def run(case: str, points: int, which: str, timeout: float, cap: float) -> dict:
    """One fresh process: seconds, peak MB, baseline MB and answer (or the failure)."""
    args = [sys.executable, "-c", CHILD, case, str(points), which, str(cap)]
    try:
        done = subprocess.run(args, check=False, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"failed": f"over {timeout:.0f} s"}
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        return {"failed": lines[-1][:60] if lines else f"exit {done.returncode}"}
    return json.loads(done.stdout)


def measure(case: str, points: int, repeats: int, timeout: float, cap: float) -> tuple[dict, dict]:
    """Medians of ``repeats`` runs of aoegrid and of the reference, alternating."""
    runs: dict[str, list[dict]] = {"aoegrid": [], "reference": []}
    for _ in range(repeats):
        for which, rs in runs.items():
            rs.append(run(case, points, which, timeout, cap))
    out = []
    for which, rs in runs.items():
        ok = [r for r in rs if "failed" not in r]
        if not ok:
            out.append(rs[0])
            continue
        out.append({
            "seconds": statistics.median(r["seconds"] for r in ok),
            "peak_mb": statistics.median(r["peak_mb"] for r in ok),
            "base_mb": statistics.median(r["base_mb"] for r in ok),
            "answer": ok[0]["answer"],
        })
    return out[0], out[1]


def exponent(points: list[int], values: list[float]) -> float:
    """The slope of a least-squares line of log value on log points."""
    return float(np.polyfit(np.log(points), np.log(values), 1)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds a run may take (default 600)")
    parser.add_argument("--cap-gb", type=float, default=0.0, help="address space a run may take (default: no cap)")
    args = parser.parse_args()
    repeats, sizes = (1, QUICK) if args.quick else (3, FULL)
    cases = [("round", sizes), ("random", sizes), ("zigzag", [2_000, 5_000])]
    print(f"{'case':7} {'points':>8} {'seconds':>8} {'peak MB':>8} {'ref s':>7} {'ratio':>6}  answer")
    for case, counts in cases:
        fits: dict[str, list[tuple[int, float, float]]] = {"answered": [], "refused": []}
        for points in counts:
            mine, ref = measure(case, points, repeats, args.timeout, args.cap_gb)
            if "failed" in mine:
                print(f"{case:7} {points:8,} failed: {mine['failed']}")
                continue
            ratio = f"{mine['seconds'] / ref['seconds']:6.1f}" if "failed" not in ref else f"{'-':>6}"
            ref_s = f"{ref['seconds']:7.3f}" if "failed" not in ref else f"{'-':>7}"
            print(f"{case:7} {points:8,} {mine['seconds']:8.3f} {mine['peak_mb']:8.0f} {ref_s} {ratio}  "
                  f"{mine['answer']}")
            outcome = "refused" if mine["answer"].startswith("refused") else "answered"
            fits[outcome].append((points, mine["seconds"], max(mine["peak_mb"] - mine["base_mb"], 1.0)))
        for outcome, fit in fits.items():
            if len(fit) >= 2:
                ns = [f[0] for f in fit]
                print(f"{case:7} fitted exponent, {outcome} ({ns[0]:,} to {ns[-1]:,} points): time "
                      f"{exponent(ns, [f[1] for f in fit]):.2f}, memory over the baseline "
                      f"{exponent(ns, [f[2] for f in fit]):.2f}")
    base = run("round", 1_000, "aoegrid", args.timeout, args.cap_gb)
    if "failed" not in base:
        print(f"baseline (aoegrid and its kernels loaded): {base['base_mb']:.0f} MB")


if __name__ == "__main__":
    main()
