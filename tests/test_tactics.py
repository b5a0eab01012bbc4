"""Tactics: legal origins per preset, the best placement, score maps, exact against brute force."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.ranges import space_distances
from aoegrid.rules import resolve_rules
from aoegrid.tactics import DIRECTIONS

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


def brute(shape, caster, rng, m, rules, mode="burst", hit=None, avoid=None, max_avoid=0, directions=None,
          elevation=0.0):
    """Every acceptable placement as (key, at, direction, hits, avoided, origin), best first.

    Each is ``ag.area`` where the legal origin comes into being (SW5e moves an
    unseen one to a wall's near side): what ``ag.area(..., caster=, range=)``
    builds, as test_every_origin_area_accepts_on_the_lattices_is_searched holds.
    """
    o = ag.legal_origins(shape, caster=caster, range=rng, on=m, rules=rules)
    is_hit, is_avoid = _pick(hit), _pick(avoid)
    out = []

    def add(a, at, d, dist, x, y):
        reached = a.tokens()
        h = [r.token for r in reached if is_hit(r.token)]
        av = [r.token for r in reached if is_avoid(r.token)]
        if max_avoid is None or len(av) <= max_avoid:
            out.append(((-len(h), len(av), dist, y, x, d), at, d, len(h), len(av), a.origin))

    if o.lattice == "caster":
        cx, cy = o.caster.center
        for d in sorted({ag.Cone(5, x).direction for x in (directions or DIRECTIONS)}):
            try:
                a = ag.area(shape.replace(direction=d), at=caster, on=m, rules=rules, mode=mode, elevation=elevation,
                            caster=caster, range=rng)
            except ag.OriginOnWallError:
                continue
            add(a, caster, d, 0.0, cx, cy)
    else:
        r = resolve_rules(rules)
        for p in o.points():
            a = ag.area(shape, at=o.origin_of(p), on=m, rules=rules, mode=mode, elevation=elevation)
            add(a, p, 0.0, float(space_distances(o.caster, p[0], p[1], r, m.grid)), p[0], p[1])
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
        walls.append(ag.Wall(a, b, kind=kind, open=kind == "door" and draw(st.booleans()),
                             one_way=draw(st.sampled_from([None, None, "left", "right"]))))
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
        m = ag.BattleMap(grid, walls=walls, tokens=tokens)
    caster = ag.Token(draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1)), name="caster",
                      tags=draw(st.sampled_from([set(), {"ally"}])))
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
        "elevation": draw(st.sampled_from([0.0, 0.0, 5.0])),
    }


@settings(max_examples=120, deadline=None)
@given(scenes(), st.integers(1, 4))
def test_best_placements_and_scores_equal_brute_force(scene, limit):
    s = scene
    common = {"rules": s["rules"], "mode": s["mode"], "hit": {"enemy"}, "avoid": {"ally"},
              "max_avoid": s["max_avoid"], "directions": s["directions"], "elevation": s["elevation"]}
    want = brute(s["shape"], s["caster"], s["rng"], s["m"], s["rules"], s["mode"], {"enemy"}, {"ally"},
                 s["max_avoid"], s["directions"], s["elevation"])
    plans = ag.best_placements(s["shape"], caster=s["caster"], range=s["rng"], on=s["m"], limit=limit, **common)
    got = [(p.at, p.direction if p.direction is not None else 0.0, p.score, len(p.avoided)) for p in plans]
    assert got == [(w[1], w[2] if w[2] is not None else 0.0, float(w[3]), w[4]) for w in want[:limit]]
    # Where each came into being: moved to a wall's near side or not, as area() placed it.
    assert [p.origin if p.direction is None else p.origin.space for p in plans] == [w[5] for w in want[:limit]]
    scores = ag.placement_scores(s["shape"], caster=s["caster"], range=s["rng"], on=s["m"], **common)
    o = ag.legal_origins(s["shape"], caster=s["caster"], range=s["rng"], on=s["m"], rules=s["rules"])
    if o.lattice == "caster":
        dirs = sorted({ag.Cone(5, d).direction for d in s["directions"]})
        got_scores = {d: v for d, v in zip(dirs, scores) if not np.isnan(v)}
        assert got_scores == {w[2]: float(w[3]) for w in want}
    else:
        expect = np.full(o.mask.shape, np.nan)
        for w in want:
            expect[cell(o, w[1])] = w[3]
        assert np.array_equal(scores, expect, equal_nan=True)


@settings(max_examples=30, deadline=None)
@given(scenes(side=5))
def test_every_origin_area_accepts_on_the_lattices_is_searched(scene):
    """area(..., caster=, range=) accepts a lattice point exactly when legal_origins holds it, places it where
    legal_origins says it comes into being, and none of them beats best_placements' best."""
    s = scene
    assume(not isinstance(s["shape"], (ag.Cone, ag.Line)))
    shape, caster, rng, m, rules = s["shape"], s["caster"], s["rng"], s["m"], s["rules"]
    o = ag.legal_origins(shape, caster=caster, range=rng, on=m, rules=rules)
    step = 1.0 if o.lattice == "intersections" else 0.5
    options = {"caster": caster, "range": rng, "on": m, "rules": rules, "mode": s["mode"], "elevation": s["elevation"]}
    best = ag.best_placements(shape, **options, hit={"enemy"}, avoid={"ally"}, max_avoid=s["max_avoid"])
    top = None
    for j in range(o.mask.shape[0]):
        for i in range(o.mask.shape[1]):
            if step == 0.5 and (i + j) % 2:
                continue  # an edge's middle: on no lattice searched
            p = (i * step, j * step)
            try:
                a = ag.area(shape, at=p, **options)
            except ag.IllegalOriginError:
                assert p not in o
                continue
            assert p in o and o.origin_of(p) == a.origin
            reached = [r.token for r in a.tokens()]
            hits = sum("enemy" in t.tags for t in reached)
            if s["max_avoid"] is None or sum("ally" in t.tags for t in reached) <= s["max_avoid"]:
                top = hits if top is None else max(top, hits)
    assert (best[0].score if best else None) == top
