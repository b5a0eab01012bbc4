"""Pictures: what was drawn, where and in which colour (no pixel baselines)."""

import subprocess
import sys

import numpy as np
import pytest
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Polygon

import aoegrid as ag
from aoegrid import plotting


def by_label(artists, label):
    found = [a for a in artists if a.get_label() == label]
    assert found, f"nothing labelled {label!r} among {[a.get_label() for a in artists]}"
    return found[0]


def square_corners(coll):
    """The top-left corner of each square a PolyCollection fills."""
    return sorted((int(p.vertices[:, 0].min()), int(p.vertices[:, 1].min())) for p in coll.get_paths())


def walled_map():
    walls = [ag.Wall((10, 0), (10, 4)), ag.Wall((10, 4), (10, 6), kind="door"), ag.Wall((10, 6), (10, 8), kind="door", open=True),
             ag.Wall((10, 8), (10, 10), kind="window"), ag.Wall((10, 10), (10, 20), one_way="left")]
    return ag.BattleMap(ag.Grid(20, 20), walls=walls, tokens=[ag.Token(7, 7, name="orc"), ag.Token(15, 2, name="elf")])


def test_area_squares_outline_and_origin():
    a = ag.area(ag.Sphere(20), at=(10, 10), on=ag.Grid(20, 20))
    fig = Figure()
    ax = fig.add_subplot()
    artists = plotting.plot_area(a, ax, color="#00ff00")
    fill = by_label(artists, "area (44 squares)")
    assert isinstance(fill, PolyCollection) and square_corners(fill) == sorted(a.squares)
    assert tuple(fill.get_facecolor()[0][:3]) == pytest.approx(to_rgba("#00ff00")[:3])
    shape = by_label(artists, "shape")
    assert isinstance(shape, Polygon)
    radii = np.hypot(*(shape.get_xy() - [10, 10]).T)
    assert radii.min() == pytest.approx(4.0) and radii.max() == pytest.approx(4.0)
    # The outline goes round in order: no chord jumps across the circle.
    xy = shape.get_xy()
    assert np.hypot(*np.diff(xy, axis=0).T).max() < 0.5
    origin = by_label(artists, "origin")
    assert origin.get_xdata().tolist() == [10] and origin.get_ydata().tolist() == [10]
    assert ax.get_ylim() == (20.0, 0.0)  # y grows down, as on the map
    assert all(a in ax.get_children() for a in artists)


def test_walls_by_kind_and_tokens_marked():
    m = walled_map()
    a = ag.area(ag.Sphere(20), at=(8, 8), on=m)
    artists = plotting.plot_area(a, legend=True)
    walls = {x.get_label(): x for x in artists if isinstance(x, LineCollection) and x.get_label() != "grid"}
    assert set(walls) == {"wall", "door", "open door", "window", "one-way"}
    assert [s.tolist() for s in walls["door"].get_segments()] == [[[10, 4], [10, 6]]]
    assert walls["window"].get_colors()[0] == pytest.approx(to_rgba(plotting.WALL_STYLES["window"][0]))
    assert walls["open door"].get_linestyle() != walls["door"].get_linestyle()
    orc = by_label(artists, "token orc (affected)")
    elf = by_label(artists, "token elf")
    assert isinstance(orc, Circle) and orc.center == (7.5, 7.5) and elf.center == (15.5, 2.5)
    blocked = by_label(artists, "blocked (total cover)")
    assert (11, 8) in square_corners(blocked)  # behind the window: in the shape, no line of effect
    assert any(x.get_label() == "partial cover" for x in artists)
    legend = artists[-1]
    assert "door" in [t.get_text() for t in legend.get_texts()]


def test_several_areas_and_comparison():
    g = ag.Grid(30, 30)
    areas = [ag.area(ag.Sphere(20), at=(10, 10), on=g), ag.area(ag.Cone(30, "E"), at=(15, 15), on=g, rules="sw5e")]
    artists = plotting.plot_areas(areas)
    fills = [x for x in artists if isinstance(x, PolyCollection) and "squares" in x.get_label()]
    assert [f.get_label() for f in fills] == ["starfinder sphere (44 squares)", f"sw5e cone ({len(areas[1])} squares)"]
    assert fills[0].get_facecolor()[0][:3] != pytest.approx(fills[1].get_facecolor()[0][:3])
    fig = plotting.compare_presets(ag.Sphere(20), (8, 8), ag.Grid(16, 16))
    titles = [ax.get_title() for ax in fig.axes]
    assert titles[0].startswith("starfinder: 44 squares") and titles[2].startswith("sw5e: 52 squares")
    with pytest.raises(ag.GridMismatchError, match=r"cannot draw areas from different grids together"):
        plotting.plot_areas([areas[0], ag.area(ag.Sphere(5), at=(1, 1), on=ag.Grid(5, 5))])


def test_bad_and_empty_inputs():
    m = walled_map()
    other = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(12, 12))
    with pytest.raises(ag.GridMismatchError, match=r"the area is on a 12x12 grid, the map on a 20x20 one"):
        plotting.plot_area(other, on=m)
    corner = ag.area(ag.Sphere(5), at=(0, 0), on=ag.Grid(4, 4)) - ag.area(ag.Sphere(5), at=(0, 0), on=ag.Grid(4, 4))
    artists = plotting.plot_area(corner)
    assert by_label(artists, "area (0 squares)").get_paths() == []
    assert plotting.plot_image(m) == []  # a map without an image draws no image
    with pytest.raises(ag.InvalidValueError, match=r"pictures are written as .png or .svg, got 'x.gif'"):
        plotting.save(other, "x.gif")


def test_png_and_svg_output(tmp_path):
    m = walled_map()
    a = ag.area(ag.Sphere(20), at=(8, 8), on=m)
    png = tmp_path / "a.png"
    plotting.save(a, png, scale=10)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (200, 200)  # 20 squares at 10 pixels a square
    svg = tmp_path / "m.svg"
    plotting.save(m, svg)
    assert "<svg" in svg.read_text()[:500]
    assert a._repr_png_()[:4] == b"\x89PNG" and m._repr_png_()[:4] == b"\x89PNG"
    assert repr(m).startswith("<BattleMap 20x20, 5 walls")


def test_plotting_never_touches_pyplot():
    code = (
        "import sys, aoegrid as ag, aoegrid.plotting as p; "
        "a = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 10)); a._repr_png_(); "
        "print('matplotlib.pyplot' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120)
    assert run.stdout.strip() == "False", run.stderr


@pytest.mark.parametrize("name", ["cave-oganm.dd2vtt", "blue-tower-base.dd2vtt", "sample-room-imagix.noimage.dd2vtt"])
def test_real_maps_render_end_to_end(tmp_path, name):
    from pathlib import Path

    from PIL import Image

    m = ag.load_map(Path(__file__).resolve().parent / "data" / name)
    out = tmp_path / "map.png"
    plotting.save(m, out, scale=16)
    img = Image.open(out)
    assert img.size == (m.grid.width * 16, m.grid.height * 16)
    pixels = np.asarray(img.convert("L"))
    assert pixels.std() > 10  # not a blank picture: walls, grid and (where there is one) the image
