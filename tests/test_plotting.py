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
from aoegrid.show import plotting


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
    fig = plotting.compare_presets(ag.Sphere(20), (8, 8), ag.Grid(16, 16)).figure
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
    with pytest.raises(ag.InvalidValueError, match=r"pictures are written as .png, .svg or .html, got 'x.gif'"):
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
        "import sys, aoegrid as ag, aoegrid.show.plotting as p; "
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


# --- score maps ------------------------------------------------------------


def score_scene():
    m = ag.BattleMap(ag.Grid(12, 8), walls=[ag.Wall((6, 0), (6, 4))], tokens=[
        ag.Token(8, 1, name="orc", tags={"enemy"}), ag.Token(9, 1, name="gob", tags={"enemy"}),
        ag.Token(8, 2, name="ogre", tags={"enemy"}), ag.Token(3, 3, name="elf", tags={"ally"})])
    wizard = ag.Token(1, 6, name="wiz", tags={"ally"})
    kw = {"caster": wizard, "range": 40, "on": m, "hit": "enemy", "avoid": "ally"}
    return m, wizard, kw


def centres(coll):
    return sorted((round(float(p.vertices[:4, 0].mean()), 9), round(float(p.vertices[:4, 1].mean()), 9)) for p in coll.get_paths())


def test_scores_on_intersections_best_outlined_and_a_colour_bar():
    m, wizard, kw = score_scene()
    scores = ag.placement_scores(ag.Sphere(10), **kw)
    best = ag.best_placements(ag.Sphere(10), **kw)[0]
    artists = plotting.plot_scores(scores, m, best=best, caster=wizard, label="enemies reached")
    heat = by_label(artists, "score")
    js, is_ = np.nonzero(np.isfinite(scores))
    # A small square centred on each intersection with a score, coloured by it.
    assert centres(heat) == sorted(zip(is_.astype(float).tolist(), js.astype(float).tolist()))
    assert np.ptp(heat.get_paths()[0].vertices[:4, 0]) == pytest.approx(0.6)
    assert sorted(heat.get_array().tolist()) == sorted(scores[js, is_].tolist())
    assert by_label(artists, "score").norm(3.0) > by_label(artists, "score").norm(0.0)
    # What has no score (illegal: out of range, behind the wall, on it; or reaching the elf) is dimmed, whole cells.
    dim = by_label(artists, "not legal or not acceptable")
    assert len(dim.get_paths()) == int(np.isnan(scores).sum())
    assert np.ptp(dim.get_paths()[0].vertices[:4, 0]) == pytest.approx(1.0)
    # The best placement: its squares' outline, its origin, the creatures it hits ringed.
    outline = by_label(artists, f"best placement ({len(best.area)} squares)")
    segs = {tuple(map(tuple, s.tolist())) for s in outline.get_segments()}
    inside = set(best.area.squares)
    expected = set()
    for x, y in inside:
        for (nx, ny), edge in (((x, y - 1), ((x, y), (x + 1, y))), ((x, y + 1), ((x, y + 1), (x + 1, y + 1))),
                               ((x - 1, y), ((x, y), (x, y + 1))), ((x + 1, y), ((x + 1, y), (x + 1, y + 1)))):
            if (nx, ny) not in inside:
                expected.add(edge)
    assert {tuple(sorted(s)) for s in segs} == {tuple(sorted(e)) for e in expected}
    origin = by_label(artists, "best origin")
    assert (origin.get_xdata().tolist(), origin.get_ydata().tolist()) == ([best.at[0]], [best.at[1]])
    assert {a.get_label() for a in artists if a.get_label().startswith("token")} == {
        "token orc (affected)", "token gob (affected)", "token ogre (affected)", "token elf"}
    caster = by_label(artists, "caster")
    assert (caster.get_x(), caster.get_y(), caster.get_width()) == (1, 6, 1)
    # The legend names the dimmed cells and leaves the scores to the colour bar, labelled.
    legend = by_label(artists, "legend")
    texts = [t.get_text() for t in legend.get_texts()]
    assert "not legal or not acceptable" in texts and "score" not in texts and "best origin" in texts
    bar = by_label(artists, "enemies reached")
    assert bar.get_ylabel() == "enemies reached" and [t for t in bar.get_yticks()] == [0, 1, 2, 3]


