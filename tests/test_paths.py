"""The spread path kernel (Dijkstra, aoegrid.board._paths) against a slow reference.

The reference is the Bellman-Ford relaxation spreads used before the kernel:
whole-window sweeps until nothing changes. It lives only here.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aoegrid.board.spread import _STEPS, path_distance
from aoegrid.geometry.options import Diagonals
from aoegrid.geometry.raster import Window

ALL_RULES = list(Diagonals)


def bellman_ford(start, parity, blocked, diagonals, limit=math.inf):
    """Shortest paths by relaxing every step of the window until nothing changes."""
    h, w = start.shape
    if diagonals in (Diagonals.ALTERNATING, Diagonals.ALTERNATING_2):
        first, second = (1.0, 2.0) if diagonals is Diagonals.ALTERNATING else (2.0, 1.0)
        starts = [np.where(parity == 0, start, np.inf), np.where(parity == 1, start, np.inf)]
        diag_moves = [(0, 1, first), (1, 0, second)]
    else:
        starts = [start.astype(float)]
        cost = {Diagonals.EQUIDISTANT: 1.0, Diagonals.APPROXIMATE: 1.5, Diagonals.EUCLIDEAN: math.sqrt(2.0)}
        diag_moves = [] if diagonals is Diagonals.MANHATTAN else [(0, 0, cost[diagonals])]
    layers = []
    for s0 in starts:
        pad = np.full((h + 2, w + 2), np.inf)
        pad[1:-1, 1:-1] = s0
        layers.append(pad)
    moves = [(bit, p, p, 1.0) for bit in range(4) for p in range(len(layers))]
    moves += [(bit, p, q, c) for bit in range(4, 8) for p, q, c in diag_moves]
    steps = []
    for bit, p, q, c in moves:
        dx, dy = _STEPS[bit]
        # Arriving at (x, y) by (dx, dy) leaves (x - dx, y - dy): barred where
        # that square's bit is set or it lies outside the window.
        barred = np.ones((h + 2, w + 2), dtype=bool)
        barred[1:-1, 1:-1] = (blocked >> bit) & 1 == 1
        pen = np.where(barred[1 - dy : h + 1 - dy, 1 - dx : w + 1 - dx], np.inf, 0.0) + c
        steps.append((layers[p], layers[q][1:-1, 1:-1], pen, 1 - dy, 1 - dx))
    while True:
        before = [layer.copy() for layer in layers]
        for src, dst, pen, y0, x0 in steps:
            np.minimum(dst, src[y0 : y0 + h, x0 : x0 + w] + pen, out=dst)
        if all(np.array_equal(a, b) for a, b in zip(before, layers)):
            out = np.minimum.reduce([layer[1:-1, 1:-1] for layer in layers])
            return np.where(out <= limit, out, np.inf)


@st.composite
def windows(draw):
    h, w = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.6]))
    blocked = np.packbits(rng.random((h, w, 8)) < density, axis=-1, bitorder="little")[..., 0]
    # Start costs as the far-corner counts give them: whole, half and
    # irrational (euclidean) squares, on a few squares.
    values = np.array([0.0, 1.0, 1.5, 2.0, 3.0, math.sqrt(2.0), 0.7071067811865476])
    start = np.where(rng.random((h, w)) < 0.15, rng.choice(values, (h, w)), np.inf)
    parity = rng.integers(0, 2, (h, w)).astype(np.int8)
    return start, parity, blocked


@settings(max_examples=300, deadline=None)
@given(windows(), st.sampled_from(ALL_RULES), st.sampled_from([math.inf, 0.0, 2.5, 4.0, 7.0]))
def test_kernel_equals_bellman_ford(case, diagonals, limit):
    start, parity, blocked = case
    h, w = start.shape
    got = path_distance(Window(3, 5, w, h), start, parity, blocked, diagonals, limit)
    want = bellman_ford(start, parity, blocked, diagonals, limit)
    assert np.array_equal(got, want)  # the same floats, inf in the same squares


@pytest.mark.parametrize("diagonals", ALL_RULES)
def test_open_field_from_one_corner(diagonals):
    start = np.full((4, 4), np.inf)
    start[0, 0] = 1.0
    got = path_distance(Window(0, 0, 4, 4), start, np.ones((4, 4), np.int8), None, diagonals)
    # The far corner (3, 3) is three diagonals from the start square.
    want = {
        Diagonals.ALTERNATING: 1.0 + 2 + 1 + 2,  # the start used one diagonal
        Diagonals.ALTERNATING_2: 1.0 + 1 + 2 + 1,
        Diagonals.EQUIDISTANT: 4.0,
        Diagonals.EUCLIDEAN: 1.0 + math.sqrt(2.0) + math.sqrt(2.0) + math.sqrt(2.0),  # summed step by step
        Diagonals.MANHATTAN: 7.0,
        Diagonals.APPROXIMATE: 5.5,
    }[diagonals]
    assert got[3, 3] == want


def test_a_wall_of_barred_steps_is_walked_round():
    # Column 1 bars every step out of it and into it from column 0 or 2,
    # except at the bottom row, entered only level or downward: the path
    # goes down, across and back up.
    h, w = 4, 3
    blocked = np.zeros((h, w), np.uint8)
    blocked[:3, 1] = 0xFF
    for bit, (dx, _) in enumerate(_STEPS):
        if dx == 1:
            blocked[:3, 0] |= 1 << bit
            blocked[3, 0] |= 1 << bit if _STEPS[bit][1] == -1 else 0
        if dx == -1:
            blocked[:3, 2] |= 1 << bit
            blocked[3, 2] |= 1 << bit if _STEPS[bit][1] == -1 else 0
    start = np.full((h, w), np.inf)
    start[0, 0] = 1.0
    got = path_distance(Window(0, 0, w, h), start, np.ones((h, w), np.int8), blocked, Diagonals.EQUIDISTANT)
    assert got[:, 0].tolist() == [1.0, 2.0, 3.0, 4.0]
    # Round the bottom: (1, 3) is 5, then a diagonal up to (2, 2) 6, (2, 0) 8.
    assert got[3, 1] == 5.0 and got[2, 2] == 6.0 and got[0, 2] == 8.0
    assert math.isinf(got[0, 1])  # column 1 above the bottom row cannot be entered


def test_limit_leaves_farther_squares_unreached():
    start = np.full((1, 6), np.inf)
    start[0, 0] = 0.5
    got = path_distance(Window(0, 0, 6, 1), start, np.zeros((1, 6), np.int8), None, Diagonals.EQUIDISTANT, 2.5)
    assert got.tolist() == [[0.5, 1.5, 2.5, math.inf, math.inf, math.inf]]


# --- step masks built by block (issue 11: first queries) -------------------------------


@settings(max_examples=100, deadline=None)
@given(
    ends=st.lists(st.tuples(*[st.integers(-6, 46).map(lambda v: v / 2)] * 4), min_size=1, max_size=25),
    ways=st.lists(st.sampled_from([0, 0, 1, -1]), min_size=25, max_size=25),
    windows=st.lists(st.tuples(st.integers(-3, 20), st.integers(-3, 16), st.integers(1, 12), st.integers(1, 12)),
                     min_size=1, max_size=6),
)
def test_step_masks_by_block_match_one_tile_at_a_time(ends, ways, windows):
    """Blocks of tiles, scanned or indexed, give each tile's bits as a lone tile's build does."""
    from aoegrid.board import spread
    from aoegrid.board._paths import step_bits
    from aoegrid.board.walls import clip
    from aoegrid.geometry.regions import EPS

    segs = np.array(ends, dtype=np.float64)
    one_way = np.array(ways[: len(segs)], dtype=np.int8)
    width, height = 19, 15
    masks = spread.StepMasks(width, height, segs, one_way)
    masks.TILE = 4
    real = (segs[:, 0] != segs[:, 2]) | (segs[:, 1] != segs[:, 3])
    pieces, which, _ = clip(segs[real], (-1.0, -1.0, width + 1.0, height + 1.0))
    piece_ways = one_way[real][which]
    for x, y, w, h in windows:  # past spread._SCANS windows the walls are indexed
        got = masks.window(Window(x, y, w, h))
        want = np.zeros((h, w), dtype=np.uint8)
        for ty in range(max(y, 0) // 4, (min(y + h, height) - 1) // 4 + 1):
            for tx in range(max(x, 0) // 4, (min(x + w, width) - 1) // 4 + 1):
                tile = np.reshape(step_bits(pieces.ravel().tolist(), piece_ways.tolist(), tx * 4, ty * 4, 4, 4, width,
                                            height, EPS), (4, 4))
                for sy in range(max(ty * 4, y), min(ty * 4 + 4, y + h, height)):
                    for sx in range(max(tx * 4, x), min(tx * 4 + 4, x + w, width)):
                        want[sy - y, sx - x] = tile[sy - ty * 4, sx - tx * 4]
        assert np.array_equal(got, want)


def test_a_first_window_builds_its_missing_tiles_in_one_block():
    from aoegrid.board.spread import StepMasks

    masks = StepMasks(100, 100, np.array([[50.0, 0.0, 50.0, 100.0]]), np.zeros(1, np.int8))
    bits = masks.window(Window(40, 40, 30, 30))
    assert sorted(masks._tiles) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert masks._index is None  # one scan of the walls, no index yet
    assert bits[0, 9] == 0b01010001 and bits[0, 10] == 0b10100010  # east of x = 49, west of x = 50
