"""Pictures on hex maps: what was drawn, where, in which colour; a few pixels of the rendered PNG."""

import io
import subprocess
import sys

import numpy as np
import pytest
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import Circle
from PIL import Image

import aoegrid as ag
from aoegrid.errors import GridMismatchError, InvalidValueError
from aoegrid.show import hexplot
from aoegrid.show.plotting import save


def by_label(artists, label):
    found = [a for a in artists if a.get_label() == label]
    assert found, f"nothing labelled {label!r} among {[a.get_label() for a in artists]}"
    return found[0]


def hexes_of(coll, grid):
    """The hexes whose outlines a PolyCollection holds, ``(col, row)`` sorted, checked against the grid's corners."""
    out = []
    for path in coll.get_paths():
        ring = path.vertices[:6]
        col, row = grid.hex_at(*ring.mean(axis=0))
        np.testing.assert_allclose(ring, grid.corners(col, row), atol=1e-12)
        out.append((col, row))
    return sorted(out)


GRID = ag.HexGrid(12, 9)
CORNER = GRID.corners(5, 4)[0]


def walled_map():
    """A wall down x = 7 and four creatures: the orc and goblin in the open, the kobold peeking past the wall's end."""
    return ag.BattleMap(GRID, walls=[ag.Wall((7.0, 0.5), (7.0, 5.5))],
                        tokens=[ag.Token(3, 3, name="orc"), ag.Token(8, 3, name="ogre", size="large"),
                                ag.Token(5, 6, name="goblin"), ag.Token(7, 0, name="kobold")])


