"""Areas in open field: the answers the rules texts give, and literal grids."""

import math

import numpy as np
import pytest
from tests.conftest import picture

import aoegrid as ag


def squares_around(a: ag.Area, x0: int, y0: int) -> list[tuple[int, int]]:
    return [(x - x0, y - y0) for x, y in a.squares]


# --- Starfinder -------------------------------------------------------------


def test_starfinder_bursts_from_the_rules_text(grid):
    assert len(ag.area(ag.Sphere(10), at=(20, 15), on=grid, rules="starfinder")) == 12
    assert len(ag.area(ag.Sphere(20), at=(20, 15), on=grid, rules="starfinder")) == 44


def test_starfinder_20ft_burst_picture():
    a = ag.area(ag.Sphere(20), at=(4, 4), on=ag.Grid(8, 8))
    expected = picture(
        """
        . . . # # . . .
        . # # # # # # .
        . # # # # # # .
        # # # # # # # #
        # # # # # # # #
        . # # # # # # .
        . # # # # # # .
        . . . # # . . .
        """
    )
    np.testing.assert_array_equal(a.mask, expected)


def test_starfinder_cone_south_rows_of_2_4_2(grid):
    a = ag.area(ag.Cone(15, "S"), at=(20, 15), on=grid)
    assert len(a) == 8
    rows = [sum(1 for _, y in a.squares if y == 15 + k) for k in range(3)]
    assert rows == [2, 4, 2]
    assert squares_around(a, 20, 15) == [(-1, 0), (0, 0), (-2, 1), (-1, 1), (0, 1), (1, 1), (-1, 2), (0, 2)]


def test_starfinder_cone_south_east_rows_of_3_2_1(grid):
    a = ag.area(ag.Cone(15, "SE"), at=(20, 15), on=grid)
    assert len(a) == 6
    assert squares_around(a, 20, 15) == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (0, 2)]


def test_starfinder_line_counts_the_alternating_rule():
    g = ag.Grid(20, 20)
    east = ag.area(ag.Line(30, "E"), at=(2, 5), on=g)
    assert east.squares == [(x, 5) for x in range(2, 8)]  # grid line: the right (south) side
    west_side = ag.area(ag.Line(30, "E", side="left"), at=(2, 5), on=g)
    assert west_side.squares == [(x, 4) for x in range(2, 8)]
    diag = ag.area(ag.Line(60, "SE"), at=(0, 0), on=g)
    # 8 diagonal squares cost 8 + 4 = 12 squares = 60 ft.
    assert diag.squares == [(k, k) for k in range(8)]


def test_starfinder_line_at_30_degrees_takes_the_squares_it_crosses():
    a = ag.area(ag.Line(30, 30), at=(2, 2), on=ag.Grid(12, 12))
    assert a.squares == [(2, 2), (3, 2), (3, 3), (4, 3), (5, 3), (5, 4), (6, 4)]


def test_starfinder_origin_must_be_an_intersection(grid):
    with pytest.raises(ag.InvalidValueError, match=r"starfinder rules put every point of origin on a grid intersection; \(20.5, 15.5\) is not one \(nearest: \(20, 16\)\)"):
        ag.area(ag.Sphere(10), at=(20.5, 15.5), on=grid)
    free = ag.Rules.preset("starfinder").replace(origin="any")
    # From a square's centre the far corners sit half a square off the
    # lattice: (0.5, 0.5) and (1.5, 1.5) count 0.5 and 1.5, (2.5, 0.5) 2.5.
    assert len(ag.area(ag.Sphere(10), at=(20.5, 15.5), on=grid, rules=free)) == 9


def test_starfinder_emanation_from_creatures(grid):
    medium = ag.area(ag.Sphere(10), at=ag.Token(3, 5), on=grid, mode="emanation")
    # Odd sizes: from the top-left corner of the creature's square.
    assert medium == ag.area(ag.Sphere(10), at=(3, 5), on=grid)
    large = ag.area(ag.Sphere(10), at=ag.Token(3, 5, size="large"), on=grid, mode="emanation")
    assert large == ag.area(ag.Sphere(10), at=(4, 6), on=grid)


def test_far_edge_with_euclidean_distance(grid):
    euclid = ag.Rules.preset("starfinder").replace(diagonals="euclidean")
    # Far corners (a, b) with a*a + b*b <= 16: (1|2, 1..3) and (3, 1..2) make
    # 8 a quadrant; alternating counts (3, 3) and (1, 4) as 4 too, giving 11.
    a = ag.area(ag.Sphere(20), at=(20, 15), on=grid, rules=euclid)
    assert len(a) == 4 * 8


