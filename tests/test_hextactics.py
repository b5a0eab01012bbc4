"""Tactics on hex maps (aoegrid.hextactics): range, legal origins, movement, best placements."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.board.visibility import OriginOnWallError
from aoegrid.hexarea import hex_area
from aoegrid.hextactics import (
    HEX_DIRECTIONS,
    hex_best_placements,
    hex_check_origin,
    hex_in_range,
    hex_legal_origins,
    hex_path_distance,
    hex_placement_scores,
    hex_reachable,
)


def edges(g, col, row, ks):
    """Walls along the edges of hex (col, row) starting at each corner of ``ks``."""
    c = g.corners(col, row)
    return [ag.Wall(tuple(c[k]), tuple(c[(k + 1) % 6])) for k in ks]


# -- range ---------------------------------------------------------------------------------------


def test_range_counts_hex_steps_to_the_nearest_hex_at_the_point():
    g = ag.HexGrid(14, 5)
    caster = ag.Token(0, 2)
    # The top corner of (6, 2) touches (6, 2), (5, 1) and (6, 1): 6, 6 and 6 steps (30 ft).
    assert hex_in_range(caster, g.corners(6, 2)[0], 30, g).distance == 30.0
    # Every corner of the hex 6 steps east is within 30 ft; the far corners of the 7th hex are not.
    assert [hex_in_range(caster, g.corners(6, 2)[k], 30, g).in_range for k in range(6)] == [True] * 6
    far = hex_in_range(caster, g.corners(7, 2)[1], 30, g)
    assert (far.in_range, far.distance) == (False, 35.0)
    # A corner of the caster's own hex is 0 ft away; a point inside a hex is that hex's distance.
    assert hex_in_range(caster, g.corners(0, 2)[2], 30, g).distance == 0.0
    assert hex_in_range(caster, g.center(3, 2), 30, g).distance == 15.0


def test_range_from_a_large_caster_and_to_a_creature():
    g = ag.HexGrid(14, 6)
    ogre = ag.Token(2, 2, size="large")          # hexes (2, 2), (1, 3), (2, 3)
    assert hex_in_range(ogre, g.center(2, 4), 10, g).distance == 5.0
    target = ag.Token(6, 3, size="large")        # hexes (6, 3), (6, 4), (7, 4)
    c = hex_in_range(ogre, target, 20, g)
    assert (c.in_range, c.distance) == (True, 20.0)
    assert c.nearest == g.footprint_center(6, 3, 2)
    assert hex_in_range(ag.Token(0, 0), ag.Token(1, 0), ag.Range("touch"), g).in_range
    assert not hex_in_range(ag.Token(0, 0), ag.Token(2, 0), ag.Range("touch"), g).in_range


def test_range_nearest_is_the_in_range_point_nearest_the_target():
    g = ag.HexGrid(12, 4)
    c = hex_in_range((0, 1), g.corners(8, 1)[1], 30, g)
    assert (c.in_range, c.distance) == (False, 40.0)
    assert c.nearest == pytest.approx(tuple(g.corners(6, 1)[1]))
    # Savage Worlds also places templates at hex centres: the centre of (6, 1) is nearer here.
    sw = ag.HexGrid(12, 4, units="in", size=1)
    c = hex_in_range((0, 1), sw.center(9, 1), 6, sw, "savage-worlds")
    assert (c.in_range, c.distance) == (False, 9.0)
    assert c.nearest == pytest.approx(tuple(sw.corners(6, 1)[1]))


def test_range_errors_name_the_value():
    g = ag.HexGrid(5, 5)
    with pytest.raises(ag.OffGridError, match=r"target \(9, 9\) is off the 5 x 5 hex map"):
        hex_in_range((0, 0), (9, 9), 30, g)
    with pytest.raises(ag.OffGridError, match=r"caster token at \(7, 0\)"):
        hex_in_range((7, 0), (1, 1), 30, g)
    with pytest.raises(ag.InvalidTypeError, match=r"caster must be an aoegrid.Token or a hex \(col, row\).*1.5"):
        hex_in_range((1.5, 0), (1, 1), 30, g)
    with pytest.raises(ag.InvalidTypeError, match="on= an aoegrid.HexGrid"):
        hex_in_range((0, 0), (1, 1), 30, ag.Grid(5, 5))


# -- legal origins -------------------------------------------------------------------------------


def test_legal_origins_on_an_open_hex_map():
    g = ag.HexGrid(9, 7)
    o = hex_legal_origins(ag.Sphere(10), ag.Token(4, 3), 5, g)
    # Range 5 ft: the corners of the caster's hex and of its 6 neighbours: 6 + 6 * 3 = 24 corners.
    assert len(o) == 24
    assert o.lattice == "corners"
    assert o.refused == {"out of range": 158 - 24}
    assert sorted(set(o.distance.tolist())) == [0.0, 5.0]
    # Every corner of the 7 hexes is marked in each hex that has it; no centres under Starfinder.
    assert o.mask[3, 4, :6].all() and not o.mask[..., 6].any()
    for c, r in g.neighbours(4, 3):
        assert o.mask[r, c, :6].all()
    assert o.points()[0] == pytest.approx((float(o.x[0]), float(o.y[0])))
    assert list(o.y) == sorted(o.y)


def test_legal_origins_count_every_corner_once():
    g = ag.HexGrid(9, 7)
    o = hex_legal_origins(ag.Sphere(10), None, None, g)
    corners = {tuple(np.round(p, 6)) for c in range(9) for r in range(7) for p in g.corners(c, r)}
    assert len(o) == len(corners) == 158
    assert o.mask[..., :6].all()


def test_savage_worlds_searches_corners_and_centres_and_needs_sight():
    g = ag.HexGrid(6, 3, units="in", size=1)
    window = ag.Wall(tuple(g.corners(3, 0)[0]), tuple(g.corners(3, 2)[3]), kind="window")
    m = ag.BattleMap(g, walls=[window])
    o = hex_legal_origins(ag.Sphere(1), (0, 1), None, m, "savage-worlds")
    assert o.lattice == "corners+centers"
    # The window runs through the centres of (3, 0) and (3, 2): inside it; every other centre is in sight.
    assert o.mask[..., 6].sum() == 16 and not o.mask[0, 3, 6] and not o.mask[2, 3, 6]
    assert set(o.refused) == {"inside a wall"}
    sf = hex_legal_origins(ag.Sphere(5), (0, 1), None, ag.BattleMap(ag.HexGrid(6, 3), walls=[window]))
    assert "no line of effect" in sf.refused
    both = hex_legal_origins(ag.Sphere(5), (0, 1), None, ag.BattleMap(ag.HexGrid(6, 3), walls=[window]), need="sight")
    assert set(both.refused) == {"inside a wall"}
    foe = ag.BattleMap(ag.HexGrid(6, 3), walls=[window], tokens=[ag.Token(5, 1, tags={"enemy"})])
    assert hex_best_placements(ag.Sphere(5), (0, 1), None, foe, hit="enemy")[0].score == 0.0
    assert hex_best_placements(ag.Sphere(5), (0, 1), None, foe, hit="enemy", need="sight")[0].score == 1.0


def test_walls_take_points_out_and_the_reasons_are_counted():
    g = ag.HexGrid(8, 5)
    wall = ag.Wall(tuple(g.corners(3, 0)[0]), tuple(g.corners(3, 4)[3]))   # x = 3.5, top to bottom
    m = ag.BattleMap(g, walls=[wall])
    o = hex_legal_origins(ag.Sphere(5), ag.Token(1, 2), None, m)
    total = len(hex_legal_origins(ag.Sphere(5), None, None, g))
    assert len(o) + sum(o.refused.values()) == total
    assert o.refused == {"inside a wall": 4, "no line of effect": 58}
    # No legal point lies east of the wall; of those on it, only its ends.
    assert (o.x <= 3.5 + 1e-9).all()
    assert sorted(o.y[np.isclose(o.x, 3.5)].round(3).tolist()) == [0.0, round(m.size[1], 3)]


def test_cones_start_at_the_caster():
    g = ag.HexGrid(6, 6)
    o = hex_legal_origins(ag.Cone(15), ag.Token(2, 2, size="large"), None, g)
    assert o.lattice == "caster" and len(o) == 1
    assert (o.x[0], o.y[0]) == g.footprint_center(2, 2, 2)
    assert np.argwhere(o.mask[..., 6]).tolist() == [[2, 2], [3, 1], [3, 2]]
    with pytest.raises(ag.InvalidValueError, match="a cone starts at its caster: caster=None"):
        hex_legal_origins(ag.Cone(15), None, None, g)
    with pytest.raises(ag.InvalidValueError, match="range= is what a caster needs.*range=30"):
        hex_legal_origins(ag.Sphere(5), None, 30, g)


def test_check_origin_reasons_in_order():
    g = ag.HexGrid(10, 5)
    wall = ag.Wall(tuple(g.corners(4, 0)[3]), tuple(g.corners(4, 4)[0]))
    m = ag.BattleMap(g, walls=[wall])
    me = ag.Token(1, 2)
    ok = hex_check_origin(ag.Sphere(5), g.corners(2, 2)[1], caster=me, range=30, on=m)
    assert (ok.legal, ok.reason, ok.message) == (True, None, "")
    assert ok.origin == pytest.approx(tuple(g.corners(2, 2)[1]))
    off = hex_check_origin(ag.Sphere(5), (40, 2), caster=me, range=30, on=m)
    assert off.reason == "off the map" and "(40, 2) is off the 10 x 5 hex map" in off.message
    assert hex_check_origin(ag.Sphere(5), g.center(2, 2), caster=me, on=m).reason == "not a hex corner"
    inside = hex_check_origin(ag.Sphere(5), g.corners(4, 2)[0], caster=me, on=m)
    assert inside.reason == "inside a wall"
    far = hex_check_origin(ag.Sphere(5), g.corners(2, 2)[1], caster=me, range=0, on=m)
    assert far.reason == "out of range"
    assert far.message == ("point of origin (3, 2.021) is 5 ft from the caster, beyond its range of 0 ft; the nearest "
                           "legal origin is (2, 2.021)")
    behind = hex_check_origin(ag.Sphere(5), g.corners(7, 2)[0], caster=me, on=m)
    assert behind.reason == "no line of effect"
    assert behind.nearest in hex_legal_origins(ag.Sphere(5), me, None, m)
    cone = hex_check_origin(ag.Cone(15), (3, 3), caster=me, on=m)
    assert (cone.legal, cone.reason, cone.nearest) == (False, "not from the caster", me)
    assert hex_check_origin(ag.Cone(15), me, caster=me, on=m).legal


@given(col=st.integers(0, 7), row=st.integers(0, 5), k=st.integers(0, 5), rng=st.sampled_from([5, 10, 20]))
def test_check_origin_agrees_with_legal_origins(col, row, k, rng):
    g = ag.HexGrid(8, 6)
    m = ag.BattleMap(g, walls=edges(g, 3, 2, [0, 1, 2]) + edges(g, 5, 4, [4, 5]))
    me = ag.Token(2, 3)
    p = tuple(g.corners(col, row)[k])
    o = hex_legal_origins(ag.Sphere(5), me, rng, m)
    assert hex_check_origin(ag.Sphere(5), p, caster=me, range=rng, on=m).legal == (p in o)


# -- movement ------------------------------------------------------------------------------------


def test_reachable_on_open_hexes_is_hex_steps():
    g = ag.HexGrid(9, 9)
    r = hex_reachable(g, (4, 4), 10)
    assert len(r) == 19
    assert r.cost[4, 4] == 0.0 and r.cost[4, 6] == 10.0 and math.isinf(r.cost[4, 7])
    assert r.path(4, 6) == [(4, 4), (3, 5), (4, 6)]
    with pytest.raises(ag.InvalidValueError, match=r"no move from \(4, 4\) within 10 ends at hex \(4, 7\)"):
        r.path(4, 7)


def test_walls_bar_steps_between_centres():
    g = ag.HexGrid(5, 3)
    wall = ag.Wall(tuple(g.corners(2, 0)[0]), tuple(g.corners(2, 2)[3]))
    m = ag.BattleMap(g, walls=[wall])
    assert hex_path_distance(g, (0, 1), (4, 1)) == 20.0
    assert hex_path_distance(m, (0, 1), (4, 1)) == math.inf
    d = hex_path_distance(m, (0, 1))
    assert d.shape == (3, 5) and d[1, 1] == 5.0
    # A wall along hex edges: the step across it is barred, the way round is two steps.
    rim = ag.BattleMap(ag.HexGrid(5, 3), walls=edges(g, 1, 1, [1, 2]))
    assert hex_path_distance(rim, (1, 1), (2, 1)) == 10.0


def test_creatures_block_hostile_movers_and_five_e_pays_double():
    g = ag.HexGrid(5, 1)
    me, friend, orc = ag.Token(0, 0, tags={"ally"}), ag.Token(1, 0, tags={"ally"}), ag.Token(3, 0, tags={"enemy"})
    m = ag.BattleMap(g, tokens=[me, friend, orc])
    r = hex_reachable(m, me, 30)
    assert r.cost[0].tolist() == [0.0, math.inf, 10.0, math.inf, math.inf]   # through the friend, not the orc
    assert hex_reachable(m, me, 30, "5e").cost[0].tolist() == [0.0, math.inf, 15.0, math.inf, math.inf]
    assert hex_reachable(m, me, 30, through="all").cost[0, 4] == 20.0
    assert math.isinf(hex_reachable(m, me, 30, through="none").cost[0, 2])
    assert hex_reachable(m, me, 30, enemies=[friend]).cost[0].tolist() == [0.0] + [math.inf] * 4


def test_a_large_creature_moves_its_whole_footprint():
    g = ag.HexGrid(7, 5)
    ogre = ag.Token(1, 1, size="large")
    r = hex_reachable(g, ogre, 5)
    # It fits wherever its three hexes stay on the map: one step in each of six directions.
    assert len(r) == 7
    wall = ag.Wall(tuple(g.corners(3, 0)[3]), tuple(g.corners(3, 4)[0]))
    m = ag.BattleMap(g, walls=[wall])
    assert hex_reachable(m, ogre, 20).cost[1, 3] == math.inf
    assert hex_reachable(g, ogre, 20).cost[1, 3] == 10.0


def test_movement_errors_name_the_value():
    g = ag.HexGrid(5, 3)
    wall = ag.Wall(tuple(g.corners(2, 0)[0]), tuple(g.corners(2, 2)[3]))
    m = ag.BattleMap(g, walls=[wall])
    with pytest.raises(ag.InvalidValueError, match=r"stands inside a wall: .* centre of hex \(2, 0\)"):
        hex_reachable(m, (2, 0), 10)
    with pytest.raises(ag.InvalidValueError, match="hex_reachable move must be"):
        hex_reachable(g, (0, 0), -5)
    with pytest.raises(ag.OffGridError, match=r"\(9, 9\)"):
        hex_reachable(g, (9, 9), 5)
    with pytest.raises(ag.InvalidValueError, match="savage-worlds rules measure in 'in'"):
        hex_reachable(g, (0, 0), 5, "savage-worlds")


# -- best placements -----------------------------------------------------------------------------


def test_best_placement_takes_the_cluster_and_spares_the_ally():
    g = ag.HexGrid(12, 7)
    orcs = [ag.Token(c, r, tags={"enemy"}, name=f"orc{n}") for n, (c, r) in enumerate([(7, 2), (8, 2), (7, 3), (2, 5)])]
    m = ag.BattleMap(g, tokens=[*orcs, ag.Token(6, 3, tags={"ally"}, name="tor")])
    me = ag.Token(1, 3, tags={"ally"})
    plans = hex_best_placements(ag.Sphere(5), me, 60, m, hit="enemy", avoid="ally", limit=3)
    assert [(p.score, len(p.avoided)) for p in plans] == [(3.0, 0), (2.0, 0), (2.0, 0)]
    best = plans[0]
    assert sorted(r.token.name for r in best.hits) == ["orc0", "orc1", "orc2"]
    assert best.distance == 30.0
    assert best.at == pytest.approx(tuple(g.corners(7, 2)[2]))   # where the three orcs' hexes meet
    again = hex_area(best.shape, best.at, m, "starfinder")
    assert again.hexes == best.area.hexes
    # With the ally allowed, the same three; a bigger ball reaches the far orc too but not the ally.
    assert hex_best_placements(ag.Sphere(5), me, 60, m, hit="enemy", max_avoid=None)[0].score == 3.0


def test_cones_are_aimed_every_thirty_degrees():
    g = ag.HexGrid(9, 7)
    foes = [ag.Token(c, 3, tags={"enemy"}) for c in (5, 6)] + [ag.Token(2, 0, tags={"enemy"})]
    m = ag.BattleMap(g, tokens=foes)
    me = ag.Token(2, 3)
    plans = hex_best_placements(ag.Cone(15), me, None, m, hit="enemy", limit=2)
    # East, the cone's 3 steps from its corner take (5, 3), not (6, 3); north-west-ish, (2, 0).
    assert [(p.direction, p.score) for p in plans] == [(0.0, 1.0), (240.0, 1.0)]
    assert plans[0].at is me and plans[0].distance == 0.0
    scores = hex_placement_scores(ag.Cone(15), me, None, m, hit="enemy")
    assert scores.shape == (len(HEX_DIRECTIONS),)
    assert scores.tolist() == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0]
    assert hex_placement_scores(ag.Cone(15), me, None, m, hit="enemy", directions=["E", 180]).tolist() == [1.0, 0.0]


def test_placement_errors_name_the_value():
    g = ag.HexGrid(5, 5)
    m = ag.BattleMap(g, tokens=[ag.Token(2, 2, tags={"enemy"})])
    with pytest.raises(ag.InvalidValueError, match="need hit="):
        hex_best_placements(ag.Sphere(5), (0, 0), 30, m)
    with pytest.raises(ag.InvalidValueError, match="limit must be a whole number, 1 or more; got 0"):
        hex_best_placements(ag.Sphere(5), (0, 0), 30, m, hit="enemy", limit=0)
    with pytest.raises(ag.InvalidValueError, match="max_avoid must be .* got -1"):
        hex_best_placements(ag.Sphere(5), (0, 0), 30, m, hit="enemy", max_avoid=-1)
    with pytest.raises(ag.InvalidValueError, match="directions= is for cones and lines.*directions=\\[0\\]"):
        hex_best_placements(ag.Sphere(5), (0, 0), 30, m, hit="enemy", directions=[0])
    with pytest.raises(ag.InvalidValueError, match="directions is empty"):
        hex_best_placements(ag.Cone(15), (0, 0), None, m, hit="enemy", directions=[])
    with pytest.raises(ag.InvalidTypeError, match="on must be an aoegrid.BattleMap on a HexGrid"):
        hex_best_placements(ag.Sphere(5), (0, 0), 30, g, hit="enemy")


# -- equal to brute force ------------------------------------------------------------------------

RULES = {"starfinder": ("ft", 5.0), "5e": ("ft", 5.0), "pf2e": ("ft", 5.0), "savage-worlds": ("in", 1.0)}


@st.composite
def battles(draw):
    rules = draw(st.sampled_from(sorted(RULES)))
    units, size = RULES[rules]
    w, h = draw(st.integers(4, 7)), draw(st.integers(3, 6))
    g = ag.HexGrid(w, h, orientation=draw(st.sampled_from(["pointy", "flat"])), offset=draw(st.sampled_from(["odd", "even"])),
                   units=units, size=size)
    walls = []
    for _ in range(draw(st.integers(0, 3))):
        c, r = draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1))
        first, n = draw(st.integers(0, 5)), draw(st.integers(1, 3))
        walls += edges(g, c, r, [(first + i) % 6 for i in range(n)])
    hexes = draw(st.lists(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)), min_size=2, max_size=6, unique=True))
    tags = draw(st.lists(st.sampled_from(["enemy", "ally", "neutral"]), min_size=len(hexes), max_size=len(hexes)))
    tokens = [ag.Token(c, r, tags={t}, name=f"t{n}") for n, ((c, r), t) in enumerate(zip(hexes[1:], tags[1:]))]
    caster = ag.Token(*hexes[0], tags={"ally"}, name="me")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.AoegridWarning)  # an edge wall may run between a large creature's hexes
        m = ag.BattleMap(g, walls=walls, tokens=[caster, *tokens])
    return m, caster, rules, size


def brute(shape, caster, rng, m, rules, mode, max_avoid):
    """Every legal placement built with hex_area: sorted keys (-score, avoided, distance, y, x), and each point's score."""
    o = hex_legal_origins(shape, caster, rng, m, rules)
    found, score = [], {}
    for x, y, d in zip(o.x.tolist(), o.y.tolist(), o.distance.tolist()):
        reached = hex_area(shape, (x, y), m, rules, mode).tokens()
        hits = sum("enemy" in r.token.tags for r in reached)
        avoided = sum("ally" in r.token.tags for r in reached)
        if max_avoid is None or avoided <= max_avoid:
            found.append((-float(hits), float(avoided), d, y, x))
            score[(round(x, 6), round(y, 6))] = float(hits)
    return sorted(found), score