def test_import_aoegrid_loads_no_matplotlib_and_hexplot_no_pyplot():
    code = ("import sys, aoegrid; a = sorted(m for m in sys.modules if m.startswith('matplotlib')); "
            "import aoegrid.show.hexplot; b = [m for m in sys.modules if m == 'matplotlib.pyplot']; print(a, b)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "[] []"


@pytest.mark.parametrize("orientation,offset", [("pointy", "odd"), ("pointy", "even"), ("flat", "odd"), ("flat", "even")])
def test_grid_is_one_hexagon_a_hex_on_axes_the_maps_extent(orientation, offset):
    g = ag.HexGrid(7, 5, orientation=orientation, offset=offset)
    drawn = hexplot.plot_hex_grid(g)
    (coll,) = drawn
    assert coll.get_label() == "grid" and len(coll.get_paths()) == 35
    assert hexes_of(coll, g) == [(c, r) for c in range(7) for r in range(5)]
    w, h = g.extent
    assert drawn.ax.get_xlim() == (0.0, w) and drawn.ax.get_ylim() == (h, 0.0)  # y grows down
    assert drawn.ax.get_aspect() == 1.0
    # A new Figure is the map at default_hex_scale pixels a hex width.
    scale = hexplot.default_hex_scale(g)
    assert tuple(drawn.figure.get_size_inches() * 100) == pytest.approx((w * scale, h * scale))


def test_area_on_a_bare_grid_tints_each_hex_and_outlines_their_union():
    g = ag.HexGrid(9, 7)
    a = ag.area(ag.Sphere(10), at=g.corners(4, 3)[0], on=g, rules="5e")
    fig = Figure()
    ax = fig.add_subplot()
    drawn = hexplot.plot_hex_area(a, ax, color="#00ff00")
    assert drawn.ax is ax and drawn.figure is fig
    assert [x.get_label() for x in drawn] == ["grid", "area (12 hexes)", "_area outline", "shape", "origin"]
    fill = by_label(drawn, "area (12 hexes)")
    assert isinstance(fill, PolyCollection) and hexes_of(fill, g) == sorted(a.hexes)
    assert tuple(fill.get_facecolor()[0]) == pytest.approx(to_rgba("#00ff00", 0.3))
    # The outline is one ring round the 12 hexes: each hex's sides less those shared with a covered neighbour.
    (ring,) = by_label(drawn, "_area outline").get_segments()
    sides = sum(6 - sum(n in a.hexes for n in g.neighbours(c, r)) for c, r in a.hexes)
    assert len(ring) - 1 == sides == 24
    np.testing.assert_allclose(ring[0], ring[-1])
    corners = {tuple(np.round(p, 9)) for c, r in a.hexes for p in g.corners(c, r)}
    assert all(tuple(np.round(p, 9)) in corners for p in ring)
    # The exact shape, dashed: a circle of 2 hex widths round the corner the sphere starts at.
    (circle,) = by_label(drawn, "shape").get_segments()
    radii = np.hypot(*(circle - a.origin).T)
    assert radii.min() == pytest.approx(2.0) and radii.max() == pytest.approx(2.0)
    origin = by_label(drawn, "origin")
    assert (origin.get_xdata()[0], origin.get_ydata()[0]) == pytest.approx(a.origin)


def test_walls_cover_badges_blocked_hexes_and_tokens_on_a_map():
    m = walled_map()
    a = ag.area(ag.Sphere(20), at=CORNER, on=m, rules="5e")
    drawn = hexplot.plot_hex_area(a, legend=True, title="fireball")
    labels = [x.get_label() for x in drawn]
    assert labels == [
        "grid", "wall", "area (42 hexes)", "_area outline", "partial cover", "three-quarters cover",
        "blocked (total cover)", "shape", "origin",
        "token orc (affected)", "name orc", "token ogre", "name ogre", "token goblin (affected)", "name goblin",
        "token kobold (affected)", "name kobold", "cover badge kobold", "title", "legend",
    ]
    assert hexes_of(by_label(drawn, "area (42 hexes)"), GRID) == sorted(a.hexes)
    # The hexes of the sphere the wall hides wholly: beyond it, none seen from the corner.
    blocked = by_label(drawn, "blocked (total cover)")
    assert hexes_of(blocked, GRID) == [(7, 1), (7, 2), (7, 3), (7, 4), (7, 5), (8, 2), (8, 3), (8, 4), (8, 5), (8, 6)]
    assert blocked.get_hatch() == ".."
    # Diamonds in the hex's upper-right corner, along its two sides: 0.24 hex widths for partial cover, 0.4125
    # for three-quarters (three quarters of the square badges' 0.32 and 0.55).
    for label, hex_, side in (("partial cover", (7, 6), 0.24), ("three-quarters cover", (7, 0), 0.4125)):
        (diamond,) = by_label(drawn, label).get_paths()
        corner, *others = diamond.vertices[:4]
        hexagon = GRID.corners(*hex_)
        np.testing.assert_allclose(corner, hexagon[1], atol=1e-12)
        assert [float(np.hypot(*(p - corner))) for p in others] == pytest.approx([side, side, side])
        # The sides lie along the hex's: towards its top corner and its lower-right one.
        for p, q in ((others[0], hexagon[0]), (others[2], hexagon[2])):
            np.testing.assert_allclose(p, corner + (q - corner) * side / np.hypot(*(q - corner)), atol=1e-12)
    assert [x.get_text() for x in drawn.ax.get_legend().get_texts()] == [
        "wall", "area (42 hexes)", "partial cover", "three-quarters cover", "blocked (total cover)", "shape", "origin",
    ]
    assert drawn.ax.get_title() == "fireball"


def test_token_discs_sit_on_their_footprint_centres_sized_to_it():
    m = walled_map()
    drawn = hexplot.plot_hex_map(m)
    discs = {x.get_label(): x for x in drawn if isinstance(x, Circle)}
    assert set(discs) == {"token orc", "token ogre", "token goblin", "token kobold"}
    for t in m.tokens:
        n = t.footprint[0]
        disc = discs[f"token {t.name}"]
        assert disc.center == pytest.approx(GRID.footprint_center(t.x, t.y, n))
        assert disc.radius == pytest.approx(0.4 * n)
    # The ogre is large: three hexes round its hex's bottom corner, the disc on that corner.
    assert discs["token ogre"].center == pytest.approx(tuple(GRID.corners(8, 3)[3]))
    name = by_label(drawn, "name ogre")
    assert name.get_position() == pytest.approx(discs["token ogre"].center) and name.get_text() == "ogre"


def test_affected_tokens_are_ringed_red_and_the_map_keeps_its_wall_styles():
    m = ag.BattleMap(GRID, walls=[ag.Wall((7.0, 0.5), (7.0, 3.0)), ag.Wall((7.0, 3.0), (7.0, 5.5), kind="door"),
                                  ag.Wall((2.0, 7.0), (4.0, 7.0), kind="door", open=True)],
                     tokens=[ag.Token(3, 3, name="orc"), ag.Token(10, 7, name="imp")])
    drawn = hexplot.plot_hex_area(ag.area(ag.Sphere(20), at=CORNER, on=m, rules="starfinder"))
    walls = {x.get_label(): x for x in drawn if isinstance(x, LineCollection) and x.get_label() in ag.show.plotting.WALL_STYLES}
    assert set(walls) == {"wall", "door", "open door"}
    assert walls["door"].get_segments()[0].tolist() == [[7.0, 3.0], [7.0, 5.5]]
    assert tuple(walls["door"].get_color()[0]) == pytest.approx(to_rgba(ag.show.plotting.WALL_STYLES["door"][0]))
    orc, imp = by_label(drawn, "token orc (affected)"), by_label(drawn, "token imp")
    assert tuple(orc.get_edgecolor()) == pytest.approx(to_rgba("#d62728"))
    assert tuple(imp.get_edgecolor()) == pytest.approx(to_rgba("#333333"))


def test_an_area_from_a_creature_outlines_its_hexes_as_the_origin():
    m = walled_map()
    ogre = m.tokens[1]
    a = ag.area(ag.Sphere(10), at=ogre, on=m, rules="starfinder")
    drawn = hexplot.plot_hex_area(a)
    origin = by_label(drawn, "origin")
    assert isinstance(origin, LineCollection)
    (ring,) = origin.get_segments()
    assert len(ring) - 1 == 12  # three hexes round a corner: 18 sides less 3 shared twice
    assert np.mean(ring[:-1], axis=0) == pytest.approx(GRID.footprint_center(8, 3, 2))


def test_hex_outline_of_separate_patches_and_holes():
    g = ag.HexGrid(9, 7, orientation="flat")
    mask = g.ring((4, 3), 1)
    mask[0, 0] = True
    rings = hexplot.hex_outline(g, mask)
    assert sorted(len(r) - 1 for r in rings) == [6, 6, 18]  # the lone hex, the ring's hole, its outside
    assert hexplot.hex_outline(g, np.zeros(g.shape, bool)) == []


def test_pixels_tinted_inside_the_area_white_outside():
    g = ag.HexGrid(9, 7)
    a = ag.area(ag.Sphere(10), at=g.corners(4, 3)[0], on=g, rules="5e")
    buf = io.BytesIO()
    fig = hexplot.plot_hex_area(a, scale=40).figure
    fig.savefig(buf, format="png")
    px = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB")).astype(int)
    assert px.shape[:2] == (round(g.extent[1] * 40), round(g.extent[0] * 40))

    def at(col, row):
        x, y = g.center(col, row)
        # A quarter hex below the centre: clear of the origin's cross.
        return px[round((y + 0.25) * 40), round(x * 40)]

    red, white = to_rgba("#d62728"), (1.0, 1.0, 1.0)
    tint = np.round(255 * (0.3 * np.array(red[:3]) + 0.7 * np.array(white)))
    assert (3, 3) in a and np.abs(at(3, 3) - tint).max() <= 2
    assert (0, 0) not in a and at(0, 0).tolist() == [255, 255, 255]


def test_compare_hex_panels_side_by_side_with_one_legend(tmp_path):
    m = walled_map()
    panels = [(r, ag.area(ag.Sphere(20), at=CORNER, on=m, rules=r)) for r in ("5e", "starfinder")]
    drawn = hexplot.compare_hex(panels, title="20-ft burst")
    titles = [x.get_text() for x in drawn if x.get_label() == "title"]
    assert titles == ["5e: 42 hexes", "starfinder: 40 hexes", "20-ft burst"]
    axes = drawn.figure.axes
    assert len(axes) == 2 and axes[0].get_position().x1 < axes[1].get_position().x0
    (key,) = drawn.figure.legends
    assert [t.get_text() for t in key.get_texts()] == [
        "wall", "area", "partial cover", "three-quarters cover", "blocked (total cover)", "shape", "origin",
    ]
    save(drawn, tmp_path / "cmp.png")
    assert (tmp_path / "cmp.png").read_bytes()[:4] == b"\x89PNG"


def test_png_bytes_of_a_map_and_of_an_area():
    m = walled_map()
    for obj in (m, ag.area(ag.Sphere(10), at=CORNER, on=m, rules="5e")):
        img = Image.open(io.BytesIO(hexplot.hex_png_bytes(obj, scale=30)))
        assert img.size == (round(GRID.extent[0] * 30), round(GRID.extent[1] * 30))


def test_refusals_name_what_was_given():
    square = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 10))
    with pytest.raises(InvalidValueError, match=r"plot_hex_area draws on an aoegrid.HexGrid .*got Grid\(width=10, height=10.*: aoegrid.show.plotting draws square"):
        hexplot.plot_hex_area(square)
    with pytest.raises(InvalidValueError, match=r"plot_hex_area draws what aoegrid.area gives on a HexGrid, got 'fireball'"):
        hexplot.plot_hex_area("fireball")
    with pytest.raises(InvalidValueError, match=r"plot_hex_map draws an aoegrid.BattleMap, got 3"):
        hexplot.plot_hex_map(3)
    with pytest.raises(InvalidValueError, match=r"plot_hex_map draws on an aoegrid.HexGrid"):
        hexplot.plot_hex_map(ag.BattleMap(ag.Grid(4, 4)))
    a = ag.area(ag.Sphere(10), at=CORNER, on=GRID, rules="5e")
    with pytest.raises(GridMismatchError, match=r"the area is on HexGrid\(12, 9.*the map on HexGrid\(5, 5"):
        hexplot.plot_hex_area(a, on=ag.BattleMap(ag.HexGrid(5, 5)))
    with pytest.raises(InvalidValueError, match="compare_hex needs at least one panel"):
        hexplot.compare_hex([])
    with pytest.raises(InvalidValueError, match=r"names must give one title a panel \(1\), got 2"):
        hexplot.compare_hex([("5e", a)], names=["a", "b"])


def test_area_and_map_plot_methods_draw_hexes():
    m = walled_map()
    a = ag.area(ag.Sphere(20), at=CORNER, on=m, rules="5e")
    drawn = a.plot(legend=True)
    assert len(by_label(drawn, "area (42 hexes)").get_paths()) == 42
    ax = m.plot(title="hexes")
    assert ax.get_title() == "hexes" and ax.get_xlim() == (0.0, GRID.extent[0])
    assert len(by_label(ax.collections, "grid").get_paths()) == 108
    assert a._repr_png_()[:4] == m._repr_png_()[:4] == b"\x89PNG" and m._repr_html_() is None
