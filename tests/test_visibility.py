"""The fast visibility path against a slow exact reference on random maps."""

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.raster import Window
from aoegrid.visibility import visibility
from aoegrid.walls import Channel, WallSet

N = 16
ANY = ag.Rules(origin="any", units="ft")


def shadows(origin, segs):
    """Everything behind each wall as seen from ``origin``, cut off far away."""
    o = np.asarray(origin)
    polys = []
    for ax, ay, bx, by in segs:
        a, b = np.array([ax, ay]), np.array([bx, by])
        far_a = o + (a - o) * 1e4 / max(np.linalg.norm(a - o), 1e-12)
        far_b = o + (b - o) * 1e4 / max(np.linalg.norm(b - o), 1e-12)
        poly = shapely.Polygon([a, b, far_b, far_a])
        if poly.area > 0:
            polys.append(poly.buffer(0))
    return shapely.unary_union(polys)


def slow_fractions(origin, segs, window: Window) -> np.ndarray:
    """Per square: the part of it no wall's shadow covers (shapely, square by square)."""
    shade = shadows(origin, segs)
    out = np.zeros(window.shape)
    for j in range(window.height):
        for i in range(window.width):
            x, y = window.x0 + i, window.y0 + j
            out[j, i] = shapely.box(x, y, x + 1, y + 1).difference(shade).area
    return out


def slow_sees(origin, segs, px, py) -> np.ndarray:
    """Whether the segment to each point properly crosses no wall."""
    out = np.ones(px.shape, dtype=bool)
    ox, oy = origin
    for ax, ay, bx, by in segs:
        d1 = (px - ox) * (ay - oy) - (py - oy) * (ax - ox)
        d2 = (px - ox) * (by - oy) - (py - oy) * (bx - ox)
        d3 = (bx - ax) * (oy - ay) - (by - ay) * (ox - ax)
        d4 = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
        out &= ~((d1 * d2 < 0) & (d3 * d4 < 0))
    return out


walls_st = st.lists(
    st.tuples(*[st.floats(0, N, allow_nan=False).map(lambda v: round(v, 2))] * 4).filter(
        lambda s: (s[0] - s[2]) ** 2 + (s[1] - s[3]) ** 2 > 0.01
    ),
    min_size=1,
    max_size=25,
)
origins = st.tuples(st.floats(0.5, N - 0.5), st.floats(0.5, N - 0.5)).map(lambda p: (round(p[0], 3) + 1e-4, round(p[1], 3) + 2e-4))


@settings(max_examples=40, deadline=None)
@given(walls_st, origins)
def test_visible_fractions_match_the_slow_reference(segs, origin):
    m = ag.BattleMap(ag.Grid(N, N), walls=[ag.Wall(s[:2], s[2:]) for s in segs])
    a = ag.area(ag.Sphere(500), at=origin, on=m, rules=ANY)
    ref = slow_fractions(origin, m.wallset("effect").segs, Window(0, 0, N, N))
    np.testing.assert_allclose(a.visible, ref, atol=1e-9)
    assert a.squares == [(int(x), int(y)) for y, x in np.argwhere(ref > 1e-9)]


@settings(max_examples=40, deadline=None)
@given(walls_st, origins)
def test_corner_lines_match_the_slow_reference(segs, origin):
    noded = WallSet.build([ag.Wall(s[:2], s[2:]) for s in segs], Channel.EFFECT)
    vis = visibility(origin, noded.segs, noded.one_way, (-1, -1, N + 1, N + 1))
    segs = np.asarray(segs, dtype=float)
    ys, xs = np.mgrid[0 : N + 1, 0 : N + 1].astype(float)
    np.testing.assert_array_equal(vis.sees(xs, ys), slow_sees(origin, segs, xs, ys))
