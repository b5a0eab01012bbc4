"""Foundry VTT hex scenes (aoegrid.io.foundry): grid, padding, legacy hexes, walls, token footprints, errors.

The reference functions below are Foundry's own formulas, written out independently of aoegrid's
reader (foundryvtt/common/grid/hexagonal.mjs of Foundry 13.351, public mirror umplacable/foundryVTT,
052bb61d03fe2dbabf628ec120a285bb99cf3f98): ``getCenterPoint`` of an offset, ``calculateDimensions``'
padding, and ``_calculatePreV10Dimensions`` for legacy hexes.
"""

import json
import math
from pathlib import Path

import pytest

import aoegrid as ag
from aoegrid.geometry.gridless import Gridless
from aoegrid.io import MapFileError, load_map, read_foundry
from aoegrid.io.foundry import foundry_token_hexes, hex_scene

SQRT3 = math.sqrt(3)
W, H, SIZE = 1000, 800, 100


def foundry_center(t: int, size: float, i: int, j: int) -> tuple[float, float]:
    """``HexagonalGrid#getCenterPoint({i, j})``: Foundry's hex (row i, column j) centre in canvas pixels."""
    even = t in (3, 5)
    if t in (4, 5):
        x = (2 / SQRT3) * ((0.75 * j + 0.5) * size)
        y = (i + (0 if even == ((j + 1) % 2 == 0) else 0.5)) * size
    else:
        y = (2 / SQRT3) * ((0.75 * i + 0.5) * size)
        x = (j + (0 if even == ((i + 1) % 2 == 0) else 0.5)) * size
    return x, y


def foundry_scene_corner(t: int, size: float, width: float, height: float, padding: float) -> tuple[float, float]:
    """``HexagonalGrid#calculateDimensions``' ``x``, ``y``: where the scene's rectangle starts on the canvas."""
    columns = t in (4, 5)
    size_x = 2 * size / SQRT3 if columns else size
    size_y = size if columns else 2 * size / SQRT3
    stride_x = 0.75 * size_x if columns else size_x
    stride_y = size_y if columns else 0.75 * size_y
    if not padding:
        return 0.0, 0.0
    x = math.ceil((padding * width) * (1 / stride_x)) * stride_x
    y = math.ceil((padding * height) * (1 / stride_y)) * stride_y
    if math.floor((x / stride_x if columns else y / stride_y) + 0.5) % 2:
        if columns:
            y += size_y / 2
        else:
            x += size_x / 2
    return x, y


def foundry_counts(t: int, size: float, width: float, height: float) -> tuple[int, int]:
    """``calculateDimensions`` without padding: (columns, rows) of a scene's hexes."""
    columns = t in (4, 5)
    size_x = 2 * size / SQRT3 if columns else size
    size_y = size if columns else 2 * size / SQRT3
    stride_x = 0.75 * size_x if columns else size_x
    stride_y = size_y if columns else 0.75 * size_y
    cols = math.ceil(((width + (-size_x / 4 if columns else size_x / 2)) / stride_x) - 1e-6)
    rows = math.ceil(((height + (size_y / 2 if columns else -size_y / 4)) / stride_y) - 1e-6)
    return cols, rows


def hex_scene_doc(t: int = 2, **fields) -> dict:
    """A v10+ hex scene 1000 x 800 pixels, hexes 100 pixels flat to flat, padding 0.25."""
    return {"name": "hexes", "width": W, "height": H, "padding": 0.25,
            "grid": {"type": t, "size": SIZE, "distance": 5, "units": "ft"},
            "_stats": {"coreVersion": "13.351"}, "walls": [], **fields}


def write(path: Path, data: dict) -> Path:
    path.write_text(json.dumps(data))
    return path