def test_a_best_placement_after_a_move_shows_the_path_walked_and_the_square_stood_on():
    m, wizard, kw = score_scene()
    kw["range"] = 20
    assert ag.best_placements(ag.Sphere(10), **kw)[0].score == 0.0   # nothing to hit from where it stands
    best = ag.best_placements(ag.Sphere(10), **kw, move=25)[0]
    assert (best.at, best.score, best.cost) == ((8, 2), 3.0, 15.0)
    scores = ag.placement_scores(ag.Sphere(10), **kw, move=25)
    artists = plotting.plot_scores(scores, m, best=best, caster=wizard, label="enemies reached")
    line = by_label(artists, "path walked (15 ft)")
    # Through the centres of the squares stepped on, from the caster's square to where it stands.
    assert line.get_xdata().tolist() == [1.5, 2.5, 3.5, 4.5] and line.get_ydata().tolist() == [6.5, 6.5, 6.5, 5.5]
    stand = by_label(artists, "stand")
    assert (stand.get_x(), stand.get_y(), stand.get_width()) == pytest.approx((4.12, 5.12, 0.76))
    assert tuple(stand.get_edgecolor()[:3]) == pytest.approx(to_rgba(plotting.PATH_COLOR)[:3])
    texts = [t.get_text() for t in by_label(artists, "legend").get_texts()]
    assert "path walked (15 ft)" in texts and "stand" in texts and texts.count("path walked (15 ft)") == 1
    still = plotting.plot_scores(ag.placement_scores(ag.Sphere(10), **kw), m, caster=wizard,
                                 best=ag.best_placements(ag.Sphere(10), **kw)[0])
    assert not any(a.get_label() == "stand" or a.get_label().startswith("path") for a in still)


def test_plot_path_of_a_bare_path_and_of_a_large_creature(tmp_path):
    m, _, _ = score_scene()
    big = ag.Token(0, 4, size="large", name="big")
    path = ag.reachable(big, 20, on=m).path(3, 5)
    assert path == [(0, 4), (1, 4), (2, 5), (3, 5)]
    drawn = plotting.plot_path(path, on=m, size=big.footprint, cost=15.0, legend=True, title="the big one walks")
    line = by_label(drawn, "path walked (15 ft)")
    assert line.get_xdata().tolist() == [1.0, 2.0, 3.0, 4.0] and line.get_ydata().tolist() == [5.0, 5.0, 6.0, 6.0]
    arrows = next(a for a in drawn if a.get_label() == "path walked (15 ft)" and a is not line)
    assert arrows.U.tolist() == [1.0, 1.0, 1.0] and arrows.V.tolist() == [0.0, 1.0, 0.0]  # one arrow a step
    stand = by_label(drawn, "stand")
    assert (stand.get_x(), stand.get_y(), stand.get_width(), stand.get_height()) == pytest.approx((3.12, 5.12, 1.76, 1.76))
    assert {"wall", "grid", "legend", "title"} <= {a.get_label() for a in drawn}   # the map underneath, on its own
    plotting.save(drawn, tmp_path / "path.png")
    assert (tmp_path / "path.png").read_bytes()[:4] == b"\x89PNG"
    bare = plotting.plot_path([(2, 2)], on=ag.Grid(5, 5))        # no move: only where it stands
    assert [a.get_label() for a in bare if a.get_label() != "grid"] == ["stand"]
    with pytest.raises(ag.InvalidValueError, match=r"plot_path draws a bare path on a map: pass on="):
        plotting.plot_path(path)
    with pytest.raises(ag.InvalidValueError, match=r"a path holds at least the square it starts on, got none"):
        plotting.plot_path([], on=m)
    _, _, kw = score_scene()
    still = ag.best_placements(ag.Sphere(10), **kw)[0]
    with pytest.raises(ag.InvalidValueError, match=r"this placement's caster does not move first"):
        plotting.plot_path(still)


def test_terrain_is_tinted_and_hatched_by_kind():
    m = ag.read_text_map("########\n#a.~~..#\n#..^%%.#\n#....b.#\n########")
    drawn = plotting.plot_map(m, legend=True)
    difficult = by_label(drawn, "difficult terrain")
    greater = by_label(drawn, "greater difficult terrain")
    impassable = by_label(drawn, "impassable")
    assert square_corners(difficult) == [(3, 1), (4, 1)] and square_corners(greater) == [(3, 2)]
    assert square_corners(impassable) == [(4, 2), (5, 2)]
    assert (difficult.get_hatch(), greater.get_hatch(), impassable.get_hatch()) == ("//", "xx", None)
    for coll, kind in ((difficult, ag.Terrain.DIFFICULT), (greater, ag.Terrain.GREATER_DIFFICULT),
                       (impassable, ag.Terrain.IMPASSABLE)):
        _, face, alpha, _, _ = plotting.TERRAIN_STYLES[kind]
        assert tuple(coll.get_facecolor()[0]) == pytest.approx(to_rgba(face, alpha))
        assert coll.get_zorder() < by_label(drawn, "wall").get_zorder()
    texts = [t.get_text() for t in by_label(drawn, "legend").get_texts()]
    assert {"difficult terrain", "greater difficult terrain", "impassable"} <= set(texts)
    # A map without terrain draws none, and neither does an area's picture on it.
    plain = plotting.plot_area(ag.area(ag.Sphere(10), at=(4, 4), on=walled_map()))
    assert not any("terrain" in a.get_label() or a.get_label() == "impassable" for a in plain)
    assert list(plotting.plot_terrain(walled_map())) == []
    on_terrain = plotting.plot_area(ag.area(ag.Sphere(5), at=(3, 2), on=m))
    assert square_corners(by_label(on_terrain, "impassable")) == [(4, 2), (5, 2)]