def point_scores(g, scores):
    """The finite entries of a placement_scores array, by point (corners and centres)."""
    out = {}
    rows, cols = np.indices(g.shape)
    corners = g.corners(cols, rows)
    cx, cy = g.center(cols, rows)
    for r, c, k in np.argwhere(np.isfinite(scores)).tolist():
        x, y = (corners[r, c, k] if k < 6 else (cx[r, c], cy[r, c]))
        key = (round(float(x), 6), round(float(y), 6))
        assert out.setdefault(key, float(scores[r, c, k])) == scores[r, c, k]  # the same in every hex sharing it
    return out


# Each example builds every legal area: no per-example deadline.
@settings(deadline=None, max_examples=60)
@given(battle=battles(), radius=st.sampled_from([1, 2]), rng=st.sampled_from([None, 2, 4]),
       mode=st.sampled_from(["burst", "spread"]), max_avoid=st.sampled_from([0, 1, None]))
def test_best_placements_equal_brute_force(battle, radius, rng, mode, max_avoid):
    m, caster, rules, size = battle
    shape = ag.Sphere(radius * size)
    r = None if rng is None else rng * size
    want, score = brute(shape, caster, r, m, rules, mode, max_avoid)
    got = hex_best_placements(shape, caster, r, m, rules, mode, hit="enemy", avoid="ally", max_avoid=max_avoid,
                              limit=3)
    keys = [(-p.score, float(len(p.avoided)), p.distance, p.at[1], p.at[0]) for p in got]
    assert keys == want[:3]
    for p in got:
        assert p.area.hexes == hex_area(shape, p.at, m, rules, mode).hexes
    scores = hex_placement_scores(shape, caster, r, m, rules, mode, hit="enemy", avoid="ally", max_avoid=max_avoid)
    assert point_scores(m.grid, scores) == score


