"""Pictures of the open table: what was drawn, where, in which colour; a few pixels of the rendered PNG."""

import io
import math
import subprocess
import sys

import numpy as np
import pytest
from matplotlib.collections import LineCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import Circle, PathPatch, Rectangle
from PIL import Image

import aoegrid as ag
from aoegrid.effects.savage_worlds import CONE, MEDIUM_BLAST
from aoegrid.errors import GridMismatchError, InvalidValueError
from aoegrid.openarea import open_area
from aoegrid.show import openplot

TABLE = ag.Gridless(60, 40)
INCHES = ag.Gridless(24, 16, units="in")


def by_label(artists, label):
    found = [a for a in artists if a.get_label() == label]
    assert found, f"nothing labelled {label!r} among {[a.get_label() for a in artists]}"
    return found[0]


def listed(drawn):
    return [str(a.get_label()) for a in drawn if not str(a.get_label()).startswith(("_", "name "))]


def walled_map():
    """A wall down x = 35 to y = 20 east of the origin (30, 20): 'half' is half hidden, 'hidden' wholly."""
    return ag.BattleMap(TABLE, walls=[ag.Wall((35, 0), (35, 20))],
                        tokens=[ag.OpenToken(40, 20, name="half"), ag.OpenToken(20, 20, name="near"),
                                ag.OpenToken(40, 8, name="hidden"),
                                ag.OpenToken(10, 34, name="crate", footprint="rect", width=6, depth=3),
                                ag.OpenToken(52, 30, name="ogre", size="large")])


