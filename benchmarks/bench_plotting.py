"""Pictures: how long a batch map-prep render takes.

Run: ``python benchmarks/bench_plotting.py [--quick]``. Prints the median time
to render a 40 x 30 map with walls, tokens and three areas to PNG (target:
well under a second), and the bundled cave map with its image, against the
time matplotlib alone takes to save an empty figure of the same size.

``--big`` (issue 13) writes a 40 x 40 square map whose image is 10,240 x
10,240 pixels (256 a square, a pattern saved as PNG inside a Universal VTT
file) and draws it at 24 pixels a square in a fresh process, printing that
process's peak memory (target: under 1 GB) and time.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from _timing import median_ms
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import aoegrid as ag
from aoegrid.show import plotting


def empty_png() -> bytes:
    fig = Figure(figsize=(9.6, 7.2), dpi=100)
    fig.add_axes((0, 0, 1, 1))
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def three_areas() -> bytes:
    walls = [ag.Wall((20, 0), (20, 12)), ag.Wall((20, 14), (20, 30)), ag.Wall((20, 12), (20, 14), kind="door", open=True),
             ag.Wall((5, 20), (10, 20), kind="window")]
    m = ag.BattleMap(ag.Grid(40, 30), walls=walls, tokens=[ag.Token(24, 10, name="orc"), ag.Token(8, 8, size="large", name="ogre")])
    areas = [ag.area(ag.Sphere(30), at=(18, 12), on=m), ag.area(ag.Cone(30, "E"), at=(10, 10), on=m),
             ag.area(ag.Line(60, 30), at=(4, 4), on=m)]
    fig = Figure(figsize=(9.6, 7.2), dpi=100)
    plotting.plot_areas(areas, fig.add_axes((0, 0, 1, 1)))
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def big_image_map(path: Path, side: int = 10_240, squares: int = 40) -> int:
    """Write a Universal VTT map of ``squares`` x ``squares`` with a ``side``-pixel image; return its image's bytes.

    The image is noise upscaled into blocks with a grid drawn on it: a real
    map's detail, compressible as a painted map is.
    """
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(13)
    small = Image.fromarray(rng.integers(0, 256, (side // 6, side // 6, 3), dtype=np.uint8))
    pixels = np.array(small.resize((side, side), Image.Resampling.NEAREST))
    step = side // squares
    pixels[::step, :, :] = 0
    pixels[:, ::step, :] = 0
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format="PNG", compress_level=1)
    data = buf.getvalue()
    doc = {"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": squares, "y": squares},
                                         "pixels_per_grid": step},
           "line_of_sight": [[{"x": 10, "y": 10}, {"x": 30, "y": 10}]], "portals": [], "lights": [],
           "image": base64.b64encode(data).decode("ascii")}
    path.write_text(json.dumps(doc))
    return len(data)


#: Run in a fresh process, so its peak memory is the drawing's alone. VmHWM, not ru_maxrss,
#: which Linux carries over from the forking parent (here, the one that made the image).
_DRAW = """
import resource, sys, time
import aoegrid as ag
from aoegrid.show import plotting
def peak():
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM"))
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
m = ag.load_map(sys.argv[1])
t0 = time.perf_counter()
png = plotting.png_bytes(m, scale=24)
took = time.perf_counter() - t0
print(peak(), took, len(png))
"""


def big_image() -> tuple[int, int, float]:
    """Image bytes, the drawing process's peak memory in bytes, and its time drawing, in seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.dd2vtt"
        size = big_image_map(path)
        run = subprocess.run([sys.executable, "-c", _DRAW, str(path)], capture_output=True, text=True, check=True)
    peak, took, _ = run.stdout.split()
    return size, int(peak), float(took)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--big", action="store_true", help="only the 10,240 x 10,240 pixel map image")
    args = parser.parse_args()
    if args.big:
        size, peak, took = big_image()
        print(f"10240 x 10240 px map image ({size / 2**20:.0f} MB PNG) at 24 px a square: "
              f"peak {peak / 2**20:,.0f} MiB (target: under 1 GB), {took:.2f} s")
        return
    reps = 3 if args.quick else 15
    base = median_ms(empty_png, reps)
    three = median_ms(three_areas, reps)
    cave = ag.demo_map()
    burst = ag.area(ag.Sphere(20), at=(11, 8), on=cave)
    with_image = median_ms(lambda: plotting.png_bytes(burst, scale=24), reps)
    print(f"empty 960x720 figure to PNG (matplotlib alone)   {base:8.1f} ms")
    print(f"40 x 30 map, walls, tokens, 3 areas to PNG       {three:8.1f} ms   ratio {three / base:4.1f}x   (target: well under 1000 ms)")
    print(f"bundled cave map with its image, one burst       {with_image:8.1f} ms")


if __name__ == "__main__":
    main()
