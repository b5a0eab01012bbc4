"""Map prep: mark every square a fireball placed at each door would hit.

Run: ``python examples/fireball_at_each_door.py [MAP] [OUT.png]`` (default:
the bundled cave map, ``fireball-doors.png``, never overwriting a file).
For every door or window, a 20-ft Starfinder burst is placed at the grid
intersection nearest the door's middle, on the side facing the map's centre,
and the union of all those bursts is drawn and counted.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import aoegrid as ag


def door_origins(m: ag.BattleMap) -> list[tuple[int, int]]:
    """An intersection beside each door, off the door's wall, on the grid."""
    out = []
    cx, cy = m.grid.width / 2, m.grid.height / 2
    for i in m.doors:
        w = m.walls[i]
        mx, my = (w.start[0] + w.end[0]) / 2, (w.start[1] + w.end[1]) / 2
        # Step half a square off the door toward the map's centre, then snap.
        dx, dy = w.end[0] - w.start[0], w.end[1] - w.start[1]
        nx, ny = -dy / math.hypot(dx, dy), dx / math.hypot(dx, dy)
        if (cx - mx) * nx + (cy - my) * ny < 0:
            nx, ny = -nx, -ny
        p = (round(mx + 0.6 * nx), round(my + 0.6 * ny))
        if m.grid.contains_point(p):
            out.append(p)
    return out


def fireballs(m: ag.BattleMap) -> tuple[ag.Area, list[ag.Area]]:
    """Each door's fireball, and their union."""
    areas = []
    for p in door_origins(m):
        try:
            areas.append(ag.area(ag.Sphere(20), at=p, on=m))
        except ag.OriginOnWallError:
            continue  # the snapped point landed inside a wall: no fireball there
    union = areas[0]
    for a in areas[1:]:
        union = union | a
    return union, areas


if __name__ == "__main__":
    from aoegrid import plotting

    m = ag.load_map(sys.argv[1]) if len(sys.argv) > 1 else ag.demo_map()
    union, areas = fireballs(m)
    print(f"{len(areas)} doors, {len(union)} squares hit by at least one fireball")
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "fireball-doors.png")
    if out.exists():
        sys.exit(f"{out} exists; give another name")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 6))
    plotting.plot_areas(areas, fig.add_subplot())
    plotting.save(fig, out)
    print(f"picture: {out}")