def test_far_edge_cube_sits_on_the_grid(grid):
    a = ag.area(ag.Cube(15, "E", anchor="left"), at=(2, 5), on=grid)
    assert a.squares == [(x, y) for y in range(5, 8) for x in range(2, 5)]


def test_shapable_area():
    g = ag.Grid(10, 10)
    shape = ag.Shapable([(0, 0), (1, 0), (0, 1), (1, 1), (2, 0), (3, 0), (2, 1), (3, 1)])
    assert ag.area(shape, at=(4, 4), on=g).squares == [(4, 4), (5, 4), (6, 4), (7, 4), (4, 5), (5, 5), (6, 5), (7, 5)]
    thin = ag.Shapable([(0, 0), (1, 0), (0, 1), (1, 1), (2, 0)])
    with pytest.raises(ag.InvalidValueError, match=r"Shapable area has a dimension under 10 \(2 squares\): square\(s\) \(2, 0\) lie in no solid 2 x 2 block"):
        ag.area(thin, at=(4, 4), on=g)
    with pytest.raises(ag.InvalidValueError, match=r"placed at an intersection, not on a creature"):
        ag.area(shape, at=ag.Token(1, 1), on=g)


# --- Pathfinder 2e ----------------------------------------------------------


def test_pf2e_5ft_emanation_around_medium_creature(grid):
    a = ag.area(ag.Sphere(5), at=ag.Token(10, 10), on=grid, rules="pf2e", mode="emanation")
    assert len(a) == 9
    assert (10, 10) in a
    assert a.squares == [(x, y) for y in range(9, 12) for x in range(9, 12)]


def test_pf2e_emanation_from_the_edges_of_a_large_space(grid):
    a = ag.area(ag.Sphere(10), at=ag.Token(3, 5, size="large"), on=grid, rules="pf2e", mode="emanation")
    # 6 x 6 around the 2 x 2 space, less the four corners (alternating 3 > 2).
    assert len(a) == 32
    assert (1, 3) not in a and (2, 3) in a


def test_pf2e_line_is_5ft_wide(grid):
    a = ag.area(ag.Line(30, "E"), at=(2, 5), on=grid, rules="pf2e")
    assert a.squares == [(x, 5) for x in range(2, 8)]


# --- SW5e ---------------------------------------------------------------------


def test_sw5e_15ft_cone_east_from_an_intersection(grid):
    a = ag.area(ag.Cone(15, "E"), at=(5, 5), on=grid, rules="sw5e")
    assert squares_around(a, 5, 5) == [(1, -1), (2, -1), (1, 0), (2, 0)]


def test_sw5e_20ft_sphere_is_52_squares(grid):
    a = ag.area(ag.Sphere(20), at=(20, 15), on=grid, rules="sw5e")
    assert len(a) == 52


def test_sw5e_caster_left_out_of_own_area_unless_chosen(grid):
    caster = ag.Token(10, 10)
    cone = ag.area(ag.Cone(15, "E"), at=caster, on=grid, rules="sw5e")
    # Apex on the middle of the east edge; the caster's row is exactly half
    # covered next to it, and half counts.
    assert cone.squares == [(13, 9), (11, 10), (12, 10), (13, 10), (13, 11)]
    cube = ag.area(ag.Cube(15, "E"), at=caster, on=grid, rules="sw5e")
    assert (10, 10) not in cube and len(cube) == 9
    sphere = ag.area(ag.Sphere(5), at=caster, on=grid, rules="sw5e")
    assert (10, 10) in sphere and len(sphere) == 9
    without = ag.area(ag.Sphere(5), at=caster, on=grid, rules="sw5e", include_origin=False)
    assert (10, 10) not in without and len(without) == 8
    big = ag.area(ag.Cone(60, 180), at=ag.Token(10, 10), on=grid, rules="sw5e")
    assert (10, 10) not in big
    kept = ag.area(ag.Cone(60, 0), at=(10, 10.5), on=grid, rules="sw5e")
    assert (10, 10) in kept  # a point origin has no squares of its own to leave out


