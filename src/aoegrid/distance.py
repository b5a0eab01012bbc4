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

from aoegrid._validate import point, positive
from aoegrid.options import Diagonals, parse_option


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


def distance(
    p: Any,
    q: Any,
    diagonals: Diagonals | str = Diagonals.ALTERNATING,
    *,
    square: float = 1.0,
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
    """
    rule = parse_option(Diagonals, diagonals, "diagonals")
    px, py = point(p, "p")
    qx, qy = point(q, "q")
    size = positive(square, "square")
    return float(measure(qx - px, qy - py, rule)) * size
