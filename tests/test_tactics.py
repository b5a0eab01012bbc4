"""Tactics: legal origins per preset, the best placement, score maps, exact against brute force."""

import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.geometry.distance import measure3
from aoegrid.geometry.rules import resolve_rules
from aoegrid.planning.tactics import DIRECTIONS

# --- brute force: ag.area + .tokens() at every legal origin ------------------


def _pick(sel):
    if sel is None:
        return lambda t: False
    if isinstance(sel, str):
        return lambda t: sel in t.tags
    if callable(sel):
        return sel
    sel = list(sel)
    if all(isinstance(s, str) for s in sel):
        return lambda t: bool(t.tags & set(sel))
    return lambda t: any(t is s or t == s for s in sel)


def heights(elevation):
    """The heights an ``elevation=`` searches: one, or each of a collection."""
    return [float(elevation)] if isinstance(elevation, (int, float)) else sorted({float(z) for z in elevation})


def distance3(caster, p, z, rules, grid):
    """From the caster's prism to the point ``p`` at height ``z``, in three dimensions, written out."""
    b = caster.space if isinstance(caster, ag.Token) else caster
    low, high = caster.prism(grid.square) if isinstance(caster, ag.Token) else (0.0, b.width * grid.square)
    dx = max(0.0, b.x - p[0], p[0] - (b.x + b.width))
    dy = max(0.0, b.y - p[1], p[1] - (b.y + b.height))
    dz = max(0.0, low - z, z - high) / grid.square
    return float(measure3(dx, dy, dz, resolve_rules(rules).diagonals)) * grid.square


def brute(shape, caster, rng, m, rules, mode="burst", hit=None, avoid=None, max_avoid=0, directions=None,
          elevation=0.0, pitches=None):
    """Every acceptable placement as (key, at, direction, hits, avoided, origin, height, pitch), best first.

    Each is ``ag.area`` where the legal origin comes into being (SW5e moves an
    unseen one to a wall's near side), at each height of ``elevation``: what
    ``ag.area(..., caster=, range=, elevation=)`` builds, as
    test_every_origin_area_accepts_on_the_lattices_is_searched holds.
    """
    is_hit, is_avoid = _pick(hit), _pick(avoid)
    out = []

    def add(a, at, d, dist, x, y, z, up=0.0):
        reached = a.tokens()
        h = [r.token for r in reached if is_hit(r.token)]
        av = [r.token for r in reached if is_avoid(r.token)]
        if max_avoid is None or len(av) <= max_avoid:
            out.append(((-len(h), len(av), dist, abs(z), z, y, x, d, abs(up), up), at, d, len(h), len(av), a.origin, z,
                        up))

    for z in heights(elevation):
        o = ag.legal_origins(shape, caster=caster, range=rng, on=m, rules=rules, elevation=z)
        if o.lattice == "caster":
            cx, cy = o.caster.center
            for d in sorted({ag.Cone(5, x).direction for x in (directions or DIRECTIONS)}):
                for up in {shape.pitch} if pitches is None else set(pitches):
                    try:
                        a = ag.area(shape.replace(direction=d, pitch=up), at=caster, on=m, rules=rules, mode=mode,
                                    elevation=z, caster=caster, range=rng)
                    except ag.OriginOnWallError:
                        continue
                    add(a, caster, d, 0.0, cx, cy, z, up)
        else:
            for p in o.points():
                a = ag.area(shape, at=o.origin_of(p), on=m, rules=rules, mode=mode, elevation=z)
                add(a, p, 0.0, distance3(caster, p, z, rules, m.grid) if caster is not None else 0.0, p[0], p[1], z)
    out.sort(key=lambda t: t[0])
    return out


def cell(o, p):
    """``[y, x]`` of point ``p`` in the mask (and score array) of ``o``."""
    step = 1.0 if o.lattice == "intersections" else 0.5
    return round(p[1] / step), round(p[0] / step)


# --- legal origins, by hand ------------------------------------------------------


def test_starfinder_origins_are_intersections_in_range_in_view_and_off_walls():
    # A wall from (3, 0) down to (3, 2); the caster in square (0, 0), range 20 ft.
    m = ag.BattleMap(ag.Grid(6, 3), walls=[ag.Wall((3, 0), (3, 2))])
    o = ag.legal_origins(ag.Sphere(5), caster=ag.Token(0, 0), range=20, on=m, rules="starfinder")
    assert o.lattice == "intersections" and o.mask.shape == (4, 7)
    expected = np.array([
        [1, 1, 1, 1, 0, 0, 0],  # (3, 0): the wall's end is fine; (4, 0) is behind it
        [1, 1, 1, 0, 0, 0, 0],  # (3, 1): inside the wall
        [1, 1, 1, 1, 0, 0, 0],  # (3, 2): the other end; (4, 2) still hidden
        [1, 1, 1, 1, 1, 0, 0],  # (4, 3) seen past the wall's end; (5, 3) is 25 ft away
    ], dtype=bool)
    assert np.array_equal(o.mask, expected)
    assert (3, 0) in o and (3, 1) not in o and (4, 3) in o and (5, 3) not in o and (0.5, 0.5) not in o
    assert o.points()[:4] == [(0, 0), (1, 0), (2, 0), (3, 0)] and len(o) == int(expected.sum())
    # ag.area refuses what legal_origins leaves out as inside a wall.
    with pytest.raises(ag.OriginOnWallError):
        ag.area(ag.Sphere(5), at=(3, 1), on=m)
    assert not o.mask.flags.writeable


def test_range_edge_is_inclusive_and_counts_diagonals_by_the_rules():
    g = ag.Grid(20, 20)
    caster = ag.Token(0, 0)
    sf = ag.legal_origins(ag.Sphere(10), caster=caster, range=30, on=g, rules="starfinder")
    # From square (0, 0): (7, 1) is 6 squares east, 0 down = 30 ft; (7, 4) counts 6 + 1 = 7 squares.
    assert (7, 0) in sf and (7, 1) in sf and (8, 0) not in sf
    assert (5, 5) in sf and (6, 6) not in sf  # 4 + 2 = 6 squares; 5 + 2 = 7
    # 5e counts every diagonal as one square and looks at intersections and square centres.
    e5 = ag.legal_origins(ag.Sphere(10), caster=caster, range=30, on=g, rules="sw5e")
    assert e5.lattice == "intersections+centers" and e5.lattices == ("intersections", "centers")
    assert e5.mask.shape == (41, 41) and e5.moved_to is None  # a bare grid: nothing moves
    # From square (0, 0): intersection (7, 0) is 6 squares east, the centre (7.5, 0.5) 6.5.
    assert (7, 0) in e5 and (7, 7) in e5 and (6.5, 6.5) in e5 and (7.5, 0.5) not in e5 and (8, 0) not in e5
    assert (6, 6.5) not in e5 and not e5.mask[1::2, 0::2].any() and not e5.mask[0::2, 1::2].any()  # no edge middles
    assert e5.points()[:3] == [(0, 0), (1, 0), (2, 0)] and e5.points()[8] == (0.5, 0.5)
    assert len(e5) == 8 * 8 + 7 * 7  # intersections x, y in 0..7; centres in 0.5..6.5


def test_sw5e_needs_a_clear_path_and_savage_worlds_needs_sight():
    # A window: blocks effect, not sight. Fog: blocks sight, not effect.
    m = ag.BattleMap(ag.Grid(12, 3), walls=[ag.Wall((4, 0), (4, 3), kind="window")],
                     fog=[[(8, 0), (10, 0), (10, 3), (8, 3)]])
    caster = ag.Token(1, 1)
    e5 = ag.legal_origins(ag.Sphere(5), caster=caster, on=m, rules="sw5e")
    # Seen through the window: no clear path, and nothing moves what the caster sees.
    assert (3.5, 1.5) in e5 and (5.5, 1.5) not in e5 and (7, 2) not in e5
    assert e5.mask[:, 9:16].sum() == 0
    # In the fog the caster cannot see: behind the window, it comes into being on its near side.
    assert (9.5, 1.5) in e5 and e5.origin_of((9.5, 1.5)) == pytest.approx((4 - 1e-6, 1.5))
    sw = ag.legal_origins(ag.savage_worlds.SMALL_BLAST, caster=caster,
                          on=ag.BattleMap(ag.Grid(12, 3, units="in"), walls=m.walls, fog=m.fog), rules="savage-worlds")
    # Seen through the window; not into the fog, nor past it.
    assert (5.5, 1.5) in sw and (9.5, 1.5) not in sw and (11.5, 1.5) not in sw and (7.5, 1.5) in sw
    # need= overrides the preset: both channels.
    both = ag.legal_origins(ag.Sphere(5), caster=caster, on=m, rules="starfinder", need="both")
    assert both.mask[:, 5:].sum() == 0
    sight = ag.legal_origins(ag.Sphere(5), caster=caster, on=m, rules="starfinder", need="sight")
    assert (6, 1) in sight and (9, 1) not in sight


def test_pf2e_origins_and_a_door():
    walls = [ag.Wall((5, 0), (5, 2)), ag.Wall((5, 2), (5, 4), kind="door"), ag.Wall((5, 4), (5, 6))]
    m = ag.BattleMap(ag.Grid(10, 6), walls=walls)
    closed = ag.legal_origins(ag.Sphere(10), caster=ag.Token(1, 2), on=m, rules="pf2e")
    assert closed.mask[:, 6:].sum() == 0 and (5, 3) not in closed and (5, 2) in closed
    opened = ag.legal_origins(ag.Sphere(10), caster=ag.Token(1, 2), on=m.with_door(1, open=True), rules="pf2e")
    assert (5, 3) in opened and (8, 3) in opened


