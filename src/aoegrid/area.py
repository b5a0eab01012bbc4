"""Areas: which squares an effect covers, and whom it reaches.

:func:`area` is the entry point; it returns an :class:`Area`: the lazily
computed squares of :mod:`aoegrid.effects.result`, built by :mod:`aoegrid.effects.build`,
with creature queries (:mod:`aoegrid.effects.targets`) and pictures
(:mod:`aoegrid.show.plotting`, :mod:`aoegrid.show.text`) layered on top.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from aoegrid.board.battlemap import BattleMapCore
from aoegrid.effects.build import build_area
from aoegrid.effects.ranges import Range, check_origin
from aoegrid.effects.result import AreaCore
from aoegrid.effects.targets import Reached, reached
from aoegrid.errors import IllegalOriginError, InvalidTypeError, InvalidValueError
from aoegrid.geometry.grid import Grid
from aoegrid.geometry.gridless import Gridless
from aoegrid.geometry.hexgrid import HexGrid
from aoegrid.geometry.options import Mode
from aoegrid.geometry.rules import Rules
from aoegrid.geometry.shapes import Shape
from aoegrid.geometry.tokens import Space, Token

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from aoegrid.hexarea import HexArea
    from aoegrid.openarea import OpenArea


def area(
    shape: Shape,
    at: Any,
    on: Grid | HexGrid | Gridless | BattleMapCore,
    rules: Rules | str = "starfinder",
    mode: Mode | str = "burst",
    *,
    include_origin: bool | None = None,
    caster: Any = None,
    elevation: float = 0.0,
    range: Range | float | None = None,
) -> Area | HexArea | OpenArea:
    """The squares of ``on`` that ``shape``, placed ``at`` a point, covers.

    Parameters
    ----------
    shape : Sphere, Cylinder, Cone, Line, Cube or Shapable
        The shape, sized in the grid's unit.
    at : (x, y), Token or Space
        The point of origin in grid units (x right, y down; integer points are
        intersections, ``(x + 0.5, y + 0.5)`` is the centre of square (x, y)),
        or a creature's space for areas centred on or coming from a creature.
        From a space, a sphere or cylinder is measured from the space's edges
        or centre (``Rules.from_space``); a cone, cube or line starts where its
        direction leaves the space (at the nearest corner under rules whose
        origins are intersections; from an edge's middle, the corner to the
        right of the direction).
    on : Grid or BattleMap
        The grid, or a map whose walls cut the area: a burst or emanation
        takes only squares some straight line from the origin reaches
        (``Area.visible > 0``), a spread also takes the squares its path
        reaches around walls, a line stops at the first wall where
        ``Rules.line_stops_at_wall`` (Starfinder, Pathfinder) and is cut like
        a burst otherwise (5e, Savage Worlds), and a Starfinder cylinder
        ignores walls.
    rules : str or Rules
        A preset name (``"starfinder"``, ``"pf2e"``, ``"sw5e"``,
        ``"savage-worlds"`` or an alias) or a :class:`Rules`.
    mode : str
        ``"burst"``, ``"emanation"`` or ``"spread"``. With no walls the three
        cover the same squares. An emanation from a creature has line of
        effect from any point of its space (tested from the space's corners,
        nudged inside, and its centre).
    include_origin : bool, optional
        Whether a creature the area comes from is in it. ``None`` follows the
        rules (5e leaves the caster out of its own cone, cube and line).
    caster : (x, y), Token or Space, optional
        Who places the effect (a point stands for its square). The placement
        is then checked as :func:`aoegrid.effects.ranges.check_origin` checks it:
        the caster needs line of effect to the point of origin from some
        point of its space (line of sight under Savage Worlds), the point
        may not lie inside a wall, and a cone or line starts at its caster
        (``at=caster``) and is placed by direction only; an illegal one
        raises :class:`~aoegrid.errors.IllegalOriginError` saying which rule
        it breaks and the nearest legal origin. Under 5e a point the caster
        cannot see, behind a wall ("If you choose a point behind an
        obstruction, the point of origin comes into being on the near side
        of that obstruction"), is legal and moves to the wall's near side:
        where the straight line from the centre of the caster's space first
        meets it (``aoegrid.effects.build.near_side``).
    elevation : float
        Height of the point of origin above the ground, in the grid's unit,
        for creatures above or below it (:meth:`Area.tokens`) and slices
        (``Area.at``). A sphere is a ball around it; a cylinder's circle
        is at this height, and it drops from it under Starfinder and rises
        from it under the other presets (``Rules.cylinder_drops``); a cube
        rests on it (its bottom face); a line and a shapable area are bands
        centred on it.
    range : Range or float, optional
        With ``caster``: the effect's range (a :class:`~aoegrid.effects.ranges.Range`
        or feet), from the caster's space to the point chosen (under 5e, the
        point chosen, not the near side it may move to), at ``elevation``: in
        three dimensions from the caster's prism
        (:func:`aoegrid.effects.ranges.in_range`). ``None`` places no
        limit; the other checks still apply.

    Returns
    -------
    Area

    Raises
    ------
    OffGridError
        If the origin lies off the grid (its border counts as on it).
    InvalidValueError
        For an origin the rules do not allow, a grid in the wrong unit, or a
        shapable area thinner than its minimum dimension.
    IllegalOriginError
        With ``caster=``: a placement its caster may not make.

    Examples
    --------
    >>> import aoegrid as ag
    >>> a = ag.area(ag.Sphere(10), at=(4, 4), on=ag.Grid(8, 8))
    >>> len(a)
    12
    >>> print(a.to_text())
     . . . . . . . .
     . . . . . . . .
     . . . # # . . .
     . . # # # # . .
            +
     . . # # # # . .
     . . . # # . . .
     . . . . . . . .
     . . . . . . . .

    Under 5e a point the caster cannot see, behind a wall, comes into being
    on the wall's near side (in range or not, the same area):

    >>> m = ag.BattleMap(ag.Grid(16, 10), [ag.Wall((8, 0), (8, 10))])
    >>> b = ag.area(ag.Sphere(10), at=(10.5, 6.5), on=m, rules="sw5e", caster=ag.Token(5, 4), range=60)
    >>> len(b), [round(v, 4) for v in b.origin]
    (6, [8.0, 5.5])
    """
    board = on.grid if isinstance(on, BattleMapCore) else on
    # Hexes and the open table are loaded when first asked for: most scripts never meet them.
    if isinstance(board, Gridless):
        from aoegrid.openarea import open_area

        if include_origin is not None:
            raise InvalidValueError("on a gridless map, include_origin= is not read yet; place the area without it")
        return open_area(shape, at, on, rules, mode, caster=caster, elevation=elevation, range=range)
    if isinstance(board, HexGrid):
        from aoegrid.hexarea import hex_area

        if elevation != 0.0:
            raise InvalidValueError("on a hex grid, elevation= is not measured yet; place the area without it")
        if range is not None and caster is None:
            raise InvalidValueError("range= is measured from the caster: pass caster= (a Token or a hex (col, row)) too")
        if caster is not None:
            # The placement search's module, loaded only for a caster's check.
            from aoegrid.hextactics import hex_check_origin

            hex_check = hex_check_origin(shape, at, caster=caster, range=range, on=on, rules=rules)
            if not hex_check.legal:
                raise IllegalOriginError(hex_check.message, hex_check.reason, hex_check.nearest)
        return hex_area(shape, at, on, rules, mode, include_origin=include_origin)
    if range is not None and caster is None:
        raise InvalidValueError("range= is measured from the caster: pass caster= (a Token, Space or point) too")
    comes_into_being = None
    if caster is not None:
        check = check_origin(shape, at, caster=caster, range=range, on=on, rules=rules, elevation=elevation)
        if not check.legal:
            raise IllegalOriginError(check.message, check.reason, check.nearest)
        comes_into_being = check.origin
    return build_area(Area, shape, at, on, rules, mode, include_origin=include_origin, caster=caster,
                      elevation=elevation, comes_into_being=comes_into_being)


class Area(AreaCore):
    """A set of squares on a grid, with how it was made.

    What :func:`area` returns: an ``AreaCore`` (computed
    lazily: walls, cover grades, sight and paths only when read) with the
    creatures it reaches, moving, and pictures on top.

    Masks are ``(height, width)`` bool arrays indexed ``[y, x]``; x grows to
    the right and y down. Areas on the same grid combine with ``|``, ``&``
    and ``-``; a combined area keeps no shape or origin.

    On a :class:`~aoegrid.BattleMap` an area also reports, for each
    square of its shape (``shape_mask``), how much of it the origin reaches:
    ``visible`` (exact fraction of the square a straight line from the origin
    reaches, NaN off the shape), ``cover`` (the rules' cover grade, see
    :class:`aoegrid.geometry.cover.Cover`; -1 off the shape), the same for line of
    sight (``sight_visible``, ``sight_cover``), and for spreads
    ``path_distance`` (in the grid's unit, ``inf`` where the spread cannot
    go).

    Examples
    --------
    >>> import aoegrid as ag
    >>> g = ag.Grid(6, 4)
    >>> a = ag.area(ag.Cube(10, anchor="right"), at=(1, 3), on=g, rules="sw5e")
    >>> a.squares
    [(1, 1), (2, 1), (1, 2), (2, 2)]
    >>> b = ag.area(ag.Sphere(5), at=(4, 2), on=g, rules="sw5e")
    >>> (2, 2) in a, len(a | b), len(a & b), (a - b).squares == a.squares
    (True, 8, 0, True)
    """

    __slots__ = ()

    # --- creatures -----------------------------------------------------------

    def tokens(self, tokens: Iterable[Token] | None = None, **options: Any) -> list[Reached]:
        """The creatures this area reaches, nearest first, each with its cover.

        ``tokens`` defaults to the map's. See ``aoegrid.effects.targets.reached``
        for the options (``membership``, ``where``, ``tags``, ``exclude``,
        ``limit``).
        """
        return reached(self, tokens, **options)

    def moved(self, at: Any) -> Area:
        """The same effect recomputed at ``at``.

        An area that comes from a creature (``at=`` a Token or Space, as an
        emanation or an aura does) follows its creature: pass the creature
        where it now stands (``token.moved_to(x, y)`` or a Space); a bare
        point is refused, since it would silently turn the creature's
        emanation into a point burst. On a map that holds the creature
        (matched by identity, then :attr:`Token.label`), the new area lies on
        a copy of the map with the creature moved, so :meth:`tokens` and
        :meth:`subject_changes` see it where it is.

        Examples
        --------
        >>> import aoegrid as ag
        >>> pal = ag.Token(5, 5, name="paladin")
        >>> m = ag.BattleMap(ag.Grid(20, 12), tokens=[pal, ag.Token(12, 5, name="orc")])
        >>> aura = ag.area(ag.Sphere(10), at=pal, on=m, rules="pf2e", mode="emanation")
        >>> later = aura.moved(pal.moved_to(10, 5))
        >>> len(aura), len(later), [t.name for t in aura.subject_changes(later)[0]]
        (21, 21, ['orc'])
        """
        if self.recipe is None or self.shape is None or self.rules is None or self.mode is None:
            raise InvalidValueError("only an area made by aoegrid.area() can be moved, not a combination")
        m = self.recipe
        on = m.on
        if isinstance(m.at, (Token, Space)):
            if not isinstance(at, (Token, Space)):
                who = m.at.label if isinstance(m.at, Token) else str(m.at)
                raise InvalidTypeError(
                    f"this area comes from the space of {who}: pass the creature where it now "
                    f"stands (a Token, e.g. token.moved_to(x, y), or a Space), not {at!r}"
                )
            was = m.at
            if isinstance(on, BattleMapCore) and isinstance(was, Token) and isinstance(at, Token) and any(
                t is was or t.label == was.label for t in on.tokens
            ):
                on = on.with_token(was, at)
        return area(self.shape, at, on, self.rules, self.mode, include_origin=m.include_origin,
                    caster=m.caster, elevation=m.elevation)

    def subject_changes(self, after: Area, tokens: Iterable[Token] | None = None) -> tuple[list[Token], list[Token]]:
        """Creatures that enter and leave when this area becomes ``after``.

        Starfinder: creatures become subject to an area's effect when they
        enter it and stop being subject when they leave. Creatures are matched
        by :attr:`Token.label`.
        """
        pool = list(tokens) if tokens is not None else None
        before = {r.token.label: r.token for r in self.tokens(pool)}
        now = {r.token.label: r.token for r in after.tokens(pool)}
        return [t for k, t in now.items() if k not in before], [t for k, t in before.items() if k not in now]

    def plot(self, ax: Axes | None = None, **kw: Any) -> Axes:
        """Draw the area on its map (``aoegrid.show.plotting.plot_area``, same options) and return the Axes.

        As geopandas' ``GeoDataFrame.plot``: pass an Axes to draw on it, or
        get a new one (on a new Figure, not pyplot's).

        Examples
        --------
        >>> import aoegrid as ag
        >>> ax = ag.area(ag.Sphere(10), at=(4, 4), on=ag.Grid(8, 8)).plot(legend=True)
        >>> [t.get_text() for t in ax.get_legend().get_texts()]
        ['area (12 squares)', 'shape', 'origin']
        """
        # The pictures' module is loaded when a picture is asked for.
        from aoegrid.show.plotting import plot_area

        return plot_area(self, ax, **kw).ax

    def _repr_png_(self) -> bytes:
        """The picture Jupyter shows (drawn without touching pyplot's state)."""
        from aoegrid.show.plotting import png_bytes

        return png_bytes(self)

    def _repr_html_(self) -> str:
        """An inline SVG of the picture, each covered square with a tooltip (:func:`aoegrid.show.plotting.html_of`).

        The tooltip (``<title>``) gives the square, its visible fraction, its
        cover and its distance from the origin; it needs no kernel or script.
        """
        from aoegrid.show.plotting import html_of

        return html_of(self)

    def to_text(self, *, margin: int | None = None) -> str:
        """A text picture: ``#`` covered, ``.`` not, the origin marked.

        ``margin=None`` draws the whole grid; a number draws the area and its
        origin with that many squares around. See ``aoegrid.show.text.render``.
        """
        from aoegrid.show.text import render

        return render(self, margin=margin)

