"""Universal VTT files (``.dd2vtt``, ``.uvtt``, ``.df2vtt``; format 0.2 and 0.3).

Dungeondraft, DungeonFog, Arkenforge and others export this JSON: the grid
(``resolution``), walls as polylines in squares of the uncropped canvas
(``line_of_sight``, ``objects_line_of_sight``), portals (doors and windows),
lights and the map's image as base64 text. The image is located, never
decoded, while the walls are read (see :class:`~aoegrid.io.MapInfo`).
"""

from __future__ import annotations

import itertools
import os
from importlib import resources
from typing import Any

import numpy as np
import shapely

from aoegrid.board.walls import Wall, WallKind
from aoegrid.io.common import (
    TOL,
    Fields,
    JsonFile,
    Light,
    MapInfo,
    Point,
    Segment,
    as_path,
    count_note,
    make_grid,
    read_json,
)
from aoegrid.maps import BattleMap

__all__ = ["DEMO_FILE", "SUFFIXES", "demo_map", "read_uvtt"]

#: The extensions :func:`aoegrid.io.load_map` reads as Universal VTT.
SUFFIXES = (".dd2vtt", ".uvtt", ".df2vtt")

#: The bundled demo map (MIT, see ``data/LICENSE-cave-oganm.txt``).
DEMO_FILE = "cave-oganm.dd2vtt"


def read_uvtt(path: str | os.PathLike[str], *, objects: bool = True) -> BattleMap:
    """A map from a Universal VTT file (``.dd2vtt``, ``.uvtt``, ``.df2vtt``).

    Parameters
    ----------
    path : str or path-like
    objects : bool
        Whether ``objects_line_of_sight`` (outlines of pillars, furniture and
        other light-blocking objects; absent from format 0.2) become walls
        too.

    Returns
    -------
    BattleMap
        ``map_size`` squares of 5 ft. File coordinates are squares of the
        uncropped canvas, so ``resolution.map_origin`` is subtracted from
        every point. ``line_of_sight`` polylines (and object outlines) become
        walls blocking everything, also where they lie off the image (they
        still block; :attr:`MapInfo.notes` counts those wholly outside it).
        Each portal becomes a closed door (``closed: true``) or a window
        (``closed: false``): the format has no door state, so doors load
        closed. Where a portal lies along a wall that was not cut for it,
        that piece of wall is cut out so the portal alone controls the gap.
        Zero-length segments are dropped. Lights are kept in
        :attr:`MapInfo.lights`; the image is not decoded (see
        :meth:`MapInfo.image`). ``info.pixels_per_square`` is
        ``pixels_per_grid`` and ``info.offset`` the ``map_origin`` in
        pixels.

    Raises
    ------
    MapFileError
        Invalid or truncated JSON (with line and column), a missing field, a
        field of the wrong type, a NaN or infinite coordinate, a portal
        without bounds, or a map too large for this machine (refused before
        anything grid-sized is allocated).
    OSError
        If the file cannot be read.

    Examples
    --------
    >>> m = read_uvtt(resources.files("aoegrid") / "data" / DEMO_FILE)
    >>> m.grid.width, m.grid.height, len(m.doors), m.info.format
    (20, 20, 3, 'uvtt 0.3')
    """
    return uvtt_map(read_json(as_path(path), str(path)), objects=objects)


def demo_map() -> BattleMap:
    """The cave map bundled with aoegrid: 20 x 20 squares, off-grid walls, three doors.

    ``cave-oganm.dd2vtt`` from oganm/dd2vtt_importer (MIT, Copyright (c)
    2021 Ogan Mancarcı), read with :func:`read_uvtt`.

    Examples
    --------
    >>> import aoegrid as ag
    >>> m = demo_map()
    >>> m
    <BattleMap 20x20, 250 walls (3 doors or windows), 0 fog zones, 0 tokens>
    >>> len(ag.area(ag.Sphere(20), at=(7, 7), on=m)) < len(ag.area(ag.Sphere(20), at=(7, 7), on=m.grid))
    True
    """
    res = resources.files("aoegrid") / "data" / DEMO_FILE
    return uvtt_map(read_json(res, DEMO_FILE), objects=True)