def test_scores_on_square_centres_fill_the_squares(tmp_path):
    m, _, kw = score_scene()
    scores = ag.placement_scores(ag.Sphere(10), **kw, rules="sw5e")[1::2, 1::2]   # the square centres
    assert scores.shape == (8, 12)
    fig = Figure()
    ax = fig.add_subplot()
    artists = plotting.plot_scores(scores, m, ax, legend=False)
    heat = by_label(artists, "score")
    js, is_ = np.nonzero(np.isfinite(scores))
    assert square_corners(heat) == sorted(zip(is_.tolist(), js.tolist()))
    assert not any(a.get_label() in ("legend", "caster", "best origin") for a in artists)
    assert len(fig.axes) == 2  # the map's and the colour bar's
    plotting.save(fig, tmp_path / "s.png")
    assert (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"


def test_scores_on_intersections_and_centres_are_a_checkerboard_of_half_squares():
    m, _, kw = score_scene()
    scores = ag.placement_scores(ag.Sphere(10), **kw, rules="sw5e")
    assert scores.shape == (17, 25) and np.isnan(scores[1::2, 0::2]).all() and np.isnan(scores[0::2, 1::2]).all()
    artists = plotting.plot_scores(scores, m, legend=False)
    heat, dim = by_label(artists, "score"), by_label(artists, "not legal or not acceptable")
    js, is_ = np.nonzero(np.isfinite(scores))
    # A half-square square on each point with a score, (i / 2, j / 2); edge middles drawn neither way.
    assert centres(heat) == sorted(zip((is_ / 2).tolist(), (js / 2).tolist()))
    assert np.ptp(heat.get_paths()[0].vertices[:4, 0]) == pytest.approx(0.5)
    assert len(heat.get_paths()) + len(dim.get_paths()) == 9 * 13 + 8 * 12
    assert np.ptp(dim.get_paths()[0].vertices[:4, 0]) == pytest.approx(0.5)


def test_scores_per_direction_are_wedges_round_the_caster():
    m, wizard, kw = score_scene()
    directions = ["E", "NE", "N", 200]
    scores = ag.placement_scores(ag.Cone(30), **kw, directions=directions)
    artists = plotting.plot_scores(scores, m, caster=wizard, directions=[0, 200, 270, 315])
    drawn = len(by_label(artists, "score").get_paths()) + len(by_label(artists, "not legal or not acceptable").get_paths())
    assert drawn == 4
    # Every wedge starts at the caster's centre.
    assert all(np.hypot(*(p.vertices - [1.5, 6.5]).T).min() < 1e-9 for p in by_label(artists, "score").get_paths())
    with pytest.raises(ag.InvalidValueError, match=r"scores per direction \(cones and lines\) are drawn around their caster: pass caster="):
        plotting.plot_scores(scores, m)
    with pytest.raises(ag.InvalidValueError, match=r"4 scores but 3 directions: give one direction per score"):
        plotting.plot_scores(scores, m, caster=wizard, directions=[0, 90, 180])


def test_default_directions_are_every_5_degrees_and_a_cone_s_best_marks_its_caster():
    m, wizard, kw = score_scene()
    scores = ag.placement_scores(ag.Cone(30), **kw)
    best = ag.best_placements(ag.Cone(30), **kw)[0]
    artists = plotting.plot_scores(scores, m, best=best, caster=wizard)
    assert len(scores) == 72
    mark = by_label(artists, "best origin")
    assert (mark.get_x(), mark.get_y(), mark.get_width(), mark.get_height()) == (1, 6, 1, 1)


def test_score_maps_refuse_what_fits_no_lattice():
    m, _, _ = score_scene()
    with pytest.raises(ag.GridMismatchError, match=r"scores of shape \(5, 5\) fit no lattice of this 12 x 8 map: "
                                                   r"\(9, 13\) over intersections, \(8, 12\) over square centres"):
        plotting.plot_scores(np.zeros((5, 5)), m)
    with pytest.raises(ag.InvalidValueError, match=r"scores must be an array of numbers"):
        plotting.plot_scores([["a"]], m)
    with pytest.raises(ag.InvalidValueError, match=r"plot_scores draws over an aoegrid.BattleMap, got Grid"):
        plotting.plot_scores(np.zeros((9, 13)), m.grid)
    # Nothing legal at all still draws: every cell dimmed.
    artists = plotting.plot_scores(np.full((9, 13), np.nan), m)
    assert by_label(artists, "score").get_paths() == []
    assert len(by_label(artists, "not legal or not acceptable").get_paths()) == 9 * 13
    # Scores that are not whole numbers get a continuous scale.
    artists = plotting.plot_scores(np.linspace(0, 1.5, 9 * 13).reshape(9, 13), m, legend=False)
    assert by_label(artists, "score").norm.vmax == pytest.approx(1.5)


# --- issue 14: pictures good to look at --------------------------------------


def cover_scene():
    tokens = [ag.Token(9, 9, name="orc"), ag.Token(12, 8, name="goblin archer"), ag.Token(14, 9, name="goblin 2"),
              ag.Token(7, 11, name="ally"), ag.Token(2, 2, name="a very long name indeed for a token")]
    return ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall((13, 6), (13, 11)), ag.Wall((10, 7), (11, 7))], tokens=tokens)