def test_cones_and_lines_start_at_the_caster():
    caster = ag.Token(3, 3, size="large")
    o = ag.legal_origins(ag.Cone(15, "E"), caster=caster, range=ag.Range("self"), on=ag.Grid(10, 10), rules="sw5e")
    assert o.lattice == "caster" and o.points() == [(4.0, 4.0)] and caster in o and len(o) == 1
    assert o.mask.sum() == 4 and o.mask[3:5, 3:5].all()
    with pytest.raises(ag.InvalidValueError, match=r"under sw5e a cone originates from its caster: its range is self"):
        ag.legal_origins(ag.Cone(15, "E"), caster=caster, range=60, on=ag.Grid(10, 10), rules="sw5e")


def test_check_origin_names_the_rule_broken_and_the_nearest_legal_origin():
    m = ag.BattleMap(ag.Grid(20, 6), walls=[ag.Wall((5, 0), (5, 4))])
    caster = ag.Token(1, 1)
    ok = ag.check_origin(ag.Sphere(10), (3, 3), caster=caster, range=30, on=m)
    assert ok.legal and ok.reason is None and ok.message == ""
    far = ag.check_origin(ag.Sphere(10), (14, 1), caster=caster, range=30, on=m)
    assert (far.reason, far.nearest) == ("out of range", (6, 5))
    assert far.nearest in ag.legal_origins(ag.Sphere(10), caster=caster, range=30, on=m)
    assert ag.check_origin(ag.Sphere(10), (5, 2), caster=caster, range=30, on=m).reason == "inside a wall"
    hidden = ag.check_origin(ag.Sphere(10), (7, 1), caster=caster, range=30, on=m)
    assert hidden.reason == "no line of effect"
    assert hidden.message == ("the caster has no line of effect to point of origin (7, 1); "
                              "the nearest legal origin is (5, 0)")
    off = ag.check_origin(ag.Sphere(10), (25, 1), caster=caster, on=m)
    assert off.reason == "off the map" and off.message.startswith("point of origin (25, 1) is off the 20 x 6 map")
    cone = ag.check_origin(ag.Cone(15), (3, 3), caster=caster, on=m)
    assert cone.reason == "not from the caster" and cone.nearest is caster
    assert ag.check_origin(ag.Cone(15), caster, caster=caster, on=m).legal


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"caster": ag.Token(30, 0)}, ag.OffGridError, r"caster \(space 30..31 x 0..1\) is not wholly on the 10 x 10 grid"),
        ({"caster": "wizard"}, ag.InvalidTypeError, r"caster must be an aoegrid.Token, a Space or an \(x, y\) point"),
        ({"on": "map"}, ag.InvalidTypeError, r"on must be an aoegrid.Grid or BattleMap, got 'map'"),
        ({"range": "far"}, ag.InvalidTypeError, r"range must be an aoegrid.Range or a number of feet, got 'far'"),
        ({"need": "smell"}, ag.InvalidValueError, r"unknown need 'smell'; valid choices are 'effect', 'sight', 'both'"),
    ],
)
def test_legal_origins_refuses_bad_arguments(kwargs, error, match):
    args = {"caster": ag.Token(1, 1), "range": 30, "on": ag.BattleMap(ag.Grid(10, 10)), "rules": "starfinder"}
    with pytest.raises(error, match=match):
        ag.legal_origins(ag.Sphere(10), **{**args, **kwargs})


# --- the best placement, by hand --------------------------------------------------


def battle():
    walls = [ag.Wall((10, 0), (10, 6)), ag.Wall((10, 9), (10, 16))]
    tokens = [
        ag.Token(13, 3, name="a", tags={"enemy"}), ag.Token(14, 4, name="b", tags={"enemy"}),
        ag.Token(12, 4, name="c", tags={"enemy"}), ag.Token(5, 12, name="d", tags={"enemy"}),
        ag.Token(6, 13, name="e", tags={"enemy"}), ag.Token(15, 5, name="ally", tags={"ally"}),
        ag.Token(6, 11, name="ogre", size="large", tags={"enemy"}),
    ]
    return ag.BattleMap(ag.Grid(20, 16), walls=walls, tokens=tokens)


def test_the_best_burst_avoids_the_ally_and_matches_brute_force():
    m = battle()
    wizard = ag.Token(3, 7, name="wizard", tags={"ally"})
    plans = ag.best_placements(ag.Sphere(10), caster=wizard, range=ag.Range("medium", level=5), on=m,
                               rules="starfinder", hit={"enemy"}, avoid={"ally"}, limit=5)
    best = plans[0]
    assert best.score == 3.0 and best.direction is None and best.avoided == ()
    assert sorted(r.token.name for r in best.hits) in (["a", "b", "c"], ["d", "e", "ogre"])
    assert best.area == ag.area(ag.Sphere(10), at=best.at, on=m)
    assert [r.token for r in best.hits] == [r.token for r in best.area.tokens() if "enemy" in r.token.tags]
    want = brute(ag.Sphere(10), wizard, ag.Range("medium", level=5), m, "starfinder", hit={"enemy"}, avoid={"ally"})
    assert [(p.at, p.score, len(p.avoided)) for p in plans] == [(w[1], float(w[3]), w[4]) for w in want[:5]]
    # Allowing one ally in: the bound falls to the brute-force answer too.
    loose = ag.best_placements(ag.Sphere(10), caster=wizard, range=150, on=m, hit={"enemy"}, avoid={"ally"}, max_avoid=1)
    assert loose[0].at == brute(ag.Sphere(10), wizard, 150, m, "starfinder", hit={"enemy"}, avoid={"ally"},
                                max_avoid=1)[0][1]
    scores = ag.placement_scores(ag.Sphere(10), caster=wizard, range=ag.Range("medium", level=5), on=m,
                                 hit={"enemy"}, avoid={"ally"})
    assert np.nanmax(scores) == 3.0 and scores.shape == (17, 21)
    assert np.isnan(scores[3, 10])  # inside the wall


def test_ties_break_by_avoided_then_distance_then_y_x_and_direction():
    # Two lone enemies the same distance from the caster: the upper one first.
    m = ag.BattleMap(ag.Grid(11, 11), tokens=[ag.Token(5, 1, tags={"enemy"}), ag.Token(5, 9, tags={"enemy"})])
    caster = ag.Token(5, 5)
    plans = ag.best_placements(ag.Sphere(5), caster=caster, range=50, on=m, hit="enemy", limit=20)
    assert all(p.score == 1.0 for p in plans[:8]) and plans[8].score == 0.0
    keys = [(p.distance, p.at[1], p.at[0]) for p in plans[:8]]
    assert keys == sorted(keys) and plans[0].at == (5, 2) and plans[0].distance == 15.0
    # Equal scores: fewer avoided first when avoid is allowed.
    m2 = ag.BattleMap(ag.Grid(11, 11), tokens=[ag.Token(5, 1, tags={"enemy"}), ag.Token(6, 1, tags={"ally"}),
                                               ag.Token(5, 9, tags={"enemy"})])
    p2 = ag.best_placements(ag.Sphere(5), caster=caster, range=50, on=m2, hit="enemy", avoid="ally", max_avoid=None, limit=3)
    assert [len(p.avoided) for p in p2] == [0, 0, 0] and p2[0].at == (5, 2)
    # Cones: equal scores go to the lowest direction.
    ring = ag.BattleMap(ag.Grid(11, 11), tokens=[ag.Token(8, 5, tags={"enemy"}), ag.Token(2, 5, tags={"enemy"})])
    cones = ag.best_placements(ag.Cone(15), caster=caster, on=ring, hit="enemy", directions=["W", "E", 90], limit=3)
    assert [(p.direction, p.score) for p in cones] == [(0.0, 1.0), (180.0, 1.0), (90.0, 0.0)]
    assert cones[0].at is caster and cones[0].shape == ag.Cone(15, 0)


def test_hit_and_avoid_take_tags_predicates_or_tokens():
    m = battle()
    wizard = ag.Token(3, 7)
    by_tags = ag.best_placements(ag.Sphere(10), caster=wizard, on=m, hit={"enemy"}, avoid={"ally"})[0]
    ally = m.token("ally")
    by_tokens = ag.best_placements(ag.Sphere(10), caster=wizard, on=m,
                                   hit=[t for t in m.tokens if "enemy" in t.tags], avoid=[ally])[0]
    by_predicate = ag.best_placements(ag.Sphere(10), caster=wizard, on=m, hit=lambda t: "enemy" in t.tags,
                                      avoid=lambda t: t.name == "ally")[0]
    assert by_tags.at == by_tokens.at == by_predicate.at
    with pytest.raises(ag.InvalidTypeError, match=r"hit must be tags \(a set of str\), a predicate on tokens, or tokens, not a mixture"):
        ag.best_placements(ag.Sphere(10), caster=wizard, on=m, hit=["enemy", ally])
    with pytest.raises(ag.InvalidTypeError, match=r"avoid must be tags \(a set of str\), a predicate on tokens, or tokens; got 3"):
        ag.best_placements(ag.Sphere(10), caster=wizard, on=m, hit="enemy", avoid=3)


