"""Export areas as JSON for a virtual tabletop: squares, cover and creatures reached.

Each record is aoegrid's versioned JSON format (``"schema": "aoegrid/1"``,
``"record": "area"``; see the README's "JSON format" and
``aoegrid.io.export.schema()``). With ``jsonschema`` installed, every record is
checked against the schema before it is written.

Run: ``python examples/export_areas_json.py [out.json]`` (default: print to stdout).
"""

from __future__ import annotations

import json
import sys

import aoegrid as ag
from aoegrid.io.export import area_record, validate


def build() -> list[dict]:
    """Three effects in a walled room with a doorway, as JSON-ready records."""
    walls = ag.walls_from([(2, 2), (14, 2), (14, 12), (2, 12), (2, 2)])
    walls += [ag.Wall((8, 2), (8, 6)), ag.Wall((8, 6), (8, 8), kind="door", open=True), ag.Wall((8, 8), (8, 12))]
    tokens = [ag.Token(9, 6, name="orc", tags={"enemy"}), ag.Token(4, 9, name="ally"), ag.Token(12, 10, name="ogre", size="large")]
    m = ag.BattleMap(ag.Grid(16, 14), walls=walls, tokens=tokens)
    effects = [
        ("fireball", ag.Sphere(20), (6, 7), "burst"),
        ("cold cone", ag.Cone(30, "E"), (4, 7), "burst"),
        ("stinking cloud", ag.Sphere(20), (5, 4), "spread"),
    ]
    records = []
    for name, shape, at, mode in effects:
        a = ag.area(shape, at=at, on=m, rules="starfinder", mode=mode)
        records.append(area_record(a, inputs={"name": name, "at": at, "mode": mode}))
    return records


def checked(records: list[dict]) -> list[dict]:
    """The records, each validated against the schema when jsonschema is installed."""
    try:
        import jsonschema  # noqa: F401  (optional: aoegrid runs without it)
    except ImportError:
        return records
    return [validate(r) for r in records]


if __name__ == "__main__":
    text = json.dumps(checked(build()), indent=1)
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as f:
            f.write(text)
    else:
        print(text)
