"""The public battle map: :class:`~aoegrid.battlemap.BattleMapCore` with its picture.

It sits above :mod:`aoegrid.plotting`, so the map model below never imports
presentation; map files (:mod:`aoegrid.io`) return this class.
"""

from __future__ import annotations

from aoegrid.battlemap import BattleMapCore
from aoegrid.plotting import png_bytes


class BattleMap(BattleMapCore):
    __doc__ = BattleMapCore.__doc__

    def _repr_png_(self) -> bytes:
        """The picture Jupyter shows (drawn without touching pyplot's state)."""
        return png_bytes(self)