def test_custom_score_with_and_without_a_bound():
    m = battle()
    wizard = ag.Token(3, 7)
    # Enemies in the open count double; in cover, once.
    def score(p):
        return sum(1.0 if r.cover else 2.0 for r in p.hits)

    def bound(c):
        return 2.0 * len(c.hits)

    exhaustive = ag.best_placements(ag.Sphere(10), caster=wizard, range=60, on=m, hit="enemy", score=score, limit=3)
    bounded = ag.best_placements(ag.Sphere(10), caster=wizard, range=60, on=m, hit="enemy", score=score, bound=bound,
                                 limit=3)
    assert [(p.at, p.score) for p in exhaustive] == [(p.at, p.score) for p in bounded]
    grid = ag.placement_scores(ag.Sphere(10), caster=wizard, range=60, on=m, hit="enemy", score=score)
    assert np.nanmax(grid) == exhaustive[0].score
    # The score sees the default score (the hits) on the placement.
    plain = ag.best_placements(ag.Sphere(10), caster=wizard, range=60, on=m, hit="enemy", score=lambda p: p.score)
    assert plain[0].at == ag.best_placements(ag.Sphere(10), caster=wizard, range=60, on=m, hit="enemy")[0].at
    # A bound below a score it meets is refused (one never met cannot be seen).
    with pytest.raises(ag.InvalidValueError, match=r"bound\(\) gave 1.5 for the placement at \(\d+, \d+\), which scored [3-6]: "
                       r"a bound must be at least the score"):
        ag.best_placements(ag.Sphere(10), caster=wizard, range=60, on=m, hit="enemy", score=score,
                           bound=lambda c: 0.5 * len(c.hits))
    with pytest.raises(ag.InvalidValueError, match=r"score must be a finite number, got nan"):
        ag.best_placements(ag.Sphere(10), caster=wizard, range=60, on=m, hit="enemy", score=lambda p: math.nan)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"hit": None}, ag.InvalidValueError, r"best_placements needs hit= \(tags, a predicate or tokens\) or score="),
        ({"limit": 0}, ag.InvalidValueError, r"limit must be a whole number, 1 or more; got 0"),
        ({"max_avoid": -1}, ag.InvalidValueError, r"max_avoid must be a whole number, 0 or more, or None for no limit; got -1"),
        ({"directions": [0, 90]}, ag.InvalidValueError, r"directions= is for cones and lines, aimed from their caster; a sphere"),
        ({"on": ag.Grid(10, 10)}, ag.InvalidTypeError, r"on must be an aoegrid.BattleMap"),
        ({"mode": "wave"}, ag.InvalidValueError, r"unknown mode 'wave'; valid choices are 'burst', 'emanation', 'spread'"),
    ],
)
def test_best_placements_refuses_bad_arguments(kwargs, error, match):
    args = {"caster": ag.Token(1, 1), "on": ag.BattleMap(ag.Grid(10, 10)), "hit": "enemy"}
    with pytest.raises(error, match=match):
        ag.best_placements(ag.Sphere(10), **{**args, **kwargs})


def test_directions_must_be_a_collection():
    m = ag.BattleMap(ag.Grid(10, 10))
    with pytest.raises(ag.InvalidTypeError, match=r"directions must be a collection of degrees or compass names, got 'E'"):
        ag.best_placements(ag.Cone(15), caster=ag.Token(1, 1), on=m, hit="enemy", directions="E")
    with pytest.raises(ag.InvalidValueError, match=r"directions is empty"):
        ag.best_placements(ag.Cone(15), caster=ag.Token(1, 1), on=m, hit="enemy", directions=[])
    with pytest.raises(ag.InvalidValueError, match=r"unknown direction 'up'"):
        ag.best_placements(ag.Cone(15), caster=ag.Token(1, 1), on=m, hit="enemy", directions=["up"])


def test_a_cone_from_a_caster_by_a_wall_skips_directions_starting_inside_it():
    # A wall along the top edge of the caster's square runs through its corners.
    m = ag.BattleMap(ag.Grid(8, 8), walls=[ag.Wall((0, 3), (8, 3))], tokens=[ag.Token(5, 1, tags={"enemy"})])
    caster = ag.Token(3, 3)
    scores = ag.placement_scores(ag.Cone(15), caster=caster, on=m, hit="enemy", directions=[0, 90, 270])
    want = {w[2]: w[3] for w in brute(ag.Cone(15), caster, None, m, "starfinder", hit="enemy", directions=[0, 90, 270])}
    got = {d: s for d, s in zip([0.0, 90.0, 270.0], scores) if not np.isnan(s)}
    assert got == want


# --- every origin the preset allows is searched (issue 17) ------------------------


def ring_of_enemies():
    """Eight enemies round the 2x2 block round (10, 10); the caster in square (2, 2)."""
    ring = [(9, 8), (10, 8), (8, 9), (11, 9), (8, 10), (11, 10), (9, 11), (10, 11)]
    caster = ag.Token(2, 2, name="caster")
    return ag.BattleMap(ag.Grid(20, 20), tokens=[caster, *(ag.Token(x, y, tags={"enemy"}) for x, y in ring)]), caster


def test_sw5e_searches_intersections_too_and_finds_the_burst_reaching_all_eight():
    m, caster = ring_of_enemies()
    # 5e puts a point of origin on an intersection (DMG p.251): (10, 10) reaches the whole ring.
    assert len(ag.area(ag.Sphere(10), at=(10, 10), on=m, rules="sw5e").tokens()) == 8
    assert ag.check_origin(ag.Sphere(10), (10, 10), caster=caster, on=m, rules="sw5e").legal
    plans = ag.best_placements(ag.Sphere(10), caster=caster, on=m, rules="sw5e", hit={"enemy"}, limit=3)
    assert [(p.at, p.score, p.distance, p.origin) for p in plans] == [
        ((10, 10), 8.0, 35.0, (10, 10)), ((9, 9), 4.0, 30.0, (9, 9)), ((9.5, 9.5), 4.0, 32.5, (9.5, 9.5))]
    scores = ag.placement_scores(ag.Sphere(10), caster=caster, on=m, rules="sw5e", hit={"enemy"})
    assert scores.shape == (41, 41) and scores[20, 20] == 8.0 and scores[19, 19] == 4.0   # (10, 10); (9.5, 9.5)
    assert np.isnan(scores[20, 19]) and np.nanmax(scores) == 8.0 and int(np.isfinite(scores).sum()) == 21 * 21 + 20 * 20
    # Savage Worlds templates sit anywhere: the same two lattices are searched.
    blast = ag.legal_origins(ag.savage_worlds.MEDIUM_BLAST, caster=caster, on=ag.Grid(20, 20, units="in"),
                             rules="savage-worlds")
    assert blast.lattices == ("intersections", "centers") and len(blast) == 21 * 21 + 20 * 20
    # Starfinder's lattice stays the intersections; a shapable area is laid out from one under any rules.
    assert ag.legal_origins(ag.Sphere(10), caster=caster, on=m).mask.shape == (21, 21)
    shapable = ag.legal_origins(ag.Shapable([(0, 0), (1, 0)], min_dimension=5), caster=caster, on=m, rules="sw5e")
    assert shapable.lattice == "intersections" and shapable.mask.shape == (21, 21)


def test_ties_between_the_lattices_break_by_distance_then_top_to_bottom_then_left_to_right():
    # One enemy in square (5, 5); the caster in square (0, 5). Points of both lattices interleave by (x, y).
    m = ag.BattleMap(ag.Grid(11, 11), tokens=[ag.Token(5, 5, tags={"enemy"})])
    plans = ag.best_placements(ag.Sphere(5), caster=ag.Token(0, 5), on=m, rules="sw5e", hit="enemy", limit=9)
    assert [(p.at, p.score, p.distance) for p in plans] == [
        ((5, 5), 1.0, 20.0), ((5, 6), 1.0, 20.0), ((5.5, 5.5), 1.0, 22.5), ((6, 5), 1.0, 25.0), ((6, 6), 1.0, 25.0),
        ((0, 5), 0.0, 0.0), ((1, 5), 0.0, 0.0), ((0.5, 5.5), 0.0, 0.0), ((0, 6), 0.0, 0.0)]


def test_sw5e_an_unseen_point_behind_a_wall_is_legal_and_scored_on_its_near_side():
    c = ag.Token(5, 4, name="c")
    enemies = [ag.Token(7, 4, name="near", tags={"enemy"}), ag.Token(7, 6, name="low", tags={"enemy"}),
               ag.Token(10, 6, name="behind", tags={"enemy"})]
    m = ag.BattleMap(ag.Grid(16, 10), [ag.Wall((8, 0), (8, 10))], tokens=[c, *enemies])
    fire = {"caster": c, "range": 60, "on": m, "rules": "sw5e"}
    moved = ag.area(ag.Sphere(10), at=(10.5, 6.5), **fire)
    assert len(moved) == 6 and [r.token.name for r in moved.tokens()] == ["near", "low"]
    o = ag.legal_origins(ag.Sphere(10), **fire)
    assert (10.5, 6.5) in o and o.origin_of((10.5, 6.5)) == moved.origin and o.moved_to.shape == (21, 33, 2)
    # Every point east of the wall is unseen and in range: all legal, all on the wall's near side.
    east = [p for p in o.points() if p[0] > 8]
    assert len(east) == 8 * 11 + 8 * 10 and all(o.origin_of(p)[0] < 8 for p in east)
    scores = ag.placement_scores(ag.Sphere(10), **fire, hit="enemy")
    assert scores[13, 21] == 2.0      # near and low, from the near side; not behind, out of the moved area
    plans = ag.best_placements(ag.Sphere(10), **fire, hit="enemy", limit=len(o))
    p = next(p for p in plans if p.at == (10.5, 6.5))
    assert (p.score, p.distance, p.origin) == (2.0, 22.5, moved.origin) and p.area == moved
    assert p.area == ag.area(ag.Sphere(10), at=p.origin, on=m, rules="sw5e")
    assert [(q.at, q.score, q.distance) for q in plans[:1]] == [((6.5, 5.5), 2.0, 2.5)]   # in view, nearer