def test_squares_outlined_cover_badged_and_out_of_range_in_its_own_style():
    m = cover_scene()
    a = ag.area(ag.Sphere(20), at=(12, 12), on=m)
    drawn = plotting.plot_area(a, color="#00aa00")
    fill = by_label(drawn, f"area ({len(a)} squares)")
    # Every square outlined in the area's colour, opaque, over a light fill.
    assert fill.get_edgecolor()[0] == pytest.approx(to_rgba("#00aa00"))
    assert fill.get_facecolor()[0][3] < 0.5 and fill.get_linewidth()[0] > 0
    for grade, (label, size, _, _) in plotting.COVER_BADGES.items():
        count = int(((a.cover == grade) & a.mask).sum())
        if count:
            badges = by_label(drawn, label)
            # A triangle in each graded square's top-right corner, no hatching needed.
            assert len(badges.get_paths()) == count and not badges.get_hatch()
            v = badges.get_paths()[0].vertices[:3]
            assert np.ptp(v[:, 0]) == pytest.approx(size)
    assert any(x.get_label() == "partial cover" for x in drawn)
    clipped = ag.clip_to_range(a, ag.Token(2, 2), 60)
    drawn = plotting.plot_area(clipped, legend=True)
    far = by_label(drawn, "out of range")
    expected = sorted(set(a.squares) - set(clipped.squares))
    assert square_corners(far) == expected and far.get_linestyle()[0][1] is not None  # dashed
    blocked = square_corners(by_label(drawn, "blocked (total cover)"))
    assert not set(blocked) & set(expected)  # squares a range dropped are not drawn as behind walls
    assert "out of range" in [t.get_text() for t in by_label(drawn, "legend").get_texts()]


def test_tokens_full_names_cover_badges_and_rings():
    m = cover_scene()
    a = ag.area(ag.Sphere(20), at=(12, 12), on=m)
    drawn = plotting.plot_area(a, scale=48)
    names = {x.get_label()[5:]: x.get_text() for x in drawn if x.get_label().startswith("name ")}
    assert names["orc"] == "orc" and names["goblin archer"] == "goblin archer" and names["ally"] == "ally"
    long = names["a very long name indeed for a token"]
    assert long.endswith("\u2026") and len(long) >= 6  # shortened only because it cannot fit, never to three letters
    graded = {r.token.label: r.cover for r in a.tokens() if r.cover > 0}
    assert graded, "the scene must put a creature in cover"
    for label, grade in graded.items():
        badge = by_label(drawn, f"cover badge {label}")
        assert badge.get_text() == ("\u00bd" if grade == 1 else "\u00be")
        assert by_label(drawn, f"token {label} (affected)").get_edgecolor() == pytest.approx(to_rgba("#d62728"))
    assert not any(x.get_label() == "cover badge ally" for x in drawn)


def test_sizes_follow_scale_and_the_default_scale_reads_small_maps():
    a = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 12))
    small, big = plotting.plot_area(a, scale=24), plotting.plot_area(a, scale=48)
    assert by_label(big, "shape").get_linewidth() == pytest.approx(2 * by_label(small, "shape").get_linewidth())
    assert by_label(big, "origin").get_markersize() == pytest.approx(2 * by_label(small, "origin").get_markersize())
    assert by_label(big, "grid").get_linewidth()[0] == pytest.approx(2 * by_label(small, "grid").get_linewidth()[0])
    m = ag.BattleMap(ag.Grid(10, 12), tokens=[ag.Token(3, 3, name="orc")])
    t24, t48 = plotting.plot_map(m, scale=24), plotting.plot_map(m, scale=48)
    assert by_label(t48, "name orc").get_fontsize() > by_label(t24, "name orc").get_fontsize()
    assert plotting.default_scale(ag.Grid(10, 12)) == 80.0 and plotting.default_scale(ag.Grid(100, 100)) == 24.0
    fig = plotting.plot_area(a).figure
    assert fig.get_size_inches()[0] * fig.dpi >= 800