@settings(deadline=None, max_examples=60)
@given(battle=battles(), length=st.sampled_from([2, 3]))
def test_cone_placements_equal_brute_force(battle, length):
    m, caster, rules, size = battle
    shape = ag.Cone(length * size)
    want = []
    for d in HEX_DIRECTIONS:
        try:
            a = hex_area(shape.replace(direction=d), caster, m, rules)
        except OriginOnWallError:
            continue  # this direction starts at a corner inside a wall
        reached = a.tokens()
        hits = sum("enemy" in r.token.tags for r in reached)
        avoided = sum("ally" in r.token.tags for r in reached)
        if avoided <= 0:
            want.append((-float(hits), float(avoided), d))
    want.sort()
    got = hex_best_placements(shape, caster, None, m, rules, hit="enemy", avoid="ally", limit=2)
    assert [(-p.score, float(len(p.avoided)), p.direction) for p in got] == want[:2]


def test_the_public_functions_answer_on_hex_maps():
    """ag.best_placements, placement_scores, legal_origins, check_origin, in_range, reachable and path_distance
    take a hex map and give the hex answers (aoegrid.geometry.lattice.answer), and ag.area checks a caster's placement."""
    g = ag.HexGrid(12, 7)
    orcs = [ag.Token(c, r, tags={"enemy"}, name=f"orc{n}") for n, (c, r) in enumerate([(7, 2), (8, 2), (7, 3)])]
    m = ag.BattleMap(g, walls=edges(g, 4, 1, [1, 2]), tokens=orcs)
    me = ag.Token(1, 3, tags={"ally"})
    best = ag.best_placements(ag.Sphere(5), caster=me, range=60, on=m, hit="enemy", limit=2)
    direct = hex_best_placements(ag.Sphere(5), me, 60, m, hit="enemy", limit=2)
    assert [(p.at, p.score) for p in best] == [(p.at, p.score) for p in direct] and best[0].score == 3.0
    scores = ag.placement_scores(ag.Sphere(5), caster=me, range=60, on=m, hit="enemy")
    assert np.array_equal(scores, hex_placement_scores(ag.Sphere(5), me, 60, m, hit="enemy"), equal_nan=True)
    legal = ag.legal_origins(ag.Sphere(5), caster=me, range=30, on=m)
    assert np.array_equal(legal.mask, hex_legal_origins(ag.Sphere(5), me, 30, m).mask)
    assert ag.check_origin(ag.Sphere(5), best[0].at, caster=me, range=60, on=m).legal
    assert ag.in_range(me, best[0].at, 60, "starfinder", m).distance == hex_in_range(me, best[0].at, 60, m).distance
    assert np.array_equal(ag.reachable(me, 30, m).cost, hex_reachable(m, me, 30).cost)
    assert ag.path_distance(m, (1, 3), (5, 3)) == hex_path_distance(m, (1, 3), (5, 3)) == 20.0
    # Move, then place: move= passes through, a number or the hex map's reach.
    moved = ag.best_placements(ag.Sphere(5), caster=me, range=20, on=m, hit="enemy", move=ag.reachable(me, 30, m))
    assert [(p.at, p.score, p.cost, p.path) for p in moved] == \
        [(p.at, p.score, p.cost, p.path) for p in hex_best_placements(ag.Sphere(5), me, 20, m, hit="enemy", move=30)]
    assert moved[0].score == 3.0 and moved[0].cost > 0
    assert np.array_equal(ag.placement_scores(ag.Sphere(5), caster=me, range=20, on=m, hit="enemy", move=30),
                          hex_placement_scores(ag.Sphere(5), me, 20, m, hit="enemy", move=30), equal_nan=True)
    with pytest.raises(ag.InvalidTypeError, match="on a hex map move= is a number or a HexReach"):
        ag.best_placements(ag.Sphere(5), caster=me, range=60, on=m, hit="enemy",
                           move=ag.reachable(ag.Token(1, 1), 30, ag.BattleMap(ag.Grid(5, 5))))
    with pytest.raises(ag.InvalidValueError, match=r"on a hex map the placement search takes no score= yet"):
        ag.best_placements(ag.Sphere(5), caster=me, range=60, on=m, score=lambda p: p.score, move=30)
    with pytest.raises(ag.InvalidValueError, match="legal_origins' elevation= is not measured yet"):
        ag.legal_origins(ag.Sphere(5), caster=me, range=30, on=m, elevation=10)