def test_sw5e_a_near_side_inside_another_wall_is_no_origin():
    # The line north from the centre of c's space (2.5, 6.5) runs along a wall down x = 2.5 and meets
    # the wall across y = 4 where the two cross: just short of it lies inside the first.
    c = ag.Token(2, 6, name="c")
    m = ag.BattleMap(ag.Grid(8, 8), [ag.Wall((0, 4), (5, 4)), ag.Wall((2.5, 3), (2.5, 5))], tokens=[c])
    check = ag.check_origin(ag.Sphere(5), (2.5, 1.5), caster=c, on=m, rules="sw5e")
    assert (check.reason, check.nearest, check.origin) == ("inside a wall", (2, 1), None)
    assert check.message == ("point of origin (2.5, 1.5) comes into being at (2.5, 4), on the near side of a wall "
                             "and inside another; the nearest legal origin is (2, 1)")
    with pytest.raises(ag.IllegalOriginError, match=r"comes into being at \(2.5, 4\), on the near side of a wall"):
        ag.area(ag.Sphere(5), at=(2.5, 1.5), on=m, caster=c, rules="sw5e")
    o = ag.legal_origins(ag.Sphere(5), caster=c, on=m, rules="sw5e")
    assert (2.5, 1.5) not in o and (2, 1) in o and o.origin_of((2, 1))[1] == pytest.approx(4 + 1e-6)


# --- heights: origins searched above the ground, range in three dimensions ----------


def test_range_is_measured_in_three_dimensions_from_the_casters_prism():
    g = ag.Grid(20, 20)
    ground, flyer = ag.Token(0, 0), ag.Token(0, 0, elevation=20)  # prisms 0..5 and 20..25
    # A point within the caster's height is measured in the plane; above it, in 3D by the preset's diagonals.
    flat = ag.legal_origins(ag.Sphere(5), caster=ground, range=30, on=g)
    assert np.array_equal(ag.legal_origins(ag.Sphere(5), caster=ground, range=30, on=g, elevation=5).mask, flat.mask)
    up = ag.legal_origins(ag.Sphere(5), caster=ground, range=30, on=g, elevation=25)  # 20 ft (4 squares) above it
    assert up.elevation == 25 and (4, 0) in up and (5, 0) in up and (6, 0) not in up  # 4 + 4: 4 + 2 = 6 squares
    assert (7, 0) in flat
    # The flyer, 20 ft up, is 20 ft from every ground point under it; the same ball on the ground is farther.
    low = ag.legal_origins(ag.Sphere(5), caster=flyer, range=30, on=g)
    assert np.array_equal(low.mask, up.mask)
    assert np.array_equal(ag.legal_origins(ag.Sphere(5), caster=flyer, range=30, on=g, elevation=20).mask, flat.mask)
    # Euclidean and 5e's every-diagonal-one-square count in 3D too.
    e5 = ag.legal_origins(ag.Sphere(5), caster=ground, range=30, on=g, rules="sw5e", elevation=35)
    assert (7, 0) in e5 and (7, 7) in e5 and (8, 0) not in e5  # 30 ft above its head: one square over
    # check_origin and area(caster=, range=, elevation=) refuse what legal_origins leaves out.
    c = ag.check_origin(ag.Sphere(5), (6, 0), caster=ground, range=30, on=g, elevation=25)
    assert c.reason == "out of range" and c.message.startswith("point of origin (6, 0) is 35 ft from the caster")
    assert ag.check_origin(ag.Sphere(5), (5, 0), caster=ground, range=30, on=g, elevation=25).legal
    with pytest.raises(ag.IllegalOriginError, match="out of range|beyond its range"):
        ag.area(ag.Sphere(5), at=(6, 0), on=g, caster=ground, range=30, elevation=25)
    assert ag.in_range(ground, (6, 0), 30, "starfinder", g, elevation=25).distance == 35.0
    # A Space or a point stands on the ground, as tall as its space is wide.
    assert np.array_equal(ag.legal_origins(ag.Sphere(5), caster=ag.Space(0, 0), range=30, on=g, elevation=25).mask,
                          up.mask)


def flock():
    """Three enemies flying 30 ft up over squares (4..6, 4), one on the ground at (1, 8); an ally flying at 10."""
    tokens = [ag.Token(x, 4, name=f"bat{x}", tags={"enemy"}, elevation=30) for x in (4, 5, 6)]
    tokens += [ag.Token(1, 8, name="orc", tags={"enemy"}), ag.Token(8, 8, name="owl", tags={"ally"}, elevation=10)]
    return ag.BattleMap(ag.Grid(10, 10), walls=[ag.Wall((3, 6), (7, 6))], tokens=tokens)


def test_searching_heights_reaches_flyers_and_equals_brute_force():
    m = flock()
    caster = ag.Token(0, 4, name="mage", tags={"ally"})
    fire = {"caster": caster, "range": 60, "on": m, "hit": "enemy", "avoid": "ally"}
    ground = ag.best_placements(ag.Sphere(10), **fire)
    assert ground[0].score == 1.0 and ground[0].elevation == 0.0 and [r.token.name for r in ground[0].hits] == ["orc"]
    plans = ag.best_placements(ag.Sphere(10), **fire, elevation=range(0, 41, 5), limit=6)
    best = plans[0]
    assert (best.at, best.elevation, best.score, best.distance) == ((5, 4), 25.0, 3.0, 30.0)
    assert sorted(r.token.name for r in best.hits) == ["bat4", "bat5", "bat6"]
    assert best.area == ag.area(ag.Sphere(10), at=(5, 4), on=m, elevation=25) and best.area.elevation == 25.0
    want = brute(ag.Sphere(10), caster, 60, m, "starfinder", hit="enemy", avoid="ally", elevation=range(0, 41, 5))
    assert [(p.at, p.elevation, p.score, p.distance) for p in plans] == [
        (w[1], w[6], float(w[3]), w[0][2]) for w in want[:6]]
    # Scores: each point's best height; never below the ground's.
    flat = ag.placement_scores(ag.Sphere(10), **fire)
    high = ag.placement_scores(ag.Sphere(10), **fire, elevation=[0, 25, 30])
    assert high[4, 5] == 3.0 and flat[4, 5] == 0.0 and np.array_equal(np.fmax(high, flat), high, equal_nan=True)
    # One height given as a list is that height.
    assert [(p.at, p.elevation) for p in ag.best_placements(ag.Sphere(10), **fire, elevation=[25], limit=3)] == [
        (p.at, p.elevation) for p in ag.best_placements(ag.Sphere(10), **fire, elevation=25, limit=3)]


def test_heights_tie_to_the_ground_first_then_below_then_above():
    # No caster (no distance): a 20-ft ball reaches the lone enemy from 5 ft below, the ground or 5 ft up alike.
    m = ag.BattleMap(ag.Grid(3, 3), tokens=[ag.Token(1, 1, tags={"enemy"})])
    plans = ag.best_placements(ag.Sphere(20), caster=None, on=m, hit="enemy", elevation=(5, -5, 0), limit=100)
    assert all(p.score == 1.0 for p in plans) and len(plans) == 3 * 16
    assert [p.elevation for p in plans[::16]] == [0.0, -5.0, 5.0]
    assert [p.at for p in plans[:3]] == [(0, 0), (1, 0), (2, 0)]


def test_cones_are_aimed_at_each_height():
    m = flock()
    caster = ag.Token(0, 4, name="mage")
    kw = {"caster": caster, "on": m, "hit": "enemy", "directions": [0, 270]}
    assert ag.best_placements(ag.Cone(30), **kw)[0].score == 0.0  # the bats fly over a cone on the ground
    p = ag.best_placements(ag.Cone(30), **kw, elevation=[0, 15, 30])[0]
    assert (p.direction, p.elevation, p.score) == (0.0, 30.0, 3.0) and p.area.elevation == 30.0
    scores = ag.placement_scores(ag.Cone(30), **kw, elevation=[0, 15, 30])
    assert scores.tolist() == [3.0, 0.0]  # per direction, the best height's
    want = brute(ag.Cone(30), caster, None, m, "starfinder", hit="enemy", directions=[0, 270], elevation=[0, 15, 30])
    assert (want[0][2], want[0][6], want[0][3]) == (0.0, 30.0, 3)


