"""Cover grades: how much of a square an area's origin reaches.

Grades are small integers so that a whole grid of them is a numpy array:
``0`` none, ``1`` partial (Starfinder "cover", 5e "half cover"), ``2``
three-quarters (5e), ``3`` total (no line of effect: the square is not in a
burst). Which grades a system uses and what they grant is in
:data:`GRADES`.
"""

from __future__ import annotations

from enum import Enum, IntEnum

import numpy as np
from numpy.typing import NDArray

from aoegrid.geometry.regions import EPS


class Cover(IntEnum):
    """A cover grade."""

    NONE = 0
    PARTIAL = 1
    THREE_QUARTERS = 2
    TOTAL = 3


class CoverRule(str, Enum):
    """How a system grades cover from the lines to a square's four corners.

    ``any-corner`` (Starfinder, Pathfinder): cover when the origin reaches
    some of the square but not all of it, which is what a Medium creature
    standing there gets ("line of effect to some of a target's space but not
    all of it"); every square with a blocked line to a corner is among them.
    ``corner-count`` (5e): half
    cover when one or two of the four lines are blocked, three-quarters when
    three or four are. ``total-only`` (Savage Worlds): only fully blocked
    squares are unaffected; there is no partial grade. Under every rule a
    square no straight line reaches (visible fraction 0) has total cover.
    """

    ANY_CORNER = "any-corner"
    CORNER_COUNT = "corner-count"
    TOTAL_ONLY = "total-only"


#: Per rule: the name of each grade used and what it grants. The numbers are
#: the systems' combat chapters' (Starfinder Core Rulebook pp. 253-254, which
#: the Starfinder seed cites; the 5e cover rules the SW5e seed cites as
#: chapter 9); the seeds themselves give none.
GRADES: dict[CoverRule, dict[Cover, tuple[str, str]]] = {
    CoverRule.ANY_CORNER: {
        Cover.NONE: ("none", ""),
        Cover.PARTIAL: ("cover", "+4 AC, +2 Reflex"),
        Cover.TOTAL: ("total cover", "not affected"),
    },
    CoverRule.CORNER_COUNT: {
        Cover.NONE: ("none", ""),
        Cover.PARTIAL: ("half cover", "+2 AC and Dexterity saves"),
        Cover.THREE_QUARTERS: ("three-quarters cover", "+5 AC and Dexterity saves"),
        Cover.TOTAL: ("total cover", "not affected"),
    },
    CoverRule.TOTAL_ONLY: {
        Cover.NONE: ("none", ""),
        Cover.TOTAL: ("total cover", "not affected"),
    },
}


def grade(rule: CoverRule, visible: NDArray[np.float64], blocked_corners: NDArray[np.int_]) -> NDArray[np.int8]:
    """Cover grades from visible fractions and counts of blocked corner lines.

    Examples
    --------
    >>> grade(CoverRule.CORNER_COUNT, np.array([1.0, 0.8, 0.3, 0.0]), np.array([0, 2, 3, 4])).tolist()
    [0, 1, 2, 3]

    Under ``any-corner`` a square partly reached has cover even when no line
    to its corners is blocked (a pillar in front of its middle):

    >>> grade(CoverRule.ANY_CORNER, np.array([1.0, 0.26, 1.0, 0.0]), np.array([0, 0, 1, 4])).tolist()
    [0, 1, 1, 3]
    """
    out = np.zeros(visible.shape, dtype=np.int8)
    if rule is CoverRule.ANY_CORNER:
        out[(blocked_corners > 0) | (visible < 1.0 - EPS)] = Cover.PARTIAL
    elif rule is CoverRule.CORNER_COUNT:
        out[(blocked_corners >= 1) & (blocked_corners <= 2)] = Cover.PARTIAL
        out[blocked_corners >= 3] = Cover.THREE_QUARTERS
    out[visible <= EPS] = Cover.TOTAL
    return out