# -- the grid -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("t", "shape", "orientation", "offset", "origin"),
    [
        # Odd-r: 3 rows of padding (3 x 86.6 px) is odd, so the padding along the rows is 3.5 hexes; the
        # first row's first hex is cut in half by the scene's edge (x 350), the map's left edge is 300.
        (2, (11, 9), "pointy", "odd", (300.0, 3 * 0.75 * 200 / SQRT3)),
        # Even-r: the same padding; the first hex is whole at 350, the second row sticks out to 300.
        (3, (11, 9), "pointy", "even", (300.0, 3 * 0.75 * 200 / SQRT3)),
        # Odd-q: 3 columns of padding; 2 hexes down plus half: the top hex is cut by y 250.
        (4, (12, 9), "flat", "odd", (3 * 0.75 * 200 / SQRT3, 200.0)),
        (5, (12, 9), "flat", "even", (3 * 0.75 * 200 / SQRT3, 200.0)),
    ],
)
def test_each_hex_type_reads_as_its_hex_grid(tmp_path, t, shape, orientation, offset, origin):
    m = read_foundry(write(tmp_path / "hexes.json", hex_scene_doc(t)))
    g = m.grid
    assert isinstance(g, ag.HexGrid)
    assert (g.width, g.height, g.orientation.value, g.offset.value, g.foundry_type) == (*shape, orientation, offset, t)
    assert (g.size, g.units) == (5.0, "ft")
    assert m.info.pixels_per_square == 100.0
    assert m.info.offset == pytest.approx(origin)
    assert m.info.format == "foundry v10"
    assert m.info.notes == ()


@pytest.mark.parametrize("t", [2, 3, 4, 5])
@pytest.mark.parametrize(("size", "width", "height", "padding"),
                         [(100, 1000, 800, 0.25), (140, 2100, 1330, 0.1), (75, 640, 900, 0.33), (100, 1000, 800, 0),
                          (50, 1234, 567, 0.5), (100, 150, 90, 0.25)])
def test_map_hexes_are_foundrys_hexes(t, size, width, height, padding):
    h = hex_scene(t, size, width, height, padding)
    g = h.grid
    # Foundry's counts for the scene, and the scene's type inside its rectangle.
    cols, rows = foundry_counts(t, size, width, height)
    assert (g.width, g.height) == (cols, rows)
    assert g.foundry_type == t
    # Every map hex's centre is the centre of the Foundry hex it says it is.
    for row in range(g.height):
        for col in range(g.width):
            i, j = h.from_hex(col, row)
            assert h.to_pixels(*g.center(col, row)) == pytest.approx(foundry_center(t, size, i, j))
            assert h.to_hex(i, j) == (col, row)
    # The scene's top-left hex: cut in half by its edge in the odd types, whole in the even ones.
    x0, y0 = foundry_scene_corner(t, size, width, height, padding)
    cx, cy = h.to_pixels(*g.center(0, 0))
    across = size / SQRT3  # half a hex corner to corner
    if t in (2, 3):
        assert (cx, cy) == pytest.approx((x0 + (size / 2 if t == 3 else 0), y0 + across))
    else:
        assert (cx, cy) == pytest.approx((x0 + across, y0 + (size / 2 if t == 5 else 0)))
    # The map's hexes cover the scene's rectangle but for the zigzags of its first and last rows (columns),
    # as Foundry counts them: points a quarter hex (corner to corner) inside those edges are on the map.
    inset = size / (2 * SQRT3) + 1e-6
    for fx in (0.001, 0.25, 0.5, 0.75, 0.999):
        for fy in (0.001, 0.5, 0.999):
            px, py = x0 + fx * width, y0 + fy * height
            if t in (2, 3):
                py = min(max(py, y0 + inset), y0 + height - inset)
            else:
                px = min(max(px, x0 + inset), x0 + width - inset)
            col, row = g.hex_at(*h.to_map(px, py))
            assert g.contains(col, row)