# -- move, then place ----------------------------------------------------------------------------


def walled_off():
    """A caster west of a wall down column 2's east side (rows 0-3), three orcs meeting at a corner beyond it."""
    g = ag.HexGrid(10, 6)
    orcs = [ag.Token(c, r, tags={"enemy"}, name=f"orc{n}") for n, (c, r) in enumerate([(6, 1), (7, 1), (7, 2)])]
    me = ag.Token(1, 1, tags={"ally"}, name="me")
    m = ag.BattleMap(g, walls=[w for r in range(4) for w in edges(g, 2, r, [0, 1, 2])], tokens=[me, *orcs])
    return g, m, me


def test_a_caster_behind_a_wall_steps_out_to_reach_the_orcs():
    g, m, me = walled_off()
    ball = {"hit": "enemy", "avoid": "ally"}
    assert hex_best_placements(ag.Sphere(5), me, 20, m, **ball)[0].score == 0.0   # no line east from (1, 1)
    plans = hex_best_placements(ag.Sphere(5), me, 20, m, **ball, move=30, limit=2)
    best, second = plans
    # Round the wall's foot and up to (3, 3), 25 ft, then 20 ft to the corner the three orcs' hexes share.
    assert (best.score, best.cost, best.distance) == (3.0, 25.0, 20.0)
    assert best.at == pytest.approx(tuple(g.corners(7, 2)[0]))
    assert best.at == pytest.approx((7.5, 1.7320508))
    assert (best.stand.x, best.stand.y, best.stand.name) == (3, 3, "me")
    assert best.path == ((1, 1), (1, 2), (1, 3), (2, 4), (3, 4), (3, 3))
    assert sorted(r.token.name for r in best.hits) == ["orc0", "orc1", "orc2"] and best.avoided == ()
    assert best.origin == best.at and best.area.hexes == [(6, 1), (7, 1), (7, 2)]
    # One step less (20 ft, to (3, 4)) reaches a corner of two of them.
    assert (second.score, second.cost, second.path[-1]) == (2.0, 20.0, (3, 4))
    assert second.at == pytest.approx((7.0, 2.0207259))
    # 20 ft of movement gets two; 10 or 15 ft, round the wall's foot at best, none.
    assert [hex_best_placements(ag.Sphere(5), me, 20, m, **ball, move=mv)[0].score for mv in (10, 15, 20)] == \
        [0.0, 0.0, 2.0]
    # The score map: per corner the best score from any stand it is legal from (range and line of effect).
    scores = hex_placement_scores(ag.Sphere(5), me, 20, m, **ball, move=30)
    assert scores.shape == (6, 10, 7) and np.nanmax(scores) == 3.0
    assert np.argwhere(scores == 3.0).tolist() == [[1, 6, 2], [1, 7, 4], [2, 7, 0]]   # that one corner, in its 3 hexes
    assert np.isnan(hex_placement_scores(ag.Sphere(5), me, 20, m, **ball)[1, 6, 2])