def test_cones_and_lines_search_pitches_as_directions():
    m = flock()
    mage = ag.Token(2, 4, name="mage")
    kw = {"caster": mage, "on": m, "hit": "enemy", "directions": [0, 270]}
    assert ag.best_placements(ag.Cone(60), **kw)[0].score == 0.0  # level: the bats fly over it
    plans = ag.best_placements(ag.Cone(60), **kw, pitches=[60, 0, 45, -30], limit=3)
    assert [(p.direction, p.pitch, p.score) for p in plans] == [(0.0, 45.0, 3.0), (0.0, 60.0, 3.0), (270.0, 60.0, 3.0)]
    assert plans[0].shape == ag.Cone(60, 0, pitch=45) and plans[0].area == ag.area(ag.Cone(60, 0, pitch=45), at=mage,
                                                                                       on=m)
    assert ag.placement_scores(ag.Cone(60), **kw, pitches=[0, 45]).tolist() == [3.0, 0.0]  # per direction, best pitch
    want = brute(ag.Cone(60), mage, None, m, "starfinder", hit="enemy", directions=[0, 270], pitches=[60, 0, 45, -30])
    assert [(w[2], w[7], w[3]) for w in want[:3]] == [(0.0, 45.0, 3), (0.0, 60.0, 3), (270.0, 60.0, 3)]
    # Level first among equals, then down before up; a pitched shape given keeps its pitch by default.
    line = ag.best_placements(ag.Line(60, width=10), **kw, pitches=[-30, 30, 0], limit=6)
    assert [p.pitch for p in line if p.score == 0.0][:3] == [0.0, -30.0, 30.0]
    assert ag.best_placements(ag.Cone(60, pitch=45), **kw)[0].pitch == 45.0
    assert ag.best_placements(ag.Sphere(10), caster=mage, on=m, hit="enemy")[0].pitch is None


@pytest.mark.parametrize(
    ("shape", "pitches", "error", "match"),
    [
        (ag.Sphere(10), [0, 30], ag.InvalidValueError, r"pitches= is for cones and lines, aimed from their caster"),
        (ag.Cone(30), [], ag.InvalidValueError, r"pitches is empty"),
        (ag.Cone(30), 30, ag.InvalidTypeError, r"pitches must be a collection of degrees above the horizontal"),
        (ag.Line(30), [0, 100], ag.InvalidValueError, r"Line pitch must be from -90 to 90 degrees"),
    ],
)
def test_bad_pitches_are_refused(shape, pitches, error, match):
    with pytest.raises(error, match=match):
        ag.best_placements(shape, caster=ag.Token(2, 4), on=flock(), hit="enemy", pitches=pitches)


@pytest.mark.parametrize(
    ("elevation", "error", "match"),
    [
        ("high", ag.InvalidTypeError, r"elevation must be a height \(a number, in the grid's unit\) or a collection"),
        ([], ag.InvalidValueError, r"elevation is empty"),
        ([0, math.nan], ag.InvalidValueError, r"elevation"),
        ([0, "5"], ag.InvalidTypeError, r"elevation must be a number"),
    ],
)
def test_bad_heights_are_refused(elevation, error, match):
    m = flock()
    with pytest.raises(error, match=match):
        ag.best_placements(ag.Sphere(10), caster=ag.Token(0, 4), on=m, hit="enemy", elevation=elevation)
    with pytest.raises(error, match=match):
        ag.placement_scores(ag.Sphere(10), caster=ag.Token(0, 4), on=m, hit="enemy", elevation=elevation, move=5)


# --- exact against brute force on random maps -----------------------------------

FEET = ["starfinder", "pf2e", "sw5e"]


@st.composite
def scenes(draw, side=8):
    rules = draw(st.sampled_from([*FEET, "savage-worlds"]))
    inches = rules == "savage-worlds"
    w, h = draw(st.integers(3, side)), draw(st.integers(3, side))
    grid = ag.Grid(w, h, units="in" if inches else "ft")
    coord = st.integers(0, 2 * max(w, h)).map(lambda v: v / 2)
    walls = []
    for _ in range(draw(st.integers(0, 5))):
        a = (min(draw(coord), w), min(draw(coord), h))
        b = (min(draw(coord), w), min(draw(coord), h))
        if a == b:
            continue
        kind = draw(st.sampled_from(["wall", "wall", "door", "window"]))
        # Walls of every height, and now and then a low one (a parapet) that flyers and lines from above pass over.
        top = draw(st.sampled_from([math.inf, math.inf, math.inf, 1.0 if inches else 5.0]))
        walls.append(ag.Wall(a, b, kind=kind, open=kind == "door" and draw(st.booleans()),
                             one_way=draw(st.sampled_from([None, None, "left", "right"])), top=top))
    # Now and then a floor overhead: walls and floors only take squares and creatures away.
    floors = [ag.Floor([(0, 0), (w / 2, 0), (w / 2, h), (0, h)], elevation=2 * grid.square)] if draw(
        st.integers(0, 3)) == 0 else []
    tokens = []
    for n in range(draw(st.integers(0, 6))):
        size = draw(st.sampled_from(["medium", "medium", "large", "huge", (2, 1)]))
        fw, fh = ag.Token(0, 0, size=size).footprint
        if fw > w or fh > h:
            continue
        tags = draw(st.sampled_from([{"enemy"}, {"enemy"}, {"ally"}, {"enemy", "ally"}, set()]))
        tokens.append(ag.Token(draw(st.integers(0, w - fw)), draw(st.integers(0, h - fh)), size=size, name=f"t{n}",
                               tags=tags, elevation=draw(st.sampled_from([0.0, 0.0, 0.0, 5.0, 20.0]))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.AoegridWarning)  # tokens a wall runs through are fine here
        m = ag.BattleMap(grid, walls=walls, tokens=tokens, floors=floors)
    square = grid.square
    caster = ag.Token(draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1)), name="caster",
                      tags=draw(st.sampled_from([set(), {"ally"}])),
                      elevation=draw(st.sampled_from([0.0, 0.0, 0.0, 3 * square])))  # a flyer: range in 3D
    if inches:
        shape = draw(st.sampled_from([ag.savage_worlds.SMALL_BLAST, ag.savage_worlds.MEDIUM_BLAST,
                                      ag.Sphere(1.5, units="in"), ag.savage_worlds.CONE, ag.savage_worlds.STREAM]))
    else:
        size = 5.0 * draw(st.integers(1, 4))
        shape = draw(st.sampled_from([
            ag.Sphere(size), ag.Cylinder(size, 10), ag.Cone(size), ag.Line(size + 5),
            ag.Cube(size, draw(st.sampled_from([0, 90, 200])), anchor=draw(st.sampled_from(["center", "left"]))),
            ag.Shapable([(0, 0), (1, 0), (0, 1), (1, 1)], min_dimension=10),
        ]))
    aimed = isinstance(shape, (ag.Cone, ag.Line))
    rng = None if aimed else draw(st.sampled_from([None, 5.0, 10.0, 25.0]))
    return {
        "shape": shape, "caster": caster, "rng": rng, "m": m, "rules": rules,
        "mode": draw(st.sampled_from(["burst", "burst", "spread", "emanation"])),
        "max_avoid": draw(st.sampled_from([0, 0, 1, None])),
        "directions": [0, 45, 90, 160, 270, 315] if aimed else None,
        "pitches": draw(st.sampled_from([None, None, [0.0, 30.0, -45.0], [60.0, 90.0]])) if aimed else None,
        # One height, or several searched (the ground among them or not).
        "elevation": draw(st.sampled_from([0.0, 0.0, 5.0, [0.0, square, 4 * square], (3 * square, -square, 0.0),
                                           [2 * square, 4 * square]])),
    }


def searched(s):
    """The search options of a scene: hit the enemies, avoid the allies."""
    return {"rules": s["rules"], "mode": s["mode"], "hit": {"enemy"}, "avoid": {"ally"}, "max_avoid": s["max_avoid"],
            "directions": s["directions"], "elevation": s["elevation"], "pitches": s["pitches"]}


@settings(max_examples=120, deadline=None)
@given(scenes(), st.integers(1, 4))
def test_best_placements_and_scores_equal_brute_force(scene, limit):
    s = scene
    common = searched(s)
    want = brute(s["shape"], s["caster"], s["rng"], s["m"], s["rules"], s["mode"], {"enemy"}, {"ally"},
                 s["max_avoid"], s["directions"], s["elevation"], s["pitches"])
    plans = ag.best_placements(s["shape"], caster=s["caster"], range=s["rng"], on=s["m"], limit=limit, **common)
    got = [(p.at, p.direction if p.direction is not None else 0.0, p.score, len(p.avoided), p.elevation, p.distance,
            p.pitch or 0.0) for p in plans]
    assert got == [(w[1], w[2] if w[2] is not None else 0.0, float(w[3]), w[4], w[6], w[0][2], w[7])
                   for w in want[:limit]]
    assert all(p.area.elevation == p.elevation and p.pitch == getattr(p.shape, "pitch", None) for p in plans)
    # Where each came into being: moved to a wall's near side or not, as area() placed it.
    assert [p.origin if p.direction is None else p.origin.space for p in plans] == [w[5] for w in want[:limit]]
    scores = ag.placement_scores(s["shape"], caster=s["caster"], range=s["rng"], on=s["m"], **common)
    o = ag.legal_origins(s["shape"], caster=s["caster"], range=s["rng"], on=s["m"], rules=s["rules"])
    if o.lattice == "caster":  # per direction, the best height's
        dirs = sorted({ag.Cone(5, d).direction for d in s["directions"]})
        got_scores = {d: v for d, v in zip(dirs, scores) if not np.isnan(v)}
        assert got_scores == {d: float(max(w[3] for w in want if w[2] == d)) for d in {w[2] for w in want}}
    else:  # per point, the best height's
        expect = np.full(o.mask.shape, np.nan)
        for w in want:
            expect[cell(o, w[1])] = np.fmax(expect[cell(o, w[1])], w[3])
        assert np.array_equal(scores, expect, equal_nan=True)


