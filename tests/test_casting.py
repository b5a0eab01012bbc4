"""Casting numbers: SW5e points, DCs, disadvantage, combining; Savage Worlds Power Points."""

import pytest

import aoegrid as ag
from aoegrid import savage_worlds as swade
from aoegrid import sw5e


def test_sw5e_point_costs_every_level_and_upcasting():
    assert [sw5e.point_cost(n) for n in range(10)] == [0, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert sw5e.point_cost(1, cast_level=2) == 3  # Umara casts project at 2nd level
    assert sw5e.point_cost(3, cast_level=9) == 10
    with pytest.raises(ag.InvalidValueError, match=r"a level 3 power cannot be cast at level 2"):
        sw5e.point_cost(3, cast_level=2)
    with pytest.raises(ag.InvalidValueError, match=r"power level must be a power level from 0 \(at-will\) to 9, got -1"):
        sw5e.point_cost(-1)
    with pytest.raises(ag.InvalidValueError, match=r"an at-will \(level 0\) power is not cast at a higher level"):
        sw5e.point_cost(0, cast_level=1)


def test_sw5e_dcs_and_bonuses():
    assert sw5e.save_dc(3, 2) == 13 and sw5e.save_dc(5, 6, special=1) == 20
    assert sw5e.attack_bonus(4, 3) == 7
    assert [sw5e.concentration_dc(d) for d in (1, 20, 21, 45)] == [10, 10, 10, 22]
    assert sw5e.concentration_saves([8, 30, 21]) == [10, 15, 10]
    with pytest.raises(ag.InvalidValueError, match=r"damage must be 0 or more, got -3"):
        sw5e.concentration_dc(-3)


def test_sw5e_ranged_attack_disadvantage_from_the_map():
    caster = ag.Token(5, 5, name="caster")
    guard = ag.Token(6, 6, name="guard", tags={"hostile"})
    sleeper = ag.Token(4, 5, name="sleeper", tags={"hostile", "incapacitated"})
    friend = ag.Token(5, 6, name="friend")
    far = ag.Token(8, 5, name="far", tags={"hostile"})
    m = ag.BattleMap(ag.Grid(12, 12), tokens=[caster, guard, sleeper, friend, far])
    assert [t.name for t in sw5e.threatening(caster, m)] == ["guard"]
    assert sw5e.ranged_attack_disadvantage(caster, m)
    # A hostile behind a closed door cannot see the caster.
    walled = ag.BattleMap(ag.Grid(12, 12), walls=[ag.Wall((6, 0), (6, 12), kind="door")], tokens=[caster, ag.Token(6, 5, tags={"hostile"})])
    assert not sw5e.ranged_attack_disadvantage(caster, walled)


def test_sw5e_same_power_does_not_stack():
    spans = sw5e.combine([sw5e.Effect("guidance", 4, 0, 10), sw5e.Effect("guidance", 6, 5, 8), sw5e.Effect("shield", 5, 2, 6)])
    assert spans[2] == (5.0, 6.0, {"guidance": 6.0, "shield": 5.0})
    assert spans[-1] == (8.0, 10.0, {"guidance": 4.0})
    with pytest.raises(ag.InvalidValueError, match=r"an Effect ends after it starts, got start 5, end 5"):
        sw5e.Effect("x", 1, 5, 5)


def test_savage_worlds_power_points():
    assert [swade.armor_piercing_cost(ap) for ap in (2, 4, 6)] == [1, 2, 3]
    with pytest.raises(ag.InvalidValueError, match=r"Armor Piercing comes in AP 2, 4 or 6 .* got 8"):
        swade.armor_piercing_cost(8)
    assert swade.power_cost(2, {"armor_piercing": 4, "range": 2, "selective": True}) == 6
    assert swade.power_cost(3, {"range": 3, "lingering_damage": True, "glow": True}) == 3 + 2 + 2 + 1
    with pytest.raises(ag.InvalidValueError, match=r"the Range modifier may not be used on powers with a Range of Touch or the Cone Template"):
        swade.power_cost(2, {"range": 2}, range_touch_or_cone=True)
    with pytest.raises(ag.InvalidValueError, match=r"unknown power modifier 'sparkle'; valid modifiers are armor_piercing, fatigue"):
        swade.power_cost(2, {"sparkle": True})
    assert swade.shorting(3, 0) == swade.Shorting(3, -3, True)
    assert swade.shorting(2, 5) == swade.Shorting(0, 0, False)
    assert swade.maintenance_cost(3) == 3 and swade.maintenance_cost(2, durations=3) == 6
    assert swade.recovered(2.5) == 10
    assert swade.recovered(10**6) == 5 * 10**6
    with pytest.raises(ag.InvalidValueError, match=r"hours must be a finite number, got ~1e400, beyond the float range"):
        swade.recovered(10**400)
    with pytest.raises(ag.InvalidValueError, match=r"hours must be 0 or more, got -1"):
        swade.recovered(-1)


def test_savage_worlds_modifier_names_are_canonical_and_taken_once():
    # "Unless a modifier says otherwise, it may be applied ... only once per casting."
    assert swade.power_cost(1, {"Selective": True, "Armor Piercing": 2, "lingering-damage": True, " HEAVY  weapon ": True}) == 1 + 1 + 1 + 2 + 2
    with pytest.raises(ag.InvalidValueError, match=r"modifiers 'selective' and 'Selective' are the same modifier \(selective\); a modifier applies only once per casting"):
        swade.power_cost(1, {"selective": True, "Selective": True})
    with pytest.raises(ag.InvalidValueError, match=r"modifiers 'armor_piercing' and 'Armor-Piercing' are the same modifier"):
        swade.power_cost(1, {"armor_piercing": 2, "Armor-Piercing": 4})
    # "A caster can Hurry the recipient instead."
    with pytest.raises(ag.InvalidValueError, match=r"modifiers 'Slow' and 'hurry' exclude each other: .*choose one"):
        swade.power_cost(1, {"Slow": True, "hurry": True})
    assert swade.power_cost(1, {"slow": True}) == swade.power_cost(1, {"Hurry": True}) == 2


def test_savage_worlds_range_modifier_doubles_or_triples_once():
    assert [swade.range_cost(m) for m in (2, 3)] == [1, 2]
    with pytest.raises(ag.InvalidValueError, match=r"the Range modifier doubles \(x2, 1 PP\) or triples \(x3, 2 PP\) a range, once: give 2 or 3, got 4"):
        swade.power_cost(1, {"range": 4})
    with pytest.raises(ag.InvalidTypeError, match=r"give 2 or 3, got True of type bool"):
        swade.range_cost(True)


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((5, "x"), ag.InvalidTypeError, r"modifiers must be a mapping of modifier names to values, such as \{'range': 2, 'selective': True\}; got 'x' of type str"),
        ((5, ["selective"]), ag.InvalidTypeError, r"modifiers must be a mapping .*; got \['selective'\] of type list"),
        ((5, {3: True}), ag.InvalidTypeError, r"a power modifier's name must be a string, got 3 of type int"),
        (("5", None), ag.InvalidTypeError, r"base must be a whole number of Power Points, 0 or more; got '5' of type str"),
        ((-1, None), ag.InvalidValueError, r"base must be a whole number of Power Points, 0 or more; got -1"),
    ],
)
def test_savage_worlds_power_cost_refuses_bad_arguments(args, error, match):
    with pytest.raises(error, match=match):
        swade.power_cost(*args)


