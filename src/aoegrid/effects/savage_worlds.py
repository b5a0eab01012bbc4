"""Savage Worlds templates, in tabletop inches (one inch a square).

Use them with ``rules="savage-worlds"`` on a grid made with ``units="in"``.
A square is affected when any part of it lies under the template. Point a
template with ``replace``: ``CONE.replace(direction="S")``.

Examples
--------
>>> import aoegrid as ag
>>> grid = ag.Grid(10, 10, units="in")
>>> len(ag.area(SMALL_BLAST, at=(4.5, 4.5), on=grid, rules="savage-worlds"))
9
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass

from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import non_negative
from aoegrid.geometry.shapes import Cone, Line, Sphere

#: Small Blast Template: 2" across.
SMALL_BLAST = Sphere(1, units="in")
#: Medium Blast Template: 4" across.
MEDIUM_BLAST = Sphere(2, units="in")
#: Large Blast Template: 6" across.
LARGE_BLAST = Sphere(3, units="in")
#: The Cone Template: 9" long, its wide end rounded, 3" across.
CONE = Cone(9, direction=0, kind="teardrop", units="in")
#: A stream: a line 12" long and 1" wide.
STREAM = Line(12, direction=0, width=1, units="in")

#: Power Point prices of the common modifiers. The seed gives Armor Piercing
#: ("Each Power Point spent grants the power AP 2, to a maximum of AP 6") and
#: Range ("Double the power's listed Range for 1 Power Point, or triple it for
#: +2"); its other prices were lost with their parentheses and are the Savage
#: Worlds core rules' for the same modifiers.
MODIFIER_COSTS: dict[str, int] = {
    "fatigue": 2,
    "glow": 1,
    "shroud": 1,
    "heavy_weapon": 2,
    "hurry": 1,
    "slow": 1,
    "lingering_damage": 2,
    "selective": 1,
}


def armor_piercing_cost(ap: int) -> int:
    """Power Points for Armor Piercing ``ap``: 1 per AP 2, to AP 6.

    >>> [armor_piercing_cost(ap) for ap in (2, 4, 6)]
    [1, 2, 3]
    """
    if isinstance(ap, bool) or not isinstance(ap, int) or ap <= 0 or ap > 6 or ap % 2:
        raise InvalidValueError(f"Armor Piercing comes in AP 2, 4 or 6 (1 PP per AP 2, up to AP 6), got {ap!r}")
    return ap // 2


def range_cost(multiplier: int) -> int:
    """Power Points to double (1) or triple (2) a power's Range.

    "Double the power's listed Range for 1 Power Point, or triple it for +2."

    >>> range_cost(2), range_cost(3)
    (1, 2)
    """
    valid = "the Range modifier doubles (x2, 1 PP) or triples (x3, 2 PP) a range, once"
    if isinstance(multiplier, bool) or not isinstance(multiplier, int):
        raise InvalidTypeError(f"{valid}: give 2 or 3, got {multiplier!r} of type {type(multiplier).__name__}")
    if multiplier not in (2, 3):
        raise InvalidValueError(f"{valid}: give 2 or 3, got {multiplier!r}")
    return multiplier - 1


def _modifier_key(name: str) -> str:
    """The canonical spelling of a modifier's name: lower case, words joined by ``_``.

    >>> _modifier_key(" Armor-Piercing"), _modifier_key("Lingering Damage")
    ('armor_piercing', 'lingering_damage')
    """
    if not isinstance(name, str):
        raise InvalidTypeError(f"a power modifier's name must be a string, got {name!r} of type {type(name).__name__}")
    return re.sub(r"[\s_-]+", "_", name.strip().lower())


def power_cost(base: int, modifiers: Mapping[str, object] | None = None, *, range_touch_or_cone: bool = False) -> int:
    """Power Points for a power of ``base`` cost with modifiers.

    Parameters
    ----------
    base : int
        The power's own cost in Power Points, 0 or more.
    modifiers : mapping of str to object, optional
        Modifier names to a value: ``"armor_piercing": 4`` (AP),
        ``"range": 2`` or ``3`` (multiplier), or ``True`` for the others
        (:data:`MODIFIER_COSTS`). Names are matched ignoring case, and
        spaces, hyphens and underscores are the same (``"Armor Piercing"``
        is ``"armor_piercing"``).
    range_touch_or_cone : bool
        The power has a Range of Touch or uses the Cone Template: the Range
        modifier "may not be used" on it.

    Returns
    -------
    int

    Raises
    ------
    InvalidValueError
        A modifier named twice under two spellings ("Unless a modifier says
        otherwise, it may be applied ... only once per casting"), Slow with
        Hurry ("A caster can Hurry the recipient instead"), an unknown
        modifier or a bad value.
    InvalidTypeError
        ``base`` not a whole number, ``modifiers`` not a mapping.

    Examples
    --------
    >>> power_cost(2, {"armor_piercing": 4, "range": 2, "selective": True})
    6
    >>> power_cost(1, {"Lingering Damage": True, "hurry": True})
    4
    """
    if isinstance(base, bool) or not isinstance(base, int):
        raise InvalidTypeError(
            f"base must be a whole number of Power Points, 0 or more; got {base!r} of type {type(base).__name__}"
        )
    if base < 0:
        raise InvalidValueError(f"base must be a whole number of Power Points, 0 or more; got {base!r}")
    if modifiers is None:
        modifiers = {}
    if not isinstance(modifiers, Mapping):
        raise InvalidTypeError(
            "modifiers must be a mapping of modifier names to values, such as "
            f"{{'range': 2, 'selective': True}}; got {modifiers!r} of type {type(modifiers).__name__}"
        )
    spelled: dict[str, str] = {}
    for name in modifiers:
        key = _modifier_key(name)
        if key in spelled:
            raise InvalidValueError(
                f"modifiers {spelled[key]!r} and {name!r} are the same modifier ({key}); "
                "a modifier applies only once per casting"
            )
        spelled[key] = name
    # "A caster can Hurry the recipient instead": one or the other, not both.
    if "slow" in spelled and "hurry" in spelled:
        raise InvalidValueError(
            f"modifiers {spelled['slow']!r} and {spelled['hurry']!r} exclude each other: "
            "a caster can Hurry the recipient instead of Slowing it; choose one"
        )
    total = base
    for key, name in spelled.items():
        value = modifiers[name]
        if key == "armor_piercing":
            total += armor_piercing_cost(value)  # type: ignore[arg-type]
        elif key == "range":
            if range_touch_or_cone:
                raise InvalidValueError("the Range modifier may not be used on powers with a Range of Touch or the Cone Template")
            total += range_cost(value)  # type: ignore[arg-type]
        elif key in MODIFIER_COSTS:
            if value is not True:
                raise InvalidValueError(f"modifier {name!r} is taken once: give True, got {value!r}")
            total += MODIFIER_COSTS[key]
        else:
            valid = ", ".join(sorted(["armor_piercing", "range", *MODIFIER_COSTS]))
            raise InvalidValueError(f"unknown power modifier {name!r}; valid modifiers are {valid}")
    return total


@dataclass(frozen=True, slots=True)
class Shorting:
    """Casting with fewer Power Points than a power costs.

    "For every Power Point a character will short, she suffers a -1 penalty to
    the roll ... If a character fails a shorted Force Use skill roll, it's
    considered a Critical Failure!"
    """

    short: int
    penalty: int
    failure_is_critical: bool


def shorting(cost: int, available: int) -> Shorting:
    """The penalty for casting a ``cost`` power with ``available`` points.

    >>> shorting(3, 0)
    Shorting(short=3, penalty=-3, failure_is_critical=True)
    """
    for v, f in ((cost, "cost"), (available, "available")):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InvalidValueError(f"{f} must be a whole number of Power Points, 0 or more; got {v!r}")
    short = max(0, cost - available)
    return Shorting(short, -short, short > 0)


@dataclass(frozen=True, slots=True)
class Activation:
    """What an activation roll did.

    ``activated``: the power takes effect. ``spent``: the Power Points it
    cost. ``raises``: each full 4 points over the target of 4 (a raise "has
    additional effects noted in the particular power description").
    ``critical_failure`` and ``backlash``: "A Critical Failure when
    activating a Force power is called Backlash. It causes a level of
    Fatigue and all currently active powers instantly terminate".
    """

    activated: bool
    spent: int
    raises: int
    critical_failure: bool
    backlash: bool


def activation(roll: int, allocated_pp: int, shorted: bool = False, *, critical: bool = False) -> Activation:
    """The outcome of a Force Use roll to activate a power.

    "A roll less than 4 means the power doesn't activate. The caster spends
    one Power Point regardless of any Edges such as Channeling ... A roll of
    4 or higher means the power activates and consumes all the Power Points
    allocated to it, even if it misses the target, or the defender resists."
    Shorting: "If a character fails a shorted Force Use skill roll, it's
    considered a Critical Failure!", and "A Critical Failure when
    activating a Force power is called Backlash".

    Parameters
    ----------
    roll : int
        The roll's total, modifiers (a shorting penalty too) included.
    allocated_pp : int
        Power Points allocated to the power, 0 or more (0 when shorted
        entirely).
    shorted : bool
        Cast with fewer Power Points than the power costs (:func:`shorting`).
    critical : bool
        The dice came up a Critical Failure (the core rules' double 1),
        which fails whatever the total. Calling on the Darkside to re-roll
        is the caller's: roll again and call this again.

    Returns
    -------
    Activation

    Examples
    --------
    >>> activation(3, 5)
    Activation(activated=False, spent=1, raises=0, critical_failure=False, backlash=False)
    >>> activation(9, 5)
    Activation(activated=True, spent=5, raises=1, critical_failure=False, backlash=False)
    >>> activation(2, 0, shorted=True)
    Activation(activated=False, spent=1, raises=0, critical_failure=True, backlash=True)
    """
    if isinstance(roll, bool) or not isinstance(roll, int):
        raise InvalidTypeError(f"roll must be a whole number (the roll's total), got {roll!r} of type {type(roll).__name__}")
    if isinstance(allocated_pp, bool) or not isinstance(allocated_pp, int) or allocated_pp < 0:
        raise InvalidValueError(f"allocated_pp must be a whole number of Power Points, 0 or more; got {allocated_pp!r}")
    for flag, name in ((shorted, "shorted"), (critical, "critical")):
        if not isinstance(flag, bool):
            raise InvalidTypeError(f"{name} must be True or False, got {flag!r}")
    success = roll >= 4 and not critical
    if not success:
        fumble = critical or shorted
        return Activation(False, 1, 0, fumble, fumble)
    return Activation(True, allocated_pp, (roll - 4) // 4, False, False)


def maintenance_cost(targets: int, durations: int = 1) -> int:
    """"It costs 1 Power Point to maintain a power for its base Duration ...
    Maintenance is per target but ignores other Power Modifiers."

    >>> maintenance_cost(3)
    3
    """
    for v, f in ((targets, "targets"), (durations, "durations")):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise InvalidValueError(f"{f} must be a whole number, 1 or more; got {v!r}")
    return targets * durations


def recovered(hours: float) -> int:
    """"A character recovers 5 Power Points per hour spent resting."

    >>> recovered(2.5)
    10
    """
    return 5 * int(non_negative(hours, "hours"))


__all__ = [
    "CONE",
    "LARGE_BLAST",
    "MEDIUM_BLAST",
    "MODIFIER_COSTS",
    "SMALL_BLAST",
    "STREAM",
    "Activation",
    "Shorting",
    "activation",
    "armor_piercing_cost",
    "maintenance_cost",
    "power_cost",
    "range_cost",
    "recovered",
    "shorting",
]