@settings(max_examples=30, deadline=None)
@given(scenes(side=5))
def test_every_origin_area_accepts_on_the_lattices_is_searched(scene):
    """area(..., caster=, range=, elevation=) accepts a lattice point exactly when legal_origins(elevation=) holds it
    (range in three dimensions from a flying caster too), places it where legal_origins says it comes into being, and
    none of them, at any height searched, beats best_placements' best."""
    s = scene
    assume(not isinstance(s["shape"], (ag.Cone, ag.Line)))
    shape, caster, rng, m, rules = s["shape"], s["caster"], s["rng"], s["m"], s["rules"]
    options = {"caster": caster, "range": rng, "on": m, "rules": rules, "mode": s["mode"]}
    best = ag.best_placements(shape, **options, elevation=s["elevation"], hit={"enemy"}, avoid={"ally"},
                              max_avoid=s["max_avoid"])
    top = None
    for z in heights(s["elevation"]):
        o = ag.legal_origins(shape, caster=caster, range=rng, on=m, rules=rules, elevation=z)
        step = 1.0 if o.lattice == "intersections" else 0.5
        for j in range(o.mask.shape[0]):
            for i in range(o.mask.shape[1]):
                if step == 0.5 and (i + j) % 2:
                    continue  # an edge's middle: on no lattice searched
                p = (i * step, j * step)
                try:
                    a = ag.area(shape, at=p, **options, elevation=z)
                except ag.IllegalOriginError:
                    assert p not in o
                    continue
                assert p in o and o.origin_of(p) == a.origin
                reached = [r.token for r in a.tokens()]
                hits = sum("enemy" in t.tags for t in reached)
                if s["max_avoid"] is None or sum("ally" in t.tags for t in reached) <= s["max_avoid"]:
                    top = hits if top is None else max(top, hits)
    assert (best[0].score if best else None) == top


# --- move, then place (issue 19) -------------------------------------------------


def brute_moving(shape, caster, rng, m, rules, move, mode="burst", hit=None, avoid=None, max_avoid=0,
                 directions=None, elevation=0.0, score=None, need=None, pitches=None):
    """Every placement best_placements finds from every square the caster can reach, best first:
    (key, placement, stand square, cost); a point of origin once, from its best stand."""
    reach = move if isinstance(move, ag.Reach) else ag.reachable(caster, move, on=m, rules=rules)
    on_map = any(t is caster for t in m.tokens)
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.AoegridWarning)  # a wall through the moved caster is fine here
        for x, y in reach.squares:
            here = m.move_token(caster, x, y) if on_map else m
            cost = float(reach.cost[y, x])
            w, h = caster.footprint
            for p in ag.best_placements(shape, caster=caster.moved_to(x, y), range=rng, on=here, rules=rules,
                                        mode=mode, hit=hit, avoid=avoid, max_avoid=max_avoid, directions=directions,
                                        elevation=elevation, score=score, need=need, pitches=pitches,
                                        limit=100_000):
                ay, ax = (y + h / 2, x + w / 2) if isinstance(p.at, ag.Token) else (p.at[1], p.at[0])
                up = p.pitch or 0.0
                key = (-p.score, cost, len(p.avoided), p.distance, abs(p.elevation), p.elevation, ay, ax,
                       p.direction or 0.0, abs(up), up, y, x)
                rows.append((key, p, (x, y), cost))
    rows.sort(key=lambda r: r[0])
    if not isinstance(shape, (ag.Cone, ag.Line)):
        seen = set()
        rows = [r for r in rows if not ((r[1].at, r[1].elevation) in seen or seen.add((r[1].at, r[1].elevation)))]
    return rows


def brute_moving_scores(shape, caster, rng, m, rules, move, **options):
    """placement_scores from every square the caster can reach: per point the best (per square for cones)."""
    reach = ag.reachable(caster, move, on=m, rules=rules)
    on_map = any(t is caster for t in m.tokens)
    out = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.AoegridWarning)
        for x, y in reach.squares:
            here = m.move_token(caster, x, y) if on_map else m
            v = ag.placement_scores(shape, caster=caster.moved_to(x, y), range=rng, on=here, rules=rules, **options)
            if isinstance(shape, (ag.Cone, ag.Line)):
                out = np.full(m.grid.shape, np.nan) if out is None else out
                out[y, x] = np.nanmax(v) if np.isfinite(v).any() else np.nan
            else:
                out = v if out is None else np.fmax(out, v)
    return out


def summary(plans):
    """What must agree: the point (or the caster's square) and direction, score, avoided, distance, origin, height,
    pitch."""
    return [(p.at if not isinstance(p.at, ag.Token) else (p.at.x, p.at.y), p.direction, p.score, len(p.avoided),
             p.distance, p.origin if not isinstance(p.origin, ag.Token) else (p.origin.x, p.origin.y), p.elevation,
             p.pitch) for p in plans]