def test_ticks_on_whole_squares_and_the_legend_outside_the_map():
    a = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 12))
    fig = Figure()
    ax = fig.add_subplot()
    drawn = plotting.plot_area(a, ax, legend=True, title="burst")
    FigureCanvasAgg = pytest.importorskip("matplotlib.backends.backend_agg").FigureCanvasAgg
    FigureCanvasAgg(fig).draw()
    assert all(float(t).is_integer() for t in ax.get_xticks()) and all(float(t).is_integer() for t in ax.get_yticks())
    legend, axes_box = by_label(drawn, "legend").get_window_extent(), ax.get_window_extent()
    assert legend.x0 >= axes_box.x1  # right of the map, covering none of it
    assert ax.get_title() == "burst"
    # On a Figure made here the picture widens for the legend; the map keeps its pixels.
    drawn = plotting.plot_area(a, scale=30, legend=True, title="burst")
    fig, box = drawn.figure, drawn.ax.get_position()
    assert box.width * fig.get_size_inches()[0] * fig.dpi == pytest.approx(300)
    assert box.height * fig.get_size_inches()[1] * fig.dpi == pytest.approx(360)
    assert by_label(drawn, "legend").get_window_extent(FigureCanvasAgg(fig).get_renderer()).x0 >= box.x1 * fig.bbox.width - 1


def test_one_return_convention_and_save_of_each_kind(tmp_path):
    m = walled_map()
    a = ag.area(ag.Sphere(20), at=(8, 8), on=m)
    b = ag.area(ag.Cone(30, "E"), at=(4, 4), on=m)
    results = [plotting.plot_area(a), plotting.plot_map(m), plotting.plot_areas([a, b]),
               plotting.compare_presets(ag.Sphere(10), (5, 5), ag.Grid(10, 10))]
    for k, drawn in enumerate(results):
        assert isinstance(drawn, plotting.Drawing) and isinstance(drawn, list)
        assert drawn.figure is drawn.ax.get_figure(root=True) and all(hasattr(x, "get_label") for x in drawn)
        plotting.save(drawn, tmp_path / f"d{k}.png")
        assert drawn._repr_png_()[:4] == b"\x89PNG"
    fig = Figure()
    ax = fig.add_subplot()
    plain = list(plotting.plot_areas([a, b], ax))
    for k, obj in enumerate([plain, ax, fig, a, m]):
        plotting.save(obj, tmp_path / f"k{k}.png", legend=True, title="t")
        assert (tmp_path / f"k{k}.png").read_bytes()[:4] == b"\x89PNG"
    plotting.save(results[2], tmp_path / "d.svg")
    assert "<svg" in (tmp_path / "d.svg").read_text()[:1000]
    with pytest.raises(ag.InvalidValueError, match=r"save writes an Area, a BattleMap, a Figure, an Axes"):
        plotting.save([1, 2], tmp_path / "x.png")
    assert isinstance(a.plot(), type(ax)) and a.plot(ax) is ax and m.plot(ax, title="map").get_title() == "map"


def test_distinct_legend_entries_for_distinct_areas():
    g = ag.Grid(30, 30)
    cones = [ag.area(ag.Cone(15, "E"), at=(5, 5), on=g), ag.area(ag.Cone(15, "E"), at=(5, 20), on=g)]
    drawn = plotting.plot_areas(cones)
    texts = [t.get_text() for t in by_label(drawn, "legend").get_texts()]
    entries = [t for t in texts if "cone" in t]
    assert len(entries) == 2 and entries[0] != entries[1] and entries[0].endswith("at (5, 5)")


def test_html_has_a_tooltip_on_every_covered_square(tmp_path):
    m = cover_scene()
    a = ag.area(ag.Sphere(20), at=(12, 12), on=m)
    page = a._repr_html_()
    assert page.startswith("<svg") and "data:image/png;base64," in page
    squares = [s for s in page.split("<rect ")[1:] if 'class="token"' not in s]
    assert len(squares) == len(a)
    x, y = next((x, y) for x, y in a.squares if a.cover[y, x] == 1)
    frac = float(a.visible[y, x])
    assert f"<title>square ({x}, {y}): visible {frac:.3g}, cover: cover (partial), distance " in page
    assert "<title>goblin archer: space (12, 8) to (13, 9)</title>" in page
    assert "<title>" in m._repr_html_()
    plotting.save(a, tmp_path / "a.html")
    text = (tmp_path / "a.html").read_text()
    assert text.startswith("<!DOCTYPE html>") and text.count("<title>square (") == len(a)
    plotting.save(plotting.plot_areas([a]), tmp_path / "f.html")
    assert "<svg" in (tmp_path / "f.html").read_text()