def test_sw5e_line_and_cube_pictures():
    g = ag.Grid(8, 5)
    line = ag.area(ag.Line(30, "E"), at=(1, 2.5), on=g, rules="sw5e")
    assert line.squares == [(x, 2) for x in range(1, 7)]
    cube = ag.area(ag.Cube(15, "E"), at=(1, 2.5), on=g, rules="sw5e")
    np.testing.assert_array_equal(
        cube.mask,
        picture(
            """
            . . . . . . . .
            . # # # . . . .
            . # # # . . . .
            . # # # . . . .
            . . . . . . . .
            """
        ),
    )


def test_sw5e_rotated_cube_half_rule():
    # A 10-ft cube turned 45 degrees, its near face centred on (4, 4): square
    # (4, 4) is wholly inside, (5, 4) and (4, 5) 81% covered, (5, 5) only 34%.
    a = ag.area(ag.Cube(10, "SE"), at=(4, 4), on=ag.Grid(9, 9), rules="sw5e")
    assert a.squares == [(4, 4), (5, 4), (4, 5)]


# --- Savage Worlds -----------------------------------------------------------


def test_savage_worlds_small_blast_on_a_square():
    g = ag.Grid(10, 10, units="in")
    a = ag.area(ag.savage_worlds.SMALL_BLAST, at=(4.5, 4.5), on=g, rules="savage-worlds")
    assert len(a) == 9
    assert a.squares == [(x, y) for y in range(3, 6) for x in range(3, 6)]


def test_savage_worlds_templates():
    g = ag.Grid(30, 30, units="in")
    medium = ag.area(ag.savage_worlds.MEDIUM_BLAST, at=(10.5, 10.5), on=g, rules="sw")
    large = ag.area(ag.savage_worlds.LARGE_BLAST, at=(10.5, 10.5), on=g, rules="sw")
    # Radius 2 from a centre: 5 x 5 less the corners (nearest point 2.12 away).
    assert len(medium) == 21
    # Radius 3: 7 x 7 less the corners, whose nearest point is 3.54 away;
    # the squares beside them are 2.92 away and touched.
    assert len(large) == 45
    cone = ag.area(ag.savage_worlds.CONE, at=(5, 10.5), on=g, rules="sw")
    # Apex at (5, 10.5); the end circle (radius 1.5) is centred at (12.5, 10.5)
    # and meets x = 14 and y = 9 at single points. The tangent sides widen by
    # 0.2 per inch, so the rows above and below start where they pass 0.5.
    assert cone.squares == [(x, y) for y, xs in ((9, range(7, 14)), (10, range(5, 14)), (11, range(7, 14))) for x in xs]
    assert len(cone) == 23
    stream = ag.area(ag.savage_worlds.STREAM, at=(5, 10.5), on=g, rules="sw")
    assert stream.squares == [(x, 10) for x in range(5, 17)]


def test_savage_worlds_needs_an_inch_grid(grid):
    fix = r"make the grid in the same unit, e.g. aoegrid.Grid\(40, 30, units='in'\)"
    with pytest.raises(ag.InvalidValueError, match=r"savage-worlds rules measure in 'in' but the grid is in 'ft' \(5 ft a square\); " + fix):
        ag.area(ag.savage_worlds.SMALL_BLAST, at=(4.5, 4.5), on=grid, rules="savage-worlds")
    # The templates are in inches: on a feet grid they are refused, not drawn as a 2-ft circle (0 squares).
    with pytest.raises(ag.InvalidValueError, match=r"Sphere\(radius=2.0, units='in'\) is sized in 'in' but the grid is in 'ft' \(5 ft a square\); " + fix):
        ag.area(ag.savage_worlds.MEDIUM_BLAST, at=(10, 10), on=grid)
    inches = ag.Grid(40, 30, units="in")
    assert len(ag.area(ag.savage_worlds.MEDIUM_BLAST, at=(10, 10), on=inches, rules="savage-worlds")) == 16
    with pytest.raises(ag.InvalidValueError, match=r"starfinder rules measure in 'ft' but the grid is in 'in'"):
        ag.area(ag.savage_worlds.MEDIUM_BLAST, at=(10, 10), on=inches)
    with pytest.raises(ag.InvalidTypeError, match=r"Sphere units must be None \(the grid's unit\) or a unit name such as 'ft' or 'in', got 5"):
        ag.Sphere(2, units=5)


# --- Inclusion rules side by side -------------------------------------------


