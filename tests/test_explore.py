"""The Jupyter explorer driven from Python: its state against :func:`aoegrid.area`, what it shows.

Control changes arrive as the front end sends them (``set_state``, what a
synced trait change from the browser calls; ``_handle_custom_msg``, what a
click's message calls); the browser itself is tested in
``test_explorer_browser.py``.
"""

from __future__ import annotations

import base64
import html
import io
import re
import subprocess
import sys

import numpy as np
import pytest
from tests.conftest import CAVE_PARTY

import aoegrid as ag
from aoegrid.explorer import Explorer


def _party() -> tuple[ag.BattleMap, ag.Token]:
    """The README's cave party: Kira and Tor (allies) against five enemies."""
    scope: dict[str, object] = {}
    exec(CAVE_PARTY, scope)  # noqa: S102 (the constant source the browser tests show)
    return scope["m"], scope["kira"]  # type: ignore[return-value]


@pytest.fixture(scope="module")
def party() -> tuple[ag.BattleMap, ag.Token]:
    return _party()


def click(w: Explorer, x: float, y: float) -> None:
    """What the front end sends when the map is clicked at (x, y) grid units."""
    w._handle_custom_msg({"event": "click", "x": x, "y": y}, [])


def shown(w: Explorer) -> tuple[str, list[str]]:
    """The count and the creature lines of the summary, as the page shows them."""
    count = re.search(r'class="aoegrid-count">([^<]*)<', w.summary)
    assert count is not None
    items = [html.unescape(t) for t in re.findall(r"<li>(.*?)</li>", w.summary)]
    return count.group(1), items


def expected(a: ag.Area) -> tuple[str, list[str]]:
    lines = [f"{r.token.label}: {'no cover' if r.cover_name == 'none' else r.cover_name}" for r in a.tokens()]
    return f"{len(a)} square{'' if len(a) == 1 else 's'}", lines


def same(w: Explorer, a: ag.Area) -> None:
    assert w.area is not None
    assert np.array_equal(w.area.mask, a.mask)
    assert np.array_equal(w.area.cover, a.cover)
    assert shown(w) == expected(a)


def png(data_url: str) -> np.ndarray:
    from matplotlib.image import imread

    head, _, body = data_url.partition(",")
    assert head == "data:image/png;base64"
    return imread(io.BytesIO(base64.b64decode(body)), format="png")


