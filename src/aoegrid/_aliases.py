"""aoegrid's old module paths, kept: ``aoegrid.plotting`` is ``aoegrid.show.plotting``.

The modules live in folders by layer (geometry, board, effects, show, planning, io). Code
written against the flat layout keeps working: ``import aoegrid.plotting``, ``from
aoegrid.plotting import plot_area``, pickles naming ``aoegrid.result.AreaCore``. A finder
first on ``sys.meta_path`` answers for the old names only (a dict lookup for any other
import) and hands back the module itself, not a copy, so
``aoegrid.plotting is aoegrid.show.plotting``; ``from aoegrid import plotting`` goes through
the package's ``__getattr__`` to the same table.

New code should use the new paths.
"""

from __future__ import annotations

import importlib
import sys
from importlib.machinery import ModuleSpec

# old short name -> new dotted name: every module the folders took in
MOVED: dict[str, str] = {
    "_boxes": "aoegrid.board._boxes",
    "_kernels": "aoegrid.geometry._kernels",
    "_meets": "aoegrid.board._meets",
    "_paths": "aoegrid.board._paths",
    "_pitch": "aoegrid.geometry._pitch",
    "_solids": "aoegrid.geometry._solids",
    "_sweep": "aoegrid.board._sweep",
    "_validate": "aoegrid.geometry._validate",
    "battlemap": "aoegrid.board.battlemap",
    "build": "aoegrid.effects.build",
    "cover": "aoegrid.geometry.cover",
    "directions": "aoegrid.geometry.directions",
    "distance": "aoegrid.geometry.distance",
    "export": "aoegrid.io.export",
    "floors": "aoegrid.board.floors",
    "grid": "aoegrid.geometry.grid",
    "gridless": "aoegrid.geometry.gridless",
    "heights": "aoegrid.board.heights",
    "hexcells": "aoegrid.board.hexcells",
    "hexgrid": "aoegrid.geometry.hexgrid",
    "hexplot": "aoegrid.show.hexplot",
    "lancer": "aoegrid.effects.lancer",
    "lattice": "aoegrid.geometry.lattice",
    "movement": "aoegrid.effects.movement",
    "openplot": "aoegrid.show.openplot",
    "options": "aoegrid.geometry.options",
    "plotting": "aoegrid.show.plotting",
    "preview": "aoegrid.show.preview",
    "ranges": "aoegrid.effects.ranges",
    "raster": "aoegrid.geometry.raster",
    "regions": "aoegrid.geometry.regions",
    "result": "aoegrid.effects.result",
    "rules": "aoegrid.geometry.rules",
    "savage_worlds": "aoegrid.effects.savage_worlds",
    "shapes": "aoegrid.geometry.shapes",
    "spread": "aoegrid.board.spread",
    "stencils": "aoegrid.geometry.stencils",
    "sw5e": "aoegrid.effects.sw5e",
    "tactics": "aoegrid.planning.tactics",
    "targets": "aoegrid.effects.targets",
    "terrain": "aoegrid.geometry.terrain",
    "text": "aoegrid.show.text",
    "threat": "aoegrid.planning.threat",
    "tokens": "aoegrid.geometry.tokens",
    "visibility": "aoegrid.board.visibility",
    "walls": "aoegrid.board.walls",
}

_OLD = {f"aoegrid.{old}": new for old, new in MOVED.items() if new != f"aoegrid.{old}"}


class _AliasFinder:
    """Finds ``aoegrid.<old name>`` and loads it as the module at its new path."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        new = _OLD.get(fullname)
        if new is None:
            return None
        return ModuleSpec(fullname, _LOADER, is_package=False)

    # importlib's loader protocol: the import system makes a placeholder module, runs
    # exec_module on it, then returns whatever sys.modules holds under the name, so the real
    # module comes back untouched (its __name__ and __spec__ stay the new ones).
    @staticmethod
    def create_module(spec):
        return None

    @staticmethod
    def exec_module(module):
        sys.modules[module.__name__] = importlib.import_module(_OLD[module.__name__])


_LOADER = _AliasFinder()


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once): before any other finder can load a
    stale copy of an old module (an editable install of another checkout, say)."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _LOADER)
    # The modules `import aoegrid` loaded answer under their old names at once: then importing
    # one by its old name never goes through the import system, which would set the package's
    # attribute of that name to the module (aoegrid.distance is a function, not the module).
    for old, new in _OLD.items():
        module = sys.modules.get(new)
        if module is not None:
            sys.modules.setdefault(old, module)