def test_html_of_a_big_area_is_the_png_alone(monkeypatch):
    a = ag.area(ag.Sphere(20), at=(10, 10), on=ag.Grid(20, 20))
    monkeypatch.setattr(plotting, "MAX_TOOLTIPS", 10)
    page = a._repr_html_()
    assert page.startswith("<img") and "<title>" not in page


def uvtt_with_image(path, side, squares=10, fmt="PNG"):
    import base64
    import io
    import json

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (side, side), (200, 120, 40)).save(buf, format=fmt)
    doc = {"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": squares, "y": squares},
                                         "pixels_per_grid": side // squares},
           "line_of_sight": [], "portals": [], "lights": [], "image": base64.b64encode(buf.getvalue()).decode()}
    path.write_text(json.dumps(doc))
    return ag.load_map(path)


def test_a_map_image_is_shrunk_to_what_the_picture_needs(tmp_path):
    m = uvtt_with_image(tmp_path / "m.dd2vtt", 2560)
    img = by_label(plotting.plot_map(m, scale=24), "map image")
    assert max(img.get_array().shape[:2]) <= 2 * 240 * 2  # never the full 2560 pixels
    assert img.get_array()[0, 0, :3].tolist() == [200, 120, 40]
    webp = uvtt_with_image(tmp_path / "w.dd2vtt", 1000, fmt="WEBP")
    assert max(by_label(plotting.plot_map(webp, scale=10), "map image").get_array().shape[:2]) <= 400


def test_an_image_past_pillow_s_bomb_limit_is_judged_by_aoegrid_s_budget(tmp_path, monkeypatch):
    from PIL import Image

    m = uvtt_with_image(tmp_path / "m.dd2vtt", 400)
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)  # Pillow would call this image a bomb
    with __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("error")
        drawn = plotting.plot_map(m, scale=10)
    assert by_label(drawn, "map image").get_array().shape[:2] == (200, 200)
    assert Image.MAX_IMAGE_PIXELS == 1000  # Pillow's own setting is left as it was
    monkeypatch.setattr(plotting, "memory_budget", lambda: 100_000)
    with pytest.raises(ag.InvalidValueError, match=r"the map's image is 400 x 400 pixels .* draw the map without it"):
        plotting.plot_map(m)
    assert len(plotting.plot_map(m, image=False)) > 0


def test_the_demo_comparison_has_a_title_a_legend_and_the_counts():
    g = ag.Grid(12, 12)
    panels = [(name, ag.area(ag.Sphere(15), at=(6, 6), on=g, rules=name)) for name in ("starfinder", "sw5e")]
    drawn = plotting.compare(panels, columns=1, title="bursts")
    fig = drawn.figure
    assert fig.get_suptitle() == "bursts" and len(fig.axes) == 2
    assert [ax.get_title() for ax in fig.axes] == [f"{n}: {len(a)} squares" for n, a in panels]
    assert "area" in [t.get_text() for t in by_label(drawn, "legend").get_texts()]


def test_creatures_off_the_ground_are_badged_with_their_elevation():
    tokens = [ag.Token(2, 2, name="orc"), ag.Token(5, 4, size="large", name="wyvern", elevation=20, height=15),
              ag.Token(8, 8, name="mole", elevation=-5), ag.Token(1, 8, elevation=2.5)]
    m = ag.BattleMap(ag.Grid(12, 10), tokens=tokens)
    for drawn in (plotting.plot_map(m, legend=True), plotting.plot_area(ag.area(ag.Sphere(10), at=(6, 5), on=m))):
        badges = {x.get_label(): x for x in drawn if x.get_label().startswith("elevation ")}
        assert {k: (x.get_text(), x.get_position()) for k, x in badges.items()} == {
            "elevation wyvern": ("+20 ft", (6.0, 5.0 + 0.8 * 0.8)),  # at the foot of the disc (radius 0.8)
            "elevation mole": ("-5 ft", (8.5, 8.5 + 0.8 * 0.4)),
            "elevation token at (1, 8)": ("+2.5 ft", (1.5, 8.5 + 0.8 * 0.4)),
        }
    legend = plotting.plot_map(m, legend=True)[-1]
    assert not any(t.get_text().startswith("elevation") for t in legend.get_texts())


# --- heights: a slice, and a side view (issue 20) ---------------------------------


