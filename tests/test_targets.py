"""Creatures in areas: sizes, filters, limits, cover, elevation, moving emanations."""

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.io import export

GRID = ag.Grid(30, 30)


def names(reached):
    return [r.token.name for r in reached]


@pytest.mark.parametrize(
    ("size", "x", "y", "inside"),
    [
        # A 20-ft Starfinder burst at (10, 10) reaches columns 6..13 on rows 9 and 10.
        ("tiny", 13, 10, 1),
        ("small", 13, 9, 1),
        ("medium", 13, 10, 1),
        ("large", 13, 9, 2),  # (13, 9), (13, 10) of its four squares
        ("huge", 13, 8, 2),  # (13, 9), (13, 10) of nine
        ("gargantuan", 13, 7, 2),  # (13, 8) is out: far corner (4, 2) counts 5 squares
        ("colossal", 12, 4, 4),  # (12, 7), (12, 8), (12, 9), (13, 9)
    ],
)
def test_every_size_partly_inside(size, x, y, inside):
    area = ag.area(ag.Sphere(20), at=(10, 10), on=GRID)
    token = ag.Token(x, y, size=size, name=size)
    expected = [s for s in token.space.squares if s in area]
    assert len(expected) == inside
    (hit,) = area.tokens([token])
    assert hit.squares == tuple(expected)
    assert area.tokens([token], membership="share", share=1.0) == [] or inside == len(token.space.squares)


def test_membership_center_and_share():
    area = ag.area(ag.Sphere(20), at=(10, 10), on=GRID)
    large = ag.Token(13, 9, size="large", name="ogre")  # half inside
    huge = ag.Token(13, 8, size="huge", name="giant")  # its central square (14, 9) is outside
    # Both 15 ft away; ties go top to bottom.
    assert names(area.tokens([large, huge])) == ["giant", "ogre"]
    assert names(area.tokens([large, huge], membership="share", share=0.5)) == ["ogre"]
    assert names(area.tokens([large, huge], membership="center")) == ["ogre"]
    with pytest.raises(ag.InvalidValueError, match=r"unknown membership 'most'; valid choices are 'any', 'center', 'share'"):
        area.tokens([large], membership="most")


def test_filters_with_limits_and_selective():
    crowd = [
        ag.Token(10, 10, name="robot", tags={"construct"}),
        ag.Token(11, 10, name="ally", tags={"living"}),
        ag.Token(12, 10, name="orc", tags={"living", "enemy"}),
        ag.Token(8, 8, name="goblin", tags={"living", "enemy"}),
        ag.Token(13, 9, name="wolf", tags={"living", "enemy"}),
    ]
    area = ag.area(ag.Sphere(20), at=(10, 10), on=GRID)
    # Nearest first: 0, 5 (goblin above ally), 5, 10 and 15 ft from the origin.
    assert names(area.tokens(crowd)) == ["robot", "goblin", "ally", "orc", "wolf"]
    assert [r.distance for r in area.tokens(crowd)] == [0.0, 5.0, 5.0, 10.0, 15.0]
    # Only living creatures, at most two: the construct does not use up a place.
    assert names(area.tokens(crowd, where=lambda t: "living" in t.tags, limit=2)) == ["goblin", "ally"]
    assert names(area.tokens(crowd, tags={"enemy"})) == ["goblin", "orc", "wolf"]
    # Savage Worlds' Selective: the caster leaves the ally (and the robot) out.
    assert names(area.tokens(crowd, exclude=["ally", crowd[0]])) == ["goblin", "orc", "wolf"]
    with pytest.raises(ag.InvalidValueError, match=r"limit must be a whole number, 0 or more, got -1"):
        area.tokens(crowd, limit=-1)


def test_a_caster_inside_its_own_area():
    caster = ag.Token(10, 10, name="caster")
    burst = ag.area(ag.Sphere(10), at=caster, on=GRID)
    assert names(burst.tokens([caster])) == ["caster"]
    spared = ag.area(ag.Sphere(10), at=caster, on=GRID, include_origin=False)
    assert spared.tokens([caster]) == []
    cone = ag.area(ag.Cone(15, "E"), at=caster, on=GRID, rules="sw5e")
    assert cone.tokens([caster]) == []  # 5e: a cone leaves its caster out
    chosen = ag.area(ag.Cone(15, "E"), at=caster, on=GRID, rules="sw5e", include_origin=True)
    assert (10, 10) not in chosen  # the triangle starts at the caster's edge: nothing to take back


