"""Threat maps: where some caster can reach a creature, after moving; exact against brute force."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.planning.tactics import DIRECTIONS


def digits(text):
    """An int array from rows of digits, one a square."""
    return np.array([[int(c) for c in row.split()] for row in text.strip().splitlines()])


def spared_by(sel):
    if sel is None:
        return lambda t: False
    if isinstance(sel, str):
        return lambda t: sel in t.tags
    return lambda t: bool(t.tags & set(sel))


def brute(shape, casters, m, rules="starfinder", rng=None, move=None, mode="burst", at=None, size="medium",
          spare=None, max_spared_hit=0, directions=None, pitches=None, elevation=0.0, creature_elevation=0.0):
    """The issue's brute force: over every caster, square it can move to (keeping its elevation), height and
    legal placement from there (every direction and pitch of a cone or line), the area built with ag.area (the
    caster moved there on the map); a creature of ``size`` at ``creature_elevation`` is reached where the
    area's tokens() take a probe token of it standing there. Returns the count, each caster's squares and the
    fewest spared creatures hit."""
    g = m.grid
    is_spared = spared_by(spare)
    aimed = at == "caster" or isinstance(shape, (ag.Cone, ag.Line))
    cone = isinstance(shape, (ag.Cone, ag.Line))
    turns = sorted({ag.Cone(5, d).direction for d in (directions or DIRECTIONS)}) if cone else [None]
    ups = [None] if not cone else [shape.pitch] if pitches is None else list(pitches)
    heights = [elevation] if np.isscalar(elevation) else list(elevation)
    fw, fh = ag.Token(0, 0, size=size).footprint
    by_caster, fewest_all = {}, np.full(g.shape, np.inf)
    for c in casters:
        on_map = any(t is c or t == c for t in m.tokens)
        stands = [(c.x, c.y)] if move is None else ag.reachable(c, move, on=m, rules=rules).squares
        space = np.full(g.shape, np.inf)
        for x, y in stands:
            me = c.moved_to(x, y)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ag.AoegridWarning)
                here = m.with_token(c, me) if on_map else m
            areas = []
            for z in heights:
                if aimed:
                    for d in turns:
                        for up in ups:
                            turned = shape if d is None else shape.replace(direction=d, pitch=up)
                            try:
                                areas.append(ag.area(turned, at=me, on=here, rules=rules, mode=mode, elevation=z))
                            except ag.OriginOnWallError:
                                pass
                else:
                    o = ag.legal_origins(shape, caster=me, range=rng, on=here, rules=rules, elevation=z)
                    areas += [ag.area(shape, at=o.origin_of(p), on=here, rules=rules, mode=mode, elevation=z)
                              for p in o.points()]
            for a in areas:
                hit = sum(is_spared(r.token) for r in a.tokens()) if spare is not None else 0
                for ty in range(g.height - fh + 1):
                    for tx in range(g.width - fw + 1):
                        if space[ty, tx] > hit and a.mask[ty : ty + fh, tx : tx + fw].any():
                            probe = ag.Token(tx, ty, size=size, elevation=creature_elevation)
                            if a.tokens(tokens=[probe]):
                                space[ty, tx] = hit
        np.minimum(fewest_all, space, out=fewest_all)
        counted = spare is not None and max_spared_hit is not None
        by_caster[c.label] = space <= max_spared_hit if counted else np.isfinite(space)
    return sum(by_caster.values()), by_caster, fewest_all


# --- by hand ----------------------------------------------------------------------


@pytest.fixture
def walled():
    """A 9 x 5 map, a wall down x = 4 from the top to y = 4: only the bottom row passes it."""
    return ag.BattleMap(ag.Grid(9, 5), walls=[ag.Wall((4, 0), (4, 4))])


def test_a_wall_shields_the_squares_behind_it(walled):
    t = ag.threat_map(ag.Sphere(5), casters=[ag.Token(1, 2, name="a")], range=10, on=walled)
    # 5-ft bursts at intersections within 10 ft: round the wall's end only at the bottom.
    assert np.array_equal(t.count, digits("""
        1 1 1 1 0 0 0 0 0
        1 1 1 1 0 0 0 0 0
        1 1 1 1 0 0 0 0 0
        1 1 1 1 1 0 0 0 0
        1 1 1 1 1 0 0 0 0
    """))
    assert np.array_equal(t.mask, t.count > 0) and list(t.by_caster) == ["a"]
    assert np.array_equal(t.by_caster["a"], t.mask) and t.spared is None and t.size == (1, 1)
    assert t.count.dtype == np.int64 and not t.count.flags.writeable and not t.by_caster["a"].flags.writeable
    with pytest.raises(TypeError):
        t.by_caster["b"] = t.mask
    # Without range the caster still sees only its side (and round the end).
    assert not ag.threat_map(ag.Sphere(5), casters=[ag.Token(1, 2)], on=walled).count[:3, 5:].any()


def test_two_casters_overlap_where_both_reach(walled):
    a, b = ag.Token(1, 2, name="a"), ag.Token(7, 2, name="b")
    t = ag.threat_map(ag.Sphere(5), casters=[a, b], range=10, on=walled)
    assert np.array_equal(t.count, digits("""
        1 1 1 1 1 1 1 1 1
        1 1 1 1 1 1 1 1 1
        1 1 1 1 1 1 1 1 1
        1 1 1 1 2 1 1 1 1
        1 1 1 1 2 1 1 1 1
    """))
    assert list(t.by_caster) == ["a", "b"] and t.casters == (a, b)
    # A large creature (2 x 2) is reached when any of its squares is: its top-left square counts, and none
    # where its space would leave the map.
    big = ag.threat_map(ag.Sphere(5), casters=[a, b], range=10, on=walled, size="large")
    assert np.array_equal(big.count, digits("""
        1 1 1 2 1 1 1 1 0
        1 1 1 2 1 1 1 1 0
        1 1 1 2 2 1 1 1 0
        1 1 1 2 2 1 1 1 0
        0 0 0 0 0 0 0 0 0
    """))
    assert big.size == (2, 2)
    # Casters named by their labels on the map.
    on_map = ag.BattleMap(walled.grid, walled.walls, [a, b])
    assert np.array_equal(ag.threat_map(ag.Sphere(5), casters=["a", "b"], range=10, on=on_map).count, t.count)


def test_moving_first_reaches_round_the_wall(walled):
    a = ag.Token(1, 2, name="a")
    still = ag.threat_map(ag.Sphere(5), casters=[a], range=10, on=walled)
    moved = ag.threat_map(ag.Sphere(5), casters=[a], range=10, move=15, on=walled)
    assert np.array_equal(moved.moves[0], ag.reachable(a, 15, on=walled).mask)
    # 15 ft takes it round the wall's end at the bottom: bursts from there reach behind the wall.
    assert np.array_equal(moved.count, digits("""
        1 1 1 1 1 0 0 0 0
        1 1 1 1 1 1 0 0 0
        1 1 1 1 1 1 1 0 0
        1 1 1 1 1 1 1 0 0
        1 1 1 1 1 1 1 0 0
    """))
    assert np.array_equal(moved.count, brute(ag.Sphere(5), [a], walled, rng=10, move=15)[0])
    # A Space stands for a creature there (its label, its position).
    space = ag.threat_map(ag.Sphere(5), casters=[ag.Space(1, 2)], range=10, move=15, on=walled)
    assert np.array_equal(space.count, moved.count) and list(space.by_caster) == ["token at (1, 2)"]
    # A move of 0 stays put.
    assert np.array_equal(ag.threat_map(ag.Sphere(5), casters=[a], range=10, move=0, on=walled).count, still.count)


def test_a_cone_is_aimed_from_the_caster_every_way(walled):
    a = ag.Token(1, 2, name="a")
    east = ag.threat_map(ag.Cone(15), casters=[a], on=walled, directions=["E"])
    assert np.array_equal(east.mask, ag.area(ag.Cone(15, "E"), at=a, on=walled).mask)
    both = ag.threat_map(ag.Cone(15), casters=[a], on=walled, directions=[0, "S"])
    assert np.array_equal(both.mask, ag.area(ag.Cone(15, 0), at=a, on=walled).mask
                          | ag.area(ag.Cone(15, "S"), at=a, on=walled).mask)
    every = ag.threat_map(ag.Cone(15), casters=[a], on=walled, move=5)
    assert np.array_equal(every.count, brute(ag.Cone(15), [a], walled, move=5)[0])


def test_an_aura_follows_its_caster(walled):
    pal = ag.Token(1, 2, name="pal")
    t = ag.threat_map(ag.Sphere(5), casters=[pal], at="caster", mode="emanation", move=5, on=walled, rules="pf2e")
    assert np.array_equal(t.count, digits("""
        1 1 1 1 0 0 0 0 0
        1 1 1 1 0 0 0 0 0
        1 1 1 1 0 0 0 0 0
        1 1 1 1 0 0 0 0 0
        1 1 1 1 0 0 0 0 0
    """))
    assert np.array_equal(t.count, brute(ag.Sphere(5), [pal], walled, "pf2e", move=5, mode="emanation",
                                         at="caster")[0])


def test_spared_creatures_the_caster_among_them_where_it_stands(walled):
    me = ag.Token(1, 2, name="me", tags={"ally"})
    m = ag.BattleMap(walled.grid, walled.walls, [me, ag.Token(3, 2, name="friend", tags={"ally"})])
    t = ag.threat_map(ag.Sphere(5), casters=["me"], range=10, on=m, spare="ally")
    # Every burst reaching a square of row 2 also reaches the caster or its friend.
    assert np.array_equal(t.count, digits("""
        1 1 1 1 0 0 0 0 0
        1 1 1 1 0 0 0 0 0
        1 0 0 0 0 0 0 0 0
        1 1 1 1 1 0 0 0 0
        1 1 1 1 1 0 0 0 0
    """))
    assert t.spared[2, 1] == t.spared[2, 3] == 1 and t.spared[2, 0] == 0 and np.isinf(t.spared[0, 6])
    assert t.max_spared_hit == 0
    anyway = ag.threat_map(ag.Sphere(5), casters=["me"], range=10, on=m, spare="ally", max_spared_hit=None)
    assert np.array_equal(anyway.count, ag.threat_map(ag.Sphere(5), casters=["me"], range=10, on=m).count)
    assert np.array_equal(anyway.spared, t.spared) and anyway.max_spared_hit is None
    # Moving away, the caster can put a burst on its own first square.
    moved = ag.threat_map(ag.Sphere(5), casters=["me"], range=10, on=m, spare="ally", move=10)
    assert moved.count[2, 1] == 1
    want = brute(ag.Sphere(5), [me], m, rng=10, move=10, spare="ally")
    assert np.array_equal(moved.count, want[0]) and np.array_equal(moved.spared, want[2])


def test_a_flying_caster_reaches_over_a_low_wall():
    # A 10-ft wall down x = 4; the caster flies at 20 ft and keeps that height as it moves.
    low = ag.BattleMap(ag.Grid(9, 5), walls=[ag.Wall((4, 0), (4, 5), top=10)])
    bat = ag.Token(1, 2, name="bat", elevation=20)
    # A 20-ft burst at 20 ft, within 10 ft of the bat: seen from above, the wall hides only what is near it.
    # Origins right over the wall (x = 4) are legal 20 ft up, where it does not stand, and reach x = 6.
    t = ag.threat_map(ag.Sphere(20), casters=[bat], range=10, elevation=20, on=low)
    assert np.array_equal(t.count, digits("""
        1 1 1 1 1 1 1 0 0
        1 1 1 1 1 1 1 0 0
        1 1 1 1 1 1 1 0 0
        1 1 1 1 1 1 1 0 0
        1 1 1 1 1 1 1 0 0
    """))
    assert np.array_equal(t.count, brute(ag.Sphere(20), [bat], low, rng=10, elevation=20)[0])
    # At 15 ft origins over the wall still reach past it; a wall to the sky shields all beyond it.
    lower = ag.threat_map(ag.Sphere(20), casters=[bat], range=10, elevation=15, on=low)
    assert lower.count[:, 4:].tolist() == [[1, 1, 1, 0, 0]] * 5
    assert np.array_equal(lower.count, brute(ag.Sphere(20), [bat], low, rng=10, elevation=15)[0])
    tall = ag.BattleMap(low.grid, walls=[ag.Wall((4, 0), (4, 5))])
    assert not ag.threat_map(ag.Sphere(20), casters=[bat], range=10, elevation=20, on=tall).count[:, 4:].any()
    # Range runs from the caster's prism: from the ground, 20 ft up is out of a 10-ft range, and a burst on
    # the ground stays on the walker's side of the wall (heights searched: each counts).
    walker = ag.Token(1, 2, name="walker")
    assert not ag.threat_map(ag.Sphere(20), casters=[walker], range=10, elevation=20, on=low).count.any()
    both = ag.threat_map(ag.Sphere(20), casters=[walker, bat], range=10, elevation=[0, 20], on=low)
    assert np.array_equal(both.by_caster["walker"], np.arange(9)[None, :].repeat(5, 0) < 4)
    assert np.array_equal(both.by_caster["bat"], t.mask)
    assert np.array_equal(both.count, t.mask.astype(int) + both.by_caster["walker"])
    # Moving, each keeps its height.
    moved = ag.threat_map(ag.Sphere(20), casters=[walker, bat], range=10, elevation=[0, 20], move=5, on=low)
    assert np.array_equal(moved.count, brute(ag.Sphere(20), [walker, bat], low, rng=10, elevation=[0, 20],
                                             move=5)[0])


def test_threat_to_flyers():
    m = ag.BattleMap(ag.Grid(9, 7))
    mage = ag.Token(1, 3, name="mage")
    # Flyers at 30 ft: a 20-ft burst on the ground falls short; lifted to 10 ft (within the 10-ft range,
    # counted from the mage's prism) it reaches them above its origins and a square round.
    args = {"casters": [mage], "range": 10, "on": m, "creature_elevation": 30}
    assert not ag.threat_map(ag.Sphere(20), **args).count.any()
    t = ag.threat_map(ag.Sphere(20), elevation=10, **args)
    assert np.array_equal(t.count, digits("""
        1 1 1 1 0 0 0 0 0
        1 1 1 1 1 0 0 0 0
        1 1 1 1 1 0 0 0 0
        1 1 1 1 1 0 0 0 0
        1 1 1 1 1 0 0 0 0
        1 1 1 1 1 0 0 0 0
        1 1 1 1 0 0 0 0 0
    """))
    assert np.array_equal(t.count, brute(ag.Sphere(20), [mage], m, rng=10, elevation=10, creature_elevation=30)[0])
    assert np.array_equal(ag.threat_map(ag.Sphere(20), elevation=[0, 10], **args).count, t.count)
    # The same burst reaches the ground (5 ft below it) farther out.
    ground = ag.threat_map(ag.Sphere(20), casters=[mage], range=10, on=m, elevation=10)
    assert ground.mask.sum() > t.mask.sum() and (ground.mask >= t.mask).all()
    # A cone aimed up reaches flyers a level one cannot.
    up = {"casters": [mage], "on": m, "directions": ["E"], "creature_elevation": 20}
    assert not ag.threat_map(ag.Cone(30), **up).count.any()
    raised = ag.threat_map(ag.Cone(30), pitches=[0, 45], **up)
    assert raised.count.any()
    assert np.array_equal(raised.count, brute(ag.Cone(30), [mage], m, directions=["E"], pitches=[0, 45],
                                              creature_elevation=20)[0])


# --- exact against brute force on random maps ----------------------------------------


@st.composite
def scenes(draw, side=6):
    rules = draw(st.sampled_from(["starfinder", "pf2e", "sw5e", "savage-worlds"]))
    inches = rules == "savage-worlds"
    lifted = draw(st.booleans())  # heights: short walls, floors, flyers, origins and creatures off the ground
    w, h = draw(st.integers(3, side)), draw(st.integers(3, side))
    coord = st.integers(0, 2 * max(w, h)).map(lambda v: v / 2)
    walls = []
    for _ in range(draw(st.integers(0, 4))):
        a = (min(draw(coord), w), min(draw(coord), h))
        b = (min(draw(coord), w), min(draw(coord), h))
        if a != b:
            kind = draw(st.sampled_from(["wall", "wall", "door", "window"]))
            walls.append(ag.Wall(a, b, kind=kind, open=kind == "door" and draw(st.booleans()),
                                 one_way=draw(st.sampled_from([None, None, "left", "right"])),
                                 top=draw(st.sampled_from([math.inf, 10.0] if lifted else [math.inf]))))
    floors = []
    if lifted and draw(st.booleans()):
        x0, y0 = draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1))
        x1, y1 = draw(st.integers(x0 + 1, w)), draw(st.integers(y0 + 1, h))
        floors.append(ag.Floor([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], draw(st.sampled_from([10.0, 15.0]))))
    tokens = []
    for n in range(draw(st.integers(0, 3))):
        size = draw(st.sampled_from(["medium", "large"]))
        fw = ag.Token(0, 0, size=size).footprint[0]
        tokens.append(ag.Token(draw(st.integers(0, w - fw)), draw(st.integers(0, h - fw)), size=size, name=f"t{n}",
                               tags=draw(st.sampled_from([{"ally"}, {"enemy"}, set()])),
                               elevation=draw(st.sampled_from([0.0, 0.0, 20.0]))))
    casters = []
    for n in range(draw(st.integers(1, 2))):
        casters.append(ag.Token(draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1)), name=f"c{n}",
                                tags=draw(st.sampled_from([set(), {"ally"}])),
                                elevation=draw(st.sampled_from([0.0, 20.0] if lifted else [0.0]))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.AoegridWarning)  # a wall through a creature is fine here
        m = ag.BattleMap(ag.Grid(w, h, units="in" if inches else "ft"), walls=walls,
                         tokens=tokens + (casters if draw(st.booleans()) else []), floors=floors)
    if inches:
        shape = draw(st.sampled_from([ag.savage_worlds.SMALL_BLAST, ag.savage_worlds.MEDIUM_BLAST,
                                      ag.savage_worlds.CONE, ag.savage_worlds.STREAM]))
    else:
        size = 5.0 * draw(st.integers(1, 3))
        shape = draw(st.sampled_from([ag.Sphere(size), ag.Cylinder(size, 10), ag.Cone(size), ag.Line(size + 5),
                                      ag.Cube(size, draw(st.sampled_from([0, 200])), anchor="left")]))
    aimed = isinstance(shape, (ag.Cone, ag.Line))
    at = None if aimed or not isinstance(shape, ag.Sphere) else draw(st.sampled_from([None, None, "caster"]))
    return {
        "shape": shape, "casters": casters, "m": m, "rules": rules,
        "rng": None if aimed or at else draw(st.sampled_from([None, 5.0, 10.0])),
        "move": draw(st.sampled_from([None, 0, 1, 2] if inches else [None, 0, 5, 10])),
        "mode": draw(st.sampled_from(["burst", "spread", "emanation"])), "at": at,
        "size": draw(st.sampled_from(["medium", "medium", "large", (1, 2)])),
        "spare": draw(st.sampled_from([None, None, "ally", ("ally", "enemy")])),
        "max_spared_hit": draw(st.sampled_from([0, 0, 1, None])),
        "directions": [0, 45, 90, 200] if aimed else None,
        "pitches": draw(st.sampled_from([None, (0, 30), (-20,)])) if aimed and lifted else None,
        "elevation": draw(st.sampled_from([0.0, 10.0, (0, 10), (0, 20)])) if lifted else 0.0,
        "creature_elevation": draw(st.sampled_from([0.0, 20.0, 30.0])) if lifted else 0.0,
    }


def _check(s):
    args = {k: s[k] for k in ("rules", "move", "mode", "at", "size", "spare", "max_spared_hit", "directions")}
    args |= {k: s[k] for k in ("pitches", "elevation", "creature_elevation") if k in s}
    try:
        want = brute(s["shape"], s["casters"], s["m"], rng=s["rng"], **args)
    except ag.AoegridError as e:  # a caster in a wall cannot move: refused the same way
        with pytest.raises(type(e)):
            ag.threat_map(s["shape"], casters=s["casters"], range=s["rng"], on=s["m"], **args)
        return
    t = ag.threat_map(s["shape"], casters=s["casters"], range=s["rng"], on=s["m"], **args)
    assert np.array_equal(t.count, want[0])
    assert {k: v.tolist() for k, v in t.by_caster.items()} == {k: v.tolist() for k, v in want[1].items()}
    if s["spare"] is not None:
        assert np.array_equal(t.spared, want[2])


@settings(max_examples=120, deadline=None)
@given(scenes())
@example({  # SW5e: points behind the wall move to its near side; one caster on the map, spared, moving
    "shape": ag.Sphere(5), "rules": "sw5e", "rng": 10.0, "move": 5, "mode": "burst", "at": None, "size": "medium",
    "spare": "ally", "max_spared_hit": 0, "directions": None,
    "casters": [ag.Token(1, 1, name="c0", tags={"ally"}), ag.Token(4, 3, name="c1")],
    "m": ag.BattleMap(ag.Grid(6, 5), walls=[ag.Wall((3, 0), (3, 3.5)), ag.Wall((0, 3.5), (2, 3.5))],
                      tokens=[ag.Token(1, 1, name="c0", tags={"ally"}), ag.Token(4, 0, name="t0", tags={"ally"})]),
})
def test_threat_maps_equal_brute_force(scene):
    _check(scene)


# --- errors ------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, error, match", [
    ({"casters": []}, ag.InvalidValueError, "casters is empty"),
    ({"casters": ag.Token(1, 1)}, ag.InvalidTypeError, "casters must be a list"),
    ({"casters": [(1, 1)]}, ag.InvalidTypeError, "a caster must be an aoegrid.Token"),
    ({"casters": ["nobody"]}, ag.InvalidValueError, "no token labelled 'nobody'"),
    ({"casters": [ag.Token(1, 1, name="x"), ag.Token(2, 2, name="x")]}, ag.InvalidValueError,
     "two casters are labelled 'x'"),
    ({"casters": [ag.Token(12, 1)]}, ag.OffGridError, "not wholly on the"),
    ({"move": -5}, ag.InvalidValueError, "move must be a finite number .* 0 or more; got -5"),
    ({"move": [5, 10]}, ag.InvalidValueError, "move gives 2 budgets for 1 casters"),
    ({"move": float("inf")}, ag.InvalidValueError, "move must be a finite number"),
    ({"max_spared_hit": -1}, ag.InvalidValueError, "max_spared_hit must be a whole number"),
    ({"directions": ["E"]}, ag.InvalidValueError, "directions= is for cones and lines"),
    ({"pitches": [10]}, ag.InvalidValueError, "pitches= is for cones and lines"),
    ({"elevation": []}, ag.InvalidValueError, "elevation is empty"),
    ({"elevation": "high"}, ag.InvalidTypeError, "elevation must be a height"),
    ({"creature_elevation": float("nan")}, ag.InvalidValueError, "creature_elevation must be a finite number"),
    ({"at": "caster", "range": 30}, ag.InvalidValueError, "at no range"),
    ({"at": "origin"}, ag.InvalidValueError, "at must be None"),
    ({"size": "enormous"}, ag.InvalidValueError, "size must be a creature size"),
    ({"spare": 3}, ag.InvalidTypeError, "spare must be tags"),
    ({"on": ag.Grid(9, 5)}, ag.InvalidTypeError, "on must be an aoegrid.BattleMap"),
])
def test_threat_map_refuses_bad_arguments(walled, kwargs, error, match):
    args = {"casters": [ag.Token(1, 1)], "on": walled, **kwargs}
    with pytest.raises(error, match=match):
        ag.threat_map(ag.Sphere(5), **args)


def test_cone_directions_must_be_a_collection(walled):
    with pytest.raises(ag.InvalidTypeError, match="directions must be a collection"):
        ag.threat_map(ag.Cone(15), casters=[ag.Token(1, 1)], on=walled, directions="E")
    with pytest.raises(ag.InvalidValueError, match="directions is empty"):
        ag.threat_map(ag.Cone(15), casters=[ag.Token(1, 1)], on=walled, directions=[])
    with pytest.raises(ag.InvalidTypeError, match="pitches must be a collection"):
        ag.threat_map(ag.Cone(15), casters=[ag.Token(1, 1)], on=walled, pitches=30)
    with pytest.raises(ag.InvalidValueError, match="pitches is empty"):
        ag.threat_map(ag.Cone(15), casters=[ag.Token(1, 1)], on=walled, pitches=[])


# --- the picture ---------------------------------------------------------------------


def test_plot_threat_shades_by_count_and_marks_the_casters():
    from matplotlib.collections import PolyCollection

    from aoegrid.show.plotting import plot_threat

    cave = ag.demo_map()
    urg, pip = ag.Token(11, 8, name="Urg", tags={"enemy"}), ag.Token(16, 15, name="Pip", tags={"enemy"})
    m = ag.BattleMap(cave.grid, cave.walls, [urg, pip, ag.Token(3, 12, name="Kira", tags={"ally"})], info=cave.info)
    t = ag.threat_map(ag.Sphere(10), casters=["Urg", "Pip"], range=30, on=m)
    drawn = plot_threat(t, moves=True, title="threat")
    labels = [a.get_label() for a in drawn]
    assert labels[:2] == ["map image", "grid"] and "wall" in labels and "door" in labels
    shaded = {a.get_label(): a for a in drawn if a.get_label().startswith("reached")}
    assert list(shaded) == ["reached by 1 caster", "reached by 2 casters"]
    for n, name in enumerate(shaded, start=1):
        assert isinstance(shaded[name], PolyCollection) and len(shaded[name].get_paths()) == int((t.count == n).sum())
    darker = [shaded[name].get_facecolor()[0][:3].sum() for name in shaded]
    assert darker[0] > darker[1]  # more casters, a darker shade
    assert ["moves of Urg", "caster Urg", "moves of Pip", "caster Pip"] == [
        x for x in labels if x.startswith(("caster", "moves"))]
    assert {"token Urg", "token Pip", "token Kira"} <= set(labels) and labels[-2:] == ["title", "legend"]
    key = [x.get_text() for x in drawn.ax.get_legend().get_texts()]
    assert "reached by 2 casters" in key and "caster Pip" in key and not any(x.startswith("token") for x in key)
    assert drawn.figure is drawn.ax.get_figure()
    with pytest.raises(ag.InvalidValueError, match="plot_threat draws what aoegrid.threat_map gives"):
        plot_threat(t.count)
