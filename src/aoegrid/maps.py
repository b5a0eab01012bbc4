"""The public battle map: :class:`~aoegrid.board.battlemap.BattleMapCore` with its picture.

It sits above :mod:`aoegrid.show.plotting`, so the map model below never imports
presentation; map files (:mod:`aoegrid.io`) return this class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aoegrid.board.battlemap import BattleMapCore
from aoegrid.geometry.gridless import Gridless
from aoegrid.geometry.hexgrid import HexGrid

if TYPE_CHECKING:
    from matplotlib.axes import Axes


class BattleMap(BattleMapCore):
    __doc__ = BattleMapCore.__doc__

    @property
    def __geo_interface__(self) -> dict[str, Any]:
        """The walls as a GeoJSON-like MultiLineString in grid units (x right, y down)."""
        return {"type": "MultiLineString", "coordinates": [[w.start, w.end] for w in self.walls]}

    def plot(self, ax: Axes | None = None, **kw: Any) -> Axes:
        """Draw the map (``aoegrid.show.plotting.plot_map``, same options) and return the Axes, as geopandas does.

        Examples
        --------
        >>> import aoegrid as ag
        >>> ax = ag.BattleMap(ag.Grid(6, 4), walls=[ag.Wall((3, 0), (3, 4))]).plot(title="a wall")
        >>> ax.get_title(), ax.get_xlim()
        ('a wall', (np.float64(0.0), np.float64(6.0)))
        """
        # The pictures' modules are loaded when a picture is asked for.
        if isinstance(self.grid, HexGrid):
            from aoegrid.show.hexplot import plot_hex_map

            return plot_hex_map(self, ax, **kw).ax
        if isinstance(self.grid, Gridless):
            from aoegrid.show.openplot import plot_open_map

            return plot_open_map(self, ax, **kw).ax
        from aoegrid.show.plotting import plot_map

        return plot_map(self, ax, **kw).ax

    def _repr_png_(self) -> bytes:
        """The picture Jupyter shows (drawn without touching pyplot's state)."""
        if isinstance(self.grid, HexGrid):
            from aoegrid.show.hexplot import hex_png_bytes

            return hex_png_bytes(self)
        if isinstance(self.grid, Gridless):
            from aoegrid.show.openplot import open_png_bytes

            return open_png_bytes(self)
        from aoegrid.show.plotting import png_bytes

        return png_bytes(self)

    def _repr_html_(self) -> str | None:
        """An inline SVG of the picture, each token with a tooltip (:func:`aoegrid.show.plotting.html_of`).

        None on a hex grid or the open table: Jupyter shows the PNG (:meth:`_repr_png_`).
        """
        if isinstance(self.grid, (HexGrid, Gridless)):
            return None
        from aoegrid.show.plotting import html_of

        return html_of(self)