def test_import_aoegrid_loads_no_matplotlib_and_openplot_no_pyplot():
    code = ("import sys, aoegrid; a = sorted(m for m in sys.modules if m.startswith('matplotlib')); "
            "import aoegrid.show.openplot; b = [m for m in sys.modules if m == 'matplotlib.pyplot']; print(a, b)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "[] []"


def test_a_new_figure_is_the_tables_extent_a_quarter_inch_a_square_y_down():
    drawn = openplot.plot_open_map(ag.BattleMap(ag.Gridless(300, 200)))
    assert drawn.ax.get_xlim() == (0.0, 300.0) and drawn.ax.get_ylim() == (200.0, 0.0)
    assert tuple(drawn.figure.get_size_inches()) == pytest.approx((15.0, 10.0))   # 60 x 40 squares at 25 px
    # A small table is drawn at least 800 pixels across: 24" at 33 1/3 pixels an inch.
    small = openplot.plot_open_map(ag.BattleMap(INCHES))
    assert tuple(small.figure.get_size_inches() * small.figure.dpi) == pytest.approx((800.0, 1600 / 3))
    assert openplot.default_open_scale(INCHES) == pytest.approx(100 / 3)


def test_area_on_a_bare_table_is_its_exact_outline_tinted():
    a = ag.area(ag.Sphere(10), at=(15, 10), on=TABLE, rules="5e")
    drawn = openplot.plot_open_area(a)
    assert listed(drawn) == ["area (314 sq ft)", "shape", "origin"]
    fill = by_label(drawn, "area (314 sq ft)")
    assert isinstance(fill, PathPatch)
    ring = fill.get_path().vertices[:-1]
    np.testing.assert_allclose(np.hypot(ring[:, 0] - 15, ring[:, 1] - 10), 10.0, rtol=2e-5)
    assert fill.get_facecolor() == pytest.approx(to_rgba("#d62728", 0.3))
    shape = by_label(drawn, "shape")
    assert isinstance(shape, LineCollection) and shape.get_linestyle()[0][1] is not None   # dashed
    (seg,) = shape.get_segments()
    np.testing.assert_allclose(seg, np.asarray(a.outline.exterior.coords))
    origin = by_label(drawn, "origin")
    assert origin.get_marker() == "X" and (origin.get_xdata()[0], origin.get_ydata()[0]) == (15.0, 10.0)
    edge = by_label(drawn, "_table edge")
    assert isinstance(edge, Rectangle) and (edge.get_width(), edge.get_height()) == (60.0, 40.0)


def test_walls_cut_the_area_the_cut_part_grey_tokens_as_their_footprints():
    m = walled_map()
    a = open_area(ag.Sphere(15), at=(30, 20), on=m, rules="sw5e", inclusion="touch")
    drawn = openplot.plot_open_area(a)
    assert listed(drawn) == ["wall", "area (604 sq ft)", "shape", "blocked (total cover)", "origin",
                             "token half (affected)", "cover badge half", "token near (affected)", "token hidden",
                             "token crate", "token ogre"]
    blocked = by_label(drawn, "blocked (total cover)")
    assert blocked.get_hatch() == ".." and blocked.get_facecolor() == pytest.approx(to_rgba("#7f7f7f", 0.25))
    # The grey part is the circle's east of the wall, above its end: half a segment 5 ft from the centre.
    x, y = blocked.get_path().vertices[:-1].T
    grey = 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    assert grey == pytest.approx(0.5 * (225 * math.acos(5 / 15) - 5 * math.sqrt(200)), rel=1e-4)
    assert x.min() > 34.8 and y.max() == pytest.approx(20.0)
    wall = by_label(drawn, "wall")
    assert wall.get_segments()[0].tolist() == [[35.0, 0.0], [35.0, 20.0]]
    for name, radius in (("half", 2.5), ("near", 2.5), ("hidden", 2.5), ("ogre", 5.0)):
        disc = next(x for x in drawn if str(x.get_label()).startswith(f"token {name}"))
        assert isinstance(disc, Circle) and disc.radius == radius
    crate = by_label(drawn, "token crate")
    assert isinstance(crate, Rectangle)
    assert (crate.get_x(), crate.get_y(), crate.get_width(), crate.get_height()) == (7.0, 32.5, 6.0, 3.0)
    assert by_label(drawn, "token half (affected)").get_edgecolor() == pytest.approx(to_rgba("#d62728"))
    assert by_label(drawn, "token hidden").get_edgecolor() == pytest.approx(to_rgba("#333333"))
    assert by_label(drawn, "cover badge half").get_text() == "\u00bd"
    # Badged on the rim of its circle, up and to the right.
    assert by_label(drawn, "cover badge half").get_position() == pytest.approx((40 + 2.5 * math.sqrt(0.5),
                                                                                20 - 2.5 * math.sqrt(0.5)))


def test_legend_lists_what_was_drawn_and_the_figure_grows_to_hold_it():
    a = open_area(ag.Sphere(15), at=(30, 20), on=walled_map(), rules="sw5e", inclusion="touch")
    drawn = openplot.plot_open_area(a, legend=True, title="a burst", grid=True)
    key = by_label(drawn, "legend")
    assert [t.get_text() for t in key.get_texts()] == ["wall", "area (604 sq ft)", "shape", "blocked (total cover)",
                                                        "origin"]
    assert by_label(drawn, "title").get_text() == "a burst"
    fw, fh = drawn.figure.get_size_inches()
    assert fw > 60 / 5 * openplot.default_open_scale(TABLE) / 100 and fh > 40 / 5 * 25 / 100
    assert drawn.ax.get_xlim() == (0.0, 60.0)


def test_reference_grid_is_off_by_default_and_a_square_apart_when_asked():
    m = walled_map()
    assert "grid" not in [x.get_label() for x in openplot.plot_open_map(m)]
    lines = by_label(openplot.plot_open_map(m, grid=True), "grid").get_segments()
    assert len(lines) == 13 + 9    # x = 0, 5, ..., 60 and y = 0, 5, ..., 40
    xs = sorted({seg[0][0] for seg in lines if seg[0][0] == seg[1][0]})
    assert xs == [5.0 * k for k in range(13)]
    inches = by_label(openplot.plot_open_grid(INCHES), "grid").get_segments()
    assert len(inches) == 25 + 17
    assert len(by_label(openplot.plot_open_grid(TABLE, every=10), "grid").get_segments()) == 7 + 5
    with pytest.raises(InvalidValueError, match=r"spacing \(every\) must be a positive number of ft, got 0"):
        openplot.plot_open_grid(TABLE, every=0)


def test_pixels_tinted_inside_the_area_white_outside():
    a = ag.area(ag.Sphere(10), at=(15, 10), on=TABLE, rules="5e")
    fig = openplot.plot_open_area(a, scale=20).figure   # 4 pixels a foot
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    px = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB")).astype(int)
    assert px.shape[:2] == (160, 240)

    def at(x, y):
        return px[round(y * 4), round(x * 4)]

    red, white = to_rgba("#d62728"), (1.0, 1.0, 1.0)
    tint = np.round(255 * (0.3 * np.array(red[:3]) + 0.7 * np.array(white)))
    assert np.abs(at(10, 14) - tint).max() <= 2 and np.abs(at(20, 7) - tint).max() <= 2
    assert at(27, 10).tolist() == [255, 255, 255] and at(40, 30).tolist() == [255, 255, 255]


def test_a_line_of_no_width_is_drawn_as_a_stroke():
    a = ag.area(ag.Line(30, direction=0, width=0), at=(5, 10), on=TABLE, rules="pf2e")
    drawn = openplot.plot_open_area(a)
    stroke = by_label(drawn, "area (0 sq ft)")
    assert isinstance(stroke, LineCollection)
    assert stroke.get_segments()[0].tolist() == [[5.0, 10.0], [35.0, 10.0]]


def test_savage_worlds_templates_side_by_side():
    m = ag.BattleMap(INCHES, walls=[ag.Wall((13, 2), (13, 8))],
                     tokens=[ag.OpenToken(10.5, 5.5, name="orc"), ag.OpenToken(11.5, 8.8, name="goblin"),
                             ag.OpenToken(14.3, 9.0, name="ogre", size="large"),
                             ag.OpenToken(6.5, 12, name="wolf", footprint="rect", width=1, depth=2),
                             ag.OpenToken(9.5, 13.2, name="troll", size="large"), ag.OpenToken(18, 4, name="imp", size="small")])
    blast = ag.area(MEDIUM_BLAST, at=(12.2, 7), on=m, rules="sw")
    cone = ag.area(CONE.replace(direction=10), at=(2, 11.5), on=m, rules="sw")
    drawn = openplot.compare_open([("Medium Blast", blast), ("Cone", cone)], title="templates")
    assert [t.get_text() for t in drawn if t.get_label() == "title"] == [
        "Medium Blast: 3 creatures reached", "Cone: 2 creatures reached", "templates"]
    key = by_label(drawn, "legend")
    assert [t.get_text() for t in key.get_texts()] == ["wall", "area", "shape", "blocked (total cover)", "origin"]
    assert len(drawn.figure.axes) == 2 and drawn.ax is drawn.figure.axes[0]
    hit = sorted(str(x.get_label())[6:-11] for x in drawn if str(x.get_label()).endswith("(affected)"))
    assert hit == ["goblin", "ogre", "orc", "troll", "wolf"]
    # Each creature its real size: a Small imp fills a square as a Medium one does, an ogre two.
    assert {x.radius for x in drawn if x.get_label() == "token imp"} == {0.5}
    assert {x.radius for x in drawn if x.get_label() == "token ogre (affected)"} == {1.0}


def test_png_bytes_of_a_map_and_of_an_area():
    m = walled_map()
    for obj in (m, ag.area(ag.Sphere(10), at=(20, 20), on=m, rules="5e")):
        data = openplot.open_png_bytes(obj)
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert Image.open(io.BytesIO(data)).size == (800, 533)


def test_drawn_on_a_given_axes():
    fig = Figure(figsize=(6, 4))
    ax = fig.add_subplot()
    drawn = openplot.plot_open_area(ag.area(ag.Sphere(10), at=(15, 10), on=walled_map(), rules="5e"), ax, legend=True)
    assert drawn.ax is ax and tuple(fig.get_size_inches()) == (6.0, 4.0)
    assert ax.get_xlim() == (0.0, 60.0) and ax.get_ylim() == (40.0, 0.0)


def test_refusals_name_what_was_given():
    square = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 10), rules="5e")
    with pytest.raises(InvalidValueError, match="plot_open_area draws what aoegrid.area gives on a Gridless map"):
        openplot.plot_open_area(square)
    with pytest.raises(InvalidValueError, match=r"plot_open_map draws on an aoegrid.Gridless .*got Grid"):
        openplot.plot_open_map(ag.BattleMap(ag.Grid(4, 4)))
    with pytest.raises(InvalidValueError, match="plot_open_map draws an aoegrid.BattleMap, got 3"):
        openplot.plot_open_map(3)
    a = ag.area(ag.Sphere(10), at=(15, 10), on=TABLE, rules="5e")
    with pytest.raises(GridMismatchError, match="the area is on Gridless"):
        openplot.plot_open_area(a, on=ag.BattleMap(INCHES))
    with pytest.raises(InvalidValueError, match="compare_open needs at least one panel"):
        openplot.compare_open([])
    with pytest.raises(GridMismatchError, match="compare_open draws areas on one table"):
        openplot.compare_open([("a", a), ("b", ag.area(ag.Sphere(2), at=(5, 5), on=INCHES, rules="sw"))])
    with pytest.raises(InvalidValueError, match="tokens on the open table are aoegrid.OpenToken, got Token"):
        openplot.plot_open_tokens([ag.Token(1, 1)], TABLE)


def test_an_open_area_draws_itself():
    table = ag.BattleMap(ag.Gridless(30, 20), walls=[ag.Wall((15, 0), (15, 12))], tokens=[ag.OpenToken(10, 10, name="orc")])
    a = ag.area(ag.Sphere(10), at=(12, 8), on=table, rules="5e")
    drawn = a.plot(legend=True)
    assert drawn.ax.get_xlim() == (0.0, 30.0) and a.grid is table.grid
    assert a._repr_png_()[:4] == table._repr_png_()[:4] == b"\x89PNG" and table._repr_html_() is None
