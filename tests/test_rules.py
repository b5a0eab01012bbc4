import pytest

import aoegrid as ag
from aoegrid.geometry.rules import resolve_rules


def test_presets_and_aliases():
    assert resolve_rules("pathfinder") is resolve_rules("pf1") is resolve_rules("starfinder")
    assert resolve_rules("5e").name == "sw5e"
    assert resolve_rules("SWADE").name == "savage-worlds"
    sf = ag.PRESETS["starfinder"]
    assert (sf.diagonals, sf.inclusion, sf.cone, sf.line_width) == ("alternating", "far-edge", "quarter-circle", 0.0)
    pf2 = ag.PRESETS["pf2e"]
    assert pf2.line_width == 5.0 and pf2.from_space is ag.SpaceOrigin.EDGES
    sw5e = ag.PRESETS["sw5e"]
    assert (sw5e.inclusion, sw5e.cone, sw5e.line_width) == ("half", "triangle", 5.0)
    assert "cone" not in sw5e.origin_included and "sphere" in sw5e.origin_included
    sw = ag.PRESETS["savage-worlds"]
    assert (sw.inclusion, sw.units, sw.cone) == ("touch", "in", "teardrop")


def test_rules_copy_with_changes():
    r = ag.Rules.preset("starfinder").replace(diagonals="euclidean")
    assert r.diagonals is ag.Diagonals.EUCLIDEAN and r.inclusion is ag.Inclusion.FAR_EDGE
    assert ag.Rules.preset("starfinder").diagonals is ag.Diagonals.ALTERNATING


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: resolve_rules("dnd3"), r"unknown rules 'dnd3'; valid presets are 'starfinder', 'pf2e', 'sw5e', 'savage-worlds', 'pathfinder'"),
        (lambda: resolve_rules(5), r"rules must be a preset name or an aoegrid.Rules, got 5 of type int"),
        (lambda: ag.Rules(inclusion="most"), r"unknown inclusion 'most'; valid choices are 'far-edge', 'center', 'half', 'touch'"),
        (lambda: ag.Rules(diagonals=3), r"diagonals must be a string, one of 'alternating'"),
        (lambda: ag.Rules(origin_included={"blob"}), r"unknown shape name\(s\) \['blob'\] in origin_included"),
        (lambda: ag.Rules(line_width=-1), r"Rules line_width must be 0 or more, got -1"),
        (lambda: ag.Rules(line_squares="band"), r"unknown line_squares 'band'; valid choices are 'path', 'center-band'"),
    ],
)
def test_bad_rules(make, match):
    with pytest.raises(ag.AoegridError, match=match):
        make()


PF2E_BAND = ag.Rules.preset("pf2e").replace(line_squares="center-band")


@pytest.mark.parametrize(
    ("direction", "path", "band"),
    [
        # Along a grid line from an intersection the band's edges pass through both rows' centres.
        ("E", [(4, 4), (5, 4), (6, 4), (7, 4), (8, 4), (9, 4)],
         [(4, 3), (5, 3), (6, 3), (7, 3), (8, 3), (9, 3), (4, 4), (5, 4), (6, 4), (7, 4), (8, 4), (9, 4)]),
        # On a diagonal both readings take the squares the path crosses: 5 + 10 + 5 + 10 ft.
        ("SE", [(4, 4), (5, 5), (6, 6), (7, 7)], [(4, 4), (5, 5), (6, 6), (7, 7)]),
        # 30 degrees off the grid the path crosses (5, 5), whose centre lies 0.55 squares from it.
        (30, [(4, 4), (5, 4), (5, 5), (6, 5), (7, 5), (7, 6), (8, 6)],
         [(4, 4), (5, 4), (6, 5), (7, 5), (7, 6), (8, 6)]),
    ],
)
def test_a_pf2e_line_by_its_path_or_by_foundrys_centre_band(direction, path, band):
    grid = ag.Grid(14, 10)
    assert ag.area(ag.Line(30, direction), at=(4, 4), on=grid, rules="pf2e").squares == path
    assert ag.area(ag.Line(30, direction), at=(4, 4), on=grid, rules=PF2E_BAND).squares == band


def test_the_centre_band_is_searched_as_it_is_built():
    # Two goblins side by side across the grid line the line runs along: the band takes both.
    goblins = [ag.Token(7, 3, name="upper", tags={"enemy"}), ag.Token(7, 4, name="lower", tags={"enemy"})]
    caster = ag.Token(3, 3, name="caster")
    m = ag.BattleMap(ag.Grid(14, 10), tokens=[caster, *goblins])
    for rules, hits in (("pf2e", 1.0), (PF2E_BAND, 2.0)):
        (best,) = ag.best_placements(ag.Line(30, "E"), caster=caster, on=m, rules=rules, hit="enemy",
                                     directions=["E"])
        assert best.score == hits
        built = ag.area(ag.Line(30, "E"), at=best.at, on=m, rules=rules)
        assert len(built.tokens(tags={"enemy"})) == hits