def test_move_defaults_and_a_reach_given():
    _, m, me = walled_off()
    still = hex_best_placements(ag.Sphere(5), me, 20, m, hit="enemy")[0]
    assert (still.stand, still.path, still.cost) == (None, (), 0.0)
    # move=0: the caster stays, and says so.
    zero = hex_best_placements(ag.Sphere(5), me, 20, m, hit="enemy", move=0)[0]
    assert (zero.at, zero.score, zero.distance) == (still.at, still.score, still.distance)
    assert (zero.stand, zero.path, zero.cost) == (me, ((1, 1),), 0.0)
    # A HexReach (here: through no one, doubled by nothing) is where it may stand.
    reach = hex_reachable(m, me, 30, through="none")
    given_ = hex_best_placements(ag.Sphere(5), me, 20, m, hit="enemy", move=reach)[0]
    assert (given_.score, given_.cost, given_.path) == (3.0, 25.0, tuple(reach.path(3, 3)))
    with pytest.raises(ag.InvalidValueError, match=r"move= is a HexReach from \(0, 0\) .* not the caster's \(me at \(1, 1\)"):
        hex_best_placements(ag.Sphere(5), me, 20, m, hit="enemy", move=hex_reachable(m, (0, 0), 30))


def test_a_cone_is_aimed_from_every_hex_the_caster_may_reach():
    _, m, me = walled_off()
    cone = hex_best_placements(ag.Cone(15), me, None, m, hit="enemy", avoid="ally", move=30)[0]
    # 15 ft east from (4, 2), the top of the three hexes 30 ft away that a cone reaching two orcs starts from.
    assert (cone.score, cone.cost, cone.direction, cone.distance) == (2.0, 30.0, 0.0, 0.0)
    assert cone.at == cone.stand == me.moved_to(4, 2) and cone.path[-2:] == ((3, 3), (4, 2))
    assert sorted(r.token.name for r in cone.hits) == ["orc0", "orc2"]
    assert cone.area.hexes == [(5, 1), (6, 1), (5, 2), (6, 2), (7, 2), (6, 3)]
    assert hex_area(cone.shape, cone.stand, m.move_token(me, 4, 2), "starfinder").hexes == cone.area.hexes
    scores = hex_placement_scores(ag.Cone(15), me, None, m, hit="enemy", avoid="ally", move=30)
    # One score per hex it may end on, the best of twelve directions; NaN where it cannot end its move.
    assert scores.shape == (6, 10) and np.isfinite(scores).sum() == len(hex_reachable(m, me, 30))
    assert np.argwhere(scores == 2.0).tolist() == [[2, 4], [3, 4], [4, 5]] and np.nanmax(scores) == 2.0
    assert scores[1, 1] == 0.0 and np.isnan(scores[1, 4])


