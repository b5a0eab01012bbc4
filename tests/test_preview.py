"""Pictures drawn straight onto pixels (aoegrid.show.preview): what the pixels show, the layout, bad input."""

import io

import numpy as np
import pytest
from PIL import Image

import aoegrid as ag
from aoegrid.io import demo_map
from aoegrid.show import plotting, preview

SCALE = 20  # pixels a square in these tests
LEFT, TOP = 20, 10 + 45  # the first panel's top left corner without a title: margin, then the heading band


def pixels(picture):
    return np.asarray(picture).astype(int)


def at_square(x, y, dx=0.5, dy=0.5):
    """The pixel (row, column) at a point of square (x, y) of the first panel."""
    return TOP + int((y + dy) * SCALE), LEFT + int((x + dx) * SCALE)


def walled_room():
    walls = [ag.Wall((5, 0), (5, 4)), ag.Wall((5, 4), (5, 6), kind="door"), ag.Wall((5, 6), (5, 10))]
    return ag.BattleMap(ag.Grid(10, 10), walls=walls)


def test_covered_squares_are_tinted_red_and_walls_drawn_over_them():
    a = ag.area(ag.Sphere(10), at=(3, 5), on=walled_room())
    got = pixels(preview.panels([("starfinder", a)], scale=SCALE, legend=False))
    assert (2, 4) in a and (8, 1) not in a
    r, g, b = got[at_square(2, 4)]
    # The area's red (#d62728) at 0.3 over the white page: red well above green and blue.
    assert r > 230 and 170 < g < 210 and abs(g - b) < 8
    assert tuple(got[at_square(8, 1)]) == (255, 255, 255)
    # A wall is black, a door brown (#8b4513), both over the squares' tint and grid lines.
    wall = got[at_square(5, 1, dx=0.0)]
    door = got[at_square(5, 4.5, dx=0.0)]
    assert wall.max() < 60
    assert door[0] > door[1] + 40 > door[2] + 40 and door[0] < 200
    # Squares outlined in opaque red: the pixel on the edge between two covered squares.
    edge = got[at_square(2, 4, dx=0.0)]
    assert edge[0] > 180 and edge[1] < 90


def test_squares_behind_a_wall_are_shaded_and_dotted():
    m = ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall((10, 6), (10, 14))])
    a = ag.area(ag.Sphere(20), at=(12, 10), on=m)
    blocked = plotting._marks(a)[2]
    got = pixels(preview.panels([("starfinder", a)], scale=SCALE, legend=False))
    assert blocked.sum() >= 5
    for y, x in np.argwhere(blocked).tolist():
        square = got[TOP + y * SCALE + 2:TOP + (y + 1) * SCALE - 2, LEFT + x * SCALE + 2:LEFT + (x + 1) * SCALE - 2]
        brightness = square.max(axis=2)
        # Grey (#7f7f7f at 0.25 over white) between black dots, on the white page.
        assert (brightness < 60).sum() > 0 and (np.abs(brightness - 223) <= 3).mean() > 0.5


def test_cover_is_badged_in_each_square_s_corner():
    a = ag.area(ag.Cone(30, "E"), at=(6, 11), on=demo_map(), rules="sw5e")  # both grades of cover
    badged = plotting._marks(a)[1]
    got = pixels(preview.panels([("sw5e", a)], scale=SCALE, legend=False))
    for grade, in_cover in badged.items():
        _, size, face, _ = plotting.COVER_BADGES[grade]
        assert in_cover.any()
        for y, x in np.argwhere(in_cover).tolist():
            # Inside the badge in the square's top right corner: its face, white or black, over the map.
            inside = got[at_square(x, y, dx=1 - size / 3, dy=size / 3)]
            assert inside.min() > 240 if face == "#ffffff" else inside.max() < 30


def test_the_map_image_is_decoded_once_for_every_panel(monkeypatch):
    calls = []
    decoded = plotting._decoded
    monkeypatch.setattr(plotting, "_DECODED", {})
    monkeypatch.setattr(plotting, "_decoded", lambda *args: calls.append(args[1:]) or decoded(*args))
    cave = demo_map()
    inches = ag.BattleMap(ag.Grid(20, 20, units="in"), cave.walls, cave.tokens, cave.fog, cave.info)
    areas = [ag.area(ag.Sphere(15), at=(6, 11), on=cave), ag.area(ag.Cone(30, "E"), at=(6, 11), on=cave),
             ag.area(ag.Sphere(3), at=(6, 11), on=inches, rules="savage-worlds")]
    got = pixels(preview.panels([("a", a) for a in areas], scale=15, legend=False))
    assert calls == [(30 * 20, 30 * 20)]  # twice the panel's pixels, shrunk once, drawn three times
    # The cave's floor shows, not the white page: the image is under the squares.
    panel = got[TOP:TOP + 300, LEFT:LEFT + 300]
    assert (panel.max(axis=2) < 200).mean() > 0.5


def test_tokens_are_discs_ringed_when_reached():
    m = ag.BattleMap(ag.Grid(10, 10), tokens=[ag.Token(2, 5), ag.Token(8, 1)])
    a = ag.area(ag.Sphere(10), at=(3, 5), on=m)
    got = pixels(preview.panels([("x", a)], scale=SCALE, legend=False))
    # Both discs are wheat (#f5deb3) at their centre; the one the area reaches is ringed in red.
    for x, y in ((2, 5), (8, 1)):
        assert np.abs(got[at_square(x, y)] - (245, 222, 179)).max() <= 3
    reached_ring = got[at_square(2, 5, dx=0.5, dy=0.1)]
    missed_ring = got[at_square(8, 1, dx=0.5, dy=0.1)]
    assert reached_ring[0] > reached_ring[1] + 80 and missed_ring.max() < 120