@pytest.mark.parametrize(("inclusion", "count"), [("far-edge", 44), ("center", 52), ("half", 52), ("touch", 60)])
def test_one_burst_under_each_inclusion(grid, inclusion, count):
    rules = ag.Rules(inclusion=inclusion)
    assert len(ag.area(ag.Sphere(20), at=(20, 15), on=grid, rules=rules)) == count


def test_touch_excludes_a_square_met_at_a_single_point(grid):
    # A circle of radius 1 around intersection (20, 15) covers part of the 4
    # squares around it and meets (20, 16), (21, 15) ... at single points.
    a = ag.area(ag.Sphere(5), at=(20, 15), on=grid, rules=ag.Rules(inclusion="touch"))
    assert a.squares == [(19, 14), (20, 14), (19, 15), (20, 15)]
    assert (20, 16) not in a and (21, 15) not in a


def test_half_counts_exactly_half(grid):
    # A 5-ft-wide line along a grid line half-covers the two rows beside it.
    a = ag.area(ag.Line(10, "E"), at=(5, 5), on=grid, rules="sw5e")
    assert a.squares == [(5, 4), (6, 4), (5, 5), (6, 5)]


# --- The Area object ----------------------------------------------------------


def test_area_api(grid):
    a = ag.area(ag.Sphere(20), at=(20, 15), on=grid, rules="starfinder")
    assert a.mask.shape == (30, 40) and a.mask.dtype == np.bool_
    assert a.mask[15, 21] and (21, 15) in a and (0, 0) not in a and "x" not in a
    assert a.squares == sorted(a.squares, key=lambda s: (s[1], s[0]))
    assert len(a) == int(a.mask.sum()) == 44
    assert list(a) == a.squares
    assert "44 squares of a 40x30 grid" in repr(a)
    with pytest.raises(ValueError):
        a.mask[0, 0] = True  # read-only: a shared stencil must not be changed


def test_set_operations(grid):
    a = ag.area(ag.Sphere(10), at=(10, 10), on=grid)
    b = ag.area(ag.Sphere(10), at=(12, 10), on=grid)
    assert len(a | b) == 20 and len(a & b) == 4 and len(a - b) == 8
    assert (a - b) | (a & b) == a
    with pytest.raises(ag.GridMismatchError, match=r"cannot combine areas on different grids"):
        _ = a | ag.area(ag.Sphere(10), at=(10, 10), on=ag.Grid(20, 20))


def test_shape_larger_than_grid_is_clipped():
    g = ag.Grid(5, 4)
    a = ag.area(ag.Sphere(500), at=(0, 0), on=g)
    assert len(a) == 20 and a.mask.all()
    edge = ag.area(ag.Sphere(10), at=(0, 0), on=g)
    assert edge.squares == [(0, 0), (1, 0), (0, 1)]


def test_spread_and_emanation_equal_burst_in_open_field(grid):
    for mode in ("emanation", "spread"):
        for rules in ("starfinder", "pf2e", "sw5e"):
            burst = ag.area(ag.Sphere(20), at=(20, 15), on=grid, rules=rules)
            assert ag.area(ag.Sphere(20), at=(20, 15), on=grid, rules=rules, mode=mode) == burst


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"at": (41, 3)}, ag.OffGridError, r"origin \(41, 3\) is off the 40 x 30 grid; points must lie in \[0, 40\] x \[0, 30\]"),
        ({"at": (3, -1)}, ag.OffGridError, r"origin \(3, -1\) is off the 40 x 30 grid"),
        ({"at": ag.Token(39, 29, size="large")}, ag.OffGridError, r"creature space Space\(x=39, y=29, width=2, height=2\) is not wholly on the 40 x 30 grid"),
        ({"at": "here"}, ag.InvalidTypeError, r"at must be an \(x, y\) pair in grid units, got 'here'"),
        ({"at": (1, 1), "mode": "blast"}, ag.InvalidValueError, r"unknown mode 'blast'; valid choices are 'burst', 'emanation', 'spread'"),
        ({"at": (1, 1), "rules": "d20"}, ag.InvalidValueError, r"unknown rules 'd20'"),
        ({"at": (1, 1), "include_origin": "yes"}, ag.InvalidTypeError, r"include_origin must be True, False or None, got 'yes'"),
    ],
)
def test_bad_area_input(grid, kwargs, error, match):
    with pytest.raises(error, match=match):
        ag.area(ag.Sphere(10), on=grid, **kwargs)