def test_pixels_and_map_points_convert_both_ways(tmp_path):
    h = hex_scene(2, 100, 1000, 800, 0.25)
    info = read_foundry(write(tmp_path / "hexes.json", hex_scene_doc(2))).info
    # MapInfo's convention, as for squares: pixel = map point * pixels_per_square + offset.
    assert (3.25 * info.pixels_per_square + info.offset[0], 1.5 * info.pixels_per_square + info.offset[1]) == \
        pytest.approx(h.to_pixels(3.25, 1.5))
    assert h.to_map(*h.to_pixels(3.25, 1.5)) == pytest.approx((3.25, 1.5))
    assert h.to_pixels(0, 0) == pytest.approx(h.origin)
    assert h.to_pixels(1, 0) == pytest.approx((h.origin[0] + 100, h.origin[1]))


def test_hex_scene_refuses_a_square_type():
    with pytest.raises(ag.InvalidValueError, match=r"grid_type must be one of 2, 3, 4, 5 \(hex grids\), got 1"):
        hex_scene(1, 100, 1000, 800)


# -- legacy hexes ---------------------------------------------------------------------------


def test_legacy_hexes_are_sized_corner_to_corner_and_padded_by_whole_sizes(tmp_path):
    data = hex_scene_doc(2, flags={"core": {"legacyHex": True}})
    m = read_foundry(write(tmp_path / "old-hexes.json", data))
    # grid.size 100 is the hexes' corner-to-corner size: 86.6 px flat to flat.
    assert m.info.pixels_per_square == pytest.approx(50 * SQRT3)
    assert m.info.notes[0].startswith("legacy hex scene (flags.core.legacyHex")
    # _calculatePreV10Dimensions: padding ceil(0.25 * 1000 / 100) * 100 = 300 across, 200 down.
    x0, y0 = 300, 200
    h = hex_scene(2, 100, 1000, 800, 0.25, legacy=True)
    assert (m.grid.width, m.grid.height, m.grid.layout) == (h.grid.width, h.grid.height, h.grid.layout)
    assert (h.grid.width, h.grid.height, h.grid.layout) == (13, 12, "odd-r")
    # Rows 75 px apart from the canvas top: row 2 (150..250) is the first reaching below y 200,
    # row 12 (900..1000) the last reaching above y 1000; an even first row keeps odd-r.
    assert h.first == 2 and h.from_hex(0, 0)[0] == 2
    size = 50 * SQRT3
    for row in range(h.grid.height):
        for col in range(h.grid.width):
            i, j = h.from_hex(col, row)
            assert h.to_pixels(*h.grid.center(col, row)) == pytest.approx(foundry_center(2, size, i, j))
    for fx in (0.001, 0.5, 0.999):
        for fy in (0.001, 0.5, 0.999):
            assert h.grid.contains(*h.grid.hex_at(*h.to_map(x0 + fx * 1000, y0 + fy * 800)))


@pytest.mark.parametrize(("t", "shape", "origin"), [
    (2, (13, 12), (2.5 * 50 * SQRT3, 225.0)),
    (4, (15, 11), (225.0, 2.5 * 50 * SQRT3)),
])
def test_legacy_hexes_starting_on_an_odd_row_make_the_even_layout(t, shape, origin):
    # Padding 0.3: 300 px each way. Rows of 100 px hexes 75 apart: row 3 (225..325) is the first reaching
    # below 300; it is shoved (odd-r), and its first hex reaching into the scene (centre 303.1) lies right of
    # row 4's (259.8): inside the scene the shoved rows are the even ones.
    h = hex_scene(t, 100, 1000, 800, 0.3, legacy=True)
    assert (h.grid.width, h.grid.height, h.grid.offset.value, h.first) == (*shape, "even", 3)
    assert h.origin == pytest.approx(origin)
    for row in range(h.grid.height):
        for col in range(h.grid.width):
            i, j = h.from_hex(col, row)
            assert h.to_pixels(*h.grid.center(col, row)) == pytest.approx(foundry_center(t, 50 * SQRT3, i, j))


