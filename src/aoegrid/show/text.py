"""Text pictures of areas, for terminals, doctests and test expectations.

Layout: one character per square, ``#`` covered and ``.`` not, each preceded
by a space. Character column ``2 * x + 1`` is square ``x`` and column
``2 * x`` the grid line on its left, so a point of origin on a grid line can
be drawn where it is:

* an origin on a horizontal grid line gets a line of its own between the two
  rows, with ``+`` at its place;
* an origin inside a row is drawn in that row: ``+`` on a vertical grid line,
  ``@`` (covered) or ``o`` (not covered) at a square's centre;
* the squares of a creature the area comes from show ``@`` (covered) or ``o``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from aoegrid.geometry._validate import count
from aoegrid.geometry.tokens import Space

if TYPE_CHECKING:
    from aoegrid.effects.result import AreaCore


def render(area: AreaCore, *, margin: int | None = None) -> str:
    """The text picture of ``area``.

    ``margin=None`` draws the whole grid; a whole number, 0 or more, draws
    only the squares within that many squares of the area and its origin.

    Examples
    --------
    >>> import aoegrid as ag
    >>> a = ag.area(ag.Cone(15, "S"), at=(3, 0), on=ag.Grid(6, 4))
    >>> print(render(a))
          +
     . . # # . .
     . # # # # .
     . . # # . .
     . . . . . .
    """
    grid = area.grid
    mask = area.mask
    xa, ya, xb, yb = 0, 0, grid.width, grid.height
    origin = area.origin
    if margin is not None:
        xa, ya, xb, yb = _extent(area, count(margin, "to_text margin", minimum=0))
    rows: list[list[str]] = []
    for y in range(ya, yb):
        row = []
        for x in range(xa, xb):
            row += [" ", "#" if mask[y, x] else "."]
        rows.append(row)
    extra: dict[int, list[str]] = {}
    if isinstance(origin, Space):
        for x, y in origin.squares:
            if xa <= x < xb and ya <= y < yb:
                rows[y - ya][2 * (x - xa) + 1] = "@" if mask[y, x] else "o"
    elif origin is not None:
        ox, oy = origin
        col = 2 * (int(ox) - xa) if float(ox).is_integer() else 2 * (math.floor(ox) - xa) + 1
        if 0 <= col <= 2 * (xb - xa):
            if float(oy).is_integer() and ya <= oy <= yb:
                line = [" "] * (col + 1)
                line[col] = "+"
                extra[int(oy) - ya] = line
            elif ya <= oy < yb:
                row = rows[math.floor(oy) - ya]
                if col % 2 == 0:
                    row.insert(col, "+") if col == len(row) else row.__setitem__(col, "+")
                else:
                    row[col] = "@" if row[col] == "#" else "o"
    lines = []
    for i, row in enumerate(rows):
        if i in extra:
            lines.append("".join(extra[i]).rstrip())
        lines.append("".join(row).rstrip())
    if len(rows) in extra:
        lines.append("".join(extra[len(rows)]).rstrip())
    return "\n".join(lines)


def _extent(area: AreaCore, margin: int) -> tuple[int, int, int, int]:
    """Columns and rows to draw: the area and its origin, plus ``margin``."""
    grid = area.grid
    ys, xs = np.nonzero(area.mask)
    xlo, ylo, xhi, yhi = [], [], [], []
    if xs.size:
        xlo.append(int(xs.min()))
        ylo.append(int(ys.min()))
        xhi.append(int(xs.max()) + 1)
        yhi.append(int(ys.max()) + 1)
    origin = area.origin
    if isinstance(origin, Space):
        x0, y0, x1, y1 = origin.bounds
        xlo.append(int(x0))
        ylo.append(int(y0))
        xhi.append(int(x1))
        yhi.append(int(y1))
    elif origin is not None:
        xlo.append(math.floor(origin[0]))
        ylo.append(math.floor(origin[1]))
        xhi.append(math.ceil(origin[0]))
        yhi.append(math.ceil(origin[1]))
    if not xlo:
        return 0, 0, 0, 0
    return (
        max(min(xlo) - margin, 0),
        max(min(ylo) - margin, 0),
        min(max(xhi) + margin, grid.width),
        min(max(yhi) + margin, grid.height),
    )