def test_bad_area_types(grid):
    with pytest.raises(ag.InvalidTypeError, match=r"on must be an aoegrid.Grid or BattleMap, got \(40, 30\) of type tuple"):
        ag.area(ag.Sphere(10), at=(1, 1), on=(40, 30))
    with pytest.raises(ag.InvalidTypeError, match=r"shape must be one of Sphere, Cylinder, Cone, Line, Cube, Shapable; got 20"):
        ag.area(20, at=(1, 1), on=grid)


def test_a_creatures_emanation_follows_the_creature_on_its_map():
    pal = ag.Token(5, 5, name="paladin")
    m = ag.BattleMap(ag.Grid(20, 12), tokens=[pal, ag.Token(6, 6, name="friend"), ag.Token(12, 5, name="orc")])
    aura = ag.area(ag.Sphere(10), at=pal, on=m, rules="pf2e", mode="emanation")
    later = aura.moved(pal.moved_to(9, 5))
    assert len(aura) == len(later) == 21
    # The paladin moved with his aura: he neither left it nor entered it; his friend stayed behind.
    entered, left = aura.subject_changes(later)
    assert [t.name for t in entered] == [] and [t.name for t in left] == ["friend"]
    assert [r.token.name for r in later.tokens()] == ["paladin"]
    assert later.battlemap.token("paladin").space == ag.Space(9, 5, 1, 1)
    assert m.token("paladin").space == ag.Space(5, 5, 1, 1)  # the first map is unchanged


def test_a_creatures_emanation_refuses_a_bare_point():
    pal = ag.Token(5, 5, name="paladin")
    aura = ag.area(ag.Sphere(10), at=pal, on=ag.BattleMap(ag.Grid(20, 12), tokens=[pal]), rules="pf2e", mode="emanation")
    with pytest.raises(ag.InvalidTypeError, match=r"this area comes from the space of paladin: pass the creature where it now stands \(a Token, e\.g\. token\.moved_to\(x, y\), or a Space\), not \(9, 5\)"):
        aura.moved((9, 5))
    point_burst = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(20, 12))
    assert len(point_burst.moved((9, 5))) == 12


def test_membership_of_a_non_square_is_false_not_an_error():
    a = ag.area(ag.Sphere(10), at=(4, 4), on=ag.Grid(8, 8))
    assert (3, 4) in a
    assert (float("inf"), 0) not in a and (float("nan"), 0) not in a and (10**400, 0) not in a
    assert "x" not in a and (1, 2, 3) not in a and None not in a


# --- a caster's placement, checked ----------------------------------------------------------


def test_a_placement_out_of_range_names_the_nearest_legal_origin():
    m = ag.BattleMap(ag.Grid(20, 6), walls=[ag.Wall((5, 0), (5, 4))])
    wizard = ag.Token(1, 1, name="wizard")
    with pytest.raises(ag.IllegalOriginError, match=r"point of origin \(14, 1\) is 60 ft from the caster, beyond its "
                                                   r"range of 30 ft; the nearest legal origin is \(6, 5\)") as caught:
        ag.area(ag.Sphere(10), at=(14, 1), on=m, caster=wizard, range=30)
    assert caught.value.reason == "out of range" and caught.value.nearest == (6, 5)
    assert isinstance(caught.value, ValueError)
    assert len(ag.area(ag.Sphere(10), at=(6, 5), on=m, caster=wizard, range=30)) > 0


def test_a_placement_behind_a_wall_or_in_it_is_refused():
    m = ag.BattleMap(ag.Grid(20, 6), walls=[ag.Wall((5, 0), (5, 4))])
    wizard = ag.Token(1, 1, name="wizard")
    with pytest.raises(ag.IllegalOriginError, match=r"line of effect") as caught:
        ag.area(ag.Sphere(10), at=(7, 1), on=m, caster=wizard, range=60)
    assert caught.value.reason == "no line of effect"
    with pytest.raises(ag.IllegalOriginError) as inside:
        ag.area(ag.Sphere(10), at=(5, 2), on=m, caster=wizard, range=60)
    assert inside.value.reason == "inside a wall"


def behind_a_wall():
    """A wall down x = 8, the caster c west of it in square (5, 4)."""
    c = ag.Token(5, 4, name="c")
    return ag.BattleMap(ag.Grid(16, 10), [ag.Wall((8, 0), (8, 10))], tokens=[c]), c