def test_a_pre_v10_hex_scene_is_legacy(tmp_path):
    data = {"width": 500, "height": 400, "padding": 0.25, "grid": 100, "gridType": 4, "gridDistance": 5,
            "gridUnits": "ft", "walls": []}
    m = read_foundry(write(tmp_path / "old.json", data))
    assert m.info.format == "foundry 0.7-v9"
    assert m.info.pixels_per_square == pytest.approx(50 * SQRT3)
    assert m.grid.orientation.value == "flat"
    h = hex_scene(4, 100, 500, 400, 0.25, legacy=True)
    assert (m.grid.width, m.grid.height) == (h.grid.width, h.grid.height)
    for col in range(h.grid.width):
        i, j = h.from_hex(col, 0)
        assert h.to_pixels(*h.grid.center(col, 0)) == pytest.approx(foundry_center(4, 50 * SQRT3, i, j))


# -- walls ----------------------------------------------------------------------------------


def test_walls_are_read_in_hex_widths_from_the_map_origin(tmp_path):
    # Odd-r: map (0, 0) is pixel (300, 259.81); a hex is 100 px wide.
    walls = [{"c": [500, 400, 900, 400], "move": 20, "sight": 20},
             {"c": [300, 300, 300, 900], "move": 20, "sight": 20, "door": 1, "ds": 1}]
    m = read_foundry(write(tmp_path / "walls.json", hex_scene_doc(2, walls=walls)))
    top = 3 * 0.75 * 200 / SQRT3
    assert [(*w.start, *w.end) for w in m.walls] == [
        pytest.approx((2.0, (400 - top) / 100, 6.0, (400 - top) / 100)),
        pytest.approx((0.0, (300 - top) / 100, 0.0, (900 - top) / 100)),
    ]
    assert m.walls[1].kind.value == "door" and m.walls[1].open


def test_walls_on_a_flat_hex_scene(tmp_path):
    walls = [{"c": [259.8076211353316, 200, 259.8076211353316 + 173.20508075688772, 400]}]
    m = read_foundry(write(tmp_path / "walls.json", hex_scene_doc(5, walls=walls)))
    assert (*m.walls[0].start, *m.walls[0].end) == pytest.approx((0.0, 0.0, SQRT3, 2.0))


def test_regions_on_a_hex_scene_are_skipped_with_a_note(tmp_path):
    regions = [{"name": "mud", "shapes": [], "behaviors": []}]
    m = read_foundry(write(tmp_path / "regions.json", hex_scene_doc(2, regions=regions)))
    assert not m.terrain.any()
    assert m.info.notes == ("skipped 1 region: terrain is read on square grids only",)


# -- tokens ---------------------------------------------------------------------------------

#: Foundry's shapes' anchors (BaseToken.#getHexagonalShape): the fraction of a hex from the token's top-left
#: pixel to the centre of its top-left hex, for the (width, shape) used below.
ANCHORS = {(1, 4): (0.5, 0.5), (2, 1): (0.0, 0.5), (3, 0): (0.0, 0.5), (3, 1): (0.0, 0.5), (4, 1): (0.5, 0.5),
           (2, 4): (0.5, 0.5), (2, 0): (0.5, 0.5), (3, 4): (0.5, 0.5)}


def token_at(t: int, i: int, j: int, n: int, shape: int, name: str, **fields) -> dict:
    """A token n hexes across whose top-left hex is Foundry's hex (i, j), snapped as Foundry snaps it.

    The top-left hex is the one under the shape's anchor: the hex itself for one hex; for an ellipse 2 two
    hexes across (anchor x 0), the hex left of its top hex (above its left hex on flat-top hexes).
    """
    cx, cy = foundry_center(t, SIZE, i, j)
    ax, ay = ANCHORS[(n, shape)]
    size_x, size_y = (2 * SIZE / SQRT3, SIZE) if t in (4, 5) else (SIZE, 2 * SIZE / SQRT3)
    if t in (4, 5):
        ax, ay = ay, ax
    return {"name": name, "x": round(cx - ax * size_x), "y": round(cy - ay * size_y), "width": n, "height": n,
            "shape": shape, "disposition": -1, **fields}


