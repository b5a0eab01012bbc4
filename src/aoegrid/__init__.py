"""aoegrid: which squares of a battle map an area effect covers, as the rulebooks count it.

Coordinates are in grid units (squares): x grows to the right, y grows down.
Integer ``(x, y)`` is the intersection at the top-left corner of square
``(x, y)``, which spans ``[x, x+1] x [y, y+1]``. Masks are ``(height, width)``
bool arrays indexed ``mask[y, x]``. Sizes are in the grid's unit (feet by
default, 5 ft a square). Directions are degrees clockwise from +x on screen
(0 = east, 90 = south) or compass names.

Examples
--------
>>> import aoegrid as ag
>>> grid = ag.Grid(width=40, height=30)
>>> a = ag.area(ag.Sphere(20), at=(20, 15), on=grid, rules="starfinder")
>>> a.mask.shape, len(a), (21, 15) in a
((30, 40), 44, True)
"""

from typing import TYPE_CHECKING

from aoegrid.area import Area, area
from aoegrid.battlemap import line_of_effect
from aoegrid.cover import Cover, CoverRule
from aoegrid.distance import distance
from aoegrid.errors import (
    AoegridError,
    AoegridWarning,
    GridMismatchError,
    GridTooLargeError,
    IllegalOriginError,
    InvalidTypeError,
    InvalidValueError,
    OffGridError,
)
from aoegrid.floors import Floor
from aoegrid.grid import Grid
from aoegrid.gridless import Gridless, OpenToken
from aoegrid.hexgrid import HexGrid
from aoegrid.maps import BattleMap
from aoegrid.movement import Reach, path_distance, reachable
from aoegrid.options import (
    Anchor,
    ConeKind,
    CornerRule,
    Diagonals,
    Inclusion,
    Mode,
    OriginPoint,
    Side,
    SpaceCost,
    SpaceOrigin,
    Terrain,
    TerrainCost,
    Through,
)
from aoegrid.ranges import (
    OriginCheck,
    Origins,
    Range,
    RangeKind,
    can_target,
    check_origin,
    clip_to_range,
    in_range,
    legal_origins,
    touch_targets,
)
from aoegrid.rules import PRESETS, Rules
from aoegrid.shapes import Cone, Cube, Cylinder, Line, Shapable, Sphere
from aoegrid.targets import Membership, Reached
from aoegrid.tokens import SIZES, Space, Token
from aoegrid.visibility import OriginOnWallError
from aoegrid.walls import Wall, walls_from

__version__ = "0.1.0"

# Loaded on first use (PEP 562), so `import aoegrid` costs what computing an area needs: the map
# readers (json, importlib.resources), the tactics search and the two systems' extras are a third
# of the package's import time and most scripts use one of them, or none.
_LAZY = {
    "MapFileError": "aoegrid.io",
    "MapInfo": "aoegrid.io",
    "demo_map": "aoegrid.io",
    "load_map": "aoegrid.io",
    "read_foundry": "aoegrid.io",
    "read_text_map": "aoegrid.io",
    "read_uvtt": "aoegrid.io",
    "Candidate": "aoegrid.tactics",
    "Placement": "aoegrid.tactics",
    "best_placements": "aoegrid.tactics",
    "placement_scores": "aoegrid.tactics",
    "Threat": "aoegrid.threat",
    "threat_map": "aoegrid.threat",
    "open_area": "aoegrid.openarea",
    "open_best_placements": "aoegrid.openarea",
}
_LAZY_MODULES = ("lancer", "savage_worlds", "sw5e")

if TYPE_CHECKING:
    from aoegrid import lancer, savage_worlds, sw5e
    from aoegrid.explorer import explore
    from aoegrid.io import (
        MapFileError,
        MapInfo,
        demo_map,
        load_map,
        read_foundry,
        read_text_map,
        read_uvtt,
    )
    from aoegrid.openarea import open_area, open_best_placements
    from aoegrid.tactics import Candidate, Placement, best_placements, placement_scores
    from aoegrid.threat import Threat, threat_map
else:

    def __getattr__(name: str):
        import importlib

        if name in _LAZY:
            value = getattr(importlib.import_module(_LAZY[name]), name)
        elif name in _LAZY_MODULES:
            value = importlib.import_module(f"aoegrid.{name}")
        else:
            raise AttributeError(f"module 'aoegrid' has no attribute {name!r}")
        globals()[name] = value  # later lookups are plain attribute reads
        return value

    def __dir__() -> list[str]:
        return sorted(set(globals()) | set(_LAZY) | set(_LAZY_MODULES))

    def explore(*args, **kwargs):
        """The Jupyter explorer: see :func:`aoegrid.explorer.explore` (needs ``aoegrid[jupyter]``).

        Defined here so ``import aoegrid`` loads no widget library: the explorer
        module (anywidget, ipywidgets) is imported on the first call.
        """
        from aoegrid.explorer import explore as explore_

        return explore_(*args, **kwargs)


__all__ = [
    "PRESETS",
    "SIZES",
    "Anchor",
    "AoegridError",
    "AoegridWarning",
    "Area",
    "BattleMap",
    "Candidate",
    "Cone",
    "ConeKind",
    "CornerRule",
    "Cover",
    "CoverRule",
    "Cube",
    "Cylinder",
    "Diagonals",
    "Floor",
    "Grid",
    "GridMismatchError",
    "GridTooLargeError",
    "Gridless",
    "HexGrid",
    "IllegalOriginError",
    "Inclusion",
    "InvalidTypeError",
    "InvalidValueError",
    "Line",
    "MapFileError",
    "MapInfo",
    "Membership",
    "Mode",
    "OffGridError",
    "OpenToken",
    "OriginCheck",
    "OriginOnWallError",
    "OriginPoint",
    "Origins",
    "Placement",
    "Range",
    "RangeKind",
    "Reach",
    "Reached",
    "Rules",
    "Shapable",
    "Side",
    "Space",
    "SpaceCost",
    "SpaceOrigin",
    "Sphere",
    "Terrain",
    "TerrainCost",
    "Threat",
    "Through",
    "Token",
    "Wall",
    "area",
    "best_placements",
    "can_target",
    "check_origin",
    "clip_to_range",
    "demo_map",
    "distance",
    "explore",
    "in_range",
    "lancer",
    "legal_origins",
    "line_of_effect",
    "load_map",
    "open_area",
    "open_best_placements",
    "path_distance",
    "placement_scores",
    "reachable",
    "read_foundry",
    "read_text_map",
    "read_uvtt",
    "savage_worlds",
    "sw5e",
    "threat_map",
    "touch_targets",
    "walls_from",
]