def test_the_caster_is_counted_where_it_stands():
    """A caster to avoid is left out of its own ball: the stand matters, not where it started."""
    g = ag.HexGrid(6, 3)
    me = ag.Token(0, 1, tags={"ally"}, name="me")
    orc = ag.Token(2, 1, tags={"enemy"}, name="orc")
    m = ag.BattleMap(g, tokens=[me, orc])
    # Range 0: only corners of the caster's own hex, and a ball at one takes that hex: none spares the caster.
    # Allowed to reach it, one step east puts a corner it shares with the orc in range.
    assert hex_best_placements(ag.Sphere(5), me, 0, m, hit="enemy", avoid="ally", move=10) == []
    p = hex_best_placements(ag.Sphere(5), me, 0, m, hit="enemy", avoid="ally", max_avoid=1, move=10)[0]
    assert (p.score, [r.token.name for r in p.avoided], p.cost) == (1.0, ["me"], 5.0)
    assert p.avoided[0].token == p.stand and p.stand in p.area.battlemap.tokens
    # Not avoided, the caster is just another creature: the cheapest stand wins.
    q = hex_best_placements(ag.Sphere(5), me, 0, m, hit="enemy", move=10)[0]
    assert (q.score, q.cost, q.avoided) == (1.0, 5.0, ())


