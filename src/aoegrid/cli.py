"""The ``aoegrid`` command line.

``aoegrid demo`` prints a text picture of a 20-ft burst and a 30-ft cone under
each rule preset, the point of origin marked.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from aoegrid.area import area
from aoegrid.errors import AoegridError
from aoegrid.grid import Grid
from aoegrid.rules import PRESETS
from aoegrid.shapes import Cone, Sphere

#: The demo's effects per preset: Savage Worlds has its own inch-sized
#: templates, so it shows the Large Blast and the Cone Template.
_DEMO_SIZES = {"ft": (20.0, 30.0), "in": (3.0, 9.0)}


def demo() -> str:
    """The demo text: each preset's burst and cone, with square counts."""
    out = []
    for name, rules in PRESETS.items():
        units = rules.units or "ft"
        radius, length = _DEMO_SIZES[units]
        grid = Grid(16, 16, units=units)
        burst = area(Sphere(radius), at=(8, 8), on=grid, rules=rules)
        cone = area(Cone(length, "SE"), at=(2, 2), on=grid, rules=rules)
        unit = "-ft" if units == "ft" else '"'
        out.append(f"== {name}: {radius:g}{unit} burst at intersection (8, 8): {len(burst)} squares")
        out.append(burst.to_text(margin=1))
        out.append(f"== {name}: {length:g}{unit} cone from (2, 2) toward SE: {len(cone)} squares")
        out.append(cone.to_text(margin=1))
        out.append("")
    out.append("# covered square, . not covered, + the point of origin on a grid intersection")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = argparse.ArgumentParser(prog="aoegrid", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="print a burst and a cone under every rule preset")
    args = parser.parse_args(argv)
    try:
        if args.command == "demo":
            print(demo())
    except AoegridError as exc:
        print(f"aoegrid: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