def test_elevation_spheres_cylinders_cones():
    area = ag.area(ag.Sphere(20), at=(10, 10), on=GRID)
    inside = ag.Token(10, 10, name="inside", elevation=20)
    outside = ag.Token(10, 10, name="outside", elevation=25)
    assert names(area.tokens([inside, outside])) == ["inside"]
    # 3-D counting under 5/10/5: the across count and the up count combine
    # by the same rule, max + floor(min / 2). (11, 11): 3 across (far corner
    # (2, 2)), 3 up: 4 squares, in.
    edge = ag.Token(11, 11, name="edge", elevation=15)
    far = ag.Token(12, 10, name="far", elevation=15)  # 3 across, 3 up: 3 + 1 = 4 squares, in
    farther = ag.Token(13, 10, name="farther", elevation=15)  # 4 across: 4 + 1 = 5, out
    assert names(area.tokens([edge, far, farther])) == ["edge", "far"]
    below = ag.Token(10, 10, name="below", elevation=-30)  # 5 ft tall, its top 25 ft down
    assert area.tokens([below]) == []
    # Starfinder: the circle is at the origin's height and the cylinder drops from it.
    dropping = ag.area(ag.Cylinder(20, 40), at=(10, 10), on=GRID, elevation=40)
    assert names(dropping.tokens([ag.Token(10, 10, name="ground"), ag.Token(10, 10, name="high", elevation=41)])) == ["ground"]
    cylinder = ag.area(ag.Cylinder(20, 40), at=(10, 10), on=GRID, elevation=10, rules="sw5e")
    # Nearest first, in three dimensions: c's prism (6..11 ft) holds the
    # origin's height (0 ft away), a's starts 35 ft above it.
    got = cylinder.tokens([ag.Token(10, 10, name="a", elevation=45), ag.Token(10, 10, name="b", elevation=55),
                           ag.Token(10, 10, name="c", elevation=6), ag.Token(10, 10, name="d", elevation=4)])
    assert [(r.token.name, r.distance) for r in got] == [("c", 0.0), ("a", 35.0)]
    cone = ag.area(ag.Cone(30, "E"), at=(10, 10), on=GRID)
    low = ag.Token(12, 10, name="low", elevation=10)  # 2.5 squares along, 2 up: within the 45-degree slope
    high = ag.Token(11, 10, name="high", elevation=10)  # 1.5 along, 2 up: above it
    assert names(cone.tokens([low, high])) == ["low"]


def test_cover_of_creatures_behind_walls():
    m = ag.BattleMap(
        ag.Grid(20, 20),
        walls=[ag.Wall((12, 0), (12, 10.8))],
        tokens=[ag.Token(12, 10, size="large", name="half-hidden"), ag.Token(13, 4, name="hidden"),
                ag.Token(9, 9, name="open")],
    )
    sf = ag.area(ag.Sphere(30), at=(9, 12), on=m)
    got = {r.token.name: r for r in sf.tokens()}
    assert got["open"].cover is ag.Cover.NONE and got["open"].cover_name == "none"
    assert got["half-hidden"].cover is ag.Cover.PARTIAL and got["half-hidden"].cover_name == "cover"
    assert "hidden" not in got
    sw = ag.area(ag.Sphere(30), at=(9, 12), on=m, rules="sw5e")
    # The line to its corner (13, 10) meets x = 12 at y = 10.5, under the
    # wall's end: some of its space is hidden. 5e takes the creature's best
    # square: (12, 11) is wholly in view.
    assert {r.token.name: r.cover for r in sw.tokens()}["half-hidden"] is ag.Cover.NONE


def test_a_squares_starfinder_grade_is_what_a_medium_creature_there_gets():
    # A pillar hides three quarters of (15, 5) from the burst, but no line to
    # one of its corners is blocked: the goblin there has cover, so the square does.
    goblin = ag.Token(15, 5, name="goblin")
    m = ag.BattleMap(ag.Grid(24, 12), [shapely.box(10, 5.05, 10.4, 5.40)], tokens=[goblin])
    burst = ag.area(ag.Sphere(60), at=(5, 5), on=m)
    assert burst.visible[5, 15] == pytest.approx(0.257222, abs=1e-6)
    assert burst.cover[5, 15] == ag.Cover.PARTIAL
    assert [(r.token.name, r.cover_name) for r in burst.tokens()] == [("goblin", "cover")]
    record = export.area_record(burst)
    assert {"square": [15, 5], "grade": "cover", "visible": pytest.approx(0.257222, abs=1e-6)} in record["cover"]