def test_the_picture_s_size_follows_scale_and_columns():
    g = ag.Grid(10, 8)
    panels = [(name, ag.area(ag.Sphere(10), at=(5, 4), on=g, rules=name)) for name in ("starfinder", "pf2e", "sw5e")]
    row = preview.panels(panels, scale=10, legend=False)
    assert row.size == (3 * 100 + 4 * 20, 10 + 45 + 80 + 20)
    column = preview.panels(panels, columns=1, scale=25, legend=False)
    assert column.size == (250 + 2 * 20, 10 + 3 * (45 + 200) + 20)
    two = preview.panels(panels, columns=2, scale=25, legend=False, title="three bursts")
    assert two.size == (2 * 250 + 3 * 20, 50 + 2 * (45 + 200) + 20)
    # The default is compare's: 300 pixels across a panel, at least 8 a square.
    assert preview.panels(panels[:1], legend=False).size[0] == 300 + 2 * 20
    with_legend = preview.panels(panels, scale=10)
    assert with_legend.size[0] == row.size[0] and with_legend.size[1] > row.size[1] - 20


def test_headings_title_and_legend_are_written():
    g = ag.Grid(10, 10)
    a = ag.area(ag.Sphere(10), at=(5, 5), on=g)
    plain = pixels(preview.panels([("starfinder", a)], scale=SCALE, legend=False, names=[""]))
    named = pixels(preview.panels([("starfinder", a)], scale=SCALE, legend=False))
    band = (slice(10, TOP), slice(LEFT, LEFT + 10 * SCALE))
    assert (plain[band] == 255).all()  # an empty heading leaves its band white
    assert (named[band].max(axis=2) < 128).sum() > 30  # dark strokes of the heading's letters
    titled = pixels(preview.panels([("starfinder", a)], scale=SCALE, legend=False, title="a burst"))
    assert (titled[:50].max(axis=2) < 128).sum() > 30
    keyed = pixels(preview.panels([("starfinder", a)], scale=SCALE))
    below = keyed[TOP + 10 * SCALE:]
    # The legend's swatch of a covered square: the area's red over white.
    assert ((below[..., 0] > 230) & (below[..., 1] < 210) & (below[..., 1] > 160)).sum() > 20


@pytest.mark.parametrize(("call", "message"), [
    (lambda a: preview.panels([]), r"panels needs at least one panel"),
    (lambda a: preview.panels([("x", a)], scale=-2), r"scale must be greater than 0, got -2"),
    (lambda a: preview.panels([("x", a)], columns=0), r"columns must be at least 1, got 0"),
    (lambda a: preview.panels([("x", a)], names=["a", "b"]), r"2 names for 1 panels"),
    (lambda a: preview.panels([a]), r"each panel is \(rules or name, Area\), got <Area"),
    (lambda a: preview.panels([("x", a), ("y", ag.area(ag.Sphere(5), at=(1, 1), on=ag.Grid(4, 4)))]),
     r"grids of one size: 10x10 and 4x4"),
])
def test_bad_input_is_refused_naming_the_value(call, message):
    a = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 10))
    with pytest.raises(ag.InvalidValueError, match=message):
        call(a)


def test_a_picture_larger_than_memory_allows_is_refused(monkeypatch):
    a = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 10))
    monkeypatch.setattr(preview, "memory_budget", lambda: 10**6)
    with pytest.raises(ag.InvalidValueError, match=r"at scale=100 needs .* give a smaller scale"):
        preview.panels([("x", a)], scale=100)


def test_png_round_trips():
    a = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 10))
    picture = preview.panels([("x", a)], scale=SCALE)
    data = preview.png(picture)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    back = Image.open(io.BytesIO(data))
    assert back.size == picture.size and (np.asarray(back) == np.asarray(picture)).all()


def test_before_pillow_10_1_the_text_is_in_its_bitmap_face(monkeypatch):
    """Pillow's load_default took no size before 10.1: its one small bitmap face writes the text then."""
    from PIL import ImageFont

    def load_default(**size):
        if size:
            raise TypeError("load_default() got an unexpected keyword argument 'size'")
        return ImageFont.load_default_imagefont()

    monkeypatch.setattr(ImageFont, "load_default", load_default)
    preview._typeface.cache_clear()
    try:
        a = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 10))
        got = pixels(preview.panels([("starfinder", a)], scale=SCALE, title="a burst"))
    finally:
        preview._typeface.cache_clear()
    assert (got[:50].max(axis=2) < 128).sum() > 30  # the title, in dark strokes
    assert (got[50:95, LEFT:LEFT + 10 * SCALE].max(axis=2) < 128).sum() > 30  # the heading, above the panel at 95


def test_creatures_off_the_ground_are_badged_with_their_elevation():
    def picture(elevation):
        m = ag.BattleMap(ag.Grid(10, 10), tokens=[ag.Token(2, 5, size="large", elevation=elevation)])
        return pixels(preview.panels([("x", ag.area(ag.Sphere(5), at=(8, 1), on=m))], scale=SCALE, legend=False))

    ground, flying = picture(0), picture(10)
    changed = np.nonzero(np.abs(ground - flying).max(axis=2) > 40)
    # The badge is drawn at the foot of the disc (centre (3, 6), radius 0.8 squares), over no other square.
    rows, cols = changed
    assert rows.size > 20
    assert TOP + 6.2 * SCALE < rows.min() and rows.max() < TOP + 7.0 * SCALE
    assert LEFT + 2.2 * SCALE < cols.min() and cols.max() < LEFT + 3.8 * SCALE
    # Dark text on a white box.
    assert (flying[changed].max(axis=1) < 100).any() and (flying[changed].min(axis=1) > 240).any()