def test_import_aoegrid_loads_no_widget_library() -> None:
    code = ("import sys, aoegrid; print(sorted(m for m in ('anywidget', 'ipywidgets', 'traitlets', 'matplotlib', "
            "'aoegrid.explorer') if m in sys.modules)); print(callable(aoegrid.explore))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.split("\n")[:2] == ["[]", "True"]


def test_explore_is_the_explorer_and_stays_callable() -> None:
    first = ag.explore(ag.Grid(10, 10))
    second = ag.explore(ag.Grid(10, 10))  # the module's import must not replace ag.explore
    assert isinstance(first, Explorer) and isinstance(second, Explorer)
    assert first.origin == (5.0, 5.0) and first.shape == ag.Sphere(20) and first.rules.name == "starfinder"
    assert first.mode == "burst" and not first.can_score


def test_clicks_place_the_origin_snapped_as_the_preset_requires(party: tuple[ag.BattleMap, ag.Token]) -> None:
    m, _ = party
    w = ag.explore(m, at=(5, 5))
    same(w, ag.area(ag.Sphere(20), at=(5, 5), on=m))
    click(w, 12.3, 10.8)                                  # Starfinder: the nearest intersection
    assert w.origin == (12.0, 11.0)
    same(w, ag.area(ag.Sphere(20), at=(12, 11), on=m))
    assert shown(w)[1] == ["Mog: no cover", "Snik: no cover", "Urg: no cover", "Ogre: no cover"]
    assert "at (12, 11)" in w.summary
    w.rules = "sw5e"                                      # the nearest intersection or square centre
    click(w, 12.4, 10.6)
    assert w.origin == (12.5, 10.5)
    same(w, ag.area(ag.Sphere(20), at=(12.5, 10.5), on=m, rules="sw5e"))
    click(w, 12.2, 10.9)
    assert w.origin == (12.0, 11.0)
    click(w, 12.5, 11.0)                                  # an edge's middle: as near (13, 11) as (12.5, 11.5)
    assert w.origin == (13.0, 11.0)                       # a tie goes to the intersection; halves round up
    click(w, 20.0, 0.0)                                   # the map's corner: no centre beyond it
    assert w.origin == (20.0, 0.0)
    click(w, 19.7, 0.4)
    assert w.origin == (19.5, 0.5)
    w.set_state({"preset": "pf2e"})                        # the preset control: the origin snaps again
    assert w.rules is ag.PRESETS["pf2e"] and w.origin == (20.0, 1.0)
    click(w, 12.5, 10.5)
    assert w.origin == (13.0, 11.0)
    same(w, ag.area(ag.Sphere(20), at=(13, 11), on=m, rules="pf2e"))


def test_aim_size_shape_and_mode_controls(party: tuple[ag.BattleMap, ag.Token]) -> None:
    m, _ = party
    w = ag.explore(m, ag.Line(30, "E", width=10), rules="pf2e", at=(12, 11))
    same(w, ag.area(ag.Line(30, "E", width=10), at=(12, 11), on=m, rules="pf2e"))
    w.set_state({"direction": 135})                       # the dial, or a drag's end
    assert w.shape == ag.Line(30, 135, width=10)
    w.set_state({"size": 40})                             # other fields stay while the kind does
    assert w.shape == ag.Line(40, 135, width=10)
    same(w, ag.area(ag.Line(40, 135, width=10), at=(12, 11), on=m, rules="pf2e"))
    w.set_state({"shape_kind": "cone"})                   # a new kind keeps size and direction
    assert w.shape == ag.Cone(40, 135)
    same(w, ag.area(ag.Cone(40, 135), at=(12, 11), on=m, rules="pf2e"))
    w.set_state({"shape_kind": "sphere", "mode": "spread"})
    assert w.shape == ag.Sphere(40) and w.mode == "spread"
    same(w, ag.area(ag.Sphere(40), at=(12, 11), on=m, rules="pf2e", mode="spread"))
    w.shape = ag.Cube(15, "S")
    assert (w.shape_kind, w.size, w.direction) == ("cube", 15.0, 90.0)
    same(w, ag.area(ag.Cube(15, "S"), at=(12, 11), on=m, rules="pf2e", mode="spread"))


def test_a_walled_map_cuts_the_area_and_gives_cover() -> None:
    m = ag.BattleMap(ag.Grid(10, 8), walls=[ag.Wall((5, 0), (5, 5))],
                     tokens=[ag.Token(6, 2, name="orc"), ag.Token(6, 6, name="elf"), ag.Token(2, 2, name="imp")])
    w = ag.explore(m, ag.Sphere(25), rules="sw5e", at=(3, 3))
    a = ag.area(ag.Sphere(25), at=(3, 3), on=m, rules="sw5e")
    same(w, a)
    assert len(a) < len(ag.area(ag.Sphere(25), at=(3, 3), on=m.grid, rules="sw5e"))
    assert {line.split(": ")[1] for line in shown(w)[1]} - {"no cover"}   # somebody has cover


def test_custom_rules_from_python(party: tuple[ag.BattleMap, ag.Token]) -> None:
    m, _ = party
    euclid = ag.Rules.preset("starfinder").replace(diagonals="euclidean")
    w = ag.explore(m, rules=euclid, at=(12, 11))
    assert w.rules is euclid and w.preset == "starfinder"
    same(w, ag.area(ag.Sphere(20), at=(12, 11), on=m, rules=euclid))
    custom = euclid.replace(name="euclid")
    w.rules = custom
    assert w.preset == "euclid" and w.presets == ["starfinder", "pf2e", "sw5e", "savage-worlds", "euclid"]
    w.set_state({"preset": "sw5e"})
    assert w.rules is ag.PRESETS["sw5e"] and "euclid" not in w.presets


def test_refused_placements_are_shown_not_raised(party: tuple[ag.BattleMap, ag.Token]) -> None:
    w = ag.explore(ag.BattleMap(ag.Grid(10, 10), walls=[ag.Wall((2, 5), (8, 5))]), at=(1, 1))
    click(w, 5, 5)                                        # inside the wall
    assert w.area is None and "wall" in w.error
    assert shown(w)[0] == "refused" and html.escape(w.error, quote=True) in w.summary
    click(w, 5, 6)
    assert w.area is not None and w.error is None
    m, _ = party
    w = ag.explore(m, rules="savage-worlds")              # a grid in feet, rules in inches
    assert w.area is None and "units='in'" in w.error


def test_bad_values_raise_aoegrid_errors_naming_them(party: tuple[ag.BattleMap, ag.Token]) -> None:
    m, _ = party
    w = ag.explore(m)
    with pytest.raises(ag.OffGridError, match=r"\(25, 3\)"):
        w.origin = (25, 3)
    with pytest.raises(ag.InvalidTypeError, match="'here'"):
        w.origin = "here"
    with pytest.raises(ag.InvalidValueError, match="'burst-ish'"):
        w.mode = "burst-ish"
    with pytest.raises(ag.InvalidValueError, match="'d20'"):
        w.rules = "d20"
    with pytest.raises(ag.InvalidValueError, match="-5"):
        w.size = -5
    with pytest.raises(ag.InvalidValueError, match="'hexagon'"):
        w.shape_kind = "hexagon"
    with pytest.raises(ag.InvalidTypeError, match="Shapable"):
        w.shape = ag.Shapable(100)
    with pytest.raises(ag.InvalidValueError, match="caster"):
        w.show_scores = True
    with pytest.raises(ag.InvalidTypeError, match="'cave'"):
        ag.explore("cave")
    with pytest.raises(ag.OffGridError, match=r"\(30, 1\)"):
        ag.explore(m, at=(30, 1))
    with pytest.raises(ag.InvalidValueError, match="scale must be greater than 0, got 0"):
        ag.explore(m, scale=0)
    with pytest.raises(ag.InvalidValueError, match="scale 1000 .* at most 819.2"):
        ag.explore(m, scale=1000)
    assert w.origin == (10.0, 10.0) and w.shape == ag.Sphere(20)   # nothing changed


def test_score_map_and_best_placement(party: tuple[ag.BattleMap, ag.Token]) -> None:
    m, kira = party
    fireball = {"caster": kira, "range": ag.Range("medium", level=1), "on": m, "hit": {"enemy"}, "avoid": {"ally"}}
    w = ag.explore(m, caster=kira, range=ag.Range("medium", level=1), at=(5, 5))
    assert w.can_score and w.scores is None and w.best is None
    plain = w.map_png
    w.set_state({"show_scores": True})                     # the check box
    assert np.array_equal(w.scores, ag.placement_scores(ag.Sphere(20), **fireball), equal_nan=True)
    best = ag.best_placements(ag.Sphere(20), **fireball)[0]
    assert w.best is not None and (w.best.at, w.best.score) == (best.at, best.score) == ((12, 11), 4.0)
    assert "best at (12, 11): 4 (Mog, Snik, Urg, Ogre)" in w.summary
    assert w.map_png != plain
    w.shape = ag.Cone(30, "E")                             # scores per direction, around the caster
    assert w.scores is not None and w.scores.shape == (72,)
    w.set_state({"show_scores": False})
    assert w.scores is None and w.map_png == plain and "aoegrid-best" not in w.summary


def test_with_a_caster_placements_at_a_point_are_checked() -> None:
    c = ag.Token(5, 4, name="c")
    m = ag.BattleMap(ag.Grid(16, 10), [ag.Wall((8, 0), (8, 10))],
                     tokens=[c, ag.Token(10, 6, name="orc", tags={"enemy"})])
    w = ag.explore(m, ag.Sphere(10), caster=c, at=(10, 6))   # behind the wall: no line of effect
    assert w.area is None and w.error == ("the caster has no line of effect to point of origin (10, 6); "
                                          "the nearest legal origin is (7, 6)")
    w.rules = "sw5e"                                       # unseen behind the wall: its near side
    click(w, 10.4, 6.6)
    assert w.origin == (10.5, 6.5) and len(w.area) == 6 and shown(w)[1] == []
    same(w, ag.area(ag.Sphere(10), at=(10.5, 6.5), on=m, rules="sw5e", caster=c))
    w = ag.explore(m, ag.Sphere(10), caster=c, range=10, at=(7, 8))
    assert w.area is None and w.error == ("point of origin (7, 8) is 15 ft from the caster, beyond its range of "
                                          "10 ft; the nearest legal origin is (7, 7)")
    w.shape = ag.Cone(15, "E")                             # a cone is drawn where clicked, unchecked
    same(w, ag.area(ag.Cone(15, "E"), at=(7, 8), on=m))


def test_the_score_map_searches_intersections_and_centres_under_sw5e() -> None:
    ring = [(9, 8), (10, 8), (8, 9), (11, 9), (8, 10), (11, 10), (9, 11), (10, 11)]
    caster = ag.Token(2, 2, name="caster")
    m = ag.BattleMap(ag.Grid(20, 20), tokens=[caster, *(ag.Token(x, y, tags={"enemy"}) for x, y in ring)])
    w = ag.explore(m, ag.Sphere(10), rules="sw5e", caster=caster)
    w.show_scores = True
    assert w.scores is not None and w.scores.shape == (41, 41)
    assert w.scores[20, 20] == 8.0 and w.scores[19, 19] == 4.0      # at (10, 10), and at the centre (9.5, 9.5)
    assert w.best is not None and (w.best.at, w.best.score) == ((10, 10), 8.0)
    assert "best at (10, 10): 8" in w.summary


def test_pictures_span_the_grid_and_the_area_layer_is_transparent() -> None:
    m = ag.BattleMap(ag.Grid(12, 8), tokens=[ag.Token(9, 1, name="orc")])
    w = ag.explore(m, ag.Sphere(10), at=(3, 3), scale=10)
    base, layer = png(w.map_png), png(w.area_png)
    assert base.shape[:2] == layer.shape[:2] == (80, 120) and layer.shape[2] == 4
    assert layer[3 * 10 + 5, 3 * 10 + 5, 3] > 0           # square (3, 3) is covered: drawn
    assert layer[75, 60, 3] == 0                           # square (6, 7) is not: see-through
    assert png(ag.explore(ag.Grid(100, 50)).map_png).shape[:2] == (384, 768)   # about 768 across


def test_names_are_escaped_in_the_summary() -> None:
    m = ag.BattleMap(ag.Grid(6, 6), tokens=[ag.Token(2, 2, name="<b>Bob</b> & co")])
    w = ag.explore(m, at=(3, 3))
    assert "<b>Bob" not in w.summary and shown(w)[1] == ["<b>Bob</b> & co: no cover"]