eighths = st.integers(0, 8 * 12).map(lambda k: k / 8)
walls_st = st.lists(st.tuples(eighths, eighths, eighths, eighths).filter(lambda w: w[:2] != w[2:]),
                    min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(walls=walls_st, preset=st.sampled_from(["starfinder", "pf2e", "sw5e", "savage-worlds"]),
       at=st.tuples(st.integers(2, 10), st.integers(2, 10)))
def test_every_squares_grade_is_a_medium_creatures_cover_there(walls, preset, at):
    grid = ag.Grid(12, 12, units="in") if preset == "savage-worlds" else ag.Grid(12, 12)
    size = ag.Sphere(4, units="in") if preset == "savage-worlds" else ag.Sphere(20)
    m = ag.BattleMap(grid, [ag.Wall(w[:2], w[2:]) for w in walls])
    try:
        burst = ag.area(size, at=at, on=m, rules=preset)
    except ag.OriginOnWallError:
        return
    for x, y in burst.squares:
        (reached,) = burst.tokens([ag.Token(x, y)])
        assert reached.cover == burst.cover[y, x], (x, y, float(burst.visible[y, x]))


def test_emanation_moves_with_its_creature():
    walker = ag.Token(5, 5, name="paladin")
    friend = ag.Token(6, 5, name="friend")
    stranger = ag.Token(12, 5, name="stranger")
    m = ag.BattleMap(GRID, tokens=[walker, friend, stranger])
    aura = ag.area(ag.Sphere(10), at=walker, on=m, rules="pf2e", mode="emanation")
    assert names(aura.tokens()) == ["paladin", "friend"]
    later = aura.moved(walker.moved_to(11, 5))
    assert names(later.tokens([walker.moved_to(11, 5), friend, stranger])) == ["paladin", "stranger"]
    entered, left = aura.subject_changes(later, [friend, stranger])
    assert [t.name for t in entered] == ["stranger"] and [t.name for t in left] == ["friend"]


def test_tokens_on_the_map_are_checked():
    with pytest.raises(ag.OffGridError, match=r"ogre \(space 19..21 x 0..2\) is not wholly on the 20 x 20 map"):
        ag.BattleMap(ag.Grid(20, 20), tokens=[ag.Token(19, 0, size="large", name="ogre")])
    with pytest.warns(ag.AoegridWarning, match=r"token at \(5, 5\) stands where a wall runs through its space"):
        ag.BattleMap(ag.Grid(20, 20), walls=[ag.Wall((5.5, 0), (5.5, 10))], tokens=[ag.Token(5, 5)])
    with pytest.raises(ag.InvalidValueError, match=r"unknown Token size 'enormous'"):
        ag.Token(1, 1, size="enormous")
    with pytest.raises(ag.InvalidValueError, match=r"Token elevation must be a finite number, got nan"):
        ag.Token(1, 1, elevation=float("nan"))
    with pytest.raises(ag.InvalidValueError, match=r"this area is on a bare Grid: pass tokens="):
        ag.area(ag.Sphere(10), at=(5, 5), on=GRID).tokens()


def test_custom_footprint():
    wagon = ag.Token(8, 10, size=(3, 1), name="wagon")
    area = ag.area(ag.Sphere(10), at=(10, 10), on=GRID)
    (hit,) = area.tokens([wagon])
    assert hit.squares == ((8, 10), (9, 10), (10, 10))


def test_tokens_move_to_a_square_or_by_squares():
    orc = ag.Token(5, 5, size="large", name="orc", elevation=10, tags={"enemy"})
    assert orc.moved_to(2, 3) == ag.Token(2, 3, size="large", name="orc", elevation=10, tags={"enemy"})
    assert orc.shifted(-1, 2) == orc.moved_to(4, 7)
    with pytest.raises(ag.InvalidValueError, match=r"Token shift dx must be a whole number of squares, got 0.5"):
        orc.shifted(0.5, 0)
    with pytest.raises(ag.InvalidTypeError, match=r"Token y must be a number, got '3' of type str"):
        orc.moved_to(2, "3")


def test_creatures_move_on_the_map():
    walls = [ag.Wall((8, 0), (8, 10), kind="door")]
    orc, bat, unnamed = ag.Token(2, 2, name="orc"), ag.Token(4, 4, name="bat"), ag.Token(6, 6)
    m = ag.BattleMap(ag.Grid(16, 10), walls=walls, tokens=[orc, bat, unnamed])
    assert m.token("bat") is bat and m.token("token at (6, 6)") is unnamed
    moved = m.move_token("orc", 10, 2)
    assert moved.token("orc") == orc.moved_to(10, 2) and m.token("orc") is orc
    assert [t.label for t in moved.tokens] == ["orc", "bat", "token at (6, 6)"]
    # Matched by identity, else by label; the new creature may be another one.
    assert m.move_token(bat, 5, 5).token("bat").space == ag.Space(5, 5)
    swapped = m.with_token(ag.Token(2, 2, name="orc"), ag.Token(1, 1, name="ogre", size="large"))
    assert [t.label for t in swapped.tokens] == ["ogre", "bat", "token at (6, 6)"]
    # The walls did not change: the copy uses the ones already split and indexed.
    assert moved.wallset("effect") is m.wallset("effect") and moved.steps() is m.steps()
    assert m.with_token("bat", bat).wallset("sight") is m.wallset("sight")
    assert m.with_door(0, open=False).wallset("effect") is not m.wallset("effect")
    # The creature stands where it was moved to for the areas on the new map.
    burst = ag.area(ag.Sphere(10), at=(11, 3), on=moved)
    assert names(burst.tokens()) == ["orc"]


def test_moving_creatures_on_the_map_is_checked():
    m = ag.BattleMap(ag.Grid(16, 10), walls=[ag.Wall((8.5, 0), (8.5, 10))], tokens=[ag.Token(2, 2, name="orc"), ag.Token(4, 4, name="bat")])
    with pytest.raises(ag.InvalidValueError, match=r"no token labelled 'goblin' on this map; its tokens are 'orc', 'bat'"):
        m.move_token("goblin", 3, 3)
    with pytest.raises(ag.InvalidValueError, match=r"no token labelled 'goblin' on this map; its tokens are 'orc', 'bat'"):
        m.token("goblin")
    with pytest.raises(ag.InvalidValueError, match=r"no token labelled 'orc' on this map; its tokens are none"):
        ag.BattleMap(ag.Grid(4, 4)).token("orc")
    with pytest.raises(ag.InvalidTypeError, match=r"a creature is given as an aoegrid.Token or its label, got 3"):
        m.with_token(3, ag.Token(1, 1))
    with pytest.raises(ag.InvalidTypeError, match=r"BattleMap tokens must be aoegrid.Token, got \(1, 1\)"):
        m.with_token("orc", (1, 1))
    with pytest.raises(ag.OffGridError, match=r"orc \(space 16..17 x 0..1\) is not wholly on the 16 x 10 map"):
        m.move_token("orc", 16, 0)
    with pytest.warns(ag.AoegridWarning, match=r"orc stands where a wall runs through its space \(8..9 x 0..1\)") as caught:
        m.move_token("orc", 8, 0)
    assert caught[0].filename == __file__  # the warning points at the caller's line
    twins = ag.BattleMap(ag.Grid(8, 8), tokens=[ag.Token(1, 1, name="goblin"), ag.Token(3, 3, name="goblin")])
    with pytest.raises(ag.InvalidValueError, match=r"2 tokens are labelled 'goblin'; give them names to tell them apart"):
        twins.move_token("goblin", 5, 5)
    # The creature itself is found by identity even when labels repeat.
    assert twins.move_token(twins.tokens[1], 5, 5).tokens[1].space == ag.Space(5, 5)


def test_a_shapable_area_reaches_creatures_within_its_least_dimension_of_its_height():
    m = ag.BattleMap(ag.Grid(10, 10), tokens=[ag.Token(2, 2, name="low"), ag.Token(3, 2, name="high", elevation=30)])
    block = ag.Shapable([(0, 0), (1, 0), (0, 1), (1, 1)])
    a = ag.area(block, at=(2, 2), on=m, elevation=1e300)
    assert a.tokens() == []
    a = ag.area(block, at=(2, 2), on=m, elevation=10)
    assert [r.token.name for r in a.tokens()] == ["low"]  # 10-ft blocks reach 5 ft down to the low one's top