def test_tokens_stand_on_the_hexes_foundry_shows(tmp_path):
    h = hex_scene(2, SIZE, W, H, 0.25)
    tokens = [
        token_at(2, *h.from_hex(2, 2), 1, 4, "Orc"),
        # Ellipse 2, two across, top-left hex (5, 2): its top hex (6, 2) and the two below it; aoegrid's size 2.
        token_at(2, *h.from_hex(5, 2), 2, 1, "Ogre"),
        # Ellipse 1, three across: a hex and its ring, 2-3-2 hexes; the top-left hex (2, 4) is left of the top row.
        token_at(2, *h.from_hex(2, 4), 3, 0, "Troll"),
        # Ellipse 2, four across: 2-3-4-3 hexes, aoegrid's 12.
        token_at(2, *h.from_hex(6, 4), 4, 1, "Giant"),
    ]
    m = read_foundry(write(tmp_path / "tokens.json", hex_scene_doc(2, tokens=tokens)))
    got = [(t.name, t.x, t.y, t.footprint) for t in m.tokens]
    assert got == [("Orc", 2, 2, (1, 1)), ("Ogre", 6, 2, (2, 2)), ("Troll", 3, 5, (3, 3)), ("Giant", 7, 5, (4, 4))]
    assert m.info.notes == ()
    fills = {t.name: m.grid.footprint(t.x, t.y, t.footprint[0]) for t in m.tokens}
    assert fills["Ogre"] == [(6, 2), (5, 3), (6, 3)]
    assert fills["Troll"] == [(3, 4), (4, 4), (2, 5), (3, 5), (4, 5), (3, 6), (4, 6)]
    assert len(fills["Giant"]) == 12


@pytest.mark.parametrize(("t", "col", "row", "shape", "hexes"), [
    # Ellipse 2: the top hex right of the top-left one, and the two below it.
    (2, 2, 2, 1, [(3, 2), (2, 3), (3, 3)]),        # odd-r, row 2 unshoved: below (3, 2) are (2, 3), (3, 3)
    (2, 2, 3, 1, [(3, 3), (3, 4), (4, 4)]),        # odd-r, row 3 shoved
    (3, 2, 2, 1, [(3, 2), (3, 3), (4, 3)]),        # even-r, row 2 shoved
    (2, 2, 2, 0, [(2, 2), (3, 2), (2, 3)]),        # ellipse 1: two hexes above one
    (2, 2, 2, 4, [(2, 2), (3, 2), (2, 3)]),        # rectangle 1 (V13's default): the same three
    (4, 2, 2, 1, [(3, 2), (2, 3), (3, 3)]),        # odd-q: hex (2, 3) below the top-left one, the two right of it
    (5, 2, 2, 1, [(2, 3), (3, 3), (3, 4)]),        # even-q, column 2 shoved
])
def test_two_hex_tokens_fill_foundrys_three_hexes(t, col, row, shape, hexes):
    h = hex_scene(t, SIZE, W, H, 0.25)
    doc = token_at(t, *h.from_hex(col, row), 2, shape, "Ogre")
    assert foundry_token_hexes(h, doc["x"], doc["y"], 2, 2, shape) == hexes


def test_a_three_hex_rectangle_fills_eight_hexes():
    # Rectangle 1, 3 x 3 (Foundry V13's default shape): rows of 3, 2 and 3 hexes.
    h = hex_scene(2, SIZE, W, H, 0.25)
    doc = token_at(2, *h.from_hex(2, 2), 3, 4, "Cart")
    assert foundry_token_hexes(h, doc["x"], doc["y"], 3, 3, 4) == [
        (2, 2), (3, 2), (4, 2), (2, 3), (3, 3), (2, 4), (3, 4), (4, 4)]