def test_plot_area_at_a_height_draws_the_slice():
    ball = ag.area(ag.Sphere(15), at=(4, 4), on=ag.Grid(8, 8))
    drawn = plotting.plot_area(ball, height=10)
    fill = by_label(drawn, "area at 10 ft (16 squares)")
    ys, xs = np.nonzero(ball.at(10))
    assert square_corners(fill) == sorted(zip(xs.tolist(), ys.tolist()))
    # The outline is the ball's slice: a circle sqrt(15^2 - 10^2) ft across, about its origin.
    ring = by_label(drawn, "shape").get_xy()
    assert np.allclose(np.hypot(ring[:, 0] - 4, ring[:, 1] - 4), np.sqrt(15 ** 2 - 10 ** 2) / 5)
    assert not [a for a in plotting.plot_area(ball, height=20) if a.get_label() == "shape"]  # above the ball
    assert by_label(plotting.plot_area(ball, height=0), "area at 0 ft (24 squares)")


def section_map():
    walls = [ag.Wall((9, 0), (9, 6), top=10), ag.Wall((11, 0), (11, 6), bottom=5, top=25), ag.Wall((2, 0), (2, 2))]
    tokens = [ag.Token(6, 3, name="bat", elevation=15), ag.Token(3, 3, name="orc"), ag.Token(5, 0, name="aside"),
              ag.Token(7, 3, name="hawk", elevation=40)]
    floors = [ag.Floor([(0, 0), (4, 0), (4, 6), (0, 6)], elevation=20)]
    return ag.BattleMap(ag.Grid(12, 6), walls=walls, tokens=tokens, floors=floors)


def test_a_section_shows_the_ball_walls_spans_floors_and_prisms():
    m = section_map()
    ball = ag.area(ag.Sphere(15), at=(5, 3), on=m, elevation=5)
    drawn = plotting.plot_section(ball, along=((0, 3.5), (12, 3.5)))
    assert drawn.ax.get_xlim() == (0.0, 60.0)  # across: feet along the cut
    # The exact cut: the plane runs half a square (2.5 ft) from the ball's centre.
    circle = by_label(drawn, "shape")
    assert isinstance(circle, Circle) and circle.center == (25.0, 5.0)
    assert circle.radius == pytest.approx(np.sqrt(15 ** 2 - 2.5 ** 2))
    # Walls crossing the cut: bars at 45 and 55 ft over their spans, clipped to the view; the one at x = 2 stops short.
    lo, hi = drawn.ax.get_ylim()
    bars = sorted(map(tuple, (np.asarray(s).ravel() for s in by_label(drawn, "wall").get_segments())))
    assert bars == [(45.0, lo, 45.0, 10.0), (55.0, 5.0, 55.0, 25.0)]
    # The floor over x 0..4 at 20 ft.
    (floor,) = by_label(drawn, "floor").get_segments()
    assert np.allclose(floor, [(0, 20), (20, 20)])
    # Creatures the cut crosses, as their prisms: the bat 15..20 ft up at 30..35 ft along, reached; the hawk not.
    bat, hawk = by_label(drawn, "creature bat"), by_label(drawn, "creature hawk")
    assert (bat.get_x(), bat.get_y(), bat.get_width(), bat.get_height()) == (30.0, 15.0, 5.0, 5.0)
    assert (hawk.get_y(), hawk.get_height()) == (40.0, 5.0) and hi > 45.0
    assert bat.get_facecolor() == to_rgba("#ff9896", 0.8) and hawk.get_facecolor() == to_rgba("#dddddd", 0.8)
    assert [r.token.name for r in ball.tokens([m.tokens[0], m.tokens[3]])] == ["bat"]
    assert not [a for a in drawn if a.get_label() == "creature aside"]  # its space is off the cut
    origin = by_label(drawn, "origin")
    assert (origin.get_xdata()[0], origin.get_ydata()[0]) == (25.0, 5.0)
    # The counted section: the squares the ball holds, over the heights their slices hold them.
    boxes = by_label(drawn, "section of the area").get_paths()
    top = max(p.vertices[:, 1].max() for p in boxes)
    assert 15.0 < top <= 20.0 + 1e-9 and min(p.vertices[:, 1].min() for p in boxes) < -5.0