def test_savage_worlds_power_cost_without_modifiers():
    assert swade.power_cost(5) == swade.power_cost(5, {}) == 5


def test_savage_worlds_activation_outcomes():
    # "A roll less than 4 means the power doesn't activate. The caster spends one Power Point".
    assert swade.activation(3, 5) == swade.Activation(False, 1, 0, False, False)
    # "A roll of 4 or higher ... consumes all the Power Points allocated to it".
    assert swade.activation(4, 5) == swade.Activation(True, 5, 0, False, False)
    assert swade.activation(7, 2).raises == 0 and swade.activation(8, 2).raises == 1 and swade.activation(12, 2).raises == 2
    # A failed shorted roll is a Critical Failure: Backlash.
    assert swade.activation(3, 0, shorted=True) == swade.Activation(False, 1, 0, True, True)
    assert swade.activation(5, 1, shorted=True) == swade.Activation(True, 1, 0, False, False)
    # Snake eyes fail whatever the total.
    assert swade.activation(6, 3, critical=True) == swade.Activation(False, 1, 0, True, True)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((4.0, 2), {}, ag.InvalidTypeError, r"roll must be a whole number \(the roll's total\), got 4.0 of type float"),
        ((True, 2), {}, ag.InvalidTypeError, r"roll must be a whole number"),
        ((4, -1), {}, ag.InvalidValueError, r"allocated_pp must be a whole number of Power Points, 0 or more; got -1"),
        ((4, 2, "yes"), {}, ag.InvalidTypeError, r"shorted must be True or False, got 'yes'"),
        ((4, 2), {"critical": 1}, ag.InvalidTypeError, r"critical must be True or False, got 1"),
    ],
)
def test_savage_worlds_activation_refuses_bad_arguments(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        swade.activation(*args, **kwargs)