def test_move_errors_name_the_value():
    _, m, me = walled_off()
    with pytest.raises(ag.InvalidValueError, match="with caster=None .* there is no one to move; got move=30"):
        hex_best_placements(ag.Sphere(5), None, None, m, hit="enemy", move=30)
    with pytest.raises(ag.InvalidTypeError, match=r"pass the caster as an aoegrid.Token .* not \(1, 1\)"):
        hex_best_placements(ag.Sphere(5), (1, 1), 20, m, hit="enemy", move=30)
    with pytest.raises(ag.InvalidValueError, match="move must be 0 or more, got -5"):
        hex_placement_scores(ag.Sphere(5), me, 20, m, hit="enemy", move=-5)
    with pytest.raises(ag.InvalidValueError, match="need hit="):
        hex_best_placements(ag.Sphere(5), me, 20, m, move=30)
    with pytest.raises(ag.InvalidValueError, match="directions= is for cones and lines"):
        hex_best_placements(ag.Sphere(5), me, 20, m, hit="enemy", move=30, directions=[0])
    with pytest.raises(ag.OffGridError, match="me"):
        hex_best_placements(ag.Sphere(5), me.moved_to(20, 1), 20, m, hit="enemy", move=30)


def moved_brute(shape, caster, rng, m, rules, mode, max_avoid, move):
    """Every stand x every legal origin from there, the area built each time on the map with the caster moved there.

    Per point, its best key (-hits, avoided, cost, distance, y, x, stand row, stand col) and best score.
    """
    reach = hex_reachable(m, caster, move, rules)
    best, score = {}, {}
    for c, r in reach.hexes:
        mm = m.move_token(caster, c, r)
        o = hex_legal_origins(shape, caster.moved_to(c, r), rng, mm, rules)
        for x, y, d in zip(o.x.tolist(), o.y.tolist(), o.distance.tolist()):
            reached = hex_area(shape, (x, y), mm, rules, mode).tokens()
            hits = sum("enemy" in q.token.tags for q in reached)
            avoided = sum("ally" in q.token.tags for q in reached)
            if max_avoid is None or avoided <= max_avoid:
                key = (-float(hits), float(avoided), float(reach.cost[r, c]), d, y, x, float(r), float(c))
                at = (round(x, 6), round(y, 6))
                best[at] = min(best.get(at, key), key)
                score[at] = max(score.get(at, 0.0), float(hits))
    return sorted(best.values()), score