def uvtt_map(src: JsonFile, *, objects: bool = True) -> BattleMap:
    """The map of a parsed Universal VTT file (see :func:`read_uvtt`)."""
    f, d = Fields(src.source), src.data
    notes: list[str] = []
    fmt = "uvtt"
    if "format" in d:
        version = f.number(d, "format")
        fmt = f"uvtt {version:g}"
        if version not in (0.1, 0.2, 0.3):
            notes.append(f"unknown Universal VTT format {version:g}: read as 0.3")
    else:
        notes.append("no format field: read as Universal VTT 0.3")
    if d.get("image") is not None:  # a string image was located and left out, not parsed
        f.wrong("image", "a base64 string", d["image"])
    res = f.mapping(d, "resolution")
    width, height = f.point(res, "map_size", "resolution", positive=True)
    ppg = f.number(res, "pixels_per_grid", "resolution", positive=True)
    grid = make_grid(f, "resolution.map_size", width, height, notes)
    if "map_origin" in res:
        ox, oy = f.point(res, "map_origin", "resolution")
    else:
        ox, oy = 0.0, 0.0
        notes.append("no resolution.map_origin: taken as (0, 0)")

    def shifted(container: Any, key: str | int, at: str) -> Point:
        x, y = f.point(container, key, at)
        return f.on_grid(f.name(at, key), (x - ox, y - oy))

    polylines = {"line_of_sight": f.items(d, "line_of_sight")}
    if objects:  # absent from format 0.2
        polylines["objects_line_of_sight"] = f.items(d, "objects_line_of_sight", default=[])
    chains = []
    for key, lines in polylines.items():
        for i in range(len(lines)):
            line, at = f.items(lines, i, key), f.name(key, i)
            chains.append([shifted(line, j, at) for j in range(len(line))])
    segments, zero, short = _polyline_segments(chains)
    notes += count_note(zero, "dropped {n} zero-length wall segment{s} (repeated points)")
    notes += count_note(short, "dropped {n} wall polyline{s} with fewer than two points")

    portals: list[tuple[Segment, bool]] = []
    zero_portals = 0
    listed = f.items(d, "portals", default=[])
    for i in range(len(listed)):
        at = f.name("portals", i)
        portal = f.mapping(listed, i, "portals")
        bounds = f.items(portal, "bounds", at)
        if len(bounds) != 2:
            f.fail(f.name(at, "bounds"), f"must be two points, got {len(bounds)}")
        a, b = (shifted(bounds, j, f.name(at, "bounds")) for j in range(2))
        closed = f.flag(portal, "closed", at)
        if a == b:
            zero_portals += 1
        else:
            portals.append(((a, b), closed))
    notes += count_note(zero_portals, "dropped {n} zero-length portal{s}")
    segments, over = _cut_under_portals(segments, [seg for seg, _ in portals])
    notes += count_note(
        over, "cut the walls under {n} portal{s} that lay over uncut walls, so the portals control the gaps"
    )

    lights = []
    listed = f.items(d, "lights", default=[])
    for i in range(len(listed)):
        at = f.name("lights", i)
        light = f.mapping(listed, i, "lights")
        lights.append(Light(
            shifted(light, "position", at),
            f.number(light, "range", at),
            f.number(light, "intensity", at, default=1.0),
            f.text(light, "color", at, default="ffffffff"),
        ))

    walls = [Wall(a, b) for a, b in segments]
    walls += [Wall(a, b, kind=WallKind.DOOR if closed else WallKind.WINDOW) for (a, b), closed in portals]
    # The file's coordinates are canvas squares: grid (0, 0) is map_origin, in pixels of that canvas.
    info = MapInfo(src.source, fmt, ppg, (ox * ppg, oy * ppg), tuple(lights), tuple(notes), _image=src.image)
    return BattleMap(grid, walls, info=info)


def _polyline_segments(chains: list[list[Point]]) -> tuple[list[Segment], int, int]:
    """The segments of polylines, without zero-length ones.

    Returns the segments, how many zero-length segments (repeated points)
    were dropped, and how many polylines had fewer than two points.
    """
    out: list[Segment] = []
    zero = short = 0
    for chain in chains:
        if len(chain) < 2:
            short += 1
        for a, b in itertools.pairwise(chain):
            if a == b:
                zero += 1
            else:
                out.append((a, b))
    return out, zero, short


def _cut_under_portals(walls: list[Segment], portals: list[Segment]) -> tuple[list[Segment], int]:
    """Cut out the wall pieces portals lie along, so a portal controls its gap.

    A wall under a portal is a segment collinear with it (both portal ends
    within ``TOL`` of the wall's line) that overlaps it by more than
    ``TOL``. The cut ends are the portal's own ends, so wall and portal
    meet exactly (aoegrid's walls joined at a shared end leave no gap).
    Returns the walls and how many portals lay over a wall.
    """
    if not walls or not portals:
        return walls, 0
    segs = np.asarray(walls, dtype=np.float64).reshape(-1, 4)
    tree = shapely.STRtree(shapely.linestrings(segs.reshape(-1, 2, 2)))
    start, along = segs[:, :2], segs[:, 2:] - segs[:, :2]
    length = np.hypot(along[:, 0], along[:, 1])
    cuts: dict[int, list[tuple[float, Point, float, Point]]] = {}
    over = 0
    for p, q in portals:
        near = tree.query(shapely.box(min(p[0], q[0]) - TOL, min(p[1], q[1]) - TOL,
                                      max(p[0], q[0]) + TOL, max(p[1], q[1]) + TOL))
        if near.size == 0:
            continue
        rel = np.asarray([p, q])[None, :, :] - start[near][:, None, :]  # (k, 2 ends, xy)
        d, n = along[near][:, None, :], length[near][:, None]
        # Walls reaching past the float range overflow here; they lie under no
        # portal (a portal is a few squares long), so nan and inf just miss.
        with np.errstate(over="ignore", invalid="ignore"):
            off_line = np.abs(d[..., 0] * rel[..., 1] - d[..., 1] * rel[..., 0]) / n
            t = (rel * d).sum(axis=-1) / n**2  # where each portal end falls along the wall, 0..1
            overlap = (np.minimum(t.max(axis=1), 1) - np.maximum(t.min(axis=1), 0)) * n[:, 0]
        hit = (off_line <= TOL).all(axis=1) & (overlap > TOL)
        over += bool(hit.any())
        for k in np.flatnonzero(hit):
            (t0, p0), (t1, p1) = sorted(zip(t[k].tolist(), (p, q)))
            cuts.setdefault(int(near[k]), []).append((t0, p0, t1, p1))
    out: list[Segment] = []
    for i, (a, b) in enumerate(walls):
        if i not in cuts:
            out.append((a, b))
            continue
        eps = TOL / length[i]
        at_t, at_p = 0.0, a
        for t0, p0, t1, p1 in sorted(cuts[i]):
            if t0 > at_t + eps:
                out.append((at_p, p0))
            if t1 > at_t:
                at_t, at_p = t1, p1
        if at_t < 1 - eps:
            out.append((at_p, b))
    return out, over