def test_a_section_of_a_cylinder_and_a_cone_along_its_axis():
    m = ag.BattleMap(ag.Grid(12, 6))
    drop = ag.area(ag.Cylinder(10, 20), at=(5, 3), on=m, elevation=30)  # Starfinder: it drops from its circle
    rect = by_label(plotting.plot_section(drop, along="x"), "shape")
    assert (rect.get_x(), rect.get_y(), rect.get_width(), rect.get_height()) == (15.0, 10.0, 20.0, 20.0)
    up = ag.area(ag.Cone(30, "E", pitch=30), at=(2, 3), on=m)
    wedge = by_label(plotting.plot_section(up, along="x"), "shape")
    assert (wedge.center, wedge.r, wedge.theta1, wedge.theta2) == ((10.0, 0.0), 30.0, -15.0, 75.0)
    west = by_label(plotting.plot_section(ag.area(ag.Cone(30, "W"), at=(6, 3), on=m, rules="sw5e"), along="x"),
                    "shape")
    assert west.theta1 == pytest.approx(180 - np.degrees(np.arctan(0.5)))
    # Across the cone at its apex: aimed 30 degrees up, its sides 45 degrees round its axis meet that plane
    # only at the apex, no figure: only the counted section.
    assert not [a for a in plotting.plot_section(up, along="y") if a.get_label() == "shape"]


def test_a_section_of_a_pitched_cone_or_line_anywhere_is_its_solids_cut():
    from aoegrid.geometry.stencils import _Origin, pitched_mesh

    g = ag.Grid(21, 21)
    # A 30-ft 5e cone straight up from (10, 10), cut along x through its apex: a triangle of half-angle
    # atan(1/2), 30 ft tall, apex at 50 ft along.
    up = ag.area(ag.Cone(30, "E", pitch=90), at=(10, 10), on=g, rules="sw5e", elevation=10)
    tri = by_label(plotting.plot_section(up, along="x"), "shape").get_xy()[:-1]
    assert sorted(map(tuple, tri.round(9).tolist())) == [(35.0, 40.0), (50.0, 10.0), (65.0, 40.0)]
    # A cone aimed east 40 degrees up, cut along y 2 squares ahead of its apex, off its axis: an outline
    # within the solid (its own inequality: within atan(1/2) of the axis, at most its length along it).
    tilted = ag.area(ag.Cone(30, "E", pitch=40), at=(10, 10), on=g, rules="sw5e")
    drawn = plotting.plot_section(tilted, along=((12, 0), (12, 21)))
    outline = by_label(drawn, "shape").get_xy()[:-1] / 5.0  # squares: along the cut, height
    assert len(outline) > 20
    c, s = np.cos(np.radians(40)), np.sin(np.radians(40))
    v = np.column_stack([np.full(len(outline), 2.0), outline[:, 0] - 10.0, outline[:, 1]])
    along = v[:, 0] * c + v[:, 2] * s
    perp = np.linalg.norm(v - along[:, None] * np.array([c, 0.0, s]), axis=1)
    assert (along <= 6.0 + 1e-9).all() and (perp <= along / 2 + 1e-9).all()
    # Its widest point: at height q the plane's point (2, s, q) lies A = 2 cos + q sin along the axis and
    # R = q cos - 2 sin above it, inside while s^2 <= A^2 / 4 - R^2, widest where that peaks (the mesh is
    # inscribed: a little less).
    q = 5 * c * s / (2 * c * c - s * s / 2)
    widest = np.sqrt((2 * c + q * s) ** 2 / 4 - (q * c - 2 * s) ** 2)
    half_width = (outline[:, 0].max() - outline[:, 0].min()) / 2
    assert widest - 6e-4 <= half_width <= widest + 1e-12
    # A pitched line: its template's box, cut across: a 10-ft square tilted 30 degrees.
    line = ag.area(ag.Line(30, "E", width=10, pitch=30), at=(10, 10), on=g, rules="sw5e")
    cut = pitched_mesh(line.shape, _Origin(10.0, 10.0, 10.0, 10.0), line.rules, 5.0).section((0.0, 10.0), (1.0, 0.0))
    box = by_label(plotting.plot_section(line, along="x"), "shape").get_xy()[:-1]
    assert np.allclose(sorted(map(tuple, box)), sorted(map(tuple, cut * 5.0)))
    assert len(box) == 4


@pytest.mark.parametrize(
    ("along", "error", "match"),
    [
        ("z", ag.InvalidValueError, r'along must be "x", "y" \(through the origin\) or two \(x, y\) points'),
        (((1, 1), (1, 1)), ag.InvalidValueError, r"along's two points are the same"),
        (5, ag.InvalidValueError, r'along must be "x", "y"'),
        ((("a", 0), (1, 1)), ag.InvalidTypeError, r"along start x must be a number"),
    ],
)
def test_a_section_refuses_a_bad_cut(along, error, match):
    with pytest.raises(error, match=match):
        plotting.plot_section(ag.area(ag.Sphere(10), at=(3, 3), on=ag.Grid(6, 6)), along=along)
    with pytest.raises(ag.InvalidValueError, match="made by aoegrid.area"):
        plotting.plot_section(ag.area(ag.Sphere(10), at=(3, 3), on=ag.Grid(6, 6)) | ag.area(
            ag.Sphere(5), at=(1, 1), on=ag.Grid(6, 6)))
