"""Areas as plain data (JSON-ready dicts), for virtual tabletops and scripts."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from aoegrid.cover import GRADES, Cover
from aoegrid.errors import InvalidValueError
from aoegrid.result import AreaCore
from aoegrid.tokens import Space


def shape_record(shape: Any) -> dict[str, Any]:
    """A shape's kind and fields, with enums as their string values."""
    fields = {}
    for f in dataclasses.fields(shape):
        value = getattr(shape, f.name)
        if f.name == "units" and value is None:  # the grid's unit, as in the shape's repr
            continue
        if hasattr(value, "value"):
            value = value.value
        elif isinstance(value, frozenset):
            value = sorted(value)
        fields[f.name] = value
    return {"kind": shape.name, **fields}


def area_record(a: AreaCore, *, inputs: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything an area says, as JSON-ready data.

    Keys: ``inputs`` (as given, echoed), ``rules``, ``shape``, ``origin``,
    ``count``, ``squares`` (``[x, y]`` pairs sorted by y, then x), and on a
    map ``cover`` (``[x, y, grade, name, visible fraction]`` for every
    covered square with some cover), ``blocked`` (squares of the shape with
    total cover) and ``tokens`` (creatures reached, nearest first).

    Examples
    --------
    >>> import aoegrid as ag
    >>> r = area_record(ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 10)))
    >>> r["count"], r["squares"][:2], r["shape"]
    (12, [[4, 3], [5, 3]], {'kind': 'sphere', 'radius': 10.0})
    """
    if a.rules is None or a.shape is None:
        raise InvalidValueError("only an area made by aoegrid.area() can be exported, not a combination")
    origin: Any = list(a.origin.bounds) if isinstance(a.origin, Space) else list(a.origin or ())
    out: dict[str, Any] = {
        "inputs": inputs or {},
        "rules": a.rules.name,
        "mode": a.mode.value if a.mode is not None else None,
        "shape": shape_record(a.shape),
        "origin": origin,
        "grid": {"width": a.grid.width, "height": a.grid.height, "square": a.grid.square, "units": a.grid.units},
        "count": len(a),
        "squares": [[x, y] for x, y in a.squares],
    }
    if a.battlemap is not None:
        names = GRADES[a.rules.cover]
        cover, visible, mask = a.cover, a.visible, a.mask
        ys, xs = np.nonzero(mask & (cover > Cover.NONE))
        out["cover"] = [
            [int(x), int(y), int(cover[y, x]), names.get(Cover(int(cover[y, x])), ("", ""))[0], round(float(visible[y, x]), 6)]
            for y, x in zip(ys.tolist(), xs.tolist())
        ]
        ys, xs = np.nonzero(a.shape_mask & ~mask)
        out["blocked"] = [[int(x), int(y)] for y, x in zip(ys.tolist(), xs.tolist())]
        out["tokens"] = [
            {"name": r.token.name, "x": r.token.x, "y": r.token.y, "size": r.token.footprint,
             "cover": r.cover_name, "distance": r.distance, "squares": [list(s) for s in r.squares]}
            for r in a.tokens()
        ]
    return out