@st.composite
def moving_scenes(draw):
    """A scene of ``scenes()`` whose caster moves first: any size, on the map or not, over terrain, past fog."""
    s = draw(scenes(side=7))
    m = s["m"]
    w, h = m.grid.width, m.grid.height
    size = draw(st.sampled_from(["medium", "medium", "large", (2, 1)]))
    fw, fh = ag.Token(0, 0, size=size).footprint
    assume(fw <= w and fh <= h)
    caster = ag.Token(draw(st.integers(0, w - fw)), draw(st.integers(0, h - fh)), size=size, name="caster",
                      tags=draw(st.sampled_from([set(), {"ally"}, {"enemy"}])),
                      elevation=draw(st.sampled_from([0.0, 0.0, 0.0, 3 * m.grid.square])))  # flies as it moves
    tokens = list(m.tokens)
    if draw(st.booleans()):
        tokens.insert(draw(st.integers(0, len(tokens))), caster)
    terrain = None
    if draw(st.booleans()):
        terrain = np.array(draw(st.lists(st.sampled_from([0, 0, 0, 1, 2, 3]), min_size=w * h, max_size=w * h)),
                           dtype=np.int8).reshape(h, w)
    fog = []
    if draw(st.integers(0, 3)) == 0:  # sight-only walls: out of sight need not mean a wall ahead (SW5e)
        x0, y0 = draw(st.integers(0, 2 * w - 2)) / 2, draw(st.integers(0, 2 * h - 2)) / 2
        x1, y1 = x0 + draw(st.integers(1, 4)) / 2, y0 + draw(st.integers(1, 4)) / 2
        fog.append([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.AoegridWarning)
        m = ag.BattleMap(m.grid, walls=m.walls, tokens=tokens, terrain=terrain, fog=fog, floors=m.floors)
    square = m.grid.square
    # Short ranges, so that moving matters.
    rng = s["rng"] if s["rng"] is None else square * draw(st.sampled_from([0, 1, 1, 2, 3]))
    return {**s, "m": m, "caster": caster, "rng": rng, "move": square * draw(st.sampled_from([0, 1, 2, 3, 4])),
            "need": draw(st.sampled_from([None, None, None, "sight", "both"]))}


@settings(max_examples=80, deadline=None)
@given(moving_scenes(), st.integers(1, 3))
def test_move_then_place_equals_brute_force_from_every_reachable_square(scene, limit):
    s = scene
    options = {**searched(s), "need": s["need"]}
    try:
        ag.reachable(s["caster"], s["move"], on=s["m"], rules=s["rules"])
    except ag.InvalidValueError as e:  # the caster inside a wall or on impassable ground: the same error
        with pytest.raises(ag.InvalidValueError, match=re.escape(str(e))):
            ag.best_placements(s["shape"], caster=s["caster"], range=s["rng"], on=s["m"], move=s["move"], **options)
        return
    want = brute_moving(s["shape"], s["caster"], s["rng"], s["m"], move=s["move"], **options)
    got = ag.best_placements(s["shape"], caster=s["caster"], range=s["rng"], on=s["m"], move=s["move"], limit=limit,
                             **options)
    assert summary(got) == summary([r[1] for r in want[:limit]])
    assert [(p.stand.x, p.stand.y) for p in got] == [r[2] for r in want[:limit]]
    assert [p.cost for p in got] == [r[3] for r in want[:limit]]
    for p in got:  # the path ends where the caster stands, and costs what it says
        assert p.path[-1] == (p.stand.x, p.stand.y) and p.path[0] == (s["caster"].x, s["caster"].y)
        assert [(r.token.name, r.cover) for r in p.hits] == [(r.token.name, r.cover) for r in next(
            r[1] for r in want if r[1].at == p.at and r[1].elevation == p.elevation and r[2] == (p.stand.x, p.stand.y)
            and r[1].direction == p.direction and r[1].pitch == p.pitch).hits]
    scores = ag.placement_scores(s["shape"], caster=s["caster"], range=s["rng"], on=s["m"], move=s["move"], **options)
    expect = brute_moving_scores(s["shape"], s["caster"], s["rng"], s["m"], move=s["move"], **options)
    assert np.array_equal(scores, expect, equal_nan=True)


def cluster():
    """Four enemies in the 2 x 2 block (12..13, 2..3); a wizard in square (1, 3), 11 squares west."""
    enemies = [ag.Token(x, y, tags={"enemy"}) for x, y in [(12, 2), (13, 2), (12, 3), (13, 3)]]
    return enemies, ag.Token(1, 3, name="wizard", tags={"ally"})


def test_the_caster_moves_into_range_and_says_where_it_stands_how_and_at_what_cost():
    enemies, wizard = cluster()
    m = ag.BattleMap(ag.Grid(16, 7), tokens=enemies)
    fire = {"caster": wizard, "range": 30, "on": m, "hit": "enemy"}
    assert ag.best_placements(ag.Sphere(5), **fire)[0].score == 0.0  # (13, 3) is 55 ft away
    plans = ag.best_placements(ag.Sphere(5), **fire, move=30, limit=3)
    # (13, 3) reaches all four from 30 ft: 5 squares east, one of them diagonal (25 ft). Squares (6, 2),
    # (6, 3) and (6, 4) cost as much and stand as far: the topmost.
    best = plans[0]
    assert (best.at, best.score, best.cost, best.distance) == ((13, 3), 4.0, 25.0, 30.0)
    assert best.stand == wizard.moved_to(6, 2)
    assert best.path == ((1, 3), (2, 3), (3, 3), (4, 2), (5, 2), (6, 2))
    assert best.area == ag.area(ag.Sphere(5), at=(13, 3), on=m)
    assert ag.check_origin(ag.Sphere(5), best.at, caster=best.stand, range=30, on=m).legal
    # Equal scores: fewer feet moved first, though (13, 2) lies higher.
    assert [(p.at, p.score, p.cost, (p.stand.x, p.stand.y)) for p in plans[1:]] == [
        ((12, 3), 2.0, 20.0, (5, 2)), ((13, 2), 2.0, 25.0, (6, 2))]
    # Standing still, nothing moves: the placements of the search without move=.
    still = ag.best_placements(ag.Sphere(5), **{**fire, "range": 60}, move=0, limit=2)
    plain = ag.best_placements(ag.Sphere(5), **{**fire, "range": 60}, limit=2)
    assert [(p.at, p.score, p.distance) for p in still] == [(p.at, p.score, p.distance) for p in plain]
    assert all(p.cost == 0.0 and p.path == ((1, 3),) and p.stand == wizard for p in still)
    assert all(p.stand is None and p.path == () and p.cost == 0.0 for p in plain)


def test_walls_and_terrain_the_caster_walks_round():
    enemies, wizard = cluster()
    # A wall from (4, 1) down the map: round its top end, 30 ft leaves the block out of range.
    walled = ag.BattleMap(ag.Grid(16, 7), walls=[ag.Wall((4, 1), (4, 7))], tokens=enemies)
    p = ag.best_placements(ag.Sphere(5), caster=wizard, range=30, on=walled, hit="enemy", move=30)[0]
    assert (p.at, p.score, p.cost, (p.stand.x, p.stand.y)) == ((12, 3), 2.0, 30.0, (5, 1))
    assert p.path == ((1, 3), (1, 2), (2, 1), (3, 0), (4, 0), (5, 1))
    # Mud over squares x 2..4, y 1..4: round it, below.
    muddy = ag.BattleMap(ag.Grid(16, 7), tokens=enemies, terrain={"difficult": [(2, 1), (5, 1), (5, 5), (2, 5)]})
    way = ((1, 3), (1, 4), (2, 5), (3, 5), (4, 5), (5, 4), (6, 3))
    for rules, cost in [("starfinder", 35.0), ("pf2e", 35.0), ("sw5e", 30.0)]:
        p = ag.best_placements(ag.Sphere(5), caster=wizard, range=30, on=muddy, rules=rules, hit="enemy", move=40)[0]
        assert (p.at, p.score, p.cost, p.stand.x, p.stand.y, p.path) == ((13, 3), 4.0, cost, 6, 3, way), rules
        assert p.cost == ag.reachable(wizard, 40, on=muddy, rules=rules).cost[3, 6]


def test_a_flying_caster_moves_over_a_parapet_a_caster_on_the_ground_cannot_cross():
    orc = ag.Token(13, 1, name="orc", tags={"enemy"})
    m = ag.BattleMap(ag.Grid(16, 3), walls=[ag.Wall((4, 0), (4, 3), top=3)], tokens=[orc])  # 3 ft tall, wall to wall
    walker, flyer = ag.Token(1, 1, name="walker"), ag.Token(1, 1, name="flyer", elevation=10)
    # On the ground: the 12 squares x 0..3 left of the parapet; from none does a 30-ft range reach the orc.
    assert len(ag.reachable(walker, 30, on=m)) == 12
    assert ag.best_placements(ag.Sphere(5), caster=walker, range=30, on=m, hit="enemy", move=30)[0].score == 0.0
    # At 10 ft it keeps its height over the parapet: 24 squares, x 0..7; from (7, 0) the orc is in range.
    assert len(ag.reachable(flyer, 30, on=m)) == 24
    p = ag.best_placements(ag.Sphere(5), caster=flyer, range=30, on=m, hit="enemy", move=30)[0]
    assert (p.at, p.score, p.cost, (p.stand.x, p.stand.y), p.stand.elevation) == ((13, 1), 1.0, 30.0, (7, 0), 10.0)
    assert [r.token for r in p.hits] == [orc]


def test_the_caster_on_the_map_moves_out_of_its_own_burst():
    me = ag.Token(2, 2, name="me", tags={"ally"})
    m = ag.BattleMap(ag.Grid(8, 6), tokens=[ag.Token(1, 2, name="a", tags={"enemy"}), me,
                                             ag.Token(4, 2, name="b", tags={"enemy"})])
    fire = {"caster": me, "range": 30, "on": m, "hit": "enemy", "avoid": "ally"}
    # Where it stands, a burst reaching both enemies reaches the caster too.
    assert ag.best_placements(ag.Sphere(10), **fire)[0].score == 1.0
    assert ag.best_placements(ag.Sphere(10), **fire, max_avoid=None)[0].avoided[0].token == me
    p = ag.best_placements(ag.Sphere(10), **fire, move=10)[0]
    assert (p.at, p.score, p.avoided, p.cost, p.path) == ((3, 2), 2.0, (), 5.0, ((2, 2), (1, 3)))
    assert [r.token.name for r in p.hits] == ["a", "b"]
    # Allowing it in, it need not move; the caster is then among the avoided, where it stands.
    q = ag.best_placements(ag.Sphere(10), **fire, move=10, max_avoid=1)[0]
    assert (q.score, q.cost, [r.token for r in q.avoided]) == (2.0, 0.0, [me])


def test_sw5e_a_point_hidden_from_where_the_caster_stands_comes_into_being_on_the_near_side():
    # From square (2, 2), reached for 10 ft, (1.5, 3.5) lies behind the wall: its sphere comes into being on
    # the wall's near side, and nearer than any point in view reaching the enemy there.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.AoegridWarning)  # the wall runs through the tokens' corner
        m = ag.BattleMap(ag.Grid(3, 4), walls=[ag.Wall((2, 3.5), (0, 0))],
                         tokens=[ag.Token(1, 0, tags={"enemy"}), ag.Token(0, 0, tags={"enemy"}),
                                 ag.Token(0, 0, tags={"ally"})])
    c = ag.Token(0, 0, name="caster")
    fire = {"caster": c, "on": m, "rules": "sw5e", "hit": "enemy", "avoid": "ally", "move": 10}
    plans = ag.best_placements(ag.Sphere(15), **fire, limit=3)
    want = brute_moving(ag.Sphere(15), c, None, m, "sw5e", 10, hit="enemy", avoid="ally")
    assert summary(plans) == summary([w[1] for w in want[:3]])
    hidden = plans[1]
    assert (hidden.at, hidden.score, hidden.cost, hidden.stand.x, hidden.stand.y) == ((1.5, 3.5), 1.0, 10.0, 2, 2)
    assert hidden.origin == ag.check_origin(ag.Sphere(15), (1.5, 3.5), caster=hidden.stand, on=m, rules="sw5e").origin
    assert hidden.origin != hidden.at and hidden.area == ag.area(ag.Sphere(15), at=hidden.origin, on=m, rules="sw5e")


def test_cones_are_aimed_from_every_square_the_caster_can_reach():
    m = ag.BattleMap(ag.Grid(10, 8), tokens=[ag.Token(6, 5, tags={"enemy"}), ag.Token(7, 5, tags={"enemy"}),
                                              ag.Token(7, 6, tags={"enemy"})])
    c = ag.Token(1, 1, name="c")
    eight = range(0, 360, 45)
    assert ag.best_placements(ag.Cone(15), caster=c, on=m, hit="enemy", directions=eight)[0].score == 0.0
    plans = ag.best_placements(ag.Cone(15), caster=c, on=m, hit="enemy", move=30, directions=eight, limit=3)
    assert [(p.at, p.direction, p.score, p.cost) for p in plans] == [
        (c.moved_to(5, 4), 0.0, 3.0, 25.0), (c.moved_to(5, 4), 45.0, 3.0, 25.0), (c.moved_to(4, 5), 0.0, 3.0, 25.0)]
    assert plans[0].path == ((1, 1), (2, 2), (3, 3), (4, 4), (5, 4)) and plans[0].stand is plans[0].at
    assert plans[0].area == ag.area(ag.Cone(15, 0), at=c.moved_to(5, 4), on=m)
    # The heat map: per square the caster can reach (its top-left square), the best direction's score.
    heat = ag.placement_scores(ag.Cone(15), caster=c, on=m, hit="enemy", move=20, directions=eight)
    assert heat.shape == (8, 10) and np.isnan(heat[5, 3]) and np.isnan(heat[0, 6])  # out of reach
    assert heat[1, 1] == 0.0 and heat[4, 4] == 2.0 and np.nanmax(heat) == 2.0
    reach = ag.reachable(c, 20, on=m)
    assert np.array_equal(np.isfinite(heat), reach.mask)


def test_placement_scores_with_move_is_the_best_score_from_any_square_reached():
    enemies, wizard = cluster()
    m = ag.BattleMap(ag.Grid(16, 7), walls=[ag.Wall((4, 1), (4, 7))], tokens=enemies)
    fire = {"caster": wizard, "range": 30, "on": m, "hit": "enemy"}
    heat = ag.placement_scores(ag.Sphere(5), **fire, move=30)
    assert np.array_equal(heat, brute_moving_scores(ag.Sphere(5), wizard, 30, m, "starfinder", 30, hit="enemy"),
                          equal_nan=True)
    still = ag.placement_scores(ag.Sphere(5), **fire)
    assert heat.shape == still.shape == (8, 17)
    assert np.isfinite(heat).sum() > np.isfinite(still).sum() and np.all(heat[np.isfinite(still)] >= 0)
    assert heat[3, 12] == 2.0 and np.isnan(heat[3, 13])  # (12, 3) from (5, 1); (13, 3) out of range of all


def test_no_caster_places_the_effect_anywhere():
    enemies, _ = cluster()
    m = ag.BattleMap(ag.Grid(16, 7), walls=[ag.Wall((4, 1), (4, 7))], tokens=enemies)
    trap = ag.best_placements(ag.Sphere(5), caster=None, on=m, hit="enemy", limit=2)
    assert [(p.at, p.score, p.distance, p.stand) for p in trap] == [((13, 3), 4.0, 0.0, None), ((13, 2), 2.0, 0.0, None)]
    o = ag.legal_origins(ag.Sphere(5), caster=None, on=m)
    assert o.caster is None and o.moved_to is None and o.refused == {"inside a wall": 5}
    assert len(o) == 17 * 8 - 5 and (4, 3) not in o and (4, 1) in o  # the wall's end is fine
    scores = ag.placement_scores(ag.Sphere(5), caster=None, on=m, hit="enemy")
    assert np.array_equal(np.isfinite(scores), o.mask) and scores[3, 13] == 4.0
    # Under SW5e every intersection and centre off the wall, nothing moved to a near side.
    e5 = ag.legal_origins(ag.Sphere(5), caster=None, on=m, rules="sw5e")
    assert e5.moved_to is None and len(e5) == 17 * 8 - 5 + 16 * 7
    assert ag.best_placements(ag.Sphere(5), caster=None, on=m, rules="sw5e", hit="enemy")[0].at == (13, 3)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"move": -5}, ag.InvalidValueError, r"move must be 0 or more, got -5"),
        ({"move": math.inf}, ag.InvalidValueError, r"move must be a finite number, got inf"),
        ({"move": math.nan}, ag.InvalidValueError, r"move must be a finite number, got nan"),
        ({"move": "far"}, ag.InvalidTypeError, r"move must be a number, got 'far'"),
        ({"move": 30, "caster": None}, ag.InvalidValueError,
         r"move= moves the caster .* with caster=None .* there is no one to move; got move=30"),
        ({"move": 30, "caster": ag.Space(1, 1)}, ag.InvalidTypeError,
         r"move= moves the caster .* pass the caster as an aoegrid.Token .*, not Space\(x=1, y=1"),
        ({"move": 30, "caster": ag.Token(30, 0)}, ag.OffGridError,
         r"caster \(space 30..31 x 0..1\) is not wholly on the 10 x 10 grid"),
        ({"move": 30, "caster": ag.Token(5, 5, name="wiz")}, ag.InvalidValueError,
         r"creature wiz stands inside a wall: a wall blocking movement runs through the centre of square \(5, 5\)"),
        ({"move": ag.reachable(ag.Token(2, 2), 30, on=ag.Grid(10, 10))}, ag.InvalidValueError,
         r"move= is a Reach from \(2, 2\) for a 1 x 1 space, not the caster's"),
        ({"caster": None, "range": 30}, ag.InvalidValueError,
         r"range= is what a caster needs .* with caster=None .* give none; got range=30"),
        ({"caster": None, "need": "sight"}, ag.InvalidValueError, r"with caster=None .* got need='sight'"),
        ({"caster": None, "shape": ag.Cone(15)}, ag.InvalidValueError,
         r"a cone starts at its caster: caster=None .* is for shapes placed at a point"),
    ],
)
def test_move_and_no_caster_refuse_bad_arguments(kwargs, error, match):
    m = ag.BattleMap(ag.Grid(10, 10), walls=[ag.Wall((5.5, 0), (5.5, 8))])
    args = {"shape": ag.Sphere(10), "caster": ag.Token(1, 1), "on": m, "hit": "enemy", **kwargs}
    shape = args.pop("shape")
    for search in (ag.best_placements, ag.placement_scores):
        with pytest.raises(error, match=match):
            search(shape, **args)


