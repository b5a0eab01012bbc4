"""Pictures: how long a batch map-prep render takes.

Run: ``python benchmarks/bench_plotting.py [--quick]``. Prints the median time
to render a 40 x 30 map with walls, tokens and three areas to PNG (target:
well under a second), and the bundled cave map with its image, against the
time matplotlib alone takes to save an empty figure of the same size.
"""

from __future__ import annotations

import argparse
import io

from _timing import median_ms
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import aoegrid as ag
from aoegrid import plotting


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    reps = 3 if parser.parse_args().quick else 15
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
