"""aoegrid batch: rows per second on 1 worker, every local core, and a Dask LocalCluster.

Run with ``python benchmarks/bench_batch.py [ROWS]`` (needs ``pip install -e ".[dask]"``). Each run
goes through the installed ``aoegrid`` command, so process start and map loading are counted, as a
user sees them.
"""

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def placements(path: Path, n: int) -> None:
    rng = random.Random(13)
    rows = ["shape,size,x,y,direction"]
    for _ in range(n):
        shape = rng.choice(["sphere", "cone"])
        direction = rng.choice(["E", "S", "135"]) if shape == "cone" else ""
        rows.append(f"{shape},{rng.choice([10, 15, 20, 30])},{rng.randint(0, 20)},{rng.randint(0, 20)},{direction}")
    path.write_text("\n".join(rows) + "\n")


def rows_per_second(csv_path: Path, n: int, *options: str) -> float:
    command = [str(Path(sys.executable).parent / "aoegrid"), "batch", "@demo", str(csv_path), "--out", os.devnull,
               "--force", "--skip-errors", "--quiet", *options]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return n / (time.perf_counter() - start)


def main() -> None:
    from distributed import LocalCluster

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        csv_path = Path(tmp) / "p.csv"
        placements(csv_path, n)
        print(f"{n} rows on @demo, {cores} cores")
        print(f"  1 worker:          {rows_per_second(csv_path, n, '--workers', '1'):7.1f} rows/s")
        print(f"  {cores} workers:         {rows_per_second(csv_path, n, '--workers', str(cores)):7.1f} rows/s")
        with LocalCluster(n_workers=cores, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                          processes=True) as cluster:
            rate = rows_per_second(csv_path, n, "--scheduler", cluster.scheduler_address)
        print(f"  Dask, {cores} workers:   {rate:7.1f} rows/s")


if __name__ == "__main__":
    main()