def test_a_reach_given_as_move_takes_its_movement_options():
    # An ally blocks the corridor unless the caster may move through no one's space.
    c = ag.Token(0, 1, name="c", tags={"ally"})
    m = ag.BattleMap(ag.Grid(12, 3), walls=[ag.Wall((0, 1), (8, 1)), ag.Wall((0, 2), (8, 2))],
                     tokens=[c, ag.Token(2, 1, name="friend", tags={"ally"}), ag.Token(11, 1, tags={"enemy"})])
    fire = {"caster": c, "range": 20, "on": m, "hit": "enemy"}
    through = ag.best_placements(ag.Sphere(5), **fire, move=30)[0]
    assert (through.score, through.stand.x) == (1.0, 6)
    alone = ag.reachable(c, 30, on=m, through="none")
    blocked = ag.best_placements(ag.Sphere(5), **fire, move=alone)[0]
    assert (blocked.score, blocked.cost) == (0.0, 0.0) and alone.squares == [(0, 1), (1, 1)]


@pytest.mark.parametrize("aimed", [False, True])
def test_a_custom_score_with_move_sees_each_stand_and_equals_brute_force(aimed):
    enemies, wizard = cluster()
    if aimed:  # the enemies of the cone test, three squares from a caster moved 25 ft
        shape, rng, extra = ag.Cone(15), None, {"directions": [0, 45, 90]}
        enemies = [ag.Token(6, 5, tags={"enemy"}), ag.Token(7, 5, tags={"enemy"}), ag.Token(7, 6, tags={"enemy"})]
        wizard = ag.Token(1, 1, name="wizard", tags={"ally"})
        m = ag.BattleMap(ag.Grid(10, 8), tokens=[wizard, *enemies])
    else:
        shape, rng, extra = ag.Sphere(5), 30, {}
        m = ag.BattleMap(ag.Grid(16, 7), walls=[ag.Wall((4, 1), (4, 7))], tokens=[wizard, *enemies])

    def score(p):  # hits count double, each foot away from the caster costs a little
        return 2.0 * len(p.hits) - p.distance / 100

    want = brute_moving(shape, wizard, rng, m, "starfinder", 30, hit="enemy", score=score, **extra)
    assert want[0][1].score > 3 and want[0][3] > 0  # the caster has to move for it
    fire = {"caster": wizard, "range": rng, "on": m, "hit": "enemy", "move": 30, "score": score, **extra}
    for bound in (None, lambda c: 2.0 * len(c.hits)):
        got = ag.best_placements(shape, **fire, bound=bound, limit=3)
        assert summary(got) == summary([w[1] for w in want[:3]])
        assert [(p.stand.x, p.stand.y, p.cost) for p in got] == [(*w[2], w[3]) for w in want[:3]]
    heat = ag.placement_scores(shape, **fire)
    expect = brute_moving_scores(shape, wizard, rng, m, "starfinder", 30, hit="enemy", score=score, **extra)
    assert np.array_equal(heat, expect, equal_nan=True)
    with pytest.raises(ag.InvalidValueError, match=r"a bound must be at least the score"):
        ag.best_placements(shape, **fire, bound=lambda c: 0.5)


def test_moving_casters_judge_lines_over_short_walls_and_through_floors_as_standing_ones() -> None:
    # A floor at 10 ft over the whole map: no line from the ground reaches an origin 20 ft up, moving or not.
    floored = ag.BattleMap(ag.Grid(10, 10), floors=[ag.Floor([(0, 0), (10, 0), (10, 10), (0, 10)], 10)],
                           tokens=[ag.Token(5, 5, tags={"enemy"}, elevation=20), ag.Token(2, 2, name="c")])
    for move in (None, 10):
        assert ag.best_placements(ag.Sphere(5), caster=floored.token("c"), range=100, on=floored, hit="enemy",
                                  elevation=20, move=move) == []
    # A 5-ft wall: the origin 10 ft up beyond it is seen over it, from where the caster stands (no move needed).
    low = ag.BattleMap(ag.Grid(10, 10), walls=[ag.Wall((4, 0), (4, 10), top=5)],
                       tokens=[ag.Token(6, 5, tags={"enemy"}, elevation=10), ag.Token(2, 5, name="c")])
    still = ag.best_placements(ag.Sphere(5), caster=low.token("c"), range=100, on=low, hit="enemy", elevation=10)
    moved = ag.best_placements(ag.Sphere(5), caster=low.token("c"), range=100, on=low, hit="enemy", elevation=10,
                               move=5)
    assert [(p.at, p.score) for p in still] == [((6, 5), 1.0)]
    assert [(p.at, p.score, p.cost, p.elevation) for p in moved] == [((6, 5), 1.0, 0.0, 10.0)]
