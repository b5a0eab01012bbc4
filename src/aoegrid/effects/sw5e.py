"""Star Wars 5e casting numbers: the report beside an area.

Each function quotes the seed sentence it implements.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aoegrid.errors import InvalidTypeError, InvalidValueError
from aoegrid.geometry._validate import real
from aoegrid.geometry.tokens import Token

if TYPE_CHECKING:
    from aoegrid.board.battlemap import BattleMapCore


def _level(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
        raise InvalidValueError(f"{field} must be a power level from 0 (at-will) to 9, got {value!r}")
    return value


def point_cost(power_level: int, cast_level: int | None = None) -> int:
    """Force or tech points a casting costs.

    "At-will powers always cost 0 points, while casting a power at any other
    level costs the power level + 1 points"; "When a caster casts a power ...
    at a higher level ..., the power assumes the higher level for that casting."

    Examples
    --------
    >>> [point_cost(n) for n in range(10)]
    [0, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    >>> point_cost(1, cast_level=2)
    3
    """
    level = _level(power_level, "power level")
    if cast_level is None:
        cast = level
    else:
        cast = _level(cast_level, "cast level")
        if cast < level:
            raise InvalidValueError(f"a level {level} power cannot be cast at level {cast}; cast it at {level} or higher")
        if level == 0 and cast != 0:
            raise InvalidValueError("an at-will (level 0) power is not cast at a higher level")
    return 0 if cast == 0 else cast + 1


def save_dc(ability_modifier: int, proficiency_bonus: int, special: int = 0) -> int:
    """"The DC to resist one of your powers equals 8 + your force- or
    tech-casting ability modifier + your proficiency bonus + any special
    modifiers."

    >>> save_dc(3, 2)
    13
    """
    return 8 + _int(ability_modifier, "ability modifier") + _int(proficiency_bonus, "proficiency bonus") + _int(special, "special modifiers")


def attack_bonus(ability_modifier: int, proficiency_bonus: int) -> int:
    """"Your attack bonus with a power attack equals your force- or
    tech-casting ability modifier + your proficiency bonus."

    >>> attack_bonus(4, 3)
    7
    """
    return _int(ability_modifier, "ability modifier") + _int(proficiency_bonus, "proficiency bonus")


def concentration_dc(damage: int) -> int:
    """"The DC equals 10 or half the damage you take, whichever number is
    higher." Half is rounded down, as 5e rounds.

    >>> [concentration_dc(d) for d in (1, 20, 21, 45)]
    [10, 10, 10, 22]
    """
    dmg = _int(damage, "damage")
    if dmg < 0:
        raise InvalidValueError(f"damage must be 0 or more, got {damage!r}")
    return max(10, dmg // 2)


def concentration_saves(damages: Iterable[int]) -> list[int]:
    """One DC per source: "If you take damage from multiple sources ... you
    make a separate saving throw for each source of damage."

    >>> concentration_saves([8, 30])
    [10, 15]
    """
    return [concentration_dc(d) for d in damages]


def _int(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidTypeError(f"{field} must be a whole number, got {value!r}")
    return value


def threatening(
    caster: Token,
    on: BattleMapCore,
    hostile: Callable[[Token], bool] | None = None,
) -> list[Token]:
    """Creatures that give the caster's ranged power attacks disadvantage.

    "You have disadvantage on a ranged attack roll if you are within 5 feet
    of a hostile creature that can see you and that isn't incapacitated."
    Hostile: ``hostile(token)``, by default the tag ``"hostile"``;
    incapacitated: the tag ``"incapacitated"``; seeing: a line of sight from
    its space to the caster's on the map.
    """
    from aoegrid.board.walls import Channel
    from aoegrid.effects.ranges import _space_gap, space_reaches
    from aoegrid.geometry.rules import SW5E

    if hostile is None:
        def hostile(t: Token) -> bool:
            return "hostile" in t.tags
    out = []
    for t in on.tokens:
        if t == caster or not hostile(t) or "incapacitated" in t.tags:
            continue
        if _space_gap(caster.space, t.space, SW5E) * on.grid.square > 5.0:
            continue
        if space_reaches(t.space, caster.space, on, Channel.SIGHT):
            out.append(t)
    return out


def ranged_attack_disadvantage(caster: Token, on: BattleMapCore, hostile: Callable[[Token], bool] | None = None) -> bool:
    """Whether the caster's ranged power attacks have disadvantage (see :func:`threatening`)."""
    return bool(threatening(caster, on, hostile))


@dataclass(frozen=True, slots=True)
class Effect:
    """A power's effect on one creature: its power, potency and duration [start, end)."""

    power: str
    potency: float
    start: float
    end: float

    def __post_init__(self) -> None:
        if not isinstance(self.power, str) or not self.power:
            raise InvalidTypeError(f"Effect power must be a name, got {self.power!r}")
        object.__setattr__(self, "potency", real(self.potency, "Effect potency"))
        s, e = real(self.start, "Effect start"), real(self.end, "Effect end")
        if e <= s:
            raise InvalidValueError(f"an Effect ends after it starts, got start {s:g}, end {e:g}")
        object.__setattr__(self, "start", s)
        object.__setattr__(self, "end", e)


def combine(effects: Iterable[Effect]) -> list[tuple[float, float, dict[str, float]]]:
    """What applies when, for effects on one creature.

    "The effects of different powers add together while the durations of
    those powers overlap. The effects of the same power cast multiple times
    ... don't combine ... the most potent effect ... applies while their
    durations overlap."

    Returns ``(start, end, {power: potency})`` spans in time order.

    Examples
    --------
    >>> combine([Effect("guidance", 4, 0, 10), Effect("guidance", 6, 5, 8), Effect("shield", 5, 2, 6)])
    [(0.0, 2.0, {'guidance': 4.0}), (2.0, 5.0, {'guidance': 4.0, 'shield': 5.0}), (5.0, 6.0, {'guidance': 6.0, 'shield': 5.0}), (6.0, 8.0, {'guidance': 6.0}), (8.0, 10.0, {'guidance': 4.0})]
    """
    items = list(effects)
    for e in items:
        if not isinstance(e, Effect):
            raise InvalidTypeError(f"combine takes Effect values, got {e!r}")
    cuts = sorted({t for e in items for t in (e.start, e.end)})
    out: list[tuple[float, float, dict[str, float]]] = []
    for a, b in itertools.pairwise(cuts):
        active: dict[str, float] = {}
        for e in items:
            if e.start <= a and b <= e.end:
                active[e.power] = max(active.get(e.power, -float("inf")), e.potency)
        if active:
            out.append((a, b, dict(sorted(active.items()))))
    return out
