"""The public battle map: :class:`~aoegrid.battlemap.BattleMapCore` with its picture.

It sits above :mod:`aoegrid.plotting`, so the map model below never imports
presentation; map files (:mod:`aoegrid.io`) return this class.
"""

from __future__ import annotations

from typing import Any

from aoegrid.battlemap import BattleMapCore
from aoegrid.plotting import png_bytes


class BattleMap(BattleMapCore):
    __doc__ = BattleMapCore.__doc__

    @property
    def __geo_interface__(self) -> dict[str, Any]:
        """The walls as a GeoJSON-like MultiLineString in grid units (x right, y down)."""
        return {"type": "MultiLineString", "coordinates": [[w.start, w.end] for w in self.walls]}

    def _repr_png_(self) -> bytes:
        """The picture Jupyter shows (drawn without touching pyplot's state)."""
        return png_bytes(self)