def test_tokens_foundry_shapes_differently_give_notes(tmp_path):
    h = hex_scene(2, SIZE, W, H, 0.25)
    tokens = [
        # Two hexes above one: no aoegrid footprint; the best ones share 2 of its 3 hexes, and their centres
        # lie as near its centre: the first in row order is taken.
        token_at(2, *h.from_hex(2, 2), 2, 0, "Ogre"),
        # V12's hexagonalShape is read as V13's shape.
        {**token_at(2, *h.from_hex(6, 2), 2, 1, "Bear"), "hexagonalShape": 1, "shape": None},
        token_at(2, *h.from_hex(2, 5), 3, 4, "Cart"),
    ]
    del tokens[1]["shape"]
    m = read_foundry(write(tmp_path / "tokens.json", hex_scene_doc(2, tokens=tokens)))
    assert [(t.name, t.x, t.y, t.footprint) for t in m.tokens] == [
        ("Ogre", 2, 2, (2, 2)), ("Bear", 7, 2, (2, 2)), ("Cart", 3, 6, (3, 3))]
    assert m.info.notes == (
        ("tokens[0] ('Ogre') fills hexes (2, 2) (3, 2) (2, 3) in Foundry (ELLIPSE_1): read as 2 hexes across on "
        "(2, 2), hexes (2, 2) (1, 3) (2, 3)"),
        ("tokens[2] ('Cart') fills hexes (2, 5) (3, 5) (4, 5) (3, 6) (4, 6) (2, 7) (3, 7) (4, 7) in Foundry "
        "(RECTANGLE_1): read as 3 hexes across on (3, 6), hexes (2, 5) (3, 5) (2, 6) (3, 6) (4, 6) (2, 7) (3, 7)"),
    )


def test_odd_hex_tokens_give_notes(tmp_path):
    h = hex_scene(2, SIZE, W, H, 0.25)
    x, y = token_at(2, *h.from_hex(4, 4), 1, 4, "x")["x"], token_at(2, *h.from_hex(4, 4), 1, 4, "x")["y"]
    tokens = [
        {"name": "Sprite", "x": x + 25, "y": y + 29, "width": 0.5, "height": 0.5},
        {"name": "Wagon", "x": x, "y": y, "width": 2, "height": 1},
        {"name": "Odd", "x": x, "y": y, "shape": 9},
        {"name": "Gone", "x": x - 2000, "y": y},
        {"name": "Edge", "x": h.origin[0] - 50, "y": y, "width": 3, "height": 3, "shape": 0},
    ]
    m = read_foundry(write(tmp_path / "tokens.json", hex_scene_doc(2, tokens=tokens)))
    assert [(t.name, t.x, t.y, t.footprint) for t in m.tokens] == [
        ("Sprite", 4, 4, (1, 1)), ("Wagon", 4, 4, (2, 2)), ("Odd", 4, 4, (1, 1))]
    notes = m.info.notes
    assert notes[0] == "tokens[0] ('Sprite') is 0.5 x 0.5 hexes: read as a creature 1 hex across"
    assert notes[1] == "tokens[1] ('Wagon') is 2 x 1 hexes: read as a creature 2 hexes across"
    assert notes[2].startswith("tokens[1] ('Wagon') fills hexes (4, 4) (5, 4) in Foundry (RECTANGLE_1)")
    assert notes[3] == ("tokens[2] ('Odd') shape must be one of 0 (ELLIPSE_1), 1 (ELLIPSE_2), 2 (TRAPEZOID_1), "
                        "3 (TRAPEZOID_2), 4 (RECTANGLE_1), 5 (RECTANGLE_2), got 9: read as 4 (RECTANGLE_1)")
    assert notes[4].startswith("tokens[3] ('Gone') on hex (-")
    assert notes[4].endswith("is not wholly on the 11 x 9 hex map: skipped")
    assert notes[5].endswith("is not wholly on the 11 x 9 hex map: skipped")
    assert len(notes) == 6


def test_a_hex_scene_is_an_area_map(tmp_path):
    walls = [{"c": [800, 200, 800, 1200], "move": 20, "sight": 20}]
    m = read_foundry(write(tmp_path / "hexes.json", hex_scene_doc(2, walls=walls)))
    assert m.size == pytest.approx(m.grid.extent)
    assert m.cell_size == 5.0
    assert load_map(tmp_path / "hexes.json").grid == m.grid