@st.composite
def moving_battles(draw):
    """battles() with the caster sometimes large (its three hexes on the map), sometimes one to hit."""
    m, caster, rules, size = draw(battles())
    if draw(st.booleans()):
        caster = ag.Token(caster.x, caster.y, tags={"enemy"}, name=caster.name)
        m = ag.BattleMap(m.grid, walls=m.walls, tokens=[caster, *m.tokens[1:]])
    if draw(st.booleans()):
        big = ag.Token(caster.x, caster.y, size="large", tags=caster.tags, name=caster.name)
        cols, rows = np.array(m.grid.footprint(big.x, big.y, 2)).T
        if m.grid.contains(cols, rows).all():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ag.AoegridWarning)
                bigger = ag.BattleMap(m.grid, walls=m.walls, tokens=[big, *m.tokens[1:]])
            try:
                hex_reachable(bigger, big, 0)
            except ag.InvalidValueError:
                pass  # an edge wall between two of its hexes: it cannot stand there
            else:
                m, caster = bigger, big
    return m, caster, rules, size


@settings(deadline=None, max_examples=30)
@given(battle=moving_battles(), radius=st.sampled_from([1, 2]), rng=st.sampled_from([None, 1, 3]),
       mode=st.sampled_from(["burst", "spread"]), max_avoid=st.sampled_from([0, 1, None]), steps=st.sampled_from([0, 1, 2]))
def test_moving_placements_equal_brute_force(battle, radius, rng, mode, max_avoid, steps):
    m, caster, rules, size = battle
    shape, r, move = ag.Sphere(radius * size), None if rng is None else rng * size, steps * size
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.AoegridWarning)  # a large caster moved where an edge wall splits it
        want, score = moved_brute(shape, caster, r, m, rules, mode, max_avoid, move)
    got = hex_best_placements(shape, caster, r, m, rules, mode, hit="enemy", avoid="ally", max_avoid=max_avoid,
                              limit=3, move=move)
    keys = [(-p.score, float(len(p.avoided)), p.cost, p.distance, p.at[1], p.at[0], float(p.stand.y),
             float(p.stand.x)) for p in got]
    assert keys == want[:3]
    reach = hex_reachable(m, caster, move, rules)
    for p in got:
        assert p.path == tuple(reach.path(p.stand.x, p.stand.y)) and p.cost == reach.cost[p.stand.y, p.stand.x]
        assert p.area.hexes == hex_area(shape, p.at, m, rules, mode).hexes
        assert [q.token for q in p.area.tokens() if "enemy" in q.token.tags] == [q.token for q in p.hits]
    scores = hex_placement_scores(shape, caster, r, m, rules, mode, hit="enemy", avoid="ally", max_avoid=max_avoid,
                                  move=move)
    assert point_scores(m.grid, scores) == score


@settings(deadline=None, max_examples=25)
@given(battle=moving_battles(), length=st.sampled_from([2, 3]), steps=st.sampled_from([0, 1, 2]),
       max_avoid=st.sampled_from([0, None]), kind=st.sampled_from([ag.Cone, ag.Line]))
def test_moving_cones_equal_brute_force(battle, length, steps, max_avoid, kind):
    m, caster, rules, size = battle
    shape, move = kind(length * size), steps * size
    reach = hex_reachable(m, caster, move, rules)
    want, best = [], {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.AoegridWarning)
        for c, r in reach.hexes:
            mm, there = m.move_token(caster, c, r), caster.moved_to(c, r)
            cx, cy = m.grid.footprint_center(c, r, there.footprint[0])
            for d in HEX_DIRECTIONS:
                try:
                    a = hex_area(shape.replace(direction=d), there, mm, rules)
                except OriginOnWallError:
                    continue
                reached = a.tokens()
                hits = sum("enemy" in q.token.tags for q in reached)
                avoided = sum("ally" in q.token.tags for q in reached)
                if max_avoid is None or avoided <= max_avoid:
                    want.append((-float(hits), float(avoided), float(reach.cost[r, c]), 0.0, cy, cx, d, r, c))
                    best[(r, c)] = max(best.get((r, c), 0.0), float(hits))
        got = hex_best_placements(shape, caster, None, m, rules, hit="enemy", avoid="ally", max_avoid=max_avoid,
                                  limit=2, move=move)
        scores = hex_placement_scores(shape, caster, None, m, rules, hit="enemy", avoid="ally", max_avoid=max_avoid,
                                      move=move)
    want.sort()
    keys = [(-p.score, float(len(p.avoided)), p.cost, p.distance,
             *m.grid.footprint_center(p.stand.x, p.stand.y, p.stand.footprint[0])[::-1], p.direction, p.stand.y,
             p.stand.x) for p in got]
    assert keys == want[:2]
    assert all(p.at is p.stand for p in got)
    assert {(int(r), int(c)): float(v) for r, c in np.argwhere(np.isfinite(scores)).tolist()
            for v in [scores[r, c]]} == best
