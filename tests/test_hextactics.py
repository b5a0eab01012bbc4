"""Tactics on hex maps (aoegrid.hextactics): range, legal origins, movement, best placements."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aoegrid as ag
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
from aoegrid.visibility import OriginOnWallError


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
    take a hex map and give the hex answers (aoegrid.lattice.answer), and ag.area checks a caster's placement."""
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
    with pytest.raises(ag.InvalidValueError, match=r"on a hex map the placement search takes no move= yet"):
        ag.best_placements(ag.Sphere(5), caster=me, range=60, on=m, hit="enemy", move=30)
    with pytest.raises(ag.InvalidValueError, match="legal_origins' elevation= is not measured yet"):
        ag.legal_origins(ag.Sphere(5), caster=me, range=30, on=m, elevation=10)
