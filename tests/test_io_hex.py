"""Hex text maps (aoegrid.io.text): the layout, walls of wall hexes, creatures, round trips and errors."""

import math

import pytest

import aoegrid as ag
from aoegrid.board.walls import Channel
from aoegrid.io import MapFileError, load_map, read_text_map
from aoegrid.io.text import hex_text

RING = """\
hex: {layout}
. . . . . . .
 . # # # # . .
. # . a . # .
 . # # # # . .
. . . . . . b"""


@pytest.mark.parametrize("layout", ["pointy odd", "pointy even", "flat odd", "flat even"])
def test_hex_text_round_trips(layout):
    orientation, offset = layout.split()
    text = RING.format(layout=layout)
    if orientation == "flat":  # flat layouts indent nothing
        text = "\n".join(line.strip() for line in text.splitlines())
    elif offset == "even":  # the even rows are the shoved ones
        text = "\n".join([text.splitlines()[0]] + [line[1:] if line.startswith(" ") else " " + line
                                                   for line in text.splitlines()[1:]])
    m = read_text_map(text)
    assert (m.grid.width, m.grid.height, m.grid.orientation.value, m.grid.offset.value) == (7, 5, orientation, offset)
    assert [(t.name, t.x, t.y, t.footprint) for t in m.tokens] == [("a", 3, 2, (1, 1)), ("b", 6, 4, (1, 1))]
    assert hex_text(m) == text


def test_a_wall_hex_has_six_walls_on_its_edges():
    m = read_text_map("hex: pointy odd\n. . .\n . # .\n. . .")
    corners = m.grid.corners(1, 1).round(12)
    assert [(w.start, w.end) for w in m.walls] == [
        (tuple(corners[k]), tuple(corners[(k + 1) % 6])) for k in range(6)]
    assert {w.blocks for w in m.walls} == {frozenset({Channel.MOVEMENT, Channel.SIGHT, Channel.EFFECT})}


def test_wall_hexes_share_no_walls_and_meet_at_one_point():
    m = read_text_map("hex: flat even\n# #\n# #")
    # 4 hexes, 24 edges; the 5 edges between two wall hexes are not walls.
    assert len(m.walls) == 24 - 2 * 5
    ends = [p for w in m.walls for p in (w.start, w.end)]
    assert all(ends.count(p) == 2 for p in ends)  # a closed outline: each corner ends two walls


def test_a_ring_of_wall_hexes_walls_the_room_inside():
    m = read_text_map(RING.format(layout="pointy odd"))
    ring = {(1, 1), (2, 1), (3, 1), (4, 1), (1, 2), (5, 2), (1, 3), (2, 3), (3, 3), (4, 3)}
    # 10 hexes, 60 edges; 10 pairs of them are neighbours (3 in each full row, 2 down each side): 20 edges go.
    shared = sum(n in ring for c in ring for n in m.grid.neighbours(*c)) // 2
    assert shared == 10
    assert len(m.walls) == 6 * 10 - 2 * shared
    # The room inside is closed: a wall on each of the 14 edges about its 3 hexes (half a hex from a centre).
    centres = [m.grid.center(c, 2) for c in (2, 3, 4)]
    mids = [((w.start[0] + w.end[0]) / 2, (w.start[1] + w.end[1]) / 2) for w in m.walls]
    assert sum(any(math.isclose(math.dist(p, c), 0.5) for c in centres) for p in mids) == 14


def test_hex_text_from_a_file(tmp_path):
    path = tmp_path / "hexes.map"
    path.write_text("hex: flat odd\n. a\n# .\n")
    m = load_map(path)
    assert isinstance(m.grid, ag.HexGrid) and m.grid.layout == "odd-q"
    assert [(t.name, t.x, t.y) for t in m.tokens] == [("a", 1, 0)]
    assert m.info.format == "text"


@pytest.mark.parametrize(("text", "message"), [
    ("hex: pointy\n. .", r"<text>: 'hex: pointy': a hex map starts with 'hex: ORIENTATION OFFSET'"),
    ("hex: round odd\n. .", r"the orientation is pointy or flat and the offset odd or even, got 'round' and 'odd'"),
    ("hex: flat odd\n", r"<text>: the hex map has no rows"),
    ("hex: flat odd\n. .\n.", r"<text>: row 2 has 1 hexes but row 1 has 2"),
    ("hex: flat odd\n. ..", r"<text>: row 1, hex 2: '\.\.' is not one character"),
    ("hex: flat odd\n. +", r"<text>: row 1, hex 2: unknown character '\+'; on a hex map use #"),
    ("hex: flat odd\n. .\nheights: #=..5", r"<text>: row 2: hex maps have no heights or floor lines"),
])
def test_bad_hex_text_names_the_row_and_hex(text, message):
    with pytest.raises(MapFileError, match=message):
        read_text_map(text)


def test_hex_text_writes_hex_maps_with_one_letter_creatures():
    with pytest.raises(ag.InvalidTypeError, match=r"hex_text writes maps on an aoegrid.HexGrid, got a map on Grid"):
        hex_text(ag.BattleMap(ag.Grid(2, 2)))
    m = ag.BattleMap(ag.HexGrid(4, 4), tokens=[ag.Token(1, 1, name="Ogre")])
    with pytest.raises(ag.InvalidValueError, match=r"one hex across named by one letter, got Token\(x=1, y=1"):
        hex_text(m)
