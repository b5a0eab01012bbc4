import pytest

import aoegrid as ag
from aoegrid.rules import resolve_rules


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
    ],
)
def test_bad_rules(make, match):
    with pytest.raises(ag.AoegridError, match=match):
        make()
