"""aoegrid batch (issue 13): bad rows skipped, interrupted batches resumed, rows on every core and on Dask."""

import json
import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_cli import run


def placements(path, n=60, seed=13):
    """Random spheres and cones on the 20 x 20 demo map; a few of them end in a wall or off the map."""
    rng = random.Random(seed)
    rows = ["name,shape,size,x,y,direction"]
    for k in range(n):
        shape = rng.choice(["sphere", "cone"])
        direction = rng.choice(["E", "south", "135"]) if shape == "cone" else ""
        rows.append(f"r{k},{shape},{rng.choice([10, 15, 20])},{rng.randint(0, 21)},{rng.randint(0, 20)},{direction}")
    path.write_text("\n".join(rows) + "\n")
    return path


def records(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def test_skip_errors_writes_error_records_and_resume_finishes_an_interrupted_batch(tmp_path):
    csv_path = placements(tmp_path / "p.csv")
    stopped = run("batch", "@demo", csv_path)
    assert stopped.returncode == 2 and "off the 20 x 20 grid" in stopped.stderr
    full = tmp_path / "full.jsonl"
    done = run("batch", "@demo", csv_path, "--out", full, "--skip-errors", "--workers", "1")
    assert done.returncode == 0, done.stderr
    got = records(full)
    assert [r["row"] for r in got] == list(range(2, 62))
    errors = [r for r in got if r["record"] == "error"]
    assert errors and all("p.csv, row" in r["message"] for r in errors)
    assert done.stdout.strip().endswith(f"error record{'s' if len(errors) > 1 else ''} to {full}")
    # An interruption: the first 20 records and half of the 21st.
    cut = tmp_path / "cut.jsonl"
    lines = full.read_text().splitlines(keepends=True)
    cut.write_text("".join(lines[:20]) + lines[20][:40])
    refused = run("batch", "@demo", csv_path, "--out", cut, "--skip-errors")
    assert refused.returncode == 2 and "exists; pass --force" in refused.stderr
    resumed = run("batch", "@demo", csv_path, "--out", cut, "--skip-errors", "--resume", "--workers", "1")
    assert resumed.returncode == 0, resumed.stderr
    assert cut.read_text() == full.read_text()


def test_two_workers_write_what_one_does(tmp_path):
    csv_path = placements(tmp_path / "p.csv", n=80)
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert run("batch", "@demo", csv_path, "--out", one, "--skip-errors", "--workers", "1").returncode == 0
    done = run("batch", "@demo", csv_path, "--out", two, "--skip-errors", "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert two.read_text() == one.read_text()


def test_a_map_per_row_and_a_folder_of_maps(tmp_path):
    maps = tmp_path / "maps"
    maps.mkdir()
    data = Path(__file__).resolve().parent / "data"
    for name in ("blue-tower-base.dd2vtt", "sample-room-imagix.noimage.dd2vtt"):
        (maps / name).write_bytes((data / name).read_bytes())
    csv_path = tmp_path / "p.csv"
    csv_path.write_text("shape,size,x,y,map\nsphere,10,3,3,maps/blue-tower-base.dd2vtt\nsphere,10,3,3,\n")
    done = run("batch", "@demo", csv_path, "--out", "-")
    assert done.returncode == 0, done.stderr
    got = [json.loads(line) for line in done.stdout.splitlines()]
    assert [Path(r["area"]["map"]["source"]).name for r in got] == ["blue-tower-base.dd2vtt", "cave-oganm.dd2vtt"]
    folder = run("batch", maps, csv_path)
    assert folder.returncode == 0, folder.stderr
    got = [json.loads(line) for line in folder.stdout.splitlines()]
    assert [(r["row"], r["area"]["inputs"]["map"]) for r in got] == [
        (1, "blue-tower-base.dd2vtt"), (2, "blue-tower-base.dd2vtt"),
        (3, "sample-room-imagix.noimage.dd2vtt"), (4, "sample-room-imagix.noimage.dd2vtt")]


def test_errors_print_below_the_progress_bar(tmp_path):
    import io

    from aoegrid.cli import main

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    csv_path = tmp_path / "p.csv"
    csv_path.write_text("shape,size,x,y\nsphere,20,11,8\nsphere,20,30,8\nsphere,10,9,11\n")
    out, err = io.StringIO(), Terminal()
    assert main(["batch", "@demo", str(csv_path), "--skip-errors", "--workers", "1"], stdout=out, stderr=err) == 0
    text = err.getvalue()
    # The bar is wiped (spaces over it, no escape codes), the warning takes its line, the bar is drawn again below.
    warning, bar = text.split("\n")[:2]
    assert re.fullmatch(r"(\r[^\r]*)+\r +\r", warning[:warning.index("aoegrid: warning")])
    assert warning[warning.index("aoegrid: warning"):] == (
        f"aoegrid: warning: {csv_path}, row 3: origin (30, 8) is off the 20 x 20 grid; points must lie in "
        "[0, 20] x [0, 20] (the border counts) (error record written)")
    assert bar.startswith("\r[") and "\x1b" not in text
    assert re.fullmatch(rf"\[{'#' * 30}\] 3/3 \[\d\d:\d\d<00:00, +[\d.]+ areas/s\]\n"
                        "2 areas written, 1 error record\n", text.split("\r")[-1])
    assert [json.loads(line)["record"] for line in out.getvalue().splitlines()] == ["batch", "error", "batch"]


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                                  processes=True) as local:
        yield local


def test_a_dask_cluster_writes_what_the_local_run_does(tmp_path, cluster):
    csv_path = placements(tmp_path / "p.csv", n=40)
    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    assert run("batch", "@demo", csv_path, "--out", local, "--skip-errors", "--workers", "1").returncode == 0
    done = run("batch", "@demo", csv_path, "--out", remote, "--skip-errors", "--scheduler", cluster.scheduler_address)
    assert done.returncode == 0, done.stderr
    assert remote.read_text() == local.read_text()
