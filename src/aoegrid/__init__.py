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

from aoegrid import _aliases
from aoegrid.area import Area, area
from aoegrid.board.battlemap import line_of_effect
from aoegrid.board.floors import Floor
from aoegrid.board.visibility import OriginOnWallError
from aoegrid.board.walls import Wall, walls_from
from aoegrid.effects.movement import Reach, path_distance, reachable
from aoegrid.effects.ranges import (
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
from aoegrid.effects.targets import Membership, Reached
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
from aoegrid.geometry.cover import Cover, CoverRule
from aoegrid.geometry.distance import distance
from aoegrid.geometry.grid import Grid
from aoegrid.geometry.gridless import Gridless, OpenToken
from aoegrid.geometry.hexgrid import HexGrid
from aoegrid.geometry.options import (
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
from aoegrid.geometry.rules import PRESETS, Rules
from aoegrid.geometry.shapes import Cone, Cube, Cylinder, Line, Shapable, Sphere
from aoegrid.geometry.tokens import SIZES, Space, Token
from aoegrid.maps import BattleMap

# The modules moved into folders by layer; their old paths (``aoegrid.<old name>``) still
# import, as the same module objects (see _aliases.py).
_aliases.install()

__version__ = "0.1.0"  # the one place: pyproject.toml reads this literal at build time (attr:)

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
    "Candidate": "aoegrid.planning.tactics",
    "Placement": "aoegrid.planning.tactics",
    "best_placements": "aoegrid.planning.tactics",
    "placement_scores": "aoegrid.planning.tactics",
    "Threat": "aoegrid.planning.threat",
    "threat_map": "aoegrid.planning.threat",
    "open_area": "aoegrid.openarea",
    "open_best_placements": "aoegrid.openarea",
}
_LAZY_MODULES = ("lancer", "savage_worlds", "sw5e")

if TYPE_CHECKING:
    from aoegrid.effects import lancer, savage_worlds, sw5e
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
    from aoegrid.planning.tactics import Candidate, Placement, best_placements, placement_scores
    from aoegrid.planning.threat import Threat, threat_map
else:

    def __getattr__(name: str):
        import importlib

        if name in _LAZY:
            value = getattr(importlib.import_module(_LAZY[name]), name)
        elif name in _LAZY_MODULES or name in _aliases.MOVED:  # old module paths too
            value = importlib.import_module(_aliases.MOVED.get(name, f"aoegrid.{name}"))
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
