"""Distance under the diagonal rules (``Rules.diagonals``).

Distances are counted in squares; multiply by the grid's square size for feet
or inches. The alternating rules are defined on any offsets, but they count
what the rulebooks count only between intersections, or between square
centres, where the offsets are whole squares.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from aoegrid.geometry._validate import point, positive, real
from aoegrid.geometry.options import Diagonals, parse_option


def measure(dx: ArrayLike, dy: ArrayLike, diagonals: Diagonals) -> NDArray[np.float64]:
    """Length in squares of offsets ``(dx, dy)`` under a diagonal rule.

    Vectorised: ``dx`` and ``dy`` broadcast against each other. A length
    past the largest float (about 1.8e308) is ``inf``, with no warning:
    offsets near the float range can add up beyond it.

    Examples
    --------
    >>> measure([1, 2, 3, 4], [1, 2, 3, 4], Diagonals.ALTERNATING)
    array([1., 3., 4., 6.])
    >>> measure(3, 4, Diagonals.EUCLIDEAN)
    array(5.)
    >>> measure(1e308, 1e308, Diagonals.MANHATTAN)
    array(inf)
    """
    ax = np.abs(np.asarray(dx, dtype=np.float64))
    ay = np.abs(np.asarray(dy, dtype=np.float64))
    with np.errstate(over="ignore"):
        if diagonals is Diagonals.EUCLIDEAN:
            return np.asarray(np.hypot(ax, ay))
        if diagonals is Diagonals.MANHATTAN:
            return np.asarray(ax + ay)
        hi = np.maximum(ax, ay)
        lo = np.minimum(ax, ay)
        if diagonals is Diagonals.EQUIDISTANT:
            return np.asarray(hi)
        if diagonals is Diagonals.APPROXIMATE:
            return np.asarray(hi + lo / 2.0)
        if diagonals is Diagonals.ALTERNATING:
            return np.asarray(hi + np.floor(lo / 2.0))
        return np.asarray(hi + np.ceil(lo / 2.0))


def measure3(dx: ArrayLike, dy: ArrayLike, dz: ArrayLike, diagonals: Diagonals) -> NDArray[np.float64]:
    """Length in squares of offsets ``(dx, dy, dz)`` under a diagonal rule, in three dimensions.

    The offsets are sorted, ``hi >= mid >= lo``. The alternating rules count
    as Foundry VTT's core does on a square grid (v13 ``SquareGrid#_measurePath``,
    ``common/grid/square.mjs``: ``nd += dj + 0.5 * dk; c = di + floor(nd / 2)``):
    ``hi`` moves, ``mid`` of them diagonal, ``lo`` of those along all three
    axes, a move along all three counting 1.5 diagonals, so
    ``hi + floor((mid + lo / 2) / 2)`` squares (``alternating-2``: ``ceil``,
    the same as Foundry's start one diagonal in). ``euclidean`` is the
    straight line, ``equidistant`` the longest offset (every diagonal one
    square), ``manhattan`` the sum, ``approximate`` Foundry's ``hi + (mid -
    lo) / 2 + 3 lo / 4`` (half a square a diagonal move, three quarters a move
    along all three axes). With ``dz = 0`` each is :func:`measure`.
    Vectorised as :func:`measure`; ``inf`` past the largest float.

    Examples
    --------
    >>> measure3([1, 2, 3], [1, 2, 1], [1, 2, 0], Diagonals.ALTERNATING)
    array([1., 3., 3.])
    >>> measure3(2, 3, 6, Diagonals.EUCLIDEAN), measure3(1, 4, 2, Diagonals.EQUIDISTANT)
    (array(7.), array(4.))
    """
    a, b, c = (np.abs(np.asarray(v, dtype=np.float64)) for v in (dx, dy, dz))
    with np.errstate(over="ignore"):
        if diagonals is Diagonals.EUCLIDEAN:
            return np.asarray(np.hypot(np.hypot(a, b), c))
        if diagonals is Diagonals.MANHATTAN:
            return np.asarray(a + b + c)
        hi, lo = np.maximum(np.maximum(a, b), c), np.minimum(np.minimum(a, b), c)
        mid = np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))
        # Diagonal moves, one along all three axes counting 1.5.
        diagonal = mid + lo / 2.0
        extra = {
            Diagonals.EQUIDISTANT: 0.0,
            Diagonals.APPROXIMATE: diagonal / 2.0,
            Diagonals.ALTERNATING: np.floor(diagonal / 2.0),
            Diagonals.ALTERNATING_2: np.ceil(diagonal / 2.0),
        }[diagonals]
        return np.asarray(hi + extra)


def distance(
    p: Any,
    q: Any,
    diagonals: Diagonals | str = Diagonals.ALTERNATING,
    *,
    square: float = 1.0,
    rise: float = 0.0,
) -> float:
    """Distance between two points (or square centres) under a diagonal rule.

    Parameters
    ----------
    p, q : (x, y)
        Points in grid units: x grows right, y grows down; integer points are
        intersections, ``(x + 0.5, y + 0.5)`` is the centre of square (x, y).
        Counting from square to square is counting between their centres.
    diagonals : str or Diagonals
        ``"alternating"`` (5/10/5), ``"alternating-2"`` (10/5/10),
        ``"equidistant"``, ``"euclidean"``, ``"manhattan"`` or ``"approximate"``.
    square : float
        Size of one square in the unit wanted (5 for feet on a 5-ft grid).
    rise : float
        How far ``q`` lies above ``p`` (below: negative), in the unit of
        ``square``; the distance is then counted in three dimensions
        (``measure3``: under ``"alternating"`` a move along all three
        axes counts 1.5 diagonals, as Foundry VTT counts it).

    Returns
    -------
    float
        The distance in squares times ``square``; ``inf`` past the largest
        float.

    Examples
    --------
    >>> distance((0, 0), (3, 3))
    4.0
    >>> distance((0.5, 0.5), (3.5, 3.5), "alternating-2", square=5)
    25.0
    >>> distance((0, 0), (2, 2), square=5, rise=10), distance((0, 0), (2, 2), "equidistant", square=5, rise=-15)
    (15.0, 15.0)
    """
    rule = parse_option(Diagonals, diagonals, "diagonals")
    px, py = point(p, "p")
    qx, qy = point(q, "q")
    size = positive(square, "square")
    up = real(rise, "rise") / size
    return float(measure3(qx - px, qy - py, up, rule)) * size