@pytest.mark.parametrize("rng", [None, ag.Range("unlimited"), 60])
def test_a_caster_given_means_the_origin_is_checked_whatever_the_range(rng):
    m, c = behind_a_wall()
    with pytest.raises(ag.IllegalOriginError, match=r"^the caster has no line of effect to point of origin \(10, 6\); "
                                                   r"the nearest legal origin is \(7, 6\)$") as caught:
        ag.area(ag.Sphere(10), at=(10, 6), on=m, caster=c, range=rng)
    assert caught.value.reason == "no line of effect" and caught.value.nearest == (7, 6)
    with pytest.raises(ag.IllegalOriginError, match=r"point of origin \(8, 3\) lies inside a wall"):
        ag.area(ag.Sphere(10), at=(8, 3), on=m, caster=c, range=rng)
    with pytest.raises(ag.IllegalOriginError, match=r"a cone starts at its caster and is aimed by direction"):
        ag.area(ag.Cone(15, "E"), at=(6, 5), on=m, caster=c, range=rng)
    assert len(ag.area(ag.Sphere(10), at=(10, 6), on=m)) == 12   # no caster: nothing to check


@pytest.mark.parametrize("rng", [None, 60])
def test_sw5e_an_unseen_point_behind_a_wall_comes_into_being_on_its_near_side_in_range_or_not(rng):
    m, c = behind_a_wall()
    a = ag.area(ag.Sphere(10), at=(10.5, 6.5), on=m, caster=c, rules="sw5e", range=rng)
    # The line from the centre of c's space (5.5, 4.5) meets the wall at (8, 5.5): the sphere starts just short of it.
    assert len(a) == 6 and a.squares == [(6, 4), (7, 4), (6, 5), (7, 5), (6, 6), (7, 6)]
    assert a.origin == pytest.approx((8 - 1e-6 * 2.5 / math.hypot(2.5, 1), 5.5 - 1e-6 / math.hypot(2.5, 1)))
    check = ag.check_origin(ag.Sphere(10), (10.5, 6.5), caster=c, range=rng, on=m, rules="sw5e")
    assert check.legal and check.origin == a.origin
    # The range is measured to the point chosen: 22.5 ft away, not the 12.5 ft to where it comes into being.
    with pytest.raises(ag.IllegalOriginError, match=r"point of origin \(10.5, 6.5\) is 22.5 ft from the caster, "
                                                   r"beyond its range of 20 ft"):
        ag.area(ag.Sphere(10), at=(10.5, 6.5), on=m, caster=c, rules="sw5e", range=20)
    # A point the caster sees stays where it is; without a caster nothing moves.
    assert ag.area(ag.Sphere(10), at=(6.5, 4.5), on=m, caster=c, rules="sw5e", range=rng).origin == (6.5, 4.5)
    assert ag.area(ag.Sphere(10), at=(10.5, 6.5), on=m, rules="sw5e").origin == (10.5, 6.5)


def test_a_cone_with_a_range_starts_at_its_caster():
    wizard = ag.Token(3, 3, name="wizard")
    m = ag.BattleMap(ag.Grid(12, 12), tokens=[wizard])
    cone = ag.area(ag.Cone(15, "E"), at=wizard, on=m, caster=wizard, range=15)
    assert len(cone) == 8
    with pytest.raises(ag.IllegalOriginError, match=r"a cone starts at its caster and is aimed by direction"):
        ag.area(ag.Cone(15, "E"), at=(6, 6), on=m, caster=wizard, range=15)
    with pytest.raises(ag.InvalidValueError, match=r"range= is measured from the caster: pass caster="):
        ag.area(ag.Sphere(10), at=(6, 6), on=m, range=15)


def test_a_casters_visibility_is_kept_by_the_map_and_gives_the_same_answers():
    m = ag.BattleMap(ag.Grid(16, 10), [ag.Wall((8, 0), (8, 5))], tokens=[ag.Token(5, 4, name="c")])
    c = m.token("c")
    first = ag.area(ag.Sphere(10), at=(10, 8), on=m, caster=c)
    kept = len(m._prepared.kept)
    again = ag.area(ag.Sphere(10), at=(11, 8), on=m, caster=c)
    # The caster's five points (corners nudged in, centre) are not looked at again: one new view.
    assert len(m._prepared.kept) == kept + 1
    fresh = ag.BattleMap(m.grid, m.walls, m.tokens)
    assert again.squares == ag.area(ag.Sphere(10), at=(11, 8), on=fresh, caster=fresh.token("c")).squares
    assert (len(first), len(again)) == (12, 12)
