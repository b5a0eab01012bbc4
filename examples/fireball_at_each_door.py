"""Map prep: mark every square a fireball placed at each door would hit.

Run: ``python examples/fireball_at_each_door.py [MAP] [OUT.png]`` (default:
the bundled cave map, ``fireball-doors.png``, never overwriting a file).
For every door or window, a 20-ft Starfinder burst is placed at the grid
intersection nearest the door's middle, on the side less open to the map's edge
(facing the map's centre on a tie), and the union of all those bursts is
drawn and counted.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import aoegrid as ag


def outside(m: ag.BattleMap, p: tuple[int, int]) -> float:
    """How far ``p`` is outside the map's walls: the squares on the map's edge a straight line from it reaches."""
    if not m.grid.contains_point(p):
        return math.inf
    try:
        reach = ag.area(ag.Sphere(5 * (m.grid.width + m.grid.height)), at=p, on=m).mask
    except ag.OriginOnWallError:
        return math.inf
    return float(reach[0].sum() + reach[-1].sum() + reach[1:-1, 0].sum() + reach[1:-1, -1].sum())


def door_origins(m: ag.BattleMap) -> list[tuple[int, int]]:
    """An intersection beside each door, off the door's wall, on its inner side.

    Of the two sides of a door, the one less open to the map's edge (a door
    in an outer wall opens onto the outside, where a fireball would hit
    nothing inside); on a tie, the one facing the map's centre.
    """
    out = []
    cx, cy = m.grid.width / 2, m.grid.height / 2
    for i in m.doors:
        w = m.walls[i]
        mx, my = (w.start[0] + w.end[0]) / 2, (w.start[1] + w.end[1]) / 2
        # Step half a square off the door to each side, then snap.
        dx, dy = w.end[0] - w.start[0], w.end[1] - w.start[1]
        nx, ny = -dy / math.hypot(dx, dy), dx / math.hypot(dx, dy)
        if (cx - mx) * nx + (cy - my) * ny < 0:
            nx, ny = -nx, -ny
        sides = [(round(mx + 0.6 * k * nx), round(my + 0.6 * k * ny)) for k in (1, -1)]
        p = min(sides, key=lambda q: outside(m, q))  # the first, facing the centre, on a tie
        if outside(m, p) < math.inf:
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
    from aoegrid.show import plotting

    m = ag.load_map(sys.argv[1]) if len(sys.argv) > 1 else ag.demo_map()
    union, areas = fireballs(m)
    print(f"{len(areas)} doors, {len(union)} squares hit by at least one fireball")
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "fireball-doors.png")
    if out.exists():
        sys.exit(f"{out} exists; give another name")
    plotting.save(plotting.plot_areas(areas, title=f"A fireball at each door: {len(union)} squares"), out)
    print(f"picture: {out}")