# -- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [7, -1, "2", 2.5, [2]])
def test_an_unknown_grid_type_names_the_value_and_the_valid_ones(tmp_path, value):
    data = hex_scene_doc(2)
    data["grid"]["type"] = value
    shown = {"2": '"2"', 2.5: "2.5", 7: "7", -1: "-1"}.get(value, r"\[2\]") if not isinstance(value, list) else r"\[2\]"
    with pytest.raises(MapFileError, match=r"scene\.json: grid\.type must be one of 0 \(gridless\), 1 \(square\), "
                                           r"2 \(hex odd-r\), 3 \(hex even-r\), 4 \(hex odd-q\), 5 \(hex even-q\), "
                                           r"got " + shown):
        read_foundry(write(tmp_path / "scene.json", data))


def test_a_hex_scene_too_large_is_refused(tmp_path):
    data = hex_scene_doc(2, width=10**9, height=10**9)
    with pytest.raises(MapFileError, match=r"scene\.json: width and height give a hex grid too large"):
        read_foundry(write(tmp_path / "scene.json", data))


# -- gridless scenes ------------------------------------------------------------------------


def test_a_gridless_scene_is_read_in_its_units(tmp_path):
    # 100 px to 5 ft; padding 0.25 is whole grid sizes (GridlessGrid#calculateDimensions): 300 and 200 px.
    walls = [{"c": [400, 300, 900, 300], "move": 20, "sight": 20}]
    tokens = [
        {"name": "Orc", "x": 500, "y": 400, "width": 1, "height": 1, "disposition": -1},
        {"name": "Ogre", "x": 700, "y": 500, "width": 2, "height": 2, "shape": 0, "elevation": 10},
        {"name": "Cart", "x": 350, "y": 650, "width": 2, "height": 1, "shape": 1},
        {"name": "Away", "x": 5000, "y": 400},
        {"name": "Edge", "x": 260, "y": 400},  # its centre on the map, its left half off it
    ]
    data = hex_scene_doc(0, walls=walls, tokens=tokens, regions=[{"name": "mud"}])
    m = read_foundry(write(tmp_path / "open.json", data))
    assert m.grid == Gridless(50, 40, units="ft")
    assert (m.info.pixels_per_square, m.info.offset) == (20.0, (300.0, 200.0))
    assert [(*w.start, *w.end) for w in m.walls] == [(5.0, 5.0, 30.0, 5.0)]
    got = [(t.name, t.x, t.y, t.footprint.value, t.half_extent(m.grid), t.elevation, sorted(t.tags)) for t in m.tokens]
    assert got == [
        ("Orc", 12.5, 12.5, "rect", (2.5, 2.5), 0.0, ["hostile"]),
        ("Ogre", 25.0, 20.0, "circle", (5.0, 5.0), 10.0, []),
        ("Cart", 7.5, 25.0, "rect", (5.0, 2.5), 0.0, []),
    ]
    assert m.info.notes == (
        "tokens[2] ('Cart') is an ellipse 2 x 1 grid units: read as its rectangle",
        "tokens[3] ('Away') centred at (237.5, 12.5) ft, 5 x 5 ft, is not wholly on the 50 x 40 ft map: skipped",
        "tokens[4] ('Edge') centred at (0.5, 12.5) ft, 5 x 5 ft, is not wholly on the 50 x 40 ft map: skipped",
        "skipped 1 region: terrain is read on square grids only",
    )


def test_a_gridless_scene_in_metres_keeps_a_grid_unit_as_a_creatures_space(tmp_path):
    data = hex_scene_doc(0, padding=0, grid={"type": 0, "size": 50, "distance": 1.5, "units": "m"})
    m = read_foundry(write(tmp_path / "open.json", data))
    assert m.grid == Gridless(30, 24, units="m", square=1.5)
    assert m.info.offset == (0.0, 0.0)
    assert m.info.pixels_per_square == pytest.approx(50 / 1.5)
