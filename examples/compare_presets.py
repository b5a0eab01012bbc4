"""Compare one effect under every rule preset: square counts and pictures.

Run: ``python examples/compare_presets.py [radius_ft]`` (default 20).
Savage Worlds measures in tabletop inches, one inch a square, so the radius is
divided by 5 there.
"""

from __future__ import annotations

import sys

import aoegrid as ag


def compare(radius_ft: float = 20.0) -> dict[str, int]:
    """Squares covered by a burst of ``radius_ft`` under each preset."""
    counts = {}
    for name, rules in ag.PRESETS.items():
        inches = rules.units == "in"
        grid = ag.Grid(30, 30, units="in" if inches else "ft")
        size = radius_ft / 5 if inches else radius_ft
        a = ag.area(ag.Sphere(size), at=(15, 15), on=grid, rules=rules)
        counts[name] = len(a)
        print(f"{name}: {len(a)} squares")
        print(a.to_text(margin=0))
        print()
    return counts


if __name__ == "__main__":
    compare(float(sys.argv[1]) if len(sys.argv) > 1 else 20.0)
